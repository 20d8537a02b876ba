//! Group ("family") bootstrap intervals with every fitted prediction held fixed
//! (spec: realization-gaps.md, "Uncertainty").
//!
//! One draw picks G groups with replacement (G = number of groups) and pools
//! the (y, ŷ, baseline) triples of their models; the metric is recomputed on the
//! pool. Each group's triples are summarised once (count, Σ|y − ŷ|, Σ(y − ŷ)²,
//! Σ(y − b)²), so a draw costs O(G) whatever the number of models. The 95%
//! interval is the 2.5th and 97.5th percentile of the draws, interpolated
//! linearly between order statistics (numpy's default). A draw whose metric is
//! undefined (no model, or Σ(y − b)² = 0 for Q²) is skipped and counted.
//! Differences between two predictors use the same draws (paired).
//!
//! PRNG: ChaCha8 (`rand_chacha` 0.9) seeded with `seed_from_u64(seed)`; each
//! group index is `random_range(0..G)` on `u32`, so the draws are the same on
//! 32- and 64-bit targets (native and wasm32).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The most bootstrap draws accepted anywhere (memory: draws × resampled units indices).
pub const MAX_DRAWS: usize = 1_000_000;

/// How the report names the PRNG and its use.
pub const PRNG: &str =
    "ChaCha8Rng (rand_chacha 0.9), seed_from_u64(seed); group indices random_range(0..G) on u32";

/// A metric computable from per-group sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Mae,
    Rmse,
    Q2,
}

/// Per-group sums of one predictor's triples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sums {
    n: f64,
    abs: f64,
    sse: f64,
    ssb: f64,
}

impl Sums {
    fn add(&mut self, o: &Sums) {
        self.n += o.n;
        self.abs += o.abs;
        self.sse += o.sse;
        self.ssb += o.ssb;
    }

    fn metric(&self, m: Metric) -> Option<f64> {
        if self.n == 0.0 {
            return None;
        }
        match m {
            Metric::Mae => Some(self.abs / self.n),
            Metric::Rmse => Some((self.sse / self.n).sqrt()),
            Metric::Q2 => (self.ssb > 0.0).then(|| 1.0 - self.sse / self.ssb),
        }
    }
}

/// A 95% percentile interval and how many draws it skipped.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// Draws whose metric was undefined.
    pub skipped: usize,
}

impl Interval {
    /// `[lo, hi]`, or `None` when every draw was skipped.
    pub fn bounds(&self) -> Option<[f64; 2]> {
        Some([self.lo?, self.hi?])
    }
}

/// The resampling plan: B draws of G group indices, shared by every metric and
/// predictor of a report so that differences are paired.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupBootstrap {
    n_groups: usize,
    draws: usize,
    /// `draws × n_groups` indices.
    picks: Vec<u32>,
}

impl GroupBootstrap {
    pub fn new(n_groups: usize, draws: usize, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = u32::try_from(n_groups).unwrap_or(u32::MAX);
        let picks = if g == 0 {
            Vec::new()
        } else {
            (0..draws * n_groups)
                .map(|_| rng.random_range(0..g))
                .collect()
        };
        GroupBootstrap {
            n_groups,
            draws,
            picks,
        }
    }

    pub fn draws(&self) -> usize {
        self.draws
    }

    fn sums(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
        baseline: &[Option<f64>],
    ) -> Vec<Sums> {
        let mut s = vec![Sums::default(); self.n_groups];
        for i in 0..observed.len() {
            if let (Some(y), Some(p), Some(b)) = (observed[i], predicted[i], baseline[i]) {
                let e = &mut s[groups[i]];
                e.n += 1.0;
                e.abs += (y - p).abs();
                e.sse += (y - p) * (y - p);
                e.ssb += (y - b) * (y - b);
            }
        }
        s
    }

    fn pooled(&self, sums: &[Sums], draw: usize) -> Sums {
        let mut total = Sums::default();
        for &g in &self.picks[draw * self.n_groups..(draw + 1) * self.n_groups] {
            total.add(&sums[g as usize]);
        }
        total
    }

    /// Intervals of MAE, RMSE and Q² of one predictor (one pass over the
    /// draws). `groups[i]` is model i's group.
    pub fn intervals(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
        baseline: &[Option<f64>],
    ) -> Intervals {
        let sums = self.sums(groups, observed, predicted, baseline);
        let pooled: Vec<Sums> = (0..self.draws).map(|d| self.pooled(&sums, d)).collect();
        let iv = |m| collect_interval(pooled.iter().map(|s| s.metric(m)), self.draws);
        Intervals {
            mae: iv(Metric::Mae),
            rmse: iv(Metric::Rmse),
            q2: iv(Metric::Q2),
        }
    }

    /// Intervals of `metric(a) − metric(b)` for MAE, RMSE and Q², over the
    /// same draws (paired). `a` and `b` are (predicted, baseline).
    pub fn paired_differences(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        a: (&[Option<f64>], &[Option<f64>]),
        b: (&[Option<f64>], &[Option<f64>]),
    ) -> Intervals {
        let sa = self.sums(groups, observed, a.0, a.1);
        let sb = self.sums(groups, observed, b.0, b.1);
        let pooled: Vec<(Sums, Sums)> = (0..self.draws)
            .map(|d| (self.pooled(&sa, d), self.pooled(&sb, d)))
            .collect();
        let iv = |m| {
            collect_interval(
                pooled
                    .iter()
                    .map(|(x, y)| Some(x.metric(m)? - y.metric(m)?)),
                self.draws,
            )
        };
        Intervals {
            mae: iv(Metric::Mae),
            rmse: iv(Metric::Rmse),
            q2: iv(Metric::Q2),
        }
    }
}

impl GroupBootstrap {
    /// The interval of Spearman's ρ between `observed` and `predicted` over
    /// the draws (spec: "Beyond one α and one fit"): each draw pools the
    /// complete (observed, predicted) pairs of its drawn groups' models, a
    /// group drawn twice entering twice; a draw with fewer than 3 distinct
    /// models or a constant side is skipped and counted.
    pub fn spearman_interval(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
    ) -> Interval {
        let mut members: Vec<Vec<(f64, f64)>> = vec![Vec::new(); self.n_groups];
        for i in 0..observed.len() {
            if let (Some(y), Some(p)) = (observed[i], predicted[i]) {
                members[groups[i]].push((y, p));
            }
        }
        let mut seen = vec![usize::MAX; self.n_groups];
        let (mut ys, mut ps) = (Vec::new(), Vec::new());
        let rho = (0..self.draws).map(|d| {
            ys.clear();
            ps.clear();
            let mut distinct = 0;
            for &g in &self.picks[d * self.n_groups..(d + 1) * self.n_groups] {
                let g = g as usize;
                if seen[g] != d {
                    seen[g] = d;
                    distinct += members[g].len();
                }
                for &(y, p) in &members[g] {
                    ys.push(y);
                    ps.push(p);
                }
            }
            if distinct < 3 {
                return None;
            }
            crate::summary::spearman(&ys, &ps)
        });
        let kept: Vec<Option<f64>> = rho.collect();
        collect_interval(kept.into_iter(), self.draws)
    }
}

/// Intervals of the three metrics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Intervals {
    pub mae: Interval,
    pub rmse: Interval,
    pub q2: Interval,
}

fn collect_interval(values: impl Iterator<Item = Option<f64>>, draws: usize) -> Interval {
    let mut kept: Vec<f64> = values.flatten().collect();
    let skipped = draws - kept.len();
    Interval {
        lo: select_percentile(&mut kept, 2.5),
        hi: select_percentile(&mut kept, 97.5),
        skipped,
    }
}

/// [`percentile`] without sorting: the two order statistics it interpolates
/// are found by selection (O(n)), which is what makes 10,000-draw intervals
/// cheap. Reorders `values`.
pub fn select_percentile(values: &mut [f64], q: f64) -> Option<f64> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * q / 100.0;
    let lo = h.floor() as usize;
    let (_, at, right) = values.select_nth_unstable_by(lo, f64::total_cmp);
    let a = *at;
    let b = right.iter().copied().min_by(f64::total_cmp).unwrap_or(a);
    Some(a + (h - lo as f64) * (b - a))
}

/// The q-th percentile (0–100) of sorted values, linear interpolation between
/// order statistics (numpy's default `method="linear"`).
pub fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * q / 100.0;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ρ's interval redone naively: the documented PRNG draws the same
    /// group indices; each draw's rows are listed explicitly (a repeated
    /// group's models twice) and ρ computed by scipy's definition.
    #[test]
    fn spearman_interval_equals_a_naive_resampling() {
        let groups = [0, 0, 1, 1, 2, 3, 3, 4, 5, 5];
        let observed: Vec<Option<f64>> = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0]
            .map(Some)
            .to_vec();
        let mut predicted: Vec<Option<f64>> = [2.5, 1.5, 3.0, 2.0, 4.0, 7.0, 2.0, 5.0, 6.0, 2.0]
            .map(Some)
            .to_vec();
        predicted[3] = None; // an incomplete pair takes no part
        let (draws, seed, g) = (500, 11, 6u32);
        let b = GroupBootstrap::new(6, draws, seed);
        let got = b.spearman_interval(&groups, &observed, &predicted);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut rhos = Vec::new();
        let mut skipped = 0;
        for _ in 0..draws {
            let picks: Vec<usize> = (0..6).map(|_| rng.random_range(0..g) as usize).collect();
            let (mut ys, mut ps) = (Vec::new(), Vec::new());
            let mut models = std::collections::BTreeSet::new();
            for &k in &picks {
                for i in (0..10).filter(|&i| groups[i] == k && predicted[i].is_some()) {
                    ys.push(observed[i].unwrap());
                    ps.push(predicted[i].unwrap());
                    models.insert(i);
                }
            }
            match (models.len() >= 3)
                .then(|| crate::summary::spearman(&ys, &ps))
                .flatten()
            {
                Some(r) => rhos.push(r),
                None => skipped += 1,
            }
        }
        rhos.sort_by(f64::total_cmp);
        assert_eq!(got.skipped, skipped);
        assert_eq!(got.lo, percentile(&rhos, 2.5));
        assert_eq!(got.hi, percentile(&rhos, 97.5));
        assert!(got.lo.unwrap() < got.hi.unwrap());
    }

    #[test]
    fn percentile_like_numpy() {
        // numpy.percentile([1, 2, 3, 4], [2.5, 50, 97.5]) = [1.075, 2.5, 3.925]
        let x = [1.0, 2.0, 3.0, 4.0];
        assert!((percentile(&x, 2.5).unwrap() - 1.075).abs() < 1e-12);
        assert!((percentile(&x, 50.0).unwrap() - 2.5).abs() < 1e-12);
        assert!((percentile(&x, 97.5).unwrap() - 3.925).abs() < 1e-12);
        assert_eq!(percentile(&[5.0], 97.5), Some(5.0));
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn selection_equals_sorting() {
        let mut s = 1u64;
        for n in [1usize, 2, 3, 10, 41, 1000] {
            let v: Vec<f64> = (0..n)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((s >> 33) % 50) as f64 // many ties
                })
                .collect();
            let mut sorted = v.clone();
            sorted.sort_by(f64::total_cmp);
            for q in [0.0, 2.5, 50.0, 97.5, 100.0] {
                let mut w = v.clone();
                assert_eq!(
                    select_percentile(&mut w, q),
                    percentile(&sorted, q),
                    "n={n} q={q}"
                );
            }
        }
    }

    #[test]
    fn draws_are_seeded_and_uniform() {
        let a = GroupBootstrap::new(8, 10_000, 0);
        assert_eq!(a, GroupBootstrap::new(8, 10_000, 0));
        assert_ne!(a, GroupBootstrap::new(8, 10_000, 1));
        let mut counts = [0usize; 8];
        for &p in &a.picks {
            counts[p as usize] += 1;
        }
        // 80,000 picks: each group ~10,000 ± 4 SD (4 × 94).
        for c in counts {
            assert!((9_600..10_400).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn pooled_metrics_by_hand() {
        // Two groups; a draw of [0, 0] pools group 0 twice.
        let b = GroupBootstrap {
            n_groups: 2,
            draws: 1,
            picks: vec![0, 0],
        };
        let groups = [0, 0, 1];
        let y = [Some(1.0), Some(3.0), Some(10.0)];
        let p = [Some(2.0), Some(3.0), Some(0.0)];
        let base = [Some(2.0), Some(2.0), Some(5.0)];
        // Group 0 twice: |e| = 1, 0 (x2): MAE = 2/4; SSE = 2, SSB = 4 => Q2 = 0.5.
        let all = b.intervals(&groups, &y, &p, &base);
        let i = all.mae;
        assert_eq!((i.lo, i.hi, i.skipped), (Some(0.5), Some(0.5), 0));
        assert_eq!(all.q2.lo, Some(0.5));
        assert_eq!(all.rmse.lo, Some(0.5f64.sqrt()));
        // A predictor equal to the baseline on the drawn groups has SSB > 0 and Q2 = 0;
        // a draw with SSB = 0 is skipped.
        let flat = [Some(2.0), Some(2.0), Some(10.0)];
        let s = b.intervals(&groups, &flat, &p, &flat).q2;
        assert_eq!((s.lo, s.skipped), (None, 1));
        let d = b
            .paired_differences(&groups, &y, (&p, &base), (&base, &base))
            .q2;
        assert_eq!(d.lo, Some(0.5));
    }
}
