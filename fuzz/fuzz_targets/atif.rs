//! ATIF trajectories (`atif::read`) and one Harbor trial folder read
//! through `folder::read_group`. Input: the trajectory, NUL, the trial's
//! `result.json`.
#![no_main]
use std::collections::BTreeMap;

use gapscope_data::formats::folder::{plan, Folder};
use gapscope_data::formats::read_group;
use gapscope_data::formats::{atif, ReadOptions};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

struct Memory(BTreeMap<String, Vec<u8>>);

impl Folder for Memory {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.0.get(path).cloned().ok_or_else(|| path.to_string())
    }
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let _ = atif::read("t/agent/trajectory.json", &common::text(a), &ReadOptions::default());
    let mut files = BTreeMap::new();
    files.insert("job/config.json".to_string(), b"{}".to_vec());
    files.insert("job/t/agent/trajectory.json".to_string(), a.to_vec());
    files.insert("job/t/result.json".to_string(), b.to_vec());
    files.insert("job/t/verifier/reward.txt".to_string(), b"1".to_vec());
    let paths: Vec<String> = files.keys().cloned().collect();
    let p = plan(&paths);
    let mut folder = Memory(files);
    for g in &p.groups {
        let light = ReadOptions {
            light: true,
            ..ReadOptions::default()
        };
        let _ = read_group(g, &mut folder, &ReadOptions::default(), &mut |_, _| {});
        let _ = read_group(g, &mut folder, &light, &mut |_, _| {});
    }
});
