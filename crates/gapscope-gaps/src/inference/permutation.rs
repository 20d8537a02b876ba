//! Permutation tests of held-out skill (spec: "Permutation test of held-out
//! skill"): the target's defined values are permuted among the models of
//! the fit's mask (missing cells stay where they are) and the
//! family-held-out Q² recomputed — through the held-out map ŷ = H·o and
//! the per-fold training means, so no permutation refits.
//!
//! p = (1 + #{Q²_perm ≥ Q²_obs − 1e-12}) / (1 + P′), P′ the permutations
//! whose Q² is defined (the others are skipped and counted). Each target's
//! permutations start from a PRNG seeded with the analysis seed (so a
//! target's p does not depend on which other targets were tested).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use gapscope_stats::Alpha;

use nalgebra::DMatrix;

use super::heldout_map::{held_out_map, HeldOutMap};

/// A permuted Q² at least the observed one less this counts as "at least
/// as large".
pub const PERMUTATION_TIE: f64 = 1e-12;

/// Permutations whose held-out predictions are taken in one matrix product.
const PERMUTATION_BLOCK: usize = 1024;

/// How the permutations are drawn, as the report names them.
pub const PERMUTATION_PRNG: &str = "ChaCha8Rng (rand_chacha 0.9), seed_from_u64(seed) per target; Fisher–Yates from the last position, random_range(0..=i) on u32";

/// A permutation test of one target's held-out Q².
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PermutationTest {
    /// The observed held-out Q².
    pub q2: Option<f64>,
    /// `None` when the observed Q² is undefined or no permutation was run.
    pub p: Option<f64>,
    pub permutations: usize,
    /// Permutations whose Q² was undefined (not counted in p).
    pub skipped: usize,
}

/// Shuffle `v` in place: Fisher–Yates from the last position, drawing
/// `random_range(0..=i)` on `u32` (the stability split's rule).
pub fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=u32::try_from(i).unwrap_or(u32::MAX)) as usize;
        v.swap(i, j);
    }
}

/// The held-out Q² of target values `o` (in the map's row order) against
/// the fold-specific training mean; `None` when the baseline makes no error
/// or no row has a prediction.
pub fn held_out_q2(map: &HeldOutMap, groups_of_rows: &[usize], o: &[f64]) -> Option<f64> {
    q2_of(groups_of_rows, o, &map.apply(o))
}

/// Held-out Q² of `o` and its predictions `yhat` against each row's
/// training mean (the mean of `o` outside its group).
fn q2_of(groups_of_rows: &[usize], o: &[f64], yhat: &[f64]) -> Option<f64> {
    let n_groups = groups_of_rows.iter().max().map_or(0, |g| g + 1);
    let mut sum = vec![0.0; n_groups];
    let mut count = vec![0usize; n_groups];
    for (&g, &v) in groups_of_rows.iter().zip(o) {
        sum[g] += v;
        count[g] += 1;
    }
    let total: f64 = sum.iter().sum();
    let m = o.len();
    let (mut sse, mut ssb, mut used) = (0.0, 0.0, 0usize);
    for r in 0..m {
        let g = groups_of_rows[r];
        let train = m - count[g];
        if train == 0 || !yhat[r].is_finite() {
            continue;
        }
        let base = (total - sum[g]) / train as f64;
        sse += (o[r] - yhat[r]).powi(2);
        ssb += (o[r] - base).powi(2);
        used += 1;
    }
    (used > 0 && ssb > 0.0).then(|| 1.0 - sse / ssb)
}

/// The permutation test of `target` from `features` over `groups`.
pub fn q2_permutation_test(
    features: &[Vec<Option<f64>>],
    target: &[Option<f64>],
    groups: &[usize],
    alpha: Alpha,
    permutations: usize,
    seed: u64,
) -> PermutationTest {
    let map = held_out_map(features, target, groups, alpha);
    let g: Vec<usize> = map.rows.iter().map(|&i| groups[i]).collect();
    // Groups renumbered 0.. within the map (for the per-group sums).
    let mut ids: Vec<usize> = Vec::new();
    let g: Vec<usize> = g
        .iter()
        .map(|x| {
            ids.iter().position(|y| y == x).unwrap_or_else(|| {
                ids.push(*x);
                ids.len() - 1
            })
        })
        .collect();
    let mut o: Vec<f64> = map.rows.iter().filter_map(|&i| target[i]).collect();
    let observed = held_out_q2(&map, &g, &o);
    let Some(q2) = observed else {
        return PermutationTest {
            q2: None,
            p: None,
            permutations,
            skipped: 0,
        };
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut at_least, mut skipped) = (0usize, 0usize);
    let m = o.len();
    let h = map.matrix();
    // Blocks of permutations: their targets side by side, H·O in one product.
    for start in (0..permutations).step_by(PERMUTATION_BLOCK) {
        let k = PERMUTATION_BLOCK.min(permutations - start);
        let mut block = DMatrix::zeros(m, k);
        for j in 0..k {
            shuffle(&mut o, &mut rng);
            block.column_mut(j).copy_from_slice(&o);
        }
        let predicted = &h * &block;
        for j in 0..k {
            let (col, yhat) = (block.column(j), predicted.column(j));
            match q2_of(&g, col.as_slice(), yhat.as_slice()) {
                Some(v) if v >= q2 - PERMUTATION_TIE => at_least += 1,
                Some(_) => {}
                None => skipped += 1,
            }
        }
    }
    let used = permutations - skipped;
    PermutationTest {
        q2: Some(q2),
        p: (used > 0).then(|| (1 + at_least) as f64 / (1 + used) as f64),
        permutations,
        skipped,
    }
}

/// The permutation tests of every held-out fit: each operation and the
/// macro from F, reward from `F`, `O` and `F+O`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Permutations {
    pub permutations: usize,
    pub seed: u64,
    pub prng: String,
    pub operations: indexmap::IndexMap<String, PermutationTest>,
    #[serde(rename = "macro")]
    pub macro_fit: PermutationTest,
    pub reward: indexmap::IndexMap<String, PermutationTest>,
}

/// Every permutation test of `table` under `settings` (α, seed, macro
/// definition), `permutations` each.
///
/// # Errors
/// The table or settings [`crate::analyze`] rejects.
pub fn permutation_tests(
    table: &gapscope_data::profile::ProfileTable,
    settings: &crate::Settings,
    permutations: usize,
) -> Result<Permutations, crate::analysis::AnalysisError> {
    crate::analysis::check_input(table, settings)?;
    let groups =
        gapscope_stats::heldout::reference::Folds::for_models(&table.models, &table.families)
            .group_index();
    let f_rows = &table.foundational.values;
    let o_rows = &table.operations.values;
    let test = |features: &[Vec<Option<f64>>], target: &[Option<f64>]| {
        q2_permutation_test(
            features,
            target,
            &groups,
            settings.alpha,
            permutations,
            settings.seed,
        )
    };
    let operations = table
        .operations
        .names
        .iter()
        .enumerate()
        .map(|(k, name)| (name.clone(), test(f_rows, &table.operations.column(k))))
        .collect();
    let macro_target = crate::analysis::macro_target(table, settings.macro_definition)?;
    let macro_fit = test(f_rows, &macro_target);
    let mut reward = indexmap::IndexMap::new();
    if let Some(y) = &table.reward {
        let fo_rows = crate::analysis::concat_rows(f_rows, o_rows);
        for (name, rows) in [
            ("F", f_rows.as_slice()),
            ("O", o_rows.as_slice()),
            ("F+O", fo_rows.as_slice()),
        ] {
            reward.insert(name.to_string(), test(rows, y));
        }
    }
    Ok(Permutations {
        permutations,
        seed: settings.seed,
        prng: PERMUTATION_PRNG.into(),
        operations,
        macro_fit,
        reward,
    })
}

/// The permutation test of ΔQ² = Q²(F+O) − Q²(F) for reward: the rows of O
/// are permuted among the models F+O predicts (F and the reward stay), F+O
/// is refitted on each permuted design; Q²(F) is taken on the same models
/// (F's own held-out predictions and baselines, as `differences`), so it
/// does not change. `None` without a reward or when ΔQ² is undefined.
pub fn delta_q2_permutation_test(
    table: &gapscope_data::profile::ProfileTable,
    settings: &crate::Settings,
    permutations: usize,
) -> Option<PermutationTest> {
    use gapscope_stats::heldout::engine::{hold_out_each_group_at, Design};
    use gapscope_stats::heldout::reference::Metrics;
    let y = table.reward.as_ref()?;
    let groups =
        gapscope_stats::heldout::reference::Folds::for_models(&table.models, &table.families)
            .group_index();
    let f_rows = &table.foundational.values;
    let o_rows = &table.operations.values;
    let alpha = [settings.alpha];
    let fo_rows = crate::analysis::concat_rows(f_rows, o_rows);
    let covered = crate::nested::mask(&fo_rows, y);
    // Both predictors on the models F+O predicts.
    let y_common: Vec<Option<f64>> = y
        .iter()
        .zip(&covered)
        .map(|(v, &c)| if c { *v } else { None })
        .collect();
    let f_fit =
        crate::analysis::fit_targets(f_rows, std::slice::from_ref(y), &groups, &alpha).remove(0);
    let q2_f = Metrics::compute(&y_common, &f_fit.predicted[0], &f_fit.baseline).q2?;
    let q2_fo = |rows: &[Vec<Option<f64>>]| {
        let fit =
            crate::analysis::fit_targets(rows, std::slice::from_ref(y), &groups, &alpha).remove(0);
        Metrics::compute(&y_common, &fit.predicted[0], &fit.baseline).q2
    };
    let observed = q2_fo(&fo_rows)? - q2_f;
    let members: Vec<usize> = (0..covered.len()).filter(|&i| covered[i]).collect();
    // Each permutation refits F+O on the covered models (every value
    // present there): the engine's one-α Cholesky path, which agrees with
    // the report's fits to rounding (far inside the 1e-12 tie).
    let value = |v: &Option<f64>| v.unwrap_or(f64::NAN);
    let groups_c: Vec<usize> = members.iter().map(|&i| groups[i]).collect();
    let y_c: Vec<Option<f64>> = members.iter().map(|&i| y[i]).collect();
    let y_values: Vec<f64> = y_c.iter().map(value).collect();
    let q2_permuted = |rows: &[Vec<f64>]| {
        let design = Design::new(rows, &groups_c);
        let target = design.target(&y_values);
        let (predicted, baseline) = hold_out_each_group_at(&design, &target, settings.alpha);
        Metrics::compute(&y_c, &predicted, &baseline).q2
    };
    let mut order = members.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let (mut at_least, mut skipped) = (0usize, 0usize);
    let mut permuted: Vec<Vec<f64>> = members
        .iter()
        .map(|&i| f_rows[i].iter().map(value).collect())
        .collect();
    let p = f_rows.first().map_or(0, Vec::len);
    for _ in 0..permutations {
        shuffle(&mut order, &mut rng);
        for (row, &from) in permuted.iter_mut().zip(&order) {
            row.truncate(p);
            row.extend(o_rows[from].iter().map(value));
        }
        match q2_permuted(&permuted) {
            Some(v) if v - q2_f >= observed - PERMUTATION_TIE => at_least += 1,
            Some(_) => {}
            None => skipped += 1,
        }
    }
    let used = permutations - skipped;
    Some(PermutationTest {
        q2: Some(observed),
        p: (used > 0).then(|| (1 + at_least) as f64 / (1 + used) as f64),
        permutations,
        skipped,
    })
}
