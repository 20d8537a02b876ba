//! Profile tables in long form: one row per (model, dimension) score,
//! `model[,family],dimension,score`, pivoted to the wide table's
//! [`RawTable`] (one row per model, one column per dimension, both in order
//! of first appearance), which then takes roles like any wide table.
//!
//! A CSV is a long table when its header is exactly `model`, `dimension`
//! (or `benchmark`) and `score`, with or without `family` (names trimmed,
//! case-insensitive, in any order), or when the user names the columns
//! ([`LongColumns`]; other columns are then not read, and said so). A
//! (model, dimension) pair with no row, or with an empty score, is a missing
//! cell; a score parses as a wide cell does, and a bad one is located by the
//! long table's line. A repeated pair, or a model in two families, is refused
//! naming both lines. Without a family column every model is in family
//! `unknown` ([`UNKNOWN_FAMILY`]), and [`Pivot::sentences`]
//! warns what that does to hold-out by family.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{
    csv_error, csv_unsafe, header_names, parse_cell, plural, suggested_role, LineOf, Location,
    ProfileError, RawCell, RawColumn, RawTable, MAX_CSV_COLUMNS, MAX_NAME_BYTES, UNKNOWN_FAMILY,
};

/// The most cells (models × dimensions) a long table pivots to: five times
/// the largest wide table measured (docs/limits.md, 5,000 × 200); a table of
/// a few rows naming many models and many dimensions cannot ask for more.
pub const MAX_LONG_CELLS: usize = 5_000_000;

/// The names a header's dimension column is recognised by.
pub const DIMENSION_NAMES: [&str; 2] = ["dimension", "benchmark"];

/// The columns of a long table, named by the user (`--long
/// model=M,dimension=D,score=S[,family=F]`). Names match the header
/// trimmed and case-insensitively, as `model` and `family` of a wide table
/// do. Without `family`, a column named `family` is used when there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongColumns {
    pub model: String,
    pub dimension: String,
    pub score: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
}

impl Default for LongColumns {
    fn default() -> Self {
        LongColumns {
            model: "model".into(),
            dimension: "dimension".into(),
            score: "score".into(),
            family: None,
        }
    }
}

/// What is wrong with a `--long` specification; items count from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LongSpecError {
    #[error("nothing given: expected model=COLUMN,dimension=COLUMN,score=COLUMN[,family=COLUMN]")]
    Empty,
    #[error(
        "item {index} (`{item}`): expected KEY=COLUMN, KEY one of model, dimension, score, family"
    )]
    NotAPair { index: usize, item: String },
    #[error("item {index} (`{item}`): unknown key `{key}`; the keys are model, dimension, score and family")]
    UnknownKey {
        index: usize,
        item: String,
        key: String,
    },
    #[error("item {index} (`{item}`): the column name is empty")]
    EmptyColumn { index: usize, item: String },
    #[error("item {index}: the column name is {bytes} bytes long; names are at most {MAX_NAME_BYTES} bytes")]
    TooLong { index: usize, bytes: usize },
    #[error("item {index} (`{item}`): `{key}` was already given in item {first}")]
    RepeatedKey {
        index: usize,
        item: String,
        key: &'static str,
        first: usize,
    },
    #[error("column `{column}` is named as both the {a} and the {b} column")]
    SameColumn {
        column: String,
        a: &'static str,
        b: &'static str,
    },
}

impl LongColumns {
    /// Parse `model=M,dimension=D,score=S[,family=F]`: keys in any order,
    /// each at most once; a key left out keeps its default name (`model`,
    /// `dimension`, `score`; no family column named). Column names cannot
    /// hold a comma.
    pub fn parse(spec: &str) -> Result<Self, LongSpecError> {
        if spec.trim().is_empty() {
            return Err(LongSpecError::Empty);
        }
        let mut out = LongColumns::default();
        let mut given: [Option<usize>; 4] = [None; 4];
        for (k, raw) in spec.split(',').enumerate() {
            let index = k + 1;
            let item = raw.trim().to_string();
            let Some((key, column)) = item.split_once('=') else {
                return Err(LongSpecError::NotAPair { index, item });
            };
            let (slot, key) = match key.trim().to_ascii_lowercase().as_str() {
                "model" => (0, "model"),
                "dimension" => (1, "dimension"),
                "score" => (2, "score"),
                "family" => (3, "family"),
                _ => {
                    let key = key.trim().to_string();
                    return Err(LongSpecError::UnknownKey { index, item, key });
                }
            };
            let column = column.trim().to_string();
            if column.is_empty() {
                return Err(LongSpecError::EmptyColumn { index, item });
            }
            if column.len() > MAX_NAME_BYTES {
                let bytes = column.len();
                return Err(LongSpecError::TooLong { index, bytes });
            }
            if let Some(first) = given[slot] {
                return Err(LongSpecError::RepeatedKey {
                    index,
                    item,
                    key,
                    first,
                });
            }
            given[slot] = Some(index);
            match slot {
                0 => out.model = column,
                1 => out.dimension = column,
                2 => out.score = column,
                _ => out.family = Some(column),
            }
        }
        out.check()?;
        Ok(out)
    }

    /// No column named for two roles (case-insensitively, as they match).
    pub fn check(&self) -> Result<(), LongSpecError> {
        let named = self.named();
        for (i, (a, x)) in named.iter().enumerate() {
            if let Some((b, _)) = named[i + 1..]
                .iter()
                .find(|(_, y)| x.eq_ignore_ascii_case(y))
            {
                return Err(LongSpecError::SameColumn {
                    column: (*x).to_string(),
                    a,
                    b,
                });
            }
        }
        Ok(())
    }

    /// The roles and the columns named for them, in the flag's order.
    fn named(&self) -> Vec<(&'static str, &str)> {
        let mut v = vec![
            ("model", self.model.as_str()),
            ("dimension", self.dimension.as_str()),
            ("score", self.score.as_str()),
        ];
        if let Some(f) = &self.family {
            v.push(("family", f.as_str()));
        }
        v
    }

    /// Whether the header of `text` (a CSV) has this table's dimension and
    /// score columns: which of several profile files the names are for.
    pub fn fits(&self, text: &str) -> bool {
        header(text).is_some_and(|(h, _)| {
            [&self.dimension, &self.score]
                .iter()
                .all(|c| h.iter().any(|n| n.eq_ignore_ascii_case(c)))
        })
    }
}

impl fmt::Display for LongColumns {
    /// The `--long` text that parses back to these columns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "model={},dimension={},score={}",
            self.model, self.dimension, self.score
        )?;
        if let Some(fam) = &self.family {
            write!(f, ",family={fam}")?;
        }
        Ok(())
    }
}

/// What pivoting a long table did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pivot {
    /// Data rows read (blank lines and comments aside).
    pub rows: usize,
    pub models: usize,
    pub dimensions: usize,
    /// Cells of the models × dimensions table with no score: no row, or an
    /// empty (or `NA`) score.
    pub empty: usize,
    /// The family column's name; `None`: every model is in `unknown`.
    pub family_column: Option<String>,
    /// Columns of the file that are not the long table's (only when the
    /// user named the columns), in file order.
    pub not_read: Vec<String>,
}

impl Pivot {
    /// The sentences the CLI prints and the page shows for file `name`: the
    /// pivot, and the warning of a table without families.
    pub fn sentences(&self, name: &str) -> Vec<String> {
        let (m, k) = (self.models, self.dimensions);
        let mut s = format!(
            "long table {name}: {} row{} pivoted to {m} model{} × {k} dimension{}",
            self.rows,
            plural(self.rows),
            plural(m),
            plural(k),
        );
        if self.empty > 0 {
            s.push_str(&format!(
                " ({} of the {} cells have no score: missing)",
                self.empty,
                m * k
            ));
        }
        if !self.not_read.is_empty() {
            s.push_str(&format!("; columns not read: {}", self.not_read.join(", ")));
        }
        let mut out = vec![s];
        if self.family_column.is_none() {
            out.push(format!(
                "long table {name} has no family column: its {m} model{} are in family \
                 `{UNKNOWN_FAMILY}` (a file joined with it may name their families); with one \
                 family the analysis holds out one model at a time (leave-one-model-out) instead \
                 of one family at a time, and the bootstrap resamples models",
                plural(m)
            ));
        }
        out
    }
}

/// The header of a CSV text as the readers take its names, and its line;
/// `None` when the text is JSON or its header does not read.
fn header(text: &str) -> Option<(Vec<String>, u64)> {
    let body = text.trim_start_matches('\u{feff}');
    if body.trim_start().starts_with(['{', '[']) {
        return None;
    }
    let mut reader = reader(body);
    let record = reader.headers().ok()?.clone();
    let line = LineOf::new(body, true).at(record.position().map_or(0, csv::Position::byte));
    Some((header_names(&record, line).ok()?, line))
}

fn reader(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes())
}

/// The header's columns of the long table.
struct Columns {
    model: usize,
    family: Option<usize>,
    dimension: usize,
    score: usize,
}

/// The long table's columns in `headers`: by the user's names (each must be
/// there), else by the header's own names (`None`: not a long table).
fn columns(
    headers: &[String],
    line: u64,
    spec: Option<&LongColumns>,
) -> Result<Option<Columns>, ProfileError> {
    let find = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let Some(spec) = spec else {
        let (Some(model), Some(score)) = (find("model"), find("score")) else {
            return Ok(None);
        };
        let Some(dimension) = DIMENSION_NAMES.iter().find_map(|d| find(d)) else {
            return Ok(None);
        };
        let family = find("family");
        if headers.len() != 3 + usize::from(family.is_some()) {
            return Ok(None);
        }
        return Ok(Some(Columns {
            model,
            family,
            dimension,
            score,
        }));
    };
    if let Err(LongSpecError::SameColumn { column, .. }) = spec.check() {
        return Err(ProfileError::ConflictingRoles(column));
    }
    let need = |name: &str, role: &'static str| {
        find(name).ok_or_else(|| ProfileError::LongColumnMissing {
            line: line.max(1),
            column: name.to_string(),
            role,
            found: headers.join(","),
        })
    };
    Ok(Some(Columns {
        model: need(&spec.model, "model")?,
        dimension: need(&spec.dimension, "dimension")?,
        score: need(&spec.score, "score")?,
        family: match &spec.family {
            Some(f) => Some(need(f, "family")?),
            // `family`, unless it is named for another role.
            None => find("family").filter(|_| {
                !spec
                    .named()
                    .iter()
                    .any(|(_, c)| c.eq_ignore_ascii_case("family"))
            }),
        },
    }))
}

/// One row of the long table, indexed.
struct Entry {
    model: usize,
    dimension: usize,
    cell: RawCell,
    line: u64,
}

/// The pivot as it is built, row by row.
#[derive(Default)]
struct Builder {
    models: Vec<String>,
    families: Vec<String>,
    /// Each model's first line.
    first_line: Vec<u64>,
    model_index: HashMap<String, usize>,
    dimensions: Vec<String>,
    dimension_index: HashMap<String, usize>,
    /// The line of each (model, dimension) pair given.
    pairs: HashMap<(usize, usize), u64>,
    entries: Vec<Entry>,
}

/// A name of a row: trimmed, formula quote undone, not empty or too long.
fn name_of(
    record: &csv::StringRecord,
    col: usize,
    headers: &[String],
    line: u64,
) -> Result<String, ProfileError> {
    let name = csv_unsafe(record[col].trim()).trim().to_string();
    let at = Location::Line(line);
    if name.is_empty() {
        return Err(ProfileError::EmptyField {
            at,
            column: headers[col].clone(),
        });
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(ProfileError::NameTooLong {
            at,
            column: headers[col].clone(),
            what: "field",
            bytes: name.len(),
        });
    }
    Ok(name)
}

impl Builder {
    fn cells_check(&self, line: u64) -> Result<(), ProfileError> {
        let (m, k) = (self.models.len(), self.dimensions.len());
        if m.saturating_mul(k) > MAX_LONG_CELLS {
            return Err(ProfileError::Syntax {
                at: Location::Line(line),
                message: format!(
                    "the pivoted table would have {m} models × {k} dimensions = {} cells; at most {MAX_LONG_CELLS} are read",
                    m.saturating_mul(k)
                ),
            });
        }
        Ok(())
    }

    fn model(&mut self, model: String, family: String, line: u64) -> Result<usize, ProfileError> {
        if let Some(&i) = self.model_index.get(&model) {
            if self.families[i] != family {
                return Err(ProfileError::ModelInTwoFamilies {
                    at: Location::Line(line),
                    model,
                    first: Location::Line(self.first_line[i]),
                    families: Box::new([self.families[i].clone(), family]),
                });
            }
            return Ok(i);
        }
        let i = self.models.len();
        self.model_index.insert(model.clone(), i);
        self.models.push(model);
        self.families.push(family);
        self.first_line.push(line);
        self.cells_check(line)?;
        Ok(i)
    }

    fn dimension(&mut self, name: String, line: u64) -> Result<usize, ProfileError> {
        if let Some(&k) = self.dimension_index.get(&name) {
            return Ok(k);
        }
        let bad = |message: String| ProfileError::Syntax {
            at: Location::Line(line),
            message,
        };
        if ["model", "family"]
            .iter()
            .any(|r| name.eq_ignore_ascii_case(r))
        {
            return Err(bad(format!(
                "`{name}` cannot name a dimension (the wide table has a `{}` column)",
                name.to_ascii_lowercase()
            )));
        }
        if self.dimensions.len() >= MAX_CSV_COLUMNS {
            return Err(bad(format!(
                "`{name}` would be dimension {}; at most {MAX_CSV_COLUMNS} are read",
                self.dimensions.len() + 1
            )));
        }
        let k = self.dimensions.len();
        self.dimension_index.insert(name.clone(), k);
        self.dimensions.push(name);
        self.cells_check(line)?;
        Ok(k)
    }

    fn finish(
        self,
        rows: usize,
        family_column: Option<String>,
        not_read: Vec<String>,
    ) -> (RawTable, Pivot) {
        let n = self.models.len();
        let mut columns: Vec<RawColumn> = self
            .dimensions
            .iter()
            .map(|d| RawColumn {
                name: d.clone(),
                suggested: suggested_role(d),
                cells: vec![RawCell::Missing; n],
                lines: Some(self.first_line.clone()),
            })
            .collect();
        for e in self.entries {
            let col = &mut columns[e.dimension];
            col.cells[e.model] = e.cell;
            if let Some(lines) = col.lines.as_mut() {
                lines[e.model] = e.line;
            }
        }
        let empty = columns
            .iter()
            .map(|c| c.cells.iter().filter(|x| **x == RawCell::Missing).count())
            .sum();
        let pivot = Pivot {
            rows,
            models: n,
            dimensions: columns.len(),
            empty,
            family_column,
            not_read,
        };
        let table = RawTable {
            models: self.models,
            families: self.families,
            locations: self.first_line.into_iter().map(Location::Line).collect(),
            columns,
        };
        (table, pivot)
    }
}

/// Read `text` (a CSV, byte-order mark already off) as a long table: by the
/// user's column names (`spec`), else when its header is a long table's;
/// `Ok(None)` when it is not one (read it as a wide table).
pub(super) fn parse(
    text: &str,
    spec: Option<&LongColumns>,
) -> Result<Option<(RawTable, Pivot)>, ProfileError> {
    let mut reader = reader(text);
    let mut lines = LineOf::new(text, true);
    let header_record = reader.headers().map_err(|e| csv_error(e, 1))?.clone();
    let header_line = lines.at(header_record.position().map_or(0, csv::Position::byte));
    let headers = header_names(&header_record, header_line)?;
    let Some(cols) = columns(&headers, header_line, spec)? else {
        return Ok(None);
    };
    let mut b = Builder::default();
    let mut rows = 0;
    let mut record = csv::StringRecord::new();
    loop {
        let byte_guess = reader.position().byte();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = lines.at(e.position().map_or(byte_guess, csv::Position::byte));
                return Err(csv_error(e, line));
            }
        }
        let line = lines.at(record.position().map_or(byte_guess, csv::Position::byte));
        if record.iter().all(|f| f.trim().is_empty()) {
            continue; // a blank line of separators only carries nothing
        }
        rows += 1;
        let model = name_of(&record, cols.model, &headers, line)?;
        let family = match cols.family {
            Some(c) => name_of(&record, c, &headers, line)?,
            None => UNKNOWN_FAMILY.to_string(),
        };
        let dimension_name = name_of(&record, cols.dimension, &headers, line)?;
        let m = b.model(model, family, line)?;
        let d = b.dimension(dimension_name, line)?;
        if let Some(&first) = b.pairs.get(&(m, d)) {
            return Err(ProfileError::DuplicatePair {
                at: Location::Line(line),
                model: b.models[m].clone(),
                dimension: b.dimensions[d].clone(),
                first: Location::Line(first),
            });
        }
        b.pairs.insert((m, d), line);
        b.entries.push(Entry {
            model: m,
            dimension: d,
            cell: parse_cell(&record[cols.score]),
            line,
        });
    }
    let used = [
        Some(cols.model),
        cols.family,
        Some(cols.dimension),
        Some(cols.score),
    ];
    let not_read = (0..headers.len())
        .filter(|c| !used.contains(&Some(*c)))
        .map(|c| headers[c].clone())
        .collect();
    let family_column = cols.family.map(|c| headers[c].clone());
    Ok(Some(b.finish(rows, family_column, not_read)))
}

/// The long-table columns each of `files` is read with: `long` for each of
/// the user's profile files (the first `n_user`) whose header has its
/// dimension and score columns — for the first of them when none has, so
/// that its error names the missing column — and none for the others (the
/// operation profile of trajectories).
pub fn columns_for_files<'a>(
    files: &[(String, String)],
    n_user: usize,
    long: Option<&'a LongColumns>,
) -> Vec<Option<&'a LongColumns>> {
    let Some(spec) = long else {
        return vec![None; files.len()];
    };
    let mut out: Vec<Option<&LongColumns>> = files
        .iter()
        .enumerate()
        .map(|(k, (_, text))| (k < n_user && spec.fits(text)).then_some(spec))
        .collect();
    if n_user > 0 && out.iter().all(Option::is_none) {
        out[0] = Some(spec);
    }
    out
}
