//! Run comparisons (spec: `comparisons.md`): is run A better than run B on
//! the same tasks, and by how much beyond noise.
//!
//! - [`runs`]: runs from any trajectories (keyed by model, file or a field;
//!   merged; renamed; split by file when files repeat a (task, trial)),
//!   excluded trajectories counted and listed.
//! - [`align`]: the tool calls of two trajectories aligned for a
//!   side-by-side view ([`align::align`]: longest common subsequence on
//!   (name, canonical arguments), the first unmatched call marked).
//! - [`report`]: [`report::compare`], the one function the CLI's `gapscope
//!   compare` and the page call: the runs and every number of
//!   [`gapscope_stats::paired`] over them.

pub mod align;
pub mod report;
pub mod runs;

pub use report::{compare, CompareReport, RunReport, SCHEMA};
pub use runs::{CompareError, Merge, RunKey, RunOptions, Source};
