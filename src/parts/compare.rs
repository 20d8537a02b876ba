//! The Compare view (a trajectory page of the realization-gap part): the
//! runs of the files last opened compared by `gapscope_compare::compare` in
//! the files worker (`Job::Compare`, the same function `gapscope compare`
//! calls), rendered from `gapscope_view::compare`; a task picked in the
//! per-task table or the task × run heatmap opens both runs' trajectories
//! side by side.

use gapscope_compare::{CompareReport, Merge, RunKey, RunOptions};
use gapscope_data::trajectory::Trajectory;
use gapscope_stats::paired::Settings;
use gapscope_view::compare::{self as cv, PKind, TaskOrder};
use gapscope_view::heatmap::Heatmap;
use gapscope_worker::ask;
use leptos::prelude::*;
use std::sync::Arc;

use crate::parts::misplaced::ErrorText;
use crate::parts::trajectories::{NeedTrajectories, ScorerPicker};
use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{EnumSelect, Figure, HeatmapView, TableView};
use crate::parts::Workbench;

/// What the runs are keyed by, in the select (`field:NAME` for any other
/// field comes from the URL).
pub(crate) const BY: [&str; 6] = [
    "model",
    "file",
    "field:family",
    "field:domain",
    "field:scenario_group",
    "field:termination_reason",
];

/// The Compare view's state; `by`, `failures`, `p` and `merges` live in the
/// URL.
#[derive(Clone, Copy)]
pub(crate) struct CompareState {
    /// Shared, not copied, by every part of the view that draws it (a
    /// comparison of 40,000 trials is megabytes).
    pub(crate) report: JobSlot<ask::Compare, Arc<CompareReport>>,
    pub(crate) progress: RwSignal<String>,
    pub(crate) by: RwSignal<String>,
    pub(crate) merges: RwSignal<String>,
    pub(crate) failures: RwSignal<bool>,
    pub(crate) p: RwSignal<PKind>,
    /// The chosen pair as (row run, column run).
    pub(crate) pair: RwSignal<(usize, usize)>,
    pub(crate) filter: RwSignal<String>,
    pub(crate) differing: RwSignal<bool>,
    pub(crate) order: RwSignal<TaskOrder>,
    /// The task open side by side, and the trial shown on each side.
    pub(crate) task: RwSignal<Option<String>>,
    pub(crate) trial: RwSignal<(usize, usize)>,
    pub(crate) left: JobSlot<ask::Trajectory, Trajectory>,
    pub(crate) right: JobSlot<ask::Trajectory, Trajectory>,
}

impl CompareState {
    pub(crate) fn new() -> Self {
        CompareState {
            report: JobSlot::new(),
            progress: RwSignal::new(String::new()),
            by: RwSignal::new("model".into()),
            merges: RwSignal::new(String::new()),
            failures: RwSignal::new(false),
            p: RwSignal::new(PKind::default()),
            pair: RwSignal::new((0, 1)),
            filter: RwSignal::new(String::new()),
            differing: RwSignal::new(false),
            order: RwSignal::new(TaskOrder::Task),
            task: RwSignal::new(None),
            trial: RwSignal::new((0, 0)),
            left: JobSlot::new(),
            right: JobSlot::new(),
        }
    }
}

/// The run options from the view's settings, or what is wrong with them.
fn run_options(wb: Workbench) -> Result<RunOptions, String> {
    let c = wb.cmp;
    let by: RunKey = c.by.get_untracked().parse().map_err(|e| format!("{e}"))?;
    let merges = c
        .merges
        .get_untracked()
        .split(';')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| m.parse::<Merge>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RunOptions {
        by,
        merges,
        excluded_as_failures: c.failures.get_untracked(),
        ..RunOptions::default()
    })
}

impl Workbench {
    /// Drop the comparison (a new source, new settings): recomputed when
    /// the view is shown.
    pub(crate) fn clear_compare(self) {
        let c = self.cmp;
        c.report.cancel(self.workers);
        c.report.answer.set(None);
        c.left.cancel(self.workers);
        c.right.cancel(self.workers);
        c.left.answer.set(None);
        c.right.answer.set(None);
        c.task.set(None);
    }

    /// Compare the runs of the files last opened, unless it runs.
    pub(crate) fn ensure_compare(self) {
        let c = self.cmp;
        if c.report.running() {
            return;
        }
        let runs = match run_options(self) {
            Ok(r) => r,
            Err(e) => {
                c.report.answer.set(Some(Err(e)));
                return;
            }
        };
        let k = self.knobs.get_untracked();
        let settings = match Settings::new(k.bootstrap, Settings::DEFAULT.permutations(), k.seed) {
            Ok(s) => s,
            Err(e) => {
                c.report.answer.set(Some(Err(e.to_string())));
                return;
            }
        };
        let source = self.traj.side_source.get_value();
        let job = ask::Compare {
            source: source.clone(),
            options: self.gaps.trajectories.get_untracked(),
            runs,
            settings,
        };
        c.progress.set(String::new());
        c.report.start(
            self.workers,
            job,
            self.files_of(&source),
            move |p| c.progress.set(p.label),
            move |_, answer| {
                // The first pair with a task in common (runs of different
                // domains share none).
                let pair = answer
                    .as_ref()
                    .ok()
                    .and_then(cv::first_paired)
                    .unwrap_or((0, 1));
                c.pair.set(pair);
                c.report.answer.set(Some(answer.map(Arc::new)));
            },
        );
    }

    /// Open task `key` of the chosen pair side by side (trial `ta` of the
    /// row run, `tb` of the column run).
    fn open_side_by_side(self, r: &CompareReport, key: &str, ta: usize, tb: usize) {
        let c = self.cmp;
        let (i, j) = c.pair.get_untracked();
        c.task.set(Some(key.to_string()));
        c.trial.set((ta, tb));
        for (slot, run, trial) in [(c.left, i, ta), (c.right, j, tb)] {
            let trials = cv::trials_of(r, run, key);
            let id = match trials.get(trial) {
                None => Err(format!("no trial {} of {key}", trial + 1)),
                Some((None, _)) => Err(
                    "an excluded run counted as a failure: no trajectory was recorded".to_string(),
                ),
                Some((Some(id), _)) => Ok(id.clone()),
            };
            match id {
                Ok(id) => self.start_trajectory(slot, id),
                Err(e) => {
                    slot.cancel(self.workers);
                    slot.answer.set(Some(Err(e)));
                }
            }
        }
    }
}

/// The Compare view.
#[component]
pub(crate) fn CompareView(wb: Workbench) -> impl IntoView {
    let c = wb.cmp;
    Effect::new(move |_| {
        let loaded = wb.traj.overview.with(|o| matches!(o, Some(Ok(_))));
        if loaded && c.report.answer.with(Option::is_none) && !c.report.running() {
            wb.ensure_compare();
        }
    });
    let rerun = move || {
        wb.clear_compare();
        wb.ensure_compare();
    };
    let settings = view! {
        <p class="detail compare-settings" data-testid="compare-settings">
            <label>
                "runs by "
                <select
                    data-testid="compare-by"
                    on:change=move |ev| {
                        c.by.set(event_target_value(&ev));
                        rerun();
                    }
                >
                    {move || {
                        let now = c.by.get();
                        let mut options: Vec<String> = BY
                            .iter()
                            .map(|s| (*s).to_string())
                            .collect();
                        if !options.contains(&now) {
                            options.push(now.clone());
                        }
                        options
                            .into_iter()
                            .map(|o| {
                                let selected = o == now;
                                view! {
                                    <option value=o.clone() selected=selected>
                                        {o.clone()}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            " "
            <label>
                "merge (A,B=NAME; …) "
                <input
                    type="text"
                    size="24"
                    data-testid="compare-merges"
                    prop:value=move || c.merges.get()
                    on:change=move |ev| {
                        c.merges.set(event_target_value(&ev));
                        rerun();
                    }
                />
            </label>
            " "
            <label>
                <input
                    type="checkbox"
                    data-testid="compare-failures"
                    prop:checked=move || c.failures.get()
                    on:change=move |ev| {
                        c.failures.set(event_target_checked(&ev));
                        rerun();
                    }
                />
                " count excluded trajectories as failures"
            </label>
            " "
            <label>"matrix p " <EnumSelect value=c.p testid="compare-p" /></label>
            " "
            <ScorerPicker wb=wb />
        </p>
    };
    view! {
        {settings}
        {move || match (
            wb.traj.overview.with(|o| matches!(o, Some(Ok(_)))),
            c.report.answer.get(),
        ) {
            (
                false,
                _,
            ) if !matches!(
                wb.traj.side_source.get_value(),
                gapscope_worker::Source::Attached { .. } | gapscope_worker::Source::Corpus
            ) => {
                view! {
                    <NeedTrajectories
                        wb=wb
                        what="Comparing runs needs trajectory files (two or more runs: models, files or a field)."
                    />
                }
                    .into_any()
            }
            (_, None) => {
                view! {
                    <p class="explain" data-testid="compare-busy">
                        "Comparing the runs in a worker… "
                        {move || c.progress.get()}
                    </p>
                }
                    .into_any()
            }
            (_, Some(Err(e))) => {
                view! {
                    <p class="invalid" role="alert" data-testid="compare-error">
                        <ErrorText wb=wb message=e files=wb.gaps.attached.get_value() />
                    </p>
                }
                    .into_any()
            }
            (_, Some(Ok(r))) => view! { <Comparison wb=wb report=r /> }.into_any(),
        }}
    }
}

/// Step `stage` by one each animation frame, up to `last`.
fn advance(stage: RwSignal<u8>, last: u8) {
    request_animation_frame(move || {
        // The view may be gone by the next frame (new files, another view).
        if stage.try_update(|s| *s += 1).is_some()
            && stage.try_get_untracked().is_some_and(|s| s < last)
        {
            advance(stage, last);
        }
    });
}

/// A finished comparison.
#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the view, in page order"
)]
fn Comparison(wb: Workbench, report: Arc<CompareReport>) -> impl IntoView {
    let c = wb.cmp;
    let r = StoredValue::new(report);
    let n = r.with_value(|r| r.runs.len());
    let notes = r.with_value(|r| r.notes.clone());
    // Drawn in stages, a frame each, so that no task holds the page: the
    // summary and runs (stage 0); the pairwise matrix (1); the pairs table
    // (2); the chosen pair's forest and tasks (3); the task × run
    // heatmap's rows (4), then its cells (5). Each closure reads a memo of
    // "this stage is reached", not the stage: a later stage does not
    // redraw the earlier ones.
    let stage = RwSignal::new(0u8);
    advance(stage, 5);
    let reached = |k: u8| Memo::new(move |_| stage.get() >= k);
    let (s1, s2, s3, s4, s5) = (reached(1), reached(2), reached(3), reached(4), reached(5));
    // The heatmap's rows (the tasks passing the filter), made a frame
    // before its cells are drawn.
    let heat_rows = RwSignal::new(None::<Arc<Heatmap>>);
    Effect::new(move |_| {
        if s4.get() {
            let filter = c.filter.get();
            heat_rows.set(Some(Arc::new(
                r.with_value(|r| cv::task_heatmap_rows(r, &filter)),
            )));
        }
    });
    view! {
        <p class="detail" data-testid="compare-summary">
            {r.with_value(|r| cv::summary_line(r))}
        </p>
        {(!notes.is_empty())
            .then(|| {
                view! {
                    <ul class="notes" data-testid="compare-notes">
                        {notes
                            .into_iter()
                            .map(|n| view! { <li>{gapscope_view::words::for_page(&n)}</li> })
                            .collect_view()}
                    </ul>
                }
            })}
        <Figure
            svg=r.with_value(|r| cv::runs_chart(r))
            name="compare-runs".into()
            wb=wb
            testid="runs-chart"
        />
        <TableView table=r.with_value(|r| cv::runs_table(r)) wb=wb />
        {(n < 2)
            .then(|| {
                view! {
                    <p class="explain" data-testid="compare-one-run">
                        "One run only: nothing to compare. Key the runs by file or by a field, or load another run."
                    </p>
                }
            })}
        {(n >= 2)
            .then(|| {
                view! {
                    <h3>"Pairwise differences (row − column, 0–100)"</h3>
                    {move || {
                        if !s1.get() {
                            return ().into_any();
                        }
                        view! {
                            <HeatmapView
                                heatmap=r.with_value(|r| cv::pair_matrix(r, c.p.get()))
                                testid="pair-matrix"
                                corner="row − column"
                                wb=wb
                                on_pick=Callback::new(move |(i, j): (usize, usize)| {
                                    if i != j {
                                        c.pair.set((i, j));
                                        c.task.set(None);
                                    }
                                })
                            />
                        }
                            .into_any()
                    }}
                    {move || {
                        s2.get()
                            .then(|| {
                                view! {
                                    <TableView table=r.with_value(|r| cv::pairs_table(r)) wb=wb />
                                }
                            })
                    }}
                    {move || {
                        if !s3.get() {
                            return ().into_any();
                        }
                        let (i, j) = c.pair.get();
                        let Some((k, forward)) = r.with_value(|r| cv::pair_index(r, i, j)) else {
                            return ().into_any();
                        };
                        let names = r
                            .with_value(|r| (r.runs[i].name.clone(), r.runs[j].name.clone()));
                        view! {
                            <h3 data-testid="chosen-pair">
                                {format!("{} against {}", names.0, names.1)}
                            </h3>
                            {r
                                .with_value(|r| cv::forest(r, i))
                                .map(|svg| {
                                    view! {
                                        <Figure
                                            svg=svg
                                            name=format!("forest-{}", names.0)
                                            wb=wb
                                            testid="forest"
                                        />
                                    }
                                })}
                            <TaskPicker wb=wb report=r pair=k forward=forward />
                        }
                            .into_any()
                    }}
                    <h3>"Tasks × runs (mean reward, 0–100)"</h3>
                    {move || {
                        let (true, Some(frame)) = (s5.get(), heat_rows.get()) else {
                            return ().into_any();
                        };
                        let heatmap = (*frame).clone();
                        let cells_of = Callback::new(move |rows: std::ops::Range<usize>| {
                            let k = &frame.rows;
                            let end = rows.end.min(k.len());
                            let rows = rows.start.min(end)..end;
                            r.with_value(|r| cv::task_heatmap_cells(r, &k[rows]))
                        });
                        // The cells of the rows drawn are made as they are drawn.
                        view! {
                            <HeatmapView
                                heatmap=heatmap
                                testid="task-heatmap"
                                corner="task \\ run"
                                wb=wb
                                windowed=true
                                cells_of=cells_of
                                on_pick=Callback::new(move |(t, _): (usize, usize)| {
                                    if let Some(key) = heat_rows
                                        .with_untracked(|h| h.as_ref()?.rows.get(t).cloned())
                                    {
                                        r.with_value(|r| wb.open_side_by_side(r, &key, 0, 0));
                                    }
                                })
                            />
                        }
                            .into_any()
                    }}
                    <SideBySideView wb=wb report=r />
                }
            })}
    }
}

/// The per-task table of the chosen pair, filtered and ordered; a row
/// opens the task side by side.
#[component]
fn TaskPicker(
    wb: Workbench,
    report: StoredValue<Arc<CompareReport>>,
    pair: usize,
    forward: bool,
) -> impl IntoView {
    let c = wb.cmp;
    view! {
        <p class="detail">
            <label>
                "tasks containing "
                <input
                    type="text"
                    size="16"
                    data-testid="task-filter"
                    prop:value=move || c.filter.get()
                    on:input=move |ev| c.filter.set(event_target_value(&ev))
                />
            </label>
            " "
            <label>
                <input
                    type="checkbox"
                    data-testid="task-differing"
                    prop:checked=move || c.differing.get()
                    on:change=move |ev| c.differing.set(event_target_checked(&ev))
                />
                " only tasks where the runs differ"
            </label>
            " "
            <EnumSelect value=c.order testid="task-order" />
            {(!forward)
                .then_some(" (the table is the pair as computed: its A is the run listed first)")}
        </p>
        {move || {
            let shown = report
                .with_value(|r| {
                    cv::task_table(r, pair, &c.filter.get(), c.differing.get(), c.order.get())
                });
            shown
                .map(|(keys, table)| {
                    let keys = StoredValue::new(keys);
                    view! {
                        <TableView
                            table=table
                            wb=wb
                            windowed=true
                            on_row=Callback::new(move |row: usize| {
                                if let Some(key) = keys.with_value(|k| k.get(row).cloned()) {
                                    report.with_value(|r| wb.open_side_by_side(r, &key, 0, 0));
                                }
                            })
                        />
                    }
                })
        }}
    }
}

/// Both runs' trajectories of the open task, their tool calls aligned.
#[component]
fn SideBySideView(wb: Workbench, report: StoredValue<Arc<CompareReport>>) -> impl IntoView {
    let c = wb.cmp;
    move || {
        let key = c.task.get()?;
        let (i, j) = c.pair.get_untracked();
        let names = report.with_value(|r| (r.runs[i].name.clone(), r.runs[j].name.clone()));
        let trials = report.with_value(|r| (cv::trials_of(r, i, &key), cv::trials_of(r, j, &key)));
        let key2 = key.clone();
        let picker = move |side: usize, trials: Vec<(Option<String>, f64)>| {
            let key = key2.clone();
            view! {
                <select
                    data-testid=if side == 0 { "trial-a" } else { "trial-b" }
                    on:change=move |ev| {
                        let k: usize = event_target_value(&ev).parse().unwrap_or(0);
                        let (ta, tb) = c.trial.get_untracked();
                        let (ta, tb) = if side == 0 { (k, tb) } else { (ta, k) };
                        report.with_value(|r| wb.open_side_by_side(r, &key, ta, tb));
                    }
                >
                    {trials
                        .into_iter()
                        .enumerate()
                        .map(|(k, (id, reward))| {
                            let selected = move || {
                                let (ta, tb) = c.trial.get();
                                (if side == 0 { ta } else { tb }) == k
                            };
                            view! {
                                <option value=k.to_string() selected=selected>
                                    {format!(
                                        "trial {} · reward {}{}",
                                        k + 1,
                                        gapscope_view::format::fmt(Some(reward), 2),
                                        if id.is_none() { " (excluded)" } else { "" },
                                    )}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            }
        };
        Some(view! {
            <section class="side-by-side" data-testid="side-by-side" data-task=key.clone()>
                <h3>{format!("{key}: {} and {}", names.0, names.1)}</h3>
                <p class="detail">
                    {format!("A = {} ", names.0)} {picker(0, trials.0)}
                    {format!(" · B = {} ", names.1)} {picker(1, trials.1)}
                </p>
                {move || match (c.left.answer.get(), c.right.answer.get()) {
                    (Some(Ok(a)), Some(Ok(b))) => {
                        match cv::side_by_side(&a, &b) {
                            Ok(s) => {
                                let table = cv::side_table(&s, &names.0, &names.1);
                                view! {
                                    <p class="detail" data-testid="side-summary">
                                        {s.summary.clone()}
                                    </p>
                                    <table class="data side" data-testid="aligned-calls">
                                        <thead>
                                            <tr>
                                                <th scope="col">"#"</th>
                                                <th scope="col">{format!("A: {}", names.0)}</th>
                                                <th scope="col">{format!("B: {}", names.1)}</th>
                                            </tr>
                                        </thead>
                                        <tbody>
                                            {s
                                                .rows
                                                .iter()
                                                .enumerate()
                                                .map(|(k, row)| {
                                                    let cell = |x: &Option<cv::CallText>| {
                                                        x.as_ref()
                                                            .map_or_else(
                                                                || (String::new(), String::new()),
                                                                |x| {
                                                                    let cut: String = x.text.chars().take(240).collect();
                                                                    let more = if cut.len() < x.text.len() {
                                                                        "…"
                                                                    } else {
                                                                        ""
                                                                    };
                                                                    (format!("{cut}{more} · m{}", x.message), x.text.clone())
                                                                },
                                                            )
                                                    };
                                                    let ((ta, fa), (tb, fb)) = (cell(&row.a), cell(&row.b));
                                                    // A long call is cut on screen; its whole
                                                    // text is the cell's title and in the export.
                                                    view! {
                                                        <tr
                                                            class:match=row.matched
                                                            class:diverge=row.first_unmatched
                                                            data-testid=if row.first_unmatched {
                                                                "first-divergence"
                                                            } else {
                                                                "aligned-row"
                                                            }
                                                        >
                                                            <td>{k + 1}</td>
                                                            <td title=fa>{ta}</td>
                                                            <td title=fb>{tb}</td>
                                                        </tr>
                                                    }
                                                })
                                                .collect_view()}
                                        </tbody>
                                    </table>
                                    <details class="alt">
                                        <summary>"Export the aligned calls"</summary>
                                        <TableView table=table wb=wb />
                                    </details>
                                }
                                    .into_any()
                            }
                            Err(e) => {
                                view! {
                                    <p class="invalid" role="alert">
                                        {e.to_string()}
                                    </p>
                                }
                                    .into_any()
                            }
                        }
                    }
                    (Some(Err(e)), _) | (_, Some(Err(e))) => {
                        view! {
                            <p class="invalid" role="alert" data-testid="side-error">
                                {e}
                            </p>
                        }
                            .into_any()
                    }
                    _ => view! { <p class="explain">"Reading both trajectories…"</p> }.into_any(),
                }}
            </section>
        })
    }
}
