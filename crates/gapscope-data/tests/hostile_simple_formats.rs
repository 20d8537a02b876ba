//! Hostile inputs for the τ-bench v1, SWE-agent, mini-swe-agent, Gemini CLI
//! and OpenHands readers: truncated files, wrong types, deep nesting, empty
//! files and lists, non-UTF-8 bytes, empty and huge ids, missing fields.
//! Each is a located `Err` or a skipped record, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::{detect, read_any_bytes, ReadOptions, TrajectoryFormat};

fn fixture(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read_to_string(&p).unwrap()
}

fn err(name: &str, text: &str) -> String {
    read_any_bytes(name, text.as_bytes(), &ReadOptions::default())
        .expect_err(text.get(..80).unwrap_or(text))
}

const FIXTURES: &[(&str, TrajectoryFormat)] = &[
    (
        "taubench_v1/docent_tb_airline_single.json",
        TrajectoryFormat::TauBenchV1,
    ),
    (
        "swe_agent/function_calling_simple.traj",
        TrajectoryFormat::SweAgent,
    ),
    (
        "swe_agent/mini-swe-agent-trajectory.json",
        TrajectoryFormat::MiniSweAgent,
    ),
    (
        "gemini_cli/gemini-cli-trajectory.json",
        TrajectoryFormat::GeminiCli,
    ),
    (
        "openhands/openhands_trajectory.json",
        TrajectoryFormat::OpenHandsEvents,
    ),
];

/// Every fixture cut at many places: an error with a line (or a skipped
/// record), never a panic and never a silent success of a whole file cut
/// inside its one record.
#[test]
fn truncated_files_are_located_errors() {
    for (rel, format) in FIXTURES {
        let text = fixture(rel);
        assert_eq!(detect(&text), Some(*format), "{rel}");
        let mut cuts: Vec<usize> = (1..20).map(|k| text.len() * k / 20).collect();
        cuts.push(text.len() - 2);
        for cut in cuts {
            let mut at = cut;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match read_any_bytes(rel, &text.as_bytes()[..at], &ReadOptions::default()) {
                Err(e) => assert!(
                    e.contains("line ") || e.contains("not a trajectory file"),
                    "{rel} cut at {at}: {e}"
                ),
                Ok(c) => panic!(
                    "{rel} cut at {at} read {} trajectories",
                    c.trajectories.len()
                ),
            }
        }
    }
}

#[test]
fn output_jsonl_cut_keeps_whole_lines() {
    let text = fixture("openhands/output_trimmed.jsonl");
    // Cut inside the third line: two lines read, the cut one skipped.
    let third = text.match_indices('\n').nth(1).unwrap().0 + 100;
    let c = read_any_bytes(
        "o.jsonl",
        &text.as_bytes()[..third],
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(c.trajectories.len(), 2);
    assert_eq!(c.skipped.len(), 1);
    assert_eq!(c.skipped[0].line, 3);
    assert!(
        c.skipped[0].message.starts_with("column "),
        "{}",
        c.skipped[0]
    );
}

#[test]
fn wrong_types_are_located() {
    // τ-bench: a bare record whose traj is not a list.
    let e = err(
        "r.json",
        r#"{"task_id": 1, "reward": 1, "info": {}, "traj": 5, "trial": 0}"#,
    );
    assert!(
        e.starts_with("line 1, column ") && e.contains("τ-bench record"),
        "{e}"
    );
    // A list whose every record is wrong: an error naming the first.
    let e = err(
        "r.json",
        r#"[{"task_id": "a", "traj": {}, "reward": 1}, {"task_id": 2, "traj": "x"}]"#,
    );
    assert!(
        e.contains("no record of the list could be read (2 skipped; first: record 0:"),
        "{e}"
    );
    // SWE-agent: history items without a role; tool_calls not a list.
    let e = err("x.traj", r#"{"history": [{"content": "c"}]}"#);
    assert!(
        e.starts_with("line 1, column ") && e.contains("`role`"),
        "{e}"
    );
    let e = err(
        "x.traj",
        r#"{"history": [{"role": "assistant", "tool_calls": 3}]}"#,
    );
    assert!(e.starts_with("line 1, column "), "{e}");
    // SWE-agent replay_config that is not JSON text.
    let e = err(
        "x.traj",
        r#"{"history": [{"role": "user", "content": "c"}], "replay_config": "{oops"}"#,
    );
    assert!(e.starts_with("replay_config: "), "{e}");
    // mini-swe-agent: messages not a list.
    let e = err(
        "m.json",
        r#"{"info": {}, "messages": {}, "trajectory_format": "mini-swe-agent-1"}"#,
    );
    assert!(e.starts_with("line 1, column "), "{e}");
    // Gemini: a tool call without an id.
    let e = err(
        "g.json",
        r#"{"sessionId": "s", "projectHash": "p", "messages": [{"type": "gemini", "toolCalls": [{"name": "x"}]}]}"#,
    );
    assert!(
        e.starts_with("line 1, column ") && e.contains("`id`"),
        "{e}"
    );
    // OpenHands events: an event whose `args` is a list.
    let e = err(
        "e.json",
        r#"[{"id": 0, "source": "agent", "action": "system", "args": [1]}]"#,
    );
    assert!(e.starts_with("event 0: "), "{e}");
    // OpenHands output: every line wrong.
    let e = err(
        "o.jsonl",
        "{\"instance_id\": \"a\", \"history\": 3}\n{\"instance_id\": \"b\", \"history\": [5]}\n",
    );
    assert!(
        e.starts_with("no line could be read (2 of 2 skipped; first: line 1: column "),
        "{e}"
    );
}

#[test]
fn empty_files_and_lists_are_errors() {
    assert!(err("e.json", "").contains("not a trajectory file"));
    assert_eq!(
        err(
            "e.json",
            r#"[{"task_id": 1, "traj": []}]"#.replace(r#"{"task_id": 1, "traj": []}"#, "").as_str()
        ),
        err("e.json", "[]")
    );
    let e = err("x.traj", r#"{"history": [], "trajectory": []}"#);
    assert!(e.contains("nothing to read"), "{e}");
    let e = err(
        "m.json",
        r#"{"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}"#,
    );
    assert!(e.contains("no messages"), "{e}");
    let e = err(
        "g.json",
        r#"{"sessionId": "s", "projectHash": "p", "messages": []}"#,
    );
    assert!(e.contains("no messages"), "{e}");
    let e = err(
        "e.json",
        r#"[{"id": 0, "source": "user", "action": "recall", "args": {}}]"#,
    );
    assert!(e.contains("none of the list's events is a message"), "{e}");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    for (name, text) in [
        (
            "r.json",
            format!(r#"{{"task_id": 1, "traj": [{{"role": "user", "content": {deep}}}]}}"#),
        ),
        (
            "x.traj",
            format!(r#"{{"history": [{{"role": "user", "content": {deep}}}]}}"#),
        ),
        (
            "g.json",
            format!(r#"{{"sessionId": "s", "messages": [{{"type": "user", "content": {deep}}}]}}"#),
        ),
        (
            "e.json",
            format!(
                r#"[{{"id": 0, "source": "agent", "action": "system", "args": {{"content": {deep}}}}}]"#
            ),
        ),
    ] {
        let e = err(name, &text);
        assert!(e.contains("recursion limit"), "{name}: {e}");
    }
    let line = format!(
        r#"{{"instance_id": "a", "history": [], "test_result": {{"final_score": {deep}}}}}"#
    );
    let e = err("o.jsonl", &line);
    assert!(
        e.contains("line 1: column") && e.contains("recursion limit"),
        "{e}"
    );
}

#[test]
fn non_utf8_is_located() {
    let mut bytes = fixture("gemini_cli/gemini-cli-trajectory.json").into_bytes();
    bytes[200] = 0xff;
    let e = read_any_bytes("g.json", &bytes, &ReadOptions::default()).unwrap_err();
    // python3: open(f, "rb").read()[:200].count(b"\n") + 1 → 5.
    assert!(
        e.starts_with("line 5: not UTF-8 text (invalid byte at offset 200)"),
        "{e}"
    );
}

#[test]
fn empty_and_huge_ids() {
    // A Gemini session id that is empty or over 4 KiB refuses the file.
    let session = |id: &str| {
        format!(
            r#"{{"sessionId": "{id}", "projectHash": "p", "messages": [{{"type": "user", "content": "hi"}}]}}"#
        )
    };
    assert!(err("g.json", &session("")).contains("the trajectory id is empty"));
    assert!(err("g.json", &session(&"s".repeat(5000))).contains("5000 bytes long"));
    // An OpenHands line with such an instance id is skipped at its line.
    let line = |id: &str| {
        format!(r#"{{"instance_id": "{id}", "history": [], "test_result": {{"resolved": true}}}}"#)
    };
    let text = [line(""), line(&"i".repeat(5000)), line("ok")].join("\n");
    let c = read_any_bytes("o.jsonl", text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert_eq!(c.trajectories[0].reward, Some(1.0));
    let skipped: Vec<u64> = c.skipped.iter().map(|s| s.line).collect();
    assert_eq!(skipped, [1, 2]);
    assert!(c.skipped[0].message.contains("empty"), "{}", c.skipped[0]);
    // A τ-bench task id of 5000 bytes refuses the file, naming the length.
    let e = err(
        "r.json",
        &format!(
            r#"{{"task_id": "{}", "traj": [], "reward": 1}}"#,
            "t".repeat(5000)
        ),
    );
    assert!(e.contains("task id is 5000 bytes long"), "{e}");
    // A SWE-agent instance id padded with spaces is the file's task id as
    // written; the trajectory id made of it is refused.
    let replay = serde_json::json!({"problem_statement": {"id": " x"}}).to_string();
    let text =
        serde_json::json!({"history": [{"role": "user", "content": "c"}], "replay_config": replay})
            .to_string();
    assert!(err("x.traj", &text).contains("padded with spaces"));
}

#[test]
fn missing_required_fields_are_named() {
    let e = err(
        "r.json",
        r#"{"reward": 1, "traj": [], "info": {}, "task_id": null}"#,
    );
    assert!(e.contains("line 1, column"), "{e}");
    let e = err(
        "g.json",
        r#"{"sessionId": "s", "messages": [{"content": "no type"}]}"#,
    );
    assert!(e.contains("`type`"), "{e}");
    let e = err(
        "o.jsonl",
        r#"{"instance_id": "a", "history": [{"kind": "MessageEvent", "llm_message": {"content": "x"}}]}"#,
    );
    assert!(e.contains("`role`"), "{e}");
    let e = err(
        "e.json",
        r#"[{"id": 1, "source": "agent", "action": "run", "tool_call_metadata": {"tool_call_id": "c"}}]"#,
    );
    assert!(
        e.starts_with("event 0: ") && e.contains("`function_name`"),
        "{e}"
    );
}
