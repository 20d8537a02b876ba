//! `scripts/bench-evidence.sh` (or `cargo bench -p gapscope-evidence --bench score`)
//!
//! Issue 20's benchmark row: scoring 10,000 episodes — the worked set's
//! trajectories (`assets/evidence/`) replicated with fresh ids and
//! repetitions until there are at least 10,000 — through `evaluate`, the
//! entry point the CLI and the page's worker call: every episode scored,
//! every table, the paired comparisons and the intervention analyses. Once
//! with B = 0 (no bootstrap), once with the default B = 10,000. Beside it,
//! measured in the same run, a plain reference: parsing the same JSONL into
//! `serde_json::Value`s (the least any reader does). Speed is read here; no
//! timing is asserted anywhere. The browser row is
//! `node scripts/bench-evidence-browser.mjs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use gapscope_evidence::{evaluate, EvidenceSettings};
use serde_json::Value;

/// At least this many episodes.
pub const EPISODES: usize = 10_000;

fn median_s(mut f: impl FnMut(), reps: usize) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

/// The worked set's trajectories, copied with ids `…/xK` and repetitions
/// shifted by K × (max + 1), until at least [`EPISODES`] lines.
fn replicated(lines: &str) -> String {
    let base: Vec<Value> = lines
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let span = base
        .iter()
        .map(|v| v["repetition"].as_u64().unwrap())
        .max()
        .unwrap()
        + 1;
    let copies = EPISODES.div_ceil(base.len());
    let mut out = String::new();
    for k in 0..copies {
        for v in &base {
            let mut v = v.clone();
            v["id"] = Value::from(format!("{}/x{k}", v["id"].as_str().unwrap()));
            v["repetition"] = Value::from(v["repetition"].as_u64().unwrap() + k as u64 * span);
            out.push_str(&v.to_string());
            out.push('\n');
        }
    }
    out
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/evidence");
    let cases = std::fs::read_to_string(root.join("cases.jsonl")).unwrap();
    let trajectories =
        replicated(&std::fs::read_to_string(root.join("trajectories.jsonl")).unwrap());
    let n = trajectories.lines().count();
    let mb = trajectories.len() as f64 / 1e6;
    let parse = median_s(
        || {
            for l in trajectories.lines() {
                black_box(serde_json::from_str::<Value>(l).unwrap());
            }
        },
        5,
    );
    let at = |draws: usize| EvidenceSettings {
        bootstrap: draws,
        ..Default::default()
    };
    let mut report = None;
    let score0 = median_s(
        || report = Some(black_box(evaluate(&cases, &trajectories, &at(0)).unwrap())),
        5,
    );
    let score = median_s(
        || {
            black_box(evaluate(&cases, &trajectories, &at(10_000)).unwrap());
        },
        3,
    );
    let r = report.unwrap();
    println!(
        "evidence score: {n} episodes ({mb:.1} MB of JSONL, {} sides, {} cases), native",
        r.sides.len(),
        r.cases.len()
    );
    println!(
        "  reference: parse every line to serde_json::Value   {:>9.1} ms",
        parse * 1e3
    );
    println!(
        "  evaluate, B = 0 (score + every table)             {:>9.1} ms  ({:.1}× the reference; {:.1} µs per episode)",
        score0 * 1e3,
        score0 / parse,
        score0 / n as f64 * 1e6
    );
    println!(
        "  evaluate, B = 10,000 (the default)                {:>9.1} ms  ({:.1}× the reference)",
        score * 1e3,
        score / parse
    );
}
