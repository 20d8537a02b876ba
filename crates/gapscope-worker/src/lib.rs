//! gapscope-worker: the worker layer between the page and the analysis core.
//!
//! The protocol is plain serde data exchanged as JSON text. The page sends an
//! [`Envelope`] (a job id and a [`Job`]); the worker posts [`FromWorker`]
//! messages back: `Ready` once loaded, any number of `Progress` for the job,
//! then exactly one `Done` with the job's answer. [`handle_message`] is the
//! whole behaviour and is tested natively; in the browser, [`web::start`]
//! (called by the `worker` bin of the web package) only wires it to the
//! worker's `onmessage`/`postMessage`. JSON text keeps the codec infallible:
//! a message that cannot be decoded becomes an error answer, never a panic.
//!
//! The page runs a pool of these workers (src/pool.rs) and cancels a job by
//! terminating the worker that runs it; nothing here needs to cooperate.

use gapscope_core::analysis::{analyze_with_progress, MacroDefinition, STAGES};
use gapscope_core::assoc::association_sensitivity;
use gapscope_core::evidence::{evaluate, EvidenceReport, EvidenceSettings};
use gapscope_core::join::{
    profiles_of_inputs, read_inputs_from, FileContent, FileRead, InputFile, Inputs, JoinReport,
    Messages, TrajectoryOptions,
};
use gapscope_core::manifest::{Input, Manifest};
use gapscope_core::overview::{overview_of_inputs, stability_of_inputs, Overview};
use gapscope_core::runtime::{
    analyze as runtime_analyze, simulate as simulate_episodes, write_jsonl, RuntimeReport,
    RuntimeSettings, SimParams,
};
use gapscope_core::stability::{StabilityReport, StabilitySettings};
use gapscope_core::trajectory::{read_jsonl, Message, Trajectory};
use gapscope_core::{Alpha, Report, RoleOverrides, Settings};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The embedded default dataset: made by `gapscope synth` (seeded generator).
pub const EXAMPLE_CSV: &str = include_str!("../../../assets/synthetic-example.csv");
/// How the embedded dataset is labelled wherever it appears.
pub const EXAMPLE_LABEL: &str = "synthetic example";

/// The embedded synthetic trajectory corpus (`gapscope synth-trajectories`,
/// seeded; planted gaps): a foundational profile and labelled trajectories in
/// scenario groups, for the trajectory, stability and teaching views.
pub const CORPUS_FOUNDATIONAL: &str =
    include_str!("../../../assets/synthetic-trajectories/foundational.csv");
/// Its trajectories (canonical JSONL), generated on first use instead of
/// embedded (318 KB; the generator is in the worker for the teaching view
/// anyway): byte for byte the committed
/// `assets/synthetic-trajectories/trajectories.jsonl` (tests here and in
/// gapscope-core's `synthetic_trajectories_current`).
pub fn corpus_trajectories() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        gapscope_core::synth_traj::generate(&gapscope_core::synth_traj::TrajParams::default())
            .ok()
            .and_then(|c| c.jsonl().ok())
            .unwrap_or_default()
    })
}
/// What the generator planted (score points per model and operation, macro).
pub const CORPUS_PLANTED: &str = include_str!("../../../assets/synthetic-trajectories/planted.csv");
/// How the embedded corpus is labelled wherever it appears.
pub const CORPUS_LABEL: &str = "synthetic trajectories";

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
    Attached { names: Vec<String> },
    /// The embedded synthetic trajectory corpus ([`CORPUS_LABEL`]).
    Corpus,
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
    /// The file name, or [`EXAMPLE_LABEL`].
    pub source: String,
    /// Whether this is the synthetic example (the page labels it so).
    pub synthetic: bool,
    pub report: Report,
    /// Whether the source was a gapscope JSON report, recomputed from its input.
    pub imported: bool,
    /// When several files were joined: what the join did.
    #[serde(default)]
    pub join: Option<JoinReport>,
    /// Inputs (SHA-256), settings, seed and version: enough to reproduce it.
    pub manifest: Manifest,
}

/// The worker's answer: an analysis, or a message that says where and why.
pub type Response = Result<Analysis, String>;

/// Run one request. Errors are prefixed with the file name.
///
/// A gapscope JSON report (as exported by the page or written by
/// `gapscope report --json`) is re-imported: its `input` table is analysed again
/// with its own settings, and any difference from the stored numbers is said.
pub fn handle(request: &Request) -> Response {
    handle_with_progress(request, &mut |_| {})
}

/// [`handle`], telling `progress` before reading the files and before each
/// stage of the analysis.
pub fn handle_with_progress(request: &Request, progress: &mut dyn FnMut(Progress)) -> Response {
    handle_attached(request, &[], progress)
}

/// A source's files as (name, bytes), and whether it is the example.
pub type SourceFiles<'a> = (Vec<(String, &'a [u8])>, bool);

/// The files of a source, as (name, bytes) borrowed from the request or from
/// the bytes attached to it; and whether it is the synthetic example.
pub fn source_files<'a>(
    source: &'a Source,
    attached: &'a [(String, Vec<u8>)],
) -> Result<SourceFiles<'a>, String> {
    Ok(match source {
        Source::Example => (
            vec![(EXAMPLE_LABEL.to_string(), EXAMPLE_CSV.as_bytes())],
            true,
        ),
        Source::Corpus => (
            vec![
                (
                    format!("{CORPUS_LABEL}: foundational.csv"),
                    CORPUS_FOUNDATIONAL.as_bytes(),
                ),
                (
                    format!("{CORPUS_LABEL}: trajectories.jsonl"),
                    corpus_trajectories().as_bytes(),
                ),
            ],
            true,
        ),
        Source::File { name, text } => (vec![(name.clone(), text.as_bytes())], false),
        Source::Files { files } => (
            files
                .iter()
                .map(|(n, t)| (n.clone(), t.as_bytes()))
                .collect(),
            false,
        ),
        Source::Attached { names } => {
            if names.len() != attached.len() {
                return Err(format!(
                    "internal error: {} file(s) named but {} attached",
                    names.len(),
                    attached.len()
                ));
            }
            (
                names
                    .iter()
                    .zip(attached)
                    .map(|(n, (_, b))| (n.clone(), b.as_slice()))
                    .collect(),
                false,
            )
        }
    })
}

/// A file posted with a job: its bytes, or a reader over them (in the
/// browser, the `File`, read in chunks as the job needs it: a canonical
/// JSONL file is parsed as it streams, never held whole).
pub enum Attached {
    Bytes(String, Vec<u8>),
    Reader(String, Box<dyn std::io::Read>),
    /// A file read already, as the job reads its files (in the browser,
    /// each fetched file is parsed as soon as its bytes are here and its
    /// bytes dropped: [`read_plan`]).
    Read(Box<FileRead>),
}

impl Attached {
    pub fn name(&self) -> &str {
        match self {
            Attached::Bytes(n, _) | Attached::Reader(n, _) => n,
            Attached::Read(r) => &r.name,
        }
    }

    /// The whole content.
    pub fn into_bytes(self) -> Result<(String, Vec<u8>), String> {
        match self {
            Attached::Bytes(n, b) => Ok((n, b)),
            Attached::Reader(n, mut r) => {
                let mut b = Vec::new();
                r.read_to_end(&mut b)
                    .map_err(|e| format!("{n}: could not be read ({e})"))?;
                Ok((n, b))
            }
            Attached::Read(r) => match r.content {
                FileContent::Text(t) | FileContent::Labels(t) => Ok((r.name, t.into_bytes())),
                // `read_plan` reads ahead only for jobs that read inputs.
                FileContent::Trajectories(_) => Err(format!(
                    "internal error: {} was parsed before the job that needs its text",
                    r.name
                )),
            },
        }
    }

    /// A gapscope JSON report, read whole, or the file as it was (a reader
    /// keeps streaming; only its head was looked at).
    fn report_or_self(self) -> Result<(Option<Report>, Attached), String> {
        use std::io::Read;
        let looks_like_report = |head: &[u8]| {
            let t = String::from_utf8_lossy(head);
            let t = t.trim_start_matches('\u{feff}').trim_start();
            // As serde_json writes a report (compact or pretty): its first
            // field. (`"tool"` alone is in many trajectory files: a role.)
            t.starts_with('{')
                && (t.contains("\"tool\":\"gapscope\"") || t.contains("\"tool\": \"gapscope\""))
        };
        match self {
            Attached::Bytes(_, ref b) => {
                let report = std::str::from_utf8(b).ok().and_then(as_report);
                Ok((report, self))
            }
            Attached::Read(ref r) => {
                let report = match &r.content {
                    FileContent::Text(t) => as_report(t),
                    _ => None,
                };
                Ok((report, self))
            }
            Attached::Reader(n, mut r) => {
                let mut head = Vec::new();
                Read::take(&mut r, 64 << 10)
                    .read_to_end(&mut head)
                    .map_err(|e| format!("{n}: could not be read ({e})"))?;
                if looks_like_report(&head) {
                    r.read_to_end(&mut head)
                        .map_err(|e| format!("{n}: could not be read ({e})"))?;
                    let report = std::str::from_utf8(&head).ok().and_then(as_report);
                    Ok((report, Attached::Bytes(n, head)))
                } else {
                    let rest = std::io::Cursor::new(head).chain(r);
                    Ok((None, Attached::Reader(n, Box::new(rest))))
                }
            }
        }
    }
}

impl std::fmt::Debug for Attached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Attached::Bytes(n, b) => write!(f, "Bytes({n:?}, {} bytes)", b.len()),
            Attached::Reader(n, _) => write!(f, "Reader({n:?})"),
            Attached::Read(r) => write!(f, "Read({:?})", r.name),
        }
    }
}

/// Attached bytes, as [`Attached`] files.
pub fn attach(files: &[(String, Vec<u8>)]) -> Vec<Attached> {
    files
        .iter()
        .map(|(n, b)| Attached::Bytes(n.clone(), b.clone()))
        .collect()
}

/// Every attached file whole (for the jobs that need the text at once).
fn whole(attached: Vec<Attached>) -> Result<Vec<(String, Vec<u8>)>, String> {
    attached.into_iter().map(Attached::into_bytes).collect()
}

/// The files of a source as core inputs (attached ones move in: a reader
/// streams, owned bytes are dropped once read); whether it is the example.
fn input_files(
    source: &Source,
    attached: Vec<Attached>,
) -> Result<(Vec<InputFile<'_>>, bool), String> {
    if let Source::Attached { names } = source {
        if names.len() != attached.len() {
            return Err(format!(
                "internal error: {} file(s) named but {} attached",
                names.len(),
                attached.len()
            ));
        }
        let files = names
            .iter()
            .zip(attached)
            .map(|(n, a)| match a {
                Attached::Bytes(_, b) => InputFile::Bytes(n.clone(), Cow::Owned(b)),
                Attached::Reader(_, r) => InputFile::Stream(n.clone(), r),
                Attached::Read(r) => InputFile::Read(r),
            })
            .collect();
        return Ok((files, false));
    }
    let (files, synthetic) = source_files(source, &[])?;
    Ok((
        files
            .into_iter()
            .map(|(n, b)| InputFile::Bytes(n, Cow::Borrowed(b)))
            .collect(),
        synthetic,
    ))
}

/// Read a source's inputs once.
fn source_inputs(
    source: &Source,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
    messages: &Messages,
) -> Result<Inputs, String> {
    let (files, _) = input_files(source, attached)?;
    read_inputs_from(files, options, messages, false).map_err(|e| e.to_string())
}

/// [`handle_with_progress`] for a request whose files' bytes are attached.
pub fn handle_attached(
    request: &Request,
    attached: &[(String, Vec<u8>)],
    progress: &mut dyn FnMut(Progress),
) -> Response {
    import(request, attach(attached), false, progress).0
}

/// The trajectory overview of a source's files (`None`: it has no
/// trajectory files), or what stopped it.
pub type OverviewResult = Result<Option<Overview>, String>;

/// The analysis of a request and, when `with_overview`, the overview of its
/// trajectory files, from one read of the files (they are parsed once; the
/// page's import job). The overview is `None` when not asked for.
pub fn import(
    request: &Request,
    attached: Vec<Attached>,
    with_overview: bool,
    progress: &mut dyn FnMut(Progress),
) -> (Response, Option<OverviewResult>) {
    let mut overview_out = None;
    let analysis = analyze_files(
        request,
        attached,
        with_overview.then_some(&mut overview_out),
        progress,
    );
    if with_overview && overview_out.is_none() {
        // The files could not be read: the overview fails the same way.
        overview_out = Some(match &analysis {
            Err(e) => Err(e.clone()),
            // A re-imported report has no trajectories.
            Ok(_) => Ok(None),
        });
    }
    (analysis, overview_out)
}

fn analyze_files(
    request: &Request,
    attached: Vec<Attached>,
    overview_out: Option<&mut Option<OverviewResult>>,
    progress: &mut dyn FnMut(Progress),
) -> Response {
    let of = 1 + STAGES.len() as u32;
    // A single file may be a gapscope report (re-imported with its settings).
    let (imported, attached) = match <[Attached; 1]>::try_from(attached) {
        Ok([one]) => {
            let (report, one) = one.report_or_self()?;
            (report, vec![one])
        }
        Err(many) => (None, many),
    };
    let (files, synthetic) = input_files(&request.source, attached)?;
    let n_files = files.len();
    let name = match request.source {
        Source::Corpus => CORPUS_LABEL.to_string(),
        _ => files
            .iter()
            .map(InputFile::name)
            .collect::<Vec<_>>()
            .join(" + "),
    };
    let mut digests = Vec::new();
    let mut recipe: Option<gapscope_core::manifest::Recipe> = None;
    let (table, settings, pair, join) = match &imported {
        Some(old) => {
            let settings = old
                .settings
                .to_settings()
                .map_err(|e| format!("{name}: settings of the report: {e}"))?;
            let pair = old.association_sensitivity.as_ref().map(|a| Pair {
                foundational: a.foundational.clone(),
                operation: a.operation.clone(),
                provider: a
                    .provider_removed
                    .as_ref()
                    .map(|p| p.label.trim_start_matches("without ").to_string()),
            });
            // A file read ahead has no digest yet (a digests job follows).
            if let [InputFile::Bytes(n, b)] = files.as_slice() {
                digests.push(Input::new(n, b));
            }
            (old.input.clone(), settings, pair, None)
        }
        None => {
            let settings = request_settings(request)?;
            progress(Progress {
                label: format!(
                    "reading {} file{}",
                    n_files,
                    gapscope_core::profile::plural(n_files)
                ),
                step: 1,
                of,
            });
            // Profile tables, or trajectories (their operation profile), joined
            // on model; each file read once, hashed for the manifest as it is
            // (files read ahead have no digest: a digests job follows).
            let mut inputs =
                read_inputs_from(files, &request.trajectories, &Messages::Counts, true)
                    .map_err(|e| e.to_string())?;
            digests = std::mem::take(&mut inputs.digests);
            recipe = Some(recipe_of(request, &inputs));
            if let Some(out) = overview_out {
                *out = Some(Ok(overview_of_inputs(&inputs, &request.trajectories)));
            }
            let (table, join) = profiles_of_inputs(inputs, &request.roles, &request.trajectories)
                .map_err(|e| e.to_string())?;
            (table, settings, request.pair.clone(), Some(join))
        }
    };
    let mut report = analyze_with_progress(&table, &settings, &mut |stage| {
        progress(Progress {
            label: stage.label.to_string(),
            step: stage.step + 1,
            of,
        })
    })
    .map_err(|e| format!("{name}: {e}"))?;
    if n_files > 1 {
        report.summary = format!(
            "{} (joined on model from {} files)",
            report.summary, n_files
        );
    }
    if let Some(j) = &join {
        for s in j.sentences().into_iter().rev() {
            report.warnings.insert(0, s);
        }
    }
    // A pair chosen for another dataset must not stop this one's analysis.
    if let Some(p) = &pair {
        match association_sensitivity(&table, &p.foundational, &p.operation, p.provider.as_deref())
        {
            Ok(a) => report.association_sensitivity = Some(a),
            Err(e) => report
                .warnings
                .push(format!("association sensitivity: {e}")),
        }
    }
    if let Some(old) = &imported {
        let same = serde_json::to_value(old).ok() == serde_json::to_value(&report).ok();
        report.warnings.push(if same {
            format!("{name}: a gapscope {} report, recomputed from its input with its settings: every number agrees", old.version)
        } else {
            format!(
                "{name}: a gapscope {} report, recomputed from its input with its settings by gapscope {}: some numbers differ from the file; the recomputed ones are shown",
                old.version, report.version
            )
        });
    }
    let manifest = match recipe {
        Some(mut recipe) => {
            recipe.pair = pair.as_ref().map(|p| {
                (
                    p.foundational.clone(),
                    p.operation.clone(),
                    p.provider.clone(),
                )
            });
            Manifest::with_recipe(digests, report.settings.clone(), recipe)
        }
        None => Manifest::new(digests, report.settings.clone()),
    };
    Ok(Analysis {
        source: name,
        synthetic,
        report,
        imported: imported.is_some(),
        // The join report is shown only when several files were joined.
        join: join.filter(|_| n_files > 1),
        manifest,
    })
}

/// What the manifest's command is made of: the files by kind, under the
/// names they have in the folder the command runs in (built-in data and
/// derived labels written first by the commands that make them), and every
/// setting that changes a number.
fn recipe_of(request: &Request, inputs: &Inputs) -> gapscope_core::manifest::Recipe {
    let corpus_prefix = format!("{CORPUS_LABEL}: ");
    let tau2_files: Vec<String> = inputs
        .trajectory_files
        .iter()
        .map(|n| gapscope_core::manifest::shell_quote(n))
        .collect();
    const EXAMPLE_FILE: &str = "synthetic-example.csv";
    const CORPUS_DIR: &str = "synthetic-trajectories";
    // The built-in data by the labels the worker gives it (whatever way the
    // page sent it: the example is re-sent as a named text when its roles change).
    let builtin: std::cell::RefCell<Vec<String>> = Default::default();
    let mut files = inputs.recipe_files(&|n: &str| match n.strip_prefix(&corpus_prefix) {
        Some(rest) => {
            let name = format!("{CORPUS_DIR}/{rest}");
            builtin.borrow_mut().push(name.clone());
            name
        }
        None if n == EXAMPLE_LABEL => {
            builtin.borrow_mut().push(EXAMPLE_FILE.to_string());
            EXAMPLE_FILE.to_string()
        }
        None => n.to_string(),
    });
    let builtin = builtin.into_inner();
    for f in &mut files {
        if builtin.contains(&f.name) && f.name == EXAMPLE_FILE {
            f.written_by = Some(format!("gapscope synth > {EXAMPLE_FILE}"));
        } else if builtin.contains(&f.name) {
            f.written_by = Some(format!("gapscope synth-trajectories --out {CORPUS_DIR}"));
        } else if request.derived.contains(&f.name) {
            f.written_by = Some(format!(
                "gapscope evidence tau2-labels {} > {}",
                tau2_files.join(" "),
                gapscope_core::manifest::shell_quote(&f.name)
            ));
        }
    }
    gapscope_core::manifest::Recipe {
        files,
        roles: request.roles.clone(),
        trajectories: request.trajectories.clone(),
        pair: None,
    }
}

/// The request's settings, validated.
fn request_settings(request: &Request) -> Result<Settings, String> {
    let settings = Settings {
        alpha: Alpha::new(request.alpha).map_err(|e| e.to_string())?,
        bootstrap: request.bootstrap,
        seed: request.seed,
        macro_definition: request.macro_definition,
        ..Settings::default()
    };
    settings.validate().map_err(|e| e.to_string())?;
    Ok(settings)
}

/// The text as a gapscope report, when it is one.
fn as_report(text: &str) -> Option<Report> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !t.starts_with('{') || !t.contains("\"tool\"") {
        return None;
    }
    serde_json::from_str::<Report>(t)
        .ok()
        .filter(|r| r.tool == "gapscope")
}

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
    /// one read of the files ([`import`]).
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
    /// Cross-task stability of the gaps (profile + trajectory files).
    Stability {
        source: Source,
        options: TrajectoryOptions,
        settings: StabilitySettings,
    },
    /// Evidence to action: a case file and its trajectories (in either
    /// order; the trajectories are the file whose lines carry `messages`),
    /// or the worked set when `source` is `None`.
    Evidence {
        source: Option<Source>,
        bootstrap: usize,
        seed: u64,
    },
    /// The messages of one evidence trajectory, for the replay.
    EvidenceMessages { source: Option<Source>, id: String },
    /// Teaching: how well planted gaps are recovered as the number of
    /// models grows (15 in 8 families, 50 in 10, 200 in 40), mean over seeds.
    Recovery { seeds: u64 },
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
        bootstrap: usize,
        seed: u64,
    },
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
    Stability(Box<Result<StabilityReport, String>>),
    Evidence(Box<Result<EvidenceReport, String>>),
    Recovery(Box<Result<Vec<RecoveryPoint>, String>>),
    EvidenceMessages(Box<Result<Vec<Message>, String>>),
    /// The report, and the simulated log (JSONL) when one was simulated.
    Runtime(Box<Result<(RuntimeReport, Option<String>), String>>),
    Digests(Box<Result<Vec<Input>, String>>),
    ProxyLabels(Box<Result<ProxyLabelFile, String>>),
    /// The worker could not read the job or encode its answer.
    Failed(String),
}

/// The answer of a [`Job::ProxyLabels`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProxyLabelFile {
    /// The label CSV (`trajectory_id,operation,requirement,label,turn,why`).
    pub csv: String,
    /// Per file and operation: rows, labelled rows, mean label, eligible
    /// trajectories, score ([`gapscope_core::proxy_labels::summary_text`]).
    pub summary: String,
    /// The τ²-bench files labelled, and the files left out.
    pub labelled: Vec<String>,
    pub left_out: Vec<String>,
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
    Done {
        id: u64,
        answer: Answer,
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
        /// trajectories ([`read_ahead`]), ms.
        #[serde(default)]
        parse_millis: f64,
        /// The job's kind ([`job_kind`]).
        #[serde(default)]
        job: String,
    },
}

/// The kind of the job in an envelope's JSON text (`Import`, `Analyze`,
/// …; empty when unreadable), for the page's pool line.
pub fn job_kind(text: &str) -> String {
    // Every job has fields: its JSON is `{"Kind": {…}}`; the fields are
    // skipped, not built (a job may carry a file's text).
    #[derive(Deserialize)]
    struct Kind {
        job: std::collections::BTreeMap<String, serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Kind>(text)
        .ok()
        .and_then(|k| k.job.into_keys().next())
        .unwrap_or_default()
}

/// Run one job, telling `progress` along the way.
pub fn run_job(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    let step = |label: &str| Progress {
        label: label.to_string(),
        step: 1,
        of: 1,
    };
    match job {
        Job::Analyze(request) => {
            Answer::Analyze(Box::new(import(request, attached, false, progress).0))
        }
        Job::Import(request) => {
            let (analysis, overview) = import(request, attached, true, progress);
            Answer::Import {
                analysis: Box::new(analysis),
                overview: Box::new(overview.unwrap_or(Ok(None))),
            }
        }
        Job::ProxyLabels { source } => {
            progress(step("proxy labels of the τ²-bench files"));
            Answer::ProxyLabels(Box::new(
                whole(attached).and_then(|files| proxy_label_file(source, &files)),
            ))
        }
        Job::Digests { source } => {
            progress(step("hashing the files for the manifest"));
            Answer::Digests(Box::new(whole(attached).and_then(|files| {
                let (files, _) = source_files(source, &files)?;
                Ok(files.iter().map(|(n, b)| Input::new(n, b)).collect())
            })))
        }
        Job::Overview { source, options } => {
            progress(step("reading the trajectories"));
            Answer::Overview(Box::new(
                source_inputs(source, attached, options, &Messages::Counts)
                    .map(|inputs| overview_of_inputs(&inputs, options)),
            ))
        }
        Job::Trajectory {
            source,
            options,
            id,
        } => {
            progress(step("reading the trajectory"));
            Answer::Trajectory(Box::new(
                source_inputs(source, attached, options, &Messages::Only(id.clone()))
                    .map(|inputs| inputs.corpus.trajectories.into_iter().find(|t| &t.id == id)),
            ))
        }
        Job::Recovery { seeds } => Answer::Recovery(Box::new(recovery_curve(*seeds, progress))),
        Job::Evidence {
            source,
            bootstrap,
            seed,
        } => {
            progress(step("scoring every episode against its case"));
            let settings = EvidenceSettings {
                bootstrap: *bootstrap,
                seed: *seed,
                ..EvidenceSettings::default()
            };
            Answer::Evidence(Box::new(
                evidence_texts(source.as_ref(), attached).and_then(
                    |(names, cases, trajectories)| {
                        evaluate(&cases, &trajectories, &settings)
                            .map_err(|e| format!("{}: {e}", names.join(" + ")))
                    },
                ),
            ))
        }
        Job::EvidenceMessages { source, id } => Answer::EvidenceMessages(Box::new(
            evidence_texts(source.as_ref(), attached).and_then(|(_, _, trajectories)| {
                read_jsonl(&trajectories)
                    .trajectories
                    .into_iter()
                    .find(|t| &t.id == id)
                    .map(|t| t.messages)
                    .ok_or_else(|| format!("trajectory `{id}` is not in the file"))
            }),
        )),
        Job::Runtime {
            source,
            simulate,
            bootstrap,
            seed,
        } => {
            let settings = RuntimeSettings {
                bootstrap: *bootstrap,
                seed: *seed,
                ..RuntimeSettings::default()
            };
            let log = match (simulate, source) {
                (Some(params), _) => {
                    progress(step("simulating the 2×2 factorial (scripted policies)"));
                    simulate_episodes(params)
                        .map_err(|e| format!("simulation: {e}"))
                        .and_then(|eps| {
                            write_jsonl(&eps)
                                .map(Some)
                                .map_err(|e| format!("simulation: {e}"))
                        })
                }
                (None, Some(_)) => Ok(None),
                (None, None) => Err("no episode log and no simulation".to_string()),
            };
            progress(step(
                "the 2×2 tables, bootstrap intervals and trace metrics",
            ));
            let result = log.and_then(|simulated| {
                let text = match (&simulated, source) {
                    (Some(t), _) => t.clone(),
                    (None, Some(source)) => {
                        let attached = whole(attached)?;
                        let (files, _) = source_files(source, &attached)?;
                        let [(name, bytes)] = files.as_slice() else {
                            return Err("open one episode log (JSONL)".to_string());
                        };
                        std::str::from_utf8(bytes)
                            .map_err(|e| {
                                format!(
                                    "{name}: not UTF-8 text (invalid byte at offset {})",
                                    e.valid_up_to()
                                )
                            })?
                            .to_string()
                    }
                    (None, None) => String::new(),
                };
                runtime_analyze(&text, &settings)
                    .map(|r| (r, simulated))
                    .map_err(|e| e.to_string())
            });
            Answer::Runtime(Box::new(result))
        }
        Job::Stability {
            source,
            options,
            settings,
        } => {
            progress(step("cross-task stability: the halves and their gaps"));
            Answer::Stability(Box::new(
                source_inputs(source, attached, options, &Messages::Counts).and_then(|inputs| {
                    stability_of_inputs(&inputs, options, settings).map_err(|e| e.to_string())
                }),
            ))
        }
    }
}

/// [`Job::ProxyLabels`]: the source's τ²-bench results files labelled
/// together (tools classed over all of them), the other files left out.
fn proxy_label_file(
    source: &Source,
    attached: &[(String, Vec<u8>)],
) -> Result<ProxyLabelFile, String> {
    use gapscope_core::proxy_labels::{proxy_labels_of_files, summary_text, to_csv};
    use gapscope_core::trajectory::{detect_bytes, TrajectoryFormat};
    let (files, _) = source_files(source, attached)?;
    let mut tau2 = Vec::new();
    let mut left_out = Vec::new();
    for (name, bytes) in &files {
        match detect_bytes(bytes) {
            Some(TrajectoryFormat::Tau2) => {
                let text = std::str::from_utf8(bytes).map_err(|e| {
                    format!(
                        "{name}: not UTF-8 text (invalid byte at offset {})",
                        e.valid_up_to()
                    )
                })?;
                tau2.push((name.clone(), text));
            }
            _ => left_out.push(name.clone()),
        }
    }
    if tau2.is_empty() {
        return Err(format!(
            "proxy labels need τ²-bench results files; none among {}",
            left_out.join(", ")
        ));
    }
    let labels =
        proxy_labels_of_files(&tau2, None, Default::default()).map_err(|e| e.to_string())?;
    Ok(ProxyLabelFile {
        csv: to_csv(&labels),
        summary: summary_text(&labels),
        labelled: tau2.into_iter().map(|(n, _)| n).collect(),
        left_out,
    })
}

/// The embedded evidence-to-action worked set (written for gapscope; see
/// docs/evidence.md): case specs and scripted trajectories.
pub const WORKED_CASES: &str = include_str!("../../../assets/evidence/cases.jsonl");
pub const WORKED_TRAJECTORIES: &str = include_str!("../../../assets/evidence/trajectories.jsonl");

/// Names and texts of an evidence job's case file and trajectory file.
fn evidence_texts(
    source: Option<&Source>,
    attached: Vec<Attached>,
) -> Result<(Vec<String>, String, String), String> {
    let Some(source) = source else {
        return Ok((
            vec!["worked set".into()],
            WORKED_CASES.to_string(),
            WORKED_TRAJECTORIES.to_string(),
        ));
    };
    let attached = whole(attached)?;
    let (files, _) = source_files(source, &attached)?;
    let [(a, x), (b, y)] = files.as_slice() else {
        return Err(format!(
            "open two files, the case specs and the trajectories (got {})",
            files.len()
        ));
    };
    let text = |name: &str, bytes: &[u8]| -> Result<String, String> {
        std::str::from_utf8(bytes).map(str::to_string).map_err(|e| {
            format!(
                "{name}: not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            )
        })
    };
    let (x, y) = (text(a, x)?, text(b, y)?);
    let has_messages = |t: &str| {
        t.lines()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .is_some_and(|v| v.get("messages").is_some())
    };
    let names = vec![a.clone(), b.clone()];
    match (has_messages(&x), has_messages(&y)) {
        (false, true) => Ok((names, x, y)),
        (true, false) => Ok((names, y, x)),
        _ => Err(format!(
            "{a} + {b}: expected one case file and one trajectory file (the one whose lines have `messages`)"
        )),
    }
}

/// A synthetic τ²-bench results text (`simulations` of the shape τ²-bench
/// writes: tool calls, tool results, action checks) for [`warm_up`].
pub fn warm_up_tau2(simulations: usize) -> String {
    // Message contents as long as real ones (a real file is mostly long
    // strings, skipped by the light read: that loop must be warm too).
    let long = "I would like to check \"my\" order,\nplease — the one from last week. ".repeat(20);
    let sims: Vec<serde_json::Value> = (0..simulations)
        .map(|i| {
            serde_json::json!({
                "id": format!("warm-{i}"),
                "task_id": format!("{}", i % 17),
                "trial": 0,
                "termination_reason": "user_stop",
                "reward_info": {
                    "reward": (i % 2) as f64,
                    "action_checks": [{
                        "action": {"action_id": "a", "name": "get_order", "arguments": {"order_id": format!("#W{i}")}},
                        "action_match": i % 3 != 0,
                        "action_reward": 1.0,
                        "tool_type": "read"
                    }]
                },
                "messages": [
                    {"role": "user", "content": long, "turn_idx": 0},
                    {"role": "assistant", "content": null, "tool_calls": [
                        {"id": format!("call_{i}"), "name": "get_order", "arguments": {"order_id": format!("#W{i}")}, "requestor": "assistant"}
                    ], "turn_idx": 1},
                    {"role": "tool", "id": format!("call_{i}"), "content": "{\"order_id\": \"#W1\", \"items\": [1, 2.5, -3e2], \"ok\": true}", "requestor": "assistant", "error": false, "turn_idx": 2},
                    {"role": "assistant", "content": format!("Your order is on its way — anything else? {long}"), "turn_idx": 3}
                ]
            })
        })
        .collect();
    serde_json::json!({
        "info": {"agent_info": {"implementation": "warm-up", "llm": "warm-up"}},
        "tasks": [],
        "simulations": sims,
    })
    .to_string()
}

/// Simulations in the warm-up's τ²-bench file (2.9 MB; ~40 ms natively).
const WARM_UP_SIMULATIONS: usize = 800;

/// Run the import path once on embedded and synthetic files (the corpus's
/// JSONL and profile, a synthetic τ²-bench file), answers discarded. A
/// browser compiles wasm lazily and optimizes a function only once it has
/// run a while: an idle worker that has done this imports the user's first
/// files about a third faster (`scripts/bench-browser.mjs`).
pub fn warm_up() {
    let files = [
        ("foundational.csv", CORPUS_FOUNDATIONAL.as_bytes().to_vec()),
        (
            "trajectories.jsonl",
            corpus_trajectories().as_bytes().to_vec(),
        ),
        (
            "results.json",
            warm_up_tau2(WARM_UP_SIMULATIONS).into_bytes(),
        ),
    ];
    let request = Request {
        source: Source::Attached {
            names: files.iter().map(|(n, _)| n.to_string()).collect(),
        },
        alpha: Alpha::DEFAULT.get(),
        bootstrap: 20,
        seed: 0,
        roles: RoleOverrides::default(),
        pair: None,
        macro_definition: MacroDefinition::Mean,
        trajectories: TrajectoryOptions::default(),
        derived: Vec::new(),
    };
    // Read ahead, as the browser reads fetched files (nothing hashed).
    let plan = ReadPlan {
        options: request.trajectories.clone(),
        messages: Messages::Counts,
    };
    let files = files
        .into_iter()
        .map(|(n, b)| read_ahead(n.to_string(), b, &plan))
        .collect();
    let answer = run_job(&Job::Import(request), files, &mut |_| {});
    // Encoded as an answer would be, then dropped.
    drop(encode_message(&FromWorker::Done { id: 0, answer }));
}

/// One point of the recovery curve.
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

fn recovery_curve(
    seeds: u64,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<RecoveryPoint>, String> {
    use gapscope_core::synth_traj::{mean_recovery, TrajParams};
    let shapes = [
        TrajParams::default(),
        TrajParams::sized(10, 5),
        TrajParams::sized(40, 5),
    ];
    let of = (shapes.len() as u64 * seeds) as u32;
    let mut out = Vec::new();
    for (k, shape) in shapes.iter().enumerate() {
        let models: usize = shape.families.iter().map(|f| f.1).sum();
        let (macro_rho, operation_rho) =
            mean_recovery(shape, seeds, gapscope_core::Alpha::DEFAULT, &mut |seed| {
                progress(Progress {
                    label: format!("{models} models, seed {seed}"),
                    step: (k as u64 * seeds + seed + 1) as u32,
                    of,
                })
            })?;
        out.push(RecoveryPoint {
            models,
            families: shape.families.len(),
            seeds,
            macro_rho,
            operation_rho,
        });
    }
    Ok(out)
}

/// Encode an envelope as the JSON text the worker receives.
pub fn encode_envelope(envelope: &Envelope) -> String {
    serde_json::to_string(envelope).unwrap_or_else(|e| {
        // Unreachable for these plain types; the worker answers it as unreadable.
        format!("{{\"id\": {}, \"encode_error\": \"{e}\"}}", envelope.id)
    })
}

/// Encode a worker message (infallible: a failure becomes a failed answer).
pub fn encode_message(message: &FromWorker) -> String {
    serde_json::to_string(message).unwrap_or_else(|e| {
        let id = match message {
            FromWorker::Progress { id, .. } | FromWorker::Done { id, .. } => *id,
            FromWorker::Ready | FromWorker::Memory { .. } => 0,
        };
        let fallback = FromWorker::Done {
            id,
            answer: Answer::Failed(format!(
                "internal error: the result could not be encoded: {e}"
            )),
        };
        serde_json::to_string(&fallback).unwrap_or_default()
    })
}

/// Decode a worker message on the page side.
pub fn decode_message(text: &str) -> Result<FromWorker, String> {
    serde_json::from_str::<FromWorker>(text)
        .map_err(|e| format!("internal error: the worker's message could not be read: {e}"))
}

/// The worker's whole behaviour on one incoming message: decode the
/// envelope, run the job, `post` each progress message, then the answer.
pub fn handle_message(text: &str, attached: Vec<Attached>, post: &mut dyn FnMut(String)) {
    match serde_json::from_str::<Envelope>(text) {
        Ok(Envelope { id, job }) => {
            let answer = run_job(&job, attached, &mut |progress| {
                post(encode_message(&FromWorker::Progress { id, progress }))
            });
            post(encode_message(&FromWorker::Done { id, answer }));
        }
        Err(e) => {
            // The page matches answers by id: recover it from the raw JSON.
            let id = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v.get("id").and_then(|i| i.as_u64()))
                .unwrap_or(0);
            post(encode_message(&FromWorker::Done {
                id,
                answer: Answer::Failed(format!(
                    "internal error: the worker could not read its job: {e}"
                )),
            }));
        }
    }
}

/// How a job reads its attached files when it reads them as inputs
/// ([`read_inputs_from`]). The browser then parses each fetched file as
/// soon as its bytes are here ([`read_ahead`]) and drops them: the worker
/// holds one file's bytes at a time, not every file's.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadPlan {
    pub options: TrajectoryOptions,
    pub messages: Messages,
}

/// The [`ReadPlan`] of a job's JSON text; `None`: the job reads its files
/// otherwise (or is unreadable; it will say so).
pub fn read_plan(text: &str) -> Option<ReadPlan> {
    let Envelope { job, .. } = serde_json::from_str::<Envelope>(text).ok()?;
    let attached = |source: &Source| matches!(source, Source::Attached { .. });
    let plan = |options, messages| Some(ReadPlan { options, messages });
    match job {
        Job::Analyze(r) | Job::Import(r) if attached(&r.source) => {
            plan(r.trajectories, Messages::Counts)
        }
        Job::Overview { source, options }
        | Job::Stability {
            source, options, ..
        } if attached(&source) => plan(options, Messages::Counts),
        Job::Trajectory {
            source,
            options,
            id,
        } if attached(&source) => plan(options, Messages::Only(id)),
        _ => None,
    }
}

/// One attached file read ahead as `plan` says, or, when reading it fails,
/// its bytes: the job then meets the same error where it reports errors.
pub fn read_ahead(name: String, bytes: Vec<u8>, plan: &ReadPlan) -> Attached {
    match gapscope_core::join::read_file(
        InputFile::Bytes(name.clone(), Cow::Borrowed(&bytes)),
        &plan.options,
        &plan.messages,
        false,
    ) {
        Ok(read) => Attached::Read(Box::new(read)),
        Err(_) => Attached::Bytes(name, bytes),
    }
}

/// The job id of an envelope's JSON text (0 when unreadable), so that the
/// worker can report progress on attached files before it decodes the job.
pub fn envelope_id(text: &str) -> u64 {
    #[derive(Deserialize)]
    struct Id {
        id: u64,
    }
    serde_json::from_str::<Id>(text).map_or(0, |i| i.id)
}

/// Post a progress message for job `id`.
pub fn progress_message(id: u64, progress: Progress) -> String {
    encode_message(&FromWorker::Progress { id, progress })
}

/// Post a failed answer for job `id`.
pub fn failure_message(id: u64, message: String) -> String {
    encode_message(&FromWorker::Done {
        id,
        answer: Answer::Failed(message),
    })
}

#[cfg(target_arch = "wasm32")]
pub mod web {
    //! The browser side of a worker: `onmessage` → [`crate::handle_message`]
    //! → `postMessage`. Compiled for wasm32 only.
    //!
    //! A message is either the envelope's JSON text, or an array whose first
    //! element is that text and whose other elements are `File`s. Files of
    //! up to [`PREFETCH`] bytes in all are fetched at once (the browser reads
    //! them in parallel) and, for jobs that read inputs, parsed one by one
    //! as they come ([`crate::read_ahead`]; not hashed: an analysis's
    //! manifest gets its digests from a later [`crate::Job::Digests`]).
    //! Larger ones become
    //! [`crate::Attached::Reader`]s that read them in chunks with
    //! `FileReaderSync` when the job asks (progress posted per chunk): a
    //! canonical JSONL file is parsed as it streams and never held whole.
    //! No copy of any file is made as a JS string.
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{DedicatedWorkerGlobalScope, File, FileReaderSync, MessageEvent};

    /// Bytes read per chunk.
    const CHUNK: usize = 8 << 20;

    thread_local! {
        /// Time spent in `FileReaderSync` during the current job, ms.
        static READ_MILLIS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
        /// Time spent parsing fetched files during the current job, ms.
        static PARSE_MILLIS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
        /// Bytes read by [`FileStream`]s during the current job.
        static STREAMED: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
        /// Whether a job is under way.
        static BUSY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Install the message handler and tell the page the worker is ready.
    pub fn start() {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let out = scope.clone();
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let (text, files) = if js_sys::Array::is_array(&data) {
                let parts: js_sys::Array = data.unchecked_into();
                let files: Vec<File> = (1..parts.length())
                    .filter_map(|i| parts.get(i).dyn_into::<File>().ok())
                    .collect();
                (parts.get(0).as_string().unwrap_or_default(), files)
            } else {
                (data.as_string().unwrap_or_default(), Vec::new())
            };
            let id = crate::envelope_id(&text);
            BUSY.with(|s| s.set(true));
            let started = js_sys::Date::now();
            let out = out.clone();
            // The pool sends a worker its next job only after this one's
            // answer, so jobs never overlap here.
            wasm_bindgen_futures::spawn_local(async move {
                let post = |m: String| {
                    // A failed post means the page is gone; nothing is left to tell.
                    let _ = out.post_message(&JsValue::from_str(&m));
                };
                let total: f64 = files.iter().map(|f| f.size()).sum();
                let attached = if !files.is_empty() && total <= prefetch_limit(&out) {
                    let plan = crate::read_plan(&text);
                    match prefetch(&files, id, &out, plan.as_ref()).await {
                        Some(a) => Ok(a),
                        None => readers(files, id, &out),
                    }
                } else {
                    readers(files, id, &out)
                };
                match attached {
                    Ok(attached) => crate::handle_message(&text, attached, &mut |m| post(m)),
                    Err(e) => post(crate::failure_message(id, e)),
                }
                let millis = js_sys::Date::now() - started;
                let bytes = wasm_bindgen::memory()
                    .unchecked_into::<js_sys::WebAssembly::Memory>()
                    .buffer()
                    .unchecked_into::<js_sys::ArrayBuffer>()
                    .byte_length() as u64;
                post(crate::encode_message(&crate::FromWorker::Memory {
                    bytes,
                    millis,
                    read_millis: READ_MILLIS.with(|r| r.replace(0.0)),
                    streamed_bytes: STREAMED.with(|r| r.replace(0.0)),
                    parse_millis: PARSE_MILLIS.with(|r| r.replace(0.0)),
                    job: crate::job_kind(&text),
                }));
                BUSY.with(|s| s.set(false));
            });
        });
        scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
        // The handler lives as long as the worker.
        handler.forget();
        let ready = crate::encode_message(&crate::FromWorker::Ready);
        let _ = scope.post_message(&JsValue::from_str(&ready));
        // Warm the import path once the page has had time to load, unless a
        // job is under way (between its awaits).
        let warm = Closure::once_into_js(move || {
            if !BUSY.with(std::cell::Cell::get) {
                crate::warm_up();
            }
        });
        let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(
            warm.unchecked_ref(),
            WARM_UP_AFTER_MS,
        );
    }

    /// When an idle worker warms the import path ([`crate::warm_up`]), ms
    /// after it started.
    const WARM_UP_AFTER_MS: i32 = 1500;

    /// Files up to this many bytes in all are fetched whole and hashed by the
    /// browser ([`prefetch`]); larger ones stream.
    const PREFETCH: usize = 64 << 20;

    /// [`PREFETCH`], unless the worker's global `__GAPSCOPE_PREFETCH_BYTES`
    /// says otherwise (the browser tests set 0 to take the streaming path
    /// with small files).
    fn prefetch_limit(scope: &DedicatedWorkerGlobalScope) -> f64 {
        js_sys::Reflect::get(scope, &JsValue::from_str("__GAPSCOPE_PREFETCH_BYTES"))
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(PREFETCH as f64)
    }

    /// Every file fetched whole; `None` when a read failed (the caller falls
    /// back to [`readers`], which says why). The reads are asked for at once
    /// (the browser's fastest way here: one after the other took about
    /// twice as long; a read does not progress while this thread parses, so
    /// they do not overlap the parse), and with a `plan` each file is parsed
    /// in turn, its copy in wasm memory dropped before the next. Nothing is
    /// hashed here (the browser's SHA-256 ran on this thread, ~30 ms for
    /// 17 MB): an analysis's manifest gets its digests from a
    /// [`crate::Job::Digests`] after the answer.
    async fn prefetch(
        files: &[File],
        id: u64,
        scope: &DedicatedWorkerGlobalScope,
        plan: Option<&crate::ReadPlan>,
    ) -> Option<Vec<crate::Attached>> {
        use wasm_bindgen_futures::JsFuture;
        let total: f64 = files.iter().map(|f| f.size()).sum();
        let of = 1 + gapscope_core::analysis::STAGES.len() as u32;
        let tell = |label: String| {
            let progress = crate::Progress { label, step: 1, of };
            let _ = scope.post_message(&JsValue::from_str(&crate::progress_message(id, progress)));
        };
        tell(format!(
            "reading {} file{}: {:.1} MB",
            files.len(),
            gapscope_core::profile::plural(files.len()),
            total / 1e6
        ));
        let mut out = Vec::with_capacity(files.len());
        let mut done = 0.0;
        let reads: Vec<js_sys::Promise> = files.iter().map(|f| f.array_buffer()).collect();
        for (k, (file, read)) in files.iter().zip(reads).enumerate() {
            let t0 = js_sys::Date::now();
            let buffer: js_sys::ArrayBuffer = JsFuture::from(read).await.ok()?.unchecked_into();
            let t1 = js_sys::Date::now();
            READ_MILLIS.with(|r| r.set(r.get() + t1 - t0));
            let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
            if files.len() > 1 {
                tell(format!(
                    "reading {} (file {} of {}; {:.1} of {:.1} MB)",
                    file.name(),
                    k + 1,
                    files.len(),
                    done / 1e6,
                    total / 1e6
                ));
            }
            done += file.size();
            out.push(match plan {
                Some(plan) => crate::read_ahead(file.name(), bytes, plan),
                None => crate::Attached::Bytes(file.name(), bytes),
            });
            PARSE_MILLIS.with(|r| r.set(r.get() + js_sys::Date::now() - t1));
        }
        Some(out)
    }

    /// One reader per file; progress counts over all of them.
    fn readers(
        files: Vec<File>,
        id: u64,
        scope: &DedicatedWorkerGlobalScope,
    ) -> Result<Vec<crate::Attached>, String> {
        let total: f64 = files.iter().map(|f| f.size()).sum();
        let done = std::rc::Rc::new(std::cell::Cell::new(0.0));
        let reader = FileReaderSync::new().map_err(|e| format!("cannot read files here: {e:?}"))?;
        Ok(files
            .into_iter()
            .map(|file| {
                let name = file.name();
                crate::Attached::Reader(
                    name.clone(),
                    Box::new(FileStream {
                        size: file.size() as usize,
                        file,
                        name,
                        at: 0,
                        buffer: Vec::new(),
                        used: 0,
                        reader: reader.clone(),
                        id,
                        scope: scope.clone(),
                        done: done.clone(),
                        total,
                    }),
                )
            })
            .collect())
    }

    /// A `File` read in chunks of [`CHUNK`] bytes (one chunk in memory).
    struct FileStream {
        file: File,
        name: String,
        size: usize,
        /// Bytes of the file read so far.
        at: usize,
        buffer: Vec<u8>,
        /// Bytes of `buffer` handed out.
        used: usize,
        reader: FileReaderSync,
        id: u64,
        scope: DedicatedWorkerGlobalScope,
        /// Bytes read of all the job's files, and their total.
        done: std::rc::Rc<std::cell::Cell<f64>>,
        total: f64,
    }

    impl FileStream {
        fn fill(&mut self) -> std::io::Result<()> {
            let failed = |what: String| std::io::Error::other(what);
            let end = (self.at + CHUNK).min(self.size);
            let blob = self
                .file
                .slice_with_f64_and_f64(self.at as f64, end as f64)
                .map_err(|e| failed(format!("{e:?}")))?;
            let t0 = js_sys::Date::now();
            let buffer = self
                .reader
                .read_as_array_buffer(&blob)
                .map_err(|e| failed(format!("{e:?}")))?;
            READ_MILLIS.with(|r| r.set(r.get() + js_sys::Date::now() - t0));
            let chunk = js_sys::Uint8Array::new(&buffer);
            let n = chunk.length() as usize;
            if n == 0 {
                return Err(failed("the file changed while it was read".into()));
            }
            self.buffer.resize(n, 0);
            chunk.copy_to(&mut self.buffer);
            self.used = 0;
            self.at += n;
            self.done.set(self.done.get() + n as f64);
            STREAMED.with(|s| s.set(s.get() + n as f64));
            let progress = crate::Progress {
                label: format!(
                    "reading {}: {:.1} of {:.1} MB",
                    self.name,
                    self.done.get() / 1e6,
                    self.total / 1e6
                ),
                step: 1,
                of: 1 + gapscope_core::analysis::STAGES.len() as u32,
            };
            let _ = self
                .scope
                .post_message(&JsValue::from_str(&crate::progress_message(
                    self.id, progress,
                )));
            Ok(())
        }
    }

    impl std::io::Read for FileStream {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.used == self.buffer.len() {
                if self.at >= self.size {
                    return Ok(0);
                }
                self.fill()?;
            }
            let n = buf.len().min(self.buffer.len() - self.used);
            buf[..n].copy_from_slice(&self.buffer[self.used..self.used + n]);
            self.used += n;
            Ok(n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_data_is_written_by_the_commands_that_make_it() {
        let req = |source| Request {
            source,
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let example = handle(&req(Source::Example)).unwrap().manifest;
        assert_eq!(
            example.command,
            "gapscope synth > synthetic-example.csv && gapscope report --profiles synthetic-example.csv --alpha 10 --bootstrap 0 --seed 0 --grid 0.01 10000 25 --json"
        );
        // The example re-sent as a named text (its roles changed) is still built in.
        let mut r = req(Source::File {
            name: EXAMPLE_LABEL.into(),
            text: EXAMPLE_CSV.into(),
        });
        r.roles.no_outcome = true;
        let m = handle(&r).unwrap().manifest;
        assert!(
            m.command
                .starts_with("gapscope synth > synthetic-example.csv && ")
                && m.command.contains(" --no-outcome "),
            "{}",
            m.command
        );
        // A user's file of that name is not.
        let mine = handle(&req(Source::File {
            name: "synthetic-example.csv".into(),
            text: EXAMPLE_CSV.into(),
        }))
        .unwrap()
        .manifest;
        assert!(
            mine.command.starts_with("gapscope report "),
            "{}",
            mine.command
        );
        let corpus = handle(&req(Source::Corpus)).unwrap().manifest;
        assert_eq!(
            corpus.command,
            "gapscope synth-trajectories --out synthetic-trajectories && gapscope report --profiles synthetic-trajectories/foundational.csv --trajectories synthetic-trajectories/trajectories.jsonl --alpha 10 --bootstrap 0 --seed 0 --grid 0.01 10000 25 --json"
        );
    }

    #[test]
    fn example_round_trips_through_json() {
        let req = Request {
            source: Source::Example,
            alpha: 10.0,
            bootstrap: 200,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let direct = handle(&req).unwrap();
        assert!(direct.synthetic);
        assert_eq!(direct.source, "synthetic example");
        assert_eq!(
            direct.report.summary,
            "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
        );
        let messages = exchange(7, Job::Analyze(req));
        let Some(FromWorker::Done {
            id: 7,
            answer: Answer::Analyze(answer),
        }) = messages.last()
        else {
            panic!("no answer: {messages:?}")
        };
        // f64 survives JSON text exactly (shortest round-trip formatting).
        assert_eq!(answer.as_ref().as_ref().unwrap(), &direct);
    }

    /// Send one job through the JSON protocol; every message posted back.
    fn exchange(id: u64, job: Job) -> Vec<FromWorker> {
        let mut posted = Vec::new();
        handle_message(&encode_envelope(&Envelope { id, job }), vec![], &mut |m| {
            posted.push(decode_message(&m).unwrap())
        });
        posted
    }

    /// The import job reads the files once and answers exactly what the
    /// analysis job and the overview job answer apart, also when the
    /// analysis fails (trajectories without a foundational profile) or the
    /// files cannot be read at all.
    #[test]
    fn the_import_job_equals_the_analysis_and_the_overview_apart() {
        // α 10, 20 bootstrap draws, seed 1: every case's (and the report's) settings.
        let request = |source| Request {
            source,
            alpha: 10.0,
            bootstrap: 20,
            seed: 1,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let traj = corpus_trajectories().as_bytes().to_vec();
        type Files = Vec<(String, Vec<u8>)>;
        let cases: Vec<(Source, Files)> = vec![
            (Source::Corpus, vec![]),
            (
                Source::Attached {
                    names: vec!["t.jsonl".into()],
                },
                vec![("t.jsonl".into(), traj)],
            ),
            (
                Source::Attached {
                    names: vec!["bad.jsonl".into()],
                },
                vec![("bad.jsonl".into(), {
                    // A trajectory line, then bytes that are not UTF-8.
                    let mut b = corpus_trajectories()
                        .lines()
                        .next()
                        .unwrap()
                        .as_bytes()
                        .to_vec();
                    b.extend_from_slice(b"\n\xff\xfe\n");
                    b
                })],
            ),
            (Source::Example, vec![]),
            // An exported report (over 64 KB: a reader reads it whole once
            // its head shows it is one), re-imported with its settings.
            (
                Source::Attached {
                    names: vec!["report.json".into()],
                },
                vec![("report.json".into(), {
                    let mut a = handle(&request(Source::Example)).unwrap().report;
                    a.warnings.push("x".repeat(70_000));
                    serde_json::to_vec_pretty(&a).unwrap()
                })],
            ),
        ];
        let mut shapes = Vec::new();
        for (source, attached) in cases {
            let req = request(source.clone());
            let Answer::Import { analysis, overview } =
                run_job(&Job::Import(req.clone()), attach(&attached), &mut |_| {})
            else {
                panic!("not an import answer")
            };
            let Answer::Analyze(apart) =
                run_job(&Job::Analyze(req.clone()), attach(&attached), &mut |_| {})
            else {
                panic!()
            };
            let Answer::Overview(o_apart) = run_job(
                &Job::Overview {
                    source: source.clone(),
                    options: TrajectoryOptions::default(),
                },
                attach(&attached),
                &mut |_| {},
            ) else {
                panic!()
            };
            // The same files as readers (the browser's streams): the same answers.
            let readers = attached
                .iter()
                .map(|(n, b)| {
                    Attached::Reader(n.clone(), Box::new(std::io::Cursor::new(b.clone())))
                })
                .collect();
            let Answer::Import {
                analysis: streamed,
                overview: o_streamed,
            } = run_job(&Job::Import(req.clone()), readers, &mut |_| {})
            else {
                panic!()
            };
            assert_eq!(analysis, streamed, "{source:?}");
            if attached.iter().any(|(n, _)| n == "report.json") {
                assert!(matches!(analysis.as_ref(), Ok(a) if a.imported));
            }
            assert_eq!(overview, o_streamed, "{source:?}");
            assert_eq!(analysis, apart, "{source:?}");
            assert_eq!(overview, o_apart, "{source:?}");
            // Read ahead, as the browser does with fetched files (each parsed
            // as it comes, as the job's read plan says; nothing hashed): the
            // same answers, the manifest's inputs then from a digests job.
            let import = Job::Import(req.clone());
            let text = encode_envelope(&Envelope {
                id: 3,
                job: import.clone(),
            });
            if let Some(plan) = read_plan(&text) {
                let ahead = |plan: &ReadPlan| {
                    attached
                        .iter()
                        .map(|(n, b)| read_ahead(n.clone(), b.clone(), plan))
                        .collect::<Vec<_>>()
                };
                let Answer::Import {
                    analysis: early,
                    overview: o_early,
                } = run_job(&import, ahead(&plan), &mut |_| {})
                else {
                    panic!()
                };
                assert_eq!(overview, o_early, "{source:?}");
                let Answer::Digests(digests) = run_job(
                    &Job::Digests {
                        source: source.clone(),
                    },
                    attach(&attached),
                    &mut |_| {},
                ) else {
                    panic!()
                };
                let digests = digests.unwrap();
                assert_eq!(digests.len(), attached.len());
                match (analysis.as_ref(), *early) {
                    (Ok(a), Ok(mut e)) => {
                        assert!(e.manifest.inputs.is_empty(), "{source:?}");
                        e.manifest = e.manifest.with_inputs(digests);
                        assert_eq!(a, &e, "{source:?}");
                    }
                    (Err(a), Err(e)) => assert_eq!(a, &e, "{source:?}"),
                    (a, e) => panic!("{source:?}: {a:?} but read ahead {e:?}"),
                }
                let overview_job = Job::Overview {
                    source: source.clone(),
                    options: TrajectoryOptions::default(),
                };
                let plan = read_plan(&encode_envelope(&Envelope {
                    id: 4,
                    job: overview_job.clone(),
                }))
                .unwrap();
                let Answer::Overview(o_ahead) = run_job(&overview_job, ahead(&plan), &mut |_| {})
                else {
                    panic!()
                };
                assert_eq!(o_ahead, o_apart, "{source:?}");
            } else {
                assert!(
                    attached.is_empty(),
                    "{source:?}: attached files have a read plan"
                );
            }
            shapes.push((
                analysis.is_ok(),
                match *overview {
                    Ok(Some(_)) => "overview",
                    Ok(None) => "none",
                    Err(_) => "error",
                },
            ));
        }
        // Each case is a different path: both answers; an analysis error with
        // an overview (no foundational profile); a read error; no trajectories.
        assert_eq!(
            shapes,
            [
                (true, "overview"),
                (false, "overview"),
                (false, "error"),
                (true, "none"),
                (true, "none")
            ]
        );
    }

    #[test]
    fn proxy_labels_come_from_the_tau2_files_and_leave_the_others_out() {
        let files = vec![
            ("results.json".to_string(), warm_up_tau2(6).into_bytes()),
            ("f.csv".to_string(), b"model,family,TU\na,A,1\n".to_vec()),
        ];
        let source = |files: &[(String, Vec<u8>)]| Source::Attached {
            names: files.iter().map(|(n, _)| n.clone()).collect(),
        };
        let job = Job::ProxyLabels {
            source: source(&files),
        };
        let Answer::ProxyLabels(answer) = run_job(&job, attach(&files), &mut |_| {}) else {
            panic!()
        };
        let p = answer.unwrap();
        assert_eq!(p.labelled, ["results.json"]);
        assert_eq!(p.left_out, ["f.csv"]);
        assert!(p
            .csv
            .starts_with("trajectory_id,operation,requirement,label,turn,why\n"));
        // Every label names a simulation of the file (warm-0 … warm-5).
        assert!(p.csv.lines().skip(1).count() > 0);
        assert!(p.csv.lines().skip(1).all(|l| l.starts_with("warm-")));
        let only_csv = &files[1..];
        let Answer::ProxyLabels(answer) = run_job(
            &Job::ProxyLabels {
                source: source(only_csv),
            },
            attach(only_csv),
            &mut |_| {},
        ) else {
            panic!()
        };
        assert_eq!(
            *answer,
            Err("proxy labels need τ²-bench results files; none among f.csv".to_string())
        );
    }

    #[test]
    fn the_generated_corpus_is_the_committed_one() {
        assert_eq!(
            corpus_trajectories(),
            include_str!("../../../assets/synthetic-trajectories/trajectories.jsonl")
        );
    }

    #[test]
    fn a_jobs_kind_and_read_plan_come_from_its_text() {
        let attached = Source::Attached {
            names: vec!["t.jsonl".into()],
        };
        let text = |job: Job| encode_envelope(&Envelope { id: 1, job });
        let trajectory = text(Job::Trajectory {
            source: attached.clone(),
            options: TrajectoryOptions::default(),
            id: "t7".into(),
        });
        assert_eq!(job_kind(&trajectory), "Trajectory");
        assert_eq!(
            read_plan(&trajectory).map(|p| p.messages),
            Some(Messages::Only("t7".into()))
        );
        // Jobs that read their files otherwise, or no attached files.
        let digests = text(Job::Digests { source: attached });
        assert_eq!(job_kind(&digests), "Digests");
        assert_eq!(read_plan(&digests), None);
        assert_eq!(read_plan(&text(Job::Recovery { seeds: 1 })), None);
        assert_eq!(job_kind("not json"), "");
    }

    /// The warm-up's synthetic τ²-bench file goes the τ²-bench path (light,
    /// contents skipped) and gives trajectories with gold actions; the
    /// warm-up itself runs.
    #[test]
    fn the_warm_up_exercises_the_tau2_and_jsonl_readers() {
        use gapscope_core::trajectory::{detect, read_any_bytes, ReadOptions, TrajectoryFormat};
        let text = warm_up_tau2(30);
        assert_eq!(detect(&text), Some(TrajectoryFormat::Tau2));
        let light = ReadOptions {
            light: true,
            ..ReadOptions::default()
        };
        let c = read_any_bytes("results.json", text.as_bytes(), &light).unwrap();
        assert_eq!(c.trajectories.len(), 30);
        assert!(c.trajectories.iter().all(|t| t.gold_actions.len() == 1
            && t.message_stats().messages == 4
            && t.message_stats().tool_calls == 1));
        assert_eq!(
            c.trajectories
                .iter()
                .filter(|t| t.gold_actions[0].matched)
                .count(),
            30,
            "every recorded call matches its gold action"
        );
        warm_up();
    }

    #[test]
    fn the_embedded_corpus_gives_an_analysis_an_overview_and_stability() {
        let req = Request {
            source: Source::Corpus,
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let a = handle(&req).unwrap();
        assert!(a.synthetic);
        assert_eq!(a.source, CORPUS_LABEL);
        assert!(
            a.report.summary.starts_with(
                "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
            ),
            "{}",
            a.report.summary
        );
        let Answer::Overview(o) = run_job(
            &Job::Overview {
                source: Source::Corpus,
                options: TrajectoryOptions::default(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let o = (*o).unwrap().unwrap();
        assert_eq!(o.groups, 12);
        assert_eq!(o.trajectories.len(), 15 * 60);
        let Answer::Stability(st) = run_job(
            &Job::Stability {
                source: Source::Corpus,
                options: TrajectoryOptions::default(),
                settings: StabilitySettings {
                    bootstrap: 50,
                    splits: 3,
                    ..Default::default()
                },
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let st = (*st).unwrap();
        assert_eq!(st.stability.len(), 8, "seven operations and the macro");
        let Answer::Trajectory(t) = run_job(
            &Job::Trajectory {
                source: Source::Corpus,
                options: TrajectoryOptions::default(),
                id: o.trajectories[5].id.clone(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        assert_eq!((*t).unwrap().unwrap().id, o.trajectories[5].id);
    }

    #[test]
    fn evidence_and_runtime_jobs_answer_with_their_reports() {
        let Answer::Evidence(r) = run_job(
            &Job::Evidence {
                source: None,
                bootstrap: 200,
                seed: 0,
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let r = (*r).unwrap();
        assert_eq!(r.cases.len(), 42);
        assert_eq!(r.episodes.len(), 168);
        // The same report as the core on the same texts and settings.
        let direct = evaluate(
            WORKED_CASES,
            WORKED_TRAJECTORIES,
            &EvidenceSettings {
                bootstrap: 200,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r, direct);
        // Two files in either order; the trajectories carry `messages`.
        let files = Source::Files {
            files: vec![
                ("t.jsonl".into(), WORKED_TRAJECTORIES.into()),
                ("c.jsonl".into(), WORKED_CASES.into()),
            ],
        };
        let Answer::EvidenceMessages(m) = run_job(
            &Job::EvidenceMessages {
                source: Some(files),
                id: r.episodes[0].trajectory_id.clone(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        assert!(!(*m).unwrap().is_empty());
        let Answer::Runtime(rt) = run_job(
            &Job::Runtime {
                source: None,
                simulate: Some(SimParams {
                    instances: 2,
                    caps: vec![5, 60],
                    ..Default::default()
                }),
                bootstrap: 100,
                seed: 0,
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let (report, log) = (*rt).unwrap();
        assert_eq!(report.episodes_read, 2 * 2 * 4);
        assert_eq!(log.unwrap().lines().count(), 16);
    }

    #[test]
    fn progress_comes_before_the_answer_in_stage_order() {
        let req = Request {
            source: Source::Example,
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let messages = exchange(3, Job::Analyze(req));
        let steps: Vec<(u32, u32, String)> = messages
            .iter()
            .filter_map(|m| match m {
                FromWorker::Progress { id: 3, progress } => {
                    Some((progress.step, progress.of, progress.label.clone()))
                }
                _ => None,
            })
            .collect();
        // The example has a reward and nested selection is on by default:
        // reading + the six analysis stages, in order, each once.
        let labels: Vec<&str> = steps.iter().map(|s| s.2.as_str()).collect();
        assert_eq!(
            labels,
            [
                "reading 1 file",
                "correlations",
                "held-out fits of the operations",
                "reward from F",
                "reward from O",
                "reward from F+O",
                "nested selection"
            ]
        );
        assert!(steps
            .iter()
            .enumerate()
            .all(|(i, s)| s.0 == i as u32 + 1 && s.1 == 7));
        assert_eq!(messages.len(), 8);
        assert!(matches!(messages[7], FromWorker::Done { id: 3, .. }));
    }

    #[test]
    fn errors_name_the_file() {
        let req = Request {
            source: Source::File {
                name: "bad.csv".into(),
                text: "model,family,TU\nm,A,x\n".into(),
            },
            alpha: 10.0,
            bootstrap: 200,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let messages = exchange(1, Job::Analyze(req.clone()));
        let Some(FromWorker::Done {
            answer: Answer::Analyze(answer),
            ..
        }) = messages.last()
        else {
            panic!("no error: {messages:?}")
        };
        let err = answer.as_ref().as_ref().unwrap_err();
        assert_eq!(
            err,
            "bad.csv: line 2, column `TU`: expected a number (or an empty cell for a missing value), found `x`"
        );
        let bad_alpha = Request { alpha: -1.0, ..req };
        assert!(handle(&bad_alpha).unwrap_err().contains("alpha must be"));
        let mut posted = Vec::new();
        handle_message("{\"id\": 12, \"job\": \"Nonsense\"}", vec![], &mut |m| {
            posted.push(m)
        });
        match decode_message(&posted[0]).unwrap() {
            FromWorker::Done {
                id: 12,
                answer: Answer::Failed(e),
            } => assert!(
                e.starts_with("internal error: the worker could not read its job"),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_pair_from_another_dataset_is_a_warning_not_a_failure() {
        let mut req = Request {
            source: Source::Example,
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: Some(Pair {
                foundational: "CE".into(),
                operation: "RC".into(),
                provider: Some("Aurora".into()),
            }),
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let a = handle(&req).unwrap();
        let s = a.report.association_sensitivity.unwrap();
        assert_eq!(s.provider_removed.unwrap().label, "without Aurora");
        assert_eq!(
            a.manifest.inputs[0].sha256,
            gapscope_core::manifest::sha256_hex(EXAMPLE_CSV.as_bytes())
        );
        req.pair = Some(Pair {
            foundational: "CE".into(),
            operation: "RC".into(),
            provider: Some("Nowhere".into()),
        });
        let a = handle(&req).unwrap();
        assert!(a.report.association_sensitivity.is_none());
        assert!(a
            .report
            .warnings
            .iter()
            .any(|w| w.starts_with("association sensitivity: no family `Nowhere`")));
    }

    #[test]
    fn several_files_are_joined_and_the_join_is_reported() {
        let req = Request {
            source: Source::Files {
                files: vec![
                    (
                        "f.csv".into(),
                        "model,family,TU,RE\na,A,1,2\nb,B,3,5\nc,C,5,6\nd,D,2,2\n".into(),
                    ),
                    (
                        "o.csv".into(),
                        "model,family,GI,PL\na,A,9,10\nb,B,7,8\nc,C,4,4\ne,E,1,1\n".into(),
                    ),
                ],
            },
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
            macro_definition: MacroDefinition::Mean,
            trajectories: TrajectoryOptions::default(),
            derived: Vec::new(),
        };
        let a = handle(&req).unwrap();
        assert_eq!(a.source, "f.csv + o.csv");
        assert!(
            a.report.summary.ends_with("(joined on model from 2 files)"),
            "{}",
            a.report.summary
        );
        assert_eq!(a.report.models, ["a", "b", "c", "d", "e"]);
        assert!(a.report.warnings[0].starts_with("not in f.csv: e"));
        assert_eq!(a.manifest.inputs.len(), 2);
        assert_eq!(a.join.unwrap().joined, 3);
        let bad = Request {
            source: Source::Files {
                files: vec![
                    ("f.csv".into(), "model,family,TU\na,A,x\n".into()),
                    ("o.csv".into(), "model,family,GI\na,A,1\n".into()),
                ],
            },
            ..req
        };
        assert!(handle(&bad)
            .unwrap_err()
            .starts_with("f.csv: line 2, column `TU`"));
    }
}
