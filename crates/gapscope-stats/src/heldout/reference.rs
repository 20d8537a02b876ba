//! Held-out prediction: folds by model family (or, with fewer than three
//! families, one model per fold) and the predictions and baselines they give.

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use crate::ridge::{Alpha, RidgeError, RidgeFit};
use crate::summary;

/// The fewest families with which hold-out by family is done.
pub const MIN_FAMILIES: usize = 3;

/// How models are grouped into held-out folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FoldKind {
    /// Each family is held out in turn (the paper's design).
    Family,
    /// Leave-one-model-out, used when there are fewer than three families.
    Model,
}

/// The fold of every model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Folds {
    pub kind: FoldKind,
    /// The held-out group of each model, in model order (a family name, or the
    /// model's own name for leave-one-model-out).
    pub ids: Vec<String>,
    /// Why the fold kind is what it is, when it is not the default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Folds {
    /// Family folds when there are at least [`MIN_FAMILIES`] families, otherwise
    /// leave-one-model-out, labelled as such.
    pub fn for_models(models: &[String], families: &[String]) -> Self {
        let distinct = distinct_in_order(families).len();
        if distinct >= MIN_FAMILIES {
            Folds {
                kind: FoldKind::Family,
                ids: families.to_vec(),
                note: None,
            }
        } else {
            Folds {
                kind: FoldKind::Model,
                ids: models.to_vec(),
                note: Some(format!(
                    "only {distinct} famil{} (hold-out by family needs at least {MIN_FAMILIES}): \
                     leave-one-model-out is used instead, each model its own fold",
                    if distinct == 1 { "y" } else { "ies" }
                )),
            }
        }
    }

    /// Fold ids as dense group indices, in order of first appearance.
    pub fn group_index(&self) -> Vec<usize> {
        // A map, not a scan of the ids seen: linear in the models.
        let mut index: std::collections::HashMap<&str, usize> = Default::default();
        self.ids
            .iter()
            .map(|id| {
                let next = index.len();
                *index.entry(id.as_str()).or_insert(next)
            })
            .collect()
    }
}

/// Distinct values in order of first appearance.
pub fn distinct_in_order(values: &[String]) -> Vec<&String> {
    let mut seen: std::collections::HashSet<&str> = Default::default();
    values.iter().filter(|v| seen.insert(v.as_str())).collect()
}

/// Held-out predictions for one target.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldOut {
    /// Held-out prediction per model; `None` where the model took no part (a
    /// missing target or feature) or its fold had no training rows.
    pub predicted: Vec<Option<f64>>,
    /// The fold-specific training mean of the target, per model.
    pub baseline: Vec<Option<f64>>,
    /// Models (indices) left out because the target or a feature was missing.
    pub excluded: Vec<usize>,
}

/// Predict `target` from `features` (one row per model) with every group in
/// `groups` held out in turn. Only models with the target and every feature
/// present take part (as training rows and as held-out rows).
pub fn held_out_ridge(
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    groups: &[usize],
    alpha: Alpha,
) -> Result<HeldOut, RidgeError> {
    let n = target.len();
    let p = features.first().map_or(0, Vec::len);
    let complete: Vec<Option<Vec<f64>>> = features
        .iter()
        .map(|row| row.iter().copied().collect::<Option<Vec<f64>>>())
        .collect();
    let eligible: Vec<bool> = (0..n)
        .map(|i| target[i].is_some() && complete[i].is_some())
        .collect();
    let excluded = (0..n).filter(|&i| !eligible[i]).collect();

    let mut predicted = vec![None; n];
    let mut baseline = vec![None; n];
    let mut seen = Vec::new();
    for i in 0..n {
        if !eligible[i] || seen.contains(&groups[i]) {
            continue;
        }
        let g = groups[i];
        seen.push(g);
        let train: Vec<usize> = (0..n).filter(|&j| eligible[j] && groups[j] != g).collect();
        if train.is_empty() {
            continue;
        }
        let mut x = DMatrix::<f64>::zeros(train.len(), p);
        let mut y = Vec::with_capacity(train.len());
        for (r, &j) in train.iter().enumerate() {
            if let (Some(row), Some(t)) = (&complete[j], target[j]) {
                for (c, v) in row.iter().enumerate() {
                    x[(r, c)] = *v;
                }
                y.push(t);
            }
        }
        let fit = RidgeFit::fit(&x, &y, alpha)?;
        for k in (0..n).filter(|&k| eligible[k] && groups[k] == g) {
            if let Some(row) = &complete[k] {
                predicted[k] = Some(fit.predict(row));
                baseline[k] = Some(fit.intercept);
            }
        }
    }
    Ok(HeldOut {
        predicted,
        baseline,
        excluded,
    })
}

/// Prediction-quality metrics over the models that have an observed value, a
/// prediction and a baseline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub n: usize,
    pub mae: Option<f64>,
    pub rmse: Option<f64>,
    pub spearman: Option<f64>,
    /// `1 - SSE / SS(baseline)`; `None` when the baseline makes no error.
    pub q2: Option<f64>,
    /// MAE of the fold-specific training-mean baseline.
    pub baseline_mae: Option<f64>,
}

impl Metrics {
    pub fn compute(
        observed: &[Option<f64>],
        predicted: &[Option<f64>],
        baseline: &[Option<f64>],
    ) -> Self {
        let triples: Vec<(f64, f64, f64)> = observed
            .iter()
            .zip(predicted)
            .zip(baseline)
            .filter_map(|((y, p), b)| Some(((*y)?, (*p)?, (*b)?)))
            .collect();
        let n = triples.len();
        if n == 0 {
            return Metrics {
                n,
                mae: None,
                rmse: None,
                spearman: None,
                q2: None,
                baseline_mae: None,
            };
        }
        let nf = n as f64;
        let sse: f64 = triples.iter().map(|(y, p, _)| (y - p) * (y - p)).sum();
        let ssb: f64 = triples.iter().map(|(y, _, b)| (y - b) * (y - b)).sum();
        let mae = triples.iter().map(|(y, p, _)| (y - p).abs()).sum::<f64>() / nf;
        let baseline_mae = triples.iter().map(|(y, _, b)| (y - b).abs()).sum::<f64>() / nf;
        let ys: Vec<f64> = triples.iter().map(|t| t.0).collect();
        let ps: Vec<f64> = triples.iter().map(|t| t.1).collect();
        Metrics {
            n,
            mae: Some(mae),
            rmse: Some((sse / nf).sqrt()),
            spearman: summary::spearman(&ys, &ps),
            q2: (ssb > 0.0).then(|| 1.0 - sse / ssb),
            baseline_mae: Some(baseline_mae),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(std::string::ToString::to_string).collect()
    }

    #[test]
    fn few_families_fall_back_to_models() {
        let f = Folds::for_models(&names(&["a", "b", "c"]), &names(&["X", "X", "Y"]));
        assert_eq!(f.kind, FoldKind::Model);
        assert_eq!(f.ids, names(&["a", "b", "c"]));
        assert!(f.note.unwrap().contains("only 2 families"));
        let f = Folds::for_models(&names(&["a", "b", "c"]), &names(&["X", "Z", "Y"]));
        assert_eq!(f.kind, FoldKind::Family);
        assert_eq!(f.group_index(), vec![0, 1, 2]);
    }

    #[test]
    fn missing_values_are_excluded_not_zeroed() {
        let features = vec![
            vec![Some(1.0)],
            vec![Some(2.0)],
            vec![None],
            vec![Some(4.0)],
            vec![Some(5.0)],
        ];
        let target = vec![Some(1.0), Some(2.0), Some(3.0), None, Some(5.0)];
        let h = held_out_ridge(&features, &target, &[0, 1, 2, 3, 4], Alpha::DEFAULT).unwrap();
        assert_eq!(h.excluded, vec![2, 3]);
        assert_eq!(h.predicted[2], None);
        assert_eq!(h.predicted[3], None);
        // Model 0's baseline is the mean of the other eligible targets (2 + 5) / 2.
        assert_eq!(h.baseline[0], Some(3.5));
    }

    #[test]
    fn metrics_by_hand() {
        let y = [Some(1.0), Some(2.0), Some(4.0)];
        let p = [Some(1.5), Some(2.0), Some(3.0)];
        let b = [Some(3.0), Some(2.5), Some(1.5)];
        let m = Metrics::compute(&y, &p, &b);
        // SSE = 0.25 + 0 + 1 = 1.25 ; SSB = 4 + 0.25 + 6.25 = 10.5
        // baseline MAE = (2 + 0.5 + 2.5) / 3
        assert!((m.q2.unwrap() - (1.0 - 1.25 / 10.5)).abs() < 1e-15);
        assert!((m.mae.unwrap() - 0.5).abs() < 1e-15);
        assert!((m.rmse.unwrap() - (1.25f64 / 3.0).sqrt()).abs() < 1e-15);
        assert!((m.baseline_mae.unwrap() - 5.0 / 3.0).abs() < 1e-15);
        assert!((m.spearman.unwrap() - 1.0).abs() < 1e-15);
    }
}
