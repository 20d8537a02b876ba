//! Ingestion: every input file — profile tables, trajectory files of any
//! format, label and outcomes CSVs — as bytes or a stream, through one reader
//! ([`read_file`]) into one [`Inputs`] ([`join_reads`]; [`read_inputs_from`]
//! does both), hashed for the manifest as it is read; and the profile table
//! of the inputs ([`profiles_of_inputs`]: the operation profile of the
//! trajectories joined with the profile files on `model`, [`crate::join`]).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub mod folder;

use crate::join::{join, JoinError, JoinReport};
use crate::profile::ProfileTable;

/// Why profile files could not be read into one table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReadError {
    #[error("{file}: {source}")]
    File {
        file: String,
        source: crate::profile::ProfileError,
    },
    #[error(transparent)]
    Join(#[from] JoinError),
    #[error("roles of the joined table: {0}")]
    Roles(crate::profile::ProfileError),
    #[error("{file}: {message}")]
    Trajectories { file: String, message: String },
    #[error("{file}: no trajectory could be read; each reader declined it: {}", .declined.join("; "))]
    NoTrajectories { file: String, declined: Vec<String> },
    /// A file another part reads ([`crate::kind::misplaced`]: what it is
    /// and where it belongs).
    #[error("{0}")]
    OtherPart(String),
    #[error("long-table columns ({0}) were named, but no profile file was given")]
    LongWithoutProfiles(String),
    #[error("{file}: {source}; save the file as UTF-8")]
    NotUtf8 {
        file: String,
        source: crate::text::NotUtf8,
    },
    #[error("{folder}: nothing in it could be read ({})", .skipped)]
    EmptyFolder { folder: String, skipped: String },
}

/// Read one or more profile files (name, text) into one table: each file is
/// read with the default roles, the tables are joined on `model`, and the
/// user's roles (`overrides`) then apply to the joined columns. With one file
/// the roles apply directly (so its ignored columns can be assigned too).
pub fn read_profiles(
    files: &[(String, String)],
    overrides: &crate::profile::RoleOverrides,
) -> Result<(ProfileTable, JoinReport), ReadError> {
    read_profiles_with(files, overrides, &TrajectoryOptions::default())
}

/// How trajectory files among the inputs of [`read_profiles_with`] become
/// one operation profile.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryOptions {
    /// Rename or merge models (OLD, NEW) before the profile is formed.
    #[serde(default)]
    pub renames: Vec<(String, String)>,
    /// Common-task subset (default) or every task.
    #[serde(default)]
    pub all_tasks: bool,
    /// Inspect AI logs: the score that becomes the reward.
    #[serde(default)]
    pub score: crate::formats::inspect::ScoreChoice,
    /// The domain of trajectory files that name none (spec: formats.md,
    /// task identity).
    #[serde(default)]
    pub domain: Option<String>,
    /// Name every trajectory's model so (file metadata can be wrong).
    #[serde(default)]
    pub model: Option<String>,
    /// Keep trajectories that repeat others (the same file under two names,
    /// a run as `.eval` and `.json`); by default they count once, with a
    /// warning naming both files.
    #[serde(default)]
    pub keep_repeats: bool,
}

/// Whether `text` is a label CSV (`trajectory_id,operation,requirement,label`).
pub fn is_label_csv(text: &str) -> bool {
    let header = text
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or_default();
    let cols: Vec<&str> = header
        .split(',')
        .map(|c| c.trim().trim_matches('"'))
        .collect();
    ["trajectory_id", "operation", "label"]
        .iter()
        .all(|c| cols.contains(c))
}

/// The input files sorted by kind: trajectory files (any format
/// [`crate::formats::detect_bytes`] knows) read into one corpus with the
/// label CSVs applied and the models renamed; the other files as text.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Profile files (name, text), in input order.
    pub profiles: Vec<(String, String)>,
    pub corpus: crate::formats::Corpus,
    /// Names of the trajectory files, in input order.
    pub trajectory_files: Vec<String>,
    /// The file of each trajectory of `corpus` (an index into
    /// `trajectory_files`), for whoever keys or splits runs by file.
    pub trajectory_file: Vec<usize>,
    /// The file of each of `corpus.excluded` (an index into
    /// `trajectory_files`).
    pub excluded_file: Vec<usize>,
    /// Names of the label CSVs, in input order.
    pub label_files: Vec<String>,
    /// Names of the outcomes CSVs, in input order.
    pub outcome_files: Vec<String>,
    /// What reading said (skipped lines, reward mappings, renames, labels).
    pub notes: Vec<String>,
    /// With [`read_inputs_from`]'s `digests`: name, size and SHA-256 of
    /// every file, in input order.
    pub digests: Vec<crate::digest::Input>,
    /// What each folder given held: what was read as what, what was
    /// skipped and why ([`folder::FolderSummary`]).
    pub folders: Vec<folder::FolderSummary>,
    /// Inspect AI logs: every score a reward can come from (`SCORER` or
    /// `SCORER:KEY`, [`crate::formats::inspect::ScoreChoice`]), in order of
    /// first appearance over the logs; empty without Inspect logs.
    pub scorers: Vec<String>,
    /// Inspect AI logs: the scores the rewards came from (`SCORER` or
    /// `SCORER:KEY`), once each, in log order.
    pub scored_by: Vec<String>,
}

impl Inputs {
    /// The files as a reproducibility command names them (their kind, in
    /// input order within each kind); `manifest_name` maps a name read here
    /// to the file's name in the folder the command runs in.
    pub fn recipe_files(
        &self,
        manifest_name: &dyn Fn(&str) -> String,
    ) -> Vec<crate::digest::RecipeFile> {
        use crate::digest::{InputKind, RecipeFile};
        let of = |names: &[String], kind| {
            names
                .iter()
                .map(|n| RecipeFile {
                    name: manifest_name(n),
                    kind,
                    written_by: None,
                })
                .collect::<Vec<_>>()
        };
        let profiles: Vec<String> = self.profiles.iter().map(|(n, _)| n.clone()).collect();
        let mut out = of(&profiles, InputKind::Profiles);
        out.extend(of(&self.trajectory_files, InputKind::Trajectories));
        out.extend(of(&self.label_files, InputKind::Labels));
        out.extend(of(&self.outcome_files, InputKind::Outcomes));
        out
    }
}

/// Which trajectories keep their messages when inputs are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Messages {
    /// Every trajectory keeps its messages.
    All,
    /// None does (their counts are kept): profiles, lists, stability.
    Counts,
    /// Only this trajectory does (the viewer).
    Only(String),
}

/// Sort and read the input files (see [`Inputs`]).
pub fn read_inputs<B: AsRef<[u8]>>(
    files: &[(String, B)],
    options: &TrajectoryOptions,
    messages: &Messages,
) -> Result<Inputs, ReadError> {
    read_inputs_from(
        files
            .iter()
            .map(|(name, bytes)| InputFile::Bytes(name.clone(), Cow::Borrowed(bytes.as_ref())))
            .collect(),
        options,
        messages,
        false,
    )
}

/// One input file of [`read_inputs_from`]: its bytes, or a reader that is
/// read once. A stream of canonical JSONL is parsed line by line as it is
/// read, so a large file is never held whole (the browser streams the
/// user's files); any other stream is read whole first.
/// Bytes owned here are dropped as soon as their file is read.
pub enum InputFile<'a> {
    Bytes(String, Cow<'a, [u8]>),
    Stream(String, Box<dyn std::io::Read + 'a>),
    /// A file read already ([`read_file`]).
    Read(Box<FileRead>),
    /// A folder: its name, its files' relative paths and a way to read each
    /// ([`folder::read_folder`]: directory formats first, then each loose
    /// file, with a summary in [`Inputs::folders`]).
    Folder(
        String,
        Vec<String>,
        Box<dyn crate::formats::folder::Folder + 'a>,
    ),
}

impl InputFile<'_> {
    pub fn name(&self) -> &str {
        match self {
            InputFile::Bytes(n, _) | InputFile::Stream(n, _) | InputFile::Folder(n, _, _) => n,
            InputFile::Read(r) => &r.name,
        }
    }
}

/// How much of a stream is read before its format is decided (more when its
/// first line is longer).
const STREAM_HEAD: usize = 1 << 20;

/// [`read_inputs`] over [`InputFile`]s; with `digests`, the name, size and
/// SHA-256 of every file go to [`Inputs::digests`] (a stream is hashed as
/// it is read), for the reproducibility manifest. Each file is read on its
/// own ([`read_file`]), then the reads are joined ([`join_reads`]).
pub fn read_inputs_from(
    files: Vec<InputFile<'_>>,
    options: &TrajectoryOptions,
    messages: &Messages,
    digests: bool,
) -> Result<Inputs, ReadError> {
    read_inputs_each(
        files.into_iter().map(Ok),
        options,
        messages,
        digests,
        |_, _| Ok(()),
    )
}

/// [`read_inputs_from`], one file at a time: each file is taken from
/// `files` only when the one before it is read (so a file is opened, or
/// fails to open, in input order), and `each` sees it (its index and what
/// it is) as soon as it is read, before the next one is taken and before
/// the join. The first error, from `files`, the read, `each` or the join,
/// ends the reading. The command line reports on every file as it is read
/// this way; [`read_inputs_from`] is this with nothing to report.
pub fn read_inputs_each<'a, E: From<ReadError>>(
    files: impl IntoIterator<Item = Result<InputFile<'a>, E>>,
    options: &TrajectoryOptions,
    messages: &Messages,
    digests: bool,
    mut each: impl FnMut(usize, &FileRead) -> Result<(), E>,
) -> Result<Inputs, E> {
    let mut reads = Vec::new();
    let mut folders = Vec::new();
    for (k, file) in files.into_iter().enumerate() {
        match file? {
            InputFile::Folder(name, paths, source) => {
                let summary = folder::read_folder(
                    &name,
                    &paths,
                    source,
                    options,
                    messages,
                    digests,
                    &mut |read: FileRead| -> Result<(), E> {
                        each(k, &read)?;
                        reads.push(read);
                        Ok(())
                    },
                )?;
                folders.push(summary);
            }
            file => {
                let read = read_file(file, options, messages, digests)?;
                each(k, &read)?;
                reads.push(read);
            }
        }
    }
    let mut inputs = join_reads(reads, options)?;
    for f in &mut folders {
        inputs.digests.append(&mut f.digests);
    }
    inputs.folders = folders;
    Ok(inputs)
}

/// One input file read on its own (the map step of [`read_inputs_from`]:
/// the browser parses each file as soon as its bytes arrive, while the
/// next ones are still being read). [`join_reads`] joins them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileRead {
    pub name: String,
    /// Name, size and SHA-256, when asked for (or known already).
    pub digest: Option<crate::digest::Input>,
    pub content: FileContent,
}

/// What one input file is, once read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FileContent {
    /// A trajectory file (any format [`crate::formats::detect_bytes`]
    /// knows), parsed.
    Trajectories(crate::formats::Corpus),
    /// A label CSV (applied once every trajectory file is read).
    Labels(String),
    /// An outcomes CSV (`trajectory_id,task_id,reward`: applied once every
    /// trajectory file is read, before the labels).
    Outcomes(String),
    /// Any other text: a profile table (or a gapscope report).
    Text(String),
}

/// The reader options of ingestion options.
fn reader_options(options: &TrajectoryOptions, messages: &Messages) -> crate::formats::ReadOptions {
    crate::formats::ReadOptions {
        model: options.model.clone(),
        score: options.score.clone(),
        light: *messages != Messages::All,
        keep: match messages {
            Messages::Only(id) => Some(id.clone()),
            _ => None,
        },
        domain: options.domain.clone(),
    }
}

/// Read one input file ([`InputFile`]; already read ones are returned as they are).
pub fn read_file(
    file: InputFile<'_>,
    options: &TrajectoryOptions,
    messages: &Messages,
    digests: bool,
) -> Result<FileRead, ReadError> {
    let read_options = reader_options(options, messages);
    if let InputFile::Read(read) = file {
        return Ok(*read);
    }
    if let Some(why) = options
        .model
        .as_deref()
        .and_then(|m| crate::trajectory::bad_name("model name", m))
    {
        return Err(ReadError::Trajectories {
            file: file.name().to_string(),
            message: format!("{why} (the name given for every trajectory)"),
        });
    }
    let mut digest = None;
    let (name, whole) = match file {
        InputFile::Read(read) => return Ok(*read),
        InputFile::Folder(name, ..) => {
            return Err(ReadError::Trajectories {
                file: name,
                message: "a folder is read with the other inputs (read_inputs_each), not alone"
                    .into(),
            })
        }
        InputFile::Bytes(name, bytes) => {
            if digests {
                digest = Some(crate::digest::Input::new(&name, &bytes));
            }
            (name, bytes)
        }
        InputFile::Stream(name, reader) => {
            let mut reader = Hashing::new(reader, digests);
            let read = read_stream(&name, &mut reader, &read_options)?;
            if let Some((bytes, sha256)) = reader.finish() {
                digest = Some(crate::digest::Input {
                    name: name.clone(),
                    bytes,
                    sha256,
                });
            }
            match read {
                Streamed::Jsonl(c) if c.trajectories.is_empty() => {
                    return Err(ReadError::NoTrajectories {
                        file: name,
                        declined: vec![
                            format!(
                                "canonical JSONL: {} line(s) skipped{}",
                                c.skipped.len(),
                                c.skipped
                                    .first()
                                    .map(|e| format!(" (first: {e})"))
                                    .unwrap_or_default()
                            ),
                            "the other readers: the file starts as canonical JSONL".into(),
                        ],
                    })
                }
                Streamed::Jsonl(c) => {
                    return Ok(FileRead {
                        name,
                        digest,
                        content: FileContent::Trajectories(c),
                    })
                }
                Streamed::Whole(bytes) => (name, Cow::Owned(bytes)),
            }
        }
    };
    let bytes: &[u8] = &whole;
    // Detected once: the reader is told the format.
    if let Some(format) = crate::formats::detect_bytes(bytes) {
        let c = crate::formats::read_bytes_as(format, &name, bytes, &read_options).map_err(
            |message| {
                ReadError::Trajectories {
                    file: name.clone(),
                    // Inspect errors may name the file already.
                    message: message
                        .strip_prefix(&format!("{name}: "))
                        .map(str::to_string)
                        .unwrap_or(message),
                }
            },
        )?;
        if c.trajectories.is_empty() {
            if let Some(m) = std::str::from_utf8(bytes)
                .ok()
                .and_then(|t| crate::kind::misplaced(&name, t, crate::kind::Part::Gaps))
            {
                return Err(ReadError::OtherPart(m));
            }
            return Err(ReadError::NoTrajectories {
                file: name,
                declined: crate::formats::readers_declined(bytes),
            });
        }
        let mut c = c;
        // Trajectories their file gives no identity (a τ²-bench simulation
        // without `id`, an Inspect log without `eval_id`): the file's
        // SHA-256 and their place in it, so only a byte-identical copy repeats them.
        if c.trajectories.iter().any(|t| t.source_id.is_none()) {
            let sha = match &digest {
                Some(d) => d.sha256.clone(),
                None => crate::digest::Input::new(&name, bytes).sha256,
            };
            for (k, t) in c.trajectories.iter_mut().enumerate() {
                if t.source_id.is_none() {
                    t.source_id = Some(format!("file\u{1f}{sha}\u{1f}{k}"));
                }
            }
        }
        return Ok(FileRead {
            name,
            digest,
            content: FileContent::Trajectories(c),
        });
    }
    let text = crate::text::utf8(bytes).map_err(|source| ReadError::NotUtf8 {
        file: name.clone(),
        source,
    })?;
    // Not a trajectory file: an episode log or a case file is named for what
    // it is (not read as a profile table, which would complain of `models`).
    if let Some(m) = crate::kind::misplaced(&name, text, crate::kind::Part::Gaps) {
        return Err(ReadError::OtherPart(m));
    }
    let content = if is_label_csv(text) {
        FileContent::Labels(text.to_string())
    } else if crate::outcomes::is_outcomes_csv(text) {
        FileContent::Outcomes(text.to_string())
    } else {
        FileContent::Text(text.to_string())
    };
    Ok(FileRead {
        name,
        digest,
        content,
    })
}

/// Join files read one by one ([`read_file`], in input order) into
/// [`Inputs`]: the trajectory files into one corpus, the models renamed,
/// then the label CSVs applied.
pub fn join_reads(reads: Vec<FileRead>, options: &TrajectoryOptions) -> Result<Inputs, ReadError> {
    let mut inputs = Inputs::default();
    // Texts of label CSVs, applied once every trajectory is read.
    let mut label_files: Vec<(String, String)> = Vec::new();
    // Texts of outcomes CSVs, applied before the labels.
    let mut outcome_files: Vec<(String, String)> = Vec::new();
    // The file each trajectory came from (index into `trajectory_files`).
    let mut first_file: Vec<usize> = Vec::new();
    for read in reads {
        inputs.digests.extend(read.digest);
        match read.content {
            FileContent::Trajectories(c) => {
                first_file.extend(std::iter::repeat_n(
                    inputs.trajectory_files.len(),
                    c.trajectories.len(),
                ));
                add_corpus(&mut inputs, &read.name, c);
            }
            FileContent::Labels(text) => {
                inputs.label_files.push(read.name.clone());
                label_files.push((read.name, text));
            }
            FileContent::Outcomes(text) => {
                inputs.outcome_files.push(read.name.clone());
                outcome_files.push((read.name, text));
            }
            FileContent::Text(text) => inputs.profiles.push((read.name, text)),
        }
    }
    if inputs.trajectory_files.is_empty() {
        if let Some((name, _)) = outcome_files.first() {
            return Err(ReadError::Trajectories {
                file: (*name).clone(),
                message: "an outcomes file needs the trajectories it scores: load them together"
                    .into(),
            });
        }
        if let Some((name, _)) = label_files.first() {
            return Err(ReadError::Trajectories {
                file: (*name).clone(),
                message: "a label file needs the trajectories it labels: load them together".into(),
            });
        }
        return Ok(inputs);
    }
    if inputs.corpus.trajectories.is_empty() {
        // An empty profile would read as "a header but no data": say why.
        return Err(ReadError::Trajectories {
            file: inputs.trajectory_files.join(" + "),
            message: format!(
                "no trajectory could be read ({} line(s) skipped{})",
                inputs.corpus.skipped.len(),
                inputs
                    .corpus
                    .skipped
                    .first()
                    .map(|e| format!("; first: {e}"))
                    .unwrap_or_default()
            ),
        });
    }
    drop_repeats(&mut inputs, &first_file, options.keep_repeats);
    let renamed =
        crate::trajectory::rename_models(&mut inputs.corpus.trajectories, &options.renames);
    if !options.renames.is_empty() {
        inputs.notes.push(format!(
            "{renamed} trajectories renamed ({})",
            options
                .renames
                .iter()
                .map(|(a, b)| format!("{a} → {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for (name, text) in &outcome_files {
        let n = crate::outcomes::apply_outcomes(&mut inputs.corpus, text).map_err(|e| {
            ReadError::Trajectories {
                file: (*name).clone(),
                message: e.to_string(),
            }
        })?;
        let unscored = inputs
            .corpus
            .trajectories
            .iter()
            .filter(|t| t.reward.is_none())
            .count();
        inputs.notes.push(format!(
            "{name}: {n} outcomes applied (task and reward); {unscored} of {} trajectories now have no reward",
            inputs.corpus.trajectories.len()
        ));
    }
    for (name, text) in &label_files {
        let n = crate::labels::apply_label_csv(&mut inputs.corpus, text).map_err(|e| {
            ReadError::Trajectories {
                file: (*name).clone(),
                message: e.to_string(),
            }
        })?;
        inputs.notes.push(format!("{name}: {n} labels applied"));
    }
    // Files graded under different τ²-bench versions (issue 16).
    let graded = crate::formats::tau3::grading_warnings(&inputs.corpus.grading);
    inputs.notes.extend(graded);
    Ok(inputs)
}

/// Trajectories that repeat earlier ones ([`crate::trajectory::Trajectory::identity`]):
/// dropped (or, with `keep`, kept) with one warning per pair of files.
/// `file_of[i]` is trajectory i's file (index into `trajectory_files`).
fn drop_repeats(inputs: &mut Inputs, file_of: &[usize], keep: bool) {
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    // (earlier file, later file) -> (count, kind)
    let mut pairs: IndexMap<(usize, usize), (usize, &'static str)> = IndexMap::new();
    let mut repeat = vec![false; inputs.corpus.trajectories.len()];
    for (i, t) in inputs.corpus.trajectories.iter().enumerate() {
        let identity = t.identity();
        match seen.get(identity.as_ref()) {
            Some(&first) => {
                repeat[i] = true;
                let e = pairs
                    .entry((file_of[first], file_of[i]))
                    .or_insert((0, crate::trajectory::identity_kind(&identity)));
                e.0 += 1;
            }
            None => {
                seen.insert(identity.into_owned(), i);
            }
        }
    }
    for ((a, b), (n, kind)) in &pairs {
        let (fa, fb) = (&inputs.trajectory_files[*a], &inputs.trajectory_files[*b]);
        let whose = if a == b {
            "earlier ones of the same file".to_string()
        } else {
            format!("those of {fa}")
        };
        inputs.notes.push(format!(
            "{fb}: {n} trajector{} {whose} ({kind}); {}",
            if *n == 1 { "y repeats" } else { "ies repeat" },
            if keep {
                "kept, as asked: they count twice"
            } else {
                "counted once (keep repeats to count them again)"
            }
        ));
    }
    if !keep && !pairs.is_empty() {
        let mut k = 0;
        inputs.corpus.trajectories.retain(|_| {
            k += 1;
            !repeat[k - 1]
        });
        inputs.trajectory_file = file_of
            .iter()
            .zip(&repeat)
            .filter(|(_, r)| !**r)
            .map(|(f, _)| *f)
            .collect();
    } else {
        inputs.trajectory_file = file_of.to_vec();
    }
}

/// Add one trajectory file's corpus to the inputs, with what reading it said.
fn add_corpus(inputs: &mut Inputs, name: &str, c: crate::formats::Corpus) {
    for m in &c.reward_mappings {
        for a in &m.available {
            if !inputs.scorers.contains(a) {
                inputs.scorers.push(a.clone());
            }
        }
        let used = match &m.key {
            Some(k) => format!("{}:{k}", m.scorer),
            None => m.scorer.clone(),
        };
        if !inputs.scored_by.contains(&used) {
            inputs.scored_by.push(used);
        }
    }
    inputs.notes.extend(
        c.reward_mappings
            .iter()
            .map(super::formats::inspect::RewardMapping::sentence),
    );
    if !c.skipped.is_empty() {
        let first: Vec<String> = c
            .skipped
            .iter()
            .take(3)
            .map(std::string::ToString::to_string)
            .collect();
        inputs.notes.push(format!(
            "{name}: {} malformed line(s) skipped ({}{})",
            c.skipped.len(),
            first.join("; "),
            if c.skipped.len() > 3 { "; …" } else { "" }
        ));
    }
    for w in &c.warnings {
        inputs.notes.push(format!("{name}: {w}"));
    }
    let unscored = c.trajectories.iter().filter(|t| t.reward.is_none()).count();
    if unscored > 0 {
        inputs.notes.push(format!(
            "{name}: {unscored} of {} trajectories have no reward (read, unscored)",
            c.trajectories.len()
        ));
    }
    if let Some(first) = c.notes.first() {
        inputs.notes.push(format!(
            "{name}: {} trajectories with tool results that answer no earlier tool call (first: {first})",
            c.notes.len()
        ));
    }
    if !c.excluded.is_empty() {
        let first: Vec<String> = c
            .excluded
            .iter()
            .take(3)
            .map(|e| format!("{} (task {}): {}", e.id, e.task, e.reason))
            .collect();
        inputs.notes.push(format!(
            "{name}: {} run(s) excluded as infrastructure errors, in no denominator ({}{})",
            c.excluded.len(),
            first.join("; "),
            if c.excluded.len() > 3 { "; …" } else { "" }
        ));
    }
    inputs.corpus.trajectories.extend(c.trajectories);
    let file = inputs.trajectory_files.len();
    inputs
        .excluded_file
        .extend(std::iter::repeat_n(file, c.excluded.len()));
    inputs.corpus.excluded.extend(c.excluded);
    let graded = c
        .grading
        .into_iter()
        .map(|g| crate::formats::tau3::Grading {
            file: name.to_string(),
            ..g
        });
    inputs.corpus.grading.extend(graded);
    inputs.corpus.skipped.extend(c.skipped);
    inputs.corpus.notes.extend(c.notes);
    inputs.corpus.warnings.extend(c.warnings);
    inputs.trajectory_files.push(name.to_string());
}

/// A stream, read: canonical JSONL parsed as it was read, or any other file whole.
enum Streamed {
    Jsonl(crate::formats::Corpus),
    Whole(Vec<u8>),
}

/// A reader that counts and (when asked) hashes (SHA-256) what passes through it.
struct Hashing<R> {
    inner: R,
    sha: Option<sha2::Sha256>,
    bytes: usize,
}

impl<R: std::io::Read> Hashing<R> {
    fn new(inner: R, hash: bool) -> Self {
        Hashing {
            inner,
            sha: hash.then(<sha2::Sha256 as sha2::Digest>::new),
            bytes: 0,
        }
    }

    /// Bytes read and their SHA-256 (lowercase hex), when hashed.
    fn finish(self) -> Option<(usize, String)> {
        let digest = sha2::Digest::finalize(self.sha?);
        Some((
            self.bytes,
            digest.iter().map(|b| format!("{b:02x}")).collect(),
        ))
    }
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(sha) = &mut self.sha {
            sha2::Digest::update(sha, &buf[..n]);
        }
        self.bytes += n;
        Ok(n)
    }
}

/// Append what `reader` gives (at most `max` bytes) to `buf`, which grows as
/// data arrives through fallible allocations: memory that runs out is an
/// error naming how much was read, not an abort. Returns the bytes read.
fn read_into(
    reader: &mut dyn std::io::Read,
    buf: &mut Vec<u8>,
    max: Option<usize>,
) -> std::io::Result<usize> {
    let mut chunk = vec![0u8; 1 << 16];
    let mut total = 0usize;
    loop {
        let room = max.map_or(chunk.len(), |m| (m - total).min(chunk.len()));
        if room == 0 {
            return Ok(total);
        }
        let n = match reader.read(&mut chunk[..room]) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.capacity() - buf.len() < n {
            // Double (at least 1 MiB at a time).
            let grow = buf.capacity().max(n).max(1 << 20);
            buf.try_reserve_exact(grow).map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::OutOfMemory,
                    format!(
                        "out of memory reading the file: {} bytes read, {} bytes could not be allocated",
                        buf.len(),
                        buf.len() + grow
                    ),
                )
            })?;
        }
        buf.extend_from_slice(&chunk[..n]);
        total += n;
    }
}

/// Read a stream: its head decides whether it is canonical JSONL (then the
/// lines are parsed as they arrive); anything else is read whole.
fn read_stream(
    name: &str,
    reader: &mut dyn std::io::Read,
    options: &crate::formats::ReadOptions,
) -> Result<Streamed, ReadError> {
    use std::io::{BufRead, Read};
    let unreadable = |e: std::io::Error| ReadError::Trajectories {
        file: name.to_string(),
        message: if e.kind() == std::io::ErrorKind::OutOfMemory {
            // `out of memory reading the file: …` ([`read_into`]).
            e.to_string()
        } else {
            format!("could not be read: {e}")
        },
    };
    let mut head = Vec::new();
    // Enough to see the first line whole (or the end of the file).
    let first_line_end = loop {
        let start = head.len();
        let got = read_into(&mut *reader, &mut head, Some(STREAM_HEAD)).map_err(unreadable)?;
        // As `detect` sees it: after a byte-order mark and blank space.
        let bom = if head.starts_with("\u{feff}".as_bytes()) {
            3
        } else {
            0
        };
        let text_start = head[bom.min(head.len())..]
            .iter()
            .position(|b| !b" \t\r\n".contains(b))
            .map_or(head.len(), |p| bom + p);
        if let Some(nl) = head[start.max(text_start)..]
            .iter()
            .position(|&b| b == b'\n')
        {
            break Some(start.max(text_start) + nl);
        }
        if got == 0 {
            break None;
        }
    };
    let is_jsonl = first_line_end.is_some_and(|end| {
        std::str::from_utf8(&head[..end])
            .ok()
            .and_then(crate::formats::detect)
            == Some(crate::formats::TrajectoryFormat::Jsonl)
    });
    if !is_jsonl {
        read_into(&mut *reader, &mut head, None).map_err(unreadable)?;
        return Ok(Streamed::Whole(head));
    }
    // A file that ended within its head is read whole, exactly as its bytes
    // are (the same messages: e.g. why each reader declined it).
    if read_into(&mut *reader, &mut head, Some(1)).map_err(unreadable)? == 0 {
        return Ok(Streamed::Whole(head));
    }
    let mut lines = crate::formats::JsonlLines::new(options);
    let mut input = std::io::BufReader::with_capacity(1 << 20, head.as_slice().chain(reader));
    let mut line = Vec::new();
    let mut offset = 0usize;
    loop {
        line.clear();
        let n = input.read_until(b'\n', &mut line).map_err(unreadable)?;
        if n == 0 {
            break;
        }
        let mut raw: &[u8] = &line;
        if let Some(r) = raw.strip_suffix(b"\n") {
            raw = r.strip_suffix(b"\r").unwrap_or(r);
        }
        let mut skipped = 0;
        if offset == 0 {
            if let Some(r) = raw.strip_prefix("\u{feff}".as_bytes()) {
                raw = r;
                skipped = 3;
            }
        }
        let text = std::str::from_utf8(raw).map_err(|e| ReadError::NotUtf8 {
            file: name.to_string(),
            source: crate::text::NotUtf8 {
                line: lines.lines() + 1,
                offset: offset + skipped + e.valid_up_to(),
            },
        })?;
        lines.push(text);
        offset += n;
    }
    let mut corpus = lines.finish();
    if let Some(m) = &options.model {
        for t in &mut corpus.trajectories {
            t.model = m.clone();
        }
    }
    Ok(Streamed::Jsonl(corpus))
}

impl TrajectoryOptions {
    /// The operation-profile options these trajectory options imply.
    pub fn profile_options(&self) -> crate::operations::ProfileOptions {
        crate::operations::ProfileOptions {
            all_tasks: self.all_tasks,
            ..Default::default()
        }
    }
}

/// [`read_profiles`], with trajectory options. Every trajectory file is read
/// into one corpus ([`read_inputs`]: label CSVs applied, models renamed), and
/// the corpus becomes one operation profile (with reward), so that the
/// common-task subset spans every model of every file. That profile is then
/// joined with the profile files like any other.
pub fn read_profiles_with<B: AsRef<[u8]>>(
    files: &[(String, B)],
    overrides: &crate::profile::RoleOverrides,
    options: &TrajectoryOptions,
) -> Result<(ProfileTable, JoinReport), ReadError> {
    profiles_of_inputs(
        read_inputs(files, options, &Messages::Counts)?,
        overrides,
        options,
    )
}

/// [`read_profiles_with`] on inputs already read (read once, the page's
/// import job also builds the trajectory overview from them).
pub fn profiles_of_inputs(
    inputs: Inputs,
    overrides: &crate::profile::RoleOverrides,
    options: &TrajectoryOptions,
) -> Result<(ProfileTable, JoinReport), ReadError> {
    let Inputs {
        profiles: mut profile_files,
        corpus,
        trajectory_files: traj_names,
        mut notes,
        digests: _,
        folders: _,
        label_files: _,
        outcome_files: _,
        trajectory_file: _,
        excluded_file: _,
        scorers: _,
        scored_by: _,
    } = inputs;
    let n_user = profile_files.len();
    if let (Some(long), 0) = (&overrides.long, n_user) {
        return Err(ReadError::LongWithoutProfiles(long.to_string()));
    }
    let mut pooled: Option<(Vec<String>, Vec<Option<f64>>)> = None;
    if !traj_names.is_empty() {
        let profile =
            crate::operations::operation_profile(&corpus.trajectories, &options.profile_options());
        let name = traj_names.join(" + ");
        notes.push(format!(
            "{name}: {} trajectories of {} model{}; operation profile from the {} on the {} tasks {}{}",
            corpus.trajectories.len(),
            profile.models.len(),
            crate::profile::plural(profile.models.len()),
            profile.n_used,
            profile.tasks.len(),
            if options.all_tasks { "attempted by any model (all tasks)" } else { "every model attempted" },
            if profile.operations.is_empty() { " (no operation labels: reward only)" } else { "" }
        ));
        pooled = Some((profile.models.clone(), profile.pooled_macro.clone()));
        profile_files.push((name, profile.to_csv()));
    }
    let files = profile_files;
    // Long tables are pivoted as each file is read (what the pivot did goes
    // to the notes); the roles apply to the table as below.
    let longs = crate::profile::long::columns_for_files(&files, n_user, overrides.long.as_ref());
    let roles = crate::profile::RoleOverrides {
        long: None,
        ..overrides.clone()
    };
    let mut read = |k: usize, roles: &crate::profile::RoleOverrides| {
        let (name, text) = &files[k];
        let o = crate::profile::RoleOverrides {
            long: longs[k].cloned(),
            ..roles.clone()
        };
        let (t, pivot) =
            ProfileTable::read_reporting(text, &o).map_err(|source| ReadError::File {
                file: name.clone(),
                source,
            })?;
        notes.extend(pivot.iter().flat_map(|p| p.sentences(name)));
        Ok::<_, ReadError>((name.clone(), t))
    };
    let (table, mut report) = if files.len() == 1 {
        join(&[read(0, &roles)?])?
    } else {
        let mut tables = Vec::new();
        for k in 0..files.len() {
            tables.push(read(k, &crate::profile::RoleOverrides::default())?);
        }
        let (joined, report) = join(&tables)?;
        if roles == crate::profile::RoleOverrides::default() {
            (joined, report)
        } else {
            (
                ProfileTable::read(&joined.to_csv(), &roles).map_err(ReadError::Roles)?,
                report,
            )
        }
    };
    report.notes = notes;
    let mut table = table;
    if let Some((models, values)) = pooled {
        // Attached by model name: the join may have added or reordered models.
        table.pooled_macro = Some(
            table
                .models
                .iter()
                .map(|m| models.iter().position(|x| x == m).and_then(|i| values[i]))
                .collect(),
        );
    }
    Ok((table, report))
}

#[cfg(test)]
mod tests;
