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
    /// The part whose jobs this worker runs (another part's job is a
    /// failed answer that says so).
    pub part: Part,
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
        part: Part::Gaps,
        run: gaps::run,
        read_ahead: Some(read_ahead),
        warm_up: Some(warm_up),
    };
    /// The realization-gap part's worker of the first load: the embedded
    /// example and corpus only ([`gaps::run_embedded`]; no read-ahead, no
    /// warm-up of the import path, which the files worker has).
    pub const GAPS_EMBEDDED: PartJobs = PartJobs {
        part: Part::Gaps,
        run: gaps::run_embedded,
        read_ahead: None,
        warm_up: None,
    };
    /// The evidence-to-action part's worker.
    pub const EVIDENCE: PartJobs = PartJobs {
        part: Part::Evidence,
        run: evidence::run,
        read_ahead: None,
        warm_up: None,
    };
    /// The runtime-contracts part's worker.
    pub const RUNTIME: PartJobs = PartJobs {
        part: Part::Runtime,
        run: runtime::run,
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
