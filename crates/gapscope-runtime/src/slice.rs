//! One slice's report: Q per condition and cap, the runtime gaps, the
//! interaction and its cap moderation, M, the open condition set's
//! contrasts (addendum §1), the trace rows and exposure.

use std::collections::BTreeMap;

use crate::log::{Arm, Condition, Episode};
use crate::metrics::{self, Cell, EpisodeMetrics, TurnMark};
use crate::sections::{self, SliceCells};
use crate::{
    CapComparison, CapTable, ConditionCell, RuntimeSettings, ScoreSource, SliceKey, SliceReport,
    SweepPoint, SweepSeries,
};

#[allow(
    clippy::too_many_lines,
    reason = "one slice's report: every estimate of the spec's table, in its order"
)]
pub(crate) fn slice_report(
    key: SliceKey,
    idx: &[usize],
    episodes: &[Episode],
    verified: &[Option<f64>],
    per_episode: &[(EpisodeMetrics, Vec<TurnMark>)],
    settings: &RuntimeSettings,
) -> (SliceReport, SliceCells) {
    let mut warnings = Vec::new();
    let mut caps: Vec<u32> = idx.iter().map(|&k| episodes[k].cap).collect();
    caps.sort_unstable();
    caps.dedup();
    // (condition, cap) -> instance id -> scores
    let mut raw: BTreeMap<(Arm, u32), BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut unscored = 0;
    for &k in idx {
        let e = &episodes[k];
        let score = match settings.score {
            ScoreSource::Logged => Some(e.score),
            ScoreSource::Verified => verified[k],
        };
        match score {
            Some(s) => raw
                .entry((e.arm(), e.cap))
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
    let cells: BTreeMap<(Arm, u32), Cell> = raw
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
    let cell = |c: Condition, cap: u32| cells.get(&(Arm::base(c), cap));
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
            m: metrics::contrast(
                format!("Q_PS({cap}) - Q_SS({cap})"),
                &[
                    (1.0, cell(Condition::PS, cap)),
                    (-1.0, cell(Condition::SS, cap)),
                ],
                b,
                seed,
            ),
        })
        .collect();
    // Every condition of the slice: the four base ones in table order (the
    // 2×2 always shows them), then those with an intervention.
    let mut arms: Vec<Arm> = Condition::ALL.iter().map(|&c| Arm::base(c)).collect();
    let mut extra: Vec<Arm> = idx.iter().map(|&k| episodes[k].arm()).collect();
    extra.sort();
    extra.dedup();
    arms.extend(extra.into_iter().filter(|a| a.intervention.is_some()));
    let sweep: Vec<SweepSeries> = arms
        .iter()
        .filter(|a| {
            a.intervention.is_none()
                || caps
                    .iter()
                    .any(|&cap| cells.contains_key(&((*a).clone(), cap)))
        })
        .map(|a| SweepSeries {
            condition: a.base,
            intervention: a.intervention.clone(),
            points: caps
                .iter()
                .filter_map(|&cap| {
                    let c = cells.get(&(a.clone(), cap))?;
                    // A base condition's Q is its 2×2 cell's (the same
                    // estimate, computed once).
                    let q = match a.intervention {
                        None => tables
                            .iter()
                            .find(|t| t.cap == cap)
                            .and_then(|t| t.cells.iter().find(|x| x.condition == a.base))
                            .map(|x| x.q.clone()),
                        Some(_) => None,
                    }
                    .unwrap_or_else(|| metrics::estimate(Some(c), b, seed));
                    Some(SweepPoint { cap, q })
                })
                .collect(),
        })
        .collect();
    let present: Vec<&Arm> = arms
        .iter()
        .filter(|a| idx.iter().any(|&k| episodes[k].arm() == **a))
        .collect();
    let labels: Vec<String> = present.iter().map(|a| a.label()).collect();
    let mut contrasts = Vec::new();
    let mut pairs: Vec<(Arm, Arm)> = Vec::new();
    for a in present.iter().filter(|a| a.intervention.is_some()) {
        pairs.push(((*a).clone(), Arm::base(a.base)));
        for o in present.iter().filter(|o| {
            o.base == a.base && o.intervention.is_some() && o.intervention > a.intervention
        }) {
            pairs.push(((*a).clone(), (*o).clone()));
        }
    }
    for [x, y] in &settings.contrasts {
        let find = |l: &String| {
            present
                .iter()
                .find(|a| a.label() == *l)
                .map(|a| (*a).clone())
        };
        match (find(x), find(y)) {
            (Some(p), Some(q)) => pairs.push((p, q)),
            _ => warnings.push(format!(
                "contrast {x} vs {y}: not both conditions are in this slice"
            )),
        }
    }
    for (p, q) in pairs {
        for &cap in &caps {
            let (cp, cq) = (cells.get(&(p.clone(), cap)), cells.get(&(q.clone(), cap)));
            if cp.is_none() && cq.is_none() {
                continue;
            }
            contrasts.push(crate::ArmContrast {
                a: p.label(),
                b: q.label(),
                cap,
                contrast: metrics::contrast(
                    format!("Q_{}({cap}) - Q_{}({cap})", p.label(), q.label()),
                    &[(1.0, cp), (-1.0, cq)],
                    b,
                    seed,
                ),
            });
        }
    }
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
    let how = metrics::RowSettings {
        draws: b,
        seed,
        min_events: settings.min_events,
    };
    let mut trace = Vec::new();
    for &cap in &caps {
        for a in &present {
            let rows: Vec<(&Episode, &EpisodeMetrics)> = idx
                .iter()
                .filter(|&&k| episodes[k].cap == cap && episodes[k].arm() == **a)
                .map(|&k| (&episodes[k], &per_episode[k].0))
                .collect();
            if !rows.is_empty() {
                let mut row = metrics::trace_row(cap, a, &rows, how);
                let eps: Vec<&Episode> = rows.iter().map(|(e, _)| *e).collect();
                row.input_share = crate::cost::cell_tokens(&eps).input_share;
                trace.push(row);
            }
        }
    }
    let mut exposure_caps = caps.clone();
    exposure_caps.extend(settings.exposure_caps.iter().copied());
    exposure_caps.sort_unstable();
    exposure_caps.dedup();
    if let Some(s) = slack {
        let above: Vec<String> = settings
            .exposure_caps
            .iter()
            .filter(|&&c| c > s)
            .map(u32::to_string)
            .collect();
        if !above.is_empty() {
            warnings.push(format!(
                "exposure at cap(s) {} is undefined: above the slack cap {s}, a block's recorded calls stop at the slack cap",
                above.join(", ")
            ));
        }
    }
    let exposure = match slack {
        Some(s) => present
            .iter()
            .filter_map(|a| {
                let eps: Vec<&Episode> = idx
                    .iter()
                    .map(|&k| &episodes[k])
                    .filter(|e| e.arm() == **a && e.cap == s)
                    .collect();
                (!eps.is_empty()).then(|| metrics::exposure(a, s, &exposure_caps, &eps))
            })
            .collect(),
        None => Vec::new(),
    };
    let mut by_cell: BTreeMap<(Arm, u32), Vec<&Episode>> = BTreeMap::new();
    for &k in idx {
        let e = &episodes[k];
        by_cell.entry((e.arm(), e.cap)).or_default().push(e);
    }
    let extra = sections::slice_sections(&key, &by_cell, &caps, tight, settings, &mut warnings);
    let slice_cells = SliceCells {
        key: key.clone(),
        cells,
        overflow: extra.overflow,
        horizon: idx.first().and_then(|&k| episodes[k].horizon()),
    };
    let report = SliceReport {
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
        conditions: labels,
        contrasts,
        accounting: extra.accounting,
        mechanism: extra.mechanism,
        cost: extra.cost,
        gain: extra.gain,
        warnings,
    };
    (report, slice_cells)
}
