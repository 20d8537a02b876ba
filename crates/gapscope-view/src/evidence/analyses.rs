//! View models of the addendum's analyses on the Evidence-to-action page:
//! all-planned ECS (§5), case-set composition (Tables 6, 7; §4), decision
//! readiness (§7) and the intervention analyses (§8). Each figure comes with
//! its click targets: the episodes behind a row (`data-row`), a series
//! (`data-series`) or a segment (`data-target`), by index. Every number is
//! a field of the report.

use gapscope_evidence::interventions::Contrast;
use gapscope_evidence::{EvidenceReport, Protocol};
use serde::{Deserialize, Serialize};

use crate::inference::PanelText;

use crate::chart::{self, ForestRow, Join, LegendItem, Line, LinePoint, Segment, StackedBar};
use crate::format::fmt;
use crate::table::{Cell, Table};

use super::{config_colour, pct, FAMILY_COLOURS};

/// A figure with the episodes behind each click target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysisFigure {
    /// The sub-view section it belongs to (`first-action`, `distractors`,
    /// `evidence`, `static`, `scgr`, `readiness`).
    pub section: String,
    pub svg: String,
    /// Per target index: what it is, and the trajectory ids behind it.
    pub targets: Vec<(String, Vec<String>)>,
}

/// The ECS tables over all planned runs (addendum §5), shaped as the
/// scored-only ones.
pub fn ecs_all_planned_table(r: &EvidenceReport) -> Table {
    let mut rows = Vec::new();
    let mut row = |label: String,
                   pick: &dyn Fn(
        &gapscope_evidence::ConfigEcs,
    ) -> Option<gapscope_evidence::MeanSd>| {
        rows.push(super::ecs_row(label, &r.ecs_all_planned, pick));
    };
    row("Overall".into(), &|c| Some(c.summary.overall));
    for p in &r.protocols {
        row(p.name().into(), &|c| {
            c.summary.by_protocol.get(p.name()).copied()
        });
    }
    row("P-M (protocol macro)".into(), &|c| {
        Some(c.summary.protocol_macro)
    });
    row("D-M (domain macro)".into(), &|c| {
        Some(c.summary.domain_macro)
    });
    Table {
        title: "ECS over all planned runs (percent; unscored runs count 0; equal to the scored-only ECS at coverage 1)".into(),
        headers: super::per_config_headers(r, "Protocol"),
        rows,
    }
}

/// Tables 6 and 7 (addendum §4).
pub fn composition_tables(r: &EvidenceReport) -> [Table; 2] {
    let t6 = &r.composition.table6;
    let mut h6 = vec!["Protocol".to_string()];
    h6.extend(t6.domains.iter().cloned());
    h6.push("Total".into());
    let mut rows6: Vec<Vec<Cell>> = t6
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![Cell::text(&row.protocol)];
            cells.extend(row.by_domain.iter().map(|n| Cell::text(n.to_string())));
            cells.push(Cell::text(row.total.to_string()));
            cells
        })
        .collect();
    let mut total = vec![Cell::text("Total")];
    total.extend(
        t6.totals_by_domain
            .iter()
            .map(|n| Cell::text(n.to_string())),
    );
    total.push(Cell::text(t6.total.to_string()));
    rows6.push(total);
    let table6 = Table {
        title: "Table 6. Planned cases by protocol and domain".into(),
        headers: h6,
        rows: rows6,
    };
    let table7 = Table {
        title: "Table 7. Case structure: required reads per case, action nodes, dependency edges after transitive reduction, cases with a fork or a join".into(),
        headers: [
            "Protocol",
            "Cases",
            "Required reads (mean)",
            "Required reads (max)",
            "Action nodes",
            "Dependency edges",
            "Forks",
            "Joins",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .composition
            .table7
            .iter()
            .map(|row| {
                vec![
                    Cell::text(&row.protocol),
                    Cell::text(row.cases.to_string()),
                    Cell::num(row.required_reads_mean, 1),
                    Cell::text(row.required_reads_max.map_or("—".into(), |m| m.to_string())),
                    Cell::text(row.action_nodes.to_string()),
                    Cell::text(row.dependency_edges.to_string()),
                    Cell::text(row.forks.to_string()),
                    Cell::text(row.joins.to_string()),
                ]
            })
            .collect(),
    };
    [table6, table7]
}

/// Decision-readiness curves, one figure per protocol (a step line per
/// side; a marker opens the side's qualifying episodes).
pub fn readiness_figures(r: &EvidenceReport) -> Vec<(Protocol, AnalysisFigure)> {
    [Protocol::V0, Protocol::V1, Protocol::V2, Protocol::V3]
        .into_iter()
        .filter_map(|p| {
            let curves: Vec<_> = r
                .readiness
                .iter()
                .filter(|c| c.protocol == p && c.reason.is_none())
                .collect();
            if curves.is_empty() {
                return None;
            }
            let lines: Vec<Line> = curves
                .iter()
                .enumerate()
                .map(|(k, c)| Line {
                    name: c.config.clone(),
                    colour: config_colour(r, &c.config).into(),
                    dash: if k % 2 == 0 { "" } else { "5 3" },
                    points: c
                        .points
                        .iter()
                        .map(|[x, y]| LinePoint {
                            x: *x,
                            y: Some(*y),
                            ci: None,
                            tip: format!(
                                "{} · {}\nshare with support ≤ {}: {} %\nclick for the {} episodes",
                                c.config,
                                p.name(),
                                fmt(Some(*x), 2),
                                fmt(Some(y * 100.0), 1),
                                c.episode_ids.len()
                            ),
                        })
                        .collect(),
                })
                .collect();
            let what = if matches!(p, Protocol::V0 | Protocol::V1) {
                "required reads satisfied before deciding"
            } else {
                "gate requirements established before the call"
            };
            Some((
                p,
                AnalysisFigure {
                    section: "readiness".into(),
                    svg: chart::lines(
                        &format!("Decision readiness, {}", p.name()),
                        what,
                        "share of episodes (≤ x)",
                        &lines,
                        Join::StepAfter,
                        Some((0.0, 1.0)),
                    ),
                    targets: curves
                        .iter()
                        .map(|c| {
                            (
                                format!("readiness {} · {}", c.config, p.name()),
                                c.episode_ids.clone(),
                            )
                        })
                        .collect(),
                },
            ))
        })
        .collect()
}

/// The readiness curves as a table: n per repetition, mean, share at full
/// support, the corners; "—" with the reason when no episode qualifies.
pub fn readiness_table(r: &EvidenceReport) -> Table {
    Table {
        title: "Decision readiness (V0/V1: share of required reads satisfied before deciding; V2/V3: per gate, requirements established before it; within each repetition, then averaged)".into(),
        headers: [
            "Side",
            "Protocol",
            "n per repetition (mean)",
            "n range",
            "Mean support %",
            "At full support %",
            "Curve (x: F %)",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .readiness
            .iter()
            .map(|c| {
                vec![
                    Cell::text(&c.config),
                    Cell::text(c.protocol.name()),
                    Cell::num(c.n_mean, 1),
                    Cell::text(format!("{}–{}", c.n_min, c.n_max)),
                    Cell::num(pct(c.mean), 1),
                    Cell::num(pct(c.full_support), 1),
                    Cell::text(c.reason.clone().unwrap_or_else(|| {
                        c.points
                            .iter()
                            .map(|[x, y]| format!("{}: {}", fmt(Some(*x), 2), fmt(Some(y * 100.0), 1)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })),
                ]
            })
            .collect(),
    }
}

/// The episodes behind a contrast: the matched cases under both sides of
/// one configuration.
fn contrast_episodes(r: &EvidenceReport, config: &str, c: &Contrast) -> Vec<String> {
    r.episodes
        .iter()
        .filter(|e| {
            e.config == config
                && (e.condition == c.treatment || e.condition == c.reference)
                && c.case_ids.contains(&e.case_id)
        })
        .map(|e| e.trajectory_id.clone())
        .collect()
}

/// One table row of a contrast: n matched, both rates (percent or counts),
/// Δ with its interval, the McNemar p, the dropped cases.
fn contrast_cells(label: String, c: &Contrast, scale: f64) -> Vec<Cell> {
    let q = &c.paired;
    let s = |v: Option<f64>| v.map(|x| x * scale);
    vec![
        Cell::text(label),
        Cell::text(format!("{} vs {}", c.treatment, c.reference)),
        Cell::text(q.n.to_string()),
        Cell::num(s(q.rate_a), 2),
        Cell::num(s(q.rate_b), 2),
        Cell::num(s(q.delta), 2),
        Cell::Interval {
            value: q.interval.map(|[a, b]| [a * scale, b * scale]),
            decimals: 2,
        },
        Cell::Num {
            value: q.mcnemar.as_ref().and_then(|m| m.p_value),
            decimals: 4,
        },
        Cell::text(format!(
            "{} / {}",
            c.dropped_treatment.len(),
            c.dropped_reference.len()
        )),
    ]
}

fn contrast_headers(first: &str, unit: &str) -> Vec<String> {
    vec![
        first.to_string(),
        "Treatment vs reference".into(),
        "Matched cases".into(),
        format!("Treatment {unit}"),
        format!("Reference {unit}"),
        format!("Δ {unit}"),
        "95% interval".into(),
        "clustered McNemar p".into(),
        "Dropped (treatment / reference)".into(),
    ]
}

fn forest_row(label: String, c: &Contrast, scale: f64, unit: &str) -> ForestRow {
    let q = &c.paired;
    ForestRow {
        label,
        value: q.delta.map(|d| d * scale),
        bootstrap: q.interval.map(|[a, b]| [a * scale, b * scale]),
        normal: None,
        tip: format!(
            "{} − {}: Δ {} {unit} {}, {} matched cases\nclick for the episodes",
            c.treatment,
            c.reference,
            fmt(q.delta.map(|d| d * scale), 1),
            q.interval.map_or("—".into(), |[a, b]| format!(
                "[{}, {}]",
                fmt(Some(a * scale), 1),
                fmt(Some(b * scale), 1)
            )),
            q.n
        ),
    }
}

/// §8.1: the first-action curves of each configuration (a figure each: F(k)
/// per condition, a marker opens that condition's matched episodes) and one
/// table of the Δ acted contrasts.
pub fn first_action(r: &EvidenceReport) -> (Vec<AnalysisFigure>, Table) {
    let mut figures = Vec::new();
    let mut rows = Vec::new();
    for f in &r.interventions.first_action {
        let lines: Vec<Line> = f
            .curves
            .iter()
            .enumerate()
            .map(|(k, c)| Line {
                name: c.condition.clone(),
                colour: FAMILY_COLOURS[k % FAMILY_COLOURS.len()].into(),
                dash: if k == 0 { "" } else { "5 3" },
                points: c
                    .f
                    .iter()
                    .enumerate()
                    .map(|(kk, y)| LinePoint {
                        x: kk as f64,
                        y: Some(*y),
                        ci: None,
                        tip: format!(
                            "{} · {}: F({kk}) = {} %; acted {} %\nclick for its {} episodes",
                            f.config,
                            c.condition,
                            fmt(Some(y * 100.0), 1),
                            fmt(pct(c.acted), 1),
                            c.episodes.len()
                        ),
                    })
                    .collect(),
            })
            .collect();
        figures.push(AnalysisFigure {
            section: "first-action".into(),
            svg: chart::lines(
                &format!(
                    "First action, {} ({} matched cases)",
                    f.config, f.matched_cases
                ),
                "information calls before the first action (k)",
                "share of pairs acted after ≤ k",
                &lines,
                Join::StepAfter,
                Some((0.0, 1.0)),
            ),
            targets: f
                .curves
                .iter()
                .map(|c| {
                    (
                        format!("first action {} · {}", f.config, c.condition),
                        c.episodes.iter().map(|e| e.trajectory_id.clone()).collect(),
                    )
                })
                .collect(),
        });
        for c in &f.acted {
            rows.push(contrast_cells(format!("{} · acted", f.config), c, 100.0));
        }
    }
    (
        figures,
        Table {
            title: "First action (§8.1): Δ acted (the curves' endpoints), treatment vs reference, rule C over the panel's matched pairs".into(),
            headers: contrast_headers("Configuration", "%"),
            rows,
        },
    )
}

/// A forest of contrasts with its table: `items` are (row label, config,
/// contrast, scale, unit).
fn contrast_forest(
    r: &EvidenceReport,
    section: &'static str,
    (title, figure_title): (&str, &str),
    x_label: &str,
    items: &[(String, &str, &Contrast, f64, &str)],
) -> (AnalysisFigure, Table) {
    let rows: Vec<ForestRow> = items
        .iter()
        .map(|(label, _, c, scale, unit)| forest_row(label.clone(), c, *scale, unit))
        .collect();
    let figure = AnalysisFigure {
        section: section.into(),
        svg: chart::forest(figure_title, x_label, &rows),
        targets: items
            .iter()
            .map(|(label, config, c, _, _)| (label.clone(), contrast_episodes(r, config, c)))
            .collect(),
    };
    let table = Table {
        title: title.to_string(),
        headers: contrast_headers("Contrast", "(as shown)"),
        rows: items
            .iter()
            .map(|(label, _, c, scale, _)| contrast_cells(label.clone(), c, *scale))
            .collect(),
    };
    (figure, table)
}

/// §8.2: Δ mean information calls and Δ action probability per distractor
/// pair.
pub fn distractors(r: &EvidenceReport) -> Option<(AnalysisFigure, Table)> {
    let iv = &r.interventions.distractors;
    if iv.is_empty() {
        return None;
    }
    let mut items = Vec::new();
    for d in iv {
        let name = format!("{} · {}", d.config, d.acted.treatment);
        items.push((
            format!("{name} · calls"),
            d.config.as_str(),
            &d.information_calls,
            1.0,
            "calls",
        ));
        items.push((
            format!("{name} · acted"),
            d.config.as_str(),
            &d.acted,
            100.0,
            "points",
        ));
    }
    Some(contrast_forest(
        r,
        "distractors",
        (
            "Distractors (§8.2): Δ information calls (calls) and Δ action probability (points), treatment − reference",
            "Distractors: Δ calls and Δ acted (points)",
        ),
        "Δ (calls, or points)",
        &items,
    ))
}

/// Whether (probed, acted) is one response kind.
type Response = fn(bool, bool) -> bool;

/// §8.3: the response shares as stacked bars (a segment opens its
/// episodes) and a table with Δ acted and Δ probed.
pub fn evidence_responses(r: &EvidenceReport) -> Option<(AnalysisFigure, Table)> {
    let iv = &r.interventions.evidence;
    if iv.is_empty() {
        return None;
    }
    let kinds: [(&str, &str, Response); 4] = [
        ("investigated stop", "#009E73", |p, a| p && !a),
        ("acted despite", "#E69F00", |p, a| p && a),
        ("acted uninvestigated", "#D55E00", |p, a| !p && a),
        ("stopped uninvestigated", "#999999", |p, a| !p && !a),
    ];
    let mut bars = Vec::new();
    let mut targets = Vec::new();
    let mut rows = Vec::new();
    for e in iv {
        for (is_treatment, sh) in [(true, &e.treatment), (false, &e.reference)] {
            let mut segments = Vec::new();
            for (name, colour, pick) in kinds {
                let ids: Vec<String> = sh
                    .episode_ids
                    .iter()
                    .filter(|id| {
                        let probed = sh.probed_ids.contains(id);
                        r.episodes
                            .iter()
                            .find(|x| &x.trajectory_id == *id)
                            .is_some_and(|x| pick(probed, x.acted))
                    })
                    .cloned()
                    .collect();
                let share = ids.len() as f64 / sh.episodes.max(1) as f64;
                segments.push(Segment {
                    value: share,
                    colour: colour.into(),
                    hatch: false,
                    tip: format!(
                        "{} · {}: {name} {} % ({} episodes)\nclick to list them",
                        e.config,
                        sh.condition,
                        fmt(Some(share * 100.0), 1),
                        ids.len()
                    ),
                    data: vec![("target", targets.len().to_string())],
                });
                targets.push((format!("{} · {} · {name}", e.config, sh.condition), ids));
            }
            bars.push(StackedBar {
                label: crate::labels::fit_label(
                    &format!("{} · {}", e.config, sh.condition),
                    11.0,
                    160.0,
                ),
                segments,
            });
            rows.push(vec![
                Cell::text(&e.config),
                Cell::text(&sh.condition),
                Cell::text(sh.episodes.to_string()),
                Cell::num(pct(sh.investigated_stop), 1),
                Cell::num(pct(sh.acted_despite), 1),
                Cell::num(pct(sh.acted_uninvestigated), 1),
                Cell::num(pct(sh.stopped_uninvestigated), 1),
                Cell::text(format!("{} / {} / {}", sh.block, sh.defer, sh.other)),
                Cell::text(if is_treatment {
                    format!(
                        "Δ acted {}, Δ probed {} points",
                        fmt(pct(e.acted.paired.delta), 1),
                        fmt(pct(e.probed.paired.delta), 1)
                    )
                } else {
                    "reference".into()
                }),
            ]);
        }
    }
    let legend: Vec<LegendItem> = kinds
        .iter()
        .map(|(name, colour, _)| LegendItem {
            label: (*name).into(),
            colour: (*colour).into(),
            hatch: false,
        })
        .collect();
    Some((
        AnalysisFigure {
            section: "evidence".into(),
            svg: chart::stacked_bars(
                "Responses of matched episodes",
                "share of matched episodes",
                &bars,
                &legend,
            ),
            targets,
        },
        Table {
            title: "Responses to withheld or contradicted evidence (§8.3; probed = every affected read called, any status); Δ vs baseline with intervals in the contrasts table".into(),
            headers: [
                "Configuration",
                "Condition",
                "Matched episodes",
                "Investigated stop %",
                "Acted despite %",
                "Acted uninvestigated %",
                "Stopped uninvestigated %",
                "Stops BLOCK / DEFER / other",
                "Against baseline",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        },
    ))
}

/// §8.3's contrasts (Δ acted, Δ probed) as a table.
pub fn evidence_contrasts(r: &EvidenceReport) -> Option<Table> {
    let iv = &r.interventions.evidence;
    (!iv.is_empty()).then(|| Table {
        title: "Withheld or contradicted evidence (§8.3): Δ acted and Δ probed vs baseline (points), rule C".into(),
        headers: contrast_headers("Configuration · outcome", "%"),
        rows: iv
            .iter()
            .flat_map(|e| {
                [
                    contrast_cells(format!("{} · acted", e.config), &e.acted, 100.0),
                    contrast_cells(format!("{} · probed", e.config), &e.probed, 100.0),
                ]
            })
            .collect(),
    })
}

/// §8.4: the static − interactive gap per configuration, and the Legacy
/// negatives.
pub fn static_gap(r: &EvidenceReport) -> Option<(AnalysisFigure, Table, Table)> {
    let iv = &r.interventions.static_vs_interactive;
    if iv.is_empty() {
        return None;
    }
    let items: Vec<_> = iv
        .iter()
        .map(|s| (s.config.clone(), s.config.as_str(), &s.gap, 100.0, "points"))
        .collect();
    let (figure, table) = contrast_forest(
        r,
        "static",
        (
            "Static vs interactive (§8.4, Table 9): static accuracy − interactive ECS on V1 cases (points)",
            "Static − interactive ECS, V1 cases",
        ),
        "gap (points)",
        &items,
    );
    let negatives = Table {
        title: "Legacy cases under static (the negatives): correct and rejected (decision ≠ ALLOW)"
            .into(),
        headers: ["Configuration", "Scored", "Correct", "Rejected"]
            .map(String::from)
            .to_vec(),
        rows: iv
            .iter()
            .map(|s| {
                vec![
                    Cell::text(&s.config),
                    Cell::text(s.legacy_scored.to_string()),
                    Cell::text(format!("{}/{}", s.legacy_correct, s.legacy_scored)),
                    Cell::text(format!("{}/{}", s.legacy_rejected, s.legacy_scored)),
                ]
            })
            .collect(),
    };
    Some((figure, table, negatives))
}

/// §8.5: the paired SCGR rows as forests (one per configuration and
/// variant), one table of them, and the unpaired per-protocol figures of
/// each side.
pub fn scgr(r: &EvidenceReport) -> Option<(Vec<AnalysisFigure>, Table, Table)> {
    let iv = &r.interventions.scgr;
    if iv.is_empty() {
        return None;
    }
    let mut figures = Vec::new();
    let mut all_rows = Vec::new();
    let mut headers = Vec::new();
    for g in iv {
        let items: Vec<_> = g
            .paired_rows
            .iter()
            .zip(&g.paired)
            .map(|(row, c)| {
                (
                    format!("{} · {} · {row}", g.config, g.condition),
                    g.config.as_str(),
                    c,
                    100.0,
                    "points",
                )
            })
            .collect();
        let (figure, table) = contrast_forest(
            r,
            "scgr",
            (
                "SCGR (§8.5)",
                &format!("{} − baseline, {}", g.condition, g.config),
            ),
            "Δ ECS (points)",
            &items,
        );
        figures.push(figure);
        headers = table.headers;
        all_rows.extend(table.rows);
    }
    let table = Table {
        title: "SCGR (§8.5, Tables 13, 14): paired ECS difference on the matched set (points), per protocol, V0–V3, Legacy apart".into(),
        headers,
        rows: all_rows,
    };
    let mut rows = Vec::new();
    for g in iv {
        for (side, list) in [
            (&g.condition, &g.treatment),
            (&"baseline".to_string(), &g.reference),
        ] {
            for u in list {
                rows.push(vec![
                    Cell::text(&g.config),
                    Cell::text(format!(
                        "{side}{}",
                        if g.case_sets_differ {
                            " (case sets differ)"
                        } else {
                            ""
                        }
                    )),
                    Cell::text(&u.row),
                    Cell::text(u.cases.to_string()),
                    Cell::num(pct(u.ecs), 1),
                    Cell::num(pct(u.completion), 1),
                ]);
            }
        }
    }
    let unpaired = Table {
        title: "SCGR, unpaired (each side on its own case set): scored-only ECS, planned cases, run completion".into(),
        headers: ["Configuration", "Side", "Protocol", "Cases", "ECS %", "Completion %"]
            .map(String::from)
            .to_vec(),
        rows,
    };
    Some((figures, table, unpaired))
}

/// One item of the addendum's views, in page order: a heading, a figure or
/// a table (as text: the page links none of these tables' code).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    Heading(String),
    Figure(AnalysisFigure),
    Panel(PanelText),
}

/// What the evidence worker answers beside the report for the addendum's
/// views (paired by protocol, all-planned ECS, readiness, interventions,
/// case set): per view id, its items in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AddendumPage {
    pub views: Vec<(String, Vec<Item>)>,
}

impl AddendumPage {
    /// The items of view `id` (none if it has none).
    pub fn items(&self, id: &str) -> &[Item] {
        self.views
            .iter()
            .find(|(v, _)| v == id)
            .map_or(&[], |(_, items)| items.as_slice())
    }
}

/// A table as a panel of view `view`, downloads named `name`.
fn panel(view: &str, name: &str, t: &Table) -> Item {
    Item::Panel(PanelText {
        view: view.into(),
        title: t.title.clone(),
        name: name.into(),
        html: t.to_html(),
        csv: t.to_csv(),
        latex: t.to_latex(),
    })
}

/// Every addendum view of `r`, built where the report is (the worker).
#[must_use]
pub fn page(r: &EvidenceReport) -> AddendumPage {
    let mut views = Vec::new();
    // Paired comparisons by protocol, Table 12, each comparison's cases.
    let mut paired = vec![
        panel("paired", "paired-by-protocol", &super::paired_table(r)),
        panel(
            "paired",
            "paired-per-repetition",
            &super::per_repetition_table(r),
        ),
    ];
    for k in 0..r.paired.len() {
        if let Some(t) = super::paired_cases_table(r, k) {
            paired.push(panel("paired", &format!("paired-cases-{k}"), &t));
        }
    }
    views.push(("paired".to_string(), paired));
    if r.coverage.last().and_then(|c| c.coverage) != Some(1.0) {
        views.push((
            "ecs".to_string(),
            vec![panel("ecs", "ecs-all-planned", &ecs_all_planned_table(r))],
        ));
    }
    let mut readiness: Vec<Item> = readiness_figures(r)
        .into_iter()
        .map(|(_, f)| Item::Figure(f))
        .collect();
    readiness.push(panel("readiness", "readiness", &readiness_table(r)));
    views.push(("readiness".to_string(), readiness));
    let mut iv = Vec::new();
    let (fa, fa_table) = first_action(r);
    if !fa.is_empty() {
        iv.push(Item::Heading("First action".into()));
        iv.extend(fa.into_iter().map(Item::Figure));
        iv.push(panel("interventions", "first-action", &fa_table));
    }
    if let Some((f, t)) = distractors(r) {
        iv.extend([
            Item::Heading("Distractors".into()),
            Item::Figure(f),
            panel("interventions", "distractors", &t),
        ]);
    }
    if let Some((f, t)) = evidence_responses(r) {
        iv.extend([
            Item::Heading("Withheld or contradicted evidence".into()),
            Item::Figure(f),
            panel("interventions", "evidence-responses", &t),
        ]);
        if let Some(t) = evidence_contrasts(r) {
            iv.push(panel("interventions", "evidence-contrasts", &t));
        }
    }
    if let Some((f, t, neg)) = static_gap(r) {
        iv.extend([
            Item::Heading("Static vs interactive".into()),
            Item::Figure(f),
            panel("interventions", "static-gap", &t),
            panel("interventions", "static-negatives", &neg),
        ]);
    }
    if let Some((figures, t, unpaired)) = scgr(r) {
        iv.push(Item::Heading("SCGR variants".into()));
        iv.extend(figures.into_iter().map(Item::Figure));
        iv.extend([
            panel("interventions", "scgr-paired", &t),
            panel("interventions", "scgr-unpaired", &unpaired),
        ]);
    }
    views.push(("interventions".to_string(), iv));
    let [t6, t7] = composition_tables(r);
    views.push((
        "composition".to_string(),
        vec![
            panel("composition", "table-6", &t6),
            panel("composition", "table-7", &t7),
        ],
    ));
    AddendumPage { views }
}
