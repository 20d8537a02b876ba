//! The paired-comparison engine of the evidence part
//! (`evidence-to-action.addendum.md` §2, Table 12 of §6), independent of
//! episodes: each side is a list of planned [`Run`]s (case index, repetition,
//! outcome or unscored), and the callers (configuration pairs, intervention
//! analyses) choose the outcome, the cases and the pairing [`Rule`].
//!
//! - [`paired`]: A − B over cases (per-case means, rates, Δ, the paired
//!   bootstrap interval, the clustered exact McNemar, unscored runs and
//!   dropped cases) → [`PairedRow`].
//! - [`matched_panel`]: rule C over more than two sides (§8.1).
//! - [`per_repetition`]: Table 12 (Δ_r per repetition, mean ± SD, signs).
//!
//! Runs pair as (case, repetition) over the repetitions planned on both
//! sides. Cases are taken in ascending index (the case-file order), which is
//! the order the bootstrap resamples them in. A side that lists one
//! (case, repetition) twice plans it once: its first listing counts.
//! Outcomes are finite numbers; binary outcomes are 0 or 1.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// Mean and sample SD (n − 1) over the repetitions where a value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanSd {
    pub mean: Option<f64>,
    /// `None` with fewer than two defined values.
    pub sd: Option<f64>,
    /// Repetitions with a defined value.
    pub n: usize,
}

impl MeanSd {
    pub fn of(values: &[Option<f64>]) -> MeanSd {
        let v: Vec<f64> = values.iter().flatten().copied().collect();
        let mean = gapscope_stats::summary::mean(&v);
        let sd = match (mean, v.len()) {
            (Some(m), n) if n >= 2 => {
                Some((v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n as f64 - 1.0)).sqrt())
            }
            _ => None,
        };
        MeanSd {
            mean,
            sd,
            n: v.len(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    /// (case, repetition) pairs.
    pub pairs: usize,
    pub both_succeed: usize,
    /// A succeeds, B fails.
    pub only_a: usize,
    /// B succeeds, A fails.
    pub only_b: usize,
    pub both_fail: usize,
    /// Cases whose D_k = b_k − c_k (pairs where only A, minus pairs where
    /// only B succeeds) is not 0.
    pub discordant_cases: usize,
    /// S = Σ D_k (= only_a − only_b).
    pub s: i64,
    /// The clustered exact McNemar p (evidence-to-action.addendum.md §2,
    /// which replaces the base test on pooled pairs):
    /// `P(|Σ ε_k D_k| ≥ |S|)` over sign flips of whole cases, exact by
    /// convolution (`gapscope_stats::paired::clustered_exact_mcnemar`, the
    /// run comparisons' function); 1 when every D_k = 0; null with no case.
    pub p_value: Option<f64>,
}

/// One planned run of a side: case index (position in the case file),
/// repetition, outcome (`None` = unscored: infrastructure failure or missing).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Position of the case in the case file.
    pub case: usize,
    /// Repetition (0-based).
    pub repetition: u32,
    /// The outcome; `None` when the run is unscored (an infrastructure
    /// failure or a missing run).
    pub value: Option<f64>,
}

/// Which pairs count (`evidence-to-action.addendum.md` §2).
///
/// JSON: `"all_planned"` or `"completed"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Rule P: every planned pair counts and an unscored run counts 0
    /// (meant for binary outcomes: an unscored run is unsuccessful).
    AllPlanned,
    /// Rule C: only the pairs scored on both sides count.
    Completed,
}

impl Rule {
    /// The rule's short name, as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::AllPlanned => "P (all planned)",
            Rule::Completed => "C (completed under both)",
        }
    }
}

/// One counted case of a [`PairedRow`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CasePair {
    /// Case index (position in the case file).
    pub case: usize,
    /// Counted pairs of the case (repetitions).
    pub pairs: usize,
    /// A_k: side A's mean outcome over the counted pairs.
    pub a: f64,
    /// B_k: side B's mean outcome over the counted pairs.
    pub b: f64,
    /// d_k = A_k − B_k.
    pub difference: f64,
}

/// A − B over a set of cases (`evidence-to-action.addendum.md` §2).
/// Statistics over no case are `None`, never 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedRow {
    /// The pairing rule the row was computed under.
    pub rule: Rule,
    /// Cases counted: those with at least one counted pair (rule C: the
    /// matched cases).
    pub n: usize,
    /// Side A's rate: the mean over counted cases of A_k.
    pub rate_a: Option<f64>,
    /// Side B's rate: the mean over counted cases of B_k.
    pub rate_b: Option<f64>,
    /// Δ = mean d_k (= `rate_a − rate_b`).
    pub delta: Option<f64>,
    /// Paired bootstrap 95% percentile interval of Δ over the counted cases
    /// in case order (`gapscope_stats::paired::bootstrap_mean`); `None` when
    /// `bootstrap` is 0 or `n` is 0; a single case gives `[d, d]`.
    pub interval: Option<[f64; 2]>,
    /// Bootstrap draws (B).
    pub bootstrap: usize,
    /// The clustered exact McNemar over the counted cases and pairs, for a
    /// binary outcome (success: value ≥
    /// [`gapscope_stats::paired::SUCCESS_THRESHOLD`]); `None` otherwise. With
    /// no counted case every count is 0 and `p_value` is `None`.
    pub mcnemar: Option<McNemar>,
    /// Planned pairs (case, repetition planned on both sides) whose A run is
    /// unscored, whatever the rule.
    pub unscored_a: usize,
    /// Planned pairs whose B run is unscored, whatever the rule.
    pub unscored_b: usize,
    /// Rule C: the cases (with a planned pair) dropped by side A: no pair of
    /// the case is scored on both sides, and A is unscored in at least one of
    /// its pairs. A case can be dropped by both sides. Empty under rule P.
    pub dropped_a: Vec<usize>,
    /// Rule C: the cases dropped by side B (as `dropped_a`).
    pub dropped_b: Vec<usize>,
    /// The counted cases, in ascending case index.
    pub per_case: Vec<CasePair>,
}

/// One repetition of Table 12 ([`PerRepetition`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepetitionDelta {
    /// The repetition.
    pub repetition: u32,
    /// Side A's all-planned rate in this repetition; `None` when the
    /// repetition has no pair over the cases.
    pub a: Option<f64>,
    /// Side B's all-planned rate in this repetition.
    pub b: Option<f64>,
    /// Δ_r = `a − b`.
    pub delta: Option<f64>,
}

/// Table 12 (`evidence-to-action.addendum.md` §6): all-planned rates and
/// their difference per repetition, run-to-run variation (no interval).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerRepetition {
    /// Each repetition planned on both sides, ascending.
    pub repetitions: Vec<RepetitionDelta>,
    /// Mean and sample SD of A's rate across repetitions.
    pub a: MeanSd,
    /// Mean and sample SD of B's rate across repetitions.
    pub b: MeanSd,
    /// Mean and sample SD of Δ_r across repetitions.
    pub delta: MeanSd,
    /// Repetitions with Δ_r > 0.
    pub positive: usize,
    /// Repetitions with Δ_r < 0.
    pub negative: usize,
    /// Repetitions with Δ_r = 0.
    pub zero: usize,
    /// Every defined Δ_r has one strict sign (and there is at least one).
    pub consistent: bool,
}

/// A side's planned runs over the kept cases, by (case, repetition); the
/// first listing of a run counts.
type Side = BTreeMap<(usize, u32), Option<f64>>;

fn side(runs: &[Run], keep: &BTreeSet<usize>) -> Side {
    let mut m = Side::new();
    for r in runs.iter().filter(|r| keep.contains(&r.case)) {
        m.entry((r.case, r.repetition)).or_insert(r.value);
    }
    m
}

/// A planned pair: (case, repetition, A's outcome, B's outcome).
type Pair = (usize, u32, Option<f64>, Option<f64>);

/// The (case, repetition) planned on both sides, ordered by case then
/// repetition.
fn planned_pairs(a: &[Run], b: &[Run], cases: &[usize]) -> Vec<Pair> {
    let keep: BTreeSet<usize> = cases.iter().copied().collect();
    let (a, b) = (side(a, &keep), side(b, &keep));
    a.iter()
        .filter_map(|(&(c, r), &va)| b.get(&(c, r)).map(|&vb| (c, r, va, vb)))
        .collect()
}

/// Pooled pair counts of the McNemar table.
#[derive(Default)]
struct Pooled {
    pairs: usize,
    both_succeed: usize,
    both_fail: usize,
}

/// One case's pairs under `rule`: its [`CasePair`] (if a pair counts), its
/// (b_k, c_k), and whether A (B) is unscored in one of its pairs.
struct CaseOutcome {
    pair: Option<CasePair>,
    discordant: (usize, usize),
    missing: (bool, bool),
}

fn one_case(case: usize, group: &[Pair], rule: Rule, pooled: &mut Pooled) -> CaseOutcome {
    let success = |v: f64| v >= gapscope_stats::paired::SUCCESS_THRESHOLD;
    let (mut sum_a, mut sum_b, mut counted) = (0.0, 0.0, 0usize);
    let (mut b_k, mut c_k) = (0usize, 0usize);
    let mut missing = (false, false);
    for &(_, _, va, vb) in group {
        missing.0 |= va.is_none();
        missing.1 |= vb.is_none();
        let (x, y) = match (rule, va, vb) {
            (Rule::Completed, Some(x), Some(y)) => (x, y),
            (Rule::Completed, _, _) => continue,
            (Rule::AllPlanned, _, _) => (va.unwrap_or(0.0), vb.unwrap_or(0.0)),
        };
        counted += 1;
        sum_a += x;
        sum_b += y;
        pooled.pairs += 1;
        match (success(x), success(y)) {
            (true, true) => pooled.both_succeed += 1,
            (true, false) => b_k += 1,
            (false, true) => c_k += 1,
            (false, false) => pooled.both_fail += 1,
        }
    }
    let pair = (counted > 0).then(|| {
        let (a, b) = (sum_a / counted as f64, sum_b / counted as f64);
        CasePair {
            case,
            pairs: counted,
            a,
            b,
            difference: a - b,
        }
    });
    CaseOutcome {
        pair,
        discordant: (b_k, c_k),
        missing,
    }
}

/// Pair sides `a` and `b` over the cases in `cases` (case indices to keep,
/// e.g. one protocol's; case order = ascending index). Pairs are
/// (case, repetition) planned on both sides; `rule` says which count.
///
/// Per counted case, A_k and B_k are the means of the outcome over its
/// counted pairs and d_k = A_k − B_k; cases with no counted pair are left
/// out of `n` (under rule P every planned pair counts). With `binary`, the
/// clustered exact McNemar (b_k: pairs where only A succeeds, c_k: only B)
/// runs over the counted cases. The interval is
/// `gapscope_stats::paired::bootstrap_mean` of the d_k in ascending case
/// order with `draws` draws and `seed`.
pub fn paired(
    a: &[Run],
    b: &[Run],
    cases: &[usize],
    rule: Rule,
    binary: bool,
    draws: usize,
    seed: u64,
) -> PairedRow {
    let pairs = planned_pairs(a, b, cases);
    let mut pooled = Pooled::default();
    let mut per_case = Vec::new();
    let mut clusters: Vec<(usize, usize)> = Vec::new();
    let (mut dropped_a, mut dropped_b) = (Vec::new(), Vec::new());
    for group in pairs.chunk_by(|x, y| x.0 == y.0) {
        let Some(&(case, ..)) = group.first() else {
            continue;
        };
        let out = one_case(case, group, rule, &mut pooled);
        if let Some(p) = out.pair {
            per_case.push(p);
            clusters.push(out.discordant);
        } else {
            if out.missing.0 {
                dropped_a.push(case);
            }
            if out.missing.1 {
                dropped_b.push(case);
            }
        }
    }
    let mean_of = |f: fn(&CasePair) -> f64| {
        gapscope_stats::summary::mean(&per_case.iter().map(f).collect::<Vec<_>>())
    };
    let d: Vec<f64> = per_case.iter().map(|c| c.difference).collect();
    let mcnemar = binary.then(|| {
        let cl = gapscope_stats::paired::clustered_exact_mcnemar(&clusters);
        McNemar {
            pairs: pooled.pairs,
            both_succeed: pooled.both_succeed,
            only_a: cl.b,
            only_b: cl.c,
            both_fail: pooled.both_fail,
            discordant_cases: cl.discordant_cases,
            s: cl.s,
            p_value: cl.p,
        }
    });
    PairedRow {
        rule,
        n: per_case.len(),
        rate_a: mean_of(|c| c.a),
        rate_b: mean_of(|c| c.b),
        delta: gapscope_stats::summary::mean(&d),
        interval: gapscope_stats::paired::bootstrap_mean(&d, draws, seed)
            .and_then(|iv| iv.bounds()),
        bootstrap: draws,
        mcnemar,
        unscored_a: pairs.iter().filter(|p| p.2.is_none()).count(),
        unscored_b: pairs.iter().filter(|p| p.3.is_none()).count(),
        dropped_a,
        dropped_b,
        per_case,
    }
}

/// Rule C over a panel of more than two sides (`evidence-to-action.addendum.md`
/// §8.1): the (case, repetition) pairs planned and scored on all of them, per
/// case in ascending case order (repetitions ascending); only the cases in
/// `cases` with at least one such pair (the matched cases) appear. No side,
/// no pair.
pub fn matched_panel(sides: &[&[Run]], cases: &[usize]) -> Vec<(usize, Vec<u32>)> {
    let keep: BTreeSet<usize> = cases.iter().copied().collect();
    let maps: Vec<Side> = sides.iter().map(|s| side(s, &keep)).collect();
    let Some((first, rest)) = maps.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<(usize, Vec<u32>)> = Vec::new();
    for (&(c, r), v) in first {
        if v.is_none() || !rest.iter().all(|m| matches!(m.get(&(c, r)), Some(Some(_)))) {
            continue;
        }
        match out.last_mut() {
            Some((last, reps)) if *last == c => reps.push(r),
            _ => out.push((c, vec![r])),
        }
    }
    out
}

/// Table 12 (`evidence-to-action.addendum.md` §6): for each repetition r
/// planned on both sides (over `cases`), the all-planned rates of A and B
/// over the pairs of r (the cases of `cases` planned on both sides in r:
/// successes / planned runs, an unscored run counts 0) and
/// Δ_r = rate_A − rate_B; the mean and sample SD of each across repetitions
/// ([`MeanSd::of`]), the signs of the Δ_r, and whether they are consistent.
/// A repetition planned on both sides but with no pair has `None` rates.
///
/// When every case has the same repetitions, mean_r Δ_r equals the
/// [`paired`] row's Δ under [`Rule::AllPlanned`].
pub fn per_repetition(a: &[Run], b: &[Run], cases: &[usize]) -> PerRepetition {
    let keep: BTreeSet<usize> = cases.iter().copied().collect();
    let (sa, sb) = (side(a, &keep), side(b, &keep));
    let reps_of = |s: &Side| s.keys().map(|k| k.1).collect::<BTreeSet<u32>>();
    let reps_b = reps_of(&sb);
    // Per repetition: (pairs, Σ A, Σ B).
    let mut sums: BTreeMap<u32, (usize, f64, f64)> = reps_of(&sa)
        .intersection(&reps_b)
        .map(|&r| (r, (0, 0.0, 0.0)))
        .collect();
    for (&(c, r), &va) in &sa {
        if let (Some(&vb), Some(t)) = (sb.get(&(c, r)), sums.get_mut(&r)) {
            t.0 += 1;
            t.1 += va.unwrap_or(0.0);
            t.2 += vb.unwrap_or(0.0);
        }
    }
    let repetitions: Vec<RepetitionDelta> = sums
        .into_iter()
        .map(|(r, (n, x, y))| {
            let (a, b) = if n > 0 {
                (Some(x / n as f64), Some(y / n as f64))
            } else {
                (None, None)
            };
            RepetitionDelta {
                repetition: r,
                a,
                b,
                delta: a.zip(b).map(|(a, b)| a - b),
            }
        })
        .collect();
    let deltas: Vec<f64> = repetitions.iter().filter_map(|r| r.delta).collect();
    let positive = deltas.iter().filter(|&&d| d > 0.0).count();
    let negative = deltas.iter().filter(|&&d| d < 0.0).count();
    let zero = deltas.iter().filter(|&&d| d == 0.0).count();
    let of = |f: fn(&RepetitionDelta) -> Option<f64>| {
        MeanSd::of(&repetitions.iter().map(f).collect::<Vec<_>>())
    };
    PerRepetition {
        a: of(|r| r.a),
        b: of(|r| r.b),
        delta: of(|r| r.delta),
        positive,
        negative,
        zero,
        consistent: !deltas.is_empty() && (positive == deltas.len() || negative == deltas.len()),
        repetitions,
    }
}
