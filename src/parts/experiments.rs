//! The Experiments view (a trajectory page of the realization-gap part):
//! local content interventions and shared-initial-state continuations of
//! the files last opened (docs/experiments.md). The files worker computes
//! them (`ask::Experiments`: the core's `interventions` and
//! `continuations`, the CLI's JSON); the tables are `gapscope_view::experiments`'s.
//! A reward change opens its edited run beside its original branch; a
//! violations row lists its continuations, each opening with its steps and
//! the violations found in them.

use gapscope_data::trajectory::Trajectory;
use gapscope_view::experiments::{self as xv, ExperimentsPage};
use gapscope_worker::ask;
use leptos::prelude::*;

use crate::folders::Picked;
use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{closest_of, export_button, TextPanel};
use crate::parts::Workbench;
use crate::web;

/// The name the synthetic experiments open under.
pub(crate) const SYNTHETIC_EXPERIMENTS: &str = "synthetic-experiments.jsonl";

/// The Experiments view's state.
#[derive(Clone, Copy)]
pub(crate) struct ExperimentsState {
    pub(crate) page: JobSlot<ask::Experiments>,
    /// Asking the files worker for the synthetic experiments' JSONL.
    pub(crate) example: JobSlot<ask::Experiments>,
    /// The reward change open side by side, and its two runs.
    pub(crate) change: RwSignal<Option<usize>>,
    pub(crate) original: JobSlot<ask::Trajectory, Trajectory>,
    pub(crate) edited: JobSlot<ask::Trajectory, Trajectory>,
    /// The violations row whose continuations are listed, and the one open.
    pub(crate) row: RwSignal<Option<usize>>,
    pub(crate) run: JobSlot<ask::Trajectory, Trajectory>,
}

impl ExperimentsState {
    pub(crate) fn new() -> Self {
        ExperimentsState {
            page: JobSlot::new(),
            example: JobSlot::new(),
            change: RwSignal::new(None),
            original: JobSlot::new(),
            edited: JobSlot::new(),
            row: RwSignal::new(None),
            run: JobSlot::new(),
        }
    }
}

impl Workbench {
    /// Forget the experiments of the files before (a new source).
    pub(crate) fn clear_experiments(self) {
        let x = self.exp;
        for slot in [x.page, x.example] {
            slot.cancel(self.workers);
            slot.answer.set(None);
        }
        for slot in [x.original, x.edited, x.run] {
            slot.cancel(self.workers);
            slot.answer.set(None);
        }
        x.change.set(None);
        x.row.set(None);
    }

    /// Compute the experiments of the files last opened, unless done or
    /// running (B and seed: the top bar's).
    pub(crate) fn ensure_experiments(self) {
        let slot = self.exp.page;
        if slot.running() || slot.answer.with_untracked(Option::is_some) {
            return;
        }
        let source = self.traj.side_source.get_value();
        let k = self.knobs.get_untracked();
        let job = ask::Experiments {
            source: Some(source.clone()),
            options: self.gaps.trajectories.get_untracked(),
            bootstrap: k.bootstrap,
            seed: k.seed,
        };
        slot.run(self.workers, job, self.files_of(&source));
    }

    /// Open the synthetic experiments as a dropped file would be
    /// (`synthetic-experiments.jsonl`, written by the files worker's
    /// generator): every view then reads them.
    pub(crate) fn open_synthetic_experiments(self) {
        let slot = self.exp.example;
        slot.cancel(self.workers);
        slot.answer.set(None);
        let k = self.knobs.get_untracked();
        let job = ask::Experiments {
            source: None,
            options: Default::default(),
            bootstrap: 0,
            seed: k.seed,
        };
        slot.start(
            self.workers,
            job,
            Vec::new(),
            |_| {},
            move |_, answer| {
                let opened = answer.and_then(|page| {
                    let text = page
                        .example
                        .ok_or_else(|| "internal error: no synthetic experiments".to_string())?;
                    web::text_file(SYNTHETIC_EXPERIMENTS, &text)
                        .map_err(|e| format!("{SYNTHETIC_EXPERIMENTS}: {e:?}"))
                });
                match opened {
                    Ok(file) => self.open_picked(
                        vec![Picked {
                            file,
                            name: SYNTHETIC_EXPERIMENTS.into(),
                        }],
                        Vec::new(),
                    ),
                    Err(e) => slot.answer.set(Some(Err(e))),
                }
            },
        );
    }

    /// Open reward change `i`: its edited run beside its original branch's
    /// first run.
    fn open_change(self, page: &ExperimentsPage, i: usize) {
        let Some((original, edited)) = page.changes.get(i).cloned() else {
            return;
        };
        self.exp.change.set(Some(i));
        match original {
            Some(id) => self.start_trajectory(self.exp.original, id),
            None => self
                .exp
                .original
                .answer
                .set(Some(Err("the original branch has no run".into()))),
        }
        self.start_trajectory(self.exp.edited, edited);
    }
}

/// A run slot's card (`gapscope_view::experiments::run_card_html`), or
/// where it is.
fn slot_card(slot: JobSlot<ask::Trajectory, Trajectory>, testid: &'static str) -> impl IntoView {
    move || match slot.answer.get() {
        Some(Ok(t)) => view! { <div inner_html=xv::run_card_html(&t, testid)></div> }.into_any(),
        Some(Err(e)) => view! {
            <p class="invalid" role="alert">
                {e}
            </p>
        }
        .into_any(),
        None => view! { <p class="explain">"Reading the run…"</p> }.into_any(),
    }
}

/// The JSON download of one part, as `gapscope <what> --json` writes it.
fn json_button(wb: Workbench, text: String, what: &'static str) -> impl IntoView {
    let testid = if what == "interventions" {
        "export-interventions"
    } else {
        "export-continuations"
    };
    export_button(
        wb,
        format!("{what}.json"),
        "application/json",
        text,
        testid,
        format!("Download the {what} (JSON, as gapscope {what} --json)"),
    )
}

/// The panels of one part (`interventions` or `continuations`): its
/// tables, the pickable one calling `on_row`.
fn panels_of(
    wb: Workbench,
    page: StoredValue<ExperimentsPage>,
    view: &'static str,
    pickable: &'static str,
    on_row: Callback<usize>,
) -> impl IntoView {
    page.with_value(|p| {
        p.panels
            .iter()
            .filter(|x| x.view == view)
            .cloned()
            .map(|panel| {
                if panel.name == pickable {
                    view! {
                        <p class="explain">
                            {if view == "interventions" {
                                "Pick a reward change to open its edited run beside the original branch."
                            } else {
                                "Pick a row to list its continuations."
                            }}
                        </p>
                        <TextPanel wb=wb panel=panel testid="experiments-panel" on_row=on_row />
                    }
                        .into_any()
                } else {
                    view! { <TextPanel wb=wb panel=panel testid="experiments-panel" /> }.into_any()
                }
            })
            .collect_view()
    })
}

/// The interventions: both contrast tables, the reward changes (each
/// opening its run beside the original branch), the JSON.
fn interventions_part(wb: Workbench, page: StoredValue<ExperimentsPage>) -> impl IntoView {
    let Some(json) = page.with_value(|p| p.interventions_json.clone()) else {
        return view! {
            <p class="detail" data-testid="no-interventions">
                "No intervention runs: none of these trajectories names a checkpoint and a branch."
            </p>
        }
        .into_any();
    };
    let summary = page.with_value(|p| p.summary.clone());
    let on_row = Callback::new(move |i: usize| page.with_value(|p| wb.open_change(p, i)));
    view! {
        <p class="detail" data-testid="interventions-summary">
            {summary}
            " "
            {json_button(wb, json, "interventions")}
        </p>
        {panels_of(wb, page, "interventions", xv::CHANGES, on_row)}
        {move || {
            wb.exp
                .change
                .get()
                .map(|_| {
                    view! {
                        <section class="side-by-side" data-testid="change-side-by-side">
                            <h3>"Original branch and edited run"</h3>
                            <div class="pair">
                                {slot_card(wb.exp.original, "original-run")}
                                {slot_card(wb.exp.edited, "edited-run")}
                            </div>
                        </section>
                    }
                })
        }}
    }
    .into_any()
}

/// The continuations: coverage, violations (each row listing its
/// continuations), later reversals, the JSON.
fn continuations_part(wb: Workbench, page: StoredValue<ExperimentsPage>) -> impl IntoView {
    let Some(json) = page.with_value(|p| p.continuations_json.clone()) else {
        return view! {
            <p class="detail" data-testid="no-continuations">
                "No continuations: none of these trajectories names a checkpoint without a branch."
            </p>
        }
        .into_any();
    };
    let on_row = Callback::new(move |i: usize| {
        wb.exp.row.set(Some(i));
        wb.exp.run.cancel(wb.workers);
        wb.exp.run.answer.set(None);
    });
    view! {
        <p class="detail">{json_button(wb, json, "continuations")}</p>
        {panels_of(wb, page, "continuations", xv::VIOLATIONS, on_row)}
        {move || {
            let i = wb.exp.row.get()?;
            let row = page.with_value(|p| p.rows.get(i).cloned())?;
            Some(
                view! {
                    <section class="continuations" data-testid="row-continuations">
                        <h3>{format!("Continuations of {}", row.title)}</h3>
                        <div
                            inner_html=row.html()
                            on:click=move |ev| {
                                let id = closest_of(&ev, "[data-open]")
                                    .and_then(|b| b.get_attribute("data-open"));
                                if let Some(id) = id {
                                    wb.start_trajectory(wb.exp.run, id);
                                }
                            }
                        ></div>
                        {move || {
                            (wb.exp.run.answer.get().is_some() || wb.exp.run.running())
                                .then(|| slot_card(wb.exp.run, "continuation-run"))
                        }}
                    </section>
                },
            )
        }}
    }
    .into_any()
}

/// The Experiments view.
#[component]
pub(crate) fn ExperimentsView(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        if wb.exp.page.answer.get().is_none() {
            wb.ensure_experiments();
        }
    });
    view! {
        <section data-testid="experiments">
            <p class="explain">
                "Trajectories with a " <code>"checkpoint"</code>
                " (docs/experiments.md) are read here, not in the profiles. "
                <button
                    class="link"
                    data-testid="load-experiments"
                    on:click=move |_| wb.open_synthetic_experiments()
                >
                    "Open the synthetic experiments"
                </button>
                " (seeded generator, planted effects: labelled synthetic, not real models)."
            </p>
            {move || match wb.exp.example.answer.get() {
                Some(Err(e)) => {
                    Some(
                        view! {
                            <p class="invalid" role="alert">
                                {e}
                            </p>
                        },
                    )
                }
                _ => None,
            }}
            {move || match wb.exp.page.answer.get() {
                None => {
                    view! {
                        <p class="explain" data-testid="experiments-busy">
                            "Reading the runs…"
                        </p>
                    }
                        .into_any()
                }
                Some(Err(e)) => {
                    view! {
                        <p class="invalid" role="alert" data-testid="experiments-error">
                            {e}
                        </p>
                    }
                        .into_any()
                }
                Some(Ok(p)) => {
                    let page = StoredValue::new(p);
                    view! {
                        <h3>"Local content interventions"</h3>
                        {interventions_part(wb, page)}
                        <h3>"Shared-initial-state continuations"</h3>
                        {continuations_part(wb, page)}
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
