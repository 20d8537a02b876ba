//! Trajectories with a case id, and the deterministic scorer (spec:
//! evidence-to-action.md, "Trajectory to score" and "Scoring").
//!
//! Positions: `step` numbers the tool calls 0, 1, … in trajectory order (the
//! calls of one message in their listed order); `message` is the 0-based index
//! of a message in the trajectory. Evidence observed at message `r` supports an
//! action issued at message `m` only when `r < m`.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::spec::{ActionSpec, Arg, Case, Label, Protocol, ReadSpec, Source};
use crate::EvidenceError;
use gapscope_data::formats::tau2::json_equal;
use gapscope_data::trajectory::Message;

/// The failure types, in the order the spec lists its checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureType {
    ExtraAction,
    DependencyViolation,
    EarlyAction,
    WrongArgument,
    UnresolvedReference,
    BudgetExhausted,
    NoAction,
    MissingAction,
    IncompleteInvestigation,
    WrongTerminalLabel,
}

impl FailureType {
    pub const ALL: [FailureType; 10] = [
        FailureType::ExtraAction,
        FailureType::DependencyViolation,
        FailureType::EarlyAction,
        FailureType::WrongArgument,
        FailureType::UnresolvedReference,
        FailureType::BudgetExhausted,
        FailureType::NoAction,
        FailureType::MissingAction,
        FailureType::IncompleteInvestigation,
        FailureType::WrongTerminalLabel,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FailureType::ExtraAction => "extra_action",
            FailureType::DependencyViolation => "dependency_violation",
            FailureType::EarlyAction => "early_action",
            FailureType::WrongArgument => "wrong_argument",
            FailureType::UnresolvedReference => "unresolved_reference",
            FailureType::BudgetExhausted => "budget_exhausted",
            FailureType::NoAction => "no_action",
            FailureType::MissingAction => "missing_action",
            FailureType::IncompleteInvestigation => "incomplete_investigation",
            FailureType::WrongTerminalLabel => "wrong_terminal_label",
        }
    }
}

impl std::fmt::Display for FailureType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

pub use crate::trajectory::{read_trajectories, EvidenceTrajectory};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallClass {
    Information,
    Consequential,
    /// A tool in neither list of the case: recorded, establishes nothing.
    Unknown,
}

/// Every tool call of the trajectory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    pub step: usize,
    /// The assistant message that issued the call.
    pub message: usize,
    pub call_id: String,
    pub tool: String,
    pub class: CallClass,
    pub args: Value,
    /// The message holding the result, if any.
    pub result_message: Option<usize>,
    /// `status` of the result (`ok`, `no_match`, `error`, `applied`, `rejected`).
    pub status: Option<String>,
    pub result: Option<Value>,
    /// Information calls: 0-based position among the information calls, and
    /// whether it lies within the read budget.
    pub read_index: Option<usize>,
    pub within_budget: Option<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// An information call matching the requirement's read.
    Read,
    /// The applied result of the named action.
    ActionResult,
    /// The confirming read after the named action's result.
    Confirm,
}

/// Which call established a requirement, and when it was observed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Establishment {
    pub step: usize,
    pub call_id: String,
    /// The message in which the evidence was observed.
    pub observed_at: usize,
    pub via: Via,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequirementRecord {
    pub id: String,
    pub fact: String,
    /// Established by the end of the episode (the earliest establishing call).
    pub established: Option<Establishment>,
    /// Not established, but read beyond the budget by the end.
    pub read_beyond_budget: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// The call targets a spec action (else `extra_action`).
    Target,
    /// Every `after` action applied (`dependency_violation`).
    After,
    /// Every required fact established (`early_action` / `budget_exhausted`).
    Requires,
    /// Literal arguments equal (`wrong_argument`).
    Literals,
    /// Reference arguments equal the actual results (`unresolved_reference`).
    References,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    pub check: Check,
    pub passed: bool,
    pub detail: String,
    /// The failure type when the check failed.
    pub failure: Option<FailureType>,
}

/// A requirement of the target at the moment of the action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Support {
    pub requirement: String,
    /// The establishing call, if established before the action.
    pub established: Option<Establishment>,
    pub read_beyond_budget: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Environment {
    Applied,
    Rejected,
    /// No tool result in the trajectory.
    NoResult,
}

/// One consequential call and its verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionRecord {
    pub step: usize,
    pub message: usize,
    pub call_id: String,
    pub tool: String,
    /// The spec action it targets.
    pub target: Option<String>,
    /// `None`: supported (every check passed).
    pub verdict: Option<FailureType>,
    pub checks: Vec<CheckRecord>,
    pub support: Vec<Support>,
    pub environment: Environment,
    /// Whether this call left its target applied.
    pub applied: bool,
}

/// A `ref` argument: which action's result fed which later argument.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceRecord {
    pub consumer_step: usize,
    pub consumer_action: String,
    pub argument: String,
    pub producer_action: String,
    pub field: String,
    /// The producing call, when its result was observed before the consumer.
    pub producer_step: Option<usize>,
    /// What the producer actually returned (if observed before).
    pub expected: Option<Value>,
    pub given: Option<Value>,
    pub resolved: bool,
}

/// The scored terminal output (V0 and Legacy).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerminalRecord {
    /// The parsed content of the last assistant message, if a JSON object.
    pub output: Option<Value>,
    pub expected: Label,
    pub correct: bool,
    pub detail: String,
}

/// One scored (or unscored) run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Episode {
    pub trajectory_id: String,
    pub case_id: String,
    pub config: String,
    /// The condition it ran under (addendum §1).
    pub condition: String,
    pub repetition: u32,
    pub protocol: Protocol,
    pub domain: String,
    pub scored: bool,
    /// ECS: `None` for an unscored run.
    pub success: Option<bool>,
    pub failure: Option<FailureType>,
    /// The step of the failing call (`None` for end-of-episode failures).
    pub failure_step: Option<usize>,
    pub failure_reason: Option<String>,
    pub calls: Vec<CallRecord>,
    pub requirements: Vec<RequirementRecord>,
    pub actions: Vec<ActionRecord>,
    pub references: Vec<ReferenceRecord>,
    pub terminal: Option<TerminalRecord>,
    /// Every information call, within the budget or not.
    pub information_calls: usize,
    pub required_reads: usize,
    /// Every read-sourced requirement established by the end.
    pub investigation_complete: bool,
    /// information_calls / required_reads (`None` when no read is required).
    pub normalized_effort: Option<f64>,
    /// Scored as Legacy under `static` (addendum §1): the candidate is the
    /// V1 case's one action, the expected decision ALLOW.
    pub scored_as_legacy: bool,
    /// The episode holds a consequential call, whatever its target or
    /// status (addendum §2).
    pub acted: bool,
    /// Information calls issued before the first consequential call (a read
    /// listed earlier in the same message counts); `None`: no action.
    pub k_first: Option<usize>,
    /// Decision readiness (addendum §7); written, not read back (see
    /// [`crate::EvidenceReport::ecs_all_planned`]).
    #[serde(default, skip_deserializing)]
    pub readiness: Readiness,
    /// The terminal's label, whatever the protocol: the `outcome` or
    /// `decision` of the last assistant message's JSON object, upper-cased
    /// (what a non-acting episode ended with, addendum §8.3).
    pub final_label: Option<String>,
}

/// Decision readiness of one episode (addendum §7).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Readiness {
    /// V0 (no consequential call) and V1 (at least one): the share of the
    /// read specs satisfied by the end (V0) or by results observed before
    /// the action's message (V1); `None` otherwise or with no required read.
    pub coverage: Option<f64>,
    /// V2/V3: every consequential call with a target, in step order.
    pub gates: Vec<Gate>,
}

/// A consequential call with a target, as a readiness gate (addendum §7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    pub step: usize,
    pub target: String,
    /// The target's `requires` (its `support[]`).
    pub evaluated: usize,
    /// Of those, established before the call.
    pub supported: usize,
    /// At or before the failing call (every gate when the episode succeeded
    /// or failed at the end), with at least one evaluated requirement.
    pub included: bool,
}

struct Applied {
    step: usize,
    call_id: String,
    result_message: usize,
    result: Map<String, Value>,
}

struct Scorer<'a> {
    case: &'a Case,
    calls: Vec<CallRecord>,
    /// Spec action id → its application (by any call, observed or not yet).
    applied: IndexMap<String, Applied>,
}

fn object_content(content: Option<&Value>) -> Option<Map<String, Value>> {
    match content {
        Some(Value::Object(o)) => Some(o.clone()),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s.trim()) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Scorer<'a> {
    /// For each of the case's read specs ([`Case::read_specs`]), whether a
    /// requirement carrying it was established before message `before`
    /// (addendum §3).
    fn satisfied_specs(&self, before: usize) -> Vec<bool> {
        let mut sat = vec![false; self.case.required_reads()];
        for (r, j) in self
            .case
            .requirements
            .iter()
            .zip(self.case.read_spec_index())
        {
            if let Some(j) = j {
                if !sat[j] && self.established(&r.id, before).is_some() {
                    sat[j] = true;
                }
            }
        }
        sat
    }

    /// An action's application whose result was observed before message `before`.
    fn applied_before(&self, action: &str, before: usize) -> Option<&Applied> {
        self.applied
            .get(action)
            .filter(|a| a.result_message < before)
    }

    /// The value of an argument spec as known before message `before`.
    fn resolve(&self, arg: &Arg, before: usize) -> Result<Value, String> {
        match arg {
            Arg::Literal(v) => Ok(v.clone()),
            Arg::Ref(r) => {
                let a = self.applied_before(&r.action, before).ok_or_else(|| {
                    if self.applied.contains_key(&r.action) {
                        format!(
                            "{} was applied, but its result was not observed before this call",
                            r.action
                        )
                    } else {
                        format!("{} had not been applied", r.action)
                    }
                })?;
                a.result
                    .get(&r.field)
                    .cloned()
                    .ok_or_else(|| format!("{} returned no field `{}`", r.action, r.field))
            }
        }
    }

    /// Does information call `c` match `spec`, observed before `before`,
    /// issued after message `issued_after` (if any)? Reference arguments of
    /// the spec resolve to what was known when the call was issued.
    fn read_matches(
        &self,
        spec: &ReadSpec,
        c: &CallRecord,
        before: usize,
        issued_after: Option<usize>,
    ) -> bool {
        c.class == CallClass::Information
            && c.tool == spec.tool
            && c.result_message.is_some_and(|r| r < before)
            && issued_after.is_none_or(|a| c.message > a)
            && spec.args.iter().all(|(k, arg)| {
                self.resolve(arg, c.message)
                    .is_ok_and(|v| c.args.get(k).is_some_and(|g| json_equal(g, &v)))
            })
    }

    fn establishing_read(
        &self,
        spec: &ReadSpec,
        before: usize,
        issued_after: Option<usize>,
    ) -> Option<&CallRecord> {
        self.calls
            .iter()
            .filter(|c| c.within_budget == Some(true) && c.status.as_deref() == Some("ok"))
            .filter(|c| self.read_matches(spec, c, before, issued_after))
            .min_by_key(|c| (c.result_message, c.step))
    }

    fn read_beyond(&self, spec: &ReadSpec, before: usize, issued_after: Option<usize>) -> bool {
        self.calls.iter().any(|c| {
            c.within_budget == Some(false) && self.read_matches(spec, c, before, issued_after)
        })
    }

    /// The requirement established before message `before`, if it is.
    fn established(&self, rid: &str, before: usize) -> Option<Establishment> {
        let req = self.case.requirement(rid)?;
        match &req.source {
            Source::Read(spec) => {
                self.establishing_read(spec, before, None)
                    .map(|c| Establishment {
                        step: c.step,
                        call_id: c.call_id.clone(),
                        observed_at: c.result_message.unwrap_or(0),
                        via: Via::Read,
                    })
            }
            Source::ActionResult {
                action,
                field,
                confirm,
            } => {
                let a = self
                    .applied_before(action, before)
                    .filter(|a| a.result.contains_key(field))?;
                match confirm {
                    None => Some(Establishment {
                        step: a.step,
                        call_id: a.call_id.clone(),
                        observed_at: a.result_message,
                        via: Via::ActionResult,
                    }),
                    Some(spec) => self
                        .establishing_read(spec, before, Some(a.result_message))
                        .map(|c| Establishment {
                            step: c.step,
                            call_id: c.call_id.clone(),
                            observed_at: c.result_message.unwrap_or(0),
                            via: Via::Confirm,
                        }),
                }
            }
        }
    }

    /// Unmet, and read beyond the budget before message `before`.
    fn beyond_budget(&self, rid: &str, before: usize) -> bool {
        let Some(req) = self.case.requirement(rid) else {
            return false;
        };
        match &req.source {
            Source::Read(spec) => self.read_beyond(spec, before, None),
            Source::ActionResult {
                action,
                confirm: Some(spec),
                ..
            } => self
                .applied_before(action, before)
                .is_some_and(|a| self.read_beyond(spec, before, Some(a.result_message))),
            Source::ActionResult { confirm: None, .. } => false,
        }
    }

    /// The target of a consequential call: among unapplied spec actions with
    /// the same tool, the one agreeing on the most literal arguments (ties:
    /// the first in the spec).
    fn target(&self, c: &CallRecord) -> Option<&'a ActionSpec> {
        let mut best: Option<(&ActionSpec, usize)> = None;
        for a in &self.case.actions {
            if a.tool != c.tool || self.applied.contains_key(&a.id) {
                continue;
            }
            let agree = a
                .literals()
                .filter(|(k, v)| c.args.get(k.as_str()).is_some_and(|g| json_equal(g, v)))
                .count();
            if best.is_none_or(|(_, b)| agree > b) {
                best = Some((a, agree));
            }
        }
        best.map(|(a, _)| a)
    }

    fn unmet_failure(&self, unmet: &[&str], before: usize) -> FailureType {
        if !unmet.is_empty() && unmet.iter().all(|r| self.beyond_budget(r, before)) {
            FailureType::BudgetExhausted
        } else {
            FailureType::EarlyAction
        }
    }

    #[allow(
        clippy::too_many_lines,
        reason = "the scorer's rule for one action read top to bottom against the spec's numbered steps"
    )]
    fn check_action(&mut self, k: usize) -> (ActionRecord, Vec<ReferenceRecord>) {
        let c = self.calls[k].clone();
        let environment = match c.status.as_deref() {
            Some("applied") => Environment::Applied,
            Some(_) => Environment::Rejected,
            None => Environment::NoResult,
        };
        let mut rec = ActionRecord {
            step: c.step,
            message: c.message,
            call_id: c.call_id.clone(),
            tool: c.tool.clone(),
            target: None,
            verdict: None,
            checks: Vec::new(),
            support: Vec::new(),
            environment,
            applied: false,
        };
        let mut refs = Vec::new();
        let fail = |check: Check, detail: String, failure: FailureType| CheckRecord {
            check,
            passed: false,
            detail,
            failure: Some(failure),
        };
        let pass = |check: Check, detail: String| CheckRecord {
            check,
            passed: true,
            detail,
            failure: None,
        };
        let target = if self.case.protocol == Protocol::V0 {
            rec.checks.push(fail(
                Check::Target,
                "a V0 case allows no consequential call".into(),
                FailureType::ExtraAction,
            ));
            None
        } else {
            let t = self.target(&c);
            match t {
                None => rec.checks.push(fail(
                    Check::Target,
                    format!(
                        "no unapplied spec action uses `{}` (the call is outside the spec)",
                        c.tool
                    ),
                    FailureType::ExtraAction,
                )),
                Some(a) => rec
                    .checks
                    .push(pass(Check::Target, format!("targets spec action {}", a.id))),
            }
            t
        };
        if let Some(a) = target {
            rec.target = Some(a.id.clone());
            let m = c.message;
            // After.
            let missing: Vec<String> = a
                .after
                .iter()
                .filter(|d| self.applied_before(d, m).is_none())
                .map(|d| {
                    if self.applied.contains_key(d.as_str()) {
                        format!("{d} (applied, but its result not observed before)")
                    } else {
                        d.clone()
                    }
                })
                .collect();
            rec.checks.push(if missing.is_empty() {
                pass(
                    Check::After,
                    if a.after.is_empty() {
                        "no predecessor".into()
                    } else {
                        format!("after {}: applied", a.after.join(", "))
                    },
                )
            } else {
                fail(
                    Check::After,
                    format!("must follow {}, not yet applied", missing.join(", ")),
                    FailureType::DependencyViolation,
                )
            });
            // Requires.
            let mut unmet: Vec<&str> = Vec::new();
            for r in &a.requires {
                let e = self.established(r, m);
                if e.is_none() {
                    unmet.push(r);
                }
                rec.support.push(Support {
                    requirement: r.clone(),
                    read_beyond_budget: e.is_none() && self.beyond_budget(r, m),
                    established: e,
                });
            }
            rec.checks.push(if unmet.is_empty() {
                pass(
                    Check::Requires,
                    if a.requires.is_empty() {
                        "no requirement".into()
                    } else {
                        format!("established before: {}", a.requires.join(", "))
                    },
                )
            } else {
                let f = self.unmet_failure(&unmet, m);
                let why = if f == FailureType::BudgetExhausted {
                    "read only beyond the read budget"
                } else {
                    "not established before this call"
                };
                fail(Check::Requires, format!("{}: {why}", unmet.join(", ")), f)
            });
            // Literal arguments.
            let wrong: Vec<String> = a
                .literals()
                .filter(|(k, v)| !c.args.get(k.as_str()).is_some_and(|g| json_equal(g, v)))
                .map(|(k, v)| match c.args.get(k.as_str()) {
                    Some(g) => format!("`{k}` = {g}, expected {v}"),
                    None => format!("`{k}` missing, expected {v}"),
                })
                .collect();
            rec.checks.push(if wrong.is_empty() {
                pass(Check::Literals, "literal arguments equal".into())
            } else {
                fail(
                    Check::Literals,
                    wrong.join("; "),
                    FailureType::WrongArgument,
                )
            });
            // References.
            let mut bad: Vec<String> = Vec::new();
            for (k, arg) in &a.args {
                let Arg::Ref(r) = arg else { continue };
                let given = c.args.get(k.as_str()).cloned();
                let producer = self.applied_before(&r.action, m);
                let expected = self.resolve(arg, m);
                let resolved = match (&expected, &given) {
                    (Ok(e), Some(g)) => json_equal(e, g),
                    _ => false,
                };
                if !resolved {
                    bad.push(match (&expected, &given) {
                        (Err(why), _) => format!("`{k}` refers to {r}: {why}"),
                        (Ok(e), Some(g)) => {
                            format!("`{k}` = {g}, but {r} actually returned {e}")
                        }
                        (Ok(e), None) => format!("`{k}` missing; {r} returned {e}"),
                    });
                }
                refs.push(ReferenceRecord {
                    consumer_step: c.step,
                    consumer_action: a.id.clone(),
                    argument: k.clone(),
                    producer_action: r.action.clone(),
                    field: r.field.clone(),
                    producer_step: producer.map(|p| p.step),
                    expected: expected.ok(),
                    given,
                    resolved,
                });
            }
            rec.checks.push(if bad.is_empty() {
                pass(Check::References, "references resolved".into())
            } else {
                fail(
                    Check::References,
                    bad.join("; "),
                    FailureType::UnresolvedReference,
                )
            });
        }
        rec.verdict = rec.checks.iter().find_map(|ch| ch.failure);
        // The environment's answer: an applied call applies its target (even
        // one that failed a check: the state changed, and later references
        // resolve to what it returned); a rejected one leaves it unapplied.
        if let (Some(a), Environment::Applied, Some(r)) = (target, environment, c.result_message) {
            let result = c
                .result
                .as_ref()
                .and_then(|v| v.get("result"))
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            self.applied.insert(
                a.id.clone(),
                Applied {
                    step: c.step,
                    call_id: c.call_id.clone(),
                    result_message: r,
                    result,
                },
            );
            rec.applied = true;
        }
        (rec, refs)
    }
}

/// The episode's measures after scoring: information calls, completeness
/// and effort (addendum §3), acted and k_first (§2), readiness (§7).
fn measures(s: &Scorer, ep: &mut Episode, as_legacy: bool) {
    ep.information_calls = s
        .calls
        .iter()
        .filter(|c| c.class == CallClass::Information)
        .count();
    // Addendum §3: complete when every read spec (read sources and
    // confirming reads) is satisfied by the end.
    let at_end = s.satisfied_specs(usize::MAX);
    ep.investigation_complete = at_end.iter().all(|&x| x);
    ep.normalized_effort =
        (ep.required_reads > 0).then(|| ep.information_calls as f64 / ep.required_reads as f64);
    let first_action = s.calls.iter().find(|c| c.class == CallClass::Consequential);
    ep.acted = first_action.is_some();
    ep.k_first = first_action.map(|a| {
        s.calls
            .iter()
            .filter(|c| c.class == CallClass::Information && c.step < a.step)
            .count()
    });
    if !as_legacy {
        ep.readiness = readiness(s, ep, &at_end);
    }
}

/// Decision readiness (addendum §7) of a scored, non-static episode.
fn readiness(s: &Scorer, ep: &Episode, at_end: &[bool]) -> Readiness {
    let share = |sat: &[bool]| {
        (!sat.is_empty()).then(|| sat.iter().filter(|&&x| x).count() as f64 / sat.len() as f64)
    };
    let consequential: Vec<&CallRecord> = s
        .calls
        .iter()
        .filter(|c| c.class == CallClass::Consequential)
        .collect();
    match ep.protocol {
        Protocol::V0 if consequential.is_empty() => Readiness {
            coverage: share(at_end),
            gates: Vec::new(),
        },
        // "Those with one": with a consequential call (the coverage is taken
        // before the *first*, so a retry after a rejection keeps the episode;
        // docs/decisions.md 32).
        Protocol::V1 if !consequential.is_empty() => Readiness {
            coverage: share(&s.satisfied_specs(consequential[0].message)),
            gates: Vec::new(),
        },
        Protocol::V2 | Protocol::V3 => Readiness {
            coverage: None,
            gates: ep
                .actions
                .iter()
                .filter_map(|a| {
                    let target = a.target.clone()?;
                    let evaluated = a.support.len();
                    Some(Gate {
                        step: a.step,
                        target,
                        evaluated,
                        supported: a.support.iter().filter(|x| x.established.is_some()).count(),
                        included: evaluated > 0 && ep.failure_step.is_none_or(|f| a.step <= f),
                    })
                })
                .collect(),
        },
        _ => Readiness::default(),
    }
}

/// The terminal output: the content of the last assistant message.
fn terminal_output(messages: &[Message]) -> Option<Map<String, Value>> {
    messages
        .iter()
        .rev()
        .find(|m| m.role == "assistant")
        .and_then(|m| object_content(m.content.as_ref()))
}

fn check_terminal(case: &Case, as_legacy: bool, messages: &[Message]) -> Option<TerminalRecord> {
    let (kind, key, expected) = match case.protocol {
        Protocol::V0 => ("NO_ACTION", "outcome", case.terminal?),
        Protocol::Legacy => ("DECISION", "decision", case.expected_decision?),
        // A V1 case under `static` (addendum §1): every target action of the
        // primary Static comparison is valid, so the expected decision is ALLOW.
        Protocol::V1 if as_legacy => ("DECISION", "decision", Label::Allow),
        _ => return None,
    };
    let out = terminal_output(messages);
    let (correct, detail) = match &out {
        None => (
            false,
            "the last assistant message is not a JSON object".to_string(),
        ),
        Some(o) => {
            let t = o.get("type").and_then(Value::as_str).unwrap_or_default();
            let label = o.get(key).and_then(Value::as_str);
            if t.trim().eq_ignore_ascii_case(kind) {
                match label.map(|l| (l, Label::parse(l))) {
                    None => (false, format!("no `{key}`")),
                    Some((l, Some(got))) if got == expected => {
                        (true, format!("{key} {l} as expected"))
                    }
                    Some((l, _)) => (false, format!("{key} `{l}`, expected {}", expected.name())),
                }
            } else {
                (false, format!("type `{t}`, expected {kind}"))
            }
        }
    };
    Some(TerminalRecord {
        output: out.map(Value::Object),
        expected,
        correct,
        detail,
    })
}

/// Collect the tool calls and their results; located errors for malformed
/// tool messages.
fn collect_calls(case: &Case, t: &EvidenceTrajectory) -> Result<Vec<CallRecord>, EvidenceError> {
    let err = |message: String| EvidenceError::Trajectory {
        line: t.line,
        id: t.id.clone(),
        message,
    };
    let mut calls: Vec<CallRecord> = Vec::new();
    let mut by_id: IndexMap<String, usize> = IndexMap::new();
    let mut reads = 0usize;
    for (mi, m) in t.messages.iter().enumerate() {
        if m.role == "tool" {
            let cid = m
                .tool_call_id
                .as_deref()
                .ok_or_else(|| err(format!("message {mi} (tool) has no tool_call_id")))?;
            let &k = by_id.get(cid).ok_or_else(|| {
                err(format!(
                    "message {mi} (tool) answers call `{cid}`, which no earlier assistant message issued"
                ))
            })?;
            let c = &mut calls[k];
            if let Some(first) = c.result_message {
                return Err(err(format!(
                    "message {mi} (tool) answers call `{cid}` again (first answered in message {first})"
                )));
            }
            c.result_message = Some(mi);
            if c.class == CallClass::Unknown {
                c.result = m.content.clone();
                continue;
            }
            let o = object_content(m.content.as_ref()).ok_or_else(|| {
                err(format!(
                    "message {mi} (result of call `{cid}`, tool `{}`): content is not a JSON object",
                    c.tool
                ))
            })?;
            let status = o
                .get("status")
                .and_then(Value::as_str)
                .map(|s| s.trim().to_ascii_lowercase())
                .unwrap_or_default();
            let allowed: &[&str] = if c.class == CallClass::Information {
                &["ok", "no_match", "error"]
            } else {
                &["applied", "rejected"]
            };
            if !allowed.contains(&status.as_str()) {
                return Err(err(format!(
                    "message {mi} (result of call `{cid}`, {} tool `{}`): status `{status}`, expected {}",
                    if c.class == CallClass::Information { "information" } else { "consequential" },
                    c.tool,
                    allowed.join(", ")
                )));
            }
            if status == "applied" {
                if let Some(r) = o.get("result") {
                    if !r.is_object() {
                        return Err(err(format!(
                            "message {mi} (result of call `{cid}`): `result` is not an object"
                        )));
                    }
                }
            }
            c.status = Some(status);
            c.result = Some(Value::Object(o));
        } else {
            for tc in &m.tool_calls {
                let cid = tc.id.clone().ok_or_else(|| {
                    err(format!("message {mi}: tool call `{}` has no id", tc.name))
                })?;
                if by_id.contains_key(&cid) {
                    return Err(err(format!(
                        "message {mi}: tool call id `{cid}` used twice"
                    )));
                }
                let class = if case.is_information(&tc.name) {
                    CallClass::Information
                } else if case.is_consequential(&tc.name) {
                    CallClass::Consequential
                } else {
                    CallClass::Unknown
                };
                let (read_index, within_budget) = if class == CallClass::Information {
                    let i = reads;
                    reads += 1;
                    (
                        Some(i),
                        Some(case.read_budget.is_none_or(|b| (i as u64) < b)),
                    )
                } else {
                    (None, None)
                };
                by_id.insert(cid.clone(), calls.len());
                calls.push(CallRecord {
                    step: calls.len(),
                    message: mi,
                    call_id: cid,
                    tool: tc.name.clone(),
                    class,
                    args: if tc.arguments.is_null() {
                        Value::Object(Map::new())
                    } else {
                        tc.arguments.clone()
                    },
                    result_message: None,
                    status: None,
                    result: None,
                    read_index,
                    within_budget,
                });
            }
        }
    }
    Ok(calls)
}

/// Score one trajectory against its case.
pub fn score(case: &Case, t: &EvidenceTrajectory) -> Result<Episode, EvidenceError> {
    let as_legacy = t.condition == crate::spec::STATIC;
    // The protocol the episode is scored as: Legacy under `static`.
    let p = if as_legacy {
        Protocol::Legacy
    } else {
        case.protocol
    };
    let mut ep = Episode {
        trajectory_id: t.id.clone(),
        case_id: case.case_id.clone(),
        config: t.config.clone(),
        condition: t.condition.clone(),
        repetition: t.repetition,
        protocol: case.protocol,
        domain: case.domain.clone(),
        scored: t.scored,
        success: None,
        failure: None,
        failure_step: None,
        failure_reason: None,
        calls: Vec::new(),
        requirements: Vec::new(),
        actions: Vec::new(),
        references: Vec::new(),
        terminal: None,
        information_calls: 0,
        required_reads: case.required_reads(),
        investigation_complete: false,
        normalized_effort: None,
        scored_as_legacy: as_legacy,
        acted: false,
        k_first: None,
        readiness: Readiness::default(),
        final_label: None,
    };
    if !t.scored {
        return Ok(ep);
    }
    let calls = collect_calls(case, t)?;
    let mut s = Scorer {
        case,
        calls,
        applied: IndexMap::new(),
    };
    if p != Protocol::Legacy {
        for k in 0..s.calls.len() {
            if s.calls[k].class != CallClass::Consequential {
                continue;
            }
            let (rec, refs) = s.check_action(k);
            if ep.failure.is_none() {
                if let Some(f) = rec.verdict {
                    ep.failure = Some(f);
                    ep.failure_step = Some(rec.step);
                    ep.failure_reason = rec
                        .checks
                        .iter()
                        .find(|c| !c.passed)
                        .map(|c| format!("step {} ({}): {}", rec.step, rec.tool, c.detail));
                }
            }
            ep.actions.push(rec);
            ep.references.extend(refs);
        }
    }
    let end = usize::MAX;
    ep.requirements = case
        .requirements
        .iter()
        .map(|r| {
            let e = s.established(&r.id, end);
            RequirementRecord {
                id: r.id.clone(),
                fact: r.fact.clone(),
                read_beyond_budget: e.is_none() && s.beyond_budget(&r.id, end),
                established: e,
            }
        })
        .collect();
    ep.terminal = check_terminal(case, as_legacy, &t.messages);
    ep.final_label = terminal_output(&t.messages).and_then(|o| {
        ["outcome", "decision"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str))
            .map(|l| l.trim().to_ascii_uppercase())
    });
    if ep.failure.is_none() {
        let end_failure: Option<(FailureType, String)> = if p.acts() && ep.actions.is_empty() {
            Some((
                FailureType::NoAction,
                "no consequential call was attempted".into(),
            ))
        } else if let Some(a) = case
            .actions
            .iter()
            .find(|a| p.acts() && !s.applied.contains_key(&a.id))
        {
            Some((
                FailureType::MissingAction,
                format!("spec action {} ({}) was never applied", a.id, a.tool),
            ))
        } else {
            let unmet: Vec<&str> = if p == Protocol::V0 {
                ep.requirements
                    .iter()
                    .filter(|r| r.established.is_none())
                    .map(|r| r.id.as_str())
                    .collect()
            } else {
                Vec::new()
            };
            if unmet.is_empty() {
                ep.terminal.as_ref().filter(|t| !t.correct).map(|t| {
                    (
                        FailureType::WrongTerminalLabel,
                        format!("terminal output: {}", t.detail),
                    )
                })
            } else {
                let f = match s.unmet_failure(&unmet, end) {
                    FailureType::BudgetExhausted => FailureType::BudgetExhausted,
                    _ => FailureType::IncompleteInvestigation,
                };
                Some((
                    f,
                    format!(
                        "{} never established{}",
                        unmet.join(", "),
                        if f == FailureType::BudgetExhausted {
                            " (read only beyond the read budget)"
                        } else {
                            ""
                        }
                    ),
                ))
            }
        };
        if let Some((f, why)) = end_failure {
            ep.failure = Some(f);
            ep.failure_reason = Some(why);
        }
    }
    ep.success = Some(ep.failure.is_none());
    measures(&s, &mut ep, as_legacy);
    ep.calls = s.calls;
    Ok(ep)
}
