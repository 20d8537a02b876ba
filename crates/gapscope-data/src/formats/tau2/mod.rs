//! τ²-bench results files, read natively (spec: formats.md, "tau2-bench
//! results"): every variant under `../shared/data/tau2/` (an object with
//! `info`/`tasks`/`simulations`, a bare list of simulations, trimmed files, τ³
//! files with many extra keys). Unknown keys (`raw_data`, costs, …) are skipped.
//!
//! Also τ²-bench's own action check, reproduced exactly: a gold action matches
//! when some tool call of the simulation (assistant or user) has the same name
//! and equal arguments on the compared keys — `compare_args` when present, else
//! all keys of the tool call's own arguments; an empty key list matches on the
//! name alone. Values compare as JSON values (1 equals 1.0; objects key by key;
//! arrays in order).

mod check;
mod simulation;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use simulation::{effect_summary, Tau3Fields, MAX_EFFECT_EVENTS};

pub use check::{
    action_matched, call_matches, check, json_equal, task_set_warnings, CallIndex, CheckReport,
    Mislabelled, MAX_EQUAL_TASKS,
};

use crate::trajectory::{Message, ToolCall, Trajectory};

/// A gold action of a task (or a recorded one in an action check).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    #[serde(default)]
    pub action_id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub arguments: Map<String, Value>,
    #[serde(default)]
    pub compare_args: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvaluationCriteria {
    #[serde(default)]
    pub actions: Option<Vec<Action>>,
}

/// A task, as embedded in a results file or in a `tasks.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub id: String,
    #[serde(default)]
    pub evaluation_criteria: Option<EvaluationCriteria>,
    /// What the task tests (`purpose`, `notes`, …), shown in the viewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Value>,
    /// The simulated user's scenario (persona, instructions), shown in the viewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_scenario: Option<Value>,
}

impl Task {
    /// The task as the viewer shows it beside a trajectory: its
    /// description and the user's scenario, where the file has them.
    pub fn details(&self) -> Vec<crate::trajectory::Detail> {
        let mut out = Vec::new();
        for (label, v) in [
            ("task description", &self.description),
            ("user scenario", &self.user_scenario),
        ] {
            if let Some(v) = v.as_ref().filter(|v| !v.is_null()) {
                out.push(crate::trajectory::Detail {
                    label: label.into(),
                    value: v.clone(),
                });
            }
        }
        out
    }

    pub fn actions(&self) -> &[Action] {
        self.evaluation_criteria
            .as_ref()
            .and_then(|e| e.actions.as_deref())
            .unwrap_or(&[])
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionCheck {
    pub action: Action,
    pub action_match: bool,
    /// `read`, `write` or `generic` (τ³ files record it).
    #[serde(default)]
    pub tool_type: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RewardInfo {
    #[serde(default)]
    pub reward: Option<f64>,
    #[serde(default)]
    pub action_checks: Option<Vec<ActionCheck>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tau2ToolCall {
    #[serde(default)]
    pub id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub arguments: Option<Map<String, Value>>,
}

/// A message's content as it is kept: the JSON value, or nothing for a
/// light read ([`serde::de::IgnoredAny`]: skipped by the parser, never
/// built, because light reads drop every message anyway).
pub trait Content {
    fn into_value(self) -> Option<Value>;
}

impl Content for Value {
    fn into_value(self) -> Option<Value> {
        Some(self)
    }
}

impl Content for serde::de::IgnoredAny {
    fn into_value(self) -> Option<Value> {
        None
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tau2Message<C = Value> {
    pub role: String,
    #[serde(default = "none")]
    pub content: Option<C>,
    #[serde(default)]
    pub tool_calls: Option<Vec<Tau2ToolCall>>,
    /// On tool messages: the id of the call answered.
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub error: Option<bool>,
}

fn none<C>() -> Option<C> {
    None
}

/// A simulation (`SimulationRun`). Read through the `simulation` module's raw form:
/// `messages` may be null or absent, the turns of a full-duplex simulation
/// then being its `ticks`, flattened here into `messages` as τ²-bench's
/// `get_messages()` does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Simulation<C = Value> {
    pub id: Option<String>,
    pub task_id: String,
    pub trial: Option<i64>,
    pub termination_reason: Option<String>,
    pub reward_info: Option<RewardInfo>,
    pub messages: Vec<Tau2Message<C>>,
    /// The τ³ fields kept for the trajectory's details, and the reward basis.
    pub tau3: Tau3Fields<C>,
    /// The reward's components with what each checked (`reward_info`).
    pub scores: Vec<crate::trajectory::Score>,
    /// Duration and costs, as the trajectory's first details.
    pub record: Vec<crate::trajectory::Detail>,
}

impl<'de, C: Deserialize<'de>> Deserialize<'de> for Simulation<C> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        simulation::RawSimulation::deserialize(d).map(Into::into)
    }
}

impl<C> Simulation<C> {
    /// Tool calls of assistant and user messages, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &Tau2ToolCall> {
        self.messages
            .iter()
            .filter(|m| m.role == "assistant" || m.role == "user")
            .flat_map(|m| m.tool_calls.iter().flatten())
    }

    /// The action checks recorded in `reward_info`.
    pub fn action_checks(&self) -> &[ActionCheck] {
        self.reward_info
            .as_ref()
            .and_then(|r| r.action_checks.as_deref())
            .unwrap_or(&[])
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentInfo {
    #[serde(default)]
    pub implementation: Option<String>,
    #[serde(default)]
    pub llm: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EnvironmentInfo {
    #[serde(default)]
    pub domain_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Info {
    /// The τ²-bench commit that ran (and graded) the simulations.
    #[serde(default)]
    pub git_commit: Option<String>,
    #[serde(default)]
    pub agent_info: Option<AgentInfo>,
    #[serde(default)]
    pub environment_info: Option<EnvironmentInfo>,
}

/// A results file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results<C = Value> {
    #[serde(default)]
    pub info: Option<Info>,
    /// Embedded tasks (absent in bare-list files).
    #[serde(default)]
    pub tasks: Option<Vec<Task>>,
    pub simulations: Vec<Simulation<C>>,
}

enum TopLevel<C> {
    Object(Results<C>),
    List(Vec<Simulation<C>>),
}

/// Why a results file could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct Tau2Error {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Read a results file: an object with `simulations`, or a bare list.
pub fn read_results(text: &str) -> Result<Results, Tau2Error> {
    read_results_as(text)
}

/// [`read_results`] for a light read: message contents are skipped, not built.
pub fn read_results_light(text: &str) -> Result<Results<serde::de::IgnoredAny>, Tau2Error> {
    read_results_as(text)
}

fn read_results_as<C: serde::de::DeserializeOwned>(text: &str) -> Result<Results<C>, Tau2Error> {
    let t = text.trim_start_matches('\u{feff}');
    // Untagged errors say nothing useful; try each form to report the right one.
    let first = t.trim_start().chars().next();
    let parsed = if first == Some('[') {
        serde_json::from_str::<Vec<Simulation<C>>>(t).map(TopLevel::List)
    } else {
        serde_json::from_str::<Results<C>>(t).map(TopLevel::Object)
    };
    match parsed {
        Ok(TopLevel::Object(r)) => Ok(r),
        Ok(TopLevel::List(simulations)) => Ok(Results {
            info: None,
            tasks: None,
            simulations,
        }),
        Err(e) => {
            let what = crate::profile::json_message(&e);
            Err(Tau2Error {
                line: e.line(),
                column: e.column(),
                message: format!("not a τ²-bench results file: {what}"),
            })
        }
    }
}

/// Read a `tasks.json` (a list of tasks).
pub fn read_tasks(text: &str) -> Result<Vec<Task>, Tau2Error> {
    serde_json::from_str::<Vec<Task>>(text.trim_start_matches('\u{feff}')).map_err(|e| Tau2Error {
        line: e.line(),
        column: e.column(),
        message: format!("not a τ²-bench tasks file: {e}"),
    })
}

/// The domain a file names (`info.environment_info.domain_name`), if any.
pub fn domain<C>(results: &Results<C>) -> Option<String> {
    results
        .info
        .as_ref()?
        .environment_info
        .as_ref()?
        .domain_name
        .clone()
}

/// The model a file names (`info.agent_info.llm`), if any.
pub fn model_name<C>(results: &Results<C>) -> Option<String> {
    results.info.as_ref()?.agent_info.as_ref()?.llm.clone()
}

/// The gold actions of a simulation, each matched with τ²-bench's rule
/// ([`CallIndex`]): its recorded action checks (re-checked, equal to the
/// recorded verdict on every shared file: `gapscope tau2 check`), else the
/// actions of its `task` where one is given (a simulation file with its
/// task, a τ³ directory's `tasks`).
pub fn gold_actions<C>(
    s: &Simulation<C>,
    task: Option<&Task>,
) -> Vec<crate::trajectory::GoldAction> {
    let checks = s.action_checks();
    let actions: Vec<&Action> = if checks.is_empty() {
        task.map(|t| t.actions().iter().collect())
            .unwrap_or_default()
    } else {
        checks.iter().map(|c| &c.action).collect()
    };
    if actions.is_empty() {
        return Vec::new();
    }
    let mut calls = CallIndex::new(s);
    actions
        .into_iter()
        .map(|a| crate::trajectory::GoldAction {
            name: a.name.clone(),
            arguments: Value::Object(a.arguments.clone()),
            matched: calls.matches(a),
        })
        .collect()
}

/// [`to_trajectories`], consuming the results (messages are moved, not copied).
pub fn into_trajectories<C: Content>(
    results: Results<C>,
    model: &str,
    file: &str,
) -> Vec<Trajectory> {
    let domain = domain(&results);
    let tasks = results.tasks.unwrap_or_default();
    results
        .simulations
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let gold = gold_actions(&s, None);
            let task = tasks.iter().find(|t| t.id == s.task_id);
            into_trajectory(s, gold, task, &format!("{file}#{i}"), model, domain.clone())
        })
        .collect()
}

/// One simulation as a trajectory: `gold` its [`gold_actions`], `task` its
/// task where the file has it (its description and scenario become
/// details), `id` its name when the simulation has no `id`.
pub fn into_trajectory<C: Content>(
    s: Simulation<C>,
    gold: Vec<crate::trajectory::GoldAction>,
    task: Option<&Task>,
    id: &str,
    model: &str,
    domain: Option<String>,
) -> Trajectory {
    Trajectory {
        gold_actions: gold,
        source_id: s.id.as_ref().map(|id| format!("tau2\u{1f}{id}")),
        id: s.id.unwrap_or_else(|| id.to_string()),
        model: model.to_string(),
        family: None,
        domain,
        task_id: s.task_id,
        scenario_group: None,
        trial: s.trial,
        reward: s.reward_info.as_ref().and_then(|r| r.reward),
        termination_reason: s.termination_reason,
        messages: s
            .messages
            .into_iter()
            .map(|m| {
                let tool_call_id = if m.role == "tool" { m.id } else { None };
                Message {
                    content: m.content.and_then(Content::into_value),
                    tool_calls: m
                        .tool_calls
                        .into_iter()
                        .flatten()
                        .map(|c| ToolCall {
                            id: c.id,
                            name: c.name,
                            arguments: Value::Object(c.arguments.unwrap_or_default()),
                        })
                        .collect(),
                    tool_call_id,
                    error: m.error,
                    role: m.role,
                }
            })
            .collect(),
        labels: Default::default(),
        stats: None,
        details: run_details(s.record, task, s.tau3.into_details()),
        scores: s.scores,
        ..Default::default()
    }
}

/// Canonical trajectories from a results file; `model` overrides the file's
/// metadata (which can be wrong) and names bare-list files.
pub fn to_trajectories(results: &Results, model: &str, file: &str) -> Vec<Trajectory> {
    results
        .simulations
        .iter()
        .enumerate()
        .map(|(i, s)| Trajectory {
            gold_actions: gold_actions(s, None),
            source_id: s.id.as_ref().map(|id| format!("tau2\u{1f}{id}")),
            id: s.id.clone().unwrap_or_else(|| format!("{file}#{i}")),
            model: model.to_string(),
            family: None,
            domain: domain(results),
            task_id: s.task_id.clone(),
            scenario_group: None,
            trial: s.trial,
            reward: s.reward_info.as_ref().and_then(|r| r.reward),
            termination_reason: s.termination_reason.clone(),
            messages: s
                .messages
                .iter()
                .map(|m| Message {
                    role: m.role.clone(),
                    content: m.content.clone(),
                    tool_calls: m
                        .tool_calls
                        .iter()
                        .flatten()
                        .map(|c| ToolCall {
                            id: c.id.clone(),
                            name: c.name.clone(),
                            arguments: Value::Object(c.arguments.clone().unwrap_or_default()),
                        })
                        .collect(),
                    tool_call_id: (m.role == "tool").then(|| m.id.clone()).flatten(),
                    error: m.error,
                })
                .collect(),
            labels: Default::default(),
            stats: None,
            details: run_details(
                s.record.clone(),
                tasks_of(results).find(|t| t.id == s.task_id),
                s.tau3.clone().into_details(),
            ),
            scores: s.scores.clone(),
            ..Default::default()
        })
        .collect()
}

fn tasks_of<C>(results: &Results<C>) -> impl Iterator<Item = &Task> {
    results.tasks.iter().flatten()
}

/// A trajectory's details: the τ³ fields, duration and costs, then the
/// task's description and scenario.
fn run_details(
    record: Vec<crate::trajectory::Detail>,
    task: Option<&Task>,
    mut tau3: Vec<crate::trajectory::Detail>,
) -> Vec<crate::trajectory::Detail> {
    tau3.extend(record);
    tau3.extend(task.map(Task::details).unwrap_or_default());
    tau3
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn action(name: &str, args: Value, compare: Option<Vec<&str>>) -> Action {
        Action {
            action_id: None,
            name: name.into(),
            arguments: args.as_object().cloned().unwrap_or_default(),
            compare_args: compare.map(|c| c.into_iter().map(String::from).collect()),
        }
    }

    fn call(name: &str, args: Value) -> Tau2ToolCall {
        Tau2ToolCall {
            id: None,
            name: name.into(),
            arguments: args.as_object().cloned(),
        }
    }

    #[test]
    fn the_action_rule_by_hand() {
        let gold = action("book", json!({"id": 1, "seats": [1, 2], "note": "x"}), None);
        // No compare_args: the call's own keys are compared.
        assert!(
            call_matches(&gold, &call("book", json!({"id": 1.0}))),
            "1 equals 1.0; only the call's keys"
        );
        assert!(
            !call_matches(&gold, &call("book", json!({"id": 1, "extra": 3}))),
            "a key the gold lacks"
        );
        assert!(
            !call_matches(&gold, &call("book", json!({"seats": [2, 1]}))),
            "arrays in order"
        );
        assert!(
            call_matches(&gold, &call("book", json!({}))),
            "no keys: name alone"
        );
        assert!(!call_matches(&gold, &call("cancel", json!({}))));
        // compare_args restricts the keys; [] matches on the name alone.
        let some = action("book", json!({"id": 1, "note": "x"}), Some(vec!["id"]));
        assert!(call_matches(
            &some,
            &call("book", json!({"id": 1, "note": "other"}))
        ));
        let none = action("book", json!({"id": 1}), Some(vec![]));
        assert!(call_matches(&none, &call("book", json!({"id": 2}))));
        // A compared key missing on both sides is equal; on one side, not.
        let missing = action("book", json!({}), Some(vec!["id"]));
        assert!(call_matches(&missing, &call("book", json!({"x": 1}))));
        assert!(!call_matches(&missing, &call("book", json!({"id": 1}))));
        assert!(json_equal(
            &json!({"a": {"b": 1}}),
            &json!({"a": {"b": 1.0}})
        ));
        assert!(!json_equal(&json!(true), &json!(1)));
    }

    /// The call index answers exactly as scanning every call with
    /// `call_matches` does, over actions and calls that differ in the ways
    /// the rule cares about (1 vs 1.0, 0 vs -0.0, key order, nesting, arrays,
    /// missing keys, no arguments, compare_args with repeats and absent keys).
    #[test]
    fn the_call_index_agrees_with_the_rule_everywhere() {
        let values = [
            json!(1),
            json!(1.0),
            json!(-0.0),
            json!(0),
            json!("1"),
            json!(true),
            json!(null),
            json!([1, 2]),
            json!([2, 1]),
            json!({"a": 1, "b": [1.0]}),
            json!({"b": [1], "a": 1.0}),
            json!({"a": 1}),
        ];
        let mut arg_sets: Vec<Option<Value>> = vec![None, Some(json!({}))];
        for (i, v) in values.iter().enumerate() {
            arg_sets.push(Some(json!({"x": v})));
            arg_sets.push(Some(json!({"x": v, "y": values[(i + 3) % values.len()]})));
            arg_sets.push(Some(json!({"y": values[(i + 5) % values.len()], "x": v})));
        }
        let compares: Vec<Option<Vec<&str>>> = vec![
            None,
            Some(vec![]),
            Some(vec!["x"]),
            Some(vec!["y", "x", "y"]),
            Some(vec!["z"]),
        ];
        let mut tried = 0;
        for calls_from in 0..arg_sets.len() {
            // A simulation whose calls are three argument sets of two names.
            let msgs: Vec<Tau2Message> = (0..3)
                .map(|k| Tau2Message {
                    role: if k == 1 { "user" } else { "assistant" }.into(),
                    content: None,
                    tool_calls: Some(vec![Tau2ToolCall {
                        id: None,
                        name: if k == 2 { "b" } else { "a" }.into(),
                        arguments: arg_sets[(calls_from + 7 * k) % arg_sets.len()]
                            .as_ref()
                            .and_then(|v| v.as_object().cloned()),
                    }]),
                    id: None,
                    error: None,
                })
                .collect();
            let sim = Simulation {
                scores: Vec::new(),
                record: Vec::new(),
                id: None,
                task_id: "t".into(),
                trial: None,
                termination_reason: None,
                reward_info: None,
                messages: msgs,
                tau3: Tau3Fields::default(),
            };
            let mut index = CallIndex::new(&sim);
            for name in ["a", "b", "c"] {
                for args in &arg_sets {
                    for compare in &compares {
                        let a = action(name, args.clone().unwrap_or(json!({})), compare.clone());
                        assert_eq!(
                            index.matches(&a),
                            action_matched(&a, &sim),
                            "{a:?} against {:?}",
                            sim.messages
                        );
                        tried += 1;
                    }
                }
            }
        }
        assert!(tried > 10_000, "{tried}");
    }

    #[test]
    fn bare_lists_and_objects_read_and_errors_are_located() {
        let sim = r#"{"task_id": "3", "messages": [{"role": "assistant", "tool_calls": [{"name": "get", "arguments": {"k": 1}}], "raw_data": {"big": [1,2,3]}}],
                      "reward_info": {"reward": 1.0, "action_checks": [{"action": {"name": "get", "arguments": {"k": 1}}, "action_match": true}]}}"#;
        let list = read_results(&format!("[{sim}]")).unwrap();
        assert!(list.tasks.is_none());
        let obj = read_results(&format!(r#"{{"info": {{"agent_info": {{"llm": "m"}}}}, "tasks": [{{"id": "3", "evaluation_criteria": {{"actions": [{{"name": "get", "arguments": {{"k": 1}}}}]}}}}], "simulations": [{sim}]}}"#)).unwrap();
        assert_eq!(model_name(&obj).as_deref(), Some("m"));
        let r = check(&obj, None);
        assert_eq!(
            (
                r.checks,
                r.reproduced,
                r.mislabelled.len(),
                r.task_source.as_str()
            ),
            (1, 1, 0, "embedded tasks")
        );
        let e = read_results("{\"simulations\": [{\"task_id\": 3}]}").unwrap_err();
        assert!(e.to_string().starts_with("line 1, column"), "{e}");
        assert!(
            e.message
                .contains("invalid type: integer `3`, expected a string"),
            "{e}"
        );
    }

    #[test]
    fn different_task_sets_are_warned_about() {
        let task = |id: &str, name: &str| Task {
            id: id.into(),
            evaluation_criteria: Some(EvaluationCriteria {
                actions: Some(vec![action(name, json!({}), None)]),
            }),
            description: None,
            user_scenario: None,
        };
        let info = Some(Info {
            git_commit: None,
            agent_info: None,
            environment_info: Some(EnvironmentInfo {
                domain_name: Some("airline".into()),
            }),
        });
        let v1: Results = Results {
            info: info.clone(),
            tasks: Some(vec![task("1", "a"), task("2", "b")]),
            simulations: vec![],
        };
        let v3: Results = Results {
            info: info.clone(),
            tasks: Some(vec![task("1", "a"), task("2", "c")]),
            simulations: vec![],
        };
        let same: Results = Results {
            info,
            tasks: Some(vec![task("2", "b")]),
            simulations: vec![],
        };
        let w = task_set_warnings(&[
            ("v1.json".into(), &v1),
            ("v3.json".into(), &v3),
            ("sub.json".into(), &same),
        ]);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].starts_with(
            "v1.json and v3.json ran different task sets of airline: 1 of their 2 shared task ids"
        ));
        assert!(w[1].starts_with("v3.json and sub.json"));
    }

    #[test]
    fn a_simulation_checked_against_another_task_is_reported() {
        let tasks = vec![
            Task {
                id: "1".into(),
                evaluation_criteria: Some(EvaluationCriteria {
                    actions: Some(vec![action("a", json!({"x": 1}), None)]),
                }),
                description: None,
                user_scenario: None,
            },
            Task {
                id: "2".into(),
                evaluation_criteria: Some(EvaluationCriteria {
                    actions: Some(vec![action("b", json!({}), None)]),
                }),
                description: None,
                user_scenario: None,
            },
        ];
        let sim: Simulation = Simulation {
            scores: Vec::new(),
            record: Vec::new(),
            id: None,
            task_id: "1".into(),
            trial: Some(0),
            termination_reason: None,
            reward_info: Some(RewardInfo {
                reward: Some(0.0),
                action_checks: Some(vec![ActionCheck {
                    action: action("b", json!({}), None),
                    action_match: false,
                    tool_type: None,
                }]),
            }),
            messages: vec![],
            tau3: Tau3Fields::default(),
        };
        let results = Results {
            info: None,
            tasks: None,
            simulations: vec![sim],
        };
        let r = check(&results, Some(&tasks));
        assert_eq!(r.task_source, "given tasks file");
        assert_eq!(
            r.mislabelled,
            vec![Mislabelled {
                simulation: 0,
                task_id: "1".into(),
                equals_tasks: vec!["2".into()],
                equals_tasks_total: 1,
            }]
        );
        assert_eq!((r.checks, r.reproduced), (1, 1));
    }
}
