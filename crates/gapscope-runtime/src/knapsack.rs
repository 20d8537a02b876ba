//! Opaque Knapsack verification (spec: runtime-contracts.md, "Opaque Knapsack
//! verification"): the exact 0/1 optimum over allowed items by dynamic
//! programming, replay of accepted `take_item` calls, normalized optimality
//! (0 on a capacity overflow), the inspection budget and the anti-collapse rule.

use indexmap::{IndexMap, IndexSet};
use serde::{Deserialize, Serialize};

use crate::log::{call_item_id, Episode};

/// One item of an instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    #[serde(deserialize_with = "crate::log::de_id")]
    pub id: String,
    pub weight: u64,
    pub value: f64,
    pub class: String,
}

/// An Opaque Knapsack instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    pub capacity: u64,
    /// Distinct inspections allowed.
    pub budget: u64,
    pub allowed_classes: Vec<String>,
    pub items: Vec<Item>,
}

/// The largest DP table (items × (capacity + 1)) the verifier builds.
pub const MAX_DP_CELLS: u64 = 50_000_000;

/// 2^53: the largest integer a JSON number (an f64) holds exactly. Weights,
/// the capacity and the budget above it, and values above it in magnitude,
/// are refused (at their line by the log reader; by [`Instance::validate`]).
pub const MAX_EXACT: u64 = 1 << 53;

/// Why an instance cannot be verified.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum KnapsackError {
    #[error("item `{id}`: value {value} is not a finite number")]
    Value { id: String, value: f64 },
    #[error("item `{id}`: {field} {number} exceeds {MAX_EXACT} (2^53, the largest integer a JSON number holds exactly)")]
    Range {
        id: String,
        field: &'static str,
        number: String,
    },
    #[error("item id `{0}` appears twice")]
    DuplicateId(String),
    #[error(
        "{items} allowed items × capacity {capacity} exceeds the DP limit of {MAX_DP_CELLS} cells"
    )]
    TooLarge { items: usize, capacity: u64 },
}

/// The exact optimum and a smallest optimal set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Optimum {
    pub value: f64,
    pub weight: u64,
    /// Ids of an optimal set with the fewest items (ties between values are
    /// broken towards fewer items, then towards earlier items).
    pub items: Vec<String>,
}

impl Instance {
    pub fn validate(&self) -> Result<(), KnapsackError> {
        let mut seen = IndexSet::new();
        for it in &self.items {
            if !it.value.is_finite() {
                return Err(KnapsackError::Value {
                    id: it.id.clone(),
                    value: it.value,
                });
            }
            if it.weight > MAX_EXACT {
                return Err(KnapsackError::Range {
                    id: it.id.clone(),
                    field: "weight",
                    number: it.weight.to_string(),
                });
            }
            if it.value.abs() > MAX_EXACT as f64 {
                return Err(KnapsackError::Range {
                    id: it.id.clone(),
                    field: "value",
                    number: it.value.to_string(),
                });
            }
            if !seen.insert(it.id.as_str()) {
                return Err(KnapsackError::DuplicateId(it.id.clone()));
            }
        }
        Ok(())
    }

    /// Items of an allowed class that fit in the empty knapsack.
    pub fn takeable(&self) -> impl Iterator<Item = &Item> {
        self.items
            .iter()
            .filter(|it| self.allowed_classes.contains(&it.class) && it.weight <= self.capacity)
    }

    pub fn item(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|it| it.id == id)
    }
}

/// Exact 0/1 knapsack over `items` (allowed, fitting) by DP over integer
/// weights: `best[w]` = (largest value, fewest items) with weight ≤ w.
pub fn solve(items: &[&Item], capacity: u64) -> Result<Optimum, KnapsackError> {
    let cells = (items.len() as u64).saturating_mul(capacity.saturating_add(1));
    if cells > MAX_DP_CELLS {
        return Err(KnapsackError::TooLarge {
            items: items.len(),
            capacity,
        });
    }
    if items.is_empty() {
        // Nothing to choose: no table (a huge capacity must not allocate).
        return Ok(Optimum {
            value: 0.0,
            weight: 0,
            items: Vec::new(),
        });
    }
    let cap = capacity as usize;
    // (value, item count, weight)
    let mut best: Vec<(f64, usize)> = vec![(0.0, 0); cap + 1];
    let mut keep = vec![false; items.len() * (cap + 1)];
    for (i, it) in items.iter().enumerate() {
        let w = it.weight as usize;
        if w > cap || it.value <= 0.0 {
            continue;
        }
        for c in (w..=cap).rev() {
            let (v0, n0) = best[c - w];
            let cand = (v0 + it.value, n0 + 1);
            let cur = best[c];
            if cand.0 > cur.0 || (cand.0 == cur.0 && cand.1 < cur.1) {
                best[c] = cand;
                keep[i * (cap + 1) + c] = true;
            }
        }
    }
    let mut chosen = Vec::new();
    let mut c = cap;
    let mut weight = 0;
    for i in (0..items.len()).rev() {
        if keep[i * (cap + 1) + c] {
            chosen.push(items[i].id.clone());
            c -= items[i].weight as usize;
            weight += items[i].weight;
        }
    }
    chosen.reverse();
    Ok(Optimum {
        value: best[cap].0,
        weight,
        items: chosen,
    })
}

/// The instance's optimum over its allowed items.
pub fn optimum(inst: &Instance) -> Result<Optimum, KnapsackError> {
    inst.validate()?;
    let items: Vec<&Item> = inst.takeable().collect();
    solve(&items, inst.capacity)
}

/// The anti-collapse rule (addendum §9): the optimal set has at least 3
/// items and no single *takeable* item's value (allowed class, weight ≤
/// capacity: others can never collapse the task) exceeds 40% of the optimal
/// total value. The base spec's literal reading, over all items, is reported
/// beside it ([`AntiCollapse::largest_share_all_items`]) and decides nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AntiCollapse {
    /// Items in a smallest optimal set.
    pub optimal_items: usize,
    /// The largest takeable item value over the optimum (`None` if the optimum is 0).
    pub max_item_share: Option<f64>,
    /// The rule holds (on takeable items).
    pub holds: bool,
    /// The largest value over *all* items (any class, any weight) over the
    /// optimum (`None` if the optimum is 0): reported, not checked; written,
    /// not read back (a report read back has `None`).
    #[serde(skip_deserializing)]
    pub largest_share_all_items: Option<f64>,
}

pub const MIN_OPTIMAL_ITEMS: usize = 3;
pub const MAX_ITEM_SHARE: f64 = 0.4;

/// Check the anti-collapse rule of `inst` against its optimum `opt`.
pub fn anti_collapse(inst: &Instance, opt: &Optimum) -> AntiCollapse {
    let share_of = |max_value: f64| (opt.value > 0.0).then(|| max_value / opt.value);
    let share = share_of(inst.takeable().map(|it| it.value).fold(0.0, f64::max));
    AntiCollapse {
        optimal_items: opt.items.len(),
        max_item_share: share,
        holds: opt.items.len() >= MIN_OPTIMAL_ITEMS && share.is_some_and(|s| s <= MAX_ITEM_SHARE),
        largest_share_all_items: share_of(inst.items.iter().map(|it| it.value).fold(0.0, f64::max)),
    }
}

/// The replay of an episode's accepted `take_item` calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub taken: Vec<String>,
    pub achieved: f64,
    pub weight: u64,
    pub overflow: bool,
    /// Distinct ids inspected successfully.
    pub distinct_inspected: usize,
    /// Inconsistencies between the log and the instance's rules.
    pub problems: Vec<String>,
}

/// Replay accepted (`ok`) `take_item` calls; count distinct successful
/// `inspect` ids against the budget.
pub fn replay(inst: &Instance, episode: &Episode) -> Replay {
    let mut taken: Vec<String> = Vec::new();
    let mut inspected: IndexSet<String> = IndexSet::new();
    let mut problems = Vec::new();
    let (mut achieved, mut weight) = (0.0, 0u64);
    // Checked: weights past u64 saturate and count as an overflow (they
    // wrapped to a small sum before, hiding the capacity breach).
    let mut past_u64 = false;
    for t in &episode.turns {
        for c in t.calls.iter().filter(|c| c.ok) {
            match c.tool.as_str() {
                "inspect" => {
                    if let Some(id) = call_item_id(&c.args) {
                        inspected.insert(id);
                    }
                }
                "take_item" => {
                    let Some(id) = call_item_id(&c.args) else {
                        problems.push(format!(
                            "turn {}: an accepted take_item names no item",
                            t.index
                        ));
                        continue;
                    };
                    let Some(it) = inst.item(&id) else {
                        problems.push(format!(
                            "turn {}: accepted take_item of unknown item `{id}`",
                            t.index
                        ));
                        continue;
                    };
                    if taken.contains(&id) {
                        problems.push(format!(
                            "turn {}: item `{id}` accepted twice (counted once)",
                            t.index
                        ));
                        continue;
                    }
                    if !inst.allowed_classes.contains(&it.class) {
                        problems.push(format!(
                            "turn {}: item `{id}` of disallowed class `{}` was accepted",
                            t.index, it.class
                        ));
                    }
                    achieved += it.value;
                    weight = weight.checked_add(it.weight).unwrap_or_else(|| {
                        past_u64 = true;
                        u64::MAX
                    });
                    taken.push(id);
                }
                _ => {}
            }
        }
    }
    let overflow = past_u64 || weight > inst.capacity;
    if past_u64 {
        problems.push(format!(
            "taken weight exceeds {} (the sum passes the integer range) and so the capacity {} (score 0)",
            u64::MAX,
            inst.capacity
        ));
    } else if overflow {
        problems.push(format!(
            "taken weight {weight} exceeds the capacity {} (score 0)",
            inst.capacity
        ));
    }
    if inspected.len() as u64 > inst.budget {
        problems.push(format!(
            "{} distinct items inspected, budget {}",
            inspected.len(),
            inst.budget
        ));
    }
    Replay {
        taken,
        achieved,
        weight,
        overflow,
        distinct_inspected: inspected.len(),
        problems,
    }
}

/// Normalized optimality: achieved / optimum, 0 on an overflow; `None` when
/// the optimum is 0.
pub fn normalized(replay: &Replay, opt: &Optimum) -> Option<f64> {
    if opt.value <= 0.0 {
        return None;
    }
    Some(if replay.overflow {
        0.0
    } else {
        replay.achieved / opt.value
    })
}

/// The verification of one episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeCheck {
    pub episode_id: String,
    pub line: u64,
    pub logged: f64,
    /// The recomputed normalized optimality (`None` when it cannot be computed).
    pub verified: Option<f64>,
    pub optimum: Option<f64>,
    pub achieved: Option<f64>,
    pub overflow: bool,
    /// `|logged − verified|` exceeds the tolerance.
    pub disagrees: bool,
    pub problems: Vec<String>,
}

/// One instance's checks (the first episode carrying it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceCheck {
    pub instance_id: String,
    pub optimum: f64,
    pub optimal_set: Vec<String>,
    pub anti_collapse: AntiCollapse,
    pub episodes: usize,
    /// Another episode carries a different instance under the same id.
    pub conflicting: bool,
}

/// The verification report over a log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VerificationReport {
    pub family: String,
    pub tolerance: f64,
    /// Episodes of the family with an instance, verified or not.
    pub checked: usize,
    pub verified: usize,
    pub agree: usize,
    /// Every episode whose logged score disagrees, with both numbers.
    pub disagreements: Vec<EpisodeCheck>,
    /// Episodes with a rule problem (budget, unknown take, overflow, …) or
    /// that could not be verified.
    pub flagged: Vec<EpisodeCheck>,
    pub without_instance: usize,
    pub other_families: usize,
    pub instances: Vec<InstanceCheck>,
    pub anti_collapse_violations: usize,
}

/// The family name the verifier knows.
pub const FAMILY: &str = "opaque_knapsack";

/// Verify every Opaque Knapsack episode that carries its instance. Returns
/// the report and, per episode, the verified score (`None` when absent).
pub fn verify(
    episodes: &[Episode],
    lines: &[u64],
    tolerance: f64,
) -> (VerificationReport, Vec<Option<f64>>) {
    let mut rep = VerificationReport {
        family: FAMILY.into(),
        tolerance,
        ..Default::default()
    };
    let mut scores = vec![None; episodes.len()];
    let mut instances: IndexMap<
        String,
        (std::sync::Arc<serde_json::Value>, Option<InstanceCheck>),
    > = IndexMap::new();
    // Optima are cached per instance id (the DP runs once per instance).
    let mut cache: IndexMap<String, Result<(Instance, Optimum), String>> = IndexMap::new();
    for (k, e) in episodes.iter().enumerate() {
        if e.task_family != FAMILY {
            rep.other_families += 1;
            continue;
        }
        let Some(raw) = &e.instance else {
            rep.without_instance += 1;
            continue;
        };
        rep.checked += 1;
        let line = lines.get(k).copied().unwrap_or(0);
        let mut check = EpisodeCheck {
            episode_id: e.episode_id.clone(),
            line,
            logged: e.score,
            verified: None,
            optimum: None,
            achieved: None,
            overflow: false,
            disagrees: false,
            problems: Vec::new(),
        };
        let entry = instances
            .entry(e.instance_id.clone())
            .or_insert_with(|| (raw.clone(), None));
        let conflicting = !std::sync::Arc::ptr_eq(&entry.0, raw) && entry.0 != *raw;
        if conflicting {
            check.problems.push(format!(
                "instance `{}` differs from the one first given under this id",
                e.instance_id
            ));
        }
        let key = if conflicting {
            format!("{}#{}", e.instance_id, e.episode_id)
        } else {
            e.instance_id.clone()
        };
        let solved = cache.entry(key).or_insert_with(|| {
            let inst: Instance = serde_path_to_error::deserialize(&**raw).map_err(|err| {
                format!(
                    "instance field `{}`: {}",
                    err.path(),
                    gapscope_data::profile::json_message(err.inner())
                )
            })?;
            let opt = optimum(&inst).map_err(|err| format!("instance: {err}"))?;
            Ok((inst, opt))
        });
        match solved {
            Err(msg) => {
                check.problems.push(msg.clone());
                rep.flagged.push(check);
            }
            Ok((inst, opt)) => {
                let r = replay(inst, e);
                check.optimum = Some(opt.value);
                check.achieved = Some(r.achieved);
                check.overflow = r.overflow;
                check.verified = normalized(&r, opt);
                check.problems.extend(r.problems.iter().cloned());
                if check.verified.is_none() {
                    check
                        .problems
                        .push("the optimum is 0: normalized optimality is undefined".into());
                }
                scores[k] = check.verified;
                let slot = &mut instances[&e.instance_id];
                match &mut slot.1 {
                    Some(ic) if !conflicting => ic.episodes += 1,
                    Some(ic) => ic.conflicting = true,
                    None => {
                        slot.1 = Some(InstanceCheck {
                            instance_id: e.instance_id.clone(),
                            optimum: opt.value,
                            optimal_set: opt.items.clone(),
                            anti_collapse: anti_collapse(inst, opt),
                            episodes: 1,
                            conflicting: false,
                        });
                    }
                }
                if let Some(v) = check.verified {
                    rep.verified += 1;
                    if (v - e.score).abs() > tolerance {
                        check.disagrees = true;
                        rep.disagreements.push(check.clone());
                    } else {
                        rep.agree += 1;
                    }
                }
                if !check.problems.is_empty() {
                    rep.flagged.push(check);
                }
            }
        }
    }
    rep.instances = instances.into_values().filter_map(|(_, ic)| ic).collect();
    rep.anti_collapse_violations = rep
        .instances
        .iter()
        .filter(|i| !i.anti_collapse.holds)
        .count();
    (rep, scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read_jsonl;

    /// Capacity 5, budget 1; a (w 2, v 4, A), b (w 3, v 5, A), c (w 1, v 9, B
    /// disallowed). OPT over allowed = a + b = 9.
    const INSTANCE: &str = r#"{"capacity":5,"budget":1,"allowed_classes":["A"],"items":[{"id":"a","weight":2,"value":4,"class":"A"},{"id":"b","weight":3,"value":5,"class":"A"},{"id":"c","weight":1,"value":9,"class":"B"}]}"#;

    fn episode(calls: &str, score: f64) -> String {
        format!(
            r#"{{"episode_id":"e","task_family":"opaque_knapsack","instance_id":"i","train_runtime":"P","deploy_runtime":"P","cap":9,"seed":0,"rollout":0,"base_model":"m","score":{score},"termination":"finish","instance":{INSTANCE},"turns":[{{"index":0,"logged":true,"calls":[{calls}]}}]}}"#
        )
    }

    #[test]
    fn replay_flags_every_rule_problem() {
        // Inspects a and b (2 distinct > budget 1); takes a, a again, c
        // (disallowed), zz (unknown); a rejected take of b does not count.
        let calls =
            r#"{"tool":"inspect","args":"a","ok":true},{"tool":"inspect","args":"b","ok":true},
            {"tool":"take_item","args":"a","ok":true},{"tool":"take_item","args":"a","ok":true},
            {"tool":"take_item","args":"c","ok":true},{"tool":"take_item","args":"zz","ok":true},
            {"tool":"take_item","args":"b","ok":false}"#
                .replace('\n', "");
        let log = read_jsonl(&episode(&calls, 13.0 / 9.0));
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        let (rep, scores) = verify(&log.episodes, &log.lines, 1e-9);
        // Achieved: a (4) + c (9) = 13 at weight 3 ≤ 5: 13/9, as logged.
        assert!((scores[0].unwrap() - 13.0 / 9.0).abs() < 1e-12);
        assert!(rep.disagreements.is_empty());
        assert_eq!(
            rep.flagged[0].problems,
            [
                "turn 0: item `a` accepted twice (counted once)",
                "turn 0: item `c` of disallowed class `B` was accepted",
                "turn 0: accepted take_item of unknown item `zz`",
                "2 distinct items inspected, budget 1",
            ]
        );
        assert_eq!(rep.instances[0].optimum, 9.0);
    }

    #[test]
    fn weights_past_u64_are_an_overflow_not_a_wrap() {
        // Built in code (the log reader refuses such weights at their line):
        // two accepted items of weight 2^63 weigh 2^64 > capacity 5, so the
        // replay overflows and the score is 0, not achieved / OPT = 100.
        let big = 1u64 << 63;
        let item = |id: &str, weight: u64, value: f64| Item {
            id: id.into(),
            weight,
            value,
            class: "A".into(),
        };
        let inst = Instance {
            capacity: 5,
            budget: 3,
            allowed_classes: vec!["A".into()],
            items: vec![
                item("h1", big, 50.0),
                item("h2", big, 50.0),
                item("s", 1, 1.0),
            ],
        };
        let calls = r#"{"tool":"take_item","args":"h1","ok":true},{"tool":"take_item","args":"h2","ok":true}"#;
        let log = read_jsonl(&episode(calls, 0.0).replace(INSTANCE, "null"));
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        let r = replay(&inst, &log.episodes[0]);
        assert!(r.overflow);
        assert_eq!(r.weight, u64::MAX, "the weight saturates");
        // validate refuses the weights; the DP over the fitting items gives 1.
        assert!(matches!(inst.validate(), Err(KnapsackError::Range { .. })));
        let fitting: Vec<&Item> = inst.takeable().collect();
        let opt = solve(&fitting, inst.capacity).unwrap();
        assert_eq!(opt.value, 1.0);
        assert_eq!(normalized(&r, &opt), Some(0.0));
        assert!(
            r.problems[0].starts_with("taken weight exceeds"),
            "{:?}",
            r.problems
        );
    }

    #[test]
    fn no_takeable_item_under_a_huge_capacity_allocates_nothing() {
        let inst = Instance {
            capacity: u64::MAX,
            budget: 0,
            allowed_classes: vec![],
            items: vec![],
        };
        let opt = optimum(&inst).unwrap();
        assert_eq!((opt.value, opt.weight, opt.items.len()), (0.0, 0, 0));
    }

    #[test]
    fn anti_collapse_checks_takeable_items_and_reports_all_items() {
        // INSTANCE: OPT = 9 (a + b). Takeable: a (4), b (5): 5/9 > 40%, and
        // 2 optimal items < 3, so the rule fails; over all items the largest
        // is c (9, disallowed): 9/9.
        let inst: Instance = serde_json::from_str(INSTANCE).unwrap();
        let opt = optimum(&inst).unwrap();
        let ac = anti_collapse(&inst, &opt);
        assert_eq!(ac.max_item_share, Some(5.0 / 9.0));
        assert_eq!(ac.largest_share_all_items, Some(1.0));
        assert!(!ac.holds);
        // A heavy item (weight > capacity) of an allowed class is not takeable
        // either: it enters only the all-items share.
        let mut wide = inst.clone();
        wide.items = (0..4)
            .map(|k| Item {
                id: format!("s{k}"),
                weight: 1,
                value: 1.0,
                class: "A".into(),
            })
            .chain([Item {
                id: "heavy".into(),
                weight: 6,
                value: 20.0,
                class: "A".into(),
            }])
            .collect();
        let opt = optimum(&wide).unwrap();
        let ac = anti_collapse(&wide, &opt);
        assert_eq!((opt.value, ac.optimal_items), (4.0, 4));
        assert_eq!(ac.max_item_share, Some(0.25));
        assert_eq!(ac.largest_share_all_items, Some(5.0));
        assert!(ac.holds);
    }

    #[test]
    fn unreadable_instances_are_located() {
        let text = episode("", 0.0).replace(r#""capacity":5"#, r#""capacity":"five""#);
        let log = read_jsonl(&text);
        let (rep, scores) = verify(&log.episodes, &log.lines, 1e-9);
        assert_eq!(scores, [None]);
        assert_eq!(
            rep.flagged[0].problems,
            ["instance field `capacity`: invalid type: string \"five\", expected u64"]
        );
    }
}
