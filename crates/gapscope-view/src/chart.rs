//! Figures as standalone SVG text: the same string is shown on the page (with
//! hover and click handled by delegation on `data-*` attributes) and exported
//! as a file. Plain functions, tested on the host.

use std::fmt::Write as _;

/// Okabe–Ito, a palette distinguishable with the common colour-vision deficiencies.
pub const FAMILY_COLOURS: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
];

pub(crate) const W: f64 = 440.0;
pub(crate) const H: f64 = 340.0;
pub(crate) const ML: f64 = 56.0;
pub(crate) const MR: f64 = 16.0;
pub(crate) const MT: f64 = 30.0;
pub(crate) const MB: f64 = 46.0;
const AXIS: &str = "#555";
const GRID: &str = "#e3e3e3";

pub use crate::markup::{esc, esc_into};

/// About five round tick values covering [lo, hi].
pub fn nice_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let start = (lo / step).ceil() * step;
    let mut ticks = Vec::new();
    let mut t = start;
    while t <= hi + step * 1e-9 {
        ticks.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    ticks
}

fn tick_label(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1000.0 {
        format!("{v:.0}").replace('-', "−")
    } else if v.abs() < 0.01 {
        format!("{v:.0e}").replace('-', "−")
    } else {
        let s = format!("{v:.2}");
        let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
        s.replace('-', "−")
    }
}

/// A linear or log10 scale from data to pixels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    d0: f64,
    d1: f64,
    r0: f64,
    r1: f64,
    log: bool,
}

impl Scale {
    /// The plot area's horizontal scale for data `d0..d1`.
    fn x(d0: f64, d1: f64, log: bool) -> Scale {
        Scale {
            d0,
            d1,
            r0: ML,
            r1: W - MR,
            log,
        }
    }

    /// The plot area's vertical (linear) scale for data `d0..d1`.
    fn y(d0: f64, d1: f64) -> Scale {
        Scale {
            d0,
            d1,
            r0: H - MB,
            r1: MT,
            log: false,
        }
    }

    pub(crate) fn at(&self, v: f64) -> f64 {
        let (v, d0, d1) = if self.log {
            (v.log10(), self.d0.log10(), self.d1.log10())
        } else {
            (v, self.d0, self.d1)
        };
        if d1 == d0 {
            return f64::midpoint(self.r0, self.r1);
        }
        self.r0 + (v - d0) / (d1 - d0) * (self.r1 - self.r0)
    }
}

pub(crate) fn padded(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi == lo {
        return (lo - 1.0, hi + 1.0);
    }
    let pad = (hi - lo) * 0.06;
    (lo - pad, hi + pad)
}

pub(crate) fn open(out: &mut String, title: &str, desc: &str) {
    open_sized(out, title, desc, H);
}

/// [`open`] for a chart `h` high (the plot keeps its place at the top).
pub(crate) fn open_sized(out: &mut String, title: &str, desc: &str, h: f64) {
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" aria-label="{t}" font-family="system-ui, sans-serif" font-size="11"><title>{t}</title><desc>{d}</desc><rect width="{W}" height="{h}" fill="#ffffff"/><text x="{x}" y="18" font-size="13" font-weight="600" fill="#222">{t}</text>"##,
        t = esc(title),
        d = esc(desc),
        x = ML,
    );
}

/// Linear axes over the plot area with nice ticks; the two scales.
pub(crate) fn linear_axes(
    out: &mut String,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    x_label: &str,
    y_label: &str,
) -> (Scale, Scale) {
    let (xs, ys) = (Scale::x(x0, x1, false), Scale::y(y0, y1));
    axes(
        out,
        &xs,
        &ys,
        &nice_ticks(x0, x1),
        &nice_ticks(y0, y1),
        x_label,
        y_label,
    );
    (xs, ys)
}

/// Grid, tick labels, frame and axis labels of the plot area the scales
/// span (its left edge is `xs`'s: the forest plot's is wider than
/// [`ML`]); an empty `y_label` draws none.
fn axes(
    out: &mut String,
    xs: &Scale,
    ys: &Scale,
    xticks: &[f64],
    yticks: &[f64],
    x_label: &str,
    y_label: &str,
) {
    let (left, right) = (xs.r0, xs.r1);
    for &t in yticks {
        let y = ys.at(t);
        let _ = write!(
            out,
            r#"<line x1="{left}" x2="{right}" y1="{y:.1}" y2="{y:.1}" stroke="{GRID}"/><text x="{tx}" y="{ty:.1}" text-anchor="end" fill="{AXIS}">{l}</text>"#,
            tx = left - 5.0,
            ty = y + 3.5,
            l = tick_label(t)
        );
    }
    for &t in xticks {
        let x = xs.at(t);
        let _ = write!(
            out,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{MT}" y2="{y2}" stroke="{GRID}"/><text x="{x:.1}" y="{ty}" text-anchor="middle" fill="{AXIS}">{l}</text>"#,
            y2 = H - MB,
            ty = H - MB + 14.0,
            l = tick_label(t)
        );
    }
    let _ = write!(
        out,
        r##"<rect x="{left}" y="{MT}" width="{w}" height="{h}" fill="none" stroke="{AXIS}"/><text x="{cx}" y="{ly}" text-anchor="middle" fill="#333">{xl}</text>"##,
        w = right - left,
        h = H - MT - MB,
        cx = f64::midpoint(left, right),
        ly = H - 10.0,
        xl = esc(x_label),
    );
    if !y_label.is_empty() {
        let _ = write!(
            out,
            r##"<text transform="translate(14 {cy}) rotate(-90)" text-anchor="middle" fill="#333">{yl}</text>"##,
            cy = (MT + H - MB) / 2.0,
            yl = esc(y_label)
        );
    }
}

/// A horizontal bar of a bar chart, with an optional interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: Option<f64>,
    pub ci: Option<[f64; 2]>,
    pub tip: String,
}

/// Horizontal bars from 0 with interval whiskers.
pub fn bars(title: &str, x_label: &str, items: &[Bar]) -> String {
    let mut out = String::new();
    open(
        &mut out,
        title,
        &format!(
            "Bar chart of {x_label} for {} items, with 95% intervals",
            items.len()
        ),
    );
    let all = items
        .iter()
        .flat_map(|b| b.value.into_iter().chain(b.ci.into_iter().flatten()))
        .chain([0.0]);
    let (x0, x1) = padded(all);
    let xs = Scale::x(x0, x1, false);
    let band = (H - MT - MB) / items.len().max(1) as f64;
    axes(
        &mut out,
        &xs,
        &Scale::y(0.0, 1.0),
        &nice_ticks(x0, x1),
        &[],
        x_label,
        "",
    );
    let zero = xs.at(0.0);
    for (i, b) in items.iter().enumerate() {
        let yc = MT + band * (i as f64 + 0.5);
        let _ = write!(
            out,
            r#"<g class="pt" data-tip="{}" tabindex="0">"#,
            esc(&b.tip)
        );
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#333">{}</text>"##,
            ML - 5.0,
            yc + 3.5,
            esc(&b.label)
        );
        if let Some(v) = b.value {
            let x = xs.at(v);
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"#,
                x.min(zero),
                yc - band * 0.3,
                (x - zero).abs(),
                band * 0.6,
                if v >= 0.0 { "#4a7fb5" } else { "#c0504d" }
            );
        }
        if let Some([lo, hi]) = b.ci {
            let (a, c) = (xs.at(lo), xs.at(hi));
            let _ = write!(
                out,
                r##"<line x1="{a:.1}" x2="{c:.1}" y1="{yc:.1}" y2="{yc:.1}" stroke="#222" stroke-width="1.5"/><line x1="{a:.1}" x2="{a:.1}" y1="{:.1}" y2="{:.1}" stroke="#222"/><line x1="{c:.1}" x2="{c:.1}" y1="{:.1}" y2="{:.1}" stroke="#222"/>"##,
                yc - 4.0,
                yc + 4.0,
                yc - 4.0,
                yc + 4.0
            );
        }
        out.push_str("</g>");
    }
    let _ = write!(
        out,
        r##"<line x1="{zero:.1}" x2="{zero:.1}" y1="{MT}" y2="{}" stroke="#222"/>"##,
        H - MB
    );
    out.push_str("</svg>");
    out
}

/// One series of a line chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: String,
    pub dash: &'static str,
    pub values: Vec<Option<f64>>,
}

/// Lines over a log-scaled x axis, with a vertical marker.
pub fn log_lines(
    title: &str,
    x_label: &str,
    y_label: &str,
    x: &[f64],
    series: &[Series],
    marker: Option<f64>,
) -> String {
    let mut out = String::new();
    open(
        &mut out,
        title,
        &format!(
            "Line chart of {y_label} against {x_label} (log scale), {} series",
            series.len()
        ),
    );
    let (x0, x1) = (
        x.first().copied().unwrap_or(1.0),
        x.last().copied().unwrap_or(10.0),
    );
    let (y0, y1) = padded(
        series
            .iter()
            .flat_map(|s| s.values.iter().flatten().copied()),
    );
    let xs = Scale::x(x0, x1, true);
    let ys = Scale::y(y0, y1);
    let decades: Vec<f64> = (x0.log10().ceil() as i32..=x1.log10().floor() as i32)
        .map(|e| 10f64.powi(e))
        .collect();
    axes(
        &mut out,
        &xs,
        &ys,
        &decades,
        &nice_ticks(y0, y1),
        x_label,
        y_label,
    );
    if let Some(m) = marker {
        let mx = xs.at(m);
        let _ = write!(
            out,
            r##"<line x1="{mx:.1}" x2="{mx:.1}" y1="{MT}" y2="{}" stroke="#999" stroke-dasharray="3 3"/><text x="{:.1}" y="{}" fill="#666">α = {}</text>"##,
            H - MB,
            mx + 3.0,
            MT + 12.0,
            tick_label(m)
        );
    }
    for (k, s) in series.iter().enumerate() {
        let mut d = String::new();
        for (xv, yv) in x.iter().zip(&s.values) {
            if let Some(yv) = yv {
                let _ = write!(
                    d,
                    "{}{:.1},{:.1}",
                    if d.is_empty() { "M" } else { " L" },
                    xs.at(*xv),
                    ys.at(*yv)
                );
            }
        }
        let _ = write!(
            out,
            r##"<path d="{d}" fill="none" stroke="{c}" stroke-width="2" stroke-dasharray="{dash}"/><g transform="translate({lx} {ly})"><line x1="0" x2="18" y1="0" y2="0" stroke="{c}" stroke-width="2" stroke-dasharray="{dash}"/><text x="22" y="4" fill="#333">{n}</text></g>"##,
            c = s.colour,
            dash = s.dash,
            lx = W - MR - 90.0,
            ly = MT + 14.0 + 14.0 * k as f64,
            n = esc(&s.name)
        );
        for (xv, yv) in x.iter().zip(&s.values) {
            if let Some(yv) = yv {
                let _ = write!(
                    out,
                    r#"<circle class="pt" cx="{:.1}" cy="{:.1}" r="2.5" fill="{}" data-tip="{}: α = {}, {} = {:.3}"/>"#,
                    xs.at(*xv),
                    ys.at(*yv),
                    s.colour,
                    esc(&s.name),
                    tick_label(*xv),
                    esc(y_label),
                    yv
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// One line of a slope chart: a label, its rank on each side, colour, hover text.
#[derive(Clone, Debug, PartialEq)]
pub struct SlopeItem {
    pub label: String,
    pub left: Option<f64>,
    pub right: Option<f64>,
    pub colour: String,
    pub tip: String,
}

/// A slope chart: each item's rank on the left and on the right.
pub fn slope(title: &str, left: &str, right: &str, items: &[SlopeItem]) -> String {
    let mut out = String::new();
    let h = (MT + 30.0 + 18.0 * items.len() as f64).max(H);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" aria-label="{t}" font-family="system-ui, sans-serif" font-size="11"><title>{t}</title><desc>Slope chart of model ranks: {l} (left) against {r} (right)</desc><rect width="{W}" height="{h}" fill="#ffffff"/><text x="16" y="18" font-size="13" font-weight="600" fill="#222">{t}</text><text x="140" y="40" text-anchor="middle" fill="#333" font-weight="600">{l}</text><text x="300" y="40" text-anchor="middle" fill="#333" font-weight="600">{r}</text>"##,
        t = esc(title),
        l = esc(left),
        r = esc(right)
    );
    let n = items.len().max(1) as f64;
    let y = |rank: f64| 56.0 + (rank - 1.0) / (n - 1.0).max(1.0) * (h - 80.0);
    for SlopeItem {
        label,
        left: lr,
        right: rr,
        colour,
        tip,
    } in items
    {
        let _ = write!(
            out,
            r#"<g class="pt" data-tip="{}" tabindex="0">"#,
            esc(tip)
        );
        if let (Some(a), Some(b)) = (lr, rr) {
            let _ = write!(
                out,
                r#"<line x1="140" x2="300" y1="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2"/>"#,
                y(*a),
                y(*b)
            );
        }
        if let Some(a) = lr {
            let _ = write!(
                out,
                r##"<circle cx="140" cy="{0:.1}" r="4" fill="{colour}"/><text x="132" y="{1:.1}" text-anchor="end" fill="#333">{2} {3}</text>"##,
                y(*a),
                y(*a) + 3.5,
                esc(label),
                tick_label(*a)
            );
        }
        if let Some(b) = rr {
            let _ = write!(
                out,
                r##"<circle cx="300" cy="{0:.1}" r="4" fill="{colour}"/><text x="308" y="{1:.1}" fill="#333">{2} {3}</text>"##,
                y(*b),
                y(*b) + 3.5,
                tick_label(*b),
                esc(label)
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// Colours of the hatched (second-cycle) segments and legend entries: a
/// palette colour with white diagonal stripes, so more than eight categories
/// stay apart without leaving the colour-blind-safe palette.
fn hatch_defs(out: &mut String, colours: &[&str]) {
    if colours.is_empty() {
        return;
    }
    out.push_str("<defs>");
    for c in colours {
        let _ = write!(
            out,
            r##"<pattern id="hatch-{id}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="{c}"/><line x1="0" y1="0" x2="0" y2="6" stroke="#ffffff" stroke-width="2.5"/></pattern>"##,
            id = c.trim_start_matches('#'),
        );
    }
    out.push_str("</defs>");
}

fn fill_of(colour: &str, hatch: bool) -> String {
    if hatch {
        format!("url(#hatch-{})", colour.trim_start_matches('#'))
    } else {
        colour.to_string()
    }
}

fn data_attrs(data: &[(&'static str, String)]) -> String {
    data.iter()
        .map(|(k, v)| format!(r#" data-{k}="{}""#, esc(v)))
        .collect()
}

/// One segment of a stacked bar: its length, colour (optionally hatched),
/// hover text and `data-*` attributes (name without the `data-` prefix) for
/// click handling.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub value: f64,
    pub colour: String,
    pub hatch: bool,
    pub tip: String,
    pub data: Vec<(&'static str, String)>,
}

/// One horizontal stacked bar.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBar {
    pub label: String,
    pub segments: Vec<Segment>,
}

/// A legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendItem {
    pub label: String,
    pub colour: String,
    pub hatch: bool,
}

/// Horizontal stacked bars from 0, one band per bar, with a legend below.
/// Segments of zero length are left out. The height grows with the bars.
pub fn stacked_bars(
    title: &str,
    x_label: &str,
    bars: &[StackedBar],
    legend: &[LegendItem],
) -> String {
    const LABEL_W: f64 = 170.0;
    const BAND: f64 = 24.0;
    let plot_h = BAND * bars.len().max(1) as f64;
    let legend_rows = legend.len().div_ceil(2);
    let h = MT + plot_h + 40.0 + 16.0 * legend_rows as f64 + 8.0;
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" aria-label="{t}" font-family="system-ui, sans-serif" font-size="11"><title>{t}</title><desc>{d}</desc><rect width="{W}" height="{h}" fill="#ffffff"/><text x="16" y="18" font-size="13" font-weight="600" fill="#222">{t}</text>"##,
        t = esc(title),
        d = esc(&format!(
            "Stacked bar chart of {x_label}, {} bars, {} categories",
            bars.len(),
            legend.len()
        )),
    );
    let mut hatched: Vec<&str> = Vec::new();
    for c in bars
        .iter()
        .flat_map(|b| {
            b.segments
                .iter()
                .filter(|s| s.hatch)
                .map(|s| s.colour.as_str())
        })
        .chain(legend.iter().filter(|l| l.hatch).map(|l| l.colour.as_str()))
    {
        if !hatched.contains(&c) {
            hatched.push(c);
        }
    }
    hatch_defs(&mut out, &hatched);
    let total = bars
        .iter()
        .map(|b| b.segments.iter().map(|s| s.value.max(0.0)).sum::<f64>())
        .fold(0.0f64, f64::max);
    let x1 = if total > 0.0 { total } else { 1.0 };
    let xs = Scale {
        d0: 0.0,
        d1: x1,
        r0: LABEL_W,
        r1: W - MR,
        log: false,
    };
    let bottom = MT + plot_h;
    for t in nice_ticks(0.0, x1) {
        let x = xs.at(t);
        let _ = write!(
            out,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{MT}" y2="{bottom}" stroke="{GRID}"/><text x="{x:.1}" y="{ty}" text-anchor="middle" fill="{AXIS}">{l}</text>"#,
            ty = bottom + 14.0,
            l = tick_label(t)
        );
    }
    let _ = write!(
        out,
        r##"<text x="{cx}" y="{ly}" text-anchor="middle" fill="#333">{xl}</text>"##,
        cx = (LABEL_W + W - MR) / 2.0,
        ly = bottom + 28.0,
        xl = esc(x_label)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = MT + BAND * i as f64;
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#333">{}</text>"##,
            LABEL_W - 5.0,
            y + BAND / 2.0 + 3.5,
            esc(&b.label)
        );
        let mut acc = 0.0;
        for s in b.segments.iter().filter(|s| s.value > 0.0) {
            let (a, c) = (xs.at(acc), xs.at(acc + s.value));
            acc += s.value;
            let _ = write!(
                out,
                r##"<rect class="pt seg" x="{a:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}" stroke="#ffffff" stroke-width="0.5" tabindex="0" data-tip="{}"{}/>"##,
                y + BAND * 0.15,
                c - a,
                BAND * 0.7,
                fill_of(&s.colour, s.hatch),
                esc(&s.tip),
                data_attrs(&s.data)
            );
        }
    }
    let _ = write!(
        out,
        r##"<line x1="{LABEL_W}" x2="{LABEL_W}" y1="{MT}" y2="{bottom}" stroke="#222"/>"##
    );
    for (k, l) in legend.iter().enumerate() {
        let (col, row) = (k % 2, k / 2);
        let lx = 16.0 + col as f64 * (W / 2.0);
        let ly = bottom + 40.0 + 16.0 * row as f64;
        let _ = write!(
            out,
            r##"<g transform="translate({lx} {ly})"><rect x="0" y="-9" width="12" height="12" fill="{}" stroke="#888" stroke-width="0.5"/><text x="17" y="1" fill="#333">{}</text></g>"##,
            fill_of(&l.colour, l.hatch),
            esc(&l.label)
        );
    }
    out.push_str("</svg>");
    out
}

/// A point of a [`Line`]: `y` undefined leaves a gap; `ci` draws a whisker.
#[derive(Clone, Debug, PartialEq)]
pub struct LinePoint {
    pub x: f64,
    pub y: Option<f64>,
    pub ci: Option<[f64; 2]>,
    /// Hover text of the marker (no marker when empty).
    pub tip: String,
}

/// One series of [`lines`].
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub name: String,
    pub colour: String,
    pub dash: &'static str,
    pub points: Vec<LinePoint>,
}

/// How [`lines`] joins consecutive points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// Straight segments.
    Straight,
    /// A step function continuous from the right: the value holds until the
    /// next point's x, then jumps.
    StepAfter,
}

/// Lines over linear axes, with optional 95% whiskers (dodged sideways by
/// series so they do not overlap) and a fixed y range if given. Each marker
/// carries `data-series` (its series' index) for click-through.
pub fn lines(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Line],
    join: Join,
    y_range: Option<(f64, f64)>,
) -> String {
    let mut out = String::new();
    open(
        &mut out,
        title,
        &format!(
            "Line chart of {y_label} against {x_label}, {} series{}",
            series.len(),
            if series
                .iter()
                .flat_map(|s| &s.points)
                .any(|p| p.ci.is_some())
            {
                ", with 95% intervals"
            } else {
                ""
            }
        ),
    );
    let (x0, x1) = padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.x)));
    let (y0, y1) = y_range.unwrap_or_else(|| {
        padded(series.iter().flat_map(|s| {
            s.points
                .iter()
                .flat_map(|p| p.y.into_iter().chain(p.ci.into_iter().flatten()))
        }))
    });
    let (xs, ys) = linear_axes(&mut out, (x0, x1), (y0, y1), x_label, y_label);
    let n = series.len() as f64;
    for (k, s) in series.iter().enumerate() {
        let dodge = (k as f64 - (n - 1.0) / 2.0) * 3.0;
        let mut d = String::new();
        let mut last: Option<(f64, f64)> = None;
        for p in &s.points {
            let Some(y) = p.y else {
                last = None;
                continue;
            };
            let (px, py) = (xs.at(p.x), ys.at(y));
            match (last, join) {
                (None, _) => {
                    let _ = write!(d, "{}M{px:.1},{py:.1}", if d.is_empty() { "" } else { " " });
                }
                (Some(_), Join::Straight) => {
                    let _ = write!(d, " L{px:.1},{py:.1}");
                }
                (Some((_, ly)), Join::StepAfter) => {
                    let _ = write!(d, " L{px:.1},{ly:.1} L{px:.1},{py:.1}");
                }
            }
            last = Some((px, py));
        }
        let _ = write!(
            out,
            r##"<path d="{d}" fill="none" stroke="{c}" stroke-width="2" stroke-dasharray="{dash}"/><g transform="translate({lx} {ly})"><line x1="0" x2="18" y1="0" y2="0" stroke="{c}" stroke-width="2" stroke-dasharray="{dash}"/><text x="22" y="4" fill="#333">{name}</text></g>"##,
            c = s.colour,
            dash = s.dash,
            lx = W - MR - 130.0,
            ly = MT + 14.0 + 14.0 * k as f64,
            name = esc(&s.name)
        );
        for p in &s.points {
            let cx = xs.at(p.x) + dodge;
            if let Some([lo, hi]) = p.ci {
                let (a, b) = (ys.at(lo), ys.at(hi));
                let _ = write!(
                    out,
                    r#"<line x1="{cx:.1}" x2="{cx:.1}" y1="{a:.1}" y2="{b:.1}" stroke="{c}" stroke-width="1.5"/><line x1="{:.1}" x2="{:.1}" y1="{a:.1}" y2="{a:.1}" stroke="{c}"/><line x1="{:.1}" x2="{:.1}" y1="{b:.1}" y2="{b:.1}" stroke="{c}"/>"#,
                    cx - 3.0,
                    cx + 3.0,
                    cx - 3.0,
                    cx + 3.0,
                    c = s.colour
                );
            }
            if let (Some(y), false) = (p.y, p.tip.is_empty()) {
                let _ = write!(
                    out,
                    r#"<circle class="pt" cx="{cx:.1}" cy="{:.1}" r="3" fill="{}" tabindex="0" data-series="{k}" data-tip="{}"/>"#,
                    ys.at(y),
                    s.colour,
                    esc(&p.tip)
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// Test helper: checks that an SVG string is well-formed XML as far as these
/// charts go: balanced and properly nested tags, quoted attributes, and every
/// `&` an entity.
#[cfg(test)]
pub(crate) fn well_formed(svg: &str) -> Result<(), String> {
    fn entities_ok(s: &str) -> bool {
        s.match_indices('&').all(|(i, _)| {
            let rest = &s[i..];
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                .iter()
                .any(|e| rest.starts_with(e))
        })
    }
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    let mut roots = 0;
    while let Some(i) = rest.find('<') {
        let text = &rest[..i];
        if !entities_ok(text) {
            return Err(format!("bare & in text {text:?}"));
        }
        if stack.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root: {text:?}"));
        }
        let after = &rest[i + 1..];
        let j = after.find('>').ok_or("unterminated tag")?;
        let tag = &after[..j];
        rest = &after[j + 1..];
        if tag.contains('<') {
            return Err(format!("`<` inside tag {tag:?}"));
        }
        if !tag.matches('"').count().is_multiple_of(2) {
            return Err(format!("unbalanced quotes in {tag:?}"));
        }
        if !entities_ok(tag) {
            return Err(format!("bare & in tag {tag:?}"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else {
            let name: String = tag
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            if name.is_empty() {
                return Err(format!("bad tag {tag:?}"));
            }
            if stack.is_empty() {
                roots += 1;
            }
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed {stack:?}"));
    }
    if roots != 1 || !rest.trim().is_empty() {
        return Err(format!("{roots} root elements, trailing {rest:?}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scatter::{scatter, Point};

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(nice_ticks(-0.3, 0.9), vec![-0.25, 0.0, 0.25, 0.5, 0.75]);
        let t = nice_ticks(37.2, 81.9);
        assert!(t.first().unwrap() >= &37.2 && t.last().unwrap() <= &81.9 && t.len() >= 4);
    }

    #[test]
    fn scatter_is_standalone_svg_with_escaped_text() {
        let pts = vec![
            Point {
                x: 1.0,
                y: 2.0,
                label: "A<B".into(),
                colour: "#000".into(),
                tip: "t&1".into(),
                highlight: false,
            },
            Point {
                x: 3.0,
                y: 1.0,
                label: "C".into(),
                colour: "#111".into(),
                tip: "t2".into(),
                highlight: true,
            },
        ];
        let s = scatter("Obs vs pred", "predicted", "observed", &pts, true);
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(s.ends_with("</svg>"));
        assert!(s.contains("A&lt;B") && s.contains("t&amp;1"));
        assert_eq!(s.matches("<circle").count(), 2);
        assert!(s.contains("stroke-dasharray=\"5 4\""), "equality line");
    }

    #[test]
    fn log_axis_has_decade_ticks_and_marker() {
        let x: Vec<f64> = (0..25)
            .map(|k| 10f64.powf(-2.0 + 6.0 * f64::from(k) / 24.0))
            .collect();
        let s = log_lines(
            "MAE",
            "alpha",
            "MAE",
            &x,
            &[Series {
                name: "F".into(),
                colour: "#000".into(),
                dash: "",
                values: x.iter().map(|v| Some(v.ln())).collect(),
            }],
            Some(10.0),
        );
        for d in ["0.01", "0.1", "1", "10", "100", "1000", "10000"] {
            assert!(s.contains(&format!(">{d}</text>")), "tick {d} in {s}");
        }
        assert!(s.contains("α = 10"));
    }

    #[test]
    fn well_formed_catches_what_it_should() {
        assert!(well_formed("<svg><g><rect/></g></svg>").is_ok());
        assert!(well_formed("<svg><g></svg>").is_err());
        assert!(well_formed("<svg><text>a & b</text></svg>").is_err());
        assert!(well_formed(r#"<svg><g data-tip="a<b"/></svg>"#).is_err());
        assert!(well_formed("<svg/><svg/>").is_err());
    }

    #[test]
    fn stacked_bars_carry_data_attributes_and_escape() {
        let seg = |v: f64, c: &str, hatch: bool, f: &str| Segment {
            value: v,
            colour: c.into(),
            hatch,
            tip: format!("{f} & more"),
            data: vec![("config", "A<1".into()), ("failure", f.into())],
        };
        let bars = vec![
            StackedBar {
                label: "A · V1".into(),
                segments: vec![
                    seg(0.25, "#0072B2", false, "x"),
                    seg(0.0, "#E69F00", false, "zero"),
                    seg(0.75, "#009E73", true, "y"),
                ],
            },
            StackedBar {
                label: "B".into(),
                segments: vec![seg(1.0, "#0072B2", false, "x")],
            },
        ];
        let legend = vec![LegendItem {
            label: "y".into(),
            colour: "#009E73".into(),
            hatch: true,
        }];
        let s = stacked_bars("Shares", "share", &bars, &legend);
        well_formed(&s).unwrap();
        // Zero-length segments are left out: 3 of 4.
        assert_eq!(s.matches("class=\"pt seg\"").count(), 3);
        assert!(s.contains(r#"data-config="A&lt;1""#) && s.contains("x &amp; more"));
        assert!(s.contains("url(#hatch-009E73)") && s.contains("<pattern id=\"hatch-009E73\""));
        // Full bar: from the label column (x = 170) to the right edge (440 − 16):
        // a quarter is 0.25 × 254 = 63.5 px wide; the first band starts at
        // MT = 30 and the bar at 30 + 0.15 × 24 = 33.6.
        assert!(s.contains(r#"x="170.0" y="33.6" width="63.5""#), "{s}");
    }

    #[test]
    fn step_lines_hold_then_jump() {
        let l = Line {
            name: "A".into(),
            colour: "#000".into(),
            dash: "",
            points: vec![
                LinePoint {
                    x: 0.0,
                    y: Some(0.0),
                    ci: None,
                    tip: String::new(),
                },
                LinePoint {
                    x: 1.0,
                    y: Some(0.5),
                    ci: Some([0.25, 0.75]),
                    tip: "p".into(),
                },
                LinePoint {
                    x: 2.0,
                    y: Some(1.0),
                    ci: None,
                    tip: "q".into(),
                },
            ],
        };
        let s = lines(
            "F",
            "x",
            "share",
            std::slice::from_ref(&l),
            Join::StepAfter,
            Some((0.0, 1.0)),
        );
        well_formed(&s).unwrap();
        // x: 0..2 padded by 6% → [−0.12, 2.12] over 56..424; y: 0..1 over 294..30.
        // x = 0 → 56 + 0.12 / 2.24 × 368 = 75.7; x = 1 → 240.0; x = 2 → 404.3;
        // y = 0 → 294, 0.5 → 162, 1 → 30.
        assert!(
            s.contains("M75.7,294.0 L240.0,294.0 L240.0,162.0 L404.3,162.0 L404.3,30.0"),
            "{s}"
        );
        assert_eq!(s.matches("<circle").count(), 2, "no marker without a tip");
        let straight = lines("F", "x", "share", &[l], Join::Straight, Some((0.0, 1.0)));
        assert!(straight.contains("M75.7,294.0 L240.0,162.0 L404.3,30.0"));
    }
}

/// One row of a [`forest`] plot: a difference with two 95% intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct ForestRow {
    pub label: String,
    pub value: Option<f64>,
    /// Drawn thick: the paired task bootstrap.
    pub bootstrap: Option<[f64; 2]>,
    /// Drawn thin, dashed: the normal interval (Δ ± 1.96·sd/√n).
    pub normal: Option<[f64; 2]>,
    pub tip: String,
}

/// A forest plot: one row per difference (a point, a thick bootstrap
/// interval and a thin dashed normal interval) around a line at zero; the
/// labels get a wide left margin (run names are long). Each row's group
/// carries `data-row` (its index) for click-through.
pub fn forest(title: &str, x_label: &str, rows: &[ForestRow]) -> String {
    const LEFT: f64 = 170.0;
    let mut out = String::new();
    open(
        &mut out,
        title,
        &format!(
            "Forest plot of {x_label} for {} rows, with the bootstrap (thick) and normal (dashed) 95% intervals",
            rows.len()
        ),
    );
    let all = rows
        .iter()
        .flat_map(|r| {
            r.value
                .into_iter()
                .chain(r.bootstrap.into_iter().flatten())
                .chain(r.normal.into_iter().flatten())
        })
        .chain([0.0]);
    let (x0, x1) = padded(all);
    // The plot area starts at LEFT, not ML: room for the labels.
    let xs = Scale {
        r0: LEFT,
        ..Scale::x(x0, x1, false)
    };
    let band = (H - MT - MB) / rows.len().max(1) as f64;
    axes(
        &mut out,
        &xs,
        &Scale::y(0.0, 1.0),
        &nice_ticks(x0, x1),
        &[],
        x_label,
        "",
    );
    let zero = xs.at(0.0);
    let _ = write!(
        out,
        r##"<line x1="{zero:.1}" x2="{zero:.1}" y1="{MT}" y2="{}" stroke="#222"/>"##,
        H - MB
    );
    for (i, r) in rows.iter().enumerate() {
        let yc = MT + band * (i as f64 + 0.5);
        let _ = write!(
            out,
            r##"<g class="pt" data-row="{i}" data-tip="{}" tabindex="0"><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#333">{}</text>"##,
            esc(&r.tip),
            LEFT - 5.0,
            yc + 3.5,
            esc(&crate::labels::fit_label(&r.label, 11.0, LEFT - 10.0))
        );
        if let Some([lo, hi]) = r.normal {
            let _ = write!(
                out,
                r##"<line x1="{:.1}" x2="{:.1}" y1="{yc:.1}" y2="{yc:.1}" stroke="#777" stroke-dasharray="3 2"/>"##,
                xs.at(lo),
                xs.at(hi),
            );
        }
        if let Some([lo, hi]) = r.bootstrap {
            let _ = write!(
                out,
                r##"<line x1="{:.1}" x2="{:.1}" y1="{yc:.1}" y2="{yc:.1}" stroke="#222" stroke-width="3"/>"##,
                xs.at(lo),
                xs.at(hi),
            );
        }
        if let Some(v) = r.value {
            let _ = write!(
                out,
                r##"<circle cx="{:.1}" cy="{yc:.1}" r="4" fill="{}" stroke="#222"/>"##,
                xs.at(v),
                if v >= 0.0 { "#4a7fb5" } else { "#c0504d" }
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}
