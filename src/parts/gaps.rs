//! Realization gaps: the analysis of the opened files (or the example), its
//! views, the drop zone, the column roles and the trajectory options.

use gapscope_core::join::TrajectoryOptions;
use gapscope_core::manifest::Input;
use gapscope_core::profile::Role;
use gapscope_core::{ProfileTable, RoleOverrides};
use gapscope_view::format::fmt;
use gapscope_view::gaps::{self as views, GapOrder};
use gapscope_view::heatmap::{correlation_heatmap, gap_heatmap, CorrelationKind, Heatmap};
use gapscope_view::nav::GapsView as View;
use gapscope_view::trajectories::{TrajectoryFilter, TrajectoryOrder};
use gapscope_worker::{Analysis, Job, Pair, Request, Source, CORPUS_LABEL, EXAMPLE_LABEL};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::answers::{read_analysis, read_digests, Imported};
use crate::app::{source_label, Knobs, Workbench};
use crate::parts::teaching::TeachingView;
use crate::parts::trajectories::{StabilityView, TrajectoriesView};
use crate::pool::JobId;
use crate::web;
use crate::widgets::job::JobSlot;
use crate::widgets::{area_panel, sub_nav, Figure, HeatmapView, TableView};

/// Where the last loaded file is kept in this browser (never uploaded).
const KEPT_FILE: &str = "gapscope.file";

/// Files larger than this (bytes, all together) are not kept in the browser's
/// storage (localStorage holds about 5 MB of UTF-16 text).
const KEEP_LIMIT: f64 = 2e6;

/// How long after an answer is shown its files are hashed for the manifest, ms.
const DIGESTS_AFTER_MS: u64 = 300;

/// Whether the manifest of an analysis still waits for its files' digests
/// (computed by the worker after its answer: [`Workbench::finish_digests`]).
pub(crate) fn hashing(a: &Analysis) -> bool {
    a.manifest.inputs.is_empty()
}

/// The realization-gap part's state.
#[derive(Clone, Copy)]
pub(crate) struct GapsState {
    /// The files of a `Source::Attached`, posted to the worker with each job.
    pub(crate) attached: StoredValue<Vec<web_sys::File>, LocalStorage>,
    /// Names among `attached` that the page derived (proxy labels).
    pub(crate) derived: StoredValue<Vec<String>>,
    /// The realization analysis running now, if any (its answer goes to
    /// `analysis` or `error`).
    pub(crate) job: JobSlot<Imported, ()>,
    /// The job whose analysis is on screen (its manifest's digests may
    /// follow its answer: [`Workbench::finish_digests`]).
    pub(crate) shown_job: StoredValue<Option<JobId>>,
    pub(crate) digest: JobSlot<Vec<Input>, ()>,
    /// The digests of the last source hashed (its label): a re-analysis of
    /// the same files (new settings) does not hash them again.
    pub(crate) digests: StoredValue<Option<(String, Vec<Input>)>>,
    pub(crate) progress: RwSignal<Option<gapscope_worker::Progress>>,
    pub(crate) analysis: RwSignal<Option<Analysis>>,
    pub(crate) error: RwSignal<Option<String>>,
    pub(crate) busy: RwSignal<Option<String>>,
    pub(crate) source: StoredValue<Source>,
    pub(crate) pair: RwSignal<Option<Pair>>,
    pub(crate) view: RwSignal<View>,
    pub(crate) corr_kind: RwSignal<CorrelationKind>,
    pub(crate) gap_order: RwSignal<GapOrder>,
    pub(crate) assoc_cell: RwSignal<Option<(usize, usize)>>,
    pub(crate) gap_cell: RwSignal<Option<(usize, String)>>,
    /// A note about the kept file (restored, or could not be kept).
    pub(crate) kept: RwSignal<Option<String>>,
    /// The user's column roles for the current dataset.
    pub(crate) roles: RwSignal<RoleOverrides>,
    /// Renames and task subset for the current trajectory files.
    pub(crate) trajectories: RwSignal<TrajectoryOptions>,
    /// Whether the first analysis has been painted (the view waits a frame).
    pub(crate) first_paint: RwSignal<bool>,
}

impl GapsState {
    pub(crate) fn new(view: View, corr: CorrelationKind) -> Self {
        GapsState {
            attached: StoredValue::new_local(Vec::new()),
            derived: StoredValue::new(Vec::new()),
            job: JobSlot::new(read_analysis),
            shown_job: StoredValue::new(None),
            digest: JobSlot::new(read_digests),
            digests: StoredValue::new(None),
            progress: RwSignal::new(None),
            analysis: RwSignal::new(None),
            error: RwSignal::new(None),
            busy: RwSignal::new(None),
            source: StoredValue::new(Source::Example),
            pair: RwSignal::new(None),
            view: RwSignal::new(view),
            corr_kind: RwSignal::new(corr),
            gap_order: RwSignal::new(GapOrder::Input),
            assoc_cell: RwSignal::new(None),
            gap_cell: RwSignal::new(None),
            kept: RwSignal::new(None),
            roles: RwSignal::new(RoleOverrides::default()),
            trajectories: RwSignal::new(TrajectoryOptions::default()),
            first_paint: RwSignal::new(false),
        }
    }
}

impl Workbench {
    /// The file kept from an earlier visit, if any.
    pub(crate) fn restored_source(self) -> Source {
        match web::load(KEPT_FILE).and_then(|s| serde_json::from_str::<Source>(&s).ok()) {
            Some(source) if source != Source::Example => {
                self.gaps.kept.set(Some(format!(
                    "{} was restored from this browser's storage.",
                    source_label(&source)
                )));
                source
            }
            _ => Source::Example,
        }
    }

    /// Forget every kept file and show the example again.
    pub(crate) fn forget(self) {
        web::forget(KEPT_FILE);
        self.gaps.kept.set(None);
        self.open(Source::Example);
    }

    /// Analyse `source` with the current settings. Only the newest request's
    /// answer is applied; a failed one leaves the previous analysis on screen.
    pub(crate) fn run(self, source: Source) {
        let label = source_label(&source);
        let k = self.knobs.get_untracked();
        let request = Request {
            source: source.clone(),
            alpha: k.alpha,
            bootstrap: k.bootstrap,
            seed: k.seed,
            roles: self.gaps.roles.get_untracked(),
            pair: self.gaps.pair.get_untracked(),
            macro_definition: k.macro_definition,
            trajectories: self.gaps.trajectories.get_untracked(),
            derived: self.gaps.derived.get_value(),
        };
        let files = self.files_of(&source);
        // A newer request supersedes the running one: stop it for real.
        self.gaps.job.cancel(self.workers);
        self.gaps.digest.cancel(self.workers);
        self.gaps.busy.set(Some(label));
        self.gaps.progress.set(None);
        // A new source (or new trajectory options) also needs the trajectory
        // overview: one import job reads the files once for both.
        let with_overview = self.side_jobs(&source);
        let job = if with_overview {
            Job::Import(request)
        } else {
            Job::Analyze(request)
        };
        let id = self.gaps.job.start(
            self.workers,
            &job,
            files,
            move |progress| self.gaps.progress.set(Some(progress)),
            {
                let source = source.clone();
                move |id, answer| self.finish(source, id, answer)
            },
        );
        if with_overview {
            self.traj.overview_job.set_value(Some(id));
        }
    }

    /// Hash the files of the analysis on screen for its manifest (read
    /// without hashing, so that the analysis came sooner).
    pub(crate) fn request_digests(self, id: JobId, source: Source) {
        let label = source_label(&source);
        if let Some((_, inputs)) = self.gaps.digests.get_value().filter(|(l, _)| *l == label) {
            return self.finish_digests(id, inputs);
        }
        let files = self.files_of(&source);
        self.gaps.digest.start(
            self.workers,
            &Job::Digests { source },
            files,
            |_| {},
            move |_, answer| match answer {
                Ok(inputs) => {
                    self.gaps.digests.set_value(Some((label, inputs.clone())));
                    self.finish_digests(id, inputs);
                }
                Err(e) => self.gaps.error.set(Some(format!("manifest: {e}"))),
            },
        );
    }

    /// The files to post with a job on `source`.
    pub(crate) fn files_of(self, source: &Source) -> Vec<web_sys::File> {
        match source {
            Source::Attached { .. } => self.gaps.attached.get_value(),
            _ => Vec::new(),
        }
    }

    /// Keep the analysed files in this browser's storage for the next visit.
    /// Dropped files travel to the worker as `File`s; they are read here as
    /// text only to be kept, and only when small enough for the storage.
    pub(crate) fn keep(self, source: &Source) {
        let name = source_label(source);
        let store = move |kept: Source| {
            let text = serde_json::to_string(&kept).unwrap_or_default();
            // Already kept (e.g. just restored): leave it and its note alone.
            if web::load(KEPT_FILE).as_deref() != Some(text.as_str()) {
                match web::store(KEPT_FILE, &text) {
                    Ok(()) => self.gaps.kept.set(Some(format!("{name} is kept in this browser's storage (never uploaded) and reopens after a reload."))),
                    Err(e) => self.gaps.kept.set(Some(format!("{name} could not be kept for the next visit: {e}."))),
                }
            }
        };
        match source {
            Source::Example => {}
            Source::Attached { .. } => {
                let files = self.gaps.attached.get_value();
                let size: f64 = files.iter().map(|f| f.size()).sum();
                if size > KEEP_LIMIT {
                    self.gaps.kept.set(Some(format!(
                        "{} ({:.1} MB) is too large for this browser's storage: drop it again after a reload.",
                        source_label(source),
                        size / 1e6
                    )));
                    return;
                }
                let label = source_label(source);
                spawn_local(async move {
                    let mut texts = Vec::new();
                    for file in &files {
                        match read_text(file).await {
                            Ok(t) => texts.push((file.name(), t)),
                            Err(e) => {
                                self.gaps.kept.set(Some(format!(
                                    "{label} is not kept for the next visit ({}: {e}).",
                                    file.name()
                                )));
                                return;
                            }
                        }
                    }
                    store(if texts.len() == 1 {
                        let (name, text) = texts.remove(0);
                        Source::File { name, text }
                    } else {
                        Source::Files { files: texts }
                    });
                });
            }
            other => store(other.clone()),
        }
    }

    /// Show a finished analysis (or its error; the previous one stays).
    pub(crate) fn finish(
        self,
        source: Source,
        id: Option<JobId>,
        answer: Result<Imported, String>,
    ) {
        if !self.gaps.first_paint.get_untracked() {
            // The first render runs much wasm for the first time (compiled
            // lazily): the view follows a frame after the summary, so that
            // no single main-thread task is long.
            request_animation_frame(move || self.gaps.first_paint.set(true));
        }
        // A superseded job never answers (the pool drops its handler), so
        // this answer is the current job's (`id`).
        self.gaps.busy.set(None);
        self.gaps.progress.set(None);
        self.workers.refresh();
        let result = match answer {
            Ok(Imported { analysis, overview }) => {
                if let (Some(id), Some(overview)) = (id, overview) {
                    self.finish_overview(id, overview);
                }
                analysis
            }
            Err(e) => {
                if let Some(id) = id {
                    self.finish_overview(id, Err(e.clone()));
                }
                Err(e)
            }
        };
        {
            match result {
                Ok(a) => {
                    self.keep(&source);
                    if a.imported {
                        // The report's own settings were used: show them.
                        let s = &a.report.settings;
                        self.knobs.set(Knobs {
                            alpha: s.alpha,
                            bootstrap: s.bootstrap,
                            seed: s.seed,
                            macro_definition: s.macro_definition,
                        });
                        self.gaps.pair.set(None);
                    }
                    self.gaps.source.set_value(source.clone());
                    self.gaps.shown_job.set_value(id);
                    let pending = hashing(&a);
                    self.gaps.analysis.set(Some(a));
                    if let (true, Some(id)) = (pending, id) {
                        // After the views have drawn the answer: hashing
                        // re-reads the files, which would compete with them.
                        set_timeout(
                            move || {
                                if self.gaps.shown_job.get_value() == Some(id) {
                                    self.request_digests(id, source);
                                }
                            },
                            std::time::Duration::from_millis(DIGESTS_AFTER_MS),
                        );
                    }
                    self.gaps.error.set(None);
                }
                Err(e) => self.gaps.error.set(Some(e)),
            }
        }
    }

    /// The digests of a job's files, computed after its answer: they fill
    /// in the manifest of the analysis on screen, when it is that job's.
    pub(crate) fn finish_digests(self, id: JobId, inputs: Vec<gapscope_core::manifest::Input>) {
        if self.gaps.shown_job.get_value() != Some(id) {
            return;
        }
        self.gaps.analysis.update(|a| {
            if let Some(a) = a {
                a.manifest = a.manifest.with_inputs(inputs);
            }
        });
    }

    /// Re-run the current source (after a settings change).
    pub(crate) fn rerun(self) {
        self.run(self.gaps.source.get_value());
    }

    /// Stop the running analysis: its worker is terminated and a fresh one
    /// takes its place; the last good result stays on screen.
    pub(crate) fn cancel(self) {
        if let Some(id) = self.gaps.job.id() {
            if self.traj.overview_job.get_value() == Some(id) {
                // Read again by the next analysis of this source.
                self.traj.overview_job.set_value(None);
                self.traj.overview_key.set_value(String::new());
            }
        }
        self.gaps.job.cancel(self.workers);
        self.gaps.busy.set(None);
        self.gaps.progress.set(None);
        self.workers.refresh();
    }

    /// Analyse a new dataset: choices tied to the previous one are cleared.
    pub(crate) fn open(self, source: Source) {
        // New files (perhaps under the same names) are hashed anew.
        self.gaps.digests.set_value(None);
        self.traj.proxy.cancel(self.workers);
        self.traj.proxy.answer.set(None);
        self.gaps.pair.set(None);
        self.gaps.roles.set(RoleOverrides::default());
        self.gaps.trajectories.set(TrajectoryOptions::default());
        self.gaps.assoc_cell.set(None);
        self.gaps.gap_cell.set(None);
        self.run(source);
    }

    /// Open the dropped or picked files: one is analysed as it is, several
    /// are joined on `model`.
    pub(crate) fn open_files(self, list: web_sys::FileList) {
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if files.is_empty() {
            return;
        }
        // The worker reads the files itself (in chunks, with progress).
        let names = files.iter().map(|f| f.name()).collect();
        self.gaps.attached.set_value(files);
        self.open(Source::Attached { names });
    }

    pub(crate) fn file_stem(self) -> String {
        self.gaps.analysis.with_untracked(|a| {
            a.as_ref()
                .map(|a| {
                    a.source
                        .trim_end_matches(".csv")
                        .trim_end_matches(".json")
                        .replace(' ', "-")
                })
                .unwrap_or_else(|| "gapscope".into())
        })
    }
}

/// The realization-gap part: the drop zone, the analysis summary and the
/// views (with the trajectory pages).
#[component]
pub(crate) fn GapsArea(wb: Workbench) -> impl IntoView {
    view! {
        <DropZone wb=wb />
        {move || {
            wb.gaps
                .error
                .get()
                .map(|e| {
                    view! {
                        <div class="error" role="alert" data-testid="error">
                            <strong>"Could not analyse. "</strong>
                            <span data-testid="error-message">{e}</span>
                            {move || {
                                wb.gaps
                                    .analysis
                                    .with(|a| a.is_some())
                                    .then(|| {
                                        view! {
                                            <span class="keep">
                                                " The previous analysis is still shown below."
                                            </span>
                                        }
                                    })
                            }}
                        </div>
                    }
                })
        }}
        {move || wb.gaps.analysis.get().map(|a| view! { <Summary analysis=a /> })}
        {move || {
            wb.gaps
                .kept
                .get()
                .map(|note| {
                    view! {
                        <p class="kept" data-testid="kept">
                            {note}
                            " "
                            <button class="link" data-testid="forget" on:click=move |_| wb.forget()>
                                "Forget all kept files"
                            </button>
                        </p>
                    }
                })
        }}
        {sub_nav(wb.gaps.view, None)}
        {area_panel(
            wb,
            wb.gaps.view,
            true,
            move |id| {
                view! {
                    {move || {
                        wb.gaps.first_paint.get().then(|| view! { <CurrentView wb=wb id=id /> })
                    }}
                }
                    .into_any()
            },
        )}
    }
}

/// Read a dropped or picked file as UTF-8 text, with the offset of a bad byte.
async fn read_text(file: &web_sys::File) -> Result<String, String> {
    let bytes = gloo_file::futures::read_as_bytes(&gloo_file::Blob::from(file.clone()))
        .await
        .map_err(|e| format!("could not be read ({e})"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {}); save the file as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

#[component]
pub(crate) fn CurrentView(wb: Workbench, id: View) -> impl IntoView {
    match id {
        View::Trajectories => return view! { <TrajectoriesView wb=wb /> }.into_any(),
        View::Stability => return view! { <StabilityView wb=wb /> }.into_any(),
        View::Teaching => return view! { <TeachingView wb=wb /> }.into_any(),
        _ => {}
    }
    (move || {
        let Some(a) = wb.gaps.analysis.get() else {
            return view! { <p class="explain">"Analysing…"</p> }.into_any();
        };
        let r = &a.report;
        match id {
            View::Data => view! {
                <p class="detail">
                    {format!(
                        "Dimensions: foundational {}; operations {}.",
                        r.dimensions.foundational.join(", "),
                        r.dimensions.operations.join(", "),
                    )}
                    {(!a.report.input.ignored.is_empty())
                        .then(|| {
                            format!(" Ignored columns: {}.", a.report.input.ignored.join(", "))
                        })}
                </p>
                {a
                    .report
                    .input
                    .pooled_macro
                    .is_some()
                    .then(|| {
                        view! { <TrajectoryOptionsView wb=wb models=a.report.models.clone() /> }
                    })}
                <RolePicker wb=wb table=a.report.input.clone() />
                <TableView table=views::data_table(&a.report.input) wb=wb />
            }.into_any(),
            View::Association => {
                let table = a.report.input.clone();
                let report = a.report.clone();
                view! {
                    <CorrelationToggle wb=wb />
                    {move || {
                        view! {
                            <HeatmapView
                                heatmap=correlation_heatmap(&report, wb.gaps.corr_kind.get())
                                testid="correlation-heatmap"
                                corner="F \\ O"
                                wb=wb
                                on_pick=Callback::new(move |(j, k): (usize, usize)| {
                                    wb.gaps.assoc_cell.set(Some((j, k)))
                                })
                            />
                        }
                    }}
                    {move || {
                        wb.gaps
                            .assoc_cell
                            .get()
                            .filter(|(j, k)| {
                                *j < table.foundational.names.len()
                                    && *k < table.operations.names.len()
                            })
                            .map(|(j, k)| {
                                view! {
                                    <Figure
                                        svg=views::association_scatter(&table, &a.report, j, k)
                                        name=format!(
                                            "association-{}-{}",
                                            table.foundational.names[j],
                                            table.operations.names[k],
                                        )
                                        wb=wb
                                        testid="association-scatter"
                                    />
                                }
                            })
                    }}
                }.into_any()
            }
            View::Predictability => {
                let (t, svg) = views::predictability(r);
                view! {
                    <Figure
                        svg=svg
                        name="predictability".into()
                        wb=wb
                        testid="predictability-chart"
                    />
                    <TableView table=t wb=wb />
                }.into_any()
            }
            View::Gaps => view! { <GapsView wb=wb analysis=a.clone() /> }.into_any(),
            View::Overall => {
                let (t, line, svg) = views::overall(r);
                view! {
                    <p class="detail" data-testid="overall-line">
                        {line}
                    </p>
                    <Figure svg=svg name="overall-gap".into() wb=wb testid="overall-chart" />
                    <TableView table=t wb=wb />
                }.into_any()
            }
            View::Reward => match views::reward(r) {
                Some((t, d, panels)) => view! {
                    <TableView table=t wb=wb />
                    <TableView table=d wb=wb />
                    <details class="alt">
                        <summary>"The panels as a table"</summary>
                        {views::reward_predictions(r)
                            .map(|t| view! { <TableView table=t wb=wb /> })}
                    </details>
                    <div class="figures">
                        {panels
                            .into_iter()
                            .zip(["F", "O", "F+O"])
                            .map(|(svg, n)| {
                                view! {
                                    <Figure
                                        svg=svg
                                        name=format!("reward-{n}")
                                        wb=wb
                                        testid="reward-chart"
                                    />
                                }
                            })
                            .collect_view()}
                    </div>
                }.into_any(),
                None => view! {
                    <p class="detail">
                        "No reward column in this data: reward prediction needs one (named reward, or assigned as outcome)."
                    </p>
                }.into_any(),
            },
            View::Penalty => match views::penalty(r) {
                Some((charts, nested)) => view! {
                    <div class="figures">
                        {charts
                            .into_iter()
                            .zip(["mae", "rho", "q2"])
                            .map(|(svg, n)| {
                                view! {
                                    <Figure
                                        svg=svg
                                        name=format!("penalty-{n}")
                                        wb=wb
                                        testid="penalty-chart"
                                    />
                                }
                            })
                            .collect_view()}
                    </div>
                    {nested.map(|t| view! { <TableView table=t wb=wb /> })}
                    <details class="alt">
                        <summary>"The curves as a table"</summary>
                        {views::penalty_table(r).map(|t| view! { <TableView table=t wb=wb /> })}
                    </details>
                }.into_any(),
                None => view! {
                    <p class="detail">
                        "No reward column in this data: penalty sensitivity is computed for reward prediction."
                    </p>
                }.into_any(),
            },
            View::Sensitivity => view! { <SensitivityView wb=wb analysis=a.clone() /> }.into_any(),
            View::Rankings => {
                let (t, svg) = views::rankings(r);
                view! {
                    <p class="detail">
                        {format!(
                            "Spearman ρ between the two means: {}.",
                            fmt(r.rankings.spearman, 3),
                        )}
                    </p>
                    <Figure svg=svg name="rankings".into() wb=wb testid="rankings-chart" />
                    <TableView table=t wb=wb />
                }.into_any()
            }
            View::Paper => view! {
                <p class="detail">
                    "Shown as the paper prints them. With 5–6 of 15 rows these tables cannot determine the paper's predictions; nothing here is computed from them or presented as a reproduction."
                </p>
                {views::PAPER_TABLES
                    .iter()
                    .map(|(title, caption, csv)| {
                        view! {
                            <p class="caption">{*caption}</p>
                            <TableView table=views::paper_table(title, csv) wb=wb />
                        }
                    })
                    .collect_view()}
            }.into_any(),
            _ => view! { <p>"Unknown view."</p> }.into_any(),
        }
    })
    .into_any()
}

/// Assign each column a role; the analysis reruns with the new roles.
/// Options of the trajectory files among the inputs: rename or merge models
/// (file metadata is sometimes wrong) and the task subset.
#[component]
pub(crate) fn TrajectoryOptionsView(wb: Workbench, models: Vec<String>) -> impl IntoView {
    let invalid = RwSignal::new(None::<String>);
    let current = wb
        .gaps
        .trajectories
        .get_untracked()
        .renames
        .iter()
        .map(|(a, b)| format!("{a}={b}"))
        .collect::<Vec<_>>()
        .join(", ");
    let set_renames = move |text: String| {
        let parsed: Result<Vec<(String, String)>, String> = text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(gapscope_core::trajectory::parse_rename)
            .collect();
        match parsed {
            Ok(renames) => {
                invalid.set(None);
                wb.gaps.trajectories.update(|t| t.renames = renames);
                wb.rerun();
            }
            Err(e) => invalid.set(Some(e)),
        }
    };
    view! {
        <fieldset class="trajectory-options" data-testid="trajectory-options">
            <legend>"Trajectories"</legend>
            <label>
                "rename or merge models (OLD=NEW, comma-separated) "
                <input
                    type="text"
                    data-testid="renames"
                    size="40"
                    placeholder="e.g. gpt-4.1-2025-04-14=GPT-4.1"
                    prop:value=current
                    on:change=move |ev| set_renames(event_target_value(&ev))
                />
            </label>
            <label>
                <input
                    type="checkbox"
                    data-testid="all-tasks"
                    prop:checked=move || wb.gaps.trajectories.get().all_tasks
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        wb.gaps.trajectories.update(|t| t.all_tasks = on);
                        wb.rerun();
                    }
                />
                " use every task (default: only the tasks every model attempted)"
            </label>
            <label>
                <input
                    type="checkbox"
                    data-testid="keep-repeats"
                    prop:checked=move || wb.gaps.trajectories.get().keep_repeats
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        wb.gaps.trajectories.update(|t| t.keep_repeats = on);
                        wb.rerun();
                    }
                />
                " keep repeated trajectories (default: a trajectory read twice, e.g. the same file under two names, counts once)"
            </label>
            <label>
                "domain of files that name none "
                <input
                    type="text"
                    data-testid="domain"
                    size="12"
                    placeholder="e.g. airline"
                    prop:value=move || wb.gaps.trajectories.get().domain.unwrap_or_default()
                    on:change=move |ev| {
                        let d = event_target_value(&ev).trim().to_string();
                        wb.gaps.trajectories.update(|t| t.domain = (!d.is_empty()).then_some(d));
                        wb.rerun();
                    }
                />
            </label>
            <p class="muted">{format!("Models now: {}.", models.join(", "))}</p>
            {move || {
                invalid
                    .get()
                    .map(|m| {
                        view! {
                            <span class="invalid" role="alert" data-testid="renames-error">
                                {m}
                            </span>
                        }
                    })
            }}
        </fieldset>
    }
}

#[component]
pub(crate) fn RolePicker(wb: Workbench, table: ProfileTable) -> impl IntoView {
    let mut cols: Vec<(String, Role)> = Vec::new();
    cols.extend(
        table
            .foundational
            .names
            .iter()
            .map(|n| (n.clone(), Role::Foundational)),
    );
    cols.extend(
        table
            .operations
            .names
            .iter()
            .map(|n| (n.clone(), Role::Operation)),
    );
    cols.extend(
        table
            .outcome_column
            .iter()
            .map(|n| (n.clone(), Role::Outcome)),
    );
    cols.extend(table.ignored.iter().map(|n| (n.clone(), Role::Ignore)));
    let assigned = StoredValue::new(cols.clone());
    let change = move |name: String, role: Role| {
        let mut cols = assigned.get_value();
        for c in cols.iter_mut() {
            if c.0 == name {
                c.1 = role;
            } else if role == Role::Outcome && c.1 == Role::Outcome {
                c.1 = Role::Ignore; // one outcome at a time
            }
        }
        let pick = |r: Role| {
            cols.iter()
                .filter(|c| c.1 == r)
                .map(|c| c.0.clone())
                .collect::<Vec<_>>()
        };
        let outcome = pick(Role::Outcome).into_iter().next();
        wb.gaps.roles.set(RoleOverrides {
            foundational: Some(pick(Role::Foundational)),
            operations: Some(pick(Role::Operation)),
            no_outcome: outcome.is_none(),
            outcome,
            reward_scale: wb.gaps.roles.get_untracked().reward_scale,
        });
        wb.rerun();
    };
    let label = |r: Role| match r {
        Role::Foundational => "foundational",
        Role::Operation => "operation",
        Role::Outcome => "outcome",
        Role::Ignore => "ignore",
    };
    view! {
        <details class="roles" open=!table.ignored.is_empty()>
            <summary>"Column roles (defaults by name; change any)"</summary>
            <div class="role-grid" data-testid="roles">
                {cols
                    .into_iter()
                    .map(|(name, role)| {
                        let n = name.clone();
                        view! {
                            <label>
                                {name.clone()}
                                <select
                                    data-column=name.clone()
                                    on:change=move |ev| {
                                        let r = match event_target_value(&ev).as_str() {
                                            "foundational" => Role::Foundational,
                                            "operation" => Role::Operation,
                                            "outcome" => Role::Outcome,
                                            _ => Role::Ignore,
                                        };
                                        change(n.clone(), r);
                                    }
                                >
                                    {[
                                        Role::Foundational,
                                        Role::Operation,
                                        Role::Outcome,
                                        Role::Ignore,
                                    ]
                                        .into_iter()
                                        .map(|r| {
                                            view! {
                                                <option value=label(r) selected=r == role>
                                                    {label(r)}
                                                </option>
                                            }
                                        })
                                        .collect_view()}
                                </select>
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
        </details>
    }
}

#[component]
pub(crate) fn CorrelationToggle(wb: Workbench) -> impl IntoView {
    view! {
        <div class="toggle" role="radiogroup" aria-label="correlation">
            {[CorrelationKind::Pearson, CorrelationKind::Spearman]
                .into_iter()
                .map(|k| {
                    view! {
                        <button
                            role="radio"
                            aria-checked=move || (wb.gaps.corr_kind.get() == k).to_string()
                            class:on=move || wb.gaps.corr_kind.get() == k
                            on:click=move |_| wb.gaps.corr_kind.set(k)
                        >
                            {k.label()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[component]
pub(crate) fn GapsView(wb: Workbench, analysis: Analysis) -> impl IntoView {
    let r = analysis.report.clone();
    let ops: Vec<String> = r.operations.keys().cloned().collect();
    let r2 = r.clone();
    view! {
        <label class="sort">
            "Order rows by "
            <select
                data-testid="gap-order"
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    wb.gaps
                        .gap_order
                        .set(
                            match v.as_str() {
                                "model" => GapOrder::Model,
                                "family" => GapOrder::Family,
                                "macro" => GapOrder::Macro,
                                "input" => GapOrder::Input,
                                op => GapOrder::Operation(op.trim_start_matches("op:").to_string()),
                            },
                        );
                }
            >
                <option value="input">"input order"</option>
                <option value="model">"model name"</option>
                <option value="family">"family"</option>
                <option value="macro">"macro gap (largest first)"</option>
                {ops
                    .into_iter()
                    .map(|op| {
                        view! {
                            <option value=format!(
                                "op:{op}",
                            )>{format!("{op} gap (largest first)")}</option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
        {move || {
            let order = views::gap_order(&r, &wb.gaps.gap_order.get());
            let full = gap_heatmap(&r);
            let heatmap = Heatmap {
                rows: order.iter().map(|&i| full.rows[i].clone()).collect(),
                cells: order.iter().map(|&i| full.cells[i].clone()).collect(),
                ..full
            };
            let r3 = r.clone();
            view! {
                <HeatmapView
                    heatmap=heatmap
                    testid="gap-heatmap"
                    corner="model"
                    wb=wb
                    on_pick=Callback::new(move |(row, col): (usize, usize)| {
                        let order = views::gap_order(&r3, &wb.gaps.gap_order.get_untracked());
                        let op = r3.operations.keys().nth(col).cloned().unwrap_or_default();
                        wb.gaps.gap_cell.set(Some((order[row], op)));
                    })
                />
            }
        }}
        {move || {
            wb.gaps
                .gap_cell
                .get()
                .map(|(i, op)| {
                    let model = r2.models.get(i).cloned().unwrap_or_default();
                    let has = wb
                        .traj
                        .overview
                        .with(|o| {
                            matches!(
                                o,
                                Some(Ok(o))
                                if o.trajectories.iter().any(|t| t.model == model)
                            )
                        });
                    let (m2, op2) = (model.clone(), op.clone());
                    view! {
                        <Figure
                            svg=views::gap_scatter(&r2, &op, Some(i))
                            name=format!("gap-{op}")
                            wb=wb
                            testid="gap-scatter"
                        />
                        {has
                            .then(|| {
                                view! {
                                    <p>
                                        <button
                                            class="link"
                                            data-testid="to-trajectories"
                                            on:click=move |_| {
                                                wb.traj
                                                    .filter
                                                    .set(TrajectoryFilter {
                                                        model: Some(m2.clone()),
                                                        ..Default::default()
                                                    });
                                                wb.traj
                                                    .order
                                                    .set(TrajectoryOrder::OperationAscending(op2.clone()));
                                                wb.gaps.view.set(View::Trajectories);
                                            }
                                        >
                                            {format!(
                                                "{model}'s trajectories, lowest {op} score first →",
                                            )}
                                        </button>
                                    </p>
                                }
                            })}
                    }
                })
        }}
    }
}

#[component]
pub(crate) fn SensitivityView(wb: Workbench, analysis: Analysis) -> impl IntoView {
    let t = analysis.report.input.clone();
    let current = wb.gaps.pair.get_untracked();
    let f0 = current
        .as_ref()
        .map(|p| p.foundational.clone())
        .unwrap_or_else(|| t.foundational.names.last().cloned().unwrap_or_default());
    let o0 = current
        .as_ref()
        .map(|p| p.operation.clone())
        .unwrap_or_else(|| {
            t.operations
                .names
                .get(5)
                .or(t.operations.names.last())
                .cloned()
                .unwrap_or_default()
        });
    let p0 = current
        .as_ref()
        .and_then(|p| p.provider.clone())
        .unwrap_or_default();
    let f = RwSignal::new(f0);
    let o = RwSignal::new(o0);
    let provider = RwSignal::new(p0);
    let families: Vec<String> = gapscope_core::crossval::distinct_in_order(&t.families)
        .into_iter()
        .cloned()
        .collect();
    let ask = move || {
        let p = provider.get_untracked();
        wb.gaps.pair.set(Some(Pair {
            foundational: f.get_untracked(),
            operation: o.get_untracked(),
            provider: (!p.is_empty()).then_some(p),
        }));
        wb.rerun();
    };
    if current.is_none() {
        ask();
    }
    let select = |label: &'static str,
                  options: Vec<String>,
                  sig: RwSignal<String>,
                  testid: &'static str,
                  none: bool| {
        view! {
            <label class="sort">
                {label}
                <select
                    data-testid=testid
                    on:change=move |ev| {
                        sig.set(event_target_value(&ev));
                        ask();
                    }
                >
                    {none.then(|| view! { <option value="">"(none)"</option> })}
                    {options
                        .into_iter()
                        .map(|v| {
                            let sel = v == sig.get_untracked();
                            view! {
                                <option value=v.clone() selected=sel>
                                    {v.clone()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="controls">
            {select("Foundational ", t.foundational.names.clone(), f, "pair-foundational", false)}
            {select("Operation ", t.operations.names.clone(), o, "pair-operation", false)}
            {select("Provider removed ", families, provider, "pair-provider", true)}
        </div>
        {move || {
            wb.gaps
                .analysis
                .get()
                .and_then(|a| views::sensitivity_table(&a.report))
                .map(|t| view! { <TableView table=t wb=wb /> })
        }}
    }
}

/// The "synthetic example" label beside a view's title while the example is shown.
#[component]
pub(crate) fn SyntheticMark(wb: Workbench) -> impl IntoView {
    move || {
        // The trajectory pages show the files last opened, which may not be
        // the analysis on screen (when that one failed).
        let trajectory_page = wb.gaps.view.get().is_trajectory_page();
        let synthetic = if trajectory_page {
            wb.traj.side_source.get_value() == Source::Corpus
        } else {
            wb.gaps
                .analysis
                .with(|a| a.as_ref().is_some_and(|a| a.synthetic))
        };
        synthetic.then(|| {
            let label = if wb.gaps.source.get_value() == Source::Corpus {
                CORPUS_LABEL
            } else {
                EXAMPLE_LABEL
            };
            view! { <span class="badge synthetic small">{label}</span> }
        })
    }
}

#[component]
pub(crate) fn DropZone(wb: Workbench) -> impl IntoView {
    let over = RwSignal::new(false);
    view! {
        <div
            class="dropzone"
            class:over=move || over.get()
            data-testid="dropzone"
            on:dragover=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                over.set(true);
            }
            on:dragleave=move |_| over.set(false)
            on:drop=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                over.set(false);
                if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                    wb.open_files(files);
                }
            }
        >
            <p>
                "Drop profile files here (wide CSV or JSON: "
                <code>"model,family,TU,…,GI,…,reward"</code>
                "; several files are joined on model), or "
                <label class="pick">
                    "choose a file"
                    <input
                        type="file"
                        multiple
                        accept=".csv,.json,.txt,text/csv,application/json"
                        data-testid="file-input"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            if let Some(files) = input.files() {
                                wb.open_files(files);
                            }
                            input.set_value("");
                        }
                    />
                </label> ", or "
                <button
                    class="link"
                    on:click=move |_| wb.open(Source::Example)
                    data-testid="load-example"
                >
                    "load the synthetic example"
                </button> "."
            </p>
        </div>
    }
}

#[component]
pub(crate) fn Summary(analysis: Analysis) -> impl IntoView {
    let r = &analysis.report;
    let folds = match r.folds.kind {
        gapscope_core::crossval::FoldKind::Family => "held out by family".to_string(),
        gapscope_core::crossval::FoldKind::Model => {
            "held out model by model (leave-one-model-out)".to_string()
        }
    };
    let sentence = format!("{}.", r.summary);
    let detail = format!(
        "Ridge, {folds}, α = {}; {} bootstrap draws, seed {}.",
        r.settings.alpha, r.settings.bootstrap, r.settings.seed
    );
    let warnings = r.warnings.clone();
    view! {
        <section class="summary" data-testid="summary" data-source=analysis.source.clone()>
            <div class="source">
                {if analysis.synthetic {
                    view! {
                        <span class="badge synthetic" data-testid="synthetic-badge">
                            {if analysis.source == CORPUS_LABEL {
                                CORPUS_LABEL
                            } else {
                                EXAMPLE_LABEL
                            }}
                        </span>
                        <span class="origin">
                            "made by gapscope's seeded generator (not real models; "
                            <code>
                                {if analysis.source == CORPUS_LABEL {
                                    "gapscope synth-trajectories"
                                } else {
                                    "gapscope synth"
                                }}
                            </code>" regenerates it)"
                        </span>
                    }
                        .into_any()
                } else {
                    view! { <span class="file">{analysis.source.clone()}</span> }.into_any()
                }}
            </div>
            <p class="sentence" data-testid="summary-sentence">
                {sentence}
            </p>
            <p class="detail" data-testid="summary-detail">
                {detail}
            </p>
            {(!warnings.is_empty())
                .then(|| {
                    view! {
                        <ul class="warnings" data-testid="warnings">
                            {warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                        </ul>
                    }
                })}
        </section>
    }
}
