//! The worker pool as the page uses it ([`Workers`]) and the one job slot
//! ([`JobSlot`]) every job the page sends goes through.

use gapscope_worker::ask::Ask;
use gapscope_worker::Progress;
use leptos::prelude::*;

use crate::pool::{JobId, Pool, PoolStats};

/// The page's worker pool and what it shows of it (the pool line).
#[derive(Clone, Copy)]
pub(crate) struct Workers {
    pool: StoredValue<Pool, LocalStorage>,
    pub(crate) stats: RwSignal<PoolStats>,
}

impl Workers {
    pub(crate) fn new() -> Self {
        Workers {
            pool: StoredValue::new_local(Pool::new()),
            stats: RwSignal::new(PoolStats::default()),
        }
    }

    /// Refresh the pool line whenever a worker starts, ends or is replaced.
    pub(crate) fn watch(self) {
        self.pool
            .with_value(|p| p.on_change(move || self.refresh()));
    }

    pub(crate) fn refresh(self) {
        self.stats
            .set(self.pool.with_value(crate::pool::Pool::stats));
    }

    /// Stop a job: a queued one is dropped, a running one's worker is
    /// terminated (and replaced).
    pub(crate) fn cancel(self, id: JobId) {
        self.pool.with_value(|p| p.cancel(id));
    }

    fn ask<Q: Ask + 'static>(
        self,
        ask: Q,
        files: Vec<web_sys::File>,
        on_progress: impl FnMut(Progress) + 'static,
        on_done: impl FnOnce(Q::Reply) + 'static,
    ) -> JobId {
        self.pool
            .with_value(|p| p.ask(ask, files, on_progress, on_done))
    }
}

/// One kind of job, `Q` (an [`Ask`] of `gapscope-worker`: the job's request
/// type, tied to its reply `Result<A, String>`): the id of the job running
/// now (so that a newer request can cancel it) and the answer on screen, `S`
/// (the answer itself unless the part keeps something else: `()` when the
/// answer goes elsewhere). The page never matches a worker `Answer`.
pub(crate) struct JobSlot<Q: 'static, S: 'static = Reply<Q>> {
    /// The answer on screen (`None`: none yet, cleared, or running).
    pub(crate) answer: RwSignal<Option<Result<S, String>>>,
    id: StoredValue<Option<JobId>>,
    job: std::marker::PhantomData<fn() -> Q>,
}

/// The `A` of a job whose reply is `Result<A, String>`.
pub(crate) type Reply<Q> = <<Q as Ask>::Reply as Answered>::Ok;

/// A reply that is a result with a message as its error.
pub(crate) trait Answered {
    type Ok;
    fn into_result(self) -> Result<Self::Ok, String>;
}

impl<A> Answered for Result<A, String> {
    type Ok = A;
    fn into_result(self) -> Result<A, String> {
        self
    }
}

impl<Q, S> Clone for JobSlot<Q, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Q, S> Copy for JobSlot<Q, S> {}

impl<Q: Ask + 'static, S: Send + Sync + 'static> JobSlot<Q, S>
where
    Q::Reply: Answered,
{
    pub(crate) fn new() -> Self {
        JobSlot {
            answer: RwSignal::new(None),
            id: StoredValue::new(None),
            job: std::marker::PhantomData,
        }
    }

    /// The job running now, if any.
    pub(crate) fn id(self) -> Option<JobId> {
        self.id.get_value()
    }

    pub(crate) fn running(self) -> bool {
        self.id.get_value().is_some()
    }

    /// Cancel the running job, if one runs.
    pub(crate) fn cancel(self, workers: Workers) {
        if let Some(old) = self.id.get_value() {
            workers.cancel(old);
        }
        self.id.set_value(None);
    }

    /// Submit `ask` with `files`: the slot holds its id until it answers;
    /// `done` gets that id and the reply, then the pool line is refreshed. A
    /// cancelled job never answers.
    pub(crate) fn start(
        self,
        workers: Workers,
        ask: Q,
        files: Vec<web_sys::File>,
        on_progress: impl FnMut(Progress) + 'static,
        done: impl FnOnce(Option<JobId>, Result<Reply<Q>, String>) + 'static,
    ) -> JobId {
        let id = workers.ask(ask, files, on_progress, move |reply: Q::Reply| {
            let id = self.id.get_value();
            self.id.set_value(None);
            done(id, reply.into_result());
            workers.refresh();
        });
        self.id.set_value(Some(id));
        workers.refresh();
        id
    }
}

impl<Q: Ask + 'static> JobSlot<Q>
where
    Q::Reply: Answered,
    Reply<Q>: Send + Sync,
{
    /// Submit `ask` and show its answer as it comes.
    pub(crate) fn run(self, workers: Workers, ask: Q, files: Vec<web_sys::File>) {
        self.start(
            workers,
            ask,
            files,
            |_| {},
            move |_, answer| {
                self.answer.set(Some(answer));
            },
        );
    }
}
