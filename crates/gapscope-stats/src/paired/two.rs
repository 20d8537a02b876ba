//! Two runs on their common tasks (spec "Two runs on the same tasks").

use serde::{Deserialize, Serialize};

use super::draws::{BootInterval, Collector, DrawCache};
use super::exact::{enumerate_p, monte_carlo_p, sign_flip_exact_p, sign_test_p, MAX_ENUMERATED};
use super::{Run, Settings, TIE_TOLERANCE, Z_80, Z_975};
use crate::summary::{is_constant, mean};

/// One common task's row of the per-task table.
///
/// JSON: `{"key", "mean_a", "mean_b", "trials_a", "trials_b", "d"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskDiff {
    pub key: String,
    pub mean_a: f64,
    pub mean_b: f64,
    pub trials_a: usize,
    pub trials_b: usize,
    /// d_t = mean_a − mean_b.
    pub d: f64,
}

/// The sign test on the d_t.
///
/// JSON: `{"positive", "negative", "ties", "p", "exact_mcnemar"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SignTest {
    /// b: tasks with d_t > 1e-12.
    pub positive: usize,
    /// c: tasks with d_t < −1e-12.
    pub negative: usize,
    /// Tasks with |d_t| ≤ 1e-12.
    pub ties: usize,
    /// `min(1, 2·P(X ≤ min(b, c)))`; `None` with no common task.
    pub p: Option<f64>,
    /// One trial with reward exactly 0 or 1 per task in each run: the test
    /// is the exact McNemar test, and the report calls it so.
    pub exact_mcnemar: bool,
}

/// How the permutation p-value was computed. JSON: `"convolution"`,
/// `"enumeration"`, `"monte_carlo"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PermutationMethod {
    /// Exact, over integer sums ([`sign_flip_exact_p`]).
    Convolution,
    /// Exact, all 2^n' patterns listed (n' ≤ 16).
    Enumeration,
    /// Seeded random patterns, `p = (1 + #) / (1 + P)`.
    MonteCarlo,
}

/// The sign-flip permutation test of |Δ|.
///
/// JSON: `{"p", "method", "nonzero", "patterns"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Permutation {
    /// Two-sided p; `None` with no common task, or Monte Carlo with P = 0.
    pub p: Option<f64>,
    /// `None` with no common task.
    pub method: Option<PermutationMethod>,
    /// n': the d_t that are flipped (|d_t| > 1e-12; under convolution, D_t ≠ 0).
    pub nonzero: usize,
    /// Patterns counted: 2^n' (enumeration), P (Monte Carlo), 0 (convolution).
    pub patterns: usize,
}

/// Run A against run B on their common tasks. Differences are A − B.
///
/// JSON: the field names below; `tasks` is the per-task table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairComparison {
    /// n: tasks scored in both runs.
    pub common: usize,
    /// Keys of the tasks only A has (sorted).
    pub only_a: Vec<String>,
    /// Keys of the tasks only B has (sorted).
    pub only_b: Vec<String>,
    /// Δ = mean_t d_t; `None` with no common task.
    pub delta: Option<f64>,
    /// sd(d_t) with n − 1 (exactly 0 when every d_t is equal); `None` with n < 2.
    pub sd: Option<f64>,
    /// Paired task bootstrap of Δ; `None` when B = 0 or n = 0.
    pub bootstrap: Option<BootInterval>,
    /// Δ ± z·sd/√n; `None` with n < 2.
    pub normal: Option<[f64; 2]>,
    /// (z₀.₉₇₅ + z₀.₈)·sd/√n; `None` with n < 2.
    pub mde: Option<f64>,
    pub sign_test: SignTest,
    pub permutation: Permutation,
    /// The per-task table, in task order.
    pub tasks: Vec<TaskDiff>,
}

/// Common tasks as (index in A, index in B), and the keys of each side alone.
fn match_tasks(a: &Run, b: &Run) -> (Vec<(usize, usize)>, Vec<String>, Vec<String>) {
    let (ta, tb) = (a.tasks(), b.tasks());
    let (mut i, mut j) = (0, 0);
    let (mut both, mut only_a, mut only_b) = (Vec::new(), Vec::new(), Vec::new());
    while i < ta.len() || j < tb.len() {
        match (ta.get(i), tb.get(j)) {
            (Some(x), Some(y)) if x.key == y.key => {
                both.push((i, j));
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.key < y.key => {
                only_a.push(x.key.clone());
                i += 1;
            }
            (Some(x), None) => {
                only_a.push(x.key.clone());
                i += 1;
            }
            (_, Some(y)) => {
                only_b.push(y.key.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    (both, only_a, only_b)
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

/// The integer weights w_t = D_t · L / k_t when every common task has the
/// same k_t in both runs and D_t = Σ_A x − Σ_B x is an integer (within
/// 1e-9), with L the lcm of the k_t of the nonzero D_t; then Σ ε_t w_t =
/// L · n · Δ* exactly. `None` otherwise (or L beyond 2^20).
fn integer_weights(a: &Run, b: &Run, both: &[(usize, usize)]) -> Option<Vec<i64>> {
    let mut d = Vec::with_capacity(both.len());
    for &(i, j) in both {
        let k = a.trials(i);
        if k != b.trials(j) {
            return None;
        }
        let diff = a.sum(i) - b.sum(j);
        let rounded = diff.round();
        if (diff - rounded).abs() > 1e-9 {
            return None;
        }
        d.push((rounded as i64, k as u64));
    }
    let mut l = 1u64;
    for &(x, k) in &d {
        if x != 0 {
            l = lcm(l, k).filter(|&v| v <= 1 << 20)?;
        }
    }
    d.iter()
        .map(|&(x, k)| x.checked_mul(i64::try_from(l / k).ok()?))
        .collect()
}

/// The permutation test: convolution when the integer weights exist and fit
/// the table's bounds, else enumeration when n' ≤ 16, else Monte Carlo.
fn permutation(
    a: &Run,
    b: &Run,
    both: &[(usize, usize)],
    d: &[f64],
    settings: &Settings,
) -> Permutation {
    let n = d.len();
    if n == 0 {
        return Permutation {
            p: None,
            method: None,
            nonzero: 0,
            patterns: 0,
        };
    }
    if let Some(w) = integer_weights(a, b, both) {
        if let Some(p) = sign_flip_exact_p(&w) {
            return Permutation {
                p: Some(p),
                method: Some(PermutationMethod::Convolution),
                nonzero: w.iter().filter(|&&x| x != 0).count(),
                patterns: 0,
            };
        }
    }
    let nonzero: Vec<f64> = d
        .iter()
        .copied()
        .filter(|x| x.abs() > TIE_TOLERANCE)
        .collect();
    if nonzero.len() <= MAX_ENUMERATED {
        return Permutation {
            p: Some(enumerate_p(&nonzero, n)),
            method: Some(PermutationMethod::Enumeration),
            nonzero: nonzero.len(),
            patterns: 1 << nonzero.len(),
        };
    }
    Permutation {
        p: monte_carlo_p(&nonzero, n, settings.permutations(), settings.seed()),
        method: Some(PermutationMethod::MonteCarlo),
        nonzero: nonzero.len(),
        patterns: settings.permutations(),
    }
}

/// The sign test and whether it is the exact McNemar test.
fn sign_test(a: &Run, b: &Run, both: &[(usize, usize)], d: &[f64]) -> SignTest {
    let positive = d.iter().filter(|&&x| x > TIE_TOLERANCE).count();
    let negative = d.iter().filter(|&&x| x < -TIE_TOLERANCE).count();
    let binary_single = |r: &Run, i: usize| {
        let x = &r.tasks()[i].rewards;
        x.len() == 1 && (x[0] == 0.0 || x[0] == 1.0)
    };
    SignTest {
        positive,
        negative,
        ties: d.len() - positive - negative,
        p: (!d.is_empty()).then(|| sign_test_p(positive, negative)),
        exact_mcnemar: !both.is_empty()
            && both
                .iter()
                .all(|&(i, j)| binary_single(a, i) && binary_single(b, j)),
    }
}

/// Sample SD (n − 1) of `d`, exactly 0 when every value is equal; `None` with n < 2.
fn sample_sd(d: &[f64]) -> Option<f64> {
    let n = d.len();
    if n < 2 {
        return None;
    }
    if is_constant(d) {
        return Some(0.0);
    }
    let m = mean(d)?;
    let ss: f64 = d.iter().map(|x| (x - m) * (x - m)).sum();
    Some((ss / (n as f64 - 1.0)).sqrt())
}

/// Run `a` against run `b` (differences A − B) on the tasks scored in both.
/// The paired bootstrap draws from a fresh stream seeded with
/// [`Settings::seed`] over the common tasks in key order, so every pair on
/// the same common tasks shares its draws; a Monte Carlo permutation test
/// uses its own fresh stream (see [`super`]).
///
/// Worked example (also a test): d = (1, 1, −0.5, 0) gives Δ = 0.375,
/// b = 2, c = 1, sign p = min(1, 2·P(X ≤ 1 | 3)) = 1, and the 2³ sign
/// patterns of (1, 1, −0.5) have |sums| 1.5, 2.5, 0.5, 0.5, 0.5, 0.5, 2.5,
/// 1.5, so the exact p is 4/8.
///
/// ```
/// use gapscope_stats::paired::{compare_pair, Run, Settings, TaskDraws};
/// let t = |k: &str, r: &[f64]| TaskDraws { key: k.into(), rewards: r.to_vec() };
/// let a = Run::new(vec![t("1", &[1.0]), t("2", &[1.0]), t("3", &[0.5]), t("4", &[0.0])]).unwrap();
/// let b = Run::new(vec![t("1", &[0.0]), t("2", &[0.0]), t("3", &[1.0]), t("4", &[0.0])]).unwrap();
/// let c = compare_pair(&a, &b, &Settings::default());
/// assert_eq!(c.delta, Some(0.375));
/// assert_eq!(c.sign_test.p, Some(1.0));
/// assert_eq!(c.permutation.p, Some(0.5));
/// ```
pub fn compare_pair(a: &Run, b: &Run, settings: &Settings) -> PairComparison {
    compare_pair_in(a, b, settings, &mut DrawCache::default())
}

/// [`compare_pair`] with the report's draws ([`DrawCache`]).
pub(crate) fn compare_pair_in(
    a: &Run,
    b: &Run,
    settings: &Settings,
    cache: &mut DrawCache,
) -> PairComparison {
    let (mut pair, d) = pair_without_bootstrap(a, b, settings);
    let n = d.len();
    let mut boot = Collector::with_capacity(settings.draws());
    cache.for_each(n, settings.draws(), settings.seed(), |picks| {
        boot.push(Some(draw_delta(&d, picks)));
    });
    pair.bootstrap = boot.finish(n == 1);
    pair
}

/// One draw's Δ: the mean of the picked d_t (in pick order).
pub(crate) fn draw_delta(d: &[f64], picks: &[u32]) -> f64 {
    picks.iter().map(|&i| d[i as usize]).sum::<f64>() / d.len() as f64
}

/// The paired bootstrap of a mean of per-unit differences alone: the
/// interval [`compare_pair`] gives Δ when its d_t are `d` (section 2 of the
/// module's draws, B = `draws`, a fresh stream from `seed`); `None` when `d`
/// is empty or `draws` is 0. The parts whose differences are not two runs'
/// trial means (the runtime contrasts, the evidence paired rows) resample
/// through this, so every part draws the same way.
///
/// A constant `d` gives [d, d]; no unit, no interval:
///
/// ```
/// use gapscope_stats::paired::bootstrap_mean;
/// let iv = bootstrap_mean(&[0.25; 3], 100, 7).unwrap();
/// assert_eq!((iv.lo, iv.hi, iv.draws, iv.one_unit), (Some(0.25), Some(0.25), 100, false));
/// assert_eq!(bootstrap_mean(&[], 100, 7), None);
/// ```
pub fn bootstrap_mean(d: &[f64], draws: usize, seed: u64) -> Option<BootInterval> {
    let mut boot = Collector::with_capacity(draws);
    let mut sums = [0.0; super::draws::BLOCK];
    super::draws::for_each_block(d.len(), draws, seed, |block| {
        let k = super::draws::block_sums(d, block, &mut sums);
        for s in &sums[..k] {
            // draw_delta's value: the draw's sum over n.
            boot.push(Some(s / d.len() as f64));
        }
    });
    boot.finish(d.len() == 1)
}

/// The cluster bootstrap of a mean over cases grouped in clusters (the
/// realization-gap interventions: cases clustered by task). Each draw takes
/// as many clusters as there are, with replacement, from the stream of
/// [`bootstrap_mean`] (the same indices for the same n, B and seed), and
/// every case of a drawn cluster enters with weight 1, so the draw's mean is
/// Σ sum / Σ count over the drawn clusters. `clusters`: per cluster, the sum
/// of its cases' values and their number (≥ 1; a draw whose clusters hold no
/// case is skipped). `None` when there is no cluster or `draws` is 0.
///
/// One case a cluster is [`bootstrap_mean`] of the values:
///
/// ```
/// use gapscope_stats::paired::{bootstrap_mean, cluster_bootstrap_mean};
/// let d = [1.0, -2.0, 4.5, 0.0];
/// let ones: Vec<(f64, usize)> = d.iter().map(|&v| (v, 1)).collect();
/// assert_eq!(cluster_bootstrap_mean(&ones, 500, 3), bootstrap_mean(&d, 500, 3));
/// ```
pub fn cluster_bootstrap_mean(
    clusters: &[(f64, usize)],
    draws: usize,
    seed: u64,
) -> Option<BootInterval> {
    let mut boot = Collector::with_capacity(draws);
    super::draws::for_each_draw(clusters.len(), draws, seed, |picks| {
        let (mut sum, mut count) = (0.0, 0usize);
        for &i in picks {
            let (s, c) = clusters[i as usize];
            sum += s;
            count += c;
        }
        boot.push((count > 0).then(|| sum / count as f64));
    });
    boot.finish(clusters.len() == 1)
}

/// The percentile bootstrap of any statistic of `n` units: `statistic`
/// gets each draw's unit indices (the stream of [`bootstrap_mean`]: the same
/// indices for the same n, B and seed) and returns the draw's value, or
/// `None` to skip the draw (counted in [`BootInterval::skipped`]). `None`
/// when `n` is 0 or `draws` is 0. Ratios of means and pooled rates resample
/// through this (runtime-contracts addendum §0).
///
/// The mean as a statistic is [`bootstrap_mean`]:
///
/// ```
/// use gapscope_stats::paired::{bootstrap_mean, bootstrap_statistic};
/// let d = [1.0, -2.0, 4.5, 0.0];
/// let mean = |p: &[u32]| Some(p.iter().map(|&i| d[i as usize]).sum::<f64>() / p.len() as f64);
/// assert_eq!(bootstrap_statistic(d.len(), 500, 3, mean), bootstrap_mean(&d, 500, 3));
/// ```
pub fn bootstrap_statistic(
    n: usize,
    draws: usize,
    seed: u64,
    mut statistic: impl FnMut(&[u32]) -> Option<f64>,
) -> Option<BootInterval> {
    let mut boot = Collector::with_capacity(draws);
    super::draws::for_each_draw(n, draws, seed, |picks| boot.push(statistic(picks)));
    boot.finish(n == 1)
}

/// The bootstrap means of several value columns over the same `n` units
/// in one pass: `columns[k][i]` is unit i's value of statistic k (every
/// column has `n` values). Each interval equals [`bootstrap_mean`] of its
/// column bit for bit (the same indices, summed in draw order, over n); the
/// indices are drawn once for all columns.
///
/// ```
/// use gapscope_stats::paired::{bootstrap_mean, bootstrap_means};
/// let (a, b) = (vec![1.0, 2.0, 4.0], vec![0.5, -1.0, 3.0]);
/// let both = bootstrap_means(&[a.clone(), b.clone()], 300, 9);
/// assert_eq!(both, vec![bootstrap_mean(&a, 300, 9), bootstrap_mean(&b, 300, 9)]);
/// ```
pub fn bootstrap_means(columns: &[Vec<f64>], draws: usize, seed: u64) -> Vec<Option<BootInterval>> {
    let n = columns.first().map_or(0, Vec::len);
    if columns.iter().any(|c| c.len() != n) {
        return columns
            .iter()
            .map(|c| bootstrap_mean(c, draws, seed))
            .collect();
    }
    let mut boots: Vec<Collector> = columns
        .iter()
        .map(|_| Collector::with_capacity(draws))
        .collect();
    let mut sums = [0.0; super::draws::BLOCK];
    super::draws::for_each_block(n, draws, seed, |block| {
        for (c, boot) in columns.iter().zip(boots.iter_mut()) {
            let k = super::draws::block_sums(c, block, &mut sums);
            for s in &sums[..k] {
                boot.push(Some(s / n as f64));
            }
        }
    });
    boots.into_iter().map(|b| b.finish(n == 1)).collect()
}

/// Everything of [`compare_pair`] but the bootstrap (`None`), and the d_t
/// the bootstrap resamples ([`draw_delta`]): [`super::compare_runs`] draws
/// the bootstraps of all pairs on n common tasks in one pass.
pub(crate) fn pair_without_bootstrap(
    a: &Run,
    b: &Run,
    settings: &Settings,
) -> (PairComparison, Vec<f64>) {
    let (both, only_a, only_b) = match_tasks(a, b);
    let tasks: Vec<TaskDiff> = both
        .iter()
        .map(|&(i, j)| {
            let (ma, mb) = (a.task_mean(i), b.task_mean(j));
            TaskDiff {
                key: a.tasks()[i].key.clone(),
                mean_a: ma,
                mean_b: mb,
                trials_a: a.trials(i),
                trials_b: b.trials(j),
                d: ma - mb,
            }
        })
        .collect();
    let d: Vec<f64> = tasks.iter().map(|t| t.d).collect();
    let n = d.len();
    let delta = mean(&d);
    let sd = sample_sd(&d);
    let se = sd.map(|s| s / (n as f64).sqrt());
    let pair = PairComparison {
        common: n,
        only_a,
        only_b,
        delta,
        sd,
        bootstrap: None,
        normal: delta.zip(se).map(|(m, s)| [m - Z_975 * s, m + Z_975 * s]),
        mde: se.map(|s| (Z_975 + Z_80) * s),
        sign_test: sign_test(a, b, &both, &d),
        permutation: permutation(a, b, &both, &d, settings),
        tasks,
    };
    (pair, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paired::TaskDraws;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    fn runner() -> TestRunner {
        TestRunner::new_with_rng(
            Config {
                cases: 256,
                failure_persistence: None,
                ..Config::default()
            },
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        )
    }

    /// Binary rewards, up to 16 common tasks, k_t in 1..=4 per task (the same
    /// in both runs, varying across tasks).
    fn binary_pair() -> impl Strategy<Value = (Run, Run)> {
        let task = (1usize..5).prop_flat_map(|k| {
            (
                prop::collection::vec(prop::bool::ANY, k),
                prop::collection::vec(prop::bool::ANY, k),
            )
        });
        prop::collection::vec(task, 0..17).prop_map(|tasks| {
            let side = |second: bool| {
                let t = tasks
                    .iter()
                    .enumerate()
                    .map(|(i, (xa, xb))| TaskDraws {
                        key: format!("{i:02}"),
                        rewards: (if second { xb } else { xa })
                            .iter()
                            .map(|&s| f64::from(u8::from(s)))
                            .collect(),
                    })
                    .collect();
                Run::new(t).unwrap()
            };
            (side(false), side(true))
        })
    }

    #[test]
    fn convolution_agrees_with_enumeration_on_binary_inputs() {
        // Different algorithms on the same inputs: integer weights D_t·L/k_t
        // convolved vs the 2^n' floating-point sign patterns of the d_t.
        runner()
            .run(&binary_pair(), |(a, b)| {
                let c = compare_pair(&a, &b, &Settings::default());
                if c.common == 0 {
                    prop_assert_eq!(c.permutation.p, None);
                    return Ok(());
                }
                prop_assert_eq!(c.permutation.method, Some(PermutationMethod::Convolution));
                let d: Vec<f64> = c.tasks.iter().map(|t| t.d).collect();
                let nonzero: Vec<f64> = d
                    .iter()
                    .copied()
                    .filter(|x| x.abs() > TIE_TOLERANCE)
                    .collect();
                prop_assert_eq!(nonzero.len(), c.permutation.nonzero);
                let e = enumerate_p(&nonzero, d.len());
                let p = c.permutation.p.unwrap();
                prop_assert!((p - e).abs() < 1e-12, "{} vs {}", p, e);
                // With one trial per task it is also the sign test.
                if c.sign_test.exact_mcnemar {
                    prop_assert!((p - c.sign_test.p.unwrap()).abs() < 1e-12);
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn weights_scale_by_the_lcm() {
        use crate::paired::input::t;
        // k = 2 and 3: d = 1/2 and −2/3; L = 6: weights 3, −4.
        let a = Run::new(vec![t("x", &[1.0, 0.0]), t("y", &[0.0, 0.0, 0.0])]).unwrap();
        let b = Run::new(vec![t("x", &[0.0, 0.0]), t("y", &[1.0, 1.0, 0.0])]).unwrap();
        let (both, _, _) = match_tasks(&a, &b);
        assert_eq!(integer_weights(&a, &b, &both), Some(vec![3, -4]));
        // Half rewards with equal k: D_t = 0.5 is no integer.
        let h = Run::new(vec![t("x", &[0.5, 0.0]), t("y", &[0.0, 0.0, 0.0])]).unwrap();
        assert_eq!(integer_weights(&h, &b, &both), None);
        // Half rewards whose sums differ by an integer do qualify: D_t = 1, −1.
        let h2 = Run::new(vec![t("x", &[0.5, 0.5]), t("y", &[0.5, 0.5, 0.0])]).unwrap();
        assert_eq!(integer_weights(&h2, &b, &both), Some(vec![3, -2]));
        assert_eq!(lcm(4, 6), Some(12));
    }

    #[test]
    fn bootstrap_mean_is_the_pairs_interval_and_the_plain_loop() {
        use crate::paired::input::t;
        use rand::{Rng, SeedableRng};
        let a = Run::new(vec![
            t("1", &[1.0]),
            t("2", &[0.5]),
            t("3", &[0.0]),
            t("4", &[1.0]),
        ])
        .unwrap();
        let b = Run::new(vec![
            t("1", &[0.0]),
            t("2", &[1.0]),
            t("3", &[0.0]),
            t("4", &[0.25]),
        ])
        .unwrap();
        let s = Settings::new(2_000, 100, 11).unwrap();
        let pair = compare_pair(&a, &b, &s);
        let d: Vec<f64> = pair.tasks.iter().map(|t| t.d).collect();
        assert_eq!(bootstrap_mean(&d, 2_000, 11), pair.bootstrap);
        // The loop the runtime and evidence parts had before they moved
        // here: draw while summing, numpy percentiles of the sorted means.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let n = d.len() as u32;
        let mut means: Vec<f64> = (0..2_000)
            .map(|_| {
                (0..n)
                    .map(|_| d[rng.random_range(0..n) as usize])
                    .sum::<f64>()
                    / f64::from(n)
            })
            .collect();
        means.sort_by(f64::total_cmp);
        let iv = bootstrap_mean(&d, 2_000, 11).unwrap();
        assert_eq!(iv.lo, crate::bootstrap::percentile(&means, 2.5));
        assert_eq!(iv.hi, crate::bootstrap::percentile(&means, 97.5));
        assert_eq!((iv.draws, iv.skipped, iv.one_unit), (2_000, 0, false));
        assert!(bootstrap_mean(&[0.3], 10, 0).unwrap().one_unit);
        assert_eq!(bootstrap_mean(&[0.3], 0, 0), None);
    }
}
