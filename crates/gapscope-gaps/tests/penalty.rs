//! The penalty analyses of `gapscope_gaps::inference::penalty` checked
//! against values obtained independently: nested selection redone by row
//! refits (`held_out_ridge` inside every outer training set, then a plain
//! ridge fit), operation curves against separate analyses at each α, and
//! the F+O nested selection against the one `analyze` reports.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use gapscope_data::ProfileTable;
use gapscope_gaps::analysis::{AlphaGrid, Nested, NESTED_CANDIDATES};
use gapscope_gaps::inference::penalty;
use gapscope_gaps::{analyze, Settings};
use gapscope_stats::heldout::reference::{distinct_in_order, held_out_ridge};
use gapscope_stats::ridge::RidgeFit;
use gapscope_stats::Alpha;
use gapscope_synth::profiles as synth;
use nalgebra::DMatrix;

const TOL: f64 = 1e-9;

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= TOL * (1.0 + b.abs()), "{what}: {a} vs {b}");
}

fn example() -> ProfileTable {
    synth::generate(&Default::default()).table
}

/// Nested selection by its definition: for each outer family, the inner
/// family hold-outs of the outer training models at every candidate (MSE
/// pooled over their predictions; ties within 1e-12 to the larger α), a
/// refit on the whole outer training set at the chosen α.
fn naive_nested(rows: &[Vec<f64>], y: &[f64], fams: &[String]) -> (HashMap<String, f64>, Vec<f64>) {
    let n = rows.len();
    let mut chosen = HashMap::new();
    let mut predicted = vec![f64::NAN; n];
    for outer in distinct_in_order(fams) {
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
        chosen.insert(outer.clone(), best.1);
        let x = DMatrix::from_fn(train.len(), rows[0].len(), |r, c| rows[train[r]][c]);
        let yt: Vec<f64> = train.iter().map(|&i| y[i]).collect();
        let fit = RidgeFit::fit(&x, &yt, Alpha::new(best.1).unwrap()).unwrap();
        for i in (0..n).filter(|&i| &fams[i] == outer) {
            predicted[i] = fit.predict(&rows[i]);
        }
    }
    (chosen, predicted)
}

/// What a nested selection is checked against: a name, the selection,
/// its feature rows and its target.
type Check<'a> = (String, &'a Nested, &'a [Vec<f64>], Vec<f64>);

fn dense(rows: &[Vec<Option<f64>>]) -> Vec<Vec<f64>> {
    rows.iter()
        .map(|r| r.iter().map(|v| v.unwrap()).collect())
        .collect()
}

fn no_bootstrap() -> Settings {
    Settings {
        bootstrap: 0,
        ..Settings::default()
    }
}

#[test]
fn nested_selection_of_every_predictor_matches_row_refits() {
    let table = example();
    let p = penalty(&table, &no_bootstrap()).unwrap();
    let nested = p.nested.as_ref().unwrap();
    let f = dense(&table.foundational.values);
    let o = dense(&table.operations.values);
    let fo: Vec<Vec<f64>> = f
        .iter()
        .zip(&o)
        .map(|(a, b)| a.iter().chain(b).copied().collect())
        .collect();
    let y: Vec<f64> = table
        .reward
        .as_ref()
        .unwrap()
        .iter()
        .map(|v| v.unwrap())
        .collect();
    let mut checks: Vec<Check> = vec![
        ("reward from F".into(), &nested.reward[0], &f, y.clone()),
        ("reward from O".into(), &nested.reward[1], &o, y.clone()),
        ("reward from F+O".into(), &nested.reward[2], &fo, y.clone()),
    ];
    for (k, (name, n)) in nested.operations.iter().enumerate() {
        let target: Vec<f64> = o.iter().map(|r| r[k]).collect();
        checks.push((format!("{name} from F"), n, &f, target));
    }
    assert_eq!(checks.len(), 3 + table.operations.names.len());
    for (what, got, rows, target) in checks {
        let (chosen, predicted) = naive_nested(rows, &target, &table.families);
        for (fold, a) in &got.chosen_alpha {
            assert_eq!(*a, chosen[fold], "{what}: α of fold {fold}");
        }
        assert_eq!(
            got.chosen_alpha.len(),
            chosen.len(),
            "{what}: one α per fold"
        );
        for (i, p) in predicted.iter().enumerate() {
            close(got.predicted[i].unwrap(), *p, &format!("{what}: model {i}"));
        }
        assert!(
            got.q2.is_some() && got.mae.is_some(),
            "{what}: outer metrics"
        );
    }
    // Which predictors: the spec's names.
    let names: Vec<&str> = nested
        .reward
        .iter()
        .map(|n| n.predictors.as_str())
        .collect();
    assert_eq!(names, ["F", "O", "F+O"]);
}

#[test]
fn nested_f_plus_o_is_the_one_the_report_gives() {
    let table = example();
    let settings = no_bootstrap();
    let r = analyze(&table, &settings).unwrap();
    let p = penalty(&table, &settings).unwrap();
    assert_eq!(
        r.outcome.unwrap().nested.unwrap(),
        p.nested.unwrap().reward[2]
    );
}

#[test]
fn operation_curves_equal_separate_analyses_at_each_alpha() {
    let table = example();
    let grid = AlphaGrid::new(0.01, 10_000.0, 7).unwrap();
    let base = Settings {
        bootstrap: 0,
        nested: false,
        grid,
        ..Settings::default()
    };
    let p = penalty(&table, &base).unwrap();
    assert!(p.nested.is_none(), "nested selection off");
    let c = &p.curves;
    assert_eq!(c.alphas.len(), 7);
    close(c.reference_alpha, 10.0, "reference α");
    for (k, a) in c.alphas.iter().enumerate() {
        let one = analyze(
            &table,
            &Settings {
                alpha: Alpha::new(*a).unwrap(),
                ..base
            },
        )
        .unwrap();
        for (name, curve) in &c.operations {
            let fit = &one.operations[name];
            close(
                curve.q2[k].unwrap(),
                fit.q2.unwrap(),
                &format!("{name} Q² at {a}"),
            );
            close(
                curve.mae[k].unwrap(),
                fit.mae.unwrap(),
                &format!("{name} MAE at {a}"),
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
fn a_table_analyze_rejects_is_rejected_here_too() {
    let t = ProfileTable::read(
        "model,family,RE,PL\na,A,1,2\nb,B,2,3\n",
        &Default::default(),
    )
    .unwrap();
    let e = penalty(&t, &no_bootstrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        analyze(&t, &no_bootstrap()).unwrap_err().to_string()
    );
}

/// The held-out map H reproduces the report's held-out predictions of every
/// operation (H·o = ŷ), and is linear: H·(a·o + b·u) = a·H·o + b·H·u
/// against separate fits of the combined target.
#[test]
fn the_held_out_map_is_the_held_out_fit() {
    use gapscope_gaps::inference::heldout_map::held_out_map;
    let mut table = example();
    // A missing cell: that operation's map has one model fewer.
    table.operations.values[2][1] = None;
    let settings = no_bootstrap();
    let report = analyze(&table, &settings).unwrap();
    let folds =
        gapscope_stats::heldout::reference::Folds::for_models(&table.models, &table.families);
    let groups = folds.group_index();
    for (k, name) in table.operations.names.iter().enumerate() {
        let col = table.operations.column(k);
        let map = held_out_map(&table.foundational.values, &col, &groups, settings.alpha);
        let missing = col.iter().filter(|v| v.is_none()).count();
        assert_eq!(map.len(), table.n_models() - missing, "{name}");
        let o: Vec<f64> = map.rows.iter().map(|&i| col[i].unwrap()).collect();
        let yhat = map.apply(&o);
        for (r, &i) in map.rows.iter().enumerate() {
            close(
                yhat[r],
                report.operations[name].predicted[i].unwrap(),
                &format!("{name} model {i}"),
            );
        }
        // Against a direct fit of another target on the same models.
        let u: Vec<Option<f64>> = col
            .iter()
            .enumerate()
            .map(|(i, v)| v.map(|v| 3.0 * v - 0.5 * (i as f64).powi(2)))
            .collect();
        let direct = gapscope_gaps::analysis::held_out_gaps(
            &table,
            std::slice::from_ref(&u),
            settings.alpha,
        );
        let uo: Vec<f64> = map.rows.iter().map(|&i| u[i].unwrap()).collect();
        let uhat = map.apply(&uo);
        for (r, &i) in map.rows.iter().enumerate() {
            close(
                uo[r] - uhat[r],
                direct[0][i].unwrap(),
                &format!("{name} gap of u, model {i}"),
            );
        }
    }
}
