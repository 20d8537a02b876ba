//! The quantities of the runtime-contracts spec over one slice: Q_XY(c) with
//! instance bootstrap intervals, the runtime gaps, the interaction and its cap
//! moderation on shared instance ids with paired intervals, the trace-derived
//! quantities per episode and per condition, and exposure.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexSet;
use serde::{Deserialize, Serialize};

use crate::log::{call_item_id, Condition, Episode, Termination};
use crate::FamilyTools;

/// A mean with its 95% interval over `n` instances.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    pub n: usize,
}

/// A linear combination of condition means on the instance ids present in
/// every condition it involves, with a paired bootstrap interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contrast {
    /// e.g. `Q_PP(25) - Q_PS(25)`.
    pub formula: String,
    pub value: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    /// Instance ids shared by every term.
    pub n_shared: usize,
    /// The same combination of each term's own mean (its own instances).
    pub from_table_means: Option<f64>,
}

/// Per-instance scores of one (condition, cap) cell: instance id → mean
/// score of its episodes.
pub type Cell = BTreeMap<String, f64>;

/// Percentile bootstrap of a mean: the statistics layer's paired
/// bootstrap ([`gapscope_stats::paired::bootstrap_mean`]: B draws of n
/// indices, u32, ChaCha8 seeded with `seed`; 2.5th and 97.5th percentiles
/// interpolated linearly).
pub fn bootstrap_mean(values: &[f64], draws: usize, seed: u64) -> Option<[f64; 2]> {
    gapscope_stats::paired::bootstrap_mean(values, draws, seed)?.bounds()
}

/// The mean (`+ 0.0` turns a −0 into 0: an empty f64 sum is −0).
fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64 + 0.0)
}

/// Q of one cell over its own instances.
pub fn estimate(cell: Option<&Cell>, draws: usize, seed: u64) -> Estimate {
    let v: Vec<f64> = cell
        .map(|c| c.values().copied().collect())
        .unwrap_or_default();
    Estimate {
        value: mean(&v),
        ci95: bootstrap_mean(&v, draws, seed),
        n: v.len(),
    }
}

/// `Σ coef × Q(cell)` on the shared instance ids, resampling those ids.
pub fn contrast(
    formula: String,
    terms: &[(f64, Option<&Cell>)],
    draws: usize,
    seed: u64,
) -> Contrast {
    let cells: Option<Vec<(f64, &Cell)>> = terms.iter().map(|(k, c)| c.map(|c| (*k, c))).collect();
    let Some(cells) = cells else {
        return Contrast {
            formula,
            value: None,
            ci95: None,
            n_shared: 0,
            from_table_means: None,
        };
    };
    let mut shared: BTreeSet<&String> = cells[0].1.keys().collect();
    for (_, c) in &cells[1..] {
        shared.retain(|id| c.contains_key(*id));
    }
    let v: Vec<f64> = shared
        .iter()
        .map(|id| cells.iter().map(|(k, c)| k * c[*id]).sum())
        .collect();
    let from_table_means = cells
        .iter()
        .map(|(k, c)| mean(&c.values().copied().collect::<Vec<_>>()).map(|m| k * m))
        .sum::<Option<f64>>();
    Contrast {
        formula,
        value: mean(&v),
        ci95: bootstrap_mean(&v, draws, seed),
        n_shared: v.len(),
        from_table_means,
    }
}

/// Per-turn markers for stepping through an episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnMark {
    pub index: u32,
    pub logged: bool,
    /// Recorded calls (the block's length).
    pub calls: usize,
    pub cap_hit: bool,
    pub name_error: bool,
    pub listing_calls: usize,
    /// Successful inspections of ids not inspected before in the episode.
    pub new_items: usize,
    /// Distinct ids inspected up to the end of this turn.
    pub distinct_items: usize,
    /// For the next executed turn after a cap hit: whether it re-issued the
    /// listing call before acquiring anything new; `None` for other turns.
    pub restart: Option<bool>,
}

/// The trace-derived quantities of one episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeMetrics {
    /// Logged turns (usable completions).
    pub steps: usize,
    pub attempted: usize,
    /// `None` when no listing tool is configured for the family.
    pub listing_calls: Option<usize>,
    /// In + out over logged turns; `None` when a logged turn lacks a count.
    pub tokens: Option<u64>,
    pub cap_hits: usize,
    /// Cap hits over steps; `None` without steps.
    pub cap_hit_share: Option<f64>,
    pub name_error_turns: usize,
    /// Recorded calls of the inspect tool(s); `None` when none is configured.
    pub inspect_calls: Option<usize>,
    pub distinct_items: Option<usize>,
    /// Cached inspections over successful inspections; `None` without any.
    pub replay_fraction: Option<f64>,
    /// Next executed turns after a cap hit, and how many of them restarted.
    pub restart_events: usize,
    pub restarts: usize,
}

/// Metrics and turn markers of one episode.
pub fn episode_metrics(
    e: &Episode,
    tools: Option<&FamilyTools>,
    cap_message: &str,
) -> (EpisodeMetrics, Vec<TurnMark>) {
    let listing: &[String] = tools.map_or(&[], |t| &t.listing);
    let inspect: &[String] = tools.map_or(&[], |t| &t.inspect);
    let mut inspected: IndexSet<String> = IndexSet::new();
    let mut marks = Vec::new();
    let (mut steps, mut cap_hits, mut name_errors) = (0, 0, 0);
    let (mut listing_calls, mut inspect_calls, mut ok_inspects, mut cached) = (0, 0, 0, 0);
    let mut tokens: Option<u64> = Some(0);
    let (mut events, mut restarts) = (0, 0);
    let mut after_cap = false;
    for t in &e.turns {
        let err = t.error.as_deref().unwrap_or("");
        let cap_hit = t.logged && err.contains(cap_message);
        let name_error = t.logged && err.contains("NameError");
        let mut restart: Option<bool> = None;
        let (mut lc, mut new) = (0, 0);
        if t.logged {
            steps += 1;
            tokens = match (tokens, t.tokens_in, t.tokens_out) {
                (Some(s), Some(i), Some(o)) => Some(s + i + o),
                _ => None,
            };
            let judging = after_cap && !listing.is_empty();
            for c in &t.calls {
                if listing.contains(&c.tool) {
                    lc += 1;
                    if judging && restart.is_none() {
                        restart = Some(true);
                    }
                }
                if inspect.contains(&c.tool) {
                    inspect_calls += 1;
                    if c.ok {
                        ok_inspects += 1;
                        if c.cached {
                            cached += 1;
                        }
                        if let Some(id) = call_item_id(&c.args) {
                            if inspected.insert(id) {
                                new += 1;
                                if judging && restart.is_none() {
                                    restart = Some(false);
                                }
                            }
                        }
                    }
                }
            }
            if judging {
                let r = restart.unwrap_or(false);
                restart = Some(r);
                events += 1;
                restarts += usize::from(r);
            }
            after_cap = cap_hit;
            cap_hits += usize::from(cap_hit);
            name_errors += usize::from(name_error);
            listing_calls += lc;
        }
        marks.push(TurnMark {
            index: t.index,
            logged: t.logged,
            calls: t.calls.len(),
            cap_hit,
            name_error,
            listing_calls: lc,
            new_items: new,
            distinct_items: inspected.len(),
            restart,
        });
    }
    let m = EpisodeMetrics {
        steps,
        attempted: e.turns.len(),
        listing_calls: (!listing.is_empty()).then_some(listing_calls),
        tokens,
        cap_hits,
        cap_hit_share: (steps > 0).then(|| cap_hits as f64 / steps as f64),
        name_error_turns: name_errors,
        inspect_calls: (!inspect.is_empty()).then_some(inspect_calls),
        distinct_items: (!inspect.is_empty()).then_some(inspected.len()),
        replay_fraction: (ok_inspects > 0).then(|| f64::from(cached) / f64::from(ok_inspects)),
        restart_events: events,
        restarts,
    };
    (m, marks)
}

/// A per-condition mean of a per-episode quantity; episodes where it is
/// undefined are left out and counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanOf {
    pub mean: Option<f64>,
    pub n: usize,
    pub undefined: usize,
}

impl MeanOf {
    pub fn of(values: impl Iterator<Item = Option<f64>>) -> Self {
        let (mut s, mut n, mut u) = (0.0, 0, 0);
        for v in values {
            match v {
                Some(x) => {
                    s += x;
                    n += 1;
                }
                None => u += 1,
            }
        }
        MeanOf {
            mean: (n > 0).then(|| s / n as f64),
            n,
            undefined: u,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TerminationCounts {
    pub finish: usize,
    pub turn_limit: usize,
    pub timeout: usize,
}

/// Post-cap restart rate pooled over the condition's turns (Table 14).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RestartRate {
    /// Next executed turns after a cap hit.
    pub events: usize,
    pub restarts: usize,
    pub rate: Option<f64>,
}

/// The trace-metric row of one condition at one cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    pub cap: u32,
    pub condition: Condition,
    pub episodes: usize,
    pub steps: MeanOf,
    pub attempted: MeanOf,
    pub listing_calls: MeanOf,
    pub tokens: MeanOf,
    pub cap_hit_share: MeanOf,
    pub name_error_turns: MeanOf,
    pub inspect_calls: MeanOf,
    pub distinct_items: MeanOf,
    pub replay_fraction: MeanOf,
    pub termination: TerminationCounts,
    pub restart: RestartRate,
}

pub fn trace_row(cap: u32, condition: Condition, rows: &[(&Episode, &EpisodeMetrics)]) -> TraceRow {
    let m = |f: &dyn Fn(&EpisodeMetrics) -> Option<f64>| MeanOf::of(rows.iter().map(|(_, x)| f(x)));
    let mut termination = TerminationCounts::default();
    for (e, _) in rows {
        match e.termination {
            Termination::Finish => termination.finish += 1,
            Termination::TurnLimit => termination.turn_limit += 1,
            Termination::Timeout => termination.timeout += 1,
        }
    }
    let events: usize = rows.iter().map(|(_, x)| x.restart_events).sum();
    let restarts: usize = rows.iter().map(|(_, x)| x.restarts).sum();
    let has_listing = rows.iter().any(|(_, x)| x.listing_calls.is_some());
    TraceRow {
        cap,
        condition,
        episodes: rows.len(),
        steps: m(&|x| Some(x.steps as f64)),
        attempted: m(&|x| Some(x.attempted as f64)),
        listing_calls: m(&|x| x.listing_calls.map(|v| v as f64)),
        tokens: m(&|x| x.tokens.map(|v| v as f64)),
        cap_hit_share: m(&|x| x.cap_hit_share),
        name_error_turns: m(&|x| Some(x.name_error_turns as f64)),
        inspect_calls: m(&|x| x.inspect_calls.map(|v| v as f64)),
        distinct_items: m(&|x| x.distinct_items.map(|v| v as f64)),
        replay_fraction: m(&|x| x.replay_fraction),
        termination,
        restart: RestartRate {
            events,
            restarts,
            rate: (has_listing && events > 0).then(|| restarts as f64 / events as f64),
        },
    }
}

/// Exposure E_c of one condition: over its action blocks at the slack cap,
/// the share whose recorded call count exceeds c.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exposure {
    pub condition: Condition,
    pub slack_cap: u32,
    /// Executed action blocks (logged turns) at the slack cap.
    pub blocks: usize,
    pub by_cap: Vec<ExposureAt>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExposureAt {
    pub cap: u32,
    pub over: usize,
    pub share: Option<f64>,
}

pub fn exposure(condition: Condition, slack: u32, caps: &[u32], episodes: &[&Episode]) -> Exposure {
    let lengths: Vec<usize> = episodes
        .iter()
        .filter(|e| e.cap == slack)
        .flat_map(|e| e.turns.iter().filter(|t| t.logged).map(|t| t.calls.len()))
        .collect();
    Exposure {
        condition,
        slack_cap: slack,
        blocks: lengths.len(),
        by_cap: caps
            .iter()
            .filter(|&&c| c <= slack)
            .map(|&c| {
                let over = lengths.iter().filter(|&&l| l > c as usize).count();
                ExposureAt {
                    cap: c,
                    over,
                    share: (!lengths.is_empty()).then(|| over as f64 / lengths.len() as f64),
                }
            })
            .collect(),
    }
}
