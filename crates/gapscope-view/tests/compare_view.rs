//! The Compare view's models on a comparison small enough to check by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_compare::{compare, RunOptions, Source};
use gapscope_data::trajectory::{Message, ToolCall, Trajectory};
use gapscope_stats::paired::Settings;
use gapscope_view::compare::{
    first_paired, forest, pair_matrix, runs_table, side_by_side, task_heatmap, task_heatmap_cells,
    task_heatmap_rows, task_table, trials_of, PKind, TaskOrder,
};
use serde_json::json;

fn t(model: &str, task: &str, trial: i64, reward: f64) -> Trajectory {
    Trajectory {
        id: format!("{model}-{task}-{trial}"),
        model: model.into(),
        domain: Some("airline".into()),
        task_id: task.into(),
        trial: Some(trial),
        reward: Some(reward),
        ..Trajectory::default()
    }
}

/// A: tasks 1–3 succeed, 4 fails; B: 1 succeeds, 2–4 fail, and task 9 only B.
fn report() -> gapscope_compare::CompareReport {
    let mut ts = Vec::new();
    for (task, a, b) in [
        ("1", 1.0, 1.0),
        ("2", 1.0, 0.0),
        ("3", 1.0, 0.0),
        ("4", 0.0, 0.0),
    ] {
        ts.push(t("A", task, 0, a));
        ts.push(t("B", task, 0, b));
    }
    ts.push(t("B", "9", 0, 1.0));
    report_of(&ts)
}

/// The comparison of `ts` (one file), B = 200, seed 0.
fn report_of(ts: &[Trajectory]) -> gapscope_compare::CompareReport {
    let file_of = vec![0; ts.len()];
    let files = vec!["x.jsonl".to_string()];
    let src = Source {
        trajectories: ts,
        file_of: &file_of,
        files: &files,
        excluded: &[],
        excluded_file: &[],
    };
    compare(
        &src,
        &RunOptions::default(),
        &Settings::new(200, 0, 0).unwrap(),
    )
    .unwrap()
}

#[test]
fn the_runs_table_is_on_0_100() {
    let r = report();
    let t = runs_table(&r);
    assert_eq!(t.headers[4], "mean");
    // A: 3 of 4 → 75.0; B: 2 of 5 → 40.0.
    assert_eq!(t.rows[0][4].display(), "75.0");
    assert_eq!(t.rows[1][4].display(), "40.0");
    assert_eq!(t.rows[1][1].display(), "5");
}

#[test]
fn the_matrix_is_antisymmetric_and_names_its_p() {
    let r = report();
    let m = pair_matrix(&r, PKind::SignHolm);
    // A column header (and its note) per run: the page draws one per note.
    assert_eq!((m.cols.len(), m.col_notes.len()), (2, 2));
    // Δ = A − B on the 4 common tasks = (0 + 1 + 1 + 0) / 4 = 50 points;
    // b = 2, c = 0: exact McNemar p = 0.5 (one pair: Holm = raw).
    assert_eq!(m.cells[0][1].value, Some(50.0));
    assert_eq!(m.cells[1][0].value, Some(-50.0));
    assert_eq!(m.cells[0][1].label, "+50.0 (p 0.500)");
    assert_eq!(m.cells[1][0].label, "−50.0 (p 0.500)");
    assert_eq!(m.cells[0][0].value, None);
    assert!(m.cells[0][1]
        .detail
        .contains("sign test p, Holm-adjusted 0.500"));
}

#[test]
fn the_forest_plot_is_oriented_from_the_chosen_run() {
    let r = report();
    let of_b = forest(&r, 1).unwrap();
    assert!(of_b.contains("B against every other run"));
    assert!(of_b.contains("Δ −50.0 on 4 tasks"), "{of_b}");
    assert!(forest(&r, 7).is_none());
}

#[test]
fn the_task_table_filters_and_orders() {
    let r = report();
    let (keys, t) = task_table(&r, 0, "", false, TaskOrder::Task).unwrap();
    assert_eq!(keys, ["airline/1", "airline/2", "airline/3", "airline/4"]);
    assert_eq!(t.rows[1][5].display(), "100.0");
    let (keys, _) = task_table(&r, 0, "", true, TaskOrder::Task).unwrap();
    assert_eq!(keys, ["airline/2", "airline/3"]);
    let (keys, _) = task_table(&r, 0, "/4", false, TaskOrder::Task).unwrap();
    assert_eq!(keys, ["airline/4"]);
    let (keys, _) = task_table(&r, 0, "", false, TaskOrder::AscendingD).unwrap();
    assert_eq!(keys[0], "airline/1", "d = 0 first, stable among ties");
    let (keys, _) = task_table(&r, 0, "", false, TaskOrder::DescendingD).unwrap();
    assert_eq!(&keys[..2], ["airline/2", "airline/3"]);
}

#[test]
fn the_first_pair_shown_is_the_first_with_a_task_in_common() {
    assert_eq!(first_paired(&report()), Some((0, 1)));
    // C shares no task with A or B; B and D share task 9.
    let ts = vec![
        t("A", "1", 0, 1.0),
        t("C", "7", 0, 1.0),
        t("B", "9", 0, 0.0),
        t("D", "9", 0, 1.0),
    ];
    let r = report_of(&ts);
    let names: Vec<&str> = r.runs.iter().map(|run| run.name.as_str()).collect();
    let (i, j) = first_paired(&r).unwrap();
    let mut pair = [names[i], names[j]];
    pair.sort_unstable();
    assert_eq!(pair, ["B", "D"]);
}

#[test]
fn the_task_heatmap_has_every_task_and_an_empty_cell_for_the_missing() {
    let r = report();
    let h = task_heatmap(&r, "");
    assert_eq!(h.rows.len(), 5);
    assert_eq!(task_heatmap(&r, "/9").rows, ["airline/9"]);
    // The page's window: the rows without cells, then the cells of some rows.
    let frame = task_heatmap_rows(&r, "");
    assert_eq!(
        (frame.rows.as_slice(), frame.cells.len()),
        (h.rows.as_slice(), 0)
    );
    let some = task_heatmap_cells(&r, &frame.rows[3..5]);
    assert_eq!(some, h.cells[3..5]);
    assert_eq!((h.cols.len(), h.col_notes.len()), (2, 2));
    assert_eq!(h.rows[4], "airline/9");
    assert_eq!(h.cells[4][0].value, None, "A never attempted task 9");
    assert_eq!(h.cells[4][1].value, Some(100.0));
    assert_eq!(h.cells[3][0].label, "0");
    assert_eq!(
        trials_of(&r, 0, "airline/2"),
        [(Some("A-2-0".to_string()), 1.0)]
    );
}

fn with_calls(calls: &[(&str, serde_json::Value)]) -> Trajectory {
    let mut tr = t("A", "1", 0, 1.0);
    tr.messages = calls
        .iter()
        .map(|(name, args)| Message {
            tool_calls: vec![ToolCall {
                id: None,
                name: (*name).into(),
                arguments: args.clone(),
            }],
            ..Message::new("assistant", None)
        })
        .collect();
    tr
}

#[test]
fn two_trajectories_side_by_side_mark_where_they_diverge() {
    let a = with_calls(&[
        ("get_user", json!({"id": "u1"})),
        ("get_order", json!({"id": "o1"})),
        ("cancel", json!({"order": "o1"})),
    ]);
    let b = with_calls(&[
        ("get_user", json!({"id": "u1"})),
        ("get_order", json!({"id": "o2"})),
        ("cancel", json!({"order": "o1"})),
    ]);
    let s = side_by_side(&a, &b).unwrap();
    assert_eq!(s.matched, 2);
    // get_user matched; A's get_order(o1) then B's get_order(o2); cancel matched.
    assert_eq!(s.rows.len(), 4);
    assert!(s.rows[0].matched && s.rows[3].matched);
    assert!(s.rows[1].first_unmatched && !s.rows[2].first_unmatched);
    assert_eq!(
        s.rows[1].a.as_ref().unwrap().text,
        r#"get_order({"id":"o1"})"#
    );
    assert_eq!(
        s.rows[2].b.as_ref().unwrap().text,
        r#"get_order({"id":"o2"})"#
    );
    assert_eq!(s.rows[1].a.as_ref().unwrap().message, 2);
    assert!(
        s.summary.contains("first diverge at row 2"),
        "{}",
        s.summary
    );
}
