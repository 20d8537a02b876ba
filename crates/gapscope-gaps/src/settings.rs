//! The settings of the realization-gap analysis and their limits: the
//! penalty, its grid, the bootstrap, nested selection, the macro definition,
//! each validated before use ([`Settings::validate`]).

use serde::{Deserialize, Serialize};

use gapscope_stats::ridge::{Alpha, ParamError};

/// The most bootstrap draws accepted: [`gapscope_stats::bootstrap::MAX_DRAWS`].
pub use gapscope_stats::bootstrap::MAX_DRAWS as MAX_BOOTSTRAP;
/// Candidates of nested penalty selection (spec, D.2).
pub const NESTED_CANDIDATES: [f64; 6] = [0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0];
/// Two inner errors closer than this are tied; ties go to the larger alpha.
pub const NESTED_TIE: f64 = 1e-12;
/// The smallest ridge penalty the analysis takes (alpha and the grid's low
/// end). Below it the solve is ill-conditioned where the design is
/// rank-deficient (more predictors than training models, collinear columns):
/// the eigenvalues that are 0 in exact arithmetic come out of the
/// eigendecomposition as rounding noise of about 1e-16 × the largest (≤ n·p
/// for standardized columns), and dividing by noise + alpha turned MAE into
/// 4e+227 at alpha = 1e-300. With alpha ≥ 1e-6 the condition number of
/// Z'Z + αI is at most about n·p / 1e-6, and the noise stays below alpha for
/// n·p up to 1e9 (docs/decisions.md 23).
pub const MIN_ALPHA: f64 = 1e-6;
pub use gapscope_data::profile::MAX_MAGNITUDE;
/// The most folds (families, or models under leave-one-model-out) nested
/// penalty selection takes: it refits the inner hold-outs inside every outer
/// fold, about G² eigendecompositions (docs/limits.md).
pub const MAX_NESTED_FOLDS: usize = 1_000;

/// A validated log-spaced grid of penalties.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlphaGrid {
    pub lo: f64,
    pub hi: f64,
    pub points: usize,
}

impl Default for AlphaGrid {
    /// 25 points from 1e-2 to 1e4 (spec, Figure 4).
    fn default() -> Self {
        AlphaGrid {
            lo: 1e-2,
            hi: 1e4,
            points: 25,
        }
    }
}

impl AlphaGrid {
    pub fn new(lo: f64, hi: f64, points: usize) -> Result<Self, SettingsError> {
        Alpha::new(lo)?;
        Alpha::new(hi)?;
        if lo < MIN_ALPHA {
            return Err(SettingsError::AlphaTooSmall(lo));
        }
        if hi <= lo || !(2..=1000).contains(&points) {
            return Err(SettingsError::Grid { lo, hi, points });
        }
        Ok(AlphaGrid { lo, hi, points })
    }

    /// `10^(log10 lo + k (log10 hi − log10 lo) / (points − 1))`, like numpy.logspace.
    pub fn alphas(&self) -> Vec<Alpha> {
        let (a, b) = (self.lo.log10(), self.hi.log10());
        let step = (b - a) / (self.points - 1) as f64;
        (0..self.points)
            .filter_map(|k| Alpha::new(10f64.powf(a + k as f64 * step)).ok())
            .collect()
    }
}

/// How the overall (macro) operation score is formed (the one definition,
/// shared with the operation profile of labelled trajectories).
pub use gapscope_data::profile::MacroDefinition;

/// A setting that failed validation.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    #[error(transparent)]
    Param(#[from] ParamError),
    #[error("the penalty grid needs 0 < lo < hi and 2 to 1000 points, got lo = {lo}, hi = {hi}, points = {points}")]
    Grid { lo: f64, hi: f64, points: usize },
    #[error("bootstrap draws must be between 0 and {MAX_BOOTSTRAP}, got {0}")]
    Bootstrap(usize),
    #[error("the ridge penalty must be at least {MIN_ALPHA:e} (got {0:e}): below it the solve is ill-conditioned wherever the design is rank-deficient (more predictors than training models, or collinear columns), and held-out predictions become rounding noise")]
    AlphaTooSmall(f64),
}

/// Validated analysis settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub alpha: Alpha,
    /// Bootstrap draws B (0: no intervals).
    pub bootstrap: usize,
    pub seed: u64,
    #[serde(rename = "macro")]
    pub macro_definition: MacroDefinition,
    pub grid: AlphaGrid,
    /// Whether to run nested penalty selection.
    pub nested: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            alpha: Alpha::DEFAULT,
            bootstrap: 10_000,
            seed: 0,
            macro_definition: MacroDefinition::Mean,
            grid: AlphaGrid::default(),
            nested: true,
        }
    }
}

impl Settings {
    /// Check every field (for settings that did not come through the typed
    /// constructors, e.g. deserialized ones).
    pub fn validate(&self) -> Result<(), SettingsError> {
        Alpha::new(self.alpha.get())?;
        if self.alpha.get() < MIN_ALPHA {
            return Err(SettingsError::AlphaTooSmall(self.alpha.get()));
        }
        AlphaGrid::new(self.grid.lo, self.grid.hi, self.grid.points)?;
        if self.bootstrap > MAX_BOOTSTRAP {
            return Err(SettingsError::Bootstrap(self.bootstrap));
        }
        Ok(())
    }
}
