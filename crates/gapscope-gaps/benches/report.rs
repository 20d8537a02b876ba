//! `scripts/bench.sh` (or `cargo bench -p gapscope-gaps --bench report`)
//!
//! Times the full realization-gap report natively and prints, from one run:
//! (a) the full report (alpha 10, B = 10,000, 25-point grid, nested selection)
//!     on the paper-shaped synthetic example (15 models, 8 families, 7 + 7),
//!     next to the same pipeline written idiomatically with scikit-learn
//!     (`bench/sklearn_pipeline.py`; no bootstrap), and their ratio;
//! (b) the full report at 200 models / 40 families / 20 + 20 dimensions;
//! (c) the report without nested selection at 1,000 models / 100 families /
//!     50 + 50 dimensions;
//! (d), (e) the inference (`report --json --inference`) on the synthetic
//!     trajectory corpus (`gapscope synth-trajectories`: 15 models / 8
//!     families / 7 + 7, 60 tasks, 1 trial) and on 40 × 5 families joined
//!     to a 20 + 20 profile: each part apart — gap intervals (B = 10,000),
//!     single-target permutations (P = 10,000), ΔQ² permutations
//!     (P = 1,000), the rest — and the whole report with it;
//! plus a plain reference (explicit-inverse refits of the same held-out fits)
//! measured in the same run. No timing is asserted anywhere: speed is read here.
//! The scikit-learn run needs `GAPSCOPE_BENCH_PYTHON` (scripts/bench.sh makes
//! a venv with pinned numpy and scikit-learn); without it that line is skipped
//! and says so.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::disallowed_methods)]

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use gapscope_data::operations::{operation_samples, OperationSamples, ProfileOptions};
use gapscope_data::ProfileTable;
use gapscope_gaps::inference::{self, gap_intervals, permutation};
use gapscope_gaps::{analyze, Settings};
use gapscope_synth::profiles::{generate, SynthParams};
use gapscope_synth::trajectories::{self as synth_traj, TrajParams};
use nalgebra::{DMatrix, DVector};

fn median_s(mut f: impl FnMut(), reps: usize) -> f64 {
    f();
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

/// The held-out ridge fits of the report (operations, macro, reward F/O/F+O,
/// 25-point grid; no bootstrap, no nested), written plainly: every fold refit
/// from its rows, explicit inverse.
fn reference(t: &ProfileTable, alpha: f64) -> f64 {
    let n = t.n_models();
    let row = |i: usize, fo: (bool, bool)| -> Vec<f64> {
        let mut r = Vec::new();
        if fo.0 {
            r.extend(t.foundational.values[i].iter().map(|v| v.unwrap()));
        }
        if fo.1 {
            r.extend(t.operations.values[i].iter().map(|v| v.unwrap()));
        }
        r
    };
    let fit = |fo: (bool, bool), y: &[f64], a: f64| -> f64 {
        let mut sum = 0.0;
        for g in t.distinct_families() {
            let tr: Vec<usize> = (0..n).filter(|&i| &t.families[i] != g).collect();
            let p = row(0, fo).len();
            let x = DMatrix::from_fn(tr.len(), p, |r, c| row(tr[r], fo)[c]);
            let mean = x.row_mean();
            let m = tr.len() as f64;
            let sd: Vec<f64> = (0..p)
                .map(|j| {
                    (x.column(j)
                        .iter()
                        .map(|v| (v - mean[j]).powi(2))
                        .sum::<f64>()
                        / m)
                        .sqrt()
                })
                .collect();
            let z = DMatrix::from_fn(tr.len(), p, |r, c| (x[(r, c)] - mean[c]) / sd[c]);
            let yt = DVector::from_iterator(tr.len(), tr.iter().map(|&i| y[i]));
            let ybar = yt.mean();
            let w = (z.transpose() * &z + DMatrix::identity(p, p) * a)
                .try_inverse()
                .unwrap()
                * z.transpose()
                * yt.add_scalar(-ybar);
            for i in (0..n).filter(|&i| &t.families[i] == g) {
                let r = row(i, fo);
                sum += ybar + (0..p).map(|j| w[j] * (r[j] - mean[j]) / sd[j]).sum::<f64>();
            }
        }
        sum
    };
    let q = t.operations.names.len();
    let mut acc = 0.0;
    for k in 0..q {
        let y: Vec<f64> = (0..n).map(|i| t.operations.values[i][k].unwrap()).collect();
        acc += fit((true, false), &y, alpha);
    }
    let macro_y: Vec<f64> = (0..n)
        .map(|i| {
            t.operations.values[i]
                .iter()
                .map(|v| v.unwrap())
                .sum::<f64>()
                / q as f64
        })
        .collect();
    acc += fit((true, false), &macro_y, alpha);
    let y: Vec<f64> = t
        .reward
        .as_ref()
        .unwrap()
        .iter()
        .map(|v| v.unwrap())
        .collect();
    for fo in [(true, false), (false, true), (true, true)] {
        acc += fit(fo, &y, alpha);
        for k in 0..25 {
            acc += fit(fo, &y, 10f64.powf(-2.0 + 6.0 * f64::from(k) / 24.0));
        }
    }
    acc
}

fn sklearn_seconds(t: &ProfileTable) -> Result<f64, String> {
    let python = std::env::var("GAPSCOPE_BENCH_PYTHON")
        .map_err(|_| "GAPSCOPE_BENCH_PYTHON is not set (run scripts/bench.sh)".to_string())?;
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let csv = dir.join("paper-shaped.csv");
    std::fs::write(&csv, t.to_csv()).map_err(|e| e.to_string())?;
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench/sklearn_pipeline.py");
    let out = Command::new(python)
        .arg(script)
        .arg(&csv)
        .args([
            "--foundational",
            &t.foundational.names.join(","),
            "--operations",
            &t.operations.names.join(","),
            "--reps",
            "5",
        ])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    v["median_seconds"]
        .as_f64()
        .ok_or_else(|| "no median_seconds".into())
}

/// A synthetic trajectory corpus's operation profile and reward joined to
/// its foundational profile, and the samples behind the operation scores.
fn trajectory_corpus(params: &TrajParams) -> (ProfileTable, OperationSamples) {
    let c = synth_traj::generate(params).unwrap();
    let samples = operation_samples(&c.trajectories, &ProfileOptions::default());
    (c.joined_table().unwrap(), samples)
}

/// The inference rows of one corpus: each part apart, then the whole
/// report (analysis + inference) against its target.
fn inference_rows(label: &str, params: &TrajParams, reps: usize, target_ms: f64) {
    let (table, samples) = trajectory_corpus(params);
    let settings = Settings::default();
    let report = analyze(&table, &settings).unwrap();
    println!("{label}");
    let row = |name: &str, f: &mut dyn FnMut()| {
        let t = median_s(f, reps);
        println!("    {name:<44} {:>9.1} ms", t * 1e3);
        t
    };
    row("report (analysis, B = 10,000, grid, nested)", &mut || {
        black_box(analyze(black_box(&table), &settings).unwrap());
    });
    row("gap intervals (B = 10,000)", &mut || {
        black_box(gap_intervals::gap_intervals(&table, &settings, &samples).unwrap());
    });
    row("single-target permutations (P = 10,000)", &mut || {
        black_box(permutation::permutation_tests(&table, &settings, 10_000).unwrap());
    });
    row("ΔQ²(F+O − F) permutations (P = 1,000)", &mut || {
        black_box(permutation::delta_q2_permutation_test(
            &table, &settings, 1_000,
        ));
    });
    row(
        "the rest (penalty, coefficients, correlations…)",
        &mut || {
            black_box(inference::infer(&table, &settings, &report, None, 0, 0).unwrap());
        },
    );
    let whole = row("whole report with inference", &mut || {
        let r = analyze(&table, &settings).unwrap();
        black_box(
            inference::infer(
                &table,
                &settings,
                &r,
                Some(&samples),
                inference::DEFAULT_PERMUTATIONS,
                inference::DEFAULT_DELTA_PERMUTATIONS,
            )
            .unwrap(),
        );
    });
    println!(
        "    {:<44} {:>9}    (target ≤ {target_ms:.0} ms: {})",
        "",
        "",
        if whole * 1e3 <= target_ms {
            "met"
        } else {
            "MISSED"
        }
    );
}

fn main() {
    let full = Settings::default();
    let no_nested = Settings {
        nested: false,
        ..Settings::default()
    };
    println!("gapscope benchmark (native, single thread; medians)");
    println!();

    let a = generate(&SynthParams::default()).table;
    let ours_a = median_s(
        || {
            black_box(analyze(black_box(&a), &full).unwrap());
        },
        21,
    );
    println!("(a) full report, 15 models / 8 families / 7 + 7, B = 10,000, grid, nested");
    println!(
        "    gapscope                       {:>10.2} ms",
        ours_a * 1e3
    );
    match sklearn_seconds(&a) {
        Ok(sk) => {
            println!("    scikit-learn (no bootstrap)    {:>10.2} ms", sk * 1e3);
            println!(
                "    ratio scikit-learn / gapscope  {:>10.0}×   (target ≥ 100×)",
                sk / ours_a
            );
        }
        Err(e) => println!("    scikit-learn: skipped: {e}"),
    }
    let no_boot = Settings {
        bootstrap: 0,
        nested: false,
        ..Settings::default()
    };
    let ours_nb = median_s(
        || {
            black_box(analyze(black_box(&a), &no_boot).unwrap());
        },
        51,
    );
    let refr = median_s(
        || {
            black_box(reference(black_box(&a), 10.0));
        },
        11,
    );
    println!("    same fits without bootstrap and nested: gapscope {:.3} ms, explicit-inverse refits {:.3} ms, ratio {:.1}×", ours_nb * 1e3, refr * 1e3, refr / ours_nb);
    println!();

    let b = generate(&SynthParams::sized(40, 5, 20, 20)).table;
    let ours_b = median_s(
        || {
            black_box(analyze(black_box(&b), &full).unwrap());
        },
        5,
    );
    println!(
        "(b) full report, 200 models / 40 families / 20 + 20      {:>8.1} ms   (target ≤ 1000 ms)",
        ours_b * 1e3
    );

    let c = generate(&SynthParams::sized(100, 10, 50, 50)).table;
    let ours_c = median_s(
        || {
            black_box(analyze(black_box(&c), &no_nested).unwrap());
        },
        5,
    );
    println!(
        "(c) no nested, 1,000 models / 100 families / 50 + 50     {:>8.1} ms   (target ≤ 2000 ms)",
        ours_c * 1e3
    );

    println!();

    inference_rows(
        "(d) inference, synthetic trajectory corpus: 15 models / 8 families / 7 + 7, 60 tasks, 1 trial",
        &TrajParams::default(),
        5,
        1_000.0,
    );
    println!();
    let names = |p: &str| (1..=20).map(|i| format!("{p}{i:02}")).collect::<Vec<_>>();
    inference_rows(
        "(e) inference, 40 × 5 families joined to 20 + 20, 60 tasks, 1 trial",
        &TrajParams {
            foundational: names("F"),
            operations: names("O"),
            ..TrajParams::sized(40, 5)
        },
        3,
        20_000.0,
    );
}
