//! `gapscope runtime simulate`: the 2×2 factorial over caps with scripted
//! policies (not language models), printed as an episode log (JSONL); with
//! `--preset addendum`, the addendum's views (carryover conditions, horizons,
//! seeds, control families, teacher traces), also scripted.

use clap::{Args, ValueEnum};
use gapscope_runtime::Condition;
use gapscope_synth::runtime_sim::{self, SimParams};
use gapscope_synth::runtime_sim_addendum::{self, AddendumParams};

/// Which simulation to run (described on `--preset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Preset {
    Default,
    Addendum,
}

#[derive(Args)]
pub struct SimulateArgs {
    /// `default`: the 2×2 factorial over the caps (every flag below applies).
    /// `addendum`: the addendum's views, scripted: P->S+carry and
    /// +carry_announced in two batches, two horizons with classified failed
    /// calls and context overflow, seeds --seed and --seed + 1, navigation and
    /// rule_diagnosis control episodes, teacher traces for the SFT filter; it
    /// honours --seed and --instances only.
    #[arg(long, value_enum, default_value_t = Preset::Default, hide_possible_values = true)]
    preset: Preset,
    #[arg(long, default_value_t = 30)]
    items: usize,
    #[arg(long, default_value_t = 4)]
    classes: usize,
    /// Allowed classes (of --classes).
    #[arg(long, default_value_t = 3)]
    allowed: usize,
    #[arg(long, default_value_t = 40)]
    capacity: u64,
    /// Distinct inspections allowed.
    #[arg(long, default_value_t = 20)]
    budget: u64,
    #[arg(long, default_value_t = 20)]
    max_weight: u64,
    #[arg(long, default_value_t = 60)]
    max_value: u64,
    /// Per-turn caps.
    #[arg(long, value_delimiter = ',', default_values_t = [5u32, 20, 30, 60])]
    caps: Vec<u32>,
    /// Instances (each runs under every cap and condition) [default: 8;
    /// addendum preset: 4 knapsack instances per seed].
    #[arg(long)]
    instances: Option<usize>,
    /// The seed (addendum preset: the first of two seeds).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long, default_value_t = 0)]
    rollout: u64,
    #[arg(long, default_value_t = 24)]
    turn_limit: u32,
    /// Probability that a model call fails and spends a turn.
    #[arg(long, default_value_t = 0.05)]
    failed_call_rate: f64,
    /// Conditions to run, e.g. PP,PS (default: all four).
    #[arg(long, value_delimiter = ',')]
    conditions: Vec<String>,
}

pub fn run(args: SimulateArgs) -> Result<String, String> {
    let SimulateArgs {
        preset,
        items,
        classes,
        allowed,
        capacity,
        budget,
        max_weight,
        max_value,
        caps,
        instances,
        seed,
        rollout,
        turn_limit,
        failed_call_rate,
        conditions,
    } = args;
    if preset == Preset::Addendum {
        let defaults = AddendumParams::default();
        let params = AddendumParams {
            seeds: vec![seed, seed.wrapping_add(1)],
            instances: instances.unwrap_or(defaults.instances),
            ..defaults
        };
        let episodes =
            runtime_sim_addendum::simulate_addendum(&params).map_err(|e| format!("--{e}"))?;
        eprintln!(
            "{} simulated episodes, addendum preset ({})",
            episodes.len(),
            runtime_sim::LABEL
        );
        return gapscope_runtime::write_jsonl(&episodes)
            .map_err(|e| format!("writing the log: {e}"));
    }
    let instances = instances.unwrap_or(8);
    let conditions = if conditions.is_empty() {
        Condition::ALL.to_vec()
    } else {
        conditions
            .iter()
            .map(
                |c| match c.trim().to_uppercase().replace("->", "").as_str() {
                    "PP" => Ok(Condition::PP),
                    "PS" => Ok(Condition::PS),
                    "SP" => Ok(Condition::SP),
                    "SS" => Ok(Condition::SS),
                    other => Err(format!(
                        "--conditions: expected PP, PS, SP or SS, got `{other}`"
                    )),
                },
            )
            .collect::<Result<Vec<_>, _>>()?
    };
    let params = SimParams {
        items,
        classes,
        allowed,
        capacity,
        budget,
        max_weight,
        max_value,
        caps,
        instances,
        seed,
        turn_limit,
        failed_call_rate,
        conditions,
        rollout,
    };
    let episodes = runtime_sim::simulate(&params).map_err(|e| format!("--{e}"))?;
    eprintln!(
        "{} simulated episodes ({})",
        episodes.len(),
        runtime_sim::LABEL
    );
    gapscope_runtime::write_jsonl(&episodes).map_err(|e| format!("writing the log: {e}"))
}
