//! `cargo bench -p gapscope-core --bench analysis`
//!
//! Times the whole realization-gap analysis (`analyze`: correlations + one
//! family-held-out ridge per operation) and, as the reference measured in the
//! same run on the same data, a straightforward implementation of the same
//! held-out fits that inverts `Z'Z + alpha I` explicitly. Prints medians and
//! the ratio gapscope / reference (below 1: gapscope is faster). No timing is
//! asserted: speed is read from this output, not from tests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::disallowed_methods)]

use std::hint::black_box;
use std::time::Instant;

use gapscope_core::synth::{generate, SynthParams};
use gapscope_core::{analyze, ProfileTable, Settings};
use nalgebra::{DMatrix, DVector};

fn median_ns(mut f: impl FnMut(), reps: usize) -> f64 {
    for _ in 0..reps.min(20) {
        f();
    }
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_nanos() as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[reps / 2]
}

/// The same held-out ridge fits, written plainly: explicit inverse, fresh
/// allocations, no shared work. Predictions only (no correlations).
fn reference(table: &ProfileTable, alpha: f64) -> f64 {
    let n = table.n_models();
    let p = table.foundational.names.len();
    let mut checksum = 0.0;
    for k in 0..table.operations.names.len() {
        for g in table.distinct_families() {
            let train: Vec<usize> = (0..n).filter(|&i| &table.families[i] != g).collect();
            let m = train.len() as f64;
            let mut x = DMatrix::<f64>::zeros(train.len(), p);
            for (r, &i) in train.iter().enumerate() {
                for j in 0..p {
                    x[(r, j)] = table.foundational.values[i][j].unwrap();
                }
            }
            let mean = x.row_mean();
            let mut z = x.clone();
            for j in 0..p {
                let sd = (z
                    .column(j)
                    .iter()
                    .map(|v| (v - mean[j]).powi(2))
                    .sum::<f64>()
                    / m)
                    .sqrt();
                for r in 0..train.len() {
                    z[(r, j)] = (z[(r, j)] - mean[j]) / sd;
                }
            }
            let y = DVector::from_iterator(
                train.len(),
                train
                    .iter()
                    .map(|&i| table.operations.values[i][k].unwrap()),
            );
            let ybar = y.mean();
            let a = z.transpose() * &z + DMatrix::identity(p, p) * alpha;
            let w = a.try_inverse().unwrap() * z.transpose() * y.add_scalar(-ybar);
            for i in (0..n).filter(|&i| &table.families[i] == g) {
                let s: f64 = (0..p)
                    .map(|j| w[j] * (table.foundational.values[i][j].unwrap() - mean[j]))
                    .sum();
                checksum += ybar + s;
            }
        }
    }
    checksum
}

fn main() {
    let cases = [
        (
            "paper-shaped: 15 models, 8 families, 7 + 7",
            SynthParams::default(),
            2000,
        ),
        (
            "wide: 120 models, 40 families, 20 + 12",
            SynthParams {
                families: (0..40).map(|f| (format!("F{f}"), 3)).collect(),
                foundational: (0..20).map(|j| format!("f{j}")).collect(),
                operations: (0..12).map(|k| format!("o{k}")).collect(),
                ..SynthParams::default()
            },
            100,
        ),
    ];
    println!(
        "{:<46} {:>14} {:>16} {:>8}",
        "case", "gapscope", "reference", "ratio"
    );
    for (name, params, reps) in cases {
        let table = generate(&params).table;
        let settings = Settings::default();
        let ours = median_ns(
            || {
                black_box(analyze(black_box(&table), &settings).unwrap());
            },
            reps,
        );
        let theirs = median_ns(
            || {
                black_box(reference(black_box(&table), 10.0));
            },
            reps,
        );
        println!(
            "{name:<46} {:>11.1} µs {:>13.1} µs {:>8.2}",
            ours / 1e3,
            theirs / 1e3,
            ours / theirs
        );
    }
    println!("(medians; gapscope = analyze(): correlations + held-out ridge per operation; reference = held-out ridge only, explicit inverse)");
}
