//! The page's analysis workers: one pool per part, each sized to the machine
//! and started on that part's first job.
//!
//! A job runs in the pool of its part ([`Job::part`]): realization gaps, evidence
//! to action, runtime contracts. The gaps part has its worker bins
//! (`worker` for the embedded data, `worker_files` for the user's files),
//! the evidence and runtime parts share one (`worker_parts`; src/bin/), so
//! the first load fetches only the gaps worker; a part's pool, and its
//! wasm, are loaded when the page first runs one of its jobs.
//! Each worker is a plain `web_sys::Worker` running its part's bin (started
//! from Trunk's loader script, an ES module). Jobs go to an idle worker of
//! their part, or wait in its queue; a pool starts all its workers when it is
//! created and respawns them on demand up to its size
//! (`navigator.hardwareConcurrency`, at most [`MAX_WORKERS`]). Cancelling a
//! running job terminates its worker at once (the computation does not run to
//! its end) and a fresh worker takes its place. A worker that fails (a panic,
//! a load error) answers its job with the failure and is replaced likewise.
//!
//! The protocol (JSON text) is `gapscope_worker`'s: [`Envelope`] in,
//! [`FromWorker`] out; [`Pool::ask`] runs a typed job ([`Ask`]) and hands
//! back its reply. Callbacks run after the pool's state is released, so a
//! callback may submit or cancel jobs.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::{Rc, Weak};

use gapscope_worker::{
    chunks, decode_message, encode_envelope, Answer, Ask, Chunk, Envelope, FromWorker, Job, Part,
    Progress,
};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, Event, File, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The parts, in the order of [`PoolStats::started`].
const PARTS: [Part; 3] = [Part::Gaps, Part::Evidence, Part::Runtime];

/// A part's worker: the loader script Trunk writes for its bin
/// (`data-loader-shim`; www/index.html), and the page global that, when it
/// is a string, replaces it: the single-file build
/// (`scripts/build-single.mjs`) sets each to a `data:` URL holding that
/// worker's glue and wasm, so nothing is fetched.
fn worker_script(part: Part, user_files: bool) -> (&'static str, &'static str) {
    match part {
        Part::Gaps if user_files => ("./worker_files_loader.js", "__GAPSCOPE_WORKER_URL_FILES"),
        Part::Gaps => ("./worker_loader.js", "__GAPSCOPE_WORKER_URL"),
        Part::Evidence | Part::Runtime => {
            ("./worker_parts_loader.js", "__GAPSCOPE_WORKER_URL_PARTS")
        }
    }
}

/// The worker script of `part` to start: the page's global if it is a
/// string, else Trunk's loader.
fn worker_url(part: Part, user_files: bool) -> String {
    let (loader, global) = worker_script(part, user_files);
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(global))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| loader.to_string())
}

/// The most workers a page starts, whatever the machine.
pub const MAX_WORKERS: usize = 4;

/// A job's handle, for [`Pool::cancel`].
pub type JobId = u64;

type OnProgress = Box<dyn FnMut(Progress)>;
type OnDone = Box<dyn FnOnce(Answer)>;

/// What the pools are doing, for the page (and its tests) to show: summed
/// over the parts' pools started so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoolStats {
    /// The started pools' size: workers they may run at once.
    pub size: usize,
    /// Workers alive now.
    pub live: usize,
    /// Workers running a job now.
    pub busy: usize,
    /// Workers terminated so far (cancelled jobs, failures).
    pub terminated: usize,
    /// Which parts' pools are started (realization gaps, evidence,
    /// runtime).
    pub started: [bool; 3],
    /// The largest wasm memory of a live worker, bytes (as last reported).
    pub memory: u64,
    /// The job that finished last: its wall time in the worker, ms.
    pub last_job_ms: f64,
    /// Of that job, the time its worker waited for file bytes, ms.
    pub last_read_ms: f64,
    /// Of that job, the bytes its worker read as streams.
    pub last_streamed_bytes: f64,
    /// The import (or analysis) that finished last: wall time in the
    /// worker, time waiting for file bytes, time parsing them, ms.
    pub import_ms: (f64, f64, f64),
}

struct Slot {
    serial: u64,
    worker: Worker,
    ready: bool,
    running: Option<JobId>,
    /// wasm memory in bytes, as the worker last reported it.
    memory: u64,
    // Kept alive as long as the worker.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

/// A job waiting for a worker: its envelope text and the files that travel
/// with it (posted as `File` objects; the worker reads them itself).
struct Queued {
    id: JobId,
    text: String,
    files: Vec<File>,
}

impl Queued {
    fn message(&self) -> JsValue {
        if self.files.is_empty() {
            return JsValue::from_str(&self.text);
        }
        let parts = js_sys::Array::new();
        parts.push(&JsValue::from_str(&self.text));
        for f in &self.files {
            parts.push(f);
        }
        parts.into()
    }
}

struct Handlers {
    on_progress: OnProgress,
    on_done: OnDone,
    /// The pieces of the answer posted so far (`FromWorker::Chunk`, each
    /// decoded in its own task), put back into it when it comes.
    chunks: Vec<Chunk>,
}

/// What the parts' pools share: job ids (unique over every pool, so that
/// [`Pool::cancel`] finds its job), the last job's timings, and the page's
/// change callback.
struct Shared {
    next_job: JobId,
    /// The job that finished last: (wall ms, file-read ms, streamed bytes).
    last: (f64, f64, f64),
    /// See [`PoolStats::import_ms`].
    last_import: (f64, f64, f64),
    /// Told when a worker reports its memory.
    on_change: Option<Rc<dyn Fn()>>,
}

struct Inner {
    /// The part whose jobs (and whose worker bin) this pool runs.
    part: Part,
    /// Realization-gap jobs on the user's files (`worker_files`, every
    /// reader), or on the embedded data (`worker`, the first load's).
    user_files: bool,
    size: usize,
    slots: Vec<Slot>,
    queue: VecDeque<Queued>,
    handlers: HashMap<JobId, Handlers>,
    next_serial: u64,
    terminated: usize,
    shared: Rc<RefCell<Shared>>,
}

/// One part's pool of workers.
#[derive(Clone)]
struct PartPool {
    inner: Rc<RefCell<Inner>>,
}

/// The page's worker pools, one per part, each started on its part's first
/// job (cheap to clone: a shared handle).
#[derive(Clone)]
pub struct Pool {
    /// Each part's pool size.
    size: usize,
    shared: Rc<RefCell<Shared>>,
    /// The parts' pools started so far.
    pools: Rc<RefCell<Vec<PartPool>>>,
}

/// One logical core per worker, between 1 and [`MAX_WORKERS`]: the page's
/// own thread only renders while the workers compute.
fn machine_size() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores.max(1.0) as usize).min(MAX_WORKERS)
}

impl Pool {
    /// The page's pools, none started yet: a part's pool starts, sized to
    /// the machine, with the part's first job.
    pub fn new() -> Self {
        Pool {
            size: machine_size(),
            shared: Rc::new(RefCell::new(Shared {
                next_job: 1,
                last: (0.0, 0.0, 0.0),
                last_import: (0.0, 0.0, 0.0),
                on_change: None,
            })),
            pools: Rc::new(RefCell::new(Vec::new())),
        }
    }

    /// Call `f` when the pools' stats change outside a job's callbacks.
    pub fn on_change(&self, f: impl Fn() + 'static) {
        self.shared.borrow_mut().on_change = Some(Rc::new(f));
    }

    pub fn stats(&self) -> PoolStats {
        let shared = self.shared.borrow();
        let mut stats = PoolStats {
            last_job_ms: shared.last.0,
            last_read_ms: shared.last.1,
            last_streamed_bytes: shared.last.2,
            import_ms: shared.last_import,
            ..PoolStats::default()
        };
        for pool in self.pools.borrow().iter() {
            let inner = pool.inner.borrow();
            stats.size += inner.size;
            stats.live += inner.slots.len();
            stats.busy += inner.slots.iter().filter(|s| s.running.is_some()).count();
            stats.terminated += inner.terminated;
            let memory = inner.slots.iter().map(|s| s.memory).max().unwrap_or(0);
            stats.memory = stats.memory.max(memory);
            if let Some(i) = PARTS.iter().position(|p| *p == inner.part) {
                stats.started[i] = true;
            }
        }
        stats
    }

    /// The pool of `part` (for the gaps part: the one for the user's files,
    /// or the one for the embedded data), started (all its workers at once)
    /// if this is its first job.
    fn part(&self, part: Part, user_files: bool) -> PartPool {
        let user_files = user_files && part == Part::Gaps;
        let started = self
            .pools
            .borrow()
            .iter()
            .find(|p| {
                let inner = p.inner.borrow();
                inner.part == part && inner.user_files == user_files
            })
            .cloned();
        if let Some(pool) = started {
            return pool;
        }
        let pool = PartPool::start(part, user_files, self.size, self.shared.clone());
        self.pools.borrow_mut().push(pool.clone());
        pool
    }

    /// Queue `job` in its part's pool; `on_progress` hears its progress,
    /// `on_done` its answer (never called if the job is cancelled).
    pub fn submit(
        &self,
        job: &Job,
        files: Vec<File>,
        on_progress: impl FnMut(Progress) + 'static,
        on_done: impl FnOnce(Answer) + 'static,
    ) -> JobId {
        self.part(job.part(), job.in_files_worker()).submit(
            job,
            files,
            Box::new(on_progress),
            Box::new(on_done),
        )
    }

    /// Queue the job of `ask` ([`Ask`]: one request type per job, e.g.
    /// `gapscope_worker::ask::Evidence`); `on_done` gets its typed reply
    /// (`A::Reply`, the job's error included; an answer of another job,
    /// which the worker never gives, becomes a failed reply that says so).
    #[allow(
        dead_code,
        reason = "the page's call sites move from `submit` to `ask` after issue 15's split of app.rs"
    )]
    pub fn ask<A: Ask + 'static>(
        &self,
        ask: A,
        files: Vec<File>,
        on_progress: impl FnMut(Progress) + 'static,
        on_done: impl FnOnce(A::Reply) + 'static,
    ) -> JobId {
        self.submit(&ask.into_job(), files, on_progress, move |answer| {
            on_done(A::outcome(answer));
        })
    }

    /// Forget `id`: a queued job is dropped; a running one is stopped by
    /// terminating its worker, which a fresh worker replaces.
    pub fn cancel(&self, id: JobId) {
        let owner = self.pools.borrow().iter().find(|p| p.owns(id)).cloned();
        if let Some(pool) = owner {
            pool.cancel(id);
        }
    }
}

impl PartPool {
    /// The pool of `part`, its workers started at once: a job never waits
    /// for a worker to load once the first has.
    fn start(part: Part, user_files: bool, size: usize, shared: Rc<RefCell<Shared>>) -> Self {
        let pool = PartPool {
            inner: Rc::new(RefCell::new(Inner {
                part,
                user_files,
                size,
                slots: Vec::new(),
                queue: VecDeque::new(),
                handlers: HashMap::new(),
                next_serial: 1,
                terminated: 0,
                shared,
            })),
        };
        for _ in 0..size {
            pool.spawn();
        }
        pool
    }

    /// Whether job `id` is this pool's (queued, running, or waiting for its
    /// answer).
    fn owns(&self, id: JobId) -> bool {
        let inner = self.inner.borrow();
        inner.handlers.contains_key(&id)
            || inner.queue.iter().any(|q| q.id == id)
            || inner.slots.iter().any(|s| s.running == Some(id))
    }

    /// Queue `job` (see [`Pool::submit`]).
    fn submit(
        &self,
        job: &Job,
        files: Vec<File>,
        on_progress: OnProgress,
        on_done: OnDone,
    ) -> JobId {
        let id = {
            let mut inner = self.inner.borrow_mut();
            let id = {
                let mut shared = inner.shared.borrow_mut();
                let id = shared.next_job;
                shared.next_job += 1;
                id
            };
            inner.handlers.insert(
                id,
                Handlers {
                    on_progress,
                    on_done,
                    chunks: Vec::new(),
                },
            );
            let text = encode_envelope(&Envelope {
                id,
                job: job.clone(),
            });
            inner.queue.push_back(Queued { id, text, files });
            id
        };
        self.dispatch();
        id
    }

    /// See [`Pool::cancel`].
    fn cancel(&self, id: JobId) {
        let replace = {
            let mut inner = self.inner.borrow_mut();
            inner.handlers.remove(&id);
            inner.queue.retain(|q| q.id != id);
            match inner.slots.iter().position(|s| s.running == Some(id)) {
                Some(i) => {
                    let slot = inner.slots.remove(i);
                    slot.worker.terminate();
                    inner.terminated += 1;
                    true
                }
                None => false,
            }
        };
        if replace {
            self.spawn();
        }
        self.dispatch();
    }

    /// Start one more worker (it takes jobs once it says it is ready).
    fn spawn(&self) {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let (part, user_files) = {
            let inner = self.inner.borrow();
            (inner.part, inner.user_files)
        };
        let worker = match Worker::new_with_options(&worker_url(part, user_files), &options) {
            Ok(w) => w,
            Err(e) => {
                self.fail_queue(&format!(
                    "the analysis worker could not be started ({})",
                    describe(&e)
                ));
                return;
            }
        };
        let serial = {
            let mut inner = self.inner.borrow_mut();
            inner.next_serial += 1;
            inner.next_serial
        };
        let weak = Rc::downgrade(&self.inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            if let Some(pool) = upgrade(&weak) {
                let text = event.data().as_string().unwrap_or_default();
                pool.on_message(serial, &text);
            }
        });
        let weak = Rc::downgrade(&self.inner);
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            // A script error is an ErrorEvent; a failed load is a bare Event.
            let message = event.dyn_ref::<ErrorEvent>().map_or_else(
                || "its script could not be loaded".into(),
                web_sys::ErrorEvent::message,
            );
            if let Some(pool) = upgrade(&weak) {
                pool.on_failure(serial, &message);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self.inner.borrow_mut().slots.push(Slot {
            serial,
            worker,
            ready: false,
            running: None,
            memory: 0,
            _on_message: on_message,
            _on_error: on_error,
        });
    }

    /// Give queued jobs to idle workers; start workers while the queue is
    /// longer than the workers that will soon be free, up to the pool size.
    fn dispatch(&self) {
        let mut spawn = 0;
        {
            let mut inner = self.inner.borrow_mut();
            while let Some(i) = inner
                .slots
                .iter()
                .position(|s| s.ready && s.running.is_none())
            {
                let Some(job) = inner.queue.pop_front() else {
                    break;
                };
                if inner.slots[i].worker.post_message(&job.message()).is_ok() {
                    inner.slots[i].running = Some(job.id);
                } else {
                    inner.queue.push_front(job);
                    break;
                }
            }
            let loading = inner.slots.iter().filter(|s| !s.ready).count();
            let waiting = inner.queue.len();
            let room = inner.size.saturating_sub(inner.slots.len());
            if waiting > loading {
                spawn = (waiting - loading).min(room);
            }
        }
        for _ in 0..spawn {
            self.spawn();
        }
    }

    fn on_message(&self, serial: u64, text: &str) {
        let message = match decode_message(text) {
            Ok(m) => m,
            Err(e) => return self.on_failure(serial, &e),
        };
        match message {
            FromWorker::Ready => {
                if let Some(slot) = self
                    .inner
                    .borrow_mut()
                    .slots
                    .iter_mut()
                    .find(|s| s.serial == serial)
                {
                    slot.ready = true;
                }
                self.dispatch();
            }
            FromWorker::Memory {
                bytes,
                millis,
                read_millis,
                streamed_bytes,
                parse_millis,
                job,
            } => {
                let callback = {
                    let mut inner = self.inner.borrow_mut();
                    if let Some(slot) = inner.slots.iter_mut().find(|s| s.serial == serial) {
                        slot.memory = bytes;
                    }
                    let mut shared = inner.shared.borrow_mut();
                    shared.last = (millis, read_millis, streamed_bytes);
                    if job == "Import" || job == "Analyze" {
                        shared.last_import = (millis, read_millis, parse_millis);
                    }
                    shared.on_change.clone()
                };
                if let Some(f) = callback {
                    f();
                }
            }
            FromWorker::Progress { id, progress } => {
                // Taken out while called, so that the callback may use the pool.
                let taken = self.inner.borrow_mut().handlers.remove(&id);
                if let Some(mut h) = taken {
                    (h.on_progress)(progress);
                    self.inner.borrow_mut().handlers.entry(id).or_insert(h);
                }
            }
            FromWorker::Chunk { id, chunk } => {
                // A cancelled job's chunks are dropped with it.
                if let Some(h) = self.inner.borrow_mut().handlers.get_mut(&id) {
                    h.chunks.push(chunk);
                }
            }
            FromWorker::Panicked { message } => self.on_failure(serial, &message),
            FromWorker::Done { id, mut answer } => {
                let taken = {
                    let mut inner = self.inner.borrow_mut();
                    if let Some(slot) = inner.slots.iter_mut().find(|s| s.serial == serial) {
                        slot.running = None;
                    }
                    inner.handlers.remove(&id)
                };
                if let Some(mut h) = taken {
                    if let Err(e) = chunks::assemble(&mut answer, std::mem::take(&mut h.chunks)) {
                        answer = Answer::Failed(e);
                    }
                    (h.on_done)(answer);
                }
                self.dispatch();
            }
        }
    }

    /// A worker failed: its job is answered with the failure, and the worker
    /// is replaced.
    fn on_failure(&self, serial: u64, message: &str) {
        let (job, was_ready, others_ready) = {
            let mut inner = self.inner.borrow_mut();
            let Some(i) = inner.slots.iter().position(|s| s.serial == serial) else {
                return;
            };
            let slot = inner.slots.remove(i);
            slot.worker.terminate();
            inner.terminated += 1;
            let job = slot.running.and_then(|id| inner.handlers.remove(&id));
            let others_ready = inner.slots.iter().any(|s| s.ready);
            (job, slot.ready, others_ready)
        };
        if let Some(h) = job {
            (h.on_done)(Answer::Failed(format!(
                "the analysis worker stopped: {message}"
            )));
        }
        if was_ready {
            self.spawn();
            self.dispatch();
        } else if others_ready {
            self.dispatch();
        } else {
            // A worker that never loaded will not load on a second try either.
            self.fail_queue(&format!("the analysis worker could not load: {message}"));
        }
    }

    /// Answer every queued job with `message` (no worker can take them).
    fn fail_queue(&self, message: &str) {
        let failed: Vec<Handlers> = {
            let mut inner = self.inner.borrow_mut();
            let ids: Vec<JobId> = inner.queue.drain(..).map(|q| q.id).collect();
            ids.iter()
                .filter_map(|id| inner.handlers.remove(id))
                .collect()
        };
        for h in failed {
            (h.on_done)(Answer::Failed(message.to_string()));
        }
    }
}

fn upgrade(weak: &Weak<RefCell<Inner>>) -> Option<PartPool> {
    weak.upgrade().map(|inner| PartPool { inner })
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}
