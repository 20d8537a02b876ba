//! The episode replay of the "Evidence to action" page: one episode message
//! by message, with the ledger events (requirements established, actions
//! supported or not, the terminal verdict) attached where they happen.

use gapscope_data::trajectory::Message;
use gapscope_evidence::score::{Check, Environment, Via};
use gapscope_evidence::{EvidenceReport, FailureType};

use super::{outcome, BAD, GOOD};

/// Good (green), bad (red) or neutral: how an event is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Good,
    Bad,
    Neutral,
}

impl Tone {
    /// A CSS class name: `green`, `red` or `neutral`.
    pub fn class(self) -> &'static str {
        match self {
            Tone::Good => "green",
            Tone::Bad => "red",
            Tone::Neutral => "neutral",
        }
    }

    pub fn colour(self) -> &'static str {
        match self {
            Tone::Good => GOOD,
            Tone::Bad => BAD,
            Tone::Neutral => "#555555",
        }
    }
}

/// A ledger event attached to the message where it happens.
#[derive(Clone, Debug, PartialEq)]
pub enum LedgerEvent {
    /// A requirement became established (at the message where the evidence
    /// was observed).
    Established {
        requirement: String,
        fact: String,
        /// `read`, `action result` or `confirming read`.
        via: &'static str,
        /// The establishing call.
        call_step: usize,
    },
    /// A consequential call was checked (at the message that issued it).
    Action {
        call_step: usize,
        tool: String,
        /// The spec action it targets.
        target: Option<String>,
        supported: bool,
        /// The failure type when not supported.
        verdict: Option<FailureType>,
        /// The first failing check's detail, or why it was supported.
        reason: String,
        /// Every check: (check, passed, detail).
        checks: Vec<(&'static str, bool, String)>,
        /// `applied`, `rejected` or `no result`.
        environment: &'static str,
        /// Requirements of the target and the step of the call that
        /// established each before the action (`None`: not established).
        support: Vec<(String, Option<usize>)>,
    },
    /// A `ref` argument: the producer's result feeding the consumer's argument
    /// (at the consumer's message).
    Reference {
        producer_action: String,
        producer_step: Option<usize>,
        consumer_action: String,
        consumer_step: usize,
        argument: String,
        expected: Option<String>,
        given: Option<String>,
        resolved: bool,
    },
    /// The scored terminal output (V0, Legacy), at the last assistant message.
    Terminal {
        output: Option<String>,
        expected: String,
        correct: bool,
        detail: String,
    },
}

impl LedgerEvent {
    pub fn tone(&self) -> Tone {
        match self {
            LedgerEvent::Established { .. } => Tone::Good,
            LedgerEvent::Action { supported, .. } => {
                if *supported {
                    Tone::Good
                } else {
                    Tone::Bad
                }
            }
            LedgerEvent::Reference { resolved, .. }
            | LedgerEvent::Terminal {
                correct: resolved, ..
            } => {
                if *resolved {
                    Tone::Good
                } else {
                    Tone::Bad
                }
            }
        }
    }

    /// One line for the replay.
    pub fn summary(&self) -> String {
        match self {
            LedgerEvent::Established {
                requirement,
                fact,
                via,
                call_step,
            } => format!("requirement {requirement} established ({fact}) by step {call_step}, {via}"),
            LedgerEvent::Action {
                call_step,
                tool,
                target,
                supported,
                reason,
                ..
            } => format!(
                "step {call_step}: {tool}{} {}: {reason}",
                target.as_ref().map_or(String::new(), |t| format!(" → {t}")),
                if *supported { "supported" } else { "unsupported" }
            ),
            LedgerEvent::Reference {
                producer_action,
                producer_step,
                consumer_action,
                consumer_step,
                argument,
                expected,
                given,
                resolved,
            } => format!(
                "reference {producer_action} (step {}) → {consumer_action} (step {consumer_step}) argument `{argument}`: {}",
                producer_step.map_or("—".into(), |s| s.to_string()),
                if *resolved {
                    format!("resolved ({})", given.clone().unwrap_or_default())
                } else {
                    format!(
                        "unresolved: given {}, expected {}",
                        given.clone().unwrap_or_else(|| "nothing".into()),
                        expected.clone().unwrap_or_else(|| "an observed result".into())
                    )
                }
            ),
            LedgerEvent::Terminal {
                output,
                expected,
                correct,
                detail,
            } => format!(
                "terminal {}: {} (expected {expected}){}",
                output.clone().unwrap_or_else(|| "missing".into()),
                if *correct { "correct" } else { "wrong" },
                if detail.is_empty() {
                    String::new()
                } else {
                    format!(": {detail}")
                }
            ),
        }
    }
}

/// A tool call issued in a message.
#[derive(Clone, Debug, PartialEq)]
pub struct CallView {
    pub step: usize,
    pub call_id: String,
    pub tool: String,
    /// `information`, `consequential` or `unknown`.
    pub class: &'static str,
    /// Compact JSON.
    pub args: String,
    /// The message holding its result.
    pub result_message: Option<usize>,
    pub status: Option<String>,
    /// Information calls: position among them and whether within the budget.
    pub read_index: Option<usize>,
    pub within_budget: Option<bool>,
}

/// A tool result received in a message.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultView {
    pub step: usize,
    pub call_id: String,
    pub tool: String,
    pub status: Option<String>,
    /// Compact JSON of the result (or the whole content).
    pub content: String,
}

/// One message of the replay.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    /// 0-based message index.
    pub message: usize,
    pub role: String,
    /// The message text (none for tool messages whose result is shown in
    /// `results`, or when the messages were not supplied).
    pub text: Option<String>,
    pub calls: Vec<CallView>,
    pub results: Vec<ResultView>,
    pub events: Vec<LedgerEvent>,
    /// Requirements established up to and including this message.
    pub established_so_far: Vec<String>,
    /// The episode's failing call was issued here.
    pub failure_here: bool,
}

/// A requirement at the end of the episode.
#[derive(Clone, Debug, PartialEq)]
pub struct RequirementView {
    pub id: String,
    pub fact: String,
    /// The establishing call and the message where it was observed.
    pub established: Option<EstablishedAt>,
    pub read_beyond_budget: bool,
    pub tone: Tone,
}

/// Where a requirement was established: named fields, so the message and the
/// step cannot be swapped (they were: "message 4 (step 8)" for message 8,
/// step 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstablishedAt {
    /// The establishing call's step.
    pub step: usize,
    /// The 0-based message in which its result was observed.
    pub message: usize,
}

impl RequirementView {
    /// The line the replay shows: "● r1: fact — established at message 8
    /// (step 4)" or "○ r2: fact — never established".
    pub fn summary(&self) -> String {
        format!(
            "{} {}: {}{}",
            if self.established.is_some() {
                "●"
            } else {
                "○"
            },
            self.id,
            self.fact,
            self.established.map_or_else(
                || " — never established".into(),
                |at| format!(
                    " — established at message {} (step {})",
                    at.message, at.step
                )
            )
        )
    }
}

/// One episode for the step-by-step replay.
#[derive(Clone, Debug, PartialEq)]
pub struct EpisodeView {
    pub trajectory_id: String,
    pub case_id: String,
    pub instruction: String,
    pub domain: String,
    pub protocol: String,
    pub config: String,
    pub repetition: u32,
    pub scored: bool,
    /// [`SUCCESS`](super::SUCCESS), [`UNSCORED`](super::UNSCORED) or the failure type.
    pub outcome: &'static str,
    /// e.g. "early_action at step 3: …".
    pub verdict: String,
    pub read_budget: Option<u64>,
    pub information_calls: usize,
    pub required_reads: usize,
    pub normalized_effort: Option<f64>,
    pub requirements: Vec<RequirementView>,
    pub steps: Vec<StepView>,
    /// `true` when built from the trajectory's messages, `false` when
    /// reconstructed from the ledger alone (no user text, no final answer).
    pub from_messages: bool,
}

fn json_text(v: &impl ToString) -> String {
    v.to_string()
}

fn via_name(v: Via) -> &'static str {
    match v {
        Via::Read => "read",
        Via::ActionResult => "action result",
        Via::Confirm => "confirming read",
    }
}

fn check_name(c: Check) -> &'static str {
    match c {
        Check::Target => "target",
        Check::After => "after",
        Check::Requires => "requires",
        Check::Literals => "literal arguments",
        Check::References => "reference arguments",
    }
}

/// One episode for the replay. `messages`: the trajectory's messages (from
/// `evidence::score::read_trajectories` over the same file), giving every
/// message with its role and text; without them the steps are rebuilt from
/// the ledger (the messages that issued or answered a call). `None` when the
/// report has no episode with this id.
#[allow(
    clippy::too_many_lines,
    reason = "the replay model of one episode: steps, ledger links and cursor, built in one pass"
)]
pub fn episode_view(
    r: &EvidenceReport,
    trajectory_id: &str,
    messages: Option<&[Message]>,
) -> Option<EpisodeView> {
    let e = r
        .episodes
        .iter()
        .find(|e| e.trajectory_id == trajectory_id)?;
    let case = r.cases.iter().find(|c| c.case_id == e.case_id);
    // The message indices the replay shows.
    let mut indices: Vec<usize> = match messages {
        Some(m) => (0..m.len()).collect(),
        None => e
            .calls
            .iter()
            .flat_map(|c| std::iter::once(c.message).chain(c.result_message))
            .collect(),
    };
    let last_assistant = messages.and_then(|m| m.iter().rposition(|x| x.role == "assistant"));
    if messages.is_none() && e.terminal.is_some() {
        // The terminal comes after every call.
        let end = indices.iter().max().map_or(0, |m| m + 1);
        indices.push(end);
    }
    indices.sort_unstable();
    indices.dedup();
    let terminal_at = last_assistant.or_else(|| indices.last().copied());

    let mut events: Vec<(usize, LedgerEvent)> = Vec::new();
    for q in &e.requirements {
        if let Some(est) = &q.established {
            events.push((
                est.observed_at,
                LedgerEvent::Established {
                    requirement: q.id.clone(),
                    fact: q.fact.clone(),
                    via: via_name(est.via),
                    call_step: est.step,
                },
            ));
        }
    }
    for a in &e.actions {
        let failing = a.checks.iter().find(|c| !c.passed);
        events.push((
            a.message,
            LedgerEvent::Action {
                call_step: a.step,
                tool: a.tool.clone(),
                target: a.target.clone(),
                supported: a.verdict.is_none(),
                verdict: a.verdict,
                reason: match (a.verdict, failing) {
                    (Some(f), Some(c)) => format!("{f}: {}", c.detail),
                    (Some(f), None) => f.to_string(),
                    (None, _) => "every check passed".into(),
                },
                checks: a
                    .checks
                    .iter()
                    .map(|c| (check_name(c.check), c.passed, c.detail.clone()))
                    .collect(),
                environment: match a.environment {
                    Environment::Applied => "applied",
                    Environment::Rejected => "rejected",
                    Environment::NoResult => "no result",
                },
                support: a
                    .support
                    .iter()
                    .map(|s| {
                        (
                            s.requirement.clone(),
                            s.established.as_ref().map(|x| x.step),
                        )
                    })
                    .collect(),
            },
        ));
    }
    for x in &e.references {
        let at = e
            .calls
            .iter()
            .find(|c| c.step == x.consumer_step)
            .map_or(0, |c| c.message);
        events.push((
            at,
            LedgerEvent::Reference {
                producer_action: x.producer_action.clone(),
                producer_step: x.producer_step,
                consumer_action: x.consumer_action.clone(),
                consumer_step: x.consumer_step,
                argument: x.argument.clone(),
                expected: x.expected.as_ref().map(json_text),
                given: x.given.as_ref().map(json_text),
                resolved: x.resolved,
            },
        ));
    }
    if let (Some(t), Some(at)) = (&e.terminal, terminal_at) {
        events.push((
            at,
            LedgerEvent::Terminal {
                output: t.output.as_ref().map(json_text),
                expected: t.expected.name().to_string(),
                correct: t.correct,
                detail: t.detail.clone(),
            },
        ));
    }
    let failure_message = e
        .failure_step
        .and_then(|s| e.calls.iter().find(|c| c.step == s))
        .map(|c| c.message);

    let mut so_far: Vec<String> = Vec::new();
    let steps = indices
        .iter()
        .map(|&k| {
            let msg = messages.and_then(|m| m.get(k));
            let calls: Vec<CallView> = e
                .calls
                .iter()
                .filter(|c| c.message == k)
                .map(|c| CallView {
                    step: c.step,
                    call_id: c.call_id.clone(),
                    tool: c.tool.clone(),
                    class: match c.class {
                        gapscope_evidence::score::CallClass::Information => "information",
                        gapscope_evidence::score::CallClass::Consequential => "consequential",
                        gapscope_evidence::score::CallClass::Unknown => "unknown",
                    },
                    args: c.args.to_string(),
                    result_message: c.result_message,
                    status: c.status.clone(),
                    read_index: c.read_index,
                    within_budget: c.within_budget,
                })
                .collect();
            let results: Vec<ResultView> = e
                .calls
                .iter()
                .filter(|c| c.result_message == Some(k))
                .map(|c| ResultView {
                    step: c.step,
                    call_id: c.call_id.clone(),
                    tool: c.tool.clone(),
                    status: c.status.clone(),
                    content: c
                        .result
                        .as_ref()
                        .map(json_text)
                        .or_else(|| {
                            msg.and_then(|m| m.content.as_ref())
                                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                        })
                        .unwrap_or_default(),
                })
                .collect();
            let role = match msg {
                Some(m) => m.role.clone(),
                None if !results.is_empty() => "tool".into(),
                None => "assistant".into(),
            };
            let text = msg.and_then(|m| {
                if m.role == "tool" && !results.is_empty() {
                    return None;
                }
                m.content
                    .as_ref()
                    .filter(|v| !v.is_null())
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            });
            let here: Vec<LedgerEvent> = events
                .iter()
                .filter(|(at, _)| *at == k)
                .map(|(_, ev)| ev.clone())
                .collect();
            for ev in &here {
                if let LedgerEvent::Established { requirement, .. } = ev {
                    so_far.push(requirement.clone());
                }
            }
            StepView {
                message: k,
                role,
                text,
                calls,
                results,
                events: here,
                established_so_far: so_far.clone(),
                failure_here: failure_message == Some(k),
            }
        })
        .collect();

    Some(EpisodeView {
        trajectory_id: e.trajectory_id.clone(),
        case_id: e.case_id.clone(),
        instruction: case.map(|c| c.instruction.clone()).unwrap_or_default(),
        domain: e.domain.clone(),
        protocol: e.protocol.name().to_string(),
        config: e.config.clone(),
        repetition: e.repetition,
        scored: e.scored,
        outcome: outcome(e),
        verdict: match (e.scored, e.failure) {
            (false, _) => "unscored (infrastructure failure): not an agent failure".into(),
            (true, None) => "supported: every action backed by evidence observed before it".into(),
            (true, Some(f)) => format!(
                "{f}{}{}",
                e.failure_step
                    .map_or(" (end of episode)".into(), |s| format!(" at step {s}")),
                e.failure_reason
                    .as_ref()
                    .map_or(String::new(), |r| format!(": {r}"))
            ),
        },
        read_budget: case.and_then(|c| c.read_budget),
        information_calls: e.information_calls,
        required_reads: e.required_reads,
        normalized_effort: e.normalized_effort,
        requirements: e
            .requirements
            .iter()
            .map(|q| RequirementView {
                id: q.id.clone(),
                fact: q.fact.clone(),
                established: q.established.as_ref().map(|x| EstablishedAt {
                    step: x.step,
                    message: x.observed_at,
                }),
                read_beyond_budget: q.read_beyond_budget,
                tone: if q.established.is_some() {
                    Tone::Good
                } else {
                    Tone::Bad
                },
            })
            .collect(),
        steps,
        from_messages: messages.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::tests::{report, CASES, TRAJECTORIES};
    use crate::evidence::SUCCESS;
    use gapscope_evidence::score::read_trajectories;
    use gapscope_evidence::Protocol;

    fn messages_of(id: &str) -> Vec<Message> {
        let cases = gapscope_evidence::spec::read_cases(CASES).unwrap();
        read_trajectories(TRAJECTORIES, &cases)
            .unwrap()
            .into_iter()
            .find(|t| t.id == id)
            .unwrap()
            .messages
    }

    #[test]
    fn episode_view_replays_a_supported_chain() {
        let r = report();
        // A supported V2 episode: every action supported, each requirement
        // established at the message of its result, references resolved.
        let e = r
            .episodes
            .iter()
            .find(|e| e.protocol == Protocol::V2 && e.success == Some(true))
            .unwrap();
        let msgs = messages_of(&e.trajectory_id);
        let v = episode_view(r, &e.trajectory_id, Some(&msgs)).unwrap();
        assert_eq!(v.steps.len(), msgs.len());
        assert_eq!(v.outcome, SUCCESS);
        assert_eq!(v.steps[0].role, "user");
        assert!(v.steps[0].text.as_deref().unwrap().len() > 10);
        let calls: usize = v.steps.iter().map(|s| s.calls.len()).sum();
        assert_eq!(calls, e.calls.len());
        let mut established = 0;
        let mut refs = 0;
        for s in &v.steps {
            for ev in &s.events {
                match ev {
                    LedgerEvent::Established { call_step, .. } => {
                        established += 1;
                        // Observed where the establishing call's result arrived.
                        let call = e.calls.iter().find(|c| c.step == *call_step).unwrap();
                        assert_eq!(call.result_message, Some(s.message));
                        assert!(s.results.iter().any(|x| x.step == *call_step));
                        assert_eq!(ev.tone().class(), "green");
                    }
                    LedgerEvent::Action {
                        call_step,
                        supported,
                        ..
                    } => {
                        assert!(supported);
                        assert!(s.calls.iter().any(|c| c.step == *call_step));
                    }
                    LedgerEvent::Reference {
                        consumer_step,
                        resolved,
                        producer_step,
                        ..
                    } => {
                        refs += 1;
                        assert!(*resolved && producer_step.unwrap() < *consumer_step);
                        assert!(s.calls.iter().any(|c| c.step == *consumer_step));
                    }
                    LedgerEvent::Terminal { .. } => {}
                }
            }
        }
        assert_eq!(established, e.requirements.len());
        assert_eq!(refs, e.references.len());
        assert!(refs >= 1, "a V2 chain passes a result on");
        assert_eq!(
            v.steps.last().unwrap().established_so_far.len(),
            e.requirements.len()
        );
        // Without the messages: the same calls, rebuilt from the ledger.
        let bare = episode_view(r, &e.trajectory_id, None).unwrap();
        assert!(!bare.from_messages);
        assert_eq!(
            bare.steps.iter().map(|s| s.calls.len()).sum::<usize>(),
            e.calls.len()
        );
        assert!(bare.steps.iter().all(|s| s.text.is_none()));
        assert!(episode_view(r, "no such id", None).is_none());
    }

    #[test]
    fn requirement_lines_name_the_message_then_the_step() {
        // In the worked set, every established requirement of every episode:
        // the line names the message where the evidence was observed and the
        // step of the establishing call, as the core ledger records them.
        let r = report();
        let mut differ = 0;
        for e in &r.episodes {
            let v = episode_view(r, &e.trajectory_id, None).unwrap();
            for (q, core) in v.requirements.iter().zip(&e.requirements) {
                let Some(est) = &core.established else {
                    assert!(q.summary().ends_with(" — never established"));
                    continue;
                };
                differ += usize::from(est.observed_at != est.step);
                let want = format!(
                    "● {}: {} — established at message {} (step {})",
                    core.id, core.fact, est.observed_at, est.step
                );
                assert_eq!(q.summary(), want, "{}", e.trajectory_id);
            }
        }
        // The check means something: message and step differ somewhere.
        assert!(differ > 0);
    }

    #[test]
    fn episode_view_marks_the_failing_action() {
        let r = report();
        for f in [FailureType::EarlyAction, FailureType::UnresolvedReference] {
            let e = r.episodes.iter().find(|e| e.failure == Some(f)).unwrap();
            let msgs = messages_of(&e.trajectory_id);
            let v = episode_view(r, &e.trajectory_id, Some(&msgs)).unwrap();
            assert_eq!(v.outcome, f.name());
            assert!(v.verdict.starts_with(f.name()));
            let step = e.failure_step.unwrap();
            let at = v.steps.iter().find(|s| s.failure_here).unwrap();
            assert!(at.calls.iter().any(|c| c.step == step));
            let bad = at.events.iter().find(
                |ev| matches!(ev, LedgerEvent::Action { call_step, .. } if *call_step == step),
            );
            let Some(LedgerEvent::Action {
                supported,
                verdict,
                reason,
                ..
            }) = bad
            else {
                panic!("no action event at the failing step")
            };
            assert!(!supported && *verdict == Some(f) && reason.starts_with(f.name()));
            assert_eq!(bad.unwrap().tone(), Tone::Bad);
            if f == FailureType::UnresolvedReference {
                assert!(at.events.iter().any(|ev| matches!(
                    ev,
                    LedgerEvent::Reference {
                        resolved: false,
                        ..
                    }
                )));
            }
        }
        // A V0 episode ends with its scored terminal.
        let e = r
            .episodes
            .iter()
            .find(|e| {
                e.failure == Some(FailureType::WrongTerminalLabel) && e.protocol == Protocol::V0
            })
            .unwrap();
        let msgs = messages_of(&e.trajectory_id);
        let v = episode_view(r, &e.trajectory_id, Some(&msgs)).unwrap();
        let last_assistant = msgs.iter().rposition(|m| m.role == "assistant").unwrap();
        assert!(v.steps[last_assistant]
            .events
            .iter()
            .any(|ev| matches!(ev, LedgerEvent::Terminal { correct: false, .. })));
    }
}
