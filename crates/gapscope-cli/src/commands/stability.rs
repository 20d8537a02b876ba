//! `gapscope stability`: cross-task stability of the gaps, with scenario
//! groups from the trajectories' field, a regular expression over task ids,
//! or τ²-bench gold-action signatures.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use gapscope_data::formats::tau2;
use gapscope_data::formats::{detect, Corpus, TrajectoryFormat};
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::RoleOverrides;
use gapscope_gaps::stability::{stability, StabilitySettings};
use gapscope_gaps::task_groups::{assign_groups, gold_action_groups, ToolOverrides};
use gapscope_stats::Alpha;

use crate::args::MacroArg;
use crate::ingest;
use crate::input::{read_input_text, InputError, MAX_INPUT_BYTES};
use crate::output::{fmt_ci, fmt_opt, term_safe};

#[derive(Args)]
pub struct StabilityArgs {
    /// The foundational profile file (families come from it).
    #[arg(long)]
    profiles: PathBuf,
    /// The profile file is a long table (one row per model and dimension)
    /// with these columns, model=M,dimension=D,score=S[,family=F] (a key
    /// left out keeps its name; `model[,family],dimension,score` needs no flag).
    #[arg(long, value_name = "COLUMNS")]
    long: Option<String>,
    /// Labelled trajectories with scenario_group (canonical JSONL).
    #[arg(long, required = true, value_delimiter = ',')]
    trajectories: Vec<PathBuf>,
    #[arg(long, default_value_t = 10.0)]
    alpha: f64,
    /// Bootstrap draws (groups resampled within each half).
    #[arg(long, default_value_t = gapscope_gaps::stability::DEFAULT_STABILITY_BOOTSTRAP)]
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
    groups: GroupsArg,
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
}

/// Where the scenario groups of `gapscope stability` come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GroupsArg {
    /// Each trajectory's `scenario_group` (or --group-regex over task ids).
    Field,
    /// Each task's τ²-bench gold-action signature: the set of state-changing
    /// tools among its gold actions.
    GoldActions,
}

pub fn run(args: StabilityArgs) -> Result<String, String> {
    let alpha = Alpha::new(args.alpha).map_err(|e| format!("--alpha: {e}"))?;
    let (f, _) = ingest::read_profiles(
        std::slice::from_ref(&args.profiles),
        &RoleOverrides {
            long: crate::args::parse_long(args.long.as_deref())?,
            ..RoleOverrides::default()
        },
        &TrajectoryOptions::default(),
        &[],
    )?;
    let mut corpus = ingest::read_corpus(
        &args.trajectories,
        None,
        None,
        &TrajectoryOptions {
            domain: args.domain,
            keep_repeats: args.keep_repeats,
            ..TrajectoryOptions::default()
        },
    )?;
    if args.groups == GroupsArg::GoldActions {
        if args.group_regex.is_some() {
            return Err("--group-regex and --groups gold-actions: give one".into());
        }
        gold_action_corpus(
            &args.trajectories,
            args.tasks.as_deref(),
            args.write_tools,
            args.read_tools,
            &mut corpus,
        )?;
    }
    let settings = StabilitySettings {
        alpha,
        bootstrap: args.bootstrap,
        seed: args.seed,
        splits: args.splits,
        half_a: args.half_a,
        group_regex: args.group_regex,
        macro_definition: args.macro_definition.to_definition(),
    };
    let r = stability(&f, &corpus.trajectories, &settings).map_err(|e| e.to_string())?;
    if args.json {
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
        let _ = writeln!(
            out,
            "{name:<8} {}  {:<18} {}  {}",
            fmt_opt(st.rho, 7, 3),
            fmt_ci(st.ci95, 3),
            fmt_opt(st.median, 7, 3),
            fmt_ci(st.range, 3)
        );
    }
    Ok(term_safe(&out))
}

/// Replace every trajectory's group by its task's gold-action signature.
/// Gold actions come from the τ²-bench results files among `paths` (embedded
/// tasks, else `tasks`, else their recorded action checks) or, for other
/// trajectory files, from `tasks` alone. The tool classification and the
/// groups are printed on standard error (the user checks and edits them with
/// `--write-tools` / `--read-tools`).
fn gold_action_corpus(
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
