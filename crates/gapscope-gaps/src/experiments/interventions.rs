//! Local content interventions (spec: realization-gaps.md, "Local content
//! interventions"; paper sections 4.3, B.6, D.5): branch runs from restored
//! checkpoints — the original continuation, the edited one and a
//! semantics-preserving control — compared case by case.
//!
//! A **case** is (checkpoint, model, intervention). An original or control
//! run that names no intervention serves every case of its (checkpoint,
//! model); the stratum is the edited branch's. A branch's score for a measure
//! (reward, or an operation) is 100 × the mean over its repetitions that have
//! a value (an operation: an applicable label). The three contrasts of a
//! case are differences of its branch scores; the tables summarize them per
//! model × intervention (× stratum), with a 95% cluster-bootstrap interval
//! over tasks ([`cluster_bootstrap_mean`]) where at least [`MIN_TASKS`]
//! tasks contribute, and *descriptive* (no interval) where fewer do.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_data::operations::{label_mean, labelled_operations};
use gapscope_data::trajectory::{several_domains, Branch, Trajectory};
use gapscope_stats::paired::{cluster_bootstrap_mean, BootInterval};

/// Fewer contributing tasks than this and a row is descriptive: shown, with
/// no interval (the paper's rule).
pub const MIN_TASKS: usize = 5;

/// A contrast or a reward difference counts as non-zero above this (0–100
/// scale).
pub const NONZERO: f64 = 1e-9;

/// The measure every case has: the task reward, 0–100.
pub const REWARD: &str = "reward";

/// One of a case's three differences of branch scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contrast {
    /// edited − original: what the edit did.
    EditedOriginal,
    /// control − original: what the surface rewrite alone did.
    ControlOriginal,
    /// edited − control: the edit with the surface change removed.
    EditedControl,
}

impl Contrast {
    pub const ALL: [Contrast; 3] = [
        Contrast::EditedOriginal,
        Contrast::ControlOriginal,
        Contrast::EditedControl,
    ];

    /// How the contrast is named to a person.
    pub fn label(self) -> &'static str {
        match self {
            Contrast::EditedOriginal => "edited − original",
            Contrast::ControlOriginal => "control − original",
            Contrast::EditedControl => "edited − control",
        }
    }

    /// The contrast of branch scores `[original, edited, control]`.
    pub fn of(self, [original, edited, control]: [Option<f64>; 3]) -> Option<f64> {
        let (a, b) = match self {
            Contrast::EditedOriginal => (edited, original),
            Contrast::ControlOriginal => (control, original),
            Contrast::EditedControl => (edited, control),
        };
        Some(a? - b?)
    }
}

/// One case: (checkpoint, model, intervention), its runs and branch scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub checkpoint: String,
    pub model: String,
    pub intervention: String,
    /// The edited branch's stratum, if it names one.
    pub stratum: Option<String>,
    /// The task the checkpoint belongs to (`domain/id` when the runs span
    /// several domains).
    pub task: String,
    /// Trajectory ids of each branch's repetitions.
    pub original: Vec<String>,
    pub edited: Vec<String>,
    pub control: Vec<String>,
    /// Per measure ([`Interventions::measures`]), the branch scores
    /// `[original, edited, control]` (0–100; `None`: the branch has no run
    /// with a value).
    pub scores: Vec<[Option<f64>; 3]>,
}

/// One row of a contrast table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContrastRow {
    pub model: String,
    pub intervention: String,
    /// `None` in the per-intervention table.
    pub stratum: Option<String>,
    pub measure: String,
    pub contrast: Contrast,
    /// Cases with both branch scores.
    pub cases: usize,
    /// Distinct tasks among them.
    pub tasks: usize,
    /// Mean contrast over the cases.
    pub mean: f64,
    /// Share of the cases whose contrast exceeds [`NONZERO`] in size.
    pub nonzero: f64,
    /// The 95% task-clustered bootstrap interval of the mean; `None` when
    /// descriptive.
    pub interval: Option<BootInterval>,
    /// Fewer than [`MIN_TASKS`] tasks: the mean is descriptive.
    pub descriptive: bool,
}

/// An edited repetition whose reward differs from its original branch's
/// mean reward.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RewardChange {
    pub checkpoint: String,
    pub model: String,
    pub intervention: String,
    pub task: String,
    /// The edited repetition.
    pub trajectory: String,
    pub trial: Option<i64>,
    /// Its reward, 0–100.
    pub reward: f64,
    /// The original branch's mean reward, 0–100.
    pub original_mean: f64,
    /// The original branch's trajectories, to open beside it.
    pub original: Vec<String>,
}

/// Everything the intervention view and `gapscope interventions` show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interventions {
    /// `reward`, then the operations the branch runs label.
    pub measures: Vec<String>,
    pub cases: Vec<Case>,
    /// Per model × intervention × measure × contrast.
    pub by_intervention: Vec<ContrastRow>,
    /// Per model × intervention × stratum × measure × contrast (cases whose
    /// edited branch names a stratum).
    pub by_stratum: Vec<ContrastRow>,
    pub reward_changes: Vec<RewardChange>,
    /// Bootstrap draws and seed of the intervals.
    pub bootstrap: usize,
    pub seed: u64,
}

/// Why the branch runs cannot be read as cases.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InterventionError {
    #[error("trajectory `{0}`: an edited branch names the `intervention` it applies")]
    EditedWithoutIntervention(String),
    #[error("case ({case}): its edited runs name two strata, `{a}` and `{b}` (trajectory `{id}`); a case has one")]
    Strata {
        /// `checkpoint `c`, model `m`, intervention `i``.
        case: String,
        a: String,
        b: String,
        id: String,
    },
    #[error("checkpoint `{checkpoint}`, model `{model}`: its runs are of two tasks, `{a}` and `{b}` (trajectory `{id}`); a checkpoint is a state of one task")]
    Tasks {
        checkpoint: String,
        model: String,
        a: String,
        b: String,
        id: String,
    },
    #[error("{0} bootstrap draws is more than the {max} the page and the CLI allow", max = crate::analysis::MAX_BOOTSTRAP)]
    Bootstrap(usize),
}

/// The runs of one (checkpoint, model), by branch, before they form cases.
#[derive(Default)]
struct Site<'a> {
    task: String,
    /// Runs naming no intervention: every case's.
    shared: [Vec<&'a Trajectory>; 3],
    /// Per intervention (in the order first seen), its own runs.
    own: IndexMap<&'a str, [Vec<&'a Trajectory>; 3]>,
}

fn slot(b: Branch) -> usize {
    match b {
        Branch::Original => 0,
        Branch::Edited => 1,
        Branch::Control => 2,
    }
}

/// 100 × the mean of a measure over runs that have a value.
fn branch_score(runs: &[&Trajectory], measure: &str) -> Option<f64> {
    let values: Vec<f64> = runs
        .iter()
        .filter_map(|t| {
            if measure == REWARD {
                t.reward
            } else {
                t.labels.get(measure).and_then(|l| label_mean(l))
            }
        })
        .collect();
    gapscope_stats::summary::mean(&values).map(|m| 100.0 * m)
}

/// The cases, contrast tables and reward changes of the trajectories that
/// name a `branch` (the others are not read). `bootstrap` draws from `seed`
/// for each row's interval.
pub fn interventions(
    trajectories: &[Trajectory],
    bootstrap: usize,
    seed: u64,
) -> Result<Interventions, InterventionError> {
    if bootstrap > crate::analysis::MAX_BOOTSTRAP {
        return Err(InterventionError::Bootstrap(bootstrap));
    }
    let runs: Vec<&Trajectory> = trajectories
        .iter()
        .filter(|t| t.branch.is_some() && t.checkpoint.is_some())
        .collect();
    let qualified = several_domains(runs.iter().copied());
    let mut sites: IndexMap<(&str, &str), Site<'_>> = IndexMap::new();
    for t in &runs {
        let (Some(checkpoint), Some(branch)) = (t.checkpoint.as_deref(), t.branch) else {
            continue;
        };
        let task = t.task_key().label(qualified);
        let site = sites
            .entry((checkpoint, t.model.as_str()))
            .or_insert_with(|| Site {
                task: task.clone(),
                ..Site::default()
            });
        if site.task != task {
            return Err(InterventionError::Tasks {
                checkpoint: checkpoint.into(),
                model: t.model.clone(),
                a: site.task.clone(),
                b: task,
                id: t.id.clone(),
            });
        }
        match t.intervention.as_deref() {
            Some(i) => site.own.entry(i).or_default()[slot(branch)].push(t),
            None if branch == Branch::Edited => {
                return Err(InterventionError::EditedWithoutIntervention(t.id.clone()))
            }
            None => site.shared[slot(branch)].push(t),
        }
    }
    let mut measures = vec![REWARD.to_string()];
    measures.extend(labelled_operations(runs.iter().copied()));
    let mut cases = Vec::new();
    let mut reward_changes = Vec::new();
    for ((checkpoint, model), site) in &sites {
        for (intervention, own) in &site.own {
            let branches: [Vec<&Trajectory>; 3] = std::array::from_fn(|b| {
                let mut v = site.shared[b].clone();
                v.extend(own[b].iter().copied());
                v
            });
            let mut stratum: Option<&str> = None;
            for t in &branches[1] {
                match (stratum, t.stratum.as_deref()) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(InterventionError::Strata {
                            case: format!("checkpoint `{checkpoint}`, model `{model}`, intervention `{intervention}`"),
                            a: a.into(),
                            b: b.into(),
                            id: t.id.clone(),
                        })
                    }
                    (None, Some(b)) => stratum = Some(b),
                    _ => {}
                }
            }
            let scores: Vec<[Option<f64>; 3]> = measures
                .iter()
                .map(|m| std::array::from_fn(|b| branch_score(&branches[b], m)))
                .collect();
            let ids = |b: usize| branches[b].iter().map(|t| t.id.clone()).collect::<Vec<_>>();
            if let Some(original_mean) = scores[0][0] {
                for t in &branches[1] {
                    let Some(r) = t.reward.map(|r| 100.0 * r) else {
                        continue;
                    };
                    if (r - original_mean).abs() > NONZERO {
                        reward_changes.push(RewardChange {
                            checkpoint: (*checkpoint).into(),
                            model: (*model).into(),
                            intervention: (*intervention).into(),
                            task: site.task.clone(),
                            trajectory: t.id.clone(),
                            trial: t.trial,
                            reward: r,
                            original_mean,
                            original: ids(0),
                        });
                    }
                }
            }
            cases.push(Case {
                checkpoint: (*checkpoint).into(),
                model: (*model).into(),
                intervention: (*intervention).into(),
                stratum: stratum.map(str::to_string),
                task: site.task.clone(),
                original: ids(0),
                edited: ids(1),
                control: ids(2),
                scores,
            });
        }
    }
    let by_intervention = table(&cases, &measures, false, bootstrap, seed);
    let by_stratum = table(&cases, &measures, true, bootstrap, seed);
    Ok(Interventions {
        measures,
        cases,
        by_intervention,
        by_stratum,
        reward_changes,
        bootstrap,
        seed,
    })
}

/// The rows of one contrast table: cases grouped by model × intervention
/// (× stratum, leaving out cases without one), in the order first seen.
fn table(
    cases: &[Case],
    measures: &[String],
    by_stratum: bool,
    bootstrap: usize,
    seed: u64,
) -> Vec<ContrastRow> {
    let mut groups: IndexMap<(&str, &str, Option<&str>), Vec<&Case>> = IndexMap::new();
    for c in cases {
        let stratum = if by_stratum {
            match c.stratum.as_deref() {
                Some(s) => Some(s),
                None => continue,
            }
        } else {
            None
        };
        groups
            .entry((c.model.as_str(), c.intervention.as_str(), stratum))
            .or_default()
            .push(c);
    }
    let mut rows = Vec::new();
    for ((model, intervention, stratum), group) in &groups {
        for (m, measure) in measures.iter().enumerate() {
            for contrast in Contrast::ALL {
                let deltas: Vec<(&str, f64)> = group
                    .iter()
                    .filter_map(|c| Some((c.task.as_str(), contrast.of(c.scores[m])?)))
                    .collect();
                if deltas.is_empty() {
                    continue;
                }
                let mut per_task: IndexMap<&str, (f64, usize)> = IndexMap::new();
                for &(task, d) in &deltas {
                    let e = per_task.entry(task).or_default();
                    e.0 += d;
                    e.1 += 1;
                }
                let n = deltas.len();
                let clusters: Vec<(f64, usize)> = per_task.values().copied().collect();
                let descriptive = clusters.len() < MIN_TASKS;
                rows.push(ContrastRow {
                    model: (*model).into(),
                    intervention: (*intervention).into(),
                    stratum: stratum.map(str::to_string),
                    measure: measure.clone(),
                    contrast,
                    cases: n,
                    tasks: clusters.len(),
                    mean: deltas.iter().map(|(_, d)| d).sum::<f64>() / n as f64,
                    nonzero: deltas.iter().filter(|(_, d)| d.abs() > NONZERO).count() as f64
                        / n as f64,
                    interval: if descriptive {
                        None
                    } else {
                        cluster_bootstrap_mean(&clusters, bootstrap, seed)
                    },
                    descriptive,
                });
            }
        }
    }
    rows
}
