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

/// Why a turn gave no usable completion (addendum §2; only on `logged: false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The model call raised.
    CallError,
    /// A call error that was a serving-window rejection (input + output
    /// reservation > context window).
    ContextOverflow,
    /// A completion rejected for not stopping on its own.
    Rejected,
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
    /// Addendum §2: why a non-logged turn failed (absent: unclassified).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// Addendum §1: a checkpoint was restored into the block (enters no
    /// quantity; counted).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub carried_in: bool,
    /// Addendum §7: the full assistant message (default: `code`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion: Option<String>,
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
    /// Shared: the reader gives episodes with equal instances under one id
    /// one copy (a 100,000-episode log of 6,250 instances holds 6,250).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<std::sync::Arc<serde_json::Value>>,
    pub turns: Vec<Turn>,
    /// Addendum §1: the intervention (`[a-z][a-z0-9_]*`, not `none`; absent:
    /// none), e.g. `carry` makes the condition `P->S+carry`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
    /// Addendum §1: the batch (a string or an integer, read as text); a
    /// slice field.
    #[serde(
        default,
        deserialize_with = "de_opt_id",
        skip_serializing_if = "Option::is_none"
    )]
    pub batch: Option<String>,
    /// Addendum §2: T_max, the model calls allowed (with the wall clock, the
    /// horizon: a slice field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_clock_limit_s: Option<f64>,
    /// Addendum §2: the serving window and the output reservation, tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_reservation: Option<u64>,
    /// Addendum §8: the generator fell back from its anti-collapse rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator_warning: Option<String>,
    /// Addendum §8: the score's parts, shown as logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_components: Option<indexmap::IndexMap<String, f64>>,
}

impl Episode {
    /// The base condition `X->Y` (without the intervention; see [`Episode::arm`]).
    pub fn condition(&self) -> Condition {
        Condition::of(self.train_runtime, self.deploy_runtime)
    }

    /// The condition with its intervention (addendum §1).
    pub fn arm(&self) -> Arm {
        Arm {
            base: self.condition(),
            intervention: self.intervention.clone(),
        }
    }

    /// The horizon (addendum §2), `None` when neither limit is logged.
    pub fn horizon(&self) -> Option<Horizon> {
        (self.turn_limit.is_some() || self.wall_clock_limit_s.is_some()).then_some(Horizon {
            turn_limit: self.turn_limit,
            wall_clock_limit_s: self.wall_clock_limit_s,
        })
    }
}

/// A condition of the open set (addendum §1): `X->Y` with an optional
/// intervention, labelled `X->Y+name`. Ordered base first, then without an
/// intervention before with, then by name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Arm {
    pub base: Condition,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
}

impl Arm {
    pub fn base(c: Condition) -> Self {
        Arm {
            base: c,
            intervention: None,
        }
    }

    /// `P->S` or `P->S+carry`.
    pub fn label(&self) -> String {
        match &self.intervention {
            None => self.base.label().to_string(),
            Some(k) => format!("{}+{k}", self.base.label()),
        }
    }
}

/// The horizon (addendum §2): the turn limit and the wall clock.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Horizon {
    pub turn_limit: Option<u32>,
    pub wall_clock_limit_s: Option<f64>,
}

impl Horizon {
    /// `T_max=80, 4000 s`.
    pub fn label(&self) -> String {
        let t = self
            .turn_limit
            .map_or_else(|| "T_max=?".to_string(), |t| format!("T_max={t}"));
        match self.wall_clock_limit_s {
            Some(w) => format!("{t}, {w} s"),
            None => t,
        }
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

/// An episode as a report holds it, read back: the base spec's fields and
/// the intervention; the addendum's other fields are left at their
/// defaults (the page, which reads reports, shows none of them, and so
/// links no decoder for them; the log's reader is [`Episode`]'s own).
pub(crate) fn de_reported<'de, D: Deserializer<'de>>(d: D) -> Result<Episode, D::Error> {
    #[derive(Deserialize)]
    struct TurnBack {
        index: u32,
        logged: bool,
        #[serde(default)]
        code: Option<String>,
        #[serde(default)]
        calls: Vec<Call>,
        #[serde(default)]
        error: Option<String>,
        #[serde(default)]
        tokens_in: Option<u64>,
        #[serde(default)]
        tokens_out: Option<u64>,
        #[serde(default)]
        stdout: Option<String>,
        #[serde(default)]
        record: Option<RecordNote>,
    }
    #[derive(Deserialize)]
    struct EpisodeBack {
        #[serde(deserialize_with = "de_id")]
        episode_id: String,
        task_family: String,
        #[serde(deserialize_with = "de_id")]
        instance_id: String,
        train_runtime: Runtime,
        deploy_runtime: Runtime,
        cap: u32,
        seed: u64,
        rollout: u64,
        base_model: String,
        score: f64,
        termination: Termination,
        #[serde(default)]
        instance: Option<std::sync::Arc<serde_json::Value>>,
        turns: Vec<TurnBack>,
        #[serde(default)]
        intervention: Option<String>,
    }
    let e = EpisodeBack::deserialize(d)?;
    Ok(Episode {
        episode_id: e.episode_id,
        task_family: e.task_family,
        instance_id: e.instance_id,
        train_runtime: e.train_runtime,
        deploy_runtime: e.deploy_runtime,
        cap: e.cap,
        seed: e.seed,
        rollout: e.rollout,
        base_model: e.base_model,
        score: e.score,
        termination: e.termination,
        instance: e.instance,
        turns: e
            .turns
            .into_iter()
            .map(|t| Turn {
                index: t.index,
                logged: t.logged,
                code: t.code,
                calls: t.calls,
                error: t.error,
                tokens_in: t.tokens_in,
                tokens_out: t.tokens_out,
                stdout: t.stdout,
                record: t.record,
                failure: None,
                carried_in: false,
                completion: None,
            })
            .collect(),
        intervention: e.intervention,
        batch: None,
        turn_limit: None,
        wall_clock_limit_s: None,
        context_window: None,
        output_reservation: None,
        generator_warning: None,
        score_components: None,
    })
}

/// [`de_id`] for an optional field.
pub(crate) fn de_opt_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    de_id(d).map(Some)
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
