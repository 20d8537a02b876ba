//! The subcommands, one module each: its clap arguments (`#[derive(Args)]`)
//! and its `run`, which returns what goes to standard output (or the
//! message of the error). Groups of subcommands (`evidence`, `runtime`,
//! `tau2`) have their own `#[derive(Subcommand)]` enum.

mod compare;
mod evidence;
mod experiments;
mod profiles;
mod report;
mod runtime;
mod stability;
mod synth;
mod synth_experiments;
mod synth_trajectories;
mod tau2;

use clap::Subcommand;

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Analyse a profile table: correlations, family-held-out ridge, gaps, Q².
    Report(report::ReportArgs),
    /// Operation profiles from labelled trajectories (canonical JSONL), as CSV
    /// (model, family, operations, their eligible counts n_OP, reward) or JSON.
    Profiles(profiles::ProfilesArgs),
    /// Compare runs on the same tasks: mean reward with clustered and
    /// bootstrap intervals, pass^k, flip rate; every pair's Δ with both
    /// intervals, sign and permutation tests (Holm, BH), MDE
    /// (docs/compare.md).
    Compare(compare::CompareArgs),
    /// Cross-task stability of the gaps: split the scenario groups into two
    /// halves, compute gaps in each, and correlate them across models.
    Stability(stability::StabilityArgs),
    /// Local content interventions: branch runs (original, edited, control)
    /// from restored checkpoints; contrasts per model, intervention and
    /// stratum with task-clustered intervals, and the reward changes
    /// (docs/experiments.md).
    Interventions(experiments::InterventionsArgs),
    /// Shared-initial-state continuations: coverage (Table 7), violations
    /// per checkpoint and model (Table 15), later reversals
    /// (docs/experiments.md).
    Continuations(experiments::ContinuationsArgs),
    /// Evidence to action: score trajectories against case specs (docs/evidence.md).
    Evidence {
        #[command(subcommand)]
        command: evidence::EvidenceCommand,
    },
    /// τ²-bench results files.
    Tau2 {
        #[command(subcommand)]
        command: tau2::Tau2Command,
    },
    /// Runtime contracts (persistent vs stateless CodeAct): analyse episode
    /// logs, or simulate them with scripted policies.
    Runtime {
        #[command(subcommand)]
        command: runtime::RuntimeCommand,
    },
    /// Write a synthetic profile table as CSV (the defaults give the embedded example).
    Synth(synth::SynthArgs),
    /// Write a synthetic trajectory corpus with planted gaps (and optional
    /// planted instability): foundational.csv, trajectories.jsonl, planted.csv.
    SynthTrajectories(synth_trajectories::SynthTrajectoriesArgs),
    /// Write a synthetic corpus of intervention branch runs and
    /// continuations with planted effects: experiments.jsonl, planted.json
    /// (docs/experiments.md).
    SynthExperiments(synth_experiments::SynthExperimentsArgs),
}

/// Run one subcommand: its standard output, or the message of its error.
pub fn run(command: Command) -> Result<String, String> {
    match command {
        Command::Report(args) => report::run(&args),
        Command::Profiles(args) => profiles::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Stability(args) => stability::run(args),
        Command::Interventions(args) => experiments::run_interventions(&args),
        Command::Continuations(args) => experiments::run_continuations(&args),
        Command::Evidence { command } => evidence::run(command),
        Command::Tau2 { command } => tau2::run(command),
        Command::Runtime { command } => runtime::run(command),
        Command::Synth(args) => synth::run(&args),
        Command::SynthTrajectories(args) => synth_trajectories::run(&args),
        Command::SynthExperiments(args) => synth_experiments::run(&args),
    }
}
