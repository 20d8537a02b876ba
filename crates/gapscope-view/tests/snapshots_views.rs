//! Text snapshots (insta) of what the page shows and exports, so that a
//! refactor of a chart, a table or an analysis shows every changed mark,
//! label or number as a diff: the SVG charts (the string shown is the string
//! exported) and the view-model tables as their CSV and booktabs LaTeX
//! exports.
//!
//! Inputs are committed fixtures: the realization-gaps `Report` of the
//! embedded example (`assets/synthetic-example.csv`, default settings), the
//! `EvidenceReport` of the worked set (`assets/evidence/`) and the
//! `RuntimeReport` of `assets/runtime/episodes.jsonl`, each computed once.
//! No redactions: nothing here depends on the version or the machine.
//!
//! An SVG is written one tag per line (a newline wherever `><` meets), so a
//! diff points at the mark that changed rather than at one huge line. The
//! charts' own newlines are only inside the tooltips (`data-tip`); no chart
//! has `>` newline `<` of its own (checked), so the split is lossless: join
//! each `>\n<` back to `><` for the exported string.
//!
//! Review changes with `cargo insta review`; the test command rejects
//! unreferenced snapshots (`cargo insta test --unreferenced=reject`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::sync::OnceLock;

use gapscope_data::ProfileTable;
use gapscope_evidence::{evaluate, EvidenceReport, EvidenceSettings};
use gapscope_gaps::{analyze, Report, Settings};
use gapscope_runtime::{analyze as analyze_runtime, RuntimeReport, RuntimeSettings};
use gapscope_view::heatmap::{gap_heatmap, Heatmap};
use gapscope_view::table::Table;
use gapscope_view::{evidence, gaps, runtime};

/// The embedded example and its report at the default settings (10,000
/// family-bootstrap draws, seed 0), computed once.
fn example() -> &'static (ProfileTable, Report) {
    static E: OnceLock<(ProfileTable, Report)> = OnceLock::new();
    E.get_or_init(|| {
        let table = ProfileTable::read(
            include_str!("../../../assets/synthetic-example.csv"),
            &Default::default(),
        )
        .unwrap();
        let report = analyze(&table, &Settings::default()).unwrap();
        (table, report)
    })
}

/// The worked evidence-to-action set at the default settings, computed once.
fn worked_set() -> &'static EvidenceReport {
    static R: OnceLock<EvidenceReport> = OnceLock::new();
    R.get_or_init(|| {
        evaluate(
            include_str!("../../../assets/evidence/cases.jsonl"),
            include_str!("../../../assets/evidence/trajectories.jsonl"),
            &EvidenceSettings::default(),
        )
        .unwrap()
    })
}

/// The committed runtime log at the default settings, computed once.
fn runtime_log() -> &'static RuntimeReport {
    static R: OnceLock<RuntimeReport> = OnceLock::new();
    R.get_or_init(|| {
        analyze_runtime(
            include_str!("../../../assets/runtime/episodes.jsonl"),
            &RuntimeSettings::default(),
        )
        .unwrap()
    })
}

/// A table as both of its exports, CSV first, then the booktabs LaTeX.
fn exports(t: &Table) -> String {
    format!(
        "--- csv ---\n{}\n--- latex ---\n{}",
        t.to_csv(),
        t.to_latex()
    )
}

/// An SVG string, one tag per line (see the module docs).
fn svg(s: &str) -> String {
    assert!(
        s.starts_with("<svg") && s.ends_with("</svg>"),
        "not an SVG: {s}"
    );
    assert!(
        !s.contains(">\n<"),
        "the SVG has a newline between tags of its own"
    );
    s.replace("><", ">\n<")
}

/// A heatmap view model as text: the columns with their notes, then per row
/// each cell's label and fill (the tooltip detail is left out, it repeats
/// the numbers).
fn heatmap_text(h: &Heatmap) -> String {
    let mut out = format!("scale ±{}\n", h.scale);
    for (c, note) in h.cols.iter().zip(&h.col_notes) {
        writeln!(out, "col {c} ({note})").unwrap();
    }
    for (row, cells) in h.rows.iter().zip(&h.cells) {
        let cells: Vec<String> = cells
            .iter()
            .map(|c| format!("{} {} {}", c.label, c.fill, c.ink))
            .collect();
        writeln!(out, "{row}: {}", cells.join(" | ")).unwrap();
    }
    out
}

// ---- realization gaps: the embedded example ----

/// The models × operations gap heatmap (labels, fills, inks, scale).
#[test]
fn gaps_heatmap() {
    insta::assert_snapshot!(heatmap_text(&gap_heatmap(&example().1)));
}

/// Q² per operation with intervals: the bar chart.
#[test]
fn gaps_q2_bars_svg() {
    insta::assert_snapshot!(svg(&gaps::predictability(&example().1).1));
}

/// Q² per operation with intervals: the table's exports.
#[test]
fn gaps_q2_table_exports() {
    insta::assert_snapshot!(exports(&gaps::predictability(&example().1).0));
}

/// Observed against predicted for the first operation, no model highlighted.
#[test]
fn gaps_observed_vs_predicted_svg() {
    let r = &example().1;
    let op = r.operations.keys().next().unwrap();
    insta::assert_snapshot!(svg(&gaps::gap_scatter(r, op, None)));
}

/// Table 5 (the overall gap per model): the summary line and the table's
/// exports.
#[test]
fn gaps_overall_table_exports() {
    let (table, line, _) = gaps::overall(&example().1);
    insta::assert_snapshot!(format!("{line}\n\n{}", exports(&table)));
}

/// The macro score, observed against predicted.
#[test]
fn gaps_overall_scatter_svg() {
    insta::assert_snapshot!(svg(&gaps::overall(&example().1).2));
}

/// The first foundational dimension against the first operation.
#[test]
fn gaps_association_scatter_svg() {
    let (t, r) = example();
    insta::assert_snapshot!(svg(&gaps::association_scatter(t, r, 0, 0)));
}

/// The penalty sensitivity curves (every panel, in order, a blank line
/// between them).
#[test]
fn gaps_penalty_curves_svg() {
    let (svgs, _) = gaps::penalty(&example().1).expect("the example has a sensitivity run");
    let panels: Vec<String> = svgs.iter().map(|s| svg(s)).collect();
    insta::assert_snapshot!(panels.join("\n\n"));
}

/// The slope chart of rankings.
#[test]
fn gaps_rankings_slope_svg() {
    insta::assert_snapshot!(svg(&gaps::rankings(&example().1).1));
}

// ---- evidence to action: the worked set ----

/// The failure-type stacked bars.
#[test]
fn evidence_failure_chart_svg() {
    insta::assert_snapshot!(svg(&evidence::failure_chart(worked_set())));
}

/// ECS per protocol: the table's exports.
#[test]
fn evidence_ecs_protocol_table_exports() {
    insta::assert_snapshot!(exports(&evidence::ecs_protocol_table(worked_set())));
}

// ---- runtime contracts: the committed log ----

/// The cap-sweep figure of the first slice.
#[test]
fn runtime_sweep_chart_svg() {
    insta::assert_snapshot!(svg(&runtime::sweep_chart(&runtime_log().slices[0])));
}

/// The 2×2 table at the first cap of the first slice: the table's exports.
#[test]
fn runtime_cap_table_exports() {
    let t = runtime::cap_table(&runtime_log().slices[0], 0).expect("the slice has a cap");
    insta::assert_snapshot!(exports(&t));
}
