#!/usr/bin/env bash
# Read throughput: gapscope's τ²-bench readers against Python's json.load on
# every file under ../shared/data/tau2/, in one run, with the ratio; then the
# scaling rows (issue 14): `tau2 check` per simulation at 3,000 vs 30,000
# simulations and `profiles` per message on one simulation of 1,000 vs 10,000
# messages, made from the shared airline file, with their ratio (≈ 1: linear);
# then the Parquet row (issue 16): a ~60 MB synthetic Parquet file (written
# once into target/ by scripts/make-parquet-fixtures.py, which needs pyarrow
# in that Python) read by gapscope against pyarrow.parquet.read_table; then
# the per-format rows (issue 16): a ≥ 50 MB synthetic input of each new
# format (written once into target/ by bench/make_format_inputs.py from the
# committed fixtures) read by gapscope against Python's json.load (JSON) or
# per-line json.loads (JSONL) of the same bytes.
#   scripts/bench-read.sh            (GAPSCOPE_BENCH_PYTHON picks the Python; default python3;
#                                     the Parquet row is skipped, saying so, without pyarrow)
#   GAPSCOPE_BENCH_FORMATS=codex,claude scripts/bench-read.sh   (only those per-format rows)
#   GAPSCOPE_BENCH_HARBOR=DIR scripts/bench-read.sh   (then the Harbor memory row:
#                                     scripts/bench-harbor-memory.sh DIR, a ~1 GB job in DIR/job)
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
if [ ! -d "$ROOT/../shared/data/tau2" ]; then
  echo "bench-read: $ROOT/../shared/data/tau2 is missing (the benchmark reads the shared τ²-bench files)" >&2
  exit 1
fi
GAPSCOPE_BENCH_PYTHON="${GAPSCOPE_BENCH_PYTHON:-python3}" \
  cargo bench --locked -p gapscope-data --features parquet --bench read
if [ -n "${GAPSCOPE_BENCH_HARBOR:-}" ]; then
  scripts/bench-harbor-memory.sh "$GAPSCOPE_BENCH_HARBOR"
fi
