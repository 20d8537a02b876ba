//! One τ²-bench / τ³ simulation file (a `SimulationRun` object, or the
//! `{_about, task, simulation_run}` wrapper), full-duplex simulations
//! (turns in `ticks`) and the τ³ results directory (`results.json` beside
//! `simulations/<id>.json`, [`super::folder`]).

use super::{Corpus, ReadOptions, TrajectoryFormat};

/// Read a Tau2Simulation file (`name` for messages).
pub fn read_simulation(_name: &str, _text: &str, _options: &ReadOptions) -> Result<Corpus, String> {
    Err(super::not_read_yet(TrajectoryFormat::Tau2Simulation))
}

/// Read a τ³ results directory (its members through `folder`).
pub fn read_group(
    group: &super::folder::Group,
    _folder: &mut dyn super::folder::Folder,
    _options: &ReadOptions,
    _progress: &mut dyn FnMut(usize, usize),
) -> Result<Corpus, String> {
    Err(format!(
        "recognized as a {}, which this version of gapscope does not read yet",
        group.format.label()
    ))
}
