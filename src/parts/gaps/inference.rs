//! How sure each number is: the inference job (run in the files worker,
//! which writes its tables and charts: `gapscope_view::inference::page`)
//! and its panels in the Association, Predictability, Realization gaps and
//! Penalty views. Asked for with a button: its permutation tests and
//! resamplings take seconds on large inputs.

use gapscope_gaps::analysis::MAX_BOOTSTRAP;
use gapscope_worker::ask;
use leptos::prelude::*;

use crate::parts::widgets::{export_button, TextPanel};
use crate::parts::Workbench;

impl Workbench {
    /// Ask for the inference of the analysis on screen (its source and the
    /// current settings); a running one is replaced.
    pub(crate) fn request_inference(self) {
        let source = self.gaps.source.get_value();
        let files = self.files_of(&source);
        let request = self.request(source);
        self.gaps.inference.cancel(self.workers);
        self.gaps.inference.answer.set(None);
        self.gaps.inference_progress.set(None);
        let (permutations, delta_permutations) = self.gaps.permutations.get_untracked();
        self.gaps.inference.start(
            self.workers,
            ask::Inference {
                request,
                permutations,
                delta_permutations,
            },
            files,
            move |p| self.gaps.inference_progress.set(Some(p)),
            move |_, answer| {
                self.gaps.inference_progress.set(None);
                self.gaps.inference.answer.set(Some(answer));
            },
        );
    }

    /// Forget the inference on screen (a new analysis is shown).
    pub(crate) fn clear_inference(self) {
        self.gaps.inference.cancel(self.workers);
        self.gaps.inference_progress.set(None);
        self.gaps.inference.answer.set(None);
    }
}

/// The inference's panels of `view` (a `gapscope_view::gaps::VIEWS` id),
/// or the button that asks for them, its progress, or its error.
#[component]
pub(crate) fn InferencePanels(wb: Workbench, view: &'static str) -> impl IntoView {
    let settings = move || {
        let k = wb.knobs.get();
        let (p, d) = wb.gaps.permutations.get();
        format!(
            "{} bootstrap draws (seed {}), {p} permutations per target, {d} for ΔQ²",
            k.bootstrap, k.seed
        )
    };
    // A count typed in: 0 to the bootstrap's limit; another text puts the
    // field back. A new count clears the result computed with the old.
    let count = move |which: usize| {
        move |ev: leptos::ev::Event| {
            let (p, d) = wb.gaps.permutations.get_untracked();
            let old = if which == 0 { p } else { d };
            match event_target_value(&ev).trim().parse::<usize>() {
                Ok(n) if n <= MAX_BOOTSTRAP && n != old => {
                    wb.clear_inference();
                    wb.gaps
                        .permutations
                        .set(if which == 0 { (n, d) } else { (p, n) });
                }
                _ => {
                    let input = event_target::<web_sys::HtmlInputElement>(&ev);
                    input.set_value(&old.to_string());
                }
            }
        }
    };
    let input = move |which: usize, label: &'static str, testid: &'static str| {
        view! {
            <label>
                {label}
                <input
                    type="number"
                    min="0"
                    max=MAX_BOOTSTRAP.to_string()
                    data-testid=testid
                    prop:value=move || {
                        let (p, d) = wb.gaps.permutations.get();
                        (if which == 0 { p } else { d }).to_string()
                    }
                    on:change=count(which)
                />
            </label>
        }
    };
    view! {
        <section class="inference" data-testid="inference" data-view=view>
            <h3>"How sure is each number?"</h3>
            <p class="detail">
                {input(0, "permutations per target ", "permutations")} " "
                {input(1, "for ΔQ² ", "delta-permutations")}
                " (0: none; each ΔQ² permutation refits F+O)"
            </p>
            {move || match wb.gaps.inference.answer.get() {
                None if wb.gaps.inference.running() => {
                    view! {
                        <p class="detail" data-testid="inference-progress">
                            {move || {
                                wb.gaps
                                    .inference_progress
                                    .get()
                                    .map_or_else(
                                        || "Starting…".to_string(),
                                        |p| format!("{} of {}: {}", p.step, p.of, p.label),
                                    )
                            }}
                            " "
                            <button class="link" on:click=move |_| wb.clear_inference()>
                                "Cancel"
                            </button>
                        </p>
                    }
                        .into_any()
                }
                None => {
                    view! {
                        <p class="detail">
                            <button
                                data-testid="run-inference"
                                on:click=move |_| wb.request_inference()
                            >
                                "Compute intervals and tests"
                            </button>
                            " "
                            {settings}
                            ": gap intervals from each model's trajectories, permutation p-values of Q², ρ intervals, adjusted correlation p-values, coefficients, nested selection."
                        </p>
                    }
                        .into_any()
                }
                Some(Err(e)) => {
                    view! {
                        <p class="error" data-testid="inference-error">
                            {e}
                        </p>
                    }
                        .into_any()
                }
                Some(Ok(page)) => {
                    let json = page.json.clone();
                    view! {
                        {page
                            .panels
                            .into_iter()
                            .filter(|p| p.view == view)
                            .map(|panel| {
                                view! { <TextPanel wb=wb panel=panel testid="inference-panel" /> }
                            })
                            .collect_view()}
                        <p class="detail">
                            {settings} ". "
                            {export_button(
                                wb,
                                "inference.json".into(),
                                "application/json",
                                json,
                                "export-inference",
                                "Download the inference (JSON)".into(),
                            )} " " <button class="link" on:click=move |_| wb.request_inference()>
                                "Compute again"
                            </button>
                        </p>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
