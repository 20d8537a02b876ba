//! [`crate::Job::Analyze`] and [`crate::Job::Import`]: the realization-gap
//! analysis of a request's files (profile tables, or trajectories and their
//! operation profile, joined on `model`), with the trajectory overview from
//! the same read for an import. A single gapscope JSON report is re-imported:
//! its input analysed again with its own settings.

use crate::assets::{CORPUS_LABEL, EXAMPLE_LABEL};
use crate::attached::{attach, input_files, Attached};
use crate::protocol::{Analysis, OverviewResult, Pair, Progress, Request, Response, Source};
use gapscope_data::ingest::{
    profiles_of_inputs, read_inputs_from, FileContent, InputFile, Inputs, Messages,
};
use gapscope_data::join::JoinReport;
use gapscope_data::ProfileTable;
use gapscope_gaps::analysis::{analyze_with_progress, STAGES};
use gapscope_gaps::assoc::association_sensitivity;
use gapscope_gaps::manifest::{shell_quote, Input, Manifest, Recipe};
use gapscope_gaps::overview::overview_of_inputs;
use gapscope_gaps::reimport::{compare as compare_reports, Comparison};
use gapscope_gaps::{Report, Settings};
use gapscope_stats::Alpha;

/// Run one request. Errors are prefixed with the file name.
///
/// A gapscope JSON report (as exported by the page or written by
/// `gapscope report --json`) is re-imported: its `input` table is analysed again
/// with its own settings, and any difference from the stored numbers is said.
pub fn handle(request: &Request) -> Response {
    handle_with_progress(request, &mut |_| {})
}

/// [`handle`], telling `progress` before reading the files and before each
/// stage of the analysis.
pub fn handle_with_progress(request: &Request, progress: &mut dyn FnMut(Progress)) -> Response {
    handle_attached(request, &[], progress)
}

/// [`handle_with_progress`] for a request whose files' bytes are attached.
pub fn handle_attached(
    request: &Request,
    attached: &[(String, Vec<u8>)],
    progress: &mut dyn FnMut(Progress),
) -> Response {
    import(request, attach(attached), false, progress).0
}

/// The analysis of a request and, when `with_overview`, the overview of its
/// trajectory files, from one read of the files (they are parsed once; the
/// page's import job). The overview is `None` when not asked for.
pub fn import(
    request: &Request,
    attached: Vec<Attached>,
    with_overview: bool,
    progress: &mut dyn FnMut(Progress),
) -> (Response, Option<OverviewResult>) {
    let mut overview_out = None;
    let analysis = analyze_files(
        request,
        attached,
        with_overview.then_some(&mut overview_out),
        progress,
    );
    if with_overview && overview_out.is_none() {
        // The files could not be read: the overview fails the same way.
        overview_out = Some(match &analysis {
            Err(e) => Err(e.clone()),
            // A re-imported report has no trajectories.
            Ok(_) => Ok(None),
        });
    }
    (analysis, overview_out)
}

/// What an analysis runs on, once its files are read (or its report
/// re-imported).
struct Prepared {
    table: ProfileTable,
    settings: Settings,
    pair: Option<Pair>,
    join: Option<JoinReport>,
    digests: Vec<Input>,
    /// The manifest's command (none for a re-imported report).
    recipe: Option<Recipe>,
}

fn analyze_files(
    request: &Request,
    attached: Vec<Attached>,
    overview_out: Option<&mut Option<OverviewResult>>,
    progress: &mut dyn FnMut(Progress),
) -> Response {
    let of = u32::try_from(STAGES.len()).map_or(u32::MAX, |n| n + 1);
    let Opened {
        imported,
        files,
        synthetic,
        name,
    } = open(request, attached)?;
    let n_files = files.len();
    let Prepared {
        table,
        settings,
        pair,
        join,
        digests,
        recipe,
    } = if let Some(old) = &imported {
        reimported(old, &name, &files)?
    } else {
        let settings = request_settings(request)?;
        progress(Progress {
            label: format!(
                "reading {} file{}",
                n_files,
                gapscope_data::profile::plural(n_files)
            ),
            step: 1,
            of,
        });
        read_profiles(request, settings, files, overview_out)?
    };
    let mut report = analyze_with_progress(&table, &settings, &mut |stage| {
        progress(Progress {
            label: stage.label.to_string(),
            step: stage.step + 1,
            of,
        });
    })
    .map_err(|e| format!("{name}: {e}"))?;
    if n_files > 1 {
        report.summary = format!(
            "{} (joined on model from {} files)",
            report.summary, n_files
        );
    }
    if let Some(j) = &join {
        for s in j.sentences().into_iter().rev() {
            report.warnings.insert(0, s);
        }
    }
    // A pair chosen for another dataset must not stop this one's analysis.
    if let Some(p) = &pair {
        match association_sensitivity(&table, &p.foundational, &p.operation, p.provider.as_deref())
        {
            Ok(a) => report.association_sensitivity = Some(a),
            Err(e) => report
                .warnings
                .push(format!("association sensitivity: {e}")),
        }
    }
    // A re-imported report is compared with its recomputation, number by number.
    let reimport = imported.as_ref().map(|old| {
        let c = compare_reports(old, &report);
        report
            .warnings
            .push(reimport_sentence(&name, old, &report, &c));
        c
    });
    let manifest = match recipe {
        Some(mut recipe) => {
            recipe.pair = pair.as_ref().map(|p| {
                (
                    p.foundational.clone(),
                    p.operation.clone(),
                    p.provider.clone(),
                )
            });
            Manifest::with_recipe(digests, report.settings.clone(), recipe)
        }
        None => Manifest::new(digests, report.settings.clone()),
    };
    Ok(Analysis {
        source: name,
        synthetic,
        report,
        imported: imported.is_some(),
        reimport,
        // The join report is shown only when several files were joined.
        join: join.filter(|_| n_files > 1),
        manifest,
    })
}

/// A request's files as a job on them opens them.
pub(super) struct Opened<'a> {
    /// A single file that is a gapscope report (re-imported with its settings).
    pub(super) imported: Option<Report>,
    pub(super) files: Vec<InputFile<'a>>,
    /// Built-in synthetic data.
    pub(super) synthetic: bool,
    /// How messages name the files.
    pub(super) name: String,
}

/// Open `request`'s files: a single gapscope report among them is read
/// whole, the rest are handed on as they are.
pub(super) fn open(request: &Request, attached: Vec<Attached>) -> Result<Opened<'_>, String> {
    let (imported, attached) = match <[Attached; 1]>::try_from(attached) {
        Ok([one]) => {
            let (report, one) = report_or_file(one)?;
            (report, vec![one])
        }
        Err(many) => (None, many),
    };
    let (files, synthetic) = input_files(&request.source, attached)?;
    let name = match request.source {
        Source::Corpus => CORPUS_LABEL.to_string(),
        _ => files
            .iter()
            .map(InputFile::name)
            .collect::<Vec<_>>()
            .join(" + "),
    };
    Ok(Opened {
        imported,
        files,
        synthetic,
        name,
    })
}

/// A re-imported report's settings, validated (`name`: its file, for the message).
pub(super) fn report_settings(old: &Report, name: &str) -> Result<Settings, String> {
    old.settings
        .to_settings()
        .map_err(|e| format!("{name}: settings of the report: {e}"))
}

/// A re-imported report: its input table, its settings and its pair.
fn reimported(old: &Report, name: &str, files: &[InputFile<'_>]) -> Result<Prepared, String> {
    let settings = report_settings(old, name)?;
    let pair = old.association_sensitivity.as_ref().map(|a| Pair {
        foundational: a.foundational.clone(),
        operation: a.operation.clone(),
        provider: a
            .provider_removed
            .as_ref()
            .map(|p| p.label.trim_start_matches("without ").to_string()),
    });
    // A file read ahead has no digest yet (a digests job follows).
    let mut digests = Vec::new();
    if let [InputFile::Bytes(n, b)] = files {
        digests.push(Input::new(n, b));
    }
    Ok(Prepared {
        table: old.input.clone(),
        settings,
        pair,
        join: None,
        digests,
        recipe: None,
    })
}

/// Profile tables, or trajectories (their operation profile), joined on
/// model; each file read once, hashed for the manifest as it is (files read
/// ahead have no digest: a digests job follows). The overview, when asked
/// for, from the same read.
fn read_profiles(
    request: &Request,
    settings: Settings,
    files: Vec<InputFile<'_>>,
    overview_out: Option<&mut Option<OverviewResult>>,
) -> Result<Prepared, String> {
    let mut inputs = read_inputs_from(files, &request.trajectories, &Messages::Counts, true)
        .map_err(|e| e.to_string())?;
    let digests = std::mem::take(&mut inputs.digests);
    let recipe = Some(recipe_of(request, &inputs));
    if let Some(out) = overview_out {
        *out = Some(Ok(overview_of_inputs(&inputs, &request.trajectories)));
    }
    let (table, join) = profiles_of_inputs(inputs, &request.roles, &request.trajectories)
        .map_err(|e| e.to_string())?;
    Ok(Prepared {
        table,
        settings,
        pair: request.pair.clone(),
        join: Some(join),
        digests,
        recipe,
    })
}

/// What a re-imported report's recomputation says about the file's numbers.
fn reimport_sentence(name: &str, old: &Report, report: &Report, c: &Comparison) -> String {
    if c.agrees() {
        format!(
            "{name}: a gapscope {} report, recomputed from its input with its settings: {}",
            old.version,
            c.sentence(0)
        )
    } else {
        format!(
            "{name}: a gapscope {} report, recomputed from its input with its settings by gapscope {}: {}; the recomputed numbers are shown (every difference: the Data view)",
            old.version,
            report.version,
            c.sentence(3)
        )
    }
}

/// What the manifest's command is made of: the files by kind, under the
/// names they have in the folder the command runs in (built-in data and
/// derived labels written first by the commands that make them), and every
/// setting that changes a number.
fn recipe_of(request: &Request, inputs: &Inputs) -> Recipe {
    const EXAMPLE_FILE: &str = "synthetic-example.csv";
    const CORPUS_DIR: &str = "synthetic-trajectories";
    let corpus_prefix = format!("{CORPUS_LABEL}: ");
    let tau2_files: Vec<String> = inputs
        .trajectory_files
        .iter()
        .map(|n| shell_quote(n))
        .collect();
    // The built-in data by the labels the worker gives it (whatever way the
    // page sent it: the example is re-sent as a named text when its roles change).
    let builtin: std::cell::RefCell<Vec<String>> = std::cell::RefCell::default();
    let mut files = inputs.recipe_files(&|n: &str| match n.strip_prefix(&corpus_prefix) {
        Some(rest) => {
            let name = format!("{CORPUS_DIR}/{rest}");
            builtin.borrow_mut().push(name.clone());
            name
        }
        None if n == EXAMPLE_LABEL => {
            builtin.borrow_mut().push(EXAMPLE_FILE.to_string());
            EXAMPLE_FILE.to_string()
        }
        None => n.to_string(),
    });
    let builtin = builtin.into_inner();
    for f in &mut files {
        if builtin.contains(&f.name) && f.name == EXAMPLE_FILE {
            f.written_by = Some(format!("gapscope synth > {EXAMPLE_FILE}"));
        } else if builtin.contains(&f.name) {
            f.written_by = Some(format!("gapscope synth-trajectories --out {CORPUS_DIR}"));
        } else if request.derived.contains(&f.name) {
            f.written_by = Some(format!(
                "gapscope evidence tau2-labels {} > {}",
                tau2_files.join(" "),
                shell_quote(&f.name)
            ));
        }
    }
    Recipe {
        files,
        roles: request.roles.clone(),
        trajectories: request.trajectories.clone(),
        pair: None,
    }
}

/// The request's settings, validated.
pub(super) fn request_settings(request: &Request) -> Result<Settings, String> {
    let settings = Settings {
        alpha: Alpha::new(request.alpha).map_err(|e| e.to_string())?,
        bootstrap: request.bootstrap,
        seed: request.seed,
        macro_definition: request.macro_definition,
        ..Settings::default()
    };
    settings.validate().map_err(|e| e.to_string())?;
    Ok(settings)
}

/// The text as a gapscope report, when it is one.
fn as_report(text: &str) -> Option<Report> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !t.starts_with('{') || !t.contains("\"tool\"") {
        return None;
    }
    serde_json::from_str::<Report>(t)
        .ok()
        .filter(|r| r.tool == "gapscope")
}

/// A gapscope JSON report, read whole, or the file as it was (a reader
/// keeps streaming; only its head was looked at).
fn report_or_file(file: Attached) -> Result<(Option<Report>, Attached), String> {
    use std::io::Read;
    let looks_like_report = |head: &[u8]| {
        let t = String::from_utf8_lossy(head);
        let t = t.trim_start_matches('\u{feff}').trim_start();
        // As serde_json writes a report (compact or pretty): its first
        // field. (`"tool"` alone is in many trajectory files: a role.)
        t.starts_with('{')
            && (t.contains("\"tool\":\"gapscope\"") || t.contains("\"tool\": \"gapscope\""))
    };
    match file {
        Attached::Bytes(_, ref b) => {
            let report = std::str::from_utf8(b).ok().and_then(as_report);
            Ok((report, file))
        }
        Attached::Read(ref r) => {
            let report = match &r.content {
                FileContent::Text(t) => as_report(t),
                _ => None,
            };
            Ok((report, file))
        }
        Attached::Reader(n, mut r) => {
            let mut head = Vec::new();
            Read::take(&mut r, 64 << 10)
                .read_to_end(&mut head)
                .map_err(|e| format!("{n}: could not be read ({e})"))?;
            if looks_like_report(&head) {
                r.read_to_end(&mut head)
                    .map_err(|e| format!("{n}: could not be read ({e})"))?;
                let report = std::str::from_utf8(&head).ok().and_then(as_report);
                Ok((report, Attached::Bytes(n, head)))
            } else {
                let rest = std::io::Cursor::new(head).chain(r);
                Ok((None, Attached::Reader(n, Box::new(rest))))
            }
        }
    }
}

#[cfg(test)]
mod tests;
