//! View models: what the page shows, built from a core [`Report`] by plain
//! functions (no leptos here), so they are unit-tested on the host. The
//! components in `app.rs` only render these structs.

use gapscope_core::Report;

/// Blue for values above zero (execution above prediction, positive correlation).
pub const BLUE: (u8, u8, u8) = (33, 102, 172);
/// Red for values below zero.
pub const RED: (u8, u8, u8) = (178, 24, 43);

/// A diverging colour: white at 0, `BLUE` at `+scale`, `RED` at `-scale`,
/// linear in between and saturated beyond. Missing values are grey.
pub fn diverging(value: Option<f64>, scale: f64) -> String {
    let Some(v) = value else {
        return "#e6e6e6".to_string();
    };
    let t = if scale > 0.0 {
        (v / scale).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let (r, g, b) = if t >= 0.0 { BLUE } else { RED };
    let a = t.abs();
    let mix = |c: u8| (255.0 + (f64::from(c) - 255.0) * a).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

/// Dark text on light cells, white text on strong colours.
pub fn ink(value: Option<f64>, scale: f64) -> &'static str {
    match value {
        Some(v) if scale > 0.0 && (v / scale).abs() > 0.55 => "#ffffff",
        _ => "#1a1a1a",
    }
}

/// Format a number for display; `None` is an em dash.
pub fn fmt(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(v) => {
            let s = format!("{v:.decimals$}");
            // "-0.00" reads as a sign error; show it as zero.
            if s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s.replace('-', "−")
            }
        }
        None => "—".to_string(),
    }
}

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
    use gapscope_core::{analyze, synth, Settings};

    #[test]
    fn diverging_scale_is_symmetric_and_white_at_zero() {
        assert_eq!(diverging(Some(0.0), 5.0), "#ffffff");
        assert_eq!(diverging(Some(5.0), 5.0), "#2166ac");
        assert_eq!(diverging(Some(-5.0), 5.0), "#b2182b");
        assert_eq!(diverging(Some(-50.0), 5.0), "#b2182b");
        assert_eq!(diverging(None, 5.0), "#e6e6e6");
        // Half way: 255 + (33 - 255) / 2 = 144
        // Half way: each channel 255 + (c - 255) / 2, rounded half away from zero.
        assert_eq!(
            diverging(Some(2.5), 5.0),
            format!("#{:02x}{:02x}{:02x}", 144, 179, 214)
        );
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(fmt(Some(-3.24), 2), "−3.24");
        assert_eq!(fmt(Some(-0.001), 2), "0.00");
        assert_eq!(fmt(None, 2), "—");
    }

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
