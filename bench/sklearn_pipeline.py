"""The realization-gap pipeline written idiomatically with scikit-learn, for
gapscope's benchmark (scripts/bench.sh) and as an independent numerical check.

Family-held-out ridge as the spec defines it: StandardScaler (population SD)
fitted on the training families, Ridge(alpha) with an intercept, predicting the
held-out family. Targets: every operation and the macro score from F; reward
from F, O and F+O; the same over a 25-point alpha grid; nested selection for
F+O over {0.1, 1, 10, 100, 1000, 10000}. No bootstrap.

    python bench/sklearn_pipeline.py PROFILE.csv --foundational A,B --operations C,D
        [--reps N] [--out predictions.json]

Prints the median wall time of the pipeline (seconds) as JSON on stdout.
"""
import argparse
import csv
import json
import time

import numpy as np
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler

CANDIDATES = [0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0]


def held_out(X, y, families, alpha):
    pred = np.empty(len(y))
    for fam in dict.fromkeys(families):
        test = families == fam
        scaler = StandardScaler().fit(X[~test])
        model = Ridge(alpha=alpha).fit(scaler.transform(X[~test]), y[~test])
        pred[test] = model.predict(scaler.transform(X[test]))
    return pred


def nested(X, y, families, candidates):
    pred = np.empty(len(y))
    chosen = {}
    for fam in dict.fromkeys(families):
        test = families == fam
        Xt, yt, ft = X[~test], y[~test], families[~test]
        mse = [np.mean((yt - held_out(Xt, yt, ft, a)) ** 2) for a in candidates]
        best = min(mse)
        alpha = max(a for a, m in zip(candidates, mse) if m - best <= 1e-12)
        chosen[fam] = alpha
        scaler = StandardScaler().fit(Xt)
        model = Ridge(alpha=alpha).fit(scaler.transform(Xt), yt)
        pred[test] = model.predict(scaler.transform(X[test]))
    return pred, chosen


def pipeline(F, O, y, families, alpha, grid):
    out = {"operations": [held_out(F, O[:, k], families, alpha) for k in range(O.shape[1])]}
    out["macro"] = held_out(F, O.mean(axis=1), families, alpha)
    FO = np.hstack([F, O])
    for name, X in (("F", F), ("O", O), ("F+O", FO)):
        out[name] = held_out(X, y, families, alpha)
        out[name + "_grid"] = [held_out(X, y, families, a) for a in grid]
    out["nested"], out["chosen"] = nested(FO, y, families, CANDIDATES)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profiles")
    ap.add_argument("--foundational", required=True)
    ap.add_argument("--operations", required=True)
    ap.add_argument("--alpha", type=float, default=10.0)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out")
    args = ap.parse_args()
    with open(args.profiles, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    fcols, ocols = args.foundational.split(","), args.operations.split(",")
    F = np.array([[float(r[c]) for c in fcols] for r in rows])
    O = np.array([[float(r[c]) for c in ocols] for r in rows])
    y = np.array([float(r["reward"]) for r in rows])
    families = np.array([r["family"] for r in rows])
    grid = np.logspace(-2, 4, 25)
    times = []
    for _ in range(args.reps):
        t = time.perf_counter()
        out = pipeline(F, O, y, families, args.alpha, grid)
        times.append(time.perf_counter() - t)
    if args.out:
        ser = {k: (v.tolist() if isinstance(v, np.ndarray) else
                   [x.tolist() for x in v] if isinstance(v, list) else v)
               for k, v in out.items()}
        with open(args.out, "w") as f:
            json.dump(ser, f)
    print(json.dumps({"median_seconds": float(np.median(times)), "reps": args.reps}))


if __name__ == "__main__":
    main()
