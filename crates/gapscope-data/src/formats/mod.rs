//! Trajectory files: one module per format and the sniffer that tells them
//! apart ([`detect`], [`detect_bytes`], [`read_any_bytes`]).
//!
//! - [`jsonl`]: canonical JSONL, line by line (a malformed line is reported
//!   with its number and the rest still read).
//! - [`tau2`]: τ²-bench results files.
//! - [`inspect`]: Inspect AI `.eval` (zip; deflate or zstd) and `.json` logs.

#[cfg(feature = "more-formats")]
pub mod atif;
#[cfg(feature = "more-formats")]
pub mod claude_code;
#[cfg(feature = "more-formats")]
pub mod codex;
pub mod folder;
#[cfg(feature = "more-formats")]
pub mod gemini_cli;
#[cfg(feature = "more-formats")]
pub mod harbor;
pub mod inspect;
pub mod jsonl;
#[cfg(feature = "more-formats")]
pub mod openhands;
pub mod parquet;
pub mod probe;
#[cfg(feature = "more-formats")]
mod sessions;
#[cfg(feature = "more-formats")]
pub mod simple;
#[cfg(feature = "more-formats")]
pub mod swe_agent;
pub mod tau2;
pub mod tau3;
#[cfg(feature = "more-formats")]
pub mod taubench_v1;

use serde::{Deserialize, Serialize};

use crate::trajectory::{bad_name, LineError, Trajectory};
#[cfg(feature = "readers")]
use crate::trajectory::{check_names, UNKNOWN_DOMAIN};
pub use jsonl::{read_jsonl, read_jsonl_with, JsonlLines};

/// What a JSONL file gave: the trajectories read and the lines skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Corpus {
    pub trajectories: Vec<Trajectory>,
    pub skipped: Vec<LineError>,
    /// How score values became rewards (Inspect logs; one per log read).
    #[serde(default)]
    pub reward_mappings: Vec<crate::formats::inspect::RewardMapping>,
    /// Lines read and kept that still deserve a look (canonical JSONL: tool
    /// results that answer no earlier tool call of their trajectory).
    #[serde(default)]
    pub notes: Vec<LineError>,
    /// What the reader says of the file as a whole (e.g. a τ²-bench file
    /// that names no domain), one sentence each, without the file name.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The format the file was read as (set by [`read_any_bytes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<TrajectoryFormat>,
    /// Trajectories left out of every denominator because their run failed
    /// for a reason that is not the agent's (a Harbor trial whose
    /// environment or verifier could not be set up, or that has an
    /// exception and no verifier reward): counted and listed, never scored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<Excluded>,
    /// The τ²-bench grading version of each file read, where it says
    /// (`info.git_commit`, `reward_info.reward_basis`): compared across the
    /// files by [`tau3::grading_warnings`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grading: Vec<tau3::Grading>,
}

/// A trajectory [`Corpus::excluded`] from the scores, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excluded {
    /// The trajectory's (trial's) name in its file or folder.
    pub id: String,
    /// The task it ran, `domain/task` or the bare id.
    pub task: String,
    /// Why it is excluded (e.g. the exception's type and message).
    pub reason: String,
    /// The model it ran, where the file says (Harbor's `agent_info` or
    /// the trial's configuration), for comparisons keyed by model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// [`check_names`] over a file read whole (τ²-bench, Inspect): the first bad
/// name refuses the file (its model comes from the file's metadata, so
/// every trajectory would carry it).
#[cfg(feature = "readers")]
fn check_corpus_names(c: &Corpus, model: bool) -> Result<(), String> {
    c.trajectories
        .iter()
        .try_for_each(|t| check_names(t, model))
}

/// What kind of trajectory file a text is, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TrajectoryFormat {
    /// Canonical JSONL: the first non-blank line is an object with `task_id`.
    Jsonl,
    /// A τ²-bench results file: an object with `simulations`, or a bare list
    /// of simulations.
    Tau2,
    /// One τ²-bench / τ³ simulation: an object with `task_id` and a
    /// simulation's fields (`reward_info`, `ticks`, `start_time`, …), or the
    /// `{_about, task, simulation_run}` wrapper.
    Tau2Simulation,
    /// The metadata file of a τ³ results directory (`results.json` with
    /// `info` and `tasks` but no `simulations`): read with its folder.
    Tau3Metadata,
    /// A τ²-bench tasks file (a list of tasks with `user_scenario` or
    /// `evaluation_criteria`): tasks, not trajectories.
    Tau2Tasks,
    /// An Inspect AI `.json` log (an object with `version`/`status` and `eval`).
    InspectJson,
    /// An Inspect AI `.eval` log (a zip archive; bytes only, see [`detect_bytes`]).
    InspectEval,
    /// τ-bench (v1) results: records `{task_id: int, reward, info, traj, trial}`,
    /// as a list or one bare object.
    TauBenchV1,
    /// An ATIF trajectory (Harbor's `trajectory.json`): `schema_version`
    /// `ATIF-v1.x` and `steps`.
    Atif,
    /// A SWE-agent `.traj` (`history` and/or `trajectory`, no `messages`).
    SweAgent,
    /// A mini-swe-agent trajectory (`{info, messages, trajectory_format}`).
    MiniSweAgent,
    /// A Gemini CLI session (`sessionId`, `projectHash`, `messages`).
    GeminiCli,
    /// An OpenHands event list (`[{id, source, action | observation, …}]`).
    OpenHandsEvents,
    /// OpenHands evaluation output (`output.jsonl`: `instance_id`, `history`).
    OpenHandsOutput,
    /// A Claude Code session JSONL (`sessionId`, `type`, `message` a line).
    ClaudeCode,
    /// A Codex CLI rollout JSONL (`{timestamp, type, payload}` a line).
    Codex,
    /// A Parquet trajectory dataset (bytes only: the `PAR1` magic, see
    /// [`detect_bytes`]); read with the `parquet` feature.
    Parquet,
}

impl TrajectoryFormat {
    /// The format's name as the docs and the messages say it.
    pub fn label(self) -> &'static str {
        match self {
            TrajectoryFormat::Jsonl => "canonical JSONL",
            TrajectoryFormat::Tau2 => "τ²-bench results",
            TrajectoryFormat::Tau2Simulation => "τ²-bench simulation",
            TrajectoryFormat::Tau3Metadata => "τ³ results directory metadata",
            TrajectoryFormat::Tau2Tasks => "τ²-bench tasks file",
            TrajectoryFormat::InspectJson => "Inspect AI `.json` log",
            TrajectoryFormat::InspectEval => "Inspect AI `.eval` log",
            TrajectoryFormat::TauBenchV1 => "τ-bench (v1) results",
            TrajectoryFormat::Atif => "ATIF trajectory",
            TrajectoryFormat::SweAgent => "SWE-agent `.traj`",
            TrajectoryFormat::MiniSweAgent => "mini-swe-agent trajectory",
            TrajectoryFormat::GeminiCli => "Gemini CLI session",
            TrajectoryFormat::OpenHandsEvents => "OpenHands event list",
            TrajectoryFormat::OpenHandsOutput => "OpenHands `output.jsonl`",
            TrajectoryFormat::ClaudeCode => "Claude Code session JSONL",
            TrajectoryFormat::Codex => "Codex rollout JSONL",
            TrajectoryFormat::Parquet => "Parquet trajectory dataset",
        }
    }
}

/// Recognize a trajectory file by its content (a JSON profile file, an object
/// with `models`, is not one). The one detector: every format's rule is
/// here, in the order they are tried ([`probe::probe`] gives the keys).
pub fn detect(text: &str) -> Option<TrajectoryFormat> {
    if crate::formats::inspect::looks_like_json_log(text) {
        return Some(TrajectoryFormat::InspectJson);
    }
    detect_shape(&probe::probe(text))
}

/// [`detect`] on a probed shape.
pub fn detect_shape(shape: &probe::Shape) -> Option<TrajectoryFormat> {
    use probe::Shape;
    use TrajectoryFormat as F;
    // Markers of a τ² simulation that canonical JSONL lines do not carry.
    const SIMULATION: &[&str] = &["reward_info", "ticks", "start_time", "agent_cost", "seed"];
    match shape {
        Shape::Object(r) if r.has("simulation_run") => Some(F::Tau2Simulation),
        Shape::Object(r) if r.has("simulations") => Some(F::Tau2),
        Shape::Object(r) if r.has_all(&["info", "tasks"]) && !r.has("task_id") => {
            Some(F::Tau3Metadata)
        }
        Shape::Object(r)
            if r.has("steps")
                && r.string("schema_version")
                    .is_some_and(|v| v.starts_with("ATIF")) =>
        {
            Some(F::Atif)
        }
        Shape::Object(r)
            if r.has_all(&["info", "messages"])
                && r.string("trajectory_format")
                    .is_some_and(|v| v.starts_with("mini-swe-agent")) =>
        {
            Some(F::MiniSweAgent)
        }
        Shape::Object(r) if r.has_all(&["sessionId", "messages"]) => Some(F::GeminiCli),
        Shape::Object(r)
            if r.has_any(&["history", "trajectory"])
                && !r.has_any(&["messages", "steps", "instance_id", "task_id"]) =>
        {
            Some(F::SweAgent)
        }
        Shape::Object(r) | Shape::Array { first: Some(r), .. }
            if r.has_all(&["task_id", "traj"]) && !r.has("messages") =>
        {
            Some(F::TauBenchV1)
        }
        Shape::Object(r) if r.has("task_id") && r.has_any(SIMULATION) && !r.has("model") => {
            Some(F::Tau2Simulation)
        }
        Shape::Array { first: Some(r), .. } if r.has("task_id") => Some(F::Tau2),
        Shape::Array { first: Some(r), .. }
            if r.has_any(&["user_scenario", "evaluation_criteria"]) =>
        {
            Some(F::Tau2Tasks)
        }
        Shape::Array { first: Some(r), .. }
            if r.has("source") && r.has_any(&["action", "observation"]) =>
        {
            Some(F::OpenHandsEvents)
        }
        Shape::Object(_) | Shape::Lines(_) => detect_lines(shape.lines()),
        _ => None,
    }
}

/// The line-oriented formats, by their first lines.
fn detect_lines(lines: &[probe::Record]) -> Option<TrajectoryFormat> {
    use TrajectoryFormat as F;
    let first = lines.first()?;
    if first.has("task_id") {
        return Some(F::Jsonl);
    }
    if first.has_all(&["instance_id", "history"]) {
        return Some(F::OpenHandsOutput);
    }
    if lines
        .iter()
        .any(|r| r.has_all(&["sessionId", "type"]) && r.has_any(&["message", "uuid"]))
    {
        return Some(F::ClaudeCode);
    }
    if first.has_all(&["timestamp", "type", "payload"])
        && lines.iter().any(|r| {
            matches!(
                r.string("type"),
                Some("session_meta" | "response_item" | "turn_context" | "event_msg")
            )
        })
    {
        return Some(F::Codex);
    }
    None
}

/// Read a trajectory file of any text format. τ²-bench simulations take the
/// model from `info.agent_info.llm` unless `model` overrides it (metadata can
/// be wrong; bare lists have none, and then the file name is used).
pub fn read_any(name: &str, text: &str, model: Option<&str>) -> Result<Corpus, String> {
    let options = ReadOptions {
        model: model.map(str::to_string),
        ..ReadOptions::default()
    };
    read_any_bytes(name, text.as_bytes(), &options)
}

/// Why each trajectory reader declined a file that gave no trajectory, one
/// clause per reader (`reader: why`), for the error that names the file
/// (issue 14: an explicitly named file that yields nothing is an error).
pub fn readers_declined(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    if crate::formats::inspect::is_zip(bytes) {
        out.push("Inspect AI `.eval` log: a zip archive, but no sample in it could be read".into());
        return out;
    }
    if crate::formats::parquet::is_parquet(bytes) {
        out.push(
            "Parquet trajectory dataset: a Parquet file, but no row in it could be read".into(),
        );
        return out;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        out.push("the text readers: not UTF-8 text".into());
        out.push("Inspect AI `.eval` log: not a zip archive".into());
        return out;
    };
    let text = text.trim_start_matches('\u{feff}');
    let jsonl = read_jsonl(text);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    out.push(match jsonl.skipped.first() {
        _ if lines == 0 => "canonical JSONL: the file is empty".into(),
        Some(first) => format!(
            "canonical JSONL: {} of {lines} non-blank line(s) skipped (first: {first})",
            jsonl.skipped.len()
        ),
        None if jsonl.trajectories.is_empty() => "canonical JSONL: no line is a trajectory".into(),
        None => "canonical JSONL: read".into(),
    });
    let t = text.trim_start();
    out.push(if t.starts_with('{') || t.starts_with('[') {
        match crate::formats::tau2::read_results(text) {
            Err(e) => format!("τ²-bench results: {e}"),
            Ok(r) if r.simulations.is_empty() => {
                "τ²-bench results: no simulation (expected an object with a `simulations` list, or a list of simulations)".into()
            }
            Ok(_) => "τ²-bench results: read".into(),
        }
    } else {
        "τ²-bench results: not a JSON object or list".into()
    });
    out.push(if crate::formats::inspect::looks_like_json_log(t) {
        "Inspect AI `.json` log: no sample could be read".into()
    } else {
        "Inspect AI `.json` log: no top-level `eval` with `version` or `status`".into()
    });
    out.push("Inspect AI `.eval` log: not a zip archive".into());
    out.push(format!(
        "the other readers (τ³ simulation, τ-bench v1, ATIF, SWE-agent, mini-swe-agent, Gemini CLI, OpenHands, Claude Code, Codex): {}, which none of them takes",
        describe(&probe::probe(text))
    ));
    out
}

/// What the detector saw of a text, for a person: its kind and keys.
fn describe(shape: &probe::Shape) -> String {
    fn keys(r: &probe::Record) -> String {
        const SHOWN: usize = 8;
        let mut k: Vec<String> = r
            .keys
            .iter()
            .take(SHOWN)
            .map(|k| format!("`{k}`"))
            .collect();
        if r.keys.len() > SHOWN {
            k.push(format!("… ({} keys)", r.keys.len()));
        }
        if k.is_empty() {
            "no keys".into()
        } else {
            k.join(", ")
        }
    }
    match shape {
        probe::Shape::Object(r) => format!("a JSON object with {}", keys(r)),
        probe::Shape::Array {
            len,
            first: Some(r),
        } => {
            format!("a JSON list of {len} whose first element has {}", keys(r))
        }
        probe::Shape::Array { len, first: None } => {
            format!("a JSON list of {len} whose first element is not an object")
        }
        probe::Shape::Lines(lines) => {
            format!("JSON lines whose first has {}", keys(&lines[0]))
        }
        probe::Shape::Other => "not JSON".into(),
    }
}

const NOT_TRAJECTORIES: &str = "not a trajectory file (canonical JSONL, τ²-bench results or simulations, an Inspect AI `.eval` or `.json` log, τ-bench v1 results, ATIF, SWE-agent, mini-swe-agent, Gemini CLI, OpenHands, Claude Code, Codex or a Parquet trajectory dataset; see docs/formats.md)";

/// Recognize a trajectory file by its bytes: an Inspect `.eval` log is a zip
/// archive, a Parquet dataset starts with `PAR1` (recognized in every
/// build, read only with the `parquet` feature); UTF-8 text goes to [`detect`].
pub fn detect_bytes(bytes: &[u8]) -> Option<TrajectoryFormat> {
    if crate::formats::inspect::is_zip(bytes) {
        return Some(TrajectoryFormat::InspectEval);
    }
    if crate::formats::parquet::is_parquet(bytes) {
        return Some(TrajectoryFormat::Parquet);
    }
    std::str::from_utf8(bytes).ok().and_then(detect)
}

/// Options of [`read_any_bytes`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// Name every trajectory's model so (file metadata can be wrong).
    pub model: Option<String>,
    /// Inspect logs: the score that becomes the reward.
    pub score: crate::formats::inspect::ScoreChoice,
    /// Drop messages as they are read (keeping their counts).
    #[serde(default)]
    pub light: bool,
    /// With `light`: the one trajectory whose messages are kept.
    #[serde(default)]
    pub keep: Option<String>,
    /// The domain of trajectories whose file names none (a bare τ²-bench
    /// list, canonical lines without `domain`).
    #[serde(default)]
    pub domain: Option<String>,
}

/// Read a trajectory file of any format from its bytes (Inspect `.eval` logs
/// are zip archives; everything else must be UTF-8 text and goes the way of
/// [`read_any`]).
pub fn read_any_bytes(name: &str, bytes: &[u8], options: &ReadOptions) -> Result<Corpus, String> {
    check_model_option(options)?;
    let format = detect_bytes(bytes).ok_or_else(|| match crate::text::utf8(bytes) {
        Err(e) => format!("{e}, and not a zip archive"),
        Ok(_) => NOT_TRAJECTORIES.to_string(),
    })?;
    read_as(format, name, bytes, options)
}

/// [`read_any_bytes`] of bytes whose format [`detect_bytes`] gave already
/// (ingestion detects once to tell trajectories from other files).
pub fn read_bytes_as(
    format: TrajectoryFormat,
    name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Corpus, String> {
    check_model_option(options)?;
    read_as(format, name, bytes, options)
}

/// A `--model` that cannot be a model's name refuses every file.
fn check_model_option(options: &ReadOptions) -> Result<(), String> {
    match options
        .model
        .as_deref()
        .and_then(|m| bad_name("model name", m))
    {
        Some(why) => Err(format!("{why} (the name given for every trajectory)")),
        None => Ok(()),
    }
}

fn read_as(
    format: TrajectoryFormat,
    name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Corpus, String> {
    let mut corpus = read_format(format, name, bytes, options)?;
    corpus.format.get_or_insert(format);
    if options.light {
        for t in &mut corpus.trajectories {
            if options.keep.as_deref() != Some(t.id.as_str()) {
                t.lighten();
            }
        }
    }
    Ok(corpus)
}

/// Canonical JSONL, every trajectory's model the one given if any.
fn read_jsonl_as(text: &str, options: &ReadOptions) -> Corpus {
    let mut c = read_jsonl_with(text, options);
    if let Some(m) = &options.model {
        for t in &mut c.trajectories {
            t.model.clone_from(m);
        }
    }
    c
}

/// Without the `readers` feature (the page's first-load worker, which reads
/// only the embedded example and corpus): canonical JSONL alone; every other
/// format is recognized and refused, so the build links no other reader.
#[cfg(not(feature = "readers"))]
fn read_format(
    format: TrajectoryFormat,
    _name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Corpus, String> {
    match format {
        TrajectoryFormat::Jsonl => {
            let text = crate::text::utf8(bytes).map_err(|e| e.to_string())?;
            Ok(read_jsonl_as(text, options))
        }
        other => Err(format!(
            "a {}, which this build of gapscope does not read (built without the `readers` feature: the page's worker of the embedded data; the command line and the page's files worker read it)",
            other.label()
        )),
    }
}

#[cfg(feature = "readers")]
fn read_format(
    format: TrajectoryFormat,
    name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Corpus, String> {
    let model = options.model.as_deref();
    let mut c = match format {
        TrajectoryFormat::InspectEval => {
            crate::formats::inspect::read_eval(name, bytes, model, &options.score)
                .map_err(|e| e.to_string())?
        }
        TrajectoryFormat::Parquet => crate::formats::parquet::read(name, bytes, options)?,
        _ => {
            let text =
                crate::text::utf8(bytes).map_err(|e| format!("{e}, and not a zip archive"))?;
            read_text(format, name, text, options)?
        }
    };
    if !matches!(format, TrajectoryFormat::Tau2 | TrajectoryFormat::Jsonl) {
        // τ²-bench files name their model in metadata and check their
        // names per simulation; canonical lines are checked line by line.
        if let Some(m) = model {
            for t in &mut c.trajectories {
                t.model = m.to_string();
            }
        }
        check_corpus_names(&c, model.is_none())?;
    }
    Ok(c)
}

/// Read a text of a known format (see [`detect`]).
#[cfg(feature = "readers")]
fn read_text(
    format: TrajectoryFormat,
    name: &str,
    text: &str,
    options: &ReadOptions,
) -> Result<Corpus, String> {
    use TrajectoryFormat as F;
    let model = options.model.as_deref();
    match format {
        F::InspectJson => crate::formats::inspect::read_json(name, text.as_bytes(), model, &options.score)
            .map_err(|e| e.to_string()),
        F::Jsonl => Ok(read_jsonl_as(text, options)),
        // A light read that keeps no trajectory whole: message contents are
        // skipped by the parser (they would be dropped at once).
        F::Tau2 if options.light && options.keep.is_none() => {
            let r = crate::formats::tau2::read_results_light(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, options.domain.as_deref())
        }
        F::Tau2 => {
            let r = crate::formats::tau2::read_results(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, options.domain.as_deref())
        }
        F::Tau2Simulation => crate::formats::tau3::read_simulation(name, text, options),
        F::Tau3Metadata => Err(format!(
            "the metadata file of a τ³ results directory ({}): give the folder that holds it and its `simulations/` folder",
            F::Tau3Metadata.label()
        )),
        F::Tau2Tasks => Err(
            "a τ²-bench tasks file (tasks, not simulations): give it as the tasks of a results file (`gapscope tau2 --tasks`)".into(),
        ),
        F::InspectEval => Err("an Inspect AI `.eval` log is a zip archive, not text".into()),
        F::Parquet => Err("a Parquet dataset is binary, not text".into()),
        F::TauBenchV1
        | F::Atif
        | F::SweAgent
        | F::MiniSweAgent
        | F::GeminiCli
        | F::OpenHandsEvents
        | F::OpenHandsOutput
        | F::ClaudeCode
        | F::Codex => read_more(format, name, text, options),
    }
}

/// The readers of the `more-formats` feature.
#[cfg(all(feature = "readers", feature = "more-formats"))]
fn read_more(
    format: TrajectoryFormat,
    name: &str,
    text: &str,
    options: &ReadOptions,
) -> Result<Corpus, String> {
    use TrajectoryFormat as F;
    match format {
        F::TauBenchV1 => taubench_v1::read(name, text, options),
        F::Atif => atif::read(name, text, options),
        F::SweAgent => swe_agent::read_swe_agent(name, text, options),
        F::MiniSweAgent => swe_agent::read_mini(name, text, options),
        F::GeminiCli => gemini_cli::read(name, text, options),
        F::OpenHandsEvents => openhands::read_events(name, text, options),
        F::OpenHandsOutput => openhands::read_output(name, text, options),
        F::ClaudeCode => claude_code::read(name, text, options),
        F::Codex => codex::read(name, text, options),
        other => Err(format!(
            "internal error: {} is not read here",
            other.label()
        )),
    }
}

/// Without the `more-formats` feature: the format is recognized and refused.
#[cfg(all(feature = "readers", not(feature = "more-formats")))]
fn read_more(
    format: TrajectoryFormat,
    _name: &str,
    _text: &str,
    _options: &ReadOptions,
) -> Result<Corpus, String> {
    Err(without_more_formats(format.label()))
}

/// Why a build without the `more-formats` feature does not read a file.
#[cfg(not(feature = "more-formats"))]
fn without_more_formats(label: &str) -> String {
    format!(
        "a {label}, which this build of gapscope does not read (built without the `more-formats` feature; the command line and the page's files worker read it)"
    )
}

/// A file's name without its folders (`/` or `\\`) and without the first of
/// `extensions` it ends with (unless nothing would be left): the stand-in
/// for a model or task a file does not name.
pub fn file_stem<'a>(name: &'a str, extensions: &[&str]) -> &'a str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    extensions
        .iter()
        .find_map(|ext| base.strip_suffix(ext).filter(|s| !s.is_empty()))
        .unwrap_or(base)
}

/// Read a directory format's members through `folder`; `progress` sees
/// (members read, members) as the reading goes.
pub fn read_group(
    group: &folder::Group,
    folder: &mut dyn folder::Folder,
    options: &ReadOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Corpus, String> {
    match group.format {
        folder::FolderFormat::Tau3Results => tau3::read_group(group, folder, options, progress),
        #[cfg(feature = "more-formats")]
        folder::FolderFormat::HarborJob | folder::FolderFormat::HarborTrial => {
            harbor::read_group(group, folder, options, progress)
        }
        #[cfg(not(feature = "more-formats"))]
        folder::FolderFormat::HarborJob | folder::FolderFormat::HarborTrial => {
            Err(without_more_formats(group.format.label()))
        }
    }
}

/// The trajectories of a τ²-bench results file; the model from `model`, the
/// file's metadata, or the file name. A name that cannot be one (empty,
/// padded, over 4 KiB) refuses the file.
#[cfg(feature = "readers")]
fn tau2_corpus<C: crate::formats::tau2::Content>(
    name: &str,
    r: crate::formats::tau2::Results<C>,
    model: Option<&str>,
    domain: Option<&str>,
) -> Result<Corpus, String> {
    let mut warnings = Vec::new();
    let mut r = r;
    if crate::formats::tau2::domain(&r).is_none() {
        match domain {
            Some(d) => {
                let info = r.info.get_or_insert_with(Default::default);
                info.environment_info = Some(crate::formats::tau2::EnvironmentInfo {
                    domain_name: Some(d.to_string()),
                });
            }
            None => warnings.push(format!(
                "names no domain (no `info.environment_info.domain_name`): its tasks are taken to be of domain `{UNKNOWN_DOMAIN}`, so they match only other `{UNKNOWN_DOMAIN}` tasks; give the domain (--domain)"
            )),
        }
    }
    let stem = file_stem(name, &[".json"]);
    let (m, from) = match (model, crate::formats::tau2::model_name(&r)) {
        (Some(m), _) => (m.to_string(), "the name given for every trajectory"),
        (None, Some(m)) => (
            m,
            "the file's `info.agent_info.llm`; give the name with --model",
        ),
        (None, None) => (stem.to_string(), "the file's name"),
    };
    if let Some(why) = bad_name("model name", &m) {
        return Err(format!("{why} ({from})"));
    }
    let grading = crate::formats::tau3::results_grading(name, &r);
    let c = Corpus {
        trajectories: crate::formats::tau2::into_trajectories(r, &m, name),
        grading: grading.into_iter().collect(),
        warnings,
        ..Corpus::default()
    };
    // Simulation ids, task ids and the domain, located by simulation.
    for (i, t) in c.trajectories.iter().enumerate() {
        check_names(t, false).map_err(|why| format!("simulation {i}: {why}"))?;
    }
    Ok(c)
}
