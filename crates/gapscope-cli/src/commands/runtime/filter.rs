//! `gapscope runtime filter`: the SFT trace validity filter (addendum §7,
//! the paper's Table 8) over a log of teacher traces: per teacher and
//! runtime, traces failing each rule, failing it alone, valid; the
//! dual-valid pair yield; every invalid trace with the evidence of its
//! verdict.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gapscope_runtime::filter::{FilterSettings, Rule, TraceVerdict};
use gapscope_runtime::{FilterRun, ScoreSource};

use super::analyze::ScoreArg;

#[derive(Args)]
pub struct FilterArgs {
    /// The log of teacher traces (JSONL; train_runtime = deploy_runtime).
    #[arg(long)]
    episodes: PathBuf,
    /// Print the JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Which score R1 reads (verified: Opaque Knapsack traces with an instance).
    #[arg(long, value_enum, default_value = "logged")]
    score: ScoreArg,
    /// R1: the smallest score kept.
    #[arg(long, default_value_t = 0.5)]
    min_score: f64,
    /// R2: the last steps a `finish` call must lie in.
    #[arg(long, default_value_t = 3)]
    finish_window: usize,
    /// R2: the tool whose call ends a trace.
    #[arg(long, default_value = "finish")]
    finish_tool: String,
    /// R3: a difflib ratio strictly above this is a loop.
    #[arg(long, default_value_t = 0.9)]
    loop_threshold: f64,
    /// R3: how many previous steps each step is compared with.
    #[arg(long, default_value_t = 4)]
    loop_window: usize,
    /// R4: the largest share of bad steps kept.
    #[arg(long, default_value_t = 0.1)]
    max_bad_density: f64,
    /// R4: text marking a cap hit in a step's error (not bad).
    #[arg(long, default_value = gapscope_runtime::DEFAULT_CAP_MESSAGE)]
    cap_message: String,
    /// R4: a tool-contract error text (a step error containing it is not
    /// bad); repeatable.
    #[arg(long)]
    contract_error: Vec<String>,
    /// Largest |logged − verified| that counts as agreement (--score verified).
    #[arg(long, default_value_t = 1e-6)]
    tolerance: f64,
}

pub fn run(args: FilterArgs) -> Result<String, String> {
    let settings = FilterSettings {
        min_score: args.min_score,
        loop_threshold: args.loop_threshold,
        loop_window: args.loop_window,
        finish_window: args.finish_window,
        max_bad_density: args.max_bad_density,
        finish_tool: args.finish_tool,
        cap_message: args.cap_message,
        contract_errors: args.contract_error,
    };
    let score = match args.score {
        ScoreArg::Logged => ScoreSource::Logged,
        ScoreArg::Verified => ScoreSource::Verified,
    };
    let shown = args.episodes.display().to_string();
    let text = crate::input::read_input_text(&args.episodes, crate::input::MAX_INPUT_BYTES)?;
    let run = gapscope_runtime::filter_log(&text, &settings, score, args.tolerance)
        .map_err(|e| format!("{shown}: {e}"))?;
    for e in run.skipped.iter().take(20) {
        eprintln!("{shown}: {e} (skipped)");
    }
    if args.json {
        serde_json::to_string_pretty(&run)
            .map(|s| s + "\n")
            .map_err(|e| format!("writing the report: {e}"))
    } else {
        Ok(text_report(&shown, &run))
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or("—".into(), |x| format!("{:.1}%", 100.0 * x))
}

/// The evidence of an invalid trace, one line.
fn evidence(t: &TraceVerdict) -> String {
    let e = &t.evidence;
    let mut parts = vec![format!(
        "score {}",
        e.score.map_or("—".into(), |s| format!("{s:.3}"))
    )];
    parts.push(match (&e.last_finish, e.finish_by_termination) {
        (Some(f), _) => format!("last finish s{} of {}", f.step, e.n),
        (None, true) => "finish by termination".into(),
        (None, false) => format!("no finish call in {} steps", e.n),
    });
    if let Some(l) = &e.first_loop {
        parts.push(format!(
            "loop s{}→s{} ratio {:.3}",
            l.k.step, l.j.step, l.ratio
        ));
    }
    parts.push(format!("bad {}/{}", e.bad_steps.len(), e.n));
    parts.join(", ")
}

/// The text form of the filter report.
pub fn text_report(shown: &str, run: &FilterRun) -> String {
    let r = &run.report;
    let mut s = format!(
        "{shown}: {} episode(s) read, {} teacher trace(s) (train = deploy runtime), {} left out (train ≠ deploy){}\n",
        run.episodes_read,
        r.traces.len(),
        r.not_teacher,
        if run.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} line(s) skipped", run.skipped.len())
        }
    );
    let st = &r.settings;
    let _ = writeln!(
        s,
        "rules: R1 score ≥ {} ({}); R2 a `{}` call in the last {} steps (else termination: finish); R3 no difflib ratio > {} within {} steps; R4 bad-error density ≤ {}",
        st.min_score,
        match run.score {
            ScoreSource::Logged => "logged",
            ScoreSource::Verified => "verified",
        },
        st.finish_tool,
        st.finish_window,
        st.loop_threshold,
        st.loop_window,
        st.max_bad_density
    );
    for w in &r.warnings {
        let _ = writeln!(s, "note: {w}");
    }
    for g in &r.groups {
        let _ = writeln!(s, "\n== {} · teacher {}", g.task_family, g.base_model);
        let _ = writeln!(
            s,
            "{:<8} {:>7} {:>13} {:>13} {:>13} {:>13} {:>9} {:>7} {:>12}",
            "runtime",
            "traces",
            "R1 (alone)",
            "R2 (alone)",
            "R3 (alone)",
            "R4 (alone)",
            "no text",
            "valid",
            "fin. by term"
        );
        for c in &g.runtimes {
            let rule = |r: Rule| format!("{} ({})", c.failures.get(r), c.alone.get(r));
            let _ = writeln!(
                s,
                "{:<8} {:>7} {:>13} {:>13} {:>13} {:>13} {:>9} {:>7} {:>12}",
                format!("{:?}", c.runtime),
                c.traces,
                rule(Rule::Score),
                rule(Rule::Finish),
                rule(Rule::Loop),
                rule(Rule::Errors),
                c.failures.get(Rule::NoText),
                c.valid,
                c.finish_by_termination
            );
        }
        let _ = writeln!(
            s,
            "pairs: {} candidate id(s) with a trace under both runtimes, {} dual-valid, yield {}",
            g.pairs.candidates,
            g.pairs.dual_valid,
            pct(g.pairs.pair_yield)
        );
    }
    let invalid: Vec<&TraceVerdict> = r.traces.iter().filter(|t| !t.verdict.is_valid()).collect();
    if !invalid.is_empty() {
        let _ = writeln!(s, "\ninvalid traces ({}):", invalid.len());
        for t in invalid.iter().take(50) {
            let rules: Vec<&str> = t.verdict.rules().iter().map(|r| r.label()).collect();
            let _ = writeln!(
                s,
                "  line {}: episode {} ({:?}): fails {}; {}",
                t.line,
                t.episode_id,
                t.runtime,
                rules.join(", "),
                evidence(t)
            );
        }
        if invalid.len() > 50 {
            let _ = writeln!(
                s,
                "  … and {} more (--json lists every trace)",
                invalid.len() - 50
            );
        }
    }
    s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}
