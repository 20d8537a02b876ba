//! `gapscope synth-experiments`: a synthetic corpus of intervention branch
//! runs and continuations with planted effects, written to a folder.

use std::path::PathBuf;

use clap::Args;
use gapscope_synth::experiments::{generate_experiments, ExperimentParams};

#[derive(Args)]
pub struct SynthExperimentsArgs {
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Models (comma-separated); the first gets the planted repair effect,
    /// the last the planted repeated violations.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "synth-a,synth-b,synth-c,synth-d"
    )]
    models: Vec<String>,
    /// Tasks with an intervention checkpoint (5 or more give intervals).
    #[arg(long, default_value_t = 10)]
    tasks: usize,
    /// Runs per branch and continuations per (state, model, round, condition).
    #[arg(long, default_value_t = 3)]
    repetitions: usize,
    /// Continuation states (at least 2).
    #[arg(long, default_value_t = 4)]
    states: usize,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
}

/// Write the corpus to `out` (created if needed); returns a one-line summary.
pub fn run(args: &SynthExperimentsArgs) -> Result<String, String> {
    let params = ExperimentParams {
        seed: args.seed,
        models: args.models.clone(),
        tasks: args.tasks,
        repetitions: args.repetitions,
        states: args.states,
    };
    let corpus = generate_experiments(&params)?;
    let command = format!(
        "gapscope synth-experiments --seed {} --models {} --tasks {} --repetitions {} --states {}",
        params.seed,
        params.models.join(","),
        params.tasks,
        params.repetitions,
        params.states
    );
    let out = &args.out;
    let files = corpus.files(&command).map_err(|e| e.to_string())?;
    let written = crate::output::write_files(out, &files)?;
    Ok(format!(
        "{} runs of {} models ({} intervention tasks, {} continuation states, {} repetitions) written to {}: {}\n",
        corpus.trajectories.len(),
        params.models.len(),
        params.tasks,
        params.states,
        params.repetitions,
        out.display(),
        written
    ))
}
