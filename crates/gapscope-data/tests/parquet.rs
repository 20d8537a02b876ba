//! Parquet trajectory datasets (`formats::parquet`, the `parquet` feature)
//! on the fixtures of `tests/fixtures/parquet/`, written by
//! `scripts/make-parquet-fixtures.py` with pyarrow.
//!
//! The expected numbers were counted by pyarrow, not by gapscope:
//! `python3 scripts/make-parquet-fixtures.py --count` reads each file with
//! `pyarrow.parquet.read_table` and prints its rows, row groups, and per row
//! the length of the messages list and the number of tool calls; the
//! rewards, roles, ids and models are the values the script writes (its
//! `rows` tables), checked against `read_table(...).to_pylist()` by hand.
//!
//!     canonical_{snappy,plain}: rows 5, row groups 3, messages [7, 5, 9, 5, 3], tool calls [2, 1, 3, 1, 0]
//!     nebius_swe_agent:  rows 3, row groups 1, messages [6, 4, 8], tool calls [0, 0, 0]
//!     openhands_rebench: rows 4, row groups 1, messages [7, 5, 3, 5], tool calls [3, 2, 1, 2]
//!     swe_smith:         rows 2, row groups 1, messages [6, 4], tool calls [2, 1]

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::formats::{detect_bytes, read_any_bytes, ReadOptions, TrajectoryFormat};

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/parquet")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn parquet_is_detected_by_its_magic_in_every_build() {
    for name in [
        "canonical_snappy.parquet",
        "canonical_plain.parquet",
        "hostile/zstd.parquet",
    ] {
        assert_eq!(
            detect_bytes(&data(name)),
            Some(TrajectoryFormat::Parquet),
            "{name}"
        );
    }
    assert_eq!(
        TrajectoryFormat::Parquet.label(),
        "Parquet trajectory dataset"
    );
}

#[cfg(not(feature = "parquet"))]
#[test]
fn a_build_without_the_feature_says_so() {
    let e = read_any_bytes(
        "a.parquet",
        &data("canonical_snappy.parquet"),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(e.contains("built without the `parquet` feature"), "{e}");
}

#[cfg(feature = "parquet")]
mod with_the_reader {
    use super::*;
    use gapscope_data::formats::Corpus;

    fn read(name: &str) -> Corpus {
        read_any_bytes(name, &data(name), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn counts(c: &Corpus) -> (Vec<usize>, Vec<usize>) {
        (
            c.trajectories.iter().map(|t| t.messages.len()).collect(),
            c.trajectories
                .iter()
                .map(|t| t.messages.iter().map(|m| m.tool_calls.len()).sum())
                .collect(),
        )
    }

    #[test]
    fn canonical_snappy_and_uncompressed_read_the_same() {
        let snappy = read("canonical_snappy.parquet");
        let plain = read("canonical_plain.parquet");
        assert_eq!(snappy.format, Some(TrajectoryFormat::Parquet));
        assert_eq!(snappy.trajectories, plain.trajectories);
        assert_eq!(counts(&snappy), (vec![7, 5, 9, 5, 3], vec![2, 1, 3, 1, 0]));
        assert!(snappy.skipped.is_empty(), "{:?}", snappy.skipped);
        let t = &snappy.trajectories;
        let tasks: Vec<&str> = t.iter().map(|t| t.task_id.as_str()).collect();
        assert_eq!(
            tasks,
            [
                "astropy__astropy-12907",
                "django__django-11099",
                "sympy__sympy-20590",
                "astropy__astropy-12907",
                "django__django-11099"
            ]
        );
        // No id column: instance_id and the row (0-based, across row groups).
        assert_eq!(t[4].id, "django__django-11099#4");
        assert_eq!(t[0].model, "gpt-4o-2024-08-06");
        assert_eq!(t[3].model, "claude-3-5-sonnet-20241022");
        // reward, else resolved → 1/0, else none.
        let rewards: Vec<Option<f64>> = t.iter().map(|t| t.reward).collect();
        assert_eq!(rewards, [Some(1.0), Some(0.0), Some(0.25), Some(1.0), None]);
        assert!(t
            .iter()
            .all(|t| t.domain.is_none() && t.source_id.is_none()));
        // Tool calls with ids, arguments parsed from JSON text, results matched.
        let m = &t[0].messages;
        assert_eq!(m[2].role, "assistant");
        assert_eq!(
            m[2].tool_calls[0].id.as_deref(),
            Some("call_astropy__astropy-12907-0")
        );
        assert_eq!(m[2].tool_calls[0].name, "bash");
        assert_eq!(
            m[2].tool_calls[0].arguments,
            serde_json::json!({"command": "grep -rn bug src/0.py"})
        );
        assert_eq!(m[3].role, "tool");
        assert_eq!(
            m[3].tool_call_id.as_deref(),
            Some("call_astropy__astropy-12907-0")
        );
        assert_eq!(m[3].content, Some(serde_json::json!("src/0.py:1: bug")));
        assert!(snappy.notes.is_empty(), "{:?}", snappy.notes);
        let w = snappy.warnings.join("\n");
        assert!(w.contains("names no task set"), "{w}");
    }

    #[test]
    fn nebius_swe_agent_trajectories() {
        let c = read("nebius_swe_agent.parquet");
        assert_eq!(counts(&c), (vec![6, 4, 8], vec![0, 0, 0]));
        let t = &c.trajectories;
        // `target` (the patch passed the tests) → 1/0; `text` → content; `ai` → assistant.
        let rewards: Vec<Option<f64>> = t.iter().map(|t| t.reward).collect();
        assert_eq!(rewards, [Some(1.0), Some(0.0), Some(0.0)]);
        assert_eq!(t[2].model, "swe-agent-qwen-72b");
        assert_eq!(t[0].messages[2].role, "assistant");
        assert_eq!(
            t[0].messages[1].content,
            Some(serde_json::json!(
                "We're currently solving the following issue: pydicom__pydicom-1694"
            ))
        );
        assert_eq!(
            t[1].termination_reason.as_deref(),
            Some("submitted (exit_cost)")
        );
        // The system message has no text (its prompt is in `system_prompt`, not read).
        assert_eq!(t[0].messages[0].content, None);
    }

    #[test]
    fn openhands_rebench_trajectories() {
        let name = "some/folder/openhands_rebench.parquet";
        let c = read_any_bytes(
            name,
            &data("openhands_rebench.parquet"),
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(counts(&c), (vec![7, 5, 3, 5], vec![3, 2, 1, 2]));
        let t = &c.trajectories;
        let ids: Vec<&str> = t.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "chatcmpl-0001",
                "chatcmpl-0002",
                "chatcmpl-0003",
                "chatcmpl-0004"
            ]
        );
        assert_eq!(
            t[0].source_id.as_deref(),
            Some("parquet\u{1f}chatcmpl-0001")
        );
        // `resolved` int64 0/1, null → none; `dataset` → the task set.
        let rewards: Vec<Option<f64>> = t.iter().map(|t| t.reward).collect();
        assert_eq!(rewards, [Some(1.0), Some(0.0), Some(0.0), None]);
        let domains: Vec<Option<&str>> = t.iter().map(|t| t.domain.as_deref()).collect();
        assert_eq!(
            domains,
            [
                Some("SWE-rebench"),
                Some("SWE-rebench"),
                Some("SWE-Gym"),
                Some("SWE-rebench")
            ]
        );
        // No model column: the file's name, said so.
        assert!(t.iter().all(|t| t.model == "openhands_rebench"));
        assert!(
            c.warnings
                .iter()
                .any(|w| w.contains("no `model_name` or `model` column")),
            "{:?}",
            c.warnings
        );
        assert_eq!(t[0].details[0].label, "repository");
        assert_eq!(t[0].details[0].value, serde_json::json!("PyPSA/linopy"));
        let last = t[0].messages.last().unwrap();
        assert_eq!(last.tool_calls[0].name, "finish");
        assert_eq!(last.content, None);
        // --model names them all.
        let given = ReadOptions {
            model: Some("qwen3-coder".into()),
            ..ReadOptions::default()
        };
        let c = read_any_bytes(name, &data("openhands_rebench.parquet"), &given).unwrap();
        assert!(c.trajectories.iter().all(|t| t.model == "qwen3-coder"));
        assert!(
            !c.warnings.iter().any(|w| w.contains("model")),
            "{:?}",
            c.warnings
        );
    }

    #[test]
    fn swe_smith_messages_in_json_text() {
        let c = read("swe_smith.parquet");
        assert_eq!(counts(&c), (vec![6, 4], vec![2, 1]));
        let t = &c.trajectories;
        assert_eq!(t[0].id, "t-1");
        assert_eq!(t[0].model, "claude-3-7-sonnet-20250219");
        assert_eq!(t[0].reward, Some(1.0));
        assert_eq!(t[1].reward, Some(0.0));
        assert_eq!(t[0].messages[3].tool_call_id.as_deref(), Some("c0"));
        assert_eq!(
            t[0].messages[1].content,
            Some(
                serde_json::json!([{"type": "text", "text": "Solve oauthlib__oauthlib.1fd52536.combine_file__09vlzwgc"}])
            )
        );
    }

    #[test]
    fn a_light_read_keeps_the_counts() {
        let light = ReadOptions {
            light: true,
            ..ReadOptions::default()
        };
        let c = read_any_bytes("c.parquet", &data("canonical_snappy.parquet"), &light).unwrap();
        let n: Vec<usize> = c
            .trajectories
            .iter()
            .map(|t| t.message_stats().messages)
            .collect();
        assert_eq!(n, [7, 5, 9, 5, 3]);
        assert!(c.trajectories.iter().all(|t| t.messages.is_empty()));
    }
}
