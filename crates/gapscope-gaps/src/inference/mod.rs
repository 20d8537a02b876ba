//! How sure each number is, and the paper's analyses beyond one α and one
//! fit (spec: realization-gaps.md, "Beyond one α and one fit" and "How sure
//! is each number"): computed apart from [`crate::analyze`], so that the
//! page draws the analysis first and asks for these in a job of its own
//! (the first-load worker does not link them); the CLI's `report --json`
//! will carry them as `inference`.
//!
//! - [`coefficients`]: every fit's standardized coefficients, with their
//!   range over the fold fits.
//! - [`correlation`]: the F × O cells' Fisher intervals and p-values, Holm
//!   and BH adjusted.
//! - [`families`]: mean gaps per family and operation.
//! - [`gap_intervals`]: each model's gaps resampled from its own trajectories.
//! - [`heldout_map`]: the held-out predictions as a linear map of the target.
//! - [`permutation`]: permutation p-values of held-out Q².
//! - [`rho`]: Spearman ρ intervals on the report's bootstrap draws.
//! - [`penalty`]: nested selection for F, O, F+O and every operation from
//!   F; every operation's Q² and MAE over the α grid.

pub mod coefficients;
pub mod correlation;
pub mod families;
pub mod gap_intervals;
pub mod heldout_map;
pub mod penalty;
pub mod permutation;
pub mod rho;

pub use correlation::{correlations, CorrelationInference, PValues, SIGNIFICANT};
pub use penalty::{penalty, NestedAll, OperationCurves, Penalty};
