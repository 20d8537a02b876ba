//! Inputs the fuzz targets (fuzz/, docs/fuzzing.md) found to break an
//! invariant, kept as regression tests: each is read as the target read it and
//! must give a located error (or a table), never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gapscope_data::{ProfileTable, RoleOverrides};

fn input(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fuzz-regressions")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Fuzz target `profiles`: a JSON profile (mutated from
/// tests/fixtures/profiles-small.json) with an operation named
/// `GI,,,,,,,,,,,,,,,`. `ProfileTable::to_csv` wrote header names unquoted,
/// so the CSV (which the join re-reads when roles are given) had a header of
/// `GI` and empty names, and read back as "column `GI` appears more than once".
/// Header names are now quoted like cells, and the table reads back unchanged.
#[test]
fn a_dimension_name_with_commas_survives_the_csv_round_trip() {
    let bytes = input("profiles-comma-name.bin");
    let text = String::from_utf8_lossy(&bytes);
    let t = ProfileTable::read(&text, &RoleOverrides::default()).unwrap();
    assert!(t
        .operations
        .names
        .contains(&"GI,,,,,,,,,,,,,,,".to_string()));
    // CSV assigns roles by name, so the JSON blocks are given as roles.
    let percent = RoleOverrides {
        foundational: Some(t.foundational.names.clone()),
        operations: Some(t.operations.names.clone()),
        reward_scale: gapscope_data::profile::RewardScale::Percent,
        ..Default::default()
    };
    let back = ProfileTable::read(&t.to_csv(), &percent).unwrap();
    assert_eq!(back.operations, t.operations);
    assert_eq!(back.foundational, t.foundational);
    assert_eq!(back.models, t.models);
    assert_eq!(back.reward.unwrap().len(), 7);
}

/// A model name starting with `#` was written unquoted, and the CSV reader
/// took its row for a comment: the model vanished on the round trip.
#[test]
fn a_model_named_with_a_leading_hash_survives_the_csv_round_trip() {
    let json = r##"{"models": [{"model": "#1", "family": "F", "foundational": {"TU": 1}, "operations": {"GI": 2}},
                               {"model": "b", "family": "G", "foundational": {"TU": 3}, "operations": {"GI": 4}}]}"##;
    let t = ProfileTable::read(json, &RoleOverrides::default()).unwrap();
    let back = ProfileTable::read(&t.to_csv(), &RoleOverrides::default()).unwrap();
    assert_eq!(back.models, vec!["#1".to_string(), "b".to_string()]);
}

/// The rules the reader now applies to JSON names, each case on its own.
#[test]
fn json_dimension_names_follow_the_csv_header_rules() {
    let read = |models: &str| {
        ProfileTable::read(
            &format!("{{\"models\": [{models}]}}"),
            &RoleOverrides::default(),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    let m = |name: &str, f: &str, o: &str| {
        format!("{{\"model\": \"{name}\", \"family\": \"F\", \"foundational\": {{{f}}}, \"operations\": {{{o}}}}}")
    };
    // Same name in two blocks of two models.
    assert_eq!(
        read(&[m("a", r#""TU": 1"#, r#""GI": 2"#), m("b", r#""GI": 3"#, "")].join(",")),
        Err("models[1]: `foundational`: `GI` is under `operations` in models[0]: a dimension belongs to one block".into())
    );
    // A repeated key would silently keep only its last value.
    assert_eq!(
        read(&m("a", r#""TU": 1, "TU": 2"#, r#""GI": 2"#)),
        Err("models[0]: `foundational`: `TU` is given more than once".into())
    );
    // " TU" and "TU" are the same column once trimmed, as in a CSV header.
    assert_eq!(
        read(&m("a", r#""TU": 1"#, r#"" TU": 2"#)),
        Err("models[0]: `operations`: `TU` is given more than once".into())
    );
    assert_eq!(
        read(&m("a", r#""  ": 1"#, "")),
        Err("models[0]: `foundational`: a dimension has an empty name".into())
    );
    assert_eq!(
        read(&m("a", r#""Model": 1"#, "")),
        Err("models[0]: `foundational`: `Model` cannot name a dimension (it is a field of every model)".into())
    );
    assert_eq!(
        read(r#"{"model": "a", "family": "F", "operations": {"reward": 1}, "reward": 0.5}"#),
        Err("models[0]: `operations`: `reward` cannot name a dimension when models carry a reward (models[0])".into())
    );
    // Without a reward field, `reward` may name a dimension as before.
    assert!(read(r#"{"model": "a", "family": "F", "operations": {"reward": 1}}"#).is_ok());
}

/// Operation names become columns of the operation profile's CSV, which the
/// join reads back: names that would collide there are refused at the line.
#[test]
fn operation_names_that_would_collide_in_the_profile_csv_are_refused() {
    use gapscope_data::formats::read_jsonl;
    use gapscope_data::labels::apply_label_csv;
    let line = |op: &str| {
        format!(r#"{{"id": "t1", "model": "A", "task_id": "x", "labels": {{"{op}": [1]}}}}"#)
    };
    for (op, why) in [
        ("", "empty"),
        (" GI", "padded with spaces"),
        ("Reward", "a column of the profile: model, family, reward"),
        (
            "n_GI",
            "`n_` starts the eligible-count columns of the profile",
        ),
    ] {
        let c = read_jsonl(&line(op));
        assert_eq!(c.trajectories.len(), 0, "{op:?}");
        assert_eq!(
            c.skipped[0].to_string(),
            format!("line 1: trajectory `t1`: `{op}` cannot name an operation ({why})")
        );
    }
    let mut c = read_jsonl(&line("GI"));
    let e = apply_label_csv(
        &mut c,
        "trajectory_id,operation,requirement,label\nt1,family,r1,1\n",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: `family` cannot name an operation (a column of the profile: model, family, reward)"
    );
}

/// The `trajectories_jsonl` target's invariant (the operation profile's CSV
/// reads back as a profile) for a trajectory file's names and rewards
/// (issue 14 seeds, round 3).
fn profile_csv_reads_back(text: &str) -> Result<(), String> {
    use gapscope_data::formats::read_jsonl;
    use gapscope_data::operations::{operation_profile, ProfileOptions};
    let corpus = read_jsonl(text);
    for all_tasks in [false, true] {
        let p = operation_profile(
            &corpus.trajectories,
            &ProfileOptions {
                all_tasks,
                ..Default::default()
            },
        );
        if !p.models.is_empty() {
            ProfileTable::read(&p.to_csv(), &RoleOverrides::default())
                .map_err(|e| format!("all_tasks {all_tasks}: {e}\n{}", p.to_csv()))?;
        }
    }
    Ok(())
}

/// Fuzz seed `h-duplicate-ids.jsonl` (round 3): a model ` m1 ` (padded) and a
/// model `` (empty) were read, so the operation profile had rows ` m1 ` and
/// ``, which its CSV reads back as "model `m1` appears again" (the CSV reader
/// trims names) and an empty name (issue 14 item 9: accepted, then reported at
/// a line of an internal CSV). Refused at the file's own line now.
#[test]
fn padded_or_empty_trajectory_model_names_are_refused_at_their_line() {
    use gapscope_data::formats::read_jsonl;
    let text = String::from_utf8(input("trajectories-padded-model.jsonl")).unwrap();
    profile_csv_reads_back(&text).unwrap();
    let c = read_jsonl(&text);
    let skipped: Vec<String> = c.skipped.iter().map(ToString::to_string).collect();
    assert!(
        skipped.contains(
            &"line 7: trajectory `d4`: model name ` m1 ` is padded with spaces".to_string()
        ),
        "{skipped:?}"
    );
    assert!(
        skipped.contains(&"line 8: trajectory `d5`: the model name is empty".to_string()),
        "{skipped:?}"
    );
    let line = |extra: &str| {
        format!(
            r#"{{"id": "t1", "model": "A", "task_id": "x", "reward": 1, "labels": {{"GI": [1]}}{extra}}}"#
        )
    };
    let c = read_jsonl(&line(r#", "family": " F""#));
    assert_eq!(
        c.skipped[0].to_string(),
        "line 1: trajectory `t1`: family name ` F` is padded with spaces"
    );
    let c = read_jsonl(&line(r#", "family": """#));
    assert_eq!(
        c.skipped[0].to_string(),
        "line 1: trajectory `t1`: the family name is empty"
    );
}

/// Names over 4 KiB (model, family, operation) made an operation profile whose
/// CSV does not read back (`names are at most 4096 bytes`); they are refused
/// at their line like a profile file's names.
#[test]
fn trajectory_names_over_4_kib_are_refused_at_their_line() {
    use gapscope_data::formats::read_jsonl;
    use gapscope_data::labels::apply_label_csv;
    let long = "M".repeat(5000);
    for (extra, what) in [
        (format!(r#""model": "{long}""#), "the model name"),
        (
            format!(r#""model": "A", "family": "{long}""#),
            "the family name",
        ),
        (
            format!(r#""model": "A", "labels": {{"{long}": [1]}}"#),
            "an operation name",
        ),
    ] {
        let text = format!(r#"{{"id": "t1", "task_id": "x", "reward": 1, {extra}}}"#);
        profile_csv_reads_back(&text).unwrap();
        let c = read_jsonl(&text);
        assert_eq!(c.trajectories.len(), 0, "{what}");
        assert_eq!(
            c.skipped[0].to_string(),
            format!("line 1: trajectory `t1`: {what} is 5000 bytes long; names are at most 4096 bytes (4 KiB)")
        );
    }
    // Exactly 4 KiB is read.
    let ok = format!(
        r#"{{"id": "t1", "model": "{}", "task_id": "x", "reward": 1}}"#,
        "é".repeat(2048)
    );
    assert_eq!(read_jsonl(&ok).trajectories.len(), 1);
    let mut c = read_jsonl(r#"{"id": "t1", "model": "A", "task_id": "x", "labels": {"GI": [1]}}"#);
    let e = apply_label_csv(
        &mut c,
        &format!("trajectory_id,operation,requirement,label\nt1,{long},r1,1\n"),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: an operation name is 5000 bytes long; names are at most 4096 bytes (4 KiB)"
    );
}

/// Fuzz seed `h-rewards-out-of-range.jsonl` (round 3): a reward of 1e308 was
/// read, and the operation profile's mean reward over all tasks overflowed to
/// `inf`, which its CSV cannot read back (issue 14 item 12: overflow hidden).
/// Rewards beyond 1e100 in magnitude are refused at their line, as in a
/// profile file.
#[test]
fn trajectory_rewards_beyond_1e100_are_refused_at_their_line() {
    use gapscope_data::formats::read_jsonl;
    let text = String::from_utf8(input("trajectories-reward-1e308.jsonl")).unwrap();
    profile_csv_reads_back(&text).unwrap();
    let c = read_jsonl(&text);
    let skipped: Vec<String> = c.skipped.iter().map(ToString::to_string).collect();
    assert_eq!(
        skipped,
        vec![
            "line 3: trajectory `o3`: reward 1e300 is too large in magnitude (at most 1e100); rescale the rewards".to_string(),
            "line 4: trajectory `o4`: reward 1e308 is too large in magnitude (at most 1e100); rescale the rewards".to_string(),
        ]
    );
    assert_eq!(c.trajectories.len(), 4);
}

/// Fuzz seed `h-domains.jsonl` (round 3): a `domain` of `""` or ` airline`
/// was read as a task set of its own, so task `1` of ` airline` silently did
/// not match task `1` of `airline` (issue 14 item 1: task identity is
/// (domain, task id)). Refused at the line, like the model's name.
#[test]
fn empty_or_padded_trajectory_domains_are_refused_at_their_line() {
    use gapscope_data::formats::read_jsonl;
    for (domain, why) in [
        ("", "the `domain` field is empty".to_string()),
        (
            " airline",
            "the `domain` field ` airline` is padded with spaces".to_string(),
        ),
        (
            &"D".repeat(5000),
            "the domain is 5000 bytes long; names are at most 4096 bytes (4 KiB)".to_string(),
        ),
    ] {
        let c = read_jsonl(&format!(
            r#"{{"id": "t1", "model": "m", "task_id": "1", "domain": "{domain}", "reward": 1}}"#
        ));
        assert_eq!(c.trajectories.len(), 0, "{domain:.20}");
        assert_eq!(
            c.skipped[0].to_string(),
            format!("line 1: trajectory `t1`: {why}")
        );
    }
    let c = read_jsonl(
        r#"{"id": "t1", "model": "m", "task_id": "1", "domain": "airline", "reward": 1}"#,
    );
    assert_eq!(c.trajectories[0].domain.as_deref(), Some("airline"));
}
