//! View models of the "Runtime contracts" page (docs/runtime.md): tables and
//! the cap-sweep figure of a [`RuntimeReport`] (`runtime::analyze`), the
//! verification report, a filterable episode list and an episode stepper
//! that walks through turns. No leptos here; every number is a field of the
//! report.

use gapscope_runtime::metrics::{Contrast, Estimate, MeanOf};
use gapscope_runtime::{Condition, Runtime, RuntimeReport, SliceReport};

use crate::chart::{self, Join, Line, LinePoint, FAMILY_COLOURS};
use crate::format::fmt;
use crate::table::{Cell, Table};

/// The page's sub-views, in menu order: (id, label, one-line explanation).
pub const RUNTIME_VIEWS: [(&str, &str, &str); 11] = [
    ("quality", "2×2 per cap", "Mean score Q of agents trained under a persistent (P) or stateless (S) runtime and deployed under either, at each per-turn tool-call cap, with the runtime gaps G_P, G_S and their sum D."),
    ("sweep", "Cap sweep", "Q against the per-turn cap for the four train→deploy conditions, with 95% intervals (the paper's Figure 2a)."),
    ("trace", "Trace metrics", "What the agents did: turns, listing calls, tokens, cap hits, NameErrors after a reset, restarts after a cut, replayed inspections."),
    ("conditions", "Conditions", "Every condition, interventions included (P→S+carry): Q, NameErrors on carried turns, restarts, distinct items, decision, contrasts (Table 18)."),
    ("horizon", "Horizon", "Turn accounting per condition and cap, its flags (Table 20), and Q across horizons on common ids (Table 19)."),
    ("replications", "Replications", "M(c) = Q_PS − Q_SS, and the 2×2 statistics across seeds on common ids with a pooled column (Tables 12, 21; Fig. 3)."),
    ("mechanism", "Coverage and decision", "Coverage and decision of the inspected set (Table 14); distinct items gained against inspect calls (Fig. 2b)."),
    ("filter", "SFT filter", "The teacher-trace validity filter per runtime and the dual-valid pair yield (Table 8); a row opens its trace at the failing step."),
    ("verification", "Verification", "Opaque Knapsack scores recomputed from the instance and the accepted takes; episodes whose logged score disagrees or that break a rule."),
    ("episodes", "Episodes", "Every episode with its condition, cap, score and termination; filter by slice, condition and cap."),
    ("stepper", "Episode stepper", "One episode turn by turn: the calls of each block, where the cap cut it, NameErrors after a reset, and the agent's record before and after."),
];

/// Colour and dash of a condition: palette order; mismatched conditions dashed.
pub fn condition_style(c: Condition) -> (&'static str, &'static str) {
    let k = Condition::ALL.iter().position(|x| *x == c).unwrap_or(0);
    (
        FAMILY_COLOURS[k % FAMILY_COLOURS.len()],
        if c.matched() { "" } else { "5 3" },
    )
}

/// `P->S` as `P→S`.
pub fn condition_label(c: Condition) -> String {
    c.label().replace("->", "→")
}

fn estimate_row(label: String, formula: &str, q: &Estimate) -> Vec<Cell> {
    vec![
        Cell::text(label),
        Cell::text(formula),
        Cell::num(q.value, 3),
        Cell::Interval {
            value: q.ci95,
            decimals: 3,
        },
        Cell::text(q.n.to_string()),
        Cell::num(q.value, 3),
    ]
}

fn contrast_row(label: &str, c: &Contrast) -> Vec<Cell> {
    vec![
        Cell::text(label),
        Cell::text(c.formula.replace(" - ", " − ")),
        Cell::num(c.value, 3),
        Cell::Interval {
            value: c.ci95,
            decimals: 3,
        },
        Cell::text(c.n_shared.to_string()),
        Cell::num(c.from_table_means, 3),
    ]
}

const QUANTITY_HEADERS: [&str; 6] = [
    "Quantity",
    "Definition",
    "Value",
    "95% interval",
    "n (instances; shared for differences)",
    "From the cells' own means",
];

/// The 2×2 table at one cap (`k`: index into `slice.tables`): Q of each
/// condition, then G_P, G_S and D on the shared instance ids with their
/// intervals, and the same combination of the cells' own means.
pub fn cap_table(slice: &SliceReport, k: usize) -> Option<Table> {
    let t = slice.tables.get(k)?;
    let mut rows: Vec<Vec<Cell>> = t
        .cells
        .iter()
        .map(|c| {
            estimate_row(
                format!("Q {}", condition_label(c.condition)),
                &format!(
                    "trained {:?}, deployed {:?}",
                    c.condition.train(),
                    c.condition.deploy()
                ),
                &c.q,
            )
        })
        .collect();
    rows.push(contrast_row("G_P", &t.g_p));
    rows.push(contrast_row("G_S", &t.g_s));
    rows.push(contrast_row("D = G_P + G_S", &t.d));
    Some(Table {
        title: format!(
            "Cap {}: 2×2 quality and runtime gaps — {}",
            t.cap, slice.name
        ),
        headers: QUANTITY_HEADERS.map(String::from).to_vec(),
        rows,
    })
}

/// The 2×2 layout of one cap as a grid: rows trained P / S, columns deployed
/// P / S, each cell (Q, interval, n). For a compact component.
pub fn cap_grid(slice: &SliceReport, k: usize) -> Option<[[(String, Estimate); 2]; 2]> {
    let t = slice.tables.get(k)?;
    let cell = |train: Runtime, deploy: Runtime| {
        let c = Condition::of(train, deploy);
        let q = t.cells.iter().find(|x| x.condition == c).map_or(
            Estimate {
                value: None,
                ci95: None,
                n: 0,
            },
            |x| x.q.clone(),
        );
        (condition_label(c), q)
    };
    Some([
        [cell(Runtime::P, Runtime::P), cell(Runtime::P, Runtime::S)],
        [cell(Runtime::S, Runtime::P), cell(Runtime::S, Runtime::S)],
    ])
}

/// The tight-versus-slack comparison: T, and the cap amplification of G_P and G_S.
pub fn comparison_table(slice: &SliceReport) -> Option<Table> {
    let c = slice.comparison.as_ref()?;
    Some(Table {
        title: format!(
            "Cap {} (tight) against cap {} (slack) — {}",
            c.c_tight, c.c_slack, slice.name
        ),
        headers: QUANTITY_HEADERS.map(String::from).to_vec(),
        rows: vec![
            contrast_row("Cap moderation T", &c.t),
            contrast_row("Cap amplification of G_P", &c.amplification_p),
            contrast_row("Cap amplification of G_S", &c.amplification_s),
        ],
    })
}

/// Q against cap, one line per condition with 95% whiskers.
pub fn sweep_chart(slice: &SliceReport) -> String {
    let lines: Vec<Line> = slice
        .sweep
        .iter()
        .map(|s| {
            let (colour, dash) = condition_style(s.condition);
            Line {
                name: condition_label(s.condition),
                colour: colour.into(),
                dash,
                points: s
                    .points
                    .iter()
                    .map(|p| LinePoint {
                        x: f64::from(p.cap),
                        y: p.q.value,
                        ci: p.q.ci95,
                        tip: format!(
                            "{} at cap {}: Q = {}{} (n = {})",
                            condition_label(s.condition),
                            p.cap,
                            fmt(p.q.value, 3),
                            p.q.ci95.map_or(String::new(), |[a, b]| format!(
                                " [{}, {}]",
                                fmt(Some(a), 3),
                                fmt(Some(b), 3)
                            )),
                            p.q.n
                        ),
                    })
                    .collect(),
            }
        })
        .collect();
    chart::lines(
        "Quality against the per-turn call cap",
        "cap (tool calls per turn)",
        "Q (mean score)",
        &lines,
        Join::Straight,
        None,
    )
}

/// The sweep as a table (the chart's text alternative).
pub fn sweep_table(slice: &SliceReport) -> Table {
    Table {
        title: format!("Q against cap per condition — {}", slice.name),
        headers: ["Condition", "Cap", "Q", "95% interval", "n"]
            .map(String::from)
            .to_vec(),
        rows: slice
            .sweep
            .iter()
            .flat_map(|s| {
                s.points.iter().map(move |p| {
                    vec![
                        Cell::text(condition_label(s.condition)),
                        Cell::text(p.cap.to_string()),
                        Cell::num(p.q.value, 3),
                        Cell::Interval {
                            value: p.q.ci95,
                            decimals: 3,
                        },
                        Cell::text(p.q.n.to_string()),
                    ]
                })
            })
            .collect(),
    }
}

fn mean_cell(m: &MeanOf, decimals: usize) -> Cell {
    Cell::num(m.mean, decimals)
}

/// The trace-metric rows (per-episode means per cap and condition).
pub fn trace_table(slice: &SliceReport) -> Table {
    Table {
        title: format!("Trace quantities (per-episode means) — {}", slice.name),
        headers: [
            "Cap",
            "Condition",
            "Episodes",
            "Steps",
            "Attempted turns",
            "Listing calls",
            "Tokens",
            "Cap-hit share",
            "NameError turns",
            "Inspect calls",
            "Distinct items",
            "Replay fraction",
            "Finish",
            "Turn limit",
            "Timeout",
            "Post-cap restart rate",
            "Restart events",
        ]
        .map(String::from)
        .to_vec(),
        rows: slice
            .trace
            .iter()
            .map(|t| {
                vec![
                    Cell::text(t.cap.to_string()),
                    Cell::text(condition_label(t.condition)),
                    Cell::text(t.episodes.to_string()),
                    mean_cell(&t.steps, 1),
                    mean_cell(&t.attempted, 1),
                    mean_cell(&t.listing_calls, 1),
                    mean_cell(&t.tokens, 0),
                    mean_cell(&t.cap_hit_share, 2),
                    mean_cell(&t.name_error_turns, 2),
                    mean_cell(&t.inspect_calls, 1),
                    mean_cell(&t.distinct_items, 1),
                    mean_cell(&t.replay_fraction, 2),
                    Cell::text(t.termination.finish.to_string()),
                    Cell::text(t.termination.turn_limit.to_string()),
                    Cell::text(t.termination.timeout.to_string()),
                    if t.restart.too_few_events {
                        Cell::text(format!("too few events ({})", t.restart.events))
                    } else {
                        Cell::num(t.restart.rate, 2)
                    },
                    Cell::text(t.restart.events.to_string()),
                ]
            })
            .collect(),
    }
}

/// Exposure E_c per condition: the share of blocks at the slack cap longer
/// than c.
pub fn exposure_table(slice: &SliceReport) -> Table {
    Table {
        title: format!(
            "Exposure: share of action blocks at the slack cap with more than c calls — {}",
            slice.name
        ),
        headers: [
            "Condition",
            "Slack cap",
            "Blocks",
            "c",
            "Blocks over c",
            "E_c",
        ]
        .map(String::from)
        .to_vec(),
        rows: slice
            .exposure
            .iter()
            .flat_map(|x| {
                x.by_cap.iter().map(move |a| {
                    vec![
                        Cell::text(condition_label(x.condition)),
                        Cell::text(x.slack_cap.to_string()),
                        Cell::text(x.blocks.to_string()),
                        Cell::text(a.cap.to_string()),
                        Cell::text(a.over.to_string()),
                        Cell::num(a.share, 2),
                    ]
                })
            })
            .collect(),
    }
}

/// One line on the verification: how many agree, disagree, are flagged.
pub fn verification_summary(r: &RuntimeReport) -> String {
    let v = &r.verification;
    format!(
        "{} {} episode(s) with an instance: {} verified, {} agree (tolerance {}), {} disagree, {} flagged; {} without an instance, {} of other families; anti-collapse holds on {} of {} instances",
        v.checked,
        v.family,
        v.verified,
        v.agree,
        v.tolerance,
        v.disagreements.len(),
        v.flagged.len(),
        v.without_instance,
        v.other_families,
        v.instances.len() - v.anti_collapse_violations.min(v.instances.len()),
        v.instances.len()
    )
}

/// Episodes whose logged score disagrees with the verifier or that break a
/// rule, with both numbers (each episode once).
pub fn verification_table(r: &RuntimeReport) -> Table {
    let v = &r.verification;
    let mut rows = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for c in v.disagreements.iter().chain(&v.flagged) {
        if seen.contains(&c.episode_id.as_str()) {
            continue;
        }
        seen.push(&c.episode_id);
        rows.push(vec![
            Cell::text(&c.episode_id),
            Cell::text(c.line.to_string()),
            Cell::num(Some(c.logged), 4),
            Cell::num(c.verified, 4),
            Cell::num(c.optimum, 1),
            Cell::num(c.achieved, 1),
            Cell::text(if c.overflow { "yes" } else { "no" }),
            Cell::text(if c.disagrees { "yes" } else { "no" }),
            Cell::text(c.problems.join("; ")),
        ]);
    }
    Table {
        title: format!(
            "Flagged episodes ({} disagree with the verifier, {} break a rule)",
            v.disagreements.len(),
            v.flagged.len()
        ),
        headers: [
            "Episode",
            "Line",
            "Logged score",
            "Verified score",
            "Optimum",
            "Achieved",
            "Overflow",
            "Disagrees",
            "Problems",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// The instances: optimum, smallest optimal set, the anti-collapse rule.
pub fn instance_table(r: &RuntimeReport) -> Table {
    Table {
        title: "Instances: exact optimum and the anti-collapse rule".into(),
        headers: [
            "Instance",
            "Optimum",
            "Optimal items",
            "Largest takeable item share",
            "Anti-collapse holds",
            "Episodes",
            "Conflicting copies",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .verification
            .instances
            .iter()
            .map(|i| {
                vec![
                    Cell::text(&i.instance_id),
                    Cell::num(Some(i.optimum), 1),
                    Cell::text(i.anti_collapse.optimal_items.to_string()),
                    Cell::num(i.anti_collapse.max_item_share, 3),
                    Cell::text(if i.anti_collapse.holds { "yes" } else { "no" }),
                    Cell::text(i.episodes.to_string()),
                    Cell::text(if i.conflicting { "yes" } else { "no" }),
                ]
            })
            .collect(),
    }
}

/// Which episodes the list shows; `None` fields do not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeFilter {
    /// Index into `slices`.
    pub slice: Option<usize>,
    pub condition: Option<Condition>,
    pub cap: Option<u32>,
}

/// What the episode list's filters offer, as (value, label) pairs in
/// order of first appearance: the slices (by index), the conditions (in the
/// paper's order) and the caps (ascending) the report's episodes have.
pub fn filter_options(r: &RuntimeReport) -> [Vec<(String, String)>; 3] {
    let mut slices: Vec<usize> = r.episodes.iter().map(|t| t.slice).collect();
    slices.sort_unstable();
    slices.dedup();
    let slices = slices
        .into_iter()
        .map(|i| {
            let name = r
                .slices
                .get(i)
                .map_or_else(|| format!("slice {i}"), |s| s.name.clone());
            (i.to_string(), name)
        })
        .collect();
    let conditions = Condition::ALL
        .iter()
        .filter(|c| r.episodes.iter().any(|t| t.episode.condition() == **c))
        .map(|c| (c.label().to_string(), condition_label(*c)))
        .collect();
    let mut caps: Vec<u32> = r.episodes.iter().map(|t| t.episode.cap).collect();
    caps.sort_unstable();
    caps.dedup();
    let caps = caps
        .into_iter()
        .map(|c| (c.to_string(), format!("cap {c}")))
        .collect();
    [slices, conditions, caps]
}

impl RuntimeFilter {
    /// The filter with field `k` (0 slice, 1 condition, 2 cap, as
    /// [`filter_options`]) set from an option's value (`""`: any).
    #[must_use]
    pub fn with(&self, k: usize, value: &str) -> RuntimeFilter {
        let mut f = self.clone();
        match k {
            0 => f.slice = value.parse().ok(),
            1 => f.condition = Condition::ALL.into_iter().find(|c| c.label() == value),
            _ => f.cap = value.parse().ok(),
        }
        f
    }

    /// The value of field `k` (`""`: any).
    pub fn value(&self, k: usize) -> String {
        match k {
            0 => self.slice.map(|s| s.to_string()),
            1 => self.condition.map(|c| c.label().to_string()),
            _ => self.cap.map(|c| c.to_string()),
        }
        .unwrap_or_default()
    }
}

/// The episode list under a filter: ids (row order, for click-through) and
/// the table. Empty when the report was made without episodes.
pub fn episode_list(r: &RuntimeReport, filter: &RuntimeFilter) -> (Vec<String>, Table) {
    let eps: Vec<_> = r
        .episodes
        .iter()
        .filter(|t| {
            filter.slice.is_none_or(|s| t.slice == s)
                && filter.condition.is_none_or(|c| t.episode.condition() == c)
                && filter.cap.is_none_or(|c| t.episode.cap == c)
        })
        .collect();
    let table = Table {
        title: format!("Episodes ({} of {})", eps.len(), r.episodes.len()),
        headers: [
            "Episode",
            "Instance",
            "Condition",
            "Cap",
            "Score",
            "Verified",
            "Termination",
            "Steps",
            "Cap hits",
            "NameError turns",
        ]
        .map(String::from)
        .to_vec(),
        rows: eps
            .iter()
            .map(|t| {
                vec![
                    Cell::text(&t.episode.episode_id),
                    Cell::text(&t.episode.instance_id),
                    Cell::text(condition_label(t.episode.condition())),
                    Cell::text(t.episode.cap.to_string()),
                    Cell::num(Some(t.episode.score), 3),
                    Cell::num(t.verified, 3),
                    Cell::text(termination_name(t.episode.termination)),
                    Cell::text(t.metrics.steps.to_string()),
                    Cell::text(t.metrics.cap_hits.to_string()),
                    Cell::text(t.metrics.name_error_turns.to_string()),
                ]
            })
            .collect(),
    };
    (
        eps.iter().map(|t| t.episode.episode_id.clone()).collect(),
        table,
    )
}

fn termination_name(t: gapscope_runtime::Termination) -> &'static str {
    match t {
        gapscope_runtime::Termination::Finish => "finish",
        gapscope_runtime::Termination::TurnLimit => "turn limit",
        gapscope_runtime::Termination::Timeout => "timeout",
    }
}

/// One recorded call of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeCallView {
    /// 0-based position in the block.
    pub position: usize,
    pub tool: String,
    /// Compact JSON; empty when the call had no arguments.
    pub args: String,
    pub ok: bool,
    pub cached: bool,
    pub error: Option<String>,
    /// The cap rejected this call: it was not executed, and the rest of the
    /// block did not run.
    pub cut: bool,
}

/// One turn of the stepper.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnView {
    pub index: u32,
    /// A usable completion (else a failed model call: no block ran).
    pub logged: bool,
    pub code: Option<String>,
    pub stdout: Option<String>,
    pub error: Option<String>,
    pub calls: Vec<RuntimeCallView>,
    /// The cap cut this block.
    pub cap_hit: bool,
    /// Under a stateless deployment the bindings were cleared before this turn
    /// (every turn after the first).
    pub reset_before: bool,
    pub name_error: bool,
    /// Entries of the agent's working record when the block started and ended
    /// (simulator logs only).
    pub record_before: Option<u32>,
    pub record_after: Option<u32>,
    pub tokens_in: Option<u64>,
    pub tokens_out: Option<u64>,
    pub listing_calls: usize,
    pub new_items: usize,
    pub distinct_items: usize,
    /// For the next executed turn after a cap hit: restarted with a listing call.
    pub restart: Option<bool>,
    /// One line for the stepper.
    pub note: String,
}

/// One episode for stepping through turns.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeEpisodeView {
    pub episode_id: String,
    pub slice: String,
    pub instance_id: String,
    pub condition: String,
    pub cap: u32,
    pub score: f64,
    pub verified: Option<f64>,
    pub termination: &'static str,
    pub turns: Vec<TurnView>,
}

/// One episode turn by turn; `None` when the report has no such episode
/// (or was made without episodes).
pub fn episode_view(r: &RuntimeReport, episode_id: &str) -> Option<RuntimeEpisodeView> {
    let t = r
        .episodes
        .iter()
        .find(|t| t.episode.episode_id == episode_id)?;
    let e = &t.episode;
    let stateless = e.deploy_runtime == Runtime::S;
    let turns = e
        .turns
        .iter()
        .enumerate()
        .map(|(k, turn)| {
            let mark = t.turns.get(k);
            let cap_hit = mark.is_some_and(|m| m.cap_hit);
            let name_error = mark.is_some_and(|m| m.name_error);
            let calls: Vec<RuntimeCallView> = turn
                .calls
                .iter()
                .enumerate()
                .map(|(i, c)| RuntimeCallView {
                    position: i,
                    tool: c.tool.clone(),
                    args: if c.args.is_null() {
                        String::new()
                    } else {
                        c.args.to_string()
                    },
                    ok: c.ok,
                    cached: c.cached,
                    error: c.error.clone(),
                    cut: cap_hit && i >= e.cap as usize,
                })
                .collect();
            let reset_before = stateless && k > 0;
            let record_before = turn.record.map(|x| x.at_start);
            let record_after = turn.record.map(|x| x.at_end);
            let mut note = Vec::new();
            if turn.logged {
                note.push(format!(
                    "{} call{}",
                    calls.len(),
                    if calls.len() == 1 { "" } else { "s" }
                ));
                if cap_hit {
                    note.push(format!(
                        "the cap ({}) cut the block: {} call{} not executed",
                        e.cap,
                        calls.iter().filter(|c| c.cut).count(),
                        if calls.iter().filter(|c| c.cut).count() == 1 {
                            ""
                        } else {
                            "s"
                        }
                    ));
                }
                if name_error {
                    note.push(if reset_before {
                        "NameError after the reset: a variable from an earlier turn is gone".into()
                    } else {
                        "NameError".into()
                    });
                }
                if let Some(true) = mark.and_then(|m| m.restart) {
                    note.push("restarted with a listing call".into());
                }
                if let (Some(a), Some(b)) = (record_before, record_after) {
                    note.push(format!("record {a} → {b}"));
                }
            } else {
                note.push("failed model call: no block ran".to_string());
            }
            TurnView {
                index: turn.index,
                logged: turn.logged,
                code: turn.code.clone(),
                stdout: turn.stdout.clone(),
                error: turn.error.clone(),
                calls,
                cap_hit,
                reset_before,
                name_error,
                record_before,
                record_after,
                tokens_in: turn.tokens_in,
                tokens_out: turn.tokens_out,
                listing_calls: mark.map_or(0, |m| m.listing_calls),
                new_items: mark.map_or(0, |m| m.new_items),
                distinct_items: mark.map_or(0, |m| m.distinct_items),
                restart: mark.and_then(|m| m.restart),
                note: note.join("; "),
            }
        })
        .collect();
    Some(RuntimeEpisodeView {
        episode_id: e.episode_id.clone(),
        slice: r
            .slices
            .get(t.slice)
            .map(|s| s.name.clone())
            .unwrap_or_default(),
        instance_id: e.instance_id.clone(),
        condition: condition_label(e.condition()),
        cap: e.cap,
        score: e.score,
        verified: t.verified,
        termination: termination_name(e.termination),
        turns,
    })
}

/// The stepper's turns as a table (its text alternative).
pub fn turns_table(v: &RuntimeEpisodeView) -> Table {
    Table {
        title: format!(
            "Episode {} ({}, cap {}): turn by turn",
            v.episode_id, v.condition, v.cap
        ),
        headers: [
            "Turn",
            "Logged",
            "Calls",
            "Cap cut",
            "NameError",
            "Record before",
            "Record after",
            "Distinct items",
            "Note",
        ]
        .map(String::from)
        .to_vec(),
        rows: v
            .turns
            .iter()
            .map(|t| {
                vec![
                    Cell::text(t.index.to_string()),
                    Cell::text(if t.logged { "yes" } else { "no" }),
                    Cell::text(t.calls.len().to_string()),
                    Cell::text(if t.cap_hit { "yes" } else { "no" }),
                    Cell::text(if t.name_error { "yes" } else { "no" }),
                    Cell::text(t.record_before.map_or("—".into(), |x| x.to_string())),
                    Cell::text(t.record_after.map_or("—".into(), |x| x.to_string())),
                    Cell::text(t.distinct_items.to_string()),
                    Cell::text(&t.note),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_runtime::{analyze, read_jsonl, RuntimeSettings};

    const EPISODES: &str = include_str!("../../../assets/runtime/episodes.jsonl");

    /// The default analysis of the committed log, computed once.
    fn report() -> &'static RuntimeReport {
        static R: std::sync::OnceLock<RuntimeReport> = std::sync::OnceLock::new();
        R.get_or_init(|| analyze(EPISODES, &RuntimeSettings::default()).unwrap())
    }

    /// Mean logged score of one condition at one cap, per instance id, read
    /// straight from the log (one episode per instance in this log).
    fn scores(cond: Condition, cap: u32) -> std::collections::BTreeMap<String, f64> {
        read_jsonl(EPISODES)
            .episodes
            .into_iter()
            .filter(|e| e.condition() == cond && e.cap == cap)
            .map(|e| (e.instance_id, e.score))
            .collect()
    }

    fn num(c: &Cell) -> f64 {
        match c {
            Cell::Num { value: Some(v), .. } => *v,
            other => panic!("not a number: {other:?}"),
        }
    }

    #[test]
    fn cap_tables_hold_q_and_the_gaps() {
        let r = report();
        assert_eq!(r.slices.len(), 1);
        let s = &r.slices[0];
        assert_eq!(s.caps, [5, 20, 30, 60]);
        let t = cap_table(s, 0).unwrap();
        assert_eq!(t.rows.len(), 7);
        assert!(t.title.starts_with("Cap 5"));
        // docs/runtime.md (CLI): cap 5, Q P->P 0.85 [0.76, 0.92] n = 8, Q P->S 0.00.
        assert_eq!(t.rows[0][0].display(), "Q P→P");
        assert_eq!(fmt(Some(num(&t.rows[0][2])), 2), "0.85");
        let Cell::Interval {
            value: Some([lo, hi]),
            ..
        } = t.rows[0][3]
        else {
            panic!("no interval")
        };
        assert_eq!(
            (fmt(Some(lo), 2), fmt(Some(hi), 2)),
            ("0.76".into(), "0.92".into())
        );
        assert_eq!(t.rows[0][4].display(), "8");
        // Independently from the log: Q_PP(5), and G_P(5) over the shared ids.
        let pp = scores(Condition::PP, 5);
        let ps = scores(Condition::PS, 5);
        let q_pp = pp.values().sum::<f64>() / pp.len() as f64;
        assert!((num(&t.rows[0][2]) - q_pp).abs() < 1e-12);
        let shared: Vec<&String> = pp.keys().filter(|k| ps.contains_key(*k)).collect();
        let g_p = shared.iter().map(|k| pp[*k] - ps[*k]).sum::<f64>() / shared.len() as f64;
        assert_eq!(t.rows[4][0].display(), "G_P");
        assert!((num(&t.rows[4][2]) - g_p).abs() < 1e-12);
        assert_eq!(t.rows[4][4].display(), shared.len().to_string());
        // D = G_P + G_S (the spec's identity).
        let d = num(&t.rows[6][2]);
        assert!((d - num(&t.rows[4][2]) - num(&t.rows[5][2])).abs() < 1e-12);
        assert!(cap_table(s, 4).is_none());
        let grid = cap_grid(s, 0).unwrap();
        assert_eq!(grid[0][1].0, "P→S");
        assert_eq!(grid[1][0].1.value, s.tables[0].cells[2].q.value);
        let c = comparison_table(s).unwrap();
        assert!(c.title.contains("Cap 5 (tight) against cap 60"));
        assert_eq!(c.rows.len(), 3);
    }

    #[test]
    fn sweep_chart_has_four_lines_with_whiskers() {
        let r = report();
        let s = &r.slices[0];
        let svg = sweep_chart(s);
        chart::well_formed(&svg).unwrap();
        assert_eq!(svg.matches("<path d=").count(), 4);
        // Every point has a tip; P→S is dashed.
        assert_eq!(svg.matches("<circle").count(), 16);
        assert!(svg.contains("P→S at cap 20: Q = 0.000"));
        assert!(svg.contains("stroke-dasharray=\"5 3\""));
        let t = sweep_table(s);
        assert_eq!(t.rows.len(), 16);
        // A whisker per point with an interval: its vertical line and two caps.
        let with_ci = s
            .sweep
            .iter()
            .flat_map(|x| &x.points)
            .filter(|p| p.q.ci95.is_some())
            .count();
        assert_eq!(with_ci, 16);
        assert_eq!(svg.matches("stroke-width=\"1.5\"/>").count(), with_ci);
    }

    #[test]
    fn trace_table_matches_the_documented_collapse() {
        let r = report();
        let t = trace_table(&r.slices[0]);
        assert_eq!(t.rows.len(), 16);
        let row = t
            .rows
            .iter()
            .find(|row| row[0].display() == "20" && row[1].display() == "P→S")
            .unwrap();
        // docs/runtime.md: cap 20 P->S: steps 23.2, tried 24.0, listing 22.2,
        // cap-hit 0.96, NameErr 1.00, 0/8/0, restart 0.95 (170 events).
        assert_eq!(row[3].display(), "23.2");
        assert_eq!(row[4].display(), "24.0");
        assert_eq!(row[5].display(), "22.2");
        assert_eq!(row[7].display(), "0.96");
        assert_eq!(row[8].display(), "1.00");
        assert_eq!(
            (row[12].display(), row[13].display()),
            ("0".into(), "8".into())
        );
        assert_eq!(row[15].display(), "0.95");
        assert_eq!(row[16].display(), "170");
        let x = exposure_table(&r.slices[0]);
        // docs: E_5 = 0.67 (16/24) for P->S at the slack cap 60.
        let e5 = x
            .rows
            .iter()
            .find(|row| row[0].display() == "P→S" && row[3].display() == "5")
            .unwrap();
        assert_eq!(
            (e5[2].display(), e5[4].display(), e5[5].display()),
            ("24".into(), "16".into(), "0.67".into())
        );
    }

    #[test]
    fn verification_lists_a_tampered_score_with_both_numbers() {
        let r = report();
        assert_eq!(verification_table(r).rows.len(), 0);
        assert!(verification_summary(r).contains("128 agree"));
        assert_eq!(instance_table(r).rows.len(), 8);
        // Change the first episode's logged score: the verifier recomputes
        // 0.8475177304964538 from the instance and the takes.
        let tampered = EPISODES.replacen("\"score\":0.8475177304964538", "\"score\":0.5", 1);
        assert_ne!(tampered, EPISODES);
        let r = &analyze(&tampered, &RuntimeSettings::default()).unwrap();
        let t = verification_table(r);
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][0].display(), "sim-s0-r0-k000-PP-c5");
        assert_eq!(t.rows[0][1].display(), "1");
        assert_eq!(t.rows[0][2].display(), "0.5000");
        assert_eq!(t.rows[0][3].display(), "0.8475");
        assert_eq!(t.rows[0][7].display(), "yes");
        assert!(verification_summary(r).contains("1 disagree"));
    }

    #[test]
    fn filter_options_and_values_round_trip() {
        let r = report();
        let [slices, conditions, caps] = filter_options(r);
        assert!(!slices.is_empty());
        assert_eq!(
            conditions
                .iter()
                .map(|(v, _)| v.as_str())
                .collect::<Vec<_>>(),
            ["P->P", "P->S", "S->P", "S->S"]
        );
        assert!(caps
            .windows(2)
            .all(|w| w[0].0.parse::<u32>().unwrap() < w[1].0.parse::<u32>().unwrap()));
        let f = RuntimeFilter::default().with(1, "S->P").with(2, &caps[0].0);
        assert_eq!(f.condition, Some(Condition::SP));
        assert_eq!(f.value(1), "S->P");
        assert_eq!(f.value(2), caps[0].0);
        assert_eq!(f.value(0), "");
        let (ids, _) = episode_list(r, &f);
        assert!(!ids.is_empty());
        assert_eq!(
            f.with(1, ""),
            RuntimeFilter {
                condition: None,
                ..f.clone()
            }
        );
    }

    #[test]
    fn episode_list_filters_by_condition_and_cap() {
        let r = report();
        let (all, t) = episode_list(r, &RuntimeFilter::default());
        assert_eq!((all.len(), t.rows.len()), (128, 128));
        let f = RuntimeFilter {
            slice: Some(0),
            condition: Some(Condition::PS),
            cap: Some(5),
        };
        let (ids, t) = episode_list(r, &f);
        assert_eq!(ids.len(), 8);
        assert!(t
            .rows
            .iter()
            .all(|row| row[2].display() == "P→S" && row[3].display() == "5"));
        assert!(ids.iter().all(|id| id.ends_with("-PS-c5")));
    }

    #[test]
    fn stepper_shows_cuts_resets_and_the_record() {
        let r = report();
        let log = read_jsonl(EPISODES);
        // P->S at cap 5: the P-trained policy is cut, reset and rebuilds.
        let v = episode_view(r, "sim-s0-r0-k000-PS-c5").unwrap();
        let raw = log
            .episodes
            .iter()
            .find(|e| e.episode_id == "sim-s0-r0-k000-PS-c5")
            .unwrap();
        assert_eq!(v.turns.len(), raw.turns.len());
        assert_eq!(
            (v.condition.as_str(), v.cap, v.termination),
            ("P→S", 5, "turn limit")
        );
        let mut cuts = 0;
        for (tv, t) in v.turns.iter().zip(&raw.turns) {
            // Cut calls are exactly the recorded calls the cap rejected
            // (ok: false, the cap message in the error).
            for (c, rc) in tv.calls.iter().zip(&t.calls) {
                let rejected = !rc.ok
                    && rc
                        .error
                        .as_deref()
                        .is_some_and(|e| e.contains("Tool call limit exceeded"));
                assert_eq!(c.cut, rejected, "turn {} call {}", t.index, c.position);
            }
            if tv.cap_hit {
                cuts += 1;
                assert_eq!(tv.calls.len(), 6, "5 executed + the rejected sixth");
                assert!(tv
                    .note
                    .contains("the cap (5) cut the block: 1 call not executed"));
            }
            assert_eq!(tv.record_before, t.record.map(|x| x.at_start));
            assert_eq!(tv.record_after, t.record.map(|x| x.at_end));
            assert_eq!(tv.reset_before, t.index > 0);
        }
        assert!(cuts > 0);
        let ne = v.turns.iter().find(|t| t.name_error).unwrap();
        assert!(ne.reset_before && ne.note.contains("NameError after the reset"));
        assert!(ne.error.as_deref().unwrap().contains("NameError"));
        // P->P at cap 60: no reset, no cut.
        let pp = episode_view(r, "sim-s0-r0-k000-PP-c60").unwrap();
        assert!(pp
            .turns
            .iter()
            .all(|t| !t.reset_before && !t.cap_hit && !t.name_error));
        let tt = turns_table(&v);
        assert_eq!(tt.rows.len(), v.turns.len());
        assert!(episode_view(r, "nope").is_none());
    }
}
