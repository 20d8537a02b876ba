//! The SFT trace validity filter (addendum §7, the paper's Table 8).
//!
//! A teacher trace (`train_runtime` = `deploy_runtime`, the teacher being the
//! `base_model`) is kept for fine-tuning when it passes four rules over its
//! steps s_1..s_n, the *logged* turns in log order:
//!
//! - **R1** ([`Rule::Score`]): the score the caller chose (logged or
//!   verified) is ≥ [`FilterSettings::min_score`]; no score fails.
//! - **R2** ([`Rule::Finish`]): a recorded call of
//!   [`FilterSettings::finish_tool`] (whatever its `ok`) lies in the last
//!   [`FilterSettings::finish_window`] steps, s_{max(1, n−2)}..s_n by
//!   default; a trace with no such call anywhere passes iff its
//!   `termination` is `finish` ("finish by termination", counted).
//! - **R3** ([`Rule::Loop`]): with t_j the step's `completion` (else its
//!   `code`), no k < j ≤ k + [`FilterSettings::loop_window`] has
//!   [`crate::difflib::ratio`]`(t_k, t_j)` > [`FilterSettings::loop_threshold`]
//!   (the earlier text first). A step with neither text fails
//!   [`Rule::NoText`]; the pairs without it are still compared.
//! - **R4** ([`Rule::Errors`]): bad steps / n ≤
//!   [`FilterSettings::max_bad_density`], a step being bad when its `error` is
//!   non-empty and contains none of: the cap message, the `error` of a failed
//!   (`ok: false`) call of that turn, a contract error text.
//!
//! n = 0 fails R2 and R4. Traces are grouped per (`task_family`,
//! `base_model`); within a group, per runtime, the report counts the traces,
//! the failures of each rule (a trace counts under every rule it fails), the
//! failures of that rule alone and the valid traces; across runtimes, the
//! candidate pairs (ids with a trace under both), the dual-valid ones (valid
//! under both; an id repeated under a runtime is valid if any of its traces
//! is) and their yield.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::difflib;
use crate::log::{Episode, Runtime, Termination, Turn};

/// The filter's thresholds; [`Default`] gives the paper's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilterSettings {
    /// R1: the smallest score kept (paper: 0.5).
    pub min_score: f64,
    /// R3: a ratio strictly above this is a loop (paper: 0.9).
    pub loop_threshold: f64,
    /// R3: how many previous steps each step is compared with (paper: 4).
    pub loop_window: usize,
    /// R2: the last steps a `finish` call must lie in (paper: 3, i.e.
    /// s_{max(1,n−2)}..s_n).
    pub finish_window: usize,
    /// R4: the largest share of bad steps kept (paper: 0.1).
    pub max_bad_density: f64,
    /// R2: the tool whose call ends a trace (default `finish`).
    pub finish_tool: String,
    /// R4: a step error containing this text is a cap hit, not bad
    /// (default [`crate::DEFAULT_CAP_MESSAGE`]).
    pub cap_message: String,
    /// R4: further tool-contract error texts (`--contract-error`): a step
    /// error containing one is not bad.
    pub contract_errors: Vec<String>,
}

impl Default for FilterSettings {
    fn default() -> Self {
        FilterSettings {
            min_score: 0.5,
            loop_threshold: 0.9,
            loop_window: 4,
            finish_window: 3,
            max_bad_density: 0.1,
            finish_tool: "finish".into(),
            cap_message: crate::DEFAULT_CAP_MESSAGE.into(),
            contract_errors: Vec::new(),
        }
    }
}

/// Why the filter could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FilterError {
    /// A threshold is NaN or infinite.
    #[error("filter setting `{field}`: expected a finite number, got {value}")]
    NotFinite { field: &'static str, value: f64 },
    /// A share is outside [0, 1].
    #[error("filter setting `{field}`: expected a share in [0, 1], got {value}")]
    NotShare { field: &'static str, value: f64 },
    /// A window of zero steps.
    #[error("filter setting `{field}`: expected at least 1 step, got 0")]
    ZeroWindow { field: &'static str },
    /// An empty text would match every error or no call.
    #[error("filter setting `{field}`: expected a non-empty text")]
    EmptyText { field: &'static str },
    /// `lines` or `scores` does not have one entry per episode.
    #[error("filter input `{field}`: expected {expected} entries (one per episode), got {got}")]
    LengthMismatch {
        field: &'static str,
        expected: usize,
        got: usize,
    },
}

impl FilterSettings {
    /// Checks the thresholds: finite; the loop threshold and the bad-error
    /// density are shares in [0, 1]; windows ≥ 1; texts non-empty.
    pub fn validate(&self) -> Result<(), FilterError> {
        if !self.min_score.is_finite() {
            return Err(FilterError::NotFinite {
                field: "min_score",
                value: self.min_score,
            });
        }
        for (field, value) in [
            ("loop_threshold", self.loop_threshold),
            ("max_bad_density", self.max_bad_density),
        ] {
            if !value.is_finite() {
                return Err(FilterError::NotFinite { field, value });
            }
            if !(0.0..=1.0).contains(&value) {
                return Err(FilterError::NotShare { field, value });
            }
        }
        for (field, w) in [
            ("loop_window", self.loop_window),
            ("finish_window", self.finish_window),
        ] {
            if w == 0 {
                return Err(FilterError::ZeroWindow { field });
            }
        }
        if self.finish_tool.is_empty() {
            return Err(FilterError::EmptyText {
                field: "finish_tool",
            });
        }
        if self.cap_message.is_empty() {
            return Err(FilterError::EmptyText {
                field: "cap_message",
            });
        }
        if self.contract_errors.iter().any(String::is_empty) {
            return Err(FilterError::EmptyText {
                field: "contract_errors",
            });
        }
        Ok(())
    }
}

/// A rule a trace can fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// R1: score below the minimum, or no score.
    Score,
    /// R2: no `finish` call in the last steps (nor finish by termination).
    Finish,
    /// R3: a step too similar to one of the previous ones.
    Loop,
    /// R4: too many bad errors.
    Errors,
    /// A step with neither `completion` nor `code`.
    NoText,
}

impl Rule {
    /// Every rule, in the report's order.
    pub const ALL: [Rule; 5] = [
        Rule::Score,
        Rule::Finish,
        Rule::Loop,
        Rule::Errors,
        Rule::NoText,
    ];

    /// `R1` … `R4`, `no text`.
    pub fn label(self) -> &'static str {
        match self {
            Rule::Score => "R1",
            Rule::Finish => "R2",
            Rule::Loop => "R3",
            Rule::Errors => "R4",
            Rule::NoText => "no text",
        }
    }
}

/// A trace's verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Passes every rule.
    Valid,
    /// Fails these rules (in [`Rule::ALL`]'s order).
    Invalid { rules: Vec<Rule> },
}

impl Verdict {
    /// True for [`Verdict::Valid`].
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid)
    }

    /// The rules failed (empty when valid).
    pub fn rules(&self) -> &[Rule] {
        match self {
            Verdict::Valid => &[],
            Verdict::Invalid { rules } => rules,
        }
    }
}

/// A step of a trace: its position among the steps and its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRef {
    /// 1-based position among the logged turns (s_step).
    pub step: usize,
    /// The turn's `index` in the log (for click-through).
    pub turn: u32,
}

/// The first loop found: s_k and s_j with ratio(t_k, t_j) above the
/// threshold — the smallest j, then the smallest k.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopPair {
    /// The earlier step.
    pub k: StepRef,
    /// The later step.
    pub j: StepRef,
    /// `difflib.SequenceMatcher(None, t_k, t_j).ratio()`.
    pub ratio: f64,
}

/// What the verdict rests on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// R1: the score read (`None`: no score, R1 fails).
    pub score: Option<f64>,
    /// R2: the last step with a recorded `finish` call.
    pub last_finish: Option<StepRef>,
    /// R2 passed with no `finish` call, by `termination: finish`.
    pub finish_by_termination: bool,
    /// R3: the first loop pair.
    pub first_loop: Option<LoopPair>,
    /// R4: the bad steps.
    pub bad_steps: Vec<StepRef>,
    /// The number of steps (logged turns).
    pub n: usize,
    /// R4: bad steps / n (`None` when n = 0).
    pub bad_density: Option<f64>,
    /// The steps with neither `completion` nor `code`.
    pub no_text_steps: Vec<StepRef>,
}

/// One teacher trace's verdict with its evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceVerdict {
    /// The log line of the episode.
    pub line: u64,
    pub episode_id: String,
    pub instance_id: String,
    pub task_family: String,
    pub base_model: String,
    /// The trace's runtime (its `deploy_runtime`).
    pub runtime: Runtime,
    pub verdict: Verdict,
    pub evidence: Evidence,
}

/// Trace counts per rule.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleCounts {
    /// R1.
    pub score: usize,
    /// R2.
    pub finish: usize,
    /// R3.
    #[serde(rename = "loop")]
    pub looping: usize,
    /// R4.
    pub errors: usize,
    /// No text.
    pub no_text: usize,
}

impl RuleCounts {
    /// The count of one rule.
    pub fn get(&self, rule: Rule) -> usize {
        match rule {
            Rule::Score => self.score,
            Rule::Finish => self.finish,
            Rule::Loop => self.looping,
            Rule::Errors => self.errors,
            Rule::NoText => self.no_text,
        }
    }

    fn add(&mut self, rule: Rule) {
        let c = match rule {
            Rule::Score => &mut self.score,
            Rule::Finish => &mut self.finish,
            Rule::Loop => &mut self.looping,
            Rule::Errors => &mut self.errors,
            Rule::NoText => &mut self.no_text,
        };
        *c += 1;
    }
}

/// The counts of one runtime within a group (a column of Table 8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeCounts {
    pub runtime: Runtime,
    /// Teacher traces.
    pub traces: usize,
    /// Traces failing each rule (a trace counts under every rule it fails).
    pub failures: RuleCounts,
    /// Traces failing that rule and no other.
    pub alone: RuleCounts,
    /// Traces passing every rule.
    pub valid: usize,
    /// Traces whose R2 passed by `termination: finish` (no `finish` call).
    pub finish_by_termination: usize,
}

/// The pairs of one group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairCounts {
    /// Instance ids with a trace under both runtimes.
    pub candidates: usize,
    /// Candidates valid under both (an id valid under a runtime if any of
    /// its traces there is).
    pub dual_valid: usize,
    /// dual_valid / candidates (`None` without candidates).
    #[serde(rename = "yield")]
    pub pair_yield: Option<f64>,
    /// (id, runtime) with more than one trace (warned).
    pub repeated_ids: usize,
}

/// One teacher's traces: a (`task_family`, `base_model`) group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilterGroup {
    pub task_family: String,
    pub base_model: String,
    /// P then S.
    pub runtimes: Vec<RuntimeCounts>,
    pub pairs: PairCounts,
}

/// The filter's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilterReport {
    pub settings: FilterSettings,
    /// Sorted by (`task_family`, `base_model`).
    pub groups: Vec<FilterGroup>,
    /// Every teacher trace, in log order.
    pub traces: Vec<TraceVerdict>,
    /// Episodes left out because `train_runtime` ≠ `deploy_runtime` (not
    /// teacher traces).
    pub not_teacher: usize,
    pub warnings: Vec<String>,
}

/// A step's text: its `completion`, else its `code`.
fn text(t: &Turn) -> Option<&str> {
    t.completion.as_deref().or(t.code.as_deref())
}

/// Whether a step's error is bad (R4).
fn is_bad(t: &Turn, settings: &FilterSettings) -> bool {
    let Some(e) = t.error.as_deref().filter(|e| !e.is_empty()) else {
        return false;
    };
    let cap = e.contains(settings.cap_message.as_str());
    let call = t
        .calls
        .iter()
        .filter(|c| !c.ok)
        .filter_map(|c| c.error.as_deref())
        .any(|ce| !ce.is_empty() && e.contains(ce));
    let contract = settings
        .contract_errors
        .iter()
        .any(|ce| e.contains(ce.as_str()));
    !(cap || call || contract)
}

/// The first loop pair (smallest j, then smallest k) among steps with text.
fn first_loop(steps: &[(StepRef, Option<&str>)], settings: &FilterSettings) -> Option<LoopPair> {
    for (jpos, (j, tj)) in steps.iter().enumerate() {
        let Some(tj) = tj else { continue };
        for (k, tk) in &steps[jpos.saturating_sub(settings.loop_window)..jpos] {
            let Some(tk) = tk else { continue };
            let ratio = difflib::ratio(tk, tj);
            if ratio > settings.loop_threshold {
                return Some(LoopPair {
                    k: *k,
                    j: *j,
                    ratio,
                });
            }
        }
    }
    None
}

/// One trace's verdict and evidence under the rules (R1 reads `score`).
pub fn check_trace(
    episode: &Episode,
    score: Option<f64>,
    settings: &FilterSettings,
) -> (Verdict, Evidence) {
    let steps: Vec<(StepRef, &Turn)> = episode
        .turns
        .iter()
        .filter(|t| t.logged)
        .enumerate()
        .map(|(i, t)| {
            (
                StepRef {
                    step: i + 1,
                    turn: t.index,
                },
                t,
            )
        })
        .collect();
    let n = steps.len();
    let mut failed = BTreeSet::new();
    // R1
    if !score.is_some_and(|s| s >= settings.min_score) {
        failed.insert(Rule::Score);
    }
    // R2
    let last_finish = steps
        .iter()
        .rev()
        .find(|(_, t)| t.calls.iter().any(|c| c.tool == settings.finish_tool))
        .map(|(s, _)| *s);
    // s_step lies in the last `finish_window` steps; with no finish call,
    // the termination decides (n = 0 fails).
    let finish_by_termination =
        last_finish.is_none() && n > 0 && episode.termination == Termination::Finish;
    let r2 = last_finish.map_or(finish_by_termination, |s| {
        s.step + settings.finish_window > n
    });
    if !r2 {
        failed.insert(Rule::Finish);
    }
    // R3 and no text
    let texts: Vec<(StepRef, Option<&str>)> = steps.iter().map(|(s, t)| (*s, text(t))).collect();
    let no_text_steps: Vec<StepRef> = texts
        .iter()
        .filter(|(_, t)| t.is_none())
        .map(|(s, _)| *s)
        .collect();
    if !no_text_steps.is_empty() {
        failed.insert(Rule::NoText);
    }
    let first_loop = first_loop(&texts, settings);
    if first_loop.is_some() {
        failed.insert(Rule::Loop);
    }
    // R4
    let bad_steps: Vec<StepRef> = steps
        .iter()
        .filter(|(_, t)| is_bad(t, settings))
        .map(|(s, _)| *s)
        .collect();
    let bad_density = (n > 0).then(|| bad_steps.len() as f64 / n as f64);
    if !bad_density.is_some_and(|d| d <= settings.max_bad_density) {
        failed.insert(Rule::Errors);
    }
    let verdict = if failed.is_empty() {
        Verdict::Valid
    } else {
        Verdict::Invalid {
            rules: failed.into_iter().collect(),
        }
    };
    let evidence = Evidence {
        score,
        last_finish,
        finish_by_termination,
        first_loop,
        bad_steps,
        n,
        bad_density,
        no_text_steps,
    };
    (verdict, evidence)
}

/// Counts one runtime's traces.
fn runtime_counts(runtime: Runtime, traces: &[&TraceVerdict]) -> RuntimeCounts {
    let mut c = RuntimeCounts {
        runtime,
        traces: 0,
        failures: RuleCounts::default(),
        alone: RuleCounts::default(),
        valid: 0,
        finish_by_termination: 0,
    };
    for t in traces.iter().filter(|t| t.runtime == runtime) {
        c.traces += 1;
        let rules = t.verdict.rules();
        for &r in rules {
            c.failures.add(r);
        }
        if let [r] = rules {
            c.alone.add(*r);
        }
        if t.verdict.is_valid() {
            c.valid += 1;
        }
        if t.evidence.finish_by_termination {
            c.finish_by_termination += 1;
        }
    }
    c
}

/// Candidate and dual-valid pairs of one group's traces.
fn pair_counts(traces: &[&TraceVerdict]) -> PairCounts {
    // (id, runtime) → (traces, any valid)
    let mut per: BTreeMap<(&str, Runtime), (usize, bool)> = BTreeMap::new();
    for t in traces {
        let e = per
            .entry((t.instance_id.as_str(), t.runtime))
            .or_insert((0, false));
        e.0 += 1;
        e.1 |= t.verdict.is_valid();
    }
    let repeated_ids = per.values().filter(|(k, _)| *k > 1).count();
    let ids: BTreeSet<&str> = per.keys().map(|(id, _)| *id).collect();
    let (mut candidates, mut dual_valid) = (0, 0);
    for id in ids {
        if let (Some(p), Some(s)) = (per.get(&(id, Runtime::P)), per.get(&(id, Runtime::S))) {
            candidates += 1;
            if p.1 && s.1 {
                dual_valid += 1;
            }
        }
    }
    PairCounts {
        candidates,
        dual_valid,
        pair_yield: (candidates > 0).then(|| dual_valid as f64 / candidates as f64),
        repeated_ids,
    }
}

/// Runs the filter over a log's episodes. `lines[i]` is the log line of
/// `episodes[i]` and `scores[i]` the score R1 reads for it (logged or
/// verified, as the caller chose; `None` fails R1). Episodes with
/// `train_runtime` ≠ `deploy_runtime` are not teacher traces: left out,
/// counted and warned.
pub fn filter(
    episodes: &[Episode],
    lines: &[u64],
    scores: &[Option<f64>],
    settings: &FilterSettings,
) -> Result<FilterReport, FilterError> {
    settings.validate()?;
    for (field, got) in [("lines", lines.len()), ("scores", scores.len())] {
        if got != episodes.len() {
            return Err(FilterError::LengthMismatch {
                field,
                expected: episodes.len(),
                got,
            });
        }
    }
    let mut traces = Vec::new();
    let mut not_teacher = 0;
    for ((e, &line), &score) in episodes.iter().zip(lines).zip(scores) {
        if e.train_runtime != e.deploy_runtime {
            not_teacher += 1;
            continue;
        }
        let (verdict, evidence) = check_trace(e, score, settings);
        traces.push(TraceVerdict {
            line,
            episode_id: e.episode_id.clone(),
            instance_id: e.instance_id.clone(),
            task_family: e.task_family.clone(),
            base_model: e.base_model.clone(),
            runtime: e.deploy_runtime,
            verdict,
            evidence,
        });
    }
    let mut warnings = Vec::new();
    if not_teacher > 0 {
        warnings.push(format!(
            "{not_teacher} episode(s) with train_runtime ≠ deploy_runtime left out (not teacher traces)"
        ));
    }
    let mut by_group: BTreeMap<(&str, &str), Vec<&TraceVerdict>> = BTreeMap::new();
    for t in &traces {
        by_group
            .entry((t.task_family.as_str(), t.base_model.as_str()))
            .or_default()
            .push(t);
    }
    let mut groups = Vec::new();
    for ((family, model), ts) in by_group {
        let pairs = pair_counts(&ts);
        if pairs.repeated_ids > 0 {
            warnings.push(format!(
                "{family} / {model}: {} instance id(s) with repeated traces under a runtime (valid if any trace is)",
                pairs.repeated_ids
            ));
        }
        groups.push(FilterGroup {
            task_family: family.to_string(),
            base_model: model.to_string(),
            runtimes: vec![
                runtime_counts(Runtime::P, &ts),
                runtime_counts(Runtime::S, &ts),
            ],
            pairs,
        });
    }
    Ok(FilterReport {
        settings: settings.clone(),
        groups,
        traces,
        not_teacher,
        warnings,
    })
}
