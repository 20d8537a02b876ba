//! `gapscope synth-trajectories`: a synthetic trajectory corpus with planted
//! gaps (and optional planted instability) written to a folder.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gapscope_synth::trajectories::{check_sizes, generate, TrajParams};

#[derive(Args)]
pub struct SynthTrajectoriesArgs {
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of families (default: the paper's 15 models in 8 families).
    #[arg(long, requires = "per_family")]
    families: Option<usize>,
    /// Models per family (with --families).
    #[arg(long, requires = "families")]
    per_family: Option<usize>,
    #[arg(long, default_value_t = 60)]
    tasks: usize,
    /// Scenario groups (task t in group t mod groups).
    #[arg(long, default_value_t = 12)]
    groups: usize,
    /// Attempts per model and task.
    #[arg(long, default_value_t = 1)]
    trials: usize,
    /// SD (score points) of a per-model, per-group deviation (0: none).
    #[arg(long, default_value_t = 0.0)]
    instability: f64,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
}

/// Write the corpus to `out` (created if needed); returns a one-line summary.
pub fn run(args: &SynthTrajectoriesArgs) -> Result<String, String> {
    let SynthTrajectoriesArgs {
        seed,
        families,
        per_family,
        tasks,
        groups,
        trials,
        instability,
        ref out,
    } = *args;
    // Sizes first: `sized` builds the family names, so a huge count aborted
    // allocating before `generate` validated anything.
    let (f, k) = match (families, per_family) {
        (Some(f), Some(k)) => (f as u64, k as u64),
        _ => (15, 1),
    };
    check_sizes(f, k, tasks as u64, trials as u64)?;
    let base = match (families, per_family) {
        (Some(f), Some(k)) => TrajParams::sized(f, k),
        _ => TrajParams::default(),
    };
    let params = TrajParams {
        seed,
        tasks,
        groups,
        trials,
        instability,
        ..base
    };
    let corpus = generate(&params)?;
    let mut command = format!("gapscope synth-trajectories --seed {seed}");
    if let (Some(f), Some(k)) = (families, per_family) {
        let _ = write!(command, " --families {f} --per-family {k}");
    }
    let _ = write!(
        command,
        " --tasks {tasks} --groups {groups} --trials {trials} --instability {instability}"
    );
    let files = corpus.files(&command).map_err(|e| e.to_string())?;
    let written = crate::output::write_files(out, &files)?;
    Ok(format!(
        "{} trajectories of {} models in {} families ({} tasks in {} groups, {} trial(s), instability {}) written to {}: {}\n",
        corpus.trajectories.len(),
        corpus.foundational.n_models(),
        params.families.len(),
        tasks,
        groups,
        trials,
        instability,
        out.display(),
        written
    ))
}
