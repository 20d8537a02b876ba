//! `gapscope`: the command line over the analysis crates, a thin adapter. Each
//! subcommand is one file under [`commands`] (its clap arguments and its
//! run); files are read through [`ingest`] (the core's one ingestion
//! function) and [`input`] (whole-file reads with a size cap); [`output`]
//! makes text terminal-safe and writes it. Context (file names) is added to
//! core errors here, at the edge; every number comes from the core.

// The doc comments of the clap argument structs are the `--help` text, where
// `[,TOOL]` is usage syntax, not a link.
#![allow(rustdoc::broken_intra_doc_links)]

mod args;
mod commands;
mod folder;
mod ingest;
mod input;
mod output;

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "gapscope",
    version,
    about = "Capability realization gaps and agent-evaluation analyses, offline"
)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match commands::run(cli.command) {
        Ok(out) => output::write_stdout(&out),
        Err(message) => {
            // A file of another part: its command line, not the page's marker.
            let message = gapscope_data::kind::plain_message(&message);
            eprintln!("error: {}", output::term_safe(&message));
            ExitCode::FAILURE
        }
    }
}
