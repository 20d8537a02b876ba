//! Parquet trajectory datasets (`formats::parquet`, the `parquet` feature)
//! through `read_any_bytes`, whole and light. The `parquet` crate asserts on
//! some damaged files instead of returning an error; gapscope catches those
//! panics and refuses the file (natively), so a panic raised inside the
//! `parquet` crate is let through to that catch, and any other panic (in
//! gapscope's own code) aborts: a crash here is gapscope's.
#![no_main]
use gapscope_data::formats::{detect_bytes, read_any_bytes, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        std::panic::set_hook(Box::new(|info| {
            let in_parquet = info
                .location()
                .is_some_and(|l| l.file().contains("/parquet-"));
            if !in_parquet {
                eprintln!("{info}");
                std::process::abort();
            }
        }));
    },
    |data: &[u8]| {
        // Every input is made a Parquet file (the magic at both ends).
        let mut bytes = b"PAR1".to_vec();
        bytes.extend_from_slice(data);
        if !data.ends_with(b"PAR1") {
            bytes.extend_from_slice(b"PAR1");
        }
        let _ = detect_bytes(&bytes);
        let _ = read_any_bytes("fuzz.parquet", &bytes, &ReadOptions::default());
        let _ = read_any_bytes(
            "fuzz.parquet",
            &bytes,
            &ReadOptions {
                light: true,
                model: Some("m".into()),
                ..Default::default()
            },
        );
    }
);
