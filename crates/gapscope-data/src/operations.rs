//! Operation profiles from trajectory labels (0 / 0.5 / 1 / null; spec:
//! realization-gaps.md, "Operation scores from trajectory labels"): scores,
//! eligible counts and reward per model on the common-task subset.

use serde::{Deserialize, Serialize};

use crate::profile::{csv_field, Block, MacroDefinition, ProfileTable};
use crate::trajectory::{several_domains, TaskKey, Trajectory};

/// Options of [`operation_profile`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileOptions {
    /// Use every task, not only those every model attempted.
    pub all_tasks: bool,
    pub macro_definition: MacroDefinition,
    /// Operation order; default: the spec's seven where present, then the
    /// others in order of first appearance.
    pub operations: Option<Vec<String>>,
}

/// Operation scores, eligible counts and reward per model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationProfile {
    pub models: Vec<String>,
    /// The family each model's trajectories name (first seen), if any.
    pub families: Vec<Option<String>>,
    pub operations: Vec<String>,
    /// `scores[model][op]`, 0–100; `None` when no trajectory was eligible.
    pub scores: Vec<Vec<Option<f64>>>,
    /// `eligible[model][op]`: trajectories with at least one applicable label.
    pub eligible: Vec<Vec<usize>>,
    /// Mean reward × 100 over the model's trajectories in the subset.
    pub reward: Vec<Option<f64>>,
    /// The macro score under `macro_definition`.
    pub macro_score: Vec<Option<f64>>,
    pub macro_definition: MacroDefinition,
    /// The pooled macro score, whatever `macro_definition` is (the analysis
    /// may ask for it).
    #[serde(default)]
    pub pooled_macro: Vec<Option<f64>>,
    /// Trajectories per model in the subset.
    pub trajectories: Vec<usize>,
    /// The tasks used (the common-task subset unless `all_tasks`).
    pub tasks: Vec<String>,
    pub common_tasks_only: bool,
    /// Trajectories in the corpus and in the subset.
    pub n_total: usize,
    pub n_used: usize,
    /// Trajectories of experiments beside the corpus (they name a
    /// `checkpoint`), not in `n_total`: the intervention and continuation
    /// tables read them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub n_experiment: usize,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The mean of a trajectory's applicable labels for one operation.
pub fn label_mean(labels: &[Option<f64>]) -> Option<f64> {
    let v: Vec<f64> = labels.iter().flatten().copied().collect();
    gapscope_stats::summary::mean(&v)
}

/// The trajectories an operation profile is computed from: the models in
/// order, the tasks (labels), the trajectories on those tasks, the operations.
struct Subset<'a> {
    models: Vec<String>,
    tasks: Vec<String>,
    used: Vec<&'a Trajectory>,
    operations: Vec<String>,
}

fn subset<'a>(all: &'a [Trajectory], options: &ProfileOptions) -> Subset<'a> {
    // An experiment's runs (a `checkpoint`) are not the corpus's.
    let trajectories: Vec<&'a Trajectory> = all.iter().filter(|t| !t.is_experiment()).collect();
    let models: Vec<String> = gapscope_stats::heldout::reference::distinct_in_order(
        &trajectories
            .iter()
            .map(|t| t.model.clone())
            .collect::<Vec<_>>(),
    )
    .into_iter()
    .cloned()
    .collect();
    // Tasks are (domain, task id): airline `32` is not retail `32`.
    let mut all_tasks: Vec<TaskKey<'_>> = Vec::new();
    let mut seen_tasks: std::collections::HashSet<TaskKey<'_>> = Default::default();
    for t in &trajectories {
        if seen_tasks.insert(t.task_key()) {
            all_tasks.push(t.task_key());
        }
    }
    let tasks: Vec<TaskKey<'_>> = if options.all_tasks {
        all_tasks
    } else {
        // Models per task, counted once per (model, task) pair.
        let pairs: std::collections::HashSet<(&str, TaskKey<'_>)> = trajectories
            .iter()
            .map(|t| (t.model.as_str(), t.task_key()))
            .collect();
        let mut per_task: std::collections::HashMap<TaskKey<'_>, usize> = Default::default();
        for (_, task) in &pairs {
            *per_task.entry(*task).or_default() += 1;
        }
        all_tasks
            .into_iter()
            .filter(|task| per_task.get(task) == Some(&models.len()))
            .collect()
    };
    let task_set: std::collections::HashSet<TaskKey<'_>> = tasks.iter().copied().collect();
    let used: Vec<&Trajectory> = trajectories
        .iter()
        .copied()
        .filter(|t| task_set.contains(&t.task_key()))
        .collect();
    let qualified = several_domains(trajectories.iter().copied());
    let tasks: Vec<String> = tasks.iter().map(|k| k.label(qualified)).collect();
    let operations = options
        .operations
        .clone()
        .unwrap_or_else(|| labelled_operations(trajectories.iter().copied()));
    Subset {
        models,
        tasks,
        used,
        operations,
    }
}

/// `s(t,k)` of every eligible trajectory of `mine` for operation `op`.
fn samples_of(mine: &[&&Trajectory], op: &str) -> Vec<f64> {
    mine.iter()
        .filter_map(|t| t.labels.get(op).and_then(|l| label_mean(l)))
        .collect()
}

/// Each trajectory's mean of all its applicable labels across `operations`
/// (those with at least one): the pooled macro's per-trajectory values.
fn pooled_of(mine: &[&&Trajectory], operations: &[String]) -> Vec<f64> {
    mine.iter()
        .filter_map(|t| {
            let all: Vec<Option<f64>> = operations
                .iter()
                .filter_map(|op| t.labels.get(op))
                .flatten()
                .copied()
                .collect();
            label_mean(&all)
        })
        .collect()
}

/// The per-trajectory values behind an operation profile (its bootstrap
/// resamples them): `s(t,k)` of each model's eligible trajectories per
/// operation, and the pooled macro's per-trajectory values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OperationSamples {
    pub models: Vec<String>,
    pub operations: Vec<String>,
    /// `s[model][op]`: one value (0–1) per eligible trajectory.
    pub s: Vec<Vec<Vec<f64>>>,
    /// `pooled[model]`: one value (0–1) per trajectory with an applicable label.
    pub pooled: Vec<Vec<f64>>,
}

/// The operations the trajectories label, the paper's five first (in their
/// order), then the others in the order first seen.
pub fn labelled_operations<'a>(
    trajectories: impl IntoIterator<Item = &'a Trajectory>,
) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for t in trajectories {
        for op in t.labels.keys() {
            if !seen.contains(op) {
                seen.push(op.clone());
            }
        }
    }
    let mut ordered: Vec<String> = crate::profile::DEFAULT_OPERATIONS
        .iter()
        .filter(|d| seen.iter().any(|s| s == *d))
        .map(std::string::ToString::to_string)
        .collect();
    ordered.extend(
        seen.into_iter()
            .filter(|s| !crate::profile::DEFAULT_OPERATIONS.contains(&s.as_str())),
    );
    ordered
}

/// The samples of [`operation_profile`] with the same `options`: its
/// scores are 100 × the means of these.
pub fn operation_samples(
    trajectories: &[Trajectory],
    options: &ProfileOptions,
) -> OperationSamples {
    let sub = subset(trajectories, options);
    let mut s = Vec::with_capacity(sub.models.len());
    let mut pooled = Vec::with_capacity(sub.models.len());
    for m in &sub.models {
        let mine: Vec<&&Trajectory> = sub.used.iter().filter(|t| &t.model == m).collect();
        s.push(
            sub.operations
                .iter()
                .map(|op| samples_of(&mine, op))
                .collect(),
        );
        pooled.push(pooled_of(&mine, &sub.operations));
    }
    OperationSamples {
        models: sub.models,
        operations: sub.operations,
        s,
        pooled,
    }
}

/// Compute the operation profile of every model (spec section 3.2).
pub fn operation_profile(
    trajectories: &[Trajectory],
    options: &ProfileOptions,
) -> OperationProfile {
    let Subset {
        models,
        tasks,
        used,
        operations,
    } = subset(trajectories, options);
    let n_experiment = trajectories.iter().filter(|t| t.is_experiment()).count();
    let mut scores = Vec::new();
    let mut eligible = Vec::new();
    let mut reward = Vec::new();
    let mut macro_score = Vec::new();
    let mut pooled_macro = Vec::new();
    let mut families = Vec::new();
    let mut counts = Vec::new();
    for m in &models {
        let mine: Vec<&&Trajectory> = used.iter().filter(|t| &t.model == m).collect();
        families.push(
            trajectories
                .iter()
                .find(|t| &t.model == m)
                .and_then(|t| t.family.clone()),
        );
        counts.push(mine.len());
        let mut row = Vec::new();
        let mut elig = Vec::new();
        for op in &operations {
            let s = samples_of(&mine, op);
            elig.push(s.len());
            row.push(gapscope_stats::summary::mean(&s).map(|v| 100.0 * v));
        }
        let rewards: Vec<f64> = mine.iter().filter_map(|t| t.reward).collect();
        reward.push(gapscope_stats::summary::mean(&rewards).map(|v| 100.0 * v));
        let mean_macro = {
            let v: Option<Vec<f64>> = row.iter().copied().collect();
            v.and_then(|v| gapscope_stats::summary::mean(&v))
        };
        let pooled =
            gapscope_stats::summary::mean(&pooled_of(&mine, &operations)).map(|v| 100.0 * v);
        macro_score.push(match options.macro_definition {
            MacroDefinition::Mean => mean_macro,
            MacroDefinition::Pooled => pooled,
        });
        pooled_macro.push(pooled);
        scores.push(row);
        eligible.push(elig);
    }
    OperationProfile {
        models,
        families,
        operations,
        scores,
        eligible,
        reward,
        macro_score,
        macro_definition: options.macro_definition,
        pooled_macro,
        trajectories: counts,
        n_total: trajectories.len() - n_experiment,
        n_experiment,
        n_used: used.len(),
        tasks,
        common_tasks_only: !options.all_tasks,
    }
}

impl OperationProfile {
    /// As a profile table (operations and reward; no foundational columns):
    /// join it with a foundational profile file to run the realization analysis.
    /// A model whose trajectories name no family gets the family `unknown`.
    pub fn to_table(&self) -> ProfileTable {
        ProfileTable {
            models: self.models.clone(),
            families: self
                .families
                .iter()
                .map(|f| {
                    f.clone()
                        .unwrap_or_else(|| crate::join::UNKNOWN_FAMILY.into())
                })
                .collect(),
            foundational: Block {
                names: Vec::new(),
                values: vec![Vec::new(); self.models.len()],
            },
            operations: Block {
                names: self.operations.clone(),
                values: self.scores.clone(),
            },
            reward: Some(self.reward.clone()),
            outcome_column: Some("reward".into()),
            reward_scaled: false,
            ignored: Vec::new(),
            pooled_macro: Some(self.pooled_macro.clone()),
        }
    }

    /// The profile as CSV: model, family, each operation, its eligible count
    /// (`n_OP`, an ignored column when read back), reward.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("model,family");
        for op in &self.operations {
            out.push_str(&format!(",{}", csv_field(op)));
        }
        for op in &self.operations {
            out.push_str(&format!(",{}", csv_field(&format!("n_{op}"))));
        }
        out.push_str(",reward\n");
        for i in 0..self.models.len() {
            let cell = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "{},{}",
                csv_field(&self.models[i]),
                csv_field(
                    &self.families[i]
                        .clone()
                        .unwrap_or_else(|| crate::join::UNKNOWN_FAMILY.into())
                )
            ));
            for v in &self.scores[i] {
                out.push_str(&format!(",{}", cell(*v)));
            }
            for n in &self.eligible[i] {
                out.push_str(&format!(",{n}"));
            }
            out.push_str(&format!(",{}\n", cell(self.reward[i])));
        }
        out
    }
}
