//! `scripts/bench-compare.sh` (or `cargo bench -p gapscope-stats --bench compare`)
//!
//! The comparison benchmark of issue 17: 10 runs × 1,000 tasks × 4 binary
//! trials (seeded synthetic rewards), every one of the 45 pairs with
//! B = 10,000 bootstrap draws and the permutation tests, the run summaries
//! (x̄, pass^1..4, pass@1..4 on the same draws) and the rank intervals —
//! `gapscope_stats::paired::compare_runs`, as `gapscope compare` runs it.
//! Next to it, measured in the same run, a plain reference: the 45 paired
//! bootstraps of Δ alone, each drawing its own 10,000 × 1,000 task indices
//! from the same PRNG and summing the per-task differences (the least any
//! comparison does). No timing is asserted anywhere: speed is read here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::disallowed_methods)]

use std::hint::black_box;
use std::time::Instant;

use gapscope_stats::paired::{compare_pair, compare_runs, summarize_run, Run, Settings, TaskDraws};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const RUNS: usize = 10;
const TASKS: usize = 1_000;
const TRIALS: usize = 4;
const DRAWS: usize = 10_000;

fn median_s(mut f: impl FnMut(), reps: usize) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

/// Run r solves task t with probability p_t shifted by r's skill.
fn runs() -> Vec<Run> {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let difficulty: Vec<f64> = (0..TASKS).map(|_| rng.random_range(0.05..0.95)).collect();
    (0..RUNS)
        .map(|r| {
            let skill = (r as f64 - 4.5) * 0.02;
            let tasks = (0..TASKS)
                .map(|t| TaskDraws {
                    key: format!("bench/{t:04}"),
                    rewards: (0..TRIALS)
                        .map(|_| {
                            f64::from(u8::from(
                                rng.random_bool((difficulty[t] + skill).clamp(0.0, 1.0)),
                            ))
                        })
                        .collect(),
                })
                .collect();
            Run::new(tasks).unwrap()
        })
        .collect()
}

/// The paired bootstraps of Δ alone, one stream per pair.
fn reference(means: &[Vec<f64>]) -> f64 {
    let mut total = 0.0;
    for a in 0..RUNS {
        for b in a + 1..RUNS {
            let d: Vec<f64> = means[a].iter().zip(&means[b]).map(|(x, y)| x - y).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            let n = u32::try_from(d.len()).unwrap();
            for _ in 0..DRAWS {
                let mut s = 0.0;
                for _ in 0..d.len() {
                    s += d[rng.random_range(0..n) as usize];
                }
                total += s;
            }
        }
    }
    total
}

fn main() {
    let runs = runs();
    let named: Vec<(String, &Run)> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("run{i}"), r))
        .collect();
    let named: Vec<(&str, &Run)> = named.iter().map(|(n, r)| (n.as_str(), *r)).collect();
    let settings = Settings::new(DRAWS, 10_000, 0).unwrap();
    let means: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| {
            r.tasks()
                .iter()
                .map(|t| t.rewards.iter().sum::<f64>() / t.rewards.len() as f64)
                .collect()
        })
        .collect();
    let reps = 3;
    let full = median_s(
        || {
            black_box(compare_runs(black_box(&named), &settings));
        },
        reps,
    );
    let plain = median_s(
        || {
            black_box(reference(black_box(&means)));
        },
        reps,
    );
    let one_run = median_s(
        || {
            black_box(summarize_run(black_box(&runs[0]), &settings));
        },
        reps,
    );
    let one_pair = median_s(
        || {
            black_box(compare_pair(black_box(&runs[0]), &runs[1], &settings));
        },
        reps,
    );
    let no_draws = Settings::new(0, 10_000, 0).unwrap();
    let pair_exact = median_s(
        || {
            black_box(compare_pair(black_box(&runs[0]), &runs[1], &no_draws));
        },
        reps,
    );
    let report = compare_runs(&named, &settings);
    let methods: std::collections::BTreeSet<String> = report
        .pairs
        .iter()
        .map(|p| format!("{:?}", p.comparison.permutation.method))
        .collect();
    println!(
        "compare: {RUNS} runs × {TASKS} tasks × {TRIALS} trials, {} pairs, B = {DRAWS} (permutation: {})",
        report.pairs.len(),
        methods.into_iter().collect::<Vec<_>>().join(", ")
    );
    println!("  gapscope compare_runs (everything)         {full:8.3} s   (target ≤ 2 s)");
    println!("  reference: 45 paired bootstraps of Δ only  {plain:8.3} s");
    println!(
        "  ratio gapscope / reference                 {:8.2}",
        full / plain
    );
    println!(
        "  of which, alone: one run's summary {one_run:.3} s, one pair {one_pair:.3} s (each drawing its own indices); one pair without the bootstrap {pair_exact:.3} s"
    );
}
