//! Runtime contracts: the teaching simulator (or an opened episode log)
//! analysed by a worker, its tables and figures, the episode list and the
//! stepper.

use gapscope_synth::runtime_sim::SimParams;
use gapscope_view::nav::RuntimeView as View;
use gapscope_view::runtime as tv_runtime;
use gapscope_worker::{ask, Source};
use leptos::prelude::*;

use crate::parts::misplaced::ErrorText;

use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{area_panel, sub_nav, ClickTable, Figure, FilterSelects, TableView};
use crate::parts::{opened, source_label, Workbench};
use crate::web;

/// The runtime part's state.
#[derive(Clone, Copy)]
pub(crate) struct RuntimeState {
    /// The report behind an `Arc`: the views borrow it, never clone it.
    pub(crate) report: JobSlot<
        ask::Runtime,
        (
            std::sync::Arc<gapscope_runtime::RuntimeReport>,
            Option<String>,
        ),
    >,
    /// The report's JSON as the command line writes it (the export).
    pub(crate) json: StoredValue<String>,
    /// `None`: simulate with `params`.
    pub(crate) source: StoredValue<Option<Source>>,
    pub(crate) files: StoredValue<Vec<web_sys::File>, LocalStorage>,
    pub(crate) params: RwSignal<SimParams>,
    pub(crate) view: RwSignal<View>,
    pub(crate) filter: RwSignal<tv_runtime::RuntimeFilter>,
    pub(crate) slice: RwSignal<usize>,
    pub(crate) episode: RwSignal<Option<String>>,
    pub(crate) turn: RwSignal<usize>,
    /// An episode the URL names, opened when the report has come.
    pub(crate) wanted: StoredValue<Option<String>>,
    /// The addendum's views as the worker wrote them.
    pub(crate) page: StoredValue<gapscope_view::evidence::analyses::AddendumPage>,
    /// Simulate the addendum's teaching example instead of the default one.
    pub(crate) addendum: RwSignal<bool>,
}

impl RuntimeState {
    pub(crate) fn new() -> Self {
        RuntimeState {
            report: JobSlot::new(),
            json: StoredValue::new(String::new()),
            source: StoredValue::new(None),
            files: StoredValue::new_local(Vec::new()),
            params: RwSignal::new(SimParams::default()),
            view: RwSignal::new(View::Quality),
            filter: RwSignal::new(Default::default()),
            slice: RwSignal::new(0),
            episode: RwSignal::new(None),
            turn: RwSignal::new(0),
            wanted: StoredValue::new(None),
            page: StoredValue::new(Default::default()),
            addendum: RwSignal::new(false),
        }
    }
}

impl Workbench {
    /// Simulate (or read the opened log) and analyse runtime contracts.
    pub(crate) fn run_runtime(self) {
        self.rt.report.cancel(self.workers);
        self.rt.episode.set(None);
        // The episodes of a new report: every slice, condition and cap.
        self.rt.filter.set(Default::default());
        let source = self.rt.source.get_value();
        let k = self.knobs.get_untracked();
        let job = ask::Runtime {
            simulate: source.is_none().then(|| self.rt.params.get_untracked()),
            addendum: source.is_none() && self.rt.addendum.get_untracked(),
            source: source.clone(),
            bootstrap: k.bootstrap.min(10_000),
            seed: k.seed,
        };
        let files = opened(source.as_ref(), self.rt.files);
        let (slot, json, page) = (self.rt.report, self.rt.json, self.rt.page);
        slot.start(
            self.workers,
            job,
            files,
            |_| {},
            move |_, answer| {
                slot.answer.set(Some(answer.and_then(|a| {
                    let report = a.report.report();
                    json.set_value(a.report.into_json());
                    page.set_value(a.page);
                    report.map(|r| (std::sync::Arc::new(r), a.log))
                })));
            },
        );
    }
}

#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the part, in page order"
)]
pub(crate) fn RuntimeArea(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        if wb.rt.report.answer.with(std::option::Option::is_none) && !wb.rt.report.running() {
            wb.run_runtime();
        }
    });
    // An episode named by the URL, once the report that has it is here.
    Effect::new(move |_| {
        let has = wb
            .rt
            .report
            .answer
            .with(|a| match (a, wb.rt.wanted.get_value()) {
                (Some(Ok((r, _))), Some(id)) => Some(tv_runtime::episode_view(r, &id).is_some()),
                _ => None,
            });
        if let Some(has) = has {
            if let Some(id) = wb.rt.wanted.get_value() {
                wb.rt.wanted.set_value(None);
                if has {
                    wb.rt.episode.set(Some(id));
                }
            }
        }
    });
    let pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        if let Some(file) = input.files().and_then(|l| l.get(0)) {
            wb.rt
                .source
                .set_value(Some(Source::attached(vec![file.name()])));
            wb.rt.files.set_value(vec![file]);
            wb.rt.report.answer.set(None);
            wb.run_runtime();
        }
    };
    // The simulator's form: a value that is not a number, or parameters the
    // simulator refuses (`SimParams::validate`), are said next to the form
    // and the Simulate button waits for valid ones.
    let invalid = RwSignal::new(None::<String>);
    let num = move |field: &'static str| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            let mut p = wb.rt.params.get_untracked();
            let whole = |v: &str| v.trim().parse::<usize>().ok();
            let parsed = match field {
                "items" => whole(&v).map(|x| p.items = x),
                "capacity" => v.trim().parse().ok().map(|x| p.capacity = x),
                "budget" => v.trim().parse().ok().map(|x| p.budget = x),
                "instances" => whole(&v).map(|x| p.instances = x),
                "seed" => v.trim().parse().ok().map(|x| p.seed = x),
                "caps" => v
                    .split(',')
                    .map(|c| c.trim().parse::<u32>())
                    .collect::<Result<Vec<_>, _>>()
                    .ok()
                    .map(|c| p.caps = c),
                _ => None,
            };
            let message = if parsed.is_none() {
                Some(if field == "caps" {
                    format!(
                        "caps: expected whole numbers separated by commas (e.g. 2,5,20), got “{v}”"
                    )
                } else {
                    format!("{field}: expected a whole number, got “{v}”")
                })
            } else {
                p.validate().err().map(|e| e.to_string())
            };
            invalid.set(message);
            wb.rt.params.set(p);
        }
    };
    let p0 = wb.rt.params.get_untracked();
    let caps0: String = p0
        .caps
        .iter()
        .map(std::string::ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    view! {
        <section class="summary" data-testid="runtime-source">
            {move || {
                wb.rt.report.answer.track();
                if wb.rt.source.with_value(std::option::Option::is_none) {
                    view! {
                        <span class="badge synthetic" data-testid="simulated-badge">
                            "teaching simulator"
                        </span>
                        <span class="origin">
                            "Opaque Knapsack with scripted policies, not language models: one keeps its record in variables, one prints and rebuilds it each turn"
                        </span>
                    }
                        .into_any()
                } else {
                    view! {
                        <span class="file">
                            {wb
                                .rt
                                .source
                                .with_value(|s| s.as_ref().map(source_label).unwrap_or_default())}
                        </span>
                    }
                        .into_any()
                }
            }}
            <div class="settings" data-testid="simulator">
                <label>
                    "items "
                    <input
                        type="number"
                        min="3"
                        data-testid="sim-items"
                        value=p0.items.to_string()
                        on:change=num("items")
                    />
                </label>
                <label>
                    "capacity "
                    <input
                        type="number"
                        min="1"
                        data-testid="sim-capacity"
                        value=p0.capacity.to_string()
                        on:change=num("capacity")
                    />
                </label>
                <label>
                    "budget "
                    <input
                        type="number"
                        min="1"
                        data-testid="sim-budget"
                        value=p0.budget.to_string()
                        on:change=num("budget")
                    />
                </label>
                <label>
                    "caps "
                    <input
                        type="text"
                        size="10"
                        data-testid="sim-caps"
                        value=caps0
                        on:change=num("caps")
                    />
                </label>
                <label>
                    "instances "
                    <input
                        type="number"
                        min="1"
                        data-testid="sim-instances"
                        value=p0.instances.to_string()
                        on:change=num("instances")
                    />
                </label>
                <label>
                    "seed "
                    <input
                        type="number"
                        min="0"
                        data-testid="sim-seed"
                        value=p0.seed.to_string()
                        on:change=num("seed")
                    />
                </label>
                {move || {
                    invalid
                        .get()
                        .map(|m| {
                            view! {
                                <span class="invalid" role="alert" data-testid="sim-invalid">
                                    {m}
                                </span>
                            }
                        })
                }}
                <button
                    data-testid="simulate"
                    disabled=move || invalid.with(Option::is_some)
                    title=move || invalid.get().map(|_| "Correct the simulator's settings first")
                    on:click=move |_| {
                        wb.rt.source.set_value(None);
                        wb.rt.addendum.set(false);
                        wb.rt.report.answer.set(None);
                        wb.run_runtime();
                    }
                >
                    "Simulate"
                </button>
                <button
                    data-testid="simulate-addendum"
                    title="The addendum's teaching example: carryover conditions, two horizons, two seeds, control families and teacher traces (scripted, not language models); it honours the seed above"
                    on:click=move |_| {
                        wb.rt.source.set_value(None);
                        wb.rt.addendum.set(true);
                        wb.rt.report.answer.set(None);
                        wb.run_runtime();
                    }
                >
                    "Addendum example"
                </button>
                <label class="pick">
                    "or open an episode log (JSONL)"
                    <input type="file" data-testid="runtime-input" on:change=pick />
                </label>
                {move || {
                    wb.rt
                        .report
                        .answer
                        .with(|r| matches!(r, Some(Ok((_, Some(_))))))
                        .then(|| {
                            view! {
                                <button
                                    class="link"
                                    data-testid="export-episodes"
                                    on:click=move |_| {
                                        if let Some(Ok((_, Some(log)))) = wb
                                            .rt
                                            .report
                                            .answer
                                            .get_untracked()
                                        {
                                            let _ = web::download(
                                                "gapscope-simulated-episodes.jsonl",
                                                "application/x-ndjson",
                                                &log,
                                            );
                                        }
                                    }
                                >
                                    "download the simulated log"
                                </button>
                            }
                        })
                }}
            </div>
        </section>
        {sub_nav(wb.rt.view, Some("runtime-nav"))}
        {area_panel(
            wb,
            wb.rt.view,
            false,
            move |id| view! { <RuntimeView wb=wb id=id /> }.into_any(),
        )}
    }
}

#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the part, in page order"
)]
pub(crate) fn RuntimeView(wb: Workbench, id: View) -> impl IntoView {
    move || {
        let r = match wb.rt.report.answer.get() {
            None => {
                return view! { <p class="explain">"Simulating and analysing in a worker…"</p> }
                    .into_any()
            }
            Some(Err(e)) => {
                return view! {
                    <p class="invalid" role="alert" data-testid="runtime-error">
                        <ErrorText wb=wb message=e files=wb.rt.files.get_value() />
                    </p>
                }
                .into_any()
            }
            Some(Ok((r, _))) => r,
        };
        let Some(slice) = r
            .slices
            .get(wb.rt.slice.get().min(r.slices.len().saturating_sub(1)))
        else {
            return view! { <p class="invalid">"No slice in this log."</p> }.into_any();
        };
        let slices = (r.slices.len() > 1).then(|| {
            let names: Vec<String> = r.slices.iter().map(|s| s.name.clone()).collect();
            view! {
                <label>
                    "slice "
                    <select
                        data-testid="runtime-slice"
                        on:change=move |ev| {
                            wb.rt.slice.set(event_target_value(&ev).parse().unwrap_or(0));
                        }
                    >
                        {names
                            .into_iter()
                            .enumerate()
                            .map(|(i, n)| {
                                view! {
                                    <option
                                        value=i.to_string()
                                        selected=move || wb.rt.slice.get() == i
                                    >
                                        {n}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
            }
        });
        let body = match id {
            View::Quality => view! {
                <p class="detail" data-testid="runtime-summary">
                    {r.summary.clone()}
                </p>
                {(0..slice.tables.len())
                    .filter_map(|k| tv_runtime::cap_table(slice, k))
                    .map(|t| view! { <TableView table=t wb=wb /> })
                    .collect_view()}
                {tv_runtime::comparison_table(slice).map(|t| view! { <TableView table=t wb=wb /> })}
                {crate::parts::runtime_addendum::items(wb, "quality")}
            }
            .into_any(),
            View::Conditions
            | View::Horizon
            | View::Replications
            | View::Mechanism
            | View::Filter => {
                crate::parts::runtime_addendum::items(wb, gapscope_view::nav::ViewId::id(id))
            }
            View::Sweep => view! {
                <Figure
                    svg=tv_runtime::sweep_chart(slice)
                    name="cap-sweep".into()
                    wb=wb
                    testid="sweep-chart"
                />
                <TableView table=tv_runtime::sweep_table(slice) wb=wb />
            }
            .into_any(),
            View::Trace => view! {
                <TableView table=tv_runtime::trace_table(slice) wb=wb />
                <TableView table=tv_runtime::exposure_table(slice) wb=wb />
            }
            .into_any(),
            View::Verification => view! {
                <p class="sentence" data-testid="verification-summary">
                    {tv_runtime::verification_summary(&r)}
                </p>
                <TableView table=tv_runtime::verification_table(&r) wb=wb />
                <TableView table=tv_runtime::instance_table(&r) wb=wb />
            }
            .into_any(),
            View::Episodes => {
                let (ids, table) = tv_runtime::episode_list(&r, &wb.rt.filter.get());
                view! {
                    <FilterSelects
                        labels=["slice", "condition", "cap"]
                        options=tv_runtime::filter_options(&r)
                        value=move |k: usize| wb.rt.filter.with(|f| f.value(k))
                        on_change=move |(k, v): (usize, String)| {
                            wb.rt.filter.update(|f| *f = f.with(k, &v));
                        }
                        testid="runtime-filter"
                    />
                    <ClickTable
                        table=table
                        ids=ids
                        testid="runtime-episodes"
                        on_open=Callback::new(move |id: String| {
                            wb.rt.episode.set(Some(id));
                            wb.rt.turn.set(0);
                            wb.rt.view.set(View::Stepper);
                        })
                    />
                }
                .into_any()
            }
            View::Stepper => match wb
                .rt
                .episode
                .get()
                .and_then(|id| tv_runtime::episode_view(&r, &id))
            {
                None => view! { <p class="explain">"Open an episode from the Episodes list."</p> }
                    .into_any(),
                Some(v) => {
                    let n = v.turns.len();
                    let k = wb.rt.turn.get().min(n.saturating_sub(1));
                    let turn = v.turns.get(k).cloned();
                    let table = tv_runtime::turns_table(&v);
                    view! {
                        <article
                            class="viewer"
                            data-testid="runtime-stepper"
                            data-id=v.episode_id.clone()
                        >
                            <h3>
                                {format!(
                                    "{} — {}, cap {}, score {:.3}{}, {}",
                                    v.episode_id,
                                    v.condition,
                                    v.cap,
                                    v.score,
                                    v
                                        .verified
                                        .map(|x| format!(" (verified {x:.3})"))
                                        .unwrap_or_default(),
                                    v.termination,
                                )}
                            </h3>
                            <p class="stepper-nav">
                                <button
                                    data-testid="turn-prev"
                                    disabled={k == 0}
                                    on:click=move |_| {
                                        wb.rt.turn.update(|t| *t = t.saturating_sub(1));
                                    }
                                >
                                    "← previous turn"
                                </button>
                                <span data-testid="turn-index">
                                    {format!(" turn {} of {} ", k + 1, n)}
                                </span>
                                <button
                                    data-testid="turn-next"
                                    disabled={k + 1 >= n}
                                    on:click=move |_| wb.rt.turn.update(|t| *t += 1)
                                >
                                    "next turn →"
                                </button>
                            </p>
                            {turn
                                .map(|t| {
                                    view! {
                                        <div
                                            class="turn"
                                            class:tool-error=t.name_error
                                            data-testid="turn"
                                            data-cap-hit=t.cap_hit.to_string()
                                            data-name-error=t.name_error.to_string()
                                        >
                                            <p class="sentence" data-testid="turn-note">
                                                {t.note.clone()}
                                            </p>
                                            {t
                                                .reset_before
                                                .then(|| {
                                                    view! {
                                                        <p class="detail">
                                                            "The runtime cleared the bindings before this turn (stateless deployment)."
                                                        </p>
                                                    }
                                                })}
                                            <p class="detail">
                                                {format!(
                                                    "record: {} → {} entries",
                                                    t.record_before.map_or("—".into(), |x| x.to_string()),
                                                    t.record_after.map_or("—".into(), |x| x.to_string()),
                                                )}
                                            </p>
                                            {t
                                                .code
                                                .map(|c| {
                                                    view! {
                                                        <details class="tool-call">
                                                            <summary>"code"</summary>
                                                            <pre>{c}</pre>
                                                        </details>
                                                    }
                                                })}
                                            <ol class="calls">
                                                {t
                                                    .calls
                                                    .into_iter()
                                                    .map(|c| {
                                                        view! {
                                                            <li class:cut=c.cut class:tool-error=c.error.is_some()>
                                                                {format!(
                                                                    "{}{}({}){}",
                                                                    if c.cut { "✂ cut by the cap: " } else { "" },
                                                                    c.tool,
                                                                    c.args,
                                                                    c
                                                                        .error
                                                                        .as_ref()
                                                                        .map(|e| format!(" → error: {e}"))
                                                                        .unwrap_or_default(),
                                                                )}
                                                            </li>
                                                        }
                                                    })
                                                    .collect_view()}
                                            </ol>
                                            {t.error.map(|e| view! { <pre class="invalid">{e}</pre> })}
                                        </div>
                                    }
                                })}
                            <details class="alt">
                                <summary>"Every turn as a table"</summary>
                                <TableView table=table wb=wb />
                            </details>
                        </article>
                    }.into_any()
                }
            },
        };
        view! {
            {slices}
            {body}
        }
        .into_any()
    }
}
