//! The CLI's JSON report checked against an independent computation.
//!
//! The reference below shares no code with the analysis crates: it standardizes with
//! its own loops and solves ridge in the *dual* form,
//! `yhat = mean + z* Z' (Z Z' + alpha I)^-1 (y - mean)`, by Gauss–Jordan
//! elimination with partial pivoting, where the core solves the primal normal
//! equations by Cholesky. Both must agree within 1e-9.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)]

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const TOL: f64 = 1e-9;

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run_report(file: &str, extra: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args(["report", "--profiles"])
        .arg(workspace_root().join(file))
        .args(extra)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A CSV read by hand (no csv crate, no core): header + rows, `#` comments.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn read_table(file: &str) -> Table {
    let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    Table { header, rows }
}

impl Table {
    fn col(&self, name: &str) -> Vec<Option<f64>> {
        let j = self.header.iter().position(|h| h == name).unwrap();
        self.rows.iter().map(|r| r[j].parse().ok()).collect()
    }
    fn text(&self, name: &str) -> Vec<String> {
        let j = self.header.iter().position(|h| h == name).unwrap();
        self.rows.iter().map(|r| r[j].clone()).collect()
    }
}

/// Solve A x = b by Gauss–Jordan elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let piv = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, piv);
        b.swap(c, piv);
        for r in 0..n {
            if r != c {
                let f = a[r][c] / a[c][c];
                for k in c..n {
                    a[r][k] -= f * a[c][k];
                }
                b[r] -= f * b[c];
            }
        }
    }
    (0..n).map(|i| b[i] / a[i][i]).collect()
}

/// Family-held-out ridge predictions and baselines, dual form.
fn reference(x: &[Vec<f64>], y: &[f64], fam: &[String], alpha: f64) -> (Vec<f64>, Vec<f64>) {
    let n = y.len();
    let p = x[0].len();
    let mut pred = vec![f64::NAN; n];
    let mut base = vec![f64::NAN; n];
    for g in fam {
        let tr: Vec<usize> = (0..n).filter(|&i| &fam[i] != g).collect();
        let m = tr.len() as f64;
        let mut z = vec![vec![0.0; p]; n];
        for j in 0..p {
            let mu = tr.iter().map(|&i| x[i][j]).sum::<f64>() / m;
            let sd = (tr.iter().map(|&i| (x[i][j] - mu).powi(2)).sum::<f64>() / m).sqrt();
            for i in 0..n {
                z[i][j] = if sd > 1e-12 { (x[i][j] - mu) / sd } else { 0.0 };
            }
        }
        let ybar = tr.iter().map(|&i| y[i]).sum::<f64>() / m;
        let k: Vec<Vec<f64>> = tr
            .iter()
            .enumerate()
            .map(|(a, &i)| {
                tr.iter()
                    .enumerate()
                    .map(|(b, &l)| {
                        let dot: f64 = (0..p).map(|j| z[i][j] * z[l][j]).sum();
                        dot + if a == b { alpha } else { 0.0 }
                    })
                    .collect()
            })
            .collect();
        let c = solve(k, tr.iter().map(|&i| y[i] - ybar).collect());
        for t in (0..n).filter(|&i| &fam[i] == g) {
            let s: f64 = tr
                .iter()
                .enumerate()
                .map(|(a, &i)| c[a] * (0..p).map(|j| z[t][j] * z[i][j]).sum::<f64>())
                .sum();
            pred[t] = ybar + s;
            base[t] = ybar;
        }
    }
    (pred, base)
}

fn num(v: &Value) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"))
}

fn check_file(file: &str, alpha: f64) {
    let report = run_report(file, &["--alpha", &alpha.to_string()]);
    let t = read_table(file);
    let f_names: Vec<String> = report["dimensions"]["foundational"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let fam = t.text("family");
    assert_eq!(report["models"].as_array().unwrap().len(), t.rows.len());
    let f_cols: Vec<Vec<Option<f64>>> = f_names.iter().map(|n| t.col(n)).collect();
    for (op, fit) in report["operations"].as_object().unwrap() {
        let target = t.col(op);
        // Models with every value present take part.
        let keep: Vec<usize> = (0..t.rows.len())
            .filter(|&i| target[i].is_some() && f_cols.iter().all(|c| c[i].is_some()))
            .collect();
        let x: Vec<Vec<f64>> = keep
            .iter()
            .map(|&i| f_cols.iter().map(|c| c[i].unwrap()).collect())
            .collect();
        let y: Vec<f64> = keep.iter().map(|&i| target[i].unwrap()).collect();
        let g: Vec<String> = keep.iter().map(|&i| fam[i].clone()).collect();
        let (pred, base) = reference(&x, &y, &g, alpha);
        let mut sse = 0.0;
        let mut ssb = 0.0;
        for (r, &i) in keep.iter().enumerate() {
            let got = num(&fit["predicted"][i]);
            assert!(
                (got - pred[r]).abs() < TOL,
                "{file} {op} model {i}: {got} vs {}",
                pred[r]
            );
            let gap = num(&fit["gap"][i]);
            assert!((gap - (y[r] - pred[r])).abs() < TOL, "{op} gap {i}");
            sse += (y[r] - pred[r]).powi(2);
            ssb += (y[r] - base[r]).powi(2);
        }
        for i in (0..t.rows.len()).filter(|i| !keep.contains(i)) {
            assert!(fit["predicted"][i].is_null() && fit["gap"][i].is_null());
        }
        let q2 = 1.0 - sse / ssb;
        assert!(
            (num(&fit["q2"]) - q2).abs() < TOL,
            "{op} q2 {} vs {q2}",
            fit["q2"]
        );
    }
}

#[test]
fn synthetic_example_matches_dual_form_reference() {
    check_file("assets/synthetic-example.csv", 10.0);
    check_file("assets/synthetic-example.csv", 0.37);
}

#[test]
fn small_fixture_with_missing_value_matches_reference() {
    check_file("tests/fixtures/profiles-small.csv", 10.0);
}

#[test]
fn correlations_match_textbook_formula() {
    let report = run_report("assets/synthetic-example.csv", &[]);
    let t = read_table("assets/synthetic-example.csv");
    let fdims = report["dimensions"]["foundational"].as_array().unwrap();
    let ops = report["dimensions"]["operations"].as_array().unwrap();
    for (j, f) in fdims.iter().enumerate() {
        for (k, o) in ops.iter().enumerate() {
            let x: Vec<f64> = t.col(f.as_str().unwrap()).into_iter().flatten().collect();
            let y: Vec<f64> = t.col(o.as_str().unwrap()).into_iter().flatten().collect();
            let n = x.len() as f64;
            // r = (n Σxy − Σx Σy) / sqrt((n Σx² − (Σx)²)(n Σy² − (Σy)²))
            let (sx, sy) = (x.iter().sum::<f64>(), y.iter().sum::<f64>());
            let sxy: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
            let sxx: f64 = x.iter().map(|a| a * a).sum();
            let syy: f64 = y.iter().map(|b| b * b).sum();
            let r = (n * sxy - sx * sy) / ((n * sxx - sx * sx) * (n * syy - sy * sy)).sqrt();
            let got = num(&report["correlations"]["pearson"][j][k]);
            assert!((got - r).abs() < 1e-9, "{f} × {o}: {got} vs {r}");
            assert_eq!(report["correlations"]["n"][j][k], 15);
        }
    }
}

#[test]
fn closed_form_single_feature() {
    // Three families, one feature, alpha = 1. Hold out family C (x = 3):
    // training x = 1, 2 (mean 1.5, sd 0.5), y = 1, 3 (mean 2); z = -1, 1;
    // w = Σ z (y - 2) / (Σ z² + 1) = (1 + 1) / 3 = 2/3; z(3) = 3 => yhat = 2 + 2 = 4.
    let dir = std::env::temp_dir().join(format!("gapscope-cf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cf.csv");
    std::fs::write(&file, "model,family,RE,PL\na,A,1,1\nb,B,2,3\nc,C,3,5\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args(["report", "--alpha", "1", "--json", "--profiles"])
        .arg(&file)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pl = &v["operations"]["PL"];
    assert!((num(&pl["predicted"][2]) - 4.0).abs() < TOL);
    assert!((num(&pl["gap"][2]) - 1.0).abs() < TOL);
    // Hold out A (x = 1): train x = 2, 3, y = 3, 5: z = -1, 1, w = 2/3, z(1) = -3 => 4 - 2 = 2.
    assert!((num(&pl["predicted"][0]) - 2.0).abs() < TOL);
    // Hold out B (x = 2): train x = 1, 3, y = 1, 5: w = (2 + 2)/3 = 4/3, z(2) = 0 => 3.
    assert!((num(&pl["predicted"][1]) - 3.0).abs() < TOL);
    // Q² = 1 - (1 + 0 + 1) / ((1-4)² + (3-3)² + (5-2)²) = 1 - 2/18.
    assert!((num(&pl["q2"]) - (1.0 - 2.0 / 18.0)).abs() < TOL);
    assert_eq!(v["folds"]["kind"], "family");
    // x and y are exactly collinear: r = 1 over n = 3 pairs.
    assert!((num(&v["correlations"]["pearson"][0][0]) - 1.0).abs() < TOL);
    assert_eq!(v["correlations"]["n"][0][0], 3);
}

#[test]
fn located_error_and_exit_code() {
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args(["report", "--json", "--profiles"])
        .arg(workspace_root().join("tests/fixtures/profiles-broken.csv"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("profiles-broken.csv: line 4, column `RE`: expected a number (or an empty cell for a missing value), found `n/a?`"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
