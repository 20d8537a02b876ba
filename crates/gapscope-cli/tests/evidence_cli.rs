//! `gapscope evidence`: the text and JSON outputs over the committed worked
//! set, the worked-set writer, and located errors with the file name.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

mod common;
use common::{gapscope, root};

const SCORE: [&str; 6] = [
    "evidence",
    "score",
    "--cases",
    "assets/evidence/cases.jsonl",
    "--trajectories",
    "assets/evidence/trajectories.jsonl",
];

#[test]
fn score_prints_verdicts_and_tables_and_json_agrees() {
    let out = gapscope(&SCORE);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "Episodes (verdict, failure type, where)",
        "W-CP-L-1/careful/r0",
        "unscored (infrastructure failure)",
        "Coverage (scored / planned",
        "P-M",
        "Failure decomposition",
        "Investigation effort",
        "Paired comparison Scripted / Careful − Scripted / Hasty over 42 cases planned on both",
        "clustered exact McNemar",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in\n{text}");
    }
    let mut args = SCORE.to_vec();
    args.push("--json");
    let out = gapscope(&args);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cases"].as_array().unwrap().len(), 42);
    assert_eq!(v["episodes"].as_array().unwrap().len(), 816);
    // The text's headline row (V0–V3) shows the JSON's Δ in points.
    let rows = v["paired"][0]["rows"].as_array().unwrap();
    let h = rows.iter().find(|r| r["headline"] == true).unwrap();
    let d = h["paired"]["delta"].as_f64().unwrap();
    assert!(
        text.contains(&format!("Δ {:+.1} points", 100.0 * d)),
        "{text}"
    );
}

#[test]
fn worked_writes_the_committed_files() {
    let dir = std::env::temp_dir().join(format!("gapscope-evidence-{}", std::process::id()));
    let out = gapscope(&["evidence", "worked", "--out", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["cases.jsonl", "trajectories.jsonl"] {
        let written = std::fs::read(dir.join(name)).unwrap();
        let committed = std::fs::read(root().join("assets/evidence").join(name)).unwrap();
        assert!(
            written == committed,
            "{name} differs from the committed copy"
        );
    }
}

#[test]
fn errors_name_the_file_and_the_place() {
    let dir = std::env::temp_dir().join(format!("gapscope-evidence-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = dir.join("cases.jsonl");
    std::fs::write(
        &cases,
        r#"{"case_id": "x", "protocol": "V1", "domain": "d", "terminal": "ACT", "tools": {"consequential": [{"name": "t"}]}, "actions": [{"id": "a1", "tool": "t", "requires": ["r9"]}]}"#,
    )
    .unwrap();
    let out = gapscope(&[
        "evidence",
        "score",
        "--cases",
        cases.to_str().unwrap(),
        "--trajectories",
        "assets/evidence/trajectories.jsonl",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cases.jsonl: case `x` (line 1), actions[0].requires[0]: unknown requirement id `r9` (requirements: none)"),
        "{err}"
    );
    let mut args = SCORE.to_vec();
    args.extend(["--pair", "Scripted / Careful"]);
    let out = gapscope(&args);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pair: expected A,B"));
}
