//! Messages as JSON text: encoding (infallible: a failure becomes a failed
//! answer), decoding on the page side, and what the worker reads from an
//! envelope's text before it decodes the job (its id, its kind, its
//! [`ReadPlan`]).

use crate::protocol::{Answer, Envelope, FromWorker, Job, Progress, Source};
use gapscope_data::ingest::{Messages, TrajectoryOptions};
use serde::Deserialize;

/// Encode an envelope as the JSON text the worker receives.
#[must_use]
pub fn encode_envelope(envelope: &Envelope) -> String {
    serde_json::to_string(envelope).unwrap_or_else(|e| {
        // Unreachable for these plain types; the worker answers it as unreadable.
        format!("{{\"id\": {}, \"encode_error\": \"{e}\"}}", envelope.id)
    })
}

/// Encode a worker message (infallible: a failure becomes a failed answer).
#[must_use]
pub fn encode_message(message: &FromWorker) -> String {
    serde_json::to_string(message).unwrap_or_else(|e| {
        let id = match message {
            FromWorker::Progress { id, .. }
            | FromWorker::Chunk { id, .. }
            | FromWorker::Done { id, .. } => *id,
            FromWorker::Ready | FromWorker::Memory { .. } | FromWorker::Panicked { .. } => 0,
        };
        let fallback = FromWorker::Done {
            id,
            answer: Answer::Failed(format!(
                "internal error: the result could not be encoded: {e}"
            )),
        };
        serde_json::to_string(&fallback).unwrap_or_default()
    })
}

/// Decode a worker message on the page side.
pub fn decode_message(text: &str) -> Result<FromWorker, String> {
    serde_json::from_str::<FromWorker>(text)
        .map_err(|e| format!("internal error: the worker's message could not be read: {e}"))
}

/// The kind of the job in an envelope's JSON text (`Import`, `Analyze`,
/// …; empty when unreadable), for the page's pool line.
#[must_use]
pub fn job_kind(text: &str) -> String {
    // Every job has fields: its JSON is `{"Kind": {…}}`; the fields are
    // skipped, not built (a job may carry a file's text).
    #[derive(Deserialize)]
    #[allow(
        clippy::zero_sized_map_values,
        reason = "the job's fields are skipped: only the key is read"
    )]
    struct Kind {
        job: std::collections::BTreeMap<String, serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Kind>(text)
        .ok()
        .and_then(|k| k.job.into_keys().next())
        .unwrap_or_default()
}

/// The job id of an envelope's JSON text (0 when unreadable), so that the
/// worker can report progress on attached files before it decodes the job.
#[must_use]
pub fn envelope_id(text: &str) -> u64 {
    #[derive(Deserialize)]
    struct Id {
        id: u64,
    }
    serde_json::from_str::<Id>(text).map_or(0, |i| i.id)
}

/// The id of a text that is not an envelope, recovered from its raw JSON
/// (the page matches answers by id; 0 when there is none).
pub(crate) fn raw_id(text: &str) -> u64 {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
        .unwrap_or(0)
}

/// Post a progress message for job `id`.
#[must_use]
pub fn progress_message(id: u64, progress: Progress) -> String {
    encode_message(&FromWorker::Progress { id, progress })
}

/// Post a failed answer for job `id`.
#[must_use]
pub fn failure_message(id: u64, message: String) -> String {
    encode_message(&FromWorker::Done {
        id,
        answer: Answer::Failed(message),
    })
}

/// How a job reads its attached files when it reads them as inputs
/// ([`gapscope_data::ingest::read_inputs_from`]). The browser then parses each
/// fetched file as soon as its bytes are here ([`crate::read_ahead`]) and
/// drops them: the worker holds one file's bytes at a time, not every file's.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadPlan {
    pub options: TrajectoryOptions,
    pub messages: Messages,
    /// The source's folders: their files are read with their folder, not
    /// ahead one by one ([`crate::read_ahead`] leaves a source with folders
    /// as bytes).
    pub folders: Vec<String>,
}

/// The [`ReadPlan`] of a job's JSON text; `None`: the job reads its files
/// otherwise (or is unreadable; it will say so).
#[must_use]
pub fn read_plan(text: &str) -> Option<ReadPlan> {
    let Envelope { job, .. } = serde_json::from_str::<Envelope>(text).ok()?;
    let attached = |source: &Source| matches!(source, Source::Attached { .. });
    let folders = |source: &Source| match source {
        Source::Attached { folders, .. } => folders.clone(),
        _ => Vec::new(),
    };
    let plan = |options, messages, folders| {
        Some(ReadPlan {
            options,
            messages,
            folders,
        })
    };
    match job {
        Job::Analyze(r) | Job::Import(r) if attached(&r.source) => {
            plan(r.trajectories, Messages::Counts, folders(&r.source))
        }
        Job::Overview { source, options }
        | Job::Stability {
            source, options, ..
        } if attached(&source) => plan(options, Messages::Counts, folders(&source)),
        Job::Trajectory {
            source,
            options,
            id,
        } if attached(&source) => plan(options, Messages::Only(id), folders(&source)),
        Job::Experiments {
            source: Some(source),
            options,
            ..
        } if attached(&source) => plan(options, Messages::Counts, folders(&source)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jobs_kind_and_read_plan_come_from_its_text() {
        let attached = Source::attached(vec!["t.jsonl".into()]);
        let text = |job: Job| encode_envelope(&Envelope { id: 1, job });
        let trajectory = text(Job::Trajectory {
            source: attached.clone(),
            options: TrajectoryOptions::default(),
            id: "t7".into(),
        });
        assert_eq!(job_kind(&trajectory), "Trajectory");
        assert_eq!(
            read_plan(&trajectory).map(|p| p.messages),
            Some(Messages::Only("t7".into()))
        );
        // Jobs that read their files otherwise, or no attached files.
        let digests = text(Job::Digests { source: attached });
        assert_eq!(job_kind(&digests), "Digests");
        assert_eq!(read_plan(&digests), None);
        assert_eq!(
            read_plan(&text(Job::Recovery {
                seeds: 1,
                alpha: 10.0,
            })),
            None
        );
        assert_eq!(job_kind("not json"), "");
    }
}
