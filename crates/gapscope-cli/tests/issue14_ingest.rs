//! Issue 14, items 1, 2 and 8 through the CLI: tasks are (domain, task id);
//! an explicitly named file that yields no trajectory is an error naming why
//! each reader declined it; stability defaults to the spec's 10,000 draws.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::gapscope;

const AIRLINE: &str =
    "../shared/data/tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json";
const RETAIL: &str =
    "../shared/data/tau2/retail/results/gpt-4.1__llm_agent__retail_test40_1trial.json";

fn need_shared() {
    assert!(
        common::root().join(AIRLINE).is_file(),
        "{AIRLINE} is missing: the tests need ../shared beside the clone"
    );
}

#[test]
fn an_airline_and_a_retail_file_share_no_task() {
    need_shared();
    let out = gapscope(&["profiles", "--trajectories", &format!("{AIRLINE},{RETAIL}")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Before the fix: "32 on the 16 tasks every model attempted".
    assert!(
        stderr.contains("0 on the 0 tasks every model attempted used"),
        "{stderr}"
    );
    let csv = String::from_utf8_lossy(&out.stdout);
    // No reward on no common task: both cells are empty, never 68.75 / 93.75.
    for line in csv.lines().skip(1) {
        assert!(line.ends_with(','), "{line}");
    }
    let all = gapscope(&[
        "profiles",
        "--all-tasks",
        "--trajectories",
        &format!("{AIRLINE},{RETAIL}"),
    ]);
    let stderr = String::from_utf8_lossy(&all.stderr);
    assert!(stderr.contains("on the 90 tasks used"), "{stderr}");
}

#[test]
fn files_that_yield_no_trajectory_are_errors_naming_each_reader() {
    need_shared();
    for (file, jsonl_why) in [
        (
            "../shared/data/external/taubench_v1/docent_tb_airline_single.json",
            "canonical JSONL: 1 of 1 non-blank line(s) skipped (first: line 1: column ",
        ),
        (
            "../shared/data/external/tau2/single_simulation/tau2_retail_example_trajectory.json",
            "canonical JSONL: ",
        ),
    ] {
        let out = gapscope(&["profiles", "--trajectories", file]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(
            stderr.starts_with(&format!(
                "error: {file}: no trajectory could be read; each reader declined it: "
            )),
            "{stderr}"
        );
        for reader in [
            jsonl_why,
            "τ²-bench results: ",
            "Inspect AI `.json` log: ",
            "Inspect AI `.eval` log: not a zip archive",
        ] {
            assert!(stderr.contains(reader), "{file}: no `{reader}` in {stderr}");
        }
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_trajectory_without_messages_or_reward_counts_as_read() {
    let dir = tempdir();
    let p = dir.join("bare.jsonl");
    std::fs::write(
        &p,
        "{\"id\": \"a\", \"model\": \"M\", \"task_id\": \"1\"}\n",
    )
    .unwrap();
    let out = gapscope(&["profiles", "--trajectories", p.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 of 1 trajectories have no reward (read, unscored)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 trajectories of 1 models read"),
        "{stderr}"
    );
}

#[test]
fn stability_draws_10000_by_default() {
    let out = gapscope(&[
        "stability",
        "--profiles",
        "assets/synthetic-trajectories/foundational.csv",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
        "--splits",
        "0",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bootstrap"], 10_000);
    assert_eq!(v["macro_definition"], "mean");
}

fn tempdir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!(
        "gapscope-issue14-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}
