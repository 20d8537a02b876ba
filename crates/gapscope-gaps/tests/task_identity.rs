//! Task identity is (domain, task id) (spec: formats.md, "Task identity";
//! issue 14 item 1): airline task `32` and retail task `32` are different
//! tasks, in the common-task subset, the profile and the overview.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::ingest::{read_inputs, Messages, TrajectoryOptions};
use gapscope_data::operations::{operation_profile, ProfileOptions};
use gapscope_gaps::overview::overview_of_inputs;

fn shared(rel: &str) -> (String, Vec<u8>) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/tau2")
        .join(rel);
    let bytes = std::fs::read(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (the tests need ../shared)", p.display()));
    (rel.to_string(), bytes)
}

const AIRLINE: &str = "airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json";
const RETAIL: &str = "retail/results/gpt-4.1__llm_agent__retail_test40_1trial.json";
const BARE: &str = "airline/results/adaptive-agent-opus-4-6__airline_1trial_BARE_LIST.json";

#[test]
fn an_airline_and_a_retail_model_share_no_task() {
    let files = vec![shared(AIRLINE), shared(RETAIL)];
    let inputs = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap();
    let ts = &inputs.corpus.trajectories;
    // The two files share bare task ids (the bug merged them).
    let airline_ids: std::collections::HashSet<&str> = ts
        .iter()
        .filter(|t| t.domain.as_deref() == Some("airline"))
        .map(|t| t.task_id.as_str())
        .collect();
    let shared_ids = ts
        .iter()
        .filter(|t| t.domain.as_deref() == Some("retail"))
        .filter(|t| airline_ids.contains(t.task_id.as_str()))
        .count();
    assert!(shared_ids > 0, "the files should share bare ids");
    let p = operation_profile(ts, &ProfileOptions::default());
    assert_eq!(p.models.len(), 2);
    assert!(p.tasks.is_empty(), "{:?}", p.tasks);
    assert_eq!(p.n_used, 0);
    assert_eq!(p.reward, vec![None, None]);
    // Every task: named `domain/id`, as many as the two files' distinct ids.
    let all = operation_profile(
        ts,
        &ProfileOptions {
            all_tasks: true,
            ..Default::default()
        },
    );
    let distinct: std::collections::HashSet<(Option<&str>, &str)> = ts
        .iter()
        .map(|t| (t.domain.as_deref(), t.task_id.as_str()))
        .collect();
    assert_eq!(all.tasks.len(), distinct.len());
    assert!(all.tasks.iter().any(|t| t.starts_with("retail/")));
    assert!(all.tasks.iter().any(|t| t.starts_with("airline/")));
    // The list names tasks the same way.
    let o = overview_of_inputs(&inputs, &TrajectoryOptions::default()).unwrap();
    assert!(o.trajectories.iter().all(|r| !r.used));
    assert!(o
        .trajectories
        .iter()
        .all(|r| r.task_id.starts_with("airline/") || r.task_id.starts_with("retail/")));
}

#[test]
fn one_domain_keeps_bare_task_names() {
    let files = vec![shared(AIRLINE)];
    let inputs = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap();
    let p = operation_profile(&inputs.corpus.trajectories, &ProfileOptions::default());
    assert!(!p.tasks.is_empty());
    assert!(p.tasks.iter().all(|t| !t.contains('/')), "{:?}", p.tasks);
}

#[test]
fn a_bare_list_is_of_domain_unknown_with_a_warning_unless_given() {
    let files = vec![shared(AIRLINE), shared(BARE)];
    let inputs = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap();
    let warned: Vec<&String> = inputs
        .notes
        .iter()
        .filter(|n| n.contains("names no domain"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", inputs.notes);
    assert!(warned[0].starts_with(BARE), "{}", warned[0]);
    let p = operation_profile(&inputs.corpus.trajectories, &ProfileOptions::default());
    // `unknown` tasks match no airline task.
    assert!(p.tasks.is_empty(), "{:?}", p.tasks);
    // Given the domain, the bare list's tasks are airline tasks.
    let options = TrajectoryOptions {
        domain: Some("airline".into()),
        ..Default::default()
    };
    let inputs = read_inputs(&files, &options, &Messages::Counts).unwrap();
    assert!(!inputs.notes.iter().any(|n| n.contains("names no domain")));
    let p = operation_profile(&inputs.corpus.trajectories, &ProfileOptions::default());
    assert!(!p.tasks.is_empty());
    assert!(p.tasks.iter().all(|t| !t.contains('/')));
}

#[test]
fn canonical_lines_carry_their_domain() {
    let text = r#"{"id": "a", "model": "M1", "domain": "airline", "task_id": "1", "reward": 1}
{"id": "b", "model": "M2", "domain": "retail", "task_id": "1", "reward": 0}
{"id": "c", "model": "M1", "domain": "retail", "task_id": "1", "reward": 1}
"#;
    let c = gapscope_data::formats::read_jsonl(text);
    let p = operation_profile(&c.trajectories, &ProfileOptions::default());
    // Only retail/1 is attempted by both models.
    assert_eq!(p.tasks, ["retail/1"]);
    assert_eq!(p.reward, vec![Some(100.0), Some(0.0)]);
}
