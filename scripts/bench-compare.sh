#!/usr/bin/env bash
# The comparison benchmark (issue 17): 10 runs × 1,000 tasks × 4 trials, all
# 45 pairs with B = 10,000 and the permutation tests, natively, beside a plain
# reference measured in the same run (crates/gapscope-stats/benches/compare.rs).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
cargo bench --locked -p gapscope-stats --bench compare
