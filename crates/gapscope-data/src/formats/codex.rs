//! Codex CLI rollout JSONL (no task, no reward: an outcomes CSV supplies
//! them).

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a Codex file (`name` for messages).
pub fn read(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::Codex))
}
