//! `gapscope profiles`: the operation profile of labelled trajectories, as
//! CSV or JSON.

use std::path::PathBuf;

use clap::Args;
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::operations::{operation_profile, ProfileOptions};

use crate::args::{parse_renames, parse_scorer, MacroArg};
use crate::ingest;

#[derive(Args)]
pub struct ProfilesArgs {
    /// Trajectory files: canonical JSONL, τ²-bench results files,
    /// Inspect AI logs (`.eval` or `.json`), Claude Code or Codex sessions,
    /// … (docs/formats.md).
    #[arg(long, required = true, value_delimiter = ',')]
    trajectories: Vec<PathBuf>,
    /// A label CSV: trajectory_id,operation,requirement,label[,turn].
    #[arg(long)]
    labels: Option<PathBuf>,
    /// An outcomes CSV: trajectory_id,task_id,reward[,domain] — the task and
    /// reward of trajectories whose files have none (Claude Code, Codex).
    #[arg(long)]
    outcomes: Option<PathBuf>,
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
}

pub fn run(args: ProfilesArgs) -> Result<String, String> {
    let options = TrajectoryOptions {
        renames: parse_renames(&args.rename)?,
        all_tasks: args.all_tasks,
        score: parse_scorer(args.scorer.as_deref())?,
        domain: args.domain,
        keep_repeats: args.keep_repeats,
        model: args.model,
    };
    let corpus = ingest::read_corpus(
        &args.trajectories,
        args.labels.as_deref(),
        args.outcomes.as_deref(),
        &options,
    )?;
    let options = ProfileOptions {
        all_tasks: args.all_tasks,
        macro_definition: args.macro_definition.to_definition(),
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
    if args.json {
        serde_json::to_string_pretty(&p)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    } else {
        Ok(p.to_csv())
    }
}
