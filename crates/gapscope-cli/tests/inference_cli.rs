//! `gapscope report --json --inference`: the report's keys are the plain
//! report's, unchanged, and `inference` holds what the library computes on
//! the same table (gapscope_gaps::inference::infer), with the gap
//! intervals from the trajectories behind the scores.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use gapscope_data::formats::read_any;
use gapscope_data::operations::{operation_samples, ProfileOptions};
use serde_json::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn run(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn inference_adds_one_key_and_equals_the_library() {
    let args = [
        "report",
        "--profiles",
        "assets/synthetic-trajectories/foundational.csv",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
        "--json",
        "--bootstrap",
        "300",
    ];
    let plain = run(&args);
    let mut with: Vec<&str> = args.to_vec();
    with.extend([
        "--inference",
        "--permutations",
        "199",
        "--delta-permutations",
        "29",
    ]);
    let mut full = run(&with);
    let inference = full.as_object_mut().unwrap().remove("inference").unwrap();
    assert_eq!(full, plain, "the report itself is unchanged");

    // The library on the table the report carries, and the trajectories' samples.
    let report: gapscope_gaps::Report = serde_json::from_value(plain).unwrap();
    let settings = gapscope_gaps::Settings {
        bootstrap: 300,
        ..gapscope_gaps::Settings::default()
    };
    let text = std::fs::read_to_string(format!(
        "{ROOT}/assets/synthetic-trajectories/trajectories.jsonl"
    ))
    .unwrap();
    let corpus = read_any("trajectories.jsonl", &text, None).unwrap();
    let samples = operation_samples(&corpus.trajectories, &ProfileOptions::default());
    let want =
        gapscope_gaps::inference::infer(&report.input, &settings, &report, Some(&samples), 199, 29)
            .unwrap();
    assert_eq!(inference, serde_json::to_value(&want).unwrap());
    let gaps = &inference["gap_intervals"]["operations"]["PL"];
    assert_eq!(gaps.as_array().unwrap().len(), report.models.len());
    assert!(gaps[0][0].as_f64().unwrap() < gaps[0][1].as_f64().unwrap());
    assert_eq!(inference["permutations"]["permutations"], 199);
    assert_eq!(inference["delta_q2"]["permutations"], 29);
}

#[test]
fn inference_needs_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args([
            "report",
            "--profiles",
            "assets/synthetic-example.csv",
            "--inference",
        ])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json"));
}
