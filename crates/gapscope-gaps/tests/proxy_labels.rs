//! Proxy operation labels (docs/proxy-labels.md): one hand-made τ²-bench-shaped
//! simulation per rule, with the expected labels reasoned in comments, then
//! the shared τ²-bench files against counts from an independent Python
//! implementation (bench/proxy_labels_ref.py).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::tau2::{self, read_results, Results};
use gapscope_data::formats::{read_any, Corpus};
use gapscope_data::labels::apply_label_csv;
use gapscope_data::operations::{operation_profile, ProfileOptions};
use gapscope_gaps::proxy_labels::{
    proxy_labels, to_csv, ProxyError, ProxyLabels, ProxyOptions, Rule, ToolRule,
};
use gapscope_gaps::task_groups::ToolOverrides;
use serde_json::{json, Value};

fn results(v: Value) -> Results {
    read_results(&v.to_string()).unwrap()
}

fn labels_of(r: &Results) -> ProxyLabels {
    let tools = ToolRule::new(&[r], ToolOverrides::default()).unwrap();
    proxy_labels(
        r,
        None,
        &ProxyOptions {
            file: "hand.json".into(),
            tools,
        },
    )
}

/// (requirement, label) of one operation, in row order (arguments in key
/// order: serde_json maps are sorted).
fn rows(l: &ProxyLabels, op: &str) -> Vec<(String, Option<f64>)> {
    l.rows
        .iter()
        .filter(|r| r.operation == op)
        .map(|r| (r.requirement.clone(), r.label))
        .collect()
}

fn why<'a>(l: &'a ProxyLabels, requirement: &str) -> &'a str {
    &l.rows
        .iter()
        .find(|r| r.requirement == requirement)
        .unwrap()
        .why
}

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"id": id, "name": name, "arguments": args, "requestor": "assistant"})
}

fn calls(c: Vec<Value>) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": c})
}

fn tool(id: &str, content: &str, error: bool) -> Value {
    json!({"role": "tool", "id": id, "content": content, "error": error, "requestor": "assistant"})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

fn one_sim(messages: Vec<Value>) -> Results {
    results(json!({"simulations": [{
        "id": "s1", "task_id": "1", "trial": 0, "termination_reason": "user_stop",
        "messages": messages}]}))
}

/// ST: values traced to a user message, a tool result (a value or an object
/// key) and the argument of an answered read; values without a digit are not
/// checked.
#[test]
fn provenance_from_user_result_and_read() {
    let r = one_sim(vec![
        json!({"role": "assistant", "content": "Hi! How can I help you today?"}),
        // 1
        user("I want to cancel order #W100. My user id is u_17."),
        calls(vec![call(
            "c1",
            "get_user_details",
            json!({"user_id": "u_17"}),
        )]),
        // 3: orders as values, payment methods as object keys.
        tool(
            "c1",
            r##"{"user_id": "u_17", "orders": ["#W100", "#W200"], "payment_methods": {"gift_card_7": {"balance": 5}}}"##,
            false,
        ),
        calls(vec![call(
            "c2",
            "get_order_details",
            json!({"order_id": "#W300"}),
        )]),
        // 5: the read of #W300 is answered without error (its result does not
        // repeat the id); it shows item i_2.
        tool("c2", r#"{"status": "pending", "items": ["i_2"]}"#, false),
        calls(vec![
            call(
                "c3",
                "cancel_pending_order",
                json!({"order_id": "#W100", "reason": "no longer needed",
                       "refund_to": "gift_card_7", "user_id": "u_17"}),
            ),
            call(
                "c4",
                "modify_order",
                json!({"order_id": "#W300", "items": ["i_1", "i_2"], "note": "x"}),
            ),
        ]),
        tool("c3", r#"{"status": "cancelled"}"#, false),
        tool("c4", r#"{"status": "modified"}"#, false),
    ]);
    let l = labels_of(&r);
    // Steps: c1 0, c2 1, c3 2, c4 3. `reason` and `note` hold no digit: no row.
    // c3: #W100 and u_17 are in user message 1 (whole tokens: a space before,
    // a full stop after); gift_card_7 is an object key of result 3. All 1.
    // c4: #W300 is the argument of the read answered in message 5 (1);
    // items: i_2 is in result 5, i_1 nowhere: 1 of 2, so 0.5.
    assert_eq!(
        rows(&l, "ST"),
        vec![
            ("0002 cancel_pending_order.order_id".into(), Some(1.0)),
            ("0002 cancel_pending_order.refund_to".into(), Some(1.0)),
            ("0002 cancel_pending_order.user_id".into(), Some(1.0)),
            ("0003 modify_order.items".into(), Some(0.5)),
            ("0003 modify_order.order_id".into(), Some(1.0)),
        ]
    );
    assert!(why(&l, "0002 cancel_pending_order.order_id").contains("`#W100`: user message 1"));
    assert!(why(&l, "0002 cancel_pending_order.refund_to")
        .contains("`gift_card_7`: result of get_user_details (step 0, message 3)"));
    assert!(why(&l, "0003 modify_order.order_id").contains(
        "`#W300`: argument of the read get_order_details (step 1), answered without error in message 5"
    ));
    assert!(why(&l, "0003 modify_order.items")
        .contains("items[0] = `i_1`: in no earlier user message, tool result or answered read"));
    let row = l.rows.iter().find(|r| r.operation == "ST").unwrap();
    assert_eq!(
        (row.rule, row.turn, row.trajectory_id.as_str()),
        (Rule::Provenance, Some(6), "s1")
    );
}

/// ST: value coincidences are not provenance. `card_4336` is in the agent's
/// own text, in an error message, inside longer strings of a tool result, and
/// in the call's own result: none of these grounds the call. A later call
/// with the same value is grounded by that earlier result.
#[test]
fn value_coincidence_is_not_provenance() {
    let r = one_sim(vec![
        user("Hello, please pay with my card."),
        // 1: the agent names the value itself, and reads card_1.
        json!({"role": "assistant", "content": "I will use card_4336.",
               "tool_calls": [call("c1", "get_payment", json!({"id": "card_1"}))]}),
        // 2: an error mentions the value (and the read of card_1 failed).
        tool("c1", "Error: card_4336 is not on file", true),
        calls(vec![call("c2", "get_user", json!({"user_id": "u1"}))]),
        // 4: the value only inside longer tokens (`_` before, `x` after).
        tool(
            "c2",
            r#"{"payment_methods": ["credit_card_4336"], "note": "card_4336x"}"#,
            false,
        ),
        calls(vec![call(
            "c3",
            "pay_order",
            json!({"payment_id": "card_4336"}),
        )]),
        // 6: the call's own result echoes it.
        tool("c3", r#"{"paid_with": "card_4336"}"#, false),
        calls(vec![call(
            "c4",
            "pay_order",
            json!({"payment_id": "card_4336", "backup": "card_1", "amount": 43.36}),
        )]),
        tool("c4", r#"{"paid_with": "card_4336"}"#, false),
    ]);
    let l = labels_of(&r);
    // c3 (step 2): 0. c4 (step 3): payment_id 1 (result of step 2, message
    // 6, observed before message 7); backup card_1 was only the argument of a
    // read that failed: 0. amount is a number: not checked.
    assert_eq!(
        rows(&l, "ST"),
        vec![
            ("0002 pay_order.payment_id".into(), Some(0.0)),
            ("0003 pay_order.backup".into(), Some(0.0)),
            ("0003 pay_order.payment_id".into(), Some(1.0)),
        ]
    );
    assert!(why(&l, "0003 pay_order.payment_id")
        .contains("`card_4336`: result of pay_order (step 2, message 6)"));
    assert!(why(&l, "0002 pay_order.payment_id")
        .starts_with("pay_order: 0 of 1 checkable values grounded before message 5."));
}

/// ST: ISO dates are also grounded by a user message naming them with a month
/// name; a year written after must agree. Unicode hyphens read as `-`.
#[test]
fn dates_named_by_the_user() {
    let r = one_sim(vec![
        user("Book HAT001 on May 26th, 2024 and come back on the 28th of May 2023; also June 3 and 2024\u{2011}07\u{2011}01."),
        calls(vec![call(
            "c1",
            "book_reservation",
            json!({"flights": [{"flight_number": "HAT001", "date": "2024-05-26"},
                               {"flight_number": "HAT002", "date": "2024-05-28"}],
                   "extra": "2024-06-03", "dashed": "2024-07-01"}),
        )]),
        tool("c1", "{}", false),
    ]);
    let l = labels_of(&r);
    // flights: HAT001 (token) and 2024-05-26 ("May 26th, 2024") grounded;
    // HAT002 nowhere; 2024-05-28 is "28th of May 2023" (year disagrees): 2 of
    // 4, 0.5. extra: "June 3" (no year given): 1. dashed: the user wrote it
    // with U+2011 hyphens: 1.
    assert_eq!(
        rows(&l, "ST"),
        vec![
            ("0000 book_reservation.dashed".into(), Some(1.0)),
            ("0000 book_reservation.extra".into(), Some(1.0)),
            ("0000 book_reservation.flights".into(), Some(0.5)),
        ]
    );
}

/// AS: gold actions by τ²-bench's rule (from the embedded task: no recorded
/// checks); state-changing calls that changed state and match no gold action
/// (a repeat of a matched one included) are 0; a failed call changed nothing.
#[test]
fn gold_actions_and_unmatched_state_changes() {
    let r = results(json!({
        "tasks": [{"id": "1", "evaluation_criteria": {"actions": [
            {"action_id": "1_0", "name": "get_user", "arguments": {"user_id": "u1"}},
            {"action_id": "1_1", "name": "cancel", "arguments": {"order_id": "#W1", "reason": "z"},
             "compare_args": ["order_id"]},
            {"action_id": "1_2", "name": "refund", "arguments": {"order_id": "#W9"}}]}}],
        "simulations": [{"id": "s1", "task_id": "1", "termination_reason": "user_stop", "messages": [
            user("u1 here, cancel #W1"),
            calls(vec![call("c0", "get_user", json!({"user_id": "u1"}))]),
            tool("c0", "{}", false),
            calls(vec![call("c1", "cancel", json!({"order_id": "#W1", "reason": "x"}))]),
            tool("c1", "{}", false),
            calls(vec![call("c2", "cancel", json!({"order_id": "#W1", "reason": "y"}))]),
            tool("c2", "{}", false),
            calls(vec![call("c3", "modify_address", json!({"user_id": "u1"}))]),
            tool("c3", "{}", false),
            calls(vec![call("c4", "cancel", json!({"order_id": "#W2"}))]),
            tool("c4", "Error: order not found", true)]}]}));
    let l = labels_of(&r);
    // get_user: the call's own key user_id equal: 1. cancel: compare_args
    // [order_id], #W1 equal (reason ignored): 1. refund: never called: 0.
    // Step 1 takes gold 1; step 2 matches only gold 1, already taken: a
    // repeat, 0. Step 3 modify_address matches nothing: 0. Step 4 failed:
    // no row. get_user is a read: never an unmatched row.
    assert_eq!(
        rows(&l, "AS"),
        vec![
            ("gold 00 get_user".into(), Some(1.0)),
            ("gold 01 cancel".into(), Some(1.0)),
            ("gold 02 refund".into(), Some(0.0)),
            ("unmatched 0002 cancel".into(), Some(0.0)),
            ("unmatched 0003 modify_address".into(), Some(0.0)),
        ]
    );
    assert!(why(&l, "unmatched 0002 cancel").contains("a repeat"));
    assert!(why(&l, "gold 02 refund").contains("matched by no call"));
    assert!(why(&l, "gold 01 cancel").contains("from task `1` of the embedded tasks"));
    assert_eq!(l.gold_sources.get("the embedded tasks"), Some(&1));
}

/// AS: recorded action checks are the gold (what τ²-bench checked). When a
/// file's recorded checks belong to other tasks than the task ids name, the
/// ids are not trusted: a simulation without checks gets no AS rows.
#[test]
fn gold_from_recorded_checks_and_unreliable_task_ids() {
    let sim = |id: &str, checks: Value| {
        json!({"id": id, "task_id": "1", "termination_reason": "user_stop",
               "reward_info": {"reward": 0.0, "action_checks": checks},
               "messages": [calls(vec![call("c0", "book", json!({"x": "a1"}))]), tool("c0", "{}", false)]})
    };
    let task1 = json!([{"id": "1", "evaluation_criteria": {"actions": [{"name": "book", "arguments": {"x": "a1"}}]}}]);
    // s1 records a check of `cancel` (task 1's gold is `book`); s2 has none.
    let r = results(json!({"tasks": task1, "simulations": [
        sim("s1", json!([{"action": {"name": "cancel", "arguments": {}}, "action_match": false}])),
        sim("s2", Value::Null)]}));
    let l = labels_of(&r);
    // s1: gold = the recorded `cancel` (not matched: 0); the book call
    // matches no gold: 0. s2: no AS rows.
    let s1: Vec<_> = l.rows.iter().filter(|r| r.operation == "AS").collect();
    assert_eq!(
        s1.iter()
            .map(|r| (r.trajectory_id.as_str(), r.requirement.as_str(), r.label))
            .collect::<Vec<_>>(),
        vec![
            ("s1", "gold 00 cancel", Some(0.0)),
            ("s1", "unmatched 0000 book", Some(0.0))
        ]
    );
    assert!(l.warnings[0].starts_with("1 of 1 simulations with recorded action checks were checked against gold actions that are not those of the task their task_id names"), "{:?}", l.warnings);
    assert_eq!(
        l.warnings[1],
        "1 simulation(s) get no AS labels: no recorded action checks, and this file's task ids do not name the tasks its recorded checks belong to"
    );
    // The same s2 alone: ids reliable, so task 1's gold applies (book
    // matched: 1; the call takes it: no unmatched row).
    let alone = results(json!({"tasks": task1, "simulations": [sim("s2", Value::Null)]}));
    assert_eq!(
        rows(&labels_of(&alone), "AS"),
        vec![("gold 00 book".to_string(), Some(1.0))]
    );
}

/// RC: each tool error, judged by the next call to that tool issued after the
/// error was seen.
#[test]
fn recovery_after_tool_errors() {
    let r = one_sim(vec![
        calls(vec![call("c0", "update", json!({"x": 1}))]),
        tool("c0", "Error: bad x", true),
        calls(vec![call("c1", "update", json!({"x": 1.0}))]),
        tool("c1", "Error: bad x", true),
        calls(vec![call("c2", "update", json!({"x": 2}))]),
        tool("c2", "Error: still bad", true),
        calls(vec![call("c3", "update", json!({"x": 3}))]),
        tool("c3", "{}", false),
        // 8: two lookups in one message; the first fails, the second was
        // issued before the error was seen.
        calls(vec![
            call("c4", "lookup", json!({"id": "1"})),
            call("c5", "lookup", json!({"id": "2"})),
        ]),
        tool("c4", "Error: no such id", true),
        tool("c5", "{}", false),
        calls(vec![call("c6", "lookup", json!({"id": "3"}))]),
        tool("c6", "{}", false),
        calls(vec![call("c7", "get_thing", json!({"id": "a"}))]),
        tool("c7", "Error: gone", true),
    ]);
    let l = labels_of(&r);
    // c0 → c1 repeats {x: 1} (1 equals 1.0): 0. c1 → c2 changes x, fails: 0.5.
    // c2 → c3 changes x, succeeds: 1. c4 (error in message 9) → c5 is in
    // message 8, before the error was seen; c6 (message 11) succeeds: 1. c7:
    // never called again: null.
    assert_eq!(
        rows(&l, "RC"),
        vec![
            ("0000 update".into(), Some(0.0)),
            ("0001 update".into(), Some(0.5)),
            ("0002 update".into(), Some(1.0)),
            ("0004 lookup".into(), Some(1.0)),
            ("0007 get_thing".into(), None),
        ]
    );
    assert!(
        why(&l, "0004 lookup").contains("step 6 (message 11) changes the arguments and succeeds")
    );
    assert!(why(&l, "0000 update").starts_with("update failed in message 1 (`Error: bad x`)"));
}

/// A trimmed file has no `error` flag: content starting with `Error` is an error.
#[test]
fn errors_without_the_flag() {
    let r = one_sim(vec![
        calls(vec![call("c0", "update", json!({"x": 1}))]),
        json!({"role": "tool", "id": "c0", "content": "Error: bad x"}),
        calls(vec![call("c1", "update", json!({"x": 2}))]),
        json!({"role": "tool", "id": "c1", "content": "{\"ok\": true}"}),
    ]);
    assert_eq!(
        rows(&labels_of(&r), "RC"),
        vec![("0000 update".to_string(), Some(1.0))]
    );
}

/// TM: the termination reason.
#[test]
fn termination_reasons() {
    let reasons = [
        ("user_stop", Some(1.0)),
        ("agent_stop", Some(1.0)),
        ("max_steps", Some(0.0)),
        ("too_many_errors", Some(0.0)),
        ("agent_error", Some(0.0)),
        ("context_window_exceeded", Some(0.0)),
        ("infrastructure_error", None),
        ("user_error", None),
        ("timeout", None),
    ];
    let sims: Vec<Value> = reasons
        .iter()
        .enumerate()
        .map(|(i, (r, _))| json!({"id": format!("s{i}"), "task_id": "1", "termination_reason": r, "messages": [user("hi")]}))
        .chain([json!({"id": "none", "task_id": "1", "messages": []})])
        .collect();
    let l = labels_of(&results(json!({"simulations": sims})));
    let got: Vec<Option<f64>> = l.rows.iter().map(|r| r.label).collect();
    let mut want: Vec<Option<f64>> = reasons.iter().map(|(_, l)| *l).collect();
    want.push(None);
    assert_eq!(got, want);
    assert_eq!(l.rows[0].turn, Some(0));
    assert_eq!(l.rows.last().unwrap().why, "no termination_reason recorded");
    assert_eq!(l.rows.last().unwrap().turn, None);
}

/// Tools are classed over every file given: a `tool_type` recorded in one
/// file wins over the name rule in another; overrides win over both.
#[test]
fn tool_classes_and_overrides() {
    let recorded = results(json!({"simulations": [{"task_id": "1", "messages": [],
        "reward_info": {"action_checks": [{"action": {"name": "transfer_to_human_agents", "arguments": {}},
                                           "action_match": true, "tool_type": "generic"}]}}]}));
    let r = results(
        json!({"tasks": [{"id": "1"}], "simulations": [{"id": "s", "task_id": "1", "messages": [
        calls(vec![call("c0", "transfer_to_human_agents", json!({"summary": "help"}))]),
        tool("c0", "Transfer successful", false)]}]}),
    );
    let opts = |tools| ProxyOptions {
        file: "f.json".into(),
        tools,
    };
    let alone = proxy_labels(
        &r,
        None,
        &opts(ToolRule::new(&[&r], Default::default()).unwrap()),
    );
    // By the name rule it changes state, and task 1 has no gold: unmatched 0.
    assert_eq!(
        rows(&alone, "AS"),
        vec![(
            "unmatched 0000 transfer_to_human_agents".to_string(),
            Some(0.0)
        )]
    );
    assert_eq!(alone.tools[0].why, "name rule: no read prefix");
    let both = proxy_labels(
        &r,
        None,
        &opts(ToolRule::new(&[&r, &recorded], Default::default()).unwrap()),
    );
    assert!(rows(&both, "AS").is_empty());
    assert_eq!(both.tools[0].why, "tool_type generic recorded");
    let forced = ToolRule::new(
        &[&r, &recorded],
        ToolOverrides {
            write: vec!["transfer_to_human_agents".into()],
            read: vec![],
        },
    )
    .unwrap();
    assert_eq!(rows(&proxy_labels(&r, None, &opts(forced)), "AS").len(), 1);
    let e = ToolRule::new(
        &[&r],
        ToolOverrides {
            write: vec!["x".into()],
            read: vec!["x".into()],
        },
    )
    .unwrap_err();
    assert_eq!(e, ProxyError::BothWays("x".into()));
    assert_eq!(
        e.to_string(),
        "tool `x` is given as both state-changing and read-only"
    );
}

/// The CSV applies to the same file read as trajectories; nulls survive.
#[test]
fn csv_applies_to_the_trajectories() {
    let r = results(json!({"simulations": [
        {"task_id": "1", "termination_reason": "timeout", "messages": [user("x")]},
        {"id": "b", "task_id": "2", "termination_reason": "user_stop", "messages": [
            user("order #W1"),
            calls(vec![call("c0", "cancel", json!({"order_id": "#W1", "other": "#W2"}))]),
            tool("c0", "{}", false)]}]}));
    let l = labels_of(&r);
    let csv = to_csv(std::slice::from_ref(&l));
    assert_eq!(
        csv,
        "trajectory_id,operation,requirement,label,turn,why\n\
         hand.json#0,TM,termination,null,0,termination_reason timeout: not attributable to the agent\n\
         b,ST,0000 cancel.order_id,1,1,cancel: 1 of 1 checkable values grounded before message 1. order_id = `#W1`: user message 0\n\
         b,ST,0000 cancel.other,0,1,\"cancel: 0 of 1 checkable values grounded before message 1. other = `#W2`: in no earlier user message, tool result or answered read\"\n\
         b,TM,termination,1,2,termination_reason user_stop: the conversation ended by a stop\n"
    );
    let mut corpus = Corpus {
        trajectories: tau2::to_trajectories(&r, "m", "hand.json"),
        ..Corpus::default()
    };
    assert_eq!(apply_label_csv(&mut corpus, &csv).unwrap(), 4);
    assert_eq!(corpus.trajectories[0].labels["TM"], vec![None]);
    assert_eq!(
        corpus.trajectories[1].labels["ST"],
        vec![Some(1.0), Some(0.0)]
    );
    assert_eq!(corpus.trajectories[1].labels["TM"], vec![Some(1.0)]);
    // Summary: ST 2 rows, mean 0.5, one eligible trajectory with mean 0.5.
    let st = &l.summary()[0];
    assert_eq!(
        (st.rows, st.labelled, st.mean_label, st.eligible, st.score),
        (2, 2, Some(0.5), 1, Some(50.0))
    );
    let tm = &l.summary()[3];
    assert_eq!((tm.rows, tm.labelled, tm.eligible), (2, 1, 1));
}

// ---- the shared τ²-bench files ------------------------------------------------

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tau2")
}

/// Per file, per operation ST, AS, RC, TM: the number of 0, 0.5, 1 and null
/// labels, from bench/proxy_labels_ref.py (an independent Python
/// implementation of the rules), all files together, tasks_tau3.json given
/// for the bare list. The Python script also matches every row exactly.
type Counts = [(usize, usize, usize, usize); 4];
const EXPECTED: [(&str, Counts); 13] = [
    (
        "airline/results/adaptive-agent-opus-4-6__airline_1trial_BARE_LIST.json",
        [(0, 0, 135, 0), (6, 0, 136, 0), (0, 1, 2, 0), (0, 0, 50, 0)],
    ),
    (
        "airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json",
        [(0, 0, 112, 0), (29, 0, 124, 0), (0, 0, 1, 0), (0, 0, 50, 0)],
    ),
    (
        "airline/results/gpt-4.1__llm_agent__airline_test20_1trial.json",
        [(0, 0, 63, 0), (36, 0, 36, 0), (0, 0, 1, 0), (0, 0, 20, 0)],
    ),
    (
        "airline/results/gpt-oss-120b__langchain-agent__airline_1trial.json",
        [(0, 0, 485, 0), (226, 0, 76, 0), (4, 3, 2, 7), (6, 0, 44, 0)],
    ),
    (
        "airline/results/toolorchestra__airline_1trial_trimmed.json",
        [(0, 0, 166, 0), (50, 0, 121, 0), (1, 1, 3, 1), (0, 0, 50, 0)],
    ),
    (
        "airline/results/whissle-voice__airline_1trial_tau3format.json",
        [(0, 0, 106, 0), (90, 0, 71, 0), (1, 4, 3, 4), (0, 0, 50, 0)],
    ),
    (
        "retail/results/gpt-4.1__llm_agent__retail_test40_1trial.json",
        [(1, 0, 181, 0), (27, 0, 164, 0), (0, 3, 3, 6), (0, 0, 40, 0)],
    ),
    (
        "telecom/results/gpt-4.1__llm_agent_solo__telecom_no-user_4trials_5tasks.json",
        [(0, 0, 24, 0), (40, 0, 36, 0), (0, 0, 0, 0), (0, 0, 20, 0)],
    ),
    (
        "airline/results/partial/ironforge-claude-sonnet-4-6__airline_7tasks.json",
        [(0, 0, 46, 0), (15, 0, 32, 0), (0, 0, 3, 0), (0, 0, 7, 0)],
    ),
    (
        "airline/results/partial/ironforge-deepseek-chat__airline_4tasks.json",
        [(0, 0, 9, 0), (9, 0, 5, 0), (0, 0, 0, 0), (0, 0, 4, 0)],
    ),
    (
        "airline/results/partial/ironforge-gpt-5.4__airline_7tasks.json",
        [(0, 0, 40, 0), (16, 0, 33, 0), (0, 0, 0, 0), (0, 0, 7, 0)],
    ),
    (
        "airline/results/partial/ironforge-grok-3__airline_8tasks.json",
        [(0, 0, 9, 0), (27, 0, 17, 0), (0, 0, 0, 0), (0, 0, 8, 0)],
    ),
    (
        "airline/results/partial/ironforge-o3__airline_9tasks.json",
        [(0, 0, 42, 0), (19, 0, 41, 0), (0, 0, 0, 0), (0, 0, 9, 0)],
    ),
];

#[test]
fn shared_files_label_as_the_reference_and_feed_profiles() {
    let texts: Vec<(String, String)> = EXPECTED
        .iter()
        .map(|(p, _)| {
            let path = data().join(p);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "{}: {e}. The tests need ../shared beside this clone.",
                    path.display()
                )
            });
            (p.to_string(), text)
        })
        .collect();
    let tau3 =
        tau2::read_tasks(&std::fs::read_to_string(data().join("airline/tasks_tau3.json")).unwrap())
            .unwrap();
    let parsed: Vec<Results> = texts
        .iter()
        .map(|(_, t)| read_results(t).unwrap())
        .collect();
    let refs: Vec<&Results> = parsed.iter().collect();
    let tools = ToolRule::new(&refs, ToolOverrides::default()).unwrap();
    let mut corpus = Corpus::default();
    let mut all = Vec::new();
    for (((name, text), r), (_, want)) in texts.iter().zip(&parsed).zip(&EXPECTED) {
        let l = proxy_labels(
            r,
            Some(&tau3),
            &ProxyOptions {
                file: name.clone(),
                tools: tools.clone(),
            },
        );
        for (k, op) in ["ST", "AS", "RC", "TM"].iter().enumerate() {
            let count = |v: Option<f64>| {
                l.rows
                    .iter()
                    .filter(|r| r.operation == *op && r.label == v)
                    .count()
            };
            assert_eq!(
                (
                    count(Some(0.0)),
                    count(Some(0.5)),
                    count(Some(1.0)),
                    count(None)
                ),
                want[k],
                "{name} {op}"
            );
        }
        // Gold rows from recorded checks agree with τ²-bench's recorded
        // verdicts (action_match), check by check.
        for (i, sim) in r.simulations.iter().enumerate() {
            let id = sim.id.clone().unwrap_or_else(|| format!("{name}#{i}"));
            for (gi, c) in sim.action_checks().iter().enumerate() {
                let req = format!("gold {gi:02} {}", c.action.name);
                let row = l
                    .rows
                    .iter()
                    .find(|x| x.trajectory_id == id && x.requirement == req)
                    .unwrap();
                assert_eq!(
                    row.label,
                    Some(if c.action_match { 1.0 } else { 0.0 }),
                    "{name} {id} {req}"
                );
            }
        }
        corpus
            .trajectories
            .extend(read_any(name, text, None).unwrap().trajectories);
        all.push(l);
    }
    // One label CSV for every file applies cleanly to the corpus.
    let csv = to_csv(&all);
    let n: usize = all.iter().map(|l| l.rows.len()).sum();
    assert_eq!(apply_label_csv(&mut corpus, &csv).unwrap(), n);
    // 3,320 rows: the sum of EXPECTED.
    assert_eq!(n, 3320);
    // Every model gets ST, AS and TM scores over all tasks; RC only where a
    // trajectory has a labelled tool error. GI, PL, PM stay absent.
    let p = operation_profile(
        &corpus.trajectories,
        &ProfileOptions {
            all_tasks: true,
            ..Default::default()
        },
    );
    assert_eq!(p.operations, vec!["ST", "AS", "RC", "TM"]);
    for (i, m) in p.models.iter().enumerate() {
        for k in [0, 1, 3] {
            assert!(p.scores[i][k].is_some(), "{m} {}", p.operations[k]);
        }
    }
    // gpt-oss-120b: TM = 44 stops of 50 = 88.
    let g = p
        .models
        .iter()
        .position(|m| m == "openai/gpt-oss-120b")
        .unwrap();
    assert!((p.scores[g][3].unwrap() - 88.0).abs() < 1e-9);
}
