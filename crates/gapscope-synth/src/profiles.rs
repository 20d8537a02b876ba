//! The seeded generator of synthetic profile datasets.
//!
//! The embedded default dataset of the workbench (`assets/synthetic-example.csv`)
//! is `generate(&SynthParams::default())` written as CSV; `gapscope synth`
//! regenerates it and a test checks that the committed copy is current. It is a
//! *synthetic example*, never the paper's data.
//!
//! The generating process, in order (all draws from one ChaCha8 stream):
//! 1. per family an effect `u_f ~ N(0, family_sd)`; per model a general ability
//!    `a_i = u_f + N(0, 1)`;
//! 2. foundational `F_ij = 70 + 8 (l_j a_i + sqrt(1 - l_j²) e_ij)`, loadings
//!    `l_j ~ U(0.4, 0.9)`, clipped to [0, 100] and rounded to 0.1;
//! 3. operations `O_ik = m_k + Σ_j B_jk z_ij + gap_ik`, where z is F standardized
//!    over all models, `m_k ~ U(45, 80)`, `B_jk ~ N(0, s_k)` with a per-operation
//!    strength `s_k` (from strongly to weakly predictable), and the planted gap
//!    `gap_ik = r_i + N(0, gap_sd / 2)` with a per-model realization offset
//!    `r_i ~ N(0, gap_sd)`; clipped and rounded like F;
//! 4. reward `y_i = 55 + 1.5 (macro O_i − mean macro O) + N(0, 2)`, 0–100.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

use gapscope_data::profile::{Block, ProfileTable, DEFAULT_FOUNDATIONAL, DEFAULT_OPERATIONS};

/// Parameters of the synthetic generator.
#[derive(Clone, Debug, PartialEq)]
pub struct SynthParams {
    pub seed: u64,
    /// Family names with their number of models.
    pub families: Vec<(String, usize)>,
    pub foundational: Vec<String>,
    pub operations: Vec<String>,
    /// SD of the per-model realization offset, in score points.
    pub gap_sd: f64,
    /// SD of the family effect on general ability.
    pub family_sd: f64,
}

impl Default for SynthParams {
    /// Paper-shaped: 15 models in 8 families, the 7 + 7 default dimensions,
    /// planted gaps of a few points.
    fn default() -> Self {
        let families = [
            ("Aurora", 3),
            ("Borealis", 3),
            ("Cirrus", 2),
            ("Dorado", 2),
            ("Eridani", 2),
            ("Fornax", 1),
            ("Halcyon", 1),
            ("Izar", 1),
        ];
        SynthParams {
            seed: 0,
            families: families.iter().map(|(f, k)| (f.to_string(), *k)).collect(),
            foundational: DEFAULT_FOUNDATIONAL
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            operations: DEFAULT_OPERATIONS
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            gap_sd: 3.0,
            family_sd: 0.7,
        }
    }
}

/// The most models of a synthetic profile table.
pub const MAX_SYNTH_MODELS: u64 = 100_000;
/// The most foundational dimensions, and the most operations.
pub const MAX_SYNTH_DIMENSIONS: u64 = 1_000;
/// The most cells (models × dimensions) of a synthetic table.
pub const MAX_SYNTH_CELLS: u64 = 10_000_000;

/// Check a table's sizes before anything is allocated for it (family and
/// dimension names, the cells).
pub fn check_sizes(
    families: u64,
    per_family: u64,
    foundational: u64,
    operations: u64,
) -> Result<(), String> {
    let models = families.saturating_mul(per_family);
    if models > MAX_SYNTH_MODELS {
        return Err(format!(
            "--families × --per-family: {families} × {per_family} = {models} models exceed the limit of {MAX_SYNTH_MODELS}"
        ));
    }
    for (flag, k) in [
        ("--foundational", foundational),
        ("--operations", operations),
    ] {
        if k > MAX_SYNTH_DIMENSIONS {
            return Err(format!(
                "{flag}: {k} exceeds the limit of {MAX_SYNTH_DIMENSIONS} dimensions"
            ));
        }
    }
    let cells = models.saturating_mul(foundational + operations);
    if cells > MAX_SYNTH_CELLS {
        return Err(format!(
            "models × (--foundational + --operations): {models} × {} = {cells} cells exceed the limit of {MAX_SYNTH_CELLS}",
            foundational + operations
        ));
    }
    Ok(())
}

impl SynthParams {
    /// A dataset of `families` families of `per_family` models each, with
    /// `foundational` + `operations` dimensions: the default names when the
    /// counts are 7 and 7, otherwise `F1…`, `O1…`.
    pub fn sized(
        families: usize,
        per_family: usize,
        foundational: usize,
        operations: usize,
    ) -> Self {
        let names = |prefix: &str, k: usize, defaults: &[&str]| -> Vec<String> {
            if k == defaults.len() {
                defaults
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect()
            } else {
                (1..=k).map(|i| format!("{prefix}{i}")).collect()
            }
        };
        SynthParams {
            families: (0..families)
                .map(|f| (format!("Family {:03}", f + 1), per_family))
                .collect(),
            foundational: names("F", foundational, &DEFAULT_FOUNDATIONAL),
            operations: names("O", operations, &DEFAULT_OPERATIONS),
            ..SynthParams::default()
        }
    }
}

/// A generated dataset with the gaps that were planted in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Synthetic {
    pub table: ProfileTable,
    /// `planted[model][operation]`, in score points, before rounding.
    pub planted: Vec<Vec<f64>>,
}

const SIZE_SUFFIXES: [&str; 4] = ["Max", "Pro", "Lite", "Nano"];

fn round1(v: f64) -> f64 {
    (v.clamp(0.0, 100.0) * 10.0).round() / 10.0
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    StandardNormal.sample(rng)
}

/// Models, families, the foundational profile and its standardization over
/// all models (population SD), as both generators draw them (steps 1–2 of the
/// module documentation), from `rng` in this order.
pub(crate) struct Population {
    pub models: Vec<String>,
    pub families: Vec<String>,
    /// Foundational rows, rounded to one decimal in [0, 100].
    pub f: Vec<Vec<f64>>,
    pub z: Vec<Vec<f64>>,
}

pub(crate) fn population(
    rng: &mut ChaCha8Rng,
    family_sizes: &[(String, usize)],
    family_sd: f64,
    p: usize,
) -> Population {
    let mut models = Vec::new();
    let mut families = Vec::new();
    let mut ability = Vec::new();
    for (f, count) in family_sizes {
        let u = family_sd * normal(rng);
        for k in 0..*count {
            let suffix = SIZE_SUFFIXES
                .get(k)
                .map_or_else(|| format!("v{}", k + 1), std::string::ToString::to_string);
            models.push(format!("{f} {suffix}"));
            families.push(f.clone());
            ability.push(u + normal(rng));
        }
    }
    let n = models.len();
    let loadings: Vec<f64> = (0..p).map(|_| rng.random_range(0.4..0.9)).collect();
    let f: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..p)
                .map(|j| {
                    let l: f64 = loadings[j];
                    let e = normal(rng);
                    round1(70.0 + 8.0 * (l * ability[i] + (1.0 - l * l).sqrt() * e))
                })
                .collect()
        })
        .collect();
    // Standardize F over all models (population SD), as the analysis does per fold.
    let mut z = vec![vec![0.0; p]; n];
    for j in 0..p {
        let col: Vec<f64> = f.iter().map(|r| r[j]).collect();
        let m = col.iter().sum::<f64>() / n.max(1) as f64;
        let sd = (col.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n.max(1) as f64).sqrt();
        for i in 0..n {
            z[i][j] = if sd > 0.0 { (col[i] - m) / sd } else { 0.0 };
        }
    }
    Population {
        models,
        families,
        f,
        z,
    }
}

/// Operation scores from the standardized profile `z` with planted gaps
/// (step 3 of the module documentation): per model an offset
/// `N(0, gap_sd)`; per operation a level drawn from `levels` and loadings whose
/// strength falls from 4 to 1 points per SD across operations (so the first
/// operations are more predictable from F than the last); per cell a gap =
/// offset + `N(0, gap_sd / 2)`. Returns the scores before rounding and the
/// planted gaps.
pub(crate) fn planted_operations(
    rng: &mut ChaCha8Rng,
    z: &[Vec<f64>],
    q: usize,
    gap_sd: f64,
    levels: std::ops::Range<f64>,
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let n = z.len();
    let p = z.first().map_or(0, Vec::len);
    let offsets: Vec<f64> = (0..n).map(|_| gap_sd * normal(rng)).collect();
    let mut scores = vec![vec![0.0; q]; n];
    let mut planted = vec![vec![0.0; q]; n];
    for k in 0..q {
        let level: f64 = rng.random_range(levels.clone());
        let strength = 4.0 - 3.0 * k as f64 / (q.max(2) - 1) as f64;
        let b: Vec<f64> = (0..p).map(|_| strength * normal(rng)).collect();
        for i in 0..n {
            let signal: f64 = (0..p).map(|j| b[j] * z[i][j]).sum();
            let gap = offsets[i] + gap_sd / 2.0 * normal(rng);
            planted[i][k] = gap;
            scores[i][k] = level + signal + gap;
        }
    }
    (scores, planted)
}

/// Generate a dataset; the same parameters always give the same table.
pub fn generate(params: &SynthParams) -> Synthetic {
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let p = params.foundational.len();
    let q = params.operations.len();

    let Population {
        models,
        families,
        f,
        z,
    } = population(&mut rng, &params.families, params.family_sd, p);
    let n = models.len();
    let (raw, planted) = planted_operations(&mut rng, &z, q, params.gap_sd, 45.0..80.0);
    let o: Vec<Vec<f64>> = raw
        .iter()
        .map(|r| r.iter().map(|v| round1(*v)).collect())
        .collect();

    let macro_o: Vec<f64> = o
        .iter()
        .map(|r| r.iter().sum::<f64>() / q.max(1) as f64)
        .collect();
    let mean_macro = macro_o.iter().sum::<f64>() / n.max(1) as f64;
    let reward: Vec<Option<f64>> = macro_o
        .iter()
        .map(|m| {
            Some(round1(
                55.0 + 1.5 * (m - mean_macro) + 2.0 * normal(&mut rng),
            ))
        })
        .collect();

    let wrap = |rows: Vec<Vec<f64>>| {
        rows.into_iter()
            .map(|r| r.into_iter().map(Some).collect())
            .collect()
    };
    Synthetic {
        table: ProfileTable {
            models,
            families,
            foundational: Block {
                names: params.foundational.clone(),
                values: wrap(f),
            },
            operations: Block {
                names: params.operations.clone(),
                values: wrap(o),
            },
            reward: Some(reward),
            outcome_column: Some("reward".into()),
            reward_scaled: false,
            ignored: Vec::new(),
            pooled_macro: None,
        },
        planted,
    }
}

/// The embedded example as CSV, exactly as committed in `assets/`.
pub fn example_csv() -> String {
    let mut s = String::from(
        "# gapscope synthetic example (seeded generator, not real models): \
         regenerate with `cargo run -p gapscope-cli -- synth > assets/synthetic-example.csv`\n",
    );
    s.push_str(&generate(&SynthParams::default()).table.to_csv());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_shaped_and_deterministic() {
        let a = generate(&SynthParams::default());
        let b = generate(&SynthParams::default());
        assert_eq!(a, b);
        assert_eq!(
            a.table.summary(),
            "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
        );
        let other = generate(&SynthParams {
            seed: 1,
            ..SynthParams::default()
        });
        assert_ne!(a.table, other.table);
        // Planted gaps are "a few points".
        let all: Vec<f64> = a.planted.iter().flatten().copied().collect();
        let rms = (all.iter().map(|g| g * g).sum::<f64>() / all.len() as f64).sqrt();
        assert!((1.0..8.0).contains(&rms), "rms planted gap {rms}");
    }
}
