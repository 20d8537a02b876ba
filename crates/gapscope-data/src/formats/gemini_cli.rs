//! Gemini CLI session JSON (`sessionId`, `projectHash`, `messages`;
//! docs/formats.md, "Gemini CLI sessions"). The shape is Gemini CLI's
//! `ConversationRecord` (`packages/core/src/services/chatRecordingTypes.ts`):
//! messages `{id, timestamp, type: user | gemini | info | error | warning,
//! content}`, a `gemini` message with `toolCalls` (`{id, name, args,
//! result, status}`, the result recorded on the call itself), `thoughts`,
//! `tokens` and `model`. A session has no task and no reward.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::simple;
use super::{Corpus, ReadOptions};
use crate::trajectory::{Detail, Message, ToolCall, Trajectory};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Session {
    session_id: String,
    messages: Vec<Record>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    tool_calls: Option<Vec<CallRecord>>,
    #[serde(default)]
    tokens: Option<Map<String, Value>>,
    #[serde(default)]
    model: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallRecord {
    id: String,
    name: String,
    #[serde(default)]
    args: Option<Value>,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    result_display: Option<Value>,
}

/// The text of a tool result (`PartListUnion`: the `functionResponse`
/// parts' `response.output` or `response.error`, text parts, or a string),
/// else the result value itself; then the `resultDisplay` if a string.
fn result_content(result: Option<Value>, display: Option<Value>) -> Option<Value> {
    fn part_text(p: &Value) -> Option<String> {
        if let Some(r) = p.get("functionResponse").and_then(|f| f.get("response")) {
            return ["output", "error"]
                .iter()
                .find_map(|k| r.get(k).and_then(Value::as_str))
                .map(str::to_string)
                .or_else(|| Some(r.to_string()));
        }
        simple::text_of(p)
    }
    let from_result = result.filter(|v| !v.is_null()).map(|v| {
        let parts: Vec<&Value> = match &v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        let texts: Option<Vec<String>> = parts.into_iter().map(part_text).collect();
        texts.map_or(v, |t| Value::String(t.join("\n\n")))
    });
    from_result.or_else(|| display.filter(Value::is_string))
}

/// Read a Gemini CLI session (`name`: its file name, the model when no
/// message names one).
pub fn read(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    let session: Session = simple::parse(
        text,
        "a Gemini CLI session {sessionId, projectHash, messages}",
    )
    .map_err(|e| e.to_string())?;
    if session.messages.is_empty() {
        return Err("a Gemini CLI session with no messages: nothing to read".into());
    }
    let stem = simple::file_stem(name);
    let mut models: Vec<String> = Vec::new();
    let mut tokens: Map<String, Value> = Map::new();
    let mut messages = Vec::new();
    for r in session.messages {
        if let Some(m) = r.model.filter(|m| !m.is_empty()) {
            if !models.contains(&m) {
                models.push(m);
            }
        }
        // Token counts summed over the session (integers only).
        for (k, v) in r.tokens.into_iter().flatten() {
            if let Some(n) = v.as_i64() {
                let e = tokens.entry(k).or_insert(Value::from(0));
                *e = Value::from(e.as_i64().unwrap_or(0).saturating_add(n));
            }
        }
        let role = match r.kind.as_str() {
            "user" => "user",
            "gemini" => "assistant",
            // `info`, `warning`, `error`: the CLI's own notices.
            _ => "system",
        };
        let calls = r.tool_calls.unwrap_or_default();
        messages.push(Message {
            role: role.into(),
            content: simple::content(r.content),
            tool_calls: calls
                .iter()
                .map(|c| ToolCall {
                    id: Some(c.id.clone()),
                    name: c.name.clone(),
                    arguments: simple::arguments(c.args.clone()),
                })
                .collect(),
            tool_call_id: None,
            error: (r.kind == "error").then_some(true),
        });
        for c in calls {
            let error = matches!(c.status.as_deref(), Some("error" | "cancelled"));
            messages.push(Message {
                role: "tool".into(),
                content: result_content(c.result, c.result_display),
                tool_calls: Vec::new(),
                tool_call_id: Some(c.id),
                error: Some(error),
            });
        }
    }
    let mut warnings = vec![
        "a Gemini CLI session has no task and no reward: the session id stands for the task, and the reward is left empty, not 0".to_string(),
    ];
    let model = if let Some(first) = models.first() {
        if models.len() > 1 {
            warnings.push(format!(
                "names {} models ({}): the first, `{first}`, is the trajectory's",
                models.len(),
                models
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        first.clone()
    } else {
        if options.model.is_none() {
            warnings.push(format!("names no model (no message has `model`): the file name `{stem}` stands for it; give the name with --model"));
        }
        stem.to_string()
    };
    let mut details = Vec::new();
    if !tokens.is_empty() {
        details.push(Detail {
            label: "tokens".into(),
            value: Value::Object(tokens),
        });
    }
    let t = Trajectory {
        id: session.session_id.clone(),
        model,
        domain: options.domain.clone(),
        task_id: session.session_id.clone(),
        source_id: Some(format!("gemini\u{1f}{}", session.session_id)),
        messages,
        details,
        ..Trajectory::default()
    };
    Ok(simple::one_trajectory(t, warnings))
}
