//! Hostile inputs at the evidence scorer (issue 14; moved from the former
//! core crate's tests/hostile.rs, whose reader cases are in
//! crates/gapscope-data/tests/hostile.rs).

#![allow(clippy::unwrap_used, clippy::expect_used)]

// Evidence, runtime and synthetic sizes (issue 14): each ends in bounded time
// and memory with a located message, or is simply read. Inputs are generated
// here; nothing big is committed.

/// A V3 case of `n` actions `a0 … a{n-1}` of one tool; `edit(i)` gives action
/// i's extra fields.
fn big_case(n: usize, edit: impl Fn(usize) -> serde_json::Value) -> String {
    let actions: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut a = serde_json::json!({"id": format!("a{i}"), "tool": "do"});
            for (k, v) in edit(i).as_object().unwrap() {
                a[k] = v.clone();
            }
            a
        })
        .collect();
    serde_json::json!({"case_id": "big", "protocol": "V3", "domain": "d",
        "tools": {"consequential": [{"name": "do"}]}, "actions": actions, "terminal": "ACT"})
    .to_string()
}

fn evidence_error(cases: &str) -> String {
    use gapscope_evidence::{evaluate, EvidenceSettings};
    evaluate(cases, "", &EvidenceSettings::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_100000_action_dependency_chain_loads_and_a_cycle_is_named() {
    use gapscope_evidence::{evaluate, EvidenceSettings};
    const N: usize = 100_000;
    // A chain a_i after a_{i-1}: acyclic, loads (it overflowed the stack, and
    // the validation was quadratic before).
    let chain = big_case(N, |i| {
        if i == 0 {
            serde_json::json!({})
        } else {
            serde_json::json!({"after": [format!("a{}", i - 1)]})
        }
    });
    let r = evaluate(&chain, "", &EvidenceSettings::default()).unwrap();
    assert_eq!(r.cases[0].actions.len(), N);
    // The cycle a_i after a_{i+1 mod N}: refused with the actions involved.
    let cycle = big_case(
        N,
        |i| serde_json::json!({"after": [format!("a{}", (i + 1) % N)]}),
    );
    let e = evidence_error(&cycle);
    assert!(
        e.starts_with("case `big` (line 1), actions[0].after: cyclic dependency: a0 → a1 → a2 → "),
        "{}",
        &e[..e.len().min(300)]
    );
    assert!(
        e.contains(" → … (99961 more actions) … → a99981 → "),
        "{}",
        &e[..e.len().min(600)]
    );
    assert!(e.contains("a99999 → a0 (each action must wait"), "{e:.600}");
    assert!(e.ends_with("; 100000 actions in the cycle)"), "{e:.600}");
}

#[test]
fn a_100000_ref_chain_loads_in_linear_time() {
    use gapscope_evidence::{evaluate, EvidenceSettings};
    // a_i's argument refers to a_{i-1}.f (over 120 s before: every ref and
    // every id looked up by a scan of the actions).
    let refs = big_case(100_000, |i| {
        if i == 0 {
            serde_json::json!({"returns": ["f"]})
        } else {
            serde_json::json!({"args": {"x": {"ref": format!("a{}.f", i - 1)}}, "returns": ["f"]})
        }
    });
    let r = evaluate(&refs, "", &EvidenceSettings::default()).unwrap();
    assert_eq!(r.cases[0].actions.len(), 100_000);
    // A V2 chain too (the linearity check was cubic).
    let v2 = refs.replace(r#""protocol":"V3""#, r#""protocol":"V2""#);
    assert!(v2.contains(r#""protocol":"V2""#));
    evaluate(&v2, "", &EvidenceSettings::default()).unwrap();
    // An unknown id among many is named with a bounded list.
    let bad = big_case(
        100_000,
        |i| serde_json::json!({"after": [if i == 5 { "zz".to_string() } else { "a0".to_string() }]}),
    );
    let e = evidence_error(&bad);
    let first: Vec<String> = (0..20).map(|i| format!("a{i}")).collect();
    assert_eq!(
        e,
        format!(
            "case `big` (line 1), actions[5].after[0]: unknown action id `zz` (actions: {}, … and 99980 more)",
            first.join(", ")
        )
    );
}

#[test]
fn a_run_plan_with_huge_repetitions_is_refused_before_allocating() {
    use gapscope_evidence::RunPlan;
    // 4 × 10⁹ repetitions allocated 16 GB (then 208 GB of report rows).
    let e = RunPlan::parse(r#"{"cases": ["c"], "configs": ["A"], "repetitions": 4000000000}"#)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "run manifest: field `repetitions`: 4000000000 exceeds the limit of 10000 repetitions"
    );
    let configs: Vec<String> = (0..20).map(|i| format!("\"c{i}\"")).collect();
    let e = RunPlan::parse(&format!(
        r#"{{"cases": ["c"], "configs": [{}], "repetitions": 10000}}"#,
        configs.join(",")
    ))
    .unwrap_err()
    .to_string();
    assert_eq!(e, "run manifest: fields `configs` × `conditions` × field `repetitions`: 20 × 10000 = 200000 (side, repetition) rows exceed the limit of 100000");
}
