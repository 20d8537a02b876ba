//! The input model: a run's scored trials per task, validated and sorted.

use serde::{Deserialize, Serialize};

/// A reward at least this high is a success (`x ≥ 1 − 1e-6`).
pub const SUCCESS_THRESHOLD: f64 = 1.0 - 1e-6;

/// One task's scored trials in one run.
///
/// `key` is the task's identity as text (e.g. the (task set, task id) pair
/// joined by the caller); tasks are ordered by it as text (byte order of
/// UTF-8, which is Python's code-point order of `str`). `rewards` holds one
/// value per scored trial, in trial order; excluded trajectories are left
/// out by the caller (or passed as 0 under "count excluded as failures").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskDraws {
    pub key: String,
    pub rewards: Vec<f64>,
}

/// An input that cannot be compared, with the task, the trial (0-based) and
/// the offending value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunError {
    #[error(
        "task `{task}` trial {trial}: reward {value} is outside [0, 1] (rescale the run first)"
    )]
    OutOfUnit {
        task: String,
        trial: usize,
        value: f64,
    },
    #[error("task `{task}` trial {trial}: reward {value} is outside both [0, 1] and [0, 100]; give the rewards' scale")]
    UnknownScale {
        task: String,
        trial: usize,
        value: f64,
    },
    #[error("task `{task}` trial {trial}: reward {value} divided by the given scale {scale} is outside [0, 1]")]
    OutOfGivenScale {
        task: String,
        trial: usize,
        value: f64,
        scale: f64,
    },
    #[error("the reward scale must be a finite number greater than 0, got {0}")]
    InvalidScale(f64),
    #[error("task `{0}` has no scored trial")]
    EmptyTask(String),
    #[error("task `{0}` is given twice; pass its trials as one task")]
    DuplicateTask(String),
    #[error("{0} tasks are more than the u32 unit indices of the bootstrap allow")]
    TooManyTasks(usize),
}

fn first_outside(tasks: &[TaskDraws], hi: f64) -> Option<(String, usize, f64)> {
    tasks.iter().find_map(|t| {
        t.rewards
            .iter()
            .position(|x| !(0.0..=hi).contains(x))
            .map(|j| (t.key.clone(), j, t.rewards[j]))
    })
}

/// Puts a run's rewards on [0, 1] (spec, "Objects"): with `scale = None`,
/// rewards all in [0, 1] stay as they are, else rewards all in [0, 100] are
/// divided by 100, else the run is refused naming the first value (in the
/// order given) outside [0, 100]. With `scale = Some(s)` every reward is
/// divided by `s`, and a result outside [0, 1] is refused.
///
/// Returns the divisor applied (`None`: the rewards were left as they are),
/// so the report can say that it rescaled. NaN is outside every range.
pub fn rescale_rewards(
    tasks: &mut [TaskDraws],
    scale: Option<f64>,
) -> Result<Option<f64>, RunError> {
    let divisor = if let Some(s) = scale {
        if !(s.is_finite() && s > 0.0) {
            return Err(RunError::InvalidScale(s));
        }
        let bad = tasks.iter().find_map(|t| {
            t.rewards
                .iter()
                .position(|x| !(0.0..=1.0).contains(&(x / s)))
                .map(|j| (t.key.clone(), j, t.rewards[j]))
        });
        if let Some((task, trial, value)) = bad {
            return Err(RunError::OutOfGivenScale {
                task,
                trial,
                value,
                scale: s,
            });
        }
        s
    } else {
        if first_outside(tasks, 1.0).is_none() {
            return Ok(None);
        }
        if let Some((task, trial, value)) = first_outside(tasks, 100.0) {
            return Err(RunError::UnknownScale { task, trial, value });
        }
        100.0
    };
    for t in tasks.iter_mut() {
        for x in &mut t.rewards {
            *x /= divisor;
        }
    }
    Ok(Some(divisor))
}

/// One run, validated: every reward in [0, 1], every task with at least one
/// trial, keys distinct, tasks sorted by key as text. Per-task sums and
/// success counts are computed once.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    tasks: Vec<TaskDraws>,
    sums: Vec<f64>,
    successes: Vec<usize>,
}

impl Run {
    /// Validates and sorts. Errors name the first offending task (in the
    /// order given) and value; rewards on 0–100 need [`rescale_rewards`]
    /// first.
    pub fn new(mut tasks: Vec<TaskDraws>) -> Result<Run, RunError> {
        if u32::try_from(tasks.len()).is_err() {
            return Err(RunError::TooManyTasks(tasks.len()));
        }
        if let Some(t) = tasks.iter().find(|t| t.rewards.is_empty()) {
            return Err(RunError::EmptyTask(t.key.clone()));
        }
        if let Some((task, trial, value)) = first_outside(&tasks, 1.0) {
            return Err(RunError::OutOfUnit { task, trial, value });
        }
        tasks.sort_by(|a, b| a.key.cmp(&b.key));
        if let Some(w) = tasks.windows(2).find(|w| w[0].key == w[1].key) {
            return Err(RunError::DuplicateTask(w[0].key.clone()));
        }
        let sums = tasks.iter().map(|t| t.rewards.iter().sum()).collect();
        let successes = tasks
            .iter()
            .map(|t| {
                t.rewards
                    .iter()
                    .filter(|&&x| x >= SUCCESS_THRESHOLD)
                    .count()
            })
            .collect();
        Ok(Run {
            tasks,
            sums,
            successes,
        })
    }

    /// The tasks, sorted by key.
    pub fn tasks(&self) -> &[TaskDraws] {
        &self.tasks
    }

    /// Number of tasks (n).
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the run has no task.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Number of scored trajectories (N).
    pub fn trajectories(&self) -> usize {
        self.tasks.iter().map(|t| t.rewards.len()).sum()
    }

    /// Σ rewards of task `i` (in trial order).
    pub(crate) fn sum(&self, i: usize) -> f64 {
        self.sums[i]
    }

    /// Trials of task `i` (k_t ≥ 1).
    pub(crate) fn trials(&self, i: usize) -> usize {
        self.tasks[i].rewards.len()
    }

    /// Successes of task `i` (c_t).
    pub(crate) fn successes(&self, i: usize) -> usize {
        self.successes[i]
    }

    /// The trial mean x̄_t of each task, in task order.
    pub fn task_means(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.tasks.len()).map(|i| self.task_mean(i))
    }

    /// Trial mean of task `i`.
    pub(crate) fn task_mean(&self, i: usize) -> f64 {
        self.sums[i] / self.trials(i) as f64
    }
}

/// A task's draws, for the tests of the paired modules.
#[cfg(test)]
pub(crate) fn t(key: &str, rewards: &[f64]) -> TaskDraws {
    TaskDraws {
        key: key.into(),
        rewards: rewards.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rescale_rule() {
        let mut unit = vec![t("a", &[0.0, 1.0]), t("b", &[0.5])];
        assert_eq!(rescale_rewards(&mut unit, None), Ok(None));
        assert_eq!(unit[1].rewards, vec![0.5]);

        let mut pct = vec![t("a", &[0.0, 100.0]), t("b", &[50.0])];
        assert_eq!(rescale_rewards(&mut pct, None), Ok(Some(100.0)));
        assert_eq!(pct[0].rewards, vec![0.0, 1.0]);
        assert_eq!(pct[1].rewards, vec![0.5]);

        let mut bad = vec![t("a", &[0.0, 50.0]), t("b", &[120.0, 130.0])];
        assert_eq!(
            rescale_rewards(&mut bad, None),
            Err(RunError::UnknownScale {
                task: "b".into(),
                trial: 0,
                value: 120.0
            })
        );
        // Refused runs are left untouched.
        assert_eq!(bad[0].rewards, vec![0.0, 50.0]);
        assert_eq!(rescale_rewards(&mut bad, Some(200.0)), Ok(Some(200.0)));
        assert_eq!(bad[1].rewards, vec![0.6, 0.65]);

        let mut neg = vec![t("a", &[-0.5])];
        assert!(matches!(
            rescale_rewards(&mut neg, None),
            Err(RunError::UnknownScale { value, .. }) if value == -0.5
        ));
        let mut nan = vec![t("a", &[f64::NAN])];
        assert!(rescale_rewards(&mut nan, None).is_err());
        assert_eq!(
            rescale_rewards(&mut unit, Some(0.0)),
            Err(RunError::InvalidScale(0.0))
        );
        let mut over = vec![t("a", &[3.0])];
        assert!(matches!(
            rescale_rewards(&mut over, Some(2.0)),
            Err(RunError::OutOfGivenScale { trial: 0, .. })
        ));
    }

    #[test]
    fn validation_and_order() {
        let r = Run::new(vec![t("b", &[1.0, 0.0]), t("a", &[0.25]), t("B", &[1.0])]).unwrap();
        let keys: Vec<&str> = r.tasks().iter().map(|t| t.key.as_str()).collect();
        // Text order: uppercase before lowercase, as Python's sorted().
        assert_eq!(keys, ["B", "a", "b"]);
        assert_eq!((r.len(), r.trajectories()), (3, 4));
        assert_eq!((r.sum(2), r.trials(2), r.successes(2)), (1.0, 2, 1));
        assert_eq!(r.task_mean(1), 0.25);
        assert_eq!(
            Run::new(vec![t("a", &[1.0]), t("a", &[0.0])]),
            Err(RunError::DuplicateTask("a".into()))
        );
        assert_eq!(
            Run::new(vec![t("a", &[])]),
            Err(RunError::EmptyTask("a".into()))
        );
        assert!(matches!(
            Run::new(vec![t("a", &[0.5, 1.5])]),
            Err(RunError::OutOfUnit { trial: 1, .. })
        ));
        // Success threshold: 1 − 1e-6 counts, just below does not.
        let s = Run::new(vec![t("a", &[1.0 - 1e-6, 1.0 - 2e-6])]).unwrap();
        assert_eq!(s.successes(0), 1);
        assert!(Run::new(Vec::new()).unwrap().is_empty());
    }
}
