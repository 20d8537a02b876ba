//! Spearman ρ intervals (inference::rho) are drawn on the report's own
//! bootstrap plan: the plan rebuilt from the report's groups, B and seed
//! gives back the report's Q² intervals, and ρ's interval is that plan's
//! (the ρ resampling itself is checked against a naive one in
//! gapscope-stats' bootstrap tests).

#![allow(clippy::unwrap_used)]

use gapscope_gaps::inference::rho::rho_intervals;
use gapscope_gaps::{analyze, Settings};
use gapscope_stats::bootstrap::GroupBootstrap;
use gapscope_synth::profiles as synth;

#[test]
fn rho_intervals_use_the_reports_draws() {
    let table = synth::generate(&Default::default()).table;
    let settings = Settings {
        bootstrap: 1_000,
        seed: 3,
        nested: false,
        ..Settings::default()
    };
    let r = analyze(&table, &settings).unwrap();
    let rho = rho_intervals(&r).unwrap();
    let groups = r.folds.group_index();
    let plan = GroupBootstrap::new(groups.iter().max().unwrap() + 1, 1_000, 3);
    for (name, fit) in &r.operations {
        let again = plan.intervals(&groups, &fit.observed, &fit.predicted, &fit.baseline);
        assert_eq!(
            again.q2.bounds(),
            fit.ci95.as_ref().unwrap().q2,
            "{name}: the same plan"
        );
        let iv = rho.operations[name];
        assert_eq!(
            iv,
            plan.spearman_interval(&groups, &fit.observed, &fit.predicted)
        );
        let [lo, hi] = iv.bounds().unwrap();
        assert!(
            lo <= hi && (-1.0..=1.0).contains(&lo) && (-1.0..=1.0).contains(&hi),
            "{name}"
        );
    }
    assert_eq!(rho.reward.keys().collect::<Vec<_>>(), ["F", "O", "F+O"]);
    let none = analyze(
        &table,
        &Settings {
            bootstrap: 0,
            ..settings
        },
    )
    .unwrap();
    assert!(rho_intervals(&none).is_none());
}
