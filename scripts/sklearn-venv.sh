#!/usr/bin/env bash
# A Python venv with pinned numpy, scipy and scikit-learn in target/bench-venv,
# used by the benchmark, the scikit-learn cross-check and the paired-statistics
# cross-check (scipy). Idempotent.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
VENV=target/bench-venv
if ! "$VENV/bin/python" -c "import numpy, scipy, sklearn; assert numpy.__version__ == '$NUMPY_VERSION' and scipy.__version__ == '$SCIPY_VERSION' and sklearn.__version__ == '$SKLEARN_VERSION'" 2>/dev/null; then
  step "python venv with numpy $NUMPY_VERSION, scipy $SCIPY_VERSION and scikit-learn $SKLEARN_VERSION"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "numpy==$NUMPY_VERSION" "scipy==$SCIPY_VERSION" "scikit-learn==$SKLEARN_VERSION"
fi
