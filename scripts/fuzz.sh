#!/usr/bin/env bash
# Fuzz every gapscope-data reader and analysis entry point (docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Builds the cargo-fuzz crate in fuzz/ (nightly, debug assertions and overflow
# checks on, no sanitizer: the core forbids unsafe code) and runs the targets one
# after the other, one process each (-jobs=1), each for SECONDS_PER_TARGET
# (default 60). New inputs go to fuzz/corpus-work/<target>/ (gitignored), seeded
# from the committed fuzz/corpus/<target>/; crashes to fuzz/artifacts/<target>/;
# libFuzzer's log to fuzz/logs/<target>.log. Prints executions per target and
# exits non-zero if any target crashed, timed out or ran out of memory.
set -uo pipefail
secs="${1:-60}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz" || exit 1
all=(profiles profiles_long trajectories_jsonl read_any labels tau2 tau3 atif sessions simple_formats parquet inspect_eval evidence runtime analysis stability)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

build_log="$(mktemp)"
cargo +nightly fuzz build --sanitizer none --debug-assertions >"$build_log" 2>&1 \
  || { cat "$build_log"; exit 1; }
rm -f "$build_log"
bin="$root/fuzz/target/x86_64-unknown-linux-gnu/release"
mkdir -p logs
status=0
printf '%-20s %12s %10s %8s %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
  mkdir -p "corpus-work/$t" "artifacts/$t" "logs/$t"
  # -jobs=1 runs one worker process whose output libFuzzer writes to fuzz-0.log
  # in the working directory.
  (cd "logs/$t" && rm -f fuzz-0.log && "$bin/$t" "$root/fuzz/corpus-work/$t" "$root/fuzz/corpus/$t" \
      -jobs=1 -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$root/fuzz/artifacts/$t/" >/dev/null 2>&1)
  log="logs/$t.log"
  mv -f "logs/$t/fuzz-0.log" "$log" 2>/dev/null
  rmdir "logs/$t" 2>/dev/null
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  corpus=$(ls "corpus-work/$t" | wc -l)
  if grep -qE '^(==[0-9]+== ERROR|SUMMARY: libFuzzer|thread .* panicked)' "$log"; then
    result="FAILED: $(grep -oE 'SUMMARY: libFuzzer: [a-z-]+|panicked at [^ ]*' "$log" | head -1) (see fuzz/$log, fuzz/artifacts/$t/)"
    status=1
  else
    result=ok
  fi
  printf '%-20s %12s %10s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "$corpus" "$result"
done
exit $status
