//! gapscope-worker: the worker layer between the page and the analysis core,
//! a thin adapter over the analysis crates.
//!
//! The page sends an [`Envelope`] (a job id and a [`Job`]) as JSON text; the
//! worker posts [`FromWorker`] messages back: `Ready` once loaded, any
//! number of `Progress` for the job, the answer's long lists as `Chunk`s
//! (one message each, so that the page decodes them in slices:
//! [`chunks`]), then exactly one `Done` with the job's [`Answer`]. [`handle_message`] is the whole behaviour and is tested
//! natively; in the browser, `web::start` (called by each worker bin of the
//! web package with its part's [`PartJobs`]: `worker` for the realization
//! gaps, `worker_parts` for evidence and runtime) only wires it to the worker's
//! `onmessage`/`postMessage`.
//! JSON text keeps the codec infallible: a message that cannot be decoded
//! becomes an error answer, never a panic.
//!
//! The page runs a pool of these workers (src/pool.rs) and cancels a job by
//! terminating the worker that runs it; nothing here needs to cooperate.
//!
//! Modules: `protocol` (the wire types; [`ask`] ties each job to its answer
//! type), [`jobs`] (one module per part: `gaps`, `evidence`, `runtime`),
//! [`PartJobs`] (one part's worker: what a worker bin links),
//! `attached` (a job's files), `assets` (embedded example data), `warmup`,
//! `codec` (JSON text in and out), `web` (the wasm glue).

mod assets;
mod attached;
mod codec;
pub mod jobs;
mod part_jobs;
mod protocol;
mod warmup;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use assets::{
    corpus_trajectories, worked_trajectories, CORPUS_FOUNDATIONAL, CORPUS_LABEL, CORPUS_PLANTED,
    EXAMPLE_CSV, EXAMPLE_LABEL, WORKED_CASES,
};
pub use attached::{attach, read_ahead, source_files, Attached, SourceFiles};
pub use codec::{
    decode_message, encode_envelope, encode_message, envelope_id, failure_message, job_kind,
    progress_message, read_plan, ReadPlan,
};
pub use jobs::{
    handle, handle_attached, handle_message, handle_message_with, handle_with_progress, import,
    run_ask, run_job, ReadAhead, RunJob,
};
pub use part_jobs::PartJobs;
pub use protocol::ask::{self, Ask, WrongAnswer};
pub use protocol::chunks::{self, Chunk};
pub use protocol::{
    Analysis, Answer, Envelope, EvidenceAnswer, Exported, FromWorker, Job, OverviewResult, Pair,
    Part, Progress, ProxyLabelFile, RecoveryPoint, Request, Response, Source,
};
pub use warmup::{warm_up, warm_up_tau2};
