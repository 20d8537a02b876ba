//! M(c) and the across analysis (addendum §3; Tables 12, 21, Fig. 3).
//!
//! Columns are slices of one family that differ only in the `--across`
//! fields (seed; base model and rollout); the caller builds each column's
//! base-condition cells ([`Column`]). Every column is analysed on the common
//! ids I (present in every column, base condition and cap ∈ {c_tight,
//! c_slack}), or with [`AcrossSettings::own_ids`] on its own shared ids, and
//! every statistic of a column is paired: one draw of its ids serves every
//! term (the same seed, n and hence indices for every row). The pooled column
//! is clustered by instance on I, or stratified by column with own ids or an
//! empty I ([`Pooling`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::log::Condition;
use crate::metrics::{self, Cell, Contrast};

/// Per-instance cells of one slice, keyed (base condition, cap).
pub type Cells = BTreeMap<(Condition, u32), Cell>;

/// M(c) = Q_PS(c) − Q_SS(c) of one slice at one cap, on the ids P→S and S→S
/// share, paired (addendum §3).
pub fn m_contrast(cells: &Cells, cap: u32, draws: usize, seed: u64) -> Contrast {
    metrics::contrast(
        format!("Q_PS({cap}) - Q_SS({cap})"),
        &[
            (1.0, cells.get(&(Condition::PS, cap))),
            (-1.0, cells.get(&(Condition::SS, cap))),
        ],
        draws,
        seed,
    )
}

/// The mean (`+ 0.0` turns the −0 of an empty sum into 0); `None` when empty.
pub(crate) fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64 + 0.0)
}

/// `Σ coef × cell[id]` for each of `ids` (every term's cell must hold every
/// id), as a [`Contrast`] with its per-id values: value and paired interval
/// on `ids` (one draw of them for every term), `from_table_means` from each
/// full cell's own mean. Terms are summed in the given order, as
/// [`metrics::contrast`] does.
pub(crate) fn paired_on(
    formula: String,
    terms: &[(f64, &Cell)],
    ids: &[String],
    draws: usize,
    seed: u64,
) -> (Contrast, Option<Vec<f64>>) {
    let v: Option<Vec<f64>> = ids
        .iter()
        .map(|id| terms.iter().map(|(k, c)| c.get(id).map(|x| k * x)).sum())
        .collect();
    let from_table_means = terms
        .iter()
        .map(|(k, c)| mean(&c.values().copied().collect::<Vec<_>>()).map(|m| k * m))
        .sum::<Option<f64>>();
    let (value, ci95) = match &v {
        Some(v) => (mean(v), metrics::bootstrap_mean(v, draws, seed)),
        None => (None, None),
    };
    (
        Contrast {
            formula,
            value,
            ci95,
            n_shared: v.as_ref().map_or(0, Vec::len),
            from_table_means,
        },
        v,
    )
}

/// One column of the across analysis: a slice's base-condition cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// e.g. `seed 0` or `base model m · rollout 1`.
    pub name: String,
    /// Per-instance cells keyed (base condition, cap).
    pub cells: Cells,
}

/// The across analysis' settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcrossSettings {
    /// The tight cap (must be in every column).
    pub c_tight: u32,
    /// The slack cap (must be in every column).
    pub c_slack: u32,
    /// `--common-ids`: a pre-specified set intersected with I.
    pub common_ids: Option<Vec<String>>,
    /// `--own-ids`: each column on its own shared ids (stratified pooling).
    pub own_ids: bool,
    /// Bootstrap draws B (0: no intervals).
    pub draws: usize,
    /// Bootstrap seed.
    pub seed: u64,
}

/// Why the across analysis cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AcrossError {
    /// No column was given.
    #[error("the across analysis needs at least one column")]
    NoColumns,
    /// A column has no cell at c_tight or c_slack.
    #[error("column `{column}` has no episode at {which} = {cap}: c_tight and c_slack must exist in every column")]
    MissingCap {
        /// The column's name.
        column: String,
        /// `c_tight` or `c_slack`.
        which: String,
        /// The cap.
        cap: u32,
    },
}

/// Which ids the columns were analysed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdBasis {
    /// The common ids I.
    Common,
    /// Each column's own shared ids, as asked (`--own-ids`).
    Own,
    /// Each column's own shared ids, because I is empty.
    OwnBecauseNoCommonId,
}

/// How the pooled column is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pooling {
    /// p_i = mean over columns of k_{r,i}; K̄ = mean over I of p_i; interval:
    /// the bootstrap of the mean of p_i (one id draw for all columns).
    ClusteredByInstance,
    /// K̄ = Σ_r Σ_{i∈I_r} k_{r,i} / Σ_r n_r; each draw resamples n_r ids
    /// within each column r, column r from its own stream
    /// (`ChaCha8Rng::seed_from_u64(seed + r)`, r = 0, 1, … in column order,
    /// wrapping; draw by draw, n_r `random_range(0..n_r)` on u32, as every
    /// interval here), and divides the sum of the drawn values by Σ_r n_r.
    StratifiedByColumn,
}

impl Pooling {
    /// `clustered by instance` or `stratified by column`.
    pub fn method(self) -> &'static str {
        match self {
            Pooling::ClusteredByInstance => "clustered by instance",
            Pooling::StratifiedByColumn => "stratified by column",
        }
    }
}

/// The pooled column of one statistic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pooled {
    /// K̄; `None` without any id.
    pub value: Option<f64>,
    /// Its 95% interval.
    pub ci95: Option<[f64; 2]>,
    /// Ids: |I| (clustered) or Σ_r n_r (stratified).
    pub n: usize,
}

/// One statistic across the columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcrossRow {
    /// e.g. `Q_PP(25)`, `D(80)`, `G_P(25)`, `amplification`, `M(80)`, `T`.
    pub statistic: String,
    /// Per column, in column order (paired on the column's ids).
    pub columns: Vec<Contrast>,
    /// Columns whose value is above 0.
    pub positive: usize,
    /// Columns whose value is defined.
    pub defined: usize,
    /// Columns whose interval lies entirely above 0.
    pub above_zero: usize,
    /// Columns whose interval lies entirely below 0.
    pub below_zero: usize,
    /// e.g. `T > 0 in 3 of 4 columns`.
    pub summary: String,
    /// The pooled column.
    pub pooled: Pooled,
}

/// One column's name and the ids it was analysed on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcrossColumn {
    /// The column's name.
    pub name: String,
    /// Its ids: I, or its own shared ids.
    pub n_ids: usize,
}

/// The across analysis (Tables 12, 21).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcrossReport {
    /// The columns, in the order given.
    pub columns: Vec<AcrossColumn>,
    /// The tight cap.
    pub c_tight: u32,
    /// The slack cap.
    pub c_slack: u32,
    /// I (after intersecting with the requested ids, if any), sorted as text.
    pub common_ids: Vec<String>,
    /// Requested ids not found: not in I, or with own ids in no column's own
    /// set; in the order given.
    pub requested_not_found: Vec<String>,
    /// Which ids the columns use.
    pub basis: IdBasis,
    /// How the pooled column is formed.
    pub pooling: Pooling,
    /// `clustered by instance` or `stratified by column`.
    pub method: String,
    /// Q_XY(c_tight), Q_XY(c_slack) for the four conditions, D(c_tight),
    /// D(c_slack), G_P(c_tight), G_P(c_slack), amplification, M(c_tight),
    /// M(c_slack), T.
    pub rows: Vec<AcrossRow>,
    /// What the reader should know (e.g. I empty).
    pub warnings: Vec<String>,
}

/// A statistic: a name and its terms (coefficient, condition, cap).
struct Stat {
    name: String,
    formula: String,
    terms: Vec<(f64, Condition, u32)>,
}

fn cond_short(c: Condition) -> &'static str {
    match c {
        Condition::PP => "PP",
        Condition::PS => "PS",
        Condition::SP => "SP",
        Condition::SS => "SS",
    }
}

/// The rows of the report, with terms in the order of the slice report's
/// contrasts (so values agree bit for bit).
fn stats(t: u32, s: u32) -> Vec<Stat> {
    let gp = |c: u32, k: f64| vec![(k, Condition::PP, c), (-k, Condition::PS, c)];
    let gs = |c: u32, k: f64| vec![(k, Condition::SS, c), (-k, Condition::SP, c)];
    let d = |c: u32, k: f64| [gp(c, k), gs(c, k)].concat();
    let mut out = Vec::new();
    for cap in [t, s] {
        for c in Condition::ALL {
            let name = format!("Q_{}({cap})", cond_short(c));
            out.push(Stat {
                formula: name.clone(),
                name,
                terms: vec![(1.0, c, cap)],
            });
        }
    }
    for cap in [t, s] {
        out.push(Stat {
            name: format!("D({cap})"),
            formula: format!("(Q_PP({cap}) - Q_PS({cap})) - (Q_SP({cap}) - Q_SS({cap}))"),
            terms: d(cap, 1.0),
        });
    }
    for cap in [t, s] {
        out.push(Stat {
            name: format!("G_P({cap})"),
            formula: format!("Q_PP({cap}) - Q_PS({cap})"),
            terms: gp(cap, 1.0),
        });
    }
    out.push(Stat {
        name: "amplification".into(),
        formula: format!("G_P({t}) - G_P({s})"),
        terms: [gp(t, 1.0), gp(s, -1.0)].concat(),
    });
    for cap in [t, s] {
        out.push(Stat {
            name: format!("M({cap})"),
            formula: format!("Q_PS({cap}) - Q_SS({cap})"),
            terms: vec![(1.0, Condition::PS, cap), (-1.0, Condition::SS, cap)],
        });
    }
    out.push(Stat {
        name: "T".into(),
        formula: format!("D({t}) - D({s})"),
        terms: [d(t, 1.0), d(s, -1.0)].concat(),
    });
    out
}

/// The ids present in every base condition's cell at both caps of a column.
fn shared_ids(cells: &Cells, caps: [u32; 2]) -> BTreeSet<String> {
    let mut keys = Condition::ALL
        .iter()
        .flat_map(|&c| caps.iter().map(move |&cap| cells.get(&(c, cap))));
    let Some(Some(first)) = keys.next() else {
        return BTreeSet::new();
    };
    let mut ids: BTreeSet<String> = first.keys().cloned().collect();
    for cell in keys {
        match cell {
            Some(cell) => ids.retain(|id| cell.contains_key(id)),
            None => ids.clear(),
        }
    }
    ids
}

/// The across analysis of `columns` (addendum §3).
pub fn across(columns: &[Column], settings: &AcrossSettings) -> Result<AcrossReport, AcrossError> {
    if columns.is_empty() {
        return Err(AcrossError::NoColumns);
    }
    let (t, s) = (settings.c_tight, settings.c_slack);
    for col in columns {
        for (which, cap) in [("c_tight", t), ("c_slack", s)] {
            if !col.cells.keys().any(|&(_, c)| c == cap) {
                return Err(AcrossError::MissingCap {
                    column: col.name.clone(),
                    which: which.into(),
                    cap,
                });
            }
        }
    }
    let mut warnings = Vec::new();
    let own: Vec<BTreeSet<String>> = columns
        .iter()
        .map(|c| shared_ids(&c.cells, [t, s]))
        .collect();
    let mut common: BTreeSet<String> = own[0].clone();
    for o in &own[1..] {
        common.retain(|id| o.contains(id));
    }
    let mut requested_not_found = Vec::new();
    let mut own = own;
    if let Some(req) = &settings.common_ids {
        let wanted: BTreeSet<&String> = req.iter().collect();
        let mut seen = BTreeSet::new();
        for id in req {
            let found = if settings.own_ids {
                own.iter().any(|o| o.contains(id))
            } else {
                common.contains(id)
            };
            if !found && seen.insert(id) {
                requested_not_found.push(id.clone());
            }
        }
        common.retain(|id| wanted.contains(id));
        for o in &mut own {
            o.retain(|id| wanted.contains(id));
        }
        if !requested_not_found.is_empty() {
            warnings.push(format!(
                "{} requested id(s) not found: {}",
                requested_not_found.len(),
                requested_not_found.join(", ")
            ));
        }
    }
    let basis = if settings.own_ids {
        IdBasis::Own
    } else if common.is_empty() {
        warnings.push(
            "no instance id is common to every column, base condition and cap: each column uses its own shared ids and the pooled column is stratified by column".into(),
        );
        IdBasis::OwnBecauseNoCommonId
    } else {
        IdBasis::Common
    };
    let pooling = match basis {
        IdBasis::Common => Pooling::ClusteredByInstance,
        IdBasis::Own | IdBasis::OwnBecauseNoCommonId => Pooling::StratifiedByColumn,
    };
    let common: Vec<String> = common.into_iter().collect();
    let ids: Vec<Vec<String>> = match basis {
        IdBasis::Common => vec![common.clone(); columns.len()],
        IdBasis::Own | IdBasis::OwnBecauseNoCommonId => {
            own.into_iter().map(|o| o.into_iter().collect()).collect()
        }
    };
    for (col, ids) in columns.iter().zip(&ids) {
        if ids.is_empty() {
            warnings.push(format!(
                "column `{}` has no id in every base condition at caps {t} and {s}: its values are undefined",
                col.name
            ));
        }
    }
    let empty = Cell::new();
    let (draws, seed) = (settings.draws, settings.seed);
    let rows = stats(t, s)
        .into_iter()
        .map(|st| {
            let mut contrasts = Vec::with_capacity(columns.len());
            let mut values: Vec<Vec<f64>> = Vec::with_capacity(columns.len());
            for (col, ids) in columns.iter().zip(&ids) {
                let terms: Vec<(f64, &Cell)> = st
                    .terms
                    .iter()
                    .map(|&(k, c, cap)| (k, col.cells.get(&(c, cap)).unwrap_or(&empty)))
                    .collect();
                let (contrast, v) = paired_on(st.formula.clone(), &terms, ids, draws, seed);
                contrasts.push(contrast);
                values.push(v.unwrap_or_default());
            }
            let pooled = match pooling {
                Pooling::ClusteredByInstance => clustered(&values, draws, seed),
                Pooling::StratifiedByColumn => stratified(&values, draws, seed),
            };
            row(st.name, contrasts, pooled)
        })
        .collect();
    Ok(AcrossReport {
        columns: columns
            .iter()
            .zip(&ids)
            .map(|(c, ids)| AcrossColumn {
                name: c.name.clone(),
                n_ids: ids.len(),
            })
            .collect(),
        c_tight: t,
        c_slack: s,
        common_ids: common,
        requested_not_found,
        basis,
        pooling,
        method: pooling.method().into(),
        rows,
        warnings,
    })
}

/// Counts over the columns and the row's summary.
fn row(statistic: String, columns: Vec<Contrast>, pooled: Pooled) -> AcrossRow {
    let positive = columns
        .iter()
        .filter(|c| c.value.is_some_and(|v| v > 0.0))
        .count();
    let defined = columns.iter().filter(|c| c.value.is_some()).count();
    let above_zero = columns
        .iter()
        .filter(|c| c.ci95.is_some_and(|[lo, _]| lo > 0.0))
        .count();
    let below_zero = columns
        .iter()
        .filter(|c| c.ci95.is_some_and(|[_, hi]| hi < 0.0))
        .count();
    let r = columns.len();
    let mut summary = format!("{statistic} > 0 in {positive} of {r} column{}", plural(r));
    if defined < r {
        summary.push_str(&format!(" ({defined} defined)"));
    }
    AcrossRow {
        statistic,
        columns,
        positive,
        defined,
        above_zero,
        below_zero,
        summary,
        pooled,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Clustered by instance: every column holds the same ids in the same
/// order; p_i is the mean over columns, K̄ the mean of p_i, the interval the
/// bootstrap of that mean (the same draw as every column's terms).
fn clustered(values: &[Vec<f64>], draws: usize, seed: u64) -> Pooled {
    let n = values.first().map_or(0, Vec::len);
    let r = values.len() as f64;
    // Every column holds a value for every id of I (I is in all its cells);
    // were one missing, the pool would be undefined, not a partial mean.
    let p: Vec<f64> = (0..n)
        .map(|i| {
            values
                .iter()
                .map(|v| v.get(i).copied())
                .sum::<Option<f64>>()
                .map(|s| s / r)
        })
        .collect::<Option<Vec<f64>>>()
        .unwrap_or_default();
    let n = p.len();
    Pooled {
        value: mean(&p),
        ci95: metrics::bootstrap_mean(&p, draws, seed),
        n,
    }
}

/// Stratified by column ([`Pooling::StratifiedByColumn`]).
fn stratified(values: &[Vec<f64>], draws: usize, seed: u64) -> Pooled {
    let total: usize = values.iter().map(Vec::len).sum();
    let value = (total > 0).then(|| values.iter().flatten().sum::<f64>() / total as f64 + 0.0);
    let ci95 = if total > 0 && draws > 0 {
        let mut sums = vec![0.0; draws];
        for (r, v) in values.iter().enumerate() {
            let mut b = 0;
            // The statistic is accumulated beside the call; its own
            // interval (of zeros) is not used.
            let _ = gapscope_stats::paired::bootstrap_statistic(
                v.len(),
                draws,
                seed.wrapping_add(r as u64),
                |picks| {
                    if let Some(slot) = sums.get_mut(b) {
                        *slot += picks.iter().map(|&i| v[i as usize]).sum::<f64>();
                    }
                    b += 1;
                    Some(0.0)
                },
            );
        }
        let stat: Vec<f64> = sums.iter().map(|x| x / total as f64).collect();
        gapscope_stats::bootstrap::interval95(&stat)
    } else {
        None
    };
    Pooled {
        value,
        ci95,
        n: total,
    }
}

#[cfg(test)]
mod tests;
