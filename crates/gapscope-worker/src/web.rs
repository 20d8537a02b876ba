//! The browser side of a worker: `onmessage` → [`crate::handle_message_with`]
//! the worker's part ([`crate::PartJobs`]) → `postMessage`. Compiled for
//! wasm32 only.
//!
//! A message is either the envelope's JSON text, or an array whose first
//! element is that text and whose other elements are `File`s. Files of
//! up to [`PREFETCH`] bytes in all are fetched at once (the browser reads
//! them in parallel) and, for jobs that read inputs, parsed one by one
//! as they come ([`crate::read_ahead`]; not hashed: an analysis's
//! manifest gets its digests from a later [`crate::Job::Digests`]).
//! Larger ones become
//! [`crate::Attached::Reader`]s that read them in chunks with
//! `FileReaderSync` when the job asks (progress posted per chunk): a
//! canonical JSONL file is parsed as it streams and never held whole.
//! No copy of any file is made as a JS string.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, File, FileReaderSync, MessageEvent};

/// Bytes read per chunk.
const CHUNK: usize = 8 << 20;

thread_local! {
    /// Time spent in `FileReaderSync` during the current job, ms.
    static READ_MILLIS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    /// Time spent parsing fetched files during the current job, ms.
    static PARSE_MILLIS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    /// Bytes read by [`FileStream`]s during the current job.
    static STREAMED: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    /// Whether a job is under way.
    static BUSY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Install the message handler of a worker that runs `jobs` (one part's)
/// and tell the page the worker is ready. A panic (wasm32 aborts on one)
/// is logged to the console and posted to the page as
/// [`crate::FromWorker::Panicked`] with its message and place, so that the
/// job it ends is answered with why, not with the trap's bare
/// "unreachable".
pub fn start(jobs: crate::PartJobs) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let panics = scope.clone();
    std::panic::set_hook(Box::new(move |info| {
        console_error_panic_hook::hook(info);
        let message = crate::encode_message(&crate::FromWorker::Panicked {
            message: info.to_string(),
        });
        let _ = panics.post_message(&JsValue::from_str(&message));
    }));
    let out = scope.clone();
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        let (text, files) = if js_sys::Array::is_array(&data) {
            let parts: js_sys::Array = data.unchecked_into();
            let files: Vec<File> = (1..parts.length())
                .filter_map(|i| parts.get(i).dyn_into::<File>().ok())
                .collect();
            (parts.get(0).as_string().unwrap_or_default(), files)
        } else {
            (data.as_string().unwrap_or_default(), Vec::new())
        };
        let id = crate::envelope_id(&text);
        BUSY.with(|s| s.set(true));
        let started = js_sys::Date::now();
        let out = out.clone();
        // The pool sends a worker its next job only after this one's
        // answer, so jobs never overlap here.
        wasm_bindgen_futures::spawn_local(async move {
            let post = |m: String| {
                // A failed post means the page is gone; nothing is left to tell.
                let _ = out.post_message(&JsValue::from_str(&m));
            };
            let total: f64 = files.iter().map(|f| f.size()).sum();
            let attached = if !files.is_empty() && total <= prefetch_limit(&out) {
                let plan = jobs
                    .read_ahead
                    .and_then(|read| crate::read_plan(&text).map(|plan| (read, plan)));
                match prefetch(&files, id, &out, plan.as_ref()).await {
                    Some(a) => Ok(a),
                    None => readers(files, id, &out),
                }
            } else {
                readers(files, id, &out)
            };
            match attached {
                Ok(attached) => {
                    crate::handle_message_with(jobs.run, &text, attached, &mut |m| post(m));
                }
                Err(e) => post(crate::failure_message(id, e)),
            }
            let millis = js_sys::Date::now() - started;
            let bytes = u64::from(
                wasm_bindgen::memory()
                    .unchecked_into::<js_sys::WebAssembly::Memory>()
                    .buffer()
                    .unchecked_into::<js_sys::ArrayBuffer>()
                    .byte_length(),
            );
            post(crate::encode_message(&crate::FromWorker::Memory {
                bytes,
                millis,
                read_millis: READ_MILLIS.with(|r| r.replace(0.0)),
                streamed_bytes: STREAMED.with(|r| r.replace(0.0)),
                parse_millis: PARSE_MILLIS.with(|r| r.replace(0.0)),
                job: crate::job_kind(&text),
            }));
            BUSY.with(|s| s.set(false));
        });
    });
    scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    handler.forget();
    let ready = crate::encode_message(&crate::FromWorker::Ready);
    let _ = scope.post_message(&JsValue::from_str(&ready));
    // Warm the import path once the page has had time to load, unless a
    // job is under way (between its awaits).
    if let Some(warm_up) = jobs.warm_up {
        let warm = Closure::once_into_js(move || {
            if !BUSY.with(std::cell::Cell::get) {
                warm_up();
            }
        });
        let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(
            warm.unchecked_ref(),
            WARM_UP_AFTER_MS,
        );
    }
}

/// When an idle worker warms the import path ([`crate::warm_up`]), ms
/// after it started.
const WARM_UP_AFTER_MS: i32 = 1500;

/// Files up to this many bytes in all are fetched whole and hashed by the
/// browser ([`prefetch`]); larger ones stream.
const PREFETCH: usize = 64 << 20;

/// [`PREFETCH`], unless the worker's global `__GAPSCOPE_PREFETCH_BYTES`
/// says otherwise (the browser tests set 0 to take the streaming path
/// with small files).
fn prefetch_limit(scope: &DedicatedWorkerGlobalScope) -> f64 {
    js_sys::Reflect::get(scope, &JsValue::from_str("__GAPSCOPE_PREFETCH_BYTES"))
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(PREFETCH as f64)
}

/// Every file fetched whole; `None` when a read failed (the caller falls
/// back to [`readers`], which says why). The reads are asked for at once
/// (the browser's fastest way here: one after the other took about
/// twice as long; a read does not progress while this thread parses, so
/// they do not overlap the parse), and with a `plan` each file is parsed
/// in turn, its copy in wasm memory dropped before the next. Nothing is
/// hashed here (the browser's SHA-256 ran on this thread, ~30 ms for
/// 17 MB): an analysis's manifest gets its digests from a
/// [`crate::Job::Digests`] after the answer.
async fn prefetch(
    files: &[File],
    id: u64,
    scope: &DedicatedWorkerGlobalScope,
    plan: Option<&(crate::ReadAhead, crate::ReadPlan)>,
) -> Option<Vec<crate::Attached>> {
    use wasm_bindgen_futures::JsFuture;
    let total: f64 = files.iter().map(|f| f.size()).sum();
    let of = 1 + gapscope_gaps::analysis::STAGES.len() as u32;
    let tell = |label: String| {
        let progress = crate::Progress { label, step: 1, of };
        let _ = scope.post_message(&JsValue::from_str(&crate::progress_message(id, progress)));
    };
    tell(format!(
        "reading {} file{}: {:.1} MB",
        files.len(),
        gapscope_data::profile::plural(files.len()),
        total / 1e6
    ));
    let mut out = Vec::with_capacity(files.len());
    let mut done = 0.0;
    let reads: Vec<js_sys::Promise> = files.iter().map(|f| f.array_buffer()).collect();
    for (k, (file, read)) in files.iter().zip(reads).enumerate() {
        let t0 = js_sys::Date::now();
        let buffer: js_sys::ArrayBuffer = JsFuture::from(read).await.ok()?.unchecked_into();
        let t1 = js_sys::Date::now();
        READ_MILLIS.with(|r| r.set(r.get() + t1 - t0));
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        if files.len() > 1 {
            tell(format!(
                "reading {} (file {} of {}; {:.1} of {:.1} MB)",
                file.name(),
                k + 1,
                files.len(),
                done / 1e6,
                total / 1e6
            ));
        }
        done += file.size();
        out.push(match plan {
            Some((read, plan)) => read(file.name(), bytes, plan),
            None => crate::Attached::Bytes(file.name(), bytes),
        });
        PARSE_MILLIS.with(|r| r.set(r.get() + js_sys::Date::now() - t1));
    }
    Some(out)
}

/// One reader per file; progress counts over all of them.
fn readers(
    files: Vec<File>,
    id: u64,
    scope: &DedicatedWorkerGlobalScope,
) -> Result<Vec<crate::Attached>, String> {
    let total: f64 = files.iter().map(|f| f.size()).sum();
    let done = std::rc::Rc::new(std::cell::Cell::new(0.0));
    let reader = FileReaderSync::new().map_err(|e| format!("cannot read files here: {e:?}"))?;
    Ok(files
        .into_iter()
        .map(|file| {
            let name = file.name();
            crate::Attached::Reader(
                name.clone(),
                Box::new(FileStream {
                    size: file.size() as usize,
                    file,
                    name,
                    at: 0,
                    buffer: Vec::new(),
                    used: 0,
                    reader: reader.clone(),
                    id,
                    scope: scope.clone(),
                    done: done.clone(),
                    total,
                }),
            )
        })
        .collect())
}

/// A `File` read in chunks of [`CHUNK`] bytes (one chunk in memory).
struct FileStream {
    file: File,
    name: String,
    size: usize,
    /// Bytes of the file read so far.
    at: usize,
    buffer: Vec<u8>,
    /// Bytes of `buffer` handed out.
    used: usize,
    reader: FileReaderSync,
    id: u64,
    scope: DedicatedWorkerGlobalScope,
    /// Bytes read of all the job's files, and their total.
    done: std::rc::Rc<std::cell::Cell<f64>>,
    total: f64,
}

impl FileStream {
    fn fill(&mut self) -> std::io::Result<()> {
        let failed = |what: String| std::io::Error::other(what);
        let end = (self.at + CHUNK).min(self.size);
        let blob = self
            .file
            .slice_with_f64_and_f64(self.at as f64, end as f64)
            .map_err(|e| failed(format!("{e:?}")))?;
        let t0 = js_sys::Date::now();
        let buffer = self
            .reader
            .read_as_array_buffer(&blob)
            .map_err(|e| failed(format!("{e:?}")))?;
        READ_MILLIS.with(|r| r.set(r.get() + js_sys::Date::now() - t0));
        let chunk = js_sys::Uint8Array::new(&buffer);
        let n = chunk.length() as usize;
        if n == 0 {
            return Err(failed("the file changed while it was read".into()));
        }
        self.buffer.resize(n, 0);
        chunk.copy_to(&mut self.buffer);
        self.used = 0;
        self.at += n;
        self.done.set(self.done.get() + n as f64);
        STREAMED.with(|s| s.set(s.get() + n as f64));
        let progress = crate::Progress {
            label: format!(
                "reading {}: {:.1} of {:.1} MB",
                self.name,
                self.done.get() / 1e6,
                self.total / 1e6
            ),
            step: 1,
            of: 1 + gapscope_gaps::analysis::STAGES.len() as u32,
        };
        let _ = self
            .scope
            .post_message(&JsValue::from_str(&crate::progress_message(
                self.id, progress,
            )));
        Ok(())
    }
}

impl std::io::Read for FileStream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.used == self.buffer.len() {
            if self.at >= self.size {
                return Ok(0);
            }
            self.fill()?;
        }
        let n = buf.len().min(self.buffer.len() - self.used);
        buf[..n].copy_from_slice(&self.buffer[self.used..self.used + n]);
        self.used += n;
        Ok(n)
    }
}
