//! `gapscope`: the command line over gapscope-core. Context (file names) is
//! added to core errors here, at the edge; every number comes from the core.

mod evidence;
mod input;
mod runtime;
mod trajectories;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use gapscope_core::analysis::{AlphaGrid, MacroDefinition, MAX_BOOTSTRAP};
use gapscope_core::assoc::association_sensitivity;
use gapscope_core::join::{
    join_reads, profiles_of_inputs, read_file, FileContent, InputFile, Messages, TrajectoryOptions,
};
use gapscope_core::manifest::{Input, InputKind, Manifest, Recipe, RecipeFile};
use gapscope_core::profile::RewardScale;
use gapscope_core::stability::{stability, StabilitySettings};
use gapscope_core::synth::{self, SynthParams};
use gapscope_core::tau2;
use gapscope_core::trajectory::{
    operation_profile, parse_rename, readers_declined, Corpus, MacroFromLabels, ProfileOptions,
};
use gapscope_core::{analyze, Alpha, ProfileTable, Report, RoleOverrides, Settings};

#[derive(Parser)]
#[command(
    name = "gapscope",
    version,
    about = "Capability realization gaps and agent-evaluation analyses, offline"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Scale {
    Auto,
    Fraction,
    Percent,
}

#[derive(Subcommand)]
enum Tau2Command {
    /// Re-check every recorded action check with τ²-bench's own rule, and report
    /// simulations whose recorded actions belong to another task than their task_id.
    Check {
        /// Results files (object with info/tasks/simulations, or a bare list).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A tasks.json for files without embedded tasks.
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// Print JSON (one report per file) instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum MacroArg {
    Mean,
    Pooled,
}

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Analyse a profile table: correlations, family-held-out ridge, gaps, Q².
    Report {
        /// Profile file(s): wide CSV or JSON (see docs/formats.md). Several
        /// files (repeat the flag, or separate with commas) are joined on `model`.
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
        /// Print the JSON report (docs/report.md) instead of text.
        #[arg(long)]
        json: bool,
        /// Also write a reproducibility manifest (input SHA-256, settings, version) here.
        #[arg(long)]
        manifest: Option<PathBuf>,
    },
    /// Operation profiles from labelled trajectories (canonical JSONL), as CSV
    /// (model, family, operations, their eligible counts n_OP, reward) or JSON.
    Profiles {
        /// Trajectory files: canonical JSONL, τ²-bench results files, or
        /// Inspect AI logs (`.eval` or `.json`).
        #[arg(long, required = true, value_delimiter = ',')]
        trajectories: Vec<PathBuf>,
        /// A label CSV: trajectory_id,operation,requirement,label[,turn].
        #[arg(long)]
        labels: Option<PathBuf>,
        /// Use every task, not only the tasks every model attempted.
        #[arg(long)]
        all_tasks: bool,
        /// Macro definition: mean (of operation scores) or pooled (of all labels).
        #[arg(long = "macro", value_enum, default_value = "mean")]
        macro_definition: MacroArg,
        /// Name every trajectory's model so (file metadata can be wrong; a bare
        /// τ²-bench list has none).
        #[arg(long)]
        model: Option<String>,
        /// Rename (or, with one new name for several, merge) models: OLD=NEW; repeatable.
        #[arg(long)]
        rename: Vec<String>,
        /// Inspect AI logs: the score that becomes the reward, SCORER or
        /// SCORER:KEY (default: the header's first scorer; a dict's first key).
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
        /// Print JSON (scores, eligible counts, tasks used) instead of CSV.
        #[arg(long)]
        json: bool,
    },
    /// Cross-task stability of the gaps: split the scenario groups into two
    /// halves, compute gaps in each, and correlate them across models.
    Stability {
        /// The foundational profile file (families come from it).
        #[arg(long)]
        profiles: PathBuf,
        /// Labelled trajectories with scenario_group (canonical JSONL).
        #[arg(long, required = true, value_delimiter = ',')]
        trajectories: Vec<PathBuf>,
        #[arg(long, default_value_t = 10.0)]
        alpha: f64,
        /// Bootstrap draws (groups resampled within each half).
        #[arg(long, default_value_t = gapscope_core::stability::DEFAULT_STABILITY_BOOTSTRAP)]
        bootstrap: usize,
        /// Macro gap: mean (of the operation scores) or pooled (of all labels).
        #[arg(long = "macro", value_enum, default_value = "mean")]
        macro_definition: MacroArg,
        /// The domain (task set) of trajectory files that name none (a bare
        /// τ²-bench list, canonical lines without `domain`); tasks are
        /// (domain, task id), so airline `32` is not retail `32`.
        #[arg(long)]
        domain: Option<String>,
        /// Keep trajectories read twice (the same file under two names, a run
        /// as `.eval` and `.json`): by default they count once, with a warning.
        #[arg(long)]
        keep_repeats: bool,
        /// Seed of the primary split and of the bootstrap.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Further seeded splits (seeds 1..=N) for partition sensitivity.
        #[arg(long, default_value_t = 20)]
        splits: u64,
        /// Groups of half A, by hand (the others form half B).
        #[arg(long, value_delimiter = ',')]
        half_a: Option<Vec<String>>,
        /// Derive groups from task ids with this regular expression (first
        /// capture group, else the whole match), e.g. '^\[(\w+)\]'.
        #[arg(long)]
        group_regex: Option<String>,
        /// Where groups come from: `field` (scenario_group, or --group-regex)
        /// or `gold-actions` (τ²-bench gold-action signatures).
        #[arg(long, value_enum, default_value = "field")]
        groups: trajectories::GroupsArg,
        /// With --groups gold-actions: a τ²-bench tasks.json (for files
        /// without embedded tasks, and for canonical JSONL trajectories).
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// With --groups gold-actions: tools to count as state-changing.
        #[arg(long, value_delimiter = ',')]
        write_tools: Vec<String>,
        /// With --groups gold-actions: tools to count as read-only.
        #[arg(long, value_delimiter = ',')]
        read_tools: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Evidence to action: score trajectories against case specs (docs/evidence.md).
    Evidence {
        #[command(subcommand)]
        command: evidence::EvidenceCommand,
    },
    /// τ²-bench results files.
    Tau2 {
        #[command(subcommand)]
        command: Tau2Command,
    },
    /// Runtime contracts (persistent vs stateless CodeAct): analyse episode
    /// logs, or simulate them with scripted policies.
    Runtime {
        #[command(subcommand)]
        command: runtime::RuntimeCommand,
    },
    /// Write a synthetic profile table as CSV (the defaults give the embedded example).
    Synth {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of families (default: the example's 8 families of 1–3 models).
        #[arg(long, requires = "per_family")]
        families: Option<usize>,
        /// Models per family (with --families).
        #[arg(long, requires = "families")]
        per_family: Option<usize>,
        /// Foundational dimensions.
        #[arg(long, default_value_t = 7)]
        foundational: usize,
        /// Operations.
        #[arg(long, default_value_t = 7)]
        operations: usize,
    },
    /// Write a synthetic trajectory corpus with planted gaps (and optional
    /// planted instability): foundational.csv, trajectories.jsonl, planted.csv.
    SynthTrajectories {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of families (default: the paper's 15 models in 8 families).
        #[arg(long, requires = "per_family")]
        families: Option<usize>,
        /// Models per family (with --families).
        #[arg(long, requires = "families")]
        per_family: Option<usize>,
        #[arg(long, default_value_t = 60)]
        tasks: usize,
        /// Scenario groups (task t in group t mod groups).
        #[arg(long, default_value_t = 12)]
        groups: usize,
        /// Attempts per model and task.
        #[arg(long, default_value_t = 1)]
        trials: usize,
        /// SD (score points) of a per-model, per-group deviation (0: none).
        #[arg(long, default_value_t = 0.0)]
        instability: f64,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(out) => {
            use std::io::Write;
            // `print!` panics when the reader has gone (`gapscope … | head`):
            // a closed pipe ends the output quietly instead.
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: writing the output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(message) => {
            eprintln!("error: {}", term_safe(&message));
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<String, String> {
    match command {
        Command::Report {
            profiles,
            trajectories,
            labels,
            rename,
            all_tasks,
            macro_definition,
            scorer,
            domain,
            keep_repeats,
            alpha,
            bootstrap,
            seed,
            grid,
            no_nested,
            pair,
            provider,
            foundational,
            operations,
            outcome,
            no_outcome,
            reward_scale,
            json,
            manifest,
        } => {
            let alpha = Alpha::new(alpha).map_err(|e| format!("--alpha: {e}"))?;
            if alpha.get() < gapscope_core::analysis::MIN_ALPHA {
                return Err(format!(
                    "--alpha: {}",
                    gapscope_core::analysis::SettingsError::AlphaTooSmall(alpha.get())
                ));
            }
            let points = grid[2];
            if points.fract() != 0.0 || points < 0.0 {
                return Err(format!(
                    "--grid: the number of points must be a whole number, got {points}"
                ));
            }
            let grid = AlphaGrid::new(grid[0], grid[1], points as usize)
                .map_err(|e| format!("--grid: {e}"))?;
            if bootstrap > MAX_BOOTSTRAP {
                return Err(format!(
                    "--bootstrap: at most {MAX_BOOTSTRAP} draws, got {bootstrap}"
                ));
            }
            let settings = Settings {
                alpha,
                bootstrap,
                seed,
                grid,
                nested: !no_nested,
                macro_definition: match macro_definition {
                    MacroArg::Mean => MacroDefinition::Mean,
                    MacroArg::Pooled => MacroDefinition::Pooled,
                },
            };
            let overrides = RoleOverrides {
                foundational,
                operations,
                outcome,
                no_outcome,
                reward_scale: match reward_scale {
                    Scale::Auto => RewardScale::Auto,
                    Scale::Fraction => RewardScale::Fraction,
                    Scale::Percent => RewardScale::Percent,
                },
            };
            if !labels.is_empty() && trajectories.is_empty() {
                return Err("--labels needs --trajectories".into());
            }
            let options = TrajectoryOptions {
                renames: rename
                    .iter()
                    .map(|r| parse_rename(r).map_err(|e| format!("--rename: {e}")))
                    .collect::<Result<_, _>>()?,
                all_tasks,
                score: match scorer.as_deref() {
                    Some(s) => gapscope_core::inspect::ScoreChoice::parse(s)
                        .map_err(|e| format!("--scorer: {e}"))?,
                    None => Default::default(),
                },
                domain,
                keep_repeats,
                model: None,
            };
            // Profiles, trajectories and labels go through the one reader the
            // page uses (join::read_profiles_with).
            let mut paths = profiles.clone();
            paths.extend(trajectories.iter().cloned());
            paths.extend(labels.iter().cloned());
            let (table, files) = read_files(&paths, &overrides, &options)?;
            let shown = profiles
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
            if let Some(pair) = pair {
                let (f, o) = pair.split_once(':').ok_or_else(|| {
                    format!("--pair: expected FOUNDATIONAL:OPERATION (e.g. CE:RC), got `{pair}`")
                })?;
                report.association_sensitivity = Some(
                    association_sensitivity(&table, f, o, provider.as_deref())
                        .map_err(|e| format!("--pair: {e}"))?,
                );
            }
            if let Some(path) = manifest {
                let inputs = files.clone();
                let base = |p: &PathBuf| {
                    p.file_name().map_or_else(
                        || p.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    )
                };
                let mut recipe_files = Vec::new();
                for (list, kind) in [
                    (&profiles, InputKind::Profiles),
                    (&trajectories, InputKind::Trajectories),
                    (&labels, InputKind::Labels),
                ] {
                    recipe_files.extend(list.iter().map(|p| RecipeFile {
                        name: base(p),
                        kind,
                        written_by: None,
                    }));
                }
                let recipe = Recipe {
                    files: recipe_files,
                    roles: overrides.clone(),
                    trajectories: options.clone(),
                    pair: report.association_sensitivity.as_ref().map(|a| {
                        (
                            a.foundational.clone(),
                            a.operation.clone(),
                            provider.clone(),
                        )
                    }),
                };
                let m = Manifest::with_recipe(inputs, report.settings.clone(), recipe);
                let text = serde_json::to_string_pretty(&m)
                    .map_err(|e| format!("writing the manifest: {e}"))?;
                std::fs::write(&path, text + "\n")
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            if json {
                let mut s = serde_json::to_string_pretty(&report)
                    .map_err(|e| format!("writing the report: {e}"))?;
                s.push('\n');
                Ok(s)
            } else {
                Ok(term_safe(&text_report(&shown, &report)))
            }
        }
        Command::Profiles {
            trajectories,
            labels,
            all_tasks,
            macro_definition,
            model,
            rename,
            scorer,
            domain,
            keep_repeats,
            json,
        } => {
            let options = TrajectoryOptions {
                renames: parse_renames(&rename)?,
                all_tasks,
                score: parse_scorer(scorer.as_deref())?,
                domain,
                keep_repeats,
                model,
            };
            let corpus = read_corpus(&trajectories, labels.as_deref(), &options)?;
            let options = ProfileOptions {
                all_tasks,
                macro_definition: match macro_definition {
                    MacroArg::Mean => MacroFromLabels::Mean,
                    MacroArg::Pooled => MacroFromLabels::Pooled,
                },
                operations: None,
            };
            let p = operation_profile(&corpus.trajectories, &options);
            eprintln!(
                "{} trajectories of {} models read; {} on the {} {} used",
                p.n_total,
                p.models.len(),
                p.n_used,
                p.tasks.len(),
                if p.common_tasks_only {
                    "tasks every model attempted"
                } else {
                    "tasks"
                }
            );
            if json {
                serde_json::to_string_pretty(&p)
                    .map(|s| s + "\n")
                    .map_err(|e| e.to_string())
            } else {
                Ok(p.to_csv())
            }
        }
        Command::Stability {
            profiles,
            trajectories,
            alpha,
            bootstrap,
            macro_definition,
            domain,
            keep_repeats,
            seed,
            splits,
            half_a,
            group_regex,
            groups,
            tasks,
            write_tools,
            read_tools,
            json,
        } => {
            let alpha = Alpha::new(alpha).map_err(|e| format!("--alpha: {e}"))?;
            let (f, _) = read_files(
                std::slice::from_ref(&profiles),
                &RoleOverrides::default(),
                &TrajectoryOptions::default(),
            )?;
            let mut corpus = read_corpus(
                &trajectories,
                None,
                &TrajectoryOptions {
                    domain,
                    keep_repeats,
                    ..TrajectoryOptions::default()
                },
            )?;
            if groups == trajectories::GroupsArg::GoldActions {
                if group_regex.is_some() {
                    return Err("--group-regex and --groups gold-actions: give one".into());
                }
                trajectories::gold_action_corpus(
                    &trajectories,
                    tasks.as_deref(),
                    write_tools,
                    read_tools,
                    &mut corpus,
                )?;
            }
            let settings = StabilitySettings {
                alpha,
                bootstrap,
                seed,
                splits,
                half_a,
                group_regex,
                macro_definition: match macro_definition {
                    MacroArg::Mean => MacroDefinition::Mean,
                    MacroArg::Pooled => MacroDefinition::Pooled,
                },
            };
            let r = stability(&f, &corpus.trajectories, &settings).map_err(|e| e.to_string())?;
            if json {
                return serde_json::to_string_pretty(&r)
                    .map(|s| s + "\n")
                    .map_err(|e| e.to_string());
            }
            let mut out = format!(
                "half A: {} ({} tasks); half B: {} ({} tasks); seed {}, {} bootstrap draws\n{:<8} {:>7}  {:<18} {:>7}  {:<16}\n",
                r.half_a.join(", "),
                r.tasks_a,
                r.half_b.join(", "),
                r.tasks_b,
                r.seed,
                r.bootstrap,
                "gap",
                "rho",
                "95% interval",
                "median",
                format!("range over {} splits ({} distinct)", r.splits, r.distinct_splits)
            );
            for (name, st) in &r.stability {
                out.push_str(&format!(
                    "{name:<8} {}  {:<18} {}  {}\n",
                    fmt_opt(st.rho, 7, 3),
                    fmt_ci(st.ci95, 3),
                    fmt_opt(st.median, 7, 3),
                    fmt_ci(st.range, 3)
                ));
            }
            Ok(term_safe(&out))
        }
        Command::Evidence { command } => evidence::run(command),
        Command::Tau2 {
            command: Tau2Command::Check { files, tasks, json },
        } => {
            let tasks = match &tasks {
                Some(p) => {
                    let text = input::read_input_text(p, input::MAX_INPUT_BYTES)?;
                    Some(tau2::read_tasks(&text).map_err(|e| format!("{}: {e}", p.display()))?)
                }
                None => None,
            };
            let mut out = String::new();
            let mut reports = Vec::new();
            let mut all = Vec::new();
            let (mut n, mut m) = (0, 0);
            for path in &files {
                let text = input::read_input_text(path, input::MAX_INPUT_BYTES)?;
                // Message contents are not needed: skipped, never built.
                let results = tau2::read_results_light(&text)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                drop(text);
                let r = tau2::check(&results, tasks.as_deref());
                n += r.reproduced;
                m += r.checks;
                out.push_str(&format!(
                    "{}: {} simulations ({}), {}/{} recorded action checks reproduced",
                    path.display(),
                    r.simulations,
                    tau2::model_name(&results).unwrap_or_else(|| "no model in the file".into()),
                    r.reproduced,
                    r.checks
                ));
                if r.compared_with_tasks > 0 {
                    out.push_str(&format!(
                        "; recorded actions vs the {}: {} of {} simulations differ from the task their task_id names",
                        r.task_source,
                        r.mislabelled.len(),
                        r.compared_with_tasks
                    ));
                } else {
                    out.push_str("; no tasks to compare the recorded actions with (give --tasks)");
                }
                out.push('\n');
                for d in &r.disagreements {
                    out.push_str(&format!(
                        "  simulation {}: the rule disagrees with the recorded check of `{}`\n",
                        d.0, d.1
                    ));
                }
                for ml in r.mislabelled.iter().take(5) {
                    out.push_str(&format!(
                        "  simulation {} (task_id {}): recorded actions {}\n",
                        ml.simulation,
                        ml.task_id,
                        if ml.equals_tasks.is_empty() {
                            "match no task".to_string()
                        } else {
                            format!(
                                "equal those of task {}{}",
                                ml.equals_tasks.join(", "),
                                match ml.equals_tasks_total.saturating_sub(ml.equals_tasks.len()) {
                                    0 => String::new(),
                                    more => format!(" and {more} more"),
                                }
                            )
                        }
                    ));
                }
                if r.mislabelled.len() > 5 {
                    out.push_str(&format!("  … and {} more\n", r.mislabelled.len() - 5));
                }
                reports.push((path.display().to_string(), r));
                all.push((path.display().to_string(), results));
            }
            if json {
                let v: Vec<serde_json::Value> = reports
                    .iter()
                    .map(|(f, r)| serde_json::json!({"file": f, "report": r}))
                    .collect();
                let body = serde_json::json!({"files": v, "reproduced": n, "checks": m});
                serde_json::to_string_pretty(&body)
                    .map(|s| s + "\n")
                    .map_err(|e| e.to_string())
            } else {
                let refs: Vec<(String, &tau2::Results<_>)> =
                    all.iter().map(|(f, r)| (f.clone(), r)).collect();
                for w in tau2::task_set_warnings(&refs) {
                    out.push_str(&format!("warning: {w}\n"));
                }
                out.push_str(&format!("{n}/{m} recorded action checks reproduced\n"));
                Ok(term_safe(&out))
            }
        }
        Command::SynthTrajectories {
            seed,
            families,
            per_family,
            tasks,
            groups,
            trials,
            instability,
            out,
        } => trajectories::synth_trajectories(
            seed,
            families,
            per_family,
            tasks,
            groups,
            trials,
            instability,
            &out,
        ),
        Command::Runtime { command } => runtime::run(command),
        Command::Synth {
            seed,
            families,
            per_family,
            foundational,
            operations,
        } => {
            // Sizes first: `sized` builds the names before anything else.
            synth::check_sizes(
                families.unwrap_or(8) as u64,
                per_family.unwrap_or(3) as u64,
                foundational as u64,
                operations as u64,
            )?;
            let mut params = match (families, per_family) {
                (Some(f), Some(k)) => SynthParams::sized(f, k, foundational, operations),
                _ => SynthParams::sized(0, 0, foundational, operations),
            };
            if families.is_none() {
                params.families = SynthParams::default().families;
            }
            params.seed = seed;
            Ok(if params == SynthParams::default() {
                synth::example_csv()
            } else {
                synth::generate(&params).table.to_csv()
            })
        }
    }
}

/// Read trajectory files (malformed lines reported on stderr and skipped) and
/// apply a label CSV, through the one ingestion path the page uses
/// (`join::read_file` per file, then `join::join_reads`). A file given as
/// trajectories that is not one is an error naming why each reader declined.
fn read_corpus(
    paths: &[PathBuf],
    labels: Option<&std::path::Path>,
    options: &TrajectoryOptions,
) -> Result<Corpus, String> {
    let mut reads = Vec::new();
    for path in paths.iter().map(PathBuf::as_path).chain(labels) {
        let name = path.display().to_string();
        let is_labels = labels == Some(path);
        // Streamed: canonical JSONL is parsed line by line as it is read
        // (never held whole); other formats are read whole by the core.
        let mut stream = input::Stream::open(path, input::MAX_INPUT_BYTES)?;
        let read = read_file(
            InputFile::Stream(name.clone(), stream.reader()),
            options,
            &Messages::Counts,
            false,
        )
        .map_err(|e| stream.explain(e))?;
        match (&read.content, is_labels) {
            (FileContent::Trajectories(c), false) => {
                for e in c.skipped.iter().take(20) {
                    eprintln!("{}", term_safe(&format!("{name}: {e} (skipped)")));
                }
                if c.skipped.len() > 20 {
                    eprintln!("{name}: … and {} more skipped lines", c.skipped.len() - 20);
                }
                if !c.skipped.is_empty() {
                    eprintln!(
                        "{name}: {} line(s) skipped, {} trajectories read",
                        c.skipped.len(),
                        c.trajectories.len()
                    );
                }
                for e in &c.notes {
                    eprintln!("{}", term_safe(&format!("{name}: {e}")));
                }
            }
            (FileContent::Labels(_), true) => {}
            (_, true) => {
                return Err(format!(
                    "{name}: not a label CSV (expected the columns trajectory_id,operation,requirement,label)"
                ))
            }
            // Read whole (not JSONL) and recognized by no trajectory reader:
            // why each reader declined it.
            (FileContent::Text(text) | FileContent::Labels(text), false) => {
                return Err(format!(
                    "{name}: no trajectory could be read; each reader declined it: {}",
                    readers_declined(text.as_bytes()).join("; ")
                ))
            }
        }
        reads.push(read);
    }
    let inputs = join_reads(reads, options).map_err(|e| e.to_string())?;
    for n in &inputs.notes {
        // Skipped lines and unknown call ids are said per line above.
        if !n.contains("malformed line(s) skipped") && !n.contains("answer no earlier tool call") {
            eprintln!("note: {}", term_safe(n));
        }
    }
    Ok(inputs.corpus)
}

fn parse_renames(renames: &[String]) -> Result<Vec<(String, String)>, String> {
    renames
        .iter()
        .map(|r| parse_rename(r).map_err(|e| format!("--rename: {e}")))
        .collect()
}

fn parse_scorer(scorer: Option<&str>) -> Result<gapscope_core::inspect::ScoreChoice, String> {
    match scorer {
        Some(s) => {
            gapscope_core::inspect::ScoreChoice::parse(s).map_err(|e| format!("--scorer: {e}"))
        }
        None => Ok(Default::default()),
    }
}

/// Read the files and join them (one file: read as it is). Returns the table
/// and each file's name (its base name), size and SHA-256 for the manifest,
/// hashed as the file is streamed (canonical JSONL is parsed line by line,
/// never held whole); join notes go to stderr.
fn read_files(
    paths: &[PathBuf],
    overrides: &RoleOverrides,
    options: &TrajectoryOptions,
) -> Result<(ProfileTable, Vec<Input>), String> {
    let mut inputs = Vec::new();
    for path in paths {
        let mut stream = input::Stream::open(path, input::MAX_INPUT_BYTES)?;
        let name = path.display().to_string();
        let read = read_file(
            InputFile::Stream(name, stream.reader()),
            options,
            &Messages::Counts,
            true,
        )
        .map_err(|e| stream.explain(e))?;
        inputs.push(read);
    }
    let mut inputs = join_reads(inputs, options).map_err(|e| e.to_string())?;
    // The manifest names files by their base name.
    let digests = std::mem::take(&mut inputs.digests)
        .into_iter()
        .zip(paths)
        .map(|(d, path)| Input {
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            ..d
        })
        .collect();
    let (table, join) =
        profiles_of_inputs(inputs, overrides, options).map_err(|e| e.to_string())?;
    for s in join.sentences() {
        eprintln!("note: {}", term_safe(&s));
    }
    Ok((table, digests))
}

/// The widest the name column of a text table gets.
const MAX_NAME_WIDTH: usize = 40;

/// Text for a terminal: control characters (ESC and the other C0 controls
/// but line feed and tab, DEL, the C1 controls) are shown escaped (`\u{1b}`)
/// instead of being sent to the terminal, which would act on them.
fn term_safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn fmt_opt(v: Option<f64>, width: usize, prec: usize) -> String {
    match v {
        Some(x) => format!("{x:>width$.prec$}"),
        None => format!("{:>width$}", "—"),
    }
}

fn fmt_ci(ci: Option<[f64; 2]>, prec: usize) -> String {
    match ci {
        Some([lo, hi]) => format!("[{lo:.prec$}, {hi:.prec$}]"),
        None => String::new(),
    }
}

fn text_report(shown: &str, r: &Report) -> String {
    use std::fmt::Write as _;
    let mut s = format!("{shown}: {}\n", r.summary);
    let _ = writeln!(
        s,
        "held out by {} (alpha = {}; {} bootstrap draws, seed {})",
        match r.folds.kind {
            gapscope_core::crossval::FoldKind::Family => "family",
            gapscope_core::crossval::FoldKind::Model => "model (leave-one-model-out)",
        },
        r.settings.alpha,
        r.settings.bootstrap,
        r.settings.seed
    );
    for w in &r.warnings {
        let _ = writeln!(s, "note: {w}");
    }
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
    if let Some(o) = &r.outcome {
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
    if let Some(d) = &r.differences {
        for (name, diff) in d {
            let _ = write!(
                s,
                "Q²({}) − Q²({}) = {} {} (on {} model{}",
                name.split(" - ").next().unwrap_or(name),
                name.split(" - ").nth(1).unwrap_or(""),
                fmt_opt(diff.q2, 0, 3),
                fmt_ci(diff.ci95.as_ref().and_then(|c| c.q2), 3),
                diff.n,
                gapscope_core::profile::plural(diff.n)
            );
            if diff.excluded.is_empty() {
                let _ = writeln!(s, ")");
            } else {
                let _ = writeln!(s, " both predict; left out: {})", diff.excluded.join(", "));
            }
        }
    }
    if let Some(a) = &r.association_sensitivity {
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
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

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

    #[test]
    fn control_characters_are_escaped_for_the_terminal() {
        assert_eq!(
            term_safe("a\u{1b}[31mb\u{9b}c\u{7f}\n\td"),
            "a\\u{1b}[31mb\\u{9b}c\\u{7f}\n\td"
        );
    }
}
