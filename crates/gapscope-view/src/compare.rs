//! The Compare view's models, built from a core [`CompareReport`] (the
//! report `gapscope compare --json` prints): the runs table and chart, the
//! pairwise matrix, the forest plot of one run, the per-task table of one
//! pair, the task × run heatmap, and two trajectories side by side with
//! their tool calls aligned ([`gapscope_compare::align`]). Rewards and
//! differences are shown on 0–100, as the CLI's text tables show them.

use gapscope_compare::align::{align, tool_calls, AlignError, CallRef};
use gapscope_compare::CompareReport;
use gapscope_data::trajectory::Trajectory;
use gapscope_stats::paired::{Adjusted, BootInterval, PairRow};

use crate::chart::{forest as forest_chart, ForestRow};
use crate::colour::{diverging, ink};
use crate::format::fmt;
use crate::heatmap::{HeatCell, Heatmap};
use crate::nav::Choice;
use crate::table::{Cell, Table};

/// Which p-value the pairwise matrix shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PKind {
    /// The sign-flip permutation test, Holm-adjusted across the pairs.
    #[default]
    PermutationHolm,
    /// The permutation test, Benjamini–Hochberg-adjusted.
    PermutationBh,
    /// The sign test (exact McNemar when it applies), Holm-adjusted.
    SignHolm,
}

impl Choice for PKind {
    const ALL: &'static [PKind] = &[
        PKind::PermutationHolm,
        PKind::PermutationBh,
        PKind::SignHolm,
    ];

    fn id(self) -> &'static str {
        match self {
            PKind::PermutationHolm => "holm",
            PKind::PermutationBh => "bh",
            PKind::SignHolm => "sign",
        }
    }

    fn label(self) -> &'static str {
        match self {
            PKind::PermutationHolm => "permutation p, Holm-adjusted",
            PKind::PermutationBh => "permutation p, Benjamini–Hochberg",
            PKind::SignHolm => "sign test p, Holm-adjusted",
        }
    }
}

impl PKind {
    /// This p-value of a pair.
    pub fn of(self, pair: &PairRow) -> Option<f64> {
        match self {
            PKind::PermutationHolm => pair.permutation_p.holm,
            PKind::PermutationBh => pair.permutation_p.bh,
            PKind::SignHolm => pair.sign_test_p.holm,
        }
    }
}

fn pct(x: Option<f64>) -> Option<f64> {
    x.map(|v| 100.0 * v)
}

fn pct2(x: Option<[f64; 2]>) -> Option<[f64; 2]> {
    x.map(|[a, b]| [100.0 * a, 100.0 * b])
}

fn boot(b: Option<&BootInterval>) -> Option<[f64; 2]> {
    b.and_then(BootInterval::bounds)
}

/// A p-value as text: 3 significant digits, `—` when undefined.
pub fn p_text(p: Option<f64>) -> String {
    match p {
        None => "—".into(),
        Some(p) if p >= 0.001 => format!("{p:.3}"),
        Some(p) => format!("{p:.1e}").replace('-', "−"),
    }
}

fn signed(v: Option<f64>, decimals: usize) -> String {
    match v {
        Some(x) if x > 0.0 && fmt(v, decimals).chars().any(|c| c != '0' && c != '.') => {
            format!("+{}", fmt(v, decimals))
        }
        _ => fmt(v, decimals),
    }
}

/// The runs table: one row per run, on 0–100.
pub fn runs_table(r: &CompareReport) -> Table {
    let k_max = r.max_pass_k();
    let mut headers: Vec<String> = [
        "run",
        "tasks",
        "trajectories",
        "trials per task",
        "mean",
        "clustered 95% CI",
        "bootstrap 95% CI",
        "excluded",
    ]
    .map(String::from)
    .to_vec();
    headers.extend((1..=k_max).map(|k| format!("pass^{k}")));
    headers.extend(["flip rate".to_string(), "ICC(1)".to_string()]);
    let rows = r
        .runs
        .iter()
        .map(|run| {
            let s = &run.summary;
            let mut row = vec![
                Cell::text(&run.name),
                Cell::num(Some(s.tasks as f64), 0),
                Cell::num(Some(s.trajectories as f64), 0),
                Cell::text(if run.trials[0] == run.trials[1] {
                    run.trials[0].to_string()
                } else {
                    format!("{}–{}", run.trials[0], run.trials[1])
                }),
                Cell::num(pct(s.mean), 1),
                Cell::Interval {
                    value: pct2(s.normal),
                    decimals: 1,
                },
                Cell::Interval {
                    value: pct2(boot(s.bootstrap.as_ref())),
                    decimals: 1,
                },
                Cell::num(Some(run.excluded.len() as f64), 0),
            ];
            row.extend((0..k_max).map(|k| Cell::num(pct(s.pass_hat.get(k).map(|p| p.value)), 1)));
            row.push(Cell::num(pct(s.flip_rate), 1));
            row.push(Cell::num(s.icc, 2));
            row
        })
        .collect();
    Table {
        title: "Runs".into(),
        headers,
        rows,
    }
}

/// Each run's mean with its task-bootstrap interval (thick) and its
/// clustered normal interval (dashed), as a forest plot.
pub fn runs_chart(r: &CompareReport) -> String {
    let rows: Vec<ForestRow> = r
        .runs
        .iter()
        .map(|run| {
            let s = &run.summary;
            let bootstrap = pct2(boot(s.bootstrap.as_ref()));
            ForestRow {
                label: run.name.clone(),
                value: pct(s.mean),
                bootstrap,
                normal: pct2(s.normal),
                tip: format!(
                    "{}\nmean {} on {} tasks\nbootstrap 95% {}\nclustered 95% {}",
                    run.name,
                    fmt(pct(s.mean), 1),
                    s.tasks,
                    interval_text(bootstrap, 1),
                    interval_text(pct2(s.normal), 1),
                ),
            }
        })
        .collect();
    forest_chart(
        "Mean reward per run, 95% intervals",
        "mean reward (0–100)",
        &rows,
    )
}

fn interval_text(i: Option<[f64; 2]>, decimals: usize) -> String {
    i.map_or_else(
        || "—".into(),
        |[a, b]| format!("[{}, {}]", fmt(Some(a), decimals), fmt(Some(b), decimals)),
    )
}

fn adjusted_cells(a: &Adjusted) -> [Cell; 3] {
    [a.raw, a.holm, a.bh].map(|p| Cell::text(p_text(p)))
}

/// The pairs table: Δ (A − B, 0–100) with both intervals, the MDE and
/// every p-value with its adjustments.
pub fn pairs_table(r: &CompareReport) -> Table {
    let headers = [
        "A",
        "B",
        "common tasks",
        "Δ (A − B)",
        "bootstrap 95% CI",
        "normal 95% CI",
        "MDE",
        "A better / B better / ties",
        "sign p",
        "sign p (Holm)",
        "sign p (BH)",
        "permutation p",
        "permutation p (Holm)",
        "permutation p (BH)",
    ]
    .map(String::from)
    .to_vec();
    let rows = r
        .pairs
        .iter()
        .map(|p| {
            let c = &p.comparison;
            let mut row = vec![
                Cell::text(&p.a),
                Cell::text(&p.b),
                Cell::num(Some(c.common as f64), 0),
                Cell::num(pct(c.delta), 1),
                Cell::Interval {
                    value: pct2(boot(c.bootstrap.as_ref())),
                    decimals: 1,
                },
                Cell::Interval {
                    value: pct2(c.normal),
                    decimals: 1,
                },
                Cell::num(pct(c.mde), 1),
                Cell::text(format!(
                    "{} / {} / {}",
                    c.sign_test.positive, c.sign_test.negative, c.sign_test.ties
                )),
            ];
            row.extend(adjusted_cells(&p.sign_test_p));
            row.extend(adjusted_cells(&p.permutation_p));
            row
        })
        .collect();
    Table {
        title: "Pairs".into(),
        headers,
        rows,
    }
}

/// The first pair of runs (i, j), i < j, with a task in common: the pair
/// the page shows first (runs of different domains share no task).
pub fn first_paired(r: &CompareReport) -> Option<(usize, usize)> {
    let n = r.runs.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .find(|&(i, j)| {
            pair_index(r, i, j)
                .and_then(|(k, _)| r.pairs.get(k))
                .is_some_and(|p| p.comparison.common > 0)
        })
}

/// The pair of runs `i` and `j` (in either order): its index and whether
/// `i` is its A.
pub fn pair_index(r: &CompareReport, i: usize, j: usize) -> Option<(usize, bool)> {
    let (a, b) = (&r.runs.get(i)?.name, &r.runs.get(j)?.name);
    r.pairs.iter().enumerate().find_map(|(k, p)| {
        if &p.a == a && &p.b == b {
            Some((k, true))
        } else if &p.a == b && &p.b == a {
            Some((k, false))
        } else {
            None
        }
    })
}

/// Runs × runs: the cell (i, j) is Δ = run i − run j (0–100) with the
/// chosen p-value; blue where the row's run is better. The diagonal is
/// empty.
pub fn pair_matrix(r: &CompareReport, kind: PKind) -> Heatmap {
    let names: Vec<String> = r.runs.iter().map(|run| run.name.clone()).collect();
    let scale = r
        .pairs
        .iter()
        .filter_map(|p| pct(p.comparison.delta))
        .fold(0.0f64, |m, d| m.max(d.abs()));
    let cells = (0..names.len())
        .map(|i| {
            (0..names.len())
                .map(|j| {
                    let Some((k, forward)) = pair_index(r, i, j) else {
                        return HeatCell {
                            value: None,
                            label: String::new(),
                            detail: names[i].clone(),
                            fill: "#f4f4f4".into(),
                            ink: "#1a1a1a",
                        };
                    };
                    let p = &r.pairs[k];
                    let sign = if forward { 1.0 } else { -1.0 };
                    let delta = pct(p.comparison.delta).map(|d| sign * d);
                    let ci = pct2(boot(p.comparison.bootstrap.as_ref())).map(|[lo, hi]| {
                        if forward {
                            [lo, hi]
                        } else {
                            [-hi, -lo]
                        }
                    });
                    let pv = kind.of(p);
                    HeatCell {
                        value: delta,
                        label: format!("{} (p {})", signed(delta, 1), p_text(pv)),
                        detail: format!(
                            "{} − {}\nΔ {} on {} common tasks\nbootstrap 95% {}\n{} {}",
                            names[i],
                            names[j],
                            signed(delta, 1),
                            p.comparison.common,
                            interval_text(ci, 1),
                            kind.label(),
                            p_text(pv),
                        ),
                        fill: diverging(delta, scale),
                        ink: ink(delta, scale),
                    }
                })
                .collect()
        })
        .collect();
    Heatmap {
        rows: names.clone(),
        col_notes: vec![String::new(); names.len()],
        cols: names,
        cells,
        scale,
    }
}

/// Every pair involving run `i`, as `i − other` (0–100) with both
/// intervals.
pub fn forest(r: &CompareReport, i: usize) -> Option<String> {
    let name = &r.runs.get(i)?.name;
    let rows: Vec<ForestRow> = (0..r.runs.len())
        .filter(|&j| j != i)
        .filter_map(|j| {
            let (k, forward) = pair_index(r, i, j)?;
            let c = &r.pairs[k].comparison;
            let flip =
                |x: Option<[f64; 2]>| x.map(|[lo, hi]| if forward { [lo, hi] } else { [-hi, -lo] });
            let sign = if forward { 1.0 } else { -1.0 };
            let value = pct(c.delta).map(|d| sign * d);
            let bootstrap = flip(pct2(boot(c.bootstrap.as_ref())));
            let normal = flip(pct2(c.normal));
            Some(ForestRow {
                label: format!("− {}", r.runs[j].name),
                value,
                bootstrap,
                normal,
                tip: format!(
                    "{name} − {}\nΔ {} on {} tasks\nbootstrap 95% {}\nnormal 95% {}\nMDE {}",
                    r.runs[j].name,
                    signed(value, 1),
                    c.common,
                    interval_text(bootstrap, 1),
                    interval_text(normal, 1),
                    fmt(pct(c.mde), 1),
                ),
            })
        })
        .collect();
    Some(forest_chart(
        &format!("{name} against every other run"),
        "Δ mean reward (0–100)",
        &rows,
    ))
}

/// How the per-task table is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TaskOrder {
    /// Task order (by key).
    #[default]
    Task,
    /// Largest d first.
    DescendingD,
    /// Smallest d first.
    AscendingD,
}

impl Choice for TaskOrder {
    const ALL: &'static [TaskOrder] = &[
        TaskOrder::Task,
        TaskOrder::DescendingD,
        TaskOrder::AscendingD,
    ];

    fn id(self) -> &'static str {
        match self {
            TaskOrder::Task => "task",
            TaskOrder::DescendingD => "d-desc",
            TaskOrder::AscendingD => "d-asc",
        }
    }

    fn label(self) -> &'static str {
        match self {
            TaskOrder::Task => "by task",
            TaskOrder::DescendingD => "A better first",
            TaskOrder::AscendingD => "B better first",
        }
    }
}

/// The per-task rows of pair `k` that pass the filter (a substring of the
/// task key; `differing`: only tasks where the runs differ), in `order`:
/// the task keys and the table.
pub fn task_table(
    r: &CompareReport,
    k: usize,
    filter: &str,
    differing: bool,
    order: TaskOrder,
) -> Option<(Vec<String>, Table)> {
    let p = r.pairs.get(k)?;
    let needle = filter.trim().to_lowercase();
    let mut tasks: Vec<_> = p
        .comparison
        .tasks
        .iter()
        .filter(|t| needle.is_empty() || t.key.to_lowercase().contains(&needle))
        .filter(|t| !differing || t.d.abs() > gapscope_stats::paired::TIE_TOLERANCE)
        .collect();
    match order {
        TaskOrder::Task => {}
        TaskOrder::DescendingD => tasks.sort_by(|x, y| y.d.total_cmp(&x.d)),
        TaskOrder::AscendingD => tasks.sort_by(|x, y| x.d.total_cmp(&y.d)),
    }
    let keys = tasks.iter().map(|t| t.key.clone()).collect();
    let rows = tasks
        .iter()
        .map(|t| {
            vec![
                Cell::text(&t.key),
                Cell::num(Some(100.0 * t.mean_a), 1),
                Cell::num(Some(100.0 * t.mean_b), 1),
                Cell::num(Some(t.trials_a as f64), 0),
                Cell::num(Some(t.trials_b as f64), 0),
                Cell::num(Some(100.0 * t.d), 1),
            ]
        })
        .collect();
    Some((
        keys,
        Table {
            title: format!("Tasks: {} against {}", p.a, p.b),
            headers: [
                "task",
                &format!("mean {}", p.a),
                &format!("mean {}", p.b),
                "trials A",
                "trials B",
                "d (A − B)",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        },
    ))
}

/// Tasks × runs: each run's mean reward on the task (0–100; red 0, white
/// 50, blue 100; empty where the run has no scored trial of the task).
/// The rows are the tasks of any run whose key contains `filter`, sorted.
pub fn task_heatmap(r: &CompareReport, filter: &str) -> Heatmap {
    let mut h = task_heatmap_rows(r, filter);
    h.cells = task_heatmap_cells(r, &h.rows);
    h
}

/// [`task_heatmap`] without its cells: the page makes the cells of the
/// rows it draws ([`task_heatmap_cells`]; 10,000 cells take ~30 ms).
pub fn task_heatmap_rows(r: &CompareReport, filter: &str) -> Heatmap {
    let needle = filter.trim().to_lowercase();
    let mut keys: Vec<&str> = r
        .runs
        .iter()
        .flat_map(|run| run.tasks.iter().map(|t| t.key.as_str()))
        .filter(|k| needle.is_empty() || k.to_lowercase().contains(&needle))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    Heatmap {
        rows: keys.into_iter().map(String::from).collect(),
        cols: r.runs.iter().map(|run| run.name.clone()).collect(),
        col_notes: vec![String::new(); r.runs.len()],
        cells: Vec::new(),
        scale: 50.0,
    }
}

/// The cells of [`task_heatmap`]'s rows `keys`.
pub fn task_heatmap_cells(r: &CompareReport, keys: &[String]) -> Vec<Vec<HeatCell>> {
    keys.iter()
        .map(|key| {
            r.runs
                .iter()
                .map(|run| {
                    let t = run
                        .tasks
                        .binary_search_by(|t| t.key.as_str().cmp(key))
                        .ok()
                        .map(|i| &run.tasks[i]);
                    let value = t.map(|t| 100.0 * t.mean);
                    let centred = value.map(|v| v - 50.0);
                    HeatCell {
                        value,
                        label: fmt(value, 0),
                        detail: t.map_or_else(
                            || {
                                format!(
                                    "{} · {key}\nnot attempted (or every trial excluded)",
                                    run.name
                                )
                            },
                            |t| {
                                format!(
                                    "{} · {key}\nmean {} over {} trial{}",
                                    run.name,
                                    fmt(value, 1),
                                    t.trials.len(),
                                    if t.trials.len() == 1 { "" } else { "s" }
                                )
                            },
                        ),
                        fill: diverging(centred, 50.0),
                        ink: ink(centred, 50.0),
                    }
                })
                .collect()
        })
        .collect()
}

/// The trajectory ids of run `i`'s trials of task `key` (`None` for a
/// trial with no trajectory: a reader-excluded run counted as a failure).
pub fn trials_of(r: &CompareReport, i: usize, key: &str) -> Vec<(Option<String>, f64)> {
    r.runs
        .get(i)
        .and_then(|run| run.tasks.iter().find(|t| t.key == key))
        .map(|t| t.trials.iter().map(|k| (k.id.clone(), k.reward)).collect())
        .unwrap_or_default()
}

/// One side of a row of two trajectories side by side: a tool call.
#[derive(Clone, Debug, PartialEq)]
pub struct CallText {
    /// `name(arguments)`, the arguments as canonical JSON.
    pub text: String,
    /// The call's message index (1-based, as the viewer numbers messages).
    pub message: usize,
}

/// One row: a call of both (matched) or of one side only.
#[derive(Clone, Debug, PartialEq)]
pub struct SideRow {
    pub a: Option<CallText>,
    pub b: Option<CallText>,
    pub matched: bool,
    /// The first row that is not a match: where the two runs diverge.
    pub first_unmatched: bool,
}

/// Two trajectories' tool calls aligned by their longest common
/// subsequence on (tool name, canonical JSON arguments).
#[derive(Clone, Debug, PartialEq)]
pub struct SideBySide {
    pub rows: Vec<SideRow>,
    pub calls_a: usize,
    pub calls_b: usize,
    pub matched: usize,
    /// A sentence: how many calls match and where they first diverge.
    pub summary: String,
}

fn call_text(c: &CallRef) -> CallText {
    CallText {
        text: format!("{}({})", c.name, c.arguments),
        message: c.message + 1,
    }
}

/// `a` and `b` side by side.
pub fn side_by_side(a: &Trajectory, b: &Trajectory) -> Result<SideBySide, AlignError> {
    let (ca, cb) = (tool_calls(a), tool_calls(b));
    let al = align(&ca, &cb)?;
    let rows: Vec<SideRow> = al
        .rows
        .iter()
        .enumerate()
        .map(|(k, row)| SideRow {
            a: row.a.map(|i| call_text(&ca[i])),
            b: row.b.map(|j| call_text(&cb[j])),
            matched: row.is_match(),
            first_unmatched: al.first_unmatched == Some(k),
        })
        .collect();
    let summary = match al.first_unmatched {
        None if ca.is_empty() => "Neither trajectory calls a tool.".to_string(),
        None => format!("All {} tool calls match, in order.", ca.len()),
        Some(k) => format!(
            "{} of {} (A) and {} (B) tool calls match in order; the runs first diverge at row {}: {}.",
            al.matched,
            ca.len(),
            cb.len(),
            k + 1,
            match (&rows[k].a, &rows[k].b) {
                (Some(x), _) => format!("A calls {}", esc_plain(&x.text)),
                (None, Some(y)) => format!("B calls {}", esc_plain(&y.text)),
                (None, None) => String::new(),
            }
        ),
    };
    Ok(SideBySide {
        rows,
        calls_a: ca.len(),
        calls_b: cb.len(),
        matched: al.matched,
        summary,
    })
}

/// A call's text cut for a sentence (the full text is in the table).
fn esc_plain(s: &str) -> String {
    let cut: String = s.chars().take(80).collect();
    if cut.len() < s.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// The side-by-side rows as a table (for CSV and LaTeX).
pub fn side_table(s: &SideBySide, a: &str, b: &str) -> Table {
    let text = |c: &Option<CallText>| c.as_ref().map_or_else(String::new, |c| c.text.clone());
    Table {
        title: format!("Tool calls: {a} and {b}"),
        headers: ["row", "A", "B", "matched"].map(String::from).to_vec(),
        rows: s
            .rows
            .iter()
            .enumerate()
            .map(|(k, r)| {
                vec![
                    Cell::num(Some((k + 1) as f64), 0),
                    Cell::text(text(&r.a)),
                    Cell::text(text(&r.b)),
                    Cell::text(if r.matched {
                        "yes"
                    } else if r.first_unmatched {
                        "no (first divergence)"
                    } else {
                        "no"
                    }),
                ]
            })
            .collect(),
    }
}

/// The sentence above the runs table.
pub fn summary_line(r: &CompareReport) -> String {
    let excluded: usize = r.runs.iter().map(|run| run.excluded.len()).sum();
    format!(
        "{} runs (by {}), {} pairs; B = {} bootstrap draws, P = {} permutations, seed {}{}.",
        r.runs.len(),
        r.by,
        r.pairs.len(),
        r.settings.draws(),
        r.settings.permutations(),
        r.settings.seed(),
        if excluded == 0 {
            String::new()
        } else if r.excluded_as_failures {
            format!("; {excluded} excluded trajectories counted as failures")
        } else {
            format!("; {excluded} excluded trajectories left out (listed per run)")
        }
    )
}
