//! Nested penalty selection (spec: realization-gaps.md, "Nested
//! selection"), and the masks and designs every held-out fit starts from.

use indexmap::IndexMap;

use gapscope_stats::heldout::engine::Design;
use gapscope_stats::ridge::Alpha;

use crate::settings::{NESTED_CANDIDATES, NESTED_TIE};

/// The models that take part in a fit: target and every feature present.
pub(crate) fn mask(features: &[Vec<Option<f64>>], target: &[Option<f64>]) -> Vec<bool> {
    target
        .iter()
        .zip(features)
        .map(|(t, row)| t.is_some() && row.iter().all(Option::is_some))
        .collect()
}

/// Every target's mask, and the targets grouped by equal masks (each class
/// in order, classes in order of their first target): targets of a class
/// share one design.
pub(crate) fn mask_classes(
    features: &[Vec<Option<f64>>],
    targets: &[Vec<Option<f64>>],
) -> (Vec<Vec<bool>>, Vec<Vec<usize>>) {
    let masks: Vec<Vec<bool>> = targets.iter().map(|t| mask(features, t)).collect();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for (t, m) in masks.iter().enumerate() {
        match classes.iter_mut().find(|c| &masks[c[0]] == m) {
            Some(c) => c.push(t),
            None => classes.push(vec![t]),
        }
    }
    (masks, classes)
}

/// The design over the models `mask` keeps, and their indices.
pub(crate) fn masked_design(
    features: &[Vec<Option<f64>>],
    groups: &[usize],
    mask: &[bool],
) -> (Vec<usize>, Design) {
    let rows: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
    let x: Vec<Vec<f64>> = rows
        .iter()
        .map(|&i| features[i].iter().flatten().copied().collect())
        .collect();
    let g: Vec<usize> = rows.iter().map(|&i| groups[i]).collect();
    let design = Design::new(&x, &g);
    (rows, design)
}

/// Nested selection: for each outer fold, choose alpha by inner hold-outs of the
/// remaining groups (pooled squared error, ties to the larger alpha), refit on
/// the outer training set, predict the fold.
/// A nested selection's held-out predictions and the α chosen per fold.
pub(crate) type Selection = (Vec<Option<f64>>, IndexMap<String, f64>);

pub(crate) fn nested_selection(
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    groups: &[usize],
    fold_ids: &[String],
) -> Selection {
    let m = mask(features, target);
    nested_on_one_mask(features, &[target], &m, groups, fold_ids)
        .pop()
        .unwrap_or_default()
}

/// [`nested_selection`] of several targets over the same features. Targets
/// with the same mask (the same models take part) share one design, so each
/// of the G² training sets is factorized once for all of them — every
/// operation from F under nested selection costs about one. Each target's
/// result is bit for bit what [`nested_selection`] gives it alone.
pub(crate) fn nested_selection_many(
    features: &[Vec<Option<f64>>],
    targets: &[Vec<Option<f64>>],
    groups: &[usize],
    fold_ids: &[String],
) -> Vec<Selection> {
    let (masks, classes) = mask_classes(features, targets);
    let mut out: Vec<Option<Selection>> = vec![None; targets.len()];
    for same in classes {
        let shared: Vec<&[Option<f64>]> = same.iter().map(|&j| targets[j].as_slice()).collect();
        let results = nested_on_one_mask(features, &shared, &masks[same[0]], groups, fold_ids);
        for (j, r) in same.into_iter().zip(results) {
            out[j] = Some(r);
        }
    }
    out.into_iter().flatten().collect()
}

/// Nested selection of targets that share `mask`.
fn nested_on_one_mask(
    features: &[Vec<Option<f64>>],
    targets: &[&[Option<f64>]],
    m: &[bool],
    groups: &[usize],
    fold_ids: &[String],
) -> Vec<Selection> {
    let n = m.len();
    let (rows, design) = masked_design(features, groups, m);
    let ys: Vec<Vec<f64>> = targets
        .iter()
        .map(|target| rows.iter().filter_map(|&i| target[i]).collect())
        .collect();
    let ts: Vec<_> = ys.iter().map(|y| design.target(y)).collect();
    let candidates: Vec<Alpha> = NESTED_CANDIDATES
        .iter()
        .filter_map(|a| Alpha::new(*a).ok())
        .collect();
    let mut predicted = vec![vec![None; n]; targets.len()];
    let mut chosen = vec![IndexMap::new(); targets.len()];
    for outer in 0..design.n_groups() {
        let mut sse = vec![vec![0.0; candidates.len()]; targets.len()];
        let mut count = 0usize;
        for inner in (0..design.n_groups()).filter(|&h| h != outer) {
            let Some(factor) = design.factor(&[outer, inner]) else {
                continue;
            };
            let members = design.members(inner);
            for ((t, y), sse) in ts.iter().zip(&ys).zip(sse.iter_mut()) {
                let (preds, _) = design.predict(&factor, t, members, &candidates);
                for (a, pa) in preds.iter().enumerate() {
                    sse[a] += members
                        .iter()
                        .zip(pa)
                        .map(|(&r, p)| (y[r] - p).powi(2))
                        .sum::<f64>();
                }
            }
            count += members.len();
        }
        // Lowest inner MSE; among ties (within NESTED_TIE) the larger alpha.
        let best: Vec<usize> = sse
            .iter()
            .map(|sse| {
                if count == 0 {
                    2 // no inner hold-out possible: the reference alpha 10
                } else {
                    let mse: Vec<f64> = sse.iter().map(|s| s / count as f64).collect();
                    let min = mse.iter().copied().fold(f64::INFINITY, f64::min);
                    (0..candidates.len())
                        .rev()
                        .find(|&a| mse[a] - min <= NESTED_TIE)
                        .unwrap_or(2)
                }
            })
            .collect();
        let members = design.members(outer);
        if let Some(factor) = design.factor(&[outer]) {
            for ((t, &b), predicted) in ts.iter().zip(&best).zip(predicted.iter_mut()) {
                let (preds, _) = design.predict(&factor, t, members, &candidates[b..=b]);
                for (k, &r) in members.iter().enumerate() {
                    predicted[rows[r]] = Some(preds[0][k]);
                }
            }
        }
        if let Some(&r) = members.first() {
            for (chosen, &b) in chosen.iter_mut().zip(&best) {
                chosen.insert(fold_ids[rows[r]].clone(), candidates[b].get());
            }
        }
    }
    predicted.into_iter().zip(chosen).collect()
}
