//! Which part of gapscope reads a file: a file given to the wrong part (an
//! episode log dropped among trajectories, a profile table given as a case
//! file) is named for what it is and where it belongs, instead of failing
//! with a parser's complaint about a missing field.
//!
//! The test is the shape of the first record ([`crate::formats::probe`]):
//! the keys each format requires, nothing else. It is asked only after a
//! part's own reader has declined the file, so it never changes what a part
//! reads.

use crate::formats::probe::{probe, Record, Shape};

/// A part of gapscope, as the page's tabs and the CLI's commands name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Realization gaps, runs and trajectories (`gapscope report`,
    /// `compare`, `profiles`).
    Gaps,
    /// Evidence to action (`gapscope evidence score`).
    Evidence,
    /// Runtime contracts (`gapscope runtime analyze`).
    Runtime,
}

impl Part {
    /// The part's name on the page (its tab).
    pub fn label(self) -> &'static str {
        match self {
            Part::Gaps => "Realization gaps",
            Part::Evidence => "Evidence to action",
            Part::Runtime => "Runtime contracts",
        }
    }

    /// The part's id on the page (`?area=`).
    pub fn id(self) -> &'static str {
        match self {
            Part::Gaps => "gaps",
            Part::Evidence => "evidence",
            Part::Runtime => "runtime",
        }
    }

    /// The command line that reads the part's files.
    pub fn command(self) -> &'static str {
        match self {
            Part::Gaps => "gapscope report / compare / profiles",
            Part::Evidence => "gapscope evidence score --cases … --trajectories …",
            Part::Runtime => "gapscope runtime analyze --episodes …",
        }
    }
}

/// What a file is, when it is recognized as one of another part's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A runtime-contracts episode log (`episode_id`, `train_runtime`,
    /// `deploy_runtime`).
    RuntimeEpisodes,
    /// Evidence-to-action case specs (`case_id` with `requirements`,
    /// `candidate`, `actions` or `expected_decision`, no messages).
    EvidenceCases,
    /// Evidence-to-action trajectories (`case_id`, `config`, `messages`).
    EvidenceTrajectories,
    /// A trajectory file of a format the gaps part reads.
    Trajectories(crate::formats::TrajectoryFormat),
    /// A profile table (CSV with a `model` column).
    Profiles,
}

impl FileKind {
    /// The kind, named for a person ("a runtime-contracts episode log").
    pub fn name(self) -> &'static str {
        match self {
            FileKind::RuntimeEpisodes => "a runtime-contracts episode log",
            FileKind::EvidenceCases => "an evidence-to-action case file",
            FileKind::EvidenceTrajectories => "an evidence-to-action trajectory file",
            FileKind::Trajectories(_) => "a trajectory file",
            FileKind::Profiles => "a profile table",
        }
    }

    /// The part that reads it.
    pub fn part(self) -> Part {
        match self {
            FileKind::RuntimeEpisodes => Part::Runtime,
            FileKind::EvidenceCases | FileKind::EvidenceTrajectories => Part::Evidence,
            FileKind::Trajectories(_) | FileKind::Profiles => Part::Gaps,
        }
    }

    /// The keys (or the format) that told it, as the sentence shows them.
    fn evidence(self) -> &'static str {
        match self {
            FileKind::RuntimeEpisodes => "`episode_id`, `train_runtime`, `deploy_runtime`",
            FileKind::EvidenceCases => "`case_id` and a case's `requirements`/`candidate`",
            FileKind::EvidenceTrajectories => "`case_id`, `config` and `messages`",
            FileKind::Trajectories(f) => f.label(),
            FileKind::Profiles => "a `model` column",
        }
    }
}

/// What `text` is, if it is one of the kinds of [`FileKind`] (judged from
/// its first record, or its CSV header).
pub fn kind_of(text: &str) -> Option<FileKind> {
    let shape = probe(text);
    if let Some(r) = shape.first() {
        if let Some(k) = record_kind(r) {
            return Some(k);
        }
        if !matches!(shape, Shape::Other) {
            if let Some(f) = crate::formats::detect(text) {
                return Some(FileKind::Trajectories(f));
            }
        }
        return None;
    }
    let header = text.trim_start_matches('\u{feff}').lines().next()?;
    let cells: Vec<String> = header
        .split(',')
        .map(|c| c.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    (cells.len() > 1 && cells.iter().any(|c| c == "model")).then_some(FileKind::Profiles)
}

fn record_kind(r: &Record) -> Option<FileKind> {
    if r.has("episode_id") && r.has_any(&["train_runtime", "deploy_runtime"]) {
        return Some(FileKind::RuntimeEpisodes);
    }
    if r.has("case_id") {
        if r.has("messages") && r.has_any(&["config", "repetition"]) {
            return Some(FileKind::EvidenceTrajectories);
        }
        if !r.has("messages")
            && r.has_any(&["requirements", "candidate", "expected_decision", "actions"])
        {
            return Some(FileKind::EvidenceCases);
        }
    }
    None
}

/// The sentence for a file of another part: what it is, what told it, and
/// where it belongs (`here` is the part that was given it). `None` when the
/// file is not recognized as another part's.
pub fn misplaced(file: &str, text: &str, here: Part) -> Option<String> {
    let kind = kind_of(text)?;
    (kind.part() != here).then(|| misplaced_sentence(file, kind))
}

/// [`misplaced`]'s sentence for a known kind. It carries, in a marker,
/// the part's id and its command line: the page finds the part there
/// ([`part_named_in`]: it offers to open the file in it, and shows no
/// command), the command line shows the command ([`plain_message`]).
pub fn misplaced_sentence(file: &str, kind: FileKind) -> String {
    let part = kind.part();
    // Without a file name (the caller adds it), the sentence starts at "this is".
    let file = if file.is_empty() {
        String::new()
    } else {
        format!("{file}: ")
    };
    format!(
        "{file}this is {} ({}), read by {}{MARK}{}|{}{MARK_END}",
        kind.name(),
        kind.evidence(),
        part.label(),
        part.id(),
        part.command()
    )
}

/// Brackets of the marker of a [`misplaced_sentence`] (invisible separators).
const MARK: &str = "\u{2063}[";
const MARK_END: &str = "]\u{2063}";

/// The marker of `message`: (its start, its end, the part, the command).
fn marker(message: &str) -> Option<(usize, usize, Part, &str)> {
    let start = message.find(MARK)?;
    let inner_start = start + MARK.len();
    let len = message[inner_start..].find(MARK_END)?;
    let inner = &message[inner_start..inner_start + len];
    let (id, command) = inner.split_once('|')?;
    let part = match id {
        "gaps" => Part::Gaps,
        "evidence" => Part::Evidence,
        "runtime" => Part::Runtime,
        _ => return None,
    };
    Some((start, inner_start + len + MARK_END.len(), part, command))
}

/// The part a [`misplaced_sentence`] in `message` sends a file to, and the
/// message as the page shows it ("— open it in PART", no command line), if
/// it holds one.
pub fn part_named_in(message: &str) -> Option<(Part, String)> {
    let (start, end, part, _) = marker(message)?;
    Some((
        part,
        format!(
            "{} — open it in {}{}",
            &message[..start],
            part.label(),
            &message[end..]
        ),
    ))
}

/// `message` as the command line shows it: a [`misplaced_sentence`]'s
/// marker becomes the command that reads the file.
pub fn plain_message(message: &str) -> String {
    match marker(message) {
        Some((start, end, _, command)) => {
            format!("{}: `{command}`{}", &message[..start], &message[end..])
        }
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const EPISODE: &str = r#"{"episode_id":"e1","task_family":"opaque_knapsack","train_runtime":"P","deploy_runtime":"S","cap":5,"score":0.5}"#;
    const CASE: &str = r#"{"case_id":"C1","protocol":"V0","requirements":[],"actions":[],"candidate":{"tool":"x","args":{}}}"#;
    const EV_TRAJ: &str =
        r#"{"id":"C1/a/r0","case_id":"C1","config":"a","repetition":0,"messages":[]}"#;

    #[test]
    fn kinds_are_told_by_their_keys() {
        assert_eq!(
            kind_of(&format!("{EPISODE}\n{EPISODE}\n")),
            Some(FileKind::RuntimeEpisodes)
        );
        assert_eq!(kind_of(CASE), Some(FileKind::EvidenceCases));
        assert_eq!(kind_of(&format!("[{CASE}]")), Some(FileKind::EvidenceCases));
        assert_eq!(kind_of(EV_TRAJ), Some(FileKind::EvidenceTrajectories));
        assert_eq!(
            kind_of("model,family,TU,GI\na,f,1,2\n"),
            Some(FileKind::Profiles)
        );
        assert_eq!(
            kind_of(r#"{"id":"t","model":"m","task_id":"1","messages":[]}"#),
            Some(FileKind::Trajectories(
                crate::formats::TrajectoryFormat::Jsonl
            ))
        );
        assert_eq!(kind_of("hello\n"), None);
        assert_eq!(kind_of(r#"{"x": 1}"#), None);
        // A case id alone is not enough.
        assert_eq!(kind_of(r#"{"case_id": "c"}"#), None);
    }

    #[test]
    fn the_sentence_names_the_kind_and_the_part_and_the_page_finds_the_part() {
        let s = misplaced("log.jsonl", EPISODE, Part::Gaps).unwrap();
        let (part, clean) = part_named_in(&s).unwrap();
        assert_eq!(part, Part::Runtime);
        assert_eq!(
            clean,
            "log.jsonl: this is a runtime-contracts episode log (`episode_id`, `train_runtime`, `deploy_runtime`), read by Runtime contracts — open it in Runtime contracts"
        );
        assert_eq!(
            plain_message(&format!("error: {s}; more")),
            "error: log.jsonl: this is a runtime-contracts episode log (`episode_id`, `train_runtime`, `deploy_runtime`), read by Runtime contracts: `gapscope runtime analyze --episodes …`; more"
        );
        assert_eq!(plain_message("other"), "other");
        // In its own part a file is not misplaced.
        assert_eq!(misplaced("log.jsonl", EPISODE, Part::Runtime), None);
        assert_eq!(misplaced("x.txt", "hello", Part::Gaps), None);
    }
}
