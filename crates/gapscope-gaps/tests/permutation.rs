//! Permutation p-values of held-out Q² (inference::permutation) against a
//! naive loop with the same PRNG: each permutation's Q² by row refits
//! (`held_out_ridge`) and the reference metrics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::ProfileTable;
use gapscope_gaps::inference::permutation::{q2_permutation_test, shuffle, PERMUTATION_TIE};
use gapscope_gaps::{analyze, Settings};
use gapscope_stats::heldout::reference::{held_out_ridge, Folds, Metrics};
use gapscope_synth::profiles as synth;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn example() -> ProfileTable {
    let mut t = synth::generate(&Default::default()).table;
    // A missing cell stays where it is under permutation.
    t.operations.values[4][2] = None;
    t
}

#[test]
fn p_values_equal_a_naive_loop_with_the_same_draws() {
    let table = example();
    let settings = Settings {
        bootstrap: 0,
        nested: false,
        ..Settings::default()
    };
    let report = analyze(&table, &settings).unwrap();
    let groups = Folds::for_models(&table.models, &table.families).group_index();
    let p_count = 199;
    for (k, name) in table.operations.names.iter().enumerate() {
        let target = table.operations.column(k);
        let got = q2_permutation_test(
            &table.foundational.values,
            &target,
            &groups,
            settings.alpha,
            p_count,
            settings.seed,
        );
        let q2 = report.operations[name].q2.unwrap();
        assert!((got.q2.unwrap() - q2).abs() < 1e-9, "{name} observed Q²");
        // Naive: permute the defined values, refit every fold.
        let at: Vec<usize> = (0..target.len()).filter(|&i| target[i].is_some()).collect();
        let mut values: Vec<f64> = at.iter().map(|&i| target[i].unwrap()).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        let (mut hits, mut skipped) = (0usize, 0usize);
        for _ in 0..p_count {
            shuffle(&mut values, &mut rng);
            let mut permuted = target.clone();
            for (&i, v) in at.iter().zip(&values) {
                permuted[i] = Some(*v);
            }
            let h = held_out_ridge(
                &table.foundational.values,
                &permuted,
                &groups,
                settings.alpha,
            )
            .unwrap();
            match Metrics::compute(&permuted, &h.predicted, &h.baseline).q2 {
                Some(v) if v >= q2 - PERMUTATION_TIE => hits += 1,
                Some(_) => {}
                None => skipped += 1,
            }
        }
        assert_eq!(got.skipped, skipped, "{name}");
        let want = (1 + hits) as f64 / (1 + p_count - skipped) as f64;
        assert_eq!(got.p.unwrap(), want, "{name}: p");
    }
}

#[test]
fn a_strong_signal_is_significant_and_noise_is_not() {
    // Target = the first foundational column (held-out Q² near 1) vs a
    // target unrelated to F (a fixed pseudo-random sequence).
    let table = example();
    let groups = Folds::for_models(&table.models, &table.families).group_index();
    let signal: Vec<Option<f64>> = table.foundational.values.iter().map(|r| r[0]).collect();
    let t = q2_permutation_test(
        &table.foundational.values,
        &signal,
        &groups,
        gapscope_stats::Alpha::new(1.0).unwrap(),
        999,
        0,
    );
    assert!(t.p.unwrap() <= 0.01, "{t:?}");
    let noise: Vec<Option<f64>> = (0..table.n_models())
        .map(|i| Some(((i * 7919) % 13) as f64))
        .collect();
    let t = q2_permutation_test(
        &table.foundational.values,
        &noise,
        &groups,
        gapscope_stats::Alpha::new(10.0).unwrap(),
        999,
        0,
    );
    assert!(t.p.unwrap() > 0.05, "{t:?}");
    // P = 0: no p.
    let none = q2_permutation_test(
        &table.foundational.values,
        &signal,
        &groups,
        gapscope_stats::Alpha::new(1.0).unwrap(),
        0,
        0,
    );
    assert_eq!(none.p, None);
}

#[test]
fn every_fit_is_tested_and_its_observed_q2_is_the_reports() {
    use gapscope_gaps::inference::permutation::permutation_tests;
    let table = synth::generate(&Default::default()).table;
    let settings = Settings {
        bootstrap: 0,
        nested: false,
        ..Settings::default()
    };
    let r = analyze(&table, &settings).unwrap();
    let all = permutation_tests(&table, &settings, 99).unwrap();
    for (name, fit) in &r.operations {
        assert!(
            (all.operations[name].q2.unwrap() - fit.q2.unwrap()).abs() < 1e-9,
            "{name}"
        );
        assert!(all.operations[name].p.is_some());
    }
    assert!((all.macro_fit.q2.unwrap() - r.macro_fit.fit.q2.unwrap()).abs() < 1e-9);
    let o = r.outcome.unwrap();
    for (k, fit) in [("F", &o.f), ("O", &o.o), ("F+O", &o.fo)] {
        assert!(
            (all.reward[k].q2.unwrap() - fit.q2.unwrap()).abs() < 1e-9,
            "reward from {k}"
        );
    }
}

/// ΔQ²(F+O − F): the observed value is the report's paired difference, and
/// the p-value equals a naive loop (the same permutations of O's rows, F+O
/// refitted by row refits, Q²(F) fixed on the same models).
#[test]
fn delta_q2_equals_a_naive_loop_of_row_refits() {
    use gapscope_gaps::inference::permutation::delta_q2_permutation_test;
    let table = synth::generate(&Default::default()).table;
    let settings = Settings {
        bootstrap: 0,
        nested: false,
        ..Settings::default()
    };
    let r = analyze(&table, &settings).unwrap();
    let p_count = 49;
    let got = delta_q2_permutation_test(&table, &settings, p_count).unwrap();
    let want = r.differences.as_ref().unwrap()["F+O - F"].q2.unwrap();
    assert!(
        (got.q2.unwrap() - want).abs() < 1e-9,
        "observed ΔQ² {:?} vs {want}",
        got.q2
    );
    let groups = Folds::for_models(&table.models, &table.families).group_index();
    let y = table.reward.clone().unwrap();
    let f = &table.foundational.values;
    let o = &table.operations.values;
    let hf = held_out_ridge(f, &y, &groups, settings.alpha).unwrap();
    let q2_f = Metrics::compute(&y, &hf.predicted, &hf.baseline)
        .q2
        .unwrap();
    let n = table.n_models();
    let members: Vec<usize> = (0..n).collect();
    let mut order = members.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut hits = 0usize;
    for _ in 0..p_count {
        shuffle(&mut order, &mut rng);
        let rows: Vec<Vec<Option<f64>>> = members
            .iter()
            .zip(&order)
            .map(|(&to, &from)| f[to].iter().chain(&o[from]).copied().collect())
            .collect();
        let h = held_out_ridge(&rows, &y, &groups, settings.alpha).unwrap();
        let d = Metrics::compute(&y, &h.predicted, &h.baseline).q2.unwrap() - q2_f;
        if d >= want - PERMUTATION_TIE {
            hits += 1;
        }
    }
    assert_eq!(got.skipped, 0);
    assert_eq!(got.p.unwrap(), (1 + hits) as f64 / (1 + p_count) as f64);
}
