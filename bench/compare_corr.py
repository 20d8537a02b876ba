"""Cross-check: gapscope's correlation inference
(crates/gapscope-stats/src/inference.rs) against scipy.

For random samples (normal, with ties, tiny n, perfect and constant cases):
Pearson r and p as scipy.stats.pearsonr, its Fisher confidence interval
(`confidence_interval(0.95)`, which is tanh(atanh r ± z/√(n−3))), Spearman
rho and p as scipy.stats.spearmanr, Holm (statsmodels' definition, written
here from the definition) and Benjamini–Hochberg
(scipy.stats.false_discovery_control) over the Pearson p-values. Every
number must agree within 1e-9 (relative for p-values below 1e-6); undefined
must be undefined on both sides.

    scripts/sklearn-venv.sh
    target/bench-venv/bin/python bench/compare_corr.py [path/to/corr_json]
"""
import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
TOL = 1e-9


def samples(rng):
    pairs = []
    for n in [3, 4, 5, 8, 15, 40, 200]:
        for rho in [0.0, 0.3, -0.6, 0.95]:
            x = rng.normal(size=n)
            y = rho * x + math.sqrt(1 - rho * rho) * rng.normal(size=n)
            pairs.append((x, y))
            # Ties: scores rounded to a few levels.
            pairs.append((np.round(x * 2) / 2, np.round(y * 2) / 2))
    pairs.append((np.arange(6.0), 2 * np.arange(6.0) + 1))      # r = 1
    pairs.append((np.arange(6.0), -np.arange(6.0)))             # r = -1
    pairs.append((np.ones(6), np.arange(6.0)))                  # constant: undefined
    return pairs


def holm(p):
    p = np.asarray(p, float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    run = 0.0
    for i, k in enumerate(order):
        run = max(run, min(1.0, (m - i) * p[k]))
        adj[k] = run
    return adj


def close(a, b, what):
    if a is None or b is None or (isinstance(b, float) and math.isnan(b)):
        bad = (a is None) != (b is None or (isinstance(b, float) and math.isnan(b)))
        if bad:
            raise SystemExit(f"{what}: gapscope {a}, scipy {b} (one undefined)")
        return
    tol = TOL * max(1.0, abs(b)) if abs(b) >= 1e-6 else 1e-9 * abs(b) + 1e-300
    if abs(a - b) > max(tol, 1e-15):
        raise SystemExit(f"{what}: gapscope {a!r}, scipy {b!r} (differ by {abs(a - b):.3g})")


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else None
    rng = np.random.default_rng(20261203)
    pairs = samples(rng)
    payload = json.dumps({"pairs": [{"x": list(map(float, x)), "y": list(map(float, y))} for x, y in pairs]})
    cmd = [exe] if exe else ["cargo", "run", "-q", "-p", "gapscope-stats", "--example", "corr_json"]
    out = json.loads(subprocess.run(cmd, input=payload, capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    ps = []
    checked = 0
    for i, ((x, y), got) in enumerate(zip(pairs, out["cells"])):
        n = len(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if np.ptp(x) == 0 or np.ptp(y) == 0:
                want = None
            else:
                want = stats.pearsonr(x, y)
        if want is None:
            close(got["pearson"], None, f"pair {i} r")
            ps.append(None)
            continue
        r = float(want.statistic)
        close(got["pearson"], r, f"pair {i} (n {n}) r")
        p = float(want.pvalue) if n >= 3 else None
        close(got["pearson_p"], p, f"pair {i} (n {n}) Pearson p")
        if n >= 4:
            ci = want.confidence_interval(0.95)
            close(got["pearson_ci"][0], float(ci.low), f"pair {i} (n {n}) Fisher low")
            close(got["pearson_ci"][1], float(ci.high), f"pair {i} (n {n}) Fisher high")
        else:
            close(got["pearson_ci"], None, f"pair {i} Fisher (n < 4)")
        s = stats.spearmanr(x, y)
        if math.isnan(s.statistic):
            close(got["spearman"], None, f"pair {i} rho")
        else:
            close(got["spearman"], float(s.statistic), f"pair {i} (n {n}) rho")
            close(got["spearman_p"], float(s.pvalue), f"pair {i} (n {n}) Spearman p")
        ps.append(p)
        checked += 1
    defined = [p for p in ps if p is not None]
    h, b = holm(defined), stats.false_discovery_control(defined, method="bh")
    k = 0
    for i, p in enumerate(ps):
        if p is None:
            close(out["holm"][i], None, f"Holm {i}")
            continue
        close(out["holm"][i], float(h[k]), f"Holm {i}")
        close(out["bh"][i], float(b[k]), f"BH {i}")
        k += 1
    print(f"compare_corr: {checked} correlations (r, Fisher interval, Pearson and Spearman p) and their Holm/BH adjustments agree with scipy within {TOL}")


if __name__ == "__main__":
    main()
