"""Time pyarrow.parquet.read_table over one Parquet file.

The fastest and the median over --reps repetitions (after one warm-up) are
printed as `python_seconds <s>`, `python_median <s>`, and the same with
`use_threads=False` as `python_seconds_1thread <s>`, for benches/read.rs,
which runs this in the same run as gapscope's reader.
"""
import argparse
import statistics
import time

import pyarrow.parquet as pq


def timed(path, reps, threads):
    pq.read_table(path, use_threads=threads)
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        pq.read_table(path, use_threads=threads)
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    best, median = timed(a.file, a.reps, True)
    print(f"python_seconds {best!r}")
    print(f"python_median {median!r}")
    best, median = timed(a.file, a.reps, False)
    print(f"python_seconds_1thread {best!r}")
    print(f"python_median_1thread {median!r}")


if __name__ == "__main__":
    main()
