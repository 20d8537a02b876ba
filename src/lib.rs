//! gapscope-web: the browser front end.
//!
//! The view models live in `gapscope-view` (host-testable, no leptos); this
//! crate is wasm-only:
//! - `app` (wasm32 only): the root component, its tabs and top bar; the
//!   parts of the page, their shared components (`parts::widgets`) and the
//!   `Workbench` that composes their state in `parts`; they
//!   render view models and send every computation to the analysis worker
//!   (`pool`).
//!
//! On the host nothing but this doc is compiled, so `cargo test --workspace`
//! never builds leptos.

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod folders;
#[cfg(target_arch = "wasm32")]
mod parts;
#[cfg(target_arch = "wasm32")]
mod pool;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(target_arch = "wasm32")]
pub use app::start;
