//! Report tables over scored episodes (spec: evidence-to-action.md,
//! "Reports"): ECS per protocol and domain with P-M and D-M (within each
//! repetition, then mean and sample SD across repetitions), coverage, the
//! failure decomposition, investigation-effort curves and paired configuration
//! comparisons (paired bootstrap over cases, McNemar's exact test).
//!
//! All rates are fractions in [0, 1]; undefined values are `None`.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::score::{Episode, FailureType};
use crate::spec::Protocol;

/// Mean and sample SD (n − 1) over the repetitions where a value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanSd {
    pub mean: Option<f64>,
    /// `None` with fewer than two defined values.
    pub sd: Option<f64>,
    /// Repetitions with a defined value.
    pub n: usize,
}

impl MeanSd {
    pub fn of(values: &[Option<f64>]) -> MeanSd {
        let v: Vec<f64> = values.iter().flatten().copied().collect();
        let mean = gapscope_stats::summary::mean(&v);
        let sd = match (mean, v.len()) {
            (Some(m), n) if n >= 2 => {
                Some((v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n as f64 - 1.0)).sqrt())
            }
            _ => None,
        };
        MeanSd {
            mean,
            sd,
            n: v.len(),
        }
    }
}

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
    pub config: String,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseDifference {
    pub case_id: String,
    pub protocol: Protocol,
    /// ECS averaged over the planned repetitions (unscored runs count 0).
    pub ecs_a: f64,
    pub ecs_b: f64,
    pub difference: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    /// (case, repetition) pairs.
    pub pairs: usize,
    pub both_succeed: usize,
    /// A succeeds, B fails.
    pub only_a: usize,
    /// B succeeds, A fails.
    pub only_b: usize,
    pub both_fail: usize,
    /// Cases whose D_k = b_k − c_k (pairs where only A, minus pairs where
    /// only B succeeds) is not 0.
    pub discordant_cases: usize,
    /// S = Σ D_k (= only_a − only_b).
    pub s: i64,
    /// The clustered exact McNemar p (evidence-to-action.addendum.md §2,
    /// which replaces the base test on pooled pairs):
    /// `P(|Σ ε_k D_k| ≥ |S|)` over sign flips of whole cases, exact by
    /// convolution (`gapscope_stats::paired::clustered_exact_mcnemar`, the
    /// run comparisons' function); 1 when every D_k = 0; null with no case.
    pub p_value: Option<f64>,
}

/// A − B over the planned cases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedComparison {
    pub a: String,
    pub b: String,
    pub cases: usize,
    /// Planned runs of A (B) left unscored (infrastructure failure or missing),
    /// counted as unsuccessful.
    pub unscored_a: usize,
    pub unscored_b: usize,
    pub mean_difference: Option<f64>,
    /// Paired bootstrap 95% percentile interval over cases.
    pub interval: Option<[f64; 2]>,
    pub bootstrap: usize,
    pub per_case: Vec<CaseDifference>,
    pub mcnemar: McNemar,
}

/// The run grid the reports use.
pub(crate) struct Plan<'a> {
    pub cases: Vec<(&'a str, Protocol, &'a str)>,
    pub configs: Vec<String>,
    pub repetitions: Vec<u32>,
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
}

fn rate(eps: &[&Episode]) -> Option<f64> {
    (!eps.is_empty())
        .then(|| eps.iter().filter(|e| e.success == Some(true)).count() as f64 / eps.len() as f64)
}

fn macro_of(values: &[Option<f64>]) -> Option<f64> {
    let v: Option<Vec<f64>> = values.iter().copied().collect();
    v.and_then(|v| gapscope_stats::summary::mean(&v))
}

/// Scored episodes of the plan by (configuration, repetition), built once so
/// each table is linear in the episodes (it filtered every episode for every
/// configuration and repetition).
struct ByRun<'e>(std::collections::HashMap<(&'e str, u32), Vec<&'e Episode>>);

impl<'e> ByRun<'e> {
    fn new(episodes: &'e [Episode]) -> Self {
        let mut m: std::collections::HashMap<(&'e str, u32), Vec<&'e Episode>> =
            std::collections::HashMap::new();
        for e in episodes.iter().filter(|e| e.scored) {
            m.entry((e.config.as_str(), e.repetition))
                .or_default()
                .push(e);
        }
        ByRun(m)
    }

    /// Scored episodes of one configuration and repetition, in file order.
    fn get(&self, config: &str, rep: u32) -> Vec<&'e Episode> {
        self.0.get(&(config, rep)).cloned().unwrap_or_default()
    }
}

pub(crate) fn ecs_tables(plan: &Plan, episodes: &[Episode]) -> Vec<ConfigEcs> {
    let by_run = ByRun::new(episodes);
    let protocols = plan.protocols();
    let domains = plan.domains();
    plan.configs
        .iter()
        .map(|config| {
            let reps: Vec<RepetitionEcs> = plan
                .repetitions
                .iter()
                .map(|&r| {
                    let eps = by_run.get(config, r);
                    let by_protocol: IndexMap<String, Option<f64>> = protocols
                        .iter()
                        .map(|p| {
                            let sub: Vec<&Episode> =
                                eps.iter().copied().filter(|e| e.protocol == *p).collect();
                            (p.name().to_string(), rate(&sub))
                        })
                        .collect();
                    let by_domain: IndexMap<String, Option<f64>> = domains
                        .iter()
                        .map(|d| {
                            let sub: Vec<&Episode> =
                                eps.iter().copied().filter(|e| &e.domain == d).collect();
                            (d.clone(), rate(&sub))
                        })
                        .collect();
                    RepetitionEcs {
                        repetition: r,
                        scored: eps.len(),
                        overall: rate(&eps),
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
                config: config.clone(),
                repetitions: reps,
                summary,
            }
        })
        .collect()
}

pub(crate) fn coverage(plan: &Plan, episodes: &[Episode]) -> Vec<Coverage> {
    // Episodes per configuration, in one pass (not one pass per configuration).
    let mut by_config: std::collections::HashMap<&str, Vec<&Episode>> =
        std::collections::HashMap::new();
    for e in episodes {
        by_config.entry(e.config.as_str()).or_default().push(e);
    }
    let one = |config: Option<&str>| {
        let eps: Vec<&Episode> = match config {
            Some(c) => by_config.get(c).cloned().unwrap_or_default(),
            None => episodes.iter().collect(),
        };
        let n_configs = if config.is_some() {
            1
        } else {
            plan.configs.len()
        };
        let planned = plan.cases.len() * plan.repetitions.len() * n_configs;
        let scored = eps.iter().filter(|e| e.scored).count();
        let infra: Vec<String> = eps
            .iter()
            .filter(|e| !e.scored)
            .map(|e| e.trajectory_id.clone())
            .collect();
        Coverage {
            config: config.map(str::to_string),
            planned,
            scored,
            infrastructure_failures: infra.len(),
            missing: planned.saturating_sub(eps.len()),
            coverage: (planned > 0).then(|| scored as f64 / planned as f64),
            infrastructure_failure_ids: infra,
        }
    };
    let mut out: Vec<Coverage> = plan.configs.iter().map(|c| one(Some(c))).collect();
    out.push(one(None));
    out
}

pub(crate) fn failure_bars(plan: &Plan, episodes: &[Episode]) -> Vec<FailureBar> {
    let by_run = ByRun::new(episodes);
    let mut out = Vec::new();
    for config in &plan.configs {
        for p in plan.protocols() {
            let per_rep: Vec<Vec<&Episode>> = plan
                .repetitions
                .iter()
                .map(|&r| {
                    by_run
                        .get(config, r)
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
                config: config.clone(),
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
    for config in &plan.configs {
        for p in plan.protocols() {
            if p == Protocol::Legacy {
                continue;
            }
            let per_rep: Vec<Vec<&Episode>> = plan
                .repetitions
                .iter()
                .map(|&r| {
                    by_run
                        .get(config, r)
                        .into_iter()
                        .filter(|e| e.protocol == p && e.normalized_effort.is_some())
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
                config: config.clone(),
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

pub(crate) fn paired(
    plan: &Plan,
    episodes: &[Episode],
    a: &str,
    b: &str,
    draws: usize,
    seed: u64,
) -> PairedComparison {
    // (config, case, repetition) → (success, scored), for A and B.
    let index: std::collections::HashMap<(&str, &str, u32), (bool, bool)> = episodes
        .iter()
        .filter(|e| e.config == a || e.config == b)
        .map(|e| {
            (
                (e.config.as_str(), e.case_id.as_str(), e.repetition),
                (e.scored && e.success == Some(true), e.scored),
            )
        })
        .collect();
    let success = |config: &str, case: &str, rep: u32| -> (bool, bool) {
        index
            .get(&(config, case, rep))
            .copied()
            .unwrap_or((false, false))
    };
    let reps = plan.repetitions.len().max(1) as f64;
    let mut per_case = Vec::new();
    let mut m = McNemar {
        pairs: 0,
        both_succeed: 0,
        only_a: 0,
        only_b: 0,
        both_fail: 0,
        discordant_cases: 0,
        s: 0,
        p_value: None,
    };
    // (b_k, c_k) of each case, for the clustered test.
    let mut discordant: Vec<(usize, usize)> = Vec::with_capacity(plan.cases.len());
    let (mut unscored_a, mut unscored_b) = (0, 0);
    for &(case, protocol, _) in &plan.cases {
        let (mut sa, mut sb) = (0.0, 0.0);
        let (mut b_k, mut c_k) = (0, 0);
        for &r in &plan.repetitions {
            let (oa, scored_a) = success(a, case, r);
            let (ob, scored_b) = success(b, case, r);
            unscored_a += usize::from(!scored_a);
            unscored_b += usize::from(!scored_b);
            sa += f64::from(u8::from(oa));
            sb += f64::from(u8::from(ob));
            m.pairs += 1;
            match (oa, ob) {
                (true, true) => m.both_succeed += 1,
                (true, false) => {
                    m.only_a += 1;
                    b_k += 1;
                }
                (false, true) => {
                    m.only_b += 1;
                    c_k += 1;
                }
                (false, false) => m.both_fail += 1,
            }
        }
        discordant.push((b_k, c_k));
        per_case.push(CaseDifference {
            case_id: case.to_string(),
            protocol,
            ecs_a: sa / reps,
            ecs_b: sb / reps,
            difference: (sa - sb) / reps,
        });
    }
    let clustered = gapscope_stats::paired::clustered_exact_mcnemar(&discordant);
    m.discordant_cases = clustered.discordant_cases;
    m.s = clustered.s;
    m.p_value = clustered.p;
    let d: Vec<f64> = per_case.iter().map(|c| c.difference).collect();
    PairedComparison {
        a: a.to_string(),
        b: b.to_string(),
        cases: per_case.len(),
        unscored_a,
        unscored_b,
        mean_difference: gapscope_stats::summary::mean(&d),
        interval: bootstrap_mean_interval(&d, draws, seed),
        bootstrap: draws,
        per_case,
        mcnemar: m,
    }
}
