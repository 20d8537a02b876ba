//! The embedded example data: the synthetic profile table, the synthetic
//! trajectory corpus (its JSONL generated on first use) and the
//! evidence-to-action worked set.

/// The embedded default dataset: made by `gapscope synth` (seeded generator).
pub const EXAMPLE_CSV: &str = include_str!("../../../assets/synthetic-example.csv");
/// How the embedded dataset is labelled wherever it appears.
pub const EXAMPLE_LABEL: &str = "synthetic example";

/// The embedded synthetic trajectory corpus (`gapscope synth-trajectories`,
/// seeded; planted gaps): a foundational profile and labelled trajectories in
/// scenario groups, for the trajectory, stability and teaching views.
pub const CORPUS_FOUNDATIONAL: &str =
    include_str!("../../../assets/synthetic-trajectories/foundational.csv");
/// Its trajectories (canonical JSONL), generated on first use instead of
/// embedded (318 KB; the generator is in the worker for the teaching view
/// anyway): byte for byte the committed
/// `assets/synthetic-trajectories/trajectories.jsonl` (tests here and in
/// gapscope-synth's `synthetic_trajectories_current`).
pub fn corpus_trajectories() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        gapscope_synth::trajectories::generate(&gapscope_synth::trajectories::TrajParams::default())
            .ok()
            .and_then(|c| c.jsonl().ok())
            .unwrap_or_default()
    })
}
/// The synthetic experiments (`gapscope synth-experiments`, seeded; planted
/// effects), generated on first use: byte for byte the committed
/// `assets/synthetic-experiments/experiments.jsonl` (tested here and in
/// gapscope-synth's `experiments`).
pub fn experiments_jsonl() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        gapscope_synth::experiments::generate_experiments(
            &gapscope_synth::experiments::ExperimentParams::default(),
        )
        .ok()
        .and_then(|c| c.files("").ok())
        .and_then(|files| files.into_iter().next())
        .map(|(_, text)| text)
        .unwrap_or_default()
    })
}

/// What the generator planted (score points per model and operation, macro).
pub const CORPUS_PLANTED: &str = include_str!("../../../assets/synthetic-trajectories/planted.csv");
/// How the embedded corpus is labelled wherever it appears.
pub const CORPUS_LABEL: &str = "synthetic trajectories";

/// The embedded evidence-to-action worked set (written for gapscope; see
/// docs/evidence.md): case specs and scripted trajectories.
pub const WORKED_CASES: &str = include_str!("../../../assets/evidence/cases.jsonl");
/// Its trajectories, generated on first use instead of embedded (1.3 MB,
/// 84 KB gzipped, with the conditions of issue 20; the generator costs the
/// evidence worker less): byte for byte the committed
/// `assets/evidence/trajectories.jsonl` (tested here and in gapscope-synth's
/// `evidence_worked`).
pub fn worked_trajectories() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(gapscope_synth::evidence_worked::trajectories_jsonl)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_experiments_are_the_committed_ones() {
        assert_eq!(
            experiments_jsonl(),
            include_str!("../../../assets/synthetic-experiments/experiments.jsonl")
        );
    }

    #[test]
    fn the_generated_worked_trajectories_are_the_committed_ones() {
        assert_eq!(
            worked_trajectories(),
            include_str!("../../../assets/evidence/trajectories.jsonl")
        );
    }

    #[test]
    fn the_generated_corpus_is_the_committed_one() {
        assert_eq!(
            corpus_trajectories(),
            include_str!("../../../assets/synthetic-trajectories/trajectories.jsonl")
        );
    }
}
