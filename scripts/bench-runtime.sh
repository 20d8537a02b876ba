#!/usr/bin/env bash
# Issue 21's benchmark row: `gapscope runtime simulate` scaled to 100,000
# episodes (--instances 6250 × 4 caps × 4 conditions, ≈ 0.9 GB of JSONL)
# analysed natively by the release CLI with every addendum section, beside
# two references measured in the same run on the same file: reading it
# (`wc -l`, the I/O floor) and the analysis without intervals (B = 0: parse,
# per-episode quantities, every table). Speed is read here; no timing is
# asserted anywhere. Usage: scripts/bench-runtime.sh [instances]
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
INSTANCES="${1:-6250}"
cargo build --release --locked -p gapscope-cli >/dev/null
CLI="$ROOT/target/release/gapscope"
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
LOG="$DIR/episodes.jsonl"
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
t_sim=$(secs sh -c "\"$CLI\" runtime simulate --instances $INSTANCES > \"$LOG\"")
n=$(wc -l < "$LOG"); bytes=$(stat -c %s "$LOG")
t_wc=$(secs wc -l "$LOG")
t_b0=$(secs "$CLI" runtime analyze --episodes "$LOG" --json --no-episodes --bootstrap 0)
t_full=$(secs "$CLI" runtime analyze --episodes "$LOG" --json --no-episodes)
t_text=$(secs "$CLI" runtime analyze --episodes "$LOG")
printf 'episodes %d, %.2f GB (simulated in %.1f s)\n' "$n" "$(echo "$bytes / 1000000000" | bc -l)" "$t_sim"
printf '%-58s %8.2f s   ratio\n' "reference: wc -l (reading the file)" "$t_wc"
printf '%-58s %8.2f s   %5.1f× wc\n' "analyze --json --no-episodes, B = 0" "$t_b0" "$(echo "$t_b0 / $t_wc" | bc -l)"
printf '%-58s %8.2f s   %5.1f× wc, %4.2f× B=0\n' "analyze --json --no-episodes, B = 10,000 (default)" "$t_full" "$(echo "$t_full / $t_wc" | bc -l)" "$(echo "$t_full / $t_b0" | bc -l)"
printf '%-58s %8.2f s   %5.1f× wc, %4.2f× B=0\n' "analyze (text, every episode kept), B = 10,000" "$t_text" "$(echo "$t_text / $t_wc" | bc -l)" "$(echo "$t_text / $t_b0" | bc -l)"
