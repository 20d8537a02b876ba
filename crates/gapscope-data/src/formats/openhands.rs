//! OpenHands event lists and evaluation `output.jsonl` (`instance_id`,
//! `history`, `test_result`).

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a OpenHandsEvents file (`name` for messages).
pub fn read_events(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::OpenHandsEvents))
}

/// Read a OpenHandsOutput file (`name` for messages).
pub fn read_output(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::OpenHandsOutput))
}
