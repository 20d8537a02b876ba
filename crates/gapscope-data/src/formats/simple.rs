//! What the readers of the agent logs of issue 16 that are one JSON document
//! or one record a line share (τ-bench v1, SWE-agent, mini-swe-agent, Gemini
//! CLI, OpenHands): located JSON errors, the file stem, tool-call arguments
//! that may be JSON text, the text of content parts.

use serde_json::{Map, Value};

use super::Corpus;
use crate::trajectory::{LineError, Trajectory};

/// Why a file of one of these formats could not be read, located.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimpleError {
    /// The text is not JSON (or not the JSON the format has) at a place.
    #[error("line {line}, column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    /// A record (list element) is not what the format has.
    #[error("{at}: {message}")]
    Record { at: String, message: String },
    /// The file is the format's but holds nothing to read.
    #[error("{0}")]
    Empty(String),
}

impl SimpleError {
    /// A serde error located at its line and column (`what`: what was
    /// expected, e.g. "a τ-bench record").
    pub fn json(e: &serde_json::Error, what: &str) -> Self {
        SimpleError::Json {
            line: e.line(),
            column: e.column(),
            message: format!("{} (expected {what})", crate::profile::json_message(e)),
        }
    }
}

/// Deserialize a whole text as `T`, located.
pub fn parse<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, SimpleError> {
    serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| SimpleError::json(&e, what))
}

/// The elements of a JSON list each read as `T` where they can be: the
/// fast path reads the list typed in one pass; when an element is not a
/// `T` (a wrong type, a missing field), the list is read as values and each
/// element converted alone, so the bad ones are returned with their index
/// and the rest kept. A text that is not JSON at all is one located error.
pub fn parse_list<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &str,
) -> Result<Vec<Result<T, String>>, SimpleError> {
    let text = text.trim_start_matches('\u{feff}');
    match serde_json::from_str::<Vec<T>>(text) {
        Ok(v) => Ok(v.into_iter().map(Ok).collect()),
        Err(e) if e.classify() != serde_json::error::Category::Data => {
            Err(SimpleError::json(&e, what))
        }
        Err(first) => {
            let values: Vec<Value> =
                serde_json::from_str(text).map_err(|_| SimpleError::json(&first, what))?;
            Ok(values
                .into_iter()
                .map(|v| {
                    serde_json::from_value::<T>(v).map_err(|e| {
                        format!("{} (expected {what})", crate::profile::json_message(&e))
                    })
                })
                .collect())
        }
    }
}

/// A file's name without folders and without the extensions these formats
/// use (`.traj.json`, `.traj`, `.json`, `.jsonl`).
pub fn file_stem(name: &str) -> &str {
    super::file_stem(name, &[".traj.json", ".traj", ".json", ".jsonl"])
}

/// The corpus of a file that holds one trajectory: it, the file's
/// warnings, and a note when a tool result answers no earlier call.
pub fn one_trajectory(t: Trajectory, warnings: Vec<String>) -> Corpus {
    let notes = crate::trajectory::unknown_call_ids(&t)
        .map(|message| LineError { line: 0, message })
        .into_iter()
        .collect();
    Corpus {
        trajectories: vec![t],
        warnings,
        notes,
        ..Corpus::default()
    }
}

/// Tool-call arguments as a JSON value: an object or list as is; a string
/// holding a JSON object (the OpenAI wire form) parsed; any other string kept.
pub fn arguments(v: Option<Value>) -> Value {
    match v {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(&s) {
            Ok(parsed @ (Value::Object(_) | Value::Array(_))) => parsed,
            _ => Value::String(s),
        },
        Some(v) => v,
    }
}

/// The text of a content value: a string; the `text` of parts
/// (`[{type: "text", text}]`, Gemini's `[{text}]`) joined by blank lines;
/// `None` for anything else (kept as the value by the callers).
pub fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(m) => m.get("text").and_then(Value::as_str).map(str::to_string),
        Value::Array(parts) => {
            let texts: Option<Vec<&str>> = parts
                .iter()
                .map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            texts.map(|t| t.join("\n\n"))
        }
        _ => None,
    }
}

/// A content value as kept in a message: its text where it is text
/// ([`text_of`]), else the value itself; `None` for null and "".
pub fn content(v: Option<Value>) -> Option<Value> {
    let v = v.filter(|v| !v.is_null())?;
    let v = text_of(&v).map_or(v, Value::String);
    (v != Value::String(String::new())).then_some(v)
}

/// A string cut to at most `max` bytes (at a character boundary), with the
/// number of bytes left out said (details stay small).
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [{} more bytes]", &s[..end], s.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stems_and_arguments() {
        assert_eq!(file_stem("a/b/django__django-1.traj"), "django__django-1");
        assert_eq!(file_stem("x\\m.traj.json"), "m");
        assert_eq!(file_stem(".json"), ".json");
        assert_eq!(arguments(Some(json!("{\"a\":1}"))), json!({"a": 1}));
        assert_eq!(arguments(Some(json!("ls -la"))), json!("ls -la"));
        assert_eq!(arguments(None), json!({}));
        assert_eq!(
            text_of(&json!([{"type": "text", "text": "a"}, {"text": "b"}])).as_deref(),
            Some("a\n\nb")
        );
        assert_eq!(text_of(&json!([{"image": 1}])), None);
        assert_eq!(content(Some(json!(""))), None);
        assert_eq!(cut("ééé", 3), "é… [4 more bytes]");
    }
}
