//! Determinism (issue 8, part 3): the same input, settings and seed give
//! byte-identical JSON on the same platform. Each command runs twice, as two
//! separate processes, so anything that varies between runs (std's
//! per-process `HashMap` seeds, thread order, the clock) would show up as a
//! byte difference. A different seed must change the bytes, so the comparison
//! is known to see a difference when there is one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The command's standard output; fails the test on a non-zero exit.
fn run(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gapscope {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !out.stdout.is_empty(),
        "gapscope {}: no output",
        args.join(" ")
    );
    out.stdout
}

/// Two runs of `args` print the same bytes.
fn assert_repeatable(args: &[&str]) -> Vec<u8> {
    let first = run(args);
    let second = run(args);
    if first != second {
        let at = first
            .iter()
            .zip(&second)
            .position(|(a, b)| a != b)
            .unwrap_or(first.len().min(second.len()));
        let from = at.saturating_sub(80);
        panic!(
            "gapscope {}: two runs differ at byte {at}:\n{}\n---\n{}",
            args.join(" "),
            String::from_utf8_lossy(&first[from..(at + 80).min(first.len())]),
            String::from_utf8_lossy(&second[from..(at + 80).min(second.len())]),
        );
    }
    first
}

#[test]
fn report_json_is_byte_identical_across_runs() {
    let args = [
        "report",
        "--profiles",
        "assets/synthetic-example.csv",
        "--json",
    ];
    let bytes = assert_repeatable(&args);
    // It is the full report: bootstrap intervals, nested selection, sensitivity.
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(v["settings"]["bootstrap"], 10_000);
    assert!(v["operations"]["PL"]["ci95"]["q2"].is_array());
    assert!(v["outcome"]["nested"]["chosen_alpha"].is_object());
    // Another seed changes the bootstrap intervals, hence the bytes.
    let mut other = args.to_vec();
    other.extend(["--seed", "1"]);
    assert_ne!(run(&other), bytes, "the seed must matter");
}

#[test]
fn report_json_with_a_pair_and_trajectories_is_byte_identical() {
    assert_repeatable(&[
        "report",
        "--profiles",
        "tests/fixtures/profiles-small.csv",
        "--bootstrap",
        "1000",
        "--seed",
        "7",
        "--pair",
        "CE:RC",
        "--provider",
        "West",
        "--json",
    ]);
    assert_repeatable(&[
        "report",
        "--profiles",
        "assets/synthetic-trajectories/foundational.csv",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
        "--macro",
        "pooled",
        "--json",
    ]);
}

#[test]
fn profiles_and_stability_json_are_byte_identical() {
    assert_repeatable(&[
        "profiles",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
        "--json",
    ]);
    assert_repeatable(&[
        "stability",
        "--profiles",
        "assets/synthetic-trajectories/foundational.csv",
        "--trajectories",
        "assets/synthetic-trajectories/trajectories.jsonl",
        // Fewer draws and splits than the defaults: seconds, not minutes, in
        // a debug build; still a seeded split and a seeded bootstrap.
        "--bootstrap",
        "20",
        "--splits",
        "2",
        "--json",
    ]);
}

#[test]
fn evidence_json_is_byte_identical() {
    let args = [
        "evidence",
        "score",
        "--cases",
        "assets/evidence/cases.jsonl",
        "--trajectories",
        "assets/evidence/trajectories.jsonl",
        "--json",
    ];
    let bytes = assert_repeatable(&args);
    let mut other = args.to_vec();
    other.extend(["--seed", "1"]);
    assert_ne!(run(&other), bytes, "the seed must matter");
}

#[test]
fn runtime_simulation_and_analysis_are_byte_identical() {
    let sim = [
        "runtime",
        "simulate",
        "--instances",
        "3",
        "--caps",
        "5,60",
        "--seed",
        "4",
    ];
    let log = assert_repeatable(&sim);
    let mut other = sim.to_vec();
    other[7] = "5";
    assert_ne!(run(&other), log, "the seed must matter");
    assert_repeatable(&[
        "runtime",
        "analyze",
        "--episodes",
        "assets/runtime/episodes.jsonl",
        "--bootstrap",
        "500",
        "--json",
    ]);
}
