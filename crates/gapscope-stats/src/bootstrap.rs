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
pub struct Sums {
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

    /// Intervals of MAE, RMSE and Q² of one predictor (one pass over the
    /// draws). `groups[i]` is model i's group.
    pub fn intervals(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
        baseline: &[Option<f64>],
    ) -> Intervals {
        let request = self.request(groups, observed, predicted, baseline);
        self.batch(&[request]).remove(0)
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
        let request = self.paired_request(groups, observed, a, b);
        self.batch(&[request]).remove(0)
    }

    /// One predictor's request for [`GroupBootstrap::batch`] (what
    /// [`GroupBootstrap::intervals`] computes).
    pub fn request(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
        baseline: &[Option<f64>],
    ) -> Request {
        Request::One(self.sums(groups, observed, predicted, baseline))
    }

    /// A paired difference's request for [`GroupBootstrap::batch`] (what
    /// [`GroupBootstrap::paired_differences`] computes).
    pub fn paired_request(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        a: (&[Option<f64>], &[Option<f64>]),
        b: (&[Option<f64>], &[Option<f64>]),
    ) -> Request {
        Request::Paired(
            self.sums(groups, observed, a.0, a.1),
            self.sums(groups, observed, b.0, b.1),
        )
    }

    /// The intervals of many requests over the same draws.
    ///
    /// A request's pooled sums are added in pick order and its metrics go to
    /// three buffers reused by every request. RMSE's order statistics
    /// are the square roots of the mean squared error's (√ is monotone and
    /// correctly rounded), so no draw takes a square root; the results are
    /// bit for bit those of computing every draw's RMSE.
    pub fn batch(&self, requests: &[Request]) -> Vec<Intervals> {
        let mut kept: [Vec<f64>; 3] = std::array::from_fn(|_| Vec::with_capacity(self.draws));
        requests
            .iter()
            .map(|request| {
                kept.iter_mut().for_each(Vec::clear);
                let [mae, mse_or_rmse, q2] = &mut kept;
                // Whether the second buffer holds MSE (its interval is then
                // taken of the square roots) rather than RMSE differences.
                let of_mse = match request {
                    Request::One(a) => {
                        for s in (0..self.draws).map(|d| self.pooled(a, d)) {
                            mae.extend(s.metric(Metric::Mae));
                            if s.n > 0.0 {
                                mse_or_rmse.push(s.sse / s.n);
                            }
                            q2.extend(s.metric(Metric::Q2));
                        }
                        true
                    }
                    Request::Paired(a, b) => {
                        for d in 0..self.draws {
                            let (x, y) = (self.pooled(a, d), self.pooled(b, d));
                            let difference = |m| Some(x.metric(m)? - y.metric(m)?);
                            mae.extend(difference(Metric::Mae));
                            mse_or_rmse.extend(difference(Metric::Rmse));
                            q2.extend(difference(Metric::Q2));
                        }
                        false
                    }
                };
                Intervals {
                    mae: interval_of(&kept[0], self.draws),
                    rmse: interval_mapped(&kept[1], self.draws, of_mse),
                    q2: interval_of(&kept[2], self.draws),
                }
            })
            .collect()
    }

    /// The sums of one draw's groups, added in pick order.
    fn pooled(&self, sums: &[Sums], draw: usize) -> Sums {
        let mut total = Sums::default();
        for &g in &self.picks[draw * self.n_groups..(draw + 1) * self.n_groups] {
            total.add(&sums[g as usize]);
        }
        total
    }
}

/// What [`GroupBootstrap::batch`] computes intervals of: one predictor, or
/// the paired difference of two (per-group sums of each).
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    One(Vec<Sums>),
    Paired(Vec<Sums>, Vec<Sums>),
}

impl GroupBootstrap {
    /// The interval of Spearman's ρ between `observed` and `predicted` over
    /// the draws (spec: "Beyond one α and one fit"): each draw pools the
    /// complete (observed, predicted) pairs of its drawn groups' models, a
    /// group drawn twice entering twice; a draw with fewer than 3 distinct
    /// models or a constant side is skipped and counted.
    ///
    /// Each draw is a count per model (its group's multiplicity): ρ comes
    /// from ranks by counts over the two samples' presorted orders, O(n) a
    /// draw, bit for bit the ρ of the pooled list (ranks are halves of
    /// integers, so every sum is exact; a draw that may pool 2¹⁷ pairs or
    /// more ranks its pooled list instead).
    pub fn spearman_interval(
        &self,
        groups: &[usize],
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
    ) -> Interval {
        let (mut ys, mut ps, mut group_of) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..observed.len() {
            if let (Some(y), Some(p)) = (observed[i], predicted[i]) {
                ys.push(y);
                ps.push(p);
                group_of.push(groups[i]);
            }
        }
        let mut group_size = vec![0usize; self.n_groups];
        for &g in &group_of {
            group_size[g] += 1;
        }
        let largest = group_size.iter().max().copied().unwrap_or(0);
        if self.n_groups * largest >= EXACT_BELOW {
            return self.pooled_spearman_interval(&group_of, &ys, &ps);
        }
        let (by_y, by_p) = (CountedRanks::new(&ys), CountedRanks::new(&ps));
        let mut multiplicity = vec![0usize; self.n_groups];
        let mut counts = vec![0usize; ys.len()];
        let (mut ry, mut rp) = (vec![0.0; ys.len()], vec![0.0; ys.len()]);
        let rho = (0..self.draws).map(|d| {
            multiplicity.fill(0);
            for &g in &self.picks[d * self.n_groups..(d + 1) * self.n_groups] {
                multiplicity[g as usize] += 1;
            }
            let distinct: usize = (0..self.n_groups)
                .filter(|&g| multiplicity[g] > 0)
                .map(|g| group_size[g])
                .sum();
            if distinct < 3 {
                return None;
            }
            for (c, &g) in counts.iter_mut().zip(&group_of) {
                *c = multiplicity[g];
            }
            counted_spearman(&by_y, &by_p, &counts, &mut ry, &mut rp)
        });
        let kept: Vec<Option<f64>> = rho.collect();
        collect_interval(kept.into_iter(), self.draws)
    }

    /// [`GroupBootstrap::spearman_interval`] by listing each draw's pairs
    /// and ranking them (draws whose pooled list may be too long for
    /// [`counted_spearman`]'s exact sums).
    fn pooled_spearman_interval(&self, group_of: &[usize], ys: &[f64], ps: &[f64]) -> Interval {
        let mut members: Vec<Vec<(f64, f64)>> = vec![Vec::new(); self.n_groups];
        for ((&g, &y), &p) in group_of.iter().zip(ys).zip(ps) {
            members[g].push((y, p));
        }
        let mut seen = vec![usize::MAX; self.n_groups];
        let (mut dy, mut dp) = (Vec::new(), Vec::new());
        let rho = (0..self.draws).map(|d| {
            dy.clear();
            dp.clear();
            let mut distinct = 0;
            for &g in &self.picks[d * self.n_groups..(d + 1) * self.n_groups] {
                let g = g as usize;
                if seen[g] != d {
                    seen[g] = d;
                    distinct += members[g].len();
                }
                for &(y, p) in &members[g] {
                    dy.push(y);
                    dp.push(p);
                }
            }
            if distinct < 3 {
                return None;
            }
            crate::summary::spearman(&dy, &dp)
        });
        let kept: Vec<Option<f64>> = rho.collect();
        collect_interval(kept.into_iter(), self.draws)
    }
}

/// Pooled lists shorter than this are ranked by counts ([`counted_spearman`]).
const EXACT_BELOW: usize = 1 << 17;

/// One sample's order and tie blocks, for ranking any multiset of its
/// values (each value repeated `counts[i]` times) in one pass.
#[derive(Clone, Debug)]
struct CountedRanks {
    /// Indices by value (`f64::total_cmp`).
    order: Vec<usize>,
    /// Where each tie block starts in `order` (values `==` to their
    /// neighbour share a block, as [`crate::summary::average_ranks`] has
    /// them), then `order.len()`.
    starts: Vec<usize>,
}

impl CountedRanks {
    fn new(x: &[f64]) -> Self {
        let mut order: Vec<usize> = (0..x.len()).collect();
        order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
        let mut starts = Vec::new();
        for k in 0..order.len() {
            if k == 0 || x[order[k]] != x[order[k - 1]] {
                starts.push(k);
            }
        }
        starts.push(order.len());
        CountedRanks { order, starts }
    }

    /// The average rank of each value in the multiset (`ranks[i]`, for
    /// `counts[i]` > 0), and whether it holds more than one distinct value.
    /// A block of `c` copies after `below` smaller values spans ranks
    /// `below + 1 ..= below + c`: their average `(2 below + c + 1) / 2`,
    /// the value `average_ranks` gives each of the pooled copies.
    fn rank(&self, counts: &[usize], ranks: &mut [f64]) -> bool {
        let mut below = 0usize;
        let mut blocks = 0;
        for w in self.starts.windows(2) {
            let block = &self.order[w[0]..w[1]];
            let c: usize = block.iter().map(|&i| counts[i]).sum();
            if c == 0 {
                continue;
            }
            blocks += 1;
            let r = (2 * below + c + 1) as f64 / 2.0;
            for &i in block {
                ranks[i] = r;
            }
            below += c;
        }
        blocks > 1
    }
}

/// Spearman's ρ of the multiset of pairs `(y_i, p_i)`, each `counts[i]`
/// times: the Pearson correlation of their average ranks, as
/// [`crate::summary::spearman`] computes it on the pooled list, and equal
/// to it bit for bit: ranks are halves of integers, so every mean,
/// deviation, product and sum below is exact in f64 while the pooled list
/// is shorter than [`EXACT_BELOW`] (every sum of squares is below
/// n³/12 < 2⁴⁸ in quarters). `None` when a side is constant or fewer
/// than 3 pairs are pooled.
fn counted_spearman(
    by_y: &CountedRanks,
    by_p: &CountedRanks,
    counts: &[usize],
    ry: &mut [f64],
    rp: &mut [f64],
) -> Option<f64> {
    let n: usize = counts.iter().sum();
    debug_assert!(n < EXACT_BELOW, "counted ranks are exact below 2^17 pairs");
    if n < crate::summary::MIN_PAIRS {
        return None;
    }
    if !by_y.rank(counts, ry) || !by_p.rank(counts, rp) {
        return None;
    }
    let mean = (n + 1) as f64 / 2.0;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for i in 0..counts.len() {
        if counts[i] > 0 {
            let c = counts[i] as f64;
            let (a, b) = (ry[i] - mean, rp[i] - mean);
            sxy += c * a * b;
            sxx += c * a * a;
            syy += c * b * b;
        }
    }
    let r = sxy / (sxx.sqrt() * syy.sqrt());
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// Intervals of the three metrics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Intervals {
    pub mae: Interval,
    pub rmse: Interval,
    pub q2: Interval,
}

fn collect_interval(values: impl Iterator<Item = Option<f64>>, draws: usize) -> Interval {
    let kept: Vec<f64> = values.flatten().collect();
    interval_of(&kept, draws)
}

/// The interval of the kept draws out of `draws`.
fn interval_of(kept: &[f64], draws: usize) -> Interval {
    interval_mapped(kept, draws, false)
}

/// The interval of the kept draws or (`sqrt`) of their square roots: √ is
/// non-decreasing, so the order statistics of √x are √ of those of x, and
/// it is applied to the four the percentiles interpolate, not to every draw.
fn interval_mapped(kept: &[f64], draws: usize, sqrt: bool) -> Interval {
    let f = |x: f64| if sqrt { x.sqrt() } else { x };
    let iv = order_statistics(kept, 2.5, 97.5).map(|o| o.interpolate(f));
    Interval {
        lo: iv.map(|[lo, _]| lo),
        hi: iv.map(|[_, hi]| hi),
        skipped: draws - kept.len(),
    }
}

/// The 2.5th and 97.5th [`percentile`]s of unsorted values, without
/// reordering them; what every bootstrap interval calls.
pub fn interval95(values: &[f64]) -> Option<[f64; 2]> {
    percentile_pair(values, 2.5, 97.5)
}

/// The `q_lo`-th and `q_hi`-th percentiles (0 ≤ q_lo ≤ q_hi ≤ 100) of
/// unsorted values, equal bit for bit to sorting under `f64::total_cmp` and
/// interpolating ([`percentile`]).
///
/// Each percentile reads two adjacent order statistics. Thresholds are taken
/// from a sorted sample of 256 values, a few sample ranks beyond each
/// percentile; one pass then keeps the values at or beyond each threshold —
/// exactly the smallest (largest) few percent of all values, ties included,
/// since every value left out lies strictly on the other side — and sorts
/// the two small sets. When a set is too small to hold its order statistics
/// (an unlucky sample, middle percentiles, few values), all the values are
/// sorted instead. On 10,000 bootstrap draws (which tie often: a draw of 8
/// families has few distinct pools) this is about one pass. Sorting is the
/// only ordering routine it uses: the first-load worker links no selection
/// (the page's budget).
pub fn percentile_pair(values: &[f64], q_lo: f64, q_hi: f64) -> Option<[f64; 2]> {
    order_statistics(values, q_lo, q_hi).map(|o| o.interpolate(|x| x))
}

/// The four order statistics two percentiles interpolate, and their weights.
#[derive(Clone, Copy, Debug)]
struct OrderStatistics {
    low: (f64, f64, f64),
    high: (f64, f64, f64),
}

impl OrderStatistics {
    /// Both percentiles of `f(values)` for a non-decreasing `f`.
    fn interpolate(&self, f: impl Fn(f64) -> f64) -> [f64; 2] {
        let at = |(x, y, w): (f64, f64, f64)| {
            let (x, y) = (f(x), f(y));
            x + w * (y - x)
        };
        [at(self.low), at(self.high)]
    }
}

fn order_statistics(values: &[f64], q_lo: f64, q_hi: f64) -> Option<OrderStatistics> {
    const SAMPLE: usize = 256;
    let n = values.len();
    if n == 0 {
        return None;
    }
    let rank = |q: f64| {
        let h = (n - 1) as f64 * q / 100.0;
        let lo = h.floor() as usize;
        (lo, (lo + 1).min(n - 1), h - lo as f64)
    };
    let (a, b, fa) = rank(q_lo);
    let (c, d, fc) = rank(q_hi);
    // Every value, sorted.
    let sort_all = || {
        let mut all = values.to_vec();
        all.sort_unstable_by(f64::total_cmp);
        OrderStatistics {
            low: (all[a], all[b], fa),
            high: (all[c], all[d], fc),
        }
    };
    // The smallest `need_low` and the largest `need_high` values hold the
    // four order statistics.
    let (need_low, need_high) = (b + 1, n - c);
    if n < 4 * SAMPLE || need_low > n / 8 || need_high > n / 8 {
        return Some(sort_all());
    }
    let mut sample: Vec<f64> = (0..SAMPLE).map(|i| values[i * n / SAMPLE]).collect();
    sample.sort_unstable_by(f64::total_cmp);
    // A sample rank ~4 binomial SDs beyond the expected one, plus 2.
    let beyond = |need: usize| {
        let p = need as f64 / n as f64;
        let m = SAMPLE as f64;
        ((m * p + 4.0 * (m * p * (1.0 - p)).sqrt()).ceil() as usize + 2).min(SAMPLE - 1)
    };
    let t_low = sample[beyond(need_low)];
    let t_high = sample[SAMPLE - 1 - beyond(need_high)];
    let (mut low, mut high) = (Vec::with_capacity(n / 8), Vec::with_capacity(n / 8));
    for &v in values {
        if v.total_cmp(&t_low).is_le() {
            low.push(v);
        }
        if v.total_cmp(&t_high).is_ge() {
            high.push(v);
        }
    }
    if low.len() < need_low || high.len() < need_high {
        return Some(sort_all());
    }
    // Order statistic r ≥ c is high[r − (n − high.len())].
    low.sort_unstable_by(f64::total_cmp);
    high.sort_unstable_by(f64::total_cmp);
    let shift = n - high.len();
    Some(OrderStatistics {
        low: (low[a], low[b], fa),
        high: (high[c - shift], high[d - shift], fc),
    })
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

    /// ρ of a multiset by counts is the ρ of the pooled list, bit for bit
    /// (or both `None`): random values with many ties and ±0, random counts
    /// with zeros; and the pooled path of the interval equals the counted.
    #[test]
    fn counted_spearman_equals_the_pooled_list() {
        let mut s = 3u64;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        let (mut agree, mut none) = (0, 0);
        for case in 0..3000 {
            let n = 1 + (next() % 40) as usize;
            let ties = [2u64, 5, 1 << 30][case % 3];
            let value = |k: u64| {
                let x = (k % ties) as f64 - (ties / 2) as f64;
                if x == 0.0 && k.is_multiple_of(2) {
                    -0.0
                } else {
                    x * 0.3
                }
            };
            let ys: Vec<f64> = (0..n).map(|_| value(next())).collect();
            let ps: Vec<f64> = (0..n).map(|_| value(next())).collect();
            let counts: Vec<usize> = (0..n).map(|_| (next() % 4) as usize).collect();
            let (mut py, mut pp) = (Vec::new(), Vec::new());
            for i in 0..n {
                for _ in 0..counts[i] {
                    py.push(ys[i]);
                    pp.push(ps[i]);
                }
            }
            let (mut ry, mut rp) = (vec![0.0; n], vec![0.0; n]);
            let got = counted_spearman(
                &CountedRanks::new(&ys),
                &CountedRanks::new(&ps),
                &counts,
                &mut ry,
                &mut rp,
            );
            let want = crate::summary::spearman(&py, &pp);
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "case {case}");
            if got.is_some() {
                agree += 1;
            } else {
                none += 1;
            }
        }
        assert!(agree > 1000 && none > 100, "{agree} defined, {none} not");

        let groups: Vec<usize> = (0..30).map(|i| i % 7).collect();
        let observed: Vec<Option<f64>> = (0..30).map(|i| Some(f64::from((i * 7) % 5))).collect();
        let predicted: Vec<Option<f64>> = (0..30).map(|i| Some(f64::from((i * 3) % 4))).collect();
        let b = GroupBootstrap::new(7, 400, 5);
        let counted = b.spearman_interval(&groups, &observed, &predicted);
        let (ys, ps): (Vec<f64>, Vec<f64>) = observed
            .iter()
            .zip(&predicted)
            .map(|(y, p)| (y.unwrap(), p.unwrap()))
            .unzip();
        assert_eq!(b.pooled_spearman_interval(&groups, &ys, &ps), counted);
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
    fn percentile_pair_equals_sorting() {
        let mut s = 7u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        for n in (1usize..60).chain([
            79, 80, 81, 399, 400, 401, 1023, 1024, 1025, 2001, 5000, 10_000,
        ]) {
            for ties in [3u64, 1 << 30] {
                let mut v: Vec<f64> = (0..n)
                    .map(|_| {
                        let x = (next() % ties) as f64 - (ties / 2) as f64;
                        if x == 0.0 && next() % 2 == 0 {
                            -0.0
                        } else {
                            x * 0.37
                        }
                    })
                    .collect();
                for order in 0..3 {
                    if order == 1 {
                        v.sort_by(f64::total_cmp);
                    } else if order == 2 {
                        v.reverse();
                    }
                    let mut sorted = v.clone();
                    sorted.sort_by(f64::total_cmp);
                    for (a, b) in [(2.5, 97.5), (0.0, 100.0), (50.0, 50.0), (10.0, 90.0)] {
                        let got = percentile_pair(&v, a, b).unwrap();
                        let want = [
                            percentile(&sorted, a).unwrap(),
                            percentile(&sorted, b).unwrap(),
                        ];
                        assert_eq!(got[0].to_bits(), want[0].to_bits(), "n={n} q={a}");
                        assert_eq!(got[1].to_bits(), want[1].to_bits(), "n={n} q={b}");
                    }
                }
            }
        }
        assert_eq!(interval95(&[]), None);
    }

    /// The batch (RMSE's percentiles from the MSE's order statistics)
    /// equals each draw's metrics computed plainly from its listed models,
    /// sorted and interpolated, for one predictor and a paired difference.
    #[test]
    fn batch_equals_plain_draws() {
        let groups = [0, 0, 1, 2, 2, 3, 4, 4];
        let y: Vec<Option<f64>> = [3.1, 1.2, 4.7, 1.9, 5.3, 9.8, 2.6, 6.4].map(Some).to_vec();
        let p: Vec<Option<f64>> = [2.5, 1.9, 3.3, 2.0, 4.4, 7.1, 2.9, 5.0].map(Some).to_vec();
        let b: Vec<Option<f64>> = [4.0, 4.0, 4.4, 4.1, 4.1, 3.7, 3.9, 3.9].map(Some).to_vec();
        let q: Vec<Option<f64>> = [3.0, 1.0, 4.0, 2.5, 5.0, 8.0, 2.0, 6.0].map(Some).to_vec();
        let (draws, g) = (1_001, 5);
        let boot = GroupBootstrap::new(g, draws, 3);
        let got = boot.batch(&[
            boot.request(&groups, &y, &p, &b),
            boot.paired_request(&groups, &y, (&q, &b), (&p, &b)),
        ]);
        let metrics = |picks: &[u32], pred: &[Option<f64>]| -> [f64; 3] {
            let (mut n, mut abs, mut sse, mut ssb) = (0.0, 0.0, 0.0, 0.0);
            for &k in picks {
                for i in (0..8).filter(|&i| groups[i] == k as usize) {
                    let (yi, pi, bi) = (y[i].unwrap(), pred[i].unwrap(), b[i].unwrap());
                    n += 1.0;
                    abs += (yi - pi).abs();
                    sse += (yi - pi) * (yi - pi);
                    ssb += (yi - bi) * (yi - bi);
                }
            }
            [abs / n, (sse / n).sqrt(), 1.0 - sse / ssb]
        };
        let interval = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (percentile(&v, 2.5), percentile(&v, 97.5))
        };
        for (r, paired) in [(0, false), (1, true)] {
            for m in 0..3 {
                let plain: Vec<f64> = (0..draws)
                    .map(|d| {
                        let picks = &boot.picks[d * g..(d + 1) * g];
                        let one = metrics(picks, &p)[m];
                        if paired {
                            metrics(picks, &q)[m] - one
                        } else {
                            one
                        }
                    })
                    .filter(|v| v.is_finite())
                    .collect();
                let want = interval(plain);
                let iv = [got[r].mae, got[r].rmse, got[r].q2][m];
                // Sums in another order (per model, not per group): 1e-12.
                let close =
                    |a: Option<f64>, b: Option<f64>| (a.unwrap() - b.unwrap()).abs() < 1e-12;
                assert!(
                    close(iv.lo, want.0) && close(iv.hi, want.1),
                    "request {r} metric {m}: {iv:?} {want:?}"
                );
                assert_eq!(iv.skipped, 0);
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
