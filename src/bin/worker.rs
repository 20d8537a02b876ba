//! The realization-gap part's worker (the page's first pool, src/pool.rs):
//! only starts the worker defined in `gapscope-worker` with that part's
//! jobs, so that its wasm links no evidence or runtime code.
#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    gapscope_worker::web::start(gapscope_worker::PartJobs::GAPS);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope worker builds for wasm32 only: run `scripts/run.sh`");
}
