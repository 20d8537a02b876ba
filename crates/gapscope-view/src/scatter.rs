//! Scatter plots: points coloured by family (with a legend that says so),
//! labels moved apart where they would collide ([`crate::labels`]).

use std::fmt::Write as _;

use crate::chart::{linear_axes, open_sized, padded, LegendItem, H, MB, ML, MR, MT, W};
use crate::labels::{label_width, place_labels, LabelBox};
use crate::markup::esc;

/// A point of a scatter plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub label: String,
    pub colour: String,
    /// Hover text.
    pub tip: String,
    pub highlight: bool,
}

/// A scatter plot, optionally with the line y = x.
pub fn scatter(
    title: &str,
    x_label: &str,
    y_label: &str,
    points: &[Point],
    equality: bool,
) -> String {
    scatter_with_legend(title, x_label, y_label, points, equality, &[])
}

/// Entries of a scatter's legend per row.
const LEGEND_COLUMNS: usize = 3;

/// [`scatter`] with a legend below the plot: what each colour means (the
/// models' families), as many rows as it needs.
pub fn scatter_with_legend(
    title: &str,
    x_label: &str,
    y_label: &str,
    points: &[Point],
    equality: bool,
    legend: &[LegendItem],
) -> String {
    let mut out = String::new();
    let rows = legend.len().div_ceil(LEGEND_COLUMNS);
    open_sized(
        &mut out,
        title,
        &format!(
            "Scatter plot of {y_label} against {x_label}, {} points",
            points.len()
        ),
        H + if rows > 0 {
            6.0 + 16.0 * rows as f64
        } else {
            0.0
        },
    );
    let (mut x0, mut x1) = padded(points.iter().map(|p| p.x));
    let (mut y0, mut y1) = padded(points.iter().map(|p| p.y));
    if equality {
        x0 = x0.min(y0);
        y0 = x0;
        x1 = x1.max(y1);
        y1 = x1;
    }
    let (xs, ys) = linear_axes(&mut out, (x0, x1), (y0, y1), x_label, y_label);
    if equality {
        let _ = write!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-dasharray="5 4"/>"##,
            xs.at(x0),
            ys.at(x0),
            xs.at(x1),
            ys.at(x1)
        );
    }
    // Highlighted points last, so they are drawn on top.
    let mut order: Vec<&Point> = points.iter().collect();
    order.sort_by_key(|p| p.highlight);
    let labelled = |p: &Point| p.highlight || points.len() <= 20;
    // Labels that would collide are moved apart (vertically) before any is drawn.
    let boxes: Vec<Option<LabelBox>> = order
        .iter()
        .map(|p| {
            labelled(p).then(|| {
                let (cx, cy) = (xs.at(p.x), ys.at(p.y));
                let r = if p.highlight { 7.0 } else { 4.5 };
                let size = if p.highlight { 12.0 } else { 9.0 };
                let width = label_width(&p.label, size);
                let right = cx > ML + (W - ML - MR) * 0.66;
                let x0 = if right {
                    cx - r - 2.0 - width
                } else {
                    cx + r + 2.0
                };
                LabelBox {
                    x0,
                    x1: x0 + width,
                    y: cy + 3.5,
                    height: size + 1.0,
                }
            })
        })
        .collect();
    let label_y = place_labels(&boxes, MT + 8.0, H - MB);
    for (k, p) in order.into_iter().enumerate() {
        let (cx, cy) = (xs.at(p.x), ys.at(p.y));
        let (r, stroke) = if p.highlight {
            (7.0, "#111")
        } else {
            (4.5, "#fff")
        };
        let _ = write!(
            out,
            r#"<g class="pt" data-tip="{tip}" tabindex="0"><circle cx="{cx:.1}" cy="{cy:.1}" r="{r}" fill="{c}" stroke="{stroke}" stroke-width="1.5"/>"#,
            tip = esc(&p.tip),
            c = p.colour
        );
        if let Some(ly) = label_y.get(k).copied().flatten() {
            // Labels of points in the right third go to their left, inside the frame.
            let (lx, anchor) = if cx > ML + (W - ML - MR) * 0.66 {
                (cx - r - 2.0, "end")
            } else {
                (cx + r + 2.0, "start")
            };
            // A label moved away from its point is tied to it by a line.
            if (ly - (cy + 3.5)).abs() > 3.0 {
                let _ = write!(
                    out,
                    r##"<line x1="{cx:.1}" y1="{cy:.1}" x2="{lx:.1}" y2="{:.1}" stroke="#888" stroke-width="0.75"/>"##,
                    ly - 3.5
                );
            }
            // A white halo under the glyphs: a label drawn across a
            // neighbouring point stays readable (4.5:1) on its colour.
            let _ = write!(
                out,
                r##"<text x="{:.1}" y="{:.1}" fill="#333" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke" font-size="{}" text-anchor="{anchor}">{}</text>"##,
                lx,
                ly,
                if p.highlight { 12 } else { 9 },
                esc(&p.label)
            );
        }
        out.push_str("</g>");
    }
    for (k, l) in legend.iter().enumerate() {
        let (col, row) = (k % LEGEND_COLUMNS, k / LEGEND_COLUMNS);
        let lx = ML + col as f64 * ((W - ML - MR) / LEGEND_COLUMNS as f64);
        let ly = H + 12.0 + 16.0 * row as f64;
        let name: String = if l.label.chars().count() > 22 {
            format!("{}…", l.label.chars().take(21).collect::<String>())
        } else {
            l.label.clone()
        };
        let _ = write!(
            out,
            r##"<g class="legend-item"><title>{}</title><circle cx="{:.1}" cy="{:.1}" r="4.5" fill="{}" stroke="#fff" stroke-width="1.5"/><text x="{:.1}" y="{:.1}" fill="#333">{}</text></g>"##,
            esc(&l.label),
            lx + 5.0,
            ly - 3.5,
            l.colour,
            lx + 13.0,
            ly,
            esc(&name)
        );
    }
    out.push_str("</svg>");
    out
}
