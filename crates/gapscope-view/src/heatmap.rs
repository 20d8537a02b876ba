//! Heatmaps built from a core [`Report`]: the gap heatmap (model ×
//! operation) and the correlation heatmap (foundational × operation), each
//! cell with its fill, ink, label and hover text.

use gapscope_gaps::Report;

use crate::colour::{diverging, ink};
use crate::format::fmt;

/// One heatmap cell.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatCell {
    pub value: Option<f64>,
    /// The short text shown in the cell.
    pub label: String,
    /// The hover text.
    pub detail: String,
    pub fill: String,
    pub ink: &'static str,
}

/// A labelled matrix with a symmetric diverging scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    /// A line under each column label (e.g. the operation's Q²).
    pub col_notes: Vec<String>,
    pub cells: Vec<Vec<HeatCell>>,
    /// The colour scale runs from `-scale` to `+scale`.
    pub scale: f64,
}

/// Models × operations realization gaps; one symmetric scale, ± the largest |gap|.
pub fn gap_heatmap(report: &Report) -> Heatmap {
    let scale = report.max_abs_gap.unwrap_or(0.0);
    let cols: Vec<String> = report.operations.keys().cloned().collect();
    let col_notes = report
        .operations
        .values()
        .map(|fit| format!("Q² {}", fmt(fit.q2, 2)))
        .collect();
    let cells = (0..report.models.len())
        .map(|i| {
            report
                .operations
                .iter()
                .map(|(op, fit)| {
                    let gap = fit.gap[i];
                    let detail = match gap {
                        Some(_) => format!(
                            "{} · {op}\nobserved {}\npredicted {}\ngap {}",
                            report.models[i],
                            fmt(fit.observed[i], 1),
                            fmt(fit.predicted[i], 2),
                            fmt(gap, 2)
                        ),
                        None => format!(
                            "{} · {op}\nno gap: {}",
                            report.models[i],
                            if fit.observed[i].is_none() {
                                "the operation score is missing"
                            } else {
                                "a foundational value is missing, so the model was left out of this fit"
                            }
                        ),
                    };
                    HeatCell {
                        value: gap,
                        label: fmt(gap, 1),
                        detail,
                        fill: diverging(gap, scale),
                        ink: ink(gap, scale),
                    }
                })
                .collect()
        })
        .collect();
    Heatmap {
        rows: report.models.clone(),
        cols,
        col_notes,
        cells,
        scale,
    }
}

/// Which correlation the association heatmap shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorrelationKind {
    Pearson,
    Spearman,
}

impl CorrelationKind {
    pub fn label(self) -> &'static str {
        match self {
            CorrelationKind::Pearson => "Pearson r",
            CorrelationKind::Spearman => "Spearman ρ",
        }
    }
}

/// Foundational (rows) × operation (columns) correlations on the fixed scale ±1.
pub fn correlation_heatmap(report: &Report, kind: CorrelationKind) -> Heatmap {
    let matrix = match kind {
        CorrelationKind::Pearson => &report.correlations.pearson,
        CorrelationKind::Spearman => &report.correlations.spearman,
    };
    let f = &report.dimensions.foundational;
    let o = &report.dimensions.operations;
    let cells = matrix
        .iter()
        .enumerate()
        .map(|(j, row)| {
            row.iter()
                .enumerate()
                .map(|(k, v)| {
                    let n = report.correlations.n[j][k];
                    let detail = match v {
                        Some(_) => format!("{} × {}\n{} = {} (n = {n})", f[j], o[k], kind.label(), fmt(*v, 3)),
                        None => format!(
                            "{} × {}\n{} undefined (n = {n}: fewer than 3 pairs or a constant column)",
                            f[j],
                            o[k],
                            kind.label()
                        ),
                    };
                    HeatCell {
                        value: *v,
                        label: fmt(*v, 2),
                        detail,
                        fill: diverging(*v, 1.0),
                        ink: ink(*v, 1.0),
                    }
                })
                .collect()
        })
        .collect();
    Heatmap {
        rows: f.clone(),
        cols: o.clone(),
        col_notes: vec![String::new(); o.len()],
        cells,
        scale: 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_gaps::{analyze, Settings};
    use gapscope_synth::profiles as synth;

    #[test]
    fn gap_heatmap_of_the_example() {
        let table = synth::generate(&Default::default()).table;
        let report = analyze(&table, &Settings::default()).unwrap();
        let h = gap_heatmap(&report);
        assert_eq!(h.rows.len(), 15);
        assert_eq!(h.cols, ["GI", "ST", "PL", "AS", "PM", "RC", "TM"]);
        let max = h
            .cells
            .iter()
            .flatten()
            .filter_map(|c| c.value)
            .fold(0.0f64, |m, v| m.max(v.abs()));
        assert_eq!(h.scale, max);
        let c = &h.cells[0][0];
        assert!(
            c.detail.contains("observed")
                && c.detail.contains("predicted")
                && c.detail.contains("gap")
        );
        let corr = correlation_heatmap(&report, CorrelationKind::Spearman);
        assert_eq!(corr.rows.len(), 7);
        assert!(corr.cells[0][0].detail.contains("Spearman ρ"));
    }
}
