//! Realization gaps: the analysis of the opened files (or the example), its
//! views, the drop zone, the column roles and the trajectory options.

use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::RoleOverrides;
use gapscope_gaps::manifest::Input;
use gapscope_view::gaps::GapOrder;
use gapscope_view::heatmap::CorrelationKind;
use gapscope_view::nav::{Area, GapsView as View};
use gapscope_worker::{ask, Analysis, Pair, Request, Source};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{area_panel, sub_nav};
use crate::parts::{short_source_label, source_label, Knobs, Workbench};
use crate::pool::JobId;
use crate::web;

mod before;
use crate::parts::misplaced::ErrorText;
mod components;
mod inference;
use components::{CurrentView, DropZone, Summary};

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
    pub(crate) job: JobSlot<ask::Analysis, ()>,
    /// The job whose analysis is on screen (its manifest's digests may
    /// follow its answer: [`Workbench::finish_digests`]).
    pub(crate) shown_job: StoredValue<Option<JobId>>,
    pub(crate) digest: JobSlot<ask::Digests, ()>,
    /// How sure each number of the analysis on screen is (asked for with a
    /// button; cleared when another analysis is shown).
    pub(crate) inference: JobSlot<ask::Inference>,
    pub(crate) inference_progress: RwSignal<Option<gapscope_worker::Progress>>,
    /// Permutations per single-target test and for ΔQ² (`gapscope report
    /// --permutations P --delta-permutations P`).
    pub(crate) permutations: RwSignal<(usize, usize)>,
    /// The digests of the last source hashed (its label): a re-analysis of
    /// the same files (new settings) does not hash them again.
    pub(crate) digests: StoredValue<Option<(String, Vec<Input>)>>,
    pub(crate) progress: RwSignal<Option<gapscope_worker::Progress>>,
    pub(crate) analysis: RwSignal<Option<Analysis>>,
    pub(crate) error: RwSignal<Option<String>>,
    /// The files on screen are trajectories the realization analysis
    /// could not run on (alone, with no profile table): what the
    /// realization-gap views say instead (`gapscope_view::gaps::needs_sentence`).
    /// The trajectory pages show the files; no error is raised.
    pub(crate) needs: RwSignal<Option<String>>,
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
    /// What the page showed before the import running now (put back if
    /// it is cancelled).
    pub(crate) before: StoredValue<Option<before::Before>, LocalStorage>,
}

impl GapsState {
    pub(crate) fn new(view: View, corr: CorrelationKind) -> Self {
        GapsState {
            attached: StoredValue::new_local(Vec::new()),
            derived: StoredValue::new(Vec::new()),
            job: JobSlot::new(),
            shown_job: StoredValue::new(None),
            digest: JobSlot::new(),
            inference: JobSlot::new(),
            inference_progress: RwSignal::new(None),
            permutations: RwSignal::new((
                gapscope_gaps::inference::DEFAULT_PERMUTATIONS,
                gapscope_gaps::inference::DEFAULT_DELTA_PERMUTATIONS,
            )),
            digests: StoredValue::new(None),
            progress: RwSignal::new(None),
            analysis: RwSignal::new(None),
            error: RwSignal::new(None),
            needs: RwSignal::new(None),
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
            before: StoredValue::new_local(None),
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
        let request = self.request(source.clone());
        let files = self.files_of(&source);
        // A newer request supersedes the running one: stop it for real.
        self.gaps.job.cancel(self.workers);
        self.gaps.digest.cancel(self.workers);
        self.gaps.busy.set(Some(label));
        self.gaps.progress.set(None);
        // A new source (or new trajectory options) also needs the trajectory
        // overview: one import job reads the files once for both.
        let with_overview = self.side_jobs(&source);
        let job = ask::Analysis {
            request,
            import: with_overview,
        };
        let id = self.gaps.job.start(
            self.workers,
            job,
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

    /// A request for `source` with the current settings.
    pub(crate) fn request(self, source: Source) -> Request {
        let k = self.knobs.get_untracked();
        Request {
            source,
            alpha: k.alpha,
            bootstrap: k.bootstrap,
            seed: k.seed,
            roles: self.gaps.roles.get_untracked(),
            pair: self.gaps.pair.get_untracked(),
            macro_definition: k.macro_definition,
            trajectories: self.gaps.trajectories.get_untracked(),
            derived: self.gaps.derived.get_value(),
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
            ask::Digests { source },
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
        let name = short_source_label(source);
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
            Source::Attached { folders, .. } if !folders.is_empty() => {
                self.gaps.kept.set(Some(format!(
                    "{} is a folder, which this browser's storage does not keep: drop it again after a reload.",
                    source_label(source)
                )));
            }
            Source::Attached { .. } => {
                let files = self.gaps.attached.get_value();
                let size: f64 = files.iter().map(|f| f.size()).sum();
                if size > KEEP_LIMIT {
                    self.gaps.kept.set(Some(format!(
                        "{} ({:.1} MB) is too large for this browser's storage: drop it again after a reload.",
                        short_source_label(source),
                        size / 1e6
                    )));
                    return;
                }
                let label = short_source_label(source);
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
        answer: Result<ask::Analysed, String>,
    ) {
        if !self.gaps.first_paint.get_untracked() {
            // The first render runs much wasm for the first time (compiled
            // lazily): the view follows a frame after the summary, so that
            // no single main-thread task is long.
            request_animation_frame(move || self.gaps.first_paint.set(true));
        }
        // A superseded job never answers (the pool drops its handler), so
        // this answer is the current job's (`id`).
        self.drop_before();
        self.gaps.busy.set(None);
        self.gaps.progress.set(None);
        self.workers.refresh();
        let mut trajectories = false;
        let result = match answer {
            Ok(ask::Analysed { analysis, overview }) => {
                trajectories = matches!(&overview, Some(Ok(Some(o))) if !o.trajectories.is_empty());
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
                    self.clear_inference();
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
                    self.gaps.needs.set(None);
                }
                Err(e) if trajectories => {
                    // Trajectories alone (or ones the analysis cannot run
                    // on): the trajectory pages show them, the realization
                    // views say what they need; no error.
                    self.keep(&source);
                    self.gaps.source.set_value(source);
                    self.gaps.shown_job.set_value(id);
                    self.gaps.error.set(None);
                    // The Runs view opens when trajectories alone arrive,
                    // not on a rerun of them (a rename in the Data view
                    // keeps the Data view).
                    let arrived = self.gaps.needs.get_untracked().is_none();
                    self.gaps
                        .needs
                        .set(Some(gapscope_view::gaps::needs_sentence(&e)));
                    if arrived && !self.gaps.view.get_untracked().is_trajectory_page() {
                        self.gaps.view.set(View::Compare);
                    }
                }
                Err(e) => self.gaps.error.set(Some(e)),
            }
        }
    }

    /// The digests of a job's files, computed after its answer: they fill
    /// in the manifest of the analysis on screen, when it is that job's.
    pub(crate) fn finish_digests(self, id: JobId, inputs: Vec<gapscope_gaps::manifest::Input>) {
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
    /// takes its place; the last good result stays on screen, and a
    /// cancelled import puts back every view as it was before it.
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
        self.restore_before();
        self.workers.refresh();
    }

    /// Analyse a new dataset: choices tied to the previous one are cleared.
    pub(crate) fn open(self, source: Source) {
        self.keep_before();
        // New files (perhaps under the same names) are hashed anew.
        self.gaps.digests.set_value(None);
        self.traj.proxy.cancel(self.workers);
        self.traj.proxy.answer.set(None);
        self.gaps.pair.set(None);
        self.gaps.roles.set(RoleOverrides::default());
        self.gaps.trajectories.set(TrajectoryOptions::default());
        self.traj.scorers.set(Vec::new());
        self.gaps.assoc_cell.set(None);
        self.gaps.gap_cell.set(None);
        self.run(source);
    }

    /// Open the dropped or picked files: one is analysed as it is, several
    /// are joined on `model`; the files of a picked folder are read as
    /// one folder.
    pub(crate) fn open_files(self, list: web_sys::FileList) {
        let (files, folders) = crate::folders::picked(&list);
        self.open_picked(files, folders);
    }

    /// Open files named by their path (those of `folders` read as folders).
    pub(crate) fn open_picked(self, files: Vec<crate::folders::Picked>, folders: Vec<String>) {
        if files.is_empty() {
            return;
        }
        // What the page shows now comes back if this import is cancelled.
        self.keep_before();
        // The worker reads the files itself (in chunks, with progress).
        let names = files.iter().map(|p| p.name.clone()).collect();
        self.gaps
            .attached
            .set_value(files.into_iter().map(|p| p.file).collect());
        self.open(Source::Attached { names, folders });
    }

    /// The start of an export's file name: the part on screen's files, so
    /// that each part's exports are named after its own inputs (the
    /// evidence part's never after the realization analysis's files).
    pub(crate) fn file_stem(self) -> String {
        let stem = |s: Option<&Source>, builtin: &str| {
            s.map_or_else(
                || builtin.to_string(),
                |s| {
                    source_label(s)
                        .trim_end_matches(".jsonl")
                        .trim_end_matches(".json")
                        .replace([' ', '+'], "-")
                },
            )
        };
        match self.area.get_untracked() {
            Area::Gaps => self.gaps_stem(),
            Area::Evidence => self
                .ev
                .source
                .with_value(|s| stem(s.as_ref(), "evidence-worked-set")),
            Area::Runtime => self
                .rt
                .source
                .with_value(|s| stem(s.as_ref(), "runtime-simulated")),
        }
    }

    /// The realization part's stem: the files on screen (the analysis's, or
    /// the trajectories' when they are shown alone).
    fn gaps_stem(self) -> String {
        let source = if self.gaps.needs.with_untracked(Option::is_some) {
            Some(source_label(&self.gaps.source.get_value()))
        } else {
            self.gaps
                .analysis
                .with_untracked(|a| a.as_ref().map(|a| a.source.clone()))
        };
        source.map_or_else(
            || "gapscope".into(),
            |s| {
                s.trim_end_matches(".csv")
                    .trim_end_matches(".json")
                    .replace(' ', "-")
            },
        )
    }
}

/// The realization-gap part: the drop zone, the analysis summary and the
/// views (with the trajectory pages).
#[component]
pub(crate) fn GapsArea(wb: Workbench) -> impl IntoView {
    view! {
        <DropZone wb=wb />
        {move || {
            let compare = wb.gaps.view.get() == View::Compare;
            wb.gaps
                .error
                .get()
                .filter(|e| !compare || gapscope_data::kind::part_named_in(e).is_some())
                .map(|e| {
                    // A file of another part is named in every view.
                    // The Compare view works on a trajectory-only drop: the
                    // realization analysis's error (no foundational profile) is not
                    // put in front of it.
                    view! {
                        <div class="error" role="alert" data-testid="error">
                            <strong>"Could not analyse. "</strong>
                            <ErrorText wb=wb message=e files=wb.gaps.attached.get_value() />
                            {move || {
                                wb.gaps
                                    .analysis
                                    .with(std::option::Option::is_some)
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
        {move || {
            if wb.gaps.needs.with(Option::is_some) {
                return Some(view! { <TrajectorySummary wb=wb /> }.into_any());
            }
            let stale = wb.gaps.view.get() == View::Compare && wb.gaps.error.with(Option::is_some);
            wb.gaps
                .analysis
                .get()
                .filter(|_| !stale)
                .map(|a| {
                    // On the Compare view after a drop the realization analysis
                    // could not read, the summary would describe the files
                    // before: it is left out.
                    view! { <Summary analysis=a /> }
                        .into_any()
                })
        }}
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
                        if !id.is_trajectory_page() {
                            if let Some(needs) = wb.gaps.needs.get() {
                                return Some(
                                    view! {
                                        <NeedsProfile wb=wb sentence=needs data=id == View::Data />
                                    }
                                        .into_any(),
                                );
                            }
                        }
                        wb.gaps
                            .first_paint
                            .get()
                            .then(|| view! { <CurrentView wb=wb id=id /> }.into_any())
                    }}
                }
                    .into_any()
            },
        )}
    }
}

/// The summary when the files on screen are trajectories alone: what they
/// hold (the trajectory overview's sentence), in place of the realization
/// analysis's summary.
#[component]
fn TrajectorySummary(wb: Workbench) -> impl IntoView {
    let shown = wb.gaps.source.get_value();
    let label = source_label(&shown);
    // Many files: their number, the names on hover (and in the overview).
    let source = short_source_label(&shown);
    view! {
        <section class="summary" data-testid="summary" data-source=label.clone() title=label>
            <p class="sentence" data-testid="trajectory-summary">
                {move || {
                    wb.traj
                        .overview
                        .with(|o| match o {
                            Some(Ok(o)) => format!("{}: {}.", source, o.summary),
                            _ => source.clone(),
                        })
                }}
            </p>
            <p class="detail">
                "Trajectories alone: Runs, Trajectories and Stability read them; the realization-gap views need a foundational profile table too."
            </p>
        </section>
    }
}

/// A realization-gap view when the files on screen are trajectories the
/// analysis cannot run on: what it needs, in one sentence.
/// In the Data view, the trajectory options stay: models renamed or merged
/// (a run's metadata is sometimes wrong) and the task subset apply to the
/// runs and the trajectory list too.
#[component]
fn NeedsProfile(wb: Workbench, sentence: String, data: bool) -> impl IntoView {
    // The models of the trajectories on screen (after the renames in force).
    let models = Memo::new(move |_| {
        wb.traj.overview.with(|o| {
            let mut m: Vec<String> = match o {
                Some(Ok(o)) => o.trajectories.iter().map(|t| t.model.clone()).collect(),
                _ => Vec::new(),
            };
            m.sort();
            m.dedup();
            m
        })
    });
    view! {
        <p class="explain" data-testid="needs-profile">
            {sentence}
        </p>
        {data.then(|| view! { <components::TrajectoryOptionsView wb=wb models=models /> })}
        <p class="detail">
            <button class="link" on:click=move |_| wb.gaps.view.set(View::Compare)>
                "Open Runs"
            </button>
            " · "
            <button class="link" on:click=move |_| wb.gaps.view.set(View::Trajectories)>
                "Open Trajectories"
            </button>
        </p>
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
