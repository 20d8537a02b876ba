//! Harbor job and trial directories ([`super::folder`]): each trial's
//! `agent/trajectory.json` (ATIF, [`super::atif`]), its reward from
//! `result.json` (`verifier_result.rewards.reward`) or `verifier/reward.txt`,
//! and trials that failed for reasons not the agent's excluded
//! ([`super::Corpus::excluded`]).
//!
//! The layout and the fields are Harbor's own (`harbor/models/trial/paths.py`
//! `TrialPaths`, `harbor/models/trial/result.py` `TrialResult`,
//! `harbor/job.py`): a job folder holds `config.json`, `result.json`,
//! `job.log` and one folder per trial; a trial folder holds `config.json`,
//! `result.json`, `trial.log`, `exception.txt` (when it failed), `agent/`
//! (the agent's logs, `trajectory.json` for agents that write ATIF),
//! `verifier/` (`reward.txt` or `reward.json`, test output) and
//! `artifacts/`; a multi-step trial keeps `agent/` and `verifier/` per step
//! under `steps/<name>/`.
//!
//! Which failures are not the agent's is Harbor's own table
//! (`harbor/models/trial/error_policy.py`, 0.26.0): an exception whose
//! policy gives no valid reward ([`INVALID_REWARD`]), or any exception
//! when the verifier gave no reward, makes the trial an infrastructure
//! error, excluded from the scores and listed; an exception whose policy
//! keeps the reward (an agent timeout, a non-zero agent exit, a context
//! window exceeded, and any type the table does not name) is scored, the
//! exception shown beside the trajectory.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::{json, Value};

use super::folder::{Folder, FolderFormat, Group};
use super::{atif, Corpus, Excluded, ReadOptions};
use crate::trajectory::{Detail, LineError, Message, Trajectory};

/// The exception types whose reward Harbor does not count
/// (`has_valid_reward=False` in `harbor/models/trial/error_policy.py`,
/// 0.26.0), and `EnvironmentBuildTimeoutError`, an environment error of
/// older versions (`harbor/trial/trial.py`, 0.1.31) that the table no
/// longer names.
pub const INVALID_REWARD: &[&str] = &[
    // Environment and verifier setup (should_grade=False).
    "EnvironmentStartTimeoutError",
    "EnvironmentBuildTimeoutError",
    "SandboxBuildFailedError",
    "AgentSetupTimeoutError",
    "HealthcheckError",
    "SandboxLikelyOutOfMemoryError",
    "MemoryLimitExceededError",
    "SSHAccessError",
    "GKEExecStreamClosedError",
    "GKEPodNotFoundError",
    "RuntimeRequestError",
    "AddTestsDirError",
    "DownloadVerifierDirError",
    // Model API failures (retried, reward not valid).
    "ApiError",
    "ApiRateLimitError",
    "ApiInternalServerError",
    "ApiOverloadedError",
    "ApiConnectionClosedError",
    "ApiResponseStalledError",
    "UnknownApiError",
    "NetworkConnectionError",
    "ApiConnectionError",
    "ApiUsageLimitError",
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
    "APIConnectionError",
    "APIError",
    "Timeout",
    // Requests refused and the verifier's own failures.
    "UnsupportedModelParametersError",
    "BadRequestError",
    "UnprocessableEntityError",
    "UnsupportedParamsError",
    "APIResponseValidationError",
    "BudgetExceededError",
    "VerifierTimeoutError",
    "RewardFileNotFoundError",
    "RewardFileEmptyError",
    "VerifierOutputParseError",
    // Configuration, credentials, cancellation.
    "AgentAuthenticationError",
    "ModelNotFoundError",
    "ApiProviderResourceNotFoundError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ServiceOperationsUnsupportedError",
    "VercelScopeError",
    "DspyImportError",
    "MissingExtraError",
    "RegradeError",
    "CancelledError",
];

#[derive(Deserialize)]
struct TrialResult {
    #[serde(default)]
    id: Option<String>,
    task_name: String,
    trial_name: String,
    #[serde(default)]
    source: Option<String>,
    agent_info: AgentInfo,
    #[serde(default)]
    agent_result: Option<AgentContext>,
    #[serde(default)]
    verifier_result: Option<VerifierResult>,
    #[serde(default)]
    exception_info: Option<ExceptionInfo>,
    #[serde(default)]
    step_results: Option<Vec<StepResult>>,
    #[serde(default)]
    config: Option<TrialConfig>,
}

#[derive(Deserialize)]
struct AgentInfo {
    name: String,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    model_info: Option<ModelInfo>,
}

#[derive(Deserialize)]
struct ModelInfo {
    name: String,
}

#[derive(Deserialize)]
struct AgentContext {
    #[serde(default)]
    n_input_tokens: Option<i64>,
    #[serde(default)]
    n_cache_tokens: Option<i64>,
    #[serde(default)]
    n_output_tokens: Option<i64>,
    #[serde(default)]
    cost_usd: Option<f64>,
}

#[derive(Deserialize)]
struct VerifierResult {
    #[serde(default)]
    rewards: Option<IndexMap<String, f64>>,
}

#[derive(Deserialize)]
struct ExceptionInfo {
    exception_type: String,
    #[serde(default)]
    exception_message: String,
    #[serde(default)]
    occurred_at: Option<String>,
    #[serde(default)]
    policy_override: Option<PolicyOverride>,
}

#[derive(Deserialize)]
struct PolicyOverride {
    #[serde(default)]
    has_valid_reward: Option<bool>,
}

#[derive(Deserialize)]
struct StepResult {
    #[serde(default)]
    step_name: Option<String>,
    #[serde(default)]
    exception_info: Option<ExceptionInfo>,
}

#[derive(Deserialize)]
struct TrialConfig {
    #[serde(default)]
    agent: Option<AgentConfig>,
}

#[derive(Deserialize)]
struct AgentConfig {
    #[serde(default)]
    model_name: Option<String>,
}

impl ExceptionInfo {
    /// Whether Harbor counts a reward recorded beside this exception.
    fn reward_valid(&self) -> bool {
        self.policy_override
            .as_ref()
            .and_then(|o| o.has_valid_reward)
            .unwrap_or_else(|| !INVALID_REWARD.contains(&self.exception_type.as_str()))
    }
    fn summary(&self) -> String {
        let first = self.exception_message.lines().next().unwrap_or("").trim();
        let first: String = first.chars().take(200).collect();
        if first.is_empty() {
            self.exception_type.clone()
        } else {
            format!("{}: {first}", self.exception_type)
        }
    }
    fn detail(&self) -> Value {
        let mut o = serde_json::Map::new();
        o.insert("type".into(), Value::from(self.exception_type.as_str()));
        o.insert(
            "message".into(),
            Value::from(
                self.exception_message
                    .chars()
                    .take(2000)
                    .collect::<String>(),
            ),
        );
        if let Some(t) = &self.occurred_at {
            o.insert("occurred_at".into(), Value::from(t.as_str()));
        }
        Value::Object(o)
    }
}

/// What one trial gave.
enum Trial {
    Scored(Box<Trajectory>),
    Excluded(Excluded),
}

/// Counts for the group's warnings.
#[derive(Default)]
struct Tally {
    no_trajectory: Vec<String>,
    no_reward: Vec<String>,
    no_source: usize,
    no_model: Vec<String>,
    agents_by_model: BTreeMap<String, Vec<String>>,
}

/// Read a Harbor job or trial folder (its members through `folder`), one
/// trial at a time: each trial's files are read, turned into a trajectory
/// (or an exclusion) and dropped before the next trial's.
pub fn read_group(
    group: &Group,
    folder: &mut dyn Folder,
    options: &ReadOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Corpus, String> {
    let lone = group.format == FolderFormat::HarborTrial;
    let trials = trial_dirs(group);
    let total = group.members.len();
    let mut corpus = Corpus::default();
    let mut tally = Tally::default();
    let mut done = 0usize;
    progress(0, total);
    for dir in &trials {
        let n_members = group
            .members
            .iter()
            .filter(|m| in_dir(group.relative(m), dir))
            .count();
        let read =
            read_trial(group, dir, folder, options, &mut corpus, &mut tally).and_then(
                |t| match t {
                    Trial::Scored(mut t) => {
                        if let Some(m) = &options.model {
                            t.model.clone_from(m);
                        }
                        crate::trajectory::check_names(&t, options.model.is_none())
                            .and_then(|()| crate::trajectory::check_labels(&t))
                            .map_err(|why| format!("{}: {why}", trial_label(group, dir)))?;
                        Ok(Trial::Scored(t))
                    }
                    excluded @ Trial::Excluded(_) => Ok(excluded),
                },
            );
        match read {
            Ok(Trial::Scored(mut t)) => {
                if options.light && options.keep.as_deref() != Some(t.id.as_str()) {
                    t.lighten();
                }
                corpus.trajectories.push(*t);
            }
            Ok(Trial::Excluded(e)) => corpus.excluded.push(e),
            Err(why) if lone => return Err(why),
            Err(why) => corpus.skipped.push(LineError {
                line: 0,
                message: why,
            }),
        }
        done += n_members;
        progress(done, total);
    }
    progress(total, total);
    finish_warnings(&mut corpus, &tally, trials.len());
    if corpus.trajectories.is_empty() {
        return Err(nothing_read(group, &corpus, trials.len()));
    }
    Ok(corpus)
}

/// The trial folders of a group, relative to its root (`""`: the root).
fn trial_dirs(group: &Group) -> Vec<String> {
    if group.format == FolderFormat::HarborTrial {
        return vec![String::new()];
    }
    let mut dirs: Vec<String> = group
        .members
        .iter()
        .filter_map(|m| group.relative(m).strip_suffix("/result.json"))
        .filter(|d| !d.contains('/') && !d.starts_with('.'))
        .map(str::to_string)
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

fn in_dir(rel: &str, dir: &str) -> bool {
    dir.is_empty()
        || rel
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// How a trial is named in messages.
fn trial_label(group: &Group, dir: &str) -> String {
    let path = join(&group.root, dir);
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        "the trial folder".into()
    } else {
        format!("trial `{path}`")
    }
}

fn read_text(folder: &mut dyn Folder, path: &str) -> Result<String, String> {
    let bytes = folder.read(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        format!(
            "not UTF-8 text (byte {at}, line {})",
            crate::text::line_of_offset(e.as_bytes(), at)
        )
    })
}

/// The reward of a trial: `rewards.reward`, or the only reward; and a
/// sentence when the rewards name several and none is `reward`.
fn pick_reward(rewards: &IndexMap<String, f64>) -> Result<Option<f64>, String> {
    if let Some(r) = rewards.get("reward") {
        return Ok(Some(*r));
    }
    match rewards.len() {
        0 => Ok(None),
        1 => Ok(rewards.values().next().copied()),
        _ => {
            Err(format!(
            "its verifier gave several rewards and none named `reward` ({}); read with no reward",
            rewards.keys().take(8).cloned().collect::<Vec<_>>().join(", ")
        ))
        }
    }
}

/// `verifier/reward.txt` (one number) or `verifier/reward.json` (a flat
/// object of rewards), as Harbor's verifier reads them.
fn reward_file(group: &Group, dir: &str, folder: &mut dyn Folder) -> Result<Option<f64>, String> {
    if let Some(m) = group.member(&join(dir, "verifier/reward.txt")) {
        let text = read_text(folder, m)?;
        let v: f64 = text.trim().parse().map_err(|_| {
            format!(
                "verifier/reward.txt: `{}` is not a number",
                short(text.trim())
            )
        })?;
        if !v.is_finite() {
            return Err(format!("verifier/reward.txt: {v} is not a finite number"));
        }
        return Ok(Some(v));
    }
    if let Some(m) = group.member(&join(dir, "verifier/reward.json")) {
        let text = read_text(folder, m)?;
        let rewards: IndexMap<String, f64> = serde_json::from_str(&text)
            .map_err(|e| format!("verifier/reward.json: {e} (expected an object of numbers)"))?;
        return pick_reward(&rewards);
    }
    Ok(None)
}

fn short(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

#[allow(
    clippy::too_many_lines,
    reason = "one trial's files in the order a reader checks them"
)]
fn read_trial(
    group: &Group,
    dir: &str,
    folder: &mut dyn Folder,
    options: &ReadOptions,
    corpus: &mut Corpus,
    tally: &mut Tally,
) -> Result<Trial, String> {
    let who = trial_label(group, dir);
    let result_path = group
        .member(&join(dir, "result.json"))
        .ok_or_else(|| format!("{who}: no result.json"))?;
    let r: TrialResult = {
        let text =
            read_text(folder, result_path).map_err(|e| format!("{who}: result.json: {e}"))?;
        serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
            let msg = e.to_string();
            let path = atif::json_path(
                &text,
                atif::offset_of(&text, e.line(), e.column()),
                msg.starts_with("missing field"),
            );
            let msg = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(m, _)| m);
            format!(
                "{who}: result.json: {path}: {msg} (line {}, column {})",
                e.line(),
                e.column()
            )
        })?
    };
    let domain = r.source.clone().or_else(|| options.domain.clone());
    let task_label = match &domain {
        Some(d) => format!("{d}/{}", r.task_name),
        None => r.task_name.clone(),
    };
    // The reward: result.json's, else the verifier's files.
    let mut reward = None;
    if let Some(rewards) = r.verifier_result.as_ref().and_then(|v| v.rewards.as_ref()) {
        match pick_reward(rewards) {
            Ok(v) => reward = v,
            Err(why) => corpus.warnings.push(format!("{who}: {why}")),
        }
    }
    if reward.is_none() && r.verifier_result.is_none() {
        match reward_file(group, dir, folder) {
            Ok(v) => reward = v,
            Err(why) => corpus.notes.push(LineError {
                line: 0,
                message: format!("{who}: {why}; read with no reward"),
            }),
        }
    }
    let exceptions: Vec<&ExceptionInfo> = r
        .exception_info
        .iter()
        .chain(
            r.step_results
                .iter()
                .flatten()
                .filter_map(|s| s.exception_info.as_ref()),
        )
        .collect();
    if let Some(first) = exceptions.first() {
        let invalid = exceptions.iter().find(|e| !e.reward_valid());
        if reward.is_none() || invalid.is_some() {
            let e = invalid.unwrap_or(first);
            let why = if invalid.is_some() {
                "Harbor's error policy counts no reward beside this exception (an environment, verifier, model-API or configuration failure)"
            } else {
                "the run ended with an exception and the verifier gave no reward"
            };
            let model = options.model.clone().or_else(|| {
                r.agent_info
                    .model_info
                    .as_ref()
                    .map(|m| m.name.clone())
                    .or_else(|| {
                        r.config
                            .as_ref()
                            .and_then(|c| c.agent.as_ref())
                            .and_then(|a| a.model_name.clone())
                    })
            });
            return Ok(Trial::Excluded(Excluded {
                id: r.trial_name,
                task: task_label,
                reason: format!("{}; {why}", e.summary()),
                model,
            }));
        }
    }
    if reward.is_none() {
        tally.no_reward.push(r.trial_name.clone());
    }
    // The messages: the agent's ATIF trajectory, or each step's.
    let mut paths: Vec<(Option<String>, &str)> = Vec::new();
    if let Some(m) = group.member(&join(dir, "agent/trajectory.json")) {
        paths.push((None, m));
    } else {
        let names: Vec<&str> = r
            .step_results
            .iter()
            .flatten()
            .filter_map(|s| s.step_name.as_deref())
            .collect();
        for name in names {
            if let Some(m) =
                group.member(&join(dir, &format!("steps/{name}/agent/trajectory.json")))
            {
                paths.push((Some(name.to_string()), m));
            }
        }
    }
    let mut messages: Vec<Message> = Vec::new();
    let mut details: Vec<Detail> = Vec::new();
    let mut atif_model = None;
    for (step, path) in &paths {
        let rel = group.relative(path);
        let parsed =
            read_text(folder, path).and_then(|t| atif::parse(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(p) => {
                if let Some(s) = step {
                    messages.push(Message {
                        role: "system".into(),
                        content: Some(Value::from(format!("[Harbor step `{s}`]"))),
                        tool_calls: Vec::new(),
                        tool_call_id: None,
                        error: None,
                    });
                }
                messages.extend(p.messages);
                if details.is_empty() {
                    details = p.details;
                    atif_model = p.model;
                }
                corpus.notes.extend(p.notes.into_iter().map(|n| LineError {
                    line: 0,
                    message: format!("{who}: {rel}: {n}"),
                }));
            }
            Err(why) => corpus.notes.push(LineError {
                line: 0,
                message: format!("{who}: {rel}: {why}; the trial is kept without these messages"),
            }),
        }
    }
    if paths.is_empty() {
        tally.no_trajectory.push(r.trial_name.clone());
    }
    // The model: Harbor's record of it, else the trajectory's, else the
    // trial's configuration, else the agent's name.
    let model = r
        .agent_info
        .model_info
        .as_ref()
        .map(|m| m.name.clone())
        .or(atif_model)
        .or_else(|| {
            r.config
                .as_ref()
                .and_then(|c| c.agent.as_ref())
                .and_then(|a| a.model_name.clone())
        });
    let model = model.unwrap_or_else(|| {
        if options.model.is_none() {
            tally.no_model.push(r.trial_name.clone());
        }
        r.agent_info.name.clone()
    });
    let agent = match &r.agent_info.version {
        Some(v) => format!("{} {v}", r.agent_info.name),
        None => r.agent_info.name.clone(),
    };
    let agents = tally.agents_by_model.entry(model.clone()).or_default();
    if !agents.contains(&r.agent_info.name) {
        agents.push(r.agent_info.name.clone());
    }
    if domain.is_none() {
        tally.no_source += 1;
    }
    // Details: Harbor's first, then the trajectory's (its agent line and
    // tokens replaced by the result's when it has them).
    let mut out = vec![Detail {
        label: "agent".into(),
        value: Value::from(agent),
    }];
    if let Some(e) = exceptions.first() {
        out.push(Detail {
            label: "exception (scored: Harbor counts the reward)".into(),
            value: e.detail(),
        });
    }
    if let Some(rw) = r.verifier_result.as_ref().and_then(|v| v.rewards.as_ref()) {
        if rw.len() > 1 {
            out.push(Detail {
                label: "rewards".into(),
                value: json!(rw),
            });
        }
    }
    let tokens = r.agent_result.as_ref().and_then(|a| {
        let mut o = serde_json::Map::new();
        for (k, v) in [
            ("input_tokens", a.n_input_tokens.map(Value::from)),
            ("cached_tokens", a.n_cache_tokens.map(Value::from)),
            ("output_tokens", a.n_output_tokens.map(Value::from)),
            ("cost_usd", a.cost_usd.map(Value::from)),
        ] {
            if let Some(v) = v {
                o.insert(k.into(), v);
            }
        }
        (!o.is_empty()).then(|| {
            o.insert("from".into(), "result.json agent_result".into());
            Value::Object(o)
        })
    });
    let has_tokens = tokens.is_some();
    out.extend(tokens.map(|value| Detail {
        label: "tokens and cost".into(),
        value,
    }));
    out.extend(
        details
            .into_iter()
            .filter(|d| d.label != "agent" && !(has_tokens && d.label == "tokens and cost")),
    );
    let source_id = r.id.as_ref().map_or_else(
        || format!("harbor\u{1f}{}", r.trial_name),
        |id| format!("harbor\u{1f}{id}"),
    );
    Ok(Trial::Scored(Box::new(Trajectory {
        id: r.trial_name,
        model,
        domain,
        task_id: r.task_name,
        reward,
        termination_reason: exceptions.first().map(|e| e.exception_type.clone()),
        messages,
        details: out,
        source_id: Some(source_id),
        ..Trajectory::default()
    })))
}

fn names(list: &[String]) -> String {
    let mut shown: Vec<String> = list.iter().take(3).map(|n| format!("`{n}`")).collect();
    if list.len() > 3 {
        shown.push(format!("… {} more", list.len() - 3));
    }
    shown.join(", ")
}

fn finish_warnings(corpus: &mut Corpus, tally: &Tally, trials: usize) {
    if !corpus.excluded.is_empty() {
        corpus.warnings.push(format!(
            "{} of {trials} trials are infrastructure errors (an exception and no verifier reward, or an exception whose reward Harbor does not count): excluded from every denominator and listed",
            corpus.excluded.len()
        ));
    }
    if !tally.no_reward.is_empty() {
        corpus.warnings.push(format!(
            "{} trials have no verifier reward and no exception (verification disabled or not run): read with no reward ({})",
            tally.no_reward.len(),
            names(&tally.no_reward)
        ));
    }
    if !tally.no_trajectory.is_empty() {
        corpus.warnings.push(format!(
            "{} trials have no `agent/trajectory.json` (their agent wrote no ATIF trajectory): read without messages ({})",
            tally.no_trajectory.len(),
            names(&tally.no_trajectory)
        ));
    }
    if tally.no_source > 0 {
        corpus.warnings.push(format!(
            "{} trials name no dataset (`source` in result.json): their tasks are taken to be of domain `{}`; give the task set with --domain",
            tally.no_source,
            crate::trajectory::UNKNOWN_DOMAIN
        ));
    }
    if !tally.no_model.is_empty() {
        corpus.warnings.push(format!(
            "{} trials name no model (no `agent_info.model_info`, ATIF `model_name` or configured `model_name`): taken to be of the agent's name ({}); give the model with --model",
            tally.no_model.len(),
            names(&tally.no_model)
        ));
    }
    for (model, agents) in &tally.agents_by_model {
        if agents.len() > 1 {
            corpus.warnings.push(format!(
                "model `{model}` was run by several agents ({}): their trials are read as one model; rename them apart with --rename if they should not be",
                agents.join(", ")
            ));
        }
    }
}

/// Why a group gave no trajectory.
fn nothing_read(group: &Group, corpus: &Corpus, trials: usize) -> String {
    let what = match group.format {
        FolderFormat::HarborTrial => "the Harbor trial",
        _ => "the Harbor job",
    };
    if trials == 0 {
        return format!("{what} has no trial folder with a result.json");
    }
    let mut parts = Vec::new();
    if !corpus.excluded.is_empty() {
        parts.push(format!(
            "{} infrastructure errors (first: {}: {})",
            corpus.excluded.len(),
            corpus.excluded[0].id,
            corpus.excluded[0].reason
        ));
    }
    if let Some(first) = corpus.skipped.first() {
        parts.push(format!(
            "{} unreadable (first: {})",
            corpus.skipped.len(),
            first.message
        ));
    }
    format!(
        "{what} has no trial that could be scored: of {trials} trials, {}",
        parts.join("; ")
    )
}
