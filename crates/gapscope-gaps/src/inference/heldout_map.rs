//! The held-out predictions as a linear map of the target (spec: "Gap
//! intervals per model"): for fixed F, α and folds, and a fixed set of
//! participating models, the family-held-out ridge prediction is linear in
//! the target — standardization uses F only, the intercept is the training
//! mean of the target, the slope is a linear solve — so ŷ = H·o with one
//! H per set of models. A bootstrap of the targets then needs no refit:
//! each draw's gaps are o* − H·o*.

use gapscope_stats::Alpha;
use nalgebra::DMatrix;

use crate::analysis::fit_targets;
use crate::nested::mask;

/// `H` of one set of participating models.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldOutMap {
    /// The participating models (indices into the table), in order.
    pub rows: Vec<usize>,
    /// Row-major `rows.len()` × `rows.len()`: `ŷ[rows[r]] = Σ_c h[r·m + c] · o[rows[c]]`.
    pub h: Vec<f64>,
}

impl HeldOutMap {
    /// The number of participating models.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no model takes part.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The held-out predictions of the participating models for target
    /// values `o` (one per participating model, in `rows`' order).
    pub fn apply(&self, o: &[f64]) -> Vec<f64> {
        let m = self.len();
        self.h
            .chunks_exact(m.max(1))
            .take(m)
            .map(|row| row.iter().zip(o).map(|(h, v)| h * v).sum())
            .collect()
    }

    /// `H` as a matrix: the predictions of many target vectors at once
    /// are one matrix product (`H·O`, blocked and vectorized by
    /// `matrixmultiply`: what makes 10,000 draws or permutations of 200
    /// models cheap). Its sums run in another order than
    /// [`HeldOutMap::apply`]'s, so the two agree to rounding (≈ 1e-15
    /// relative).
    pub fn matrix(&self) -> DMatrix<f64> {
        let m = self.len();
        DMatrix::from_row_slice(m, m, &self.h)
    }
}

/// `H` for the models that have every feature and a value in `target`
/// (only which values are present matters), by the held-out fits of the
/// unit targets: column c of H is the prediction of e_c. The unit targets
/// share one design, so this costs one factorization per fold.
pub fn held_out_map(
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    groups: &[usize],
    alpha: Alpha,
) -> HeldOutMap {
    let keep = mask(features, target);
    let rows: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
    let m = rows.len();
    let units: Vec<Vec<Option<f64>>> = (0..m)
        .map(|c| {
            let mut e: Vec<Option<f64>> = vec![None; keep.len()];
            for (r, &i) in rows.iter().enumerate() {
                e[i] = Some(if r == c { 1.0 } else { 0.0 });
            }
            e
        })
        .collect();
    let fits = fit_targets(features, &units, groups, &[alpha]);
    let mut h = vec![0.0; m * m];
    for (c, fit) in fits.iter().enumerate() {
        for (r, &i) in rows.iter().enumerate() {
            // A participating model with no training rows (its family is
            // every model) has no prediction: its row of H stays NaN.
            h[r * m + c] = fit.predicted[0][i].unwrap_or(f64::NAN);
        }
    }
    HeldOutMap { rows, h }
}
