//! Runs from trajectories: keys, merges, renames, exclusions, splits by
//! file, rescaling; each checked against numbers worked by hand in the test.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_compare::runs::{build_runs, field_value, ExcludedTrajectory};
use gapscope_compare::{compare, CompareError, Merge, RunKey, RunOptions, Source};
use gapscope_data::formats::Excluded;
use gapscope_data::trajectory::{Detail, Trajectory};
use gapscope_stats::paired::Settings;

fn t(model: &str, task: &str, trial: i64, reward: Option<f64>) -> Trajectory {
    Trajectory {
        id: format!("{model}-{task}-{trial}"),
        model: model.into(),
        domain: Some("airline".into()),
        task_id: task.into(),
        trial: Some(trial),
        reward,
        ..Trajectory::default()
    }
}

struct Data {
    trajectories: Vec<Trajectory>,
    file_of: Vec<usize>,
    files: Vec<String>,
    excluded: Vec<Excluded>,
    excluded_file: Vec<usize>,
}

impl Data {
    fn one_file(trajectories: Vec<Trajectory>) -> Data {
        let n = trajectories.len();
        Data {
            trajectories,
            file_of: vec![0; n],
            files: vec!["a.json".into()],
            excluded: Vec::new(),
            excluded_file: Vec::new(),
        }
    }

    fn source(&self) -> Source<'_> {
        Source {
            trajectories: &self.trajectories,
            file_of: &self.file_of,
            files: &self.files,
            excluded: &self.excluded,
            excluded_file: &self.excluded_file,
        }
    }
}

fn names(d: &Data, options: &RunOptions) -> Vec<String> {
    build_runs(&d.source(), options)
        .unwrap()
        .runs
        .into_iter()
        .map(|r| r.name)
        .collect()
}

#[test]
fn keys_parse_and_refuse_with_the_expected_forms() {
    assert_eq!("model".parse::<RunKey>().unwrap(), RunKey::Model);
    assert_eq!("file".parse::<RunKey>().unwrap(), RunKey::File);
    assert_eq!(
        "field:agent".parse::<RunKey>().unwrap(),
        RunKey::Field("agent".into())
    );
    let e = "field:".parse::<RunKey>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "`--by field:`: expected `model`, `file` or `field:NAME`"
    );
    assert_eq!(
        "a, b=ab".parse::<Merge>().unwrap(),
        Merge {
            from: vec!["a".into(), "b".into()],
            to: "ab".into()
        }
    );
    assert!(matches!("ab".parse::<Merge>(), Err(CompareError::Merge(_))));
    assert!(matches!("=x".parse::<Merge>(), Err(CompareError::Merge(_))));
}

#[test]
fn runs_by_model_file_and_field_merged_and_renamed() {
    let mut ts = vec![
        t("m1", "1", 0, Some(1.0)),
        t("m2", "1", 0, Some(0.0)),
        t("m3", "1", 0, Some(1.0)),
    ];
    ts[0].details.push(Detail {
        label: "agent".into(),
        value: "codex".into(),
    });
    ts[1].details.push(Detail {
        label: "agent".into(),
        value: serde_json::json!(7),
    });
    let mut d = Data::one_file(ts);
    d.files = vec!["a.json".into(), "b.json".into()];
    d.file_of = vec![0, 1, 1];
    assert_eq!(names(&d, &RunOptions::default()), ["m1", "m2", "m3"]);
    let by_file = RunOptions {
        by: RunKey::File,
        ..RunOptions::default()
    };
    assert_eq!(names(&d, &by_file), ["a.json", "b.json"]);
    let by_agent = RunOptions {
        by: RunKey::Field("agent".into()),
        ..RunOptions::default()
    };
    let built = build_runs(&d.source(), &by_agent).unwrap();
    let n: Vec<&str> = built.runs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(n, ["codex", "7", "(no agent)"]);
    assert_eq!(
        built.notes,
        ["1 trajectories have no `agent`: they form the run \"(no agent)\""]
    );
    assert_eq!(
        field_value(&d.trajectories[0], "domain").as_deref(),
        Some("airline")
    );
    let merged = RunOptions {
        merges: vec!["m1,m3=odd".parse().unwrap()],
        renames: vec![("m2".into(), "even".into())],
        ..RunOptions::default()
    };
    let built = build_runs(&d.source(), &merged).unwrap();
    assert_eq!(built.runs[0].name, "odd");
    assert_eq!(built.runs[0].files, ["a.json", "b.json"]);
    // m1 and m3 both ran task 1 trial 0, in different files: merged as
    // asked, two draws of task 1 (a model's own such files would split).
    assert_eq!(built.runs.len(), 2, "{:?}", built.notes);
    assert_eq!(built.runs[0].run.trajectories(), 2);
    assert_eq!(built.runs[1].name, "even");
}

#[test]
fn excluded_trajectories_are_listed_and_count_as_failures_when_asked() {
    let mut ts = vec![
        t("m", "1", 0, Some(1.0)),
        t("m", "2", 0, Some(1.0)),
        t("m", "3", 0, Some(0.5)),
        t("m", "4", 0, None),
    ];
    ts[2].termination_reason = Some("infrastructure_error".into());
    let d = Data::one_file(ts);
    let built = build_runs(&d.source(), &RunOptions::default()).unwrap();
    let run = &built.runs[0];
    assert_eq!(run.run.len(), 2, "tasks 1 and 2 only");
    assert_eq!(
        run.excluded,
        [
            ExcludedTrajectory {
                id: "m-3-0".into(),
                task: "airline/3".into(),
                reason: "infrastructure error (termination reason infrastructure_error)".into()
            },
            ExcludedTrajectory {
                id: "m-4-0".into(),
                task: "airline/4".into(),
                reason: "unscored (no reward)".into()
            }
        ]
    );
    let settings = Settings::new(0, 0, 0).unwrap();
    let r = compare(&d.source(), &RunOptions::default(), &settings).unwrap();
    assert_eq!(r.runs[0].summary.mean, Some(1.0));
    let failures = RunOptions {
        excluded_as_failures: true,
        ..RunOptions::default()
    };
    let r = compare(&d.source(), &failures, &settings).unwrap();
    // (1 + 1 + 0 + 0) / 4: the excluded count as 0, not as their 0.5.
    assert_eq!(r.runs[0].summary.mean, Some(0.5));
    assert_eq!(r.runs[0].summary.tasks, 4);
    assert_eq!(r.runs[0].excluded.len(), 2);
}

#[test]
fn a_readers_excluded_run_joins_the_run_of_its_file() {
    let mut d = Data::one_file(vec![t("agent-x", "1", 0, Some(1.0))]);
    d.excluded = vec![Excluded {
        id: "trial-2".into(),
        task: "airline/2".into(),
        reason: "EnvironmentStartTimeoutError".into(),
        model: None,
    }];
    d.excluded_file = vec![0];
    let failures = RunOptions {
        excluded_as_failures: true,
        ..RunOptions::default()
    };
    let built = build_runs(&d.source(), &failures).unwrap();
    assert_eq!(built.runs.len(), 1);
    assert_eq!(
        built.runs[0].excluded[0].reason,
        "infrastructure error: EnvironmentStartTimeoutError"
    );
    assert_eq!(built.runs[0].run.trajectories(), 2);
    // Left out: listed, not scored.
    let built = build_runs(&d.source(), &RunOptions::default()).unwrap();
    assert_eq!(built.runs[0].run.trajectories(), 1);
    assert_eq!(built.runs[0].excluded.len(), 1);
}

#[test]
fn files_that_repeat_a_task_and_trial_split_the_run() {
    let mut d = Data::one_file(vec![
        t("m", "1", 0, Some(1.0)),
        t("m", "1", 0, Some(0.0)),
        t("m", "2", 0, Some(1.0)),
        t("m", "2", 1, Some(1.0)),
    ]);
    d.files = vec!["monday.json".into(), "tuesday.json".into()];
    d.file_of = vec![0, 1, 1, 1];
    let built = build_runs(&d.source(), &RunOptions::default()).unwrap();
    let n: Vec<&str> = built.runs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(n, ["m [monday.json]", "m [tuesday.json]"]);
    assert_eq!(
        built.notes,
        ["run `m`: its 2 files repeat (task, trial) pairs, so it is split by file"]
    );
    assert_eq!(built.runs[1].run.trajectories(), 3);
    // Files that add trials without repeating one stay one run.
    d.trajectories[1].trial = Some(1);
    d.trajectories[3].trial = Some(2);
    assert_eq!(names(&d, &RunOptions::default()), ["m"]);
}

#[test]
fn rewards_on_0_100_are_divided_and_others_refused() {
    let d = Data::one_file(vec![
        t("m", "1", 0, Some(50.0)),
        t("m", "2", 0, Some(100.0)),
    ]);
    let built = build_runs(&d.source(), &RunOptions::default()).unwrap();
    assert_eq!(built.runs[0].rescaled, Some(100.0));
    assert_eq!(
        built.notes,
        ["run `m`: rewards divided by 100 (a 0–100 scale)"]
    );
    let r = compare(
        &d.source(),
        &RunOptions::default(),
        &Settings::new(0, 0, 0).unwrap(),
    )
    .unwrap();
    assert_eq!(r.runs[0].summary.mean, Some(0.75));
    let bad = Data::one_file(vec![t("m", "1", 0, Some(150.0))]);
    let e = build_runs(&bad.source(), &RunOptions::default()).unwrap_err();
    assert!(e.to_string().starts_with("run `m`: "), "{e}");
    assert!(e.to_string().contains("150"), "{e}");
}

#[test]
fn nothing_scored_is_an_error_that_says_so() {
    let d = Data::one_file(vec![t("m", "1", 0, None)]);
    let e = build_runs(&d.source(), &RunOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no scored trajectory to compare (every trajectory is excluded or unscored: 1 read)"
    );
}

#[test]
fn two_runs_pair_on_common_tasks_with_the_engine_numbers() {
    // A: tasks 1–3 succeed, 4 fails; B: 1 succeeds, 2–4 fail; C only on task 9.
    let mut ts = Vec::new();
    for (task, a, b) in [
        ("1", 1.0, 1.0),
        ("2", 1.0, 0.0),
        ("3", 1.0, 0.0),
        ("4", 0.0, 0.0),
    ] {
        ts.push(t("A", task, 0, Some(a)));
        ts.push(t("B", task, 0, Some(b)));
    }
    ts.push(t("B", "9", 0, Some(1.0)));
    let d = Data::one_file(ts);
    let r = compare(
        &d.source(),
        &RunOptions::default(),
        &Settings::new(1000, 0, 0).unwrap(),
    )
    .unwrap();
    assert_eq!(r.schema, "gapscope.compare/1");
    assert_eq!(r.pairs.len(), 1);
    let c = &r.pairs[0].comparison;
    assert_eq!(c.common, 4);
    assert_eq!(c.only_b, ["airline/9"]);
    // Δ = (0 + 1 + 1 + 0) / 4; b = 2, c = 0: exact McNemar p = 2 · (1/2)² = 0.5.
    assert_eq!(c.delta, Some(0.5));
    assert!(c.sign_test.exact_mcnemar);
    assert!((c.sign_test.p.unwrap() - 0.5).abs() < 1e-12);
    // B's mean is over its own 5 tasks: 2 / 5.
    assert_eq!(r.runs[1].summary.mean, Some(0.4));
    assert_eq!(r.runs[1].trials, [1, 1]);
}

#[test]
fn each_run_lists_its_tasks_with_the_trajectory_of_every_trial() {
    // Task 1: trials 0 and 1 (1, 0) → x̄ = 0.5; task 2: one trial of 50 on a
    // 0–100 run → 0.5 after the rescale; a Harbor trial excluded on task 3
    // counts as a failure with no trajectory behind it.
    let mut d = Data::one_file(vec![
        t("X", "2", 0, Some(50.0)),
        t("X", "1", 0, Some(100.0)),
        t("X", "1", 1, Some(0.0)),
    ]);
    d.excluded = vec![Excluded {
        id: "trial-3".into(),
        task: "airline/3".into(),
        reason: "EnvironmentStartTimeoutError".into(),
        model: Some("X".into()),
    }];
    d.excluded_file = vec![0];
    let options = RunOptions {
        excluded_as_failures: true,
        ..RunOptions::default()
    };
    let r = compare(&d.source(), &options, &Settings::new(0, 0, 0).unwrap()).unwrap();
    let tasks = &r.runs[0].tasks;
    let keys: Vec<&str> = tasks.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["airline/1", "airline/2", "airline/3"]);
    let means: Vec<f64> = tasks.iter().map(|t| t.mean).collect();
    assert_eq!(means, [0.5, 0.5, 0.0]);
    let ids: Vec<Vec<Option<&str>>> = tasks
        .iter()
        .map(|t| t.trials.iter().map(|k| k.id.as_deref()).collect())
        .collect();
    assert_eq!(
        ids,
        [
            vec![Some("X-1-0"), Some("X-1-1")],
            vec![Some("X-2-0")],
            vec![None]
        ]
    );
    assert_eq!(tasks[0].trials[0].reward, 1.0);
    // The report reads back from its JSON (the page's worker sends it so).
    let text = serde_json::to_string(&r).unwrap();
    let back: gapscope_compare::CompareReport = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
}
