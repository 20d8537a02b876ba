//! Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-…-<thread
//! id>.jsonl`): one `{timestamp, type, payload}` a line, read line by line;
//! one file is one thread, one trajectory. The mapping follows inspect_scout's
//! importer (`sources/_codex`, with inspect_swe's rollout models, and its
//! `design/codex-import.md`):
//!
//! - `session_meta` (the first wins; a copied fork repeats its parent's):
//!   the thread id (`id`, or `session_id`) is the trajectory id, its task id
//!   and its `source_id`; `cwd`, `cli_version`, `originator`, `source`, `git`,
//!   `forked_from_id`, `parent_thread_id` are kept as the `session` detail;
//! - `turn_context.model`: the model (the first; later ones in `models`);
//! - `response_item`s are the conversation (the `event_msg` copies of it,
//!   `user_message`/`agent_message`, are not read again): `message` (role
//!   `user`, `assistant`; `developer` and `system` as `system`; a user item
//!   that is only a `<tag>…</tag>` context block, e.g. `<environment_context>`,
//!   as `system` too); `reasoning` (its `summary` texts; encrypted content is
//!   not readable); `function_call` (`name`, `arguments` parsed from their JSON
//!   text, `call_id`), `custom_tool_call` (`input`), `local_shell_call`
//!   (`action`) and `web_search_call` as tool calls; `function_call_output`
//!   and `custom_tool_call_output` as `tool` messages answering `call_id`,
//!   with `error` when the output says the command failed (`Exit code: N`,
//!   or the older `{"output", "metadata": {"exit_code": N}}`, N ≠ 0; or
//!   `success: false`);
//! - consecutive assistant-side items (reasoning, assistant text, tool calls)
//!   are one assistant message, as a model response is (a `token_count` or
//!   `turn_*` event, a user item or a tool output ends it);
//! - tokens: the last `token_count`'s `info.total_token_usage`.
//!
//! Ignored: `compacted` items and remote `compaction` items (the messages
//! before them stay), `thread_rolled_back` (the rolled-back items stay),
//! every other `event_msg`. No task and no reward: task id = thread id,
//! domain `unknown`, reward `None`, with the warning that an outcomes CSV
//! supplies both.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::sessions::{content, no_outcome_warning, parse_line, parts_of, result_text, stem, Part};
use super::{Corpus, ReadOptions};
use crate::trajectory::{
    bad_name, unknown_call_ids, Detail, LineError, Message, ToolCall, Trajectory,
};

/// The identity prefix of a Codex trajectory ([`Trajectory::source_id`]).
pub const IDENTITY: &str = "codex";

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    payload: Value,
}

/// A `response_item` payload, with only what is read.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Item {
    Message {
        role: String,
        #[serde(default)]
        content: Value,
    },
    Reasoning {
        #[serde(default)]
        summary: Vec<Value>,
        #[serde(default)]
        content: Option<Vec<Value>>,
    },
    FunctionCall {
        name: String,
        #[serde(default)]
        arguments: Value,
        call_id: String,
    },
    CustomToolCall {
        name: String,
        #[serde(default)]
        input: Value,
        call_id: String,
    },
    LocalShellCall {
        #[serde(default)]
        call_id: Option<String>,
        #[serde(default)]
        action: Value,
    },
    WebSearchCall {
        #[serde(default)]
        action: Value,
    },
    FunctionCallOutput {
        call_id: String,
        #[serde(default)]
        output: Value,
    },
    CustomToolCallOutput {
        call_id: String,
        #[serde(default)]
        output: Value,
    },
    #[serde(other)]
    Other,
}

/// The thread being read.
#[derive(Default)]
struct Thread {
    id: Option<String>,
    meta: Map<String, Value>,
    models: Vec<String>,
    messages: Vec<Message>,
    /// Whether the last message is an assistant response still open to
    /// more items of the same response.
    open: bool,
    tokens: Option<Value>,
    conversation: usize,
}

impl Thread {
    /// The open assistant message (made when none is open).
    fn reply(&mut self) -> &mut Message {
        if !self.open || self.messages.last().is_none_or(|m| m.role != "assistant") {
            self.messages.push(Message::new("assistant", None));
            self.open = true;
        }
        let n = self.messages.len() - 1;
        &mut self.messages[n]
    }

    fn add_parts(&mut self, parts: Vec<Part>) {
        if parts.is_empty() {
            return;
        }
        // Text after tool calls is the next response.
        if self.open
            && self
                .messages
                .last()
                .is_some_and(|m| !m.tool_calls.is_empty())
        {
            self.open = false;
        }
        let m = self.reply();
        let mut all = parts_of(m.content.take());
        all.extend(parts);
        m.content = content(all);
    }

    fn add_call(&mut self, call: ToolCall) {
        self.reply().tool_calls.push(call);
    }
}

/// The texts of a message's or a reasoning's content items.
fn texts(items: &Value) -> Vec<String> {
    match items {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items
            .iter()
            .filter_map(
                |i| match (i.get("type").and_then(Value::as_str), i.get("text")) {
                    (_, Some(Value::String(t))) => Some(t.clone()),
                    (Some(k), _) if k.contains("image") => Some("[image]".into()),
                    _ => None,
                },
            )
            .collect(),
        _ => Vec::new(),
    }
}

/// A user item that is only a context block (`<environment_context>…`).
fn is_context(text: &str) -> bool {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('<') else {
        return false;
    };
    let Some(end) = rest.find('>') else {
        return false;
    };
    let tag = &rest[..end];
    !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && t.ends_with(&format!("</{tag}>"))
}

/// A tool output's text, and whether it says the call failed.
fn output(v: &Value) -> (String, Option<bool>) {
    let exit = |text: &str| -> Option<bool> {
        let first = text.lines().next()?;
        let code = first
            .strip_prefix("Exit code:")?
            .trim()
            .parse::<i64>()
            .ok()?;
        Some(code != 0)
    };
    match v {
        Value::String(s) => {
            // Older rollouts: a JSON text {"output", "metadata": {"exit_code"}}.
            if s.trim_start().starts_with('{') {
                if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(s) {
                    if let Some(Value::String(out)) = o.get("output") {
                        let code = o
                            .get("metadata")
                            .and_then(|m| m.get("exit_code"))
                            .and_then(Value::as_i64);
                        return (out.clone(), code.map(|c| c != 0));
                    }
                }
            }
            (s.clone(), exit(s))
        }
        Value::Object(o) => {
            let text = o.get("content").map_or_else(|| v.to_string(), result_text);
            let failed = match o.get("success") {
                Some(Value::Bool(ok)) => Some(!ok),
                _ => exit(&text),
            };
            (text, failed)
        }
        other => {
            let text = result_text(other);
            let failed = exit(&text);
            (text, failed)
        }
    }
}

/// Read a Codex rollout file (`name` for the thread id and model fallbacks).
pub fn read(name: &str, text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    let mut corpus = Corpus::default();
    let mut thread = Thread::default();
    for (k, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let line = k as u64 + 1;
        if raw.trim().is_empty() {
            continue;
        }
        if let Err(message) = read_line(&mut thread, raw) {
            corpus.skipped.push(LineError { line, message });
        }
    }
    if thread.messages.is_empty() {
        return Err(match corpus.skipped.first() {
            Some(first) => format!(
                "no message could be read: {} line(s) skipped (first: {first})",
                corpus.skipped.len()
            ),
            None if thread.conversation > 0 => "no message: the `response_item` lines hold nothing read (reasoning without summary text, compaction, …)".into(),
            None => "no message: no `response_item` line".into(),
        });
    }
    let file_stem = stem(name);
    let id = if let Some(id) = thread.id.take() {
        id
    } else {
        // rollout-<timestamp>-<uuid>: the uuid is the last 36 characters.
        let id = file_stem
            .len()
            .checked_sub(36)
            .and_then(|i| file_stem.get(i..))
            .filter(|u| u.len() == 36 && u.chars().filter(|&c| c == '-').count() == 4)
            .unwrap_or(file_stem)
            .to_string();
        corpus.warnings.push(format!(
            "has no `session_meta` line with the thread `id`: the id `{id}` is taken from the file's name"
        ));
        id
    };
    if let Some(why) = bad_name("thread id", &id) {
        return Err(why);
    }
    let model = if let Some(m) = thread.models.first() {
        m.clone()
    } else {
        corpus.warnings.push(format!(
            "names no model (no `turn_context` with `model`): the file's name `{file_stem}` is used; give the name with --model"
        ));
        file_stem.to_string()
    };
    let mut details = Vec::new();
    if !thread.meta.is_empty() {
        details.push(Detail {
            label: "session".into(),
            value: Value::Object(thread.meta),
        });
    }
    if thread.models.len() > 1 {
        details.push(Detail {
            label: "models".into(),
            value: Value::Array(thread.models.into_iter().map(Value::String).collect()),
        });
    }
    if let Some(tokens) = thread.tokens {
        details.push(Detail {
            label: "tokens".into(),
            value: tokens,
        });
    }
    let t = Trajectory {
        source_id: Some(format!("{IDENTITY}\u{1f}{id}")),
        task_id: id.clone(),
        id,
        model,
        messages: thread.messages,
        details,
        ..Trajectory::default()
    };
    if let Some(message) = unknown_call_ids(&t) {
        corpus.notes.push(LineError { line: 0, message });
    }
    corpus.trajectories.push(t);
    corpus
        .warnings
        .push(no_outcome_warning("a Codex rollout file", 1));
    Ok(corpus)
}

/// One non-blank line into the thread, or why it cannot be read.
fn read_line(thread: &mut Thread, raw: &str) -> Result<(), String> {
    let l: Line = parse_line(raw)?;
    match l.kind.as_str() {
        "session_meta" if thread.id.is_none() => {
            let Value::Object(p) = l.payload else {
                return Err("payload: expected an object (the session's metadata)".into());
            };
            let id = p
                .get("id")
                .or_else(|| p.get("session_id"))
                .and_then(Value::as_str)
                .ok_or("payload: a `session_meta` without a string `id`")?;
            if let Some(why) = bad_name("thread id", id) {
                return Err(format!("payload.id: {why}"));
            }
            thread.id = Some(id.to_string());
            for key in [
                "cwd",
                "cli_version",
                "originator",
                "source",
                "model_provider",
                "git",
                "forked_from_id",
                "parent_thread_id",
            ] {
                if let Some(v) = p.get(key).filter(|v| !v.is_null()) {
                    thread.meta.insert(key.into(), v.clone());
                }
            }
        }
        "turn_context" => {
            if let Some(m) = l.payload.get("model") {
                let m = m
                    .as_str()
                    .ok_or("payload.model: expected a string (the model's name)")?;
                if !m.is_empty() && !thread.models.iter().any(|x| x == m) {
                    thread.models.push(m.to_string());
                }
            }
            thread.open = false;
        }
        "response_item" => {
            thread.conversation += 1;
            let item = Item::deserialize(l.payload).map_err(|e| format!("payload: {e}"))?;
            response_item(thread, item)?;
        }
        "event_msg" => match l.payload.get("type").and_then(Value::as_str) {
            Some("token_count") => {
                thread.open = false;
                if let Some(u) = l
                    .payload
                    .get("info")
                    .and_then(|i| i.get("total_token_usage"))
                {
                    thread.tokens = Some(u.clone());
                }
            }
            Some(t) if t.starts_with("turn_") || t.starts_with("task_") => thread.open = false,
            _ => {}
        },
        _ => {}
    }
    Ok(())
}

fn response_item(thread: &mut Thread, item: Item) -> Result<(), String> {
    match item {
        Item::Message {
            role,
            content: body,
        } => {
            let parts: Vec<Part> = texts(&body).into_iter().map(Part::Text).collect();
            match role.as_str() {
                "assistant" => thread.add_parts(parts),
                "user" | "developer" | "system" => {
                    thread.open = false;
                    let text = content_text(&parts);
                    let role = if role == "user" && !is_context(&text) {
                        "user"
                    } else {
                        "system"
                    };
                    thread.messages.push(Message::new(role, content(parts)));
                }
                other => {
                    return Err(format!(
                        "payload.role: `{other}` is not user, assistant, developer or system"
                    ))
                }
            }
        }
        Item::Reasoning { summary, content } => {
            let mut parts: Vec<Part> = summary
                .iter()
                .flat_map(|s| texts(&Value::Array(vec![s.clone()])))
                .map(Part::Reasoning)
                .collect();
            if parts.is_empty() {
                if let Some(c) = content {
                    parts = texts(&Value::Array(c))
                        .into_iter()
                        .map(Part::Reasoning)
                        .collect();
                }
            }
            thread.add_parts(parts);
        }
        Item::FunctionCall {
            name,
            arguments,
            call_id,
        } => {
            check_call_id(&call_id)?;
            let arguments = match arguments {
                Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
                other => other,
            };
            thread.add_call(ToolCall {
                id: Some(call_id),
                name,
                arguments,
            });
        }
        Item::CustomToolCall {
            name,
            input,
            call_id,
        } => {
            check_call_id(&call_id)?;
            let mut args = Map::new();
            args.insert("input".into(), input);
            thread.add_call(ToolCall {
                id: Some(call_id),
                name,
                arguments: Value::Object(args),
            });
        }
        Item::LocalShellCall { call_id, action } => {
            if let Some(id) = &call_id {
                check_call_id(id)?;
            }
            thread.add_call(ToolCall {
                id: call_id,
                name: "local_shell".into(),
                arguments: action,
            });
        }
        Item::WebSearchCall { action } => thread.add_call(ToolCall {
            id: None,
            name: "web_search".into(),
            arguments: action,
        }),
        Item::FunctionCallOutput { call_id, output: o }
        | Item::CustomToolCallOutput { call_id, output: o } => {
            check_call_id(&call_id)?;
            thread.open = false;
            let (text, failed) = output(&o);
            let mut m = Message::new("tool", Some(Value::String(text)));
            m.tool_call_id = Some(call_id);
            m.error = failed;
            thread.messages.push(m);
        }
        Item::Other => {}
    }
    Ok(())
}

fn check_call_id(id: &str) -> Result<(), String> {
    match bad_name("call_id", id) {
        Some(why) => Err(format!("payload.call_id: {why}")),
        None => Ok(()),
    }
}

fn content_text(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Text(t) | Part::Reasoning(t) => t.as_str(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
