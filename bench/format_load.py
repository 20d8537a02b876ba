"""The Python reference of the per-format read rows (benches/read.rs).

Each repetition reads and parses the input named on the command line the
way a Python user would: `json.load` of a JSON file, `json.loads` of every
line of a JSONL file (`--jsonl`), or `json.load` of every file under a
directory (a τ³ results directory). The fastest and the median over --reps
repetitions (after one warm-up) are printed as `python_seconds <s>`,
`python_median <s>` and `python_bytes <n>`.
"""
import argparse
import json
import os
import statistics
import time


def files(path):
    if not os.path.isdir(path):
        return [path]
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)


def read(paths, jsonl):
    for p in paths:
        with open(p, "rb") as h:
            if jsonl:
                for line in h:
                    if line.strip():
                        json.loads(line)
            else:
                json.load(h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--jsonl", action="store_true")
    a = ap.parse_args()
    paths = files(a.input)
    size = sum(os.path.getsize(p) for p in paths)
    read(paths, a.jsonl)  # the page cache and the interpreter
    times = []
    for _ in range(a.reps):
        t = time.perf_counter()
        read(paths, a.jsonl)
        times.append(time.perf_counter() - t)
    print(f"python_seconds {min(times)!r}")
    print(f"python_median {statistics.median(times)!r}")
    print(f"python_bytes {size}")


if __name__ == "__main__":
    main()
