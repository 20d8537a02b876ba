//! Snapshots of the CLI on Claude Code sessions and Codex rollouts (issue
//! 16), with and without an outcomes CSV: the fixtures of
//! `crates/gapscope-data/tests/fixtures/{claude_code,codex}` (counts checked
//! independently in `crates/gapscope-data/tests/sessions.rs`). A separate
//! file from `snapshots_cli.rs` so that the readers of issue 16 add their
//! snapshots side by side.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use insta_cmd::assert_cmd_snapshot;

mod common;
use common::root;

const DIR: &str = "crates/gapscope-data/tests/fixtures";

/// The five session files, comma-separated, relative to the workspace root.
fn sessions() -> String {
    [
        "claude_code/simple_conversation.jsonl",
        "claude_code/tool_call_conversation.jsonl",
        "claude_code/made_subagent_session.jsonl",
        "codex/rollout-2026-08-01T10-00-00-0199aaaa-0000-7000-8000-000000000001.jsonl",
        "codex/rollout-2026-08-02T11-00-00-0199bbbb-0000-7000-8000-000000000042.jsonl",
    ]
    .map(|f| format!("{DIR}/{f}"))
    .join(",")
}

fn run(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    c.current_dir(root());
    c.args(args);
    c
}

/// Without outcomes: every session its own task, no reward (the warnings
/// say so), every task kept.
#[test]
fn profiles_sessions_without_outcomes() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--all-tasks",
        "--json",
        "--trajectories",
        &sessions(),
    ]));
}

/// With the outcomes CSV: t2 is the one task all three models attempted
/// (opus 1, sonnet 0, gpt-5.1-codex 0.5).
#[test]
fn profiles_sessions_with_outcomes() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--trajectories",
        &sessions(),
        "--outcomes",
        &format!("{DIR}/sessions-outcomes.csv"),
    ]));
}

/// A file given as outcomes that is not one is refused, named.
#[test]
fn outcomes_flag_refuses_a_trajectory_file() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--trajectories",
        &sessions(),
        "--outcomes",
        &format!("{DIR}/claude_code/simple_conversation.jsonl"),
    ]));
}
