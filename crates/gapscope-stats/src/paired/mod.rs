//! Paired statistics for comparing runs on the same tasks
//! (spec: `comparisons.md`; the clustered exact McNemar of
//! `evidence-to-action.addendum.md` §2).
//!
//! Generic and format-free: a run is a list of [`TaskDraws`] (a task's key
//! and its scored trials' rewards), validated into a [`Run`].
//!
//! - One run: [`summarize_run`] → [`RunSummary`] (x̄, clustered SE, normal
//!   and bootstrap intervals, pass^k and pass@k, Wilson, flip rate, ICC(1)).
//! - Two runs: [`compare_pair`] → [`PairComparison`] (d_t, Δ, paired
//!   bootstrap and normal intervals, sign test, sign-flip permutation test,
//!   MDE, the per-task table).
//! - Many runs: [`compare_runs`] → [`ComparisonReport`] (every pair with
//!   [`holm`] and [`benjamini_hochberg`] adjustments, bootstrap ranks).
//! - Exact tests usable alone: [`sign_test_p`], [`sign_flip_exact_p`] and
//!   [`clustered_exact_mcnemar`] (the function the evidence part shares).
//!
//! # Input
//!
//! Rewards are on [0, 1]; [`rescale_rewards`] applies the spec's rule (as is,
//! or 0–100 divided by 100, or refused naming the value, unless a scale is
//! given) and says whether it rescaled. **Success** is `x ≥ 1 − 1e-6`
//! ([`SUCCESS_THRESHOLD`]). Excluded trajectories are the caller's: it
//! leaves them out (or passes them as 0 to count them as failures) and
//! counts them. Tasks are sorted by key as text.
//!
//! # Draws (how the PRNG is consumed)
//!
//! [`Settings`] holds B (bootstrap draws, default 10,000; 0 = no interval),
//! P (Monte Carlo sign patterns, default 10,000) and the seed (default 0).
//! Every section below starts a **fresh** stream `ChaCha8Rng::seed_from_u64(seed)`
//! (rand_chacha 0.9), so sections do not depend on one another or on their
//! order:
//!
//! 1. each run's bootstrap, over its own n tasks in key order: for draw
//!    1 … B, for position 1 … n, `i = random_range(0..n)` on `u32`; the
//!    draw's x̄ = Σ sums of the picked tasks / Σ their trials, and for each
//!    k, pass^k and pass@k = the mean over the picked tasks (with repeats)
//!    with k_t ≥ k (skipped when none);
//! 2. each pair's bootstrap, the same way over the n common tasks in key
//!    order; the draw's Δ = mean of the picked d_t. Pairs with the same
//!    common tasks therefore share their draws;
//! 3. each pair's Monte Carlo permutation test (only when neither exact
//!    method applies): for pattern 1 … P, for each nonzero d_t in key order,
//!    one `random_range(0..2)` on `u32` (1 flips the sign);
//! 4. the ranks, as 1. over the tasks common to all runs, ranking the runs'
//!    draw means.
//!
//! Bounds are the 2.5th and 97.5th percentiles of the defined draws by
//! numpy's linear interpolation ([`crate::bootstrap::interval95`]);
//! skipped draws are counted ([`BootInterval::skipped`]). An independent
//! implementation reproduces the indices' *distribution*, not the ChaCha
//! stream, so bootstrap and Monte Carlo numbers agree with it only within
//! Monte Carlo error; every other number is exact.
//!
//! # Choices where the spec is silent
//!
//! - **Ties of d_t**: |d_t| ≤ 1e-12 ([`TIE_TOLERANCE`]) is a tie for the sign
//!   test and is not flipped by the permutation test (trial means of equal
//!   rewards summed in another order can differ by an ulp). Δ itself is
//!   reported as computed.
//! - **Exact by convolution** applies when every common task has the same
//!   k_t in both runs and D_t = Σ_A x − Σ_B x is an integer (within 1e-9);
//!   the weights are D_t · L / k_t with L the lcm of those k_t (≤ 2^20), so
//!   the test is exactly that of |Δ| even when k_t varies across tasks, and
//!   with one k for all tasks it *is* the clustered exact McNemar (weights
//!   D_t). It is used whenever it applies (also for n' ≤ 16) and its table
//!   fits ([`MAX_CONVOLUTION_SUM`], [`MAX_CONVOLUTION_WORK`]); else
//!   enumeration for n' ≤ 16, else Monte Carlo.
//! - **`exact_mcnemar`** is flagged when every common task has one trial in
//!   each run with a reward of exactly 0 or 1.
//! - **One common task**: the bootstrap interval is [d, d] with `one_unit`;
//!   the sign and permutation tests give 1 by their definitions; sd, the
//!   normal interval and the MDE (which need n − 1 > 0) are `None`.
//! - **Zero variance** (all d_t equal, n ≥ 2): sd is exactly 0, so the normal
//!   interval is [Δ, Δ] and the MDE 0.
//! - **ICC(1)** uses every task as a group (a one-trial task adds to MSB
//!   and to N and n, nothing to MSW), is undefined with fewer than two
//!   tasks of ≥ 2 trials, and when every reward is equal (0/0); it is not
//!   clipped at 0.
//! - **pass^k, pass@k** use the product form Π_{i<k} (c − i)/(k_t − i) of
//!   the binomial ratio (no overflow).
//! - **Adjustments**: only the defined p-values of the pairs shown form the
//!   family; an undefined p stays undefined.
//! - **Ranks**: rank 1 is the highest mean; tied means share the average
//!   rank (scipy's `rankdata(-means)`, exact equality). The point rank is
//!   that of x̄ over the tasks common to all runs.
//! - **Monte Carlo with P = 0** gives no p-value.
//! - **Input**: a task without a trial, or a key given twice, is refused
//!   ([`RunError`]).
//!
//! # JSON
//!
//! Every result type derives `Serialize`; field names are the Rust field
//! names (listed on each type) and `None` is `null`. [`ComparisonReport`] is
//! `{"settings": {"draws", "permutations", "seed"}, "runs": [RunRow…],
//! "pairs": [PairRow…], "ranks": {"common", "rows": [RankRow…]}}`;
//! intervals from the normal approximation and Wilson are `[lo, hi]` arrays,
//! bootstrap intervals are [`BootInterval`] objects.
//!
//! # Cross-check
//!
//! `bench/compare_paired.py` recomputes every exact number with numpy and
//! scipy (binomtest, f_oneway, false_discovery_control, rankdata; the exact
//! permutation p over rationals) and compares the report of
//! `examples/paired_json.rs` to 1e-9; bootstrap and Monte Carlo numbers
//! within Monte Carlo tolerance:
//!
//! ```text
//! scripts/sklearn-venv.sh
//! cargo build --release -p gapscope-stats --example paired_json
//! target/bench-venv/bin/python bench/compare_paired.py target/release/examples/paired_json
//! ```

mod draws;
mod exact;
mod input;
mod many;
mod run;
mod two;

use serde::{Deserialize, Serialize};

pub use draws::{with_draw_cache, BootInterval};
pub use exact::{
    clustered_exact_mcnemar, sign_flip_exact_p, sign_test_p, ClusteredMcNemar, MAX_CONVOLUTION_SUM,
    MAX_CONVOLUTION_WORK, MAX_ENUMERATED,
};
pub use input::{rescale_rewards, Run, RunError, TaskDraws, SUCCESS_THRESHOLD};
pub use many::{
    benjamini_hochberg, compare_runs, holm, Adjusted, ComparisonReport, PValueError, PairRow,
    RankRow, Ranks, RunRow,
};
pub use run::{summarize_run, PassK, RunSummary};
pub use two::{
    bootstrap_mean, bootstrap_means, bootstrap_statistic, cluster_bootstrap_mean, compare_pair,
    PairComparison, Permutation, PermutationMethod, SignTest, TaskDiff,
};

use crate::bootstrap::MAX_DRAWS;

/// The standard normal 0.975 quantile, wherever the spec writes 1.96.
pub const Z_975: f64 = 1.959963984540054;

/// The standard normal 0.8 quantile (power 0.8 in the MDE).
pub const Z_80: f64 = 0.8416212335729143;

/// |d_t| at or below this is a tie, and `|Δ*| ≥ |Δ| − TIE_TOLERANCE` counts
/// as reaching |Δ|.
pub const TIE_TOLERANCE: f64 = 1e-12;

/// A setting outside its range, with the offending value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("bootstrap draws must be at most {MAX_DRAWS}, got {0}")]
    Draws(usize),
    #[error("permutation patterns must be at most {MAX_DRAWS}, got {0}")]
    Permutations(usize),
}

/// Validated draw settings. JSON: `{"draws", "permutations", "seed"}`;
/// read back through [`Settings::new`], so a value out of range is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SettingsText")]
pub struct Settings {
    draws: usize,
    permutations: usize,
    seed: u64,
}

/// [`Settings`] as read, before validation.
#[derive(Deserialize)]
struct SettingsText {
    draws: usize,
    permutations: usize,
    seed: u64,
}

impl TryFrom<SettingsText> for Settings {
    type Error = SettingsError;
    fn try_from(s: SettingsText) -> Result<Settings, SettingsError> {
        Settings::new(s.draws, s.permutations, s.seed)
    }
}

impl Settings {
    /// The spec's defaults: B = 10,000, P = 10,000, seed 0.
    pub const DEFAULT: Settings = Settings {
        draws: 10_000,
        permutations: 10_000,
        seed: 0,
    };

    /// `draws` (B; 0 = no bootstrap interval) and `permutations` (P) each at
    /// most [`MAX_DRAWS`].
    pub fn new(draws: usize, permutations: usize, seed: u64) -> Result<Settings, SettingsError> {
        if draws > MAX_DRAWS {
            return Err(SettingsError::Draws(draws));
        }
        if permutations > MAX_DRAWS {
            return Err(SettingsError::Permutations(permutations));
        }
        Ok(Settings {
            draws,
            permutations,
            seed,
        })
    }

    /// B, the bootstrap draws.
    pub fn draws(&self) -> usize {
        self.draws
    }

    /// P, the Monte Carlo sign patterns.
    pub fn permutations(&self) -> usize {
        self.permutations
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self::DEFAULT
    }
}
