//! CLI snapshots of the τ-bench v1, SWE-agent, mini-swe-agent, Gemini CLI
//! and OpenHands readers on their committed fixtures
//! (`crates/gapscope-data/tests/fixtures/`, ATTRIBUTION.md beside each):
//! `gapscope profiles --trajectories FILE`, whose standard error says what
//! the reader found (its warnings) and how many trajectories were read.
//! Kept apart from `snapshots_cli.rs` so the readers of issue 16 do not edit
//! one file. Review with `cargo insta review`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use insta_cmd::assert_cmd_snapshot;

mod common;
use common::root;

const FIXTURES: &str = "crates/gapscope-data/tests/fixtures";

fn profiles(rel: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    c.current_dir(root());
    c.arg("profiles");
    c.args(extra);
    c.args(["--trajectories", &format!("{FIXTURES}/{rel}")]);
    c
}

/// One bare record: airline from its policy, the model from the file name.
#[test]
fn profiles_taubench_v1_single_record() {
    assert_cmd_snapshot!(profiles("taubench_v1/docent_tb_airline_single.json", &[]));
}

/// A SWE-agent demonstration (no instance id, model or reward), named.
#[test]
fn profiles_swe_agent_traj_with_model() {
    assert_cmd_snapshot!(profiles(
        "swe_agent/function_calling_simple.traj",
        &["--model", "gpt-4o"]
    ));
}

#[test]
fn profiles_mini_swe_agent() {
    assert_cmd_snapshot!(profiles("swe_agent/mini-swe-agent-trajectory.json", &[]));
}

#[test]
fn profiles_gemini_cli_session() {
    assert_cmd_snapshot!(profiles("gemini_cli/gemini-cli-trajectory.json", &[]));
}

#[test]
fn profiles_openhands_event_list() {
    assert_cmd_snapshot!(profiles("openhands/openhands_trajectory.json", &[]));
}

/// Four lines: rewards 1 and 1 from final_score, two without (total 0;
/// test_result.error), so the mean of the two scored is 100.
#[test]
fn profiles_openhands_output_jsonl() {
    assert_cmd_snapshot!(profiles("openhands/output_trimmed.jsonl", &[]));
}
