//! Evidence-to-action scoring: every failure type on a small hand-built case
//! whose verdict is reasoned out in the comment next to it; spec and
//! trajectory errors with their locations; the report statistics against
//! hand-computed values.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::report::{bootstrap_mean_interval, mcnemar_exact};
use gapscope_evidence::score::{Check, Via};
use gapscope_evidence::{evaluate, EvidenceError, EvidenceSettings, FailureType, MeanSd, RunPlan};
use serde_json::{json, Value};

mod common;
use common::*;

// ------------------------------------------------------------ V1 verdicts

#[test]
fn v1_supported_action_succeeds_and_the_ledger_says_why() {
    // Reads C2 and P7 in message 1 (results in messages 2, 3), refund in
    // message 4: both requirements were observed before the action, the
    // arguments equal the spec's, no other consequential call → ECS 1.
    let t = T::new()
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.success, Some(true), "{:?}", e.failure_reason);
    assert_eq!(e.failure, None);
    let dup = &e.requirements[0].established.as_ref().unwrap();
    assert_eq!(
        (dup.step, dup.call_id.as_str(), dup.observed_at, dup.via),
        (0, "c0", 2, Via::Read)
    );
    let a = &e.actions[0];
    assert_eq!(
        (a.step, a.target.as_deref(), a.verdict),
        (2, Some("a1"), None)
    );
    assert_eq!(a.support[1].established.as_ref().unwrap().step, 1);
    assert!(e.investigation_complete);
    assert_eq!(e.normalized_effort, Some(1.0)); // 2 calls / 2 required reads
}

#[test]
fn reading_another_entity_is_not_evidence_early_action() {
    // Charge C1 returns the same amount and duplicate flag, but provenance is
    // the entity in the call: "dup" (about C2) is not established when the
    // refund is issued at step 2 → early_action at step 2.
    let t = T::new()
        .turn(&[charge("C1"), policy()])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.failure, Some(FailureType::EarlyAction));
    assert_eq!(e.failure_step, Some(2));
    assert!(e.failure_reason.as_deref().unwrap().contains("dup"));
}

#[test]
fn a_read_in_the_same_message_as_the_action_was_not_observed_before_it() {
    // Message 1 reads C2; message 3 issues the P7 read and the refund
    // together: P7's result (message 4) comes after the action's message (3)
    // → "pol" unmet at step 2 → early_action. At the end both requirements
    // are established (the ledger still records the late read).
    let t = T::new().turn(&[charge("C2")]).turn(&[
        policy(),
        refund(49.99, applied(json!({"refund_id": "R42"}))),
    ]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.failure, Some(FailureType::EarlyAction));
    assert_eq!(e.failure_step, Some(2));
    assert!(e.actions[0].support[1].established.is_none());
    assert!(e.requirements[1].established.is_some());
}

#[test]
fn wrong_literal_argument() {
    // Everything read; amount 40 instead of 49.99 → wrong_argument (the call
    // still targets a1, the only refund_issue action).
    let t = T::new()
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(40.0, rejected())]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.failure, Some(FailureType::WrongArgument));
    let c = e.actions[0].checks.iter().find(|c| !c.passed).unwrap();
    assert_eq!(c.check, Check::Literals);
    assert!(c.detail.contains("`amount` = 40"), "{}", c.detail);
}

#[test]
fn numbers_compare_by_value() {
    // 49.99 given as 49.990 in JSON is the same number: success.
    let t = T::new().turn(&[charge("C2"), policy()]).turn(&[(
        "refund_issue",
        serde_json::from_str(r#"{"charge_id": "C2", "amount": 49.990}"#).unwrap(),
        applied(json!({"refund_id": "R42"})),
    )]);
    assert_eq!(score_one("v1-refund", &t).success, Some(true));
}

#[test]
fn a_second_consequential_call_in_v1_is_extra_action() {
    // The refund is supported and applied (step 2); the notification at
    // step 3 targets no spec action → extra_action at step 3.
    let t = T::new()
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))])
        .turn(&[(
            "customer_notify",
            json!({"refund_id": "R42"}),
            applied(json!({"notice_id": "N1"})),
        )]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.failure, Some(FailureType::ExtraAction));
    assert_eq!(e.failure_step, Some(3));
    assert_eq!(e.actions[0].verdict, None);
}

#[test]
fn required_reads_only_beyond_the_budget_are_budget_exhausted() {
    // Budget 4. Calls 0–3 read C1, C3, C4, C5 (decoys, within budget); calls
    // 4, 5 read C2 and P7 — beyond the budget, so they establish nothing. At
    // the refund (step 6) both unmet requirements were read only beyond the
    // budget → budget_exhausted.
    let t = T::new()
        .turn(&[charge("C1"), charge("C3"), charge("C4"), charge("C5")])
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.failure, Some(FailureType::BudgetExhausted));
    assert_eq!(e.failure_step, Some(6));
    assert_eq!(e.calls[4].within_budget, Some(false));
    assert!(e.requirements.iter().all(|r| r.read_beyond_budget));
    assert!(!e.investigation_complete);
    assert_eq!(e.normalized_effort, Some(3.0)); // 6 information calls / 2
}

#[test]
fn one_unmet_requirement_never_read_makes_it_early_action() {
    // As above, but P7 is never read: of the unmet {dup, pol}, pol was not
    // read beyond the budget either → not every unmet one → early_action.
    let t = T::new()
        .turn(&[charge("C1"), charge("C3"), charge("C4"), charge("C5")])
        .turn(&[charge("C2")])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))]);
    assert_eq!(
        score_one("v1-refund", &t).failure,
        Some(FailureType::EarlyAction)
    );
}

#[test]
fn investigating_and_stopping_in_v1_is_no_action() {
    // All evidence read, then a NO_ACTION terminal: nothing attempted in a
    // protocol that must act → no_action (an end-of-episode failure, no step).
    let t = T::new()
        .turn(&[charge("C2"), policy()])
        .say(json!({"type": "NO_ACTION", "outcome": "DEFER"}));
    let e = score_one("v1-refund", &t);
    assert_eq!(e.failure, Some(FailureType::NoAction));
    assert_eq!(e.failure_step, None);
}

#[test]
fn a_rejected_supported_call_leaves_the_action_missing_unless_retried() {
    // The supported refund is rejected by the environment and never retried:
    // a1 was never applied → missing_action.
    let t = T::new()
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(49.99, rejected())]);
    assert_eq!(
        score_one("v1-refund", &t).failure,
        Some(FailureType::MissingAction)
    );
    // Retried and applied: the rejection of a call that passed every check
    // may be retried, and a1 is still unapplied so the retry targets it → ECS 1.
    let t = T::new()
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(49.99, rejected())])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))]);
    let e = score_one("v1-refund", &t);
    assert_eq!(e.success, Some(true), "{:?}", e.failure_reason);
    assert_eq!(e.actions.len(), 2);
}

// ------------------------------------------------------- V2 / V3 verdicts

fn charge2() -> (&'static str, Value, Value) {
    charge("C2")
}

fn refund_v2(result: Value) -> (&'static str, Value, Value) {
    ("refund_issue", json!({"charge_id": "C2"}), result)
}

fn refund_read(id: &str) -> (&'static str, Value, Value) {
    (
        "refund_read",
        json!({"refund_id": id}),
        ok(json!({"refund_id": id, "state": "recorded"})),
    )
}

fn notify(id: &str) -> (&'static str, Value, Value) {
    (
        "customer_notify",
        json!({"refund_id": id, "account": "U1"}),
        applied(json!({"notice_id": "N1"})),
    )
}

#[test]
fn v2_linear_workflow_with_confirmation_succeeds() {
    // dup read (step 0); refund applied → R42 (step 1, result message 4);
    // refund_read R42 issued in message 5 > 4 confirms "done" (step 2);
    // notify with R42 (step 3): after a1 ✓, done ✓, account ✓, ref ✓ → ECS 1.
    let t = T::new()
        .turn(&[charge2()])
        .turn(&[refund_v2(applied(json!({"refund_id": "R42"})))])
        .turn(&[refund_read("R42")])
        .turn(&[notify("R42")]);
    let e = score_one("v2-refund", &t);
    assert_eq!(e.success, Some(true), "{:?}", e.failure_reason);
    let done = e.requirements[1].established.as_ref().unwrap();
    assert_eq!((done.step, done.via), (2, Via::Confirm));
    // Required reads: dup's read and done's confirming read; 2 information
    // calls → normalized effort 1.
    assert_eq!((e.required_reads, e.normalized_effort), (2, Some(1.0)));
    let r = &e.references[0];
    assert_eq!(
        (
            r.producer_action.as_str(),
            r.producer_step,
            r.consumer_step,
            r.argument.as_str(),
            r.resolved
        ),
        ("a1", Some(1), 3, "refund_id", true)
    );
}

#[test]
fn a_value_not_returned_by_the_referenced_action_is_unresolved_reference() {
    // Same as the success, but the notification carries R41, and refund_read
    // was of R42 so "done" holds: the only failing check is the reference →
    // unresolved_reference at step 3.
    let t = T::new()
        .turn(&[charge2()])
        .turn(&[refund_v2(applied(json!({"refund_id": "R42"})))])
        .turn(&[refund_read("R42")])
        .turn(&[notify("R41")]);
    let e = score_one("v2-refund", &t);
    assert_eq!(e.failure, Some(FailureType::UnresolvedReference));
    assert_eq!(e.failure_step, Some(3));
    assert_eq!(e.references[0].expected, Some(json!("R42")));
    assert_eq!(e.references[0].given, Some(json!("R41")));
}

#[test]
fn skipping_the_confirming_read_is_early_action() {
    // The refund result itself is not enough for "done": it demands a
    // confirming read. Notify right after the refund → early_action (step 2).
    let t = T::new()
        .turn(&[charge2()])
        .turn(&[refund_v2(applied(json!({"refund_id": "R42"})))])
        .turn(&[notify("R42")]);
    let e = score_one("v2-refund", &t);
    assert_eq!(e.failure, Some(FailureType::EarlyAction));
    assert_eq!(e.failure_step, Some(2));
}

#[test]
fn acting_before_a_predecessor_is_dependency_violation() {
    // Notify first (step 1): a1 not applied, so the after check fails first
    // (the requirement and the reference fail too, but come later in the
    // order) → dependency_violation at step 1.
    let t = T::new()
        .turn(&[charge2()])
        .turn(&[notify("R42")])
        .turn(&[refund_v2(applied(json!({"refund_id": "R42"})))]);
    let e = score_one("v2-refund", &t);
    assert_eq!(e.failure, Some(FailureType::DependencyViolation));
    assert_eq!(e.failure_step, Some(1));
    let failed: Vec<Check> = e.actions[0]
        .checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.check)
        .collect();
    assert_eq!(
        failed,
        vec![Check::After, Check::Requires, Check::References]
    );
}

#[test]
fn stopping_mid_workflow_is_missing_action() {
    // The refund is supported and applied, then the agent stops: a2 never
    // applied → missing_action.
    let t = T::new()
        .turn(&[charge2()])
        .turn(&[refund_v2(applied(json!({"refund_id": "R42"})))])
        .say(json!("done"));
    assert_eq!(
        score_one("v2-refund", &t).failure,
        Some(FailureType::MissingAction)
    );
}

fn v3_steps(order: &[&str]) -> T {
    let mut t = T::new().turn(&[(
        "rule_read",
        json!({"rule_id": "R1"}),
        ok(json!({"current": true})),
    )]);
    for a in order {
        let call = match *a {
            "a1" => (
                "submit",
                json!({"report": "Q2"}),
                applied(json!({"rid": "S1"})),
            ),
            "a2" => (
                "archive",
                json!({"rid": "S1"}),
                applied(json!({"arc": "AR1"})),
            ),
            "a3" => (
                "schedule",
                json!({"rid": "S1"}),
                applied(json!({"task": "TK1"})),
            ),
            _ => (
                "close",
                json!({"arc": "AR1", "task": "TK1"}),
                applied(json!({})),
            ),
        };
        t = t.turn(&[call]);
    }
    t
}

#[test]
fn v3_any_topological_order_succeeds_and_a_join_before_a_branch_fails() {
    // a1 → {a2, a3} → a4: both branch orders are consistent with the edges.
    for order in [["a1", "a2", "a3", "a4"], ["a1", "a3", "a2", "a4"]] {
        let e = score_one("v3-flow", &v3_steps(&order));
        assert_eq!(e.success, Some(true), "{order:?}: {:?}", e.failure_reason);
    }
    // The join before branch a3: its `after` a3 is unapplied →
    // dependency_violation at a4's step (3).
    let e = score_one("v3-flow", &v3_steps(&["a1", "a2", "a4", "a3"]));
    assert_eq!(e.failure, Some(FailureType::DependencyViolation));
    assert_eq!(e.failure_step, Some(3));
    // Two branch calls in one message: the second branch's result is not
    // observed before a4 only if a4 shares the message; here a2 and a3 share
    // message 5 and a4 comes after → fine (ECS 1).
    let t = T::new()
        .turn(&[("rule_read", json!({"rule_id": "R1"}), ok(json!({})))])
        .turn(&[(
            "submit",
            json!({"report": "Q2"}),
            applied(json!({"rid": "S1"})),
        )])
        .turn(&[
            (
                "archive",
                json!({"rid": "S1"}),
                applied(json!({"arc": "AR1"})),
            ),
            (
                "schedule",
                json!({"rid": "S1"}),
                applied(json!({"task": "TK1"})),
            ),
        ])
        .turn(&[(
            "close",
            json!({"arc": "AR1", "task": "TK1"}),
            applied(json!({})),
        )]);
    assert_eq!(score_one("v3-flow", &t).success, Some(true));
}

// ------------------------------------------------------ V0 and Legacy

fn sub() -> (&'static str, Value, Value) {
    (
        "subscription_read",
        json!({"subscription_id": "sub_447"}),
        ok(json!({"state": "active"})),
    )
}

fn cancel() -> (&'static str, Value, Value) {
    (
        "cancellation_search",
        json!({"subscription_id": "sub_447"}),
        ok(json!({"candidate_count": 0})),
    )
}

#[test]
fn v0_investigated_non_action() {
    // Both reads, no consequential call, BLOCK (lower case: labels compare
    // case-insensitively) → ECS 1.
    let t = T::new()
        .turn(&[sub(), cancel()])
        .say(json!({"type": "NO_ACTION", "outcome": "block"}));
    assert_eq!(score_one("v0-backdate", &t).success, Some(true));
    // The terminal as a JSON string is read the same way.
    let t = T::new()
        .turn(&[sub(), cancel()])
        .say(json!("{\"type\": \"NO_ACTION\", \"outcome\": \"BLOCK\"}"));
    assert_eq!(score_one("v0-backdate", &t).success, Some(true));
}

#[test]
fn v0_failures() {
    // Cancellation record never searched, terminal right → the V0 end check
    // finds "noproof" unestablished → incomplete_investigation.
    let t = T::new()
        .turn(&[sub()])
        .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}));
    assert_eq!(
        score_one("v0-backdate", &t).failure,
        Some(FailureType::IncompleteInvestigation)
    );
    // Everything read, outcome DEFER instead of BLOCK → wrong_terminal_label.
    let t = T::new()
        .turn(&[sub(), cancel()])
        .say(json!({"type": "NO_ACTION", "outcome": "DEFER"}));
    assert_eq!(
        score_one("v0-backdate", &t).failure,
        Some(FailureType::WrongTerminalLabel)
    );
    // Everything read, terminal is prose → missing terminal →
    // wrong_terminal_label (the agent's failure, not an input error).
    let t = T::new()
        .turn(&[sub(), cancel()])
        .say(json!("I would not refund this."));
    assert_eq!(
        score_one("v0-backdate", &t).failure,
        Some(FailureType::WrongTerminalLabel)
    );
    // Any consequential call in V0 (even a rejected one) → extra_action.
    let t = T::new()
        .turn(&[sub(), cancel()])
        .turn(&[("refund_issue", json!({}), rejected())])
        .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}));
    let e = score_one("v0-backdate", &t);
    assert_eq!(
        (e.failure, e.failure_step),
        (Some(FailureType::ExtraAction), Some(2))
    );
    // Budget 3: three decoy reads use it up; the cancellation search (call 4)
    // is beyond it. "noproof" is the only unmet requirement and was read
    // beyond the budget → budget_exhausted instead of incomplete_investigation.
    let decoy = |n: u32| {
        (
            "subscription_read",
            json!({"subscription_id": format!("sub_{n}")}),
            ok(json!({})),
        )
    };
    let t = T::new()
        .turn(&[decoy(1), decoy(2), sub()])
        .turn(&[cancel()])
        .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}));
    assert_eq!(
        score_one("v0-backdate", &t).failure,
        Some(FailureType::BudgetExhausted)
    );
}

#[test]
fn no_match_and_error_reads_establish_nothing() {
    // The cancellation search returns no_match: "noproof" is not established.
    let t = T::new()
        .turn(&[
            sub(),
            (
                "cancellation_search",
                json!({"subscription_id": "sub_447"}),
                json!({"status": "no_match"}),
            ),
        ])
        .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}));
    assert_eq!(
        score_one("v0-backdate", &t).failure,
        Some(FailureType::IncompleteInvestigation)
    );
}

#[test]
fn legacy_is_scored_by_its_decision_only() {
    let t = T::new().say(json!({"type": "DECISION", "decision": "Defer"}));
    assert_eq!(score_one("legacy-1", &t).success, Some(true));
    let t = T::new().say(json!({"type": "DECISION", "decision": "ALLOW"}));
    assert_eq!(
        score_one("legacy-1", &t).failure,
        Some(FailureType::WrongTerminalLabel)
    );
    let t = T::new();
    assert_eq!(
        score_one("legacy-1", &t).failure,
        Some(FailureType::WrongTerminalLabel)
    );
}

// ------------------------------------------------------------ errors

fn case_error(mutate: impl Fn(&mut Value)) -> String {
    let mut c = v2_case();
    mutate(&mut c);
    let text = format!("{}\n{}", v1_case(), c);
    evaluate(&text, "", &EvidenceSettings::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn malformed_specs_are_located() {
    let e = case_error(|c| c["actions"][1]["requires"] = json!(["done", "nope"]));
    assert_eq!(
        e,
        "case `v2-refund` (line 2), actions[1].requires[1]: unknown requirement id `nope` (requirements: dup, done)"
    );
    let e = case_error(|c| c["actions"][0]["after"] = json!(["a2"]));
    assert!(
        e.starts_with(
            "case `v2-refund` (line 2), actions[0].after: cyclic dependency: a1 → a2 → a1"
        ),
        "{e}"
    );
    let e = case_error(|c| c["actions"][1]["args"]["refund_id"] = json!({"ref": "a9.refund_id"}));
    assert_eq!(
        e,
        "case `v2-refund` (line 2), actions[1].args.refund_id: `ref` names action `a9`, which does not exist (actions: a1, a2)"
    );
    let e = case_error(|c| c["actions"][1]["args"]["refund_id"] = json!({"ref": "a1.refund_no"}));
    assert!(e.contains("actions[1].args.refund_id: `ref` names field `refund_no` of action `a1`, which returns no such field (its `returns`: refund_id)"), "{e}");
    let e = case_error(|c| c["actions"][1]["args"]["refund_id"] = json!({"ref": "a1"}));
    assert!(
        e.contains("`ref` `a1` is not of the form \"action.field\""),
        "{e}"
    );
    let e = case_error(|c| c["requirements"][1]["source"]["action"] = json!("a7"));
    assert!(
        e.contains("requirements[1].source: `ref` names action `a7`"),
        "{e}"
    );
    let e = case_error(|c| c["requirements"][0]["source"]["tool"] = json!("refund_issue"));
    assert!(e.contains("requirements[0].source.tool: `refund_issue` is not an information tool of the case (information tools: charge_read, policy_read, refund_read)"), "{e}");
    let e = case_error(|c| c["protocol"] = json!("V4"));
    assert!(e.contains("protocol: `V4` is not a protocol"), "{e}");
    let e = case_error(|c| c["requirments"] = json!([]));
    assert!(e.contains("(line 2): unknown field `requirments`"), "{e}");
    let e = case_error(|c| c["case_id"] = json!("v1-refund"));
    assert!(
        e.contains("case `v1-refund` (line 2), case_id: already used at line 1"),
        "{e}"
    );
    // A V2 case whose actions are not ordered is not linear.
    let e = case_error(|c| {
        c["actions"][1]["after"] = json!([]);
        c["actions"][1]["args"]["refund_id"] = json!("R42");
        c["actions"][1]["requires"] = json!([]);
    });
    assert!(
        e.contains("a V2 workflow is linear, but `a1` and `a2` may run in either order"),
        "{e}"
    );
    // JSON syntax.
    let e = evaluate("{\"case_id\": \n", "", &EvidenceSettings::default()).unwrap_err();
    assert!(matches!(e, EvidenceError::CaseJson { line: 2, .. }), "{e}");
}

#[test]
fn a_requirement_no_action_lists_is_warned_about() {
    let mut c = v1_case();
    c["requirements"].as_array_mut().unwrap().push(
        json!({"id": "extra", "fact": "unused", "source": {"tool": "policy_read", "args": {}}}),
    );
    let r = evaluate(&c.to_string(), "", &EvidenceSettings::default()).unwrap();
    // policy_read {} also matches every policy_read call, so one call can
    // satisfy two read specs (addendum §3's warning).
    assert_eq!(
        r.warnings,
        vec![
            "case `v1-refund`: requirement extra required by no action, so never checked",
            "case `v1-refund`: one `policy_read` call can satisfy two required reads (2 and 3), so a complete investigation may have effort below 1"
        ]
    );
}

#[test]
fn malformed_trajectories_are_located() {
    let bad = |t: &str| {
        evaluate(&cases(), t, &EvidenceSettings::default())
            .unwrap_err()
            .to_string()
    };
    let good = T::new().line("t1", "v1-refund", "A", 0);
    let e = bad(&format!(
        "{good}\n\n{}",
        T::new().line("t2", "nope", "A", 0)
    ));
    assert_eq!(
        e,
        "trajectory `t2` (line 3): case_id `nope` is not in the case file"
    );
    let e = bad(&format!(
        "{good}\n{}",
        T::new().line("t2", "v1-refund", "A", 0)
    ));
    assert_eq!(
        e,
        "trajectory `t2` (line 2): case `v1-refund`, config `A`, condition `baseline`, repetition 0 already scored on line 1"
    );
    let t = T::new().turn(&[(
        "charge_read",
        json!({"charge_id": "C2"}),
        json!({"status": "applied"}),
    )]);
    let e = bad(&t.line("t3", "v1-refund", "A", 0));
    assert_eq!(
        e,
        "trajectory `t3` (line 1): message 2 (result of call `c0`, information tool `charge_read`): status `applied`, expected ok, no_match, error"
    );
    let e = bad("{\"id\": \"x\", \"case_id\": \"v1-refund\", \"config\": \"A\"}");
    assert!(e.starts_with("trajectory file, line 1, column"), "{e}");
    assert!(e.contains("missing field `repetition`"), "{e}");
}

// ----------------------------------------------------------- statistics

#[test]
fn mcnemar_exact_by_hand() {
    // b = 1, c = 5: n = 6, P(X ≤ 1) = (1 + 6)/64; two-sided 14/64.
    assert!((mcnemar_exact(1, 5) - 14.0 / 64.0).abs() < 1e-15);
    // b = 0, c = 5: 2 · 1/32.
    assert!((mcnemar_exact(0, 5) - 0.0625).abs() < 1e-15);
    // b = 8, c = 2: n = 10, (1 + 10 + 45)/1024 · 2 = 112/1024.
    assert!((mcnemar_exact(8, 2) - 112.0 / 1024.0).abs() < 1e-14);
    // Balanced, or none discordant → 1.
    assert_eq!(mcnemar_exact(3, 3), 1.0);
    assert_eq!(mcnemar_exact(0, 0), 1.0);
    // Large n stays finite: b = 0, c = 2000 → 2 · 2^-2000 underflows to 0.
    assert_eq!(mcnemar_exact(0, 2000), 0.0);
    // b = 500, c = 500 → 1.
    assert_eq!(mcnemar_exact(500, 500), 1.0);
}

#[test]
fn paired_bootstrap_interval() {
    // Two cases, differences {0, 1}: a draw's mean is 0, ½ or 1 with
    // probabilities ¼, ½, ¼, so the 2.5th and 97.5th percentiles of 10,000
    // draws are 0 and 1.
    assert_eq!(
        bootstrap_mean_interval(&[0.0, 1.0], 10_000, 0),
        Some([0.0, 1.0])
    );
    // Three cases {0, 0, 1}: P(mean = 1) = 1/27 ≈ 3.7% > 2.5% → upper 1;
    // P(mean = 0) = 8/27 → lower 0.
    assert_eq!(
        bootstrap_mean_interval(&[0.0, 0.0, 1.0], 10_000, 7),
        Some([0.0, 1.0])
    );
    // Constant differences: the interval is the point.
    assert_eq!(bootstrap_mean_interval(&[0.5; 4], 100, 1), Some([0.5, 0.5]));
    assert_eq!(bootstrap_mean_interval(&[], 100, 1), None);
    assert_eq!(bootstrap_mean_interval(&[1.0], 0, 1), None);
    // Deterministic for a seed.
    let d = [0.0, 1.0, -1.0, 0.5, 0.0, 1.0];
    assert_eq!(
        bootstrap_mean_interval(&d, 500, 3),
        bootstrap_mean_interval(&d, 500, 3)
    );
}

#[test]
fn mean_and_sample_sd() {
    // {0.5, 0.7, 0.9}: mean 0.7, sd sqrt((0.04 + 0 + 0.04)/2) = 0.2.
    let m = MeanSd::of(&[Some(0.5), Some(0.7), None, Some(0.9)]);
    assert!((m.mean.unwrap() - 0.7).abs() < 1e-12);
    assert!((m.sd.unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(m.n, 3);
    let one = MeanSd::of(&[Some(1.0)]);
    assert_eq!((one.mean, one.sd, one.n), (Some(1.0), None, 1));
}

/// A tiny two-configuration, two-repetition run over the five hand cases,
/// with every table computed by hand below.
#[test]
fn report_tables_by_hand() {
    let win_v1 = || {
        T::new()
            .turn(&[charge("C2"), policy()])
            .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))])
    };
    let lose_v1 = || {
        T::new()
            .turn(&[charge("C1"), policy()])
            .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))])
    };
    let win_v0 = || {
        T::new()
            .turn(&[sub(), cancel()])
            .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}))
    };
    let lose_v0 = || {
        T::new()
            .turn(&[sub()])
            .say(json!({"type": "NO_ACTION", "outcome": "BLOCK"}))
    };
    let win_l = || T::new().say(json!({"type": "DECISION", "decision": "DEFER"}));
    let lose_l = || T::new().say(json!({"type": "DECISION", "decision": "ALLOW"}));
    // Config A: rep 0 wins V1, V0, Legacy; rep 1 wins V1, loses V0, Legacy.
    // Config B: rep 0 loses V1, wins V0, Legacy; rep 1: V1 an infrastructure
    // failure, wins V0, Legacy.
    let mut lines = vec![
        win_v1().line("A-v1-0", "v1-refund", "A", 0),
        win_v0().line("A-v0-0", "v0-backdate", "A", 0),
        win_l().line("A-l-0", "legacy-1", "A", 0),
        win_v1().line("A-v1-1", "v1-refund", "A", 1),
        lose_v0().line("A-v0-1", "v0-backdate", "A", 1),
        lose_l().line("A-l-1", "legacy-1", "A", 1),
        lose_v1().line("B-v1-0", "v1-refund", "B", 0),
        win_v0().line("B-v0-0", "v0-backdate", "B", 0),
        win_l().line("B-l-0", "legacy-1", "B", 0),
        win_v0().line("B-v0-1", "v0-backdate", "B", 1),
        win_l().line("B-l-1", "legacy-1", "B", 1),
    ];
    lines.push(
        json!({"id": "B-v1-1", "case_id": "v1-refund", "config": "B", "repetition": 1,
               "status": "infrastructure_failure", "messages": []})
        .to_string(),
    );
    let plan = RunPlan::single(
        vec!["v1-refund".into(), "v0-backdate".into(), "legacy-1".into()],
        vec!["A".into(), "B".into()],
        2,
    );
    let r = evaluate(
        &cases(),
        &lines.join("\n"),
        &EvidenceSettings {
            bootstrap: 1000,
            plan: Some(plan),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(r.protocols.len(), 3); // Legacy, V0, V1 (plan order of protocols)
                                      // Coverage: A 6/6; B 5/6 with one infrastructure failure; total 11/12.
    assert_eq!(
        (r.coverage[1].scored, r.coverage[1].infrastructure_failures),
        (5, 1)
    );
    assert!((r.coverage[2].coverage.unwrap() - 11.0 / 12.0).abs() < 1e-12);
    // ECS of A: rep 0 = 3/3 = 1; rep 1 = 1/3. Mean 2/3, SD sqrt(2·(1/3)²/1) = 0.4714.
    let a = &r.ecs[0];
    assert!((a.summary.overall.mean.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert!((a.summary.overall.sd.unwrap() - (2.0f64).sqrt() / 3.0).abs() < 1e-12);
    // P-M of A: rep 0: (1 + 1 + 1)/3 = 1; rep 1: (Legacy 0 + V0 0 + V1 1)/3 = 1/3.
    assert!((a.repetitions[1].protocol_macro.unwrap() - 1.0 / 3.0).abs() < 1e-12);
    // D-M of A, rep 1: customer_policy {V1 win, V0 loss} = 1/2, healthcare
    // {Legacy loss} = 0 → 1/4.
    assert!((a.repetitions[1].domain_macro.unwrap() - 0.25).abs() < 1e-12);
    // B, rep 1: V1 unscored, so V1 ECS is undefined, and so is P-M; overall
    // over the 2 scored runs = 1.
    let b = &r.ecs[1];
    assert_eq!(b.repetitions[1].by_protocol["V1"], None);
    assert_eq!(b.repetitions[1].protocol_macro, None);
    assert_eq!(b.repetitions[1].overall, Some(1.0));
    // B's V1 across repetitions: only rep 0 defined (0) → mean 0, sd undefined.
    assert_eq!(b.summary.by_protocol["V1"].mean, Some(0.0));
    assert_eq!(b.summary.by_protocol["V1"].sd, None);
    // Failure bars: B × V1 has one scored episode, an early_action.
    let bar = r
        .failures
        .iter()
        .find(|f| f.config == "B" && f.protocol == gapscope_evidence::Protocol::V1)
        .unwrap();
    let early = bar
        .segments
        .iter()
        .find(|s| s.failure == FailureType::EarlyAction)
        .unwrap();
    assert_eq!(
        (bar.scored, early.count, early.episode_ids.clone()),
        (1, 1, vec!["B-v1-0".to_string()])
    );
    // Effort, A × V0: rep 0 complete at 2/2 = 1; rep 1 incomplete (1/2).
    // Share with effort ≤ 1: rep 0 1/1, rep 1 0/1 → 0.5.
    let curve = r
        .effort
        .iter()
        .find(|c| c.config == "A" && c.protocol == gapscope_evidence::Protocol::V0)
        .unwrap();
    assert_eq!(curve.points, vec![[1.0, 0.5]]);
    // Paired A − B by protocol (addendum §6, rule P: B's infrastructure
    // failure counts 0): v1: A (1 + 1)/2 − B (0 + 0)/2 = 1; v0: A 1/2 − B 1
    // = −1/2; legacy: 1/2 − 1 = −1/2. The headline V0–V3 pairs v1 and v0
    // only (Legacy apart): Δ = (1 − 0.5)/2 = 0.25; McNemar pairs v1 r0 and
    // r1 A only, v0 r1 B only → b = 2, c = 1; D = (+2, −1), S = 1,
    // p = P(|±2 ± 1| ≥ 1) = 1.
    let p = &r.paired[0];
    assert_eq!((p.a.as_str(), p.b.as_str()), ("A", "B"));
    assert_eq!(p.rule, gapscope_evidence::pairs::Rule::AllPlanned);
    let rows: Vec<&str> = p.rows.iter().map(|r| r.row.as_str()).collect();
    assert_eq!(rows, vec!["V0", "V1", "V0–V3", "Legacy"]);
    let h = p.headline().unwrap();
    assert_eq!(h.row, "V0–V3");
    let d: std::collections::HashMap<&str, f64> = h
        .case_ids
        .iter()
        .map(String::as_str)
        .zip(h.paired.per_case.iter().map(|c| c.difference))
        .collect();
    assert_eq!(d.len(), 2);
    assert_eq!((d["v1-refund"], d["v0-backdate"]), (1.0, -0.5));
    assert!((h.paired.delta.unwrap() - 0.25).abs() < 1e-12);
    assert_eq!((h.paired.unscored_a, h.paired.unscored_b), (0, 1));
    let m = h.paired.mcnemar.as_ref().unwrap();
    assert_eq!((m.only_a, m.only_b, m.both_succeed), (2, 1, 1));
    assert_eq!((m.discordant_cases, m.s), (2, 1));
    assert_eq!(m.p_value, Some(1.0));
    let [lo, hi] = h.paired.interval.unwrap();
    assert!(lo >= -0.5 && hi <= 1.0 && lo < hi);
    // Legacy apart: −1/2, only B succeeds once.
    let l = &p.rows[3].paired;
    assert_eq!(l.delta, Some(-0.5));
    assert_eq!(
        l.mcnemar.as_ref().map(|m| (m.only_a, m.only_b)),
        Some((0, 1))
    );
    // Table 12 over the V0–V3 cases: rep 0 A 2/2, B (v1 0 + v0 1)/2 = 0.5 →
    // Δ_0 = 0.5; rep 1 A (1 + 0)/2, B (0 + 1)/2 → Δ_1 = 0. Mean 0.25 = Δ.
    let t = &p.per_repetition;
    let dr: Vec<Option<f64>> = t.repetitions.iter().map(|x| x.delta).collect();
    assert_eq!(dr, vec![Some(0.5), Some(0.0)]);
    assert!((t.delta.mean.unwrap() - 0.25).abs() < 1e-12);
    assert_eq!((t.positive, t.zero, t.consistent), (1, 1, false));
}
