//! The committed synthetic trajectory corpus (`assets/synthetic-trajectories/`)
//! must be exactly what the generator makes with the default parameters. If
//! this fails, regenerate it:
//! `cargo run -p gapscope-cli -- synth-trajectories --out assets/synthetic-trajectories`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::formats::read_jsonl;
use gapscope_synth::trajectories::{generate, TrajParams};

const COMMAND: &str =
    "gapscope synth-trajectories --seed 0 --tasks 60 --groups 12 --trials 1 --instability 0";

fn committed(name: &str) -> String {
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/synthetic-trajectories")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Stays a byte comparison, not an insta snapshot: the committed file is itself what the page, the worker, the tests and the docs read, and a `.snap` would be a second copy of it behind a header.
#[test]
fn committed_corpus_is_current() {
    let c = generate(&TrajParams::default()).unwrap();
    for (name, text) in c.files(COMMAND).unwrap() {
        assert!(
            committed(&name) == text,
            "assets/synthetic-trajectories/{name} is stale: run \
             `cargo run -p gapscope-cli -- synth-trajectories --out assets/synthetic-trajectories`"
        );
    }
}

#[test]
fn committed_corpus_reads_back() {
    let c = generate(&TrajParams::default()).unwrap();
    let mut read = read_jsonl(&committed("trajectories.jsonl"));
    assert!(read.skipped.is_empty());
    // The reader notes each line's identity (model, id); the generator does not.
    for t in &mut read.trajectories {
        assert_eq!(
            t.source_id.take(),
            Some(format!("jsonl\u{1f}{}\u{1f}{}", t.model, t.id))
        );
    }
    assert_eq!(read.trajectories, c.trajectories);
    let f = gapscope_data::ProfileTable::read(&committed("foundational.csv"), &Default::default())
        .unwrap();
    assert_eq!(f.models, c.foundational.models);
    assert_eq!(f.foundational, c.foundational.foundational);
    // planted.csv: 15 rows; the macro column is the mean of the 7 operations.
    let planted = committed("planted.csv");
    let rows: Vec<Vec<String>> = planted
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 15);
    for r in &rows {
        let v: Vec<f64> = r[2..].iter().map(|x| x.parse().unwrap()).collect();
        let mean = v[..7].iter().sum::<f64>() / 7.0;
        assert!((v[7] - mean).abs() < 1e-9);
    }
}
