//! `gapscope synth`: a synthetic profile table as CSV (the defaults give
//! the embedded example).

use clap::Args;
use gapscope_synth::profiles as synth;
use gapscope_synth::profiles::SynthParams;

#[derive(Args)]
pub struct SynthArgs {
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of families (default: the example's 8 families of 1–3 models).
    #[arg(long, requires = "per_family")]
    families: Option<usize>,
    /// Models per family (with --families).
    #[arg(long, requires = "families")]
    per_family: Option<usize>,
    /// Foundational dimensions.
    #[arg(long, default_value_t = 7)]
    foundational: usize,
    /// Operations.
    #[arg(long, default_value_t = 7)]
    operations: usize,
}

pub fn run(args: &SynthArgs) -> Result<String, String> {
    let SynthArgs {
        seed,
        families,
        per_family,
        foundational,
        operations,
    } = *args;
    // Sizes first: `sized` builds the names before anything else.
    synth::check_sizes(
        families.unwrap_or(8) as u64,
        per_family.unwrap_or(3) as u64,
        foundational as u64,
        operations as u64,
    )?;
    let mut params = match (families, per_family) {
        (Some(f), Some(k)) => SynthParams::sized(f, k, foundational, operations),
        _ => SynthParams::sized(0, 0, foundational, operations),
    };
    if families.is_none() {
        params.families = SynthParams::default().families;
    }
    params.seed = seed;
    Ok(if params == SynthParams::default() {
        synth::example_csv()
    } else {
        synth::generate(&params).table.to_csv()
    })
}
