//! Profile tables in long form (issue 16): pivoted to the wide table they
//! stand for. Every expected table here is the wide file the fixture was made
//! from (`tests/fixtures/profiles_long/make_long.py`, run from the root), read
//! by the wide reader; the counts (rows, models, dimensions, empty cells) were
//! counted by hand in the fixtures: table4-long.csv has 5 models × 14
//! dimensions = 70 rows (2 families: OpenAI, Anthropic); profiles-small-long.csv 7 models × 7 columns (TU, RE,
//! CE, GI, PL, RC, reward) = 49 cells less the one empty cell (Delta Two, RC),
//! which has no row = 48 rows; profiles-small-named.csv all 49, that cell an
//! empty score.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::ingest::read_profiles;
use gapscope_data::profile::long::{LongColumns, Pivot};
use gapscope_data::{ProfileTable, RoleOverrides};

const TABLE4: &str = include_str!("../../../assets/paper/table4_profiles_partial.csv");
const TABLE4_LONG: &str = include_str!("fixtures/profiles_long/table4-long.csv");
const SMALL: &str = include_str!("../../../tests/fixtures/profiles-small.csv");
const SMALL_LONG: &str = include_str!("fixtures/profiles_long/profiles-small-long.csv");
const SMALL_NAMED: &str = include_str!("fixtures/profiles_long/profiles-small-named.csv");

fn wide(text: &str) -> ProfileTable {
    ProfileTable::read(text, &RoleOverrides::default()).unwrap()
}

fn named() -> RoleOverrides {
    RoleOverrides {
        long: Some(LongColumns::parse("model=llm,dimension=task,score=acc").unwrap()),
        ..Default::default()
    }
}

/// profiles-small.csv with every family `unknown`.
fn small_unknown() -> String {
    let mut out = String::new();
    for (i, line) in SMALL.lines().enumerate() {
        let mut cells: Vec<&str> = line.split(',').collect();
        if i > 0 {
            cells[1] = "unknown";
        }
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

#[test]
fn the_papers_table4_in_long_form_is_table4() {
    let (t, pivot) = ProfileTable::read_reporting(TABLE4_LONG, &RoleOverrides::default()).unwrap();
    assert_eq!(t, wide(TABLE4));
    assert_eq!(
        pivot.unwrap(),
        Pivot {
            rows: 70,
            models: 5,
            dimensions: 14,
            empty: 0,
            family_column: Some("family".into()),
            not_read: vec![],
        }
    );
    assert_eq!(
        t.summary(),
        "5 models in 2 families, 7 foundational dimensions, 7 operations"
    );
}

#[test]
fn dimension_by_dimension_any_header_order_and_a_missing_row() {
    let (t, pivot) = ProfileTable::read_reporting(SMALL_LONG, &RoleOverrides::default()).unwrap();
    assert_eq!(t, wide(SMALL));
    // The row no file line gives is missing, as the wide table's empty cell.
    let rc = t.operations.names.iter().position(|n| n == "RC").unwrap();
    assert_eq!(t.operations.values[6][rc], None);
    let pivot = pivot.unwrap();
    assert_eq!((pivot.rows, pivot.models, pivot.dimensions), (48, 7, 7));
    assert_eq!(pivot.empty, 1);
    assert_eq!(pivot.family_column.as_deref(), Some("Family"));
    assert_eq!(
        pivot.sentences("s.csv"),
        ["long table s.csv: 48 rows pivoted to 7 models × 7 dimensions (1 of the 49 cells have no score: missing)"]
    );
}

#[test]
fn columns_named_by_the_user_without_families() {
    let (t, pivot) = ProfileTable::read_reporting(SMALL_NAMED, &named()).unwrap();
    assert_eq!(t, wide(&small_unknown()));
    let pivot = pivot.unwrap();
    assert_eq!((pivot.rows, pivot.models, pivot.dimensions), (49, 7, 7));
    assert_eq!(pivot.empty, 1, "the empty score");
    assert_eq!(pivot.family_column, None);
    assert_eq!(pivot.not_read, ["n"]);
    assert_eq!(
        pivot.sentences("n.csv"),
        [
            "long table n.csv: 49 rows pivoted to 7 models × 7 dimensions (1 of the 49 cells have no score: missing); columns not read: n",
            "long table n.csv has no family column: its 7 models are in family `unknown` (a file joined with it may name their families); with one family the analysis holds out one model at a time (leave-one-model-out) instead of one family at a time, and the bootstrap resamples models",
        ]
    );
    // Without the names the file is neither a long nor a wide table.
    let e = ProfileTable::read(SMALL_NAMED, &RoleOverrides::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("the header has no `model` column"),
        "{e}"
    );
}

#[test]
fn roles_apply_to_the_pivoted_columns_as_to_wide_ones() {
    let roles = RoleOverrides {
        foundational: Some(vec!["TU".into(), "CE".into()]),
        operations: Some(vec!["RC".into()]),
        no_outcome: true,
        ..Default::default()
    };
    let long = ProfileTable::read(SMALL_LONG, &roles).unwrap();
    assert_eq!(long, ProfileTable::read(SMALL, &roles).unwrap());
    assert_eq!(long.ignored, ["RE", "GI", "PL", "reward"]);
}

#[test]
fn the_pivot_is_reported_through_ingestion_and_joins_like_a_wide_file() {
    let files = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(n, t)| ((*n).to_string(), (*t).to_string()))
            .collect()
    };
    // One long file: the table, and the pivot in the notes.
    let (t, report) = read_profiles(
        &files(&[("long.csv", SMALL_LONG)]),
        &RoleOverrides::default(),
    )
    .unwrap();
    assert_eq!(t, wide(SMALL));
    assert_eq!(
        report.notes,
        ["long table long.csv: 48 rows pivoted to 7 models × 7 dimensions (1 of the 49 cells have no score: missing)"]
    );
    // A long file without families joined with a file that names them: the
    // families come from that file (`unknown` gives way in a join), the
    // names given apply to the long file only.
    let mut families = String::from("model,family\n");
    for line in SMALL.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        families.push_str(&format!("{},{}\n", cells[0], cells[1]));
    }
    let (t, report) = read_profiles(
        &files(&[("named.csv", SMALL_NAMED), ("families.csv", &families)]),
        &named(),
    )
    .unwrap();
    assert_eq!(t.families, wide(SMALL).families);
    assert_eq!(t.foundational, wide(SMALL).foundational);
    assert_eq!(t.operations, wide(SMALL).operations);
    assert_eq!(t.reward, wide(SMALL).reward);
    assert_eq!(report.notes.len(), 2, "{:?}", report.notes);
    assert!(report.notes[0].starts_with("long table named.csv: 49 rows pivoted"));
    // The names given fit no file: the first profile file says which column.
    let e = read_profiles(
        &files(&[("wide.csv", SMALL), ("long.csv", SMALL_LONG)]),
        &named(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "wide.csv: line 1: the header has no `llm` column (named as the long table's model column); it has: model,family,TU,RE,CE,GI,PL,RC,reward"
    );
    // Roles chosen after a join of a long and a wide file apply to the join.
    let roles = RoleOverrides {
        foundational: Some(vec!["TU".into()]),
        ..Default::default()
    };
    let (t, _) = read_profiles(
        &files(&[
            ("t4.csv", TABLE4_LONG),
            ("fam.csv", "model,family,reward\nGPT-5.5,OpenAI,0.5\n"),
        ]),
        &roles,
    )
    .unwrap();
    assert_eq!(t.foundational.names, ["TU"]);
    assert_eq!(t.n_models(), 5);
}

#[test]
fn the_spec_parses_and_prints_back() {
    let c = LongColumns::parse(" score = acc , model=llm,family=org , dimension=task").unwrap();
    assert_eq!(
        c,
        LongColumns {
            model: "llm".into(),
            dimension: "task".into(),
            score: "acc".into(),
            family: Some("org".into()),
        }
    );
    assert_eq!(
        c.to_string(),
        "model=llm,dimension=task,score=acc,family=org"
    );
    assert_eq!(LongColumns::parse(&c.to_string()).unwrap(), c);
    // Keys left out keep their default names.
    assert_eq!(
        LongColumns::parse("dimension=benchmark")
            .unwrap()
            .to_string(),
        "model=model,dimension=benchmark,score=score"
    );
}

#[test]
fn a_family_column_is_used_when_not_named() {
    let text = "family,llm,task,acc\nA,m1,TU,1\nB,m2,TU,2\nC,m3,TU,3\n";
    let (t, pivot) = ProfileTable::read_reporting(text, &named()).unwrap();
    assert_eq!(t.families, ["A", "B", "C"]);
    assert_eq!(pivot.unwrap().family_column.as_deref(), Some("family"));
    // Header names are matched as the wide table's `model` and `family`:
    // trimmed, case-insensitively; CRLF, a byte-order mark and quoting are read.
    let text = "\u{feff} LLM ,Task,ACC\r\n\"a, b\",TU,\"1\"\r\n";
    let (t, _) = ProfileTable::read_reporting(text, &named()).unwrap();
    assert_eq!(t.models, ["a, b"]);
    assert_eq!(t.foundational.values, vec![vec![Some(1.0)]]);
}

#[test]
fn a_wide_table_with_those_names_among_others_stays_wide() {
    // `model,family,score` plus more columns is not the long header.
    let text = "model,family,dimension,score,TU\nm1,A,x,1,2\n";
    let t = ProfileTable::read(text, &RoleOverrides::default()).unwrap();
    assert_eq!(t.foundational.names, ["TU"]);
    assert_eq!(t.ignored, ["dimension", "score"]);
}
