//! Intervention analyses (evidence-to-action.addendum.md §8), all by rule C
//! (pairs scored on both sides): first-action curves (§8.1), distractors
//! (§8.2), withheld or contradicted evidence (§8.3), static vs interactive
//! (§8.4), SCGR variants (§8.5). Each analysis pairs sides of one
//! configuration through [`crate::pairs`], the engine the configuration
//! comparisons use.
//!
//! Choices where the addendum is silent (docs/evidence.md, "Interventions"):
//! Legacy cases take part only in §8.4 (their tool calls are only recorded,
//! so "acted" says nothing) and in §8.5's Legacy row; §8.1's treatments are
//! every other condition except `static` (scored as Legacy); a `ref` in an
//! affected read spec (§8.3) resolves to what the referenced action's
//! applied call returned in the episode.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

use crate::pairs::{self, PairedRow, Rule, Run};
use crate::report::{Plan, SidePlan};
use crate::score::{CallClass, Episode};
use crate::spec::{Arg, Case, Protocol, ReadSpec, BASELINE, STATIC};
use gapscope_data::formats::tau2::json_equal;

/// All intervention analyses of a report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Interventions {
    pub first_action: Vec<FirstAction>,
    pub distractors: Vec<Distractor>,
    pub evidence: Vec<EvidenceResponse>,
    pub static_vs_interactive: Vec<StaticComparison>,
    pub scgr: Vec<Scgr>,
}

/// One matched episode behind a point or a bar: to click through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRef {
    pub trajectory_id: String,
    pub case_id: String,
    pub repetition: u32,
    pub acted: bool,
    pub k_first: Option<usize>,
    pub information_calls: usize,
}

/// A − B of one outcome over matched cases, with the case ids of its rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contrast {
    /// The treatment's and the reference's conditions.
    pub treatment: String,
    pub reference: String,
    /// Case ids aligned with `paired.per_case`; the dropped cases by id.
    pub case_ids: Vec<String>,
    pub dropped_treatment: Vec<String>,
    pub dropped_reference: Vec<String>,
    pub paired: PairedRow,
}

/// One condition's first-action curve (§8.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstActionCurve {
    pub condition: String,
    /// F(k) for k = 0…K: the mean over cases of the share of pairs with
    /// k_first ≤ k (no action = ∞, kept in the denominator).
    pub f: Vec<f64>,
    /// F(∞): the rate of acted.
    pub acted: Option<f64>,
    pub episodes: Vec<EpisodeRef>,
}

/// First action under a reference and its treatments (§8.1, Fig 8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstAction {
    pub config: String,
    pub reference: String,
    pub treatments: Vec<String>,
    /// Cases with a pair scored under every condition of the panel.
    pub matched_cases: usize,
    /// Cases planned under every condition but not matched.
    pub dropped: Vec<String>,
    /// The panel's largest finite k_first (0 if none).
    pub k_max: usize,
    /// The reference first, then the treatments.
    pub curves: Vec<FirstActionCurve>,
    /// Δ acted, each treatment vs the reference, over the panel's pairs.
    pub acted: Vec<Contrast>,
}

/// A distractor condition vs its reference (§8.2, Fig 9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distractor {
    pub config: String,
    /// Δ mean information calls (the full episode), no McNemar.
    pub information_calls: Contrast,
    /// Δ action probability (acted), with the McNemar.
    pub acted: Contrast,
    pub episodes: Vec<EpisodeRef>,
}

/// Response shares of one side over the matched pairs (§8.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResponseShares {
    pub condition: String,
    /// Matched episodes.
    pub episodes: usize,
    /// Probed ∧ ¬acted (investigated stop), probed ∧ acted (acted despite),
    /// ¬probed ∧ acted (acted uninvestigated), ¬probed ∧ ¬acted (stopped
    /// uninvestigated): shares of the matched episodes.
    pub investigated_stop: Option<f64>,
    pub acted_despite: Option<f64>,
    pub acted_uninvestigated: Option<f64>,
    pub stopped_uninvestigated: Option<f64>,
    /// Non-acting episodes by their terminal: BLOCK, DEFER, anything else.
    pub block: usize,
    pub defer: usize,
    pub other: usize,
    /// Each matched episode with whether it probed.
    pub probed_ids: Vec<String>,
    pub episode_ids: Vec<String>,
}

/// Withheld or contradicted evidence vs baseline (§8.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceResponse {
    pub config: String,
    pub condition: String,
    /// Cases with at least one affected read spec.
    pub cases: usize,
    pub treatment: ResponseShares,
    pub reference: ResponseShares,
    pub acted: Contrast,
    pub probed: Contrast,
}

/// Static accuracy vs interactive ECS on V1 cases (§8.4, Table 9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StaticComparison {
    pub config: String,
    /// A = static accuracy, B = interactive ECS, Δ = the gap.
    pub gap: Contrast,
    /// Legacy cases under `static` (the negatives): correct and rejected
    /// (decision ≠ ALLOW) out of the scored episodes.
    pub legacy_scored: usize,
    pub legacy_correct: usize,
    pub legacy_rejected: usize,
    pub legacy_ids: Vec<String>,
}

/// One side's unpaired figures on its own case set (§8.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnpairedRow {
    /// `Legacy`, `V0` … `V3`, or `V0–V3`.
    pub row: String,
    /// Planned cases.
    pub cases: usize,
    /// Scored-only ECS (within each repetition, then averaged).
    pub ecs: Option<f64>,
    /// Run completion: scored / planned.
    pub completion: Option<f64>,
}

/// SCGR-EG or SCGR-Select vs baseline (§8.5, Tables 13, 14).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scgr {
    pub config: String,
    pub condition: String,
    pub treatment: Vec<UnpairedRow>,
    pub reference: Vec<UnpairedRow>,
    /// The two case sets differ (the unpaired figures compare different
    /// cases).
    pub case_sets_differ: bool,
    /// Paired on the matched set: V0 … V3, V0–V3 (headline), Legacy apart.
    pub paired: Vec<Contrast>,
    /// The row name of each `paired` entry (`V0` … `V3`, `V0–V3`, `Legacy`).
    pub paired_rows: Vec<String>,
}

/// Settings that override the default rows of §8's table (empty: the
/// defaults). Every name must be a condition of the plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rows {
    /// §8.1: the reference and its treatments (default: `withheld` if
    /// present, else `baseline`, against every other condition but `static`).
    pub first_action: Option<(String, Vec<String>)>,
    /// §8.2: (treatment, reference) pairs (default: `X_distractor` vs `X`,
    /// `distractor` vs `baseline`).
    pub distractors: Vec<(String, String)>,
    /// §8.3: the conditions compared with `baseline` (default: those a
    /// case's `conditions` names, or starting `withheld`/`contradicted`).
    pub evidence: Vec<String>,
    /// §8.5: the conditions compared with `baseline` (default: `scgr_*`).
    pub scgr: Vec<String>,
}

impl Rows {
    /// Rows from the page's fields, in the CLI's syntax: `first_action`
    /// `REF:T1,T2` (empty: the default), `distractors` `T:R` pairs
    /// separated by `;`, `evidence` and `scgr` conditions separated by `,`.
    pub fn parse(
        first_action: &str,
        distractors: &str,
        evidence: &str,
        scgr: &str,
    ) -> Result<Rows, String> {
        let pair = |what: &str, v: &str| -> Result<(String, String), String> {
            match v.split_once(':') {
                Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
                    Ok((a.trim().to_string(), b.trim().to_string()))
                }
                _ => Err(format!("{what}: expected A:B, got `{}`", v.trim())),
            }
        };
        let list = |v: &str| -> Vec<String> {
            v.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        };
        let first_action = if first_action.trim().is_empty() {
            None
        } else {
            let (r, ts) = pair("first action", first_action)?;
            Some((r, list(&ts)))
        };
        Ok(Rows {
            first_action,
            distractors: distractors
                .split(';')
                .filter(|v| !v.trim().is_empty())
                .map(|v| pair("distractor", v))
                .collect::<Result<_, _>>()?,
            evidence: list(evidence),
            scgr: list(scgr),
        })
    }

    /// Every condition the rows name.
    pub fn names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = Vec::new();
        if let Some((r, ts)) = &self.first_action {
            v.push(r);
            v.extend(ts.iter().map(String::as_str));
        }
        for (t, r) in &self.distractors {
            v.extend([t.as_str(), r.as_str()]);
        }
        v.extend(self.evidence.iter().map(String::as_str));
        v.extend(self.scgr.iter().map(String::as_str));
        v
    }
}

/// What one episode contributes, by (case position, repetition).
type Index<'e> = HashMap<(usize, u32), &'e Episode>;

struct Ctx<'a, 'e> {
    plan: &'a Plan<'a>,
    /// Per side: its episodes by (case position, repetition).
    index: Vec<Index<'e>>,
    draws: usize,
    seed: u64,
}

impl<'e> Ctx<'_, 'e> {
    fn side(&self, config: &str, condition: &str) -> Option<usize> {
        self.plan
            .sides
            .iter()
            .position(|s| s.side.config == config && s.side.condition == condition)
    }

    /// The side's planned runs over `cases` with an outcome.
    fn runs(&self, s: usize, cases: &HashSet<usize>, f: &dyn Fn(&Episode) -> f64) -> Vec<Run> {
        self.plan.sides[s]
            .runs
            .iter()
            .filter(|(k, _)| cases.contains(k))
            .map(|&(k, r)| Run {
                case: k,
                repetition: r,
                value: self.index[s]
                    .get(&(k, r))
                    .filter(|e| e.scored)
                    .map(|e| f(e)),
            })
            .collect()
    }

    fn ids(&self, cases: &[usize]) -> Vec<String> {
        cases
            .iter()
            .map(|&k| self.plan.cases[k].0.to_string())
            .collect()
    }

    /// Cases planned on both sides, optionally of some protocols.
    fn common(&self, a: usize, b: usize, protocols: &[Protocol]) -> Vec<usize> {
        let (sa, sb) = (&self.plan.sides[a], &self.plan.sides[b]);
        sa.cases
            .iter()
            .copied()
            .filter(|k| sb.cases.binary_search(k).is_ok())
            .filter(|&k| protocols.contains(&self.plan.cases[k].1))
            .collect()
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one contrast: two sides, their cases, the outcome and whether it is binary"
    )]
    fn contrast(
        &self,
        t: usize,
        r: usize,
        cases: &[usize],
        f: &dyn Fn(&Episode) -> f64,
        binary: bool,
    ) -> Contrast {
        let set: HashSet<usize> = cases.iter().copied().collect();
        let paired = pairs::paired(
            &self.runs(t, &set, f),
            &self.runs(r, &set, f),
            cases,
            Rule::Completed,
            binary,
            self.draws,
            self.seed,
        );
        Contrast {
            treatment: self.plan.sides[t].side.condition.clone(),
            reference: self.plan.sides[r].side.condition.clone(),
            case_ids: paired
                .per_case
                .iter()
                .map(|c| self.plan.cases[c.case].0.to_string())
                .collect(),
            dropped_treatment: self.ids(&paired.dropped_a),
            dropped_reference: self.ids(&paired.dropped_b),
            paired,
        }
    }

    fn episode_ref(e: &Episode) -> EpisodeRef {
        EpisodeRef {
            trajectory_id: e.trajectory_id.clone(),
            case_id: e.case_id.clone(),
            repetition: e.repetition,
            acted: e.acted,
            k_first: e.k_first,
            information_calls: e.information_calls,
        }
    }

    /// The matched episodes of side `s` over `pairs` (case, repetitions).
    fn matched(&self, s: usize, pairs: &[(usize, Vec<u32>)]) -> Vec<&'e Episode> {
        pairs
            .iter()
            .flat_map(|(k, reps)| reps.iter().map(move |&r| (*k, r)))
            .filter_map(|key| self.index[s].get(&key).copied())
            .collect()
    }
}

const ACTING: [Protocol; 4] = [Protocol::V0, Protocol::V1, Protocol::V2, Protocol::V3];

fn acted(e: &Episode) -> f64 {
    f64::from(u8::from(e.acted))
}

fn success(e: &Episode) -> f64 {
    f64::from(u8::from(e.success == Some(true)))
}

/// Every analysis of §8 with its default rows.
pub(crate) fn interventions(
    plan: &Plan,
    episodes: &[Episode],
    rows: &Rows,
    draws: usize,
    seed: u64,
) -> Interventions {
    let pos = plan.case_positions();
    let index: Vec<Index> = plan
        .sides
        .iter()
        .map(|s| {
            episodes
                .iter()
                .filter(|e| e.config == s.side.config && e.condition == s.side.condition)
                .filter_map(|e| Some(((*pos.get(e.case_id.as_str())?, e.repetition), e)))
                .collect()
        })
        .collect();
    let ctx = Ctx {
        plan,
        index,
        draws,
        seed,
    };
    let mut configs: indexmap::IndexSet<&str> = indexmap::IndexSet::new();
    for s in &plan.sides {
        configs.insert(s.side.config.as_str());
    }
    let mut out = Interventions::default();
    for config in configs {
        let conditions: Vec<&str> = plan
            .sides
            .iter()
            .filter(|s| s.side.config == config)
            .map(|s| s.side.condition.as_str())
            .collect();
        if let Some(f) = first_action(&ctx, config, &conditions, rows) {
            out.first_action.push(f);
        }
        out.distractors
            .extend(distractors(&ctx, config, &conditions, rows));
        out.evidence
            .extend(evidence(&ctx, config, &conditions, rows));
        if let Some(s) = static_comparison(&ctx, config) {
            out.static_vs_interactive.push(s);
        }
        out.scgr.extend(scgr(&ctx, config, &conditions, rows));
    }
    out
}

fn first_action(ctx: &Ctx, config: &str, conditions: &[&str], rows: &Rows) -> Option<FirstAction> {
    let (reference, treatments): (&str, Vec<&str>) = if let Some((r, ts)) = &rows.first_action {
        (r.as_str(), ts.iter().map(String::as_str).collect())
    } else {
        let reference = if conditions.contains(&"withheld") {
            "withheld"
        } else {
            BASELINE
        };
        (
            reference,
            conditions
                .iter()
                .copied()
                .filter(|c| *c != reference && *c != STATIC)
                .collect(),
        )
    };
    let r = ctx.side(config, reference)?;
    let treatments: Vec<&str> = treatments
        .into_iter()
        .filter(|c| ctx.side(config, c).is_some())
        .collect();
    if treatments.is_empty() {
        return None;
    }
    let panel: Vec<usize> = std::iter::once(r)
        .chain(treatments.iter().filter_map(|t| ctx.side(config, t)))
        .collect();
    // Cases planned under every condition of the panel (no Legacy).
    let mut cases: Vec<usize> = ctx.plan.sides[r]
        .cases
        .iter()
        .copied()
        .filter(|&k| ctx.plan.cases[k].1 != Protocol::Legacy)
        .collect();
    for &s in &panel[1..] {
        cases.retain(|k| ctx.plan.sides[s].cases.binary_search(k).is_ok());
    }
    let set: HashSet<usize> = cases.iter().copied().collect();
    let runs: Vec<Vec<Run>> = panel.iter().map(|&s| ctx.runs(s, &set, &acted)).collect();
    let refs: Vec<&[Run]> = runs.iter().map(Vec::as_slice).collect();
    let matched = pairs::matched_panel(&refs, &cases);
    let matched_set: HashSet<usize> = matched.iter().map(|m| m.0).collect();
    let matched_eps: Vec<Vec<&Episode>> = panel.iter().map(|&s| ctx.matched(s, &matched)).collect();
    let k_max = matched_eps
        .iter()
        .flatten()
        .filter_map(|e| e.k_first)
        .max()
        .unwrap_or(0);
    let curves = panel
        .iter()
        .zip(&matched_eps)
        .map(|(&s, eps)| {
            // Per case: the share of its pairs with k_first ≤ k.
            let per_case = |pred: &dyn Fn(&Episode) -> bool| -> Option<f64> {
                let shares: Vec<f64> = matched
                    .iter()
                    .map(|(k, reps)| {
                        let n = reps
                            .iter()
                            .filter(|&&r| ctx.index[s].get(&(*k, r)).is_some_and(|e| pred(e)))
                            .count();
                        n as f64 / reps.len().max(1) as f64
                    })
                    .collect();
                gapscope_stats::summary::mean(&shares)
            };
            FirstActionCurve {
                condition: ctx.plan.sides[s].side.condition.clone(),
                f: (0..=k_max)
                    .map(|k| per_case(&|e| e.k_first.is_some_and(|f| f <= k)).unwrap_or(0.0))
                    .filter(|_| !matched.is_empty())
                    .collect(),
                acted: per_case(&|e| e.acted),
                episodes: eps.iter().map(|e| Ctx::episode_ref(e)).collect(),
            }
        })
        .collect();
    // Δ acted over the panel's pairs: the runs outside them are dropped.
    let in_panel: HashSet<(usize, u32)> = matched
        .iter()
        .flat_map(|(k, reps)| reps.iter().map(move |&r| (*k, r)))
        .collect();
    let acted_contrasts = panel[1..]
        .iter()
        .map(|&t| {
            let keep = |runs: Vec<Run>| -> Vec<Run> {
                runs.into_iter()
                    .map(|mut x| {
                        if !in_panel.contains(&(x.case, x.repetition)) {
                            x.value = None;
                        }
                        x
                    })
                    .collect()
            };
            let (run_t, run_r) = (ctx.runs(t, &set, &acted), ctx.runs(r, &set, &acted));
            let mut paired = pairs::paired(
                &keep(run_t.clone()),
                &keep(run_r.clone()),
                &cases,
                Rule::Completed,
                true,
                ctx.draws,
                ctx.seed,
            );
            // Who dropped a case, and the unscored counts, come from the two
            // sides' own runs; the panel only narrows the pairs counted.
            let own = pairs::paired(&run_t, &run_r, &cases, Rule::Completed, true, 0, 0);
            paired.dropped_a = own.dropped_a;
            paired.dropped_b = own.dropped_b;
            paired.unscored_a = own.unscored_a;
            paired.unscored_b = own.unscored_b;
            Contrast {
                treatment: ctx.plan.sides[t].side.condition.clone(),
                reference: reference.to_string(),
                case_ids: paired
                    .per_case
                    .iter()
                    .map(|c| ctx.plan.cases[c.case].0.to_string())
                    .collect(),
                dropped_treatment: ctx.ids(&paired.dropped_a),
                dropped_reference: ctx.ids(&paired.dropped_b),
                paired,
            }
        })
        .collect();
    Some(FirstAction {
        config: config.to_string(),
        reference: reference.to_string(),
        treatments: panel[1..]
            .iter()
            .map(|&s| ctx.plan.sides[s].side.condition.clone())
            .collect(),
        matched_cases: matched.len(),
        dropped: ctx.ids(
            &cases
                .iter()
                .copied()
                .filter(|k| !matched_set.contains(k))
                .collect::<Vec<_>>(),
        ),
        k_max,
        curves,
        acted: acted_contrasts,
    })
}

/// The reference of a distractor condition: `distractor` → `baseline`,
/// `X_distractor` → `X`.
pub fn distractor_reference(condition: &str) -> Option<&str> {
    if condition == "distractor" {
        Some(BASELINE)
    } else {
        condition
            .strip_suffix("_distractor")
            .filter(|x| !x.is_empty())
    }
}

fn distractors(ctx: &Ctx, config: &str, conditions: &[&str], rows: &Rows) -> Vec<Distractor> {
    let mut out = Vec::new();
    let pairs: Vec<(&str, &str)> = if rows.distractors.is_empty() {
        conditions
            .iter()
            .filter_map(|&c| Some((c, distractor_reference(c)?)))
            .collect()
    } else {
        rows.distractors
            .iter()
            .map(|(t, r)| (t.as_str(), r.as_str()))
            .collect()
    };
    for (c, reference) in pairs {
        let (Some(t), Some(r)) = (ctx.side(config, c), ctx.side(config, reference)) else {
            continue;
        };
        let cases = ctx.common(t, r, &ACTING);
        let calls = |e: &Episode| e.information_calls as f64;
        let info = ctx.contrast(t, r, &cases, &calls, false);
        let acted_c = ctx.contrast(t, r, &cases, &acted, true);
        let matched: Vec<(usize, Vec<u32>)> = matched_pairs(ctx, t, r, &cases);
        let episodes = ctx
            .matched(t, &matched)
            .into_iter()
            .chain(ctx.matched(r, &matched))
            .map(Ctx::episode_ref)
            .collect();
        out.push(Distractor {
            config: config.to_string(),
            information_calls: info,
            acted: acted_c,
            episodes,
        });
    }
    out
}

fn matched_pairs(ctx: &Ctx, t: usize, r: usize, cases: &[usize]) -> Vec<(usize, Vec<u32>)> {
    let set: HashSet<usize> = cases.iter().copied().collect();
    let a = ctx.runs(t, &set, &acted);
    let b = ctx.runs(r, &set, &acted);
    pairs::matched_panel(&[&a, &b], cases)
}

/// The read specs a condition manipulates in a case (§8.3): those of
/// `conditions.<c>.affects`, or every read spec.
fn affected_specs<'c>(case: &'c Case, condition: &str) -> Vec<&'c ReadSpec> {
    match case
        .conditions
        .get(condition)
        .and_then(|c| c.affects.as_ref())
    {
        Some(ids) => {
            let mut out: Vec<&ReadSpec> = Vec::new();
            for r in case.requirements.iter().filter(|r| ids.contains(&r.id)) {
                if let Some(s) = Case::read_spec_of(r) {
                    if !out.iter().any(|o| o.same_read(s)) {
                        out.push(s);
                    }
                }
            }
            out
        }
        None => case.read_specs(),
    }
}

/// Was `spec` called in the episode (tool and arguments, any status, inside
/// or beyond the budget)? A `ref` resolves to what the referenced action's
/// applied call returned.
fn called(e: &Episode, spec: &ReadSpec) -> bool {
    let resolve = |arg: &Arg| -> Option<serde_json::Value> {
        match arg {
            Arg::Literal(v) => Some(v.clone()),
            Arg::Ref(r) => {
                let a = e
                    .actions
                    .iter()
                    .find(|a| a.applied && a.target.as_deref() == Some(r.action.as_str()))?;
                e.calls
                    .get(a.step)?
                    .result
                    .as_ref()?
                    .get("result")?
                    .get(&r.field)
                    .cloned()
            }
        }
    };
    e.calls.iter().any(|c| {
        c.class == CallClass::Information
            && c.tool == spec.tool
            && spec.args.iter().all(|(k, a)| {
                resolve(a).is_some_and(|v| c.args.get(k).is_some_and(|g| json_equal(g, &v)))
            })
    })
}

fn is_evidence_condition(ctx: &Ctx, c: &str) -> bool {
    c.starts_with("withheld")
        || c.starts_with("contradicted")
        || ctx
            .plan
            .case_specs
            .iter()
            .any(|k| k.conditions.contains_key(c))
}

fn evidence(ctx: &Ctx, config: &str, conditions: &[&str], rows: &Rows) -> Vec<EvidenceResponse> {
    let mut out = Vec::new();
    let Some(r) = ctx.side(config, BASELINE) else {
        return out;
    };
    for &c in conditions {
        let chosen = if rows.evidence.is_empty() {
            is_evidence_condition(ctx, c)
        } else {
            rows.evidence.iter().any(|x| x == c)
        };
        if c == BASELINE || !chosen {
            continue;
        }
        let Some(t) = ctx.side(config, c) else {
            continue;
        };
        let specs: HashMap<usize, Vec<&ReadSpec>> = ctx
            .common(t, r, &ACTING)
            .into_iter()
            .map(|k| (k, affected_specs(ctx.plan.case_specs[k], c)))
            .filter(|(_, s)| !s.is_empty())
            .collect();
        let mut cases: Vec<usize> = specs.keys().copied().collect();
        cases.sort_unstable();
        let pos = ctx.plan.case_positions();
        let probed = |e: &Episode| -> bool {
            pos.get(e.case_id.as_str())
                .and_then(|k| specs.get(k))
                .is_some_and(|s| s.iter().all(|spec| called(e, spec)))
        };
        let probed_value = |e: &Episode| f64::from(u8::from(probed(e)));
        let matched = matched_pairs(ctx, t, r, &cases);
        let shares = |s: usize| {
            let eps = ctx.matched(s, &matched);
            let n = eps.len();
            let share = |pred: &dyn Fn(&Episode) -> bool| {
                (n > 0).then(|| eps.iter().filter(|e| pred(e)).count() as f64 / n as f64)
            };
            let stopped: Vec<&&Episode> = eps.iter().filter(|e| !e.acted).collect();
            let label = |l: &str| {
                stopped
                    .iter()
                    .filter(|e| e.final_label.as_deref() == Some(l))
                    .count()
            };
            let (block, defer) = (label("BLOCK"), label("DEFER"));
            ResponseShares {
                condition: ctx.plan.sides[s].side.condition.clone(),
                episodes: n,
                investigated_stop: share(&|e| probed(e) && !e.acted),
                acted_despite: share(&|e| probed(e) && e.acted),
                acted_uninvestigated: share(&|e| !probed(e) && e.acted),
                stopped_uninvestigated: share(&|e| !probed(e) && !e.acted),
                block,
                defer,
                other: stopped.len() - block - defer,
                probed_ids: eps
                    .iter()
                    .filter(|e| probed(e))
                    .map(|e| e.trajectory_id.clone())
                    .collect(),
                episode_ids: eps.iter().map(|e| e.trajectory_id.clone()).collect(),
            }
        };
        out.push(EvidenceResponse {
            config: config.to_string(),
            condition: c.to_string(),
            cases: cases.len(),
            treatment: shares(t),
            reference: shares(r),
            acted: ctx.contrast(t, r, &cases, &acted, true),
            probed: ctx.contrast(t, r, &cases, &probed_value, true),
        });
    }
    out
}

fn static_comparison(ctx: &Ctx, config: &str) -> Option<StaticComparison> {
    let t = ctx.side(config, STATIC)?;
    let r = ctx.side(config, BASELINE)?;
    let cases = ctx.common(t, r, &[Protocol::V1]);
    let legacy: Vec<&Episode> = ctx.index[t]
        .values()
        .copied()
        .filter(|e| e.scored && e.protocol == Protocol::Legacy)
        .collect();
    let mut legacy_ids: Vec<String> = legacy.iter().map(|e| e.trajectory_id.clone()).collect();
    legacy_ids.sort();
    Some(StaticComparison {
        config: config.to_string(),
        gap: ctx.contrast(t, r, &cases, &success, true),
        legacy_scored: legacy.len(),
        legacy_correct: legacy.iter().filter(|e| e.success == Some(true)).count(),
        legacy_rejected: legacy
            .iter()
            .filter(|e| e.final_label.as_deref() != Some("ALLOW"))
            .count(),
        legacy_ids,
    })
}

/// A side's scored-only ECS and completion over its planned cases of some
/// protocols.
fn unpaired(ctx: &Ctx, s: usize, row: &str, protocols: &[Protocol]) -> UnpairedRow {
    let side: &SidePlan = &ctx.plan.sides[s];
    let of = |k: usize| protocols.contains(&ctx.plan.cases[k].1);
    let cases = side.cases.iter().filter(|&&k| of(k)).count();
    let runs: Vec<(usize, u32)> = side.runs.iter().copied().filter(|&(k, _)| of(k)).collect();
    let scored: Vec<&Episode> = runs
        .iter()
        .filter_map(|key| ctx.index[s].get(key).copied())
        .filter(|e| e.scored)
        .collect();
    let per_rep: Vec<f64> = side
        .repetitions
        .iter()
        .filter_map(|&r| {
            let eps: Vec<&&Episode> = scored.iter().filter(|e| e.repetition == r).collect();
            (!eps.is_empty()).then(|| {
                eps.iter().filter(|e| e.success == Some(true)).count() as f64 / eps.len() as f64
            })
        })
        .collect();
    UnpairedRow {
        row: row.to_string(),
        cases,
        ecs: gapscope_stats::summary::mean(&per_rep),
        completion: (!runs.is_empty()).then(|| scored.len() as f64 / runs.len() as f64),
    }
}

fn scgr(ctx: &Ctx, config: &str, conditions: &[&str], rows: &Rows) -> Vec<Scgr> {
    let mut out = Vec::new();
    let Some(r) = ctx.side(config, BASELINE) else {
        return out;
    };
    let chosen = |c: &str| {
        if rows.scgr.is_empty() {
            c.starts_with("scgr_")
        } else {
            rows.scgr.iter().any(|x| x == c)
        }
    };
    for &c in conditions.iter().filter(|c| **c != BASELINE && chosen(c)) {
        let Some(t) = ctx.side(config, c) else {
            continue;
        };
        let rows = |s: usize| -> Vec<UnpairedRow> {
            let mut v: Vec<UnpairedRow> = Protocol::ALL
                .into_iter()
                .filter(|p| {
                    ctx.plan.sides[s]
                        .cases
                        .iter()
                        .any(|&k| ctx.plan.cases[k].1 == *p)
                })
                .map(|p| unpaired(ctx, s, p.name(), &[p]))
                .collect();
            v.push(unpaired(ctx, s, crate::composition::SUBTOTAL, &ACTING));
            v
        };
        let mut paired = Vec::new();
        let mut paired_rows = Vec::new();
        for p in ACTING {
            let cases = ctx.common(t, r, &[p]);
            if !cases.is_empty() {
                paired.push(ctx.contrast(t, r, &cases, &success, true));
                paired_rows.push(p.name().to_string());
            }
        }
        paired.push(ctx.contrast(t, r, &ctx.common(t, r, &ACTING), &success, true));
        paired_rows.push(crate::composition::SUBTOTAL.to_string());
        let legacy = ctx.common(t, r, &[Protocol::Legacy]);
        if !legacy.is_empty() {
            paired.push(ctx.contrast(t, r, &legacy, &success, true));
            paired_rows.push(Protocol::Legacy.name().to_string());
        }
        out.push(Scgr {
            config: config.to_string(),
            condition: c.to_string(),
            treatment: rows(t),
            reference: rows(r),
            case_sets_differ: ctx.plan.sides[t].cases != ctx.plan.sides[r].cases,
            paired,
            paired_rows,
        });
    }
    out
}
