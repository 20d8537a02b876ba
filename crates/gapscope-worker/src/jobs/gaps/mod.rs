//! The realization-gap part's jobs: the analysis and the import
//! ([`analysis`]), the trajectory overview, one trajectory and cross-task
//! stability ([`trajectories`]), proxy labels ([`proxy_labels`]), the
//! manifest's digests, and the teaching view's recovery curve ([`teaching`]).

pub mod analysis;
pub mod inference;
pub mod proxy_labels;
pub mod teaching;
pub mod trajectories;

use super::{not_this_part, step};
use crate::attached::{source_files, whole, Attached};
use crate::protocol::{Answer, Job, Part, Progress, Source};
use gapscope_gaps::manifest::Input;

/// Run a job of this part (another part's job is a failed answer).
/// The gaps jobs on the embedded example and corpus only (the first load's
/// worker, `PartJobs::GAPS_EMBEDDED`): a job on the user's files, or one
/// that needs τ²-bench files (proxy labels), belongs to the files worker.
/// Naming no reader beyond canonical JSONL and the profile tables, the
/// worker built with it links none.
pub fn run_embedded(
    job: &Job,
    attached: Vec<Attached>,
    progress: &mut dyn FnMut(Progress),
) -> Answer {
    if job.in_files_worker() {
        return Answer::Failed(format!(
            "internal error: job {} on the user's files sent to the worker of the embedded data",
            job.kind()
        ));
    }
    run_common(job, attached, progress)
}

/// Run a job of this part in the files worker: every job, the viewer's
/// page, proxy labels, stability and run comparisons too (their only
/// caller, so that the first load's worker, which calls [`run_embedded`],
/// links no Markdown parser, no τ²-bench labeller, no paired statistics).
pub fn run(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    match job {
        Job::Conversation {
            source,
            options,
            id,
            operations,
        } => {
            progress(step("reading the trajectory"));
            Answer::Conversation(Box::new(
                trajectories::trajectory(source, attached, options, id)
                    .map(|t| t.map(|t| gapscope_view::conversation::page(&t, operations))),
            ))
        }
        // The teaching view's experiment: the corpus generator stays out of
        // the first load's worker.
        Job::Recovery { seeds, alpha } => Answer::Recovery(Box::new(
            gapscope_stats::Alpha::new(*alpha)
                .map_err(|e| e.to_string())
                .and_then(|a| teaching::recovery_curve(*seeds, a, progress)),
        )),
        // τ²-bench files only: its reader and the labeller stay out of the
        // first load's worker.
        Job::ProxyLabels { source } => {
            progress(step("proxy labels of the τ²-bench files"));
            Answer::ProxyLabels(Box::new(
                whole(attached).and_then(|files| proxy_labels::proxy_label_file(source, &files)),
            ))
        }
        // The inference, stability and run comparisons: their statistics
        // stay out of the first load's worker.
        Job::Inference {
            request,
            permutations,
            delta_permutations,
        } => Answer::Inference(Box::new(inference::inference(
            request,
            attached,
            *permutations,
            *delta_permutations,
            progress,
        ))),
        Job::Stability {
            source,
            options,
            settings,
        } => {
            progress(step("cross-task stability: the halves and their gaps"));
            Answer::Stability(Box::new(trajectories::stability(
                source, attached, options, settings,
            )))
        }
        Job::Experiments {
            source,
            options,
            bootstrap,
            seed,
        } => {
            progress(step("interventions and continuations"));
            Answer::Experiments(Box::new(trajectories::experiments(
                source.as_ref(),
                attached,
                options,
                *bootstrap,
                *seed,
            )))
        }
        Job::Compare {
            source,
            options,
            runs,
            settings,
        } => {
            progress(step("comparing the runs: paired bootstraps and tests"));
            Answer::Compare(Box::new(trajectories::compare(
                source, attached, options, runs, settings,
            )))
        }
        _ => run_common(job, attached, progress),
    }
}

/// The jobs both gaps workers run.
fn run_common(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    match job {
        Job::Analyze(request) => Answer::Analyze(Box::new(
            analysis::import(request, attached, false, progress).0,
        )),
        Job::Import(request) => {
            let (analysis, overview) = analysis::import(request, attached, true, progress);
            Answer::Import {
                analysis: Box::new(analysis),
                overview: Box::new(overview.unwrap_or(Ok(None))),
            }
        }
        Job::Digests { source } => {
            progress(step("hashing the files for the manifest"));
            Answer::Digests(Box::new(digests(source, attached)))
        }
        Job::Overview { source, options } => {
            progress(step("reading the trajectories"));
            Answer::Overview(Box::new(trajectories::overview(source, attached, options)))
        }
        Job::Trajectory {
            source,
            options,
            id,
        } => {
            progress(step("reading the trajectory"));
            Answer::Trajectory(Box::new(trajectories::trajectory(
                source, attached, options, id,
            )))
        }
        // The files worker's only ([`run`]).
        Job::Conversation { .. }
        | Job::ProxyLabels { .. }
        | Job::Recovery { .. }
        | Job::Stability { .. }
        | Job::Experiments { .. }
        | Job::Compare { .. }
        | Job::Inference { .. } => Answer::Failed(format!(
            "internal error: job {} runs in the files worker",
            job.kind()
        )),
        Job::Evidence { .. } | Job::EvidenceMessages { .. } | Job::Runtime { .. } => {
            not_this_part(job, Part::Gaps)
        }
    }
}

/// [`Job::Digests`]: name, size and SHA-256 of each file of the source.
fn digests(source: &Source, attached: Vec<Attached>) -> Result<Vec<Input>, String> {
    let files = whole(attached)?;
    let (files, _) = source_files(source, &files)?;
    Ok(files.iter().map(|(n, b)| Input::new(n, b)).collect())
}
