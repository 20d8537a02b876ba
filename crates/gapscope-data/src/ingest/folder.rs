//! Folders among the inputs ([`super::InputFile::Folder`]): the directory
//! formats in them are read first, at any depth ([`crate::formats::folder`]),
//! then every other file on its own, by content; what cannot be read as a
//! trajectory, profile or label file is skipped with the reason, and the
//! whole is summed up in a [`FolderSummary`] (the command line prints it,
//! the page shows it).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::TrajectoryOptions;
use super::{read_file, reader_options, FileContent, FileRead, InputFile, Messages, ReadError};
use crate::formats::folder::{plan, Folder};
use crate::formats::read_group;
use crate::formats::TrajectoryFormat;

/// What one folder held: what was read as what, and what was skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FolderSummary {
    /// The folder's name as given.
    pub name: String,
    /// How many files it holds (hidden ones included).
    pub files: usize,
    /// What was read, in reading order: directory formats, then files.
    pub read: Vec<FolderItem>,
    /// What was skipped and why, in path order.
    pub skipped: Vec<SkippedFile>,
    /// Name, size and SHA-256 of every file read, when asked for (the
    /// members of a directory format each have theirs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub digests: Vec<crate::digest::Input>,
}

/// One thing read from a folder: a directory format or a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderItem {
    /// Its path in the folder (empty: the folder itself).
    pub path: String,
    /// What it was read as (a format's label, "profile table", "label CSV").
    pub what: String,
    /// Files it took (1 for a file; a directory format's members).
    pub files: usize,
    /// Trajectories it gave (0 for profile tables and label files).
    pub trajectories: usize,
    /// Runs it excluded as infrastructure errors.
    pub excluded: usize,
}

/// A file of a folder that was not read, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

impl FolderSummary {
    /// One sentence: counts of what was read and skipped.
    pub fn sentence(&self) -> String {
        let trajectories: usize = self.read.iter().map(|r| r.trajectories).sum();
        let taken: usize = self.read.iter().map(|r| r.files).sum();
        format!(
            "{}: {} file(s); read {} item(s) from {taken} file(s) ({trajectories} trajectories); {} skipped",
            self.name,
            self.files,
            self.read.len(),
            self.skipped.len()
        )
    }

    /// One line per item read and per file skipped, for a listing.
    pub fn lines(&self) -> Vec<String> {
        let at = |p: &str| {
            if p.is_empty() {
                self.name.clone()
            } else {
                format!("{}/{p}", self.name)
            }
        };
        let mut out = Vec::new();
        for r in &self.read {
            let mut line = format!("read {}: {}", at(&r.path), r.what);
            if r.files > 1 {
                line.push_str(&format!(", {} files", r.files));
            }
            if r.trajectories > 0 {
                line.push_str(&format!(
                    ", {} trajector{}",
                    r.trajectories,
                    if r.trajectories == 1 { "y" } else { "ies" }
                ));
            }
            if r.excluded > 0 {
                line.push_str(&format!(", {} excluded", r.excluded));
            }
            out.push(line);
        }
        for s in &self.skipped {
            out.push(format!("skipped {}: {}", at(&s.path), s.reason));
        }
        out
    }
}

/// A [`Folder`] that hashes what it hands out, for the manifest.
struct Hashing<'a> {
    inner: Box<dyn Folder + 'a>,
    name: String,
    digests: Option<Vec<crate::digest::Input>>,
}

impl Folder for Hashing<'_> {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        let bytes = self.inner.read(path)?;
        if let Some(d) = &mut self.digests {
            d.push(crate::digest::Input::new(&join(&self.name, path), &bytes));
        }
        Ok(bytes)
    }
}

fn join(folder: &str, path: &str) -> String {
    if path.is_empty() {
        folder.to_string()
    } else {
        format!("{}/{path}", folder.trim_end_matches('/'))
    }
}

/// Read a folder: each directory format, then each loose file; every read
/// goes to `push` as soon as it is made. A file that no reader takes is
/// skipped with the reason; a file a reader recognizes but cannot read is
/// an error (its data would otherwise be missing from the results
/// unnoticed). A folder that gives nothing is an error.
pub fn read_folder<'a, E: From<ReadError>>(
    name: &str,
    paths: &[String],
    source: Box<dyn Folder + 'a>,
    options: &TrajectoryOptions,
    messages: &Messages,
    digests: bool,
    push: &mut dyn FnMut(FileRead) -> Result<(), E>,
) -> Result<FolderSummary, E> {
    let mut summary = FolderSummary {
        name: name.to_string(),
        files: paths.len(),
        ..FolderSummary::default()
    };
    let (hidden, visible): (Vec<&String>, Vec<&String>) = paths
        .iter()
        .partition(|p| p.split('/').any(|part| part.starts_with('.')));
    for p in hidden {
        summary.skipped.push(SkippedFile {
            path: p.clone(),
            reason: "hidden (a name starting with `.`)".into(),
        });
    }
    let visible: Vec<String> = visible.into_iter().cloned().collect();
    let plan = plan(&visible);
    let mut folder = Hashing {
        inner: source,
        name: name.to_string(),
        digests: digests.then(Vec::new),
    };
    let read_options = reader_options(options, messages);
    for group in &plan.groups {
        let full = join(name, &group.root);
        let mut c =
            read_group(group, &mut folder, &read_options, &mut |_, _| {}).map_err(|message| {
                ReadError::Trajectories {
                    file: full.clone(),
                    message,
                }
            })?;
        if c.trajectories.is_empty() && c.excluded.is_empty() {
            return Err(ReadError::Trajectories {
                file: full,
                message: format!("a {} that gave no trajectory", group.format.label()),
            }
            .into());
        }
        if read_options.light {
            for t in &mut c.trajectories {
                if read_options.keep.as_deref() != Some(t.id.as_str()) {
                    t.lighten();
                }
            }
        }
        for (k, t) in c.trajectories.iter_mut().enumerate() {
            if t.source_id.is_none() {
                t.source_id = Some(format!("folder\u{1f}{full}\u{1f}{k}"));
            }
        }
        summary.read.push(FolderItem {
            path: group.root.clone(),
            what: group.format.label().to_string(),
            files: group.members.len(),
            trajectories: c.trajectories.len(),
            excluded: c.excluded.len(),
        });
        push(FileRead {
            name: full,
            digest: None,
            content: FileContent::Trajectories(c),
        })?;
    }
    for path in &plan.files {
        let full = join(name, path);
        let bytes = folder
            .inner
            .read(path)
            .map_err(|message| ReadError::Trajectories {
                file: full.clone(),
                message,
            })?;
        match read_loose(path, full, &bytes, options, messages, digests)? {
            Loose::Read(item, read) => {
                summary.read.push(item);
                push(*read)?;
            }
            Loose::Skipped(reason) => summary.skipped.push(SkippedFile {
                path: path.clone(),
                reason,
            }),
        }
    }
    if let Some(d) = folder.digests.take() {
        summary.digests = d;
    }
    if summary.read.is_empty() {
        let mut why: Vec<String> = summary
            .skipped
            .iter()
            .take(3)
            .map(|s| format!("{}: {}", s.path, s.reason))
            .collect();
        if summary.skipped.len() > 3 {
            why.push(format!("… {} more", summary.skipped.len() - 3));
        }
        if why.is_empty() {
            why.push("the folder is empty".into());
        }
        return Err(ReadError::EmptyFolder {
            folder: name.to_string(),
            skipped: why.join("; "),
        }
        .into());
    }
    Ok(summary)
}

/// A loose file of a folder, read or skipped.
enum Loose {
    Read(FolderItem, Box<FileRead>),
    Skipped(String),
}

/// Read one loose file of a folder (`full`: its name with the folder's).
fn read_loose(
    path: &str,
    full: String,
    bytes: &[u8],
    options: &TrajectoryOptions,
    messages: &Messages,
    digests: bool,
) -> Result<Loose, ReadError> {
    if let Some(reason) = side_file(bytes) {
        return Ok(Loose::Skipped(reason.into()));
    }
    let read = match read_file(
        InputFile::Bytes(full, Cow::Borrowed(bytes)),
        options,
        messages,
        digests,
    ) {
        Ok(read) => read,
        Err(ReadError::NoTrajectories { declined, .. }) => {
            return Ok(Loose::Skipped(format!(
                "no reader takes it: {}",
                declined.join("; ")
            )));
        }
        Err(ReadError::NotUtf8 { .. }) => {
            return Ok(Loose::Skipped(
                "not UTF-8 text, a zip archive or another format gapscope reads".into(),
            ));
        }
        Err(e) => return Err(e),
    };
    let (what, trajectories, excluded) = match &read.content {
        FileContent::Trajectories(c) => (
            c.format
                .map_or("trajectories", TrajectoryFormat::label)
                .to_string(),
            c.trajectories.len(),
            c.excluded.len(),
        ),
        FileContent::Labels(_) => ("label CSV".to_string(), 0, 0),
        FileContent::Outcomes(_) => ("outcomes CSV".to_string(), 0, 0),
        FileContent::Text(text) if looks_like_profile(path, text) => {
            ("profile table".to_string(), 0, 0)
        }
        FileContent::Text(text) => {
            let shape = crate::formats::probe::probe(text);
            return Ok(Loose::Skipped(
                if shape == crate::formats::probe::Shape::Other {
                    "not a trajectory, profile, label or outcomes file (not JSON, and not a table with a `model` column)".into()
                } else {
                    format!(
                    "not a trajectory, profile, label or outcomes file; each trajectory reader declined it: {}",
                    crate::formats::readers_declined(text.as_bytes()).join("; ")
                )
                },
            ));
        }
    };
    Ok(Loose::Read(
        FolderItem {
            path: path.to_string(),
            what,
            files: 1,
            trajectories,
            excluded,
        },
        Box::new(read),
    ))
}

/// Files beside trajectories that are not trajectories, and what they are.
fn side_file(bytes: &[u8]) -> Option<&'static str> {
    match crate::formats::detect_bytes(bytes)? {
        TrajectoryFormat::Tau2Tasks => Some(
            "a τ²-bench tasks file (tasks, not trajectories; give it to `gapscope tau2 --tasks` for the results it belongs to)",
        ),
        TrajectoryFormat::Tau3Metadata => {
            Some("a τ³ results metadata file without a `simulations/` folder beside it")
        }
        _ => None,
    }
}

/// Whether a text no trajectory reader took is a profile table: a CSV or
/// TSV whose header names `model`, or a JSON object with `models`.
fn looks_like_profile(path: &str, text: &str) -> bool {
    let ext = std::path::Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if ext == "json" {
        return matches!(
            crate::formats::probe::probe(text),
            crate::formats::probe::Shape::Object(r) if r.has("models")
        );
    }
    if !matches!(ext.as_str(), "csv" | "tsv" | "txt") {
        return false;
    }
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|header| {
            header
                .split([',', '\t', ';'])
                .any(|c| c.trim().trim_matches('"').eq_ignore_ascii_case("model"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    struct Mem(BTreeMap<String, Vec<u8>>);
    impl Folder for Mem {
        fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
            self.0
                .get(path)
                .cloned()
                .ok_or_else(|| format!("{path}: no such file"))
        }
    }

    fn folder(files: &[(&str, &str)]) -> (Vec<String>, Box<dyn Folder>) {
        let map: BTreeMap<String, Vec<u8>> = files
            .iter()
            .map(|(p, t)| ((*p).to_string(), t.as_bytes().to_vec()))
            .collect();
        (map.keys().cloned().collect(), Box::new(Mem(map)))
    }

    fn read(files: &[(&str, &str)]) -> Result<(FolderSummary, Vec<FileRead>), ReadError> {
        let (paths, source) = folder(files);
        let mut reads = Vec::new();
        let s = read_folder::<ReadError>(
            "f",
            &paths,
            source,
            &TrajectoryOptions::default(),
            &Messages::Counts,
            true,
            &mut |r| {
                reads.push(r);
                Ok(())
            },
        )?;
        Ok((s, reads))
    }

    const LINE: &str = "{\"id\": \"a\", \"model\": \"M\", \"task_id\": \"1\", \"reward\": 1}\n";

    #[test]
    fn loose_files_are_read_by_content_and_the_rest_skipped_with_why() {
        let (s, reads) = read(&[
            ("runs/a.jsonl", LINE),
            ("profiles.csv", "model,family,reasoning\nM,F,1\n"),
            ("README.md", "# notes\n"),
            ("metrics.json", "{\"latency\": 1}"),
            (".DS_Store", "x"),
            ("tasks.json", "[{\"id\": \"0\", \"user_scenario\": {}}]"),
        ])
        .unwrap();
        assert_eq!(reads.len(), 2);
        assert_eq!(
            s.read
                .iter()
                .map(|r| (r.path.as_str(), r.what.as_str(), r.trajectories))
                .collect::<Vec<_>>(),
            [
                ("profiles.csv", "profile table", 0),
                ("runs/a.jsonl", "canonical JSONL", 1)
            ]
        );
        let skipped: Vec<&str> = s.skipped.iter().map(|k| k.path.as_str()).collect();
        assert_eq!(
            skipped,
            [".DS_Store", "README.md", "metrics.json", "tasks.json"]
        );
        assert!(
            s.skipped[2].reason.contains("a JSON object with `latency`"),
            "{:?}",
            s.skipped[2]
        );
        assert!(s.skipped[3].reason.starts_with("a τ²-bench tasks file"));
        // Every file read is hashed, under the folder's name.
        assert_eq!(
            s.digests
                .iter()
                .map(|d| d.name.as_str())
                .collect::<Vec<_>>(),
            Vec::<&str>::new(),
            "loose files carry their own digest"
        );
        assert_eq!(
            reads[0].digest.as_ref().map(|d| d.name.as_str()),
            Some("f/profiles.csv")
        );
        assert_eq!(
            s.sentence(),
            "f: 6 file(s); read 2 item(s) from 2 file(s) (1 trajectories); 4 skipped"
        );
    }

    #[test]
    fn a_folder_that_gives_nothing_is_an_error_saying_why() {
        let e = read(&[("a.md", "x"), ("b.md", "y")]).unwrap_err();
        assert!(
            e.to_string().starts_with("f: nothing in it could be read (a.md: not a trajectory, profile, label or outcomes file (not JSON, and not a table with a `model` column); b.md: "),
            "{e}"
        );
        let e = read(&[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f: nothing in it could be read (the folder is empty)"
        );
    }

    #[test]
    fn a_broken_trajectory_file_is_an_error_not_a_skip() {
        let e = read(&[("a.json", "{\"simulations\": 3}")]).unwrap_err();
        assert!(e.to_string().starts_with("f/a.json: "), "{e}");
    }

    #[test]
    fn profile_tables_are_told_from_other_text() {
        assert!(looks_like_profile("p.csv", "# c\nModel,x\n"));
        assert!(looks_like_profile("p.tsv", "family\tmodel\n"));
        assert!(!looks_like_profile("p.csv", "name,x\n"));
        assert!(!looks_like_profile("p.md", "model,x\n"));
        assert!(looks_like_profile("p.json", "{\"models\": []}"));
        assert!(!looks_like_profile("p.json", "{\"x\": []}"));
    }
}
