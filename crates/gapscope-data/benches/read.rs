//! `scripts/bench-read.sh` (or `cargo bench -p gapscope-data --bench read`)
//!
//! Read throughput of the core readers on every τ²-bench file under
//! `../shared/data/tau2/` (results files through `trajectory::read_any`, which
//! parses and converts every simulation to a trajectory; task files through
//! `tau2::read_tasks`), timed including reading the bytes from disk, and, in
//! the same run, Python's `json.load` of the same files (`bench/json_load.py`,
//! read + parse only), with the ratio. Each side: the fastest of 11
//! repetitions after one warm-up (the least disturbed run: the machine is
//! shared, and medians moved by 2× between runs), the median beside it. Python: `GAPSCOPE_BENCH_PYTHON` (default `python3`).
//!
//! Then the scaling rows (issue 14: "`tau2 check` and long simulations are
//! not hostile: make them linear"), each the time per item at two sizes
//! ten times apart, measured in the same run, with their ratio (≈ 1 is
//! linear; a quadratic reader gives ≈ 10): `tau2 check` (parse + check) of
//! 3,000 and 30,000 simulations made from the shared airline file's (new
//! simulation and task ids, every second simulation checked against
//! another task's actions); `profiles` (read + operation profile) of one
//! simulation of 1,000 and 10,000 messages made from the file's tool calls
//! and results, one recorded check per call.
//!
//! Then the Parquet row (issue 16; with the `parquet` feature, which
//! `scripts/bench-read.sh` turns on): a synthetic snappy Parquet file of
//! about 60 MB in the documented schema, written once by
//! `scripts/make-parquet-fixtures.py --bench` into the target dir (not
//! committed), read by gapscope (bytes from disk, `read_any_bytes`, every
//! message kept) against `pyarrow.parquet.read_table` of the same file in
//! the same run (`bench/parquet_read.py`), fastest of 5 each, with the ratio.
//! Skipped, saying so, when the Python has no pyarrow.
//!
//! Then the per-format rows (issue 16; `read/formats.rs`): one ≥ 50 MB
//! synthetic input of each new format (τ³ simulation and results
//! directory, τ-bench v1, ATIF, SWE-agent, mini-swe-agent, Gemini CLI,
//! OpenHands events and output.jsonl, Claude Code, Codex), written once into
//! the target dir by `bench/make_format_inputs.py` from the committed
//! fixtures, read by gapscope (messages kept, and light) against Python's
//! `json.load` / per-line `json.loads` of the same bytes (`bench/format_load.py`).
//! `GAPSCOPE_BENCH_FORMATS=codex,claude` runs only those rows.
//! Fails loudly when the data directory is absent. No timing is asserted.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::disallowed_methods)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gapscope_data::formats::tau2::{self, read_tasks};
use gapscope_data::formats::{detect, read_any, read_any_bytes, ReadOptions, TrajectoryFormat};
use serde_json::{json, Value};

#[path = "read/formats.rs"]
mod formats;

const REPS: usize = 11;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Read and parse every file; returns (trajectories, tasks) read.
fn read_all(paths: &[PathBuf]) -> (usize, usize) {
    let (mut traj, mut tasks) = (0, 0);
    for p in paths {
        let text = std::fs::read_to_string(p).unwrap();
        match detect(&text) {
            Some(TrajectoryFormat::Tau2) => {
                let c = read_any(&p.display().to_string(), &text, None)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                traj += black_box(c).trajectories.len();
            }
            _ if p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("tasks")) =>
            {
                tasks += black_box(read_tasks(&text).unwrap()).len();
            }
            // split_tasks.json: an object of id lists, read as JSON.
            _ => {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                black_box(v);
            }
        }
    }
    (traj, tasks)
}

fn main() {
    // `GAPSCOPE_BENCH_FORMATS=codex,claude` (or `all`): only the per-format
    // rows whose input name contains one of the words.
    if let Ok(only) = std::env::var("GAPSCOPE_BENCH_FORMATS") {
        let python = std::env::var("GAPSCOPE_BENCH_PYTHON").unwrap_or_else(|_| "python3".into());
        formats::rows(&python, &only);
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tau2");
    assert!(
        dir.is_dir(),
        "{} is missing: the read benchmark needs ../shared/data/tau2 beside the clone",
        dir.display()
    );
    let paths = files(&dir);
    assert!(!paths.is_empty(), "no JSON files under {}", dir.display());
    let bytes: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    let (traj, tasks) = read_all(&paths); // warm-up (and the page cache)
    let mut t: Vec<f64> = (0..REPS)
        .map(|_| {
            let s = Instant::now();
            black_box(read_all(&paths));
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    let (rust, rust_median) = (t[0], t[REPS / 2]);
    let mb = bytes as f64 / 1e6;
    println!(
        "τ²-bench files: {} files, {mb:.1} MB ({traj} simulations as trajectories, {tasks} tasks)",
        paths.len()
    );
    println!(
        "gapscope readers:   {rust:.3} s  {:7.1} MB/s  (fastest of {REPS}; median {rust_median:.3} s)",
        mb / rust
    );
    let python = std::env::var("GAPSCOPE_BENCH_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/json_load.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg("--reps")
        .arg(REPS.to_string())
        .args(&paths)
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let field = |name: &str| -> f64 {
                text.lines()
                    .find_map(|l| l.strip_prefix(name))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or_else(|| panic!("{name} in the script's output: {text}"))
            };
            let (secs, median) = (field("python_seconds "), field("python_median "));
            println!(
                "Python json.load:   {secs:.3} s  {:7.1} MB/s  ({python}, fastest of {REPS}; median {median:.3} s)",
                mb / secs
            );
            println!("ratio: gapscope is {:.2}× Python's json.load", secs / rust);
        }
        Ok(o) => panic!(
            "{python} {}: {}",
            script.display(),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => println!("Python json.load: skipped ({python}: {e})"),
    }
    scaling(&dir.join("airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json"));
    #[cfg(feature = "parquet")]
    parquet_row(&python);
    formats::rows(&python, "all");
}

/// gapscope's Parquet reader against `pyarrow.parquet.read_table`.
#[cfg(feature = "parquet")]
fn parquet_row(python: &str) {
    const PARQUET_REPS: usize = 5;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-parquet/trajectories-60mb.parquet");
    if !file.is_file() {
        let made = Command::new(python)
            .arg(root.join("scripts/make-parquet-fixtures.py"))
            .arg("--bench")
            .arg(&file)
            .arg("--mb")
            .arg("60")
            .output();
        match made {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                println!(
                    "Parquet: skipped ({python} could not write the file: {})",
                    String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .last()
                        .unwrap_or_default()
                );
                return;
            }
            Err(e) => {
                println!("Parquet: skipped ({python}: {e})");
                return;
            }
        }
    }
    let mb = std::fs::metadata(&file).unwrap().len() as f64 / 1e6;
    let read = || {
        let bytes = std::fs::read(&file).unwrap();
        read_any_bytes("bench.parquet", &bytes, &ReadOptions::default()).unwrap()
    };
    let c = read();
    let messages: usize = c.trajectories.iter().map(|t| t.messages.len()).sum();
    println!(
        "Parquet dataset: {mb:.1} MB snappy, {} rows as trajectories, {messages} messages",
        c.trajectories.len()
    );
    drop(c);
    let mut t: Vec<f64> = (0..PARQUET_REPS)
        .map(|_| {
            let s = Instant::now();
            black_box(read());
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    let (rust, median) = (t[0], t[PARQUET_REPS / 2]);
    println!(
        "gapscope Parquet:   {rust:.3} s  {:7.1} MB/s  (fastest of {PARQUET_REPS}; median {median:.3} s)",
        mb / rust
    );
    let out = Command::new(python)
        .arg(root.join("bench/parquet_read.py"))
        .arg("--reps")
        .arg(PARQUET_REPS.to_string())
        .arg(&file)
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let field = |name: &str| -> f64 {
                text.lines()
                    .find_map(|l| l.strip_prefix(name))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or_else(|| panic!("{name} in the script's output: {text}"))
            };
            let (secs, med) = (field("python_seconds "), field("python_median "));
            let (one, one_med) = (
                field("python_seconds_1thread "),
                field("python_median_1thread "),
            );
            println!(
                "pyarrow read_table: {secs:.3} s  {:7.1} MB/s  ({python}, fastest of {PARQUET_REPS}; median {med:.3} s); one thread: {one:.3} s (median {one_med:.3} s)",
                mb / secs
            );
            println!(
                "ratio: gapscope is {:.2}× pyarrow's read_table ({:.2}× its one-thread read)",
                secs / rust,
                one / rust
            );
        }
        Ok(o) => println!(
            "pyarrow read_table: skipped ({python}: {})",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or_default()
        ),
        Err(e) => println!("pyarrow read_table: skipped ({python}: {e})"),
    }
}

/// The fastest of `reps` runs of `f`, in seconds.
fn fastest(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// `n` simulations (and as many copies of the tasks) from a results file:
/// copy `c` of simulation `s` gets id `s-c` and runs task `t-c`; every
/// second one names the next task of its copy instead (checked against
/// another task's actions). Message contents are dropped (the check reads
/// tool calls only), so 30,000 simulations stay about 100 MB.
fn replicated(base: &Value, n: usize) -> String {
    let sims = base["simulations"].as_array().unwrap();
    let tasks = base["tasks"].as_array().unwrap();
    let ids: Vec<&str> = tasks.iter().map(|t| t["id"].as_str().unwrap()).collect();
    let (mut out_sims, mut out_tasks) = (Vec::new(), Vec::new());
    for c in 0..n.div_ceil(sims.len()) {
        for t in tasks {
            let mut t = t.clone();
            t["id"] = json!(format!("{}-{c}", t["id"].as_str().unwrap()));
            out_tasks.push(t);
        }
        for s in sims {
            if out_sims.len() == n {
                break;
            }
            let mut s = s.clone();
            let k = out_sims.len();
            s["id"] = json!(format!("{}-{c}", s["id"].as_str().unwrap_or("s")));
            let task = s["task_id"].as_str().unwrap();
            let at = ids.iter().position(|i| *i == task).unwrap();
            let task = if k % 2 == 0 {
                task
            } else {
                ids[(at + 1) % ids.len()]
            };
            s["task_id"] = json!(format!("{task}-{c}"));
            for m in s["messages"].as_array_mut().unwrap() {
                let m = m.as_object_mut().unwrap();
                m.remove("raw_data");
                m.insert("content".into(), Value::Null);
            }
            out_sims.push(s);
        }
    }
    json!({"info": base["info"], "tasks": out_tasks, "simulations": out_sims}).to_string()
}

/// One simulation of `n` messages: the file's tool calls in turn (each
/// with a distinct `nonce` argument) and their results, one recorded
/// check per call.
fn long_simulation(base: &Value, n: usize) -> String {
    let mut turns: Vec<(Value, Value)> = Vec::new();
    for s in base["simulations"].as_array().unwrap() {
        let msgs = s["messages"].as_array().unwrap();
        for (i, m) in msgs.iter().enumerate() {
            if m["role"] == "assistant" {
                if let (Some(c), Some(r)) = (m["tool_calls"].get(0), msgs.get(i + 1)) {
                    turns.push((c.clone(), r["content"].clone()));
                }
            }
        }
    }
    let (mut messages, mut checks) = (Vec::new(), Vec::new());
    let mut k = 0;
    while messages.len() < n {
        let (call, result) = &turns[k % turns.len()];
        let mut args = call["arguments"].clone();
        args["nonce"] = json!(k);
        let id = format!("call-{k}");
        messages.push(json!({"role": "assistant", "content": null,
            "tool_calls": [{"id": id, "name": call["name"], "arguments": args}]}));
        messages.push(json!({"role": "tool", "id": id, "content": result}));
        checks.push(
            json!({"action": {"name": call["name"], "arguments": args}, "action_match": true}),
        );
        k += 1;
    }
    json!({"info": base["info"], "simulations": [{"id": "long", "task_id": "1", "messages": messages,
        "reward_info": {"reward": 1.0, "action_checks": checks}}]})
    .to_string()
}

fn scaling(file: &Path) {
    let base: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    println!("scaling (time per item at two sizes, ratio ≈ 1 when linear, ≈ 10 when quadratic):");
    let check = |n: usize| {
        let text = replicated(&base, n);
        let mut checks = 0;
        let t = fastest(3, || {
            let r = tau2::read_results_light(&text).unwrap();
            let c = tau2::check(&r, None);
            assert_eq!(c.reproduced, c.checks);
            checks = black_box(c).checks;
        });
        println!(
            "  tau2 check, {n:>6} simulations ({:.0} MB, {checks} checks): {t:7.3} s, {:6.1} µs per simulation",
            text.len() as f64 / 1e6,
            1e6 * t / n as f64
        );
        t / n as f64
    };
    let (small, large) = (check(3_000), check(30_000));
    println!(
        "  ratio (per simulation, 30,000 vs 3,000): {:.2}",
        large / small
    );
    let profile = |n: usize| {
        let text = long_simulation(&base, n);
        let options = ReadOptions {
            light: true,
            ..Default::default()
        };
        let t = fastest(3, || {
            let c = read_any_bytes("long.json", text.as_bytes(), &options).unwrap();
            let p =
                gapscope_data::operations::operation_profile(&c.trajectories, &Default::default());
            black_box(p);
        });
        println!(
            "  profiles, one simulation of {n:>6} messages: {t:7.3} s, {:6.2} µs per message",
            1e6 * t / n as f64
        );
        t / n as f64
    };
    let (small, large) = (profile(1_000), profile(10_000));
    println!(
        "  ratio (per message, 10,000 vs 1,000): {:.2}",
        large / small
    );
}
