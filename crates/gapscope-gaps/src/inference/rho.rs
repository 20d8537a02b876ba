//! Spearman ρ intervals (spec: "Beyond one α and one fit"): the family
//! bootstrap of MAE, RMSE and Q² (the report's `ci95`), on the same draws
//! (the same groups, B and seed give the same plan), for ρ between
//! observed and held-out predicted values.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_stats::bootstrap::{GroupBootstrap, Interval};

use crate::analysis::{Fit, Report};

/// ρ's 95% interval of every held-out fit of a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RhoIntervals {
    pub draws: usize,
    pub operations: IndexMap<String, Interval>,
    #[serde(rename = "macro")]
    pub macro_fit: Interval,
    /// Reward from `F`, `O`, `F+O` (none without a reward).
    pub reward: IndexMap<String, Interval>,
}

/// The ρ intervals of `report`'s fits, on its bootstrap plan (B = 0: none).
#[must_use]
pub fn rho_intervals(report: &Report) -> Option<RhoIntervals> {
    let b = report.settings.bootstrap;
    if b == 0 {
        return None;
    }
    let groups = report.folds.group_index();
    let n_groups = groups.iter().max().map_or(0, |g| g + 1);
    let plan = GroupBootstrap::new(n_groups, b, report.settings.seed);
    let of = |fit: &Fit| plan.spearman_interval(&groups, &fit.observed, &fit.predicted);
    let reward = report
        .outcome
        .as_ref()
        .map(|o| {
            [("F", &o.f), ("O", &o.o), ("F+O", &o.fo)]
                .into_iter()
                .map(|(k, fit)| (k.to_string(), of(fit)))
                .collect()
        })
        .unwrap_or_default();
    Some(RhoIntervals {
        draws: b,
        operations: report
            .operations
            .iter()
            .map(|(k, fit)| (k.clone(), of(fit)))
            .collect(),
        macro_fit: of(&report.macro_fit.fit),
        reward,
    })
}
