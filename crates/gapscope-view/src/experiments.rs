//! The Experiments view's tables (spec: realization-gaps.md, "Local content
//! interventions", "Shared-initial-state continuations"): the contrast
//! tables, the reward changes, coverage (Table 7), violations (Table 15)
//! and later reversals, from the core's [`Interventions`] and
//! [`Continuations`] (what `gapscope interventions` / `continuations`
//! write with `--json`).

use gapscope_gaps::experiments::continuations::{Column, ViolationRow};
use gapscope_gaps::experiments::interventions::{ContrastRow, MIN_TASKS};
use gapscope_gaps::experiments::{Continuations, Interventions};
use serde::{Deserialize, Serialize};

use std::fmt::Write as _;

use gapscope_data::trajectory::Trajectory;

use crate::format::fmt;
use crate::inference::PanelText;
use crate::markup::esc_into;
use crate::table::{Cell, Table};

/// What the files worker answers for the Experiments view, as text (the
/// page links none of the tables' code): each table as HTML, CSV and LaTeX,
/// the runs each pickable row opens, the JSON as the CLI writes it, and the
/// synthetic corpus's JSONL when it was asked for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExperimentsPage {
    /// `gapscope interventions --json`'s text (with its final newline);
    /// `None`: no intervention run in the files.
    pub interventions_json: Option<String>,
    /// `gapscope continuations --json`'s text; `None`: no continuation.
    pub continuations_json: Option<String>,
    /// One sentence on the cases and measures.
    pub summary: String,
    /// The tables, in page order; `view` is `interventions` or
    /// `continuations`, `name` one of [`CHANGES`], [`VIOLATIONS`] for the
    /// pickable ones.
    pub panels: Vec<PanelText>,
    /// Per reward change (row of [`CHANGES`]): the original branch's first
    /// run (if any) and the edited run.
    pub changes: Vec<(Option<String>, String)>,
    /// Per violations row (row of [`VIOLATIONS`]): its continuations.
    pub rows: Vec<RowRuns>,
    /// `assets/synthetic-experiments/experiments.jsonl`, generated, when
    /// the job asked for the synthetic corpus.
    pub example: Option<String>,
}

/// The continuations of one violations row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowRuns {
    /// `checkpoint · model`.
    pub title: String,
    /// Per (round, condition): its label, its scoreable runs (violating
    /// first) and how many violate.
    pub cells: Vec<(String, Vec<String>, usize)>,
}

impl RowRuns {
    /// The row's continuations as the page lists them: per (round,
    /// condition) a line of buttons (`data-open`: the run's id; the
    /// violating ones of class `invalid`).
    #[must_use]
    pub fn html(&self) -> String {
        let mut out = String::from("<ul>");
        for (label, runs, violated) in &self.cells {
            out.push_str("<li>");
            esc_into(&mut out, label);
            out.push_str(": ");
            if runs.is_empty() {
                out.push_str("no scoreable run");
            }
            for (k, id) in runs.iter().enumerate() {
                let class = if k < *violated {
                    "link invalid"
                } else {
                    "link"
                };
                let _ = write!(
                    out,
                    r#"<button class="{class}" data-testid="continuation" data-open=""#
                );
                esc_into(&mut out, id);
                out.push_str(r#"">"#);
                esc_into(&mut out, id);
                out.push_str("</button> ");
            }
            out.push_str("</li>");
        }
        out.push_str("</ul>");
        out
    }
}

/// A run as the Experiments view shows it (HTML): what it is, its reward
/// and labels, whether it was checked for violations, and its steps
/// (assistant messages, their tool calls named), the violating ones marked
/// with the constraints broken.
#[must_use]
pub fn run_card_html(t: &Trajectory, testid: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<div class="run-card" data-testid="{testid}" data-id=""#
    );
    esc_into(&mut out, &t.id);
    out.push_str(r#""><h4>"#);
    esc_into(&mut out, &t.id);
    out.push_str(r#"</h4><p class="detail">"#);
    esc_into(&mut out, &format!("{} · task {}", t.model, t.task_id));
    let what: Vec<String> = [
        ("checkpoint", t.checkpoint.clone()),
        ("branch", t.branch.map(|b| b.name().to_string())),
        ("intervention", t.intervention.clone()),
        ("stratum", t.stratum.clone()),
        ("round", t.round.clone()),
        ("condition", t.condition.clone()),
        ("trial", t.trial.map(|x| x.to_string())),
        ("reward", t.reward.map(|r| fmt(Some(100.0 * r), 1))),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some(format!("{k} {}", v?)))
    .collect();
    out.push_str(r#"</p><p class="detail">"#);
    esc_into(&mut out, &what.join(" · "));
    out.push_str("</p>");
    if !t.labels.is_empty() {
        let labels: Vec<String> = t
            .labels
            .iter()
            .map(|(op, l)| {
                let v: Vec<String> = l
                    .iter()
                    .map(|x| x.map_or_else(|| "null".into(), |v| fmt(Some(v), 1)))
                    .collect();
                format!("{op} [{}]", v.join(", "))
            })
            .collect();
        out.push_str(r#"<p class="detail">labels: "#);
        esc_into(&mut out, &labels.join(" · "));
        out.push_str("</p>");
    }
    let checked = match &t.violations {
        None => "not checked for violations".to_string(),
        Some(v) if v.is_empty() => "checked: no violation".to_string(),
        Some(v) => format!("{} violation(s)", v.len()),
    };
    out.push_str(r#"<p class="detail" data-testid="run-checked">"#);
    esc_into(&mut out, &checked);
    out.push_str("</p>");
    let steps: Vec<&gapscope_data::trajectory::Message> = t
        .messages
        .iter()
        .filter(|m| m.role == "assistant")
        .collect();
    if steps.is_empty() {
        out.push_str(r#"<p class="explain">No messages recorded.</p>"#);
    } else {
        out.push_str(r#"<ol class="steps">"#);
        for (k, m) in steps.iter().enumerate() {
            let step = k + 1;
            let found: Vec<&str> = t
                .violations
                .iter()
                .flatten()
                .filter(|v| v.step == step as u64)
                .map(|v| v.constraint.as_str())
                .collect();
            let mut text = match &m.content {
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => String::new(),
            };
            if !m.tool_calls.is_empty() {
                let calls: Vec<&str> = m.tool_calls.iter().map(|c| c.name.as_str()).collect();
                let _ = write!(text, " [{}]", calls.join(", "));
            }
            let cut: String = text.chars().take(240).collect();
            if found.is_empty() {
                let _ = write!(out, r#"<li data-testid="step" data-step="{step}">"#);
                esc_into(&mut out, &cut);
            } else {
                let _ = write!(
                    out,
                    r#"<li class="violation" data-testid="violation-step" data-step="{step}">"#
                );
                esc_into(&mut out, &cut);
                out.push_str(r#" <strong class="invalid">violates: "#);
                esc_into(&mut out, &found.join("; "));
                out.push_str("</strong>");
            }
            out.push_str("</li>");
        }
        out.push_str("</ol>");
    }
    out.push_str("</div>");
    out
}

/// The panel name of the reward-change table (its rows open runs).
pub const CHANGES: &str = "reward-changes";
/// The panel name of the violations table (its rows list continuations).
pub const VIOLATIONS: &str = "violations";

fn panel(view: &str, name: &str, t: &Table, pickable: bool) -> PanelText {
    PanelText {
        view: view.into(),
        title: t.title.clone(),
        name: name.into(),
        html: t.to_html_as(name, pickable),
        csv: t.to_csv(),
        latex: t.to_latex(),
    }
}

/// The page of the experiments: `interventions` and `continuations` with
/// their JSON texts (`None`: no such run).
#[must_use]
pub fn page(
    interventions: Option<(&Interventions, String)>,
    continuations: Option<(&Continuations, String)>,
    example: Option<String>,
) -> ExperimentsPage {
    let mut out = ExperimentsPage {
        example,
        ..ExperimentsPage::default()
    };
    if let Some((r, json)) = interventions {
        let [a, b] = contrast_titles(r);
        out.summary = format!(
            "{} cases (checkpoint × model × intervention), {} measures ({}).",
            r.cases.len(),
            r.measures.len(),
            r.measures.join(", ")
        );
        out.panels.extend([
            panel(
                "interventions",
                "contrasts",
                &contrast_table(&r.by_intervention, &a, false),
                false,
            ),
            panel(
                "interventions",
                "contrasts-by-stratum",
                &contrast_table(&r.by_stratum, &b, true),
                false,
            ),
            panel("interventions", CHANGES, &changes_table(r), true),
        ]);
        out.changes = r
            .reward_changes
            .iter()
            .map(|c| (c.original.first().cloned(), c.trajectory.clone()))
            .collect();
        out.interventions_json = Some(json);
    }
    if let Some((c, json)) = continuations {
        out.panels.extend([
            panel("continuations", "coverage", &coverage_table(c), false),
            panel("continuations", VIOLATIONS, &violations_table(c), true),
            panel("continuations", "reversals", &reversals_table(c), false),
        ]);
        out.rows = c
            .violations
            .iter()
            .map(|row| RowRuns {
                title: format!("{} · {}", row.checkpoint, row.model),
                cells: c
                    .columns
                    .iter()
                    .zip(&row.cells)
                    .map(|(col, cell)| {
                        (column_label(col), cell.trajectories.clone(), cell.violated)
                    })
                    .collect(),
            })
            .collect();
        out.continuations_json = Some(json);
    }
    out
}

/// A row's estimate: an interval, or descriptive (fewer than
/// [`MIN_TASKS`] tasks).
fn estimate(r: &ContrastRow) -> &'static str {
    if r.descriptive {
        "descriptive"
    } else {
        "interval"
    }
}

/// A contrast table (per model × intervention, or × stratum too).
#[must_use]
pub fn contrast_table(rows: &[ContrastRow], title: &str, with_stratum: bool) -> Table {
    let mut headers = vec!["Model", "Intervention"];
    if with_stratum {
        headers.push("Stratum");
    }
    headers.extend([
        "Measure",
        "Contrast",
        "Cases",
        "Tasks",
        "Mean",
        "Non-zero (%)",
        "Estimate",
        "95% interval",
    ]);
    Table {
        title: title.to_string(),
        headers: headers.into_iter().map(String::from).collect(),
        rows: rows
            .iter()
            .map(|r| {
                let mut row = vec![Cell::text(&r.model), Cell::text(&r.intervention)];
                if with_stratum {
                    row.push(Cell::text(r.stratum.as_deref().unwrap_or("—")));
                }
                row.extend([
                    Cell::text(&r.measure),
                    Cell::text(r.contrast.label()),
                    Cell::num(Some(r.cases as f64), 0),
                    Cell::num(Some(r.tasks as f64), 0),
                    Cell::num(Some(r.mean), 2),
                    Cell::num(Some(100.0 * r.nonzero), 0),
                    Cell::text(estimate(r)),
                    Cell::Interval {
                        value: r
                            .interval
                            .as_ref()
                            .and_then(gapscope_stats::paired::BootInterval::bounds),
                        decimals: 2,
                    },
                ]);
                row
            })
            .collect(),
    }
}

/// The two contrast tables' titles, with the settings in force.
#[must_use]
pub fn contrast_titles(r: &Interventions) -> [String; 2] {
    let how = format!(
        "95% task-clustered bootstrap, B = {}, seed {}; under {MIN_TASKS} tasks descriptive",
        r.bootstrap, r.seed
    );
    [
        format!("Contrasts by model and intervention ({how})"),
        format!("Contrasts by model, intervention and stratum ({how})"),
    ]
}

/// The reward changes, one row each; the app opens row `i`'s edited run
/// beside its original branch.
#[must_use]
pub fn changes_table(r: &Interventions) -> Table {
    Table {
        title: "Reward changes: edited repetitions whose reward differs from the original branch's mean"
            .into(),
        headers: [
            "Model",
            "Intervention",
            "Checkpoint",
            "Task",
            "Edited run",
            "Reward",
            "Original mean",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .reward_changes
            .iter()
            .map(|c| {
                vec![
                    Cell::text(&c.model),
                    Cell::text(&c.intervention),
                    Cell::text(&c.checkpoint),
                    Cell::text(&c.task),
                    Cell::text(&c.trajectory),
                    Cell::num(Some(c.reward), 1),
                    Cell::num(Some(c.original_mean), 1),
                ]
            })
            .collect(),
    }
}

fn name(s: Option<&str>) -> &str {
    s.unwrap_or("—")
}

/// A violations column's heading: `round · condition`.
#[must_use]
pub fn column_label(c: &Column) -> String {
    format!(
        "{} · {}",
        name(c.round.as_deref()),
        name(c.condition.as_deref())
    )
}

/// Table 7.
#[must_use]
pub fn coverage_table(c: &Continuations) -> Table {
    Table {
        title: "Coverage per round (Table 7)".into(),
        headers: ["Round", "States", "Repeats", "Steps", "Runs", "Scoreable"]
            .map(String::from)
            .to_vec(),
        rows: c
            .coverage
            .iter()
            .map(|x| {
                let n = |v: usize| Cell::num(Some(v as f64), 0);
                vec![
                    Cell::text(name(x.round.as_deref())),
                    n(x.states),
                    n(x.repeats),
                    n(x.steps),
                    n(x.runs),
                    n(x.scoreable),
                ]
            })
            .collect(),
    }
}

/// Table 15: per (checkpoint, model), each (round, condition)'s
/// `violated/scoreable` (`*` when repeated) and whether any is repeated.
#[must_use]
pub fn violations_table(c: &Continuations) -> Table {
    let mut headers = vec!["Checkpoint".to_string(), "Model".to_string()];
    headers.extend(c.columns.iter().map(column_label));
    headers.push("Repeated".into());
    Table {
        title: "Violations per checkpoint and model (Table 15): repetitions with a violation / scoreable; * repeated (≥ 2)".into(),
        headers,
        rows: c.violations.iter().map(violation_row).collect(),
    }
}

fn violation_row(r: &ViolationRow) -> Vec<Cell> {
    let mut row = vec![Cell::text(&r.checkpoint), Cell::text(&r.model)];
    row.extend(r.cells.iter().map(|x| {
        Cell::text(format!(
            "{}/{}{}",
            x.violated,
            x.scoreable,
            if x.repeated { " *" } else { "" }
        ))
    }));
    row.push(Cell::text(if r.repeated { "yes" } else { "no" }));
    row
}

/// Later reversals per model (every condition, then each).
#[must_use]
pub fn reversals_table(c: &Continuations) -> Table {
    Table {
        title: "Later reversals: scoreable continuations with ≥ 2 steps and no violation at step 1 that violate later".into(),
        headers: ["Model", "Condition", "Eligible", "Reversals", "Share (%)"]
            .map(String::from)
            .to_vec(),
        rows: c
            .reversals
            .iter()
            .map(|x| {
                vec![
                    Cell::text(&x.model),
                    Cell::text(if x.pooled {
                        "all"
                    } else {
                        name(x.condition.as_deref())
                    }),
                    Cell::num(Some(x.eligible as f64), 0),
                    Cell::num(Some(x.reversals as f64), 0),
                    Cell::num(x.share.map(|s| 100.0 * s), 0),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_data::formats::jsonl::read_jsonl;
    use gapscope_gaps::experiments::{continuations, interventions};

    fn corpus() -> Vec<gapscope_data::trajectory::Trajectory> {
        let text = include_str!("../../../assets/synthetic-experiments/experiments.jsonl");
        read_jsonl(text).trajectories
    }

    #[test]
    fn contrast_rows_are_the_cores() {
        let r = interventions(&corpus(), 200, 0).unwrap();
        let [a, b] = contrast_titles(&r);
        let t = contrast_table(&r.by_intervention, &a, false);
        assert_eq!(t.rows.len(), r.by_intervention.len());
        assert_eq!(t.headers.len(), 10);
        let first = &r.by_intervention[0];
        assert_eq!(
            t.rows[0][6].display(),
            crate::format::fmt(Some(first.mean), 2)
        );
        let iv = first.interval.unwrap().bounds().unwrap();
        let csv = t.to_csv();
        let line = csv.lines().nth(1).unwrap();
        assert!(line.ends_with(&format!("{},{}", iv[0], iv[1])), "{line}");
        let s = contrast_table(&r.by_stratum, &b, true);
        assert_eq!(s.headers[2], "Stratum");
        assert!(b.contains("B = 200, seed 0"));
    }

    #[test]
    fn a_run_card_marks_its_violating_step() {
        let ts = corpus();
        let t = ts
            .iter()
            .find(|t| t.id == "cont/synth-d/state-2/initial/N/0")
            .unwrap();
        let html = run_card_html(t, "run");
        assert!(html.contains(r#"<li class="violation" data-testid="violation-step" data-step="2">step 2 (synthetic) <strong class="invalid">violates: no refund without verification</strong></li>"#), "{html}");
        assert!(
            html.contains("round initial · condition N · trial 0"),
            "{html}"
        );
        let rows = page(None, Some((&continuations(&ts), String::new())), None).rows;
        let r = rows
            .iter()
            .find(|r| r.title == "state-2 · synth-d")
            .unwrap();
        assert!(r.html().starts_with(r#"<ul><li>initial · N: <button class="link invalid" data-testid="continuation" data-open="cont/synth-d/state-2/initial/N/0">"#), "{}", r.html());
    }

    #[test]
    fn violations_and_reversals() {
        let c = continuations(&corpus());
        let t = violations_table(&c);
        assert_eq!(t.headers[2], "initial · N");
        let planted = c
            .violations
            .iter()
            .position(|r| r.model == "synth-d" && r.checkpoint == "state-2")
            .unwrap();
        assert_eq!(t.rows[planted][2].display(), "3/3 *");
        assert_eq!(t.rows[planted].last().unwrap().display(), "yes");
        let rv = reversals_table(&c);
        assert_eq!(rv.rows[0][1].display(), "all");
        assert_eq!(coverage_table(&c).rows.len(), 2);
    }
}
