//! ATIF trajectories and Harbor job and trial folders, on the fixtures of
//! `tests/fixtures/atif/` (Harbor's golden trajectories) and
//! `tests/fixtures/harbor/` (built by `scripts/make-harbor-job.py fixture`).
//!
//! The expected numbers were counted by a short Python script over the same
//! files (`json.load`; messages = steps + observation results, tool calls =
//! the steps' `tool_calls`, token sums over the steps' `metrics`), and the
//! trials' rewards, models and exceptions read off the fixture's table in
//! `tests/fixtures/harbor/ATTRIBUTION.md`; never from running the reader.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gapscope_data::formats::folder::{plan, Folder, FolderFormat, Group};
use gapscope_data::formats::read_group;
use gapscope_data::formats::{atif, read_any_bytes, Corpus, ReadOptions, TrajectoryFormat};
use serde_json::json;

const FIX: &str = "tests/fixtures";

fn golden(name: &str) -> String {
    std::fs::read_to_string(format!("{FIX}/atif/{name}")).unwrap()
}

/// A folder on disk, read one file at a time (and counting what it hands out).
struct Disk {
    root: PathBuf,
    reads: Vec<String>,
}

impl Folder for Disk {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.reads.push(path.to_string());
        std::fs::read(self.root.join(path)).map_err(|e| e.to_string())
    }
}

/// An in-memory folder.
struct Memory(BTreeMap<String, Vec<u8>>);

impl Folder for Memory {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| format!("no file {path}"))
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
}

/// Plan the fixture folder and read its one group.
fn read_disk(
    sub: &str,
    options: &ReadOptions,
) -> (Group, Result<Corpus, String>, Vec<(usize, usize)>) {
    let root = PathBuf::from(format!("{FIX}/harbor/{sub}"));
    let mut paths = Vec::new();
    walk(&root, &root, &mut paths);
    let p = plan(&paths);
    assert_eq!(p.groups.len(), 1, "{p:?}");
    assert!(p.files.is_empty(), "{:?}", p.files);
    let g = p.groups[0].clone();
    let mut folder = Disk {
        root,
        reads: Vec::new(),
    };
    let mut seen = Vec::new();
    let c = read_group(&g, &mut folder, options, &mut |a, b| seen.push((a, b)));
    (g, c, seen)
}

#[test]
fn the_openhands_golden_trajectory() {
    let text = golden("openhands__hello-world.trajectory.json");
    let c = read_any_bytes(
        "openhands__hello-world.trajectory.json",
        text.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(c.format, Some(TrajectoryFormat::Atif));
    assert_eq!(c.trajectories.len(), 1);
    let t = &c.trajectories[0];
    assert_eq!(t.id, "openhands__hello-world");
    assert_eq!(t.task_id, "openhands__hello-world");
    assert_eq!(t.domain, None);
    assert_eq!(t.reward, None);
    // No model anywhere in the file: the agent's name, said so.
    assert_eq!(t.model, "openhands");
    assert!(
        c.warnings.iter().any(|w| w.contains("names no model")),
        "{:?}",
        c.warnings
    );
    assert!(c.warnings.iter().any(|w| w.contains("has no reward")));
    // 6 steps + 1 observation result; roles system, user, system, system,
    // agent (+ its result), agent.
    let roles: Vec<&str> = t.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(
        roles,
        [
            "system",
            "user",
            "system",
            "system",
            "assistant",
            "tool",
            "assistant"
        ]
    );
    let s = t.message_stats();
    assert_eq!((s.messages, s.tool_calls, s.tool_errors), (7, 2, 0));
    assert_eq!(
        t.messages[4].tool_calls[0].id.as_deref(),
        Some("call_fake_1")
    );
    assert_eq!(t.messages[4].tool_calls[0].name, "str_replace_editor");
    assert_eq!(
        t.messages[4].tool_calls[0].arguments["path"],
        "/app/hello.txt"
    );
    assert_eq!(t.messages[5].tool_call_id.as_deref(), Some("call_fake_1"));
    assert_eq!(
        t.messages[5].content,
        Some(json!("File created successfully at: /app/hello.txt"))
    );
    assert!(c.notes.is_empty(), "{:?}", c.notes);
    let tokens = t
        .details
        .iter()
        .find(|d| d.label == "tokens and cost")
        .unwrap();
    assert_eq!(
        tokens.value,
        json!({"prompt_tokens": 220, "completion_tokens": 80, "cost_usd": 0.00135, "from": "final_metrics"})
    );
    let agent = t.details.iter().find(|d| d.label == "agent").unwrap();
    assert_eq!(agent.value, json!("openhands 1.0.0"));
    assert!(t
        .source_id
        .as_deref()
        .unwrap()
        .starts_with("atif\u{1f}NORMALIZED_SESSION_ID"));
}

#[test]
fn the_terminus_golden_trajectory_has_results_without_call_ids() {
    let text = golden("terminus_2__hello-world-timeout.trajectory.json");
    let c = atif::read(
        "x/terminus_2__hello-world-timeout.trajectory.json",
        &text,
        &ReadOptions::default(),
    )
    .unwrap();
    let t = &c.trajectories[0];
    assert_eq!(t.model, "openai/gpt-4o");
    let s = t.message_stats();
    // 4 steps + 3 results; 3 tool calls, none answered by id (the results
    // carry no `source_call_id`: not a call's answer, not noted).
    assert_eq!((s.messages, s.tool_calls), (7, 3));
    assert!(t.messages.iter().all(|m| m.tool_call_id.is_none()));
    assert!(c.notes.is_empty());
    let tokens = t
        .details
        .iter()
        .find(|d| d.label == "tokens and cost")
        .unwrap();
    assert_eq!(tokens.value["prompt_tokens"], 982);
    assert_eq!(tokens.value["completion_tokens"], 145);
    assert_eq!(tokens.value["cached_tokens"], 0);
    // Two bare trajectories of different agents sharing a (normalized)
    // session id are different runs.
    let o = atif::read(
        "o.json",
        &golden("openhands__hello-world.trajectory.json"),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_ne!(o.trajectories[0].source_id, t.source_id);
    // A domain given is used, and not asked for.
    let d = atif::read(
        "x.json",
        &text,
        &ReadOptions {
            domain: Some("terminal-bench".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(d.trajectories[0].domain.as_deref(), Some("terminal-bench"));
    assert!(!d.warnings.iter().any(|w| w.contains("--domain")));
}

fn minimal(version: &str, steps: &serde_json::Value) -> String {
    json!({"schema_version": version, "session_id": "s", "agent": {"name": "a", "version": "1"}, "steps": steps})
        .to_string()
}

#[test]
fn every_version_reads_and_later_fields_are_read_where_they_appear() {
    let steps = json!([{"step_id": 1, "source": "user", "message": "hi"}]);
    for v in atif::VERSIONS {
        let p = atif::parse(&minimal(v, &steps)).unwrap();
        assert_eq!(p.messages.len(), 1, "{v}");
        assert_eq!(p.newer_version, None);
    }
    // 1.6 content parts, reasoning, 1.7 embedded subagents and references.
    let doc = json!({
        "schema_version": "ATIF-v1.7",
        "session_id": "root",
        "trajectory_id": "t0",
        "agent": {"name": "lead", "version": "1", "model_name": "m-root"},
        "steps": [
            {"step_id": 1, "source": "user", "message": [{"type": "text", "text": "look"}, {"type": "image", "source": {"media_type": "image/png", "path": "a.png"}}]},
            {"step_id": 2, "source": "agent", "model_name": "m-other", "message": "delegating", "reasoning_content": "think",
             "tool_calls": [{"tool_call_id": "c1", "function_name": "delegate", "arguments": {}, "extra": {"x": 1}}],
             "observation": {"results": [{"source_call_id": "c1", "content": "done", "subagent_trajectory_ref": [{"trajectory_id": "sub-1"}, {"trajectory_path": "sub2.json", "session_id": "s2"}]}]},
             "metrics": {"prompt_tokens": 10, "completion_tokens": 2, "prompt_token_ids": [1, 2, 3]}, "llm_call_count": 1}
        ],
        "subagent_trajectories": [
            {"schema_version": "ATIF-v1.7", "trajectory_id": "sub-1", "agent": {"name": "helper", "version": "1", "model_name": "m-sub"},
             "steps": [{"step_id": 1, "source": "user", "message": "x"}, {"step_id": 2, "source": "agent", "message": "y"}]}
        ]
    });
    let p = atif::parse(&doc.to_string()).unwrap();
    assert_eq!(p.model.as_deref(), Some("m-root"));
    assert_eq!(p.messages.len(), 3);
    assert_eq!(p.messages[0].content.as_ref().unwrap()[1]["type"], "image");
    assert_eq!(
        p.messages[1].content,
        Some(
            json!([{"type": "reasoning", "reasoning": "think"}, {"type": "text", "text": "delegating"}])
        )
    );
    let sub = p
        .details
        .iter()
        .find(|d| d.label == "subagent trajectories")
        .unwrap();
    assert_eq!(
        sub.value,
        json!([
            {"step": 2, "trajectory_id": "sub-1", "embedded": {"agent": "helper", "model": "m-sub", "steps": 2}},
            {"step": 2, "trajectory_path": "sub2.json", "session_id": "s2"}
        ])
    );
    let other = p
        .details
        .iter()
        .find(|d| d.label == "other models of steps")
        .unwrap();
    assert_eq!(other.value, json!(["m-other"]));
    let tokens = p
        .details
        .iter()
        .find(|d| d.label == "tokens and cost")
        .unwrap();
    assert_eq!(
        tokens.value,
        json!({"prompt_tokens": 10, "completion_tokens": 2, "from": "the steps' metrics, summed"})
    );
}

#[test]
fn a_job_folder_on_disk() {
    let (g, c, seen) = read_disk("job-small", &ReadOptions::default());
    assert_eq!(g.format, FolderFormat::HarborJob);
    let c = c.unwrap();
    // Four trials: three scored, one infrastructure error.
    type Row<'a> = (&'a str, &'a str, Option<&'a str>, &'a str, Option<f64>);
    let got: Vec<Row> = c
        .trajectories
        .iter()
        .map(|t| {
            (
                t.id.as_str(),
                t.task_id.as_str(),
                t.domain.as_deref(),
                t.model.as_str(),
                t.reward,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "hello-world-timeout__Time3cc",
                "hello-world-timeout",
                Some("terminal-bench"),
                "gpt-4o",
                Some(1.0)
            ),
            (
                "hello-world__Ok1aaaa",
                "hello-world",
                Some("terminal-bench"),
                "gpt-4o",
                Some(1.0)
            ),
            (
                "hello-world__Zero2bb",
                "hello-world",
                Some("terminal-bench"),
                "claude-sonnet-4-5",
                Some(0.0)
            ),
        ]
    );
    assert_eq!(c.excluded.len(), 1);
    assert_eq!(c.excluded[0].id, "hello-world__Env4ddd");
    assert_eq!(c.excluded[0].task, "terminal-bench/hello-world");
    assert!(c.excluded[0]
        .reason
        .starts_with("EnvironmentStartTimeoutError: Environment start timed out after 600.0 seconds; Harbor's error policy"));
    // The timeout is scored, its exception shown.
    let timeout = &c.trajectories[0];
    assert_eq!(
        timeout.termination_reason.as_deref(),
        Some("AgentTimeoutError")
    );
    let e = timeout
        .details
        .iter()
        .find(|d| d.label.starts_with("exception"))
        .unwrap();
    assert_eq!(e.value["type"], "AgentTimeoutError");
    // Messages from each agent/trajectory.json: 7 each (counted above).
    assert!(c.trajectories.iter().all(|t| t.messages.len() == 7));
    // Tokens: the result's agent_result where it has one, else the ATIF's.
    let ok = &c.trajectories[1];
    let tokens = ok
        .details
        .iter()
        .find(|d| d.label == "tokens and cost")
        .unwrap();
    assert_eq!(
        tokens.value,
        json!({"input_tokens": 220, "cached_tokens": 0, "output_tokens": 80, "cost_usd": 0.00135, "from": "result.json agent_result"})
    );
    let zero = &c.trajectories[2];
    let tokens = zero
        .details
        .iter()
        .find(|d| d.label == "tokens and cost")
        .unwrap();
    assert_eq!(tokens.value["from"], "final_metrics");
    assert_eq!(
        zero.source_id.as_deref(),
        Some("harbor\u{1f}22222222-2222-4222-8222-222222222222")
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.starts_with("1 of 4 trials are infrastructure errors")),
        "{:?}",
        c.warnings
    );
    assert!(c
        .warnings
        .iter()
        .any(|w| w.contains("model `gpt-4o` was run by several agents (terminus-2, openhands)")));
    // 23 files in the job; progress from 0 to all of them, never backwards.
    assert_eq!(g.members.len(), 23);
    assert_eq!(seen.first(), Some(&(0, 23)));
    assert_eq!(seen.last(), Some(&(23, 23)));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
}

#[test]
fn a_job_reads_each_file_once_and_only_what_it_needs() {
    let root = PathBuf::from(format!("{FIX}/harbor/job-small"));
    let mut paths = Vec::new();
    walk(&root, &root, &mut paths);
    let g = plan(&paths).groups.remove(0);
    let mut folder = Disk {
        root,
        reads: Vec::new(),
    };
    read_group(&g, &mut folder, &ReadOptions::default(), &mut |_, _| {}).unwrap();
    let mut reads = folder.reads.clone();
    reads.sort();
    // Four result.json, three trajectories (the excluded trial's agent
    // files are not read; rewards come from result.json, not reward.txt).
    assert_eq!(
        reads,
        [
            "hello-world-timeout__Time3cc/agent/trajectory.json",
            "hello-world-timeout__Time3cc/result.json",
            "hello-world__Env4ddd/result.json",
            "hello-world__Ok1aaaa/agent/trajectory.json",
            "hello-world__Ok1aaaa/result.json",
            "hello-world__Zero2bb/agent/trajectory.json",
            "hello-world__Zero2bb/result.json",
        ]
    );
}

#[test]
fn a_lone_trial_folder_takes_its_reward_from_reward_txt() {
    let (g, c, _) = read_disk("trial-lone", &ReadOptions::default());
    assert_eq!(g.format, FolderFormat::HarborTrial);
    assert_eq!(g.root, "hello-world__Lone5ee");
    let c = c.unwrap();
    assert_eq!(c.trajectories.len(), 1);
    let t = &c.trajectories[0];
    assert_eq!(
        (t.id.as_str(), t.task_id.as_str(), t.domain.as_deref()),
        ("hello-world__Lone5ee", "hello-world", None)
    );
    assert_eq!((t.model.as_str(), t.reward), ("gpt-4o", Some(1.0)));
    assert!(
        c.warnings
            .iter()
            .any(|w| w.starts_with("1 trials name no dataset")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn a_light_read_drops_messages_per_trial_and_keeps_counts() {
    let options = ReadOptions {
        light: true,
        keep: Some("hello-world__Zero2bb".into()),
        ..Default::default()
    };
    let c = read_disk("job-small", &options).1.unwrap();
    for t in &c.trajectories {
        assert_eq!(t.message_stats().messages, 7);
        assert_eq!(
            t.messages.is_empty(),
            t.id != "hello-world__Zero2bb",
            "{}",
            t.id
        );
    }
}

fn result_json(name: &str, rewards: Option<serde_json::Value>, exception: Option<&str>) -> Vec<u8> {
    json!({
        "task_name": "t", "trial_name": name, "source": "ds",
        "agent_info": {"name": "ag", "version": "1", "model_info": {"name": "M", "provider": "p"}},
        "verifier_result": rewards.map(|r| json!({"rewards": r})),
        "exception_info": exception.map(|e| json!({"exception_type": e, "exception_message": "boom\nmore", "exception_traceback": "", "occurred_at": "2025-01-01T00:00:00Z"})),
    })
    .to_string()
    .into_bytes()
}

fn memory_job(trials: &[(&str, Vec<u8>)]) -> (Group, Memory) {
    let mut files = BTreeMap::new();
    files.insert("job/config.json".to_string(), b"{}".to_vec());
    for (name, result) in trials {
        files.insert(format!("job/{name}/result.json"), result.clone());
        files.insert(format!("job/{name}/trial.log"), b"log".to_vec());
    }
    let paths: Vec<String> = files.keys().cloned().collect();
    let g = plan(&paths).groups.remove(0);
    (g, Memory(files))
}

#[test]
fn harbor_error_policy_decides_what_is_scored() {
    let (g, mut m) = memory_job(&[
        (
            "a",
            result_json("a", Some(json!({"reward": 1})), Some("AgentTimeoutError")),
        ),
        (
            "b",
            result_json("b", Some(json!({"reward": 1})), Some("ApiRateLimitError")),
        ),
        (
            "c",
            result_json("c", None, Some("NonZeroAgentExitCodeError")),
        ),
        (
            "d",
            result_json(
                "d",
                Some(json!({"reward": 0.5})),
                Some("SomethingHarborDoesNotName"),
            ),
        ),
        ("e", result_json("e", Some(json!({"reward": 0})), None)),
        ("f", result_json("f", None, None)),
        (
            "g",
            result_json("g", Some(json!({"pass": 1, "partial": 0.5})), None),
        ),
    ]);
    let c = read_group(&g, &mut m, &ReadOptions::default(), &mut |_, _| {}).unwrap();
    let scored: Vec<(&str, Option<f64>)> = c
        .trajectories
        .iter()
        .map(|t| (t.id.as_str(), t.reward))
        .collect();
    assert_eq!(
        scored,
        [
            ("a", Some(1.0)),
            ("d", Some(0.5)),
            ("e", Some(0.0)),
            ("f", None),
            ("g", None)
        ]
    );
    let excluded: Vec<(&str, &str)> = c
        .excluded
        .iter()
        .map(|e| (e.id.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(
        excluded,
        [
            ("b", "ApiRateLimitError: boom; Harbor's error policy counts no reward beside this exception (an environment, verifier, model-API or configuration failure)"),
            ("c", "NonZeroAgentExitCodeError: boom; the run ended with an exception and the verifier gave no reward"),
        ]
    );
    assert!(c
        .warnings
        .iter()
        .any(|w| w.starts_with("2 trials have no verifier reward and no exception")));
    assert!(c
        .warnings
        .iter()
        .any(|w| w.contains("several rewards and none named `reward` (partial, pass)")));
    assert!(c
        .warnings
        .iter()
        .any(|w| w.starts_with("5 trials have no `agent/trajectory.json`")));
}

#[test]
fn policy_overrides_in_the_result_are_honoured() {
    let mut r: serde_json::Value = serde_json::from_slice(&result_json(
        "a",
        Some(json!({"reward": 1})),
        Some("ApiRateLimitError"),
    ))
    .unwrap();
    r["exception_info"]["policy_override"] = json!({"has_valid_reward": true});
    let (g, mut m) = memory_job(&[("a", r.to_string().into_bytes())]);
    let c = read_group(&g, &mut m, &ReadOptions::default(), &mut |_, _| {}).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert!(c.excluded.is_empty());
}
