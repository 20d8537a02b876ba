//! Inference for a correlation coefficient (spec: realization-gaps.md,
//! "Correlation inference"): the Fisher-z 95% interval of Pearson's r and
//! the two-sided p-value of the t test that scipy's `pearsonr` and
//! `spearmanr` report, with Holm and Benjamini–Hochberg adjustment over the
//! cells of a matrix that have a p-value.
//!
//! Student's t survival function is `statrs`' (the regularized incomplete
//! beta function); the rest is the closed forms of the spec.

use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::paired::{benjamini_hochberg, holm};

/// The normal 97.5% quantile the spec's Fisher interval is written with.
pub const Z975: f64 = 1.959_963_984_540_054;

/// An |r| this close to 1 is a perfect correlation: the last bits of a
/// computed r are rounding (ranks 1, 2, 3 against themselves give
/// 0.9999999999999998), and t = r√((n−2)/(1−r²)) would turn them into a
/// p-value of 1e-8 where scipy, whose r is exactly 1, says 0.
pub const PERFECT_TOL: f64 = 8.0 * f64::EPSILON;

/// `r` with a perfect correlation (within [`PERFECT_TOL`]) made exactly ±1.
fn snapped(r: f64) -> f64 {
    if 1.0 - r.abs() <= PERFECT_TOL {
        r.signum()
    } else {
        r
    }
}

/// The Fisher-z 95% interval `tanh(atanh r ± z/√(n−3))` of a correlation of
/// `n` pairs: `None` for n < 4 or an r outside [−1, 1] (or NaN); |r| = 1
/// (within [`PERFECT_TOL`]) gives [r, r].
#[must_use]
pub fn fisher_interval(r: f64, n: usize) -> Option<[f64; 2]> {
    if n < 4 || !(-1.0..=1.0).contains(&r) {
        return None;
    }
    let r = snapped(r);
    if r.abs() == 1.0 {
        return Some([r, r]);
    }
    let z = r.atanh();
    let half = Z975 / ((n - 3) as f64).sqrt();
    Some([(z - half).tanh(), (z + half).tanh()])
}

/// The two-sided p-value of `t = r√((n−2)/(1−r²))` with n − 2 degrees of
/// freedom: `None` for n < 3 or an r outside [−1, 1]; |r| = 1 (within
/// [`PERFECT_TOL`]) gives 0.
#[must_use]
pub fn correlation_p(r: f64, n: usize) -> Option<f64> {
    if n < 3 || !(-1.0..=1.0).contains(&r) {
        return None;
    }
    let r = snapped(r);
    if r.abs() == 1.0 {
        return Some(0.0);
    }
    let df = (n - 2) as f64;
    let t = r * (df / (1.0 - r * r)).sqrt();
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    // sf(|t|) directly, not 1 − cdf: small p keep their digits.
    Some((2.0 * dist.sf(t.abs())).min(1.0))
}

/// Holm and BH adjustments of the defined p-values of a matrix (row-major;
/// `None` cells stay `None` and take no part in the family).
#[derive(Clone, Debug, PartialEq)]
pub struct AdjustedMatrix {
    pub holm: Vec<Vec<Option<f64>>>,
    pub bh: Vec<Vec<Option<f64>>>,
}

/// Adjust every defined p of `p` (a rectangular matrix) over all of them.
#[must_use]
pub fn adjust_matrix(p: &[Vec<Option<f64>>]) -> AdjustedMatrix {
    let defined: Vec<f64> = p.iter().flatten().filter_map(|v| *v).collect();
    // The p-values come from `correlation_p`, in [0, 1]: the adjustments
    // cannot fail; an empty family adjusts nothing.
    let h = holm(&defined).unwrap_or_default();
    let b = benjamini_hochberg(&defined).unwrap_or_default();
    let mut k = 0;
    let mut holm_m = Vec::with_capacity(p.len());
    let mut bh_m = Vec::with_capacity(p.len());
    for row in p {
        let (mut hr, mut br) = (Vec::with_capacity(row.len()), Vec::with_capacity(row.len()));
        for cell in row {
            if cell.is_some() {
                hr.push(h.get(k).copied());
                br.push(b.get(k).copied());
                k += 1;
            } else {
                hr.push(None);
                br.push(None);
            }
        }
        holm_m.push(hr);
        bh_m.push(br);
    }
    AdjustedMatrix {
        holm: holm_m,
        bh: bh_m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fisher_interval_by_hand() {
        // r = 0.5, n = 12: atanh 0.5 = 0.549306…, half-width 1.959964/3.
        let [lo, hi] = fisher_interval(0.5, 12).unwrap();
        let z = 0.5_f64.atanh();
        assert!((lo - (z - Z975 / 3.0).tanh()).abs() < 1e-15);
        assert!((hi - (z + Z975 / 3.0).tanh()).abs() < 1e-15);
        // Known digits: tanh(0.549306 − 0.653321) = −0.103640…
        assert!((lo - (-0.103_640_9)).abs() < 1e-6, "{lo}");
        assert_eq!(fisher_interval(1.0, 5), Some([1.0, 1.0]));
        assert_eq!(fisher_interval(-1.0, 5), Some([-1.0, -1.0]));
        assert_eq!(fisher_interval(0.3, 3), None);
        assert_eq!(fisher_interval(f64::NAN, 30), None);
    }

    #[test]
    fn p_value_against_closed_forms() {
        // n = 3 (1 df): the t distribution is Cauchy, p = 1 − (2/π)·atan|t|.
        for r in [0.1_f64, 0.5, -0.9, 0.99] {
            let t = r * (1.0 / (1.0 - r * r)).sqrt();
            let want = 1.0 - 2.0 / std::f64::consts::PI * t.abs().atan();
            let got = correlation_p(r, 3).unwrap();
            assert!((got - want).abs() < 1e-12, "r {r}: {got} vs {want}");
        }
        // n = 4 (2 df): p = 1 − |t|/√(t² + 2).
        for r in [0.2_f64, -0.7, 0.95] {
            let t = r * (2.0 / (1.0 - r * r)).sqrt();
            let want = 1.0 - t.abs() / (t * t + 2.0).sqrt();
            let got = correlation_p(r, 4).unwrap();
            assert!((got - want).abs() < 1e-12, "r {r}: {got} vs {want}");
        }
        assert_eq!(correlation_p(0.0, 10), Some(1.0));
        assert_eq!(correlation_p(1.0, 10), Some(0.0));
        assert_eq!(correlation_p(0.5, 2), None);
        // Rounding of a perfect correlation is a perfect correlation.
        assert_eq!(correlation_p(0.999_999_999_999_999_8, 3), Some(0.0));
        assert_eq!(
            fisher_interval(-0.999_999_999_999_999_8, 5),
            Some([-1.0, -1.0])
        );
    }

    #[test]
    fn adjustments_skip_undefined_cells() {
        let p = vec![vec![Some(0.01), None], vec![Some(0.04), Some(0.03)]];
        let a = adjust_matrix(&p);
        // Holm over {0.01, 0.04, 0.03}: 0.03, 0.06, 0.06 (monotone).
        assert_eq!(a.holm[0][1], None);
        assert!((a.holm[0][0].unwrap() - 0.03).abs() < 1e-15);
        assert!((a.holm[1][1].unwrap() - 0.06).abs() < 1e-15);
        assert!((a.holm[1][0].unwrap() - 0.06).abs() < 1e-15);
        // BH: 0.03, 0.04, 0.04.
        assert!((a.bh[0][0].unwrap() - 0.03).abs() < 1e-15);
        assert!((a.bh[1][1].unwrap() - 0.04).abs() < 1e-15);
        assert!((a.bh[1][0].unwrap() - 0.04).abs() < 1e-15);
        assert_eq!(adjust_matrix(&[vec![None]]).holm, vec![vec![None]]);
    }
}
