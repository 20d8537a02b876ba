#!/usr/bin/env bash
# Peak memory of a Harbor job read by the CLI (issue 16, "Performance": a
# 1 GB job directory of synthetic trials imports with peak memory ≤ 2× the
# largest trial + 200 MB).
#   scripts/bench-harbor-memory.sh DIR [TRIALS] [TRIAL_BYTES]
# DIR/job is the job: written by `scripts/make-harbor-job.py synthetic` when
# absent (default 2,000 trials of about 0.55 MB of trajectory each, about
# 1 GB; every 10th trial an infrastructure error without a trajectory), kept
# otherwise (delete it to make another). Builds the release CLI, runs
# `gapscope profiles --trajectories DIR/job` under `/usr/bin/time -v`, and
# prints the job's size, the largest trial's (all files of its folder), the
# peak RSS, the bound (2 × largest trial + 200 MB) and whether it holds.
# Takes a few minutes and about 1 GB of disk; scripts/bench-read.sh runs it
# with GAPSCOPE_BENCH_HARBOR=DIR.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
dir="${1:?usage: scripts/bench-harbor-memory.sh DIR [TRIALS] [TRIAL_BYTES]}"
trials="${2:-2000}"
trial_bytes="${3:-550000}"
job="$dir/job"
python="${GAPSCOPE_BENCH_PYTHON:-python3}"
if [ ! -f "$job/config.json" ]; then
  echo "writing a synthetic job of $trials trials into $job …"
  rm -rf "$job.partial"
  "$python" scripts/make-harbor-job.py synthetic "$job.partial" \
    --trials "$trials" --trial-bytes "$trial_bytes"
  mv "$job.partial" "$job"
fi
cargo build --release --locked -q -p gapscope-cli
bin="$ROOT/target/release/gapscope"
job_bytes=$(du -sb "$job" | cut -f1)
n_trials=$(find "$job" -mindepth 1 -maxdepth 1 -type d | wc -l)
largest=$(find "$job" -mindepth 1 -maxdepth 1 -type d -exec du -sb {} + | sort -n | tail -1 | cut -f1)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$(date +%s.%N)
/usr/bin/time -v "$bin" profiles --trajectories "$job" >/dev/null 2>"$log" || {
  cat "$log" >&2
  exit 1
}
end=$(date +%s.%N)
peak_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
# The CLI's own summary line (notes and /usr/bin/time's report left out).
grep -v -e '^\s' -e '^note:' "$log" | tail -2 || true
awk -v job="$job_bytes" -v largest="$largest" -v n="$n_trials" -v kb="$peak_kb" -v s="$start" -v e="$end" 'BEGIN {
  peak = kb * 1024; bound = 2 * largest + 200e6
  printf "Harbor job: %.0f MB, %d trials; largest trial %.2f MB\n", job / 1e6, n, largest / 1e6
  printf "gapscope profiles: %.1f s, peak RSS %.0f MB; bound 2 × largest trial + 200 MB = %.0f MB: %s\n",
    e - s, peak / 1e6, bound / 1e6, (peak <= bound ? "holds" : "EXCEEDED")
  exit (peak <= bound ? 0 : 1)
}'
