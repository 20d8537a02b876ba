//! Hostile Inspect `.eval` archives at the core (issue 14, items 11 and the zip
//! bombs; docs/limits.md "Inspect `.eval` archives"): damaged members, entries
//! that overlap, members that inflate past what their entry declares, zstd
//! frames that declare more than they hold, and the size and ratio limits.
//! Every archive is built here (tests/support/zip_build.rs), never committed.
//! The same bombs through the CLI, under a memory limit, are in
//! crates/gapscope-cli/tests/hostile_eval.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Cursor, Read};
use std::path::PathBuf;

use gapscope_data::formats::inspect::{MAX_MEMBER_BYTES, MAX_RATIO, MAX_TOTAL_BYTES};
use gapscope_data::formats::{read_any_bytes, Corpus, ReadOptions};

#[path = "support/zip_build.rs"]
mod zip_build;
use zip_build::{sample, zip, Member, HEADER};

const ARITH_EVAL: &str = "2026-11-29T16-54-07-00-00_arith-agent_ZKFTMo2fnNsmPRjuUtSfAY.eval";

fn read(bytes: &[u8]) -> Result<Corpus, String> {
    read_any_bytes("x.eval", bytes, &ReadOptions::default())
}

fn skipped(c: &Corpus) -> Vec<String> {
    c.skipped
        .iter()
        .map(std::string::ToString::to_string)
        .collect()
}

/// The members of a real archive as they are stored (raw bytes, method,
/// declared size and CRC), read with the `zip` crate.
fn real_members(name: &str) -> Vec<Member> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/inspect")
        .join(name);
    let bytes = std::fs::read(&path).expect("the tests need ../shared beside this clone");
    let mut z = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index_raw(i).unwrap();
            let mut raw = Vec::new();
            f.read_to_end(&mut raw).unwrap();
            Member {
                name: f.name().to_string(),
                method: match f.compression() {
                    zip::CompressionMethod::Stored => 0,
                    zip::CompressionMethod::Deflated => 8,
                    _ => 93,
                },
                raw,
                size: f.size() as u32,
                crc: f.crc32(),
            }
        })
        .collect()
}

/// `None`: no such trajectory; `Some(None)`: its reward is missing.
#[allow(
    clippy::option_option,
    reason = "the two absences are what the tests tell apart"
)]
fn reward_of(c: &Corpus, id: &str) -> Option<Option<f64>> {
    c.trajectories.iter().find(|t| t.id == id).map(|t| t.reward)
}

const ADD2: &str = "arith_agent:add-2:epoch1@mockllm/model";

/// Item 11: a zstd member whose bytes decode cleanly to something else than
/// was written — here the score `"I"` of sample add-2 epoch 1 became `"C"` —
/// is caught by the entry's CRC-32 and skipped, named; the other samples read.
/// Before the fix it was read silently with reward 1 instead of 0.
#[test]
fn a_changed_zstd_member_is_caught_by_its_crc_and_named() {
    let members = real_members(ARITH_EVAL);
    // The archive rebuilt as it is reads as the original: add-2 scored "I" → 0.
    let c = read(&zip(&members, &[])).unwrap();
    assert_eq!(c.trajectories.len(), 6);
    assert_eq!(reward_of(&c, ADD2), Some(Some(0.0)));
    // The member's text with the score flipped, in zstd raw blocks, the
    // entry's CRC and size kept (the same length: one byte changed).
    let k = members
        .iter()
        .position(|m| m.name == "samples/add-2_epoch_1.json")
        .unwrap();
    let mut text = Vec::new();
    ruzstd::decoding::StreamingDecoder::new(&members[k].raw[..])
        .unwrap()
        .read_to_end(&mut text)
        .unwrap();
    let at = text
        .windows(20)
        .position(|w| w == br#""match":{"value":"I""#)
        .unwrap();
    text[at + 18] = b'C';
    let mut flipped = members.clone();
    flipped[k] = Member {
        crc: members[k].crc,
        ..Member::zstd_raw(&members[k].name, &text)
    };
    let c = read(&zip(&flipped, &[])).unwrap();
    assert_eq!(reward_of(&c, ADD2), None, "the damaged sample is not read");
    assert_eq!(c.trajectories.len(), 5);
    let crc_now = zip_build::crc32(&text);
    assert_eq!(
        skipped(&c),
        [format!(
            "samples/add-2_epoch_1.json: the decompressed data's CRC-32 is {crc_now:08x}, its entry declares {:08x}: the member is damaged",
            members[k].crc
        )]
    );
    // With its true CRC the same member is honest and reads as "C" → 1.
    flipped[k].crc = crc_now;
    let c = read(&zip(&flipped, &[])).unwrap();
    assert_eq!(reward_of(&c, ADD2), Some(Some(1.0)));
}

/// Every method's CRC is checked: stored and deflate too; a damaged header
/// refuses the log.
#[test]
fn stored_and_deflate_members_are_checked_too() {
    let mut s = Member::stored("samples/1_epoch_1.json", sample("1", "I").as_bytes());
    let at = s.raw.windows(3).position(|w| w == b"\"I\"").unwrap();
    s.raw[at + 1] = b'C';
    let d = Member {
        crc: 1,
        ..Member::deflate_zeros("samples/2_epoch_1.json", 300, 300)
    };
    let ok = Member::stored("samples/3_epoch_1.json", sample("3", "C").as_bytes());
    let h = Member::stored("header.json", HEADER.as_bytes());
    let c = read(&zip(&[h.clone(), s.clone(), d, ok.clone()], &[])).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    let msgs = skipped(&c);
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs[0].starts_with("samples/1_epoch_1.json: the decompressed data's CRC-32 is "),
        "{msgs:?}"
    );
    assert_eq!(
        msgs[1],
        format!(
            "samples/2_epoch_1.json: the decompressed data's CRC-32 is {:08x}, its entry declares 00000001: the member is damaged",
            zip_build::crc32(&[0; 300])
        )
    );
    let mut bad = h;
    bad.raw[3] ^= 0x20;
    let e = read(&zip(&[bad, ok], &[])).unwrap_err();
    assert!(
        e.starts_with("header.json: the decompressed data's CRC-32 is "),
        "{e}"
    );
}

/// A 1 MiB-on-disk-ish archive whose 24 sample entries all point at the same
/// deflate member: refused before anything is decompressed.
#[test]
fn entries_that_overlap_are_refused() {
    let h = Member::stored("header.json", HEADER.as_bytes());
    let big = Member::deflate_zeros("samples/0_epoch_1.json", 64 << 20, 64 << 20);
    let names: Vec<String> = (1..24)
        .map(|k| format!("samples/{k}_epoch_1.json"))
        .collect();
    let aliases: Vec<(&str, usize)> = names.iter().map(|n| (n.as_str(), 1)).collect();
    let bytes = zip(&[h, big], &aliases);
    let e = read(&bytes).unwrap_err();
    let start = HEADER.len() as u64 + 30 + 11;
    assert!(
        e.starts_with(&format!("entries `samples/0_epoch_1.json` (bytes {start}–"))
            && e.contains("and `samples/1_epoch_1.json` (from byte ")
            && e.ends_with("overlap: an archive whose entries share bytes is refused (a zip bomb)"),
        "{e}"
    );
}

/// The deflate row of the issue at a smaller scale: an entry that declares
/// 1,000 bytes whose stream inflates to 256 MiB stops at byte 1,001. In the
/// header the log is refused; in a sample the sample is skipped.
#[test]
fn a_member_inflating_past_its_declared_size_stops_there() {
    let h = Member::stored("header.json", HEADER.as_bytes());
    let ok = Member::stored("samples/3_epoch_1.json", sample("3", "C").as_bytes());
    let bomb = Member::deflate_zeros("samples/1_epoch_1.json", 1000, 256 << 20);
    let c = read(&zip(&[h.clone(), bomb, ok.clone()], &[])).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert_eq!(
        skipped(&c),
        ["samples/1_epoch_1.json: decompresses to more than the 1000 bytes its entry declares"]
    );
    let bomb = Member::deflate_zeros("header.json", 1000, 256 << 20);
    let e = read(&zip(&[bomb, ok.clone()], &[])).unwrap_err();
    assert_eq!(
        e,
        "header.json: decompresses to more than the 1000 bytes its entry declares"
    );
    // Fewer bytes than declared is said too.
    let short = Member {
        crc: zip_build::crc32(&[0; 10]),
        ..Member::deflate_zeros("samples/1_epoch_1.json", 20, 10)
    };
    let c = read(&zip(&[h, short, ok], &[])).unwrap();
    assert_eq!(
        skipped(&c),
        ["samples/1_epoch_1.json: decompresses to 10 bytes, its entry declares 20"]
    );
}

/// zstd frames that declare 1 GiB: the frame's content size is not trusted
/// (never allocated); the entry's size bounds what is decoded.
#[test]
fn a_zstd_frame_declaring_1_gib_is_not_trusted() {
    let h = Member::stored("header.json", HEADER.as_bytes());
    let ok = Member::stored("samples/3_epoch_1.json", sample("3", "C").as_bytes());
    // The frame says 1 GiB and holds 1 GiB of RLE blocks (32 KB); the entry says 1,000.
    let bomb = Member::zstd_zeros("samples/1_epoch_1.json", 1000, Some(1 << 30), 1 << 30);
    let c = read(&zip(&[h.clone(), bomb, ok.clone()], &[])).unwrap();
    assert_eq!(
        skipped(&c),
        ["samples/1_epoch_1.json: decompresses to more than the 1000 bytes its entry declares"]
    );
    // The frame says 1 GiB and holds 100 bytes; the entry says 100.
    let liar = Member {
        crc: zip_build::crc32(&[0; 100]),
        ..Member::zstd_zeros("samples/1_epoch_1.json", 100, Some(1 << 30), 100)
    };
    let c = read(&zip(&[h.clone(), liar, ok.clone()], &[])).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert_eq!(skipped(&c).len(), 1, "{:?}", skipped(&c));
    assert!(
        skipped(&c)[0].starts_with("samples/1_epoch_1.json: zstd data could not be decoded"),
        "{:?}",
        skipped(&c)
    );
    // Entry and frame both say 1 GiB from 32 KB: the ratio refuses it.
    let both = Member::zstd_zeros("samples/1_epoch_1.json", 1 << 30, Some(1 << 30), 1 << 30);
    let raw = both.raw.len();
    let e = read(&zip(&[h, both, ok], &[])).unwrap_err();
    assert_eq!(
        e,
        format!(
            "samples/1_epoch_1.json: declares 1073741824 bytes decompressed from {raw} compressed ({}:1), more than the {MAX_RATIO}:1 read",
            (1u64 << 30) / raw as u64
        )
    );
}

/// The limits on what the entries declare, checked before decompressing:
/// 1 GiB a member, 1,000:1, 4 GiB in all the members read. Members that are
/// not read (here `_journal/big.json`) are never decompressed nor counted.
#[test]
fn declared_sizes_beyond_the_limits_are_refused_before_decompressing() {
    let h = Member::stored("header.json", HEADER.as_bytes());
    let ok = Member::stored("samples/3_epoch_1.json", sample("3", "C").as_bytes());
    let garbage = |name: &str, size: u64, raw: usize| Member {
        name: name.into(),
        method: 8,
        raw: vec![0xFF; raw],
        size: size as u32,
        crc: 0,
    };
    let e = read(&zip(
        &[
            h.clone(),
            garbage("samples/1_epoch_1.json", MAX_MEMBER_BYTES + 1, 2 << 20),
        ],
        &[],
    ))
    .unwrap_err();
    assert_eq!(
        e,
        format!("samples/1_epoch_1.json: declares {} bytes decompressed, more than the {MAX_MEMBER_BYTES} bytes (1 GiB) read from one member", MAX_MEMBER_BYTES + 1)
    );
    let e = read(&zip(
        &[
            h.clone(),
            garbage("samples/1_epoch_1.json", 600 << 20, 100_000),
        ],
        &[],
    ))
    .unwrap_err();
    assert_eq!(e, format!("samples/1_epoch_1.json: declares {} bytes decompressed from 100000 compressed (6291:1), more than the {MAX_RATIO}:1 read", 600u64 << 20));
    // Five members of 900 MiB, each 1 MiB compressed (900:1): 4.4 GiB in all.
    let mut members = vec![h.clone()];
    for k in 1..=5 {
        members.push(garbage(
            &format!("samples/{k}_epoch_1.json"),
            900 << 20,
            1 << 20,
        ));
    }
    let e = read(&zip(&members, &[])).unwrap_err();
    assert_eq!(
        e,
        format!("the 6 members read (header and samples) declare {} bytes decompressed in all, more than the {MAX_TOTAL_BYTES} bytes (4 GiB) read from one log", 5 * (900u64 << 20) + HEADER.len() as u64)
    );
    // A member that is not read may declare anything: it is not decompressed.
    let c = read(&zip(
        &[h, garbage("_journal/big.json", 4000 << 20, 10), ok],
        &[],
    ))
    .unwrap();
    assert_eq!(c.trajectories.len(), 1);
    assert!(c.skipped.is_empty(), "{:?}", c.skipped);
}

/// An entry whose compressed size reaches past the end of the file (the
/// central directory's size patched): refused, located.
#[test]
fn an_entry_running_past_the_end_of_the_file_is_refused() {
    let h = Member::stored("header.json", HEADER.as_bytes());
    let mut bytes = zip(&[h], &[]);
    let cd = bytes.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    bytes[cd + 20..cd + 24].copy_from_slice(&1_000_000u32.to_le_bytes());
    let e = read(&bytes).unwrap_err();
    assert_eq!(
        e,
        format!(
            "not a readable zip archive: entry `header.json`: its 1000000 compressed bytes from byte 41 run past the end of the file ({} bytes)",
            bytes.len()
        )
    );
}
