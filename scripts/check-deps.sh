#!/usr/bin/env bash
# Dependency rule: the analysis core must never depend on a web crate or on a
# source of OS/JS randomness, for the host or for wasm32.
#   scripts/check-deps.sh              check gapscope-core (exit 1 on violation)
#   scripts/check-deps.sh --self-test  also prove the check catches a violation
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

FORBIDDEN='^(leptos.*|web-sys|js-sys|wasm-bindgen.*|gloo.*|getrandom|web-time|console_error_panic_hook)$'

violations() { # package, target
  cargo tree -p "$1" --target "$2" -e normal,build --prefix none --format '{p}' 2>/dev/null |
    awk '{print $1}' | sort -u | grep -E "$FORBIDDEN" || true
}

status=0
for target in x86_64-unknown-linux-gnu wasm32-unknown-unknown; do
  found=$(violations gapscope-core "$target")
  if [ -n "$found" ]; then
    echo "check-deps: gapscope-core depends on forbidden crates for $target:" >&2
    echo "$found" | sed 's/^/  /' >&2
    echo "  (see ARCHITECTURE.md: the core has no web dependency; run cargo tree -i <crate> -p gapscope-core to see why)" >&2
    status=1
  fi
done

if [ "${1:-}" = "--self-test" ]; then
  if [ -z "$(violations gapscope-web wasm32-unknown-unknown)" ]; then
    echo "check-deps self-test: the check found nothing in gapscope-web, which must contain leptos; the check is broken" >&2
    status=1
  fi
fi
[ $status -eq 0 ] && echo "check-deps: gapscope-core has no web or randomness dependency (host and wasm32)"
exit $status
