//! The evidence scorer and report, through the whole pipeline: conditions,
//! manifests, all-planned ECS, the effort bound and the interventions —
//! (`evaluate(cases, trajectories, settings)`), against the hand-worked
//! examples and rules of `../shared/spec/evidence-to-action.addendum.md`
//! (§1 format, §3 required reads, §5 all-planned ECS, §7 readiness, §8
//! interventions, §9 worked examples). Every case and trajectory is built as
//! JSON here; the hand numbers are in the comments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::pairs::Rule;
use gapscope_evidence::{
    evaluate, EvidenceError, EvidenceReport, EvidenceSettings, FailureType, Protocol, RunPlan,
};
use serde_json::{json, Value};

mod common;
use common::addendum::*;
use common::*;

// ------------------------------------------------------------- 6. §1 format

fn static_decision(decision: &str) -> T {
    T::new().say(json!({"type": "DECISION", "decision": decision}))
}

#[test]
fn static_on_v0_v2_v3_is_a_located_input_error() {
    for case in ["v0-backdate", "v2-refund", "v3-flow"] {
        let text = format!(
            "{}\n{}",
            line(
                &static_decision("ALLOW"),
                "ok-line",
                "v1-refund",
                "A",
                "static",
                0
            ),
            line(&static_decision("ALLOW"), "bad", case, "A", "static", 0)
        );
        let err = evaluate(&cases(), &text, &settings(0)).unwrap_err();
        match err {
            EvidenceError::Trajectory { line, id, message } => {
                assert_eq!((line, id.as_str()), (2, "bad"));
                assert!(message.contains("static"), "{message}");
            }
            other => panic!("{case}: {other:?}"),
        }
    }
}

#[test]
fn v1_under_static_is_scored_as_legacy() {
    // Terminal ALLOW: the expected decision of a V1 case under static.
    // Tool calls are only recorded (the read and the unsupported refund
    // below do not fail the static episode).
    let allow = T::new()
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))])
        .say(json!({"type": "DECISION", "decision": "ALLOW"}));
    let block = static_decision("BLOCK");
    let r = run(
        &cases(),
        &[
            line(&allow, "s-allow", "v1-refund", "A", "static", 0),
            line(&block, "s-block", "v1-refund", "A", "static", 1),
        ],
        0,
    );
    let a = episode(&r, "s-allow");
    assert!(a.scored_as_legacy);
    assert_eq!(a.success, Some(true), "{:?}", a.failure_reason);
    assert!(a.actions.is_empty());
    let b = episode(&r, "s-block");
    assert!(b.scored_as_legacy);
    assert_eq!(b.failure, Some(FailureType::WrongTerminalLabel));
}

#[test]
fn condition_names_with_comma_or_at_are_errors() {
    for bad in ["with,held", "with@held"] {
        let text = line(&v1_success(), "t", "v1-refund", "A", bad, 0);
        let err = evaluate(&cases(), &text, &settings(0)).unwrap_err();
        assert!(
            matches!(&err, EvidenceError::Trajectory { line: 1, id, message }
                if id == "t" && message.contains("condition")),
            "{err:?}"
        );
        // In a manifest.
        let plan = format!(
            r#"{{"cases": ["v1-refund"], "configs": ["A"], "conditions": ["{bad}"], "repetitions": 1}}"#
        );
        assert!(matches!(RunPlan::parse(&plan), Err(EvidenceError::Plan(_))));
        // In a case's `conditions`.
        let mut c = v1_case();
        c["conditions"] = json!({ bad: {"affects": ["dup"]} });
        let err = evaluate(&jsonl(&[c]), "", &settings(0)).unwrap_err();
        assert!(
            matches!(&err, EvidenceError::Case { field, .. } if field.starts_with("conditions.")),
            "{err:?}"
        );
    }
}

#[test]
fn run_keys_include_the_condition() {
    // Same (case, config, rep) under two conditions: fine.
    let ok_text = [
        line(&v1_success(), "t1", "v1-refund", "A", "baseline", 0),
        line(&v1_success(), "t2", "v1-refund", "A", "withheld", 0),
    ]
    .join("\n");
    let r = evaluate(&cases(), &ok_text, &settings(0)).unwrap();
    assert_eq!(r.episodes.len(), 2);
    // Twice under one condition: a located error (line 2).
    let dup = [
        line(&v1_success(), "t1", "v1-refund", "A", "withheld", 0),
        line(&v1_failure(), "t2", "v1-refund", "A", "withheld", 0),
    ]
    .join("\n");
    let err = evaluate(&cases(), &dup, &settings(0)).unwrap_err();
    assert!(
        matches!(&err, EvidenceError::Trajectory { line: 2, id, message }
            if id == "t2" && message.contains("withheld")),
        "{err:?}"
    );
    // An absent condition is `baseline`: a baseline twice is a duplicate.
    let implicit = [
        v1_success().line("t1", "v1-refund", "A", 0),
        line(&v1_failure(), "t2", "v1-refund", "A", "baseline", 0),
    ]
    .join("\n");
    assert!(evaluate(&cases(), &implicit, &settings(0)).is_err());
}

fn coverage_of<'r>(r: &'r EvidenceReport, side: Option<&str>) -> &'r gapscope_evidence::Coverage {
    r.coverage
        .iter()
        .find(|c| c.config.as_deref() == side)
        .unwrap()
}

#[test]
fn manifest_array_plans_the_union() {
    // Object 1: c1, c2 × A × {baseline, withheld} × reps 0, 1 → 4 + 4.
    // Object 2: c2, c3 × A × withheld × rep 0 → adds c3 r0 (c2 r0 is
    // planned once). Object 3 (no conditions: baseline): c3 × A × rep 0.
    // Planned: A 5, A@withheld 5, total 10.
    let plan = RunPlan::parse(
        r#"[
          {"cases": ["c1", "c2"], "configs": ["A"], "conditions": ["baseline", "withheld"], "repetitions": 2},
          {"cases": ["c2", "c3"], "configs": ["A"], "conditions": ["withheld"], "repetitions": 1},
          {"cases": ["c3"], "configs": ["A"], "repetitions": 1}
        ]"#,
    )
    .unwrap();
    let cases = jsonl(&[v1("c1"), v1("c2"), v1("c3")]);
    let lines = [
        line(&v1_success(), "b-c1", "c1", "A", "baseline", 0),
        line(&v1_success(), "w-c2", "c2", "A", "withheld", 0),
        infra("w-c3", "c3", "A", "withheld", 0),
    ];
    let r = evaluate(
        &cases,
        &lines.join("\n"),
        &EvidenceSettings {
            bootstrap: 0,
            plan: Some(plan),
            ..Default::default()
        },
    )
    .unwrap();
    let a = coverage_of(&r, Some("A"));
    assert_eq!((a.planned, a.scored, a.missing), (5, 1, 4));
    let w = coverage_of(&r, Some("A@withheld"));
    assert_eq!(
        (w.planned, w.scored, w.infrastructure_failures, w.missing),
        (5, 1, 1, 3)
    );
    assert_close(w.coverage, 0.2);
    assert_eq!(coverage_of(&r, None).planned, 10);
    let planned: Vec<(&str, usize)> = r
        .sides
        .iter()
        .map(|s| (s.label.as_str(), s.planned))
        .collect();
    assert_eq!(planned, vec![("A", 5), ("A@withheld", 5)]);
}

#[test]
fn without_a_manifest_a_condition_plans_what_was_seen() {
    // A@withheld: seen c1 at reps 0 and 2 → plans c1 × {0, 1, 2} (rep 1 is
    // missing), not c2. A (baseline): every case of the file × reps 0..0.
    // B is seen only under withheld: no baseline side B.
    let cases = jsonl(&[v1("c1"), v1("c2")]);
    let lines = [
        line(&v1_success(), "a0", "c1", "A", "baseline", 0),
        line(&v1_success(), "w0", "c1", "A", "withheld", 0),
        line(&v1_failure(), "w2", "c1", "A", "withheld", 2),
        line(&v1_success(), "bw", "c2", "B", "withheld", 0),
    ];
    let r = run(&cases, &lines, 0);
    let labels: Vec<&str> = r.sides.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, vec!["A", "A@withheld", "B@withheld"]);
    let a = coverage_of(&r, Some("A"));
    assert_eq!((a.planned, a.scored, a.missing), (2, 1, 1));
    let w = coverage_of(&r, Some("A@withheld"));
    assert_eq!((w.planned, w.scored, w.missing), (3, 2, 1));
    let bw = coverage_of(&r, Some("B@withheld"));
    assert_eq!((bw.planned, bw.scored, bw.missing), (1, 1, 0));
}

#[test]
fn case_condition_affecting_an_unknown_requirement_is_located() {
    let mut c = v1_case();
    c["conditions"] = json!({"withheld": {"affects": ["dup", "r9"]}});
    let err = evaluate(&jsonl(&[v1("c0"), c]), "", &settings(0)).unwrap_err();
    match err {
        EvidenceError::Case {
            at,
            case_id,
            field,
            message,
        } => {
            assert_eq!(at, gapscope_evidence::CaseLocation::Line(2));
            assert_eq!(case_id, "v1-refund");
            assert_eq!(field, "conditions.withheld.affects[1]");
            assert!(message.contains("r9"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

// ------------------------------------------------------------ 7. §5 ECS

#[test]
fn all_planned_equals_scored_only_at_full_coverage() {
    let r = run(&four_v1(), &example_a_lines(false), 0);
    assert!(r.coverage.iter().all(|c| c.coverage == Some(1.0)));
    assert_eq!(r.ecs, r.ecs_all_planned);
}

#[test]
fn all_planned_is_lower_with_an_infrastructure_failure() {
    // A, rep 0: c1, c2 succeed, c3 fails, c4 unscored. Scored-only: 2/3;
    // all-planned: 2/4 (overall, V1, the domain, P-M and D-M).
    let lines = [
        line(&v1_success(), "c1", "c1", "A", "baseline", 0),
        line(&v1_success(), "c2", "c2", "A", "baseline", 0),
        line(&v1_failure(), "c3", "c3", "A", "baseline", 0),
        infra("c4", "c4", "A", "baseline", 0),
    ];
    let r = run(&four_v1(), &lines, 0);
    let s = &r.ecs[0];
    let p = &r.ecs_all_planned[0];
    assert_eq!((s.config.as_str(), p.config.as_str()), ("A", "A"));
    assert_close(s.summary.overall.mean, 2.0 / 3.0);
    assert_close(p.summary.overall.mean, 0.5);
    assert_close(s.summary.by_protocol["V1"].mean, 2.0 / 3.0);
    assert_close(p.summary.by_protocol["V1"].mean, 0.5);
    assert_close(s.summary.by_domain["customer_policy"].mean, 2.0 / 3.0);
    assert_close(p.summary.by_domain["customer_policy"].mean, 0.5);
    assert_close(s.summary.protocol_macro.mean, 2.0 / 3.0);
    assert_close(p.summary.protocol_macro.mean, 0.5);
    assert_close(p.summary.domain_macro.mean, 0.5);
    assert_eq!(s.repetitions[0].scored, 3);
    assert_close(coverage_of(&r, Some("A")).coverage, 0.75);
}

#[test]
fn a_side_named_in_case_conditions_is_manipulated() {
    let mut c = v1("c1");
    c["conditions"] = json!({"withheld": {"affects": ["pol"]}});
    let lines = [
        line(&v1_success(), "b", "c1", "A", "baseline", 0),
        line(&v1_success(), "w", "c1", "A", "withheld", 0),
        line(&v1_success(), "d", "c1", "A", "distractor", 0),
    ];
    let r = run(&jsonl(&[c]), &lines, 0);
    let sides: Vec<(&str, bool)> = r
        .sides
        .iter()
        .map(|s| (s.label.as_str(), s.manipulated))
        .collect();
    assert_eq!(
        sides,
        vec![("A", false), ("A@withheld", true), ("A@distractor", false)]
    );
    for table in [&r.ecs, &r.ecs_all_planned] {
        let m: Vec<(&str, bool)> = table
            .iter()
            .map(|e| (e.config.as_str(), e.manipulated))
            .collect();
        assert_eq!(
            m,
            vec![("A", false), ("A@withheld", true), ("A@distractor", false)]
        );
    }
}

// ------------------------------------------------- 8. §3 complete ⇒ effort ≥ 1

#[test]
fn complete_implies_effort_at_least_one_on_the_worked_set() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/evidence/");
    let cases = std::fs::read_to_string(format!("{dir}cases.jsonl")).unwrap();
    let trajectories = std::fs::read_to_string(format!("{dir}trajectories.jsonl")).unwrap();
    let r = evaluate(&cases, &trajectories, &settings(0)).unwrap();
    let overlapping = |case: &str| {
        r.warnings
            .iter()
            .any(|w| w.starts_with(&format!("case `{case}`: one `")))
    };
    let mut checked = 0;
    for e in r
        .episodes
        .iter()
        .filter(|e| e.scored && !e.scored_as_legacy)
    {
        if e.investigation_complete && !overlapping(&e.case_id) {
            if let Some(x) = e.normalized_effort {
                assert!(x >= 1.0, "{}: complete with effort {x}", e.trajectory_id);
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} complete episodes checked");
}

#[test]
fn overlapping_read_specs_break_the_effort_bound_and_are_warned_about() {
    // Two distinct read specs of one tool with no conflicting literal:
    // `record_read {id: X}` and `record_read {id: X, section: billing}`.
    // One call with both arguments satisfies both: complete with effort
    // 1/2 — the exception the warning names.
    let case = json!({
        "case_id": "ov", "protocol": "V0", "domain": "customer_policy",
        "instruction": "Assess.", "read_budget": 3,
        "tools": {"information": [{"name": "record_read"}], "consequential": [{"name": "refund_issue"}]},
        "requirements": [
            {"id": "r1", "fact": "X exists", "source": {"tool": "record_read", "args": {"id": "X"}}},
            {"id": "r2", "fact": "X billing", "source": {"tool": "record_read", "args": {"id": "X", "section": "billing"}}}
        ],
        "actions": [], "terminal": "BLOCK"
    });
    let t = T::new()
        .turn(&[info(
            "record_read",
            json!({"id": "X", "section": "billing"}),
        )])
        .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}));
    let r = run(
        &jsonl(&[case]),
        &[line(&t, "t", "ov", "A", "baseline", 0)],
        0,
    );
    let e = episode(&r, "t");
    assert_eq!(e.required_reads, 2);
    assert!(e.investigation_complete);
    assert_eq!(e.success, Some(true));
    assert_eq!(e.normalized_effort, Some(0.5));
    assert!(
        r.warnings.iter().any(|w| w.contains("case `ov`")
            && w.contains("`record_read`")
            && w.contains("effort below 1")),
        "{:?}",
        r.warnings
    );
    // Without the overlap (conflicting literals) there is no warning.
    let mut c2 = v1_four_requirements();
    c2["case_id"] = json!("no-ov");
    let r2 = run(&jsonl(&[c2]), &[], 0);
    assert!(r2.warnings.iter().all(|w| !w.contains("effort below 1")));
}

// --------------------------------------------------------- 9. §8.3–§8.5

#[test]
fn evidence_response_shares() {
    // Cases w1–w4: the V1 refund with `withheld` affecting `pol` (the P7
    // read); w5 affects nothing (`[]`) and is left out.
    let mut cs: Vec<Value> = (1..=4)
        .map(|i| {
            let mut c = v1(&format!("w{i}"));
            c["conditions"] = json!({"withheld": {"affects": ["pol"]}});
            c
        })
        .collect();
    let mut w5 = v1("w5");
    w5["conditions"] = json!({"withheld": {"affects": []}});
    cs.push(w5);
    let no_match_p7 = (
        "policy_read",
        json!({"policy_id": "P7"}),
        json!({"status": "no_match"}),
    );
    let refund_now = refund(49.99, applied(json!({"refund_id": "R42"})));
    // Under withheld:
    // w1 probes P7 and stops with BLOCK (investigated stop);
    // w2 probes P7 (no_match still counts) and refunds (acted despite);
    // w3 refunds without probing (acted uninvestigated);
    // w4 stops with DEFER without probing (stopped uninvestigated).
    let treatment = [
        T::new()
            .turn(&[policy()])
            .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"})),
        T::new()
            .turn(&[charge("C2"), no_match_p7])
            .turn(std::slice::from_ref(&refund_now)),
        T::new()
            .turn(&[charge("C2")])
            .turn(std::slice::from_ref(&refund_now)),
        T::new().say(json!({"type": "NO_ACTION", "outcome": "DEFER"})),
        v1_success(),
    ];
    let mut lines = Vec::new();
    for (i, t) in treatment.iter().enumerate() {
        let case = format!("w{}", i + 1);
        lines.push(line(t, &format!("T-{case}"), &case, "A", "withheld", 0));
        // Baseline: every case probed (P7 read) and acted.
        lines.push(line(
            &v1_success(),
            &format!("R-{case}"),
            &case,
            "A",
            "baseline",
            0,
        ));
    }
    let r = run(&jsonl(&cs), &lines, 500);
    assert_eq!(r.interventions.evidence.len(), 1);
    let ev = &r.interventions.evidence[0];
    assert_eq!(
        (ev.config.as_str(), ev.condition.as_str()),
        ("A", "withheld")
    );
    assert_eq!(ev.cases, 4);
    let t = &ev.treatment;
    assert_eq!(t.episodes, 4);
    assert_close(t.investigated_stop, 0.25);
    assert_close(t.acted_despite, 0.25);
    assert_close(t.acted_uninvestigated, 0.25);
    assert_close(t.stopped_uninvestigated, 0.25);
    assert_eq!((t.block, t.defer, t.other), (1, 1, 0));
    assert_eq!(t.probed_ids, vec!["T-w1", "T-w2"]);
    let b = &ev.reference;
    assert_eq!(b.condition, "baseline");
    assert_close(b.acted_despite, 1.0);
    assert_close(b.investigated_stop, 0.0);
    assert_eq!((b.block, b.defer, b.other), (0, 0, 0));
    // Δ acted = 0.5 − 1 = −0.5: D = (−1, 0, 0, −1), S = −2,
    // p = P(|ε1 + ε4| ≥ 2) = 1/2.
    let acted = &ev.acted.paired;
    assert_eq!(acted.n, 4);
    assert_close(acted.delta, -0.5);
    let m = acted.mcnemar.as_ref().unwrap();
    assert_eq!((m.s, m.only_b), (-2, 2));
    assert_close(m.p_value, 0.5);
    // Δ probed = 0.5 − 1 = −0.5: D = (0, 0, −1, −1), S = −2, p = 1/2.
    let probed = &ev.probed.paired;
    assert_close(probed.delta, -0.5);
    let d: Vec<f64> = probed.per_case.iter().map(|c| c.difference).collect();
    assert_eq!(d, vec![0.0, 0.0, -1.0, -1.0]);
    assert_close(probed.mcnemar.as_ref().unwrap().p_value, 0.5);
    assert_eq!(ev.probed.case_ids, vec!["w1", "w2", "w3", "w4"]);
}

#[test]
fn static_gap_and_legacy_negatives() {
    // V1 cases s1–s3: static says ALLOW on all (accuracy 1); baseline
    // succeeds on s1 only (ECS 1/3). Gap 2/3, D = (0, 1, 1), S = 2,
    // p = P(|ε2 + ε3| ≥ 2) = 1/2. Legacy negatives n1–n3 (expected BLOCK)
    // under static answer BLOCK, ALLOW, DEFER: correct 1/3, rejected 2/3.
    let negative = |id: &str| {
        json!({"case_id": id, "protocol": "Legacy", "domain": "customer_policy",
               "instruction": "Judge.", "candidate": {"tool": "refund_issue", "args": {"amount": -5}},
               "expected_decision": "BLOCK"})
    };
    let cases = jsonl(&[
        v1("s1"),
        v1("s2"),
        v1("s3"),
        negative("n1"),
        negative("n2"),
        negative("n3"),
    ]);
    let mut lines = Vec::new();
    for (case, base_ok) in [("s1", true), ("s2", false), ("s3", false)] {
        lines.push(line(
            &static_decision("ALLOW"),
            &format!("S-{case}"),
            case,
            "A",
            "static",
            0,
        ));
        let t = if base_ok { v1_success() } else { v1_failure() };
        lines.push(line(&t, &format!("B-{case}"), case, "A", "baseline", 0));
    }
    for (case, d) in [("n1", "BLOCK"), ("n2", "ALLOW"), ("n3", "DEFER")] {
        lines.push(line(
            &static_decision(d),
            &format!("S-{case}"),
            case,
            "A",
            "static",
            0,
        ));
    }
    let r = run(&cases, &lines, 500);
    assert_eq!(r.interventions.static_vs_interactive.len(), 1);
    let s = &r.interventions.static_vs_interactive[0];
    assert_eq!(s.config, "A");
    let g = &s.gap.paired;
    assert_eq!(g.n, 3);
    assert_close(g.rate_a, 1.0);
    assert_close(g.rate_b, 1.0 / 3.0);
    assert_close(g.delta, 2.0 / 3.0);
    let m = g.mcnemar.as_ref().unwrap();
    assert_eq!(m.s, 2);
    assert_close(m.p_value, 0.5);
    assert_eq!(s.gap.case_ids, vec!["s1", "s2", "s3"]);
    assert_eq!(
        (s.legacy_scored, s.legacy_correct, s.legacy_rejected),
        (3, 1, 2)
    );
    assert_eq!(s.legacy_ids, vec!["S-n1", "S-n2", "S-n3"]);
}

#[test]
fn scgr_unpaired_and_paired_rows() {
    // Cases c1–c3 (V1), z1 (V0). Baseline (plans every case): c1 ✓, c2 ✗,
    // c3 ✓, z1 ✓. scgr_select (plans what it saw): c1 ✓, c2 ✓, c3
    // unscored.
    // Unpaired: treatment V1 (3 cases) ECS 2/2 = 1, completion 2/3; V0–V3
    // the same. Reference V0 1 case, ECS 1, completion 1; V1 3 cases, ECS
    // 2/3; V0–V3 4 cases, ECS 3/4. The case sets differ.
    // Paired (rule C) on V1 = V0–V3 = {c1, c2} (c3 dropped by the
    // treatment): Δ = (0 + 1)/2 = 0.5, S = 1, p = 1.
    let cases = jsonl(&[v1("c1"), v1("c2"), v1("c3"), renamed(v0_case(), "z1")]);
    let v0_ok = T::new()
        .turn(&[
            info("subscription_read", json!({"subscription_id": "sub_447"})),
            info("cancellation_search", json!({"subscription_id": "sub_447"})),
        ])
        .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}));
    let lines = [
        line(&v1_success(), "R-c1", "c1", "A", "baseline", 0),
        line(&v1_failure(), "R-c2", "c2", "A", "baseline", 0),
        line(&v1_success(), "R-c3", "c3", "A", "baseline", 0),
        line(&v0_ok, "R-z1", "z1", "A", "baseline", 0),
        line(&v1_success(), "T-c1", "c1", "A", "scgr_select", 0),
        line(&v1_success(), "T-c2", "c2", "A", "scgr_select", 0),
        infra("T-c3", "c3", "A", "scgr_select", 0),
    ];
    let r = run(&cases, &lines, 500);
    assert_eq!(episode(&r, "R-z1").success, Some(true));
    assert_eq!(r.interventions.scgr.len(), 1);
    let s = &r.interventions.scgr[0];
    assert_eq!(
        (s.config.as_str(), s.condition.as_str()),
        ("A", "scgr_select")
    );
    assert!(s.case_sets_differ);
    let rows = |v: &[gapscope_evidence::interventions::UnpairedRow]| -> Vec<(String, usize, Option<f64>, Option<f64>)> {
        v.iter()
            .map(|x| (x.row.clone(), x.cases, x.ecs, x.completion))
            .collect()
    };
    let t = rows(&s.treatment);
    assert_eq!(t.len(), 2);
    assert_eq!((t[0].0.as_str(), t[0].1), ("V1", 3));
    assert_close(t[0].2, 1.0);
    assert_close(t[0].3, 2.0 / 3.0);
    assert_eq!((t[1].0.as_str(), t[1].1), ("V0–V3", 3));
    assert_close(t[1].2, 1.0);
    assert_close(t[1].3, 2.0 / 3.0);
    let b = rows(&s.reference);
    assert_eq!(
        b.iter().map(|x| (x.0.as_str(), x.1)).collect::<Vec<_>>(),
        vec![("V0", 1), ("V1", 3), ("V0–V3", 4)]
    );
    assert_close(b[0].2, 1.0);
    assert_close(b[1].2, 2.0 / 3.0);
    assert_close(b[2].2, 0.75);
    assert!(b.iter().all(|x| x.3 == Some(1.0)));
    // Paired rows: V1, then V0–V3 (no V0 case is planned on both sides).
    assert_eq!(s.paired.len(), 2);
    for c in &s.paired {
        assert_eq!(c.case_ids, vec!["c1", "c2"]);
        assert_eq!(c.dropped_treatment, vec!["c3"]);
        assert_eq!(c.paired.rule, Rule::Completed);
        assert_close(c.paired.delta, 0.5);
        let m = c.paired.mcnemar.as_ref().unwrap();
        assert_eq!(m.s, 1);
        assert_close(m.p_value, 1.0);
    }
}

// ----------------------------------------------------------- 10. undefined

#[test]
fn readiness_with_no_qualifying_episode_is_null_with_the_reason() {
    // V1 episodes that never act have no coverage (V1 takes episodes with
    // one consequential call): the V1 curve is empty, its values null.
    let never = T::new()
        .turn(&[charge("C2"), policy()])
        .say(json!({"type": "NO_ACTION", "outcome": "DEFER"}));
    let r = run(
        &jsonl(&[v1("c1"), v1("c2")]),
        &[
            line(&never, "n1", "c1", "A", "baseline", 0),
            line(&never, "n2", "c2", "A", "baseline", 0),
        ],
        0,
    );
    let c = readiness(&r, "A", Protocol::V1);
    assert_eq!(c.reason.as_deref(), Some("no episode qualifies"));
    assert!(c.points.is_empty());
    assert_eq!((c.mean, c.full_support, c.n_mean), (None, None, None));
    let v = serde_json::to_value(c).unwrap();
    assert_eq!(v["mean"], Value::Null);
    assert_eq!(v["full_support"], Value::Null);
}

#[test]
fn a_paired_row_with_no_matched_case_is_null_never_zero() {
    // A distractor pair whose treatment is unscored everywhere: no case
    // completed under both, so Δ, the rates, the interval and p are null.
    let lines = [
        line(&v1_success(), "R-c1", "c1", "A", "baseline", 0),
        line(&v1_failure(), "R-c2", "c2", "A", "baseline", 0),
        infra("T-c1", "c1", "A", "distractor", 0),
        infra("T-c2", "c2", "A", "distractor", 0),
    ];
    let r = run(&jsonl(&[v1("c1"), v1("c2")]), &lines, 500);
    let d = &r.interventions.distractors[0];
    for c in [&d.information_calls, &d.acted] {
        let p = &c.paired;
        assert_eq!(p.n, 0);
        assert_eq!(
            (p.delta, p.rate_a, p.rate_b, p.interval),
            (None, None, None, None)
        );
        assert_eq!(c.dropped_treatment, vec!["c1", "c2"]);
        let v = serde_json::to_value(p).unwrap();
        assert_eq!(v["delta"], Value::Null);
        assert_eq!(v["interval"], Value::Null);
    }
    let m = d.acted.paired.mcnemar.as_ref().unwrap();
    assert_eq!(m.p_value, None);
    // The first-action panel matches nothing either: empty curves, null
    // endpoints.
    let f = &r.interventions.first_action[0];
    assert_eq!(f.matched_cases, 0);
    assert!(f.curves.iter().all(|c| c.f.is_empty() && c.acted.is_none()));
    assert_eq!(f.acted[0].paired.delta, None);
}

#[test]
fn a_side_label_splits_at_the_last_at() {
    // Config names may contain `@`; `config@condition` splits at the last
    // `@`: "m@x@withheld" is config `m@x` under `withheld`, and a bare "m@x"
    // is `m@x` under baseline.
    let lines = [
        line(&v1_success(), "1", "c1", "m@x", "baseline", 0),
        line(&v1_success(), "2", "c1", "m@x", "withheld", 0),
        line(&v1_failure(), "3", "c1", "n", "withheld", 0),
    ];
    let r = evaluate(
        &jsonl(&[v1("c1")]),
        &lines.join("\n"),
        &EvidenceSettings {
            bootstrap: 0,
            pairs: vec![
                ("m@x@withheld".into(), "n@withheld".into()),
                ("m@x".into(), "m@x@withheld".into()),
            ],
            ..Default::default()
        },
    )
    .unwrap();
    let p = &r.paired;
    assert_eq!(
        (p[0].a.as_str(), p[0].rule),
        ("m@x@withheld", Rule::AllPlanned)
    );
    assert_close(p[0].headline().unwrap().paired.delta, 1.0);
    assert_eq!((p[1].a.as_str(), p[1].rule), ("m@x", Rule::Completed));
}

#[test]

fn an_ambiguous_label_names_the_side_split_at_the_last_at() {
    // A baseline config literally named `A@withheld` has the label
    // `A@withheld`, which §1 reads as config `A` under `withheld`.
    let lines = [
        line(&v1_failure(), "1", "c1", "A@withheld", "baseline", 0),
        line(&v1_success(), "2", "c1", "A", "withheld", 0),
        line(&v1_failure(), "3", "c1", "B", "withheld", 0),
    ];
    let r = evaluate(
        &jsonl(&[v1("c1")]),
        &lines.join("\n"),
        &EvidenceSettings {
            bootstrap: 0,
            pairs: vec![("A@withheld".into(), "B@withheld".into())],
            ..Default::default()
        },
    );
    // Either the pair is A under withheld vs B under withheld (rule P,
    // Δ = 1), or the ambiguity is reported as an error.
    if let Ok(r) = r {
        let p = &r.paired[0];
        assert_eq!(p.rule, Rule::AllPlanned);
        assert_close(p.headline().unwrap().paired.delta, 1.0);
    }
}

// ------------------------------------------------ §8 rows set by the settings

#[test]
fn settings_override_the_default_rows_of_the_interventions() {
    let cases = include_str!("../../../assets/evidence/cases.jsonl");
    let trajectories = include_str!("../../../assets/evidence/trajectories.jsonl");
    let rows = gapscope_evidence::interventions::Rows {
        first_action: Some(("baseline".into(), vec!["evidence_package".into()])),
        distractors: vec![("contradicted".into(), "withheld".into())],
        evidence: vec!["withheld".into()],
        scgr: vec!["scgr_select".into()],
    };
    let r = evaluate(
        cases,
        trajectories,
        &EvidenceSettings {
            bootstrap: 0,
            rows: rows.clone(),
            ..Default::default()
        },
    )
    .unwrap();
    let iv = &r.interventions;
    for f in &iv.first_action {
        assert_eq!(f.reference, "baseline");
        assert_eq!(f.treatments, vec!["evidence_package".to_string()]);
        let conditions: Vec<&str> = f.curves.iter().map(|c| c.condition.as_str()).collect();
        assert_eq!(conditions, ["baseline", "evidence_package"]);
    }
    assert!(iv
        .distractors
        .iter()
        .all(|d| (d.acted.treatment.as_str(), d.acted.reference.as_str())
            == ("contradicted", "withheld")));
    assert_eq!(iv.distractors.len(), 2);
    assert!(iv.evidence.iter().all(|e| e.condition == "withheld"));
    assert_eq!(iv.evidence.len(), 2);
    assert!(iv.scgr.iter().all(|g| g.condition == "scgr_select"));
    assert_eq!(iv.scgr.len(), 2);
    // The defaults: withheld as the reference of every other condition.
    let d = evaluate(cases, trajectories, &settings(0)).unwrap();
    assert!(d
        .interventions
        .first_action
        .iter()
        .all(|f| f.reference == "withheld"));
    assert!(d.interventions.scgr.len() == 4);
    // A name no side has is a settings error that lists the conditions.
    let e = evaluate(
        cases,
        trajectories,
        &EvidenceSettings {
            rows: gapscope_evidence::interventions::Rows {
                scgr: vec!["scgr_nope".into()],
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("condition `scgr_nope`, which no side of the plan has (conditions: baseline, contradicted"), "{e}");
}
