//! `gapscope`: the command line over gapscope-core. Context (file names) is
//! added to core errors here, at the edge; every number comes from the core.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use gapscope_core::profile::RewardScale;
use gapscope_core::synth::{self, SynthParams};
use gapscope_core::{analyze, Alpha, ProfileTable, Report, RoleOverrides, Settings};

#[derive(Parser)]
#[command(
    name = "gapscope",
    version,
    about = "Capability realization gaps and agent-evaluation analyses, offline"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Scale {
    Auto,
    Fraction,
    Percent,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse a profile table: correlations, family-held-out ridge, gaps, Q².
    Report {
        /// Profile file: wide CSV or JSON (see docs/formats.md).
        #[arg(long)]
        profiles: PathBuf,
        /// Ridge penalty (> 0).
        #[arg(long, default_value_t = 10.0)]
        alpha: f64,
        /// Foundational columns, replacing the default names (TU,IS,KU,CI,RE,SM,CE).
        #[arg(long, value_delimiter = ',')]
        foundational: Option<Vec<String>>,
        /// Operation columns, replacing the default names (GI,ST,PL,AS,PM,RC,TM).
        #[arg(long, value_delimiter = ',')]
        operations: Option<Vec<String>>,
        /// Outcome column (default: `reward`).
        #[arg(long)]
        outcome: Option<String>,
        /// How reward values are scaled to 0–100.
        #[arg(long, value_enum, default_value = "auto")]
        reward_scale: Scale,
        /// Print the JSON report (docs/report.md) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write a synthetic profile table as CSV (seed 0 is the embedded example).
    Synth {
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<String, String> {
    match command {
        Command::Report {
            profiles,
            alpha,
            foundational,
            operations,
            outcome,
            reward_scale,
            json,
        } => {
            let alpha = Alpha::new(alpha).map_err(|e| format!("--alpha: {e}"))?;
            let overrides = RoleOverrides {
                foundational,
                operations,
                outcome,
                reward_scale: match reward_scale {
                    Scale::Auto => RewardScale::Auto,
                    Scale::Fraction => RewardScale::Fraction,
                    Scale::Percent => RewardScale::Percent,
                },
            };
            let table = read_profiles(&profiles, &overrides)?;
            let report = analyze(&table, &Settings { alpha })
                .map_err(|e| format!("{}: {e}", profiles.display()))?;
            if json {
                let mut s = serde_json::to_string_pretty(&report)
                    .map_err(|e| format!("writing the report: {e}"))?;
                s.push('\n');
                Ok(s)
            } else {
                Ok(text_report(&profiles, &report))
            }
        }
        Command::Synth { seed } => Ok(if seed == 0 {
            synth::example_csv()
        } else {
            synth::generate(&SynthParams {
                seed,
                ..SynthParams::default()
            })
            .table
            .to_csv()
        }),
    }
}

fn read_profiles(path: &Path, overrides: &RoleOverrides) -> Result<ProfileTable, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    ProfileTable::read(&text, overrides).map_err(|e| format!("{}: {e}", path.display()))
}

fn fmt_opt(v: Option<f64>, width: usize, prec: usize) -> String {
    match v {
        Some(x) => format!("{x:>width$.prec$}"),
        None => format!("{:>width$}", "—"),
    }
}

fn text_report(path: &Path, r: &Report) -> String {
    let mut s = format!("{}: {}\n", path.display(), r.summary);
    s.push_str(&format!(
        "held out by {} (alpha = {})\n",
        match r.folds.kind {
            gapscope_core::crossval::FoldKind::Family => "family",
            gapscope_core::crossval::FoldKind::Model => "model (leave-one-model-out)",
        },
        r.settings.alpha.get()
    ));
    for w in &r.warnings {
        s.push_str(&format!("note: {w}\n"));
    }
    let width = r
        .models
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    s.push_str(&format!(
        "\nrealization gaps (observed − held-out prediction)\n{:width$}",
        "model"
    ));
    for op in r.operations.keys() {
        s.push_str(&format!(" {op:>7}"));
    }
    s.push('\n');
    for (i, m) in r.models.iter().enumerate() {
        s.push_str(&format!("{m:width$}"));
        for fit in r.operations.values() {
            s.push_str(&format!(" {}", fmt_opt(fit.gap[i], 7, 2)));
        }
        s.push('\n');
    }
    s.push_str(&format!("{:width$}", "Q²"));
    for fit in r.operations.values() {
        s.push_str(&format!(" {}", fmt_opt(fit.q2, 7, 3)));
    }
    s.push('\n');
    s
}
