//! Scenario groups from gold-action signatures on the shared τ²-bench files.
//!
//! Expected groups were computed independently with a short Python script
//! (json.load; per task the sorted set of gold-action names that are
//! state-changing: tool_type "write" where any of the given files records a
//! tool_type for that tool, else not a read by the name rule get_/list_/
//! search_/find_/check_/calculate/think; joined with "+"; an empty set is
//! "no state change"), then counted per group.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::tau2::{read_results, read_tasks, Results};
use gapscope_data::trajectory::Trajectory;
use gapscope_gaps::stability::{stability, StabilitySettings};
use gapscope_gaps::task_groups::{assign_groups, gold_action_groups, ToolOverrides};

fn tau2(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/tau2")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "{}: {e}. The tests need ../shared (data) beside this clone.",
            p.display()
        )
    })
}

fn results(path: &str) -> Results {
    read_results(&tau2(path)).unwrap()
}

const CLAUDE: &str = "airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json";
const WHISSLE: &str = "airline/results/whissle-voice__airline_1trial_tau3format.json";
const RETAIL: &str = "retail/results/gpt-4.1__llm_agent__retail_test40_1trial.json";

fn counts(g: &gapscope_gaps::task_groups::GoldGroups) -> Vec<(&str, usize)> {
    g.groups.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

/// Airline v1 (no tool_type recorded: the name rule alone): 12 groups.
#[test]
fn airline_v1_by_the_name_rule() {
    let r = results(CLAUDE);
    let g = gold_action_groups(&[(CLAUDE.into(), &r)], None, &Default::default()).unwrap();
    assert_eq!(g.tasks.len(), 50);
    assert_eq!(
        counts(&g),
        [
            ("book_reservation", 5),
            ("book_reservation+cancel_reservation", 2),
            ("cancel_reservation", 4),
            ("cancel_reservation+update_reservation_flights", 3),
            ("no state change", 19),
            ("send_certificate", 3),
            ("transfer_to_human_agents", 1),
            ("update_reservation_baggages", 1),
            ("update_reservation_baggages+update_reservation_flights", 3),
            (
                "update_reservation_baggages+update_reservation_flights+update_reservation_passengers",
                2
            ),
            ("update_reservation_flights", 6),
            ("update_reservation_passengers", 1),
        ]
    );
    let d = g.describe();
    assert!(
        d.contains(
            &"tool search_direct_flight: read-only (name rule: starts with search_)".to_string()
        ),
        "{d:?}"
    );
    assert!(d.contains(
        &"tool transfer_to_human_agents: state-changing (name rule: no read prefix)".to_string()
    ));
    assert!(d
        .last()
        .unwrap()
        .starts_with("12 groups of 50 tasks by gold-action signature: book_reservation (5), "));
    // Editing the classification: transfers and certificates read-only fold
    // their 1 + 3 tasks into "no state change" (19 + 4 = 23), 10 groups.
    let o = ToolOverrides {
        write: vec![],
        read: vec!["transfer_to_human_agents".into(), "send_certificate".into()],
    };
    let g = gold_action_groups(&[(CLAUDE.into(), &r)], None, &o).unwrap();
    assert_eq!(g.groups.len(), 10);
    assert_eq!(g.groups["no state change"], 23);
}

/// τ³ airline (tool_type recorded: transfer_to_human_agents and calculate are
/// `generic`, hence not state-changing): 10 groups.
#[test]
fn airline_tau3_by_recorded_tool_types() {
    let r = results(WHISSLE);
    let g = gold_action_groups(&[(WHISSLE.into(), &r)], None, &Default::default()).unwrap();
    assert_eq!(
        counts(&g),
        [
            ("book_reservation", 5),
            ("book_reservation+cancel_reservation", 3),
            ("cancel_reservation", 3),
            ("cancel_reservation+update_reservation_flights", 1),
            ("no state change", 24),
            ("update_reservation_baggages", 1),
            ("update_reservation_baggages+update_reservation_flights", 2),
            (
                "update_reservation_baggages+update_reservation_flights+update_reservation_passengers",
                2
            ),
            ("update_reservation_flights", 8),
            ("update_reservation_passengers", 1),
        ]
    );
    let t = g
        .tools
        .iter()
        .find(|c| c.tool == "transfer_to_human_agents")
        .unwrap();
    assert_eq!(
        (t.state_changing, t.why.as_str()),
        (false, "tool_type generic recorded")
    );
    // The bare-list τ³ file has no tasks: its recorded action checks give
    // the same gold actions (SOURCE.md: they equal tasks_tau3.json 50/50).
    let bare_path = "airline/results/adaptive-agent-opus-4-6__airline_1trial_BARE_LIST.json";
    let bare = results(bare_path);
    let g2 = gold_action_groups(&[(bare_path.into(), &bare)], None, &Default::default()).unwrap();
    assert_eq!(g2.tasks.len(), 50);
    assert_eq!(g2.groups, g.groups);
    // And tasks_tau3.json given for it agrees too.
    let tasks = read_tasks(&tau2("airline/tasks_tau3.json")).unwrap();
    let g3 = gold_action_groups(
        &[(WHISSLE.into(), &r)],
        Some(("tasks_tau3.json", &tasks)),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(g3.groups, g.groups, "embedded tasks win; they are the same");
}

/// Retail test split (40 tasks, name rule): 17 groups; find_/get_ and
/// calculate read, the rest change state.
#[test]
fn retail_by_the_name_rule() {
    let r = results(RETAIL);
    let g = gold_action_groups(&[(RETAIL.into(), &r)], None, &Default::default()).unwrap();
    assert_eq!(g.tasks.len(), 40);
    assert_eq!(g.groups.len(), 17);
    assert_eq!(g.groups["exchange_delivered_order_items"], 8);
    assert_eq!(g.groups["no state change"], 3);
    assert_eq!(
        g.groups["return_delivered_order_items+transfer_to_human_agents"],
        2
    );
}

/// v1 and τ³ airline under the same ids: 7 of 50 ids differ in signature
/// (global classification); the first met in the τ³ file is task 2
/// (`send_certificate` in v1, nothing state-changing in τ³).
#[test]
fn different_task_sets_conflict() {
    let (a, b) = (results(CLAUDE), results(WHISSLE));
    let e = gold_action_groups(
        &[(CLAUDE.into(), &a), (WHISSLE.into(), &b)],
        None,
        &Default::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("task `2` has the signature `send_certificate` in {CLAUDE} but `no state change` in {WHISSLE}: they ran different task sets (or domains) under the same id; read them separately")
    );
}

/// Stability with these groups: labelled trajectories on the 50 airline
/// tasks (8 models, 4 families, labels a deterministic function of model and
/// task) split by signature: every group lands in exactly one half.
#[test]
fn stability_runs_on_signature_groups() {
    let r = results(CLAUDE);
    let g = gold_action_groups(&[(CLAUDE.into(), &r)], None, &Default::default()).unwrap();
    let models: Vec<(String, String)> = (0..8)
        .map(|i| (format!("m{i}"), format!("fam{}", i / 2)))
        .collect();
    let mut trajectories = Vec::new();
    for (i, (m, f)) in models.iter().enumerate() {
        for (k, task) in g.tasks.keys().enumerate() {
            let l = |o: usize| -> Option<f64> { Some(((i * 7 + k * 3 + o) % 3) as f64 / 2.0) };
            let labels = [("GI", l(0)), ("PL", l(1))]
                .into_iter()
                .map(|(op, v)| (op.to_string(), vec![v]))
                .collect();
            trajectories.push(Trajectory {
                id: format!("{m}-{task}"),
                model: m.clone(),
                family: Some(f.clone()),
                task_id: task.clone(),
                scenario_group: None,
                trial: Some(0),
                reward: Some(1.0),
                termination_reason: None,
                messages: vec![],
                labels,
                ..Default::default()
            });
        }
    }
    let grouped = assign_groups(&trajectories, &g).unwrap();
    let mut csv = String::from("model,family,TU,RE\n");
    for (i, (m, f)) in models.iter().enumerate() {
        csv.push_str(&format!("{m},{f},{},{}\n", 50 + i * 3, 70 - (i * 5) % 11));
    }
    let f = gapscope_data::ProfileTable::read(&csv, &Default::default()).unwrap();
    let rep = stability(
        &f,
        &grouped,
        &StabilitySettings {
            bootstrap: 0,
            splits: 0,
            ..Default::default()
        },
    )
    .unwrap();
    let mut halves = [rep.half_a.clone(), rep.half_b.clone()].concat();
    halves.sort();
    let want: Vec<String> = g.groups.keys().cloned().collect();
    assert_eq!(halves, want);
    assert_eq!(rep.tasks_a + rep.tasks_b, 50);
    // Balanced by task count: the rule puts each group into the smaller half,
    // so the halves differ by at most the largest group (19 tasks).
    assert!((rep.tasks_a as i64 - rep.tasks_b as i64).abs() <= 19);
}
