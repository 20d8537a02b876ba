//! Inspect AI `.eval` logs (zip bytes) through `read_any_bytes` and
//! `inspect::read_eval` with every score choice kind.
#![no_main]
use gapscope_data::formats::inspect::{read_eval, ScoreChoice};
use gapscope_data::formats::{read_any_bytes, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = read_any_bytes("log.eval", data, &ReadOptions::default());
    for choice in ["accuracy", "match", "first"] {
        if let Ok(c) = ScoreChoice::parse(choice) {
            let _ = read_eval("log.eval", data, None, &c);
        }
    }
});
