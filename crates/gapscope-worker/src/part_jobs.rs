//! One part's worker: the jobs it runs and what else it links
//! ([`PartJobs`]). A worker bin (src/bin/worker*.rs) starts `web::start`
//! with one of these; naming only its part's functions, the bin links only
//! that part's code (the page runs one pool per part, src/pool.rs).

use crate::attached::read_ahead;
use crate::jobs::{evidence, gaps, runtime, ReadAhead, RunJob};
use crate::protocol::Part;
use crate::warmup::warm_up;

/// One part's worker: the jobs it runs, and what else it links. A worker
/// bin starts the browser glue with one of these (`web::start`); naming
/// only that part's functions, the bin links only that part's code
/// (the gaps worker carries no evidence or runtime code, and the other
/// two no analysis, readers' read-ahead or warm-up).
#[derive(Clone, Copy)]
pub struct PartJobs {
    /// The parts whose jobs this worker runs (another part's job is a
    /// failed answer that says so).
    pub parts: &'static [Part],
    /// Runs one job of the part.
    pub run: RunJob,
    /// Parses fetched files as they arrive, for the jobs that read them as
    /// inputs (the gaps part); `None`: files are handed over as bytes.
    pub read_ahead: Option<ReadAhead>,
    /// Warms the worker once it is idle ([`crate::warm_up`]; the gaps part).
    pub warm_up: Option<fn()>,
}

impl PartJobs {
    /// The realization-gap part's worker.
    pub const GAPS: PartJobs = PartJobs {
        parts: &[Part::Gaps],
        run: gaps::run,
        read_ahead: Some(read_ahead),
        warm_up: Some(warm_up),
    };
    /// The realization-gap part's worker of the first load: the embedded
    /// example and corpus only ([`gaps::run_embedded`]; no read-ahead, no
    /// warm-up of the import path, which the files worker has).
    pub const GAPS_EMBEDDED: PartJobs = PartJobs {
        parts: &[Part::Gaps],
        run: gaps::run_embedded,
        read_ahead: None,
        warm_up: None,
    };
    /// The evidence-to-action part's worker.
    pub const EVIDENCE: PartJobs = PartJobs {
        parts: &[Part::Evidence],
        run: evidence::run,
        read_ahead: None,
        warm_up: None,
    };
    /// The runtime-contracts part's worker.
    pub const RUNTIME: PartJobs = PartJobs {
        parts: &[Part::Runtime],
        run: runtime::run,
        read_ahead: None,
        warm_up: None,
    };

    /// The evidence-to-action and runtime-contracts parts in one worker
    /// (`worker_parts`, the page's): both read small inputs (case sets,
    /// episode logs), and one wasm for the two is ~150 KB gzipped less
    /// than two in the page's whole budget (ARCHITECTURE.md). Each part's
    /// pool starts its own copies of it.
    pub const EVIDENCE_RUNTIME: PartJobs = PartJobs {
        parts: &[Part::Evidence, Part::Runtime],
        run: evidence_or_runtime,
        read_ahead: None,
        warm_up: None,
    };

    /// The worker of `part`.
    #[must_use]
    pub fn of(part: Part) -> PartJobs {
        match part {
            Part::Gaps => PartJobs::GAPS,
            Part::Evidence => PartJobs::EVIDENCE,
            Part::Runtime => PartJobs::RUNTIME,
        }
    }
}

/// [`PartJobs::EVIDENCE_RUNTIME`]'s jobs: each to its part's module.
fn evidence_or_runtime(
    job: &crate::protocol::Job,
    attached: Vec<crate::attached::Attached>,
    progress: &mut dyn FnMut(crate::protocol::Progress),
) -> crate::protocol::Answer {
    match job.part() {
        Part::Runtime => runtime::run(job, attached, progress),
        Part::Evidence | Part::Gaps => evidence::run(job, attached, progress),
    }
}
