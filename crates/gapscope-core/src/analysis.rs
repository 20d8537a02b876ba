//! The realization-gap analysis of a profile table: associations, the
//! held-out prediction of every operation from the foundational profile, and the
//! gaps. [`Report`] is the CLI's JSON contract (`gapscope report --json`,
//! documented in `docs/report.md`) and what the browser worker returns.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::crossval::{held_out_ridge, Folds, Metrics};
use crate::profile::ProfileTable;
use crate::ridge::{Alpha, RidgeError};
use crate::stats;

/// Validated analysis settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub alpha: Alpha,
}

/// Why an analysis could not be run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    #[error("no foundational dimensions: the file needs columns such as TU, RE, … (or assign them with --foundational)")]
    NoFoundational,
    #[error("no operations: the file needs columns such as GI, PL, … (or assign them with --operations)")]
    NoOperations,
    #[error("only {0} model(s): a held-out analysis needs at least 3")]
    TooFewModels(usize),
    #[error("operation `{operation}`: {source}")]
    Ridge {
        operation: String,
        source: RidgeError,
    },
}

/// Dimension names, in input order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dimensions {
    pub foundational: Vec<String>,
    pub operations: Vec<String>,
}

/// Foundational (rows) × operation (columns) correlation matrices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Correlations {
    pub pearson: Vec<Vec<Option<f64>>>,
    pub spearman: Vec<Vec<Option<f64>>>,
    /// Complete pairs behind each cell (pairwise deletion).
    pub n: Vec<Vec<usize>>,
}

/// The held-out prediction of one operation from the foundational profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationFit {
    pub observed: Vec<Option<f64>>,
    pub predicted: Vec<Option<f64>>,
    /// Observed − predicted (positive: execution above what F predicts).
    pub gap: Vec<Option<f64>>,
    /// The fold-specific training mean each model's prediction is compared with.
    pub baseline: Vec<Option<f64>>,
    pub q2: Option<f64>,
    pub mae: Option<f64>,
    pub rmse: Option<f64>,
    pub spearman: Option<f64>,
    pub baseline_mae: Option<f64>,
    /// Models predicted.
    pub n: usize,
    /// Models left out of this fit because this operation or a foundational
    /// value was missing, by name.
    pub excluded: Vec<String>,
}

/// The whole analysis (see `docs/report.md` for the contract).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub tool: String,
    pub version: String,
    pub summary: String,
    pub models: Vec<String>,
    pub families: Vec<String>,
    pub dimensions: Dimensions,
    pub settings: Settings,
    pub correlations: Correlations,
    pub folds: Folds,
    pub operations: IndexMap<String, OperationFit>,
    /// The largest |gap| in the report: the symmetric colour scale of the heatmap.
    pub max_abs_gap: Option<f64>,
    pub warnings: Vec<String>,
}

/// Run the analysis.
pub fn analyze(table: &ProfileTable, settings: &Settings) -> Result<Report, AnalysisError> {
    let n = table.n_models();
    let p = table.foundational.names.len();
    let q = table.operations.names.len();
    if p == 0 {
        return Err(AnalysisError::NoFoundational);
    }
    if q == 0 {
        return Err(AnalysisError::NoOperations);
    }
    if n < 3 {
        return Err(AnalysisError::TooFewModels(n));
    }
    let mut warnings = Vec::new();

    let f_cols: Vec<Vec<Option<f64>>> = (0..p).map(|j| table.foundational.column(j)).collect();
    let o_cols: Vec<Vec<Option<f64>>> = (0..q).map(|k| table.operations.column(k)).collect();
    let mut pearson = vec![vec![None; q]; p];
    let mut spearman = vec![vec![None; q]; p];
    let mut counts = vec![vec![0; q]; p];
    for j in 0..p {
        for k in 0..q {
            let r = stats::pearson_pairwise(&f_cols[j], &o_cols[k]);
            pearson[j][k] = r.value;
            counts[j][k] = r.n;
            spearman[j][k] = stats::spearman_pairwise(&f_cols[j], &o_cols[k]).value;
        }
    }

    let folds = Folds::for_models(&table.models, &table.families);
    if let Some(note) = &folds.note {
        warnings.push(note.clone());
    }
    let groups = folds.group_index();
    let mut operations = IndexMap::new();
    let mut max_abs_gap: Option<f64> = None;
    for (k, name) in table.operations.names.iter().enumerate() {
        let held = held_out_ridge(
            &table.foundational.values,
            &o_cols[k],
            &groups,
            settings.alpha,
        )
        .map_err(|source| AnalysisError::Ridge {
            operation: name.clone(),
            source,
        })?;
        let gap: Vec<Option<f64>> = o_cols[k]
            .iter()
            .zip(&held.predicted)
            .map(|(o, p)| Some((*o)? - (*p)?))
            .collect();
        for g in gap.iter().flatten() {
            max_abs_gap = Some(max_abs_gap.map_or(g.abs(), |m: f64| m.max(g.abs())));
        }
        let m = Metrics::compute(&o_cols[k], &held.predicted, &held.baseline);
        let excluded: Vec<String> = held
            .excluded
            .iter()
            .map(|&i| table.models[i].clone())
            .collect();
        if !excluded.is_empty() {
            warnings.push(format!(
                "operation {name}: left out of the fit for a missing value: {}",
                excluded.join(", ")
            ));
        }
        operations.insert(
            name.clone(),
            OperationFit {
                observed: o_cols[k].clone(),
                predicted: held.predicted,
                gap,
                baseline: held.baseline,
                q2: m.q2,
                mae: m.mae,
                rmse: m.rmse,
                spearman: m.spearman,
                baseline_mae: m.baseline_mae,
                n: m.n,
                excluded,
            },
        );
    }

    Ok(Report {
        tool: "gapscope".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        summary: table.summary(),
        models: table.models.clone(),
        families: table.families.clone(),
        dimensions: Dimensions {
            foundational: table.foundational.names.clone(),
            operations: table.operations.names.clone(),
        },
        settings: *settings,
        correlations: Correlations {
            pearson,
            spearman,
            n: counts,
        },
        folds,
        operations,
        max_abs_gap,
        warnings,
    })
}
