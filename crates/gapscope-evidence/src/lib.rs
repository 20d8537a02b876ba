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

pub mod report;
pub mod score;
pub mod spec;

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

/// A run manifest: the planned cases × configs × repetitions 0..N.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunPlan {
    pub cases: Vec<String>,
    pub configs: Vec<String>,
    pub repetitions: u32,
}

/// The most repetitions a run plan (given, or seen in the trajectories) may
/// have: the report keeps one ECS row per configuration and repetition.
pub const MAX_PLAN_REPETITIONS: u64 = 10_000;
/// The most (configuration, repetition) ECS rows of a plan.
pub const MAX_PLAN_ROWS: u64 = 100_000;
/// The most planned runs (cases × configurations × repetitions).
pub const MAX_PLANNED_RUNS: u64 = 10_000_000;

impl RunPlan {
    /// Parse a run manifest and check its sizes ([`check_plan_size`]).
    pub fn parse(text: &str) -> Result<RunPlan, EvidenceError> {
        let plan: RunPlan = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
            EvidenceError::Plan(format!(
                "line {}, column {}: {} (expected {{\"cases\": [ids], \"configs\": [names], \"repetitions\": N}})",
                e.line(),
                e.column(),
                gapscope_data::profile::json_message(&e)
            ))
        })?;
        check_plan_size(
            "field",
            plan.cases.len() as u64,
            plan.configs.len() as u64,
            u64::from(plan.repetitions),
        )?;
        Ok(plan)
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
        ("field `repetitions`", "field `configs`")
    } else {
        (
            "repetitions seen in the trajectories",
            "configurations seen in the trajectories",
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
            "{cfg_name} × {rep_name}: {configs} × {repetitions} = {rows} (configuration, repetition) rows exceed the limit of {MAX_PLAN_ROWS}"
        )));
    }
    let runs = rows.saturating_mul(cases);
    if runs > MAX_PLANNED_RUNS {
        return Err(EvidenceError::Plan(format!(
            "{cases} cases × {configs} configurations × {repetitions} repetitions = {runs} planned runs exceed the limit of {MAX_PLANNED_RUNS}"
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
    /// Configuration pairs (A, B) to compare; empty: every pair, in order of
    /// first appearance.
    pub pairs: Vec<(String, String)>,
    /// The planned runs; `None`: the case file's cases × the configurations
    /// and repetitions seen in the trajectories.
    pub plan: Option<RunPlan>,
}

impl Default for EvidenceSettings {
    fn default() -> Self {
        EvidenceSettings {
            bootstrap: DEFAULT_BOOTSTRAP,
            seed: 0,
            pairs: Vec::new(),
            plan: None,
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

/// Everything [`evaluate`] computes (the CLI's `--json`, the page's model).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceReport {
    pub settings: ReportSettings,
    pub cases: Vec<Case>,
    /// The plan's configurations, repetitions, protocols and domains, in order.
    pub configs: Vec<String>,
    pub repetitions: Vec<u32>,
    pub protocols: Vec<Protocol>,
    pub domains: Vec<String>,
    /// Every trajectory of the plan, in file order (unscored ones included).
    pub episodes: Vec<Episode>,
    /// Per configuration, then the total (`config: null`).
    pub coverage: Vec<Coverage>,
    pub ecs: Vec<ConfigEcs>,
    pub failures: Vec<FailureBar>,
    pub effort: Vec<EffortCurve>,
    pub paired: Vec<PairedComparison>,
    pub warnings: Vec<String>,
}

/// Score every trajectory against its case and compute the report tables.
#[allow(
    clippy::too_many_lines,
    reason = "the pipeline read → score → every report table, one stage after another; each stage is a call"
)]
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
    let mut warnings = Vec::new();
    for c in &cases {
        let unused = c.unused_requirements();
        if !unused.is_empty() {
            warnings.push(format!(
                "case `{}`: requirement{} {} required by no action, so never checked",
                c.case_id,
                if unused.len() == 1 { "" } else { "s" },
                unused.join(", ")
            ));
        }
    }

    // The plan.
    let case_index: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.case_id.as_str(), i))
        .collect();
    let (case_ids, configs, repetitions): (Vec<String>, Vec<String>, Vec<u32>) =
        if let Some(p) = &settings.plan {
            check_plan_size(
                "field",
                p.cases.len() as u64,
                p.configs.len() as u64,
                u64::from(p.repetitions),
            )?;
            for c in &p.cases {
                if !case_index.contains_key(c.as_str()) {
                    return Err(EvidenceError::Plan(format!(
                        "case `{c}` is not in the case file"
                    )));
                }
            }
            (
                p.cases.clone(),
                p.configs.clone(),
                (0..p.repetitions).collect(),
            )
        } else {
            let mut configs: indexmap::IndexSet<String> = indexmap::IndexSet::new();
            let mut reps: HashSet<u32> = HashSet::new();
            for t in &trajectories {
                if !configs.contains(&t.config) {
                    configs.insert(t.config.clone());
                }
                reps.insert(t.repetition);
            }
            let mut reps: Vec<u32> = reps.into_iter().collect();
            reps.sort_unstable();
            check_plan_size(
                "seen",
                cases.len() as u64,
                configs.len() as u64,
                reps.len() as u64,
            )?;
            let configs: Vec<String> = configs.into_iter().collect();
            (
                cases.iter().map(|c| c.case_id.clone()).collect(),
                configs,
                reps,
            )
        };
    let mut episodes = Vec::new();
    let mut outside = 0usize;
    let in_cases: HashSet<&str> = case_ids.iter().map(String::as_str).collect();
    let in_configs: HashSet<&str> = configs.iter().map(String::as_str).collect();
    let in_reps: HashSet<u32> = repetitions.iter().copied().collect();
    for t in &trajectories {
        if !(in_cases.contains(t.case_id.as_str())
            && in_configs.contains(t.config.as_str())
            && in_reps.contains(&t.repetition))
        {
            outside += 1;
            continue;
        }
        let Some(case) = case_index.get(t.case_id.as_str()).map(|&i| &cases[i]) else {
            continue;
        };
        episodes.push(score::score(case, t)?);
    }
    if outside > 0 {
        warnings.push(format!(
            "{outside} trajector{} outside the run manifest, not scored",
            if outside == 1 { "y" } else { "ies" }
        ));
    }
    let plan = report::Plan {
        cases: case_ids
            .iter()
            .filter_map(|id| case_index.get(id.as_str()).map(|&i| &cases[i]))
            .map(|c| (c.case_id.as_str(), c.protocol, c.domain.as_str()))
            .collect(),
        configs: configs.clone(),
        repetitions: repetitions.clone(),
    };

    let pairs: Vec<(String, String)> = if settings.pairs.is_empty() {
        let mut v = Vec::new();
        for i in 0..configs.len() {
            for j in i + 1..configs.len() {
                v.push((configs[i].clone(), configs[j].clone()));
            }
        }
        v
    } else {
        for (a, b) in &settings.pairs {
            for c in [a, b] {
                if !configs.contains(c) {
                    return Err(EvidenceError::Settings(format!(
                        "pair names configuration `{c}`, which is not in the plan (configurations: {})",
                        configs.join(", ")
                    )));
                }
            }
        }
        settings.pairs.clone()
    };
    let paired = pairs
        .iter()
        .map(|(a, b)| report::paired(&plan, &episodes, a, b, settings.bootstrap, settings.seed))
        .collect();

    Ok(EvidenceReport {
        settings: ReportSettings {
            bootstrap: settings.bootstrap,
            seed: settings.seed,
            prng: "ChaCha8Rng (rand_chacha 0.9), seed_from_u64(seed); case indices random_range(0..n) on u32".into(),
            plan_given: settings.plan.is_some(),
        },
        configs,
        repetitions,
        protocols: plan.protocols(),
        domains: plan.domains(),
        coverage: report::coverage(&plan, &episodes),
        ecs: report::ecs_tables(&plan, &episodes),
        failures: report::failure_bars(&plan, &episodes),
        effort: report::effort_curves(&plan, &episodes),
        paired,
        episodes,
        cases,
        warnings,
    })
}
