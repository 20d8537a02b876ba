//! `scripts/bench-read.sh` (or `cargo bench -p gapscope-core --bench read`)
//!
//! Read throughput of the core readers on every τ²-bench file under
//! `../shared/data/tau2/` (results files through `trajectory::read_any`, which
//! parses and converts every simulation to a trajectory; task files through
//! `tau2::read_tasks`), timed including reading the bytes from disk, and, in
//! the same run, Python's `json.load` of the same files (`bench/json_load.py`,
//! read + parse only), with the ratio. Each side: the fastest of 11
//! repetitions after one warm-up (the least disturbed run: the machine is
//! shared, and medians moved by 2× between runs), the median beside it. Python: `GAPSCOPE_BENCH_PYTHON` (default `python3`).
//! Fails loudly when the data directory is absent. No timing is asserted.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::disallowed_methods)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gapscope_core::tau2::read_tasks;
use gapscope_core::trajectory::{detect, read_any, TrajectoryFormat};

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
}
