//! `gapscope evidence worked`: write the worked case set to a folder.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gapscope_synth::evidence_worked as worked;

#[derive(Args)]
pub struct WorkedArgs {
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &WorkedArgs) -> Result<String, String> {
    let out = &args.out;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut written = String::new();
    for (name, text) in [
        ("cases.jsonl", worked::cases_jsonl()),
        ("trajectories.jsonl", worked::trajectories_jsonl()),
    ] {
        let path = out.join(name);
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        let _ = writeln!(
            written,
            "wrote {} ({} lines)",
            path.display(),
            text.lines().count()
        );
    }
    Ok(written)
}
