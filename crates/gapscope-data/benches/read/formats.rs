//! The per-format rows of issue 16 ("Performance"): one ≥ 50 MB synthetic
//! input of each new format, written once into the target dir by
//! `bench/make_format_inputs.py` (replicated from the committed fixtures,
//! new ids per copy), read by gapscope the way a user's file is (bytes from
//! disk, `formats::read_any_bytes` with `ReadOptions::default()`: every
//! message kept; a τ³ results directory through `ingest::read_inputs_each`
//! with an `InputFile::Folder`), then with `light: true` (messages dropped
//! as read, their counts kept), against Python reading the same bytes in
//! the same run (`bench/format_load.py`: `json.load` of a JSON file, per-line
//! `json.loads` of a JSONL file, `json.load` of every file of a folder).
//! Fastest of `REPS` after a warm-up each, median beside.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gapscope_data::formats::folder::Folder;
use gapscope_data::formats::{read_any_bytes, ReadOptions, TrajectoryFormat};
use gapscope_data::ingest::{self, InputFile, Messages, TrajectoryOptions};

const REPS: usize = 5;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Json,
    Jsonl,
    Folder,
}

/// (row label, input name, kind, the format it must be read as).
const ROWS: &[(&str, &str, Kind, Option<TrajectoryFormat>)] = &[
    (
        "τ³ simulation",
        "tau3_simulation.json",
        Kind::Json,
        Some(TrajectoryFormat::Tau2Simulation),
    ),
    ("τ³ results dir", "tau3_results", Kind::Folder, None),
    (
        "τ-bench v1",
        "taubench_v1.json",
        Kind::Json,
        Some(TrajectoryFormat::TauBenchV1),
    ),
    (
        "ATIF trajectory",
        "atif.trajectory.json",
        Kind::Json,
        Some(TrajectoryFormat::Atif),
    ),
    (
        "SWE-agent .traj",
        "swe_agent.traj",
        Kind::Json,
        Some(TrajectoryFormat::SweAgent),
    ),
    (
        "mini-swe-agent",
        "mini_swe_agent.json",
        Kind::Json,
        Some(TrajectoryFormat::MiniSweAgent),
    ),
    (
        "Gemini CLI",
        "gemini_cli.json",
        Kind::Json,
        Some(TrajectoryFormat::GeminiCli),
    ),
    (
        "OpenHands events",
        "openhands_events.json",
        Kind::Json,
        Some(TrajectoryFormat::OpenHandsEvents),
    ),
    (
        "OpenHands output",
        "openhands_output.jsonl",
        Kind::Jsonl,
        Some(TrajectoryFormat::OpenHandsOutput),
    ),
    (
        "Claude Code",
        "claude_code.jsonl",
        Kind::Jsonl,
        Some(TrajectoryFormat::ClaudeCode),
    ),
    (
        "Codex",
        "codex.jsonl",
        Kind::Jsonl,
        Some(TrajectoryFormat::Codex),
    ),
];

/// A folder on disk, read one member at a time (as the CLI's).
struct Disk(PathBuf);

impl Folder for Disk {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(self.0.join(path)).map_err(|e| e.to_string())
    }
}

/// Every file under `root`, relative, `/`-separated, sorted.
fn walk(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy();
                out.push(rel.replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

fn bytes_of(path: &Path) -> u64 {
    if path.is_dir() {
        walk(path)
            .iter()
            .map(|p| std::fs::metadata(path.join(p)).unwrap().len())
            .sum()
    } else {
        std::fs::metadata(path).unwrap().len()
    }
}

/// Read `path` as a user's input: (trajectories, messages kept).
fn read(path: &Path, name: &str, format: Option<TrajectoryFormat>, light: bool) -> (usize, usize) {
    let corpus = if path.is_dir() {
        let messages = if light {
            Messages::Counts
        } else {
            Messages::All
        };
        let file = InputFile::Folder(name.into(), walk(path), Box::new(Disk(path.into())));
        let inputs = ingest::read_inputs_each::<ingest::ReadError>(
            [Ok(file)],
            &TrajectoryOptions::default(),
            &messages,
            false,
            |_, _| Ok(()),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        inputs.corpus
    } else {
        let bytes = std::fs::read(path).unwrap();
        let options = ReadOptions {
            light,
            ..ReadOptions::default()
        };
        let corpus =
            read_any_bytes(name, &bytes, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(f) = format {
            assert_eq!(corpus.format, Some(f), "{name} read as another format");
        }
        corpus
    };
    let messages = corpus.trajectories.iter().map(|t| t.messages.len()).sum();
    (black_box(&corpus).trajectories.len(), messages)
}

/// The fastest and the median of `REPS` runs of `f`, after one warm-up.
fn timed(mut f: impl FnMut()) -> (f64, f64) {
    f();
    let mut t: Vec<f64> = (0..REPS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    (t[0], t[REPS / 2])
}

/// Python's fastest and median on the same input, or why not.
fn python_times(
    python: &str,
    script: &Path,
    path: &Path,
    kind: Kind,
) -> Result<(f64, f64), String> {
    let mut cmd = Command::new(python);
    cmd.arg(script)
        .arg("--reps")
        .arg(REPS.to_string())
        .arg(path);
    if kind == Kind::Jsonl {
        cmd.arg("--jsonl");
    }
    let o = cmd.output().map_err(|e| format!("{python}: {e}"))?;
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&o.stdout);
    let field = |name: &str| -> Result<f64, String> {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("no {name} in the script's output: {text}"))
    };
    Ok((field("python_seconds ")?, field("python_median ")?))
}

/// The rows whose input name contains a word of `only` (`all`: every row).
pub fn rows(python: &str, only: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-formats");
    let made = Command::new(python)
        .arg(root.join("bench/make_format_inputs.py"))
        .arg(&dir)
        .output();
    match made {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "bench/make_format_inputs.py: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            println!("per-format rows: skipped ({python}: {e})");
            return;
        }
    }
    let script = root.join("bench/format_load.py");
    println!(
        "per-format rows (issue 16; synthetic inputs in {}; fastest of {REPS}, median in brackets; \
         messages kept, and light: messages dropped as read):",
        dir.display()
    );
    println!(
        "  {:<17} {:>6} {:>6} {:>8}  {:>17}  {:>17}  {:>17}  {:>6}  {:>6}",
        "format", "MB", "traj.", "messages", "gapscope s", "light s", "Python s", "ratio", "light"
    );
    let wanted = |name: &str| only == "all" || only.split(',').any(|w| name.contains(w.trim()));
    for &(label, name, kind, format) in ROWS.iter().filter(|r| wanted(r.1)) {
        let path = dir.join(name);
        let mb = bytes_of(&path) as f64 / 1e6;
        let (traj, messages) = read(&path, name, format, false);
        let (full, full_med) = timed(|| {
            black_box(read(&path, name, format, false));
        });
        let (light, light_med) = timed(|| {
            black_box(read(&path, name, format, true));
        });
        match python_times(python, &script, &path, kind) {
            Ok((py, py_med)) => println!(
                "  {label:<17} {mb:>6.1} {traj:>6} {messages:>8}  {full:>7.3} ({full_med:>7.3})  \
                 {light:>7.3} ({light_med:>7.3})  {py:>7.3} ({py_med:>7.3})  {:>5.2}×  {:>5.2}×",
                py / full,
                py / light
            ),
            Err(e) => println!(
                "  {label:<17} {mb:>6.1} {traj:>6} {messages:>8}  {full:>7.3} ({full_med:>7.3})  \
                 {light:>7.3} ({light_med:>7.3})  Python skipped: {}",
                e.lines().last().unwrap_or_default()
            ),
        }
    }
}
