//! View models of every workbench view: tables and figures built from the
//! core report (and the profile table it came from). No leptos here: the
//! components render these, and the exports write them.

use gapscope_data::ProfileTable;
use gapscope_gaps::analysis::{Fit, Report};
use gapscope_stats::heldout::reference::distinct_in_order;

use crate::chart::{self, Bar, Series, SlopeItem, FAMILY_COLOURS};
use crate::format::fmt;
use crate::scatter::{self, Point};
use crate::table::{Cell, Table};

/// The views, in menu order: (id used in the URL, menu label, one-line explanation).
pub const VIEWS: [(&str, &str, &str); 10] = [
    ("data", "Data", "What was read: models, families, dimensions and every profile value."),
    ("association", "Association", "How each foundational dimension correlates with each operation across models (Fig. 2a). Click a cell for its scatter."),
    ("predictability", "Predictability", "How well the foundational profile predicts each operation for a held-out family: Q² with a family-bootstrap 95% interval (Fig. 2b)."),
    ("gaps", "Realization gaps", "Observed minus predicted operation scores per model (Table 10, Fig. 5a). Click a cell for the observed-vs-predicted scatter."),
    ("overall", "Overall gap", "The macro operation score against its held-out prediction from the foundational profile (Table 5, Fig. 5b)."),
    ("reward", "Reward prediction", "Held-out prediction of task reward from the baseline, F, O and F+O (Table 6, Fig. 3)."),
    ("penalty", "Penalty", "Reward-prediction error and rank correlation against the ridge penalty, and nested penalty selection (Fig. 4, D.2)."),
    ("sensitivity", "Association sensitivity", "One (foundational, operation) correlation under every specification: all models, each family removed, within-family centring (Fig. 6)."),
    ("rankings", "Rankings", "Models ranked by mean foundational score against mean operation score: the profiles rank models differently."),
    ("paper", "Paper tables", "The paper's published tables, as printed. Partial: only some of the 15 rows appear in the source text."),
];

/// What the realization-gap views say instead of a result when the files
/// on screen are trajectories the analysis cannot run on (`error`, the
/// analysis's error): for trajectories alone, that a foundational profile
/// table is needed and where its format is; otherwise the reason. The
/// trajectory pages read the files as they are.
pub fn needs_sentence(error: &str) -> String {
    let no_foundational = gapscope_gaps::analysis::AnalysisError::NoFoundational.to_string();
    if error.ends_with(&no_foundational) {
        "Realization gaps need a foundational profile table beside these trajectories: \
         add a CSV or JSON file with a model column and each model's benchmark scores \
         (TU, RE, … ; the format is in docs/formats.md, and the synthetic example is one). \
         Runs, Trajectories and Stability read the trajectories as they are."
            .to_string()
    } else {
        format!(
            "Realization gaps could not be computed on these files ({error}). \
             Runs, Trajectories and Stability read the trajectories as they are."
        )
    }
}

/// Colour of each model by family (in order of first appearance).
pub fn family_colours(families: &[String]) -> Vec<String> {
    let order = distinct_in_order(families);
    families
        .iter()
        .map(|f| {
            let k = order.iter().position(|o| *o == f).unwrap_or(0);
            FAMILY_COLOURS[k % FAMILY_COLOURS.len()].to_string()
        })
        .collect()
}

/// The legend of [`family_colours`]: each family with its colour, in order
/// of first appearance (none when there is one family: colour then means
/// nothing).
pub fn family_legend(families: &[String]) -> Vec<chart::LegendItem> {
    let order = distinct_in_order(families);
    if order.len() < 2 {
        return Vec::new();
    }
    order
        .iter()
        .enumerate()
        .map(|(k, f)| chart::LegendItem {
            label: (*f).clone(),
            colour: FAMILY_COLOURS[k % FAMILY_COLOURS.len()].to_string(),
            hatch: false,
        })
        .collect()
}

/// The profile table as read.
pub fn data_table(t: &ProfileTable) -> Table {
    let mut headers = vec!["Model".to_string(), "Family".to_string()];
    headers.extend(t.foundational.names.iter().cloned());
    headers.extend(t.operations.names.iter().cloned());
    if t.reward.is_some() {
        headers.push("Reward".into());
    }
    let rows = (0..t.n_models())
        .map(|i| {
            let mut r = vec![Cell::text(&t.models[i]), Cell::text(&t.families[i])];
            r.extend(t.foundational.values[i].iter().map(|v| Cell::num(*v, 1)));
            r.extend(t.operations.values[i].iter().map(|v| Cell::num(*v, 1)));
            if let Some(y) = &t.reward {
                r.push(Cell::num(y[i], 1));
            }
            r
        })
        .collect();
    Table {
        title: "Profiles".into(),
        headers,
        rows,
    }
}

/// Scatter of one foundational dimension against one operation.
pub fn association_scatter(t: &ProfileTable, r: &Report, j: usize, k: usize) -> String {
    let colours = family_colours(&t.families);
    let (f, o) = (&t.foundational.names[j], &t.operations.names[k]);
    let points: Vec<Point> = (0..t.n_models())
        .filter_map(|i| {
            let (x, y) = (t.foundational.values[i][j]?, t.operations.values[i][k]?);
            Some(Point {
                x,
                y,
                label: t.models[i].clone(),
                colour: colours[i].clone(),
                tip: format!(
                    "{} ({})\n{f} {x:.1}\n{o} {y:.1}",
                    t.models[i], t.families[i]
                ),
                highlight: false,
            })
        })
        .collect();
    let title = format!(
        "{o} against {f}: r = {}, ρ = {} (n = {})",
        fmt(r.correlations.pearson[j][k], 3),
        fmt(r.correlations.spearman[j][k], 3),
        r.correlations.n[j][k]
    );
    scatter::scatter_with_legend(&title, f, o, &points, false, &family_legend(&t.families))
}

/// The Q² and MAE intervals of a fit, when it has intervals.
fn q2_mae_ci(fit: &Fit) -> (Option<[f64; 2]>, Option<[f64; 2]>) {
    fit.ci95.as_ref().map_or((None, None), |c| (c.q2, c.mae))
}

/// Q² per operation with intervals: the table and the bar chart.
pub fn predictability(r: &Report) -> (Table, String) {
    let mut rows = Vec::new();
    let mut bars = Vec::new();
    for (op, fit) in &r.operations {
        let (q2ci, _) = q2_mae_ci(fit);
        rows.push(vec![
            Cell::text(op),
            Cell::num(fit.q2, 3),
            Cell::Interval {
                value: q2ci,
                decimals: 3,
            },
            Cell::num(fit.mae, 2),
            Cell::num(fit.rmse, 2),
            Cell::num(fit.spearman, 3),
            Cell::text(fit.n.to_string()),
        ]);
        bars.push(Bar {
            label: op.clone(),
            value: fit.q2,
            ci: q2ci,
            tip: format!(
                "{op}: Q² {} {}",
                fmt(fit.q2, 3),
                q2ci.map_or(String::new(), |[a, b]| format!(
                    "[{}, {}]",
                    fmt(Some(a), 3),
                    fmt(Some(b), 3)
                ))
            ),
        });
    }
    let table = Table {
        title: format!(
            "Held-out predictability of each operation from F (α = {})",
            r.settings.alpha
        ),
        headers: [
            "Operation",
            "Q²",
            "Q² 95% interval",
            "MAE",
            "RMSE",
            "ρ",
            "n",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    };
    let svg = chart::bars("Q² per operation (family-held-out)", "Q²", &bars);
    (table, svg)
}

/// How the gap heatmap's rows are ordered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GapOrder {
    Input,
    Model,
    Family,
    Macro,
    /// By the gap of this operation, largest first.
    Operation(String),
}

/// Row order of the gap heatmap.
pub fn gap_order(r: &Report, order: &GapOrder) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..r.models.len()).collect();
    let desc = |v: &[Option<f64>], idx: &mut Vec<usize>| {
        idx.sort_by(|&a, &b| match (v[a], v[b]) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
    };
    match order {
        GapOrder::Input => {}
        GapOrder::Model => idx.sort_by(|&a, &b| r.models[a].cmp(&r.models[b])),
        GapOrder::Family => idx.sort_by(|&a, &b| r.families[a].cmp(&r.families[b]).then(a.cmp(&b))),
        GapOrder::Macro => desc(&r.macro_fit.fit.gap, &mut idx),
        GapOrder::Operation(op) => {
            if let Some(fit) = r.operations.get(op) {
                desc(&fit.gap, &mut idx);
            }
        }
    }
    idx
}

/// Observed against predicted for one operation, one model highlighted.
pub fn gap_scatter(r: &Report, op: &str, highlight: Option<usize>) -> String {
    let Some(fit) = r.operations.get(op) else {
        return String::new();
    };
    let colours = family_colours(&r.families);
    let points = observed_predicted_points(r, fit, &colours, highlight);
    scatter::scatter_with_legend(
        &format!(
            "{op}: observed against held-out prediction (Q² {})",
            fmt(fit.q2, 3)
        ),
        &format!("predicted {op}"),
        &format!("observed {op}"),
        &points,
        true,
        &family_legend(&r.families),
    )
}

fn observed_predicted_points(
    r: &Report,
    fit: &Fit,
    colours: &[String],
    highlight: Option<usize>,
) -> Vec<Point> {
    (0..r.models.len())
        .filter_map(|i| {
            let (y, p) = (fit.observed[i]?, fit.predicted[i]?);
            Some(Point {
                x: p,
                y,
                label: r.models[i].clone(),
                colour: colours[i].clone(),
                tip: format!(
                    "{} ({})\nobserved {y:.2}\npredicted {p:.2}\ngap {}",
                    r.models[i],
                    r.families[i],
                    fmt(Some(y - p), 2)
                ),
                highlight: highlight == Some(i),
            })
        })
        .collect()
}

/// Table 5: the overall gap per model, and its scatter.
pub fn overall(r: &Report) -> (Table, String, String) {
    let m = &r.macro_fit.fit;
    let rows = (0..r.models.len())
        .map(|i| {
            vec![
                Cell::text(&r.models[i]),
                Cell::text(&r.families[i]),
                Cell::num(m.observed[i], 1),
                Cell::num(m.predicted[i], 2),
                Cell::num(m.gap[i], 2),
            ]
        })
        .collect();
    let table = Table {
        title: "Overall capability realization gaps".into(),
        headers: ["Model", "Family", "Observed", "Predicted", "Gap"]
            .map(String::from)
            .to_vec(),
        rows,
    };
    let q2ci = m.ci95.as_ref().and_then(|c| c.q2);
    let line = format!(
        "Macro = {}. Macro-prediction MAE {} versus {} for the training-mean baseline; Q² = {}{}.",
        r.macro_fit.definition,
        fmt(m.mae, 2),
        fmt(m.baseline_mae, 2),
        fmt(m.q2, 3),
        q2ci.map_or(String::new(), |[a, b]| format!(
            " (95% interval {} to {})",
            fmt(Some(a), 3),
            fmt(Some(b), 3)
        ))
    );
    let colours = family_colours(&r.families);
    let svg = scatter::scatter_with_legend(
        "Macro operation score: observed against predicted",
        "predicted macro",
        "observed macro",
        &observed_predicted_points(r, m, &colours, None),
        true,
        &family_legend(&r.families),
    );
    (table, line, svg)
}

/// Table 6 with intervals, the paired differences, and the three panels.
pub fn reward(r: &Report) -> Option<(Table, Table, Vec<String>)> {
    let o = r.outcome.as_ref()?;
    let mut rows = vec![vec![
        Cell::text("Training-mean baseline"),
        Cell::num(None, 3),
        Cell::num(o.baseline.mae, 2),
        Cell::num(o.baseline.rmse, 2),
        Cell::num(o.baseline.q2, 3),
        Cell::Interval {
            value: None,
            decimals: 3,
        },
        Cell::Interval {
            value: None,
            decimals: 2,
        },
        Cell::num(Some(o.observed.iter().flatten().count() as f64), 0),
    ]];
    for (name, fit) in [
        ("Foundational profile F", &o.f),
        ("Operation profile O", &o.o),
        ("Joint profile F+O", &o.fo),
    ] {
        let (q2ci, maeci) = q2_mae_ci(fit);
        rows.push(vec![
            Cell::text(name),
            Cell::num(fit.spearman, 3),
            Cell::num(fit.mae, 2),
            Cell::num(fit.rmse, 2),
            Cell::num(fit.q2, 3),
            Cell::Interval {
                value: q2ci,
                decimals: 3,
            },
            Cell::Interval {
                value: maeci,
                decimals: 2,
            },
            Cell::num(Some(fit.n as f64), 0),
        ]);
    }
    let table = Table {
        title: format!(
            "Reward prediction (family-held-out, α = {})",
            r.settings.alpha
        ),
        headers: [
            "Predictors",
            "ρ",
            "MAE",
            "RMSE",
            "Q²",
            "Q² 95% interval",
            "MAE 95% interval",
            "n",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    };
    // Differences are taken on the models both predictors cover (the core
    // restricts them; docs/decisions.md 21): the title says when that is not
    // every model a predictor covers.
    let left_out: Vec<&String> = {
        let mut v: Vec<&String> = Vec::new();
        for d in r.differences.iter().flat_map(|d| d.values()) {
            for m in &d.excluded {
                if !v.contains(&m) {
                    v.push(m);
                }
            }
        }
        v
    };
    let common = r
        .differences
        .iter()
        .flat_map(|d| d.values())
        .map(|d| d.n)
        .min()
        .unwrap_or(0);
    let title = if left_out.is_empty() {
        "Paired differences between predictors (same bootstrap draws)".to_string()
    } else {
        format!(
            "Paired differences between predictors (same bootstrap draws), on the {common} models both predictors cover; left out: {}",
            left_out.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", ")
        )
    };
    let diffs = Table {
        title,
        headers: [
            "Difference",
            "ΔQ²",
            "ΔQ² 95% interval",
            "ΔMAE",
            "ΔMAE 95% interval",
            "n",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .differences
            .iter()
            .flatten()
            .map(|(name, d)| {
                let c = d.ci95.as_ref();
                vec![
                    Cell::text(name.replace(" - ", " − ")),
                    Cell::num(d.q2, 3),
                    Cell::Interval {
                        value: c.and_then(|c| c.q2),
                        decimals: 3,
                    },
                    Cell::num(d.mae, 2),
                    Cell::Interval {
                        value: c.and_then(|c| c.mae),
                        decimals: 2,
                    },
                    Cell::num(Some(d.n as f64), 0),
                ]
            })
            .collect(),
    };
    let colours = family_colours(&r.families);
    let panels = [("F", &o.f), ("O", &o.o), ("F+O", &o.fo)]
        .iter()
        .map(|(name, fit)| {
            scatter::scatter_with_legend(
                &format!("Reward from {name}: Q² {}", fmt(fit.q2, 3)),
                "predicted reward",
                "observed reward",
                &observed_predicted_points(r, fit, &colours, None),
                true,
                &family_legend(&r.families),
            )
        })
        .collect();
    Some((table, diffs, panels))
}

/// The reward panels as a table: each model's observed reward and its
/// held-out predictions (the figures' text alternative).
pub fn reward_predictions(r: &Report) -> Option<Table> {
    let o = r.outcome.as_ref()?;
    Some(Table {
        title: "Reward predictions per model (held out by fold)".into(),
        headers: ["Model", "Family", "Observed", "Baseline", "F", "O", "F+O"]
            .map(String::from)
            .to_vec(),
        rows: (0..r.models.len())
            .map(|i| {
                vec![
                    Cell::text(&r.models[i]),
                    Cell::text(&r.families[i]),
                    Cell::num(o.observed[i], 1),
                    Cell::num(o.baseline.predicted[i], 2),
                    Cell::num(o.f.predicted[i], 2),
                    Cell::num(o.o.predicted[i], 2),
                    Cell::num(o.fo.predicted[i], 2),
                ]
            })
            .collect(),
    })
}

/// The penalty curves as a table (the charts' text alternative).
pub fn penalty_table(r: &Report) -> Option<Table> {
    let s = r.sensitivity.as_ref()?;
    let mut headers = vec!["α".to_string()];
    for m in ["MAE", "ρ", "Q²"] {
        for p in ["F", "O", "F+O"] {
            headers.push(format!("{p} {m}"));
        }
    }
    let rows = s
        .alphas
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let mut row = vec![Cell::num(Some(*a), if *a < 1.0 { 3 } else { 1 })];
            for (pick, d) in [(0usize, 2usize), (1, 3), (2, 3)] {
                for c in [&s.f, &s.o, &s.fo] {
                    let v = match pick {
                        0 => c.mae[k],
                        1 => c.spearman[k],
                        _ => c.q2[k],
                    };
                    row.push(Cell::num(v, d));
                }
            }
            row
        })
        .collect();
    Some(Table {
        title: "Penalty sensitivity of reward prediction, per α".into(),
        headers,
        rows,
    })
}

/// Penalty sensitivity curves and the nested-selection table.
pub fn penalty(r: &Report) -> Option<(Vec<String>, Option<Table>)> {
    let s = r.sensitivity.as_ref()?;
    let series = |pick: fn(&gapscope_gaps::analysis::Curve) -> &Vec<Option<f64>>| {
        vec![
            Series {
                name: "F".into(),
                colour: "#0072B2".into(),
                dash: "",
                values: pick(&s.f).clone(),
            },
            Series {
                name: "O".into(),
                colour: "#D55E00".into(),
                dash: "6 3",
                values: pick(&s.o).clone(),
            },
            Series {
                name: "F+O".into(),
                colour: "#009E73".into(),
                dash: "2 2",
                values: pick(&s.fo).clone(),
            },
        ]
    };
    let charts = vec![
        chart::log_lines(
            "Reward MAE against α",
            "α (log scale)",
            "MAE",
            &s.alphas,
            &series(|c| &c.mae),
            Some(s.reference_alpha),
        ),
        chart::log_lines(
            "Reward ρ against α",
            "α (log scale)",
            "Spearman ρ",
            &s.alphas,
            &series(|c| &c.spearman),
            Some(s.reference_alpha),
        ),
        chart::log_lines(
            "Reward Q² against α",
            "α (log scale)",
            "Q²",
            &s.alphas,
            &series(|c| &c.q2),
            Some(s.reference_alpha),
        ),
    ];
    let nested = r.outcome.as_ref().and_then(|o| o.nested.as_ref()).map(|n| {
        let mut rows: Vec<Vec<Cell>> = n
            .chosen_alpha
            .iter()
            .map(|(fold, a)| vec![Cell::text(fold), Cell::num(Some(*a), 1)])
            .collect();
        rows.push(vec![
            Cell::text(format!(
                "outer metrics: ρ {}, MAE {}, RMSE {}, Q² {}",
                fmt(n.spearman, 3),
                fmt(n.mae, 2),
                fmt(n.rmse, 2),
                fmt(n.q2, 3)
            )),
            Cell::text(""),
        ]);
        Table {
            title: format!(
                "Nested selection ({}): α chosen per held-out fold",
                n.predictors
            ),
            headers: vec!["Held-out fold".into(), "Chosen α".into()],
            rows,
        }
    });
    Some((charts, nested))
}

/// The association-sensitivity table of the report's chosen pair.
pub fn sensitivity_table(r: &Report) -> Option<Table> {
    let a = r.association_sensitivity.as_ref()?;
    let mut specs = vec![&a.all];
    specs.extend(&a.provider_removed);
    specs.push(&a.family_centred);
    specs.extend(&a.family_removed);
    Some(Table {
        title: format!(
            "Association of {} with {} under each specification",
            a.foundational, a.operation
        ),
        headers: ["Specification", "Pearson r", "Spearman ρ", "Models"]
            .map(String::from)
            .to_vec(),
        rows: specs
            .iter()
            .map(|s| {
                vec![
                    Cell::text(&s.label),
                    Cell::num(s.pearson, 3),
                    Cell::num(s.spearman, 3),
                    Cell::text(format!("({})", s.n)),
                ]
            })
            .collect(),
    })
}

/// The slope chart and table of rankings.
pub fn rankings(r: &Report) -> (Table, String) {
    let k = &r.rankings;
    let colours = family_colours(&r.families);
    let items: Vec<_> = (0..r.models.len())
        .map(|i| SlopeItem {
            label: r.models[i].clone(),
            left: k.foundational_rank[i],
            right: k.operation_rank[i],
            colour: colours[i].clone(),
            tip: format!(
                "{}: foundational mean {} (rank {}), operation mean {} (rank {})",
                r.models[i],
                fmt(k.foundational_mean[i], 1),
                fmt(k.foundational_rank[i], 1),
                fmt(k.operation_mean[i], 1),
                fmt(k.operation_rank[i], 1)
            ),
        })
        .collect();
    let svg = chart::slope(
        &format!("Ranks by profile (ρ = {})", fmt(k.spearman, 3)),
        "foundational mean",
        "operation mean",
        &items,
    );
    let table = Table {
        title: "Models by foundational and operation mean".into(),
        headers: [
            "Model",
            "Family",
            "Foundational mean",
            "Rank",
            "Operation mean",
            "Rank",
        ]
        .map(String::from)
        .to_vec(),
        rows: (0..r.models.len())
            .map(|i| {
                vec![
                    Cell::text(&r.models[i]),
                    Cell::text(&r.families[i]),
                    Cell::num(k.foundational_mean[i], 1),
                    Cell::num(k.foundational_rank[i], 1),
                    Cell::num(k.operation_mean[i], 1),
                    Cell::num(k.operation_rank[i], 1),
                ]
            })
            .collect(),
    };
    (table, svg)
}

/// The paper's partial tables, embedded (copied from ../shared/data/paper; a
/// test checks the copies are current).
pub const PAPER_TABLES: [(&str, &str, &str); 4] = [
    (
        "Table 4 (5 of 15 rows)",
        "Foundational capability and agentic operation profiles.",
        include_str!("../../../assets/paper/table4_profiles_partial.csv"),
    ),
    (
        "Table 5 (6 of 15 rows)",
        "Overall capability realization gaps; macro MAE 4.47 vs 5.92 baseline, Q² = 0.373.",
        include_str!("../../../assets/paper/table5_overall_gaps_partial.csv"),
    ),
    (
        "Table 6 (complete)",
        "Reward prediction, family-held-out, α = 10.",
        include_str!("../../../assets/paper/table6_reward_prediction.csv"),
    ),
    (
        "Table 10 (5 of 15 rows)",
        "Observed minus family-held-out prediction per operation, α = 10.",
        include_str!("../../../assets/paper/table10_operation_gaps_partial.csv"),
    ),
];

/// A paper table as printed (text cells, exactly as in the source).
pub fn paper_table(title: &str, csv: &str) -> Table {
    let mut lines = csv.lines().filter(|l| !l.trim().is_empty());
    let headers = lines
        .next()
        .unwrap_or_default()
        .split(',')
        .map(String::from)
        .collect();
    Table {
        title: format!("{title} — paper, partial tables"),
        headers,
        rows: lines
            .map(|l| l.split(',').map(Cell::text).collect())
            .collect(),
    }
}

/// A re-imported report's differences from its recomputation
/// ([`gapscope_gaps::reimport::compare`]): where, the file's value, the
/// recomputed one.
pub fn reimport_table(c: &gapscope_gaps::reimport::Comparison) -> Table {
    Table {
        title: format!(
            "Numbers of the dropped report that differ from its recomputation ({} of {})",
            c.differences.len(),
            c.compared
        ),
        headers: ["Where", "In the file", "Recomputed"]
            .map(String::from)
            .to_vec(),
        rows: c
            .differences
            .iter()
            .map(|d| {
                vec![
                    Cell::text(&d.path),
                    Cell::text(&d.reported),
                    Cell::text(&d.recomputed),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_sentence_names_the_missing_profile_table_or_the_reason() {
        let e = format!(
            "a.json + b.json: {}",
            gapscope_gaps::analysis::AnalysisError::NoFoundational
        );
        let s = needs_sentence(&e);
        assert!(
            s.starts_with("Realization gaps need a foundational profile table"),
            "{s}"
        );
        assert!(
            s.contains("docs/formats.md") && !s.contains("--foundational"),
            "{s}"
        );
        let s = needs_sentence("a.json: only 2 model(s): a held-out analysis needs at least 3");
        assert!(s.contains("(a.json: only 2 model(s)"), "{s}");
    }
    use gapscope_gaps::{analyze, Settings};
    use gapscope_synth::profiles as synth;

    fn example() -> (ProfileTable, Report) {
        let t = synth::generate(&Default::default()).table;
        let r = analyze(
            &t,
            &Settings {
                bootstrap: 200,
                ..Settings::default()
            },
        )
        .unwrap();
        (t, r)
    }

    #[test]
    fn reward_tables_show_each_predictors_n_and_the_common_models() {
        // GI missing for c1, c2: F covers six models, O and F+O four; every
        // prediction is its fold's training mean (constant features), so
        // MAE(O) = 20, MAE(F) = 130/6 over six, 17.5 over a1..b2 and
        // ΔMAE(O − F) = 2.5 (crates/gapscope-gaps/tests/reward_coverage.rs).
        let t = ProfileTable::read(
            "model,family,TU,GI,reward\na1,A,50,50,10\na2,A,50,50,20\nb1,B,50,50,30\nb2,B,50,50,40\nc1,C,50,,50\nc2,C,50,,60\n",
            &Default::default(),
        )
        .unwrap();
        let r = analyze(
            &t,
            &Settings {
                bootstrap: 0,
                nested: false,
                ..Settings::default()
            },
        )
        .unwrap();
        let (rt, dt, _) = reward(&r).unwrap();
        assert_eq!(rt.headers.last().unwrap(), "n");
        let n: Vec<String> = rt.rows.iter().map(|row| row[7].display()).collect();
        assert_eq!(n, ["6", "6", "4", "4"]);
        assert_eq!(
            dt.title,
            "Paired differences between predictors (same bootstrap draws), on the 4 models both predictors cover; left out: c1, c2"
        );
        assert_eq!(dt.rows[1][0].display(), "O − F");
        assert_eq!(dt.rows[1][3].display(), "2.50");
        assert_eq!(dt.rows[1][5].display(), "4");
    }

    #[test]
    fn every_view_builds_from_the_example() {
        let (t, r) = example();
        assert_eq!(data_table(&t).rows.len(), 15);
        assert!(association_scatter(&t, &r, 0, 1).contains("r = "));
        let (pt, svg) = predictability(&r);
        assert_eq!(pt.rows.len(), 7);
        assert_eq!(
            svg.matches("<rect x=").count(),
            7 + 1,
            "seven bars and the plot frame"
        );
        let (ot, line, _) = overall(&r);
        assert_eq!(ot.rows.len(), 15);
        assert!(line.contains("versus") && line.contains("Q² ="));
        let (rt, dt, panels) = reward(&r).unwrap();
        assert_eq!((rt.rows.len(), dt.rows.len(), panels.len()), (4, 3, 3));
        assert_eq!(
            dt.title,
            "Paired differences between predictors (same bootstrap draws)"
        );
        let per_model = reward_predictions(&r).unwrap();
        assert_eq!(per_model.rows.len(), 15);
        assert_eq!(
            per_model.rows[0][6].display(),
            fmt(r.outcome.as_ref().unwrap().fo.predicted[0], 2)
        );
        let (charts, nested) = penalty(&r).unwrap();
        assert_eq!(charts.len(), 3);
        assert_eq!(nested.unwrap().rows.len(), 9);
        let pt = penalty_table(&r).unwrap();
        assert_eq!((pt.rows.len(), pt.headers.len()), (25, 10));
        assert_eq!(pt.rows[12][0].display(), "10.0", "α = 10 on the grid");
        assert!(
            sensitivity_table(&r).is_none(),
            "only when a pair was asked for"
        );
        let (kt, slope) = rankings(&r);
        assert_eq!(kt.rows.len(), 15);
        assert!(slope.contains("Ranks by profile"));
        assert!(
            gap_scatter(&r, "PL", Some(3)).contains("r=\"7\""),
            "the clicked model is highlighted"
        );
    }

    #[test]
    fn gap_orders() {
        let (_, r) = example();
        let by_macro = gap_order(&r, &GapOrder::Macro);
        let g = &r.macro_fit.fit.gap;
        assert!(by_macro.windows(2).all(|w| g[w[0]] >= g[w[1]]));
        let by_model = gap_order(&r, &GapOrder::Model);
        assert!(by_model
            .windows(2)
            .all(|w| r.models[w[0]] <= r.models[w[1]]));
        let by_op = gap_order(&r, &GapOrder::Operation("AS".into()));
        let a = &r.operations["AS"].gap;
        assert!(by_op.windows(2).all(|w| a[w[0]] >= a[w[1]]));
        assert_eq!(gap_order(&r, &GapOrder::Input), (0..15).collect::<Vec<_>>());
    }

    #[test]
    fn paper_tables_are_shown_as_printed() {
        let t = paper_table(PAPER_TABLES[1].0, PAPER_TABLES[1].2);
        assert!(t.title.ends_with("paper, partial tables"));
        assert_eq!(t.headers, ["model", "observed", "predicted", "gap"]);
        assert_eq!(t.rows[0][3].display(), "-3.24");
    }

    #[test]
    fn embedded_paper_tables_equal_the_shared_copies() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/paper");
        for name in [
            "table4_profiles_partial.csv",
            "table5_overall_gaps_partial.csv",
            "table6_reward_prediction.csv",
            "table10_operation_gaps_partial.csv",
        ] {
            let shared = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (../shared must be beside the clone)",
                    dir.join(name).display()
                )
            });
            let ours = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../assets/paper")
                    .join(name),
            )
            .unwrap();
            assert_eq!(
                ours, shared,
                "assets/paper/{name} differs from ../shared/data/paper/{name}"
            );
        }
    }
}
