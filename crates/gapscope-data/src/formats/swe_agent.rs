//! SWE-agent `.traj` (0.x and 1.x) and mini-swe-agent `{info, messages}`
//! trajectories.

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a SweAgent file (`name` for messages).
pub fn read_swe_agent(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::SweAgent))
}

/// Read a MiniSweAgent file (`name` for messages).
pub fn read_mini(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::MiniSweAgent))
}
