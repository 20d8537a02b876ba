//! Gap intervals (inference::gap_intervals) against a naive implementation
//! that refits every fold per draw with the same draws (the same PRNG
//! consumed in the same order, each draw's gaps by `held_out_gaps`), and
//! the resampling against its distribution.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)]

use gapscope_data::operations::{operation_samples, ProfileOptions};
use gapscope_data::profile::{MacroDefinition, ProfileTable};
use gapscope_gaps::analysis::held_out_gaps;
use gapscope_gaps::inference::gap_intervals::{gap_intervals, Resampler};
use gapscope_gaps::Settings;
use gapscope_stats::bootstrap::percentile;
use gapscope_synth::trajectories as synth;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The synthetic trajectory corpus's operation profile joined to its
/// foundational profile, and the samples behind it.
fn corpus() -> (ProfileTable, gapscope_data::operations::OperationSamples) {
    let c = synth::generate(&synth::TrajParams {
        families: ["A", "B", "C", "D"]
            .iter()
            .map(|f| ((*f).to_string(), 2))
            .collect(),
        tasks: 12,
        groups: 3,
        ..Default::default()
    })
    .unwrap();
    let samples = operation_samples(&c.trajectories, &ProfileOptions::default());
    (c.joined_table().unwrap(), samples)
}

fn interval(mut d: Vec<f64>) -> [f64; 2] {
    d.sort_by(f64::total_cmp);
    [percentile(&d, 2.5).unwrap(), percentile(&d, 97.5).unwrap()]
}

#[test]
fn intervals_equal_a_refit_of_every_fold_per_draw() {
    let (table, samples) = corpus();
    let settings = Settings {
        bootstrap: 200,
        seed: 7,
        nested: false,
        ..Settings::default()
    };
    let got = gap_intervals(&table, &settings, &samples).unwrap();
    assert!(got.without.is_empty());
    let n = table.n_models();
    let q = table.operations.names.len();
    // The same draws: each (model, operation) from its own PRNG stream.
    let row = |i: usize| {
        samples
            .models
            .iter()
            .position(|m| m == &table.models[i])
            .unwrap()
    };
    let col = |k: usize| {
        samples
            .operations
            .iter()
            .position(|o| o == &table.operations.names[k])
            .unwrap()
    };
    let res: Vec<Vec<Resampler>> = (0..n)
        .map(|i| {
            (0..q)
                .map(|k| Resampler::new(&samples.s[row(i)][col(k)]).unwrap())
                .collect()
        })
        .collect();
    // Each (model, operation) its own stream of the seeded PRNG.
    let mut streams: Vec<Vec<ChaCha8Rng>> = (0..n)
        .map(|i| {
            (0..q)
                .map(|k| {
                    let mut rng = ChaCha8Rng::seed_from_u64(7);
                    rng.set_stream((i * (q + 1) + k) as u64);
                    rng
                })
                .collect()
        })
        .collect();
    let mut gaps = vec![vec![Vec::new(); n]; q];
    let mut macro_gaps = vec![Vec::new(); n];
    for _ in 0..settings.bootstrap {
        let o: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..q)
                    .map(|k| 100.0 * res[i][k].draw_mean(&mut streams[i][k]))
                    .collect()
            })
            .collect();
        // Every fold refitted, on this draw's scores.
        let targets: Vec<Vec<Option<f64>>> = (0..q)
            .map(|k| (0..n).map(|i| Some(o[i][k])).collect())
            .chain(std::iter::once(
                (0..n)
                    .map(|i| Some(o[i].iter().sum::<f64>() / q as f64))
                    .collect(),
            ))
            .collect();
        let g = held_out_gaps(&table, &targets, settings.alpha);
        for i in 0..n {
            for k in 0..q {
                gaps[k][i].push(g[k][i].unwrap());
            }
            macro_gaps[i].push(g[q][i].unwrap());
        }
    }
    let close = |a: [f64; 2], b: [f64; 2], what: &str| {
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x - y).abs() <= 1e-9 * (1.0 + y.abs()),
                "{what}: {a:?} vs {b:?}"
            );
        }
    };
    for (k, name) in table.operations.names.iter().enumerate() {
        for i in 0..n {
            close(
                got.operations[name][i].unwrap(),
                interval(gaps[k][i].clone()),
                &format!("{name} {i}"),
            );
        }
    }
    for i in 0..n {
        close(
            got.macro_gap[i].unwrap(),
            interval(macro_gaps[i].clone()),
            &format!("macro {i}"),
        );
    }
    // The point gap lies in most intervals (a sanity check, not exact).
    let report = gapscope_gaps::analyze(&table, &settings).unwrap();
    let inside = table
        .operations
        .names
        .iter()
        .flat_map(|name| {
            let fit = &report.operations[name];
            let iv = &got.operations[name];
            (0..n).map(move |i| {
                let [lo, hi] = iv[i].unwrap();
                let g = fit.gap[i].unwrap();
                lo - 1e-9 <= g && g <= hi + 1e-9
            })
        })
        .filter(|&x| x)
        .count();
    assert!(
        inside * 10 >= n * q * 8,
        "{inside} of {} point gaps inside",
        n * q
    );
}

#[test]
fn a_table_score_has_no_interval_and_pooled_macro_resamples_trajectories() {
    let (mut table, mut samples) = corpus();
    // The first model's scores as if a table gave them.
    samples.models[0] = "someone else".into();
    table.pooled_macro = Some(
        table
            .pooled_macro
            .clone()
            .unwrap_or_else(|| vec![Some(50.0); table.n_models()]),
    );
    let settings = Settings {
        bootstrap: 100,
        macro_definition: MacroDefinition::Pooled,
        nested: false,
        ..Settings::default()
    };
    let got = gap_intervals(&table, &settings, &samples).unwrap();
    assert_eq!(got.without, vec![table.models[0].clone()]);
    assert!(got.operations.values().all(|v| v[0].is_none()));
    assert!(got.macro_gap[0].is_none());
    assert!(got.macro_gap[1..].iter().all(Option::is_some));
    // B = 0: no draws, no intervals.
    let none = gap_intervals(
        &table,
        &Settings {
            bootstrap: 0,
            ..settings
        },
        &samples,
    )
    .unwrap();
    assert!(none.macro_gap.iter().all(Option::is_none));
}

/// A resample's mean has the bootstrap distribution: its mean is the sample mean, its variance σ²/n (population
/// σ²), within Monte Carlo error; one distinct value is always itself.
#[test]
fn resampling_has_the_bootstrap_distribution() {
    let values = [0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.25];
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let r = Resampler::new(&values).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let draws: Vec<f64> = (0..40_000).map(|_| r.draw_mean(&mut rng)).collect();
    let m = draws.iter().sum::<f64>() / draws.len() as f64;
    let v = draws.iter().map(|d| (d - m).powi(2)).sum::<f64>() / draws.len() as f64;
    let se_mean = (var / n / draws.len() as f64).sqrt();
    assert!((m - mean).abs() <= 5.0 * se_mean, "mean {m} vs {mean}");
    assert!(
        (v / (var / n) - 1.0).abs() < 0.05,
        "variance {v} vs {}",
        var / n
    );
    // Every draw is a mean of n of the values: a multiple of 0.25 / n.
    assert!(draws
        .iter()
        .all(|d| ((d * n * 4.0) - (d * n * 4.0).round()).abs() < 1e-9));
    let one = Resampler::new(&[0.5; 6]).unwrap();
    assert!((0..100).all(|_| one.draw_mean(&mut rng) == 0.5));
    assert!(Resampler::new(&[]).is_none());
}

/// A resample's mean has the exact multinomial distribution: over 200,000
/// draws of 9 values with 3 distinct ones, every possible mean's frequency
/// is within 5 binomial SDs of its probability, computed here by the
/// multinomial formula over every count vector (an independent
/// computation; 9 is not a power of two, so index rejection takes part).
#[test]
fn resample_means_have_the_multinomial_distribution() {
    let values = [0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0];
    let (n, m) = (9u32, [4u32, 2, 3]);
    let v = [0.0, 0.5, 1.0];
    let r = Resampler::new(&values).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let draws = 200_000;
    // Means are multiples of 0.5/9: key by 18·mean.
    let mut seen = std::collections::BTreeMap::<i64, usize>::new();
    for _ in 0..draws {
        *seen
            .entry((r.draw_mean(&mut rng) * 18.0).round() as i64)
            .or_default() += 1;
    }
    let fact = |k: u32| (1..=k).map(f64::from).product::<f64>();
    let mut want = std::collections::BTreeMap::<i64, f64>::new();
    for a in 0..=n {
        for b in 0..=n - a {
            let c = n - a - b;
            let p = fact(n) / (fact(a) * fact(b) * fact(c))
                * (f64::from(m[0]) / 9.0).powi(a as i32)
                * (f64::from(m[1]) / 9.0).powi(b as i32)
                * (f64::from(m[2]) / 9.0).powi(c as i32);
            let mean = (f64::from(a) * v[0] + f64::from(b) * v[1] + f64::from(c) * v[2]) / 9.0;
            *want.entry((mean * 18.0).round() as i64).or_default() += p;
        }
    }
    assert!((want.values().sum::<f64>() - 1.0).abs() < 1e-12);
    for (key, &p) in &want {
        let got = *seen.get(key).unwrap_or(&0) as f64 / f64::from(draws);
        let sd = (p * (1.0 - p) / f64::from(draws)).sqrt();
        assert!(
            (got - p).abs() <= 5.0 * sd + 1e-12,
            "mean {key}/18: {got} vs {p}"
        );
    }
    assert!(seen.keys().all(|k| want.contains_key(k)));
}
