//! `join::read_inputs_each`, the one ingestion function of the command line
//! and the worker: files are taken one at a time, each read is seen before
//! the next file is taken, the first error stops the reading, and with
//! nothing to report it reads what `read_inputs_from` reads.
#![allow(clippy::unwrap_used)]

use std::borrow::Cow;

use gapscope_data::ingest::{
    read_inputs_each, read_inputs_from, FileContent, InputFile, Messages, ReadError,
    TrajectoryOptions,
};

const JSONL: &str = "{\"id\": \"t1\", \"model\": \"A\", \"task_id\": \"x\", \"reward\": 1.0, \"messages\": []}\nnot json\n";
const PROFILE: &str = "model,family,TU,GI\nA,F,1,2\n";

fn bytes<'a>(name: &str, text: &'a str) -> InputFile<'a> {
    InputFile::Bytes(name.into(), Cow::Borrowed(text.as_bytes()))
}

#[derive(Debug)]
enum Stop {
    Read(ReadError),
    Mine(String),
}

impl From<ReadError> for Stop {
    fn from(e: ReadError) -> Stop {
        Stop::Read(e)
    }
}

#[test]
fn each_file_is_seen_as_it_is_read_and_the_first_error_stops_the_reading() {
    let mut taken = Vec::new();
    let mut seen = Vec::new();
    let files = [("a.jsonl", JSONL), ("p.csv", PROFILE), ("b.jsonl", JSONL)]
        .into_iter()
        .map(|(n, t)| {
            taken.push(n);
            Ok::<_, Stop>(bytes(n, t))
        });
    let e = read_inputs_each(
        files,
        &TrajectoryOptions::default(),
        &Messages::Counts,
        false,
        |k, read| {
            seen.push((k, read.name.clone()));
            match &read.content {
                FileContent::Trajectories(c) => {
                    assert_eq!((c.trajectories.len(), c.skipped.len()), (1, 1));
                    Ok(())
                }
                _ => Err(Stop::Mine(format!("{}: not trajectories", read.name))),
            }
        },
    )
    .unwrap_err();
    assert!(matches!(e, Stop::Mine(m) if m == "p.csv: not trajectories"));
    assert_eq!(seen, [(0, "a.jsonl".into()), (1, "p.csv".into())]);
    // The third file was never taken.
    assert_eq!(taken, ["a.jsonl", "p.csv"]);
}

#[test]
fn with_nothing_to_report_it_reads_what_read_inputs_from_reads() {
    let options = TrajectoryOptions::default();
    let a = read_inputs_from(
        vec![bytes("a.jsonl", JSONL), bytes("p.csv", PROFILE)],
        &options,
        &Messages::Counts,
        true,
    )
    .unwrap();
    let b = read_inputs_each(
        [bytes("a.jsonl", JSONL), bytes("p.csv", PROFILE)].map(Ok::<_, ReadError>),
        &options,
        &Messages::Counts,
        true,
        |_, _| Ok(()),
    )
    .unwrap();
    assert_eq!(a.profiles, b.profiles);
    assert_eq!(a.notes, b.notes);
    assert_eq!(a.digests, b.digests);
    assert_eq!(a.corpus.trajectories, b.corpus.trajectories);
    assert_eq!(a.trajectory_files, ["a.jsonl"]);
}

#[test]
fn a_file_that_fails_to_open_or_read_stops_at_its_place() {
    let mut seen = 0;
    let files = vec![
        Ok(bytes("a.jsonl", JSONL)),
        Err(Stop::Mine("b.jsonl: could not be opened".into())),
    ];
    let e = read_inputs_each(
        files,
        &TrajectoryOptions::default(),
        &Messages::Counts,
        false,
        |_, _| {
            seen += 1;
            Ok(())
        },
    )
    .unwrap_err();
    assert!(matches!(e, Stop::Mine(m) if m == "b.jsonl: could not be opened"));
    assert_eq!(seen, 1);
    let files = vec![
        Ok::<_, Stop>(bytes("a.jsonl", JSONL)),
        Ok(InputFile::Bytes(
            "bad.csv".into(),
            Cow::Borrowed(b"model\n\xff\n"),
        )),
    ];
    let e = read_inputs_each(
        files,
        &TrajectoryOptions::default(),
        &Messages::Counts,
        false,
        |_, _| Ok(()),
    )
    .unwrap_err();
    assert!(
        matches!(&e, Stop::Read(ReadError::NotUtf8 { file, source: gapscope_data::text::NotUtf8 { line: 2, offset: 6 } }) if file == "bad.csv"),
        "{e:?}"
    );
}
