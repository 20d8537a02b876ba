//! What the trajectory files among a set of inputs hold: a one-line summary,
//! the operation profile, and one row per trajectory for a filterable list
//! (model, task, group, reward, termination, tool errors, gold actions, and
//! the trajectory's score on every operation). The worker and the CLI both
//! read inputs through [`gapscope_data::ingest::read_inputs`], so the list, the
//! viewer ([`find_trajectory`]) and cross-task stability ([`stability_of`])
//! see the corpus the realization analysis used.

use serde::{Deserialize, Serialize};

use crate::stability::{stability, StabilityReport, StabilitySettings};
use gapscope_data::ingest::{
    read_inputs, read_profiles_with, Inputs, Messages, ReadError, TrajectoryOptions,
};
use gapscope_data::operations::{operation_profile, OperationProfile};
use gapscope_data::profile::plural;
use gapscope_data::trajectory::Trajectory;

/// One trajectory, as a row of the list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrajectorySummary {
    pub id: String,
    pub model: String,
    /// The task as the profile names it: its id, or `domain/id` when the
    /// trajectories span several domains.
    pub task_id: String,
    pub group: Option<String>,
    pub trial: Option<i64>,
    /// Native reward (0–1).
    pub reward: Option<f64>,
    pub termination_reason: Option<String>,
    pub messages: usize,
    pub tool_calls: usize,
    /// Tool results marked as errors.
    pub tool_errors: usize,
    pub gold_actions: usize,
    /// Gold actions the trajectory did not perform.
    pub gold_unmatched: usize,
    /// Per operation of [`Overview::profile`] (same order): 100 × the mean of
    /// the trajectory's applicable labels, `None` when it has none.
    pub scores: Vec<Option<f64>>,
    /// Whether the trajectory is on the tasks the profile used.
    pub used: bool,
}

/// The trajectory files of a set of inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    pub files: Vec<String>,
    /// e.g. "120 trajectories of 4 models on 30 tasks in 6 scenario groups; 80 labelled".
    pub summary: String,
    pub notes: Vec<String>,
    /// What each folder among the inputs held (read as what, skipped why).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub folders: Vec<gapscope_data::ingest::folder::FolderSummary>,
    pub profile: OperationProfile,
    pub trajectories: Vec<TrajectorySummary>,
    /// Distinct scenario groups (0: none recorded).
    pub groups: usize,
    /// Inspect AI logs: the scores a reward can come from
    /// (`gapscope_data::ingest::Inputs::scorers`) and the ones used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scorers: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scored_by: Vec<String>,
}

/// Mean of a trajectory's applicable labels of one operation, × 100.
pub fn trajectory_score(t: &Trajectory, operation: &str) -> Option<f64> {
    let labels: Vec<f64> = t.labels.get(operation)?.iter().flatten().copied().collect();
    gapscope_stats::summary::mean(&labels).map(|m| 100.0 * m)
}

fn summarize(t: &Trajectory, operations: &[String], task: String, used: bool) -> TrajectorySummary {
    let stats = t.message_stats();
    TrajectorySummary {
        id: t.id.clone(),
        model: t.model.clone(),
        task_id: task,
        group: t.scenario_group.clone(),
        trial: t.trial,
        reward: t.reward,
        termination_reason: t.termination_reason.clone(),
        messages: stats.messages,
        tool_calls: stats.tool_calls,
        tool_errors: stats.tool_errors,
        gold_actions: t.gold_actions.len(),
        gold_unmatched: t.gold_actions.iter().filter(|g| !g.matched).count(),
        scores: operations
            .iter()
            .map(|op| trajectory_score(t, op))
            .collect(),
        used,
    }
}

/// The overview of the trajectory files among `files`, or `None` when there
/// are none.
pub fn overview<B: AsRef<[u8]>>(
    files: &[(String, B)],
    options: &TrajectoryOptions,
) -> Result<Option<Overview>, ReadError> {
    Ok(overview_of_inputs(
        &read_inputs(files, options, &Messages::Counts)?,
        options,
    ))
}

/// [`overview`] of inputs already read (with [`Messages::Counts`]).
pub fn overview_of_inputs(inputs: &Inputs, options: &TrajectoryOptions) -> Option<Overview> {
    if inputs.trajectory_files.is_empty() {
        return None;
    }
    let ts = &inputs.corpus.trajectories;
    let profile = operation_profile(ts, &options.profile_options());
    let tasks: std::collections::BTreeSet<gapscope_data::trajectory::TaskKey<'_>> =
        ts.iter().map(Trajectory::task_key).collect();
    let qualified = gapscope_data::trajectory::several_domains(ts);
    let groups: std::collections::BTreeSet<&str> = ts
        .iter()
        .filter_map(|t| t.scenario_group.as_deref())
        .collect();
    let labelled = ts.iter().filter(|t| !t.labels.is_empty()).count();
    let used_tasks: std::collections::HashSet<&str> =
        profile.tasks.iter().map(String::as_str).collect();
    // Every model the files name (the profile's leave out the models whose
    // runs are all from experiment checkpoints).
    let models = ts
        .iter()
        .map(|t| t.model.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len();
    let mut summary = format!(
        "{} trajector{} of {} model{} on {} task{}",
        ts.len(),
        if ts.len() == 1 { "y" } else { "ies" },
        models,
        plural(models),
        tasks.len(),
        plural(tasks.len())
    );
    if !groups.is_empty() {
        summary.push_str(&format!(
            " in {} scenario group{}",
            groups.len(),
            plural(groups.len())
        ));
    }
    summary.push_str(&format!("; {labelled} labelled"));
    if profile.n_experiment > 0 {
        summary.push_str(&format!(
            "; {} run{} from experiment checkpoints (the Experiments view; not in the profiles)",
            profile.n_experiment,
            plural(profile.n_experiment)
        ));
    }
    if !inputs.corpus.skipped.is_empty() {
        summary.push_str(&format!(
            "; {} malformed line{} skipped",
            inputs.corpus.skipped.len(),
            plural(inputs.corpus.skipped.len())
        ));
    }
    let trajectories = ts
        .iter()
        .map(|t| {
            let task = t.task_key().label(qualified);
            let used = used_tasks.contains(task.as_str());
            summarize(t, &profile.operations, task, used)
        })
        .collect();
    Some(Overview {
        files: inputs.trajectory_files.clone(),
        summary,
        notes: inputs.notes.clone(),
        folders: inputs.folders.clone(),
        groups: groups.len(),
        profile,
        trajectories,
        scorers: inputs.scorers.clone(),
        scored_by: inputs.scored_by.clone(),
    })
}

/// One trajectory of the inputs, whole (messages, tool calls, gold actions).
pub fn find_trajectory<B: AsRef<[u8]>>(
    files: &[(String, B)],
    options: &TrajectoryOptions,
    id: &str,
) -> Result<Option<Trajectory>, ReadError> {
    let inputs = read_inputs(files, options, &Messages::Only(id.to_string()))?;
    Ok(inputs.corpus.trajectories.into_iter().find(|t| t.id == id))
}

/// Why cross-task stability could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StabilityOfError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("cross-task stability needs a foundational profile file and trajectory files with operation labels; {0}")]
    Missing(&'static str),
    #[error(transparent)]
    Stability(#[from] crate::stability::StabilityError),
}

/// Cross-task stability of the gaps for the inputs: the profile files give
/// the foundational profile, the trajectory files the corpus.
pub fn stability_of<B: AsRef<[u8]>>(
    files: &[(String, B)],
    options: &TrajectoryOptions,
    settings: &StabilitySettings,
) -> Result<StabilityReport, StabilityOfError> {
    stability_of_inputs(
        &read_inputs(files, options, &Messages::Counts)?,
        options,
        settings,
    )
}

/// [`stability_of`] on inputs already read (with [`Messages::Counts`]).
pub fn stability_of_inputs(
    inputs: &Inputs,
    options: &TrajectoryOptions,
    settings: &StabilitySettings,
) -> Result<StabilityReport, StabilityOfError> {
    if inputs.trajectory_files.is_empty() {
        return Err(StabilityOfError::Missing("no trajectory file was given"));
    }
    if inputs.profiles.is_empty() {
        return Err(StabilityOfError::Missing("no profile file was given"));
    }
    let (f, _) = read_profiles_with(&inputs.profiles, &Default::default(), options)?;
    Ok(stability(&f, &inputs.corpus.trajectories, settings)?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const FOUNDATIONAL: &str = include_str!("../../../tests/fixtures/foundational-small.csv");
    const TRAJECTORIES: &str = include_str!("../../../tests/fixtures/trajectories-small.jsonl");

    #[test]
    fn overview_lists_every_trajectory_with_its_scores() {
        let files = [
            ("f.csv".to_string(), FOUNDATIONAL),
            ("t.jsonl".to_string(), TRAJECTORIES),
        ];
        let o = overview(&files, &Default::default()).unwrap().unwrap();
        assert_eq!(o.files, ["t.jsonl"]);
        assert_eq!(
            o.summary,
            "9 trajectories of 4 models on 3 tasks in 2 scenario groups; 9 labelled"
        );
        assert_eq!(o.trajectories.len(), 9);
        // t-001: GI [1] → 100; PL [1, 0] → 50; RC [null] → no score.
        let t1 = o.trajectories.iter().find(|t| t.id == "t-001").unwrap();
        let col = |op: &str| o.profile.operations.iter().position(|x| x == op).unwrap();
        assert_eq!(t1.scores[col("GI")], Some(100.0));
        assert_eq!(t1.scores[col("PL")], Some(50.0));
        assert_eq!(t1.scores[col("RC")], None);
        assert_eq!((t1.tool_calls, t1.tool_errors), (1, 0));
        // The list says which trajectories the profile used (common tasks).
        assert_eq!(
            o.trajectories.iter().filter(|t| t.used).count(),
            o.profile.n_used
        );
        // No trajectory file: no overview.
        assert!(overview(&files[..1], &Default::default())
            .unwrap()
            .is_none());
        let t = find_trajectory(&files, &Default::default(), "t-001")
            .unwrap()
            .unwrap();
        assert_eq!(t.messages.len(), 3);
        assert!(find_trajectory(&files, &Default::default(), "nope")
            .unwrap()
            .is_none());
    }

    #[test]
    fn stability_needs_both_kinds_of_file() {
        let t = [("t.jsonl".to_string(), TRAJECTORIES)];
        assert_eq!(
            stability_of(&t, &Default::default(), &Default::default())
                .unwrap_err()
                .to_string(),
            "cross-task stability needs a foundational profile file and trajectory files with operation labels; no profile file was given"
        );
    }
}

#[cfg(test)]
mod light_tests {
    #![allow(clippy::unwrap_used)]
    use gapscope_data::formats::{read_jsonl, read_jsonl_with, ReadOptions};

    /// A light read keeps every count the list shows and drops the messages,
    /// except for the one trajectory asked for.
    #[test]
    fn light_reads_keep_counts_and_one_trajectory_whole() {
        let text = include_str!("../../../tests/fixtures/trajectories-small.jsonl");
        let full = read_jsonl(text);
        let light = read_jsonl_with(
            text,
            &ReadOptions {
                light: true,
                keep: Some("t-002".into()),
                ..Default::default()
            },
        );
        assert_eq!(full.trajectories.len(), light.trajectories.len());
        for (f, l) in full.trajectories.iter().zip(&light.trajectories) {
            assert_eq!(f.message_stats(), l.message_stats(), "{}", f.id);
            assert_eq!(f.labels, l.labels);
            if f.id == "t-002" {
                assert_eq!(f.messages, l.messages);
            } else {
                assert!(l.messages.is_empty() && !f.messages.is_empty());
            }
        }
    }
}
