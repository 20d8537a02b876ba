//! `gapscope evidence tau2-labels`: proxy operation labels (ST, AS, RC, TM)
//! from τ²-bench results files, as a label CSV (docs/proxy-labels.md).

use std::path::PathBuf;

use clap::Args;
use gapscope_data::formats::tau2;
use gapscope_gaps::proxy_labels::{proxy_labels_of_files, summary_text, to_csv};
use gapscope_gaps::task_groups::ToolOverrides;

use super::read;

#[derive(Args)]
pub struct Tau2LabelsArgs {
    /// τ²-bench results files (tools are classed over all of them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A tasks.json for files without embedded tasks (a bare list).
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// Also print, on stderr, per file and operation: rows, labelled
    /// rows, mean label, eligible trajectories, score.
    #[arg(long)]
    summary: bool,
    /// Print every file's labels, tool classes and warnings as JSON
    /// instead of CSV.
    #[arg(long)]
    json: bool,
    /// Tools to treat as state-changing, whatever the files or the name
    /// rule say (comma-separated or repeated).
    #[arg(long, value_delimiter = ',')]
    write: Vec<String>,
    /// Tools to treat as read-only.
    #[arg(long, value_delimiter = ',')]
    read: Vec<String>,
}

pub fn run(args: Tau2LabelsArgs) -> Result<String, String> {
    let tasks = match &args.tasks {
        Some(p) => Some(tau2::read_tasks(&read(p)?).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let texts = args
        .files
        .iter()
        .map(|p| Ok((p.display().to_string(), read(p)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let refs: Vec<(String, &str)> = texts.iter().map(|(n, t)| (n.clone(), t.as_str())).collect();
    let labels = proxy_labels_of_files(
        &refs,
        tasks.as_deref(),
        ToolOverrides {
            write: args.write,
            read: args.read,
        },
    )
    .map_err(|e| e.to_string())?;
    if args.summary {
        eprint!("{}", summary_text(&labels));
    }
    if args.json {
        serde_json::to_string_pretty(&labels)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    } else {
        Ok(to_csv(&labels))
    }
}
