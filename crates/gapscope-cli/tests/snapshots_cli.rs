//! Snapshots of what the CLI prints (insta + insta-cmd), so that a refactor
//! shows every change of a flag, a line of text or a number as a diff.
//!
//! Text outputs are snapshotted whole with `insta_cmd::assert_cmd_snapshot!`
//! (arguments, exit code, stdout, stderr). `--json` outputs are parsed and
//! snapshotted with `insta::assert_json_snapshot!`, whole where they are small,
//! as named pieces where they are huge (each test says what it leaves out);
//! the only redaction is the crate version. Inputs are committed fixtures,
//! the embedded example, the paper's tables and real τ²-bench files from
//! `../shared` (a missing `../shared` fails these tests, it never skips them).
//! Commands that write files run in a fresh folder under the target dir with
//! relative paths, so no temporary path reaches a snapshot.
//!
//! Review changes with `cargo insta review`; the test command rejects
//! unreferenced snapshots (`cargo insta test --unreferenced=reject`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use insta_cmd::assert_cmd_snapshot;
use serde_json::{Map, Value};

mod common;
use common::root;

/// `gapscope` in the workspace root.
fn cli() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    c.current_dir(root());
    c
}

/// `gapscope` with `args` in the workspace root.
fn run(args: &[&str]) -> Command {
    let mut c = cli();
    c.args(args);
    c
}

/// A τ²-bench file under `../shared/data/tau2`, as a path relative to the
/// workspace root (so the snapshot is the same in every clone). Panics,
/// loudly, when `../shared` is missing: these tests never skip.
fn tau2(rel: &str) -> String {
    let p = format!("../shared/data/tau2/{rel}");
    assert!(
        root().join(&p).is_file(),
        "{p} is missing: the CLI snapshot tests need ../shared (papers, spec, data) \
         beside the clone; they fail rather than skip"
    );
    p
}

const DEEPSEEK: &str = "airline/results/partial/ironforge-deepseek-chat__airline_4tasks.json";
const GPT41_AIRLINE: &str = "airline/results/gpt-4.1__llm_agent__airline_test20_1trial.json";
const SONNET_AIRLINE: &str =
    "airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json";
const GPTOSS_AIRLINE: &str = "airline/results/gpt-oss-120b__langchain-agent__airline_1trial.json";
const BARE_LIST: &str = "airline/results/adaptive-agent-opus-4-6__airline_1trial_BARE_LIST.json";
const GPT41_RETAIL: &str = "retail/results/gpt-4.1__llm_agent__retail_test40_1trial.json";
const TELECOM: &str =
    "telecom/results/gpt-4.1__llm_agent_solo__telecom_no-user_4trials_5tasks.json";

/// A fresh, empty folder for a command that writes files (under the target
/// dir, removed first), with `shared` linked to `../shared` so that inputs
/// can be named relative to it.
fn sandbox(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("snapshots_cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shared = root().join("../shared");
    assert!(
        shared.is_dir(),
        "../shared is missing beside the clone; the CLI snapshot tests need it"
    );
    std::os::unix::fs::symlink(shared.canonicalize().unwrap(), dir.join("shared")).unwrap();
    dir
}

/// The parsed JSON standard output of a successful run.
fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The named top-level members of a JSON object, in the order given.
fn pieces(v: &Value, keys: &[&str]) -> Value {
    let mut m = Map::new();
    for k in keys {
        let piece = v
            .get(*k)
            .unwrap_or_else(|| panic!("no `{k}` in the output"));
        m.insert((*k).to_string(), piece.clone());
    }
    Value::Object(m)
}

// ---------------------------------------------------------------- help

/// Every command's help: the commands, flags, defaults and their wording.
#[test]
fn help_of_every_command() {
    let commands: [(&str, &[&str]); 17] = [
        ("top", &[]),
        ("report", &["report"]),
        ("compare", &["compare"]),
        ("profiles", &["profiles"]),
        ("stability", &["stability"]),
        ("synth", &["synth"]),
        ("synth_trajectories", &["synth-trajectories"]),
        ("synth_experiments", &["synth-experiments"]),
        ("interventions", &["interventions"]),
        ("continuations", &["continuations"]),
        ("tau2_check", &["tau2", "check"]),
        ("evidence_score", &["evidence", "score"]),
        ("evidence_worked", &["evidence", "worked"]),
        ("evidence_tau2_labels", &["evidence", "tau2-labels"]),
        ("runtime_analyze", &["runtime", "analyze"]),
        ("runtime_simulate", &["runtime", "simulate"]),
        ("runtime_filter", &["runtime", "filter"]),
    ];
    for (name, words) in commands {
        let mut args = words.to_vec();
        args.push("--help");
        assert_cmd_snapshot!(format!("help_{name}"), run(&args));
    }
}

// ---------------------------------------------------------------- report

#[test]
fn report_example_text() {
    assert_cmd_snapshot!(run(&[
        "report",
        "--profiles",
        "assets/synthetic-example.csv"
    ]));
}

/// The one paper table that is a profile table (Table 4, partial: 5 models
/// in 2 families, so leave-one-model-out).
#[test]
fn report_paper_table4_text() {
    assert_cmd_snapshot!(run(&[
        "report",
        "--profiles",
        "assets/paper/table4_profiles_partial.csv"
    ]));
}

/// The JSON report of Table 4, whole but for `input` (the echo of the
/// committed CSV); the version is redacted.
#[test]
fn report_paper_table4_json() {
    let mut v = json_of(&mut run(&[
        "report",
        "--json",
        "--bootstrap",
        "1000",
        "--profiles",
        "assets/paper/table4_profiles_partial.csv",
    ]));
    v.as_object_mut().unwrap().remove("input").unwrap();
    insta::assert_json_snapshot!(v, {".version" => "[version]"});
}

/// Table 4 in long form (issue 16): the same report as the wide table
/// above, with the pivot said on standard error.
#[test]
fn report_paper_table4_long_text() {
    assert_cmd_snapshot!(run(&[
        "report",
        "--profiles",
        "crates/gapscope-data/tests/fixtures/profiles_long/table4-long.csv"
    ]));
}

/// The other paper tables are not profile tables: the located refusals.
#[test]
fn report_refuses_the_other_paper_tables() {
    for t in [
        "table5_overall_gaps_partial",
        "table6_reward_prediction",
        "table10_operation_gaps_partial",
    ] {
        let path = format!("assets/paper/{t}.csv");
        assert_cmd_snapshot!(
            format!("report_refuses_{t}"),
            run(&["report", "--profiles", &path])
        );
    }
}

/// A profile table joined with labelled trajectories on `model`.
#[test]
fn report_profiles_joined_with_trajectories_text() {
    assert_cmd_snapshot!(run(&[
        "report",
        "--bootstrap",
        "1000",
        "--profiles",
        "tests/fixtures/foundational-small.csv",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
    ]));
}

// ---------------------------------------------------------------- profiles

#[test]
fn profiles_fixture_csv() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl"
    ]));
}

#[test]
fn profiles_fixture_json() {
    insta::assert_json_snapshot!(json_of(&mut run(&[
        "profiles",
        "--json",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl"
    ])));
}

/// Three real τ²-bench airline runs with their proxy labels (written by
/// `evidence tau2-labels` first): operation scores, eligible counts, reward.
#[test]
fn profiles_tau2_airline_with_proxy_labels() {
    let dir = sandbox("profiles_tau2");
    let files: Vec<String> = [GPT41_AIRLINE, SONNET_AIRLINE, GPTOSS_AIRLINE]
        .iter()
        .map(|f| {
            tau2(f);
            format!("shared/data/tau2/{f}")
        })
        .collect();
    let mut labels = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    labels
        .current_dir(&dir)
        .args(["evidence", "tau2-labels"])
        .args(&files);
    let out = labels.output().unwrap();
    assert!(out.status.success());
    std::fs::write(dir.join("labels.csv"), &out.stdout).unwrap();
    let mut profiles = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    profiles.current_dir(&dir).args([
        "profiles",
        "--labels",
        "labels.csv",
        "--trajectories",
        &files.join(","),
    ]);
    assert_cmd_snapshot!(profiles);
}

/// Two domains of one model: tasks are (domain, id), rewards only.
#[test]
fn profiles_tau2_two_domains_json() {
    insta::assert_json_snapshot!(json_of(&mut run(&[
        "profiles",
        "--json",
        "--trajectories",
        &format!("{},{}", tau2(GPT41_AIRLINE), tau2(GPT41_RETAIL)),
    ])));
}

/// A bare τ²-bench list names no model and no domain.
#[test]
fn profiles_tau2_bare_list() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--model",
        "opus-4-6",
        "--domain",
        "airline",
        "--trajectories",
        &tau2(BARE_LIST),
    ]));
}

/// Bare ATIF trajectories (Harbor's golden files, ATIF-v1.5): no task set,
/// no reward; the OpenHands one names no model (the agent's name is used).
#[test]
fn profiles_atif_bare_trajectories() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--json",
        "--trajectories",
        "crates/gapscope-data/tests/fixtures/atif/openhands__hello-world.trajectory.json,crates/gapscope-data/tests/fixtures/atif/terminus_2__hello-world-timeout.trajectory.json",
    ]));
}

/// A Parquet trajectory dataset (issue 16): two models, five rows, one
/// without a reward, no task set (the notes say both).
#[test]
fn profiles_parquet_dataset_json() {
    assert_cmd_snapshot!(run(&[
        "profiles",
        "--json",
        "--trajectories",
        "crates/gapscope-data/tests/fixtures/parquet/canonical_snappy.parquet",
    ]));
}

// ---------------------------------------------------------------- stability

/// The committed synthetic corpus (60 tasks in 12 groups), 1,000 draws and
/// 5 further splits (the defaults, 10,000 and 20, only take longer).
#[test]
fn stability_synthetic_corpus_text() {
    assert_cmd_snapshot!(run(&[
        "stability",
        "--bootstrap",
        "1000",
        "--splits",
        "5",
        "--profiles",
        "assets/synthetic-trajectories/foundational.csv",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
    ]));
}

#[test]
fn stability_fixture_json() {
    insta::assert_json_snapshot!(json_of(&mut run(&[
        "stability",
        "--json",
        "--bootstrap",
        "200",
        "--splits",
        "5",
        "--profiles",
        "tests/fixtures/foundational-small.csv",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
    ])));
}

// ---------------------------------------------------------------- synth

/// A non-default synthetic table (the default is the committed example,
/// compared byte for byte by `synth_writes_the_example` in cli.rs).
#[test]
fn synth_small_table() {
    assert_cmd_snapshot!(run(&[
        "synth",
        "--seed",
        "7",
        "--families",
        "3",
        "--per-family",
        "2",
        "--foundational",
        "3",
        "--operations",
        "2",
    ]));
}

/// A small corpus with planted instability: what the command prints, then
/// the three files it writes (the default corpus is the committed one,
/// compared byte for byte in trajectories_cli.rs).
#[test]
fn synth_trajectories_small_corpus() {
    let dir = sandbox("synth_trajectories");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    cmd.current_dir(&dir).args([
        "synth-trajectories",
        "--out",
        "corpus",
        "--families",
        "2",
        "--per-family",
        "2",
        "--tasks",
        "4",
        "--groups",
        "2",
        "--instability",
        "3",
    ]);
    assert_cmd_snapshot!(cmd);
    for name in ["foundational.csv", "planted.csv", "trajectories.jsonl"] {
        let text = std::fs::read_to_string(dir.join("corpus").join(name)).unwrap();
        insta::assert_snapshot!(format!("synth_trajectories_small_corpus_{name}"), text);
    }
}

// ---------------------------------------------------------------- tau2

/// Text-mode results files of three domains, a partial run, the τ³ format.
#[test]
fn tau2_check_text() {
    assert_cmd_snapshot!(run(&[
        "tau2",
        "check",
        &tau2(GPT41_AIRLINE),
        &tau2(GPT41_RETAIL),
        &tau2(TELECOM),
        &tau2(DEEPSEEK),
        &tau2("airline/results/whissle-voice__airline_1trial_tau3format.json"),
    ]));
}

/// A bare list checked against the τ³ tasks file.
#[test]
fn tau2_check_bare_list_with_tasks() {
    assert_cmd_snapshot!(run(&[
        "tau2",
        "check",
        "--tasks",
        &tau2("airline/tasks_tau3.json"),
        &tau2(BARE_LIST),
    ]));
}

#[test]
fn tau2_check_json() {
    insta::assert_json_snapshot!(json_of(&mut run(&[
        "tau2",
        "check",
        "--json",
        &tau2(DEEPSEEK),
        &tau2(TELECOM),
    ])));
}

// ---------------------------------------------------------------- evidence

/// The worked set, scored: every episode's verdict and every report table.
#[test]
fn evidence_score_worked_text() {
    assert_cmd_snapshot!(run(&[
        "evidence",
        "score",
        "--cases",
        "assets/evidence/cases.jsonl",
        "--trajectories",
        "assets/evidence/trajectories.jsonl",
    ]));
}

/// Pieces of the JSON report of the worked set (1.2 MB whole): the
/// settings, coverage and paired comparison, and the first two episodes (the
/// shape of an episode; every verdict is in the text snapshot; the whole
/// aggregate is in gapscope-synth's tests/report_snapshots.rs).
#[test]
fn evidence_score_worked_json_pieces() {
    let v = json_of(&mut run(&[
        "evidence",
        "score",
        "--json",
        "--bootstrap",
        "1000",
        "--cases",
        "assets/evidence/cases.jsonl",
        "--trajectories",
        "assets/evidence/trajectories.jsonl",
    ]));
    let mut p = pieces(
        &v,
        &[
            "settings",
            "configs",
            "repetitions",
            "coverage",
            "paired",
            "warnings",
        ],
    );
    let first: Vec<Value> = v["episodes"].as_array().unwrap()[..2].to_vec();
    p.as_object_mut()
        .unwrap()
        .insert("episodes[..2]".into(), Value::Array(first));
    insta::assert_json_snapshot!(p);
}

#[test]
fn evidence_worked_writes() {
    let dir = sandbox("evidence_worked");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    cmd.current_dir(&dir)
        .args(["evidence", "worked", "--out", "worked"]);
    assert_cmd_snapshot!(cmd);
}

/// Proxy labels of a 4-task partial run: the label CSV and the summary.
#[test]
fn evidence_tau2_labels_csv_and_summary() {
    assert_cmd_snapshot!(run(&[
        "evidence",
        "tau2-labels",
        "--summary",
        &tau2(DEEPSEEK),
    ]));
}

#[test]
fn evidence_tau2_labels_json() {
    insta::assert_json_snapshot!(json_of(&mut run(&[
        "evidence",
        "tau2-labels",
        "--json",
        &tau2(DEEPSEEK),
    ])));
}

// ---------------------------------------------------------------- runtime

/// The committed episode log (128 episodes), every table.
#[test]
fn runtime_analyze_committed_log_text() {
    assert_cmd_snapshot!(run(&[
        "runtime",
        "analyze",
        "--episodes",
        "assets/runtime/episodes.jsonl"
    ]));
}

/// Pieces of the JSON report of the committed log (43 kB without episodes):
/// everything but each slice's `trace` and `sweep` (in the text snapshot, and
/// whole for a simulated log in gapscope-synth's tests/report_snapshots.rs).
#[test]
fn runtime_analyze_committed_log_json_pieces() {
    let v = json_of(&mut run(&[
        "runtime",
        "analyze",
        "--json",
        "--no-episodes",
        "--bootstrap",
        "1000",
        "--episodes",
        "assets/runtime/episodes.jsonl",
    ]));
    let mut p = pieces(
        &v,
        &[
            "summary",
            "settings",
            "prng",
            "episodes_read",
            "skipped",
            "verification",
            "episodes",
            "warnings",
        ],
    );
    let slices: Vec<Value> = v["slices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            pieces(
                s,
                &[
                    "key",
                    "name",
                    "episodes",
                    "scored",
                    "caps",
                    "tables",
                    "comparison",
                    "exposure",
                    "warnings",
                ],
            )
        })
        .collect();
    p.as_object_mut()
        .unwrap()
        .insert("slices".into(), Value::Array(slices));
    insta::assert_json_snapshot!(p);
}

/// A tiny simulation (one instance, one cap, two conditions): the log as
/// printed.
#[test]
fn runtime_simulate_tiny() {
    assert_cmd_snapshot!(run(&[
        "runtime",
        "simulate",
        "--instances",
        "1",
        "--caps",
        "5",
        "--items",
        "6",
        "--budget",
        "3",
        "--capacity",
        "15",
        "--max-weight",
        "10",
        "--conditions",
        "PP,PS",
    ]));
}

// ---------------------------------------------------------------- compare

/// Three airline runs (one of 20 tasks): the runs and every pair, as text.
#[test]
fn compare_tau2_airline_text() {
    assert_cmd_snapshot!(run(&[
        "compare",
        &tau2(GPT41_AIRLINE),
        &tau2(SONNET_AIRLINE),
        &tau2(GPTOSS_AIRLINE),
    ]));
}

/// The 4-trial telecom file (5 tasks; by hand: x̄ = 0.8, clustered SE =
/// sqrt(5/4 · (4 · 0.8² + 3.2²)) / 20 = 0.2, flip rate 0, ICC 1) and the
/// same model's airline run, by file: pass^1..4, and a pair with no common
/// task (every number null, both task lists given); as JSON.
#[test]
fn compare_telecom_trials_json() {
    let v = json_of(&mut run(&[
        "compare",
        "--json",
        "--by",
        "file",
        "--bootstrap",
        "2000",
        &tau2(TELECOM),
        &tau2(GPT41_AIRLINE),
    ]));
    let mut v = pieces(&v, &["schema", "settings", "by", "runs", "pairs", "ranks"]);
    // The per-task table of the pair is its own test's; here its length.
    for pair in v["pairs"].as_array_mut().unwrap() {
        let tasks = pair["comparison"]["tasks"].as_array().unwrap().len();
        pair["comparison"]["tasks"] = Value::from(format!("[cut: {tasks} tasks]"));
    }
    insta::assert_json_snapshot!(v);
}

/// Two Inspect AI logs of one model (the `.eval` and the `.json` of the
/// same run design, 3 samples × 2 epochs each): they repeat (task, epoch)
/// pairs, so the model's run is split by file; epochs are trials; the
/// reward is the first scorer's (`match`: C → 1, I → 0).
#[test]
fn compare_two_inspect_logs_text() {
    let shared = |rel: &str| {
        let p = format!("../shared/data/{rel}");
        assert!(
            root().join(&p).is_file(),
            "{p} is missing: these tests need ../shared"
        );
        p
    };
    assert_cmd_snapshot!(run(&[
        "compare",
        &shared("inspect/2026-11-29T16-54-07-00-00_arith-agent_ZKFTMo2fnNsmPRjuUtSfAY.eval"),
        &shared("inspect/2026-11-29T16-54-10-00-00_arith-agent_RUTTu4uSk2DFBUScuc9P9j.json"),
    ]));
}

/// Keys and merges that cannot be read are refused naming the form expected.
#[test]
fn compare_refuses_a_bad_key_and_a_bad_merge() {
    assert_cmd_snapshot!(
        "compare_bad_key",
        run(&["compare", "--by", "task", &tau2(GPT41_AIRLINE)])
    );
    assert_cmd_snapshot!(
        "compare_bad_merge",
        run(&["compare", "--merge", "a,b", &tau2(GPT41_AIRLINE)])
    );
}

/// A Harbor job: the infrastructure error is listed in its model's run and,
/// with `--excluded-as-failures`, counts as a failure of its task.
#[test]
fn compare_harbor_job_excluded_as_failures() {
    let job = "crates/gapscope-data/tests/fixtures/harbor/job-small";
    assert_cmd_snapshot!(run(&[
        "compare",
        "--excluded-as-failures",
        "--bootstrap",
        "1000",
        job
    ]));
}
