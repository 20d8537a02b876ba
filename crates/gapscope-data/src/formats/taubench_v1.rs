//! τ-bench (v1) results: `[{task_id: int, reward, info, traj, trial}]`, or
//! one such record as a bare object (docs/formats.md, "τ-bench (v1)
//! results"). The shape is τ-bench's `EnvRunResult` (`tau_bench/types.py`),
//! written as one JSON list by `tau_bench/run.py` (τ-bench writes no JSONL).
//!
//! - `traj`: the agent's chat messages (OpenAI form: `tool_calls` with
//!   `function.{name, arguments}`, tool messages with `tool_call_id`).
//! - `info`: τ-bench's `EnvInfo` (`task` with its gold `actions`,
//!   `reward_info`, `user_cost`), or `{error, traceback}` when the run raised.
//! - Gold actions: `info.task.actions`, each matched against the
//!   trajectory's tool calls with τ²-bench's rule
//!   ([`crate::formats::tau2::call_matches`]; τ-bench actions have no
//!   `compare_args`, so every key of the call's own arguments is compared).
//! - Domain: τ-bench records do not name their environment; the policy the
//!   agent was given (the system message, τ-bench's `wiki.md`) does: `# Airline
//!   Agent Policy` or `# Retail agent policy`.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::simple::{self, SimpleError};
use super::{Corpus, ReadOptions};
use crate::formats::tau2::{call_matches, Action, Tau2ToolCall};
use crate::trajectory::{Detail, GoldAction, LineError, Message, ToolCall, Trajectory};

/// A task id: τ-bench writes integers; a string is taken as it is.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum TaskId {
    Int(i64),
    Text(String),
}

#[derive(Debug, Deserialize)]
struct Record {
    task_id: TaskId,
    #[serde(default)]
    reward: Option<f64>,
    #[serde(default)]
    info: EnvInfo,
    #[serde(default)]
    traj: Vec<ChatMessage>,
    #[serde(default)]
    trial: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
struct EnvInfo {
    #[serde(default)]
    task: Option<V1Task>,
    #[serde(default)]
    reward_info: Option<RewardResult>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
struct V1Task {
    #[serde(default)]
    actions: Vec<V1Action>,
}

#[derive(Debug, Deserialize)]
struct V1Action {
    name: String,
    #[serde(default)]
    kwargs: Map<String, Value>,
}

#[derive(Debug, Deserialize)]
struct RewardResult {
    #[serde(default)]
    info: Option<Value>,
}

/// An OpenAI-style chat message (τ-bench's `traj`, mini-swe-agent's
/// tool-calling messages).
#[derive(Debug, Deserialize)]
pub(crate) struct ChatMessage {
    pub role: String,
    #[serde(default)]
    pub content: Option<Value>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ChatToolCall>>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ChatToolCall {
    #[serde(default)]
    pub id: Option<String>,
    pub function: ChatFunction,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ChatFunction {
    pub name: String,
    #[serde(default)]
    pub arguments: Option<Value>,
}

impl ChatMessage {
    /// The canonical message: tool calls with parsed arguments; a tool
    /// message's `tool_call_id` kept.
    pub(crate) fn into_message(self) -> Message {
        Message {
            tool_calls: self
                .tool_calls
                .into_iter()
                .flatten()
                .map(|c| ToolCall {
                    id: c.id,
                    name: c.function.name,
                    arguments: simple::arguments(c.function.arguments),
                })
                .collect(),
            tool_call_id: if self.role == "tool" {
                self.tool_call_id
            } else {
                None
            },
            content: simple::content(self.content),
            error: None,
            role: self.role,
        }
    }
}

/// The domain a record's policy names (the first line of its system message).
fn domain_of(traj: &[ChatMessage]) -> Option<&'static str> {
    let system = traj.iter().find(|m| m.role == "system")?;
    let first = system
        .content
        .as_ref()?
        .as_str()?
        .lines()
        .next()?
        .to_ascii_lowercase();
    if first.contains("airline agent policy") {
        Some("airline")
    } else if first.contains("retail agent policy") {
        Some("retail")
    } else {
        None
    }
}

/// The model in the name `tau_bench/run.py` gives its results
/// (`{strategy}-{model}-{temperature}_range_{start}-{end}_user-…`), if the
/// name is one.
fn model_from_run_name(stem: &str) -> Option<&str> {
    let head = &stem[..stem.find("_range_")?];
    let (rest, temperature) = head.rsplit_once('-')?;
    temperature.parse::<f64>().ok()?;
    let model = ["tool-calling-", "few-shot-", "react-", "act-"]
        .iter()
        .find_map(|p| rest.strip_prefix(p))?;
    (!model.is_empty()).then_some(model)
}

/// The gold actions of a record, each matched by τ²-bench's rule against
/// the record's tool calls (`respond` is τ-bench's name for a reply, not a
/// tool call: left out).
fn gold_actions(task: Option<&V1Task>, calls: &[Tau2ToolCall]) -> Vec<GoldAction> {
    task.map_or(&[][..], |t| t.actions.as_slice())
        .iter()
        .filter(|a| a.name != "respond")
        .map(|a| {
            let action = Action {
                action_id: None,
                name: a.name.clone(),
                arguments: a.kwargs.clone(),
                compare_args: None,
            };
            GoldAction {
                matched: calls.iter().any(|c| call_matches(&action, c)),
                name: a.name.clone(),
                arguments: Value::Object(a.kwargs.clone()),
            }
        })
        .collect()
}

fn trajectory(r: Record, k: usize, name: &str, model: &str, domain: Option<&str>) -> Trajectory {
    let file_domain = domain_of(&r.traj);
    let messages: Vec<Message> = r.traj.into_iter().map(ChatMessage::into_message).collect();
    let calls: Vec<Tau2ToolCall> = messages
        .iter()
        .flat_map(|m| &m.tool_calls)
        .map(|c| Tau2ToolCall {
            id: c.id.clone(),
            name: c.name.clone(),
            arguments: c.arguments.as_object().cloned(),
        })
        .collect();
    let mut details = Vec::new();
    if let Some(info) = r.info.reward_info.as_ref().and_then(|i| i.info.clone()) {
        details.push(Detail {
            label: "τ-bench reward info".into(),
            value: info,
        });
    }
    if let Some(e) = &r.info.error {
        details.push(Detail {
            label: "error".into(),
            value: Value::String(simple::cut(e, 2048)),
        });
    }
    Trajectory {
        id: format!("{name}#{k}"),
        model: model.to_string(),
        domain: file_domain.or(domain).map(str::to_string),
        task_id: match r.task_id {
            TaskId::Int(i) => i.to_string(),
            TaskId::Text(s) => s,
        },
        trial: r.trial,
        reward: r.reward,
        termination_reason: r.info.error.is_some().then(|| "error".to_string()),
        gold_actions: gold_actions(r.info.task.as_ref(), &calls),
        messages,
        details,
        ..Trajectory::default()
    }
}

/// Read a τ-bench v1 results file (`name` names trajectories and, when the
/// file names no model, the model).
pub fn read(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    read_typed(name, text, options).map_err(|e| e.to_string())
}

fn read_typed(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, SimpleError> {
    let what = "a τ-bench record {task_id, reward, info, traj, trial}";
    // A bare record is read whole (an error in it refuses the file); a
    // list keeps the records that read.
    let records: Vec<Result<Record, String>> = if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[')
    {
        simple::parse_list(text, what)?
    } else {
        vec![Ok(simple::parse::<Record>(text, what)?)]
    };
    if records.is_empty() {
        return Err(SimpleError::Empty(
            "an empty list: no τ-bench record in it".into(),
        ));
    }
    let stem = simple::file_stem(name);
    let mut warnings = Vec::new();
    let (model, warning) = if let Some(m) = model_from_run_name(stem) {
        (m, format!("names no model in its records: `{m}` is taken from the file name (τ-bench's `{{strategy}}-{{model}}-{{temperature}}_range_…` results name); give the name with --model"))
    } else {
        (stem, format!("names no model (τ-bench records carry none): the file name `{stem}` stands for it; give the name with --model"))
    };
    if options.model.is_none() {
        warnings.push(warning);
    }
    let mut corpus = Corpus::default();
    for (k, r) in records.into_iter().enumerate() {
        match r {
            Ok(r) => {
                corpus
                    .trajectories
                    .push(trajectory(r, k, name, model, options.domain.as_deref()));
            }
            Err(message) => corpus.skipped.push(LineError {
                line: 0,
                message: format!("record {k}: {message}"),
            }),
        }
    }
    if corpus.trajectories.is_empty() {
        let first = corpus
            .skipped
            .first()
            .map(ToString::to_string)
            .unwrap_or_default();
        return Err(SimpleError::Empty(format!(
            "no record of the list could be read ({} skipped; first: {first})",
            corpus.skipped.len()
        )));
    }
    let unknown = corpus
        .trajectories
        .iter()
        .filter(|t| t.domain.is_none())
        .count();
    if unknown > 0 {
        warnings.push(format!(
            "{unknown} of {} record(s) name no domain (no airline or retail policy in a system message): their tasks are taken to be of domain `{}`, so they match only other `{}` tasks; give the domain (--domain)",
            corpus.trajectories.len(),
            crate::trajectory::UNKNOWN_DOMAIN,
            crate::trajectory::UNKNOWN_DOMAIN,
        ));
    }
    let errors = corpus
        .trajectories
        .iter()
        .filter(|t| t.termination_reason.as_deref() == Some("error"))
        .count();
    if errors > 0 {
        warnings.push(format!(
            "{errors} of {} record(s) are runs that raised an error (`info.error`; τ-bench writes them with reward 0 and no messages): they are kept with the file's reward 0 and termination reason `error`",
            corpus.trajectories.len()
        ));
    }
    for t in &corpus.trajectories {
        if let Some(message) = crate::trajectory::unknown_call_ids(t) {
            corpus.notes.push(LineError { line: 0, message });
        }
    }
    corpus.warnings = warnings;
    Ok(corpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_names_give_their_model() {
        // The name run.py writes (tau_bench/run.py, ckpt_path).
        assert_eq!(
            model_from_run_name("tool-calling-gpt-4o-0.0_range_0-50_user-gpt-4o-llm_0101120000"),
            Some("gpt-4o")
        );
        assert_eq!(
            model_from_run_name("react-claude-3-5-sonnet-20241022-1.0_range_0-1_user-x"),
            Some("claude-3-5-sonnet-20241022")
        );
        assert_eq!(model_from_run_name("docent_tb_airline_single"), None);
        assert_eq!(model_from_run_name("x-gpt-0.0_range_"), None);
    }
}
