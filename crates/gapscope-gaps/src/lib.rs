//! Capability realization gaps (papers 000/001; spec: realization-gaps.md):
//! from foundational and operation profiles to held-out predictions, the
//! residual gaps and every table around them.
//!
//! - [`analysis`]: [`analyze`] → [`Report`] (held-out ridge, metrics,
//!   bootstrap intervals, gaps, reward prediction).
//! - [`checks`]: warnings about the table itself.
//! - [`experiments`]: interventions and continuations, beside the corpus.
//! - [`inference`]: how sure each number is (computed apart from the analysis).
//! - [`assoc`]: association sensitivity.
//! - [`stability`]: cross-task stability of the operation profile.
//! - [`overview`]: the trajectory overview and stability of a set of inputs.
//! - [`proxy_labels`], [`task_groups`]: deterministic labels and scenario
//!   groups from τ²-bench traces.
//! - [`manifest`]: the reproducibility manifest of a report.
//! - [`settings`]: the analysis settings and their limits (re-exported by
//!   [`analysis`]).

pub mod analysis;
pub mod assoc;
pub mod checks;
pub mod experiments;
pub mod inference;
pub mod manifest;
mod nested;
pub mod overview;
pub mod proxy_labels;
pub mod reimport;
pub mod settings;
pub mod stability;
pub mod task_groups;

pub use analysis::{analyze, Report, Settings};
