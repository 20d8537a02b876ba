//! The evidence-to-action part's jobs: the report of a case file and its
//! trajectories (or the embedded worked set), and one trajectory's messages
//! for the replay.

use super::{not_this_part, step};
use crate::assets::{worked_trajectories, WORKED_CASES};
use crate::attached::{source_files, text_of, whole, Attached};
use crate::protocol::{Answer, Job, Part, Progress, Source};
use gapscope_data::formats::read_jsonl;
use gapscope_data::trajectory::Message;
use gapscope_evidence::{evaluate, EvidenceReport, EvidenceSettings};

/// Run a job of this part (another part's job is a failed answer).
pub fn run(job: &Job, attached: Vec<Attached>, progress: &mut dyn FnMut(Progress)) -> Answer {
    match job {
        Job::Evidence {
            source,
            bootstrap,
            seed,
            rows,
        } => {
            progress(step("scoring every episode against its case"));
            Answer::Evidence(Box::new(
                report(source.as_ref(), attached, *bootstrap, *seed, rows).map(|r| {
                    crate::protocol::EvidenceAnswer {
                        page: gapscope_view::evidence::analyses::page(&r),
                        report: crate::protocol::Exported::new(&r),
                    }
                }),
            ))
        }
        Job::EvidenceMessages { source, id } => {
            Answer::EvidenceMessages(Box::new(messages(source.as_ref(), attached, id)))
        }
        _ => not_this_part(job, Part::Evidence),
    }
}

/// [`Job::Evidence`] (the names: the case file's, then the trajectories').
fn report(
    source: Option<&Source>,
    attached: Vec<Attached>,
    bootstrap: usize,
    seed: u64,
    rows: &[String; 4],
) -> Result<EvidenceReport, String> {
    let rows =
        gapscope_evidence::interventions::Rows::parse(&rows[0], &rows[1], &rows[2], &rows[3])
            .map_err(|e| format!("rows of the analyses: {e}"))?;
    let settings = EvidenceSettings {
        bootstrap,
        seed,
        rows,
        ..EvidenceSettings::default()
    };
    evidence_texts(source, attached).and_then(|(names, cases, trajectories)| {
        evaluate(&cases, &trajectories, &settings).map_err(|e| {
            use gapscope_evidence::EvidenceError as E;
            // A file of another part is named alone (the page offers to
            // open it there); other errors name both files.
            let file = match &e {
                E::CasesOfOtherPart(_) => names[0].clone(),
                E::TrajectoriesOfOtherPart(_) => names[1].clone(),
                _ => names.join(" + "),
            };
            format!("{file}: {e}")
        })
    })
}

/// [`Job::EvidenceMessages`].
fn messages(
    source: Option<&Source>,
    attached: Vec<Attached>,
    id: &str,
) -> Result<Vec<Message>, String> {
    evidence_texts(source, attached).and_then(|(_, _, trajectories)| {
        read_jsonl(&trajectories)
            .trajectories
            .into_iter()
            .find(|t| t.id == id)
            .map(|t| t.messages)
            .ok_or_else(|| format!("trajectory `{id}` is not in the file"))
    })
}

/// Names and texts of an evidence job's case file and trajectory file.
fn evidence_texts(
    source: Option<&Source>,
    attached: Vec<Attached>,
) -> Result<(Vec<String>, String, String), String> {
    let Some(source) = source else {
        return Ok((
            vec!["worked set".into()],
            WORKED_CASES.to_string(),
            worked_trajectories().to_string(),
        ));
    };
    let attached = whole(attached)?;
    let (files, _) = source_files(source, &attached)?;
    // A file of another part (an episode log, a profile table, τ²-bench
    // results) is named for what it is before anything else is said.
    for (name, bytes) in &files {
        if let Some(m) = std::str::from_utf8(bytes).ok().and_then(|t| {
            gapscope_data::kind::misplaced(name, t, gapscope_data::kind::Part::Evidence)
        }) {
            return Err(m);
        }
    }
    let [(a, x), (b, y)] = files.as_slice() else {
        return Err(format!(
            "open two files, the case specs and the trajectories (got {})",
            files.len()
        ));
    };
    let (x, y) = (text_of(a, x)?.to_string(), text_of(b, y)?.to_string());
    let has_messages = |t: &str| {
        t.lines()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .is_some_and(|v| v.get("messages").is_some())
    };
    match (has_messages(&x), has_messages(&y)) {
        (false, true) => Ok((vec![a.clone(), b.clone()], x, y)),
        (true, false) => Ok((vec![b.clone(), a.clone()], y, x)),
        _ => Err(format!(
            "{a} + {b}: expected one case file and one trajectory file (the one whose lines have `messages`)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::assets::{worked_trajectories, WORKED_CASES};
    use crate::jobs::run_job;
    use crate::protocol::{Answer, Job, Source};
    use gapscope_evidence::{evaluate, EvidenceSettings};

    #[test]
    fn evidence_jobs_answer_with_their_reports() {
        let Answer::Evidence(r) = run_job(
            &Job::Evidence {
                source: None,
                bootstrap: 200,
                seed: 0,
                rows: Default::default(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        let answer = (*r).unwrap();
        let exported = answer.report;
        let r = exported.report().unwrap();
        assert_eq!(r.cases.len(), 42);
        assert_eq!(r.episodes.len(), worked_trajectories().lines().count());
        // The same report as the core on the same texts and settings: the
        // export's text is the report as the command line writes it, and
        // the addendum's views are the core's report's.
        let direct = evaluate(
            WORKED_CASES,
            worked_trajectories(),
            &EvidenceSettings {
                bootstrap: 200,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(
            exported.json(),
            serde_json::to_string_pretty(&direct).unwrap() + "\n"
        );
        assert_eq!(
            answer.page,
            gapscope_view::evidence::analyses::page(&direct)
        );
        // Read back, the report keeps what the page reads (the addendum's
        // tables arrive as the page's text instead).
        assert_eq!(r.episodes.len(), direct.episodes.len());
        assert_eq!(r.ecs, direct.ecs);
        assert!(r.interventions.first_action.is_empty() && r.paired.is_empty());
        // Two files in either order; the trajectories carry `messages`.
        let files = Source::Files {
            files: vec![
                ("t.jsonl".into(), worked_trajectories().into()),
                ("c.jsonl".into(), WORKED_CASES.into()),
            ],
        };
        let Answer::EvidenceMessages(m) = run_job(
            &Job::EvidenceMessages {
                source: Some(files),
                id: r.episodes[0].trajectory_id.clone(),
            },
            vec![],
            &mut |_| {},
        ) else {
            panic!()
        };
        assert!(!(*m).unwrap().is_empty());
    }
}
