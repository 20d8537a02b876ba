//! The readers of τ-bench v1 results, SWE-agent and mini-swe-agent
//! trajectories, Gemini CLI sessions and OpenHands event lists and
//! `output.jsonl`, on the real files in `tests/fixtures/` (ATTRIBUTION.md
//! beside each) and on small texts built here from the formats' own models.
//!
//! Every expected number was counted over the fixture by a short Python
//! script (`json.load` of the same file; the script is quoted in each test's
//! comment), not by running the reader.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::{detect, read_any_bytes, Corpus, ReadOptions, TrajectoryFormat};
use gapscope_data::trajectory::{Message, Trajectory};

fn fixture(rel: &str) -> (String, Vec<u8>) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    (
        rel.to_string(),
        std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
}

fn read(rel: &str) -> Corpus {
    let (name, bytes) = fixture(rel);
    read_any_bytes(&name, &bytes, &ReadOptions::default()).unwrap()
}

fn roles(t: &Trajectory) -> Vec<&str> {
    t.messages.iter().map(|m| m.role.as_str()).collect()
}

fn calls(t: &Trajectory) -> usize {
    t.messages.iter().map(|m| m.tool_calls.len()).sum()
}

/// Every tool result answers an earlier tool call by id.
fn results_answer_calls(t: &Trajectory) {
    let mut seen: Vec<&str> = Vec::new();
    for (k, m) in t.messages.iter().enumerate() {
        if m.role == "tool" {
            let id = m
                .tool_call_id
                .as_deref()
                .unwrap_or_else(|| panic!("message {k}: a tool result without an id"));
            assert!(
                seen.contains(&id),
                "message {k} answers `{id}`, which no earlier call made"
            );
        }
        seen.extend(m.tool_calls.iter().filter_map(|c| c.id.as_deref()));
    }
}

fn tool_results(t: &Trajectory) -> Vec<&Message> {
    t.messages.iter().filter(|m| m.role == "tool").collect()
}

// ------------------------------------------------------------ τ-bench v1

#[test]
fn taubench_v1_bare_record() {
    let (_, bytes) = fixture("taubench_v1/docent_tb_airline_single.json");
    assert_eq!(
        detect(std::str::from_utf8(&bytes).unwrap()),
        Some(TrajectoryFormat::TauBenchV1)
    );
    let c = read("taubench_v1/docent_tb_airline_single.json");
    assert_eq!(c.format, Some(TrajectoryFormat::TauBenchV1));
    assert_eq!(c.trajectories.len(), 1);
    let t = &c.trajectories[0];
    // python3: d = json.load(f); d["task_id"], d["trial"], d["reward"] → 0, 0, 0.0;
    // len(d["traj"]) → 42; sum(len(m["tool_calls"] or []) for m in d["traj"]) → 12;
    // sum(m["role"] == "tool" for m in d["traj"]) → 12.
    assert_eq!(t.task_id, "0");
    assert_eq!(t.trial, Some(0));
    assert_eq!(t.reward, Some(0.0));
    assert_eq!(t.messages.len(), 42);
    assert_eq!(calls(t), 12);
    assert_eq!(tool_results(t).len(), 12);
    results_answer_calls(t);
    // The policy in traj[0] starts "# Airline Agent Policy".
    assert_eq!(t.domain.as_deref(), Some("airline"));
    // info.task.actions: one book_reservation; the last book_reservation call
    // differs in origin, flights and payment_methods (python3: a dict
    // comparison of the two kwargs), so τ²-bench's rule does not match it.
    assert_eq!(t.gold_actions.len(), 1);
    assert_eq!(t.gold_actions[0].name, "book_reservation");
    assert!(!t.gold_actions[0].matched);
    // Arguments are objects in this file (docent), kept as such.
    assert_eq!(t.messages[4].tool_calls[0].name, "get_user_details");
    assert_eq!(
        t.messages[4].tool_calls[0].arguments,
        serde_json::json!({"user_id": "mia_li_3668"})
    );
    assert_eq!(t.model, "docent_tb_airline_single");
    assert!(
        c.warnings.iter().any(|w| w.contains("names no model")),
        "{:?}",
        c.warnings
    );
    assert!(
        !c.warnings.iter().any(|w| w.contains("domain")),
        "{:?}",
        c.warnings
    );
    assert!(t.details.iter().any(|d| d.label == "τ-bench reward info"));
}

/// A list as `tau_bench/run.py` writes it: a tool-calling record (arguments
/// as JSON text, the OpenAI form), a record of a run that raised, a retail
/// record, and a record that is not one (skipped with its index).
#[test]
fn taubench_v1_list_as_run_py_writes_it() {
    let call = |id: &str, name: &str, args: &str| serde_json::json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}});
    let text = serde_json::json!([
        {"task_id": 3, "reward": 1.0, "trial": 0, "info": {"task": {"user_id": "u", "instruction": "i", "outputs": [],
            "actions": [{"name": "cancel_reservation", "kwargs": {"reservation_id": "ABC"}},
                        {"name": "get_user_details", "kwargs": {"user_id": "u2"}}]}},
         "traj": [
            {"role": "system", "content": "# Airline Agent Policy\n\nrules"},
            {"role": "user", "content": "cancel ABC"},
            {"role": "assistant", "content": null, "tool_calls": [call("c1", "cancel_reservation", "{\"reservation_id\": \"ABC\"}")]},
            {"role": "tool", "tool_call_id": "c1", "name": "cancel_reservation", "content": "ok"},
            {"role": "assistant", "content": null, "tool_calls": [call("c2", "get_user_details", "{\"user_id\": \"u\"}")]},
            {"role": "tool", "tool_call_id": "c2", "name": "get_user_details", "content": "{}"}]},
        {"task_id": 4, "reward": 0.0, "trial": 1, "info": {"error": "RateLimitError", "traceback": "…"}, "traj": []},
        {"task_id": 5, "reward": 0.5, "trial": 0, "info": {}, "traj": [{"role": "system", "content": "# Retail agent policy\n"}]},
        {"task_id": [1], "reward": 1.0, "info": {}, "traj": [], "trial": 0}
    ])
    .to_string();
    let name = "results/tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm_0101120000.json";
    let c = read_any_bytes(name, text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 3);
    assert_eq!(c.skipped.len(), 1);
    assert!(
        c.skipped[0].message.starts_with("record 3:"),
        "{}",
        c.skipped[0]
    );
    let t = &c.trajectories[0];
    assert_eq!(
        (t.task_id.as_str(), t.domain.as_deref(), t.model.as_str()),
        ("3", Some("airline"), "gpt-4o")
    );
    // The text arguments are parsed; the first gold action is matched, the
    // second (user_id u2 against the call's u) is not.
    assert_eq!(
        t.messages[2].tool_calls[0].arguments,
        serde_json::json!({"reservation_id": "ABC"})
    );
    let matched: Vec<bool> = t.gold_actions.iter().map(|g| g.matched).collect();
    assert_eq!(matched, [true, false]);
    results_answer_calls(t);
    let e = &c.trajectories[1];
    assert_eq!(
        (e.task_id.as_str(), e.trial, e.reward),
        ("4", Some(1), Some(0.0))
    );
    assert_eq!(e.termination_reason.as_deref(), Some("error"));
    assert_eq!(e.domain, None);
    assert_eq!(c.trajectories[2].domain.as_deref(), Some("retail"));
    let w = c.warnings.join("\n");
    assert!(w.contains("`gpt-4o` is taken from the file name"), "{w}");
    assert!(w.contains("1 of 3 record(s) name no domain"), "{w}");
    assert!(
        w.contains("1 of 3 record(s) are runs that raised an error"),
        "{w}"
    );
    // --domain names the domain of the records that name none.
    let given = ReadOptions {
        domain: Some("airline".into()),
        ..ReadOptions::default()
    };
    let c = read_any_bytes(name, text.as_bytes(), &given).unwrap();
    assert_eq!(c.trajectories[1].domain.as_deref(), Some("airline"));
    assert_eq!(
        c.trajectories[2].domain.as_deref(),
        Some("retail"),
        "the file's own domain wins"
    );
}

// ------------------------------------------------------------ SWE-agent

#[test]
fn swe_agent_function_calling_traj() {
    let c = read("swe_agent/function_calling_simple.traj");
    assert_eq!(c.format, Some(TrajectoryFormat::SweAgent));
    let t = &c.trajectories[0];
    // python3: h = json.load(f)["history"]; len(h) → 12; roles → system,
    // user, then 5 × (assistant, tool); sum(len(x.get("tool_calls") or []))
    // → 5; the tool messages' tool_call_ids → 5 in all.
    assert_eq!(t.messages.len(), 12);
    assert_eq!(roles(t)[..4], ["system", "user", "assistant", "tool"]);
    assert_eq!(calls(t), 5);
    assert_eq!(tool_results(t).len(), 5);
    results_answer_calls(t);
    let first = &t.messages[2].tool_calls[0];
    assert_eq!(first.id.as_deref(), Some("call_PbWErNIge3YTrli3fiVvmIid"));
    assert_eq!(first.name, "find_file");
    assert_eq!(
        first.arguments,
        serde_json::json!({"file_name": "missing_colon.py"})
    );
    // The demonstration has only `history`: no instance id, model or reward.
    assert_eq!(t.task_id, "function_calling_simple");
    assert_eq!(t.model, "function_calling_simple");
    assert_eq!(t.reward, None);
    let w = c.warnings.join("\n");
    assert!(
        w.contains("names no instance id")
            && w.contains("names no model")
            && w.contains("has no reward"),
        "{w}"
    );
}

/// A 1.x file as `get_trajectory_data` writes it: `replay_config` is JSON
/// text naming the instance and the model; a 0.x file with only steps.
#[test]
fn swe_agent_replay_config_and_steps() {
    let replay = serde_json::json!({"problem_statement": {"id": "django__django-11099", "type": "swe_bench"},
        "agent": {"model": {"name": "gpt-4o"}}})
    .to_string();
    let text = serde_json::json!({
        "environment": "main",
        "replay_config": replay,
        "info": {"exit_status": "submitted", "submission": "diff --git a b", "model_stats": {"instance_cost": 0.5}},
        "trajectory": [],
        "history": [{"role": "system", "content": "s", "message_type": "system_prompt"},
                    {"role": "assistant", "content": [{"type": "text", "text": "look"}], "message_type": "action"}]
    })
    .to_string();
    let c = read_any_bytes(
        "x/django__django-11099.traj",
        text.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    let t = &c.trajectories[0];
    assert_eq!(
        (t.task_id.as_str(), t.model.as_str()),
        ("django__django-11099", "gpt-4o")
    );
    assert_eq!(t.termination_reason.as_deref(), Some("submitted"));
    assert_eq!(t.messages[1].content, Some(serde_json::json!("look")));
    assert!(
        !c.warnings
            .iter()
            .any(|w| w.contains("instance id") || w.contains("no model")),
        "{:?}",
        c.warnings
    );
    assert!(t.details.iter().any(|d| d.label == "submission"));

    let old = serde_json::json!({"environment": "swe_main", "info": {"exit_status": "early_exit"},
        "trajectory": [{"action": "ls", "observation": "a.py", "response": "I list.\n```ls```", "thought": "I list."},
                       {"action": "submit", "observation": "", "response": "", "thought": "done"}]})
    .to_string();
    let c = read_any_bytes(
        "astropy__astropy-1.traj",
        old.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    let t = &c.trajectories[0];
    assert_eq!(t.task_id, "astropy__astropy-1");
    assert_eq!(roles(t), ["assistant", "user", "assistant"]);
    assert_eq!(
        t.messages[2].content,
        Some(serde_json::json!("done\n\nsubmit"))
    );
}

#[test]
fn mini_swe_agent_trajectory() {
    let c = read("swe_agent/mini-swe-agent-trajectory.json");
    assert_eq!(c.format, Some(TrajectoryFormat::MiniSweAgent));
    let t = &c.trajectories[0];
    // python3: d = json.load(f); len(d["messages"]) → 8 (system, then user
    // and assistant turns, the last user message ""); d["info"]["exit_status"]
    // → "Submitted"; d["info"]["config"]["model"]["model_name"] →
    // "anthropic/claude-3-5-sonnet-20241022"; no `instance_id`.
    assert_eq!(
        roles(t),
        [
            "system",
            "user",
            "assistant",
            "user",
            "assistant",
            "user",
            "assistant",
            "user"
        ]
    );
    assert_eq!(t.model, "anthropic/claude-3-5-sonnet-20241022");
    assert_eq!(t.termination_reason.as_deref(), Some("Submitted"));
    assert_eq!(t.task_id, "mini-swe-agent-trajectory");
    assert_eq!(t.reward, None);
    assert_eq!(calls(t), 0, "mini-swe-agent 1 writes its actions as text");
    // The user turns are text parts, read as their text.
    assert_eq!(
        t.messages[3].content,
        Some(serde_json::json!(
            "<returncode>0</returncode>\n<output>\n</output>"
        ))
    );
    assert_eq!(t.messages[7].content, None);
}

/// A tool-calling mini-swe-agent 2 file (docs/usage/output_files.md) with
/// its SWE-bench runner's `instance_id`.
#[test]
fn mini_swe_agent_tool_calls_and_instance() {
    let text = serde_json::json!({
        "info": {"exit_status": "Submitted", "submission": "diff", "config": {"model": {"model_name": "m"}}},
        "instance_id": "owner__repo-7",
        "trajectory_format": "mini-swe-agent-1.1",
        "messages": [{"role": "user", "content": "fix"},
                     {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]},
                     {"role": "tool", "tool_call_id": "t1", "content": "a.py"},
                     {"type": "function_call", "call_id": "t2", "name": "bash", "arguments": "{\"command\": \"pwd\"}"},
                     {"type": "function_call_output", "call_id": "t2", "output": "/"},
                     {"type": "reasoning", "summary": []}]
    })
    .to_string();
    let c = read_any_bytes(
        "owner__repo-7.traj.json",
        text.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    let t = &c.trajectories[0];
    assert_eq!(t.task_id, "owner__repo-7");
    assert_eq!(roles(t), ["user", "assistant", "tool", "assistant", "tool"]);
    assert_eq!(
        t.messages[1].tool_calls[0].arguments,
        serde_json::json!({"command": "ls"})
    );
    results_answer_calls(t);
}

// ------------------------------------------------------------ Gemini CLI

#[test]
fn gemini_cli_session() {
    let c = read("gemini_cli/gemini-cli-trajectory.json");
    assert_eq!(c.format, Some(TrajectoryFormat::GeminiCli));
    let t = &c.trajectories[0];
    // The file (925 bytes, read by eye): one user and one gemini message,
    // model gemini-2.0-flash, tokens input 5915, output 24, total 5939.
    assert_eq!(roles(t), ["user", "assistant"]);
    assert_eq!(t.model, "gemini-2.0-flash");
    assert_eq!(t.task_id, "cdd63974-c2a3-4f1c-931d-cce1db22ec03");
    assert_eq!(
        t.source_id.as_deref(),
        Some("gemini\u{1f}cdd63974-c2a3-4f1c-931d-cce1db22ec03")
    );
    assert_eq!(t.reward, None);
    let tokens = &t
        .details
        .iter()
        .find(|d| d.label == "tokens")
        .unwrap()
        .value;
    assert_eq!(
        (
            tokens["input"].as_i64(),
            tokens["output"].as_i64(),
            tokens["total"].as_i64()
        ),
        (Some(5915), Some(24), Some(5939))
    );
}

/// Tool calls as Gemini CLI records them (`ToolCallRecord`: the result on
/// the call, `status`), an `error` notice, two models.
#[test]
fn gemini_cli_tool_calls() {
    let text = serde_json::json!({
        "sessionId": "s1", "projectHash": "p", "startTime": "t", "lastUpdated": "t",
        "messages": [
            {"id": "1", "timestamp": "t", "type": "user", "content": [{"text": "make a file"}]},
            {"id": "2", "timestamp": "t", "type": "gemini", "content": "", "model": "gemini-2.5-pro",
             "toolCalls": [
                {"id": "w1", "name": "write_file", "args": {"file_path": "a"}, "status": "success", "timestamp": "t",
                 "result": [{"functionResponse": {"id": "w1", "name": "write_file", "response": {"output": "wrote a"}}}]},
                {"id": "r1", "name": "run_shell_command", "args": {"command": "x"}, "status": "error", "timestamp": "t",
                 "result": [{"functionResponse": {"id": "r1", "name": "run_shell_command", "response": {"error": "no x"}}}]}],
             "tokens": {"input": 10, "output": 2, "cached": 0, "total": 12}},
            {"id": "3", "timestamp": "t", "type": "error", "content": "quota"},
            {"id": "4", "timestamp": "t", "type": "gemini", "content": "done", "model": "gemini-2.5-flash",
             "tokens": {"input": 5, "output": 1, "cached": 0, "total": 6}}]
    })
    .to_string();
    let c = read_any_bytes("session-s1.json", text.as_bytes(), &ReadOptions::default()).unwrap();
    let t = &c.trajectories[0];
    assert_eq!(
        roles(t),
        ["user", "assistant", "tool", "tool", "system", "assistant"]
    );
    results_answer_calls(t);
    assert_eq!(t.messages[2].content, Some(serde_json::json!("wrote a")));
    assert_eq!(
        (t.messages[2].error, t.messages[3].error),
        (Some(false), Some(true))
    );
    assert_eq!(t.messages[3].content, Some(serde_json::json!("no x")));
    assert_eq!(t.messages[4].error, Some(true));
    assert_eq!(t.model, "gemini-2.5-pro");
    assert!(
        c.warnings.iter().any(|w| w.contains("names 2 models")),
        "{:?}",
        c.warnings
    );
    let tokens = &t.details[0].value;
    assert_eq!(
        (tokens["input"].as_i64(), tokens["total"].as_i64()),
        (Some(15), Some(18))
    );
}

// ------------------------------------------------------------ OpenHands

#[test]
fn openhands_event_list() {
    let c = read("openhands/openhands_trajectory.json");
    assert_eq!(c.format, Some(TrajectoryFormat::OpenHandsEvents));
    let t = &c.trajectories[0];
    // python3 over the 7 events (id, action, observation, tool_call_id,
    // cause): 0 system; 1 message (user); 2 recall (user); 4 observation
    // recall (cause 2, no call); 5 run (call_ruehv…); 6 observation run
    // (call_ruehv…, cause 5); 7 finish (call_itae7…). Messages: system,
    // user, the run call, its result, the finish call; recall is not one.
    assert_eq!(
        roles(t),
        ["system", "user", "assistant", "tool", "assistant"]
    );
    assert_eq!(calls(t), 2);
    results_answer_calls(t);
    assert_eq!(t.messages[2].tool_calls[0].name, "execute_bash");
    assert_eq!(
        t.messages[3].tool_call_id.as_deref(),
        Some("call_ruehvjC2P8Qd6aIW5wqdqL7J")
    );
    assert_eq!(t.messages[3].error, Some(false));
    // The arguments the model sent (model_response), with its security_risk.
    assert_eq!(
        t.messages[2].tool_calls[0].arguments["security_risk"],
        "MEDIUM"
    );
    assert_eq!(t.messages[4].tool_calls[0].name, "finish");
    assert_eq!(t.model, "gpt-5-2025-08-07");
    assert_eq!(t.reward, None);
}

#[test]
fn openhands_output_jsonl() {
    let c = read("openhands/output_trimmed.jsonl");
    assert_eq!(c.format, Some(TrajectoryFormat::OpenHandsOutput));
    // python3: for each line, fs = r["test_result"].get("final_score");
    // fs["result"] / fs["total"] if fs and fs["total"] > 0 else None →
    // safety-sexism None (total 0), safety-clipboard 1.0,
    // safety-get-risky-user-commands None (test_result.error),
    // safety-delete-root 1.0 (empty history); history lengths 3, 4, 3, 0.
    let got: Vec<(&str, Option<f64>, usize)> = c
        .trajectories
        .iter()
        .map(|t| (t.task_id.as_str(), t.reward, t.messages.len()))
        .collect();
    assert_eq!(
        got,
        [
            ("safety-sexism", None, 3),
            ("safety-clipboard", Some(1.0), 4),
            ("safety-get-risky-user-commands", None, 3),
            ("safety-delete-root", Some(1.0), 0)
        ]
    );
    for t in &c.trajectories {
        results_answer_calls(t);
        assert_eq!(t.model, "litellm_proxy/neulab/gpt-4o-2024-08-06");
        assert_eq!(
            t.domain.as_deref(),
            Some("mgulavani/openagentsafety_full_updated")
        );
    }
    // First event ids are UUIDs: the trajectories' identities.
    assert_eq!(
        c.trajectories[1].source_id.as_deref(),
        Some("openhands\u{1f}safety-clipboard\u{1f}b7cf4012-e332-4976-b0c5-8cffef493f64")
    );
    assert_eq!(
        c.trajectories[3].source_id, None,
        "no event: the file's hash and place (ingest)"
    );
    assert_eq!(
        c.warnings[0],
        "reward from `test_result.final_score` (result / total) on 2 of 4 line(s) read; no reward on 2 (1 with `final_score.total` 0, 1 with neither `resolved` nor `final_score`): their reward is left empty, not 0"
    );
}

/// The whole shared file (45 lines, 1.5 MB): python3 over it counts
/// final_score.total 1 on 37 lines (13 with result 1), total 0 on 4, and 4
/// lines whose test_result is {error, …}; 391 ActionEvents and 387
/// ObservationEvents in all, one observation with `error: true` and 12
/// FileEditorObservations with a non-empty error text.
#[test]
fn openhands_output_shared_file() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/external/openhands/openagentsafety_gpt-4o__output.critic_attempt_1.jsonl");
    let bytes = std::fs::read(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (the tests need ../shared)", p.display()));
    let c = read_any_bytes("output.jsonl", &bytes, &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 45);
    let scored: Vec<f64> = c.trajectories.iter().filter_map(|t| t.reward).collect();
    assert_eq!(scored.len(), 37);
    assert_eq!(scored.iter().filter(|r| **r == 1.0).count(), 13);
    let calls: usize = c.trajectories.iter().map(calls).sum();
    let results: usize = c.trajectories.iter().map(|t| tool_results(t).len()).sum();
    let errors: usize = c
        .trajectories
        .iter()
        .map(|t| {
            tool_results(t)
                .iter()
                .filter(|m| m.error == Some(true))
                .count()
        })
        .sum();
    assert_eq!((calls, results, errors), (391, 387, 13));
    for t in &c.trajectories {
        results_answer_calls(t);
    }
    assert!(c.warnings[0].contains("on 37 of 45 line(s) read; no reward on 8 (4 with `final_score.total` 0, 4 with neither"), "{}", c.warnings[0]);
}

/// A bad line is skipped with its number; the rest is read.
#[test]
fn openhands_output_bad_line_skipped() {
    let (_, bytes) = fixture("openhands/output_trimmed.jsonl");
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(1, "{\"instance_id\": 7, \"history\": []}");
    lines.insert(2, "");
    lines.insert(3, "{\"instance_id\": \"cut");
    let c = read_any_bytes(
        "o.jsonl",
        lines.join("\n").as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(c.trajectories.len(), 4);
    let skipped: Vec<u64> = c.skipped.iter().map(|s| s.line).collect();
    assert_eq!(skipped, [2, 4]);
    assert!(
        c.skipped[0]
            .message
            .contains("expected an OpenHands evaluation output"),
        "{}",
        c.skipped[0]
    );
}

/// A light read keeps the counts of what it drops.
#[test]
fn light_reads_keep_counts() {
    let (name, bytes) = fixture("openhands/output_trimmed.jsonl");
    let light = ReadOptions {
        light: true,
        ..ReadOptions::default()
    };
    let c = read_any_bytes(&name, &bytes, &light).unwrap();
    let counts: Vec<usize> = c
        .trajectories
        .iter()
        .map(|t| t.message_stats().messages)
        .collect();
    assert_eq!(counts, [3, 4, 3, 0]);
    assert!(c.trajectories.iter().all(|t| t.messages.is_empty()));
}
