"""Cross-check: gapscope's paired statistics (crates/gapscope-stats/src/paired)
against an independent numpy/scipy implementation of docs' comparisons.md.

Every exact quantity must agree within 1e-9: per run x̄, clustered SE and
normal interval, success rate, Wilson (scipy binomtest's proportion_ci),
pass^k and pass@k (math.comb), flip rate, ICC(1) (from scipy's one-way ANOVA F)
and k₀; per pair the common and one-sided task lists, d_t, Δ, sd, normal
interval, MDE (scipy norm.ppf), sign test p (scipy binomtest), the exact
permutation p (exact rational enumeration of the sums' distribution, or
listing the 2^n' patterns) and its method; Holm and Benjamini–Hochberg
(scipy false_discovery_control); the point ranks (scipy rankdata). Undefined
must be undefined on both sides.

The bootstrap and Monte Carlo numbers cannot match draw for draw (ChaCha8 in
Rust, numpy's PCG64 here): they are compared within Monte Carlo tolerance
(each interval bound must be numpy's 2.5th or 97.5th percentile within 0.01
in probability — the statistics are discrete, so a bound may sit on an atom —
skipped shares within 0.02, Monte Carlo p within 5 SD).

    scripts/sklearn-venv.sh
    target/bench-venv/bin/python bench/compare_paired.py [path/to/paired_json]

Without a path the example is built and run with cargo
(`cargo run -q -p gapscope-stats --example paired_json`).
"""
import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
TOL = 1e-9
QTOL = 0.01
SKIP_TOL = 0.02
TIE = 1e-12
SUCCESS = 1 - 1e-6
Z = stats.norm.ppf(0.975)
ZB = stats.norm.ppf(0.8)
B = 10_000
P = 10_000


# ----------------------------------------------------------------- inputs

def binary_runs(rng, names, n_tasks, k, drop, effects):
    q = rng.beta(2, 2, n_tasks)
    runs = []
    for name, eff in zip(names, effects):
        keep = rng.random(n_tasks) >= drop
        tasks = []
        for t in range(n_tasks):
            if keep[t]:
                kt = k if isinstance(k, int) else int(k[t])
                p = min(max(q[t] + eff, 0.0), 1.0)
                tasks.append({"key": f"task-{t:03d}", "rewards": [float(x) for x in (rng.random(kt) < p)]})
        runs.append({"name": name, "tasks": tasks})
    return runs


def continuous_runs(rng, names, n_tasks, kmax, drop, exact_one=0.3):
    runs = []
    base = rng.random(n_tasks)
    for name in names:
        tasks = []
        for t in range(n_tasks):
            if rng.random() < drop:
                continue
            kt = int(rng.integers(1, kmax + 1))
            r = np.clip(base[t] + 0.25 * rng.standard_normal(kt), 0, 1)
            r[rng.random(kt) < exact_one] = 1.0
            tasks.append({"key": f"t{t:02d}", "rewards": [float(x) for x in r]})
        runs.append({"name": name, "tasks": tasks})
    return runs


def cases():
    rng = np.random.default_rng(20240517)
    out = []
    out.append(("binary, k = 4, 30 tasks, 3 runs (convolution)",
                binary_runs(rng, ["a", "b", "c"], 30, 4, 0.08, [0.0, 0.08, -0.05])))
    out.append(("binary, one trial, 40 tasks, 4 runs (exact McNemar)",
                binary_runs(rng, ["m1", "m2", "m3", "m4"], 40, 1, 0.05, [0.0, 0.1, 0.2, 0.0])))
    ks = rng.integers(1, 5, 25)
    out.append(("binary, k_t in 1..4 equal in both runs, 25 tasks (lcm weights)",
                binary_runs(rng, ["x", "y"], 25, ks, 0.0, [0.0, 0.1])))
    out.append(("continuous, k_t 1..3 differing, 12 tasks, 3 runs (enumeration)",
                continuous_runs(rng, ["p", "q", "r"], 12, 3, 0.1)))
    pct = continuous_runs(rng, ["pa", "pb"], 10, 2, 0.0)
    for r in pct:
        for t in r["tasks"]:
            t["rewards"] = [float(round(100 * x / 10) * 10) for x in t["rewards"]]
    out.append(("0-100 rewards, 10 tasks (rescaled, enumeration)", pct))
    out.append(("continuous, one trial, 40 tasks (Monte Carlo)",
                continuous_runs(rng, ["u", "v"], 40, 1, 0.0, exact_one=0.0)))
    small = [
        {"name": "one", "tasks": [{"key": "only", "rewards": [1.0, 0.0]}, {"key": "z", "rewards": [0.5]}]},
        {"name": "two", "tasks": [{"key": "only", "rewards": [0.0]}, {"key": "w", "rewards": [1.0]}]},
        {"name": "flat", "tasks": [{"key": "only", "rewards": [0.25]}]},
    ]
    out.append(("one common task", small))
    same = binary_runs(rng, ["s"], 8, 2, 0.0, [0.0])[0]
    out.append(("identical runs (zero variance)", [same, dict(same, name="s2")]))
    return out


# ----------------------------------------------------------------- reference

def rescale(run):
    xs = [x for t in run["tasks"] for x in t["rewards"]]
    if all(0 <= x <= 1 for x in xs):
        return None, run["tasks"]
    assert all(0 <= x <= 100 for x in xs)
    return 100.0, [{"key": t["key"], "rewards": [x / 100 for x in t["rewards"]]} for t in run["tasks"]]


def pass_hat(c, n, k):
    return math.comb(c, k) / math.comb(n, k)


def pass_at(c, n, k):
    return 1 - math.comb(n - c, k) / math.comb(n, k)


def one_run(tasks):
    keys = sorted(t["key"] for t in tasks)
    by = {t["key"]: np.array(t["rewards"], dtype=float) for t in tasks}
    x = [by[k] for k in keys]
    n = len(x)
    N = sum(len(v) for v in x)
    out = {"tasks": n, "trajectories": N}
    if n == 0:
        return out | {"mean": None, "se": None, "normal": None, "success_rate": None, "wilson": None,
                      "flip_rate": None, "icc": None, "k0": None, "pass_hat": [], "pass_at": []}
    allx = np.concatenate(x)
    mean = float(allx.mean())
    out["mean"] = mean
    if n >= 2:
        se = math.sqrt(n / (n - 1) * sum(float((v - mean).sum()) ** 2 for v in x)) / N
        out["se"], out["normal"] = se, [mean - Z * se, mean + Z * se]
    else:
        out["se"] = out["normal"] = None
    succ = [int((v >= SUCCESS).sum()) for v in x]
    out["successes"] = sum(succ)
    out["success_rate"] = sum(succ) / N
    if all(len(v) == 1 for v in x):
        ci = stats.binomtest(sum(succ), N).proportion_ci(confidence_level=0.95, method="wilson")
        out["wilson"] = [ci.low, ci.high]
    else:
        out["wilson"] = None
    rep = [i for i, v in enumerate(x) if len(v) >= 2]
    out["repeated_tasks"] = len(rep)
    out["flip_rate"] = (sum(0 < succ[i] < len(x[i]) for i in rep) / len(rep)) if rep else None
    ks = np.array([len(v) for v in x], dtype=float)
    out["k0"] = float((N - (ks ** 2).sum() / N) / (n - 1)) if n >= 2 else None
    if len(rep) >= 2 and np.ptp(allx) > 0:
        with np.errstate(divide="ignore"):
            F = stats.f_oneway(*x).statistic
        out["icc"] = 1.0 if math.isinf(F) else float((F - 1) / (F + out["k0"] - 1))
    else:
        out["icc"] = None
    K = int(ks.max())
    for name, f in (("pass_hat", pass_hat), ("pass_at", pass_at)):
        out[name] = []
        for k in range(1, K + 1):
            vals = [f(succ[i], len(x[i]), k) for i in range(n) if len(x[i]) >= k]
            out[name].append({"k": k, "tasks": len(vals), "value": sum(vals) / len(vals)})
    return out


def exact_rational_p(da, db):
    """P(|Σ ε d| ≥ |Σ d|) by the exact distribution of Σ ε d over rationals."""
    d = [Fraction(a) - Fraction(b) for a, b in zip(da, db)]
    dist = {Fraction(0): 1}
    for v in d:
        if v == 0:
            continue
        new = {}
        for s, c in dist.items():
            new[s + v] = new.get(s + v, 0) + c
            new[s - v] = new.get(s - v, 0) + c
        dist = new
    target = abs(sum(d))
    total = sum(dist.values())
    return sum(c for s, c in dist.items() if abs(s) >= target) / total


def enumerate_p(d, n):
    nz = [v for v in d if abs(v) > TIE]
    obs = abs(sum(nz) / n)
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(nz)):
        if abs(sum(s * v for s, v in zip(signs, nz)) / n) >= obs - TIE:
            hits += 1
    return hits / 2 ** len(nz)


def pair(ta, tb):
    a = {t["key"]: np.array(t["rewards"]) for t in ta}
    b = {t["key"]: np.array(t["rewards"]) for t in tb}
    common = sorted(set(a) & set(b))
    out = {"common": len(common), "only_a": sorted(set(a) - set(b)), "only_b": sorted(set(b) - set(a))}
    d = np.array([a[k].mean() - b[k].mean() for k in common])
    out["d"] = list(d)
    n = len(common)
    if n == 0:
        return out | {"delta": None, "sd": None, "normal": None, "mde": None, "sign_p": None,
                      "perm_p": None, "method": None, "exact_mcnemar": False}
    delta = float(d.mean())
    out["delta"] = delta
    if n >= 2:
        sd = float(np.std(d, ddof=1)) if np.ptp(d) > 0 else 0.0
        out["sd"], out["normal"] = sd, [delta - Z * sd / math.sqrt(n), delta + Z * sd / math.sqrt(n)]
        out["mde"] = (Z + ZB) * sd / math.sqrt(n)
    else:
        out["sd"] = out["normal"] = out["mde"] = None
    bpos, cneg = int((d > TIE).sum()), int((d < -TIE).sum())
    out["sign_p"] = 1.0 if bpos + cneg == 0 else stats.binomtest(bpos, bpos + cneg, 0.5).pvalue
    out["exact_mcnemar"] = all(len(a[k]) == 1 and len(b[k]) == 1 and a[k][0] in (0.0, 1.0) and b[k][0] in (0.0, 1.0)
                               for k in common)
    sums = [(a[k].sum(), b[k].sum(), len(a[k]), len(b[k])) for k in common]
    integer = all(ka == kb and abs((sa - sb) - round(sa - sb)) <= 1e-9 for sa, sb, ka, kb in sums)
    nonzero = int((np.abs(d) > TIE).sum())
    if integer:
        out["method"] = "convolution"
        out["perm_p"] = float(exact_rational_p([Fraction(round(sa - sb), ka) for sa, sb, ka, _ in sums],
                                               [0] * len(sums)))
    elif nonzero <= 16:
        out["method"] = "enumeration"
        out["perm_p"] = enumerate_p(list(d), n)
    else:
        out["method"] = "monte_carlo"
        rng = np.random.default_rng(7)
        nz = d[np.abs(d) > TIE]
        flips = rng.choice([1.0, -1.0], size=(P, len(nz)))
        hits = int((np.abs(flips @ nz / n) >= abs(nz.sum() / n) - TIE).sum())
        out["perm_p"] = (1 + hits) / (1 + P)
    return out


def holm(p):
    p = np.asarray(p, dtype=float)
    if len(p) == 0:
        return []
    order = np.argsort(p)
    adj = np.maximum.accumulate(p[order] * np.arange(len(p), 0, -1))
    out = np.empty_like(adj)
    out[order] = np.minimum(adj, 1)
    return list(out)


def bh(p):
    return list(stats.false_discovery_control(p, method="bh")) if len(p) else []


def bootstrap(sums_list, ks_list, rng):
    """Draws of x̄ (per run) and of the runs' ranks, over shared resamples."""
    n = len(ks_list[0])
    idx = rng.integers(0, n, size=(B, n))
    means = np.stack([s[idx].sum(1) / k[idx].sum(1) for s, k in zip(sums_list, ks_list)], axis=1)
    ranks = stats.rankdata(-means, axis=1)
    return means, ranks


def pass_bootstrap(x, rng):
    n = len(x)
    idx = rng.integers(0, n, size=(B, n))
    ks = np.array([len(v) for v in x])
    succ = np.array([int((v >= SUCCESS).sum()) for v in x])
    out = {"pass_hat": [], "pass_at": []}
    for k in range(1, ks.max() + 1):
        valid = (ks >= k)[idx]
        cnt = valid.sum(1)
        for name, f in (("pass_hat", pass_hat), ("pass_at", pass_at)):
            v = np.array([f(c, kt, k) if kt >= k else 0.0 for c, kt in zip(succ, ks)])
            vals = (v[idx] * valid).sum(1)
            ok = cnt > 0
            out[name].append((vals[ok] / cnt[ok], 1 - ok.mean()))
    return out


# ----------------------------------------------------------------- compare

class Diff:
    def __init__(self):
        self.exact = 0.0
        self.mc = {}
        self.failures = []
        self.count = 0

    def quantiles(self, where, bounds, draws, kind):
        """Rust's 2.5/97.5 percentile bounds against numpy's own draws, in
        probability: F(bound−) ≤ q ≤ F(bound) within QTOL, with F numpy's
        ECDF (the statistics are discrete, so the bounds may sit on atoms)."""
        draws = np.asarray(draws, dtype=float)
        self.count += 1
        if len(draws) == 0 or any(b is None for b in bounds):
            if not (len(draws) == 0 and all(b is None for b in bounds)):
                self.failures.append(f"{where}: rust {bounds!r} vs {len(draws)} numpy draws")
            return
        for q, b in zip((0.025, 0.975), bounds):
            below = float((draws < b - 1e-12).mean())
            upto = float((draws <= b + 1e-12).mean())
            miss = max(0.0, below - q, q - upto)
            self.mc[kind] = max(self.mc.get(kind, 0.0), miss)
            if miss > QTOL:
                self.failures.append(f"{where}: rust bound {b} is numpy's {below:.4f}–{upto:.4f} quantile, "
                                     f"not {q} (off by {miss:.3g} > {QTOL})")

    def eq(self, where, r, p, tol=TOL, kind=None):
        self.count += 1
        if r is None or p is None:
            if not (r is None and p is None):
                self.failures.append(f"{where}: rust {r!r} vs python {p!r}")
            return
        if isinstance(r, (list, tuple)):
            if len(r) != len(p):
                self.failures.append(f"{where}: lengths {len(r)} vs {len(p)}")
                return
            for i, (x, y) in enumerate(zip(r, p)):
                self.eq(f"{where}[{i}]", x, y, tol, kind)
            return
        if isinstance(r, str) or isinstance(p, str):
            if r != p:
                self.failures.append(f"{where}: {r!r} vs {p!r}")
            return
        diff = abs(float(r) - float(p))
        if kind is None:
            self.exact = max(self.exact, diff)
        else:
            self.mc[kind] = max(self.mc.get(kind, 0.0), diff)
        if not diff <= tol:
            self.failures.append(f"{where}: rust {r!r} vs python {p!r} (|diff| {diff:.3g} > {tol})")


def check_case(name, runs, exe, diff):
    inp = {"settings": {"draws": B, "permutations": P, "seed": 0}, "runs": runs}
    res = subprocess.run(exe, input=json.dumps(inp), capture_output=True, text=True, cwd=ROOT)
    if res.returncode != 0:
        diff.failures.append(f"{name}: rust failed: {res.stderr[-2000:]}")
        return
    out = json.loads(res.stdout)
    rep = out["report"]
    scaled = []
    for i, run in enumerate(runs):
        div, tasks = rescale(run)
        diff.eq(f"{name}/{run['name']}/rescaled", out["rescaled"][i], div)
        scaled.append(tasks)
    rng = np.random.default_rng(1)
    for run, tasks, got in zip(runs, scaled, rep["runs"]):
        w = one_run(tasks)
        where = f"{name}/{run['name']}"
        for key in ("tasks", "trajectories", "mean", "se", "normal", "success_rate", "wilson", "flip_rate", "icc", "k0"):
            diff.eq(f"{where}/{key}", got[key], w[key])
        for key in ("pass_hat", "pass_at"):
            diff.eq(f"{where}/{key}.k", [p["k"] for p in got[key]], [p["k"] for p in w[key]])
            diff.eq(f"{where}/{key}.tasks", [p["tasks"] for p in got[key]], [p["tasks"] for p in w[key]])
            diff.eq(f"{where}/{key}.value", [p["value"] for p in got[key]], [p["value"] for p in w[key]])
        if w["tasks"] == 0:
            continue
        keys = sorted(t["key"] for t in tasks)
        by = {t["key"]: np.array(t["rewards"]) for t in tasks}
        x = [by[k] for k in keys]
        means, _ = bootstrap([np.array([v.sum() for v in x])], [np.array([len(v) for v in x], dtype=float)], rng)
        bt = got["bootstrap"]
        diff.quantiles(f"{where}/bootstrap", [bt["lo"], bt["hi"]], means[:, 0], "bootstrap bounds (probability)")
        pb = pass_bootstrap(x, rng)
        for key in ("pass_hat", "pass_at"):
            for g, (vals, skipped) in zip(got[key], pb[key]):
                gb = g["bootstrap"]
                diff.quantiles(f"{where}/{key}[{g['k']}].bootstrap", [gb["lo"], gb["hi"]], vals,
                               "bootstrap bounds (probability)")
                diff.eq(f"{where}/{key}[{g['k']}].skipped", gb["skipped"] / gb["draws"], skipped, SKIP_TOL,
                        "skipped share")
    # pairs
    raw_sign, raw_perm = [], []
    names = [r["name"] for r in runs]
    k = 0
    for i in range(len(runs)):
        for j in range(i + 1, len(runs)):
            row = rep["pairs"][k]
            k += 1
            c = row["comparison"]
            w = pair(scaled[i], scaled[j])
            where = f"{name}/{names[i]}-{names[j]}"
            diff.eq(f"{where}/names", [row["a"], row["b"]], [names[i], names[j]])
            for key in ("common", "delta", "sd", "normal", "mde"):
                diff.eq(f"{where}/{key}", c[key], w[key])
            diff.eq(f"{where}/only", c["only_a"] + ["|"] + c["only_b"], w["only_a"] + ["|"] + w["only_b"])
            diff.eq(f"{where}/d", [t["d"] for t in c["tasks"]], w["d"])
            diff.eq(f"{where}/sign_p", c["sign_test"]["p"], w["sign_p"])
            diff.eq(f"{where}/exact_mcnemar", str(c["sign_test"]["exact_mcnemar"]), str(w["exact_mcnemar"]))
            perm = c["permutation"]
            diff.eq(f"{where}/method", perm["method"], w["method"])
            if w["method"] == "monte_carlo":
                p = w["perm_p"]
                sd = math.sqrt(2 * max(p * (1 - p), 1 / P) / P)
                diff.eq(f"{where}/perm_p (Monte Carlo)", perm["p"], p, 5 * sd, "Monte Carlo p")
            else:
                diff.eq(f"{where}/perm_p", perm["p"], w["perm_p"])
            raw_sign.append(w["sign_p"])
            raw_perm.append(w["perm_p"])
            if w["common"] > 0:
                a = {t["key"]: np.array(t["rewards"]) for t in scaled[i]}
                b = {t["key"]: np.array(t["rewards"]) for t in scaled[j]}
                d = np.array([a[t].mean() - b[t].mean() for t in sorted(set(a) & set(b))])
                idx = rng.integers(0, len(d), size=(B, len(d)))
                bt = c["bootstrap"]
                diff.quantiles(f"{where}/bootstrap", [bt["lo"], bt["hi"]], d[idx].mean(1),
                               "bootstrap bounds (probability)")
                diff.eq(f"{where}/one_unit", str(bt["one_unit"]), str(w["common"] == 1))
    methods = [row["comparison"]["permutation"]["method"] for row in rep["pairs"]]
    for key, raw in (("sign_test_p", raw_sign), ("permutation_p", raw_perm)):
        got = [row[key] for row in rep["pairs"]]
        if key == "permutation_p" and "monte_carlo" in methods:
            # Monte Carlo p differ by draws: adjust Rust's raw values instead.
            raw = [g["raw"] for g in got]
        else:
            diff.eq(f"{name}/{key}.raw", [g["raw"] for g in got], raw)
        defined = [i for i, p in enumerate(raw) if p is not None]
        diff.eq(f"{name}/{key}.holm", [got[i]["holm"] for i in defined], holm([raw[i] for i in defined]))
        diff.eq(f"{name}/{key}.bh", [got[i]["bh"] for i in defined], bh([raw[i] for i in defined]))
        for i, p in enumerate(raw):
            if p is None:
                diff.eq(f"{name}/{key}[{i}] undefined", [got[i]["holm"], got[i]["bh"]], [None, None])
    # ranks over the tasks common to all runs
    keysets = [set(t["key"] for t in s) for s in scaled]
    common = sorted(set.intersection(*keysets))
    diff.eq(f"{name}/ranks.common", rep["ranks"]["common"], len(common))
    if common:
        bys = [{t["key"]: np.array(t["rewards"]) for t in s} for s in scaled]
        sums = [np.array([by[t].sum() for t in common]) for by in bys]
        ks = [np.array([len(by[t]) for t in common], dtype=float) for by in bys]
        point = [s.sum() / k.sum() for s, k in zip(sums, ks)]
        diff.eq(f"{name}/ranks.mean", [r["mean"] for r in rep["ranks"]["rows"]], point)
        diff.eq(f"{name}/ranks.rank", [r["rank"] for r in rep["ranks"]["rows"]], list(stats.rankdata(-np.array(point))))
        _, ranks = bootstrap(sums, ks, rng)
        for col, r in enumerate(rep["ranks"]["rows"]):
            diff.quantiles(f"{name}/ranks[{r['name']}].interval", [r["interval"]["lo"], r["interval"]["hi"]],
                           ranks[:, col], "rank bounds (probability)")


def main():
    exe = [sys.argv[1]] if len(sys.argv) > 1 else ["cargo", "run", "-q", "-p", "gapscope-stats", "--example",
                                                   "paired_json"]
    diff = Diff()
    assert abs(Z - 1.959963984540054) < 1e-15 and abs(ZB - 0.8416212335729143) < 1e-15
    for name, runs in cases():
        before = len(diff.failures)
        check_case(name, runs, exe, diff)
        print(f"{'ok  ' if len(diff.failures) == before else 'FAIL'} {name}")
    print(f"\n{diff.count} comparisons; max |difference| of exact quantities: {diff.exact:.3g} (tolerance {TOL})")
    for kind, v in sorted(diff.mc.items()):
        print(f"  max |difference| of {kind} (Monte Carlo, not draw for draw): {v:.3g}")
    for f in diff.failures:
        print("  " + f)
    sys.exit(1 if diff.failures else 0)


if __name__ == "__main__":
    main()
