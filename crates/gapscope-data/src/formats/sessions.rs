//! What the two coding-agent session readers share ([`super::claude_code`],
//! [`super::codex`]): message contents built from text and reasoning parts,
//! one JSON line parsed with its column, the file's stem, and the warning
//! that a session names no task and no reward.

use serde_json::{Map, Value};

/// One part of a message's content, in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Part {
    Text(String),
    /// Reasoning the file shows in clear (Claude `thinking`, Codex
    /// reasoning summaries).
    Reasoning(String),
}

/// A message's content: `None` without parts, the text when every part is
/// text (joined by newlines), else a list of `{type: text, text}` and
/// `{type: reasoning, reasoning}` parts as the Inspect reader writes them.
pub(super) fn content(parts: Vec<Part>) -> Option<Value> {
    if parts.is_empty() {
        return None;
    }
    if parts.iter().all(|p| matches!(p, Part::Text(_))) {
        let texts: Vec<String> = parts
            .into_iter()
            .filter_map(|p| match p {
                Part::Text(t) => Some(t),
                Part::Reasoning(_) => None,
            })
            .collect();
        return Some(Value::String(texts.join("\n")));
    }
    Some(Value::Array(
        parts
            .into_iter()
            .map(|p| {
                let mut o = Map::new();
                let (kind, key, text) = match p {
                    Part::Text(t) => ("text", "text", t),
                    Part::Reasoning(r) => ("reasoning", "reasoning", r),
                };
                o.insert("type".into(), Value::String(kind.into()));
                o.insert(key.into(), Value::String(text));
                Value::Object(o)
            })
            .collect(),
    ))
}

/// The parts of a content [`content`] built, back (to add a fragment's).
pub(super) fn parts_of(v: Option<Value>) -> Vec<Part> {
    match v {
        None => Vec::new(),
        Some(Value::String(t)) => vec![Part::Text(t)],
        Some(Value::Array(items)) => items
            .into_iter()
            .filter_map(|v| {
                let r = v
                    .get("reasoning")
                    .and_then(Value::as_str)
                    .map(|r| Part::Reasoning(r.into()));
                r.or_else(|| {
                    v.get("text")
                        .and_then(Value::as_str)
                        .map(|t| Part::Text(t.into()))
                })
            })
            .collect(),
        Some(other) => vec![Part::Text(other.to_string())],
    }
}

/// One JSON line as `T`, or why not (`column N: …`; the caller adds the line).
pub(super) fn parse_line<'a, T: serde::Deserialize<'a>>(raw: &'a str) -> Result<T, String> {
    if !raw.trim_start().starts_with('{') {
        return Err("expected a JSON object (one event a line)".into());
    }
    serde_json::from_str(raw).map_err(|e| {
        format!(
            "column {}: {}",
            e.column(),
            crate::profile::json_message(&e)
        )
    })
}

/// The file's name without folders and without `.jsonl`.
pub(super) fn stem(name: &str) -> &str {
    super::file_stem(name, &[".jsonl"])
}

/// The warning on every session file: no task and no reward in it.
pub(super) fn no_outcome_warning(what: &str, n: usize) -> String {
    format!(
        "{what} names no task and no reward: {} read with task id = {} (domain `{}`) and no reward; give an outcomes CSV (`trajectory_id,task_id,reward`, --outcomes) to supply both",
        if n == 1 { "its session is".to_string() } else { format!("its {n} sessions are") },
        if n == 1 { "the session id" } else { "each session id" },
        crate::trajectory::UNKNOWN_DOMAIN
    )
}

/// Text of a tool result given as a string or a list of content blocks
/// (`{type: text, text}`; an image becomes `[image]`); anything else as JSON.
pub(super) fn result_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => s.clone(),
                Value::Object(o) => match (o.get("type").and_then(Value::as_str), o.get("text")) {
                    (_, Some(Value::String(t))) => t.clone(),
                    (Some(k), _) if k.contains("image") => "[image]".into(),
                    _ => item.to_string(),
                },
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_are_text_or_typed_parts() {
        assert_eq!(content(vec![]), None);
        assert_eq!(
            content(vec![Part::Text("a".into()), Part::Text("b".into())]),
            Some(Value::String("a\nb".into()))
        );
        assert_eq!(
            content(vec![Part::Reasoning("r".into()), Part::Text("t".into())]),
            Some(serde_json::json!([
                {"type": "reasoning", "reasoning": "r"},
                {"type": "text", "text": "t"}
            ]))
        );
        assert_eq!(stem("a/b/rollout-x.jsonl"), "rollout-x");
        assert_eq!(
            result_text(&serde_json::json!([{"type": "text", "text": "x"}, {"type": "image"}])),
            "x\n[image]"
        );
    }
}
