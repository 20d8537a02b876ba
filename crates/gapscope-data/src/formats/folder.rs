//! Folders: which of a folder's files form a directory format (a τ³
//! results directory, a Harbor job, a Harbor trial), recognised first and at
//! any depth, and which are loose files to be detected one by one
//! ([`plan`]); a directory format is read through a [`Folder`] that hands
//! out one member at a time ([`super::read_group`]), so a job of many
//! trials is never held whole.
//!
//! Paths are relative to the folder given, `/`-separated, without `.` or
//! `..` parts (the command line walks the disk; the page has each picked
//! file's `webkitRelativePath`).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// A directory format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FolderFormat {
    /// τ³ results directory: `results.json` beside `simulations/<id>.json`.
    Tau3Results,
    /// A Harbor job: trial folders (each with `result.json` and `agent/` or
    /// `verifier/`) under a folder with the job's `config.json` or `result.json`.
    HarborJob,
    /// One Harbor trial: `result.json` beside `agent/` or `verifier/`.
    HarborTrial,
}

impl FolderFormat {
    pub fn label(self) -> &'static str {
        match self {
            FolderFormat::Tau3Results => "τ³ results directory",
            FolderFormat::HarborJob => "Harbor job directory",
            FolderFormat::HarborTrial => "Harbor trial directory",
        }
    }
}

/// One directory format found in a folder: its root (relative to the
/// folder; empty for the folder itself) and its member files (full
/// relative paths, sorted), which are read by its reader and by no other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub format: FolderFormat,
    pub root: String,
    pub members: Vec<String>,
}

impl Group {
    /// A member's path relative to the group's root.
    pub fn relative<'a>(&self, member: &'a str) -> &'a str {
        if self.root.is_empty() {
            member
        } else {
            member
                .strip_prefix(self.root.as_str())
                .and_then(|m| m.strip_prefix('/'))
                .unwrap_or(member)
        }
    }
    /// The member at `relative` (to the root), if the group has it.
    pub fn member(&self, relative: &str) -> Option<&str> {
        self.members
            .iter()
            .map(String::as_str)
            .find(|m| self.relative(m) == relative)
    }
}

/// What a folder holds: its directory formats, then its loose files (in
/// path order), to be detected one by one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub groups: Vec<Group>,
    pub files: Vec<String>,
}

/// A folder's files, read one at a time.
pub trait Folder {
    /// The bytes of the file at `path` (relative to the folder).
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String>;
}

/// Sort a folder's files (relative paths) into directory formats and loose
/// files. Folders are looked at shallowest first; a folder that is a
/// directory format takes every file under it (a job takes its trials).
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "τ²-bench writes its simulation files as `.json`, lower case"
)]
pub fn plan(paths: &[String]) -> Plan {
    // Each folder's files (by name) and subfolders (by name).
    let mut files: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut subdirs: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for p in paths {
        let (dir, name) = split(p);
        files.entry(dir).or_default().insert(name);
        let mut d = dir;
        while !d.is_empty() {
            let (parent, child) = split(d);
            subdirs.entry(parent).or_default().insert(child);
            d = parent;
        }
    }
    let empty = BTreeSet::new();
    let has_file = |dir: &str, name: &str| files.get(dir).is_some_and(|f| f.contains(name));
    let has_dir = |dir: &str, name: &str| subdirs.get(dir).is_some_and(|f| f.contains(name));
    let join = |dir: &str, name: &str| {
        if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        }
    };
    // A Harbor trial: `result.json` beside what Harbor's `TrialPaths`
    // writes into a trial folder (`agent/`, `verifier/`, `artifacts/`,
    // `steps/` of a multi-step trial, `trial.log`, `exception.txt`). Only
    // files are listed, so a trial that failed before its agent or
    // verifier wrote anything (an environment that did not start) is
    // known by its `trial.log` or `exception.txt`; a job folder has
    // `job.log` instead.
    let is_trial = |dir: &str| {
        has_file(dir, "result.json")
            && (["agent", "verifier", "artifacts", "steps"]
                .iter()
                .any(|d| has_dir(dir, d))
                || has_file(dir, "trial.log")
                || has_file(dir, "exception.txt"))
    };
    let mut dirs: Vec<&str> = files.keys().chain(subdirs.keys()).copied().collect();
    dirs.sort_by_key(|d| (depth(d), *d));
    dirs.dedup();
    let mut groups: Vec<Group> = Vec::new();
    for dir in dirs {
        if groups.iter().any(|g| under(dir, &g.root)) {
            continue;
        }
        let children = subdirs.get(dir).unwrap_or(&empty);
        let format = if (has_file(dir, "config.json") || has_file(dir, "result.json"))
            && !is_trial(dir)
            && children.iter().any(|c| is_trial(&join(dir, c)))
        {
            Some(FolderFormat::HarborJob)
        } else if is_trial(dir) {
            Some(FolderFormat::HarborTrial)
        } else if has_file(dir, "results.json")
            && files
                .get(join(dir, "simulations").as_str())
                .is_some_and(|f| f.iter().any(|n| is_json(n)))
        {
            Some(FolderFormat::Tau3Results)
        } else {
            None
        };
        if let Some(format) = format {
            groups.push(Group {
                format,
                root: dir.to_string(),
                members: Vec::new(),
            });
        }
    }
    let mut plan = Plan::default();
    let mut sorted: Vec<&String> = paths.iter().collect();
    sorted.sort();
    sorted.dedup();
    for p in sorted {
        match groups
            .iter_mut()
            .find(|g| under(split(p).0, &g.root) && takes(g, p))
        {
            Some(g) => g.members.push(p.clone()),
            None => plan.files.push(p.clone()),
        }
    }
    groups.sort_by(|a, b| a.root.cmp(&b.root));
    plan.groups = groups;
    plan
}

/// Whether a group takes the file at `path` under its root: a τ³ directory
/// takes `results.json` and `simulations/*.json` only (anything else beside
/// them is a loose file); Harbor folders take everything under them.
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "τ²-bench writes its simulation files as `.json`, lower case"
)]
fn takes(g: &Group, path: &str) -> bool {
    match g.format {
        FolderFormat::Tau3Results => {
            let rel = g.relative(path);
            rel == "results.json"
                || rel
                    .strip_prefix("simulations/")
                    .is_some_and(|n| !n.contains('/') && is_json(n))
        }
        FolderFormat::HarborJob | FolderFormat::HarborTrial => true,
    }
}

/// Whether a file name ends in `.json` (any case).
fn is_json(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// (folder, file name) of a relative path.
fn split(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

fn depth(dir: &str) -> usize {
    if dir.is_empty() {
        0
    } else {
        dir.matches('/').count() + 1
    }
}

/// Whether folder `dir` is `root` or under it.
fn under(dir: &str, root: &str) -> bool {
    root.is_empty()
        || dir == root
        || dir
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn a_tau3_directory_takes_its_results_and_simulations_only() {
        let p = plan(&paths(&[
            "run/results.json",
            "run/simulations/a.json",
            "run/simulations/b.json",
            "run/notes.md",
            "other.jsonl",
        ]));
        assert_eq!(
            p.groups,
            vec![Group {
                format: FolderFormat::Tau3Results,
                root: "run".into(),
                members: paths(&[
                    "run/results.json",
                    "run/simulations/a.json",
                    "run/simulations/b.json"
                ]),
            }]
        );
        assert_eq!(p.files, paths(&["other.jsonl", "run/notes.md"]));
    }

    #[test]
    fn a_harbor_job_takes_its_trials_and_a_lone_trial_is_its_own_group() {
        let p = plan(&paths(&[
            "jobs/j1/config.json",
            "jobs/j1/result.json",
            "jobs/j1/t1/result.json",
            "jobs/j1/t1/agent/trajectory.json",
            "jobs/j1/t2/result.json",
            "jobs/j1/t2/verifier/reward.txt",
            "trial/result.json",
            "trial/agent/trajectory.json",
            "results.json",
        ]));
        assert_eq!(p.groups.len(), 2);
        assert_eq!(p.groups[0].format, FolderFormat::HarborJob);
        assert_eq!(p.groups[0].root, "jobs/j1");
        assert_eq!(p.groups[0].members.len(), 6);
        assert_eq!(p.groups[1].format, FolderFormat::HarborTrial);
        assert_eq!(p.groups[1].root, "trial");
        assert_eq!(
            p.groups[1].member("agent/trajectory.json"),
            Some("trial/agent/trajectory.json")
        );
        // `results.json` without `simulations/` is a loose file.
        assert_eq!(p.files, paths(&["results.json"]));
    }

    #[test]
    fn harbor_trials_without_agent_or_verifier_files_are_trials() {
        // An environment that never started leaves `agent/` and `verifier/`
        // empty (not listed); a multi-step trial keeps them under `steps/`.
        let p = plan(&paths(&[
            "job/config.json",
            "job/result.json",
            "job/job.log",
            "job/env-fail__AAAAAAA/config.json",
            "job/env-fail__AAAAAAA/result.json",
            "job/env-fail__AAAAAAA/trial.log",
            "job/env-fail__AAAAAAA/exception.txt",
            "job/multi__BBBBBBB/result.json",
            "job/multi__BBBBBBB/steps/one/agent/trajectory.json",
            "lone/result.json",
            "lone/exception.txt",
            "not-a-trial/result.json",
            "not-a-trial/config.json",
        ]));
        let roots: Vec<(&str, FolderFormat)> = p
            .groups
            .iter()
            .map(|g| (g.root.as_str(), g.format))
            .collect();
        assert_eq!(
            roots,
            [
                ("job", FolderFormat::HarborJob),
                ("lone", FolderFormat::HarborTrial)
            ]
        );
        assert_eq!(p.groups[0].members.len(), 9);
        assert_eq!(
            p.files,
            paths(&["not-a-trial/config.json", "not-a-trial/result.json"])
        );
    }

    #[test]
    fn the_folder_itself_can_be_the_group() {
        let p = plan(&paths(&[
            "result.json",
            "agent/trajectory.json",
            "verifier/reward.txt",
        ]));
        assert_eq!(p.groups.len(), 1);
        assert_eq!(p.groups[0].root, "");
        assert_eq!(
            p.groups[0].relative("agent/trajectory.json"),
            "agent/trajectory.json"
        );
        assert!(p.files.is_empty());
    }

    #[test]
    fn a_prefix_that_is_not_a_folder_is_not_under_it() {
        let p = plan(&paths(&[
            "run/results.json",
            "run/simulations/a.json",
            "run2/x.json",
        ]));
        assert_eq!(p.files, paths(&["run2/x.json"]));
    }
}
