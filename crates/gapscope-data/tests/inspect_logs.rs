//! Every Inspect AI log in `../shared/data/inspect/` read as trajectories.
//!
//! The expected counts were read by hand, independently of gapscope: Python's
//! `json` on the `.json` logs and on every `.eval` member (deflate members via
//! `zipfile`; zstd members, method 93, by cutting the raw member bytes out of
//! the archive at the local header and piping them through the `zstd` command
//! line tool, checking the decoded size against the central directory), then
//! counting messages, assistant tool calls, tool messages with `error`, and
//! each sample's `scores[scorer].value` (the script is summarized in the
//! comment of each test). SOURCE.md's table agrees (e.g. small.eval: 70 bash
//! calls and 70 tool messages; arith-agent: 8 tool calls).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::path::PathBuf;

use gapscope_data::formats::inspect::{self, MappedValue, ScoreChoice};
use gapscope_data::formats::{
    detect_bytes, read_any, read_any_bytes, Corpus, ReadOptions, TrajectoryFormat,
};
use gapscope_data::operations::{operation_profile, ProfileOptions};

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/inspect")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}. The tests need ../shared (data) beside this clone.",
            path.display()
        )
    })
}

const ARITH_EVAL: &str = "2026-11-29T16-54-07-00-00_arith-agent_ZKFTMo2fnNsmPRjuUtSfAY.eval";
const ARITH_JSON: &str = "2026-11-29T16-54-10-00-00_arith-agent_RUTTu4uSk2DFBUScuc9P9j.json";

fn read(name: &str) -> Corpus {
    read_with(name, &ReadOptions::default())
}

fn read_with(name: &str, options: &ReadOptions) -> Corpus {
    read_any_bytes(name, &data(name), options).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn tool_calls(c: &Corpus) -> usize {
    c.trajectories
        .iter()
        .flat_map(|t| &t.messages)
        .filter(|m| m.role == "assistant")
        .map(|m| m.tool_calls.len())
        .sum()
}

fn tool_messages(c: &Corpus) -> (usize, usize) {
    let tools: Vec<_> = c
        .trajectories
        .iter()
        .flat_map(|t| &t.messages)
        .filter(|m| m.role == "tool")
        .collect();
    let errors = tools.iter().filter(|m| m.error == Some(true)).count();
    (tools.len(), errors)
}

fn values(c: &Corpus) -> Vec<(String, Option<f64>, usize)> {
    c.reward_mappings[0]
        .values
        .iter()
        .map(
            |MappedValue {
                 value,
                 reward,
                 count,
             }| (value.clone(), *reward, *count),
        )
        .collect()
}

fn by_key(c: &Corpus) -> Vec<(String, i64, Option<f64>, usize)> {
    let mut v: Vec<_> = c
        .trajectories
        .iter()
        .map(|t| {
            (
                t.task_id.clone(),
                t.trial.unwrap(),
                t.reward,
                t.messages.len(),
            )
        })
        .collect();
    v.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    v
}

/// arith-agent `.eval`: zstd members (method 93). By hand: 3 ids × 2 epochs;
/// `match` C, I, C for add-1, add-2, div-1 in both epochs; 5, 5, 7 messages;
/// 1, 1, 2 tool calls; div-1's first divide call answered with
/// error {type unknown, message "division by zero"} and empty content.
#[test]
fn arith_agent_eval_zstd() {
    assert_eq!(
        detect_bytes(&data(ARITH_EVAL)),
        Some(TrajectoryFormat::InspectEval)
    );
    let c = read(ARITH_EVAL);
    assert!(c.skipped.is_empty(), "{:?}", c.skipped);
    assert_eq!(c.trajectories.len(), 6);
    assert!(c.trajectories.iter().all(|t| t.model == "mockllm/model"));
    assert_eq!(
        by_key(&c),
        vec![
            ("arith_agent:add-1".into(), 1, Some(1.0), 5),
            ("arith_agent:add-1".into(), 2, Some(1.0), 5),
            ("arith_agent:add-2".into(), 1, Some(0.0), 5),
            ("arith_agent:add-2".into(), 2, Some(0.0), 5),
            ("arith_agent:div-1".into(), 1, Some(1.0), 7),
            ("arith_agent:div-1".into(), 2, Some(1.0), 7),
        ]
    );
    assert_eq!(tool_calls(&c), 8);
    assert_eq!(tool_messages(&c), (8, 2));
    let m = &c.reward_mappings[0];
    assert_eq!((m.scorer.as_str(), m.key.as_deref()), ("match", None));
    assert_eq!(m.chosen, "the first scorer in the header's results.scores");
    // Members are in completion order: add-1, add-2 (epoch 1), add-1, add-2
    // (epoch 2), div-1 ×2, so "C" is met first.
    assert_eq!(
        values(&c),
        vec![
            ("\"C\"".into(), Some(1.0), 4),
            ("\"I\"".into(), Some(0.0), 2)
        ]
    );
    assert_eq!(
        m.available,
        [
            "match",
            "tool_steps",
            "detail",
            "detail:exact",
            "detail:steps",
            "model_graded_qa"
        ]
    );
    assert!(m.sentence().contains(
        "reward from scorer `match` (the first scorer in the header's results.scores): \"C\" → 1 (×4), \"I\" → 0 (×2)"
    ), "{}", m.sentence());
    // The tool error, its message shown as the (empty) content.
    let div = c
        .trajectories
        .iter()
        .find(|t| t.task_id == "arith_agent:div-1")
        .unwrap();
    let err = div.messages.iter().find(|m| m.error == Some(true)).unwrap();
    assert_eq!(
        err.content,
        Some(serde_json::json!("Error (unknown): division by zero"))
    );
    let call = &div.messages[2].tool_calls[0];
    assert_eq!(call.name, "divide");
    assert_eq!(call.arguments, serde_json::json!({"a": 10.0, "b": 0}));
    assert_eq!(err.tool_call_id, call.id);
    // No limit and no error: no termination reason; the model's last stop
    // reason is a detail, named as what it is (issue 18).
    assert_eq!(div.termination_reason, None);
    let detail = |t: &gapscope_data::trajectory::Trajectory, label: &str| {
        t.details
            .iter()
            .find(|d| d.label == label)
            .map(|d| d.value.clone())
    };
    assert_eq!(
        detail(div, "model's last stop reason"),
        Some(serde_json::json!("tool_calls"))
    );
    // Every scorer's score, in the file's order, with its explanation.
    let scorers: Vec<&str> = div.scores.iter().map(|s| s.scorer.as_str()).collect();
    assert_eq!(
        scorers,
        ["match", "tool_steps", "detail", "model_graded_qa"]
    );
    let graded = &div.scores[3];
    assert_eq!(graded.value, serde_json::json!("P"));
    assert!(graded
        .explanation
        .as_deref()
        .is_some_and(|e| e.contains("GRADE")));
    assert!(graded.metadata.is_some());
    assert_eq!(div.scores[2].value["steps"], serde_json::json!(2));
    // Tokens per model and the time.
    let tokens = detail(div, "tokens").unwrap();
    assert!(tokens.get("mockllm/model").is_some(), "{tokens}");
    assert!(detail(div, "duration")
        .unwrap()
        .get("total_seconds")
        .is_some());
    // Profile: reward = 100 × mean over the 6 (4 of 6 correct).
    let p = operation_profile(&c.trajectories, &ProfileOptions::default());
    assert!((p.reward[0].unwrap() - 400.0 / 6.0).abs() < 1e-12);
}

/// Other scorers of the same log: `model_graded_qa` C, C, P (add-1, add-2,
/// div-1); the dict scorer `detail` defaults to its first key `exact`
/// (= match); `detail:steps` gives 1, 1, 2 (kept as they are: 2 is outside 0–1).
#[test]
fn arith_agent_other_scorers() {
    let with = |s: &str| ReadOptions {
        score: ScoreChoice::parse(s).unwrap(),
        ..Default::default()
    };
    let c = read_with(ARITH_EVAL, &with("model_graded_qa"));
    assert_eq!(
        values(&c),
        vec![
            ("\"C\"".into(), Some(1.0), 4),
            ("\"P\"".into(), Some(0.5), 2)
        ]
    );
    assert_eq!(c.reward_mappings[0].chosen, "given");
    let c = read_with(ARITH_EVAL, &with("detail"));
    assert_eq!(c.reward_mappings[0].key.as_deref(), Some("exact"));
    assert_eq!(
        values(&c),
        vec![
            ("\"C\"".into(), Some(1.0), 4),
            ("\"I\"".into(), Some(0.0), 2)
        ]
    );
    let c = read_with(ARITH_EVAL, &with("detail:steps"));
    assert_eq!(
        values(&c),
        vec![("1".into(), Some(1.0), 4), ("2".into(), Some(2.0), 2)]
    );
    let c = read_with(ARITH_EVAL, &with("tool_steps"));
    assert_eq!(
        values(&c),
        vec![("1.0".into(), Some(1.0), 4), ("2.0".into(), Some(2.0), 2)]
    );
    // A key the dict lacks: every sample unscored, said so.
    let c = read_with(ARITH_EVAL, &with("detail:nope"));
    assert_eq!(c.reward_mappings[0].unscored, 6);
    assert!(c.trajectories.iter().all(|t| t.reward.is_none()));
    assert!(c.reward_mappings[0]
        .sentence()
        .contains("6 sample(s) without this score have no reward"));
    let e = read_any_bytes(ARITH_EVAL, &data(ARITH_EVAL), &with("accuracy")).unwrap_err();
    assert_eq!(
        e,
        "scorer `accuracy` is not in this log (available: match, tool_steps, detail, model_graded_qa)"
    );
}

/// The `.json` twin of the arith run (a separate run, same content): the same
/// trajectories (by task and epoch) as the zstd `.eval`, through the other path.
#[test]
fn arith_agent_json_equals_the_eval() {
    let text = String::from_utf8(data(ARITH_JSON)).unwrap();
    let j = read_any(ARITH_JSON, &text, None).unwrap();
    let e = read(ARITH_EVAL);
    assert_eq!(by_key(&j), by_key(&e));
    assert_eq!(tool_calls(&j), 8);
    assert_eq!(tool_messages(&j), (8, 2));
    assert_eq!(values(&j), values(&e));
}

/// small.eval (deflate, Inspect 0.3.132): one sample id "default" × 6 epochs,
/// `score_metr_task` = 1 (an int) in each; messages 39, 36, 36, 39, 42, 36 (228)
/// and tool calls 12, 11, 11, 12, 13, 11 (70), 70 tool messages, no errors;
/// assistant content is a list of reasoning and text parts.
#[test]
fn small_eval_deflate() {
    let c = read("small.eval");
    assert_eq!(c.trajectories.len(), 6);
    assert!(c
        .trajectories
        .iter()
        .all(|t| t.model == "anthropic/claude-opus-4-1-20250805"
            && t.task_id == "oxdna_simple:default"
            && t.reward == Some(1.0)));
    let mut epochs: Vec<i64> = c.trajectories.iter().map(|t| t.trial.unwrap()).collect();
    epochs.sort_unstable();
    assert_eq!(epochs, [1, 2, 3, 4, 5, 6]);
    let mut lens: Vec<(i64, usize)> = c
        .trajectories
        .iter()
        .map(|t| (t.trial.unwrap(), t.messages.len()))
        .collect();
    lens.sort_unstable();
    assert_eq!(
        lens.iter().map(|x| x.1).collect::<Vec<_>>(),
        [39, 36, 36, 39, 42, 36]
    );
    assert_eq!(tool_calls(&c), 70);
    assert_eq!(tool_messages(&c), (70, 0));
    assert_eq!(values(&c), vec![("1".into(), Some(1.0), 6)]);
    let parts = c.trajectories[0]
        .messages
        .iter()
        .find_map(|m| match &m.content {
            Some(serde_json::Value::Array(a)) => Some(a.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(parts[0]["type"], "reasoning");
    assert!(
        parts[0].get("signature").is_none(),
        "only type and text kept"
    );
    assert!(!parts[0]["reasoning"].as_str().unwrap().is_empty());
}

/// log_streaming.eval (deflate, 0.3.42): ids 1 and 2 × 2 epochs, `match`
/// I, C (id 1) and C, C (id 2); 3 messages each, no tools.
#[test]
fn log_streaming_eval() {
    let c = read("log_streaming.eval");
    assert_eq!(
        by_key(&c),
        vec![
            ("popularity:1".into(), 1, Some(0.0), 3),
            ("popularity:1".into(), 2, Some(1.0), 3),
            ("popularity:2".into(), 1, Some(1.0), 3),
            ("popularity:2".into(), 2, Some(1.0), 3),
        ]
    );
    assert!(c
        .trajectories
        .iter()
        .all(|t| t.model == "azureai/Meta-Llama-3-1-405B-Instruct-jqf"));
    assert_eq!(tool_calls(&c), 0);
    let p = operation_profile(&c.trajectories, &ProfileOptions::default());
    assert_eq!(p.reward, vec![Some(75.0)]);
    assert_eq!(p.tasks, ["popularity:2", "popularity:1"]);
}

/// log_message_deduplication.eval: header version 3 (the pool shape), task
/// `inspect_test_utils/guess_number`, model `hardcoded/hardcoded`, one sample
/// "0": 12 messages, 5 bash calls and 5 tool messages, closeness_log 0.0.
#[test]
fn message_deduplication_eval_version_3() {
    let c = read("log_message_deduplication.eval");
    assert_eq!(
        by_key(&c),
        vec![("inspect_test_utils/guess_number:0".into(), 1, Some(0.0), 12)]
    );
    assert_eq!(c.trajectories[0].model, "hardcoded/hardcoded");
    assert_eq!(tool_calls(&c), 5);
    assert_eq!(tool_messages(&c), (5, 0));
    assert_eq!(values(&c), vec![("0.0".into(), Some(0.0), 1)]);
}

/// browser.json (0.3.95): openai/gpt-4o-mini, sample 1: 10 messages, 4 tool
/// calls (web_browser_go, web_browser_click), `includes` C.
#[test]
fn browser_json() {
    let name = "2025-05-12T20-27-36-04-00_browser.json";
    assert_eq!(
        detect_bytes(&data(name)),
        Some(TrajectoryFormat::InspectJson)
    );
    let c = read(name);
    assert_eq!(by_key(&c), vec![("browser:1".into(), 1, Some(1.0), 10)]);
    assert_eq!(c.trajectories[0].model, "openai/gpt-4o-mini");
    assert_eq!(tool_calls(&c), 4);
    assert_eq!(tool_messages(&c), (4, 0));
    let names: Vec<&str> = c.trajectories[0]
        .messages
        .iter()
        .flat_map(|m| &m.tool_calls)
        .map(|t| t.name.as_str())
        .collect();
    assert!(names
        .iter()
        .all(|n| *n == "web_browser_go" || *n == "web_browser_click"));
    assert_eq!(values(&c), vec![("\"C\"".into(), Some(1.0), 1)]);
}

/// log_formats.json: the oldest shape (0.3.41: `transcript`, no message ids):
/// ollama/llama3.1, one sample, `match` I, 3 messages.
#[test]
fn log_formats_json_oldest_shape() {
    let c = read("log_formats.json");
    assert_eq!(by_key(&c), vec![("popularity:1".into(), 1, Some(0.0), 3)]);
    assert_eq!(c.trajectories[0].model, "ollama/llama3.1");
    assert_eq!(c.trajectories[0].termination_reason, None);
    assert!(c.trajectories[0]
        .details
        .iter()
        .any(|d| d.label == "model's last stop reason" && d.value == "stop"));
}

/// log_tool_call_error.json (hand-redacted): sample 1, epoch 4, 11 tool
/// messages each with an `error` (10 types), no `scores`: the header's first
/// scorer `includes` is chosen and the sample is unscored (missing, not 0).
#[test]
fn tool_call_error_json() {
    let c = read("log_tool_call_error.json");
    assert_eq!(c.trajectories.len(), 1);
    let t = &c.trajectories[0];
    assert_eq!((t.model.as_str(), t.task_id.as_str()), ("...", "...:1"));
    assert_eq!(t.trial, Some(4));
    assert_eq!(t.reward, None);
    assert_eq!(tool_messages(&c), (11, 11));
    let m = &c.reward_mappings[0];
    assert_eq!((m.scorer.as_str(), m.unscored), ("includes", 1));
    // The content "..." is kept; the error is flagged.
    assert_eq!(t.messages[0].content, Some(serde_json::json!("...")));
}

/// A model override renames every trajectory; ids keep the log's model.
#[test]
fn model_override() {
    let c = read_with(
        "log_streaming.eval",
        &ReadOptions {
            model: Some("Llama 405B".into()),
            ..Default::default()
        },
    );
    assert!(c.trajectories.iter().all(|t| t.model == "Llama 405B"));
    assert_eq!(
        c.trajectories[0].id,
        "popularity:2:epoch2@azureai/Meta-Llama-3-1-405B-Instruct-jqf"
    );
}

// ---- hand-made archives: headerless, broken and zstd multi-frame members ----

fn members(name: &str) -> Vec<(String, Vec<u8>)> {
    let bytes = data(name);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut b = Vec::new();
            f.read_to_end(&mut b).unwrap();
            (f.name().to_string(), b)
        })
        .collect()
}

fn stored_zip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (n, b) in entries {
        w.start_file(n.as_str(), opts).unwrap();
        w.write_all(b).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn a_headerless_log_reads_from_the_journal() {
    let entries: Vec<_> = members("log_streaming.eval")
        .into_iter()
        .filter(|(n, _)| n != "header.json")
        .collect();
    let zip = stored_zip(&entries);
    let c = read_any_bytes("crashed.eval", &zip, &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 4);
    assert!(c
        .trajectories
        .iter()
        .all(|t| t.model == "azureai/Meta-Llama-3-1-405B-Instruct-jqf"));
    // No results.scores: the first key of the first sample's scores.
    let m = &c.reward_mappings[0];
    assert_eq!(m.scorer, "match");
    assert_eq!(m.chosen, "the first score of the first scored sample");
    assert_eq!(
        c.skipped[0].to_string(),
        "no header.json (an unfinished or crashed log): model and task from _journal/start.json"
    );
}

#[test]
fn broken_members_are_located_and_the_rest_read() {
    let mut entries: Vec<_> = members("log_streaming.eval");
    for (n, b) in &mut entries {
        if n == "samples/1_epoch_2.json" {
            *b = b"{\"id\": 1,\n \"epoch\": \"two\"}".to_vec();
        }
    }
    entries.push(("samples/9_epoch_1/sample.json".into(), b"{}".to_vec()));
    let zip = stored_zip(&entries);
    let c = read_any_bytes("x.eval", &zip, &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 3);
    let msgs: Vec<String> = c
        .skipped
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(
        msgs[0],
        "samples/1_epoch_2.json, line 2, column 15: invalid type: string \"two\", expected i64"
    );
    assert_eq!(
        msgs[1],
        "1 sample(s) in the chunked layout (e.g. samples/9_epoch_1/sample.json) are not read"
    );
    // A broken header is an error naming the member.
    let mut entries = members("log_streaming.eval");
    for (n, b) in &mut entries {
        if n == "header.json" {
            *b = b"{\"version\": 2, \"eval\": {\"task\": 3}}".to_vec();
        }
    }
    let e = read_any_bytes("x.eval", &stored_zip(&entries), &ReadOptions::default()).unwrap_err();
    assert!(
        e.starts_with("header.json, line 1, column 33: invalid type: integer `3`"),
        "{e}"
    );
    let mut entries = members("log_streaming.eval");
    entries.retain(|(n, _)| n.starts_with("samples/"));
    let e = read_any_bytes("x.eval", &stored_zip(&entries), &ReadOptions::default()).unwrap_err();
    assert!(
        e.starts_with("neither header.json nor _journal/start.json is in the archive"),
        "{e}"
    );
    let e = read_any_bytes("x.eval", b"PK\x03\x04 truncated", &ReadOptions::default()).unwrap_err();
    assert!(e.starts_with("not a readable zip archive"), "{e}");
}

/// Rewrite stored members as zstd (method 93): compress each member's bytes as
/// `frames` concatenated frames, write them as stored, then set the method,
/// the uncompressed size and the CRC-32 of the uncompressed bytes in the local
/// and central headers by hand.
fn zstd_zip(entries: &[(String, Vec<u8>)], frames: usize) -> Vec<u8> {
    let compressed: Vec<(String, Vec<u8>, u32, u32)> = entries
        .iter()
        .map(|(n, b)| {
            let chunk = b.len().div_ceil(frames).max(1);
            let mut z = Vec::new();
            for part in b.chunks(chunk) {
                z.extend(ruzstd::encoding::compress_to_vec(
                    part,
                    ruzstd::encoding::CompressionLevel::Fastest,
                ));
            }
            let mut crc = flate2::Crc::new();
            crc.update(b);
            (n.clone(), z, b.len() as u32, crc.sum())
        })
        .collect();
    let mut zip = stored_zip(
        &compressed
            .iter()
            .map(|(n, z, _, _)| (n.clone(), z.clone()))
            .collect::<Vec<_>>(),
    );
    let find_all = |zip: &[u8], sig: &[u8]| -> Vec<usize> {
        (0..zip.len().saturating_sub(4))
            .filter(|&i| &zip[i..i + 4] == sig)
            .collect()
    };
    for (k, at) in find_all(&zip, b"PK\x03\x04").into_iter().enumerate() {
        zip[at + 8..at + 10].copy_from_slice(&93u16.to_le_bytes());
        zip[at + 14..at + 18].copy_from_slice(&compressed[k].3.to_le_bytes());
        zip[at + 22..at + 26].copy_from_slice(&compressed[k].2.to_le_bytes());
    }
    for (k, at) in find_all(&zip, b"PK\x01\x02").into_iter().enumerate() {
        zip[at + 10..at + 12].copy_from_slice(&93u16.to_le_bytes());
        zip[at + 16..at + 20].copy_from_slice(&compressed[k].3.to_le_bytes());
        zip[at + 24..at + 28].copy_from_slice(&compressed[k].2.to_le_bytes());
    }
    zip
}

#[test]
fn multi_frame_zstd_members_decode() {
    let entries = members("log_streaming.eval");
    let plain = read("log_streaming.eval");
    for frames in [1, 3] {
        let zip = zstd_zip(&entries, frames);
        let c = read_any_bytes("z.eval", &zip, &ReadOptions::default()).unwrap();
        assert!(c.skipped.is_empty(), "{:?}", c.skipped);
        assert_eq!(by_key(&c), by_key(&plain), "{frames} frame(s)");
    }
    // Corrupt zstd data (two frames a member, members in archive order:
    // _journal/start.json, samples/2_epoch_2.json, …, header.json last).
    let magics = |zip: &[u8]| -> Vec<usize> {
        zip.windows(4)
            .enumerate()
            .filter(|(_, w)| *w == [0x28, 0xb5, 0x2f, 0xfd])
            .map(|(i, _)| i)
            .collect()
    };
    assert_eq!(entries[1].0, "samples/2_epoch_2.json");
    let mut zip = zstd_zip(&entries, 2);
    let m = magics(&zip);
    assert_eq!(m.len(), 2 * entries.len());
    zip[m[2] + 1] = 0;
    let c = read_any_bytes("z.eval", &zip, &ReadOptions::default()).unwrap();
    assert_eq!(c.trajectories.len(), 3, "the broken sample is skipped");
    assert!(
        c.skipped[0]
            .to_string()
            .starts_with("samples/2_epoch_2.json: zstd data could not be decoded"),
        "{:?}",
        c.skipped
    );
    let mut zip = zstd_zip(&entries, 2);
    let last = *magics(&zip).last().unwrap();
    zip[last + 1] = 0;
    let e = read_any_bytes("z.eval", &zip, &ReadOptions::default()).unwrap_err();
    assert!(
        e.starts_with("header.json: zstd data could not be decoded"),
        "{e}"
    );
}

#[test]
fn score_values_map_as_inspect_value_to_float() {
    use serde_json::json;
    let cases = [
        (json!("C"), Some(1.0)),
        (json!("I"), Some(0.0)),
        (json!("P"), Some(0.5)),
        (json!("N"), Some(0.0)),
        (json!(1), Some(1.0)),
        (json!(0.25), Some(0.25)),
        (json!(true), Some(1.0)),
        (json!(false), Some(0.0)),
        (json!("Yes"), Some(1.0)),
        (json!("TRUE"), Some(1.0)),
        (json!("no"), Some(0.0)),
        (json!("False"), Some(0.0)),
        (json!("0.75"), Some(0.75)),
        (json!("3"), Some(3.0)),
        // Inspect turns these into 0 with a warning; here they are missing.
        (json!("c"), None),
        (json!("-1"), None),
        (json!("1.2.3"), None),
        (json!("."), None),
        (json!(""), None),
        (json!([1]), None),
        (json!(null), None),
        (json!({"a": 1}), None),
    ];
    for (v, want) in cases {
        assert_eq!(inspect::value_to_reward(&v), want, "{v}");
    }
}

#[test]
fn nan_tokens_are_read_as_null() {
    let s = br#"{"a": NaN, "b": "NaN and -Infinity", "c": [Infinity, -Infinity], "d": "q\"NaN"}"#;
    let clean = inspect::sanitize_nonfinite(s);
    assert_eq!(
        std::str::from_utf8(&clean).unwrap(),
        r#"{"a": null, "b": "NaN and -Infinity", "c": [null, null], "d": "q\"NaN"}"#
    );
    assert!(matches!(
        inspect::sanitize_nonfinite(b"{\"a\": 1}"),
        std::borrow::Cow::Borrowed(_)
    ));
    // A NaN score in a .json log: the reward is missing and counted.
    let log = r#"{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"},
      "results": {"scores": [{"name": "s", "scorer": "s", "metrics": {"stderr": {"value": NaN}}}]},
      "samples": [{"id": 1, "epoch": 1, "messages": [], "scores": {"s": {"value": NaN}}},
                  {"id": 2, "epoch": 1, "messages": [], "scores": {"s": {"value": "C"}}}]}"#;
    let c = read_any("x.json", log, None).unwrap();
    assert_eq!(c.trajectories[0].reward, None);
    assert_eq!(c.trajectories[1].reward, Some(1.0));
    assert_eq!(c.reward_mappings[0].unrecognized, 1);
    assert!(c.reward_mappings[0]
        .sentence()
        .contains("null → missing (×1)"));
}

#[test]
fn json_log_errors_are_located_and_scorer_choice_parses() {
    let e = read_any(
        "x.json",
        "{\"version\": 2, \"status\": \"success\", \"eval\": {\"task\": \"t\", \"model\": \"m\"},\n \"samples\": [{\"id\": 1}]}",
        None,
    )
    .unwrap_err();
    assert!(
        e.starts_with("x.json, line 2, column 22: missing field `epoch`"),
        "{e}"
    );
    let e = read_any(
        "x.json",
        "{\"version\": 7, \"eval\": {\"task\": \"t\", \"model\": \"m\"}}",
        None,
    )
    .unwrap_err();
    assert_eq!(e, "x.json: log version 7 is not read (expected 2 or 3)");
    assert_eq!(
        ScoreChoice::parse("detail:steps").unwrap(),
        ScoreChoice {
            scorer: Some("detail".into()),
            key: Some("steps".into())
        }
    );
    assert!(ScoreChoice::parse(":x").is_err());
    assert!(ScoreChoice::parse("a:").is_err());
}

/// The inputs list every score a reward can come from over the logs (the
/// page's scorer picker), once each in order of first appearance, and the
/// ones used: the header's first scorer by default, the chosen one after.
#[test]
fn inputs_list_the_scorers_of_their_logs() {
    use gapscope_data::ingest::{read_inputs, Messages, TrajectoryOptions};
    let files = vec![
        (ARITH_JSON.to_string(), data(ARITH_JSON)),
        ("log_formats.json".to_string(), data("log_formats.json")),
    ];
    let inputs = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap();
    assert_eq!(
        inputs.scorers,
        [
            "match",
            "tool_steps",
            "detail",
            "detail:exact",
            "detail:steps",
            "model_graded_qa"
        ]
    );
    assert_eq!(inputs.scored_by, ["match"]);
    let one = vec![(ARITH_JSON.to_string(), data(ARITH_JSON))];
    let options = TrajectoryOptions {
        score: ScoreChoice::parse("detail:steps").unwrap(),
        ..Default::default()
    };
    let inputs = read_inputs(&one, &options, &Messages::Counts).unwrap();
    assert_eq!(inputs.scored_by, ["detail:steps"]);
}
