//! Joining profile tables that come in several files (foundational, operation
//! and reward tables apart) on `model` (spec: formats.md, "Profiles").
//!
//! Every model of every file is kept (values it lacks in other files are
//! missing, never 0), and the join report names each model that is not in
//! every file. A family that disagrees between files, a column that two files
//! both carry, and two outcome columns are errors that name the files.

use serde::{Deserialize, Serialize};

use crate::profile::{Block, ProfileTable};

pub use crate::profile::UNKNOWN_FAMILY;

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
        pooled_macro: None,
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
