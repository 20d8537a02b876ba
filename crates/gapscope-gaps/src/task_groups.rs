//! Scenario groups from τ²-bench gold-action signatures (spec:
//! realization-gaps.md, "Cross-task stability", step 1): where a corpus has
//! no group field, a task's group is the set of *state-changing* tools among
//! its gold actions (e.g. `book_reservation+cancel_reservation`; a task whose
//! gold actions change nothing is in the group `no state change`).
//!
//! A tool is state-changing when
//! 1. the user says so (`write` / `read` overrides win);
//! 2. else, when some file records `tool_type: "write"` for it in an action
//!    check (τ³ files do; `read` or `generic` recorded, and no `write`: not
//!    state-changing);
//! 3. else by the name rule: reads start with `get_`, `list_`, `search_`,
//!    `find_`, `check_`, `calculate` or are `think`; every other tool changes
//!    state.
//!
//! The classification is global over the files given, and every tool's
//! class comes with the reason, so the user sees it and can edit it.
//!
//! Gold actions per file: its embedded `tasks` when it has them; else the
//! given `tasks.json`; else (bare lists) the actions its simulations' recorded
//! action checks name for each `task_id` (a simulation with a `reward_info`
//! but no action checks: a task without gold actions, as τ²-bench writes it). Task ids are compared across files:
//! one id with two different signatures means two task sets (or domains) and
//! is an error naming both sources.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_data::formats::tau2::{Results, Task};
use gapscope_data::trajectory::Trajectory;

/// The group of tasks whose gold actions change no state.
pub const NO_STATE_CHANGE: &str = "no state change";

/// Prefixes (and whole names) of reading tools under the name rule.
pub const READ_PREFIXES: [&str; 6] = ["get_", "list_", "search_", "find_", "check_", "calculate"];

/// Tools the user classifies by hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolOverrides {
    /// Tools that change state, whatever the files or the name rule say.
    pub write: Vec<String>,
    /// Tools that only read.
    pub read: Vec<String>,
}

/// One tool of the gold actions, its class and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolClass {
    pub tool: String,
    pub state_changing: bool,
    pub why: String,
}

/// Tool → the `tool_type`s recorded for it in the files' action checks
/// (`read`, `write`, `generic`), over every file.
pub fn recorded_tool_types<'a>(
    files: impl IntoIterator<Item = &'a Results>,
) -> IndexMap<String, Vec<String>> {
    let mut recorded: IndexMap<String, Vec<String>> = IndexMap::new();
    for r in files {
        for s in &r.simulations {
            for c in s.action_checks() {
                if let Some(t) = &c.tool_type {
                    let v = recorded.entry(c.action.name.clone()).or_default();
                    if !v.contains(t) {
                        v.push(t.clone());
                    }
                }
            }
        }
    }
    recorded
}

/// Whether `tool` changes state, and why: the user's overrides, then the
/// `tool_type`s recorded for it, then the name rule ([`read_by_name`]).
pub fn classify_tool(
    tool: &str,
    overrides: &ToolOverrides,
    recorded: &IndexMap<String, Vec<String>>,
) -> ToolClass {
    let (state_changing, why) = if overrides.write.iter().any(|w| w == tool) {
        (true, "given as state-changing".to_string())
    } else if overrides.read.iter().any(|r| r == tool) {
        (false, "given as read-only".to_string())
    } else if let Some(types) = recorded.get(tool) {
        (
            types.iter().any(|t| t == "write"),
            format!("tool_type {} recorded", types.join("/")),
        )
    } else {
        match read_by_name(tool) {
            Some("think") => (false, "name rule: think".to_string()),
            Some(p) => (false, format!("name rule: starts with {p}")),
            None => (true, "name rule: no read prefix".to_string()),
        }
    };
    ToolClass {
        tool: tool.to_string(),
        state_changing,
        why,
    }
}

/// Gold-action signatures and the groups they form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldGroups {
    /// Every tool named in a gold action, by name.
    pub tools: Vec<ToolClass>,
    /// Task → group (its signature); the task named as
    /// [`gapscope_data::trajectory::TaskKey::label`] names it (`domain/id` when the
    /// sources span several domains, else the bare id).
    pub tasks: IndexMap<String, String>,
    /// Whether the task names in `tasks` are `domain/id`.
    #[serde(default)]
    pub qualified: bool,
    /// Group → number of tasks, by group name.
    pub groups: IndexMap<String, usize>,
    /// Where each source's gold actions came from, one sentence each.
    pub sources: Vec<String>,
}

/// Why groups could not be formed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GroupError {
    #[error("no gold actions: give τ²-bench results files with embedded tasks, a tasks.json, or files with recorded action checks")]
    NoTasks,
    #[error("task `{task}` has the signature `{a}` in {source_a} but `{b}` in {source_b}: they ran different task sets (or domains) under the same id; read them separately")]
    Conflict {
        task: String,
        a: String,
        source_a: String,
        b: String,
        source_b: String,
    },
    #[error("tool `{0}` is given as both state-changing and read-only")]
    BothWays(String),
    #[error("tool `{0}` (given by hand) is in no gold action; the tools are: {1}")]
    UnknownTool(String, String),
    #[error("trajectory `{id}`: task `{task}` has no gold actions among the tasks given ({known} tasks known)")]
    NoGold {
        id: String,
        task: String,
        known: usize,
    },
}

/// The read rule a tool name matches, if any (`think`, or a read prefix).
pub fn read_by_name(tool: &str) -> Option<&'static str> {
    if tool == "think" {
        return Some("think");
    }
    READ_PREFIXES.iter().copied().find(|p| tool.starts_with(p))
}

/// The group name of a signature (sorted, distinct tool names).
pub fn group_name(signature: &[String]) -> String {
    if signature.is_empty() {
        NO_STATE_CHANGE.to_string()
    } else {
        signature.join("+")
    }
}

/// Per source: its name, its domain, and task id → the names of its gold actions.
type GoldNames = Vec<(String, String, IndexMap<String, Vec<String>>)>;

fn task_names(tasks: &[Task]) -> IndexMap<String, Vec<String>> {
    tasks
        .iter()
        .map(|t| {
            (
                t.id.clone(),
                t.actions().iter().map(|a| a.name.clone()).collect(),
            )
        })
        .collect()
}

/// Classify the tools and group the tasks. `files` are τ²-bench results files
/// (name, parsed); `tasks` an optional `(name, tasks.json)` for files without
/// embedded tasks (alone, it defines the tasks of canonical-JSONL corpora).
pub fn gold_action_groups(
    files: &[(String, &Results)],
    tasks: Option<(&str, &[Task])>,
    overrides: &ToolOverrides,
) -> Result<GoldGroups, GroupError> {
    let mut gold: GoldNames = Vec::new();
    let mut sources = Vec::new();
    let unknown = gapscope_data::trajectory::UNKNOWN_DOMAIN;
    for (name, r) in files {
        let domain = gapscope_data::formats::tau2::domain(r).unwrap_or_else(|| unknown.to_string());
        match (&r.tasks, tasks) {
            (Some(t), _) if !t.is_empty() => {
                sources.push(format!("{name}: {} tasks (embedded)", t.len()));
                gold.push((name.clone(), domain, task_names(t)));
            }
            (_, Some((tn, t))) => {
                sources.push(format!("{name}: {} tasks (from {tn})", t.len()));
                gold.push((tn.to_string(), domain, task_names(t)));
            }
            _ => {
                // Recorded action checks name the gold actions of each
                // simulation (the first simulation of a task is taken); a
                // recorded `reward_info` without checks (τ²-bench writes null
                // then) means a task without gold actions.
                let mut m: IndexMap<String, Vec<String>> = IndexMap::new();
                for s in &r.simulations {
                    if s.reward_info.is_none() {
                        continue;
                    }
                    m.entry(s.task_id.clone()).or_insert_with(|| {
                        s.action_checks()
                            .iter()
                            .map(|c| c.action.name.clone())
                            .collect()
                    });
                }
                sources.push(format!(
                    "{name}: {} tasks (from the recorded action checks: no embedded tasks)",
                    m.len()
                ));
                gold.push((format!("{name} (recorded checks)"), domain, m));
            }
        }
    }
    if files.is_empty() {
        if let Some((tn, t)) = tasks {
            sources.push(format!("{tn}: {} tasks", t.len()));
            gold.push((tn.to_string(), unknown.to_string(), task_names(t)));
        }
    }
    if gold.iter().all(|(_, _, m)| m.is_empty()) {
        return Err(GroupError::NoTasks);
    }

    let recorded = recorded_tool_types(files.iter().map(|(_, r)| *r));
    let mut names: Vec<String> = gold
        .iter()
        .flat_map(|(_, _, m)| m.values().flatten().cloned())
        .collect();
    names.sort();
    names.dedup();
    for w in &overrides.write {
        if overrides.read.contains(w) {
            return Err(GroupError::BothWays(w.clone()));
        }
    }
    for t in overrides.write.iter().chain(&overrides.read) {
        if !names.contains(t) {
            return Err(GroupError::UnknownTool(t.clone(), names.join(", ")));
        }
    }
    let tools: Vec<ToolClass> = names
        .iter()
        .map(|t| classify_tool(t, overrides, &recorded))
        .collect();
    let writes = |actions: &[String]| -> String {
        let mut s: Vec<String> = actions
            .iter()
            .filter(|a| tools.iter().any(|c| c.tool == **a && c.state_changing))
            .cloned()
            .collect();
        s.sort();
        s.dedup();
        group_name(&s)
    };

    let qualified = gold
        .iter()
        .any(|(_, d, m)| !m.is_empty() && gold.iter().any(|(_, d2, m2)| !m2.is_empty() && d2 != d));
    let mut task_group: IndexMap<String, (String, String)> = IndexMap::new();
    for (source, domain, m) in &gold {
        for (task, actions) in m {
            let g = writes(actions);
            let task = &gapscope_data::trajectory::TaskKey {
                domain,
                task_id: task,
            }
            .label(qualified);
            match task_group.get(task) {
                Some((g0, s0)) if *g0 != g => {
                    return Err(GroupError::Conflict {
                        task: task.clone(),
                        a: g0.clone(),
                        source_a: s0.clone(),
                        b: g,
                        source_b: source.clone(),
                    })
                }
                Some(_) => {}
                None => {
                    task_group.insert(task.clone(), (g, source.clone()));
                }
            }
        }
    }
    let tasks: IndexMap<String, String> =
        task_group.into_iter().map(|(t, (g, _))| (t, g)).collect();
    let mut groups: IndexMap<String, usize> = IndexMap::new();
    for g in tasks.values() {
        *groups.entry(g.clone()).or_default() += 1;
    }
    groups.sort_keys();
    Ok(GoldGroups {
        tools,
        tasks,
        qualified,
        groups,
        sources,
    })
}

/// Give every trajectory its task's group as `scenario_group`.
pub fn assign_groups(
    trajectories: &[Trajectory],
    groups: &GoldGroups,
) -> Result<Vec<Trajectory>, GroupError> {
    trajectories
        .iter()
        .map(|t| {
            let key = t.task_key();
            // Tasks of a tasks.json alone have no domain: they name the
            // task in whatever domain the trajectory is.
            let bare = gapscope_data::trajectory::TaskKey {
                domain: gapscope_data::trajectory::UNKNOWN_DOMAIN,
                task_id: key.task_id,
            };
            let g = groups
                .tasks
                .get(&key.label(groups.qualified))
                .or_else(|| groups.tasks.get(&bare.label(groups.qualified)))
                .ok_or_else(|| GroupError::NoGold {
                    id: t.id.clone(),
                    task: key.label(groups.qualified),
                    known: groups.tasks.len(),
                })?;
            let mut t = t.clone();
            t.scenario_group = Some(g.clone());
            Ok(t)
        })
        .collect()
}

impl GoldGroups {
    /// Lines for the reader: sources, each tool's class and reason, the groups.
    pub fn describe(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .sources
            .iter()
            .map(|s| format!("gold actions: {s}"))
            .collect();
        for c in &self.tools {
            out.push(format!(
                "tool {}: {} ({})",
                c.tool,
                if c.state_changing {
                    "state-changing"
                } else {
                    "read-only"
                },
                c.why
            ));
        }
        out.push(format!(
            "{} groups of {} tasks by gold-action signature: {}",
            self.groups.len(),
            self.tasks.len(),
            self.groups
                .iter()
                .map(|(g, n)| format!("{g} ({n})"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_data::formats::tau2::{
        Action, ActionCheck, EvaluationCriteria, RewardInfo, Simulation,
    };

    fn task(id: &str, names: &[&str]) -> Task {
        Task {
            id: id.into(),
            evaluation_criteria: Some(EvaluationCriteria {
                actions: Some(
                    names
                        .iter()
                        .map(|n| Action {
                            action_id: None,
                            name: n.to_string(),
                            arguments: Default::default(),
                            compare_args: None,
                        })
                        .collect(),
                ),
            }),
            description: None,
            user_scenario: None,
        }
    }

    fn sim(task_id: &str, checks: &[(&str, Option<&str>)]) -> Simulation {
        Simulation {
            scores: Vec::new(),
            record: Vec::new(),
            id: None,
            task_id: task_id.into(),
            trial: Some(0),
            termination_reason: None,
            reward_info: Some(RewardInfo {
                reward: Some(1.0),
                action_checks: Some(
                    checks
                        .iter()
                        .map(|(n, t)| ActionCheck {
                            action: task("x", &[n]).actions()[0].clone(),
                            action_match: true,
                            tool_type: t.map(str::to_string),
                        })
                        .collect(),
                ),
            }),
            messages: vec![],
            tau3: Default::default(),
        }
    }

    #[test]
    fn the_name_rule() {
        for (t, want) in [
            ("get_user", Some("get_")),
            ("list_all", Some("list_")),
            ("search_direct_flight", Some("search_")),
            ("find_user_id_by_email", Some("find_")),
            ("check_status", Some("check_")),
            ("calculate", Some("calculate")),
            ("think", Some("think")),
            ("thinking", None),
            ("book_reservation", None),
            ("transfer_to_human_agents", None),
            ("target_get_x", None),
        ] {
            assert_eq!(read_by_name(t), want, "{t}");
        }
    }

    #[test]
    fn signatures_by_hand() {
        // Embedded tasks: 1 books and reads; 2 cancels twice and books; 3 only
        // reads; 4 calls `think` and transfers.
        let with = Results {
            info: None,
            tasks: Some(vec![
                task("1", &["get_user", "book"]),
                task("2", &["cancel", "book", "cancel"]),
                task("3", &["get_user", "calculate"]),
                task("4", &["think", "transfer"]),
            ]),
            simulations: vec![],
        };
        let g = gold_action_groups(&[("a.json".into(), &with)], None, &Default::default()).unwrap();
        assert_eq!(g.tasks["1"], "book");
        assert_eq!(g.tasks["2"], "book+cancel");
        assert_eq!(g.tasks["3"], NO_STATE_CHANGE);
        assert_eq!(g.tasks["4"], "transfer");
        assert_eq!(
            g.groups
                .iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect::<Vec<_>>(),
            [
                ("book", 1),
                ("book+cancel", 1),
                ("no state change", 1),
                ("transfer", 1)
            ]
        );
        // A bare list: gold actions from recorded checks, with recorded tool
        // types: `transfer` recorded generic is not state-changing, even
        // for the other file's tasks (the classification is global).
        let bare = Results {
            info: None,
            tasks: None,
            simulations: vec![
                sim(
                    "5",
                    &[("transfer", Some("generic")), ("book", Some("write"))],
                ),
                sim("5", &[("ignored", None)]),
            ],
        };
        let g = gold_action_groups(
            &[("a.json".into(), &with), ("b.json".into(), &bare)],
            None,
            &Default::default(),
        )
        .unwrap();
        assert_eq!(g.tasks["4"], NO_STATE_CHANGE);
        assert_eq!(g.tasks["5"], "book");
        let transfer = g.tools.iter().find(|c| c.tool == "transfer").unwrap();
        assert_eq!(
            (transfer.state_changing, transfer.why.as_str()),
            (false, "tool_type generic recorded")
        );
        assert_eq!(
            g.sources[1],
            "b.json: 1 tasks (from the recorded action checks: no embedded tasks)"
        );
        // Overrides win: `book` read-only makes task 1 change nothing.
        let o = ToolOverrides {
            write: vec!["calculate".into()],
            read: vec!["book".into()],
        };
        let g = gold_action_groups(&[("a.json".into(), &with)], None, &o).unwrap();
        assert_eq!(g.tasks["1"], NO_STATE_CHANGE);
        assert_eq!(g.tasks["2"], "cancel");
        assert_eq!(g.tasks["3"], "calculate");
        let e = gold_action_groups(
            &[("a.json".into(), &with)],
            None,
            &ToolOverrides {
                write: vec!["nope".into()],
                read: vec![],
            },
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "tool `nope` (given by hand) is in no gold action; the tools are: book, calculate, cancel, get_user, think, transfer"
        );
        let e = gold_action_groups(
            &[("a.json".into(), &with)],
            None,
            &ToolOverrides {
                write: vec!["book".into()],
                read: vec!["book".into()],
            },
        )
        .unwrap_err();
        assert_eq!(e, GroupError::BothWays("book".into()));
    }

    #[test]
    fn conflicting_task_sets_and_missing_tasks_are_errors() {
        let a = Results {
            info: None,
            tasks: Some(vec![task("1", &["book"])]),
            simulations: vec![],
        };
        let b = Results {
            info: None,
            tasks: Some(vec![task("1", &["cancel"])]),
            simulations: vec![],
        };
        let e = gold_action_groups(
            &[("a.json".into(), &a), ("b.json".into(), &b)],
            None,
            &Default::default(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "task `1` has the signature `book` in a.json but `cancel` in b.json: they ran different task sets (or domains) under the same id; read them separately");
        let g = gold_action_groups(&[("a.json".into(), &a)], None, &Default::default()).unwrap();
        let t = Trajectory {
            id: "t9".into(),
            model: "m".into(),
            family: None,
            domain: None,
            task_id: "9".into(),
            scenario_group: None,
            trial: None,
            reward: None,
            termination_reason: None,
            messages: vec![],
            labels: Default::default(),
            gold_actions: vec![],
            stats: None,
            source_id: None,
            details: vec![],
            scores: vec![],
            ..Default::default()
        };
        assert_eq!(
            assign_groups(&[t], &g).unwrap_err().to_string(),
            "trajectory `t9`: task `9` has no gold actions among the tasks given (1 tasks known)"
        );
        assert_eq!(
            gold_action_groups(&[], None, &Default::default()).unwrap_err(),
            GroupError::NoTasks
        );
    }
}
