//! Data-entry checks on the paper's published partial tables
//! (`../shared/data/paper/`). With 5–6 of 15 rows these tables cannot determine
//! the paper's predictions (its README says so): they are checked for internal
//! consistency and used for display, never presented as a reproduction.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::ProfileTable;
use gapscope_gaps::{analyze, Settings};

fn paper_file(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/paper")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}. The tests need ../shared (papers, spec, data) beside this clone.",
            path.display()
        )
    })
}

fn rows(name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let text = paper_file(name);
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    (
        header,
        lines
            .map(|l| l.split(',').map(String::from).collect())
            .collect(),
    )
}

#[test]
fn table5_gap_is_observed_minus_predicted() {
    let (h, rows) = rows("table5_overall_gaps_partial.csv");
    assert_eq!(h, ["model", "observed", "predicted", "gap"]);
    assert_eq!(rows.len(), 6);
    for r in &rows {
        let [obs, pred, gap] = [1, 2, 3].map(|k| r[k].parse::<f64>().unwrap());
        // observed has 1 decimal, predicted and gap 2: agreement within rounding.
        assert!(
            (obs - pred - gap).abs() <= 0.006,
            "{}: {obs} - {pred} != {gap}",
            r[0]
        );
    }
}

#[test]
fn table10_gaps_imply_predictions_on_the_score_scale() {
    let (h4, t4) = rows("table4_profiles_partial.csv");
    let (h10, t10) = rows("table10_operation_gaps_partial.csv");
    assert_eq!(t10.len(), 5);
    for r in &t10 {
        let r4 = t4
            .iter()
            .find(|x| x[0] == r[0])
            .unwrap_or_else(|| panic!("{} in Table 4", r[0]));
        for (k, op) in h10.iter().enumerate().skip(1) {
            let obs: f64 = r4[h4.iter().position(|c| c == op).unwrap()]
                .parse()
                .unwrap();
            let gap: f64 = r[k].parse().unwrap();
            let predicted = obs - gap;
            assert!(
                (0.0..=100.0).contains(&predicted),
                "{} {op}: implied prediction {predicted}",
                r[0]
            );
        }
    }
}

#[test]
fn the_papers_macro_is_not_the_unweighted_mean_of_table4() {
    // spec: "GPT-5.5: 63.7 vs 66.5 in Table 5" — the paper aggregated labels
    // some other way, so its macro figures cannot be reproduced from its tables.
    let t4 = ProfileTable::read(
        &paper_file("table4_profiles_partial.csv"),
        &Default::default(),
    )
    .unwrap();
    let i = t4.models.iter().position(|m| m == "GPT-5.5").unwrap();
    let mean = t4.operations.values[i]
        .iter()
        .map(|v| v.unwrap())
        .sum::<f64>()
        / 7.0;
    assert!((mean - 63.7).abs() < 0.05, "{mean}");
    let (_, t5) = rows("table5_overall_gaps_partial.csv");
    let paper: f64 = t5.iter().find(|r| r[0] == "GPT-5.5").unwrap()[1]
        .parse()
        .unwrap();
    assert_eq!(paper, 66.5);
}

#[test]
fn table4_rows_load_and_are_analysed_only_as_a_labelled_small_sample() {
    let t4 = ProfileTable::read(
        &paper_file("table4_profiles_partial.csv"),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(
        t4.summary(),
        "5 models in 2 families, 7 foundational dimensions, 7 operations"
    );
    let r = analyze(
        &t4,
        &Settings {
            bootstrap: 0,
            ..Settings::default()
        },
    )
    .unwrap();
    assert_eq!(
        r.folds.kind,
        gapscope_stats::heldout::reference::FoldKind::Model
    );
    assert!(r.warnings[0].contains("only 2 families"));
}

#[test]
fn table6_is_internally_consistent() {
    let (h, rows) = rows("table6_reward_prediction.csv");
    assert_eq!(h, ["predictors", "spearman", "mae", "rmse", "q2"]);
    let get = |name: &str, col: usize| -> f64 {
        rows.iter().find(|r| r[0] == name).unwrap()[col]
            .parse()
            .unwrap()
    };
    for p in ["baseline", "F", "O", "F+O"] {
        assert!(get(p, 3) >= get(p, 2), "{p}: RMSE ≥ MAE");
    }
    assert_eq!(get("baseline", 4), 0.0);
    // Q² = 1 − (RMSE/RMSE_baseline)² when every model is predicted and the
    // baseline is the same: check within the tables' rounding.
    for p in ["F", "O", "F+O"] {
        let implied = 1.0 - (get(p, 3) / get("baseline", 3)).powi(2);
        assert!(
            (implied - get(p, 4)).abs() < 0.005,
            "{p}: {implied} vs {}",
            get(p, 4)
        );
    }
}
