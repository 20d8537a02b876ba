#!/usr/bin/env bash
# Build gapscope and serve it on http://127.0.0.1:8080 (PORT=... to change).
# Installs what is missing first (pinned versions). The page opens with the
# synthetic example already analysed; drop your own profile file on it.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
scripts/setup.sh
PORT="${PORT:-8080}"
step "trunk build --release"
trunk build --release
step "serving dist/"
echo "gapscope is at http://127.0.0.1:$PORT/   (Ctrl-C to stop)"
exec node scripts/serve.mjs dist "$PORT"
