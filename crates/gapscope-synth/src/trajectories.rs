//! Seeded synthetic *trajectory* corpora with planted effects (issue 5), and
//! how well the realization analysis recovers them.
//!
//! The generating process, in order (all draws from one ChaCha8 stream, as
//! [`crate::profiles`]):
//! 1. families and models: per family an effect `u_f ~ N(0, family_sd)`; per
//!    model a general ability `a_i = u_f + N(0, 1)`;
//! 2. the foundational profile `F_ij = 70 + 8 (l_j a_i + sqrt(1 − l_j²) e_ij)`,
//!    loadings `l_j ~ U(0.4, 0.9)`, rounded to 0.1 (observed exactly);
//! 3. true operation scores `P_ik = m_k + Σ_j B_jk z_ij + gap_ik` (score
//!    points), `z` = F standardized over all models, `m_k ~ U(50, 75)`,
//!    `B_jk ~ N(0, s_k)` with `s_k` falling from 4 to 1 across operations, and
//!    the **planted gap** `gap_ik = r_i + N(0, gap_sd / 2)` with a per-model
//!    realization offset `r_i ~ N(0, gap_sd)`;
//! 4. tasks `task-001…` in scenario groups `g01…` (task t in group t mod G);
//!    every model attempts every task `trials` times;
//! 5. **planted instability** (optional, `instability` > 0): per model and
//!    scenario group a deviation `N(0, instability)` points, the same for
//!    every operation, added to `P_ik` on that group's tasks only (a model
//!    realizes better on some groups than on others: its gaps then differ
//!    between halves of the groups, and cross-task stability falls);
//! 6. labels: per trajectory and operation, `requirements` labels, each
//!    null with probability `not_applicable`, else 1, 0.5, 0 with
//!    probabilities p², 2p(1 − p), (1 − p)² where p = P/100 clipped to
//!    [0.02, 0.98] — so the expected label is p;
//! 7. reward: per model `y_i = 55 + 1.5 (mean_k P_ik − mean) + N(0, 2)`
//!    (0–100), per trajectory 1 with probability y_i / 100, else 0.
//!
//! [`recovery`] runs the ordinary path — [`gapscope_data::operations::operation_profile`]
//! (common tasks, mean macro), joined with the foundational profile,
//! [`gapscope_gaps::analysis::analyze`] (family-held-out ridge) — and reports the
//! Spearman correlation across models between the planted and the recovered
//! gaps, per operation and for the macro gap (planted macro = mean over
//! operations of the planted gaps).

use indexmap::IndexMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use crate::profiles::SynthParams;
use gapscope_data::operations::{operation_profile, ProfileOptions};
use gapscope_data::profile::{
    csv_field, Block, ProfileTable, DEFAULT_FOUNDATIONAL, DEFAULT_OPERATIONS,
};
use gapscope_data::trajectory::Trajectory;
use gapscope_gaps::analysis::{analyze, AlphaGrid, AnalysisError, Settings};

/// Parameters of the trajectory generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrajParams {
    pub seed: u64,
    /// Family names with their number of models.
    pub families: Vec<(String, usize)>,
    pub foundational: Vec<String>,
    pub operations: Vec<String>,
    pub tasks: usize,
    /// Scenario groups (task t is in group t mod groups).
    pub groups: usize,
    /// Attempts per model and task.
    pub trials: usize,
    /// Labels per operation and trajectory.
    pub requirements: usize,
    /// Probability that a label is null (not applicable).
    pub not_applicable: f64,
    /// SD of the per-model realization offset, in score points.
    pub gap_sd: f64,
    /// SD of the family effect on general ability.
    pub family_sd: f64,
    /// SD (points) of the per-(model, scenario group) deviation; 0: none.
    pub instability: f64,
}

impl Default for TrajParams {
    /// Paper-shaped: the 15 models in 8 families of [`SynthParams::default`],
    /// 7 + 7 dimensions, 60 tasks in 12 groups, 1 trial, 4 labels per
    /// operation (10% null), planted gaps of a few points, no instability.
    fn default() -> Self {
        TrajParams {
            seed: 0,
            families: SynthParams::default().families,
            foundational: DEFAULT_FOUNDATIONAL
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            operations: DEFAULT_OPERATIONS
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            tasks: 60,
            groups: 12,
            trials: 1,
            requirements: 4,
            not_applicable: 0.1,
            gap_sd: 4.0,
            family_sd: 0.7,
            instability: 0.0,
        }
    }
}

/// The most models a synthetic trajectory corpus may have.
pub const MAX_SYNTH_MODELS: u64 = 10_000;
/// The most tasks.
pub const MAX_SYNTH_TASKS: u64 = 100_000;
/// The most trajectories (models × tasks × trials): about 2 KB of memory
/// each while generated (1,000,000 ≈ 2 GB, ≈ 10 s; docs/limits.md).
pub const MAX_SYNTH_TRAJECTORIES: u64 = 1_000_000;

/// Check the sizes of a corpus before anything is allocated for it (the
/// family names, the trajectories): `--families × --per-family` models,
/// `--tasks`, `--trials`, and their product.
pub fn check_sizes(families: u64, per_family: u64, tasks: u64, trials: u64) -> Result<(), String> {
    let models = families.saturating_mul(per_family);
    if models > MAX_SYNTH_MODELS {
        return Err(format!(
            "--families × --per-family: {families} × {per_family} = {models} models exceed the limit of {MAX_SYNTH_MODELS}"
        ));
    }
    if tasks > MAX_SYNTH_TASKS {
        return Err(format!(
            "--tasks: {tasks} exceeds the limit of {MAX_SYNTH_TASKS}"
        ));
    }
    let n = models.saturating_mul(tasks).saturating_mul(trials);
    if n > MAX_SYNTH_TRAJECTORIES {
        return Err(format!(
            "models × --tasks × --trials: {models} × {tasks} × {trials} = {n} trajectories exceed the limit of {MAX_SYNTH_TRAJECTORIES}"
        ));
    }
    Ok(())
}

impl TrajParams {
    /// `families` families of `per_family` models each (named `Family 001 …`),
    /// the other parameters as the default.
    pub fn sized(families: usize, per_family: usize) -> Self {
        TrajParams {
            families: (0..families)
                .map(|f| (format!("Family {:03}", f + 1), per_family))
                .collect(),
            ..TrajParams::default()
        }
    }

    /// Check the parameters (counts positive, probabilities in [0, 1), SDs
    /// finite and not negative).
    pub fn validate(&self) -> Result<(), String> {
        let n: u64 = self
            .families
            .iter()
            .map(|f| f.1 as u64)
            .fold(0, u64::saturating_add);
        check_sizes(n, 1, self.tasks as u64, self.trials as u64)?;
        if n == 0 {
            return Err("at least one model is needed".into());
        }
        if self.foundational.is_empty() || self.operations.is_empty() {
            return Err("at least one foundational dimension and one operation are needed".into());
        }
        if self.tasks == 0 || self.groups == 0 || self.trials == 0 || self.requirements == 0 {
            return Err(format!(
                "tasks, groups, trials and requirements must be at least 1 (got {}, {}, {}, {})",
                self.tasks, self.groups, self.trials, self.requirements
            ));
        }
        if self.groups > self.tasks {
            return Err(format!(
                "{} groups for {} tasks: every group needs a task",
                self.groups, self.tasks
            ));
        }
        if !(0.0..1.0).contains(&self.not_applicable) {
            return Err(format!(
                "the null-label probability must lie in [0, 1), got {}",
                self.not_applicable
            ));
        }
        for (name, v) in [
            ("gap_sd", self.gap_sd),
            ("family_sd", self.family_sd),
            ("instability", self.instability),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(format!("{name} must be finite and ≥ 0, got {v}"));
            }
        }
        Ok(())
    }
}

/// A generated corpus with what was planted in it.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticCorpus {
    /// The foundational profile (no operations, no reward).
    pub foundational: ProfileTable,
    pub trajectories: Vec<Trajectory>,
    pub operations: Vec<String>,
    /// `planted[model][operation]`, score points.
    pub planted: Vec<Vec<f64>>,
    /// The true operation scores `P_ik` (before instability and label noise).
    pub true_scores: Vec<Vec<f64>>,
}

impl SyntheticCorpus {
    /// The corpus's operation profile and reward (common tasks, mean macro)
    /// joined with its foundational profile on `model`: the table the
    /// analysis reads, as `report --profiles … --trajectories …` builds it.
    ///
    /// # Errors
    /// The join's (none for a generated corpus).
    pub fn joined_table(&self) -> Result<ProfileTable, gapscope_data::join::JoinError> {
        let profile = operation_profile(&self.trajectories, &ProfileOptions::default());
        let (table, _) = gapscope_data::join::join(&[
            ("foundational".into(), self.foundational.clone()),
            ("trajectories".into(), profile.to_table()),
        ])?;
        Ok(table)
    }

    /// The planted macro gap per model: the mean of its planted gaps.
    pub fn planted_macro(&self) -> Vec<f64> {
        self.planted
            .iter()
            .map(|r| r.iter().sum::<f64>() / r.len().max(1) as f64)
            .collect()
    }

    /// `model,family,OP…,macro` with the planted gaps.
    pub fn planted_csv(&self) -> String {
        let mut s = String::from("model,family");
        for op in &self.operations {
            s.push_str(&format!(",{op}"));
        }
        s.push_str(",macro\n");
        let macros = self.planted_macro();
        for (i, m) in self.foundational.models.iter().enumerate() {
            s.push_str(&format!(
                "{},{}",
                csv_field(m),
                csv_field(&self.foundational.families[i])
            ));
            for g in &self.planted[i] {
                s.push_str(&format!(",{g}"));
            }
            s.push_str(&format!(",{}\n", macros[i]));
        }
        s
    }

    /// The corpus as files: `foundational.csv` (the foundational profile),
    /// `trajectories.jsonl` (canonical JSONL, labels inside), `planted.csv`
    /// (the planted gaps). The CSVs start with a `#` comment naming the
    /// generator and `command` (the CLI line that regenerates them).
    pub fn files(&self, command: &str) -> Result<Vec<(String, String)>, serde_json::Error> {
        let head = format!(
            "# gapscope synthetic trajectories (seeded generator, not real models): {command}\n"
        );
        Ok(vec![
            (
                "foundational.csv".into(),
                format!("{head}{}", self.foundational.to_csv()),
            ),
            ("trajectories.jsonl".into(), self.jsonl()?),
            (
                "planted.csv".into(),
                format!(
                    "{head}# planted realization gaps (score points) per operation; macro = their mean\n{}",
                    self.planted_csv()
                ),
            ),
        ])
    }

    /// The trajectories as canonical JSONL (labels inside).
    pub fn jsonl(&self) -> Result<String, serde_json::Error> {
        let mut s = String::new();
        for t in &self.trajectories {
            s.push_str(&serde_json::to_string(t)?);
            s.push('\n');
        }
        Ok(s)
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    StandardNormal.sample(rng)
}

/// Generate a corpus; the same parameters always give the same corpus.
pub fn generate(params: &TrajParams) -> Result<SyntheticCorpus, String> {
    params.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let p = params.foundational.len();
    let q = params.operations.len();

    let crate::profiles::Population {
        models,
        families,
        f,
        z,
    } = crate::profiles::population(&mut rng, &params.families, params.family_sd, p);
    let n = models.len();
    let (truth, planted) =
        crate::profiles::planted_operations(&mut rng, &z, q, params.gap_sd, 50.0..75.0);
    // Per (model, group) deviations, shared by the operations: the planted instability.
    let deviation: Vec<Vec<f64>> = (0..n)
        .map(|_| {
            (0..params.groups)
                .map(|_| {
                    if params.instability > 0.0 {
                        params.instability * normal(&mut rng)
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    let macro_true: Vec<f64> = truth
        .iter()
        .map(|r| r.iter().sum::<f64>() / q as f64)
        .collect();
    let mean_macro = macro_true.iter().sum::<f64>() / n as f64;
    let reward_p: Vec<f64> = macro_true
        .iter()
        .map(|m| ((55.0 + 1.5 * (m - mean_macro) + 2.0 * normal(&mut rng)) / 100.0).clamp(0.0, 1.0))
        .collect();

    let width = params.tasks.to_string().len().max(3);
    let gwidth = params.groups.to_string().len().max(2);
    let mut trajectories = Vec::with_capacity(n * params.tasks * params.trials);
    for (i, model) in models.iter().enumerate() {
        for t in 0..params.tasks {
            let g = t % params.groups;
            let task_id = format!("task-{:0width$}", t + 1);
            let group = format!("g{:0gwidth$}", g + 1);
            for trial in 0..params.trials {
                let mut labels = IndexMap::with_capacity(q);
                for (k, op) in params.operations.iter().enumerate() {
                    let pk = ((truth[i][k] + deviation[i][g]) / 100.0).clamp(0.02, 0.98);
                    let ls: Vec<Option<f64>> = (0..params.requirements)
                        .map(|_| {
                            if rng.random::<f64>() < params.not_applicable {
                                return None;
                            }
                            let u: f64 = rng.random();
                            Some(if u < pk * pk {
                                1.0
                            } else if u < pk * pk + 2.0 * pk * (1.0 - pk) {
                                0.5
                            } else {
                                0.0
                            })
                        })
                        .collect();
                    labels.insert(op.clone(), ls);
                }
                let reward = if rng.random::<f64>() < reward_p[i] {
                    1.0
                } else {
                    0.0
                };
                trajectories.push(Trajectory {
                    id: format!("{model}/{task_id}/{trial}"),
                    model: model.clone(),
                    family: Some(families[i].clone()),
                    domain: None,
                    task_id: task_id.clone(),
                    scenario_group: Some(group.clone()),
                    trial: Some(trial as i64),
                    reward: Some(reward),
                    termination_reason: None,
                    messages: Vec::new(),
                    labels,
                    gold_actions: Vec::new(),
                    stats: None,
                    source_id: None,
                    details: Vec::new(),
                    scores: Vec::new(),
                    ..Default::default()
                });
            }
        }
    }
    Ok(SyntheticCorpus {
        foundational: ProfileTable {
            models,
            families,
            foundational: Block {
                names: params.foundational.clone(),
                values: f
                    .into_iter()
                    .map(|r| r.into_iter().map(Some).collect())
                    .collect(),
            },
            operations: Block {
                names: Vec::new(),
                values: vec![Vec::new(); n],
            },
            reward: None,
            outcome_column: None,
            reward_scaled: false,
            ignored: Vec::new(),
            pooled_macro: None,
        },
        trajectories,
        operations: params.operations.clone(),
        planted,
        true_scores: truth,
    })
}

/// Why the recovery could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RecoveryError {
    #[error(transparent)]
    Join(#[from] gapscope_data::join::JoinError),
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}

/// Planted against recovered gaps: Spearman across models.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    /// Per operation.
    pub operations: IndexMap<String, Option<f64>>,
    /// The macro gap.
    pub macro_gap: Option<f64>,
    /// Models with a recovered macro gap.
    pub n: usize,
}

/// Recover the gaps through the ordinary analysis path (operation profile
/// from the labels, common tasks, mean macro; joined with the foundational
/// profile on `model`; family-held-out ridge at `alpha`, no bootstrap, no
/// nested selection) and correlate them with the planted ones.
pub fn recovery(
    corpus: &SyntheticCorpus,
    alpha: gapscope_stats::ridge::Alpha,
) -> Result<Recovery, RecoveryError> {
    let table = corpus.joined_table()?;
    let settings = Settings {
        alpha,
        bootstrap: 0,
        nested: false,
        grid: AlphaGrid::new(1.0, 100.0, 2).map_err(AnalysisError::Settings)?,
        ..Settings::default()
    };
    let report = analyze(&table, &settings)?;
    let index: Vec<usize> = report
        .models
        .iter()
        .map(|m| {
            corpus
                .foundational
                .models
                .iter()
                .position(|x| x == m)
                .unwrap_or(usize::MAX)
        })
        .collect();
    let planted = |k: Option<usize>| -> Vec<Option<f64>> {
        let macros = corpus.planted_macro();
        index
            .iter()
            .map(|&i| match k {
                _ if i == usize::MAX => None,
                Some(k) => Some(corpus.planted[i][k]),
                None => Some(macros[i]),
            })
            .collect()
    };
    let rho = |a: &[Option<f64>], b: &[Option<f64>]| -> (Option<f64>, usize) {
        let (x, y) = gapscope_stats::summary::complete_pairs(a, b);
        (gapscope_stats::summary::spearman(&x, &y), x.len())
    };
    let mut operations = IndexMap::new();
    for (k, op) in corpus.operations.iter().enumerate() {
        let r = report
            .operations
            .get(op)
            .map_or((None, 0), |fit| rho(&planted(Some(k)), &fit.gap));
        operations.insert(op.clone(), r.0);
    }
    let (macro_gap, n) = rho(&planted(None), &report.macro_fit.fit.gap);
    Ok(Recovery {
        operations,
        macro_gap,
        n,
    })
}

/// Mean recovery over seeds `0..seeds` for one corpus shape (for the
/// teaching view's curve): (mean macro-gap Spearman, mean per-operation
/// Spearman), each over the seeds where it is defined.
pub fn mean_recovery(
    shape: &TrajParams,
    seeds: u64,
    alpha: gapscope_stats::ridge::Alpha,
    progress: &mut dyn FnMut(u64),
) -> Result<(Option<f64>, Option<f64>), String> {
    let (mut macros, mut ops) = (Vec::new(), Vec::new());
    for seed in 0..seeds {
        progress(seed);
        let c = generate(&TrajParams {
            seed,
            ..shape.clone()
        })?;
        let r = recovery(&c, alpha).map_err(|e| e.to_string())?;
        macros.extend(r.macro_gap);
        let per_op: Vec<f64> = r.operations.values().flatten().copied().collect();
        ops.extend(gapscope_stats::summary::mean(&per_op));
    }
    Ok((
        gapscope_stats::summary::mean(&macros),
        gapscope_stats::summary::mean(&ops),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_shaped_as_asked() {
        let p = TrajParams {
            tasks: 10,
            groups: 3,
            trials: 2,
            ..TrajParams::default()
        };
        let a = generate(&p).unwrap();
        assert_eq!(a, generate(&p).unwrap());
        assert_ne!(
            a.trajectories,
            generate(&TrajParams {
                seed: 1,
                ..p.clone()
            })
            .unwrap()
            .trajectories
        );
        assert_eq!(a.trajectories.len(), 15 * 10 * 2);
        assert_eq!(a.foundational.n_models(), 15);
        let t = &a.trajectories[0];
        assert_eq!(t.task_id, "task-001");
        assert_eq!(t.scenario_group.as_deref(), Some("g01"));
        assert_eq!(
            a.trajectories[2 * 3].scenario_group.as_deref(),
            Some("g01"),
            "task 4 is in group 1 (4 mod 3)"
        );
        assert_eq!(t.labels.len(), 7);
        assert!(t.labels.values().all(|l| l.len() == 4));
        assert!(a
            .trajectories
            .iter()
            .flat_map(|t| t.labels.values().flatten())
            .all(|l| matches!(l, None | Some(0.0 | 0.5 | 1.0))));
        let e = generate(&TrajParams {
            groups: 11,
            ..p.clone()
        })
        .unwrap_err();
        assert_eq!(e, "11 groups for 10 tasks: every group needs a task");
        assert!(generate(&TrajParams {
            not_applicable: 1.0,
            ..p
        })
        .is_err());
    }

    /// With many labels the operation score converges to the true score:
    /// label mean p (P(1) = p², P(0.5) = 2p(1−p)), so O(i,k) → P_ik; with 60
    /// tasks × 40 labels the SD of the estimate is at most
    /// 100·sqrt(0.125 / 2160) ≈ 0.76 points; 4 SD = 3.1 points.
    #[test]
    fn operation_scores_estimate_the_true_scores() {
        let c = generate(&TrajParams {
            requirements: 40,
            ..TrajParams::default()
        })
        .unwrap();
        let prof = operation_profile(&c.trajectories, &ProfileOptions::default());
        for (i, m) in prof.models.iter().enumerate() {
            let k0 = c.foundational.models.iter().position(|x| x == m).unwrap();
            for k in 0..7 {
                let want = c.true_scores[k0][k].clamp(2.0, 98.0);
                let got = prof.scores[i][k].unwrap();
                assert!((got - want).abs() < 3.1, "{m} op {k}: {got} vs {want}");
            }
        }
    }
}
