//! OpenHands event lists and evaluation `output.jsonl` (`instance_id`,
//! `history`, `test_result`; docs/formats.md, "OpenHands events and
//! `output.jsonl`").
//!
//! Two event schemas are read, told apart per event:
//! - the OpenHands (V0) serialization (`openhands/events/serialization`):
//!   `{id, source, action | observation, args, content, cause,
//!   tool_call_metadata: {function_name, tool_call_id, model_response}}`;
//! - the OpenHands software-agent SDK's (`openhands/sdk/event`), which
//!   `OpenHands/benchmarks` writes in `output.jsonl`: `{kind:
//!   ActionEvent | ObservationEvent | MessageEvent | SystemPromptEvent |
//!   AgentErrorEvent | UserRejectObservation | …, id, source, …}`.
//!
//! Actions that call a tool become assistant tool calls (the calls of one
//! model response in one message); observations become tool results
//! answering them (by `tool_call_id`, or V0's `cause` → the action's call).
//! Agent-state changes, recalls, condensations and the like are not messages.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::simple::{self, SimpleError};
use super::taubench_v1::ChatToolCall;
use super::{Corpus, ReadOptions};
use crate::trajectory::{
    check_names, Detail, LineError, Message, ToolCall, Trajectory, UNKNOWN_DOMAIN,
};

/// `action` / `observation`: a name in V0 events, an object in SDK events.
#[derive(Debug)]
enum NameOr<T> {
    Name(String),
    Object(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NameOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = NameOr<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name or an object")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(NameOr::Name(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(m)).map(NameOr::Object)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// One event of either schema (the fields of both; unknown ones, such as
/// a browser observation's `screenshot_data`, are skipped unread).
#[derive(Debug, Deserialize)]
struct Event {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    action: Option<NameOr<de::IgnoredAny>>,
    #[serde(default)]
    observation: Option<NameOr<SdkObservation>>,
    // V0
    #[serde(default)]
    args: Option<Map<String, Value>>,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    message: Option<Value>,
    #[serde(default)]
    cause: Option<Value>,
    #[serde(default)]
    tool_call_metadata: Option<ToolCallMetadata>,
    #[serde(default)]
    success: Option<Value>,
    // SDK
    #[serde(default)]
    thought: Option<Value>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_call_id: Option<String>,
    #[serde(default)]
    tool_call: Option<SdkToolCall>,
    #[serde(default)]
    llm_response_id: Option<String>,
    #[serde(default)]
    llm_message: Option<SdkMessage>,
    #[serde(default)]
    system_prompt: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    rejection_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct SdkObservation {
    #[serde(default)]
    output: Option<Value>,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    message: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct ToolCallMetadata {
    function_name: String,
    tool_call_id: String,
    #[serde(default)]
    model_response: Option<ModelResponse>,
}

#[derive(Debug, Deserialize)]
struct ModelResponse {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    choices: Vec<Choice>,
}

#[derive(Debug, Deserialize)]
struct Choice {
    #[serde(default)]
    message: Option<ChoiceMessage>,
}

#[derive(Debug, Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    tool_calls: Option<Vec<ChatToolCall>>,
}

#[derive(Debug, Deserialize)]
struct SdkToolCall {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct SdkMessage {
    role: String,
    #[serde(default)]
    content: Option<Value>,
}

/// An event id as text (V0 ids are integers, SDK ids strings).
fn id_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// True for an error flag: `true`, or a non-empty error text.
fn is_error(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        _ => false,
    }
}

/// Events into canonical messages, one event at a time.
#[derive(Default)]
struct Builder {
    messages: Vec<Message>,
    /// V0: an action event's id → the tool call it made (for `cause`).
    call_of_event: HashMap<String, String>,
    /// The model response the last assistant message's calls came from.
    last_response: Option<String>,
    /// The model a V0 `model_response` names.
    model: Option<String>,
    /// Events that are not messages.
    ignored: usize,
}

impl Builder {
    /// A tool call, in the last assistant message when it came from the
    /// same model response (parallel calls), else in a new one.
    fn call(&mut self, call: ToolCall, response: Option<String>, thought: Option<Value>) {
        let same = response.is_some() && response == self.last_response;
        match self.messages.last_mut() {
            Some(last) if same && last.role == "assistant" && !last.tool_calls.is_empty() => {
                last.tool_calls.push(call);
            }
            _ => {
                let mut m = Message::new("assistant", thought);
                m.tool_calls.push(call);
                self.messages.push(m);
            }
        }
        self.last_response = response;
    }

    fn result(&mut self, id: String, content: Option<Value>, error: bool) {
        self.last_response = None;
        self.messages.push(Message {
            tool_call_id: Some(id),
            error: Some(error),
            ..Message::new("tool", content)
        });
    }

    fn say(&mut self, m: Message) {
        self.last_response = None;
        self.messages.push(m);
    }

    fn push(&mut self, e: Event) {
        match e.kind.clone() {
            Some(kind) => self.push_sdk(&kind, e),
            None => self.push_v0(e),
        }
    }

    fn push_v0(&mut self, e: Event) {
        let args = e.args.unwrap_or_default();
        let arg = |k: &str| simple::content(args.get(k).cloned());
        if let Some(NameOr::Name(action)) = &e.action {
            if let Some(meta) = e.tool_call_metadata {
                let response = meta.model_response;
                if self.model.is_none() {
                    self.model = response.as_ref().and_then(|r| r.model.clone());
                }
                // The call as the model made it, else the action's args.
                let made = response.as_ref().and_then(|r| {
                    r.choices
                        .iter()
                        .filter_map(|c| c.message.as_ref()?.tool_calls.as_ref())
                        .flatten()
                        .find(|c| c.id.as_deref() == Some(meta.tool_call_id.as_str()))
                        .map(|c| c.function.arguments.clone())
                });
                let arguments = match made {
                    Some(a) => simple::arguments(a),
                    None => Value::Object(args.clone()),
                };
                if let Some(id) = id_text(e.id.as_ref()) {
                    self.call_of_event.insert(id, meta.tool_call_id.clone());
                }
                self.call(
                    ToolCall {
                        id: Some(meta.tool_call_id),
                        name: meta.function_name,
                        arguments,
                    },
                    response.and_then(|r| r.id),
                    arg("thought"),
                );
                return;
            }
            match action.as_str() {
                "system" => self.say(Message::new("system", arg("content"))),
                "message" => {
                    let role = if e.source.as_deref() == Some("user") {
                        "user"
                    } else {
                        "assistant"
                    };
                    self.say(Message::new(
                        role,
                        arg("content").or_else(|| simple::content(e.message)),
                    ));
                }
                "finish" => self.say(Message::new(
                    "assistant",
                    arg("final_thought")
                        .or_else(|| arg("thought"))
                        .or_else(|| simple::content(e.message)),
                )),
                _ => self.ignored += 1,
            }
            return;
        }
        if let Some(NameOr::Name(obs)) = &e.observation {
            let call = e.tool_call_metadata.map(|m| m.tool_call_id).or_else(|| {
                id_text(e.cause.as_ref()).and_then(|c| self.call_of_event.get(&c).cloned())
            });
            let error = obs == "error" || e.success == Some(Value::Bool(false));
            match call {
                Some(id) => self.result(id, simple::content(e.content), error),
                None if obs == "error" => self.say(Message {
                    error: Some(true),
                    ..Message::new("system", simple::content(e.content))
                }),
                None => self.ignored += 1,
            }
            return;
        }
        self.ignored += 1;
    }

    fn push_sdk(&mut self, kind: &str, e: Event) {
        match kind {
            "SystemPromptEvent" => {
                self.say(Message::new("system", simple::content(e.system_prompt)));
            }
            "MessageEvent" => match e.llm_message {
                Some(m) => self.say(Message::new(&m.role, simple::content(m.content))),
                None => self.ignored += 1,
            },
            "ActionEvent" => {
                let tc = e.tool_call;
                let id = e
                    .tool_call_id
                    .or_else(|| tc.as_ref().and_then(|c| c.id.clone()));
                let name = e
                    .tool_name
                    .or_else(|| tc.as_ref().and_then(|c| c.name.clone()))
                    .unwrap_or_default();
                let thought = e.thought.and_then(|t| simple::content(Some(t)));
                self.call(
                    ToolCall {
                        id,
                        name,
                        arguments: simple::arguments(tc.and_then(|c| c.arguments)),
                    },
                    e.llm_response_id,
                    thought,
                );
            }
            "ObservationEvent" => {
                let Some(NameOr::Object(o)) = e.observation else {
                    self.ignored += 1;
                    return;
                };
                let error = is_error(o.error.as_ref());
                let text = [o.output, o.content, o.message]
                    .into_iter()
                    .find_map(simple::content)
                    .or_else(|| {
                        o.error
                            .filter(|_| error)
                            .and_then(|v| simple::content(Some(v)))
                    });
                match e.tool_call_id {
                    Some(id) => self.result(id, text, error),
                    None => self.ignored += 1,
                }
            }
            "UserRejectObservation" | "AgentErrorEvent" => {
                let text = e
                    .rejection_reason
                    .map(Value::String)
                    .or_else(|| simple::content(e.error));
                match e.tool_call_id {
                    Some(id) => self.result(id, text, true),
                    None => self.say(Message {
                        error: Some(true),
                        ..Message::new("system", text)
                    }),
                }
            }
            _ => self.ignored += 1,
        }
    }
}

/// Read an OpenHands event list (`name`: its file name, the task and, when
/// no event names one, the model).
pub fn read_events(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    let events =
        simple::parse_list::<Event>(text, "an OpenHands event").map_err(|e| e.to_string())?;
    if events.is_empty() {
        return Err(
            SimpleError::Empty("an empty list: no OpenHands event in it".into()).to_string(),
        );
    }
    let mut b = Builder::default();
    for (k, e) in events.into_iter().enumerate() {
        b.push(e.map_err(|m| format!("event {k}: {m}"))?);
    }
    if b.messages.is_empty() {
        return Err(format!(
            "none of the list's events is a message, a tool call or a tool result ({} ignored)",
            b.ignored
        ));
    }
    let stem = simple::file_stem(name);
    let mut warnings = vec![
        format!("an OpenHands event list names no task and has no reward: the file name `{stem}` is taken as the task id, and the reward is left empty, not 0"),
    ];
    let model = b.model.take().unwrap_or_else(|| {
        if options.model.is_none() {
            warnings.push(format!("names no model (no event's `tool_call_metadata.model_response.model`): the file name `{stem}` stands for it; give the name with --model"));
        }
        stem.to_string()
    });
    let t = Trajectory {
        id: stem.to_string(),
        model,
        domain: options.domain.clone(),
        task_id: stem.to_string(),
        messages: b.messages,
        ..Trajectory::default()
    };
    Ok(simple::one_trajectory(t, warnings))
}

/// One line of `output.jsonl` (`OpenHands/benchmarks` `EvalOutput`).
#[derive(Debug, Deserialize)]
struct OutputLine {
    instance_id: String,
    #[serde(default)]
    attempt: Option<i64>,
    #[serde(default)]
    resolved: Option<bool>,
    #[serde(default)]
    test_result: Option<Map<String, Value>>,
    #[serde(default)]
    metadata: Option<Metadata>,
    #[serde(default)]
    history: Vec<Event>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Metadata {
    #[serde(default)]
    llm: Option<LlmConfig>,
    #[serde(default)]
    llm_config: Option<LlmConfig>,
    #[serde(default)]
    dataset: Option<String>,
}

#[derive(Debug, Deserialize)]
struct LlmConfig {
    #[serde(default)]
    model: Option<String>,
}

/// Where a line's reward came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RewardFrom {
    Resolved,
    FinalScore,
    /// `final_score.total` is 0 (or less): no reward.
    ZeroTotal,
    /// Neither `resolved` nor `final_score`: no reward.
    Missing,
}

/// The reward of a line: `resolved` (the line's, `test_result`'s or
/// `test_result.report`'s) → 1 / 0; else `final_score.result / total`
/// when `total` > 0; else none.
fn reward(line: &OutputLine) -> (Option<f64>, RewardFrom) {
    let tr = line.test_result.as_ref();
    let resolved = line.resolved.or_else(|| {
        let tr = tr?;
        tr.get("resolved")
            .and_then(Value::as_bool)
            .or_else(|| tr.get("report")?.get("resolved")?.as_bool())
    });
    if let Some(r) = resolved {
        return (Some(if r { 1.0 } else { 0.0 }), RewardFrom::Resolved);
    }
    let Some(fs) = tr.and_then(|t| t.get("final_score")) else {
        return (None, RewardFrom::Missing);
    };
    match (
        fs.get("result").and_then(Value::as_f64),
        fs.get("total").and_then(Value::as_f64),
    ) {
        (Some(r), Some(t)) if t > 0.0 => (Some(r / t), RewardFrom::FinalScore),
        (Some(_), Some(_)) => (None, RewardFrom::ZeroTotal),
        _ => (None, RewardFrom::Missing),
    }
}

/// What a line says of its evaluation beyond the reward.
fn line_details(line: &OutputLine) -> Vec<Detail> {
    let mut d = Vec::new();
    if let Some(tr) = &line.test_result {
        let picked: Map<String, Value> = ["final_score", "resolved", "error"]
            .iter()
            .filter_map(|k| tr.get(*k).map(|v| ((*k).to_string(), v.clone())))
            .map(|(k, v)| match v {
                Value::String(s) => (k, Value::String(simple::cut(&s, 2048))),
                v => (k, v),
            })
            .collect();
        if !picked.is_empty() {
            d.push(Detail {
                label: "test result".into(),
                value: Value::Object(picked),
            });
        }
    }
    if let Some(e) = &line.error {
        d.push(Detail {
            label: "error".into(),
            value: Value::String(simple::cut(e, 2048)),
        });
    }
    d
}

/// Counts over the lines read, for the file's warnings.
#[derive(Default)]
struct Tally {
    lines: usize,
    from: [usize; 4],
    no_model: usize,
    no_dataset: usize,
}

/// One line into a trajectory (`seen`: ids so far, to keep them distinct).
fn output_trajectory(
    line: OutputLine,
    at: u64,
    stem: &str,
    options: &ReadOptions,
    seen: &mut HashMap<String, u64>,
    tally: &mut Tally,
) -> Result<Trajectory, String> {
    let (reward, from) = reward(&line);
    let meta = line.metadata.as_ref();
    let model = meta
        .and_then(|m| m.llm.as_ref().or(m.llm_config.as_ref()))
        .and_then(|l| l.model.clone())
        .filter(|m| !m.is_empty());
    let domain = meta
        .and_then(|m| m.dataset.clone())
        .filter(|d| !d.is_empty());
    let (no_model, no_dataset) = (model.is_none(), domain.is_none());
    let details = line_details(&line);
    let first_id = line.history.first().and_then(|e| match &e.id {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    });
    let mut b = Builder::default();
    for e in line.history {
        b.push(e);
    }
    // A repeated instance (another attempt) gets its line number.
    let id = if seen.contains_key(&line.instance_id) {
        format!("{}#{at}", line.instance_id)
    } else {
        line.instance_id.clone()
    };
    let t = Trajectory {
        source_id: first_id.map(|f| format!("openhands\u{1f}{}\u{1f}{f}", line.instance_id)),
        id,
        model: model.or(b.model).unwrap_or_else(|| stem.to_string()),
        domain: domain.or_else(|| options.domain.clone()),
        task_id: line.instance_id,
        trial: line.attempt,
        reward,
        termination_reason: line.error.as_ref().map(|_| "error".to_string()),
        messages: b.messages,
        details,
        ..Trajectory::default()
    };
    check_names(&t, options.model.is_none())?;
    seen.insert(t.task_id.clone(), at);
    // Counted once the line is kept.
    tally.from[from as usize] += 1;
    tally.no_model += usize::from(no_model);
    tally.no_dataset += usize::from(no_dataset);
    Ok(t)
}

/// Read an OpenHands evaluation `output.jsonl`, a line at a time (`name`:
/// its file name, the model when a line names none). A line that cannot be
/// read is skipped with its number.
pub fn read_output(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    let stem = simple::file_stem(name);
    let mut corpus = Corpus::default();
    let mut seen = HashMap::new();
    let mut tally = Tally::default();
    for (k, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let at = k as u64 + 1;
        if raw.trim().is_empty() {
            continue;
        }
        tally.lines += 1;
        let read = serde_json::from_str::<OutputLine>(raw)
            .map_err(|e| {
                format!(
                    "column {}: {} (expected an OpenHands evaluation output {{instance_id, history, test_result, …}})",
                    e.column(),
                    crate::profile::json_message(&e)
                )
            })
            .and_then(|l| output_trajectory(l, at, stem, options, &mut seen, &mut tally));
        match read {
            Ok(mut t) => {
                if let Some(message) = crate::trajectory::unknown_call_ids(&t) {
                    corpus.notes.push(LineError { line: at, message });
                }
                if options.light && options.keep.as_deref() != Some(t.id.as_str()) {
                    t.lighten();
                }
                corpus.trajectories.push(t);
            }
            Err(message) => corpus.skipped.push(LineError { line: at, message }),
        }
    }
    if corpus.trajectories.is_empty() {
        return Err(match corpus.skipped.first() {
            Some(first) => format!(
                "no line could be read ({} of {} skipped; first: {first})",
                corpus.skipped.len(),
                tally.lines
            ),
            None => "no line: the file is empty".into(),
        });
    }
    corpus.warnings = output_warnings(&tally, corpus.trajectories.len(), stem, options);
    Ok(corpus)
}

fn output_warnings(tally: &Tally, read: usize, stem: &str, options: &ReadOptions) -> Vec<String> {
    let [resolved, score, zero, missing] = tally.from;
    let mut w = Vec::new();
    let mut from = Vec::new();
    if resolved > 0 {
        from.push(format!("`resolved` (1 or 0) on {resolved}"));
    }
    if score > 0 {
        from.push(format!(
            "`test_result.final_score` (result / total) on {score}"
        ));
    }
    if zero + missing > 0 {
        let mut why = Vec::new();
        if zero > 0 {
            why.push(format!("{zero} with `final_score.total` 0"));
        }
        if missing > 0 {
            why.push(format!(
                "{missing} with neither `resolved` nor `final_score`"
            ));
        }
        w.push(format!(
            "reward from {} of {read} line(s) read; no reward on {} ({}): their reward is left empty, not 0",
            if from.is_empty() { "none".to_string() } else { from.join(" and ") },
            zero + missing,
            why.join(", ")
        ));
    } else {
        w.push(format!(
            "reward from {} of {read} line(s) read",
            from.join(" and ")
        ));
    }
    if tally.no_model > 0 && options.model.is_none() {
        w.push(format!(
            "{} of {read} line(s) name no model (`metadata.llm.model`): the model of their events, else the file name `{stem}`, stands for it; give the name with --model",
            tally.no_model
        ));
    }
    if tally.no_dataset > 0 && options.domain.is_none() {
        w.push(format!(
            "{} of {read} line(s) name no task set (`metadata.dataset`): their tasks are taken to be of domain `{UNKNOWN_DOMAIN}`, so they match only other `{UNKNOWN_DOMAIN}` tasks; give the domain (--domain)",
            tally.no_dataset
        ));
    }
    w
}
