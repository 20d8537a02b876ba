//! The settings bar (α, bootstrap draws, seed, macro, exports, theme) and
//! the status line (the running analysis, the worker pool).

use gapscope_gaps::analysis::MacroDefinition;
use gapscope_view::nav::Area;
use leptos::prelude::*;

use super::Workbench;
use crate::parts::gaps::hashing;
use crate::web;

#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the part, in page order"
)]
pub(crate) fn SettingsBar(wb: Workbench) -> impl IntoView {
    let invalid = RwSignal::new(None::<String>);
    let set = move |field: &'static str, text: String| {
        let mut k = wb.knobs.get_untracked();
        let ok = match field {
            "alpha" => text
                .parse::<f64>()
                .ok()
                .filter(|a| *a > 0.0 && a.is_finite())
                .map(|a| k.alpha = a)
                .is_some(),
            "B" => text
                .parse::<usize>()
                .ok()
                .filter(|b| *b <= gapscope_gaps::analysis::MAX_BOOTSTRAP)
                .map(|b| k.bootstrap = b)
                .is_some(),
            _ => text.parse::<u64>().ok().map(|s| k.seed = s).is_some(),
        };
        if ok {
            invalid.set(None);
            wb.knobs.set(k);
            wb.rerun();
        } else {
            invalid.set(Some(match field {
                "alpha" => format!("α must be a number greater than 0, got “{text}”"),
                "B" => format!(
                    "bootstrap draws must be a whole number from 0 to {}, got “{text}”",
                    gapscope_gaps::analysis::MAX_BOOTSTRAP
                ),
                _ => format!("the seed must be a whole number ≥ 0, got “{text}”"),
            }));
        }
    };
    // Each part's report, as its command line's `--json` writes it: the
    // realization report (or, on trajectories alone, the runs' comparison),
    // the evidence report, the runtime report.
    let export_json = move |_| {
        let (name, text) = match wb.area.get_untracked() {
            Area::Gaps => match wb.gaps.analysis.get_untracked() {
                // With its inference once computed (cleared by the next
                // analysis), as `report --json --inference` writes it.
                Some(a) => (
                    format!("{}-report.json", wb.file_stem()),
                    serde_json::to_string_pretty(&a.report).map(|text| {
                        wb.gaps.inference.answer.with_untracked(|i| match i {
                            Some(Ok(page)) => {
                                gapscope_view::inference::with_inference(&text, &page.json)
                            }
                            _ => text,
                        })
                    }),
                ),
                None => match wb.cmp.report.answer.get_untracked() {
                    Some(Ok(r)) => (
                        format!("{}-compare.json", wb.file_stem()),
                        serde_json::to_string_pretty(&*r),
                    ),
                    _ => return,
                },
            },
            // Written by the worker with the report (the page links no
            // serializer for these reports).
            Area::Evidence
                if wb
                    .ev
                    .report
                    .answer
                    .with_untracked(|a| matches!(a, Some(Ok(_)))) =>
            {
                (
                    format!("{}-evidence.json", wb.file_stem()),
                    Ok(wb.ev.json.get_value()),
                )
            }
            Area::Runtime
                if wb
                    .rt
                    .report
                    .answer
                    .with_untracked(|a| matches!(a, Some(Ok(_)))) =>
            {
                (
                    format!("{}-runtime.json", wb.file_stem()),
                    Ok(wb.rt.json.get_value()),
                )
            }
            Area::Evidence | Area::Runtime => return,
        };
        if let Ok(text) = text {
            let _ = web::download(&name, "application/json", &text);
        }
    };
    let export_manifest = move |_| {
        if let Some(a) = wb.gaps.analysis.get_untracked() {
            if let Ok(s) = serde_json::to_string_pretty(&a.manifest) {
                let _ = web::download(
                    &format!("{}-manifest.json", wb.file_stem()),
                    "application/json",
                    &s,
                );
            }
        }
    };
    view! {
        <div class="settings" data-testid="settings">
            <label>
                "α "
                <input
                    type="number"
                    min="0"
                    step="any"
                    data-testid="alpha"
                    prop:value=move || wb.knobs.get().alpha.to_string()
                    on:change=move |ev| set("alpha", event_target_value(&ev))
                />
            </label>
            <label>
                "bootstrap draws "
                <input
                    type="number"
                    min="0"
                    step="1000"
                    data-testid="bootstrap"
                    prop:value=move || wb.knobs.get().bootstrap.to_string()
                    on:change=move |ev| set("B", event_target_value(&ev))
                />
            </label>
            <label>
                "seed "
                <input
                    type="number"
                    min="0"
                    step="1"
                    data-testid="seed"
                    prop:value=move || wb.knobs.get().seed.to_string()
                    on:change=move |ev| set("seed", event_target_value(&ev))
                />
            </label>
            <label>
                "macro "
                <select
                    data-testid="macro"
                    title="The overall operation score: the mean of the operation scores, or pooled over all labels of each trajectory (needs labelled trajectories)"
                    on:change=move |ev| {
                        if let Some(m) = MacroDefinition::parse(&event_target_value(&ev)) {
                            wb.knobs.update(|k| k.macro_definition = m);
                            wb.rerun();
                        }
                    }
                >
                    {[("mean", "mean of operations"), ("pooled", "pooled labels")]
                        .into_iter()
                        .map(|(v, t)| {
                            view! {
                                <option
                                    value=v
                                    selected=move || wb.knobs.get().macro_definition.name() == v
                                >
                                    {t}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <button
                on:click=export_json
                data-testid="export-json"
                title=move || match wb.area.get() {
                    Area::Gaps => {
                        "The realization-gap report (or, on trajectories alone, the runs' comparison) as JSON, as the command line's --json writes it"
                    }
                    Area::Evidence => {
                        "The evidence-to-action report as JSON, as `gapscope evidence score --json` writes it"
                    }
                    Area::Runtime => {
                        "The runtime-contracts report as JSON, as `gapscope runtime analyze --json` writes it"
                    }
                }
            >
                {move || match wb.area.get() {
                    Area::Gaps => "Export report (JSON)",
                    Area::Evidence => "Export evidence report (JSON)",
                    Area::Runtime => "Export runtime report (JSON)",
                }}
            </button>
            <button
                style:display=move || (wb.area.get() != Area::Gaps).then_some("none")
                on:click=export_manifest
                data-testid="export-manifest"
                disabled=move || wb.gaps.analysis.with(|a| a.as_ref().is_some_and(hashing))
                title=move || {
                    if wb.gaps.analysis.with(|a| a.as_ref().is_some_and(hashing)) {
                        "The files are being hashed for the manifest…"
                    } else {
                        "The inputs by SHA-256, the settings and the command that recomputes the report"
                    }
                }
            >
                "Export manifest"
            </button>
            <label>
                "theme "
                <select
                    data-testid="theme"
                    on:change=move |ev| wb.theme.set(event_target_value(&ev))
                >
                    {["auto", "light", "dark"]
                        .into_iter()
                        .map(|t| {
                            view! {
                                <option value=t selected=move || wb.theme.get() == t>
                                    {t}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            {move || {
                invalid
                    .get()
                    .map(|m| {
                        view! {
                            <span class="invalid" role="alert" data-testid="settings-error">
                                {m}
                            </span>
                        }
                    })
            }}
        </div>
    }
}

#[component]
pub(crate) fn Status(wb: Workbench) -> impl IntoView {
    view! {
        <div
            class="status"
            aria-live="polite"
            data-testid="status"
            aria-busy=move || wb.gaps.busy.with(std::option::Option::is_some).to_string()
        >
            {move || {
                wb.gaps
                    .busy
                    .get()
                    .map(|label| {
                        let progress = wb.gaps.progress.get();
                        let (step, of) = progress.as_ref().map_or((0, 1), |p| (p.step, p.of));
                        let stage = progress
                            .map_or_else(
                                || "waiting for a worker".to_string(),
                                |p| format!("{} (step {} of {})", p.label, p.step, p.of),
                            );
                        view! {
                            <span class="spinner" aria-hidden="true"></span>
                            <span>
                                {format!("Analysing {label} in a background worker: ")}
                                <span data-testid="stage">{stage}</span>
                            </span>
                            <progress
                                data-testid="progress"
                                max=of.to_string()
                                value=step.to_string()
                                aria-label="analysis progress"
                            ></progress>
                            <button class="link" data-testid="cancel" on:click=move |_| wb.cancel()>
                                "cancel"
                            </button>
                        }
                    })
            }}
            {move || {
                let s = wb.workers.stats.get();
                view! {
                    <span
                        class="pool muted"
                        data-testid="pool"
                        data-live=s.live.to_string()
                        data-busy=s.busy.to_string()
                        data-terminated=s.terminated.to_string()
                        data-size=s.size.to_string()
                        data-memory=s.memory.to_string()
                        data-last-job-ms=s.last_job_ms.to_string()
                        data-last-read-ms=s.last_read_ms.to_string()
                        data-last-streamed-bytes=s.last_streamed_bytes.to_string()
                        data-import-ms=s.import_ms.0.to_string()
                        data-import-read-ms=s.import_ms.1.to_string()
                        data-import-parse-ms=s.import_ms.2.to_string()
                    >
                        {format!(
                            "worker pool: {} of {} running{}",
                            s.live,
                            s.size,
                            if s.memory > 0 {
                                format!(" (largest worker memory {:.0} MB)", s.memory as f64 / 1e6)
                            } else {
                                String::new()
                            },
                        )}
                    </span>
                }
            }}
        </div>
    }
}
