//! The episode log (spec: runtime-contracts.md, "Episode log"): the episode,
//! its turns and calls, and the JSONL writer. The reader is [`crate::read`].

use serde::{Deserialize, Deserializer, Serialize};

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
