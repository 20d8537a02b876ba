//! Heatmaps built from a core [`Report`]: the gap heatmap (model ×
//! operation) and the correlation heatmap (foundational × operation), each
//! cell with its fill, ink, label and hover text.

use gapscope_gaps::Report;

use crate::colour::{diverging, ink};
use crate::format::fmt;
use crate::table::{Cell, Table};

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

/// The mark of a gap whose 95% interval excludes 0 ([`mark_gaps`]).
pub const MARK: char = '*';

/// Bounds this close to 0 (relative to the interval's largest bound, at
/// least 1) are 0: a resampled gap that is 0 in exact arithmetic comes out
/// as ±1e-14 or so (an observed score minus its prediction), and such an
/// interval does not exclude 0.
pub const ZERO_TOLERANCE: f64 = 1e-9;

/// Whether an interval lies wholly on one side of 0 (beyond [`ZERO_TOLERANCE`]).
#[must_use]
pub fn excludes_zero([lo, hi]: [f64; 2]) -> bool {
    let tol = ZERO_TOLERANCE * lo.abs().max(hi.abs()).max(1.0);
    lo > tol || hi < -tol
}

/// The gap heatmap ([`gap_heatmap`], rows in the report's order) with each
/// gap's 95% interval from its trajectories (`intervals`, per model and
/// operation: `gapscope_view::inference::gap_marks`): the hover text gains
/// the interval, and the label [`MARK`] when the interval excludes 0.
pub fn mark_gaps(h: &mut Heatmap, intervals: &[Vec<Option<[f64; 2]>>]) {
    for (row, marks) in h.cells.iter_mut().zip(intervals) {
        for (cell, m) in row.iter_mut().zip(marks) {
            if let Some([lo, hi]) = *m {
                cell.detail.push_str(&format!(
                    "\n95% interval (trajectories resampled) [{}, {}]",
                    fmt(Some(lo), 2),
                    fmt(Some(hi), 2)
                ));
                if excludes_zero([lo, hi]) {
                    cell.label.push(MARK);
                }
            }
        }
    }
}

/// Add the F × O correlations' p-values to a correlation heatmap's hover
/// cards (raw, Holm and Benjamini–Hochberg over the matrix) and mark
/// ([`MARK`]) the cells whose BH-adjusted p is below `significant`.
pub fn mark_correlations(h: &mut Heatmap, p: &gapscope_gaps::inference::PValues, significant: f64) {
    for (j, row) in h.cells.iter_mut().enumerate() {
        for (k, cell) in row.iter_mut().enumerate() {
            let at = |m: &[Vec<Option<f64>>]| m.get(j).and_then(|r| r.get(k).copied().flatten());
            let (Some(raw), Some(holm), Some(bh)) = (at(&p.p), at(&p.holm), at(&p.bh)) else {
                continue;
            };
            cell.detail.push_str(&format!(
                "\np {} (adjusted over the matrix: Holm {}, BH {})",
                fmt_p(raw),
                fmt_p(holm),
                fmt_p(bh)
            ));
            if bh < significant {
                cell.label.push(MARK);
            }
        }
    }
}

/// A p-value as `= 0.0123` (4 decimals), or `< 0.0001`.
fn fmt_p(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".into()
    } else {
        format!("= {}", fmt(Some(p), 4))
    }
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

impl Heatmap {
    /// The heatmap as a table: `corner` over the row names, then a column
    /// per heatmap column holding each cell's value (empty when undefined;
    /// the CSV has full precision): its CSV and LaTeX export.
    pub fn to_table(&self, title: &str, corner: &str) -> Table {
        let mut headers = vec![corner.to_string()];
        headers.extend(self.cols.iter().cloned());
        Table {
            title: title.to_string(),
            headers,
            rows: self
                .rows
                .iter()
                .zip(&self.cells)
                .map(|(r, cells)| {
                    let mut row = vec![Cell::text(r)];
                    row.extend(cells.iter().map(|c| Cell::num(c.value, 3)));
                    row
                })
                .collect(),
        }
    }

    /// The heatmap as a standalone SVG figure: `title`, the column names
    /// over the columns, the row names at the left and each cell a square
    /// of its colour with its label (its SVG and PNG export).
    pub fn to_svg(&self, title: &str, corner: &str) -> String {
        use crate::markup::esc;
        use std::fmt::Write as _;
        let chars = |s: &str| s.chars().count() as f64;
        let left = 16.0
            + 6.5
                * self
                    .rows
                    .iter()
                    .map(|r| chars(r))
                    .fold(chars(corner), f64::max);
        let cw = self
            .cols
            .iter()
            .map(|c| chars(c) * 6.5 + 10.0)
            .fold(46.0, f64::max);
        let (ch, top) = (22.0, 52.0);
        let w = left + cw * self.cols.len() as f64 + 16.0;
        let h = top + ch * self.rows.len() as f64 + 16.0;
        let t = esc(title);
        let mut out = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0} {h:.0}" width="{w:.0}" height="{h:.0}" role="img" aria-label="{t}" font-family="system-ui, sans-serif" font-size="11"><title>{t}</title><rect width="{w:.0}" height="{h:.0}" fill="#ffffff"/><text x="16" y="18" font-size="13" font-weight="600" fill="#222">{t}</text><text x="16" y="{y:.0}" fill="#555">{c}</text>"##,
            y = top - 8.0,
            c = esc(corner),
        );
        for (j, col) in self.cols.iter().enumerate() {
            let x = left + cw * (j as f64 + 0.5);
            let _ = write!(
                out,
                r##"<text x="{x:.1}" y="{:.0}" text-anchor="middle" font-weight="600" fill="#222">{}</text>"##,
                top - 8.0,
                esc(col)
            );
        }
        for (i, (row, cells)) in self.rows.iter().zip(&self.cells).enumerate() {
            let y = top + ch * i as f64;
            let _ = write!(
                out,
                r##"<text x="16" y="{:.1}" fill="#222">{}</text>"##,
                y + ch * 0.65,
                esc(row)
            );
            for (j, c) in cells.iter().enumerate() {
                let x = left + cw * j as f64;
                let _ = write!(
                    out,
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/><text x="{:.1}" y="{:.1}" text-anchor="middle" fill="{}">{}</text>"#,
                    x + 1.0,
                    y + 1.0,
                    cw - 2.0,
                    ch - 2.0,
                    esc(&c.fill),
                    x + cw / 2.0,
                    y + ch * 0.65,
                    c.ink,
                    esc(&c.label)
                );
            }
        }
        out.push_str("</svg>");
        out
    }

    /// The `<tbody>` as HTML, for the page to set at once (one string, not a
    /// DOM call per cell): a row header and one `td.cell` per cell with
    /// `data-row`, `data-col`, `data-value`, `data-r`, `data-c`, an
    /// `aria-label`, its colours, and a tab stop on the first cell (arrow
    /// keys move the focus; the page listens on the table).
    pub fn body_html(&self) -> String {
        self.rows_html(0..self.rows.len())
    }

    /// [`Heatmap::body_html`] of `rows` only (a virtualised heatmap's
    /// window: each cell keeps its row's index in the whole heatmap, and
    /// the window's first cell is the tab stop).
    pub fn rows_html(&self, rows: std::ops::Range<usize>) -> String {
        let n = self.rows.len().min(self.cells.len());
        let end = rows.end.min(n);
        let rows = rows.start.min(end)..end;
        self.rows_html_of(rows.start, &self.cells[rows])
    }

    /// [`Heatmap::rows_html`] of the rows from `start` with the cells
    /// `cells` (made for those rows only; `self.cells` is not read).
    pub fn rows_html_of(&self, start: usize, cells: &[Vec<HeatCell>]) -> String {
        use crate::chart::esc_into;
        use std::fmt::Write as _;
        // Written in one pass, each name escaped once (a window of 1,200
        // cells is drawn in each frame of a scroll).
        let mut out = String::with_capacity(cells.len() * self.cols.len() * 320);
        let cols: Vec<String> = self.cols.iter().map(|c| crate::chart::esc(c)).collect();
        let names = self.rows.get(start..).unwrap_or_default();
        for (ri, (row, cells)) in (start..).zip(names.iter().zip(cells)) {
            let name = crate::chart::esc(row);
            // An abbreviation (a foundational dimension) is expanded on hover.
            match crate::glossary::hover_text(row) {
                Some(t) => {
                    let t = crate::chart::esc(&t);
                    let _ = write!(out, r#"<tr><th scope="row" title="{t}">{name}</th>"#);
                }
                None => {
                    let _ = write!(out, r#"<tr><th scope="row">{name}</th>"#);
                }
            }
            for (ci, (cell, col)) in cells.iter().zip(&cols).enumerate() {
                let _ = write!(
                    out,
                    r#"<td class="cell" data-row="{name}" data-col="{col}" data-value=""#
                );
                if let Some(v) = cell.value {
                    let _ = write!(out, "{v}");
                }
                let tab = if ri == start && ci == 0 { "0" } else { "-1" };
                let _ = write!(
                    out,
                    r#"" data-r="{ri}" data-c="{ci}" tabindex="{tab}" aria-label="{name}, "#
                );
                // The hover text on one line.
                for (k, line) in cell.detail.split('\n').enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    esc_into(&mut out, line);
                }
                out.push_str(r#"" style="background: "#);
                esc_into(&mut out, &cell.fill);
                let _ = write!(out, "; color: {}\">", cell.ink);
                esc_into(&mut out, &cell.label);
                out.push_str("</td>");
            }
            out.push_str("</tr>");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_gaps::{analyze, Settings};
    use gapscope_synth::profiles as synth;

    #[test]
    fn correlations_below_the_bh_threshold_are_marked_and_every_p_is_in_the_card() {
        let cell = |v: f64| HeatCell {
            value: Some(v),
            label: fmt(Some(v), 2),
            detail: "F × O".into(),
            fill: String::new(),
            ink: "#000",
        };
        let mut h = Heatmap {
            rows: vec!["F".into()],
            cols: vec!["a".into(), "b".into(), "c".into()],
            col_notes: vec![String::new(); 3],
            cells: vec![vec![cell(0.9), cell(0.5), cell(0.1)]],
            scale: 1.0,
        };
        let p = gapscope_gaps::inference::PValues {
            p: vec![vec![Some(0.00001), Some(0.02), None]],
            holm: vec![vec![Some(0.00003), Some(0.04), None]],
            bh: vec![vec![Some(0.00003), Some(0.05), None]],
        };
        mark_correlations(&mut h, &p, 0.05);
        let labels: Vec<&str> = h.cells[0].iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["0.90*", "0.50", "0.10"], "0.05 is not below 0.05");
        assert_eq!(
            h.cells[0][0].detail,
            "F × O\np < 0.0001 (adjusted over the matrix: Holm < 0.0001, BH < 0.0001)"
        );
        assert_eq!(
            h.cells[0][1].detail,
            "F × O\np = 0.0200 (adjusted over the matrix: Holm = 0.0400, BH = 0.0500)"
        );
        assert_eq!(h.cells[0][2].detail, "F × O");
    }

    #[test]
    fn body_html_has_a_cell_per_value_with_its_data() {
        let h = Heatmap {
            rows: vec!["m<1>".into()],
            cols: vec!["a".into(), "b".into()],
            col_notes: vec![String::new(); 2],
            cells: vec![vec![
                HeatCell {
                    value: Some(1.5),
                    label: "1.5".into(),
                    detail: "x\ny".into(),
                    fill: "#fff".into(),
                    ink: "#000",
                },
                HeatCell {
                    value: None,
                    label: "–".into(),
                    detail: "none".into(),
                    fill: "#eee".into(),
                    ink: "#000",
                },
            ]],
            scale: 1.0,
        };
        let html = h.body_html();
        assert!(html.starts_with(r#"<tr><th scope="row">m&lt;1&gt;</th><td class="cell" data-row="m&lt;1&gt;" data-col="a" data-value="1.5" data-r="0" data-c="0" tabindex="0" aria-label="m&lt;1&gt;, x, y""#), "{html}");
        assert!(
            html.contains(r#"data-value="" data-r="0" data-c="1" tabindex="-1""#),
            "{html}"
        );
        assert_eq!(html.matches("<td").count(), 2);
    }

    #[test]
    fn rows_html_draws_a_window_with_whole_heatmap_indices() {
        let cell = |v: f64| HeatCell {
            value: Some(v),
            label: format!("{v}"),
            detail: String::new(),
            fill: "#fff".into(),
            ink: "#000",
        };
        let h = Heatmap {
            rows: (0..4).map(|i| format!("r{i}")).collect(),
            cols: vec!["a".into()],
            col_notes: vec![String::new()],
            cells: (0..4).map(|i| vec![cell(f64::from(i))]).collect(),
            scale: 1.0,
        };
        let html = h.rows_html(2..4);
        assert_eq!(html.matches("<tr>").count(), 2);
        assert!(html.starts_with(r#"<tr><th scope="row">r2</th>"#), "{html}");
        assert!(
            html.contains(r#"data-r="2" data-c="0" tabindex="0""#),
            "{html}"
        );
        assert!(
            html.contains(r#"data-r="3" data-c="0" tabindex="-1""#),
            "{html}"
        );
        assert_eq!(h.rows_html(3..10).matches("<tr>").count(), 1);
        assert_eq!(h.rows_html(7..10), "");
        assert_eq!(h.body_html(), h.rows_html(0..4));
        assert_eq!(h.rows_html_of(2, &h.cells[2..4]), html);
    }

    #[test]
    fn the_exports_hold_every_value_and_cell() {
        let table = synth::generate(&Default::default()).table;
        let report = analyze(&table, &Settings::default()).unwrap();
        let h = gap_heatmap(&report);
        let t = h.to_table("Realization gaps", "model");
        assert_eq!(t.headers[0], "model");
        assert_eq!(&t.headers[1..], h.cols.as_slice());
        assert_eq!(t.rows.len(), h.rows.len());
        // The CSV has each value at full precision (an undefined one empty).
        let csv = t.to_csv();
        let line: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        assert_eq!(line[0], h.rows[0]);
        for (cell, text) in h.cells[0].iter().zip(&line[1..]) {
            match cell.value {
                Some(v) => assert!(
                    (text.parse::<f64>().unwrap() - v).abs() < 1e-12,
                    "{text} vs {v}"
                ),
                None => assert_eq!(*text, ""),
            }
        }
        let svg = h.to_svg("Realization gaps", "model");
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.ends_with("</svg>")
        );
        crate::chart::well_formed(&svg).unwrap();
        assert_eq!(
            svg.matches("<rect ").count(),
            1 + h.rows.len() * h.cols.len()
        );
        assert!(svg.contains(&format!(">{}</text>", crate::markup::esc(&h.rows[0]))));
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
