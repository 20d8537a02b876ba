//! The paired-comparison engine against the hand-worked examples of
//! `evidence-to-action.addendum.md` §9 (A: paired configurations, rule P;
//! C: an intervention, rule C) and its invariants.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::pairs::{matched_panel, paired, per_repetition, Rule, Run};
use gapscope_stats::paired::bootstrap_mean;
use proptest::prelude::*;

const TOL: f64 = 1e-12;

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < TOL
}

/// Runs from per-case outcomes by repetition (case index = position).
fn runs(outcomes: &[&[Option<f64>]]) -> Vec<Run> {
    outcomes
        .iter()
        .enumerate()
        .flat_map(|(case, reps)| {
            reps.iter().enumerate().map(move |(r, &value)| Run {
                case,
                repetition: r as u32,
                value,
            })
        })
        .collect()
}

fn s(v: &[f64]) -> Vec<Option<f64>> {
    v.iter().map(|&x| Some(x)).collect()
}

/// §9 A: 4 V1 cases, 2 repetitions, all scored (rep 0, rep 1).
fn example_a() -> (Vec<Run>, Vec<Run>) {
    let a = [s(&[1., 1.]), s(&[1., 0.]), s(&[0., 1.]), s(&[1., 0.])];
    let b = [s(&[0., 0.]), s(&[0., 0.]), s(&[0., 0.]), s(&[1., 1.])];
    let refs = |x: &[Vec<Option<f64>>; 4]| runs(&x.iter().map(Vec::as_slice).collect::<Vec<_>>());
    (refs(&a), refs(&b))
}

const ALL4: [usize; 4] = [0, 1, 2, 3];

#[test]
fn example_a_rule_p() {
    let (a, b) = example_a();
    let row = paired(&a, &b, &ALL4, Rule::AllPlanned, true, 2000, 0);
    assert_eq!(row.n, 4);
    assert!(close(row.rate_a.unwrap(), 0.625));
    assert!(close(row.rate_b.unwrap(), 0.25));
    assert!(close(row.delta.unwrap(), 0.375));
    let d: Vec<f64> = row.per_case.iter().map(|c| c.difference).collect();
    assert_eq!(d, vec![1.0, 0.5, 0.5, -0.5]);
    assert!(row.per_case.iter().all(|c| c.pairs == 2));
    assert_eq!((row.unscored_a, row.unscored_b), (0, 0));
    assert!(row.dropped_a.is_empty() && row.dropped_b.is_empty());
    // Pooled b = 4, c = 1 (base p 0.375); clustered S = 3, p = 8/16.
    let m = row.mcnemar.as_ref().unwrap();
    assert_eq!(
        (m.pairs, m.both_succeed, m.only_a, m.only_b, m.both_fail),
        (8, 1, 4, 1, 2)
    );
    assert_eq!((m.s, m.discordant_cases), (3, 4));
    assert!(close(m.p_value.unwrap(), 0.5));
    assert!(close(gapscope_evidence::report::mcnemar_exact(4, 1), 0.375));
    // The interval lies within [−0.5, 1] and is the stats layer's.
    let [lo, hi] = row.interval.unwrap();
    assert!((-0.5..=1.0).contains(&lo) && (-0.5..=1.0).contains(&hi) && lo <= hi);
    assert_eq!(row.bootstrap, 2000);
    assert_eq!(
        row.interval,
        bootstrap_mean(&[1.0, 0.5, 0.5, -0.5], 2000, 0).and_then(|iv| iv.bounds())
    );
}

#[test]
fn example_a_rep_0_alone() {
    let (a, b) = example_a();
    let rep0 =
        |v: &[Run]| -> Vec<Run> { v.iter().filter(|r| r.repetition == 0).cloned().collect() };
    let row = paired(&rep0(&a), &rep0(&b), &ALL4, Rule::AllPlanned, true, 0, 0);
    let m = row.mcnemar.unwrap();
    assert_eq!((m.only_a, m.only_b, m.s, m.pairs), (2, 0, 2, 4));
    assert!(close(m.p_value.unwrap(), 0.5));
    // The R = 1 identity: the base test gives the same p.
    assert!(close(gapscope_evidence::report::mcnemar_exact(2, 0), 0.5));
    assert_eq!(row.interval, None);
}

#[test]
fn example_a_unscored_counts_zero_under_rule_p() {
    let (a, mut b) = example_a();
    let c4r1 = b
        .iter_mut()
        .find(|r| r.case == 3 && r.repetition == 1)
        .unwrap();
    c4r1.value = None;
    let row = paired(&a, &b, &ALL4, Rule::AllPlanned, true, 100, 0);
    assert!(close(row.delta.unwrap(), 0.5));
    assert_eq!((row.unscored_a, row.unscored_b), (0, 1));
    assert_eq!(row.n, 4);
    let c4 = &row.per_case[3];
    assert_eq!((c4.case, c4.a, c4.b, c4.difference), (3, 0.5, 0.5, 0.0));
    let m = row.mcnemar.unwrap();
    assert_eq!((m.only_a, m.only_b, m.s, m.discordant_cases), (4, 0, 4, 3));
    // Rule C on the same runs: c4 keeps only its rep 0.
    let c = paired(&a, &b, &ALL4, Rule::Completed, true, 100, 0);
    assert_eq!(c.n, 4);
    assert_eq!(c.per_case[3].pairs, 1);
    assert_eq!(c.per_case[3].difference, 0.0);
    assert_eq!((c.unscored_a, c.unscored_b), (0, 1));
    assert!(c.dropped_a.is_empty() && c.dropped_b.is_empty());
}

#[test]
fn example_a_table_12() {
    let (a, b) = example_a();
    let t = per_repetition(&a, &b, &ALL4);
    assert_eq!(t.repetitions.len(), 2);
    let r0 = &t.repetitions[0];
    let r1 = &t.repetitions[1];
    assert_eq!((r0.repetition, r1.repetition), (0, 1));
    assert!(close(r0.a.unwrap(), 0.75) && close(r0.b.unwrap(), 0.25));
    assert!(close(r0.delta.unwrap(), 0.5));
    assert!(close(r1.a.unwrap(), 0.5) && close(r1.b.unwrap(), 0.25));
    assert!(close(r1.delta.unwrap(), 0.25));
    let sd = 0.25 / 2f64.sqrt();
    assert!(close(t.delta.mean.unwrap(), 0.375));
    assert!(close(t.delta.sd.unwrap(), sd));
    assert!((t.delta.sd.unwrap() - 0.1768).abs() < 1e-4);
    assert!(close(t.a.mean.unwrap(), 0.625) && close(t.a.sd.unwrap(), sd));
    assert!(close(t.b.mean.unwrap(), 0.25) && t.b.sd.unwrap() == 0.0);
    assert_eq!((t.positive, t.negative, t.zero), (2, 0, 0));
    assert!(t.consistent);
    // mean_r Δ_r = the row's Δ.
    let row = paired(&a, &b, &ALL4, Rule::AllPlanned, true, 0, 0);
    assert!(close(t.delta.mean.unwrap(), row.delta.unwrap()));
}

/// Two sides' runs (A, B).
type Sides = (Vec<Run>, Vec<Run>);

/// §9 C: config Q, R = `withheld` (B), T = `evidence_package` (A), one
/// repetition, cases c1–c5; c5 under T is an infrastructure failure.
/// Returns (T, R) for acted (binary) and for information calls.
fn example_c() -> (Sides, Sides) {
    let one = |v: &[Option<f64>]| -> Vec<Run> {
        v.iter()
            .enumerate()
            .map(|(case, &value)| Run {
                case,
                repetition: 0,
                value,
            })
            .collect()
    };
    // k_first R: 0, 2, —, 3 (c5: 1); T: 1, —, —, 2, unscored.
    let acted_r = one(&[Some(1.), Some(1.), Some(0.), Some(1.), Some(1.)]);
    let acted_t = one(&[Some(1.), Some(0.), Some(0.), Some(1.), None]);
    let calls_r = one(&[Some(4.), Some(3.), Some(5.), Some(3.), Some(2.)]);
    let calls_t = one(&[Some(2.), Some(6.), Some(5.), Some(4.), None]);
    ((acted_t, acted_r), (calls_t, calls_r))
}

const ALL5: [usize; 5] = [0, 1, 2, 3, 4];

#[test]
fn example_c_acted_rule_c() {
    let ((t, r), _) = example_c();
    let row = paired(&t, &r, &ALL5, Rule::Completed, true, 1000, 0);
    assert_eq!(row.rule, Rule::Completed);
    assert_eq!(row.n, 4);
    assert_eq!(
        (row.dropped_a.clone(), row.dropped_b.clone()),
        (vec![4], vec![])
    );
    assert_eq!((row.unscored_a, row.unscored_b), (1, 0));
    assert!(close(row.rate_a.unwrap(), 0.5));
    assert!(close(row.rate_b.unwrap(), 0.75));
    assert!(close(row.delta.unwrap(), -0.25));
    let m = row.mcnemar.unwrap();
    assert_eq!((m.s, m.discordant_cases, m.only_a, m.only_b), (-1, 1, 0, 1));
    assert_eq!((m.pairs, m.both_succeed, m.both_fail), (4, 2, 1));
    assert!(close(m.p_value.unwrap(), 1.0));
    // The matched set is the same through matched_panel.
    assert_eq!(
        matched_panel(&[&t, &r], &ALL5),
        vec![(0, vec![0]), (1, vec![0]), (2, vec![0]), (3, vec![0])]
    );
}

#[test]
fn example_c_information_calls() {
    let (_, (t, r)) = example_c();
    let row = paired(&t, &r, &ALL5, Rule::Completed, false, 2000, 0);
    assert_eq!(row.n, 4);
    let d: Vec<f64> = row.per_case.iter().map(|c| c.difference).collect();
    assert_eq!(d, vec![-2.0, 3.0, 0.0, 1.0]);
    assert!(close(row.delta.unwrap(), 0.5));
    assert_eq!(row.mcnemar, None);
    let [lo, hi] = row.interval.unwrap();
    assert!((-2.0..=3.0).contains(&lo) && (-2.0..=3.0).contains(&hi) && lo <= hi);
    assert_eq!(row.dropped_a, vec![4]);
}

#[test]
fn single_case_gives_d_d_and_zero_draws_none() {
    let (a, b) = example_a();
    let row = paired(&a, &b, &[1], Rule::AllPlanned, true, 500, 3);
    assert_eq!(row.n, 1);
    assert_eq!(row.interval, Some([0.5, 0.5]));
    let none = paired(&a, &b, &ALL4, Rule::AllPlanned, true, 0, 3);
    assert_eq!(none.interval, None);
    assert_eq!(none.bootstrap, 0);
    assert!(none.delta.is_some());
}

#[test]
fn no_matched_case_is_undefined_not_zero() {
    let a = vec![Run {
        case: 0,
        repetition: 0,
        value: None,
    }];
    let b = vec![Run {
        case: 0,
        repetition: 0,
        value: Some(1.0),
    }];
    let row = paired(&a, &b, &[0], Rule::Completed, true, 100, 0);
    assert_eq!(row.n, 0);
    assert_eq!(
        (row.rate_a, row.rate_b, row.delta, row.interval),
        (None, None, None, None)
    );
    assert!(row.per_case.is_empty());
    assert_eq!(
        (row.dropped_a.clone(), row.dropped_b.clone()),
        (vec![0], vec![])
    );
    let m = row.mcnemar.unwrap();
    assert_eq!((m.pairs, m.p_value), (0, None));
    // Both sides unscored: dropped by both.
    let both = paired(&a, &a, &[0], Rule::Completed, false, 100, 0);
    assert_eq!((both.dropped_a, both.dropped_b), (vec![0], vec![0]));
    // Nothing planned on both sides: no pair, no drop.
    let empty = paired(&a, &b, &[1], Rule::AllPlanned, true, 100, 0);
    assert_eq!((empty.n, empty.delta, empty.interval), (0, None, None));
    assert!(empty.dropped_a.is_empty() && empty.dropped_b.is_empty());
    assert!(matched_panel(&[&a, &b], &[0]).is_empty());
    assert!(matched_panel(&[], &[0]).is_empty());
    let t = per_repetition(&a, &b, &[1]);
    assert!(t.repetitions.is_empty() && !t.consistent);
    assert_eq!((t.delta.mean, t.delta.sd, t.delta.n), (None, None, 0));
}

#[test]
fn interval_is_the_stats_bootstrap_in_case_order() {
    // Runs listed out of order, cases given out of order, an extra case (5)
    // filtered out, a case planned only on A (4): the row resamples d in
    // ascending case order.
    let mut a = Vec::new();
    let mut b = Vec::new();
    let va = [0.2, 0.9, 0.4, 0.0, 0.7, 1.0];
    let vb = [0.5, 0.1, 0.4, 0.6, 0.0, 0.3];
    for case in (0..6).rev() {
        for r in (0..3u32).rev() {
            let bump = f64::from(r) * 0.05;
            a.push(Run {
                case,
                repetition: r,
                value: Some(va[case] + bump),
            });
            if case != 4 {
                b.push(Run {
                    case,
                    repetition: r,
                    value: Some(vb[case]),
                });
            }
        }
    }
    let row = paired(&a, &b, &[3, 0, 4, 2, 1], Rule::Completed, false, 3000, 11);
    assert_eq!(
        row.per_case.iter().map(|c| c.case).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    // By hand: A_k = va + mean(0, 0.05, 0.1) = va + 0.05.
    let d: Vec<f64> = [0usize, 1, 2, 3]
        .iter()
        .map(|&k| va[k] + 0.05 - vb[k])
        .collect();
    for (c, dk) in row.per_case.iter().zip(&d) {
        assert!(close(c.difference, *dk));
    }
    let expected = bootstrap_mean(&d, 3000, 11)
        .and_then(|iv| iv.bounds())
        .unwrap();
    let got = row.interval.unwrap();
    assert!(close(got[0], expected[0]) && close(got[1], expected[1]));
    assert_ne!(got[0], got[1]);
}

#[test]
fn duplicate_runs_are_planned_once() {
    let a = vec![
        Run {
            case: 0,
            repetition: 0,
            value: Some(1.0),
        },
        Run {
            case: 0,
            repetition: 0,
            value: Some(0.0),
        },
    ];
    let b = vec![Run {
        case: 0,
        repetition: 0,
        value: Some(0.0),
    }];
    let row = paired(&a, &b, &[0], Rule::AllPlanned, true, 0, 0);
    assert_eq!(row.per_case[0].pairs, 1);
    assert_eq!(row.delta, Some(1.0));
}

#[test]
fn matched_panel_keeps_pairs_scored_everywhere() {
    let mk = |v: &[(usize, u32, Option<f64>)]| -> Vec<Run> {
        v.iter()
            .map(|&(case, repetition, value)| Run {
                case,
                repetition,
                value,
            })
            .collect()
    };
    let x = mk(&[
        (0, 0, Some(1.)),
        (0, 1, Some(0.)),
        (1, 0, Some(1.)),
        (2, 0, Some(1.)),
    ]);
    let y = mk(&[
        (0, 1, Some(1.)),
        (0, 0, Some(1.)),
        (1, 0, None),
        (2, 0, Some(0.)),
    ]);
    let z = mk(&[
        (0, 0, Some(0.)),
        (1, 0, Some(1.)),
        (2, 0, Some(1.)),
        (2, 1, Some(1.)),
    ]);
    assert_eq!(
        matched_panel(&[&x, &y, &z], &[0, 1, 2]),
        vec![(0, vec![0]), (2, vec![0])]
    );
    assert_eq!(
        matched_panel(&[&x, &y], &[2, 0]),
        vec![(0, vec![0, 1]), (2, vec![0])]
    );
}

#[test]
fn serde_round_trip() {
    let (a, b) = example_a();
    let row = paired(&a, &b, &ALL4, Rule::AllPlanned, true, 200, 0);
    let json = serde_json::to_string(&row).unwrap();
    assert!(json.contains("\"rule\":\"all_planned\""));
    let back: gapscope_evidence::pairs::PairedRow = serde_json::from_str(&json).unwrap();
    assert_eq!(back, row);
    let t = per_repetition(&a, &b, &ALL4);
    let back: gapscope_evidence::pairs::PerRepetition =
        serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
}

proptest! {
    /// Every case with the same repetitions: mean_r Δ_r = the rule-P row's Δ
    /// (unscored runs count 0 in both).
    #[test]
    fn table_12_mean_is_the_row_delta(
        reps in 1u32..5,
        cells in proptest::collection::vec((0u8..3, 0u8..3), 1..40),
    ) {
        let n_cases = cells.len().div_ceil(reps as usize);
        let value = |v: u8| match v { 0 => Some(0.0), 1 => Some(1.0), _ => None };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for case in 0..n_cases {
            for r in 0..reps {
                let (x, y) = cells[(case * reps as usize + r as usize) % cells.len()];
                a.push(Run { case, repetition: r, value: value(x) });
                b.push(Run { case, repetition: r, value: value(y) });
            }
        }
        let cases: Vec<usize> = (0..n_cases).collect();
        let row = paired(&a, &b, &cases, Rule::AllPlanned, true, 0, 0);
        let t = per_repetition(&a, &b, &cases);
        prop_assert_eq!(t.repetitions.len(), reps as usize);
        prop_assert!((t.delta.mean.unwrap() - row.delta.unwrap()).abs() < 1e-12);
        prop_assert!((t.a.mean.unwrap() - row.rate_a.unwrap()).abs() < 1e-12);
        prop_assert!((t.b.mean.unwrap() - row.rate_b.unwrap()).abs() < 1e-12);
        let m = row.mcnemar.unwrap();
        prop_assert_eq!(m.pairs, n_cases * reps as usize);
        prop_assert_eq!(m.s, m.only_a as i64 - m.only_b as i64);
    }
}
