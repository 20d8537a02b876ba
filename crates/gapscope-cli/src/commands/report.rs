//! `gapscope report`: analyse a profile table (joined, if need be, with
//! other profile files and the operation profile of trajectories).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::RoleOverrides;
use gapscope_gaps::analysis::{AlphaGrid, MAX_BOOTSTRAP};
use gapscope_gaps::assoc::association_sensitivity;
use gapscope_gaps::manifest::{Input, InputKind, Manifest, Recipe, RecipeFile};
use gapscope_gaps::{analyze, Report, Settings};
use gapscope_stats::Alpha;

use crate::args::{parse_long, parse_renames, parse_scorer, MacroArg, Scale};
use crate::ingest;
use crate::output::{fmt_ci, fmt_opt, term_safe};

#[derive(Args)]
pub struct ReportArgs {
    /// Profile file(s): wide CSV, long CSV (`model[,family],dimension,score`)
    /// or JSON (see docs/formats.md). Several files (repeat the flag, or
    /// separate with commas) are joined on `model`.
    #[arg(long, required = true, value_delimiter = ',')]
    profiles: Vec<PathBuf>,
    /// Labelled trajectories (canonical JSONL): their operation profile and
    /// reward are joined with --profiles on `model` (common tasks, mean macro).
    #[arg(long, value_delimiter = ',')]
    trajectories: Vec<PathBuf>,
    /// With --trajectories: label CSVs (trajectory_id,operation,requirement,label);
    /// repeat the flag for several.
    #[arg(long)]
    labels: Vec<PathBuf>,
    /// With --trajectories: outcomes CSVs (trajectory_id,task_id,reward[,domain]),
    /// the task and reward of trajectories whose files have none (Claude
    /// Code, Codex); repeat the flag for several.
    #[arg(long)]
    outcomes: Vec<PathBuf>,
    /// With --trajectories: rename or merge models, OLD=NEW; repeatable.
    #[arg(long)]
    rename: Vec<String>,
    /// With --trajectories: use every task, not only those every model attempted.
    #[arg(long)]
    all_tasks: bool,
    /// Macro operation score: mean (of the operation scores) or pooled (of
    /// all labels of each trajectory; needs --trajectories with labels).
    #[arg(long = "macro", value_enum, default_value = "mean")]
    macro_definition: MacroArg,
    /// With Inspect AI logs among --trajectories: the score that becomes
    /// the reward, SCORER or SCORER:KEY (default: the header's first scorer).
    #[arg(long)]
    scorer: Option<String>,
    /// The domain (task set) of trajectory files that name none (a bare
    /// τ²-bench list, canonical lines without `domain`); tasks are
    /// (domain, task id), so airline `32` is not retail `32`.
    #[arg(long)]
    domain: Option<String>,
    /// Keep trajectories read twice (the same file under two names, a run
    /// as `.eval` and `.json`): by default they count once, with a warning.
    #[arg(long)]
    keep_repeats: bool,
    /// Ridge penalty (> 0).
    #[arg(long, default_value_t = 10.0)]
    alpha: f64,
    /// Family-bootstrap draws for 95% intervals (0: none).
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    /// Seed of the bootstrap PRNG.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Penalty grid of the sensitivity analysis: LO,HI,POINTS (log-spaced).
    #[arg(long, value_delimiter = ',', num_args = 3, default_values_t = [0.01, 10000.0, 25.0])]
    grid: Vec<f64>,
    /// Skip nested penalty selection.
    #[arg(long)]
    no_nested: bool,
    /// Association sensitivity for one pair, FOUNDATIONAL:OPERATION (e.g. CE:RC).
    #[arg(long)]
    pair: Option<String>,
    /// With --pair: the family (provider) to report removed on its own line.
    #[arg(long, requires = "pair")]
    provider: Option<String>,
    /// Foundational columns, replacing the default names (TU,IS,KU,CI,RE,SM,CE).
    #[arg(long, value_delimiter = ',')]
    foundational: Option<Vec<String>>,
    /// Operation columns, replacing the default names (GI,ST,PL,AS,PM,RC,TM).
    #[arg(long, value_delimiter = ',')]
    operations: Option<Vec<String>>,
    /// Outcome column (default: `reward`).
    #[arg(long, conflicts_with = "no_outcome")]
    outcome: Option<String>,
    /// Read no outcome, even if a column is named `reward`.
    #[arg(long)]
    no_outcome: bool,
    /// How reward values are scaled to 0–100.
    #[arg(long, value_enum, default_value = "auto")]
    reward_scale: Scale,
    /// Long tables (one row per model and dimension) with these columns,
    /// model=M,dimension=D,score=S[,family=F]: the profile files that have
    /// them (a key left out keeps its name; `model[,family],dimension,score`
    /// needs no flag).
    #[arg(long, value_name = "COLUMNS")]
    long: Option<String>,
    /// Print the JSON report (docs/report.md) instead of text.
    #[arg(long)]
    json: bool,
    /// With --json: add `inference` (docs/report.md): correlation p-values
    /// and intervals, ρ intervals, nested selection of every predictor,
    /// operation penalty curves, coefficients, family means, permutation
    /// p-values, and — with trajectories — per-model gap intervals.
    #[arg(long, requires = "json")]
    inference: bool,
    /// Permutations per held-out Q² test of --inference (0: none).
    #[arg(long, default_value_t = gapscope_gaps::inference::DEFAULT_PERMUTATIONS, value_name = "P")]
    permutations: usize,
    /// Permutations of the ΔQ²(F+O − F) test of --inference (0: none; each refits F+O).
    #[arg(long, default_value_t = gapscope_gaps::inference::DEFAULT_DELTA_PERMUTATIONS, value_name = "P")]
    delta_permutations: usize,
    /// Also write a reproducibility manifest (input SHA-256, settings, version) here.
    #[arg(long)]
    manifest: Option<PathBuf>,
}

/// The analysis settings the flags give, validated.
fn settings(args: &ReportArgs) -> Result<Settings, String> {
    let alpha = Alpha::new(args.alpha).map_err(|e| format!("--alpha: {e}"))?;
    if alpha.get() < gapscope_gaps::analysis::MIN_ALPHA {
        return Err(format!(
            "--alpha: {}",
            gapscope_gaps::analysis::SettingsError::AlphaTooSmall(alpha.get())
        ));
    }
    let grid = &args.grid;
    let points = grid[2];
    if points.fract() != 0.0 || points < 0.0 {
        return Err(format!(
            "--grid: the number of points must be a whole number, got {points}"
        ));
    }
    let grid =
        AlphaGrid::new(grid[0], grid[1], points as usize).map_err(|e| format!("--grid: {e}"))?;
    let bootstrap = args.bootstrap;
    if bootstrap > MAX_BOOTSTRAP {
        return Err(format!(
            "--bootstrap: at most {MAX_BOOTSTRAP} draws, got {bootstrap}"
        ));
    }
    Ok(Settings {
        alpha,
        bootstrap,
        seed: args.seed,
        grid,
        nested: !args.no_nested,
        macro_definition: args.macro_definition.to_definition(),
    })
}

pub fn run(args: &ReportArgs) -> Result<String, String> {
    let settings = settings(args)?;
    let overrides = RoleOverrides {
        foundational: args.foundational.clone(),
        operations: args.operations.clone(),
        outcome: args.outcome.clone(),
        no_outcome: args.no_outcome,
        reward_scale: args.reward_scale.reward_scale(),
        long: parse_long(args.long.as_deref())?,
    };
    if !args.labels.is_empty() && args.trajectories.is_empty() {
        return Err("--labels needs --trajectories".into());
    }
    if !args.outcomes.is_empty() && args.trajectories.is_empty() {
        return Err("--outcomes needs --trajectories".into());
    }
    let options = TrajectoryOptions {
        renames: parse_renames(&args.rename)?,
        all_tasks: args.all_tasks,
        score: parse_scorer(args.scorer.as_deref())?,
        domain: args.domain.clone(),
        keep_repeats: args.keep_repeats,
        model: None,
    };
    // Profiles, trajectories and labels go through the one ingestion
    // function the page uses.
    let mut paths = args.profiles.clone();
    paths.extend(args.trajectories.iter().cloned());
    paths.extend(args.outcomes.iter().cloned());
    paths.extend(args.labels.iter().cloned());
    let (table, files, samples) =
        ingest::read_profiles_and_samples(&paths, &overrides, &options, &args.outcomes)?;
    let shown = args
        .profiles
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    let mut report = analyze(&table, &settings).map_err(|e| format!("{shown}: {e}"))?;
    if files.len() > 1 {
        report.summary = format!(
            "{} (joined on model from {} files)",
            report.summary,
            files.len()
        );
    }
    if let Some(pair) = &args.pair {
        let (f, o) = pair.split_once(':').ok_or_else(|| {
            format!("--pair: expected FOUNDATIONAL:OPERATION (e.g. CE:RC), got `{pair}`")
        })?;
        report.association_sensitivity = Some(
            association_sensitivity(&table, f, o, args.provider.as_deref())
                .map_err(|e| format!("--pair: {e}"))?,
        );
    }
    if let Some(path) = &args.manifest {
        write_manifest(path, args, files, &report, overrides, options)?;
    }
    if args.json {
        let mut s = if args.inference {
            let inference = gapscope_gaps::inference::infer(
                &table,
                &settings,
                &report,
                samples.as_ref(),
                args.permutations,
                args.delta_permutations,
            )
            .map_err(|e| format!("{shown}: {e}"))?;
            serde_json::to_string_pretty(&WithInference {
                report: &report,
                inference,
            })
        } else {
            serde_json::to_string_pretty(&report)
        }
        .map_err(|e| format!("writing the report: {e}"))?;
        s.push('\n');
        Ok(s)
    } else {
        Ok(term_safe(&text_report(&shown, &report)))
    }
}

/// The report with its `inference` (the report's keys first, as without).
#[derive(serde::Serialize)]
struct WithInference<'a> {
    #[serde(flatten)]
    report: &'a gapscope_gaps::Report,
    inference: gapscope_gaps::inference::Inference,
}

/// The file's base name (the manifest names files so).
fn base(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// `--manifest`: the inputs' digests, the settings and the recipe that
/// repeats the run, written to `path`.
fn write_manifest(
    path: &Path,
    args: &ReportArgs,
    inputs: Vec<Input>,
    report: &Report,
    roles: RoleOverrides,
    trajectories: TrajectoryOptions,
) -> Result<(), String> {
    let mut recipe_files = Vec::new();
    for (list, kind) in [
        (&args.profiles, InputKind::Profiles),
        (&args.trajectories, InputKind::Trajectories),
        (&args.labels, InputKind::Labels),
        (&args.outcomes, InputKind::Outcomes),
    ] {
        recipe_files.extend(list.iter().map(|p| RecipeFile {
            name: base(p),
            kind,
            written_by: None,
        }));
    }
    let recipe = Recipe {
        files: recipe_files,
        roles,
        trajectories,
        pair: report.association_sensitivity.as_ref().map(|a| {
            (
                a.foundational.clone(),
                a.operation.clone(),
                args.provider.clone(),
            )
        }),
    };
    let m = Manifest::with_recipe(inputs, report.settings.clone(), recipe);
    let text =
        serde_json::to_string_pretty(&m).map_err(|e| format!("writing the manifest: {e}"))?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

/// The widest the name column of a text table gets.
const MAX_NAME_WIDTH: usize = 40;

/// The report as text.
fn text_report(shown: &str, r: &Report) -> String {
    let mut s = format!("{shown}: {}\n", r.summary);
    let _ = writeln!(
        s,
        "held out by {} (alpha = {}; {} bootstrap draws, seed {})",
        match r.folds.kind {
            gapscope_stats::heldout::reference::FoldKind::Family => "family",
            gapscope_stats::heldout::reference::FoldKind::Model => "model (leave-one-model-out)",
        },
        r.settings.alpha,
        r.settings.bootstrap,
        r.settings.seed
    );
    for w in &r.warnings {
        let _ = writeln!(s, "note: {w}");
    }
    gaps_text(&mut s, r);
    outcome_text(&mut s, r);
    differences_text(&mut s, r);
    association_text(&mut s, r);
    s
}

/// The gaps table (a row per model, then Q²) and the macro fit.
fn gaps_text(s: &mut String, r: &Report) {
    // Capped: a longer name overflows its column (a format width above
    // u16::MAX panics, and a 4 KiB-wide column helps nobody).
    let width = r
        .models
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, MAX_NAME_WIDTH);
    let _ = write!(
        s,
        "\nrealization gaps (observed − held-out prediction)\n{:width$}",
        "model"
    );
    for op in r.operations.keys() {
        let _ = write!(s, " {op:>7}");
    }
    let _ = writeln!(s, " {:>7}", "macro");
    for (i, m) in r.models.iter().enumerate() {
        let _ = write!(s, "{m:width$}");
        for fit in r.operations.values() {
            let _ = write!(s, " {}", fmt_opt(fit.gap[i], 7, 2));
        }
        let _ = writeln!(s, " {}", fmt_opt(r.macro_fit.fit.gap[i], 7, 2));
    }
    let _ = write!(s, "{:width$}", "Q²");
    for fit in r.operations.values() {
        let _ = write!(s, " {}", fmt_opt(fit.q2, 7, 3));
    }
    let _ = writeln!(s, " {}", fmt_opt(r.macro_fit.fit.q2, 7, 3));
    let m = &r.macro_fit.fit;
    let _ = writeln!(
        s,
        "\nmacro ({}): MAE {} vs baseline {}, Q² {} {}",
        r.macro_fit.definition,
        fmt_opt(m.mae, 0, 2),
        fmt_opt(m.baseline_mae, 0, 2),
        fmt_opt(m.q2, 0, 3),
        fmt_ci(m.ci95.as_ref().and_then(|c| c.q2), 3)
    );
}

/// The reward prediction table, when the table has an outcome.
fn outcome_text(s: &mut String, r: &Report) {
    let Some(o) = &r.outcome else {
        return;
    };
    let _ = writeln!(
        s,
        "\nreward prediction        rho     MAE    RMSE      Q²     n   Q² 95% interval"
    );
    let _ = writeln!(
        s,
        "training-mean baseline     – {} {} {} {:>5}",
        fmt_opt(o.baseline.mae, 7, 2),
        fmt_opt(o.baseline.rmse, 7, 2),
        fmt_opt(o.baseline.q2, 7, 3),
        o.observed.iter().flatten().count()
    );
    for (name, fit) in [("F", &o.f), ("O", &o.o), ("F+O", &o.fo)] {
        let _ = writeln!(
            s,
            "{name:<22} {} {} {} {} {:>5}   {}",
            fmt_opt(fit.spearman, 5, 3),
            fmt_opt(fit.mae, 7, 2),
            fmt_opt(fit.rmse, 7, 2),
            fmt_opt(fit.q2, 7, 3),
            fit.n,
            fmt_ci(fit.ci95.as_ref().and_then(|c| c.q2), 3)
        );
    }
    if let Some(n) = &o.nested {
        let chosen: Vec<String> = n
            .chosen_alpha
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            s,
            "nested (F+O)           {} {} {} {} {:>5}   alphas: {}",
            fmt_opt(n.spearman, 5, 3),
            fmt_opt(n.mae, 7, 2),
            fmt_opt(n.rmse, 7, 2),
            fmt_opt(n.q2, 7, 3),
            n.predicted.iter().flatten().count(),
            chosen.join(", ")
        );
    }
}

/// The paired Q² differences, when computed.
fn differences_text(s: &mut String, r: &Report) {
    let Some(d) = &r.differences else {
        return;
    };
    for (name, diff) in d {
        let _ = write!(
            s,
            "Q²({}) − Q²({}) = {} {} (on {} model{}",
            name.split(" - ").next().unwrap_or(name),
            name.split(" - ").nth(1).unwrap_or(""),
            fmt_opt(diff.q2, 0, 3),
            fmt_ci(diff.ci95.as_ref().and_then(|c| c.q2), 3),
            diff.n,
            gapscope_data::profile::plural(diff.n)
        );
        if diff.excluded.is_empty() {
            let _ = writeln!(s, ")");
        } else {
            let _ = writeln!(s, " both predict; left out: {})", diff.excluded.join(", "));
        }
    }
}

/// `--pair`: the association under each specification.
fn association_text(s: &mut String, r: &Report) {
    let Some(a) = &r.association_sensitivity else {
        return;
    };
    let _ = writeln!(
        s,
        "\nassociation sensitivity, {} × {}",
        a.foundational, a.operation
    );
    let mut specs = vec![&a.all];
    specs.extend(&a.provider_removed);
    specs.push(&a.family_centred);
    specs.extend(&a.family_removed);
    for sp in specs {
        let _ = writeln!(
            s,
            "  {:<28} r {}  rho {}  (n = {})",
            sp.label,
            fmt_opt(sp.pearson, 6, 3),
            fmt_opt(sp.spearman, 6, 3),
            sp.n
        );
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use gapscope_data::ProfileTable;

    /// A name of 64 KiB (from trajectories, which the profile readers' 4 KiB
    /// limit does not see) panicked in the width of the name column.
    #[test]
    fn a_64_kib_model_name_prints_without_panicking() {
        let mut t = ProfileTable::read(
            "model,family,TU,GI,reward\nm1,A,1,2,30\nm2,B,2,3,40\nm3,C,3,1,50\n",
            &RoleOverrides::default(),
        )
        .unwrap();
        t.models[1] = "n".repeat(64 * 1024);
        let settings = Settings {
            bootstrap: 0,
            nested: false,
            ..Settings::default()
        };
        let r = analyze(&t, &settings).unwrap();
        let text = text_report("x.csv", &r);
        assert!(text.contains(&t.models[1]));
        assert!(text.contains("\nm1                                       "));
    }
}
