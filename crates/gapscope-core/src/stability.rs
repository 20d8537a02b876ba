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
use crate::bootstrap::percentile;
use crate::profile::ProfileTable;
use crate::stats;
use crate::trajectory::{operation_profile, ProfileOptions, Trajectory};

/// Settings of the stability analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StabilitySettings {
    pub alpha: crate::Alpha,
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
}

impl Default for StabilitySettings {
    fn default() -> Self {
        StabilitySettings {
            alpha: crate::Alpha::DEFAULT,
            bootstrap: 1_000,
            seed: 0,
            splits: 20,
            half_a: None,
            group_regex: None,
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
    let re = regex::Regex::new(pattern)
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
    alpha: crate::Alpha,
    ops: &[String],
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
    let r = analyze(
        &table,
        &Settings {
            alpha,
            bootstrap: 0,
            nested: false,
            ..Settings::default()
        },
    )?;
    let mut out: Vec<Vec<Option<f64>>> =
        ops.iter().map(|op| r.operations[op].gap.clone()).collect();
    out.push(r.macro_fit.fit.gap.clone());
    Ok(out)
}

fn rho(a: &[Option<f64>], b: &[Option<f64>]) -> (Option<f64>, usize) {
    let (x, y) = stats::complete_pairs(a, b);
    (stats::spearman(&x, &y), x.len())
}

/// Run the stability analysis. `f` is the foundational profile (families
/// from it); `trajectories` carry `scenario_group` and labels.
pub fn stability(
    f: &ProfileTable,
    trajectories: &[Trajectory],
    s: &StabilitySettings,
) -> Result<StabilityReport, StabilityError> {
    if s.bootstrap > crate::analysis::MAX_BOOTSTRAP {
        return Err(StabilityError::Bootstrap(s.bootstrap));
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
    let used: Vec<&Trajectory> = trajectories
        .iter()
        .filter(|t| common.tasks.contains(&t.task_id))
        .collect();
    let mut groups: Vec<(String, usize)> = Vec::new();
    for t in &used {
        let g = t.scenario_group.clone().unwrap_or_default();
        if !groups.iter().any(|(x, _)| *x == g) {
            let tasks: std::collections::BTreeSet<&str> = used
                .iter()
                .filter(|u| u.scenario_group.as_deref() == Some(&g))
                .map(|u| u.task_id.as_str())
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
        let ga = half_gaps(f, &in_groups(a), s.alpha, &ops)
            .map_err(|source| StabilityError::Analysis { half: 'A', source })?;
        let gb = half_gaps(f, &in_groups(b), s.alpha, &ops)
            .map_err(|source| StabilityError::Analysis { half: 'B', source })?;
        Ok((ga, gb))
    };
    let (a, b) = split(s.seed)?;
    let (ga, gb) = gaps_for(&a, &b)?;
    let names: Vec<String> = ops.iter().cloned().chain(["macro".to_string()]).collect();

    // Bootstrap: resample groups with replacement within each half.
    let mut draws: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut skipped = vec![0usize; names.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    let pick = |rng: &mut ChaCha8Rng, half: &[String]| -> Vec<String> {
        (0..half.len())
            .map(|_| {
                half[rng.random_range(0..u32::try_from(half.len()).unwrap_or(u32::MAX)) as usize]
                    .clone()
            })
            .collect()
    };
    for _ in 0..s.bootstrap {
        let (ra, rb) = (pick(&mut rng, &a), pick(&mut rng, &b));
        // Repeated groups count repeatedly: relabel each copy as its own group.
        let relabel = |gs: &[String]| -> Vec<Trajectory> {
            gs.iter()
                .enumerate()
                .flat_map(|(k, g)| {
                    used.iter()
                        .filter(move |t| t.scenario_group.as_deref() == Some(g))
                        .map(move |t| {
                            let mut t = (*t).clone();
                            t.id = format!("{}#{k}", t.id);
                            t
                        })
                })
                .collect()
        };
        let (ta, tb) = (relabel(&ra), relabel(&rb));
        let ha = half_gaps(f, &ta.iter().collect::<Vec<_>>(), s.alpha, &ops);
        let hb = half_gaps(f, &tb.iter().collect::<Vec<_>>(), s.alpha, &ops);
        for k in 0..names.len() {
            match (&ha, &hb) {
                (Ok(x), Ok(y)) => match rho(&x[k], &y[k]).0 {
                    Some(r) => draws[k].push(r),
                    None => skipped[k] += 1,
                },
                _ => skipped[k] += 1,
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
                trajectories.extend(crate::trajectory::read_jsonl(&line).trajectories);
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
