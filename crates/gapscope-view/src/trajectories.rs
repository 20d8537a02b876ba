//! View models of the trajectory pages: the operation profile with its
//! eligible counts, the filterable trajectory list, a trajectory's messages
//! as text, and cross-task stability (table and half-A vs half-B scatter).
//! No leptos here; `app.rs` renders these.

use gapscope_gaps::overview::{Overview, TrajectorySummary};
use gapscope_gaps::stability::StabilityReport;

use crate::chart;
use crate::format::fmt;
use crate::scatter::{self, Point};
use crate::table::{Cell, Table};

/// The trajectory and stability pages: (id, menu label, one-line explanation).
pub const TRAJECTORY_VIEWS: [(&str, &str, &str); 5] = [
    ("trajectories", "Trajectories", "Every trajectory behind the profiles: filter by model, task, group, reward, termination, tool errors or missed gold actions, and read one as a conversation."),
    ("stability", "Stability", "Cross-task stability: split the scenario groups into two halves, fit the gaps on each, and rank-correlate them (Spearman) per operation and for the macro gap."),
    ("teaching", "Planted vs recovered", "For the synthetic corpus only: the gaps the generator planted against the gaps the analysis recovers, and how recovery grows with the number of models (held-out prediction, not label noise, limits it)."),
    ("compare", "Runs", "Each run's mean reward with clustered and bootstrap intervals, pass^k and flip rate; with two or more runs, is run A better than run B on the same tasks, and by how much beyond noise: every pair's paired difference, sign and permutation tests (Holm / BH), MDE; per-task differences, and two trajectories of a task side by side."),
    ("experiments", "Experiments", "Runs from restored checkpoints, beside the corpus: local content interventions (edited − original, control − original, edited − control per model, intervention and stratum, task-clustered intervals; the reward changes, each beside its original branch) and shared-initial-state continuations (coverage, repeated violations per checkpoint and model, later reversals)."),
];

/// The planted gaps of the synthetic corpus (`planted.csv`): per model, the
/// planted gap of each operation and the macro (their mean).
pub fn read_planted(csv_text: &str) -> Vec<(String, Vec<(String, f64)>)> {
    let mut lines = csv_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let names: Vec<&str> = header.split(',').collect();
    lines
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            let values = names
                .iter()
                .zip(&cells)
                .skip(2)
                .filter_map(|(n, v)| Some((n.to_string(), v.parse::<f64>().ok()?)))
                .collect();
            Some((cells.first()?.to_string(), values))
        })
        .collect()
}

/// Planted against recovered gaps of one operation (or `macro`): the table,
/// the scatter, and their Spearman correlation (core statistics).
pub fn planted_vs_recovered(
    r: &gapscope_gaps::Report,
    planted: &[(String, Vec<(String, f64)>)],
    name: &str,
) -> Option<(Table, String, Option<f64>)> {
    let recovered = if name == "macro" {
        &r.macro_fit.fit.gap
    } else {
        &r.operations.get(name)?.gap
    };
    let mut rows = Vec::new();
    let (mut xs, mut ys, mut points) = (Vec::new(), Vec::new(), Vec::new());
    for (i, m) in r.models.iter().enumerate() {
        let p = planted
            .iter()
            .find(|(pm, _)| pm == m)
            .and_then(|(_, v)| v.iter().find(|(n, _)| n == name).map(|(_, x)| *x));
        let g = recovered.get(i).copied().flatten();
        rows.push(vec![Cell::text(m), Cell::num(p, 1), Cell::num(g, 1)]);
        if let (Some(p), Some(g)) = (p, g) {
            xs.push(p);
            ys.push(g);
            points.push(Point {
                x: p,
                y: g,
                label: m.clone(),
                colour: chart::FAMILY_COLOURS[0].to_string(),
                tip: format!(
                    "{m}: planted {}, recovered {}",
                    fmt(Some(p), 1),
                    fmt(Some(g), 1)
                ),
                highlight: false,
            });
        }
    }
    let rho = gapscope_stats::summary::spearman(&xs, &ys);
    let title = format!(
        "{name}: planted vs recovered gap (Spearman {})",
        rho.map_or("—".into(), |v| fmt(Some(v), 2))
    );
    Some((
        Table {
            title: title.clone(),
            headers: ["Model", "Planted gap", "Recovered gap"]
                .map(String::from)
                .to_vec(),
            rows,
        },
        scatter::scatter(&title, "planted gap", "recovered gap", &points, true),
        rho,
    ))
}

/// Which trajectories the list shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrajectoryFilter {
    pub model: Option<String>,
    /// A substring of the task id.
    pub task: String,
    pub group: Option<String>,
    pub reward: RewardFilter,
    pub termination: Option<String>,
    pub tool_errors_only: bool,
    pub gold_unmatched_only: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RewardFilter {
    #[default]
    All,
    /// Reward 1 (full success).
    Success,
    /// Reward below 1 (or missing).
    Failure,
}

/// How the list is ordered.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum TrajectoryOrder {
    #[default]
    Input,
    /// By the trajectory's score on this operation, lowest first (no score last).
    OperationAscending(String),
    /// By reward, lowest first.
    Reward,
    /// By task id in natural order (numbers as numbers: task 2 before task
    /// 10), then model, then trial.
    Task,
}

/// Natural order of two ids: runs of ASCII digits compare as numbers
/// (`2` < `10`, `task-9` < `task-10`; leading zeros: the shorter run
/// first on equal value), everything else character by character.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut x, mut y) = (a, b);
    loop {
        match (x.chars().next(), y.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let n = x.find(|c: char| !c.is_ascii_digit()).unwrap_or(x.len());
                let m = y.find(|c: char| !c.is_ascii_digit()).unwrap_or(y.len());
                let (dx, dy) = (&x[..n], &y[..m]);
                let (tx, ty) = (dx.trim_start_matches('0'), dy.trim_start_matches('0'));
                // Without leading zeros, a longer run is a larger number.
                let o = tx
                    .len()
                    .cmp(&ty.len())
                    .then_with(|| tx.cmp(ty))
                    .then_with(|| n.cmp(&m));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[n..];
                y = &y[m..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x = &x[c.len_utf8()..];
                y = &y[d.len_utf8()..];
            }
        }
    }
}

impl TrajectoryFilter {
    pub fn keeps(&self, t: &TrajectorySummary) -> bool {
        self.model.as_ref().is_none_or(|m| &t.model == m)
            && (self.task.is_empty() || t.task_id.contains(self.task.trim()))
            && self
                .group
                .as_ref()
                .is_none_or(|g| t.group.as_ref() == Some(g))
            && match self.reward {
                RewardFilter::All => true,
                RewardFilter::Success => t.reward.is_some_and(|r| r >= 1.0),
                RewardFilter::Failure => t.reward.is_none_or(|r| r < 1.0),
            }
            && self
                .termination
                .as_ref()
                .is_none_or(|x| t.termination_reason.as_ref() == Some(x))
            && (!self.tool_errors_only || t.tool_errors > 0)
            && (!self.gold_unmatched_only || t.gold_unmatched > 0)
    }
}

/// Indices of the trajectories to show, in order.
pub fn trajectory_rows(
    o: &Overview,
    filter: &TrajectoryFilter,
    order: &TrajectoryOrder,
) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..o.trajectories.len())
        .filter(|&i| filter.keeps(&o.trajectories[i]))
        .collect();
    let key = |v: Option<f64>| v.unwrap_or(f64::INFINITY);
    match order {
        TrajectoryOrder::Input => {}
        TrajectoryOrder::Reward => rows.sort_by(|&a, &b| {
            key(o.trajectories[a].reward).total_cmp(&key(o.trajectories[b].reward))
        }),
        TrajectoryOrder::Task => rows.sort_by(|&a, &b| {
            let (x, y) = (&o.trajectories[a], &o.trajectories[b]);
            natural_cmp(&x.task_id, &y.task_id)
                .then_with(|| x.model.cmp(&y.model))
                .then_with(|| x.trial.cmp(&y.trial))
        }),
        TrajectoryOrder::OperationAscending(op) => {
            if let Some(k) = o.profile.operations.iter().position(|x| x == op) {
                rows.sort_by(|&a, &b| {
                    key(o.trajectories[a].scores[k]).total_cmp(&key(o.trajectories[b].scores[k]))
                });
            }
        }
    }
    rows
}

/// Distinct values in order of first appearance.
pub fn distinct<'a>(values: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.iter().any(|x| x == v) {
            out.push(v.to_string());
        }
    }
    out
}

/// Why the overview has no operation profile, when it has none: no task
/// is common to every model (runs of different domains), so no
/// trajectory is used. `None` when the profile table has rows to show.
pub fn no_profile_sentence(o: &Overview) -> Option<String> {
    let p = &o.profile;
    (p.n_used == 0 && p.n_total > 0 && p.common_tasks_only).then(|| {
        format!(
            "No operation profile: no task is attempted by every one of the {} models, \
             and the profile compares models on common tasks only. Runs compares each \
             pair of runs on the tasks the two share.",
            p.models.len()
        )
    })
}

/// The operation profile from the trajectories, with eligible counts.
pub fn profile_table(o: &Overview) -> Table {
    let p = &o.profile;
    let mut headers = vec!["Model".to_string(), "Family".to_string()];
    for op in &p.operations {
        headers.push(op.clone());
        headers.push(format!("n {op}"));
    }
    headers.extend(["Reward".to_string(), "Trajectories".to_string()]);
    Table {
        title: format!(
            "Operation profile from the trajectories ({} of {} on the {} {} tasks)",
            p.n_used,
            p.n_total,
            p.tasks.len(),
            if p.common_tasks_only {
                "common"
            } else {
                "attempted"
            }
        ),
        headers,
        rows: (0..p.models.len())
            .map(|i| {
                let mut row = vec![
                    Cell::text(&p.models[i]),
                    Cell::text(p.families[i].clone().unwrap_or_else(|| "—".into())),
                ];
                for k in 0..p.operations.len() {
                    row.push(Cell::num(p.scores[i][k], 1));
                    row.push(Cell::num(Some(p.eligible[i][k] as f64), 0));
                }
                row.push(Cell::num(p.reward[i], 1));
                row.push(Cell::num(Some(p.trajectories[i] as f64), 0));
                row
            })
            .collect(),
    }
}

/// The list rows as a table (for export; the page renders the same cells).
pub fn list_table(o: &Overview, rows: &[usize]) -> Table {
    let mut headers: Vec<String> = [
        "Trajectory",
        "Model",
        "Task",
        "Group",
        "Reward",
        "Termination",
        "Tool errors",
        "Gold missed",
    ]
    .map(String::from)
    .to_vec();
    headers.extend(o.profile.operations.iter().cloned());
    Table {
        title: "Trajectories".into(),
        headers,
        rows: rows
            .iter()
            .map(|&i| {
                let t = &o.trajectories[i];
                let mut row = vec![
                    Cell::text(&t.id),
                    Cell::text(&t.model),
                    Cell::text(&t.task_id),
                    Cell::text(t.group.clone().unwrap_or_else(|| "—".into())),
                    Cell::num(t.reward, 2),
                    Cell::text(t.termination_reason.clone().unwrap_or_else(|| "—".into())),
                    Cell::num(Some(t.tool_errors as f64), 0),
                    if t.gold_actions == 0 {
                        Cell::text("—")
                    } else {
                        Cell::text(format!("{} of {}", t.gold_unmatched, t.gold_actions))
                    },
                ];
                row.extend(t.scores.iter().map(|s| Cell::num(*s, 0)));
                row
            })
            .collect(),
    }
}

/// A message's content as text: strings as they are, anything else as JSON.
pub fn content_text(v: &Option<serde_json::Value>) -> String {
    match v {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// How a [`gapscope_data::trajectory::Detail`]'s value is shown: a string as
/// it is, anything else as indented JSON, cut at [`DETAIL_CHARS`] characters
/// (saying how much is left out).
pub fn detail_text(v: &serde_json::Value) -> String {
    let text = match v {
        serde_json::Value::String(s) => s.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    };
    let n = text.chars().count();
    if n <= DETAIL_CHARS {
        return text;
    }
    let kept: String = text.chars().take(DETAIL_CHARS).collect();
    format!("{kept}… ({} more characters)", n - DETAIL_CHARS)
}

/// The most characters of a detail the viewer shows.
pub const DETAIL_CHARS: usize = 4000;

/// The stability table: ρ per operation and macro, interval, further splits.
pub fn stability_table(s: &StabilityReport) -> Table {
    Table {
        title: format!(
            "Cross-task stability: half A ({} tasks) vs half B ({} tasks), seed {}",
            s.tasks_a, s.tasks_b, s.seed
        ),
        headers: [
            "Gap",
            "ρ (A vs B)",
            "95% interval",
            "Models",
            "Median ρ",
            "Range",
            "Skipped draws",
        ]
        .map(String::from)
        .to_vec(),
        rows: s
            .stability
            .iter()
            .map(|(name, st)| {
                vec![
                    Cell::text(name),
                    Cell::num(st.rho, 2),
                    Cell::text(st.ci95.map_or_else(
                        || "—".into(),
                        |[a, b]| format!("[{}, {}]", fmt(Some(a), 2), fmt(Some(b), 2)),
                    )),
                    Cell::num(Some(st.n as f64), 0),
                    Cell::num(st.median, 2),
                    Cell::text(st.range.map_or_else(
                        || "—".into(),
                        |[a, b]| format!("{} to {}", fmt(Some(a), 2), fmt(Some(b), 2)),
                    )),
                    Cell::num(Some(st.skipped as f64), 0),
                ]
            })
            .collect(),
    }
}

/// Half-A against half-B gaps of one operation (or `macro`), one point per model.
pub fn stability_scatter(s: &StabilityReport, name: &str) -> Option<String> {
    let st = s.stability.get(name)?;
    let points: Vec<Point> = s
        .models
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let (x, y) = ((*st.gaps_a.get(i)?)?, (*st.gaps_b.get(i)?)?);
            Some(Point {
                x,
                y,
                label: m.clone(),
                colour: chart::FAMILY_COLOURS[0].to_string(),
                tip: format!(
                    "{m}: gap {} on half A, {} on half B",
                    fmt(Some(x), 1),
                    fmt(Some(y), 1)
                ),
                highlight: false,
            })
        })
        .collect();
    Some(scatter::scatter(
        &format!(
            "{name}: gap on half A vs half B (ρ = {})",
            st.rho.map_or("—".into(), |r| fmt(Some(r), 2))
        ),
        "gap, half A",
        "gap, half B",
        &points,
        true,
    ))
}

/// The name of a score choice as `--scorer` takes it (`SCORER` or
/// `SCORER:KEY`); `None` for the default (each log's first scorer).
pub fn score_choice_name(choice: &gapscope_data::formats::inspect::ScoreChoice) -> Option<String> {
    let s = choice.scorer.as_ref()?;
    Some(match &choice.key {
        Some(k) => format!("{s}:{k}"),
        None => s.clone(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn natural_order_reads_numbers_as_numbers() {
        use std::cmp::Ordering::*;
        let mut ids = vec![
            "10", "2", "1", "task-10", "task-9", "b", "a10", "a2", "007", "7", "02",
        ];
        ids.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            ids,
            ["1", "2", "02", "7", "007", "10", "a2", "a10", "b", "task-9", "task-10"]
        );
        assert_eq!(natural_cmp("x1y2", "x1y10"), Less);
        assert_eq!(natural_cmp("é2", "é2"), Equal);
        // A number longer than any integer type still orders.
        assert_eq!(
            natural_cmp("99999999999999999999999", "100000000000000000000000"),
            Less
        );
    }
    use gapscope_gaps::overview::overview;

    #[test]
    fn a_detail_is_its_string_or_indented_json_cut_at_the_limit() {
        assert_eq!(detail_text(&serde_json::json!("timed out")), "timed out");
        assert_eq!(
            detail_text(&serde_json::json!({"a": 1})),
            "{\n  \"a\": 1\n}"
        );
        let long = "x".repeat(DETAIL_CHARS + 5);
        assert_eq!(
            detail_text(&serde_json::json!(long)),
            format!("{}… (5 more characters)", "x".repeat(DETAIL_CHARS))
        );
    }

    const FOUNDATIONAL: &str =
        include_str!("../../../assets/synthetic-trajectories/foundational.csv");
    const TRAJECTORIES: &str =
        include_str!("../../../assets/synthetic-trajectories/trajectories.jsonl");

    fn corpus() -> Overview {
        overview(
            &[
                ("f.csv".to_string(), FOUNDATIONAL),
                ("t.jsonl".to_string(), TRAJECTORIES),
            ],
            &Default::default(),
        )
        .unwrap()
        .unwrap()
    }

    #[test]
    fn filters_and_orders_the_list() {
        let o = corpus();
        let all = trajectory_rows(&o, &TrajectoryFilter::default(), &TrajectoryOrder::Input);
        assert_eq!(all.len(), o.trajectories.len());
        let model = o.trajectories[0].model.clone();
        let f = TrajectoryFilter {
            model: Some(model.clone()),
            reward: RewardFilter::Failure,
            ..Default::default()
        };
        let rows = trajectory_rows(&o, &f, &TrajectoryOrder::OperationAscending("PL".into()));
        assert!(!rows.is_empty());
        // Every kept row matches; every dropped row fails a condition.
        for (i, t) in o.trajectories.iter().enumerate() {
            assert_eq!(
                rows.contains(&i),
                t.model == model && t.reward.is_none_or(|r| r < 1.0)
            );
        }
        let k = o.profile.operations.iter().position(|x| x == "PL").unwrap();
        let scores: Vec<f64> = rows
            .iter()
            .map(|&i| o.trajectories[i].scores[k].unwrap_or(f64::INFINITY))
            .collect();
        assert!(scores.windows(2).all(|w| w[0] <= w[1]), "lowest PL first");
        let t = list_table(&o, &rows);
        assert_eq!(t.rows.len(), rows.len());
        assert_eq!(t.headers.len(), 8 + o.profile.operations.len());
    }

    #[test]
    fn no_profile_is_said_only_when_no_trajectory_is_on_a_common_task() {
        let mut o = corpus();
        assert_eq!(no_profile_sentence(&o), None);
        o.profile.n_used = 0;
        let s = no_profile_sentence(&o).unwrap();
        assert!(
            s.starts_with(&format!(
                "No operation profile: no task is attempted by every one of the {} models",
                o.profile.models.len()
            )),
            "{s}"
        );
        o.profile.common_tasks_only = false;
        assert_eq!(
            no_profile_sentence(&o),
            None,
            "all tasks: the table says it"
        );
    }

    #[test]
    fn profile_table_shows_scores_and_eligible_counts() {
        let o = corpus();
        let t = profile_table(&o);
        assert_eq!(t.rows.len(), o.profile.models.len());
        assert_eq!(t.headers[2], o.profile.operations[0]);
        assert_eq!(t.headers[3], format!("n {}", o.profile.operations[0]));
        assert_eq!(t.rows[0][3].display(), o.profile.eligible[0][0].to_string());
    }

    #[test]
    fn content_is_text_or_json() {
        assert_eq!(content_text(&None), "");
        assert_eq!(content_text(&Some(serde_json::json!("hi"))), "hi");
        assert_eq!(
            content_text(&Some(serde_json::json!({"a": 1}))),
            "{\n  \"a\": 1\n}"
        );
    }
}
