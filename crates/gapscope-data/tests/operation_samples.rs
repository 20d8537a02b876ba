//! The per-trajectory samples behind an operation profile: the profile's
//! scores are 100 × their means, its eligible counts their lengths, its
//! pooled macro 100 × the mean of the pooled samples (on the synthetic
//! trajectory corpus, every task and the common-task subset).

#![allow(clippy::unwrap_used)]

use gapscope_data::formats::read_any;
use gapscope_data::operations::{operation_profile, operation_samples, ProfileOptions};
use gapscope_stats::summary::mean;

#[test]
fn the_profile_is_the_mean_of_its_samples() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/synthetic-trajectories/trajectories.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let corpus = read_any("trajectories.jsonl", &text, None).unwrap();
    for all_tasks in [false, true] {
        let options = ProfileOptions {
            all_tasks,
            ..Default::default()
        };
        let p = operation_profile(&corpus.trajectories, &options);
        let s = operation_samples(&corpus.trajectories, &options);
        assert_eq!(p.models, s.models);
        assert_eq!(p.operations, s.operations);
        let mut checked = 0;
        for i in 0..p.models.len() {
            for k in 0..p.operations.len() {
                assert_eq!(p.eligible[i][k], s.s[i][k].len());
                assert_eq!(p.scores[i][k], mean(&s.s[i][k]).map(|v| 100.0 * v));
                assert!(s.s[i][k].iter().all(|v| (0.0..=1.0).contains(v)));
                checked += 1;
            }
            assert_eq!(p.pooled_macro[i], mean(&s.pooled[i]).map(|v| 100.0 * v));
        }
        assert!(checked >= 15 * 7, "{checked} cells");
    }
}
