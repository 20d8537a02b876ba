//! The addendum's sections of a slice (Table 20's accounting, §4's
//! mechanism, §6's cost ratio, §5's gain curve) and of the whole report
//! (§3's across analyses, §2's horizon sweeps), built from the cells the
//! slice report computed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::accounting::{self, Overflowed, Table20Row};
use crate::across::{self, AcrossReport, AcrossSettings, Column};
use crate::cost::{self, TokenRatio};
use crate::gain::{self, GainReport};
use crate::horizon::{self, HorizonColumn, HorizonSweep};
use crate::log::{Arm, Condition, Episode, Horizon};
use crate::mechanism::{self, MechanismCell};
use crate::metrics::Cell;
use crate::{knapsack, RuntimeSettings, SliceDim, SliceKey};

/// §4's quantities of one condition at one cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MechanismRow {
    pub condition: Condition,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervention: Option<String>,
    pub cap: u32,
    pub cell: MechanismCell,
}

/// §5's curves at one cap, or why they are undefined.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainSection {
    pub cap: u32,
    /// The conditions asked for (the first is the reference).
    pub conditions: Vec<String>,
    pub report: Option<GainReport>,
    pub undefined: Option<String>,
}

/// §3's across analysis of one group of slices (one family, differing only
/// in `fields`), or why it could not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcrossSection {
    pub fields: Vec<SliceDim>,
    /// The group's shared key (across fields shown as `all`).
    pub group: String,
    /// The slices (indices into the report's `slices`), one per column.
    pub slices: Vec<usize>,
    pub report: Option<AcrossReport>,
    pub error: Option<String>,
}

/// §2's horizon sweep of one group of slices differing only in the
/// horizon, or why it could not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HorizonSection {
    pub group: String,
    pub slices: Vec<usize>,
    pub sweep: Option<HorizonSweep>,
    pub error: Option<String>,
}

/// What the report-level sections need of a slice.
pub(crate) struct SliceCells {
    pub key: SliceKey,
    pub cells: BTreeMap<(Arm, u32), Cell>,
    pub overflow: BTreeMap<(Arm, u32), Vec<Overflowed>>,
    pub horizon: Option<Horizon>,
}

/// A slice's addendum sections.
pub(crate) struct Sections {
    pub accounting: Vec<Table20Row>,
    pub mechanism: Vec<MechanismRow>,
    pub cost: Vec<TokenRatio>,
    pub gain: Option<GainSection>,
    pub overflow: BTreeMap<(Arm, u32), Vec<Overflowed>>,
}

/// The sections of one slice: `by_cell` its episodes per (condition, cap),
/// `caps` its caps, `c_tight` the gain curve's default cap.
pub(crate) fn slice_sections(
    key: &SliceKey,
    by_cell: &BTreeMap<(Arm, u32), Vec<&Episode>>,
    caps: &[u32],
    c_tight: Option<u32>,
    settings: &RuntimeSettings,
    warnings: &mut Vec<String>,
) -> Sections {
    let (b, seed) = (settings.bootstrap, settings.seed);
    let mut out = Sections {
        accounting: Vec::new(),
        mechanism: Vec::new(),
        cost: Vec::new(),
        gain: None,
        overflow: BTreeMap::new(),
    };
    for ((arm, cap), eps) in by_cell {
        out.accounting
            .push(accounting::table20_row(arm.clone(), *cap, eps, b, seed));
        out.overflow.insert(
            (arm.clone(), *cap),
            eps.iter()
                .map(|e| accounting::episode_accounting(e).overflowed)
                .collect(),
        );
    }
    let tools = key.task_family.as_ref().and_then(|f| settings.tools.get(f));
    let inspect: &[String] = tools.map_or(&[], |t| &t.inspect);
    let knapsack_family = key.task_family.as_deref() == Some(knapsack::FAMILY);
    if knapsack_family && !inspect.is_empty() {
        let mut solved = mechanism::InstanceCache::default();
        for ((arm, cap), eps) in by_cell {
            let mut cell = mechanism::mechanism_cell_with(eps, inspect, b, seed, &mut solved);
            if !settings.include_episodes {
                cell.per_episode.clear();
            }
            out.mechanism.push(MechanismRow {
                condition: arm.base,
                intervention: arm.intervention.clone(),
                cap: *cap,
                cell,
            });
        }
    }
    let find = |label: &str, cap: u32| -> Option<&Vec<&Episode>> {
        by_cell
            .iter()
            .find(|((a, c), _)| *c == cap && a.label() == label)
            .map(|(_, v)| v)
    };
    let [ca, cb] = &settings.cost;
    for &cap in caps {
        let (a, bb) = (find(ca, cap), find(cb, cap));
        if a.is_none() && bb.is_none() {
            continue;
        }
        let mut r = cost::token_ratio(
            format!("R_{{{ca}/{cb}}}({cap})"),
            a.map_or(&[][..], Vec::as_slice),
            bb.map_or(&[][..], Vec::as_slice),
            b,
            seed,
        );
        r.cap = Some(cap);
        out.cost.push(r);
    }
    if let Some(cap) = settings.gain_cap.or(c_tight) {
        let cells: Vec<(String, Vec<&Episode>)> = settings
            .gain_conditions
            .iter()
            .filter_map(|l| find(l, cap).map(|v| (l.clone(), v.clone())))
            .collect();
        let any_inspect_family = key.task_family.is_some();
        if cells.len() >= 2 && any_inspect_family {
            let (report, undefined) = match gain::gain_curves(&cells, inspect, b, seed) {
                Ok(r) => (Some(r), None),
                Err(e) => (None, Some(e.to_string())),
            };
            let mut report = report;
            if !settings.include_episodes {
                if let Some(r) = &mut report {
                    for c in &mut r.conditions {
                        c.per_episode.clear();
                    }
                }
            }
            out.gain = Some(GainSection {
                cap,
                conditions: settings.gain_conditions.clone(),
                report,
                undefined,
            });
        } else if settings.gain_cap.is_some() {
            warnings.push(format!(
                "gain curve at cap {cap}: fewer than two of {} are in this slice",
                settings.gain_conditions.join(", ")
            ));
        }
    }
    out
}

/// The key with `fields` blanked: slices equal under it form one group.
fn blank(key: &SliceKey, fields: &[SliceDim]) -> SliceKey {
    let mut k = key.clone();
    for f in fields {
        match f {
            SliceDim::TaskFamily => k.task_family = None,
            SliceDim::BaseModel => k.base_model = None,
            SliceDim::Seed => k.seed = None,
            SliceDim::Rollout => k.rollout = None,
            SliceDim::Batch => k.batch = None,
            SliceDim::Horizon => {
                k.turn_limit = None;
                k.horizon = None;
            }
        }
    }
    k
}

/// A column's name: the values of the across fields.
fn column_name(key: &SliceKey, fields: &[SliceDim]) -> String {
    let or = |v: Option<String>| v.unwrap_or_else(|| "all".into());
    fields
        .iter()
        .map(|f| match f {
            SliceDim::TaskFamily => format!("family {}", or(key.task_family.clone())),
            SliceDim::BaseModel => format!("base model {}", or(key.base_model.clone())),
            SliceDim::Seed => format!("seed {}", or(key.seed.map(|s| s.to_string()))),
            SliceDim::Rollout => format!("rollout {}", or(key.rollout.map(|s| s.to_string()))),
            SliceDim::Batch => format!("batch {}", or(key.batch.clone())),
            SliceDim::Horizon => or(key.horizon.clone()),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Groups of ≥ 2 slices equal but for `fields` (in slice order).
fn groups(cells: &[SliceCells], fields: &[SliceDim]) -> Vec<(SliceKey, Vec<usize>)> {
    let mut g: BTreeMap<SliceKey, Vec<usize>> = BTreeMap::new();
    for (k, c) in cells.iter().enumerate() {
        g.entry(blank(&c.key, fields)).or_default().push(k);
    }
    g.into_iter().filter(|(_, v)| v.len() >= 2).collect()
}

/// §3's across analysis for every group of slices differing only in the
/// settings' across fields.
pub(crate) fn across_sections(
    cells: &[SliceCells],
    settings: &RuntimeSettings,
) -> Vec<AcrossSection> {
    let fields = &settings.across;
    if fields.is_empty() || fields.iter().any(|f| settings.pool.contains(f)) {
        return Vec::new();
    }
    groups(cells, fields)
        .into_iter()
        .map(|(key, idx)| {
            let columns: Vec<Column> = idx
                .iter()
                .map(|&k| Column {
                    name: column_name(&cells[k].key, fields),
                    cells: cells[k]
                        .cells
                        .iter()
                        .filter(|((a, _), _)| a.intervention.is_none())
                        .map(|((a, cap), c)| ((a.base, *cap), c.clone()))
                        .collect(),
                })
                .collect();
            let caps: Vec<u32> = columns
                .iter()
                .flat_map(|c| c.cells.keys().map(|(_, cap)| *cap))
                .collect();
            let result = match (
                settings.c_tight.or(caps.iter().min().copied()),
                settings.c_slack.or(caps.iter().max().copied()),
            ) {
                (Some(t), Some(s)) if t != s => across::across(
                    &columns,
                    &AcrossSettings {
                        c_tight: t,
                        c_slack: s,
                        common_ids: settings.common_ids.clone(),
                        own_ids: settings.own_ids,
                        draws: settings.bootstrap,
                        seed: settings.seed,
                    },
                )
                .map_err(|e| e.to_string()),
                _ => Err("one cap only: no c_tight and c_slack to compare".into()),
            };
            let (report, error) = match result {
                Ok(r) => (Some(r), None),
                Err(e) => (None, Some(e)),
            };
            AcrossSection {
                fields: fields.clone(),
                group: key.name(),
                slices: idx,
                report,
                error,
            }
        })
        .collect()
}

/// §2's horizon sweep for every group of slices differing only in the
/// horizon (two or more horizons, none unknown).
pub(crate) fn horizon_sections(
    cells: &[SliceCells],
    settings: &RuntimeSettings,
) -> Vec<HorizonSection> {
    if settings.pool.contains(&SliceDim::Horizon) {
        return Vec::new();
    }
    groups(cells, &[SliceDim::Horizon])
        .into_iter()
        .filter(|(_, idx)| idx.iter().all(|&k| cells[k].horizon.is_some()))
        .map(|(key, idx)| {
            let columns: Vec<HorizonColumn> = idx
                .iter()
                .filter_map(|&k| {
                    Some(HorizonColumn {
                        horizon: cells[k].horizon?,
                        cells: cells[k].cells.clone(),
                        overflow: cells[k].overflow.clone(),
                    })
                })
                .collect();
            let (sweep, error) = match horizon::horizon_sweep(
                &columns,
                settings.sweep_cap,
                settings.bootstrap,
                settings.seed,
            ) {
                Ok(s) => (Some(s), None),
                Err(e) => (None, Some(e.to_string())),
            };
            HorizonSection {
                group: key.name(),
                slices: idx,
                sweep,
                error,
            }
        })
        .collect()
}
