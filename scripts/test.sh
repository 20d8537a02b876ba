#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing (pinned),
# then dependency rules, formatting, clippy (host and wasm32), native tests, the
# release wasm build, and the browser tests in headless Chromium.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
# One clean build: incremental caches only cost disk here (decision in Cargo.toml, [profile.dev]).
export CARGO_INCREMENTAL=0

if [ ! -d ../shared ]; then
  echo "test: ../shared (papers, spec, data) is missing beside this clone; the tests need it" >&2
  exit 1
fi

step "setup"
scripts/setup.sh

step "structure: external dependencies (check-deps), edges between our crates (check-layers), module cycles (check-modules), file sizes (check-sizes)"
scripts/check-deps.sh --self-test
node scripts/check-layers.mjs --self-test
node scripts/check-modules.mjs --self-test
node scripts/check-sizes.mjs

step "cargo fmt --check"
cargo fmt --all -- --check

step "leptosfmt --check (the view! macros of src/; leptosfmt.toml)"
leptosfmt --quiet --check src

step "clippy (host)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "clippy (wasm32, web-safe lints)"
CLIPPY_CONF_DIR="$ROOT/scripts/clippy_wasm" \
  cargo clippy --workspace --exclude gapscope-cli --target wasm32-unknown-unknown --locked -- -D warnings

step "rustdoc: broken or private intra-doc links are errors (workspace lints)"
cargo doc --workspace --no-deps --document-private-items --locked

step "native tests, with insta snapshots (a changed, missing or unreferenced snapshot fails; none is written)"
# cargo-insta cannot pass --locked to cargo, so the test targets are built
# with --locked first (a stale Cargo.lock fails here) and cargo insta test
# reuses that build. --check: assert only (INSTA_UPDATE=no for the tests, no
# .snap.new, no forced pass), as cargo-insta also does by itself when CI=true;
# --unreferenced=reject fails on a .snap file that no test asserts.
cargo test --workspace --locked --no-run
cargo insta test --workspace --check --unreferenced=reject

step "release builds: CLI and page (trunk build --release)"
cargo build --release --locked -p gapscope-cli
trunk build --release
ls -l dist/*.wasm

step "single-file page (dist-single/gapscope.html, from dist/)"
node scripts/build-single.mjs

step "budget: the whole dist/ ≤ 2.85 MB, the first load ≤ 1.16 MB gzipped (scripts/budget.mjs; docs/decisions.md 34)"
node scripts/budget.mjs --bundle --first-load
# Cold load against a reference build (e.g. the build before a change), when
# one is given: GAPSCOPE_BUDGET_REFERENCE=DIR (a built dist/ of that commit).
if [ -n "${GAPSCOPE_BUDGET_REFERENCE:-}" ]; then
  step "budget: cold load ≤ 1.1 × the reference build ($GAPSCOPE_BUDGET_REFERENCE)"
  node scripts/budget.mjs --cold --reference "$GAPSCOPE_BUDGET_REFERENCE"
fi

step "cross-check against scikit-learn (pinned venv in target/bench-venv)"
scripts/sklearn-venv.sh
target/bench-venv/bin/python bench/compare_sklearn.py target/release/gapscope

step "cross-check the paired statistics against numpy/scipy (bench/compare_paired.py)"
cargo build --release --locked -p gapscope-stats --example paired_json
target/bench-venv/bin/python bench/compare_paired.py target/release/examples/paired_json

step "cross-check the correlation inference against scipy (bench/compare_corr.py)"
cargo build --release --locked -p gapscope-stats --example corr_json
target/bench-venv/bin/python bench/compare_corr.py target/release/examples/corr_json

step "browser tests (Playwright + Debian Chromium)"
node --test --test-concurrency=1 tests/e2e/
