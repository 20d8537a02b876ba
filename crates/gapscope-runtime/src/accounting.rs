//! Turn accounting (addendum §2, Table 20): per episode, attempted turns =
//! steps + failed + rejected + unclassified, and whether the episode
//! overflowed the serving window; per (condition, cap) cell, the Table 20 row
//! with its located flags.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::log::{Arm, Episode, Failure, Termination};
use crate::metrics::{self, Cell, Estimate};

/// Whether an episode overflowed the serving window (addendum §2): yes if
/// any turn failed with `context_overflow`; else unknown if any turn is
/// unclassified; else no.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overflowed {
    /// A `context_overflow` turn.
    Yes,
    /// No overflow and no unclassified turn.
    No,
    /// No overflow logged, but an unclassified failed turn could be one.
    Unknown,
}

/// One episode's turn accounting (addendum §2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accounting {
    /// Turns (model calls) recorded: steps + failed + rejected + unclassified.
    pub attempted: usize,
    /// Logged turns (usable completions).
    pub steps: usize,
    /// `call_error` + `context_overflow` turns.
    pub failed: usize,
    /// Of the failed turns, serving-window rejections.
    pub context_overflow: usize,
    /// Completions rejected for not stopping on their own.
    pub rejected: usize,
    /// Non-logged turns without a `failure`.
    pub unclassified: usize,
    /// Whether the episode overflowed.
    pub overflowed: Overflowed,
}

/// The turn accounting of one episode.
pub fn episode_accounting(e: &Episode) -> Accounting {
    let (mut steps, mut call_error, mut overflow, mut rejected, mut unclassified) = (0, 0, 0, 0, 0);
    for t in &e.turns {
        if t.logged {
            steps += 1;
            continue;
        }
        match t.failure {
            Some(Failure::CallError) => call_error += 1,
            Some(Failure::ContextOverflow) => overflow += 1,
            Some(Failure::Rejected) => rejected += 1,
            None => unclassified += 1,
        }
    }
    let overflowed = if overflow > 0 {
        Overflowed::Yes
    } else if unclassified > 0 {
        Overflowed::Unknown
    } else {
        Overflowed::No
    };
    Accounting {
        attempted: e.turns.len(),
        steps,
        failed: call_error + overflow,
        context_overflow: overflow,
        rejected,
        unclassified,
        overflowed,
    }
}

/// What a flag found, with its numbers (addendum §2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FlagKind {
    /// More turns attempted than `turn_limit` allows.
    AttemptedOverTurnLimit {
        /// Attempted turns.
        attempted: usize,
        /// The episode's `turn_limit`.
        turn_limit: u32,
    },
    /// `termination: turn_limit` but attempted ≠ `turn_limit`.
    TurnLimitMismatch {
        /// Attempted turns.
        attempted: usize,
        /// The episode's `turn_limit`.
        turn_limit: u32,
    },
    /// A logged turn whose `tokens_in` + `output_reservation` exceeds
    /// `context_window`.
    ContextExceeded {
        /// The turn's `index`.
        turn: u32,
        /// Its `tokens_in`.
        tokens_in: u64,
        /// The episode's `output_reservation`.
        output_reservation: u64,
        /// The episode's `context_window`.
        context_window: u64,
    },
}

/// A located flag: the episode and what was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountingFlag {
    /// The episode's `episode_id`.
    pub episode_id: String,
    /// What was found, with its numbers.
    #[serde(flatten)]
    pub kind: FlagKind,
}

impl AccountingFlag {
    /// e.g. `episode e1: termination turn_limit with 4 attempted turns ≠ turn_limit 5`.
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            FlagKind::AttemptedOverTurnLimit {
                attempted,
                turn_limit,
            } => format!("{attempted} attempted turns > turn_limit {turn_limit}"),
            FlagKind::TurnLimitMismatch {
                attempted,
                turn_limit,
            } => format!(
                "termination turn_limit with {attempted} attempted turns ≠ turn_limit {turn_limit}"
            ),
            FlagKind::ContextExceeded {
                turn,
                tokens_in,
                output_reservation,
                context_window,
            } => format!(
                "turn {turn}: tokens_in {tokens_in} + output_reservation {output_reservation} > context_window {context_window}"
            ),
        };
        format!("episode {}: {what}", self.episode_id)
    }
}

/// The flags of one episode (addendum §2), in the order: attempted over the
/// limit, turn-limit mismatch, then context excesses by turn.
pub fn episode_flags(e: &Episode, acc: &Accounting) -> Vec<AccountingFlag> {
    let flag = |kind| AccountingFlag {
        episode_id: e.episode_id.clone(),
        kind,
    };
    let mut out = Vec::new();
    if let Some(limit) = e.turn_limit {
        if acc.attempted > limit as usize {
            out.push(flag(FlagKind::AttemptedOverTurnLimit {
                attempted: acc.attempted,
                turn_limit: limit,
            }));
        }
        if e.termination == Termination::TurnLimit && acc.attempted != limit as usize {
            out.push(flag(FlagKind::TurnLimitMismatch {
                attempted: acc.attempted,
                turn_limit: limit,
            }));
        }
    }
    if let (Some(window), Some(reservation)) = (e.context_window, e.output_reservation) {
        for t in e.turns.iter().filter(|t| t.logged) {
            if let Some(tokens_in) = t.tokens_in {
                if tokens_in.saturating_add(reservation) > window {
                    out.push(flag(FlagKind::ContextExceeded {
                        turn: t.index,
                        tokens_in,
                        output_reservation: reservation,
                        context_window: window,
                    }));
                }
            }
        }
    }
    out
}

/// k of n, with the share (`None` when n is 0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KOfN {
    /// The count.
    pub k: usize,
    /// Out of.
    pub n: usize,
    /// k / n; `None` when n is 0.
    pub share: Option<f64>,
}

impl KOfN {
    /// k of n.
    pub fn new(k: usize, n: usize) -> Self {
        KOfN {
            k,
            n,
            share: (n > 0).then(|| k as f64 / n as f64),
        }
    }

    /// `3/25`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.k, self.n)
    }
}

/// Episodes by [`Overflowed`] (addendum §2's overflow k/n counts unknowns
/// apart).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverflowCounts {
    /// Episodes that overflowed.
    pub yes: usize,
    /// Episodes that did not.
    pub no: usize,
    /// Episodes with an unclassified failed turn and no overflow.
    pub unknown: usize,
}

impl OverflowCounts {
    /// Counts of the given per-episode values.
    pub fn of<'a>(values: impl IntoIterator<Item = &'a Overflowed>) -> Self {
        let mut c = OverflowCounts::default();
        for v in values {
            match v {
                Overflowed::Yes => c.yes += 1,
                Overflowed::No => c.no += 1,
                Overflowed::Unknown => c.unknown += 1,
            }
        }
        c
    }

    /// Overflowed episodes over all of them (unknowns in n, so a lower
    /// bound when some are unknown).
    pub fn k_of_n(&self) -> KOfN {
        KOfN::new(self.yes, self.yes + self.no + self.unknown)
    }
}

/// One Table 20 row: a (condition, cap) cell's turn accounting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table20Row {
    /// The condition (with its intervention, if any).
    pub condition: Arm,
    /// The per-turn tool-call cap.
    pub cap: u32,
    /// Episodes in the cell.
    pub episodes: usize,
    /// Mean attempted turns (per id first, instance bootstrap).
    pub attempted: Estimate,
    /// Mean steps (per id first, instance bootstrap; the same draws).
    pub steps: Estimate,
    /// Total failed turns (`call_error` + `context_overflow`).
    pub failed: usize,
    /// Total `context_overflow` turns.
    pub context_overflow: usize,
    /// Total rejected turns.
    pub rejected: usize,
    /// Total unclassified turns.
    pub unclassified: usize,
    /// `context_overflow` / failed; `None` when no turn failed (0/0: `—`).
    pub context: Option<KOfN>,
    /// Episodes by overflow.
    pub overflowed: OverflowCounts,
    /// The cell's flags, in episode order.
    pub flags: Vec<AccountingFlag>,
}

/// The Table 20 row of one (condition, cap) cell: the caller passes the
/// cell's episodes.
pub fn table20_row(
    condition: Arm,
    cap: u32,
    episodes: &[&Episode],
    draws: usize,
    seed: u64,
) -> Table20Row {
    let mut attempted: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut steps: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let (mut failed, mut overflow, mut rejected, mut unclassified) = (0, 0, 0, 0);
    let mut overflowed = Vec::with_capacity(episodes.len());
    let mut flags = Vec::new();
    for e in episodes {
        let a = episode_accounting(e);
        attempted
            .entry(e.instance_id.clone())
            .or_default()
            .push(a.attempted as f64);
        steps
            .entry(e.instance_id.clone())
            .or_default()
            .push(a.steps as f64);
        failed += a.failed;
        overflow += a.context_overflow;
        rejected += a.rejected;
        unclassified += a.unclassified;
        overflowed.push(a.overflowed);
        flags.extend(episode_flags(e, &a));
    }
    let per_id = |m: BTreeMap<String, Vec<f64>>| -> Cell {
        m.into_iter()
            .map(|(id, v)| (id, v.iter().sum::<f64>() / v.len() as f64))
            .collect()
    };
    let (attempted, steps) = (per_id(attempted), per_id(steps));
    Table20Row {
        condition,
        cap,
        episodes: episodes.len(),
        attempted: metrics::estimate(Some(&attempted), draws, seed),
        steps: metrics::estimate(Some(&steps), draws, seed),
        failed,
        context_overflow: overflow,
        rejected,
        unclassified,
        context: (failed > 0).then(|| KOfN::new(overflow, failed)),
        overflowed: OverflowCounts::of(&overflowed),
        flags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Condition;
    use crate::read_jsonl;

    /// The addendum §2 example, with turns given as JSON (turn 0 and 4
    /// logged, 1–3 as given), and `drop4` leaving turn 4 out.
    fn example(id: &str, failures: [&str; 3], drop4: bool) -> String {
        let mut turns =
            vec![r#"{"index":0,"logged":true,"tokens_in":100,"tokens_out":10}"#.to_string()];
        for (k, f) in failures.iter().enumerate() {
            turns.push(if f.is_empty() {
                format!(r#"{{"index":{},"logged":false}}"#, k + 1)
            } else {
                format!(r#"{{"index":{},"logged":false,"failure":"{f}"}}"#, k + 1)
            });
        }
        if !drop4 {
            turns.push(r#"{"index":4,"logged":true,"tokens_in":100,"tokens_out":10}"#.into());
        }
        format!(
            r#"{{"episode_id":"{id}","task_family":"opaque_knapsack","instance_id":"i{id}","train_runtime":"P","deploy_runtime":"S","cap":2,"seed":0,"rollout":0,"base_model":"m","score":0.5,"termination":"turn_limit","turn_limit":5,"turns":[{}]}}"#,
            turns.join(",")
        )
    }

    fn read(lines: &[String]) -> Vec<Episode> {
        let log = read_jsonl(&lines.join("\n"));
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        log.episodes
    }

    #[test]
    fn addendum_example() {
        let eps = read(&[
            example("a", ["call_error", "context_overflow", "rejected"], false),
            example("b", ["call_error", "", "rejected"], false),
            example("c", ["call_error", "context_overflow", "rejected"], true),
        ]);
        let a = episode_accounting(&eps[0]);
        assert_eq!(
            a,
            Accounting {
                attempted: 5,
                steps: 2,
                failed: 2,
                context_overflow: 1,
                rejected: 1,
                unclassified: 0,
                overflowed: Overflowed::Yes,
            }
        );
        assert_eq!(
            a.attempted,
            a.steps + a.failed + a.rejected + a.unclassified
        );
        assert!(episode_flags(&eps[0], &a).is_empty());
        let b = episode_accounting(&eps[1]);
        assert_eq!(
            (b.failed, b.unclassified, b.context_overflow, b.overflowed),
            (1, 1, 0, Overflowed::Unknown)
        );
        let c = episode_accounting(&eps[2]);
        assert_eq!(c.attempted, 4);
        let flags = episode_flags(&eps[2], &c);
        assert_eq!(
            flags,
            vec![AccountingFlag {
                episode_id: "c".into(),
                kind: FlagKind::TurnLimitMismatch {
                    attempted: 4,
                    turn_limit: 5
                }
            }]
        );
        assert_eq!(
            flags[0].describe(),
            "episode c: termination turn_limit with 4 attempted turns ≠ turn_limit 5"
        );

        // Rows: context 1/2 for a, 0/1 for b.
        let row = |e: &Episode| table20_row(Arm::base(Condition::PS), 2, &[e], 100, 0);
        let ra = row(&eps[0]);
        assert_eq!(ra.context, Some(KOfN::new(1, 2)));
        assert_eq!(ra.context.as_ref().map(KOfN::label).as_deref(), Some("1/2"));
        assert_eq!(row(&eps[1]).context, Some(KOfN::new(0, 1)));
        assert_eq!(ra.attempted.value, Some(5.0));
        assert_eq!(ra.steps.value, Some(2.0));

        let all: Vec<&Episode> = eps.iter().collect();
        let r = table20_row(Arm::base(Condition::PS), 2, &all, 1000, 0);
        assert_eq!(r.episodes, 3);
        assert_eq!(
            (r.failed, r.context_overflow, r.rejected, r.unclassified),
            (5, 2, 3, 1)
        );
        assert_eq!(r.context, Some(KOfN::new(2, 5)));
        assert_eq!(
            r.overflowed,
            OverflowCounts {
                yes: 2,
                no: 0,
                unknown: 1
            }
        );
        assert_eq!(r.overflowed.k_of_n(), KOfN::new(2, 3));
        assert_eq!(r.flags.len(), 1);
        let mean = (5.0 + 5.0 + 4.0) / 3.0;
        assert!((r.attempted.value.unwrap_or(0.0) - mean).abs() < 1e-12);
        let [lo, hi] = r.attempted.ci95.unwrap();
        assert!(4.0 <= lo && hi <= 5.0);
    }

    #[test]
    fn no_failure_is_no_context_and_other_flags() {
        // All logged: 0/0 context is None; 3 attempted > turn_limit 2; a
        // logged turn over the window.
        let line = r#"{"episode_id":"x","task_family":"navigation","instance_id":1,"train_runtime":"P","deploy_runtime":"P","cap":2,"seed":0,"rollout":0,"base_model":"m","score":0.5,"termination":"finish","turn_limit":2,"context_window":1000,"output_reservation":200,"turns":[{"index":0,"logged":true,"tokens_in":800},{"index":1,"logged":true,"tokens_in":801},{"index":2,"logged":true}]}"#;
        let eps = read(&[line.to_string()]);
        let a = episode_accounting(&eps[0]);
        assert_eq!((a.attempted, a.steps, a.overflowed), (3, 3, Overflowed::No));
        let r = table20_row(Arm::base(Condition::PP), 2, &[&eps[0]], 10, 0);
        assert_eq!(r.context, None);
        assert_eq!(
            r.flags.iter().map(|f| f.kind.clone()).collect::<Vec<_>>(),
            vec![
                FlagKind::AttemptedOverTurnLimit {
                    attempted: 3,
                    turn_limit: 2
                },
                FlagKind::ContextExceeded {
                    turn: 1,
                    tokens_in: 801,
                    output_reservation: 200,
                    context_window: 1000
                }
            ]
        );
        let json = serde_json::to_value(&r.flags[1]).unwrap();
        assert_eq!(json["kind"], "context_exceeded");
        assert_eq!(json["episode_id"], "x");
    }

    #[test]
    fn per_id_first() {
        // Id 1 has episodes of 2 and 4 attempted turns, id 2 one of 6: the
        // mean is (3 + 6) / 2, not 12 / 3.
        let mk = |id: &str, inst: u32, n: usize| {
            let turns: Vec<String> = (0..n)
                .map(|k| format!(r#"{{"index":{k},"logged":true}}"#))
                .collect();
            format!(
                r#"{{"episode_id":"{id}","task_family":"f","instance_id":{inst},"train_runtime":"S","deploy_runtime":"S","cap":1,"seed":0,"rollout":0,"base_model":"m","score":0.0,"termination":"finish","turns":[{}]}}"#,
                turns.join(",")
            )
        };
        let eps = read(&[mk("a", 1, 2), mk("b", 1, 4), mk("c", 2, 6)]);
        let all: Vec<&Episode> = eps.iter().collect();
        let r = table20_row(Arm::base(Condition::SS), 1, &all, 100, 0);
        assert_eq!(r.attempted.value, Some(4.5));
        assert_eq!(r.attempted.n, 2);
        assert_eq!(r.steps.value, Some(4.5));
    }
}
