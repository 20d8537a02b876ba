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

impl Contrast {
    /// A contrast with no value (what a report read back holds for a
    /// contrast it does not read).
    pub fn undefined() -> Self {
        Contrast {
            formula: String::new(),
            value: None,
            ci95: None,
            n_shared: 0,
            from_table_means: None,
        }
    }
}

/// Per-instance scores of one (condition, cap) cell: instance id → mean
/// score of its episodes.
pub type Cell = BTreeMap<String, f64>;

/// The cell of per-episode `values` (instance id, value): each id's values
/// summed in the order given, over their number (addendum §0: per id
/// first).
pub fn per_id_cell(values: impl IntoIterator<Item = (String, f64)>) -> Cell {
    let mut by_id: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for (id, v) in values {
        let slot = by_id.entry(id).or_insert((0.0, 0));
        slot.0 += v;
        slot.1 += 1;
    }
    by_id
        .into_iter()
        .map(|(id, (s, n))| (id, s / n as f64))
        .collect()
}

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
    /// The next logged turn after a logged cap-hit turn (addendum §1: the
    /// turn a checkpoint would have been carried into).
    #[serde(
        default,
        skip_serializing_if = "std::ops::Not::not",
        skip_deserializing
    )]
    pub carried: bool,
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
    /// Addendum §1: carried turns (next logged turn after a logged cap hit),
    /// NameError turns among them, and `carried_in` marks on carried and on
    /// other turns (they enter no quantity; counted).
    #[serde(skip_deserializing)]
    pub carried_turns: usize,
    #[serde(skip_deserializing)]
    pub name_error_carried: usize,
    #[serde(skip_deserializing)]
    pub carried_in_carried: usize,
    #[serde(skip_deserializing)]
    pub carried_in_other: usize,
}

/// How listing calls are counted (addendum §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListingCount {
    /// Recorded calls of the listing tool.
    #[default]
    Calls,
    /// Matches of `\bNAME\s*\(` in logged turns' `code` (comments and
    /// strings included): the paper's "occurrences in the executed code".
    Code,
}

/// Occurrences of `\bname\s*\(` in `code`, for a tool name that is an
/// identifier. Hand-written rather than a regex (the name would need
/// escaping): a match is the name not preceded by a word character, then
/// optional whitespace, then `(`.
pub fn code_occurrences(code: &str, name: &str) -> usize {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    if name.is_empty() {
        return 0;
    }
    code.match_indices(name)
        .filter(|(start, _)| {
            let before = code[..*start].chars().next_back();
            let rest = code[start + name.len()..].trim_start();
            before.is_none_or(|c| !word(c)) && rest.starts_with('(')
        })
        .count()
}

/// Metrics and turn markers of one episode.
pub fn episode_metrics(
    e: &Episode,
    tools: Option<&FamilyTools>,
    cap_message: &str,
    listing_count: ListingCount,
) -> (EpisodeMetrics, Vec<TurnMark>) {
    let listing: &[String] = tools.map_or(&[], |t| &t.listing);
    let inspect: &[String] = tools.map_or(&[], |t| &t.inspect);
    let mut inspected: IndexSet<String> = IndexSet::new();
    let mut marks = Vec::new();
    let (mut steps, mut cap_hits, mut name_errors) = (0, 0, 0);
    let (mut listing_calls, mut inspect_calls, mut cached) = (0usize, 0usize, 0usize);
    let mut tokens: Option<u64> = Some(0);
    let (mut events, mut restarts) = (0, 0);
    let (mut carried_turns, mut name_error_carried) = (0, 0);
    let (mut carried_in_carried, mut carried_in_other) = (0, 0);
    let mut after_cap = false;
    for t in &e.turns {
        let err = t.error.as_deref().unwrap_or("");
        let cap_hit = t.logged && err.contains(cap_message);
        let name_error = t.logged && err.contains("NameError");
        let mut restart: Option<bool> = None;
        let (mut lc, mut new) = (0, 0);
        let after_cap_before = after_cap;
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
                    if c.cached {
                        cached += 1;
                    }
                    if c.ok {
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
            if listing_count == ListingCount::Code {
                let code = t.code.as_deref().unwrap_or("");
                lc = listing.iter().map(|n| code_occurrences(code, n)).sum();
            }
            if after_cap {
                carried_turns += 1;
                name_error_carried += usize::from(name_error);
                carried_in_carried += usize::from(t.carried_in);
            } else {
                carried_in_other += usize::from(t.carried_in);
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
            carried: t.logged && after_cap_before,
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
        // Addendum §0 (replaces): cached re-inspections over all recorded
        // inspect calls.
        replay_fraction: (inspect_calls > 0).then(|| cached as f64 / inspect_calls as f64),
        restart_events: events,
        restarts,
        carried_turns,
        name_error_carried,
        carried_in_carried,
        carried_in_other,
    };
    (m, marks)
}

/// A per-condition mean of a per-episode quantity (addendum §0): each
/// instance id's episodes are averaged first, then the ids (so an id that
/// repeats within a cell weighs once; with one episode per id this is the
/// plain episode mean, summed in log order); the interval is the instance
/// bootstrap of the per-id values. Episodes where the quantity is undefined
/// are left out and counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanOf {
    pub mean: Option<f64>,
    /// Episodes with a defined value.
    pub n: usize,
    pub undefined: usize,
    /// Instance ids averaged (≤ n). Written, not read back (the page shows
    /// none of the addendum's trace quantities from the report).
    #[serde(skip_deserializing)]
    pub ids: usize,
    /// 95% instance-bootstrap interval (None with B = 0 or no id); written,
    /// not read back.
    #[serde(skip_deserializing)]
    pub ci95: Option<[f64; 2]>,
}

/// One quantity's per-id means, in first-appearance order, and the counts.
struct PerId<'a> {
    /// (id, sum, episodes) in first-appearance order.
    ids: Vec<(&'a str, f64, usize)>,
    n: usize,
    undefined: usize,
}

impl<'a> PerId<'a> {
    fn of(values: impl Iterator<Item = (&'a str, Option<f64>)>) -> Self {
        let mut at: std::collections::HashMap<&'a str, usize> = std::collections::HashMap::new();
        let mut ids: Vec<(&'a str, f64, usize)> = Vec::new();
        let (mut n, mut undefined) = (0, 0);
        for (id, v) in values {
            match v {
                Some(x) => {
                    n += 1;
                    let k = *at.entry(id).or_insert_with(|| {
                        ids.push((id, 0.0, 0));
                        ids.len() - 1
                    });
                    ids[k].1 += x;
                    ids[k].2 += 1;
                }
                None => undefined += 1,
            }
        }
        PerId { ids, n, undefined }
    }

    fn means(&self) -> impl Iterator<Item = f64> + '_ {
        self.ids.iter().map(|(_, s, c)| s / *c as f64)
    }

    /// The per-id means ordered by id as text (the bootstrap's units).
    fn by_id(&self) -> (Vec<&'a str>, Vec<f64>) {
        let mut v: Vec<(&str, f64)> = self
            .ids
            .iter()
            .map(|(i, s, c)| (*i, s / *c as f64))
            .collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v.into_iter().unzip()
    }

    fn mean_of(&self) -> MeanOf {
        let k = self.ids.len();
        MeanOf {
            mean: (k > 0).then(|| self.means().sum::<f64>() / k as f64),
            n: self.n,
            undefined: self.undefined,
            ids: k,
            ci95: None,
        }
    }
}

/// Means of several per-episode quantities of one cell, each with its
/// instance-bootstrap interval; quantities defined on the same ids share
/// one pass of draws ([`gapscope_stats::paired::bootstrap_means`]: each
/// interval is `bootstrap_mean` of its per-id values).
pub fn means_of(quantities: &[PerIdInput<'_>], draws: usize, seed: u64) -> Vec<MeanOf> {
    let per: Vec<PerId> = quantities
        .iter()
        .map(|q| PerId::of(q.iter().copied()))
        .collect();
    let mut out: Vec<MeanOf> = per.iter().map(PerId::mean_of).collect();
    let keyed: Vec<(Vec<&str>, Vec<f64>)> = per.iter().map(PerId::by_id).collect();
    let mut done = vec![false; per.len()];
    for k in 0..per.len() {
        if done[k] {
            continue;
        }
        let group: Vec<usize> = (k..per.len())
            .filter(|&j| !done[j] && keyed[j].0 == keyed[k].0)
            .collect();
        let columns: Vec<Vec<f64>> = group.iter().map(|&j| keyed[j].1.clone()).collect();
        let ivs = gapscope_stats::paired::bootstrap_means(&columns, draws, seed);
        for (&j, iv) in group.iter().zip(ivs) {
            done[j] = true;
            out[j].ci95 = iv.and_then(|iv| iv.bounds());
        }
    }
    out
}

/// One quantity over a cell's episodes: (instance id, value) per episode.
pub type PerIdInput<'a> = Vec<(&'a str, Option<f64>)>;

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
    /// Addendum §0: Σ restarts / Σ events over resampled ids (their events
    /// travel with them); draws without an event are skipped. Written, not
    /// read back.
    #[serde(skip_deserializing)]
    pub ci95: Option<[f64; 2]>,
    /// Addendum §8: fewer events than the threshold (default 20): shown as
    /// "too few events (n)"; the value is kept.
    #[serde(default)]
    pub too_few_events: bool,
}

/// The trace-metric row of one condition at one cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    pub cap: u32,
    pub condition: Condition,
    /// Addendum §1: the intervention of the row's condition (`P->S+carry`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
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
    /// Addendum §1: NameError turns on carried turns, per episode. This
    /// and the addendum's counts below are written, not read back (the
    /// page gets Table 18 as text from its worker).
    #[serde(skip_deserializing, default = "MeanOf::empty")]
    pub name_error_carried: MeanOf,
    pub termination: TerminationCounts,
    pub restart: RestartRate,
    /// Addendum §1: carried turns, and `carried_in` marks on carried and on
    /// other turns (flagged when on other turns).
    #[serde(skip_deserializing)]
    pub carried_turns: usize,
    #[serde(skip_deserializing)]
    pub carried_in_carried: usize,
    #[serde(skip_deserializing)]
    pub carried_in_other: usize,
    /// Addendum §8: episodes with a `generator_warning`.
    #[serde(skip_deserializing)]
    pub generator_warnings: usize,
    /// Addendum §6: Σ tokens_in / Σ (in + out) over the episodes with
    /// tokens (no interval).
    #[serde(skip_deserializing)]
    pub input_share: Option<f64>,
}

impl MeanOf {
    /// No episode.
    pub fn empty() -> Self {
        MeanOf {
            mean: None,
            n: 0,
            undefined: 0,
            ids: 0,
            ci95: None,
        }
    }
}

/// How a trace row is computed: bootstrap draws and seed, and the event
/// threshold of the restart rate.
#[derive(Clone, Copy, Debug)]
pub struct RowSettings {
    pub draws: usize,
    pub seed: u64,
    pub min_events: usize,
}

pub fn trace_row(
    cap: u32,
    arm: &crate::log::Arm,
    rows: &[(&Episode, &EpisodeMetrics)],
    how: RowSettings,
) -> TraceRow {
    type Get = fn(&EpisodeMetrics) -> Option<f64>;
    let getters: [Get; 10] = [
        |x| Some(x.steps as f64),
        |x| Some(x.attempted as f64),
        |x| x.listing_calls.map(|v| v as f64),
        |x| x.tokens.map(|v| v as f64),
        |x| x.cap_hit_share,
        |x| Some(x.name_error_turns as f64),
        |x| x.inspect_calls.map(|v| v as f64),
        |x| x.distinct_items.map(|v| v as f64),
        |x| x.replay_fraction,
        |x| Some(x.name_error_carried as f64),
    ];
    let inputs: Vec<PerIdInput> = getters
        .iter()
        .map(|g| {
            rows.iter()
                .map(|(e, x)| (e.instance_id.as_str(), g(x)))
                .collect()
        })
        .collect();
    let mut m = means_of(&inputs, how.draws, how.seed).into_iter();
    let mut next = || m.next().unwrap_or_else(MeanOf::empty);
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
    let rate = (has_listing && events > 0).then(|| restarts as f64 / events as f64);
    let ci95 = if rate.is_some() {
        // Per id: (restarts, events), ids sorted as text.
        let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (e, x) in rows {
            let s = per.entry(e.instance_id.as_str()).or_default();
            s.0 += x.restarts;
            s.1 += x.restart_events;
        }
        let units: Vec<(usize, usize)> = per.into_values().collect();
        gapscope_stats::paired::bootstrap_statistic(units.len(), how.draws, how.seed, |picks| {
            let (mut r, mut ev) = (0usize, 0usize);
            for &i in picks {
                r += units[i as usize].0;
                ev += units[i as usize].1;
            }
            (ev > 0).then(|| r as f64 / ev as f64)
        })
        .and_then(|iv| iv.bounds())
    } else {
        None
    };
    TraceRow {
        cap,
        condition: arm.base,
        intervention: arm.intervention.clone(),
        episodes: rows.len(),
        steps: next(),
        attempted: next(),
        listing_calls: next(),
        tokens: next(),
        cap_hit_share: next(),
        name_error_turns: next(),
        inspect_calls: next(),
        distinct_items: next(),
        replay_fraction: next(),
        name_error_carried: next(),
        termination,
        restart: RestartRate {
            events,
            restarts,
            rate,
            ci95,
            too_few_events: rate.is_some() && events < how.min_events,
        },
        carried_turns: rows.iter().map(|(_, x)| x.carried_turns).sum(),
        carried_in_carried: rows.iter().map(|(_, x)| x.carried_in_carried).sum(),
        carried_in_other: rows.iter().map(|(_, x)| x.carried_in_other).sum(),
        generator_warnings: rows
            .iter()
            .filter(|(e, _)| e.generator_warning.is_some())
            .count(),
        input_share: None,
    }
}

/// Exposure E_c of one condition: over its action blocks at the slack cap,
/// the share whose recorded call count exceeds c.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exposure {
    pub condition: Condition,
    /// Addendum §1: the intervention of the row's condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
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

/// Exposure of one condition at the slack cap for every cap in `caps`
/// (addendum §9: exact from logs for c ≤ c_slack; caps above it are left
/// out, undefined).
pub fn exposure(
    arm: &crate::log::Arm,
    slack: u32,
    caps: &[u32],
    episodes: &[&Episode],
) -> Exposure {
    let lengths: Vec<usize> = episodes
        .iter()
        .filter(|e| e.cap == slack)
        .flat_map(|e| e.turns.iter().filter(|t| t.logged).map(|t| t.calls.len()))
        .collect();
    Exposure {
        condition: arm.base,
        intervention: arm.intervention.clone(),
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
