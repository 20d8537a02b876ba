//! Claude Code sessions (`claude_code::read`) and Codex rollouts
//! (`codex::read`), then an outcomes CSV (`outcomes::apply_outcomes`) on
//! what they gave. Input: session text, NUL, outcomes CSV.
#![no_main]
use gapscope_data::formats::{claude_code, codex, ReadOptions};
use gapscope_data::outcomes::{apply_outcomes, is_outcomes_csv};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let (session, csv) = (common::text(a), common::text(b));
    let options = ReadOptions::default();
    let _ = is_outcomes_csv(&csv);
    for read in [claude_code::read, codex::read] {
        if let Ok(mut c) = read("rollout-f.jsonl", &session, &options) {
            let _ = apply_outcomes(&mut c, &csv);
        }
    }
});
