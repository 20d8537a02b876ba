//! Evidence-to-action: case specs and trajectories (`evidence::evaluate`).
//! Input: cases JSONL, NUL, trajectories JSONL. Bootstrap kept small.
#![no_main]
use gapscope_core::evidence::{evaluate, EvidenceSettings};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let settings = EvidenceSettings {
        bootstrap: 20,
        ..Default::default()
    };
    let _ = evaluate(&common::text(a), &common::text(b), &settings);
});
