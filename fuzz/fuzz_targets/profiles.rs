//! Profile files (CSV or JSON) through `ProfileTable::read` and the shared
//! entry point `join::read_profiles_with` (one file, then the same bytes as
//! two files, which joins them).
#![no_main]
use gapscope_data::ingest::{read_profiles_with, TrajectoryOptions};
use gapscope_data::profile::{RewardScale, RoleOverrides};
use gapscope_data::ProfileTable;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let text = common::text(a);
    for scale in [RewardScale::Auto, RewardScale::Fraction] {
        let o = RoleOverrides {
            reward_scale: scale,
            ..Default::default()
        };
        if let Ok(t) = ProfileTable::read(&text, &o) {
            let _ = t.summary();
            // Whatever was read writes back as CSV that reads again (CSV
            // assigns roles by name, so the roles are given).
            let again = ProfileTable::read(
                &t.to_csv(),
                &RoleOverrides {
                    foundational: Some(t.foundational.names.clone()),
                    operations: Some(t.operations.names.clone()),
                    reward_scale: RewardScale::Percent,
                    ..Default::default()
                },
            );
            match again {
                Ok(b) => {
                    assert_eq!(b.models, t.models);
                    assert_eq!(b.families, t.families);
                    assert_eq!(b.foundational.names, t.foundational.names);
                    assert_eq!(b.operations, t.operations);
                }
                Err(e) => panic!("to_csv of a read table does not read: {e}"),
            }
        }
    }
    let opts = TrajectoryOptions::default();
    let _ = read_profiles_with(
        &[("a.csv".to_string(), a)],
        &RoleOverrides::default(),
        &opts,
    );
    if !b.is_empty() {
        let _ = read_profiles_with(
            &[("a.csv".to_string(), a), ("b.csv".to_string(), b)],
            &RoleOverrides::default(),
            &opts,
        );
    }
});
