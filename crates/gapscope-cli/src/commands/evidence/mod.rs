//! `gapscope evidence`: score trajectories against evidence-to-action case
//! specs (docs/evidence.md), write the worked case set, and derive proxy
//! operation labels from τ²-bench results files. One module per subcommand.

mod analyses;
mod score;
mod tau2_labels;
mod worked;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum EvidenceCommand {
    /// Score trajectories against case specs: per-episode verdicts with failure
    /// types, then ECS, coverage, failure decomposition, investigation effort,
    /// paired comparisons by protocol, case-set composition, decision
    /// readiness and the intervention analyses.
    Score(score::ScoreArgs),
    /// Write the worked case set (cases.jsonl, trajectories.jsonl) to a folder.
    Worked(worked::WorkedArgs),
    /// Proxy operation labels (ST, AS, RC, TM) from τ²-bench results files, as
    /// a label CSV on stdout (docs/proxy-labels.md). Proxies from the trace,
    /// not the paper's annotations; GI, PL and PM stay unlabelled.
    #[command(name = "tau2-labels")]
    Tau2Labels(tau2_labels::Tau2LabelsArgs),
}

pub fn run(command: EvidenceCommand) -> Result<String, String> {
    match command {
        EvidenceCommand::Tau2Labels(args) => tau2_labels::run(args),
        EvidenceCommand::Worked(args) => worked::run(&args),
        EvidenceCommand::Score(args) => score::run(&args),
    }
}

/// The text of an input file (whole, under the input cap).
fn read(path: &std::path::Path) -> Result<String, String> {
    Ok(crate::input::read_input_text(
        path,
        crate::input::MAX_INPUT_BYTES,
    )?)
}

/// The side column's width: the longest side label (at least 24).
pub(crate) fn side_width(r: &gapscope_evidence::EvidenceReport) -> usize {
    r.sides
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0)
        .max(24)
}

/// `text` left-aligned in `width` characters (never cut).
pub(crate) fn pad(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// A rate in percent with one decimal; "—" when undefined.
pub(crate) fn pct(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{:.1}", 100.0 * v))
}
