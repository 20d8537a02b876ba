//! Profile tables in long form through the CLI (issue 16): a long table and
//! the wide table it was made from (by
//! `crates/gapscope-data/tests/fixtures/profiles_long/make_long.py`) give the
//! same `gapscope report --json`, whole (the echoed input table included);
//! the pivot is said on standard error; `--long` names the columns, its
//! parse errors located, and the manifest's command repeats it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use serde_json::Value;

mod common;
use common::gapscope;

const LONG: &str = "crates/gapscope-data/tests/fixtures/profiles_long";

fn report_json(args: &[&str]) -> (Value, String) {
    let mut all = vec!["report", "--json", "--bootstrap", "200"];
    all.extend(args);
    let out = gapscope(&all);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

#[test]
fn a_long_table_reports_as_its_wide_table() {
    for (long, wide, note) in [
        (
            "table4-long.csv",
            "assets/paper/table4_profiles_partial.csv",
            "70 rows pivoted to 5 models × 14 dimensions\n",
        ),
        (
            "profiles-small-long.csv",
            "tests/fixtures/profiles-small.csv",
            "48 rows pivoted to 7 models × 7 dimensions (1 of the 49 cells have no score: missing)\n",
        ),
    ] {
        let path = format!("{LONG}/{long}");
        let (l, stderr) = report_json(&["--profiles", &path]);
        let (w, _) = report_json(&["--profiles", wide]);
        assert_eq!(l, w, "{long} vs {wide}");
        assert!(
            stderr.contains(&format!("note: long table {path}: {note}")),
            "{stderr}"
        );
    }
}

#[test]
fn named_columns_without_families_report_as_one_family_of_unknown() {
    // The wide equivalent: profiles-small.csv with every family `unknown`.
    let wide = std::fs::read_to_string(common::root().join("tests/fixtures/profiles-small.csv"))
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut cells: Vec<&str> = line.split(',').collect();
            if i > 0 {
                cells[1] = "unknown";
            }
            cells.join(",") + "\n"
        })
        .collect::<String>();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("long_profiles_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let wide_path = dir.join("small-unknown.csv");
    std::fs::write(&wide_path, wide).unwrap();
    let named = format!("{LONG}/profiles-small-named.csv");
    let spec = "model=llm,dimension=task,score=acc";
    let (l, stderr) = report_json(&["--profiles", &named, "--long", spec]);
    let (w, _) = report_json(&["--profiles", wide_path.to_str().unwrap()]);
    assert_eq!(l, w);
    // One family: leave-one-model-out, said in the report and on stderr.
    assert_eq!(l["folds"]["kind"], "model");
    assert!(l["warnings"][0]
        .as_str()
        .unwrap()
        .starts_with("only 1 family (hold-out by family needs at least 3)"));
    assert!(
        stderr.contains(&format!(
            "note: long table {named} has no family column: its 7 models are in family `unknown`"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("; columns not read: n\n"), "{stderr}");
    // The manifest's command names the columns again.
    let manifest = dir.join("m.json");
    let out = gapscope(&[
        "report",
        "--bootstrap",
        "0",
        "--profiles",
        &named,
        "--long",
        spec,
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let command = m["command"].as_str().unwrap();
    assert!(
        command.contains(" --long model=llm,dimension=task,score=acc "),
        "{command}"
    );
}

#[test]
fn long_flag_errors_are_located() {
    let named = format!("{LONG}/profiles-small-named.csv");
    for (spec, message) in [
        (
            "model=llm,dimenson=task",
            "error: --long: item 2 (`dimenson=task`): unknown key `dimenson`; the keys are model, dimension, score and family\n",
        ),
        (
            "model=llm,dimension=task,score=accuracy",
            &format!("error: {named}: line 4: the header has no `accuracy` column (named as the long table's score column); it has: llm,task,acc,n\n"),
        ),
    ] {
        let out = gapscope(&["report", "--profiles", &named, "--long", spec]);
        assert!(!out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stderr), message);
    }
}
