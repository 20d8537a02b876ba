//! Canonical trajectories JSONL through `trajectory::read_jsonl`, then the
//! operation profile (both subsets) and its CSV, read back as a profile.
#![no_main]
use gapscope_data::formats::read_jsonl;
use gapscope_data::operations::{operation_profile, ProfileOptions};
use gapscope_data::{ProfileTable, RoleOverrides};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let text = common::text(data);
    let corpus = read_jsonl(&text);
    for all_tasks in [false, true] {
        let p = operation_profile(
            &corpus.trajectories,
            &ProfileOptions {
                all_tasks,
                ..Default::default()
            },
        );
        // The profile's CSV reads back (the join reads it) unless it is empty.
        if !p.models.is_empty() {
            let back = ProfileTable::read(&p.to_csv(), &RoleOverrides::default());
            assert!(back.is_ok(), "{:?}\n{}", back.err(), p.to_csv());
        }
    }
});
