//! How sure each number is ([`gapscope_gaps::inference::Inference`]), as the
//! page shows it: tables and charts per realization-gap view. They are
//! written in the files worker and travel as text (HTML, CSV, LaTeX), so
//! the first load links none of this; the heatmap's marks are
//! [`gap_marks`].

use gapscope_gaps::analysis::Report;
use gapscope_gaps::inference::coefficients::CoefficientTable;
use gapscope_gaps::inference::permutation::PermutationTest;
use gapscope_gaps::inference::{Inference, PValues};
use gapscope_stats::bootstrap::Interval;

use serde::{Deserialize, Serialize};

use crate::chart::{self, Series};
use crate::format::fmt;
use crate::table::{Cell, Table};

/// The inference as the page shows it (the files worker writes it): the
/// gap heatmap's intervals, each view's tables and charts as text, and the
/// JSON the exports carry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InferencePage {
    /// `inference` as `gapscope report --json --inference` writes it
    /// (indented, as under that key).
    pub json: String,
    /// [`gap_marks`].
    pub marks: Vec<Vec<Option<[f64; 2]>>>,
    /// The F × O correlations' p-values, Pearson's then Spearman's, for
    /// the Association heatmap ([`crate::heatmap::mark_correlations`]).
    #[serde(default)]
    pub correlation_p: Vec<PValues>,
    pub panels: Vec<PanelText>,
}

/// One panel as text: its view, title, HTML (a `<table>` or an SVG) and,
/// for a table, its CSV and LaTeX.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PanelText {
    pub view: String,
    pub title: String,
    /// The file name of its downloads, without extension.
    pub name: String,
    pub html: String,
    pub csv: String,
    pub latex: String,
}

/// The page of `inference`, the inference of `report` (`json`: its JSON text).
#[must_use]
pub fn page(report: &Report, inference: &Inference, json: String) -> InferencePage {
    InferencePage {
        json,
        marks: gap_marks(report, inference),
        correlation_p: vec![
            inference.correlations.pearson.clone(),
            inference.correlations.spearman.clone(),
        ],
        panels: panels(report, inference)
            .into_iter()
            .map(|p| match p.shown {
                Shown::Table(t) => PanelText {
                    view: p.view.to_string(),
                    name: p.name.to_string(),
                    html: t.to_html(),
                    csv: t.to_csv(),
                    latex: t.to_latex(),
                    title: t.title,
                },
                Shown::Chart(svg) => PanelText {
                    view: p.view.to_string(),
                    title: String::new(),
                    name: p.name.to_string(),
                    html: svg,
                    csv: String::new(),
                    latex: String::new(),
                },
            })
            .collect(),
    }
}

/// A report's JSON text (`serde_json::to_string_pretty`) with the
/// inference's (the same) added as its last key, `inference`: the text
/// `gapscope report --json --inference` writes (without its final newline),
/// so the page's export of an analysis whose inference was computed is the
/// CLI's. A text that is not a JSON object is returned as it was.
#[must_use]
pub fn with_inference(report: &str, inference: &str) -> String {
    let Some(body) = report.trim_end().strip_suffix('}') else {
        return report.to_string();
    };
    let body = body.trim_end();
    let mut out = String::with_capacity(report.len() + inference.len() + inference.len() / 8);
    out.push_str(body);
    // An empty object has nothing to separate.
    out.push_str(if body.ends_with('{') { "\n" } else { ",\n" });
    out.push_str("  \"inference\": ");
    // One level deeper: JSON strings hold no raw newline, so every line
    // but the first is indented by two more spaces.
    for (i, line) in inference.trim_end().lines().enumerate() {
        if i > 0 {
            out.push_str("\n  ");
        }
        out.push_str(line);
    }
    out.push_str("\n}");
    out
}

/// A table or a chart of one view ([`crate::gaps::VIEWS`]' ids).
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    Table(Table),
    /// A chart as SVG text (title inside).
    Chart(String),
}

/// One view's share of the inference.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// The view it belongs to (`gaps`, `association`, `predictability`, `penalty`).
    pub view: &'static str,
    /// The file name of its downloads, without extension.
    pub name: &'static str,
    pub shown: Shown,
}

/// Each (model, operation) gap's 95% interval from its trajectories, in
/// the report's model and operation order (the gap heatmap's rows and
/// columns); `None` where the gap has no interval.
#[must_use]
pub fn gap_marks(report: &Report, inference: &Inference) -> Vec<Vec<Option<[f64; 2]>>> {
    (0..report.models.len())
        .map(|i| {
            report
                .operations
                .keys()
                .map(|op| {
                    inference
                        .gap_intervals
                        .as_ref()
                        .and_then(|g| g.operations.get(op))
                        .and_then(|v| v.get(i).copied().flatten())
                })
                .collect()
        })
        .collect()
}

/// Every panel of the inference, in the order each view shows them.
#[must_use]
pub fn panels(report: &Report, inference: &Inference) -> Vec<Panel> {
    let mut out = Vec::new();
    let mut push = |view: &'static str, name: &'static str, shown: Option<Shown>| {
        if let Some(shown) = shown {
            out.push(Panel { view, name, shown });
        }
    };
    let table = |t: Table| Some(Shown::Table(t));
    push(
        "gaps",
        "gap-intervals",
        gap_interval_table(report, inference).map(Shown::Table),
    );
    push("gaps", "family-gaps", table(family_table(inference)));
    push(
        "association",
        "correlation-significance",
        table(correlation_table(report, inference)),
    );
    push(
        "predictability",
        "q2-significance",
        table(significance_table(report, inference)),
    );
    push(
        "predictability",
        "coefficients",
        table(coefficient_table(inference)),
    );
    let [q2, mae] = operation_curves(inference);
    push("penalty", "operation-q2-alpha", q2.map(Shown::Chart));
    push("penalty", "operation-mae-alpha", mae.map(Shown::Chart));
    push(
        "penalty",
        "nested-selection",
        nested_table(inference).map(Shown::Table),
    );
    out
}

/// Every gap with its interval: the heatmap's numbers as a table.
fn gap_interval_table(report: &Report, inference: &Inference) -> Option<Table> {
    let g = inference.gap_intervals.as_ref()?;
    let mut headers = vec!["Model".to_string()];
    for op in report.operations.keys() {
        headers.push(format!("{op} gap"));
        headers.push(format!("{op} 95%"));
    }
    headers.push("macro gap".into());
    headers.push("macro 95%".into());
    let rows = (0..report.models.len())
        .map(|i| {
            let mut row = vec![Cell::text(&report.models[i])];
            for (op, fit) in &report.operations {
                row.push(Cell::num(fit.gap.get(i).copied().flatten(), 2));
                row.push(Cell::Interval {
                    value: g
                        .operations
                        .get(op)
                        .and_then(|v| v.get(i).copied().flatten()),
                    decimals: 2,
                });
            }
            row.push(Cell::num(
                report.macro_fit.fit.gap.get(i).copied().flatten(),
                2,
            ));
            row.push(Cell::Interval {
                value: g.macro_gap.get(i).copied().flatten(),
                decimals: 2,
            });
            row
        })
        .collect();
    let without = if g.without.is_empty() {
        String::new()
    } else {
        format!(
            "; no interval for {} (scores from the table)",
            g.without.join(", ")
        )
    };
    Some(Table {
        title: format!(
            "Gap intervals: each model's trajectories resampled within the model, B = {}, seed {}{without}",
            g.draws, g.seed
        ),
        headers,
        rows,
    })
}

/// Mean gap per family and operation (and the macro gap).
fn family_table(inference: &Inference) -> Table {
    let f = &inference.families;
    let mut headers = vec!["Family".to_string()];
    headers.extend(f.operations.keys().map(|op| format!("{op} mean gap")));
    headers.push("macro mean gap".into());
    headers.push("Models".into());
    let rows = f
        .families
        .iter()
        .enumerate()
        .map(|(j, family)| {
            let mut row = vec![Cell::text(family)];
            for means in f.operations.values() {
                row.push(Cell::num(means.get(j).and_then(|m| m.mean), 2));
            }
            let m = f.macro_gap.get(j);
            row.push(Cell::num(m.and_then(|m| m.mean), 2));
            row.push(Cell::text(m.map_or(0, |m| m.n).to_string()));
            row
        })
        .collect();
    Table {
        title: "Mean realization gap per family".into(),
        headers,
        rows,
    }
}

/// Every F × O cell: Pearson r with its Fisher interval, each method's p
/// raw and Holm/BH adjusted.
fn correlation_table(report: &Report, inference: &Inference) -> Table {
    let c = &inference.correlations;
    let r = &report.correlations;
    let at = |m: &[Vec<Option<f64>>], j: usize, k: usize| {
        m.get(j).and_then(|row| row.get(k).copied().flatten())
    };
    let p3 = |p: &PValues, j: usize, k: usize| {
        [
            Cell::num(at(&p.p, j, k), 4),
            Cell::num(at(&p.holm, j, k), 4),
            Cell::num(at(&p.bh, j, k), 4),
        ]
    };
    let mut rows = Vec::new();
    for (j, f) in report.dimensions.foundational.iter().enumerate() {
        for (k, o) in report.dimensions.operations.iter().enumerate() {
            let mut row = vec![
                Cell::text(f),
                Cell::text(o),
                Cell::text(
                    r.n.get(j)
                        .and_then(|v| v.get(k))
                        .copied()
                        .unwrap_or(0)
                        .to_string(),
                ),
                Cell::num(at(&r.pearson, j, k), 3),
                Cell::Interval {
                    value: c
                        .pearson_ci95
                        .get(j)
                        .and_then(|v| v.get(k).copied().flatten()),
                    decimals: 3,
                },
            ];
            row.extend(p3(&c.pearson, j, k));
            row.push(Cell::num(at(&r.spearman, j, k), 3));
            row.extend(p3(&c.spearman, j, k));
            rows.push(row);
        }
    }
    Table {
        title: format!(
            "Correlation significance: Holm and Benjamini–Hochberg adjusted over the {} cells of each method (significant: adjusted p < {})",
            rows.len(),
            gapscope_gaps::inference::SIGNIFICANT
        ),
        headers: [
            "Foundational",
            "Operation",
            "n",
            "Pearson r",
            "r 95% (Fisher)",
            "r p",
            "r p Holm",
            "r p BH",
            "Spearman ρ",
            "ρ p",
            "ρ p Holm",
            "ρ p BH",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// Each held-out fit: Q², its permutation p, ρ and ρ's bootstrap interval;
/// then ΔQ²(F+O − F) with its permutation p.
fn significance_table(report: &Report, inference: &Inference) -> Table {
    let perm = inference.permutations.as_ref();
    let rho = inference.rho.as_ref();
    let row = |target: &str,
               predictors: &str,
               q2: Option<f64>,
               test: Option<&PermutationTest>,
               spearman: Option<f64>,
               interval: Option<&Interval>| {
        vec![
            Cell::text(target),
            Cell::text(predictors),
            Cell::num(q2, 3),
            Cell::num(test.and_then(|t| t.p), 4),
            Cell::num(spearman, 3),
            Cell::Interval {
                value: interval.and_then(Interval::bounds),
                decimals: 3,
            },
        ]
    };
    let mut rows: Vec<Vec<Cell>> = report
        .operations
        .iter()
        .map(|(op, fit)| {
            row(
                op,
                "F",
                fit.q2,
                perm.and_then(|p| p.operations.get(op)),
                fit.spearman,
                rho.and_then(|r| r.operations.get(op)),
            )
        })
        .collect();
    let m = &report.macro_fit.fit;
    rows.push(row(
        "macro",
        "F",
        m.q2,
        perm.map(|p| &p.macro_fit),
        m.spearman,
        rho.map(|r| &r.macro_fit),
    ));
    if let Some(o) = &report.outcome {
        for (name, fit) in [("F", &o.f), ("O", &o.o), ("F+O", &o.fo)] {
            rows.push(row(
                "reward",
                name,
                fit.q2,
                perm.and_then(|p| p.reward.get(name)),
                fit.spearman,
                rho.and_then(|r| r.reward.get(name)),
            ));
        }
    }
    if let Some(d) = &inference.delta_q2 {
        rows.push(vec![
            Cell::text("reward"),
            Cell::text("ΔQ² (F+O − F)"),
            Cell::num(d.q2, 3),
            Cell::num(d.p, 4),
            Cell::text(""),
            Cell::Interval {
                value: None,
                decimals: 3,
            },
        ]);
    }
    let tests = perm.map_or_else(
        || "no permutation tests".to_string(),
        |p| {
            format!(
                "{} permutations per target, seed {}",
                p.permutations, p.seed
            )
        },
    );
    let delta = inference.delta_q2.as_ref().map_or(String::new(), |d| {
        format!(", ΔQ² {} permutations", d.permutations)
    });
    Table {
        title: format!(
            "Held-out Q² against chance: permutation p ({tests}{delta}); ρ with its family-bootstrap 95% interval"
        ),
        headers: ["Target", "Predictors", "Q²", "permutation p", "Spearman ρ", "ρ 95%"]
            .map(String::from)
            .to_vec(),
        rows,
    }
}

/// Every fit's standardized coefficients with their range over the fold fits.
fn coefficient_table(inference: &Inference) -> Table {
    let c = &inference.coefficients;
    let mut rows = Vec::new();
    let mut add = |target: &str, predictors: &str, t: &CoefficientTable| {
        for (j, feature) in t.features.iter().enumerate() {
            rows.push(vec![
                Cell::text(target),
                Cell::text(predictors),
                Cell::text(feature),
                Cell::num(t.all.get(j).copied(), 3),
                Cell::num(t.min.get(j).copied(), 3),
                Cell::num(t.max.get(j).copied(), 3),
            ]);
        }
    };
    for (op, t) in &c.operations {
        add(op, "F", t);
    }
    if let Some(t) = &c.macro_fit {
        add("macro", "F", t);
    }
    for (name, t) in &c.reward {
        add("reward", name, t);
    }
    Table {
        title: "Standardized ridge coefficients: the fit on all models, and their range over the held-out-family fold fits".into(),
        headers: ["Target", "Predictors", "Feature", "Coefficient", "fold min", "fold max"]
            .map(String::from)
            .to_vec(),
        rows,
    }
}

/// Every operation's held-out Q² and MAE across the α grid, as charts.
fn operation_curves(inference: &Inference) -> [Option<String>; 2] {
    const COLOURS: [&str; 8] = [
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
    ];
    const DASHES: [&str; 3] = ["", "6 3", "2 2"];
    let c = &inference.penalty.curves;
    let chart =
        |title: &str, y: &str, pick: fn(&gapscope_gaps::analysis::Curve) -> &Vec<Option<f64>>| {
            if c.alphas.is_empty() || c.operations.is_empty() {
                return None;
            }
            let series: Vec<Series> = c
                .operations
                .iter()
                .enumerate()
                .map(|(i, (op, curve))| Series {
                    name: op.clone(),
                    colour: COLOURS[i % COLOURS.len()].to_string(),
                    dash: DASHES[(i / COLOURS.len()) % DASHES.len()],
                    values: pick(curve).clone(),
                })
                .collect();
            Some(chart::log_lines(
                title,
                "α (log scale)",
                y,
                &c.alphas,
                &series,
                Some(c.reference_alpha),
            ))
        };
    [
        chart("Operation Q² against α (each from F)", "Q²", |c| &c.q2),
        chart("Operation MAE against α", "MAE", |c| &c.mae),
    ]
}

/// Nested selection of every predictor: its outer metrics and the α each
/// held-out fold chose.
fn nested_table(inference: &Inference) -> Option<Table> {
    let n = inference.penalty.nested.as_ref()?;
    let row = |target: &str, nested: &gapscope_gaps::analysis::Nested| {
        let chosen: Vec<String> = nested
            .chosen_alpha
            .iter()
            .map(|(fold, a)| format!("{fold}: {}", fmt(Some(*a), if *a < 1.0 { 3 } else { 1 })))
            .collect();
        vec![
            Cell::text(target),
            Cell::text(&nested.predictors),
            Cell::num(nested.q2, 3),
            Cell::num(nested.mae, 2),
            Cell::num(nested.spearman, 3),
            Cell::text(chosen.join(", ")),
        ]
    };
    let mut rows: Vec<Vec<Cell>> = n.reward.iter().map(|x| row("reward", x)).collect();
    rows.extend(n.operations.iter().map(|(op, x)| row(op, x)));
    Some(Table {
        title: "Nested selection: α chosen by inner held-out families within each outer fold; outer held-out metrics".into(),
        headers: ["Target", "Predictors", "Q²", "MAE", "Spearman ρ", "α chosen per fold"]
            .map(String::from)
            .to_vec(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heatmap::{gap_heatmap, mark_gaps, HeatCell, Heatmap, MARK};
    use gapscope_data::operations::{operation_samples, ProfileOptions};
    use gapscope_gaps::Settings;
    use gapscope_synth::trajectories as synth;

    fn cell(label: &str) -> HeatCell {
        HeatCell {
            value: Some(0.0),
            label: label.into(),
            detail: "m · op".into(),
            fill: String::new(),
            ink: "#000",
        }
    }

    /// Worked by hand: an interval wholly above or below 0 marks the cell,
    /// one across 0 or touching it (up to rounding: 7.1e-15 is 0) does not;
    /// every interval is in the hover text.
    #[test]
    fn marks_by_hand() {
        let mut h = Heatmap {
            rows: vec!["m".into(), "n".into()],
            cols: vec!["a".into(), "b".into()],
            col_notes: vec![String::new(); 2],
            cells: vec![
                vec![cell("1.0"), cell("2.0")],
                vec![cell("3.0"), cell("4.0")],
            ],
            scale: 1.0,
        };
        mark_gaps(
            &mut h,
            &[
                vec![Some([0.1, 0.3]), Some([-0.2, 0.1])],
                vec![Some([7.1e-15, 64.9]), Some([-0.5, -0.0])],
            ],
        );
        let labels: Vec<&str> = h.cells.iter().flatten().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, [&format!("1.0{MARK}")[..], "2.0", "3.0", "4.0"]);
        assert!(h.cells[0][0]
            .detail
            .ends_with("\n95% interval (trajectories resampled) [0.10, 0.30]"));
        assert!(h.cells[0][1].detail.ends_with("[−0.20, 0.10]"));
        assert!(
            h.cells[1][0].detail.ends_with("[0.00, 64.90]"),
            "a rounding-error bound is 0"
        );
        assert_eq!(h.cells[1][1].detail.matches('\n').count(), 1);
    }

    /// The report's text with the inference added is the text of one
    /// struct that flattens the report beside `inference` (as the CLI
    /// writes it), for a real report and for empty objects.
    #[test]
    fn with_inference_is_the_clis_text() {
        #[derive(Serialize)]
        struct With<'a, R: Serialize, I: Serialize> {
            #[serde(flatten)]
            report: &'a R,
            inference: &'a I,
        }
        let table = gapscope_data::ProfileTable::read(
            &gapscope_synth::profiles::example_csv(),
            &gapscope_data::RoleOverrides::default(),
        )
        .unwrap();
        let settings = Settings {
            bootstrap: 50,
            ..Settings::default()
        };
        let report = gapscope_gaps::analyze(&table, &settings).unwrap();
        let inference =
            gapscope_gaps::inference::infer(&table, &settings, &report, None, 9, 0).unwrap();
        let expected = serde_json::to_string_pretty(&With {
            report: &report,
            inference: &inference,
        })
        .unwrap();
        let got = with_inference(
            &serde_json::to_string_pretty(&report).unwrap(),
            &serde_json::to_string_pretty(&inference).unwrap(),
        );
        assert_eq!(got, expected);
        let empty = serde_json::Map::new();
        let one: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"a": [1, {"b": null}]}"#).unwrap();
        for (r, i) in [(&empty, &one), (&one, &empty), (&one, &one)] {
            let expected = serde_json::to_string_pretty(&With {
                report: r,
                inference: i,
            })
            .unwrap();
            let got = with_inference(
                &serde_json::to_string_pretty(r).unwrap(),
                &serde_json::to_string_pretty(i).unwrap(),
            );
            assert_eq!(got, expected);
        }
        assert_eq!(with_inference("[1]", "{}"), "[1]");
    }

    /// The page of a synthetic corpus's inference: its marks are the gap
    /// intervals in the report's order, each view has its panels, and each
    /// table's CSV has a line per row.
    #[test]
    fn page_of_a_corpus() {
        let c = synth::generate(&synth::TrajParams {
            families: ["A", "B", "C", "D"]
                .iter()
                .map(|f| ((*f).to_string(), 2))
                .collect(),
            tasks: 12,
            groups: 3,
            ..Default::default()
        })
        .unwrap();
        let samples = operation_samples(&c.trajectories, &ProfileOptions::default());
        let table = c.joined_table().unwrap();
        let settings = Settings {
            bootstrap: 200,
            ..Settings::default()
        };
        let report = gapscope_gaps::analyze(&table, &settings).unwrap();
        let inference =
            gapscope_gaps::inference::infer(&table, &settings, &report, Some(&samples), 99, 19)
                .unwrap();
        let p = page(&report, &inference, "{}".into());
        let g = inference.gap_intervals.as_ref().unwrap();
        assert_eq!(p.marks.len(), report.models.len());
        for (i, row) in p.marks.iter().enumerate() {
            let expected: Vec<_> = report
                .operations
                .keys()
                .map(|op| g.operations[op][i])
                .collect();
            assert_eq!(row, &expected);
        }
        let count = |view: &str| p.panels.iter().filter(|x| x.view == view).count();
        assert_eq!(count("gaps"), 2);
        assert_eq!(count("association"), 1);
        assert_eq!(count("predictability"), 2);
        assert_eq!(
            count("penalty"),
            2 + usize::from(inference.penalty.nested.is_some())
        );
        let corr = p
            .panels
            .iter()
            .find(|x| x.name == "correlation-significance")
            .unwrap();
        let cells = report.dimensions.foundational.len() * report.dimensions.operations.len();
        assert_eq!(corr.csv.lines().count(), cells + 1);
        assert_eq!(corr.html.matches("<tr data-row=").count(), cells);
        // The heatmap of the page: marked where an interval excludes 0.
        let mut h = gap_heatmap(&report);
        mark_gaps(&mut h, &p.marks);
        for (row, marks) in h.cells.iter().zip(&p.marks) {
            for (cell, m) in row.iter().zip(marks) {
                let excludes = m.is_some_and(crate::heatmap::excludes_zero);
                assert_eq!(cell.label.ends_with(MARK), excludes);
            }
        }
    }
}
