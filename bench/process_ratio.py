"""Process to process: gapscope's CLI against the scikit-learn pipeline.

The full report (`gapscope report --profiles CSV --json`: alpha 10, B = 10,000,
25-point grid, nested selection) timed as a whole process — start, read, analyse,
write JSON — against `bench/sklearn_pipeline.py`'s own median of the same
held-out fits without bootstrap (Python start and imports excluded, as that
script times itself). Run by scripts/bench.sh:

    python bench/process_ratio.py GAPSCOPE_BINARY PROFILE.csv [--runs N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

FOUNDATIONAL = "TU,IS,KU,CI,RE,SM,CE"
OPERATIONS = "GI,ST,PL,AS,PM,RC,TM"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("profile")
    ap.add_argument("--runs", type=int, default=51)
    a = ap.parse_args()
    cmd = [a.binary, "report", "--profiles", a.profile, "--json"]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)  # warm the file cache
    times = []
    for _ in range(a.runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    ours = statistics.median(times)
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run(
        [sys.executable, os.path.join(here, "sklearn_pipeline.py"), a.profile,
         "--foundational", FOUNDATIONAL, "--operations", OPERATIONS, "--reps", "5"],
        capture_output=True, text=True, check=True)
    theirs = json.loads(out.stdout)["median_seconds"]
    print("(a′) process to process: `gapscope report --json` as a whole process (median of "
          f"{a.runs}) {ours * 1e3:.1f} ms; scikit-learn pipeline (imports excluded, no bootstrap) "
          f"{theirs * 1e3:.0f} ms; ratio {theirs / ours:.0f}×   (target ≥ 100×)")


if __name__ == "__main__":
    main()
