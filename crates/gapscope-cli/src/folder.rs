//! Directories given as inputs: walked (sorted, symbolic links to folders
//! not followed, so a link cycle cannot loop), their files named by their
//! paths relative to the directory and read one at a time under the input
//! cap ([`input::read_input_file`]) when the core's folder reading asks
//! for them ([`gapscope_data::ingest::folder`]).

use std::path::{Path, PathBuf};

use gapscope_data::formats::folder::Folder;
use gapscope_data::ingest::folder::FolderSummary;

use crate::input;
use crate::output::term_safe;

/// The most files a directory given may hold (a walk that finds more
/// stops with an error rather than listing a whole disk).
pub const MAX_FILES: usize = 200_000;

/// A directory on disk, read file by file.
pub struct DiskFolder {
    root: PathBuf,
}

impl Folder for DiskFolder {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        let full = self.root.join(path);
        input::read_input_file(&full, input::MAX_INPUT_BYTES).map_err(|e| e.to_string())
    }
}

/// Every file under `root`, as `/`-separated paths relative to it, sorted.
pub fn walk(root: &Path) -> Result<(Vec<String>, DiskFolder), String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let kind = entry
                .file_type()
                .map_err(|e| format!("{}: {e}", entry.path().display()))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return Err(format!(
                    "{}: a file name that is not UTF-8 ({})",
                    dir.display(),
                    entry.file_name().to_string_lossy()
                ));
            };
            let child = rel.join(name);
            // A symbolic link is followed to a file, never to a folder.
            let is_dir = kind.is_dir();
            let is_file = kind.is_file()
                || (kind.is_symlink()
                    && std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file()));
            if is_dir {
                stack.push(child);
            } else if is_file {
                out.push(
                    child
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/"),
                );
                if out.len() > MAX_FILES {
                    return Err(format!(
                        "{}: more than {MAX_FILES} files under it; give a smaller folder",
                        root.display()
                    ));
                }
            }
        }
    }
    out.sort();
    Ok((
        out,
        DiskFolder {
            root: root.to_path_buf(),
        },
    ))
}

/// The most lines of a folder's listing printed (the summary sentence
/// always is).
const MAX_LINES: usize = 60;

/// Print what each folder held to standard error.
pub fn print_summaries(folders: &[FolderSummary]) {
    for f in folders {
        eprintln!("{}", term_safe(&format!("folder {}", f.sentence())));
        let lines = f.lines();
        for l in lines.iter().take(MAX_LINES) {
            eprintln!("  {}", term_safe(l));
        }
        if lines.len() > MAX_LINES {
            eprintln!("  … and {} more", lines.len() - MAX_LINES);
        }
    }
}
