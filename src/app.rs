//! The leptos components. State lives in [`Workbench`] (signals, outside any
//! component); components render view models from `crate::views`,
//! `crate::model` and `crate::chart`; every number comes from the worker's
//! core report.

use gapscope_core::analysis::MacroDefinition;
use gapscope_core::join::TrajectoryOptions;
use gapscope_core::profile::Role;
use gapscope_core::{ProfileTable, RoleOverrides};
use gapscope_worker::{
    Analysis, Answer, Job, OverviewResult, Pair, Progress, ProxyLabelFile, Request, Source,
    CORPUS_LABEL, EXAMPLE_LABEL,
};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::pool::{JobId, Pool, PoolStats};
use crate::web;
use gapscope_core::overview::Overview;
use gapscope_core::runtime::{RuntimeReport, SimParams};
use gapscope_core::stability::{StabilityReport, StabilitySettings};
use gapscope_core::trajectory::Trajectory;
use gapscope_view::format::fmt;
use gapscope_view::gaps::{self as views, GapOrder, VIEWS};
use gapscope_view::heatmap::{correlation_heatmap, gap_heatmap, CorrelationKind, Heatmap};
use gapscope_view::table::Table;
use gapscope_view::trajectories::{
    self as tv, RewardFilter, TrajectoryFilter, TrajectoryOrder, TRAJECTORY_VIEWS,
};
use gapscope_view::{evidence as tv_evidence, runtime as tv_runtime};

/// Mount the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The hover card: its text and the pointer position.
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    text: String,
    x: i32,
    y: i32,
}

/// Analysis settings as the user typed them (validated before use).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Knobs {
    alpha: f64,
    bootstrap: usize,
    seed: u64,
    macro_definition: MacroDefinition,
}

/// Where the last loaded file is kept in this browser (never uploaded).
const KEPT_FILE: &str = "gapscope.file";
const THEME: &str = "gapscope.theme";
/// The error of an answer of another kind than the job's (a page/worker bug).
const UNEXPECTED: &str = "internal error: unexpected answer";

/// The files opened for a page's own source (`None`: its built-in data).
fn opened(
    source: &Option<Source>,
    files: StoredValue<Vec<web_sys::File>, LocalStorage>,
) -> Vec<web_sys::File> {
    if source.is_some() {
        files.get_value()
    } else {
        Vec::new()
    }
}

/// A runtime report and the simulated log it came from (when simulated).
type Simulated = (RuntimeReport, Option<String>);

/// The workbench's parts: (id in the URL, label).
const AREAS: [(&str, &str); 3] = [
    ("gaps", "Realization gaps"),
    ("evidence", "Evidence to action"),
    ("runtime", "Runtime contracts"),
];
/// Files larger than this (bytes, all together) are not kept in the browser's
/// storage (localStorage holds about 5 MB of UTF-16 text).
const KEEP_LIMIT: f64 = 2e6;

/// The name a source is shown by.
fn source_label(source: &Source) -> String {
    match source {
        Source::Example => EXAMPLE_LABEL.to_string(),
        Source::File { name, .. } => name.clone(),
        Source::Files { files } => files
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        Source::Attached { names } => names.join(" + "),
        Source::Corpus => CORPUS_LABEL.to_string(),
    }
}

/// The name of the label file the proxy-label button adds to the source.
const PROXY_LABELS: &str = "proxy-labels.csv";

/// How long after an answer is shown its files are hashed for the manifest, ms.
const DIGESTS_AFTER_MS: u64 = 300;

/// Whether the manifest of an analysis still waits for its files' digests
/// (computed by the worker after its answer: [`Workbench::finish_digests`]).
fn hashing(a: &Analysis) -> bool {
    a.manifest.inputs.is_empty()
}

/// The whole page state.
#[derive(Clone, Copy)]
struct Workbench {
    pool: StoredValue<Pool, LocalStorage>,
    /// The files of a `Source::Attached`, posted to the worker with each job.
    attached: StoredValue<Vec<web_sys::File>, LocalStorage>,
    /// Names among `attached` that the page derived (proxy labels).
    derived: StoredValue<Vec<String>>,
    pool_stats: RwSignal<PoolStats>,
    /// The realization analysis running now, if any.
    job: StoredValue<Option<JobId>>,
    /// The job whose analysis is on screen (its manifest's digests may
    /// follow its answer: [`Workbench::finish_digests`]).
    shown_job: StoredValue<Option<JobId>>,
    digest_job: StoredValue<Option<JobId>>,
    /// The digests of the last source hashed (its label): a re-analysis of
    /// the same files (new settings) does not hash them again.
    digests: StoredValue<Option<(String, Vec<gapscope_core::manifest::Input>)>>,
    progress: RwSignal<Option<Progress>>,
    analysis: RwSignal<Option<Analysis>>,
    error: RwSignal<Option<String>>,
    busy: RwSignal<Option<String>>,
    source: StoredValue<Source>,
    knobs: RwSignal<Knobs>,
    pair: RwSignal<Option<Pair>>,
    view: RwSignal<String>,
    hover: RwSignal<Option<Hover>>,
    corr_kind: RwSignal<CorrelationKind>,
    gap_order: RwSignal<GapOrder>,
    assoc_cell: RwSignal<Option<(usize, usize)>>,
    gap_cell: RwSignal<Option<(usize, String)>>,
    /// A note about the kept file (restored, or could not be kept).
    kept: RwSignal<Option<String>>,
    theme: RwSignal<String>,
    /// The user's column roles for the current dataset.
    roles: RwSignal<RoleOverrides>,
    /// Renames and task subset for the current trajectory files.
    trajectories: RwSignal<TrajectoryOptions>,
    /// The trajectory files of the current source (None: none, or not yet).
    /// Shared, not copied, by every view that reads it (a large corpus has
    /// hundreds of thousands of rows).
    overview: RwSignal<Option<Result<std::sync::Arc<Overview>, String>>>,
    overview_job: StoredValue<Option<JobId>>,
    /// What the overview was computed for (source and trajectory options).
    overview_key: StoredValue<String>,
    /// The source the side jobs read: the one last opened, even when its
    /// realization analysis failed (e.g. trajectories without a foundational file).
    side_source: StoredValue<Source>,
    traj_filter: RwSignal<TrajectoryFilter>,
    traj_order: RwSignal<TrajectoryOrder>,
    /// The trajectory open in the viewer.
    open_traj: RwSignal<Option<Result<Trajectory, String>>>,
    traj_job: StoredValue<Option<JobId>>,
    /// Proxy labels of the loaded τ²-bench files (added to the source as
    /// `proxy-labels.csv`), or why there are none.
    proxy: RwSignal<Option<Result<ProxyLabelFile, String>>>,
    proxy_job: StoredValue<Option<JobId>>,
    stability: RwSignal<Option<Result<StabilityReport, String>>>,
    stability_job: StoredValue<Option<JobId>>,
    stability_regex: RwSignal<String>,
    stability_gap: RwSignal<String>,
    /// Which part of the workbench: realization gaps, evidence, runtime.
    area: RwSignal<String>,
    /// Whether the first analysis has been painted (the view waits a frame).
    first_paint: RwSignal<bool>,
    ev: RwSignal<Option<Result<gapscope_core::evidence::EvidenceReport, String>>>,
    ev_job: StoredValue<Option<JobId>>,
    /// `None`: the worked set.
    ev_source: StoredValue<Option<Source>>,
    ev_files: StoredValue<Vec<web_sys::File>, LocalStorage>,
    ev_view: RwSignal<String>,
    ev_filter: RwSignal<tv_evidence::EpisodeFilter>,
    ev_episode: RwSignal<Option<String>>,
    ev_messages: RwSignal<Option<Result<Vec<gapscope_core::trajectory::Message>, String>>>,
    rt: RwSignal<Option<Result<Simulated, String>>>,
    rt_job: StoredValue<Option<JobId>>,
    /// `None`: simulate with `rt_params`.
    rt_source: StoredValue<Option<Source>>,
    rt_files: StoredValue<Vec<web_sys::File>, LocalStorage>,
    rt_params: RwSignal<SimParams>,
    rt_view: RwSignal<String>,
    rt_filter: RwSignal<tv_runtime::RuntimeFilter>,
    rt_slice: RwSignal<usize>,
    rt_episode: RwSignal<Option<String>>,
    rt_turn: RwSignal<usize>,
}

impl Workbench {
    fn new() -> Self {
        let mut knobs = Knobs {
            alpha: 10.0,
            bootstrap: gapscope_core::Settings::default().bootstrap,
            seed: 0,
            macro_definition: MacroDefinition::Mean,
        };
        let mut view = "gaps".to_string();
        let mut corr = CorrelationKind::Pearson;
        let mut area = "gaps".to_string();
        for (k, v) in web::query() {
            match k.as_str() {
                "view"
                    if VIEWS
                        .iter()
                        .chain(TRAJECTORY_VIEWS.iter())
                        .any(|(id, _, _)| *id == v) =>
                {
                    view = v
                }
                "alpha" => {
                    knobs.alpha = v
                        .parse()
                        .ok()
                        .filter(|a: &f64| *a > 0.0 && a.is_finite())
                        .unwrap_or(knobs.alpha)
                }
                "B" => {
                    knobs.bootstrap = v
                        .parse()
                        .ok()
                        .filter(|b| *b <= gapscope_core::analysis::MAX_BOOTSTRAP)
                        .unwrap_or(knobs.bootstrap)
                }
                "seed" => knobs.seed = v.parse().unwrap_or(knobs.seed),
                "macro" => {
                    knobs.macro_definition =
                        MacroDefinition::parse(&v).unwrap_or(knobs.macro_definition)
                }
                "corr" if v == "spearman" => corr = CorrelationKind::Spearman,
                "area" if AREAS.iter().any(|(a, _)| *a == v) => area = v,
                _ => {}
            }
        }
        Workbench {
            pool: StoredValue::new_local(Pool::new()),
            attached: StoredValue::new_local(Vec::new()),
            derived: StoredValue::new(Vec::new()),
            pool_stats: RwSignal::new(PoolStats::default()),
            job: StoredValue::new(None),
            shown_job: StoredValue::new(None),
            digest_job: StoredValue::new(None),
            digests: StoredValue::new(None),
            progress: RwSignal::new(None),
            analysis: RwSignal::new(None),
            error: RwSignal::new(None),
            busy: RwSignal::new(None),
            source: StoredValue::new(Source::Example),
            knobs: RwSignal::new(knobs),
            pair: RwSignal::new(None),
            view: RwSignal::new(view),
            hover: RwSignal::new(None),
            corr_kind: RwSignal::new(corr),
            gap_order: RwSignal::new(GapOrder::Input),
            assoc_cell: RwSignal::new(None),
            gap_cell: RwSignal::new(None),
            kept: RwSignal::new(None),
            theme: RwSignal::new(web::load(THEME).unwrap_or_else(|| "auto".into())),
            roles: RwSignal::new(RoleOverrides::default()),
            trajectories: RwSignal::new(TrajectoryOptions::default()),
            overview: RwSignal::new(None),
            overview_job: StoredValue::new(None),
            overview_key: StoredValue::new(String::new()),
            side_source: StoredValue::new(Source::Example),
            traj_filter: RwSignal::new(TrajectoryFilter::default()),
            traj_order: RwSignal::new(TrajectoryOrder::Input),
            open_traj: RwSignal::new(None),
            traj_job: StoredValue::new(None),
            proxy: RwSignal::new(None),
            proxy_job: StoredValue::new(None),
            stability: RwSignal::new(None),
            stability_job: StoredValue::new(None),
            stability_regex: RwSignal::new(String::new()),
            stability_gap: RwSignal::new("macro".into()),
            area: RwSignal::new(area),
            first_paint: RwSignal::new(false),
            ev: RwSignal::new(None),
            ev_job: StoredValue::new(None),
            ev_source: StoredValue::new(None),
            ev_files: StoredValue::new_local(Vec::new()),
            ev_view: RwSignal::new("ecs".into()),
            ev_filter: RwSignal::new(Default::default()),
            ev_episode: RwSignal::new(None),
            ev_messages: RwSignal::new(None),
            rt: RwSignal::new(None),
            rt_job: StoredValue::new(None),
            rt_source: StoredValue::new(None),
            rt_files: StoredValue::new_local(Vec::new()),
            rt_params: RwSignal::new(SimParams::default()),
            rt_view: RwSignal::new("quality".into()),
            rt_filter: RwSignal::new(Default::default()),
            rt_slice: RwSignal::new(0),
            rt_episode: RwSignal::new(None),
            rt_turn: RwSignal::new(0),
        }
    }

    /// The file kept from an earlier visit, if any.
    fn restored_source(self) -> Source {
        match web::load(KEPT_FILE).and_then(|s| serde_json::from_str::<Source>(&s).ok()) {
            Some(source) if source != Source::Example => {
                self.kept.set(Some(format!(
                    "{} was restored from this browser's storage.",
                    source_label(&source)
                )));
                source
            }
            _ => Source::Example,
        }
    }

    /// Forget every kept file and show the example again.
    fn forget(self) {
        web::forget(KEPT_FILE);
        self.kept.set(None);
        self.open(Source::Example);
    }

    /// Analyse `source` with the current settings. Only the newest request's
    /// answer is applied; a failed one leaves the previous analysis on screen.
    fn run(self, source: Source) {
        let label = source_label(&source);
        let k = self.knobs.get_untracked();
        let request = Request {
            source: source.clone(),
            alpha: k.alpha,
            bootstrap: k.bootstrap,
            seed: k.seed,
            roles: self.roles.get_untracked(),
            pair: self.pair.get_untracked(),
            macro_definition: k.macro_definition,
            trajectories: self.trajectories.get_untracked(),
            derived: self.derived.get_value(),
        };
        let files = self.files_of(&source);
        // A newer request supersedes the running one: stop it for real.
        if let Some(old) = self.job.get_value() {
            self.pool.with_value(|p| p.cancel(old));
        }
        self.cancel_job(self.digest_job);
        self.busy.set(Some(label));
        self.progress.set(None);
        // A new source (or new trajectory options) also needs the trajectory
        // overview: one import job reads the files once for both.
        let with_overview = self.side_jobs(&source);
        let job = if with_overview {
            Job::Import(request)
        } else {
            Job::Analyze(request)
        };
        let id = self.pool.with_value(|p| {
            p.submit(
                &job,
                files,
                move |progress| self.progress.set(Some(progress)),
                {
                    let source = source.clone();
                    move |answer| self.finish(source, answer)
                },
            )
        });
        self.job.set_value(Some(id));
        if with_overview {
            self.overview_job.set_value(Some(id));
        }
        self.refresh_pool();
    }

    /// Derive proxy labels from the loaded τ²-bench files and analyse them
    /// with the labels (`proxy-labels.csv` joins the source, replacing an
    /// earlier one).
    fn derive_proxy_labels(self) {
        let source = self.side_source.get_value();
        self.proxy.set(None);
        self.side_job(
            &Job::ProxyLabels {
                source: source.clone(),
            },
            self.files_of(&source),
            Some(self.proxy_job),
            move |answer| {
                let result = match answer {
                    Answer::ProxyLabels(r) => *r,
                    Answer::Failed(e) => Err(e),
                    _ => Err(UNEXPECTED.into()),
                };
                if let Ok(labels) = &result {
                    match web::text_file(PROXY_LABELS, &labels.csv) {
                        Ok(file) => {
                            let mut files: Vec<web_sys::File> = self
                                .attached
                                .get_value()
                                .into_iter()
                                .filter(|f| f.name() != PROXY_LABELS)
                                .collect();
                            files.push(file);
                            let names = files.iter().map(|f| f.name()).collect();
                            self.attached.set_value(files);
                            self.derived.set_value(Vec::new());
                            self.derived.set_value(vec![PROXY_LABELS.to_string()]);
                            // Not the files hashed before, though perhaps
                            // under the same names.
                            self.digests.set_value(None);
                            self.run(Source::Attached { names });
                        }
                        Err(e) => {
                            self.proxy.set(Some(Err(format!("{PROXY_LABELS}: {e:?}"))));
                            return;
                        }
                    }
                }
                self.proxy.set(Some(result));
            },
        );
    }

    /// Hash the files of the analysis on screen for its manifest (read
    /// without hashing, so that the analysis came sooner).
    fn request_digests(self, id: JobId, source: Source) {
        let label = source_label(&source);
        if let Some((_, inputs)) = self.digests.get_value().filter(|(l, _)| *l == label) {
            return self.finish_digests(id, inputs);
        }
        let files = self.files_of(&source);
        self.side_job(
            &Job::Digests { source },
            files,
            Some(self.digest_job),
            move |answer| match answer {
                Answer::Digests(r) => match *r {
                    Ok(inputs) => {
                        self.digests.set_value(Some((label, inputs.clone())));
                        self.finish_digests(id, inputs);
                    }
                    Err(e) => self.error.set(Some(format!("manifest: {e}"))),
                },
                Answer::Failed(e) => self.error.set(Some(format!("manifest: {e}"))),
                _ => self.error.set(Some(UNEXPECTED.into())),
            },
        );
    }

    /// The files to post with a job on `source`.
    fn files_of(self, source: &Source) -> Vec<web_sys::File> {
        match source {
            Source::Attached { .. } => self.attached.get_value(),
            _ => Vec::new(),
        }
    }

    /// Cancel a side job, if one runs.
    fn cancel_job(self, slot: StoredValue<Option<JobId>>) {
        if let Some(old) = slot.get_value() {
            self.pool.with_value(|p| p.cancel(old));
        }
        slot.set_value(None);
    }

    /// Submit a job beside the analysis: `slot`, when given, holds its id
    /// until it answers (so that it can be cancelled); `done` gets the answer,
    /// then the pool line is refreshed.
    fn side_job(
        self,
        job: &Job,
        files: Vec<web_sys::File>,
        slot: Option<StoredValue<Option<JobId>>>,
        done: impl FnOnce(Answer) + 'static,
    ) {
        let id = self.pool.with_value(|p| {
            p.submit(
                job,
                files,
                |_| {},
                move |answer| {
                    if let Some(slot) = slot {
                        slot.set_value(None);
                    }
                    done(answer);
                    self.refresh_pool();
                },
            )
        });
        if let Some(slot) = slot {
            slot.set_value(Some(id));
        }
        self.refresh_pool();
    }

    /// What changes beside the analysis when `source` is (re-)analysed: the
    /// stability analysis is cleared (recomputed on demand: it depends on
    /// α); the trajectory overview and the open trajectory are cleared when
    /// the source or the trajectory options changed. Whether the analysis
    /// job must also build the overview (also when the job that was building
    /// it was superseded before it answered).
    fn side_jobs(self, source: &Source) -> bool {
        self.side_source.set_value(source.clone());
        self.cancel_job(self.stability_job);
        self.stability.set(None);
        let options = self.trajectories.get_untracked();
        let key = serde_json::to_string(&(source_label(source), &options)).unwrap_or_default();
        if key == self.overview_key.get_value() {
            return self.overview_job.get_value().is_some();
        }
        self.overview_key.set_value(key);
        self.overview_job.set_value(None);
        self.cancel_job(self.traj_job);
        self.overview.set(None);
        self.open_traj.set(None);
        *source != Source::Example
    }

    /// The overview part of an import job's answer, when that job is still
    /// the one building the overview.
    fn finish_overview(self, id: JobId, overview: OverviewResult) {
        if self.overview_job.get_value() != Some(id) {
            return;
        }
        self.overview_job.set_value(None);
        self.overview.set(match overview {
            Ok(None) => None,
            Ok(Some(o)) => Some(Ok(std::sync::Arc::new(o))),
            Err(e) => Some(Err(e)),
        });
    }

    /// Open one trajectory in the viewer (read whole by a worker).
    fn open_trajectory(self, id: String) {
        self.cancel_job(self.traj_job);
        self.open_traj.set(None);
        let source = self.side_source.get_value();
        let job = Job::Trajectory {
            source: source.clone(),
            options: self.trajectories.get_untracked(),
            id: id.clone(),
        };
        self.side_job(
            &job,
            self.files_of(&source),
            Some(self.traj_job),
            move |answer| {
                self.open_traj.set(Some(match answer {
                    Answer::Trajectory(r) => match *r {
                        Ok(Some(t)) => Ok(t),
                        Ok(None) => Err(format!(
                            "trajectory `{id}` is no longer in the loaded files"
                        )),
                        Err(e) => Err(e),
                    },
                    Answer::Failed(e) => Err(e),
                    _ => Err(UNEXPECTED.into()),
                }))
            },
        );
    }

    /// Compute cross-task stability for the current source, unless it runs.
    fn ensure_stability(self) {
        if self.stability_job.get_value().is_some() {
            return;
        }
        let source = self.side_source.get_value();
        let k = self.knobs.get_untracked();
        let regex = self.stability_regex.get_untracked();
        let settings = StabilitySettings {
            alpha: gapscope_core::Alpha::new(k.alpha).unwrap_or(gapscope_core::Alpha::DEFAULT),
            seed: k.seed,
            group_regex: (!regex.trim().is_empty()).then(|| regex.trim().to_string()),
            macro_definition: k.macro_definition,
            ..StabilitySettings::default()
        };
        let job = Job::Stability {
            source: source.clone(),
            options: self.trajectories.get_untracked(),
            settings,
        };
        self.side_job(
            &job,
            self.files_of(&source),
            Some(self.stability_job),
            move |answer| {
                self.stability.set(Some(match answer {
                    Answer::Stability(r) => *r,
                    Answer::Failed(e) => Err(e),
                    _ => Err(UNEXPECTED.into()),
                }))
            },
        );
    }

    /// Score the evidence source (the worked set unless files were opened).
    fn run_evidence(self) {
        self.cancel_job(self.ev_job);
        self.ev_episode.set(None);
        self.ev_messages.set(None);
        self.ev_filter.set(Default::default());
        let source = self.ev_source.get_value();
        let k = self.knobs.get_untracked();
        let job = Job::Evidence {
            source: source.clone(),
            bootstrap: k.bootstrap.min(10_000),
            seed: k.seed,
        };
        let files = opened(&source, self.ev_files);
        self.side_job(&job, files, Some(self.ev_job), move |answer| {
            self.ev.set(Some(match answer {
                Answer::Evidence(r) => *r,
                Answer::Failed(e) => Err(e),
                _ => Err(UNEXPECTED.into()),
            }))
        });
    }

    /// Open one evidence episode in the replay (its messages read by a worker).
    fn open_evidence_episode(self, id: String) {
        self.ev_episode.set(Some(id.clone()));
        self.ev_messages.set(None);
        self.ev_view.set("episode".into());
        let source = self.ev_source.get_value();
        let files = opened(&source, self.ev_files);
        let job = Job::EvidenceMessages {
            source,
            id: id.clone(),
        };
        self.side_job(&job, files, None, move |answer| {
            if self.ev_episode.get_untracked().as_deref() == Some(id.as_str()) {
                self.ev_messages.set(Some(match answer {
                    Answer::EvidenceMessages(m) => *m,
                    Answer::Failed(e) => Err(e),
                    _ => Err(UNEXPECTED.into()),
                }));
            }
        });
    }

    /// Simulate (or read the opened log) and analyse runtime contracts.
    fn run_runtime(self) {
        self.cancel_job(self.rt_job);
        self.rt_episode.set(None);
        let source = self.rt_source.get_value();
        let k = self.knobs.get_untracked();
        let job = Job::Runtime {
            simulate: source.is_none().then(|| self.rt_params.get_untracked()),
            source: source.clone(),
            bootstrap: k.bootstrap.min(10_000),
            seed: k.seed,
        };
        let files = opened(&source, self.rt_files);
        self.side_job(&job, files, Some(self.rt_job), move |answer| {
            self.rt.set(Some(match answer {
                Answer::Runtime(r) => *r,
                Answer::Failed(e) => Err(e),
                _ => Err(UNEXPECTED.into()),
            }))
        });
    }

    fn refresh_pool(self) {
        self.pool_stats.set(self.pool.with_value(|p| p.stats()));
    }

    /// Keep the analysed files in this browser's storage for the next visit.
    /// Dropped files travel to the worker as `File`s; they are read here as
    /// text only to be kept, and only when small enough for the storage.
    fn keep(self, source: &Source) {
        let name = source_label(source);
        let store = move |kept: Source| {
            let text = serde_json::to_string(&kept).unwrap_or_default();
            // Already kept (e.g. just restored): leave it and its note alone.
            if web::load(KEPT_FILE).as_deref() != Some(text.as_str()) {
                match web::store(KEPT_FILE, &text) {
                    Ok(()) => self.kept.set(Some(format!("{name} is kept in this browser's storage (never uploaded) and reopens after a reload."))),
                    Err(e) => self.kept.set(Some(format!("{name} could not be kept for the next visit: {e}."))),
                }
            }
        };
        match source {
            Source::Example => {}
            Source::Attached { .. } => {
                let files = self.attached.get_value();
                let size: f64 = files.iter().map(|f| f.size()).sum();
                if size > KEEP_LIMIT {
                    self.kept.set(Some(format!(
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
                                self.kept.set(Some(format!(
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
    fn finish(self, source: Source, answer: Answer) {
        if !self.first_paint.get_untracked() {
            // The first render runs much wasm for the first time (compiled
            // lazily): the view follows a frame after the summary, so that
            // no single main-thread task is long.
            request_animation_frame(move || self.first_paint.set(true));
        }
        // A superseded job never answers (the pool drops its handler), so
        // this answer is the current job's.
        let id = self.job.get_value();
        self.job.set_value(None);
        self.busy.set(None);
        self.progress.set(None);
        self.refresh_pool();
        let result = match answer {
            Answer::Analyze(r) => *r,
            Answer::Import { analysis, overview } => {
                if let Some(id) = id {
                    self.finish_overview(id, *overview);
                }
                *analysis
            }
            Answer::Failed(e) => {
                if let Some(id) = id {
                    self.finish_overview(id, Err(e.clone()));
                }
                Err(e)
            }
            _ => Err(UNEXPECTED.into()),
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
                        self.pair.set(None);
                    }
                    self.source.set_value(source.clone());
                    self.shown_job.set_value(id);
                    let pending = hashing(&a);
                    self.analysis.set(Some(a));
                    if let (true, Some(id)) = (pending, id) {
                        // After the views have drawn the answer: hashing
                        // re-reads the files, which would compete with them.
                        set_timeout(
                            move || {
                                if self.shown_job.get_value() == Some(id) {
                                    self.request_digests(id, source);
                                }
                            },
                            std::time::Duration::from_millis(DIGESTS_AFTER_MS),
                        );
                    }
                    self.error.set(None);
                }
                Err(e) => self.error.set(Some(e)),
            }
        }
    }

    /// The digests of a job's files, computed after its answer: they fill
    /// in the manifest of the analysis on screen, when it is that job's.
    fn finish_digests(self, id: JobId, inputs: Vec<gapscope_core::manifest::Input>) {
        if self.shown_job.get_value() != Some(id) {
            return;
        }
        self.analysis.update(|a| {
            if let Some(a) = a {
                a.manifest = a.manifest.with_inputs(inputs);
            }
        });
    }

    /// Re-run the current source (after a settings change).
    fn rerun(self) {
        self.run(self.source.get_value());
    }

    /// Stop the running analysis: its worker is terminated and a fresh one
    /// takes its place; the last good result stays on screen.
    fn cancel(self) {
        if let Some(id) = self.job.get_value() {
            self.pool.with_value(|p| p.cancel(id));
            if self.overview_job.get_value() == Some(id) {
                // Read again by the next analysis of this source.
                self.overview_job.set_value(None);
                self.overview_key.set_value(String::new());
            }
        }
        self.job.set_value(None);
        self.busy.set(None);
        self.progress.set(None);
        self.refresh_pool();
    }

    /// Analyse a new dataset: choices tied to the previous one are cleared.
    fn open(self, source: Source) {
        // New files (perhaps under the same names) are hashed anew.
        self.digests.set_value(None);
        self.cancel_job(self.proxy_job);
        self.proxy.set(None);
        self.pair.set(None);
        self.roles.set(RoleOverrides::default());
        self.trajectories.set(TrajectoryOptions::default());
        self.assoc_cell.set(None);
        self.gap_cell.set(None);
        self.run(source);
    }

    /// Open the dropped or picked files: one is analysed as it is, several
    /// are joined on `model`.
    fn open_files(self, list: web_sys::FileList) {
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if files.is_empty() {
            return;
        }
        // The worker reads the files itself (in chunks, with progress).
        let names = files.iter().map(|f| f.name()).collect();
        self.attached.set_value(files);
        self.open(Source::Attached { names });
    }

    fn file_stem(self) -> String {
        self.analysis.with_untracked(|a| {
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
fn App() -> impl IntoView {
    let wb = Workbench::new();
    wb.pool
        .with_value(|p| p.on_change(move || wb.refresh_pool()));
    // A hover card belongs to what was under the pointer: a new view drops it.
    Effect::new(move |_| {
        wb.view.track();
        wb.area.track();
        wb.ev_view.track();
        wb.rt_view.track();
        wb.hover.set(None);
    });
    wb.run(wb.restored_source());
    Effect::new(move |_| {
        let t = wb.theme.get();
        web::set_theme(&t);
        let _ = web::store(THEME, &t);
    });

    // Settings and view live in the URL, so a view can be shared as a link.
    Effect::new(move |_| {
        let k = wb.knobs.get();
        let mut q = vec![
            ("view", wb.view.get()),
            ("alpha", k.alpha.to_string()),
            ("B", k.bootstrap.to_string()),
            ("seed", k.seed.to_string()),
        ];
        if wb.area.get() != "gaps" {
            q.push(("area", wb.area.get()));
        }
        if k.macro_definition != MacroDefinition::Mean {
            q.push(("macro", k.macro_definition.name().into()));
        }
        if wb.corr_kind.get() == CorrelationKind::Spearman {
            q.push(("corr", "spearman".into()));
        }
        web::set_query(&q);
    });

    view! {
        <header class="top">
            <h1>"gapscope"</h1>
            <p class="tagline">"Capability realization gaps: where agents execute above or below what their foundational profile predicts. Everything runs in this page; no file leaves your machine."</p>
        </header>
        <main>
            <nav class="areas" aria-label="parts of the workbench" data-testid="areas">
                {AREAS.iter().map(|(id, label)| view! {
                    <button data-area=*id class:on=move || wb.area.get() == *id aria-pressed=move || (wb.area.get() == *id).to_string()
                        on:click=move |_| wb.area.set(id.to_string())>{*label}</button>
                }).collect_view()}
            </nav>
            <SettingsBar wb=wb />
            <Status wb=wb />
            {move || match wb.area.get().as_str() {
                "evidence" => view! { <EvidenceArea wb=wb /> }.into_any(),
                "runtime" => view! { <RuntimeArea wb=wb /> }.into_any(),
                _ => view! {
            <DropZone wb=wb />
            {move || wb.error.get().map(|e| view! {
                <div class="error" role="alert" data-testid="error">
                    <strong>"Could not analyse. "</strong>
                    <span data-testid="error-message">{e}</span>
                    {move || wb.analysis.with(|a| a.is_some()).then(|| view! {
                        <span class="keep">" The previous analysis is still shown below."</span>
                    })}
                </div>
            })}
            {move || wb.analysis.get().map(|a| view! { <Summary analysis=a /> })}
            {move || wb.kept.get().map(|note| view! {
                <p class="kept" data-testid="kept">{note} " "
                    <button class="link" data-testid="forget" on:click=move |_| wb.forget()>"Forget all kept files"</button></p>
            })}
            <nav class="views" aria-label="views" role="tablist">
                {VIEWS.iter().chain(TRAJECTORY_VIEWS.iter()).map(|(id, label, _)| {
                    let id = id.to_string();
                    let id2 = id.clone();
                    let id3 = id.clone();
                    view! {
                        <button role="tab" data-view=id.clone()
                            aria-selected=move || (wb.view.get() == id2).to_string()
                            class:on=move || wb.view.get() == id3
                            on:click=move |_| wb.view.set(id.clone())>{*label}</button>
                    }
                }).collect_view()}
            </nav>
            <section class="panel" data-testid="view" data-view=move || wb.view.get()>
                {move || {
                    let id = wb.view.get();
                    let (_, label, explain) = VIEWS.iter().chain(TRAJECTORY_VIEWS.iter()).find(|(v, _, _)| *v == id).copied().unwrap_or(VIEWS[3]);
                    view! {
                        <h2>{label} <SyntheticMark wb=wb /></h2>
                        <p class="explain">{explain}</p>
                        {move || wb.first_paint.get().then(|| view! { <CurrentView wb=wb id=id.clone() /> })}
                    }
                }}
            </section>
                }.into_any(),
            }}
        </main>
        <footer>"gapscope " {env!("CARGO_PKG_VERSION")} " — offline workbench for agent-evaluation artifacts. Synthetic data is labelled as such wherever it appears."</footer>
        {move || wb.hover.get().map(|h| view! {
            <div class="tooltip" role="tooltip" data-testid="tooltip"
                 style=format!("left: {}px; top: {}px", h.x + 14, h.y + 14)>
                {h.text.lines().map(|l| view! { <div>{l.to_string()}</div> }).collect_view()}
            </div>
        })}
    }
}

#[component]
fn CurrentView(wb: Workbench, id: String) -> impl IntoView {
    match id.as_str() {
        "trajectories" => return view! { <TrajectoriesView wb=wb /> }.into_any(),
        "stability" => return view! { <StabilityView wb=wb /> }.into_any(),
        "teaching" => return view! { <TeachingView wb=wb /> }.into_any(),
        _ => {}
    }
    (move || {
        let Some(a) = wb.analysis.get() else {
            return view! { <p class="explain">"Analysing…"</p> }.into_any();
        };
        let r = &a.report;
        match id.as_str() {
            "data" => view! {
                <p class="detail">{format!("Dimensions: foundational {}; operations {}.", r.dimensions.foundational.join(", "), r.dimensions.operations.join(", "))}
                    {(!a.report.input.ignored.is_empty()).then(|| format!(" Ignored columns: {}.", a.report.input.ignored.join(", ")))}</p>
                {a.report.input.pooled_macro.is_some().then(|| view! { <TrajectoryOptionsView wb=wb models=a.report.models.clone() /> })}
                <RolePicker wb=wb table=a.report.input.clone() />
                <TableView table=views::data_table(&a.report.input) wb=wb />
            }.into_any(),
            "association" => {
                let table = a.report.input.clone();
                let report = a.report.clone();
                view! {
                    <CorrelationToggle wb=wb />
                    {move || view! { <HeatmapView heatmap=correlation_heatmap(&report, wb.corr_kind.get()) testid="correlation-heatmap" corner="F \\ O" wb=wb
                        on_pick=Callback::new(move |(j, k): (usize, usize)| wb.assoc_cell.set(Some((j, k)))) /> }}
                    {move || wb.assoc_cell.get().filter(|(j, k)| *j < table.foundational.names.len() && *k < table.operations.names.len()).map(|(j, k)| {
                        view! { <Figure svg=views::association_scatter(&table, &a.report, j, k) name=format!("association-{}-{}", table.foundational.names[j], table.operations.names[k]) wb=wb testid="association-scatter" /> }
                    })}
                }.into_any()
            }
            "predictability" => {
                let (t, svg) = views::predictability(r);
                view! { <Figure svg=svg name="predictability".into() wb=wb testid="predictability-chart" /> <TableView table=t wb=wb /> }.into_any()
            }
            "gaps" => view! { <GapsView wb=wb analysis=a.clone() /> }.into_any(),
            "overall" => {
                let (t, line, svg) = views::overall(r);
                view! { <p class="detail" data-testid="overall-line">{line}</p> <Figure svg=svg name="overall-gap".into() wb=wb testid="overall-chart" /> <TableView table=t wb=wb /> }.into_any()
            }
            "reward" => match views::reward(r) {
                Some((t, d, panels)) => view! {
                    <TableView table=t wb=wb />
                    <TableView table=d wb=wb />
                    <details class="alt"><summary>"The panels as a table"</summary>
                        {views::reward_predictions(r).map(|t| view! { <TableView table=t wb=wb /> })}
                    </details>
                    <div class="figures">
                        {panels.into_iter().zip(["F", "O", "F+O"]).map(|(svg, n)| view! { <Figure svg=svg name=format!("reward-{n}") wb=wb testid="reward-chart" /> }).collect_view()}
                    </div>
                }.into_any(),
                None => view! { <p class="detail">"No reward column in this data: reward prediction needs one (named reward, or assigned as outcome)."</p> }.into_any(),
            },
            "penalty" => match views::penalty(r) {
                Some((charts, nested)) => view! {
                    <div class="figures">
                        {charts.into_iter().zip(["mae", "rho", "q2"]).map(|(svg, n)| view! { <Figure svg=svg name=format!("penalty-{n}") wb=wb testid="penalty-chart" /> }).collect_view()}
                    </div>
                    {nested.map(|t| view! { <TableView table=t wb=wb /> })}
                    <details class="alt"><summary>"The curves as a table"</summary>
                        {views::penalty_table(r).map(|t| view! { <TableView table=t wb=wb /> })}
                    </details>
                }.into_any(),
                None => view! { <p class="detail">"No reward column in this data: penalty sensitivity is computed for reward prediction."</p> }.into_any(),
            },
            "sensitivity" => view! { <SensitivityView wb=wb analysis=a.clone() /> }.into_any(),
            "rankings" => {
                let (t, svg) = views::rankings(r);
                view! { <p class="detail">{format!("Spearman ρ between the two means: {}.", fmt(r.rankings.spearman, 3))}</p> <Figure svg=svg name="rankings".into() wb=wb testid="rankings-chart" /> <TableView table=t wb=wb /> }.into_any()
            }
            "paper" => view! {
                <p class="detail">"Shown as the paper prints them. With 5–6 of 15 rows these tables cannot determine the paper's predictions; nothing here is computed from them or presented as a reproduction."</p>
                {views::PAPER_TABLES.iter().map(|(title, caption, csv)| view! {
                    <p class="caption">{*caption}</p>
                    <TableView table=views::paper_table(title, csv) wb=wb />
                }).collect_view()}
            }.into_any(),
            _ => view! { <p>"Unknown view."</p> }.into_any(),
        }
    })
    .into_any()
}

/// Load-the-corpus prompt for pages that need trajectory files.
#[component]
fn NeedTrajectories(wb: Workbench, what: &'static str) -> impl IntoView {
    view! {
        <p class="detail" data-testid="need-trajectories">{what}
            " Drop trajectory files (canonical JSONL, τ²-bench results, Inspect AI logs) with a foundational profile file, or "
            <button class="link" data-testid="load-corpus" on:click=move |_| wb.open(Source::Corpus)>"load the synthetic trajectory corpus"</button>
            " (seeded generator, planted gaps, 12 scenario groups)."</p>
    }
}

#[component]
fn TrajectoriesView(wb: Workbench) -> impl IntoView {
    move || match wb.overview.get() {
        None if wb.overview_job.get_value().is_some() => {
            view! { <p class="explain">"Reading the trajectories…"</p> }.into_any()
        }
        None => {
            view! { <NeedTrajectories wb=wb what="No trajectory files are loaded." /> }.into_any()
        }
        Some(Err(e)) => {
            view! { <p class="invalid" role="alert" data-testid="overview-error">{e}</p> }
                .into_any()
        }
        Some(Ok(o)) => view! { <TrajectoryList wb=wb overview=o /> }.into_any(),
    }
}

#[component]
fn TrajectoryList(wb: Workbench, overview: std::sync::Arc<Overview>) -> impl IntoView {
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
        tv::trajectory_rows(&o_rows, &wb.traj_filter.get(), &wb.traj_order.get())
    });
    const SHOWN: usize = 200;
    let o_list = o.clone();
    view! {
        <p class="sentence" data-testid="overview-summary">{format!("{}.", o.summary)}</p>
        <ProxyLabels wb=wb />
        {(!o.notes.is_empty()).then(|| view! { <ul class="warnings" data-testid="overview-notes">{o.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul> })}
        <TableView table=tv::profile_table(&o) wb=wb />
        <div class="filters" data-testid="trajectory-filters">
            <label>"model " <select data-testid="filter-model" on:change=move |ev| { let v = pick(event_target_value(&ev)); wb.traj_filter.update(|f| f.model = v); }>
                <option value="" selected=move || wb.traj_filter.get().model.is_none()>"all"</option>
                {models.into_iter().map(|m| { let (m2, m3) = (m.clone(), m.clone()); view! { <option value=m3 selected=move || wb.traj_filter.get().model.as_deref() == Some(m2.as_str())>{m}</option> } }).collect_view()}
            </select></label>
            <label>"task " <input type="text" size="10" data-testid="filter-task" prop:value=move || wb.traj_filter.get().task
                on:input=move |ev| { let v = event_target_value(&ev); wb.traj_filter.update(|f| f.task = v); } /></label>
            {(!groups.is_empty()).then(|| view! {
                <label>"group " <select data-testid="filter-group" on:change=move |ev| { let v = pick(event_target_value(&ev)); wb.traj_filter.update(|f| f.group = v); }>
                    <option value="" selected=move || wb.traj_filter.get().group.is_none()>"all"</option>
                    {groups.into_iter().map(|g| { let (v, g2) = (g.clone(), g.clone()); view! { <option value=v selected=move || wb.traj_filter.get().group.as_deref() == Some(g2.as_str())>{g}</option> } }).collect_view()}
                </select></label>
            })}
            <label>"reward " <select data-testid="filter-reward" on:change=move |ev| { let v = event_target_value(&ev); wb.traj_filter.update(|f| f.reward = match v.as_str() { "success" => RewardFilter::Success, "failure" => RewardFilter::Failure, _ => RewardFilter::All }); }>
                <option value="all" selected=move || wb.traj_filter.get().reward == RewardFilter::All>"all"</option>
                <option value="success" selected=move || wb.traj_filter.get().reward == RewardFilter::Success>"1 (success)"</option>
                <option value="failure" selected=move || wb.traj_filter.get().reward == RewardFilter::Failure>"below 1"</option>
            </select></label>
            {(!terminations.is_empty()).then(|| view! {
                <label>"termination " <select data-testid="filter-termination" on:change=move |ev| { let v = pick(event_target_value(&ev)); wb.traj_filter.update(|f| f.termination = v); }>
                    <option value="" selected=move || wb.traj_filter.get().termination.is_none()>"all"</option>
                    {terminations.into_iter().map(|g| { let (v, g2) = (g.clone(), g.clone()); view! { <option value=v selected=move || wb.traj_filter.get().termination.as_deref() == Some(g2.as_str())>{g}</option> } }).collect_view()}
                </select></label>
            })}
            <label><input type="checkbox" data-testid="filter-tool-errors" prop:checked=move || wb.traj_filter.get().tool_errors_only on:change=move |ev| { let on = event_target_checked(&ev); wb.traj_filter.update(|f| f.tool_errors_only = on); } />" with tool errors"</label>
            <label><input type="checkbox" data-testid="filter-gold" prop:checked=move || wb.traj_filter.get().gold_unmatched_only on:change=move |ev| { let on = event_target_checked(&ev); wb.traj_filter.update(|f| f.gold_unmatched_only = on); } />" with missed gold actions"</label>
            <label>"order " <select data-testid="trajectory-order" on:change=move |ev| { let v = event_target_value(&ev); wb.traj_order.set(match v.as_str() { "input" => TrajectoryOrder::Input, "reward" => TrajectoryOrder::Reward, op => TrajectoryOrder::OperationAscending(op.trim_start_matches("op:").to_string()) }); }>
                <option value="input" selected=move || wb.traj_order.get() == TrajectoryOrder::Input>"input order"</option>
                <option value="reward" selected=move || wb.traj_order.get() == TrajectoryOrder::Reward>"reward (lowest first)"</option>
                {ops.iter().map(|op| { let op2 = op.clone(); view! { <option value=format!("op:{op}") selected=move || wb.traj_order.get() == TrajectoryOrder::OperationAscending(op2.clone())>{format!("{op} score (lowest first)")}</option> } }).collect_view()}
            </select></label>
        </div>
        {move || {
            let rows = rows.get();
            let o = o_list.clone();
            let shown = rows.len().min(SHOWN);
            let table = tv::list_table(&o, &rows[..shown]);
            let ids: Vec<String> = rows[..shown].iter().map(|&i| o.trajectories[i].id.clone()).collect();
            view! {
                <p class="detail" data-testid="trajectory-count">{format!("{} of {} trajectories{}", rows.len(), o.trajectories.len(), if rows.len() > SHOWN { format!("; the first {SHOWN} are listed: narrow the filters to see others") } else { String::new() })}</p>
                <div class="table-wrap"><table class="data trajectories" data-testid="trajectory-list" data-title="Trajectories">
                    <thead><tr>{table.headers.iter().map(|h| view! { <th scope="col">{h.clone()}</th> }).collect_view()}</tr></thead>
                    <tbody>
                        {table.rows.into_iter().zip(ids).map(|(cells, id)| {
                            let id2 = id.clone();
                            let id3 = id.clone();
                            view! {
                                <tr tabindex="0" data-id=id.clone() class:open=move || wb.open_traj.with(|t| matches!(t, Some(Ok(t)) if t.id == id3))
                                    on:click=move |_| wb.open_trajectory(id.clone())
                                    on:keydown=move |ev| row_keys(&ev, || wb.open_trajectory(id2.clone()))>
                                    {cells.into_iter().map(|c| view! { <td>{c.display()}</td> }).collect_view()}
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table></div>
            }
        }}
        <TrajectoryViewer wb=wb operations=o.profile.operations.clone() />
    }
}

/// The proxy-label button (τ²-bench files carry no operation labels) and
/// what it gave.
#[component]
fn ProxyLabels(wb: Workbench) -> impl IntoView {
    move || {
        if !matches!(wb.side_source.get_value(), Source::Attached { .. }) {
            return ().into_any();
        }
        let running = wb.proxy_job.get_value().is_some() && wb.proxy.get().is_none();
        view! {
            <div class="proxy" data-testid="proxy">
                <button data-testid="derive-proxy-labels" disabled=running on:click=move |_| wb.derive_proxy_labels()
                    title="Deterministic operation labels (ST, AS, RC, TM) from the trace of every τ²-bench simulation, as gapscope evidence tau2-labels gives them (docs/proxy-labels.md), added to the loaded files as proxy-labels.csv">
                    {if running { "Deriving proxy labels…" } else { "Derive proxy labels (τ²-bench)" }}</button>
                {match wb.proxy.get() {
                    None => ().into_any(),
                    Some(Err(e)) => view! { <span class="invalid" role="alert" data-testid="proxy-error">{e}</span> }.into_any(),
                    Some(Ok(p)) => {
                        let csv = p.csv.clone();
                        let rows = p.csv.lines().count().saturating_sub(1);
                        view! {
                            <span class="detail" data-testid="proxy-note">{format!(
                                "{PROXY_LABELS}: {rows} labels from {}{}; the operation profile below uses them.",
                                p.labelled.join(", "),
                                if p.left_out.is_empty() { String::new() } else { format!(" ({} left out: not τ²-bench results)", p.left_out.join(", ")) }
                            )}</span>
                            " "
                            <button class="link" data-testid="proxy-download" on:click=move |_| { let _ = web::download(PROXY_LABELS, "text/csv", &csv); }>"Download"</button>
                            <details><summary>"Per file and operation"</summary><pre data-testid="proxy-summary">{p.summary}</pre></details>
                        }.into_any()
                    }
                }}
            </div>
        }
        .into_any()
    }
}

#[component]
fn TrajectoryViewer(wb: Workbench, operations: Vec<String>) -> impl IntoView {
    move || {
        let ops = operations.clone();
        match wb.open_traj.get() {
            None if wb.traj_job.get_value().is_some() => view! { <p class="explain" data-testid="viewer-loading">"Reading the trajectory…"</p> }.into_any(),
            None => view! { <p class="explain">"Click a trajectory (or press Enter on it) to read it here."</p> }.into_any(),
            Some(Err(e)) => view! { <p class="invalid" role="alert">{e}</p> }.into_any(),
            Some(Ok(t)) => {
                let header = format!(
                    "{} — model {}, task {}{}, reward {}, {}",
                    t.id,
                    t.model,
                    t.task_id,
                    t.scenario_group.as_ref().map(|g| format!(" (group {g})")).unwrap_or_default(),
                    t.reward.map_or("—".into(), |r| fmt(Some(r), 2)),
                    t.termination_reason.clone().map_or("termination not recorded".into(), |r| format!("ended: {r}"))
                );
                let labels: Vec<(String, String)> = ops
                    .iter()
                    .filter_map(|op| {
                        let l = t.labels.get(op)?;
                        Some((op.clone(), l.iter().map(|v| v.map_or("null".into(), |v| v.to_string())).collect::<Vec<_>>().join(", ")))
                    })
                    .collect();
                view! {
                    <article class="viewer" data-testid="trajectory-viewer" data-id=t.id.clone()>
                        <h3>{header}</h3>
                        {(!labels.is_empty()).then(|| view! {
                            <p class="detail" data-testid="viewer-labels">"Labels: "{labels.into_iter().map(|(op, l)| format!("{op} [{l}]")).collect::<Vec<_>>().join("; ")}</p>
                        })}
                        {(!t.gold_actions.is_empty()).then(|| view! {
                            <details class="gold" open=true data-testid="gold-actions"><summary>{format!("Gold actions: {} of {} performed", t.gold_actions.iter().filter(|g| g.matched).count(), t.gold_actions.len())}</summary>
                                <ul>{t.gold_actions.iter().map(|g| view! {
                                    <li class:unmatched=!g.matched data-testid=if g.matched { "gold-matched" } else { "gold-unmatched" }>
                                        {if g.matched { "✓ " } else { "✗ not performed: " }}<code>{format!("{}({})", g.name, g.arguments)}</code>
                                    </li>
                                }).collect_view()}</ul>
                            </details>
                        })}
                        <ol class="messages" data-testid="messages">
                            {t.messages.iter().map(|m| {
                                let text = tv::content_text(&m.content);
                                let error = m.error == Some(true);
                                let role = m.role.clone();
                                view! {
                                    <li class=format!("msg role-{role}") class:tool-error=error data-role=role.clone()>
                                        <span class="role">{if error { format!("{role} (error)") } else { role.clone() }}</span>
                                        {if m.role == "tool" {
                                            view! { <details class="tool-result" open=error><summary>{format!("result{}", m.tool_call_id.as_ref().map(|i| format!(" of {i}")).unwrap_or_default())}</summary><pre>{text}</pre></details> }.into_any()
                                        } else {
                                            view! { <div class="text">{text}</div> }.into_any()
                                        }}
                                        {m.tool_calls.iter().map(|c| view! {
                                            <details class="tool-call"><summary><code>{format!("{}(…)", c.name)}</code>{c.id.as_ref().map(|i| format!(" {i}")).unwrap_or_default()}</summary>
                                                <pre>{serde_json::to_string_pretty(&c.arguments).unwrap_or_default()}</pre></details>
                                        }).collect_view()}
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                    </article>
                }.into_any()
            }
        }
    }
}

#[component]
fn StabilityView(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        let groups = wb.overview.with(|o| matches!(o, Some(Ok(o)) if o.groups > 0 || !wb.stability_regex.get().trim().is_empty()));
        if groups && wb.stability.get().is_none() {
            wb.ensure_stability();
        }
    });
    let regex = move |text: String| {
        wb.stability_regex.set(text);
        wb.cancel_job(wb.stability_job);
        wb.stability.set(None);
    };
    move || {
        match wb.overview.get() {
        None | Some(Err(_)) => view! { <NeedTrajectories wb=wb what="Cross-task stability needs trajectories in scenario groups and a foundational profile." /> }.into_any(),
        Some(Ok(o)) => view! {
            <p class="detail">{format!("{} scenario group{} in the trajectories. ", o.groups, if o.groups == 1 { "" } else { "s" })}
                <label>"groups from a regular expression over task ids (first capture group; empty: scenario_group) "
                    <input type="text" size="16" data-testid="group-regex" placeholder="e.g. ^\\[(\\w+)\\]" prop:value=move || wb.stability_regex.get()
                        on:change=move |ev| regex(event_target_value(&ev)) /></label></p>
            {move || match wb.stability.get() {
                None => view! { <p class="explain" data-testid="stability-busy">"Splitting the groups and fitting both halves in a worker…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="invalid" role="alert" data-testid="stability-error">{e}</p> }.into_any(),
                Some(Ok(s)) => {
                    let names: Vec<String> = s.stability.keys().cloned().collect();
                    let s2 = s.clone();
                    view! {
                        <p class="detail" data-testid="stability-halves">{format!("Half A: {}. Half B: {}. {} further seeded splits ({} distinct); {} bootstrap draws of groups within each half.", s.half_a.join(", "), s.half_b.join(", "), s.splits, s.distinct_splits, s.bootstrap)}</p>
                        <TableView table=tv::stability_table(&s) wb=wb />
                        <label>"scatter of "<select data-testid="stability-gap" on:change=move |ev| wb.stability_gap.set(event_target_value(&ev))>
                            {names.into_iter().map(|n| { let (n2, n3) = (n.clone(), n.clone()); view! { <option value=n3 selected=move || wb.stability_gap.get() == n2>{n}</option> } }).collect_view()}
                        </select></label>
                        {move || tv::stability_scatter(&s2, &wb.stability_gap.get()).map(|svg| view! { <Figure svg=svg name=format!("stability-{}", wb.stability_gap.get_untracked()) wb=wb testid="stability-scatter" /> })}
                    }.into_any()
                }
            }}
        }.into_any(),
    }
    }
}

/// Assign each column a role; the analysis reruns with the new roles.
/// Options of the trajectory files among the inputs: rename or merge models
/// (file metadata is sometimes wrong) and the task subset.
#[component]
fn TrajectoryOptionsView(wb: Workbench, models: Vec<String>) -> impl IntoView {
    let invalid = RwSignal::new(None::<String>);
    let current = wb
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
                wb.trajectories.update(|t| t.renames = renames);
                wb.rerun();
            }
            Err(e) => invalid.set(Some(e)),
        }
    };
    view! {
        <fieldset class="trajectory-options" data-testid="trajectory-options">
            <legend>"Trajectories"</legend>
            <label>"rename or merge models (OLD=NEW, comma-separated) "
                <input type="text" data-testid="renames" size="40" placeholder="e.g. gpt-4.1-2025-04-14=GPT-4.1" prop:value=current
                    on:change=move |ev| set_renames(event_target_value(&ev)) /></label>
            <label><input type="checkbox" data-testid="all-tasks" prop:checked=move || wb.trajectories.get().all_tasks
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    wb.trajectories.update(|t| t.all_tasks = on);
                    wb.rerun();
                } />" use every task (default: only the tasks every model attempted)"</label>
            <label><input type="checkbox" data-testid="keep-repeats" prop:checked=move || wb.trajectories.get().keep_repeats
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    wb.trajectories.update(|t| t.keep_repeats = on);
                    wb.rerun();
                } />" keep repeated trajectories (default: a trajectory read twice, e.g. the same file under two names, counts once)"</label>
            <label>"domain of files that name none "
                <input type="text" data-testid="domain" size="12" placeholder="e.g. airline"
                    prop:value=move || wb.trajectories.get().domain.unwrap_or_default()
                    on:change=move |ev| {
                        let d = event_target_value(&ev).trim().to_string();
                        wb.trajectories.update(|t| t.domain = (!d.is_empty()).then_some(d));
                        wb.rerun();
                    } /></label>
            <p class="muted">{format!("Models now: {}.", models.join(", "))}</p>
            {move || invalid.get().map(|m| view! { <span class="invalid" role="alert" data-testid="renames-error">{m}</span> })}
        </fieldset>
    }
}

#[component]
fn RolePicker(wb: Workbench, table: ProfileTable) -> impl IntoView {
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
        wb.roles.set(RoleOverrides {
            foundational: Some(pick(Role::Foundational)),
            operations: Some(pick(Role::Operation)),
            no_outcome: outcome.is_none(),
            outcome,
            reward_scale: wb.roles.get_untracked().reward_scale,
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
                {cols.into_iter().map(|(name, role)| {
                    let n = name.clone();
                    view! {
                        <label>{name.clone()}
                            <select data-column=name.clone() on:change=move |ev| {
                                let r = match event_target_value(&ev).as_str() {
                                    "foundational" => Role::Foundational,
                                    "operation" => Role::Operation,
                                    "outcome" => Role::Outcome,
                                    _ => Role::Ignore,
                                };
                                change(n.clone(), r);
                            }>
                                {[Role::Foundational, Role::Operation, Role::Outcome, Role::Ignore].into_iter().map(|r| view! {
                                    <option value=label(r) selected=r == role>{label(r)}</option>
                                }).collect_view()}
                            </select>
                        </label>
                    }
                }).collect_view()}
            </div>
        </details>
    }
}

#[component]
fn CorrelationToggle(wb: Workbench) -> impl IntoView {
    view! {
        <div class="toggle" role="radiogroup" aria-label="correlation">
            {[CorrelationKind::Pearson, CorrelationKind::Spearman].into_iter().map(|k| view! {
                <button role="radio" aria-checked=move || (wb.corr_kind.get() == k).to_string()
                    class:on=move || wb.corr_kind.get() == k
                    on:click=move |_| wb.corr_kind.set(k)>{k.label()}</button>
            }).collect_view()}
        </div>
    }
}

#[component]
fn GapsView(wb: Workbench, analysis: Analysis) -> impl IntoView {
    let r = analysis.report.clone();
    let ops: Vec<String> = r.operations.keys().cloned().collect();
    let r2 = r.clone();
    view! {
        <label class="sort">"Order rows by "
            <select data-testid="gap-order" on:change=move |ev| {
                let v = event_target_value(&ev);
                wb.gap_order.set(match v.as_str() {
                    "model" => GapOrder::Model,
                    "family" => GapOrder::Family,
                    "macro" => GapOrder::Macro,
                    "input" => GapOrder::Input,
                    op => GapOrder::Operation(op.trim_start_matches("op:").to_string()),
                });
            }>
                <option value="input">"input order"</option>
                <option value="model">"model name"</option>
                <option value="family">"family"</option>
                <option value="macro">"macro gap (largest first)"</option>
                {ops.into_iter().map(|op| view! { <option value=format!("op:{op}")>{format!("{op} gap (largest first)")}</option> }).collect_view()}
            </select>
        </label>
        {move || {
            let order = views::gap_order(&r, &wb.gap_order.get());
            let full = gap_heatmap(&r);
            let heatmap = Heatmap {
                rows: order.iter().map(|&i| full.rows[i].clone()).collect(),
                cells: order.iter().map(|&i| full.cells[i].clone()).collect(),
                ..full
            };
            let r3 = r.clone();
            view! { <HeatmapView heatmap=heatmap testid="gap-heatmap" corner="model" wb=wb
                on_pick=Callback::new(move |(row, col): (usize, usize)| {
                    let order = views::gap_order(&r3, &wb.gap_order.get_untracked());
                    let op = r3.operations.keys().nth(col).cloned().unwrap_or_default();
                    wb.gap_cell.set(Some((order[row], op)));
                }) /> }
        }}
        {move || wb.gap_cell.get().map(|(i, op)| {
            let model = r2.models.get(i).cloned().unwrap_or_default();
            let has = wb.overview.with(|o| matches!(o, Some(Ok(o)) if o.trajectories.iter().any(|t| t.model == model)));
            let (m2, op2) = (model.clone(), op.clone());
            view! {
                <Figure svg=views::gap_scatter(&r2, &op, Some(i)) name=format!("gap-{op}") wb=wb testid="gap-scatter" />
                {has.then(|| view! {
                    <p><button class="link" data-testid="to-trajectories" on:click=move |_| {
                        wb.traj_filter.set(TrajectoryFilter { model: Some(m2.clone()), ..Default::default() });
                        wb.traj_order.set(TrajectoryOrder::OperationAscending(op2.clone()));
                        wb.view.set("trajectories".into());
                    }>{format!("{model}'s trajectories, lowest {op} score first →")}</button></p>
                })}
            }
        })}
    }
}

#[component]
fn SensitivityView(wb: Workbench, analysis: Analysis) -> impl IntoView {
    let t = analysis.report.input.clone();
    let current = wb.pair.get_untracked();
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
        wb.pair.set(Some(Pair {
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
            <label class="sort">{label}
                <select data-testid=testid on:change=move |ev| { sig.set(event_target_value(&ev)); ask(); }>
                    {none.then(|| view! { <option value="">"(none)"</option> })}
                    {options.into_iter().map(|v| { let sel = v == sig.get_untracked(); view! { <option value=v.clone() selected=sel>{v.clone()}</option> } }).collect_view()}
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
        {move || wb.analysis.get().and_then(|a| views::sensitivity_table(&a.report)).map(|t| view! { <TableView table=t wb=wb /> })}
    }
}

/// The "synthetic example" label beside a view's title while the example is shown.
#[component]
fn SyntheticMark(wb: Workbench) -> impl IntoView {
    move || {
        // The trajectory pages show the files last opened, which may not be
        // the analysis on screen (when that one failed).
        let trajectory_page = TRAJECTORY_VIEWS.iter().any(|(v, _, _)| *v == wb.view.get());
        let synthetic = if trajectory_page {
            wb.side_source.get_value() == Source::Corpus
        } else {
            wb.analysis
                .with(|a| a.as_ref().is_some_and(|a| a.synthetic))
        };
        synthetic.then(|| {
            let label = if wb.source.get_value() == Source::Corpus {
                CORPUS_LABEL
            } else {
                EXAMPLE_LABEL
            };
            view! { <span class="badge synthetic small">{label}</span> }
        })
    }
}

#[component]
fn DropZone(wb: Workbench) -> impl IntoView {
    let over = RwSignal::new(false);
    view! {
        <div class="dropzone" class:over=move || over.get() data-testid="dropzone"
            on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); over.set(true); }
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
                    <input type="file" multiple accept=".csv,.json,.txt,text/csv,application/json" data-testid="file-input"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            if let Some(files) = input.files() {
                                wb.open_files(files);
                            }
                            input.set_value("");
                        } />
                </label>
                ", or "
                <button class="link" on:click=move |_| wb.open(Source::Example) data-testid="load-example">"load the synthetic example"</button>
                "."
            </p>
        </div>
    }
}

#[component]
fn SettingsBar(wb: Workbench) -> impl IntoView {
    let invalid = RwSignal::new(None::<String>);
    let set = move |field: &'static str, text: String| {
        let mut k = wb.knobs.get_untracked();
        let ok = match field {
            "alpha" => text
                .parse::<f64>()
                .ok()
                .filter(|a| *a > 0.0 && a.is_finite())
                .map(|a| k.alpha = a)
                .is_some(),
            "B" => text
                .parse::<usize>()
                .ok()
                .filter(|b| *b <= gapscope_core::analysis::MAX_BOOTSTRAP)
                .map(|b| k.bootstrap = b)
                .is_some(),
            _ => text.parse::<u64>().ok().map(|s| k.seed = s).is_some(),
        };
        if ok {
            invalid.set(None);
            wb.knobs.set(k);
            wb.rerun();
        } else {
            invalid.set(Some(match field {
                "alpha" => format!("α must be a number greater than 0, got “{text}”"),
                "B" => format!(
                    "bootstrap draws must be a whole number from 0 to {}, got “{text}”",
                    gapscope_core::analysis::MAX_BOOTSTRAP
                ),
                _ => format!("the seed must be a whole number ≥ 0, got “{text}”"),
            }));
        }
    };
    let export_json = move |_| {
        if let Some(a) = wb.analysis.get_untracked() {
            if let Ok(s) = serde_json::to_string_pretty(&a.report) {
                let _ = web::download(
                    &format!("{}-report.json", wb.file_stem()),
                    "application/json",
                    &s,
                );
            }
        }
    };
    let export_manifest = move |_| {
        if let Some(a) = wb.analysis.get_untracked() {
            if let Ok(s) = serde_json::to_string_pretty(&a.manifest) {
                let _ = web::download(
                    &format!("{}-manifest.json", wb.file_stem()),
                    "application/json",
                    &s,
                );
            }
        }
    };
    view! {
        <div class="settings" data-testid="settings">
            <label>"α " <input type="number" min="0" step="any" data-testid="alpha" prop:value=move || wb.knobs.get().alpha.to_string()
                on:change=move |ev| set("alpha", event_target_value(&ev)) /></label>
            <label>"bootstrap draws " <input type="number" min="0" step="1000" data-testid="bootstrap" prop:value=move || wb.knobs.get().bootstrap.to_string()
                on:change=move |ev| set("B", event_target_value(&ev)) /></label>
            <label>"seed " <input type="number" min="0" step="1" data-testid="seed" prop:value=move || wb.knobs.get().seed.to_string()
                on:change=move |ev| set("seed", event_target_value(&ev)) /></label>
            <label>"macro "
                <select data-testid="macro" title="The overall operation score: the mean of the operation scores, or pooled over all labels of each trajectory (needs labelled trajectories)"
                    on:change=move |ev| {
                        if let Some(m) = MacroDefinition::parse(&event_target_value(&ev)) {
                            wb.knobs.update(|k| k.macro_definition = m);
                            wb.rerun();
                        }
                    }>
                    {[("mean", "mean of operations"), ("pooled", "pooled labels")].into_iter().map(|(v, t)| view! {
                        <option value=v selected=move || wb.knobs.get().macro_definition.name() == v>{t}</option>
                    }).collect_view()}
                </select>
            </label>
            <button on:click=export_json data-testid="export-json">"Export report (JSON)"</button>
            <button on:click=export_manifest data-testid="export-manifest"
                disabled=move || wb.analysis.with(|a| a.as_ref().is_some_and(hashing))
                title=move || if wb.analysis.with(|a| a.as_ref().is_some_and(hashing)) { "The files are being hashed for the manifest…" } else { "The inputs by SHA-256, the settings and the command that recomputes the report" }>"Export manifest"</button>
            <label>"theme "
                <select data-testid="theme" on:change=move |ev| wb.theme.set(event_target_value(&ev))>
                    {["auto", "light", "dark"].into_iter().map(|t| view! { <option value=t selected=move || wb.theme.get() == t>{t}</option> }).collect_view()}
                </select>
            </label>
            {move || invalid.get().map(|m| view! { <span class="invalid" role="alert" data-testid="settings-error">{m}</span> })}
        </div>
    }
}

#[component]
fn Status(wb: Workbench) -> impl IntoView {
    view! {
        <div class="status" aria-live="polite" data-testid="status" aria-busy=move || wb.busy.with(|b| b.is_some()).to_string()>
            {move || wb.busy.get().map(|label| {
                let progress = wb.progress.get();
                let (step, of) = progress.as_ref().map_or((0, 1), |p| (p.step, p.of));
                let stage = progress.map_or_else(
                    || "waiting for a worker".to_string(),
                    |p| format!("{} (step {} of {})", p.label, p.step, p.of),
                );
                view! {
                    <span class="spinner" aria-hidden="true"></span>
                    <span>{format!("Analysing {label} in a background worker: ")}<span data-testid="stage">{stage}</span></span>
                    <progress data-testid="progress" max=of.to_string() value=step.to_string() aria-label="analysis progress"></progress>
                    <button class="link" data-testid="cancel" on:click=move |_| wb.cancel()>"cancel"</button>
                }
            })}
            {move || {
                let s = wb.pool_stats.get();
                view! {
                    <span class="pool muted" data-testid="pool" data-live=s.live.to_string() data-terminated=s.terminated.to_string() data-size=s.size.to_string() data-memory=s.memory.to_string() data-last-job-ms=s.last_job_ms.to_string() data-last-read-ms=s.last_read_ms.to_string() data-last-streamed-bytes=s.last_streamed_bytes.to_string() data-import-ms=s.import_ms.0.to_string() data-import-read-ms=s.import_ms.1.to_string() data-import-parse-ms=s.import_ms.2.to_string()>
                        {format!("worker pool: {} of {} running{}", s.live, s.size, if s.memory > 0 { format!(" (largest worker memory {:.0} MB)", s.memory as f64 / 1e6) } else { String::new() })}
                    </span>
                }
            }}
        </div>
    }
}

#[component]
fn Summary(analysis: Analysis) -> impl IntoView {
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
                        <span class="badge synthetic" data-testid="synthetic-badge">{if analysis.source == CORPUS_LABEL { CORPUS_LABEL } else { EXAMPLE_LABEL }}</span>
                        <span class="origin">"made by gapscope's seeded generator (not real models; "<code>{if analysis.source == CORPUS_LABEL { "gapscope synth-trajectories" } else { "gapscope synth" }}</code>" regenerates it)"</span>
                    }.into_any()
                } else {
                    view! { <span class="file">{analysis.source.clone()}</span> }.into_any()
                }}
            </div>
            <p class="sentence" data-testid="summary-sentence">{sentence}</p>
            <p class="detail" data-testid="summary-detail">{detail}</p>
            {(!warnings.is_empty()).then(|| view! {
                <ul class="warnings" data-testid="warnings">
                    {warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                </ul>
            })}
        </section>
    }
}

/// A table with CSV and LaTeX export.
#[component]
fn TableView(table: Table, wb: Workbench) -> impl IntoView {
    let slug: String = table
        .title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let (csv, latex) = (table.to_csv(), table.to_latex());
    let (n1, n2) = (slug.clone(), slug.clone());
    view! {
        <div class="table-wrap">
            <table class="data" data-testid="table" data-title=table.title.clone()>
                <caption>{table.title.clone()}</caption>
                <thead><tr>{table.headers.iter().map(|h| view! { <th scope="col">{h.clone()}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {table.rows.iter().map(|row| view! {
                        <tr>{row.iter().map(|c| view! { <td>{c.display()}</td> }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
            <div class="exports">
                <button class="link" data-testid="export-csv" on:click=move |_| { let _ = web::download(&format!("{}-{n1}.csv", wb.file_stem()), "text/csv", &csv); }>"CSV"</button>
                <button class="link" data-testid="export-latex" on:click=move |_| { let _ = web::download(&format!("{}-{n2}.tex", wb.file_stem()), "text/x-tex", &latex); }>"LaTeX"</button>
            </div>
        </div>
    }
}

/// An SVG figure with hover cards (delegated from `data-tip`) and SVG/PNG export.
#[component]
fn Figure(svg: String, name: String, wb: Workbench, testid: &'static str) -> impl IntoView {
    let (s1, s2) = (svg.clone(), svg.clone());
    let (n1, n2) = (name.clone(), name);
    let tip = move |ev: &leptos::ev::MouseEvent| -> Option<String> {
        use wasm_bindgen::JsCast;
        let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
        el.closest("[data-tip]")
            .ok()
            .flatten()?
            .get_attribute("data-tip")
    };
    view! {
        <figure class="figure" data-testid=testid>
            <div class="svg" inner_html=svg
                on:mouseover=move |ev: leptos::ev::MouseEvent| wb.hover.set(tip(&ev).map(|text| Hover { text, x: ev.client_x(), y: ev.client_y() }))
                on:mouseleave=move |_| wb.hover.set(None)></div>
            <figcaption class="exports">
                <button class="link" data-testid="export-svg" on:click=move |_| { let _ = web::download(&format!("{}-{n1}.svg", wb.file_stem()), "image/svg+xml", &s1); }>"SVG"</button>
                <button class="link" data-testid="export-png" on:click=move |_| { let _ = web::download_png(&format!("{}-{n2}.png", wb.file_stem()), &s2); }>"PNG"</button>
            </figcaption>
        </figure>
    }
}

/// A heatmap table: hover cards, click (or Enter) to pick a cell, arrow keys
/// move between cells.
#[component]
fn HeatmapView(
    heatmap: Heatmap,
    testid: &'static str,
    corner: &'static str,
    wb: Workbench,
    on_pick: Callback<(usize, usize)>,
) -> impl IntoView {
    let scale = heatmap.scale;
    let cols = heatmap.cols.clone();
    let notes = heatmap.col_notes.clone();
    let (nr, nc) = (heatmap.rows.len(), cols.len());
    let focus = move |r: usize, c: usize| {
        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            d.query_selector(&format!(
                "[data-testid={testid}] td[data-r=\"{r}\"][data-c=\"{c}\"]"
            ))
            .ok()
            .flatten()
        }) {
            use wasm_bindgen::JsCast;
            if let Ok(h) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = h.focus();
            }
        }
    };
    let body = heatmap
        .rows
        .iter()
        .zip(heatmap.cells)
        .enumerate()
        .map(|(ri, (row, cells))| {
            let row = row.clone();
            let tds = cells
                .into_iter()
                .zip(cols.clone())
                .enumerate()
                .map(|(ci, (cell, col))| {
                    let (d1, d2) = (cell.detail.clone(), cell.detail.clone());
                    let value_attr = cell.value.map(|v| v.to_string()).unwrap_or_default();
                    let label = format!("{}, {}", row, cell.detail.replace('\n', ", "));
                    view! {
                        <td class="cell" data-row=row.clone() data-col=col data-value=value_attr data-r=ri data-c=ci
                            tabindex=if ri == 0 && ci == 0 { "0" } else { "-1" } aria-label=label
                            style=format!("background: {}; color: {}", cell.fill, cell.ink)
                            on:mouseenter=move |ev: leptos::ev::MouseEvent| wb.hover.set(Some(Hover { text: d1.clone(), x: ev.client_x(), y: ev.client_y() }))
                            on:mousemove=move |ev: leptos::ev::MouseEvent| wb.hover.update(|h| if let Some(h) = h { h.x = ev.client_x(); h.y = ev.client_y(); })
                            on:mouseleave=move |_| wb.hover.set(None)
                            on:focus=move |ev: leptos::ev::FocusEvent| {
                                use wasm_bindgen::JsCast;
                                let rect = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.get_bounding_client_rect());
                                if let Some(rect) = rect { wb.hover.set(Some(Hover { text: d2.clone(), x: rect.right() as i32, y: rect.top() as i32 })); }
                            }
                            on:blur=move |_| wb.hover.set(None)
                            on:click=move |_| on_pick.run((ri, ci))
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                let (r, c) = match ev.key().as_str() {
                                    "ArrowUp" => (ri.saturating_sub(1), ci),
                                    "ArrowDown" => ((ri + 1).min(nr - 1), ci),
                                    "ArrowLeft" => (ri, ci.saturating_sub(1)),
                                    "ArrowRight" => (ri, (ci + 1).min(nc - 1)),
                                    "Enter" | " " => { ev.prevent_default(); on_pick.run((ri, ci)); return; }
                                    _ => return,
                                };
                                ev.prevent_default();
                                focus(r, c);
                            }
                        >{cell.label}</td>
                    }
                })
                .collect_view();
            view! { <tr><th scope="row">{row}</th>{tds}</tr> }
        })
        .collect_view();
    view! {
        <div class="heatmap-wrap">
            <table class="heatmap" data-testid=testid>
                <thead>
                    <tr>
                        <th class="corner">{corner}</th>
                        {cols.iter().zip(notes).map(|(c, n)| view! {
                            <th scope="col">{c.clone()}{(!n.is_empty()).then(|| view! { <div class="note">{n}</div> })}</th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
            <div class="legend" aria-label="colour scale">
                <span>{fmt(Some(-scale), 1)}</span>
                <span class="bar"></span>
                <span>{fmt(Some(scale), 1)}</span>
                <span class="hint">"Click a cell (or focus it and press Enter) for its scatter; arrow keys move between cells."</span>
            </div>
        </div>
    }
}

/// A clickable list of ids rendered as a table (rows open an item).
#[component]
fn ClickTable(
    table: Table,
    ids: Vec<String>,
    testid: &'static str,
    on_open: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="table-wrap"><table class="data trajectories" data-testid=testid data-title=table.title.clone()>
            <caption>{table.title.clone()}</caption>
            <thead><tr>{table.headers.iter().map(|h| view! { <th scope="col">{h.clone()}</th> }).collect_view()}</tr></thead>
            <tbody>
                {table.rows.into_iter().zip(ids).map(|(cells, id)| {
                    let id2 = id.clone();
                    view! {
                        <tr tabindex="0" data-id=id.clone() on:click=move |_| on_open.run(id.clone())
                            on:keydown=move |ev| row_keys(&ev, || on_open.run(id2.clone()))>
                            {cells.into_iter().map(|c| view! { <td>{c.display()}</td> }).collect_view()}
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table></div>
    }
}

/// Keys on a row of a clickable list: Enter or space opens it (`open`),
/// ↓/j and ↑/k move the focus to the next or previous row.
fn row_keys(ev: &leptos::ev::KeyboardEvent, open: impl FnOnce()) {
    let row = event_target::<web_sys::HtmlElement>(ev);
    let next = match ev.key().as_str() {
        "Enter" | " " => {
            ev.prevent_default();
            open();
            None
        }
        "ArrowDown" | "j" => row.next_element_sibling(),
        "ArrowUp" | "k" => row.previous_element_sibling(),
        _ => None,
    };
    if let Some(el) =
        next.and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
    {
        ev.prevent_default();
        let _ = el.focus();
    }
}

/// Sub-view tabs of an area.
#[component]
fn SubNav(
    views: &'static [(&'static str, &'static str, &'static str)],
    current: RwSignal<String>,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <nav class="views" aria-label="views" role="tablist" data-testid=testid>
            {views.iter().map(|(id, label, _)| {
                let (a, b, c) = (id.to_string(), id.to_string(), id.to_string());
                view! {
                    <button role="tab" data-view=a aria-selected=move || (current.get() == b).to_string()
                        class:on=move || current.get() == c on:click=move |_| current.set(id.to_string())>{*label}</button>
                }
            }).collect_view()}
        </nav>
    }
}

#[component]
fn EvidenceArea(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        if wb.ev.with(|e| e.is_none()) && wb.ev_job.get_value().is_none() {
            wb.run_evidence();
        }
    });
    let pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        if let Some(list) = input.files() {
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            let names = files.iter().map(|f| f.name()).collect();
            wb.ev_files.set_value(files);
            wb.ev_source.set_value(Some(Source::Attached { names }));
            wb.ev.set(None);
            wb.run_evidence();
        }
    };
    view! {
        <section class="summary" data-testid="evidence-source">
            {move || {
                let worked = wb.ev_source.with_value(|s| s.is_none());
                wb.ev.track();
                if worked {
                    view! { <span class="badge synthetic" data-testid="worked-badge">"worked case set"</span>
                        <span class="origin">"42 cases and scripted trajectories written for gapscope (not the paper's benchmark, not language models); "<code>"gapscope evidence worked"</code>" writes them"</span> }.into_any()
                } else {
                    view! { <span class="file">{wb.ev_source.with_value(|s| s.as_ref().map(source_label).unwrap_or_default())}</span> }.into_any()
                }
            }}
            <p class="detail">"Open your own: "<label class="pick">"a case file and its trajectories (JSONL)"<input type="file" multiple data-testid="evidence-input" on:change=pick /></label>
                " · "<button class="link" data-testid="evidence-worked" on:click=move |_| { wb.ev_source.set_value(None); wb.ev.set(None); wb.run_evidence(); }>"the worked set"</button></p>
        </section>
        <SubNav views=&tv_evidence::EVIDENCE_VIEWS current=wb.ev_view testid="evidence-nav" />
        <section class="panel" data-testid="view" data-view=move || wb.ev_view.get()>
            {move || {
                let id = wb.ev_view.get();
                let (_, label, explain) = tv_evidence::EVIDENCE_VIEWS.iter().find(|(v, _, _)| *v == id).copied().unwrap_or(tv_evidence::EVIDENCE_VIEWS[0]);
                view! { <h2>{label}</h2> <p class="explain">{explain}</p> <EvidenceView wb=wb id=id /> }
            }}
        </section>
    }
}

#[component]
fn EvidenceView(wb: Workbench, id: String) -> impl IntoView {
    move || {
        let r = match wb.ev.get() {
            None => return view! { <p class="explain">"Scoring in a worker…"</p> }.into_any(),
            Some(Err(e)) => return view! { <p class="invalid" role="alert" data-testid="evidence-error">{e}</p> }.into_any(),
            Some(Ok(r)) => r,
        };
        match id.as_str() {
            "ecs" => view! { <TableView table=tv_evidence::ecs_protocol_table(&r) wb=wb /> <TableView table=tv_evidence::ecs_domain_table(&r) wb=wb /> }.into_any(),
            "coverage" => view! { <TableView table=tv_evidence::coverage_table(&r) wb=wb /> }.into_any(),
            "failures" => {
                let svg = tv_evidence::failure_chart(&r);
                let click = move |ev: leptos::ev::MouseEvent| {
                    use wasm_bindgen::JsCast;
                    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                    let Some(bar) = el.closest("[data-failure]").ok().flatten() else { return };
                    let attr = |k: &str| bar.get_attribute(k);
                    wb.ev_filter.set(tv_evidence::EpisodeFilter { config: attr("data-config"), protocol: attr("data-protocol"), failure: attr("data-failure") });
                    wb.ev_view.set("episodes".into());
                };
                view! {
                    <p class="detail">"Click a segment to list its episodes."</p>
                    <div on:click=click data-testid="failure-chart-wrap"><Figure svg=svg name="failure-types".into() wb=wb testid="failure-chart" /></div>
                    <details class="alt"><summary>"The bars as a table"</summary><TableView table=tv_evidence::failure_table(&r) wb=wb /></details>
                }.into_any()
            }
            "effort" => view! {
                <div class="figures">{tv_evidence::effort_charts(&r).into_iter().map(|(p, svg)| view! { <Figure svg=svg name=format!("effort-{}", p.name()) wb=wb testid="effort-chart" /> }).collect_view()}</div>
                <TableView table=tv_evidence::effort_table(&r) wb=wb />
            }.into_any(),
            "paired" => view! {
                <TableView table=tv_evidence::paired_table(&r) wb=wb />
                {(0..r.paired.len()).filter_map(|k| tv_evidence::paired_cases_table(&r, k)).map(|t| view! { <details class="alt"><summary>{t.title.clone()}</summary><TableView table=t wb=wb /></details> }).collect_view()}
            }.into_any(),
            "episodes" => {
                let f = wb.ev_filter.get();
                let (ids, table) = tv_evidence::episode_list(&r, &f);
                let filtered = f != tv_evidence::EpisodeFilter::default();
                view! {
                    {filtered.then(|| view! { <p><button class="link" data-testid="clear-episode-filter" on:click=move |_| wb.ev_filter.set(Default::default())>"show every episode"</button></p> })}
                    <ClickTable table=table ids=ids testid="evidence-episodes" on_open=Callback::new(move |id: String| wb.open_evidence_episode(id)) />
                }.into_any()
            }
            "episode" => view! { <EvidenceReplay wb=wb report=r /> }.into_any(),
            _ => view! { <p>"Unknown view."</p> }.into_any(),
        }
    }
}

#[component]
fn EvidenceReplay(wb: Workbench, report: gapscope_core::evidence::EvidenceReport) -> impl IntoView {
    move || {
        let Some(id) = wb.ev_episode.get() else {
            return view! { <p class="explain">"Open an episode from the Episodes list (or a failure bar)."</p> }.into_any();
        };
        let messages = wb.ev_messages.get();
        let msgs = match &messages {
            Some(Ok(m)) => Some(m.as_slice()),
            _ => None,
        };
        let Some(v) = tv_evidence::episode_view(&report, &id, msgs) else {
            return view! { <p class="invalid">{format!("no episode `{id}` in the report")}</p> }
                .into_any();
        };
        view! {
            <article class="viewer" data-testid="evidence-replay" data-id=v.trajectory_id.clone() data-outcome=v.outcome>
                <h3>{format!("{} — case {} ({}, {}), {} repetition {}", v.trajectory_id, v.case_id, v.domain, v.protocol, v.config, v.repetition)}</h3>
                <p class="sentence" data-testid="evidence-verdict">{v.verdict.clone()}</p>
                <p class="detail">{v.instruction.clone()}</p>
                <ul class="requirements" data-testid="requirements">
                    {v.requirements.iter().map(|q| view! {
                        <li class=format!("req {}", q.tone.class()) data-id=q.id.clone()>{q.summary()}</li>
                    }).collect_view()}
                </ul>
                <ol class="messages" data-testid="replay-steps">
                    {v.steps.into_iter().map(|s| view! {
                        <li class=format!("msg role-{}", s.role) class:tool-error=s.failure_here data-message=s.message.to_string()>
                            <span class="role">{format!("{} · message {}", s.role, s.message)}</span>
                            {s.text.map(|t| view! { <div class="text">{t}</div> })}
                            {s.calls.into_iter().map(|c| view! { <details class="tool-call"><summary><code>{format!("{}({})", c.tool, c.args)}</code>{format!(" [{}]", c.class)}</summary><pre>{format!("call {} · status {}", c.call_id, c.status.unwrap_or_else(|| "—".into()))}</pre></details> }).collect_view()}
                            {s.results.into_iter().map(|r| view! { <details class="tool-result"><summary>{format!("result of {} ({})", r.tool, r.status.unwrap_or_else(|| "—".into()))}</summary><pre>{r.content}</pre></details> }).collect_view()}
                            {(!s.events.is_empty()).then(|| view! {
                                <ul class="ledger" data-testid="ledger-events">{s.events.iter().map(|e| view! { <li class=format!("event {}", e.tone().class())>{e.summary()}</li> }).collect_view()}</ul>
                            })}
                        </li>
                    }).collect_view()}
                </ol>
            </article>
        }.into_any()
    }
}

#[component]
fn RuntimeArea(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        if wb.rt.with(|e| e.is_none()) && wb.rt_job.get_value().is_none() {
            wb.run_runtime();
        }
    });
    let pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        if let Some(file) = input.files().and_then(|l| l.get(0)) {
            wb.rt_source.set_value(Some(Source::Attached {
                names: vec![file.name()],
            }));
            wb.rt_files.set_value(vec![file]);
            wb.rt.set(None);
            wb.run_runtime();
        }
    };
    let num = move |field: &'static str| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            wb.rt_params.update(|p| match field {
                "items" => {
                    if let Ok(x) = v.parse() {
                        p.items = x
                    }
                }
                "capacity" => {
                    if let Ok(x) = v.parse() {
                        p.capacity = x
                    }
                }
                "budget" => {
                    if let Ok(x) = v.parse() {
                        p.budget = x
                    }
                }
                "instances" => {
                    if let Ok(x) = v.parse() {
                        p.instances = x
                    }
                }
                "seed" => {
                    if let Ok(x) = v.parse() {
                        p.seed = x
                    }
                }
                "caps" => {
                    if let Ok(c) = v
                        .split(',')
                        .map(|c| c.trim().parse::<u32>())
                        .collect::<Result<Vec<_>, _>>()
                    {
                        p.caps = c
                    }
                }
                _ => {}
            });
        }
    };
    let p0 = wb.rt_params.get_untracked();
    let caps0: String = p0
        .caps
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",");
    view! {
        <section class="summary" data-testid="runtime-source">
            {move || { wb.rt.track(); if wb.rt_source.with_value(|s| s.is_none()) {
                view! { <span class="badge synthetic" data-testid="simulated-badge">"teaching simulator"</span>
                    <span class="origin">"Opaque Knapsack with scripted policies, not language models: one keeps its record in variables, one prints and rebuilds it each turn"</span> }.into_any()
            } else {
                view! { <span class="file">{wb.rt_source.with_value(|s| s.as_ref().map(source_label).unwrap_or_default())}</span> }.into_any()
            } }}
            <div class="settings" data-testid="simulator">
                <label>"items " <input type="number" min="3" data-testid="sim-items" value=p0.items.to_string() on:change=num("items") /></label>
                <label>"capacity " <input type="number" min="1" data-testid="sim-capacity" value=p0.capacity.to_string() on:change=num("capacity") /></label>
                <label>"budget " <input type="number" min="1" data-testid="sim-budget" value=p0.budget.to_string() on:change=num("budget") /></label>
                <label>"caps " <input type="text" size="10" data-testid="sim-caps" value=caps0 on:change=num("caps") /></label>
                <label>"instances " <input type="number" min="1" data-testid="sim-instances" value=p0.instances.to_string() on:change=num("instances") /></label>
                <label>"seed " <input type="number" min="0" data-testid="sim-seed" value=p0.seed.to_string() on:change=num("seed") /></label>
                <button data-testid="simulate" on:click=move |_| { wb.rt_source.set_value(None); wb.rt.set(None); wb.run_runtime(); }>"Simulate"</button>
                <label class="pick">"or open an episode log (JSONL)"<input type="file" data-testid="runtime-input" on:change=pick /></label>
                {move || wb.rt.with(|r| matches!(r, Some(Ok((_, Some(_)))))).then(|| view! {
                    <button class="link" data-testid="export-episodes" on:click=move |_| {
                        if let Some(Ok((_, Some(log)))) = wb.rt.get_untracked() { let _ = web::download("gapscope-simulated-episodes.jsonl", "application/x-ndjson", &log); }
                    }>"download the simulated log"</button>
                })}
            </div>
        </section>
        <SubNav views=&tv_runtime::RUNTIME_VIEWS current=wb.rt_view testid="runtime-nav" />
        <section class="panel" data-testid="view" data-view=move || wb.rt_view.get()>
            {move || {
                let id = wb.rt_view.get();
                let (_, label, explain) = tv_runtime::RUNTIME_VIEWS.iter().find(|(v, _, _)| *v == id).copied().unwrap_or(tv_runtime::RUNTIME_VIEWS[0]);
                view! { <h2>{label}</h2> <p class="explain">{explain}</p> <RuntimeView wb=wb id=id /> }
            }}
        </section>
    }
}

#[component]
fn RuntimeView(wb: Workbench, id: String) -> impl IntoView {
    move || {
        let r = match wb.rt.get() {
            None => return view! { <p class="explain">"Simulating and analysing in a worker…"</p> }.into_any(),
            Some(Err(e)) => return view! { <p class="invalid" role="alert" data-testid="runtime-error">{e}</p> }.into_any(),
            Some(Ok((r, _))) => r,
        };
        let Some(slice) = r
            .slices
            .get(wb.rt_slice.get().min(r.slices.len().saturating_sub(1)))
            .cloned()
        else {
            return view! { <p class="invalid">"No slice in this log."</p> }.into_any();
        };
        let slices = (r.slices.len() > 1).then(|| {
            let names: Vec<String> = r.slices.iter().map(|s| s.name.clone()).collect();
            view! { <label>"slice " <select data-testid="runtime-slice" on:change=move |ev| wb.rt_slice.set(event_target_value(&ev).parse().unwrap_or(0))>
                {names.into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string() selected=move || wb.rt_slice.get() == i>{n}</option> }).collect_view()}
            </select></label> }
        });
        let body = match id.as_str() {
            "quality" => view! {
                <p class="detail" data-testid="runtime-summary">{r.summary.clone()}</p>
                {(0..slice.tables.len()).filter_map(|k| tv_runtime::cap_table(&slice, k)).map(|t| view! { <TableView table=t wb=wb /> }).collect_view()}
                {tv_runtime::comparison_table(&slice).map(|t| view! { <TableView table=t wb=wb /> })}
            }.into_any(),
            "sweep" => view! {
                <Figure svg=tv_runtime::sweep_chart(&slice) name="cap-sweep".into() wb=wb testid="sweep-chart" />
                <TableView table=tv_runtime::sweep_table(&slice) wb=wb />
            }.into_any(),
            "trace" => view! { <TableView table=tv_runtime::trace_table(&slice) wb=wb /> <TableView table=tv_runtime::exposure_table(&slice) wb=wb /> }.into_any(),
            "verification" => view! {
                <p class="sentence" data-testid="verification-summary">{tv_runtime::verification_summary(&r)}</p>
                <TableView table=tv_runtime::verification_table(&r) wb=wb />
                <TableView table=tv_runtime::instance_table(&r) wb=wb />
            }.into_any(),
            "episodes" => {
                let (ids, table) = tv_runtime::episode_list(&r, &wb.rt_filter.get());
                view! { <ClickTable table=table ids=ids testid="runtime-episodes" on_open=Callback::new(move |id: String| { wb.rt_episode.set(Some(id)); wb.rt_turn.set(0); wb.rt_view.set("stepper".into()); }) /> }.into_any()
            }
            "stepper" => match wb.rt_episode.get().and_then(|id| tv_runtime::episode_view(&r, &id)) {
                None => view! { <p class="explain">"Open an episode from the Episodes list."</p> }.into_any(),
                Some(v) => {
                    let n = v.turns.len();
                    let k = wb.rt_turn.get().min(n.saturating_sub(1));
                    let turn = v.turns.get(k).cloned();
                    let table = tv_runtime::turns_table(&v);
                    view! {
                        <article class="viewer" data-testid="runtime-stepper" data-id=v.episode_id.clone()>
                            <h3>{format!("{} — {}, cap {}, score {:.3}{}, {}", v.episode_id, v.condition, v.cap, v.score, v.verified.map(|x| format!(" (verified {x:.3})")).unwrap_or_default(), v.termination)}</h3>
                            <p class="stepper-nav">
                                <button data-testid="turn-prev" disabled={k == 0} on:click=move |_| wb.rt_turn.update(|t| *t = t.saturating_sub(1))>"← previous turn"</button>
                                <span data-testid="turn-index">{format!(" turn {} of {} ", k + 1, n)}</span>
                                <button data-testid="turn-next" disabled={k + 1 >= n} on:click=move |_| wb.rt_turn.update(|t| *t += 1)>"next turn →"</button>
                            </p>
                            {turn.map(|t| view! {
                                <div class="turn" class:tool-error=t.name_error data-testid="turn" data-cap-hit=t.cap_hit.to_string() data-name-error=t.name_error.to_string()>
                                    <p class="sentence" data-testid="turn-note">{t.note.clone()}</p>
                                    {t.reset_before.then(|| view! { <p class="detail">"The runtime cleared the bindings before this turn (stateless deployment)."</p> })}
                                    <p class="detail">{format!("record: {} → {} entries", t.record_before.map_or("—".into(), |x| x.to_string()), t.record_after.map_or("—".into(), |x| x.to_string()))}</p>
                                    {t.code.map(|c| view! { <details class="tool-call"><summary>"code"</summary><pre>{c}</pre></details> })}
                                    <ol class="calls">{t.calls.into_iter().map(|c| view! {
                                        <li class:cut=c.cut class:tool-error=c.error.is_some()>{format!("{}{}({}){}", if c.cut { "✂ cut by the cap: " } else { "" }, c.tool, c.args, c.error.as_ref().map(|e| format!(" → error: {e}")).unwrap_or_default())}</li>
                                    }).collect_view()}</ol>
                                    {t.error.map(|e| view! { <pre class="invalid">{e}</pre> })}
                                </div>
                            })}
                            <details class="alt"><summary>"Every turn as a table"</summary><TableView table=table wb=wb /></details>
                        </article>
                    }.into_any()
                }
            },
            _ => view! { <p>"Unknown view."</p> }.into_any(),
        };
        view! { {slices} {body} }.into_any()
    }
}

#[component]
fn TeachingView(wb: Workbench) -> impl IntoView {
    let recovery = RwSignal::new(None::<Result<Vec<gapscope_worker::RecoveryPoint>, String>>);
    let progress = RwSignal::new(None::<Progress>);
    let gap = RwSignal::new("macro".to_string());
    let planted = tv::read_planted(gapscope_worker::CORPUS_PLANTED);
    let run = move |_| {
        recovery.set(None);
        progress.set(Some(Progress {
            label: "starting".into(),
            step: 0,
            of: 1,
        }));
        wb.pool.with_value(|p| {
            p.submit(
                &Job::Recovery { seeds: 5 },
                Vec::new(),
                move |pr| progress.set(Some(pr)),
                move |answer| {
                    progress.set(None);
                    recovery.set(Some(match answer {
                        Answer::Recovery(r) => *r,
                        Answer::Failed(e) => Err(e),
                        _ => Err(UNEXPECTED.into()),
                    }));
                    wb.refresh_pool();
                },
            )
        });
        wb.refresh_pool();
    };
    move || {
        let corpus = wb
            .analysis
            .with(|a| a.as_ref().is_some_and(|a| a.source == CORPUS_LABEL));
        if !corpus {
            return view! { <NeedTrajectories wb=wb what="Planted gaps exist only for the synthetic corpus." /> }.into_any();
        }
        let Some(a) = wb.analysis.get() else {
            return view! { <p></p> }.into_any();
        };
        let names: Vec<String> = a
            .report
            .dimensions
            .operations
            .iter()
            .cloned()
            .chain(["macro".to_string()])
            .collect();
        let pv = tv::planted_vs_recovered(&a.report, &planted, &gap.get());
        view! {
            <label>"gap " <select data-testid="teaching-gap" on:change=move |ev| gap.set(event_target_value(&ev))>
                {names.into_iter().map(|n| { let (n2, n3) = (n.clone(), n.clone()); view! { <option value=n3 selected=move || gap.get() == n2>{n}</option> } }).collect_view()}
            </select></label>
            {pv.map(|(t, svg, _)| view! {
                <Figure svg=svg name=format!("planted-{}", gap.get_untracked()) wb=wb testid="planted-scatter" />
                <details class="alt"><summary>"As a table"</summary><TableView table=t wb=wb /></details>
            })}
            <p class="detail">"How does recovery grow with the number of models? "
                <button data-testid="run-recovery" on:click=run>"Generate corpora of 15, 50 and 200 models (5 seeds each) and measure"</button></p>
            {move || progress.get().map(|p| view! { <p class="muted" data-testid="recovery-progress">{format!("{} ({} of {})", p.label, p.step, p.of)}</p> })}
            {move || recovery.get().map(|r| match r {
                Err(e) => view! { <p class="invalid" role="alert">{e}</p> }.into_any(),
                Ok(points) => view! {
                    <TableView table=Table {
                        title: "Recovery of planted gaps (mean Spearman over seeds)".into(),
                        headers: ["Models", "Families", "Seeds", "Macro gap ρ", "Per-operation ρ (mean)"].map(String::from).to_vec(),
                        rows: points.iter().map(|p| vec![
                            gapscope_view::table::Cell::num(Some(p.models as f64), 0),
                            gapscope_view::table::Cell::num(Some(p.families as f64), 0),
                            gapscope_view::table::Cell::num(Some(p.seeds as f64), 0),
                            gapscope_view::table::Cell::num(p.macro_rho, 2),
                            gapscope_view::table::Cell::num(p.operation_rho, 2),
                        ]).collect(),
                    } wb=wb />
                }.into_any(),
            })}
        }.into_any()
    }
}
