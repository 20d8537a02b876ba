//! The replications (§3), mechanism (§4, §5) and SFT filter (§7) views.

use gapscope_runtime::across::AcrossReport;
use gapscope_runtime::filter::{FilterGroup, FilterReport, Rule, TraceVerdict};
use gapscope_runtime::sections::AcrossSection;
use gapscope_runtime::{Runtime, RuntimeReport, SliceDim, SliceReport};

use crate::chart::{self, ForestRow, Join, Line, LinePoint, FAMILY_COLOURS};
use crate::evidence::analyses::AnalysisFigure;
use crate::format::fmt;
use crate::table::{Cell, Table};

use super::{
    arm_label, estimate_cells, headers, panel, value_ci, with_interval, RtItem, TraceLink,
    TraceList,
};

/// M(c) = Q_PS(c) − Q_SS(c) of every slice at every cap (§3).
pub fn m_table(r: &RuntimeReport) -> Table {
    Table {
        title: "M(c) = Q_PS(c) − Q_SS(c): the model-selection difference under stateless deployment, per slice and cap (shared ids, paired)".into(),
        headers: headers(&["Slice", "Cap", "Definition", "M", "95% interval", "n shared"]),
        rows: r
            .slices
            .iter()
            .flat_map(|s| {
                s.tables.iter().map(move |t| {
                    let mut row = vec![
                        Cell::text(s.name.clone()),
                        Cell::text(t.cap.to_string()),
                        Cell::text(t.m.formula.replace(" - ", " − ")),
                    ];
                    row.extend(value_ci(t.m.value, t.m.ci95, 3));
                    row.push(Cell::text(t.m.n_shared.to_string()));
                    row
                })
            })
            .collect(),
    }
}

fn across_table(a: &AcrossReport, title: String, pick: &dyn Fn(&str) -> bool) -> Table {
    let mut h = vec!["Statistic".to_string()];
    h.extend(
        a.columns
            .iter()
            .map(|c| format!("{} (n = {})", c.name, c.n_ids)),
    );
    h.push(format!("Pooled ({})", a.method));
    h.extend(["Intervals above 0", "Intervals below 0", "Summary"].map(String::from));
    let rows = a
        .rows
        .iter()
        .filter(|row| pick(&row.statistic))
        .map(|row| {
            let mut cells = vec![Cell::text(row.statistic.clone())];
            cells.extend(
                row.columns
                    .iter()
                    .map(|c| Cell::text(with_interval(c.value, c.ci95, 3))),
            );
            cells.push(Cell::text(with_interval(
                row.pooled.value,
                row.pooled.ci95,
                3,
            )));
            cells.extend([
                Cell::text(row.above_zero.to_string()),
                Cell::text(row.below_zero.to_string()),
                Cell::text(row.summary.clone()),
            ]);
            cells
        })
        .collect();
    Table {
        title,
        headers: h,
        rows,
    }
}

/// Table 12 (Q per condition at both caps, D per cap) and Table 21
/// (G_P(c_tight), G_P(c_slack), amplification, M(c_slack), T) of one across
/// analysis: a column per across column and the pooled one, each
/// `value [lo, hi]`.
pub fn across_tables(sec: &AcrossSection, a: &AcrossReport) -> [Table; 2] {
    let (t, s) = (a.c_tight, a.c_slack);
    let t12 = across_table(
        a,
        format!(
            "Table 12. Q per condition at c = {t} and {s}, and D per cap, across columns on {} ids; pooled: {} — {}",
            id_basis(a),
            a.method,
            sec.group
        ),
        &|st| st.starts_with("Q_") || st.starts_with("D("),
    );
    let want = [
        format!("G_P({t})"),
        format!("G_P({s})"),
        "amplification".to_string(),
        format!("M({s})"),
        "T".to_string(),
    ];
    let t21 = across_table(
        a,
        format!(
            "Table 21. G_P(c_tight), G_P(c_slack), amplification, M(c_slack) and T across columns on {} ids; pooled: {} — {}",
            id_basis(a),
            a.method,
            sec.group
        ),
        &|st| want.iter().any(|w| w == st),
    );
    [t12, t21]
}

fn id_basis(a: &AcrossReport) -> String {
    use gapscope_runtime::across::IdBasis;
    match a.basis {
        IdBasis::Common => format!("the {} common", a.common_ids.len()),
        IdBasis::Own => "each column's own shared".into(),
        IdBasis::OwnBecauseNoCommonId => "each column's own shared (no common id)".into(),
    }
}

/// A slice field as the settings spell it.
fn field_name(f: SliceDim) -> &'static str {
    match f {
        SliceDim::TaskFamily => "task_family",
        SliceDim::BaseModel => "base_model",
        SliceDim::Seed => "seed",
        SliceDim::Rollout => "rollout",
        SliceDim::Batch => "batch",
        SliceDim::Horizon => "horizon",
    }
}

/// The episode ids of slice `k` (for click targets).
fn slice_episodes(r: &RuntimeReport, k: usize) -> Vec<String> {
    r.episodes
        .iter()
        .filter(|e| e.slice == k)
        .map(|e| e.episode.episode_id.clone())
        .collect()
}

/// Fig. 3: T per column and pooled, as a forest; a row opens the column's
/// episodes (the pooled row: every column's).
pub fn t_forest(
    r: &RuntimeReport,
    sec: &AcrossSection,
    a: &AcrossReport,
) -> Option<AnalysisFigure> {
    let row = a.rows.iter().find(|x| x.statistic == "T")?;
    let mut rows = Vec::new();
    let mut targets = Vec::new();
    for (k, (c, col)) in row.columns.iter().zip(&a.columns).enumerate() {
        rows.push(ForestRow {
            label: col.name.clone(),
            value: c.value,
            bootstrap: c.ci95,
            normal: None,
            tip: format!(
                "T = {} · {} ids\nclick for the column's episodes",
                with_interval(c.value, c.ci95, 3),
                c.n_shared
            ),
        });
        targets.push((
            format!("T · {}", col.name),
            sec.slices
                .get(k)
                .map_or_else(Vec::new, |&s| slice_episodes(r, s)),
        ));
    }
    rows.push(ForestRow {
        label: "pooled".into(),
        value: row.pooled.value,
        bootstrap: row.pooled.ci95,
        normal: None,
        tip: format!(
            "pooled T = {} · {} ({} ids)",
            with_interval(row.pooled.value, row.pooled.ci95, 3),
            a.method,
            row.pooled.n
        ),
    });
    targets.push((
        "T · pooled".into(),
        sec.slices
            .iter()
            .flat_map(|&s| slice_episodes(r, s))
            .collect(),
    ));
    Some(AnalysisFigure {
        section: "replications".into(),
        svg: chart::forest(
            // Short: a longer title runs past the figure's edge (the
            // group is named by the heading above it).
            &format!(
                "T = D({}) − D({}): columns and pooled",
                a.c_tight, a.c_slack
            ),
            "T",
            &rows,
        ),
        targets,
    })
}

pub(super) fn replications(r: &RuntimeReport) -> Vec<RtItem> {
    let mut items = vec![panel("replications", "runtime-m", &m_table(r))];
    if r.across.is_empty() {
        items.push(RtItem::Heading(
            "Across analysis: no slices of one family differ only in the across fields".into(),
        ));
    }
    for (k, sec) in r.across.iter().enumerate() {
        items.push(RtItem::Heading(format!(
            "Across {} — {}",
            sec.fields
                .iter()
                .map(|f| field_name(*f))
                .collect::<Vec<_>>()
                .join(", "),
            sec.group
        )));
        if let Some(e) = &sec.error {
            items.push(RtItem::Heading(format!("Could not run: {e}")));
        }
        let Some(a) = &sec.report else { continue };
        let [t12, t21] = across_tables(sec, a);
        items.push(panel("replications", &format!("runtime-table12-{k}"), &t12));
        items.push(panel("replications", &format!("runtime-table21-{k}"), &t21));
        if let Some(t) = a.rows.iter().find(|x| x.statistic == "T") {
            items.push(RtItem::Heading(t.summary.clone()));
        }
        if !a.requested_not_found.is_empty() {
            items.push(RtItem::Heading(format!(
                "Requested ids not found: {}",
                a.requested_not_found.join(", ")
            )));
        }
        items.extend(a.warnings.iter().map(|w| RtItem::Heading(w.clone())));
        if let Some(f) = t_forest(r, sec, a) {
            items.push(RtItem::Figure(f));
        }
    }
    items
}

/// Table 14's mechanism of one slice: coverage, decision, recall per
/// condition × cap, blind takes and the episodes left out.
pub fn mechanism_table(s: &SliceReport) -> Table {
    Table {
        title: format!(
            "Coverage OPT(inspected)/OPT, decision achieved/OPT(inspected), optimal-set recall (Table 14) — {}",
            s.name
        ),
        headers: headers(&[
            "Condition",
            "Cap",
            "Episodes",
            "Coverage",
            "95% interval",
            "Decision",
            "95% interval",
            "Recall",
            "95% interval",
            "Blind takes",
            "Left out: no instance",
            "unreadable instance",
            "OPT = 0",
            "OPT(inspected) = 0 (decision)",
        ]),
        rows: s
            .mechanism
            .iter()
            .map(|m| {
                let c = &m.cell;
                let mut row = vec![
                    Cell::text(arm_label(m.condition, m.intervention.as_deref())),
                    Cell::text(m.cap.to_string()),
                    Cell::text(c.episodes.to_string()),
                ];
                row.extend(estimate_cells(&c.coverage, 2));
                row.extend(estimate_cells(&c.decision, 2));
                row.extend(estimate_cells(&c.recall, 2));
                row.extend([
                    Cell::text(c.blind_takes.to_string()),
                    Cell::text(c.left_out.no_instance.to_string()),
                    Cell::text(c.left_out.unreadable_instance.to_string()),
                    Cell::text(c.left_out.opt_zero.to_string()),
                    Cell::text(c.left_out.opt_inspected_zero.to_string()),
                ]);
                row
            })
            .collect(),
    }
}

/// Fig. 2b: G(x) per condition against inspect calls x; each series opens
/// the condition's episodes.
pub fn gain_figure(s: &SliceReport) -> Option<AnalysisFigure> {
    let g = s.gain.as_ref()?;
    let rep = g.report.as_ref()?;
    let lines: Vec<Line> = rep
        .conditions
        .iter()
        .enumerate()
        .map(|(k, c)| Line {
            name: c.label.replace("->", "→"),
            colour: FAMILY_COLOURS[k % FAMILY_COLOURS.len()].into(),
            dash: if k % 2 == 0 { "" } else { "5 3" },
            points: c
                .curve
                .iter()
                .map(|p| LinePoint {
                    x: p.x as f64,
                    y: Some(p.g),
                    ci: None,
                    tip: format!(
                        "{} · x = {}\nG = {} over {} episodes with X ≥ x\nclick for the {} episodes",
                        c.label.replace("->", "→"),
                        p.x,
                        fmt(Some(p.g), 2),
                        p.n,
                        c.per_episode.len()
                    ),
                })
                .collect(),
        })
        .collect();
    Some(AnalysisFigure {
        section: "mechanism".into(),
        svg: chart::lines(
            // Short: the slice is named by the heading above it.
            &format!("Items gained against inspect calls, cap {}", g.cap),
            "inspect calls x",
            "G(x): items gained after turn 0",
            &lines,
            Join::StepAfter,
            None,
        ),
        targets: rep
            .conditions
            .iter()
            .map(|c| {
                (
                    format!("gain {} · cap {}", c.label.replace("->", "→"), g.cap),
                    c.per_episode.iter().map(|e| e.episode_id.clone()).collect(),
                )
            })
            .collect(),
    })
}

/// The gain curve's summary: X̄, Ḡ, b̄ per condition, Ḡ vs the first, and
/// the common baseline.
pub fn gain_table(s: &SliceReport) -> Option<Table> {
    let g = s.gain.as_ref()?;
    let rep = g.report.as_ref()?;
    let first = rep
        .conditions
        .first()
        .map_or(String::new(), |c| c.label.replace("->", "→"));
    let mut rows: Vec<Vec<Cell>> = rep
        .conditions
        .iter()
        .map(|c| {
            let mut row = vec![
                Cell::text(c.label.replace("->", "→")),
                Cell::text(c.episodes.to_string()),
                Cell::text(c.left_out.to_string()),
            ];
            row.extend(estimate_cells(&c.inspect_calls, 1));
            row.extend(estimate_cells(&c.gain, 1));
            row.extend(estimate_cells(&c.baseline, 1));
            if let Some(d) = &c.gain_vs_first {
                row.extend(value_ci(d.value, d.ci95, 1));
                row.push(Cell::text(d.n_shared.to_string()));
            } else {
                row.extend(value_ci(None, None, 1));
                row.push(Cell::text("—"));
            }
            row
        })
        .collect();
    let mut common = vec![
        Cell::text("common baseline (all conditions)"),
        Cell::text(
            rep.conditions
                .iter()
                .map(|c| c.episodes)
                .sum::<usize>()
                .to_string(),
        ),
        Cell::text(""),
    ];
    common.extend(value_ci(None, None, 1));
    common.extend(value_ci(None, None, 1));
    common.extend(estimate_cells(&rep.common_baseline, 1));
    common.extend(value_ci(None, None, 1));
    common.push(Cell::text("—"));
    rows.push(common);
    Some(Table {
        title: format!(
            "Gain summary at cap {} on {} shared ids: mean inspect calls X̄, mean gain Ḡ, mean baseline b̄ (Table 14) — {}",
            g.cap, rep.shared_ids, s.name
        ),
        headers: vec![
            "Condition".into(),
            "Episodes".into(),
            "Left out (other ids)".into(),
            "X̄".into(),
            "95% interval".into(),
            "Ḡ".into(),
            "95% interval".into(),
            "b̄".into(),
            "95% interval".into(),
            format!("Ḡ − Ḡ({first})"),
            "95% interval".into(),
            "n shared".into(),
        ],
        rows,
    })
}

pub(super) fn mechanism(r: &RuntimeReport) -> Vec<RtItem> {
    let mut items = Vec::new();
    for (k, s) in r.slices.iter().enumerate() {
        if s.mechanism.is_empty() && s.gain.is_none() {
            continue;
        }
        items.push(RtItem::Heading(s.name.clone()));
        if !s.mechanism.is_empty() {
            items.push(panel(
                "mechanism",
                &format!("runtime-table14-{k}"),
                &mechanism_table(s),
            ));
        }
        if let Some(g) = &s.gain {
            if let Some(u) = &g.undefined {
                items.push(RtItem::Heading(format!(
                    "Gain curve at cap {}: undefined ({u})",
                    g.cap
                )));
            }
            if let Some(f) = gain_figure(s) {
                items.push(RtItem::Figure(f));
            }
            if let Some(t) = gain_table(s) {
                items.push(panel("mechanism", &format!("runtime-gain-{k}"), &t));
            }
        }
    }
    if items.is_empty() {
        items.push(RtItem::Heading(
            "Coverage and decision: no Opaque Knapsack slice with an inspect tool".into(),
        ));
    }
    items
}

fn runtime_name(r: Runtime) -> &'static str {
    match r {
        Runtime::P => "P",
        Runtime::S => "S",
    }
}

const RULES: [Rule; 5] = Rule::ALL;

/// Table 8: per (family, teacher) and runtime, the traces, failures per
/// rule, alone, valid and finish by termination; then the pairs.
pub fn filter_tables(f: &FilterReport) -> [Table; 2] {
    let mut h = headers(&["Family", "Teacher", "Runtime", "Traces"]);
    h.extend(RULES.iter().map(|r| format!("Fail {}", r.label())));
    h.extend(RULES.iter().map(|r| format!("{} alone", r.label())));
    h.extend(["Valid", "Finish by termination"].map(String::from));
    let group_rows = |g: &FilterGroup| -> Vec<Vec<Cell>> {
        g.runtimes
            .iter()
            .map(|rc| {
                let mut row = vec![
                    Cell::text(g.task_family.clone()),
                    Cell::text(g.base_model.clone()),
                    Cell::text(runtime_name(rc.runtime)),
                    Cell::text(rc.traces.to_string()),
                ];
                row.extend(
                    RULES
                        .iter()
                        .map(|&r| Cell::text(rc.failures.get(r).to_string())),
                );
                row.extend(
                    RULES
                        .iter()
                        .map(|&r| Cell::text(rc.alone.get(r).to_string())),
                );
                row.extend([
                    Cell::text(rc.valid.to_string()),
                    Cell::text(rc.finish_by_termination.to_string()),
                ]);
                row
            })
            .collect()
    };
    let runtimes = Table {
        title: "Table 8. SFT trace validity filter per teacher and runtime: R1 score, R2 finish, R3 loop, R4 bad-error density (a trace counts under every rule it fails)".into(),
        headers: h,
        rows: f.groups.iter().flat_map(group_rows).collect(),
    };
    let pairs = Table {
        title: "Table 8. Pairs: ids with a trace under both runtimes (candidates), valid under both (dual-valid), yield".into(),
        headers: headers(&[
            "Family",
            "Teacher",
            "Candidates",
            "Dual-valid",
            "Yield %",
            "Ids with repeated traces",
        ]),
        rows: f
            .groups
            .iter()
            .map(|g| {
                vec![
                    Cell::text(g.task_family.clone()),
                    Cell::text(g.base_model.clone()),
                    Cell::text(g.pairs.candidates.to_string()),
                    Cell::text(g.pairs.dual_valid.to_string()),
                    Cell::num(g.pairs.pair_yield.map(|y| y * 100.0), 1),
                    Cell::text(g.pairs.repeated_ids.to_string()),
                ]
            })
            .collect(),
    };
    [runtimes, pairs]
}

/// The turn a failed trace opens at: the first failed rule with a located
/// piece of evidence (R2: the last finish step; R3: the loop pair's later
/// step; R4: the first bad step; no text: the first such step).
fn evidence_turn(t: &TraceVerdict) -> Option<u32> {
    let e = &t.evidence;
    t.verdict.rules().iter().find_map(|r| match r {
        Rule::Score => None,
        Rule::Finish => e.last_finish.map(|s| s.turn),
        Rule::Loop => e.first_loop.map(|l| l.j.turn),
        Rule::Errors => e.bad_steps.first().map(|s| s.turn),
        Rule::NoText => e.no_text_steps.first().map(|s| s.turn),
    })
}

/// The invalid traces, each opening its episode at its evidence's turn.
pub fn filter_traces(f: &FilterReport) -> TraceList {
    TraceList::new(
        "filter",
        "runtime-invalid-traces",
        "Invalid traces with their evidence".into(),
        headers(&[
            "Episode",
            "Family",
            "Teacher",
            "Runtime",
            "Rules failed",
            "Score",
            "Last finish step",
            "Loop pair (k, j, ratio)",
            "Bad/n",
        ]),
        f.traces
            .iter()
            .filter(|t| !t.verdict.is_valid())
            .map(|t| {
                let e = &t.evidence;
                TraceLink {
                    episode_id: t.episode_id.clone(),
                    turn: evidence_turn(t),
                    cells: vec![
                        t.episode_id.clone(),
                        t.task_family.clone(),
                        t.base_model.clone(),
                        runtime_name(t.runtime).into(),
                        t.verdict
                            .rules()
                            .iter()
                            .map(|r| r.label())
                            .collect::<Vec<_>>()
                            .join(", "),
                        fmt(e.score, 3),
                        e.last_finish.map_or_else(
                            || {
                                if e.finish_by_termination {
                                    "— (finish by termination)".into()
                                } else {
                                    "—".into()
                                }
                            },
                            |s| format!("s{} (turn {})", s.step, s.turn),
                        ),
                        e.first_loop.map_or("—".into(), |l| {
                            format!("({}, {}, {:.3})", l.k.step, l.j.step, l.ratio)
                        }),
                        format!("{}/{}", e.bad_steps.len(), e.n),
                    ],
                }
            })
            .collect(),
    )
}

pub(super) fn filter_view(filter: Option<&FilterReport>) -> Vec<RtItem> {
    let Some(f) = filter else {
        return vec![RtItem::Heading(
            "SFT trace filter: not run on this log".into(),
        )];
    };
    let mut items = Vec::new();
    if f.groups.is_empty() {
        items.push(RtItem::Heading(
            "SFT trace filter: no teacher trace (train runtime = deploy runtime) in the log".into(),
        ));
        return items;
    }
    let [t, p] = filter_tables(f);
    items.push(panel("filter", "runtime-table8", &t));
    items.push(panel("filter", "runtime-table8-pairs", &p));
    if f.not_teacher > 0 {
        items.push(RtItem::Heading(format!(
            "{} episode(s) with train runtime ≠ deploy runtime left out (not teacher traces)",
            f.not_teacher
        )));
    }
    let list = filter_traces(f);
    if list.rows.is_empty() {
        items.push(RtItem::Heading("Every trace is valid".into()));
    } else {
        items.push(RtItem::Traces(list));
    }
    items
}
