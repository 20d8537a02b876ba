//! [`crate::Job::Recovery`]: the teaching view's curve of how well planted
//! gaps are recovered as the number of models grows.

use crate::protocol::{Progress, RecoveryPoint};
use gapscope_synth::trajectories::{mean_recovery, TrajParams};

/// The recovery curve at 15, 50 and 200 models, mean over `seeds` seeds,
/// every fit at penalty `alpha`.
pub fn recovery_curve(
    seeds: u64,
    alpha: gapscope_stats::Alpha,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<RecoveryPoint>, String> {
    let shapes = [
        TrajParams::default(),
        TrajParams::sized(10, 5),
        TrajParams::sized(40, 5),
    ];
    let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let of = count(shapes.len() as u64 * seeds);
    let mut out = Vec::new();
    for (k, shape) in shapes.iter().enumerate() {
        let models: usize = shape.families.iter().map(|f| f.1).sum();
        let (macro_rho, operation_rho) = mean_recovery(shape, seeds, alpha, &mut |seed| {
            progress(Progress {
                label: format!("{models} models, seed {seed}"),
                step: count(k as u64 * seeds + seed + 1),
                of,
            });
        })?;
        out.push(RecoveryPoint {
            models,
            families: shape.families.len(),
            seeds,
            macro_rho,
            operation_rho,
        });
    }
    Ok(out)
}
