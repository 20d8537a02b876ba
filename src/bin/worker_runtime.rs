//! The runtime-contracts part's worker, loaded when the page first runs a
//! runtime job (src/pool.rs): the worker of `gapscope-worker` with that
//! part's jobs only.
#[cfg(target_arch = "wasm32")]
fn main() {
    gapscope_worker::web::start(gapscope_worker::PartJobs::RUNTIME);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope worker builds for wasm32 only: run `scripts/run.sh`");
}
