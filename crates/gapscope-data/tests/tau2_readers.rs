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

/// The viewer's record of a τ²-bench simulation, checked against the file's
/// own JSON on every simulation of every shared results file that has an
/// object form: each `reward_breakdown` entry is a score with its value,
/// each NL assertion, communicate check and environment assertion a score
/// with its verdict, and the duration, costs and the task's scenario are
/// details.
#[test]
fn reward_components_and_the_task_scenario_are_kept() {
    use serde_json::Value;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tau2");
    assert!(
        dir.is_dir(),
        "{} is missing: the tests need ../shared",
        dir.display()
    );
    let mut checked = (0, 0, 0);
    for domain in ["airline", "retail", "telecom"] {
        for e in std::fs::read_dir(dir.join(domain).join("results")).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let raw: Value = serde_json::from_str(&text).unwrap();
            let sims = match &raw {
                Value::Array(a) => a.clone(),
                v => v["simulations"].as_array().unwrap().clone(),
            };
            let ts = to_trajectories(&read_results(&text).unwrap(), "m", "f");
            assert_eq!(ts.len(), sims.len());
            for (t, s) in ts.iter().zip(&sims) {
                let ri = &s["reward_info"];
                let breakdown = ri["reward_breakdown"]
                    .as_object()
                    .cloned()
                    .unwrap_or_default();
                for (k, v) in &breakdown {
                    let sc = t.scores.iter().find(|x| &x.scorer == k).unwrap();
                    assert_eq!(&sc.value, v, "{k}");
                }
                let verdicts = |key: &str, scorer: &str, text: &str| {
                    let want: Vec<(Option<String>, Value)> = ri[key]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .map(|c| (c[text].as_str().map(String::from), c["met"].clone()))
                                .collect()
                        })
                        .unwrap_or_default();
                    let got: Vec<(Option<String>, Value)> = t
                        .scores
                        .iter()
                        .filter(|x| x.scorer == scorer)
                        .map(|x| (x.answer.clone(), x.value.clone()))
                        .collect();
                    assert_eq!(got, want, "{} {key}", p.display());
                    want.len()
                };
                checked.0 += verdicts("nl_assertions", "NL assertion", "nl_assertion");
                checked.1 += verdicts("communicate_checks", "communicate", "info");
                let env = ri["env_assertions"].as_array().map_or(0, Vec::len);
                assert_eq!(
                    t.scores
                        .iter()
                        .filter(|x| x.scorer == "env assertion")
                        .count(),
                    env
                );
                let detail = |l: &str| {
                    t.details
                        .iter()
                        .find(|d| d.label == l)
                        .map(|d| d.value.clone())
                };
                if let Some(d) = s["duration"].as_f64() {
                    assert_eq!(detail("duration (seconds)"), Some(Value::from(d)));
                }
                if let Some(tasks) = raw.get("tasks").and_then(Value::as_array) {
                    let task = tasks.iter().find(|x| x["id"] == s["task_id"]).unwrap();
                    assert_eq!(
                        detail("user scenario").as_ref(),
                        Some(&task["user_scenario"])
                    );
                    checked.2 += 1;
                }
            }
        }
    }
    // Every kind is exercised by the shared files.
    assert!(
        checked.0 > 100 && checked.1 > 40 && checked.2 > 100,
        "{checked:?}"
    );
}
