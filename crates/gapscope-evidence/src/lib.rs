//! Evidence to action: deterministic scoring of tool-using trajectories
//! against case specs (spec: `../shared/spec/evidence-to-action.md`; user
//! docs: `docs/evidence.md`).
//!
//! One entry point for the CLI and the worker: [`evaluate`] takes the case
//! file and the trajectory file as text and returns an [`EvidenceReport`]
//! (every episode with its verdict and ledger, and every report table).
//!
//! - [`spec`]: case specs, read and validated with located errors.
//! - [`score`]: trajectories with a case id, and the scorer (the ledger).
//! - [`report`]: ECS tables, coverage, failure decomposition, effort curves,
//!   paired comparisons.
//!
//! The seeded worked case set and its scripted trajectories are generated in
//! `gapscope-synth` (`evidence_worked`), with the other generators.

pub mod composition;
pub mod interventions;
pub mod pairs;
pub mod report;
pub mod score;
pub mod spec;
pub mod trajectory;

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

pub use report::{
    ConfigEcs, Coverage, EffortCurve, FailureBar, MeanSd, PairedComparison, RepetitionEcs,
};
pub use score::{Episode, EvidenceTrajectory, FailureType};
pub use spec::{Case, CaseLocation, Protocol};

/// A file of another part given to this one as the case file (`cases`)
/// or the trajectories: the error that names it
/// ([`gapscope_data::kind::misplaced`]), if it is one.
pub(crate) fn other_part(text: &str, cases: bool) -> Option<EvidenceError> {
    gapscope_data::kind::misplaced("", text, gapscope_data::kind::Part::Evidence).map(|m| {
        if cases {
            EvidenceError::CasesOfOtherPart(m)
        } else {
            EvidenceError::TrajectoriesOfOtherPart(m)
        }
    })
}

/// Why the inputs could not be evaluated. The file name is added at the edge.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EvidenceError {
    #[error("case file, line {line}, column {column}: {message}")]
    CaseJson {
        line: u64,
        column: u64,
        message: String,
    },
    #[error("case `{case_id}` ({at}){}: {message}", field_part(.field))]
    Case {
        at: CaseLocation,
        case_id: String,
        field: String,
        message: String,
    },
    #[error("trajectory file, line {line}, column {column}: {message}")]
    TrajectoryJson {
        line: u64,
        column: u64,
        message: String,
    },
    #[error("trajectory `{id}` (line {line}): {message}")]
    Trajectory {
        line: u64,
        id: String,
        message: String,
    },
    #[error("run manifest: {0}")]
    Plan(String),
    /// The case file is another part's ([`gapscope_data::kind::misplaced`]).
    #[error("{0}")]
    CasesOfOtherPart(String),
    /// The trajectory file is another part's.
    #[error("{0}")]
    TrajectoriesOfOtherPart(String),
    #[error("settings: {0}")]
    Settings(String),
}

fn field_part(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!(", {field}")
    }
}

/// One object of a run manifest: the planned cases × configs × conditions
/// × repetitions 0..N (addendum §1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunPlanEntry {
    pub cases: Vec<String>,
    pub configs: Vec<String>,
    /// Default `["baseline"]`.
    #[serde(default = "baseline_only")]
    pub conditions: Vec<String>,
    pub repetitions: u32,
}

fn baseline_only() -> Vec<String> {
    vec![spec::BASELINE.to_string()]
}

/// A run manifest: one object, or a JSON array of objects whose planned
/// runs are united (a run listed twice is planned once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunPlan {
    pub entries: Vec<RunPlanEntry>,
}

/// The most repetitions a run plan (given, or seen in the trajectories) may
/// have: the report keeps one ECS row per side and repetition.
pub const MAX_PLAN_REPETITIONS: u64 = 10_000;
/// The most (side, repetition) ECS rows of a plan.
pub const MAX_PLAN_ROWS: u64 = 100_000;
/// The most planned runs (cases × sides × repetitions).
pub const MAX_PLANNED_RUNS: u64 = 10_000_000;

impl RunPlan {
    /// A manifest of one object under `baseline`.
    pub fn single(cases: Vec<String>, configs: Vec<String>, repetitions: u32) -> RunPlan {
        RunPlan {
            entries: vec![RunPlanEntry {
                cases,
                configs,
                conditions: baseline_only(),
                repetitions,
            }],
        }
    }

    /// Parse a run manifest (an object or an array of objects) and check
    /// its sizes ([`check_plan_size`]) and condition names.
    pub fn parse(text: &str) -> Result<RunPlan, EvidenceError> {
        let text = text.trim_start_matches('\u{feff}');
        let expected = "expected {\"cases\": [ids], \"configs\": [names], \"conditions\": [names] (optional), \"repetitions\": N}, or an array of such objects";
        let located = |e: &serde_json::Error, at: &str| {
            EvidenceError::Plan(format!(
                "{at}line {}, column {}: {} ({expected})",
                e.line(),
                e.column(),
                gapscope_data::profile::json_message(e)
            ))
        };
        let plan = if text.trim_start().starts_with('[') {
            let items: Vec<serde_json::Value> =
                serde_json::from_str(text).map_err(|e| located(&e, ""))?;
            let mut entries = Vec::with_capacity(items.len());
            for (i, v) in items.into_iter().enumerate() {
                entries.push(serde_json::from_value::<RunPlanEntry>(v).map_err(|e| {
                    EvidenceError::Plan(format!(
                        "item {}: {} ({expected})",
                        i + 1,
                        gapscope_data::profile::json_message(&e)
                    ))
                })?);
            }
            RunPlan { entries }
        } else {
            RunPlan {
                entries: vec![serde_json::from_str(text).map_err(|e| located(&e, ""))?],
            }
        };
        plan.check()?;
        Ok(plan)
    }

    fn check(&self) -> Result<(), EvidenceError> {
        let many = self.entries.len() > 1;
        let (mut rows, mut runs) = (0u64, 0u64);
        for (i, e) in self.entries.iter().enumerate() {
            let at = if many {
                format!("item {}: ", i + 1)
            } else {
                String::new()
            };
            for c in &e.conditions {
                spec::check_condition_name(c)
                    .map_err(|m| EvidenceError::Plan(format!("{at}field `conditions`: {m}")))?;
            }
            for c in &e.configs {
                if c.contains(',') || c.trim().is_empty() {
                    return Err(EvidenceError::Plan(format!(
                        "{at}field `configs`: `{c}` is empty or contains `,`"
                    )));
                }
            }
            let sides = (e.configs.len() as u64).saturating_mul(e.conditions.len() as u64);
            check_plan_size(
                "field",
                e.cases.len() as u64,
                sides,
                u64::from(e.repetitions),
            )
            .map_err(|err| match err {
                EvidenceError::Plan(m) => EvidenceError::Plan(format!("{at}{m}")),
                other => other,
            })?;
            rows = rows.saturating_add(sides.saturating_mul(u64::from(e.repetitions)));
            runs = runs.saturating_add(
                sides
                    .saturating_mul(u64::from(e.repetitions))
                    .saturating_mul(e.cases.len() as u64),
            );
        }
        if rows > MAX_PLAN_ROWS || runs > MAX_PLANNED_RUNS {
            return Err(EvidenceError::Plan(format!(
                "the manifest's objects together plan {rows} (side, repetition) rows and {runs} runs; the limits are {MAX_PLAN_ROWS} and {MAX_PLANNED_RUNS}"
            )));
        }
        Ok(())
    }
}

/// A side: a configuration under a condition (addendum §1), written
/// `config@condition`, or `config` alone under `baseline`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Side {
    pub config: String,
    pub condition: String,
}

impl Side {
    pub fn new(config: &str, condition: &str) -> Side {
        Side {
            config: config.to_string(),
            condition: condition.to_string(),
        }
    }

    /// `config` under `baseline`, else `config@condition`.
    pub fn label(&self) -> String {
        side_label(&self.config, &self.condition)
    }
}

/// A side's label: `config` under `baseline`, else `config@condition`.
pub fn side_label(config: &str, condition: &str) -> String {
    if condition == spec::BASELINE {
        config.to_string()
    } else {
        format!("{config}@{condition}")
    }
}

/// Refuse a plan above the documented limits before anything is allocated
/// for it. `what` is "field" for a manifest, "seen" for a plan derived from
/// the trajectories.
pub fn check_plan_size(
    what: &str,
    cases: u64,
    configs: u64,
    repetitions: u64,
) -> Result<(), EvidenceError> {
    let (rep_name, cfg_name) = if what == "field" {
        ("field `repetitions`", "fields `configs` × `conditions`")
    } else {
        (
            "repetitions seen in the trajectories",
            "sides (configuration, condition) seen in the trajectories",
        )
    };
    if repetitions > MAX_PLAN_REPETITIONS {
        return Err(EvidenceError::Plan(format!(
            "{rep_name}: {repetitions} exceeds the limit of {MAX_PLAN_REPETITIONS} repetitions"
        )));
    }
    let rows = configs.saturating_mul(repetitions);
    if rows > MAX_PLAN_ROWS {
        return Err(EvidenceError::Plan(format!(
            "{cfg_name} × {rep_name}: {configs} × {repetitions} = {rows} (side, repetition) rows exceed the limit of {MAX_PLAN_ROWS}"
        )));
    }
    let runs = rows.saturating_mul(cases);
    if runs > MAX_PLANNED_RUNS {
        return Err(EvidenceError::Plan(format!(
            "{cases} cases × {configs} sides × {repetitions} repetitions = {runs} planned runs exceed the limit of {MAX_PLANNED_RUNS}"
        )));
    }
    Ok(())
}

/// Default bootstrap draws of the paired comparison.
pub const DEFAULT_BOOTSTRAP: usize = 10_000;

/// Settings of [`evaluate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceSettings {
    /// Paired-bootstrap draws (0: no interval), at most
    /// [`gapscope_stats::bootstrap::MAX_DRAWS`].
    pub bootstrap: usize,
    pub seed: u64,
    /// Side pairs (A, B) to compare, by label (`config` or
    /// `config@condition`); empty: every pair of configurations within each
    /// condition, in order of first appearance.
    pub pairs: Vec<(String, String)>,
    /// The planned runs; `None`: derived from the trajectories (addendum §1).
    pub plan: Option<RunPlan>,
    /// Rows of the intervention analyses other than §8's defaults.
    #[serde(default)]
    pub rows: interventions::Rows,
}

impl Default for EvidenceSettings {
    fn default() -> Self {
        EvidenceSettings {
            bootstrap: DEFAULT_BOOTSTRAP,
            seed: 0,
            pairs: Vec::new(),
            plan: None,
            rows: interventions::Rows::default(),
        }
    }
}

/// How the report was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportSettings {
    pub bootstrap: usize,
    pub seed: u64,
    pub prng: String,
    pub plan_given: bool,
}

/// A side of the plan, as the report lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideInfo {
    pub label: String,
    pub config: String,
    pub condition: String,
    /// Planned runs of the side.
    pub planned: usize,
    /// Its condition appears in some case's `conditions`: the side is scored
    /// against the unmanipulated spec, so its ECS is diagnostic only
    /// (addendum §5).
    pub manipulated: bool,
}

/// Everything [`evaluate`] computes (the CLI's `--json`, the page's model).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceReport {
    pub settings: ReportSettings,
    pub cases: Vec<Case>,
    /// The plan's configurations, repetitions (the union over sides),
    /// protocols and domains (of the planned case set), in order.
    pub configs: Vec<String>,
    pub repetitions: Vec<u32>,
    pub protocols: Vec<Protocol>,
    pub domains: Vec<String>,
    /// The sides (configuration, condition) of the plan, in order.
    pub sides: Vec<SideInfo>,
    /// Every trajectory of the plan, in file order (unscored ones included).
    pub episodes: Vec<Episode>,
    /// Per side (`config` holds the side's label), then the total
    /// (`config: null`).
    pub coverage: Vec<Coverage>,
    /// Scored-only ECS per side (base; `config` holds the side's label).
    pub ecs: Vec<ConfigEcs>,
    /// All-planned ECS per side: unscored runs count 0 (addendum §5).
    ///
    /// This and the addendum's other tables below are written, never read
    /// back (`skip_deserializing`): the page gets their views from the
    /// worker as text, so it links no reader for them (the first-load
    /// budget); a report read back from its JSON has them empty.
    #[serde(default, skip_deserializing)]
    pub ecs_all_planned: Vec<ConfigEcs>,
    pub failures: Vec<FailureBar>,
    pub effort: Vec<EffortCurve>,
    #[serde(default, skip_deserializing)]
    pub paired: Vec<PairedComparison>,
    /// Decision readiness per side and protocol (addendum §7).
    #[serde(default, skip_deserializing)]
    pub readiness: Vec<report::ReadinessCurve>,
    /// Intervention analyses (addendum §8), rule C.
    #[serde(default, skip_deserializing)]
    pub interventions: interventions::Interventions,
    /// Case-set composition, Tables 6 and 7 (addendum §4).
    #[serde(default, skip_deserializing)]
    pub composition: composition::Composition,
    pub warnings: Vec<String>,
}

/// The planned runs: per side, the (case, repetition) pairs, and the
/// planned case set (addendum §1).
fn make_plan<'c>(
    cases: &'c [Case],
    trajectories: &[EvidenceTrajectory],
    given: Option<&RunPlan>,
) -> Result<report::Plan<'c>, EvidenceError> {
    let case_index: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.case_id.as_str(), i))
        .collect();
    // Side → its planned (case index in the file, repetition).
    let mut sides: indexmap::IndexMap<Side, std::collections::BTreeSet<(usize, u32)>> =
        indexmap::IndexMap::new();
    if let Some(p) = given {
        p.check()?;
        for e in &p.entries {
            let mut idx = Vec::with_capacity(e.cases.len());
            for c in &e.cases {
                idx.push(*case_index.get(c.as_str()).ok_or_else(|| {
                    EvidenceError::Plan(format!("case `{c}` is not in the case file"))
                })?);
            }
            for cond in &e.conditions {
                for config in &e.configs {
                    let runs = sides.entry(Side::new(config, cond)).or_default();
                    for &i in &idx {
                        for r in 0..e.repetitions {
                            runs.insert((i, r));
                        }
                    }
                }
            }
        }
    } else {
        // Per side: the cases seen (baseline: every case of the file) and
        // the repetitions 0..max seen.
        let mut seen: indexmap::IndexMap<Side, (HashSet<usize>, u32)> = indexmap::IndexMap::new();
        for t in trajectories {
            let side = Side::new(&t.config, &t.condition);
            let e = seen.entry(side).or_insert_with(|| (HashSet::new(), 0));
            if let Some(&i) = case_index.get(t.case_id.as_str()) {
                e.0.insert(i);
            }
            e.1 = e.1.max(t.repetition);
        }
        // Baseline sides first, in order of first appearance, then the
        // others by condition of first appearance.
        let mut conditions: indexmap::IndexSet<&str> = indexmap::IndexSet::new();
        conditions.insert(spec::BASELINE);
        for s in seen.keys() {
            conditions.insert(s.condition.as_str());
        }
        let max_rep = seen.values().map(|v| u64::from(v.1) + 1).max().unwrap_or(0);
        check_plan_size("seen", cases.len() as u64, seen.len() as u64, max_rep)?;
        for cond in conditions {
            for (side, (seen_cases, max)) in seen.iter().filter(|(s, _)| s.condition == cond) {
                let runs = sides.entry(side.clone()).or_default();
                let all: Vec<usize> = if cond == spec::BASELINE {
                    (0..cases.len()).collect()
                } else {
                    let mut v: Vec<usize> = seen_cases.iter().copied().collect();
                    v.sort_unstable();
                    v
                };
                for i in all {
                    for r in 0..=*max {
                        runs.insert((i, r));
                    }
                }
            }
        }
    }
    // The planned case set: the union over sides, in case-file order.
    let mut in_plan = vec![false; cases.len()];
    for runs in sides.values() {
        for &(i, _) in runs {
            in_plan[i] = true;
        }
    }
    let file_to_plan: Vec<Option<usize>> = {
        let mut k = 0;
        in_plan
            .iter()
            .map(|&p| {
                p.then(|| {
                    k += 1;
                    k - 1
                })
            })
            .collect()
    };
    let plan_cases: Vec<&Case> = cases
        .iter()
        .zip(&in_plan)
        .filter(|(_, &p)| p)
        .map(|(c, _)| c)
        .collect();
    let manipulated: HashSet<&str> = cases
        .iter()
        .flat_map(|c| c.conditions.keys().map(String::as_str))
        .collect();
    Ok(report::Plan {
        cases: plan_cases
            .iter()
            .map(|c| (c.case_id.as_str(), c.protocol, c.domain.as_str()))
            .collect(),
        case_specs: plan_cases,
        sides: sides
            .into_iter()
            .map(|(side, runs)| {
                let runs: std::collections::BTreeSet<(usize, u32)> = runs
                    .into_iter()
                    .filter_map(|(i, r)| Some((file_to_plan[i]?, r)))
                    .collect();
                let mut cs: Vec<usize> = runs.iter().map(|r| r.0).collect();
                cs.dedup();
                let mut reps: Vec<u32> = runs.iter().map(|r| r.1).collect();
                reps.sort_unstable();
                reps.dedup();
                report::SidePlan {
                    label: side.label(),
                    manipulated: manipulated.contains(side.condition.as_str()),
                    side,
                    cases: cs,
                    repetitions: reps,
                    runs,
                }
            })
            .collect(),
    })
}

fn case_warnings(cases: &[Case]) -> Vec<String> {
    let mut warnings = Vec::new();
    for c in cases {
        let unused = c.unused_requirements();
        if !unused.is_empty() {
            warnings.push(format!(
                "case `{}`: requirement{} {} required by no action, so never checked",
                c.case_id,
                if unused.len() == 1 { "" } else { "s" },
                unused.join(", ")
            ));
        }
        let specs = c.read_specs();
        for (i, j) in c.overlapping_read_specs() {
            warnings.push(format!(
                "case `{}`: one `{}` call can satisfy two required reads ({} and {}), so a complete investigation may have effort below 1",
                c.case_id,
                specs[i].tool,
                i + 1,
                j + 1
            ));
        }
    }
    warnings
}

/// The side pairs to compare: the settings' (by label), or every pair of
/// configurations within each condition.
fn side_pairs(
    plan: &report::Plan,
    given: &[(String, String)],
) -> Result<Vec<(usize, usize)>, EvidenceError> {
    if given.is_empty() {
        let mut v = Vec::new();
        for (i, a) in plan.sides.iter().enumerate() {
            for (j, b) in plan.sides.iter().enumerate().skip(i + 1) {
                if a.side.condition == b.side.condition {
                    v.push((i, j));
                }
            }
        }
        return Ok(v);
    }
    // `config@condition` splits at the last `@` (addendum §1); a label
    // without a side of that split names a baseline config (which may
    // contain `@`).
    let find = |label: &str| {
        let split = label.rsplit_once('@').and_then(|(config, condition)| {
            plan.sides
                .iter()
                .position(|s| s.side.config == config && s.side.condition == condition)
        });
        split
            .or_else(|| {
                plan.sides
                    .iter()
                    .position(|s| s.side.condition == spec::BASELINE && s.side.config == label)
            })
            .ok_or_else(|| {
                EvidenceError::Settings(format!(
                    "pair names side `{label}`, which is not in the plan (sides: {})",
                    plan.sides
                        .iter()
                        .map(|s| s.label.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    };
    given
        .iter()
        .map(|(a, b)| Ok((find(a)?, find(b)?)))
        .collect()
}

/// Score every trajectory against its case and compute the report tables.
pub fn evaluate(
    cases_text: &str,
    trajectories_text: &str,
    settings: &EvidenceSettings,
) -> Result<EvidenceReport, EvidenceError> {
    if settings.bootstrap > gapscope_stats::bootstrap::MAX_DRAWS {
        return Err(EvidenceError::Settings(format!(
            "bootstrap draws must be at most {}, got {}",
            gapscope_stats::bootstrap::MAX_DRAWS,
            settings.bootstrap
        )));
    }
    let cases = spec::read_cases(cases_text)?;
    let trajectories = score::read_trajectories(trajectories_text, &cases)?;
    let mut warnings = case_warnings(&cases);
    let plan = make_plan(&cases, &trajectories, settings.plan.as_ref())?;
    let case_index: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.case_id.as_str(), i))
        .collect();
    let plan_index: HashMap<&str, usize> = plan
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.0, i))
        .collect();
    let side_index: HashMap<(&str, &str), usize> = plan
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.side.config.as_str(), s.side.condition.as_str()), i))
        .collect();
    let mut episodes = Vec::new();
    let mut outside = 0usize;
    for t in &trajectories {
        let planned = side_index
            .get(&(t.config.as_str(), t.condition.as_str()))
            .zip(plan_index.get(t.case_id.as_str()))
            .is_some_and(|(&s, &k)| plan.sides[s].runs.contains(&(k, t.repetition)));
        let Some(case) = case_index.get(t.case_id.as_str()).map(|&i| &cases[i]) else {
            continue;
        };
        if !planned {
            outside += 1;
            continue;
        }
        episodes.push(score::score(case, t)?);
    }
    if outside > 0 {
        warnings.push(format!(
            "{outside} trajector{} outside the run {}, not scored",
            if outside == 1 { "y" } else { "ies" },
            if settings.plan.is_some() {
                "manifest"
            } else {
                "plan"
            }
        ));
    }
    let pairs = side_pairs(&plan, &settings.pairs)?;
    let conditions: HashSet<&str> = plan
        .sides
        .iter()
        .map(|s| s.side.condition.as_str())
        .collect();
    for name in settings.rows.names() {
        if !conditions.contains(name) {
            let mut known: Vec<&str> = conditions.iter().copied().collect();
            known.sort_unstable();
            return Err(EvidenceError::Settings(format!(
                "an intervention row names condition `{name}`, which no side of the plan has (conditions: {})",
                known.join(", ")
            )));
        }
    }
    let paired = pairs
        .iter()
        .map(|&(a, b)| report::paired(&plan, &episodes, a, b, settings.bootstrap, settings.seed))
        .collect();
    let mut configs: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    let mut repetitions: Vec<u32> = Vec::new();
    for s in &plan.sides {
        configs.insert(s.side.config.clone());
        repetitions.extend(&s.repetitions);
    }
    repetitions.sort_unstable();
    repetitions.dedup();
    Ok(EvidenceReport {
        settings: ReportSettings {
            bootstrap: settings.bootstrap,
            seed: settings.seed,
            prng: "ChaCha8Rng (rand_chacha 0.9), seed_from_u64(seed); case indices random_range(0..n) on u32".into(),
            plan_given: settings.plan.is_some(),
        },
        configs: configs.into_iter().collect(),
        repetitions,
        protocols: plan.protocols(),
        domains: plan.domains(),
        sides: plan
            .sides
            .iter()
            .map(|s| SideInfo {
                label: s.label.clone(),
                config: s.side.config.clone(),
                condition: s.side.condition.clone(),
                planned: s.runs.len(),
                manipulated: s.manipulated,
            })
            .collect(),
        coverage: report::coverage(&plan, &episodes),
        ecs: report::ecs_tables(&plan, &episodes, false),
        ecs_all_planned: report::ecs_tables(&plan, &episodes, true),
        failures: report::failure_bars(&plan, &episodes),
        effort: report::effort_curves(&plan, &episodes),
        readiness: report::readiness_curves(&plan, &episodes),
        interventions: interventions::interventions(
            &plan,
            &episodes,
            &settings.rows,
            settings.bootstrap,
            settings.seed,
        ),
        composition: composition::composition(&plan.case_specs),
        paired,
        episodes,
        cases,
        warnings,
    })
}
