//! Token cost ratio (spec: runtime-contracts.addendum.md §6, the paper's
//! Fig. 1): R_{A/B}(c) = T̄_A / T̄_B, T̄ the mean over the instance ids both
//! cells share (tokens defined in both) of each id's mean episode tokens; a
//! ratio of means, not a mean of ratios. Interval: the paired bootstrap over
//! the shared ids (ordered as text) of the ratio of means, draws with
//! T̄_B = 0 skipped and counted. Per cell also the input share
//! Σ`tokens_in` / Σ(in + out), without an interval.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::log::Episode;

/// An episode's tokens: Σ `tokens_in` + `tokens_out` over its logged turns;
/// `None` when a logged turn lacks either (the rule of
/// [`crate::metrics::EpisodeMetrics::tokens`]).
pub fn episode_tokens(e: &Episode) -> Option<u64> {
    e.turns
        .iter()
        .filter(|t| t.logged)
        .try_fold(0u64, |s, t| Some(s + t.tokens_in? + t.tokens_out?))
}

/// One cell's token counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellTokens {
    /// Episodes given.
    pub episodes: usize,
    /// Episodes whose tokens are undefined (left out).
    pub undefined: usize,
    /// Σ `tokens_in` over the logged turns of the episodes with tokens.
    pub tokens_in: u64,
    /// Σ (in + out) over the same turns.
    pub tokens: u64,
    /// `tokens_in` / `tokens` (no interval); `None` when `tokens` is 0.
    pub input_share: Option<f64>,
}

/// The token counts of one cell's `episodes`.
pub fn cell_tokens(episodes: &[&Episode]) -> CellTokens {
    let (mut undefined, mut tokens_in, mut tokens) = (0, 0u64, 0u64);
    for e in episodes {
        match episode_tokens(e) {
            Some(t) => {
                tokens += t;
                tokens_in += e
                    .turns
                    .iter()
                    .filter(|t| t.logged)
                    .filter_map(|t| t.tokens_in)
                    .sum::<u64>();
            }
            None => undefined += 1,
        }
    }
    CellTokens {
        episodes: episodes.len(),
        undefined,
        tokens_in,
        tokens,
        input_share: (tokens > 0).then(|| tokens_in as f64 / tokens as f64),
    }
}

/// Why the ratio is undefined.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum RatioUndefined {
    /// No instance id has tokens defined in both cells.
    #[error("no shared instance id with tokens in both cells")]
    NoSharedId,
    /// T̄_B = 0.
    #[error("the denominator's mean tokens are 0")]
    ZeroDenominator,
}

/// R_{A/B}: the ratio of the mean tokens of A and B on their shared ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenRatio {
    /// e.g. `P->S/P->P`.
    pub label: String,
    /// The cap of both cells (set by the slice report; `None` when the
    /// caller did not say).
    #[serde(default)]
    pub cap: Option<u32>,
    /// R = T̄_A / T̄_B; `None` when undefined.
    pub value: Option<f64>,
    /// The paired percentile bootstrap interval (95%).
    pub ci95: Option<[f64; 2]>,
    /// Bootstrap draws whose T̄_B was 0 (skipped).
    pub skipped_draws: usize,
    /// Shared ids (tokens defined in both cells).
    pub n_shared: usize,
    /// T̄_A on the shared ids.
    pub mean_a: Option<f64>,
    /// T̄_B on the shared ids.
    pub mean_b: Option<f64>,
    /// Why `value` is `None`.
    pub undefined: Option<RatioUndefined>,
    /// Cell A's counts (all its episodes).
    pub cell_a: CellTokens,
    /// Cell B's counts (all its episodes).
    pub cell_b: CellTokens,
}

/// Per id the mean tokens of its episodes with tokens.
fn per_id_tokens(episodes: &[&Episode]) -> BTreeMap<String, f64> {
    crate::metrics::per_id_cell(
        episodes
            .iter()
            .filter_map(|e| Some((e.instance_id.clone(), episode_tokens(e)? as f64))),
    )
}

/// R_{A/B} of cells `a` and `b` (each one condition at one cap, in one
/// slice), labelled `label`, with `draws` bootstrap draws (B; 0: no
/// interval) from `seed`.
pub fn token_ratio(
    label: String,
    a: &[&Episode],
    b: &[&Episode],
    draws: usize,
    seed: u64,
) -> TokenRatio {
    let (ta, tb) = (per_id_tokens(a), per_id_tokens(b));
    // Ids in text order (BTreeMap), the bootstrap's unit order.
    let pairs: Vec<(f64, f64)> = ta
        .iter()
        .filter_map(|(id, &x)| tb.get(id).map(|&y| (x, y)))
        .collect();
    let n = pairs.len();
    let mean =
        |f: fn(&(f64, f64)) -> f64| (n > 0).then(|| pairs.iter().map(f).sum::<f64>() / n as f64);
    let (mean_a, mean_b) = (mean(|p| p.0), mean(|p| p.1));
    let undefined = match mean_b {
        None => Some(RatioUndefined::NoSharedId),
        Some(m) => (m == 0.0).then_some(RatioUndefined::ZeroDenominator),
    };
    let value = match (mean_a, mean_b, &undefined) {
        (Some(x), Some(y), None) => Some(x / y),
        _ => None,
    };
    // Ratio of the draw's sums (the ratio of its means).
    let boot = value.and_then(|_| {
        gapscope_stats::paired::bootstrap_statistic(n, draws, seed, |picks| {
            let (sa, sb) = picks.iter().fold((0.0, 0.0), |(sa, sb), &i| {
                let (x, y) = pairs[i as usize];
                (sa + x, sb + y)
            });
            (sb != 0.0).then(|| sa / sb)
        })
    });
    TokenRatio {
        label,
        cap: None,
        value,
        ci95: boot.and_then(|iv| iv.bounds()),
        skipped_draws: boot.map_or(0, |iv| iv.skipped),
        n_shared: n,
        mean_a,
        mean_b,
        undefined,
        cell_a: cell_tokens(a),
        cell_b: cell_tokens(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::episode_metrics;
    use crate::read::read_jsonl;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// One episode of one logged turn with `tin` in, `tout` out (JSON text,
    /// `null` for missing), plus an unlogged turn without counts.
    fn episode(eid: &str, id: &str, tin: &str, tout: &str) -> String {
        format!(
            r#"{{"episode_id":"{eid}","task_family":"f","instance_id":"{id}","train_runtime":"P","deploy_runtime":"S","cap":9,"seed":0,"rollout":0,"base_model":"m","score":0,"termination":"finish","turns":[{{"index":0,"logged":true,"tokens_in":{tin},"tokens_out":{tout}}},{{"index":1,"logged":false}}]}}"#
        )
    }

    fn read(lines: &[String]) -> Vec<Episode> {
        let log = read_jsonl(&lines.join("\n"));
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        log.episodes
    }

    /// numpy.percentile, linear, of sorted values.
    fn np_percentile(sorted: &[f64], q: f64) -> f64 {
        let h = (sorted.len() - 1) as f64 * q / 100.0;
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(sorted.len() - 1);
        sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
    }

    #[test]
    fn the_addendum_example() {
        let a = read(&[
            episode("a1", "i1", "300", "100"),
            episode("a2", "i2", "90", "10"),
        ]);
        let b = read(&[
            episode("b1", "i1", "80", "20"),
            episode("b2", "i2", "40", "10"),
        ]);
        let (a, b): (Vec<&Episode>, Vec<&Episode>) = (a.iter().collect(), b.iter().collect());
        let r = token_ratio("A/B".into(), &a, &b, 10_000, 0);
        assert_eq!((r.mean_a, r.mean_b), (Some(250.0), Some(75.0)));
        assert_eq!(r.value, Some(250.0 / 75.0));
        assert_eq!(r.n_shared, 2);
        // A draw of two ids is (i1, i1): 400/100 = 4, (i2, i2): 100/50 = 2,
        // or mixed: 500/150 = 3.33. No draw can leave [2, 4] (a ratio of
        // sums lies between the smallest and largest per-id ratio), and each
        // extreme has probability 1/4, far above the 2.5% the percentile
        // needs, so the bounds are exactly 2 and 4.
        assert_eq!(r.ci95, Some([2.0, 4.0]));
        assert_eq!(r.skipped_draws, 0);
        assert_eq!(r.cell_a.input_share, Some(390.0 / 500.0));
        assert_eq!(r.cell_b.input_share, Some(120.0 / 150.0));

        // An independent bootstrap: the same stream (ChaCha8 from the seed,
        // n u32 indices per draw), numpy's linear percentiles.
        let (x, y) = ([400.0, 100.0], [100.0, 50.0]);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mut vals: Vec<f64> = (0..10_000)
            .map(|_| {
                let (mut sa, mut sb) = (0.0, 0.0);
                for _ in 0..2 {
                    let i = rng.random_range(0..2u32) as usize;
                    sa += x[i];
                    sb += y[i];
                }
                sa / sb
            })
            .collect();
        vals.sort_by(f64::total_cmp);
        let hand = [np_percentile(&vals, 2.5), np_percentile(&vals, 97.5)];
        assert_eq!(r.ci95, Some(hand));
        assert!(vals.iter().filter(|&&v| v == 2.0).count() > 2000);
    }

    #[test]
    fn undefined_and_skipped() {
        let a = read(&[
            episode("a1", "i1", "10", "0"),
            episode("a2", "i2", "10", "0"),
            // Undefined tokens: left out of the shared ids.
            episode("a3", "i3", "10", "null"),
        ]);
        let b = read(&[
            episode("b1", "i1", "0", "0"),
            episode("b2", "i2", "5", "5"),
            episode("b3", "i3", "5", "5"),
        ]);
        let (a, b): (Vec<&Episode>, Vec<&Episode>) = (a.iter().collect(), b.iter().collect());
        let r = token_ratio("A/B".into(), &a, &b, 1000, 0);
        assert_eq!(r.n_shared, 2);
        assert_eq!(r.value, Some(10.0 / 5.0));
        // Draws of (i1, i1) have T̄_B = 0: skipped (about a quarter).
        assert!(
            r.skipped_draws > 150 && r.skipped_draws < 350,
            "{}",
            r.skipped_draws
        );
        assert_eq!(r.cell_a.undefined, 1);
        // T̄_B = 0, and no shared id.
        let z = token_ratio("A/B".into(), &a, &b[..1], 1000, 0);
        assert_eq!(
            (z.value, z.undefined),
            (None, Some(RatioUndefined::ZeroDenominator))
        );
        assert_eq!(z.ci95, None);
        let none = token_ratio("A/B".into(), &a[2..], &b, 1000, 0);
        assert_eq!(none.undefined, Some(RatioUndefined::NoSharedId));
        assert_eq!((none.n_shared, none.mean_a), (0, None));
        assert_eq!(cell_tokens(&[]).input_share, None);
    }

    #[test]
    fn tokens_follow_the_metrics_rule() {
        for (tin, tout) in [("3", "4"), ("3", "null"), ("null", "4")] {
            let e = &read(&[episode("e", "i", tin, tout)])[0];
            let (m, _) = episode_metrics(e, None, "cap", crate::metrics::ListingCount::Calls);
            assert_eq!(episode_tokens(e), m.tokens);
        }
    }
}
