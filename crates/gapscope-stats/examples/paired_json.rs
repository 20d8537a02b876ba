//! The paired-statistics report as JSON, for the cross-check
//! `bench/compare_paired.py`.
//!
//! stdin: `{"settings": {"draws", "permutations", "seed"}, "runs": [{"name",
//! "scale": null | number, "tasks": [{"key", "rewards": [..]}]}]}`; each run's
//! rewards go through `rescale_rewards` (`scale` = the user's scale, `null` =
//! the spec's rule). stdout: `{"rescaled": [divisor | null per run], "report":
//! ComparisonReport}`. An invalid input is reported on stderr, exit code 1.
//!
//!     cargo run -p gapscope-stats --example paired_json < input.json

use std::io::Read;

use gapscope_stats::paired::{compare_runs, rescale_rewards, Run, Settings, TaskDraws};
use serde::Deserialize;

#[derive(Deserialize)]
struct Input {
    settings: InputSettings,
    runs: Vec<InputRun>,
}

#[derive(Deserialize)]
struct InputSettings {
    draws: usize,
    permutations: usize,
    seed: u64,
}

#[derive(Deserialize)]
struct InputRun {
    name: String,
    #[serde(default)]
    scale: Option<f64>,
    tasks: Vec<TaskDraws>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let input: Input = serde_json::from_str(&text)?;
    let s = &input.settings;
    let settings = Settings::new(s.draws, s.permutations, s.seed)?;
    let mut rescaled = Vec::new();
    let mut runs = Vec::new();
    for r in input.runs {
        let mut tasks = r.tasks;
        rescaled.push(rescale_rewards(&mut tasks, r.scale)?);
        runs.push((r.name, Run::new(tasks)?));
    }
    let named: Vec<(&str, &Run)> = runs.iter().map(|(n, r)| (n.as_str(), r)).collect();
    let report = compare_runs(&named, &settings);
    let out = serde_json::json!({ "rescaled": rescaled, "report": report });
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
