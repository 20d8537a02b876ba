#!/usr/bin/env bash
# The benchmark: gapscope's full report against the same pipeline written with
# scikit-learn, in one run. Makes a Python venv with pinned numpy and
# scikit-learn in target/bench-venv the first time (PyPI).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
scripts/sklearn-venv.sh
GAPSCOPE_BENCH_PYTHON="$ROOT/target/bench-venv/bin/python" \
  cargo bench --locked -p gapscope-gaps --bench report
# Process to process: the release CLI as a whole process against the
# scikit-learn script's own timing (imports excluded).
cargo build --locked --release -q -p gapscope-cli
"$ROOT/target/bench-venv/bin/python" bench/process_ratio.py target/release/gapscope assets/synthetic-example.csv
