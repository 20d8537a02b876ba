//! The realization-gap analysis of a profile table (spec:
//! realization-gaps.md): associations; the held-out prediction of every
//! operation and of the macro operation score from the foundational profile,
//! and the gaps; reward prediction from F, O and F+O; family-bootstrap
//! intervals and paired differences; penalty sensitivity and nested selection.
//! [`Report`] is the CLI's JSON contract (`gapscope report --json`, documented in
//! `docs/report.md`) and what the browser worker returns.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_data::profile::ProfileTable;
use gapscope_stats::bootstrap::{GroupBootstrap, Intervals, Request, PRNG};
use gapscope_stats::heldout::engine::hold_out_each_group;
use gapscope_stats::heldout::reference::{Folds, Metrics};
use gapscope_stats::ridge::Alpha;
use gapscope_stats::summary;

use crate::nested::{mask, mask_classes, masked_design, nested_selection};

pub use crate::settings::*;

/// Why an analysis could not be run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    #[error("no foundational dimensions: the file needs columns such as TU, RE, … (or assign them with --foundational); trajectory files give only operations and reward, so load them together with a foundational profile file")]
    NoFoundational,
    #[error("no operations: the file needs columns such as GI, PL, … (or assign them with --operations)")]
    NoOperations,
    #[error("only {0} model(s): a held-out analysis needs at least 3")]
    TooFewModels(usize),
    #[error("the pooled macro score needs operation scores from labelled trajectories (a profile file carries only per-operation scores); use the mean macro, or load trajectories with labels")]
    NoPooledMacro,
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("column `{column}`, model `{model}`: {value:e} is too large in magnitude for the analysis (at most {MAX_MAGNITUDE:e}: it squares and sums values, which would overflow to infinity); rescale the column")]
    TooLarge {
        column: String,
        model: String,
        value: f64,
    },
    #[error("nested penalty selection over {0} folds: at most {MAX_NESTED_FOLDS} (it refits the inner hold-outs inside every outer fold, so its cost grows with the square of the folds); use --no-nested, or group the models into fewer families")]
    TooManyFoldsForNested(usize),
    #[error("{0} is not a finite number: the inputs are too large or too badly scaled for double precision; rescale them (nothing is reported rather than an undefined value in its place)")]
    NonFinite(String),
}

/// The first value of the table beyond [`MAX_MAGNITUDE`], named.
fn too_large(table: &ProfileTable) -> Option<AnalysisError> {
    let blocks = [&table.foundational, &table.operations];
    for block in blocks {
        for (i, row) in block.values.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                if let Some(v) = v.filter(|v| v.abs() > MAX_MAGNITUDE) {
                    return Some(AnalysisError::TooLarge {
                        column: block.names[j].clone(),
                        model: table.models[i].clone(),
                        value: v,
                    });
                }
            }
        }
    }
    let columns = [
        (
            table.outcome_column.as_deref().unwrap_or("reward"),
            &table.reward,
        ),
        ("pooled macro", &table.pooled_macro),
    ];
    for (name, values) in columns {
        for (i, v) in values.iter().flatten().copied().enumerate() {
            if let Some(v) = v.filter(|v| v.abs() > MAX_MAGNITUDE) {
                return Some(AnalysisError::TooLarge {
                    column: name.to_string(),
                    model: table.models[i].clone(),
                    value: v,
                });
            }
        }
    }
    None
}

/// Where the report holds a NaN or ∞ (JSON would write it as `null`, the
/// mark of "undefined"): the first such value, named.
fn non_finite(r: &Report) -> Option<String> {
    fn first(values: impl IntoIterator<Item = f64>) -> Option<f64> {
        values.into_iter().find(|v| !v.is_finite())
    }
    fn of_fit(f: &Fit) -> Option<f64> {
        let ci = f
            .ci95
            .iter()
            .flat_map(|c| [c.mae, c.rmse, c.q2].into_iter().flatten().flatten());
        first(
            f.observed
                .iter()
                .chain(&f.predicted)
                .chain(&f.gap)
                .chain(&f.baseline)
                .flatten()
                .copied()
                .chain(
                    [f.q2, f.mae, f.rmse, f.spearman, f.baseline_mae]
                        .into_iter()
                        .flatten(),
                )
                .chain(ci),
        )
    }
    let say = |what: String, v: f64| Some(format!("{what} ({v})"));
    for (name, f) in &r.operations {
        if let Some(v) = of_fit(f) {
            return say(format!("the held-out fit of operation {name}"), v);
        }
    }
    if let Some(v) = of_fit(&r.macro_fit.fit) {
        return say("the held-out fit of the macro score".into(), v);
    }
    if let Some(v) = first(
        r.correlations
            .pearson
            .iter()
            .chain(&r.correlations.spearman)
            .flatten()
            .flatten()
            .copied(),
    ) {
        return say("a correlation".into(), v);
    }
    if let Some(o) = &r.outcome {
        for (name, f) in [("F", &o.f), ("O", &o.o), ("F+O", &o.fo)] {
            if let Some(v) = of_fit(f) {
                return say(format!("reward prediction from {name}"), v);
            }
        }
        let b = &o.baseline;
        if let Some(v) = first(
            b.predicted
                .iter()
                .flatten()
                .copied()
                .chain([b.mae, b.rmse, b.q2].into_iter().flatten()),
        ) {
            return say("the reward baseline".into(), v);
        }
        if let Some(n) = &o.nested {
            if let Some(v) = first(
                n.predicted
                    .iter()
                    .flatten()
                    .copied()
                    .chain([n.mae, n.rmse, n.q2, n.spearman].into_iter().flatten()),
            ) {
                return say("nested selection".into(), v);
            }
        }
    }
    for (name, d) in r.differences.iter().flatten() {
        let ci = d
            .ci95
            .iter()
            .flat_map(|c| [c.mae, c.rmse, c.q2].into_iter().flatten().flatten());
        if let Some(v) = first([d.mae, d.rmse, d.q2].into_iter().flatten().chain(ci)) {
            return say(format!("the difference {name}"), v);
        }
    }
    if let Some(sn) = &r.sensitivity {
        for (name, c) in [("F", &sn.f), ("O", &sn.o), ("F+O", &sn.fo)] {
            if let Some(v) = first(
                c.mae
                    .iter()
                    .chain(&c.spearman)
                    .chain(&c.q2)
                    .flatten()
                    .copied(),
            ) {
                return say(format!("the penalty curve of {name}"), v);
            }
        }
    }
    let k = &r.rankings;
    if let Some(v) = first(
        k.foundational_mean
            .iter()
            .chain(&k.operation_mean)
            .chain(&k.foundational_rank)
            .chain(&k.operation_rank)
            .flatten()
            .copied()
            .chain(k.spearman),
    ) {
        return say("a ranking".into(), v);
    }
    None
}

/// The reward values outside 0–100 (after scaling), for a warning.
fn reward_out_of_range(table: &ProfileTable) -> Option<String> {
    let y = table.reward.as_ref()?;
    let out: Vec<(usize, f64)> = y
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.filter(|v| !(0.0..=100.0).contains(v)).map(|v| (i, v)))
        .collect();
    let &(i, v) = out.first()?;
    Some(format!(
        "reward: {} value{} outside 0–100 (first: {v} for model {}); rewards are read on 0–100 ({}), so check the column{} and --reward-scale",
        out.len(),
        gapscope_data::profile::plural(out.len()),
        table.models[i],
        if table.reward_scaled {
            "read as fractions and multiplied by 100"
        } else {
            "taken as percent: a file whose rewards all lie in [0, 1] is read as fractions"
        },
        table
            .outcome_column
            .as_deref()
            .map(|c| format!(" `{c}`"))
            .unwrap_or_default(),
    ))
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

/// Family-bootstrap 95% intervals of a predictor's metrics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ci95 {
    pub mae: Option<[f64; 2]>,
    pub rmse: Option<[f64; 2]>,
    pub q2: Option<[f64; 2]>,
    pub draws: usize,
    /// Draws skipped because the metric was undefined on them.
    pub skipped: Skipped,
}

/// Skipped draws per metric.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    pub mae: usize,
    pub rmse: usize,
    pub q2: usize,
}

impl Ci95 {
    fn from_intervals(draws: usize, iv: Intervals) -> Self {
        let Intervals { mae, rmse, q2 } = iv;
        Ci95 {
            mae: mae.bounds(),
            rmse: rmse.bounds(),
            q2: q2.bounds(),
            draws,
            skipped: Skipped {
                mae: mae.skipped,
                rmse: rmse.skipped,
                q2: q2.skipped,
            },
        }
    }
}

/// One held-out predictor of one target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub observed: Vec<Option<f64>>,
    pub predicted: Vec<Option<f64>>,
    /// Observed − predicted (positive: above what the predictor expects).
    pub gap: Vec<Option<f64>>,
    /// The fold-specific training mean each prediction is compared with.
    pub baseline: Vec<Option<f64>>,
    pub q2: Option<f64>,
    pub mae: Option<f64>,
    pub rmse: Option<f64>,
    pub spearman: Option<f64>,
    pub baseline_mae: Option<f64>,
    /// Models predicted.
    pub n: usize,
    /// Models left out of this fit for a missing target or feature, by name.
    pub excluded: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ci95: Option<Ci95>,
}

/// The overall gap: the macro operation score predicted from F.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MacroFit {
    /// How the macro score was formed, in words.
    pub definition: String,
    #[serde(flatten)]
    pub fit: Fit,
}

/// The training-mean baseline of reward prediction (Q² = 0 by definition).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub predicted: Vec<Option<f64>>,
    pub mae: Option<f64>,
    pub rmse: Option<f64>,
    pub q2: Option<f64>,
}

/// Nested penalty selection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Nested {
    pub predictors: String,
    pub candidates: Vec<f64>,
    /// The alpha chosen by the inner hold-outs, per outer fold id.
    pub chosen_alpha: IndexMap<String, f64>,
    pub predicted: Vec<Option<f64>>,
    pub spearman: Option<f64>,
    pub mae: Option<f64>,
    pub rmse: Option<f64>,
    pub q2: Option<f64>,
}

/// Reward prediction (Table 6, Figure 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub observed: Vec<Option<f64>>,
    pub baseline: Baseline,
    #[serde(rename = "F")]
    pub f: Fit,
    #[serde(rename = "O")]
    pub o: Fit,
    #[serde(rename = "F+O")]
    pub fo: Fit,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub nested: Option<Nested>,
}

/// A paired difference between two reward predictors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub mae: Option<f64>,
    pub rmse: Option<f64>,
    pub q2: Option<f64>,
    /// The models both predictors predict (with a reward): the only ones the
    /// difference and its interval are computed on (docs/decisions.md 21).
    #[serde(default)]
    pub n: usize,
    /// Models with a reward that one of the two predictors does not predict,
    /// left out of the difference, by name.
    #[serde(default)]
    pub excluded: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ci95: Option<Ci95>,
}

/// Metrics of one predictor along the penalty grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub mae: Vec<Option<f64>>,
    pub spearman: Vec<Option<f64>>,
    pub q2: Vec<Option<f64>>,
}

/// Penalty sensitivity of reward prediction (Figure 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sensitivity {
    pub alphas: Vec<f64>,
    /// The penalty of the main analysis, marked on the curves.
    pub reference_alpha: f64,
    #[serde(rename = "F")]
    pub f: Curve,
    #[serde(rename = "O")]
    pub o: Curve,
    #[serde(rename = "F+O")]
    pub fo: Curve,
}

impl SettingsReport {
    /// The settings that produced this report, validated again.
    pub fn to_settings(&self) -> Result<Settings, SettingsError> {
        let s = Settings {
            alpha: Alpha::new(self.alpha)?,
            bootstrap: self.bootstrap,
            seed: self.seed,
            macro_definition: self.macro_definition,
            grid: AlphaGrid::new(self.grid.lo, self.grid.hi, self.grid.points)?,
            nested: self.nested,
        };
        s.validate()?;
        Ok(s)
    }
}

/// Settings as reported, with the PRNG named.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingsReport {
    pub alpha: f64,
    pub bootstrap: usize,
    pub seed: u64,
    pub prng: String,
    #[serde(rename = "macro")]
    pub macro_definition: MacroDefinition,
    pub grid: AlphaGrid,
    pub nested: bool,
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
    pub settings: SettingsReport,
    pub correlations: Correlations,
    pub folds: Folds,
    pub operations: IndexMap<String, Fit>,
    #[serde(rename = "macro")]
    pub macro_fit: MacroFit,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub differences: Option<IndexMap<String, Difference>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sensitivity: Option<Sensitivity>,
    /// Association sensitivity for a pair the caller asked about
    /// ([`crate::assoc::association_sensitivity`]); not computed by [`analyze`].
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub association_sensitivity: Option<crate::assoc::AssociationSensitivity>,
    /// Models ranked by their foundational and operation means.
    pub rankings: Rankings,
    /// The table analysed (roles assigned), so that a report re-imported into
    /// the page or re-run reproduces itself.
    pub input: ProfileTable,
    /// The largest |gap| over the operations: the heatmap's symmetric scale.
    pub max_abs_gap: Option<f64>,
    pub warnings: Vec<String>,
}

/// "Profiles rank models differently": each model's mean foundational score
/// and mean operation score (unweighted, over the dimensions it has all of),
/// their ranks (1 = highest, ties averaged) and the rank correlation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rankings {
    pub foundational_mean: Vec<Option<f64>>,
    pub operation_mean: Vec<Option<f64>>,
    pub foundational_rank: Vec<Option<f64>>,
    pub operation_rank: Vec<Option<f64>>,
    /// Spearman between the two means over models with both.
    pub spearman: Option<f64>,
}

fn row_means(rows: &[Vec<Option<f64>>]) -> Vec<Option<f64>> {
    rows.iter()
        .map(|r| {
            let v: Option<Vec<f64>> = r.iter().copied().collect();
            v.and_then(|v| summary::mean(&v))
        })
        .collect()
}

/// Ranks with 1 for the highest value (ties averaged); missing stays missing.
fn descending_ranks(values: &[Option<f64>]) -> Vec<Option<f64>> {
    let present: Vec<f64> = values.iter().flatten().map(|v| -v).collect();
    let ranks = summary::average_ranks(&present);
    let mut it = ranks.into_iter();
    values.iter().map(|v| v.and_then(|_| it.next())).collect()
}

fn rankings(table: &ProfileTable) -> Rankings {
    let f = row_means(&table.foundational.values);
    let o = row_means(&table.operations.values);
    let (a, b) = summary::complete_pairs(&f, &o);
    Rankings {
        foundational_rank: descending_ranks(&f),
        operation_rank: descending_ranks(&o),
        spearman: summary::spearman(&a, &b),
        foundational_mean: f,
        operation_mean: o,
    }
}

/// Held-out predictions of one target from one feature set, for each penalty.
pub(crate) struct TargetFits {
    /// `[alpha][model]`
    pub(crate) predicted: Vec<Vec<Option<f64>>>,
    pub(crate) baseline: Vec<Option<f64>>,
    pub(crate) excluded: Vec<usize>,
}

/// Fit several targets from one feature set over the same folds; targets with
/// the same participating models share one design (and its factorizations).
pub(crate) fn fit_targets(
    features: &[Vec<Option<f64>>],
    targets: &[Vec<Option<f64>>],
    groups: &[usize],
    alphas: &[Alpha],
) -> Vec<TargetFits> {
    let n = groups.len();
    let (masks, classes) = mask_classes(features, targets);
    let mut out: Vec<Option<TargetFits>> = (0..targets.len()).map(|_| None).collect();
    for same in classes {
        let (rows, design) = masked_design(features, groups, &masks[same[0]]);
        let sums: Vec<_> = same
            .iter()
            .map(|&t| {
                design.target(
                    &rows
                        .iter()
                        .filter_map(|&i| targets[t][i])
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let fits = hold_out_each_group(&design, &sums, alphas);
        for (s, &t) in same.iter().enumerate() {
            let mut predicted = vec![vec![None; n]; alphas.len()];
            let mut baseline = vec![None; n];
            for (r, &i) in rows.iter().enumerate() {
                for (pa, fa) in predicted.iter_mut().zip(&fits.predicted) {
                    pa[i] = fa[s][r];
                }
                baseline[i] = fits.baseline[s][r];
            }
            out[t] = Some(TargetFits {
                predicted,
                baseline,
                excluded: (0..n).filter(|&i| !masks[t][i]).collect(),
            });
        }
    }
    out.into_iter().flatten().collect()
}

/// Held-out gaps of many targets over one foundational profile at once:
/// `out[t][model]` = observed − the family-held-out ridge prediction (the
/// same folds, fits and subtraction as [`analyze`]'s operation gaps), `None`
/// where either is undefined. Targets with the same missing cells share one
/// design, so thousands of bootstrap targets cost one factorization per fold
/// (cross-task stability's bootstrap).
pub fn held_out_gaps(
    table: &ProfileTable,
    targets: &[Vec<Option<f64>>],
    alpha: Alpha,
) -> Vec<Vec<Option<f64>>> {
    let folds = Folds::for_models(&table.models, &table.families);
    let groups = folds.group_index();
    let f_rows = &table.foundational.values;
    let mut by_mask: IndexMap<Vec<bool>, Vec<usize>> = IndexMap::new();
    for (t, y) in targets.iter().enumerate() {
        by_mask.entry(mask(f_rows, y)).or_default().push(t);
    }
    let mut out: Vec<Vec<Option<f64>>> = vec![Vec::new(); targets.len()];
    for members in by_mask.values() {
        let same: Vec<Vec<Option<f64>>> = members.iter().map(|&t| targets[t].clone()).collect();
        let fits = fit_targets(f_rows, &same, &groups, &[alpha]);
        for ((&t, fit), y) in members.iter().zip(fits).zip(&same) {
            out[t] = y
                .iter()
                .zip(&fit.predicted[0])
                .map(|(o, p)| Some((*o)? - (*p)?))
                .collect();
        }
    }
    out
}

/// The names of the models whose value is missing, comma-separated; `None`
/// when every value is present.
fn missing_names(values: &[Option<f64>], models: &[String]) -> Option<String> {
    let names: Vec<&str> = values
        .iter()
        .zip(models)
        .filter(|(v, _)| v.is_none())
        .map(|(_, m)| m.as_str())
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// The training-mean baseline per model: the mean of `y` over the models with
/// `y` outside the model's fold.
fn fold_baseline(y: &[Option<f64>], groups: &[usize]) -> Vec<Option<f64>> {
    (0..y.len())
        .map(|i| {
            y[i]?;
            let train: Vec<f64> = (0..y.len())
                .filter(|&j| groups[j] != groups[i])
                .filter_map(|j| y[j])
                .collect();
            summary::mean(&train)
        })
        .collect()
}

fn make_fit(
    observed: &[Option<f64>],
    predicted: Vec<Option<f64>>,
    baseline: Vec<Option<f64>>,
    excluded: &[usize],
    models: &[String],
) -> Fit {
    let m = Metrics::compute(observed, &predicted, &baseline);
    let gap = observed
        .iter()
        .zip(&predicted)
        .map(|(o, p)| Some((*o)? - (*p)?))
        .collect();
    Fit {
        observed: observed.to_vec(),
        predicted,
        gap,
        baseline,
        q2: m.q2,
        mae: m.mae,
        rmse: m.rmse,
        spearman: m.spearman,
        baseline_mae: m.baseline_mae,
        n: m.n,
        excluded: excluded.iter().map(|&i| models[i].clone()).collect(),
        ci95: None,
    }
}

pub(crate) fn concat_rows(a: &[Vec<Option<f64>>], b: &[Vec<Option<f64>>]) -> Vec<Vec<Option<f64>>> {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.iter().chain(y).copied().collect())
        .collect()
}

/// Where a running analysis is, for a progress bar: step `step` of `of`
/// (1-based), about to do `label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub step: u32,
    pub of: u32,
    pub label: &'static str,
}

/// The analysis' stages, in order (`Stage::step` indexes this list from 1).
pub const STAGES: [&str; 6] = [
    "correlations",
    "held-out fits of the operations",
    "reward from F",
    "reward from O",
    "reward from F+O",
    "nested selection",
];

fn stage(progress: &mut dyn FnMut(Stage), i: usize) {
    progress(Stage {
        step: i as u32 + 1,
        of: STAGES.len() as u32,
        label: STAGES[i],
    });
}

/// Run the analysis.
pub fn analyze(table: &ProfileTable, settings: &Settings) -> Result<Report, AnalysisError> {
    analyze_with_progress(table, settings, &mut |_| {})
}

/// The macro operation score of every model, the overall gap's target:
/// the unweighted mean of its operation scores (none when one is missing),
/// or the pooled macro the table carries.
pub(crate) fn macro_target(
    table: &ProfileTable,
    definition: MacroDefinition,
) -> Result<Vec<Option<f64>>, AnalysisError> {
    let q = table.operations.names.len();
    match definition {
        MacroDefinition::Mean => Ok(table
            .operations
            .values
            .iter()
            .map(|row| {
                row.iter()
                    .copied()
                    .collect::<Option<Vec<f64>>>()
                    .map(|v| v.iter().sum::<f64>() / q as f64)
            })
            .collect()),
        MacroDefinition::Pooled => table
            .pooled_macro
            .clone()
            .ok_or(AnalysisError::NoPooledMacro),
    }
}

/// What every analysis of `table` needs: valid settings, a foundational
/// and an operation dimension, three models, a table within the limits.
pub(crate) fn check_input(table: &ProfileTable, settings: &Settings) -> Result<(), AnalysisError> {
    settings.validate()?;
    let n = table.n_models();
    if table.foundational.names.is_empty() {
        return Err(AnalysisError::NoFoundational);
    }
    if table.operations.names.is_empty() {
        return Err(AnalysisError::NoOperations);
    }
    if n < 3 {
        return Err(AnalysisError::TooFewModels(n));
    }
    if let Some(e) = too_large(table) {
        return Err(e);
    }
    Ok(())
}

/// [`analyze`], telling `progress` before each stage of [`STAGES`] (stages
/// that do not apply, e.g. reward prediction without a reward, are skipped).
#[allow(
    clippy::too_many_lines,
    reason = "the report's stages in the order of STAGES, each telling progress; splitting would thread a dozen intermediate results through helpers"
)]
pub fn analyze_with_progress(
    table: &ProfileTable,
    settings: &Settings,
    progress: &mut dyn FnMut(Stage),
) -> Result<Report, AnalysisError> {
    check_input(table, settings)?;
    let n = table.n_models();
    let p = table.foundational.names.len();
    let q = table.operations.names.len();
    let mut warnings = Vec::new();
    let models = &table.models;
    let f_rows = &table.foundational.values;
    let o_rows = &table.operations.values;

    // Association.
    stage(progress, 0);
    let f_cols: Vec<Vec<Option<f64>>> = (0..p).map(|j| table.foundational.column(j)).collect();
    let o_cols: Vec<Vec<Option<f64>>> = (0..q).map(|k| table.operations.column(k)).collect();
    let mut pearson = vec![vec![None; q]; p];
    let mut spearman = vec![vec![None; q]; p];
    let mut counts = vec![vec![0; q]; p];
    for j in 0..p {
        for k in 0..q {
            let (a, b) = summary::complete_pairs(&f_cols[j], &o_cols[k]);
            pearson[j][k] = summary::pearson(&a, &b);
            spearman[j][k] = summary::spearman(&a, &b);
            counts[j][k] = a.len();
        }
    }

    // Folds and the bootstrap plan shared by every interval (paired differences).
    let folds = Folds::for_models(models, &table.families);
    if let Some(note) = &folds.note {
        warnings.push(note.clone());
    }
    warnings.extend(crate::checks::table_warnings(table));
    warnings.extend(reward_out_of_range(table));
    let groups = folds.group_index();
    let n_groups = groups.iter().max().map_or(0, |g| g + 1);
    if settings.nested && table.reward.is_some() && n_groups > MAX_NESTED_FOLDS {
        return Err(AnalysisError::TooManyFoldsForNested(n_groups));
    }
    let boot = (settings.bootstrap > 0)
        .then(|| GroupBootstrap::new(n_groups, settings.bootstrap, settings.seed));
    let alpha = [settings.alpha];
    stage(progress, 1);

    // Operations and the macro score from F (one design when nothing is missing).
    let macro_observed = macro_target(table, settings.macro_definition)?;
    let mut targets = o_cols.clone();
    targets.push(macro_observed.clone());
    let fits = fit_targets(f_rows, &targets, &groups, &alpha);
    let mut operations = IndexMap::new();
    let mut max_abs_gap: Option<f64> = None;
    for (k, name) in table.operations.names.iter().enumerate() {
        let tf = &fits[k];
        let fit = make_fit(
            &o_cols[k],
            tf.predicted[0].clone(),
            tf.baseline.clone(),
            &tf.excluded,
            models,
        );
        if !fit.excluded.is_empty() {
            warnings.push(format!(
                "operation {name}: left out of the fit for a missing value: {}",
                fit.excluded.join(", ")
            ));
        }
        for g in fit.gap.iter().flatten() {
            max_abs_gap = Some(max_abs_gap.map_or(g.abs(), |m: f64| m.max(g.abs())));
        }
        operations.insert(name.clone(), fit);
    }
    let tf = &fits[q];
    let macro_fit = make_fit(
        &macro_observed,
        tf.predicted[0].clone(),
        tf.baseline.clone(),
        &tf.excluded,
        models,
    );
    if let Some(names) = missing_names(&macro_observed, models) {
        warnings.push(match settings.macro_definition {
            MacroDefinition::Mean => format!(
                "macro operation score: undefined for models missing an operation: {names}"
            ),
            MacroDefinition::Pooled => format!(
                "macro operation score (pooled): undefined for models with no applicable label: {names}"
            ),
        });
    }
    let macro_fit = MacroFit {
        definition: match settings.macro_definition {
            MacroDefinition::Mean => format!(
                "unweighted mean of the {q} operation scores ({})",
                table.operations.names.join(", ")
            ),
            MacroDefinition::Pooled => format!(
                "pooled: 100 × mean over each model's trajectories of the mean of all their applicable labels ({})",
                table.operations.names.join(", ")
            ),
        },
        fit: macro_fit,
    };

    // Reward prediction, its differences, sensitivity, nested selection.
    let (mut outcome, mut differences, mut sensitivity) = (None, None, None);
    let mut difference_requests = Vec::new();
    if let Some(y) = &table.reward {
        let grid = settings.grid.alphas();
        let mut alphas = vec![settings.alpha];
        alphas.extend(grid.iter().copied());
        let fo_rows = concat_rows(f_rows, o_rows);
        let fit_predictor = |features: &[Vec<Option<f64>>]| -> (Fit, Curve) {
            let tf = fit_targets(features, std::slice::from_ref(y), &groups, &alphas).remove(0);
            let fit = make_fit(
                y,
                tf.predicted[0].clone(),
                tf.baseline.clone(),
                &tf.excluded,
                models,
            );
            let metrics: Vec<Metrics> = (1..alphas.len())
                .map(|a| Metrics::compute(y, &tf.predicted[a], &tf.baseline))
                .collect();
            let curve = Curve {
                mae: metrics.iter().map(|m| m.mae).collect(),
                spearman: metrics.iter().map(|m| m.spearman).collect(),
                q2: metrics.iter().map(|m| m.q2).collect(),
            };
            (fit, curve)
        };
        stage(progress, 2);
        let (ff, cf) = fit_predictor(f_rows);
        stage(progress, 3);
        let (fo_fit, co) = fit_predictor(o_rows);
        stage(progress, 4);
        let (ffo, cfo) = fit_predictor(&fo_rows);
        if let Some(names) = missing_names(y, models) {
            warnings.push(format!(
                "reward: missing for {names}; left out of reward prediction"
            ));
        }
        let base = fold_baseline(y, &groups);
        let bm = Metrics::compute(y, &base, &base);
        let baseline = Baseline {
            predicted: base,
            mae: bm.mae,
            rmse: bm.rmse,
            q2: bm.q2,
        };
        let nested = settings.nested.then(|| {
            stage(progress, 5);
            let (predicted, chosen_alpha) = nested_selection(&fo_rows, y, &groups, &folds.ids);
            let m = Metrics::compute(y, &predicted, &ffo.baseline);
            Nested {
                predictors: "F+O".into(),
                candidates: NESTED_CANDIDATES.to_vec(),
                chosen_alpha,
                predicted,
                spearman: m.spearman,
                mae: m.mae,
                rmse: m.rmse,
                q2: m.q2,
            }
        });
        // Paired differences only on the models every compared predictor
        // covers: each predictor keeps its own fitted predictions and
        // baselines, restricted to the common models (docs/decisions.md 21).
        let covered = |fits: &[&Fit]| -> Vec<bool> {
            (0..n)
                .map(|i| {
                    y[i].is_some()
                        && fits
                            .iter()
                            .all(|f| f.predicted[i].is_some() && f.baseline[i].is_some())
                })
                .collect()
        };
        let restrict = |v: &[Option<f64>], keep: &[bool]| -> Vec<Option<f64>> {
            v.iter()
                .zip(keep)
                .map(|(x, &k)| if k { *x } else { None })
                .collect()
        };
        let mut diffs = IndexMap::new();
        for (label, fa, fb) in [
            ("F+O - F", &ffo, &ff),
            ("O - F", &fo_fit, &ff),
            ("F+O - O", &ffo, &fo_fit),
        ] {
            let keep = covered(&[fa, fb]);
            let (pa, ba) = (
                restrict(&fa.predicted, &keep),
                restrict(&fa.baseline, &keep),
            );
            let (pb, bb) = (
                restrict(&fb.predicted, &keep),
                restrict(&fb.baseline, &keep),
            );
            let (ma, mb) = (Metrics::compute(y, &pa, &ba), Metrics::compute(y, &pb, &bb));
            let sub = |x: Option<f64>, y: Option<f64>| Some(x? - y?);
            if let Some(boot) = &boot {
                difference_requests.push(boot.paired_request(&groups, y, (&pa, &ba), (&pb, &bb)));
            }
            let excluded: Vec<String> = (0..n)
                .filter(|&i| {
                    !keep[i]
                        && y[i].is_some()
                        && (fa.predicted[i].is_some() || fb.predicted[i].is_some())
                })
                .map(|i| models[i].clone())
                .collect();
            diffs.insert(
                label.to_string(),
                Difference {
                    mae: sub(ma.mae, mb.mae),
                    rmse: sub(ma.rmse, mb.rmse),
                    q2: sub(ma.q2, mb.q2),
                    n: ma.n,
                    excluded,
                    ci95: None,
                },
            );
        }
        if ff.n != fo_fit.n || ff.n != ffo.n {
            let keep = covered(&[&ff, &fo_fit, &ffo]);
            let common = keep.iter().filter(|&&k| k).count();
            let left: Vec<&str> = (0..n)
                .filter(|&i| {
                    !keep[i]
                        && [&ff, &fo_fit, &ffo]
                            .iter()
                            .any(|f| f.predicted[i].is_some())
                })
                .map(|i| models[i].as_str())
                .collect();
            warnings.push(format!(
                "reward predictors cover different models (F {}, O {}, F+O {}): each predictor's metrics are over its own models; paired differences are taken only on the {common} model{} both compared predictors cover (left out of some: {})",
                ff.n,
                fo_fit.n,
                ffo.n,
                gapscope_data::profile::plural(common),
                left.join(", ")
            ));
        }
        sensitivity = Some(Sensitivity {
            alphas: grid.iter().map(|a| a.get()).collect(),
            reference_alpha: settings.alpha.get(),
            f: cf,
            o: co,
            fo: cfo,
        });
        outcome = Some(Outcome {
            observed: y.clone(),
            baseline,
            f: ff,
            o: fo_fit,
            fo: ffo,
            nested,
        });
        differences = Some(diffs);
    }

    // Every interval over the same draws, in one pass.
    let mut macro_fit = macro_fit;
    if let Some(boot) = &boot {
        let mut fits: Vec<&mut Fit> = operations.values_mut().collect();
        fits.push(&mut macro_fit.fit);
        if let Some(o) = outcome.as_mut() {
            fits.extend([&mut o.f, &mut o.o, &mut o.fo]);
        }
        let mut requests: Vec<Request> = fits
            .iter()
            .map(|f| boot.request(&groups, &f.observed, &f.predicted, &f.baseline))
            .collect();
        requests.append(&mut difference_requests);
        let mut intervals = boot.batch(&requests).into_iter();
        for (fit, iv) in fits.into_iter().zip(intervals.by_ref()) {
            fit.ci95 = Some(Ci95::from_intervals(boot.draws(), iv));
        }
        for (d, iv) in differences
            .iter_mut()
            .flat_map(|d| d.values_mut())
            .zip(intervals)
        {
            d.ci95 = Some(Ci95::from_intervals(boot.draws(), iv));
        }
    }

    let report = Report {
        tool: "gapscope".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        summary: table.summary(),
        models: models.clone(),
        families: table.families.clone(),
        dimensions: Dimensions {
            foundational: table.foundational.names.clone(),
            operations: table.operations.names.clone(),
        },
        settings: SettingsReport {
            alpha: settings.alpha.get(),
            bootstrap: settings.bootstrap,
            seed: settings.seed,
            prng: PRNG.into(),
            macro_definition: settings.macro_definition,
            grid: settings.grid,
            nested: settings.nested,
        },
        correlations: Correlations {
            pearson,
            spearman,
            n: counts,
        },
        folds,
        operations,
        macro_fit,
        outcome,
        differences,
        sensitivity,
        association_sensitivity: None,
        rankings: rankings(table),
        input: table.clone(),
        max_abs_gap,
        warnings,
    };
    match non_finite(&report) {
        Some(what) => Err(AnalysisError::NonFinite(what)),
        None => Ok(report),
    }
}
