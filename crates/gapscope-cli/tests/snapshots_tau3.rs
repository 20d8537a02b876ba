//! Snapshot of the CLI on the τ³ fixtures (issue 16): five simulation files
//! read alone (a built full-duplex simulation with tools, the
//! `{_about, task, simulation_run}` wrapper, two members of the derived
//! results directory and a trimmed full-duplex voice simulation without
//! reward), each its own model (no file names one), every task used.
//! Expected by hand: rewards 0 (full_duplex_tools), 100 (wrapper), 100
//! (9631bd74…), 0 (003ec557…), none (49b22f0c…: no `reward_info`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use insta_cmd::assert_cmd_snapshot;

mod common;
use common::root;

const DIR: &str = "crates/gapscope-data/tests/fixtures/tau3";

#[test]
fn profiles_tau3_simulation_files() {
    let files = [
        "full_duplex_tools.json",
        "wrapper.json",
        "whissle_dir/simulations/9631bd74-19a9-4d74-97a3-76fab55976d9.json",
        "whissle_dir/simulations/003ec557-537f-414e-8461-4a97a8c948a8.json",
        "voice_dir/simulations/49b22f0c-4a56-41c5-922f-bc2a56e53a23.json",
    ];
    let mut c = Command::new(env!("CARGO_BIN_EXE_gapscope"));
    c.current_dir(root()).args(["profiles", "--all-tasks"]);
    for f in files {
        c.args(["--trajectories", &format!("{DIR}/{f}")]);
    }
    assert_cmd_snapshot!(c);
}
