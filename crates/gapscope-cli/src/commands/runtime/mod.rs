//! `gapscope runtime`: runtime contracts (persistent vs stateless `CodeAct`).
//! Every number comes from `gapscope_runtime`. One module per
//! subcommand.

mod analyze;
mod simulate;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum RuntimeCommand {
    /// Analyse an episode log (JSONL): the 2×2 table per cap with intervals,
    /// runtime gaps, interaction and cap moderation, trace quantities,
    /// exposure, and Opaque Knapsack verification.
    Analyze(analyze::AnalyzeArgs),
    /// Simulate the 2×2 factorial over caps with scripted policies (not
    /// language models) and print the episode log (JSONL); `--preset
    /// addendum` simulates the addendum's views instead.
    Simulate(simulate::SimulateArgs),
}

pub fn run(command: RuntimeCommand) -> Result<String, String> {
    match command {
        RuntimeCommand::Analyze(args) => analyze::run(args),
        RuntimeCommand::Simulate(args) => simulate::run(args),
    }
}
