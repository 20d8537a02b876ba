//! The consuming τ²-bench conversion (used by `read_any`, for speed) gives
//! exactly the trajectories of the borrowing one, and the light read (message
//! contents skipped) the full read's, lightened, on every shared results
//! file; format detection does not depend on line structure (the bare-list
//! file is one 2.7 MB line).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::tau2::{into_trajectories, read_results, to_trajectories};
use gapscope_data::formats::{detect, read_any_bytes, ReadOptions, TrajectoryFormat};

#[test]
fn into_and_to_trajectories_agree_on_every_shared_file() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tau2");
    assert!(
        dir.is_dir(),
        "{} is missing: the tests need ../shared",
        dir.display()
    );
    let mut stack = vec![dir];
    let mut n = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if !p.to_string_lossy().contains("/results/") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            assert_eq!(
                detect(&text),
                Some(TrajectoryFormat::Tau2),
                "{}",
                p.display()
            );
            let r = read_results(&text).unwrap();
            let name = p.display().to_string();
            assert_eq!(
                into_trajectories(r.clone(), "m", &name),
                to_trajectories(&r, "m", &name),
                "{name}"
            );
            // A light read (contents skipped by the parser) gives the full
            // read's trajectories, lightened.
            let light = ReadOptions {
                light: true,
                ..ReadOptions::default()
            };
            let mut full = read_any_bytes(&name, text.as_bytes(), &ReadOptions::default()).unwrap();
            for t in &mut full.trajectories {
                t.lighten();
            }
            assert!(full
                .trajectories
                .iter()
                .any(|t| t.message_stats().messages > 0));
            assert_eq!(
                read_any_bytes(&name, text.as_bytes(), &light).unwrap(),
                full,
                "{name}"
            );
            n += 1;
        }
    }
    assert_eq!(n, 13, "the 13 shared results files");
}

/// Gold actions travel with each trajectory: one per recorded action check,
/// and their `matched` (re-checked with τ²-bench's rule) equals the recorded
/// `action_match` — except where the file records checks of another task
/// (toolorchestra: `tau2 check` reports those simulations as mislabelled).
#[test]
fn gold_actions_are_the_recorded_checks_rechecked() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../../shared/data/tau2/airline/results/gpt-4.1__llm_agent__airline_test20_1trial.json",
    );
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the tests need ../shared)", path.display()));
    let r = read_results(&text).unwrap();
    let ts = to_trajectories(&r, "m", "f");
    let (mut checks, mut unmatched) = (0, 0);
    for (s, t) in r.simulations.iter().zip(&ts) {
        assert_eq!(t.gold_actions.len(), s.action_checks().len());
        for (c, g) in s.action_checks().iter().zip(&t.gold_actions) {
            assert_eq!(g.name, c.action.name);
            assert_eq!(g.matched, c.action_match, "{}: {}", t.id, g.name);
            checks += 1;
            unmatched += usize::from(!g.matched);
        }
    }
    assert!(
        checks > 0 && unmatched > 0,
        "{checks} checks, {unmatched} unmatched"
    );
    // The consuming conversion gives the same gold actions.
    let moved = into_trajectories(r, "m", "f");
    assert_eq!(moved, ts);
}
