//! Reward predictors that cover different models (an operation missing for
//! some): each predictor's n, and paired differences taken only on the models
//! every compared predictor covers (docs/decisions.md 21). Numbers by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::ProfileTable;
use gapscope_gaps::{analyze, Settings};

/// Three families of two; TU and GI are constant, so every held-out prediction
/// is its fold's training mean (a feature constant on T becomes 0), i.e. each
/// predictor predicts its own baseline. GI is missing for c1 and c2, so O and
/// F+O cover a1..b2 (4 models) and F all six.
///
/// - F (all six): baseline of A = mean(30,40,50,60) = 45, of B =
///   mean(10,20,50,60) = 35, of C = mean(10,20,30,40) = 25. Absolute errors
///   35, 25, 5, 5, 25, 35: MAE over six 130/6; over a1..b2 70/4 = 17.5; squared
///   over a1..b2 1225+625+25+25 = 1900, RMSE √475.
/// - O and F+O (a1..b2): baseline of A = mean(30,40) = 35, of B =
///   mean(10,20) = 15. Errors 25, 15, 15, 25: MAE 80/4 = 20, RMSE √425.
/// - Every Q² is 0 (prediction = baseline).
///
/// On the common models: ΔMAE(O − F) = 20 − 17.5 = 2.5 (the old subtraction
/// of metrics over different sets gave 20 − 130/6 = −1.667);
/// ΔRMSE(O − F) = √425 − √475; F+O − O is 0 everywhere.
const TABLE: &str = "model,family,TU,GI,reward\n\
a1,A,50,50,10\na2,A,50,50,20\nb1,B,50,50,30\nb2,B,50,50,40\nc1,C,50,,50\nc2,C,50,,60\n";

fn close(a: Option<f64>, b: f64, what: &str) {
    let a = a.unwrap_or_else(|| panic!("{what}: undefined"));
    assert!(
        (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
        "{what}: {a} vs {b}"
    );
}

#[test]
fn differences_are_taken_on_the_models_every_compared_predictor_covers() {
    let t = ProfileTable::read(TABLE, &Default::default()).unwrap();
    let s = Settings {
        bootstrap: 200,
        nested: false,
        ..Default::default()
    };
    let r = analyze(&t, &s).unwrap();
    let o = r.outcome.as_ref().unwrap();
    assert_eq!((o.f.n, o.o.n, o.fo.n), (6, 4, 4));
    close(o.f.mae, 130.0 / 6.0, "MAE(F) on its six models");
    close(o.o.mae, 20.0, "MAE(O)");
    let d = r.differences.as_ref().unwrap();
    let of = &d["O - F"];
    close(of.mae, 2.5, "ΔMAE(O − F) on a1..b2");
    close(of.rmse, 425f64.sqrt() - 475f64.sqrt(), "ΔRMSE(O − F)");
    close(of.q2, 0.0, "ΔQ²(O − F)");
    assert_eq!(of.n, 4);
    assert_eq!(of.excluded, ["c1", "c2"]);
    let fof = &d["F+O - F"];
    close(fof.mae, 2.5, "ΔMAE(F+O − F)");
    assert_eq!((fof.n, fof.excluded.len()), (4, 2));
    let foo = &d["F+O - O"];
    close(foo.mae, 0.0, "ΔMAE(F+O − O)");
    assert_eq!((foo.n, foo.excluded.len()), (4, 0));
    // Intervals use the same models: per family, ΔMAE's sums are A: 40 − 60,
    // B: 40 − 10 (two models each), C: nothing; a draw of a A's and b B's gives
    // (30b − 20a) / (2(a + b)) ∈ [−10, 15], and the all-C draw is skipped.
    let ci = of.ci95.as_ref().unwrap();
    let [lo, hi] = ci.mae.unwrap();
    assert!(
        (-10.0..=15.0).contains(&lo) && (-10.0..=15.0).contains(&hi),
        "{lo} {hi}"
    );
    assert_eq!(foo.ci95.as_ref().unwrap().mae, Some([0.0, 0.0]));
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("paired differences") && w.contains("c1, c2")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn nothing_missing_leaves_every_difference_as_before() {
    let t = ProfileTable::read(
        &gapscope_synth::profiles::example_csv(),
        &Default::default(),
    )
    .unwrap();
    let r = analyze(
        &t,
        &Settings {
            bootstrap: 0,
            nested: false,
            ..Default::default()
        },
    )
    .unwrap();
    let o = r.outcome.as_ref().unwrap();
    let d = &r.differences.as_ref().unwrap()["F+O - F"];
    close(d.q2, o.fo.q2.unwrap() - o.f.q2.unwrap(), "ΔQ²");
    assert_eq!((d.n, d.excluded.len()), (15, 0));
}
