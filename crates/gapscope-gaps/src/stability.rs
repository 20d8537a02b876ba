//! Cross-task stability of realization gaps (spec: realization-gaps.md,
//! "Cross-task stability"; paper 4.3, B.5, D.4).
//!
//! 1. Restrict to the common tasks; split the scenario groups into halves A and
//!    B: a seeded permutation of the groups, then each group in that order goes
//!    to the half with fewer tasks so far (ties: A). Groups may also be given.
//! 2. Per half: the operation profile from that half's trajectories, joined
//!    with the foundational profile, family-held-out gaps from F.
//! 3. Stability = Spearman across models between the A and B gaps, per
//!    operation and for the macro gap.
//! 4. Interval: resample groups with replacement within each half, recompute.
//! 5. Partition sensitivity: seeds 1..=n, median and range of rho, distinct splits.
//!
//! PRNG: ChaCha8 (`seed_from_u64`); the permutation is a Fisher–Yates shuffle
//! drawing `random_range(0..=i)` on `u32`.

use indexmap::IndexMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::analysis::{analyze, AnalysisError, Settings};
use gapscope_data::operations::{operation_profile, ProfileOptions};
use gapscope_data::profile::ProfileTable;
use gapscope_data::trajectory::Trajectory;
use gapscope_stats::bootstrap::percentile;
use gapscope_stats::summary;

/// Settings of the stability analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StabilitySettings {
    pub alpha: gapscope_stats::ridge::Alpha,
    /// Bootstrap draws for the interval of each rho (0: none).
    pub bootstrap: usize,
    /// Seed of the primary split (and of the bootstrap).
    pub seed: u64,
    /// Further splits with seeds 1..=splits.
    pub splits: u64,
    /// Groups of half A given by hand (the rest form B), instead of a seeded split.
    pub half_a: Option<Vec<String>>,
    /// Derive each trajectory's group from its `task_id` with this regular
    /// expression (the first capture group, or the whole match), overriding
    /// `scenario_group`.
    pub group_regex: Option<String>,
    /// The macro gap's definition, as in the report (mean of the operation
    /// scores, or pooled over each trajectory's labels).
    #[serde(default)]
    pub macro_definition: crate::analysis::MacroDefinition,
}

/// Bootstrap draws of the stability intervals by default (the spec's
/// 10,000: realization-gaps.md, "Uncertainty").
pub const DEFAULT_STABILITY_BOOTSTRAP: usize = 10_000;

impl Default for StabilitySettings {
    fn default() -> Self {
        StabilitySettings {
            alpha: gapscope_stats::ridge::Alpha::DEFAULT,
            bootstrap: DEFAULT_STABILITY_BOOTSTRAP,
            seed: 0,
            splits: 20,
            half_a: None,
            group_regex: None,
            macro_definition: crate::analysis::MacroDefinition::Mean,
        }
    }
}

/// Why stability could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StabilityError {
    #[error(
        "trajectory `{0}` has no scenario_group: give groups (or derive them from task ids) first"
    )]
    NoGroup(String),
    #[error("only {0} scenario group(s) on the common tasks: a split needs at least 2")]
    TooFewGroups(usize),
    #[error("half {half}: {source}")]
    Analysis { half: char, source: AnalysisError },
    #[error("group `{0}` given for half A is not among the scenario groups")]
    UnknownGroup(String),
    #[error("the group expression `{0}` is not a valid regular expression: {1}")]
    BadRegex(String, String),
    #[error("the group expression `{regex}` does not match task id `{task}`")]
    NoMatch { regex: String, task: String },
    #[error("bootstrap draws must be between 0 and {max}, got {0}", max = crate::analysis::MAX_BOOTSTRAP)]
    Bootstrap(usize),
    #[error("further splits must be between 0 and {MAX_SPLITS}, got {0}")]
    Splits(u64),
    #[error("alpha: {0}")]
    Alpha(crate::analysis::SettingsError),
    #[error("no model of the trajectories is in the profile table, so no gap can be computed: the profile has {profile}; the trajectories have {trajectories} (names must match exactly)")]
    NoOverlap {
        profile: String,
        trajectories: String,
    },
}

/// Up to 10 names, backquoted, then how many more.
fn some_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut more = 0usize;
    let mut set = std::collections::HashSet::new();
    for n in names {
        if set.insert(n) {
            if seen.len() < 10 {
                seen.push(n);
            } else {
                more += 1;
            }
        }
    }
    let mut s = seen
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    if s.is_empty() {
        s.push_str("none");
    }
    s
}

/// The most further splits a stability analysis takes (each one refits both
/// halves: time is linear in it; the paper uses 20).
pub const MAX_SPLITS: u64 = 10_000;

/// Give every trajectory the group its `task_id` yields under `pattern`
/// (first capture group, else the whole match).
pub fn groups_from_task_ids(
    trajectories: &[Trajectory],
    pattern: &str,
) -> Result<Vec<Trajectory>, StabilityError> {
    // regex-lite: the syntax of `regex` without its Unicode tables (a far
    // smaller wasm); `\w`, `\d`, `\s` are ASCII classes.
    let re = regex_lite::Regex::new(pattern)
        .map_err(|e| StabilityError::BadRegex(pattern.into(), e.to_string()))?;
    trajectories
        .iter()
        .map(|t| {
            let caps = re
                .captures(&t.task_id)
                .ok_or_else(|| StabilityError::NoMatch {
                    regex: pattern.into(),
                    task: t.task_id.clone(),
                })?;
            let g = caps
                .get(1)
                .or_else(|| caps.get(0))
                .map_or("", |m| m.as_str());
            let mut t = t.clone();
            t.scenario_group = Some(g.to_string());
            Ok(t)
        })
        .collect()
}

/// Stability of one gap (an operation, or the macro).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stability {
    /// Spearman between the A and B gaps on the primary split.
    pub rho: Option<f64>,
    /// Models with a gap in both halves.
    pub n: usize,
    pub ci95: Option<[f64; 2]>,
    pub skipped: usize,
    /// Over the further splits: median, min and max of rho.
    pub median: Option<f64>,
    pub range: Option<[f64; 2]>,
    pub gaps_a: Vec<Option<f64>>,
    pub gaps_b: Vec<Option<f64>>,
}

/// The stability report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StabilityReport {
    pub models: Vec<String>,
    pub half_a: Vec<String>,
    pub half_b: Vec<String>,
    pub tasks_a: usize,
    pub tasks_b: usize,
    /// Per operation, then `macro`.
    pub stability: IndexMap<String, Stability>,
    pub splits: u64,
    pub distinct_splits: usize,
    pub bootstrap: usize,
    pub seed: u64,
    /// The macro gap's definition.
    #[serde(default)]
    pub macro_definition: crate::analysis::MacroDefinition,
}

/// Split groups (with their task counts) into halves by the seeded rule.
pub fn seeded_split(groups: &[(String, usize)], seed: u64) -> (Vec<String>, Vec<String>) {
    let mut order: Vec<usize> = (0..groups.len()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in (1..order.len()).rev() {
        let j = rng.random_range(0..=u32::try_from(i).unwrap_or(u32::MAX)) as usize;
        order.swap(i, j);
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let (mut ta, mut tb) = (0, 0);
    for k in order {
        let (g, n) = &groups[k];
        if ta <= tb {
            a.push(g.clone());
            ta += n;
        } else {
            b.push(g.clone());
            tb += n;
        }
    }
    (a, b)
}

/// Gaps per operation (then the macro), per model.
type Gaps = Vec<Vec<Option<f64>>>;

/// Gaps per operation (and macro) for one half's trajectories.
fn half_gaps(
    f: &ProfileTable,
    trajectories: &[&Trajectory],
    alpha: gapscope_stats::ridge::Alpha,
    ops: &[String],
    macro_definition: crate::analysis::MacroDefinition,
) -> Result<Gaps, AnalysisError> {
    let owned: Vec<Trajectory> = trajectories.iter().map(|t| (*t).clone()).collect();
    let p = operation_profile(
        &owned,
        &ProfileOptions {
            all_tasks: true,
            operations: Some(ops.to_vec()),
            ..Default::default()
        },
    );
    let mut table = f.clone();
    table.reward = None;
    table.outcome_column = None;
    table.operations.names = ops.to_vec();
    table.operations.values = f
        .models
        .iter()
        .map(|m| match p.models.iter().position(|x| x == m) {
            Some(i) => p.scores[i].clone(),
            None => vec![None; ops.len()],
        })
        .collect();
    table.pooled_macro = Some(
        f.models
            .iter()
            .map(|m| {
                p.models
                    .iter()
                    .position(|x| x == m)
                    .and_then(|i| p.pooled_macro[i])
            })
            .collect(),
    );
    let r = analyze(
        &table,
        &Settings {
            alpha,
            bootstrap: 0,
            nested: false,
            macro_definition,
            ..Settings::default()
        },
    )?;
    let mut out: Vec<Vec<Option<f64>>> =
        ops.iter().map(|op| r.operations[op].gap.clone()).collect();
    out.push(r.macro_fit.fit.gap.clone());
    Ok(out)
}

/// Bootstrap draws whose held-out fits are batched together.
const BOOTSTRAP_CHUNK: usize = 500;

/// Per scenario group, per model of the profile: for each operation the sum
/// and count of its trajectories' label means, then the same for the
/// pooled macro (the mean of all a trajectory's labels).
struct GroupSums {
    /// `sums[group][model][k]`, k over the operations then the pooled macro.
    sums: Vec<Vec<Vec<(f64, usize)>>>,
    ops: usize,
}

impl GroupSums {
    fn new(
        used: &[&Trajectory],
        groups: &[(String, usize)],
        models: &[String],
        ops: &[String],
    ) -> Self {
        let group_index: std::collections::HashMap<&str, usize> = groups
            .iter()
            .enumerate()
            .map(|(i, (g, _))| (g.as_str(), i))
            .collect();
        let model_index: std::collections::HashMap<&str, usize> = models
            .iter()
            .enumerate()
            .map(|(i, m)| (m.as_str(), i))
            .collect();
        let mut sums = vec![vec![vec![(0.0, 0usize); ops.len() + 1]; models.len()]; groups.len()];
        for t in used {
            let (Some(&g), Some(&m)) = (
                t.scenario_group.as_deref().and_then(|g| group_index.get(g)),
                model_index.get(t.model.as_str()),
            ) else {
                continue;
            };
            let cell = &mut sums[g][m];
            for (k, op) in ops.iter().enumerate() {
                if let Some(v) = t
                    .labels
                    .get(op)
                    .and_then(|l| gapscope_data::operations::label_mean(l))
                {
                    cell[k].0 += v;
                    cell[k].1 += 1;
                }
            }
            let all: Vec<Option<f64>> = ops
                .iter()
                .filter_map(|op| t.labels.get(op))
                .flatten()
                .copied()
                .collect();
            if let Some(v) = gapscope_data::operations::label_mean(&all) {
                cell[ops.len()].0 += v;
                cell[ops.len()].1 += 1;
            }
        }
        GroupSums {
            sums,
            ops: ops.len(),
        }
    }

    /// The targets of one half drawn as `picks` (group indices, repeats
    /// allowed): each operation's scores (0–100) per model, then the macro.
    fn targets(
        &self,
        picks: &[usize],
        macro_definition: crate::analysis::MacroDefinition,
    ) -> Vec<Vec<Option<f64>>> {
        let n_models = self.sums.first().map_or(0, Vec::len);
        let mut acc = vec![vec![(0.0, 0usize); self.ops + 1]; n_models];
        for &g in picks {
            for (a, cell) in acc.iter_mut().zip(&self.sums[g]) {
                for (x, y) in a.iter_mut().zip(cell) {
                    x.0 += y.0;
                    x.1 += y.1;
                }
            }
        }
        let score = |(s, n): (f64, usize)| (n > 0).then(|| 100.0 * (s / n as f64));
        let mut out: Vec<Vec<Option<f64>>> = (0..self.ops)
            .map(|k| acc.iter().map(|a| score(a[k])).collect())
            .collect();
        let q = self.ops as f64;
        out.push(match macro_definition {
            crate::analysis::MacroDefinition::Mean => (0..n_models)
                .map(|m| {
                    (0..self.ops)
                        .map(|k| out[k][m])
                        .collect::<Option<Vec<f64>>>()
                        .map(|v| v.iter().sum::<f64>() / q)
                })
                .collect(),
            crate::analysis::MacroDefinition::Pooled => {
                acc.iter().map(|a| score(a[self.ops])).collect()
            }
        });
        out
    }
}

fn rho(a: &[Option<f64>], b: &[Option<f64>]) -> (Option<f64>, usize) {
    let (x, y) = summary::complete_pairs(a, b);
    (summary::spearman(&x, &y), x.len())
}

/// Run the stability analysis. `f` is the foundational profile (families
/// from it); `trajectories` carry `scenario_group` and labels.
#[allow(
    clippy::too_many_lines,
    reason = "the stability pipeline's stages in order, as the spec lists them"
)]
pub fn stability(
    f: &ProfileTable,
    trajectories: &[Trajectory],
    s: &StabilitySettings,
) -> Result<StabilityReport, StabilityError> {
    if s.bootstrap > crate::analysis::MAX_BOOTSTRAP {
        return Err(StabilityError::Bootstrap(s.bootstrap));
    }
    if s.alpha.get() < crate::analysis::MIN_ALPHA {
        return Err(StabilityError::Alpha(
            crate::analysis::SettingsError::AlphaTooSmall(s.alpha.get()),
        ));
    }
    if s.splits > MAX_SPLITS {
        return Err(StabilityError::Splits(s.splits));
    }
    let regrouped;
    let trajectories = match &s.group_regex {
        Some(p) => {
            regrouped = groups_from_task_ids(trajectories, p)?;
            &regrouped[..]
        }
        None => trajectories,
    };
    // An experiment's runs (a `checkpoint`) are not the corpus's
    // (realization-gaps.md, "Experiments beside the corpus").
    let corpus: Vec<Trajectory>;
    let trajectories = if trajectories.iter().any(Trajectory::is_experiment) {
        corpus = trajectories
            .iter()
            .filter(|t| !t.is_experiment())
            .cloned()
            .collect();
        &corpus[..]
    } else {
        trajectories
    };
    if let Some(t) = trajectories.iter().find(|t| t.scenario_group.is_none()) {
        return Err(StabilityError::NoGroup(t.id.clone()));
    }
    let in_profile: std::collections::HashSet<&str> = f.models.iter().map(String::as_str).collect();
    if !trajectories
        .iter()
        .any(|t| in_profile.contains(t.model.as_str()))
    {
        return Err(StabilityError::NoOverlap {
            profile: some_names(f.models.iter().map(String::as_str)),
            trajectories: some_names(trajectories.iter().map(|t| t.model.as_str())),
        });
    }
    let common = operation_profile(trajectories, &ProfileOptions::default());
    let ops = common.operations.clone();
    // Tasks as the profile names them: (domain, id), `domain/id` when the
    // corpus spans several domains.
    let qualified = gapscope_data::trajectory::several_domains(trajectories);
    let common_tasks: std::collections::HashSet<&str> =
        common.tasks.iter().map(String::as_str).collect();
    let used: Vec<&Trajectory> = trajectories
        .iter()
        .filter(|t| common_tasks.contains(t.task_key().label(qualified).as_str()))
        .collect();
    let mut groups: Vec<(String, usize)> = Vec::new();
    for t in &used {
        let g = t.scenario_group.clone().unwrap_or_default();
        if !groups.iter().any(|(x, _)| *x == g) {
            let tasks: std::collections::BTreeSet<gapscope_data::trajectory::TaskKey<'_>> = used
                .iter()
                .filter(|u| u.scenario_group.as_deref() == Some(&g))
                .map(|u| u.task_key())
                .collect();
            groups.push((g, tasks.len()));
        }
    }
    if groups.len() < 2 {
        return Err(StabilityError::TooFewGroups(groups.len()));
    }
    let split = |seed: u64| -> Result<(Vec<String>, Vec<String>), StabilityError> {
        match &s.half_a {
            Some(a) if seed == s.seed => {
                for g in a {
                    if !groups.iter().any(|(x, _)| x == g) {
                        return Err(StabilityError::UnknownGroup(g.clone()));
                    }
                }
                Ok((
                    a.clone(),
                    groups
                        .iter()
                        .map(|(g, _)| g.clone())
                        .filter(|g| !a.contains(g))
                        .collect(),
                ))
            }
            _ => Ok(seeded_split(&groups, seed)),
        }
    };
    let in_groups = |gs: &[String]| -> Vec<&Trajectory> {
        used.iter()
            .copied()
            .filter(|t| t.scenario_group.as_ref().is_some_and(|g| gs.contains(g)))
            .collect()
    };
    let gaps_for = |a: &[String], b: &[String]| -> Result<(Gaps, Gaps), StabilityError> {
        let ga = half_gaps(f, &in_groups(a), s.alpha, &ops, s.macro_definition)
            .map_err(|source| StabilityError::Analysis { half: 'A', source })?;
        let gb = half_gaps(f, &in_groups(b), s.alpha, &ops, s.macro_definition)
            .map_err(|source| StabilityError::Analysis { half: 'B', source })?;
        Ok((ga, gb))
    };
    let (a, b) = split(s.seed)?;
    let (ga, gb) = gaps_for(&a, &b)?;
    let names: Vec<String> = ops.iter().cloned().chain(["macro".to_string()]).collect();

    // Bootstrap: resample groups with replacement within each half. Each
    // group's per-model label sums are formed once; a draw's operation
    // scores are sums over the drawn groups (a repeated group counts
    // repeatedly), and every draw's gaps come from one batch of held-out fits.
    let mut draws: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut skipped = vec![0usize; names.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    let index_of = |half: &[String]| -> Vec<usize> {
        half.iter()
            .filter_map(|g| groups.iter().position(|(x, _)| x == g))
            .collect()
    };
    let (ia, ib) = (index_of(&a), index_of(&b));
    let pick = |rng: &mut ChaCha8Rng, half: &[usize]| -> Vec<usize> {
        (0..half.len())
            .map(|_| {
                half[rng.random_range(0..u32::try_from(half.len()).unwrap_or(u32::MAX)) as usize]
            })
            .collect()
    };
    let sums = GroupSums::new(&used, &groups, &f.models, &ops);
    let mut left = s.bootstrap;
    while left > 0 {
        let chunk = left.min(BOOTSTRAP_CHUNK);
        left -= chunk;
        let mut targets = Vec::with_capacity(chunk * 2 * names.len());
        for _ in 0..chunk {
            let (ra, rb) = (pick(&mut rng, &ia), pick(&mut rng, &ib));
            targets.extend(sums.targets(&ra, s.macro_definition));
            targets.extend(sums.targets(&rb, s.macro_definition));
        }
        let gaps = crate::analysis::held_out_gaps(f, &targets, s.alpha);
        for draw in gaps.chunks(2 * names.len()) {
            let (ha, hb) = draw.split_at(names.len());
            for k in 0..names.len() {
                match rho(&ha[k], &hb[k]).0 {
                    Some(r) => draws[k].push(r),
                    None => skipped[k] += 1,
                }
            }
        }
    }

    // Partition sensitivity.
    let mut per_split: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut distinct: Vec<Vec<String>> = Vec::new();
    for seed in 1..=s.splits {
        let (sa, sb) = seeded_split(&groups, seed);
        // A partition is the same whichever half is called A.
        let (mut x, mut y) = (sa.clone(), sb.clone());
        x.sort();
        y.sort();
        let key = if x <= y {
            [x, y].concat()
        } else {
            [y, x].concat()
        };
        if !distinct.contains(&key) {
            distinct.push(key);
        }
        if let Ok((x, y)) = gaps_for(&sa, &sb) {
            for k in 0..names.len() {
                if let Some(r) = rho(&x[k], &y[k]).0 {
                    per_split[k].push(r);
                }
            }
        }
    }

    let mut stability = IndexMap::new();
    for (k, name) in names.iter().enumerate() {
        let (r, n) = rho(&ga[k], &gb[k]);
        let mut d = draws[k].clone();
        d.sort_by(f64::total_cmp);
        let mut ps = per_split[k].clone();
        ps.sort_by(f64::total_cmp);
        stability.insert(
            name.clone(),
            Stability {
                rho: r,
                n,
                ci95: match (percentile(&d, 2.5), percentile(&d, 97.5)) {
                    (Some(lo), Some(hi)) => Some([lo, hi]),
                    _ => None,
                },
                skipped: skipped[k],
                median: percentile(&ps, 50.0),
                range: ps.first().zip(ps.last()).map(|(lo, hi)| [*lo, *hi]),
                gaps_a: ga[k].clone(),
                gaps_b: gb[k].clone(),
            },
        );
    }
    let count = |gs: &[String]| {
        groups
            .iter()
            .filter(|(g, _)| gs.contains(g))
            .map(|(_, n)| n)
            .sum()
    };
    Ok(StabilityReport {
        models: f.models.clone(),
        tasks_a: count(&a),
        tasks_b: count(&b),
        half_a: a,
        half_b: b,
        stability,
        splits: s.splits,
        distinct_splits: distinct.len(),
        bootstrap: s.bootstrap,
        seed: s.seed,
        macro_definition: s.macro_definition,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bootstrap as it was first written: every draw relabels the drawn
    /// groups' trajectories and runs the whole analysis on each half
    /// (`half_gaps`). The batched sums must give the same draws.
    fn reference_ci(
        f: &ProfileTable,
        trajectories: &[Trajectory],
        s: &StabilitySettings,
        a: &[String],
        b: &[String],
    ) -> Vec<(Option<[f64; 2]>, usize)> {
        let ops = operation_profile(trajectories, &ProfileOptions::default()).operations;
        let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
        let pick = |rng: &mut ChaCha8Rng, half: &[String]| -> Vec<String> {
            (0..half.len())
                .map(|_| {
                    half[rng.random_range(0..u32::try_from(half.len()).unwrap()) as usize].clone()
                })
                .collect()
        };
        let mut draws: Vec<Vec<f64>> = vec![Vec::new(); ops.len() + 1];
        let mut skipped = vec![0; ops.len() + 1];
        for _ in 0..s.bootstrap {
            let (ra, rb) = (pick(&mut rng, a), pick(&mut rng, b));
            let relabel = |gs: &[String]| -> Vec<Trajectory> {
                gs.iter()
                    .enumerate()
                    .flat_map(|(k, g)| {
                        trajectories
                            .iter()
                            .filter(move |t| t.scenario_group.as_deref() == Some(g))
                            .map(move |t| {
                                let mut t = t.clone();
                                t.id = format!("{}#{k}", t.id);
                                t
                            })
                    })
                    .collect()
            };
            let (ta, tb) = (relabel(&ra), relabel(&rb));
            let ha = half_gaps(
                f,
                &ta.iter().collect::<Vec<_>>(),
                s.alpha,
                &ops,
                s.macro_definition,
            );
            let hb = half_gaps(
                f,
                &tb.iter().collect::<Vec<_>>(),
                s.alpha,
                &ops,
                s.macro_definition,
            );
            for k in 0..=ops.len() {
                match (&ha, &hb) {
                    (Ok(x), Ok(y)) => match rho(&x[k], &y[k]).0 {
                        Some(r) => draws[k].push(r),
                        None => skipped[k] += 1,
                    },
                    _ => skipped[k] += 1,
                }
            }
        }
        draws
            .into_iter()
            .zip(skipped)
            .map(|(mut d, sk)| {
                d.sort_by(f64::total_cmp);
                let ci = match (percentile(&d, 2.5), percentile(&d, 97.5)) {
                    (Some(lo), Some(hi)) => Some([lo, hi]),
                    _ => None,
                };
                (ci, sk)
            })
            .collect()
    }

    #[test]
    fn batched_bootstrap_draws_equal_the_whole_analysis_per_draw() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/synthetic-trajectories");
        let f = ProfileTable::read(
            &std::fs::read_to_string(dir.join("foundational.csv")).unwrap(),
            &Default::default(),
        )
        .unwrap();
        let corpus = gapscope_data::formats::read_jsonl(
            &std::fs::read_to_string(dir.join("trajectories.jsonl")).unwrap(),
        );
        let mut macro_gaps = Vec::new();
        for macro_definition in [
            crate::analysis::MacroDefinition::Mean,
            crate::analysis::MacroDefinition::Pooled,
        ] {
            let s = StabilitySettings {
                bootstrap: 30,
                splits: 0,
                seed: 7,
                macro_definition,
                ..Default::default()
            };
            let r = stability(&f, &corpus.trajectories, &s).unwrap();
            assert_eq!(r.macro_definition, macro_definition);
            macro_gaps.push(r.stability["macro"].gaps_a.clone());
            let reference = reference_ci(&f, &corpus.trajectories, &s, &r.half_a, &r.half_b);
            for ((name, st), (ci, sk)) in r.stability.iter().zip(reference) {
                assert_eq!(st.skipped, sk, "{name}");
                let (x, y) = (st.ci95.unwrap(), ci.unwrap());
                for k in 0..2 {
                    assert!(
                        (x[k] - y[k]).abs() < 1e-9,
                        "{name} {macro_definition:?}: {x:?} vs {y:?}"
                    );
                }
            }
        }
        // The halves follow the macro definition in force (it was always the mean).
        assert_ne!(macro_gaps[0], macro_gaps[1]);
        // A penalty that makes the solve ill-conditioned is refused, as in the report.
        let tiny = StabilitySettings {
            alpha: gapscope_stats::ridge::Alpha::new(1e-300).unwrap(),
            ..Default::default()
        };
        assert!(stability(&f, &corpus.trajectories, &tiny)
            .unwrap_err()
            .to_string()
            .starts_with("alpha: the ridge penalty must be at least 1e-6 (got 1e-300)"));
    }

    #[test]
    fn the_split_balances_task_counts_in_permutation_order() {
        // With sizes 5, 1, 1, 1, 1, 1 the big group lands in one half and the
        // small ones fill the other until it catches up: counts differ by ≤ 5.
        let groups: Vec<(String, usize)> =
            [("big", 5), ("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)]
                .iter()
                .map(|(g, n)| (g.to_string(), *n))
                .collect();
        for seed in 0..20 {
            let (a, b) = seeded_split(&groups, seed);
            assert_eq!(a.len() + b.len(), 6);
            let count = |h: &[String]| {
                h.iter()
                    .map(|g| groups.iter().find(|x| x.0 == *g).unwrap().1)
                    .sum::<usize>()
            };
            assert!((count(&a) as i64 - count(&b) as i64).abs() <= 5);
            assert!(!a.is_empty() && !b.is_empty());
        }
        assert_eq!(seeded_split(&groups, 3), seeded_split(&groups, 3));
        // Equal sizes, in order: A, B, A, B… (ties go to A).
        let eq: Vec<(String, usize)> = (0..4).map(|k| (format!("g{k}"), 2)).collect();
        let (a, b) = seeded_split(&eq, 0);
        assert_eq!((a.len(), b.len()), (2, 2));
    }

    #[test]
    fn identical_halves_are_perfectly_stable() {
        // Every model behaves the same in both groups: the two halves give the
        // same profile, so the A and B gaps are equal and rho = 1.
        let f = ProfileTable::read(
            "model,family,TU,RE\nm1,A,60,50\nm2,B,70,65\nm3,C,65,70\nm4,D,80,75\nm5,E,55,62\n",
            &Default::default(),
        )
        .unwrap();
        let scores = [0.0, 0.5, 1.0, 0.5, 1.0];
        let mut trajectories = Vec::new();
        for (i, m) in ["m1", "m2", "m3", "m4", "m5"].iter().enumerate() {
            for (g, task) in [("g1", "t1"), ("g2", "t2")] {
                let line = format!(
                    r#"{{"id": "{m}-{task}", "model": "{m}", "task_id": "{task}", "scenario_group": "{g}", "labels": {{"GI": [{}], "PL": [{}]}}}}"#,
                    scores[i],
                    scores[(i + 2) % 5]
                );
                trajectories.extend(gapscope_data::formats::read_jsonl(&line).trajectories);
            }
        }
        let r = stability(
            &f,
            &trajectories,
            &StabilitySettings {
                bootstrap: 50,
                splits: 3,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.half_a.len() + r.half_b.len(), 2);
        for (name, s) in &r.stability {
            assert_eq!(s.gaps_a, s.gaps_b, "{name}");
            assert!((s.rho.unwrap() - 1.0).abs() < 1e-12, "{name}: {:?}", s.rho);
            assert_eq!(s.n, 5);
        }
        assert!(r.stability.contains_key("macro"));
        let one: Vec<Trajectory> = trajectories
            .iter()
            .filter(|t| t.scenario_group.as_deref() == Some("g1"))
            .cloned()
            .collect();
        assert_eq!(
            stability(&f, &one, &StabilitySettings::default()).unwrap_err(),
            StabilityError::TooFewGroups(1)
        );
        let mut ungrouped = trajectories.clone();
        ungrouped[3].scenario_group = None;
        assert!(stability(&f, &ungrouped, &StabilitySettings::default())
            .unwrap_err()
            .to_string()
            .contains("has no scenario_group"));
        // Groups from task ids: t1 -> "1", t2 -> "2" give the same halves.
        let by_regex = StabilitySettings {
            bootstrap: 0,
            splits: 0,
            group_regex: Some("^t(\\d+)$".into()),
            ..Default::default()
        };
        let r2 = stability(&f, &ungrouped, &by_regex).unwrap();
        assert!((r2.stability["GI"].rho.unwrap() - 1.0).abs() < 1e-12);
        let mut halves = [r2.half_a.clone(), r2.half_b.clone()].concat();
        halves.sort();
        assert_eq!(halves, ["1", "2"]);
        // Bootstrap draws and further splits are bounded, with the limit said.
        let many = StabilitySettings {
            bootstrap: crate::analysis::MAX_BOOTSTRAP + 1,
            ..Default::default()
        };
        assert_eq!(
            stability(&f, &trajectories, &many).unwrap_err().to_string(),
            "bootstrap draws must be between 0 and 1000000, got 1000001"
        );
        let splits = StabilitySettings {
            splits: MAX_SPLITS + 1,
            ..Default::default()
        };
        assert_eq!(
            stability(&f, &trajectories, &splits).unwrap_err(),
            StabilityError::Splits(MAX_SPLITS + 1)
        );
        let bad = StabilitySettings {
            group_regex: Some("^x(".into()),
            ..Default::default()
        };
        assert!(matches!(
            stability(&f, &ungrouped, &bad),
            Err(StabilityError::BadRegex(..))
        ));
        let nomatch = StabilitySettings {
            group_regex: Some("^q".into()),
            ..Default::default()
        };
        assert_eq!(
            stability(&f, &ungrouped, &nomatch).unwrap_err().to_string(),
            "the group expression `^q` does not match task id `t1`"
        );
    }
}
