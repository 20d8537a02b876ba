//! The analysis job on the embedded data and on small files.

use super::handle;
use crate::assets::{EXAMPLE_CSV, EXAMPLE_LABEL};
use crate::protocol::{Pair, Request, Source};

#[test]
fn built_in_data_is_written_by_the_commands_that_make_it() {
    let req = |source| Request {
        bootstrap: 0,
        ..Request::new(source)
    };
    let example = handle(&req(Source::Example)).unwrap().manifest;
    assert_eq!(
        example.command,
        "gapscope synth > synthetic-example.csv && gapscope report --profiles synthetic-example.csv --alpha 10 --bootstrap 0 --seed 0 --grid 0.01 10000 25 --json"
    );
    // The example re-sent as a named text (its roles changed) is still built in.
    let mut r = req(Source::File {
        name: EXAMPLE_LABEL.into(),
        text: EXAMPLE_CSV.into(),
    });
    r.roles.no_outcome = true;
    let m = handle(&r).unwrap().manifest;
    assert!(
        m.command
            .starts_with("gapscope synth > synthetic-example.csv && ")
            && m.command.contains(" --no-outcome "),
        "{}",
        m.command
    );
    // A user's file of that name is not.
    let mine = handle(&req(Source::File {
        name: "synthetic-example.csv".into(),
        text: EXAMPLE_CSV.into(),
    }))
    .unwrap()
    .manifest;
    assert!(
        mine.command.starts_with("gapscope report "),
        "{}",
        mine.command
    );
    let corpus = handle(&req(Source::Corpus)).unwrap().manifest;
    assert_eq!(
        corpus.command,
        "gapscope synth-trajectories --out synthetic-trajectories && gapscope report --profiles synthetic-trajectories/foundational.csv --trajectories synthetic-trajectories/trajectories.jsonl --alpha 10 --bootstrap 0 --seed 0 --grid 0.01 10000 25 --json"
    );
}

#[test]
fn a_pair_from_another_dataset_is_a_warning_not_a_failure() {
    let mut req = Request {
        bootstrap: 0,
        pair: Some(Pair {
            foundational: "CE".into(),
            operation: "RC".into(),
            provider: Some("Aurora".into()),
        }),
        ..Request::new(Source::Example)
    };
    let a = handle(&req).unwrap();
    let s = a.report.association_sensitivity.unwrap();
    assert_eq!(s.provider_removed.unwrap().label, "without Aurora");
    assert_eq!(
        a.manifest.inputs[0].sha256,
        gapscope_gaps::manifest::sha256_hex(EXAMPLE_CSV.as_bytes())
    );
    req.pair = Some(Pair {
        foundational: "CE".into(),
        operation: "RC".into(),
        provider: Some("Nowhere".into()),
    });
    let a = handle(&req).unwrap();
    assert!(a.report.association_sensitivity.is_none());
    assert!(a
        .report
        .warnings
        .iter()
        .any(|w| w.starts_with("association sensitivity: no family `Nowhere`")));
}

#[test]
fn several_files_are_joined_and_the_join_is_reported() {
    let req = Request {
        bootstrap: 0,
        ..Request::new(Source::Files {
            files: vec![
                (
                    "f.csv".into(),
                    "model,family,TU,RE\na,A,1,2\nb,B,3,5\nc,C,5,6\nd,D,2,2\n".into(),
                ),
                (
                    "o.csv".into(),
                    "model,family,GI,PL\na,A,9,10\nb,B,7,8\nc,C,4,4\ne,E,1,1\n".into(),
                ),
            ],
        })
    };
    let a = handle(&req).unwrap();
    assert_eq!(a.source, "f.csv + o.csv");
    assert!(
        a.report.summary.ends_with("(joined on model from 2 files)"),
        "{}",
        a.report.summary
    );
    assert_eq!(a.report.models, ["a", "b", "c", "d", "e"]);
    assert!(a.report.warnings[0].starts_with("not in f.csv: e"));
    assert_eq!(a.manifest.inputs.len(), 2);
    assert_eq!(a.join.unwrap().joined, 3);
    let bad = Request {
        source: Source::Files {
            files: vec![
                ("f.csv".into(), "model,family,TU\na,A,x\n".into()),
                ("o.csv".into(), "model,family,GI\na,A,1\n".into()),
            ],
        },
        ..req
    };
    assert!(handle(&bad)
        .unwrap_err()
        .starts_with("f.csv: line 2, column `TU`"));
}

/// A dropped long table (issue 16) goes through the same core reading: the
/// page shows the wide table's analysis, with the pivot at the top of the
/// warnings.
#[test]
fn a_dropped_long_table_is_pivoted() {
    const LONG: &str = include_str!(
        "../../../../../gapscope-data/tests/fixtures/profiles_long/profiles-small-long.csv"
    );
    const WIDE: &str = include_str!("../../../../../../tests/fixtures/profiles-small.csv");
    let req = |name: &str, text: &str| Request {
        bootstrap: 0,
        ..Request::new(Source::File {
            name: name.into(),
            text: text.into(),
        })
    };
    let long = handle(&req("long.csv", LONG)).unwrap();
    let wide = handle(&req("wide.csv", WIDE)).unwrap();
    assert_eq!(long.report.input, wide.report.input);
    assert_eq!(
        long.report.warnings[0],
        "long table long.csv: 48 rows pivoted to 7 models × 7 dimensions (1 of the 49 cells have no score: missing)"
    );
    assert_eq!(long.report.warnings[1..], wide.report.warnings[..]);
    assert_eq!(
        serde_json::to_value(&long.report.operations).unwrap(),
        serde_json::to_value(&wide.report.operations).unwrap()
    );
}
