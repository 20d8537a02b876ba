//! τ-bench (v1) results: `[{task_id: int, reward, info, traj, trial}]`, or
//! one such record as a bare object.

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a TauBenchV1 file (`name` for messages).
pub fn read(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::TauBenchV1))
}
