//! The reproducibility manifest: what went in (file names, sizes, SHA-256),
//! with which settings, seed and PRNG, by which gapscope version.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::analysis::SettingsReport;

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

/// Everything needed to reproduce a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub inputs: Vec<Input>,
    pub settings: SettingsReport,
    /// The CLI command that recomputes the report from the same file.
    pub command: String,
}

impl Manifest {
    pub fn new(inputs: Vec<Input>, settings: SettingsReport) -> Self {
        let file = inputs.first().map_or("FILE", |i| i.name.as_str());
        let command = format!(
            "gapscope report --profiles {file} --alpha {} --bootstrap {} --seed {} --grid {},{},{}{} --json",
            settings.alpha,
            settings.bootstrap,
            settings.seed,
            settings.grid.lo,
            settings.grid.hi,
            settings.grid.points,
            if settings.nested { "" } else { " --no-nested" }
        );
        Manifest {
            tool: "gapscope".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            inputs,
            settings,
            command,
        }
    }
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_vectors() {
        // FIPS 180-2 test vectors.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
