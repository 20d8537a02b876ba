//! Canonical JSONL (spec: formats.md, "Trajectories"): one trajectory a line;
//! blank lines are skipped, a malformed line is reported with its number and
//! the rest still read.

use indexmap::IndexMap;

use super::{Corpus, ReadOptions};
use crate::trajectory::{
    canonical_identity, check_experiment, check_labels, check_names, unknown_call_ids, LineError,
    Trajectory,
};

/// Read canonical JSONL (one trajectory a line; blank lines are skipped
/// silently, malformed ones are reported and skipped). A repeated `id` is
/// reported and the later line skipped.
pub fn read_jsonl(text: &str) -> Corpus {
    read_jsonl_with(text, &ReadOptions::default())
}

/// [`read_jsonl`]; with `options.light`, every trajectory but `options.keep`
/// is lightened as soon as its line is read, so that a large file never
/// holds all its messages at once.
pub fn read_jsonl_with(text: &str, options: &ReadOptions) -> Corpus {
    let mut lines = JsonlLines::new(options);
    for raw in text.trim_start_matches('\u{feff}').lines() {
        lines.push(raw);
    }
    lines.finish()
}

/// Canonical JSONL read a line at a time ([`read_jsonl_with`] is this over a
/// whole text): a large file streamed in chunks is parsed as it arrives and
/// never held whole.
#[derive(Debug)]
pub struct JsonlLines {
    corpus: Corpus,
    seen: IndexMap<String, u64>,
    line: u64,
    options: ReadOptions,
}

impl JsonlLines {
    pub fn new(options: &ReadOptions) -> Self {
        JsonlLines {
            corpus: Corpus::default(),
            seen: IndexMap::new(),
            line: 0,
            options: options.clone(),
        }
    }

    /// The next line, without its line ending (a byte-order mark before the
    /// first line is the caller's to drop).
    pub fn push(&mut self, raw: &str) {
        self.line += 1;
        let line = self.line;
        if raw.trim().is_empty() {
            return;
        }
        let parsed = serde_json::from_str::<Trajectory>(raw)
            .map_err(|e| {
                // The line is the JSONL line; say the column once.
                format!(
                    "column {}: {}",
                    e.column(),
                    crate::profile::json_message(&e)
                )
            })
            .and_then(|mut t| {
                check_names(&t, self.options.model.is_none())?;
                check_experiment(&mut t)?;
                check_labels(&t).map(|()| t)
            });
        let corpus = &mut self.corpus;
        match parsed {
            Ok(t) => {
                if let Some(first) = self.seen.get(&t.id) {
                    corpus.skipped.push(LineError {
                        line,
                        message: format!("trajectory id `{}` already used on line {first}", t.id),
                    });
                    return;
                }
                self.seen.insert(t.id.clone(), line);
                if let Some(message) = unknown_call_ids(&t) {
                    corpus.notes.push(LineError { line, message });
                }
                let mut t = t;
                t.source_id = Some(canonical_identity(&t.model, &t.id));
                if t.domain.is_none() {
                    t.domain.clone_from(&self.options.domain);
                }
                if self.options.light && self.options.keep.as_deref() != Some(t.id.as_str()) {
                    t.lighten();
                }
                corpus.trajectories.push(t);
            }
            Err(message) => corpus.skipped.push(LineError { line, message }),
        }
    }

    /// Lines pushed so far.
    pub fn lines(&self) -> u64 {
        self.line
    }

    pub fn finish(self) -> Corpus {
        self.corpus
    }
}
