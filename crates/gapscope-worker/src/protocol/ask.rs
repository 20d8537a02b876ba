//! Each job tied to the type of its answer: one small request type per job
//! (named after its [`Job`] variant) implements [`Ask`], so a caller says
//! "run this job, get that reply" instead of matching [`Answer`]s.
//!
//! ```
//! use gapscope_worker::ask::{self, Ask};
//! use gapscope_worker::{Answer, Job};
//!
//! let job: Job = ask::Recovery { seeds: 1, alpha: 10.0 }.into_job();
//! assert_eq!(job, Job::Recovery { seeds: 1, alpha: 10.0 });
//! // What a worker would answer (here: an empty curve).
//! let answer = Answer::Recovery(Box::new(Ok(vec![])));
//! let reply: Result<Vec<gapscope_worker::RecoveryPoint>, String> =
//!     ask::Recovery::outcome(answer);
//! assert_eq!(reply, Ok(vec![]));
//! // An answer of another job is a typed error that names both.
//! let wrong = ask::Recovery::reply(Answer::Digests(Box::new(Ok(vec![])))).unwrap_err();
//! assert_eq!(wrong.to_string(), "internal error: job Recovery got an answer of kind Digests");
//! ```
//!
//! The wire format does not change: [`Ask::into_job`] builds the [`Job`]
//! that goes into the envelope, and the answer is the same [`Answer`].

use super::{
    Answer, Job, OverviewResult, ProxyLabelFile, RecoveryPoint, Request, Response, Source,
};
use gapscope_compare::{CompareReport, RunOptions};
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::trajectory::Message;
use gapscope_gaps::manifest::Input;
use gapscope_gaps::stability::{StabilityReport, StabilitySettings};
use gapscope_stats::paired::Settings;
use gapscope_synth::runtime_sim::SimParams;

/// A job whose answer has one type.
pub trait Ask {
    /// What the job answers, its error (a message that says where and why)
    /// included: e.g. `Result<EvidenceReport, String>`.
    type Reply;
    /// The job's kind ([`Job::kind`]).
    const JOB: &'static str;
    /// The job to put in the envelope.
    fn into_job(self) -> Job;
    /// The reply in `answer`. A failed answer ([`Answer::Failed`]: the worker
    /// could not read the job, or stopped) is a reply too
    /// ([`Ask::failed`]); an answer of another job is a [`WrongAnswer`].
    fn reply(answer: Answer) -> Result<Self::Reply, WrongAnswer>;
    /// The reply that says the job failed with `message`.
    fn failed(message: String) -> Self::Reply;
    /// The reply in `answer`, a wrong answer turned into a failed reply
    /// (what a page shows: the impossible case says what happened).
    #[must_use]
    fn outcome(answer: Answer) -> Self::Reply {
        Self::reply(answer).unwrap_or_else(|wrong| Self::failed(wrong.to_string()))
    }
}

/// An answer that is not the one of the job asked: the job's kind and the
/// answer's ([`Answer::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongAnswer {
    pub job: &'static str,
    pub answer: &'static str,
}

impl WrongAnswer {
    fn of<A: Ask + ?Sized>(answer: &Answer) -> Self {
        WrongAnswer {
            job: A::JOB,
            answer: answer.kind(),
        }
    }
}

impl std::fmt::Display for WrongAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: job {} got an answer of kind {}",
            self.job, self.answer
        )
    }
}

impl std::error::Error for WrongAnswer {}

/// [`Ask`] for a job whose answer is `Answer::$variant(Box<Result<T, String>>)`
/// and whose reply is that result (a failed answer: its message as `Err`).
macro_rules! result_reply {
    ($ask:ty, $variant:ident, $ok:ty) => {
        impl Ask for $ask {
            type Reply = Result<$ok, String>;
            const JOB: &'static str = stringify!($variant);
            fn into_job(self) -> Job {
                self.into()
            }
            fn reply(answer: Answer) -> Result<Self::Reply, WrongAnswer> {
                match answer {
                    Answer::$variant(r) => Ok(*r),
                    Answer::Failed(e) => Ok(Err(e)),
                    other => Err(WrongAnswer::of::<Self>(&other)),
                }
            }
            fn failed(message: String) -> Self::Reply {
                Err(message)
            }
        }
    };
}

/// [`Job::Analyze`]: the realization-gap analysis of a request.
#[derive(Clone, Debug, PartialEq)]
pub struct Analyze(pub Request);

impl From<Analyze> for Job {
    fn from(a: Analyze) -> Job {
        Job::Analyze(a.0)
    }
}
result_reply!(Analyze, Analyze, crate::Analysis);

/// [`Job::Import`]: a newly opened source, analysed and overviewed from one
/// read of its files.
#[derive(Clone, Debug, PartialEq)]
pub struct Import(pub Request);

/// The reply of an [`Import`]: the analysis and the trajectory overview
/// (a failed job fails both with its message).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub analysis: Response,
    pub overview: OverviewResult,
}

impl From<Import> for Job {
    fn from(a: Import) -> Job {
        Job::Import(a.0)
    }
}

impl Ask for Import {
    type Reply = Imported;
    const JOB: &'static str = "Import";
    fn into_job(self) -> Job {
        self.into()
    }
    fn reply(answer: Answer) -> Result<Imported, WrongAnswer> {
        match answer {
            Answer::Import { analysis, overview } => Ok(Imported {
                analysis: *analysis,
                overview: *overview,
            }),
            Answer::Failed(e) => Ok(Self::failed(e)),
            other => Err(WrongAnswer::of::<Self>(&other)),
        }
    }
    fn failed(message: String) -> Imported {
        Imported {
            analysis: Err(message.clone()),
            overview: Err(message),
        }
    }
}

/// The page's analysis slot: [`Job::Analyze`], or [`Job::Import`] when the
/// source is new and the trajectory overview is wanted from the same read.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub request: Request,
    pub import: bool,
}

/// The reply of an [`Analysis`]: the analysis, and the overview when the job
/// was an import.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysed {
    pub analysis: Response,
    pub overview: Option<OverviewResult>,
}

impl From<Analysis> for Job {
    fn from(a: Analysis) -> Job {
        if a.import {
            Job::Import(a.request)
        } else {
            Job::Analyze(a.request)
        }
    }
}

impl Ask for Analysis {
    type Reply = Result<Analysed, String>;
    const JOB: &'static str = "Analyze or Import";
    fn into_job(self) -> Job {
        self.into()
    }
    fn reply(answer: Answer) -> Result<Self::Reply, WrongAnswer> {
        match answer {
            Answer::Analyze(r) => Ok(Ok(Analysed {
                analysis: *r,
                overview: None,
            })),
            Answer::Import { analysis, overview } => Ok(Ok(Analysed {
                analysis: *analysis,
                overview: Some(*overview),
            })),
            Answer::Failed(e) => Ok(Err(e)),
            other => Err(WrongAnswer::of::<Self>(&other)),
        }
    }
    fn failed(message: String) -> Self::Reply {
        Err(message)
    }
}

/// [`Job::Overview`]: the trajectory files of a source (`None`: it has none).
#[derive(Clone, Debug, PartialEq)]
pub struct Overview {
    pub source: Source,
    pub options: TrajectoryOptions,
}

impl From<Overview> for Job {
    fn from(a: Overview) -> Job {
        Job::Overview {
            source: a.source,
            options: a.options,
        }
    }
}
result_reply!(
    Overview,
    Overview,
    Option<gapscope_gaps::overview::Overview>
);

/// [`Job::Trajectory`]: one trajectory of a source, whole (`None`: no
/// trajectory has that id).
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    pub source: Source,
    pub options: TrajectoryOptions,
    pub id: String,
}

impl From<Trajectory> for Job {
    fn from(a: Trajectory) -> Job {
        Job::Trajectory {
            source: a.source,
            options: a.options,
            id: a.id,
        }
    }
}
result_reply!(
    Trajectory,
    Trajectory,
    Option<gapscope_data::trajectory::Trajectory>
);

/// [`Job::Conversation`]: one trajectory as the viewer shows it (`None`:
/// no trajectory has that id).
#[derive(Clone, Debug, PartialEq)]
pub struct Conversation {
    pub source: Source,
    pub options: TrajectoryOptions,
    pub id: String,
    /// The operations whose labels the page shows.
    pub operations: Vec<String>,
}

impl From<Conversation> for Job {
    fn from(a: Conversation) -> Job {
        Job::Conversation {
            source: a.source,
            options: a.options,
            id: a.id,
            operations: a.operations,
        }
    }
}
result_reply!(
    Conversation,
    Conversation,
    Option<gapscope_view::conversation::ConversationPage>
);

/// [`Job::Inference`]: how sure each number of an analysis is.
#[derive(Clone, Debug, PartialEq)]
pub struct Inference {
    pub request: Request,
    pub permutations: usize,
    pub delta_permutations: usize,
}

impl From<Inference> for Job {
    fn from(a: Inference) -> Job {
        Job::Inference {
            request: a.request,
            permutations: a.permutations,
            delta_permutations: a.delta_permutations,
        }
    }
}
result_reply!(
    Inference,
    Inference,
    gapscope_view::inference::InferencePage
);

/// [`Job::Stability`]: cross-task stability of the gaps.
#[derive(Clone, Debug, PartialEq)]
pub struct Stability {
    pub source: Source,
    pub options: TrajectoryOptions,
    pub settings: StabilitySettings,
}

impl From<Stability> for Job {
    fn from(a: Stability) -> Job {
        Job::Stability {
            source: a.source,
            options: a.options,
            settings: a.settings,
        }
    }
}
result_reply!(Stability, Stability, StabilityReport);

/// [`Job::Experiments`]: interventions and continuations of a source's
/// trajectory files (`None`: the synthetic experiments).
#[derive(Clone, Debug, PartialEq)]
pub struct Experiments {
    pub source: Option<Source>,
    pub options: TrajectoryOptions,
    pub bootstrap: usize,
    pub seed: u64,
}

impl From<Experiments> for Job {
    fn from(a: Experiments) -> Job {
        Job::Experiments {
            source: a.source,
            options: a.options,
            bootstrap: a.bootstrap,
            seed: a.seed,
        }
    }
}
result_reply!(
    Experiments,
    Experiments,
    gapscope_view::experiments::ExperimentsPage
);

/// [`Job::Compare`]: run comparisons over a source's trajectory files.
#[derive(Clone, Debug, PartialEq)]
pub struct Compare {
    pub source: Source,
    pub options: TrajectoryOptions,
    pub runs: RunOptions,
    pub settings: Settings,
}

impl From<Compare> for Job {
    fn from(a: Compare) -> Job {
        Job::Compare {
            source: a.source,
            options: a.options,
            runs: a.runs,
            settings: a.settings,
        }
    }
}
result_reply!(Compare, Compare, CompareReport);

/// [`Job::Evidence`]: evidence to action (the worked set when `source` is
/// `None`).
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    pub source: Option<Source>,
    pub bootstrap: usize,
    pub seed: u64,
    /// The rows' four fields ([`Job::Evidence`]).
    pub rows: [String; 4],
}

impl From<Evidence> for Job {
    fn from(a: Evidence) -> Job {
        Job::Evidence {
            source: a.source,
            bootstrap: a.bootstrap,
            seed: a.seed,
            rows: a.rows,
        }
    }
}
result_reply!(Evidence, Evidence, crate::EvidenceAnswer);

/// [`Job::EvidenceMessages`]: the messages of one evidence trajectory.
#[derive(Clone, Debug, PartialEq)]
pub struct EvidenceMessages {
    pub source: Option<Source>,
    pub id: String,
}

impl From<EvidenceMessages> for Job {
    fn from(a: EvidenceMessages) -> Job {
        Job::EvidenceMessages {
            source: a.source,
            id: a.id,
        }
    }
}
result_reply!(EvidenceMessages, EvidenceMessages, Vec<Message>);

/// [`Job::Recovery`]: the teaching view's recovery curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    pub seeds: u64,
    pub alpha: f64,
}

impl From<Recovery> for Job {
    fn from(a: Recovery) -> Job {
        Job::Recovery {
            seeds: a.seeds,
            alpha: a.alpha,
        }
    }
}
result_reply!(Recovery, Recovery, Vec<RecoveryPoint>);

/// [`Job::ProxyLabels`]: proxy labels of the source's τ²-bench files.
#[derive(Clone, Debug, PartialEq)]
pub struct ProxyLabels {
    pub source: Source,
}

impl From<ProxyLabels> for Job {
    fn from(a: ProxyLabels) -> Job {
        Job::ProxyLabels { source: a.source }
    }
}
result_reply!(ProxyLabels, ProxyLabels, ProxyLabelFile);

/// [`Job::Digests`]: name, size and SHA-256 of each file of the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Digests {
    pub source: Source,
}

impl From<Digests> for Job {
    fn from(a: Digests) -> Job {
        Job::Digests { source: a.source }
    }
}
result_reply!(Digests, Digests, Vec<Input>);

/// [`Job::Runtime`]: runtime contracts of an episode log, or of one
/// simulated with `simulate`; the reply has the simulated log (JSONL) then.
#[derive(Clone, Debug, PartialEq)]
pub struct Runtime {
    pub source: Option<Source>,
    pub simulate: Option<SimParams>,
    /// Simulate the addendum's teaching example (see [`Job::Runtime`]).
    pub addendum: bool,
    pub bootstrap: usize,
    pub seed: u64,
}

impl From<Runtime> for Job {
    fn from(a: Runtime) -> Job {
        Job::Runtime {
            source: a.source,
            simulate: a.simulate,
            addendum: a.addendum,
            bootstrap: a.bootstrap,
            seed: a.seed,
        }
    }
}
result_reply!(Runtime, Runtime, crate::protocol::RuntimeAnswer);

#[cfg(test)]
mod tests;
