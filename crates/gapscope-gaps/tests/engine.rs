//! The realization-gap engine checked against values obtained independently:
//! hand-worked family hold-outs, a naive bootstrap over rows, a naive nested
//! selection by row refits, separate runs along the penalty grid.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)]

use gapscope_data::ProfileTable;
use gapscope_gaps::analysis::{AlphaGrid, NESTED_CANDIDATES};
use gapscope_gaps::{analyze, Settings};
use gapscope_stats::heldout::reference::held_out_ridge;
use gapscope_stats::ridge::RidgeFit;
use gapscope_stats::Alpha;
use gapscope_synth::profiles as synth;
use nalgebra::DMatrix;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TOL: f64 = 1e-9;

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= TOL * (1.0 + b.abs()), "{what}: {a} vs {b}");
}

fn read(csv: &str) -> ProfileTable {
    ProfileTable::read(csv, &Default::default()).unwrap()
}

/// Six models in three families, one feature (RE), one operation (PL), alpha = 1.
/// With one standardized feature Σz² = n_T, so the held-out prediction is
/// ȳ + n_T cov(x, y) (x* − x̄) / ((n_T + α) var(x)) (population moments of T):
///
/// - hold out A: T = B ∪ C, x = 3,4,5,6 (x̄ 4.5, var 1.25), y = 2,6,5,7 (ȳ 5),
///   cov 1.75, factor 4·1.75/(5·1.25) = 1.12 → ŷ(1) = 1.08, ŷ(2) = 2.2;
/// - hold out B: T = A ∪ C, x = 1,2,5,6 (x̄ 3.5, var 4.25), y = 1,3,5,7 (ȳ 4),
///   cov 4.5, factor 72/85 → ŷ(3) = 4 − 36/85, ŷ(4) = 4 + 36/85;
/// - hold out C: T = A ∪ B, x = 1,2,3,4 (x̄ 2.5, var 1.25), y = 1,3,2,6 (ȳ 3),
///   cov 1.75, factor 1.12 → ŷ(5) = 5.8, ŷ(6) = 6.92.
///
/// SSE = 2·0.08² + 2·0.8² + 2·(134/85)², SSB = 16+4+4+4+4+16 = 48.
const SIX: &str =
    "model,family,RE,PL\na1,A,1,1\na2,A,2,3\nb1,B,3,2\nb2,B,4,6\nc1,C,5,5\nc2,C,6,7\n";

#[test]
fn hand_worked_family_hold_out_on_six_models() {
    let settings = Settings {
        alpha: Alpha::new(1.0).unwrap(),
        bootstrap: 0,
        ..Settings::default()
    };
    let r = analyze(&read(SIX), &settings).unwrap();
    let pl = &r.operations["PL"];
    let expected = [1.08, 2.2, 4.0 - 36.0 / 85.0, 4.0 + 36.0 / 85.0, 5.8, 6.92];
    for i in 0..6 {
        close(
            pl.predicted[i].unwrap(),
            expected[i],
            &format!("prediction {i}"),
        );
    }
    assert_eq!(
        pl.baseline,
        [5.0, 5.0, 4.0, 4.0, 3.0, 3.0].map(Some).to_vec()
    );
    let b = 134.0f64 / 85.0;
    let sse = 2.0 * 0.08f64.powi(2) + 2.0 * 0.8f64.powi(2) + 2.0 * b * b;
    close(pl.q2.unwrap(), 1.0 - sse / 48.0, "Q²");
    close(
        pl.mae.unwrap(),
        (2.0 * 0.08 + 2.0 * 0.8 + 2.0 * b) / 6.0,
        "MAE",
    );
    close(pl.rmse.unwrap(), (sse / 6.0).sqrt(), "RMSE");
    close(pl.gap[2].unwrap(), -b, "gap b1");
    // One operation: the macro score is that operation, predicted identically.
    assert_eq!(r.macro_fit.fit.predicted, pl.predicted);
    assert!(r
        .macro_fit
        .definition
        .starts_with("unweighted mean of the 1 operation"));
    assert!(r.outcome.is_none() && r.sensitivity.is_none() && r.differences.is_none());
    assert!(pl.ci95.is_none(), "no intervals when B = 0");
}

fn example() -> ProfileTable {
    synth::generate(&Default::default()).table
}

/// The bootstrap redone naively: the documented PRNG draws the same family
/// indices; rows are pooled explicitly and metrics computed from the rows;
/// percentiles like numpy.
#[test]
fn bootstrap_matches_a_naive_row_resampling() {
    let table = example();
    let settings = Settings {
        bootstrap: 2_000,
        seed: 42,
        nested: false,
        ..Settings::default()
    };
    let r = analyze(&table, &settings).unwrap();
    let groups = r.folds.ids.clone();
    let fams: Vec<&String> = gapscope_stats::heldout::reference::distinct_in_order(&groups);
    let g = fams.len();
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let picks: Vec<u32> = (0..2_000 * g)
        .map(|_| rng.random_range(0..g as u32))
        .collect();
    let pct = |mut v: Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        let h = (v.len() - 1) as f64 * q / 100.0;
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(v.len() - 1);
        v[lo] + (h - lo as f64) * (v[hi] - v[lo])
    };
    let check = |fit: &gapscope_gaps::analysis::Fit, what: &str| {
        let (mut maes, mut q2s) = (Vec::new(), Vec::new());
        for d in 0..2_000 {
            let mut rows = Vec::new();
            for &f in &picks[d * g..(d + 1) * g] {
                rows.extend((0..groups.len()).filter(|&i| &groups[i] == fams[f as usize]));
            }
            let e: Vec<f64> = rows
                .iter()
                .map(|&i| fit.observed[i].unwrap() - fit.predicted[i].unwrap())
                .collect();
            let b: Vec<f64> = rows
                .iter()
                .map(|&i| fit.observed[i].unwrap() - fit.baseline[i].unwrap())
                .collect();
            maes.push(e.iter().map(|v| v.abs()).sum::<f64>() / e.len() as f64);
            q2s.push(
                1.0 - e.iter().map(|v| v * v).sum::<f64>() / b.iter().map(|v| v * v).sum::<f64>(),
            );
        }
        let ci = fit.ci95.as_ref().unwrap();
        let [lo, hi] = ci.mae.unwrap();
        close(lo, pct(maes.clone(), 2.5), &format!("{what} MAE lo"));
        close(hi, pct(maes, 97.5), &format!("{what} MAE hi"));
        let [lo, hi] = ci.q2.unwrap();
        close(lo, pct(q2s.clone(), 2.5), &format!("{what} Q² lo"));
        close(hi, pct(q2s, 97.5), &format!("{what} Q² hi"));
        assert_eq!(ci.draws, 2_000);
    };
    check(&r.operations["AS"], "AS");
    check(&r.macro_fit.fit, "macro");
    check(&r.outcome.as_ref().unwrap().fo, "reward F+O");
    // Same inputs, same seed: the same intervals, bit for bit.
    assert_eq!(analyze(&table, &settings).unwrap(), r);
}

/// Nested selection redone with row refits (Cholesky) of every inner fold.
#[test]
fn nested_selection_matches_naive_row_refits() {
    let table = example();
    let r = analyze(
        &table,
        &Settings {
            bootstrap: 0,
            ..Settings::default()
        },
    )
    .unwrap();
    let nested = r.outcome.as_ref().unwrap().nested.as_ref().unwrap();
    let n = table.n_models();
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            table.foundational.values[i]
                .iter()
                .chain(&table.operations.values[i])
                .map(|v| v.unwrap())
                .collect()
        })
        .collect();
    let y: Vec<f64> = table
        .reward
        .as_ref()
        .unwrap()
        .iter()
        .map(|v| v.unwrap())
        .collect();
    let fams = &table.families;
    for outer in gapscope_stats::heldout::reference::distinct_in_order(fams) {
        let train: Vec<usize> = (0..n).filter(|&i| &fams[i] != outer).collect();
        let feats: Vec<Vec<Option<f64>>> = train
            .iter()
            .map(|&i| rows[i].iter().map(|v| Some(*v)).collect())
            .collect();
        let target: Vec<Option<f64>> = train.iter().map(|&i| Some(y[i])).collect();
        let groups: Vec<usize> = train
            .iter()
            .map(|&i| fams.iter().position(|f| f == &fams[i]).unwrap())
            .collect();
        let mut best = (f64::INFINITY, 0.0);
        for a in NESTED_CANDIDATES {
            let h = held_out_ridge(&feats, &target, &groups, Alpha::new(a).unwrap()).unwrap();
            let mse = (0..train.len())
                .map(|k| (target[k].unwrap() - h.predicted[k].unwrap()).powi(2))
                .sum::<f64>()
                / train.len() as f64;
            if mse <= best.0 + 1e-12 {
                best = (mse.min(best.0), a);
            }
        }
        assert_eq!(nested.chosen_alpha[outer.as_str()], best.1, "fold {outer}");
        let x = DMatrix::from_fn(train.len(), rows[0].len(), |r, c| rows[train[r]][c]);
        let yt: Vec<f64> = train.iter().map(|&i| y[i]).collect();
        let fit = RidgeFit::fit(&x, &yt, Alpha::new(best.1).unwrap()).unwrap();
        for i in (0..n).filter(|&i| &fams[i] == outer) {
            close(
                nested.predicted[i].unwrap(),
                fit.predict(&rows[i]),
                &format!("nested prediction {i}"),
            );
        }
    }
}

#[test]
fn sensitivity_curve_equals_separate_runs() {
    let table = example();
    let grid = AlphaGrid::new(0.01, 10_000.0, 7).unwrap();
    let base = Settings {
        bootstrap: 0,
        nested: false,
        grid,
        ..Settings::default()
    };
    let r = analyze(&table, &base).unwrap();
    let s = r.sensitivity.as_ref().unwrap();
    assert_eq!(s.alphas.len(), 7);
    close(s.alphas[0], 0.01, "grid start");
    close(s.alphas[3], 10.0, "grid middle");
    close(s.alphas[6], 10_000.0, "grid end");
    for (k, a) in s.alphas.iter().enumerate() {
        let one = analyze(
            &table,
            &Settings {
                alpha: Alpha::new(*a).unwrap(),
                ..base
            },
        )
        .unwrap();
        let o = one.outcome.unwrap();
        for (curve, fit, name) in [(&s.f, &o.f, "F"), (&s.o, &o.o, "O"), (&s.fo, &o.fo, "F+O")] {
            close(
                curve.mae[k].unwrap(),
                fit.mae.unwrap(),
                &format!("{name} MAE at {a}"),
            );
            close(
                curve.q2[k].unwrap(),
                fit.q2.unwrap(),
                &format!("{name} Q² at {a}"),
            );
            close(
                curve.spearman[k].unwrap(),
                fit.spearman.unwrap(),
                &format!("{name} ρ at {a}"),
            );
        }
    }
}

#[test]
fn outcome_predictors_and_differences_are_consistent() {
    let r = analyze(
        &example(),
        &Settings {
            bootstrap: 500,
            ..Settings::default()
        },
    )
    .unwrap();
    let o = r.outcome.as_ref().unwrap();
    assert_eq!(
        o.baseline.q2,
        Some(0.0),
        "Q² of the baseline is 0 by definition"
    );
    close(
        o.baseline.mae.unwrap(),
        o.f.baseline_mae.unwrap(),
        "baseline MAE",
    );
    let d = &r.differences.as_ref().unwrap()["F+O - F"];
    close(
        d.q2.unwrap(),
        o.fo.q2.unwrap() - o.f.q2.unwrap(),
        "Q²(F+O) − Q²(F)",
    );
    close(
        d.mae.unwrap(),
        o.fo.mae.unwrap() - o.f.mae.unwrap(),
        "MAE difference",
    );
    let ci = d.ci95.as_ref().unwrap();
    assert_eq!(ci.skipped.q2, 0);
    let [lo, hi] = ci.q2.unwrap();
    assert!(lo <= hi);
    // The chosen alphas come from the candidates, one per family.
    let nested = o.nested.as_ref().unwrap();
    assert_eq!(nested.chosen_alpha.len(), 8);
    assert!(nested
        .chosen_alpha
        .values()
        .all(|a| NESTED_CANDIDATES.contains(a)));
}

#[test]
fn bad_settings_are_refused_with_a_message() {
    let t = example();
    let e = analyze(
        &t,
        &Settings {
            bootstrap: 5_000_000,
            ..Settings::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "bootstrap draws must be between 0 and 1000000, got 5000000"
    );
    assert!(AlphaGrid::new(10.0, 1.0, 25)
        .unwrap_err()
        .to_string()
        .contains("0 < lo < hi"));
    assert!(AlphaGrid::new(-1.0, 1.0, 25)
        .unwrap_err()
        .to_string()
        .contains("alpha must be"));
    assert!(AlphaGrid::new(0.1, 1.0, 1).is_err());
}

#[test]
fn missing_values_are_left_out_and_said() {
    let csv = "model,family,TU,RE,GI,PL,reward\n\
               a,A,1,2,3,4,50\nb,A,2,,4,5,60\nc,B,3,1,,6,55\nd,B,4,3,5,7,\n\
               e,C,5,4,6,8,70\nf,C,6,6,7,9,65\n";
    let r = analyze(
        &read(csv),
        &Settings {
            bootstrap: 100,
            ..Settings::default()
        },
    )
    .unwrap();
    assert_eq!(r.operations["GI"].excluded, ["b", "c"]);
    assert_eq!(r.operations["PL"].excluded, ["b"]);
    assert!(r.operations["GI"].predicted[1].is_none() && r.operations["GI"].predicted[2].is_none());
    assert!(
        r.macro_fit.fit.observed[2].is_none(),
        "macro undefined when an operation is missing"
    );
    let o = r.outcome.as_ref().unwrap();
    assert_eq!(o.f.excluded, ["b", "d"]);
    assert_eq!(o.fo.excluded, ["b", "c", "d"]);
    assert!(r
        .warnings
        .iter()
        .any(|w| w.contains("reward: missing for d")));
    assert!(r
        .warnings
        .iter()
        .any(|w| w.contains("operation GI: left out of the fit for a missing value: b, c")));
}

#[test]
fn rankings_by_hand() {
    // Means: a F 2 O 3; b F 4 O 1; c F 3 O 3 (tie with a on O).
    let csv = "model,family,TU,RE,GI,PL\na,A,1,3,2,4\nb,B,4,4,1,1\nc,C,3,3,3,3\n";
    let r = analyze(
        &read(csv),
        &Settings {
            bootstrap: 0,
            ..Settings::default()
        },
    )
    .unwrap();
    let k = &r.rankings;
    assert_eq!(k.foundational_mean, [2.0, 4.0, 3.0].map(Some).to_vec());
    assert_eq!(k.operation_mean, [3.0, 1.0, 3.0].map(Some).to_vec());
    assert_eq!(k.foundational_rank, [3.0, 1.0, 2.0].map(Some).to_vec());
    assert_eq!(k.operation_rank, [1.5, 3.0, 1.5].map(Some).to_vec());
    // ρ between means: ranks (1,3,2) vs (2.5,1,2.5) => Pearson of ranks by hand:
    // x = 1,3,2 (mean 2) ; y = 2.5,1,2.5 (mean 2): sxy = (-1)(0.5)+(1)(-1)+0 = -1.5,
    // sxx = 2, syy = 0.25+1+0.25 = 1.5 => -1.5/sqrt(3)
    close(k.spearman.unwrap(), -1.5 / 3f64.sqrt(), "ρ");
}

/// The pooled macro (from labels) is the macro fit's target when asked for:
/// the macro fit must then equal the fit of an operation column holding the
/// same values (the operation path computes it independently).
#[test]
fn pooled_macro_is_fitted_like_an_operation_with_its_values() {
    use gapscope_gaps::analysis::{AnalysisError, MacroDefinition};
    let pooled = [10.0, 30.0, 20.0, 55.0, 40.0, 70.0];
    let mut t = read(SIX);
    let settings = Settings {
        alpha: Alpha::new(1.0).unwrap(),
        bootstrap: 0,
        macro_definition: MacroDefinition::Pooled,
        ..Settings::default()
    };
    assert!(matches!(
        analyze(&t, &settings),
        Err(AnalysisError::NoPooledMacro)
    ));
    t.pooled_macro = Some(pooled.iter().copied().map(Some).collect());
    let r = analyze(&t, &settings).unwrap();
    assert!(r.macro_fit.definition.starts_with("pooled: "));
    let with_column = format!(
        "model,family,RE,PL\n{}",
        ["a1,A,1", "a2,A,2", "b1,B,3", "b2,B,4", "c1,C,5", "c2,C,6"]
            .iter()
            .zip(pooled)
            .map(|(row, v)| format!("{row},{v}\n"))
            .collect::<String>()
    );
    let by_column = analyze(
        &read(&with_column),
        &Settings {
            macro_definition: MacroDefinition::Mean,
            ..settings
        },
    )
    .unwrap();
    let op = &by_column.operations["PL"];
    for i in 0..6 {
        assert_eq!(r.macro_fit.fit.observed[i], Some(pooled[i]));
        close(
            r.macro_fit.fit.predicted[i].unwrap(),
            op.predicted[i].unwrap(),
            "pooled macro prediction",
        );
    }
    // The report says which definition was used, and it round-trips.
    assert_eq!(r.settings.macro_definition, MacroDefinition::Pooled);
    assert_eq!(
        r.settings.to_settings().unwrap().macro_definition,
        MacroDefinition::Pooled
    );
}
