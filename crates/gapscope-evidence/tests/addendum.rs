//! The evidence scorer and report, through the whole pipeline
//! (`evaluate(cases, trajectories, settings)`), against the hand-worked
//! examples and rules of `../shared/spec/evidence-to-action.addendum.md`
//! (§1 format, §3 required reads, §5 all-planned ECS, §7 readiness, §8
//! interventions, §9 worked examples). Every case and trajectory is built as
//! JSON here; the hand numbers are in the comments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::pairs::Rule;
use gapscope_evidence::score::Gate;
use gapscope_evidence::{FailureType, Protocol};
use serde_json::{json, Value};

mod common;
use common::addendum::*;
use common::*;

// ------------------------------------------------- 1. §9 B V1 (required reads)

#[test]
fn b_v1_required_reads_k_first_readiness_and_effort() {
    // Message 1: charge_read C2 (step 0, result in message 2). Message 3:
    // policy_read P7 (step 1) and refund_issue (step 2) together. Then
    // eligibility_read C2 (step 3).
    let t = T::new()
        .turn(&[charge("C2")])
        .turn(&[
            policy(),
            refund(49.99, applied(json!({"refund_id": "R42"}))),
        ])
        .turn(&[info("eligibility_read", json!({"charge_id": "C2"}))]);
    let r = run(
        &jsonl(&[v1_four_requirements()]),
        &[line(&t, "t", "b-v1", "A", "baseline", 0)],
        0,
    );
    let e = episode(&r, "t");
    // Required reads = 3 distinct read specs (dup and amt share one).
    assert_eq!(e.required_reads, 3);
    // k_first = 2: steps 0 and 1 precede the action (step 1 is listed
    // earlier in the same message: it was issued first).
    assert_eq!(e.k_first, Some(2));
    assert!(e.acted);
    // Before the action's message only charge C2 was observed: 1/3.
    assert_close(e.readiness.coverage, 1.0 / 3.0);
    assert!(e.readiness.gates.is_empty());
    // P7 and elig were not observed before the refund → early_action.
    assert_eq!(e.failure, Some(FailureType::EarlyAction));
    assert_eq!(e.failure_step, Some(2));
    // At the end: 3 information calls, every spec satisfied, effort 3/3.
    assert_eq!(e.information_calls, 3);
    assert!(e.investigation_complete);
    assert_eq!(e.normalized_effort, Some(1.0));
    // Composition: V1 row with 3 required reads, 1 node, 0 edges.
    let v1row = &r.composition.table7[1];
    assert_eq!(v1row.protocol, "V1");
    assert_eq!(
        (v1row.cases, v1row.required_reads_max, v1row.action_nodes),
        (1, Some(3), 1)
    );
    assert_eq!(v1row.dependency_edges, 0);
    // The V1 readiness curve of the one episode: F = 0 below 1/3, 1 from
    // 1/3; mean 1/3; no episode at full support.
    let c = readiness(&r, "A", Protocol::V1);
    assert_eq!(c.points, vec![[0.0, 0.0], [1.0 / 3.0, 1.0], [1.0, 1.0]]);
    assert_close(c.mean, 1.0 / 3.0);
    assert_close(c.full_support, 0.0);
    assert_eq!(c.n_mean, Some(1.0));
    assert_eq!(c.reason, None);
}

// ------------------------------------------------------ 2. §9 B V3 gates

/// A V3 DAG with enough requirements per action: a1 (requires r1, r2) and
/// a2 (requires nothing) are roots; a3 after a1 requires r1, r3, r4; a4
/// after a2 and a3 requires r1.
fn v3_gates_case(id: &str) -> Value {
    json!({
        "case_id": id, "protocol": "V3", "domain": "legal_financial",
        "instruction": "Open, tag, archive, close.", "read_budget": 10,
        "tools": {"information": [{"name": "fact_read"}],
                  "consequential": [{"name": "open"}, {"name": "tag"}, {"name": "archive"}, {"name": "close"}]},
        "requirements": [
            {"id": "r1", "fact": "F1", "source": {"tool": "fact_read", "args": {"fact": "F1"}}},
            {"id": "r2", "fact": "F2", "source": {"tool": "fact_read", "args": {"fact": "F2"}}},
            {"id": "r3", "fact": "F3", "source": {"tool": "fact_read", "args": {"fact": "F3"}}},
            {"id": "r4", "fact": "F4", "source": {"tool": "fact_read", "args": {"fact": "F4"}}}
        ],
        "actions": [
            {"id": "a1", "tool": "open", "args": {"item": "I1"}, "requires": ["r1", "r2"]},
            {"id": "a2", "tool": "tag", "args": {"item": "I1"}},
            {"id": "a3", "tool": "archive", "args": {"item": "I1"}, "after": ["a1"], "requires": ["r1", "r3", "r4"]},
            {"id": "a4", "tool": "close", "args": {"item": "I1"}, "after": ["a2", "a3"], "requires": ["r1"]}
        ],
        "terminal": "ACT"
    })
}

fn fact(f: &str) -> (&'static str, Value, Value) {
    ("fact_read", json!({"fact": f}), ok(json!({"holds": true})))
}

fn act(tool: &'static str) -> (&'static str, Value, Value) {
    (tool, json!({"item": "I1"}), applied(json!({"done": true})))
}

fn gate(g: &Gate) -> (usize, &str, usize, usize, bool) {
    (
        g.step,
        g.target.as_str(),
        g.evaluated,
        g.supported,
        g.included,
    )
}

#[test]
fn b_v3_gates_and_readiness_curve() {
    // e1: F1, F2 read; open (g1: r1, r2 established, s = 2/2, step 2);
    // archive (g2: only r1 of r1, r3, r4, s = 1/3 → early_action at step 3,
    // the cut); close (step 4, after the cut: excluded although it has a
    // requirement).
    let e1 = T::new()
        .turn(&[fact("F1"), fact("F2")])
        .turn(&[act("open")])
        .turn(&[act("archive")])
        .turn(&[act("close")]);
    // e2: tag first (g1, no requirement: dropped), F1 read, open (g2: r1
    // of r1, r2, s = 1/2 → early_action at step 2, included).
    let e2 = T::new()
        .turn(&[act("tag")])
        .turn(&[fact("F1")])
        .turn(&[act("open")]);
    // e3: its only gate (tag) has no requirement → e3 is dropped.
    let e3 = T::new().turn(&[act("tag")]).say(json!("stopping"));
    let cases = jsonl(&[
        v3_gates_case("v3-e1"),
        v3_gates_case("v3-e2"),
        v3_gates_case("v3-e3"),
    ]);
    let r = run(
        &cases,
        &[
            line(&e1, "e1", "v3-e1", "A", "baseline", 0),
            line(&e2, "e2", "v3-e2", "A", "baseline", 0),
            line(&e3, "e3", "v3-e3", "A", "baseline", 0),
        ],
        0,
    );
    let ep1 = episode(&r, "e1");
    assert_eq!(ep1.failure, Some(FailureType::EarlyAction));
    assert_eq!(ep1.failure_step, Some(3));
    assert_eq!(ep1.readiness.coverage, None);
    let g: Vec<_> = ep1.readiness.gates.iter().map(gate).collect();
    assert_eq!(
        g,
        vec![
            (2, "a1", 2, 2, true),
            (3, "a3", 3, 1, true),
            (4, "a4", 1, 1, false)
        ]
    );
    let ep2 = episode(&r, "e2");
    assert_eq!(ep2.failure_step, Some(2));
    let g: Vec<_> = ep2.readiness.gates.iter().map(gate).collect();
    assert_eq!(g, vec![(0, "a2", 0, 0, false), (2, "a1", 2, 1, true)]);
    let ep3 = episode(&r, "e3");
    let g: Vec<_> = ep3.readiness.gates.iter().map(gate).collect();
    assert_eq!(g, vec![(0, "a2", 0, 0, false)]);

    // F(x) = mean_e (1/|G_e|) Σ_g 1[s_g ≤ x] over e1 {1, 1/3} and e2 {1/2}:
    // 0 below 1/3, (1/2 + 0)/2 = 0.25 on [1/3, 1/2), (1/2 + 1)/2 = 0.75 on
    // [1/2, 1), 1 at 1. Full support 1 − 0.75 = 0.25; mean
    // (2/3 + 1/2)/2 = 7/12; n = 2.
    let c = readiness(&r, "A", Protocol::V3);
    assert_eq!(c.points.len(), 4);
    let expected = [[0.0, 0.0], [1.0 / 3.0, 0.25], [0.5, 0.75], [1.0, 1.0]];
    for (p, q) in c.points.iter().zip(expected) {
        assert!(close(p[0], q[0]) && close(p[1], q[1]), "{:?}", c.points);
    }
    assert_close(c.full_support, 0.25);
    assert_close(c.mean, 7.0 / 12.0);
    assert_eq!((c.n_mean, c.n_min, c.n_max), (Some(2.0), 2, 2));
    assert_eq!(c.episode_ids, vec!["e1", "e2"]);
    assert_eq!(c.reason, None);
}

// ------------------------------------------------------------ 3. §9 B D2

/// §9 B D2: r1 reads `charge_read {C2}`; done = {a1, refund_id, confirm
/// `refund_read {refund_id: ref a1.refund_id}`}; a2 requires done, is
/// after a1 and refs a1.
fn d2_case() -> Value {
    json!({
        "case_id": "d2", "protocol": "V2", "domain": "customer_policy",
        "instruction": "Refund C2 and notify the customer with the refund id.", "read_budget": 5,
        "tools": {"information": [{"name": "charge_read"}, {"name": "refund_read"}],
                  "consequential": [{"name": "refund_issue"}, {"name": "customer_notify"}]},
        "requirements": [
            {"id": "r1", "fact": "C2 is a duplicate", "source": {"tool": "charge_read", "args": {"charge_id": "C2"}}},
            {"id": "done", "fact": "the refund is recorded",
             "source": {"action": "a1", "field": "refund_id",
                        "confirm": {"tool": "refund_read", "args": {"refund_id": {"ref": "a1.refund_id"}}}}}
        ],
        "actions": [
            {"id": "a1", "tool": "refund_issue", "args": {"charge_id": "C2"}, "requires": ["r1"]},
            {"id": "a2", "tool": "customer_notify", "args": {"refund_id": {"ref": "a1.refund_id"}, "account": "U1"},
             "requires": ["done"], "after": ["a1"]}
        ],
        "terminal": "ACT"
    })
}

#[test]
fn b_d2_required_reads_composition_and_effort() {
    let refund_c2 = (
        "refund_issue",
        json!({"charge_id": "C2"}),
        applied(json!({"refund_id": "R42"})),
    );
    let notify = (
        "customer_notify",
        json!({"refund_id": "R42", "account": "U1"}),
        applied(json!({"notice_id": "N1"})),
    );
    // E1: reads C2, refunds (R42), notifies unconfirmed.
    let e1 = T::new()
        .turn(&[charge("C2")])
        .turn(std::slice::from_ref(&refund_c2))
        .turn(std::slice::from_ref(&notify));
    // E2: also reads refund R42 before notifying.
    let e2 = T::new()
        .turn(&[charge("C2")])
        .turn(&[refund_c2])
        .turn(&[info("refund_read", json!({"refund_id": "R42"}))])
        .turn(&[notify]);
    let r = run(
        &jsonl(&[d2_case()]),
        &[
            line(&e1, "E1", "d2", "A", "baseline", 0),
            line(&e2, "E2", "d2", "A", "baseline", 1),
        ],
        0,
    );
    // Required reads = 2 (charge C2, the confirming refund read).
    let x1 = episode(&r, "E1");
    assert_eq!(x1.required_reads, 2);
    // E1: 1 call, effort 1/2, incomplete (the confirm is missing),
    // early_action (done not established at the notification).
    assert_eq!(x1.information_calls, 1);
    assert_eq!(x1.normalized_effort, Some(0.5));
    assert!(!x1.investigation_complete);
    assert_eq!(x1.failure, Some(FailureType::EarlyAction));
    // E2: 2 calls, effort 1, complete, success.
    let x2 = episode(&r, "E2");
    assert_eq!(x2.information_calls, 2);
    assert_eq!(x2.normalized_effort, Some(1.0));
    assert!(x2.investigation_complete);
    assert_eq!(x2.success, Some(true));
    // Table 7: 2 nodes, 1 edge (after, ref and requires collapse), no fork
    // or join; mean and max required reads 2.
    let v2row = r
        .composition
        .table7
        .iter()
        .find(|t| t.protocol == "V2")
        .unwrap();
    assert_eq!(
        (
            v2row.cases,
            v2row.action_nodes,
            v2row.dependency_edges,
            v2row.forks,
            v2row.joins
        ),
        (1, 2, 1, 0, 0)
    );
    assert_eq!(v2row.required_reads_mean, Some(2.0));
    assert_eq!(v2row.required_reads_max, Some(2));
    // Effort curve: rep 0 (E1) never complete, rep 1 (E2) complete at 1;
    // averaged: F = 0 for x < 1, 0.5 for x ≥ 1 (the old rule, which left
    // confirms out, gave F(0.5) = 0.5: no corner at 0.5 now).
    let curve = r
        .effort
        .iter()
        .find(|c| c.config == "A" && c.protocol == Protocol::V2)
        .unwrap();
    assert_eq!(curve.episodes, 2);
    assert_eq!(curve.points, vec![[1.0, 0.5]]);
    assert_eq!(curve.plateau, Some(0.5));
}

#[test]
fn b_v3_structure_reduction() {
    // a1 → {a2, a3} → a4 plus a redundant "a4 after a1": 4 nodes, 4 edges
    // after the reduction, one fork and one join.
    let mut c = v3_case();
    c["actions"][3]["after"] = json!(["a2", "a3", "a1"]);
    // Composition covers the planned case set: one run plans the case.
    let r = run(
        &jsonl(&[c]),
        &[line(&T::new(), "t", "v3-flow", "A", "baseline", 0)],
        0,
    );
    let v3row = r
        .composition
        .table7
        .iter()
        .find(|t| t.protocol == "V3")
        .unwrap();
    assert_eq!(
        (
            v3row.cases,
            v3row.action_nodes,
            v3row.dependency_edges,
            v3row.forks,
            v3row.joins
        ),
        (1, 4, 4, 1, 1)
    );
}

// ------------------------------------------------ 4. §9 A through the pipeline

#[test]
fn a_paired_configs_rule_p_through_the_pipeline() {
    let r = run(&four_v1(), &example_a_lines(false), 2000);
    assert_eq!(r.paired.len(), 1);
    let p = &r.paired[0];
    assert_eq!(
        (p.a.as_str(), p.b.as_str(), p.rule),
        ("A", "B", Rule::AllPlanned)
    );
    // Rows: V1 and the V0–V3 headline (same four cases).
    let rows: Vec<&str> = p.rows.iter().map(|x| x.row.as_str()).collect();
    assert_eq!(rows, vec!["V1", "V0–V3"]);
    let h = &p.headline().unwrap().paired;
    // ECS A 0.625, B 0.25, Δ 0.375; d = (1, 0.5, 0.5, −0.5).
    assert_eq!(h.n, 4);
    assert_close(h.rate_a, 0.625);
    assert_close(h.rate_b, 0.25);
    assert_close(h.delta, 0.375);
    let d: Vec<f64> = h.per_case.iter().map(|c| c.difference).collect();
    assert_eq!(d, vec![1.0, 0.5, 0.5, -0.5]);
    // Pooled b = 4, c = 1; clustered S = 3, p = 8/16.
    let m = h.mcnemar.as_ref().unwrap();
    assert_eq!((m.only_a, m.only_b, m.s, m.discordant_cases), (4, 1, 3, 4));
    assert_close(m.p_value, 0.5);
    // The interval lies within [−0.5, 1].
    let [lo, hi] = h.interval.unwrap();
    assert!((-0.5..=1.0).contains(&lo) && (-0.5..=1.0).contains(&hi) && lo <= hi);
    assert_eq!((h.unscored_a, h.unscored_b), (0, 0));
    // Table 12: Δ_0 = 0.75 − 0.25 = 0.5, Δ_1 = 0.5 − 0.25 = 0.25; mean
    // 0.375, SD 0.25/√2 = 0.1768; SD(ECS_A) = 0.1768, SD(ECS_B) = 0;
    // consistent; mean_r Δ_r = the row's Δ.
    let t = &p.per_repetition;
    let deltas: Vec<Option<f64>> = t.repetitions.iter().map(|x| x.delta).collect();
    assert_eq!(deltas.len(), 2);
    assert_close(deltas[0], 0.5);
    assert_close(deltas[1], 0.25);
    assert_close(t.delta.mean, 0.375);
    assert!((t.delta.sd.unwrap() - 0.1768).abs() < 1e-4);
    assert_close(t.delta.sd, 0.25 / 2f64.sqrt());
    assert_close(t.a.sd, 0.25 / 2f64.sqrt());
    assert_close(t.b.sd, 0.0);
    assert!(t.consistent);
    assert_eq!((t.positive, t.negative, t.zero), (2, 0, 0));
    assert_close(t.delta.mean, h.delta.unwrap());
    // The per-side ECS tables agree: A 0.625 ± 0.1768, B 0.25 ± 0.
    let a = r.ecs.iter().find(|e| e.config == "A").unwrap();
    assert_close(a.summary.overall.mean, 0.625);
    assert_close(a.summary.overall.sd, 0.25 / 2f64.sqrt());
    let b = r.ecs.iter().find(|e| e.config == "B").unwrap();
    assert_close(b.summary.overall.mean, 0.25);
    assert_close(b.summary.overall.sd, 0.0);
}

#[test]
fn a_infrastructure_failure_counts_zero_under_rule_p() {
    // B's c4 rep 1 unscored: rule P counts it 0, so c4 gets D = 0, d = 0;
    // Δ = (1 + 0.5 + 0.5 + 0)/4 = 0.5; B has 1 unscored run. S = 4 over
    // D = (2, 1, 1, 0): p = P(|2ε1 + ε2 + ε3| ≥ 4) = 2/8.
    let r = run(&four_v1(), &example_a_lines(true), 500);
    let h = &r.paired[0].headline().unwrap().paired;
    assert_eq!(h.rule, Rule::AllPlanned);
    assert_eq!(h.n, 4);
    assert_close(h.delta, 0.5);
    assert_eq!((h.unscored_a, h.unscored_b), (0, 1));
    let c4 = &h.per_case[3];
    assert_eq!((c4.a, c4.b, c4.difference), (0.5, 0.5, 0.0));
    let m = h.mcnemar.as_ref().unwrap();
    assert_eq!((m.s, m.discordant_cases), (4, 3));
    assert_close(m.p_value, 0.25);
    // Table 12: B rep 1 all-planned = 0/4, so Δ_0 = Δ_1 = 0.5 = Δ.
    let t = &r.paired[0].per_repetition;
    assert_close(t.repetitions[1].b, 0.0);
    assert_close(t.delta.mean, 0.5);
    assert_close(t.delta.sd, 0.0);
}

// ------------------------------------------------ 5. §9 C through the pipeline

/// §9 C: per case (k_first R, k_first T, calls R, calls T); c5's R run
/// (k_first 5, beyond the matched K) and its T run is an infrastructure
/// failure.
/// (case, k_first R, k_first T, calls R, calls T).
type CRow = (&'static str, Option<usize>, Option<usize>, usize, usize);

fn example_c_lines(treatment: &str) -> Vec<String> {
    let table: [CRow; 4] = [
        ("c1", Some(0), Some(1), 4, 2),
        ("c2", Some(2), None, 3, 6),
        ("c3", None, None, 5, 5),
        ("c4", Some(3), Some(2), 3, 4),
    ];
    let mut out = Vec::new();
    for (case, kr, kt, nr, nt) in table {
        out.push(line(
            &v1_shaped(kr, nr),
            &format!("R-{case}"),
            case,
            "Q",
            "withheld",
            0,
        ));
        out.push(line(
            &v1_shaped(kt, nt),
            &format!("T-{case}"),
            case,
            "Q",
            treatment,
            0,
        ));
    }
    out.push(line(
        &v1_shaped(Some(5), 6),
        "R-c5",
        "c5",
        "Q",
        "withheld",
        0,
    ));
    out.push(infra("T-c5", "c5", "Q", treatment, 0));
    out
}

fn five_v1() -> String {
    jsonl(&[v1("c1"), v1("c2"), v1("c3"), v1("c4"), v1("c5")])
}

#[test]
fn c_first_action_panel() {
    let r = run(&five_v1(), &example_c_lines("evidence_package"), 2000);
    // The shaped trajectories have the table's k_first and calls.
    assert_eq!(episode(&r, "T-c2").k_first, None);
    assert_eq!(episode(&r, "R-c4").k_first, Some(3));
    assert_eq!(episode(&r, "T-c2").information_calls, 6);
    assert_eq!(r.interventions.first_action.len(), 1);
    let f = &r.interventions.first_action[0];
    assert_eq!(f.config, "Q");
    assert_eq!(f.reference, "withheld");
    assert_eq!(f.treatments, vec!["evidence_package"]);
    // 4 cases match; c5 is dropped (T unscored).
    assert_eq!(f.matched_cases, 4);
    assert_eq!(f.dropped, vec!["c5"]);
    // K = 3 (c5's 5 is not in the panel).
    assert_eq!(f.k_max, 3);
    let fr = &f.curves[0];
    let ft = &f.curves[1];
    assert_eq!(fr.condition, "withheld");
    assert_eq!(ft.condition, "evidence_package");
    // F_R(0..3) = 0.25, 0.25, 0.5, 0.75; F_T(0..3) = 0, 0.25, 0.5, 0.5.
    assert_eq!(fr.f, vec![0.25, 0.25, 0.5, 0.75]);
    assert_eq!(ft.f, vec![0.0, 0.25, 0.5, 0.5]);
    // Endpoints: acted R 0.75, T 0.5.
    assert_close(fr.acted, 0.75);
    assert_close(ft.acted, 0.5);
    // Δ acted = −0.25; McNemar D = (0, −1, 0, 0), S = −1, p = 1.
    assert_eq!(f.acted.len(), 1);
    let c = &f.acted[0];
    assert_eq!(
        (c.treatment.as_str(), c.reference.as_str()),
        ("evidence_package", "withheld")
    );
    assert_eq!(c.paired.rule, Rule::Completed);
    assert_eq!(c.paired.n, 4);
    assert_close(c.paired.delta, -0.25);
    let m = c.paired.mcnemar.as_ref().unwrap();
    assert_eq!((m.s, m.only_a, m.only_b, m.discordant_cases), (-1, 0, 1, 1));
    assert_close(m.p_value, 1.0);
    assert_eq!(c.case_ids, vec!["c1", "c2", "c3", "c4"]);
    assert_eq!(c.dropped_treatment, vec!["c5"]);
    assert_eq!(c.paired.unscored_a, 1);
    // No distractor pair: evidence_package is not `X_distractor`.
    assert!(r.interventions.distractors.is_empty());
}

#[test]

fn c_first_action_only_the_treatment_drops_c5() {
    // §9 C: "c5 under T is an infrastructure failure, so 4 cases match and
    // T drops 1." R's c5 run is scored: R drops nothing and has no
    // unscored run (§2: "the cases each side dropped"; PairedRow:
    // `dropped_b` needs B unscored in one of the case's pairs).
    let r = run(&five_v1(), &example_c_lines("evidence_package"), 0);
    let c = &r.interventions.first_action[0].acted[0];
    assert_eq!(c.dropped_treatment, vec!["c5"]);
    assert_eq!(c.paired.unscored_a, 1);
    assert!(
        c.dropped_reference.is_empty(),
        "dropped_reference {:?}",
        c.dropped_reference
    );
    assert_eq!(c.paired.unscored_b, 0);
}

#[test]
fn c_as_a_distractor_pair() {
    // Naming the treatment withheld_distractor makes §8.2 pair it with
    // withheld: Δ information calls = mean(2−4, 6−3, 5−5, 4−3) =
    // mean(−2, 3, 0, 1) = +0.5, interval within [−2, 3]; Δ acted −0.25.
    let r = run(&five_v1(), &example_c_lines("withheld_distractor"), 2000);
    assert_eq!(r.interventions.distractors.len(), 1);
    let d = &r.interventions.distractors[0];
    assert_eq!(d.config, "Q");
    let calls = &d.information_calls;
    assert_eq!(
        (calls.treatment.as_str(), calls.reference.as_str()),
        ("withheld_distractor", "withheld")
    );
    assert_eq!(calls.paired.n, 4);
    let diffs: Vec<f64> = calls.paired.per_case.iter().map(|c| c.difference).collect();
    assert_eq!(diffs, vec![-2.0, 3.0, 0.0, 1.0]);
    assert_close(calls.paired.delta, 0.5);
    assert!(calls.paired.mcnemar.is_none());
    let [lo, hi] = calls.paired.interval.unwrap();
    assert!(-2.0 <= lo && lo <= hi && hi <= 3.0, "[{lo}, {hi}]");
    assert_eq!(calls.dropped_treatment, vec!["c5"]);
    assert_close(d.acted.paired.delta, -0.25);
    assert_close(d.acted.paired.mcnemar.as_ref().unwrap().p_value, 1.0);
    // The first-action panel is the same with the renamed treatment.
    let f = &r.interventions.first_action[0];
    assert_eq!(f.treatments, vec!["withheld_distractor"]);
    assert_eq!(f.curves[1].f, vec![0.0, 0.25, 0.5, 0.5]);
}
