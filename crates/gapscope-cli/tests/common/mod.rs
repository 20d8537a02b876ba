//! What the CLI's integration tests share: the workspace root and a way to
//! run the built `gapscope` binary there.

#![allow(clippy::unwrap_used, dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The workspace root (fixtures and assets are named relative to it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Run `gapscope` with `args` in the workspace root.
pub fn gapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gapscope"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}
