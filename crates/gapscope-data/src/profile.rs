//! The profile table (models × foundational dimensions, operations and reward)
//! and its readers: wide CSV and the JSON form of `spec/formats.md`.
//!
//! Both readers produce a [`RawTable`] (every column with the role its name or
//! its place in the JSON suggests); [`RawTable::resolve`] then assigns roles,
//! applying the user's [`RoleOverrides`], and checks every cell of every column
//! that takes part. Errors carry the location (line, or JSON model index) and
//! the column; the file name is added by the caller, who knows it.
//!
//! A CSV in long form (`model[,family],dimension,score`, or columns the user
//! names in [`RoleOverrides::long`]) is pivoted to the same [`RawTable`] by
//! [`long`], which says what it did in a [`long::Pivot`].

pub mod long;

use std::fmt;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// The largest magnitude of a value the analysis takes: sums of squares of
/// values up to 1e100 stay far inside double precision (≈ 1.8e308).
pub const MAX_MAGNITUDE: f64 = 1e100;

/// Default foundational dimensions, in the spec's order.
pub const DEFAULT_FOUNDATIONAL: [&str; 7] = ["TU", "IS", "KU", "CI", "RE", "SM", "CE"];
/// Default operations, in the spec's order.
pub const DEFAULT_OPERATIONS: [&str; 7] = ["GI", "ST", "PL", "AS", "PM", "RC", "TM"];
/// Default name of the outcome column.
pub const DEFAULT_OUTCOME: &str = "reward";
/// Cell texts read as a missing value, besides the empty cell (case-insensitive).
pub const MISSING_MARKERS: [&str; 3] = ["NA", "N/A", "null"];
/// The most columns a CSV file (profile table, label CSV) may have (docs/limits.md).
pub const MAX_CSV_COLUMNS: usize = 10_000;
/// The longest name (model, family, column, operation, id) in bytes: 4 KiB.
pub const MAX_NAME_BYTES: usize = 4096;
/// The family of a model whose file names none (trajectories without a
/// `family` field, a long table without a family column); in a join it takes
/// the family another file gives ([`crate::join`]).
pub const UNKNOWN_FAMILY: &str = "unknown";

/// The role of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Foundational,
    Operation,
    Outcome,
    Ignore,
}

/// Where in a file a row came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Location {
    /// A 1-based line of a text file.
    Line(u64),
    /// The i-th (0-based) entry of the JSON `models` array.
    JsonModel(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(l) => write!(f, "line {l}"),
            Location::JsonModel(i) => write!(f, "models[{i}]"),
        }
    }
}

/// Everything that can be wrong with a profile file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProfileError {
    #[error("the file is empty")]
    Empty,
    #[error("the header has no `{column}` column (expected a header like `model,family,TU,…`; found: {found})")]
    MissingColumn { column: String, found: String },
    #[error("line 1: column `{0}` appears more than once in the header")]
    DuplicateColumn(String),
    #[error("line 1: column {0} has an empty name")]
    EmptyColumnName(usize),
    #[error("{at}: {message}")]
    Syntax { at: Location, message: String },
    #[error("{at}, column `{column}`: expected a number (or an empty cell for a missing value), found `{value}`")]
    NotANumber {
        at: Location,
        column: String,
        value: String,
    },
    #[error("{at}, column `{column}`: `{value}` is not a finite number; leave the cell empty for a missing value")]
    NotFinite {
        at: Location,
        column: String,
        value: String,
    },
    #[error("{at}: the `{column}` field is empty")]
    EmptyField { at: Location, column: String },
    #[error("{at}: model `{model}` appears again (first at {first})")]
    DuplicateModel {
        at: Location,
        model: String,
        first: Location,
    },
    #[error("{at}: model `{model}` appears again, in family `{}` (first at {first}, in family `{}`): a model belongs to one family", .families[1], .families[0])]
    ModelInTwoFamilies {
        at: Location,
        model: String,
        first: Location,
        /// The family at `first`, then the family at `at`.
        families: Box<[String; 2]>,
    },
    #[error("no model rows: the file has a header but no data")]
    NoModels,
    #[error("{at}: model `{model}` has a second `{dimension}` score (first at {first}): a long table gives one row per model and dimension")]
    DuplicatePair {
        at: Location,
        model: String,
        dimension: String,
        first: Location,
    },
    #[error("line {line}: the header has no `{column}` column (named as the long table's {role} column); it has: {found}")]
    LongColumnMissing {
        line: u64,
        column: String,
        role: &'static str,
        found: String,
    },
    #[error("column `{column}` (given as {role}) is not in the file; it has: {found}")]
    UnknownColumn {
        column: String,
        role: String,
        found: String,
    },
    #[error("column `{0}` is given more than one role")]
    ConflictingRoles(String),
    #[error("not a profile file: {0}")]
    UnknownFormat(String),
    #[error("line {line}: the header has {columns} columns; at most {MAX_CSV_COLUMNS} are read")]
    TooManyColumns { line: u64, columns: usize },
    #[error("{at}: the `{column}` {what} is {bytes} bytes long; names are at most {MAX_NAME_BYTES} bytes (4 KiB)")]
    NameTooLong {
        at: Location,
        column: String,
        what: &'static str,
        bytes: usize,
    },
}

/// A numeric block: named columns, one row of optional values per model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub names: Vec<String>,
    /// `values[model][column]`; `None` is missing.
    pub values: Vec<Vec<Option<f64>>>,
}

impl Block {
    /// The values of column `j` across models.
    pub fn column(&self, j: usize) -> Vec<Option<f64>> {
        self.values.iter().map(|row| row[j]).collect()
    }
}

/// How reward values are scaled to 0–100.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RewardScale {
    /// Fractions when every present value lies in [0, 1], else percent.
    #[default]
    Auto,
    /// Values are fractions: multiply by 100.
    Fraction,
    /// Values are already 0–100.
    Percent,
}

/// The user's role assignments; `None` keeps the default for that role.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoleOverrides {
    pub foundational: Option<Vec<String>>,
    pub operations: Option<Vec<String>>,
    pub outcome: Option<String>,
    /// No outcome at all, even if a column is named `reward`.
    #[serde(default)]
    pub no_outcome: bool,
    #[serde(default)]
    pub reward_scale: RewardScale,
    /// Read CSV profile files as long tables with these columns (a header
    /// `model[,family],dimension,score` is recognised without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long: Option<long::LongColumns>,
}

/// How the overall (macro) operation score of a model is formed: from a
/// profile table's operation scores, or from labelled trajectories.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MacroDefinition {
    /// The unweighted mean of the model's operation scores (the spec's default).
    #[default]
    Mean,
    /// 100 × mean over the model's trajectories of the mean of all their
    /// applicable labels: needs operation scores from labelled trajectories.
    Pooled,
}

impl MacroDefinition {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "mean" => Some(MacroDefinition::Mean),
            "pooled" => Some(MacroDefinition::Pooled),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MacroDefinition::Mean => "mean",
            MacroDefinition::Pooled => "pooled",
        }
    }
}

/// A profile table ready for analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileTable {
    pub models: Vec<String>,
    pub families: Vec<String>,
    pub foundational: Block,
    pub operations: Block,
    /// Outcome on 0–100, when an outcome column was read.
    pub reward: Option<Vec<Option<f64>>>,
    /// The outcome column's name in the file.
    pub outcome_column: Option<String>,
    /// Whether the reward was read as fractions and multiplied by 100.
    pub reward_scaled: bool,
    /// Columns present but not used, in file order.
    pub ignored: Vec<String>,
    /// The pooled macro operation score per model, when the operation scores
    /// came from labelled trajectories (realization-gaps.md, "macro", option
    /// `pooled`); profile files cannot carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pooled_macro: Option<Vec<Option<f64>>>,
}

impl ProfileTable {
    pub fn n_models(&self) -> usize {
        self.models.len()
    }

    /// Distinct family names in order of first appearance.
    pub fn distinct_families(&self) -> Vec<&String> {
        gapscope_stats::heldout::reference::distinct_in_order(&self.families)
    }

    /// The one-sentence description of what was read, e.g.
    /// "15 models in 8 families, 7 foundational dimensions, 7 operations, reward".
    pub fn summary(&self) -> String {
        let n = self.n_models();
        let g = self.distinct_families().len();
        let mut s = format!(
            "{n} model{} in {g} famil{}, {} foundational dimension{}, {} operation{}",
            plural(n),
            if g == 1 { "y" } else { "ies" },
            self.foundational.names.len(),
            plural(self.foundational.names.len()),
            self.operations.names.len(),
            plural(self.operations.names.len()),
        );
        if let Some(col) = &self.outcome_column {
            if col == DEFAULT_OUTCOME {
                s.push_str(", reward");
            } else {
                s.push_str(&format!(", reward (column `{col}`)"));
            }
            if self.reward_scaled {
                s.push_str(" read as fractions and multiplied by 100");
            }
        }
        if !self.ignored.is_empty() {
            s.push_str(&format!("; ignored: {}", self.ignored.join(", ")));
        }
        s
    }

    /// Read a profile file, choosing CSV or JSON by its first non-blank character.
    pub fn read(text: &str, overrides: &RoleOverrides) -> Result<Self, ProfileError> {
        Self::read_reporting(text, overrides).map(|(t, _)| t)
    }

    /// [`ProfileTable::read`], with the pivot when the file is a long table
    /// (by its header, or by `overrides.long`).
    pub fn read_reporting(
        text: &str,
        overrides: &RoleOverrides,
    ) -> Result<(Self, Option<long::Pivot>), ProfileError> {
        let (raw, pivot) = RawTable::parse_reporting(text, overrides.long.as_ref())?;
        Ok((raw.resolve(overrides)?, pivot))
    }

    /// Serialize as the wide CSV of `spec/formats.md` (one decimal is not
    /// imposed: values are written with Rust's shortest round-trip format).
    pub fn to_csv(&self) -> String {
        let mut header = vec!["model".to_string(), "family".to_string()];
        header.extend(self.foundational.names.iter().cloned());
        header.extend(self.operations.names.iter().cloned());
        if let Some(col) = &self.outcome_column {
            header.push(col.clone());
        }
        let header: Vec<String> = header.iter().map(|h| csv_field(h)).collect();
        let mut out = header.join(",");
        out.push('\n');
        let cell = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
        for i in 0..self.n_models() {
            let mut row = vec![csv_field(&self.models[i]), csv_field(&self.families[i])];
            row.extend(self.foundational.values[i].iter().map(|v| cell(*v)));
            row.extend(self.operations.values[i].iter().map(|v| cell(*v)));
            if let Some(r) = &self.reward {
                let v = if self.reward_scaled {
                    r[i].map(|x| x / 100.0)
                } else {
                    r[i]
                };
                row.push(cell(v));
            }
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }
}

/// A CSV field for export: [`csv_safe`] (the one writer of CSV cells).
pub fn csv_field(s: &str) -> String {
    csv_safe(s)
}

/// The characters that make a spreadsheet read a cell as a formula (OWASP,
/// "CSV Injection"): `=`, `+`, `-`, `@`, tab and carriage return.
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether a cell is a plain number (`-1.5`, `+2`, `1e-3`): such cells are
/// written as they are, a spreadsheet reads them as numbers, not formulas.
fn plain_number(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    body.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
        && s.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Whether a text cell would be read by a spreadsheet as a formula, once any
/// leading single quotes are put aside (so that neutralising can be undone
/// exactly: see [`csv_unsafe`]).
fn needs_quote_prefix(s: &str) -> bool {
    let rest = s.trim_start_matches('\'');
    rest.starts_with(FORMULA_START) && !plain_number(rest)
}

/// A CSV cell safe to open in a spreadsheet, quoted (RFC 4180) when needed.
/// A cell starting with `=`, `+`, `-`, `@`, tab or CR (after any leading
/// single quotes) gets one more leading `'` and is quoted, as OWASP
/// recommends, unless it is a plain number such as `-1.5`
/// (docs/decisions.md 22). The readers of gapscope ([`csv_unsafe`]) take that
/// quote off again, so `profiles` output reads back with the same names.
/// Cells that hold a comma, quote or line break, or start with `#` (a
/// comment to the reader) are quoted.
pub fn csv_safe(s: &str) -> String {
    if needs_quote_prefix(s) {
        return format!("\"'{}\"", s.replace('"', "\"\""));
    }
    if s.contains([',', '"', '\n', '\r']) || s.starts_with('#') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Undo [`csv_safe`]'s formula neutralising on a cell read back: a leading
/// `'` before what [`csv_safe`] would have neutralised is taken off (one).
pub fn csv_unsafe(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if needs_quote_prefix(rest) => rest,
        _ => s,
    }
}

/// A serde_json error's message without its " at line L column C" suffix
/// (for messages that state the location themselves).
pub fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    text.rfind(" at line ")
        .map_or(text.clone(), |k| text[..k].to_string())
}

/// "s" unless n is 1.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One cell before role assignment.
#[derive(Clone, Debug, PartialEq)]
pub enum RawCell {
    Missing,
    Number(f64),
    /// Text that is not a number (kept to report it if the column is used).
    Text(String),
}

/// A column before role assignment.
#[derive(Clone, Debug, PartialEq)]
pub struct RawColumn {
    pub name: String,
    /// The role the file itself suggests (JSON block, or a default name).
    pub suggested: Role,
    pub cells: Vec<RawCell>,
    /// A long table's: the line each cell came from (its model's first line
    /// for a cell no row gave); `None`: the model's row.
    pub lines: Option<Vec<u64>>,
}

/// A parsed file before role assignment.
#[derive(Clone, Debug, PartialEq)]
pub struct RawTable {
    pub models: Vec<String>,
    pub families: Vec<String>,
    pub locations: Vec<Location>,
    pub columns: Vec<RawColumn>,
}

fn parse_cell(text: &str) -> RawCell {
    let t = text.trim();
    if t.is_empty() || MISSING_MARKERS.iter().any(|m| t.eq_ignore_ascii_case(m)) {
        return RawCell::Missing;
    }
    match t.parse::<f64>() {
        Ok(v) => RawCell::Number(v),
        Err(_) => RawCell::Text(t.to_string()),
    }
}

fn suggested_role(name: &str) -> Role {
    if DEFAULT_FOUNDATIONAL.contains(&name) {
        Role::Foundational
    } else if DEFAULT_OPERATIONS.contains(&name) {
        Role::Operation
    } else if name.eq_ignore_ascii_case(DEFAULT_OUTCOME) {
        Role::Outcome
    } else {
        Role::Ignore
    }
}

#[derive(Deserialize)]
struct JsonFile {
    models: Vec<JsonModel>,
}

#[derive(Deserialize)]
struct JsonModel {
    model: String,
    family: String,
    #[serde(default)]
    foundational: Pairs,
    #[serde(default)]
    operations: Pairs,
    #[serde(default)]
    reward: Option<f64>,
}

/// A JSON block's `name: value` pairs in file order, repeated names kept (a
/// map would keep only the last value of a repeated name, silently).
#[derive(Default)]
struct Pairs(Vec<(String, Option<f64>)>);

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Pairs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of dimension names and numbers (or null)")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Pairs, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = m.next_entry::<String, Option<f64>>()? {
                    out.push(pair);
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The JSON key of a block.
fn block_key(role: Role) -> &'static str {
    match role {
        Role::Foundational => "foundational",
        _ => "operations",
    }
}

impl RawTable {
    /// Parse CSV (wide or long) or JSON (a file whose first non-blank
    /// character is `{`).
    pub fn parse(text: &str) -> Result<Self, ProfileError> {
        Self::parse_reporting(text, None).map(|(t, _)| t)
    }

    /// [`RawTable::parse`], with the pivot of a long table: one recognised
    /// by its header, or any CSV when `long` names its columns.
    pub fn parse_reporting(
        text: &str,
        long: Option<&long::LongColumns>,
    ) -> Result<(Self, Option<long::Pivot>), ProfileError> {
        let body = text.trim_start_matches('\u{feff}');
        match body.trim_start().chars().next() {
            None => Err(ProfileError::Empty),
            Some('{' | '[') if long.is_some() => Err(ProfileError::UnknownFormat(
                "long-table columns were named, but this file is JSON: a long table is a CSV"
                    .into(),
            )),
            Some('{') => Ok((Self::parse_json(body)?, None)),
            Some('[') => Err(ProfileError::UnknownFormat(
                "a JSON profile file is an object {\"models\": [...]}, not a bare list".into(),
            )),
            Some(_) => match long::parse(body, long)? {
                Some((table, pivot)) => Ok((table, Some(pivot))),
                None => Ok((Self::parse_csv(body)?, None)),
            },
        }
    }

    /// Parse the wide CSV form. Lines starting with `#` are comments.
    pub fn parse_csv(text: &str) -> Result<Self, ProfileError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let mut lines = LineOf::new(text, true);
        let header_record = reader.headers().map_err(|e| csv_error(e, 1))?.clone();
        let header_line = lines.at(header_record.position().map_or(0, csv::Position::byte));
        let headers = header_names(&header_record, header_line)?;
        let find = |name: &str| {
            headers
                .iter()
                .position(|h| h.eq_ignore_ascii_case(name))
                .ok_or_else(|| ProfileError::MissingColumn {
                    column: name.to_string(),
                    found: headers.join(","),
                })
        };
        let model_col = find("model")?;
        let family_col = find("family")?;
        let data_cols: Vec<usize> = (0..headers.len())
            .filter(|&c| c != model_col && c != family_col)
            .collect();
        let mut table = RawTable {
            models: Vec::new(),
            families: Vec::new(),
            locations: Vec::new(),
            columns: data_cols
                .iter()
                .map(|&c| RawColumn {
                    name: headers[c].clone(),
                    suggested: suggested_role(&headers[c]),
                    cells: Vec::new(),
                    lines: None,
                })
                .collect(),
        };
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
            let at = Location::Line(line);
            table
                .models
                .push(csv_unsafe(record[model_col].trim()).trim().to_string());
            table
                .families
                .push(csv_unsafe(record[family_col].trim()).trim().to_string());
            table.locations.push(at);
            for (k, &c) in data_cols.iter().enumerate() {
                table.columns[k].cells.push(parse_cell(&record[c]));
            }
        }
        Ok(table)
    }

    /// Parse the JSON form `{"models": [{"model", "family", "foundational": {..},
    /// "operations": {..}, "reward"}]}`.
    pub fn parse_json(text: &str) -> Result<Self, ProfileError> {
        let file: JsonFile = serde_json::from_str(text).map_err(|e| ProfileError::Syntax {
            at: Location::Line(e.line() as u64),
            message: format!("column {}: {}", e.column(), json_message(&e)),
        })?;
        let mut table = RawTable {
            models: Vec::new(),
            families: Vec::new(),
            locations: Vec::new(),
            columns: Vec::new(),
        };
        let n = file.models.len();
        // Column names follow the CSV header's rules (trimmed, not empty, not
        // `model`/`family`, each once), so that a table read from JSON writes
        // out as CSV that reads again: name -> (column, block, first model).
        let mut index: IndexMap<String, (usize, Role, usize)> = IndexMap::new();
        for (i, m) in file.models.iter().enumerate() {
            table.models.push(m.model.trim().to_string());
            table.families.push(m.family.trim().to_string());
            let at = Location::JsonModel(i);
            table.locations.push(at.clone());
            let blocks = [
                (Role::Foundational, &m.foundational),
                (Role::Operation, &m.operations),
            ];
            let mut seen: std::collections::HashSet<&str> = Default::default();
            for (role, block) in blocks {
                for (raw_name, value) in &block.0 {
                    let name = raw_name.trim();
                    let bad = |message: String| ProfileError::Syntax {
                        at: at.clone(),
                        message: format!("`{}`: {message}", block_key(role)),
                    };
                    if name.is_empty() {
                        return Err(bad("a dimension has an empty name".into()));
                    }
                    if name.len() > MAX_NAME_BYTES {
                        return Err(ProfileError::NameTooLong {
                            at: at.clone(),
                            column: block_key(role).into(),
                            what: "dimension name",
                            bytes: name.len(),
                        });
                    }
                    if ["model", "family"]
                        .iter()
                        .any(|k| name.eq_ignore_ascii_case(k))
                    {
                        return Err(bad(format!(
                            "`{name}` cannot name a dimension (it is a field of every model)"
                        )));
                    }
                    if !seen.insert(name) {
                        return Err(bad(format!("`{name}` is given more than once")));
                    }
                    let k = match index.get(name) {
                        Some(&(_, r, first)) if r != role => {
                            return Err(bad(format!(
                                "`{name}` is under `{}` in models[{first}]: a dimension belongs to one block",
                                block_key(r)
                            )))
                        }
                        Some(&(k, _, _)) => k,
                        None if table.columns.len() >= MAX_CSV_COLUMNS => {
                            return Err(bad(format!(
                                "`{name}` would be dimension {}; at most {MAX_CSV_COLUMNS} are read",
                                table.columns.len() + 1
                            )))
                        }
                        None => {
                            table.columns.push(RawColumn {
                                name: name.to_string(),
                                suggested: role,
                                cells: vec![RawCell::Missing; n],
                                lines: None,
                            });
                            index.insert(name.to_string(), (table.columns.len() - 1, role, i));
                            table.columns.len() - 1
                        }
                    };
                    table.columns[k].cells[i] = value.map_or(RawCell::Missing, RawCell::Number);
                }
            }
        }
        if let Some(i) = file.models.iter().position(|m| m.reward.is_some()) {
            if let Some((name, &(_, role, first))) = index
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(DEFAULT_OUTCOME))
            {
                return Err(ProfileError::Syntax {
                    at: Location::JsonModel(first),
                    message: format!(
                        "`{}`: `{name}` cannot name a dimension when models carry a reward (models[{i}])",
                        block_key(role)
                    ),
                });
            }
            table.columns.push(RawColumn {
                name: DEFAULT_OUTCOME.to_string(),
                suggested: Role::Outcome,
                cells: file
                    .models
                    .iter()
                    .map(|m| m.reward.map_or(RawCell::Missing, RawCell::Number))
                    .collect(),
                lines: None,
            });
        }
        Ok(table)
    }

    /// Assign roles and check the cells of every used column.
    pub fn resolve(self, overrides: &RoleOverrides) -> Result<ProfileTable, ProfileError> {
        if self.models.is_empty() {
            return Err(ProfileError::NoModels);
        }
        let mut first_row: std::collections::HashMap<&str, usize> = Default::default();
        for (i, at) in self.locations.iter().enumerate() {
            if self.models[i].is_empty() {
                return Err(ProfileError::EmptyField {
                    at: at.clone(),
                    column: "model".into(),
                });
            }
            if self.families[i].is_empty() {
                return Err(ProfileError::EmptyField {
                    at: at.clone(),
                    column: "family".into(),
                });
            }
            for (column, name) in [("model", &self.models[i]), ("family", &self.families[i])] {
                if name.len() > MAX_NAME_BYTES {
                    return Err(ProfileError::NameTooLong {
                        at: at.clone(),
                        column: column.into(),
                        what: "field",
                        bytes: name.len(),
                    });
                }
            }
            // A map, not a scan of the rows before: linear in the models.
            if let Some(&first) = first_row.get(self.models[i].as_str()) {
                if self.families[first] != self.families[i] {
                    return Err(ProfileError::ModelInTwoFamilies {
                        at: at.clone(),
                        model: self.models[i].clone(),
                        first: self.locations[first].clone(),
                        families: Box::new([
                            self.families[first].clone(),
                            self.families[i].clone(),
                        ]),
                    });
                }
                return Err(ProfileError::DuplicateModel {
                    at: at.clone(),
                    model: self.models[i].clone(),
                    first: self.locations[first].clone(),
                });
            }
            first_row.insert(self.models[i].as_str(), i);
        }
        let roles = self.assign_roles(overrides)?;
        let mut foundational = Block::default();
        let mut operations = Block::default();
        let mut reward = None;
        let mut outcome_column = None;
        let mut ignored = Vec::new();
        let n = self.models.len();
        foundational.values = vec![Vec::new(); n];
        operations.values = vec![Vec::new(); n];
        for (col, role) in self.columns.iter().zip(&roles) {
            let block = match role {
                Role::Ignore => {
                    ignored.push(col.name.clone());
                    continue;
                }
                Role::Foundational => &mut foundational,
                Role::Operation => &mut operations,
                Role::Outcome => {
                    reward = Some(self.numeric(col)?);
                    outcome_column = Some(col.name.clone());
                    continue;
                }
            };
            let values = self.numeric(col)?;
            block.names.push(col.name.clone());
            for (row, v) in block.values.iter_mut().zip(values) {
                row.push(v);
            }
        }
        let mut reward_scaled = false;
        if let Some(r) = reward.as_mut() {
            let present: Vec<f64> = r.iter().flatten().copied().collect();
            reward_scaled = match overrides.reward_scale {
                RewardScale::Fraction => true,
                RewardScale::Percent => false,
                RewardScale::Auto => {
                    !present.is_empty() && present.iter().all(|v| (0.0..=1.0).contains(v))
                }
            };
            if reward_scaled {
                for v in r.iter_mut().flatten() {
                    *v *= 100.0;
                }
            }
        }
        Ok(ProfileTable {
            models: self.models,
            families: self.families,
            foundational,
            operations,
            reward,
            outcome_column,
            reward_scaled,
            ignored,
            pooled_macro: None,
        })
    }

    fn assign_roles(&self, o: &RoleOverrides) -> Result<Vec<Role>, ProfileError> {
        let found = || {
            self.columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut roles: Vec<Option<Role>> = vec![None; self.columns.len()];
        let mut explicit = |names: &[String], role: Role, label: &str| {
            for name in names {
                let k = self
                    .columns
                    .iter()
                    .position(|c| c.name == *name)
                    .ok_or_else(|| ProfileError::UnknownColumn {
                        column: name.clone(),
                        role: label.to_string(),
                        found: found(),
                    })?;
                if roles[k].is_some_and(|r| r != role) {
                    return Err(ProfileError::ConflictingRoles(name.clone()));
                }
                roles[k] = Some(role);
            }
            Ok(())
        };
        if let Some(f) = &o.foundational {
            explicit(f, Role::Foundational, "foundational")?;
        }
        if let Some(f) = &o.operations {
            explicit(f, Role::Operation, "operation")?;
        }
        if let Some(f) = &o.outcome {
            explicit(std::slice::from_ref(f), Role::Outcome, "outcome")?;
        }
        let overridden = |role: Role| match role {
            Role::Foundational => o.foundational.is_some(),
            Role::Operation => o.operations.is_some(),
            Role::Outcome => o.outcome.is_some() || o.no_outcome,
            Role::Ignore => true,
        };
        Ok(self
            .columns
            .iter()
            .zip(roles)
            .map(|(c, r)| match r {
                Some(r) => r,
                None if !overridden(c.suggested) => c.suggested,
                None => Role::Ignore,
            })
            .collect())
    }

    fn numeric(&self, col: &RawColumn) -> Result<Vec<Option<f64>>, ProfileError> {
        // A long table's cell is located by its own line.
        let at = |i: usize| match &col.lines {
            Some(lines) => Location::Line(lines[i]),
            None => self.locations[i].clone(),
        };
        col.cells
            .iter()
            .enumerate()
            .map(|(i, cell)| match cell {
                RawCell::Missing => Ok(None),
                RawCell::Number(v) if v.is_finite() => Ok(Some(*v)),
                RawCell::Number(v) => Err(ProfileError::NotFinite {
                    at: at(i),
                    column: col.name.clone(),
                    value: v.to_string(),
                }),
                RawCell::Text(t) => Err(ProfileError::NotANumber {
                    at: at(i),
                    column: col.name.clone(),
                    value: t.clone(),
                }),
            })
            .collect()
    }
}

/// 1-based line numbers of byte offsets of a text, counted by `\n`, for
/// the csv crate's record positions: its own line count lags one line behind
/// in CRLF files (it ends a record at `\r` and counts the `\n` only when the
/// next record begins). A record's start offset may point at the `\n` (or
/// `\r`) that ended the record before: those belong to the line before.
/// Offsets asked in increasing order cost one pass over the text in all.
/// With `comments`, lines starting with `#` before a record are skipped too
/// (the csv crate may give the offset where the comment began).
pub(crate) struct LineOf<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
    comments: bool,
}

impl<'a> LineOf<'a> {
    pub(crate) fn new(text: &'a str, comments: bool) -> Self {
        LineOf {
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            comments,
        }
    }

    /// The line on which the record starting at byte `offset` begins.
    pub(crate) fn at(&mut self, offset: u64) -> u64 {
        let mut target = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        loop {
            while target < self.bytes.len() && matches!(self.bytes[target], b'\r' | b'\n') {
                target += 1;
            }
            if !(self.comments && self.bytes.get(target) == Some(&b'#')) {
                break;
            }
            target = self.bytes[target..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(self.bytes.len(), |k| target + k + 1);
        }
        if target < self.pos {
            self.pos = 0;
            self.line = 1;
        }
        self.line += self.bytes[self.pos..target]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        self.pos = target;
        self.line
    }
}

/// A CSV header's names as the readers take them (trimmed, formula quote
/// undone), checked: at most [`MAX_CSV_COLUMNS`], none empty, too long or
/// repeated.
fn header_names(record: &csv::StringRecord, line: u64) -> Result<Vec<String>, ProfileError> {
    let headers = record
        .iter()
        .map(|h| csv_unsafe(h.trim()).trim().to_string())
        .collect::<Vec<_>>();
    if headers.len() > MAX_CSV_COLUMNS {
        return Err(ProfileError::TooManyColumns {
            line: line.max(1),
            columns: headers.len(),
        });
    }
    // A set, not a scan of the names before: linear in the columns.
    let mut seen = std::collections::HashSet::with_capacity(headers.len());
    for (i, h) in headers.iter().enumerate() {
        if h.is_empty() {
            return Err(ProfileError::EmptyColumnName(i + 1));
        }
        if h.len() > MAX_NAME_BYTES {
            return Err(ProfileError::NameTooLong {
                at: Location::Line(line.max(1)),
                column: format!("column {}", i + 1),
                what: "header name",
                bytes: h.len(),
            });
        }
        if !seen.insert(h.as_str()) {
            return Err(ProfileError::DuplicateColumn(h.clone()));
        }
    }
    Ok(headers)
}

fn csv_error(e: csv::Error, line: u64) -> ProfileError {
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("expected {expected_len} fields like the header, found {len}"),
        csv::ErrorKind::Utf8 { .. } => "the text is not valid UTF-8".to_string(),
        _ => e.to_string(),
    };
    ProfileError::Syntax {
        at: Location::Line(line),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "model,family,TU,RE,GI,AS,extra,reward\n\
                       m1,A,70,60,50,40,1,0.5\n\
                       m2,A,71,61,,41,2,0.75\n\
                       m3,B,72,62,52,42,3,\n";

    #[test]
    fn reads_roles_by_name_and_missing_cells() {
        let t = ProfileTable::read(CSV, &RoleOverrides::default()).unwrap();
        assert_eq!(t.models, ["m1", "m2", "m3"]);
        assert_eq!(t.foundational.names, ["TU", "RE"]);
        assert_eq!(t.operations.names, ["GI", "AS"]);
        assert_eq!(t.operations.values[1], vec![None, Some(41.0)]);
        assert_eq!(t.ignored, ["extra"]);
        assert_eq!(t.reward, Some(vec![Some(50.0), Some(75.0), None]));
        assert!(t.reward_scaled);
        assert_eq!(
            t.summary(),
            "3 models in 2 families, 2 foundational dimensions, 2 operations, \
             reward read as fractions and multiplied by 100; ignored: extra"
        );
    }

    #[test]
    fn overrides_assign_and_replace_defaults() {
        let o = RoleOverrides {
            foundational: Some(vec!["TU".into(), "extra".into()]),
            operations: Some(vec!["AS".into()]),
            ..Default::default()
        };
        let t = ProfileTable::read(CSV, &o).unwrap();
        assert_eq!(t.foundational.names, ["TU", "extra"]);
        assert_eq!(t.operations.names, ["AS"]);
        assert_eq!(t.ignored, ["RE", "GI"]);
        let bad = RoleOverrides {
            operations: Some(vec!["nope".into()]),
            ..Default::default()
        };
        let e = ProfileTable::read(CSV, &bad).unwrap_err();
        assert!(
            e.to_string().contains("column `nope` (given as operation)"),
            "{e}"
        );
    }

    #[test]
    fn located_errors() {
        let e = ProfileTable::read(
            "model,family,TU\nm1,A,1\nm2,B,abc\n",
            &RoleOverrides::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column `TU`: expected a number (or an empty cell for a missing value), found `abc`"
        );
        let e =
            ProfileTable::read("model,family,TU\nm1,A,1\nm2,B\n", &Default::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: expected 3 fields like the header, found 2"
        );
        let e = ProfileTable::read("model,family,TU\nm1,A,inf\n", &Default::default()).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("line 2, column `TU`: `inf` is not a finite"));
        let e = ProfileTable::read("model,family,TU\nm1,A,1\nm1,B,2\n", &Default::default())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: model `m1` appears again, in family `B` (first at line 2, in family `A`): a model belongs to one family"
        );
        let e = ProfileTable::read("model,family,TU\nm1,A,1\nm1,A,2\n", &Default::default())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: model `m1` appears again (first at line 2)"
        );
        let e = ProfileTable::read("name,TU\nm1,1\n", &Default::default()).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("the header has no `model` column"));
        let e = ProfileTable::read("model,family,TU\n", &Default::default()).unwrap_err();
        assert_eq!(e, ProfileError::NoModels);
        assert_eq!(
            ProfileTable::read(" \n", &Default::default()).unwrap_err(),
            ProfileError::Empty
        );
    }

    #[test]
    fn json_form_matches_csv_form() {
        let json = r#"{"models": [
          {"model": "m1", "family": "A", "foundational": {"TU": 70, "RE": 60},
           "operations": {"GI": 50, "AS": 40}, "reward": 0.5},
          {"model": "m2", "family": "A", "foundational": {"TU": 71, "RE": 61},
           "operations": {"GI": null, "AS": 41}, "reward": 0.75},
          {"model": "m3", "family": "B", "foundational": {"TU": 72, "RE": 62},
           "operations": {"GI": 52, "AS": 42}}
        ]}"#;
        let j = ProfileTable::read(json, &Default::default()).unwrap();
        let mut c = ProfileTable::read(CSV, &Default::default()).unwrap();
        c.ignored.clear();
        assert_eq!(j, c);
        let e =
            ProfileTable::read("{\"models\": [{\"model\": 1}]}", &Default::default()).unwrap_err();
        assert!(e.to_string().starts_with("line 1: column"), "{e}");
    }

    #[test]
    fn bom_crlf_and_quotes() {
        let text = "\u{feff}model,family,TU\r\n\"a, b\",A,1\r\n";
        let t = ProfileTable::read(text, &Default::default()).unwrap();
        assert_eq!(t.models, ["a, b"]);
        assert_eq!(t.foundational.values, vec![vec![Some(1.0)]]);
    }

    #[test]
    fn csv_round_trip() {
        let t = ProfileTable::read(CSV, &Default::default()).unwrap();
        let mut again = ProfileTable::read(&t.to_csv(), &Default::default()).unwrap();
        again.ignored = t.ignored.clone();
        assert_eq!(again, t);
    }
}
