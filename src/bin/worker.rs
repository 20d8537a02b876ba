//! The analysis worker's entry point: only starts the worker defined in
//! `gapscope-worker`.
#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    gapscope_worker::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope worker builds for wasm32 only: run `scripts/run.sh`");
}
