//! The paired tests' p-values: the exact sign test (binomial), the
//! sign-flip permutation test by convolution over integer sums (the
//! clustered exact McNemar), by enumeration, and by seeded random patterns.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::TIE_TOLERANCE;

/// The largest Σ|w| (after division by the weights' gcd) that
/// [`sign_flip_exact_p`] convolves: its table holds Σ|w| + 1 probabilities
/// (8 MiB at this bound).
pub const MAX_CONVOLUTION_SUM: u64 = 1 << 20;

/// The most work (nonzero weights × Σ|w|) [`sign_flip_exact_p`] does,
/// about a quarter of a second natively.
pub const MAX_CONVOLUTION_WORK: u64 = 1 << 28;

/// The most nonzero differences whose 2^n' sign patterns are enumerated.
pub const MAX_ENUMERATED: usize = 16;

/// Exact two-sided sign test: `min(1, 2·P(X ≤ min(b, c)))`, X ~ Bin(b + c, ½);
/// 1 when b + c = 0. With one binary trial per task per run it is the exact
/// McNemar test. The terms are `exp(ln C(n, i) − n ln 2)` with ln n! summed,
/// so large n stays finite (and a tail below 2^-1074 is 0).
///
/// ```
/// use gapscope_stats::paired::sign_test_p;
/// // b = 1, c = 5: P(X ≤ 1) = (1 + 6)/64, two-sided 14/64.
/// assert!((sign_test_p(1, 5) - 14.0 / 64.0).abs() < 1e-15);
/// assert_eq!(sign_test_p(3, 3), 1.0);
/// ```
pub fn sign_test_p(b: usize, c: usize) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    let mut ln_fact = vec![0.0f64; n + 1];
    for i in 1..=n {
        ln_fact[i] = ln_fact[i - 1] + (i as f64).ln();
    }
    let ln_total = n as f64 * std::f64::consts::LN_2;
    let tail: f64 = (0..=k)
        .map(|i| (ln_fact[n] - ln_fact[i] - ln_fact[n - i] - ln_total).exp())
        .sum();
    (2.0 * tail).min(1.0)
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Exact two-sided sign-flip p-value of integer weights:
/// `P(|Σ ε_k w_k| ≥ |Σ w_k|)` with ε_k independent ±1 at ½, by convolution
/// over the integer sums (zero weights flip nothing); 1 when every weight is
/// 0 or there is none. `None` when the table would exceed
/// [`MAX_CONVOLUTION_SUM`] or [`MAX_CONVOLUTION_WORK`].
///
/// This is the **clustered exact McNemar** of the evidence spec (weights
/// D_k = b_k − c_k, see [`clustered_exact_mcnemar`]) and the sign-flip
/// permutation test on integer-valued differences.
///
/// Method: with a_k = |w_k| / g (g their gcd) and A = Σ a_k, the flipped sum
/// is 2U − A with U the sum of the a_k whose sign is +, so the table is U's
/// distribution, built one weight at a time: `P'(u) = ½ P(u) + ½ P(u − a)`.
///
/// ```
/// use gapscope_stats::paired::sign_flip_exact_p;
/// // Weights 1, 1, 2: S = 4; the 8 patterns give |sum| 4, 2, 0, 2, 2, 0, 2, 4,
/// // so p = 2/8.
/// assert_eq!(sign_flip_exact_p(&[1, 1, 2]), Some(0.25));
/// assert_eq!(sign_flip_exact_p(&[0, 0]), Some(1.0));
/// ```
pub fn sign_flip_exact_p(weights: &[i64]) -> Option<f64> {
    let abs: Vec<u64> = weights
        .iter()
        .map(|w| w.unsigned_abs())
        .filter(|&a| a > 0)
        .collect();
    if abs.is_empty() {
        return Some(1.0);
    }
    let g = abs.iter().copied().fold(0, gcd);
    let a: Vec<u64> = abs.iter().map(|x| x / g).collect();
    let total = a.iter().try_fold(0u64, |s, &x| s.checked_add(x))?;
    let work = total.checked_mul(a.len() as u64)?;
    if total > MAX_CONVOLUTION_SUM || work > MAX_CONVOLUTION_WORK {
        return None;
    }
    // S / g, exactly (|S| ≤ Σ|w|, which fits in u64 and here in i64).
    let s = weights.iter().map(|&w| i128::from(w)).sum::<i128>() / i128::from(g);
    let s_abs = s.unsigned_abs();
    let total = total as usize;
    let mut dist = vec![0.0f64; total + 1];
    dist[0] = 1.0;
    let mut reach = 0usize;
    for &x in &a {
        let x = x as usize;
        reach += x;
        for u in (0..=reach).rev() {
            let carried = if u >= x { dist[u - x] } else { 0.0 };
            dist[u] = 0.5 * dist[u] + 0.5 * carried;
        }
    }
    let p: f64 = dist
        .iter()
        .enumerate()
        .filter(|(u, _)| (2 * *u as i128 - total as i128).unsigned_abs() >= s_abs)
        .map(|(_, q)| q)
        .sum();
    Some(p.min(1.0))
}

/// The clustered exact McNemar of `evidence-to-action.addendum.md` §2.
///
/// JSON: `{"b", "c", "discordant_cases", "s", "p"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusteredMcNemar {
    /// Σ b_k: pairs where only A succeeds (descriptive).
    pub b: usize,
    /// Σ c_k: pairs where only B succeeds (descriptive).
    pub c: usize,
    /// Cases with D_k = b_k − c_k ≠ 0.
    pub discordant_cases: usize,
    /// S = Σ D_k.
    pub s: i64,
    /// `P(|Σ ε_k D_k| ≥ |S|)`; 1 when every D_k = 0; `None` with no case (or a
    /// table beyond the convolution bounds).
    pub p: Option<f64>,
}

/// The clustered exact McNemar from each case's (b_k, c_k): the pairs of the
/// case where only A, resp. only B, succeeds. With one pair per case it
/// equals [`sign_test_p`] of the pooled b and c.
pub fn clustered_exact_mcnemar(cases: &[(usize, usize)]) -> ClusteredMcNemar {
    let d: Vec<i64> = cases.iter().map(|&(b, c)| b as i64 - c as i64).collect();
    ClusteredMcNemar {
        b: cases.iter().map(|c| c.0).sum(),
        c: cases.iter().map(|c| c.1).sum(),
        discordant_cases: d.iter().filter(|&&x| x != 0).count(),
        s: d.iter().sum(),
        p: if cases.is_empty() {
            None
        } else {
            sign_flip_exact_p(&d)
        },
    }
}

/// Exact sign-flip p-value by listing all 2^n' patterns of the nonzero
/// differences `d` (n' = `d.len()` ≤ [`MAX_ENUMERATED`]); `n` is the number of
/// common tasks, the mean's divisor. Counts `|Δ*| ≥ |Δ| − 1e-12`.
pub(crate) fn enumerate_p(d: &[f64], n: usize) -> f64 {
    let m = d.len();
    let observed = (d.iter().sum::<f64>() / n as f64).abs();
    let patterns = 1u64 << m;
    let mut hits = 0u64;
    for mask in 0..patterns {
        let s: f64 = d
            .iter()
            .enumerate()
            .map(|(i, &x)| if mask >> i & 1 == 1 { -x } else { x })
            .sum();
        if (s / n as f64).abs() >= observed - TIE_TOLERANCE {
            hits += 1;
        }
    }
    hits as f64 / patterns as f64
}

/// Monte Carlo sign-flip p-value, `(1 + #{|Δ*| ≥ |Δ| − 1e-12}) / (1 + P)`:
/// a fresh stream `ChaCha8Rng::seed_from_u64(seed)`, and for pattern 1 … P,
/// for each nonzero difference in task order, one `random_range(0..2)` on
/// `u32` (0: keep the sign, 1: flip it). `None` when P = 0.
pub(crate) fn monte_carlo_p(d: &[f64], n: usize, patterns: usize, seed: u64) -> Option<f64> {
    if patterns == 0 {
        return None;
    }
    let observed = (d.iter().sum::<f64>() / n as f64).abs();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut hits = 0usize;
    for _ in 0..patterns {
        let s: f64 = d
            .iter()
            .map(|&x| {
                if rng.random_range(0..2u32) == 1 {
                    -x
                } else {
                    x
                }
            })
            .sum();
        if (s / n as f64).abs() >= observed - TIE_TOLERANCE {
            hits += 1;
        }
    }
    Some((1 + hits) as f64 / (1 + patterns) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_test_matches_the_evidence_mcnemar_values() {
        // Expected values copied from gapscope-evidence's mcnemar_exact tests.
        assert!((sign_test_p(1, 5) - 14.0 / 64.0).abs() < 1e-15);
        assert!((sign_test_p(0, 5) - 0.0625).abs() < 1e-15);
        assert!((sign_test_p(8, 2) - 112.0 / 1024.0).abs() < 1e-14);
        assert_eq!(sign_test_p(3, 3), 1.0);
        assert_eq!(sign_test_p(0, 0), 1.0);
        assert_eq!(sign_test_p(0, 2000), 0.0);
        assert_eq!(sign_test_p(500, 500), 1.0);
    }

    #[test]
    fn convolution_equals_sign_test_on_unit_weights() {
        // Different algorithms: binomial tail by ln-factorials vs the
        // subset-sum table over ±1 weights.
        for b in 0..25usize {
            for c in 0..25usize {
                let w: Vec<i64> = std::iter::repeat_n(1, b)
                    .chain(std::iter::repeat_n(-1, c))
                    .chain([0, 0])
                    .collect();
                let conv = sign_flip_exact_p(&w).unwrap();
                let binom = sign_test_p(b, c);
                assert!(
                    (conv - binom).abs() < 1e-13,
                    "b={b} c={c}: {conv} vs {binom}"
                );
                let m = clustered_exact_mcnemar(
                    &w.iter()
                        .map(|&x| match x.cmp(&0) {
                            std::cmp::Ordering::Greater => (1, 0),
                            std::cmp::Ordering::Less => (0, 1),
                            std::cmp::Ordering::Equal => (0, 0),
                        })
                        .collect::<Vec<_>>(),
                );
                assert_eq!((m.b, m.c, m.discordant_cases), (b, c, b + c));
                assert_eq!(m.s, b as i64 - c as i64);
                assert_eq!(m.p, Some(conv));
            }
        }
    }

    #[test]
    fn convolution_equals_enumeration() {
        // Weights 1..=12 with alternating signs and a few repeats, every subset.
        let mut s = 3u64;
        for m in 1..=12usize {
            let w: Vec<i64> = (0..m)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((s >> 33) % 7) as i64 - 3
                })
                .collect();
            let nz: Vec<f64> = w
                .iter()
                .filter(|&&x| x != 0)
                .map(|&x| x as f64 / 4.0)
                .collect();
            let e = enumerate_p(&nz, m + 3);
            let c = sign_flip_exact_p(&w).unwrap();
            assert!((e - c).abs() < 1e-12, "{w:?}: {e} vs {c}");
        }
        // Clustered: D = (2, −1, 1), S = 2. With ε₁ = +1 the sums 2ε₁ − ε₂ + ε₃
        // are 2, 0, 4, 2 (ε₂ε₃ = ++, +−, −+, −−), with ε₁ = −1 their
        // negatives: 6 of 8 patterns reach |S| = 2.
        assert_eq!(sign_flip_exact_p(&[2, -1, 1]), Some(0.75));
        // The gcd is divided out: (1, −1, 1), S = 1, and every sum is odd: p = 1.
        assert_eq!(sign_flip_exact_p(&[2, -2, 2]), Some(1.0));
        assert_eq!(clustered_exact_mcnemar(&[]).p, None);
        assert_eq!(clustered_exact_mcnemar(&[(1, 1), (2, 2)]).p, Some(1.0));
    }

    #[test]
    fn convolution_bounds() {
        assert_eq!(sign_flip_exact_p(&[1 << 21]), Some(1.0)); // one weight: gcd reduces it to 1
        assert_eq!(sign_flip_exact_p(&[1 << 21, 1]), None);
        // i64::MIN's magnitude is handled without overflow.
        assert_eq!(sign_flip_exact_p(&[i64::MIN, i64::MIN]), Some(0.5));
    }

    #[test]
    fn monte_carlo_is_seeded_and_close() {
        let d: Vec<f64> = (0..20)
            .map(|i| 0.1 + 0.01 * f64::from(i) * if i % 3 == 0 { -1.0 } else { 1.0 })
            .collect();
        let a = monte_carlo_p(&d, 20, 10_000, 0).unwrap();
        assert_eq!(Some(a), monte_carlo_p(&d, 20, 10_000, 0));
        assert_ne!(Some(a), monte_carlo_p(&d, 20, 10_000, 1));
        assert_eq!(monte_carlo_p(&d, 20, 0, 0), None);
        // Exact reference: 2^20 patterns (same statistic, enumeration cost is fine in a test).
        let observed = (d.iter().sum::<f64>() / 20.0).abs();
        let mut hits = 0u64;
        for mask in 0..(1u64 << 20) {
            let s: f64 = d
                .iter()
                .enumerate()
                .map(|(i, &x)| if mask >> i & 1 == 1 { -x } else { x })
                .sum();
            if (s / 20.0).abs() >= observed - TIE_TOLERANCE {
                hits += 1;
            }
        }
        let exact = hits as f64 / f64::from(1u32 << 20);
        // Monte Carlo SD ≤ 0.005 at P = 10,000; 4 SD.
        assert!((a - exact).abs() < 0.02, "{a} vs {exact}");
    }
}
