//! Helpers of the addendum tests (addendum.rs, addendum_conditions.rs).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::report::ReadinessCurve;
use gapscope_evidence::{evaluate, Episode, EvidenceReport, EvidenceSettings, Protocol};
use serde_json::{json, Value};

use super::*;

// ---------------------------------------------------------------- helpers

pub const TOL: f64 = 1e-9;

pub fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < TOL
}

#[track_caller]
pub fn assert_close(x: Option<f64>, y: f64) {
    let v = x.unwrap_or_else(|| panic!("expected {y}, got None"));
    assert!(close(v, y), "expected {y}, got {v}");
}

pub fn jsonl(cases: &[Value]) -> String {
    cases
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A copy of `case` under another id.
pub fn renamed(case: Value, id: &str) -> Value {
    let mut c = case;
    c["case_id"] = json!(id);
    c
}

/// The base V1 refund case (common) under another id.
pub fn v1(id: &str) -> Value {
    renamed(v1_case(), id)
}

/// A scored trajectory line with an explicit condition.
pub fn line(t: &T, id: &str, case: &str, config: &str, condition: &str, rep: u32) -> String {
    let mut v: Value = serde_json::from_str(&t.line(id, case, config, rep)).unwrap();
    v["condition"] = json!(condition);
    v.to_string()
}

/// An infrastructure failure (unscored run).
pub fn infra(id: &str, case: &str, config: &str, condition: &str, rep: u32) -> String {
    json!({"id": id, "case_id": case, "config": config, "condition": condition,
           "repetition": rep, "status": "infrastructure_failure", "messages": []})
    .to_string()
}

pub fn settings(draws: usize) -> EvidenceSettings {
    EvidenceSettings {
        bootstrap: draws,
        ..Default::default()
    }
}

pub fn run(cases: &str, lines: &[String], draws: usize) -> EvidenceReport {
    evaluate(cases, &lines.join("\n"), &settings(draws)).unwrap()
}

pub fn episode<'r>(r: &'r EvidenceReport, id: &str) -> &'r Episode {
    r.episodes
        .iter()
        .find(|e| e.trajectory_id == id)
        .unwrap_or_else(|| panic!("no episode {id}"))
}

pub fn readiness<'r>(r: &'r EvidenceReport, side: &str, p: Protocol) -> &'r ReadinessCurve {
    r.readiness
        .iter()
        .find(|c| c.config == side && c.protocol == p)
        .unwrap_or_else(|| panic!("no readiness curve {side} {p:?}"))
}

/// The V1 refund, supported: C2 and P7 read, then the refund → ECS 1.
pub fn v1_success() -> T {
    T::new()
        .turn(&[charge("C2"), policy()])
        .turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))])
}

/// The V1 refund with nothing read before it → early_action.
pub fn v1_failure() -> T {
    T::new().turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))])
}

/// A decoy information call (counts as an information call, establishes
/// nothing the refund needs).
pub fn decoy() -> (&'static str, Value, Value) {
    charge("C9")
}

/// A V1 trajectory with `k` information calls before the refund (`None`:
/// never acts) and `calls` information calls in all.
pub fn v1_shaped(k: Option<usize>, calls: usize) -> T {
    let mut t = T::new();
    let Some(k) = k else {
        for _ in 0..calls {
            t = t.turn(&[decoy()]);
        }
        return t.say(json!({"type": "NO_ACTION", "outcome": "DEFER"}));
    };
    for _ in 0..k {
        t = t.turn(&[decoy()]);
    }
    t = t.turn(&[refund(49.99, applied(json!({"refund_id": "R42"})))]);
    for _ in k..calls {
        t = t.turn(&[decoy()]);
    }
    t
}

pub fn info(tool: &str, args: Value) -> (&str, Value, Value) {
    (tool, args, ok(json!({"found": true})))
}

pub fn four_v1() -> String {
    jsonl(&[v1("c1"), v1("c2"), v1("c3"), v1("c4")])
}

/// §9 A outcomes (rep 0, rep 1): A c1 11, c2 10, c3 01, c4 10;
/// B c1 00, c2 00, c3 00, c4 11.
pub fn example_a_lines(b_c4_r1_infra: bool) -> Vec<String> {
    let a = [[1, 1], [1, 0], [0, 1], [1, 0]];
    let b = [[0, 0], [0, 0], [0, 0], [1, 1]];
    let mut out = Vec::new();
    for (config, table) in [("A", a), ("B", b)] {
        for (k, reps) in table.iter().enumerate() {
            for (rep, &o) in reps.iter().enumerate() {
                let case = format!("c{}", k + 1);
                let id = format!("{config}-{case}-r{rep}");
                if config == "B" && k == 3 && rep == 1 && b_c4_r1_infra {
                    out.push(infra(&id, &case, config, "baseline", 1));
                    continue;
                }
                let t = if o == 1 { v1_success() } else { v1_failure() };
                out.push(line(&t, &id, &case, config, "baseline", rep as u32));
            }
        }
    }
    out
}

/// §9 B V1: dup and amt both read `charge_read {charge_id: C2}`, pol reads
/// `policy_read {P7}`, elig `eligibility_read {C2}`; a1 requires all four.
pub fn v1_four_requirements() -> Value {
    json!({
        "case_id": "b-v1", "protocol": "V1", "domain": "customer_policy",
        "instruction": "Refund the duplicate charge C2.", "read_budget": 5,
        "tools": {
            "information": [{"name": "charge_read"}, {"name": "policy_read"}, {"name": "eligibility_read"}],
            "consequential": [{"name": "refund_issue"}]
        },
        "requirements": [
            {"id": "dup", "fact": "C2 is a duplicate", "source": {"tool": "charge_read", "args": {"charge_id": "C2"}}},
            {"id": "amt", "fact": "C2 is 49.99", "source": {"tool": "charge_read", "args": {"charge_id": "C2"}}},
            {"id": "pol", "fact": "P7 allows it", "source": {"tool": "policy_read", "args": {"policy_id": "P7"}}},
            {"id": "elig", "fact": "C2 is eligible", "source": {"tool": "eligibility_read", "args": {"charge_id": "C2"}}}
        ],
        "actions": [{"id": "a1", "tool": "refund_issue", "args": {"charge_id": "C2", "amount": 49.99},
                     "requires": ["dup", "amt", "pol", "elig"]}],
        "terminal": "ACT"
    })
}
