//! The runtime-contracts part's job: the report of an episode log, or of a
//! simulated one (scripted policies), with the simulated log.

use super::{not_this_part, step};
use crate::attached::{source_files, text_of, whole, Attached};
use crate::protocol::{Answer, Job, Part, Progress, Source};
use gapscope_runtime::{analyze as runtime_analyze, write_jsonl, RuntimeReport, RuntimeSettings};
use gapscope_synth::runtime_sim::{simulate as simulate_episodes, SimParams};

/// Run a job of this part (another part's job is a failed answer).
pub fn run(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    match job {
        Job::Runtime {
            source,
            simulate,
            bootstrap,
            seed,
        } => {
            let settings = RuntimeSettings {
                bootstrap: *bootstrap,
                seed: *seed,
                ..RuntimeSettings::default()
            };
            Answer::Runtime(Box::new(
                runtime(
                    source.as_ref(),
                    simulate.as_ref(),
                    &settings,
                    attached,
                    progress,
                )
                .map(|(r, log)| (crate::protocol::Exported::new(&r), log)),
            ))
        }
        _ => not_this_part(job, Part::Runtime),
    }
}

/// [`Job::Runtime`]: the report, and the log when it was simulated.
fn runtime(
    source: Option<&Source>,
    simulate: Option<&SimParams>,
    settings: &RuntimeSettings,
    attached: Vec<Attached>,
    progress: &mut dyn FnMut(Progress),
) -> Result<(RuntimeReport, Option<String>), String> {
    let log = match (simulate, source) {
        (Some(params), _) => {
            progress(step("simulating the 2×2 factorial (scripted policies)"));
            simulate_episodes(params)
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
        runtime_analyze(&text, settings)
            .map(|r| (r, simulated))
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
                bootstrap: 100,
                seed: 0,
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let (exported, log) = (*rt).unwrap();
        let report = exported.report().unwrap();
        assert_eq!(report.episodes_read, 2 * 2 * 4);
        assert_eq!(log.unwrap().lines().count(), 16);
    }
}
