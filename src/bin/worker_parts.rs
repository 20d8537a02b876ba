//! The worker of the evidence-to-action and runtime-contracts parts
//! (`PartJobs::EVIDENCE_RUNTIME`): both parts' pools start it (src/pool.rs);
//! one wasm for the two small parts keeps the page's whole budget.
#[cfg(target_arch = "wasm32")]
fn main() {
    gapscope_worker::web::start(gapscope_worker::PartJobs::EVIDENCE_RUNTIME);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope worker builds for wasm32 only: run `scripts/run.sh`");
}
