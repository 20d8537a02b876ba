//! Issue 14 at the core: overflow refused instead of hidden as `null`, the
//! penalty floor, out-of-range rewards, spreadsheet-safe CSV cells that read
//! back, the CSV column and name limits, and stability without overlap.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::profile::{csv_safe, csv_unsafe, MAX_CSV_COLUMNS, MAX_NAME_BYTES};
use gapscope_data::ProfileTable;
use gapscope_gaps::analysis::{AlphaGrid, AnalysisError, SettingsError, MIN_ALPHA};
use gapscope_gaps::stability::{stability, StabilitySettings};
use gapscope_gaps::{analyze, Settings};
use gapscope_stats::Alpha;

fn quick() -> Settings {
    Settings {
        bootstrap: 0,
        nested: false,
        ..Default::default()
    }
}

fn read(csv: &str) -> ProfileTable {
    ProfileTable::read(csv, &Default::default()).unwrap()
}

const FIVE: &str = "model,family,TU,RE,GI,PL,reward\n\
m1,A,60,55,40,50,40\nm2,B,70,72,52,61,55\nm3,C,65,70,48,58,50\n\
m4,D,80,75,60,70,70\nm5,E,55,62,35,45,30\n";

#[test]
fn values_near_1e308_are_refused_with_the_column_not_hidden_as_null() {
    let t = read(&FIVE.replace("m4,D,80,", "m4,D,1e308,"));
    let e = analyze(&t, &quick()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "column `TU`, model `m4`: 1e308 is too large in magnitude for the analysis (at most 1e100: it squares and sums values, which would overflow to infinity); rescale the column"
    );
    let t = read(&FIVE.replace(",70\nm5", ",-1.7e308\nm5"));
    assert!(matches!(
        analyze(&t, &quick()).unwrap_err(),
        AnalysisError::TooLarge { ref column, .. } if column == "reward"
    ));
    // 1e100 itself is analysed, every number finite.
    let t = read(&FIVE.replace("m4,D,80,", "m4,D,1e100,"));
    let r = analyze(&t, &quick()).unwrap();
    assert!(r.operations["GI"].q2.unwrap().is_finite());
}

#[test]
fn penalties_below_the_floor_are_refused_with_the_bound() {
    let t = read(FIVE);
    let s = Settings {
        alpha: Alpha::new(1e-300).unwrap(),
        ..quick()
    };
    let e = analyze(&t, &s).unwrap_err();
    assert_eq!(
        e,
        AnalysisError::Settings(SettingsError::AlphaTooSmall(1e-300))
    );
    assert!(
        e.to_string()
            .starts_with("the ridge penalty must be at least 1e-6 (got 1e-300)"),
        "{e}"
    );
    assert!(AlphaGrid::new(1e-9, 1.0, 5).is_err());
    // At the floor, on a rank-deficient design (F+O: 4 predictors, 4 training
    // models), the errors stay of the size of the rewards (0–100).
    let s = Settings {
        alpha: Alpha::new(MIN_ALPHA).unwrap(),
        ..quick()
    };
    let r = analyze(&t, &s).unwrap();
    let mae = r.outcome.unwrap().fo.mae.unwrap();
    assert!(mae < 100.0, "MAE {mae}");
}

#[test]
fn rewards_outside_0_to_100_are_warned_about() {
    for (value, shown) in [("-5", "-5"), ("150", "150")] {
        let t = read(&FIVE.replace(",70\nm5", &format!(",{value}\nm5")));
        let r = analyze(&t, &quick()).unwrap();
        let w: Vec<&String> = r
            .warnings
            .iter()
            .filter(|w| w.contains("outside 0–100"))
            .collect();
        assert_eq!(w.len(), 1, "{:?}", r.warnings);
        assert!(
            w[0].starts_with(&format!(
                "reward: 1 value outside 0–100 (first: {shown} for model m4); rewards are read on 0–100 (taken as percent"
            )),
            "{}",
            w[0]
        );
    }
    // Fractions: 1.5 makes the column percent (auto), so nothing is outside.
    let r = analyze(&read(FIVE), &quick()).unwrap();
    assert!(!r.warnings.iter().any(|w| w.contains("outside 0–100")));
}

#[test]
fn csv_cells_that_start_a_formula_are_neutralised_and_read_back() {
    assert_eq!(csv_safe("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    assert_eq!(csv_safe("+1+2"), "\"'+1+2\"");
    assert_eq!(csv_safe("-cmd"), "\"'-cmd\"");
    assert_eq!(csv_safe("@SUM(A1)"), "\"'@SUM(A1)\"");
    assert_eq!(csv_safe("\tx"), "\"'\tx\"");
    assert_eq!(csv_safe("\rx"), "\"'\rx\"");
    assert_eq!(csv_safe("'=x"), "\"''=x\"", "a quote already there is kept");
    // Plain numbers stay numbers.
    for n in ["-1.5", "+2", "-0", "1e-3", "-2.5E+10", "42"] {
        assert_eq!(csv_safe(n), n);
    }
    assert_eq!(csv_safe("-inf"), "\"'-inf\"");
    assert_eq!(csv_safe("a,b"), "\"a,b\"");
    assert_eq!(csv_safe("#x"), "\"#x\"");
    for s in ["=x", "'=x", "''=x", "-1.5", "plain", "'quoted", "-"] {
        let written = csv_safe(s);
        let inner = written
            .strip_prefix('"')
            .and_then(|w| w.strip_suffix('"'))
            .map_or(written.clone(), |w| w.replace("\"\"", "\""));
        assert_eq!(csv_unsafe(&inner), s, "{written}");
    }
    // A profile table with such names writes and reads back the same.
    let t = read(
        "model,family,TU,GI,reward\n\"'=cmd|' /C calc'!A0\",@fam,1,-2.5,50\n\"'-m\",+g,2,3,60\nok,g,3,-4,70\n",
    );
    assert_eq!(t.models, ["=cmd|' /C calc'!A0", "-m", "ok"]);
    assert_eq!(t.families, ["@fam", "+g", "g"]);
    let csv = t.to_csv();
    assert!(
        csv.contains("\"'=cmd|' /C calc'!A0\",\"'@fam\",1,-2.5,"),
        "{csv}"
    );
    assert!(csv.contains("\nok,g,3,-4,"), "{csv}");
    assert_eq!(read(&csv), t);
}

#[test]
fn csv_headers_beyond_10000_columns_and_names_beyond_4_kib_are_refused() {
    let header = |n: usize| {
        let mut h = String::from("model,family");
        for k in 0..n - 2 {
            h.push_str(&format!(",c{k}"));
        }
        h
    };
    // At the limit: read.
    let ok = format!(
        "{}\nm1,A{}\n",
        header(MAX_CSV_COLUMNS),
        ",1".repeat(MAX_CSV_COLUMNS - 2)
    );
    let t = ProfileTable::read(&ok, &Default::default()).unwrap();
    assert_eq!(t.ignored.len(), MAX_CSV_COLUMNS - 2);
    let big = format!("# generated\n{}\nm1,A\n", header(MAX_CSV_COLUMNS + 1));
    let e = ProfileTable::read(&big, &Default::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: the header has 10001 columns; at most 10000 are read"
    );
    let long = "x".repeat(MAX_NAME_BYTES + 1);
    let e = ProfileTable::read(
        &format!("model,family,TU\nm1,A,1\n{long},B,2\n"),
        &Default::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3: the `model` field is 4097 bytes long; names are at most 4096 bytes (4 KiB)"
    );
    let e = ProfileTable::read(
        &format!("model,family,{long}\nm1,A,1\n"),
        &Default::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 1: the `column 3` header name is 4097 bytes long; names are at most 4096 bytes (4 KiB)"
    );
    let e = ProfileTable::read(
        &format!(
            r#"{{"models": [{{"model": "m", "family": "f", "operations": {{"{long}": 1}}}}]}}"#
        ),
        &Default::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("models[0]: the `operations` dimension name is 4097 bytes"),
        "{e}"
    );
    // Exactly 4 KiB is a name.
    let name = "y".repeat(MAX_NAME_BYTES);
    let t = ProfileTable::read(
        &format!("model,family,TU\n{name},A,1\n"),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(t.models[0].len(), MAX_NAME_BYTES);
}

#[test]
fn nested_selection_over_1000_families_is_refused_with_the_flag_to_use() {
    let mut csv = String::from("model,family,TU,GI,reward\n");
    for i in 0..1001 {
        csv.push_str(&format!("m{i},f{i},{},{},{}\n", i % 7, i % 5, i % 11));
    }
    let t = read(&csv);
    let s = Settings {
        bootstrap: 0,
        ..Default::default()
    };
    let e = analyze(&t, &s).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("nested penalty selection over 1001 folds: at most 1000"),
        "{e}"
    );
    assert!(e.to_string().contains("use --no-nested"));
    assert!(analyze(&t, &quick()).is_ok());
}

#[test]
fn stability_without_a_model_in_common_says_which_models_are_on_each_side() {
    let f = read("model,family,TU,RE\np1,A,60,50\np2,B,70,65\np3,C,65,70\n");
    let mut trajectories = Vec::new();
    for m in ["t1", "t2", "t3"] {
        for (g, task) in [("g1", "k1"), ("g2", "k2")] {
            let line = format!(
                r#"{{"id": "{m}-{task}", "model": "{m}", "task_id": "{task}", "scenario_group": "{g}", "labels": {{"GI": [1]}}}}"#
            );
            trajectories.extend(gapscope_data::formats::read_jsonl(&line).trajectories);
        }
    }
    let e = stability(&f, &trajectories, &StabilitySettings::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no model of the trajectories is in the profile table, so no gap can be computed: the profile has `p1`, `p2`, `p3`; the trajectories have `t1`, `t2`, `t3` (names must match exactly)"
    );
}
