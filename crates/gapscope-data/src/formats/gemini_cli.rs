//! Gemini CLI session JSON (`sessionId`, `projectHash`, `messages`).

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a GeminiCli file (`name` for messages).
pub fn read(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::GeminiCli))
}
