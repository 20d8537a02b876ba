//! Parquet trajectory datasets (issue 16): one trajectory a row, as Hugging
//! Face serves SWE-agent / OpenHands trajectory sets (docs/formats.md,
//! "Parquet trajectory datasets").
//!
//! A file is recognized by its `PAR1` magic ([`is_parquet`]) in every build;
//! it is read only with the `parquet` cargo feature (the CLI has it; the
//! page does not yet: docs/formats.md, "Parquet trajectory datasets"), through the `parquet` crate's
//! record API (no arrow), one row group at a time, reading only the
//! columns named below. Pages may be uncompressed, snappy or gzip; any
//! other codec (zstd, brotli, lz4) is refused naming the column.
//!
//! Columns (top level; the first present of each list is used):
//! - task: `instance_id` (a string or an integer), required;
//! - messages: `messages` or `trajectory`, required: a list of structs
//!   `{role, content | text, tool_calls?, tool_call_id?}`, or a string
//!   holding such a list as JSON;
//! - trajectory id: `trajectory_id`, `traj_id` or `id`, else
//!   `{instance_id}#{row}`;
//! - model: `model_name` or `model`, else the file's name (said so);
//! - reward: `reward` (a number), else `resolved` or `target` (true/false
//!   or 0/1 → 1/0), else none (said so);
//! - task set: `domain`, `dataset` or `split`, else `--domain`, else
//!   `unknown` (said so);
//! - `exit_status` → termination reason; `repo` → a detail.

use crate::formats::{Corpus, ReadOptions};

/// The four bytes a Parquet file starts (and ends) with.
pub const MAGIC: &[u8; 4] = b"PAR1";

/// Whether the bytes are a Parquet file (they start with [`MAGIC`]).
pub fn is_parquet(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// What a build without the `parquet` feature says of a Parquet file.
pub const NOT_IN_THIS_BUILD: &str = "a Parquet trajectory dataset, which this build of gapscope does not read (it was built without the `parquet` feature; the page has no Parquet reader yet: its worker would take the page past its size budget): read it with the gapscope command line";

/// Read a Parquet trajectory dataset (see the module docs).
///
/// The `parquet` crate asserts on some damaged files (a flipped byte in a
/// page can fail `assertion failed: size <= src.len()` in its bit reader)
/// instead of returning an error: natively that panic is caught and becomes
/// a located refusal; on wasm32 (panics abort) it would end the worker that
/// reads the file (whose panic hook tells the page why).
#[cfg(feature = "parquet")]
pub fn read(name: &str, bytes: &[u8], options: &ReadOptions) -> Result<Corpus, String> {
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        imp::read(name, bytes, options)
    }));
    match read {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(format!(
                "a damaged Parquet file: the Parquet decoder stopped on it ({why})"
            ))
        }
    }
}

/// Read a Parquet trajectory dataset: this build has no Parquet reader.
#[cfg(not(feature = "parquet"))]
pub fn read(_name: &str, _bytes: &[u8], _options: &ReadOptions) -> Result<Corpus, String> {
    Err(NOT_IN_THIS_BUILD.to_string())
}

#[cfg(feature = "parquet")]
mod imp;
