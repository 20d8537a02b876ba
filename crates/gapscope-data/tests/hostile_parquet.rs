//! Hostile Parquet files (issue 16): truncated files, wrong column types, a
//! zstd file, no rows, a null messages list, a missing `instance_id`, a
//! flipped byte in every position of a small file: each a located `Err` or
//! a skipped row, never a panic. The files of `tests/fixtures/parquet/hostile/`
//! are written by `scripts/make-parquet-fixtures.py`; truncations and flipped
//! bytes are made here.

#![cfg(feature = "parquet")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::{read_any_bytes, Corpus, ReadOptions};

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/parquet")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(bytes: &[u8]) -> Result<Corpus, String> {
    read_any_bytes("x.parquet", bytes, &ReadOptions::default())
}

#[test]
fn truncated_files_are_refused_as_unreadable() {
    let whole = data("canonical_snappy.parquet");
    for cut in [4, 8, whole.len() / 2, whole.len() - 1] {
        let e = read(&whole[..cut]).unwrap_err();
        assert!(
            e.starts_with("not a readable Parquet file: "),
            "cut at {cut}: {e}"
        );
    }
    // The bare magic: still Parquet, still unreadable.
    let e = read(b"PAR1").unwrap_err();
    assert!(e.starts_with("not a readable Parquet file"), "{e}");
}

#[test]
fn wrong_column_types_name_the_column_and_the_type_expected() {
    let e = read(&data("hostile/messages_int.parquet")).unwrap_err();
    assert_eq!(
        e,
        "column `messages`: expected a list of structs {role, content, tool_calls?, tool_call_id?}, or a string of such a list in JSON, found INT64"
    );
    let e = read(&data("hostile/instance_id_list.parquet")).unwrap_err();
    assert_eq!(
        e,
        "column `instance_id`: expected a string or an integer (the task id), found a list of string"
    );
}

#[test]
fn a_zstd_file_says_why_it_is_not_read() {
    let e = read(&data("hostile/zstd.parquet")).unwrap_err();
    assert!(
        e.starts_with(
            "column `instance_id` (row group 0) is zstd-compressed, which gapscope does not read"
        ),
        "{e}"
    );
    assert!(e.contains("compression=\"snappy\""), "{e}");
}

#[test]
fn a_file_without_rows_or_without_a_task_column_is_an_error() {
    let e = read(&data("hostile/no_rows.parquet")).unwrap_err();
    assert_eq!(e, "no rows: the file holds a schema and no trajectory");
    let e = read(&data("hostile/no_instance_id.parquet")).unwrap_err();
    assert_eq!(
        e,
        "no `instance_id` column (the task of each row); the file's columns are `task`, `model_name`, `messages`"
    );
}

#[test]
fn a_null_messages_list_and_a_message_without_role_skip_their_rows() {
    let c = read(&data("hostile/null_messages.parquet")).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert_eq!(c.trajectories[0].task_id, "a");
    let skipped: Vec<String> = c.skipped.iter().map(ToString::to_string).collect();
    assert_eq!(
        skipped,
        [
            "row 1: `messages` is null (expected a list of messages)",
            "row 2: messages[0]: no `role`"
        ]
    );
}

#[test]
fn a_flipped_byte_anywhere_never_panics() {
    // Every third byte of a small file, each replaced by two values; the reader
    // may read it (a byte of a string), skip rows, or refuse it, located.
    // (canonical_plain.parquet, every byte: 15,189 read, 5,352 refused, 117
    // refused after a decoder panic; two minutes in a debug build, so the
    // test flips every third byte of the smaller file.)
    let name = "nebius_swe_agent.parquet";
    let (read, refused, panicked) = flip_every_byte(&data(name));
    eprintln!("{name}: {read} read, {refused} refused, {panicked} refused after a decoder panic");
}

/// (read, refused, refused after the decoder panicked) over every flip.
fn flip_every_byte(whole: &[u8]) -> (usize, usize, usize) {
    let mut out = (0, 0, 0);
    for at in (0..whole.len()).step_by(3) {
        for v in [0x00, 0xff] {
            let mut b = whole.to_vec();
            b[at] = v;
            match read(&b) {
                Ok(c) => {
                    assert!(!c.trajectories.is_empty());
                    out.0 += 1;
                }
                Err(e) if e.contains("the Parquet decoder stopped") => out.2 += 1,
                Err(e) => {
                    assert!(!e.is_empty());
                    out.1 += 1;
                }
            }
        }
    }
    out
}

#[test]
fn a_decoder_panic_is_a_refusal_that_says_so() {
    // Byte 7 of this file (in its first data page's header) set to 0 makes
    // the parquet crate assert instead of returning an error; natively the
    // panic is caught. The page's browser test (tests/e2e/parquet.test.mjs)
    // gives the worker the same damaged bytes.
    let mut b = data("canonical_snappy.parquet");
    b[7] = 0;
    let e = read(&b).unwrap_err();
    assert_eq!(
        e,
        "a damaged Parquet file: the Parquet decoder stopped on it (assertion failed: size <= src.len())"
    );
}
