//! Trajectory readers at scale, through the CLI (issue 14: "`tau2 check` and
//! long simulations are not hostile: make them linear"; a large canonical
//! JSONL is streamed; names in trajectory files are checked at their line).
//! Big inputs are generated here into a temporary folder and the CLI runs
//! under `prlimit --as` (4 GB of address space) and a generous hang guard
//! (`timeout 300`); the assertions are on the output, never on time — a
//! quadratic reader does not finish inside the guard (or the memory).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};

mod common;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gapscope-readers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `gapscope ARGS` under 4 GB of address space and a 300 s guard.
fn limited(args: &[&str]) -> std::process::Output {
    std::process::Command::new("timeout")
        .arg("300")
        .arg("prlimit")
        .arg("--as=4000000000")
        .arg(env!("CARGO_BIN_EXE_gapscope"))
        .args(args)
        .current_dir(common::root())
        .output()
        .unwrap()
}

fn ok(out: &std::process::Output) -> (String, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{:?}: {stderr:.3000}",
        out.status
    );
    (stdout, stderr)
}

fn action(name: &str, args: Value) -> Value {
    json!({"name": name, "arguments": args})
}

/// 30,000 simulations of 30,000 tasks, every one checked against another
/// task's actions (half the tasks share each gold action): the worst case of
/// the task comparison, which compared every simulation with every task
/// (and listed, for each, all 15,000 tasks it equals).
#[test]
fn tau2_check_on_30000_mislabelled_simulations_ends() {
    let n = 30_000;
    let gold = |k: usize| {
        if k.is_multiple_of(2) {
            action("book", json!({"x": 1}))
        } else {
            action("cancel", json!({"y": 2}))
        }
    };
    let tasks: Vec<Value> = (0..n)
        .map(|k| json!({"id": format!("t{k}"), "evaluation_criteria": {"actions": [gold(k)]}}))
        .collect();
    let sims: Vec<Value> = (0..n)
        .map(|k| {
            // The other group's action, performed: a reproduced check, and
            // recorded actions that are not those of task `t{k}`.
            let a = gold(k + 1);
            json!({
                "id": format!("s{k}"),
                "task_id": format!("t{k}"),
                "messages": [
                    {"role": "assistant", "content": null,
                     "tool_calls": [{"id": format!("c{k}"), "name": a["name"], "arguments": a["arguments"]}]},
                    {"role": "tool", "id": format!("c{k}"), "content": "ok"}
                ],
                "reward_info": {"reward": 1.0, "action_checks": [{"action": a, "action_match": true}]}
            })
        })
        .collect();
    let dir = scratch("check");
    let path = dir.join("sims.json");
    std::fs::write(
        &path,
        json!({"info": {"agent_info": {"llm": "m"}, "environment_info": {"domain_name": "airline"}},
               "tasks": tasks, "simulations": sims})
        .to_string(),
    )
    .unwrap();
    let p = path.display().to_string();
    let (stdout, _) = ok(&limited(&["tau2", "check", &p]));
    assert!(
        stdout.contains(&format!(
            "{p}: 30000 simulations (m), 30000/30000 recorded action checks reproduced; recorded actions vs the embedded tasks: 30000 of 30000 simulations differ from the task their task_id names"
        )),
        "{stdout:.3000}"
    );
    // Simulation 0 (task t0, gold `book`) recorded `cancel`: the odd tasks'.
    assert!(
        stdout.contains("  simulation 0 (task_id t0): recorded actions equal those of task t1, t3, t5, t7, t9, t11, t13, t15, t17, t19 and 14990 more\n"),
        "{stdout:.3000}"
    );
    assert!(
        stdout.ends_with("  … and 29995 more\n30000/30000 recorded action checks reproduced\n"),
        "{:.3000}",
        &stdout[stdout.len().saturating_sub(3000)..]
    );
    let (json, _) = ok(&limited(&["tau2", "check", "--json", &p]));
    let v: Value = serde_json::from_str(&json).unwrap();
    let first = &v["files"][0]["report"]["mislabelled"][0];
    assert_eq!(first["equals_tasks"].as_array().unwrap().len(), 10);
    assert_eq!(first["equals_tasks_total"], 15000);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One simulation of `n` messages: an assistant tool call (distinct
/// arguments each) and its result, repeated; one recorded check per call,
/// and as many checks of calls never made (recorded as unmatched).
fn long_simulation(n: usize) -> Value {
    let mut messages = Vec::new();
    let mut checks = Vec::new();
    for k in 0..n / 2 {
        let name = ["get_user", "search", "book"][k % 3];
        let args = json!({"id": format!("u{k}"), "n": k});
        messages.push(json!({"role": "assistant", "content": null,
            "tool_calls": [{"id": format!("c{k}"), "name": name, "arguments": args}]}));
        messages
            .push(json!({"role": "tool", "id": format!("c{k}"), "content": format!("result {k}")}));
        checks.push(json!({"action": action(name, args), "action_match": true}));
        checks.push(json!({"action": action(name, json!({"id": format!("u{k}"), "n": -1})), "action_match": false}));
    }
    json!({"info": {"agent_info": {"llm": "long"}, "environment_info": {"domain_name": "airline"}},
           "simulations": [{"id": "s0", "task_id": "1", "messages": messages,
                            "reward_info": {"reward": 1.0, "action_checks": checks}}]})
}

/// A simulation of 100,000 messages (50,000 tool calls, 100,000 recorded
/// checks): each check was matched against every call (quadratic: 10,000
/// messages took 10 s, so this would take about 1,000 s).
#[test]
fn a_simulation_of_100000_messages_is_read_and_checked() {
    let dir = scratch("long");
    let path = dir.join("long.json");
    std::fs::write(&path, long_simulation(100_000).to_string()).unwrap();
    let p = path.display().to_string();
    let (csv, stderr) = ok(&limited(&["profiles", "--trajectories", &p]));
    assert!(
        stderr.contains("1 trajectories of 1 models read"),
        "{stderr:.3000}"
    );
    assert_eq!(csv, "model,family,reward\nlong,unknown,100\n");
    let (stdout, _) = ok(&limited(&["tau2", "check", &p]));
    assert!(
        stdout.ends_with("100000/100000 recorded action checks reproduced\n"),
        "{stdout:.3000}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 200 MB canonical JSONL (2,000 trajectories with a 100 KB message
/// each) read by `report` under 150 MB of address space: it is streamed
/// (before, the file was read whole: `out of memory reading the file`), and
/// the manifest's SHA-256, hashed as the file streamed, is the file's.
#[test]
fn a_jsonl_larger_than_the_memory_limit_is_streamed_and_hashed() {
    let dir = scratch("stream");
    let profiles = dir.join("p.csv");
    std::fs::write(
        &profiles,
        "model,family,TU,RE\nm0,A,1,2\nm1,B,2,3\nm2,C,3,1\nm3,D,4,4\n",
    )
    .unwrap();
    let big = dir.join("big.jsonl");
    let filler = "x".repeat(100_000);
    let mut text = String::new();
    for k in 0..2_000 {
        text.push_str(
            &json!({"id": format!("t{k}"), "model": format!("m{}", k % 4), "task_id": format!("task-{}", k / 4),
                    "reward": f64::from(k % 3) / 2.0,
                    "messages": [{"role": "user", "content": filler}],
                    "labels": {"GI": [f64::from((k / 4) % 2)], "PL": [f64::from((k / 8) % 2)]}})
            .to_string(),
        );
        text.push('\n');
    }
    std::fs::write(&big, &text).unwrap();
    let size = text.len();
    drop(text);
    assert!(size > 200_000_000);
    let manifest = dir.join("m.json");
    let (p, b, m) = (
        profiles.display().to_string(),
        big.display().to_string(),
        manifest.display().to_string(),
    );
    let out = std::process::Command::new("timeout")
        .args(["300", "prlimit", "--as=150000000"])
        .arg(env!("CARGO_BIN_EXE_gapscope"))
        .args([
            "report",
            "--bootstrap",
            "0",
            "--json",
            "--profiles",
            &p,
            "--trajectories",
            &b,
            "--manifest",
            &m,
        ])
        .output()
        .unwrap();
    let (report, _) = ok(&out);
    let report: Value = serde_json::from_str(&report).unwrap();
    assert!(report["gaps"].is_array() || report.is_object(), "{report}");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let sha = std::process::Command::new("sha256sum")
        .arg(&big)
        .output()
        .unwrap();
    let sha = String::from_utf8_lossy(&sha.stdout);
    let sha = sha.split_whitespace().next().unwrap();
    assert_eq!(manifest["inputs"][1]["name"], "big.jsonl");
    assert_eq!(manifest["inputs"][1]["bytes"], size);
    assert_eq!(manifest["inputs"][1]["sha256"], sha);
    assert_eq!(manifest["inputs"][0]["name"], "p.csv");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Names in trajectory files are checked where they are read: a JSONL line
/// with a padded model is skipped at its own line; a τ²-bench file whose
/// metadata names a padded model is refused, naming the file (before: the
/// line was read and the model trimmed, or reported at a line of the
/// internal profile CSV).
#[test]
fn padded_and_empty_model_names_are_located_in_the_trajectory_file() {
    let dir = scratch("names");
    let jsonl = dir.join("t.jsonl");
    std::fs::write(
        &jsonl,
        [
            json!({"id": "t1", "model": "M ", "task_id": "x", "reward": 1.0}),
            json!({"id": "t2", "model": "M", "task_id": "x", "reward": 0.0}),
            json!({"id": "t3", "model": "", "task_id": "x", "reward": 1.0}),
        ]
        .iter()
        .map(|v| format!("{v}\n"))
        .collect::<String>(),
    )
    .unwrap();
    let j = jsonl.display().to_string();
    let (csv, stderr) = ok(&limited(&["profiles", "--trajectories", &j]));
    assert!(
        stderr.contains(&format!(
            "{j}: line 1: trajectory `t1`: model name `M ` is padded with spaces (skipped)\n{j}: line 3: trajectory `t3`: the model name is empty (skipped)\n"
        )),
        "{stderr}"
    );
    assert_eq!(csv, "model,family,reward\nM,unknown,0\n");
    let tau2 = dir.join("r.json");
    std::fs::write(
        &tau2,
        json!({"info": {"agent_info": {"llm": " gpt"}, "environment_info": {"domain_name": "airline"}},
               "simulations": [{"id": "s0", "task_id": "1", "messages": [], "reward_info": {"reward": 1.0}}]})
        .to_string(),
    )
    .unwrap();
    let r = tau2.display().to_string();
    let out = limited(&["profiles", "--trajectories", &r]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!("error: {r}: model name ` gpt` is padded with spaces (the file's `info.agent_info.llm`; give the name with --model)")
    );
    // The user's name replaces it.
    let (csv, _) = ok(&limited(&[
        "profiles",
        "--trajectories",
        &r,
        "--model",
        "gpt",
    ]));
    assert_eq!(csv, "model,family,reward\ngpt,unknown,100\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
