//! The trajectory model (spec: formats.md, "Trajectories"): trajectories,
//! messages, tool calls, task identity (domain, task id), and the checks of
//! names every reader applies. Readers are in [`crate::formats`], label CSVs
//! in [`crate::labels`], operation profiles in [`crate::operations`].

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

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

impl Message {
    /// A message with a role and a content, and no tool calls, no tool
    /// call id, no error flag.
    pub fn new(role: &str, content: Option<serde_json::Value>) -> Message {
        Message {
            role: role.into(),
            content,
            tool_calls: Vec::new(),
            tool_call_id: None,
            error: None,
        }
    }
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
    /// ([`ReadOptions::light`](crate::formats::ReadOptions::light)); `None` when the messages are here.
    #[serde(skip)]
    pub stats: Option<MessageStats>,
    /// The file's own identity of this trajectory ([`Trajectory::identity`]):
    /// a τ²-bench simulation id, an Inspect (eval id, sample id, epoch), a
    /// canonical (model, id); for files that give none, the file's SHA-256
    /// and the trajectory's place in it. Set by the readers.
    #[serde(skip)]
    pub source_id: Option<String>,
    /// What the file says of the run beyond its messages, shown beside
    /// them in the viewer (a τ³ `review`, a Harbor exception, tokens and
    /// cost), in the reader's order. Dropped by a light read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Detail>,
    /// Every score the file records for the trajectory, whichever one the
    /// reward came from (Inspect: each scorer's `scores` entry; τ²-bench:
    /// the reward's components — DB, COMMUNICATE, ACTION, NL assertions),
    /// in the file's order. Dropped by a light read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<Score>,
    /// The restored state a branch run or a continuation starts from
    /// (spec: realization-gaps.md, "Experiments beside the corpus"). A
    /// trajectory with a checkpoint is an experiment's, never the corpus's:
    /// it is left out of the operation profile, the reward, the common-task
    /// subset and stability ([`Trajectory::is_experiment`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    /// Which branch of a local content intervention this run is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<Branch>,
    /// The intervention's name (`planning_repair`, …); an original or
    /// control branch without one serves every intervention of its
    /// (checkpoint, model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
    /// The intervention's stratum (`damage`, `repair`, …), read from the
    /// edited branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stratum: Option<String>,
    /// The experimental condition the run ran under (continuations: `N`
    /// natural, `I` the checking prompt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// The continuation round (`initial`, `expansion`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// `repetition`, an alias of `trial` read by the canonical reader
    /// (`trial` wins when both are present); folded into `trial` there and
    /// never written.
    #[serde(default, skip_serializing)]
    pub repetition: Option<i64>,
    /// The constraint violations found in a continuation: an empty list
    /// means checked and none found; `None` means not checked (not
    /// scoreable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violations: Option<Vec<Violation>>,
}

/// The branch of a local content intervention (spec: realization-gaps.md,
/// "Local content interventions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Branch {
    /// The run continued from the checkpoint as it was.
    Original,
    /// The run continued after the intervention's edit.
    Edited,
    /// The run continued after a semantics-preserving rewrite.
    Control,
}

impl Branch {
    pub fn name(self) -> &'static str {
        match self {
            Branch::Original => "original",
            Branch::Edited => "edited",
            Branch::Control => "control",
        }
    }
}

/// One constraint violation in a continuation: the 1-based assistant
/// decision it was found at, and the constraint broken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    pub step: u64,
    pub constraint: String,
}

/// One score a file records for a trajectory ([`Trajectory::scores`]): the
/// scorer (or reward component) that gave it, its value as the file has it,
/// and what the scorer said of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub scorer: String,
    pub value: serde_json::Value,
    /// The answer the scorer extracted (Inspect), or what was checked
    /// (τ²-bench: the NL assertion, the communicated info).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
}

/// One thing a file says of a trajectory beyond its messages
/// ([`Trajectory::details`]): a label for a person and the file's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Detail {
    pub label: String,
    pub value: serde_json::Value,
}

/// What the list of trajectories needs of their messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MessageStats {
    pub messages: usize,
    pub tool_calls: usize,
    /// Tool results marked as errors.
    pub tool_errors: usize,
    /// Assistant messages (a continuation's steps).
    pub assistant: usize,
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
pub fn several_domains<'a>(trajectories: impl IntoIterator<Item = &'a Trajectory>) -> bool {
    let mut first: Option<&str> = None;
    trajectories.into_iter().any(|t| {
        let d = t.task_key().domain;
        *first.get_or_insert(d) != d
    })
}

/// A canonical trajectory's identity: (model, id) as its file has them.
pub(crate) fn canonical_identity(model: &str, id: &str) -> String {
    format!("jsonl\u{1f}{model}\u{1f}{id}")
}

/// What kind of identity two repeated trajectories share, for the warning.
pub fn identity_kind(identity: &str) -> &'static str {
    match identity.split('\u{1f}').next() {
        Some("tau2") => "the same τ²-bench simulation ids",
        Some("inspect") => "the same Inspect eval id, sample ids and epochs",
        Some("jsonl") => "the same trajectory ids and models",
        Some("atif") => "the same ATIF session ids, trajectory ids and agents",
        Some("harbor") => "the same Harbor trial ids",
        Some("claude_code") => "the same Claude Code session ids",
        Some("codex") => "the same Codex thread ids",
        Some("gemini") => "the same Gemini CLI session ids",
        Some("openhands") => "the same OpenHands instance ids and first event ids",
        Some("parquet") => "the same Parquet dataset trajectory ids",
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
            assistant: self
                .messages
                .iter()
                .filter(|m| m.role == "assistant")
                .count(),
        })
    }

    /// Whether the trajectory belongs to an experiment beside the corpus (it
    /// names a `checkpoint`): excluded from the operation profile, the reward,
    /// the common-task subset and stability.
    pub fn is_experiment(&self) -> bool {
        self.checkpoint.is_some()
    }

    /// Drop the messages, keeping their counts (a light read: what profiles,
    /// lists and stability need, in a fraction of the memory).
    pub fn lighten(&mut self) {
        if self.stats.is_none() {
            self.stats = Some(self.message_stats());
            self.messages = Vec::new();
            self.details = Vec::new();
            self.scores = Vec::new();
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

/// The note on a trajectory whose tool results answer call ids that no
/// earlier tool call of the trajectory has (the trajectory is kept: labels and
/// reward do not depend on the pairing, but the log is likely cut or merged).
/// The ids seen are a set: one long session has tens of thousands of calls.
pub(crate) fn unknown_call_ids(t: &Trajectory) -> Option<String> {
    let mut calls: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut unknown: Vec<String> = Vec::new();
    for (k, m) in t.messages.iter().enumerate() {
        if let Some(id) = &m.tool_call_id {
            if !calls.contains(id.as_str()) {
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
pub(crate) fn bad_operation_name(op: &str) -> Option<&'static str> {
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
pub(crate) fn long_operation_name(op: &str) -> String {
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
pub(crate) fn bad_row_name(field: &str, name: &str) -> Option<String> {
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
pub(crate) fn check_names(t: &Trajectory, model: bool) -> Result<(), String> {
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

/// The experiment fields of a canonical trajectory (spec: realization-gaps.md,
/// "Experiments beside the corpus"): names as [`bad_name`] wants them; the
/// fields of a branch run or a continuation only with the `checkpoint` they
/// continue from; violation steps 1-based, constraints named. Folds
/// `repetition` into `trial` (`trial` wins).
pub(crate) fn check_experiment(t: &mut Trajectory) -> Result<(), String> {
    let named = [
        ("checkpoint", &t.checkpoint),
        ("intervention", &t.intervention),
        ("stratum", &t.stratum),
        ("condition", &t.condition),
        ("round", &t.round),
    ];
    for (what, name) in named {
        if let Some(why) = name.as_deref().and_then(|n| bad_name(what, n)) {
            return Err(format!("trajectory `{}`: {why}", t.id));
        }
    }
    if t.checkpoint.is_none() {
        let needs = [
            ("branch", t.branch.is_some()),
            ("intervention", t.intervention.is_some()),
            ("stratum", t.stratum.is_some()),
            ("round", t.round.is_some()),
            ("violations", t.violations.is_some()),
        ];
        if let Some((field, _)) = needs.iter().find(|(_, set)| *set) {
            return Err(format!(
                "trajectory `{}`: `{field}` belongs to a branch run or a continuation, which names the `checkpoint` it continues from; this line has no `checkpoint`",
                t.id
            ));
        }
    }
    for (i, v) in t.violations.iter().flatten().enumerate() {
        if v.step == 0 {
            return Err(format!(
                "trajectory `{}`: violations[{i}].step is 0; steps count the continuation's assistant messages from 1",
                t.id
            ));
        }
        if let Some(why) = bad_name("constraint", &v.constraint) {
            return Err(format!("trajectory `{}`: violations[{i}]: {why}", t.id));
        }
    }
    if t.trial.is_none() {
        t.trial = t.repetition;
    }
    Ok(())
}

pub(crate) fn check_labels(t: &Trajectory) -> Result<(), String> {
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
        if r.abs() > crate::profile::MAX_MAGNITUDE {
            return Err(format!(
                "trajectory `{}`: reward {r:e} is too large in magnitude (at most {:e}); rescale the rewards",
                t.id,
                crate::profile::MAX_MAGNITUDE
            ));
        }
    }
    Ok(())
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
