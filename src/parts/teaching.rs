//! Planted vs recovered gaps of the synthetic corpus, and the recovery
//! experiment (corpora of 15, 50 and 200 models) run by a worker.

use gapscope_view::table::{Cell, Table};
use gapscope_view::trajectories as tv;
use gapscope_worker::{ask, Progress, CORPUS_LABEL, CORPUS_PLANTED};
use leptos::prelude::*;

use crate::parts::trajectories::NeedTrajectories;
use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{Figure, TableView};
use crate::parts::Workbench;

/// The teaching page's state: it lives while the page is shown.
struct TeachingState {
    recovery: JobSlot<ask::Recovery>,
    progress: RwSignal<Option<Progress>>,
    gap: RwSignal<String>,
}

impl TeachingState {
    fn new() -> Self {
        TeachingState {
            recovery: JobSlot::new(),
            progress: RwSignal::new(None),
            gap: RwSignal::new("macro".to_string()),
        }
    }
}

#[component]
pub(crate) fn TeachingView(wb: Workbench) -> impl IntoView {
    let TeachingState {
        recovery,
        progress,
        gap,
    } = TeachingState::new();
    let planted = tv::read_planted(CORPUS_PLANTED);
    // The curve is fitted at the page's α; the α of the curve on screen is
    // kept, and a curve of another α than the page's is not shown.
    let alpha = Memo::new(move |_| wb.knobs.with(|k| k.alpha));
    let fitted_at = RwSignal::new(None::<f64>);
    let run = move |_| {
        recovery.answer.set(None);
        fitted_at.set(Some(alpha.get_untracked()));
        progress.set(Some(Progress {
            label: "starting".into(),
            step: 0,
            of: 1,
        }));
        // Not cancelled by a second click: both answer.
        recovery.start(
            wb.workers,
            ask::Recovery {
                seeds: 5,
                alpha: alpha.get_untracked(),
            },
            Vec::new(),
            move |pr| progress.set(Some(pr)),
            move |_, answer| {
                progress.set(None);
                recovery.answer.set(Some(answer));
            },
        );
    };
    move || {
        let corpus = wb
            .gaps
            .analysis
            .with(|a| a.as_ref().is_some_and(|a| a.source == CORPUS_LABEL));
        if !corpus {
            return view! { <NeedTrajectories wb=wb what="Planted gaps exist only for the synthetic corpus." /> }.into_any();
        }
        let Some(a) = wb.gaps.analysis.get() else {
            return view! { <p></p> }.into_any();
        };
        let names: Vec<String> = a
            .report
            .dimensions
            .operations
            .iter()
            .cloned()
            .chain(["macro".to_string()])
            .collect();
        let pv = tv::planted_vs_recovered(&a.report, &planted, &gap.get());
        view! {
            <label>
                "gap "
                <select
                    data-testid="teaching-gap"
                    on:change=move |ev| gap.set(event_target_value(&ev))
                >
                    {names
                        .into_iter()
                        .map(|n| {
                            let (n2, n3) = (n.clone(), n.clone());
                            view! {
                                <option value=n3 selected=move || gap.get() == n2>
                                    {n}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            {pv
                .map(|(t, svg, _)| {
                    view! {
                        <Figure
                            svg=svg
                            name=format!("planted-{}", gap.get_untracked())
                            wb=wb
                            testid="planted-scatter"
                        />
                        <details class="alt">
                            <summary>"As a table"</summary>
                            <TableView table=t wb=wb />
                        </details>
                    }
                })}
            <p class="detail">
                "How does recovery grow with the number of models? "
                <button data-testid="run-recovery" on:click=run>
                    "Generate corpora of 15, 50 and 200 models (5 seeds each) and measure"
                </button>
            </p>
            {move || {
                progress
                    .get()
                    .map(|p| {
                        view! {
                            <p class="muted" data-testid="recovery-progress">
                                {format!("{} ({} of {})", p.label, p.step, p.of)}
                            </p>
                        }
                    })
            }}
            {move || {
                if fitted_at.get().is_some_and(|a| a != alpha.get()) {
                    return Some(
                        view! {
                            <p class="muted" data-testid="recovery-stale">
                                {format!(
                                    "The recovery curve was fitted at α = {}; α is now {}: generate it again.",
                                    fitted_at.get().unwrap_or_default(),
                                    alpha.get(),
                                )}
                            </p>
                        }
                            .into_any(),
                    );
                }
                recovery
                    .answer
                    .get()
                    .map(|r| match r {
                        Err(e) => {
                            view! {
                                <p class="invalid" role="alert">
                                    {e}
                                </p>
                            }
                                .into_any()
                        }
                        Ok(points) => {
                            view! {
                                <TableView
                                    table=recovery_table(
                                        &points,
                                        fitted_at.get().unwrap_or_default(),
                                    )
                                    wb=wb
                                />
                            }
                                .into_any()
                        }
                    })
            }}
        }
        .into_any()
    }
}

/// The recovery curve as a table: per corpus size, the mean Spearman ρ of
/// planted against recovered gaps, with the α its fits used.
fn recovery_table(points: &[gapscope_worker::RecoveryPoint], alpha: f64) -> Table {
    Table {
        title: format!("Recovery of planted gaps (mean Spearman over seeds), α = {alpha}"),
        headers: [
            "Models",
            "Families",
            "Seeds",
            "Macro gap ρ",
            "Per-operation ρ (mean)",
        ]
        .map(String::from)
        .to_vec(),
        rows: points
            .iter()
            .map(|p| {
                vec![
                    Cell::num(Some(p.models as f64), 0),
                    Cell::num(Some(p.families as f64), 0),
                    Cell::num(Some(p.seeds as f64), 0),
                    Cell::num(p.macro_rho, 2),
                    Cell::num(p.operation_rho, 2),
                ]
            })
            .collect(),
    }
}
