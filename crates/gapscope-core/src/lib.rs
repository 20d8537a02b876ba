//! gapscope-core: the pure analysis core of gapscope.
//!
//! Everything that computes a number lives here, once, and is called both by the
//! browser worker (`gapscope-worker`) and by the CLI (`gapscope-cli`). This crate
//! has no web dependency and no source of OS randomness; `scripts/check-deps.sh`
//! fails the test command if one ever enters its dependency tree.
//!
//! Definitions follow `../shared/spec/realization-gaps.md` and
//! `../shared/spec/formats.md`; choices where the spec is silent are documented
//! in `docs/decisions.md` and next to the code that makes them.
//!
//! Modules, bottom-up:
//! - [`stats`]: means, ranks, Pearson and Spearman with pairwise deletion.
//! - [`ridge`]: validated `Alpha`, training-fold standardization, the ridge solve.
//! - [`crossval`]: folds (family or leave-one-model-out), metrics, and the
//!   simple row-refit held-out ridge (the reference for [`holdout`]).
//! - [`holdout`]: the fast engine: per-group sums, one eigendecomposition per
//!   training set, any number of targets and penalties.
//! - [`profile`]: the profile table and its CSV/JSON readers with located errors.
//! - [`analysis`]: the realization-gap report (the CLI's JSON contract).
//! - [`synth`]: the seeded generator of the synthetic example dataset.
//! - [`bootstrap`], [`assoc`], [`manifest`]: intervals, association
//!   sensitivity, the reproducibility manifest.
//! - [`trajectory`], [`tau2`], [`inspect`], [`join`], [`stability`]:
//!   trajectories and their operation profiles, τ²-bench files, Inspect AI
//!   logs, joining files on `model`, cross-task stability.
//! - [`runtime`]: runtime contracts (persistent vs stateless CodeAct): episode
//!   logs, Q/gaps/interaction with paired bootstrap, trace quantities, Opaque
//!   Knapsack verification, and a teaching simulator (scripted policies).
//! - [`evidence`]: evidence-to-action scoring (case specs, the ledger, ECS
//!   reports, the worked case set).

pub mod analysis;
pub mod assoc;
pub mod bootstrap;
pub mod checks;
pub mod crossval;
pub mod evidence;
pub mod holdout;
pub mod inspect;
pub mod join;
pub mod manifest;
pub mod overview;
pub mod profile;
pub mod proxy_labels;
pub mod ridge;
pub mod runtime;
pub mod stability;
pub mod stats;
pub mod synth;
pub mod synth_traj;
pub mod task_groups;
pub mod tau2;
pub mod trajectory;

pub use analysis::{analyze, Report, Settings};
pub use profile::{ProfileError, ProfileTable, RoleOverrides};
pub use ridge::Alpha;
