//! The horizon sweep (addendum §2, Table 19): §3's across analysis over the
//! horizon, at one cap, for the conditions present in every horizon. Q per
//! condition is taken on the common ids (those in every (horizon, condition)
//! cell at the cap), with the paired difference to the baseline horizon h₀
//! (the smallest `turn_limit`); overflow is counted over each cell's own full
//! episode set.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::accounting::{KOfN, OverflowCounts, Overflowed};
use crate::across::paired_on;
use crate::log::{Arm, Horizon};
use crate::metrics::{self, Cell, Contrast, Estimate};

/// One horizon's cells, built by the caller from the slices that differ only
/// in the horizon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HorizonColumn {
    /// The horizon (`T_max=80, 4000 s`).
    pub horizon: Horizon,
    /// Per-instance cells keyed (condition, cap).
    pub cells: BTreeMap<(Arm, u32), Cell>,
    /// Every episode's [`Overflowed`] per (condition, cap): the cell's own
    /// full episode set.
    pub overflow: BTreeMap<(Arm, u32), Vec<Overflowed>>,
}

/// Why the horizon sweep cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HorizonError {
    /// No horizon was given.
    #[error("the horizon sweep needs at least one horizon")]
    NoColumns,
    /// No cap is present in every horizon.
    #[error("no cap is present in every horizon")]
    NoCommonCap,
    /// The requested cap is missing in a horizon.
    #[error("horizon `{horizon}` has no episode at cap {cap}")]
    MissingCap {
        /// The horizon's label.
        horizon: String,
        /// The requested cap.
        cap: u32,
    },
}

/// One condition in one horizon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HorizonCell {
    /// The condition.
    pub condition: Arm,
    /// Q on the common ids (the same draw for every condition and horizon).
    pub q: Estimate,
    /// Q on the cell's own ids (the table mean, for comparison).
    pub q_own: Estimate,
    /// Q_X(h) − Q_X(h₀) on the common ids, paired; `None` in h₀ itself.
    pub delta: Option<Contrast>,
    /// Episodes by overflow, over the cell's own full episode set.
    pub overflow: OverflowCounts,
    /// Overflowed / episodes (unknowns in n and counted in `overflow`).
    pub overflowed: KOfN,
}

/// One horizon of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HorizonRow {
    /// The horizon.
    pub horizon: Horizon,
    /// Its label, `T_max=80, 4000 s`.
    pub label: String,
    /// Whether this is h₀.
    pub baseline: bool,
    /// One cell per condition, in condition order.
    pub cells: Vec<HorizonCell>,
}

/// The horizon sweep (Table 19).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HorizonSweep {
    /// The cap of the sweep.
    pub cap: u32,
    /// The conditions present in every horizon.
    pub conditions: Vec<Arm>,
    /// Conditions left out: present at the cap in some horizons only.
    pub conditions_left_out: Vec<Arm>,
    /// The ids in every (horizon, condition) cell, sorted as text.
    pub common_ids: Vec<String>,
    /// h₀'s label.
    pub baseline: String,
    /// The horizons, by turn limit (unknown last), then wall clock.
    pub rows: Vec<HorizonRow>,
    /// What the reader should know.
    pub warnings: Vec<String>,
}

/// Horizons in order: by turn limit (unknown last), then wall clock
/// (unknown last).
fn order(a: &Horizon, b: &Horizon) -> std::cmp::Ordering {
    let t = |h: &Horizon| (h.turn_limit.is_none(), h.turn_limit);
    t(a).cmp(&t(b))
        .then_with(|| match (a.wall_clock_limit_s, b.wall_clock_limit_s) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (x, y) => x.is_none().cmp(&y.is_none()),
        })
}

/// The horizon sweep at `cap` (default: the smallest cap present in every
/// horizon).
pub fn horizon_sweep(
    columns: &[HorizonColumn],
    cap: Option<u32>,
    draws: usize,
    seed: u64,
) -> Result<HorizonSweep, HorizonError> {
    if columns.is_empty() {
        return Err(HorizonError::NoColumns);
    }
    let caps_of = |c: &HorizonColumn| -> BTreeSet<u32> { c.cells.keys().map(|k| k.1).collect() };
    let cap = if let Some(cap) = cap {
        if let Some(c) = columns.iter().find(|c| !caps_of(c).contains(&cap)) {
            return Err(HorizonError::MissingCap {
                horizon: c.horizon.label(),
                cap,
            });
        }
        cap
    } else {
        let mut every = caps_of(&columns[0]);
        for c in &columns[1..] {
            let own = caps_of(c);
            every.retain(|x| own.contains(x));
        }
        every.first().copied().ok_or(HorizonError::NoCommonCap)?
    };
    let mut sorted: Vec<&HorizonColumn> = columns.iter().collect();
    sorted.sort_by(|a, b| order(&a.horizon, &b.horizon));
    let mut warnings = Vec::new();
    let all_arms: BTreeSet<&Arm> = sorted
        .iter()
        .flat_map(|c| c.cells.keys().filter(|k| k.1 == cap).map(|k| &k.0))
        .collect();
    let (conditions, conditions_left_out): (Vec<Arm>, Vec<Arm>) =
        all_arms.into_iter().cloned().partition(|a| {
            sorted
                .iter()
                .all(|c| c.cells.contains_key(&(a.clone(), cap)))
        });
    if !conditions_left_out.is_empty() {
        warnings.push(format!(
            "left out (not in every horizon at cap {cap}): {}",
            conditions_left_out
                .iter()
                .map(Arm::label)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let empty = Cell::new();
    fn cell_of<'a>(c: &'a HorizonColumn, a: &Arm, cap: u32, empty: &'a Cell) -> &'a Cell {
        c.cells.get(&(a.clone(), cap)).unwrap_or(empty)
    }
    let mut common: Option<BTreeSet<&String>> = None;
    for c in &sorted {
        for a in &conditions {
            let ids: BTreeSet<&String> = cell_of(c, a, cap, &empty).keys().collect();
            common = Some(match common {
                None => ids,
                Some(mut s) => {
                    s.retain(|id| ids.contains(id));
                    s
                }
            });
        }
    }
    let common: Vec<String> = common.unwrap_or_default().into_iter().cloned().collect();
    if common.is_empty() {
        warnings.push("no instance id is in every (horizon, condition) cell: Q on the common ids and the differences are undefined".into());
    }
    if sorted.iter().all(|c| c.horizon.turn_limit.is_none()) {
        warnings.push("no horizon logs a turn_limit: h₀ is the first horizon in order".into());
    }
    let h0 = sorted[0];
    let restrict = |c: &Cell| -> Cell {
        common
            .iter()
            .filter_map(|id| c.get(id).map(|&v| (id.clone(), v)))
            .collect()
    };
    let rows = sorted
        .iter()
        .enumerate()
        .map(|(k, col)| {
            let label = col.horizon.label();
            let cells = conditions
                .iter()
                .map(|a| {
                    let cell = cell_of(col, a, cap, &empty);
                    let delta = (k > 0).then(|| {
                        let formula = format!(
                            "Q_{}({label}) - Q_{}({})",
                            a.label(),
                            a.label(),
                            h0.horizon.label()
                        );
                        paired_on(
                            formula,
                            &[(1.0, cell), (-1.0, cell_of(h0, a, cap, &empty))],
                            &common,
                            draws,
                            seed,
                        )
                        .0
                    });
                    let overflow = OverflowCounts::of(
                        col.overflow.get(&(a.clone(), cap)).into_iter().flatten(),
                    );
                    HorizonCell {
                        condition: a.clone(),
                        q: metrics::estimate(Some(&restrict(cell)), draws, seed),
                        q_own: metrics::estimate(Some(cell), draws, seed),
                        delta,
                        overflowed: overflow.k_of_n(),
                        overflow,
                    }
                })
                .collect();
            HorizonRow {
                horizon: col.horizon,
                label,
                baseline: k == 0,
                cells,
            }
        })
        .collect();
    Ok(HorizonSweep {
        cap,
        conditions,
        conditions_left_out,
        common_ids: common,
        baseline: h0.horizon.label(),
        rows,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Condition;

    fn h(t: u32, w: f64) -> Horizon {
        Horizon {
            turn_limit: Some(t),
            wall_clock_limit_s: Some(w),
        }
    }

    fn cell(v: &[(&str, f64)]) -> Cell {
        v.iter().map(|&(id, x)| (id.to_string(), x)).collect()
    }

    #[test]
    fn sweep_on_common_ids_with_own_overflow() {
        let ps = Arm::base(Condition::PS);
        let carry = Arm {
            base: Condition::PS,
            intervention: Some("carry".into()),
        };
        let mut long = HorizonColumn {
            horizon: h(80, 4000.0),
            cells: BTreeMap::new(),
            overflow: BTreeMap::new(),
        };
        long.cells.insert(
            (ps.clone(), 25),
            cell(&[("a", 0.75), ("b", 0.5), ("c", 1.0)]),
        );
        long.cells.insert((ps.clone(), 80), cell(&[("a", 0.0)]));
        long.cells.insert((carry.clone(), 25), cell(&[("a", 0.1)]));
        long.overflow.insert(
            (ps.clone(), 25),
            vec![
                Overflowed::Yes,
                Overflowed::No,
                Overflowed::Unknown,
                Overflowed::Yes,
            ],
        );
        let mut short = HorizonColumn {
            horizon: h(40, 2000.0),
            cells: BTreeMap::new(),
            overflow: BTreeMap::new(),
        };
        short.cells.insert(
            (ps.clone(), 25),
            cell(&[("a", 0.25), ("b", 0.5), ("d", 0.0)]),
        );
        short
            .overflow
            .insert((ps.clone(), 25), vec![Overflowed::No; 3]);
        // Given longest first: sorted by turn limit, h₀ = T_max=40.
        let s = horizon_sweep(&[long.clone(), short.clone()], None, 1000, 0).unwrap();
        assert_eq!(s.cap, 25);
        assert_eq!(s.conditions, vec![ps.clone()]);
        assert_eq!(s.conditions_left_out, vec![carry]);
        assert_eq!(s.common_ids, vec!["a", "b"]);
        assert_eq!(s.baseline, "T_max=40, 2000 s");
        assert_eq!(s.rows[0].label, "T_max=40, 2000 s");
        assert!(s.rows[0].baseline && s.rows[0].cells[0].delta.is_none());
        let c = &s.rows[1].cells[0];
        assert_eq!(c.q.value, Some(0.625));
        assert_eq!(c.q.n, 2);
        assert_eq!(c.q_own.value, Some(0.75));
        let d = c.delta.as_ref().unwrap();
        assert_eq!(d.value, Some(0.25));
        assert_eq!(d.n_shared, 2);
        assert_eq!(
            d.formula,
            "Q_P->S(T_max=80, 4000 s) - Q_P->S(T_max=40, 2000 s)"
        );
        assert_eq!(d.ci95, Some([0.0, 0.5]));
        assert_eq!(c.overflowed, KOfN::new(2, 4));
        assert_eq!(c.overflow.unknown, 1);
        assert_eq!(s.rows[0].cells[0].overflowed, KOfN::new(0, 3));

        // A cap not in every horizon.
        let e = horizon_sweep(&[long, short], Some(80), 10, 0).unwrap_err();
        assert_eq!(
            e,
            HorizonError::MissingCap {
                horizon: "T_max=40, 2000 s".into(),
                cap: 80
            }
        );
        assert_eq!(
            horizon_sweep(&[], None, 10, 0).unwrap_err(),
            HorizonError::NoColumns
        );
    }
}
