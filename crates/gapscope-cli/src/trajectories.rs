//! CLI helpers for trajectory corpora added in issue 5: scenario groups from
//! τ²-bench gold-action signatures (`gapscope stability --groups
//! gold-actions`) and synthetic corpora (`gapscope synth-trajectories`).

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use gapscope_core::task_groups::{assign_groups, gold_action_groups, ToolOverrides};
use gapscope_core::tau2;
use gapscope_core::trajectory::{detect, Corpus, TrajectoryFormat};

use crate::input::{read_input_text, InputError, MAX_INPUT_BYTES};

/// Where the scenario groups of `gapscope stability` come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GroupsArg {
    /// Each trajectory's `scenario_group` (or --group-regex over task ids).
    Field,
    /// Each task's τ²-bench gold-action signature: the set of state-changing
    /// tools among its gold actions.
    GoldActions,
}

/// Replace every trajectory's group by its task's gold-action signature.
/// Gold actions come from the τ²-bench results files among `paths` (embedded
/// tasks, else `tasks`, else their recorded action checks) or, for other
/// trajectory files, from `tasks` alone. The tool classification and the
/// groups are printed on standard error (the user checks and edits them with
/// `--write-tools` / `--read-tools`).
pub fn gold_action_corpus(
    paths: &[PathBuf],
    tasks: Option<&Path>,
    write: Vec<String>,
    read: Vec<String>,
    corpus: &mut Corpus,
) -> Result<(), String> {
    let tasks = match tasks {
        Some(p) => {
            let text = read_input_text(p, MAX_INPUT_BYTES)?;
            let t = tau2::read_tasks(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            Some((p.display().to_string(), t))
        }
        None => None,
    };
    let mut files = Vec::new();
    for p in paths {
        let text = match read_input_text(p, MAX_INPUT_BYTES) {
            Ok(text) => text,
            Err(InputError::NotUtf8 { .. }) => continue, // binary (an Inspect .eval): no gold actions
            Err(e) => return Err(e.into()),
        };
        if detect(&text) == Some(TrajectoryFormat::Tau2) {
            let r = tau2::read_results(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            files.push((p.display().to_string(), r));
        }
    }
    let refs: Vec<(String, &tau2::Results)> = files.iter().map(|(n, r)| (n.clone(), r)).collect();
    let groups = gold_action_groups(
        &refs,
        tasks.as_ref().map(|(n, t)| (n.as_str(), t.as_slice())),
        &ToolOverrides { write, read },
    )
    .map_err(|e| format!("--groups gold-actions: {e}"))?;
    for line in groups.describe() {
        eprintln!("note: {line}");
    }
    corpus.trajectories = assign_groups(&corpus.trajectories, &groups)
        .map_err(|e| format!("--groups gold-actions: {e}"))?;
    Ok(())
}

/// `gapscope synth-trajectories`: write a synthetic corpus with planted
/// effects to `out` (created if needed); returns a one-line summary.
#[allow(clippy::too_many_arguments)]
pub fn synth_trajectories(
    seed: u64,
    families: Option<usize>,
    per_family: Option<usize>,
    tasks: usize,
    groups: usize,
    trials: usize,
    instability: f64,
    out: &Path,
) -> Result<String, String> {
    use gapscope_core::synth_traj::{check_sizes, generate, TrajParams};
    // Sizes first: `sized` builds the family names, so a huge count aborted
    // allocating before `generate` validated anything.
    let (f, k) = match (families, per_family) {
        (Some(f), Some(k)) => (f as u64, k as u64),
        _ => (15, 1),
    };
    check_sizes(f, k, tasks as u64, trials as u64)?;
    let base = match (families, per_family) {
        (Some(f), Some(k)) => TrajParams::sized(f, k),
        _ => TrajParams::default(),
    };
    let params = TrajParams {
        seed,
        tasks,
        groups,
        trials,
        instability,
        ..base
    };
    let corpus = generate(&params)?;
    let mut command = format!("gapscope synth-trajectories --seed {seed}");
    if let (Some(f), Some(k)) = (families, per_family) {
        command.push_str(&format!(" --families {f} --per-family {k}"));
    }
    command.push_str(&format!(
        " --tasks {tasks} --groups {groups} --trials {trials} --instability {instability}"
    ));
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let files = corpus.files(&command).map_err(|e| e.to_string())?;
    for (name, text) in &files {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(format!(
        "{} trajectories of {} models in {} families ({} tasks in {} groups, {} trial(s), instability {}) written to {}: {}\n",
        corpus.trajectories.len(),
        corpus.foundational.n_models(),
        params.families.len(),
        tasks,
        groups,
        trials,
        instability,
        out.display(),
        files
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
