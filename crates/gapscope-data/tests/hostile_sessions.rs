//! Hostile Claude Code sessions, Codex rollouts and outcomes CSVs: each a
//! located error or a skipped line, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::formats::{claude_code, codex, read_any_bytes, ReadOptions};
use gapscope_data::ingest::{read_inputs, Messages, TrajectoryOptions};

const GOOD_CLAUDE: &str = include_str!("fixtures/claude_code/tool_call_conversation.jsonl");
const GOOD_CODEX: &str = include_str!(
    "fixtures/codex/rollout-2026-08-02T11-00-00-0199bbbb-0000-7000-8000-000000000042.jsonl"
);

fn claude(text: &str) -> Result<gapscope_data::formats::Corpus, String> {
    claude_code::read("s.jsonl", text, &ReadOptions::default())
}

fn codex_read(text: &str) -> Result<gapscope_data::formats::Corpus, String> {
    codex::read("rollout-x.jsonl", text, &ReadOptions::default())
}

fn skipped(c: &gapscope_data::formats::Corpus) -> Vec<String> {
    c.skipped.iter().map(ToString::to_string).collect()
}

fn user(session: &str, content: &serde_json::Value) -> String {
    serde_json::json!({"type": "user", "sessionId": session, "uuid": "u", "message": {"role": "user", "content": content}})
        .to_string()
}

#[test]
fn bad_claude_lines_are_skipped_at_their_line() {
    let good: Vec<&str> = GOOD_CLAUDE.lines().collect();
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let lines = [
        good[0].to_string(),
        good[1][..good[1].len() / 2].to_string(),               // 2: truncated
        user("test-session-002", &serde_json::json!(42)),       // 3: content a number
        serde_json::json!({"type": "assistant", "sessionId": "test-session-002", "message": {"content": [{"type": "tool_use", "name": "Read"}]}}).to_string(), // 4: no id
        user("", &serde_json::json!("hi")),                     // 5: empty session
        user(" pad", &serde_json::json!("hi")),                 // 6: padded
        user(&"s".repeat(5000), &serde_json::json!("hi")),      // 7: huge
        format!(r#"{{"type":"user","sessionId":"test-session-002","message":{{"content":{deep}}}}}"#), // 8: deep
        serde_json::json!({"type": "user", "message": {"content": "no session"}}).to_string(), // 9
        serde_json::json!({"type": "user", "sessionId": "test-session-002", "message": {"content": [{"type": "tool_result", "tool_use_id": ""}]}}).to_string(), // 10
        "[1, 2]".to_string(),                                   // 11: not an object
        good[2].to_string(),
        good[3].to_string(),
    ]
    .join("\n");
    let c = claude(&lines).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert_eq!(c.trajectories[0].messages.len(), 3, "lines 1, 12, 13");
    let s = skipped(&c);
    let lines_skipped: Vec<u64> = c.skipped.iter().map(|e| e.line).collect();
    assert_eq!(lines_skipped, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "{s:#?}");
    assert!(s[0].starts_with("line 2: column "), "{}", s[0]);
    assert_eq!(
        s[1],
        "line 3: message.content: expected a string or a list of content blocks, found a number"
    );
    assert_eq!(s[2], "line 4: message.content[0]: missing field `id`");
    assert_eq!(s[3], "line 5: the sessionId is empty");
    assert_eq!(s[4], "line 6: sessionId ` pad` is padded with spaces");
    assert_eq!(
        s[5],
        "line 7: the sessionId is 5000 bytes long; names are at most 4096 bytes (4 KiB)"
    );
    assert!(s[6].contains("recursion limit"), "{}", s[6]);
    assert_eq!(s[7], "line 9: a `user` line without `sessionId`");
    assert_eq!(
        s[8],
        "line 10: message.content[0]: the tool_use_id is empty"
    );
    assert_eq!(s[9], "line 11: expected a JSON object (one event a line)");
}

#[test]
fn claude_files_without_a_session_are_errors() {
    assert_eq!(
        claude("").unwrap_err(),
        "no session: no `user` or `assistant` line with a `sessionId` and a `message`"
    );
    assert_eq!(
        claude(r#"{"type":"summary","summary":"x","leafUuid":"u"}"#).unwrap_err(),
        "no session: no `user` or `assistant` line with a `sessionId` and a `message`"
    );
    assert_eq!(
        claude(r#"{"type":"user","sessionId":"s","message":{"content":"x"#).unwrap_err(),
        "no session could be read: 1 line(s) skipped (first: line 1: column 54: EOF while parsing a string)"
    );
    assert_eq!(
        claude(&user(
            "s",
            &serde_json::json!("<command-name>/clear</command-name>")
        ))
        .unwrap_err(),
        "no session has a message (every user and assistant line is slash-command chrome or empty)"
    );
    // No model: the file's name, said so.
    let c = claude(&user("s", &serde_json::json!("hello"))).unwrap();
    assert_eq!(c.trajectories[0].model, "s");
    assert!(c.warnings[0].contains("name no model"), "{:?}", c.warnings);
    // Not UTF-8, through the one reader.
    let mut bytes = GOOD_CLAUDE.as_bytes().to_vec();
    bytes.insert(40, 0xff);
    let e = read_any_bytes("s.jsonl", &bytes, &ReadOptions::default()).unwrap_err();
    assert!(
        e.starts_with("line 1: not UTF-8 text (invalid byte at offset 40)"),
        "{e}"
    );
}

#[test]
fn bad_codex_lines_are_skipped_at_their_line() {
    let good: Vec<&str> = GOOD_CODEX.lines().collect();
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let mut lines: Vec<String> = good.iter().map(ToString::to_string).collect();
    let bad = [
        good[4][..30].to_string(),
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}"}}"#.to_string(),
        r#"{"timestamp":"t","type":"turn_context","payload":{"model":7}}"#.to_string(),
        format!(r#"{{"timestamp":"t","type":"response_item","payload":{{"type":"message","role":"user","content":{deep}}}}}"#),
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"robot","content":[]}}"#.to_string(),
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":" c","output":"x"}}"#.to_string(),
        r#"{"type":"response_item"}"#.to_string(),
        r#"{"payload":{}}"#.to_string(),
    ];
    let at = lines.len();
    lines.extend(bad);
    let c = codex_read(&lines.join("\n")).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert_eq!(
        c.trajectories[0].messages.len(),
        12,
        "the good lines, as counted"
    );
    let s = skipped(&c);
    let first = at as u64 + 1;
    let lines_skipped: Vec<u64> = c.skipped.iter().map(|e| e.line).collect();
    assert_eq!(
        lines_skipped,
        (first..first + 8).collect::<Vec<_>>(),
        "{s:#?}"
    );
    assert!(s[0].contains(": column "), "{}", s[0]);
    assert_eq!(
        s[1],
        format!("line {}: payload: missing field `call_id`", first + 1)
    );
    assert_eq!(
        s[2],
        format!(
            "line {}: payload.model: expected a string (the model's name)",
            first + 2
        )
    );
    assert!(s[3].contains("recursion limit"), "{}", s[3]);
    assert_eq!(
        s[4],
        format!(
            "line {}: payload.role: `robot` is not user, assistant, developer or system",
            first + 4
        )
    );
    assert_eq!(
        s[5],
        format!(
            "line {}: payload.call_id: call_id ` c` is padded with spaces",
            first + 5
        )
    );
    assert!(s[6].contains("payload:"), "{}", s[6]);
    assert!(s[7].contains("missing field `type`"), "{}", s[7]);
}

#[test]
fn codex_files_without_messages_are_errors() {
    let meta = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"abc"}}"#;
    assert_eq!(
        codex_read(meta).unwrap_err(),
        "no message: no `response_item` line"
    );
    assert_eq!(
        codex_read("").unwrap_err(),
        "no message: no `response_item` line"
    );
    assert_eq!(
        codex_read(r#"{"timestamp":"t","type":"session_meta","payload":"x"}"#).unwrap_err(),
        "no message could be read: 1 line(s) skipped (first: line 1: payload: expected an object (the session's metadata))"
    );
    let huge = format!(
        r#"{{"timestamp":"t","type":"session_meta","payload":{{"id":"{}"}}}}"#,
        "i".repeat(5000)
    );
    let msg = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#;
    let c = codex_read(&format!("{huge}\n{msg}")).unwrap();
    assert_eq!(
        skipped(&c),
        ["line 1: payload.id: the thread id is 5000 bytes long; names are at most 4096 bytes (4 KiB)"]
    );
    // No `session_meta`: the id from the file's name, said so; no model either.
    let c = codex::read(
        "rollout-2026-01-01T00-00-00-0199cccc-0000-7000-8000-000000000009.jsonl",
        msg,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(c.trajectories[0].id, "0199cccc-0000-7000-8000-000000000009");
    assert!(c
        .warnings
        .iter()
        .any(|w| w.contains("taken from the file's name")));
    assert!(c.warnings.iter().any(|w| w.contains("names no model")));
}

fn with_outcomes(outcomes: &[u8]) -> Result<usize, String> {
    let files = vec![
        ("t.jsonl".to_string(), GOOD_CLAUDE.as_bytes().to_vec()),
        ("o.csv".to_string(), outcomes.to_vec()),
    ];
    read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts)
        .map(|i| i.corpus.trajectories.len())
        .map_err(|e| e.to_string())
}

#[test]
fn hostile_outcomes_csvs_are_located_errors() {
    let id = "test-session-002";
    assert_eq!(
        with_outcomes(format!("trajectory_id,task_id,reward\n{id},t,1\n").as_bytes()),
        Ok(1)
    );
    let cases: Vec<(String, String)> = vec![
        (
            "trajectory_id,task_id,reward,extra\nx,t,1,2\n".into(),
            "o.csv: line 1: the header is `trajectory_id,task_id,reward,extra`; expected the columns trajectory_id,task_id,reward (and optionally domain)".into(),
        ),
        (
            format!("trajectory_id,task_id,reward\n{id},t,1.5\n"),
            "o.csv: line 2, column `reward`: reward 1.5 is outside [0, 1]".into(),
        ),
        (
            format!("trajectory_id,task_id,reward\n{id},t,NaN\n"),
            "o.csv: line 2, column `reward`: reward NaN is outside [0, 1]".into(),
        ),
        (
            format!("trajectory_id,task_id,reward\n{id},t,1\n{id},u,0\n"),
            format!("o.csv: line 3: trajectory `{id}` already has an outcome on line 2"),
        ),
        (
            "trajectory_id,task_id,reward\nnobody,t,1\n".into(),
            "o.csv: line 2: no trajectory has the id `nobody`".into(),
        ),
        (
            "trajectory_id,task_id,reward\n".into(),
            "o.csv: the outcomes file has no rows (expected trajectory_id,task_id,reward lines after the header)".into(),
        ),
        (
            format!("trajectory_id,task_id,reward\n{id},t\n"),
            "o.csv: line 2: CSV error: record 1 (line: 2, byte: 29): found record with 2 fields, but the previous record has 3 fields".into(),
        ),
        (
            format!("trajectory_id,task_id,reward\n{id},{},1\n", "t".repeat(5000)),
            "o.csv: line 2, column `task_id`: the task id is 5000 bytes long; names are at most 4096 bytes (4 KiB)".into(),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(with_outcomes(text.as_bytes()), Err(want), "{text:?}");
    }
    // Not UTF-8: located, as any text input.
    let e = with_outcomes(b"trajectory_id,task_id,reward\nx\xff,t,1\n").unwrap_err();
    assert!(e.starts_with("o.csv: line 2: not UTF-8 text"), "{e}");
}
