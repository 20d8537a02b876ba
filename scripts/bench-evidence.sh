#!/usr/bin/env bash
# Issue 20's benchmark row: scoring 10,000 episodes (the worked set's
# trajectories replicated) natively, beside a parse-only reference measured
# in the same run (crates/gapscope-evidence/benches/score.rs). The browser
# row: node scripts/bench-evidence-browser.mjs (needs trunk build --release).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
cargo bench --locked -p gapscope-evidence --bench score
