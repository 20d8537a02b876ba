//! The comparison report: the runs (with their files and excluded
//! trajectories) and the paired statistics of
//! [`gapscope_stats::paired::compare_runs`] over them, in one
//! serializable value (docs/report.md, "Comparison report"; every number
//! defined in comparisons.md).

use gapscope_stats::paired::{compare_runs, PairRow, Ranks, RunSummary, Settings};
use serde::{Deserialize, Serialize};

use crate::runs::{build_runs, CompareError, ExcludedTrajectory, RunOptions, Source};

/// The report's schema name and version.
pub const SCHEMA: &str = "gapscope.compare/1";

/// One trial of a task in a run: its trajectory and its reward (after any
/// rescaling).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// The trajectory's id; `None` for a run a reader excluded (a Harbor
    /// infrastructure error) counted as a failure.
    pub id: Option<String>,
    pub reward: f64,
}

/// One task of a run: the task × run heatmap's cell and the trajectories
/// behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunTask {
    pub key: String,
    /// The mean reward of its trials (x̄_t).
    pub mean: f64,
    /// In trial order (the order of the rewards the statistics use).
    pub trials: Vec<Trial>,
}

/// One run in the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub name: String,
    /// The files its trajectories came from, in input order.
    pub files: Vec<String>,
    /// Trials per task: fewest and most.
    pub trials: [usize; 2],
    /// Its excluded trajectories, listed (counted in, as reward 0, when
    /// `excluded_as_failures`).
    pub excluded: Vec<ExcludedTrajectory>,
    /// The divisor applied to its rewards (100: a 0–100 run), or null.
    pub rescaled: Option<f64>,
    /// x̄, intervals, pass^k, pass@k, flip rate, ICC(1).
    pub summary: RunSummary,
    /// Its tasks, in task order.
    pub tasks: Vec<RunTask>,
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// [`SCHEMA`].
    pub schema: String,
    pub settings: Settings,
    /// Excluded trajectories counted as failures (reward 0).
    pub excluded_as_failures: bool,
    /// What the runs are keyed by: `model`, `file` or `field:NAME`.
    pub by: String,
    pub runs: Vec<RunReport>,
    /// Every pair of runs (a before b in run order), with Holm and BH
    /// adjusted p-values across the pairs.
    pub pairs: Vec<PairRow>,
    /// Bootstrap rank intervals over the tasks common to all runs.
    pub ranks: Ranks,
    /// What building the runs said (splits by file, rescaled rewards,
    /// runs left out).
    pub notes: Vec<String>,
}

impl CompareReport {
    /// The largest k of any run's pass^k table (the columns a runs table
    /// needs; 0 with no run).
    pub fn max_pass_k(&self) -> usize {
        self.runs
            .iter()
            .map(|run| run.summary.pass_hat.len())
            .max()
            .unwrap_or(0)
    }
}

/// Compare the runs of `src` (see [`crate::runs`] and comparisons.md).
pub fn compare(
    src: &Source,
    options: &RunOptions,
    settings: &Settings,
) -> Result<CompareReport, CompareError> {
    let built = build_runs(src, options)?;
    let named: Vec<(&str, &gapscope_stats::paired::Run)> = built
        .runs
        .iter()
        .map(|r| (r.name.as_str(), &r.run))
        .collect();
    let stats = compare_runs(&named, settings);
    let runs = built
        .runs
        .iter()
        .zip(stats.runs)
        .map(|(b, row)| {
            let trials = b.run.tasks().iter().map(|t| t.rewards.len());
            RunReport {
                name: b.name.clone(),
                files: b.files.clone(),
                trials: [trials.clone().min().unwrap_or(0), trials.max().unwrap_or(0)],
                excluded: b.excluded.clone(),
                rescaled: b.rescaled,
                summary: row.summary,
                tasks: run_tasks(b),
            }
        })
        .collect();
    Ok(CompareReport {
        schema: SCHEMA.into(),
        settings: stats.settings,
        excluded_as_failures: options.excluded_as_failures,
        by: match &options.by {
            crate::runs::RunKey::Model => "model".into(),
            crate::runs::RunKey::File => "file".into(),
            crate::runs::RunKey::Field(f) => format!("field:{f}"),
        },
        runs,
        pairs: stats.pairs,
        ranks: stats.ranks,
        notes: built.notes,
    })
}

/// The tasks of a built run with their trials' trajectories.
fn run_tasks(b: &crate::runs::BuiltRun) -> Vec<RunTask> {
    b.run
        .tasks()
        .iter()
        .zip(b.run.task_means())
        .map(|(t, mean)| {
            let ids = b.trajectories.get(&t.key);
            let trials = t
                .rewards
                .iter()
                .enumerate()
                .map(|(k, &reward)| Trial {
                    id: ids.and_then(|v| v.get(k).cloned().flatten()),
                    reward,
                })
                .collect();
            RunTask {
                key: t.key.clone(),
                mean,
                trials,
            }
        })
        .collect()
}
