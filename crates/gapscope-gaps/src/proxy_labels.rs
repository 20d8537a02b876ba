//! Deterministic *proxy* operation labels from τ²-bench results files
//! (docs/proxy-labels.md). They are proxies computed from the trace alone, not
//! the paper's annotations: no judge, no model, the same input gives the same
//! labels. Four operations get labels; goal interpretation (GI), planning (PL)
//! and progress monitoring (PM) need judgment and stay unlabelled.
//!
//! - **ST** (state tracking), one requirement per argument of a
//!   state-changing call that holds at least one *checkable* value (a string
//!   without whitespace that contains a digit: ids, flight numbers, dates, zip
//!   codes). A value is grounded when an earlier message shows it: a user
//!   message, a tool result without error, or the argument of an earlier read
//!   whose result came back without error. It must appear as a whole token (a
//!   value inside a longer id does not count). The agent's own text, error
//!   messages and the call's own result do not count either. Label 1 when
//!   every checkable value of the argument is grounded, 0.5 when some are, 0
//!   when none are.
//! - **AS** (action selection): each gold action, 1 when some call matches
//!   it by τ²-bench's own rule ([`tau2::call_matches`]), else 0. Each
//!   state-changing call that changed state and matches no gold action gives
//!   a 0.
//! - **RC** (recovery): each tool error of an agent call, judged by the next
//!   call to the same tool issued after the error was seen: 1 when that call
//!   has different arguments and succeeds; 0.5 when its arguments differ but
//!   it fails again; 0 when it repeats the failed arguments. The label is
//!   null when the tool is never called again, because giving up can be right.
//! - **TM** (termination), one requirement per trajectory, from
//!   `termination_reason`: `user_stop`/`agent_stop` 1; `max_steps`,
//!   `too_many_errors`, `agent_error`, `context_window_exceeded` 0; anything
//!   else null (not the agent's doing, or unknown).
//!
//! Every row carries the reason for its label (`why`), so a reader can check
//! it against the trace. Trajectory ids are the ones [`tau2::to_trajectories`]
//! gives, so the label CSV applies to the same files read as trajectories.

use std::borrow::Cow;
use std::collections::HashSet;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::task_groups::{ToolClass, ToolOverrides};
use gapscope_data::formats::tau2::{self, Action, Results, Simulation, Task, Tau2ToolCall};

/// The operations that get proxy labels, in the spec's order.
pub const OPERATIONS: [&str; 4] = ["ST", "AS", "RC", "TM"];

/// The operations left unlabelled because they need judgment.
pub const UNLABELLED: [&str; 3] = ["GI", "PL", "PM"];

/// Which rule produced a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// ST: the checkable values of one argument of a state-changing call.
    Provenance,
    /// AS: a gold action, matched by some call or not.
    GoldAction,
    /// AS: a state-changing call that changed state and matches no gold action.
    UnmatchedCall,
    /// RC: a tool error and the next call to the same tool.
    Recovery,
    /// TM: how the episode ended.
    Termination,
}

/// One label row: the CSV columns plus the rule and the reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProxyRow {
    /// The simulation id (as [`tau2::to_trajectories`] names it).
    pub trajectory_id: String,
    pub task_id: String,
    pub operation: String,
    /// Unique within (trajectory, operation); zero-padded steps sort in order.
    pub requirement: String,
    /// 0, 0.5, 1, or `None` (an opportunity whose outcome needs judgment).
    pub label: Option<f64>,
    /// The message index the requirement refers to (0-based), if any.
    pub turn: Option<usize>,
    pub rule: Rule,
    /// Why this label, with the places in the trace (message and step numbers).
    pub why: String,
}

/// Why labels could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProxyError {
    #[error("tool `{0}` is given as both state-changing and read-only")]
    BothWays(String),
    /// A results file could not be read.
    #[error("{file}: {source}")]
    Results {
        file: String,
        source: gapscope_data::formats::tau2::Tau2Error,
    },
}

/// Proxy labels of several τ²-bench results files (name, text), their tools
/// classed over all of them with the user's `overrides`: what `gapscope
/// evidence tau2-labels` prints and the page's proxy-label button adds.
pub fn proxy_labels_of_files(
    files: &[(String, &str)],
    tasks: Option<&[Task]>,
    overrides: ToolOverrides,
) -> Result<Vec<ProxyLabels>, ProxyError> {
    let all = files
        .iter()
        .map(|(name, text)| {
            tau2::read_results(text).map_err(|source| ProxyError::Results {
                file: name.clone(),
                source,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&Results> = all.iter().collect();
    let tools = ToolRule::new(&refs, overrides)?;
    Ok(files
        .iter()
        .zip(&all)
        .map(|((name, _), r)| {
            proxy_labels(
                r,
                tasks,
                &ProxyOptions {
                    file: name.clone(),
                    tools: tools.clone(),
                },
            )
        })
        .collect())
}

/// How tools are classed as state-changing: the user's overrides, then the
/// `tool_type` recorded in action checks, then the name rule (as
/// [`crate::task_groups`] does).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolRule {
    /// Tool → the `tool_type`s recorded for it (`read`, `write`, `generic`).
    pub recorded: IndexMap<String, Vec<String>>,
    pub overrides: ToolOverrides,
}

impl ToolRule {
    /// The rule over every file given (types recorded in any of them count).
    pub fn new(files: &[&Results], overrides: ToolOverrides) -> Result<ToolRule, ProxyError> {
        if let Some(t) = overrides.write.iter().find(|w| overrides.read.contains(w)) {
            return Err(ProxyError::BothWays(t.clone()));
        }
        Ok(ToolRule {
            recorded: crate::task_groups::recorded_tool_types(files.iter().copied()),
            overrides,
        })
    }

    /// Whether `tool` changes state, and why.
    pub fn classify(&self, tool: &str) -> ToolClass {
        crate::task_groups::classify_tool(tool, &self.overrides, &self.recorded)
    }
}

/// Options of [`proxy_labels`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProxyOptions {
    /// The file's name: simulations without an `id` become `{file}#{index}`,
    /// as in [`tau2::to_trajectories`]; a file without `info.agent_info.llm`
    /// is named by its stem.
    pub file: String,
    pub tools: ToolRule,
}

/// The labels of one results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProxyLabels {
    pub file: String,
    pub model: String,
    pub simulations: usize,
    pub rows: Vec<ProxyRow>,
    /// Every tool the agent called, with its class and the reason.
    pub tools: Vec<ToolClass>,
    /// Where each simulation's gold actions came from (sentence → count).
    pub gold_sources: IndexMap<String, usize>,
    pub warnings: Vec<String>,
}

/// Per operation: what the labels of one file look like.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationSummary {
    pub operation: String,
    /// Rows, including null ones.
    pub rows: usize,
    /// Rows with a label (0, 0.5 or 1).
    pub labelled: usize,
    /// Mean of the labels (`None` without any).
    pub mean_label: Option<f64>,
    /// Trajectories with at least one label for the operation.
    pub eligible: usize,
    /// 100 × mean over eligible trajectories of their mean label (the
    /// operation score over every task of this file).
    pub score: Option<f64>,
}

impl ProxyLabels {
    /// Per operation (ST, AS, RC, TM): counts and means.
    pub fn summary(&self) -> Vec<OperationSummary> {
        OPERATIONS
            .iter()
            .map(|op| {
                let rows: Vec<&ProxyRow> =
                    self.rows.iter().filter(|r| r.operation == *op).collect();
                let labels: Vec<f64> = rows.iter().filter_map(|r| r.label).collect();
                let mut per: IndexMap<&str, (f64, usize)> = IndexMap::new();
                for r in &rows {
                    if let Some(l) = r.label {
                        let e = per.entry(r.trajectory_id.as_str()).or_insert((0.0, 0));
                        e.0 += l;
                        e.1 += 1;
                    }
                }
                let means: Vec<f64> = per.values().map(|(s, n)| s / *n as f64).collect();
                OperationSummary {
                    operation: op.to_string(),
                    rows: rows.len(),
                    labelled: labels.len(),
                    mean_label: mean(&labels),
                    eligible: means.len(),
                    score: mean(&means).map(|m| 100.0 * m),
                }
            })
            .collect()
    }

    /// The label CSV (`trajectory_id,operation,requirement,label,turn,why`;
    /// null labels are written `null`).
    pub fn to_csv(&self) -> String {
        to_csv(std::slice::from_ref(self))
    }
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// One label CSV for several files; every cell through
/// [`gapscope_data::profile::csv_safe`] (spreadsheet formulas neutralised; the label
/// reader takes the neutralising quote off again).
pub fn to_csv(files: &[ProxyLabels]) -> String {
    use gapscope_data::profile::csv_safe;
    let mut out = String::from("trajectory_id,operation,requirement,label,turn,why\n");
    for f in files {
        for r in &f.rows {
            let label = match r.label {
                None => "null".to_string(),
                Some(0.5) => "0.5".to_string(),
                Some(l) => format!("{l:.0}"),
            };
            let turn = r.turn.map(|t| t.to_string()).unwrap_or_default();
            let cells = [
                r.trajectory_id.as_str(),
                r.operation.as_str(),
                r.requirement.as_str(),
                label.as_str(),
                turn.as_str(),
                r.why.as_str(),
            ];
            out.push_str(&cells.map(csv_safe).join(","));
            out.push('\n');
        }
    }
    out
}

/// A tool call of the simulation and what came back.
#[allow(
    clippy::struct_field_names,
    reason = "`call` is the tool call the struct adds context to"
)]
struct Call<'a> {
    step: usize,
    message: usize,
    by_agent: bool,
    call: &'a Tau2ToolCall,
    state_changing: bool,
    /// The message holding the result, and whether it is an error.
    result: Option<(usize, bool)>,
}

/// Where a value was seen.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Seen<'a> {
    User,
    Result { step: usize, tool: &'a str },
    ReadArgument { step: usize, tool: &'a str },
}

/// The ledger of what the agent has observed so far: every string of every
/// user message and of every tool result without error, and the arguments of
/// reads that came back without error, each with its message.
#[derive(Default)]
struct Ledger<'a> {
    texts: Vec<(usize, Seen<'a>, Cow<'a, str>)>,
    /// User messages only (for dates written with month names).
    user: Vec<(usize, Cow<'a, str>)>,
}

impl<'a> Ledger<'a> {
    /// The earliest observation showing `v` as a whole token.
    fn find(&self, v: &str) -> Option<(usize, Seen<'a>)> {
        let text = self
            .texts
            .iter()
            .find(|(_, _, t)| contains_token(t, v))
            .map(|(m, s, _)| (*m, *s));
        let date = iso_date(v).and_then(|d| {
            self.user
                .iter()
                .find(|(_, t)| mentions_date(t, d))
                .map(|(m, _)| (*m, Seen::User))
        });
        match (text, date) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Unicode hyphens and dashes (‐ ‑ ‒ – — ―, minus) read as `-` in user text.
pub fn normalize_dashes(text: &str) -> Cow<'_, str> {
    let dash = |c: char| ('\u{2010}'..='\u{2015}').contains(&c) || c == '\u{2212}';
    if text.chars().any(dash) {
        Cow::Owned(
            text.chars()
                .map(|c| if dash(c) { '-' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// `needle` occurs in `hay` with no letter, digit or `_` on either side.
pub fn contains_token(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

/// A checkable value: a string without whitespace that contains a digit.
pub fn checkable(v: &str) -> bool {
    !v.is_empty() && !v.chars().any(char::is_whitespace) && v.chars().any(|c| c.is_ascii_digit())
}

/// `YYYY-MM-DD` as (year, month, day).
fn iso_date(v: &str) -> Option<(u32, u32, u32)> {
    let b = v.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = v.get(0..4)?.parse().ok()?;
    let m = v.get(5..7)?.parse().ok()?;
    let d = v.get(8..10)?.parse().ok()?;
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month_of(word: &str) -> Option<u32> {
    let w = word.to_lowercase();
    MONTHS
        .iter()
        .position(|m| {
            w == *m || (w.len() >= 3 && m.starts_with(&w) && (w.len() == 3 || w == "sept"))
        })
        .map(|i| i as u32 + 1)
}

/// A day token: 1–31, optionally with st/nd/rd/th.
fn day_of(word: &str) -> Option<u32> {
    let w = word.to_lowercase();
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    if !["", "st", "nd", "rd", "th"].contains(&suffix) || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

fn year_of(word: Option<&&str>) -> Option<u32> {
    word.filter(|w| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit()))
        .and_then(|w| w.parse().ok())
}

/// Does the text name this date with a month name ("May 26", "May 26th,
/// 2024", "26 May", "26th of May")? A year written right after must agree.
pub fn mentions_date(text: &str, (y, m, d): (u32, u32, u32)) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let year_ok = |i: usize| year_of(words.get(i)).is_none_or(|yy| yy == y);
    words.iter().enumerate().any(|(i, w)| {
        if month_of(w) != Some(m) {
            return false;
        }
        // Month, then day (then maybe a year).
        let after = words
            .get(i + 1)
            .and_then(|x| day_of(x))
            .is_some_and(|dd| dd == d && year_ok(i + 2));
        // Day (maybe "of"), then month (then maybe a year).
        let j = if i >= 2 && words[i - 1].eq_ignore_ascii_case("of") {
            Some(i - 2)
        } else {
            i.checked_sub(1)
        };
        let before = j
            .and_then(|j| day_of(words[j]))
            .is_some_and(|dd| dd == d && year_ok(i + 1));
        after || before
    })
}

/// Every string of a JSON value: values and object keys.
fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                out.push(k);
                strings(x, out);
            }
        }
        _ => {}
    }
}

/// The string leaves of an argument value with their paths.
fn leaves<'a>(v: &'a Value, path: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::String(s) => out.push((path, s)),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                leaves(x, format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

fn describe(seen: Seen, message: usize) -> String {
    match seen {
        Seen::User => format!("user message {message}"),
        Seen::Result { step, tool } => format!("result of {tool} (step {step}, message {message})"),
        Seen::ReadArgument { step, tool } => {
            format!("argument of the read {tool} (step {step}), answered without error in message {message}")
        }
    }
}

fn content_text(c: Option<&Value>) -> Option<&str> {
    match c {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

/// Is a tool message an error? Its `error` flag; files without the flag
/// (trimmed ones): content beginning with `Error`.
fn is_error(error: Option<bool>, content: Option<&Value>) -> bool {
    match error {
        Some(e) => e,
        None => content_text(content).is_some_and(|t| t.trim_start().starts_with("Error")),
    }
}

fn compact(v: &Map<String, Value>) -> String {
    let s = Value::Object(v.clone()).to_string();
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

/// Why a simulation has no gold actions.
const NO_GOLD_UNRELIABLE: &str = "no recorded action checks, and this file's task ids do not name the tasks its recorded checks belong to";
const NO_GOLD_NO_TASKS: &str = "no recorded action checks and no tasks (embedded or given)";
const NO_GOLD_UNKNOWN_TASK: &str =
    "no recorded action checks, and the task id is not among the tasks";

/// The gold actions of a simulation and where they came from.
fn gold_of<'a>(
    sim: &'a Simulation,
    tasks: &'a [Task],
    task_source: &str,
    ids_reliable: bool,
) -> Result<(Vec<&'a Action>, String), &'static str> {
    let recorded = sim.action_checks();
    if !recorded.is_empty() {
        return Ok((
            recorded.iter().map(|c| &c.action).collect(),
            "the simulation's recorded action checks".into(),
        ));
    }
    if !ids_reliable {
        return Err(NO_GOLD_UNRELIABLE);
    }
    match tasks.iter().find(|t| t.id == sim.task_id) {
        Some(t) => Ok((
            t.actions().iter().collect(),
            format!("task `{}` of the {task_source}", t.id),
        )),
        None if tasks.is_empty() => Err(NO_GOLD_NO_TASKS),
        None => Err(NO_GOLD_UNKNOWN_TASK),
    }
}

/// Proxy labels of every simulation of a results file. `tasks` serves files
/// without embedded tasks (a bare list); gold actions come from each
/// simulation's recorded action checks when it has any (they are what
/// τ²-bench checked), else from the task its `task_id` names.
pub fn proxy_labels(
    results: &Results,
    tasks: Option<&[Task]>,
    options: &ProxyOptions,
) -> ProxyLabels {
    let file = options.file.as_str();
    let stem = file
        .rsplit('/')
        .next()
        .unwrap_or(file)
        .trim_end_matches(".json");
    let model = tau2::model_name(results).unwrap_or_else(|| stem.to_string());
    let (task_list, task_source): (&[Task], &str) = match (&results.tasks, tasks) {
        (Some(t), _) if !t.is_empty() => (t, "embedded tasks"),
        (_, Some(t)) => (t, "given tasks"),
        _ => (&[], "tasks"),
    };
    let check = tau2::check(results, Some(task_list));
    let ids_reliable = check.mislabelled.is_empty();
    let mut out = ProxyLabels {
        file: file.to_string(),
        model,
        simulations: results.simulations.len(),
        rows: Vec::new(),
        tools: Vec::new(),
        gold_sources: IndexMap::new(),
        warnings: Vec::new(),
    };
    if !ids_reliable && !task_list.is_empty() {
        out.warnings.push(format!(
            "{} of {} simulations with recorded action checks were checked against gold actions that are not those of the task their task_id names; gold actions come from the recorded checks, and simulations without recorded checks get no AS labels",
            check.mislabelled.len(),
            check.with_checks
        ));
    }
    let mut classes: IndexMap<String, ToolClass> = IndexMap::new();
    let mut no_gold: IndexMap<&str, usize> = IndexMap::new();
    for (i, sim) in results.simulations.iter().enumerate() {
        let id = sim.id.clone().unwrap_or_else(|| format!("{file}#{i}"));
        let gold = gold_of(sim, task_list, task_source, ids_reliable);
        match &gold {
            Ok((_, source)) => *out.gold_sources.entry(source_kind(source)).or_default() += 1,
            Err(why) => *no_gold.entry(why).or_default() += 1,
        }
        let (rows, warnings) = label_simulation(sim, &id, &gold, &options.tools, &mut classes);
        out.rows.extend(rows);
        out.warnings.extend(warnings);
    }
    for (why, n) in no_gold {
        out.warnings
            .push(format!("{n} simulation(s) get no AS labels: {why}"));
    }
    out.tools = classes.into_values().collect();
    out
}

fn source_kind(source: &str) -> String {
    if source.starts_with("task `") {
        source
            .split(" of the ")
            .nth(1)
            .map_or_else(|| source.to_string(), |s| format!("the {s}"))
    } else {
        source.to_string()
    }
}

/// One simulation read for labelling: its calls with their results.
struct Trace<'a> {
    sim: &'a Simulation,
    id: &'a str,
    calls: Vec<Call<'a>>,
    /// Per message: the call a tool message answers.
    answered_by: Vec<Option<usize>>,
    /// Per message: a tool message's content parsed as JSON, if it is JSON.
    parsed: Vec<Option<Value>>,
}

impl<'a> Trace<'a> {
    /// Calls and their results: a tool message answers the open call with its
    /// id, or (without an id) the earliest open call.
    fn new(
        sim: &'a Simulation,
        id: &'a str,
        tools: &ToolRule,
        classes: &mut IndexMap<String, ToolClass>,
        warnings: &mut Vec<String>,
    ) -> Trace<'a> {
        let mut calls: Vec<Call> = Vec::new();
        let mut answered_by: Vec<Option<usize>> = vec![None; sim.messages.len()];
        let mut parsed: Vec<Option<Value>> = vec![None; sim.messages.len()];
        let mut open: Vec<usize> = Vec::new();
        for (mi, m) in sim.messages.iter().enumerate() {
            match m.role.as_str() {
                "assistant" | "user" => {
                    for c in m.tool_calls.iter().flatten() {
                        let class = classes
                            .entry(c.name.clone())
                            .or_insert_with(|| tools.classify(&c.name));
                        open.push(calls.len());
                        calls.push(Call {
                            step: calls.len(),
                            message: mi,
                            by_agent: m.role == "assistant",
                            call: c,
                            state_changing: class.state_changing,
                            result: None,
                        });
                    }
                }
                "tool" => {
                    parsed[mi] = match &m.content {
                        Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
                        other => other.clone(),
                    };
                    let pos = match &m.id {
                        Some(tid) => open
                            .iter()
                            .position(|&k| calls[k].call.id.as_deref() == Some(tid.as_str())),
                        None => (!open.is_empty()).then_some(0),
                    };
                    match pos {
                        Some(p) => {
                            let k = open.remove(p);
                            calls[k].result = Some((mi, is_error(m.error, m.content.as_ref())));
                            answered_by[mi] = Some(k);
                        }
                        None => warnings.push(format!(
                            "simulation `{id}`, message {mi}: a tool message that answers no open call (id {:?}); ignored",
                            m.id
                        )),
                    }
                }
                _ => {}
            }
        }
        Trace {
            sim,
            id,
            calls,
            answered_by,
            parsed,
        }
    }

    fn row(
        &self,
        operation: &str,
        requirement: String,
        label: Option<f64>,
        turn: Option<usize>,
        rule: Rule,
        why: String,
    ) -> ProxyRow {
        ProxyRow {
            trajectory_id: self.id.to_string(),
            task_id: self.sim.task_id.clone(),
            operation: operation.into(),
            requirement,
            label,
            turn,
            rule,
            why,
        }
    }

    /// What message `mi` adds to the ledger: a user message's text; a tool
    /// result without error of an agent call (every string), and for a read
    /// its argument values.
    fn observe(&'a self, mi: usize, ledger: &mut Ledger<'a>) {
        let m = &self.sim.messages[mi];
        if m.role == "user" {
            if let Some(t) = content_text(m.content.as_ref()) {
                let t = normalize_dashes(t);
                ledger.texts.push((mi, Seen::User, t.clone()));
                ledger.user.push((mi, t));
            }
            return;
        }
        let Some(k) = self.answered_by[mi] else {
            return;
        };
        let c = &self.calls[k];
        if !c.by_agent || c.result.is_some_and(|(_, e)| e) {
            return;
        }
        let seen = Seen::Result {
            step: c.step,
            tool: &c.call.name,
        };
        match &self.parsed[mi] {
            Some(v) => {
                let mut ss = Vec::new();
                strings(v, &mut ss);
                ledger
                    .texts
                    .extend(ss.into_iter().map(|s| (mi, seen, Cow::Borrowed(s))));
            }
            None => {
                if let Some(t) = content_text(m.content.as_ref()) {
                    ledger.texts.push((mi, seen, Cow::Borrowed(t)));
                }
            }
        }
        if let (false, Some(args)) = (c.state_changing, &c.call.arguments) {
            let mut ls = Vec::new();
            for (key, value) in args {
                leaves(value, key.clone(), &mut ls);
            }
            let seen = Seen::ReadArgument {
                step: c.step,
                tool: &c.call.name,
            };
            ledger
                .texts
                .extend(ls.into_iter().map(|(_, s)| (mi, seen, Cow::Borrowed(s))));
        }
    }

    /// ST: each state-changing call of the agent is checked against the
    /// ledger of the messages before its own.
    fn provenance(&'a self, rows: &mut Vec<ProxyRow>) {
        let mut ledger = Ledger::default();
        let mut next = 0usize;
        for mi in 0..self.sim.messages.len() {
            while next < self.calls.len() && self.calls[next].message == mi {
                let c = &self.calls[next];
                next += 1;
                if c.by_agent && c.state_changing {
                    self.provenance_of(c, &ledger, rows);
                }
            }
            self.observe(mi, &mut ledger);
        }
    }

    fn provenance_of(&self, c: &Call, ledger: &Ledger, rows: &mut Vec<ProxyRow>) {
        let empty = Map::new();
        for (key, value) in c.call.arguments.as_ref().unwrap_or(&empty) {
            let mut ls = Vec::new();
            leaves(value, key.clone(), &mut ls);
            let checked: Vec<(String, &str)> =
                ls.into_iter().filter(|(_, v)| checkable(v)).collect();
            if checked.is_empty() {
                continue;
            }
            let mut grounded = 0usize;
            let mut parts = Vec::new();
            for (path, v) in &checked {
                match ledger.find(v) {
                    Some((at, seen)) => {
                        grounded += 1;
                        parts.push(format!("{path} = `{v}`: {}", describe(seen, at)));
                    }
                    None => parts.push(format!(
                        "{path} = `{v}`: in no earlier user message, tool result or answered read"
                    )),
                }
            }
            let label = if grounded == checked.len() {
                1.0
            } else if grounded == 0 {
                0.0
            } else {
                0.5
            };
            rows.push(self.row(
                "ST",
                format!("{:04} {}.{key}", c.step, c.call.name),
                Some(label),
                Some(c.message),
                Rule::Provenance,
                format!(
                    "{}: {grounded} of {} checkable values grounded before message {}. {}",
                    c.call.name,
                    checked.len(),
                    c.message,
                    parts.join("; ")
                ),
            ));
        }
    }

    /// AS: each gold action (τ²-bench's rule), then each state-changing call
    /// of the agent that changed state and matches no gold action (each gold
    /// action absorbs one such call, in order).
    fn action_selection(&self, gold: &[&Action], source: &str, rows: &mut Vec<ProxyRow>) {
        for (gi, a) in gold.iter().enumerate() {
            let first = self.calls.iter().find(|c| tau2::call_matches(a, c.call));
            let (label, turn, why) = match first {
                Some(c) => (
                    1.0,
                    Some(c.message),
                    format!(
                        "gold action {} {} (from {source}) matched by step {} in message {}",
                        a.name,
                        compact(&a.arguments),
                        c.step,
                        c.message
                    ),
                ),
                None => (
                    0.0,
                    None,
                    format!(
                        "gold action {} {} (from {source}) matched by no call ({})",
                        a.name,
                        compact(&a.arguments),
                        match &a.compare_args {
                            Some(k) => format!("compared keys: {}", k.join(", ")),
                            None => "compared keys: each call's own".into(),
                        }
                    ),
                ),
            };
            rows.push(self.row(
                "AS",
                format!("gold {gi:02} {}", a.name),
                Some(label),
                turn,
                Rule::GoldAction,
                why,
            ));
        }
        let mut taken: HashSet<usize> = HashSet::new();
        for c in &self.calls {
            let Some((rm, false)) = c.result else {
                continue;
            };
            if !(c.by_agent && c.state_changing) {
                continue;
            }
            let matching: Vec<usize> = gold
                .iter()
                .enumerate()
                .filter(|(_, a)| tau2::call_matches(a, c.call))
                .map(|(gi, _)| gi)
                .collect();
            if let Some(&gi) = matching.iter().find(|gi| !taken.contains(gi)) {
                taken.insert(gi);
                continue;
            }
            let why = if matching.is_empty() {
                format!(
                    "{} {} changed state (answered without error in message {rm}) and matches no gold action (from {source})",
                    c.call.name,
                    compact(c.call.arguments.as_ref().unwrap_or(&Map::new()))
                )
            } else {
                format!(
                    "{} changed state (answered without error in message {rm}) but the gold actions it matches were each matched by an earlier call: a repeat",
                    c.call.name
                )
            };
            rows.push(self.row(
                "AS",
                format!("unmatched {:04} {}", c.step, c.call.name),
                Some(0.0),
                Some(c.message),
                Rule::UnmatchedCall,
                why,
            ));
        }
    }

    /// RC: every error of an agent call, judged by the next call of the agent
    /// to the same tool issued after the error was seen.
    fn recovery(&self, rows: &mut Vec<ProxyRow>) {
        for c in &self.calls {
            let Some((rm, true)) = c.result else { continue };
            if !c.by_agent {
                continue;
            }
            let error_text = content_text(self.sim.messages[rm].content.as_ref())
                .map(|t| {
                    t.lines()
                        .next()
                        .unwrap_or_default()
                        .chars()
                        .take(120)
                        .collect::<String>()
                })
                .unwrap_or_default();
            let next = self
                .calls
                .iter()
                .find(|d| d.by_agent && d.message > rm && d.call.name == c.call.name);
            let (label, why) = match next {
                None => (
                    None,
                    "the tool is never called again: whether giving up was right needs judgment"
                        .to_string(),
                ),
                Some(d) => {
                    let same = tau2::json_equal(
                        &Value::Object(c.call.arguments.clone().unwrap_or_default()),
                        &Value::Object(d.call.arguments.clone().unwrap_or_default()),
                    );
                    let at = format!("step {} (message {})", d.step, d.message);
                    match (same, d.result) {
                        (true, _) => (Some(0.0), format!("{at} repeats the failed arguments")),
                        (false, Some((dm, false))) => (
                            Some(1.0),
                            format!("{at} changes the arguments and succeeds (message {dm})"),
                        ),
                        (false, Some((dm, true))) => (
                            Some(0.5),
                            format!("{at} changes the arguments but fails again (message {dm})"),
                        ),
                        (false, None) => (
                            None,
                            format!("{at} changes the arguments but has no result"),
                        ),
                    }
                }
            };
            rows.push(self.row(
                "RC",
                format!("{:04} {}", c.step, c.call.name),
                label,
                Some(rm),
                Rule::Recovery,
                format!(
                    "{} failed in message {rm} (`{error_text}`); {why}",
                    c.call.name
                ),
            ));
        }
    }

    /// TM: how the episode ended.
    fn termination(&self) -> ProxyRow {
        let reason = self.sim.termination_reason.as_deref();
        let (label, why) = match reason {
            Some(r @ ("user_stop" | "agent_stop")) => (
                Some(1.0),
                format!("termination_reason {r}: the conversation ended by a stop"),
            ),
            Some(
                r @ ("max_steps" | "too_many_errors" | "agent_error" | "context_window_exceeded"),
            ) => (
                Some(0.0),
                format!("termination_reason {r}: the episode was cut off, not ended"),
            ),
            Some(r) => (
                None,
                format!("termination_reason {r}: not attributable to the agent"),
            ),
            None => (None, "no termination_reason recorded".to_string()),
        };
        self.row(
            "TM",
            "termination".into(),
            label,
            self.sim.messages.len().checked_sub(1),
            Rule::Termination,
            why,
        )
    }
}

fn label_simulation(
    sim: &Simulation,
    id: &str,
    gold: &Result<(Vec<&Action>, String), &'static str>,
    tools: &ToolRule,
    classes: &mut IndexMap<String, ToolClass>,
) -> (Vec<ProxyRow>, Vec<String>) {
    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    let trace = Trace::new(sim, id, tools, classes, &mut warnings);
    trace.provenance(&mut rows);
    if let Ok((gold, source)) = gold {
        trace.action_selection(gold, source, &mut rows);
    }
    trace.recovery(&mut rows);
    rows.push(trace.termination());
    (rows, warnings)
}

/// The summary of several files as text (one block per file).
pub fn summary_text(files: &[ProxyLabels]) -> String {
    let mut s = String::from(
        "Proxy operation labels (deterministic, from the trace; not the paper's annotations). GI, PL, PM: unlabelled.\n",
    );
    for f in files {
        s.push_str(&format!(
            "\n{} — model {} — {} simulations\n",
            f.file, f.model, f.simulations
        ));
        s.push_str("  op  rows  labelled  mean label  eligible  score\n");
        for o in f.summary() {
            let m = o.mean_label.map_or("—".to_string(), |m| format!("{m:.3}"));
            let sc = o.score.map_or("—".to_string(), |m| format!("{m:.1}"));
            s.push_str(&format!(
                "  {:<3} {:>5} {:>9} {:>11} {:>9} {:>6}\n",
                o.operation, o.rows, o.labelled, m, o.eligible, sc
            ));
        }
        for (src, n) in &f.gold_sources {
            s.push_str(&format!("  gold actions from {src}: {n}\n"));
        }
        for w in &f.warnings {
            s.push_str(&format!("  warning: {w}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_need_boundaries() {
        assert!(contains_token("order #W100.", "#W100"));
        assert!(contains_token("#W100", "#W100"));
        assert!(contains_token("id: u_17, please", "u_17"));
        // Inside longer ids: a letter, digit or `_` on either side.
        assert!(!contains_token("credit_card_4336", "card_4336"));
        assert!(!contains_token("card_4336x", "card_4336"));
        assert!(!contains_token("W1000", "W100"));
        // A later occurrence may qualify where the first does not.
        assert!(contains_token("W1000 and W100", "W100"));
        assert!(!contains_token("abc", ""));
        // Multi-byte neighbours: letters count, arrows do not.
        assert!(!contains_token("é#W1é", "#W1"));
        assert!(contains_token("→#W1←", "#W1"));
    }

    #[test]
    fn checkable_values() {
        for (v, want) in [
            ("u_17", true),
            ("2024-05-26", true),
            ("HAT001", true),
            ("one_way", false),
            ("economy", false),
            ("no longer needed 2", false),
            ("", false),
        ] {
            assert_eq!(checkable(v), want, "{v}");
        }
    }

    #[test]
    fn dates_with_month_names() {
        let d = (2024, 5, 26);
        for (text, want) in [
            ("on May 26", true),
            ("on may 26th, 2024", true),
            ("May 26, 2023", false),
            ("26 May", true),
            ("the 26th of May 2024", true),
            ("the 26th of May 2025", false),
            ("Sep 26", false),
            ("May 27", false),
            ("May 260", false),
            ("May\u{202f}26", true),
            ("2024-05-26", false), // ISO text is matched as a token, not here
        ] {
            assert_eq!(mentions_date(text, d), want, "{text}");
        }
        assert!(mentions_date("Sept 3", (2024, 9, 3)));
        assert!(mentions_date("sep 3rd", (2024, 9, 3)));
        assert!(!mentions_date("Mayday 3", (2024, 5, 3)));
        assert_eq!(iso_date("2024-13-01"), None);
        assert_eq!(iso_date("2024-05-26"), Some((2024, 5, 26)));
        assert_eq!(normalize_dashes("2024\u{2011}05\u{2013}26"), "2024-05-26");
    }
}
