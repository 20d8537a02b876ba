//! The paired statistics against hand-computed worked examples, edge cases
//! of the spec's "Undefined and small", and invariants by property tests
//! with a deterministic runner (fixed ChaCha seed, as elsewhere in the
//! workspace).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_stats::paired::{
    benjamini_hochberg, compare_pair, compare_runs, holm, summarize_run, PermutationMethod, Run,
    Settings, SettingsError, TaskDraws, Z_80, Z_975,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn runner() -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases: 128,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

fn run(tasks: &[(&str, &[f64])]) -> Run {
    Run::new(
        tasks
            .iter()
            .map(|(k, r)| TaskDraws {
                key: (*k).to_string(),
                rewards: r.to_vec(),
            })
            .collect(),
    )
    .unwrap()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

// ------------------------------------------------------------ one run

/// t1 = [1, 0, 1], t2 = [1, 1], t3 = [0, 0, 0], t4 = [0.5]: N = 9, n = 4.
fn worked_run() -> Run {
    run(&[
        ("t1", &[1.0, 0.0, 1.0]),
        ("t2", &[1.0, 1.0]),
        ("t3", &[0.0, 0.0, 0.0]),
        ("t4", &[0.5]),
    ])
}

#[test]
fn one_run_by_hand() {
    let s = summarize_run(&worked_run(), &Settings::new(0, 0, 0).unwrap());
    assert_eq!((s.tasks, s.trajectories, s.successes), (4, 9, 4));
    // x̄ = (2 + 2 + 0 + 0.5) / 9 = 0.5.
    assert!(close(s.mean.unwrap(), 0.5, 1e-15));
    // s_t − k_t x̄ = 0.5, 1, −1.5, 0 → Σ² = 3.5; SE = sqrt(4/3 · 3.5) / 9.
    let se = (14.0f64 / 3.0).sqrt() / 9.0;
    assert!(close(s.se.unwrap(), se, 1e-15));
    let [lo, hi] = s.normal.unwrap();
    assert!(close(lo, 0.5 - Z_975 * se, 1e-15) && close(hi, 0.5 + Z_975 * se, 1e-15));
    assert!(close(s.success_rate.unwrap(), 4.0 / 9.0, 1e-15));
    assert_eq!(s.wilson, None); // not one trial per task
                                // pass^k: k = 1: (2/3 + 1 + 0 + 0)/4; k = 2 over t1–t3: (1/3 + 1 + 0)/3;
                                // k = 3 over t1, t3: C(2,3) = 0 and 0.
    let hat: Vec<(usize, usize, f64)> =
        s.pass_hat.iter().map(|p| (p.k, p.tasks, p.value)).collect();
    let want = [(1, 4, 5.0 / 12.0), (2, 3, 4.0 / 9.0), (3, 2, 0.0)];
    for (g, w) in hat.iter().zip(want) {
        assert_eq!((g.0, g.1), (w.0, w.1));
        assert!(close(g.2, w.2, 1e-15), "{hat:?}");
    }
    // pass@k: k = 2: t1 1 − C(1,2)/C(3,2) = 1, t2 1, t3 1 − 3/3 = 0 → 2/3;
    // k = 3: t1 1, t3 0 → 1/2.
    let at: Vec<f64> = s.pass_at.iter().map(|p| p.value).collect();
    for (g, w) in at.iter().zip([5.0 / 12.0, 2.0 / 3.0, 0.5]) {
        assert!(close(*g, w, 1e-15), "{at:?}");
    }
    // Flip rate: t1 mixed among t1–t3.
    assert_eq!(s.repeated_tasks, 3);
    assert!(close(s.flip_rate.unwrap(), 1.0 / 3.0, 1e-15));
    // ICC(1): means 2/3, 1, 0, 1/2; SSB = 3/36 + 2/4 + 3/4 = 4/3, MSB = 4/9;
    // SSW = 2/3, MSW = 2/15; k₀ = (9 − 23/9)/3 = 58/27;
    // ICC = (4/9 − 2/15) / (4/9 + 31/27 · 2/15) = 63/121.
    assert!(close(s.k0.unwrap(), 58.0 / 27.0, 1e-15));
    assert!(close(s.icc.unwrap(), 63.0 / 121.0, 1e-14));
    assert_eq!(s.bootstrap, None);
    assert!(s.pass_hat.iter().all(|p| p.bootstrap.is_none()));
}

#[test]
fn one_trial_per_task_is_the_ordinary_case() {
    // 7 successes in 10 one-trial tasks: SE = sd/√n = sqrt(2.1/9)/√10;
    // Wilson from its formula; ICC and flip rate undefined.
    let keys: Vec<String> = (0..10).map(|i| format!("t{i:02}")).collect();
    let r = Run::new(
        keys.iter()
            .enumerate()
            .map(|(i, k)| TaskDraws {
                key: k.clone(),
                rewards: vec![if i < 7 { 1.0 } else { 0.0 }],
            })
            .collect(),
    )
    .unwrap();
    let s = summarize_run(&r, &Settings::default());
    assert!(close(
        s.se.unwrap(),
        (2.1f64 / 9.0).sqrt() / 10f64.sqrt(),
        1e-15
    ));
    let z2 = Z_975 * Z_975;
    let centre = (0.7 + z2 / 20.0) / (1.0 + z2 / 10.0);
    let half = Z_975 / (1.0 + z2 / 10.0) * (0.021 + z2 / 400.0f64).sqrt();
    let [lo, hi] = s.wilson.unwrap();
    assert!(close(lo, centre - half, 1e-15) && close(hi, centre + half, 1e-15));
    assert_eq!((s.flip_rate, s.icc, s.repeated_tasks), (None, None, 0));
    assert_eq!(s.pass_hat.len(), 1);
    // Bootstrap of a 0/1 mean over 10 units: every bound is a multiple of
    // 1/10 (interpolated between neighbours), inside [0, 1], around 0.7.
    let b = s.bootstrap.unwrap();
    assert_eq!((b.draws, b.skipped, b.one_unit), (10_000, 0, false));
    let (blo, bhi) = (b.lo.unwrap(), b.hi.unwrap());
    assert!(
        (0.3..0.6).contains(&blo) && (0.85..=1.0).contains(&bhi),
        "{b:?}"
    );
    // pass^1's interval uses the same draws as x̄ (one trial: they are equal).
    assert_eq!(s.pass_hat[0].bootstrap, Some(b));
}

#[test]
fn pass_k_bootstrap_skips_draws_without_a_long_task() {
    // One task of 3 trials among 20 of 1: a draw misses it with probability
    // (19/20)^20 ≈ 0.358, so about 3,585 of 10,000 draws are skipped for k ≥ 2.
    let mut tasks = vec![TaskDraws {
        key: "long".into(),
        rewards: vec![1.0, 1.0, 0.0],
    }];
    tasks.extend((0..20).map(|i| TaskDraws {
        key: format!("s{i:02}"),
        rewards: vec![1.0],
    }));
    let s = summarize_run(&Run::new(tasks).unwrap(), &Settings::default());
    let b2 = s.pass_hat[1].bootstrap.unwrap();
    // SD of the count: sqrt(10,000 · 0.358 · 0.642) ≈ 48; 5 SD.
    assert!((3_345..3_825).contains(&b2.skipped), "{}", b2.skipped);
    // Every defined draw holds only copies of the long task: pass^2 = 1/3.
    assert!(close(b2.lo.unwrap(), 1.0 / 3.0, 1e-15) && close(b2.hi.unwrap(), 1.0 / 3.0, 1e-15));
    assert_eq!(s.bootstrap.unwrap().skipped, 0);
}

#[test]
fn empty_and_single_task_runs() {
    let e = summarize_run(&Run::new(Vec::new()).unwrap(), &Settings::default());
    assert_eq!(
        (e.mean, e.se, e.normal, e.bootstrap),
        (None, None, None, None)
    );
    assert_eq!(
        (e.success_rate, e.wilson, e.flip_rate, e.icc, e.k0),
        (None, None, None, None, None)
    );
    assert!(e.pass_hat.is_empty());
    let one = summarize_run(&run(&[("a", &[1.0, 0.0])]), &Settings::default());
    assert_eq!((one.mean, one.se, one.normal), (Some(0.5), None, None));
    let b = one.bootstrap.unwrap();
    assert_eq!((b.lo, b.hi, b.one_unit), (Some(0.5), Some(0.5), true));
    assert_eq!(one.flip_rate, Some(1.0));
    assert_eq!(one.icc, None); // one repeated task
}

// ------------------------------------------------------------ two runs

fn worked_pair() -> (Run, Run) {
    let a = run(&[
        ("t1", &[1.0, 1.0]),
        ("t2", &[1.0, 0.0]),
        ("t3", &[0.0, 0.0]),
        ("t4", &[1.0, 1.0]),
        ("t5", &[0.0, 1.0]),
    ]);
    let b = run(&[
        ("t1", &[0.0, 0.0]),
        ("t2", &[0.0, 0.0]),
        ("t3", &[1.0, 0.0]),
        ("t4", &[1.0, 1.0]),
        ("t6", &[1.0, 1.0]),
    ]);
    (a, b)
}

#[test]
fn two_runs_by_hand() {
    let (a, b) = worked_pair();
    let c = compare_pair(&a, &b, &Settings::new(0, 0, 0).unwrap());
    assert_eq!(
        (c.common, c.only_a.clone(), c.only_b.clone()),
        (4, vec!["t5".to_string()], vec!["t6".to_string()])
    );
    let d: Vec<f64> = c.tasks.iter().map(|t| t.d).collect();
    assert_eq!(d, [1.0, 0.5, -0.5, 0.0]);
    assert_eq!(c.delta, Some(0.25));
    // Deviations 0.75, 0.25, −0.75, −0.25: Σ² = 1.25, sd = sqrt(1.25/3).
    let sd = (1.25f64 / 3.0).sqrt();
    assert!(close(c.sd.unwrap(), sd, 1e-15));
    let [lo, hi] = c.normal.unwrap();
    assert!(close(lo, 0.25 - Z_975 * sd / 2.0, 1e-15) && close(hi, 0.25 + Z_975 * sd / 2.0, 1e-15));
    assert!(close(c.mde.unwrap(), (Z_975 + Z_80) * sd / 2.0, 1e-15));
    // The MDE constant: 1.959964 + 0.841621 as the spec writes it.
    assert!(close(Z_975 + Z_80, 2.801585, 1e-6));
    // Sign test: b = 2, c = 1, one tie; p = min(1, 2 · 4/8) = 1.
    let s = c.sign_test;
    assert_eq!(
        (s.positive, s.negative, s.ties, s.p, s.exact_mcnemar),
        (2, 1, 1, Some(1.0), false)
    );
    // Permutation: k = 2 in both runs, D_t = 2, 1, −1, 0 → convolution.
    // The 8 sign patterns of (1, 0.5, −0.5) give sums 1, 2, 0, 1 and their
    // negatives; |Δ*| = |sum|/4 ≥ 0.25 for 6 of 8.
    let p = c.permutation;
    assert_eq!(p.method, Some(PermutationMethod::Convolution));
    assert_eq!((p.nonzero, p.patterns), (3, 0));
    assert!(close(p.p.unwrap(), 0.75, 1e-15));
    assert_eq!(c.bootstrap, None);
}

#[test]
fn unequal_trials_enumerate() {
    // Same d_t as the worked pair, but B's t1 has 3 trials: no convolution,
    // so the 2^3 patterns are listed, and give the same p.
    let (a, _) = worked_pair();
    let b = run(&[
        ("t1", &[0.0, 0.0, 0.0]),
        ("t2", &[0.0, 0.0]),
        ("t3", &[1.0, 0.0]),
        ("t4", &[1.0, 1.0]),
    ]);
    let c = compare_pair(&a, &b, &Settings::default());
    assert_eq!(c.permutation.method, Some(PermutationMethod::Enumeration));
    assert_eq!((c.permutation.nonzero, c.permutation.patterns), (3, 8));
    assert!(close(c.permutation.p.unwrap(), 0.75, 1e-15));
}

#[test]
fn one_binary_trial_is_exact_mcnemar() {
    // b = 1, c = 5, 4 ties: the evidence crate's mcnemar_exact(1, 5) = 14/64
    // (value copied from its test); the clustered McNemar by convolution
    // gives the same.
    let outcomes = [
        (1.0, 0.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (1.0, 1.0),
        (0.0, 0.0),
        (1.0, 1.0),
        (0.0, 0.0),
    ];
    let keys: Vec<String> = (0..outcomes.len()).map(|i| format!("case{i}")).collect();
    let side = |f: fn(&(f64, f64)) -> f64| {
        Run::new(
            keys.iter()
                .zip(&outcomes)
                .map(|(k, o)| TaskDraws {
                    key: k.clone(),
                    rewards: vec![f(o)],
                })
                .collect(),
        )
        .unwrap()
    };
    let c = compare_pair(&side(|o| o.0), &side(|o| o.1), &Settings::default());
    assert!(c.sign_test.exact_mcnemar);
    assert!(close(c.sign_test.p.unwrap(), 14.0 / 64.0, 1e-15));
    assert_eq!(c.permutation.method, Some(PermutationMethod::Convolution));
    assert!(close(c.permutation.p.unwrap(), 14.0 / 64.0, 1e-15));
}

#[test]
fn monte_carlo_beyond_sixteen() {
    // 20 tasks with non-integer differences: Monte Carlo with P patterns.
    let a: Vec<TaskDraws> = (0..20)
        .map(|i| TaskDraws {
            key: format!("t{i:02}"),
            rewards: vec![0.3 + 0.03 * f64::from(i)],
        })
        .collect();
    let b: Vec<TaskDraws> = (0..20)
        .map(|i| TaskDraws {
            key: format!("t{i:02}"),
            rewards: vec![0.4],
        })
        .collect();
    let (a, b) = (Run::new(a).unwrap(), Run::new(b).unwrap());
    let s = Settings::new(100, 2_000, 3).unwrap();
    let c = compare_pair(&a, &b, &s);
    assert_eq!(c.permutation.method, Some(PermutationMethod::MonteCarlo));
    assert_eq!(c.permutation.patterns, 2_000);
    let p = c.permutation.p.unwrap();
    // p is (1 + #)/(1 + P): a multiple of 1/2001.
    assert!(close((p * 2001.0).round(), p * 2001.0, 1e-9));
    assert_eq!(compare_pair(&a, &b, &s), c);
    let none = compare_pair(&a, &b, &Settings::new(100, 0, 3).unwrap());
    assert_eq!((none.permutation.p, none.permutation.patterns), (None, 0));
}

#[test]
fn undefined_and_small() {
    let s = Settings::default();
    // No common task: nothing defined.
    let c = compare_pair(&run(&[("a", &[1.0])]), &run(&[("b", &[1.0])]), &s);
    assert_eq!(
        (c.common, c.delta, c.sd, c.bootstrap, c.normal, c.mde),
        (0, None, None, None, None, None)
    );
    assert_eq!(
        (c.sign_test.p, c.permutation.p, c.permutation.method),
        (None, None, None)
    );
    assert!(!c.sign_test.exact_mcnemar);
    // One common task: [d, d] labelled one unit, p = 1.
    let c = compare_pair(&run(&[("a", &[1.0, 0.5])]), &run(&[("a", &[0.25])]), &s);
    let b = c.bootstrap.unwrap();
    assert_eq!(
        (b.lo, b.hi, b.one_unit, b.draws),
        (Some(0.5), Some(0.5), true, 10_000)
    );
    assert_eq!((c.sign_test.p, c.permutation.p), (Some(1.0), Some(1.0)));
    assert_eq!((c.sd, c.normal, c.mde), (None, None, None));
    // Zero variance, Δ = 0: [Δ, Δ] and p = 1.
    let z = run(&[("a", &[0.5]), ("b", &[0.75]), ("c", &[0.0])]);
    let c = compare_pair(&z, &z, &s);
    assert_eq!(
        (c.delta, c.sd, c.normal),
        (Some(0.0), Some(0.0), Some([0.0, 0.0]))
    );
    assert_eq!(
        (c.sign_test.p, c.permutation.p, c.mde),
        (Some(1.0), Some(1.0), Some(0.0))
    );
    // Zero variance, Δ ≠ 0: [Δ, Δ]; the tests count the two all-same patterns.
    let up = run(&[("a", &[0.75]), ("b", &[1.0]), ("c", &[0.25])]);
    let c = compare_pair(&up, &z, &s);
    assert_eq!((c.sd, c.normal), (Some(0.0), Some([0.25, 0.25])));
    assert!(close(c.sign_test.p.unwrap(), 0.25, 1e-15));
    assert_eq!(c.permutation.p, Some(0.25));
    // Ulp-level differences are ties: 0.1 + 0.2 + 0.3 vs 0.3 + 0.2 + 0.1.
    let x = run(&[("a", &[0.1, 0.2, 0.3]), ("b", &[1.0])]);
    let y = run(&[("a", &[0.3, 0.2, 0.1]), ("b", &[1.0])]);
    let c = compare_pair(&x, &y, &s);
    assert_eq!(
        (c.sign_test.ties, c.sign_test.p, c.permutation.p),
        (2, Some(1.0), Some(1.0))
    );
}

#[test]
fn bootstrap_of_delta_by_hand() {
    // Two tasks, d = {0, 1}: a draw's Δ is 0, ½ or 1 with probabilities
    // ¼, ½, ¼, so the 2.5th and 97.5th percentiles are 0 and 1 (as the
    // evidence crate's paired bootstrap test).
    let c = compare_pair(
        &run(&[("a", &[1.0]), ("b", &[1.0])]),
        &run(&[("a", &[1.0]), ("b", &[0.0])]),
        &Settings::default(),
    );
    let b = c.bootstrap.unwrap();
    assert_eq!((b.lo, b.hi, b.skipped), (Some(0.0), Some(1.0), 0));
}

// ------------------------------------------------------------ many runs

#[test]
fn many_runs_adjust_and_rank() {
    let (a, b) = worked_pair();
    let w = worked_run();
    let runs = [("A", &a), ("B", &b), ("W", &w)];
    let r = compare_runs(&runs, &Settings::new(500, 100, 0).unwrap());
    let names: Vec<(&str, &str)> = r
        .pairs
        .iter()
        .map(|p| (p.a.as_str(), p.b.as_str()))
        .collect();
    assert_eq!(names, [("A", "B"), ("A", "W"), ("B", "W")]);
    assert_eq!(r.pairs[0].comparison, compare_pair(&a, &b, &r.settings));
    // The adjustments are holm()/benjamini_hochberg() of the defined raw values.
    let raw: Vec<f64> = r.pairs.iter().filter_map(|p| p.sign_test_p.raw).collect();
    let h = holm(&raw).unwrap();
    let q = benjamini_hochberg(&raw).unwrap();
    let got: Vec<(f64, f64)> = r
        .pairs
        .iter()
        .filter_map(|p| Some((p.sign_test_p.holm?, p.sign_test_p.bh?)))
        .collect();
    assert_eq!(got, h.into_iter().zip(q).collect::<Vec<_>>());
    // Common to all are t1–t4 (A also has t5, B t6). Means over them:
    // A 5/8, B 3/8, W 4.5/9.
    assert_eq!(r.ranks.common, 4);
    let ranks: Vec<Option<f64>> = r.ranks.rows.iter().map(|x| x.rank).collect();
    assert_eq!(ranks, [Some(1.0), Some(3.0), Some(2.0)]);
    assert_eq!(r.runs[2].summary, summarize_run(&w, &r.settings));
}

#[test]
fn ranks_of_equal_and_dominant_runs() {
    let low = run(&[("a", &[0.0]), ("b", &[0.5]), ("c", &[0.25])]);
    let high = run(&[("a", &[0.5]), ("b", &[1.0]), ("c", &[0.75])]);
    let r = compare_runs(
        &[("low", &low), ("high", &high), ("same", &high)],
        &Settings::new(200, 10, 0).unwrap(),
    );
    // high and same tie in every draw (average rank 1.5); low is always 3.
    let rows: Vec<(Option<f64>, Option<f64>, Option<f64>)> = r
        .ranks
        .rows
        .iter()
        .map(|x| (x.rank, x.interval.unwrap().lo, x.interval.unwrap().hi))
        .collect();
    assert_eq!(
        rows,
        [
            (Some(3.0), Some(3.0), Some(3.0)),
            (Some(1.5), Some(1.5), Some(1.5)),
            (Some(1.5), Some(1.5), Some(1.5))
        ]
    );
    // No task common to all: undefined ranks.
    let other = run(&[("z", &[1.0])]);
    let r = compare_runs(&[("low", &low), ("other", &other)], &Settings::default());
    assert_eq!(r.ranks.common, 0);
    assert!(r
        .ranks
        .rows
        .iter()
        .all(|x| x.rank.is_none() && x.mean.is_none() && x.interval.is_none()));
    assert_eq!(r.pairs[0].sign_test_p.raw, None);
    assert_eq!(r.pairs[0].sign_test_p.holm, None);
}

#[test]
fn settings_and_json() {
    assert_eq!(
        Settings::default(),
        Settings::new(10_000, 10_000, 0).unwrap()
    );
    assert_eq!(
        Settings::new(1_000_001, 0, 0),
        Err(SettingsError::Draws(1_000_001))
    );
    assert_eq!(
        Settings::new(0, 1_000_001, 0),
        Err(SettingsError::Permutations(1_000_001))
    );
    let (a, b) = worked_pair();
    let r = compare_runs(&[("A", &a), ("B", &b)], &Settings::new(20, 5, 0).unwrap());
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(
        v["settings"],
        serde_json::json!({"draws": 20, "permutations": 5, "seed": 0})
    );
    let run0 = &v["runs"][0];
    assert_eq!(run0["name"], "A");
    assert_eq!(run0["wilson"], serde_json::Value::Null);
    assert!(run0["bootstrap"]["one_unit"].is_boolean());
    assert_eq!(run0["pass_hat"][0]["k"], 1);
    let pair = &v["pairs"][0];
    assert_eq!(pair["comparison"]["permutation"]["method"], "convolution");
    assert_eq!(pair["comparison"]["only_a"], serde_json::json!(["t5"]));
    assert_eq!(pair["comparison"]["tasks"][0]["d"], 1.0);
    assert!(pair["sign_test_p"]["holm"].is_number());
    assert_eq!(v["ranks"]["common"], 4);
}

// ------------------------------------------------------------ properties

/// Two runs over up to 12 keys: each key in A, in B or in both, 1–4 trials,
/// rewards from {0, ½, 1} or uniform.
fn two_runs() -> impl Strategy<Value = (Run, Run)> {
    let reward = prop_oneof![Just(0.0), Just(1.0), Just(0.5), 0.0f64..=1.0];
    let task = (
        0u8..3,
        prop::collection::vec(reward.clone(), 1..5),
        prop::collection::vec(reward, 1..5),
    );
    prop::collection::vec(task, 0..13).prop_map(|tasks| {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (i, (side, ra, rb)) in tasks.into_iter().enumerate() {
            let key = format!("task-{i:02}");
            if side != 1 {
                a.push(TaskDraws {
                    key: key.clone(),
                    rewards: ra,
                });
            }
            if side != 2 {
                b.push(TaskDraws { key, rewards: rb });
            }
        }
        (Run::new(a).unwrap(), Run::new(b).unwrap())
    })
}

#[test]
fn p_values_are_probabilities_and_swapping_negates() {
    let s = Settings::new(200, 200, 5).unwrap();
    runner()
        .run(&two_runs(), |(a, b)| {
            let ab = compare_pair(&a, &b, &s);
            let ba = compare_pair(&b, &a, &s);
            for p in [ab.sign_test.p, ab.permutation.p].into_iter().flatten() {
                prop_assert!((0.0..=1.0).contains(&p), "{p}");
                prop_assert!(p > 0.0);
            }
            prop_assert_eq!(ab.delta.map(|x| -x), ba.delta);
            prop_assert_eq!(ab.sign_test.p, ba.sign_test.p);
            prop_assert_eq!(ab.permutation.p, ba.permutation.p);
            prop_assert_eq!(ab.sd, ba.sd);
            prop_assert_eq!(
                (ab.sign_test.positive, ab.sign_test.negative),
                (ba.sign_test.negative, ba.sign_test.positive)
            );
            prop_assert_eq!(&ab.only_a, &ba.only_b);
            if let (Some([l1, h1]), Some([l2, h2])) = (ab.normal, ba.normal) {
                prop_assert!(close(l1, -h2, 1e-12) && close(h1, -l2, 1e-12));
            } else {
                prop_assert_eq!(ab.normal, ba.normal);
            }
            match (ab.bootstrap, ba.bootstrap) {
                (Some(x), Some(y)) => {
                    prop_assert!(close(x.lo.unwrap(), -y.hi.unwrap(), 1e-12), "{x:?} {y:?}");
                    prop_assert!(close(x.hi.unwrap(), -y.lo.unwrap(), 1e-12));
                }
                (x, y) => prop_assert_eq!(x, y),
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn pass_one_is_the_mean_success_rate_and_seeds_repeat() {
    let s = Settings::new(100, 100, 11).unwrap();
    runner()
        .run(&two_runs(), |(a, _)| {
            let r = summarize_run(&a, &s);
            if a.is_empty() {
                prop_assert!(r.pass_hat.is_empty());
                return Ok(());
            }
            let rates: f64 = a
                .tasks()
                .iter()
                .map(|t| {
                    t.rewards.iter().filter(|&&x| x >= 1.0 - 1e-6).count() as f64
                        / t.rewards.len() as f64
                })
                .sum::<f64>()
                / a.len() as f64;
            prop_assert!(close(r.pass_hat[0].value, rates, 1e-12));
            prop_assert!(close(r.pass_at[0].value, rates, 1e-12));
            // pass^k falls and pass@k rises with k.
            for w in r.pass_hat.windows(2) {
                prop_assert!(w[1].value <= w[0].value + 1e-12 || w[1].tasks < w[0].tasks);
            }
            prop_assert_eq!(summarize_run(&a, &s), r);
            Ok(())
        })
        .unwrap();
}

#[test]
fn adjusted_p_values_bound_the_raw_ones() {
    runner()
        .run(&prop::collection::vec(0.0f64..=1.0, 0..12), |p| {
            let h = holm(&p).unwrap();
            let q = benjamini_hochberg(&p).unwrap();
            for i in 0..p.len() {
                prop_assert!(h[i] >= p[i] && q[i] >= p[i] && h[i] <= 1.0 && q[i] <= 1.0);
                // BH is never more conservative than Holm: m/i ≤ m − i + 1.
                prop_assert!(q[i] <= h[i] + 1e-15);
                for j in 0..p.len() {
                    if p[i] <= p[j] {
                        prop_assert!(h[i] <= h[j] && q[i] <= q[j]);
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn same_seed_same_report() {
    let s = Settings::new(50, 50, 9).unwrap();
    runner()
        .run(&(two_runs(), two_runs()), |((a, b), (c, _))| {
            let runs = [("a", &a), ("b", &b), ("c", &c)];
            let r = compare_runs(&runs, &s);
            prop_assert_eq!(&compare_runs(&runs, &s), &r);
            for p in &r.pairs {
                for x in [p.sign_test_p, p.permutation_p] {
                    if let Some(raw) = x.raw {
                        prop_assert!(x.holm.unwrap() >= raw && x.bh.unwrap() >= raw);
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}
