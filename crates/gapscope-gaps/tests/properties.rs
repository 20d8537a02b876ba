//! Invariants of the ridge fit and the held-out analysis, checked by property
//! tests with a deterministic runner (fixed ChaCha seed, as nalgebra does), so a
//! failure reproduces on every machine.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)]

use gapscope_stats::heldout::reference::{held_out_ridge, Metrics};
use gapscope_stats::ridge::RidgeFit;
use gapscope_stats::Alpha;
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

/// Tables of random size and values, 3–6 families, with a reward column.
fn table_strategy() -> impl Strategy<Value = gapscope_data::ProfileTable> {
    (4usize..14, 1usize..5, 1usize..5, 3usize..7).prop_flat_map(|(n, p, q, fams)| {
        (
            prop::collection::vec(prop::collection::vec(0.0f64..100.0, p + q + 1), n),
            prop::collection::vec(0..fams, n),
        )
            .prop_map(move |(vals, fam)| {
                let mut csv = String::from("model,family");
                for j in 0..p {
                    csv.push_str(&format!(",f{j}"));
                }
                for k in 0..q {
                    csv.push_str(&format!(",o{k}"));
                }
                csv.push_str(",reward\n");
                for (i, row) in vals.iter().enumerate() {
                    // Every family appears: the first `fams` models cycle through them.
                    let f = if i < fams { i } else { fam[i] };
                    csv.push_str(&format!("m{i},F{f}"));
                    for v in row {
                        csv.push_str(&format!(",{v}"));
                    }
                    csv.push('\n');
                }
                let roles = gapscope_data::RoleOverrides {
                    foundational: Some((0..p).map(|j| format!("f{j}")).collect()),
                    operations: Some((0..q).map(|k| format!("o{k}")).collect()),
                    ..Default::default()
                };
                gapscope_data::ProfileTable::read(&csv, &roles).unwrap()
            })
    })
}

fn quick() -> gapscope_gaps::Settings {
    gapscope_gaps::Settings {
        bootstrap: 0,
        grid: gapscope_gaps::analysis::AlphaGrid::new(0.1, 100.0, 3).unwrap(),
        ..Default::default()
    }
}

fn permute(t: &gapscope_data::ProfileTable, order: &[usize]) -> gapscope_data::ProfileTable {
    let mut u = t.clone();
    u.models = order.iter().map(|&i| t.models[i].clone()).collect();
    u.families = order.iter().map(|&i| t.families[i].clone()).collect();
    u.foundational.values = order
        .iter()
        .map(|&i| t.foundational.values[i].clone())
        .collect();
    u.operations.values = order
        .iter()
        .map(|&i| t.operations.values[i].clone())
        .collect();
    u.reward = t
        .reward
        .as_ref()
        .map(|r| order.iter().map(|&i| r[i]).collect());
    u
}

fn near(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-8 * (1.0 + a.abs().max(b.abs())),
        (None, None) => true,
        _ => false,
    }
}

#[test]
fn permuting_models_permutes_every_output() {
    runner()
        .run(&(table_strategy(), any::<u64>()), |(t, seed)| {
            let n = t.n_models();
            let mut order: Vec<usize> = (0..n).collect();
            // A seeded Fisher–Yates shuffle.
            let mut s = seed | 1;
            for i in (1..n).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                order.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let a = gapscope_gaps::analyze(&t, &quick()).unwrap();
            let b = gapscope_gaps::analyze(&permute(&t, &order), &quick()).unwrap();
            for (op, fa) in &a.operations {
                let fb = &b.operations[op];
                for (k, &i) in order.iter().enumerate() {
                    prop_assert!(near(fa.predicted[i], fb.predicted[k]), "{op} model {i}");
                    prop_assert!(near(fa.gap[i], fb.gap[k]));
                }
                prop_assert!(
                    near(fa.q2, fb.q2) && near(fa.mae, fb.mae) && near(fa.spearman, fb.spearman)
                );
            }
            let (oa, ob) = (a.outcome.unwrap(), b.outcome.unwrap());
            prop_assert!(near(oa.fo.q2, ob.fo.q2) && near(oa.o.mae, ob.o.mae));
            let (na, nb) = (oa.nested.unwrap(), ob.nested.unwrap());
            for (fold, alpha) in &na.chosen_alpha {
                prop_assert_eq!(Some(alpha), nb.chosen_alpha.get(fold));
            }
            prop_assert_eq!(a.correlations.n, b.correlations.n);
            Ok(())
        })
        .unwrap();
}

#[test]
fn rescaling_a_foundational_column_changes_no_prediction() {
    runner()
        .run(
            &(table_strategy(), 0.01f64..50.0, -100.0f64..100.0),
            |(t, a, b)| {
                let mut u = t.clone();
                for row in &mut u.foundational.values {
                    row[0] = row[0].map(|v| a * v + b);
                }
                let x = gapscope_gaps::analyze(&t, &quick()).unwrap();
                let y = gapscope_gaps::analyze(&u, &quick()).unwrap();
                for (op, fx) in &x.operations {
                    for i in 0..t.n_models() {
                        prop_assert!(
                            near(fx.predicted[i], y.operations[op].predicted[i]),
                            "{op} {i}"
                        );
                    }
                }
                let (ox, oy) = (x.outcome.unwrap(), y.outcome.unwrap());
                for i in 0..t.n_models() {
                    prop_assert!(near(ox.fo.predicted[i], oy.fo.predicted[i]));
                }
                // Pearson is invariant to a positive affine change.
                for k in 0..t.operations.names.len() {
                    prop_assert!(near(
                        x.correlations.pearson[0][k],
                        y.correlations.pearson[0][k]
                    ));
                }
                prop_assert_eq!(ox.baseline.q2, Some(0.0));
                Ok(())
            },
        )
        .unwrap();
}

/// The fast engine (sums + eigendecomposition) against row refits solved by
/// Cholesky, on random designs, groups and penalties.
#[test]
fn engine_equals_row_refits_by_cholesky() {
    use gapscope_stats::heldout::engine::{hold_out_each_group, Design};
    let strat = (3usize..16, 1usize..9, 2usize..6).prop_flat_map(|(n, p, g)| {
        (
            prop::collection::vec(prop::collection::vec(-50.0f64..150.0, p), n),
            prop::collection::vec(0.0f64..100.0, n),
            prop::collection::vec(0..g, n),
            1e-3f64..1e4,
        )
    });
    runner()
        .run(&strat, |(rows, y, groups, alpha)| {
            let alpha = Alpha::new(alpha).unwrap();
            let design = Design::new(&rows, &groups);
            let fits = hold_out_each_group(&design, &[design.target(&y)], &[alpha]);
            let opt: Vec<Vec<Option<f64>>> = rows
                .iter()
                .map(|r| r.iter().map(|v| Some(*v)).collect())
                .collect();
            let yo: Vec<Option<f64>> = y.iter().map(|v| Some(*v)).collect();
            let reference = held_out_ridge(&opt, &yo, &groups, alpha).unwrap();
            for i in 0..y.len() {
                match (fits.predicted[0][0][i], reference.predicted[i]) {
                    (Some(a), Some(b)) => prop_assert!(
                        (a - b).abs() <= 1e-8 * (1.0 + b.abs()),
                        "row {i}: {a} vs {b}"
                    ),
                    (a, b) => prop_assert_eq!(a, b),
                }
            }
            Ok(())
        })
        .unwrap();
}
