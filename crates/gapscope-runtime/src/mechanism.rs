//! Coverage and decision (spec: runtime-contracts.addendum.md §4): how much
//! of the optimum the inspected items allow (coverage = OPT(𝒬)/OPT) and how
//! much of that the agent took (decision = achieved/OPT(𝒬)), so that
//! normalized optimality = coverage × decision per episode; the secondary
//! optimal-set recall and the blind takes.
//!
//! Per episode with a readable Opaque Knapsack `instance`: the inspected set
//! 𝒬 is the ids with a successful (`ok`) call of an inspect tool, at episode
//! end; OPT is the verifier's optimum ([`knapsack::optimum`]); OPT(𝒬) the
//! same DP ([`knapsack::solve`]) over the allowed, fitting items of 𝒬;
//! achieved the verifier's replay value ([`knapsack::replay`], 0 on an
//! overflow). Per cell: the three means, per instance id first, with the
//! instance bootstrap (§0), the blind-take total and the left-out counts.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::knapsack::{self, Instance, Item, KnapsackError, MAX_DP_CELLS};
use crate::log::{call_item_id, Episode};
use crate::metrics::{self, Estimate};

/// The tool whose accepted calls take an item (as [`knapsack::replay`]).
pub const TAKE_TOOL: &str = "take_item";

/// Why an episode enters none of the three means.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MechanismError {
    /// The episode carries no `instance`.
    #[error("no instance")]
    NoInstance,
    /// The `instance` does not read as an Opaque Knapsack instance.
    #[error("instance field `{path}`: {message}")]
    Unreadable {
        /// Where in the instance the error lies.
        path: String,
        /// What is wrong there.
        message: String,
    },
    /// The instance reads but cannot be solved.
    #[error("instance: {0}")]
    Knapsack(#[from] KnapsackError),
}

/// Read an episode's `instance` as an Opaque Knapsack instance.
pub fn parse_instance(e: &Episode) -> Result<Instance, MechanismError> {
    let raw = e.instance.as_ref().ok_or(MechanismError::NoInstance)?;
    serde_path_to_error::deserialize(&**raw).map_err(|err| MechanismError::Unreadable {
        path: err.path().to_string(),
        message: gapscope_data::profile::json_message(err.inner()),
    })
}

/// The optimum with the fewest items, ties broken towards the
/// lexicographically smallest list of positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimalSet {
    /// Its total value.
    pub value: f64,
    /// Positions of its items in the list given (increasing).
    pub positions: Vec<usize>,
}

/// S*: the optimal set with the fewest items, ties between such sets broken
/// towards the lexicographically smallest list of positions in `items`.
/// Items heavier than `capacity` or of value ≤ 0 are never chosen (as
/// [`knapsack::solve`]); the caller passes the allowed items.
///
/// A suffix DP: `best[c]` after item i holds, for items i.. and room c, the
/// (largest value, fewest items); `take[i][c]` records whether taking item i
/// is optimal there (its candidate is at least as good as skipping it).
/// Walking i = 0, 1, … from the full capacity and taking item i whenever
/// that is optimal gives the smallest position at every step, hence the
/// lexicographically smallest optimal list (all optimal lists have the same
/// length).
pub fn fewest_optimal_set(items: &[&Item], capacity: u64) -> Result<OptimalSet, KnapsackError> {
    let cells = (items.len() as u64).saturating_mul(capacity.saturating_add(1));
    if cells > MAX_DP_CELLS {
        return Err(KnapsackError::TooLarge {
            items: items.len(),
            capacity,
        });
    }
    if items.is_empty() {
        return Ok(OptimalSet {
            value: 0.0,
            positions: Vec::new(),
        });
    }
    let cap = capacity as usize;
    let width = cap + 1;
    let mut best: Vec<(f64, usize)> = vec![(0.0, 0); width];
    let mut take = vec![false; items.len() * width];
    for (i, it) in items.iter().enumerate().rev() {
        let w = it.weight as usize;
        if it.weight > capacity || it.value <= 0.0 {
            continue;
        }
        // Descending c: best[c - w] still holds items i+1.. (the row below).
        for c in (w..=cap).rev() {
            let (v0, n0) = best[c - w];
            let cand = (v0 + it.value, n0 + 1);
            let skip = best[c];
            if cand.0 > skip.0 || (cand.0 == skip.0 && cand.1 <= skip.1) {
                best[c] = cand;
                take[i * width + c] = true;
            }
        }
    }
    let mut positions = Vec::new();
    let mut c = cap;
    for (i, it) in items.iter().enumerate() {
        if take[i * width + c] {
            positions.push(i);
            c -= it.weight as usize;
        }
    }
    Ok(OptimalSet {
        value: best[cap].0,
        positions,
    })
}

/// The mechanism quantities of one episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeMechanism {
    /// The episode.
    pub episode_id: String,
    /// Its instance id (the bootstrap unit).
    pub instance_id: String,
    /// Distinct ids in the inspected set 𝒬 (successful inspect calls).
    pub inspected: usize,
    /// OPT: the optimum over the allowed items.
    pub opt: f64,
    /// OPT(𝒬): the optimum over the allowed items of 𝒬.
    pub opt_inspected: f64,
    /// The replay value of the accepted takes, 0 on an overflow.
    pub achieved: f64,
    /// The accepted takes overflowed the capacity.
    pub overflow: bool,
    /// OPT(𝒬)/OPT; `None` when OPT = 0.
    pub coverage: Option<f64>,
    /// achieved/OPT(𝒬), unclamped (above 1 after blind takes); `None` when
    /// OPT = 0 or OPT(𝒬) = 0.
    pub decision: Option<f64>,
    /// |S* ∩ 𝒬|/|S*|; `None` when OPT = 0.
    pub recall: Option<f64>,
    /// Ids of S* (the optimal set with the fewest items, ties towards the
    /// lexicographically smallest list of positions in `items`).
    pub optimal_set: Vec<String>,
    /// Accepted `take_item` calls of an id not successfully inspected before
    /// them (turn index, then call order).
    pub blind_takes: usize,
}

/// The episode's turns in log order: turn index, then position (stable).
fn ordered_turns(e: &Episode) -> Vec<&crate::log::Turn> {
    let mut turns: Vec<&crate::log::Turn> = e.turns.iter().collect();
    turns.sort_by_key(|t| t.index);
    turns
}

/// Coverage, decision, recall and blind takes of one episode; `inspect`: the
/// family's inspect tool(s). The calls of every turn count, in turn-index
/// then call order (as [`knapsack::replay`] reads them). An error when the
/// episode has no readable, solvable instance; OPT = 0 gives `None` for all
/// three quantities.
pub fn episode_mechanism(
    e: &Episode,
    inspect: &[String],
) -> Result<EpisodeMechanism, MechanismError> {
    episode_mechanism_with(e, inspect, &mut InstanceCache::default())
}

/// What an instance gives every episode that carries it: the instance
/// read, OPT's value, and S* as ids (its fewest-items optimal set over the
/// takeable items).
#[derive(Debug)]
struct SolvedInstance {
    inst: Instance,
    opt: f64,
    optimal_set: Vec<String>,
}

/// An instance's reading and solution, or why it has none.
type Solution = Result<Rc<SolvedInstance>, MechanismError>;

/// Instances read and solved once: per instance id, each distinct
/// `instance` JSON given under it with its reading, OPT and S*, or the
/// error it gives. OPT and S* depend on the instance alone, so a cell's (and a
/// slice's) episodes of one instance share one reading and two DPs; only
/// OPT(𝒬) and the replay are per episode.
#[derive(Debug, Default)]
pub struct InstanceCache {
    kept: HashMap<String, Vec<(Arc<serde_json::Value>, Solution)>>,
}

impl InstanceCache {
    fn solve(&mut self, e: &Episode) -> Solution {
        let raw = e.instance.as_ref().ok_or(MechanismError::NoInstance)?;
        if let Some(list) = self.kept.get(&e.instance_id) {
            if let Some((_, r)) = list.iter().find(|(v, _)| Arc::ptr_eq(v, raw) || v == raw) {
                return r.clone();
            }
        }
        let solved = (|| {
            let inst = parse_instance(e)?;
            let opt = knapsack::optimum(&inst)?.value;
            let takeable: Vec<&Item> = inst.takeable().collect();
            let star = fewest_optimal_set(&takeable, inst.capacity)?;
            let optimal_set = star
                .positions
                .iter()
                .map(|&p| takeable[p].id.clone())
                .collect();
            Ok(Rc::new(SolvedInstance {
                inst,
                opt,
                optimal_set,
            }))
        })();
        self.kept
            .entry(e.instance_id.clone())
            .or_default()
            .push((raw.clone(), solved.clone()));
        solved
    }
}

/// [`episode_mechanism`] with the instance read and solved through `cache`.
fn episode_mechanism_with(
    e: &Episode,
    inspect: &[String],
    cache: &mut InstanceCache,
) -> Result<EpisodeMechanism, MechanismError> {
    let solved = cache.solve(e)?;
    let inst = &solved.inst;
    let mut inspected: HashSet<String> = HashSet::new();
    let mut blind_takes = 0;
    for t in ordered_turns(e) {
        for c in t.calls.iter().filter(|c| c.ok) {
            if inspect.contains(&c.tool) {
                if let Some(id) = call_item_id(&c.args) {
                    inspected.insert(id);
                }
            } else if c.tool == TAKE_TOOL {
                let known = call_item_id(&c.args).is_some_and(|id| inspected.contains(&id));
                blind_takes += usize::from(!known);
            }
        }
    }
    let in_q: Vec<&Item> = inst
        .takeable()
        .filter(|it| inspected.contains(&it.id))
        .collect();
    let opt_q = knapsack::solve(&in_q, inst.capacity)?.value;
    let optimal_set = solved.optimal_set.clone();
    let r = knapsack::replay(inst, e);
    let achieved = if r.overflow { 0.0 } else { r.achieved };
    let defined = solved.opt > 0.0;
    let recall = (defined && !optimal_set.is_empty()).then(|| {
        let hit = optimal_set
            .iter()
            .filter(|id| inspected.contains(*id))
            .count();
        hit as f64 / optimal_set.len() as f64
    });
    Ok(EpisodeMechanism {
        episode_id: e.episode_id.clone(),
        instance_id: e.instance_id.clone(),
        inspected: inspected.len(),
        opt: solved.opt,
        opt_inspected: opt_q,
        achieved,
        overflow: r.overflow,
        coverage: defined.then(|| opt_q / solved.opt),
        decision: (defined && opt_q > 0.0).then(|| achieved / opt_q),
        recall,
        optimal_set,
        blind_takes,
    })
}

/// Episodes left out of the cell's means, by reason.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LeftOut {
    /// No `instance` (all three means).
    pub no_instance: usize,
    /// An instance that does not read or cannot be solved (all three).
    pub unreadable_instance: usize,
    /// OPT = 0 (all three).
    pub opt_zero: usize,
    /// OPT(𝒬) = 0 (decision only; coverage is 0 there).
    pub opt_inspected_zero: usize,
}

/// The mechanism of one cell (one condition at one cap, in one slice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MechanismCell {
    /// Episodes given.
    pub episodes: usize,
    /// Mean coverage over instance ids (per id first), instance bootstrap.
    pub coverage: Estimate,
    /// Mean decision, likewise.
    pub decision: Estimate,
    /// Mean optimal-set recall, likewise.
    pub recall: Estimate,
    /// Blind takes over the episodes with a solvable instance (a total: no
    /// interval).
    pub blind_takes: usize,
    /// Episodes left out, by reason.
    pub left_out: LeftOut,
    /// The first problem of each unreadable or unsolvable instance, with its
    /// episode id.
    pub problems: Vec<(String, String)>,
    /// Every episode's quantities (episodes with a solvable instance).
    pub per_episode: Vec<EpisodeMechanism>,
}

/// The mean over instance ids of each id's episode mean, with the instance
/// bootstrap (ids ordered as text).
fn per_id_estimate(
    values: impl Iterator<Item = (String, f64)>,
    draws: usize,
    seed: u64,
) -> Estimate {
    metrics::estimate(Some(&metrics::per_id_cell(values)), draws, seed)
}

/// Coverage, decision and recall of one cell's `episodes` (the caller picks
/// the cell), `inspect` the family's inspect tool(s), with `draws` bootstrap
/// draws (B; 0: no intervals) from `seed`.
pub fn mechanism_cell(
    episodes: &[&Episode],
    inspect: &[String],
    draws: usize,
    seed: u64,
) -> MechanismCell {
    mechanism_cell_with(
        episodes,
        inspect,
        draws,
        seed,
        &mut InstanceCache::default(),
    )
}

/// [`mechanism_cell`] with the instances read and solved through `cache`
/// (one cache serves every cell of a slice: the same numbers, each
/// instance solved once).
pub fn mechanism_cell_with(
    episodes: &[&Episode],
    inspect: &[String],
    draws: usize,
    seed: u64,
    cache: &mut InstanceCache,
) -> MechanismCell {
    let mut left_out = LeftOut::default();
    let mut problems = Vec::new();
    let mut per_episode = Vec::new();
    for e in episodes {
        match episode_mechanism_with(e, inspect, cache) {
            Ok(m) => {
                if m.coverage.is_none() {
                    left_out.opt_zero += 1;
                } else if m.decision.is_none() {
                    left_out.opt_inspected_zero += 1;
                }
                per_episode.push(m);
            }
            Err(MechanismError::NoInstance) => left_out.no_instance += 1,
            Err(err) => {
                left_out.unreadable_instance += 1;
                problems.push((e.episode_id.clone(), err.to_string()));
            }
        }
    }
    let of = |f: fn(&EpisodeMechanism) -> Option<f64>| {
        per_id_estimate(
            per_episode
                .iter()
                .filter_map(|m| f(m).map(|v| (m.instance_id.clone(), v))),
            draws,
            seed,
        )
    };
    MechanismCell {
        episodes: episodes.len(),
        coverage: of(|m| m.coverage),
        decision: of(|m| m.decision),
        recall: of(|m| m.recall),
        blind_takes: per_episode.iter().map(|m| m.blind_takes).sum(),
        left_out,
        problems,
        per_episode,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read_jsonl;
    use proptest::prelude::*;
    use proptest::test_runner::RngSeed;

    /// The addendum's §4 example: capacity 5, allowed {A}.
    const INSTANCE: &str = r#"{"capacity":5,"budget":9,"allowed_classes":["A"],"items":[{"id":"a","weight":2,"value":6,"class":"A"},{"id":"b","weight":3,"value":10,"class":"A"},{"id":"c","weight":4,"value":12,"class":"A"},{"id":"d","weight":1,"value":3,"class":"B"}]}"#;

    fn call(tool: &str, id: &str, ok: bool) -> String {
        format!(r#"{{"tool":"{tool}","args":"{id}","ok":{ok}}}"#)
    }

    /// One episode: `turns` of calls, on instance `id`.
    fn episode(eid: &str, id: &str, instance: &str, turns: &[Vec<String>]) -> String {
        let turns: Vec<String> = turns
            .iter()
            .enumerate()
            .map(|(k, calls)| {
                format!(
                    r#"{{"index":{k},"logged":true,"calls":[{}]}}"#,
                    calls.join(",")
                )
            })
            .collect();
        format!(
            r#"{{"episode_id":"{eid}","task_family":"opaque_knapsack","instance_id":"{id}","train_runtime":"P","deploy_runtime":"P","cap":9,"seed":0,"rollout":0,"base_model":"m","score":0,"termination":"finish","instance":{instance},"turns":[{}]}}"#,
            turns.join(",")
        )
    }

    fn tools() -> Vec<String> {
        vec!["inspect".into()]
    }

    fn one(text: &str) -> Episode {
        let log = read_jsonl(text);
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        log.episodes[0].clone()
    }

    fn close(a: Option<f64>, b: f64) {
        let a = a.unwrap();
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    #[test]
    fn a_shared_cache_gives_each_episode_its_own_instances_numbers() {
        // Two episodes of one instance, one giving another instance under
        // the same id (capacity 4: OPT 12 from c alone), one unreadable:
        // through one cache each gives what it gives alone.
        let ins = |id| call("inspect", id, true);
        let other = INSTANCE.replace(r#""capacity":5"#, r#""capacity":4"#);
        let eps: Vec<Episode> = [
            episode("e1", "i", INSTANCE, &[vec![ins("a"), ins("b")]]),
            episode("e2", "i", &other, &[vec![ins("c")]]),
            episode("e3", "i", INSTANCE, &[vec![ins("c")]]),
            episode("e4", "i", r#"{"capacity":"x"}"#, &[vec![ins("c")]]),
            episode("e5", "i", &other, &[vec![ins("a")]]),
        ]
        .iter()
        .map(|t| one(t))
        .collect();
        let mut cache = InstanceCache::default();
        for e in &eps {
            let shared = episode_mechanism_with(e, &tools(), &mut cache);
            assert_eq!(shared, episode_mechanism(e, &tools()), "{}", e.episode_id);
        }
        assert_eq!(cache.kept["i"].len(), 3);
        let m2 = episode_mechanism(&eps[1], &tools()).unwrap();
        assert_eq!(
            (m2.opt, m2.optimal_set.as_slice()),
            (12.0, ["c".to_string()].as_slice())
        );
        let refs: Vec<&Episode> = eps.iter().collect();
        assert_eq!(
            mechanism_cell_with(&refs, &tools(), 200, 3, &mut cache),
            mechanism_cell(&refs, &tools(), 200, 3)
        );
    }

    #[test]
    fn the_addendum_example() {
        let ins = |id| call("inspect", id, true);
        let take = |id| call("take_item", id, true);
        // Inspect a, c, d; take c.
        let e1 = one(&episode(
            "e1",
            "i",
            INSTANCE,
            &[vec![ins("a"), ins("c"), ins("d")], vec![take("c")]],
        ));
        let m = episode_mechanism(&e1, &tools()).unwrap();
        assert_eq!((m.opt, m.opt_inspected, m.achieved), (16.0, 12.0, 12.0));
        assert_eq!(m.optimal_set, ["a", "b"]);
        close(m.coverage, 0.75);
        close(m.decision, 1.0);
        close(m.recall, 0.5);
        assert_eq!(m.blind_takes, 0);
        // Inspect a, b, c; take c.
        let e2 = one(&episode(
            "e2",
            "i",
            INSTANCE,
            &[vec![ins("a"), ins("b"), ins("c"), take("c")]],
        ));
        let m = episode_mechanism(&e2, &tools()).unwrap();
        close(m.coverage, 1.0);
        close(m.decision, 0.75);
        close(m.recall, 1.0);
        // Inspect a, take b (blind): decision above 1, unclamped.
        let e3 = one(&episode("e3", "i", INSTANCE, &[vec![ins("a"), take("b")]]));
        let m = episode_mechanism(&e3, &tools()).unwrap();
        assert_eq!(m.opt_inspected, 6.0);
        close(m.coverage, 0.375);
        close(m.decision, 10.0 / 6.0);
        assert_eq!(m.blind_takes, 1);
        let score = m.coverage.unwrap() * m.decision.unwrap();
        assert!((score - 0.625).abs() < 1e-12);
        // A take before its inspection is blind too; a rejected take is not
        // counted, nor a failed inspection an inspection.
        let e4 = one(&episode(
            "e4",
            "j",
            INSTANCE,
            &[
                vec![take("a"), ins("a"), call("take_item", "c", false)],
                vec![call("inspect", "b", false), take("b")],
            ],
        ));
        let m = episode_mechanism(&e4, &tools()).unwrap();
        assert_eq!((m.blind_takes, m.inspected), (2, 1));

        // The cell: ids i (e1, e2, e3: per id first) and j (e4).
        let cell = mechanism_cell(&[&e1, &e2, &e3, &e4], &tools(), 1000, 0);
        let cov_i = (0.75 + 1.0 + 0.375) / 3.0;
        close(cell.coverage.value, f64::midpoint(cov_i, 0.375));
        assert_eq!(cell.coverage.n, 2);
        let dec_i = (1.0 + 0.75 + 10.0 / 6.0) / 3.0;
        close(cell.decision.value, f64::midpoint(dec_i, 16.0 / 6.0));
        assert_eq!(cell.blind_takes, 3);
        assert_eq!(cell.left_out, LeftOut::default());
        let [lo, hi] = cell.coverage.ci95.unwrap();
        assert!(lo <= hi && lo >= 0.375 && hi <= cov_i);
    }

    #[test]
    fn left_out_episodes_are_counted_by_reason() {
        let ins = |id| call("inspect", id, true);
        let no_instance = one(&episode("n", "i", "null", &[vec![ins("a")]]));
        let unreadable = one(&episode("u", "i", r#"{"capacity":"x"}"#, &[]));
        // OPT(𝒬) = 0: only d (class B) inspected; coverage 0, decision out.
        let only_d = one(&episode("d", "i", INSTANCE, &[vec![ins("d")]]));
        // OPT = 0: no allowed item.
        let zero = INSTANCE.replace(r#"["A"]"#, r#"["Z"]"#);
        let opt_zero = one(&episode("z", "k", &zero, &[vec![ins("a")]]));
        let cell = mechanism_cell(
            &[&no_instance, &unreadable, &only_d, &opt_zero],
            &tools(),
            100,
            0,
        );
        assert_eq!(
            cell.left_out,
            LeftOut {
                no_instance: 1,
                unreadable_instance: 1,
                opt_zero: 1,
                opt_inspected_zero: 1,
            }
        );
        assert_eq!(cell.coverage.value, Some(0.0));
        assert_eq!(cell.coverage.n, 1);
        assert_eq!((cell.decision.value, cell.decision.n), (None, 0));
        assert_eq!(cell.recall.value, Some(0.0));
        assert_eq!(cell.problems[0].0, "u");
        assert!(cell.problems[0].1.starts_with("instance field `capacity`"));
    }

    /// A small deterministic generator (xorshift64*).
    struct Gen(u64);
    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
        }
    }

    /// Brute force over all subsets: (value max, count min, positions
    /// lexicographically smallest).
    fn brute(items: &[Item], capacity: u64) -> (f64, Vec<usize>) {
        let mut best: Option<(f64, Vec<usize>)> = None;
        for mask in 0u32..(1 << items.len()) {
            let pos: Vec<usize> = (0..items.len()).filter(|i| mask >> i & 1 == 1).collect();
            let w: u64 = pos.iter().map(|&i| items[i].weight).sum();
            if w > capacity || pos.iter().any(|&i| items[i].value <= 0.0) {
                continue;
            }
            let v: f64 = pos.iter().map(|&i| items[i].value).sum();
            let better = match &best {
                None => true,
                Some((bv, bp)) => {
                    v > *bv
                        || (v == *bv
                            && (pos.len() < bp.len() || (pos.len() == bp.len() && pos < *bp)))
                }
            };
            if better {
                best = Some((v, pos));
            }
        }
        best.unwrap_or((0.0, Vec::new()))
    }

    #[test]
    fn fewest_optimal_set_matches_brute_force() {
        let mut g = Gen(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let n = g.next(9) as usize;
            let capacity = g.next(12);
            // Small integer values (ties are frequent), some 0.
            let items: Vec<Item> = (0..n)
                .map(|k| Item {
                    id: format!("x{k}"),
                    weight: g.next(7),
                    value: g.next(6) as f64,
                    class: "A".into(),
                })
                .collect();
            let refs: Vec<&Item> = items.iter().collect();
            let got = fewest_optimal_set(&refs, capacity).unwrap();
            let (v, pos) = brute(&items, capacity);
            assert_eq!(
                (got.value, &got.positions),
                (v, &pos),
                "{items:?} cap {capacity}"
            );
            let solved = knapsack::solve(&refs, capacity).unwrap();
            assert_eq!(solved.value, v);
            assert_eq!(solved.items.len(), pos.len());
        }
    }

    fn arb_instance() -> impl Strategy<Value = Instance> {
        let item = (1u64..6, 0u32..10, prop::bool::weighted(0.8));
        (1u64..10, prop::collection::vec(item, 1..7)).prop_map(|(capacity, items)| Instance {
            capacity,
            budget: 99,
            allowed_classes: vec!["A".into()],
            items: items
                .into_iter()
                .enumerate()
                .map(|(k, (weight, value, allowed))| Item {
                    id: format!("x{k}"),
                    weight,
                    value: f64::from(value),
                    class: if allowed { "A" } else { "B" }.into(),
                })
                .collect(),
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 256,
            rng_seed: RngSeed::Fixed(0),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// coverage × decision = normalized optimality, whenever decision is
        /// defined (OPT(𝒬) > 0), blind takes and overflows included.
        #[test]
        fn coverage_times_decision_is_normalized_optimality(
            inst in arb_instance(),
            acts in prop::collection::vec((0usize..8, prop::bool::ANY, prop::bool::ANY), 0..12),
        ) {
            let n = inst.items.len();
            let calls: Vec<String> = acts
                .iter()
                .map(|&(k, take, ok)| {
                    let id = format!("x{}", k % n);
                    call(if take { "take_item" } else { "inspect" }, &id, ok)
                })
                .collect();
            let raw = serde_json::to_string(&inst).unwrap();
            let e = one(&episode("p", "i", &raw, &[calls]));
            let m = episode_mechanism(&e, &tools()).unwrap();
            let opt = knapsack::optimum(&inst).unwrap();
            let norm = knapsack::normalized(&knapsack::replay(&inst, &e), &opt);
            prop_assert_eq!(m.coverage.is_some(), norm.is_some());
            if let (Some(c), Some(d), Some(q)) = (m.coverage, m.decision, norm) {
                prop_assert!((c * d - q).abs() < 1e-9, "{} × {} vs {}", c, d, q);
            }
            if m.coverage.is_some() && m.decision.is_none() {
                prop_assert_eq!(m.coverage, Some(0.0));
            }
            if let Some(c) = m.coverage {
                prop_assert!((0.0..=1.0).contains(&c));
            }
        }
    }
}
