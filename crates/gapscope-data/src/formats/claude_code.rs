//! Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`,
//! and a subagent's `agent-<id>.jsonl`): one event a line, read line by
//! line. Lines of `type` `user` and `assistant` carry a `message` (the
//! Anthropic Messages API's `{role, content, model, id, usage}`); every other
//! type (`summary`, `system`, `file-history-snapshot`, `progress`, …) is
//! ignored. The mapping follows inspect_scout's importer
//! (`sources/_claude_code`, with inspect_swe's `_claude_code/_events`):
//!
//! - one trajectory per `sessionId` (main-chain lines, `isSidechain` false),
//!   in file order; id, task id and `source_id` from the session id;
//! - **subagents** (`isSidechain: true` lines: a Task/Agent tool's own
//!   conversation) are not messages of their session (inspect's
//!   `span_messages` leaves them out too): each is summarized in the
//!   session's `subagents` [`Detail`] (id `SESSION/agent-ID` by `agentId`, or
//!   `SESSION/sidechain-N` in older files, where a chain starts at a line
//!   without `parentUuid` and is followed by `parentUuid`; model, message,
//!   tool-call and tool-error counts, the start of its prompt). A subagent
//!   whose session is not in the file (an `agent-<id>.jsonl` read alone) is a
//!   trajectory of its own, with a `subagent of` detail naming the session;
//! - an assistant reply written over several lines sharing `message.id`
//!   (thinking, text, each `tool_use`) is one message, as inspect's
//!   `consolidate_assistant_events` merges consecutive fragments;
//! - `tool_use` blocks are tool calls (`id`, `name`, `input`), each
//!   `tool_result` block a `tool` message answering `tool_use_id`, with
//!   `error` from `is_error`; text and `thinking` blocks are the content;
//! - slash-command chrome (`<command-name>`, `<local-command-caveat>`,
//!   `<local-command-stdout>` user lines) is dropped, as inspect does;
//! - the model is the first assistant `message.model` (not `<synthetic>`,
//!   which Claude Code writes on messages it makes itself); tokens are the
//!   sum of each reply's last `usage`.
//!
//! No task and no reward: task id = session id, domain `unknown`, reward
//! `None`, and a warning that an outcomes CSV ([`crate::outcomes`]) supplies
//! both.

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;

use super::sessions::{content, no_outcome_warning, parse_line, parts_of, result_text, stem, Part};
use super::{Corpus, ReadOptions};
use crate::trajectory::{
    bad_name, unknown_call_ids, Detail, LineError, Message, ToolCall, Trajectory,
};

/// The identity prefix of a Claude Code trajectory ([`Trajectory::source_id`]).
pub const IDENTITY: &str = "claude_code";

/// One line, with only what is read.
#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(rename = "sessionId", default)]
    session_id: Option<String>,
    #[serde(default)]
    uuid: Option<String>,
    #[serde(rename = "parentUuid", default)]
    parent_uuid: Option<String>,
    #[serde(rename = "isSidechain", default)]
    is_sidechain: Option<bool>,
    #[serde(rename = "agentId", default)]
    agent_id: Option<String>,
    #[serde(default)]
    message: Option<LineMessage>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(rename = "gitBranch", default)]
    git_branch: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    slug: Option<String>,
}

#[derive(Deserialize)]
struct LineMessage {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    usage: Option<Usage>,
}

#[derive(Clone, Copy, Default, Deserialize)]
#[allow(clippy::struct_field_names, reason = "the Messages API's own names")]
struct Usage {
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
}

/// A content block of a message (the Messages API's, as Claude Code writes them).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    Thinking {
        #[serde(default)]
        thinking: String,
    },
    ToolUse {
        id: String,
        name: String,
        #[serde(default)]
        input: Value,
    },
    ToolResult {
        tool_use_id: String,
        #[serde(default)]
        content: Value,
        #[serde(default)]
        is_error: Option<bool>,
    },
    Image {},
    #[serde(other)]
    Other,
}

/// One trajectory being built.
#[derive(Default)]
struct Session {
    id: String,
    /// The first line of the session (for notes).
    line: u64,
    messages: Vec<Message>,
    /// `message.id` of the last message when it is an assistant reply
    /// (consecutive fragments of it are merged into it).
    open_reply: Option<String>,
    /// Each reply's last usage, by `message.id`.
    usage: IndexMap<String, Usage>,
    models: Vec<String>,
    meta: serde_json::Map<String, Value>,
    /// Summaries of the session's subagents ([`summary`]).
    subagents: Vec<Value>,
    /// The session a subagent belongs to.
    parent: Option<String>,
}

/// Why a line cannot be read (the line number is added by the caller).
fn line_error(what: &str, path: &str) -> String {
    format!("{path}: {what}")
}

/// The message of a user line, or the tool results it carries, pushed to `s`.
fn push_user(s: &mut Session, body: Value) -> Result<(), String> {
    s.open_reply = None;
    let blocks = match body {
        Value::String(text) => {
            if is_chrome(&text) {
                return Ok(());
            }
            s.messages
                .push(Message::new("user", Some(Value::String(text))));
            return Ok(());
        }
        Value::Array(blocks) => blocks,
        Value::Null => return Ok(()),
        other => {
            return Err(line_error(
                &format!(
                    "expected a string or a list of content blocks, found {}",
                    kind_of(&other)
                ),
                "message.content",
            ))
        }
    };
    let mut parts = Vec::new();
    let mut results = Vec::new();
    for (k, b) in blocks.into_iter().enumerate() {
        match Block::deserialize(b) {
            Ok(Block::Text { text }) => parts.push(Part::Text(text)),
            Ok(Block::Image {}) => parts.push(Part::Text("[image]".into())),
            Ok(Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            }) => {
                if let Some(why) = bad_name("tool_use_id", &tool_use_id) {
                    return Err(line_error(&why, &format!("message.content[{k}]")));
                }
                let mut m = Message::new("tool", Some(Value::String(result_text(&content))));
                m.tool_call_id = Some(tool_use_id);
                m.error = is_error;
                results.push(m);
            }
            Ok(Block::Thinking { .. } | Block::ToolUse { .. } | Block::Other) => {}
            Err(e) => return Err(line_error(&e.to_string(), &format!("message.content[{k}]"))),
        }
    }
    s.messages.extend(results);
    if !parts.is_empty() {
        s.messages.push(Message::new("user", content(parts)));
    }
    Ok(())
}

/// An assistant line: a reply, or the next fragment of the open one.
fn push_assistant(s: &mut Session, m: LineMessage) -> Result<(), String> {
    let blocks = match m.content {
        Some(Value::Array(blocks)) => blocks,
        Some(Value::String(text)) => vec![serde_json::json!({"type": "text", "text": text})],
        None | Some(Value::Null) => Vec::new(),
        Some(other) => {
            return Err(line_error(
                &format!(
                    "expected a list of content blocks, found {}",
                    kind_of(&other)
                ),
                "message.content",
            ))
        }
    };
    let mut parts = Vec::new();
    let mut calls = Vec::new();
    for (k, b) in blocks.into_iter().enumerate() {
        match Block::deserialize(b) {
            Ok(Block::Text { text }) => parts.push(Part::Text(text)),
            Ok(Block::Thinking { thinking }) if !thinking.is_empty() => {
                parts.push(Part::Reasoning(thinking));
            }
            Ok(Block::ToolUse { id, name, input }) => {
                if let Some(why) = bad_name("tool_use id", &id) {
                    return Err(line_error(&why, &format!("message.content[{k}]")));
                }
                calls.push(ToolCall {
                    id: Some(id),
                    name,
                    arguments: input,
                });
            }
            Ok(_) => {}
            Err(e) => return Err(line_error(&e.to_string(), &format!("message.content[{k}]"))),
        }
    }
    if let Some(model) = m.model.filter(|m| m != "<synthetic>" && !m.is_empty()) {
        if !s.models.contains(&model) {
            s.models.push(model);
        }
    }
    if let (Some(id), Some(u)) = (&m.id, m.usage) {
        s.usage.insert(id.clone(), u);
    }
    let merge = m.id.is_some() && m.id == s.open_reply;
    match s.messages.last_mut() {
        Some(last) if merge => {
            let mut old = parts_of(last.content.take());
            old.extend(parts);
            last.content = content(old);
            last.tool_calls.extend(calls);
        }
        _ => {
            let mut msg = Message::new("assistant", content(parts));
            msg.tool_calls = calls;
            s.messages.push(msg);
            s.open_reply = m.id;
        }
    }
    Ok(())
}

/// Slash-command lines (the command, its caveat, its output): interface,
/// not conversation (inspect_swe's `should_skip_event`).
fn is_chrome(text: &str) -> bool {
    text.contains("<command-name>/")
        || text.starts_with("<command-name>")
        || text.starts_with("<local-command-caveat>")
        || text.starts_with("<local-command-stdout>")
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// What the reader keeps between lines.
#[derive(Default)]
struct State {
    sessions: IndexMap<String, Session>,
    /// Sidechain line uuid → its trajectory (older files follow
    /// `parentUuid` to tell subagents apart).
    chain_of: std::collections::HashMap<String, String>,
    /// Sidechains started per session (for `sidechain-N`).
    chains: IndexMap<String, usize>,
    /// The last sidechain trajectory of each session.
    last_chain: IndexMap<String, String>,
}

impl State {
    /// The trajectory a line belongs to (made when new).
    fn session_for(&mut self, l: &Line, session: &str, line: u64) -> String {
        let id = if l.is_sidechain == Some(true) {
            let known = l
                .parent_uuid
                .as_ref()
                .and_then(|p| self.chain_of.get(p))
                .cloned();
            let id = match (&l.agent_id, known) {
                (Some(agent), _) => format!("{session}/agent-{agent}"),
                (None, Some(id)) => id,
                (None, None) => {
                    if let (Some(_), Some(last)) = (&l.parent_uuid, self.last_chain.get(session)) {
                        last.clone()
                    } else {
                        let n = self.chains.entry(session.to_string()).or_insert(0);
                        *n += 1;
                        format!("{session}/sidechain-{n}")
                    }
                }
            };
            if let Some(u) = &l.uuid {
                self.chain_of.insert(u.clone(), id.clone());
            }
            self.last_chain.insert(session.to_string(), id.clone());
            id
        } else {
            session.to_string()
        };
        if !self.sessions.contains_key(&id) {
            let parent = (id != session).then(|| session.to_string());
            self.sessions.insert(
                id.clone(),
                Session {
                    id: id.clone(),
                    line,
                    parent,
                    ..Session::default()
                },
            );
        }
        id
    }
}

/// Read a Claude Code session file (`name` for the model fallback).
pub fn read(name: &str, text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    let mut corpus = Corpus::default();
    let mut state = State::default();
    let mut conversation_lines = 0usize;
    for (k, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let line = k as u64 + 1;
        if raw.trim().is_empty() {
            continue;
        }
        if let Err(message) = read_line(&mut state, raw, line, &mut conversation_lines) {
            corpus.skipped.push(LineError { line, message });
        }
    }
    let fallback = stem(name).to_string();
    // Subagents whose session is in the file are summarized on it; the
    // others (an `agent-<id>.jsonl` read alone) are trajectories.
    let (subs, mains): (Vec<Session>, Vec<Session>) = state
        .sessions
        .into_values()
        .filter(|s| !s.messages.is_empty())
        .partition(|s| s.parent.is_some());
    let mut mains: IndexMap<String, Session> =
        mains.into_iter().map(|s| (s.id.clone(), s)).collect();
    let mut alone = Vec::new();
    let mut folded = 0;
    for sub in subs {
        match sub.parent.as_ref().and_then(|p| mains.get_mut(p)) {
            Some(p) => {
                p.subagents.push(summary(&sub, &fallback));
                folded += 1;
            }
            None => alone.push(sub),
        }
    }
    let mut unnamed = 0;
    for s in mains.into_values().chain(alone) {
        let line = s.line;
        let (t, named) = into_trajectory(s, &fallback);
        unnamed += usize::from(!named);
        if let Some(message) = unknown_call_ids(&t) {
            corpus.notes.push(LineError { line, message });
        }
        corpus.trajectories.push(t);
    }
    if corpus.trajectories.is_empty() {
        return Err(match corpus.skipped.first() {
            Some(first) => format!(
                "no session could be read: {} line(s) skipped (first: {first})",
                corpus.skipped.len()
            ),
            None if conversation_lines > 0 => {
                "no session has a message (every user and assistant line is slash-command chrome or empty)".into()
            }
            None => "no session: no `user` or `assistant` line with a `sessionId` and a `message`".into(),
        });
    }
    if unnamed > 0 {
        corpus.warnings.push(format!(
            "{unnamed} session(s) name no model (no assistant `message.model`): the file's name `{fallback}` is used; give the name with --model"
        ));
    }
    let n = corpus.trajectories.len();
    if folded > 0 {
        corpus.warnings.push(format!(
            "{folded} subagent conversation(s) (`isSidechain` lines) are not messages of their session: each is summarized in the session's `subagents` detail (read its `agent-<id>.jsonl` alone to see its messages)"
        ));
    }
    corpus
        .warnings
        .push(no_outcome_warning("a Claude Code session file", n));
    Ok(corpus)
}

/// One non-blank line into the state, or why it cannot be read.
fn read_line(
    state: &mut State,
    raw: &str,
    line: u64,
    conversation: &mut usize,
) -> Result<(), String> {
    let l: Line = parse_line(raw)?;
    let kind = l.kind.as_deref().unwrap_or_default();
    if kind != "user" && kind != "assistant" {
        return Ok(());
    }
    *conversation += 1;
    let session = l
        .session_id
        .clone()
        .ok_or_else(|| format!("a `{kind}` line without `sessionId`"))?;
    if let Some(why) = bad_name("sessionId", &session) {
        return Err(why);
    }
    if let Some(why) = l.agent_id.as_deref().and_then(|a| bad_name("agentId", a)) {
        return Err(why);
    }
    let id = state.session_for(&l, &session, line);
    let Some(s) = state.sessions.get_mut(&id) else {
        return Ok(());
    };
    for (key, v) in [
        ("cwd", &l.cwd),
        ("gitBranch", &l.git_branch),
        ("version", &l.version),
        ("slug", &l.slug),
    ] {
        if let Some(v) = v {
            s.meta
                .entry(key)
                .or_insert_with(|| Value::String(v.clone()));
        }
    }
    let Some(m) = l.message else {
        return Err(format!("a `{kind}` line without `message`"));
    };
    if kind == "user" {
        push_user(s, m.content.unwrap_or(Value::Null))
    } else {
        push_assistant(s, m)
    }
}

/// What a session shows of one of its subagents: its id, model, counts
/// and the start of its prompt (at most [`PROMPT_CHARS`] characters).
fn summary(sub: &Session, fallback: &str) -> Value {
    let calls: usize = sub.messages.iter().map(|m| m.tool_calls.len()).sum();
    let errors = sub
        .messages
        .iter()
        .filter(|m| m.role == "tool" && m.error == Some(true))
        .count();
    let prompt = sub
        .messages
        .iter()
        .find(|m| m.role == "user")
        .and_then(|m| m.content.as_ref())
        .map(|c| {
            let text = match c {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            text.chars().take(PROMPT_CHARS).collect::<String>()
        });
    serde_json::json!({
        "id": sub.id,
        "model": sub.models.first().map_or(fallback, String::as_str),
        "line": sub.line,
        "messages": sub.messages.len(),
        "tool_calls": calls,
        "tool_errors": errors,
        "prompt": prompt,
    })
}

/// How much of a subagent's prompt its session's detail shows.
const PROMPT_CHARS: usize = 200;

/// The trajectory of a session, and whether its file named its model.
fn into_trajectory(s: Session, fallback: &str) -> (Trajectory, bool) {
    let mut details = Vec::new();
    if !s.meta.is_empty() {
        details.push(Detail {
            label: "session".into(),
            value: Value::Object(s.meta),
        });
    }
    if let Some(p) = &s.parent {
        details.push(Detail {
            label: "subagent of".into(),
            value: Value::String(p.clone()),
        });
    }
    if !s.subagents.is_empty() {
        details.push(Detail {
            label: "subagents".into(),
            value: Value::Array(s.subagents),
        });
    }
    if s.models.len() > 1 {
        details.push(Detail {
            label: "models".into(),
            value: Value::Array(s.models.iter().cloned().map(Value::String).collect()),
        });
    }
    if !s.usage.is_empty() {
        let sum = |f: fn(&Usage) -> Option<u64>| -> u64 { s.usage.values().filter_map(f).sum() };
        details.push(Detail {
            label: "tokens".into(),
            value: serde_json::json!({
                "input": sum(|u| u.input_tokens),
                "output": sum(|u| u.output_tokens),
                "cache_creation_input": sum(|u| u.cache_creation_input_tokens),
                "cache_read_input": sum(|u| u.cache_read_input_tokens),
            }),
        });
    }
    let named = !s.models.is_empty();
    let model = s
        .models
        .first()
        .cloned()
        .unwrap_or_else(|| fallback.to_string());
    (
        Trajectory {
            source_id: Some(format!("{IDENTITY}\u{1f}{}", s.id)),
            task_id: s.id.clone(),
            id: s.id,
            model,
            messages: s.messages,
            details,
            ..Trajectory::default()
        },
        named,
    )
}
