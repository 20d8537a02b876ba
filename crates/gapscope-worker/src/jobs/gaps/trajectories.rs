//! The trajectory jobs: the overview of a source's trajectory files, one
//! trajectory whole, cross-task stability of the gaps, and run comparisons.

use crate::attached::{source_inputs, Attached};
use crate::protocol::{OverviewResult, Source};
use gapscope_compare::{CompareReport, RunOptions};
use gapscope_data::ingest::{Messages, TrajectoryOptions};
use gapscope_data::trajectory::Trajectory;
use gapscope_gaps::experiments::{continuations, interventions, json_text};
use gapscope_gaps::overview::{overview_of_inputs, stability_of_inputs};
use gapscope_gaps::stability::{StabilityReport, StabilitySettings};
use gapscope_stats::paired::Settings;
use gapscope_view::experiments::ExperimentsPage;

/// [`crate::Job::Overview`].
pub fn overview(
    source: &Source,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
) -> OverviewResult {
    source_inputs(source, attached, options, &Messages::Counts)
        .map(|inputs| overview_of_inputs(&inputs, options))
}

/// [`crate::Job::Trajectory`]: the trajectory `id` with its messages
/// (`None`: the source has none of that id).
pub fn trajectory(
    source: &Source,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
    id: &str,
) -> Result<Option<Trajectory>, String> {
    source_inputs(source, attached, options, &Messages::Only(id.to_string()))
        .map(|inputs| inputs.corpus.trajectories.into_iter().find(|t| t.id == id))
}

/// [`crate::Job::Stability`].
pub fn stability(
    source: &Source,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
    settings: &StabilitySettings,
) -> Result<StabilityReport, String> {
    source_inputs(source, attached, options, &Messages::Counts).and_then(|inputs| {
        stability_of_inputs(&inputs, options, settings).map_err(|e| e.to_string())
    })
}

/// [`crate::Job::Experiments`]: the interventions and continuations of the
/// source's trajectories (`None`: of the synthetic experiments, whose JSONL
/// the answer carries), with their JSON as the CLI writes it.
pub fn experiments(
    source: Option<&Source>,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
    bootstrap: usize,
    seed: u64,
) -> Result<ExperimentsPage, String> {
    let (trajectories, example) = if let Some(s) = source {
        let inputs = source_inputs(s, attached, options, &Messages::Counts)?;
        (inputs.corpus.trajectories, None)
    } else {
        let text = crate::assets::experiments_jsonl();
        let read = gapscope_data::formats::jsonl::read_jsonl(text);
        (read.trajectories, Some(text.to_string()))
    };
    let interventions = interventions(&trajectories, bootstrap, seed).map_err(|e| e.to_string())?;
    let interventions = if interventions.cases.is_empty() {
        None
    } else {
        let json = json_text(&interventions).map_err(|e| e.to_string())?;
        Some((interventions, json))
    };
    let continuations = continuations(&trajectories);
    let continuations = if continuations.coverage.is_empty() {
        None
    } else {
        let json = json_text(&continuations).map_err(|e| e.to_string())?;
        Some((continuations, json))
    };
    Ok(gapscope_view::experiments::page(
        interventions.as_ref().map(|(r, j)| (r, j.clone())),
        continuations.as_ref().map(|(c, j)| (c, j.clone())),
        example,
    ))
}

/// [`crate::Job::Compare`]: the runs of the source's trajectory files
/// compared, as `gapscope compare` does (every trajectory read, whatever
/// tasks the other runs attempted: each pair is on its common tasks).
pub fn compare(
    source: &Source,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
    runs: &RunOptions,
    settings: &Settings,
) -> Result<CompareReport, String> {
    let options = TrajectoryOptions {
        all_tasks: true,
        keep_repeats: false,
        ..options.clone()
    };
    let inputs = source_inputs(source, attached, &options, &Messages::Counts)?;
    let src = gapscope_compare::Source::of(&inputs);
    gapscope_compare::compare(&src, runs, settings).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use crate::jobs::{handle, run_job};
    use crate::protocol::{Answer, Job, Request, Source};
    use crate::CORPUS_LABEL;
    use gapscope_data::ingest::TrajectoryOptions;
    use gapscope_gaps::stability::StabilitySettings;

    fn experiments(source: Option<Source>) -> gapscope_view::experiments::ExperimentsPage {
        let Answer::Experiments(page) = run_job(
            &Job::Experiments {
                source,
                options: TrajectoryOptions::default(),
                bootstrap: 300,
                seed: 4,
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        (*page).unwrap()
    }

    /// The job's numbers are the core's on the committed synthetic
    /// experiments, as the CLI writes them; the same files dropped give the
    /// same page (without the example's text).
    #[test]
    fn the_experiments_job_is_the_cores() {
        let text = include_str!("../../../../../assets/synthetic-experiments/experiments.jsonl");
        let ts = gapscope_data::formats::jsonl::read_jsonl(text).trajectories;
        let i = gapscope_gaps::experiments::interventions(&ts, 300, 4).unwrap();
        let c = gapscope_gaps::experiments::continuations(&ts);
        let page = experiments(None);
        assert_eq!(page.example.as_deref(), Some(text));
        assert_eq!(
            page.panels
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>(),
            [
                "contrasts",
                "contrasts-by-stratum",
                "reward-changes",
                "coverage",
                "violations",
                "reversals"
            ]
        );
        assert_eq!(page.changes.len(), i.reward_changes.len());
        assert_eq!(page.rows.len(), c.violations.len());
        assert_eq!(
            page.interventions_json,
            Some(serde_json::to_string_pretty(&i).unwrap() + "\n")
        );
        assert_eq!(
            page.continuations_json,
            Some(serde_json::to_string_pretty(&c).unwrap() + "\n")
        );
        let dropped = experiments(Some(Source::File {
            name: "experiments.jsonl".into(),
            text: text.into(),
        }));
        assert_eq!(dropped.example, None);
        assert_eq!(dropped.interventions_json, page.interventions_json);
        assert_eq!(dropped.continuations_json, page.continuations_json);
        // Files without experiment runs: neither table.
        let none = experiments(Some(Source::Corpus));
        assert_eq!(
            (
                none.interventions_json,
                none.continuations_json,
                none.panels.len()
            ),
            (None, None, 0)
        );
    }

    #[test]
    fn the_embedded_corpus_gives_an_analysis_an_overview_and_stability() {
        let req = Request {
            bootstrap: 0,
            ..Request::new(Source::Corpus)
        };
        let a = handle(&req).unwrap();
        assert!(a.synthetic);
        assert_eq!(a.source, CORPUS_LABEL);
        assert!(
            a.report.summary.starts_with(
                "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
            ),
            "{}",
            a.report.summary
        );
        let Answer::Overview(o) = run_job(
            &Job::Overview {
                source: Source::Corpus,
                options: TrajectoryOptions::default(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let o = (*o).unwrap().unwrap();
        assert_eq!(o.groups, 12);
        assert_eq!(o.trajectories.len(), 15 * 60);
        let Answer::Stability(st) = run_job(
            &Job::Stability {
                source: Source::Corpus,
                options: TrajectoryOptions::default(),
                settings: StabilitySettings {
                    bootstrap: 50,
                    splits: 3,
                    ..Default::default()
                },
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let st = (*st).unwrap();
        assert_eq!(st.stability.len(), 8, "seven operations and the macro");
        let Answer::Trajectory(t) = run_job(
            &Job::Trajectory {
                source: Source::Corpus,
                options: TrajectoryOptions::default(),
                id: o.trajectories[5].id.clone(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        assert_eq!((*t).unwrap().unwrap().id, o.trajectories[5].id);
    }

    /// The page's comparison is the CLI's: the job's report equals
    /// `gapscope_compare::compare` over the same file read directly (what
    /// `gapscope compare` calls), number for number.
    #[test]
    fn a_compare_job_is_the_comparison_of_the_files_read_directly() {
        use gapscope_compare::{RunKey, RunOptions};
        use gapscope_data::ingest::{read_inputs, Messages};
        use gapscope_stats::paired::Settings;
        let text = include_str!("../../../../../tests/fixtures/trajectories-small.jsonl");
        let name = "trajectories-small.jsonl".to_string();
        let settings = Settings::new(500, 200, 3).unwrap();
        let runs = RunOptions {
            by: RunKey::Model,
            ..RunOptions::default()
        };
        let Answer::Compare(r) = run_job(
            &Job::Compare {
                source: Source::File {
                    name: name.clone(),
                    text: text.into(),
                },
                options: TrajectoryOptions::default(),
                runs: runs.clone(),
                settings,
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let report = (*r).unwrap();
        let options = TrajectoryOptions {
            all_tasks: true,
            ..TrajectoryOptions::default()
        };
        let inputs = read_inputs(&[(name, text.as_bytes())], &options, &Messages::Counts).unwrap();
        let src = gapscope_compare::Source::of(&inputs);
        let direct = gapscope_compare::compare(&src, &runs, &settings).unwrap();
        assert_eq!(report, direct);
        assert_eq!(report.runs.len(), 4, "A1, B1, C1, D1");
        assert_eq!(report.pairs.len(), 6);
    }
}
