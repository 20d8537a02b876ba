//! `analysis::analyze` on arbitrary parsed data: a small ProfileTable built
//! from the fuzz bytes (3–12 models, 1–4 foundational dimensions, 1–4
//! operations, missing cells, any finite values — a profile file can carry
//! 1e308 — ties and constant columns), small bootstrap and penalty grid.
#![no_main]
use gapscope_data::profile::Block;
use gapscope_data::ProfileTable;
use gapscope_gaps::analysis::{AlphaGrid, MacroDefinition};
use gapscope_gaps::{analyze, Settings};
use gapscope_stats::Alpha;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

fn value(u: &mut Unstructured) -> Result<Option<f64>> {
    Ok(match u.int_in_range(0..=9u8)? {
        0 => None,
        1 => {
            let x = f64::from_bits(u.arbitrary::<u64>()?);
            x.is_finite().then_some(x)
        }
        2 => Some(0.0),
        // Mostly small integers (ties, constant columns), sometimes halves.
        k => Some(f64::from(u.int_in_range(0..=4u8)?) * if k == 3 { 0.5 } else { 1.0 }),
    })
}

fn block(u: &mut Unstructured, prefix: &str, n: usize, k: usize) -> Result<Block> {
    let names = (0..k).map(|j| format!("{prefix}{j}")).collect();
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        let mut row = Vec::with_capacity(k);
        for _ in 0..k {
            row.push(value(u)?);
        }
        values.push(row);
    }
    Ok(Block { names, values })
}

fn build(u: &mut Unstructured) -> Result<(ProfileTable, Settings)> {
    let n = u.int_in_range(3..=12usize)?;
    let p = u.int_in_range(1..=4usize)?;
    let q = u.int_in_range(1..=4usize)?;
    let g = u.int_in_range(1..=5u8)?;
    let mut families = Vec::with_capacity(n);
    for _ in 0..n {
        families.push(format!("F{}", u.int_in_range(0..=g - 1)?));
    }
    let foundational = block(u, "f", n, p)?;
    let operations = block(u, "o", n, q)?;
    let reward = if u.arbitrary::<bool>()? {
        let mut r = Vec::with_capacity(n);
        for _ in 0..n {
            r.push(value(u)?);
        }
        Some(r)
    } else {
        None
    };
    let pooled_macro = if u.arbitrary::<bool>()? {
        let mut r = Vec::with_capacity(n);
        for _ in 0..n {
            r.push(value(u)?);
        }
        Some(r)
    } else {
        None
    };
    let table = ProfileTable {
        models: (0..n).map(|i| format!("m{i}")).collect(),
        families,
        foundational,
        operations,
        outcome_column: reward.as_ref().map(|_| "reward".to_string()),
        reward,
        reward_scaled: false,
        ignored: Vec::new(),
        pooled_macro,
    };
    let alpha =
        Alpha::new(10f64.powi(i32::from(u.int_in_range(-4..=6i8)?))).unwrap_or(Alpha::DEFAULT);
    let settings = Settings {
        alpha,
        bootstrap: u.int_in_range(0..=8usize)?,
        seed: u.arbitrary()?,
        macro_definition: if u.arbitrary::<bool>()? {
            MacroDefinition::Pooled
        } else {
            MacroDefinition::Mean
        },
        grid: AlphaGrid::new(1e-2, 1e4, u.int_in_range(2..=4usize)?).unwrap_or_default(),
        nested: u.arbitrary()?,
    };
    Ok((table, settings))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok((table, settings)) = build(&mut u) {
        if let Ok(report) = analyze(&table, &settings) {
            // The report serializes (the CLI's --json, the worker's answer).
            assert!(serde_json::to_string(&report).is_ok());
        }
    }
});
