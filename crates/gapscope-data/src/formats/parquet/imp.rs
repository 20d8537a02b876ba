//! The Parquet reader proper (the `parquet` feature): schema checks, then
//! rows → trajectories, one row group at a time.

use std::sync::Arc;

use parquet::basic::{Compression, ConvertedType, LogicalType, Type as Physical};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};
use parquet::schema::types::{Type, TypePtr};
use serde_json::Value;

use crate::formats::{Corpus, ReadOptions};
use crate::trajectory::{check_names, Detail, LineError, Message, ToolCall, Trajectory};

/// Why a Parquet file is refused as a whole.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ParquetError {
    #[error("not a readable Parquet file: {0}")]
    Open(String),
    #[error("no `{wanted}` column ({what}); the file's columns are {columns}")]
    Missing {
        wanted: &'static str,
        what: &'static str,
        columns: String,
    },
    #[error("column `{column}`: expected {expected}, found {found}")]
    ColumnType {
        column: String,
        expected: &'static str,
        found: String,
    },
    #[error("column `{column}` (row group {group}) is {codec}-compressed, which gapscope does not read: it reads uncompressed, snappy and gzip Parquet pages (the Parquet crate's zstd, brotli and lz4 decoders are not in this build; zstd's is C code, which the page cannot run); rewrite the file with snappy, e.g. `pyarrow.parquet.write_table(pyarrow.parquet.read_table(IN), OUT, compression=\"snappy\")`")]
    Codec {
        column: String,
        group: usize,
        codec: String,
    },
    #[error("no rows: the file holds a schema and no trajectory")]
    NoRows,
    #[error("none of its {rows} row(s) could be read ({skipped} skipped; first: {first})")]
    NoneRead {
        rows: u64,
        skipped: usize,
        first: String,
    },
}

/// Where each piece of a trajectory is in the file: the top-level columns used.
#[derive(Debug, Default)]
struct Columns {
    task: String,
    messages: String,
    /// `messages` holds JSON text rather than a list of structs.
    messages_json: bool,
    id: Option<String>,
    model: Option<String>,
    reward: Option<String>,
    resolved: Option<String>,
    domain: Option<String>,
    exit_status: Option<String>,
    repo: Option<String>,
}

const MESSAGES: &[&str] = &["messages", "trajectory"];
const IDS: &[&str] = &["trajectory_id", "traj_id", "id"];
const MODELS: &[&str] = &["model_name", "model"];
const RESOLVED: &[&str] = &["resolved", "target"];
const DOMAINS: &[&str] = &["domain", "dataset", "split"];

/// A type for a person: `INT64`, `string`, `a list of struct {role, …}`.
fn describe(t: &Type) -> String {
    if t.is_primitive() {
        let logical = t.get_basic_info().logical_type_ref();
        return match (t.get_physical_type(), logical) {
            (Physical::BYTE_ARRAY, Some(LogicalType::String)) => "string".into(),
            (p, Some(l)) => format!("{p} ({l:?})"),
            (p, None) => match t.get_basic_info().converted_type() {
                ConvertedType::NONE => p.to_string(),
                c => format!("{p} ({c})"),
            },
        };
    }
    if let Some(e) = list_element(t) {
        return format!("a list of {}", describe(e));
    }
    let names: Vec<&str> = t.get_fields().iter().take(6).map(|f| f.name()).collect();
    let more = if t.get_fields().len() > 6 {
        ", …"
    } else {
        ""
    };
    format!("a struct {{{}{more}}}", names.join(", "))
}

/// The element type of a LIST-annotated group (3-level or legacy 2-level).
fn list_element(t: &Type) -> Option<&Type> {
    let info = t.get_basic_info();
    let list = matches!(info.logical_type_ref(), Some(LogicalType::List))
        || info.converted_type() == ConvertedType::LIST;
    if !t.is_group() || !list {
        return None;
    }
    let repeated = t.get_fields().first()?;
    match repeated.as_ref() {
        r if r.is_group() && r.get_fields().len() == 1 && r.name() != "array" => {
            Some(r.get_fields()[0].as_ref())
        }
        r => Some(r),
    }
}

fn is_string(t: &Type) -> bool {
    t.is_primitive() && t.get_physical_type() == Physical::BYTE_ARRAY
}

fn is_integer(t: &Type) -> bool {
    t.is_primitive() && matches!(t.get_physical_type(), Physical::INT32 | Physical::INT64)
}

fn is_number(t: &Type) -> bool {
    t.is_primitive()
        && matches!(
            t.get_physical_type(),
            Physical::INT32
                | Physical::INT64
                | Physical::FLOAT
                | Physical::DOUBLE
                | Physical::BOOLEAN
        )
}

/// Find the columns and check their types (a wrong type refuses the file,
/// naming the column).
fn columns(root: &Type) -> Result<Columns, ParquetError> {
    let fields = root.get_fields();
    let find = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| fields.iter().find(|f| f.name() == *n))
            .map(Arc::clone)
    };
    let listing = || {
        let mut names: Vec<String> = fields
            .iter()
            .take(12)
            .map(|f| format!("`{}`", f.name()))
            .collect();
        if fields.len() > 12 {
            names.push(format!("… ({} columns)", fields.len()));
        }
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    };
    let wrong = |t: &TypePtr, expected: &'static str| ParquetError::ColumnType {
        column: t.name().to_string(),
        expected,
        found: describe(t),
    };
    let task = find(&["instance_id"]).ok_or_else(|| ParquetError::Missing {
        wanted: "instance_id",
        what: "the task of each row",
        columns: listing(),
    })?;
    if !(is_string(&task) || is_integer(&task)) {
        return Err(wrong(&task, "a string or an integer (the task id)"));
    }
    let messages = find(MESSAGES).ok_or_else(|| ParquetError::Missing {
        wanted: "messages",
        what: "or `trajectory`: the messages of each row",
        columns: listing(),
    })?;
    let messages_json = is_string(&messages);
    if !messages_json {
        let element = list_element(&messages)
            .filter(|e| e.is_group() && e.get_fields().iter().any(|f| f.name() == "role"));
        if element.is_none() {
            return Err(wrong(
                &messages,
                "a list of structs {role, content, tool_calls?, tool_call_id?}, or a string of such a list in JSON",
            ));
        }
    }
    let mut c = Columns {
        task: task.name().to_string(),
        messages: messages.name().to_string(),
        messages_json,
        ..Columns::default()
    };
    let strings: [(&[&str], &mut Option<String>, &'static str); 5] = [
        (IDS, &mut c.id, "a string (the trajectory id)"),
        (MODELS, &mut c.model, "a string (the model name)"),
        (DOMAINS, &mut c.domain, "a string (the task set)"),
        (&["exit_status"], &mut c.exit_status, "a string"),
        (&["repo"], &mut c.repo, "a string"),
    ];
    for (names, slot, expected) in strings {
        if let Some(t) = find(names) {
            let ok = is_string(&t) || (names == IDS && is_integer(&t));
            if !ok {
                return Err(wrong(&t, expected));
            }
            *slot = Some(t.name().to_string());
        }
    }
    if let Some(t) = find(&["reward"]) {
        if !is_number(&t) {
            return Err(wrong(&t, "a number (the reward)"));
        }
        c.reward = Some(t.name().to_string());
    }
    if let Some(t) = find(RESOLVED) {
        if !(is_integer(&t) || t.is_primitive() && t.get_physical_type() == Physical::BOOLEAN) {
            return Err(wrong(
                &t,
                "true/false or 0/1 (whether the task was resolved)",
            ));
        }
        c.resolved = Some(t.name().to_string());
    }
    Ok(c)
}

impl Columns {
    fn names(&self) -> Vec<&str> {
        let mut v = vec![self.task.as_str(), self.messages.as_str()];
        for o in [
            &self.id,
            &self.model,
            &self.reward,
            &self.resolved,
            &self.domain,
            &self.exit_status,
            &self.repo,
        ] {
            v.extend(o.as_deref());
        }
        v
    }
}

/// What the file as a whole needs to say afterwards.
#[derive(Default)]
struct Tally {
    rows: u64,
    no_model: usize,
}

pub(crate) fn read(
    name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Corpus, ParquetError> {
    let reader = SerializedFileReader::new(bytes::Bytes::copy_from_slice(bytes))
        .map_err(|e| ParquetError::Open(e.to_string()))?;
    let meta = reader.metadata();
    let root = meta.file_metadata().schema();
    let cols = columns(root)?;
    let used = cols.names();
    // Refuse a codec this build cannot decode before reading any row.
    for (g, group) in meta.row_groups().iter().enumerate() {
        for chunk in group.columns() {
            let top = chunk
                .column_path()
                .parts()
                .first()
                .map_or("", String::as_str);
            let ok = matches!(
                chunk.compression(),
                Compression::UNCOMPRESSED | Compression::SNAPPY | Compression::GZIP(_)
            );
            if !ok && used.contains(&top) {
                return Err(ParquetError::Codec {
                    column: chunk.column_path().string(),
                    group: g,
                    codec: codec_name(chunk.compression()),
                });
            }
        }
    }
    if meta.file_metadata().num_rows() == 0 {
        return Err(ParquetError::NoRows);
    }
    let projection = Type::group_type_builder(root.name())
        .with_fields(
            root.get_fields()
                .iter()
                .filter(|f| used.contains(&f.name()))
                .map(Arc::clone)
                .collect(),
        )
        .build()
        .map_err(|e| ParquetError::Open(e.to_string()))?;
    let stem = file_stem(name);
    let mut corpus = Corpus::default();
    let mut tally = Tally::default();
    for g in 0..reader.num_row_groups() {
        let first_row = tally.rows;
        let group_rows = meta.row_group(g).num_rows().max(0) as u64;
        tally.rows += group_rows;
        let last_row = (first_row + group_rows).saturating_sub(1);
        let group = match reader.get_row_group(g) {
            Ok(rg) => rg,
            Err(e) => {
                corpus.skipped.push(LineError {
                    line: 0,
                    message: format!("rows {first_row}–{last_row} (row group {g}): {e}"),
                });
                continue;
            }
        };
        let rows = match group.get_row_iter(Some(projection.clone())) {
            Ok(rows) => rows,
            Err(e) => {
                corpus.skipped.push(LineError {
                    line: 0,
                    message: format!("rows {first_row}–{last_row} (row group {g}): {e}"),
                });
                continue;
            }
        };
        for (k, row) in rows.enumerate() {
            let at = first_row + k as u64;
            let row = match row {
                Ok(r) => r,
                Err(e) => {
                    corpus.skipped.push(LineError {
                        line: 0,
                        message: format!("rows {at}–{last_row} (row group {g}): {e}"),
                    });
                    break;
                }
            };
            match trajectory(row, at, &cols, &stem, options, &mut tally) {
                Ok(t) => {
                    if let Some(note) = crate::trajectory::unknown_call_ids(&t) {
                        corpus.notes.push(LineError {
                            line: 0,
                            message: format!("row {at}: {note}"),
                        });
                    }
                    corpus.trajectories.push(t);
                }
                Err(why) => corpus.skipped.push(LineError {
                    line: 0,
                    message: format!("row {at}: {why}"),
                }),
            }
        }
    }
    if corpus.trajectories.is_empty() {
        return Err(ParquetError::NoneRead {
            rows: tally.rows,
            skipped: corpus.skipped.len(),
            first: corpus
                .skipped
                .first()
                .map_or_else(|| "nothing".into(), ToString::to_string),
        });
    }
    corpus.warnings = warnings(&cols, &tally, &stem, options, corpus.trajectories.len());
    Ok(corpus)
}

fn codec_name(c: Compression) -> String {
    match c {
        Compression::ZSTD(_) => "zstd".into(),
        Compression::BROTLI(_) => "brotli".into(),
        Compression::LZ4 | Compression::LZ4_RAW => "lz4".into(),
        Compression::LZO => "lzo".into(),
        other => other.to_string(),
    }
}

/// The file's name without its folders and `.parquet`.
fn file_stem(name: &str) -> String {
    crate::formats::file_stem(name, &[".parquet"]).to_string()
}

fn warnings(
    cols: &Columns,
    tally: &Tally,
    stem: &str,
    options: &ReadOptions,
    read: usize,
) -> Vec<String> {
    let mut w = Vec::new();
    if options.model.is_none() {
        if cols.model.is_none() {
            w.push(format!(
                "has no `model_name` or `model` column: every trajectory's model is the file's name `{stem}`; give the name with --model"
            ));
        } else if tally.no_model > 0 {
            w.push(format!(
                "{} of {read} trajectories have no `{}`: their model is the file's name `{stem}`; give the name with --model",
                tally.no_model,
                cols.model.as_deref().unwrap_or_default()
            ));
        }
    }
    if cols.reward.is_none() && cols.resolved.is_none() {
        w.push("has no `reward`, `resolved` or `target` column: no trajectory has a reward; give the rewards in an outcomes CSV (`trajectory_id,task_id,reward`)".into());
    }
    if cols.domain.is_none() && options.domain.is_none() {
        w.push(format!(
            "names no task set (no `domain`, `dataset` or `split` column): its tasks are taken to be of domain `{}`, so they match only other `{}` tasks; give the domain (--domain)",
            crate::trajectory::UNKNOWN_DOMAIN,
            crate::trajectory::UNKNOWN_DOMAIN
        ));
    }
    w
}

/// A string or integer field as text; `None` for null.
fn text(f: Field, column: &str) -> Result<Option<String>, String> {
    match f {
        Field::Null => Ok(None),
        Field::Str(s) => Ok(Some(s)),
        Field::Bytes(b) => String::from_utf8(b.data().to_vec())
            .map(Some)
            .map_err(|_| format!("`{column}` is not UTF-8 text")),
        Field::Int(i) => Ok(Some(i.to_string())),
        Field::Long(i) => Ok(Some(i.to_string())),
        other => Err(format!("`{column}` is {other}, expected a string")),
    }
}

/// One row → one trajectory (the row's columns are those of [`Columns::names`]).
fn trajectory(
    row: Row,
    at: u64,
    cols: &Columns,
    stem: &str,
    options: &ReadOptions,
    tally: &mut Tally,
) -> Result<Trajectory, String> {
    let mut t = Trajectory::default();
    let (mut reward, mut resolved, mut id, mut model) = (None, None, None, None);
    let mut task = None;
    for (name, f) in row.into_columns() {
        let n = name.as_str();
        if n == cols.task {
            task = text(f, n)?;
        } else if n == cols.messages {
            t.messages = messages(f, cols.messages_json, n)?;
        } else if Some(n) == cols.id.as_deref() {
            id = text(f, n)?;
        } else if Some(n) == cols.model.as_deref() {
            model = text(f, n)?;
        } else if Some(n) == cols.domain.as_deref() {
            t.domain = text(f, n)?;
        } else if Some(n) == cols.exit_status.as_deref() {
            t.termination_reason = text(f, n)?;
        } else if Some(n) == cols.repo.as_deref() {
            if let Some(r) = text(f, n)? {
                t.details.push(Detail {
                    label: "repository".into(),
                    value: Value::String(r),
                });
            }
        } else if Some(n) == cols.reward.as_deref() {
            reward = number(&f).map_err(|e| format!("`{n}` {e}"))?;
        } else if Some(n) == cols.resolved.as_deref() {
            resolved = flag(&f).map_err(|e| format!("`{n}` {e}"))?;
        }
    }
    let task = task
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("`{}` is null or empty (the task id)", cols.task))?;
    t.id = match id {
        Some(id) => {
            t.source_id = Some(format!("parquet\u{1f}{id}"));
            id
        }
        None => format!("{task}#{at}"),
    };
    t.task_id = task;
    t.model = if let Some(m) = model.filter(|m| !m.is_empty()) {
        m
    } else {
        tally.no_model += usize::from(cols.model.is_some());
        stem.to_string()
    };
    // A row with neither has no reward (the ingestion counts them).
    t.reward = reward.or(resolved);
    if t.domain.is_none() {
        t.domain.clone_from(&options.domain);
    }
    check_names(&t, options.model.is_none())?;
    Ok(t)
}

/// A reward value: a finite number (booleans as 1/0).
fn number(f: &Field) -> Result<Option<f64>, String> {
    let v = match *f {
        Field::Null => return Ok(None),
        Field::Bool(b) => f64::from(u8::from(b)),
        Field::Int(i) => f64::from(i),
        Field::Long(i) => i as f64,
        Field::Float(x) => f64::from(x),
        Field::Double(x) => x,
        ref other => return Err(format!("is {other}, expected a number")),
    };
    if v.is_finite() {
        Ok(Some(v))
    } else {
        Err(format!("is {v}, expected a finite number"))
    }
}

/// `resolved`/`target`: true/false or 0/1 → 1/0.
fn flag(f: &Field) -> Result<Option<f64>, String> {
    match *f {
        Field::Null => Ok(None),
        Field::Bool(b) => Ok(Some(f64::from(u8::from(b)))),
        Field::Int(i @ (0 | 1)) => Ok(Some(f64::from(i))),
        Field::Long(i @ (0 | 1)) => Ok(Some(i as f64)),
        ref other => Err(format!("is {other}, expected true/false or 0/1")),
    }
}

/// The messages of a row: a list of structs, or JSON text of one.
fn messages(f: Field, json: bool, column: &str) -> Result<Vec<Message>, String> {
    match f {
        Field::Null => Err(format!("`{column}` is null (expected a list of messages)")),
        Field::Str(s) if json => {
            let v: Value = serde_json::from_str(&s)
                .map_err(|e| format!("`{column}` is not a JSON list of messages: {e}"))?;
            let Value::Array(items) = v else {
                return Err(format!("`{column}` holds JSON that is not a list"));
            };
            items
                .into_iter()
                .enumerate()
                .map(|(k, m)| json_message(m).map_err(|e| format!("{column}[{k}]{e}")))
                .collect()
        }
        Field::ListInternal(list) => list
            .elements()
            .iter()
            .enumerate()
            .map(|(k, m)| match m {
                Field::Group(r) => row_message(r).map_err(|e| format!("{column}[{k}]{e}")),
                Field::Null => Err(format!("{column}[{k}] is null (expected a message)")),
                other => Err(format!("{column}[{k}] is {other}, expected a message")),
            })
            .collect(),
        other => Err(format!(
            "`{column}` is {other}, expected a list of messages"
        )),
    }
}

/// Role names of other tools → the canonical ones.
fn role(r: &str) -> String {
    match r {
        "ai" | "gpt" => "assistant".into(),
        "human" => "user".into(),
        other => other.into(),
    }
}

/// A message struct `{role, content | text, tool_calls, tool_call_id}`
/// (errors start with the field's path after the message's index).
fn row_message(r: &Row) -> Result<Message, String> {
    let mut m = Message {
        role: String::new(),
        content: None,
        tool_calls: Vec::new(),
        tool_call_id: None,
        error: None,
    };
    let mut text_field = None;
    for (name, f) in r.get_column_iter() {
        match (name.as_str(), f) {
            (_, Field::Null) => {}
            ("role", Field::Str(s)) => m.role = role(s),
            ("role", other) => return Err(format!(".role is {other}, expected a string")),
            ("content", f) => m.content = Some(to_json(f)),
            ("text", f) => text_field = Some(to_json(f)),
            ("tool_call_id", Field::Str(s)) => m.tool_call_id = Some(s.clone()),
            ("tool_calls", Field::ListInternal(calls)) => {
                for (j, c) in calls.elements().iter().enumerate() {
                    let c = match c {
                        Field::Group(c) => row_call(c),
                        other => Err(format!(" is {other}, expected a tool call")),
                    };
                    m.tool_calls
                        .push(c.map_err(|e| format!(".tool_calls[{j}]{e}"))?);
                }
            }
            ("error" | "is_error", Field::Bool(b)) => m.error = Some(*b),
            _ => {}
        }
    }
    if m.content.is_none() {
        m.content = text_field;
    }
    if m.role.is_empty() {
        return Err(": no `role`".into());
    }
    Ok(m)
}

/// A tool call struct `{id, type, function: {name, arguments}}` or `{id, name, arguments}`.
fn row_call(r: &Row) -> Result<ToolCall, String> {
    let (mut id, mut name, mut arguments) = (None, None, Value::Null);
    let mut take = |key: &str, f: &Field| match (key, f) {
        ("id", Field::Str(s)) => id = Some(s.clone()),
        ("name", Field::Str(s)) => name = Some(s.clone()),
        ("arguments", f) => arguments = arguments_value(to_json(f)),
        _ => {}
    };
    for (key, f) in r.get_column_iter() {
        if let ("function", Field::Group(func)) = (key.as_str(), f) {
            for (k, f) in func.get_column_iter() {
                take(k, f);
            }
        } else {
            take(key, f);
        }
    }
    let name = name.ok_or_else(|| ": no `function.name` (or `name`)".to_string())?;
    Ok(ToolCall {
        id,
        name,
        arguments,
    })
}

/// Arguments given as JSON text become the JSON value (else the text stays).
fn arguments_value(v: Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        v => v,
    }
}

/// A message in JSON (`messages` given as a JSON string).
fn json_message(v: Value) -> Result<Message, String> {
    let Value::Object(mut o) = v else {
        return Err(" is not an object (expected a message)".into());
    };
    let role = match o.remove("role") {
        Some(Value::String(s)) => self::role(&s),
        _ => return Err(": no `role`".into()),
    };
    let content = o
        .remove("content")
        .or_else(|| o.remove("text"))
        .filter(|c| !c.is_null());
    let mut tool_calls = Vec::new();
    if let Some(Value::Array(calls)) = o.remove("tool_calls") {
        for (j, c) in calls.into_iter().enumerate() {
            let func = c.get("function").unwrap_or(&c);
            let name = func
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!(".tool_calls[{j}]: no `function.name` (or `name`)"))?;
            tool_calls.push(ToolCall {
                id: c.get("id").and_then(Value::as_str).map(str::to_string),
                name: name.to_string(),
                arguments: arguments_value(func.get("arguments").cloned().unwrap_or(Value::Null)),
            });
        }
    }
    Ok(Message {
        role,
        content,
        tool_calls,
        tool_call_id: o
            .get("tool_call_id")
            .and_then(Value::as_str)
            .map(str::to_string),
        error: o.get("error").and_then(Value::as_bool),
    })
}

/// A Parquet value as JSON (strings stay strings; structs become objects).
fn to_json(f: &Field) -> Value {
    match f {
        Field::Null => Value::Null,
        Field::Bool(b) => Value::Bool(*b),
        Field::Str(s) => Value::String(s.clone()),
        Field::Group(r) => Value::Object(
            r.get_column_iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
        Field::ListInternal(l) => Value::Array(l.elements().iter().map(to_json).collect()),
        Field::Byte(i) => Value::from(*i),
        Field::Short(i) => Value::from(*i),
        Field::Int(i) => Value::from(*i),
        Field::Long(i) => Value::from(*i),
        Field::UByte(i) => Value::from(*i),
        Field::UShort(i) => Value::from(*i),
        Field::UInt(i) => Value::from(*i),
        Field::ULong(i) => Value::from(*i),
        Field::Float(x) => {
            serde_json::Number::from_f64(f64::from(*x)).map_or(Value::Null, Value::Number)
        }
        Field::Double(x) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
        Field::Bytes(b) => Value::String(String::from_utf8_lossy(b.data()).into_owned()),
        Field::MapInternal(m) => Value::Array(
            m.entries()
                .iter()
                .map(|(k, v)| Value::Array(vec![to_json(k), to_json(v)]))
                .collect(),
        ),
        // Dates, times, decimals, half floats: as the crate prints them.
        other => Value::String(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_folders_and_the_extension() {
        assert_eq!(
            file_stem("a/b/train-00000-of-00002.parquet"),
            "train-00000-of-00002"
        );
        assert_eq!(file_stem("x"), "x");
    }

    #[test]
    fn roles_of_other_tools_become_canonical() {
        assert_eq!(role("ai"), "assistant");
        assert_eq!(role("human"), "user");
        assert_eq!(role("tool"), "tool");
    }

    #[test]
    fn flags_are_booleans_or_0_and_1() {
        assert_eq!(flag(&Field::Bool(true)), Ok(Some(1.0)));
        assert_eq!(flag(&Field::Long(0)), Ok(Some(0.0)));
        assert!(flag(&Field::Long(2)).is_err());
        assert_eq!(flag(&Field::Null), Ok(None));
        assert!(number(&Field::Double(f64::NAN)).is_err());
    }

    #[test]
    fn arguments_in_json_text_are_parsed() {
        assert_eq!(
            arguments_value(Value::String("{\"a\": 1}".into())),
            serde_json::json!({"a": 1})
        );
        assert_eq!(
            arguments_value(Value::String("ls -l".into())),
            Value::String("ls -l".into())
        );
    }
}
