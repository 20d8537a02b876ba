//! `stability::stability` on arbitrary parsed data: trajectories of 3–8
//! models over a few tasks and scenario groups with 0/0.5/1/null labels and
//! rewards, a foundational table for those models, small bootstrap and few
//! splits, and sometimes a hand-given half A or a group regex from the input.
#![no_main]
use gapscope_data::profile::Block;
use gapscope_data::trajectory::Trajectory;
use gapscope_data::ProfileTable;
use gapscope_gaps::stability::{stability, StabilitySettings};
use gapscope_stats::Alpha;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

fn label(u: &mut Unstructured) -> Result<Option<f64>> {
    Ok([None, Some(0.0), Some(0.5), Some(1.0)][u.int_in_range(0..=3usize)?])
}

fn build(u: &mut Unstructured) -> Result<(ProfileTable, Vec<Trajectory>, StabilitySettings)> {
    let n = u.int_in_range(3..=8usize)?;
    let p = u.int_in_range(1..=3usize)?;
    let tasks = u.int_in_range(1..=6usize)?;
    let groups = u.int_in_range(1..=4usize)?;
    let mut values = Vec::new();
    for _ in 0..n {
        let mut row = Vec::new();
        for _ in 0..p {
            row.push(match u.int_in_range(0..=5u8)? {
                0 => None,
                _ => Some(f64::from(u.int_in_range(0..=100u8)?)),
            });
        }
        values.push(row);
    }
    let models: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
    let mut families = Vec::new();
    for _ in 0..n {
        families.push(format!("F{}", u.int_in_range(0..=2u8)?));
    }
    let f = ProfileTable {
        models: models.clone(),
        families,
        foundational: Block {
            names: (0..p).map(|j| format!("f{j}")).collect(),
            values,
        },
        operations: Block::default(),
        reward: None,
        outcome_column: None,
        reward_scaled: false,
        ignored: Vec::new(),
        pooled_macro: None,
    };
    let ops = ["GI", "PL", "RC"];
    let count = u.int_in_range(0..=60usize)?;
    let mut trajectories = Vec::new();
    for i in 0..count {
        let task = u.int_in_range(0..=tasks - 1)?;
        let mut labels = gapscope_data::trajectory::Trajectory {
            id: format!("t{i}"),
            model: models[u.int_in_range(0..=n - 1)?].clone(),
            family: None,
            task_id: format!("task-{task}"),
            scenario_group: match u.int_in_range(0..=9u8)? {
                0 => None,
                _ => Some(format!("g{}", task % groups)),
            },
            trial: None,
            reward: Some(f64::from(u.int_in_range(0..=2u8)?) / 2.0),
            termination_reason: None,
            messages: Vec::new(),
            labels: Default::default(),
            domain: None,
            gold_actions: Vec::new(),
            stats: None,
            source_id: None,
            details: Vec::new(),
        };
        for op in ops {
            if u.arbitrary::<bool>()? {
                let k = u.int_in_range(0..=3usize)?;
                let mut l = Vec::new();
                for _ in 0..k {
                    l.push(label(u)?);
                }
                labels.labels.insert(op.to_string(), l);
            }
        }
        trajectories.push(labels);
    }
    let half_a = if u.int_in_range(0..=3u8)? == 0 {
        Some(vec![format!("g{}", u.int_in_range(0..=4u8)?)])
    } else {
        None
    };
    let group_regex = if u.int_in_range(0..=5u8)? == 0 {
        let len = u.int_in_range(0..=12usize)?;
        let bytes = u.bytes(len)?;
        Some(String::from_utf8_lossy(bytes).into_owned())
    } else {
        None
    };
    let s = StabilitySettings {
        alpha: Alpha::DEFAULT,
        bootstrap: u.int_in_range(0..=5usize)?,
        seed: u.arbitrary()?,
        splits: u.int_in_range(0..=3u64)?,
        half_a,
        group_regex,
        macro_definition: Default::default(),
    };
    Ok((f, trajectories, s))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok((f, t, s)) = build(&mut u) {
        let _ = stability(&f, &t, &s);
    }
});
