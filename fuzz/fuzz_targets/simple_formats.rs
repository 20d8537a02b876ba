//! The readers of τ-bench v1, SWE-agent, mini-swe-agent, Gemini CLI and
//! OpenHands (events, `output.jsonl`), called directly (past the detector):
//! the first byte chooses the reader, the rest is the text; then the same
//! bytes through `read_any_bytes` (light and whole).
#![no_main]
use gapscope_data::formats::{
    gemini_cli, openhands, read_any_bytes, swe_agent, taubench_v1, ReadOptions,
};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = common::text(rest);
    let o = ReadOptions::default();
    let _ = match which % 6 {
        0 => taubench_v1::read("f.json", &text, &o),
        1 => swe_agent::read_swe_agent("f.traj", &text, &o),
        2 => swe_agent::read_mini("f.json", &text, &o),
        3 => gemini_cli::read("f.json", &text, &o),
        4 => openhands::read_events("f.json", &text, &o),
        _ => openhands::read_output("f.jsonl", &text, &o),
    };
    let light = ReadOptions {
        light: true,
        ..ReadOptions::default()
    };
    let _ = read_any_bytes("f", rest, &light);
    let _ = read_any_bytes("f", rest, &o);
});
