//! The CLI on trajectory inputs added in issue 5: Inspect AI logs,
//! stability groups from τ²-bench gold actions, synthetic corpora.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::{gapscope, root};

fn shared(path: &str) -> String {
    let p = root().join("../shared/data").join(path);
    assert!(
        p.exists(),
        "{} is missing: the tests need ../shared beside the clone",
        p.display()
    );
    p.display().to_string()
}

fn ok(args: &[&str]) -> (String, String) {
    let out = gapscope(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gapscope-traj-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const INSPECT: [&str; 8] = [
    "inspect/2026-11-29T16-54-07-00-00_arith-agent_ZKFTMo2fnNsmPRjuUtSfAY.eval",
    "inspect/2026-11-29T16-54-10-00-00_arith-agent_RUTTu4uSk2DFBUScuc9P9j.json",
    "inspect/small.eval",
    "inspect/log_streaming.eval",
    "inspect/log_message_deduplication.eval",
    "inspect/2025-05-12T20-27-36-04-00_browser.json",
    "inspect/log_formats.json",
    "inspect/log_tool_call_error.json",
];

/// Every shared Inspect log through `gapscope profiles`: rewards per model by
/// hand (see crates/gapscope-data/tests/inspect_logs.rs for the per-file
/// counts): mockllm/model 8 of 12 correct (the `.eval` and the `.json` run,
/// each C, I, C × 2 epochs), claude-opus-4-1 6/6, Llama 3 of 4, hardcoded
/// 0.0, gpt-4o-mini C, llama3.1 I, the redacted `...` log unscored (missing).
#[test]
fn profiles_read_every_inspect_log() {
    let files: Vec<String> = INSPECT.iter().map(|f| shared(f)).collect();
    let (out, err) = ok(&[
        "profiles",
        "--json",
        "--all-tasks",
        "--trajectories",
        &files.join(","),
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["models"],
        serde_json::json!([
            "mockllm/model",
            "anthropic/claude-opus-4-1-20250805",
            "azureai/Meta-Llama-3-1-405B-Instruct-jqf",
            "hardcoded/hardcoded",
            "openai/gpt-4o-mini",
            "ollama/llama3.1",
            "..."
        ])
    );
    let reward: Vec<Option<f64>> = v["reward"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::as_f64)
        .collect();
    let want = [
        Some(800.0 / 12.0),
        Some(100.0),
        Some(75.0),
        Some(0.0),
        Some(100.0),
        Some(0.0),
        None,
    ];
    for (r, w) in reward.iter().zip(want) {
        match (r, w) {
            (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{reward:?}"),
            (a, b) => assert_eq!(*a, b),
        }
    }
    assert_eq!(v["trajectories"], serde_json::json!([12, 6, 4, 1, 1, 1, 1]));
    assert!(
        err.contains("small.eval: reward from scorer `score_metr_task` (the first scorer in the header's results.scores): 1 → 1 (×6)"),
        "{err}"
    );
    assert!(
        err.contains("log_tool_call_error.json: reward from scorer `includes`"),
        "{err}"
    );
    assert!(err.contains("1 sample(s) without this score have no reward"));
    // A scorer chosen by hand; one a log lacks is an error naming the file.
    let (out, err) = ok(&[
        "profiles",
        "--trajectories",
        &shared(INSPECT[0]),
        "--scorer",
        "model_graded_qa",
    ]);
    // C, C, P per epoch: (1 + 1 + 0.5) / 3 = 83.33…
    assert!(
        out.starts_with("model,family,reward\nmockllm/model,unknown,83.33333333333"),
        "{out}"
    );
    assert!(err.contains("\"P\" → 0.5 (×2)"), "{err}");
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        &shared("inspect/small.eval"),
        "--scorer",
        "match",
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("small.eval: scorer `match` is not in this log (available: score_metr_task)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `report --trajectories` accepts an Inspect log: its reward joins the
/// foundational/operation file on `model`.
#[test]
fn report_joins_an_inspect_log() {
    let dir = temp_dir("report");
    let f = dir.join("f.csv");
    std::fs::write(
        &f,
        "model,family,TU,RE,GI\nmockllm/model,Mock,60,70,50\nanthropic/claude-opus-4-1-20250805,Anthropic,80,85,70\nazureai/Meta-Llama-3-1-405B-Instruct-jqf,Meta,70,60,55\nopenai/gpt-4o-mini,OpenAI,65,66,60\n",
    )
    .unwrap();
    let (out, err) = ok(&[
        "report",
        "--json",
        "--bootstrap",
        "0",
        "--no-nested",
        "--profiles",
        f.to_str().unwrap(),
        "--trajectories",
        &shared("inspect/small.eval"),
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["input"]["reward"],
        serde_json::json!([null, 100.0, null, null])
    );
    assert!(
        err.contains("small.eval: 6 trajectories of 1 model; operation profile from the 6 on the 1 tasks every model attempted"),
        "{err}"
    );
}

/// `stability --groups gold-actions`: labelled canonical trajectories on the
/// 50 airline v1 tasks with `--tasks tasks_v1.json` are grouped by signature
/// (12 groups; see crates/gapscope-gaps/tests/gold_groups.rs), the
/// classification is printed, and `--read-tools` edits it (10 groups).
#[test]
fn stability_groups_from_gold_actions() {
    let tasks: Value = serde_json::from_str(
        &std::fs::read_to_string(shared("tau2/airline/tasks_v1.json")).unwrap(),
    )
    .unwrap();
    let ids: Vec<String> = tasks
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 50);
    let dir = temp_dir("gold");
    let mut jsonl = String::new();
    let mut csv = String::from("model,family,TU,RE\n");
    for i in 0..8usize {
        csv.push_str(&format!(
            "m{i},fam{},{},{}\n",
            i / 2,
            50 + i * 3,
            70 - (i * 5) % 11
        ));
        for (k, id) in ids.iter().enumerate() {
            let l = |o: usize| ((i * 7 + k * 3 + o) % 3) as f64 / 2.0;
            jsonl.push_str(&format!(
                "{{\"id\": \"m{i}-{id}\", \"model\": \"m{i}\", \"task_id\": \"{id}\", \"reward\": 1, \"labels\": {{\"GI\": [{}], \"PL\": [{}]}}}}\n",
                l(0),
                l(1)
            ));
        }
    }
    let t = dir.join("t.jsonl");
    let f = dir.join("f.csv");
    std::fs::write(&t, jsonl).unwrap();
    std::fs::write(&f, csv).unwrap();
    let tasks_path = shared("tau2/airline/tasks_v1.json");
    let base = [
        "stability",
        "--profiles",
        f.to_str().unwrap(),
        "--trajectories",
        t.to_str().unwrap(),
        "--bootstrap",
        "0",
        "--splits",
        "0",
        "--groups",
        "gold-actions",
        "--tasks",
        &tasks_path,
    ];
    let (out, err) = ok(&base);
    assert!(
        err.contains("note: 12 groups of 50 tasks by gold-action signature: book_reservation (5), book_reservation+cancel_reservation (2)"),
        "{err}"
    );
    assert!(err.contains("note: tool get_user_details: read-only (name rule: starts with get_)"));
    assert!(out.starts_with("half A: "), "{out}");
    assert!(out.contains("no state change"), "{out}");
    let mut edited = base.to_vec();
    edited.extend(["--read-tools", "transfer_to_human_agents,send_certificate"]);
    let (_, err) = ok(&edited);
    assert!(err.contains("note: 10 groups of 50 tasks"), "{err}");
    assert!(err.contains("tool send_certificate: read-only (given as read-only)"));
    // A task the tasks file lacks is a located error.
    let mut no_tasks = base.to_vec();
    no_tasks.truncate(base.len() - 2);
    let out = gapscope(&no_tasks);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--groups gold-actions: no gold actions"));
}

/// `synth-trajectories` with the defaults writes the committed corpus; other
/// sizes and a planted instability are accepted; bad parameters are refused.
#[test]
fn synth_trajectories_writes_the_committed_corpus() {
    let dir = temp_dir("synth");
    let (out, _) = ok(&["synth-trajectories", "--out", dir.to_str().unwrap()]);
    assert!(
        out.starts_with("900 trajectories of 15 models in 8 families (60 tasks in 12 groups, 1 trial(s), instability 0)"),
        "{out}"
    );
    for name in ["foundational.csv", "trajectories.jsonl", "planted.csv"] {
        let a = std::fs::read_to_string(dir.join(name)).unwrap();
        let b = std::fs::read_to_string(root().join("assets/synthetic-trajectories").join(name))
            .unwrap();
        assert!(a == b, "{name} differs from the committed corpus");
    }
    let dir2 = temp_dir("synth2");
    let (out, _) = ok(&[
        "synth-trajectories",
        "--families",
        "4",
        "--per-family",
        "2",
        "--tasks",
        "6",
        "--groups",
        "3",
        "--trials",
        "2",
        "--instability",
        "5",
        "--out",
        dir2.to_str().unwrap(),
    ]);
    assert!(
        out.starts_with("96 trajectories of 8 models in 4 families"),
        "{out}"
    );
    let jsonl = std::fs::read_to_string(dir2.join("trajectories.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 4 * 2 * 6 * 2);
    let out = gapscope(&[
        "synth-trajectories",
        "--tasks",
        "2",
        "--groups",
        "3",
        "--out",
        dir2.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("3 groups for 2 tasks: every group needs a task"));
}
