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
//! - **Compression.** Members are stored, deflate (zip method 8, flate2
//!   through miniz_oxide) or zstd (method 93, `ruzstd`, pure Rust, every frame
//!   of a multi-frame member); the `zip` crate only reads the directory.
//! - **Limits** (docs/limits.md): entries whose bytes overlap are refused;
//!   the members read (header and samples; nothing else is decompressed) may
//!   declare at most [`MAX_MEMBER_BYTES`] each, [`MAX_RATIO`]:1 and
//!   [`MAX_TOTAL_BYTES`] in all, checked before decompressing. Each member is
//!   then decoded streaming, up to one byte past its declared size (a zstd
//!   frame's own content size is checked, never allocated), into a buffer
//!   grown as data arrives, and its size and CRC-32 are checked: a member
//!   that fails is refused in the header, skipped (and said) in a sample.
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

use super::Corpus;
use crate::trajectory::{Detail, LineError, Message, ToolCall, Trajectory};

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
    #[error("entries `{first}` (bytes {first_start}–{first_end}) and `{second}` (from byte {second_start}) overlap: an archive whose entries share bytes is refused (a zip bomb)")]
    Overlap {
        first: String,
        first_start: u64,
        first_end: u64,
        second: String,
        second_start: u64,
    },
    #[error("{entry}: declares {size} bytes decompressed, more than the {limit} bytes ({} GiB) read from one member", .limit >> 30)]
    MemberTooLarge {
        entry: String,
        size: u64,
        limit: u64,
    },
    #[error("{entry}: declares {size} bytes decompressed from {compressed} compressed ({ratio}:1), more than the {limit}:1 read")]
    Ratio {
        entry: String,
        size: u64,
        compressed: u64,
        ratio: u64,
        limit: u64,
    },
    #[error("the {count} members read (header and samples) declare {total} bytes decompressed in all, more than the {limit} bytes ({} GiB) read from one log", .limit >> 30)]
    TotalTooLarge {
        count: usize,
        total: u64,
        limit: u64,
    },
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
    /// The run's own id (Inspect ≥ 0.3): a trajectory's identity is
    /// (eval id, sample id, epoch).
    #[serde(default)]
    eval_id: Option<String>,
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
    /// Tokens per model (`{model: {input_tokens, output_tokens, …}}`).
    #[serde(default)]
    model_usage: Option<Value>,
    #[serde(default)]
    total_time: Option<f64>,
    #[serde(default)]
    working_time: Option<f64>,
}

#[derive(Deserialize)]
struct Score {
    #[serde(default)]
    value: Value,
    #[serde(default)]
    answer: Option<String>,
    #[serde(default)]
    explanation: Option<String>,
    #[serde(default)]
    metadata: Option<Value>,
}

#[derive(Deserialize)]
struct SampleError {
    #[serde(default)]
    message: Option<String>,
}

#[derive(Deserialize)]
struct Limit {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    limit: Option<Value>,
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
    /// `ContentImage.image`: a URL or a `data:` URI.
    #[serde(default)]
    image: Option<String>,
    /// `ContentReasoning.redacted`: the reasoning is not in clear.
    #[serde(default)]
    redacted: Option<bool>,
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

/// The largest ratio of a member's declared size to its compressed size
/// (checked for members declaring more than [`RATIO_FLOOR`]).
pub const MAX_RATIO: u64 = 1000;

/// Members up to this size (declared) may have any compression ratio.
pub const RATIO_FLOOR: u64 = 1 << 20;

/// The most bytes decompressed from one log, all members read together.
pub const MAX_TOTAL_BYTES: u64 = 4 << 30;

/// The largest zstd window accepted (ruzstd's default; a frame asking more
/// is not decoded). Inspect's writer uses a few MiB.
pub const MAX_ZSTD_WINDOW: u64 = 128 << 20;

/// What the central directory says of one entry.
struct EntryInfo {
    name: String,
    method: zip::CompressionMethod,
    encrypted: bool,
    compressed: u64,
    size: u64,
    crc: u32,
    header_start: u64,
    data_start: u64,
}

/// Every entry of the archive, located; entries whose bytes overlap (two
/// names for the same data: the classic zip bomb) or run past the end are
/// refused.
fn directory(
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    len: u64,
) -> Result<Vec<EntryInfo>, InspectError> {
    let mut entries = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let f = archive
            .by_index_raw(i)
            .map_err(|e| InspectError::Zip(format!("member {i}: {e}")))?;
        entries.push(EntryInfo {
            name: f.name().to_string(),
            method: f.compression(),
            encrypted: f.encrypted(),
            compressed: f.compressed_size(),
            size: f.size(),
            crc: f.crc32(),
            header_start: f.header_start(),
            data_start: f.data_start(),
        });
    }
    for e in &entries {
        let end = e.data_start.checked_add(e.compressed);
        if end.is_none_or(|end| end > len) {
            return Err(InspectError::Zip(format!(
                "entry `{}`: its {} compressed bytes from byte {} run past the end of the file ({len} bytes)",
                e.name, e.compressed, e.data_start
            )));
        }
    }
    let mut order: Vec<&EntryInfo> = entries.iter().collect();
    order.sort_by_key(|e| (e.header_start, e.data_start));
    for w in order.windows(2) {
        let (a, b) = (w[0], w[1]);
        let a_end = a.data_start + a.compressed;
        if b.header_start < a_end {
            return Err(InspectError::Overlap {
                first: a.name.clone(),
                first_start: a.header_start,
                first_end: a_end,
                second: b.name.clone(),
                second_start: b.header_start,
            });
        }
    }
    Ok(entries)
}

/// The limits on what the members to be read declare, before any is
/// decompressed: each at most [`MAX_MEMBER_BYTES`] and [`MAX_RATIO`]:1, all
/// together at most [`MAX_TOTAL_BYTES`]. A member is then decoded up to its
/// declared size and no further, so these bound what is decompressed.
fn check_limits(entries: &[&EntryInfo]) -> Result<(), InspectError> {
    let mut total: u64 = 0;
    for e in entries {
        if e.size > MAX_MEMBER_BYTES {
            return Err(InspectError::MemberTooLarge {
                entry: e.name.clone(),
                size: e.size,
                limit: MAX_MEMBER_BYTES,
            });
        }
        if e.size > RATIO_FLOOR && e.size > MAX_RATIO.saturating_mul(e.compressed) {
            return Err(InspectError::Ratio {
                entry: e.name.clone(),
                size: e.size,
                compressed: e.compressed,
                ratio: e.size / e.compressed.max(1),
                limit: MAX_RATIO,
            });
        }
        total = total.saturating_add(e.size);
    }
    if total > MAX_TOTAL_BYTES {
        return Err(InspectError::TotalTooLarge {
            count: entries.len(),
            total,
            limit: MAX_TOTAL_BYTES,
        });
    }
    Ok(())
}

/// The decoded bytes of a zstd member: every frame in turn (multi-frame
/// members are written for large samples), skippable frames skipped, each
/// frame's declared content size checked against what it holds but never
/// used to allocate.
struct ZstdFrames<'a> {
    input: &'a [u8],
    frame: Option<ruzstd::decoding::StreamingDecoder<&'a [u8], ruzstd::decoding::FrameDecoder>>,
    produced: u64,
}

impl Read for ZstdFrames<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        loop {
            if let Some(f) = self.frame.as_mut() {
                let n = f.read(buf)?;
                if n > 0 || buf.is_empty() {
                    self.produced += n as u64;
                    return Ok(n);
                }
                let Some(f) = self.frame.take() else {
                    return Ok(0);
                };
                let declared = f.decoder.content_size();
                // 0: no size in the header (ruzstd reports it as 0).
                if declared != 0 && declared != self.produced {
                    return Err(std::io::Error::other(format!(
                        "a zstd frame declares {declared} bytes and holds {}",
                        self.produced
                    )));
                }
                self.input = f.into_inner();
            }
            if self.input.is_empty() {
                return Ok(0);
            }
            let mut decoder = ruzstd::decoding::FrameDecoder::new();
            decoder.set_max_window_size(MAX_ZSTD_WINDOW);
            match ruzstd::decoding::StreamingDecoder::new_with_decoder(self.input, decoder) {
                Ok(f) => {
                    self.frame = Some(f);
                    self.produced = 0;
                }
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    self.input = self.input.get(8 + length as usize..).ok_or_else(|| {
                        std::io::Error::other("a skippable zstd frame runs past the member")
                    })?;
                }
                Err(e) => return Err(std::io::Error::other(e)),
            }
        }
    }
}

/// Read one member (stored, deflate or zstd) through a streaming decoder, at
/// most one byte past its declared size, into a buffer grown as data arrives;
/// then check the size and the CRC-32 its entry declares.
fn member(bytes: &[u8], e: &EntryInfo) -> Result<Vec<u8>, InspectError> {
    let err = |message: String| InspectError::Entry {
        entry: e.name.clone(),
        message,
    };
    if e.encrypted {
        return Err(err("the member is encrypted (not read)".into()));
    }
    // `directory` checked that the range lies in the file.
    let raw = usize::try_from(e.data_start)
        .ok()
        .zip(usize::try_from(e.data_start + e.compressed).ok())
        .and_then(|(a, b)| bytes.get(a..b))
        .ok_or_else(|| err("the member's data lies outside the file".into()))?;
    let (mut reader, kind): (Box<dyn Read + '_>, &str) = match e.method {
        zip::CompressionMethod::Stored => (Box::new(raw), "stored"),
        zip::CompressionMethod::Deflated => {
            (Box::new(flate2::read::DeflateDecoder::new(raw)), "deflate")
        }
        zip::CompressionMethod::ZSTD => (
            Box::new(ZstdFrames {
                input: raw,
                frame: None,
                produced: 0,
            }),
            "zstd",
        ),
        other => {
            return Err(err(format!(
                "compression method {other} is not read (expected deflate 8 or zstd 93)"
            )))
        }
    };
    // One byte past the declared size tells a member that goes on.
    let limit = usize::try_from(e.size.saturating_add(1)).unwrap_or(usize::MAX);
    let mut out: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let room = limit - out.len();
        if room == 0 {
            break;
        }
        let want = room.min(chunk.len());
        let n = match reader.read(&mut chunk[..want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(x) if x.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(x) => return Err(err(format!("{kind} data could not be decoded: {x}"))),
        };
        if out.capacity() - out.len() < n {
            // Double, but never past the limit.
            let grow = out.capacity().max(n).max(64 << 10).min(limit - out.len());
            out.try_reserve_exact(grow).map_err(|_| {
                err(format!(
                    "out of memory decompressing the member ({} bytes could not be allocated)",
                    out.len() + grow
                ))
            })?;
        }
        out.extend_from_slice(&chunk[..n]);
    }
    if out.len() as u64 > e.size {
        return Err(err(format!(
            "decompresses to more than the {} bytes its entry declares",
            e.size
        )));
    }
    if (out.len() as u64) < e.size {
        return Err(err(format!(
            "decompresses to {} bytes, its entry declares {}",
            out.len(),
            e.size
        )));
    }
    let mut crc = flate2::Crc::new();
    crc.update(&out);
    if crc.sum() != e.crc {
        return Err(err(format!(
            "the decompressed data's CRC-32 is {:08x}, its entry declares {:08x}: the member is damaged",
            crc.sum(),
            e.crc
        )));
    }
    Ok(out)
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
                    if let Some(i) = p.image {
                        o.insert("image".into(), Value::String(i));
                    }
                    if p.redacted == Some(true) {
                        o.insert("redacted".into(), Value::Bool(true));
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

/// What a sample says of its run beyond messages and scores: the limit
/// that stopped it, its error, the model's last stop reason, tokens per
/// model, and its time (in the viewer's order).
fn sample_details(s: &Sample) -> Vec<Detail> {
    let mut out = Vec::new();
    let mut push = |label: &str, value: Value| {
        out.push(Detail {
            label: label.to_string(),
            value,
        });
    };
    if let Some(l) = &s.limit {
        let kind = l.kind.as_deref().unwrap_or("unknown");
        push(
            "limit",
            Value::String(match &l.limit {
                Some(v) => format!("{kind} limit ({v}) reached"),
                None => format!("{kind} limit reached"),
            }),
        );
    }
    if let Some(e) = &s.error {
        push(
            "error",
            Value::String(e.message.clone().unwrap_or_else(|| "(no message)".into())),
        );
    }
    if let Some(r) = s
        .output
        .as_ref()
        .and_then(|o| o.choices.first())
        .and_then(|c| c.stop_reason.clone())
    {
        push("model's last stop reason", Value::String(r));
    }
    if let Some(u) = s.model_usage.as_ref().filter(|u| !is_empty_value(u)) {
        push("tokens", u.clone());
    }
    let mut time = serde_json::Map::new();
    if let Some(t) = s.total_time {
        time.insert("total_seconds".into(), Value::from(t));
    }
    if let Some(t) = s.working_time {
        time.insert("working_seconds".into(), Value::from(t));
    }
    if !time.is_empty() {
        push("duration", Value::Object(time));
    }
    out
}

/// `null`, `{}` or `[]`.
fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(o) => o.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
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
    let eval_id = header.as_ref().and_then(|h| h.eval.eval_id.clone());
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
        // The sample's end: an error, a limit, or neither (the model's last
        // `stop_reason` is not a termination: it is shown as what it is).
        let termination_reason = if s.error.is_some() {
            Some("error".to_string())
        } else {
            s.limit
                .as_ref()
                .map(|l| format!("{}_limit", l.kind.as_deref().unwrap_or("unknown")))
        };
        let details = sample_details(&s);
        let scores = s
            .scores
            .into_iter()
            .flatten()
            .map(|(scorer, sc)| crate::trajectory::Score {
                scorer,
                value: sc.value,
                answer: sc.answer,
                explanation: sc.explanation,
                metadata: sc.metadata.filter(|m| !is_empty_value(m)),
            })
            .collect();
        let task_id = if task.is_empty() {
            sid.clone()
        } else {
            format!("{task}:{sid}")
        };
        trajectories.push(Trajectory {
            source_id: eval_id
                .as_ref()
                .map(|e| format!("inspect\u{1f}{e}\u{1f}{sid}\u{1f}{}", s.epoch)),
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
            details,
            scores,
            ..Default::default()
        });
    }
    Ok(Corpus {
        trajectories,
        skipped,
        reward_mappings: mapping.into_iter().collect(),
        notes: Vec::new(),
        warnings: Vec::new(),
        ..Corpus::default()
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
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "Inspect writes member names in lower case; `.JSON` is not a sample"
)]
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
    let entries = directory(&mut archive, bytes.len() as u64)?;
    drop(archive);
    let header_name = ["header.json", "_journal/start.json"]
        .into_iter()
        .find(|n| entries.iter().any(|x| x.name == *n))
        .ok_or_else(|| {
            InspectError::NoHeader(
                entries
                    .iter()
                    .take(5)
                    .map(|e| e.name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })?;
    // Only the header and the samples are decompressed (and counted).
    let read: Vec<&EntryInfo> = entries
        .iter()
        .filter(|e| e.name == header_name || sample_member(&e.name))
        .collect();
    check_limits(&read)?;
    let mut header: Option<Header> = None;
    let mut samples = Vec::new();
    let mut skipped: Vec<LineError> = Vec::new();
    let mut chunked = Vec::new();
    for e in &entries {
        let name = &e.name;
        if *name == header_name {
            let b = member(bytes, e)?;
            let h: Header = parse(name, &b)?;
            check_version(name, h.version)?;
            header = Some(h);
        } else if sample_member(name) {
            match member(bytes, e).and_then(|b| parse::<Sample>(name, &b)) {
                Ok(s) => samples.push(s),
                Err(e) => skipped.push(LineError {
                    line: 0,
                    message: e.to_string(),
                }),
            }
        } else if name.starts_with("samples/") && name.ends_with("/sample.json") {
            chunked.push(name.clone());
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
