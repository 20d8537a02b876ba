//! The trajectory jobs: the overview of a source's trajectory files, one
//! trajectory whole, and cross-task stability of the gaps.

use crate::attached::{source_inputs, Attached};
use crate::protocol::{OverviewResult, Source};
use gapscope_data::ingest::{Messages, TrajectoryOptions};
use gapscope_data::trajectory::Trajectory;
use gapscope_gaps::overview::{overview_of_inputs, stability_of_inputs};
use gapscope_gaps::stability::{StabilityReport, StabilitySettings};

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

#[cfg(test)]
mod tests {
    use crate::jobs::{handle, run_job};
    use crate::protocol::{Answer, Job, Request, Source};
    use crate::CORPUS_LABEL;
    use gapscope_data::ingest::TrajectoryOptions;
    use gapscope_gaps::stability::StabilitySettings;

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
}
