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
//! - [`penalty`](mod@penalty): nested selection for F, O, F+O and every operation from
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

use serde::{Deserialize, Serialize};

use gapscope_data::operations::OperationSamples;
use gapscope_data::profile::ProfileTable;

use crate::analysis::{AnalysisError, Report};
use crate::settings::Settings;

/// Permutations per single-target test unless the user says otherwise (spec).
pub const DEFAULT_PERMUTATIONS: usize = 10_000;

/// Permutations of the ΔQ²(F+O − F) test unless the user says otherwise
/// (spec; each refits F+O).
pub const DEFAULT_DELTA_PERMUTATIONS: usize = 1_000;

/// Every number of this module for one report (`report --json`'s
/// `inference`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inference {
    pub correlations: CorrelationInference,
    /// Spearman ρ intervals (none when B = 0).
    pub rho: Option<rho::RhoIntervals>,
    pub penalty: Penalty,
    pub coefficients: coefficients::Coefficients,
    pub families: families::FamilyMeans,
    /// Permutation tests of held-out Q² (none when P = 0).
    pub permutations: Option<permutation::Permutations>,
    /// The permutation test of ΔQ² = Q²(F+O) − Q²(F) for reward (`q2` is
    /// the observed ΔQ²; none without a reward or when P = 0).
    pub delta_q2: Option<permutation::PermutationTest>,
    /// Gap intervals from the trajectories behind the scores (none without
    /// trajectories, or when B = 0).
    pub gap_intervals: Option<gap_intervals::GapIntervals>,
}

/// The inference of `report`, the analysis of `table` under `settings`;
/// `samples`: the trajectories' values behind the operation scores, if any.
///
/// # Errors
/// The table or settings [`crate::analyze`] rejects.
pub fn infer(
    table: &ProfileTable,
    settings: &Settings,
    report: &Report,
    samples: Option<&OperationSamples>,
    permutations: usize,
    delta_permutations: usize,
) -> Result<Inference, AnalysisError> {
    let gap_intervals = match samples {
        Some(s) if settings.bootstrap > 0 => {
            Some(gap_intervals::gap_intervals(table, settings, s)?)
        }
        _ => None,
    };
    Ok(Inference {
        correlations: correlations(&report.correlations),
        rho: rho::rho_intervals(report),
        penalty: penalty(table, settings)?,
        coefficients: coefficients::coefficients(table, settings)?,
        families: families::family_means(report),
        permutations: (permutations > 0)
            .then(|| permutation::permutation_tests(table, settings, permutations))
            .transpose()?,
        delta_q2: (delta_permutations > 0)
            .then(|| permutation::delta_q2_permutation_test(table, settings, delta_permutations))
            .flatten(),
        gap_intervals,
    })
}
