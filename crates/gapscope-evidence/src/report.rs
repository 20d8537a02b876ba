//! Report tables over scored episodes (spec: evidence-to-action.md,
//! "Reports"): ECS per protocol and domain with P-M and D-M (within each
//! repetition, then mean and sample SD across repetitions), coverage, the
//! failure decomposition, investigation-effort curves and paired configuration
//! comparisons (paired bootstrap over cases, McNemar's exact test).
//!
//! All rates are fractions in [0, 1]; undefined values are `None`.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub use crate::pairs::{McNemar, MeanSd};
use crate::score::{Episode, FailureType};
use crate::spec::Protocol;

/// One configuration's ECS within one repetition (over its scored runs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepetitionEcs {
    pub repetition: u32,
    pub scored: usize,
    pub overall: Option<f64>,
    /// Keyed by protocol name (Legacy, V0, …), in protocol order.
    pub by_protocol: IndexMap<String, Option<f64>>,
    pub by_domain: IndexMap<String, Option<f64>>,
    /// Unweighted mean over the protocols of the case set (`None` when one of
    /// them has no scored run in this repetition).
    pub protocol_macro: Option<f64>,
    pub domain_macro: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EcsSummary {
    pub overall: MeanSd,
    pub by_protocol: IndexMap<String, MeanSd>,
    pub by_domain: IndexMap<String, MeanSd>,
    pub protocol_macro: MeanSd,
    pub domain_macro: MeanSd,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigEcs {
    /// The side's label (`config`, or `config@condition`).
    pub config: String,
    /// Scored against the unmanipulated spec under an evidence intervention:
    /// diagnostic only (addendum §5).
    pub manipulated: bool,
    pub repetitions: Vec<RepetitionEcs>,
    pub summary: EcsSummary,
}

/// Planned, scored and unscored runs of one configuration (or all: `config`
/// is `None`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub config: Option<String>,
    pub planned: usize,
    pub scored: usize,
    /// Runs recorded as `infrastructure_failure` (unscored, not failures).
    pub infrastructure_failures: usize,
    /// Planned runs with no trajectory at all.
    pub missing: usize,
    pub coverage: Option<f64>,
    pub infrastructure_failure_ids: Vec<String>,
}

/// One segment of a stacked bar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureSegment {
    pub failure: FailureType,
    /// Episodes (pooled over repetitions).
    pub count: usize,
    /// Share of scored episodes, within each repetition then averaged.
    pub share: Option<f64>,
    pub episode_ids: Vec<String>,
}

/// One stacked bar: a configuration × protocol.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureBar {
    pub config: String,
    pub protocol: Protocol,
    pub scored: usize,
    pub successes: usize,
    pub success_share: Option<f64>,
    /// Every failure type, in the spec's order (zero counts included).
    pub segments: Vec<FailureSegment>,
}

/// One episode on an effort curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffortPoint {
    pub trajectory_id: String,
    pub repetition: u32,
    pub normalized_effort: f64,
    pub complete: bool,
}

/// Share of episodes with completed investigation and normalized
/// information-call count ≤ x (a step function; `points` are its corners).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffortCurve {
    pub config: String,
    pub protocol: Protocol,
    /// Scored episodes with at least one required read (the denominator).
    pub episodes: usize,
    /// `[x, share]`, x ascending over the distinct efforts of complete
    /// episodes; the share is computed within each repetition then averaged.
    pub points: Vec<[f64; 2]>,
    /// The final share (episodes that completed the investigation).
    pub plateau: Option<f64>,
    pub episode_points: Vec<EffortPoint>,
}

/// One row of a paired comparison (addendum §6): a protocol, or V0–V3.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedProtocolRow {
    /// `V0` … `V3`, `V0–V3` or `Legacy`.
    pub row: String,
    /// The V0–V3 row: the headline (Legacy never enters it).
    pub headline: bool,
    /// The row's cases (ids), aligned with `paired.per_case`.
    pub case_ids: Vec<String>,
    pub paired: crate::pairs::PairedRow,
}

/// A − B of two sides over the cases planned on both (addendum §6; rule P
/// for one condition, rule C when the conditions differ).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedComparison {
    /// Side labels.
    pub a: String,
    pub b: String,
    pub rule: crate::pairs::Rule,
    /// Cases planned on both sides.
    pub cases: usize,
    pub bootstrap: usize,
    /// V0, V1, V2, V3 (those planned), V0–V3, then Legacy.
    pub rows: Vec<PairedProtocolRow>,
    /// Table 12: per repetition, all-planned ECS of A and B over the V0–V3
    /// cases and their difference, with mean and SD across repetitions.
    pub per_repetition: crate::pairs::PerRepetition,
}

impl PairedComparison {
    /// The headline row (V0–V3), if any V0–V3 case is planned on both.
    pub fn headline(&self) -> Option<&PairedProtocolRow> {
        self.rows.iter().find(|r| r.headline)
    }
}

/// The planned runs the reports use (addendum §1).
pub(crate) struct Plan<'a> {
    /// The planned case set (the union over sides), in case-file order:
    /// (id, protocol, domain).
    pub cases: Vec<(&'a str, Protocol, &'a str)>,
    /// The same cases' specs.
    pub case_specs: Vec<&'a crate::spec::Case>,
    pub sides: Vec<SidePlan>,
}

/// One side's planned runs.
pub(crate) struct SidePlan {
    pub side: crate::Side,
    pub label: String,
    pub manipulated: bool,
    /// Indices into [`Plan::cases`], ascending.
    pub cases: Vec<usize>,
    /// Ascending.
    pub repetitions: Vec<u32>,
    /// (case index into [`Plan::cases`], repetition).
    pub runs: std::collections::BTreeSet<(usize, u32)>,
}

impl Plan<'_> {
    pub fn protocols(&self) -> Vec<Protocol> {
        Protocol::ALL
            .into_iter()
            .filter(|p| self.cases.iter().any(|c| c.1 == *p))
            .collect()
    }

    pub fn domains(&self) -> Vec<String> {
        let mut d: indexmap::IndexSet<&str> = indexmap::IndexSet::new();
        for c in &self.cases {
            d.insert(c.2);
        }
        d.into_iter().map(str::to_string).collect()
    }

    /// The protocols of one side's planned cases, in protocol order.
    fn side_protocols(&self, side: &SidePlan) -> Vec<Protocol> {
        Protocol::ALL
            .into_iter()
            .filter(|p| side.cases.iter().any(|&k| self.cases[k].1 == *p))
            .collect()
    }

    /// The domains of one side's planned cases, in order of first appearance.
    fn side_domains(&self, side: &SidePlan) -> Vec<String> {
        let mut d: indexmap::IndexSet<&str> = indexmap::IndexSet::new();
        for &k in &side.cases {
            d.insert(self.cases[k].2);
        }
        d.into_iter().map(str::to_string).collect()
    }

    /// Case id → index into [`Plan::cases`].
    pub fn case_positions(&self) -> std::collections::HashMap<&str, usize> {
        self.cases
            .iter()
            .enumerate()
            .map(|(i, c)| (c.0, i))
            .collect()
    }
}

fn rate(eps: &[&Episode]) -> Option<f64> {
    (!eps.is_empty())
        .then(|| eps.iter().filter(|e| e.success == Some(true)).count() as f64 / eps.len() as f64)
}

fn macro_of(values: &[Option<f64>]) -> Option<f64> {
    let v: Option<Vec<f64>> = values.iter().copied().collect();
    v.and_then(|v| gapscope_stats::summary::mean(&v))
}

/// Scored episodes of the plan by (side, repetition), built once so each
/// table is linear in the episodes.
struct ByRun<'e>(std::collections::HashMap<(&'e str, &'e str, u32), Vec<&'e Episode>>);

impl<'e> ByRun<'e> {
    fn new(episodes: &'e [Episode]) -> Self {
        let mut m: std::collections::HashMap<(&'e str, &'e str, u32), Vec<&'e Episode>> =
            std::collections::HashMap::new();
        for e in episodes.iter().filter(|e| e.scored) {
            m.entry((e.config.as_str(), e.condition.as_str(), e.repetition))
                .or_default()
                .push(e);
        }
        ByRun(m)
    }

    /// Scored episodes of one side and repetition, in file order.
    fn get(&self, side: &SidePlan, rep: u32) -> Vec<&'e Episode> {
        self.0
            .get(&(side.side.config.as_str(), side.side.condition.as_str(), rep))
            .cloned()
            .unwrap_or_default()
    }
}

/// Planned runs of one side and repetition, per protocol and per domain.
fn planned_counts<'p>(
    plan: &Plan<'p>,
    side: &SidePlan,
    rep: u32,
) -> (
    usize,
    std::collections::HashMap<Protocol, usize>,
    std::collections::HashMap<&'p str, usize>,
) {
    let mut by_p = std::collections::HashMap::new();
    let mut by_d = std::collections::HashMap::new();
    let mut n = 0;
    for &(k, r) in &side.runs {
        if r == rep {
            n += 1;
            *by_p.entry(plan.cases[k].1).or_insert(0) += 1;
            *by_d.entry(plan.cases[k].2).or_insert(0) += 1;
        }
    }
    (n, by_p, by_d)
}

/// ECS per side: scored-only (base: over scored runs) or, with
/// `all_planned`, over planned runs with unscored ones counted 0 (addendum
/// §5). `config` holds the side's label.
pub(crate) fn ecs_tables(plan: &Plan, episodes: &[Episode], all_planned: bool) -> Vec<ConfigEcs> {
    let by_run = ByRun::new(episodes);
    plan.sides
        .iter()
        .map(|side| {
            let protocols = plan.side_protocols(side);
            let domains = plan.side_domains(side);
            let reps: Vec<RepetitionEcs> = side
                .repetitions
                .iter()
                .map(|&r| {
                    let eps = by_run.get(side, r);
                    let (n, by_p, by_d) = planned_counts(plan, side, r);
                    let share = |sub: &[&Episode], planned: usize| {
                        if all_planned {
                            (planned > 0).then(|| {
                                sub.iter().filter(|e| e.success == Some(true)).count() as f64
                                    / planned as f64
                            })
                        } else {
                            rate(sub)
                        }
                    };
                    let by_protocol: IndexMap<String, Option<f64>> = protocols
                        .iter()
                        .map(|p| {
                            let sub: Vec<&Episode> =
                                eps.iter().copied().filter(|e| e.protocol == *p).collect();
                            (
                                p.name().to_string(),
                                share(&sub, by_p.get(p).copied().unwrap_or(0)),
                            )
                        })
                        .collect();
                    let by_domain: IndexMap<String, Option<f64>> = domains
                        .iter()
                        .map(|d| {
                            let sub: Vec<&Episode> =
                                eps.iter().copied().filter(|e| &e.domain == d).collect();
                            (
                                d.clone(),
                                share(&sub, by_d.get(d.as_str()).copied().unwrap_or(0)),
                            )
                        })
                        .collect();
                    RepetitionEcs {
                        repetition: r,
                        scored: eps.len(),
                        overall: share(&eps, n),
                        protocol_macro: macro_of(
                            &by_protocol.values().copied().collect::<Vec<_>>(),
                        ),
                        domain_macro: macro_of(&by_domain.values().copied().collect::<Vec<_>>()),
                        by_protocol,
                        by_domain,
                    }
                })
                .collect();
            let across = |f: &dyn Fn(&RepetitionEcs) -> Option<f64>| {
                MeanSd::of(&reps.iter().map(f).collect::<Vec<_>>())
            };
            let summary = EcsSummary {
                overall: across(&|r| r.overall),
                by_protocol: protocols
                    .iter()
                    .map(|p| {
                        (
                            p.name().to_string(),
                            across(&|r| r.by_protocol.get(p.name()).copied().flatten()),
                        )
                    })
                    .collect(),
                by_domain: domains
                    .iter()
                    .map(|d| {
                        (
                            d.clone(),
                            across(&|r| r.by_domain.get(d.as_str()).copied().flatten()),
                        )
                    })
                    .collect(),
                protocol_macro: across(&|r| r.protocol_macro),
                domain_macro: across(&|r| r.domain_macro),
            };
            ConfigEcs {
                config: side.label.clone(),
                manipulated: side.manipulated,
                repetitions: reps,
                summary,
            }
        })
        .collect()
}

pub(crate) fn coverage(plan: &Plan, episodes: &[Episode]) -> Vec<Coverage> {
    // Episodes per side, in one pass.
    let mut by_side: std::collections::HashMap<(&str, &str), Vec<&Episode>> =
        std::collections::HashMap::new();
    for e in episodes {
        by_side
            .entry((e.config.as_str(), e.condition.as_str()))
            .or_default()
            .push(e);
    }
    let one = |label: Option<&str>, eps: Vec<&Episode>, planned: usize| {
        let scored = eps.iter().filter(|e| e.scored).count();
        let infra: Vec<String> = eps
            .iter()
            .filter(|e| !e.scored)
            .map(|e| e.trajectory_id.clone())
            .collect();
        Coverage {
            config: label.map(str::to_string),
            planned,
            scored,
            infrastructure_failures: infra.len(),
            missing: planned.saturating_sub(eps.len()),
            coverage: (planned > 0).then(|| scored as f64 / planned as f64),
            infrastructure_failure_ids: infra,
        }
    };
    let mut out: Vec<Coverage> = plan
        .sides
        .iter()
        .map(|s| {
            let eps = by_side
                .get(&(s.side.config.as_str(), s.side.condition.as_str()))
                .cloned()
                .unwrap_or_default();
            one(Some(&s.label), eps, s.runs.len())
        })
        .collect();
    out.push(one(
        None,
        episodes.iter().collect(),
        plan.sides.iter().map(|s| s.runs.len()).sum(),
    ));
    out
}

pub(crate) fn failure_bars(plan: &Plan, episodes: &[Episode]) -> Vec<FailureBar> {
    let by_run = ByRun::new(episodes);
    let mut out = Vec::new();
    for side in &plan.sides {
        for p in plan.side_protocols(side) {
            let per_rep: Vec<Vec<&Episode>> = side
                .repetitions
                .iter()
                .map(|&r| {
                    by_run
                        .get(side, r)
                        .into_iter()
                        .filter(|e| e.protocol == p)
                        .collect()
                })
                .collect();
            let share = |pred: &dyn Fn(&Episode) -> bool| {
                gapscope_stats::summary::mean(
                    &per_rep
                        .iter()
                        .filter(|eps| !eps.is_empty())
                        .map(|eps| eps.iter().filter(|e| pred(e)).count() as f64 / eps.len() as f64)
                        .collect::<Vec<_>>(),
                )
            };
            let all: Vec<&Episode> = per_rep.iter().flatten().copied().collect();
            let segments = FailureType::ALL
                .into_iter()
                .map(|f| {
                    let ids: Vec<String> = all
                        .iter()
                        .filter(|e| e.failure == Some(f))
                        .map(|e| e.trajectory_id.clone())
                        .collect();
                    FailureSegment {
                        failure: f,
                        count: ids.len(),
                        share: share(&|e| e.failure == Some(f)),
                        episode_ids: ids,
                    }
                })
                .collect();
            out.push(FailureBar {
                config: side.label.clone(),
                protocol: p,
                scored: all.len(),
                successes: all.iter().filter(|e| e.success == Some(true)).count(),
                success_share: share(&|e| e.success == Some(true)),
                segments,
            });
        }
    }
    out
}

pub(crate) fn effort_curves(plan: &Plan, episodes: &[Episode]) -> Vec<EffortCurve> {
    let by_run = ByRun::new(episodes);
    let mut out = Vec::new();
    for side in &plan.sides {
        for p in plan.side_protocols(side) {
            if p == Protocol::Legacy {
                continue;
            }
            let per_rep: Vec<Vec<&Episode>> = side
                .repetitions
                .iter()
                .map(|&r| {
                    by_run
                        .get(side, r)
                        .into_iter()
                        .filter(|e| {
                            e.protocol == p && !e.scored_as_legacy && e.normalized_effort.is_some()
                        })
                        .collect()
                })
                .collect();
            let all: Vec<&Episode> = per_rep.iter().flatten().copied().collect();
            let mut xs: Vec<f64> = all
                .iter()
                .filter(|e| e.investigation_complete)
                .filter_map(|e| e.normalized_effort)
                .collect();
            xs.sort_by(f64::total_cmp);
            xs.dedup();
            let share_at = |x: f64| {
                gapscope_stats::summary::mean(
                    &per_rep
                        .iter()
                        .filter(|eps| !eps.is_empty())
                        .map(|eps| {
                            eps.iter()
                                .filter(|e| {
                                    e.investigation_complete
                                        && e.normalized_effort.is_some_and(|v| v <= x)
                                })
                                .count() as f64
                                / eps.len() as f64
                        })
                        .collect::<Vec<_>>(),
                )
            };
            let points: Vec<[f64; 2]> = xs
                .iter()
                .filter_map(|&x| share_at(x).map(|y| [x, y]))
                .collect();
            out.push(EffortCurve {
                config: side.label.clone(),
                protocol: p,
                episodes: all.len(),
                plateau: share_at(f64::INFINITY),
                points,
                episode_points: all
                    .iter()
                    .filter_map(|e| {
                        Some(EffortPoint {
                            trajectory_id: e.trajectory_id.clone(),
                            repetition: e.repetition,
                            normalized_effort: e.normalized_effort?,
                            complete: e.investigation_complete,
                        })
                    })
                    .collect(),
            });
        }
    }
    out
}

/// Two-sided exact McNemar p on pooled pairs: 2 · P(X ≤ min(b, c)) for
/// X ~ Binomial(b + c, ½), capped at 1; 1 when there is no discordant pair
/// (the statistics layer's sign test, `gapscope_stats::paired::sign_test_p`;
/// with one pair per case it equals the clustered test of [`McNemar`]).
pub fn mcnemar_exact(b: usize, c: usize) -> f64 {
    gapscope_stats::paired::sign_test_p(b, c)
}

/// Paired bootstrap of the mean of `d` over cases: the statistics layer's
/// ([`gapscope_stats::paired::bootstrap_mean`]: B draws of n indices,
/// ChaCha8 `seed_from_u64(seed)`, `random_range(0..n)` on u32; the 2.5th
/// and 97.5th percentiles of the draw means).
pub fn bootstrap_mean_interval(d: &[f64], draws: usize, seed: u64) -> Option<[f64; 2]> {
    gapscope_stats::paired::bootstrap_mean(d, draws, seed)?.bounds()
}

/// A side's planned runs with their binary outcome (`None`: unscored),
/// and an index of its episodes by (case position, repetition).
pub(crate) fn side_runs<'e>(
    plan: &Plan,
    episodes: &'e [Episode],
    side: usize,
) -> (
    Vec<crate::pairs::Run>,
    std::collections::HashMap<(usize, u32), &'e Episode>,
) {
    let s = &plan.sides[side];
    let pos = plan.case_positions();
    let index: std::collections::HashMap<(usize, u32), &Episode> = episodes
        .iter()
        .filter(|e| e.config == s.side.config && e.condition == s.side.condition)
        .filter_map(|e| Some(((*pos.get(e.case_id.as_str())?, e.repetition), e)))
        .collect();
    let runs = s
        .runs
        .iter()
        .map(|&(k, r)| crate::pairs::Run {
            case: k,
            repetition: r,
            value: index
                .get(&(k, r))
                .filter(|e| e.scored)
                .map(|e| f64::from(u8::from(e.success == Some(true)))),
        })
        .collect();
    (runs, index)
}

pub(crate) fn paired(
    plan: &Plan,
    episodes: &[Episode],
    a: usize,
    b: usize,
    draws: usize,
    seed: u64,
) -> PairedComparison {
    use crate::pairs::{self, Rule};
    let (ra, _) = side_runs(plan, episodes, a);
    let (rb, _) = side_runs(plan, episodes, b);
    let (sa, sb) = (&plan.sides[a], &plan.sides[b]);
    let rule = if sa.side.condition == sb.side.condition {
        Rule::AllPlanned
    } else {
        Rule::Completed
    };
    let both: Vec<usize> = sa
        .cases
        .iter()
        .copied()
        .filter(|k| sb.cases.binary_search(k).is_ok())
        .collect();
    let of = |ps: &[Protocol]| -> Vec<usize> {
        both.iter()
            .copied()
            .filter(|&k| ps.contains(&plan.cases[k].1))
            .collect()
    };
    let row = |name: &str, headline: bool, cases: Vec<usize>| {
        let paired = pairs::paired(&ra, &rb, &cases, rule, true, draws, seed);
        PairedProtocolRow {
            row: name.to_string(),
            headline,
            case_ids: paired
                .per_case
                .iter()
                .map(|c| plan.cases[c.case].0.to_string())
                .collect(),
            paired,
        }
    };
    let acting = [Protocol::V0, Protocol::V1, Protocol::V2, Protocol::V3];
    let mut rows = Vec::new();
    for p in acting {
        let cases = of(&[p]);
        if !cases.is_empty() {
            rows.push(row(p.name(), false, cases));
        }
    }
    let v03 = of(&acting);
    let per_repetition = pairs::per_repetition(&ra, &rb, &v03);
    if !v03.is_empty() {
        rows.push(row("V0–V3", true, v03));
    }
    let legacy = of(&[Protocol::Legacy]);
    if !legacy.is_empty() {
        rows.push(row(Protocol::Legacy.name(), false, legacy));
    }
    PairedComparison {
        a: sa.label.clone(),
        b: sb.label.clone(),
        rule,
        cases: both.len(),
        bootstrap: draws,
        rows,
        per_repetition,
    }
}

/// A decision-readiness curve of one side and protocol (addendum §7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadinessCurve {
    /// The side's label.
    pub config: String,
    pub protocol: Protocol,
    /// Episodes per repetition (those that qualify): mean and range.
    pub n_mean: Option<f64>,
    pub n_min: usize,
    pub n_max: usize,
    /// `[x, F(x)]` at the step corners on [0, 1] (0, every distinct value,
    /// 1), F averaged pointwise over the non-empty repetitions; empty when
    /// no episode qualifies.
    pub points: Vec<[f64; 2]>,
    /// V0/V1: mean coverage; V2/V3: mean of the per-episode mean s_g.
    pub mean: Option<f64>,
    /// 1 − lim_{x↑1} F(x): the share at full support.
    pub full_support: Option<f64>,
    /// The qualifying episodes (to click through).
    pub episode_ids: Vec<String>,
    /// Why the curve is empty ("no episode qualifies").
    pub reason: Option<String>,
}

/// One qualifying episode's values: V0/V1 its coverage (one value), V2/V3
/// its included gates' s_g.
/// Qualifying episodes of one repetition with their readiness values.
type Qualified<'e> = Vec<(&'e Episode, Vec<f64>)>;

fn readiness_values(e: &Episode) -> Option<Vec<f64>> {
    match e.protocol {
        Protocol::V0 | Protocol::V1 => e.readiness.coverage.map(|c| vec![c]),
        Protocol::V2 | Protocol::V3 => {
            let s: Vec<f64> = e
                .readiness
                .gates
                .iter()
                .filter(|g| g.included)
                .map(|g| g.supported as f64 / g.evaluated as f64)
                .collect();
            (!s.is_empty()).then_some(s)
        }
        Protocol::Legacy => None,
    }
}

pub(crate) fn readiness_curves(plan: &Plan, episodes: &[Episode]) -> Vec<ReadinessCurve> {
    let by_run = ByRun::new(episodes);
    let mut out = Vec::new();
    for side in &plan.sides {
        for p in plan.side_protocols(side) {
            if p == Protocol::Legacy {
                continue;
            }
            // Per repetition: each qualifying episode's values.
            let per_rep: Vec<Qualified> = side
                .repetitions
                .iter()
                .map(|&r| {
                    by_run
                        .get(side, r)
                        .into_iter()
                        .filter(|e| e.protocol == p && !e.scored_as_legacy)
                        .filter_map(|e| Some((e, readiness_values(e)?)))
                        .collect()
                })
                .collect();
            let nonempty: Vec<&Qualified> = per_rep.iter().filter(|v| !v.is_empty()).collect();
            let mut xs: Vec<f64> = vec![0.0, 1.0];
            xs.extend(
                nonempty
                    .iter()
                    .flat_map(|v| v.iter().flat_map(|(_, s)| s.iter().copied())),
            );
            xs.sort_by(f64::total_cmp);
            xs.dedup();
            // F_rep(x) = mean over episodes of the share of its values ≤ x.
            let f_rep = |eps: &Qualified, below: &dyn Fn(f64) -> bool| {
                eps.iter()
                    .map(|(_, s)| s.iter().filter(|&&v| below(v)).count() as f64 / s.len() as f64)
                    .sum::<f64>()
                    / eps.len() as f64
            };
            let across = |f: &dyn Fn(&Qualified) -> f64| {
                gapscope_stats::summary::mean(&nonempty.iter().map(|v| f(v)).collect::<Vec<_>>())
            };
            let points: Vec<[f64; 2]> = if nonempty.is_empty() {
                Vec::new()
            } else {
                xs.iter()
                    .filter_map(|&x| across(&|eps| f_rep(eps, &|v| v <= x)).map(|y| [x, y]))
                    .collect()
            };
            let ns: Vec<usize> = per_rep.iter().map(Vec::len).collect();
            out.push(ReadinessCurve {
                config: side.label.clone(),
                protocol: p,
                n_mean: gapscope_stats::summary::mean(
                    &ns.iter().map(|&n| n as f64).collect::<Vec<_>>(),
                )
                .filter(|_| !nonempty.is_empty()),
                n_min: ns.iter().copied().min().unwrap_or(0),
                n_max: ns.iter().copied().max().unwrap_or(0),
                points,
                mean: across(&|eps| {
                    eps.iter()
                        .map(|(_, s)| s.iter().sum::<f64>() / s.len() as f64)
                        .sum::<f64>()
                        / eps.len() as f64
                }),
                full_support: across(&|eps| 1.0 - f_rep(eps, &|v| v < 1.0)),
                episode_ids: per_rep
                    .iter()
                    .flatten()
                    .map(|(e, _)| e.trajectory_id.clone())
                    .collect(),
                reason: nonempty
                    .is_empty()
                    .then(|| "no episode qualifies".to_string()),
            });
        }
    }
    out
}
