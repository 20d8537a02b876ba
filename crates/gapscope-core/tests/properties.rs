//! Invariants of the ridge fit and the held-out analysis, checked by property
//! tests with a deterministic runner (fixed ChaCha seed, as nalgebra does), so a
//! failure reproduces on every machine.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)]

use gapscope_core::crossval::{held_out_ridge, Metrics};
use gapscope_core::ridge::RidgeFit;
use gapscope_core::Alpha;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn runner() -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases: 256,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// (rows, features, row-major values, targets, alpha)
fn problem() -> impl Strategy<Value = (usize, usize, Vec<f64>, Vec<f64>, f64)> {
    (2usize..12, 1usize..8, 1e-3f64..1e4).prop_flat_map(|(n, p, alpha)| {
        (
            Just(n),
            Just(p),
            prop::collection::vec(-100.0f64..100.0, n * p),
            prop::collection::vec(0.0f64..100.0, n),
            Just(alpha),
        )
    })
}

#[test]
fn ridge_solution_zeroes_the_penalized_gradient() {
    runner()
        .run(&problem(), |(n, p, xs, y, alpha)| {
            let x = DMatrix::from_row_slice(n, p, &xs);
            let fit = RidgeFit::fit(&x, &y, Alpha::new(alpha).unwrap()).unwrap();
            // Rebuild Z from the fit's own scaling; gradient Z'(y - b - Zw) - alpha w = 0.
            let mut z = DMatrix::<f64>::zeros(n, p);
            for i in 0..n {
                for j in 0..p {
                    if fit.scale[j] > 0.0 {
                        z[(i, j)] = (x[(i, j)] - fit.mean[j]) / fit.scale[j];
                    }
                }
            }
            let w = DVector::from_vec(fit.coef.clone());
            let resid = DVector::from_iterator(n, y.iter().map(|v| v - fit.intercept)) - &z * &w;
            let grad = z.transpose() * resid - &w * alpha;
            let scale = 1.0 + y.iter().map(|v| v.abs()).sum::<f64>() * (n as f64);
            prop_assert!(grad.amax() <= 1e-9 * scale, "gradient {}", grad.amax());
            // A constant (zeroed) feature carries no weight.
            for j in 0..p {
                if fit.scale[j] == 0.0 {
                    prop_assert!(fit.coef[j].abs() <= 1e-9 * scale);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn predictions_are_invariant_to_feature_units() {
    runner()
        .run(
            &(problem(), 0.01f64..100.0, -50.0f64..50.0),
            |((n, p, xs, y, alpha), a, b)| {
                let x = DMatrix::from_row_slice(n, p, &xs);
                let x2 = x.map(|v| a * v + b);
                let alpha = Alpha::new(alpha).unwrap();
                let f1 = RidgeFit::fit(&x, &y, alpha).unwrap();
                let f2 = RidgeFit::fit(&x2, &y, alpha).unwrap();
                for i in 0..n {
                    let r1: Vec<f64> = x.row(i).iter().copied().collect();
                    let r2: Vec<f64> = x2.row(i).iter().copied().collect();
                    prop_assert!(
                        (f1.predict(&r1) - f2.predict(&r2)).abs()
                            <= 1e-7 * (1.0 + f1.predict(&r1).abs())
                    );
                }
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn huge_penalty_shrinks_to_the_baseline_and_q2_is_at_most_one() {
    let strat = (3usize..10, 1usize..5).prop_flat_map(|(n, p)| {
        (
            prop::collection::vec(prop::collection::vec(0.0f64..100.0, p), n),
            prop::collection::vec(0.0f64..100.0, n),
            prop::collection::vec(0usize..4, n),
        )
    });
    runner()
        .run(&strat, |(rows, y, groups)| {
            let feats: Vec<Vec<Option<f64>>> = rows
                .iter()
                .map(|r| r.iter().map(|v| Some(*v)).collect())
                .collect();
            let target: Vec<Option<f64>> = y.iter().map(|v| Some(*v)).collect();
            let h = held_out_ridge(&feats, &target, &groups, Alpha::new(1e12).unwrap()).unwrap();
            for (p, b) in h.predicted.iter().zip(&h.baseline) {
                if let (Some(p), Some(b)) = (p, b) {
                    prop_assert!((p - b).abs() < 1e-6, "{p} vs {b}");
                }
            }
            let h = held_out_ridge(&feats, &target, &groups, Alpha::DEFAULT).unwrap();
            let m = Metrics::compute(&target, &h.predicted, &h.baseline);
            if let Some(q2) = m.q2 {
                prop_assert!(q2 <= 1.0);
            }
            Ok(())
        })
        .unwrap();
}
