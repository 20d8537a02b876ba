//! The realization-gap part's worker for the user's files (src/pool.rs
//! sends it every gaps job whose source is not the embedded data): the same
//! jobs as `worker`, built with every reader (`--features full`,
//! www/index.html), started on the first such job.
#[cfg(target_arch = "wasm32")]
fn main() {
    gapscope_worker::web::start(gapscope_worker::PartJobs::GAPS);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope worker builds for wasm32 only: run `scripts/run.sh`");
}
