//! Hostile ATIF documents and Harbor folders: each a located `Err`, a note
//! or a skipped trial, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use gapscope_data::formats::folder::{plan, Folder};
use gapscope_data::formats::read_group;
use gapscope_data::formats::{atif, ReadOptions};
use serde_json::json;

fn doc(steps: &serde_json::Value) -> String {
    json!({"schema_version": "ATIF-v1.5", "session_id": "s", "agent": {"name": "a", "version": "1"}, "steps": steps})
        .to_string()
}

fn err(text: &str) -> String {
    atif::read("t.json", text, &ReadOptions::default()).unwrap_err()
}

#[test]
fn bad_steps_are_located() {
    let e = err(&doc(
        &json!([{"step_id": 1, "source": "user", "message": "a"}, {"step_id": 2, "source": "tool", "message": "b"}]),
    ));
    assert!(
        e.starts_with("steps[1].source: unknown variant `tool`"),
        "{e}"
    );
    let e = err(&doc(
        &json!([{"step_id": 1, "source": "agent", "message": 5}]),
    ));
    assert_eq!(
        e,
        "steps[0].message: expected text or a list of content parts, found a number"
    );
    let e = err(&doc(
        &json!([{"step_id": 1, "source": "agent", "message": "m", "tool_calls": [{"function_name": "f", "arguments": {}}]}]),
    ));
    assert!(
        e.starts_with("steps[0].tool_calls[0]: missing field `tool_call_id`"),
        "{e}"
    );
    let e = err(&doc(
        &json!([{"step_id": 1, "source": "agent", "message": "m", "observation": {"results": [{"content": {"x": 1}}]}}]),
    ));
    assert_eq!(e, "steps[0].observation.results[0].content: expected text or a list of content parts, found an object");
    let e = err(&doc(
        &json!([{"step_id": 1, "source": "agent", "message": "m", "metrics": {"prompt_tokens": "many"}}]),
    ));
    assert!(
        e.starts_with("steps[0].metrics.prompt_tokens: invalid type: string \"many\""),
        "{e}"
    );
    let e = err(&doc(&json!("not a list")));
    assert!(e.starts_with("steps: invalid type: string"), "{e}");
    assert_eq!(
        err(&doc(&json!([]))),
        "steps: no step (ATIF requires at least one)"
    );
    let e = err(r#"{"schema_version": "ATIF-v1.5", "agent": {"name": "a"}}"#);
    assert!(e.starts_with("the document: missing field `steps`"), "{e}");
}

#[test]
fn truncated_empty_and_wrong_documents() {
    let full = doc(&json!([{"step_id": 1, "source": "user", "message": "hello there"}]));
    let cut = &full[..full.len() - 12];
    let e = err(cut);
    assert!(
        e.contains("steps[0]") && e.contains("(line 1, column"),
        "{e}"
    );
    assert!(err("").contains("the document"), "{}", err(""));
    assert_eq!(
        err("[1, 2]"),
        "the document: expected a JSON object (an ATIF trajectory)"
    );
    assert!(err("\u{feff}{}").starts_with("the document: missing field"));
}

#[test]
fn versions_this_reader_does_not_know() {
    let steps = json!([{"step_id": 1, "source": "user", "message": "m"}]);
    let v2 = doc(&steps).replace("ATIF-v1.5", "ATIF-v2.0");
    assert_eq!(
        err(&v2),
        "`schema_version` is `ATIF-v2.0`, not an ATIF version (ATIF-v1.0 to ATIF-v1.8)"
    );
    // An unknown version explains a shape that does not read.
    let odd = r#"{"schema_version": "ATIF-v3", "agent": 1, "steps": 2}"#;
    assert!(
        err(odd).starts_with("`schema_version` is `ATIF-v3`"),
        "{}",
        err(odd)
    );
    // A newer minor version reads, with a warning.
    let v19 = doc(&steps).replace("ATIF-v1.5", "ATIF-v1.19");
    let c = atif::read("t.json", &v19, &ReadOptions::default()).unwrap();
    assert!(
        c.warnings[0].contains("`ATIF-v1.19`, newer than the newest"),
        "{:?}",
        c.warnings
    );
}

#[test]
fn results_answering_no_call_and_steps_out_of_order_are_noted() {
    let big = "c".repeat(1_000_000);
    let text = doc(&json!([
        {"step_id": 1, "source": "agent", "message": "m", "tool_calls": [{"tool_call_id": "c1", "function_name": "f", "arguments": {}}],
         "observation": {"results": [{"source_call_id": "c1", "content": "ok"}, {"source_call_id": "ghost", "content": "?"}, {"source_call_id": big, "content": "?"}]}},
        {"step_id": 7, "source": "user", "message": ""}
    ]));
    let c = atif::read("t.json", &text, &ReadOptions::default()).unwrap();
    let notes: Vec<&str> = c.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert_eq!(notes[0], "steps[0].observation.results[1]: answers call `ghost`, which no tool call of this or an earlier step made; kept");
    assert!(notes[1].len() < 400, "a huge id is not echoed whole");
    assert_eq!(
        notes[2],
        "steps[1]: step_id is 7, expected 2 (sequential from 1); read in file order"
    );
    assert_eq!(c.trajectories[0].messages.len(), 5);
    // Many such results: at most 20 notes and a count.
    let results: Vec<_> = (0..100)
        .map(|k| json!({"source_call_id": format!("x{k}")}))
        .collect();
    let text = doc(
        &json!([{"step_id": 1, "source": "agent", "message": "m", "observation": {"results": results}}]),
    );
    let c = atif::read("t.json", &text, &ReadOptions::default()).unwrap();
    assert_eq!(c.notes.len(), 21);
    assert_eq!(c.notes[20].message, "… 80 more notes like these");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = doc(&json!([{"step_id": 1, "source": "agent", "message": "m", "tool_calls": [{"tool_call_id": "c", "function_name": "f", "arguments": {"a": 0}}]}]))
        .replace("{\"a\":0}", &deep);
    let e = err(&text);
    assert!(
        e.contains("recursion limit exceeded") && e.contains("steps[0].tool_calls[0].arguments"),
        "{}",
        &e[..e.len().min(300)]
    );
    // Subagents nested deeper than the parser allows.
    let mut sub = json!({"schema_version": "ATIF-v1.7", "trajectory_id": "x", "agent": {"name": "a", "version": "1"}, "steps": [{"step_id": 1, "source": "user", "message": "m"}]});
    for _ in 0..200 {
        let mut outer = sub.clone();
        outer["subagent_trajectories"] = json!([sub]);
        sub = outer;
        if sub.to_string().len() > 200_000 {
            break;
        }
    }
    let _ = atif::read("t.json", &sub.to_string(), &ReadOptions::default());
}

struct Memory(BTreeMap<String, Vec<u8>>);

impl Folder for Memory {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| format!("no file {path}"))
    }
}

fn result(name: &str, reward: Option<f64>) -> Vec<u8> {
    json!({"task_name": "t", "trial_name": name, "source": "ds",
           "agent_info": {"name": "ag", "version": "1", "model_info": {"name": "M"}},
           "verifier_result": reward.map(|r| json!({"rewards": {"reward": r}}))})
    .to_string()
    .into_bytes()
}

fn run(files: &[(&str, &[u8])]) -> Result<gapscope_data::formats::Corpus, String> {
    let map: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(p, b)| ((*p).to_string(), b.to_vec()))
        .collect();
    let paths: Vec<String> = map.keys().cloned().collect();
    let p = plan(&paths);
    let g = p.groups.first().cloned().expect("a group");
    read_group(
        &g,
        &mut Memory(map),
        &ReadOptions::default(),
        &mut |_, _| {},
    )
}

#[test]
fn a_corrupt_result_json_names_its_trial() {
    let good = result("good", Some(1.0));
    let c = run(&[
        ("job/config.json", b"{}"),
        ("job/good/result.json", &good),
        ("job/good/trial.log", b""),
        (
            "job/bad/result.json",
            b"{\"task_name\": \"t\", \"trial_name\": 5}",
        ),
        ("job/bad/trial.log", b""),
        ("job/bin/result.json", b"\xff\xfe{}"),
        ("job/bin/trial.log", b""),
    ])
    .unwrap();
    assert_eq!(c.trajectories.len(), 1);
    let skipped: Vec<&str> = c.skipped.iter().map(|s| s.message.as_str()).collect();
    assert_eq!(skipped.len(), 2);
    assert!(
        skipped[0]
            .starts_with("trial `job/bad`: result.json: trial_name: invalid type: integer `5`"),
        "{}",
        skipped[0]
    );
    assert_eq!(
        skipped[1],
        "trial `job/bin`: result.json: not UTF-8 text (byte 0, line 1)"
    );
    // A lone trial with a corrupt result.json is an error.
    let e = run(&[
        ("trial/result.json", b"{\"task_name\": "),
        ("trial/trial.log", b""),
    ])
    .unwrap_err();
    assert!(e.starts_with("trial `trial`: result.json: "), "{e}");
}

#[test]
fn trials_that_give_nothing_are_an_error_saying_why() {
    let infra = json!({"task_name": "t", "trial_name": "x", "agent_info": {"name": "ag"},
                       "exception_info": {"exception_type": "SandboxBuildFailedError", "exception_message": "no image"}})
    .to_string();
    let e = run(&[
        ("job/config.json", b"{}"),
        ("job/x/result.json", infra.as_bytes()),
        ("job/x/exception.txt", b""),
    ])
    .unwrap_err();
    assert_eq!(e, "the Harbor job has no trial that could be scored: of 1 trials, 1 infrastructure errors (first: x: SandboxBuildFailedError: no image; Harbor's error policy counts no reward beside this exception (an environment, verifier, model-API or configuration failure))");
}

#[test]
fn bad_member_files_are_noted_and_the_trial_kept() {
    let no_reward = result("r", None);
    let c = run(&[
        ("trial/result.json", &no_reward),
        ("trial/verifier/reward.txt", b"abc"),
        (
            "trial/agent/trajectory.json",
            b"{\"schema_version\": \"ATIF-v1.5\", \"steps\": [",
        ),
    ])
    .unwrap();
    let t = &c.trajectories[0];
    assert_eq!((t.reward, t.messages.len()), (None, 0));
    let notes: Vec<&str> = c.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        notes[0],
        "trial `trial`: verifier/reward.txt: `abc` is not a number; read with no reward"
    );
    assert!(
        notes[1].starts_with("trial `trial`: agent/trajectory.json: "),
        "{}",
        notes[1]
    );
    // Names that cannot be names refuse the trial, located.
    let padded = result(" padded", Some(1.0));
    let e = run(&[("trial/result.json", &padded), ("trial/trial.log", b"")]).unwrap_err();
    assert_eq!(
        e,
        "trial `trial`: trajectory id ` padded` is padded with spaces"
    );
    let huge = result("h", Some(1e300));
    let e = run(&[("trial/result.json", &huge), ("trial/trial.log", b"")]).unwrap_err();
    assert!(
        e.starts_with("trial `trial`: trajectory `h`: reward 1e300 is too large"),
        "{e}"
    );
}
