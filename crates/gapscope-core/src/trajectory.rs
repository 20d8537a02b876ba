//! Trajectories in the canonical JSONL form (spec: formats.md, "Trajectories")
//! and operation profiles from their 0 / 0.5 / 1 / null labels (spec:
//! realization-gaps.md, "Operation scores from trajectory labels").
//!
//! Reading is line by line: a malformed line is reported with its number and
//! the rest is still read, so the reader sees how many were skipped.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::profile::{csv_field, Block, ProfileTable};

/// A tool call made by the agent (or the simulated user).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default)]
    pub id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub arguments: serde_json::Value,
}

/// One message of a trajectory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    #[serde(default)]
    pub content: Option<serde_json::Value>,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub error: Option<bool>,
}

/// A gold action of the trajectory's task and whether the trajectory
/// performed it (τ²-bench: each recorded action check, re-checked with
/// τ²-bench's own matching rule).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldAction {
    pub name: String,
    #[serde(default)]
    pub arguments: serde_json::Value,
    pub matched: bool,
}

/// One trajectory (one model attempting one task once).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    pub id: String,
    pub model: String,
    #[serde(default)]
    pub family: Option<String>,
    /// The task set (τ²-bench domain, Inspect task, canonical `domain`);
    /// task identity is (domain, `task_id`), with `None` read as
    /// [`UNKNOWN_DOMAIN`] (spec: formats.md, "Task identity").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    pub task_id: String,
    #[serde(default)]
    pub scenario_group: Option<String>,
    #[serde(default)]
    pub trial: Option<i64>,
    /// Native task reward, 0–1.
    #[serde(default)]
    pub reward: Option<f64>,
    #[serde(default)]
    pub termination_reason: Option<String>,
    #[serde(default)]
    pub messages: Vec<Message>,
    /// Per operation, the labels of its requirements: 0, 0.5, 1, or null
    /// (not applicable).
    #[serde(default)]
    pub labels: IndexMap<String, Vec<Option<f64>>>,
    /// The task's gold actions, when the file records them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gold_actions: Vec<GoldAction>,
    /// Counts of the messages, kept when a light read dropped them
    /// ([`ReadOptions::light`]); `None` when the messages are here.
    #[serde(skip)]
    pub stats: Option<MessageStats>,
    /// The file's own identity of this trajectory ([`Trajectory::identity`]):
    /// a τ²-bench simulation id, an Inspect (eval id, sample id, epoch), a
    /// canonical (model, id); for files that give none, the file's SHA-256
    /// and the trajectory's place in it. Set by the readers.
    #[serde(skip)]
    pub source_id: Option<String>,
}

/// What the list of trajectories needs of their messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MessageStats {
    pub messages: usize,
    pub tool_calls: usize,
    /// Tool results marked as errors.
    pub tool_errors: usize,
}

/// The domain of a trajectory whose file names none.
pub const UNKNOWN_DOMAIN: &str = "unknown";

/// A task's identity: (domain, task id). Airline task `32` and retail task
/// `32` are different tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskKey<'a> {
    pub domain: &'a str,
    pub task_id: &'a str,
}

impl TaskKey<'_> {
    /// How the task is named to a person: the bare id when every task in
    /// sight is of one domain (`qualified` false), else `domain/id`.
    pub fn label(&self, qualified: bool) -> String {
        if qualified {
            format!("{}/{}", self.domain, self.task_id)
        } else {
            self.task_id.to_string()
        }
    }
}

/// Whether the trajectories span more than one domain (then tasks are named
/// `domain/id`, [`TaskKey::label`]).
pub fn several_domains(trajectories: &[Trajectory]) -> bool {
    let mut first: Option<&str> = None;
    trajectories.iter().any(|t| {
        let d = t.task_key().domain;
        *first.get_or_insert(d) != d
    })
}

/// A canonical trajectory's identity: (model, id) as its file has them.
fn canonical_identity(model: &str, id: &str) -> String {
    format!("jsonl\u{1f}{model}\u{1f}{id}")
}

/// What kind of identity two repeated trajectories share, for the warning.
pub fn identity_kind(identity: &str) -> &'static str {
    match identity.split('\u{1f}').next() {
        Some("tau2") => "the same τ²-bench simulation ids",
        Some("inspect") => "the same Inspect eval id, sample ids and epochs",
        Some("jsonl") => "the same trajectory ids and models",
        _ => "byte-identical files",
    }
}

impl Trajectory {
    /// The identity by which a trajectory read twice (the same file under
    /// two names, a run as `.eval` and `.json`) is recognised: the
    /// reader's [`Trajectory::source_id`], else (model, id).
    pub fn identity(&self) -> std::borrow::Cow<'_, str> {
        match &self.source_id {
            Some(s) => std::borrow::Cow::Borrowed(s),
            None => std::borrow::Cow::Owned(canonical_identity(&self.model, &self.id)),
        }
    }

    /// The task's identity (domain, task id).
    pub fn task_key(&self) -> TaskKey<'_> {
        TaskKey {
            domain: self.domain.as_deref().unwrap_or(UNKNOWN_DOMAIN),
            task_id: &self.task_id,
        }
    }

    /// Message counts (from `stats` after a light read).
    pub fn message_stats(&self) -> MessageStats {
        self.stats.unwrap_or_else(|| MessageStats {
            messages: self.messages.len(),
            tool_calls: self.messages.iter().map(|m| m.tool_calls.len()).sum(),
            tool_errors: self
                .messages
                .iter()
                .filter(|m| m.role == "tool" && m.error == Some(true))
                .count(),
        })
    }

    /// Drop the messages, keeping their counts (a light read: what profiles,
    /// lists and stability need, in a fraction of the memory).
    pub fn lighten(&mut self) {
        if self.stats.is_none() {
            self.stats = Some(self.message_stats());
            self.messages = Vec::new();
        }
    }
}

/// A line that could not be read, and why. Line 0: not a line of a text file
/// (e.g. a member of an Inspect `.eval` archive; the message names it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineError {
    pub line: u64,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

/// What a JSONL file gave: the trajectories read and the lines skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Corpus {
    pub trajectories: Vec<Trajectory>,
    pub skipped: Vec<LineError>,
    /// How score values became rewards (Inspect logs; one per log read).
    #[serde(default)]
    pub reward_mappings: Vec<crate::inspect::RewardMapping>,
    /// Lines read and kept that still deserve a look (canonical JSONL: tool
    /// results that answer no earlier tool call of their trajectory).
    #[serde(default)]
    pub notes: Vec<LineError>,
    /// What the reader says of the file as a whole (e.g. a τ²-bench file
    /// that names no domain), one sentence each, without the file name.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The note on a trajectory whose tool results answer call ids that no
/// earlier tool call of the trajectory has (the trajectory is kept: labels and
/// reward do not depend on the pairing, but the log is likely cut or merged).
fn unknown_call_ids(t: &Trajectory) -> Option<String> {
    let mut calls: Vec<&str> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for (k, m) in t.messages.iter().enumerate() {
        if let Some(id) = &m.tool_call_id {
            if !calls.contains(&id.as_str()) {
                unknown.push(format!("message {} answers `{id}`", k + 1));
            }
        }
        calls.extend(m.tool_calls.iter().filter_map(|c| c.id.as_deref()));
    }
    (!unknown.is_empty()).then(|| {
        let more = unknown.len().saturating_sub(3);
        unknown.truncate(3);
        format!(
            "trajectory `{}`: {} tool result{} answer{} no earlier tool call ({}{}); kept",
            t.id,
            unknown.len() + more,
            if unknown.len() + more == 1 { "" } else { "s" },
            if unknown.len() + more == 1 { "s" } else { "" },
            unknown.join(", "),
            if more > 0 {
                format!(", … {more} more")
            } else {
                String::new()
            }
        )
    })
}

/// Why `op` cannot name an operation, if it cannot: operation names become
/// columns of the operation profile's CSV (beside `model`, `family`,
/// `reward` and the eligible counts `n_OP`), which is read back as a profile.
fn bad_operation_name(op: &str) -> Option<&'static str> {
    if op.trim().is_empty() {
        Some("empty")
    } else if op.trim() != op {
        Some("padded with spaces")
    } else if ["model", "family", "reward"]
        .iter()
        .any(|k| op.eq_ignore_ascii_case(k))
    {
        Some("a column of the profile: model, family, reward")
    } else if op.starts_with("n_") {
        Some("`n_` starts the eligible-count columns of the profile")
    } else {
        None
    }
}

/// Why `name` cannot be the `what` (`model name`, `trajectory id`, …) of a
/// trajectory, if it cannot: empty, padded with spaces (the profile's CSV
/// and the label CSV trim names, so ` M` would silently become `M`), or over
/// [`crate::profile::MAX_NAME_BYTES`] (a long name is not echoed).
pub fn bad_name(what: &str, name: &str) -> Option<String> {
    let max = crate::profile::MAX_NAME_BYTES;
    if name.len() > max {
        Some(format!(
            "the {what} is {} bytes long; names are at most {max} bytes (4 KiB)",
            name.len()
        ))
    } else if name.trim().is_empty() {
        Some(format!("the {what} is empty"))
    } else if name.trim() != name {
        Some(format!("{what} `{name}` is padded with spaces"))
    } else {
        None
    }
}

/// Why an operation name over [`crate::profile::MAX_NAME_BYTES`] cannot be
/// one (said without echoing the name).
fn long_operation_name(op: &str) -> String {
    format!(
        "an operation name is {} bytes long; names are at most {} bytes (4 KiB)",
        op.len(),
        crate::profile::MAX_NAME_BYTES
    )
}

/// Why a trajectory's `model`, `family` or `domain` cannot be one, if it
/// cannot: the operation profile's CSV (read back as a profile) trims names
/// and refuses empty and over-long ones, and a padded domain would be a task
/// set of its own, so they are refused at their line.
fn bad_row_name(field: &str, name: &str) -> Option<String> {
    if name.len() > crate::profile::MAX_NAME_BYTES {
        Some(format!(
            "the `{field}` field is {} bytes long; names are at most {} bytes (4 KiB)",
            name.len(),
            crate::profile::MAX_NAME_BYTES
        ))
    } else if name.trim().is_empty() {
        Some(format!("the `{field}` field is empty"))
    } else if name.trim() != name {
        Some(format!(
            "the `{field}` field `{name}` is padded with spaces"
        ))
    } else {
        None
    }
}

/// The names of a trajectory as read (id, model, family, task, domain):
/// none empty or padded (id, model, family) or over 4 KiB (all). `model`:
/// whether the model name is the trajectory's own (not overridden).
fn check_names(t: &Trajectory, model: bool) -> Result<(), String> {
    if let Some(why) = bad_name("trajectory id", &t.id) {
        return Err(why);
    }
    let named = [
        ("model name", Some(&t.model).filter(|_| model)),
        ("family name", t.family.as_ref()),
    ];
    for (what, name) in named {
        if let Some(why) = name.and_then(|n| bad_name(what, n)) {
            return Err(format!("trajectory `{}`: {why}", t.id));
        }
    }
    let max = crate::profile::MAX_NAME_BYTES;
    for (what, name) in [("task id", Some(&t.task_id)), ("domain", t.domain.as_ref())] {
        if let Some(n) = name.filter(|n| n.len() > max) {
            return Err(format!(
                "trajectory `{}`: the {what} is {} bytes long; names are at most {max} bytes (4 KiB)",
                t.id,
                n.len()
            ));
        }
    }
    Ok(())
}

/// [`check_names`] over a file read whole (τ²-bench, Inspect): the first bad
/// name refuses the file (its model comes from the file's metadata, so
/// every trajectory would carry it).
fn check_corpus_names(c: &Corpus, model: bool) -> Result<(), String> {
    c.trajectories
        .iter()
        .try_for_each(|t| check_names(t, model))
}

fn check_labels(t: &Trajectory) -> Result<(), String> {
    // Model, family and lengths: `check_names`. A padded or empty domain
    // would be a task set of its own.
    if let Some((field, name)) = t.domain.as_deref().map(|d| ("domain", d)) {
        if let Some(why) = bad_row_name(field, name) {
            return Err(format!("trajectory `{}`: {why}", t.id));
        }
    }
    for (op, labels) in &t.labels {
        if op.len() > crate::profile::MAX_NAME_BYTES {
            return Err(format!(
                "trajectory `{}`: {}",
                t.id,
                long_operation_name(op)
            ));
        }
        if let Some(why) = bad_operation_name(op) {
            return Err(format!(
                "trajectory `{}`: `{op}` cannot name an operation ({why})",
                t.id
            ));
        }
        for (r, l) in labels.iter().enumerate() {
            if let Some(v) = l {
                if ![0.0, 0.5, 1.0].contains(v) {
                    return Err(format!(
                        "trajectory `{}`, operation {op}, requirement {}: label {v} is not 0, 0.5, 1 or null",
                        t.id,
                        r + 1
                    ));
                }
            }
        }
    }
    if let Some(r) = t.reward {
        if !r.is_finite() {
            return Err(format!(
                "trajectory `{}`: reward {r} is not a finite number",
                t.id
            ));
        }
        // As in a profile file: beyond it, sums and means overflow to ∞.
        if r.abs() > crate::analysis::MAX_MAGNITUDE {
            return Err(format!(
                "trajectory `{}`: reward {r:e} is too large in magnitude (at most {:e}); rescale the rewards",
                t.id,
                crate::analysis::MAX_MAGNITUDE
            ));
        }
    }
    Ok(())
}

/// Read canonical JSONL (one trajectory a line; blank lines are skipped
/// silently, malformed ones are reported and skipped). A repeated `id` is
/// reported and the later line skipped.
pub fn read_jsonl(text: &str) -> Corpus {
    read_jsonl_with(text, &ReadOptions::default())
}

/// [`read_jsonl`]; with `options.light`, every trajectory but `options.keep`
/// is lightened as soon as its line is read, so that a large file never
/// holds all its messages at once.
pub fn read_jsonl_with(text: &str, options: &ReadOptions) -> Corpus {
    let mut lines = JsonlLines::new(options);
    for raw in text.trim_start_matches('\u{feff}').lines() {
        lines.push(raw);
    }
    lines.finish()
}

/// Canonical JSONL read a line at a time ([`read_jsonl_with`] is this over a
/// whole text): a large file streamed in chunks is parsed as it arrives and
/// never held whole.
#[derive(Debug)]
pub struct JsonlLines {
    corpus: Corpus,
    seen: IndexMap<String, u64>,
    line: u64,
    options: ReadOptions,
}

impl JsonlLines {
    pub fn new(options: &ReadOptions) -> Self {
        JsonlLines {
            corpus: Corpus::default(),
            seen: IndexMap::new(),
            line: 0,
            options: options.clone(),
        }
    }

    /// The next line, without its line ending (a byte-order mark before the
    /// first line is the caller's to drop).
    pub fn push(&mut self, raw: &str) {
        self.line += 1;
        let line = self.line;
        if raw.trim().is_empty() {
            return;
        }
        let parsed = serde_json::from_str::<Trajectory>(raw)
            .map_err(|e| {
                // The line is the JSONL line; say the column once.
                format!(
                    "column {}: {}",
                    e.column(),
                    crate::profile::json_message(&e)
                )
            })
            .and_then(|t| {
                check_names(&t, self.options.model.is_none())?;
                check_labels(&t).map(|()| t)
            });
        let corpus = &mut self.corpus;
        match parsed {
            Ok(t) => {
                if let Some(first) = self.seen.get(&t.id) {
                    corpus.skipped.push(LineError {
                        line,
                        message: format!("trajectory id `{}` already used on line {first}", t.id),
                    });
                    return;
                }
                self.seen.insert(t.id.clone(), line);
                if let Some(message) = unknown_call_ids(&t) {
                    corpus.notes.push(LineError { line, message });
                }
                let mut t = t;
                t.source_id = Some(canonical_identity(&t.model, &t.id));
                if t.domain.is_none() {
                    t.domain.clone_from(&self.options.domain);
                }
                if self.options.light && self.options.keep.as_deref() != Some(t.id.as_str()) {
                    t.lighten();
                }
                corpus.trajectories.push(t);
            }
            Err(message) => corpus.skipped.push(LineError { line, message }),
        }
    }

    /// Lines pushed so far.
    pub fn lines(&self) -> u64 {
        self.line
    }

    pub fn finish(self) -> Corpus {
        self.corpus
    }
}

/// What kind of trajectory file a text is, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrajectoryFormat {
    /// Canonical JSONL: the first non-blank line is an object with `task_id`.
    Jsonl,
    /// A τ²-bench results file: an object with `simulations`, or a bare list
    /// of simulations.
    Tau2,
    /// An Inspect AI `.json` log (an object with `version`/`status` and `eval`).
    InspectJson,
    /// An Inspect AI `.eval` log (a zip archive; bytes only, see [`detect_bytes`]).
    InspectEval,
}

/// Recognize a trajectory file by its content (a JSON profile file, an object
/// with `models`, is not one).
pub fn detect(text: &str) -> Option<TrajectoryFormat> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    let first_line = t.lines().next().unwrap_or_default();
    // An object with a top-level `task_id`; its values are skipped, not built
    // (a single-line results file can be megabytes long).
    #[derive(Deserialize)]
    struct Probe {
        #[serde(default)]
        task_id: Option<serde::de::IgnoredAny>,
    }
    if first_line.starts_with('{') {
        if let Ok(Probe { task_id: Some(_) }) = serde_json::from_str::<Probe>(first_line) {
            return Some(TrajectoryFormat::Jsonl);
        }
    }
    if crate::inspect::looks_like_json_log(t) {
        return Some(TrajectoryFormat::InspectJson);
    }
    // A bare list shows `task_id` in its first simulation; an object has a
    // `simulations` key somewhere after its (possibly large) `tasks`.
    let head: String = t.chars().take(4096).collect();
    if (t.starts_with('{') && t.contains("\"simulations\""))
        || (t.starts_with('[') && head.contains("\"task_id\""))
    {
        return Some(TrajectoryFormat::Tau2);
    }
    None
}

/// Read a trajectory file of either format. τ²-bench simulations take the
/// model from `info.agent_info.llm` unless `model` overrides it (metadata can
/// be wrong; bare lists have none, and then the file name is used).
pub fn read_any(name: &str, text: &str, model: Option<&str>) -> Result<Corpus, String> {
    match detect(text) {
        Some(TrajectoryFormat::Jsonl) => {
            let mut c = read_jsonl(text);
            if let Some(m) = model {
                for t in &mut c.trajectories {
                    t.model = m.to_string();
                }
            }
            Ok(c)
        }
        Some(TrajectoryFormat::Tau2) => {
            let r = crate::tau2::read_results(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, None)
        }
        Some(TrajectoryFormat::InspectJson) => {
            let c = crate::inspect::read_json(
                name,
                text.as_bytes(),
                model,
                &crate::inspect::ScoreChoice::default(),
            )
            .map_err(|e| e.to_string())?;
            check_corpus_names(&c, model.is_none())?;
            Ok(c)
        }
        Some(TrajectoryFormat::InspectEval) | None => Err(NOT_TRAJECTORIES.into()),
    }
}

/// Why each trajectory reader declined a file that gave no trajectory, one
/// clause per reader (`reader: why`), for the error that names the file
/// (issue 14: an explicitly named file that yields nothing is an error).
pub fn readers_declined(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    if crate::inspect::is_zip(bytes) {
        out.push("Inspect AI `.eval` log: a zip archive, but no sample in it could be read".into());
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
        match crate::tau2::read_results(text) {
            Err(e) => format!("τ²-bench results: {e}"),
            Ok(r) if r.simulations.is_empty() => {
                "τ²-bench results: no simulation (expected an object with a `simulations` list, or a list of simulations)".into()
            }
            Ok(_) => "τ²-bench results: read".into(),
        }
    } else {
        "τ²-bench results: not a JSON object or list".into()
    });
    out.push(if crate::inspect::looks_like_json_log(t) {
        "Inspect AI `.json` log: no sample could be read".into()
    } else {
        "Inspect AI `.json` log: no top-level `eval` with `version` or `status`".into()
    });
    out.push("Inspect AI `.eval` log: not a zip archive".into());
    out
}

const NOT_TRAJECTORIES: &str = "not a trajectory file (canonical JSONL, a τ²-bench results file, or an Inspect AI `.eval` or `.json` log)";

/// Recognize a trajectory file by its bytes: an Inspect `.eval` log is a zip
/// archive; UTF-8 text goes to [`detect`].
pub fn detect_bytes(bytes: &[u8]) -> Option<TrajectoryFormat> {
    if crate::inspect::is_zip(bytes) {
        return Some(TrajectoryFormat::InspectEval);
    }
    std::str::from_utf8(bytes).ok().and_then(detect)
}

/// Options of [`read_any_bytes`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// Name every trajectory's model so (file metadata can be wrong).
    pub model: Option<String>,
    /// Inspect logs: the score that becomes the reward.
    pub score: crate::inspect::ScoreChoice,
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
    let mut corpus = read_any_bytes_full(name, bytes, options)?;
    if options.light {
        for t in &mut corpus.trajectories {
            if options.keep.as_deref() != Some(t.id.as_str()) {
                t.lighten();
            }
        }
    }
    Ok(corpus)
}

fn read_any_bytes_full(name: &str, bytes: &[u8], options: &ReadOptions) -> Result<Corpus, String> {
    let model = options.model.as_deref();
    if let Some(why) = model.and_then(|m| bad_name("model name", m)) {
        return Err(format!("{why} (the name given for every trajectory)"));
    }
    if crate::inspect::is_zip(bytes) {
        let c = crate::inspect::read_eval(name, bytes, model, &options.score)
            .map_err(|e| e.to_string())?;
        check_corpus_names(&c, model.is_none())?;
        return Ok(c);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "line {}: not UTF-8 text (invalid byte at offset {}), and not a zip archive",
            line_of_offset(bytes, e.valid_up_to()),
            e.valid_up_to()
        )
    })?;
    match detect(text) {
        Some(TrajectoryFormat::InspectJson) => {
            let c = crate::inspect::read_json(name, bytes, model, &options.score)
                .map_err(|e| e.to_string())?;
            check_corpus_names(&c, model.is_none())?;
            Ok(c)
        }
        Some(TrajectoryFormat::Jsonl) => {
            let mut c = read_jsonl_with(text, options);
            if let Some(m) = model {
                for t in &mut c.trajectories {
                    t.model = m.to_string();
                }
            }
            Ok(c)
        }
        // A light read that keeps no trajectory whole: message contents are
        // skipped by the parser (they would be dropped at once).
        Some(TrajectoryFormat::Tau2) if options.light && options.keep.is_none() => {
            let r = crate::tau2::read_results_light(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, options.domain.as_deref())
        }
        Some(TrajectoryFormat::Tau2) => {
            let r = crate::tau2::read_results(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, options.domain.as_deref())
        }
        _ => read_any(name, text, model),
    }
}

/// The trajectories of a τ²-bench results file; the model from `model`, the
/// file's metadata, or the file name. A name that cannot be one (empty,
/// padded, over 4 KiB) refuses the file.
fn tau2_corpus<C: crate::tau2::Content>(
    name: &str,
    r: crate::tau2::Results<C>,
    model: Option<&str>,
    domain: Option<&str>,
) -> Result<Corpus, String> {
    let mut warnings = Vec::new();
    let mut r = r;
    if crate::tau2::domain(&r).is_none() {
        match domain {
            Some(d) => {
                let info = r.info.get_or_insert_with(Default::default);
                info.environment_info = Some(crate::tau2::EnvironmentInfo {
                    domain_name: Some(d.to_string()),
                });
            }
            None => warnings.push(format!(
                "names no domain (no `info.environment_info.domain_name`): its tasks are taken to be of domain `{UNKNOWN_DOMAIN}`, so they match only other `{UNKNOWN_DOMAIN}` tasks; give the domain (--domain)"
            )),
        }
    }
    let stem = name
        .rsplit('/')
        .next()
        .unwrap_or(name)
        .trim_end_matches(".json");
    let (m, from) = match (model, crate::tau2::model_name(&r)) {
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
    let c = Corpus {
        trajectories: crate::tau2::into_trajectories(r, &m, name),
        warnings,
        ..Corpus::default()
    };
    // Simulation ids, task ids and the domain, located by simulation.
    for (i, t) in c.trajectories.iter().enumerate() {
        check_names(t, false).map_err(|why| format!("simulation {i}: {why}"))?;
    }
    Ok(c)
}

/// The 1-based line of a byte offset (for locating an invalid UTF-8 byte).
pub fn line_of_offset(bytes: &[u8], offset: usize) -> u64 {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64
}

/// Rename models (`old=new` pairs); several old names given the same new name
/// are merged into one model. Returns how many trajectories were renamed.
/// File metadata is sometimes wrong, and one model may appear under several names.
pub fn rename_models(trajectories: &mut [Trajectory], renames: &[(String, String)]) -> usize {
    let mut n = 0;
    for t in trajectories.iter_mut() {
        if let Some((_, new)) = renames.iter().find(|(old, _)| *old == t.model) {
            t.model = new.clone();
            n += 1;
        }
    }
    n
}

/// Parse `OLD=NEW` (the text after the last `=` is the new name).
pub fn parse_rename(text: &str) -> Result<(String, String), String> {
    match text.rsplit_once('=') {
        Some((old, new)) if !old.trim().is_empty() && !new.trim().is_empty() => {
            Ok((old.trim().to_string(), new.trim().to_string()))
        }
        _ => Err(format!("expected OLD=NEW, got `{text}`")),
    }
}

/// Why a label CSV could not be applied.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LabelError {
    #[error("the label file has no `{0}` column (expected trajectory_id,operation,requirement,label[,turn])")]
    MissingColumn(String),
    #[error("line {line}: {message}")]
    Line { line: u64, message: String },
}

/// Add the labels of a CSV `trajectory_id,operation,requirement,label[,turn]`
/// to the trajectories (joined on `id`; `requirement` orders labels within an
/// operation). Labels already in a trajectory for that operation are replaced.
pub fn apply_label_csv(corpus: &mut Corpus, text: &str) -> Result<usize, LabelError> {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| LabelError::Line {
            line: 1,
            message: e.to_string(),
        })?
        .iter()
        .map(|h| h.trim().to_string())
        .collect::<Vec<_>>();
    if headers.len() > crate::profile::MAX_CSV_COLUMNS {
        return Err(LabelError::Line {
            line: 1,
            message: format!(
                "the header has {} columns; at most {} are read",
                headers.len(),
                crate::profile::MAX_CSV_COLUMNS
            ),
        });
    }
    // Lines by `\n` (the csv crate's own count lags in CRLF files).
    let mut lines = crate::profile::LineOf::new(text, false);
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| LabelError::MissingColumn(name.into()))
    };
    let (ct, co, cr, cl) = (
        col("trajectory_id")?,
        col("operation")?,
        col("requirement")?,
        col("label")?,
    );
    // (trajectory index, operation) -> [(requirement, label)]
    type Labels = Vec<(String, Option<f64>)>;
    let mut found: IndexMap<(usize, String), Labels> = IndexMap::new();
    let index: IndexMap<&str, usize> = corpus
        .trajectories
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let mut n = 0;
    for record in reader.records() {
        let record = record.map_err(|e| LabelError::Line {
            line: e.position().map_or(0, |p| lines.at(p.byte())),
            message: e.to_string(),
        })?;
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        // Cells written by csv_safe lose their neutralising quote.
        let id = crate::profile::csv_unsafe(record[ct].trim()).trim();
        let &t = index.get(id).ok_or_else(|| LabelError::Line {
            line,
            message: format!("no trajectory with id `{id}`"),
        })?;
        let text = record[cl].trim();
        let label = match text {
            "" | "null" | "NA" | "na" => None,
            "0" | "0.0" => Some(0.0),
            "0.5" | ".5" => Some(0.5),
            "1" | "1.0" => Some(1.0),
            other => {
                return Err(LabelError::Line {
                    line,
                    message: format!("label `{other}` is not 0, 0.5, 1 or null"),
                })
            }
        };
        let op = crate::profile::csv_unsafe(record[co].trim()).trim();
        if op.len() > crate::profile::MAX_NAME_BYTES {
            return Err(LabelError::Line {
                line,
                message: long_operation_name(op),
            });
        }
        if let Some(why) = bad_operation_name(op) {
            return Err(LabelError::Line {
                line,
                message: format!("`{op}` cannot name an operation ({why})"),
            });
        }
        found.entry((t, op.to_string())).or_default().push((
            crate::profile::csv_unsafe(record[cr].trim())
                .trim()
                .to_string(),
            label,
        ));
        n += 1;
    }
    for ((t, op), mut labels) in found {
        labels.sort_by(|a, b| a.0.cmp(&b.0));
        corpus.trajectories[t]
            .labels
            .insert(op, labels.into_iter().map(|(_, l)| l).collect());
    }
    Ok(n)
}

/// How the overall (macro) operation score is formed from labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MacroFromLabels {
    /// The unweighted mean of the model's operation scores.
    #[default]
    Mean,
    /// 100 × mean over the model's trajectories of the mean of all their
    /// applicable labels across operations.
    Pooled,
}

/// Options of [`operation_profile`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileOptions {
    /// Use every task, not only those every model attempted.
    pub all_tasks: bool,
    pub macro_definition: MacroFromLabels,
    /// Operation order; default: the spec's seven where present, then the
    /// others in order of first appearance.
    pub operations: Option<Vec<String>>,
}

/// Operation scores, eligible counts and reward per model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationProfile {
    pub models: Vec<String>,
    /// The family each model's trajectories name (first seen), if any.
    pub families: Vec<Option<String>>,
    pub operations: Vec<String>,
    /// `scores[model][op]`, 0–100; `None` when no trajectory was eligible.
    pub scores: Vec<Vec<Option<f64>>>,
    /// `eligible[model][op]`: trajectories with at least one applicable label.
    pub eligible: Vec<Vec<usize>>,
    /// Mean reward × 100 over the model's trajectories in the subset.
    pub reward: Vec<Option<f64>>,
    /// The macro score under `macro_definition`.
    pub macro_score: Vec<Option<f64>>,
    pub macro_definition: MacroFromLabels,
    /// The pooled macro score, whatever `macro_definition` is (the analysis
    /// may ask for it).
    #[serde(default)]
    pub pooled_macro: Vec<Option<f64>>,
    /// Trajectories per model in the subset.
    pub trajectories: Vec<usize>,
    /// The tasks used (the common-task subset unless `all_tasks`).
    pub tasks: Vec<String>,
    pub common_tasks_only: bool,
    /// Trajectories in the corpus and in the subset.
    pub n_total: usize,
    pub n_used: usize,
}

/// The mean of a trajectory's applicable labels for one operation.
pub fn label_mean(labels: &[Option<f64>]) -> Option<f64> {
    let v: Vec<f64> = labels.iter().flatten().copied().collect();
    crate::stats::mean(&v)
}

/// Compute the operation profile of every model (spec section 3.2).
pub fn operation_profile(
    trajectories: &[Trajectory],
    options: &ProfileOptions,
) -> OperationProfile {
    let models: Vec<String> = crate::crossval::distinct_in_order(
        &trajectories
            .iter()
            .map(|t| t.model.clone())
            .collect::<Vec<_>>(),
    )
    .into_iter()
    .cloned()
    .collect();
    // Tasks are (domain, task id): airline `32` is not retail `32`.
    let mut all_tasks: Vec<TaskKey<'_>> = Vec::new();
    let mut seen_tasks: std::collections::HashSet<TaskKey<'_>> = Default::default();
    for t in trajectories {
        if seen_tasks.insert(t.task_key()) {
            all_tasks.push(t.task_key());
        }
    }
    let tasks: Vec<TaskKey<'_>> = if options.all_tasks {
        all_tasks
    } else {
        // Models per task, counted once per (model, task) pair.
        let pairs: std::collections::HashSet<(&str, TaskKey<'_>)> = trajectories
            .iter()
            .map(|t| (t.model.as_str(), t.task_key()))
            .collect();
        let mut per_task: std::collections::HashMap<TaskKey<'_>, usize> = Default::default();
        for (_, task) in &pairs {
            *per_task.entry(*task).or_default() += 1;
        }
        all_tasks
            .into_iter()
            .filter(|task| per_task.get(task) == Some(&models.len()))
            .collect()
    };
    let task_set: std::collections::HashSet<TaskKey<'_>> = tasks.iter().copied().collect();
    let used: Vec<&Trajectory> = trajectories
        .iter()
        .filter(|t| task_set.contains(&t.task_key()))
        .collect();
    let qualified = several_domains(trajectories);
    let tasks: Vec<String> = tasks.iter().map(|k| k.label(qualified)).collect();
    let operations = options.operations.clone().unwrap_or_else(|| {
        let mut seen: Vec<String> = Vec::new();
        for t in trajectories {
            for op in t.labels.keys() {
                if !seen.contains(op) {
                    seen.push(op.clone());
                }
            }
        }
        let mut ordered: Vec<String> = crate::profile::DEFAULT_OPERATIONS
            .iter()
            .filter(|d| seen.iter().any(|s| s == *d))
            .map(|d| d.to_string())
            .collect();
        ordered.extend(
            seen.into_iter()
                .filter(|s| !crate::profile::DEFAULT_OPERATIONS.contains(&s.as_str())),
        );
        ordered
    });
    let mut scores = Vec::new();
    let mut eligible = Vec::new();
    let mut reward = Vec::new();
    let mut macro_score = Vec::new();
    let mut pooled_macro = Vec::new();
    let mut families = Vec::new();
    let mut counts = Vec::new();
    for m in &models {
        let mine: Vec<&&Trajectory> = used.iter().filter(|t| &t.model == m).collect();
        families.push(
            trajectories
                .iter()
                .find(|t| &t.model == m)
                .and_then(|t| t.family.clone()),
        );
        counts.push(mine.len());
        let mut row = Vec::new();
        let mut elig = Vec::new();
        for op in &operations {
            let s: Vec<f64> = mine
                .iter()
                .filter_map(|t| t.labels.get(op).and_then(|l| label_mean(l)))
                .collect();
            elig.push(s.len());
            row.push(crate::stats::mean(&s).map(|v| 100.0 * v));
        }
        let rewards: Vec<f64> = mine.iter().filter_map(|t| t.reward).collect();
        reward.push(crate::stats::mean(&rewards).map(|v| 100.0 * v));
        let mean_macro = {
            let v: Option<Vec<f64>> = row.iter().copied().collect();
            v.and_then(|v| crate::stats::mean(&v))
        };
        let pooled = {
            let per_t: Vec<f64> = mine
                .iter()
                .filter_map(|t| {
                    let all: Vec<Option<f64>> = operations
                        .iter()
                        .filter_map(|op| t.labels.get(op))
                        .flatten()
                        .copied()
                        .collect();
                    label_mean(&all)
                })
                .collect();
            crate::stats::mean(&per_t).map(|v| 100.0 * v)
        };
        macro_score.push(match options.macro_definition {
            MacroFromLabels::Mean => mean_macro,
            MacroFromLabels::Pooled => pooled,
        });
        pooled_macro.push(pooled);
        scores.push(row);
        eligible.push(elig);
    }
    OperationProfile {
        models,
        families,
        operations,
        scores,
        eligible,
        reward,
        macro_score,
        macro_definition: options.macro_definition,
        pooled_macro,
        trajectories: counts,
        n_total: trajectories.len(),
        n_used: used.len(),
        tasks,
        common_tasks_only: !options.all_tasks,
    }
}

impl OperationProfile {
    /// As a profile table (operations and reward; no foundational columns):
    /// join it with a foundational profile file to run the realization analysis.
    /// A model whose trajectories name no family gets the family `unknown`.
    pub fn to_table(&self) -> ProfileTable {
        ProfileTable {
            models: self.models.clone(),
            families: self
                .families
                .iter()
                .map(|f| {
                    f.clone()
                        .unwrap_or_else(|| crate::join::UNKNOWN_FAMILY.into())
                })
                .collect(),
            foundational: Block {
                names: Vec::new(),
                values: vec![Vec::new(); self.models.len()],
            },
            operations: Block {
                names: self.operations.clone(),
                values: self.scores.clone(),
            },
            reward: Some(self.reward.clone()),
            outcome_column: Some("reward".into()),
            reward_scaled: false,
            ignored: Vec::new(),
            pooled_macro: Some(self.pooled_macro.clone()),
        }
    }

    /// The profile as CSV: model, family, each operation, its eligible count
    /// (`n_OP`, an ignored column when read back), reward.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("model,family");
        for op in &self.operations {
            out.push_str(&format!(",{}", csv_field(op)));
        }
        for op in &self.operations {
            out.push_str(&format!(",{}", csv_field(&format!("n_{op}"))));
        }
        out.push_str(",reward\n");
        for i in 0..self.models.len() {
            let cell = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "{},{}",
                csv_field(&self.models[i]),
                csv_field(
                    &self.families[i]
                        .clone()
                        .unwrap_or_else(|| crate::join::UNKNOWN_FAMILY.into())
                )
            ));
            for v in &self.scores[i] {
                out.push_str(&format!(",{}", cell(*v)));
            }
            for n in &self.eligible[i] {
                out.push_str(&format!(",{n}"));
            }
            out.push_str(&format!(",{}\n", cell(self.reward[i])));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSONL: &str = r#"{"id": "t1", "model": "M1", "family": "A", "task_id": "x", "reward": 1.0, "labels": {"GI": [1, 0.5], "RC": [null]}}
{"id": "t2", "model": "M1", "family": "A", "task_id": "y", "reward": 0.0, "labels": {"GI": [0], "RC": [1]}}
not json
{"id": "t3", "model": "M2", "family": "B", "task_id": "x", "reward": 0.5, "labels": {"GI": [1], "RC": [0, 1]}}
{"id": "t4", "model": "M2", "family": "B", "task_id": "z", "reward": 1.0, "labels": {"GI": [0.3]}}
{"id": "t1", "model": "M2", "family": "B", "task_id": "x", "reward": 1.0}

{"id": "t5", "model": "M2", "family": "B", "task_id": "y", "reward": 0.0, "labels": {"GI": [0.5]}}
"#;

    #[test]
    fn malformed_lines_are_reported_and_the_rest_read() {
        let c = read_jsonl(JSONL);
        assert_eq!(
            c.trajectories
                .iter()
                .map(|t| t.id.as_str())
                .collect::<Vec<_>>(),
            ["t1", "t2", "t3", "t5"]
        );
        assert_eq!(c.skipped.len(), 3);
        assert_eq!(c.skipped[0].line, 3);
        assert_eq!(c.skipped[0].to_string(), "line 3: column 2: expected ident");
        assert_eq!(c.skipped[1].to_string(), "line 5: trajectory `t4`, operation GI, requirement 1: label 0.3 is not 0, 0.5, 1 or null");
        assert_eq!(
            c.skipped[2].to_string(),
            "line 6: trajectory id `t1` already used on line 1"
        );
    }

    #[test]
    fn operation_scores_by_hand() {
        let c = read_jsonl(JSONL);
        // Common tasks: M1 did x, y; M2 did x, y (z was skipped): both.
        let p = operation_profile(&c.trajectories, &ProfileOptions::default());
        assert_eq!(p.models, ["M1", "M2"]);
        assert_eq!(p.operations, ["GI", "RC"]);
        assert_eq!(p.tasks, ["x", "y"]);
        // M1 GI: s(t1) = 0.75, s(t2) = 0 -> 37.5 over 2 eligible.
        // M1 RC: t1 has only null (not eligible), t2 = 1 -> 100 over 1.
        assert_eq!(p.scores[0], vec![Some(37.5), Some(100.0)]);
        assert_eq!(p.eligible[0], vec![2, 1]);
        // M2 GI: t3 = 1, t5 = 0.5 -> 75; RC: t3 = 0.5, t5 has none -> 50 over 1.
        assert_eq!(p.scores[1], vec![Some(75.0), Some(50.0)]);
        assert_eq!(p.eligible[1], vec![2, 1]);
        assert_eq!(p.reward, vec![Some(50.0), Some(25.0)]);
        assert_eq!(p.macro_score, vec![Some(68.75), Some(62.5)]);
        // Pooled: M1: t1 labels (1, 0.5) -> 0.75, t2 (0, 1) -> 0.5 => 62.5;
        // M2: t3 (1, 0, 1) -> 2/3, t5 (0.5) -> 0.5 => 58.33…
        let pooled = operation_profile(
            &c.trajectories,
            &ProfileOptions {
                macro_definition: MacroFromLabels::Pooled,
                ..Default::default()
            },
        );
        assert_eq!(pooled.macro_score[0], Some(62.5));
        assert!((pooled.macro_score[1].unwrap() - 100.0 * (2.0 / 3.0 + 0.5) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn common_task_subset_and_all_tasks() {
        let text = r#"{"id": "a", "model": "M1", "task_id": "x", "reward": 1, "labels": {"GI": [1]}}
{"id": "b", "model": "M1", "task_id": "y", "reward": 0, "labels": {"GI": [0]}}
{"id": "c", "model": "M2", "task_id": "x", "reward": 0, "labels": {"GI": [0]}}
"#;
        let c = read_jsonl(text);
        let common = operation_profile(&c.trajectories, &ProfileOptions::default());
        assert_eq!(common.tasks, ["x"]);
        assert_eq!((common.n_total, common.n_used), (3, 2));
        assert_eq!(common.scores[0], vec![Some(100.0)]);
        let all = operation_profile(
            &c.trajectories,
            &ProfileOptions {
                all_tasks: true,
                ..Default::default()
            },
        );
        assert_eq!(all.scores[0], vec![Some(50.0)]);
        assert_eq!(all.reward[0], Some(50.0));
        assert_eq!(all.families[0], None);
        assert_eq!(all.to_table().families[0], "unknown");
    }

    #[test]
    fn label_csv_joins_on_id_and_locates_errors() {
        let mut c = read_jsonl(JSONL);
        let n = apply_label_csv(
            &mut c,
            "trajectory_id,operation,requirement,label\nt2,ST,r2,1\nt2,ST,r1,0.5\nt3,ST,r1,NA\n",
        )
        .unwrap();
        assert_eq!(n, 3);
        assert_eq!(c.trajectories[1].labels["ST"], vec![Some(0.5), Some(1.0)]);
        assert_eq!(c.trajectories[2].labels["ST"], vec![None]);
        let e = apply_label_csv(
            &mut c,
            "trajectory_id,operation,requirement,label\nt2,ST,r1,2\n",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "line 2: label `2` is not 0, 0.5, 1 or null");
        let e = apply_label_csv(
            &mut c,
            "trajectory_id,operation,requirement,label\nzz,ST,r1,1\n",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "line 2: no trajectory with id `zz`");
        let e = apply_label_csv(&mut c, "id,operation,requirement,label\n").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("the label file has no `trajectory_id` column"));
    }

    #[test]
    fn models_are_renamed_and_merged() {
        let mut c = read_jsonl(JSONL);
        let renames = vec![
            parse_rename("M1=Same").unwrap(),
            parse_rename("M2 = Same").unwrap(),
        ];
        assert_eq!(rename_models(&mut c.trajectories, &renames), 4);
        let p = operation_profile(&c.trajectories, &ProfileOptions::default());
        assert_eq!(p.models, ["Same"]);
        assert_eq!(p.eligible[0][0], 4, "both models' trajectories are pooled");
        assert!(parse_rename("nothing").is_err());
        assert!(parse_rename("=x").is_err());
    }

    #[test]
    fn formats_are_recognized() {
        assert_eq!(detect(JSONL), Some(TrajectoryFormat::Jsonl));
        assert_eq!(
            detect("[{\"task_id\": \"1\", \"messages\": []}]"),
            Some(TrajectoryFormat::Tau2)
        );
        assert_eq!(
            detect("{\"info\": {}, \"tasks\": [], \"simulations\": []}"),
            Some(TrajectoryFormat::Tau2)
        );
        assert_eq!(detect("{\"models\": []}"), None);
        assert_eq!(detect("model,family,TU\n"), None);
        let c = read_any(
            "x.json",
            "[{\"task_id\": \"1\", \"reward_info\": {\"reward\": 1.0}, \"messages\": []}]",
            None,
        )
        .unwrap();
        assert_eq!(
            c.trajectories[0].model, "x",
            "a bare list is named by its file"
        );
        assert!(read_any("p.csv", "model,family\n", None).is_err());
    }

    #[test]
    fn profile_csv_reads_back_with_counts_ignored() {
        let c = read_jsonl(JSONL);
        let mut p = operation_profile(&c.trajectories, &ProfileOptions::default());
        p.models[0] = "M1, \"large\"".into(); // a name that needs quoting
        let t = ProfileTable::read(&p.to_csv(), &Default::default()).unwrap();
        assert_eq!(t.models[0], "M1, \"large\"");
        assert_eq!(t.operations.names, ["GI", "RC"]);
        assert_eq!(t.ignored, ["n_GI", "n_RC"]);
        assert_eq!(t.operations.values, p.scores);
    }
}
