//! Interventions and continuations (realization-gaps.md, "Local content
//! interventions", "Shared-initial-state continuations") on tiny corpora
//! worked by hand; the intervals against a naive cluster bootstrap written
//! here with the same stream.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(
    clippy::type_complexity,
    reason = "rows compared as tuples, written out beside the expected values"
)]

use gapscope_data::formats::jsonl::read_jsonl;
use gapscope_data::trajectory::Trajectory;
use gapscope_gaps::experiments::interventions::{Contrast, ContrastRow, InterventionError};
use gapscope_gaps::experiments::{continuations, interventions};
use serde_json::{json, Value};

/// Canonical JSONL of these lines, read by the canonical reader (no line
/// skipped).
fn read(lines: &[Value]) -> Vec<Trajectory> {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let c = read_jsonl(&text);
    assert!(c.skipped.is_empty(), "{:?}", c.skipped);
    c.trajectories
}

fn run(id: &str, model: &str, task: &str, extra: Value) -> Value {
    let mut v = json!({"id": id, "model": model, "task_id": task, "messages": []});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn row<'a>(
    rows: &'a [ContrastRow],
    stratum: Option<&str>,
    measure: &str,
    contrast: Contrast,
) -> &'a ContrastRow {
    rows.iter()
        .find(|r| r.stratum.as_deref() == stratum && r.measure == measure && r.contrast == contrast)
        .unwrap_or_else(|| panic!("no row {stratum:?} {measure} {contrast:?}"))
}

/// c1 (task t1): original rewards 1, 0 (mean 50; GI labels [1, 0] and [1]:
/// 0.5 and 1 → 75); edited (`repair`, stratum `repair`) 1, 1 (100; GI [1]
/// and [null]: only the first eligible → 100); a control naming no
/// intervention 0, 1 (50). c2 (task t2): original 0, edited (`repair`,
/// stratum `damage`) 0, no control.
fn small() -> Vec<Value> {
    let b = |branch: &str| json!(branch);
    vec![
        run(
            "o1",
            "A",
            "t1",
            json!({"checkpoint": "c1", "branch": b("original"), "reward": 1.0, "trial": 0, "labels": {"GI": [1, 0]}}),
        ),
        run(
            "o2",
            "A",
            "t1",
            json!({"checkpoint": "c1", "branch": b("original"), "reward": 0.0, "repetition": 1, "labels": {"GI": [1]}}),
        ),
        run(
            "e1",
            "A",
            "t1",
            json!({"checkpoint": "c1", "branch": b("edited"), "intervention": "repair", "stratum": "repair", "reward": 1.0, "labels": {"GI": [1]}}),
        ),
        run(
            "e2",
            "A",
            "t1",
            json!({"checkpoint": "c1", "branch": b("edited"), "intervention": "repair", "stratum": "repair", "reward": 1.0, "labels": {"GI": [null]}}),
        ),
        run(
            "k1",
            "A",
            "t1",
            json!({"checkpoint": "c1", "branch": b("control"), "reward": 0.0}),
        ),
        run(
            "k2",
            "A",
            "t1",
            json!({"checkpoint": "c1", "branch": b("control"), "reward": 1.0}),
        ),
        run(
            "o3",
            "A",
            "t2",
            json!({"checkpoint": "c2", "branch": b("original"), "reward": 0.0}),
        ),
        run(
            "e3",
            "A",
            "t2",
            json!({"checkpoint": "c2", "branch": b("edited"), "intervention": "repair", "stratum": "damage", "reward": 0.0}),
        ),
        // A corpus trajectory: not a branch run.
        run("x", "A", "t1", json!({"reward": 1.0})),
    ]
}

#[test]
fn interventions_by_hand() {
    let ts = read(&small());
    assert_eq!(ts[1].trial, Some(1), "repetition is an alias of trial");
    let r = interventions(&ts, 1000, 0).unwrap();
    assert_eq!(r.measures, ["reward", "GI"]);
    assert_eq!(r.cases.len(), 2);
    let c1 = &r.cases[0];
    assert_eq!(
        (
            c1.checkpoint.as_str(),
            c1.stratum.as_deref(),
            c1.task.as_str()
        ),
        ("c1", Some("repair"), "t1")
    );
    assert_eq!(
        (c1.original.clone(), c1.edited.clone(), c1.control.clone()),
        (
            vec!["o1".to_string(), "o2".into()],
            vec!["e1".to_string(), "e2".into()],
            vec!["k1".to_string(), "k2".into()]
        )
    );
    assert_eq!(
        c1.scores,
        [
            [Some(50.0), Some(100.0), Some(50.0)],
            [Some(75.0), Some(100.0), None]
        ]
    );
    assert_eq!(
        r.cases[1].scores,
        [[Some(0.0), Some(0.0), None], [None, None, None]]
    );

    let rows = &r.by_intervention;
    let eo = row(rows, None, "reward", Contrast::EditedOriginal);
    assert_eq!((eo.cases, eo.tasks, eo.mean, eo.nonzero), (2, 2, 25.0, 0.5));
    assert!(
        eo.descriptive && eo.interval.is_none(),
        "2 tasks < 5: descriptive"
    );
    let co = row(rows, None, "reward", Contrast::ControlOriginal);
    assert_eq!((co.cases, co.mean, co.nonzero), (1, 0.0, 0.0));
    let ec = row(rows, None, "reward", Contrast::EditedControl);
    assert_eq!((ec.cases, ec.mean, ec.nonzero), (1, 50.0, 1.0));
    let gi = row(rows, None, "GI", Contrast::EditedOriginal);
    assert_eq!((gi.cases, gi.mean), (1, 25.0));
    // GI has no control score anywhere: no such rows.
    assert!(!rows
        .iter()
        .any(|r| r.measure == "GI" && r.contrast != Contrast::EditedOriginal));
    assert_eq!(rows.len(), 4);

    let strata = &r.by_stratum;
    assert_eq!(
        row(strata, Some("repair"), "reward", Contrast::EditedOriginal).mean,
        50.0
    );
    assert_eq!(
        row(strata, Some("damage"), "reward", Contrast::EditedOriginal).mean,
        0.0
    );

    let changed: Vec<(&str, f64, f64)> = r
        .reward_changes
        .iter()
        .map(|c| (c.trajectory.as_str(), c.reward, c.original_mean))
        .collect();
    assert_eq!(changed, [("e1", 100.0, 50.0), ("e2", 100.0, 50.0)]);
    assert_eq!(r.reward_changes[0].original, ["o1", "o2"]);
}

#[test]
fn the_corpus_leaves_out_experiment_runs() {
    let ts = read(&small());
    let p = gapscope_data::operations::operation_profile(&ts, &Default::default());
    assert_eq!((p.n_total, p.n_used, p.n_experiment), (1, 1, 8));
    assert_eq!(p.reward, [Some(100.0)], "only `x` counts");
    assert_eq!(p.tasks, ["t1"]);
}

#[test]
fn bad_cases_are_named() {
    let mut lines = small();
    lines.push(run(
        "e9",
        "A",
        "t1",
        json!({"checkpoint": "c1", "branch": "edited", "reward": 1.0}),
    ));
    assert_eq!(
        interventions(&read(&lines), 10, 0),
        Err(InterventionError::EditedWithoutIntervention("e9".into()))
    );
    let mut lines = small();
    lines.push(run("e9", "A", "t1", json!({"checkpoint": "c1", "branch": "edited", "intervention": "repair", "stratum": "damage"})));
    let e = interventions(&read(&lines), 10, 0).unwrap_err().to_string();
    assert!(
        e.contains("`repair`") && e.contains("`repair` and `damage`") && e.contains("`e9`"),
        "{e}"
    );
    let mut lines = small();
    lines.push(run(
        "e9",
        "A",
        "t9",
        json!({"checkpoint": "c1", "branch": "control"}),
    ));
    let e = interventions(&read(&lines), 10, 0).unwrap_err().to_string();
    assert!(e.contains("`t1` and `t9`") && e.contains("`e9`"), "{e}");
}

#[test]
fn the_reader_locates_bad_experiment_fields() {
    let cases = [
        (
            json!({"checkpoint": "c", "branch": "edit"}),
            "unknown variant `edit`",
        ),
        (
            json!({"branch": "edited"}),
            "`branch` belongs to a branch run or a continuation",
        ),
        (
            json!({"checkpoint": "c", "violations": [{"step": 0, "constraint": "x"}]}),
            "violations[0].step is 0",
        ),
        (
            json!({"checkpoint": "c", "violations": [{"step": 1, "constraint": " "}]}),
            "violations[0]: the constraint is empty",
        ),
        (
            json!({"checkpoint": "c", "violations": [{"step": 1.5, "constraint": "x"}]}),
            "column",
        ),
        (json!({"checkpoint": " c"}), "checkpoint ` c` is padded"),
    ];
    for (extra, want) in cases {
        let text = format!(
            "{}\n{}\n",
            run("ok", "A", "t", json!({})),
            run("bad", "A", "t", extra)
        );
        let c = read_jsonl(&text);
        assert_eq!(c.trajectories.len(), 1);
        assert_eq!(c.skipped.len(), 1, "{want}");
        assert_eq!(c.skipped[0].line, 2);
        assert!(
            c.skipped[0].message.contains(want),
            "{} lacks {want}",
            c.skipped[0].message
        );
    }
    // trial wins over repetition.
    let c = read_jsonl(&format!(
        "{}\n",
        run("r", "A", "t", json!({"trial": 3, "repetition": 5}))
    ));
    assert_eq!(c.trajectories[0].trial, Some(3));
}

/// The interval of a mean over cases clustered by task, written out: the
/// same stream (ChaCha8 from the seed, one `random_range(0..n)` a pick),
/// each draw's mean over every case of the drawn tasks, numpy's linear
/// percentiles of the sorted draws.
fn naive_interval(per_task: &[Vec<f64>], draws: usize, seed: u64) -> [f64; 2] {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let n = per_task.len() as u32;
    let mut means: Vec<f64> = (0..draws)
        .map(|_| {
            let mut all = Vec::new();
            for _ in 0..n {
                all.extend(&per_task[rng.random_range(0..n) as usize]);
            }
            all.iter().sum::<f64>() / all.len() as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let q = |p: f64| {
        let h = p / 100.0 * (draws - 1) as f64;
        let (i, f) = (h.floor() as usize, h - h.floor());
        means[i] + f * (means[(i + 1).min(draws - 1)] - means[i])
    };
    [q(2.5), q(97.5)]
}

#[test]
fn intervals_are_the_task_clustered_bootstrap() {
    // 7 tasks; tasks 0 and 3 hold two checkpoints each (two cases).
    let mut lines = Vec::new();
    let mut per_task: Vec<Vec<f64>> = vec![Vec::new(); 7];
    let mut k = 0;
    for (task, cases) in per_task.iter_mut().enumerate() {
        for copy in 0..=usize::from(task % 3 == 0) {
            let (o, e) = ((task * 7 + copy * 3) % 4, (task * 5 + copy) % 5);
            let (o, e) = (o as f64 / 4.0, e as f64 / 4.0);
            let cp = format!("cp{k}");
            k += 1;
            let t = format!("t{task}");
            lines.push(run(
                &format!("{cp}o"),
                "M",
                &t,
                json!({"checkpoint": cp, "branch": "original", "reward": o}),
            ));
            lines.push(run(
                &format!("{cp}e"),
                "M",
                &t,
                json!({"checkpoint": cp, "branch": "edited", "intervention": "fix", "reward": e}),
            ));
            cases.push(100.0 * e - 100.0 * o);
        }
    }
    let r = interventions(&read(&lines), 2000, 17).unwrap();
    let eo = row(&r.by_intervention, None, "reward", Contrast::EditedOriginal);
    assert_eq!((eo.cases, eo.tasks, eo.descriptive), (10, 7, false));
    let all: Vec<f64> = per_task.iter().flatten().copied().collect();
    assert!((eo.mean - all.iter().sum::<f64>() / 10.0).abs() < 1e-12);
    let iv = eo.interval.unwrap();
    let [lo, hi] = naive_interval(&per_task, 2000, 17);
    assert!(
        (iv.lo.unwrap() - lo).abs() < 1e-9 && (iv.hi.unwrap() - hi).abs() < 1e-9,
        "{iv:?} vs [{lo}, {hi}]"
    );
    assert!(lo < hi);
}

fn steps(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"role": "assistant", "content": format!("step {i}")}))
            .collect(),
    )
}

#[test]
fn continuations_by_hand() {
    let v = |steps_: &[u64]| {
        Value::Array(
            steps_
                .iter()
                .map(|s| json!({"step": s, "constraint": "no refund"}))
                .collect(),
        )
    };
    let c = |id: &str,
             cp: &str,
             model: &str,
             round: &str,
             cond: &str,
             n: usize,
             violations: Option<Value>| {
        let mut x = run(
            id,
            model,
            "t",
            json!({"checkpoint": cp, "round": round, "condition": cond}),
        );
        x["messages"] = steps(n);
        if let Some(vs) = violations {
            x["violations"] = vs;
        }
        x
    };
    let lines = vec![
        c("a1", "s1", "A", "initial", "N", 2, Some(v(&[]))),
        c("a2", "s1", "A", "initial", "N", 3, Some(v(&[2]))),
        c("a3", "s1", "A", "initial", "N", 3, Some(v(&[1, 3]))),
        c("a4", "s1", "A", "initial", "N", 1, None),
        c("a5", "s1", "A", "initial", "I", 2, Some(v(&[2]))),
        c("a6", "s1", "A", "initial", "I", 2, Some(v(&[2]))),
        c("b1", "s2", "B", "expansion", "N", 4, Some(v(&[]))),
    ];
    let r = continuations(&read(&lines));
    let cov: Vec<(Option<&str>, usize, usize, usize, usize, usize)> = r
        .coverage
        .iter()
        .map(|c| {
            (
                c.round.as_deref(),
                c.states,
                c.repeats,
                c.steps,
                c.runs,
                c.scoreable,
            )
        })
        .collect();
    assert_eq!(
        cov,
        [
            (Some("initial"), 1, 4, 3, 6, 5),
            (Some("expansion"), 1, 1, 4, 1, 1)
        ]
    );
    let cols: Vec<(Option<&str>, Option<&str>)> = r
        .columns
        .iter()
        .map(|c| (c.round.as_deref(), c.condition.as_deref()))
        .collect();
    assert_eq!(
        cols,
        [
            (Some("initial"), Some("N")),
            (Some("initial"), Some("I")),
            (Some("expansion"), Some("N"))
        ]
    );
    let cells = |i: usize| -> Vec<(usize, usize, bool)> {
        r.violations[i]
            .cells
            .iter()
            .map(|c| (c.violated, c.scoreable, c.repeated))
            .collect()
    };
    assert_eq!(
        (
            r.violations[0].checkpoint.as_str(),
            r.violations[0].model.as_str(),
            r.violations[0].repeated
        ),
        ("s1", "A", true)
    );
    assert_eq!(cells(0), [(2, 3, true), (2, 2, true), (0, 0, false)]);
    assert_eq!(r.violations[0].cells[0].trajectories, ["a2", "a3", "a1"]);
    assert_eq!(
        (r.violations[1].model.as_str(), r.violations[1].repeated),
        ("B", false)
    );
    assert_eq!(cells(1), [(0, 0, false), (0, 0, false), (0, 1, false)]);
    let rev: Vec<(&str, bool, Option<&str>, usize, usize, Option<f64>)> = r
        .reversals
        .iter()
        .map(|x| {
            (
                x.model.as_str(),
                x.pooled,
                x.condition.as_deref(),
                x.eligible,
                x.reversals,
                x.share,
            )
        })
        .collect();
    assert_eq!(
        rev,
        [
            ("A", true, None, 4, 3, Some(0.75)),
            ("A", false, Some("N"), 2, 1, Some(0.5)),
            ("A", false, Some("I"), 2, 2, Some(1.0)),
            ("B", true, None, 1, 0, Some(0.0)),
            ("B", false, Some("N"), 1, 0, Some(0.0)),
        ]
    );
    assert_eq!(r.reversals[0].trajectories, ["a2", "a5", "a6"]);
}
