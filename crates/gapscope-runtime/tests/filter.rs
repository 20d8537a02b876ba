//! The SFT trace validity filter (addendum §7) on hand-made logs read with
//! `read_jsonl`: the addendum's example, each rule failing alone and two
//! together, the edges of each rule, and the pair yield (by hand and against
//! a brute-force count on a seeded random log).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_runtime::difflib;
use gapscope_runtime::filter::{
    check_trace, filter, FilterError, FilterReport, FilterSettings, Rule, StepRef, Verdict,
};
use gapscope_runtime::{read_jsonl, Episode, Runtime};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const TOL: f64 = 1e-12;

/// Ten pairwise dissimilar action blocks (checked in `texts_are_dissimilar`).
const TEXTS: [&str; 10] = [
    "items = list_items()",
    "inspect('a1')",
    "best = max(vals, key=score)",
    "print(len(items))",
    "for x in items:\n    pass",
    "w = sum(weights) / 3",
    "take('a1'); take('b7')",
    "ratios = [v / w for v, w in pairs]",
    "finish(answer)",
    "import math as m",
];

fn turn(index: u32, code: &str) -> Value {
    json!({"index": index, "logged": true, "code": code, "calls": []})
}

fn with_call(mut t: Value, tool: &str, ok: bool, error: Option<&str>) -> Value {
    let mut c = json!({"tool": tool, "ok": ok});
    if let Some(e) = error {
        c["error"] = json!(e);
    }
    t["calls"].as_array_mut().unwrap().push(c);
    t
}

fn with_error(mut t: Value, error: &str) -> Value {
    t["error"] = json!(error);
    t
}

/// Ten dissimilar steps with `finish` called in s_9.
fn clean_turns() -> Vec<Value> {
    (0..10u32)
        .map(|i| {
            let t = turn(i, TEXTS[i as usize]);
            if i == 8 {
                with_call(t, "finish", true, None)
            } else {
                t
            }
        })
        .collect()
}

fn episode(id: &str, inst: &str, rt: &str, score: f64, turns: Vec<Value>) -> Value {
    json!({"episode_id": id, "task_family": "opaque_knapsack", "instance_id": inst,
           "train_runtime": rt, "deploy_runtime": rt, "cap": 4, "seed": 0, "rollout": 0,
           "base_model": "teacher", "score": score, "termination": "finish", "turns": turns})
}

fn read(lines: &[Value]) -> (Vec<Episode>, Vec<u64>) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let log = read_jsonl(&text);
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    (log.episodes, log.lines)
}

fn one(line: Value) -> Episode {
    read(&[line]).0.remove(0)
}

fn run(lines: &[Value]) -> FilterReport {
    let (eps, ls) = read(lines);
    let scores: Vec<Option<f64>> = eps.iter().map(|e| Some(e.score)).collect();
    filter(&eps, &ls, &scores, &FilterSettings::default()).unwrap()
}

fn verdict(turns: Vec<Value>, score: f64) -> Verdict {
    let e = one(episode("e", "i", "P", score, turns));
    check_trace(&e, Some(e.score), &FilterSettings::default()).0
}

fn invalid(rules: &[Rule]) -> Verdict {
    Verdict::Invalid {
        rules: rules.to_vec(),
    }
}

#[test]
fn texts_are_dissimilar() {
    for (j, tj) in TEXTS.iter().enumerate() {
        for tk in &TEXTS[..j] {
            assert!(difflib::ratio(tk, tj) <= 0.9, "{tk:?} vs {tj:?}");
        }
    }
}

/// Addendum §7's example: s_3 NameError is bad; s_6's cap message and s_7's
/// error naming its failed call's error are not: density 1/10 ≤ 0.1, valid.
#[test]
fn addendum_example() {
    let mut turns = clean_turns();
    turns[2] = with_error(turns[2].clone(), "NameError: name 'vals' is not defined");
    // The cap message alone excuses s_6 (its rejected call carries no error
    // text here).
    turns[5] = with_error(
        with_call(turns[5].clone(), "inspect", false, None),
        "ToolCallLimitExceeded: Tool call limit exceeded (4 calls per turn)",
    );
    turns[6] = with_error(
        with_call(turns[6].clone(), "inspect", false, Some("budget exhausted")),
        "ToolError: budget exhausted",
    );
    let e = one(episode("ex", "i1", "P", 0.6, turns));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, Verdict::Valid);
    assert_eq!(ev.n, 10);
    assert_eq!(ev.score, Some(0.6));
    assert_eq!(ev.last_finish, Some(StepRef { step: 9, turn: 8 }));
    assert!(!ev.finish_by_termination);
    assert_eq!(ev.first_loop, None);
    assert_eq!(ev.bad_steps, vec![StepRef { step: 3, turn: 2 }]);
    assert!((ev.bad_density.unwrap() - 0.1).abs() < TOL);
    assert!(ev.no_text_steps.is_empty());
}

#[test]
fn r1_alone() {
    assert_eq!(verdict(clean_turns(), 0.5), Verdict::Valid);
    assert_eq!(verdict(clean_turns(), 0.49), invalid(&[Rule::Score]));
    // No score (e.g. no verified score): R1 fails.
    let e = one(episode("e", "i", "P", 0.9, clean_turns()));
    let (v, ev) = check_trace(&e, None, &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::Score]));
    assert_eq!(ev.score, None);
}

#[test]
fn r2_window() {
    // finish in s_8 of 10 = s_{n-2}: passes; in s_7: fails alone.
    let mut turns: Vec<Value> = (0..10u32).map(|i| turn(i, TEXTS[i as usize])).collect();
    turns[7] = with_call(turns[7].clone(), "finish", true, None);
    assert_eq!(verdict(turns.clone(), 0.6), Verdict::Valid);
    let mut turns: Vec<Value> = (0..10u32).map(|i| turn(i, TEXTS[i as usize])).collect();
    turns[6] = with_call(turns[6].clone(), "finish", true, None);
    let e = one(episode("e", "i", "P", 0.6, turns));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::Finish]));
    assert_eq!(ev.last_finish, Some(StepRef { step: 7, turn: 6 }));
    // A one-step trace finishing in s_1: max(1, n - 2) = 1.
    let t = with_call(turn(0, "finish(1)"), "finish", true, None);
    assert_eq!(verdict(vec![t], 0.6), Verdict::Valid);
}

#[test]
fn r2_steps_are_logged_turns() {
    // Three failed model calls after the finish call are not steps: s_6 of
    // 8 is among the last three (of 11 turns it would not be).
    let mut turns: Vec<Value> = (0..8u32).map(|i| turn(i, TEXTS[i as usize])).collect();
    turns[5] = with_call(turns[5].clone(), "finish", true, None);
    for i in 8..11 {
        turns.push(json!({"index": i, "logged": false, "calls": []}));
    }
    let e = one(episode("e", "i", "P", 0.6, turns));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(ev.n, 8);
    assert_eq!(v, Verdict::Valid);
    assert_eq!(ev.last_finish, Some(StepRef { step: 6, turn: 5 }));
}

#[test]
fn r2_by_termination() {
    let turns: Vec<Value> = (0..5u32).map(|i| turn(i, TEXTS[i as usize])).collect();
    let e = one(episode("e", "i", "P", 0.6, turns.clone()));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, Verdict::Valid);
    assert!(ev.finish_by_termination);
    assert_eq!(ev.last_finish, None);
    let mut line = episode("e", "i", "P", 0.6, turns);
    line["termination"] = json!("turn_limit");
    let e = one(line);
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::Finish]));
    assert!(!ev.finish_by_termination);
}

#[test]
fn r3_loop_distance() {
    // print(table) then print(tables): ratio 24/25 = 0.96 > 0.9.
    let at = |d: usize| {
        let mut turns = clean_turns();
        turns[1] = turn(1, "print(table)");
        turns[1 + d] = turn(1 + d as u32, "print(tables)");
        turns
    };
    let e = one(episode("e", "i", "P", 0.6, at(4)));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::Loop]));
    let lp = ev.first_loop.unwrap();
    assert_eq!(lp.k, StepRef { step: 2, turn: 1 });
    assert_eq!(lp.j, StepRef { step: 6, turn: 5 });
    assert!((lp.ratio - 0.96).abs() < TOL);
    assert_eq!(verdict(at(5), 0.6), Verdict::Valid);
    // Exactly 0.9 is not a loop.
    let mut turns = clean_turns();
    turns[1] = turn(1, "inspect(3)");
    turns[2] = turn(2, "inspect(4)");
    assert_eq!(verdict(turns, 0.6), Verdict::Valid);
}

#[test]
fn r3_reads_completion_before_code() {
    let mut turns = clean_turns();
    turns[1] = turn(1, "print(table)");
    turns[2] = turn(2, "print(table)");
    // Same code, different assistant messages: no loop.
    turns[1]["completion"] = json!("Let me look at the table first.\nprint(table)");
    turns[2]["completion"] = json!("Now the weights: 3, 7, 11 — then decide.");
    assert_eq!(verdict(turns.clone(), 0.6), Verdict::Valid);
    // An empty completion is text (ratio 1.0 against another empty one).
    turns[1]["completion"] = json!("");
    turns[2]["completion"] = json!("");
    assert_eq!(verdict(turns, 0.6), invalid(&[Rule::Loop]));
}

#[test]
fn no_text() {
    let mut turns = clean_turns();
    turns[3] = json!({"index": 3, "logged": true, "calls": []});
    let e = one(episode("e", "i", "P", 0.6, turns));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::NoText]));
    assert_eq!(ev.no_text_steps, vec![StepRef { step: 4, turn: 3 }]);
}

#[test]
fn r4_alone_and_empty_errors() {
    let mut turns = clean_turns();
    turns[2] = with_error(turns[2].clone(), "NameError: x");
    turns[4] = with_error(turns[4].clone(), "ZeroDivisionError");
    // An empty error is not bad; a failed call without an error text does
    // not excuse its turn's error.
    turns[5] = with_error(turns[5].clone(), "");
    let e = one(episode("e", "i", "P", 0.6, turns.clone()));
    let (v, ev) = check_trace(&e, Some(0.6), &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::Errors]));
    assert!((ev.bad_density.unwrap() - 0.2).abs() < TOL);
    turns[4] = with_call(turns[4].clone(), "inspect", false, Some(""));
    assert_eq!(verdict(turns.clone(), 0.6), invalid(&[Rule::Errors]));
    // A --contract-error text excuses it.
    let e = one(episode("e", "i", "P", 0.6, turns));
    let settings = FilterSettings {
        contract_errors: vec!["ZeroDivision".into()],
        ..FilterSettings::default()
    };
    assert_eq!(check_trace(&e, Some(0.6), &settings).0, Verdict::Valid);
}

#[test]
fn two_rules_together_and_alone_counts() {
    let mut looped = clean_turns();
    looped[3] = turn(3, "print(table)");
    looped[4] = turn(4, "print(tables)");
    let lines = vec![
        episode("a", "i1", "P", 0.3, looped.clone()),
        episode("b", "i2", "P", 0.6, looped),
        episode("c", "i3", "P", 0.3, clean_turns()),
        episode("d", "i4", "P", 0.6, clean_turns()),
    ];
    let r = run(&lines);
    assert_eq!(r.traces[0].verdict, invalid(&[Rule::Score, Rule::Loop]));
    let p = &r.groups[0].runtimes[0];
    assert_eq!(p.runtime, Runtime::P);
    assert_eq!(p.traces, 4);
    assert_eq!((p.failures.score, p.failures.looping), (2, 2));
    assert_eq!((p.alone.score, p.alone.looping), (1, 1));
    assert_eq!(p.valid, 1);
    assert_eq!(r.groups[0].runtimes[1].traces, 0);
}

#[test]
fn no_steps_fail_r2_and_r4() {
    let none = one(episode("e", "i", "P", 0.6, vec![]));
    let (v, ev) = check_trace(&none, Some(0.6), &FilterSettings::default());
    assert_eq!(v, invalid(&[Rule::Finish, Rule::Errors]));
    assert_eq!((ev.n, ev.bad_density), (0, None));
    assert!(!ev.finish_by_termination);
    let unlogged = json!({"index": 0, "logged": false, "calls": []});
    let e = one(episode("e", "i", "P", 0.6, vec![unlogged]));
    assert_eq!(
        check_trace(&e, Some(0.6), &FilterSettings::default()).0,
        invalid(&[Rule::Finish, Rule::Errors])
    );
}

#[test]
fn pair_yield_by_hand() {
    let bad = 0.1;
    let ok = 0.6;
    let mut cross = episode("x", "i1", "P", ok, clean_turns());
    cross["deploy_runtime"] = json!("S");
    let mut other = episode("o", "i1", "P", ok, clean_turns());
    other["base_model"] = json!("other");
    let lines = vec![
        episode("1p", "i1", "P", ok, clean_turns()),
        episode("1s", "i1", "S", ok, clean_turns()),
        episode("2p", "i2", "P", ok, clean_turns()),
        episode("2s", "i2", "S", bad, clean_turns()),
        episode("3p", "i3", "P", ok, clean_turns()),
        episode("4p-a", "i4", "P", bad, clean_turns()),
        episode("4p-b", "i4", "P", ok, clean_turns()),
        episode("4s", "i4", "S", ok, clean_turns()),
        cross,
        other,
    ];
    let r = run(&lines);
    // i1, i2, i4 are candidates; i1 and i4 (one of its P traces valid) dual.
    assert_eq!(r.not_teacher, 1);
    assert_eq!(r.traces.len(), 9);
    assert_eq!(r.traces[8].line, 10);
    assert_eq!(r.groups.len(), 2);
    let g = &r.groups[1];
    assert_eq!(
        (g.task_family.as_str(), g.base_model.as_str()),
        ("opaque_knapsack", "teacher")
    );
    assert_eq!(g.pairs.candidates, 3);
    assert_eq!(g.pairs.dual_valid, 2);
    assert!((g.pairs.pair_yield.unwrap() - 2.0 / 3.0).abs() < TOL);
    assert_eq!(g.pairs.repeated_ids, 1);
    assert_eq!((g.runtimes[0].traces, g.runtimes[0].valid), (5, 4));
    assert_eq!((g.runtimes[1].traces, g.runtimes[1].valid), (3, 2));
    assert_eq!(r.groups[0].pairs.candidates, 0);
    assert_eq!(r.groups[0].pairs.pair_yield, None);
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    // The report round-trips through JSON.
    let back: FilterReport = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
}

/// Yield on a seeded random log against a count written differently: for
/// each id, scan the whole trace list once per runtime.
#[test]
fn pair_yield_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut lines = Vec::new();
    for n in 0..400 {
        let inst = format!("i{}", rng.random_range(0..120));
        let rt = if rng.random_bool(0.5) { "P" } else { "S" };
        let score = if rng.random_bool(0.6) { 0.8 } else { 0.2 };
        lines.push(episode(&format!("e{n}"), &inst, rt, score, clean_turns()));
    }
    let r = run(&lines);
    let (mut cand, mut dual) = (0, 0);
    for i in 0..120 {
        let id = format!("i{i}");
        let under = |rt: Runtime| {
            let ts: Vec<_> = r
                .traces
                .iter()
                .filter(|t| t.instance_id == id && t.runtime == rt)
                .collect();
            (
                !ts.is_empty(),
                ts.iter().any(|t| t.evidence.score >= Some(0.5)),
            )
        };
        let (p, s) = (under(Runtime::P), under(Runtime::S));
        if p.0 && s.0 {
            cand += 1;
            dual += usize::from(p.1 && s.1);
        }
    }
    let g = &r.groups[0].pairs;
    assert!(cand > 50, "the log has candidates ({cand})");
    assert_eq!((g.candidates, g.dual_valid), (cand, dual));
    assert!((g.pair_yield.unwrap() - dual as f64 / cand as f64).abs() < TOL);
}

#[test]
fn settings_are_validated() {
    let d = FilterSettings::default();
    assert_eq!(d.validate(), Ok(()));
    let bad = FilterSettings {
        loop_threshold: 1.5,
        ..d.clone()
    };
    assert!(matches!(
        bad.validate(),
        Err(FilterError::NotShare {
            field: "loop_threshold",
            ..
        })
    ));
    let bad = FilterSettings {
        min_score: f64::NAN,
        ..d.clone()
    };
    assert!(matches!(bad.validate(), Err(FilterError::NotFinite { .. })));
    let bad = FilterSettings {
        loop_window: 0,
        ..d.clone()
    };
    assert!(matches!(
        bad.validate(),
        Err(FilterError::ZeroWindow { .. })
    ));
    let bad = FilterSettings {
        contract_errors: vec![String::new()],
        ..d.clone()
    };
    assert!(matches!(bad.validate(), Err(FilterError::EmptyText { .. })));
    let (eps, lines) = read(&[episode("e", "i", "P", 0.6, clean_turns())]);
    assert!(matches!(
        filter(&eps, &lines, &[], &d),
        Err(FilterError::LengthMismatch {
            field: "scores",
            ..
        })
    ));
}
