//! gapscope's data layer: what a file holds, read with located errors.
//!
//! - [`profile`]: profile tables (models × foundational and operation
//!   columns) and their CSV/JSON readers.
//! - [`trajectory`]: the trajectory model (types and name checks).
//! - [`formats`]: one reader per trajectory format and the sniffer.
//! - [`labels`]: label CSVs; [`outcomes`]: outcomes CSVs (task and reward
//!   by trajectory id); [`operations`]: operation profiles from labels.
//! - [`ingest`]: every input, bytes or stream, through one reader into
//!   [`ingest::Inputs`]; the join of profile tables on `model`.
//! - [`digest`]: each input's name, size and SHA-256 for the manifest;
//!   [`text`]: UTF-8 or a located [`text::NotUtf8`].

pub mod digest;
pub mod formats;
pub mod ingest;
pub mod join;
pub mod kind;
pub mod labels;
pub mod operations;
pub mod outcomes;
pub mod profile;
pub mod text;
pub mod trajectory;

#[cfg(test)]
mod reading_tests;

pub use profile::{ProfileError, ProfileTable, RoleOverrides};
