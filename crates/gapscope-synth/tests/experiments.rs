//! The synthetic experiments corpus: written as canonical JSONL and read
//! back whole, and its planted effects recovered by the intervention and
//! continuation tables, over several seeds.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::formats::jsonl::read_jsonl;
use gapscope_gaps::experiments::interventions::Contrast;
use gapscope_gaps::experiments::{continuations, interventions};
use gapscope_synth::experiments::{generate_experiments, ExperimentParams};

#[test]
fn planted_effects_are_recovered() {
    for seed in 0..5 {
        let params = ExperimentParams {
            seed,
            ..ExperimentParams::default()
        };
        let corpus = generate_experiments(&params).unwrap();
        let files = corpus.files("test").unwrap();
        let read = read_jsonl(&files[0].1);
        assert!(read.skipped.is_empty(), "{:?}", read.skipped);
        assert_eq!(read.trajectories.len(), corpus.trajectories.len());
        // Every run is an experiment's: the corpus profile is empty.
        let profile =
            gapscope_data::operations::operation_profile(&read.trajectories, &Default::default());
        assert_eq!(
            (profile.n_total, profile.n_experiment),
            (0, read.trajectories.len())
        );

        let p = &corpus.planted;
        let r = interventions(&read.trajectories, 2000, seed).unwrap();
        assert_eq!(r.cases.len(), 4 * 10 * 2);
        let eo = |model: &str, intervention: &str, measure: &str| {
            r.by_intervention
                .iter()
                .find(|x| {
                    x.model == model
                        && x.intervention == intervention
                        && x.measure == measure
                        && x.contrast == Contrast::EditedOriginal
                })
                .unwrap()
        };
        for measure in ["reward", "PL"] {
            let planted = eo(&p.repair_model, "planning_repair", measure);
            let [lo, _] = planted.interval.unwrap().bounds().unwrap();
            assert!(lo > 0.0, "seed {seed}: {measure} repair interval {lo} ≤ 0");
            // The other models' repair contrast is noise around 0: their
            // mean lies within 3 standard errors (Bernoulli p = 0.5 bounds
            // the variance of a branch mean of r runs by 0.25 / r).
            let nulls: Vec<f64> = params
                .models
                .iter()
                .filter(|m| **m != p.repair_model)
                .map(|m| eo(m, "planning_repair", measure).mean)
                .collect();
            let r_ = params.repetitions as f64;
            let se = 100.0 * (0.5 / r_ / params.tasks as f64 / nulls.len() as f64).sqrt();
            let mean = nulls.iter().sum::<f64>() / nulls.len() as f64;
            assert!(
                mean.abs() < 3.0 * se,
                "seed {seed}: {measure} null repair mean {mean} vs SE {se}"
            );
            for m in &params.models {
                let damage = eo(m, "planning_damage", measure);
                assert!(
                    damage.mean < 0.0,
                    "seed {seed}: {m} {measure} damage {}",
                    damage.mean
                );
            }
        }
        let strata: Vec<&str> = r
            .by_stratum
            .iter()
            .filter_map(|x| x.stratum.as_deref())
            .collect();
        assert!(strata.contains(&"repair") && strata.contains(&"damage"));

        let c = continuations(&read.trajectories);
        let planted_row = c
            .violations
            .iter()
            .find(|x| x.model == p.violator && x.checkpoint == p.violation_state)
            .unwrap();
        assert!(planted_row.repeated);
        let first = &planted_row.cells[0];
        assert_eq!((first.violated, first.scoreable), (3, 3), "seed {seed}");
        let others = c.violations.iter().filter(|x| x.repeated).count() - 1;
        assert!(
            others <= 1,
            "seed {seed}: {others} unplanted rows with repeated violations"
        );
        let rev = c
            .reversals
            .iter()
            .find(|x| x.model == p.violator && x.condition.as_deref() == Some("N"))
            .unwrap();
        assert!(rev.reversals >= 3, "seed {seed}");
        assert_eq!(c.coverage.len(), 2);
        assert_eq!(c.coverage[0].states, 4);
        assert_eq!(c.coverage[1].states, 2);
    }
}

/// The committed corpus (`assets/synthetic-experiments/`) is what the
/// generator makes with the default parameters. If this fails, regenerate
/// it: `cargo run -p gapscope-cli -- synth-experiments --out assets/synthetic-experiments`.
#[test]
fn committed_corpus_is_current() {
    const COMMAND: &str = "gapscope synth-experiments --seed 0 --models synth-a,synth-b,synth-c,synth-d --tasks 10 --repetitions 3 --states 4";
    let c = generate_experiments(&ExperimentParams::default()).unwrap();
    for (name, text) in c.files(COMMAND).unwrap() {
        let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/synthetic-experiments")
            .join(&name);
        let committed =
            std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(
            committed == text,
            "assets/synthetic-experiments/{name} is stale: run \
             `cargo run -p gapscope-cli -- synth-experiments --out assets/synthetic-experiments`"
        );
    }
}
