//! The worker pool as the page uses it ([`Workers`]) and the one job slot
//! ([`JobSlot`]) every job the page sends goes through.

use gapscope_worker::{Answer, Job, Progress};
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
        self.stats.set(self.pool.with_value(|p| p.stats()));
    }

    /// Stop a job: a queued one is dropped, a running one's worker is
    /// terminated (and replaced).
    pub(crate) fn cancel(self, id: JobId) {
        self.pool.with_value(|p| p.cancel(id));
    }

    fn submit(
        self,
        job: &Job,
        files: Vec<web_sys::File>,
        on_progress: impl FnMut(Progress) + 'static,
        on_done: impl FnOnce(Answer) + 'static,
    ) -> JobId {
        self.pool
            .with_value(|p| p.submit(job, files, on_progress, on_done))
    }
}

/// One kind of job: the id of the job running now (so that a newer request
/// can cancel it), how the worker's [`Answer`] reads as this job's answer
/// `A` (`read`, given once at construction, from [`crate::answers`]: the
/// only place an `Answer` is matched), and the answer on screen, `S` (the answer itself unless the
/// part keeps something else: `()` when the answer goes elsewhere).
pub(crate) struct JobSlot<A: 'static, S: 'static = A> {
    /// The answer on screen (`None`: none yet, cleared, or running).
    pub(crate) answer: RwSignal<Option<Result<S, String>>>,
    id: StoredValue<Option<JobId>>,
    read: fn(Answer) -> Result<A, String>,
}

impl<A, S> Clone for JobSlot<A, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A, S> Copy for JobSlot<A, S> {}

impl<A: 'static, S: Send + Sync + 'static> JobSlot<A, S> {
    pub(crate) fn new(read: fn(Answer) -> Result<A, String>) -> Self {
        JobSlot {
            answer: RwSignal::new(None),
            id: StoredValue::new(None),
            read,
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

    /// Submit `job` with `files`: the slot holds its id until it answers;
    /// `done` gets that id and the answer read as `A`, then the pool line is
    /// refreshed. A cancelled job never answers.
    pub(crate) fn start(
        self,
        workers: Workers,
        job: &Job,
        files: Vec<web_sys::File>,
        on_progress: impl FnMut(Progress) + 'static,
        done: impl FnOnce(Option<JobId>, Result<A, String>) + 'static,
    ) -> JobId {
        let id = workers.submit(job, files, on_progress, move |answer| {
            let id = self.id.get_value();
            self.id.set_value(None);
            done(id, (self.read)(answer));
            workers.refresh();
        });
        self.id.set_value(Some(id));
        workers.refresh();
        id
    }
}

impl<A: Send + Sync + 'static> JobSlot<A> {
    /// Submit `job` and show its answer as it comes.
    pub(crate) fn run(self, workers: Workers, job: &Job, files: Vec<web_sys::File>) {
        self.start(
            workers,
            job,
            files,
            |_| {},
            move |_, answer| {
                self.answer.set(Some(answer));
            },
        );
    }
}
