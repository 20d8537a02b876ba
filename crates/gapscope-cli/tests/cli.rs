//! The CLI's behaviour as a user meets it: formats agree, fallbacks are
//! labelled, bad parameters are refused with a message.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

mod common;
use common::{gapscope, root};

fn json(args: &[&str]) -> Value {
    let out = gapscope(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gapscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn csv_and_json_forms_give_the_same_report() {
    let a = json(&[
        "report",
        "--json",
        "--profiles",
        "tests/fixtures/profiles-small.csv",
    ]);
    let b = json(&[
        "report",
        "--json",
        "--profiles",
        "tests/fixtures/profiles-small.json",
    ]);
    assert_eq!(a, b);
    assert_eq!(
        a["operations"]["RC"]["excluded"],
        serde_json::json!(["Delta Two"])
    );
    assert!(a["operations"]["RC"]["gap"][6].is_null());
}

#[test]
fn two_families_fall_back_to_leave_one_model_out_labelled() {
    let path = temp_file(
        "two.csv",
        "model,family,TU,RE,GI\na,X,1,2,3\nb,X,2,1,4\nc,Y,3,5,4\nd,Y,4,3,6\n",
    );
    let v = json(&["report", "--json", "--profiles", path.to_str().unwrap()]);
    assert_eq!(v["folds"]["kind"], "model");
    assert_eq!(v["folds"]["ids"], serde_json::json!(["a", "b", "c", "d"]));
    assert!(v["warnings"][0]
        .as_str()
        .unwrap()
        .contains("leave-one-model-out"));
    let text =
        String::from_utf8(gapscope(&["report", "--profiles", path.to_str().unwrap()]).stdout)
            .unwrap();
    assert!(
        text.contains("held out by model (leave-one-model-out)"),
        "{text}"
    );
}

#[test]
fn role_flags_assign_columns() {
    let path = temp_file(
        "roles.csv",
        "model,family,math,code,plan,success\na,X,1,2,3,0.1\nb,Y,2,1,4,0.5\nc,Z,3,5,4,0.3\nd,W,4,3,6,0.9\n",
    );
    let p = path.to_str().unwrap();
    let out = gapscope(&["report", "--profiles", p]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no foundational dimensions"));
    let v = json(&[
        "report",
        "--json",
        "--profiles",
        p,
        "--foundational",
        "math,code",
        "--operations",
        "plan",
        "--outcome",
        "success",
    ]);
    assert_eq!(
        v["dimensions"]["foundational"],
        serde_json::json!(["math", "code"])
    );
    assert_eq!(v["dimensions"]["operations"], serde_json::json!(["plan"]));
    assert!(v["summary"]
        .as_str()
        .unwrap()
        .contains("reward (column `success`) read as fractions"));
}

#[test]
fn bad_parameters_are_refused() {
    let out = gapscope(&[
        "report",
        "--profiles",
        "tests/fixtures/profiles-small.csv",
        "--alpha",
        "0",
    ]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: --alpha: alpha must be a finite number greater than 0, got 0"
    );
    let out = gapscope(&["report", "--profiles", "no/such/file.csv"]);
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: no/such/file.csv: "));
    let path = temp_file("latin1.csv", "");
    std::fs::write(&path, b"model,family,TU\nm\xe9,A,1\n").unwrap();
    let out = gapscope(&["report", "--profiles", path.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not UTF-8 text (invalid byte at offset 17)")
    );
}

#[test]
fn synth_seed_zero_is_the_embedded_example() {
    let out = gapscope(&["synth"]);
    let committed = std::fs::read_to_string(root().join("assets/synthetic-example.csv")).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), committed);
    let other = gapscope(&["synth", "--seed", "7"]);
    assert!(other.status.success());
    assert_ne!(other.stdout, committed.as_bytes());
}

/// The documented contract (docs/report.md): every key the issue lists is there.
#[test]
fn report_has_every_documented_key() {
    let v = json(&[
        "report",
        "--json",
        "--bootstrap",
        "200",
        "--profiles",
        "assets/synthetic-example.csv",
    ]);
    let has = |path: &str| {
        let mut cur = &v;
        for part in path.split('.') {
            cur = cur
                .get(part)
                .unwrap_or_else(|| panic!("missing key `{path}` (at `{part}`)"));
        }
        cur.clone()
    };
    for key in [
        "models",
        "dimensions.foundational",
        "dimensions.operations",
        "correlations.pearson",
        "correlations.spearman",
        "correlations.n",
        "folds.kind",
        "folds.ids",
        "macro.definition",
        "macro.observed",
        "macro.predicted",
        "macro.gap",
        "macro.q2",
        "macro.mae",
        "macro.rmse",
        "macro.spearman",
        "macro.baseline_mae",
        "outcome.baseline.mae",
        "outcome.baseline.rmse",
        "outcome.baseline.q2",
        "outcome.nested.predictors",
        "outcome.nested.chosen_alpha",
        "outcome.nested.spearman",
        "outcome.nested.mae",
        "outcome.nested.rmse",
        "outcome.nested.q2",
        "sensitivity.alphas",
        "settings.alpha",
        "settings.bootstrap",
        "settings.seed",
        "settings.prng",
    ] {
        has(key);
    }
    for op in ["GI", "ST", "PL", "AS", "PM", "RC", "TM"] {
        for k in [
            "predicted",
            "gap",
            "q2",
            "mae",
            "rmse",
            "spearman",
            "ci95.q2",
        ] {
            has(&format!("operations.{op}.{k}"));
        }
        assert_eq!(
            has(&format!("operations.{op}.ci95.q2"))
                .as_array()
                .unwrap()
                .len(),
            2
        );
    }
    for p in ["F", "O", "F+O"] {
        for k in [
            "predicted",
            "spearman",
            "mae",
            "rmse",
            "q2",
            "ci95.mae",
            "ci95.rmse",
            "ci95.q2",
        ] {
            has(&format!("outcome.{p}.{k}"));
        }
        for k in ["mae", "spearman", "q2"] {
            assert_eq!(
                has(&format!("sensitivity.{p}.{k}"))
                    .as_array()
                    .unwrap()
                    .len(),
                25
            );
        }
    }
    for d in ["F+O - F", "O - F", "F+O - O"] {
        let diff = &v["differences"][d];
        for k in ["mae", "rmse", "q2"] {
            assert!(
                diff.get(k).is_some() && diff["ci95"].get(k).is_some(),
                "differences.{d}.{k}"
            );
        }
    }
    assert_eq!(v["folds"]["kind"], "family");
    assert_eq!(v["settings"]["bootstrap"], 200);
    // Without a reward column there is no outcome, difference or sensitivity;
    // with B = 0 there are no intervals.
    let path = temp_file(
        "noreward.csv",
        "model,family,TU,GI\na,A,1,2\nb,B,2,3\nc,C,3,5\nd,C,4,4\n",
    );
    let v = json(&[
        "report",
        "--json",
        "--bootstrap",
        "0",
        "--profiles",
        path.to_str().unwrap(),
    ]);
    for key in ["outcome", "differences", "sensitivity"] {
        assert!(v.get(key).is_none(), "{key} without a reward");
    }
    assert!(v["operations"]["GI"].get("ci95").is_none());
}

#[test]
fn profile_files_join_on_model() {
    // The same data split into two files gives the same numbers; a model missing
    // from one file is kept, named, and has no value from that file.
    let whole = json(&[
        "report",
        "--json",
        "--bootstrap",
        "0",
        "--profiles",
        "tests/fixtures/profiles-small.csv",
    ]);
    let out = gapscope(&[
        "report",
        "--json",
        "--bootstrap",
        "0",
        "--profiles",
        "tests/fixtures/split-foundational.csv,tests/fixtures/split-operations.csv",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("note: not in tests/fixtures/split-operations.csv: Gamma One"));
    let split: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(split["summary"]
        .as_str()
        .unwrap()
        .ends_with("(joined on model from 2 files)"));
    assert_eq!(split["models"], whole["models"]);
    let g = whole["models"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m == "Gamma One")
        .unwrap();
    assert!(split["operations"]["GI"]["observed"][g].is_null());
    assert_eq!(
        split["operations"]["GI"]["excluded"],
        serde_json::json!(["Gamma One"])
    );
    // Without Gamma One the fits differ; with the same rows they agree: compare TU × GI's n.
    assert_eq!(split["correlations"]["n"][0][0], 6);
    let out = gapscope(&[
        "report",
        "--profiles",
        "tests/fixtures/split-foundational.csv",
        "--profiles",
        "tests/fixtures/split-foundational.csv",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("column `TU` is in both"));
}

/// tests/fixtures/trajectories-small.jsonl, by hand (common tasks t1, t2; A1's
/// t3 is outside the subset):
/// A1 GI (1, 0) → 50; PL (0.5, 1) → 75; RC (null, 1) → 100 over 1; reward 50.
/// B1 GI (0.5, 1) → 75; PL (0, 0.5) → 25; RC (0, null) → 0 over 1; reward 100.
/// C1 GI (0, 0.5) → 25; PL (0.5, 0.5) → 50; RC (1, 0.5) → 75; reward 0.
/// D1 GI (1, 1) → 100; PL (1, 0) → 50; RC (1, 0) → 50; reward 50.
#[test]
fn operation_profiles_from_trajectories() {
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "model,family,GI,PL,RC,n_GI,n_PL,n_RC,reward\n\
         A1,North,50,75,100,2,2,1,50\n\
         B1,South,75,25,0,2,2,1,100\n\
         C1,unknown,25,50,75,2,2,2,0\n\
         D1,West,100,50,50,2,2,2,50\n"
    );
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("9 trajectories of 4 models read; 8 on the 2 tasks every model attempted used"));
    // All tasks: A1 adds t3 (GI 1, PL 1, RC 1, reward 1).
    let v = json(&[
        "profiles",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
        "--all-tasks",
        "--json",
    ]);
    for (got, want) in
        v["scores"][0]
            .as_array()
            .unwrap()
            .iter()
            .zip([200.0 / 3.0, 250.0 / 3.0, 100.0])
    {
        assert!(
            (got.as_f64().unwrap() - want).abs() < 1e-12,
            "{got} vs {want}"
        );
    }
    assert_eq!(v["eligible"][0], serde_json::json!([3, 3, 2]));
    // The whole analysis from trajectories joined with a foundational file;
    // C1's trajectories name no family, so it takes East from the profile file.
    let r = json(&[
        "report",
        "--json",
        "--bootstrap",
        "0",
        "--profiles",
        "tests/fixtures/foundational-small.csv",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
    ]);
    assert_eq!(
        r["families"],
        serde_json::json!(["North", "South", "East", "West"])
    );
    assert_eq!(
        r["operations"]["PL"]["observed"],
        serde_json::json!([75.0, 25.0, 50.0, 50.0])
    );
    assert_eq!(
        r["outcome"]["observed"],
        serde_json::json!([50.0, 100.0, 0.0, 50.0])
    );
}

#[test]
fn malformed_trajectory_lines_are_reported_and_skipped() {
    let path = temp_file(
        "bad.jsonl",
        "{\"id\": \"a\", \"model\": \"M\", \"task_id\": \"x\", \"labels\": {\"GI\": [1]}}\n{oops\n{\"id\": \"b\", \"model\": \"M\", \"task_id\": \"y\", \"labels\": {\"GI\": [2]}}\n",
    );
    let out = gapscope(&["profiles", "--trajectories", path.to_str().unwrap()]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2: column 2: key must be a string (skipped)"),
        "{err}"
    );
    assert!(err.contains("line 3: trajectory `b`, operation GI, requirement 1: label 2 is not 0, 0.5, 1 or null (skipped)"), "{err}");
    assert!(
        err.contains("2 line(s) skipped, 1 trajectories read"),
        "{err}"
    );
}

/// Every shared τ²-bench file: the recorded action checks are reproduced
/// M/M, and the toolorchestra file's simulations are reported as checked
/// against other tasks (spec: formats.md; ../shared/data/tau2/SOURCE.md).
#[test]
fn tau2_check_reproduces_every_recorded_action_check() {
    let dir = root().join("../shared/data/tau2");
    assert!(
        dir.is_dir(),
        "{} is missing: the tests need ../shared beside the clone",
        dir.display()
    );
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().contains("/results/")
                && p.extension().is_some_and(|x| x == "json")
            {
                files.push(p);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 13, "{files:?}");
    let mut args = vec!["tau2".to_string(), "check".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("1203/1203 recorded action checks reproduced\n"),
        "{text}"
    );
    // The τ³ file ran another airline task set than the v1 files (SOURCE.md: 11 of 50 tasks changed).
    assert!(text.contains("whissle-voice__airline_1trial_tau3format.json ran different task sets of airline: 11 of their 50 shared task ids"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("warning:") && !l.contains("whissle")),
        "only the τ³ file differs"
    );
    let orchestra = text.lines().find(|l| l.contains("toolorchestra")).unwrap();
    assert!(
        orchestra.contains("43 of 43 simulations differ from the task their task_id names"),
        "{orchestra}"
    );
    assert_eq!(
        text.matches(" 0 of ").count(),
        11,
        "every other file with tasks agrees"
    );
    // The bare-list file was run on the τ³ task set: given it, every simulation agrees.
    let bare = files
        .iter()
        .find(|f| f.to_string_lossy().contains("BARE_LIST"))
        .unwrap();
    let tau3 = json(&[
        "tau2",
        "check",
        "--json",
        "--tasks",
        dir.join("airline/tasks_tau3.json").to_str().unwrap(),
        bare.to_str().unwrap(),
    ]);
    assert_eq!(
        tau3["files"][0]["report"]["mislabelled"],
        serde_json::json!([])
    );
    let v1 = json(&[
        "tau2",
        "check",
        "--json",
        "--tasks",
        dir.join("airline/tasks_v1.json").to_str().unwrap(),
        bare.to_str().unwrap(),
    ]);
    assert_eq!(
        v1["files"][0]["report"]["mislabelled"]
            .as_array()
            .unwrap()
            .len(),
        11
    );
}

/// τ²-bench results files give trajectories: reward per model from
/// `reward_info.reward` (SOURCE.md: gpt-4.1 test20 10/20 pass, adaptive agent
/// 49/50), the model from the file's metadata or --model.
#[test]
fn tau2_files_give_reward_profiles() {
    let dir = root().join("../shared/data/tau2/airline/results");
    assert!(
        dir.is_dir(),
        "{} is missing: the tests need ../shared beside the clone",
        dir.display()
    );
    let gpt = dir.join("gpt-4.1__llm_agent__airline_test20_1trial.json");
    let out = gapscope(&["profiles", "--trajectories", gpt.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "model,family,reward\ngpt-4.1,unknown,50\n"
    );
    let bare = dir.join("adaptive-agent-opus-4-6__airline_1trial_BARE_LIST.json");
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        bare.to_str().unwrap(),
        "--model",
        "opus (adaptive)",
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "model,family,reward\nopus (adaptive),unknown,98\n"
    );
}

#[test]
fn stability_runs_from_trajectories_with_groups() {
    let v = json(&[
        "stability",
        "--json",
        "--bootstrap",
        "20",
        "--splits",
        "4",
        "--profiles",
        "tests/fixtures/foundational-small.csv",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
    ]);
    assert_eq!(v["distinct_splits"], 1, "two groups make one partition");
    assert_eq!(
        v["half_a"].as_array().unwrap().len() + v["half_b"].as_array().unwrap().len(),
        2
    );
    for k in ["GI", "PL", "RC", "macro"] {
        assert!(v["stability"].get(k).is_some(), "{k}");
    }
    let out = gapscope(&[
        "stability",
        "--profiles",
        "tests/fixtures/foundational-small.csv",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
        "--half-a",
        "nope",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("group `nope` given for half A is not among the scenario groups"));
}

#[test]
fn models_can_be_renamed_and_merged() {
    // The toolorchestra file's metadata names the wrong model; rename it.
    let f = root()
        .join("../shared/data/tau2/airline/results/toolorchestra__airline_1trial_trimmed.json");
    assert!(
        f.is_file(),
        "{} is missing: the tests need ../shared beside the clone",
        f.display()
    );
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        f.to_str().unwrap(),
        "--rename",
        "gpt-4.1-mini-2025-04-14=ToolOrchestra (gpt-5)",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("model,family,reward\nToolOrchestra (gpt-5),unknown,56"),
        "{text}"
    );
    // Two models merged into one pool their trajectories.
    let v = json(&[
        "profiles",
        "--json",
        "--all-tasks",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
        "--rename",
        "A1=AB",
        "--rename",
        "B1=AB",
    ]);
    assert_eq!(v["models"], serde_json::json!(["AB", "C1", "D1"]));
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
        "--rename",
        "A1",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--rename: expected OLD=NEW, got `A1`"));
}
