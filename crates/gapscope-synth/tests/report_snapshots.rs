//! JSON snapshots (insta) of the three papers' reports on built-in data, so
//! that a refactor of any layer shows every changed number as a diff: the
//! realization-gaps `Report` of the embedded example, the `EvidenceReport`
//! of the worked set, and the `RuntimeReport` of a small simulated log.
//!
//! Serialized as the structs are (field order kept). Redactions: the crate
//! version; and, marked `[cut: …]` in the snapshot, the parts that only echo
//! committed inputs or repeat per-episode detail pinned elsewhere, to keep
//! each snapshot reviewable. Every number of the analyses stays.
//! Review changes with `cargo insta review`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::ProfileTable;
use gapscope_evidence::{evaluate, EvidenceSettings};
use gapscope_gaps::{analyze, Settings};
use gapscope_runtime::log::Condition;
use gapscope_runtime::RuntimeSettings;
use gapscope_runtime::{analyze as analyze_runtime, write_jsonl};
use gapscope_synth::runtime_sim::simulate;
use gapscope_synth::runtime_sim::SimParams;

/// The page's first view: the embedded example at the default settings
/// (10,000 family-bootstrap draws, seed 0, alpha 10).
#[test]
fn gaps_report_of_the_example() {
    let table = ProfileTable::read(
        &gapscope_synth::profiles::example_csv(),
        &Default::default(),
    )
    .unwrap();
    let report = analyze(&table, &Settings::default()).unwrap();
    insta::assert_json_snapshot!(report, {
        ".version" => "[version]",
        ".input" => "[cut: the table analysed, the committed example (example_is_current.rs)]",
    });
}

/// The worked evidence-to-action set at the default settings: every report
/// table (coverage, ECS, by domain, failures, effort curves, paired,
/// readiness, composition, interventions); the episode lists behind each
/// figure are cut (their ids are checked in gapscope-synth's
/// evidence_worked tests and the page's browser tests).
#[test]
fn evidence_report_of_the_worked_set() {
    let report = evaluate(
        include_str!("../../../assets/evidence/cases.jsonl"),
        include_str!("../../../assets/evidence/trajectories.jsonl"),
        &EvidenceSettings::default(),
    )
    .unwrap();
    insta::assert_json_snapshot!(report, {
        ".cases" => "[cut: the case specs read, assets/evidence/cases.jsonl]",
        ".episodes" => "[cut: 816 episode verdicts, in the CLI's evidence_score_worked_text snapshot]",
        ".effort[].episode_points" => "[cut: per-episode points of the curve]",
        ".readiness[].episode_ids" => "[cut: the curve's episodes]",
        ".failures[].segments[].episode_ids" => "[cut: the segment's episodes]",
        ".interventions.first_action[].curves[].episodes" => "[cut: the curve's episodes]",
        ".interventions.distractors[].episodes" => "[cut: the matched episodes]",
        ".interventions.evidence[].treatment.probed_ids" => "[cut]",
        ".interventions.evidence[].treatment.episode_ids" => "[cut]",
        ".interventions.evidence[].reference.probed_ids" => "[cut]",
        ".interventions.evidence[].reference.episode_ids" => "[cut]",
        ".interventions.static_vs_interactive[].legacy_ids" => "[cut]",
        ".**.per_case" => "[cut: per-case values]",
        ".**.case_ids" => "[cut: the row's cases]",
    });
}

/// A small simulation (2 instances, caps 5 and 60, the four conditions,
/// 12 items) analysed with 2,000 draws: every table and trace, each
/// episode's metrics.
#[test]
fn runtime_report_of_a_simulated_log() {
    let params = SimParams {
        items: 12,
        budget: 8,
        capacity: 25,
        caps: vec![5, 60],
        instances: 2,
        conditions: Condition::ALL.to_vec(),
        ..SimParams::default()
    };
    let log = write_jsonl(&simulate(&params).unwrap()).unwrap();
    let settings = RuntimeSettings {
        bootstrap: 2000,
        ..RuntimeSettings::default()
    };
    let report = analyze_runtime(&log, &settings).unwrap();
    insta::assert_json_snapshot!(report, {
        ".episodes[].episode" => "[cut: the episode read, as simulated]",
        ".episodes[].turns" => "[cut: per-turn markers]",
    });
}
