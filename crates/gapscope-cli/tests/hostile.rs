//! Hostile inputs through the CLI (issue 8; one input file per case under
//! tests/hostile/, docs/limits.md): each gives a located message naming the
//! file, or is read with a visible warning — never a panic, never a silent
//! change of the numbers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

mod common;
use common::gapscope;

/// `gapscope report` on one hostile profile file must fail with exactly `message`.
fn refused(file: &str, message: &str) {
    let path = format!("tests/hostile/{file}");
    let out = gapscope(&["report", "--bootstrap", "0", "--profiles", &path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
    assert!(!stderr.contains("panicked"), "{file}: {stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!("error: {path}: {message}"),
        "{file}"
    );
}

/// `gapscope report --json` on a hostile file that is read: the report.
fn report(files: &[&str]) -> Value {
    let paths: Vec<String> = files.iter().map(|f| format!("tests/{f}")).collect();
    let out = gapscope(&[
        "report",
        "--bootstrap",
        "20",
        "--json",
        "--profiles",
        &paths.join(","),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn warnings(v: &Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

/// The report of the clean fixture every variant is compared with.
fn baseline() -> Value {
    report(&["fixtures/profiles-small.csv"])
}

/// The numbers of a report (everything but where it came from).
fn numbers(mut v: Value) -> Value {
    for k in ["input", "summary", "tool", "version"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn non_finite_cells_are_refused_at_their_line_and_column() {
    let tail = "is not a finite number; leave the cell empty for a missing value";
    refused(
        "nan-cell.csv",
        &format!("line 2, column `TU`: `NaN` {tail}"),
    );
    refused(
        "inf-cell.csv",
        &format!("line 3, column `TU`: `inf` {tail}"),
    );
    // `-Infinity` parses as −∞ and is named as the number it is.
    refused(
        "neg-inf-cell.csv",
        &format!("line 4, column `TU`: `-inf` {tail}"),
    );
}

#[test]
fn empty_and_header_only_files_are_refused() {
    refused("empty.csv", "the file is empty");
    refused(
        "header-only.csv",
        "no model rows: the file has a header but no data",
    );
}

#[test]
fn a_repeated_model_is_refused_with_both_lines() {
    refused(
        "duplicate-model.csv",
        "line 9: model `Alpha Two` appears again (first at line 3)",
    );
    refused(
        "model-in-two-families.csv",
        "line 9: model `Alpha Two` appears again, in family `South` (first at line 3, in family `North`): a model belongs to one family",
    );
}

#[test]
fn a_model_in_two_families_across_files_names_both_files() {
    let out = gapscope(&[
        "report",
        "--bootstrap",
        "0",
        "--profiles",
        "tests/hostile/family-split-a.csv,tests/hostile/family-split-b.csv",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: model `Alpha Two` is in family `North` in tests/hostile/family-split-a.csv but `South` in tests/hostile/family-split-b.csv"
    );
}

#[test]
fn one_or_two_families_fall_back_to_leave_one_model_out_visibly() {
    for (file, n) in [
        ("one-family.csv", "1 family"),
        ("two-families.csv", "2 families"),
    ] {
        let v = report(&[&format!("hostile/{file}")]);
        assert_eq!(v["folds"]["kind"], "model", "{file}: {}", v["folds"]);
        let w = warnings(&v);
        assert_eq!(
            w[0],
            format!("only {n} (hold-out by family needs at least 3): leave-one-model-out is used instead, each model its own fold"),
            "{file}"
        );
    }
}

#[test]
fn a_constant_column_is_named_and_has_no_correlation() {
    let v = report(&["hostile/constant-column.csv"]);
    assert!(warnings(&v).contains(&"foundational dimension RE: every model with a value has 50; a constant column has no correlation (—) and no weight in any fit".to_string()), "{:?}", warnings(&v));
    // RE is the second foundational row: undefined (null), never 0.
    assert_eq!(
        v["correlations"]["pearson"][1],
        serde_json::json!([null, null, null])
    );
}

#[test]
fn more_dimensions_than_models_is_said() {
    let v = report(&["hostile/more-dimensions-than-models.csv"]);
    assert!(warnings(&v).contains(&"7 foundational dimensions for 4 models: with at least as many dimensions as models only the ridge penalty makes the fit unique; held-out predictions lean on alpha".to_string()), "{:?}", warnings(&v));
}

#[test]
fn a_fraction_among_percent_rewards_is_said_and_nothing_is_rescaled() {
    let v = report(&["hostile/mixed-reward-scale.csv"]);
    assert!(warnings(&v).contains(&"reward: 0.41 (model Alpha One) lies between 0 and 1 while others reach 47; every value is read on 0–100, so 0.41 means 0.41%; if some values are fractions, put the column on one scale (or give the reward scale)".to_string()), "{:?}", warnings(&v));
    // Read as they are: 0.41 stays 0.41 and 47 stays 47.
    let observed = &v["outcome"]["F"]["observed"];
    assert_eq!(observed[0], 0.41, "{observed}");
    assert_eq!(observed[1], 47.0, "{observed}");
}

#[test]
fn non_utf8_bytes_are_refused_at_their_line() {
    refused(
        "non-utf8.csv",
        "line 4: not UTF-8 text (invalid byte at offset 145); save the file as UTF-8",
    );
}

#[test]
fn bom_and_crlf_change_no_number() {
    let base = numbers(baseline());
    assert_eq!(numbers(report(&["hostile/bom.csv"])), base);
    assert_eq!(numbers(report(&["hostile/crlf.csv"])), base);
}

#[test]
fn a_quoted_comma_stays_inside_its_name() {
    let v = report(&["hostile/quoted-commas.csv"]);
    assert_eq!(v["models"][0], "Alpha, One");
    let mut renamed = numbers(v);
    renamed["models"][0] = "Alpha One".into();
    let base = numbers(baseline());
    // Only the name differs: every number is the clean file's.
    assert_eq!(renamed["operations"], base["operations"]);
    assert_eq!(renamed["outcome"], base["outcome"]);
    assert_eq!(renamed["correlations"], base["correlations"]);
}

#[test]
fn deep_json_nesting_is_refused_with_its_place() {
    refused(
        "nesting-500.json",
        "line 1: column 65: invalid type: sequence, expected f64",
    );
    // A trajectory line nested 500 deep exceeds serde_json's recursion limit
    // (128): the line is skipped and said; with nothing else read, the file is refused.
    let out = gapscope(&[
        "report",
        "--bootstrap",
        "0",
        "--profiles",
        "tests/fixtures/foundational-small.csv",
        "--trajectories",
        "tests/hostile/nesting-500.jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: tests/hostile/nesting-500.jsonl: no trajectory could be read; each reader declined it: canonical JSONL: 1 of 1 non-blank line(s) skipped (first: line 1: column 265: recursion limit exceeded); τ²-bench results: line 1, column 1396: not a τ²-bench results file: missing field `simulations`; Inspect AI `.json` log: no top-level `eval` with `version` or `status`; Inspect AI `.eval` log: not a zip archive; the other readers (τ³ simulation, τ-bench v1, ATIF, SWE-agent, mini-swe-agent, Gemini CLI, OpenHands, Claude Code, Codex): a JSON object with `id`, `model`, `task_id`, `scenario_group`, `trial`, `reward`, `messages`, `labels`, … (9 keys), which none of them takes"
    );
}

#[test]
fn labels_outside_the_scale_are_refused_or_skipped_with_their_line() {
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
        "--labels",
        "tests/hostile/labels-outside.csv",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: tests/hostile/labels-outside.csv: line 3: label `2` is not 0, 0.5, 1 or null"
    );
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        "tests/hostile/labels-outside.jsonl",
    ]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("tests/hostile/labels-outside.jsonl: line 2: trajectory `t-002`, operation GI, requirement 1: label 0.7 is not 0, 0.5, 1 or null (skipped)"), "{stderr}");
}

#[test]
fn tool_results_answering_unknown_call_ids_are_noted_and_kept() {
    let out = gapscope(&[
        "profiles",
        "--trajectories",
        "tests/hostile/unknown-call-ids.jsonl",
    ]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("tests/hostile/unknown-call-ids.jsonl: line 1: trajectory `t-001`: 1 tool result answers no earlier tool call (message 3 answers `c9`); kept"), "{stderr}");
    // Kept: the profile is that of the clean file.
    let clean = gapscope(&[
        "profiles",
        "--trajectories",
        "tests/fixtures/trajectories-small.jsonl",
    ]);
    assert_eq!(out.stdout, clean.stdout);
}

/// A reader that stops early (`gapscope … | head -1`) is no crash: the
/// command ends quietly, without a panic message.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .args(["synth", "--families", "200", "--per-family", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is dropped here: the pipe closes while gapscope still writes.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}

// ------------------------------------------------------------------------
// Evidence, runtime and synthetic sizes (issue 14). Inputs generated into a
// temporary folder; the CLI runs under `prlimit --as` (4 GiB of address
// space) with a generous hang guard (`timeout 600`), and the located message
// is asserted (no timing assertion).

mod bounded {
    use std::path::PathBuf;
    use std::process::{Command, Output};

    /// A fresh temporary folder for one test.
    pub fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("gapscope-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// `gapscope args` under a 4 GiB address-space limit and a 600 s guard.
    pub fn run(args: &[&str]) -> Output {
        Command::new("timeout")
            .args(["600", "prlimit", "--as=4294967296", "--"])
            .arg(env!("CARGO_BIN_EXE_gapscope"))
            .args(args)
            .output()
            .unwrap()
    }

    /// The run failed (exit 1, no panic, not killed) with `message` on stderr.
    pub fn refused(args: &[&str], message: &str) {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr:.2000}");
        assert!(!stderr.contains("panicked"), "{stderr:.2000}");
        assert!(stderr.contains(message), "{args:?}: {stderr:.2000}");
    }
}

fn write(path: &std::path::Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    path.display().to_string()
}

fn chain_case(n: usize, cyclic: bool) -> String {
    let actions: Vec<Value> = (0..n)
        .map(|i| {
            let mut a = serde_json::json!({"id": format!("a{i}"), "tool": "do"});
            if cyclic {
                a["after"] = serde_json::json!([format!("a{}", (i + 1) % n)]);
            } else if i > 0 {
                a["args"] = serde_json::json!({"x": {"ref": format!("a{}.f", i - 1)}});
                a["after"] = serde_json::json!([format!("a{}", i - 1)]);
            }
            a
        })
        .collect();
    serde_json::json!({"case_id": "big", "protocol": "V3", "domain": "d",
        "tools": {"consequential": [{"name": "do"}]}, "actions": actions, "terminal": "ACT"})
    .to_string()
}

const SMALL_CASE: &str = r#"{"case_id": "s", "protocol": "V1", "domain": "d", "tools": {"information": [{"name": "r"}], "consequential": [{"name": "do"}]}, "requirements": [{"id": "q", "fact": "f", "source": {"tool": "r", "args": {"k": 1}}}], "actions": [{"id": "a1", "tool": "do", "requires": ["q"]}], "terminal": "ACT"}"#;

fn small_trajectory(id: &str) -> String {
    serde_json::json!({"id": id, "case_id": "s", "config": "A", "repetition": 0, "messages": [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "r0", "name": "r", "arguments": {"k": 1}}]},
        {"role": "tool", "tool_call_id": "r0", "content": {"status": "ok"}},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "d", "name": "do", "arguments": {}}]},
        {"role": "tool", "tool_call_id": "d", "content": {"status": "applied", "result": {}}}]})
    .to_string()
}

#[test]
fn evidence_dependency_cycles_and_ref_chains_of_100000_actions_end_bounded() {
    let d = bounded::dir("evidence-graph");
    let empty = write(&d.join("none.jsonl"), "");
    // A 10⁵-action cycle: refused with the actions involved (it aborted on
    // a stack overflow after minutes of quadratic validation).
    let cycle = write(&d.join("cycle.json"), &chain_case(100_000, true));
    bounded::refused(
        &["evidence", "score", "--cases", &cycle, "--trajectories", &empty, "--bootstrap", "0"],
        &format!("error: {cycle}: case `big` (line 1), actions[0].after: cyclic dependency: a0 → a1 → a2 → "),
    );
    // A 10⁵ ref (and after) chain: loads and scores an empty file (> 120 s before).
    let chain = write(&d.join("chain.json"), &chain_case(100_000, false));
    let out = bounded::run(&[
        "evidence",
        "score",
        "--cases",
        &chain,
        "--trajectories",
        &empty,
        "--bootstrap",
        "0",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr:.2000}");
    assert!(String::from_utf8_lossy(&out.stdout)
        .starts_with("Evidence to action: 1 cases, 0 trajectories"));
}

#[test]
fn an_evidence_plan_with_huge_repetitions_is_refused_with_the_field() {
    let d = bounded::dir("evidence-plan");
    let cases = write(&d.join("cases.json"), SMALL_CASE);
    let t = write(&d.join("t.jsonl"), &small_trajectory("t"));
    let plan = write(
        &d.join("plan.json"),
        r#"{"cases": ["s"], "configs": ["A"], "repetitions": 4000000000}"#,
    );
    bounded::refused(
        &["evidence", "score", "--cases", &cases, "--trajectories", &t, "--plan", &plan],
        &format!("error: {plan}: run manifest: field `repetitions`: 4000000000 exceeds the limit of 10000 repetitions"),
    );
}

#[test]
fn a_64_kb_trajectory_id_is_printed_not_a_panic() {
    let d = bounded::dir("evidence-name");
    let cases = write(&d.join("cases.json"), SMALL_CASE);
    let id = "n".repeat(70_000);
    let t = write(&d.join("t.jsonl"), &small_trajectory(&id));
    let out = bounded::run(&[
        "evidence",
        "score",
        "--cases",
        &cases,
        "--trajectories",
        &t,
        "--bootstrap",
        "0",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr:.2000}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("  {id}  V1      ECS 1")),
        "{stdout:.300}"
    );
}

#[test]
fn huge_synthetic_sizes_are_refused_before_allocating() {
    let d = bounded::dir("synth");
    let out = d.join("out").display().to_string();
    bounded::refused(
        &["synth-trajectories", "--families", "1000000000", "--per-family", "1000000000", "--out", &out],
        "error: --families × --per-family: 1000000000 × 1000000000 = 1000000000000000000 models exceed the limit of 10000",
    );
    bounded::refused(
        &["synth-trajectories", "--tasks", "100000", "--trials", "1000", "--out", &out],
        "error: models × --tasks × --trials: 15 × 100000 × 1000 = 1500000000 trajectories exceed the limit of 1000000",
    );
    bounded::refused(
        &["synth", "--families", "1000000000000", "--per-family", "1"],
        "error: --families × --per-family: 1000000000000 × 1 = 1000000000000 models exceed the limit of 100000",
    );
    bounded::refused(
        &["synth", "--operations", "1000000000000"],
        "error: --operations: 1000000000000 exceeds the limit of 1000 dimensions",
    );
}

#[test]
fn knapsack_weights_past_exact_integers_are_refused_at_their_line() {
    let d = bounded::dir("knapsack");
    let inst = r#"{"capacity": 5, "budget": 3, "allowed_classes": ["A"], "items": [{"id": "h1", "weight": 9223372036854775808, "value": 50, "class": "A"}, {"id": "h2", "weight": 9223372036854775808, "value": 50, "class": "A"}, {"id": "s", "weight": 1, "value": 1, "class": "A"}]}"#;
    let line = |id: &str, score: f64, calls: &str, inst: &str| {
        format!(
            r#"{{"episode_id":"{id}","task_family":"opaque_knapsack","instance_id":"{id}","train_runtime":"P","deploy_runtime":"P","cap":5,"seed":0,"rollout":0,"base_model":"m","score":{score},"termination":"finish","instance":{inst},"turns":[{{"index":0,"logged":true,"calls":[{calls}]}}]}}"#
        )
    };
    let honest_inst = r#"{"capacity": 5, "budget": 3, "allowed_classes": ["A"], "items": [{"id": "s", "weight": 1, "value": 1, "class": "A"}]}"#;
    let log = format!(
        "{}\n{}\n",
        line(
            "ok",
            1.0,
            r#"{"tool":"take_item","args":"s","ok":true}"#,
            honest_inst
        ),
        line(
            "big",
            0.0,
            r#"{"tool":"take_item","args":"h1","ok":true},{"tool":"take_item","args":"h2","ok":true}"#,
            inst
        )
    );
    let path = write(&d.join("log.jsonl"), &log);
    let out = bounded::run(&[
        "runtime",
        "analyze",
        "--episodes",
        &path,
        "--bootstrap",
        "0",
        "--json",
        "--no-episodes",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("{path}: line 2: field `instance.items[0].weight`: 9223372036854775808 exceeds 9007199254740992 (2^53, the largest integer a JSON number holds exactly) (skipped)")), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verification"]["agree"], 1);
    assert_eq!(
        v["verification"]["disagreements"].as_array().unwrap().len(),
        0
    );
}

// Issue 14 (tables and numbers): big inputs generated here, run under a
// memory limit (`prlimit --as`) and a generous hang guard (`timeout 300`);
// the assertions are on the located message, never on time.

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gapscope-i14-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `gapscope ARGS` under 4 GB of address space and a 300 s guard.
fn limited(args: &[&str]) -> std::process::Output {
    std::process::Command::new("timeout")
        .arg("300")
        .arg("prlimit")
        .arg("--as=4000000000")
        .arg(env!("CARGO_BIN_EXE_gapscope"))
        .args(args)
        .current_dir(common::root())
        .output()
        .unwrap()
}

fn failed_with(out: &std::process::Output, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim_end(), message);
}

#[test]
fn a_header_of_a_million_columns_is_refused_at_its_line() {
    let dir = scratch("columns");
    let path = dir.join("wide.csv");
    let mut text = String::from("model,family");
    for k in 0..999_998 {
        text.push_str(&format!(",c{k}"));
    }
    text.push_str("\nm1,A\n");
    std::fs::write(&path, text).unwrap();
    let p = path.display().to_string();
    let out = limited(&["report", "--bootstrap", "0", "--profiles", &p]);
    failed_with(
        &out,
        &format!("error: {p}: line 1: the header has 1000000 columns; at most 10000 are read"),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_model_name_of_64_kb_is_refused_at_its_line() {
    let dir = scratch("name");
    let path = dir.join("long-name.csv");
    let name = "n".repeat(64 * 1024);
    std::fs::write(
        &path,
        format!("model,family,TU,GI,reward\nm1,A,1,2,30\n{name},B,2,3,40\nm3,C,3,1,50\n"),
    )
    .unwrap();
    let p = path.display().to_string();
    let out = limited(&["report", "--bootstrap", "0", "--profiles", &p]);
    failed_with(
        &out,
        &format!("error: {p}: line 3: the `model` field is 65536 bytes long; names are at most 4096 bytes (4 KiB)"),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nested_selection_over_10000_one_model_families_is_refused() {
    let dir = scratch("families");
    let path = dir.join("families.csv");
    let mut text = String::from("model,family,TU,RE,GI,PL,reward\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "m{i},f{i},{},{},{},{},{}\n",
            i % 7,
            i % 13,
            i % 5,
            i % 11,
            i % 17
        ));
    }
    std::fs::write(&path, text).unwrap();
    let p = path.display().to_string();
    let out = limited(&["report", "--bootstrap", "0", "--profiles", &p]);
    failed_with(
        &out,
        &format!("error: {p}: nested penalty selection over 10000 folds: at most 1000 (it refits the inner hold-outs inside every outer fold, so its cost grows with the square of the folds); use --no-nested, or group the models into fewer families"),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn crlf_profile_errors_name_the_files_own_line() {
    let dir = scratch("crlf");
    let path = dir.join("crlf-bad.csv");
    std::fs::write(
        &path,
        "model,family,TU,GI\r\nm1,A,1,2\r\nm2,B,3,4\r\nm3,C,5,6\r\nm4,D,7,8\r\nm5,E,x,9\r\n",
    )
    .unwrap();
    let p = path.display().to_string();
    let out = common::gapscope(&["report", "--bootstrap", "0", "--profiles", &p]);
    failed_with(
        &out,
        &format!("error: {p}: line 6, column `TU`: expected a number (or an empty cell for a missing value), found `x`"),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn names_with_terminal_control_sequences_are_shown_escaped() {
    let dir = scratch("escape");
    let path = dir.join("escape.csv");
    std::fs::write(
        &path,
        "model,family,TU,GI,reward\n\u{1b}[2J\u{1b}]0;pwned\u{7},A,1,2,30\nm2,B,2,3,40\nm3,C,3,1,50\nm4,D,4,4,45\n",
    )
    .unwrap();
    let p = path.display().to_string();
    let out = common::gapscope(&["report", "--bootstrap", "0", "--profiles", &p]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    assert!(text.contains("\\u{1b}[2J\\u{1b}]0;pwned\\u{7}"), "{text}");
    // JSON keeps the name exactly (serde escapes it).
    let out = common::gapscope(&["report", "--bootstrap", "0", "--json", "--profiles", &p]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["models"][0], "\u{1b}[2J\u{1b}]0;pwned\u{7}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn profiles_neutralise_formula_names_and_read_back_into_report() {
    let dir = scratch("formula");
    let traj = dir.join("t.jsonl");
    let mut lines = String::new();
    let models = ["=HYPERLINK(\"http://x\")", "-2+3", "@m", "plain"];
    for (i, m) in models.iter().enumerate() {
        for (k, task) in ["k1", "k2"].iter().enumerate() {
            let label = (i + k) % 2;
            lines.push_str(&format!(
                "{}\n",
                serde_json::json!({"id": format!("{i}-{task}"), "model": m, "task_id": task,
                    "reward": label as f64, "labels": {"GI": [label], "PL": [1 - label]}})
            ));
        }
    }
    std::fs::write(&traj, lines).unwrap();
    let t = traj.display().to_string();
    let out = common::gapscope(&["profiles", "--trajectories", &t]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.contains("\n\"'=HYPERLINK(\"\"http://x\"\")\","),
        "{csv}"
    );
    assert!(csv.contains("\n\"'-2+3\","), "{csv}");
    assert!(csv.contains("\n\"'@m\","), "{csv}");
    assert!(csv.contains("\nplain,"), "{csv}");
    let ops = dir.join("ops.csv");
    std::fs::write(&ops, &csv).unwrap();
    let found = dir.join("found.csv");
    let mut f = String::from("model,family,TU,RE\n");
    for (i, m) in models.iter().enumerate() {
        f.push_str(&format!(
            "{},F{i},{},{}\n",
            gapscope_data::profile::csv_safe(m),
            50 + i,
            60 - i
        ));
    }
    std::fs::write(&found, f).unwrap();
    let both = format!("{},{}", found.display(), ops.display());
    let out = common::gapscope(&["report", "--bootstrap", "0", "--json", "--profiles", &both]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        names, models,
        "the join matched every model by its own name"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stability_with_no_model_in_the_profile_is_an_error_naming_both_sides() {
    let dir = scratch("stability");
    let out = common::gapscope(&[
        "synth-trajectories",
        "--families",
        "3",
        "--per-family",
        "1",
        "--tasks",
        "6",
        "--groups",
        "2",
        "--out",
        &dir.display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let profile = dir.join("other.csv");
    std::fs::write(
        &profile,
        "model,family,TU,RE\nx1,A,1,2\nx2,B,2,3\nx3,C,3,1\n",
    )
    .unwrap();
    let out = common::gapscope(&[
        "stability",
        "--bootstrap",
        "0",
        "--splits",
        "0",
        "--profiles",
        &profile.display().to_string(),
        "--trajectories",
        &dir.join("trajectories.jsonl").display().to_string(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: no model of the trajectories is in the profile table, so no gap can be computed: the profile has `x1`, `x2`, `x3`; the trajectories have `"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn overflow_and_tiny_penalties_are_refused_and_rewards_out_of_range_warned() {
    let dir = scratch("overflow");
    let five = "model,family,TU,RE,GI,PL,reward\nm1,A,60,55,40,50,40\nm2,B,70,72,52,61,55\nm3,C,65,70,48,58,50\nm4,D,80,75,60,70,70\nm5,E,55,62,35,45,30\n";
    let big = dir.join("big.csv");
    std::fs::write(&big, five.replace("m4,D,80,", "m4,D,1e308,")).unwrap();
    let p = big.display().to_string();
    let out = common::gapscope(&["report", "--bootstrap", "0", "--json", "--profiles", &p]);
    failed_with(
        &out,
        &format!("error: {p}: column `TU`, model `m4`: 1e308 is too large in magnitude for the analysis (at most 1e100: it squares and sums values, which would overflow to infinity); rescale the column"),
    );
    let ok = dir.join("five.csv");
    std::fs::write(&ok, five).unwrap();
    let p = ok.display().to_string();
    let out = common::gapscope(&[
        "report",
        "--bootstrap",
        "0",
        "--alpha",
        "1e-300",
        "--profiles",
        &p,
    ]);
    failed_with(
        &out,
        "error: --alpha: the ridge penalty must be at least 1e-6 (got 1e-300): below it the solve is ill-conditioned wherever the design is rank-deficient (more predictors than training models, or collinear columns), and held-out predictions become rounding noise",
    );
    let r150 = dir.join("r150.csv");
    std::fs::write(&r150, five.replace(",70\nm5", ",150\nm5")).unwrap();
    let p = r150.display().to_string();
    let out = common::gapscope(&["report", "--bootstrap", "0", "--profiles", &p]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("note: reward: 1 value outside 0–100 (first: 150 for model m4)"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
