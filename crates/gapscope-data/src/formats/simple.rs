//! What the readers of the agent logs of issue 16 that are one JSON document
//! or one record a line share (τ-bench v1, SWE-agent, mini-swe-agent, Gemini
//! CLI, OpenHands): located JSON errors, the file stem, tool-call arguments
//! that may be JSON text, the text of content parts, and a reader of the
//! Python literals (`repr` of lists and dicts) some SWE-agent files hold
//! where JSON was meant.

use serde_json::{Map, Value};

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
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    for ext in [".traj.json", ".traj", ".json", ".jsonl"] {
        if let Some(s) = base.strip_suffix(ext) {
            if !s.is_empty() {
                return s;
            }
        }
    }
    base
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

/// The deepest nesting [`python_literal`] reads (as serde_json's limit).
const MAX_DEPTH: usize = 128;

/// A Python literal (what `repr` prints of lists, dicts, strings, numbers,
/// `True`/`False`/`None`) as a JSON value; SWE-agent 1.x files store
/// `tool_calls` and `tool_call_ids` so (`"[{'function': …}]"`). Also reads
/// JSON. The error says the byte offset.
pub fn python_literal(s: &str) -> Result<Value, String> {
    let mut p = Py {
        b: s.as_bytes(),
        s,
        i: 0,
    };
    let v = p.value(0)?;
    p.ws();
    if p.i != p.b.len() {
        return Err(format!("offset {}: text after the literal", p.i));
    }
    Ok(v)
}

struct Py<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
}

impl Py<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("offset {}: expected {what}", self.i))
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return self.err("at most 128 levels of nesting");
        }
        self.ws();
        match self.b.get(self.i) {
            None => self.err("a value"),
            Some(b'[' | b'(') => self.list(depth),
            Some(b'{') => self.dict(depth),
            Some(b'\'' | b'"') => self.string().map(Value::String),
            Some(_) => self.word(),
        }
    }

    fn list(&mut self, depth: usize) -> Result<Value, String> {
        let close = if self.b[self.i] == b'[' { b']' } else { b')' };
        self.i += 1;
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.b.get(self.i) == Some(&close) {
                self.i += 1;
                return Ok(Value::Array(out));
            }
            out.push(self.value(depth + 1)?);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(c) if *c == close => {}
                _ => return self.err("`,` or the end of the list"),
            }
        }
    }

    fn dict(&mut self, depth: usize) -> Result<Value, String> {
        self.i += 1;
        let mut out = Map::new();
        loop {
            self.ws();
            if self.b.get(self.i) == Some(&b'}') {
                self.i += 1;
                return Ok(Value::Object(out));
            }
            let key = match self.value(depth + 1)? {
                Value::String(k) => k,
                other => other.to_string(),
            };
            self.ws();
            if self.b.get(self.i) != Some(&b':') {
                return self.err("`:` after a key");
            }
            self.i += 1;
            let v = self.value(depth + 1)?;
            out.insert(key, v);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return self.err("`,` or `}`"),
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        let quote = self.b[self.i];
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.i < self.b.len() && self.b[self.i] != quote && self.b[self.i] != b'\\' {
                self.i += 1;
            }
            out.push_str(&self.s[start..self.i]);
            match self.b.get(self.i) {
                None => return self.err("the closing quote"),
                Some(c) if *c == quote => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(_) => self.escape(&mut out)?,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), String> {
        self.i += 1;
        let Some(&c) = self.b.get(self.i) else {
            return self.err("an escaped character");
        };
        self.i += 1;
        let hex = |p: &mut Self, n: usize| -> Result<char, String> {
            let h =
                p.s.get(p.i..p.i + n)
                    .ok_or(format!("offset {}: expected {n} hex digits", p.i))?;
            let code = u32::from_str_radix(h, 16)
                .map_err(|_| format!("offset {}: expected {n} hex digits", p.i))?;
            p.i += n;
            Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
        };
        match c {
            b'n' => out.push('\n'),
            b't' => out.push('\t'),
            b'r' => out.push('\r'),
            b'0' => out.push('\0'),
            b'x' => out.push(hex(self, 2)?),
            b'u' => out.push(hex(self, 4)?),
            b'U' => out.push(hex(self, 8)?),
            b'\\' | b'\'' | b'"' | b'/' => out.push(c as char),
            b'\n' => {}
            _ => {
                // Python keeps an unknown escape as written.
                out.push('\\');
                self.i -= 1;
            }
        }
        Ok(())
    }

    fn word(&mut self) -> Result<Value, String> {
        let start = self.i;
        while self.i < self.b.len()
            && !b",:]})".contains(&self.b[self.i])
            && !self.b[self.i].is_ascii_whitespace()
        {
            self.i += 1;
        }
        let w = &self.s[start..self.i];
        match w {
            "True" | "true" => Ok(Value::Bool(true)),
            "False" | "false" => Ok(Value::Bool(false)),
            "None" | "null" => Ok(Value::Null),
            _ => match serde_json::from_str::<serde_json::Number>(w) {
                Ok(n) => Ok(Value::Number(n)),
                Err(_) => {
                    self.i = start;
                    self.err("a string, number, list, dict, True, False or None")
                }
            },
        }
    }
}

/// A value that may be a Python literal in a string (SWE-agent's
/// `tool_calls`): a string is read with [`python_literal`], anything else
/// kept. The error says where.
pub fn maybe_literal(v: Value) -> Result<Value, String> {
    match v {
        Value::String(s) => python_literal(&s),
        v => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_literals_as_swe_agent_writes_them() {
        // One call as in function_calling_simple.traj (history[2].tool_calls).
        let s = r#"[{'function': {'arguments': '{"file_name":"missing_colon.py"}', 'name': 'find_file'}, 'id': 'call_P', 'type': 'function'}]"#;
        assert_eq!(
            python_literal(s).unwrap(),
            json!([{"function": {"arguments": "{\"file_name\":\"missing_colon.py\"}", "name": "find_file"}, "id": "call_P", "type": "function"}])
        );
        assert_eq!(
            python_literal("['a', \"b\\n\", 1, 2.5, True, None]").unwrap(),
            json!(["a", "b\n", 1, 2.5, true, null])
        );
        assert_eq!(
            python_literal(r"'it\'s \x41\u00e9'").unwrap(),
            json!("it's Aé")
        );
        assert_eq!(python_literal("(1, 2,)").unwrap(), json!([1, 2]));
        assert!(python_literal("[1, 2").unwrap_err().contains("offset 5"));
        assert!(python_literal("'open")
            .unwrap_err()
            .contains("closing quote"));
        assert!(python_literal("[x]").unwrap_err().contains("offset 1"));
        assert!(python_literal(&"[".repeat(200))
            .unwrap_err()
            .contains("nesting"));
        assert!(python_literal("[1] 2").is_err());
    }

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
