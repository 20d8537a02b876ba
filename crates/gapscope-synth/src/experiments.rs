//! A seeded synthetic corpus of the experiments beside the corpus
//! (realization-gaps.md, "Local content interventions",
//! "Shared-initial-state continuations"), with planted effects, so that the
//! intervention and continuation views have something to show without user
//! data and tests can check that the planted effects are recovered. Labelled
//! synthetic: scripted draws, not language models.
//!
//! The generating process (one ChaCha8 stream from the seed):
//! 1. **Interventions.** Per model and task a checkpoint `ckpt-<task>` with a
//!    base success probability `p0 ~ U(0.3, 0.7)` and a planning-label
//!    probability `q0 ~ U(0.4, 0.7)`. Branches, `repetitions` runs each: the
//!    original and a control (a semantics-preserving rewrite: same `p0`, `q0`),
//!    neither naming an intervention; edited `planning_repair` (stratum
//!    `repair`) and edited `planning_damage` (stratum `damage`). Planted:
//!    `planning_repair` raises the success probability of
//!    [`Planted::repair_model`] by [`Planted::repair_effect`] and its
//!    planning label by the same amount (the other models: no change);
//!    `planning_damage` lowers every model's by [`Planted::damage_effect`].
//!    Rewards are Bernoulli; each run labels the operation `PL` with two
//!    requirements, each 1 with its probability, else 0.
//! 2. **Continuations.** Per state `state-<k>` (on task k) and model: round
//!    `initial` under conditions `N` and `I`, round `expansion` under `N` on
//!    the first two states; `repetitions` continuations each of 2–6
//!    assistant steps. Each step violates a constraint with probability 0.01;
//!    a run is left unchecked (no `violations`: not scoreable) with
//!    probability 0.1. Planted: [`Planted::violator`] at
//!    [`Planted::violation_state`], round `initial`, condition `N`, complies
//!    at step 1 and violates `no refund without verification` at step 2 in
//!    every repetition (repeated violations, and later reversals).

use indexmap::IndexMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use gapscope_data::trajectory::{Branch, Message, Trajectory, Violation};

/// Parameters of the experiment generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentParams {
    pub seed: u64,
    pub models: Vec<String>,
    /// Tasks with an intervention checkpoint (at least 5 gives intervals).
    pub tasks: usize,
    /// Runs per branch, and continuations per (state, model, round, condition).
    pub repetitions: usize,
    /// Continuation states.
    pub states: usize,
}

impl Default for ExperimentParams {
    fn default() -> Self {
        ExperimentParams {
            seed: 0,
            models: ["synth-a", "synth-b", "synth-c", "synth-d"]
                .map(String::from)
                .to_vec(),
            tasks: 10,
            repetitions: 3,
            states: 4,
        }
    }
}

/// The most models, tasks, repetitions or states the generator takes.
pub const MAX_SIZE: usize = 1000;

impl ExperimentParams {
    pub fn validate(&self) -> Result<(), String> {
        if self.models.is_empty() || self.models.len() > MAX_SIZE {
            return Err(format!(
                "models: 1 to {MAX_SIZE}, got {}",
                self.models.len()
            ));
        }
        for (what, n, min) in [
            ("tasks", self.tasks, 1),
            ("repetitions", self.repetitions, 1),
            ("states", self.states, 2),
        ] {
            if n < min || n > MAX_SIZE {
                return Err(format!("{what}: {min} to {MAX_SIZE}, got {n}"));
            }
        }
        Ok(())
    }
}

/// The planted effects, as the generator planted them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Planted {
    /// The model whose `planning_repair` edit helps.
    pub repair_model: String,
    /// Added to its success (and planning-label) probability, 0–1.
    pub repair_effect: f64,
    /// Taken from every model's by `planning_damage`, 0–1.
    pub damage_effect: f64,
    /// The model that violates at step 2 in every repetition …
    pub violator: String,
    /// … of this state, round `initial`, condition `N`.
    pub violation_state: String,
}

/// The generated runs and what was planted in them.
#[derive(Clone, Debug, PartialEq)]
pub struct ExperimentCorpus {
    pub trajectories: Vec<Trajectory>,
    pub planted: Planted,
}

impl ExperimentCorpus {
    /// `experiments.jsonl` (canonical JSONL) and `planted.json`; the JSONL's
    /// first line is not a comment (JSONL has none), so the generator and
    /// `command` are named in `planted.json`.
    pub fn files(&self, command: &str) -> Result<Vec<(String, String)>, serde_json::Error> {
        let mut jsonl = String::new();
        for t in &self.trajectories {
            jsonl.push_str(&serde_json::to_string(t)?);
            jsonl.push('\n');
        }
        let planted = serde_json::json!({
            "about": "gapscope synthetic experiments (seeded generator, not real models)",
            "command": command,
            "planted": self.planted,
        });
        Ok(vec![
            ("experiments.jsonl".into(), jsonl),
            (
                "planted.json".into(),
                serde_json::to_string_pretty(&planted)? + "\n",
            ),
        ])
    }
}

/// A branch, its (intervention, stratum) if edited, and the shift of its
/// success and label probabilities.
type Arm = (Branch, Option<(&'static str, &'static str)>, f64);

const EFFECT: f64 = 0.4;
const DAMAGE: f64 = 0.3;

fn run(id: String, model: &str, task: String, checkpoint: String) -> Trajectory {
    Trajectory {
        id,
        model: model.into(),
        family: Some(format!("{model}-family")),
        task_id: task,
        checkpoint: Some(checkpoint),
        ..Default::default()
    }
}

/// Generate the corpus; the same parameters always give the same corpus.
pub fn generate_experiments(params: &ExperimentParams) -> Result<ExperimentCorpus, String> {
    params.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let planted = Planted {
        repair_model: params.models[0].clone(),
        repair_effect: EFFECT,
        damage_effect: DAMAGE,
        violator: params.models[params.models.len() - 1].clone(),
        violation_state: "state-2".into(),
    };
    let tw = params.tasks.max(params.states).to_string().len().max(2);
    let mut out = Vec::new();
    for model in &params.models {
        for t in 0..params.tasks {
            let task = format!("task-{:0tw$}", t + 1);
            let checkpoint = format!("ckpt-{task}");
            let p0: f64 = rng.random_range(0.3..0.7);
            let q0: f64 = rng.random_range(0.4..0.7);
            let lift = if *model == planted.repair_model {
                EFFECT
            } else {
                0.0
            };
            // (branch, (intervention, stratum), shift of the probabilities)
            let branches: [Arm; 4] = [
                (Branch::Original, None, 0.0),
                (Branch::Control, None, 0.0),
                (Branch::Edited, Some(("planning_repair", "repair")), lift),
                (Branch::Edited, Some(("planning_damage", "damage")), -DAMAGE),
            ];
            for (branch, edit, shift) in branches {
                let p = (p0 + shift).clamp(0.02, 0.98);
                let q = (q0 + shift).clamp(0.02, 0.98);
                for rep in 0..params.repetitions {
                    let name = edit.map_or(branch.name(), |(i, _)| i);
                    let mut r = run(
                        format!("ix/{model}/{checkpoint}/{name}/{rep}"),
                        model,
                        task.clone(),
                        checkpoint.clone(),
                    );
                    r.branch = Some(branch);
                    r.intervention = edit.map(|(i, _)| i.to_string());
                    r.stratum = edit.map(|(_, s)| s.to_string());
                    r.trial = Some(rep as i64);
                    r.reward = Some(if rng.random::<f64>() < p { 1.0 } else { 0.0 });
                    let labels: Vec<Option<f64>> = (0..2)
                        .map(|_| Some(if rng.random::<f64>() < q { 1.0 } else { 0.0 }))
                        .collect();
                    r.labels = IndexMap::from([("PL".to_string(), labels)]);
                    out.push(r);
                }
            }
        }
    }
    for k in 0..params.states {
        let state = format!("state-{}", k + 1);
        let task = format!("task-{:0tw$}", k + 1);
        for model in &params.models {
            let mut cells = vec![("initial", "N"), ("initial", "I")];
            if k < 2 {
                cells.push(("expansion", "N"));
            }
            for (round, condition) in cells {
                let planted_here = *model == planted.violator
                    && state == planted.violation_state
                    && round == "initial"
                    && condition == "N";
                for rep in 0..params.repetitions {
                    let steps: usize = rng.random_range(2..=6);
                    let mut r = run(
                        format!("cont/{model}/{state}/{round}/{condition}/{rep}"),
                        model,
                        task.clone(),
                        state.clone(),
                    );
                    r.round = Some(round.into());
                    r.condition = Some(condition.into());
                    r.trial = Some(rep as i64);
                    r.messages = (1..=steps)
                        .map(|s| {
                            Message::new(
                                "assistant",
                                Some(serde_json::Value::String(format!("step {s} (synthetic)"))),
                            )
                        })
                        .collect();
                    let mut violations: Vec<Violation> = (1..=steps as u64)
                        .filter(|_| rng.random::<f64>() < 0.01)
                        .map(|step| Violation {
                            step,
                            constraint: "confirm before acting".into(),
                        })
                        .collect();
                    let checked = rng.random::<f64>() >= 0.1;
                    if planted_here {
                        violations = vec![Violation {
                            step: 2,
                            constraint: "no refund without verification".into(),
                        }];
                    }
                    r.violations = (checked || planted_here).then_some(violations);
                    out.push(r);
                }
            }
        }
    }
    Ok(ExperimentCorpus {
        trajectories: out,
        planted,
    })
}
