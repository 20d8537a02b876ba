//! Addendum §0, §1, §8, §9 on hand-made logs: the optional fields' errors,
//! the open condition set, carried turns, per-id trace means, the restart
//! rate's interval and threshold, listing calls by code, exposure caps.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_runtime::metrics::{code_occurrences, ListingCount};
use gapscope_runtime::{analyze, read_jsonl, RuntimeSettings};
use serde_json::{json, Value};

const CAP: &str = "Tool call limit exceeded";

fn logged(index: u32, calls: Value, error: Option<&str>) -> Value {
    json!({"index": index, "logged": true, "code": "x = 1", "calls": calls, "error": error,
           "tokens_in": 10, "tokens_out": 1})
}

fn ep(id: &str, inst: &str, c: &str, intervention: Option<&str>, turns: Vec<Value>) -> Value {
    let mut e = json!({"episode_id": id, "task_family": "opaque_knapsack", "instance_id": inst,
        "train_runtime": &c[0..1], "deploy_runtime": &c[1..2], "cap": 2, "seed": 0,
        "rollout": 0, "base_model": "m", "score": 0.5, "termination": "finish", "turns": turns});
    if let Some(k) = intervention {
        e["intervention"] = json!(k);
    }
    e
}

/// The §1 example: P->S, cap 2: turn 0 logged with a cap hit; turn 1 not
/// logged (`call_error`); turns 2 and 3 logged with `NameError`.
fn example_turns() -> Vec<Value> {
    vec![
        logged(
            0,
            json!([{"tool": "list_items", "ok": true},
                   {"tool": "inspect", "args": "a", "ok": true},
                   {"tool": "inspect", "args": "b", "ok": false, "error": CAP}]),
            Some(CAP),
        ),
        json!({"index": 1, "logged": false, "failure": "call_error"}),
        logged(2, json!([]), Some("NameError: name 'order' is not defined")),
        logged(3, json!([]), Some("NameError: name 'table' is not defined")),
    ]
}

fn text(v: &[Value]) -> String {
    v.iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn section_1_example_carried_turns() {
    let log = text(&[
        ep("e1", "i1", "PS", None, example_turns()),
        ep("e2", "i1", "PS", Some("carry"), example_turns()),
    ]);
    let r = analyze(&log, &RuntimeSettings::default()).unwrap();
    assert_eq!(
        r.slices.len(),
        1,
        "the intervention is a condition, not a slice"
    );
    let s = &r.slices[0];
    assert_eq!(s.conditions, ["P->S", "P->S+carry"]);
    for (row, label) in s.trace.iter().zip(["P->S", "P->S+carry"]) {
        assert_eq!(
            (row.condition.label(), row.intervention.as_deref()),
            ("P->S", label.strip_prefix("P->S+")),
        );
        assert_eq!(row.name_error_turns.mean, Some(2.0), "{label}");
        assert_eq!(
            row.name_error_carried.mean,
            Some(1.0),
            "{label}: turn 2 only"
        );
        assert_eq!(row.carried_turns, 1);
        assert_eq!((row.restart.events, row.restart.restarts), (1, 0));
    }
    let e = &r.episodes[0];
    let carried: Vec<u32> = e
        .turns
        .iter()
        .filter(|t| t.carried)
        .map(|t| t.index)
        .collect();
    assert_eq!(carried, [2]);
    // The base 2×2 does not see the carry episode: Q_PS over e1 alone.
    let cell = &s.tables[0].cells[1];
    assert_eq!((cell.condition.label(), cell.q.n), ("P->S", 1));
    // The default contrast: P->S+carry vs P->S, one shared id.
    assert_eq!(s.contrasts.len(), 1);
    let c = &s.contrasts[0];
    assert_eq!(
        (c.a.as_str(), c.b.as_str(), c.cap),
        ("P->S+carry", "P->S", 2)
    );
    assert_eq!((c.contrast.value, c.contrast.n_shared), (Some(0.0), 1));
}

#[test]
fn unknown_contrast_label_is_an_error_that_names_it() {
    let log = text(&[ep("e1", "i1", "PS", None, example_turns())]);
    let settings = RuntimeSettings {
        contrasts: vec![["P->S+carry".into(), "P->S".into()]],
        ..RuntimeSettings::default()
    };
    let err = analyze(&log, &settings).unwrap_err().to_string();
    assert!(err.contains("`P->S+carry`"), "{err}");
}

#[test]
fn bad_optional_fields_are_located_errors() {
    let base = ep("e1", "i1", "PS", None, example_turns());
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v.to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        (
            with(&|v| v["intervention"] = json!("none")),
            "field `intervention`",
        ),
        (
            with(&|v| v["intervention"] = json!("Carry")),
            "field `intervention`",
        ),
        (with(&|v| v["turn_limit"] = json!(0)), "field `turn_limit`"),
        (with(&|v| v["turn_limit"] = json!(-3)), "field `turn_limit`"),
        (
            with(&|v| v["wall_clock_limit_s"] = json!(0)),
            "field `wall_clock_limit_s`",
        ),
        (
            with(&|v| v["context_window"] = json!(0)),
            "field `context_window`",
        ),
        (
            with(&|v| v["score_components"] = json!({"a": "x"})),
            "field `score_components.a`",
        ),
        (
            with(&|v| v["turns"][0]["failure"] = json!("call_error")),
            "field `turns[0].failure`",
        ),
        (
            with(&|v| v["turns"][1]["failure"] = json!("oops")),
            "field `turns[1].failure`",
        ),
        (
            with(&|v| v["turns"][0]["carried_in"] = json!(1)),
            "field `turns[0].carried_in`",
        ),
        (with(&|v| v["batch"] = json!(true)), "field `batch`"),
    ];
    for (line, field) in cases {
        let log = read_jsonl(&line);
        assert_eq!(log.episodes.len(), 0, "{line}");
        let msg = log.skipped[0].to_string();
        assert!(
            msg.starts_with("line 1: ") && msg.contains(field),
            "{field}: {msg}"
        );
    }
    // Good values read; batch as an integer is text.
    let good = with(&|v| {
        v["batch"] = json!(2);
        v["turn_limit"] = json!(80);
        v["wall_clock_limit_s"] = json!(4000);
        v["context_window"] = json!(40960);
        v["output_reservation"] = json!(8192);
        v["generator_warning"] = json!("fell back");
        v["score_components"] = json!({"progress": 0.5});
    });
    let log = read_jsonl(&good);
    assert_eq!(log.skipped.len(), 0, "{:?}", log.skipped);
    let e = &log.episodes[0];
    assert_eq!(e.batch.as_deref(), Some("2"));
    assert_eq!(e.horizon().unwrap().label(), "T_max=80, 4000 s");
}

#[test]
fn batch_and_horizon_join_the_slice_key() {
    let mut a = ep("e1", "i1", "PS", None, example_turns());
    let mut b = ep("e2", "i1", "PS", None, example_turns());
    a["batch"] = json!(1);
    b["batch"] = json!("2");
    let mut c = b.clone();
    c["episode_id"] = json!("e3");
    c["turn_limit"] = json!(80);
    c["wall_clock_limit_s"] = json!(4000);
    let r = analyze(&text(&[a, b, c]), &RuntimeSettings::default()).unwrap();
    let names: Vec<&str> = r.slices.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "opaque_knapsack · base model m · seed 0 · rollout 0 · batch 1",
            "opaque_knapsack · base model m · seed 0 · rollout 0 · batch 2",
            "opaque_knapsack · base model m · seed 0 · rollout 0 · batch 2 · T_max=80, 4000 s",
        ]
    );
}

/// Addendum §0 (replaces): when an id repeats within a cell, its episodes
/// are averaged first. Steps: id i1 has episodes with 3 and 1 logged turns,
/// id i2 one with 1: per id (3 + 1)/2 = 2 and 1 -> 1.5; the episode mean
/// would be 5/3.
#[test]
fn trace_means_average_each_id_first() {
    let one = |i: u32| logged(i, json!([]), None);
    let log = text(&[
        ep("e1", "i1", "PP", None, vec![one(0), one(1), one(2)]),
        ep("e2", "i1", "PP", None, vec![one(0)]),
        ep("e3", "i2", "PP", None, vec![one(0)]),
    ]);
    let r = analyze(&log, &RuntimeSettings::default()).unwrap();
    let row = &r.slices[0].trace[0];
    assert_eq!(row.steps.mean, Some(1.5));
    assert_eq!((row.steps.n, row.steps.ids), (3, 2));
    // The interval: per-id values 2 and 1, so every draw lies in [1, 2] and
    // with B = 10,000 both extremes occur (each has probability 1/4).
    assert_eq!(row.steps.ci95, Some([1.0, 2.0]));
}

#[test]
fn restart_rate_interval_and_too_few_events() {
    // Two ids: i1 restarts after its cap hit, i2 does not: rate 1/2 over
    // 2 events (< 20: too few), interval [0, 1] (each id alone is a draw).
    let hit = logged(0, json!([{"tool": "list_items", "ok": true}]), Some(CAP));
    let relist = logged(1, json!([{"tool": "list_items", "ok": true}]), None);
    let acquire = logged(
        1,
        json!([{"tool": "inspect", "args": "z", "ok": true}]),
        None,
    );
    let log = text(&[
        ep("e1", "i1", "PS", None, vec![hit.clone(), relist]),
        ep("e2", "i2", "PS", None, vec![hit, acquire]),
    ]);
    let r = analyze(&log, &RuntimeSettings::default()).unwrap();
    let rr = &r.slices[0].trace[0].restart;
    assert_eq!((rr.events, rr.restarts, rr.rate), (2, 1, Some(0.5)));
    assert!(rr.too_few_events);
    assert_eq!(rr.ci95, Some([0.0, 1.0]));
    let two = RuntimeSettings {
        min_events: 2,
        ..RuntimeSettings::default()
    };
    assert!(
        !analyze(&log, &two).unwrap().slices[0].trace[0]
            .restart
            .too_few_events
    );
}

#[test]
fn listing_calls_by_code_count_occurrences() {
    assert_eq!(
        code_occurrences("for i in range(3):\n    list_items()", "list_items"),
        1
    );
    assert_eq!(
        code_occurrences(
            "list_items () # list_items(x)\nmy_list_items()",
            "list_items"
        ),
        2
    );
    assert_eq!(
        code_occurrences("s = 'list_items('", "list_items"),
        1,
        "strings count"
    );
    assert_eq!(code_occurrences("list_items", "list_items"), 0);
    let mut t = logged(
        0,
        json!([{"tool": "list_items", "ok": true}, {"tool": "list_items", "ok": true},
               {"tool": "list_items", "ok": true}]),
        None,
    );
    t["code"] = json!("for _ in range(3):\n    list_items()");
    let log = text(&[ep("e1", "i1", "PP", None, vec![t])]);
    let calls = analyze(&log, &RuntimeSettings::default()).unwrap();
    let code = analyze(
        &log,
        &RuntimeSettings {
            listing_count: ListingCount::Code,
            ..RuntimeSettings::default()
        },
    )
    .unwrap();
    assert_eq!(calls.slices[0].trace[0].listing_calls.mean, Some(3.0));
    assert_eq!(
        code.slices[0].trace[0].listing_calls.mean,
        Some(1.0),
        "a loop counts once"
    );
}

#[test]
fn generator_warnings_counted_and_excluded_on_request() {
    let mut w = ep("e2", "i2", "PP", None, vec![logged(0, json!([]), None)]);
    w["generator_warning"] = json!("anti-collapse fell back");
    let log = text(&[
        ep("e1", "i1", "PP", None, vec![logged(0, json!([]), None)]),
        w,
    ]);
    let kept = analyze(&log, &RuntimeSettings::default()).unwrap();
    assert_eq!(kept.slices[0].trace[0].generator_warnings, 1);
    assert_eq!(kept.slices[0].tables[0].cells[0].q.n, 2);
    let dropped = analyze(
        &log,
        &RuntimeSettings {
            exclude_warned: true,
            ..RuntimeSettings::default()
        },
    )
    .unwrap();
    assert_eq!(dropped.slices[0].tables[0].cells[0].q.n, 1);
    assert!(dropped
        .warnings
        .iter()
        .any(|w| w.contains("1 episode(s) with a generator_warning")));
}

/// Addendum §8: under the verified score a control family (no verifier) is
/// left out of Q, named with its count; §9: exposure at a further cap ≤ the
/// slack cap is reported, above it is undefined and said.
#[test]
fn no_verifier_and_exposure_caps() {
    let mut nav = ep("n1", "g1", "PP", None, vec![logged(0, json!([]), None)]);
    nav["task_family"] = json!("navigation");
    let mut nav2 = nav.clone();
    nav2["episode_id"] = json!("n2");
    nav2["cap"] = json!(4);
    let log = text(&[nav, nav2]);
    let verified = RuntimeSettings {
        score: gapscope_runtime::ScoreSource::Verified,
        exposure_caps: vec![1, 9],
        ..RuntimeSettings::default()
    };
    let r = analyze(&log, &verified).unwrap();
    assert!(
        r.warnings.iter().any(|w| w == "no verifier for navigation: its 2 episode(s) are left out of Q under --score verified"),
        "{:?}",
        r.warnings
    );
    let s = &r.slices[0];
    let caps: Vec<u32> = s.exposure[0].by_cap.iter().map(|e| e.cap).collect();
    assert_eq!(caps, [1, 2, 4], "1 added, 9 above the slack cap 4 left out");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("exposure at cap(s) 9 is undefined")),
        "{:?}",
        s.warnings
    );
}
