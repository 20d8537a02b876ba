//! `gapscope evidence tau2-labels`: proxy labels of shared τ²-bench files as
//! a label CSV that `gapscope profiles` applies (docs/proxy-labels.md).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::gapscope;

const CLAUDE: &str =
    "../shared/data/tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json";
const OSS: &str =
    "../shared/data/tau2/airline/results/gpt-oss-120b__langchain-agent__airline_1trial.json";

#[test]
fn labels_feed_the_profiles_command() {
    let out = gapscope(&["evidence", "tau2-labels", CLAUDE, OSS, "--summary"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("trajectory_id,operation,requirement,label,turn,why\n"));
    // The summary goes to stderr, one block per file.
    assert!(stderr.contains("not the paper's annotations"), "{stderr}");
    assert!(stderr.contains(&format!(
        "{OSS} — model openai/gpt-oss-120b — 50 simulations"
    )));
    // gpt-oss: 44 of 50 episodes ended by a stop (5 max_steps, 1
    // too_many_errors; SOURCE.md): TM rows 50, mean 0.880, score 88.0.
    assert!(
        stderr.contains("  TM     50        50       0.880        50   88.0\n"),
        "{stderr}"
    );

    let dir = std::env::temp_dir().join(format!("gapscope-proxy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let labels = dir.join("labels.csv");
    std::fs::write(&labels, &csv).unwrap();
    let out = gapscope(&[
        "profiles",
        "--all-tasks",
        "--trajectories",
        &format!("{CLAUDE},{OSS}"),
        "--labels",
        labels.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let mut lines = table.lines();
    assert_eq!(
        lines.next(),
        Some("model,family,ST,AS,RC,TM,n_ST,n_AS,n_RC,n_TM,reward")
    );
    let oss = lines
        .find(|l| l.starts_with("openai/gpt-oss-120b,"))
        .unwrap()
        .split(',')
        .collect::<Vec<_>>();
    // TM 88 over 50 eligible; reward 19 of 50 passed = 38 (SOURCE.md).
    assert_eq!((oss[5], oss[9], oss[10]), ("88", "50", "38"));
    for cell in &oss[2..6] {
        if !cell.is_empty() {
            let v: f64 = cell.parse().unwrap();
            assert!((0.0..=100.0).contains(&v), "{table}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_the_file() {
    let dir = std::env::temp_dir().join(format!("gapscope-proxy-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"simulations": [{"task_id": 3}]}"#).unwrap();
    let out = gapscope(&["evidence", "tau2-labels", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(
        e.contains(&format!(
            "{}: line 1, column 30: not a τ²-bench results file: invalid type: integer `3`, expected a string",
            bad.display()
        )),
        "{e}"
    );
    let out = gapscope(&[
        "evidence",
        "tau2-labels",
        CLAUDE,
        "--write",
        "x",
        "--read",
        "x",
    ]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("tool `x` is given as both state-changing and read-only"));
    std::fs::remove_dir_all(&dir).unwrap();
}
