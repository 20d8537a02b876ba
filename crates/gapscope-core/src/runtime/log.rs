//! The episode log (spec: runtime-contracts.md, "Episode log"): JSONL, one
//! episode a line, read line by line with located errors. A malformed line is
//! reported (line, field path, what was expected) and skipped; the rest is
//! still read, so the reader sees how many were skipped.

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};

use crate::trajectory::LineError;

/// A runtime contract: persistent (bindings survive the turn boundary) or
/// stateless (bindings cleared each turn; task state survives in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Runtime {
    P,
    S,
}

/// One of the four `X->Y` conditions (trained under X, deployed under Y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Condition {
    PP,
    PS,
    SP,
    SS,
}

impl Condition {
    /// In the paper's table order: P->P, P->S, S->P, S->S.
    pub const ALL: [Condition; 4] = [Condition::PP, Condition::PS, Condition::SP, Condition::SS];

    pub fn of(train: Runtime, deploy: Runtime) -> Self {
        match (train, deploy) {
            (Runtime::P, Runtime::P) => Condition::PP,
            (Runtime::P, Runtime::S) => Condition::PS,
            (Runtime::S, Runtime::P) => Condition::SP,
            (Runtime::S, Runtime::S) => Condition::SS,
        }
    }

    pub fn train(self) -> Runtime {
        match self {
            Condition::PP | Condition::PS => Runtime::P,
            Condition::SP | Condition::SS => Runtime::S,
        }
    }

    pub fn deploy(self) -> Runtime {
        match self {
            Condition::PP | Condition::SP => Runtime::P,
            Condition::PS | Condition::SS => Runtime::S,
        }
    }

    /// `P->S` and so on.
    pub fn label(self) -> &'static str {
        match self {
            Condition::PP => "P->P",
            Condition::PS => "P->S",
            Condition::SP => "S->P",
            Condition::SS => "S->S",
        }
    }

    /// Matched (trained and deployed under the same contract).
    pub fn matched(self) -> bool {
        self.train() == self.deploy()
    }
}

/// How an episode ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Finish,
    TurnLimit,
    Timeout,
}

/// One tool call the action block attempted (including one the cap rejected).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub tool: String,
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub args: serde_json::Value,
    pub ok: bool,
    /// Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Simulator-only annotation (ignored by the analysis): entries of the agent's
/// working record available when the block started and when it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordNote {
    pub at_start: u32,
    pub at_end: u32,
}

/// One turn of the horizon: a model call and, if it gave a usable completion
/// (`logged`), the action block it executed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub index: u32,
    pub logged: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default)]
    pub calls: Vec<Call>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `None` when the log does not say (then the episode's tokens are undefined).
    #[serde(default)]
    pub tokens_in: Option<u64>,
    #[serde(default)]
    pub tokens_out: Option<u64>,
    /// Extension: the captured stdout of the block, if logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    /// Extension written by the simulator; see [`RecordNote`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<RecordNote>,
}

/// One episode: one `X->Y` agent at one cap on one instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Episode {
    #[serde(deserialize_with = "de_id")]
    pub episode_id: String,
    pub task_family: String,
    #[serde(deserialize_with = "de_id")]
    pub instance_id: String,
    pub train_runtime: Runtime,
    pub deploy_runtime: Runtime,
    pub cap: u32,
    pub seed: u64,
    pub rollout: u64,
    pub base_model: String,
    pub score: f64,
    pub termination: Termination,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<serde_json::Value>,
    pub turns: Vec<Turn>,
}

impl Episode {
    pub fn condition(&self) -> Condition {
        Condition::of(self.train_runtime, self.deploy_runtime)
    }
}

/// Ids may be written as strings or integers; both are read as text.
pub(crate) fn de_id<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        S(String),
        I(i64),
        U(u64),
    }
    match Id::deserialize(d) {
        Ok(Id::S(s)) => Ok(s),
        Ok(Id::I(i)) => Ok(i.to_string()),
        Ok(Id::U(u)) => Ok(u.to_string()),
        Err(_) => Err(serde::de::Error::custom(
            "expected a string or an integer id",
        )),
    }
}

/// What a JSONL log gave: the episodes read (with their line numbers) and the
/// lines skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EpisodeLog {
    pub episodes: Vec<Episode>,
    /// `lines[i]` is the line of `episodes[i]`.
    pub lines: Vec<u64>,
    pub skipped: Vec<LineError>,
}

/// Semantic checks serde cannot express, with the field named.
fn check(e: &Episode) -> Result<(), String> {
    if e.cap == 0 {
        return Err("field `cap`: expected a per-turn cap of at least 1, got 0".into());
    }
    if !e.score.is_finite() {
        return Err(format!(
            "field `score`: expected a finite number, got {}",
            e.score
        ));
    }
    if e.task_family == super::knapsack::FAMILY {
        if let Some(inst) = &e.instance {
            check_exact_numbers(inst)?;
        }
    }
    for (k, w) in e.turns.windows(2).enumerate() {
        if w[1].index <= w[0].index {
            return Err(format!(
                "field `turns[{}].index`: expected turn indices in increasing order, got {} after {}",
                k + 1,
                w[1].index,
                w[0].index
            ));
        }
    }
    Ok(())
}

/// An Opaque Knapsack instance's numbers within exact range: `capacity`,
/// `budget` and item weights ≤ 2^53, item values ≤ 2^53 in magnitude (beyond
/// that sums lose units, and weights past u64 wrapped to a small sum that
/// hid a capacity breach). Other shapes are left to the verifier's messages.
fn check_exact_numbers(inst: &serde_json::Value) -> Result<(), String> {
    use super::knapsack::MAX_EXACT;
    let limit = MAX_EXACT as f64;
    let over = |v: &serde_json::Value| {
        v.as_u64().map_or_else(
            || v.as_f64().is_some_and(|x| x.abs() > limit),
            |u| u > MAX_EXACT,
        )
    };
    for key in ["capacity", "budget"] {
        if let Some(v) = inst.get(key).filter(|v| over(v)) {
            return Err(format!(
                "field `instance.{key}`: {v} exceeds {MAX_EXACT} (2^53, the largest integer a JSON number holds exactly)"
            ));
        }
    }
    let items = inst.get("items").and_then(serde_json::Value::as_array);
    for (i, it) in items.into_iter().flatten().enumerate() {
        if let Some(v) = it.get("weight").filter(|v| over(v)) {
            return Err(format!(
                "field `instance.items[{i}].weight`: {v} exceeds {MAX_EXACT} (2^53, the largest integer a JSON number holds exactly)"
            ));
        }
        if let Some(v) = it.get("value").filter(|v| over(v)) {
            return Err(format!(
                "field `instance.items[{i}].value`: {v} exceeds {MAX_EXACT} (2^53) in magnitude; values must be sums of exact numbers"
            ));
        }
    }
    Ok(())
}

/// Parse one line into an episode; the error names the field path.
pub fn parse_line(raw: &str) -> Result<Episode, String> {
    let mut de = serde_json::Deserializer::from_str(raw);
    let e: Episode = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = crate::profile::json_message(&inner);
        if path == "." || path == "?" || path.is_empty() {
            format!("column {}: {message}", inner.column())
        } else {
            format!("field `{path}`: {message}")
        }
    })?;
    de.end().map_err(|err| {
        format!(
            "column {}: {}",
            err.column(),
            crate::profile::json_message(&err)
        )
    })?;
    check(&e)?;
    Ok(e)
}

/// Read an episode log (blank lines are skipped silently; malformed lines
/// and repeated `episode_id`s are reported and skipped).
pub fn read_jsonl(text: &str) -> EpisodeLog {
    let mut log = EpisodeLog::default();
    let mut seen: IndexMap<String, u64> = IndexMap::new();
    for (i, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let line = i as u64 + 1;
        if raw.trim().is_empty() {
            continue;
        }
        match parse_line(raw) {
            Ok(e) => {
                if let Some(first) = seen.get(&e.episode_id) {
                    log.skipped.push(LineError {
                        line,
                        message: format!(
                            "episode_id `{}` already used on line {first}",
                            e.episode_id
                        ),
                    });
                    continue;
                }
                seen.insert(e.episode_id.clone(), line);
                log.episodes.push(e);
                log.lines.push(line);
            }
            Err(message) => log.skipped.push(LineError { line, message }),
        }
    }
    log
}

/// Write episodes as JSONL (one compact line each, ending in a newline).
pub fn write_jsonl(episodes: &[Episode]) -> Result<String, serde_json::Error> {
    let mut out = String::new();
    for e in episodes {
        out.push_str(&serde_json::to_string(e)?);
        out.push('\n');
    }
    Ok(out)
}

/// The item id a call names: a string or integer argument; the first element
/// of a positional list; the `id` (or `item_id`) field of an object, or its
/// only field.
pub fn call_item_id(args: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match args {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) => a.first().and_then(call_item_id),
        Value::Object(o) => o
            .get("id")
            .or_else(|| o.get("item_id"))
            .or_else(|| (o.len() == 1).then(|| o.values().next()).flatten())
            .and_then(call_item_id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"episode_id":"e1","task_family":"opaque_knapsack","instance_id":7,"train_runtime":"P","deploy_runtime":"S","cap":25,"seed":0,"rollout":0,"base_model":"m","score":0.5,"termination":"finish","turns":[{"index":0,"logged":true,"code":"x","calls":[{"tool":"list_items","ok":true}],"tokens_in":10,"tokens_out":2}]}"#;

    #[test]
    fn reads_a_good_line_and_locates_errors() {
        let bad_runtime = GOOD.replace(r#""deploy_runtime":"S""#, r#""deploy_runtime":"Q""#);
        let bad_ok = GOOD.replace(r#""ok":true"#, r#""ok":"yes""#);
        let no_cap = GOOD.replace(r#""cap":25,"#, "");
        let zero_cap = GOOD.replace(r#""cap":25"#, r#""cap":0"#);
        let text = [
            GOOD,
            "",
            &bad_runtime,
            &bad_ok,
            &no_cap,
            &zero_cap,
            GOOD,
            "{not json",
        ]
        .join("\n");
        let log = read_jsonl(&text);
        assert_eq!(log.episodes.len(), 1);
        assert_eq!(log.lines, [1]);
        assert_eq!(
            log.episodes[0].instance_id, "7",
            "an integer id is read as text"
        );
        assert_eq!(log.episodes[0].condition(), Condition::PS);
        let msgs: Vec<String> = log.skipped.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            msgs[0],
            "line 3: field `deploy_runtime`: unknown variant `Q`, expected `P` or `S`"
        );
        assert_eq!(
            msgs[1],
            "line 4: field `turns[0].calls[0].ok`: invalid type: string \"yes\", expected a boolean"
        );
        assert!(
            msgs[2].starts_with("line 5: ") && msgs[2].contains("missing field `cap`"),
            "{}",
            msgs[2]
        );
        assert_eq!(
            msgs[3],
            "line 6: field `cap`: expected a per-turn cap of at least 1, got 0"
        );
        assert_eq!(msgs[4], "line 7: episode_id `e1` already used on line 1");
        assert!(msgs[5].starts_with("line 8: column 2: "), "{}", msgs[5]);
        assert_eq!(log.skipped.len(), 6);
    }

    #[test]
    fn written_episodes_read_back() {
        let log = read_jsonl(GOOD);
        let text = write_jsonl(&log.episodes).unwrap();
        assert_eq!(read_jsonl(&text).episodes, log.episodes);
    }

    #[test]
    fn item_ids_from_arguments() {
        use serde_json::json;
        assert_eq!(call_item_id(&json!("a")), Some("a".into()));
        assert_eq!(call_item_id(&json!([3])), Some("3".into()));
        assert_eq!(call_item_id(&json!({"id": "b", "x": 1})), Some("b".into()));
        assert_eq!(call_item_id(&json!({"item": "c"})), Some("c".into()));
        assert_eq!(call_item_id(&json!({"a": 1, "b": 2})), None);
        assert_eq!(call_item_id(&json!(null)), None);
    }
}
