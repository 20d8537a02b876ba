//! Cases written to the base spec alone (no `returns`; addendum §1): they
//! load, and a reference to a field the result lacks fails at scoring.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::score::Via;
use gapscope_evidence::{evaluate, Episode, EvidenceSettings, FailureType};
use serde_json::{json, Value};

mod common;
use common::*;

// ------------------------------------------- base-spec cases (no `returns`)

/// A V2 case written to ../shared/spec/evidence-to-action.md alone, which
/// never mentions `returns`: refund C2 (a1), then notify U1 with the refund id
/// a1 actually returned (a2). requirements[3] is the action-sourced "done",
/// confirmed by a read of the refund a1 returned.
const BASE_SPEC_CASE: &str = r#"{"case_id": "base-v2", "protocol": "V2", "domain": "customer_policy",
 "instruction": "Refund the duplicate charge C2 and tell customer U1 the refund id.",
 "read_budget": 6,
 "tools": {"information": [{"name": "charge_read", "parameters": ["charge_id"]},
                           {"name": "policy_read", "parameters": ["policy_id"]},
                           {"name": "customer_read", "parameters": ["customer_id"]},
                           {"name": "refund_read", "parameters": ["refund_id"]}],
           "consequential": [{"name": "refund_issue", "parameters": ["charge_id"]},
                             {"name": "customer_notify", "parameters": ["refund_id", "account"]}]},
 "requirements": [
   {"id": "dup", "fact": "C2 is a duplicate", "source": {"tool": "charge_read", "args": {"charge_id": "C2"}}},
   {"id": "pol", "fact": "P7 allows the refund", "source": {"tool": "policy_read", "args": {"policy_id": "P7"}}},
   {"id": "acct", "fact": "U1 is the account holder", "source": {"tool": "customer_read", "args": {"customer_id": "U1"}}},
   {"id": "done", "fact": "the refund is recorded",
    "source": {"action": "a1", "field": "refund_id",
               "confirm": {"tool": "refund_read", "args": {"refund_id": {"ref": "a1.refund_id"}}}}}],
 "actions": [
   {"id": "a1", "tool": "refund_issue", "args": {"charge_id": "C2"}, "requires": ["dup", "pol"]},
   {"id": "a2", "tool": "customer_notify", "args": {"refund_id": {"ref": "a1.refund_id"}, "account": "U1"},
    "requires": ["acct", "done"], "after": ["a1"]}],
 "terminal": "ACT"}"#;

/// The same workflow where a2 needs only the customer read, so a reference to
/// a field a1's result lacks is the only failing check.
const BASE_SPEC_REF_CASE: &str = r#"{"case_id": "base-v2-ref", "protocol": "V2", "domain": "customer_policy",
 "instruction": "Refund C2 and tell U1 the refund id.",
 "tools": {"information": [{"name": "customer_read"}],
           "consequential": [{"name": "refund_issue"}, {"name": "customer_notify"}]},
 "requirements": [{"id": "acct", "fact": "U1 is the account holder", "source": {"tool": "customer_read", "args": {"customer_id": "U1"}}}],
 "actions": [
   {"id": "a1", "tool": "refund_issue", "args": {"charge_id": "C2"}},
   {"id": "a2", "tool": "customer_notify", "args": {"refund_id": {"ref": "a1.refund_id"}}, "requires": ["acct"], "after": ["a1"]}],
 "terminal": "ACT"}"#;

fn base_spec_episodes(trajectories: &[String]) -> Vec<Episode> {
    let cases = format!(
        "{}\n{}",
        BASE_SPEC_CASE.replace('\n', ""),
        BASE_SPEC_REF_CASE.replace('\n', "")
    );
    let r = evaluate(
        &cases,
        &trajectories.join("\n"),
        &EvidenceSettings {
            bootstrap: 0,
            ..Default::default()
        },
    )
    .unwrap();
    r.episodes
}

fn read(tool: &'static str, key: &str, id: &str) -> (&'static str, Value, Value) {
    (tool, json!({ key: id }), ok(json!({ key: id })))
}

#[test]
fn a_case_written_to_the_base_spec_without_returns_is_scored() {
    // Addendum §1 "`returns` is optional": the case loads (a1 exists), and at
    // scoring the refs resolve to what a1 actually returned.
    let reads = [
        read("charge_read", "charge_id", "C2"),
        read("policy_read", "policy_id", "P7"),
        read("customer_read", "customer_id", "U1"),
    ];
    let refund = |result: Value| ("refund_issue", json!({"charge_id": "C2"}), applied(result));
    let notify = |id: &str| {
        (
            "customer_notify",
            json!({"refund_id": id, "account": "U1"}),
            applied(json!({"notice_id": "N1"})),
        )
    };
    // E1, by the spec: steps 0–2 the three reads (message 1, results 2–4);
    // step 3 the refund (message 5, R42 in message 6); step 4 the confirming
    // read of R42 (message 7, result 8); step 5 notify with R42: every check
    // passes → ECS 1; "done" established by the confirm at step 4, message 8.
    let good = T::new()
        .turn(&reads)
        .turn(&[refund(json!({"refund_id": "R42"}))])
        .turn(&[read("refund_read", "refund_id", "R42")])
        .turn(&[notify("R42")]);
    // E2: a1's applied result has no `refund_id`. The confirm's ref cannot
    // resolve, so the refund read matches no call and "done" (a field a1's
    // result lacks) is never established: a2 fails `requires` first →
    // early_action at step 5; its reference has expected null, unresolved.
    let lacking = T::new()
        .turn(&reads)
        .turn(&[refund(json!({"amount": 49.99}))])
        .turn(&[read("refund_read", "refund_id", "R42")])
        .turn(&[notify("R42")]);
    // E3 (the ref-only case): a1 returns no `refund_id`, a2 passes target,
    // after, requires and literals → unresolved_reference at step 2, with the
    // addendum's message.
    let ref_only = T::new()
        .turn(&[read("customer_read", "customer_id", "U1")])
        .turn(&[(
            "refund_issue",
            json!({"charge_id": "C2"}),
            applied(json!({"amount": 49.99})),
        )])
        .turn(&[(
            "customer_notify",
            json!({"refund_id": "R42"}),
            applied(json!({})),
        )]);
    let eps = base_spec_episodes(&[
        good.line("e1", "base-v2", "A", 0),
        lacking.line("e2", "base-v2", "B", 0),
        ref_only.line("e3", "base-v2-ref", "A", 0),
    ]);
    let e1 = &eps[0];
    assert_eq!((e1.success, e1.failure), (Some(true), None));
    let done = &e1.requirements[3];
    assert_eq!(done.id, "done");
    let est = done.established.as_ref().unwrap();
    assert_eq!((est.step, est.observed_at, est.via), (4, 8, Via::Confirm));
    assert_eq!(e1.references.len(), 1);
    assert_eq!(e1.references[0].expected, Some(json!("R42")));
    assert!(e1.references[0].resolved);

    let e2 = &eps[1];
    assert_eq!(e2.success, Some(false));
    assert_eq!(e2.failure, Some(FailureType::EarlyAction));
    assert_eq!(e2.failure_step, Some(5));
    assert!(e2.requirements[3].established.is_none());
    assert_eq!(e2.references[0].expected, None);
    assert!(!e2.references[0].resolved);

    let e3 = &eps[2];
    assert_eq!(e3.failure, Some(FailureType::UnresolvedReference));
    assert_eq!(e3.failure_step, Some(2));
    assert_eq!(e3.references[0].expected, None);
    assert_eq!(e3.references[0].given, Some(json!("R42")));
    assert!(!e3.references[0].resolved);
    assert_eq!(
        e3.failure_reason.as_deref(),
        Some(
            "step 2 (customer_notify): `refund_id` refers to a1.refund_id: a1 returned no field `refund_id`"
        )
    );
}

#[test]
fn a_present_returns_even_empty_keeps_the_load_time_check() {
    let case = BASE_SPEC_CASE.replace('\n', "").replace(
        r#""requires": ["dup", "pol"]}"#,
        r#""requires": ["dup", "pol"], "returns": []}"#,
    );
    let e = evaluate(&case, "", &EvidenceSettings::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "case `base-v2` (line 1), requirements[3].source: `ref` names field `refund_id` of action `a1`, which returns no such field (its `returns`: none)"
    );
}
