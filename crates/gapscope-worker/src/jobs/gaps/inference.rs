//! [`crate::Job::Inference`]: how sure each number of an analysis is
//! (`gapscope_gaps::inference::infer`, the function `gapscope report --json
//! --inference` calls), written as the page shows it
//! ([`gapscope_view::inference::page`]). The files are read and analysed
//! again (a job of its own, after the analysis is drawn); a re-imported
//! report is inferred from its input and settings, without gap intervals
//! (it carries no trajectories).

use super::analysis::{open, report_settings, request_settings, Opened};
use crate::attached::Attached;
use crate::protocol::{Progress, Request};
use gapscope_data::ingest::{profiles_of_inputs, read_inputs_from, Messages};
use gapscope_data::operations::operation_samples;
use gapscope_gaps::analysis::analyze;
use gapscope_view::inference::InferencePage;

/// The steps a job tells.
const STEPS: u32 = 3;

/// The inference of `request`'s analysis: `permutations` per single-target
/// permutation test, `delta_permutations` for ΔQ²(F+O − F) (0: none).
///
/// # Errors
/// A file that cannot be read, or an analysis that cannot run, said as the
/// analysis job says it.
pub fn inference(
    request: &Request,
    attached: Vec<Attached>,
    permutations: usize,
    delta_permutations: usize,
    progress: &mut dyn FnMut(Progress),
) -> Result<InferencePage, String> {
    let mut step = |step: u32, label: String| {
        progress(Progress {
            label,
            step,
            of: STEPS,
        });
    };
    let Opened {
        imported,
        files,
        name,
        ..
    } = open(request, attached)?;
    step(1, format!("reading {name}"));
    let (table, settings, samples) = if let Some(old) = imported {
        let settings = report_settings(&old, &name)?;
        (old.input, settings, None)
    } else {
        let settings = request_settings(request)?;
        let inputs = read_inputs_from(files, &request.trajectories, &Messages::Counts, false)
            .map_err(|e| e.to_string())?;
        // The values behind the operation scores, for the gap intervals.
        let samples = (!inputs.trajectory_files.is_empty()).then(|| {
            operation_samples(
                &inputs.corpus.trajectories,
                &request.trajectories.profile_options(),
            )
        });
        let (table, _) = profiles_of_inputs(inputs, &request.roles, &request.trajectories)
            .map_err(|e| e.to_string())?;
        (table, settings, samples)
    };
    step(2, "the analysis".to_string());
    let report = analyze(&table, &settings).map_err(|e| format!("{name}: {e}"))?;
    step(
        3,
        format!(
            "how sure each number is: {} bootstrap draws, {permutations} permutations per target, {delta_permutations} for ΔQ²",
            settings.bootstrap
        ),
    );
    let inference = gapscope_gaps::inference::infer(
        &table,
        &settings,
        &report,
        samples.as_ref(),
        permutations,
        delta_permutations,
    )
    .map_err(|e| format!("{name}: {e}"))?;
    let json = serde_json::to_string_pretty(&inference)
        .map_err(|e| format!("writing the inference: {e}"))?;
    Ok(gapscope_view::inference::page(&report, &inference, json))
}
