//! Shared-initial-state continuations (spec: realization-gaps.md,
//! "Shared-initial-state continuations"; paper sections B.7, D.6, Tables 7
//! and 15): several models continue from the same restored state, each run
//! checked for constraint violations.
//!
//! A continuation is a trajectory with a `checkpoint` and no `branch`; its
//! steps are its assistant messages (the restored state is not in its
//! messages); it is *scoreable* when it carries `violations` (an empty list:
//! checked, none found).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_data::trajectory::Trajectory;

/// Table 7's row for one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// The round (`None`: runs that name none).
    pub round: Option<String>,
    /// Distinct checkpoints.
    pub states: usize,
    /// The most repetitions of one (checkpoint, model, condition).
    pub repeats: usize,
    /// The most steps of one continuation.
    pub steps: usize,
    /// Continuations.
    pub runs: usize,
    /// Of them, scoreable.
    pub scoreable: usize,
}

/// One (round, condition) of a checkpoint × model row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationCell {
    /// Scoreable repetitions with at least one violation.
    pub violated: usize,
    /// Scoreable repetitions.
    pub scoreable: usize,
    /// Violations in at least 2 repetitions.
    pub repeated: bool,
    /// The scoreable repetitions' trajectory ids (violated first, then the
    /// others, each in input order).
    pub trajectories: Vec<String>,
}

/// Table 15's row: one (checkpoint, model).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationRow {
    pub checkpoint: String,
    pub model: String,
    /// One cell per [`Continuations::columns`] entry.
    pub cells: Vec<ViolationCell>,
    /// Some (round, condition) has violations in at least 2 repetitions.
    pub repeated: bool,
}

/// Later reversals of one model (and condition, or all conditions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reversal {
    pub model: String,
    /// Every condition pooled (then `condition` is `None`).
    pub pooled: bool,
    /// The condition (`None` when pooled, or for runs that name none).
    pub condition: Option<String>,
    /// Scoreable continuations with ≥ 2 steps and no violation at step 1.
    pub eligible: usize,
    /// Of them, those with a violation at a later step.
    pub reversals: usize,
    /// `reversals / eligible`; `None` when nothing is eligible.
    pub share: Option<f64>,
    /// The reversing continuations.
    pub trajectories: Vec<String>,
}

/// A (round, condition) column of the violations table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    pub round: Option<String>,
    pub condition: Option<String>,
}

/// Everything the continuation view and `gapscope continuations` show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Continuations {
    /// Table 7, one row per round in the order first seen.
    pub coverage: Vec<Coverage>,
    /// The violations table's columns, rounds then conditions in the order
    /// first seen.
    pub columns: Vec<Column>,
    /// Table 15, one row per (checkpoint, model) in the order first seen.
    pub violations: Vec<ViolationRow>,
    /// Per model: every condition pooled, then each condition.
    pub reversals: Vec<Reversal>,
}

fn violated(t: &Trajectory) -> bool {
    t.violations.as_ref().is_some_and(|v| !v.is_empty())
}

/// The tables of the trajectories that name a `checkpoint` and no `branch`
/// (the others are not read).
pub fn continuations(trajectories: &[Trajectory]) -> Continuations {
    let runs: Vec<&Trajectory> = trajectories
        .iter()
        .filter(|t| t.checkpoint.is_some() && t.branch.is_none())
        .collect();
    Continuations {
        coverage: coverage(&runs),
        columns: columns(&runs),
        violations: violation_rows(&runs),
        reversals: reversals(&runs),
    }
}

fn coverage(runs: &[&Trajectory]) -> Vec<Coverage> {
    let mut rounds: IndexMap<Option<&str>, Vec<&Trajectory>> = IndexMap::new();
    for t in runs {
        rounds.entry(t.round.as_deref()).or_default().push(t);
    }
    rounds
        .into_iter()
        .map(|(round, ts)| {
            let mut states: Vec<&str> = ts.iter().filter_map(|t| t.checkpoint.as_deref()).collect();
            states.sort_unstable();
            states.dedup();
            let mut repeats: IndexMap<(Option<&str>, &str, Option<&str>), usize> = IndexMap::new();
            for t in &ts {
                *repeats
                    .entry((
                        t.checkpoint.as_deref(),
                        t.model.as_str(),
                        t.condition.as_deref(),
                    ))
                    .or_default() += 1;
            }
            Coverage {
                round: round.map(str::to_string),
                states: states.len(),
                repeats: repeats.values().copied().max().unwrap_or(0),
                steps: ts
                    .iter()
                    .map(|t| t.message_stats().assistant)
                    .max()
                    .unwrap_or(0),
                runs: ts.len(),
                scoreable: ts.iter().filter(|t| t.violations.is_some()).count(),
            }
        })
        .collect()
}

fn columns(runs: &[&Trajectory]) -> Vec<Column> {
    let mut rounds: Vec<Option<&str>> = Vec::new();
    let mut conditions: Vec<Option<&str>> = Vec::new();
    for t in runs {
        if !rounds.contains(&t.round.as_deref()) {
            rounds.push(t.round.as_deref());
        }
        if !conditions.contains(&t.condition.as_deref()) {
            conditions.push(t.condition.as_deref());
        }
    }
    let present: std::collections::HashSet<(Option<&str>, Option<&str>)> = runs
        .iter()
        .map(|t| (t.round.as_deref(), t.condition.as_deref()))
        .collect();
    rounds
        .iter()
        .flat_map(|r| conditions.iter().map(move |c| (*r, *c)))
        .filter(|k| present.contains(k))
        .map(|(round, condition)| Column {
            round: round.map(str::to_string),
            condition: condition.map(str::to_string),
        })
        .collect()
}

fn violation_rows(runs: &[&Trajectory]) -> Vec<ViolationRow> {
    let columns = columns(runs);
    let mut rows: IndexMap<(&str, &str), Vec<&Trajectory>> = IndexMap::new();
    for t in runs {
        if let Some(c) = t.checkpoint.as_deref() {
            rows.entry((c, t.model.as_str())).or_default().push(t);
        }
    }
    rows.into_iter()
        .map(|((checkpoint, model), ts)| {
            let cells: Vec<ViolationCell> = columns
                .iter()
                .map(|col| {
                    let scoreable: Vec<&&Trajectory> = ts
                        .iter()
                        .filter(|t| {
                            t.violations.is_some()
                                && t.round == col.round
                                && t.condition == col.condition
                        })
                        .collect();
                    let (bad, good): (Vec<&&Trajectory>, Vec<&&Trajectory>) =
                        scoreable.iter().partition(|t| violated(t));
                    ViolationCell {
                        violated: bad.len(),
                        scoreable: scoreable.len(),
                        repeated: bad.len() >= 2,
                        trajectories: bad.iter().chain(&good).map(|t| t.id.clone()).collect(),
                    }
                })
                .collect();
            ViolationRow {
                checkpoint: checkpoint.into(),
                model: model.into(),
                repeated: cells.iter().any(|c| c.repeated),
                cells,
            }
        })
        .collect()
}

/// (model, condition): `None` pools the conditions; `Some(None)` is the runs
/// that name none.
type ReversalKey<'a> = (&'a str, Option<Option<&'a str>>);

fn reversals(runs: &[&Trajectory]) -> Vec<Reversal> {
    // (model, condition) → eligible count and the reversing ids.
    let mut by: IndexMap<ReversalKey<'_>, (usize, Vec<String>)> = IndexMap::new();
    let mut models: Vec<&str> = Vec::new();
    let mut conditions: Vec<Option<&str>> = Vec::new();
    for t in runs {
        if !models.contains(&t.model.as_str()) {
            models.push(&t.model);
        }
        if !conditions.contains(&t.condition.as_deref()) {
            conditions.push(t.condition.as_deref());
        }
    }
    for m in &models {
        by.insert((m, None), (0, Vec::new()));
        for c in &conditions {
            if runs
                .iter()
                .any(|t| t.model == *m && t.condition.as_deref() == *c)
            {
                by.insert((m, Some(*c)), (0, Vec::new()));
            }
        }
    }
    for t in runs {
        let Some(v) = &t.violations else { continue };
        if t.message_stats().assistant < 2 || v.iter().any(|v| v.step == 1) {
            continue;
        }
        let reversed = v.iter().any(|v| v.step >= 2);
        for key in [
            (t.model.as_str(), None),
            (t.model.as_str(), Some(t.condition.as_deref())),
        ] {
            if let Some(e) = by.get_mut(&key) {
                e.0 += 1;
                if reversed {
                    e.1.push(t.id.clone());
                }
            }
        }
    }
    by.into_iter()
        .map(|((model, condition), (eligible, ids))| Reversal {
            model: model.into(),
            pooled: condition.is_none(),
            condition: condition.flatten().map(str::to_string),
            eligible,
            reversals: ids.len(),
            share: (eligible > 0).then(|| ids.len() as f64 / eligible as f64),
            trajectories: ids,
        })
        .collect()
}
