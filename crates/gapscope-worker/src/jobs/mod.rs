//! The jobs, by part: [`gaps`] (realization gaps: the analysis and import,
//! trajectories, stability, proxy labels, digests, teaching), [`evidence`]
//! (evidence to action) and [`runtime`] (runtime contracts). Each part's
//! `run` runs the jobs of that part only ([`Job::part`]); [`run_job`] sends
//! a job to its part, and [`handle_message`] is the worker's whole behaviour
//! on one incoming message ([`handle_message_with`]: with one part's `run`,
//! as a part's worker does, [`crate::PartJobs`]).

pub mod evidence;
pub mod gaps;
pub mod runtime;

pub use gaps::analysis::{handle, handle_attached, handle_with_progress, import};

use crate::attached::Attached;
use crate::codec::{encode_message, raw_id, ReadPlan};
use crate::protocol::ask::{Ask, WrongAnswer};
use crate::protocol::chunks::split;
use crate::protocol::{Answer, Envelope, FromWorker, Job, Part, Progress};

/// Run one job, telling `progress` along the way.
pub fn run_job(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    match job.part() {
        Part::Gaps => gaps::run(job, attached, progress),
        Part::Evidence => evidence::run(job, attached, progress),
        Part::Runtime => runtime::run(job, attached, progress),
    }
}

/// How a part runs a job ([`gaps::run`], [`evidence::run`], [`runtime::run`]).
pub type RunJob = fn(&Job, Vec<Attached>, &mut dyn FnMut(Progress)) -> Answer;

/// How a worker parses a fetched file as soon as its bytes are here
/// ([`crate::read_ahead`]).
pub type ReadAhead = fn(String, Vec<u8>, &ReadPlan) -> Attached;

/// Run one job of a known answer type ([`Ask`]): its reply, or the
/// [`WrongAnswer`] (which the jobs here never give).
pub fn run_ask<A: Ask>(
    ask: A,
    attached: Vec<Attached>,
    progress: &mut dyn FnMut(Progress),
) -> Result<A::Reply, WrongAnswer> {
    A::reply(run_job(&ask.into_job(), attached, progress))
}

/// The worker's whole behaviour on one incoming message: decode the
/// envelope, run the job, `post` each progress message, then the answer
/// (its long lists first, as chunks: [`crate::chunks`]).
pub fn handle_message(text: &str, attached: Vec<Attached>, post: &mut dyn FnMut(String)) {
    handle_message_with(run_job, text, attached, post);
}

/// [`handle_message`] in a worker that runs jobs with `run` (one part's,
/// [`crate::PartJobs::run`]).
pub fn handle_message_with(
    run: RunJob,
    text: &str,
    attached: Vec<Attached>,
    post: &mut dyn FnMut(String),
) {
    match serde_json::from_str::<Envelope>(text) {
        Ok(Envelope { id, job }) => {
            let mut answer = run(&job, attached, &mut |progress| {
                post(encode_message(&FromWorker::Progress { id, progress }));
            });
            // Long lists go first, a message each (decoded by the page in
            // slices, not in one long task): protocol::chunks.
            for chunk in split(&mut answer) {
                post(encode_message(&FromWorker::Chunk { id, chunk }));
            }
            post(encode_message(&FromWorker::Done { id, answer }));
        }
        Err(e) => {
            // The page matches answers by id: recover it from the raw JSON.
            post(encode_message(&FromWorker::Done {
                id: raw_id(text),
                answer: Answer::Failed(format!(
                    "internal error: the worker could not read its job: {e}"
                )),
            }));
        }
    }
}

/// A one-step job's progress: step 1 of 1, doing `label`.
pub(crate) fn step(label: &str) -> Progress {
    Progress {
        label: label.to_string(),
        step: 1,
        of: 1,
    }
}

/// The answer to a job sent to a part that does not run it.
pub(crate) fn not_this_part(job: &Job, part: Part) -> Answer {
    Answer::Failed(format!(
        "internal error: job {} sent to the {} jobs",
        job.kind(),
        part.name()
    ))
}

#[cfg(test)]
mod tests;
