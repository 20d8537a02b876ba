//! The worked evidence-to-action set: the committed files are exactly what
//! the generator makes, they cover every domain, protocol, failure type and
//! report, and the scorer gives every scripted episode the verdict its script
//! was written for, whatever the seed.
//!
//! If the currency test fails, regenerate:
//! `cargo run -p gapscope-cli -- evidence worked --out assets/evidence`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeSet, HashMap};

use gapscope_evidence::interventions::Contrast;
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
    // Two configurations, two repetitions, every planned baseline run
    // present; the intervention conditions on top.
    assert_eq!(r.configs.len(), 2);
    assert_eq!(r.repetitions, vec![0, 1]);
    let baseline = r
        .episodes
        .iter()
        .filter(|e| e.condition == "baseline")
        .count();
    assert_eq!(baseline, r.cases.len() * 4);
    assert_eq!(r.episodes.len(), TRAJECTORIES.lines().count());
}

/// The baseline sides' labels (`config` alone).
fn is_baseline(label: &str) -> bool {
    !label.contains('@')
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
    let baseline_failures: usize = r
        .coverage
        .iter()
        .filter(|c| c.config.as_deref().is_some_and(is_baseline))
        .map(|c| c.infrastructure_failures)
        .sum();
    // ECS with an SD for every protocol and domain of both configurations
    // (under baseline: two repetitions).
    for c in r.ecs.iter().filter(|c| is_baseline(&c.config)) {
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
    assert!(is_baseline(&r.paired[0].a) && is_baseline(&r.paired[0].b));
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
        baseline_failures
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
                    prop_assert_eq!(e.failure, s.intended(e.protocol), "{}", e.trajectory_id);
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
    // The addendum's tables are written, not read back (the page gets their
    // views as text): read back, the report is the same without them...
    let back: EvidenceReport = serde_json::from_str(&text).unwrap();
    let mut without = r.clone();
    without.ecs_all_planned.clear();
    without.paired.clear();
    without.readiness.clear();
    without.interventions = Default::default();
    without.composition = Default::default();
    for e in &mut without.episodes {
        e.readiness = Default::default();
    }
    assert_eq!(back, without);
    // ...and each of them reads back into its own type.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let part = |k: &str| v[k].clone();
    assert_eq!(
        serde_json::from_value::<gapscope_evidence::interventions::Interventions>(part(
            "interventions"
        ))
        .unwrap(),
        r.interventions
    );
    assert_eq!(
        serde_json::from_value::<Vec<gapscope_evidence::PairedComparison>>(part("paired")).unwrap(),
        r.paired
    );
    assert_eq!(
        serde_json::from_value::<Vec<gapscope_evidence::report::ReadinessCurve>>(part("readiness"))
            .unwrap(),
        r.readiness
    );
    assert_eq!(
        serde_json::from_value::<gapscope_evidence::composition::Composition>(part("composition"))
            .unwrap(),
        r.composition
    );
    assert_eq!(
        serde_json::from_value::<Vec<gapscope_evidence::ConfigEcs>>(part("ecs_all_planned"))
            .unwrap(),
        r.ecs_all_planned
    );
    let readiness: Vec<gapscope_evidence::score::Readiness> = v["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| serde_json::from_value(e["readiness"].clone()).unwrap())
        .collect();
    assert_eq!(
        readiness,
        r.episodes
            .iter()
            .map(|e| e.readiness.clone())
            .collect::<Vec<_>>()
    );
}

/// Per-case differences of a contrast: (positive, negative) counts.
fn signs(c: &Contrast) -> (usize, usize) {
    let d = c.paired.per_case.iter().map(|k| k.difference);
    (
        d.clone().filter(|&x| x > 0.0).count(),
        d.filter(|&x| x < 0.0).count(),
    )
}

/// Δ defined over at least one matched case.
fn defined(c: &Contrast) -> bool {
    c.paired.n > 0 && c.paired.delta.is_some()
}

/// Every intervention analysis of addendum §8 has, for each configuration,
/// rows with content: first-action curves that differ, Δs defined and of
/// both signs across cases, all four responses and both terminals, a
/// static gap and Legacy negatives, SCGR per-protocol rows with the
/// case-set warning for SCGR-Select, and cases dropped by rule C.
#[test]
fn every_intervention_analysis_has_content_for_both_configurations() {
    let r = report();
    let i = &r.interventions;
    let mut contrasts: Vec<&Contrast> = Vec::new();
    for config in &r.configs {
        // §8.1: withheld is the reference; every other condition but static
        // is a treatment; curves rise, end at the rate of acted, and differ.
        let f: Vec<_> = i
            .first_action
            .iter()
            .filter(|f| &f.config == config)
            .collect();
        assert_eq!(f.len(), 1, "{config}");
        let f = f[0];
        assert_eq!(f.reference, "withheld");
        assert_eq!(f.treatments.len(), 7, "{:?}", f.treatments);
        assert!(!f.treatments.iter().any(|t| t == "static"));
        assert!(f.matched_cases >= 20 && f.k_max >= 5, "{config}");
        let curve = |c: &str| f.curves.iter().find(|x| x.condition == c).unwrap();
        for c in &f.curves {
            assert_eq!(c.f.len(), f.k_max + 1);
            assert!(c.f.windows(2).all(|w| w[0] <= w[1]));
            assert!(*c.f.last().unwrap() <= c.acted.unwrap() + 1e-12);
        }
        // The package acts early with few reads; withheld acts later or not
        // at all; the distractor conditions act after more reads.
        let (package, withheld) = (curve("evidence_package"), curve("withheld"));
        assert!(package.f[1] > withheld.f[1] && package.f[1] > curve("baseline").f[1]);
        assert!(withheld.acted.unwrap() < curve("baseline").acted.unwrap());
        assert!(curve("withheld_distractor").f[3] < curve("baseline").f[3] + 1e-12);
        assert_eq!(f.acted.len(), 7);
        assert!(f.acted.iter().all(defined));
        assert!(f.acted.iter().any(|c| c.paired.delta != Some(0.0)));
        contrasts.extend(&f.acted);
        // §8.2: both pairs; distractors add information calls, with cases
        // of both signs; Δ acted defined.
        let d: Vec<_> = i
            .distractors
            .iter()
            .filter(|d| &d.config == config)
            .collect();
        let pairs: BTreeSet<(&str, &str)> = d
            .iter()
            .map(|d| {
                (
                    d.information_calls.treatment.as_str(),
                    d.information_calls.reference.as_str(),
                )
            })
            .collect();
        assert_eq!(
            pairs,
            BTreeSet::from([
                ("distractor", "baseline"),
                ("withheld_distractor", "withheld")
            ])
        );
        for x in &d {
            assert!(defined(&x.information_calls) && defined(&x.acted));
            assert!(x.information_calls.paired.delta.unwrap() > 0.0);
            let (up, down) = signs(&x.information_calls);
            assert!(up > 0 && down > 0, "{config}: {up} up, {down} down");
            assert!(x.acted.paired.mcnemar.is_some());
            contrasts.extend([&x.information_calls, &x.acted]);
        }
        // §8.3: withheld, contradicted, withheld_distractor vs baseline.
        let e: Vec<_> = i.evidence.iter().filter(|e| &e.config == config).collect();
        let names: BTreeSet<&str> = e.iter().map(|e| e.condition.as_str()).collect();
        assert_eq!(
            names,
            BTreeSet::from(["contradicted", "withheld", "withheld_distractor"])
        );
        for x in &e {
            let t = &x.treatment;
            let shares = [
                t.investigated_stop.unwrap(),
                t.acted_despite.unwrap(),
                t.acted_uninvestigated.unwrap(),
                t.stopped_uninvestigated.unwrap(),
            ];
            assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            if x.condition != "withheld_distractor" {
                assert!(
                    shares.iter().all(|&s| s > 0.0),
                    "{config} {}: {shares:?}",
                    x.condition
                );
            }
            assert!(t.block > 0 && t.defer > 0, "{config} {}", x.condition);
            assert!(defined(&x.acted) && defined(&x.probed));
            assert!(x.acted.paired.delta.unwrap() < 0.0 && x.probed.paired.delta.unwrap() < 0.0);
            let (up, down) = signs(&x.acted);
            assert!(up > 0 && down > 0, "{config} {}", x.condition);
            contrasts.extend([&x.acted, &x.probed]);
        }
        // §8.4: the static gap over the V1 cases, and the Legacy negatives.
        let s: Vec<_> = i
            .static_vs_interactive
            .iter()
            .filter(|s| &s.config == config)
            .collect();
        assert_eq!(s.len(), 1);
        let s = s[0];
        assert!(defined(&s.gap) && s.gap.paired.delta.unwrap() > 0.0);
        assert!(s.gap.paired.n >= 11);
        let m = s.gap.paired.mcnemar.as_ref().unwrap();
        assert!(m.only_a > 0 && m.only_b > 0);
        assert!(s.legacy_scored > 0 && s.legacy_rejected > 0);
        assert!(s.legacy_correct > 0 && s.legacy_correct < s.legacy_scored);
        contrasts.push(&s.gap);
        // §8.5: SCGR-EG on the baseline's cases, SCGR-Select on fewer; the
        // per-protocol ECS differs from the baseline's somewhere.
        for (cond, differ) in [("scgr_eg", false), ("scgr_select", true)] {
            let x = i
                .scgr
                .iter()
                .find(|x| &x.config == config && x.condition == cond)
                .unwrap();
            assert_eq!(x.case_sets_differ, differ, "{config} {cond}");
            let rows = |v: &[gapscope_evidence::interventions::UnpairedRow]| {
                v.iter()
                    .map(|u| (u.row.clone(), (u.cases, u.ecs)))
                    .collect::<HashMap<_, _>>()
            };
            let (t, b) = (rows(&x.treatment), rows(&x.reference));
            assert!(["V0", "V1", "V2", "V3", "V0–V3"]
                .iter()
                .all(|p| t[*p].1.is_some()));
            assert!(["V0", "V1", "V2", "V3"].iter().any(|p| t[*p].1 != b[*p].1));
            if differ {
                assert!(t["V0–V3"].0 < b["V0–V3"].0);
            }
            assert!(x.paired.len() >= 5 && x.paired.iter().all(defined));
            assert!(x.paired.iter().any(|c| c.paired.delta != Some(0.0)));
            contrasts.extend(&x.paired);
        }
    }
    // Rule C drops cases (infrastructure failures) on both sides somewhere.
    assert!(contrasts.iter().any(|c| !c.dropped_treatment.is_empty()));
    assert!(contrasts.iter().any(|c| !c.dropped_reference.is_empty()));
    assert!(i.first_action.iter().any(|f| !f.dropped.is_empty()));
    // Every condition line is scripted for gapscope and says so.
    for l in TRAJECTORIES.lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        if v.get("condition").is_some() {
            assert!(v["notes"]
                .as_str()
                .unwrap()
                .starts_with("Scripted for gapscope (not a language model)"));
        }
    }
}

/// The condition lines are appended after the baseline lines and change
/// nothing of the baseline sides: the report of the baseline lines alone
/// equals the full report on them, and both keep the committed numbers.
#[test]
fn the_condition_lines_leave_the_baseline_report_as_it_was() {
    let is_condition_line =
        |l: &str| serde_json::from_str::<Value>(l).unwrap()["condition"].is_string();
    let lines: Vec<&str> = TRAJECTORIES.lines().collect();
    let first = lines.iter().position(|l| is_condition_line(l)).unwrap();
    assert!(lines[first..].iter().all(|l| is_condition_line(l)));
    let baseline_text = lines[..first].join("\n") + "\n";
    let alone = evaluate(CASES, &baseline_text, &EvidenceSettings::default()).unwrap();
    let full = report();
    assert_eq!(alone.sides.len(), 2);
    let side = |label: &str| is_baseline(label);
    assert_eq!(
        alone.coverage[..2],
        full.coverage
            .iter()
            .filter(|c| c.config.as_deref().is_some_and(side))
            .cloned()
            .collect::<Vec<_>>()[..]
    );
    let keep = |v: &[gapscope_evidence::ConfigEcs]| {
        v.iter()
            .filter(|c| side(&c.config))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(alone.ecs, keep(&full.ecs));
    assert_eq!(alone.ecs_all_planned, keep(&full.ecs_all_planned));
    assert_eq!(
        alone.failures,
        full.failures
            .iter()
            .filter(|b| side(&b.config))
            .cloned()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        alone.effort,
        full.effort
            .iter()
            .filter(|b| side(&b.config))
            .cloned()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        alone.readiness,
        full.readiness
            .iter()
            .filter(|b| side(&b.config))
            .cloned()
            .collect::<Vec<_>>()
    );
    assert_eq!(alone.paired.len(), 1);
    assert_eq!(alone.paired[0], full.paired[0]);
    assert_eq!(alone.composition, full.composition);
    assert_eq!(alone.episodes[..], full.episodes[..alone.episodes.len()]);
    assert_eq!(alone.interventions, Default::default());
    // The committed baseline numbers (docs/evidence.md).
    let c = &alone.coverage[2];
    assert_eq!((c.scored, c.planned), (166, 168));
    let ecs = |k: usize| {
        let o = alone.ecs[k].summary.overall;
        (o.mean.unwrap(), o.sd.unwrap())
    };
    let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
    assert!(
        close(ecs(0).0, 0.75929) && close(ecs(0).1, 0.02998),
        "{:?}",
        ecs(0)
    );
    assert!(
        close(ecs(1).0, 0.37311) && close(ecs(1).1, 0.04476),
        "{:?}",
        ecs(1)
    );
    let h = alone.paired[0].headline().unwrap();
    assert_eq!(h.paired.n, 36);
    assert!(close(h.paired.delta.unwrap(), 0.375));
}
