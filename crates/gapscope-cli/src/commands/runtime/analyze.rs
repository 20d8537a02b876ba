//! `gapscope runtime analyze`: an episode log's 2×2 table per cap with
//! intervals, runtime gaps, interaction and cap moderation, trace
//! quantities, exposure, and Opaque Knapsack verification.

use std::fmt::Write as _;

use super::{arm_label, ci, num};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use gapscope_runtime::metrics::{Contrast, Estimate, ListingCount, MeanOf};
use gapscope_runtime::{FamilyTools, RuntimeReport, RuntimeSettings, ScoreSource, SliceDim};

#[derive(Clone, Copy, ValueEnum)]
pub enum ScoreArg {
    Logged,
    Verified,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PoolArg {
    TaskFamily,
    BaseModel,
    Seed,
    Rollout,
    Batch,
    Horizon,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ListingCountArg {
    /// Recorded calls of the listing tool.
    Calls,
    /// Occurrences of `NAME(` in the logged code (a loop counts once).
    Code,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    #[arg(long)]
    episodes: PathBuf,
    /// Print the JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Bootstrap draws (0: no intervals).
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Which score Q averages.
    #[arg(long, value_enum, default_value = "logged")]
    score: ScoreArg,
    /// The binding cap of T and the amplification (default: the smallest).
    #[arg(long)]
    tight: Option<u32>,
    /// The slack cap (default: the largest); exposure is measured there.
    #[arg(long)]
    slack: Option<u32>,
    /// Pool slices over these fields (default: none).
    #[arg(long, value_enum, value_delimiter = ',')]
    pool: Vec<PoolArg>,
    /// Text marking a cap hit in a turn's error.
    #[arg(long, default_value = gapscope_runtime::DEFAULT_CAP_MESSAGE)]
    cap_message: String,
    /// Listing tools of a family, FAMILY=TOOL[,TOOL]; repeatable (replaces the default).
    #[arg(long)]
    listing_tools: Vec<String>,
    /// Inspect tools of a family, FAMILY=TOOL[,TOOL]; repeatable (replaces the default).
    #[arg(long)]
    inspect_tools: Vec<String>,
    /// Largest |logged − verified| that counts as agreement.
    #[arg(long, default_value_t = 1e-6)]
    tolerance: f64,
    /// Leave the episodes and their turns out of the JSON report.
    #[arg(long)]
    no_episodes: bool,
    /// How listing calls are counted (addendum §9).
    #[arg(long, value_enum, default_value = "calls")]
    listing_count: ListingCountArg,
    /// Further caps (≤ the slack cap) whose exposure E_c is reported, e.g. 25.
    #[arg(long, value_delimiter = ',')]
    exposure_caps: Vec<u32>,
    /// A further contrast A,B of conditions (Q_A − Q_B per cap, paired), e.g.
    /// `P->S+carry,S->S`; repeatable. Each X->Y+k is always contrasted with X->Y.
    #[arg(long)]
    contrast: Vec<String>,
    /// Leave out episodes with a generator_warning (default: kept, counted).
    #[arg(long)]
    exclude_warned: bool,
    /// A restart rate over fewer events prints "too few events (n)".
    #[arg(long, default_value_t = gapscope_runtime::MIN_EVENTS)]
    min_events: usize,
    /// The across analysis' fields (Tables 12, 21): columns are slices that
    /// differ only in them.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [PoolArg::Seed])]
    across: Vec<PoolArg>,
    /// Intersect the across analysis' common ids with these.
    #[arg(long, value_delimiter = ',')]
    common_ids: Option<Vec<String>>,
    /// Each across column on its own shared ids (stratified pooled column).
    #[arg(long)]
    own_ids: bool,
    /// The horizon sweep's cap (default: the smallest in every horizon).
    #[arg(long)]
    sweep_cap: Option<u32>,
    /// The gain curve's cap (default: the tight cap).
    #[arg(long)]
    gain_cap: Option<u32>,
    /// The gain curve's conditions (the first is the reference).
    #[arg(long, value_delimiter = ',', default_value = "P->P,P->S")]
    gain_conditions: Vec<String>,
    /// The token cost ratio's conditions, A,B (R = mean tokens A / B).
    #[arg(long, default_value = "P->S,P->P")]
    cost: String,
}

fn tools_arg(
    settings: &mut RuntimeSettings,
    specs: &[String],
    listing: bool,
) -> Result<(), String> {
    let flag = if listing {
        "--listing-tools"
    } else {
        "--inspect-tools"
    };
    for s in specs {
        let (family, list) = s
            .split_once('=')
            .ok_or_else(|| format!("{flag}: expected FAMILY=TOOL[,TOOL], got `{s}`"))?;
        let names: Vec<String> = list
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        let entry = settings
            .tools
            .entry(family.trim().to_string())
            .or_insert(FamilyTools {
                listing: Vec::new(),
                inspect: Vec::new(),
            });
        if listing {
            entry.listing = names;
        } else {
            entry.inspect = names;
        }
    }
    Ok(())
}

pub fn run(args: AnalyzeArgs) -> Result<String, String> {
    let AnalyzeArgs {
        episodes,
        json,
        bootstrap,
        seed,
        score,
        tight,
        slack,
        pool,
        cap_message,
        listing_tools,
        inspect_tools,
        tolerance,
        no_episodes,
        listing_count,
        exposure_caps,
        contrast,
        exclude_warned,
        min_events,
        across,
        common_ids,
        own_ids,
        sweep_cap,
        gain_cap,
        gain_conditions,
        cost,
    } = args;
    let cost = match cost.split_once(',') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
            [a.trim().to_string(), b.trim().to_string()]
        }
        _ => {
            return Err(format!(
                "--cost: expected A,B (e.g. P->S,P->P), got `{cost}`"
            ))
        }
    };
    let contrasts = contrast
        .iter()
        .map(|c| match c.split_once(',') {
            Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
                Ok([a.trim().to_string(), b.trim().to_string()])
            }
            _ => Err(format!(
                "--contrast: expected A,B (e.g. P->S+carry,S->S), got `{c}`"
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let dim = |p: &PoolArg| match p {
        PoolArg::TaskFamily => SliceDim::TaskFamily,
        PoolArg::BaseModel => SliceDim::BaseModel,
        PoolArg::Seed => SliceDim::Seed,
        PoolArg::Rollout => SliceDim::Rollout,
        PoolArg::Batch => SliceDim::Batch,
        PoolArg::Horizon => SliceDim::Horizon,
    };
    let mut settings = RuntimeSettings {
        bootstrap,
        seed,
        score: match score {
            ScoreArg::Logged => ScoreSource::Logged,
            ScoreArg::Verified => ScoreSource::Verified,
        },
        c_tight: tight,
        c_slack: slack,
        pool: pool.iter().map(dim).collect(),
        across: across.iter().map(dim).collect(),
        common_ids,
        own_ids,
        sweep_cap,
        gain_cap,
        gain_conditions,
        cost,
        listing_count: match listing_count {
            ListingCountArg::Calls => ListingCount::Calls,
            ListingCountArg::Code => ListingCount::Code,
        },
        exposure_caps,
        contrasts,
        exclude_warned,
        min_events,
        cap_message,
        tolerance,
        include_episodes: !no_episodes,
        ..RuntimeSettings::default()
    };
    tools_arg(&mut settings, &listing_tools, true)?;
    tools_arg(&mut settings, &inspect_tools, false)?;
    let shown = episodes.display().to_string();
    let text = crate::input::read_input_text(&episodes, crate::input::MAX_INPUT_BYTES)?;
    let report =
        gapscope_runtime::analyze(&text, &settings).map_err(|e| format!("{shown}: {e}"))?;
    for e in report.skipped.iter().take(20) {
        eprintln!("{shown}: {e} (skipped)");
    }
    if report.skipped.len() > 20 {
        eprintln!(
            "{shown}: … and {} more skipped lines",
            report.skipped.len() - 20
        );
    }
    if json {
        serde_json::to_string_pretty(&report)
            .map(|s| s + "\n")
            .map_err(|e| format!("writing the report: {e}"))
    } else {
        Ok(text_report(&shown, &report))
    }
}

fn est(e: &Estimate) -> String {
    format!(
        "{} {:<12} n={:<3}",
        num(e.value, 2, false),
        ci(e.ci95, false),
        e.n
    )
}

fn con(c: &Contrast) -> String {
    format!(
        "{:>5} {:<14} n={}",
        num(c.value, 2, true),
        ci(c.ci95, true),
        c.n_shared
    )
}

fn mean(m: &MeanOf, prec: usize) -> String {
    let v = num(m.mean, prec, false);
    if m.undefined > 0 {
        format!("{v} ({} undef.)", m.undefined)
    } else {
        v
    }
}

/// The text form of the report.
pub fn text_report(shown: &str, r: &RuntimeReport) -> String {
    let mut s = format!("{shown}: {}\n", r.summary);
    let _ = writeln!(
        s,
        "Q: mean {} score per instance, 95% bootstrap intervals ({} draws, seed {}); differences on the instance ids shared by their terms, paired",
        match r.settings.score {
            ScoreSource::Logged => "logged",
            ScoreSource::Verified => "verified",
        },
        r.settings.bootstrap,
        r.settings.seed
    );
    for w in &r.warnings {
        let _ = writeln!(s, "note: {w}");
    }
    for sl in &r.slices {
        slice_text(&mut s, sl);
        super::addendum::slice_text(&mut s, sl);
    }
    super::addendum::report_text(&mut s, r);
    verification_text(&mut s, &r.verification);
    // Padded columns leave trailing spaces.
    s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

/// One slice: the 2×2 table per cap, the gaps, the cap comparison, trace
/// quantities and exposure.
fn slice_text(s: &mut String, sl: &gapscope_runtime::SliceReport) {
    let _ = writeln!(s, "\n== {} ({} episodes)", sl.name, sl.episodes);
    for w in &sl.warnings {
        let _ = writeln!(s, "note: {w}");
    }
    let _ = writeln!(
        s,
        "{:>5}  {:<30} {:<30} {:<30} {:<30}",
        "cap", "Q P->P", "Q P->S", "Q S->P", "Q S->S"
    );
    for t in &sl.tables {
        let _ = write!(s, "{:>5}", t.cap);
        for c in &t.cells {
            let _ = write!(s, "  {:<29}", est(&c.q));
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "\n{:>5}  {:<28} {:<28} {:<28}",
        "cap", "G_P = Q_PP - Q_PS", "G_S = Q_SS - Q_SP", "D = G_P + G_S"
    );
    for t in &sl.tables {
        let _ = writeln!(
            s,
            "{:>5}  {:<28} {:<28} {:<28}",
            t.cap,
            con(&t.g_p),
            con(&t.g_s),
            con(&t.d)
        );
    }
    if let Some(c) = &sl.comparison {
        let _ = writeln!(s, "\ncap {} (tight) vs {} (slack):", c.c_tight, c.c_slack);
        for (name, x) in [
            ("cap amplification G_P", &c.amplification_p),
            ("cap amplification G_S", &c.amplification_s),
            ("cap moderation T", &c.t),
        ] {
            let _ = writeln!(s, "  {name:<22} {:<40} ({})", con(x), x.formula);
        }
    }
    // The condition column fits the longest arm (`P->S+carry_announced`).
    let w = sl
        .trace
        .iter()
        .map(|t| {
            arm_label(t.condition, t.intervention.as_deref())
                .chars()
                .count()
        })
        .max()
        .unwrap_or(0)
        .max(5);
    let _ = writeln!(
        s,
        "\ntrace quantities (per-episode means)\n{:>5} {:<w$} {:>3} {:>6} {:>6} {:>8} {:>9} {:>8} {:>8} {:>9} {:>13} {:>8} {:>7}",
        "cap", "cond", "n", "steps", "tried", "listing", "tokens", "cap-hit", "NameErr", "fin/tl/to", "restart", "distinct", "replay"
    );
    for t in &sl.trace {
        let restart = match t.restart.rate {
            Some(_) if t.restart.too_few_events => {
                format!("too few events ({})", t.restart.events)
            }
            Some(v) => format!("{v:.2} ({})", t.restart.events),
            None => format!("— ({})", t.restart.events),
        };
        let _ = writeln!(
            s,
            "{:>5} {:<w$} {:>3} {:>6} {:>6} {:>8} {:>9} {:>8} {:>8} {:>9} {:>13} {:>8} {:>7}",
            t.cap,
            arm_label(t.condition, t.intervention.as_deref()),
            t.episodes,
            mean(&t.steps, 1),
            mean(&t.attempted, 1),
            mean(&t.listing_calls, 1),
            t.tokens
                .mean
                .map_or("—".into(), |v| format!("{:.1}k", v / 1000.0)),
            mean(&t.cap_hit_share, 2),
            mean(&t.name_error_turns, 2),
            format!(
                "{}/{}/{}",
                t.termination.finish, t.termination.turn_limit, t.termination.timeout
            ),
            restart,
            mean(&t.distinct_items, 1),
            mean(&t.replay_fraction, 2)
        );
    }
    for x in &sl.exposure {
        let parts: Vec<String> = x
            .by_cap
            .iter()
            .map(|e| {
                format!(
                    "E_{} = {} ({}/{})",
                    e.cap,
                    num(e.share, 2, false),
                    e.over,
                    x.blocks
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "exposure {} (blocks at cap {}): {}",
            arm_label(x.condition, x.intervention.as_deref()),
            x.slack_cap,
            parts.join(", ")
        );
    }
}

/// The Opaque Knapsack verification and what it flagged.
fn verification_text(s: &mut String, v: &gapscope_runtime::knapsack::VerificationReport) {
    let _ = writeln!(
        s,
        "\nverification ({}): {} episodes with an instance, {} verified, {} agree (tolerance {}), {} disagree, {} flagged; {} without an instance, {} of other families; anti-collapse holds on {} of {} instances",
        v.family,
        v.checked,
        v.verified,
        v.agree,
        v.tolerance,
        v.disagreements.len(),
        v.flagged.len(),
        v.without_instance,
        v.other_families,
        v.instances.len() - v.anti_collapse_violations,
        v.instances.len()
    );
    for d in v.disagreements.iter().take(20) {
        let _ = writeln!(
            s,
            "  line {}: episode {}: logged score {} but verified {}",
            d.line,
            d.episode_id,
            d.logged,
            num(d.verified, 6, false)
        );
    }
    for f in v.flagged.iter().take(20) {
        let _ = writeln!(
            s,
            "  line {}: episode {}: {}",
            f.line,
            f.episode_id,
            f.problems.join("; ")
        );
    }
    for i in v
        .instances
        .iter()
        .filter(|i| !i.anti_collapse.holds)
        .take(20)
    {
        let _ = writeln!(
            s,
            "  instance {}: anti-collapse fails ({} items in the optimal set, largest item {} of the optimum)",
            i.instance_id,
            i.anti_collapse.optimal_items,
            num(i.anti_collapse.max_item_share, 2, false)
        );
    }
}
