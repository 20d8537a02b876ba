"""Time Python's json.load over the files named on the command line.

Each repetition opens and json.load()s every file (read + parse); the fastest
and the median over --reps repetitions are printed as `python_seconds <s>`,
`python_median <s>` and `python_bytes <n>` for benches/read.rs, which runs this
in the same run.
"""
import argparse
import json
import os
import statistics
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    size = sum(os.path.getsize(f) for f in a.files)
    # Warm the page cache and the interpreter once.
    for f in a.files:
        with open(f, "rb") as h:
            json.load(h)
    times = []
    for _ in range(a.reps):
        t = time.perf_counter()
        for f in a.files:
            with open(f, "rb") as h:
                json.load(h)
        times.append(time.perf_counter() - t)
    print(f"python_seconds {min(times)!r}")
    print(f"python_median {statistics.median(times)!r}")
    print(f"python_bytes {size}")


if __name__ == "__main__":
    main()
