//! Evidence-to-action: case specs and trajectories (`evidence::evaluate`).
//! Input: cases JSONL, NUL, trajectories JSONL, and optionally NUL and a run
//! plan (`RunPlan::parse`; when it parses, evaluated with it). Bootstrap kept
//! small.
#![no_main]
use gapscope_evidence::{evaluate, EvidenceSettings, RunPlan};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (a, rest) = common::split2(data);
    let (b, c) = common::split2(rest);
    let settings = EvidenceSettings {
        bootstrap: 20,
        ..Default::default()
    };
    let _ = evaluate(&common::text(a), &common::text(b), &settings);
    if !c.is_empty() {
        if let Ok(plan) = RunPlan::parse(&common::text(c)) {
            let with_plan = EvidenceSettings {
                plan: Some(plan),
                ..settings
            };
            let _ = evaluate(&common::text(a), &common::text(b), &with_plan);
        }
    }
});
