//! Transitional facade: every module path of the former single core crate
//! (`gapscope_core::analysis`, `gapscope_core::join`, …), re-exported from the
//! crates that now hold it (ARCHITECTURE.md). Adapters and tests move to the
//! layer crates directly; this crate goes when nothing names it.

pub use gapscope_data::digest;
pub use gapscope_data::formats::{inspect, tau2};
pub use gapscope_data::text;
/// Ingestion with the join on `model`, under the former `join` path.
pub mod join {
    pub use gapscope_data::ingest::*;
    pub use gapscope_data::join::*;
}
pub use gapscope_data::profile;

/// The trajectory model with its former neighbours: the readers, label CSVs
/// and operation profiles that now have modules of their own.
pub mod trajectory {
    pub use gapscope_data::formats::*;
    pub use gapscope_data::labels::*;
    pub use gapscope_data::operations::*;
    /// Former name of the one macro definition.
    pub use gapscope_data::profile::MacroDefinition as MacroFromLabels;
    pub use gapscope_data::trajectory::*;
}
pub use gapscope_gaps::{
    analysis, assoc, checks, manifest, overview, proxy_labels, stability, task_groups,
};
pub use gapscope_stats::heldout::engine as holdout;
pub use gapscope_stats::heldout::reference as crossval;
pub use gapscope_stats::{bootstrap, ridge, summary as stats};
pub use gapscope_synth::profiles as synth;
pub use gapscope_synth::trajectories as synth_traj;

/// Evidence to action, with the worked set under its former path.
pub mod evidence {
    pub use gapscope_evidence::*;
    pub use gapscope_synth::evidence_worked as worked;
}

/// Runtime contracts, with the simulator under its former path.
pub mod runtime {
    pub use gapscope_runtime::*;
    /// The episode log with its reader, under the former path.
    pub mod log {
        pub use gapscope_runtime::log::*;
        pub use gapscope_runtime::read::*;
    }
    pub use gapscope_synth::runtime_sim as sim;
    pub use gapscope_synth::runtime_sim::{simulate, SimParams};
}

pub use analysis::{analyze, Report, Settings};
pub use profile::{ProfileError, ProfileTable, RoleOverrides};
pub use ridge::Alpha;
