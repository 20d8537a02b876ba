//! ATIF trajectories (Harbor's `trajectory.json`, schema versions 1.0–1.8):
//! steps to messages, tool calls, observations matched by `source_call_id`.
//!
//! The model is Harbor's own (`harbor/models/trajectories/*.py`, read in
//! the `harbor` wheels 0.1.10, 0.1.17, 0.1.31 and 0.26.0), as the union of
//! its versions: 1.0–1.2 (session id, agent, steps with `message` text,
//! `tool_calls`, `observation.results`, `metrics`, `final_metrics`,
//! subagent references by session id); 1.3 adds `completion_token_ids`,
//! 1.4 `prompt_token_ids` and the agent's `tool_definitions`, 1.5
//! `is_copied_context` and `continued_trajectory_ref`, 1.6 content parts
//! (images) for `message` and result `content`, 1.7 `trajectory_id`,
//! embedded `subagent_trajectories`, `llm_call_count` and `extra` on calls
//! and results (`session_id` optional), 1.8 audio parts. Token ids,
//! logprobs, tool definitions and `extra` are skipped by the parser.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::{Corpus, ReadOptions};
use crate::trajectory::{Detail, LineError, Message, ToolCall, Trajectory, UNKNOWN_DOMAIN};

/// The schema versions Harbor's models accept (0.26.0).
pub const VERSIONS: [&str; 9] = [
    "ATIF-v1.0",
    "ATIF-v1.1",
    "ATIF-v1.2",
    "ATIF-v1.3",
    "ATIF-v1.4",
    "ATIF-v1.5",
    "ATIF-v1.6",
    "ATIF-v1.7",
    "ATIF-v1.8",
];

/// At most this many notes (results answering no call, step ids out of
/// order) are kept per trajectory; the rest are counted.
const MAX_NOTES: usize = 20;
/// At most this many subagent trajectories are listed in the details.
const MAX_SUBAGENTS: usize = 50;

/// Why an ATIF document could not be read, located by its JSON path.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AtifError {
    #[error("{path}: {message} (line {line}, column {column})")]
    Json {
        path: String,
        message: String,
        line: usize,
        column: usize,
    },
    #[error("`schema_version` is `{0}`, not an ATIF version (ATIF-v1.0 to ATIF-v1.8)")]
    Version(String),
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

#[derive(Deserialize)]
struct Doc {
    schema_version: String,
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    trajectory_id: Option<String>,
    agent: Agent,
    steps: Vec<Step>,
    #[serde(default)]
    notes: Option<String>,
    #[serde(default)]
    final_metrics: Option<FinalMetrics>,
    #[serde(default)]
    continued_trajectory_ref: Option<String>,
    #[serde(default)]
    subagent_trajectories: Option<Vec<Doc>>,
}

#[derive(Deserialize)]
struct Agent {
    name: String,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    model_name: Option<String>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Source {
    System,
    User,
    Agent,
}

#[derive(Deserialize)]
struct Step {
    #[serde(default, rename = "step_id")]
    id: Option<i64>,
    source: Source,
    #[serde(default)]
    model_name: Option<String>,
    #[serde(default)]
    message: Value,
    #[serde(default)]
    reasoning_content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<Call>>,
    #[serde(default)]
    observation: Option<Observation>,
    #[serde(default)]
    metrics: Option<Metrics>,
    #[serde(default)]
    is_copied_context: Option<bool>,
}

#[derive(Deserialize)]
struct Call {
    tool_call_id: String,
    function_name: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct Observation {
    results: Vec<ObsResult>,
}

#[derive(Deserialize)]
struct ObsResult {
    #[serde(default)]
    source_call_id: Option<String>,
    #[serde(default)]
    content: Value,
    #[serde(default)]
    subagent_trajectory_ref: Option<Vec<SubRef>>,
}

#[derive(Deserialize)]
struct SubRef {
    #[serde(default)]
    trajectory_id: Option<String>,
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    trajectory_path: Option<String>,
}

#[derive(Deserialize, Default)]
struct Metrics {
    #[serde(default)]
    prompt_tokens: Option<i64>,
    #[serde(default)]
    completion_tokens: Option<i64>,
    #[serde(default)]
    cached_tokens: Option<i64>,
    #[serde(default)]
    cost_usd: Option<f64>,
}

#[derive(Deserialize)]
#[allow(clippy::struct_field_names, reason = "ATIF's own field names")]
struct FinalMetrics {
    #[serde(default)]
    total_prompt_tokens: Option<i64>,
    #[serde(default)]
    total_completion_tokens: Option<i64>,
    #[serde(default)]
    total_cached_tokens: Option<i64>,
    #[serde(default)]
    total_cost_usd: Option<f64>,
    #[serde(default)]
    total_steps: Option<i64>,
}

/// What an ATIF document gives a trajectory (the bare reader and the
/// Harbor trial reader build theirs from it).
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub messages: Vec<Message>,
    pub details: Vec<Detail>,
    /// `agent.model_name`, else the first step's `model_name`.
    pub model: Option<String>,
    /// `agent.name`.
    pub agent: String,
    /// The document's identity: (`session_id`, `trajectory_id`, agent
    /// name), if it has a session or trajectory id.
    pub identity: Option<String>,
    /// Located sentences on what was read and kept but deserves a look.
    pub notes: Vec<String>,
    /// A schema version newer than 1.8, read as 1.8.
    pub newer_version: Option<String>,
}

/// Read one ATIF document.
pub fn parse(text: &str) -> Result<Parsed, AtifError> {
    let text = text.trim_start_matches('\u{feff}');
    if !text.trim_start().starts_with('{') {
        return Err(AtifError::Invalid {
            path: "the document".into(),
            message: "expected a JSON object (an ATIF trajectory)".into(),
        });
    }
    let doc: Doc = match serde_json::from_str(text) {
        Ok(d) => d,
        Err(e) => {
            // A version this reader does not know explains a shape it
            // cannot read better than the shape does.
            if let super::probe::Shape::Object(r) = super::probe::probe(text) {
                if let Some(v) = r
                    .string("schema_version")
                    .filter(|v| version_minor(v).is_none())
                {
                    return Err(AtifError::Version(v.to_string()));
                }
            }
            return Err(located(text, &e));
        }
    };
    let newer_version = match version_minor(&doc.schema_version) {
        None => return Err(AtifError::Version(doc.schema_version)),
        Some(m) if m > 8 => Some(doc.schema_version.clone()),
        Some(_) => None,
    };
    let mut p = convert(&doc)?;
    p.newer_version = newer_version;
    Ok(p)
}

/// `ATIF-v1.N` → N.
fn version_minor(v: &str) -> Option<u32> {
    v.strip_prefix("ATIF-v1.")
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && n.len() < 6)
        .and_then(|n| n.parse().ok())
}

/// A serde error with the JSON path of where it happened.
fn located(text: &str, e: &serde_json::Error) -> AtifError {
    let (line, column) = (e.line(), e.column());
    let message = e.to_string();
    // A missing field is reported at the end of its object: the object's
    // path, not its last member's.
    let path = json_path(
        text,
        offset_of(text, line, column),
        message.starts_with("missing field"),
    );
    // serde_json appends " at line L column C": said once, below.
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m)
        .to_string();
    AtifError::Json {
        path,
        message,
        line,
        column,
    }
}

/// The byte offset of (line, column), both 1-based as serde_json gives them.
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    (start + column.saturating_sub(1)).min(text.len())
}

/// The JSON path (`steps[3].observation.results[0]`) of the value open at
/// `offset` in `text`, by a scan of the structure before it (no values
/// built; any depth).
/// `object`: the path of the innermost object itself (without the member
/// last opened in it).
pub(crate) fn json_path(text: &str, offset: usize, object: bool) -> String {
    enum Frame {
        Object { key: Option<String>, in_key: bool },
        Array { index: usize },
    }
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' => stack.push(Frame::Object {
                key: None,
                in_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { key, in_key }) => {
                    *key = None;
                    *in_key = true;
                }
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { in_key, .. }) = stack.last_mut() {
                    *in_key = false;
                }
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if let Some(Frame::Object { key, in_key: true }) = stack.last_mut() {
                    let k = text.get(start..i.min(bytes.len())).unwrap_or("");
                    *key = Some(k.chars().take(64).collect());
                }
            }
            _ => {}
        }
        i += 1;
    }
    if object {
        if let Some(Frame::Object { in_key, .. }) = stack.last_mut() {
            *in_key = true;
        }
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Object {
                key: Some(k),
                in_key: false,
            } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object { .. } => {}
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    if path.is_empty() {
        "the document".into()
    } else {
        path
    }
}

/// A step's or result's content: text, content parts, or nothing.
fn content(value: &Value, path: impl FnOnce() -> String) -> Result<Option<Value>, AtifError> {
    match value {
        Value::Null => Ok(None),
        Value::String(_) | Value::Array(_) => Ok(Some(value.clone())),
        other => Err(AtifError::Invalid {
            path: path(),
            message: format!(
                "expected text or a list of content parts, found {}",
                kind(other)
            ),
        }),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// An agent step's content with its reasoning first (as Inspect's content
/// parts: `{type: reasoning, reasoning}` then the text or parts).
fn with_reasoning(message: Option<Value>, reasoning: Option<&str>) -> Option<Value> {
    let Some(r) = reasoning.filter(|r| !r.is_empty()) else {
        return message;
    };
    let mut parts = vec![json!({"type": "reasoning", "reasoning": r})];
    match message {
        Some(Value::String(s)) if !s.is_empty() => parts.push(json!({"type": "text", "text": s})),
        Some(Value::Array(a)) => parts.extend(a),
        _ => {}
    }
    Some(Value::Array(parts))
}

#[derive(Default)]
struct Sums {
    prompt: Option<i64>,
    completion: Option<i64>,
    cached: Option<i64>,
    cost: Option<f64>,
}

impl Sums {
    fn add(&mut self, m: &Metrics) {
        fn plus(a: &mut Option<i64>, b: Option<i64>) {
            if let Some(b) = b {
                *a = Some(a.unwrap_or(0).saturating_add(b));
            }
        }
        plus(&mut self.prompt, m.prompt_tokens);
        plus(&mut self.completion, m.completion_tokens);
        plus(&mut self.cached, m.cached_tokens);
        if let Some(c) = m.cost_usd {
            self.cost = Some(self.cost.unwrap_or(0.0) + c);
        }
    }
}

/// `{name: value}` of the fields present.
fn present(fields: &[(&str, Option<Value>)]) -> Map<String, Value> {
    fields
        .iter()
        .filter_map(|(k, v)| v.clone().map(|v| ((*k).to_string(), v)))
        .collect()
}

fn tokens_detail(doc: &Doc, sums: &Sums) -> Option<Detail> {
    let o = if let Some(f) = &doc.final_metrics {
        let mut o = present(&[
            ("prompt_tokens", f.total_prompt_tokens.map(Value::from)),
            (
                "completion_tokens",
                f.total_completion_tokens.map(Value::from),
            ),
            ("cached_tokens", f.total_cached_tokens.map(Value::from)),
            ("cost_usd", f.total_cost_usd.map(Value::from)),
            ("steps", f.total_steps.map(Value::from)),
        ]);
        o.insert("from".into(), "final_metrics".into());
        o
    } else {
        let mut o = present(&[
            ("prompt_tokens", sums.prompt.map(Value::from)),
            ("completion_tokens", sums.completion.map(Value::from)),
            ("cached_tokens", sums.cached.map(Value::from)),
            ("cost_usd", sums.cost.map(Value::from)),
        ]);
        o.insert("from".into(), "the steps' metrics, summed".into());
        o
    };
    (o.len() > 1).then(|| Detail {
        label: "tokens and cost".into(),
        value: Value::Object(o),
    })
}

/// The subagent trajectories a document references or embeds.
fn subagents_detail(doc: &Doc, refs: &[(usize, &SubRef)]) -> Option<Detail> {
    let embedded = doc.subagent_trajectories.as_deref().unwrap_or_default();
    let describe = |d: &Doc| {
        json!({
            "agent": d.agent.name,
            "model": d.agent.model_name.as_deref().or_else(|| first_step_model(d)),
            "steps": d.steps.len(),
        })
    };
    let mut list: Vec<Value> = Vec::new();
    let mut used: HashSet<&str> = HashSet::new();
    for (step, r) in refs {
        let mut o = present(&[
            ("step", Some(Value::from(*step))),
            ("trajectory_id", r.trajectory_id.clone().map(Value::from)),
            ("session_id", r.session_id.clone().map(Value::from)),
            (
                "trajectory_path",
                r.trajectory_path.clone().map(Value::from),
            ),
        ]);
        if let Some(e) = r.trajectory_id.as_deref().and_then(|id| {
            embedded
                .iter()
                .find(|e| e.trajectory_id.as_deref() == Some(id))
        }) {
            used.extend(e.trajectory_id.as_deref());
            o.insert("embedded".into(), describe(e));
        }
        list.push(Value::Object(o));
    }
    for e in embedded {
        if !e
            .trajectory_id
            .as_deref()
            .is_some_and(|id| used.contains(id))
        {
            let mut o = present(&[
                ("trajectory_id", e.trajectory_id.clone().map(Value::from)),
                ("session_id", e.session_id.clone().map(Value::from)),
            ]);
            o.insert("embedded".into(), describe(e));
            list.push(Value::Object(o));
        }
    }
    if list.is_empty() {
        return None;
    }
    let n = list.len();
    list.truncate(MAX_SUBAGENTS);
    if n > MAX_SUBAGENTS {
        list.push(Value::from(format!("… {} more", n - MAX_SUBAGENTS)));
    }
    Some(Detail {
        label: "subagent trajectories".into(),
        value: Value::Array(list),
    })
}

fn first_step_model(d: &Doc) -> Option<&str> {
    d.steps.iter().find_map(|s| s.model_name.as_deref())
}

fn note(notes: &mut Vec<String>, dropped: &mut usize, text: String) {
    if notes.len() < MAX_NOTES {
        notes.push(text);
    } else {
        *dropped += 1;
    }
}

/// What a document says beyond its messages, in the order shown.
fn details_of(
    doc: &Doc,
    model: Option<&str>,
    sums: &Sums,
    refs: &[(usize, &SubRef)],
    copied: usize,
) -> Vec<Detail> {
    let mut details = vec![Detail {
        label: "agent".into(),
        value: Value::from(match &doc.agent.version {
            Some(v) => format!("{} {v}", doc.agent.name),
            None => doc.agent.name.clone(),
        }),
    }];
    details.push(Detail {
        label: "ATIF".into(),
        value: Value::Object(present(&[
            (
                "schema_version",
                Some(Value::from(doc.schema_version.as_str())),
            ),
            ("session_id", doc.session_id.clone().map(Value::from)),
            ("trajectory_id", doc.trajectory_id.clone().map(Value::from)),
        ])),
    });
    let mut step_models: Vec<&str> = Vec::new();
    for m in doc.steps.iter().filter_map(|s| s.model_name.as_deref()) {
        if Some(m) != model && !step_models.contains(&m) && step_models.len() < 10 {
            step_models.push(m);
        }
    }
    if !step_models.is_empty() {
        details.push(Detail {
            label: "other models of steps".into(),
            value: json!(step_models),
        });
    }
    details.extend(tokens_detail(doc, sums));
    details.extend(subagents_detail(doc, refs));
    if copied > 0 {
        details.push(Detail {
            label: "steps copied from an earlier trajectory for context".into(),
            value: Value::from(copied),
        });
    }
    if let Some(c) = &doc.continued_trajectory_ref {
        details.push(Detail {
            label: "continued in".into(),
            value: Value::from(c.as_str()),
        });
    }
    if let Some(n) = doc.notes.as_deref().filter(|n| !n.is_empty()) {
        details.push(Detail {
            label: "notes".into(),
            value: Value::from(n.chars().take(2000).collect::<String>()),
        });
    }
    details
}

fn convert(doc: &Doc) -> Result<Parsed, AtifError> {
    if doc.steps.is_empty() {
        return Err(AtifError::Invalid {
            path: "steps".into(),
            message: "no step (ATIF requires at least one)".into(),
        });
    }
    let mut messages = Vec::with_capacity(doc.steps.len() * 2);
    let mut notes = Vec::new();
    let mut dropped = 0usize;
    let mut calls: HashSet<&str> = HashSet::new();
    let mut refs: Vec<(usize, &SubRef)> = Vec::new();
    let mut sums = Sums::default();
    let mut copied = 0usize;
    for (i, step) in doc.steps.iter().enumerate() {
        if step.id != Some(i as i64 + 1) {
            let found = step.id.map_or("missing".into(), |s| s.to_string());
            note(
                &mut notes,
                &mut dropped,
                format!(
                    "steps[{i}]: step_id is {found}, expected {} (sequential from 1); read in file order",
                    i + 1
                ),
            );
        }
        let role = match step.source {
            Source::System => "system",
            Source::User => "user",
            Source::Agent => "assistant",
        };
        let text = content(&step.message, || format!("steps[{i}].message"))?;
        let tool_calls: Vec<ToolCall> = step
            .tool_calls
            .iter()
            .flatten()
            .map(|c| ToolCall {
                id: Some(c.tool_call_id.clone()),
                name: c.function_name.clone(),
                arguments: c.arguments.clone(),
            })
            .collect();
        calls.extend(
            step.tool_calls
                .iter()
                .flatten()
                .map(|c| c.tool_call_id.as_str()),
        );
        messages.push(Message {
            role: role.into(),
            content: with_reasoning(text, step.reasoning_content.as_deref()),
            tool_calls,
            tool_call_id: None,
            error: None,
        });
        for (j, r) in step
            .observation
            .iter()
            .flat_map(|o| o.results.iter())
            .enumerate()
        {
            if let Some(id) = r.source_call_id.as_deref() {
                if !calls.contains(id) {
                    note(
                        &mut notes,
                        &mut dropped,
                        format!(
                            "steps[{i}].observation.results[{j}]: answers call `{}`, which no tool call of this or an earlier step made; kept",
                            id.chars().take(200).collect::<String>()
                        ),
                    );
                }
            }
            refs.extend(
                r.subagent_trajectory_ref
                    .iter()
                    .flatten()
                    .map(|s| (i + 1, s)),
            );
            messages.push(Message {
                role: "tool".into(),
                content: content(&r.content, || {
                    format!("steps[{i}].observation.results[{j}].content")
                })?,
                tool_calls: Vec::new(),
                tool_call_id: r.source_call_id.clone(),
                error: None,
            });
        }
        if let Some(m) = &step.metrics {
            sums.add(m);
        }
        copied += usize::from(step.is_copied_context == Some(true));
    }
    if dropped > 0 {
        notes.push(format!("… {dropped} more notes like these"));
    }
    let model = doc
        .agent
        .model_name
        .clone()
        .or_else(|| first_step_model(doc).map(str::to_string));
    let details = details_of(doc, model.as_deref(), &sums, &refs, copied);
    let identity = (doc.session_id.is_some() || doc.trajectory_id.is_some()).then(|| {
        format!(
            "atif\u{1f}{}\u{1f}{}\u{1f}{}",
            doc.session_id.as_deref().unwrap_or(""),
            doc.trajectory_id.as_deref().unwrap_or(""),
            doc.agent.name
        )
    });
    Ok(Parsed {
        messages,
        details,
        model,
        agent: doc.agent.name.clone(),
        identity,
        notes,
        newer_version: None,
    })
}

/// What a bare trajectory file is called: its name without `.json` and
/// `.trajectory`; Harbor's own `…/<trial>/agent/trajectory.json` is named
/// by its trial folder.
pub fn file_label(name: &str) -> String {
    let parts: Vec<&str> = name.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let file = parts.last().copied().unwrap_or("");
    let stem = file.strip_suffix(".json").unwrap_or(file);
    let stem = stem.strip_suffix(".trajectory").unwrap_or(stem);
    if stem == "trajectory" && parts.len() >= 2 {
        let parent = parts[parts.len() - 2];
        if parent == "agent" && parts.len() >= 3 {
            return parts[parts.len() - 3].to_string();
        }
        return parent.to_string();
    }
    if stem.is_empty() {
        "trajectory".into()
    } else {
        stem.to_string()
    }
}

/// The task of a trial named by Harbor's rule, `<task>__<7 letters or
/// digits>` (`TrialConfig.generate_trial_name`); other names are the task.
pub fn task_of_label(label: &str) -> &str {
    match label.rsplit_once("__") {
        Some((task, suffix))
            if !task.is_empty()
                && suffix.len() == 7
                && suffix.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            task
        }
        _ => label,
    }
}

/// Read a bare ATIF file (`name` for messages): one trajectory, its task
/// named by the file ([`file_label`], [`task_of_label`]), of no task set
/// unless `--domain` gives one, with no reward (ATIF records none).
pub fn read(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    let p = parse(text).map_err(|e| e.to_string())?;
    let label = file_label(name);
    let task = task_of_label(&label).to_string();
    let mut warnings = Vec::new();
    if let Some(v) = &p.newer_version {
        warnings.push(format!(
            "is of schema version `{v}`, newer than the newest this reader knows (ATIF-v1.8): read as ATIF-v1.8, fields it does not know ignored"
        ));
    }
    warnings.push(format!(
        "is a bare ATIF trajectory, which records no task: its task is `{task}` (from the file's name){}",
        if options.domain.is_some() {
            String::new()
        } else {
            format!(", of domain `{UNKNOWN_DOMAIN}`; give the task set with --domain")
        }
    ));
    warnings.push(
        "has no reward (an ATIF trajectory records none): read the Harbor trial or job folder that holds it, whose `result.json` has the verifier's reward".into(),
    );
    let model = match (&p.model, &options.model) {
        (Some(m), _) => m.clone(),
        (None, given) => {
            if given.is_none() {
                warnings.push(format!(
                    "names no model (no `agent.model_name` nor a step's `model_name`): its trajectory is taken to be of model `{}`, the agent's name; give the model with --model",
                    p.agent
                ));
            }
            p.agent.clone()
        }
    };
    let notes = p
        .notes
        .into_iter()
        .map(|message| LineError { line: 0, message })
        .collect();
    Ok(Corpus {
        trajectories: vec![Trajectory {
            id: label,
            model,
            domain: options.domain.clone(),
            task_id: task,
            messages: p.messages,
            details: p.details,
            source_id: p.identity,
            ..Trajectory::default()
        }],
        notes,
        warnings,
        ..Corpus::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_paths_name_the_open_value() {
        let t = r#"{"steps": [{"a": 1}, {"observation": {"results": [{"content": 5"#;
        assert_eq!(
            json_path(t, t.len(), false),
            "steps[1].observation.results[0].content"
        );
        assert_eq!(json_path("{\"a\": \"x,]\", \"b\": [", 19, false), "b[0]");
        assert_eq!(json_path("[1, 2", 5, false), "[1]");
        assert_eq!(json_path("", 0, false), "the document");
    }

    #[test]
    fn labels_and_tasks_from_file_names() {
        assert_eq!(
            file_label("x/openhands__hello-world.trajectory.json"),
            "openhands__hello-world"
        );
        assert_eq!(
            file_label("job/hello-world__AbC1234/agent/trajectory.json"),
            "hello-world__AbC1234"
        );
        assert_eq!(file_label("run/trajectory.json"), "run");
        assert_eq!(file_label("trajectory.json"), "trajectory");
        assert_eq!(task_of_label("hello-world__AbC1234"), "hello-world");
        assert_eq!(
            task_of_label("openhands__hello-world"),
            "openhands__hello-world"
        );
        assert_eq!(task_of_label("__AbC1234"), "__AbC1234");
    }

    #[test]
    fn versions() {
        assert_eq!(version_minor("ATIF-v1.0"), Some(0));
        assert_eq!(version_minor("ATIF-v1.8"), Some(8));
        assert_eq!(version_minor("ATIF-v1.12"), Some(12));
        assert_eq!(version_minor("ATIF-v2.0"), None);
        assert_eq!(version_minor("ATIF-v1."), None);
        assert!(VERSIONS.iter().all(|v| version_minor(v).is_some()));
    }
}
