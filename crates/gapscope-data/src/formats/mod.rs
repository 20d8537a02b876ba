//! Trajectory files: one module per format and the sniffer that tells them
//! apart ([`detect`], [`detect_bytes`], [`read_any_bytes`]).
//!
//! - [`jsonl`]: canonical JSONL, line by line (a malformed line is reported
//!   with its number and the rest still read).
//! - [`tau2`]: τ²-bench results files.
//! - [`inspect`]: Inspect AI `.eval` (zip; deflate or zstd) and `.json` logs.

pub mod inspect;
pub mod jsonl;
pub mod tau2;

use serde::{Deserialize, Serialize};

use crate::trajectory::{bad_name, check_names, LineError, Trajectory, UNKNOWN_DOMAIN};
pub use jsonl::{read_jsonl, read_jsonl_with, JsonlLines};

/// What a JSONL file gave: the trajectories read and the lines skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Corpus {
    pub trajectories: Vec<Trajectory>,
    pub skipped: Vec<LineError>,
    /// How score values became rewards (Inspect logs; one per log read).
    #[serde(default)]
    pub reward_mappings: Vec<crate::formats::inspect::RewardMapping>,
    /// Lines read and kept that still deserve a look (canonical JSONL: tool
    /// results that answer no earlier tool call of their trajectory).
    #[serde(default)]
    pub notes: Vec<LineError>,
    /// What the reader says of the file as a whole (e.g. a τ²-bench file
    /// that names no domain), one sentence each, without the file name.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// [`check_names`] over a file read whole (τ²-bench, Inspect): the first bad
/// name refuses the file (its model comes from the file's metadata, so
/// every trajectory would carry it).
fn check_corpus_names(c: &Corpus, model: bool) -> Result<(), String> {
    c.trajectories
        .iter()
        .try_for_each(|t| check_names(t, model))
}

/// What kind of trajectory file a text is, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrajectoryFormat {
    /// Canonical JSONL: the first non-blank line is an object with `task_id`.
    Jsonl,
    /// A τ²-bench results file: an object with `simulations`, or a bare list
    /// of simulations.
    Tau2,
    /// An Inspect AI `.json` log (an object with `version`/`status` and `eval`).
    InspectJson,
    /// An Inspect AI `.eval` log (a zip archive; bytes only, see [`detect_bytes`]).
    InspectEval,
}

/// Recognize a trajectory file by its content (a JSON profile file, an object
/// with `models`, is not one).
pub fn detect(text: &str) -> Option<TrajectoryFormat> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    let first_line = t.lines().next().unwrap_or_default();
    // An object with a top-level `task_id`; its values are skipped, not built
    // (a single-line results file can be megabytes long).
    #[derive(Deserialize)]
    struct Probe {
        #[serde(default)]
        task_id: Option<serde::de::IgnoredAny>,
    }
    if first_line.starts_with('{') {
        if let Ok(Probe { task_id: Some(_) }) = serde_json::from_str::<Probe>(first_line) {
            return Some(TrajectoryFormat::Jsonl);
        }
    }
    if crate::formats::inspect::looks_like_json_log(t) {
        return Some(TrajectoryFormat::InspectJson);
    }
    // A bare list shows `task_id` in its first simulation; an object has a
    // `simulations` key somewhere after its (possibly large) `tasks`.
    let head: String = t.chars().take(4096).collect();
    if (t.starts_with('{') && t.contains("\"simulations\""))
        || (t.starts_with('[') && head.contains("\"task_id\""))
    {
        return Some(TrajectoryFormat::Tau2);
    }
    None
}

/// Read a trajectory file of either format. τ²-bench simulations take the
/// model from `info.agent_info.llm` unless `model` overrides it (metadata can
/// be wrong; bare lists have none, and then the file name is used).
pub fn read_any(name: &str, text: &str, model: Option<&str>) -> Result<Corpus, String> {
    match detect(text) {
        Some(TrajectoryFormat::Jsonl) => {
            let mut c = read_jsonl(text);
            if let Some(m) = model {
                for t in &mut c.trajectories {
                    t.model = m.to_string();
                }
            }
            Ok(c)
        }
        Some(TrajectoryFormat::Tau2) => {
            let r = crate::formats::tau2::read_results(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, None)
        }
        Some(TrajectoryFormat::InspectJson) => {
            let c = crate::formats::inspect::read_json(
                name,
                text.as_bytes(),
                model,
                &crate::formats::inspect::ScoreChoice::default(),
            )
            .map_err(|e| e.to_string())?;
            check_corpus_names(&c, model.is_none())?;
            Ok(c)
        }
        Some(TrajectoryFormat::InspectEval) | None => Err(NOT_TRAJECTORIES.into()),
    }
}

/// Why each trajectory reader declined a file that gave no trajectory, one
/// clause per reader (`reader: why`), for the error that names the file
/// (issue 14: an explicitly named file that yields nothing is an error).
pub fn readers_declined(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    if crate::formats::inspect::is_zip(bytes) {
        out.push("Inspect AI `.eval` log: a zip archive, but no sample in it could be read".into());
        return out;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        out.push("the text readers: not UTF-8 text".into());
        out.push("Inspect AI `.eval` log: not a zip archive".into());
        return out;
    };
    let text = text.trim_start_matches('\u{feff}');
    let jsonl = read_jsonl(text);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    out.push(match jsonl.skipped.first() {
        _ if lines == 0 => "canonical JSONL: the file is empty".into(),
        Some(first) => format!(
            "canonical JSONL: {} of {lines} non-blank line(s) skipped (first: {first})",
            jsonl.skipped.len()
        ),
        None if jsonl.trajectories.is_empty() => "canonical JSONL: no line is a trajectory".into(),
        None => "canonical JSONL: read".into(),
    });
    let t = text.trim_start();
    out.push(if t.starts_with('{') || t.starts_with('[') {
        match crate::formats::tau2::read_results(text) {
            Err(e) => format!("τ²-bench results: {e}"),
            Ok(r) if r.simulations.is_empty() => {
                "τ²-bench results: no simulation (expected an object with a `simulations` list, or a list of simulations)".into()
            }
            Ok(_) => "τ²-bench results: read".into(),
        }
    } else {
        "τ²-bench results: not a JSON object or list".into()
    });
    out.push(if crate::formats::inspect::looks_like_json_log(t) {
        "Inspect AI `.json` log: no sample could be read".into()
    } else {
        "Inspect AI `.json` log: no top-level `eval` with `version` or `status`".into()
    });
    out.push("Inspect AI `.eval` log: not a zip archive".into());
    out
}

const NOT_TRAJECTORIES: &str = "not a trajectory file (canonical JSONL, a τ²-bench results file, or an Inspect AI `.eval` or `.json` log)";

/// Recognize a trajectory file by its bytes: an Inspect `.eval` log is a zip
/// archive; UTF-8 text goes to [`detect`].
pub fn detect_bytes(bytes: &[u8]) -> Option<TrajectoryFormat> {
    if crate::formats::inspect::is_zip(bytes) {
        return Some(TrajectoryFormat::InspectEval);
    }
    std::str::from_utf8(bytes).ok().and_then(detect)
}

/// Options of [`read_any_bytes`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// Name every trajectory's model so (file metadata can be wrong).
    pub model: Option<String>,
    /// Inspect logs: the score that becomes the reward.
    pub score: crate::formats::inspect::ScoreChoice,
    /// Drop messages as they are read (keeping their counts).
    #[serde(default)]
    pub light: bool,
    /// With `light`: the one trajectory whose messages are kept.
    #[serde(default)]
    pub keep: Option<String>,
    /// The domain of trajectories whose file names none (a bare τ²-bench
    /// list, canonical lines without `domain`).
    #[serde(default)]
    pub domain: Option<String>,
}

/// Read a trajectory file of any format from its bytes (Inspect `.eval` logs
/// are zip archives; everything else must be UTF-8 text and goes the way of
/// [`read_any`]).
pub fn read_any_bytes(name: &str, bytes: &[u8], options: &ReadOptions) -> Result<Corpus, String> {
    let mut corpus = read_any_bytes_full(name, bytes, options)?;
    if options.light {
        for t in &mut corpus.trajectories {
            if options.keep.as_deref() != Some(t.id.as_str()) {
                t.lighten();
            }
        }
    }
    Ok(corpus)
}

fn read_any_bytes_full(name: &str, bytes: &[u8], options: &ReadOptions) -> Result<Corpus, String> {
    let model = options.model.as_deref();
    if let Some(why) = model.and_then(|m| bad_name("model name", m)) {
        return Err(format!("{why} (the name given for every trajectory)"));
    }
    if crate::formats::inspect::is_zip(bytes) {
        let c = crate::formats::inspect::read_eval(name, bytes, model, &options.score)
            .map_err(|e| e.to_string())?;
        check_corpus_names(&c, model.is_none())?;
        return Ok(c);
    }
    let text = crate::text::utf8(bytes).map_err(|e| format!("{e}, and not a zip archive"))?;
    match detect(text) {
        Some(TrajectoryFormat::InspectJson) => {
            let c = crate::formats::inspect::read_json(name, bytes, model, &options.score)
                .map_err(|e| e.to_string())?;
            check_corpus_names(&c, model.is_none())?;
            Ok(c)
        }
        Some(TrajectoryFormat::Jsonl) => {
            let mut c = read_jsonl_with(text, options);
            if let Some(m) = model {
                for t in &mut c.trajectories {
                    t.model = m.to_string();
                }
            }
            Ok(c)
        }
        // A light read that keeps no trajectory whole: message contents are
        // skipped by the parser (they would be dropped at once).
        Some(TrajectoryFormat::Tau2) if options.light && options.keep.is_none() => {
            let r = crate::formats::tau2::read_results_light(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, options.domain.as_deref())
        }
        Some(TrajectoryFormat::Tau2) => {
            let r = crate::formats::tau2::read_results(text).map_err(|e| e.to_string())?;
            tau2_corpus(name, r, model, options.domain.as_deref())
        }
        _ => read_any(name, text, model),
    }
}

/// The trajectories of a τ²-bench results file; the model from `model`, the
/// file's metadata, or the file name. A name that cannot be one (empty,
/// padded, over 4 KiB) refuses the file.
fn tau2_corpus<C: crate::formats::tau2::Content>(
    name: &str,
    r: crate::formats::tau2::Results<C>,
    model: Option<&str>,
    domain: Option<&str>,
) -> Result<Corpus, String> {
    let mut warnings = Vec::new();
    let mut r = r;
    if crate::formats::tau2::domain(&r).is_none() {
        match domain {
            Some(d) => {
                let info = r.info.get_or_insert_with(Default::default);
                info.environment_info = Some(crate::formats::tau2::EnvironmentInfo {
                    domain_name: Some(d.to_string()),
                });
            }
            None => warnings.push(format!(
                "names no domain (no `info.environment_info.domain_name`): its tasks are taken to be of domain `{UNKNOWN_DOMAIN}`, so they match only other `{UNKNOWN_DOMAIN}` tasks; give the domain (--domain)"
            )),
        }
    }
    let stem = name
        .rsplit('/')
        .next()
        .unwrap_or(name)
        .trim_end_matches(".json");
    let (m, from) = match (model, crate::formats::tau2::model_name(&r)) {
        (Some(m), _) => (m.to_string(), "the name given for every trajectory"),
        (None, Some(m)) => (
            m,
            "the file's `info.agent_info.llm`; give the name with --model",
        ),
        (None, None) => (stem.to_string(), "the file's name"),
    };
    if let Some(why) = bad_name("model name", &m) {
        return Err(format!("{why} ({from})"));
    }
    let c = Corpus {
        trajectories: crate::formats::tau2::into_trajectories(r, &m, name),
        warnings,
        ..Corpus::default()
    };
    // Simulation ids, task ids and the domain, located by simulation.
    for (i, t) in c.trajectories.iter().enumerate() {
        check_names(t, false).map_err(|why| format!("simulation {i}: {why}"))?;
    }
    Ok(c)
}
