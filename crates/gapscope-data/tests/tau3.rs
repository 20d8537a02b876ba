//! τ³ simulation files, full-duplex simulations and results directories
//! (fixtures in `tests/fixtures/tau3/`, ATTRIBUTION.md there).
//!
//! Every number below was counted by a short Python script over the same
//! fixture files, written from τ²-bench's own `SimulationRun.get_messages()`
//! / `Tick.get_all_messages()` and its action rule (not from this reader):
//!
//! ```text
//! whissle_dir/simulations  (id prefix, task, messages, tool calls, reward, checks matched)
//!   003ec557 task 2 msgs 14 calls 2  reward 0.0  0 of 11 matched
//!   916c3402 task 1 msgs 14 calls 2  reward 0.0  0 of 5
//!   9631bd74 task 0 msgs 26 calls 5  reward 1.0  4 of 5
//!   d584f9a1 task 4 msgs 20 calls 4  reward 0.0  2 of 13
//!   f909dda0 task 3 msgs 34 calls 10 reward 0.0  10 of 12
//! voice_dir/simulations: 40 ticks each → 80 messages (an assistant and a
//!   user message per tick, no content), no reward; tasks 40, 98, 20
//! wrapper.json: 20 messages, 5 tool calls, the task's 5 gold actions all matched
//! full_duplex_tools.json: 11 messages in the order
//!   assistant "Hello…", user (none), user "I want…", user "Yes.",
//!   assistant (1 call), tool call_1, assistant "It is pending…",
//!   assistant (1 call), tool call_2 (error), assistant "Done.", user "###STOP###"
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gapscope_data::formats::folder::{plan, Folder, FolderFormat, Group};
use gapscope_data::formats::read_group;
use gapscope_data::formats::{read_any_bytes, Corpus, ReadOptions, TrajectoryFormat};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tau3")
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/external/tau2")
}

/// A folder in memory; counts reads and the largest member held.
#[derive(Default)]
struct Mem {
    files: BTreeMap<String, Vec<u8>>,
    reads: Vec<String>,
}

impl Folder for Mem {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.reads.push(path.to_string());
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| format!("{path}: no such file"))
    }
}

/// Every file under `dir`, keyed by its path relative to `dir`'s parent
/// (so the group's root is `dir`'s name).
fn load(dir: &Path) -> Mem {
    fn walk(base: &Path, d: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir.parent().unwrap(), dir, &mut files);
    Mem {
        files,
        reads: Vec::new(),
    }
}

fn group_of(mem: &Mem) -> Group {
    let paths: Vec<String> = mem.files.keys().cloned().collect();
    let p = plan(&paths);
    assert_eq!(p.groups.len(), 1, "{p:?}");
    assert_eq!(p.groups[0].format, FolderFormat::Tau3Results);
    p.groups[0].clone()
}

fn read_dir(mem: &mut Mem, options: &ReadOptions) -> Result<(Corpus, Vec<(usize, usize)>), String> {
    let g = group_of(mem);
    let mut seen = Vec::new();
    let c = read_group(&g, mem, options, &mut |d, n| seen.push((d, n)))?;
    Ok((c, seen))
}

fn read_file(path: &Path) -> Corpus {
    read_any_bytes(
        &path.to_string_lossy(),
        &std::fs::read(path).unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
}

type Row = (String, String, usize, usize, Option<f64>, usize, usize);

/// (id prefix, task, messages, tool calls, reward, gold actions, matched).
fn rows(c: &Corpus) -> Vec<Row> {
    c.trajectories
        .iter()
        .map(|t| {
            (
                t.id[..8].to_string(),
                t.task_id.clone(),
                t.messages.len(),
                t.messages.iter().map(|m| m.tool_calls.len()).sum(),
                t.reward,
                t.gold_actions.len(),
                t.gold_actions.iter().filter(|g| g.matched).count(),
            )
        })
        .collect()
}

fn whissle_rows() -> Vec<Row> {
    [
        ("003ec557", "2", 14, 2, 0.0, 11, 0),
        ("916c3402", "1", 14, 2, 0.0, 5, 0),
        ("9631bd74", "0", 26, 5, 1.0, 5, 4),
        ("d584f9a1", "4", 20, 4, 0.0, 13, 2),
        ("f909dda0", "3", 34, 10, 0.0, 12, 10),
    ]
    .into_iter()
    .map(|(i, t, m, c, r, g, k)| (i.to_string(), t.to_string(), m, c, Some(r), g, k))
    .collect()
}

#[test]
fn the_derived_directory_reads_with_its_index_and_metadata() {
    let mut mem = load(&fixtures().join("whissle_dir"));
    let (c, seen) = read_dir(&mut mem, &ReadOptions::default()).unwrap();
    assert_eq!(rows(&c), whissle_rows());
    for t in &c.trajectories {
        assert_eq!(t.model, "gpt-4.1-2025-04-14");
        assert_eq!(t.domain.as_deref(), Some("retail"));
        assert_eq!(t.details[0].label, "mode");
        assert_eq!(t.details[0].value, "half_duplex");
        assert!(t.source_id.as_deref().unwrap().starts_with("tau2\u{1f}"));
    }
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert!(c.skipped.is_empty());
    // One member at a time, results.json first, progress to 6 of 6.
    assert_eq!(mem.reads.len(), 6);
    assert_eq!(mem.reads[0], "whissle_dir/results.json");
    assert_eq!(seen.last(), Some(&(6, 6)));
    assert_eq!(seen.len(), 6);
    assert_eq!(c.grading.len(), 1);
    assert_eq!(
        c.grading[0].git_commit.as_deref(),
        Some("24c9de85cdebc842b0f18d43ba202d6fae008581")
    );
    assert_eq!(
        c.grading[0].reward_basis["retail/2"],
        ["DB", "NL_ASSERTION"]
    );
    // The same run as the monolithic file it was saved from: the same
    // trajectories (ids, tasks, messages, rewards, gold actions).
    let mono = read_file(&shared().join("whissle_tau3/hd_retail_n5.json"));
    let mut a = rows(&mono);
    a.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(a, whissle_rows());
    let mut ids: Vec<_> = mono
        .trajectories
        .iter()
        .map(|t| t.identity().into_owned())
        .collect();
    let mut dir_ids: Vec<_> = c
        .trajectories
        .iter()
        .map(|t| t.identity().into_owned())
        .collect();
    ids.sort();
    dir_ids.sort();
    assert_eq!(ids, dir_ids, "read twice, recognized as one run");
}

#[test]
fn each_simulation_file_reads_alone() {
    let dir = fixtures().join("whissle_dir/simulations");
    let mut got = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let c = read_file(&e.unwrap().path());
        assert_eq!(c.format, Some(TrajectoryFormat::Tau2Simulation));
        assert_eq!(c.trajectories.len(), 1);
        let t = &c.trajectories[0];
        assert_eq!(t.domain, None);
        assert_eq!(t.model, t.id, "the file stem is the model");
        assert!(
            c.warnings.iter().any(|w| w.starts_with("names no domain")),
            "{:?}",
            c.warnings
        );
        assert!(
            c.warnings.iter().any(|w| w.starts_with("names no model")),
            "{:?}",
            c.warnings
        );
        got.extend(rows(&c));
    }
    got.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(got, whissle_rows());
    // --domain names the domain of a simulation that names none.
    let one = dir.join("9631bd74-19a9-4d74-97a3-76fab55976d9.json");
    let c = read_any_bytes(
        "x.json",
        &std::fs::read(one).unwrap(),
        &ReadOptions {
            domain: Some("retail".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(c.trajectories[0].domain.as_deref(), Some("retail"));
    assert!(!c.warnings.iter().any(|w| w.starts_with("names no domain")));
}

#[test]
fn the_voice_directory_without_index_reads_unscored() {
    let mut mem = load(&fixtures().join("voice_dir"));
    let (c, seen) = read_dir(&mut mem, &ReadOptions::default()).unwrap();
    let got: Vec<(String, String, usize, Option<f64>)> = c
        .trajectories
        .iter()
        .map(|t| {
            (
                t.id[..8].to_string(),
                t.task_id.clone(),
                t.messages.len(),
                t.reward,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("49b22f0c".to_string(), "40".to_string(), 80, None),
            ("7c6a3e3e".to_string(), "98".to_string(), 80, None),
            ("cd9c5ed2".to_string(), "20".to_string(), 80, None),
        ]
    );
    assert_eq!(seen.last(), Some(&(4, 4)));
    let t = &c.trajectories[0];
    assert_eq!(t.model, "openai:gpt-realtime-2");
    assert_eq!(t.domain.as_deref(), Some("retail"));
    let roles: Vec<&str> = t.messages[..4].iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["assistant", "user", "assistant", "user"]);
    assert!(t.messages.iter().all(|m| m.content.is_none()));
    let details: Vec<(&str, &serde_json::Value)> = t
        .details
        .iter()
        .map(|d| (d.label.as_str(), &d.value))
        .collect();
    assert_eq!(
        details,
        [
            ("mode", &"full_duplex".into()),
            ("ticks", &40.into()),
            ("duration (seconds)", &352.874_732_875_032_35.into())
        ]
    );
    assert_eq!(
        c.warnings,
        ["3 of 3 simulations have no reward (no `reward_info`: τ²-bench did not evaluate them): read unscored"]
    );
}

/// The real, untrimmed voice directory in `../shared` (3 full-duplex
/// simulations of 973, 1810 and 1340 ticks: 2 messages a tick).
#[test]
fn the_shared_voice_directory_reads() {
    let mut mem = load(&shared().join("voice_dir_fixture/experiment"));
    let (c, _) = read_dir(&mut mem, &ReadOptions::default()).unwrap();
    let n: Vec<usize> = c.trajectories.iter().map(|t| t.messages.len()).collect();
    assert_eq!(n, [2 * 973, 2 * 1810, 2 * 1340]);
    let mut mem = load(&shared().join("derived_dir_format/whissle_hd_retail_n5_dir"));
    let (c, _) = read_dir(&mut mem, &ReadOptions::default()).unwrap();
    assert_eq!(rows(&c), whissle_rows());
}

#[test]
fn the_wrapper_reads_as_one_simulation_with_its_task() {
    let c = read_file(&fixtures().join("wrapper.json"));
    assert_eq!(c.format, Some(TrajectoryFormat::Tau2Simulation));
    let t = &c.trajectories[0];
    assert_eq!(
        (
            t.id.as_str(),
            t.task_id.as_str(),
            t.messages.len(),
            t.reward
        ),
        ("retail_task_1_trial_0_example", "1", 20, Some(1.0))
    );
    assert_eq!(
        t.domain.as_deref(),
        Some("retail"),
        "from the task's user_scenario"
    );
    let gold: Vec<(&str, bool)> = t
        .gold_actions
        .iter()
        .map(|g| (g.name.as_str(), g.matched))
        .collect();
    assert_eq!(
        gold,
        [
            ("find_user_id_by_name_zip", true),
            ("get_order_details", true),
            ("get_product_details", true),
            ("get_product_details", true),
            ("exchange_delivered_order_items", true),
        ]
    );
    assert_eq!(t.model, "wrapper", "the file stem");
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.warnings[0].starts_with("names no model"));
    // The shared copy is the same bytes.
    let shared = read_file(&shared().join("single_simulation/tau2_retail_example_trajectory.json"));
    assert_eq!(shared.trajectories[0].messages, t.messages);
}

#[test]
fn a_full_duplex_simulation_with_tools_flattens_in_time_order() {
    let c = read_file(&fixtures().join("full_duplex_tools.json"));
    let t = &c.trajectories[0];
    /// (role, text, tool calls, the call answered, error).
    type Seen<'a> = (
        &'a str,
        Option<&'a str>,
        usize,
        Option<&'a str>,
        Option<bool>,
    );
    let got: Vec<Seen> = t
        .messages
        .iter()
        .map(|m| {
            (
                m.role.as_str(),
                m.content.as_ref().and_then(|v| v.as_str()),
                m.tool_calls.len(),
                m.tool_call_id.as_deref(),
                m.error,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("assistant", Some("Hello, how can I help?"), 0, None, None),
            ("user", None, 0, None, None),
            ("user", Some("I want to cancel order #W1."), 0, None, None),
            ("user", Some("Yes."), 0, None, None),
            ("assistant", None, 1, None, None),
            (
                "tool",
                Some("{\"status\": \"pending\"}"),
                0,
                Some("call_1"),
                Some(false)
            ),
            (
                "assistant",
                Some("It is pending. Shall I cancel it?"),
                0,
                None,
                None
            ),
            ("assistant", None, 1, None, None),
            (
                "tool",
                Some("Error: reason must be one of ..."),
                0,
                Some("call_2"),
                Some(true)
            ),
            ("assistant", Some("Done."), 0, None, None),
            ("user", Some("###STOP###"), 0, None, None),
        ]
    );
    assert_eq!(t.messages[4].tool_calls[0].id.as_deref(), Some("call_1"));
    let labels: Vec<&str> = t.details.iter().map(|d| d.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "mode",
            "ticks",
            "review",
            "hallucination_check",
            "effect_timeline",
            "duration (seconds)"
        ]
    );
    assert_eq!(t.details[2].value["errors"][0]["severity"], "critical");
    // 25 events: summarised (5 burst_noise, 20 frame_drop, first 20 kept).
    let e = &t.details[4].value;
    assert_eq!(e["events"], 25);
    assert_eq!(
        e["by_type"],
        serde_json::json!({"burst_noise": 5, "frame_drop": 20})
    );
    assert_eq!(e["first"].as_array().unwrap().len(), 20);
    assert_eq!(
        t.gold_actions.iter().map(|g| g.matched).collect::<Vec<_>>(),
        [true]
    );
    // A light read keeps the counts.
    let light = read_any_bytes(
        "f.json",
        &std::fs::read(fixtures().join("full_duplex_tools.json")).unwrap(),
        &ReadOptions {
            light: true,
            ..Default::default()
        },
    )
    .unwrap();
    let s = light.trajectories[0].message_stats();
    assert_eq!((s.messages, s.tool_calls), (11, 2));
}

/// Full-duplex simulations inside a monolithic results file and a bare list
/// (the τ²-bench results reader), full and light.
#[test]
fn full_duplex_simulations_read_in_results_files_and_bare_lists() {
    let sim = std::fs::read_to_string(fixtures().join("full_duplex_tools.json")).unwrap();
    let obj = format!(
        r#"{{"info": {{"git_commit": "abc", "agent_info": {{"llm": "m"}}, "environment_info": {{"domain_name": "retail"}}}}, "tasks": [], "simulations": [{sim}]}}"#
    );
    let list = format!("[{sim}, {sim}]");
    for (text, n) in [(obj, 1), (list, 2)] {
        for light in [false, true] {
            let c = read_any_bytes(
                "r.json",
                text.as_bytes(),
                &ReadOptions {
                    light,
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!(c.format, Some(TrajectoryFormat::Tau2));
            assert_eq!(c.trajectories.len(), n);
            let s = c.trajectories[0].message_stats();
            assert_eq!((s.messages, s.tool_calls), (11, 2), "light {light}");
        }
    }
    let r = gapscope_data::formats::tau2::read_results(&format!("[{sim}]")).unwrap();
    assert_eq!(gapscope_data::formats::tau2::check(&r, None).reproduced, 1);
}

#[test]
fn the_shared_acceptance_files_read() {
    let d = shared();
    // (file, trajectories, with a reward)
    for (f, n, scored) in [
        ("whissle_tau3/hd_retail_n5.json", 5, 5),
        (
            "medical_triage/adaptive-agent_medical_claude-opus-4-6_1trial_BARE_LIST.json",
            64,
            64,
        ),
        ("forks/blakeelias__grok-3__telecom_5tasks.json", 5, 5),
        (
            "forks/blakeelias__grok-3__airline_tighter_policy_task11_10trials.json",
            10,
            10,
        ),
        (
            "telecom/gpt-4o__llm_agent__telecom_20tasks_pr17.json",
            20,
            20,
        ),
        (
            "single_simulation/tau2_retail_example_trajectory.json",
            1,
            1,
        ),
        (
            "voice_dir_fixture/experiment/simulations/49b22f0c-4a56-41c5-922f-bc2a56e53a23.json",
            1,
            0,
        ),
    ] {
        let c = read_file(&d.join(f));
        assert_eq!(c.trajectories.len(), n, "{f}");
        assert_eq!(
            c.trajectories.iter().filter(|t| t.reward.is_some()).count(),
            scored,
            "{f}"
        );
    }
    // Side files keep their detection: a tasks file, and no trajectory format.
    let tasks = std::fs::read_to_string(d.join("medical_triage/tasks.json")).unwrap();
    assert_eq!(
        gapscope_data::formats::detect(&tasks),
        Some(TrajectoryFormat::Tau2Tasks)
    );
    let metrics =
        std::fs::read_to_string(d.join("voice_dir_fixture/expected_metrics.json")).unwrap();
    assert_eq!(gapscope_data::formats::detect(&metrics), None);
}

fn tiny_sim(id: &str, task: &str, reward: f64) -> Vec<u8> {
    serde_json::json!({
        "id": id, "task_id": task, "start_time": "s", "end_time": "e", "duration": 1.0,
        "termination_reason": "user_stop", "trial": 0,
        "reward_info": {"reward": reward, "reward_basis": ["DB"]},
        "messages": [{"role": "assistant", "content": "hi"}]
    })
    .to_string()
    .into_bytes()
}

fn tiny_dir(index: Option<&[(&str, &str, f64)]>, files: &[(&str, &str, f64)]) -> Mem {
    let mut meta = serde_json::json!({
        "info": {"git_commit": "c1", "agent_info": {"llm": "m"}, "environment_info": {"domain_name": "airline"}},
        "tasks": [{"id": "1", "evaluation_criteria": {"actions": [{"name": "get", "arguments": {}}]}}]
    });
    if let Some(index) = index {
        meta["simulation_index"] = index
            .iter()
            .map(|(id, task, reward)| serde_json::json!({"id": id, "task_id": task, "trial": 0, "reward": reward}))
            .collect();
    }
    let mut m = Mem::default();
    m.files
        .insert("run/results.json".into(), meta.to_string().into_bytes());
    for (id, task, reward) in files {
        m.files.insert(
            format!("run/simulations/{id}.json"),
            tiny_sim(id, task, *reward),
        );
    }
    m
}

#[test]
fn the_simulation_index_decides_which_simulations_are_the_run() {
    // Listed and present: read; the index's reward differs for b: warned.
    let mut m = tiny_dir(
        Some(&[("a", "1", 1.0), ("b", "2", 1.0)]),
        &[("a", "1", 1.0), ("b", "2", 0.0), ("x", "3", 1.0)],
    );
    let (c, seen) = read_dir(&mut m, &ReadOptions::default()).unwrap();
    let ids: Vec<&str> = c.trajectories.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    // A file the index does not list: left out, reported, never read.
    assert_eq!(c.skipped.len(), 1);
    assert!(
        c.skipped[0]
            .message
            .starts_with("run/simulations/x.json: not in run/results.json's `simulation_index`"),
        "{}",
        c.skipped[0]
    );
    assert!(!m.reads.contains(&"run/simulations/x.json".to_string()));
    assert_eq!(seen.last(), Some(&(4, 4)));
    assert_eq!(
        c.warnings,
        ["1 simulation file(s) disagree with run/results.json's `simulation_index` (the files are read): run/simulations/b.json: reward Some(1.0) in the index, Some(0.0) in the file"]
    );
    // The task's gold actions serve a simulation without recorded checks.
    assert_eq!(c.trajectories[0].gold_actions.len(), 1);
    assert!(!c.trajectories[0].gold_actions[0].matched);
    assert_eq!(c.trajectories[0].domain.as_deref(), Some("airline"));
    // A listed simulation without its file: a located error.
    let mut m = tiny_dir(
        Some(&[("a", "1", 1.0), ("gone", "2", 1.0)]),
        &[("a", "1", 1.0)],
    );
    let e = read_dir(&mut m, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        e,
        "run/results.json: simulation_index[1] lists simulation `gone`, but the folder has no `simulations/gone.json`: the run is incomplete"
    );
    // No index: every simulation file is the run.
    let mut m = tiny_dir(None, &[("a", "1", 1.0), ("x", "3", 0.5)]);
    let (c, _) = read_dir(&mut m, &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 2);
    assert!(
        c.skipped.is_empty() && c.warnings.is_empty(),
        "{:?}",
        c.warnings
    );
}

#[test]
fn a_malformed_simulation_file_is_skipped_with_its_path() {
    let mut m = tiny_dir(None, &[("a", "1", 1.0)]);
    m.files.insert(
        "run/simulations/bad.json".into(),
        br#"{"task_id": 3}"#.to_vec(),
    );
    m.files.insert(
        "run/simulations/cut.json".into(),
        br#"{"task_id": "3", "messages": [{"ro"#.to_vec(),
    );
    let (c, _) = read_dir(&mut m, &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 1);
    let s: Vec<String> = c.skipped.iter().map(ToString::to_string).collect();
    assert_eq!(s.len(), 2);
    assert!(s[0].starts_with("run/simulations/bad.json: line 1, column 13: not a τ²-bench simulation: invalid type: integer `3`, expected a string"), "{}", s[0]);
    assert!(
        s[1].starts_with("run/simulations/cut.json: line 1, column"),
        "{}",
        s[1]
    );
    // Nothing readable: an error naming the first.
    let mut m = tiny_dir(None, &[]);
    m.files.insert(
        "run/simulations/bad.json".into(),
        br#"{"task_id": 3}"#.to_vec(),
    );
    let e = read_dir(&mut m, &ReadOptions::default()).unwrap_err();
    assert!(e.starts_with("no simulation could be read (1 file(s) skipped; first: run/simulations/bad.json: line 1"), "{e}");
}

#[test]
fn grading_versions_are_warned_about_across_files() {
    use gapscope_data::ingest::{join_reads, FileContent, FileRead, TrajectoryOptions};
    let d = shared();
    let reads: Vec<FileRead> = [
        "telecom/gpt-4o__llm_agent__telecom_20tasks_pr17.json",
        "forks/blakeelias__grok-3__telecom_5tasks.json",
    ]
    .iter()
    .map(|f| FileRead {
        name: (*f).to_string(),
        digest: None,
        content: FileContent::Trajectories(read_file(&d.join(f))),
    })
    .collect();
    let inputs = join_reads(reads, &TrajectoryOptions::default()).unwrap();
    // The two commits (from each file's info.git_commit); both files grade
    // telecom tasks on ENV_ASSERTION, except two tasks of the first on
    // [ENV_ASSERTION, ACTION] — none of which the second ran (Python).
    let w: Vec<&String> = inputs
        .notes
        .iter()
        .filter(|n| n.contains("τ²-bench versions"))
        .collect();
    assert_eq!(
        w,
        ["the τ²-bench files compared were run and graded by 2 different τ²-bench versions (`info.git_commit`): 40f46d3540dc95aca145ddecb0464fdd9a1e8c15 (telecom/gpt-4o__llm_agent__telecom_20tasks_pr17.json), d003d75e910bf45fc765ce11e2746b958bf8e242 (forks/blakeelias__grok-3__telecom_5tasks.json); their rewards may not be comparable"]
    );
}
