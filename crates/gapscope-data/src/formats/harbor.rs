//! Harbor job and trial directories ([`super::folder`]): each trial's
//! `agent/trajectory.json` (ATIF, [`super::atif`]), its reward from
//! `result.json` (`verifier_result.rewards.reward`) or `verifier/reward.txt`,
//! and trials that failed for reasons not the agent's excluded
//! ([`super::Corpus::excluded`]).

use super::folder::{Folder, Group};
use super::{Corpus, ReadOptions};

/// Read a Harbor job or trial folder (its members through `folder`).
pub fn read_group(
    group: &Group,
    _folder: &mut dyn Folder,
    _options: &ReadOptions,
    _progress: &mut dyn FnMut(usize, usize),
) -> Result<Corpus, String> {
    Err(format!(
        "recognized as a {}, which this version of gapscope does not read yet",
        group.format.label()
    ))
}
