//! `gapscope runtime`: runtime contracts (persistent vs stateless `CodeAct`).
//! Every number comes from `gapscope_runtime`. One module per
//! subcommand.

mod addendum;
mod analyze;
mod filter;
mod simulate;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum RuntimeCommand {
    /// Analyse an episode log (JSONL): the 2×2 table per cap with intervals,
    /// runtime gaps, interaction and cap moderation, trace quantities,
    /// exposure, and Opaque Knapsack verification.
    Analyze(analyze::AnalyzeArgs),
    /// The SFT trace validity filter (Table 8) over teacher traces: per
    /// teacher and runtime the traces failing each rule (R1 score, R2
    /// finish, R3 loop, R4 errors), the valid ones and the dual-valid pair
    /// yield, with every invalid trace's evidence.
    Filter(filter::FilterArgs),
    /// Simulate the 2×2 factorial over caps with scripted policies (not
    /// language models) and print the episode log (JSONL); `--preset
    /// addendum` simulates the addendum's views instead.
    Simulate(simulate::SimulateArgs),
}

pub fn run(command: RuntimeCommand) -> Result<String, String> {
    match command {
        RuntimeCommand::Analyze(args) => analyze::run(args),
        RuntimeCommand::Filter(args) => filter::run(args),
        RuntimeCommand::Simulate(args) => simulate::run(args),
    }
}

/// A number with `prec` decimals (signed: with its sign), `—` when undefined.
pub(crate) fn num(v: Option<f64>, prec: usize, signed: bool) -> String {
    match v {
        Some(x) if signed => format!("{x:+.prec$}"),
        Some(x) => format!("{x:.prec$}"),
        None => "—".into(),
    }
}

/// An interval `[lo, hi]`, empty when there is none.
pub(crate) fn ci(c: Option<[f64; 2]>, signed: bool) -> String {
    match c {
        Some([lo, hi]) => format!(
            "[{}, {}]",
            num(Some(lo), 2, signed),
            num(Some(hi), 2, signed)
        ),
        None => String::new(),
    }
}

/// `P->S` or `P->S+carry`.
pub(crate) fn arm_label(c: gapscope_runtime::Condition, intervention: Option<&str>) -> String {
    match intervention {
        None => c.label().to_string(),
        Some(k) => format!("{}+{k}", c.label()),
    }
}
