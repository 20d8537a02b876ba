//! τ²-bench's action check, reproduced exactly ([`call_matches`], the
//! [`CallIndex`] that answers it per simulation in time independent of the
//! number of calls), the re-check of a results file ([`check`]) and the
//! task-set comparison across files ([`task_set_warnings`]).

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{domain, Action, Results, Simulation, Task, Tau2ToolCall};

/// JSON values compared as τ²-bench (Python) compares them: numbers by value,
/// objects key by key, arrays in order, booleans only with booleans.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y,
            _ => x == y,
        },
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| json_equal(v, w))
        }
        _ => a == b,
    }
}

/// Does this tool call satisfy the gold action (τ²-bench's rule)?
pub fn call_matches(action: &Action, call: &Tau2ToolCall) -> bool {
    if action.name != call.name {
        return false;
    }
    let empty = Map::new();
    let args = call.arguments.as_ref().unwrap_or(&empty);
    let keys: Vec<&String> = match &action.compare_args {
        Some(k) => k.iter().collect(),
        None => args.keys().collect(),
    };
    if keys.is_empty() {
        return true;
    }
    let pick = |m: &Map<String, Value>| -> Map<String, Value> {
        m.iter()
            .filter(|(k, _)| keys.contains(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    json_equal(
        &Value::Object(pick(args)),
        &Value::Object(pick(&action.arguments)),
    )
}

/// Is the gold action matched by some tool call of the simulation?
pub fn action_matched<C>(action: &Action, sim: &Simulation<C>) -> bool {
    sim.tool_calls().any(|c| call_matches(action, c))
}

/// The tool calls of one simulation, indexed so that each gold action is
/// matched in time independent of the number of calls (τ²-bench's rule,
/// exactly as [`call_matches`]: [`action_matched`] scans every call, which
/// made a simulation's checks quadratic in its length). Calls are grouped by
/// name; within a name, by their sorted argument keys (the keys compared
/// when an action has no `compare_args`), each group holding the canonical
/// text of its calls' arguments; `compare_args` lists are indexed when first
/// asked for.
pub struct CallIndex<'a> {
    by_name: HashMap<&'a str, NameCalls<'a>>,
}

#[derive(Default)]
struct NameCalls<'a> {
    /// Every call's arguments (`None`: the call has none).
    calls: Vec<Option<&'a Map<String, Value>>>,
    /// A call of this name without arguments matches every action of the
    /// name that has no `compare_args` (no key to compare).
    bare: bool,
    /// Sorted argument keys → canonical texts of the calls with those keys.
    by_keys: HashMap<Vec<&'a str>, HashSet<String>>,
    /// Sorted `compare_args` → canonical texts of the calls' arguments on them.
    picked: HashMap<Vec<String>, HashSet<String>>,
}

impl<'a> CallIndex<'a> {
    pub fn new<C>(sim: &'a Simulation<C>) -> Self {
        let mut by_name: HashMap<&'a str, NameCalls<'a>> = HashMap::new();
        for call in sim.tool_calls() {
            let entry = by_name.entry(call.name.as_str()).or_default();
            let args = call.arguments.as_ref();
            entry.calls.push(args);
            match args.filter(|a| !a.is_empty()) {
                None => entry.bare = true,
                Some(a) => {
                    let mut keys: Vec<&'a str> = a.keys().map(String::as_str).collect();
                    keys.sort_unstable();
                    let text = picked_text(a, keys.iter().copied());
                    entry.by_keys.entry(keys).or_default().insert(text);
                }
            }
        }
        CallIndex { by_name }
    }

    /// [`action_matched`]: is the action matched by some call?
    pub fn matches(&mut self, action: &Action) -> bool {
        let Some(calls) = self.by_name.get_mut(action.name.as_str()) else {
            return false;
        };
        match &action.compare_args {
            // No key to compare: the name alone (there is a call of it).
            Some(keys) if keys.is_empty() => true,
            Some(keys) => {
                let mut keys = keys.clone();
                keys.sort_unstable();
                keys.dedup();
                let want = picked_text(&action.arguments, keys.iter().map(String::as_str));
                let NameCalls { calls, picked, .. } = calls;
                picked
                    .entry(keys)
                    .or_insert_with_key(|keys| {
                        calls
                            .iter()
                            .map(|a| match a {
                                Some(a) => picked_text(a, keys.iter().map(String::as_str)),
                                None => picked_text(&Map::new(), std::iter::empty()),
                            })
                            .collect()
                    })
                    .contains(&want)
            }
            None => {
                calls.bare
                    || calls.by_keys.iter().any(|(keys, texts)| {
                        keys.iter().all(|k| action.arguments.contains_key(*k))
                            && texts.contains(&picked_text(&action.arguments, keys.iter().copied()))
                    })
            }
        }
    }
}

/// The canonical text of `args` restricted to `keys` (sorted, distinct;
/// keys absent from `args` are left out): two restrictions have equal texts
/// exactly when [`json_equal`] holds between them.
fn picked_text<'k>(args: &Map<String, Value>, keys: impl Iterator<Item = &'k str>) -> String {
    let mut out = String::from("{");
    for k in keys {
        if let Some(v) = args.get(k) {
            write_key(&mut out, k);
            value_text(&mut out, v);
            out.push(',');
        }
    }
    out.push('}');
    out
}

fn write_key(out: &mut String, k: &str) {
    out.push_str(&Value::String(k.to_string()).to_string());
    out.push(':');
}

/// A value's text under [`json_equal`]: numbers by their `f64` value (so
/// 1 and 1.0, 0 and -0.0, are one text), object keys sorted, arrays in order.
fn value_text(out: &mut String, v: &Value) {
    match v {
        Value::Number(n) => match n.as_f64() {
            // -0.0 equals 0.0: one text.
            Some(f) => out.push_str(&format!("{:?}", if f == 0.0 { 0.0 } else { f })),
            None => out.push_str(&n.to_string()),
        },
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_unstable();
            out.push('{');
            for k in keys {
                write_key(out, k);
                value_text(out, &m[k.as_str()]);
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for x in a {
                value_text(out, x);
                out.push(',');
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A simulation whose recorded actions are not those of the task its
/// `task_id` names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mislabelled {
    pub simulation: usize,
    pub task_id: String,
    /// Tasks whose gold actions equal the recorded ones, if any: the first
    /// [`MAX_EQUAL_TASKS`] in task order.
    pub equals_tasks: Vec<String>,
    /// How many tasks' gold actions equal the recorded ones in all.
    #[serde(default)]
    pub equals_tasks_total: usize,
}

/// The most tasks [`Mislabelled::equals_tasks`] names (the rest are counted).
pub const MAX_EQUAL_TASKS: usize = 10;

/// The re-check of one file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    pub simulations: usize,
    /// Simulations with recorded action checks.
    pub with_checks: usize,
    /// Recorded checks, and how many the rule reproduces.
    pub checks: usize,
    pub reproduced: usize,
    /// (simulation index, action name) of checks the rule does not reproduce.
    pub disagreements: Vec<(usize, String)>,
    /// Simulations compared with their task's gold actions, and those that differ.
    pub compared_with_tasks: usize,
    pub mislabelled: Vec<Mislabelled>,
    /// Where the tasks came from: "embedded", "tasks file", or "none".
    pub task_source: String,
}

fn action_key(a: &Action) -> (String, String) {
    // Canonical argument text: serde_json Map keeps insertion order, so sort keys.
    let mut args: Vec<(&String, &Value)> = a.arguments.iter().collect();
    args.sort_by(|x, y| x.0.cmp(y.0));
    let text = args
        .iter()
        .map(|(k, v)| format!("{k}={}", canonical(v)))
        .collect::<Vec<_>>()
        .join(",");
    (a.name.clone(), text)
}

fn canonical(v: &Value) -> String {
    match v {
        Value::Number(n) => n
            .as_f64()
            .map_or_else(|| n.to_string(), |f| format!("{f:?}")),
        Value::Object(m) => {
            let mut items: Vec<(&String, &Value)> = m.iter().collect();
            items.sort_by(|x, y| x.0.cmp(y.0));
            format!(
                "{{{}}}",
                items
                    .iter()
                    .map(|(k, v)| format!("{k:?}:{}", canonical(v)))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

fn multiset(actions: &[Action]) -> Vec<(String, String)> {
    let mut v: Vec<_> = actions.iter().map(action_key).collect();
    v.sort();
    v
}

/// Re-check every recorded action check, and compare each simulation's
/// recorded actions with its task's gold actions (embedded tasks win; `tasks`
/// serves files without them). Linear in the simulations, tasks and calls:
/// tasks are looked up by id and by gold actions, calls through a
/// [`CallIndex`].
pub fn check<C>(results: &Results<C>, tasks: Option<&[Task]>) -> CheckReport {
    let mut r = CheckReport {
        simulations: results.simulations.len(),
        ..CheckReport::default()
    };
    let (task_list, source): (&[Task], &str) = match (&results.tasks, tasks) {
        (Some(t), _) if !t.is_empty() => (t, "embedded tasks"),
        (_, Some(t)) => (t, "given tasks file"),
        _ => (&[], "none"),
    };
    r.task_source = source.into();
    let gold: Vec<(&str, Vec<(String, String)>)> = task_list
        .iter()
        .map(|t| (t.id.as_str(), multiset(t.actions())))
        .collect();
    // The first task of each id; the tasks (in order) of each gold multiset.
    let mut by_id: HashMap<&str, &Vec<(String, String)>> = HashMap::new();
    let mut by_gold: HashMap<&Vec<(String, String)>, Vec<&str>> = HashMap::new();
    for (id, g) in &gold {
        by_id.entry(id).or_insert(g);
        by_gold.entry(g).or_default().push(id);
    }
    for (i, sim) in results.simulations.iter().enumerate() {
        let checks = sim.action_checks();
        if checks.is_empty() {
            continue;
        }
        r.with_checks += 1;
        let mut calls = CallIndex::new(sim);
        for c in checks {
            r.checks += 1;
            if calls.matches(&c.action) == c.action_match {
                r.reproduced += 1;
            } else {
                r.disagreements.push((i, c.action.name.clone()));
            }
        }
        if gold.is_empty() {
            continue;
        }
        let recorded: Vec<Action> = checks.iter().map(|c| c.action.clone()).collect();
        let recorded = multiset(&recorded);
        r.compared_with_tasks += 1;
        if by_id
            .get(sim.task_id.as_str())
            .is_none_or(|g| **g != recorded)
        {
            let equal = by_gold.get(&recorded).map_or(&[][..], Vec::as_slice);
            r.mislabelled.push(Mislabelled {
                simulation: i,
                task_id: sim.task_id.clone(),
                equals_tasks: equal
                    .iter()
                    .take(MAX_EQUAL_TASKS)
                    .map(std::string::ToString::to_string)
                    .collect(),
                equals_tasks_total: equal.len(),
            });
        }
    }
    r
}

/// Task identity is (domain, task id) within one task set: files of the same
/// domain whose embedded tasks give different gold actions under the same id
/// ran different task sets (e.g. airline v1 and τ³). One sentence per pair of
/// such files, naming how many shared ids differ. Only the pairs that differ
/// somewhere are compared (found through each (domain, id)'s files grouped
/// by gold actions), so many files that agree cost no pairwise work.
pub fn task_set_warnings<C>(files: &[(String, &Results<C>)]) -> Vec<String> {
    // Gold-action multisets interned: equal multisets, one class.
    let mut classes: HashMap<Vec<(String, String)>, usize> = HashMap::new();
    struct FileTasks<'a> {
        /// Every task's (id, class), in order.
        list: Vec<(&'a str, usize)>,
        /// The class of each id's first task.
        first: HashMap<&'a str, usize>,
        /// Ids whose tasks in this file are of more than one class.
        mixed: HashSet<&'a str>,
    }
    let per: Vec<Option<FileTasks<'_>>> = files
        .iter()
        .map(|(_, r)| {
            let tasks = r.tasks.as_ref()?;
            let mut f = FileTasks {
                list: Vec::with_capacity(tasks.len()),
                first: HashMap::new(),
                mixed: HashSet::new(),
            };
            for t in tasks {
                let n = classes.len();
                let class = *classes.entry(multiset(t.actions())).or_insert(n);
                f.list.push((t.id.as_str(), class));
                let first = *f.first.entry(t.id.as_str()).or_insert(class);
                if first != class {
                    f.mixed.insert(t.id.as_str());
                }
            }
            Some(f)
        })
        .collect();
    let domains: Vec<Option<String>> = files.iter().map(|(_, r)| domain(r)).collect();
    // (domain, id) → (file, class of its first task with the id), in file order.
    type Holders = Vec<(usize, usize)>;
    let mut by_id: HashMap<(Option<&str>, &str), Holders> = HashMap::new();
    for (fi, f) in per.iter().enumerate() {
        let Some(f) = f else { continue };
        for (id, &class) in &f.first {
            by_id
                .entry((domains[fi].as_deref(), id))
                .or_default()
                .push((fi, class));
        }
    }
    // Pairs of files (in order) that give some shared id different gold actions.
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    for ((_, id), holders) in &by_id {
        let mixed = |fi: usize| per[fi].as_ref().is_some_and(|f| f.mixed.contains(id));
        let uniform = holders.iter().all(|&(_, c)| c == holders[0].1);
        if uniform && !holders.iter().any(|&(fi, _)| mixed(fi)) {
            continue;
        }
        let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
        for &(fi, c) in holders {
            groups.entry(c).or_default().push(fi);
        }
        let groups: Vec<&Vec<usize>> = groups.values().collect();
        for (gi, a) in groups.iter().enumerate() {
            for b in &groups[gi + 1..] {
                for &x in *a {
                    for &y in *b {
                        pairs.insert((x.min(y), x.max(y)));
                    }
                }
            }
        }
        for &(fi, _) in holders.iter().filter(|&&(fi, _)| mixed(fi)) {
            for &(other, _) in holders.iter().filter(|&&(o, _)| o != fi) {
                pairs.insert((fi.min(other), fi.max(other)));
            }
        }
    }
    let mut out = Vec::new();
    for (i, j) in pairs {
        let (Some(a), Some(b)) = (&per[i], &per[j]) else {
            continue;
        };
        let (mut shared, mut differ) = (0, 0);
        for (id, class) in &a.list {
            if let Some(other) = b.first.get(id) {
                shared += 1;
                if other != class {
                    differ += 1;
                }
            }
        }
        if differ > 0 {
            out.push(format!(
                "{} and {} ran different task sets of {}: {differ} of their {shared} shared task ids have different gold actions, so results under the same id are not comparable",
                files[i].0,
                files[j].0,
                domains[i].clone().unwrap_or_else(|| "the same domain".into()),
            ));
        }
    }
    out
}
