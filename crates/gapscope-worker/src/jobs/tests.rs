//! The worker's behaviour through its protocol: a job's JSON text in,
//! progress and one answer out; the import job against the jobs it joins.

use super::{handle, handle_message, run_job};
use crate::assets::corpus_trajectories;
use crate::attached::{attach, read_ahead, Attached};
use crate::codec::{decode_message, encode_envelope, read_plan, ReadPlan};
use crate::protocol::{
    Answer, Envelope, FromWorker, Job, OverviewResult, Request, Response, Source,
};
use gapscope_data::ingest::TrajectoryOptions;

/// Files attached to a job: (name, bytes).
type Files = Vec<(String, Vec<u8>)>;

#[test]
fn example_round_trips_through_json() {
    let req = Request {
        bootstrap: 200,
        ..Request::new(Source::Example)
    };
    let direct = handle(&req).unwrap();
    assert!(direct.synthetic);
    assert_eq!(direct.source, "synthetic example");
    assert_eq!(
        direct.report.summary,
        "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
    );
    let messages = exchange(7, Job::Analyze(req));
    let Some(FromWorker::Done {
        id: 7,
        answer: Answer::Analyze(answer),
    }) = messages.last()
    else {
        panic!("no answer: {messages:?}")
    };
    // f64 survives JSON text exactly (shortest round-trip formatting).
    assert_eq!(answer.as_ref().as_ref().unwrap(), &direct);
}

/// Send one job through the JSON protocol; every message posted back.
fn exchange(id: u64, job: Job) -> Vec<FromWorker> {
    let mut posted = Vec::new();
    handle_message(&encode_envelope(&Envelope { id, job }), vec![], &mut |m| {
        posted.push(decode_message(&m).unwrap());
    });
    posted
}

/// The import job reads the files once and answers exactly what the
/// analysis job and the overview job answer apart, also when the
/// analysis fails (trajectories without a foundational profile) or the
/// files cannot be read at all.
#[test]
fn the_import_job_equals_the_analysis_and_the_overview_apart() {
    // α 10, 20 bootstrap draws, seed 1: every case's (and the report's) settings.
    let request = |source| Request {
        bootstrap: 20,
        seed: 1,
        ..Request::new(source)
    };
    let traj = corpus_trajectories().as_bytes().to_vec();
    let cases: Vec<(Source, Files)> = vec![
        (Source::Corpus, vec![]),
        (
            Source::attached(vec!["t.jsonl".into()]),
            vec![("t.jsonl".into(), traj)],
        ),
        (
            Source::attached(vec!["bad.jsonl".into()]),
            vec![("bad.jsonl".into(), {
                // A trajectory line, then bytes that are not UTF-8.
                let mut b = corpus_trajectories()
                    .lines()
                    .next()
                    .unwrap()
                    .as_bytes()
                    .to_vec();
                b.extend_from_slice(b"\n\xff\xfe\n");
                b
            })],
        ),
        (Source::Example, vec![]),
        // An exported report (over 64 KB: a reader reads it whole once
        // its head shows it is one), re-imported with its settings.
        (
            Source::attached(vec!["report.json".into()]),
            vec![("report.json".into(), {
                let mut a = handle(&request(Source::Example)).unwrap().report;
                a.warnings.push("x".repeat(70_000));
                serde_json::to_vec_pretty(&a).unwrap()
            })],
        ),
    ];
    let mut shapes = Vec::new();
    for (source, attached) in cases {
        let req = request(source.clone());
        let Answer::Import { analysis, overview } =
            run_job(&Job::Import(req.clone()), attach(&attached), &mut |_| {})
        else {
            panic!("not an import answer")
        };
        let Answer::Analyze(apart) =
            run_job(&Job::Analyze(req.clone()), attach(&attached), &mut |_| {})
        else {
            panic!()
        };
        let Answer::Overview(o_apart) = run_job(
            &Job::Overview {
                source: source.clone(),
                options: TrajectoryOptions::default(),
            },
            attach(&attached),
            &mut |_| {},
        ) else {
            panic!()
        };
        // The same files as readers (the browser's streams): the same answers.
        let readers = attached
            .iter()
            .map(|(n, b)| Attached::Reader(n.clone(), Box::new(std::io::Cursor::new(b.clone()))))
            .collect();
        let Answer::Import {
            analysis: streamed,
            overview: o_streamed,
        } = run_job(&Job::Import(req.clone()), readers, &mut |_| {})
        else {
            panic!()
        };
        assert_eq!(analysis, streamed, "{source:?}");
        if attached.iter().any(|(n, _)| n == "report.json") {
            assert!(matches!(analysis.as_ref(), Ok(a) if a.imported));
        }
        assert_eq!(overview, o_streamed, "{source:?}");
        assert_eq!(analysis, apart, "{source:?}");
        assert_eq!(overview, o_apart, "{source:?}");
        // Read ahead, as the browser does with fetched files (each parsed
        // as it comes, as the job's read plan says; nothing hashed): the
        // same answers, the manifest's inputs then from a digests job.
        let import = Job::Import(req.clone());
        let text = encode_envelope(&Envelope {
            id: 3,
            job: import.clone(),
        });
        if let Some(plan) = read_plan(&text) {
            read_ahead_gives_the_same_answers(
                &source, &attached, &import, &plan, &analysis, &overview, &o_apart,
            );
        } else {
            assert!(
                attached.is_empty(),
                "{source:?}: attached files have a read plan"
            );
        }
        shapes.push((
            analysis.is_ok(),
            match *overview {
                Ok(Some(_)) => "overview",
                Ok(None) => "none",
                Err(_) => "error",
            },
        ));
    }
    // Each case is a different path: both answers; an analysis error with
    // an overview (no foundational profile); a read error; no trajectories.
    assert_eq!(
        shapes,
        [
            (true, "overview"),
            (false, "overview"),
            (false, "error"),
            (true, "none"),
            (true, "none")
        ]
    );
}

/// [`the_import_job_equals_the_analysis_and_the_overview_apart`], its files
/// read ahead as the browser does with fetched files (each parsed as it
/// comes, as the job's read plan says; nothing hashed): the same answers,
/// the manifest's inputs then from a digests job.
fn read_ahead_gives_the_same_answers(
    source: &Source,
    attached: &[(String, Vec<u8>)],
    import: &Job,
    plan: &ReadPlan,
    analysis: &Response,
    overview: &OverviewResult,
    o_apart: &OverviewResult,
) {
    let ahead = |plan: &ReadPlan| {
        attached
            .iter()
            .map(|(n, b)| read_ahead(n.clone(), b.clone(), plan))
            .collect::<Vec<_>>()
    };
    let Answer::Import {
        analysis: early,
        overview: o_early,
    } = run_job(import, ahead(plan), &mut |_| {})
    else {
        panic!()
    };
    assert_eq!(*overview, *o_early, "{source:?}");
    let Answer::Digests(digests) = run_job(
        &Job::Digests {
            source: source.clone(),
        },
        attach(attached),
        &mut |_| {},
    ) else {
        panic!()
    };
    let digests = digests.unwrap();
    assert_eq!(digests.len(), attached.len());
    match (analysis.as_ref(), *early) {
        (Ok(a), Ok(mut e)) => {
            assert!(e.manifest.inputs.is_empty(), "{source:?}");
            e.manifest = e.manifest.with_inputs(digests);
            assert_eq!(a, &e, "{source:?}");
        }
        (Err(a), Err(e)) => assert_eq!(a, &e, "{source:?}"),
        (a, e) => panic!("{source:?}: {a:?} but read ahead {e:?}"),
    }
    let overview_job = Job::Overview {
        source: source.clone(),
        options: TrajectoryOptions::default(),
    };
    let plan = read_plan(&encode_envelope(&Envelope {
        id: 4,
        job: overview_job.clone(),
    }))
    .unwrap();
    let Answer::Overview(o_ahead) = run_job(&overview_job, ahead(&plan), &mut |_| {}) else {
        panic!()
    };
    assert_eq!(*o_ahead, *o_apart, "{source:?}");
}

#[test]
fn progress_comes_before_the_answer_in_stage_order() {
    let req = Request {
        bootstrap: 0,
        ..Request::new(Source::Example)
    };
    let messages = exchange(3, Job::Analyze(req));
    let steps: Vec<(u32, u32, String)> = messages
        .iter()
        .filter_map(|m| match m {
            FromWorker::Progress { id: 3, progress } => {
                Some((progress.step, progress.of, progress.label.clone()))
            }
            _ => None,
        })
        .collect();
    // The example has a reward and nested selection is on by default:
    // reading + the six analysis stages, in order, each once.
    let labels: Vec<&str> = steps.iter().map(|s| s.2.as_str()).collect();
    assert_eq!(
        labels,
        [
            "reading 1 file",
            "correlations",
            "held-out fits of the operations",
            "reward from F",
            "reward from O",
            "reward from F+O",
            "nested selection"
        ]
    );
    assert!(steps
        .iter()
        .enumerate()
        .all(|(i, s)| s.0 == i as u32 + 1 && s.1 == 7));
    assert_eq!(messages.len(), 8);
    assert!(matches!(messages[7], FromWorker::Done { id: 3, .. }));
}

#[test]
fn errors_name_the_file() {
    let req = Request {
        bootstrap: 200,
        ..Request::new(Source::File {
            name: "bad.csv".into(),
            text: "model,family,TU\nm,A,x\n".into(),
        })
    };
    let messages = exchange(1, Job::Analyze(req.clone()));
    let Some(FromWorker::Done {
        answer: Answer::Analyze(answer),
        ..
    }) = messages.last()
    else {
        panic!("no error: {messages:?}")
    };
    let err = answer.as_ref().as_ref().unwrap_err();
    assert_eq!(
        err,
        "bad.csv: line 2, column `TU`: expected a number (or an empty cell for a missing value), found `x`"
    );
    let bad_alpha = Request { alpha: -1.0, ..req };
    assert!(handle(&bad_alpha).unwrap_err().contains("alpha must be"));
    let mut posted = Vec::new();
    handle_message("{\"id\": 12, \"job\": \"Nonsense\"}", vec![], &mut |m| {
        posted.push(m);
    });
    match decode_message(&posted[0]).unwrap() {
        FromWorker::Done {
            id: 12,
            answer: Answer::Failed(e),
        } => assert!(
            e.starts_with("internal error: the worker could not read its job"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
}

/// Each part's jobs run only in that part: another part's job is a failed
/// answer that names both (a per-part worker never runs the wrong job).
#[test]
fn a_part_answers_only_its_own_jobs() {
    use crate::protocol::Part;
    let runtime = Job::Runtime {
        source: None,
        simulate: None,
        addendum: false,
        bootstrap: 0,
        seed: 0,
    };
    let evidence = Job::EvidenceMessages {
        source: None,
        id: "x".into(),
    };
    let gaps = Job::Recovery {
        seeds: 0,
        alpha: 10.0,
    };
    assert_eq!(
        (runtime.part(), evidence.part(), gaps.part()),
        (Part::Runtime, Part::Evidence, Part::Gaps)
    );
    let failed = |answer: Answer| match answer {
        Answer::Failed(e) => e,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        failed(super::gaps::run(&runtime, vec![], &mut |_| {})),
        "internal error: job Runtime sent to the realization-gaps jobs"
    );
    assert_eq!(
        failed(super::runtime::run(&evidence, vec![], &mut |_| {})),
        "internal error: job EvidenceMessages sent to the runtime-contracts jobs"
    );
    assert_eq!(
        failed(super::evidence::run(&gaps, vec![], &mut |_| {})),
        "internal error: job Recovery sent to the evidence-to-action jobs"
    );
}

/// Each part's worker ([`crate::PartJobs`]) answers its own part's jobs as
/// [`handle_message`] does, and another part's job with a failure that
/// names both; only the gaps worker reads ahead and warms up.
#[test]
fn a_part_worker_runs_its_own_part_only() {
    use super::handle_message_with;
    use crate::protocol::Part;
    use crate::PartJobs;
    let evidence = encode_envelope(&Envelope {
        id: 3,
        job: Job::Evidence {
            source: None,
            bootstrap: 0,
            seed: 0,
            rows: Default::default(),
        },
    });
    let answers = |run: super::RunJob| {
        let mut posted = Vec::new();
        handle_message_with(run, &evidence, vec![], &mut |m| posted.push(m));
        posted
    };
    let mut whole = Vec::new();
    handle_message(&evidence, vec![], &mut |m| whole.push(m));
    assert_eq!(answers(PartJobs::EVIDENCE.run), whole);
    // The page's worker of both small parts answers either part's job as
    // that part's worker does, and a gaps job as theirs does.
    assert_eq!(answers(PartJobs::EVIDENCE_RUNTIME.run), whole);
    assert_eq!(
        PartJobs::EVIDENCE_RUNTIME.parts,
        [Part::Evidence, Part::Runtime]
    );
    for part in [Part::Gaps, Part::Runtime] {
        let posted = answers(PartJobs::of(part).run);
        let Ok(FromWorker::Done { id: 3, answer }) = decode_message(&posted[posted.len() - 1])
        else {
            panic!("{posted:?}");
        };
        assert_eq!(
            answer,
            Answer::Failed(format!(
                "internal error: job Evidence sent to the {} jobs",
                part.name()
            ))
        );
    }
    for part in [Part::Gaps, Part::Evidence, Part::Runtime] {
        let jobs = PartJobs::of(part);
        assert_eq!(jobs.parts, [part]);
        assert_eq!(jobs.read_ahead.is_some(), part == Part::Gaps);
        assert_eq!(jobs.warm_up.is_some(), part == Part::Gaps);
    }
}

#[test]
fn a_folder_among_the_attached_files_is_read_as_one_with_its_summary() {
    let line = corpus_trajectories().lines().next().unwrap().to_string();
    let names = vec![
        "run/a/t.jsonl".to_string(),
        "run/README.md".to_string(),
        "loose.jsonl".to_string(),
    ];
    let files: Files = vec![
        (names[0].clone(), format!("{line}\n").into_bytes()),
        (names[1].clone(), b"# notes\n".to_vec()),
        (names[2].clone(), format!("{line}\n").into_bytes()),
    ];
    let source = Source::Attached {
        names,
        folders: vec!["run".into()],
    };
    let Answer::Overview(o) = run_job(
        &Job::Overview {
            source,
            options: TrajectoryOptions {
                keep_repeats: true,
                ..TrajectoryOptions::default()
            },
        },
        attach(&files),
        &mut |_| {},
    ) else {
        panic!()
    };
    let o = (*o).unwrap().unwrap();
    // The folder's file and the loose one (the same line: kept twice).
    assert_eq!(o.trajectories.len(), 2);
    assert_eq!(o.files, ["run/a/t.jsonl", "loose.jsonl"]);
    assert_eq!(o.folders.len(), 1);
    let f = &o.folders[0];
    assert_eq!(f.name, "run");
    assert_eq!(
        f.lines(),
        [
            "read run/a/t.jsonl: canonical JSONL, 1 trajectory",
            "skipped run/README.md: not a trajectory, profile, label or outcomes file (not JSON, and not a table with a `model` column)"
        ]
    );
}

/// A large answer comes in chunks (each within the bound, before the
/// answer), and the chunks put back give exactly the job's answer: an
/// import of 2 × 2 models × 300 tasks × 3 trials (3,600 trajectories) and
/// the comparison of its runs (4 runs × 1,200 trials, 6 pairs × 300 tasks).
#[test]
fn a_large_answer_comes_in_chunks_that_give_it_back_whole() {
    use crate::protocol::chunks::{assemble, Chunk, CHUNK_UNITS};
    use gapscope_compare::{RunKey, RunOptions};
    use gapscope_synth::trajectories::{generate, TrajParams};
    let corpus = generate(&TrajParams {
        tasks: 300,
        trials: 3,
        ..TrajParams::sized(2, 2)
    })
    .unwrap();
    let source = Source::File {
        name: "synthetic.jsonl".into(),
        text: corpus.jsonl().unwrap(),
    };
    let jobs = [
        Job::Overview {
            source: source.clone(),
            options: TrajectoryOptions::default(),
        },
        Job::Compare {
            source,
            options: TrajectoryOptions::default(),
            runs: RunOptions {
                by: RunKey::Model,
                ..RunOptions::default()
            },
            settings: gapscope_stats::paired::Settings::new(200, 100, 1).unwrap(),
        },
    ];
    // With 500 units a chunk: 3,600 rows → 8 chunks; 4 runs of 900 trials
    // (166 tasks of 3 trials a chunk) → 2 chunks each; 6 pairs of 300 rows → 1 each.
    assert_eq!(CHUNK_UNITS, 500);
    for (job, expected_chunks) in jobs.into_iter().zip([8, 4 * 2 + 6]) {
        let direct = run_job(&job, vec![], &mut |_| {});
        let messages = exchange(9, job);
        let mut chunks = Vec::new();
        let mut answer = None;
        for m in messages {
            match m {
                FromWorker::Chunk { id: 9, chunk } => {
                    assert!(answer.is_none(), "a chunk after the answer");
                    chunks.push(chunk);
                }
                FromWorker::Done { id: 9, answer: a } => answer = Some(a),
                FromWorker::Progress { .. } => {}
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(chunks.len(), expected_chunks, "{}", direct.kind());
        for c in &chunks {
            let units = match c {
                Chunk::Trajectories(rows) => rows.len(),
                Chunk::RunTasks { tasks, .. } => tasks.iter().map(|t| t.trials.len()).sum(),
                Chunk::PairTasks { tasks, .. } => tasks.len(),
            };
            assert!(units > 0 && units <= CHUNK_UNITS, "{units}");
        }
        let mut answer = answer.expect("no answer");
        assert_ne!(answer, direct, "the answer travels without its lists");
        assemble(&mut answer, chunks).unwrap();
        assert_eq!(answer, direct);
    }
}

/// A small answer travels whole: no chunk.
#[test]
fn a_small_answer_comes_whole() {
    let text = include_str!("../../../../tests/fixtures/trajectories-small.jsonl");
    let messages = exchange(
        4,
        Job::Overview {
            source: Source::File {
                name: "t.jsonl".into(),
                text: text.into(),
            },
            options: TrajectoryOptions::default(),
        },
    );
    assert!(!messages
        .iter()
        .any(|m| matches!(m, FromWorker::Chunk { .. })));
    assert!(matches!(
        messages.last(),
        Some(FromWorker::Done { id: 4, .. })
    ));
}

/// The inference job through the protocol: on the embedded corpus it
/// resamples the trajectories (gap intervals) and its JSON is the core's
/// `infer` on the analysis the analysis job reports; on the example (a
/// table, no trajectories) there are none; its progress comes first.
#[test]
fn the_inference_job_is_the_cores_inference_of_the_analysis() {
    let request = Request {
        bootstrap: 100,
        ..Request::new(Source::Corpus)
    };
    let messages = exchange(
        3,
        Job::Inference {
            request: request.clone(),
            permutations: 49,
            delta_permutations: 9,
        },
    );
    assert!(matches!(
        messages.first(),
        Some(FromWorker::Progress { .. })
    ));
    let Some(FromWorker::Done {
        answer: Answer::Inference(page),
        ..
    }) = messages.last()
    else {
        panic!(
            "no inference answer: {:?}",
            messages
                .last()
                .map(|m| format!("{m:?}").chars().take(200).collect::<String>())
        );
    };
    let page = page.as_ref().as_ref().unwrap();
    let json: serde_json::Value = serde_json::from_str(&page.json).unwrap();
    assert!(
        json["gap_intervals"].is_object(),
        "the corpus's trajectories are resampled"
    );
    assert_eq!(json["permutations"]["permutations"], 49);
    assert_eq!(json["delta_q2"]["permutations"], 9);
    // The report the analysis job gives, inferred by the core, is this JSON.
    let analysis = handle(&request).unwrap();
    let settings = analysis.report.settings.to_settings().unwrap();
    let inputs = gapscope_data::ingest::read_inputs_from(
        crate::attached::input_files(&Source::Corpus, Vec::new())
            .unwrap()
            .0,
        &TrajectoryOptions::default(),
        &gapscope_data::ingest::Messages::Counts,
        false,
    )
    .unwrap();
    let samples = gapscope_data::operations::operation_samples(
        &inputs.corpus.trajectories,
        &TrajectoryOptions::default().profile_options(),
    );
    let core = gapscope_gaps::inference::infer(
        &analysis.report.input,
        &settings,
        &analysis.report,
        Some(&samples),
        49,
        9,
    )
    .unwrap();
    assert_eq!(page.json, serde_json::to_string_pretty(&core).unwrap());

    let example = run_job(
        &Job::Inference {
            request: Request {
                bootstrap: 100,
                ..Request::new(Source::Example)
            },
            permutations: 0,
            delta_permutations: 0,
        },
        Vec::new(),
        &mut |_| {},
    );
    let Answer::Inference(page) = example else {
        panic!("not an inference answer");
    };
    let json: serde_json::Value = serde_json::from_str(&page.unwrap().json).unwrap();
    assert!(json["gap_intervals"].is_null() && json["permutations"].is_null());
}
