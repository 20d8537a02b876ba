//! gapscope-web: the browser front end.
//!
//! - [`model`]: view models built from core reports (host-testable, no leptos).
//! - `app` (wasm32 only): the leptos components; they render view models and
//!   send every computation to the analysis worker (`pool`).
//!
//! On the host only [`model`] is compiled, so `cargo test --workspace` never
//! builds leptos.

pub mod chart;
pub mod evidence_views;
pub mod model;
pub mod runtime_views;
pub mod table;
pub mod trajectory_views;
pub mod views;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod pool;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(target_arch = "wasm32")]
pub use app::start;
