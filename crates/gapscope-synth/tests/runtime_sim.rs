//! The knapsack DP against brute force (property test, deterministic runner),
//! the teaching simulator's qualitative pattern at its defaults, and the
//! currency of the committed default log.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_runtime::knapsack::{self, Instance, Item};
use gapscope_runtime::{analyze, write_jsonl, Condition, RuntimeSettings};
use gapscope_synth::runtime_sim::{simulate, SimParams};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn runner() -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases: 512,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// Up to 12 items: weight 0..15, value 0..50 (integers, so sums are exact),
/// class A or B; capacity 0..40; allowed {A} or {A, B}.
fn instances() -> impl Strategy<Value = Instance> {
    (
        prop::collection::vec((0u64..15, 0u32..50, prop::bool::ANY), 0..12),
        0u64..40,
        prop::bool::ANY,
    )
        .prop_map(|(items, capacity, both)| Instance {
            capacity,
            budget: 100,
            allowed_classes: if both {
                vec!["A".into(), "B".into()]
            } else {
                vec!["A".into()]
            },
            items: items
                .into_iter()
                .enumerate()
                .map(|(k, (w, v, a))| Item {
                    id: format!("i{k}"),
                    weight: w,
                    value: f64::from(v),
                    class: if a { "A".into() } else { "B".into() },
                })
                .collect(),
        })
}

/// Every subset of allowed items within capacity: the best value, and the
/// fewest items among the subsets reaching it.
fn brute_force(inst: &Instance) -> (f64, usize) {
    let n = inst.items.len();
    let (mut best, mut fewest) = (0.0, 0);
    for mask in 0u32..(1 << n) {
        let chosen: Vec<&Item> = (0..n)
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| &inst.items[k])
            .collect();
        if chosen
            .iter()
            .any(|it| !inst.allowed_classes.contains(&it.class))
        {
            continue;
        }
        let w: u64 = chosen.iter().map(|it| it.weight).sum();
        let v: f64 = chosen.iter().map(|it| it.value).sum();
        if w > inst.capacity {
            continue;
        }
        if v > best || (v == best && chosen.len() < fewest) {
            best = v;
            fewest = chosen.len();
        }
    }
    (best, fewest)
}

#[test]
fn dp_optimum_equals_brute_force() {
    runner()
        .run(&instances(), |inst| {
            let opt = knapsack::optimum(&inst).unwrap();
            let (best, fewest) = brute_force(&inst);
            prop_assert_eq!(opt.value, best);
            prop_assert_eq!(opt.items.len(), fewest);
            // The set returned is feasible and worth the optimum.
            let items: Vec<&Item> = opt.items.iter().map(|id| inst.item(id).unwrap()).collect();
            prop_assert!(items
                .iter()
                .all(|it| inst.allowed_classes.contains(&it.class)));
            prop_assert!(items.iter().map(|it| it.weight).sum::<u64>() <= inst.capacity);
            prop_assert_eq!(opt.weight, items.iter().map(|it| it.weight).sum::<u64>());
            prop_assert_eq!(items.iter().map(|it| it.value).sum::<f64>(), best);
            Ok(())
        })
        .unwrap();
}

#[test]
fn simulator_shows_the_papers_pattern_at_its_defaults() {
    let p = SimParams::default();
    let episodes = simulate(&p).unwrap();
    assert_eq!(episodes.len(), p.instances * p.caps.len() * 4);
    assert_eq!(simulate(&p).unwrap(), episodes, "deterministic");
    let text = write_jsonl(&episodes).unwrap();
    let settings = RuntimeSettings {
        bootstrap: 2000,
        c_tight: Some(20),
        c_slack: Some(60),
        ..Default::default()
    };
    let r = analyze(&text, &settings).unwrap();
    // Every simulated score is what the verifier recomputes, no rule is broken,
    // and every instance honours the anti-collapse rule.
    let v = &r.verification;
    assert_eq!((v.checked, v.agree), (episodes.len(), episodes.len()));
    assert!(v.flagged.is_empty(), "{:?}", v.flagged.first());
    assert_eq!(v.anti_collapse_violations, 0);
    assert_eq!(v.instances.len(), p.instances);
    let s = &r.slices[0];
    let q = |cap: u32, c: Condition| {
        let t = s.tables.iter().find(|t| t.cap == cap).unwrap();
        t.cells
            .iter()
            .find(|x| x.condition == c)
            .unwrap()
            .q
            .value
            .unwrap()
    };
    // The mismatched P->S loses far more quality at the binding cap (20) than
    // at the slack one (60); the matched P->P does not.
    let drop_ps = q(60, Condition::PS) - q(20, Condition::PS);
    let drop_pp = q(60, Condition::PP) - q(20, Condition::PP);
    assert!(drop_ps > 0.5, "P->S drop {drop_ps}");
    assert!(drop_pp.abs() < 0.15, "P->P drop {drop_pp}");
    // Cap amplification of G_P, with an interval excluding 0.
    let a = &s.comparison.as_ref().unwrap().amplification_p;
    assert_eq!(a.n_shared, p.instances);
    assert!(a.ci95.unwrap()[0] > 0.3, "{a:?}");
    // The mechanism in the traces: at the binding cap P->S hits NameErrors and
    // restarts after cap hits; P->P never restarts.
    let row = |cap: u32, c: Condition| {
        s.trace
            .iter()
            .find(|t| t.cap == cap && t.condition == c)
            .unwrap()
    };
    assert!(row(20, Condition::PS).restart.rate.unwrap() > 0.8);
    assert_eq!(row(20, Condition::PP).restart.rate, Some(0.0));
    assert!(row(20, Condition::PS).name_error_turns.mean.unwrap() >= 1.0);
    assert_eq!(row(20, Condition::PS).termination.turn_limit, p.instances);
    // A reset erases a partial record: some P->S turn starts with an empty
    // record after a turn that ended with a non-empty one.
    let ps = episodes
        .iter()
        .find(|e| e.cap == 20 && e.condition() == Condition::PS)
        .unwrap();
    let notes: Vec<_> = ps.turns.iter().filter_map(|t| t.record).collect();
    assert!(notes
        .windows(2)
        .any(|w| w[0].at_end > 0 && w[1].at_start == 0));
}

#[test]
fn simulator_parameters_are_validated() {
    let bad = SimParams {
        allowed: 5,
        ..Default::default()
    };
    assert_eq!(
        simulate(&bad).unwrap_err().to_string(),
        "allowed: expected 1 to 4 (the classes), got 5"
    );
    let bad = SimParams {
        caps: vec![10, 0],
        ..Default::default()
    };
    assert_eq!(
        simulate(&bad).unwrap_err().to_string(),
        "caps: expected caps of at least 1, got [10, 0]"
    );
    // A capacity too small for any 3-item optimum cannot honour the rule.
    let impossible = SimParams {
        capacity: 2,
        instances: 1,
        ..Default::default()
    };
    assert!(simulate(&impossible)
        .unwrap_err()
        .to_string()
        .starts_with("instance 0: no draw satisfied the anti-collapse rule"));
}

/// Stays a byte comparison, not an insta snapshot: the committed file is itself what the page, the worker, the tests and the docs read, and a `.snap` would be a second copy of it behind a header.
#[test]
fn committed_default_log_is_current() {
    let committed = include_str!("../../../assets/runtime/episodes.jsonl");
    let generated = write_jsonl(&simulate(&SimParams::default()).unwrap()).unwrap();
    assert!(
        committed == generated,
        "assets/runtime/episodes.jsonl is stale: run \
         `cargo run -p gapscope-cli -- runtime simulate > assets/runtime/episodes.jsonl`"
    );
}
