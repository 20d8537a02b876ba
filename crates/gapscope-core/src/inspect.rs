//! Inspect AI logs (spec: formats.md, "Inspect AI logs"; the layout is in
//! `../shared/data/inspect/SOURCE.md`): the `.eval` zip and the single-document
//! `.json` log. Each sample (one per id and epoch) becomes a [`Trajectory`].
//!
//! - **What is read.** From the header (`header.json`; a crashed log has none:
//!   `_journal/start.json`): `eval.model`, `eval.task`, `results.scores`. From
//!   each `samples/<id>_epoch_<n>.json` (or each element of the `.json` log's
//!   `samples`): `id`, `epoch`, `messages` (always complete — `events`,
//!   `attachments`, `events_data`, summaries and reductions are never read;
//!   serde skips them without building values), `scores`, `error`, `limit`,
//!   the last `output.choices[0].stop_reason`.
//! - **Compression.** Members are deflate (zip method 8, read by the `zip`
//!   crate through miniz_oxide) or zstd (method 93; the raw member bytes are
//!   decoded by `ruzstd`, pure Rust, every frame of a multi-frame member).
//! - **Reward.** One scorer (default: the first of the header's
//!   `results.scores`; a headerless log: the first key of the first scored
//!   sample's `scores`), and for a dict-valued score one key (default: its
//!   first). Values map as Inspect's `value_to_float` does for what it
//!   recognizes ([`value_to_reward`]); a value Inspect would silently turn into
//!   0 is *missing* here. The mapping used, with counts per distinct value, is
//!   returned as a [`RewardMapping`] in the corpus.
//! - **Non-finite numbers.** Inspect (pydantic) may write the bare tokens
//!   `NaN`, `Infinity`, `-Infinity`; they are read as `null` (a score `NaN`
//!   becomes a missing reward, counted).

use std::borrow::Cow;
use std::io::{Cursor, Read};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::trajectory::{Corpus, LineError, Message, ToolCall, Trajectory};

/// Which score becomes the reward.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreChoice {
    /// The scorer (a key of each sample's `scores`); default: see the module doc.
    pub scorer: Option<String>,
    /// For a dict-valued score, the key; default: the dict's first key.
    pub key: Option<String>,
}

impl ScoreChoice {
    /// Parse `SCORER` or `SCORER:KEY`.
    pub fn parse(text: &str) -> Result<ScoreChoice, String> {
        let (s, k) = match text.split_once(':') {
            Some((s, k)) => (s.trim(), Some(k.trim())),
            None => (text.trim(), None),
        };
        if s.is_empty() || k.is_some_and(str::is_empty) {
            return Err(format!("expected SCORER or SCORER:KEY, got `{text}`"));
        }
        Ok(ScoreChoice {
            scorer: Some(s.to_string()),
            key: k.map(str::to_string),
        })
    }
}

/// One distinct score value met, the reward it gave, and how often.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MappedValue {
    /// The value as JSON text (`"C"`, `1`, `0.5`, `true`, …).
    pub value: String,
    /// The reward (0–1 for the usual values); `None`: not recognized, missing.
    pub reward: Option<f64>,
    pub count: usize,
}

/// How one log's score values became rewards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RewardMapping {
    /// The file (or name) the log came from.
    pub source: String,
    pub scorer: String,
    pub key: Option<String>,
    /// How the scorer was chosen, in words.
    pub chosen: String,
    /// Every distinct value, in order of first appearance.
    pub values: Vec<MappedValue>,
    /// Samples whose value was not recognized (their reward is missing).
    pub unrecognized: usize,
    /// Samples without this scorer (or without the key), reward missing.
    pub unscored: usize,
    /// Scorers (and dict keys, `scorer:key`) available in the log.
    pub available: Vec<String>,
}

impl RewardMapping {
    /// One sentence: the scorer, each value's reward and count, what is missing.
    pub fn sentence(&self) -> String {
        let name = match &self.key {
            Some(k) => format!("{}:{k}", self.scorer),
            None => self.scorer.clone(),
        };
        let values: Vec<String> = self
            .values
            .iter()
            .map(|v| match v.reward {
                Some(r) => format!("{} → {} (×{})", v.value, fmt_reward(r), v.count),
                None => format!("{} → missing (×{})", v.value, v.count),
            })
            .collect();
        let mut s = format!(
            "{}: reward from scorer `{name}` ({}): {}",
            self.source,
            self.chosen,
            if values.is_empty() {
                "no values".to_string()
            } else {
                values.join(", ")
            }
        );
        if self.unrecognized > 0 {
            s.push_str(&format!(
                "; {} sample(s) with an unrecognized value have no reward (Inspect would count 0)",
                self.unrecognized
            ));
        }
        if self.unscored > 0 {
            s.push_str(&format!(
                "; {} sample(s) without this score have no reward",
                self.unscored
            ));
        }
        s.push_str("; rewards are ×100 in profiles");
        s
    }
}

fn fmt_reward(r: f64) -> String {
    if r.fract() == 0.0 && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// Why a log could not be read (the file name is added by the caller).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InspectError {
    #[error("not a readable zip archive: {0}")]
    Zip(String),
    #[error("{entry}: {message}")]
    Entry { entry: String, message: String },
    #[error("{entry}, line {line}, column {column}: {message}")]
    Json {
        entry: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("neither header.json nor _journal/start.json is in the archive: not an Inspect `.eval` log (entries: {0})")]
    NoHeader(String),
    #[error("scorer `{given}` is not in this log (available: {available})")]
    UnknownScorer { given: String, available: String },
}

// ---- the parts of a log that are read (everything else is skipped) ----

#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    version: Option<i64>,
    eval: EvalSpec,
    #[serde(default)]
    results: Option<EvalResults>,
}

#[derive(Deserialize)]
struct EvalSpec {
    task: String,
    model: String,
}

#[derive(Deserialize)]
struct EvalResults {
    #[serde(default)]
    scores: Option<Vec<EvalScore>>,
}

#[derive(Deserialize)]
struct EvalScore {
    name: String,
    #[serde(default)]
    scorer: Option<String>,
}

/// The `.json` log: the header's keys plus `samples` (no `#[serde(flatten)]`:
/// it would buffer every skipped subtree).
#[derive(Deserialize)]
struct JsonLog {
    #[serde(default)]
    version: Option<i64>,
    eval: EvalSpec,
    #[serde(default)]
    results: Option<EvalResults>,
    #[serde(default)]
    samples: Option<Vec<Sample>>,
}

#[derive(Deserialize)]
struct Sample {
    id: Value,
    epoch: i64,
    #[serde(default)]
    messages: Vec<InMessage>,
    #[serde(default)]
    scores: Option<IndexMap<String, Score>>,
    #[serde(default)]
    error: Option<SampleError>,
    #[serde(default)]
    limit: Option<Limit>,
    #[serde(default)]
    output: Option<Output>,
}

#[derive(Deserialize)]
struct Score {
    #[serde(default)]
    value: Value,
}

#[derive(Deserialize)]
struct SampleError {}

#[derive(Deserialize)]
struct Limit {
    #[serde(rename = "type", default)]
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Output {
    #[serde(default)]
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
struct InMessage {
    role: String,
    #[serde(default)]
    content: Option<Content>,
    #[serde(default)]
    tool_calls: Option<Vec<InToolCall>>,
    #[serde(default)]
    tool_call_id: Option<String>,
    #[serde(default)]
    error: Option<ToolError>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Content {
    Text(String),
    Parts(Vec<Part>),
}

#[derive(Deserialize)]
struct Part {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    reasoning: Option<String>,
}

#[derive(Deserialize)]
struct InToolCall {
    #[serde(default)]
    id: Option<String>,
    function: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct ToolError {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

// ---- score values ----

/// Inspect's `value_to_float` for the values it recognizes: "C" 1, "I" 0,
/// "P" 0.5, "N" 0; numbers and booleans as numbers; "yes"/"true" 1 and
/// "no"/"false" 0 (any case); a numeric string (digits with dots) parsed.
/// Anything else — which Inspect turns into 0 with a warning — is `None`.
pub fn value_to_reward(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite()),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => match s.as_str() {
            "C" => Some(1.0),
            "P" => Some(0.5),
            "I" | "N" => Some(0.0),
            _ => {
                let l = s.to_lowercase();
                match l.as_str() {
                    "yes" | "true" => Some(1.0),
                    "no" | "false" => Some(0.0),
                    // Python: value.replace(".", "").isnumeric() then float(value).
                    _ if !s.is_empty()
                        && s.chars().any(|c| c.is_ascii_digit())
                        && s.chars().all(|c| c.is_ascii_digit() || c == '.') =>
                    {
                        s.parse::<f64>().ok()
                    }
                    _ => None,
                }
            }
        },
        _ => None,
    }
}

// ---- bytes ----

/// Replace the bare tokens `NaN`, `Infinity`, `-Infinity` outside strings by
/// `null` (borrowing when there are none).
pub fn sanitize_nonfinite(bytes: &[u8]) -> Cow<'_, [u8]> {
    let tokens: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out: Option<Vec<u8>> = None;
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'N' || b == b'I' || b == b'-' {
            if let Some(t) = tokens.iter().find(|t| bytes[i..].starts_with(t)) {
                let o = out.get_or_insert_with(|| bytes[..i].to_vec());
                o.extend_from_slice(b"null");
                i += t.len();
                continue;
            }
        }
        if let Some(o) = out.as_mut() {
            o.push(b);
        }
        i += 1;
    }
    match out {
        Some(o) => Cow::Owned(o),
        None => Cow::Borrowed(bytes),
    }
}

fn parse<T: serde::de::DeserializeOwned>(entry: &str, bytes: &[u8]) -> Result<T, InspectError> {
    let clean = sanitize_nonfinite(bytes);
    serde_json::from_slice::<T>(&clean).map_err(|e| InspectError::Json {
        entry: entry.to_string(),
        line: e.line(),
        column: e.column(),
        message: crate::profile::json_message(&e),
    })
}

/// The largest member (uncompressed) read into memory.
pub const MAX_MEMBER_BYTES: u64 = 1 << 30;

/// Decode every zstd frame of a member (multi-frame members are written for
/// large samples) into exactly `size` bytes.
fn zstd_decode(entry: &str, raw: &[u8], size: u64) -> Result<Vec<u8>, InspectError> {
    let err = |message: String| InspectError::Entry {
        entry: entry.to_string(),
        message,
    };
    if size > MAX_MEMBER_BYTES {
        return Err(err(format!(
            "member of {size} bytes is larger than the {MAX_MEMBER_BYTES} bytes read"
        )));
    }
    let mut out = Vec::with_capacity(usize::try_from(size).unwrap_or(usize::MAX));
    ruzstd::decoding::FrameDecoder::new()
        .decode_all_to_vec(raw, &mut out)
        .map_err(|e| err(format!("zstd data could not be decoded: {e}")))?;
    if out.len() as u64 != size {
        return Err(err(format!(
            "zstd data decoded to {} bytes, the archive says {size}",
            out.len()
        )));
    }
    Ok(out)
}

/// Read one member's bytes (stored, deflate or zstd).
fn member(
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    index: usize,
) -> Result<(String, Vec<u8>), InspectError> {
    let mut f = archive
        .by_index_raw(index)
        .map_err(|e| InspectError::Zip(format!("member {index}: {e}")))?;
    let name = f.name().to_string();
    let size = f.size();
    let method = f.compression();
    let err = |message: String| InspectError::Entry {
        entry: name.clone(),
        message,
    };
    if method == zip::CompressionMethod::ZSTD {
        let mut raw = Vec::new();
        f.read_to_end(&mut raw)
            .map_err(|e| err(format!("reading the zstd member: {e}")))?;
        drop(f);
        let out = zstd_decode(&name, &raw, size)?;
        return Ok((name, out));
    }
    drop(f);
    if method != zip::CompressionMethod::Deflated && method != zip::CompressionMethod::Stored {
        return Err(err(format!(
            "compression method {method} is not read (expected deflate 8 or zstd 93)"
        )));
    }
    if size > MAX_MEMBER_BYTES {
        return Err(err(format!(
            "member of {size} bytes is larger than the {MAX_MEMBER_BYTES} bytes read"
        )));
    }
    let mut f = archive
        .by_index(index)
        .map_err(|e| err(format!("cannot open the member: {e}")))?;
    let mut out = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    f.read_to_end(&mut out)
        .map_err(|e| err(format!("cannot decompress the member: {e}")))?;
    Ok((name, out))
}

/// Is this a zip archive (local file header magic)?
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Does this text look like an Inspect `.json` log (an object whose first
/// 4 KiB name a `version` or `status` and an `eval` object)?
pub fn looks_like_json_log(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !t.starts_with('{') {
        return false;
    }
    let head: String = t.chars().take(4096).collect();
    let compact: String = head.chars().filter(|c| !c.is_whitespace()).collect();
    compact.contains("\"eval\":{")
        && (compact.contains("\"version\":") || compact.contains("\"status\":"))
}

// ---- samples to trajectories ----

fn id_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn content_value(c: Option<Content>) -> Option<Value> {
    match c? {
        Content::Text(s) => Some(Value::String(s)),
        Content::Parts(parts) => Some(Value::Array(
            parts
                .into_iter()
                .map(|p| {
                    let mut o = serde_json::Map::new();
                    let kind = p.kind.unwrap_or_default();
                    o.insert("type".into(), Value::String(kind));
                    if let Some(t) = p.text {
                        o.insert("text".into(), Value::String(t));
                    }
                    if let Some(r) = p.reasoning {
                        o.insert("reasoning".into(), Value::String(r));
                    }
                    Value::Object(o)
                })
                .collect(),
        )),
    }
}

fn convert_message(m: InMessage) -> Message {
    let is_tool = m.role == "tool";
    let mut content = content_value(m.content);
    if let Some(e) = &m.error {
        // An empty tool result carries its error only in `error`: show it.
        let empty = match &content {
            None => true,
            Some(Value::String(s)) => s.is_empty(),
            _ => false,
        };
        if empty {
            content = Some(Value::String(format!(
                "Error ({}): {}",
                e.kind.as_deref().unwrap_or("unknown"),
                e.message.as_deref().unwrap_or("")
            )));
        }
    }
    Message {
        role: m.role,
        content,
        tool_calls: m
            .tool_calls
            .unwrap_or_default()
            .into_iter()
            .map(|c| ToolCall {
                id: c.id,
                name: c.function,
                arguments: c.arguments,
            })
            .collect(),
        tool_call_id: m.tool_call_id,
        error: is_tool.then_some(m.error.is_some()),
    }
}

/// The scorer (and key) to read, and how it was chosen.
fn choose_scorer(
    header: Option<&Header>,
    samples: &[Sample],
    choice: &ScoreChoice,
) -> Result<Option<(String, Option<String>, String)>, InspectError> {
    // What the samples offer: scorer names, and dict keys per scorer.
    let mut available: Vec<String> = Vec::new();
    let mut dict_keys: IndexMap<String, Vec<String>> = IndexMap::new();
    for s in samples {
        for (name, score) in s.scores.iter().flatten() {
            if !available.contains(name) {
                available.push(name.clone());
            }
            if let Value::Object(o) = &score.value {
                let keys = dict_keys.entry(name.clone()).or_default();
                for k in o.keys() {
                    if !keys.contains(k) {
                        keys.push(k.clone());
                    }
                }
            }
        }
    }
    if let Some(given) = &choice.scorer {
        let known = available.contains(given)
            || header
                .and_then(|h| h.results.as_ref())
                .and_then(|r| r.scores.as_ref())
                .is_some_and(|s| s.iter().any(|e| e.scorer.as_ref() == Some(given)));
        if !known {
            return Err(InspectError::UnknownScorer {
                given: given.clone(),
                available: if available.is_empty() {
                    "none".into()
                } else {
                    available.join(", ")
                },
            });
        }
        let key = choice
            .key
            .clone()
            .or_else(|| dict_keys.get(given).and_then(|k| k.first().cloned()));
        return Ok(Some((given.clone(), key, "given".into())));
    }
    let first = header
        .and_then(|h| h.results.as_ref())
        .and_then(|r| r.scores.as_ref())
        .and_then(|s| s.first());
    if let Some(e) = first {
        // A dict-valued scorer gives one entry per key: name = key, scorer = the
        // scorer; otherwise name = scorer (or the samples' key is the name).
        let how = "the first scorer in the header's results.scores".to_string();
        return Ok(Some(match &e.scorer {
            Some(sc) if *sc != e.name && !available.contains(&e.name) => {
                (sc.clone(), Some(e.name.clone()), how)
            }
            _ => (
                e.name.clone(),
                dict_keys.get(&e.name).and_then(|k| k.first().cloned()),
                how,
            ),
        }));
    }
    match available.first() {
        Some(s) => Ok(Some((
            s.clone(),
            dict_keys.get(s).and_then(|k| k.first().cloned()),
            "the first score of the first scored sample".into(),
        ))),
        None => Ok(None),
    }
}

fn available_names(samples: &[Sample]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in samples {
        for (name, score) in s.scores.iter().flatten() {
            let mut push = |x: String| {
                if !out.contains(&x) {
                    out.push(x);
                }
            };
            push(name.clone());
            if let Value::Object(o) = &score.value {
                for k in o.keys() {
                    push(format!("{name}:{k}"));
                }
            }
        }
    }
    out
}

/// Turn a header and its samples into a corpus.
fn to_corpus(
    source: &str,
    header: Option<Header>,
    samples: Vec<Sample>,
    model: Option<&str>,
    choice: &ScoreChoice,
    skipped: Vec<LineError>,
) -> Result<Corpus, InspectError> {
    let (task, header_model) = match &header {
        Some(h) => (h.eval.task.clone(), h.eval.model.clone()),
        None => (String::new(), String::new()),
    };
    let model = model.map_or(header_model.clone(), str::to_string);
    // A re-logged sample: the last one wins.
    let mut by_key: IndexMap<(String, i64), Sample> = IndexMap::new();
    for s in samples {
        let key = (id_text(&s.id), s.epoch);
        by_key.shift_remove(&key);
        by_key.insert(key, s);
    }
    let samples: Vec<Sample> = by_key.into_values().collect();
    let chosen = choose_scorer(header.as_ref(), &samples, choice)?;
    let mut mapping = chosen.as_ref().map(|(scorer, key, how)| RewardMapping {
        source: source.to_string(),
        scorer: scorer.clone(),
        key: key.clone(),
        chosen: how.clone(),
        values: Vec::new(),
        unrecognized: 0,
        unscored: 0,
        available: available_names(&samples),
    });
    let mut trajectories = Vec::with_capacity(samples.len());
    for s in samples {
        let sid = id_text(&s.id);
        let value = chosen.as_ref().and_then(|(scorer, key, _)| {
            let v = &s.scores.as_ref()?.get(scorer)?.value;
            match (key, v) {
                (Some(k), Value::Object(o)) => o.get(k).cloned(),
                (Some(_), _) => None,
                (None, v) => Some(v.clone()),
            }
        });
        let reward = match (&mut mapping, value) {
            (Some(m), Some(v)) => {
                let r = value_to_reward(&v);
                let text = v.to_string();
                match m.values.iter_mut().find(|x| x.value == text) {
                    Some(x) => x.count += 1,
                    None => m.values.push(MappedValue {
                        value: text,
                        reward: r,
                        count: 1,
                    }),
                }
                if r.is_none() {
                    m.unrecognized += 1;
                }
                r
            }
            (Some(m), None) => {
                m.unscored += 1;
                None
            }
            (None, _) => None,
        };
        let termination_reason = if s.error.is_some() {
            Some("error".to_string())
        } else if let Some(l) = &s.limit {
            Some(format!("{}_limit", l.kind.as_deref().unwrap_or("unknown")))
        } else {
            s.output
                .as_ref()
                .and_then(|o| o.choices.first())
                .and_then(|c| c.stop_reason.clone())
        };
        let task_id = if task.is_empty() {
            sid.clone()
        } else {
            format!("{task}:{sid}")
        };
        trajectories.push(Trajectory {
            id: format!("{task_id}:epoch{}@{header_model}", s.epoch),
            model: model.clone(),
            family: None,
            domain: (!task.is_empty()).then(|| task.clone()),
            task_id,
            scenario_group: None,
            trial: Some(s.epoch),
            reward,
            termination_reason,
            messages: s.messages.into_iter().map(convert_message).collect(),
            labels: Default::default(),
            gold_actions: Vec::new(),
            stats: None,
        });
    }
    Ok(Corpus {
        trajectories,
        skipped,
        reward_mappings: mapping.into_iter().collect(),
        notes: Vec::new(),
        warnings: Vec::new(),
    })
}

/// Header versions 2 and 3 occur (1: the oldest logs); others are refused.
fn check_version(entry: &str, version: Option<i64>) -> Result<(), InspectError> {
    match version {
        Some(v) if !(1..=3).contains(&v) => Err(InspectError::Entry {
            entry: entry.to_string(),
            message: format!("log version {v} is not read (expected 2 or 3)"),
        }),
        _ => Ok(()),
    }
}

/// Is this member a sample (`samples/<id>_epoch_<n>.json`, not a chunked
/// sample's part)?
fn sample_member(name: &str) -> bool {
    name.starts_with("samples/") && name.ends_with(".json") && !name[8..].contains('/')
}

/// Read a `.eval` log (zip). `source` names it in the reward mapping;
/// `model` overrides `eval.model`. A sample member that cannot be read is
/// reported in `skipped` (with its member name) and the others are read.
pub fn read_eval(
    source: &str,
    bytes: &[u8],
    model: Option<&str>,
    choice: &ScoreChoice,
) -> Result<Corpus, InspectError> {
    let mut archive =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| InspectError::Zip(e.to_string()))?;
    let names: Vec<String> = archive.file_names().map(str::to_string).collect();
    let header_name = ["header.json", "_journal/start.json"]
        .into_iter()
        .find(|n| names.iter().any(|x| x == n))
        .ok_or_else(|| {
            InspectError::NoHeader(names.iter().take(5).cloned().collect::<Vec<_>>().join(", "))
        })?;
    let mut header: Option<Header> = None;
    let mut samples = Vec::new();
    let mut skipped: Vec<LineError> = Vec::new();
    let mut chunked = Vec::new();
    for i in 0..archive.len() {
        let name = archive
            .name_for_index(i)
            .map(str::to_string)
            .unwrap_or_default();
        if name == header_name {
            let (n, b) = member(&mut archive, i)?;
            let h: Header = parse(&n, &b)?;
            check_version(&n, h.version)?;
            header = Some(h);
        } else if sample_member(&name) {
            match member(&mut archive, i).and_then(|(n, b)| parse::<Sample>(&n, &b)) {
                Ok(s) => samples.push(s),
                Err(e) => skipped.push(LineError {
                    line: 0,
                    message: e.to_string(),
                }),
            }
        } else if name.starts_with("samples/") && name.ends_with("/sample.json") {
            chunked.push(name);
        }
    }
    if !chunked.is_empty() {
        skipped.push(LineError {
            line: 0,
            message: format!(
                "{} sample(s) in the chunked layout (e.g. {}) are not read",
                chunked.len(),
                chunked[0]
            ),
        });
    }
    if header_name != "header.json" {
        skipped.push(LineError {
            line: 0,
            message: "no header.json (an unfinished or crashed log): model and task from _journal/start.json".into(),
        });
    }
    to_corpus(source, header, samples, model, choice, skipped)
}

/// Read a `.json` log (one document: the header's keys plus `samples`).
/// Errors give the line and column of the JSON text.
pub fn read_json(
    source: &str,
    bytes: &[u8],
    model: Option<&str>,
    choice: &ScoreChoice,
) -> Result<Corpus, InspectError> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let log: JsonLog = parse(source, bytes)?;
    check_version(source, log.version)?;
    let header = Header {
        version: log.version,
        eval: log.eval,
        results: log.results,
    };
    to_corpus(
        source,
        Some(header),
        log.samples.unwrap_or_default(),
        model,
        choice,
        Vec::new(),
    )
}
