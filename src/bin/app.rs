//! The page's entry point: mounts the leptos app.
#[cfg(target_arch = "wasm32")]
fn main() {
    gapscope_web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the gapscope page builds for wasm32 only: run `scripts/run.sh`");
}
