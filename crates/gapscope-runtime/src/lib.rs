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
//! - [`mechanism`]: coverage, decision, optimal-set recall and blind takes
//!   (addendum §4).
//! - [`gain`]: distinct items gained against inspect calls (addendum §5).
//! - [`cost`]: the token cost ratio and the input share (addendum §6).

pub mod cost;
pub mod gain;
pub mod knapsack;
pub mod log;
pub mod mechanism;
pub mod metrics;
pub mod read;

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub use log::{
    write_jsonl, Arm, Call, Condition, Episode, Failure, Horizon, Runtime, Termination, Turn,
};
pub use read::{read_jsonl, EpisodeLog};

use metrics::{Cell, Contrast, EpisodeMetrics, Estimate, Exposure, TraceRow, TurnMark};

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
}

/// The analysis settings.
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
    #[error("no episode could be read ({skipped} line(s) skipped{first})")]
    NoEpisodes { skipped: usize, first: String },
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
}

impl SliceKey {
    fn of(e: &Episode, pool: &[SliceDim]) -> Self {
        SliceKey {
            task_family: (!pool.contains(&SliceDim::TaskFamily)).then(|| e.task_family.clone()),
            base_model: (!pool.contains(&SliceDim::BaseModel)).then(|| e.base_model.clone()),
            seed: (!pool.contains(&SliceDim::Seed)).then_some(e.seed),
            rollout: (!pool.contains(&SliceDim::Rollout)).then_some(e.rollout),
        }
    }

    /// e.g. `opaque_knapsack · base model m · seed 0 · rollout all`.
    pub fn name(&self) -> String {
        let or_all = |v: Option<String>| v.unwrap_or_else(|| "all".into());
        format!(
            "{} · base model {} · seed {} · rollout {}",
            or_all(self.task_family.clone()).replace("all", "all families"),
            or_all(self.base_model.clone()),
            or_all(self.seed.map(|s| s.to_string())),
            or_all(self.rollout.map(|s| s.to_string()))
        )
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
}

/// Q against cap for one condition (the paper's Figure 2a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSeries {
    pub condition: Condition,
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
    pub warnings: Vec<String>,
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
    pub episode: Episode,
}

/// The report (the CLI's `--json` and the worker's answer).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuntimeReport {
    pub summary: String,
    pub settings: RuntimeSettings,
    pub prng: String,
    pub episodes_read: usize,
    pub skipped: Vec<gapscope_data::trajectory::LineError>,
    pub slices: Vec<SliceReport>,
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

/// Analyse episodes already read.
pub fn analyze_log(
    log: EpisodeLog,
    settings: &RuntimeSettings,
) -> Result<RuntimeReport, RuntimeError> {
    validate(settings)?;
    if log.episodes.is_empty() {
        return Err(RuntimeError::NoEpisodes {
            skipped: log.skipped.len(),
            first: log
                .skipped
                .first()
                .map(|e| format!("; first: {e}"))
                .unwrap_or_default(),
        });
    }
    let (verification, verified) = knapsack::verify(&log.episodes, &log.lines, settings.tolerance);
    let mut warnings = Vec::new();
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
            metrics::episode_metrics(e, settings.tools.get(&e.task_family), &settings.cap_message)
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
    for (s, (key, idx)) in groups.into_iter().enumerate() {
        for &k in &idx {
            slice_of[k] = s;
        }
        slices.push(slice_report(
            key,
            &idx,
            &log.episodes,
            &verified,
            &per_episode,
            settings,
        ));
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
        verification,
        episodes,
        warnings,
    })
}

#[allow(
    clippy::too_many_lines,
    reason = "one slice's report: every estimate of the spec's table, in its order"
)]
fn slice_report(
    key: SliceKey,
    idx: &[usize],
    episodes: &[Episode],
    verified: &[Option<f64>],
    per_episode: &[(EpisodeMetrics, Vec<TurnMark>)],
    settings: &RuntimeSettings,
) -> SliceReport {
    let mut warnings = Vec::new();
    let mut caps: Vec<u32> = idx.iter().map(|&k| episodes[k].cap).collect();
    caps.sort_unstable();
    caps.dedup();
    // (condition, cap) -> instance id -> scores
    let mut raw: BTreeMap<(Condition, u32), BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut unscored = 0;
    for &k in idx {
        let e = &episodes[k];
        let score = match settings.score {
            ScoreSource::Logged => Some(e.score),
            ScoreSource::Verified => verified[k],
        };
        match score {
            Some(s) => raw
                .entry((e.condition(), e.cap))
                .or_default()
                .entry(e.instance_id.clone())
                .or_default()
                .push(s),
            None => unscored += 1,
        }
    }
    if unscored > 0 {
        warnings.push(format!(
            "{unscored} episode(s) without a verified score are left out of Q"
        ));
    }
    let mut repeated = 0;
    let cells: BTreeMap<(Condition, u32), Cell> = raw
        .into_iter()
        .map(|(k, per)| {
            let cell = per
                .into_iter()
                .map(|(id, v)| {
                    repeated += v.len() - 1;
                    (id, v.iter().sum::<f64>() / v.len() as f64)
                })
                .collect();
            (k, cell)
        })
        .collect();
    if repeated > 0 {
        warnings.push(format!(
            "{repeated} episode(s) repeat an instance within a condition and cap: each instance's episodes are averaged first"
        ));
    }
    let (b, seed) = (settings.bootstrap, settings.seed);
    let cell = |c: Condition, cap: u32| cells.get(&(c, cap));
    let gp = |cap: u32, k: f64| {
        [
            (k, cell(Condition::PP, cap)),
            (-k, cell(Condition::PS, cap)),
        ]
    };
    let gs = |cap: u32, k: f64| {
        [
            (k, cell(Condition::SS, cap)),
            (-k, cell(Condition::SP, cap)),
        ]
    };
    let tables: Vec<CapTable> = caps
        .iter()
        .map(|&cap| CapTable {
            cap,
            cells: Condition::ALL
                .iter()
                .map(|&c| ConditionCell {
                    condition: c,
                    q: metrics::estimate(cell(c, cap), b, seed),
                })
                .collect(),
            g_p: metrics::contrast(format!("Q_PP({cap}) - Q_PS({cap})"), &gp(cap, 1.0), b, seed),
            g_s: metrics::contrast(format!("Q_SS({cap}) - Q_SP({cap})"), &gs(cap, 1.0), b, seed),
            d: metrics::contrast(
                format!("(Q_PP({cap}) - Q_PS({cap})) - (Q_SP({cap}) - Q_SS({cap}))"),
                &[gp(cap, 1.0), gs(cap, 1.0)].concat(),
                b,
                seed,
            ),
        })
        .collect();
    let sweep = Condition::ALL
        .iter()
        .map(|&c| SweepSeries {
            condition: c,
            points: tables
                .iter()
                .filter(|t| cell(c, t.cap).is_some())
                .map(|t| SweepPoint {
                    cap: t.cap,
                    q: t.cells[Condition::ALL.iter().position(|x| *x == c).unwrap_or(0)]
                        .q
                        .clone(),
                })
                .collect(),
        })
        .collect();
    let tight = settings.c_tight.or(caps.first().copied());
    let slack = settings.c_slack.or(caps.last().copied());
    let comparison = match (tight, slack) {
        (Some(t), Some(s)) if t != s => {
            for c in [t, s] {
                if !caps.contains(&c) {
                    warnings.push(format!(
                        "cap {c} is not in this slice: the cap comparison is undefined"
                    ));
                }
            }
            let d = |cap, k| [gp(cap, k), gs(cap, k)].concat();
            Some(CapComparison {
                c_tight: t,
                c_slack: s,
                t: metrics::contrast(
                    format!("D({t}) - D({s})"),
                    &[d(t, 1.0), d(s, -1.0)].concat(),
                    b,
                    seed,
                ),
                amplification_p: metrics::contrast(
                    format!("G_P({t}) - G_P({s})"),
                    &[gp(t, 1.0), gp(s, -1.0)].concat(),
                    b,
                    seed,
                ),
                amplification_s: metrics::contrast(
                    format!("G_S({t}) - G_S({s})"),
                    &[gs(t, 1.0), gs(s, -1.0)].concat(),
                    b,
                    seed,
                ),
            })
        }
        _ => {
            warnings.push("one cap only: no cap comparison (T, amplification)".into());
            None
        }
    };
    let mut trace = Vec::new();
    for &cap in &caps {
        for c in Condition::ALL {
            let rows: Vec<(&Episode, &EpisodeMetrics)> = idx
                .iter()
                .filter(|&&k| episodes[k].cap == cap && episodes[k].condition() == c)
                .map(|&k| (&episodes[k], &per_episode[k].0))
                .collect();
            if !rows.is_empty() {
                trace.push(metrics::trace_row(cap, c, &rows));
            }
        }
    }
    let exposure = match slack {
        Some(s) => Condition::ALL
            .iter()
            .filter_map(|&c| {
                let eps: Vec<&Episode> = idx
                    .iter()
                    .map(|&k| &episodes[k])
                    .filter(|e| e.condition() == c && e.cap == s)
                    .collect();
                (!eps.is_empty()).then(|| metrics::exposure(c, s, &caps, &eps))
            })
            .collect(),
        None => Vec::new(),
    };
    SliceReport {
        name: key.name(),
        key,
        episodes: idx.len(),
        scored: idx.len() - unscored,
        caps,
        tables,
        sweep,
        comparison,
        trace,
        exposure,
        warnings,
    }
}
