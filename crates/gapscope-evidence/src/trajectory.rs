//! Trajectories with a case id (spec: evidence-to-action.md, "Trajectory
//! to score"; addendum §1: `condition`), read with located errors.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::spec::{Case, Protocol};
use crate::EvidenceError;
use gapscope_data::trajectory::Message;

/// A trajectory to score: the canonical trajectory plus `case_id`, `config`,
/// `condition` (addendum §1), `repetition` and `status`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceTrajectory {
    pub id: String,
    pub case_id: String,
    pub config: String,
    /// The intervention the run ran under (`baseline` when absent).
    pub condition: String,
    pub repetition: u32,
    /// `false` for `infrastructure_failure` runs.
    pub scored: bool,
    pub messages: Vec<Message>,
    /// The JSONL line it came from.
    pub line: u64,
}

#[derive(Deserialize)]
struct RawTrajectory {
    id: String,
    case_id: String,
    config: String,
    #[serde(default)]
    condition: Option<String>,
    repetition: u32,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    messages: Vec<Message>,
}

/// Read trajectories (JSONL, one a line; blank lines skipped). Every line
/// must parse, name a case of `cases`, and have a unique `id` and a unique
/// (case, config, condition, repetition) (addendum §1). `status` absent
/// means `scored`; `condition` absent means `baseline`. Under `static` only
/// V1 and Legacy cases may run.
pub fn read_trajectories(
    text: &str,
    cases: &[Case],
) -> Result<Vec<EvidenceTrajectory>, EvidenceError> {
    read_trajectories_as_given(text, cases).map_err(|e| crate::other_part(text, false).unwrap_or(e))
}

fn read_trajectories_as_given(
    text: &str,
    cases: &[Case],
) -> Result<Vec<EvidenceTrajectory>, EvidenceError> {
    let mut out: Vec<EvidenceTrajectory> = Vec::new();
    let mut ids: IndexMap<String, u64> = IndexMap::new();
    let mut runs: IndexMap<(String, String, String, u32), u64> = IndexMap::new();
    let case_protocols: std::collections::HashMap<&str, Protocol> = cases
        .iter()
        .map(|c| (c.case_id.as_str(), c.protocol))
        .collect();
    for (i, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let line = i as u64 + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let t: RawTrajectory =
            serde_json::from_str(raw).map_err(|e| EvidenceError::TrajectoryJson {
                line,
                column: e.column() as u64,
                message: gapscope_data::profile::json_message(&e),
            })?;
        let err = |message: String| EvidenceError::Trajectory {
            line,
            id: t.id.clone(),
            message,
        };
        if let Some(first) = ids.get(&t.id) {
            return Err(err(format!("id already used on line {first}")));
        }
        let Some(&protocol) = case_protocols.get(t.case_id.as_str()) else {
            return Err(err(format!(
                "case_id `{}` is not in the case file",
                t.case_id
            )));
        };
        if t.config.trim().is_empty() {
            return Err(err("field `config`: must not be empty".into()));
        }
        if t.config.contains(',') {
            return Err(err(format!(
                "field `config`: `{}` contains `,` (sides are separated by commas in --pair and the settings)",
                t.config
            )));
        }
        let condition = t
            .condition
            .clone()
            .unwrap_or_else(|| crate::spec::BASELINE.to_string());
        crate::spec::check_condition_name(&condition)
            .map_err(|m| err(format!("field `condition`: {m}")))?;
        if condition == crate::spec::STATIC && !matches!(protocol, Protocol::V1 | Protocol::Legacy)
        {
            return Err(err(format!(
                "field `condition`: `static` scores V1 and Legacy cases only; case `{}` is {}",
                t.case_id,
                protocol.name()
            )));
        }
        let key = (
            t.case_id.clone(),
            t.config.clone(),
            condition.clone(),
            t.repetition,
        );
        if let Some(first) = runs.get(&key) {
            return Err(err(format!(
                "case `{}`, config `{}`, condition `{}`, repetition {} already scored on line {first}",
                key.0, key.1, key.2, key.3
            )));
        }
        let scored = match t.status.as_deref().map(str::trim) {
            None => true,
            Some(s) if s.eq_ignore_ascii_case("scored") => true,
            Some(s) if s.eq_ignore_ascii_case("infrastructure_failure") => false,
            Some(s) => {
                return Err(err(format!(
                    "status `{s}` is neither `scored` nor `infrastructure_failure`"
                )))
            }
        };
        ids.insert(t.id.clone(), line);
        runs.insert(key, line);
        out.push(EvidenceTrajectory {
            id: t.id,
            case_id: t.case_id,
            config: t.config,
            condition,
            repetition: t.repetition,
            scored,
            messages: t.messages,
            line,
        });
    }
    Ok(out)
}
