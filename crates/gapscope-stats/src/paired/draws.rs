//! The task bootstrap's draws and their percentile intervals.
//!
//! One section's stream: `ChaCha8Rng::seed_from_u64(seed)`, then for draw
//! 1 … B and, within a draw, for position 1 … n, one `random_range(0..n)` on
//! `u32` (the same as [`GroupBootstrap::new`](crate::bootstrap::GroupBootstrap::new)).
//! The indices are streamed (one draw's n indices at a time), so memory is
//! O(n) plus the B kept values of each statistic.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::bootstrap::interval95;

/// A 95% task-bootstrap percentile interval (the 2.5th and 97.5th percentile
/// of the defined draws, numpy's linear interpolation).
///
/// JSON: `{"lo", "hi", "draws", "skipped", "one_unit"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BootInterval {
    /// 2.5th percentile; `None` when every draw was skipped.
    pub lo: Option<f64>,
    /// 97.5th percentile; `None` when every draw was skipped.
    pub hi: Option<f64>,
    /// Draws taken (B).
    pub draws: usize,
    /// Draws whose statistic was undefined (left out of the percentiles).
    pub skipped: usize,
    /// Exactly one unit was resampled: the interval is `[d, d]` and says so.
    pub one_unit: bool,
}

impl BootInterval {
    /// `[lo, hi]`, or `None` when every draw was skipped (as
    /// [`crate::bootstrap::Interval::bounds`]).
    pub fn bounds(&self) -> Option<[f64; 2]> {
        Some([self.lo?, self.hi?])
    }
}

/// Calls `f` with each of `draws` resamples of `n` unit indices, from a
/// fresh stream (module doc). Nothing is drawn when `n` is 0 or does not fit
/// in `u32` (a [`Run`](super::Run) has at most `u32::MAX` tasks).
pub(crate) fn for_each_draw(n: usize, draws: usize, seed: u64, mut f: impl FnMut(&[u32])) {
    if let Some(kept) = scoped_draws(n, draws, seed) {
        for picks in kept.chunks_exact(n) {
            f(picks);
        }
        return;
    }
    stream_draws(n, draws, seed, f);
}

/// Draws handed out together by [`for_each_block`]: their sums are
/// independent chains of additions, so summing them interleaved keeps the
/// processor busy where one draw's sum waits on each addition in turn.
pub(crate) const BLOCK: usize = 8;

/// [`for_each_draw`] a block at a time: `f` gets the indices of up to
/// [`BLOCK`] consecutive draws (draw-major: draw j's n indices at
/// `j * n .. (j + 1) * n`), every draw exactly once and in order, the same
/// indices as [`for_each_draw`].
pub(crate) fn for_each_block(n: usize, draws: usize, seed: u64, mut f: impl FnMut(&[u32])) {
    let Some(size) = n.checked_mul(BLOCK) else {
        return for_each_draw(n, draws, seed, f);
    };
    if let Some(kept) = scoped_draws(n, draws, seed) {
        for block in kept.chunks(size) {
            f(block);
        }
        return;
    }
    stream_blocks(n, draws, seed, BLOCK, f);
}

/// Each draw's `Σ values[pick]` for the draws of a `block` of
/// [`for_each_block`] (n = `values.len()`), into `out[..k]` for its k
/// draws. Every sum adds its picks in order from the neutral element of
/// `f64`'s `Sum`, as `picks.iter().map(..).sum()` does, so each is that sum
/// bit for bit; a full block runs its [`BLOCK`] sums interleaved.
pub(crate) fn block_sums(values: &[f64], block: &[u32], out: &mut [f64; BLOCK]) -> usize {
    let n = values.len();
    if n == 0 {
        return 0;
    }
    let k = block.len() / n;
    let zero: f64 = std::iter::empty::<f64>().sum();
    if k == BLOCK {
        let rows: [&[u32]; BLOCK] = std::array::from_fn(|j| &block[j * n..(j + 1) * n]);
        let mut acc = [zero; BLOCK];
        for i in 0..n {
            for (a, row) in acc.iter_mut().zip(&rows) {
                *a += values[row[i] as usize];
            }
        }
        *out = acc;
    } else {
        for (o, picks) in out.iter_mut().zip(block.chunks_exact(n)) {
            *o = picks.iter().map(|&i| values[i as usize]).sum();
        }
    }
    k
}

/// [`for_each_draw`] without the scoped cache: the indices drawn afresh.
fn stream_draws(n: usize, draws: usize, seed: u64, f: impl FnMut(&[u32])) {
    stream_blocks(n, draws, seed, 1, f);
}

/// The stream's draws drawn afresh, handed out `per` at a time (the last
/// call may hold fewer; draw-major as in [`for_each_block`]).
fn stream_blocks(n: usize, draws: usize, seed: u64, per: usize, mut f: impl FnMut(&[u32])) {
    let Ok(m) = u32::try_from(n) else {
        return;
    };
    if m == 0 || per == 0 {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = vec![0u32; n.saturating_mul(per)];
    let mut left = draws;
    while left > 0 {
        let k = left.min(per);
        for slot in &mut buf[..k * n] {
            *slot = rng.random_range(0..m);
        }
        f(&buf[..k * n]);
        left -= k;
    }
}

/// The draws kept while [`with_draw_cache`] runs: per (n, B, seed), every
/// index of the B draws, oldest first; `used` indices of at most `limit`.
struct Scoped {
    limit: usize,
    used: usize,
    kept: Vec<(DrawKey, std::rc::Rc<[u32]>)>,
}

/// (n, B, seed): what a draw's indices depend on.
type DrawKey = (usize, usize, u64);

thread_local! {
    static SCOPED: std::cell::RefCell<Option<Scoped>> = const { std::cell::RefCell::new(None) };
}

/// The kept indices of (n, B, seed) while a scoped cache is on, drawn and
/// kept on first use when they fit; `None` otherwise (the caller streams).
fn scoped_draws(n: usize, draws: usize, seed: u64) -> Option<std::rc::Rc<[u32]>> {
    SCOPED.with(|cell| {
        let mut slot = cell.borrow_mut();
        let c = slot.as_mut()?;
        let key = (n, draws, seed);
        if let Some((_, v)) = c.kept.iter().find(|(k, _)| *k == key) {
            return Some(v.clone());
        }
        let size = n.checked_mul(draws)?;
        if n == 0 || draws == 0 || size > c.limit {
            return None;
        }
        while c.used + size > c.limit && !c.kept.is_empty() {
            let (_, old) = c.kept.remove(0);
            c.used -= old.len();
        }
        let mut all = Vec::with_capacity(size);
        stream_draws(n, draws, seed, |picks| all.extend_from_slice(picks));
        let v: std::rc::Rc<[u32]> = all.into();
        c.used += v.len();
        c.kept.push((key, v.clone()));
        Some(v)
    })
}

/// Runs `f` with the draws of every bootstrap in it kept per (n, B, seed),
/// up to `limit` indices (4 bytes each) on this thread: an analysis whose
/// statistics resample the same units (every interval of a runtime slice
/// resamples its instance ids from a fresh stream of the same seed) draws
/// them once. The indices are exactly those drawn afresh, so every number
/// is the same as without the cache, bit for bit; draws larger than
/// `limit` stream as before. The cache is dropped when `f` returns (a
/// nested call keeps its own and restores the outer one).
pub fn with_draw_cache<T>(limit: usize, f: impl FnOnce() -> T) -> T {
    let outer = SCOPED.with(|cell| {
        cell.replace(Some(Scoped {
            limit,
            used: 0,
            kept: Vec::new(),
        }))
    });
    let out = f();
    SCOPED.with(|cell| cell.replace(outer));
    out
}

/// The most indices a [`DrawCache`] keeps (B × n; 4 bytes each: 64 MB).
pub(crate) const MAX_CACHED: usize = 16 << 20;

/// The draws of one report, kept per (n, B, seed) so that the sections
/// that resample the same number of units (every run of one task set, every
/// pair on the same common tasks, the ranks: comparisons.md, "Draws and
/// units") read one set of indices instead of drawing it again. The
/// indices are exactly [`for_each_draw`]'s (each section's stream is fresh
/// and depends only on n, B and the seed), so every number is the same as
/// without the cache, bit for bit; above [`MAX_CACHED`] indices they are
/// streamed as before.
#[derive(Debug, Default)]
pub(crate) struct DrawCache {
    kept: Vec<((usize, usize, u64), Vec<u32>)>,
}

impl DrawCache {
    /// [`for_each_draw`], from the cache.
    pub fn for_each(&mut self, n: usize, draws: usize, seed: u64, mut f: impl FnMut(&[u32])) {
        if n == 0 || draws == 0 || n.saturating_mul(draws) > MAX_CACHED {
            return for_each_draw(n, draws, seed, f);
        }
        let key = (n, draws, seed);
        let at = if let Some(at) = self.kept.iter().position(|(k, _)| *k == key) {
            at
        } else {
            let mut all = Vec::with_capacity(n * draws);
            for_each_draw(n, draws, seed, |picks| all.extend_from_slice(picks));
            self.kept.push((key, all));
            self.kept.len() - 1
        };
        for picks in self.kept[at].1.chunks_exact(n) {
            f(picks);
        }
    }
}

/// The values of one statistic over the draws.
#[derive(Clone, Debug, Default)]
pub(crate) struct Collector {
    kept: Vec<f64>,
    skipped: usize,
}

impl Collector {
    pub fn with_capacity(draws: usize) -> Self {
        Collector {
            kept: Vec::with_capacity(draws),
            skipped: 0,
        }
    }

    /// Records one draw's value (`None`: the draw is skipped).
    pub fn push(&mut self, value: Option<f64>) {
        match value {
            Some(v) => self.kept.push(v),
            None => self.skipped += 1,
        }
    }

    /// The interval over the recorded draws; `None` when no draw was taken
    /// (B = 0 or no unit).
    pub fn finish(self, one_unit: bool) -> Option<BootInterval> {
        let draws = self.kept.len() + self.skipped;
        if draws == 0 {
            return None;
        }
        let iv = interval95(&self.kept);
        Some(BootInterval {
            lo: iv.map(|[lo, _]| lo),
            hi: iv.map(|[_, hi]| hi),
            draws,
            skipped: self.skipped,
            one_unit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_the_group_bootstrap_stream() {
        // The same indices as GroupBootstrap (the documented convention): its
        // pooled MAE over groups whose |e| is the group index reproduces the
        // mean pick of each draw.
        let (n, b, seed) = (5usize, 50usize, 7u64);
        let mut means = Vec::new();
        for_each_draw(n, b, seed, |p| {
            means.push(p.iter().map(|&i| f64::from(i)).sum::<f64>() / n as f64);
        });
        let gb = crate::bootstrap::GroupBootstrap::new(n, b, seed);
        let groups: Vec<usize> = (0..n).collect();
        let y: Vec<Option<f64>> = (0..n).map(|i| Some(i as f64)).collect();
        let zero = vec![Some(0.0); n];
        let iv = gb.intervals(&groups, &y, &zero, &zero).mae;
        let mut sorted = means.clone();
        sorted.sort_by(f64::total_cmp);
        let lo = crate::bootstrap::percentile(&sorted, 2.5).unwrap();
        assert!((iv.lo.unwrap() - lo).abs() < 1e-12);
    }

    #[test]
    fn the_cache_hands_out_the_streams_indices() {
        let mut cache = DrawCache::default();
        for (n, b, seed) in [(7usize, 30usize, 3u64), (7, 30, 3), (7, 30, 4), (2, 5, 3)] {
            let mut streamed = Vec::new();
            for_each_draw(n, b, seed, |p| streamed.extend_from_slice(p));
            let mut cached = Vec::new();
            cache.for_each(n, b, seed, |p| cached.extend_from_slice(p));
            assert_eq!(cached, streamed, "n {n}, B {b}, seed {seed}");
        }
        // (7, 30, 3) asked twice, kept once.
        assert_eq!(cache.kept.len(), 3);
        // Above the cap: streamed, not kept.
        let mut big = DrawCache::default();
        let mut count = 0;
        big.for_each(MAX_CACHED + 1, 1, 0, |p| count += p.len());
        assert_eq!((count, big.kept.len()), (MAX_CACHED + 1, 0));
    }

    #[test]
    fn blocks_hand_out_the_streams_draws_and_their_sums() {
        // Every (n, B) shape: B below, at and above a block, not a multiple
        // of it; streamed and from the scoped cache.
        for (n, b) in [(1usize, 1usize), (3, 7), (5, 8), (4, 9), (13, 35), (2, 0)] {
            let mut streamed: Vec<Vec<u32>> = Vec::new();
            for_each_draw(n, b, 11, |p| streamed.push(p.to_vec()));
            for cached in [false, true] {
                let mut blocks: Vec<Vec<u32>> = Vec::new();
                let mut run = || {
                    for_each_block(n, b, 11, |blk| {
                        blocks.extend(blk.chunks(n).map(<[u32]>::to_vec));
                    });
                };
                if cached {
                    with_draw_cache(1 << 20, run);
                } else {
                    run();
                }
                assert_eq!(blocks, streamed, "n {n}, B {b}, cached {cached}");
            }
            // Sums bit for bit, with values whose sum depends on the order
            // and an all −0 column (the neutral element's sign).
            let values: Vec<f64> = (0..n)
                .map(|i| 0.1 * (i as f64 + 1.0) * 1e15_f64.powi(i as i32 % 2))
                .collect();
            for vals in [values, vec![-0.0; n]] {
                let mut got: Vec<u64> = Vec::new();
                let mut sums = [0.0; BLOCK];
                for_each_block(n, b, 11, |blk| {
                    let k = block_sums(&vals, blk, &mut sums);
                    got.extend(sums[..k].iter().map(|s| s.to_bits()));
                });
                let want: Vec<u64> = streamed
                    .iter()
                    .map(|p| p.iter().map(|&i| vals[i as usize]).sum::<f64>().to_bits())
                    .collect();
                assert_eq!(got, want, "n {n}, B {b}");
            }
        }
    }

    #[test]
    fn collector_counts_skips() {
        let mut c = Collector::with_capacity(4);
        for v in [Some(1.0), None, Some(3.0), None] {
            c.push(v);
        }
        let iv = c.finish(false).unwrap();
        // numpy.percentile([1, 3], [2.5, 97.5]) = [1.05, 2.95]
        assert!((iv.lo.unwrap() - 1.05).abs() < 1e-12);
        assert!((iv.hi.unwrap() - 2.95).abs() < 1e-12);
        assert_eq!((iv.draws, iv.skipped), (4, 2));
        assert_eq!(Collector::default().finish(false), None);
        let mut all_skipped = Collector::default();
        all_skipped.push(None);
        let iv = all_skipped.finish(false).unwrap();
        assert_eq!((iv.lo, iv.hi, iv.skipped), (None, None, 1));
    }
}
