//! A simulation as τ²-bench 1.0 / τ³ writes it: the fields every version
//! has, the τ³ fields kept for a reader of the trajectory ([`Tau3Fields`]),
//! and full-duplex simulations, whose turns are in `ticks` (`messages` null
//! or absent), flattened into messages as τ²-bench's own
//! `SimulationRun.get_messages()` does (`src/tau2/data_model/simulation.py`,
//! `Tick.get_all_messages` in `message.py`):
//!
//! - `messages` present (even empty): they are the messages; else `ticks`;
//!   else none.
//! - Each tick gives, in order: an assistant message if it has an
//!   `agent_chunk` or `agent_tool_calls` (the chunk's content, the tick's
//!   tool calls), the `agent_tool_results`, a user message likewise from
//!   `user_chunk`/`user_tool_calls`, the `user_tool_results`.
//! - All are then sorted by timestamp (a stable sort of the timestamp
//!   texts). τ²-bench takes each message's own timestamp, and pydantic
//!   stamps one that is missing with the time of loading; here a missing
//!   timestamp is the tick's, and where that is missing too, the previous
//!   message's (so the message stays where its tick put it): the same order
//!   for files whose chunks carry no timestamp, and a deterministic one.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ActionCheck, Content, RewardInfo, Simulation, Tau2Message, Tau2ToolCall};
use crate::trajectory::{Detail, Score};

/// The τ³ fields of a simulation that a reader of its trajectory wants
/// (kept as [`crate::trajectory::Trajectory::details`]), and the grading
/// version its reward was computed under (`reward_info.reward_basis`).
/// With `C` = [`serde::de::IgnoredAny`] (a light read) the values are
/// skipped by the parser.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tau3Fields<C = Value> {
    /// `half_duplex` or `full_duplex`.
    pub mode: Option<String>,
    /// How many ticks a full-duplex simulation recorded (its messages are
    /// the ticks flattened).
    pub ticks: Option<usize>,
    pub review: Option<C>,
    pub user_only_review: Option<C>,
    pub hallucination_check: Option<C>,
    pub effect_timeline: Option<C>,
    /// `reward_info.reward_basis` (e.g. `["DB", "COMMUNICATE"]`).
    pub reward_basis: Option<Vec<String>>,
}

impl<C> Default for Tau3Fields<C> {
    fn default() -> Self {
        Tau3Fields {
            mode: None,
            ticks: None,
            review: None,
            user_only_review: None,
            hallucination_check: None,
            effect_timeline: None,
            reward_basis: None,
        }
    }
}

/// The most effect events a trajectory's `effect_timeline` detail keeps
/// whole; a longer timeline is summarised ([`effect_summary`]).
pub const MAX_EFFECT_EVENTS: usize = 20;

impl<C: Content> Tau3Fields<C> {
    /// The details of a trajectory, in a fixed order; absent fields give none.
    pub fn into_details(self) -> Vec<Detail> {
        let mut out = Vec::new();
        let mut push = |label: &str, value: Option<Value>| {
            if let Some(value) = value.filter(|v| !v.is_null()) {
                out.push(Detail {
                    label: label.to_string(),
                    value,
                });
            }
        };
        push("mode", self.mode.map(Value::String));
        push("ticks", self.ticks.map(Value::from));
        push("review", self.review.and_then(Content::into_value));
        push(
            "user_only_review",
            self.user_only_review.and_then(Content::into_value),
        );
        push(
            "hallucination_check",
            self.hallucination_check.and_then(Content::into_value),
        );
        push(
            "effect_timeline",
            self.effect_timeline
                .and_then(Content::into_value)
                .map(effect_summary),
        );
        out
    }
}

/// An `effect_timeline` (`{events: [{effect_type, start_ms, end_ms,
/// participant, params}]}`) as a detail: whole up to
/// [`MAX_EFFECT_EVENTS`] events; else `{events: n, by_type: {type: count},
/// by_participant: {…}, first: [the first MAX_EFFECT_EVENTS events]}`.
pub fn effect_summary(timeline: Value) -> Value {
    let Some(events) = timeline.get("events").and_then(Value::as_array) else {
        return timeline;
    };
    if events.len() <= MAX_EFFECT_EVENTS {
        return timeline;
    }
    let count = |key: &str| {
        let mut m = serde_json::Map::new();
        for e in events {
            let k = match e.get(key) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => "none".to_string(),
            };
            let n = m.get(&k).and_then(Value::as_u64).unwrap_or(0);
            m.insert(k, Value::from(n + 1));
        }
        Value::Object(m)
    };
    serde_json::json!({
        "events": events.len(),
        "by_type": count("effect_type"),
        "by_participant": count("participant"),
        "first": events[..MAX_EFFECT_EVENTS].to_vec(),
    })
}

/// `reward_info` with the grading version (`reward_basis`) read too.
#[derive(Deserialize)]
struct RawRewardInfo {
    #[serde(default)]
    reward: Option<f64>,
    #[serde(default)]
    action_checks: Option<Vec<ActionCheck>>,
    #[serde(default)]
    reward_basis: Option<Vec<String>>,
    /// The reward's components (`{"DB": 1.0, "COMMUNICATE": 0.0}`).
    #[serde(default)]
    reward_breakdown: Option<serde_json::Map<String, Value>>,
    #[serde(default)]
    db_check: Option<DbCheck>,
    #[serde(default)]
    nl_assertions: Option<Vec<Checked>>,
    #[serde(default)]
    communicate_checks: Option<Vec<Checked>>,
    #[serde(default)]
    env_assertions: Option<Vec<EnvChecked>>,
}

#[derive(Deserialize)]
struct DbCheck {
    #[serde(default)]
    db_match: Option<bool>,
    #[serde(default)]
    db_reward: Option<f64>,
}

/// An NL assertion or a communicate check: what was checked, whether it
/// was met, and the grader's justification.
#[derive(Deserialize)]
struct Checked {
    #[serde(default, alias = "nl_assertion")]
    info: Option<String>,
    #[serde(default)]
    met: Option<bool>,
    #[serde(default)]
    justification: Option<String>,
}

#[derive(Deserialize)]
struct EnvChecked {
    #[serde(default)]
    env_assertion: Option<Value>,
    #[serde(default)]
    met: Option<bool>,
}

/// A simulation as the file has it; [`Simulation`] is this with the ticks
/// flattened.
#[derive(Deserialize)]
#[serde(bound(deserialize = "C: Deserialize<'de>"))]
pub(super) struct RawSimulation<C> {
    #[serde(default)]
    id: Option<String>,
    task_id: String,
    #[serde(default)]
    trial: Option<i64>,
    #[serde(default)]
    termination_reason: Option<String>,
    #[serde(default)]
    reward_info: Option<RawRewardInfo>,
    #[serde(default)]
    messages: Option<Vec<Tau2Message<C>>>,
    #[serde(default)]
    ticks: Option<Vec<Tick<C>>>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    review: Option<C>,
    #[serde(default)]
    user_only_review: Option<C>,
    #[serde(default)]
    hallucination_check: Option<C>,
    #[serde(default)]
    effect_timeline: Option<C>,
    #[serde(default)]
    duration: Option<f64>,
    #[serde(default)]
    agent_cost: Option<f64>,
    #[serde(default)]
    user_cost: Option<f64>,
}

/// One tick of a full-duplex simulation (`Tick` in `message.py`).
#[derive(Deserialize)]
#[serde(bound(deserialize = "C: Deserialize<'de>"))]
struct Tick<C> {
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    agent_chunk: Option<Chunk<C>>,
    #[serde(default)]
    user_chunk: Option<Chunk<C>>,
    #[serde(default)]
    agent_tool_calls: Option<Vec<Tau2ToolCall>>,
    #[serde(default)]
    user_tool_calls: Option<Vec<Tau2ToolCall>>,
    #[serde(default)]
    agent_tool_results: Option<Vec<TickResult<C>>>,
    #[serde(default)]
    user_tool_results: Option<Vec<TickResult<C>>>,
}

/// What a tick's message contributes (its tool calls are the tick's).
#[derive(Deserialize)]
#[serde(bound(deserialize = "C: Deserialize<'de>"))]
struct Chunk<C> {
    #[serde(default)]
    content: Option<C>,
    #[serde(default)]
    timestamp: Option<String>,
}

/// A tool result of a tick (a `ToolMessage`).
#[derive(Deserialize)]
#[serde(bound(deserialize = "C: Deserialize<'de>"))]
struct TickResult<C> {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    content: Option<C>,
    #[serde(default)]
    error: Option<bool>,
    #[serde(default)]
    timestamp: Option<String>,
}

impl<C> From<RawSimulation<C>> for Simulation<C> {
    fn from(raw: RawSimulation<C>) -> Self {
        let ticks = raw.ticks.as_ref().map(Vec::len);
        let messages = match (raw.messages, raw.ticks) {
            (Some(m), _) => m,
            (None, Some(t)) => flatten(t),
            (None, None) => Vec::new(),
        };
        let (reward_info, reward_basis, scores) = match raw.reward_info {
            Some(mut r) => {
                let scores = reward_scores(&mut r);
                (
                    Some(RewardInfo {
                        reward: r.reward,
                        action_checks: r.action_checks,
                    }),
                    r.reward_basis,
                    scores,
                )
            }
            None => (None, None, Vec::new()),
        };
        let mut record = Vec::new();
        for (label, v) in [
            ("duration (seconds)", raw.duration),
            ("agent cost (USD)", raw.agent_cost),
            ("user simulator cost (USD)", raw.user_cost),
        ] {
            if let Some(v) = v.filter(|v| v.is_finite()) {
                record.push(Detail {
                    label: label.into(),
                    value: Value::from(v),
                });
            }
        }
        Simulation {
            id: raw.id,
            task_id: raw.task_id,
            trial: raw.trial,
            termination_reason: raw.termination_reason,
            reward_info,
            messages,
            tau3: Tau3Fields {
                mode: raw.mode,
                ticks,
                review: raw.review,
                user_only_review: raw.user_only_review,
                hallucination_check: raw.hallucination_check,
                effect_timeline: raw.effect_timeline,
                reward_basis,
            },
            scores,
            record,
        }
    }
}

/// The reward's components as scores, each with what it checked: the
/// breakdown's entries (DB, COMMUNICATE, ACTION, NL_ASSERTION,
/// ENV_ASSERTION) with a one-line account, then every NL assertion,
/// communicate check and environment assertion with its verdict. Action
/// checks are the trajectory's gold actions, not repeated here.
fn reward_scores(r: &mut RawRewardInfo) -> Vec<Score> {
    fn met_count(met: impl Iterator<Item = Option<bool>>) -> (usize, usize) {
        met.fold((0, 0), |(m, n), x| {
            (m + usize::from(x == Some(true)), n + 1)
        })
    }
    let nl = r.nl_assertions.take().unwrap_or_default();
    let communicate = r.communicate_checks.take().unwrap_or_default();
    let env = r.env_assertions.take().unwrap_or_default();
    let actions = r.action_checks.as_deref().unwrap_or(&[]);
    let account = |component: &str| -> Option<String> {
        let of = |(m, n): (usize, usize), what: &str| format!("{m} of {n} {what}");
        match component {
            "DB" => r.db_check.as_ref().and_then(|d| d.db_match).map(|m| {
                if m {
                    "the database's end state matches the gold one".to_string()
                } else {
                    "the database's end state differs from the gold one".to_string()
                }
            }),
            "COMMUNICATE" if !communicate.is_empty() => Some(of(
                met_count(communicate.iter().map(|c| c.met)),
                "required items communicated",
            )),
            "ACTION" if !actions.is_empty() => Some(of(
                met_count(actions.iter().map(|a| Some(a.action_match))),
                "gold actions matched",
            )),
            "NL_ASSERTION" if !nl.is_empty() => {
                Some(of(met_count(nl.iter().map(|c| c.met)), "NL assertions met"))
            }
            "ENV_ASSERTION" if !env.is_empty() => Some(of(
                met_count(env.iter().map(|c| c.met)),
                "environment assertions met",
            )),
            _ => None,
        }
    };
    let mut out: Vec<Score> = Vec::new();
    let breakdown = r.reward_breakdown.take().unwrap_or_default();
    for (component, value) in &breakdown {
        out.push(Score {
            scorer: component.clone(),
            value: value.clone(),
            answer: None,
            explanation: account(component),
            metadata: None,
        });
    }
    if !breakdown.contains_key("DB") {
        if let Some(d) = &r.db_check {
            out.push(Score {
                scorer: "DB".into(),
                value: d.db_reward.map_or(Value::Null, Value::from),
                answer: None,
                explanation: account("DB"),
                metadata: None,
            });
        }
    }
    let verdict = |met: Option<bool>| met.map_or(Value::Null, Value::Bool);
    for c in nl {
        out.push(Score {
            scorer: "NL assertion".into(),
            value: verdict(c.met),
            answer: c.info,
            explanation: c.justification,
            metadata: None,
        });
    }
    for c in communicate {
        out.push(Score {
            scorer: "communicate".into(),
            value: verdict(c.met),
            answer: c.info,
            explanation: c.justification,
            metadata: None,
        });
    }
    for c in env {
        let call = c.env_assertion.as_ref().map(|a| {
            let name = a.get("func_name").and_then(Value::as_str).unwrap_or("?");
            let args = a.get("arguments").map(Value::to_string).unwrap_or_default();
            format!("{name}({args})")
        });
        out.push(Score {
            scorer: "env assertion".into(),
            value: verdict(c.met),
            answer: call,
            explanation: None,
            metadata: c.env_assertion,
        });
    }
    out
}

fn message<C>(
    role: &str,
    content: Option<C>,
    tool_calls: Option<Vec<Tau2ToolCall>>,
) -> Tau2Message<C> {
    Tau2Message {
        role: role.to_string(),
        content,
        tool_calls,
        id: None,
        error: None,
    }
}

/// The ticks' messages in τ²-bench's order (see the module's docs).
fn flatten<C>(ticks: Vec<Tick<C>>) -> Vec<Tau2Message<C>> {
    let mut out: Vec<(Option<String>, Tau2Message<C>)> = Vec::new();
    for tick in ticks {
        let at = |own: Option<String>| own.or_else(|| tick.timestamp.clone());
        let sides = [
            (
                "assistant",
                tick.agent_chunk,
                tick.agent_tool_calls,
                tick.agent_tool_results,
            ),
            (
                "user",
                tick.user_chunk,
                tick.user_tool_calls,
                tick.user_tool_results,
            ),
        ];
        for (role, chunk, calls, results) in sides {
            // `tool_calls or None`: an empty list is none.
            let calls = calls.filter(|c| !c.is_empty());
            if chunk.is_some() || calls.is_some() {
                let (content, stamp) = chunk.map_or((None, None), |c| (c.content, c.timestamp));
                out.push((at(stamp), message(role, content, calls)));
            }
            for r in results.into_iter().flatten() {
                let m = Tau2Message {
                    id: r.id,
                    error: r.error,
                    ..message("tool", r.content, None)
                };
                out.push((at(r.timestamp), m));
            }
        }
    }
    // A message without any timestamp takes the previous one's.
    let mut last = String::new();
    let mut keyed: Vec<(String, Tau2Message<C>)> = out
        .into_iter()
        .map(|(stamp, m)| {
            if let Some(s) = stamp {
                last = s;
            }
            (last.clone(), m)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sim(v: Value) -> Simulation {
        serde_json::from_value(v).unwrap()
    }

    /// Worked by hand from `Tick.get_all_messages` and `get_messages`:
    /// tick 0 gives [assistant "hi", user (no content)], tick 1 gives
    /// [assistant with one call, its result, user "ok"]; the user chunk
    /// of tick 0 is stamped after everything of tick 1, so it sorts last.
    #[test]
    fn ticks_flatten_as_tau2_bench_does() {
        let s = sim(json!({
            "task_id": "1", "mode": "full_duplex", "messages": null,
            "ticks": [
                {"tick_id": 0, "timestamp": "2026-01-01T00:00:00",
                 "agent_chunk": {"role": "assistant", "content": "hi"},
                 "user_chunk": {"role": "user", "timestamp": "2026-01-01T00:00:09"}},
                {"tick_id": 1, "timestamp": "2026-01-01T00:00:01",
                 "agent_tool_calls": [{"id": "c1", "name": "get", "arguments": {"k": 1}}],
                 "agent_tool_results": [{"id": "c1", "role": "tool", "content": "v"}],
                 "user_chunk": {"role": "user", "content": "ok"},
                 "user_tool_calls": []}
            ]
        }));
        let got: Vec<(&str, Option<&Value>, usize, Option<&str>)> = s
            .messages
            .iter()
            .map(|m| {
                (
                    m.role.as_str(),
                    m.content.as_ref(),
                    m.tool_calls.as_ref().map_or(0, Vec::len),
                    m.id.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("assistant", Some(&json!("hi")), 0, None),
                ("assistant", None, 1, None),
                ("tool", Some(&json!("v")), 0, Some("c1")),
                ("user", Some(&json!("ok")), 0, None),
                ("user", None, 0, None),
            ]
        );
        assert_eq!(s.tau3.ticks, Some(2));
        assert_eq!(s.tau3.mode.as_deref(), Some("full_duplex"));
        // Stored messages win over ticks, even an empty list.
        let s = sim(json!({"task_id": "1", "messages": [], "ticks": [{"agent_chunk": {}}]}));
        assert!(s.messages.is_empty());
        let s = sim(json!({"task_id": "1"}));
        assert!(s.messages.is_empty() && s.tau3.ticks.is_none());
    }

    #[test]
    fn a_long_effect_timeline_is_summarised() {
        let events: Vec<Value> = (0..25)
            .map(|i| {
                json!({"effect_type": if i % 5 == 0 { "burst_noise" } else { "frame_drop" },
                       "start_ms": i, "participant": "user"})
            })
            .collect();
        let s = effect_summary(json!({ "events": events }));
        assert_eq!(s["events"], json!(25));
        assert_eq!(s["by_type"], json!({"burst_noise": 5, "frame_drop": 20}));
        assert_eq!(s["by_participant"], json!({"user": 25}));
        assert_eq!(s["first"].as_array().map(Vec::len), Some(MAX_EFFECT_EVENTS));
        let short = json!({"events": [{"effect_type": "telephony", "start_ms": 0}]});
        assert_eq!(effect_summary(short.clone()), short);
    }
}
