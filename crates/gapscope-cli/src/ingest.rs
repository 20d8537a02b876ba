//! Every trajectory and profile file the command line reads goes through
//! the core's one ingestion function, [`ingest::read_inputs_each`] (the
//! worker's `read_inputs_from` is the same function with nothing to report
//! per file). Files are opened one at a time, in input order, as streams
//! under the input cap ([`input::Stream`]): canonical JSONL is parsed line
//! by line as it is read (never held whole), other formats are read whole
//! by the core. What each file said goes to standard error as it is read.

use std::path::{Path, PathBuf};

use gapscope_data::formats::{readers_declined, Corpus};
use gapscope_data::ingest::{
    self, profiles_of_inputs, FileContent, FileRead, InputFile, Inputs, Messages, ReadError,
    TrajectoryOptions,
};
use gapscope_data::operations::{operation_samples, OperationSamples};
use gapscope_data::{ProfileTable, RoleOverrides};
use gapscope_gaps::manifest::Input;

use crate::folder;
use crate::input;
use crate::output::term_safe;

/// Why reading stopped: the core's error, or the command line's own message.
enum Stop {
    Read(ReadError),
    Message(String),
}

impl From<ReadError> for Stop {
    fn from(e: ReadError) -> Stop {
        Stop::Read(e)
    }
}

/// Read `paths` through the core's ingestion, each file opened only when
/// the one before it is read and shown to `each` as soon as it is read.
/// A core error is explained by the stream it came from (the cap's own
/// message when the file went past it).
fn ingest(
    paths: &[&Path],
    options: &TrajectoryOptions,
    digests: bool,
    each: impl FnMut(usize, &FileRead) -> Result<(), Stop>,
) -> Result<Inputs, String> {
    // One entry per input opened: its stream, or none for a folder.
    let mut streams: Vec<Option<input::Stream>> = Vec::new();
    let files = paths.iter().map(|path| {
        if path.is_dir() {
            let (files, disk) = folder::walk(path).map_err(Stop::Message)?;
            streams.push(None);
            return Ok(InputFile::Folder(
                path.display().to_string(),
                files,
                Box::new(disk),
            ));
        }
        let mut stream = input::Stream::open(path, input::MAX_INPUT_BYTES)
            .map_err(|e| Stop::Message(e.into()))?;
        let file = InputFile::Stream(path.display().to_string(), stream.reader());
        streams.push(Some(stream));
        Ok(file)
    });
    let read = ingest::read_inputs_each(files, options, &Messages::Counts, digests, each);
    match read {
        Ok(inputs) => {
            folder::print_summaries(&inputs.folders);
            Ok(inputs)
        }
        Err(Stop::Message(m)) => Err(m),
        // Only the file being read can have gone past the cap; a join error
        // comes after every file was read whole.
        Err(Stop::Read(e)) => Err(match streams.last() {
            Some(Some(stream)) => stream.explain(e),
            _ => e.to_string(),
        }),
    }
}

/// What a file was given as, beside the trajectory files.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Given {
    Trajectories,
    Labels,
    Outcomes,
}

/// Read trajectory files (malformed lines reported on stderr and skipped),
/// apply an outcomes CSV and a label CSV. A file given as trajectories that
/// is not one is an error naming why each reader declined it; a file given
/// as labels must be a label CSV, one given as outcomes an outcomes CSV.
pub fn read_corpus(
    paths: &[PathBuf],
    labels: Option<&Path>,
    outcomes: Option<&Path>,
    options: &TrajectoryOptions,
) -> Result<Corpus, String> {
    read_trajectory_inputs(paths, labels, outcomes, options).map(|inputs| inputs.corpus)
}

/// [`read_corpus`], keeping what else reading found: each trajectory's
/// file, the files' names, the folders' summaries.
pub fn read_trajectory_inputs(
    paths: &[PathBuf],
    labels: Option<&Path>,
    outcomes: Option<&Path>,
    options: &TrajectoryOptions,
) -> Result<Inputs, String> {
    let mut given: Vec<Given> = vec![Given::Trajectories; paths.len()];
    given.extend(outcomes.map(|_| Given::Outcomes));
    given.extend(labels.map(|_| Given::Labels));
    let all: Vec<&Path> = paths
        .iter()
        .map(PathBuf::as_path)
        .chain(outcomes)
        .chain(labels)
        .collect();
    let inputs = ingest(&all, options, false, |k, read| {
        let name = &read.name;
        let in_folder = all[k].is_dir();
        match (&read.content, given[k]) {
            (FileContent::Trajectories(c), Given::Trajectories) => {
                for e in c.skipped.iter().take(20) {
                    eprintln!("{}", term_safe(&format!("{name}: {e} (skipped)")));
                }
                if c.skipped.len() > 20 {
                    eprintln!("{name}: … and {} more skipped lines", c.skipped.len() - 20);
                }
                if !c.skipped.is_empty() {
                    eprintln!(
                        "{name}: {} line(s) skipped, {} trajectories read",
                        c.skipped.len(),
                        c.trajectories.len()
                    );
                }
                for e in &c.notes {
                    eprintln!("{}", term_safe(&format!("{name}: {e}")));
                }
                Ok(())
            }
            (FileContent::Labels(_), Given::Labels)
            | (FileContent::Outcomes(_), Given::Outcomes) => Ok(()),
            // A folder's profile tables, label and outcomes files (its
            // summary says what each file was read as).
            (
                FileContent::Text(_) | FileContent::Labels(_) | FileContent::Outcomes(_),
                Given::Trajectories,
            ) if in_folder => Ok(()),
            (_, Given::Labels) => Err(Stop::Message(format!(
                "{name}: not a label CSV (expected the columns trajectory_id,operation,requirement,label)"
            ))),
            (_, Given::Outcomes) => Err(Stop::Message(format!(
                "{name}: not an outcomes CSV (expected the columns trajectory_id,task_id,reward, and optionally domain)"
            ))),
            // Read whole (not JSONL) and recognized by no trajectory reader:
            // why each reader declined it.
            (
                FileContent::Text(text) | FileContent::Labels(text) | FileContent::Outcomes(text),
                Given::Trajectories,
            ) => {
                Err(Stop::Message(format!(
                    "{name}: no trajectory could be read; each reader declined it: {}",
                    readers_declined(text.as_bytes()).join("; ")
                )))
            }
        }
    })?;
    for n in &inputs.notes {
        // Skipped lines and unknown call ids are said per line above.
        if !n.contains("malformed line(s) skipped") && !n.contains("answer no earlier tool call") {
            eprintln!("note: {}", term_safe(n));
        }
    }
    Ok(inputs)
}

/// Read the files and join them (one file: read as it is). Returns the table
/// and each file's name (its base name), size and SHA-256 for the manifest,
/// hashed as the file is streamed; join notes go to stderr. Each of
/// `paths` that is in `outcomes` must be an outcomes CSV.
pub fn read_profiles(
    paths: &[PathBuf],
    overrides: &RoleOverrides,
    options: &TrajectoryOptions,
    outcomes: &[PathBuf],
) -> Result<(ProfileTable, Vec<Input>), String> {
    read_profiles_and_samples(paths, overrides, options, outcomes).map(|(t, d, _)| (t, d))
}

/// [`read_profiles`], with the values behind the operation scores when
/// trajectories are among the inputs (the gap intervals resample them).
pub fn read_profiles_and_samples(
    paths: &[PathBuf],
    overrides: &RoleOverrides,
    options: &TrajectoryOptions,
    outcomes: &[PathBuf],
) -> Result<(ProfileTable, Vec<Input>, Option<OperationSamples>), String> {
    let all: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let mut inputs = ingest(&all, options, true, |k, read| {
        if outcomes.iter().any(|o| o == all[k]) && !matches!(read.content, FileContent::Outcomes(_))
        {
            return Err(Stop::Message(format!(
                "{}: not an outcomes CSV (expected the columns trajectory_id,task_id,reward, and optionally domain)",
                read.name
            )));
        }
        Ok(())
    })?;
    // The manifest names files by their base name.
    let digests = std::mem::take(&mut inputs.digests)
        .into_iter()
        .zip(paths)
        .map(|(d, path)| Input {
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            ..d
        })
        .collect();
    let samples = (!inputs.trajectory_files.is_empty())
        .then(|| operation_samples(&inputs.corpus.trajectories, &options.profile_options()));
    let (table, join) =
        profiles_of_inputs(inputs, overrides, options).map_err(|e| e.to_string())?;
    for s in join.sentences() {
        eprintln!("note: {}", term_safe(&s));
    }
    Ok((table, digests, samples))
}
