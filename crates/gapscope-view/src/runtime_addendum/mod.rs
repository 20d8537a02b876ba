//! View models of the runtime-contracts addendum's analyses
//! (docs: `runtime-contracts.addendum.md`): the token cost ratio (§6,
//! Fig. 1), the open condition set (§1, Table 18), turn accounting and the
//! horizon sweep (§2, Tables 19, 20), M and the across analyses (§3,
//! Tables 12, 21, Fig. 3), coverage and decision with the gain curve (§4,
//! §5, Table 14, Fig. 2b) and the SFT trace filter (§7, Table 8).
//!
//! The worker builds a [`RuntimePage`] next to the report: per view id, its
//! items as text (tables as HTML/CSV/LaTeX, figures as SVG), so the page
//! links none of these tables' code. Rows that point at an episode come as a
//! [`TraceList`]: each [`TraceLink`] opens the episode in the runtime
//! stepper at its turn. Every number shown is a field of the report: the
//! view only formats, orders and labels.

mod more;

use gapscope_runtime::accounting::KOfN;
use gapscope_runtime::filter::FilterReport;
use gapscope_runtime::metrics::{Estimate, MeanOf, TraceRow};
use gapscope_runtime::{Arm, Condition, RuntimeReport, SliceReport};
use serde::{Deserialize, Serialize};

use crate::evidence::analyses::{AddendumPage, AnalysisFigure, Item};
use crate::format::fmt;
use crate::inference::PanelText;
use crate::runtime::condition_label;
use crate::table::{Cell, Table};

pub use more::{
    across_tables, filter_tables, filter_traces, gain_figure, gain_table, m_table, mechanism_table,
    t_forest,
};

/// The addendum's view ids, in menu order.
pub const VIEW_IDS: [&str; 6] = [
    "quality",
    "conditions",
    "horizon",
    "replications",
    "mechanism",
    "filter",
];

/// One item of a view, in page order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RtItem {
    /// A heading, or a one-line note (why a section is absent, a summary
    /// line, an error).
    Heading(String),
    /// A figure with the episodes behind each click target.
    Figure(AnalysisFigure),
    /// A table as text with its downloads.
    Panel(PanelText),
    /// Rows that each open an episode in the stepper.
    Traces(TraceList),
}

/// A table whose rows each open an episode in the runtime stepper. It
/// travels as the table's text (`panel`, pickable rows `tr[data-row]`) and
/// the link of each row; the title, headers and cells stay on the worker's
/// side (the page links no decoder for them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceList {
    /// What the list is.
    #[serde(skip)]
    pub title: String,
    /// Column headers (of `cells`).
    #[serde(skip)]
    pub headers: Vec<String>,
    /// The table as text with its downloads (`data-testid=runtime-traces`).
    pub panel: PanelText,
    /// One row per link, in table order (`data-row` k is `rows[k]`).
    pub rows: Vec<TraceLink>,
}

impl TraceList {
    /// The panel with each row's link in its `tr`: `data-episode` and, when
    /// the row names a turn, `data-turn`.
    #[must_use]
    pub fn linked_panel(&self) -> PanelText {
        let mut html = self.panel.html.clone();
        for (k, r) in self.rows.iter().enumerate() {
            let mut attrs = String::from(" data-episode=\"");
            crate::chart::esc_into(&mut attrs, &r.episode_id);
            attrs.push('"');
            if let Some(t) = r.turn {
                attrs.push_str(&format!(" data-turn=\"{t}\""));
            }
            let at = format!("data-row=\"{k}\"");
            html = html.replacen(&at, &format!("{at}{attrs}"), 1);
        }
        PanelText {
            html,
            ..self.panel.clone()
        }
    }

    /// The list titled `title` with `headers` and `rows`, its table written
    /// as text for view `view` (downloads named `name`).
    pub fn new(
        view: &str,
        name: &str,
        title: String,
        headers: Vec<String>,
        rows: Vec<TraceLink>,
    ) -> Self {
        let t = Table {
            title: title.clone(),
            headers: headers.clone(),
            rows: rows
                .iter()
                .map(|r| r.cells.iter().map(Cell::text).collect())
                .collect(),
        };
        TraceList {
            panel: PanelText {
                view: view.into(),
                title: title.clone(),
                name: name.into(),
                html: t.to_html_as("runtime-traces", true),
                csv: t.to_csv(),
                latex: t.to_latex(),
            },
            title,
            headers,
            rows,
        }
    }
}

/// One row of a [`TraceList`]: the episode (and turn) it opens, and the
/// text of its cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceLink {
    /// The episode's `episode_id`.
    pub episode_id: String,
    /// The turn's `index` to open at (`None`: the first turn).
    pub turn: Option<u32>,
    /// The cells shown, one per header.
    #[serde(skip)]
    pub cells: Vec<String>,
}

/// The addendum's views of a runtime report: per view id, its items.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RuntimePage {
    /// (view id, items) in [`VIEW_IDS`] order.
    pub views: Vec<(String, Vec<RtItem>)>,
}

impl RuntimePage {
    /// The items of view `id` (none if it has none).
    pub fn items(&self, id: &str) -> &[RtItem] {
        self.views
            .iter()
            .find(|(v, _)| v == id)
            .map_or(&[], |(_, items)| items.as_slice())
    }
}

/// A table as a panel of view `view`, downloads named `name`.
pub(crate) fn panel(view: &str, name: &str, t: &Table) -> RtItem {
    RtItem::Panel(PanelText {
        view: view.into(),
        title: t.title.clone(),
        name: name.into(),
        html: t.to_html(),
        csv: t.to_csv(),
        latex: t.to_latex(),
    })
}

/// `P->S` with its intervention as `P→S+carry`.
pub fn arm_label(condition: Condition, intervention: Option<&str>) -> String {
    match intervention {
        Some(k) => format!("{}+{k}", condition_label(condition)),
        None => condition_label(condition),
    }
}

fn arm_of(a: &Arm) -> String {
    arm_label(a.base, a.intervention.as_deref())
}

/// A value and its interval as two cells.
pub(crate) fn value_ci(value: Option<f64>, ci: Option<[f64; 2]>, decimals: usize) -> [Cell; 2] {
    [
        Cell::num(value, decimals),
        Cell::Interval {
            value: ci,
            decimals,
        },
    ]
}

/// `0.300 [0.100, 0.500]`, or the value alone without an interval.
pub fn with_interval(value: Option<f64>, ci: Option<[f64; 2]>, decimals: usize) -> String {
    match ci {
        Some([lo, hi]) => format!(
            "{} [{}, {}]",
            fmt(value, decimals),
            fmt(Some(lo), decimals),
            fmt(Some(hi), decimals)
        ),
        None => fmt(value, decimals),
    }
}

fn estimate_cells(e: &Estimate, decimals: usize) -> [Cell; 2] {
    value_ci(e.value, e.ci95, decimals)
}

fn mean_cells(m: &MeanOf, decimals: usize) -> [Cell; 2] {
    value_ci(m.mean, m.ci95, decimals)
}

fn headers(h: &[&str]) -> Vec<String> {
    h.iter().map(|s| (*s).to_string()).collect()
}

/// Every addendum view of `r` (and of the filter report, if one was made),
/// built where the report is (the worker).
#[must_use]
pub fn page(r: &RuntimeReport, filter: Option<&FilterReport>) -> AddendumPage {
    as_text(items_page(r, filter))
}

/// The page as the worker sends it: the evidence part's item types (the
/// page links one decoder for both parts), each trace list as a panel
/// whose rows carry `data-episode` and `data-turn` (the page opens the
/// stepper there).
#[must_use]
pub fn as_text(p: RuntimePage) -> AddendumPage {
    let views = p
        .views
        .into_iter()
        .map(|(id, items)| {
            let items = items
                .into_iter()
                .map(|item| match item {
                    RtItem::Heading(h) => Item::Heading(h),
                    RtItem::Figure(f) => Item::Figure(f),
                    RtItem::Panel(p) => Item::Panel(p),
                    RtItem::Traces(l) => Item::Panel(l.linked_panel()),
                })
                .collect();
            (id, items)
        })
        .collect();
    AddendumPage { views }
}

/// Every view's items, with trace lists as [`TraceList`]s.
#[must_use]
pub fn items_page(r: &RuntimeReport, filter: Option<&FilterReport>) -> RuntimePage {
    let views = vec![
        ("quality".to_string(), quality(r)),
        ("conditions".to_string(), conditions(r)),
        ("horizon".to_string(), horizon(r)),
        ("replications".to_string(), more::replications(r)),
        ("mechanism".to_string(), more::mechanism(r)),
        ("filter".to_string(), more::filter_view(filter)),
    ];
    RuntimePage { views }
}

fn trace_row<'a>(s: &'a SliceReport, label: &str, cap: u32) -> Option<&'a TraceRow> {
    s.trace.iter().find(|t| {
        t.cap == cap
            && arm_label(t.condition, t.intervention.as_deref()) == label.replace("->", "→")
    })
}

/// §6's token cost ratio per cap of one slice (Fig. 1), with the input
/// share of every condition of the slice at that cap (from its trace rows).
pub fn cost_table(r: &RuntimeReport, s: &SliceReport) -> Table {
    let [a, b] = &r.settings.cost;
    let (la, lb) = (a.replace("->", "→"), b.replace("->", "→"));
    let mut h = headers(&[
        "Cap",
        "Ratio",
        "R",
        "95% interval",
        "n shared",
        "Mean tokens A",
        "Mean tokens B",
        "Skipped draws",
        "Undefined",
    ]);
    h.extend(
        s.conditions
            .iter()
            .map(|c| format!("Input share {}", c.replace("->", "→"))),
    );
    let rows = s
        .caps
        .iter()
        .map(|&cap| {
            let mut row = vec![Cell::text(cap.to_string())];
            if let Some(c) = s.cost.iter().find(|c| c.cap == Some(cap)) {
                row.push(Cell::text(format!("{la}/{lb}")));
                row.extend(value_ci(c.value, c.ci95, 2));
                row.extend([
                    Cell::text(c.n_shared.to_string()),
                    Cell::num(c.mean_a, 0),
                    Cell::num(c.mean_b, 0),
                    Cell::text(c.skipped_draws.to_string()),
                    Cell::text(
                        c.undefined
                            .as_ref()
                            .map_or(String::new(), std::string::ToString::to_string),
                    ),
                ]);
            } else {
                row.push(Cell::text(format!("{la}/{lb}")));
                row.extend(value_ci(None, None, 2));
                row.extend([
                    Cell::text("0"),
                    Cell::num(None, 0),
                    Cell::num(None, 0),
                    Cell::text("0"),
                    Cell::text(format!("neither {la} nor {lb} at this cap")),
                ]);
            }
            row.extend(
                s.conditions
                    .iter()
                    .map(|c| Cell::num(trace_row(s, c, cap).and_then(|t| t.input_share), 3)),
            );
            row
        })
        .collect();
    Table {
        title: format!(
            "Token cost ratio R = mean tokens {la} / mean tokens {lb} on shared ids, and input share Σ tokens_in / Σ tokens (Fig. 1) — {}",
            s.name
        ),
        headers: h,
        rows,
    }
}

fn quality(r: &RuntimeReport) -> Vec<RtItem> {
    let mut items = Vec::new();
    for (k, s) in r.slices.iter().enumerate() {
        if s.cost.is_empty() && s.trace.iter().all(|t| t.input_share.is_none()) {
            continue;
        }
        items.push(panel(
            "quality",
            &format!("runtime-cost-{k}"),
            &cost_table(r, s),
        ));
    }
    if items.is_empty() {
        items.push(RtItem::Heading(
            "Token cost ratio: no slice has tokens for the conditions compared".into(),
        ));
    }
    items
}

/// Q of a condition at a cap: its sweep point, else its 2×2 cell.
fn q_of<'a>(s: &'a SliceReport, t: &TraceRow) -> Option<&'a Estimate> {
    s.sweep
        .iter()
        .find(|x| x.condition == t.condition && x.intervention == t.intervention)
        .and_then(|x| x.points.iter().find(|p| p.cap == t.cap))
        .map(|p| &p.q)
        .or_else(|| {
            if t.intervention.is_some() {
                return None;
            }
            s.tables
                .iter()
                .find(|c| c.cap == t.cap)
                .and_then(|c| c.cells.iter().find(|x| x.condition == t.condition))
                .map(|x| &x.q)
        })
}

/// Table 18 of one slice: per condition × cap, Q, NameErrors (all turns and
/// carried turns), the restart rate, distinct items, decision and the
/// `carried_in` counts.
pub fn conditions_table(s: &SliceReport) -> Table {
    let rows = s
        .trace
        .iter()
        .map(|t| {
            let label = arm_label(t.condition, t.intervention.as_deref());
            let mut row = vec![
                Cell::text(label.clone()),
                Cell::text(t.cap.to_string()),
                Cell::text(t.episodes.to_string()),
            ];
            if let Some(q) = q_of(s, t) {
                row.extend(estimate_cells(q, 3));
                row.push(Cell::text(q.n.to_string()));
            } else {
                row.extend(value_ci(None, None, 3));
                row.push(Cell::text("0"));
            }
            row.extend(mean_cells(&t.name_error_turns, 2));
            row.extend(mean_cells(&t.name_error_carried, 2));
            row.push(Cell::text(t.carried_turns.to_string()));
            if t.restart.too_few_events {
                row.push(Cell::text(format!("too few events ({})", t.restart.events)));
                row.push(Cell::Interval {
                    value: None,
                    decimals: 2,
                });
            } else {
                row.extend(value_ci(t.restart.rate, t.restart.ci95, 2));
            }
            row.push(Cell::text(t.restart.events.to_string()));
            row.extend(mean_cells(&t.distinct_items, 1));
            match s.mechanism.iter().find(|m| {
                m.cap == t.cap && m.condition == t.condition && m.intervention == t.intervention
            }) {
                Some(m) => row.extend(estimate_cells(&m.cell.decision, 2)),
                None => row.extend([
                    Cell::text("—"),
                    Cell::Interval {
                        value: None,
                        decimals: 2,
                    },
                ]),
            }
            row.push(Cell::text(t.carried_in_carried.to_string()));
            row.push(Cell::text(t.carried_in_other.to_string()));
            row
        })
        .collect();
    Table {
        title: format!(
            "Table 18. Conditions with interventions: Q, NameError turns per episode (all, on carried turns), restart rate, distinct items, decision — {}",
            s.name
        ),
        headers: headers(&[
            "Condition",
            "Cap",
            "Episodes",
            "Q",
            "Q 95% interval",
            "n",
            "NameError turns/ep",
            "95% interval",
            "of them on carried turns",
            "95% interval",
            "Carried turns",
            "Restart rate",
            "95% interval",
            "Restart events",
            "Distinct items",
            "95% interval",
            "Decision",
            "95% interval",
            "carried_in on carried turns",
            "carried_in on other turns (flagged)",
        ]),
        rows,
    }
}

/// §1's contrasts Δ(A, B; c) of one slice, `None` without any.
pub fn contrasts_table(s: &SliceReport) -> Option<Table> {
    if s.contrasts.is_empty() {
        return None;
    }
    Some(Table {
        title: format!(
            "Contrasts Δ(A, B; c) = Q_A(c) − Q_B(c) on shared ids, paired — {}",
            s.name
        ),
        headers: headers(&[
            "A",
            "B",
            "Cap",
            "Definition",
            "Δ",
            "95% interval",
            "n shared",
        ]),
        rows: s
            .contrasts
            .iter()
            .map(|c| {
                let mut row = vec![
                    Cell::text(c.a.replace("->", "→")),
                    Cell::text(c.b.replace("->", "→")),
                    Cell::text(c.cap.to_string()),
                    Cell::text(c.contrast.formula.replace(" - ", " − ")),
                ];
                row.extend(value_ci(c.contrast.value, c.contrast.ci95, 3));
                row.push(Cell::text(c.contrast.n_shared.to_string()));
                row
            })
            .collect(),
    })
}

fn conditions(r: &RuntimeReport) -> Vec<RtItem> {
    let mut items = Vec::new();
    for (k, s) in r.slices.iter().enumerate() {
        let any = s.trace.iter().any(|t| t.intervention.is_some()) || s.conditions.len() > 4;
        if !any {
            continue;
        }
        items.push(RtItem::Heading(s.name.clone()));
        items.push(panel(
            "conditions",
            &format!("runtime-table18-{k}"),
            &conditions_table(s),
        ));
        if let Some(t) = contrasts_table(s) {
            items.push(panel("conditions", &format!("runtime-contrasts-{k}"), &t));
        }
    }
    if items.is_empty() {
        items.push(RtItem::Heading(
            "No slice has a condition with an intervention (e.g. P->S+carry): the four base conditions are on the 2×2 view".into(),
        ));
    }
    items
}

/// Table 20 of one slice: turn accounting per condition × cap.
pub fn accounting_table(s: &SliceReport) -> Table {
    Table {
        title: format!(
            "Table 20. Turn accounting: attempted = steps + failed + rejected + unclassified — {}",
            s.name
        ),
        headers: headers(&[
            "Condition",
            "Cap",
            "Episodes",
            "Attempted (mean)",
            "95% interval",
            "Steps (mean)",
            "95% interval",
            "Failed",
            "Rejected",
            "Unclassified",
            "Context (overflow/failed)",
            "Overflowed: yes",
            "no",
            "unknown",
        ]),
        rows: s
            .accounting
            .iter()
            .map(|a| {
                let mut row = vec![
                    Cell::text(arm_of(&a.condition)),
                    Cell::text(a.cap.to_string()),
                    Cell::text(a.episodes.to_string()),
                ];
                row.extend(estimate_cells(&a.attempted, 1));
                row.extend(estimate_cells(&a.steps, 1));
                row.extend([
                    Cell::text(a.failed.to_string()),
                    Cell::text(a.rejected.to_string()),
                    Cell::text(a.unclassified.to_string()),
                    Cell::text(a.context.as_ref().map_or("—".into(), KOfN::label)),
                    Cell::text(a.overflowed.yes.to_string()),
                    Cell::text(a.overflowed.no.to_string()),
                    Cell::text(a.overflowed.unknown.to_string()),
                ]);
                row
            })
            .collect(),
    }
}

/// The accounting flags of one slice, each opening its episode (at the
/// flagged turn for a context excess), `None` without any.
pub fn flags_list(s: &SliceReport) -> Option<TraceList> {
    use gapscope_runtime::accounting::FlagKind;
    let rows: Vec<TraceLink> = s
        .accounting
        .iter()
        .flat_map(|a| a.flags.iter().map(move |f| (a, f)))
        .map(|(a, f)| TraceLink {
            episode_id: f.episode_id.clone(),
            turn: match f.kind {
                FlagKind::ContextExceeded { turn, .. } => Some(turn),
                _ => None,
            },
            cells: vec![
                f.episode_id.clone(),
                arm_of(&a.condition),
                a.cap.to_string(),
                f.describe(),
            ],
        })
        .collect();
    (!rows.is_empty()).then(|| {
        TraceList::new(
            "horizon",
            "runtime-flags",
            format!("Turn-accounting flags — {}", s.name),
            headers(&["Episode", "Condition", "Cap", "What"]),
            rows,
        )
    })
}

/// Table 19 of one horizon sweep: per horizon, per condition, Q on the
/// common ids, Δ vs h₀ and the overflow count over the cell's episodes.
pub fn horizon_table(h: &gapscope_runtime::sections::HorizonSection) -> Option<Table> {
    let sw = h.sweep.as_ref()?;
    let mut hd = vec!["Horizon".to_string()];
    for c in &sw.conditions {
        let l = arm_of(c);
        hd.extend([
            format!("Q {l}"),
            format!("Q {l} 95% interval"),
            format!("Δ {l} vs h₀"),
            format!("Δ {l} 95% interval"),
            format!("Overflow {l} (k/n)"),
            format!("Unknown {l}"),
        ]);
    }
    let rows = sw
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![Cell::text(if row.baseline {
                format!("{} (h₀)", row.label)
            } else {
                row.label.clone()
            })];
            for c in &sw.conditions {
                if let Some(x) = row.cells.iter().find(|x| &x.condition == c) {
                    cells.extend(estimate_cells(&x.q, 3));
                    match &x.delta {
                        Some(d) => cells.extend(value_ci(d.value, d.ci95, 3)),
                        None => cells.extend(value_ci(None, None, 3)),
                    }
                    cells.push(Cell::text(x.overflowed.label()));
                    cells.push(Cell::text(x.overflow.unknown.to_string()));
                } else {
                    cells.extend(value_ci(None, None, 3));
                    cells.extend(value_ci(None, None, 3));
                    cells.extend([Cell::text("—"), Cell::text("—")]);
                }
            }
            cells
        })
        .collect();
    Some(Table {
        title: format!(
            "Table 19. Horizon sweep at cap {} on {} common ids (h₀ = {}) — {}",
            sw.cap,
            sw.common_ids.len(),
            sw.baseline,
            h.group
        ),
        headers: hd,
        rows,
    })
}

fn horizon(r: &RuntimeReport) -> Vec<RtItem> {
    let mut items = Vec::new();
    for (k, s) in r.slices.iter().enumerate() {
        if s.accounting.is_empty() {
            continue;
        }
        items.push(RtItem::Heading(s.name.clone()));
        items.push(panel(
            "horizon",
            &format!("runtime-table20-{k}"),
            &accounting_table(s),
        ));
        if let Some(l) = flags_list(s) {
            items.push(RtItem::Traces(l));
        }
    }
    if r.horizon_sweeps.is_empty() {
        items.push(RtItem::Heading(
            "Horizon sweep: no slices differ only in their horizon (turn_limit, wall clock)".into(),
        ));
    }
    for (k, h) in r.horizon_sweeps.iter().enumerate() {
        items.push(RtItem::Heading(format!("Horizon sweep — {}", h.group)));
        if let Some(e) = &h.error {
            items.push(RtItem::Heading(format!("Could not run: {e}")));
        }
        if let Some(t) = horizon_table(h) {
            items.push(panel("horizon", &format!("runtime-table19-{k}"), &t));
        }
        if let Some(sw) = &h.sweep {
            if !sw.conditions_left_out.is_empty() {
                items.push(RtItem::Heading(format!(
                    "Left out (not in every horizon): {}",
                    sw.conditions_left_out
                        .iter()
                        .map(arm_of)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            items.extend(sw.warnings.iter().map(|w| RtItem::Heading(w.clone())));
        }
    }
    items
}
