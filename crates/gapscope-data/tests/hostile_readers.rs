//! Names in trajectory files (issue 14 item 9, second half): an empty or
//! space-padded model name (or trajectory id, family) was accepted and then
//! reported at a line of the internal profile CSV, or trimmed silently; names
//! over 4 KiB went through. Now they are refused where they are read: a
//! canonical JSONL line is skipped with its line, a τ²-bench or Inspect file
//! whose model comes from its metadata (or the user's model name) is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_data::formats::{read_any_bytes, read_jsonl, ReadOptions};
use gapscope_data::ingest::{read_file, InputFile, Messages, ReadError, TrajectoryOptions};

fn line(id: &str, model: &str, family: Option<&str>) -> String {
    let mut v = serde_json::json!({"id": id, "model": model, "task_id": "x", "reward": 1.0});
    if let Some(f) = family {
        v["family"] = f.into();
    }
    v.to_string()
}

#[test]
fn bad_names_on_jsonl_lines_are_skipped_at_their_line() {
    let long = "m".repeat(4097);
    let text = [
        line("t1", " M", None),
        line("t2", "", None),
        line("t3", "M", Some("F ")),
        line(&"i".repeat(5000), "M", None),
        line("t5", &long, None),
        line("t6", "M", Some("F")),
        line(" t7", "M", None),
        line("t8", &"m".repeat(4096), None),
    ]
    .join("\n");
    let c = read_jsonl(&text);
    let ids: Vec<&str> = c.trajectories.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["t6", "t8"], "a 4096-byte name is allowed");
    let skipped: Vec<String> = c
        .skipped
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(
        skipped,
        [
            "line 1: trajectory `t1`: model name ` M` is padded with spaces",
            "line 2: trajectory `t2`: the model name is empty",
            "line 3: trajectory `t3`: family name `F ` is padded with spaces",
            "line 4: the trajectory id is 5000 bytes long; names are at most 4096 bytes (4 KiB)",
            "line 5: trajectory `t5`: the model name is 4097 bytes long; names are at most 4096 bytes (4 KiB)",
            "line 7: trajectory id ` t7` is padded with spaces",
        ]
    );
    // A model name given for every trajectory replaces the lines' own.
    let given = ReadOptions {
        model: Some("Given".into()),
        ..Default::default()
    };
    let c = read_any_bytes("t.jsonl", line("t1", " M", None).as_bytes(), &given).unwrap();
    assert_eq!(c.trajectories[0].model, "Given");
    assert!(c.skipped.is_empty());
}

fn tau2(llm: &str, sim_id: &str) -> String {
    serde_json::json!({
        "info": {"agent_info": {"llm": llm}, "environment_info": {"domain_name": "airline"}},
        "simulations": [{"id": sim_id, "task_id": "1", "messages": [], "reward_info": {"reward": 1.0}}]
    })
    .to_string()
}

#[test]
fn a_tau2_file_whose_model_or_id_cannot_be_a_name_is_refused() {
    let read = |text: &str, options: &ReadOptions| {
        read_any_bytes("r.json", text.as_bytes(), options).map(|c| c.trajectories.len())
    };
    let light = ReadOptions {
        light: true,
        ..Default::default()
    };
    for options in [ReadOptions::default(), light] {
        assert_eq!(read(&tau2("m", "s0"), &options), Ok(1));
        assert_eq!(
            read(&tau2(" m", "s0"), &options),
            Err("model name ` m` is padded with spaces (the file's `info.agent_info.llm`; give the name with --model)".into())
        );
        assert_eq!(
            read(&tau2("", "s0"), &options),
            Err("the model name is empty (the file's `info.agent_info.llm`; give the name with --model)".into())
        );
        assert_eq!(
            read(&tau2("m", &"s".repeat(70_000)), &options),
            Err("simulation 0: the trajectory id is 70000 bytes long; names are at most 4096 bytes (4 KiB)".into())
        );
    }
    // The user's name replaces the metadata's; a bad one is refused.
    let given = |m: &str| ReadOptions {
        model: Some(m.into()),
        ..Default::default()
    };
    assert_eq!(read(&tau2(" m", "s0"), &given("m")), Ok(1));
    assert_eq!(
        read(&tau2("m", "s0"), &given("m ")),
        Err("model name `m ` is padded with spaces (the name given for every trajectory)".into())
    );
    // Through the one ingestion path, the file is named.
    let e = read_file(
        InputFile::Bytes("r.json".into(), tau2(" m", "s0").into_bytes().into()),
        &TrajectoryOptions::default(),
        &Messages::Counts,
        false,
    )
    .unwrap_err();
    assert!(matches!(e, ReadError::Trajectories { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "r.json: model name ` m` is padded with spaces (the file's `info.agent_info.llm`; give the name with --model)"
    );
    // Streamed JSONL with a bad model given for every trajectory.
    let text = line("t1", "M", None);
    let e = read_file(
        InputFile::Stream("t.jsonl".into(), Box::new(text.as_bytes())),
        &TrajectoryOptions {
            model: Some(String::new()),
            ..Default::default()
        },
        &Messages::Counts,
        false,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.jsonl: the model name is empty (the name given for every trajectory)"
    );
}
