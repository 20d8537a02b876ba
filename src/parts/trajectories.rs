//! The trajectory pages of the realization-gap part: the trajectory list and
//! viewer, proxy labels, and cross-task stability.

use std::sync::Arc;

use gapscope_data::trajectory::Trajectory;
use gapscope_gaps::overview::Overview;
use gapscope_gaps::stability::StabilitySettings;
use gapscope_view::conversation::ConversationPage;
use gapscope_view::trajectories::{self as tv, RewardFilter, TrajectoryFilter, TrajectoryOrder};
use gapscope_worker::{ask, OverviewResult, Source};
use leptos::prelude::*;

use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{ClickTable, Figure, TableView};
use crate::parts::{source_label, Workbench};
use crate::pool::JobId;
use crate::web;

/// The name of the label file the proxy-label button adds to the source.
pub(crate) const PROXY_LABELS: &str = "proxy-labels.csv";

/// The trajectory pages' state.
#[derive(Clone, Copy)]
pub(crate) struct TrajectoriesState {
    /// The trajectory files of the current source (None: none, or not yet).
    /// Shared, not copied, by every view that reads it (a large corpus has
    /// hundreds of thousands of rows).
    pub(crate) overview: RwSignal<Option<Result<Arc<Overview>, String>>>,
    /// The import job building the overview (the realization analysis's
    /// job: one read of the files for both).
    pub(crate) overview_job: StoredValue<Option<JobId>>,
    /// What the overview was computed for (source and trajectory options).
    pub(crate) overview_key: StoredValue<String>,
    /// The source the side jobs read: the one last opened, even when its
    /// realization analysis failed (e.g. trajectories without a foundational file).
    pub(crate) side_source: StoredValue<Source>,
    pub(crate) filter: RwSignal<TrajectoryFilter>,
    pub(crate) order: RwSignal<TrajectoryOrder>,
    /// The trajectory open in the viewer.
    pub(crate) open: JobSlot<ask::Conversation, ConversationPage>,
    /// The trajectory being read was opened from the list: the viewer is
    /// scrolled into view when it has drawn it.
    pub(crate) reveal: StoredValue<bool>,
    /// Proxy labels of the loaded τ²-bench files (added to the source as
    /// `proxy-labels.csv`), or why there are none.
    pub(crate) proxy: JobSlot<ask::ProxyLabels>,
    pub(crate) stability: JobSlot<ask::Stability>,
    pub(crate) stability_regex: RwSignal<String>,
    pub(crate) stability_gap: RwSignal<String>,
    /// A trajectory link of the URL not applied yet (its files are not the
    /// ones loaded): `crate::app::place`.
    pub(crate) wanted: RwSignal<Option<gapscope_view::nav::TrajectoryLink>>,
    /// (source label, fingerprint of its files) of the files last
    /// fingerprinted for a link.
    pub(crate) fingerprint: RwSignal<Option<(String, String)>>,
    pub(crate) digest: JobSlot<ask::Digests, ()>,
    /// Why a link could not be made or applied.
    pub(crate) link_note: RwSignal<Option<String>>,
    /// The Inspect scores the loaded logs offer as rewards (kept while
    /// another choice is read, and after one that fails).
    pub(crate) scorers: RwSignal<Vec<String>>,
}

impl TrajectoriesState {
    pub(crate) fn new() -> Self {
        TrajectoriesState {
            overview: RwSignal::new(None),
            overview_job: StoredValue::new(None),
            overview_key: StoredValue::new(String::new()),
            side_source: StoredValue::new(Source::Example),
            filter: RwSignal::new(TrajectoryFilter::default()),
            order: RwSignal::new(TrajectoryOrder::Input),
            reveal: StoredValue::new(false),
            open: JobSlot::new(),
            proxy: JobSlot::new(),
            stability: JobSlot::new(),
            stability_regex: RwSignal::new(String::new()),
            stability_gap: RwSignal::new("macro".into()),
            wanted: RwSignal::new(None),
            fingerprint: RwSignal::new(None),
            digest: JobSlot::new(),
            link_note: RwSignal::new(None),
            scorers: RwSignal::new(Vec::new()),
        }
    }
}

impl Workbench {
    /// Derive proxy labels from the loaded τ²-bench files and analyse them
    /// with the labels (`proxy-labels.csv` joins the source, replacing an
    /// earlier one).
    pub(crate) fn derive_proxy_labels(self) {
        let source = self.traj.side_source.get_value();
        self.traj.proxy.answer.set(None);
        self.traj.proxy.start(
            self.workers,
            ask::ProxyLabels {
                source: source.clone(),
            },
            self.files_of(&source),
            |_| {},
            move |_, result| {
                if let Ok(labels) = &result {
                    match web::text_file(PROXY_LABELS, &labels.csv) {
                        Ok(file) => {
                            // The files under their names (a folder's
                            // by their path in it), the labels replaced.
                            let (names, folders) = match &source {
                                Source::Attached { names, folders } => {
                                    (names.clone(), folders.clone())
                                }
                                _ => (Vec::new(), Vec::new()),
                            };
                            let (mut files, mut names): (Vec<web_sys::File>, Vec<String>) = self
                                .gaps
                                .attached
                                .get_value()
                                .into_iter()
                                .zip(names)
                                .filter(|(_, n)| n != PROXY_LABELS)
                                .unzip();
                            files.push(file);
                            names.push(PROXY_LABELS.to_string());
                            self.gaps.attached.set_value(files);
                            self.gaps.derived.set_value(Vec::new());
                            self.gaps.derived.set_value(vec![PROXY_LABELS.to_string()]);
                            // Not the files hashed before, though perhaps
                            // under the same names.
                            self.gaps.digests.set_value(None);
                            self.run(Source::Attached { names, folders });
                        }
                        Err(e) => {
                            self.traj
                                .proxy
                                .answer
                                .set(Some(Err(format!("{PROXY_LABELS}: {e:?}"))));
                            return;
                        }
                    }
                }
                self.traj.proxy.answer.set(Some(result));
            },
        );
    }

    /// What changes beside the analysis when `source` is (re-)analysed: the
    /// stability analysis is cleared (recomputed on demand: it depends on
    /// α); the trajectory overview and the open trajectory are cleared when
    /// the source or the trajectory options changed. Whether the analysis
    /// job must also build the overview (also when the job that was building
    /// it was superseded before it answered).
    pub(crate) fn side_jobs(self, source: &Source) -> bool {
        self.traj.side_source.set_value(source.clone());
        self.traj.stability.cancel(self.workers);
        self.traj.stability.answer.set(None);
        self.clear_compare();
        self.clear_experiments();
        let options = self.gaps.trajectories.get_untracked();
        let key = serde_json::to_string(&(source_label(source), &options)).unwrap_or_default();
        if key == self.traj.overview_key.get_value() {
            return self.traj.overview_job.get_value().is_some();
        }
        self.traj.overview_key.set_value(key);
        self.traj.overview_job.set_value(None);
        self.traj.open.cancel(self.workers);
        self.traj.overview.set(None);
        self.traj.open.answer.set(None);
        *source != Source::Example
    }

    /// The overview part of an import job's answer, when that job is still
    /// the one building the overview.
    pub(crate) fn finish_overview(self, id: JobId, overview: OverviewResult) {
        if self.traj.overview_job.get_value() != Some(id) {
            return;
        }
        self.traj.overview_job.set_value(None);
        if let Ok(Some(o)) = &overview {
            if !o.scorers.is_empty() {
                self.traj.scorers.set(o.scorers.clone());
            }
        }
        self.traj.overview.set(match overview {
            Ok(None) => None,
            Ok(Some(o)) => Some(Ok(Arc::new(o))),
            Err(e) => Some(Err(e)),
        });
    }

    /// Open one trajectory in the viewer (read whole by a worker).
    pub(crate) fn open_trajectory(self, id: String) {
        // A link not applied yet gives way to the user's choice; the one
        // made for this trajectory names its files.
        self.traj.wanted.set(None);
        self.traj.link_note.set(None);
        self.ensure_fingerprint();
        let slot = self.traj.open;
        slot.cancel(self.workers);
        slot.answer.set(None);
        let source = self.traj.side_source.get_value();
        let operations = self.traj.overview.with_untracked(|o| match o {
            Some(Ok(o)) => o.profile.operations.clone(),
            _ => Vec::new(),
        });
        let job = ask::Conversation {
            source: source.clone(),
            options: self.gaps.trajectories.get_untracked(),
            id: id.clone(),
            operations,
        };
        slot.start(
            self.workers,
            job,
            self.files_of(&source),
            |_| {},
            move |_, answer| {
                slot.answer.set(Some(match answer {
                    Ok(Some(p)) => Ok(p),
                    Ok(None) => Err(format!(
                        "trajectory `{id}` is no longer in the loaded files"
                    )),
                    Err(e) => Err(e),
                }));
            },
        );
    }

    /// Read trajectory `id` of the files last opened into `slot` (whatever
    /// it held is dropped, a job still running for it cancelled): a side of
    /// the Compare view's side by side (the viewer reads its page,
    /// [`Workbench::open_trajectory`]).
    pub(crate) fn start_trajectory(self, slot: JobSlot<ask::Trajectory, Trajectory>, id: String) {
        slot.cancel(self.workers);
        slot.answer.set(None);
        let source = self.traj.side_source.get_value();
        let job = ask::Trajectory {
            source: source.clone(),
            options: self.gaps.trajectories.get_untracked(),
            id: id.clone(),
        };
        slot.start(
            self.workers,
            job,
            self.files_of(&source),
            |_| {},
            move |_, answer| {
                slot.answer.set(Some(match answer {
                    Ok(Some(t)) => Ok(t),
                    Ok(None) => Err(format!(
                        "trajectory `{id}` is no longer in the loaded files"
                    )),
                    Err(e) => Err(e),
                }));
            },
        );
    }

    /// Compute cross-task stability for the current source, unless it runs.
    pub(crate) fn ensure_stability(self) {
        if self.traj.stability.running() {
            return;
        }
        let source = self.traj.side_source.get_value();
        let k = self.knobs.get_untracked();
        let regex = self.traj.stability_regex.get_untracked();
        let settings = StabilitySettings {
            alpha: gapscope_stats::Alpha::new(k.alpha).unwrap_or(gapscope_stats::Alpha::DEFAULT),
            seed: k.seed,
            // The top bar's B (its default is the stability default, 10,000).
            bootstrap: k.bootstrap,
            group_regex: (!regex.trim().is_empty()).then(|| regex.trim().to_string()),
            macro_definition: k.macro_definition,
            ..StabilitySettings::default()
        };
        let job = ask::Stability {
            source: source.clone(),
            options: self.gaps.trajectories.get_untracked(),
            settings,
        };
        self.traj
            .stability
            .run(self.workers, job, self.files_of(&source));
    }
}

/// Load-the-corpus prompt for pages that need trajectory files.
#[component]
pub(crate) fn NeedTrajectories(wb: Workbench, what: &'static str) -> impl IntoView {
    view! {
        <p class="detail" data-testid="need-trajectories">
            {what}
            " Drop trajectory files (canonical JSONL, τ²-bench results, Inspect AI logs) with a foundational profile file, or "
            <button
                class="link"
                data-testid="load-corpus"
                on:click=move |_| wb.open(Source::Corpus)
            >
                "load the synthetic trajectory corpus"
            </button>
            " (seeded generator, planted gaps, 12 scenario groups)."
        </p>
    }
}

/// Which Inspect score becomes the reward, as `--scorer` chooses it in the
/// CLI: shown when the loaded Inspect logs offer more than one. A choice
/// reads the files again (the realization analysis, the runs and the
/// trajectory list follow it).
#[component]
pub(crate) fn ScorerPicker(wb: Workbench) -> impl IntoView {
    move || {
        let scorers = wb.traj.scorers.get();
        if scorers.len() < 2 {
            return None;
        }
        let chosen = wb
            .gaps
            .trajectories
            .with(|t| tv::score_choice_name(&t.score));
        Some(view! {
            <label class="scorer">
                "reward from the Inspect score "
                <select
                    data-testid="scorer"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let choice = if v.is_empty() {
                            Ok(gapscope_data::formats::inspect::ScoreChoice::default())
                        } else {
                            gapscope_data::formats::inspect::ScoreChoice::parse(&v)
                        };
                        if let Ok(choice) = choice {
                            wb.gaps.trajectories.update(|t| t.score = choice);
                            wb.rerun();
                        }
                    }
                >
                    <option value="" selected=chosen.is_none()>
                        "each log's first scorer"
                    </option>
                    {scorers
                        .into_iter()
                        .map(|s| {
                            let selected = chosen.as_deref() == Some(s.as_str());
                            view! {
                                <option value=s.clone() selected=selected>
                                    {s.clone()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        })
    }
}

#[component]
pub(crate) fn TrajectoriesView(wb: Workbench) -> impl IntoView {
    // A link to a trajectory of other files, or one that could not be made.
    let link = move || {
        let text = wb
            .traj
            .wanted
            .get()
            .map(|l| l.not_loaded_sentence())
            .or_else(|| wb.traj.link_note.get())?;
        Some(view! {
            <p class="link-note" role="status" data-testid="link-note">
                {text}
            </p>
        })
    };
    let list = move || match wb.traj.overview.get() {
        None if wb.traj.overview_job.get_value().is_some() => {
            view! { <p class="explain">"Reading the trajectories…"</p> }.into_any()
        }
        None => {
            view! { <NeedTrajectories wb=wb what="No trajectory files are loaded." /> }.into_any()
        }
        Some(Err(e)) => view! {
            <p class="invalid" role="alert" data-testid="overview-error">
                {e}
            </p>
        }
        .into_any(),
        Some(Ok(o)) => view! { <TrajectoryList wb=wb overview=o /> }.into_any(),
    };
    view! {
        {link}
        {list}
    }
}

#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the part, in page order"
)]
pub(crate) fn TrajectoryList(wb: Workbench, overview: Arc<Overview>) -> impl IntoView {
    let o = overview;
    let models = tv::distinct(o.trajectories.iter().map(|t| t.model.as_str()));
    let groups = tv::distinct(o.trajectories.iter().filter_map(|t| t.group.as_deref()));
    let terminations = tv::distinct(
        o.trajectories
            .iter()
            .filter_map(|t| t.termination_reason.as_deref()),
    );
    let ops = o.profile.operations.clone();
    let pick = |v: String| (!v.is_empty()).then_some(v);
    let o_rows = o.clone();
    let rows = Memo::new(move |_| {
        tv::trajectory_rows(&o_rows, &wb.traj.filter.get(), &wb.traj.order.get())
    });
    let o_list = o.clone();
    view! {
        <p class="sentence" data-testid="overview-summary">
            {format!("{}.", o.summary)}
        </p>
        <ScorerPicker wb=wb />
        <ProxyLabels wb=wb />
        {(!o.notes.is_empty())
            .then(|| {
                view! {
                    <ul class="warnings" data-testid="overview-notes">
                        {o
                            .notes
                            .iter()
                            .map(|n| view! { <li>{gapscope_view::words::for_page(n)}</li> })
                            .collect_view()}
                    </ul>
                }
            })}
        {o
            .folders
            .iter()
            .map(|f| {
                view! {
                    <details class="folder" data-testid="overview-folder">
                        <summary>{format!("Folder {}", f.sentence())}</summary>
                        <ul>
                            {f.lines().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                        </ul>
                    </details>
                }
            })
            .collect_view()}
        {match tv::no_profile_sentence(&o) {
            Some(why) => {
                view! {
                    <p class="explain" data-testid="no-profile">
                        {why}
                    </p>
                }
                    .into_any()
            }
            None => view! { <TableView table=tv::profile_table(&o) wb=wb /> }.into_any(),
        }}
        <div class="filters" data-testid="trajectory-filters">
            <label>
                "model "
                <select
                    data-testid="filter-model"
                    on:change=move |ev| {
                        let v = pick(event_target_value(&ev));
                        wb.traj.filter.update(|f| f.model = v);
                    }
                >
                    <option value="" selected=move || wb.traj.filter.get().model.is_none()>
                        "all"
                    </option>
                    {models
                        .into_iter()
                        .map(|m| {
                            let (m2, m3) = (m.clone(), m.clone());
                            view! {
                                <option
                                    value=m3
                                    selected=move || {
                                        wb.traj.filter.get().model.as_deref() == Some(m2.as_str())
                                    }
                                >
                                    {m}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>
                "task "
                <input
                    type="text"
                    size="10"
                    data-testid="filter-task"
                    prop:value=move || wb.traj.filter.get().task
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        wb.traj.filter.update(|f| f.task = v);
                    }
                />
            </label>
            {(!groups.is_empty())
                .then(|| {
                    view! {
                        <label>
                            "group "
                            <select
                                data-testid="filter-group"
                                on:change=move |ev| {
                                    let v = pick(event_target_value(&ev));
                                    wb.traj.filter.update(|f| f.group = v);
                                }
                            >
                                <option
                                    value=""
                                    selected=move || wb.traj.filter.get().group.is_none()
                                >
                                    "all"
                                </option>
                                {groups
                                    .into_iter()
                                    .map(|g| {
                                        let (v, g2) = (g.clone(), g.clone());
                                        view! {
                                            <option
                                                value=v
                                                selected=move || {
                                                    wb.traj.filter.get().group.as_deref() == Some(g2.as_str())
                                                }
                                            >
                                                {g}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                    }
                })}
            <label>
                "reward "
                <select
                    data-testid="filter-reward"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        wb.traj
                            .filter
                            .update(|f| {
                                f.reward = match v.as_str() {
                                    "success" => RewardFilter::Success,
                                    "failure" => RewardFilter::Failure,
                                    _ => RewardFilter::All,
                                };
                            });
                    }
                >
                    <option
                        value="all"
                        selected=move || wb.traj.filter.get().reward == RewardFilter::All
                    >
                        "all"
                    </option>
                    <option
                        value="success"
                        selected=move || wb.traj.filter.get().reward == RewardFilter::Success
                    >
                        "1 (success)"
                    </option>
                    <option
                        value="failure"
                        selected=move || wb.traj.filter.get().reward == RewardFilter::Failure
                    >
                        "below 1"
                    </option>
                </select>
            </label>
            {(!terminations.is_empty())
                .then(|| {
                    view! {
                        <label>
                            "termination "
                            <select
                                data-testid="filter-termination"
                                on:change=move |ev| {
                                    let v = pick(event_target_value(&ev));
                                    wb.traj.filter.update(|f| f.termination = v);
                                }
                            >
                                <option
                                    value=""
                                    selected=move || wb.traj.filter.get().termination.is_none()
                                >
                                    "all"
                                </option>
                                {terminations
                                    .into_iter()
                                    .map(|g| {
                                        let (v, g2) = (g.clone(), g.clone());
                                        view! {
                                            <option
                                                value=v
                                                selected=move || {
                                                    wb.traj.filter.get().termination.as_deref()
                                                        == Some(g2.as_str())
                                                }
                                            >
                                                {g}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                    }
                })}
            <label>
                <input
                    type="checkbox"
                    data-testid="filter-tool-errors"
                    prop:checked=move || wb.traj.filter.get().tool_errors_only
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        wb.traj.filter.update(|f| f.tool_errors_only = on);
                    }
                />
                " with tool errors"
            </label>
            <label>
                <input
                    type="checkbox"
                    data-testid="filter-gold"
                    prop:checked=move || wb.traj.filter.get().gold_unmatched_only
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        wb.traj.filter.update(|f| f.gold_unmatched_only = on);
                    }
                />
                " with missed gold actions"
            </label>
            <label>
                "order "
                <select
                    data-testid="trajectory-order"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        wb.traj
                            .order
                            .set(
                                match v.as_str() {
                                    "input" => TrajectoryOrder::Input,
                                    "reward" => TrajectoryOrder::Reward,
                                    "task" => TrajectoryOrder::Task,
                                    op => {
                                        TrajectoryOrder::OperationAscending(
                                            op.trim_start_matches("op:").to_string(),
                                        )
                                    }
                                },
                            );
                    }
                >
                    <option
                        value="input"
                        selected=move || wb.traj.order.get() == TrajectoryOrder::Input
                    >
                        "input order"
                    </option>
                    <option
                        value="reward"
                        selected=move || wb.traj.order.get() == TrajectoryOrder::Reward
                    >
                        "reward (lowest first)"
                    </option>
                    <option
                        value="task"
                        selected=move || wb.traj.order.get() == TrajectoryOrder::Task
                    >
                        "task id (2 before 10)"
                    </option>
                    {ops
                        .iter()
                        .map(|op| {
                            let op2 = op.clone();
                            view! {
                                <option
                                    value=format!("op:{op}")
                                    selected=move || {
                                        wb.traj.order.get()
                                            == TrajectoryOrder::OperationAscending(op2.clone())
                                    }
                                >
                                    {format!("{op} score (lowest first)")}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        </div>
        // The list and the conversation side by side on a wide screen
        // (stacked on a narrow one: www/style.css).
        <div class="reader">
            <div class="reader-list">
                {move || {
                    let rows = rows.get();
                    let o = o_list.clone();
                    view! { <ListTable wb=wb overview=o rows=rows /> }
                }}
            </div>
            <div class="viewer-slot">
                <TrajectoryViewer wb=wb />
            </div>
        </div>
    }
}

/// The trajectory list: every trajectory passing the filters (`rows`,
/// indices into the overview's trajectories), the open one marked; opening
/// one scrolls the viewer into view once it is drawn.
#[component]
fn ListTable(wb: Workbench, overview: Arc<Overview>, rows: Vec<usize>) -> impl IntoView {
    let o = overview;
    let ids: Vec<String> = rows.iter().map(|&i| o.trajectories[i].id.clone()).collect();
    let open = Signal::derive(move || {
        wb.traj.open.answer.with(|t| match t {
            Some(Ok(t)) => Some(t.id.clone()),
            _ => None,
        })
    });
    view! {
        <p class="detail" data-testid="trajectory-count">
            {format!("{} of {} trajectories", ids.len(), o.trajectories.len())}
        </p>
        <ClickTable
            table=tv::list_table(&o, &rows)
            ids=ids
            testid="trajectory-list"
            open=open
            on_open=Callback::new(move |id: String| {
                wb.traj.reveal.set_value(true);
                wb.open_trajectory(id);
            })
        />
    }
}

/// Scroll the trajectory viewer to the top of the window (a trajectory
/// opened from the list is read where the eye goes next, not below it).
fn reveal_viewer() {
    // A frame later: once the trajectory is drawn (the page below the
    // viewer may be too short to scroll it to the top before).
    request_animation_frame(|| {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(".viewer-slot").ok().flatten())
        {
            el.scroll_into_view_with_bool(true);
        }
    });
}

/// The proxy-label button (τ²-bench files carry no operation labels) and
/// what it gave.
#[component]
pub(crate) fn ProxyLabels(wb: Workbench) -> impl IntoView {
    move || {
        if !matches!(wb.traj.side_source.get_value(), Source::Attached { .. }) {
            return ().into_any();
        }
        let running = wb.traj.proxy.running() && wb.traj.proxy.answer.get().is_none();
        view! {
            <div class="proxy" data-testid="proxy">
                <button
                    data-testid="derive-proxy-labels"
                    disabled=running
                    on:click=move |_| wb.derive_proxy_labels()
                    title="Deterministic operation labels (ST, AS, RC, TM) from the trace of every τ²-bench simulation, as gapscope evidence tau2-labels gives them (docs/proxy-labels.md), added to the loaded files as proxy-labels.csv"
                >
                    {if running {
                        "Deriving proxy labels…"
                    } else {
                        "Derive proxy labels (τ²-bench)"
                    }}
                </button>
                {match wb.traj.proxy.answer.get() {
                    None => ().into_any(),
                    Some(Err(e)) => {
                        view! {
                            <span class="invalid" role="alert" data-testid="proxy-error">
                                {e}
                            </span>
                        }
                            .into_any()
                    }
                    Some(Ok(p)) => {
                        let csv = p.csv.clone();
                        let rows = p.csv.lines().count().saturating_sub(1);
                        view! {
                            <span class="detail" data-testid="proxy-note">
                                {format!(
                                    "{PROXY_LABELS}: {rows} labels from {}{}; the operation profile below uses them.",
                                    p.labelled.join(", "),
                                    if p.left_out.is_empty() {
                                        String::new()
                                    } else {
                                        format!(
                                            " ({} left out: not τ²-bench results)",
                                            p.left_out.join(", "),
                                        )
                                    },
                                )}
                            </span>
                            " "
                            <button
                                class="link"
                                data-testid="proxy-download"
                                on:click=move |_| {
                                    let _ = web::download(PROXY_LABELS, "text/csv", &csv);
                                }
                            >
                                "Download"
                            </button>
                            <details>
                                <summary>"Per file and operation"</summary>
                                <pre data-testid="proxy-summary">{p.summary}</pre>
                            </details>
                        }
                            .into_any()
                    }
                }}
            </div>
        }
        .into_any()
    }
}

/// The trajectory open in the viewer: its page
/// ([`gapscope_view::conversation::ConversationPage`], written by the files
/// worker; its HTML escaped there), inserted as it is.
#[component]
pub(crate) fn TrajectoryViewer(wb: Workbench) -> impl IntoView {
    move || {
        match wb.traj.open.answer.get() {
        None if wb.traj.open.running() => view! {
            <p class="explain" data-testid="viewer-loading">
                "Reading the trajectory…"
            </p>
        }
        .into_any(),
        None => view! { <p class="explain">"Click a trajectory (or press Enter on it) to read it here."</p> }
        .into_any(),
        Some(Err(e)) => view! {
            <p class="invalid" role="alert">
                {e}
            </p>
        }
        .into_any(),
        Some(Ok(p)) => {
            if wb.traj.reveal.get_value() {
                wb.traj.reveal.set_value(false);
                reveal_viewer();
            }
            view! {
                <article class="viewer" data-testid="trajectory-viewer" data-id=p.id.clone()>
                    <h3 class="viewer-id">{p.id.clone()}</h3>
                    <p class="detail">{p.title.clone()}</p>
                    <dl class="facts" data-testid="viewer-facts">
                        {p
                            .facts
                            .iter()
                            .map(|(k, v)| {
                                view! {
                                    <div>
                                        <dt>{k.clone()}</dt>
                                        <dd>{v.clone()}</dd>
                                    </div>
                                }
                            })
                            .collect_view()}
                    </dl>
                    {p
                        .sections
                        .iter()
                        .map(|s| {
                            view! {
                                <details class="section" open=s.open data-testid=s.testid.clone()>
                                    <summary>{s.title.clone()}</summary>
                                    <div class="section-body" inner_html=s.html.clone()></div>
                                </details>
                            }
                        })
                        .collect_view()}
                    <div class="conversation" inner_html=p.messages_html.clone()></div>
                </article>
            }
            .into_any()
        }
    }
    }
}

#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the part, in page order"
)]
pub(crate) fn StabilityView(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        let groups = wb.traj.overview.with(|o| matches!(o, Some(Ok(o)) if o.groups > 0 || !wb.traj.stability_regex.get().trim().is_empty()));
        if groups && wb.traj.stability.answer.get().is_none() {
            wb.ensure_stability();
        }
    });
    let regex = move |text: String| {
        wb.traj.stability_regex.set(text);
        wb.traj.stability.cancel(wb.workers);
        wb.traj.stability.answer.set(None);
    };
    move || {
        match wb.traj.overview.get() {
        None | Some(Err(_)) => view! {
            <NeedTrajectories
                wb=wb
                what="Cross-task stability needs trajectories in scenario groups and a foundational profile."
            />
        }.into_any(),
        Some(Ok(o)) => view! {
            <p class="detail">
                {format!(
                    "{} scenario group{} in the trajectories. ",
                    o.groups,
                    if o.groups == 1 { "" } else { "s" },
                )}
                <label>
                    "groups from a regular expression over task ids (first capture group; empty: scenario_group) "
                    <input
                        type="text"
                        size="16"
                        data-testid="group-regex"
                        placeholder="e.g. ^\\[(\\w+)\\]"
                        prop:value=move || wb.traj.stability_regex.get()
                        on:change=move |ev| regex(event_target_value(&ev))
                    />
                </label>
            </p>
            {move || match wb.traj.stability.answer.get() {
                None => {
                    view! {
                        <p class="explain" data-testid="stability-busy">
                            "Splitting the groups and fitting both halves in a worker…"
                        </p>
                    }
                        .into_any()
                }
                Some(Err(e)) => {
                    view! {
                        <p class="invalid" role="alert" data-testid="stability-error">
                            {e}
                        </p>
                    }
                        .into_any()
                }
                Some(Ok(s)) => {
                    let names: Vec<String> = s.stability.keys().cloned().collect();
                    let s2 = s.clone();
                    view! {
                        <p class="detail" data-testid="stability-halves">
                            {format!(
                                "Half A: {}. Half B: {}. {} further seeded splits ({} distinct); {} bootstrap draws of groups within each half.",
                                s.half_a.join(", "),
                                s.half_b.join(", "),
                                s.splits,
                                s.distinct_splits,
                                s.bootstrap,
                            )}
                        </p>
                        <TableView table=tv::stability_table(&s) wb=wb />
                        <label>
                            "scatter of "
                            <select
                                data-testid="stability-gap"
                                on:change=move |ev| {
                                    wb.traj.stability_gap.set(event_target_value(&ev));
                                }
                            >
                                {names
                                    .into_iter()
                                    .map(|n| {
                                        let (n2, n3) = (n.clone(), n.clone());
                                        view! {
                                            <option
                                                value=n3
                                                selected=move || wb.traj.stability_gap.get() == n2
                                            >
                                                {n}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                        {move || {
                            tv::stability_scatter(&s2, &wb.traj.stability_gap.get())
                                .map(|svg| {
                                    view! {
                                        <Figure
                                            svg=svg
                                            name=format!(
                                                "stability-{}",
                                                wb.traj.stability_gap.get_untracked(),
                                            )
                                            wb=wb
                                            testid="stability-scatter"
                                        />
                                    }
                                })
                        }}
                    }
                        .into_any()
                }
            }}
        }.into_any(),
    }
    }
}
