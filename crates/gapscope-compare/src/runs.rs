//! Runs from trajectories (spec: comparisons.md, "Objects").
//!
//! A run is the set of trajectories a user treats as one system under test:
//! keyed by model (default), by file, or by a field ([`RunKey`]); runs can
//! be merged ([`Merge`]) and renamed. A task is (domain, task id), named
//! `domain/task` (sorted as that text); the trials of a task are draws
//! within it. When one run's trajectories come from several files that
//! repeat a (task, trial), the run is split by file and a note says so
//! (not a run the user merged: its repeats are more draws of their tasks).
//!
//! **Excluded** trajectories are left out of every denominator, counted
//! and listed per run: an infrastructure error (termination reason
//! `infrastructure_error`, τ²-bench's; `error`, an Inspect sample with an
//! error; a Harbor trial the reader excluded, [`gapscope_data::formats::Excluded`])
//! or an unscored one (no reward). With
//! [`RunOptions::excluded_as_failures`] each counts as reward 0 on its task
//! instead (a Harbor trial goes to the run of its model when the trial
//! names it and runs are keyed by model; by file, to its file's run;
//! otherwise to the run its file's trajectories all belong to, or to none,
//! said so).

use gapscope_data::formats::Excluded;
use gapscope_data::trajectory::Trajectory;
use gapscope_stats::paired::{rescale_rewards, Run, RunError, TaskDraws};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// Why runs could not be built.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CompareError {
    #[error("`--by {0}`: expected `model`, `file` or `field:NAME`")]
    Key(String),
    #[error("`--merge {0}`: expected `A,B=NAME` (the runs to merge, then the merged run's name)")]
    Merge(String),
    #[error("no scored trajectory to compare (every trajectory is excluded or unscored{0})")]
    Empty(String),
    #[error("run `{run}`: {source}")]
    Run {
        run: String,
        #[source]
        source: RunError,
    },
}

/// How trajectories are grouped into runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunKey {
    /// The model (after renames).
    #[default]
    Model,
    /// The file (or folder member) the trajectory was read from.
    File,
    /// A field of the trajectory ([`field_value`]).
    Field(String),
}

impl std::str::FromStr for RunKey {
    type Err = CompareError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "model" => Ok(RunKey::Model),
            "file" => Ok(RunKey::File),
            _ => match s.strip_prefix("field:") {
                Some(name) if !name.is_empty() => Ok(RunKey::Field(name.to_string())),
                _ => Err(CompareError::Key(s.to_string())),
            },
        }
    }
}

/// The fields a run can be keyed by besides model and file: these of
/// every trajectory, then any of its details (a label the reader gives,
/// e.g. an Inspect `task`, a Harbor `agent`), compared as text.
pub const FIELDS: &[&str] = &[
    "model",
    "family",
    "domain",
    "scenario_group",
    "termination_reason",
];

/// The value of field `name` of a trajectory (see [`FIELDS`]); a detail of
/// that label otherwise, as text; `None` when it has neither.
pub fn field_value(t: &Trajectory, name: &str) -> Option<String> {
    match name {
        "model" => Some(t.model.clone()),
        "family" => t.family.clone(),
        "domain" => t.domain.clone(),
        "scenario_group" => t.scenario_group.clone(),
        "termination_reason" => t.termination_reason.clone(),
        _ => t
            .details
            .iter()
            .find(|d| d.label == name)
            .map(|d| match &d.value {
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            }),
    }
}

/// Runs merged into one: `A,B=NAME`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Merge {
    pub from: Vec<String>,
    pub to: String,
}

impl std::str::FromStr for Merge {
    type Err = CompareError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (from, to) = s
            .rsplit_once('=')
            .ok_or_else(|| CompareError::Merge(s.to_string()))?;
        let from: Vec<String> = from
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(String::from)
            .collect();
        if from.is_empty() || to.trim().is_empty() {
            return Err(CompareError::Merge(s.to_string()));
        }
        Ok(Merge {
            from,
            to: to.trim().to_string(),
        })
    }
}

/// How runs are built.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    pub by: RunKey,
    pub merges: Vec<Merge>,
    /// Applied to the runs' names after keying and merging.
    pub renames: Vec<(String, String)>,
    /// Count excluded trajectories as reward 0 instead of leaving them out.
    pub excluded_as_failures: bool,
    /// Divide every reward by this (else the spec's rule: as is on [0, 1],
    /// or 0–100 divided by 100, else refused).
    pub scale: Option<f64>,
}

/// The trajectories to compare, with the file each came from
/// (`gapscope_data::ingest::Inputs` has all of these).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub trajectories: &'a [Trajectory],
    /// Per trajectory, an index into `files`.
    pub file_of: &'a [usize],
    pub files: &'a [String],
    /// Runs a reader excluded before they became trajectories (Harbor).
    pub excluded: &'a [Excluded],
    /// Per excluded run, an index into `files`.
    pub excluded_file: &'a [usize],
}

impl<'a> Source<'a> {
    /// The trajectories of read inputs, with their files (what the CLI's
    /// `gapscope compare` and the page's compare job both pass).
    pub fn of(inputs: &'a gapscope_data::ingest::Inputs) -> Source<'a> {
        Source {
            trajectories: &inputs.corpus.trajectories,
            file_of: &inputs.trajectory_file,
            files: &inputs.trajectory_files,
            excluded: &inputs.corpus.excluded,
            excluded_file: &inputs.excluded_file,
        }
    }
}

/// One excluded trajectory, as a run lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcludedTrajectory {
    pub id: String,
    pub task: String,
    /// `infrastructure error: …` or `unscored (no reward)`.
    pub reason: String,
}

/// One run, built.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltRun {
    pub name: String,
    /// The files its trajectories came from, in input order.
    pub files: Vec<String>,
    pub run: Run,
    /// Per task key, the id of each trial's trajectory, in the order of its
    /// rewards in `run` (`None`: a run a reader excluded, counted as a
    /// failure).
    pub trajectories: IndexMap<String, Vec<Option<String>>>,
    /// Its excluded trajectories (counted in with reward 0 when
    /// [`RunOptions::excluded_as_failures`]).
    pub excluded: Vec<ExcludedTrajectory>,
    /// The divisor applied to its rewards (100 for a 0–100 run), if any.
    pub rescaled: Option<f64>,
}

/// The runs, and what building them said.
#[derive(Clone, Debug, PartialEq)]
pub struct Runs {
    pub runs: Vec<BuiltRun>,
    pub notes: Vec<String>,
}

/// A task's name: `domain/task`.
pub fn task_name(t: &Trajectory) -> String {
    t.task_key().label(true)
}

/// Why a trajectory is excluded, if it is.
fn exclusion(t: &Trajectory) -> Option<String> {
    match t.termination_reason.as_deref() {
        Some("infrastructure_error") => {
            return Some("infrastructure error (termination reason infrastructure_error)".into())
        }
        Some("error") => return Some("infrastructure error (the sample has an error)".into()),
        _ => {}
    }
    t.reward.is_none().then(|| "unscored (no reward)".into())
}

/// One counted trajectory of a run while it is built.
struct Draw {
    task: String,
    reward: f64,
    file: usize,
    trial: Option<i64>,
    /// `None`: a run a reader excluded, counted as a failure.
    id: Option<String>,
}

/// A run while it is built.
#[derive(Default)]
struct Building {
    files: Vec<usize>,
    /// Each counted trajectory.
    draws: Vec<Draw>,
    /// Each excluded trajectory and its file.
    excluded: Vec<(ExcludedTrajectory, usize)>,
}

impl Building {
    fn file(&mut self, f: usize) {
        if !self.files.contains(&f) {
            self.files.push(f);
        }
    }
}

/// The run name of trajectory `i`, after merges.
fn key_of(src: &Source, i: usize, options: &RunOptions, missing: &mut usize) -> String {
    let t = &src.trajectories[i];
    let name = match &options.by {
        RunKey::Model => t.model.clone(),
        RunKey::File => src.files.get(src.file_of[i]).cloned().unwrap_or_default(),
        RunKey::Field(f) => field_value(t, f).unwrap_or_else(|| {
            *missing += 1;
            format!("(no {f})")
        }),
    };
    merged(&name, &options.merges)
}

fn merged(name: &str, merges: &[Merge]) -> String {
    merges
        .iter()
        .find(|m| m.from.iter().any(|f| f == name))
        .map_or_else(|| name.to_string(), |m| m.to.clone())
}

/// Group the trajectories into runs (see the module docs).
pub fn build_runs(src: &Source, options: &RunOptions) -> Result<Runs, CompareError> {
    let mut notes = Vec::new();
    let mut building: IndexMap<String, Building> = IndexMap::new();
    let mut missing = 0;
    for (i, t) in src.trajectories.iter().enumerate() {
        let name = key_of(src, i, options, &mut missing);
        let file = src.file_of.get(i).copied().unwrap_or(0);
        let b = building.entry(name).or_default();
        b.file(file);
        let reward = match exclusion(t) {
            None => t.reward,
            Some(reason) => {
                b.excluded.push((
                    ExcludedTrajectory {
                        id: t.id.clone(),
                        task: task_name(t),
                        reason,
                    },
                    file,
                ));
                options.excluded_as_failures.then_some(0.0)
            }
        };
        if let Some(r) = reward {
            b.draws.push(Draw {
                task: task_name(t),
                reward: r,
                file,
                trial: t.trial,
                id: Some(t.id.clone()),
            });
        }
    }
    if let RunKey::Field(f) = &options.by {
        if missing > 0 {
            notes.push(format!(
                "{missing} trajectories have no `{f}`: they form the run \"(no {f})\""
            ));
        }
    }
    assign_reader_excluded(src, options, &mut building, &mut notes);
    let building = split_repeating(building, src.files, &options.merges, &mut notes);
    let mut runs = Vec::with_capacity(building.len());
    for (name, b) in building {
        let name = options
            .renames
            .iter()
            .find(|(old, _)| *old == name)
            .map_or(name, |(_, new)| new.clone());
        let mut tasks: IndexMap<String, Vec<f64>> = IndexMap::new();
        let mut ids: IndexMap<String, Vec<Option<String>>> = IndexMap::new();
        for d in b.draws {
            tasks.entry(d.task.clone()).or_default().push(d.reward);
            ids.entry(d.task).or_default().push(d.id);
        }
        let files = b
            .files
            .iter()
            .filter_map(|f| src.files.get(*f).cloned())
            .collect();
        if tasks.is_empty() {
            notes.push(format!(
                "run `{name}`: no scored trajectory ({} excluded): left out of the comparison",
                b.excluded.len()
            ));
            continue;
        }
        let mut draws: Vec<TaskDraws> = tasks
            .into_iter()
            .map(|(key, rewards)| TaskDraws { key, rewards })
            .collect();
        let rescaled =
            rescale_rewards(&mut draws, options.scale).map_err(|source| CompareError::Run {
                run: name.clone(),
                source,
            })?;
        if let Some(d) = rescaled {
            notes.push(format!(
                "run `{name}`: rewards divided by {d} (a 0–{d} scale)"
            ));
        }
        let run = Run::new(draws).map_err(|source| CompareError::Run {
            run: name.clone(),
            source,
        })?;
        runs.push(BuiltRun {
            name,
            files,
            run,
            trajectories: ids,
            excluded: b.excluded.into_iter().map(|(e, _)| e).collect(),
            rescaled,
        });
    }
    if runs.is_empty() {
        let excluded: usize = src.trajectories.len() + src.excluded.len();
        return Err(CompareError::Empty(format!(": {excluded} read")));
    }
    Ok(Runs { runs, notes })
}

/// Runs a reader excluded before they became trajectories (Harbor):
/// listed in the run of their file (see the module docs).
fn assign_reader_excluded(
    src: &Source,
    options: &RunOptions,
    building: &mut IndexMap<String, Building>,
    notes: &mut Vec<String>,
) {
    let mut unassigned = 0;
    for (j, e) in src.excluded.iter().enumerate() {
        let file = src.excluded_file.get(j).copied().unwrap_or(0);
        let name = match (&options.by, &e.model) {
            (RunKey::File, _) => Some(merged(
                src.files.get(file).map_or("", String::as_str),
                &options.merges,
            )),
            (RunKey::Model, Some(model)) => Some(merged(model, &options.merges)),
            _ => {
                let mut of_file = building
                    .iter()
                    .filter(|(_, b)| b.files.contains(&file))
                    .map(|(n, _)| n.clone());
                match (of_file.next(), of_file.next()) {
                    (Some(n), None) => Some(n),
                    _ => None,
                }
            }
        };
        let Some(name) = name else {
            unassigned += 1;
            continue;
        };
        let b = building.entry(name).or_default();
        b.file(file);
        let task = if e.task.contains('/') {
            e.task.clone()
        } else {
            format!("{}/{}", gapscope_data::trajectory::UNKNOWN_DOMAIN, e.task)
        };
        b.excluded.push((
            ExcludedTrajectory {
                id: e.id.clone(),
                task: task.clone(),
                reason: format!("infrastructure error: {}", e.reason),
            },
            file,
        ));
        if options.excluded_as_failures {
            b.draws.push(Draw {
                task,
                reward: 0.0,
                file,
                trial: None,
                id: None,
            });
        }
    }
    if unassigned > 0 {
        notes.push(format!(
            "{unassigned} excluded run(s) (infrastructure errors read from a folder) belong to no single run: their file's trajectories are in several runs, or it has none; compare by file to list them"
        ));
    }
}

/// Split a run whose files repeat a (task, trial) into one run per file,
/// unless the user merged it (then the repeats are more draws of their
/// tasks, as asked).
fn split_repeating(
    building: IndexMap<String, Building>,
    files: &[String],
    merges: &[Merge],
    notes: &mut Vec<String>,
) -> IndexMap<String, Building> {
    let mut out = IndexMap::new();
    for (name, b) in building {
        let merged = merges.iter().any(|m| m.to == name);
        let repeats = !merged && b.files.len() > 1 && {
            let mut seen: std::collections::HashMap<(&str, i64), usize> = Default::default();
            b.draws.iter().any(|d| {
                d.trial
                    .is_some_and(|k| *seen.entry((d.task.as_str(), k)).or_insert(d.file) != d.file)
            })
        };
        if !repeats {
            out.insert(name, b);
            continue;
        }
        notes.push(format!(
            "run `{name}`: its {} files repeat (task, trial) pairs, so it is split by file",
            b.files.len()
        ));
        let mut parts: IndexMap<usize, Building> = IndexMap::new();
        for f in &b.files {
            parts.entry(*f).or_default().file(*f);
        }
        for d in b.draws {
            parts.entry(d.file).or_default().draws.push(d);
        }
        for e in b.excluded {
            parts.entry(e.1).or_default().excluded.push(e);
        }
        for (f, part) in parts {
            let file = files.get(f).map_or("?", String::as_str);
            out.insert(format!("{name} [{file}]"), part);
        }
    }
    out
}
