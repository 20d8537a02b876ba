//! gapscope's statistics layer: numbers only, no file formats, no paper.
//!
//! - [`summary`]: means, variance, average ranks, Pearson and Spearman with
//!   pairwise deletion (undefined stays `None`).
//! - [`ridge`]: the plain definition of ridge with an unpenalized intercept on
//!   standardized features ([`ridge::Alpha`] is the validated penalty).
//! - [`heldout`]: held-out prediction by group — [`heldout::reference`](mod@heldout::reference)
//!   (row refits, the definition) and [`heldout::engine`] (per-group sums,
//!   one eigendecomposition per training set; the fast path, tested against
//!   the reference).
//! - [`bootstrap`]: group bootstrap with fixed predictions, paired
//!   differences, percentiles.
//! - [`inference`]: a correlation's Fisher-z interval and t-test p-value
//!   (scipy's `pearsonr`/`spearmanr` p), Holm and BH over a matrix.
//! - [`paired`]: comparing runs on the same tasks — one run's x̄, clustered
//!   SE, pass^k/pass@k, Wilson, flip rate, ICC(1); two runs' Δ with paired
//!   bootstrap, sign test and sign-flip permutation test (the clustered
//!   exact McNemar), MDE; many runs' Holm/BH adjustments and bootstrap ranks.

pub mod bootstrap;
pub mod heldout;
pub mod inference;
pub mod paired;
pub mod ridge;
pub mod summary;

pub use ridge::Alpha;
