//! Label CSVs (`trajectory::apply_label_csv`) applied to trajectories read
//! from the first part of the input (JSONL, then NUL, then the label CSV).
#![no_main]
use gapscope_data::formats::read_jsonl;
use gapscope_data::labels::apply_label_csv;
use gapscope_data::operations::{operation_profile, ProfileOptions};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let mut corpus = read_jsonl(&common::text(a));
    if apply_label_csv(&mut corpus, &common::text(b)).is_ok() {
        let _ = operation_profile(&corpus.trajectories, &ProfileOptions::default());
    }
});
