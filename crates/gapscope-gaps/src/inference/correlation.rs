//! Inference for the F × O correlations (spec: "Correlation inference").

use serde::{Deserialize, Serialize};

use gapscope_stats::inference::{adjust_matrix, correlation_p, fisher_interval};

use crate::analysis::Correlations;

/// A matrix of the F × O cells (foundational rows, operation columns).
pub type Matrix<T> = Vec<Vec<Option<T>>>;

/// One method's p-values over the F × O matrix, raw and adjusted (Holm and
/// Benjamini–Hochberg over the cells with a p, per matrix and method).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PValues {
    pub p: Matrix<f64>,
    pub holm: Matrix<f64>,
    pub bh: Matrix<f64>,
}

/// Inference for the F × O correlations: Pearson's Fisher-z 95% interval
/// (n ≥ 4) and the t-test p of Pearson and of Spearman (n ≥ 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorrelationInference {
    pub pearson_ci95: Matrix<[f64; 2]>,
    pub pearson: PValues,
    pub spearman: PValues,
}

/// "Significant": an adjusted p below this.
pub const SIGNIFICANT: f64 = 0.05;

fn p_values(r: &[Vec<Option<f64>>], n: &[Vec<usize>]) -> PValues {
    let p: Matrix<f64> = r
        .iter()
        .zip(n)
        .map(|(row, ns)| {
            row.iter()
                .zip(ns)
                .map(|(r, &n)| r.and_then(|r| correlation_p(r, n)))
                .collect()
        })
        .collect();
    let adjusted = adjust_matrix(&p);
    PValues {
        p,
        holm: adjusted.holm,
        bh: adjusted.bh,
    }
}

/// The inference of every cell of `c` (each with its own n, pairwise deletion).
#[must_use]
pub fn correlations(c: &Correlations) -> CorrelationInference {
    let pearson_ci95 = c
        .pearson
        .iter()
        .zip(&c.n)
        .map(|(row, ns)| {
            row.iter()
                .zip(ns)
                .map(|(r, &n)| r.and_then(|r| fisher_interval(r, n)))
                .collect()
        })
        .collect();
    CorrelationInference {
        pearson_ci95,
        pearson: p_values(&c.pearson, &c.n),
        spearman: p_values(&c.spearman, &c.n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_with_its_own_n_and_one_family_per_method() {
        // 2 × 2: one undefined cell, one of n = 3 (a p, no interval).
        let c = Correlations {
            pearson: vec![vec![Some(0.5), None], vec![Some(-0.8), Some(0.9)]],
            spearman: vec![vec![Some(0.4), None], vec![Some(-0.7), Some(1.0)]],
            n: vec![vec![12, 12], vec![12, 3]],
        };
        let inf = correlations(&c);
        // By hand: tanh(atanh(0.5) ± 1.959964/3).
        let z = 0.5_f64.atanh();
        let [lo, hi] = inf.pearson_ci95[0][0].unwrap();
        assert!((lo - (z - 1.959_963_984_540_054 / 3.0).tanh()).abs() < 1e-15);
        assert!((hi - (z + 1.959_963_984_540_054 / 3.0).tanh()).abs() < 1e-15);
        assert_eq!(inf.pearson_ci95[0][1], None);
        assert_eq!(inf.pearson_ci95[1][1], None, "n = 3 has no interval");
        // n = 3: 1 df, p = 1 − (2/π)·atan|t|, t = r/√(1 − r²).
        let t = 0.9 / (1.0_f64 - 0.81).sqrt();
        let want = 1.0 - 2.0 / std::f64::consts::PI * t.atan();
        assert!((inf.pearson.p[1][1].unwrap() - want).abs() < 1e-12);
        assert_eq!(inf.spearman.p[1][1], Some(0.0), "ρ = 1");
        // Holm over the three defined Pearson p: the smallest × 3.
        let ps: Vec<f64> = [
            inf.pearson.p[0][0],
            inf.pearson.p[1][0],
            inf.pearson.p[1][1],
        ]
        .into_iter()
        .flatten()
        .collect();
        let min = ps.iter().copied().fold(f64::INFINITY, f64::min);
        let at = ps.iter().position(|&p| p == min).unwrap();
        let cells = [(0, 0), (1, 0), (1, 1)];
        let (i, j) = cells[at];
        assert!((inf.pearson.holm[i][j].unwrap() - (3.0 * min).min(1.0)).abs() < 1e-15);
        assert_eq!(inf.pearson.holm[0][1], None);
        assert_eq!(inf.spearman.bh[0][1], None);
    }
}
