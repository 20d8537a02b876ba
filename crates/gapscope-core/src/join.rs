//! Joining profile tables that come in several files (foundational, operation
//! and reward tables apart) on `model` (spec: formats.md, "Profiles").
//!
//! Every model of every file is kept (values it lacks in other files are
//! missing, never 0), and the join report names each model that is not in
//! every file. A family that disagrees between files, a column that two files
//! both carry, and two outcome columns are errors that name the files.

use serde::{Deserialize, Serialize};

use crate::profile::{Block, ProfileTable};

/// The family of a model whose file names none (e.g. trajectories without a
/// `family` field); in a join it takes the family another file gives.
pub const UNKNOWN_FAMILY: &str = "unknown";

/// What the join did, for the reader.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JoinReport {
    /// File names, in order.
    pub files: Vec<String>,
    /// Models present in every file.
    pub joined: usize,
    /// For each file, the models it lacks (they are kept with missing values).
    pub missing_from: Vec<(String, Vec<String>)>,
    /// What reading the files said (e.g. trajectory lines skipped).
    #[serde(default)]
    pub notes: Vec<String>,
}

impl JoinReport {
    /// One sentence per problem, empty when every model is in every file.
    pub fn sentences(&self) -> Vec<String> {
        let mut out = self.notes.clone();
        out.extend(
            self.missing_from
                .iter()
                .filter(|(_, m)| !m.is_empty())
                .map(|(f, m)| {
                    format!(
                        "not in {f}: {} (kept, with its values from {f} missing)",
                        m.join(", ")
                    )
                }),
        );
        out
    }
}

/// Why files could not be joined.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum JoinError {
    #[error("no files to join")]
    Empty,
    #[error("model `{model}` is in family `{a}` in {file_a} but `{b}` in {file_b}")]
    FamilyConflict {
        model: String,
        a: String,
        file_a: String,
        b: String,
        file_b: String,
    },
    #[error("column `{column}` is in both {file_a} and {file_b}: keep it in one file")]
    ColumnConflict {
        column: String,
        file_a: String,
        file_b: String,
    },
    #[error("both {file_a} (`{col_a}`) and {file_b} (`{col_b}`) have an outcome column: keep one")]
    OutcomeConflict {
        file_a: String,
        col_a: String,
        file_b: String,
        col_b: String,
    },
}

/// Why profile files could not be read into one table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReadError {
    #[error("{file}: {source}")]
    File {
        file: String,
        source: crate::profile::ProfileError,
    },
    #[error(transparent)]
    Join(#[from] JoinError),
    #[error("roles of the joined table: {0}")]
    Roles(crate::profile::ProfileError),
    #[error("{file}: {message}")]
    Trajectories { file: String, message: String },
}

/// Read one or more profile files (name, text) into one table: each file is
/// read with the default roles, the tables are joined on `model`, and the
/// user's roles (`overrides`) then apply to the joined columns. With one file
/// the roles apply directly (so its ignored columns can be assigned too).
pub fn read_profiles(
    files: &[(String, String)],
    overrides: &crate::RoleOverrides,
) -> Result<(ProfileTable, JoinReport), ReadError> {
    // Trajectory files (canonical JSONL) become their operation profile first.
    let mut notes = Vec::new();
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(name, text)| -> Result<(String, String), ReadError> {
            if crate::trajectory::detect(text).is_none() {
                return Ok((name.clone(), text.clone()));
            }
            let corpus = crate::trajectory::read_any(name, text, None).map_err(|message| ReadError::Trajectories { file: name.clone(), message })?;
            let profile = crate::trajectory::operation_profile(&corpus.trajectories, &Default::default());
            notes.push(format!(
                "{name}: {} trajectories of {} model{}; operation profile from the {} on the {} tasks every model attempted{}",
                corpus.trajectories.len(),
                profile.models.len(),
                crate::profile::plural(profile.models.len()),
                profile.n_used,
                profile.tasks.len(),
                if profile.operations.is_empty() { " (no operation labels: reward only)" } else { "" }
            ));
            if !corpus.skipped.is_empty() {
                let first: Vec<String> = corpus.skipped.iter().take(3).map(|e| e.to_string()).collect();
                notes.push(format!(
                    "{name}: {} malformed line(s) skipped ({}{})",
                    corpus.skipped.len(),
                    first.join("; "),
                    if corpus.skipped.len() > 3 { "; …" } else { "" }
                ));
            }
            Ok((name.clone(), profile.to_csv()))
        })
        .collect::<Result<_, ReadError>>()?;
    let (table, mut report) = if let [(name, text)] = files.as_slice() {
        let t = ProfileTable::read(text, overrides).map_err(|source| ReadError::File {
            file: name.clone(),
            source,
        })?;
        join(&[(name.clone(), t)])?
    } else {
        let mut tables = Vec::new();
        for (name, text) in &files {
            let t =
                ProfileTable::read(text, &crate::RoleOverrides::default()).map_err(|source| {
                    ReadError::File {
                        file: name.clone(),
                        source,
                    }
                })?;
            tables.push((name.clone(), t));
        }
        let (joined, report) = join(&tables)?;
        if *overrides == crate::RoleOverrides::default() {
            (joined, report)
        } else {
            (
                ProfileTable::read(&joined.to_csv(), overrides).map_err(ReadError::Roles)?,
                report,
            )
        }
    };
    report.notes = notes;
    Ok((table, report))
}

/// Join `(file name, table)` pairs on model name.
pub fn join(files: &[(String, ProfileTable)]) -> Result<(ProfileTable, JoinReport), JoinError> {
    let (first_name, first) = files.first().ok_or(JoinError::Empty)?;
    if files.len() == 1 {
        let report = JoinReport {
            files: vec![first_name.clone()],
            joined: first.n_models(),
            missing_from: vec![(first_name.clone(), Vec::new())],
            notes: Vec::new(),
        };
        return Ok((first.clone(), report));
    }
    // Models in order of first appearance, with the family and the file it came from.
    let mut models: Vec<(String, String, usize)> = Vec::new();
    for (fi, (_, t)) in files.iter().enumerate() {
        for (m, fam) in t.models.iter().zip(&t.families) {
            match models.iter_mut().find(|(x, _, _)| x == m) {
                // `unknown` (what trajectories without a family give) defers to a named family.
                Some((_, f0, _)) if f0 != fam && f0 == UNKNOWN_FAMILY => *f0 = fam.clone(),
                Some((_, f0, _)) if f0 != fam && fam == UNKNOWN_FAMILY => {}
                Some((_, f0, fi0)) if f0 != fam => {
                    return Err(JoinError::FamilyConflict {
                        model: m.clone(),
                        a: f0.clone(),
                        file_a: files[*fi0].0.clone(),
                        b: fam.clone(),
                        file_b: files[fi].0.clone(),
                    })
                }
                Some(_) => {}
                None => models.push((m.clone(), fam.clone(), fi)),
            }
        }
    }
    // Every column once.
    let mut owner: Vec<(String, usize)> = Vec::new();
    let mut outcome: Option<(usize, String)> = None;
    for (fi, (_, t)) in files.iter().enumerate() {
        let cols = t
            .foundational
            .names
            .iter()
            .chain(&t.operations.names)
            .chain(&t.outcome_column);
        for c in cols {
            if let Some((_, f0)) = owner.iter().find(|(x, _)| x == c) {
                return Err(JoinError::ColumnConflict {
                    column: c.clone(),
                    file_a: files[*f0].0.clone(),
                    file_b: files[fi].0.clone(),
                });
            }
            owner.push((c.clone(), fi));
        }
        if let Some(col) = &t.outcome_column {
            if let Some((f0, c0)) = &outcome {
                return Err(JoinError::OutcomeConflict {
                    file_a: files[*f0].0.clone(),
                    col_a: c0.clone(),
                    file_b: files[fi].0.clone(),
                    col_b: col.clone(),
                });
            }
            outcome = Some((fi, col.clone()));
        }
    }
    let n = models.len();
    let index = |t: &ProfileTable, m: &str| t.models.iter().position(|x| x == m);
    let mut foundational = Block {
        names: Vec::new(),
        values: vec![Vec::new(); n],
    };
    let mut operations = Block {
        names: Vec::new(),
        values: vec![Vec::new(); n],
    };
    for (_, t) in files {
        for (block, src) in [
            (&mut foundational, &t.foundational),
            (&mut operations, &t.operations),
        ] {
            block.names.extend(src.names.iter().cloned());
            for (i, (m, _, _)) in models.iter().enumerate() {
                match index(t, m) {
                    Some(k) => block.values[i].extend(src.values[k].iter().copied()),
                    None => block.values[i].extend(std::iter::repeat_n(None, src.names.len())),
                }
            }
        }
    }
    let (reward, reward_scaled) = match &outcome {
        Some((fi, _)) => {
            let t = &files[*fi].1;
            let r = t.reward.as_ref();
            (
                Some(
                    models
                        .iter()
                        .map(|(m, _, _)| index(t, m).and_then(|k| r.and_then(|r| r[k])))
                        .collect(),
                ),
                t.reward_scaled,
            )
        }
        None => (None, false),
    };
    let missing_from = files
        .iter()
        .map(|(f, t)| {
            let absent = models
                .iter()
                .filter(|(m, _, _)| index(t, m).is_none())
                .map(|(m, _, _)| m.clone())
                .collect();
            (f.clone(), absent)
        })
        .collect::<Vec<(String, Vec<String>)>>();
    let joined = models
        .iter()
        .filter(|(m, _, _)| files.iter().all(|(_, t)| index(t, m).is_some()))
        .count();
    let table = ProfileTable {
        models: models.iter().map(|(m, _, _)| m.clone()).collect(),
        families: models.iter().map(|(_, f, _)| f.clone()).collect(),
        foundational,
        operations,
        reward,
        outcome_column: outcome.map(|(_, c)| c),
        reward_scaled,
        ignored: files
            .iter()
            .flat_map(|(_, t)| t.ignored.iter().cloned())
            .collect(),
    };
    Ok((
        table,
        JoinReport {
            files: files.iter().map(|(f, _)| f.clone()).collect(),
            joined,
            missing_from,
            notes: Vec::new(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> ProfileTable {
        ProfileTable::read(s, &Default::default()).unwrap()
    }

    #[test]
    fn joins_on_model_and_reports_who_is_missing() {
        let f = read("model,family,TU,RE\na,A,1,2\nb,B,3,4\nc,C,5,6\n");
        let o = read("model,family,GI,PL\nb,B,7,8\na,A,9,10\nd,D,11,12\n");
        let y = read("model,family,reward\na,A,0.5\nb,B,0.25\n");
        let (t, r) = join(&[
            ("f.csv".into(), f),
            ("o.csv".into(), o),
            ("y.csv".into(), y),
        ])
        .unwrap();
        assert_eq!(t.models, ["a", "b", "c", "d"]);
        assert_eq!(t.families, ["A", "B", "C", "D"]);
        assert_eq!(t.foundational.names, ["TU", "RE"]);
        assert_eq!(t.operations.values[0], vec![Some(9.0), Some(10.0)]);
        assert_eq!(
            t.operations.values[2],
            vec![None, None],
            "c has no operation file row"
        );
        assert_eq!(t.foundational.values[3], vec![None, None]);
        assert_eq!(t.reward, Some(vec![Some(50.0), Some(25.0), None, None]));
        assert_eq!(r.joined, 2);
        assert_eq!(
            r.sentences(),
            [
                "not in f.csv: d (kept, with its values from f.csv missing)",
                "not in o.csv: c (kept, with its values from o.csv missing)",
                "not in y.csv: c, d (kept, with its values from y.csv missing)"
            ]
        );
    }

    #[test]
    fn conflicts_name_the_files() {
        let a = read("model,family,TU\nm,A,1\n");
        let b = read("model,family,GI\nm,B,2\n");
        let e = join(&[("a.csv".into(), a.clone()), ("b.csv".into(), b)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "model `m` is in family `A` in a.csv but `B` in b.csv"
        );
        let c = read("model,family,TU\nm,A,3\n");
        let e = join(&[("a.csv".into(), a), ("c.csv".into(), c)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "column `TU` is in both a.csv and c.csv: keep it in one file"
        );
    }
}
