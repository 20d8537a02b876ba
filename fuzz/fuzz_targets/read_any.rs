//! Any trajectory file by its bytes (`trajectory::read_any_bytes`): format
//! detection, canonical JSONL, τ²-bench results, Inspect `.json` and `.eval`.
#![no_main]
use gapscope_data::formats::{detect_bytes, read_any_bytes, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = detect_bytes(data);
    let _ = read_any_bytes("fuzz.json", data, &ReadOptions::default());
    let _ = read_any_bytes(
        "fuzz.json",
        data,
        &ReadOptions {
            model: Some("m".into()),
            ..Default::default()
        },
    );
});
