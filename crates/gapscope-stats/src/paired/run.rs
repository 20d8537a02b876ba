//! One run's statistics (spec "One run"): x̄, its clustered SE and normal
//! interval, the task bootstrap of x̄, pass^k and pass@k, Wilson, flip
//! rate, ICC(1).

use serde::{Deserialize, Serialize};

use super::draws::{BootInterval, Collector, DrawCache};
use super::{Run, Settings, Z_975};
use crate::summary::is_constant;

/// pass^k or pass@k at one k.
///
/// JSON: `{"k", "tasks", "value", "bootstrap"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassK {
    pub k: usize,
    /// Tasks with k_t ≥ k (the average's denominator).
    pub tasks: usize,
    /// The average over those tasks (always defined for k ≤ K).
    pub value: f64,
    /// Task bootstrap on the run's draws (a draw holding no task with
    /// k_t ≥ k is skipped); `None` when B = 0.
    pub bootstrap: Option<BootInterval>,
}

/// Everything the spec's "One run" defines, for one run.
///
/// JSON field names are the Rust names; `None` is `null`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// n.
    pub tasks: usize,
    /// N (scored trajectories).
    pub trajectories: usize,
    /// x̄, the mean over all trajectories; `None` with no task.
    pub mean: Option<f64>,
    /// Clustered SE; `None` with n < 2.
    pub se: Option<f64>,
    /// x̄ ± z·SE, not clipped; `None` with n < 2.
    pub normal: Option<[f64; 2]>,
    /// Task bootstrap of x̄; `None` when B = 0 or n = 0.
    pub bootstrap: Option<BootInterval>,
    /// Trajectories with x ≥ 1 − 1e-6.
    pub successes: usize,
    /// successes / N.
    pub success_rate: Option<f64>,
    /// Wilson interval of the success rate; only when every task has one trial.
    pub wilson: Option<[f64; 2]>,
    /// pass^k for k = 1 … K (K = the largest k_t).
    pub pass_hat: Vec<PassK>,
    /// pass@k for k = 1 … K.
    pub pass_at: Vec<PassK>,
    /// Tasks with at least two trials.
    pub repeated_tasks: usize,
    /// Share of the repeated tasks whose trials are neither all success nor
    /// all failure; `None` without a repeated task.
    pub flip_rate: Option<f64>,
    /// ICC(1); `None` with fewer than 2 repeated tasks or no variation at all.
    pub icc: Option<f64>,
    /// k₀ = (N − Σ k_t² / N) / (n − 1), the ICC's mean group size; `None` with n < 2.
    pub k0: Option<f64>,
}

/// C(c, k) / C(n, k) as Π_{i<k} (c − i)/(n − i): 0 when c < k.
fn binomial_ratio(c: usize, n: usize, k: usize) -> f64 {
    if c < k {
        return 0.0;
    }
    (0..k).map(|i| (c - i) as f64 / (n - i) as f64).product()
}

/// pass^k of a task with c successes in n ≥ k trials.
fn pass_hat(c: usize, n: usize, k: usize) -> f64 {
    binomial_ratio(c, n, k)
}

/// pass@k of a task with c successes in n ≥ k trials.
fn pass_at(c: usize, n: usize, k: usize) -> f64 {
    1.0 - binomial_ratio(n - c, n, k)
}

/// Per task, its pass^k and pass@k for k = 1 … k_t, in one flat table:
/// task t's row is `[pass^1 … pass^K, pass@1 … pass@K]` (K = the largest
/// k_t), zero beyond its own k_t. A bootstrap draw visits one contiguous
/// row per pick, and the count of picks with k_t ≥ k comes from a
/// histogram of k_t (one increment per pick, not one per k). Adding the
/// padding zeros leaves every sum bit for bit what it was: x + 0.0 = x.
struct PassTables {
    rows: Vec<f64>,
    trials: Vec<usize>,
    max_k: usize,
}

impl PassTables {
    fn new(run: &Run) -> Self {
        let n = run.len();
        let max_k = (0..n).map(|i| run.trials(i)).max().unwrap_or(0);
        let mut rows = vec![0.0; n * 2 * max_k];
        for (i, row) in rows.chunks_exact_mut(2 * max_k.max(1)).enumerate().take(n) {
            let (c, kt) = (run.successes(i), run.trials(i));
            for k in 1..=kt {
                row[k - 1] = pass_hat(c, kt, k);
                row[max_k + k - 1] = pass_at(c, kt, k);
            }
        }
        PassTables {
            rows,
            trials: (0..n).map(|i| run.trials(i)).collect(),
            max_k,
        }
    }

    /// Sum and count over the tasks `picks` (with repeats) of each k's value.
    fn accumulate(&self, picks: impl Iterator<Item = usize>) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
        let mut hat = vec![0.0; self.max_k];
        let mut at = vec![0.0; self.max_k];
        let mut count = vec![0usize; self.max_k];
        let mut histogram = vec![0usize; self.max_k + 1];
        self.accumulate_into(picks, &mut hat, &mut at, &mut count, &mut histogram);
        (hat, at, count)
    }

    /// [`PassTables::accumulate`] into zeroed buffers of length `max_k`
    /// (`histogram`: `max_k + 1`, zeroed; it ends holding the picks per k_t).
    fn accumulate_into(
        &self,
        picks: impl Iterator<Item = usize>,
        hat: &mut [f64],
        at: &mut [f64],
        count: &mut [usize],
        histogram: &mut [usize],
    ) {
        let k = self.max_k;
        if k == 0 {
            return;
        }
        for t in picks {
            let row = &self.rows[t * 2 * k..(t + 1) * 2 * k];
            let (h_row, a_row) = row.split_at(k);
            for ((h, a), (hv, av)) in hat
                .iter_mut()
                .zip(at.iter_mut())
                .zip(h_row.iter().zip(a_row))
            {
                *h += hv;
                *a += av;
            }
            histogram[self.trials[t]] += 1;
        }
        // count[k − 1] = the picks with k_t ≥ k.
        let mut above = 0;
        for j in (1..=k).rev() {
            above += histogram[j];
            count[j - 1] = above;
        }
    }
}

/// Wilson score interval of s successes in n trials at z = 1.959963984540054.
fn wilson(s: usize, n: usize) -> Option<[f64; 2]> {
    if n == 0 {
        return None;
    }
    let (nf, z) = (n as f64, Z_975);
    let p = s as f64 / nf;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = z / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    Some([centre - half, centre + half])
}

/// `sqrt(n/(n−1) · Σ_t (Σ_j (x_tj − x̄))²) / N`, with Σ_j (x_tj − x̄) = s_t − k_t x̄.
fn clustered_se(run: &Run, mean: f64) -> Option<f64> {
    let n = run.len();
    if n < 2 {
        return None;
    }
    let ss: f64 = (0..n)
        .map(|i| {
            let r = run.sum(i) - run.trials(i) as f64 * mean;
            r * r
        })
        .sum();
    Some((n as f64 / (n as f64 - 1.0) * ss).sqrt() / run.trajectories() as f64)
}

/// ICC(1) = (MSB − MSW) / (MSB + (k₀ − 1) MSW) over all tasks as groups, and k₀.
fn icc1(run: &Run, mean: f64) -> (Option<f64>, Option<f64>) {
    let n = run.len();
    if n < 2 {
        return (None, None);
    }
    let big_n = run.trajectories() as f64;
    let sum_k2: f64 = (0..n).map(|i| (run.trials(i) as f64).powi(2)).sum();
    let k0 = (big_n - sum_k2 / big_n) / (n as f64 - 1.0);
    let repeated = (0..n).filter(|&i| run.trials(i) >= 2).count();
    let all_equal = is_constant(
        &run.tasks()
            .iter()
            .flat_map(|t| t.rewards.iter().copied())
            .collect::<Vec<f64>>(),
    );
    if repeated < 2 || all_equal {
        return (None, Some(k0));
    }
    let mut ssb = 0.0;
    let mut ssw = 0.0;
    for (i, t) in run.tasks().iter().enumerate() {
        let m = run.task_mean(i);
        ssb += t.rewards.len() as f64 * (m - mean) * (m - mean);
        ssw += t.rewards.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
    }
    let msb = ssb / (n as f64 - 1.0);
    let msw = ssw / (big_n - n as f64);
    let denominator = msb + (k0 - 1.0) * msw;
    let icc = (denominator > 0.0).then(|| (msb - msw) / denominator);
    (icc, Some(k0))
}

/// The task bootstrap of one run: x̄ and each k's pass^k and pass@k over
/// the same draws (one stream, from the report's [`DrawCache`]).
fn bootstrap(
    run: &Run,
    tables: &PassTables,
    settings: &Settings,
    cache: &mut DrawCache,
) -> (
    Option<BootInterval>,
    Vec<Option<BootInterval>>,
    Vec<Option<BootInterval>>,
) {
    let b = settings.draws();
    let k = tables.max_k;
    let mut mean = Collector::with_capacity(b);
    let mut hat: Vec<Collector> = (0..k).map(|_| Collector::with_capacity(b)).collect();
    let mut at: Vec<Collector> = (0..k).map(|_| Collector::with_capacity(b)).collect();
    let (mut h, mut a, mut count) = (vec![0.0; k], vec![0.0; k], vec![0usize; k]);
    let mut histogram = vec![0usize; k + 1];
    cache.for_each(run.len(), b, settings.seed(), |picks| {
        let (mut s, mut m) = (0.0, 0usize);
        for &t in picks {
            s += run.sum(t as usize);
            m += run.trials(t as usize);
        }
        mean.push(Some(s / m as f64));
        h.fill(0.0);
        a.fill(0.0);
        count.fill(0);
        histogram.fill(0);
        tables.accumulate_into(
            picks.iter().map(|&t| t as usize),
            &mut h,
            &mut a,
            &mut count,
            &mut histogram,
        );
        for j in 0..k {
            let defined = count[j] > 0;
            hat[j].push(defined.then(|| h[j] / count[j] as f64));
            at[j].push(defined.then(|| a[j] / count[j] as f64));
        }
    });
    let one = run.len() == 1;
    (
        mean.finish(one),
        hat.into_iter().map(|c| c.finish(one)).collect(),
        at.into_iter().map(|c| c.finish(one)).collect(),
    )
}

/// The spec's "One run" statistics of `run`, with the task bootstrap drawn
/// from a fresh stream seeded with [`Settings::seed`].
///
/// Worked example (also a test): tasks a = `[1, 0]`, b = `[1, 1]`, c = `[0]`
/// (N = 5, n = 3): x̄ = 3/5; the residual sums s_t − k_t x̄ are −0.2, 0.8,
/// −0.6, so SE = sqrt(3/2 · 1.04)/5.
///
/// ```
/// use gapscope_stats::paired::{summarize_run, Run, Settings, TaskDraws};
/// let t = |k: &str, r: &[f64]| TaskDraws { key: k.into(), rewards: r.to_vec() };
/// let run = Run::new(vec![t("a", &[1.0, 0.0]), t("b", &[1.0, 1.0]), t("c", &[0.0])]).unwrap();
/// let s = summarize_run(&run, &Settings::new(0, 0, 0).unwrap());
/// assert!((s.mean.unwrap() - 0.6).abs() < 1e-15);
/// assert!((s.se.unwrap() - (1.5f64 * 1.04).sqrt() / 5.0).abs() < 1e-15);
/// assert_eq!(s.bootstrap, None); // B = 0: no interval
/// ```
pub fn summarize_run(run: &Run, settings: &Settings) -> RunSummary {
    summarize_run_in(run, settings, &mut DrawCache::default())
}

/// [`summarize_run`] with the report's draws ([`DrawCache`]).
pub(crate) fn summarize_run_in(
    run: &Run,
    settings: &Settings,
    cache: &mut DrawCache,
) -> RunSummary {
    let n = run.len();
    let big_n = run.trajectories();
    let mean = (n > 0).then(|| (0..n).map(|i| run.sum(i)).sum::<f64>() / big_n as f64);
    let se = mean.and_then(|m| clustered_se(run, m));
    let normal = mean.zip(se).map(|(m, s)| [m - Z_975 * s, m + Z_975 * s]);
    let successes: usize = (0..n).map(|i| run.successes(i)).sum();
    let single = (0..n).all(|i| run.trials(i) == 1);
    let repeated: Vec<usize> = (0..n).filter(|&i| run.trials(i) >= 2).collect();
    let flips = repeated
        .iter()
        .filter(|&&i| run.successes(i) > 0 && run.successes(i) < run.trials(i))
        .count();
    let (icc, k0) = mean.map_or((None, None), |m| icc1(run, m));
    let tables = PassTables::new(run);
    let (h, a, count) = tables.accumulate(0..n);
    let (boot, boot_hat, boot_at) = bootstrap(run, &tables, settings, cache);
    let pass = |sums: &[f64], boots: Vec<Option<BootInterval>>| -> Vec<PassK> {
        boots
            .into_iter()
            .enumerate()
            .map(|(j, bootstrap)| PassK {
                k: j + 1,
                tasks: count[j],
                value: sums[j] / count[j] as f64,
                bootstrap,
            })
            .collect()
    };
    let pass_hat = pass(&h, boot_hat);
    let pass_at = pass(&a, boot_at);
    RunSummary {
        tasks: n,
        trajectories: big_n,
        mean,
        se,
        normal,
        bootstrap: boot,
        successes,
        success_rate: (big_n > 0).then(|| successes as f64 / big_n as f64),
        wilson: if single {
            wilson(successes, big_n)
        } else {
            None
        },
        pass_hat,
        pass_at,
        repeated_tasks: repeated.len(),
        flip_rate: (!repeated.is_empty()).then(|| flips as f64 / repeated.len() as f64),
        icc,
        k0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_ratios_by_hand() {
        // C(3,2)/C(5,2) = 3/10; C(2,2)/C(5,2) = 1/10 → pass@2 = 9/10.
        assert!((pass_hat(3, 5, 2) - 0.3).abs() < 1e-15);
        assert!((pass_at(3, 5, 2) - 0.9).abs() < 1e-15);
        assert_eq!(pass_hat(1, 5, 2), 0.0);
        assert_eq!(pass_at(5, 5, 1), 1.0);
        assert_eq!(pass_at(0, 5, 3), 0.0);
        // pass^k at k = n is all-success; pass@k at k = n is any-success.
        assert_eq!((pass_hat(4, 4, 4), pass_hat(3, 4, 4)), (1.0, 0.0));
        assert_eq!((pass_at(1, 4, 4), pass_at(0, 4, 4)), (1.0, 0.0));
    }

    #[test]
    fn wilson_by_hand() {
        // s = 7, n = 10, z² = 3.841458820694124:
        // centre = (0.7 + 0.1920729410347062) / 1.3841458820694124
        // half = z / 1.3841458820694124 · sqrt(0.021 + 0.009603647051735310)
        let z2 = Z_975 * Z_975;
        let centre = (0.7 + z2 / 20.0) / (1.0 + z2 / 10.0);
        let half = Z_975 / (1.0 + z2 / 10.0) * (0.021f64 + z2 / 400.0).sqrt();
        let [lo, hi] = wilson(7, 10).unwrap();
        assert!((lo - (centre - half)).abs() < 1e-15 && (hi - (centre + half)).abs() < 1e-15);
        // The textbook 7/10 Wilson interval, to 4 places: (0.3968, 0.8922).
        assert!((lo - 0.3968).abs() < 5e-5 && (hi - 0.8922).abs() < 5e-5);
        assert_eq!(wilson(0, 0), None);
    }
}
