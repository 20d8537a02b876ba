//! Tables as data: shown on the page and exported as CSV and LaTeX (booktabs)
//! from the same struct. Numbers keep full precision for CSV and are rounded
//! for display and LaTeX.

use gapscope_data::profile::csv_field;

/// A table cell: text, or a number with its display precision.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Text(String),
    Num {
        value: Option<f64>,
        decimals: usize,
    },
    /// A 95% interval.
    Interval {
        value: Option<[f64; 2]>,
        decimals: usize,
    },
}

impl Cell {
    pub fn num(value: Option<f64>, decimals: usize) -> Cell {
        Cell::Num { value, decimals }
    }

    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// What the page shows.
    pub fn display(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Num { value, decimals } => crate::format::fmt(*value, *decimals),
            Cell::Interval {
                value: Some([lo, hi]),
                decimals,
            } => {
                format!(
                    "[{}, {}]",
                    crate::format::fmt(Some(*lo), *decimals),
                    crate::format::fmt(Some(*hi), *decimals)
                )
            }
            Cell::Interval { value: None, .. } => "—".into(),
        }
    }

    /// Full precision for machines; empty for undefined.
    fn csv(&self) -> Vec<String> {
        match self {
            Cell::Text(s) => vec![s.clone()],
            Cell::Num { value, .. } => vec![value.map(|v| v.to_string()).unwrap_or_default()],
            Cell::Interval { value, .. } => match value {
                Some([lo, hi]) => vec![lo.to_string(), hi.to_string()],
                None => vec![String::new(), String::new()],
            },
        }
    }

    fn latex(&self) -> String {
        match self {
            Cell::Text(s) => latex_escape(s),
            Cell::Num {
                value: Some(v),
                decimals,
            } => format!("${v:.decimals$}$"),
            Cell::Num { value: None, .. } => "--".into(),
            Cell::Interval {
                value: Some([lo, hi]),
                decimals,
            } => format!("$[{lo:.decimals$}, {hi:.decimals$}]$"),
            Cell::Interval { value: None, .. } => "--".into(),
        }
    }
}

/// A titled table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub title: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

fn latex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '²' => out.push_str("$^2$"),
            'ρ' => out.push_str("$\\rho$"),
            'α' => out.push_str("$\\alpha$"),
            '−' => out.push('-'),
            _ => out.push(c),
        }
    }
    out
}

impl Table {
    /// CSV with full-precision numbers; an interval column becomes `_lo`, `_hi`.
    pub fn to_csv(&self) -> String {
        let mut header = Vec::new();
        for (j, h) in self.headers.iter().enumerate() {
            if self
                .rows
                .iter()
                .any(|r| matches!(r.get(j), Some(Cell::Interval { .. })))
            {
                header.push(format!("{h}_lo"));
                header.push(format!("{h}_hi"));
            } else {
                header.push(h.clone());
            }
        }
        let mut out = header
            .iter()
            .map(|h| csv_field(h))
            .collect::<Vec<_>>()
            .join(",");
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .flat_map(Cell::csv)
                .map(|c| csv_field(&c))
                .collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// A booktabs `tabular` (needs `\usepackage{booktabs}`).
    pub fn to_latex(&self) -> String {
        let cols: String = std::iter::once('l')
            .chain(std::iter::repeat_n(
                'r',
                self.headers.len().saturating_sub(1),
            ))
            .collect();
        let mut out = format!(
            "% {}\n\\begin{{tabular}}{{{cols}}}\n\\toprule\n",
            latex_escape(&self.title)
        );
        out.push_str(
            &self
                .headers
                .iter()
                .map(|h| latex_escape(h))
                .collect::<Vec<_>>()
                .join(" & "),
        );
        out.push_str(" \\\\\n\\midrule\n");
        for row in &self.rows {
            out.push_str(&row.iter().map(Cell::latex).collect::<Vec<_>>().join(" & "));
            out.push_str(" \\\\\n");
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n");
        out
    }

    /// The whole table as HTML: its title as caption, its headers, every
    /// row ([`Table::body_html`]); for a table written away from the page
    /// (the files worker) and set as it is.
    pub fn to_html(&self) -> String {
        self.to_html_as("table", false)
    }

    /// [`Table::to_html`] with `testid` as the table's `data-testid`, and
    /// with `pickable` rows (class `pick`, a tab stop: the page listens on
    /// the table for `tr[data-row]`).
    pub fn to_html_as(&self, testid: &str, pickable: bool) -> String {
        let mut out = String::from(r#"<table class="data" data-testid=""#);
        crate::chart::esc_into(&mut out, testid);
        out.push_str(r#"" data-title=""#);
        crate::chart::esc_into(&mut out, &self.title);
        out.push_str(r#""><caption>"#);
        crate::chart::esc_into(&mut out, &self.title);
        out.push_str("</caption><thead><tr>");
        for h in &self.headers {
            out.push_str(r#"<th scope="col">"#);
            crate::chart::esc_into(&mut out, h);
            out.push_str("</th>");
        }
        out.push_str("</tr></thead><tbody>");
        out.push_str(&self.body_html(usize::MAX, pickable));
        out.push_str("</tbody></table>");
        out
    }

    /// The `<tbody>`'s rows as HTML (the first `shown`), for the page to set
    /// at once: one string instead of a DOM call per cell, so that a table
    /// of 200 rows is drawn in a few milliseconds. Each row carries
    /// `data-row` (its index), and with `pickable` the class `pick` and a
    /// tab stop (the page listens on the table, not on each row).
    pub fn body_html(&self, shown: usize, pickable: bool) -> String {
        self.rows_html(0..shown.min(self.rows.len()), pickable)
    }

    /// The widest text of each column, its header or a cell, in characters
    /// and at most `cap`: a virtualised table's columns keep these widths
    /// whichever rows are drawn.
    pub fn column_chars(&self, cap: usize) -> Vec<usize> {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.display().chars().count());
            }
        }
        widths.into_iter().map(|w| w.min(cap)).collect()
    }

    /// [`Table::body_html`] of `rows` only (a virtualised table's window;
    /// each row keeps its index in the whole table).
    pub fn rows_html(&self, rows: std::ops::Range<usize>, pickable: bool) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let n = self.rows.len();
        let end = rows.end.min(n);
        let rows = rows.start.min(end)..end;
        let start = rows.start;
        for (i, row) in (start..).zip(&self.rows[rows]) {
            if pickable {
                let _ = write!(out, r#"<tr data-row="{i}" class="pick" tabindex="0">"#);
            } else {
                let _ = write!(out, r#"<tr data-row="{i}">"#);
            }
            for c in row {
                out.push_str("<td>");
                crate::chart::esc_into(&mut out, &c.display());
                out.push_str("</td>");
            }
            out.push_str("</tr>");
        }
        out
    }
}

/// A title as a file name: lower case, runs of other characters as one `-`.
pub fn slug(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// A cell of a list ([`id_rows_html`]) longer than this many characters is cut on screen (its
/// column keeps this width) with the whole text as its title.
pub const CUT_CHARS: usize = 40;

/// The rows `rows` of a list `table` whose rows open items (the trajectory
/// list, the episode lists) as HTML: each row carries `data-row` (its index in the list), `data-id`
/// (`ids[i]`, the item's id), a tab stop and the class `pick`, and
/// `open` when it is row `open`; a long cell has its whole text as title.
pub fn id_rows_html(
    table: &Table,
    ids: &[String],
    rows: std::ops::Range<usize>,
    open: Option<usize>,
) -> String {
    use crate::markup::esc_into;
    use std::fmt::Write as _;
    let n = table.rows.len().min(ids.len());
    let end = rows.end.min(n);
    let rows = rows.start.min(end)..end;
    let mut out = String::new();
    for i in rows {
        let _ = write!(out, r#"<tr data-row="{i}" data-id=""#);
        esc_into(&mut out, &ids[i]);
        let class = if open == Some(i) { "pick open" } else { "pick" };
        let _ = write!(out, r#"" class="{class}" tabindex="0">"#);
        for c in &table.rows[i] {
            let text = c.display();
            if text.chars().count() > CUT_CHARS {
                out.push_str(r#"<td class="cut" title=""#);
                esc_into(&mut out, &text);
                out.push_str(r#"">"#);
            } else {
                out.push_str("<td>");
            }
            esc_into(&mut out, &text);
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_rows_html_marks_each_row_with_its_index_and_id_and_cuts_long_cells() {
        let t = Table {
            title: "Trajectories".into(),
            headers: vec!["Trajectory".into(), "Task".into()],
            rows: vec![
                vec![Cell::text("a\"1"), Cell::text("x".repeat(CUT_CHARS + 1))],
                vec![Cell::text("b"), Cell::text("short")],
                vec![Cell::text("c"), Cell::text("<i>")],
            ],
        };
        let ids = ["a\"1", "b", "c"].map(String::from);
        let html = id_rows_html(&t, &ids, 0..2, Some(1));
        assert!(html.starts_with(r#"<tr data-row="0" data-id="a&quot;1" class="pick" tabindex="0"><td>a&quot;1</td><td class="cut" title="xxx"#), "{html}");
        assert!(html.contains(r#"<tr data-row="1" data-id="b" class="pick open" tabindex="0"><td>b</td><td>short</td></tr>"#), "{html}");
        assert_eq!(html.matches("<tr ").count(), 2);
        assert_eq!(
            id_rows_html(&t, &ids, 2..9, None),
            r#"<tr data-row="2" data-id="c" class="pick" tabindex="0"><td>c</td><td>&lt;i&gt;</td></tr>"#
        );
    }

    #[test]
    fn rows_html_keeps_each_rows_index_and_widths_cover_every_row() {
        let t = Table {
            title: "t".into(),
            headers: vec!["a".into(), "bb".into()],
            rows: (0..5)
                .map(|i| vec![Cell::text("x".repeat(i)), Cell::text("y")])
                .collect(),
        };
        let html = t.rows_html(2..4, true);
        assert_eq!(html.matches("<tr ").count(), 2);
        assert!(html.starts_with(r#"<tr data-row="2" class="pick" tabindex="0"><td>xx</td>"#));
        assert!(html.contains(r#"<tr data-row="3""#));
        assert_eq!(t.rows_html(4..9, false).matches("<tr ").count(), 1);
        assert_eq!(t.rows_html(7..9, false), "");
        assert_eq!(t.body_html(2, false), t.rows_html(0..2, false));
        assert_eq!(t.column_chars(80), vec![4, 2]);
        assert_eq!(t.column_chars(3), vec![3, 2]);
    }

    #[test]
    fn body_html_escapes_and_marks_rows() {
        let t = Table {
            title: "t".into(),
            headers: vec!["a".into(), "b".into()],
            rows: vec![
                vec![Cell::text("<x> & \"y\""), Cell::text("2")],
                vec![Cell::text("3"), Cell::text("4")],
            ],
        };
        assert_eq!(
            t.body_html(1, false),
            r#"<tr data-row="0"><td>&lt;x&gt; &amp; &quot;y&quot;</td><td>2</td></tr>"#
        );
        assert_eq!(
            t.body_html(9, true)
                .matches(r#"class="pick" tabindex="0""#)
                .count(),
            2
        );
    }

    fn t() -> Table {
        Table {
            title: "Reward prediction".into(),
            headers: vec![
                "Predictors".into(),
                "ρ".into(),
                "Q²".into(),
                "Q² 95%".into(),
            ],
            rows: vec![
                vec![
                    Cell::text("F+O"),
                    Cell::num(Some(0.77612), 3),
                    Cell::num(Some(0.7333333), 3),
                    Cell::Interval {
                        value: Some([0.5, 0.9]),
                        decimals: 2,
                    },
                ],
                vec![
                    Cell::text("baseline & co"),
                    Cell::num(None, 3),
                    Cell::num(Some(0.0), 3),
                    Cell::Interval {
                        value: None,
                        decimals: 2,
                    },
                ],
            ],
        }
    }

    #[test]
    fn csv_keeps_full_precision_and_splits_intervals() {
        assert_eq!(
            t().to_csv(),
            "Predictors,ρ,Q²,Q² 95%_lo,Q² 95%_hi\nF+O,0.77612,0.7333333,0.5,0.9\nbaseline & co,,0,,\n"
        );
    }

    #[test]
    fn csv_export_neutralises_formula_cells_and_keeps_negative_numbers() {
        let t = Table {
            title: "x".into(),
            headers: vec!["Model".into(), "gap".into()],
            rows: vec![
                vec![
                    Cell::text("=HYPERLINK(\"http://x\")"),
                    Cell::num(Some(-1.5), 2),
                ],
                vec![Cell::text("@SUM(A1)"), Cell::num(Some(2.0), 2)],
                vec![Cell::text("-m"), Cell::text("-3")],
            ],
        };
        assert_eq!(
            t.to_csv(),
            "Model,gap\n\"'=HYPERLINK(\"\"http://x\"\")\",-1.5\n\"'@SUM(A1)\",2\n\"'-m\",-3\n"
        );
    }

    #[test]
    fn latex_is_booktabs_and_escaped() {
        let l = t().to_latex();
        assert!(l.contains("\\begin{tabular}{lrrr}\n\\toprule\n"));
        assert!(l.contains("Predictors & $\\rho$ & Q$^2$ & Q$^2$ 95\\% \\\\\n\\midrule"));
        assert!(l.contains("F+O & $0.776$ & $0.733$ & $[0.50, 0.90]$ \\\\"));
        assert!(l.contains("baseline \\& co & -- & $0.000$ & -- \\\\"));
        assert!(l.ends_with("\\bottomrule\n\\end{tabular}\n"));
    }
}
