//! Distinct items gained against inspect calls (spec:
//! runtime-contracts.addendum.md §5, the paper's Fig. 2b).
//!
//! Per episode: the inspect calls of its logged turns are numbered x = 1..X_e
//! in log order (turn index, then call); every recorded one counts, cached,
//! failed and cap-rejected too. Turn 0 is the first logged turn; the baseline
//! b_e is the distinct items acquired in it; g_e(x) counts the acquiring
//! calls (successful, on an id not inspected before in the episode) among
//! calls 1..x outside turn 0, with g_e(0) = 0 and g_e(x) = g_e(X_e) past X_e.
//! So b_e + g_e(X_e) is the episode's distinct items, as
//! [`crate::metrics::episode_metrics`] counts them (logged turns only).
//!
//! Over two or more conditions, on the instance ids they all share: per
//! condition the curve G(x) (the mean over ids of each id's episode mean of
//! g_e(x)), X̄, Ḡ and b̄ with the instance bootstrap, and Ḡ of each
//! condition against the first's, paired; b̄ over all of them (the common
//! baseline).

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};

use crate::log::{call_item_id, Episode};
use crate::metrics::{self, Cell, Contrast, Estimate};

/// The gain of one episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeGain {
    /// The episode.
    pub episode_id: String,
    /// Its instance id (the bootstrap unit).
    pub instance_id: String,
    /// X_e: recorded inspect calls in logged turns.
    pub inspect_calls: usize,
    /// b_e: distinct items acquired in turn 0 (the first logged turn).
    pub baseline: usize,
    /// g_e(x) for x = 0..=X_e.
    pub g: Vec<usize>,
}

impl EpisodeGain {
    /// g_e(x), constant past X_e.
    pub fn at(&self, x: usize) -> usize {
        self.g.get(x).or(self.g.last()).copied().unwrap_or(0)
    }

    /// g_e(X_e): the items gained after turn 0.
    pub fn gain(&self) -> usize {
        self.at(self.inspect_calls)
    }
}

/// The gain of one episode; `inspect`: the family's inspect tool(s).
pub fn episode_gain(e: &Episode, inspect: &[String]) -> EpisodeGain {
    let mut turns: Vec<&crate::log::Turn> = e.turns.iter().filter(|t| t.logged).collect();
    turns.sort_by_key(|t| t.index);
    let mut seen: HashSet<String> = HashSet::new();
    let (mut baseline, mut gained) = (0, 0);
    let mut g = vec![0];
    for (k, t) in turns.iter().enumerate() {
        for c in t.calls.iter().filter(|c| inspect.contains(&c.tool)) {
            let acquires = c.ok && call_item_id(&c.args).is_some_and(|id| seen.insert(id));
            if k == 0 {
                baseline += usize::from(acquires);
            } else {
                gained += usize::from(acquires);
            }
            g.push(gained);
        }
    }
    EpisodeGain {
        episode_id: e.episode_id.clone(),
        instance_id: e.instance_id.clone(),
        inspect_calls: g.len() - 1,
        baseline,
        g,
    }
}

/// Why the gain analysis is undefined.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum GainUndefined {
    /// The family has no inspect tool.
    #[error("no inspect tool: distinct items are undefined")]
    NoInspectTool,
    /// No condition was given.
    #[error("no condition")]
    NoCondition,
    /// The conditions share no instance id.
    #[error("the conditions share no instance id")]
    NoSharedId,
}

/// One point of a curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainPoint {
    /// Inspect calls x.
    pub x: usize,
    /// G(x): the mean over ids of each id's episode mean of g_e(x).
    pub g: f64,
    /// Episodes with X_e ≥ x.
    pub n: usize,
}

/// One condition's curve and summary on the shared ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainCondition {
    /// The condition's label, as given.
    pub label: String,
    /// Its episodes on the shared ids.
    pub episodes: usize,
    /// Its episodes on other ids (left out).
    pub left_out: usize,
    /// G(x) at x = 0..=max X_e (no binning).
    pub curve: Vec<GainPoint>,
    /// X̄: mean inspect calls (per id first, instance bootstrap).
    pub inspect_calls: Estimate,
    /// Ḡ: mean g_e(X_e), likewise.
    pub gain: Estimate,
    /// b̄: mean baseline, likewise.
    pub baseline: Estimate,
    /// Ḡ of this condition minus the first's, paired on the shared ids
    /// (`None` for the first).
    pub gain_vs_first: Option<Contrast>,
    /// Every episode's gain (on the shared ids).
    pub per_episode: Vec<EpisodeGain>,
}

/// The gain analysis over the conditions given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainReport {
    /// Instance ids every condition has.
    pub shared_ids: usize,
    /// Per condition, in the order given.
    pub conditions: Vec<GainCondition>,
    /// b̄ over all chosen episodes of all conditions (per id first, instance
    /// bootstrap): the common baseline.
    pub common_baseline: Estimate,
}

/// Per id the mean of `f` over the episodes.
fn per_id(gains: &[&EpisodeGain], f: impl Fn(&EpisodeGain) -> f64) -> Cell {
    crate::metrics::per_id_cell(gains.iter().map(|e| (e.instance_id.clone(), f(e))))
}

/// Curves and summaries of `cells` (label, episodes; one slice, one cap; two
/// or more in the paper, the first being the reference of the paired
/// differences), `inspect` the family's inspect tool(s), with `draws`
/// bootstrap draws (B; 0: no intervals) from `seed`.
pub fn gain_curves(
    cells: &[(String, Vec<&Episode>)],
    inspect: &[String],
    draws: usize,
    seed: u64,
) -> Result<GainReport, GainUndefined> {
    if inspect.is_empty() {
        return Err(GainUndefined::NoInspectTool);
    }
    let Some(((_, first), rest)) = cells.split_first() else {
        return Err(GainUndefined::NoCondition);
    };
    let mut shared: BTreeSet<&str> = first.iter().map(|e| e.instance_id.as_str()).collect();
    for (_, eps) in rest {
        let ids: HashSet<&str> = eps.iter().map(|e| e.instance_id.as_str()).collect();
        shared.retain(|id| ids.contains(id));
    }
    if shared.is_empty() {
        return Err(GainUndefined::NoSharedId);
    }
    let all: Vec<Vec<EpisodeGain>> = cells
        .iter()
        .map(|(_, eps)| {
            eps.iter()
                .filter(|e| shared.contains(e.instance_id.as_str()))
                .map(|e| episode_gain(e, inspect))
                .collect()
        })
        .collect();
    let gain_cells: Vec<Cell> = all
        .iter()
        .map(|gs| per_id(&gs.iter().collect::<Vec<_>>(), |e| e.gain() as f64))
        .collect();
    let mut conditions = Vec::new();
    for (k, ((label, eps), gains)) in cells.iter().zip(&all).enumerate() {
        let refs: Vec<&EpisodeGain> = gains.iter().collect();
        let max_x = refs.iter().map(|e| e.inspect_calls).max().unwrap_or(0);
        let curve = (0..=max_x)
            .map(|x| {
                let cell = per_id(&refs, |e| e.at(x) as f64);
                GainPoint {
                    x,
                    g: cell.values().sum::<f64>() / cell.len() as f64,
                    n: refs.iter().filter(|e| e.inspect_calls >= x).count(),
                }
            })
            .collect();
        let est = |cell: &Cell| metrics::estimate(Some(cell), draws, seed);
        conditions.push(GainCondition {
            label: label.clone(),
            episodes: refs.len(),
            left_out: eps.len() - refs.len(),
            curve,
            inspect_calls: est(&per_id(&refs, |e| e.inspect_calls as f64)),
            gain: est(&gain_cells[k]),
            baseline: est(&per_id(&refs, |e| e.baseline as f64)),
            gain_vs_first: (k > 0).then(|| {
                metrics::contrast(
                    format!("G_{label} - G_{}", cells[0].0),
                    &[(1.0, Some(&gain_cells[k])), (-1.0, Some(&gain_cells[0]))],
                    draws,
                    seed,
                )
            }),
            per_episode: gains.clone(),
        });
    }
    let every: Vec<&EpisodeGain> = all.iter().flatten().collect();
    Ok(GainReport {
        shared_ids: shared.len(),
        conditions,
        common_baseline: metrics::estimate(
            Some(&per_id(&every, |e| e.baseline as f64)),
            draws,
            seed,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::episode_metrics;
    use crate::read::read_jsonl;
    use crate::FamilyTools;

    /// Inspect calls of a turn: (id, ok, cached).
    type Calls<'a> = [(&'a str, bool, bool)];

    /// `turns`: (logged, calls).
    fn episode(eid: &str, id: &str, cond: &str, turns: &[(bool, &Calls)]) -> String {
        let (train, deploy) = cond.split_once("->").unwrap();
        let turns: Vec<String> = turns
            .iter()
            .enumerate()
            .map(|(k, (logged, calls))| {
                let calls: Vec<String> = calls
                    .iter()
                    .map(|(i, ok, cached)| {
                        format!(r#"{{"tool":"inspect","args":"{i}","ok":{ok},"cached":{cached}}}"#)
                    })
                    .collect();
                format!(
                    r#"{{"index":{k},"logged":{logged},"calls":[{}]}}"#,
                    calls.join(",")
                )
            })
            .collect();
        format!(
            r#"{{"episode_id":"{eid}","task_family":"opaque_knapsack","instance_id":"{id}","train_runtime":"{train}","deploy_runtime":"{deploy}","cap":9,"seed":0,"rollout":0,"base_model":"m","score":0,"termination":"finish","turns":[{}]}}"#,
            turns.join(",")
        )
    }

    fn tools() -> Vec<String> {
        vec!["inspect".into()]
    }

    fn read(lines: &[String]) -> Vec<Episode> {
        let log = read_jsonl(&lines.join("\n"));
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        log.episodes
    }

    /// The addendum's §5 example.
    fn example() -> Vec<Episode> {
        read(&[
            episode(
                "eA",
                "A",
                "P->P",
                &[
                    (true, &[("a", true, false), ("b", true, false)]),
                    (false, &[]),
                    (true, &[("a", true, true), ("c", true, false)]),
                ],
            ),
            episode(
                "eB",
                "B",
                "P->P",
                &[
                    (true, &[("a", true, false)]),
                    (
                        true,
                        &[("b", true, false), ("c", true, false), ("d", true, false)],
                    ),
                ],
            ),
        ])
    }

    #[test]
    fn the_addendum_example() {
        let eps = example();
        let ga = episode_gain(&eps[0], &tools());
        let gb = episode_gain(&eps[1], &tools());
        assert_eq!(ga.g, [0, 0, 0, 0, 1]);
        assert_eq!(gb.g, [0, 0, 1, 2, 3]);
        assert_eq!((ga.baseline, gb.baseline), (2, 1));
        assert_eq!(ga.at(9), 1);
        let cells = vec![("P->P".to_string(), eps.iter().collect::<Vec<_>>())];
        let rep = gain_curves(&cells, &tools(), 1000, 0).unwrap();
        let c = &rep.conditions[0];
        let g: Vec<f64> = c.curve.iter().map(|p| p.g).collect();
        assert_eq!(g, [0.0, 0.0, 0.5, 1.0, 2.0]);
        assert!(c.curve.iter().all(|p| p.n == 2));
        assert_eq!(c.inspect_calls.value, Some(4.0));
        assert_eq!(c.gain.value, Some(2.0));
        assert_eq!(c.baseline.value, Some(1.5));
        assert_eq!(rep.common_baseline.value, Some(1.5));
        assert_eq!(c.gain_vs_first, None);
        // Two ids with gains 1 and 3: each bound is one of 1, 2, 3.
        let [lo, hi] = c.gain.ci95.unwrap();
        assert!((1.0..=2.0).contains(&lo) && (2.0..=3.0).contains(&hi));
    }

    #[test]
    fn conditions_are_compared_on_shared_ids() {
        let mut eps = example();
        // P->S: ids A (twice: per id first), B and C (not shared, left out).
        eps.extend(read(&[
            episode("sA1", "A", "P->S", &[(true, &[("a", true, false)])]),
            episode(
                "sA2",
                "A",
                "P->S",
                &[
                    (true, &[]),
                    (true, &[("a", true, false), ("b", false, false)]),
                ],
            ),
            episode(
                "sB",
                "B",
                "P->S",
                &[(true, &[("a", true, false)]), (true, &[("a", true, true)])],
            ),
            episode("sC", "C", "P->S", &[(true, &[("a", true, false)])]),
        ]));
        let (pp, ps): (Vec<&Episode>, Vec<&Episode>) = eps
            .iter()
            .partition(|e| e.deploy_runtime == crate::Runtime::P);
        let cells = vec![("P->P".to_string(), pp), ("P->S".to_string(), ps)];
        let rep = gain_curves(&cells, &tools(), 1000, 0).unwrap();
        assert_eq!(rep.shared_ids, 2);
        let s = &rep.conditions[1];
        assert_eq!((s.episodes, s.left_out), (3, 1));
        // g: sA1 [0, 0]; sA2 [0, 1, 1]; sB [0, 0, 0]. Id A: X (1 + 2)/2,
        // gain (0 + 1)/2, baseline (1 + 0)/2; id B: X 2, gain 0, baseline 1.
        assert_eq!(s.inspect_calls.value, Some(1.75));
        assert_eq!(s.gain.value, Some(0.25));
        assert_eq!(s.baseline.value, Some(0.75));
        let g: Vec<f64> = s.curve.iter().map(|p| p.g).collect();
        assert_eq!(g, [0.0, 0.25, 0.25]);
        let n: Vec<usize> = s.curve.iter().map(|p| p.n).collect();
        assert_eq!(n, [3, 3, 2]);
        let d = s.gain_vs_first.as_ref().unwrap();
        assert_eq!(d.value, Some(0.25 - 2.0));
        assert_eq!(d.n_shared, 2);
        // Common baseline per id over both conditions: A (2 + 1 + 0)/3 = 1,
        // B (1 + 1)/2 = 1.
        assert_eq!(rep.common_baseline.value, Some(1.0));
    }

    #[test]
    fn undefined_without_inspect_tool_condition_or_shared_id() {
        let eps = example();
        let one = vec![("P->P".to_string(), vec![&eps[0]])];
        assert_eq!(
            gain_curves(&one, &[], 10, 0),
            Err(GainUndefined::NoInspectTool)
        );
        assert_eq!(
            gain_curves(&[], &tools(), 10, 0),
            Err(GainUndefined::NoCondition)
        );
        let two = vec![
            ("P->P".to_string(), vec![&eps[0]]),
            ("P->S".to_string(), vec![&eps[1]]),
        ];
        assert_eq!(
            gain_curves(&two, &tools(), 10, 0),
            Err(GainUndefined::NoSharedId)
        );
    }

    #[test]
    fn baseline_plus_gain_is_distinct_items() {
        // Every episode of a generated family: b_e + g_e(X_e) = distinct
        // items and X_e = inspect calls of episode_metrics, so b̄ + Ḡ is the
        // mean distinct items per id.
        let ids = ["a", "b", "c", "d", "e"];
        let mut state = 0x2545_F491u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let mut lines = Vec::new();
        for k in 0..60 {
            let turns: Vec<(bool, Vec<_>)> = (0..next(5))
                .map(|_| {
                    let calls = (0..next(4))
                        .map(|_| (ids[next(5) as usize], next(4) > 0, next(3) == 0))
                        .collect();
                    (next(5) > 0, calls)
                })
                .collect();
            let turns: Vec<(bool, &Calls)> =
                turns.iter().map(|(l, c)| (*l, c.as_slice())).collect();
            lines.push(episode(
                &format!("e{k}"),
                &format!("i{}", k % 7),
                "P->P",
                &turns,
            ));
        }
        let eps = read(&lines);
        let fam = FamilyTools {
            listing: vec![],
            inspect: tools(),
        };
        for e in &eps {
            let g = episode_gain(e, &tools());
            let (m, _) = episode_metrics(e, Some(&fam), "cap", crate::metrics::ListingCount::Calls);
            assert_eq!(
                Some(g.baseline + g.gain()),
                m.distinct_items,
                "{}",
                e.episode_id
            );
            assert_eq!(Some(g.inspect_calls), m.inspect_calls);
        }
        let cells = vec![("P->P".to_string(), eps.iter().collect::<Vec<_>>())];
        let rep = gain_curves(&cells, &tools(), 200, 0).unwrap();
        let c = &rep.conditions[0];
        let mut by_id: std::collections::BTreeMap<String, Vec<f64>> =
            std::collections::BTreeMap::new();
        for e in &eps {
            let (m, _) = episode_metrics(e, Some(&fam), "cap", crate::metrics::ListingCount::Calls);
            by_id
                .entry(e.instance_id.clone())
                .or_default()
                .push(m.distinct_items.unwrap_or(0) as f64);
        }
        let distinct = by_id
            .values()
            .map(|v| v.iter().sum::<f64>() / v.len() as f64)
            .sum::<f64>()
            / by_id.len() as f64;
        let sum = c.baseline.value.unwrap() + c.gain.value.unwrap();
        assert!((sum - distinct).abs() < 1e-12, "{sum} vs {distinct}");
        // G ends at Ḡ.
        let last = c.curve.last().unwrap().g;
        assert!((last - c.gain.value.unwrap()).abs() < 1e-12);
    }
}
