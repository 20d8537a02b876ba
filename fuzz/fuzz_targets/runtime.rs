//! Runtime episode logs (`runtime::analyze`). Bootstrap kept small; a second
//! run pools every slice field and scores by the verifier.
#![no_main]
use gapscope_runtime::{analyze, RuntimeSettings, ScoreSource, SliceDim};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let text = common::text(data);
    let settings = RuntimeSettings {
        bootstrap: 20,
        ..Default::default()
    };
    if analyze(&text, &settings).is_ok() {
        let pooled = RuntimeSettings {
            score: ScoreSource::Verified,
            pool: vec![
                SliceDim::TaskFamily,
                SliceDim::BaseModel,
                SliceDim::Seed,
                SliceDim::Rollout,
            ],
            ..settings
        };
        let _ = analyze(&text, &pooled);
    }
});
