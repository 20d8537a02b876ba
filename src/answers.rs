//! How the worker's [`Answer`] reads as each job's answer: the one place the
//! page matches it, each function given once to its [`JobSlot`] (a typed
//! `Ask` of `gapscope-worker`, tying each job to its answer type, is to
//! replace this module).
//!
//! [`JobSlot`]: crate::widgets::job::JobSlot

use gapscope_core::evidence::EvidenceReport;
use gapscope_core::manifest::Input;
use gapscope_core::stability::StabilityReport;
use gapscope_core::trajectory::{Message, Trajectory};
use gapscope_worker::{Answer, OverviewResult, ProxyLabelFile, RecoveryPoint, Response};

use crate::parts::runtime::Simulated;

/// The error of an answer of another kind than the job's (a page/worker bug).
const UNEXPECTED: &str = "internal error: unexpected answer";

/// The answer of an analysis job: the analysis, and the trajectory overview
/// when the job also imported the files ([`Job::Import`]).
pub(crate) struct Imported {
    pub(crate) analysis: Response,
    pub(crate) overview: Option<OverviewResult>,
}

pub(crate) fn read_analysis(answer: Answer) -> Result<Imported, String> {
    match answer {
        Answer::Analyze(r) => Ok(Imported {
            analysis: *r,
            overview: None,
        }),
        Answer::Import { analysis, overview } => Ok(Imported {
            analysis: *analysis,
            overview: Some(*overview),
        }),
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_digests(answer: Answer) -> Result<Vec<Input>, String> {
    match answer {
        Answer::Digests(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_trajectory(answer: Answer) -> Result<Option<Trajectory>, String> {
    match answer {
        Answer::Trajectory(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_proxy_labels(answer: Answer) -> Result<ProxyLabelFile, String> {
    match answer {
        Answer::ProxyLabels(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_stability(answer: Answer) -> Result<StabilityReport, String> {
    match answer {
        Answer::Stability(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_evidence(answer: Answer) -> Result<EvidenceReport, String> {
    match answer {
        Answer::Evidence(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_messages(answer: Answer) -> Result<Vec<Message>, String> {
    match answer {
        Answer::EvidenceMessages(m) => *m,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_runtime(answer: Answer) -> Result<Simulated, String> {
    match answer {
        Answer::Runtime(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}

pub(crate) fn read_recovery(answer: Answer) -> Result<Vec<RecoveryPoint>, String> {
    match answer {
        Answer::Recovery(r) => *r,
        Answer::Failed(e) => Err(e),
        _ => Err(UNEXPECTED.into()),
    }
}
