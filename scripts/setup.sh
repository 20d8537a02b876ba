#!/usr/bin/env bash
# Install what gapscope needs, at pinned versions, and only what is missing.
# Idempotent: with everything present it only checks versions (a few seconds).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

have_version() { # command, expected version substring
  "$1" --version 2>/dev/null | grep -qF "$2"
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for component in clippy rustfmt; do
  if ! rustup component list --installed | grep -q "^$component"; then
    step "rustup component add $component"
    rustup component add "$component"
  fi
done

lock_bindgen=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [ "$lock_bindgen" != "$WASM_BINDGEN_VERSION" ]; then
  echo "Cargo.lock has wasm-bindgen $lock_bindgen but scripts/env.sh pins $WASM_BINDGEN_VERSION" >&2
  exit 1
fi

if ! have_version trunk "trunk $TRUNK_VERSION"; then
  step "cargo install trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
  cargo install trunk --locked --version "$TRUNK_VERSION"
fi
if ! have_version cargo-insta "cargo-insta $CARGO_INSTA_VERSION"; then
  step "cargo install cargo-insta $CARGO_INSTA_VERSION (about 10 minutes on 2 busy cores)"
  cargo install cargo-insta --locked --version "$CARGO_INSTA_VERSION"
fi
lock_insta=$(grep -A1 '^name = "insta"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [ "$lock_insta" != "$CARGO_INSTA_VERSION" ]; then
  echo "Cargo.lock has insta $lock_insta but scripts/env.sh pins cargo-insta $CARGO_INSTA_VERSION" >&2
  exit 1
fi
if ! have_version wasm-bindgen "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  step "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  # No --locked: its lockfile pins a crate the registry no longer has.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# The `view!` formatter checked by scripts/test.sh (leptosfmt.toml).
LEPTOSFMT_VERSION=0.1.33
if ! have_version leptosfmt "leptosfmt $LEPTOSFMT_VERSION"; then
  step "cargo install leptosfmt $LEPTOSFMT_VERSION (about 5 minutes)"
  cargo install leptosfmt --locked --version "$LEPTOSFMT_VERSION"
fi

npm_ok() {
  [ -x node_modules/.bin/wasm-opt ] &&
    node_modules/.bin/wasm-opt --version | grep -q "version $BINARYEN_VERSION" &&
    [ "$(node -p "require('playwright-core/package.json').version" 2>/dev/null)" = "$PLAYWRIGHT_VERSION" ]
}
if ! npm_ok; then
  step "npm ci (binaryen $BINARYEN_VERSION, playwright-core $PLAYWRIGHT_VERSION)"
  npm ci --no-audit --no-fund
fi

if [ ! -x "$CHROMIUM" ] || ! command -v chromedriver >/dev/null; then
  step "apt-get install chromium chromium-driver"
  if [ "$(id -u)" -ne 0 ]; then
    echo "Chromium is missing and installing it needs root: sudo apt-get install -y chromium chromium-driver" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
fi
echo "setup: toolchain ready (trunk $TRUNK_VERSION, cargo-insta $CARGO_INSTA_VERSION, wasm-bindgen $WASM_BINDGEN_VERSION, leptosfmt $LEPTOSFMT_VERSION, binaryen $BINARYEN_VERSION, playwright-core $PLAYWRIGHT_VERSION, $($CHROMIUM --version 2>/dev/null))"
