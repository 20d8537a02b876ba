//! The worked evidence-to-action set: the committed files are exactly what
//! the generator makes, they cover every domain, protocol, failure type and
//! report, and the scorer gives every scripted episode the verdict its script
//! was written for, whatever the seed.
//!
//! If the currency test fails, regenerate:
//! `cargo run -p gapscope-cli -- evidence worked --out assets/evidence`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeSet, HashMap};

use gapscope_evidence::spec::Protocol;
use gapscope_evidence::{evaluate, EvidenceReport, EvidenceSettings, FailureType};
use gapscope_synth::evidence_worked as worked;
use gapscope_synth::evidence_worked::Script;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

const CASES: &str = include_str!("../../../assets/evidence/cases.jsonl");
const TRAJECTORIES: &str = include_str!("../../../assets/evidence/trajectories.jsonl");

/// Stays a byte comparison, not an insta snapshot: the committed file is itself what the page, the worker, the tests and the docs read, and a `.snap` would be a second copy of it behind a header.
#[test]
fn committed_worked_set_is_current() {
    assert!(
        CASES == worked::cases_jsonl() && TRAJECTORIES == worked::trajectories_jsonl(),
        "assets/evidence is stale: run \
         `cargo run -p gapscope-cli -- evidence worked --out assets/evidence`"
    );
}

fn report() -> EvidenceReport {
    evaluate(CASES, TRAJECTORIES, &EvidenceSettings::default()).unwrap()
}

#[test]
fn worked_set_covers_domains_protocols_and_workflow_shapes() {
    let r = report();
    assert!(r.cases.len() >= 36);
    let domains: BTreeSet<&str> = r.cases.iter().map(|c| c.domain.as_str()).collect();
    assert_eq!(
        domains,
        BTreeSet::from([
            "customer_policy",
            "engineering_infrastructure",
            "legal_financial",
            "research_assistance",
            "smart_home",
            "healthcare"
        ])
    );
    // Every domain × protocol has a case.
    for d in &domains {
        for p in Protocol::ALL {
            assert!(
                r.cases.iter().any(|c| c.domain == *d && c.protocol == p),
                "{d} × {}",
                p.name()
            );
        }
    }
    for c in &r.cases {
        assert!(c
            .notes
            .as_deref()
            .unwrap()
            .starts_with("Worked example written for gapscope"));
        match c.protocol {
            // Linear: each action after the previous one.
            Protocol::V2 => {
                assert!(c.actions.len() >= 3);
                for w in c.actions.windows(2) {
                    assert_eq!(w[1].after, vec![w[0].id.clone()]);
                }
            }
            // A fork (two actions after a1) and a join (one after two).
            Protocol::V3 => {
                let after_a1 = c.actions.iter().filter(|a| a.after == ["a1"]).count();
                assert!(after_a1 >= 2, "{}", c.case_id);
                assert!(
                    c.actions.iter().any(|a| a.after.len() >= 2),
                    "{}",
                    c.case_id
                );
            }
            _ => {}
        }
    }
    // Two configurations, two repetitions, every planned run present.
    assert_eq!(r.configs.len(), 2);
    assert_eq!(r.repetitions, vec![0, 1]);
    assert_eq!(r.episodes.len(), r.cases.len() * 4);
}

#[test]
fn every_failure_type_and_every_report_has_content() {
    let r = report();
    let seen: BTreeSet<FailureType> = r.episodes.iter().filter_map(|e| e.failure).collect();
    assert_eq!(seen, FailureType::ALL.into_iter().collect());
    // Both configurations succeed and fail somewhere.
    for c in &r.configs {
        let eps: Vec<_> = r
            .episodes
            .iter()
            .filter(|e| &e.config == c && e.scored)
            .collect();
        assert!(eps.iter().any(|e| e.success == Some(true)));
        assert!(eps.iter().any(|e| e.success == Some(false)));
    }
    // Coverage below 1 (infrastructure failures) and reported apart.
    let total = r.coverage.last().unwrap();
    assert!(total.infrastructure_failures > 0 && total.coverage.unwrap() < 1.0);
    // ECS with an SD for every protocol and domain of both configurations.
    for c in &r.ecs {
        assert!(c.summary.protocol_macro.sd.is_some() && c.summary.domain_macro.sd.is_some());
        assert!(c.summary.by_protocol.values().all(|m| m.n == 2));
        assert_eq!(c.summary.by_domain.len(), 6);
    }
    // Bars: counts add up to the failures, ids click through to episodes.
    for b in &r.failures {
        let n: usize = b.segments.iter().map(|s| s.count).sum();
        assert_eq!(n + b.successes, b.scored);
        for s in &b.segments {
            for id in &s.episode_ids {
                let e = r.episodes.iter().find(|e| &e.trajectory_id == id).unwrap();
                assert_eq!(e.failure, Some(s.failure));
            }
        }
    }
    // Effort curves rise over more than one x for some protocol, and never fall.
    assert!(r.effort.iter().any(|c| c.points.len() >= 3));
    for c in &r.effort {
        assert!(c
            .points
            .windows(2)
            .all(|w| w[0][0] < w[1][0] && w[0][1] <= w[1][1]));
    }
    // The paired comparison has discordant pairs both ways.
    let p = r.paired[0].headline().unwrap();
    let m = p.paired.mcnemar.as_ref().unwrap();
    assert!(m.only_a > 0 && m.only_b > 0);
    assert!(p.paired.interval.is_some());
    // Unscored runs: the headline's and the Legacy row's are every one.
    let legacy = r.paired[0].rows.iter().find(|x| x.row == "Legacy").unwrap();
    assert_eq!(
        p.paired.unscored_a
            + p.paired.unscored_b
            + legacy.paired.unscored_a
            + legacy.paired.unscored_b,
        total.infrastructure_failures
    );
}

#[test]
fn worked_trajectories_are_canonical_trajectories() {
    let corpus = gapscope_data::formats::read_jsonl(TRAJECTORIES);
    assert!(corpus.skipped.is_empty(), "{:?}", corpus.skipped);
    assert_eq!(corpus.trajectories.len(), TRAJECTORIES.lines().count());
}

fn scripts(trajectories: &str) -> HashMap<String, Script> {
    trajectories
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().to_string(),
                Script::from_name(v["script"].as_str().unwrap()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn any_seed_gives_every_script_its_intended_verdict_and_order_does_not_matter() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 12,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let settings = EvidenceSettings {
        bootstrap: 0,
        ..Default::default()
    };
    runner
        .run(&(any::<u64>(), any::<u64>()), |(seed, shuffle)| {
            let cases = worked::cases_jsonl_with(seed);
            let trajectories = worked::trajectories_jsonl_with(seed);
            let r = evaluate(&cases, &trajectories, &settings).unwrap();
            let intent = scripts(&trajectories);
            for e in &r.episodes {
                let s = intent[&e.trajectory_id];
                prop_assert_eq!(e.scored, s != Script::InfrastructureFailure);
                if e.scored {
                    prop_assert_eq!(e.failure, s.intended(), "{}", e.trajectory_id);
                }
            }
            // The trajectory lines in another order: the same verdicts.
            let mut lines: Vec<&str> = trajectories.lines().collect();
            let mut state = shuffle | 1;
            for i in (1..lines.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                lines.swap(i, (state % (i as u64 + 1)) as usize);
            }
            let shuffled = evaluate(&cases, &lines.join("\n"), &settings).unwrap();
            let verdicts = |r: &EvidenceReport| {
                let mut v: Vec<(String, Option<FailureType>)> = r
                    .episodes
                    .iter()
                    .map(|e| (e.trajectory_id.clone(), e.failure))
                    .collect();
                v.sort();
                v
            };
            prop_assert_eq!(verdicts(&r), verdicts(&shuffled));
            // Configurations are listed in order of first appearance; the
            // tables per configuration are the same.
            for c in &r.ecs {
                let other = shuffled.ecs.iter().find(|o| o.config == c.config).unwrap();
                prop_assert_eq!(c, other);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_report_round_trips_through_json() {
    let r = report();
    let text = serde_json::to_string(&r).unwrap();
    let back: EvidenceReport = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
}
