//! Many runs (spec "Many runs"): every pair, Holm and Benjamini–Hochberg
//! adjustments, bootstrap rank intervals.

use serde::{Deserialize, Serialize};

use super::draws::{BootInterval, Collector, DrawCache};
use super::run::{summarize_run_in, RunSummary};
use super::two::{draw_delta, pair_without_bootstrap, PairComparison};
use super::{Run, Settings};
use crate::summary::average_ranks;

/// A p-value given to [`holm`] or [`benjamini_hochberg`] outside [0, 1] (or NaN).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("p-value {value} at position {index} is not a number in [0, 1]")]
pub struct PValueError {
    pub index: usize,
    pub value: f64,
}

fn check(p: &[f64]) -> Result<(), PValueError> {
    match p.iter().position(|x| !(0.0..=1.0).contains(x)) {
        Some(index) => Err(PValueError {
            index,
            value: p[index],
        }),
        None => Ok(()),
    }
}

/// Indices of `p` in ascending order (stable, so equal p keep their order;
/// the adjusted values of ties do not depend on it).
fn ascending(p: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    order
}

/// Holm's step-down adjustment, as statsmodels `multipletests(method="holm")`:
/// with p sorted ascending, `p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j))`,
/// returned in the input's order.
///
/// ```
/// use gapscope_stats::paired::holm;
/// // Sorted 0.01, 0.03, 0.04 → 3·0.01, max(0.03, 2·0.03), max(0.06, 0.04).
/// let h = holm(&[0.04, 0.01, 0.03]).unwrap();
/// assert!((h[0] - 0.06).abs() < 1e-15 && (h[1] - 0.03).abs() < 1e-15 && (h[2] - 0.06).abs() < 1e-15);
/// ```
pub fn holm(p: &[f64]) -> Result<Vec<f64>, PValueError> {
    check(p)?;
    let m = p.len();
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (j, &i) in ascending(p).iter().enumerate() {
        running = running.max(((m - j) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    Ok(out)
}

/// Benjamini–Hochberg step-up adjustment, as statsmodels
/// `multipletests(method="fdr_bh")`: with p sorted ascending,
/// `p̃_(i) = min(1, min_{j ≥ i} m p_(j) / j)`, returned in the input's order.
///
/// ```
/// use gapscope_stats::paired::benjamini_hochberg;
/// // Sorted 0.01, 0.03, 0.04 → min(0.03, 0.045, 0.04), min(0.045, 0.04), 0.04.
/// let q = benjamini_hochberg(&[0.04, 0.01, 0.03]).unwrap();
/// assert!((q[0] - 0.04).abs() < 1e-15 && (q[1] - 0.03).abs() < 1e-15 && (q[2] - 0.04).abs() < 1e-15);
/// ```
pub fn benjamini_hochberg(p: &[f64]) -> Result<Vec<f64>, PValueError> {
    check(p)?;
    let m = p.len();
    let mut out = vec![0.0; m];
    let mut running = 1.0f64;
    for (j, &i) in ascending(p).iter().enumerate().rev() {
        // p / (j/m), as statsmodels divides (so p_(m) stays exactly p_(m)).
        running = running.min(p[i] / ((j + 1) as f64 / m as f64));
        out[i] = running;
    }
    Ok(out)
}

/// A raw p-value and its adjustments across the pairs shown.
///
/// JSON: `{"raw", "holm", "bh"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adjusted {
    pub raw: Option<f64>,
    pub holm: Option<f64>,
    pub bh: Option<f64>,
}

/// Adjusts the defined p-values as one family (m = how many are defined);
/// an undefined raw value stays undefined.
fn adjust(raw: &[Option<f64>]) -> Vec<Adjusted> {
    let defined: Vec<f64> = raw.iter().flatten().copied().collect();
    // Our p-values are in [0, 1]; were one not, nothing would be adjusted.
    let h = holm(&defined).ok();
    let q = benjamini_hochberg(&defined).ok();
    let mut k = 0;
    raw.iter()
        .map(|r| {
            let at = |v: &Option<Vec<f64>>| v.as_ref().and_then(|v| v.get(k).copied());
            let a = Adjusted {
                raw: *r,
                holm: r.and(at(&h)),
                bh: r.and(at(&q)),
            };
            k += usize::from(r.is_some());
            a
        })
        .collect()
}

/// One run of the report.
///
/// JSON: `{"name", …the fields of RunSummary}` (flattened).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub name: String,
    #[serde(flatten)]
    pub summary: RunSummary,
}

/// One pair (A = the earlier run in the input, B = the later).
///
/// JSON: `{"a", "b", "comparison", "sign_test_p", "permutation_p"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub comparison: PairComparison,
    /// The sign test's p, adjusted across all pairs' sign tests.
    pub sign_test_p: Adjusted,
    /// The permutation test's p, adjusted across all pairs' permutation tests.
    pub permutation_p: Adjusted,
}

/// One run's rank (1 = highest mean) over the tasks common to all runs.
///
/// JSON: `{"name", "mean", "rank", "interval"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankRow {
    pub name: String,
    /// x̄ over the tasks common to all runs; `None` with none.
    pub mean: Option<f64>,
    /// The average rank of `mean` (ties share the average, scipy's
    /// `rankdata(-means)`); `None` with no common task.
    pub rank: Option<f64>,
    /// 2.5 and 97.5 percentiles of the rank over the draws.
    pub interval: Option<BootInterval>,
}

/// The bootstrap ranks of all runs.
///
/// JSON: `{"common", "rows"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranks {
    /// Tasks common to all runs.
    pub common: usize,
    pub rows: Vec<RankRow>,
}

/// The comparison of several runs.
///
/// JSON: `{"settings", "runs", "pairs", "ranks"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonReport {
    pub settings: Settings,
    pub runs: Vec<RunRow>,
    pub pairs: Vec<PairRow>,
    pub ranks: Ranks,
}

/// Keys common to all runs, as index rows (one index per run).
fn common_to_all(runs: &[(&str, &Run)]) -> Vec<Vec<usize>> {
    let Some((_, first)) = runs.first() else {
        return Vec::new();
    };
    first
        .tasks()
        .iter()
        .filter_map(|t| {
            runs.iter()
                .map(|(_, r)| r.tasks().binary_search_by(|u| u.key.cmp(&t.key)).ok())
                .collect::<Option<Vec<usize>>>()
        })
        .collect()
}

/// Ranks (1 = highest) of the runs' means over the picked common tasks.
fn ranks_of(
    runs: &[(&str, &Run)],
    common: &[Vec<usize>],
    picks: impl Iterator<Item = usize> + Clone,
) -> (Vec<f64>, Vec<f64>) {
    let means: Vec<f64> = runs
        .iter()
        .enumerate()
        .map(|(r, (_, run))| {
            let (mut s, mut k) = (0.0, 0usize);
            for t in picks.clone() {
                s += run.sum(common[t][r]);
                k += run.trials(common[t][r]);
            }
            s / k as f64
        })
        .collect();
    let negated: Vec<f64> = means.iter().map(|m| -m).collect();
    (means, average_ranks(&negated))
}

/// The rank table: point ranks and their bootstrap intervals from one fresh
/// stream over the tasks common to all runs.
pub(crate) fn rank_table(
    runs: &[(&str, &Run)],
    settings: &Settings,
    cache: &mut DrawCache,
) -> Ranks {
    let common = common_to_all(runs);
    let n = common.len();
    let (means, ranks) = if n > 0 {
        let (m, r) = ranks_of(runs, &common, 0..n);
        (
            m.into_iter().map(Some).collect(),
            r.into_iter().map(Some).collect(),
        )
    } else {
        (vec![None; runs.len()], vec![None; runs.len()])
    };
    let mut boot: Vec<Collector> = runs
        .iter()
        .map(|_| Collector::with_capacity(settings.draws()))
        .collect();
    cache.for_each(n, settings.draws(), settings.seed(), |picks| {
        let (_, r) = ranks_of(runs, &common, picks.iter().map(|&t| t as usize));
        for (c, v) in boot.iter_mut().zip(r) {
            c.push(Some(v));
        }
    });
    let rows = runs
        .iter()
        .zip(boot)
        .zip(means.into_iter().zip(ranks))
        .map(|(((name, _), c), (mean, rank))| RankRow {
            name: (*name).to_string(),
            mean,
            rank,
            interval: c.finish(n == 1),
        })
        .collect();
    Ranks { common: n, rows }
}

/// The paired bootstraps of every pair, those on the same number of common
/// tasks in one pass over their draws (each pair's Δ per draw is summed as
/// [`super::compare_pair`] sums it: the same numbers, the indices read once
/// per draw instead of once per pair).
fn pair_bootstraps(
    pairs: &mut [(String, String, PairComparison)],
    diffs: &[Vec<f64>],
    settings: &Settings,
    cache: &mut DrawCache,
) {
    let mut sizes: Vec<usize> = diffs.iter().map(Vec::len).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for n in sizes {
        let group: Vec<usize> = (0..diffs.len()).filter(|&p| diffs[p].len() == n).collect();
        let mut boot: Vec<Collector> = group
            .iter()
            .map(|_| Collector::with_capacity(settings.draws()))
            .collect();
        cache.for_each(n, settings.draws(), settings.seed(), |picks| {
            for (c, &p) in boot.iter_mut().zip(&group) {
                c.push(Some(draw_delta(&diffs[p], picks)));
            }
        });
        for (c, &p) in boot.into_iter().zip(&group) {
            pairs[p].2.bootstrap = c.finish(n == 1);
        }
    }
}

/// Every statistic of the spec for `runs` (named): each run's summary, every
/// pair (i < j, A = run i) with its p-values adjusted across the pairs, and
/// the ranks over the tasks common to all runs.
pub fn compare_runs(runs: &[(&str, &Run)], settings: &Settings) -> ComparisonReport {
    let mut cache = DrawCache::default();
    let summaries = runs
        .iter()
        .map(|(name, run)| RunRow {
            name: (*name).to_string(),
            summary: summarize_run_in(run, settings, &mut cache),
        })
        .collect();
    let mut pairs: Vec<(String, String, PairComparison)> = Vec::new();
    let mut diffs: Vec<Vec<f64>> = Vec::new();
    for (i, (na, a)) in runs.iter().enumerate() {
        for (nb, b) in &runs[i + 1..] {
            let (pair, d) = pair_without_bootstrap(a, b, settings);
            pairs.push(((*na).to_string(), (*nb).to_string(), pair));
            diffs.push(d);
        }
    }
    pair_bootstraps(&mut pairs, &diffs, settings, &mut cache);
    let sign = adjust(&pairs.iter().map(|p| p.2.sign_test.p).collect::<Vec<_>>());
    let perm = adjust(&pairs.iter().map(|p| p.2.permutation.p).collect::<Vec<_>>());
    ComparisonReport {
        settings: *settings,
        runs: summaries,
        pairs: pairs
            .into_iter()
            .zip(sign.into_iter().zip(perm))
            .map(
                |((a, b, comparison), (sign_test_p, permutation_p))| PairRow {
                    a,
                    b,
                    comparison,
                    sign_test_p,
                    permutation_p,
                },
            )
            .collect(),
        ranks: rank_table(runs, settings, &mut cache),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjustments_by_hand() {
        // m = 4, p = 0.01, 0.02, 0.03, 0.5 (input order shuffled).
        let p = [0.03, 0.5, 0.01, 0.02];
        // Holm: 4·0.01 = 0.04; 3·0.02 = 0.06; 2·0.03 = 0.06; 1·0.5 = 0.5.
        let h = holm(&p).unwrap();
        for (x, e) in h.iter().zip([0.06, 0.5, 0.04, 0.06]) {
            assert!((x - e).abs() < 1e-15, "{h:?}");
        }
        // BH: 4·0.5/4 = 0.5; 4·0.03/3 = 0.04; 4·0.02/2 = 0.04; 4·0.01/1 = 0.04.
        let q = benjamini_hochberg(&p).unwrap();
        for (x, e) in q.iter().zip([0.04, 0.5, 0.04, 0.04]) {
            assert!((x - e).abs() < 1e-15, "{q:?}");
        }
        // Capped at 1 and monotone with ties: Holm(0.4, 0.4, 0.4) = 1, 1, 1;
        // BH = 0.4 each.
        assert_eq!(holm(&[0.4, 0.4, 0.4]).unwrap(), vec![1.0; 3]);
        for x in benjamini_hochberg(&[0.4, 0.4, 0.4]).unwrap() {
            assert!((x - 0.4).abs() < 1e-15);
        }
        assert_eq!(holm(&[]).unwrap(), Vec::<f64>::new());
        assert_eq!(
            holm(&[0.1, 1.5]),
            Err(PValueError {
                index: 1,
                value: 1.5
            })
        );
        assert!(benjamini_hochberg(&[f64::NAN]).is_err());
        // Undefined raw values stay out of the family (m = 2 here).
        let a = adjust(&[Some(0.02), None, Some(0.04)]);
        assert_eq!(
            a[1],
            Adjusted {
                raw: None,
                holm: None,
                bh: None
            }
        );
        assert!((a[0].holm.unwrap() - 0.04).abs() < 1e-15);
        assert!((a[2].bh.unwrap() - 0.04).abs() < 1e-15);
    }

    #[test]
    fn a_reports_pairs_are_compare_pair_bit_for_bit() {
        // Pairs drawn in one pass per n (and from the cache) equal each pair
        // drawn alone: three runs, two task sets (n = 4 and n = 3 common).
        use crate::paired::compare_pair;
        use crate::paired::input::t;
        let a = Run::new(vec![
            t("1", &[1.0, 0.0]),
            t("2", &[0.5]),
            t("3", &[0.0]),
            t("4", &[1.0]),
        ])
        .unwrap();
        let b = Run::new(vec![
            t("1", &[0.0]),
            t("2", &[1.0]),
            t("3", &[0.25]),
            t("4", &[0.0]),
        ])
        .unwrap();
        let c = Run::new(vec![t("1", &[1.0]), t("2", &[0.0]), t("3", &[1.0, 1.0])]).unwrap();
        let settings = Settings::new(500, 200, 3).unwrap();
        let runs = [("a", &a), ("b", &b), ("c", &c)];
        let report = compare_runs(&runs, &settings);
        let alone = [(&a, &b), (&a, &c), (&b, &c)];
        assert_eq!(report.pairs.len(), 3);
        for (row, (x, y)) in report.pairs.iter().zip(alone) {
            assert_eq!(
                row.comparison,
                compare_pair(x, y, &settings),
                "{} − {}",
                row.a,
                row.b
            );
        }
    }
}
