//! Coefficients (spec: "Coefficients"): the ridge coefficients on the
//! standardized features (population SD, the fit's own scaling; in target
//! units per SD of the feature) of the fit on every model of the fit's
//! mask, with their minimum and maximum over the held-out fold fits — a
//! description of the fit, not a causal effect. A feature constant on a
//! training set has coefficient 0 there, and that 0 is included.

use indexmap::IndexMap;
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use gapscope_data::profile::ProfileTable;
use gapscope_stats::heldout::reference::Folds;
use gapscope_stats::ridge::RidgeFit;
use gapscope_stats::Alpha;

use crate::analysis::{check_input, concat_rows, AnalysisError};
use crate::nested::mask;
use crate::settings::Settings;

/// One fit's coefficients, per feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoefficientTable {
    pub features: Vec<String>,
    /// The fit on every model of the mask.
    pub all: Vec<f64>,
    /// Over the fold fits (one per held-out family with training rows).
    pub min: Vec<f64>,
    pub max: Vec<f64>,
    pub folds: usize,
    /// Models in the fit.
    pub n: usize,
}

/// Every fit's coefficients.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coefficients {
    /// Each operation from F.
    pub operations: IndexMap<String, CoefficientTable>,
    /// The macro operation score from F.
    #[serde(rename = "macro")]
    pub macro_fit: Option<CoefficientTable>,
    /// Reward from `F`, `O`, `F+O` (none without a reward).
    pub reward: IndexMap<String, CoefficientTable>,
}

fn fit_rows(
    rows: &[usize],
    x: &[Vec<Option<f64>>],
    y: &[Option<f64>],
    alpha: Alpha,
) -> Option<Vec<f64>> {
    let p = x.first().map_or(0, Vec::len);
    let m = DMatrix::from_fn(rows.len(), p, |r, c| x[rows[r]][c].unwrap_or(f64::NAN));
    let t: Vec<f64> = rows.iter().filter_map(|&i| y[i]).collect();
    RidgeFit::fit(&m, &t, alpha).ok().map(|f| f.coef)
}

/// The coefficient table of `target` from `features` (named `names`).
pub fn coefficient_table(
    names: &[String],
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    groups: &[usize],
    alpha: Alpha,
) -> Option<CoefficientTable> {
    let keep = mask(features, target);
    let rows: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
    let all = fit_rows(&rows, features, target, alpha)?;
    let (mut min, mut max) = (all.clone(), all.clone());
    let mut seen: Vec<usize> = Vec::new();
    let mut folds = 0;
    for &i in &rows {
        if seen.contains(&groups[i]) {
            continue;
        }
        seen.push(groups[i]);
        let train: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&j| groups[j] != groups[i])
            .collect();
        if train.is_empty() {
            continue;
        }
        if let Some(c) = fit_rows(&train, features, target, alpha) {
            if folds == 0 {
                min.clone_from(&c);
                max.clone_from(&c);
            } else {
                for (j, v) in c.iter().enumerate() {
                    min[j] = min[j].min(*v);
                    max[j] = max[j].max(*v);
                }
            }
            folds += 1;
        }
    }
    Some(CoefficientTable {
        features: names.to_vec(),
        all,
        min,
        max,
        folds,
        n: rows.len(),
    })
}

/// The coefficients of every fit of `table` under `settings` (its α).
///
/// # Errors
/// The table or settings [`crate::analyze`] rejects.
pub fn coefficients(
    table: &ProfileTable,
    settings: &Settings,
) -> Result<Coefficients, AnalysisError> {
    check_input(table, settings)?;
    let groups = Folds::for_models(&table.models, &table.families).group_index();
    let f_names = &table.foundational.names;
    let o_names = &table.operations.names;
    let f_rows = &table.foundational.values;
    let o_rows = &table.operations.values;
    let alpha = settings.alpha;
    let operations = o_names
        .iter()
        .enumerate()
        .filter_map(|(k, name)| {
            let t =
                coefficient_table(f_names, f_rows, &table.operations.column(k), &groups, alpha)?;
            Some((name.clone(), t))
        })
        .collect();
    let macro_target = crate::analysis::macro_target(table, settings.macro_definition)?;
    let macro_fit = coefficient_table(f_names, f_rows, &macro_target, &groups, alpha);
    let mut reward = IndexMap::new();
    if let Some(y) = &table.reward {
        let fo_rows = concat_rows(f_rows, o_rows);
        let fo_names: Vec<String> = f_names.iter().chain(o_names).cloned().collect();
        for (name, names, rows) in [
            ("F", f_names.as_slice(), f_rows.as_slice()),
            ("O", o_names.as_slice(), o_rows.as_slice()),
            ("F+O", fo_names.as_slice(), fo_rows.as_slice()),
        ] {
            if let Some(t) = coefficient_table(names, rows, y, &groups, alpha) {
                reward.insert(name.to_string(), t);
            }
        }
    }
    Ok(Coefficients {
        operations,
        macro_fit,
        reward,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One standardized feature: the coefficient is n·cov(x, y) / ((n + α)·sd(x))
    /// (population moments), on all six models and on each fold's four.
    #[test]
    fn one_feature_by_hand() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let y = [1.0, 3.0, 2.0, 6.0, 5.0, 7.0];
        let groups = [0, 0, 1, 1, 2, 2];
        let features: Vec<Vec<Option<f64>>> = x.iter().map(|v| vec![Some(*v)]).collect();
        let target: Vec<Option<f64>> = y.iter().map(|v| Some(*v)).collect();
        let alpha = Alpha::new(1.0).unwrap();
        let by_hand = |rows: &[usize]| {
            let n = rows.len() as f64;
            let mx = rows.iter().map(|&i| x[i]).sum::<f64>() / n;
            let my = rows.iter().map(|&i| y[i]).sum::<f64>() / n;
            let cov = rows.iter().map(|&i| (x[i] - mx) * (y[i] - my)).sum::<f64>() / n;
            let sd = (rows.iter().map(|&i| (x[i] - mx).powi(2)).sum::<f64>() / n).sqrt();
            n * cov / ((n + 1.0) * sd)
        };
        let t = coefficient_table(&["RE".into()], &features, &target, &groups, alpha).unwrap();
        assert!((t.all[0] - by_hand(&[0, 1, 2, 3, 4, 5])).abs() < 1e-12);
        let folds = [
            by_hand(&[2, 3, 4, 5]),
            by_hand(&[0, 1, 4, 5]),
            by_hand(&[0, 1, 2, 3]),
        ];
        let lo = folds.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = folds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert!((t.min[0] - lo).abs() < 1e-12 && (t.max[0] - hi).abs() < 1e-12);
        assert_eq!((t.folds, t.n), (3, 6));
        // A missing target leaves that model out.
        let mut gappy = target.clone();
        gappy[5] = None;
        let t = coefficient_table(&["RE".into()], &features, &gappy, &groups, alpha).unwrap();
        assert!((t.all[0] - by_hand(&[0, 1, 2, 3, 4])).abs() < 1e-12);
        assert_eq!(t.n, 5);
    }
}
