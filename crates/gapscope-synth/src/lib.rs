//! gapscope's seeded generators, all in one place (no OS randomness:
//! ChaCha8 seeded from a `u64`):
//!
//! - [`profiles`]: profile tables with planted gaps (the embedded example and
//!   the benchmark data).
//! - [`trajectories`]: trajectory corpora with planted gaps and instability,
//!   and the recovery of the planted gaps through the ordinary analysis.
//! - [`experiments`]: interventions and continuations with planted effects.
//! - [`evidence_worked`]: the evidence-to-action worked case set and its
//!   scripted trajectories.
//! - [`runtime_sim`]: the runtime-contracts teaching simulator (scripted
//!   policies, not language models) writing episode logs.
//! - [`runtime_sim_addendum`]: its `addendum` preset (carryover conditions,
//!   horizons, seeds, control families, teacher traces).

pub mod evidence_worked;
pub mod experiments;
pub mod profiles;
pub mod runtime_sim;
pub mod runtime_sim_addendum;
pub mod trajectories;
