# Sourced by the other scripts: pinned versions and PATH. Keep the versions in
# step with Cargo.lock (wasm-bindgen), Trunk.toml and package.json.
TRUNK_VERSION=0.21.14
# cargo-insta runs the snapshot tests; keep it in step with `insta` in Cargo.lock.
CARGO_INSTA_VERSION=1.49.0
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132
PLAYWRIGHT_VERSION=1.64.1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
NUMPY_VERSION=2.4.6
SKLEARN_VERSION=1.9.1
# scipy for the paired-statistics cross-check (bench/compare_paired.py); scikit-learn needs it too.
SCIPY_VERSION=1.17.1
