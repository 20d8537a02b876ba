//! Each job's reply comes out of its answer; a failed answer is the job's
//! error; an answer of another job is a [`WrongAnswer`] that names both.

use super::*;
use crate::codec::{encode_envelope, job_kind};
use crate::jobs::{run_ask, run_job};
use crate::protocol::{Envelope, Job};
use crate::{warm_up_tau2, worked_trajectories, EXAMPLE_CSV, WORKED_CASES};
use std::fmt::Debug;

/// One answer of every kind, each carrying the error `"<kind> answer"`.
fn one_answer_of_each_kind() -> Vec<Answer> {
    let e = |kind: &str| format!("{kind} answer");
    vec![
        Answer::Analyze(Box::new(Err(e("Analyze")))),
        Answer::Import {
            analysis: Box::new(Err(e("Import"))),
            overview: Box::new(Err(e("Import"))),
        },
        Answer::Overview(Box::new(Err(e("Overview")))),
        Answer::Trajectory(Box::new(Err(e("Trajectory")))),
        Answer::Stability(Box::new(Err(e("Stability")))),
        Answer::Evidence(Box::new(Err(e("Evidence")))),
        Answer::Recovery(Box::new(Err(e("Recovery")))),
        Answer::EvidenceMessages(Box::new(Err(e("EvidenceMessages")))),
        Answer::Runtime(Box::new(Err(e("Runtime")))),
        Answer::Digests(Box::new(Err(e("Digests")))),
        Answer::ProxyLabels(Box::new(Err(e("ProxyLabels")))),
        Answer::Failed(e("Failed")),
    ]
}

/// `ask`'s job, its name and its replies to every kind of answer.
fn check<A: Ask>(ask: A, expected: &Job)
where
    A::Reply: Debug + PartialEq,
{
    let job = ask.into_job();
    assert_eq!(&job, expected);
    assert_eq!(job.kind(), A::JOB);
    // The same JSON text as the job built by hand; its kind read from it.
    let text = encode_envelope(&Envelope { id: 1, job });
    assert_eq!(
        text,
        encode_envelope(&Envelope {
            id: 1,
            job: expected.clone()
        })
    );
    assert_eq!(job_kind(&text), A::JOB);
    let mut matched = 0;
    for answer in one_answer_of_each_kind() {
        let kind = answer.kind();
        let message = format!("{kind} answer");
        if kind == A::JOB || kind == "Failed" {
            // The job's own answer (here its error), or a failed one.
            matched += usize::from(kind == A::JOB);
            assert_eq!(
                A::reply(answer.clone()),
                Ok(A::failed(message.clone())),
                "{kind}"
            );
            assert_eq!(A::outcome(answer), A::failed(message));
        } else {
            let wrong = A::reply(answer.clone()).unwrap_err();
            assert_eq!(
                wrong,
                WrongAnswer {
                    job: A::JOB,
                    answer: kind
                }
            );
            assert_eq!(
                wrong.to_string(),
                format!(
                    "internal error: job {} got an answer of kind {kind}",
                    A::JOB
                )
            );
            assert_eq!(A::outcome(answer), A::failed(wrong.to_string()));
        }
    }
    assert_eq!(matched, 1, "{}: one kind of answer is its own", A::JOB);
}

fn request(source: Source) -> Request {
    Request {
        bootstrap: 0,
        ..Request::new(source)
    }
}

#[test]
fn every_job_has_an_ask_that_builds_it_and_reads_its_answer() {
    let source = Source::Corpus;
    let options = TrajectoryOptions::default();
    let r = request(Source::Example);
    check(Analyze(r.clone()), &Job::Analyze(r.clone()));
    check(Import(r.clone()), &Job::Import(r));
    check(
        Overview {
            source: source.clone(),
            options: options.clone(),
        },
        &Job::Overview {
            source: source.clone(),
            options: options.clone(),
        },
    );
    check(
        Trajectory {
            source: source.clone(),
            options: options.clone(),
            id: "t".into(),
        },
        &Job::Trajectory {
            source: source.clone(),
            options: options.clone(),
            id: "t".into(),
        },
    );
    check(
        Stability {
            source: source.clone(),
            options: options.clone(),
            settings: StabilitySettings::default(),
        },
        &Job::Stability {
            source: source.clone(),
            options,
            settings: StabilitySettings::default(),
        },
    );
    check(
        Evidence {
            source: None,
            bootstrap: 3,
            seed: 4,
            rows: Default::default(),
        },
        &Job::Evidence {
            source: None,
            bootstrap: 3,
            seed: 4,
            rows: Default::default(),
        },
    );
    check(
        EvidenceMessages {
            source: None,
            id: "e".into(),
        },
        &Job::EvidenceMessages {
            source: None,
            id: "e".into(),
        },
    );
    check(
        Recovery {
            seeds: 2,
            alpha: 3.0,
        },
        &Job::Recovery {
            seeds: 2,
            alpha: 3.0,
        },
    );
    check(
        ProxyLabels {
            source: source.clone(),
        },
        &Job::ProxyLabels {
            source: source.clone(),
        },
    );
    check(
        Digests {
            source: source.clone(),
        },
        &Job::Digests { source },
    );
    check(
        Runtime {
            source: None,
            simulate: Some(SimParams::default()),
            addendum: true,
            bootstrap: 5,
            seed: 6,
        },
        &Job::Runtime {
            source: None,
            simulate: Some(SimParams::default()),
            addendum: true,
            bootstrap: 5,
            seed: 6,
        },
    );
}

/// The typed replies of real jobs: the values the untyped answers carry.
#[test]
fn the_replies_of_real_jobs_are_their_answers_values() {
    let none = &mut |_| {};
    let example = request(Source::Example);
    let analysis = run_ask(Analyze(example.clone()), vec![], none)
        .unwrap()
        .unwrap();
    assert_eq!(
        analysis.report.summary,
        "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
    );
    let imported = run_ask(Import(example), vec![], none).unwrap();
    assert_eq!(imported.analysis, Ok(analysis));
    assert_eq!(
        imported.overview,
        Ok(None),
        "the example has no trajectories"
    );

    let options = TrajectoryOptions::default();
    let overview = run_ask(
        Overview {
            source: Source::Corpus,
            options: options.clone(),
        },
        vec![],
        none,
    )
    .unwrap()
    .unwrap()
    .unwrap();
    let id = overview.trajectories[3].id.clone();
    let trajectory = run_ask(
        Trajectory {
            source: Source::Corpus,
            options: options.clone(),
            id: id.clone(),
        },
        vec![],
        none,
    )
    .unwrap()
    .unwrap();
    assert_eq!(trajectory.map(|t| t.id), Some(id));
    let missing = Trajectory {
        source: Source::Corpus,
        options,
        id: "no such id".into(),
    };
    assert_eq!(run_ask(missing, vec![], none), Ok(Ok(None)));

    let evidence = run_ask(
        Evidence {
            source: None,
            bootstrap: 0,
            seed: 0,
            rows: Default::default(),
        },
        vec![],
        none,
    )
    .unwrap()
    .unwrap();
    assert_eq!(evidence.report.report().unwrap().cases.len(), 42);
    let Answer::Evidence(untyped) = run_job(
        &Job::Evidence {
            source: None,
            bootstrap: 0,
            seed: 0,
            rows: Default::default(),
        },
        vec![],
        none,
    ) else {
        panic!("not an evidence answer")
    };
    assert_eq!(*untyped, Ok(evidence.clone()));
    let messages = run_ask(
        EvidenceMessages {
            source: Some(Source::Files {
                files: vec![
                    ("c.jsonl".into(), WORKED_CASES.into()),
                    ("t.jsonl".into(), worked_trajectories().into()),
                ],
            }),
            id: evidence.report.report().unwrap().episodes[0]
                .trajectory_id
                .clone(),
        },
        vec![],
        none,
    )
    .unwrap()
    .unwrap();
    assert!(!messages.is_empty());

    let files = vec![("results.json".to_string(), warm_up_tau2(4).into_bytes())];
    let attached = Source::attached(vec!["results.json".into()]);
    let labels = run_ask(
        ProxyLabels {
            source: attached.clone(),
        },
        crate::attach(&files),
        none,
    )
    .unwrap()
    .unwrap();
    assert_eq!(labels.labelled, ["results.json"]);
    let digests = run_ask(Digests { source: attached }, crate::attach(&files), none)
        .unwrap()
        .unwrap();
    assert_eq!(digests.len(), 1);
    assert_eq!(digests[0].name, "results.json");

    let crate::protocol::RuntimeAnswer { report, log, page } = run_ask(
        Runtime {
            source: None,
            simulate: Some(SimParams {
                instances: 2,
                caps: vec![5, 60],
                ..SimParams::default()
            }),
            addendum: false,
            bootstrap: 0,
            seed: 0,
        },
        vec![],
        none,
    )
    .unwrap()
    .unwrap();
    assert_eq!(report.report().unwrap().episodes_read, 16);
    assert_eq!(log.map(|l| l.lines().count()), Some(16));
    assert!(
        !page.items("quality").is_empty(),
        "the cost ratio beside the 2×2"
    );

    // A job's own error is its reply's error, typed as the job's reply.
    let bad = Analyze(Request {
        alpha: -1.0,
        ..request(Source::File {
            name: "f.csv".into(),
            text: EXAMPLE_CSV.into(),
        })
    });
    let err = run_ask(bad, vec![], none).unwrap().unwrap_err();
    assert!(err.contains("alpha must be"), "{err}");
}

#[test]
fn the_analysis_slot_asks_analyze_or_import_and_reads_both_answers() {
    let r = request(Source::Example);
    let analyze = Analysis {
        request: r.clone(),
        import: false,
    };
    assert_eq!(analyze.into_job(), Job::Analyze(r.clone()));
    let import = Analysis {
        request: r.clone(),
        import: true,
    };
    assert_eq!(import.into_job(), Job::Import(r));
    for answer in one_answer_of_each_kind() {
        let kind = answer.kind();
        let reply = Analysis::reply(answer);
        match kind {
            // An import's overview comes with it, an analysis has none; a
            // failed job is the reply's error.
            "Analyze" => assert_eq!(
                reply,
                Ok(Ok(Analysed {
                    analysis: Err("Analyze answer".into()),
                    overview: None
                }))
            ),
            "Import" => assert_eq!(
                reply,
                Ok(Ok(Analysed {
                    analysis: Err("Import answer".into()),
                    overview: Some(Err("Import answer".into()))
                }))
            ),
            "Failed" => assert_eq!(reply, Ok(Err("Failed answer".into()))),
            _ => assert_eq!(
                reply.unwrap_err().to_string(),
                format!("internal error: job Analyze or Import got an answer of kind {kind}")
            ),
        }
    }
}
