//! Argument types and parsers that several subcommands share.

use clap::ValueEnum;
use gapscope_core::analysis::MacroDefinition;
use gapscope_core::inspect::ScoreChoice;
use gapscope_core::profile::RewardScale;
use gapscope_core::trajectory::{parse_rename, MacroFromLabels};

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
    /// For the analyses of a profile table.
    pub fn to_definition(self) -> MacroDefinition {
        match self {
            MacroArg::Mean => MacroDefinition::Mean,
            MacroArg::Pooled => MacroDefinition::Pooled,
        }
    }

    /// For an operation profile formed from labels.
    pub fn to_label_macro(self) -> MacroFromLabels {
        match self {
            MacroArg::Mean => MacroFromLabels::Mean,
            MacroArg::Pooled => MacroFromLabels::Pooled,
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
