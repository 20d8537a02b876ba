//! The realization-gap part's worker of the first load (src/pool.rs): the
//! jobs on the embedded example and corpus only (`PartJobs::GAPS_EMBEDDED`),
//! built without gapscope-data's `readers`, so that its wasm links no
//! evidence or runtime code and no file reader beyond canonical JSONL and
//! the profile tables (`worker_files` reads the user's files).
#[cfg(target_arch = "wasm32")]
fn main() {
    gapscope_worker::web::start(gapscope_worker::PartJobs::GAPS_EMBEDDED);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope worker builds for wasm32 only: run `scripts/run.sh`");
}
