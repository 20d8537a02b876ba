//! Trajectories read twice count once (issue 14 item 7): the files' own
//! identities decide (τ²-bench simulation id; Inspect eval id, sample id and
//! epoch; canonical id and model; else the file's bytes), never equal content.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::ingest::{read_inputs, Messages, TrajectoryOptions};

fn shared(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e} (the tests need ../shared)", p.display()))
}

fn count(files: &[(&str, Vec<u8>)], keep: bool) -> (usize, Vec<String>) {
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(n, b)| (n.to_string(), b.clone()))
        .collect();
    let options = TrajectoryOptions {
        keep_repeats: keep,
        ..Default::default()
    };
    let inputs = read_inputs(&files, &options, &Messages::Counts).unwrap();
    (inputs.corpus.trajectories.len(), inputs.notes)
}

const AIRLINE: &str = "tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json";

#[test]
fn the_same_results_file_under_two_names_counts_once() {
    let bytes = shared(AIRLINE);
    let (one, _) = count(&[("a.json", bytes.clone())], false);
    let (n, notes) = count(
        &[("a.json", bytes.clone()), ("copy.json", bytes.clone())],
        false,
    );
    assert_eq!(n, one);
    let warned: Vec<&String> = notes.iter().filter(|n| n.contains("repeat")).collect();
    assert_eq!(
        warned,
        [&format!("copy.json: {one} trajectories repeat those of a.json (the same τ²-bench simulation ids); counted once (keep repeats to count them again)")]
    );
    // Kept when asked, still said.
    let (n, notes) = count(&[("a.json", bytes.clone()), ("copy.json", bytes)], true);
    assert_eq!(n, 2 * one);
    assert!(
        notes.iter().any(|n| n.contains("kept, as asked")),
        "{notes:?}"
    );
}

#[test]
fn inspect_logs_repeat_by_eval_id_not_by_content() {
    let eval = shared("inspect/2026-11-29T16-54-07-00-00_arith-agent_ZKFTMo2fnNsmPRjuUtSfAY.eval");
    let json = shared("inspect/2026-11-29T16-54-10-00-00_arith-agent_RUTTu4uSk2DFBUScuc9P9j.json");
    let (ne, _) = count(&[("run.eval", eval.clone())], false);
    let (nj, _) = count(&[("run.json", json.clone())], false);
    // Two runs with the same content: never merged.
    let (n, notes) = count(&[("run.eval", eval.clone()), ("run.json", json)], false);
    assert_eq!(n, ne + nj);
    assert!(!notes.iter().any(|n| n.contains("repeat")), "{notes:?}");
    // One run twice: counted once.
    let (n, notes) = count(&[("run.eval", eval.clone()), ("again.eval", eval)], false);
    assert_eq!(n, ne);
    assert!(
        notes.iter().any(|n| n
            == &format!("again.eval: {ne} trajectories repeat those of run.eval (the same Inspect eval id, sample ids and epochs); counted once (keep repeats to count them again)")),
        "{notes:?}"
    );
}

#[test]
fn canonical_lines_repeat_by_id_and_model() {
    let a = br#"{"id": "t1", "model": "M1", "task_id": "x", "reward": 1}
{"id": "t2", "model": "M1", "task_id": "y", "reward": 0}
"#
    .to_vec();
    // Same ids, one with another model: only t1/M1 repeats.
    let b = br#"{"id": "t1", "model": "M1", "task_id": "x", "reward": 1}
{"id": "t2", "model": "M2", "task_id": "y", "reward": 0}
"#
    .to_vec();
    let (n, notes) = count(&[("a.jsonl", a), ("b.jsonl", b)], false);
    assert_eq!(n, 3);
    assert!(
        notes.iter().any(|n| n
            == "b.jsonl: 1 trajectory repeats those of a.jsonl (the same trajectory ids and models); counted once (keep repeats to count them again)"),
        "{notes:?}"
    );
}

#[test]
fn files_without_identities_repeat_only_when_byte_identical() {
    // A τ²-bench list whose simulations carry no `id`.
    let list = br#"[{"task_id": "1", "trial": 0, "reward_info": {"reward": 1.0}, "messages": []},
 {"task_id": "2", "trial": 0, "reward_info": {"reward": 0.0}, "messages": []}]"#
        .to_vec();
    let mut other = list.clone();
    other.push(b'\n'); // the same simulations, another file
    let (n, notes) = count(&[("a.json", list.clone()), ("b.json", list.clone())], false);
    assert_eq!(n, 2, "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n
                .contains("b.json: 2 trajectories repeat those of a.json (byte-identical files)")),
        "{notes:?}"
    );
    let (n, _) = count(&[("a.json", list), ("b.json", other)], false);
    assert_eq!(n, 4);
}
