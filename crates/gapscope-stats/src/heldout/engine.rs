//! The fast held-out ridge engine: every fold, every target and every penalty
//! from per-group sums and one eigendecomposition per fold.
//!
//! Held-out ridge refits on "all rows but some groups" many times (each family
//! held out; inside nested selection, each pair of families; over a grid of
//! penalties). Refitting from rows costs O(n p²) per fit. Here the rows are
//! summarised once per group — count, column sums, cross-products X_g'X_g,
//! column minima and maxima, and per target the sums of y and X_g'y — and a
//! training set that excludes some groups gets its sums by subtraction. From
//! them, exactly as `ridge.rs` defines the fit:
//!
//! - mean μ and population SD s of each feature over the training rows;
//!   a feature whose training values are all equal (min = max) is constant and
//!   contributes nothing;
//! - the standardized Gram matrix `Z'Z = D⁻¹ (S₂ − n μμ') D⁻¹` and
//!   `Z'(y − ȳ) = D⁻¹ (S_xy − n μ ȳ)`, with D = diag(s);
//! - `Z'Z = V Λ V'` once per training set, so `w(α) = V (Λ + α)⁻¹ V' Z'(y − ȳ)`
//!   for any number of targets and penalties at O(p²) each.
//!
//! Columns are centred on their overall means before the sums are taken, which
//! keeps the subtraction `S₂ − n μμ'` well conditioned for scores far from 0.
//! `crossval::held_out_ridge` (row refits, Cholesky) is the simple reference
//! this engine is tested against.

use nalgebra::{DMatrix, DVector, SymmetricEigen};

use crate::ridge::Alpha;

/// Rows (models) that take part in a set of fits, with their group (fold) ids.
#[derive(Clone, Debug)]
pub struct Design {
    /// Features of the participating rows, centred on their overall means.
    x: DMatrix<f64>,
    /// Dense group id of each participating row.
    groups: Vec<usize>,
    n_groups: usize,
    /// Per group: count, column sums, cross-products, column min and max.
    count: Vec<usize>,
    s1: Vec<DVector<f64>>,
    s2: Vec<DMatrix<f64>>,
    min: Vec<Vec<f64>>,
    max: Vec<Vec<f64>>,
    /// Sums over all rows (training sums are these minus the excluded groups').
    total_s1: DVector<f64>,
    total_s2: DMatrix<f64>,
    /// Rows of each group.
    members: Vec<Vec<usize>>,
    /// Rows in all.
    total_count: usize,
    /// Per column, the groups in increasing order of their minimum (and in
    /// decreasing order of their maximum): a training set's range is read off
    /// the first groups not excluded, so a factor costs O(p² + p·|excluded|)
    /// rather than O(G·p) (nested selection makes G² factors).
    by_min: Vec<Vec<usize>>,
    by_max: Vec<Vec<usize>>,
}

/// A training set (all rows but the excluded groups), factorized.
#[derive(Clone, Debug)]
pub struct Factor {
    excluded: Vec<usize>,
    n: usize,
    /// Training mean of each (centred) feature.
    mean: DVector<f64>,
    /// 1/s for each feature; 0 for a constant feature.
    inv_sd: DVector<f64>,
    vectors: DMatrix<f64>,
    values: DVector<f64>,
}

/// A training set's size, feature means, 1/SD (0 for a constant feature)
/// and standardized Gram matrix Z'Z.
struct Standardized {
    n: usize,
    mean: DVector<f64>,
    inv_sd: DVector<f64>,
    gram: DMatrix<f64>,
}

/// A target's per-group sums.
#[derive(Clone, Debug)]
pub struct Target {
    sy: Vec<f64>,
    sxy: Vec<DVector<f64>>,
    total_sy: f64,
    total_sxy: DVector<f64>,
}

impl Design {
    /// `rows[i]` holds the p features of participating row i; `groups[i]` its
    /// group id (any integers; made dense here, in order of first appearance).
    pub fn new(rows: &[Vec<f64>], groups: &[usize]) -> Self {
        let n = rows.len();
        let p = rows.first().map_or(0, Vec::len);
        // A map, not a scan of the ids seen: linear in the rows.
        let mut dense: std::collections::HashMap<usize, usize> = Default::default();
        let groups: Vec<usize> = groups
            .iter()
            .map(|g| {
                let next = dense.len();
                *dense.entry(*g).or_insert(next)
            })
            .collect();
        let n_groups = dense.len();
        let mut x = DMatrix::<f64>::zeros(n, p);
        for (i, row) in rows.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                x[(i, j)] = *v;
            }
        }
        for j in 0..p {
            let m = if n > 0 {
                x.column(j).sum() / n as f64
            } else {
                0.0
            };
            x.column_mut(j).add_scalar_mut(-m);
        }
        let mut members = vec![Vec::new(); n_groups];
        for (i, &g) in groups.iter().enumerate() {
            members[g].push(i);
        }
        let mut count = Vec::with_capacity(n_groups);
        let mut s1 = Vec::with_capacity(n_groups);
        let mut s2 = Vec::with_capacity(n_groups);
        let mut min: Vec<Vec<f64>> = Vec::with_capacity(n_groups);
        let mut max: Vec<Vec<f64>> = Vec::with_capacity(n_groups);
        for rows_g in &members {
            let xg = x.select_rows(rows_g.iter());
            count.push(rows_g.len());
            s1.push(DVector::from_iterator(p, xg.column_iter().map(|c| c.sum())));
            s2.push(xg.transpose() * &xg);
            min.push(
                xg.column_iter()
                    .map(|c| c.iter().copied().fold(f64::INFINITY, f64::min))
                    .collect(),
            );
            max.push(
                xg.column_iter()
                    .map(|c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max))
                    .collect(),
            );
        }
        let total_s1 = s1.iter().fold(DVector::zeros(p), |acc, v| acc + v);
        let total_s2 = s2.iter().fold(DMatrix::zeros(p, p), |acc, m| acc + m);
        let order = |key: &dyn Fn(usize) -> f64| -> Vec<usize> {
            let mut v: Vec<usize> = (0..n_groups).collect();
            v.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
            v
        };
        let by_min: Vec<Vec<usize>> = (0..p).map(|j| order(&|g: usize| min[g][j])).collect();
        let by_max: Vec<Vec<usize>> = (0..p).map(|j| order(&|g: usize| -max[g][j])).collect();
        Design {
            x,
            groups,
            n_groups,
            count,
            s1,
            s2,
            min,
            max,
            total_s1,
            total_s2,
            members,
            total_count: n,
            by_min,
            by_max,
        }
    }

    pub fn n_rows(&self) -> usize {
        self.x.nrows()
    }

    pub fn n_groups(&self) -> usize {
        self.n_groups
    }

    /// Dense group id of each participating row.
    pub fn groups(&self) -> &[usize] {
        &self.groups
    }

    /// Rows of group `g`.
    pub fn members(&self, g: usize) -> &[usize] {
        &self.members[g]
    }

    /// Per-group sums of one target (values for the participating rows).
    pub fn target(&self, y: &[f64]) -> Target {
        let p = self.x.ncols();
        let mut sy = vec![0.0; self.n_groups];
        let mut sxy = vec![DVector::<f64>::zeros(p); self.n_groups];
        for (g, rows) in self.members.iter().enumerate() {
            for &i in rows {
                sy[g] += y[i];
                sxy[g].axpy(y[i], &self.x.row(i).transpose(), 1.0);
            }
        }
        let total_sy = sy.iter().sum();
        let total_sxy = sxy.iter().fold(DVector::zeros(p), |acc, v| acc + v);
        Target {
            sy,
            sxy,
            total_sy,
            total_sxy,
        }
    }

    /// Factorize the training set made of every group not in `excluded`.
    /// `None` when no training row is left.
    pub fn factor(&self, excluded: &[usize]) -> Option<Factor> {
        let Standardized {
            n,
            mean,
            inv_sd,
            gram,
        } = self.standardized_gram(excluded)?;
        let eig = SymmetricEigen::new(gram);
        Some(Factor {
            excluded: excluded.to_vec(),
            n,
            mean,
            inv_sd,
            vectors: eig.eigenvectors,
            values: eig.eigenvalues,
        })
    }

    /// The training set (every group not in `excluded`) standardized.
    fn standardized_gram(&self, excluded: &[usize]) -> Option<Standardized> {
        let p = self.x.ncols();
        let kept = |g: usize| !excluded.contains(&g);
        // Each excluded group once, however often it is listed.
        let out: usize = excluded
            .iter()
            .enumerate()
            .filter(|&(k, &g)| g < self.n_groups && !excluded[..k].contains(&g))
            .map(|(_, &g)| self.count[g])
            .sum();
        let n = self.total_count - out;
        if n == 0 {
            return None;
        }
        // Training sums = totals minus the excluded groups' sums: O(p²) per
        // training set however many groups there are (the columns are centred,
        // so the subtraction loses no more than a few ulps).
        let mut s1 = self.total_s1.clone();
        let mut s2 = self.total_s2.clone();
        for &g in excluded.iter().filter(|&&g| g < self.n_groups) {
            s1 -= &self.s1[g];
            s2 -= &self.s2[g];
        }
        // The kept groups' range: the first kept group in each order.
        let lo: Vec<f64> = (0..p)
            .map(|j| {
                self.by_min[j]
                    .iter()
                    .find(|&&g| kept(g))
                    .map_or(f64::INFINITY, |&g| self.min[g][j])
            })
            .collect();
        let hi: Vec<f64> = (0..p)
            .map(|j| {
                self.by_max[j]
                    .iter()
                    .find(|&&g| kept(g))
                    .map_or(f64::NEG_INFINITY, |&g| self.max[g][j])
            })
            .collect();
        let nf = n as f64;
        let mean = &s1 / nf;
        let mut inv_sd = DVector::<f64>::zeros(p);
        for j in 0..p {
            let var = (s2[(j, j)] / nf - mean[j] * mean[j]).max(0.0);
            if lo[j] < hi[j] && var > 0.0 {
                inv_sd[j] = 1.0 / var.sqrt();
            }
        }
        // Centred cross-products, then standardized.
        let mut gram = s2;
        gram.ger(-nf, &mean, &mean, 1.0);
        for a in 0..p {
            for b in 0..p {
                gram[(a, b)] *= inv_sd[a] * inv_sd[b];
            }
        }
        Some(Standardized {
            n,
            mean,
            inv_sd,
            gram,
        })
    }

    /// Predictions for the rows of `groups_out` (which must be excluded from
    /// the factor's training set) for every penalty in `alphas`:
    /// `out[a][k]` is the prediction of the k-th listed row under `alphas[a]`.
    /// Also returns the training mean of the target (the baseline).
    /// The training mean ȳ of `target` over every group not in `excluded`
    /// (`n` rows) and `Z'(y − ȳ) = D⁻¹ (S_xy − n μ ȳ)`, from the totals
    /// minus the excluded groups' sums.
    fn training_rhs(
        &self,
        target: &Target,
        excluded: &[usize],
        n: usize,
        mean: &DVector<f64>,
        inv_sd: &DVector<f64>,
    ) -> (f64, DVector<f64>) {
        let nf = n as f64;
        let mut sy = target.total_sy;
        let mut sxy = target.total_sxy.clone();
        for &g in excluded.iter().filter(|&&g| g < self.n_groups) {
            sy -= target.sy[g];
            sxy -= &target.sxy[g];
        }
        let ybar = sy / nf;
        let mut b = sxy;
        b.axpy(-nf * ybar, mean, 1.0);
        b.component_mul_assign(inv_sd);
        (ybar, b)
    }

    /// Rows `rows` standardized with a training set's `mean` and `inv_sd`.
    fn standardized_rows(
        &self,
        rows: &[usize],
        mean: &DVector<f64>,
        inv_sd: &DVector<f64>,
    ) -> DMatrix<f64> {
        DMatrix::from_fn(rows.len(), self.x.ncols(), |r, j| {
            (self.x[(rows[r], j)] - mean[j]) * inv_sd[j]
        })
    }

    pub fn predict(
        &self,
        factor: &Factor,
        target: &Target,
        rows_out: &[usize],
        alphas: &[Alpha],
    ) -> (Vec<Vec<f64>>, f64) {
        let p = self.x.ncols();
        let (ybar, b) = self.training_rhs(
            target,
            &factor.excluded,
            factor.n,
            &factor.mean,
            &factor.inv_sd,
        );
        let u = factor.vectors.tr_mul(&b);
        // Held-out rows, standardized and rotated: H = Z_out V.
        let h = self.standardized_rows(rows_out, &factor.mean, &factor.inv_sd) * &factor.vectors;
        let preds = alphas
            .iter()
            .map(|alpha| {
                let coef = DVector::from_iterator(
                    p,
                    u.iter()
                        .zip(factor.values.iter())
                        .map(|(u, l)| u / (l.max(0.0) + alpha.get())),
                );
                (&h * coef).iter().map(|v| ybar + v).collect()
            })
            .collect();
        (preds, ybar)
    }
}

/// Held-out predictions of several targets over one design, each group held
/// out in turn, for every penalty: `predicted[a][t][i]`, `baseline[t][i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldOutFits {
    pub predicted: Vec<Vec<Vec<Option<f64>>>>,
    pub baseline: Vec<Vec<Option<f64>>>,
}

/// Hold out each group of `design` in turn and predict one target at one
/// penalty by a Cholesky solve of `(Z'Z + αI) w = Z'(y − ȳ)` per fold —
/// about a tenth of an eigendecomposition, for callers that refit one
/// target at one α many times (the ΔQ² permutation test). Agrees with
/// [`hold_out_each_group`] to rounding: `predicted[i]`, `baseline[i]`.
pub fn hold_out_each_group_at(
    design: &Design,
    target: &Target,
    alpha: Alpha,
) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let n = design.n_rows();
    let p = design.x.ncols();
    let (mut predicted, mut baseline) = (vec![None; n], vec![None; n]);
    for g in 0..design.n_groups() {
        let Some(Standardized {
            n: m,
            mean,
            inv_sd,
            mut gram,
        }) = design.standardized_gram(&[g])
        else {
            continue;
        };
        let (ybar, b) = design.training_rhs(target, &[g], m, &mean, &inv_sd);
        for j in 0..p {
            gram[(j, j)] += alpha.get();
        }
        // Not positive definite only through rounding: then the eigen path.
        let w = if let Some(c) = gram.clone().cholesky() {
            c.solve(&b)
        } else {
            let eig = SymmetricEigen::new(gram);
            let u = eig.eigenvectors.tr_mul(&b);
            let coef = DVector::from_iterator(
                p,
                u.iter()
                    .zip(eig.eigenvalues.iter())
                    .map(|(u, l)| u / l.max(alpha.get())),
            );
            &eig.eigenvectors * coef
        };
        let members = design.members(g);
        let z = design.standardized_rows(members, &mean, &inv_sd) * w;
        for (&i, z) in members.iter().zip(z.iter()) {
            predicted[i] = Some(ybar + z);
            baseline[i] = Some(ybar);
        }
    }
    (predicted, baseline)
}

/// Hold out each group of `design` in turn and predict every target for every
/// penalty. Rows whose group leaves no training rows get `None`.
pub fn hold_out_each_group(design: &Design, targets: &[Target], alphas: &[Alpha]) -> HeldOutFits {
    let n = design.n_rows();
    let mut predicted = vec![vec![vec![None; n]; targets.len()]; alphas.len()];
    let mut baseline = vec![vec![None; n]; targets.len()];
    for g in 0..design.n_groups() {
        let Some(factor) = design.factor(&[g]) else {
            continue;
        };
        let rows = design.members(g);
        for (t, target) in targets.iter().enumerate() {
            let (preds, ybar) = design.predict(&factor, target, rows, alphas);
            for (a, pa) in preds.iter().enumerate() {
                for (k, &i) in rows.iter().enumerate() {
                    predicted[a][t][i] = Some(pa[k]);
                }
            }
            for &i in rows {
                baseline[t][i] = Some(ybar);
            }
        }
    }
    HeldOutFits {
        predicted,
        baseline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heldout::reference::held_out_ridge;

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    /// n rows of p features in [50, 80), groups (7i + 3) mod `groups`, a
    /// target in [40, 60).
    fn problem(
        s: &mut u64,
        n: usize,
        p: usize,
        groups: usize,
    ) -> (Vec<Vec<f64>>, Vec<usize>, Vec<f64>) {
        let rows = (0..n)
            .map(|_| (0..p).map(|_| 50.0 + 30.0 * lcg(s)).collect())
            .collect();
        let g = (0..n).map(|i| (i * 7 + 3) % groups).collect();
        let y = (0..n).map(|_| 40.0 + 20.0 * lcg(s)).collect();
        (rows, g, y)
    }

    #[test]
    fn matches_row_refits_with_cholesky() {
        let mut s = 7u64;
        for (n, p, groups) in [(15, 7, 8), (9, 3, 3), (20, 12, 5), (6, 9, 6)] {
            let (rows, g, y) = problem(&mut s, n, p, groups);
            let design = Design::new(&rows, &g);
            let target = design.target(&y);
            let alphas = [
                Alpha::new(0.01).unwrap(),
                Alpha::DEFAULT,
                Alpha::new(1e4).unwrap(),
            ];
            let fits = hold_out_each_group(&design, &[target], &alphas);
            for (a, alpha) in alphas.iter().enumerate() {
                let opt: Vec<Vec<Option<f64>>> = rows
                    .iter()
                    .map(|r| r.iter().map(|v| Some(*v)).collect())
                    .collect();
                let yo: Vec<Option<f64>> = y.iter().map(|v| Some(*v)).collect();
                let reference = held_out_ridge(&opt, &yo, &g, *alpha).unwrap();
                for i in 0..n {
                    let (ours, theirs) = (
                        fits.predicted[a][0][i].unwrap(),
                        reference.predicted[i].unwrap(),
                    );
                    assert!(
                        (ours - theirs).abs() < 1e-9 * (1.0 + theirs.abs()),
                        "n={n} p={p} alpha={alpha:?} row {i}: {ours} vs {theirs}"
                    );
                    assert!(
                        (fits.baseline[0][i].unwrap() - reference.baseline[i].unwrap()).abs()
                            < 1e-9
                    );
                }
            }
        }
    }

    /// The Cholesky path equals the eigen path to rounding.
    #[test]
    fn one_alpha_by_cholesky_equals_the_eigen_path() {
        let mut s = 3u64;
        for (n, p, groups) in [(15, 7, 8), (40, 20, 10), (6, 9, 6)] {
            let (rows, g, y) = problem(&mut s, n, p, groups);
            let design = Design::new(&rows, &g);
            let target = design.target(&y);
            for alpha in [Alpha::new(0.01).unwrap(), Alpha::DEFAULT] {
                let eigen = hold_out_each_group(&design, std::slice::from_ref(&target), &[alpha]);
                let (pred, base) = hold_out_each_group_at(&design, &target, alpha);
                for i in 0..n {
                    let (a, b) = (pred[i].unwrap(), eigen.predicted[0][0][i].unwrap());
                    assert!(
                        (a - b).abs() < 1e-9 * (1.0 + b.abs()),
                        "n={n} row {i}: {a} vs {b}"
                    );
                    assert_eq!(base[i], eigen.baseline[0][i]);
                }
            }
        }
    }

    #[test]
    fn constant_feature_in_a_fold_is_zeroed() {
        // Feature 0 is constant outside group 2 only.
        let rows = vec![
            vec![5.0, 1.0],
            vec![5.0, 2.0],
            vec![5.0, 3.0],
            vec![9.0, 4.0],
            vec![5.0, 6.0],
        ];
        let g = [0, 0, 1, 2, 1];
        let y = [1.0, 2.0, 2.5, 4.0, 5.0];
        let design = Design::new(&rows, &g);
        let fits = hold_out_each_group(&design, &[design.target(&y)], &[Alpha::DEFAULT]);
        let opt: Vec<Vec<Option<f64>>> = rows
            .iter()
            .map(|r| r.iter().map(|v| Some(*v)).collect())
            .collect();
        let yo: Vec<Option<f64>> = y.iter().map(|v| Some(*v)).collect();
        let reference = held_out_ridge(&opt, &yo, &g, Alpha::DEFAULT).unwrap();
        for i in 0..5 {
            assert!(
                (fits.predicted[0][0][i].unwrap() - reference.predicted[i].unwrap()).abs() < 1e-12
            );
        }
    }
}
