//! The wire types: what the page sends ([`Envelope`] with a [`Job`]) and what
//! the worker posts back ([`FromWorker`]: progress, then one [`Answer`]).
//! Plain serde data exchanged as JSON text; the page and the browser tests
//! depend on that text, so a change here is a change of the protocol.
//! [`ask`] ties each job to the type of its answer.

pub mod ask;
pub mod chunks;

use gapscope_compare::{CompareReport, RunOptions};
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::join::JoinReport;
use gapscope_data::trajectory::{Message, Trajectory};
use gapscope_data::RoleOverrides;
use gapscope_evidence::EvidenceReport;
use gapscope_gaps::analysis::MacroDefinition;
use gapscope_gaps::manifest::{Input, Manifest};
use gapscope_gaps::overview::Overview;
use gapscope_gaps::stability::{StabilityReport, StabilitySettings};
use gapscope_gaps::{Report, Settings};
use gapscope_runtime::RuntimeReport;
use gapscope_stats::Alpha;
use gapscope_synth::runtime_sim::SimParams;
use gapscope_view::conversation::ConversationPage;
use gapscope_view::experiments::ExperimentsPage;
use gapscope_view::inference::InferencePage;
use serde::{Deserialize, Serialize};

/// What to analyse.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Source {
    /// The embedded synthetic example.
    Example,
    /// A file the user dropped or picked: its name and its text.
    File { name: String, text: String },
    /// Several profile files to join on `model` (name, text each).
    Files { files: Vec<(String, String)> },
    /// Files whose bytes travel beside the job (the browser posts the `File`
    /// objects and the worker reads them, in chunks, itself): any format,
    /// binary ones (Inspect `.eval`) included.
    Attached {
        names: Vec<String>,
        /// Folders among the files (a dropped or picked folder): a file
        /// whose name starts with `FOLDER/` is read as part of that folder
        /// ([`gapscope_data::ingest::InputFile::Folder`]: its directory
        /// formats first, its other files by content), not on its own.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        folders: Vec<String>,
    },
    /// The embedded synthetic trajectory corpus ([`crate::CORPUS_LABEL`]).
    Corpus,
}

impl Source {
    /// Attached files, none of them in a folder.
    pub fn attached(names: Vec<String>) -> Source {
        Source::Attached {
            names,
            folders: Vec::new(),
        }
    }

    /// The folder an attached file's name puts it in, and its path there.
    pub fn folder_of<'a>(folders: &'a [String], name: &'a str) -> Option<(&'a str, &'a str)> {
        folders.iter().find_map(|f| {
            name.strip_prefix(f.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .map(|rel| (f.as_str(), rel))
        })
    }
}

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub source: Source,
    /// Ridge penalty, validated by the worker.
    pub alpha: f64,
    /// Bootstrap draws (0: no intervals).
    #[serde(default = "default_bootstrap")]
    pub bootstrap: usize,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub roles: RoleOverrides,
    /// Association sensitivity for this pair, when asked for.
    #[serde(default)]
    pub pair: Option<Pair>,
    /// The macro operation score: mean (default) or pooled (from labels).
    #[serde(default)]
    pub macro_definition: MacroDefinition,
    /// Renames and the task subset for trajectory files.
    #[serde(default)]
    pub trajectories: TrajectoryOptions,
    /// Files among the source that the page derived (the proxy labels of
    /// its τ²-bench files): the manifest's command writes them first.
    #[serde(default)]
    pub derived: Vec<String>,
}

impl Request {
    /// A request for `source` at the defaults a request without those
    /// fields deserializes to (α = [`Alpha::DEFAULT`], the default bootstrap
    /// draws, seed 0, the file's roles, no pair, the mean macro, default
    /// trajectory options, nothing derived); set the rest with
    /// `Request { bootstrap: 0, ..Request::new(source) }`.
    pub fn new(source: Source) -> Self {
        Request {
            source,
            alpha: Alpha::DEFAULT.get(),
            bootstrap: default_bootstrap(),
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::default(),
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        }
    }
}

/// A (foundational, operation) pair for association sensitivity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub foundational: String,
    pub operation: String,
    /// A family to report removed on its own line.
    pub provider: Option<String>,
}

fn default_bootstrap() -> usize {
    Settings::default().bootstrap
}

/// A finished analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The file name, or [`crate::EXAMPLE_LABEL`].
    pub source: String,
    /// Whether this is the synthetic example (the page labels it so).
    pub synthetic: bool,
    pub report: Report,
    /// Whether the source was a gapscope JSON report, recomputed from its input.
    pub imported: bool,
    /// A re-imported report compared with its recomputation, number by number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reimport: Option<gapscope_gaps::reimport::Comparison>,
    /// When several files were joined: what the join did.
    #[serde(default)]
    pub join: Option<JoinReport>,
    /// Inputs (SHA-256), settings, seed and version: enough to reproduce it.
    pub manifest: Manifest,
}

/// The worker's answer: an analysis, or a message that says where and why.
pub type Response = Result<Analysis, String>;

/// The trajectory overview of a source's files (`None`: it has no
/// trajectory files), or what stopped it.
pub type OverviewResult = Result<Option<Overview>, String>;

/// How far a job has come: step `step` of `of` (1-based), doing `label`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub label: String,
    pub step: u32,
    pub of: u32,
}

/// A unit of work for one worker of the pool. Each kind of analysis is its
/// own job so that independent analyses run side by side in the pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// The realization-gap analysis of profiles (or trajectories + profiles).
    Analyze(Request),
    /// A newly opened source: the analysis and the trajectory overview, from
    /// one read of the files ([`crate::import`]).
    Import(Request),
    /// The trajectory files of a source: summary, profile, one row each.
    Overview {
        source: Source,
        options: TrajectoryOptions,
    },
    /// One trajectory of a source, whole.
    Trajectory {
        source: Source,
        options: TrajectoryOptions,
        id: String,
    },
    /// One trajectory of a source as the viewer shows it
    /// (`gapscope_view::conversation::page`: its HTML written here, the
    /// Markdown parser linked only into the files worker), with the labels
    /// of `operations`.
    Conversation {
        source: Source,
        options: TrajectoryOptions,
        id: String,
        operations: Vec<String>,
    },
    /// How sure each number of the analysis of `request` is
    /// (`gapscope_gaps::inference::infer`, as `gapscope report --json
    /// --inference`): `permutations` per single-target permutation test,
    /// `delta_permutations` for ΔQ²(F+O − F); the answer is written as the
    /// page shows it (`gapscope_view::inference::page`).
    Inference {
        request: Request,
        permutations: usize,
        delta_permutations: usize,
    },
    /// Cross-task stability of the gaps (profile + trajectory files).
    Stability {
        source: Source,
        options: TrajectoryOptions,
        settings: StabilitySettings,
    },
    /// The experiments beside the corpus (interventions and continuations:
    /// `gapscope interventions` / `continuations`) of the source's
    /// trajectory files, or of the synthetic experiments when `source` is
    /// `None` (the answer then carries their JSONL for the page to open).
    Experiments {
        source: Option<Source>,
        options: TrajectoryOptions,
        bootstrap: usize,
        seed: u64,
    },
    /// Run comparisons over the trajectory files of a source
    /// (`gapscope compare`: runs from the trajectories, paired statistics
    /// over them).
    Compare {
        source: Source,
        options: TrajectoryOptions,
        runs: RunOptions,
        settings: gapscope_stats::paired::Settings,
    },
    /// Evidence to action: a case file and its trajectories (in either
    /// order; the trajectories are the file whose lines carry `messages`),
    /// or the worked set when `source` is `None`.
    Evidence {
        source: Option<Source>,
        bootstrap: usize,
        seed: u64,
        /// The intervention analyses' rows (§8) as the page's four fields
        /// in the CLI's syntax (`Rows::parse`; empty: the addendum's
        /// defaults), parsed in the worker so the page links no parser.
        #[serde(default)]
        rows: [String; 4],
    },
    /// The messages of one evidence trajectory, for the replay.
    EvidenceMessages { source: Option<Source>, id: String },
    /// Teaching: how well planted gaps are recovered as the number of
    /// models grows (15 in 8 families, 50 in 10, 200 in 40), mean over seeds.
    Recovery {
        seeds: u64,
        /// The ridge penalty of every fit (the page's α).
        alpha: f64,
    },
    /// Proxy operation labels of the source's τ²-bench results files (the
    /// other files are left out), as `gapscope evidence tau2-labels` gives them.
    ProxyLabels { source: Source },
    /// Name, size and SHA-256 of each attached file (the manifest of an
    /// analysis whose files were read without hashing them).
    Digests { source: Source },
    /// Runtime contracts: analyse an episode log (`source`), or simulate one
    /// with `simulate` (scripted policies) and analyse it.
    Runtime {
        source: Option<Source>,
        simulate: Option<SimParams>,
        /// Simulate the addendum's teaching example instead (carryover
        /// conditions, two horizons, two seeds, control families, teacher
        /// traces; `AddendumParams::default()` with `simulate`'s seed).
        #[serde(default)]
        addendum: bool,
        bootstrap: usize,
        seed: u64,
    },
}

/// The part of gapscope a job belongs to: the jobs of one part run in
/// [`crate::jobs`]' module of that part (`gaps`, `evidence`, `runtime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Realization gaps (profiles, trajectories, stability, proxy labels,
    /// the manifest's digests, teaching).
    Gaps,
    /// Evidence to action.
    Evidence,
    /// Runtime contracts.
    Runtime,
}

impl Part {
    /// How the part is named in messages.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Part::Gaps => "realization-gaps",
            Part::Evidence => "evidence-to-action",
            Part::Runtime => "runtime-contracts",
        }
    }
}

impl Job {
    /// The job's kind: its variant's name, as in its JSON text
    /// ([`crate::job_kind`]).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Job::Analyze(_) => "Analyze",
            Job::Import(_) => "Import",
            Job::Overview { .. } => "Overview",
            Job::Trajectory { .. } => "Trajectory",
            Job::Conversation { .. } => "Conversation",
            Job::Inference { .. } => "Inference",
            Job::Stability { .. } => "Stability",
            Job::Experiments { .. } => "Experiments",
            Job::Compare { .. } => "Compare",
            Job::Evidence { .. } => "Evidence",
            Job::EvidenceMessages { .. } => "EvidenceMessages",
            Job::Recovery { .. } => "Recovery",
            Job::ProxyLabels { .. } => "ProxyLabels",
            Job::Digests { .. } => "Digests",
            Job::Runtime { .. } => "Runtime",
        }
    }

    /// Whether the job reads files the user gave (any source but the
    /// embedded example and corpus): the page runs those realization-gap
    /// jobs in the worker that has every reader (`worker_files`), so that
    /// the first load's worker links none beyond the core's.
    #[must_use]
    pub fn reads_user_files(&self) -> bool {
        let user = |s: &Source| !matches!(s, Source::Example | Source::Corpus);
        match self {
            Job::Analyze(r) | Job::Import(r) | Job::Inference { request: r, .. } => user(&r.source),
            Job::Overview { source, .. }
            | Job::Trajectory { source, .. }
            | Job::Conversation { source, .. }
            | Job::Stability { source, .. }
            | Job::Compare { source, .. }
            | Job::ProxyLabels { source }
            | Job::Digests { source } => user(source),
            Job::EvidenceMessages { source, .. } | Job::Experiments { source, .. } => {
                source.as_ref().is_some_and(user)
            }
            Job::Recovery { .. } | Job::Evidence { .. } | Job::Runtime { .. } => false,
        }
    }

    /// Whether the page runs the job in the worker with every reader
    /// (`worker_files`): a job on the user's files, one that needs
    /// τ²-bench files (proxy labels), one that writes the viewer's page
    /// (the Markdown parser), the teaching view's recovery experiment (the
    /// corpus generator), or cross-task stability and run comparisons
    /// (their splits, runs and paired statistics: ~62 KB of the first
    /// load's worker, gzipped), or the inference (permutation tests, gap
    /// intervals): their code is linked into that worker only, not into
    /// the first load's.
    #[must_use]
    pub fn in_files_worker(&self) -> bool {
        self.reads_user_files()
            || matches!(
                self,
                Job::ProxyLabels { .. }
                    | Job::Conversation { .. }
                    | Job::Recovery { .. }
                    | Job::Stability { .. }
                    | Job::Experiments { .. }
                    | Job::Compare { .. }
                    | Job::Inference { .. }
            )
    }

    /// The part whose jobs module runs it.
    #[must_use]
    pub fn part(&self) -> Part {
        match self {
            Job::Analyze(_)
            | Job::Import(_)
            | Job::Overview { .. }
            | Job::Trajectory { .. }
            | Job::Conversation { .. }
            | Job::Stability { .. }
            | Job::Experiments { .. }
            | Job::Inference { .. }
            | Job::Compare { .. }
            | Job::Recovery { .. }
            | Job::ProxyLabels { .. }
            | Job::Digests { .. } => Part::Gaps,
            Job::Evidence { .. } | Job::EvidenceMessages { .. } => Part::Evidence,
            Job::Runtime { .. } => Part::Runtime,
        }
    }
}

/// A job's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    Analyze(Box<Response>),
    /// The analysis and the overview of an [`Job::Import`].
    Import {
        analysis: Box<Response>,
        overview: Box<OverviewResult>,
    },
    Overview(Box<OverviewResult>),
    Trajectory(Box<Result<Option<Trajectory>, String>>),
    Conversation(Box<Result<Option<ConversationPage>, String>>),
    Stability(Box<Result<StabilityReport, String>>),
    Experiments(Box<Result<ExperimentsPage, String>>),
    Inference(Box<Result<InferencePage, String>>),
    Compare(Box<Result<CompareReport, String>>),
    Evidence(Box<Result<EvidenceAnswer, String>>),
    Recovery(Box<Result<Vec<RecoveryPoint>, String>>),
    EvidenceMessages(Box<Result<Vec<Message>, String>>),
    /// The report, and the simulated log (JSONL) when one was simulated.
    Runtime(Box<Result<RuntimeAnswer, String>>),
    Digests(Box<Result<Vec<Input>, String>>),
    ProxyLabels(Box<Result<ProxyLabelFile, String>>),
    /// The worker could not read the job or encode its answer.
    Failed(String),
}

impl Answer {
    /// The answer's kind: its variant's name (the job's kind, or `Failed`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Analyze(_) => "Analyze",
            Answer::Import { .. } => "Import",
            Answer::Overview(_) => "Overview",
            Answer::Trajectory(_) => "Trajectory",
            Answer::Conversation(_) => "Conversation",
            Answer::Stability(_) => "Stability",
            Answer::Experiments(_) => "Experiments",
            Answer::Inference(_) => "Inference",
            Answer::Compare(_) => "Compare",
            Answer::Evidence(_) => "Evidence",
            Answer::Recovery(_) => "Recovery",
            Answer::EvidenceMessages(_) => "EvidenceMessages",
            Answer::Runtime(_) => "Runtime",
            Answer::Digests(_) => "Digests",
            Answer::ProxyLabels(_) => "ProxyLabels",
            Answer::Failed(_) => "Failed",
        }
    }
}

/// An evidence job's answer: the report (with its text) and the addendum's
/// views as text, built in the worker (the page links no reader for their
/// tables).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceAnswer {
    pub report: Exported<EvidenceReport>,
    pub page: gapscope_view::evidence::analyses::AddendumPage,
}

/// A runtime job's answer: the report (with its text), the log when it was
/// simulated, and the addendum's views as text (with the SFT filter's),
/// built in the worker (the page links no reader for their tables).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuntimeAnswer {
    pub report: Exported<RuntimeReport>,
    pub log: Option<String>,
    pub page: gapscope_view::evidence::analyses::AddendumPage,
}

/// A part's report as its JSON text, as the command line's `--json` writes
/// it (indented): the page reads the report from it ([`Exported::report`])
/// and its export downloads the text, so the page links no serializer for
/// the report, and one deserializer (the first-load budget).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Exported<T> {
    json: String,
    #[serde(skip)]
    of: std::marker::PhantomData<fn() -> T>,
}

impl<T: Serialize> Exported<T> {
    /// The report's text.
    pub fn new(report: &T) -> Self {
        let json = serde_json::to_string_pretty(report).map_or_else(
            |e| format!("{{\"error\": \"the report could not be written: {e}\"}}"),
            |s| s + "\n",
        );
        Exported {
            json,
            of: std::marker::PhantomData,
        }
    }
}

impl<T: serde::de::DeserializeOwned> Exported<T> {
    /// The report, read back from its text.
    pub fn report(&self) -> Result<T, String> {
        serde_json::from_str(&self.json)
            .map_err(|e| format!("internal error: the report's text: {e}"))
    }

    /// The text.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The text, given up.
    pub fn into_json(self) -> String {
        self.json
    }
}

/// The answer of a [`Job::ProxyLabels`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProxyLabelFile {
    /// The label CSV (`trajectory_id,operation,requirement,label,turn,why`).
    pub csv: String,
    /// Per file and operation: rows, labelled rows, mean label, eligible
    /// trajectories, score ([`gapscope_gaps::proxy_labels::summary_text`]).
    pub summary: String,
    /// The τ²-bench files labelled, and the files left out.
    pub labelled: Vec<String>,
    pub left_out: Vec<String>,
}

/// One point of the recovery curve (the answer of a [`Job::Recovery`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoveryPoint {
    pub models: usize,
    pub families: usize,
    pub seeds: u64,
    /// Mean Spearman between planted and recovered macro gaps.
    pub macro_rho: Option<f64>,
    /// Mean over operations and seeds of the per-operation Spearman.
    pub operation_rho: Option<f64>,
}

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    pub id: u64,
    pub job: Job,
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker has loaded and takes jobs.
    Ready,
    Progress {
        id: u64,
        progress: Progress,
    },
    /// A piece of the answer that follows (same id): the page keeps the
    /// pieces in order and puts them back into that answer
    /// ([`chunks::assemble`]).
    Chunk {
        id: u64,
        chunk: chunks::Chunk,
    },
    Done {
        id: u64,
        answer: Answer,
    },
    /// The worker's code panicked (its panic hook posts this before the
    /// wasm traps): the page answers the running job with `message` (what
    /// panicked, and where) and replaces the worker.
    Panicked {
        message: String,
    },
    /// After each job: the worker's wasm linear memory (bytes). It never
    /// shrinks, so it is the worker's peak so far (for the page's pool line
    /// and the import-memory benchmark).
    Memory {
        bytes: u64,
        /// Wall time of the job in the worker (reading its files included), ms.
        #[serde(default)]
        millis: f64,
        /// Of that, the time spent waiting for the browser to hand over the
        /// bytes of the job's files (`FileReaderSync`), ms.
        #[serde(default)]
        read_millis: f64,
        /// Bytes of the job's files read as streams (in chunks; the rest were
        /// fetched whole).
        #[serde(default)]
        streamed_bytes: f64,
        /// Of the wall time, the time spent reading fetched files as they
        /// came: from the browser's buffer, copied into wasm memory, to
        /// trajectories ([`crate::read_ahead`]), ms.
        #[serde(default)]
        parse_millis: f64,
        /// The job's kind ([`crate::job_kind`]).
        #[serde(default)]
        job: String,
    },
}
