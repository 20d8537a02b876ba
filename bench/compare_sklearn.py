"""Cross-check: gapscope's CLI report against the scikit-learn pipeline of
bench/sklearn_pipeline.py on several synthetic datasets. Every held-out
prediction (operations, macro, reward from F/O/F+O, the alpha grid, nested
selection and its chosen alphas) must agree within 1e-9.

    python bench/compare_sklearn.py path/to/gapscope
"""
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import sklearn_pipeline as sk  # noqa: E402

TOL = 1e-9
CASES = [  # name, synth arguments
    ("synthetic example", []),
    ("seed 1", ["--seed", "1"]),
    ("seed 2, 5 + 9 dims", ["--seed", "2", "--foundational", "5", "--operations", "9"]),
    ("12 families x 3, 10 + 4 dims", ["--seed", "3", "--families", "12", "--per-family", "3",
                                      "--foundational", "10", "--operations", "4"]),
    ("wide: 4 families x 2, 12 + 12 dims (p > n)", ["--seed", "4", "--families", "4", "--per-family", "2",
                                                     "--foundational", "12", "--operations", "12"]),
]


def main():
    cli = sys.argv[1]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in CASES:
            csv_path = Path(tmp) / "profiles.csv"
            csv_path.write_text(subprocess.check_output([cli, "synth", *args], text=True))
            header = next(l for l in csv_path.read_text().splitlines() if not l.startswith("#")).split(",")
            ops_start = header.index("GI") if "GI" in header else next(i for i, h in enumerate(header) if h.startswith("O"))
            fcols, ocols = header[2:ops_start], header[ops_start:-1]
            report = json.loads(subprocess.check_output(
                [cli, "report", "--profiles", str(csv_path), "--json", "--bootstrap", "0",
                 "--foundational", ",".join(fcols), "--operations", ",".join(ocols)], text=True))

            rows = list(csv.DictReader(l for l in csv_path.read_text().splitlines() if not l.startswith("#")))
            F = np.array([[float(r[c]) for c in fcols] for r in rows])
            O = np.array([[float(r[c]) for c in ocols] for r in rows])
            y = np.array([float(r["reward"]) for r in rows])
            fam = np.array([r["family"] for r in rows])
            ref = sk.pipeline(F, O, y, fam, 10.0, np.array(report["sensitivity"]["alphas"]))
            diffs = {}
            for k, op in enumerate(ocols):
                diffs[f"operation {op}"] = np.max(np.abs(np.array(report["operations"][op]["predicted"]) - ref["operations"][k]))
            diffs["macro"] = np.max(np.abs(np.array(report["macro"]["predicted"]) - ref["macro"]))
            out = report["outcome"]
            for p in ("F", "O", "F+O"):
                pred = np.array(out[p]["predicted"])
                diffs[f"reward {p}"] = np.max(np.abs(pred - ref[p]))
                # The grid: compare the Q² curve (computed from predictions) point by point.
                base = np.array(out[p]["baseline"])
                q2 = [1 - np.sum((y - g) ** 2) / np.sum((y - base) ** 2) for g in ref[p + "_grid"]]
                diffs[f"Q² curve {p}"] = np.max(np.abs(np.array(report["sensitivity"][p]["q2"]) - q2))
            diffs["nested"] = np.max(np.abs(np.array(out["nested"]["predicted"]) - ref["nested"]))
            worst = max(diffs, key=diffs.get)
            chosen_ok = out["nested"]["chosen_alpha"] == ref["chosen"]
            ok = diffs[worst] <= TOL and chosen_ok
            passed += ok
            failed += not ok
            print(f"{'ok' if ok else 'FAIL'}  {name}: max |gapscope - scikit-learn| = {diffs[worst]:.2e} ({worst}); "
                  f"nested alphas {'agree' if chosen_ok else 'DIFFER'}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
