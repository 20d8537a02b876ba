//! Runtime contracts: persistent vs stateless CodeAct deployment (spec:
//! runtime-contracts.md; paper 003). Episode logs in, a [`RuntimeReport`] out;
//! the teaching simulator (scripted policies, not language models) that
//! writes logs of the same format lives in `gapscope-synth` (`runtime_sim`).
//!
//! Entry points shared by the CLI and the worker: [`analyze`] (log text →
//! report) and [`log::write_jsonl`].
//!
//! - [`log`]: the episode log and its writer; [`read`]: its reader (located
//!   errors).
//! - [`knapsack`]: Opaque Knapsack verification (DP optimum, replay, budget,
//!   anti-collapse).
//! - [`metrics`]: Q, gaps, interaction, cap moderation with paired bootstrap;
//!   trace-derived quantities; exposure.
//! - [`accounting`]: turn accounting, overflow and flags per episode; Table 20.
//! - [`across`]: M(c) and the across analysis over columns (Tables 12, 21).
//! - [`horizon`]: the horizon sweep (Table 19).
//! - [`difflib`]: Python's `SequenceMatcher.ratio()` (autojunk included).
//! - [`filter`]: the SFT trace validity filter (addendum §7, Table 8).
//! - [`mechanism`]: coverage, decision, optimal-set recall and blind takes
//!   (addendum §4).
//! - [`gain`]: distinct items gained against inspect calls (addendum §5).
//! - [`cost`]: the token cost ratio and the input share (addendum §6).
//! - [`slice`](mod@slice) builds one slice's report, [`sections`] its addendum
//!   sections and the report's across analyses and horizon sweeps.

pub mod accounting;
pub mod across;
pub mod cost;
pub mod difflib;
pub mod filter;
pub mod gain;
pub mod horizon;
pub mod knapsack;
pub mod log;
pub mod mechanism;
pub mod metrics;
pub mod read;
pub mod sections;
pub mod slice;

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub use log::{
    write_jsonl, Arm, Call, Condition, Episode, Failure, Horizon, Runtime, Termination, Turn,
};
pub use read::{read_jsonl, EpisodeLog};

use metrics::{Contrast, EpisodeMetrics, Estimate, Exposure, ListingCount, TraceRow, TurnMark};

/// The tools of a task family that the trace quantities look for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyTools {
    /// The index / listing tool(s), e.g. `list_items`, `neighbors`.
    pub listing: Vec<String>,
    /// The inspect tool(s): a successful call on a new id acquires an item.
    pub inspect: Vec<String>,
}

/// Which score Q averages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreSource {
    /// The episode's logged `score`.
    #[default]
    Logged,
    /// The verifier's normalized optimality (Opaque Knapsack episodes with an
    /// instance; others are left out and counted).
    Verified,
}

/// A field slices may be pooled over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SliceDim {
    TaskFamily,
    BaseModel,
    Seed,
    Rollout,
    /// Addendum §1.
    Batch,
    /// Addendum §2: the turn limit and the wall clock.
    Horizon,
}

/// The analysis settings. The addendum's settings (from `listing_count`
/// on) are written in a report but not read back (`skip_deserializing`: a
/// report read back has their defaults): the page, which reads reports,
/// uses none of them and links no decoder for them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuntimeSettings {
    /// Bootstrap draws B (0: no intervals).
    pub bootstrap: usize,
    pub seed: u64,
    pub score: ScoreSource,
    /// Default: the smallest cap of the slice.
    pub c_tight: Option<u32>,
    /// Default: the largest cap of the slice.
    pub c_slack: Option<u32>,
    /// Slice fields to pool over (default: none, every slice apart).
    pub pool: Vec<SliceDim>,
    /// The text whose presence in a turn's error marks a cap hit.
    pub cap_message: String,
    /// Tools per task family.
    pub tools: IndexMap<String, FamilyTools>,
    /// Largest |logged − verified| that counts as agreement.
    pub tolerance: f64,
    /// Put every episode with its turn markers into the report.
    pub include_episodes: bool,
    /// Addendum §9: listing calls counted as recorded calls or as
    /// occurrences in the code.
    #[serde(skip_deserializing)]
    pub listing_count: ListingCount,
    /// Addendum §9: further caps (≤ the slack cap) whose exposure E_c is
    /// reported.
    #[serde(skip_deserializing)]
    pub exposure_caps: Vec<u32>,
    /// Addendum §1: further contrasts Δ(A, B; c) by condition label, e.g.
    /// `["P->S+carry", "S->S"]`.
    #[serde(skip_deserializing)]
    pub contrasts: Vec<[String; 2]>,
    /// Addendum §8: drop episodes with a `generator_warning` (counted).
    #[serde(skip_deserializing)]
    pub exclude_warned: bool,
    /// Addendum §8: a restart rate over fewer events is "too few events".
    #[serde(skip_deserializing, default = "default_min_events")]
    pub min_events: usize,
    /// Addendum §3: the across analysis' fields (default: `seed`); columns
    /// are slices of one family differing only in these fields.
    #[serde(skip_deserializing, default = "default_across")]
    pub across: Vec<SliceDim>,
    /// Addendum §3: a pre-specified id set intersected with the common ids.
    #[serde(skip_deserializing)]
    pub common_ids: Option<Vec<String>>,
    /// Addendum §3: each column on its own shared ids (stratified pool).
    #[serde(skip_deserializing)]
    pub own_ids: bool,
    /// Addendum §2: the horizon sweep's cap (default: the smallest in every
    /// horizon).
    #[serde(skip_deserializing)]
    pub sweep_cap: Option<u32>,
    /// Addendum §5: the gain curve's cap (default: c_tight) and conditions
    /// (default: P->P, P->S; the first is the reference).
    #[serde(skip_deserializing)]
    pub gain_cap: Option<u32>,
    #[serde(skip_deserializing, default = "default_gain_conditions")]
    pub gain_conditions: Vec<String>,
    /// Addendum §6: the token cost ratio's conditions A/B (default P->S/P->P).
    #[serde(skip_deserializing, default = "default_cost")]
    pub cost: [String; 2],
}

fn default_across() -> Vec<SliceDim> {
    vec![SliceDim::Seed]
}

fn default_gain_conditions() -> Vec<String> {
    vec!["P->P".into(), "P->S".into()]
}

fn default_cost() -> [String; 2] {
    ["P->S".into(), "P->P".into()]
}

/// Addendum §8's threshold of events for a restart rate.
pub const MIN_EVENTS: usize = 20;

fn default_min_events() -> usize {
    MIN_EVENTS
}

pub const DEFAULT_CAP_MESSAGE: &str = "Tool call limit exceeded";

impl Default for RuntimeSettings {
    fn default() -> Self {
        let t = |l: &[&str], i: &[&str]| FamilyTools {
            listing: l.iter().map(std::string::ToString::to_string).collect(),
            inspect: i.iter().map(std::string::ToString::to_string).collect(),
        };
        let mut tools = IndexMap::new();
        tools.insert("opaque_knapsack".into(), t(&["list_items"], &["inspect"]));
        tools.insert("navigation".into(), t(&["neighbors"], &[]));
        RuntimeSettings {
            bootstrap: 10_000,
            seed: 0,
            score: ScoreSource::Logged,
            c_tight: None,
            c_slack: None,
            pool: Vec::new(),
            cap_message: DEFAULT_CAP_MESSAGE.into(),
            tools,
            tolerance: 1e-6,
            include_episodes: true,
            listing_count: ListingCount::Calls,
            exposure_caps: Vec::new(),
            contrasts: Vec::new(),
            exclude_warned: false,
            min_events: MIN_EVENTS,
            across: default_across(),
            common_ids: None,
            own_ids: false,
            sweep_cap: None,
            gain_cap: None,
            gain_conditions: default_gain_conditions(),
            cost: default_cost(),
        }
    }
}

/// Why an analysis could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuntimeError {
    #[error("bootstrap draws must be between 0 and {max}, got {got}", max = gapscope_stats::bootstrap::MAX_DRAWS)]
    Bootstrap { got: usize },
    #[error("the score tolerance must be a finite number ≥ 0, got {0}")]
    Tolerance(f64),
    #[error("the cap message must not be empty")]
    CapMessage,
    #[error("contrast {0}: no condition is labelled `{1}` in any slice (conditions are written like P->S or P->S+carry)")]
    UnknownCondition(usize, String),
    #[error("no episode could be read ({skipped} line(s) skipped{first})")]
    NoEpisodes { skipped: usize, first: String },
    #[error("{0}")]
    Filter(#[from] filter::FilterError),
    /// The file is another part's ([`gapscope_data::kind::misplaced`]).
    #[error("{0}")]
    OtherPart(String),
}

/// What a slice is: `None` fields are pooled.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SliceKey {
    pub task_family: Option<String>,
    pub base_model: Option<String>,
    pub seed: Option<u64>,
    pub rollout: Option<u64>,
    /// Addendum §1 (absent in the log or pooled: `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<String>,
    /// Addendum §2: the horizon's turn limit (orders the horizons) and its
    /// label, e.g. `T_max=80, 4000 s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon: Option<String>,
}

impl SliceKey {
    fn of(e: &Episode, pool: &[SliceDim]) -> Self {
        SliceKey {
            task_family: (!pool.contains(&SliceDim::TaskFamily)).then(|| e.task_family.clone()),
            base_model: (!pool.contains(&SliceDim::BaseModel)).then(|| e.base_model.clone()),
            seed: (!pool.contains(&SliceDim::Seed)).then_some(e.seed),
            rollout: (!pool.contains(&SliceDim::Rollout)).then_some(e.rollout),
            batch: e.batch.clone().filter(|_| !pool.contains(&SliceDim::Batch)),
            turn_limit: e.turn_limit.filter(|_| !pool.contains(&SliceDim::Horizon)),
            horizon: e
                .horizon()
                .filter(|_| !pool.contains(&SliceDim::Horizon))
                .map(|h| h.label()),
        }
    }

    /// e.g. `opaque_knapsack · base model m · seed 0 · rollout all`.
    pub fn name(&self) -> String {
        let or_all = |v: Option<String>| v.unwrap_or_else(|| "all".into());
        let mut name = format!(
            "{} · base model {} · seed {} · rollout {}",
            or_all(self.task_family.clone()).replace("all", "all families"),
            or_all(self.base_model.clone()),
            or_all(self.seed.map(|s| s.to_string())),
            or_all(self.rollout.map(|s| s.to_string()))
        );
        if let Some(b) = &self.batch {
            name.push_str(&format!(" · batch {b}"));
        }
        if let Some(h) = &self.horizon {
            name.push_str(&format!(" · {h}"));
        }
        name
    }
}

/// One condition's Q at one cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConditionCell {
    pub condition: Condition,
    pub q: Estimate,
}

/// The 2×2 table at one cap with its runtime gaps and interaction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapTable {
    pub cap: u32,
    /// P->P, P->S, S->P, S->S.
    pub cells: Vec<ConditionCell>,
    pub g_p: Contrast,
    pub g_s: Contrast,
    pub d: Contrast,
    /// Addendum §3: M(c) = Q_PS(c) − Q_SS(c), the model-selection
    /// difference under stateless deployment (written, not read back: the
    /// page gets it as text).
    #[serde(skip_deserializing, default = "Contrast::undefined")]
    pub m: Contrast,
}

/// Q against cap for one condition (the paper's Figure 2a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSeries {
    pub condition: Condition,
    /// Addendum §1: the intervention (`P->S+carry`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
    pub points: Vec<SweepPoint>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub cap: u32,
    pub q: Estimate,
}

/// Differences across the tight and slack caps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapComparison {
    pub c_tight: u32,
    pub c_slack: u32,
    /// T = D(c_tight) − D(c_slack).
    pub t: Contrast,
    /// G_P(c_tight) − G_P(c_slack).
    pub amplification_p: Contrast,
    /// G_S(c_tight) − G_S(c_slack) (the paper's A_S, Table 17).
    pub amplification_s: Contrast,
}

/// Everything about one slice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SliceReport {
    pub key: SliceKey,
    pub name: String,
    pub episodes: usize,
    /// Episodes averaged into Q (per instance first).
    pub scored: usize,
    pub caps: Vec<u32>,
    pub tables: Vec<CapTable>,
    pub sweep: Vec<SweepSeries>,
    pub comparison: Option<CapComparison>,
    pub trace: Vec<TraceRow>,
    /// Exposure per condition, from its blocks at the slack cap.
    pub exposure: Vec<Exposure>,
    /// Addendum §1: the slice's conditions (`P->P`, …, `P->S+carry`).
    pub conditions: Vec<String>,
    /// Addendum §1: Δ(A, B; c) = Q_A(c) − Q_B(c) on shared ids, paired:
    /// each `X->Y+k` vs `X->Y` and vs the other `X->Y+k'`, and the asked ones.
    #[serde(skip_deserializing)]
    pub contrasts: Vec<ArmContrast>,
    /// Addendum §2: Table 20 per condition and cap (accounting, flags).
    #[serde(skip_deserializing)]
    pub accounting: Vec<accounting::Table20Row>,
    /// Addendum §4: coverage, decision, recall per condition and cap
    /// (Opaque Knapsack episodes with an instance and an inspect tool).
    #[serde(skip_deserializing)]
    pub mechanism: Vec<sections::MechanismRow>,
    /// Addendum §6: the token cost ratio per cap.
    #[serde(skip_deserializing)]
    pub cost: Vec<cost::TokenRatio>,
    /// Addendum §5: distinct items gained against inspect calls.
    #[serde(skip_deserializing)]
    pub gain: Option<sections::GainSection>,
    pub warnings: Vec<String>,
}

/// One contrast of the open condition set (addendum §1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArmContrast {
    pub a: String,
    pub b: String,
    pub cap: u32,
    pub contrast: Contrast,
}

/// One episode with its quantities, for stepping through turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeTrace {
    pub line: u64,
    /// Index into `slices`.
    pub slice: usize,
    pub verified: Option<f64>,
    pub metrics: EpisodeMetrics,
    pub turns: Vec<TurnMark>,
    /// Read back without the addendum's fields but the intervention
    /// (`log::de_reported`): the page, which reads reports, links no
    /// decoder for them.
    #[serde(deserialize_with = "log::de_reported")]
    pub episode: Episode,
}

/// The report (the CLI's `--json` and the worker's answer). The addendum's
/// sections (contrasts, accounting, mechanism, cost, gain, across, horizon
/// sweeps) are written but not read back (`skip_deserializing`): the page
/// gets their views as text from the worker, so it links none of their
/// decoders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuntimeReport {
    pub summary: String,
    pub settings: RuntimeSettings,
    pub prng: String,
    pub episodes_read: usize,
    pub skipped: Vec<gapscope_data::trajectory::LineError>,
    pub slices: Vec<SliceReport>,
    /// Addendum §3: the across analyses (Tables 12, 21).
    #[serde(skip_deserializing)]
    pub across: Vec<sections::AcrossSection>,
    /// Addendum §2: the horizon sweeps (Table 19).
    #[serde(skip_deserializing)]
    pub horizon_sweeps: Vec<sections::HorizonSection>,
    pub verification: knapsack::VerificationReport,
    pub episodes: Vec<EpisodeTrace>,
    pub warnings: Vec<String>,
}

/// How the report names the PRNG and its use.
pub const PRNG: &str = "ChaCha8Rng (rand_chacha 0.9), seed_from_u64(seed) afresh for every interval; instance indices random_range(0..n) on u32 over the ids sorted as text";

/// Read an episode log and analyse it.
pub fn analyze(
    episodes_jsonl: &str,
    settings: &RuntimeSettings,
) -> Result<RuntimeReport, RuntimeError> {
    let log = read_jsonl(episodes_jsonl);
    if log.episodes.is_empty() {
        // Not an episode log: named for what it is, if it is another part's.
        if let Some(m) =
            gapscope_data::kind::misplaced("", episodes_jsonl, gapscope_data::kind::Part::Runtime)
        {
            validate(settings)?;
            return Err(RuntimeError::OtherPart(m));
        }
    }
    analyze_log(log, settings)
}

/// The SFT validity filter over a log (addendum §7), as `gapscope runtime
/// filter` and the page run it: R1 reads the logged score, or the
/// verifier's (`score`; unverifiable traces then fail R1 with no score).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilterRun {
    pub score: ScoreSource,
    pub episodes_read: usize,
    pub skipped: Vec<gapscope_data::trajectory::LineError>,
    pub report: filter::FilterReport,
}

/// Read a log and run the SFT validity filter on it.
pub fn filter_log(
    episodes_jsonl: &str,
    settings: &filter::FilterSettings,
    score: ScoreSource,
    tolerance: f64,
) -> Result<FilterRun, RuntimeError> {
    let log = read_jsonl(episodes_jsonl);
    if log.episodes.is_empty() {
        if let Some(m) =
            gapscope_data::kind::misplaced("", episodes_jsonl, gapscope_data::kind::Part::Runtime)
        {
            return Err(RuntimeError::OtherPart(m));
        }
        return Err(no_episodes(&log));
    }
    let scores: Vec<Option<f64>> = match score {
        ScoreSource::Logged => log.episodes.iter().map(|e| Some(e.score)).collect(),
        ScoreSource::Verified => knapsack::verify(&log.episodes, &log.lines, tolerance).1,
    };
    let report = filter::filter(&log.episodes, &log.lines, &scores, settings)?;
    Ok(FilterRun {
        score,
        episodes_read: log.episodes.len(),
        skipped: log.skipped,
        report,
    })
}

/// No episode to analyse (every line skipped, or every episode left out).
fn no_episodes(log: &EpisodeLog) -> RuntimeError {
    RuntimeError::NoEpisodes {
        skipped: log.skipped.len(),
        first: log
            .skipped
            .first()
            .map(|e| format!("; first: {e}"))
            .unwrap_or_default(),
    }
}

/// Addendum §8: families without a verifier are left out of Q under the
/// verified score, named with their counts.
fn no_verifier(episodes: &[Episode], warnings: &mut Vec<String>) {
    let mut unverifiable: BTreeMap<&str, usize> = BTreeMap::new();
    for e in episodes {
        if e.task_family != knapsack::FAMILY {
            *unverifiable.entry(e.task_family.as_str()).or_default() += 1;
        }
    }
    for (f, n) in unverifiable {
        warnings.push(format!(
            "no verifier for {f}: its {n} episode(s) are left out of Q under --score verified"
        ));
    }
}

/// Addendum §8: episodes whose generator fell back are dropped, counted.
fn exclude_warned(log: &mut EpisodeLog, warnings: &mut Vec<String>) {
    let before = log.episodes.len();
    let keep: Vec<bool> = log
        .episodes
        .iter()
        .map(|e| e.generator_warning.is_none())
        .collect();
    let mut k = keep.iter();
    log.episodes.retain(|_| *k.next().unwrap_or(&true));
    let mut k = keep.iter();
    log.lines.retain(|_| *k.next().unwrap_or(&true));
    let dropped = before - log.episodes.len();
    if dropped > 0 {
        warnings.push(format!(
            "{dropped} episode(s) with a generator_warning left out (--exclude-warned)"
        ));
    }
}

fn validate(settings: &RuntimeSettings) -> Result<(), RuntimeError> {
    if settings.bootstrap > gapscope_stats::bootstrap::MAX_DRAWS {
        return Err(RuntimeError::Bootstrap {
            got: settings.bootstrap,
        });
    }
    if !settings.tolerance.is_finite() || settings.tolerance < 0.0 {
        return Err(RuntimeError::Tolerance(settings.tolerance));
    }
    if settings.cap_message.is_empty() {
        return Err(RuntimeError::CapMessage);
    }
    Ok(())
}

/// The most bootstrap indices an analysis keeps to reuse (4 bytes each):
/// every interval of a slice resamples its instance ids from a fresh stream
/// of the same seed, so the draws are made once per (n, B, seed)
/// ([`gapscope_stats::paired::with_draw_cache`]; the numbers are the same
/// bit for bit). 256 MB natively, 64 MB in the browser's worker.
#[cfg(not(target_arch = "wasm32"))]
pub const DRAW_CACHE_LIMIT: usize = 64 << 20;
#[cfg(target_arch = "wasm32")]
pub const DRAW_CACHE_LIMIT: usize = 16 << 20;

/// Analyse episodes already read.
pub fn analyze_log(
    log: EpisodeLog,
    settings: &RuntimeSettings,
) -> Result<RuntimeReport, RuntimeError> {
    gapscope_stats::paired::with_draw_cache(DRAW_CACHE_LIMIT, || analyze_cached(log, settings))
}

fn analyze_cached(
    mut log: EpisodeLog,
    settings: &RuntimeSettings,
) -> Result<RuntimeReport, RuntimeError> {
    validate(settings)?;
    let mut warnings = Vec::new();
    if settings.exclude_warned {
        exclude_warned(&mut log, &mut warnings);
    }
    if log.episodes.is_empty() {
        return Err(no_episodes(&log));
    }
    let (verification, verified) = knapsack::verify(&log.episodes, &log.lines, settings.tolerance);
    if settings.score == ScoreSource::Verified {
        no_verifier(&log.episodes, &mut warnings);
    }
    let families: Vec<&String> = {
        let mut f: Vec<&String> = log.episodes.iter().map(|e| &e.task_family).collect();
        f.sort();
        f.dedup();
        f
    };
    for f in families {
        match settings.tools.get(f) {
            None => warnings.push(format!(
                "no tools configured for family `{f}`: listing calls, restarts, distinct items and replay are undefined"
            )),
            Some(t) if t.inspect.is_empty() => warnings.push(format!(
                "no inspect tool configured for family `{f}`: distinct items and replay are undefined, and every listing call after a cap hit counts as a restart"
            )),
            _ => {}
        }
    }
    let per_episode: Vec<(EpisodeMetrics, Vec<TurnMark>)> = log
        .episodes
        .iter()
        .map(|e| {
            metrics::episode_metrics(
                e,
                settings.tools.get(&e.task_family),
                &settings.cap_message,
                settings.listing_count,
            )
        })
        .collect();
    let mut groups: BTreeMap<SliceKey, Vec<usize>> = BTreeMap::new();
    for (k, e) in log.episodes.iter().enumerate() {
        groups
            .entry(SliceKey::of(e, &settings.pool))
            .or_default()
            .push(k);
    }
    let mut slice_of = vec![0; log.episodes.len()];
    let mut slices = Vec::new();
    let mut slice_cells = Vec::new();
    for (s, (key, idx)) in groups.into_iter().enumerate() {
        for &k in &idx {
            slice_of[k] = s;
        }
        let (report, cells) =
            slice::slice_report(key, &idx, &log.episodes, &verified, &per_episode, settings);
        slices.push(report);
        slice_cells.push(cells);
    }
    let across = sections::across_sections(&slice_cells, settings);
    let horizon_sweeps = sections::horizon_sections(&slice_cells, settings);
    drop(slice_cells);
    for (k, [a, b]) in settings.contrasts.iter().enumerate() {
        for label in [a, b] {
            if !slices.iter().any(|s| s.conditions.contains(label)) {
                return Err(RuntimeError::UnknownCondition(k + 1, label.clone()));
            }
        }
    }
    let n = log.episodes.len();
    let summary = format!(
        "{n} episode{} in {} slice{}{}; {} of {} checked Opaque Knapsack scores agree with the verifier",
        gapscope_data::profile::plural(n),
        slices.len(),
        gapscope_data::profile::plural(slices.len()),
        if log.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} line(s) skipped", log.skipped.len())
        },
        verification.agree,
        verification.verified
    );
    // A score is a normalized value in 0..1 (addendum §8: warn, keep).
    let outside: Vec<usize> = (0..n)
        .filter(|&k| !(0.0..=1.0).contains(&log.episodes[k].score))
        .collect();
    if let Some(&k) = outside.first() {
        warnings.push(format!(
            "{} episode(s) with a logged score outside [0, 1] (first: line {}, episode `{}`, score {}): a score is a normalized value in 0..1; kept as logged",
            outside.len(),
            log.lines.get(k).copied().unwrap_or(0),
            log.episodes[k].episode_id,
            log.episodes[k].score
        ));
    }
    let above: Vec<usize> = (0..n)
        .filter(|&k| verified[k].is_some_and(|v| v > 1.0))
        .collect();
    if let Some(&k) = above.first() {
        warnings.push(format!(
            "{} episode(s) with a verified score above 1 (first: line {}, episode `{}`, {}): the log accepted items the instance does not allow (see verification.flagged)",
            above.len(),
            log.lines.get(k).copied().unwrap_or(0),
            log.episodes[k].episode_id,
            verified[k].unwrap_or(0.0)
        ));
    }
    if !verification.disagreements.is_empty() {
        warnings.push(format!(
            "{} episode(s) whose logged score disagrees with the verifier (see verification.disagreements)",
            verification.disagreements.len()
        ));
    }
    let episodes = if settings.include_episodes {
        log.episodes
            .into_iter()
            .zip(per_episode)
            .enumerate()
            .map(|(k, (episode, (metrics, turns)))| EpisodeTrace {
                line: log.lines.get(k).copied().unwrap_or(0),
                slice: slice_of[k],
                verified: verified[k],
                metrics,
                turns,
                episode,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(RuntimeReport {
        summary,
        settings: settings.clone(),
        prng: PRNG.into(),
        episodes_read: n,
        skipped: log.skipped,
        slices,
        across,
        horizon_sweeps,
        verification,
        episodes,
        warnings,
    })
}
