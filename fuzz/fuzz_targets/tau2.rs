//! τ²-bench results (`tau2::read_results`) and tasks (`tau2::read_tasks`),
//! then `tau2::check` and the conversion to trajectories. Input: results,
//! NUL, tasks.
#![no_main]
use gapscope_data::formats::tau2;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let tasks = tau2::read_tasks(&common::text(b)).ok();
    if let Ok(r) = tau2::read_results(&common::text(a)) {
        let _ = tau2::check(&r, None);
        if let Some(t) = &tasks {
            let _ = tau2::check(&r, Some(t));
        }
        let _ = tau2::domain(&r);
        let _ = tau2::task_set_warnings(&[("a".into(), &r), ("b".into(), &r)]);
        let _ = tau2::to_trajectories(&r, "m", "f.json");
    }
});
