//! What went in: each input file's name, size and SHA-256, and the role it
//! plays in a reproducible command (the manifest of a report is built from
//! these by the paper crates).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One input file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub name: String,
    pub bytes: usize,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
}

impl Input {
    pub fn new(name: &str, content: &[u8]) -> Self {
        Input {
            name: name.to_string(),
            bytes: content.len(),
            sha256: sha256_hex(content),
        }
    }
}

/// The role a file plays in `gapscope report`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    /// A profile table (`--profiles`).
    #[default]
    Profiles,
    /// A trajectory file (`--trajectories`).
    Trajectories,
    /// A label CSV (`--labels`).
    Labels,
    /// An outcomes CSV (`--outcomes`: task and reward by trajectory id).
    Outcomes,
}

/// One file of the command: its name in the folder the command runs in, its
/// role, and the command that writes it when it is built in or derived
/// (run before the report).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RecipeFile {
    pub name: String,
    pub kind: InputKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_by: Option<String>,
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
