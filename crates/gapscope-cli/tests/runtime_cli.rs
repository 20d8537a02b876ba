//! `gapscope runtime simulate | analyze` as a user meets it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::gapscope;

#[test]
fn simulate_then_analyze() {
    let sim = gapscope(&[
        "runtime",
        "simulate",
        "--instances",
        "3",
        "--caps",
        "5,60",
        "--seed",
        "4",
    ]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    assert!(String::from_utf8_lossy(&sim.stderr).contains("scripted policies, not language models"));
    assert_eq!(
        sim.stdout.iter().filter(|&&b| b == b'\n').count(),
        3 * 2 * 4
    );
    let dir = std::env::temp_dir().join(format!("gapscope-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("episodes.jsonl");
    std::fs::write(&path, &sim.stdout).unwrap();
    let p = path.to_str().unwrap();
    let out = gapscope(&[
        "runtime",
        "analyze",
        "--episodes",
        p,
        "--json",
        "--bootstrap",
        "200",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["episodes_read"], 24);
    assert_eq!(v["slices"][0]["caps"], serde_json::json!([5, 60]));
    assert_eq!(
        v["slices"][0]["comparison"]["amplification_p"]["n_shared"],
        3
    );
    assert_eq!(v["verification"]["agree"], 24);
    assert_eq!(v["settings"]["bootstrap"], 200);
    let text = gapscope(&["runtime", "analyze", "--episodes", p, "--bootstrap", "200"]);
    let t = String::from_utf8_lossy(&text.stdout);
    assert!(t.contains("G_P = Q_PP - Q_PS"), "{t}");
    assert!(t.contains("cap amplification G_P"), "{t}");
    assert!(t.contains("24 agree"), "{t}");
}

#[test]
fn committed_log_analyzes() {
    let out = gapscope(&[
        "runtime",
        "analyze",
        "--episodes",
        "assets/runtime/episodes.jsonl",
        "--bootstrap",
        "100",
        "--tight",
        "20",
        "--slack",
        "60",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(
        t.starts_with("assets/runtime/episodes.jsonl: 128 episodes in 1 slice"),
        "{t}"
    );
    assert!(t.contains("cap 20 (tight) vs 60 (slack):"), "{t}");
}

#[test]
fn bad_input_is_refused_with_a_location() {
    let out = gapscope(&["runtime", "simulate", "--conditions", "PP,XY"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: --conditions: expected PP, PS, SP or SS, got `XY`"
    );
    let out = gapscope(&["runtime", "simulate", "--budget", "0"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: --budget: expected at least 1, got 0"
    );
    let dir = std::env::temp_dir().join(format!("gapscope-runtime-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.jsonl");
    std::fs::write(&path, "{\"episode_id\": 3}\n").unwrap();
    let p = path.to_str().unwrap();
    let out = gapscope(&["runtime", "analyze", "--episodes", p]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        format!("error: {p}: no episode could be read (1 line(s) skipped; first: line 1: column 17: missing field `task_family`)")
    );
}

/// With no preset flag the CLI writes today's default log, byte for byte (the
/// committed log is also pinned by `gapscope-synth`'s tests).
#[test]
fn default_preset_writes_the_committed_log() {
    let sim = gapscope(&["runtime", "simulate"]);
    assert!(sim.status.success());
    let committed = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/runtime/episodes.jsonl"),
    )
    .unwrap();
    assert!(sim.stdout == committed, "the default preset changed");
    let explicit = gapscope(&["runtime", "simulate", "--preset", "default"]);
    assert!(explicit.stdout == committed);
}

#[test]
fn addendum_preset_reads_back_and_analyses() {
    let sim = gapscope(&["runtime", "simulate", "--preset", "addendum"]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let text = String::from_utf8(sim.stdout.clone()).unwrap();
    let log = gapscope_runtime::read_jsonl(&text);
    assert!(log.skipped.is_empty());
    assert_eq!(log.episodes.len(), 500);
    let dir = std::env::temp_dir().join(format!("gapscope-runtime-add-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("episodes.jsonl");
    std::fs::write(&path, &sim.stdout).unwrap();
    let out = gapscope(&[
        "runtime",
        "analyze",
        "--episodes",
        path.to_str().unwrap(),
        "--bootstrap",
        "200",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let smaller = gapscope(&[
        "runtime",
        "simulate",
        "--preset",
        "addendum",
        "--instances",
        "2",
    ]);
    assert!(smaller.status.success());
    assert!(smaller.stdout.len() < sim.stdout.len());
    std::fs::remove_dir_all(&dir).ok();
}
