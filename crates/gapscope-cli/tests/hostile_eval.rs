//! Zip bombs and inputs that never end, through the CLI under a memory limit
//! (issue 14; docs/limits.md "Inspect `.eval` archives" and "Input files").
//! Each archive is built here into a temporary folder (never committed) and
//! `gapscope profiles --trajectories FILE` runs under `prlimit --as` (1 GiB
//! of address space) inside a generous `timeout` (a hang guard, not a timing
//! assertion); the test asserts the located message and exit status 1.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

#[path = "../../gapscope-data/tests/support/zip_build.rs"]
mod zip_build;
use zip_build::{sample, zip, Member, HEADER};

const AS_LIMIT: &str = "--as=1073741824";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gapscope-hostile-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `gapscope profiles --trajectories PATH` under the memory limit and the hang guard.
fn profiles_limited(path: &str) -> Output {
    Command::new("timeout")
        .args(["300", "prlimit", AS_LIMIT, env!("CARGO_BIN_EXE_gapscope")])
        .args(["profiles", "--trajectories", path])
        .output()
        .unwrap()
}

/// The run ended with exit status 1 and `error: PATH: …` as its last line.
fn refused(out: &Output, path: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let last = stderr.trim_end().lines().last().unwrap_or("").to_string();
    let prefix = format!("error: {path}: ");
    assert!(last.starts_with(&prefix), "{stderr}");
    last[prefix.len()..].to_string()
}

fn write(name: &str, bytes: &[u8]) -> String {
    let p = temp(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

fn header() -> Member {
    Member::stored("header.json", HEADER.as_bytes())
}

fn one_sample() -> Member {
    Member::stored("samples/1_epoch_1.json", sample("1", "C").as_bytes())
}

/// 24 entries on one deflate member of 896 MiB (≈ 5.6 MB on disk; the issue's
/// was 917 KB with a denser encoder): refused from the directory.
#[test]
fn overlapping_entries_are_refused_under_a_memory_limit() {
    let big = Member::deflate_zeros("samples/0_epoch_1.json", 896 << 20, 896 << 20);
    let names: Vec<String> = (1..24)
        .map(|k| format!("samples/{k}_epoch_1.json"))
        .collect();
    let aliases: Vec<(&str, usize)> = names.iter().map(|n| (n.as_str(), 1)).collect();
    let path = write("overlap.eval", &zip(&[header(), big], &aliases));
    let msg = refused(&profiles_limited(&path), &path);
    std::fs::remove_file(&path).unwrap();
    assert!(
        msg.starts_with("entries `samples/0_epoch_1.json` (bytes ")
            && msg
                .ends_with("overlap: an archive whose entries share bytes is refused (a zip bomb)"),
        "{msg}"
    );
}

/// A header entry that declares 1,000 bytes and whose deflate stream
/// inflates to 2 GiB (13 MB on disk): stops at byte 1,001.
#[test]
fn a_deflate_member_inflating_past_its_entry_is_refused_under_a_memory_limit() {
    let bomb = Member::deflate_zeros("header.json", 1000, 2 << 30);
    let path = write("deflate-bomb.eval", &zip(&[bomb, one_sample()], &[]));
    assert_eq!(
        refused(&profiles_limited(&path), &path),
        "header.json: decompresses to more than the 1000 bytes its entry declares"
    );
    std::fs::remove_file(&path).unwrap();
}

/// A zstd member whose frame (and entry) declares 1 GiB, held in 32 KB of RLE
/// blocks: the ratio refuses it before decoding; with the entry declaring
/// 1,000 bytes, decoding stops at byte 1,001.
#[test]
fn a_zstd_frame_declaring_1_gib_is_refused_under_a_memory_limit() {
    let both = Member::zstd_zeros("header.json", 1 << 30, Some(1 << 30), 1 << 30);
    let raw = both.raw.len() as u64;
    let path = write("zstd-1gib.eval", &zip(&[both, one_sample()], &[]));
    assert_eq!(
        refused(&profiles_limited(&path), &path),
        format!(
            "header.json: declares 1073741824 bytes decompressed from {raw} compressed ({}:1), more than the 1000:1 read",
            (1u64 << 30) / raw
        )
    );
    std::fs::remove_file(&path).unwrap();
    let entry = Member::zstd_zeros("header.json", 1000, Some(1 << 30), 1 << 30);
    let path = write("zstd-entry-1000.eval", &zip(&[entry, one_sample()], &[]));
    assert_eq!(
        refused(&profiles_limited(&path), &path),
        "header.json: decompresses to more than the 1000 bytes its entry declares"
    );
    std::fs::remove_file(&path).unwrap();
}

/// Honest large members: five samples of 900 MiB each (deflate, ≈ 5.7 MB
/// each on disk, 165:1), 4.4 GiB in all: the 4 GiB total refuses the log
/// before any is decompressed.
#[test]
fn honest_large_members_beyond_4_gib_in_all_are_refused_under_a_memory_limit() {
    let mut members = vec![header()];
    for k in 1..=5 {
        members.push(Member::deflate_zeros(
            &format!("samples/{k}_epoch_1.json"),
            900 << 20,
            900 << 20,
        ));
    }
    let path = write("large.eval", &zip(&members, &[]));
    assert_eq!(
        refused(&profiles_limited(&path), &path),
        format!(
            "the 6 members read (header and samples) declare {} bytes decompressed in all, more than the 4294967296 bytes (4 GiB) read from one log",
            5 * (900u64 << 20) + HEADER.len() as u64
        )
    );
    std::fs::remove_file(&path).unwrap();
}

/// `/dev/zero` and `/dev/urandom` never end: under 1 GiB of address space the
/// read stops with a located message (the 4 GiB input cap is not reached; the
/// cap itself is tested in the CLI's unit tests, src/input.rs).
#[test]
fn devices_that_never_end_stop_with_a_located_message_under_a_memory_limit() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        let msg = refused(&profiles_limited(dev), dev);
        assert!(
            msg.starts_with("out of memory reading the file: "),
            "{dev}: {msg}"
        );
    }
}
