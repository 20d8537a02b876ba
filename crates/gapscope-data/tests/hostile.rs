//! Hostile inputs at the core (issue 8; the CLI cases with file names are in
//! crates/gapscope-cli/tests/hostile.rs): a single line over 100 MB, made here
//! and never committed, and the canonical reader's note on tool results that
//! answer unknown call ids.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::formats::read_jsonl;

const LINE: &str = r#"{"id": "t-001", "model": "A1", "task_id": "t1", "reward": 1.0, "messages": [{"role": "user", "content": "CONTENT"}], "labels": {"GI": [1]}}"#;

#[test]
fn a_single_line_over_100_mb_is_read_or_skipped_with_its_place() {
    let big = "x".repeat(100 * 1024 * 1024 + 1);
    // Valid: one trajectory whose message is the 100 MB string.
    let text = LINE.replace("CONTENT", &big);
    assert!(text.len() > 100 * 1024 * 1024);
    let c = read_jsonl(&text);
    assert!(c.skipped.is_empty(), "{:?}", c.skipped);
    assert_eq!(c.trajectories.len(), 1);
    let content = c.trajectories[0].messages[0].content.as_ref().unwrap();
    assert_eq!(content.as_str().map(str::len), Some(big.len()));
    drop(c);
    // Invalid: the string is never closed; the line is skipped and located
    // (line 2, and the column where the text ended) and line 3 is still read.
    let open = format!("{}{big}", &LINE[..LINE.find("CONTENT").unwrap()]);
    let text = format!("\n{open}\n{}\n", LINE.replace("t-001", "t-002"));
    let c = read_jsonl(&text);
    assert_eq!(
        c.trajectories.len(),
        1,
        "{:?} {}",
        c.skipped,
        c.trajectories.len()
    );
    assert_eq!(c.trajectories[0].id, "t-002");
    assert_eq!(c.skipped.len(), 1);
    assert_eq!(c.skipped[0].line, 2);
    assert!(
        c.skipped[0].message.starts_with(&format!(
            "column {}: EOF while parsing a string",
            open.len()
        )),
        "{}",
        c.skipped[0].message
    );
}

#[test]
fn tool_results_that_answer_no_earlier_call_are_noted_per_trajectory() {
    // t1: result c9 answers nothing; t2: the result comes before its call
    // (c1 is unknown when it is read); t3: the pairing is fine; t4: four
    // unknown ids, three named and the rest counted.
    let m = |msgs: &str, id: &str| {
        format!(r#"{{"id": "{id}", "model": "A", "task_id": "x", "messages": [{msgs}]}}"#)
    };
    let call = |id: &str| {
        format!(r#"{{"role": "assistant", "tool_calls": [{{"id": "{id}", "name": "f"}}]}}"#)
    };
    let result =
        |id: &str| format!(r#"{{"role": "tool", "tool_call_id": "{id}", "content": "ok"}}"#);
    let text = [
        m(&[call("c1"), result("c9")].join(","), "t1"),
        m(&[result("c1"), call("c1")].join(","), "t2"),
        m(
            &[call("c1"), result("c1"), call("c2"), result("c2")].join(","),
            "t3",
        ),
        m(&["a", "b", "c", "d"].map(result).join(","), "t4"),
    ]
    .join("\n");
    let c = read_jsonl(&text);
    // Every trajectory is kept.
    assert_eq!(c.trajectories.len(), 4);
    assert!(c.skipped.is_empty());
    let notes: Vec<String> = c
        .notes
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(
        notes,
        vec![
            "line 1: trajectory `t1`: 1 tool result answers no earlier tool call (message 2 answers `c9`); kept",
            "line 2: trajectory `t2`: 1 tool result answers no earlier tool call (message 1 answers `c1`); kept",
            "line 4: trajectory `t4`: 4 tool results answer no earlier tool call (message 1 answers `a`, message 2 answers `b`, message 3 answers `c`, … 1 more); kept",
        ]
    );
}

#[test]
fn the_join_names_the_note_and_an_unreadable_trajectory_file() {
    use gapscope_data::ingest::{read_profiles_with, TrajectoryOptions};
    let foundational = "model,family,TU\nA,F,1\n";
    let bad_result = LINE.replace("CONTENT", "hi").replace(
        r#"}], "labels""#,
        r#"}, {"role": "tool", "tool_call_id": "z", "content": "ok"}], "labels""#,
    );
    let files = vec![
        ("f.csv".to_string(), foundational.as_bytes().to_vec()),
        ("t.jsonl".to_string(), bad_result.into_bytes()),
    ];
    let (_, report) =
        read_profiles_with(&files, &Default::default(), &TrajectoryOptions::default()).unwrap();
    assert!(report.notes.iter().any(|n| n == "t.jsonl: 1 trajectories with tool results that answer no earlier tool call (first: line 1: trajectory `t-001`: 1 tool result answers no earlier tool call (message 2 answers `z`); kept)"), "{:?}", report.notes);
    // A trajectory file of which nothing could be read says why (it used to
    // read as "a header but no data").
    let files = vec![
        ("f.csv".to_string(), foundational.as_bytes().to_vec()),
        ("t.jsonl".to_string(), br#"{"task_id": 1}"#.to_vec()),
    ];
    let e = read_profiles_with(&files, &Default::default(), &TrajectoryOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(
            "t.jsonl: no trajectory could be read; each reader declined it: canonical JSONL: 1 of 1 non-blank line(s) skipped (first: line 1: column 13: invalid type: integer `1`, expected a string); τ²-bench results: "
        ),
        "{e}"
    );
}

// ------------------------------------------------------------------------
/// Issue 14, item 9: in CRLF files the csv crate's own line count lags one
/// line behind; every CSV reader reports the file's own line.
#[test]
fn crlf_csv_errors_name_the_files_own_line() {
    use gapscope_data::ProfileTable;
    // Line 1 header, 2 comment, 3 m1, 4 blank, 5 m2, 6 the bad cell.
    let text = "model,family,TU,GI\r\n# note\r\nm1,A,1,2\r\n\r\nm2,B,3,4\r\nm3,C,abc,5\r\n";
    let e = ProfileTable::read(text, &Default::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 6, column `TU`: expected a number (or an empty cell for a missing value), found `abc`"
    );
    let short = "model,family,TU,GI\r\nm1,A,1,2\r\nm2,B,3,4\r\nm3,C,5\r\n";
    let e = ProfileTable::read(short, &Default::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4: expected 4 fields like the header, found 3"
    );
    let dup = "model,family,TU\r\nm1,A,1\r\nm2,A,1\r\nm1,A,2\r\n";
    let e = ProfileTable::read(dup, &Default::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4: model `m1` appears again (first at line 2)"
    );
    let commented = "model,family,TU\r\n# one\r\n# two\r\nm1,A,y\r\n";
    let e = ProfileTable::read(commented, &Default::default()).unwrap_err();
    assert!(e.to_string().starts_with("line 4, column `TU`"), "{e}");
    // The same files with LF give the same lines.
    let e = ProfileTable::read(&text.replace("\r\n", "\n"), &Default::default()).unwrap_err();
    assert!(e.to_string().starts_with("line 6, column `TU`"), "{e}");

    // The label CSV: line 1 header, 2 and 3 good, 4 a bad label.
    let mut corpus = read_jsonl(&format!("{}\n{}\n", LINE, LINE.replace("t-001", "t-002")));
    let labels = "trajectory_id,operation,requirement,label\r\nt-001,GI,r1,1\r\nt-002,GI,r1,0\r\nt-002,GI,r2,2\r\n";
    let e = gapscope_data::labels::apply_label_csv(&mut corpus, labels).unwrap_err();
    assert_eq!(e.to_string(), "line 4: label `2` is not 0, 0.5, 1 or null");
}
