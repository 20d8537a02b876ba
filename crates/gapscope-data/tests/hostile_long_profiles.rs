//! Hostile long tables (issue 16): each a located error, never a panic or a
//! silent value. Line numbers count the header as line 1 (and comments as
//! lines), as the wide reader does.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::ingest::{read_profiles, read_profiles_with, ReadError, TrajectoryOptions};
use gapscope_data::profile::long::{LongColumns, LongSpecError, MAX_LONG_CELLS};
use gapscope_data::{ProfileTable, RoleOverrides};

fn err(text: &str) -> String {
    ProfileTable::read(text, &RoleOverrides::default())
        .unwrap_err()
        .to_string()
}

fn err_named(text: &str, spec: &str) -> String {
    let o = RoleOverrides {
        long: Some(LongColumns::parse(spec).unwrap()),
        ..Default::default()
    };
    ProfileTable::read(text, &o).unwrap_err().to_string()
}

#[test]
fn a_repeated_pair_names_both_lines() {
    let text = "model,dimension,score\nm1,TU,1\nm2,TU,2\nm1,RE,3\nm1,TU,4\n";
    assert_eq!(
        err(text),
        "line 5: model `m1` has a second `TU` score (first at line 2): a long table gives one row per model and dimension"
    );
    // Also when either score is empty: a repeated pair is refused, not merged.
    let text = "# c\nmodel,dimension,score\nm1,TU,\nm1 , TU ,NA\n";
    assert_eq!(
        err(text),
        "line 4: model `m1` has a second `TU` score (first at line 3): a long table gives one row per model and dimension"
    );
}

#[test]
fn a_model_in_two_families_names_both_lines() {
    let text = "model,family,dimension,score\nm1,A,TU,1\nm2,B,TU,2\nm1,B,RE,3\n";
    assert_eq!(
        err(text),
        "line 4: model `m1` appears again, in family `B` (first at line 2, in family `A`): a model belongs to one family"
    );
}

#[test]
fn bad_scores_are_located_by_their_own_line() {
    let text = "model,family,dimension,score\nm1,A,TU,1\nm2,B,TU,2\nm1,A,RE,abc\n";
    assert_eq!(
        err(text),
        "line 4, column `RE`: expected a number (or an empty cell for a missing value), found `abc`"
    );
    let text = "model,family,dimension,score\nm1,A,TU,1\nm2,B,RE,2\nm1,A,RE,inf\n";
    assert!(
        err(text).starts_with("line 4, column `RE`: `inf` is not a finite number"),
        "{}",
        err(text)
    );
    // As in a wide table, a bad cell of an ignored column is no error.
    let text = "model,family,dimension,score\nm1,A,TU,1\nm1,A,notes,good\n";
    let t = ProfileTable::read(text, &RoleOverrides::default()).unwrap();
    assert_eq!(t.ignored, ["notes"]);
}

#[test]
fn missing_and_misnamed_columns() {
    // Two of the three columns: not a long table, and not a wide one.
    assert_eq!(
        err("model,dimension\nm1,TU\n"),
        "the header has no `family` column (expected a header like `model,family,TU,…`; found: model,dimension)"
    );
    // A user-named column the file lacks.
    assert_eq!(
        err_named("llm,task,acc\nm,TU,1\n", "model=llm,dimension=task,score=score"),
        "line 1: the header has no `score` column (named as the long table's score column); it has: llm,task,acc"
    );
    assert_eq!(
        err_named("# note\nllm,task,acc\nm,TU,1\n", "model=llm,dimension=task,score=acc,family=org"),
        "line 2: the header has no `org` column (named as the long table's family column); it has: llm,task,acc"
    );
    // A column named for two roles (a spec built without `parse`).
    let o = RoleOverrides {
        long: Some(LongColumns {
            model: "x".into(),
            dimension: "X".into(),
            score: "s".into(),
            family: None,
        }),
        ..Default::default()
    };
    assert_eq!(
        ProfileTable::read("x,s\na,1\n", &o)
            .unwrap_err()
            .to_string(),
        "column `x` is given more than one role"
    );
    // A long table named for a JSON file.
    assert_eq!(
        err_named("{\"models\": []}", "dimension=d"),
        "not a profile file: long-table columns were named, but this file is JSON: a long table is a CSV"
    );
}

#[test]
fn empty_files_headers_and_fields() {
    assert_eq!(err(""), "the file is empty");
    assert_eq!(err("\u{feff} \n"), "the file is empty");
    assert_eq!(
        err("model,dimension,score\n"),
        "no model rows: the file has a header but no data"
    );
    assert_eq!(
        err("model,dimension,score\n,,\n\n"),
        "no model rows: the file has a header but no data",
        "a line of separators only is blank"
    );
    assert_eq!(
        err("model,dimension,score\n,TU,1\n"),
        "line 2: the `model` field is empty"
    );
    assert_eq!(
        err("Model,Dimension,Score\nm, ,1\n"),
        "line 2: the `Dimension` field is empty"
    );
    assert_eq!(
        err("model,family,dimension,score\nm,,TU,1\n"),
        "line 2: the `family` field is empty"
    );
    assert_eq!(
        err("model,dimension,score\nm,Family,1\n"),
        "line 2: `Family` cannot name a dimension (the wide table has a `family` column)"
    );
    assert_eq!(
        err("model,dimension,score,score\nm,TU,1,2\n"),
        "line 1: column `score` appears more than once in the header"
    );
    assert_eq!(
        err("model,dimension,score\nm,TU\n"),
        "line 2: expected 3 fields like the header, found 2"
    );
    assert_eq!(
        err("model,dimension,score\nm,\"TU\n"),
        "line 2: expected 3 fields like the header, found 2"
    );
    let long = "d".repeat(4097);
    assert_eq!(
        err(&format!("model,dimension,score\nm,{long},1\n")),
        "line 2: the `dimension` field is 4097 bytes long; names are at most 4096 bytes (4 KiB)"
    );
}

#[test]
fn huge_pivots_are_refused_at_the_line_that_asks_for_them() {
    // Rows of distinct models and distinct dimensions: row i (line i + 2)
    // makes the table (i + 1) models × i dimensions, then (i + 1) × (i + 1).
    // 2236² = 4,999,696 passes; row 2237 (line 2238) asks for 2237 × 2236 =
    // 5,001,932 cells as its model comes in.
    assert_eq!(MAX_LONG_CELLS, 5_000_000);
    let mut text = String::from("model,dimension,score\n");
    for i in 0..3000 {
        text.push_str(&format!("m{i},d{i},1\n"));
    }
    assert_eq!(
        err(&text),
        "line 2238: the pivoted table would have 2237 models × 2236 dimensions = 5001932 cells; at most 5000000 are read"
    );
    // Over 10,000 dimensions for one model.
    let mut text = String::from("model,dimension,score\n");
    for i in 0..10_001 {
        text.push_str(&format!("m,d{i},1\n"));
    }
    assert_eq!(
        err(&text),
        "line 10002: `d10000` would be dimension 10001; at most 10000 are read"
    );
}

#[test]
fn spec_errors_are_located_by_item() {
    let e = |s: &str| LongColumns::parse(s).unwrap_err();
    assert_eq!(e(" "), LongSpecError::Empty);
    assert_eq!(
        e("model=m,dimension").to_string(),
        "item 2 (`dimension`): expected KEY=COLUMN, KEY one of model, dimension, score, family"
    );
    assert_eq!(
        e("model=m,dimensoin=d").to_string(),
        "item 2 (`dimensoin=d`): unknown key `dimensoin`; the keys are model, dimension, score and family"
    );
    assert_eq!(
        e("model=m,score=").to_string(),
        "item 2 (`score=`): the column name is empty"
    );
    assert_eq!(
        e("score=a,model=m,Score=b").to_string(),
        "item 3 (`Score=b`): `score` was already given in item 1"
    );
    assert_eq!(
        e("model=x,dimension=X").to_string(),
        "column `x` is named as both the model and the dimension column"
    );
    assert_eq!(
        e("score=model").to_string(),
        "column `model` is named as both the model and the score column"
    );
    assert_eq!(
        e(&format!("model={}", "m".repeat(4097))).to_string(),
        "item 1: the column name is 4097 bytes long; names are at most 4096 bytes"
    );
}

#[test]
fn non_utf8_and_no_profile_file_through_ingestion() {
    let bytes = b"model,dimension,score\nm\xff,TU,1\n".to_vec();
    let e = read_profiles_with(
        &[("bad.csv".to_string(), bytes)],
        &RoleOverrides::default(),
        &TrajectoryOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(e, ReadError::NotUtf8 { .. }) && e.to_string().starts_with("bad.csv: "),
        "{e}"
    );
    // Long-table names and only trajectories: said, not ignored.
    let traj = r#"{"id": "t1", "model": "M", "task_id": "x", "reward": 1.0}"#;
    let o = RoleOverrides {
        long: Some(LongColumns::default()),
        ..Default::default()
    };
    let e = read_profiles(&[("t.jsonl".to_string(), traj.to_string())], &o).unwrap_err();
    assert_eq!(
        e.to_string(),
        "long-table columns (model=model,dimension=dimension,score=score) were named, but no profile file was given"
    );
}
