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
    // A side file of a τ³ directory (no reader takes it; the τ-bench v1 and
    // single-simulation files this test used are read since issue 16).
    for (file, jsonl_why) in [(
        "../shared/data/external/tau2/voice_dir_fixture/expected_metrics.json",
        "canonical JSONL: 19 of 19 non-blank line(s) skipped (first: line 1: column 1: ",
    )] {
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
            "the other readers (τ³ simulation, τ-bench v1, ATIF, SWE-agent, mini-swe-agent, Gemini CLI, OpenHands, Claude Code, Codex): a JSON object with `response_latency_mean`, ",
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
    // Run in full, 10,000 draws take over a minute in a debug build: the
    // default is read from the help, and a short run says its draws and macro.
    let help = gapscope(&["stability", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    let line = text
        .lines()
        .skip_while(|l| !l.contains("--bootstrap"))
        .take(4)
        .collect::<String>();
    assert!(line.contains("[default: 10000]"), "{text}");
    let out = gapscope(&[
        "stability",
        "--profiles",
        "assets/synthetic-trajectories/foundational.csv",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
        "--splits",
        "0",
        "--bootstrap",
        "20",
        "--macro",
        "pooled",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bootstrap"], 20);
    assert_eq!(v["macro_definition"], "pooled");
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

#[test]
fn a_file_given_twice_counts_once_unless_kept() {
    need_shared();
    let dir = tempdir();
    let copy = dir.join("copy.json");
    std::fs::copy(common::root().join(AIRLINE), &copy).unwrap();
    let both = format!("{AIRLINE},{}", copy.display());
    let out = gapscope(&["profiles", "--trajectories", &both]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Before the fix: 100 trajectories, every one counted twice.
    assert!(
        stderr.contains("50 trajectories of 1 models read"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "note: {}: 50 trajectories repeat those of {AIRLINE} (the same τ²-bench simulation ids); counted once",
            copy.display()
        )),
        "{stderr}"
    );
    let kept = gapscope(&["profiles", "--keep-repeats", "--trajectories", &both]);
    let stderr = String::from_utf8_lossy(&kept.stderr);
    assert!(
        stderr.contains("100 trajectories of 1 models read"),
        "{stderr}"
    );
}
