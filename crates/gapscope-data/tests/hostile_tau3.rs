//! Hostile τ³ inputs: simulation files, the wrapper and results directories
//! that are truncated, mistyped, deeply nested, empty, not UTF-8, or carry
//! empty or huge ids: each a located `Err` or a skipped file, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use gapscope_data::formats::folder::{Folder, FolderFormat, Group};
use gapscope_data::formats::read_group;
use gapscope_data::formats::{read_any_bytes, tau3, Corpus, ReadOptions};

fn read(text: &[u8]) -> Result<Corpus, String> {
    read_any_bytes("sim.json", text, &ReadOptions::default())
}

const SIM: &str = r#"{"id": "s1", "task_id": "1", "start_time": "a", "end_time": "b", "duration": 1.0, "termination_reason": "user_stop", "messages": null, "ticks": [{"tick_id": 0, "timestamp": "t0", "agent_chunk": {"role": "assistant", "content": "hi"}}]}"#;

#[test]
fn the_base_simulation_reads() {
    let c = read(SIM.as_bytes()).unwrap();
    assert_eq!(c.trajectories[0].messages.len(), 1);
}

/// A truncated file is no valid JSON, so the detector (which probes the
/// whole text) recognizes no format: refused as such by `read_any_bytes`
/// (the ingestion then says what each reader found, with its line and
/// column); the τ³ reader itself locates the cut.
#[test]
fn truncated_files_are_refused_and_the_reader_locates_the_cut() {
    let o = ReadOptions::default();
    for cut in [20, SIM.len() / 2, SIM.len() - 30, SIM.len() - 1] {
        let text = &SIM[..cut];
        assert!(read(text.as_bytes())
            .unwrap_err()
            .starts_with("not a trajectory file"));
        let e = tau3::read_simulation("s.json", text, &o).unwrap_err();
        assert!(e.starts_with("line 1, column"), "cut at {cut}: {e}");
        assert!(e.contains("EOF while parsing"), "cut at {cut}: {e}");
    }
    let wrapper = format!(r#"{{"_about": "x", "task": {{"id": "1"}}, "simulation_run": {SIM}}}"#);
    let e = tau3::read_simulation("w.json", &wrapper[..wrapper.len() - 2], &o).unwrap_err();
    assert!(e.starts_with("line 1, column"), "{e}");
    assert!(
        e.contains("not a τ²-bench `{_about, task, simulation_run}` file"),
        "{e}"
    );
}

#[test]
fn wrong_types_are_located_errors() {
    let cases = [
        (
            SIM.replace(r#""task_id": "1""#, r#""task_id": 1"#),
            "invalid type: integer `1`, expected a string",
        ),
        (
            SIM.replace(r#""ticks": ["#, r#""ticks": 3, "x": ["#),
            "invalid type: integer `3`, expected a sequence",
        ),
        (
            SIM.replace(r#""timestamp": "t0""#, r#""timestamp": 5"#),
            "invalid type: integer `5`, expected a string",
        ),
        (
            SIM.replace(
                r#""agent_chunk": {"role": "assistant", "content": "hi"}"#,
                r#""agent_chunk": "hi""#,
            ),
            "expected struct Chunk",
        ),
        (
            SIM.replace(r#""messages": null"#, r#""messages": [{"content": "x"}]"#),
            "missing field `role`",
        ),
        (
            SIM.replace(
                r#""messages": null"#,
                r#""reward_info": {"reward": "high"}"#,
            ),
            "invalid type: string \"high\", expected f64",
        ),
        (
            SIM.replace(
                r#""messages": null"#,
                r#""reward_info": {"reward_basis": "DB"}"#,
            ),
            "expected a sequence",
        ),
    ];
    for (text, want) in cases {
        let e = read(text.as_bytes()).unwrap_err();
        assert!(e.starts_with("line 1, column"), "{e}");
        assert!(e.contains(want), "{e} (wanted {want})");
    }
    // A wrapper whose simulation lacks its task id.
    let e =
        read(br#"{"_about": "x", "task": null, "simulation_run": {"messages": []}}"#).unwrap_err();
    assert!(e.contains("missing field `task_id`"), "{e}");
}

#[test]
fn deep_nesting_is_a_located_error() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = SIM.replace(r#""messages": null"#, &format!(r#""review": {deep}"#));
    let e = read(text.as_bytes()).unwrap_err();
    assert!(e.contains("recursion limit exceeded"), "{e}");
    let ticks = SIM.replace(r#""content": "hi""#, &format!(r#""content": {deep}"#));
    assert!(read(ticks.as_bytes())
        .unwrap_err()
        .contains("recursion limit"));
}

#[test]
fn empty_and_not_utf8_files_are_refused() {
    assert!(read(b"").is_err());
    assert!(read(b"{}").is_err());
    let mut bad = SIM.as_bytes().to_vec();
    bad[30] = 0xff;
    let e = read(&bad).unwrap_err();
    assert!(e.contains("UTF-8"), "{e}");
}

#[test]
fn empty_and_huge_ids_are_refused() {
    let e = read(SIM.replace(r#""id": "s1""#, r#""id": """#).as_bytes()).unwrap_err();
    assert!(e.contains("empty"), "{e}");
    let huge = "i".repeat(5000);
    let e = read(
        SIM.replace(r#""id": "s1""#, &format!(r#""id": "{huge}""#))
            .as_bytes(),
    )
    .unwrap_err();
    assert!(e.contains("5000 bytes"), "{e}");
    // Task ids are checked for length only, as in every τ²-bench file.
    let e = read(
        SIM.replace(r#""task_id": "1""#, &format!(r#""task_id": "{huge}""#))
            .as_bytes(),
    )
    .unwrap_err();
    assert!(e.contains("the task id is 5000 bytes long"), "{e}");
    // A huge (but valid) tick list reads.
    let tick = r#"{"tick_id": 0, "timestamp": "t", "user_chunk": {"role": "user"}}"#;
    let many = vec![tick; 50_000].join(",");
    let c = read(SIM.replace(r#""ticks": [{"tick_id": 0, "timestamp": "t0", "agent_chunk": {"role": "assistant", "content": "hi"}}]"#, &format!(r#""ticks": [{many}]"#)).as_bytes()).unwrap();
    assert_eq!(c.trajectories[0].messages.len(), 50_000);
}

struct Mem(BTreeMap<String, Vec<u8>>);

impl Folder for Mem {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| format!("{path}: cannot be read (permission denied)"))
    }
}

fn dir(meta: &[u8], sims: &[(&str, &[u8])]) -> (Group, Mem) {
    let mut m = BTreeMap::new();
    m.insert("r/results.json".to_string(), meta.to_vec());
    for (id, bytes) in sims {
        m.insert(format!("r/simulations/{id}.json"), bytes.to_vec());
    }
    let g = Group {
        format: FolderFormat::Tau3Results,
        root: "r".into(),
        members: m.keys().cloned().collect(),
    };
    (g, Mem(m))
}

fn read_dir(meta: &[u8], sims: &[(&str, &[u8])]) -> Result<Corpus, String> {
    let (g, mut m) = dir(meta, sims);
    read_group(&g, &mut m, &ReadOptions::default(), &mut |_, _| {})
}

#[test]
fn hostile_results_directories() {
    let ok = br#"{"info": {"agent_info": {"llm": "m"}}, "tasks": []}"#;
    assert!(read_dir(ok, &[("s1", SIM.as_bytes())]).is_ok());
    // results.json truncated, mistyped, not UTF-8, deep.
    let e = read_dir(&ok[..20], &[("s1", SIM.as_bytes())]).unwrap_err();
    assert!(e.starts_with("r/results.json: line 1, column"), "{e}");
    let e = read_dir(
        br#"{"simulation_index": {"id": "s1"}}"#,
        &[("s1", SIM.as_bytes())],
    )
    .unwrap_err();
    assert!(e.contains("expected a sequence"), "{e}");
    let e = read_dir(
        br#"{"simulation_index": [{"task_id": "1"}]}"#,
        &[("s1", SIM.as_bytes())],
    )
    .unwrap_err();
    assert!(e.contains("missing field `id`"), "{e}");
    let e = read_dir(b"{\"info\": \"\xff\"}", &[("s1", SIM.as_bytes())]).unwrap_err();
    assert!(
        e.starts_with("r/results.json: ") && e.contains("UTF-8"),
        "{e}"
    );
    let deep = format!(
        r#"{{"tasks": {}{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let e = read_dir(deep.as_bytes(), &[("s1", SIM.as_bytes())]).unwrap_err();
    assert!(e.starts_with("r/results.json: line 1, column 12: "), "{e}");
    // Every simulation file bad: an error; one bad among good: skipped.
    let e = read_dir(ok, &[("s1", b"\xff\xfe")]).unwrap_err();
    assert!(
        e.contains("r/simulations/s1.json") && e.contains("UTF-8"),
        "{e}"
    );
    let c = read_dir(ok, &[("s1", SIM.as_bytes()), ("s2", b"[]")]).unwrap();
    assert_eq!((c.trajectories.len(), c.skipped.len()), (1, 1));
    assert!(
        c.skipped[0]
            .message
            .starts_with("r/simulations/s2.json: line 1, column 2"),
        "{}",
        c.skipped[0]
    );
    // An empty id in a simulation file: skipped with its path.
    let empty_id = SIM.replace(r#""id": "s1""#, r#""id": """#);
    let c = read_dir(ok, &[("s1", SIM.as_bytes()), ("s2", empty_id.as_bytes())]).unwrap();
    assert_eq!(c.skipped.len(), 1);
    assert!(
        c.skipped[0].message.starts_with("r/simulations/s2.json: "),
        "{}",
        c.skipped[0]
    );
    // A member the folder cannot give: the folder's error.
    let (mut g, mut m) = dir(ok, &[("s1", SIM.as_bytes())]);
    g.members.push("r/simulations/gone.json".into());
    let e = read_group(&g, &mut m, &ReadOptions::default(), &mut |_, _| {}).unwrap_err();
    assert_eq!(
        e,
        "r/simulations/gone.json: cannot be read (permission denied)"
    );
    // No results.json among the members.
    let (mut g, mut m) = dir(ok, &[("s1", SIM.as_bytes())]);
    g.members.retain(|p| !p.ends_with("results.json"));
    let e = read_group(&g, &mut m, &ReadOptions::default(), &mut |_, _| {}).unwrap_err();
    assert_eq!(e, "the folder has no `results.json`");
    // No simulation file at all.
    let e = read_dir(ok, &[]).unwrap_err();
    assert_eq!(
        e,
        "r/results.json: the folder's `simulations/` has no simulation file"
    );
    // A huge model name from results.json.
    let huge = format!(
        r#"{{"info": {{"agent_info": {{"llm": "{}"}}}}}}"#,
        "m".repeat(5000)
    );
    let e = read_dir(huge.as_bytes(), &[("s1", SIM.as_bytes())]).unwrap_err();
    assert!(
        e.contains("5000 bytes") && e.contains("r/results.json"),
        "{e}"
    );
}
