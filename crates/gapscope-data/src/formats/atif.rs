//! ATIF trajectories (Harbor's `trajectory.json`, schema versions 1.0–1.8):
//! steps to messages, tool calls, observations matched by `source_call_id`.

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a Atif file (`name` for messages).
pub fn read(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::Atif))
}
