//! The files of a job: the embedded data or texts a [`Source`] names, and the
//! files posted beside the job ([`Attached`]: bytes, a stream, or a file read
//! ahead as the job's [`ReadPlan`] says).

use crate::assets::{
    corpus_trajectories, CORPUS_FOUNDATIONAL, CORPUS_LABEL, EXAMPLE_CSV, EXAMPLE_LABEL,
};
use crate::codec::ReadPlan;
use crate::protocol::Source;
use gapscope_data::ingest::{
    read_inputs_from, FileContent, FileRead, InputFile, Inputs, Messages, TrajectoryOptions,
};
use std::borrow::Cow;

/// A source's files as (name, bytes), and whether it is the example.
pub type SourceFiles<'a> = (Vec<(String, &'a [u8])>, bool);

/// The files of a source, as (name, bytes) borrowed from the request or from
/// the bytes attached to it; and whether it is the synthetic example.
pub fn source_files<'a>(
    source: &'a Source,
    attached: &'a [(String, Vec<u8>)],
) -> Result<SourceFiles<'a>, String> {
    Ok(match source {
        Source::Example => (
            vec![(EXAMPLE_LABEL.to_string(), EXAMPLE_CSV.as_bytes())],
            true,
        ),
        Source::Corpus => (
            vec![
                (
                    format!("{CORPUS_LABEL}: foundational.csv"),
                    CORPUS_FOUNDATIONAL.as_bytes(),
                ),
                (
                    format!("{CORPUS_LABEL}: trajectories.jsonl"),
                    corpus_trajectories().as_bytes(),
                ),
            ],
            true,
        ),
        Source::File { name, text } => (vec![(name.clone(), text.as_bytes())], false),
        Source::Files { files } => (
            files
                .iter()
                .map(|(n, t)| (n.clone(), t.as_bytes()))
                .collect(),
            false,
        ),
        Source::Attached { names, .. } => {
            if names.len() != attached.len() {
                return Err(miscounted(names.len(), attached.len()));
            }
            (
                names
                    .iter()
                    .zip(attached)
                    .map(|(n, (_, b))| (n.clone(), b.as_slice()))
                    .collect(),
                false,
            )
        }
    })
}

fn miscounted(named: usize, attached: usize) -> String {
    format!("internal error: {named} file(s) named but {attached} attached")
}

/// A file posted with a job: its bytes, or a reader over them (in the
/// browser, the `File`, read in chunks as the job needs it: a canonical
/// JSONL file is parsed as it streams, never held whole).
pub enum Attached {
    Bytes(String, Vec<u8>),
    Reader(String, Box<dyn std::io::Read>),
    /// A file read already, as the job reads its files (in the browser,
    /// each fetched file is parsed as soon as its bytes are here and its
    /// bytes dropped: [`crate::read_plan`]).
    Read(Box<FileRead>),
}

impl Attached {
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Attached::Bytes(n, _) | Attached::Reader(n, _) => n,
            Attached::Read(r) => &r.name,
        }
    }

    /// The whole content.
    pub fn into_bytes(self) -> Result<(String, Vec<u8>), String> {
        match self {
            Attached::Bytes(n, b) => Ok((n, b)),
            Attached::Reader(n, mut r) => {
                let mut b = Vec::new();
                r.read_to_end(&mut b)
                    .map_err(|e| format!("{n}: could not be read ({e})"))?;
                Ok((n, b))
            }
            Attached::Read(r) => match r.content {
                FileContent::Text(t) | FileContent::Labels(t) | FileContent::Outcomes(t) => {
                    Ok((r.name, t.into_bytes()))
                }
                // `read_plan` reads ahead only for jobs that read inputs.
                FileContent::Trajectories(_) => Err(format!(
                    "internal error: {} was parsed before the job that needs its text",
                    r.name
                )),
            },
        }
    }
}

impl std::fmt::Debug for Attached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Attached::Bytes(n, b) => write!(f, "Bytes({n:?}, {} bytes)", b.len()),
            Attached::Reader(n, _) => write!(f, "Reader({n:?})"),
            Attached::Read(r) => write!(f, "Read({:?})", r.name),
        }
    }
}

/// Attached bytes, as [`Attached`] files.
#[must_use]
pub fn attach(files: &[(String, Vec<u8>)]) -> Vec<Attached> {
    files
        .iter()
        .map(|(n, b)| Attached::Bytes(n.clone(), b.clone()))
        .collect()
}

/// One attached file read ahead as `plan` says, or, when reading it fails,
/// its bytes: the job then meets the same error where it reports errors.
#[must_use]
pub fn read_ahead(name: String, bytes: Vec<u8>, plan: &ReadPlan) -> Attached {
    // A folder's files are read with their folder (the browser names
    // attached files by their base name, so all of a source with folders
    // are left as bytes: at most the prefetch limit).
    if !plan.folders.is_empty() {
        return Attached::Bytes(name, bytes);
    }
    match gapscope_data::ingest::read_file(
        InputFile::Bytes(name.clone(), Cow::Borrowed(&bytes)),
        &plan.options,
        &plan.messages,
        false,
    ) {
        Ok(read) => Attached::Read(Box::new(read)),
        Err(_) => Attached::Bytes(name, bytes),
    }
}

/// Every attached file whole (for the jobs that need the text at once).
pub(crate) fn whole(attached: Vec<Attached>) -> Result<Vec<(String, Vec<u8>)>, String> {
    attached.into_iter().map(Attached::into_bytes).collect()
}

/// A file's bytes as text, or where they stop being UTF-8.
pub(crate) fn text_of<'a>(name: &str, bytes: &'a [u8]) -> Result<&'a str, String> {
    gapscope_data::text::utf8(bytes).map_err(|e| format!("{name}: {e}"))
}

/// The files of a source as core inputs (attached ones move in: a reader
/// streams, owned bytes are dropped once read); whether it is the example.
pub(crate) fn input_files(
    source: &Source,
    attached: Vec<Attached>,
) -> Result<(Vec<InputFile<'_>>, bool), String> {
    if let Source::Attached { names, folders } = source {
        if names.len() != attached.len() {
            return Err(miscounted(names.len(), attached.len()));
        }
        return Ok((with_folders(names, folders, attached), false));
    }
    let (files, synthetic) = source_files(source, &[])?;
    Ok((
        files
            .into_iter()
            .map(|(n, b)| InputFile::Bytes(n, Cow::Borrowed(b)))
            .collect(),
        synthetic,
    ))
}

/// Attached files as inputs, those in a folder gathered into it (at the
/// place of the folder's first file).
fn with_folders<'a>(
    names: &[String],
    folders: &[String],
    attached: Vec<Attached>,
) -> Vec<InputFile<'a>> {
    enum Slot<'a> {
        File(InputFile<'a>),
        Folder(usize),
    }
    let mut slots = Vec::new();
    let mut members: Vec<(String, Vec<String>, AttachedFolder)> = Vec::new();
    for (n, a) in names.iter().zip(attached) {
        match Source::folder_of(folders, n) {
            Some((folder, rel)) => {
                let k = if let Some(k) = members.iter().position(|(f, ..)| f == folder) {
                    k
                } else {
                    members.push((folder.to_string(), Vec::new(), AttachedFolder::default()));
                    slots.push(Slot::Folder(members.len() - 1));
                    members.len() - 1
                };
                members[k].1.push(rel.to_string());
                members[k].2 .0.insert(rel.to_string(), a);
            }
            None => slots.push(Slot::File(match a {
                Attached::Bytes(_, b) => InputFile::Bytes(n.clone(), Cow::Owned(b)),
                Attached::Reader(_, r) => InputFile::Stream(n.clone(), r),
                Attached::Read(r) => InputFile::Read(r),
            })),
        }
    }
    let mut members: Vec<Option<(String, Vec<String>, AttachedFolder)>> =
        members.into_iter().map(Some).collect();
    slots
        .into_iter()
        .filter_map(|slot| match slot {
            Slot::File(f) => Some(f),
            Slot::Folder(k) => members[k]
                .take()
                .map(|(name, paths, folder)| InputFile::Folder(name, paths, Box::new(folder))),
        })
        .collect()
}

/// A folder's attached files, each handed out once (its bytes then dropped).
#[derive(Default)]
struct AttachedFolder(std::collections::HashMap<String, Attached>);

impl gapscope_data::formats::folder::Folder for AttachedFolder {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        let a = self
            .0
            .remove(path)
            .ok_or_else(|| format!("{path}: not among the folder's files, or read already"))?;
        a.into_bytes().map(|(_, b)| b)
    }
}

/// Read a source's inputs once.
pub(crate) fn source_inputs(
    source: &Source,
    attached: Vec<Attached>,
    options: &TrajectoryOptions,
    messages: &Messages,
) -> Result<Inputs, String> {
    let (files, _) = input_files(source, attached)?;
    read_inputs_from(files, options, messages, false).map_err(|e| e.to_string())
}
