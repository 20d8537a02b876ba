//! Claude Code sessions and Codex rollouts (`formats::claude_code`,
//! `formats::codex`) on their fixtures, and the outcomes CSV through the
//! ingestion. Every count here is from `tests/fixtures/count_sessions.py`
//! (which reads the JSON lines with Python's `json`, not gapscope) or
//! counted by hand from the fixture, as the comments say.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::formats::{detect, read_any_bytes, ReadOptions, TrajectoryFormat};
use gapscope_data::ingest::{read_inputs, Messages, TrajectoryOptions};
use gapscope_data::trajectory::Trajectory;

const SIMPLE: &str = include_str!("fixtures/claude_code/simple_conversation.jsonl");
const TOOLS: &str = include_str!("fixtures/claude_code/tool_call_conversation.jsonl");
const SUBAGENT: &str = include_str!("fixtures/claude_code/made_subagent_session.jsonl");
const CODEX_1: &str = include_str!(
    "fixtures/codex/rollout-2026-08-01T10-00-00-0199aaaa-0000-7000-8000-000000000001.jsonl"
);
const CODEX_42: &str = include_str!(
    "fixtures/codex/rollout-2026-08-02T11-00-00-0199bbbb-0000-7000-8000-000000000042.jsonl"
);
const OUTCOMES: &str = include_str!("fixtures/sessions-outcomes.csv");

fn one(name: &str, text: &str) -> Trajectory {
    let c = read_any_bytes(name, text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 1, "{name}");
    assert!(c.skipped.is_empty(), "{:?}", c.skipped);
    c.trajectories.into_iter().next().unwrap()
}

/// (messages, tool calls, tool results, tool results marked failed).
fn counts(t: &Trajectory) -> (usize, usize, usize, usize) {
    let s = t.message_stats();
    let results = t.messages.iter().filter(|m| m.role == "tool").count();
    (s.messages, s.tool_calls, results, s.tool_errors)
}

#[test]
fn the_files_are_detected() {
    for text in [SIMPLE, TOOLS, SUBAGENT] {
        assert_eq!(detect(text), Some(TrajectoryFormat::ClaudeCode));
    }
    for text in [CODEX_1, CODEX_42] {
        assert_eq!(detect(text), Some(TrajectoryFormat::Codex));
    }
}

#[test]
fn claude_code_sessions_read_as_counted() {
    // count_sessions.py: messages 4, tool calls 0 / 4, 1, 1 result, 0 errors.
    let t = one("simple_conversation.jsonl", SIMPLE);
    assert_eq!(
        (t.id.as_str(), t.task_id.as_str(), t.model.as_str()),
        (
            "test-session-001",
            "test-session-001",
            "claude-opus-4-5-20251101"
        )
    );
    assert_eq!((t.reward, t.domain.as_deref()), (None, None));
    assert_eq!(counts(&t), (4, 0, 0, 0));
    let roles: Vec<&str> = t.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant"]);

    let t = one("tool_call_conversation.jsonl", TOOLS);
    assert_eq!(counts(&t), (4, 1, 1, 0));
    // By hand: line 2 holds thinking, text and the tool_use `toolu_read_001`;
    // line 3 answers it.
    let call = &t.messages[1].tool_calls[0];
    assert_eq!(
        (call.id.as_deref(), call.name.as_str()),
        (Some("toolu_read_001"), "Read")
    );
    assert_eq!(call.arguments["file_path"], "/Users/test/project/README.md");
    assert_eq!(
        t.messages[2].tool_call_id.as_deref(),
        Some("toolu_read_001")
    );
    assert_eq!(
        t.messages[1].content,
        Some(serde_json::json!([
            {"type": "reasoning", "reasoning": "The user wants me to read the README file. I should use the Read tool."},
            {"type": "text", "text": "I'll read the README file for you."}
        ]))
    );
    // Tokens, by hand: input 200 + 250, output 50 + 40, cache 100 and 50.
    let tokens = t.details.iter().find(|d| d.label == "tokens").unwrap();
    assert_eq!(
        tokens.value,
        serde_json::json!({"input": 450, "output": 90, "cache_creation_input": 100, "cache_read_input": 50})
    );
    assert_eq!(
        t.source_id.as_deref(),
        Some("claude_code\u{1f}test-session-002")
    );
}

#[test]
fn a_subagent_is_summarized_on_its_session() {
    let c = read_any_bytes(
        "made_subagent_session.jsonl",
        SUBAGENT.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(c.trajectories.len(), 1);
    let t = &c.trajectories[0];
    // count_sessions.py: messages 8, tool calls 3, tool results 3, errors 0
    // on the main chain (the failed result is the subagent's).
    assert_eq!(counts(t), (8, 3, 3, 0));
    // The two `msg_A` lines are one reply: thinking, then the Task call.
    assert_eq!(t.messages[1].tool_calls[0].name, "Task");
    assert!(t.messages[1]
        .content
        .as_ref()
        .unwrap()
        .to_string()
        .contains("Delegate"));
    // `<synthetic>` is not the model; the sidechain's haiku is not either.
    assert_eq!(t.model, "claude-sonnet-4-5-20250929");
    let subs = t.details.iter().find(|d| d.label == "subagents").unwrap();
    // By hand: the sidechain is lines 5–8: 4 messages, 1 call, 1 failed result.
    assert_eq!(subs.value[0]["id"], "made-session-003/sidechain-1");
    assert_eq!(subs.value[0]["model"], "claude-haiku-4-5-20251001");
    assert_eq!(
        (
            &subs.value[0]["messages"],
            &subs.value[0]["tool_calls"],
            &subs.value[0]["tool_errors"]
        ),
        (
            &serde_json::json!(4),
            &serde_json::json!(1),
            &serde_json::json!(1)
        )
    );
    assert!(c
        .warnings
        .iter()
        .any(|w| w.contains("1 subagent conversation")));
    assert!(c.warnings.iter().any(|w| w.contains("outcomes CSV")));
    // Read alone (its session's lines taken out), the subagent is a trajectory.
    let alone: String = SUBAGENT
        .lines()
        .filter(|l| l.contains("\"isSidechain\":true"))
        .map(|l| format!("{l}\n"))
        .collect();
    let t = one("agent-x.jsonl", &alone);
    assert_eq!(t.id, "made-session-003/sidechain-1");
    assert_eq!(counts(&t), (4, 1, 1, 1));
    assert_eq!(t.messages[2].error, Some(true));
    assert!(t
        .details
        .iter()
        .any(|d| d.label == "subagent of" && d.value == "made-session-003"));
}

#[test]
fn codex_rollouts_read_as_counted() {
    // count_sessions.py: messages 3, tool calls 0.
    let t = one(
        "rollout-2026-08-01T10-00-00-0199aaaa-0000-7000-8000-000000000001.jsonl",
        CODEX_1,
    );
    assert_eq!(
        (t.id.as_str(), t.model.as_str()),
        ("0199aaaa-0000-7000-8000-000000000001", "gpt-5.1-codex")
    );
    assert_eq!(counts(&t), (3, 0, 0, 0));
    let roles: Vec<&str> = t.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["system", "user", "assistant"]);
    assert_eq!(
        t.messages[2].content,
        Some(serde_json::json!([
            {"type": "reasoning", "reasoning": "**Simple arithmetic**"},
            {"type": "text", "text": "2+2 = 4."}
        ]))
    );

    // count_sessions.py: messages 12, tool calls 4, tool results 3, errors 1.
    let t = one(
        "rollout-2026-08-02T11-00-00-0199bbbb-0000-7000-8000-000000000042.jsonl",
        CODEX_42,
    );
    assert_eq!(counts(&t), (12, 4, 3, 1));
    let ids: Vec<Option<&str>> = t
        .messages
        .iter()
        .map(|m| m.tool_call_id.as_deref())
        .collect();
    assert_eq!(
        ids.iter().flatten().copied().collect::<Vec<_>>(),
        ["call_a1", "call_a2", "call_a3"]
    );
    // By hand: call_a1 exits 1, call_a3 (older JSON output) exits 0.
    let errors: Vec<Option<bool>> = t
        .messages
        .iter()
        .filter(|m| m.role == "tool")
        .map(|m| m.error)
        .collect();
    assert_eq!(errors, [Some(true), None, Some(false)]);
    assert_eq!(t.messages[8].content, Some(serde_json::json!("1 passed")));
    // Arguments are the parsed JSON text.
    assert_eq!(
        t.messages[3].tool_calls[0].arguments["command"][0],
        "pytest"
    );
    let models = t.details.iter().find(|d| d.label == "models").unwrap();
    assert_eq!(
        models.value,
        serde_json::json!(["gpt-5.1-codex", "gpt-5.1-codex-mini"])
    );
    let tokens = t.details.iter().find(|d| d.label == "tokens").unwrap();
    assert_eq!(tokens.value["total_tokens"], 980);
}

fn all_files() -> Vec<(String, Vec<u8>)> {
    [
        ("simple_conversation.jsonl", SIMPLE),
        ("tool_call_conversation.jsonl", TOOLS),
        ("made_subagent_session.jsonl", SUBAGENT),
        ("rollout-1.jsonl", CODEX_1),
        ("rollout-42.jsonl", CODEX_42),
        ("outcomes.csv", OUTCOMES),
    ]
    .into_iter()
    .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
    .collect()
}

#[test]
fn an_outcomes_csv_supplies_task_and_reward() {
    let inputs = read_inputs(
        &all_files(),
        &TrajectoryOptions::default(),
        &Messages::Counts,
    )
    .unwrap();
    let by_id = |id: &str| {
        inputs
            .corpus
            .trajectories
            .iter()
            .find(|t| t.id == id)
            .unwrap()
    };
    // sessions-outcomes.csv, row by row.
    assert_eq!(
        (
            by_id("test-session-001").task_id.as_str(),
            by_id("test-session-001").reward
        ),
        ("t1", Some(1.0))
    );
    assert_eq!(
        (
            by_id("made-session-003").task_id.as_str(),
            by_id("made-session-003").reward
        ),
        ("t2", Some(0.0))
    );
    let t = by_id("0199bbbb-0000-7000-8000-000000000042");
    assert_eq!((t.task_id.as_str(), t.reward), ("t2", Some(0.5)));
    assert_eq!(inputs.outcome_files, ["outcomes.csv"]);
    assert!(
        inputs.notes.iter().any(|n| n == "outcomes.csv: 5 outcomes applied (task and reward); 0 of 5 trajectories now have no reward"),
        "{:?}",
        inputs.notes
    );
    // The operation profile: t2 is the one task all three models attempted
    // (opus: session-002 reward 1; sonnet: made-003, 0; gpt: rollout-42, 0.5).
    let p = gapscope_data::operations::operation_profile(
        &inputs.corpus.trajectories,
        &Default::default(),
    );
    assert_eq!(p.n_used, 3);
    let reward = |m: &str| p.reward[p.models.iter().position(|x| x == m).unwrap()];
    assert_eq!(reward("claude-opus-4-5-20251101"), Some(100.0));
    assert_eq!(reward("claude-sonnet-4-5-20250929"), Some(0.0));
    assert_eq!(reward("gpt-5.1-codex"), Some(50.0));
}

#[test]
fn an_outcomes_csv_alone_or_wrong_is_an_error_naming_it() {
    let files = vec![("o.csv".to_string(), OUTCOMES.as_bytes().to_vec())];
    let e = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap_err();
    assert_eq!(
        e.to_string(),
        "o.csv: an outcomes file needs the trajectories it scores: load them together"
    );
    let mut files = all_files();
    files[5].1 = b"trajectory_id,task_id,reward\ntest-session-001,t1,1\nnope,t1,1\n".to_vec();
    let e = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap_err();
    assert_eq!(
        e.to_string(),
        "outcomes.csv: line 3: no trajectory has the id `nope`"
    );
}
