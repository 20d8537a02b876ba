//! Argument types and parsers that several subcommands share.

use clap::ValueEnum;
use gapscope_data::formats::inspect::ScoreChoice;
use gapscope_data::profile::long::LongColumns;
use gapscope_data::profile::RewardScale;
use gapscope_data::trajectory::parse_rename;
use gapscope_gaps::analysis::MacroDefinition;

/// How reward values are scaled to 0–100 (`--reward-scale`).
#[derive(Clone, Copy, ValueEnum)]
pub enum Scale {
    Auto,
    Fraction,
    Percent,
}

impl Scale {
    pub fn reward_scale(self) -> RewardScale {
        match self {
            Scale::Auto => RewardScale::Auto,
            Scale::Fraction => RewardScale::Fraction,
            Scale::Percent => RewardScale::Percent,
        }
    }
}

/// The macro operation score (`--macro`).
#[derive(Clone, Copy, ValueEnum)]
pub enum MacroArg {
    Mean,
    Pooled,
}

impl MacroArg {
    /// The core's one definition (for a profile table's analyses and for an
    /// operation profile formed from labels alike).
    pub fn to_definition(self) -> MacroDefinition {
        match self {
            MacroArg::Mean => MacroDefinition::Mean,
            MacroArg::Pooled => MacroDefinition::Pooled,
        }
    }
}

/// `--rename OLD=NEW`, each.
pub fn parse_renames(renames: &[String]) -> Result<Vec<(String, String)>, String> {
    renames
        .iter()
        .map(|r| parse_rename(r).map_err(|e| format!("--rename: {e}")))
        .collect()
}

/// `--scorer SCORER[:KEY]` (none: the default choice).
pub fn parse_scorer(scorer: Option<&str>) -> Result<ScoreChoice, String> {
    match scorer {
        Some(s) => ScoreChoice::parse(s).map_err(|e| format!("--scorer: {e}")),
        None => Ok(ScoreChoice::default()),
    }
}

/// `--long model=M,dimension=D,score=S[,family=F]` (none: long tables are
/// recognised by their header only).
pub fn parse_long(spec: Option<&str>) -> Result<Option<LongColumns>, String> {
    spec.map(|s| LongColumns::parse(s).map_err(|e| format!("--long: {e}")))
        .transpose()
}
