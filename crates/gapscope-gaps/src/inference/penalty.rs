//! Beyond one α and one fit (spec: "Beyond one α and one fit"; paper D.1,
//! D.2, Table 8): nested penalty selection for each reward predictor (F, O,
//! F+O) and for every operation predicted from F, and every operation's
//! held-out Q², MAE and ρ over the α grid of the reward curves.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_data::profile::ProfileTable;
use gapscope_stats::heldout::reference::{Folds, Metrics};

use crate::analysis::{check_input, concat_rows, fit_targets, AnalysisError, Curve, Nested};
use crate::nested::{nested_selection, nested_selection_many, Selection};
use crate::settings::{Settings, MAX_NESTED_FOLDS, NESTED_CANDIDATES};

/// Every operation's held-out metrics from F along the penalty grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationCurves {
    pub alphas: Vec<f64>,
    /// The penalty of the main analysis, marked on the curves.
    pub reference_alpha: f64,
    /// Per operation (the table's order).
    pub operations: IndexMap<String, Curve>,
}

/// Nested selection of every predictor the spec names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NestedAll {
    /// Reward from `F`, `O` and `F+O` (in that order; none without a reward).
    pub reward: Vec<Nested>,
    /// Each operation from `F`.
    pub operations: IndexMap<String, Nested>,
}

/// The penalty analyses of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Penalty {
    pub curves: OperationCurves,
    /// `None` when the settings turn nested selection off.
    pub nested: Option<NestedAll>,
}

/// Nested selection of `target` from `features`, with its outer metrics
/// against the fold-specific training-mean baseline of the same models.
fn nested(
    name: &str,
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    groups: &[usize],
    fold_ids: &[String],
    settings: &Settings,
) -> Nested {
    let selection = nested_selection(features, target, groups, fold_ids);
    nested_from(name, features, target, selection, groups, settings)
}

/// [`nested`] from its selection.
fn nested_from(
    name: &str,
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    (predicted, chosen_alpha): Selection,
    groups: &[usize],
    settings: &Settings,
) -> Nested {
    // The baseline of the fit of the same models (it does not depend on α).
    let baseline = fit_targets(
        features,
        std::slice::from_ref(&target.to_vec()),
        groups,
        &[settings.alpha],
    )
    .remove(0)
    .baseline;
    let m = Metrics::compute(target, &predicted, &baseline);
    Nested {
        predictors: name.to_string(),
        candidates: NESTED_CANDIDATES.to_vec(),
        chosen_alpha,
        predicted,
        spearman: m.spearman,
        mae: m.mae,
        rmse: m.rmse,
        q2: m.q2,
    }
}

/// The penalty analyses of `table` under `settings` (its α, grid and
/// whether to select by nested hold-outs), on the same folds as
/// [`crate::analyze`].
///
/// # Errors
/// The table or settings [`crate::analyze`] rejects; nested selection over
/// more than [`MAX_NESTED_FOLDS`] folds.
pub fn penalty(table: &ProfileTable, settings: &Settings) -> Result<Penalty, AnalysisError> {
    check_input(table, settings)?;
    let folds = Folds::for_models(&table.models, &table.families);
    let groups = folds.group_index();
    let n_groups = groups.iter().max().map_or(0, |g| g + 1);
    if settings.nested && n_groups > MAX_NESTED_FOLDS {
        return Err(AnalysisError::TooManyFoldsForNested(n_groups));
    }
    let f_rows = &table.foundational.values;
    let o_rows = &table.operations.values;
    let q = table.operations.names.len();
    let o_cols: Vec<Vec<Option<f64>>> = (0..q).map(|k| table.operations.column(k)).collect();

    let grid = settings.grid.alphas();
    let fits = fit_targets(f_rows, &o_cols, &groups, &grid);
    let operations = table
        .operations
        .names
        .iter()
        .zip(&fits)
        .zip(&o_cols)
        .map(|((name, tf), observed)| {
            let metrics: Vec<Metrics> = tf
                .predicted
                .iter()
                .map(|p| Metrics::compute(observed, p, &tf.baseline))
                .collect();
            let curve = Curve {
                mae: metrics.iter().map(|m| m.mae).collect(),
                spearman: metrics.iter().map(|m| m.spearman).collect(),
                q2: metrics.iter().map(|m| m.q2).collect(),
            };
            (name.clone(), curve)
        })
        .collect();
    let curves = OperationCurves {
        alphas: grid.iter().map(|a| a.get()).collect(),
        reference_alpha: settings.alpha.get(),
        operations,
    };

    let nested = settings.nested.then(|| {
        let reward = table.reward.as_ref().map_or_else(Vec::new, |y| {
            let fo_rows = concat_rows(f_rows, o_rows);
            [("F", f_rows.as_slice()), ("O", o_rows), ("F+O", &fo_rows)]
                .into_iter()
                .map(|(name, rows)| nested(name, rows, y, &groups, &folds.ids, settings))
                .collect()
        });
        // Every operation from F: one design for all (shared factorizations).
        let selections = nested_selection_many(f_rows, &o_cols, &groups, &folds.ids);
        let operations = table
            .operations
            .names
            .iter()
            .zip(&o_cols)
            .zip(selections)
            .map(|((name, col), selection)| {
                (
                    name.clone(),
                    nested_from("F", f_rows, col, selection, &groups, settings),
                )
            })
            .collect();
        NestedAll { reward, operations }
    });
    Ok(Penalty { curves, nested })
}
