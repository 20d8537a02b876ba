//! τ³ simulation files (`tau3::read_simulation`, full and light) and a τ³
//! results directory read through an in-memory folder (`tau3::read_group`:
//! `results.json` and one simulation file), then the grading comparison.
//! Input: simulation, NUL, results.json.
#![no_main]
use std::collections::BTreeMap;

use gapscope_data::formats::folder::{Folder, FolderFormat, Group};
use gapscope_data::formats::{tau3, ReadOptions};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

struct Mem(BTreeMap<String, Vec<u8>>);

impl Folder for Mem {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.0.get(path).cloned().ok_or_else(|| path.to_string())
    }
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let sim = common::text(a);
    let light = ReadOptions {
        light: true,
        ..ReadOptions::default()
    };
    let mut gradings = Vec::new();
    for o in [ReadOptions::default(), light] {
        if let Ok(c) = tau3::read_simulation("s.json", &sim, &o) {
            assert_eq!(c.trajectories.len(), 1);
            gradings.extend(c.grading);
        }
    }
    let mut files = BTreeMap::new();
    files.insert("r/results.json".to_string(), b.to_vec());
    files.insert("r/simulations/s1.json".to_string(), a.to_vec());
    let group = Group {
        format: FolderFormat::Tau3Results,
        root: "r".into(),
        members: files.keys().cloned().collect(),
    };
    let mut folder = Mem(files);
    let mut last = (0, 0);
    if let Ok(c) = tau3::read_group(&group, &mut folder, &ReadOptions::default(), &mut |d, n| {
        assert!(d <= n && d > last.0);
        last = (d, n);
    }) {
        assert!(!c.trajectories.is_empty());
        gradings.extend(c.grading);
    }
    let _ = tau3::grading_warnings(&gradings);
});
