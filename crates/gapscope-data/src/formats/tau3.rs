//! One τ²-bench / τ³ simulation file (a `SimulationRun` object, or the
//! `{_about, task, simulation_run}` wrapper), full-duplex simulations
//! (turns in `ticks`, flattened by [`super::tau2`]) and the τ³ results
//! directory (`results.json` beside `simulations/<id>.json`,
//! [`super::folder`]); and the grading version of every τ²-bench file read
//! ([`Grading`], [`grading_warnings`]).
//!
//! A results directory is read as τ²-bench's `Results.load` reads one, with
//! one difference. `Results.load` reads every `simulations/*.json` (sorted)
//! and, when `results.json` has a `simulation_index`, refuses the directory
//! if an indexed simulation has no file or a file is not indexed. Here an
//! indexed simulation without its file refuses the directory too (a
//! located error: the run is incomplete), but a file the index does not
//! list is left out and reported in [`Corpus::skipped`] (its path and why):
//! the index is the run (τ²-bench writes a simulation's file before its
//! index entry, so such a file is a simulation the run never recorded, or a
//! leftover), and the rest of the run still reads. Without an index, every
//! simulation file is the run.

use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::folder::{Folder, Group};
use super::tau2::{self, Content, Info, Results, Simulation, Task};
use super::{Corpus, ReadOptions};
use crate::trajectory::{bad_name, check_names, LineError, UNKNOWN_DOMAIN};

/// The grading version of one file read: the τ²-bench commit that ran it
/// (`info.git_commit`) and the reward basis of each task it graded
/// (`reward_info.reward_basis`), where the file says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grading {
    /// The file (or folder) as the reader was given it.
    pub file: String,
    #[serde(default)]
    pub git_commit: Option<String>,
    /// `domain/task id` → the reward basis its simulations were graded on
    /// (the first one seen for the task in this file).
    #[serde(default)]
    pub reward_basis: BTreeMap<String, Vec<String>>,
}

impl Grading {
    /// Whether the file says anything of its grading.
    pub fn is_empty(&self) -> bool {
        self.git_commit.is_none() && self.reward_basis.is_empty()
    }

    fn add<C>(&mut self, domain: Option<&str>, s: &Simulation<C>) {
        if let Some(basis) = &s.tau3.reward_basis {
            let key = format!("{}/{}", domain.unwrap_or(UNKNOWN_DOMAIN), s.task_id);
            self.reward_basis
                .entry(key)
                .or_insert_with(|| basis.clone());
        }
    }
}

/// The grading of a τ²-bench results file (none if it says nothing of it).
pub fn results_grading<C>(file: &str, r: &Results<C>) -> Option<Grading> {
    let mut g = Grading {
        file: file.to_string(),
        git_commit: r.info.as_ref().and_then(|i| i.git_commit.clone()),
        ..Grading::default()
    };
    let domain = tau2::domain(r);
    for s in &r.simulations {
        g.add(domain.as_deref(), s);
    }
    (!g.is_empty()).then_some(g)
}

/// The most files (or tasks) a grading warning names; the rest are counted.
const NAMED: usize = 4;

/// Warnings (one sentence each, at most two) when the files read were
/// graded under different τ²-bench versions: different `info.git_commit`s
/// (naming each commit and its files), or a task graded on different
/// `reward_info.reward_basis` in two files (naming the tasks, the bases
/// and the files). Files that do not say are not compared.
pub fn grading_warnings(gradings: &[Grading]) -> Vec<String> {
    let mut out = Vec::new();
    let mut commits: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for g in gradings {
        if let Some(c) = &g.git_commit {
            commits.entry(c.as_str()).or_default().push(g.file.as_str());
        }
    }
    if commits.len() > 1 {
        let parts: Vec<String> = commits
            .iter()
            .take(NAMED)
            .map(|(c, files)| format!("{c} ({})", names(files)))
            .collect();
        let more = commits.len().saturating_sub(NAMED);
        out.push(format!(
            "the τ²-bench files compared were run and graded by {} different τ²-bench versions (`info.git_commit`): {}{}; their rewards may not be comparable",
            commits.len(),
            parts.join(", "),
            if more > 0 { format!(", and {more} more") } else { String::new() }
        ));
    }
    // Task → basis → files.
    let mut bases: BTreeMap<&str, BTreeMap<&[String], Vec<&str>>> = BTreeMap::new();
    for g in gradings {
        for (task, basis) in &g.reward_basis {
            bases
                .entry(task.as_str())
                .or_default()
                .entry(basis.as_slice())
                .or_default()
                .push(g.file.as_str());
        }
    }
    let differ: Vec<String> = bases
        .iter()
        .filter(|(_, b)| b.len() > 1)
        .map(|(task, b)| {
            let each: Vec<String> = b
                .iter()
                .map(|(basis, files)| format!("[{}] in {}", basis.join(", "), names(files)))
                .collect();
            format!("{task}: {}", each.join(", "))
        })
        .collect();
    if !differ.is_empty() {
        let more = differ.len().saturating_sub(NAMED);
        out.push(format!(
            "{} task(s) were graded on different reward bases (`reward_info.reward_basis`) in the files compared, so their rewards measure different things: {}{}",
            differ.len(),
            differ[..differ.len().min(NAMED)].join("; "),
            if more > 0 { format!("; and {more} more") } else { String::new() }
        ));
    }
    out
}

fn names(files: &[&str]) -> String {
    let mut v: Vec<String> = files.iter().take(NAMED).map(|f| (*f).to_string()).collect();
    if files.len() > NAMED {
        v.push(format!("{} more", files.len() - NAMED));
    }
    v.join(", ")
}

/// A simulation file's JSON error, located.
fn json_error(what: &str, e: &serde_json::Error) -> String {
    format!(
        "line {}, column {}: not {what}: {}",
        e.line(),
        e.column(),
        crate::profile::json_message(e)
    )
}

/// The `{_about, task, simulation_run}` wrapper: one simulation with its task.
#[derive(Deserialize)]
#[serde(bound(deserialize = "C: Deserialize<'de>"))]
struct Wrapper<C> {
    #[serde(default)]
    task: Option<WrapperTask>,
    simulation_run: Simulation<C>,
}

/// A task as the wrapper has it: a τ²-bench `Task`, whose
/// `user_scenario.instructions.domain` names the domain.
#[derive(Deserialize)]
struct WrapperTask {
    id: String,
    #[serde(default)]
    evaluation_criteria: Option<tau2::EvaluationCriteria>,
    #[serde(default)]
    user_scenario: Option<Scenario>,
    #[serde(default)]
    description: Option<Value>,
}

#[derive(Deserialize)]
struct Scenario {
    /// Structured instructions (`{domain, reason_for_call, …}`) or, in
    /// older tasks, a string.
    #[serde(default)]
    instructions: Option<Value>,
}

impl WrapperTask {
    fn domain(&self) -> Option<String> {
        let d = self
            .user_scenario
            .as_ref()?
            .instructions
            .as_ref()?
            .get("domain")?
            .as_str()?;
        Some(d.to_string())
    }
}

/// Why a file's model is its name, for the warning.
fn stem(name: &str) -> &str {
    super::file_stem(name, &[".json"])
}

fn no_domain_warning(what: &str) -> String {
    format!(
        "names no domain ({what}): its tasks are taken to be of domain `{UNKNOWN_DOMAIN}`, so they match only other `{UNKNOWN_DOMAIN}` tasks; give the domain (--domain)"
    )
}

fn no_reward_warning(unscored: usize, total: usize) -> String {
    if total == 1 {
        "its simulation has no reward (no `reward_info`: τ²-bench did not evaluate it): read unscored".into()
    } else {
        format!("{unscored} of {total} simulations have no reward (no `reward_info`: τ²-bench did not evaluate them): read unscored")
    }
}

/// Read a Tau2Simulation file (`name` for messages): one `SimulationRun`,
/// or the wrapper. A light read skips message contents and details.
pub fn read_simulation(name: &str, text: &str, options: &ReadOptions) -> Result<Corpus, String> {
    if options.light && options.keep.is_none() {
        read_simulation_as::<IgnoredAny>(name, text, options)
    } else {
        read_simulation_as::<Value>(name, text, options)
    }
}

fn read_simulation_as<C: DeserializeOwned + Content>(
    name: &str,
    text: &str,
    options: &ReadOptions,
) -> Result<Corpus, String> {
    let text = text.trim_start_matches('\u{feff}');
    // The wrapper by its key (in a text too broken to probe, by its name).
    let wrapped = match &super::probe::probe(text) {
        super::probe::Shape::Object(r) => r.has("simulation_run"),
        super::probe::Shape::Other => text.contains("\"simulation_run\""),
        _ => false,
    };
    let mut warnings = Vec::new();
    let (sim, task, file_domain) = if wrapped {
        let w: Wrapper<C> = serde_json::from_str(text)
            .map_err(|e| json_error("a τ²-bench `{_about, task, simulation_run}` file", &e))?;
        let mut task = w.task;
        if let Some(t) = task.as_ref().filter(|t| t.id != w.simulation_run.task_id) {
            warnings.push(format!(
                "its task is `{}` but its simulation ran task `{}`: the task's gold actions and domain are not used",
                t.id, w.simulation_run.task_id
            ));
            task = None;
        }
        let domain = task.as_ref().and_then(WrapperTask::domain);
        let task = task.map(|t| Task {
            id: t.id,
            evaluation_criteria: t.evaluation_criteria,
            description: t.description,
            user_scenario: t
                .user_scenario
                .and_then(|s| s.instructions)
                .map(|i| serde_json::json!({ "instructions": i })),
        });
        (w.simulation_run, task, domain)
    } else {
        let s: Simulation<C> =
            serde_json::from_str(text).map_err(|e| json_error("a τ²-bench simulation", &e))?;
        (s, None, None)
    };
    let domain = file_domain.or_else(|| options.domain.clone());
    if domain.is_none() {
        warnings.push(no_domain_warning(if wrapped {
            "its task has no `user_scenario.instructions.domain`"
        } else {
            "a lone simulation carries no `info.environment_info.domain_name`"
        }));
    }
    let model = if let Some(m) = &options.model {
        m.clone()
    } else {
        let m = stem(name).to_string();
        warnings.push(format!(
            "names no model (a simulation file carries no `info.agent_info.llm`): the file's name `{m}` is used as the model; give the name with --model"
        ));
        m
    };
    if let Some(why) = bad_name("model name", &model) {
        return Err(format!("{why} (the file's name)"));
    }
    if sim.reward_info.as_ref().and_then(|r| r.reward).is_none() {
        warnings.push(no_reward_warning(1, 1));
    }
    let mut grading = Grading {
        file: name.to_string(),
        ..Grading::default()
    };
    grading.add(domain.as_deref(), &sim);
    let gold = tau2::gold_actions(&sim, task.as_ref());
    let t = tau2::into_trajectory(sim, gold, task.as_ref(), stem(name), &model, domain);
    check_names(&t, false)?;
    Ok(Corpus {
        trajectories: vec![t],
        warnings,
        grading: (!grading.is_empty())
            .then_some(grading)
            .into_iter()
            .collect(),
        ..Corpus::default()
    })
}

/// `results.json` of a results directory: the run's metadata, its tasks and
/// (τ³ 1.0) the index of its simulations. Everything else is skipped.
#[derive(Deserialize)]
struct Metadata {
    #[serde(default)]
    info: Option<Info>,
    #[serde(default)]
    tasks: Option<Vec<Task>>,
    #[serde(default)]
    simulation_index: Option<Vec<IndexEntry>>,
}

/// One `simulation_index` entry (`SimulationIndexEntry`).
#[derive(Deserialize)]
struct IndexEntry {
    id: String,
    /// `int | str` in τ²-bench.
    #[serde(default)]
    task_id: Option<Value>,
    #[serde(default)]
    trial: Option<i64>,
    #[serde(default)]
    reward: Option<f64>,
}

/// The most disagreements between the index and the files one warning names.
const SHOWN_MISMATCHES: usize = 3;

/// Read a τ³ results directory (its members through `folder`, one at a
/// time, each dropped once read); `progress` sees (members read, members).
pub fn read_group(
    group: &Group,
    folder: &mut dyn Folder,
    options: &ReadOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Corpus, String> {
    if options.light && options.keep.is_none() {
        read_group_as::<IgnoredAny>(group, folder, options, progress)
    } else {
        read_group_as::<Value>(group, folder, options, progress)
    }
}

/// What the directory's `results.json` says.
struct Run {
    info: Option<Info>,
    tasks: BTreeMap<String, Task>,
    /// The index's entries by simulation id, with their position.
    index: Option<BTreeMap<String, (usize, IndexEntry)>>,
}

fn read_metadata(group: &Group, folder: &mut dyn Folder) -> Result<(String, Run), String> {
    let path = group
        .member("results.json")
        .ok_or("the folder has no `results.json`")?
        .to_string();
    let bytes = folder.read(&path)?;
    let text = crate::text::utf8(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let meta: Metadata = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("{path}: {}", json_error("a τ²-bench `results.json`", &e)))?;
    let index = meta.simulation_index.map(|entries| {
        let mut by_id = BTreeMap::new();
        for (k, e) in entries.into_iter().enumerate() {
            by_id.entry(e.id.clone()).or_insert((k, e));
        }
        by_id
    });
    let mut tasks = BTreeMap::new();
    for t in meta.tasks.unwrap_or_default() {
        tasks.entry(t.id.clone()).or_insert(t);
    }
    Ok((
        path,
        Run {
            info: meta.info,
            tasks,
            index,
        },
    ))
}

/// Where the simulation files' contents disagree with the index.
fn index_mismatch<C>(entry: &IndexEntry, s: &Simulation<C>) -> Option<String> {
    let task = entry.task_id.as_ref().map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    });
    let reward = s.reward_info.as_ref().and_then(|r| r.reward);
    let mut what = Vec::new();
    if task.as_deref().is_some_and(|t| t != s.task_id) {
        what.push(format!(
            "task {} in the index, {} in the file",
            task.unwrap_or_default(),
            s.task_id
        ));
    }
    if entry.trial.is_some() && entry.trial != s.trial {
        what.push(format!(
            "trial {:?} in the index, {:?} in the file",
            entry.trial, s.trial
        ));
    }
    if entry.reward != reward {
        what.push(format!(
            "reward {:?} in the index, {:?} in the file",
            entry.reward, reward
        ));
    }
    (!what.is_empty()).then(|| what.join(", "))
}

/// τ²-bench's check that every indexed simulation has its file: the first
/// missing one is a located error.
fn check_index(meta_path: &str, run: &Run, sims: &[(&str, &str)]) -> Result<(), String> {
    let Some(index) = &run.index else {
        return Ok(());
    };
    let mut missing: Vec<&(usize, IndexEntry)> = index
        .iter()
        .filter(|(id, _)| !sims.iter().any(|(_, s)| s == id))
        .map(|(_, e)| e)
        .collect();
    missing.sort_by_key(|(k, _)| *k);
    match missing.first() {
        None => Ok(()),
        Some((k, e)) => Err(format!(
            "{meta_path}: simulation_index[{k}] lists simulation `{}`, but the folder has no `simulations/{}.json`{}: the run is incomplete",
            e.id,
            e.id,
            if missing.len() > 1 {
                format!(" ({} listed simulations have no file)", missing.len())
            } else {
                String::new()
            }
        )),
    }
}

/// The run's domain and model from `results.json` (else the options, else
/// `unknown` and the folder's name, warned).
fn run_names(
    meta_path: &str,
    run: &Run,
    root: &str,
    options: &ReadOptions,
    warnings: &mut Vec<String>,
) -> Result<(Option<String>, String), String> {
    let domain = run
        .info
        .as_ref()
        .and_then(|i| i.environment_info.as_ref())
        .and_then(|e| e.domain_name.clone())
        .or_else(|| options.domain.clone());
    if domain.is_none() {
        warnings.push(no_domain_warning(
            "no `info.environment_info.domain_name` in its `results.json`",
        ));
    }
    let file_model = run
        .info
        .as_ref()
        .and_then(|i| i.agent_info.as_ref())
        .and_then(|a| a.llm.clone());
    let model = match (&options.model, file_model) {
        (Some(m), _) => m.clone(),
        (None, Some(m)) => m,
        (None, None) => {
            let m = root.rsplit('/').next().unwrap_or(root).to_string();
            warnings.push(format!(
                "names no model (no `info.agent_info.llm` in its `results.json`): the folder's name `{m}` is used as the model; give the name with --model"
            ));
            m
        }
    };
    if let Some(why) = bad_name("model name", &model) {
        return Err(format!("{why} ({meta_path})"));
    }
    Ok((domain, model))
}

/// [`read_group`] with message contents of type `C`: `results.json`, then
/// each simulation file in path order.
fn read_group_as<C: DeserializeOwned + Content>(
    group: &Group,
    folder: &mut dyn Folder,
    options: &ReadOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Corpus, String> {
    let total = group.members.len();
    let mut done = 0;
    let (meta_path, run) = read_metadata(group, folder)?;
    done += 1;
    progress(done, total);
    let sims: Vec<(&str, &str)> = group
        .members
        .iter()
        .filter_map(|m| {
            let stem = group
                .relative(m)
                .strip_prefix("simulations/")?
                .strip_suffix(".json")?;
            Some((m.as_str(), stem))
        })
        .collect();
    let mut c = Corpus::default();
    check_index(&meta_path, &run, &sims)?;
    let root = if group.root.is_empty() {
        "."
    } else {
        group.root.as_str()
    };
    let (domain, model) = run_names(&meta_path, &run, root, options, &mut c.warnings)?;
    let mut grading = Grading {
        file: group.root.clone(),
        git_commit: run.info.as_ref().and_then(|i| i.git_commit.clone()),
        ..Grading::default()
    };
    let mut mismatches: Vec<String> = Vec::new();
    for (path, stem) in sims {
        let entry = run
            .index
            .as_ref()
            .map(|index| index.get(stem).map(|(_, e)| e));
        if entry.is_some_and(|e| e.is_none()) {
            c.skipped.push(LineError {
                line: 0,
                message: format!(
                    "{path}: not in {meta_path}'s `simulation_index`, so not part of the run (τ²-bench's `Results.load` refuses such a folder); left out"
                ),
            });
            done += 1;
            progress(done, total);
            continue;
        }
        let entry = entry.flatten();
        let bytes = folder.read(path)?;
        done += 1;
        let parsed = crate::text::utf8(&bytes)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                serde_json::from_str::<Simulation<C>>(text.trim_start_matches('\u{feff}'))
                    .map_err(|e| json_error("a τ²-bench simulation", &e))
            });
        drop(bytes);
        let sim = match parsed {
            Ok(s) => s,
            Err(why) => {
                c.skipped.push(LineError {
                    line: 0,
                    message: format!("{path}: {why}"),
                });
                progress(done, total);
                continue;
            }
        };
        if let Some(why) = entry.and_then(|e| index_mismatch(e, &sim)) {
            mismatches.push(format!("{path}: {why}"));
        }
        if sim.id.as_deref().is_some_and(|id| id != stem) {
            mismatches.push(format!(
                "{path}: the file's simulation id is `{}`",
                sim.id.as_deref().unwrap_or_default()
            ));
        }
        grading.add(domain.as_deref(), &sim);
        let task = run.tasks.get(&sim.task_id);
        let gold = tau2::gold_actions(&sim, task);
        let t = tau2::into_trajectory(sim, gold, task, stem, &model, domain.clone());
        if let Err(why) = check_names(&t, false) {
            c.skipped.push(LineError {
                line: 0,
                message: format!("{path}: {why}"),
            });
        } else {
            c.trajectories.push(t);
        }
        progress(done, total);
    }
    if c.trajectories.is_empty() {
        return Err(match c.skipped.first() {
            Some(first) => format!(
                "no simulation could be read ({} file(s) skipped; first: {first})",
                c.skipped.len()
            ),
            None => format!("{meta_path}: the folder's `simulations/` has no simulation file"),
        });
    }
    if !mismatches.is_empty() {
        c.warnings.push(format!(
            "{} simulation file(s) disagree with {meta_path}'s `simulation_index` (the files are read): {}{}",
            mismatches.len(),
            mismatches[..mismatches.len().min(SHOWN_MISMATCHES)].join("; "),
            if mismatches.len() > SHOWN_MISMATCHES { "; …" } else { "" }
        ));
    }
    let unscored = c.trajectories.iter().filter(|t| t.reward.is_none()).count();
    if unscored > 0 {
        c.warnings
            .push(no_reward_warning(unscored, c.trajectories.len()));
    }
    if !grading.is_empty() {
        c.grading.push(grading);
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(file: &str, commit: Option<&str>, bases: &[(&str, &[&str])]) -> Grading {
        Grading {
            file: file.into(),
            git_commit: commit.map(String::from),
            reward_basis: bases
                .iter()
                .map(|(t, b)| {
                    (
                        (*t).to_string(),
                        b.iter().map(|x| (*x).to_string()).collect(),
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn grading_versions_are_compared_where_the_files_say() {
        // One version, or files that do not say: nothing.
        assert!(grading_warnings(&[
            g("a", Some("c1"), &[]),
            g("b", Some("c1"), &[]),
            g("c", None, &[])
        ])
        .is_empty());
        let w = grading_warnings(&[
            g("a.json", Some("c1"), &[("retail/1", &["DB"])]),
            g(
                "b.json",
                Some("c2"),
                &[("retail/1", &["DB", "COMMUNICATE"]), ("retail/2", &["DB"])],
            ),
            g("c.json", Some("c1"), &[("retail/2", &["DB"])]),
        ]);
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(
            w[0],
            "the τ²-bench files compared were run and graded by 2 different τ²-bench versions (`info.git_commit`): c1 (a.json, c.json), c2 (b.json); their rewards may not be comparable"
        );
        assert_eq!(
            w[1],
            "1 task(s) were graded on different reward bases (`reward_info.reward_basis`) in the files compared, so their rewards measure different things: retail/1: [DB] in a.json, [DB, COMMUNICATE] in b.json"
        );
    }
}
