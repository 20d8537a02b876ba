//! SWE-agent `.traj` (0.x and 1.x) and mini-swe-agent `{info, messages}`
//! trajectories (docs/formats.md, "SWE-agent and mini-swe-agent
//! trajectories").
//!
//! SWE-agent (`sweagent/types.py`, `sweagent/agent/agents.py`
//! `get_trajectory_data`): `history` (the messages sent to the model:
//! `role`, `content`, `message_type`, in 1.x function calling also
//! `tool_calls` and, on tool messages, `tool_call_ids`), `trajectory` (steps
//! `{action, observation, response, thought}`), `info` (`exit_status`,
//! `submission`, `model_stats`), in 1.x `replay_config` (the run's
//! `RunSingleConfig` as JSON text: `problem_statement.id`,
//! `agent.model.name`) and `environment`.
//!
//! mini-swe-agent (`minisweagent/agents/default.py` `serialize`): `info`
//! (`exit_status`, `submission`, `model_stats`, `config.model.model_name`),
//! `messages` (chat messages; tool-calling models add `tool_calls` and
//! `role: tool` with `tool_call_id`), `trajectory_format`, and `instance_id`
//! when written by its SWE-bench runner. Neither grades its runs: no reward.

use serde::Deserialize;
use serde_json::Value;

use super::simple::{self, SimpleError};
use super::taubench_v1::ChatMessage;
use super::{Corpus, ReadOptions};
use crate::trajectory::{Detail, Message, ToolCall, Trajectory};

#[derive(Debug, Deserialize)]
struct Traj {
    #[serde(default)]
    history: Option<Vec<HistoryItem>>,
    #[serde(default)]
    trajectory: Option<Vec<Step>>,
    #[serde(default)]
    info: Option<SweInfo>,
    #[serde(default)]
    replay_config: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct HistoryItem {
    role: String,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    tool_calls: Option<Vec<SweCall>>,
    #[serde(default)]
    tool_call_ids: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
struct Step {
    #[serde(default)]
    response: Option<String>,
    #[serde(default)]
    thought: Option<String>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    observation: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct SweInfo {
    #[serde(default)]
    exit_status: Option<Value>,
    #[serde(default)]
    submission: Option<String>,
    #[serde(default)]
    model_stats: Option<Value>,
}

/// The `replay_config` (JSON text in 1.x files, an object in some).
#[derive(Debug, Default, Deserialize)]
struct ReplayConfig {
    #[serde(default)]
    problem_statement: Option<ProblemStatement>,
    #[serde(default)]
    agent: Option<ReplayAgent>,
}

#[derive(Debug, Deserialize)]
struct ProblemStatement {
    #[serde(default)]
    id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ReplayAgent {
    #[serde(default)]
    model: Option<ReplayModel>,
}

#[derive(Debug, Deserialize)]
struct ReplayModel {
    #[serde(default)]
    name: Option<String>,
}

/// One SWE-agent 1.x tool call (`{function: {name, arguments}, id}`).
#[derive(Debug, Deserialize)]
struct SweCall {
    #[serde(default)]
    id: Option<String>,
    function: super::taubench_v1::ChatFunction,
}

/// The messages of a SWE-agent history. A tool message answering several
/// calls (parallel calls) is one message per call, each with the content.
fn history_messages(history: Vec<HistoryItem>) -> Vec<Message> {
    let mut out = Vec::with_capacity(history.len());
    for h in history {
        let calls: Vec<ToolCall> = h
            .tool_calls
            .into_iter()
            .flatten()
            .map(|c| ToolCall {
                id: c.id,
                name: c.function.name,
                arguments: simple::arguments(c.function.arguments),
            })
            .collect();
        let ids = h.tool_call_ids.unwrap_or_default();
        let content = simple::content(h.content);
        if h.role == "tool" && !ids.is_empty() {
            for id in ids {
                out.push(Message {
                    role: h.role.clone(),
                    content: content.clone(),
                    tool_calls: Vec::new(),
                    tool_call_id: Some(id),
                    error: None,
                });
            }
        } else {
            out.push(Message {
                role: h.role,
                content,
                tool_calls: calls,
                tool_call_id: None,
                error: None,
            });
        }
    }
    out
}

/// Messages from the steps of a 0.x `trajectory`, for a file without a
/// `history`: the response (or thought and action) as the assistant's, the
/// observation as the environment's reply (a user message, as SWE-agent
/// sends it).
fn step_messages(steps: Vec<Step>) -> Vec<Message> {
    let mut out = Vec::new();
    let text = |s: String| Some(Value::String(s)).filter(|v| v != &Value::String(String::new()));
    for s in steps {
        let said = s
            .response
            .filter(|r| !r.is_empty())
            .or_else(|| match (s.thought, s.action) {
                (Some(t), Some(a)) => Some(format!("{t}\n\n{a}")),
                (t, a) => t.or(a),
            });
        for (role, content) in [("assistant", said), ("user", s.observation)] {
            if let Some(c) = content.and_then(text) {
                out.push(Message {
                    role: role.into(),
                    content: Some(c),
                    tool_calls: Vec::new(),
                    tool_call_id: None,
                    error: None,
                });
            }
        }
    }
    out
}

/// What is said of the run beyond its messages (`exit_status`,
/// `submission` cut to 4 KiB, `model_stats`).
fn info_details(
    exit_status: Option<&Value>,
    submission: Option<&str>,
    stats: Option<&Value>,
) -> Vec<Detail> {
    let mut d = Vec::new();
    if let Some(s) = exit_status.filter(|v| !v.is_null()) {
        d.push(Detail {
            label: "exit status".into(),
            value: s.clone(),
        });
    }
    if let Some(s) = submission.filter(|s| !s.is_empty()) {
        d.push(Detail {
            label: "submission".into(),
            value: Value::String(simple::cut(s, 4096)),
        });
    }
    if let Some(s) = stats.filter(|v| !v.is_null()) {
        d.push(Detail {
            label: "model stats".into(),
            value: s.clone(),
        });
    }
    d
}

fn status_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Null | Value::String(_) => None,
        other => Some(other.to_string()),
    }
}

/// The sentences of a file that names no task or model, and has no reward.
fn identity_warnings(
    format: &str,
    task: Option<&str>,
    model: Option<&str>,
    stem: &str,
    options: &ReadOptions,
) -> Vec<String> {
    let mut w = Vec::new();
    if task.is_none() {
        w.push(format!(
            "names no instance id: the file name `{stem}` is taken as the task id"
        ));
    }
    if model.is_none() && options.model.is_none() {
        w.push(format!(
            "names no model: the file name `{stem}` stands for it; give the name with --model"
        ));
    }
    w.push(format!("has no reward ({format} does not grade its runs; resolution comes from a separate evaluation): the trajectory's reward is left empty, not 0"));
    w
}

/// Read a SWE-agent `.traj` (`name`: its file name, the task and model
/// when the file names none).
pub fn read_swe_agent(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    let traj: Traj = simple::parse(
        text,
        "a SWE-agent `.traj` object {history, trajectory, info}",
    )
    .map_err(|e| e.to_string())?;
    let replay: ReplayConfig = match traj.replay_config {
        Some(Value::String(s)) => serde_json::from_str(&s).map_err(|e| {
            format!(
                "replay_config: {} (expected SWE-agent's run config as JSON text)",
                crate::profile::json_message(&e)
            )
        })?,
        Some(v @ Value::Object(_)) => serde_json::from_value(v)
            .map_err(|e| format!("replay_config: {}", crate::profile::json_message(&e)))?,
        _ => ReplayConfig::default(),
    };
    let messages = match (traj.history, traj.trajectory) {
        (Some(h), _) if !h.is_empty() => history_messages(h),
        (_, Some(s)) if !s.is_empty() => step_messages(s),
        _ => return Err(SimpleError::Empty(
            "a SWE-agent `.traj` with neither `history` nor `trajectory` steps: nothing to read"
                .into(),
        )
        .to_string()),
    };
    let stem = simple::file_stem(name);
    let task = replay
        .problem_statement
        .and_then(|p| p.id)
        .filter(|s| !s.is_empty());
    let model = replay.agent.and_then(|a| a.model).and_then(|m| m.name);
    let info = traj.info.unwrap_or_default();
    let run = Run {
        exit_status: info.exit_status.as_ref(),
        submission: info.submission.as_deref(),
        model_stats: info.model_stats.as_ref(),
    };
    Ok(agent_corpus(
        "SWE-agent",
        stem,
        task,
        model,
        options,
        &run,
        messages,
    ))
}

/// What both agents' `info` say of a run.
struct Run<'a> {
    exit_status: Option<&'a Value>,
    submission: Option<&'a str>,
    model_stats: Option<&'a Value>,
}

/// The one trajectory of a SWE-agent or mini-swe-agent file: task and model
/// from the file, else its name (with the warnings that say so).
fn agent_corpus(
    what: &str,
    stem: &str,
    task: Option<String>,
    model: Option<String>,
    options: &ReadOptions,
    run: &Run<'_>,
    messages: Vec<Message>,
) -> Corpus {
    let warnings = identity_warnings(what, task.as_deref(), model.as_deref(), stem, options);
    let t = Trajectory {
        id: task.clone().unwrap_or_else(|| stem.to_string()),
        model: model.unwrap_or_else(|| stem.to_string()),
        domain: options.domain.clone(),
        task_id: task.unwrap_or_else(|| stem.to_string()),
        termination_reason: status_text(run.exit_status),
        details: info_details(run.exit_status, run.submission, run.model_stats),
        messages,
        ..Trajectory::default()
    };
    simple::one_trajectory(t, warnings)
}

#[derive(Debug, Deserialize)]
struct Mini {
    #[serde(default)]
    info: MiniInfo,
    messages: Vec<MiniMessage>,
    #[serde(default)]
    instance_id: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct MiniInfo {
    #[serde(default)]
    exit_status: Option<Value>,
    #[serde(default)]
    submission: Option<String>,
    #[serde(default)]
    model_stats: Option<Value>,
    #[serde(default)]
    config: Option<MiniConfig>,
}

#[derive(Debug, Deserialize)]
struct MiniConfig {
    #[serde(default)]
    model: Option<MiniModel>,
}

#[derive(Debug, Deserialize)]
struct MiniModel {
    #[serde(default)]
    model_name: Option<String>,
}

/// A mini-swe-agent message: a chat message, or (Responses API models) an
/// item `{type: function_call | function_call_output | message, …}`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum MiniMessage {
    Chat(ChatMessage),
    Item(ResponseItem),
}

#[derive(Debug, Deserialize)]
struct ResponseItem {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
    #[serde(default)]
    output: Option<Value>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    content: Option<Value>,
}

fn mini_message(m: MiniMessage) -> Option<Message> {
    let item = match m {
        MiniMessage::Chat(c) => return Some(c.into_message()),
        MiniMessage::Item(i) => i,
    };
    let base = Message {
        role: "assistant".into(),
        content: None,
        tool_calls: Vec::new(),
        tool_call_id: None,
        error: None,
    };
    match item.kind.as_str() {
        "function_call" => Some(Message {
            tool_calls: vec![ToolCall {
                id: item.call_id,
                name: item.name.unwrap_or_default(),
                arguments: simple::arguments(item.arguments),
            }],
            ..base
        }),
        "function_call_output" => Some(Message {
            role: "tool".into(),
            content: simple::content(item.output),
            tool_call_id: item.call_id,
            ..base
        }),
        "message" => Some(Message {
            role: item.role.unwrap_or_else(|| "assistant".into()),
            content: simple::content(item.content),
            ..base
        }),
        // Reasoning items and the like are not messages.
        _ => None,
    }
}

/// Read a mini-swe-agent trajectory (`name`: its file name, the task and
/// model when the file names none).
pub fn read_mini(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    let mini: Mini = simple::parse(
        text,
        "a mini-swe-agent trajectory {info, messages, trajectory_format}",
    )
    .map_err(|e| e.to_string())?;
    if mini.messages.is_empty() {
        return Err("a mini-swe-agent trajectory with no messages: nothing to read".into());
    }
    let stem = simple::file_stem(name);
    let task = mini.instance_id.filter(|s| !s.is_empty());
    let model = mini
        .info
        .config
        .as_ref()
        .and_then(|c| c.model.as_ref())
        .and_then(|m| m.model_name.clone());
    let info = &mini.info;
    let run = Run {
        exit_status: info.exit_status.as_ref(),
        submission: info.submission.as_deref(),
        model_stats: info.model_stats.as_ref(),
    };
    let messages = mini.messages.into_iter().filter_map(mini_message).collect();
    Ok(agent_corpus(
        "mini-swe-agent",
        stem,
        task,
        model,
        options,
        &run,
        messages,
    ))
}
