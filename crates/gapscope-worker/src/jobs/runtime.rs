//! The runtime-contracts part's job: the report of an episode log, or of a
//! simulated one (scripted policies), with the simulated log.

use super::{not_this_part, step};
use crate::attached::{source_files, text_of, whole, Attached};
use crate::protocol::RuntimeAnswer;
use crate::protocol::{Answer, Job, Part, Progress, Source};
use gapscope_runtime::filter::{FilterReport, FilterSettings};
use gapscope_runtime::{
    analyze as runtime_analyze, filter_log, write_jsonl, RuntimeReport, RuntimeSettings,
    ScoreSource,
};
use gapscope_synth::runtime_sim::{simulate as simulate_episodes, SimParams};
use gapscope_synth::runtime_sim_addendum::{simulate_addendum, AddendumParams};

/// Run a job of this part (another part's job is a failed answer).
pub fn run(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    match job {
        Job::Runtime {
            source,
            simulate,
            addendum,
            bootstrap,
            seed,
        } => {
            let settings = RuntimeSettings {
                bootstrap: *bootstrap,
                seed: *seed,
                ..RuntimeSettings::default()
            };
            let sim = match (simulate, addendum) {
                (Some(p), false) => Some(Sim::Default(p)),
                (Some(p), true) => Some(Sim::Addendum(AddendumParams {
                    seeds: vec![p.seed, p.seed.wrapping_add(1)],
                    ..AddendumParams::default()
                })),
                (None, _) => None,
            };
            Answer::Runtime(Box::new(
                runtime(source.as_ref(), sim.as_ref(), &settings, attached, progress).map(
                    |(r, log, filter)| {
                        let page = gapscope_view::runtime_addendum::page(&r, filter.as_ref());
                        RuntimeAnswer {
                            report: crate::protocol::Exported::new(&r),
                            log,
                            page,
                        }
                    },
                ),
            ))
        }
        _ => not_this_part(job, Part::Runtime),
    }
}

/// What to simulate: the default teaching example or the addendum's.
enum Sim<'a> {
    Default(&'a SimParams),
    Addendum(AddendumParams),
}

/// [`Job::Runtime`]: the report, the log when it was simulated, and the
/// SFT filter's report over the same log.
fn runtime(
    source: Option<&Source>,
    simulate: Option<&Sim>,
    settings: &RuntimeSettings,
    attached: Vec<Attached>,
    progress: &mut dyn FnMut(Progress),
) -> Result<(RuntimeReport, Option<String>, Option<FilterReport>), String> {
    let log = match (simulate, source) {
        (Some(sim), _) => {
            progress(step("simulating (scripted policies, not language models)"));
            match sim {
                Sim::Default(params) => simulate_episodes(params),
                Sim::Addendum(params) => simulate_addendum(params),
            }
            .map_err(|e| format!("simulation: {e}"))
            .and_then(|eps| {
                write_jsonl(&eps)
                    .map(Some)
                    .map_err(|e| format!("simulation: {e}"))
            })
        }
        (None, Some(_)) => Ok(None),
        (None, None) => Err("no episode log and no simulation".to_string()),
    };
    progress(step(
        "the 2×2 tables, bootstrap intervals and trace metrics",
    ));
    log.and_then(|simulated| {
        let (name, text) = match (&simulated, source) {
            (Some(t), _) => (None, t.clone()),
            (None, Some(source)) => {
                let attached = whole(attached)?;
                let (files, _) = source_files(source, &attached)?;
                let [(name, bytes)] = files.as_slice() else {
                    return Err("open one episode log (JSONL)".to_string());
                };
                (Some(name.clone()), text_of(name, bytes)?.to_string())
            }
            (None, None) => (None, String::new()),
        };
        let report = runtime_analyze(&text, settings);
        // The filter reads the same log; its errors are the analysis' own
        // (an unreadable log), so it is left out when the analysis failed.
        let filter = report.as_ref().ok().and_then(|_| {
            filter_log(
                &text,
                &FilterSettings::default(),
                ScoreSource::Logged,
                settings.tolerance,
            )
            .ok()
            .map(|f| f.report)
        });
        report
            .map(|r| (r, simulated, filter))
            .map_err(|e| match name {
                Some(name) => format!("{name}: {e}"),
                None => e.to_string(),
            })
    })
}

#[cfg(test)]
mod tests {
    use crate::jobs::run_job;
    use crate::protocol::{Answer, Job};
    use gapscope_synth::runtime_sim::SimParams;

    #[test]
    fn runtime_jobs_answer_with_their_reports() {
        let Answer::Runtime(rt) = run_job(
            &Job::Runtime {
                source: None,
                simulate: Some(SimParams {
                    instances: 2,
                    caps: vec![5, 60],
                    ..Default::default()
                }),
                addendum: false,
                bootstrap: 100,
                seed: 0,
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let crate::protocol::RuntimeAnswer {
            report: exported,
            log,
            page,
        } = (*rt).unwrap();
        assert!(!page.items("filter").is_empty());
        let report = exported.report().unwrap();
        assert_eq!(report.episodes_read, 2 * 2 * 4);
        assert_eq!(log.unwrap().lines().count(), 16);
    }
}
