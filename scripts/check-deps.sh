#!/usr/bin/env bash
# Dependency rule: the analysis crates (statistics, data, the paper crates,
# the generators) must never depend on a web crate or on a source of OS/JS
# randomness, for the host or for wasm32. The rule between our own crates is
# scripts/check-layers.mjs; module cycles are scripts/check-modules.mjs.
#   scripts/check-deps.sh              check the pure crates (exit 1 on violation)
#   scripts/check-deps.sh --self-test  also prove the check catches a violation
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

FORBIDDEN='^(leptos.*|web-sys|js-sys|wasm-bindgen.*|gloo.*|getrandom|web-time|console_error_panic_hook)$'

violations() { # package, target
  cargo tree -p "$1" --target "$2" -e normal,build --prefix none --format '{p}' 2>/dev/null |
    awk '{print $1}' | sort -u | grep -E "$FORBIDDEN" || true
}

PURE="gapscope-stats gapscope-data gapscope-gaps gapscope-evidence gapscope-runtime gapscope-compare gapscope-synth gapscope-view"

status=0
for crate in $PURE; do
  for target in x86_64-unknown-linux-gnu wasm32-unknown-unknown; do
    found=$(violations "$crate" "$target")
    if [ -n "$found" ]; then
      echo "check-deps: $crate depends on forbidden crates for $target:" >&2
      echo "$found" | sed 's/^/  /' >&2
      echo "  (see ARCHITECTURE.md: the analysis crates have no web dependency; run cargo tree -i <crate> -p $crate to see why)" >&2
      status=1
    fi
  done
done

if [ "${1:-}" = "--self-test" ]; then
  if [ -z "$(violations gapscope-web wasm32-unknown-unknown)" ]; then
    echo "check-deps self-test: the check found nothing in gapscope-web, which must contain leptos; the check is broken" >&2
    status=1
  fi
fi
[ $status -eq 0 ] && echo "check-deps: no analysis crate ($PURE) has a web or randomness dependency (host and wasm32)"
exit $status
