#!/usr/bin/env bash
# A Python venv with pinned numpy and scikit-learn in target/bench-venv, used by
# the benchmark and by the scikit-learn cross-check. Idempotent.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
VENV=target/bench-venv
if ! "$VENV/bin/python" -c "import numpy, sklearn; assert numpy.__version__ == '$NUMPY_VERSION' and sklearn.__version__ == '$SKLEARN_VERSION'" 2>/dev/null; then
  step "python venv with numpy $NUMPY_VERSION and scikit-learn $SKLEARN_VERSION"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "numpy==$NUMPY_VERSION" "scikit-learn==$SKLEARN_VERSION"
fi
