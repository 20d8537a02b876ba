//! Evidence to action: the worked case set (or opened files) scored by a
//! worker, its tables and figures, the episode list and the replay.

use gapscope_view::evidence as tv_evidence;
use gapscope_view::nav::EvidenceView as View;
use gapscope_worker::{ask, Source};
use leptos::prelude::*;

use crate::parts::misplaced::ErrorText;

use crate::parts::widgets::job::JobSlot;
use crate::parts::widgets::{
    area_panel, closest_of, sub_nav, ClickTable, Figure, FilterSelects, TableView,
};
use crate::parts::{opened, source_label, Workbench};

/// The evidence part's state.
#[derive(Clone, Copy)]
pub(crate) struct EvidenceState {
    pub(crate) report: JobSlot<ask::Evidence, gapscope_evidence::EvidenceReport>,
    /// The intervention analyses' rows (§8) as the form's four fields, in
    /// the CLI's syntax (empty: the addendum's defaults).
    pub(crate) rows: RwSignal<[String; 4]>,
    /// The addendum's views as the worker wrote them beside the report.
    pub(crate) page: StoredValue<tv_evidence::analyses::AddendumPage>,
    /// The report's JSON as the command line writes it (the export).
    pub(crate) json: StoredValue<String>,
    /// `None`: the worked set.
    pub(crate) source: StoredValue<Option<Source>>,
    pub(crate) files: StoredValue<Vec<web_sys::File>, LocalStorage>,
    pub(crate) view: RwSignal<View>,
    pub(crate) filter: RwSignal<tv_evidence::EpisodeFilter>,
    pub(crate) episode: RwSignal<Option<String>>,
    pub(crate) messages: JobSlot<ask::EvidenceMessages>,
    /// An episode the URL names, opened when the report has come.
    pub(crate) wanted: StoredValue<Option<String>>,
}

impl EvidenceState {
    pub(crate) fn new() -> Self {
        EvidenceState {
            report: JobSlot::new(),
            page: StoredValue::new(Default::default()),
            rows: RwSignal::new(Default::default()),
            json: StoredValue::new(String::new()),
            source: StoredValue::new(None),
            files: StoredValue::new_local(Vec::new()),
            view: RwSignal::new(View::Ecs),
            filter: RwSignal::new(Default::default()),
            episode: RwSignal::new(None),
            messages: JobSlot::new(),
            wanted: StoredValue::new(None),
        }
    }
}

impl Workbench {
    /// Score the evidence source (the worked set unless files were opened).
    pub(crate) fn run_evidence(self) {
        self.ev.report.cancel(self.workers);
        self.ev.episode.set(None);
        self.ev.messages.answer.set(None);
        self.ev.filter.set(Default::default());
        let source = self.ev.source.get_value();
        let k = self.knobs.get_untracked();
        let job = ask::Evidence {
            source: source.clone(),
            bootstrap: k.bootstrap.min(10_000),
            seed: k.seed,
            rows: self.ev.rows.get_untracked(),
        };
        let files = opened(source.as_ref(), self.ev.files);
        let (slot, json, page) = (self.ev.report, self.ev.json, self.ev.page);
        slot.start(
            self.workers,
            job,
            files,
            |_| {},
            move |_, answer| {
                slot.answer.set(Some(answer.and_then(|e| {
                    page.set_value(e.page);
                    let report = e.report.report();
                    json.set_value(e.report.into_json());
                    report
                })));
            },
        );
    }

    /// Open one evidence episode in the replay (its messages read by a worker).
    pub(crate) fn open_evidence_episode(self, id: String) {
        self.ev.episode.set(Some(id.clone()));
        self.ev.messages.answer.set(None);
        self.ev.view.set(View::Episode);
        let source = self.ev.source.get_value();
        let files = opened(source.as_ref(), self.ev.files);
        let job = ask::EvidenceMessages {
            source,
            id: id.clone(),
        };
        // Not cancelled by a newer episode: its answer is only dropped.
        self.ev.messages.start(
            self.workers,
            job,
            files,
            |_| {},
            move |_, answer| {
                if self.ev.episode.get_untracked().as_deref() == Some(id.as_str()) {
                    self.ev.messages.answer.set(Some(answer));
                }
            },
        );
    }
}

#[component]
pub(crate) fn EvidenceArea(wb: Workbench) -> impl IntoView {
    Effect::new(move |_| {
        if wb.ev.report.answer.with(std::option::Option::is_none) && !wb.ev.report.running() {
            wb.run_evidence();
        }
    });
    // An episode named by the URL, once the report that has it is here.
    Effect::new(move |_| {
        let has = wb
            .ev
            .report
            .answer
            .with(|a| match (a, wb.ev.wanted.get_value()) {
                (Some(Ok(r)), Some(id)) => Some(r.episodes.iter().any(|e| e.trajectory_id == id)),
                _ => None,
            });
        if let Some(has) = has {
            if let Some(id) = wb.ev.wanted.get_value() {
                wb.ev.wanted.set_value(None);
                if has {
                    wb.open_evidence_episode(id);
                }
            }
        }
    });
    let pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        if let Some(list) = input.files() {
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            let names = files.iter().map(web_sys::File::name).collect();
            wb.ev.files.set_value(files);
            wb.ev.source.set_value(Some(Source::attached(names)));
            wb.ev.report.answer.set(None);
            wb.run_evidence();
        }
    };
    view! {
        <section class="summary" data-testid="evidence-source">
            {move || {
                let worked = wb.ev.source.with_value(std::option::Option::is_none);
                wb.ev.report.answer.track();
                if worked {
                    view! {
                        <span class="badge synthetic" data-testid="worked-badge">
                            "worked case set"
                        </span>
                        <span class="origin">
                            "42 cases and scripted trajectories written for gapscope (not the paper's benchmark, not language models); "
                            <code>"gapscope evidence worked"</code>" writes them"
                        </span>
                    }
                        .into_any()
                } else {
                    view! {
                        <span class="file">
                            {wb
                                .ev
                                .source
                                .with_value(|s| s.as_ref().map(source_label).unwrap_or_default())}
                        </span>
                    }
                        .into_any()
                }
            }}
            <p class="detail">
                "Open your own: "
                <label class="pick">
                    "a case file and its trajectories (JSONL)"
                    <input type="file" multiple data-testid="evidence-input" on:change=pick />
                </label> " · "
                <button
                    class="link"
                    data-testid="evidence-worked"
                    on:click=move |_| {
                        wb.ev.source.set_value(None);
                        wb.ev.report.answer.set(None);
                        wb.run_evidence();
                    }
                >
                    "the worked set"
                </button>
            </p>
        </section>
        {sub_nav(wb.ev.view, Some("evidence-nav"))}
        {area_panel(
            wb,
            wb.ev.view,
            false,
            move |id| view! { <EvidenceView wb=wb id=id /> }.into_any(),
        )}
    }
}

#[component]
pub(crate) fn EvidenceView(wb: Workbench, id: View) -> impl IntoView {
    move || {
        let r = match wb.ev.report.answer.get() {
            None => return view! { <p class="explain">"Scoring in a worker…"</p> }.into_any(),
            Some(Err(e)) => {
                // Rows of the analyses the worker refused: the form stays to
                // mend them.
                let mend = wb
                    .ev
                    .rows
                    .with_untracked(|r| r.iter().any(|f| !f.trim().is_empty()));
                return view! {
                    <p class="invalid" role="alert" data-testid="evidence-error">
                        <ErrorText wb=wb message=e files=wb.ev.files.get_value() />
                    </p>
                    {mend.then(|| view! { <crate::parts::evidence_analyses::RowsForm wb=wb /> })}
                }
                .into_any();
            }
            Some(Ok(r)) => r,
        };
        match id {
            View::Ecs => view! {
                <TableView table=tv_evidence::ecs_protocol_table(&r) wb=wb />
                {crate::parts::evidence_analyses::items(wb, "ecs")}
                <TableView table=tv_evidence::ecs_domain_table(&r) wb=wb />
            }
            .into_any(),
            View::Coverage => {
                view! { <TableView table=tv_evidence::coverage_table(&r) wb=wb /> }.into_any()
            }
            View::Failures => {
                let svg = tv_evidence::failure_chart(&r);
                // A segment lists its episodes on a click, or on Enter or
                // space when it has the focus (each is a tab stop).
                let open = move |ev: &web_sys::Event| -> bool {
                    let Some(bar) = closest_of(ev, "[data-failure]") else {
                        return false;
                    };
                    let attr = |k: &str| bar.get_attribute(k);
                    wb.ev.filter.set(tv_evidence::EpisodeFilter {
                        config: attr("data-config"),
                        protocol: attr("data-protocol"),
                        failure: attr("data-failure"),
                        ids: None,
                    });
                    wb.ev.view.set(View::Episodes);
                    true
                };
                view! {
                    <p class="detail">
                        "Click a segment (or focus it and press Enter) to list its episodes."
                    </p>
                    <div
                        on:click=move |ev| {
                            open(&ev);
                        }
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                            if matches!(ev.key().as_str(), "Enter" | " ") && open(&ev) {
                                ev.prevent_default();
                            }
                        }
                        data-testid="failure-chart-wrap"
                    >
                        <Figure svg=svg name="failure-types".into() wb=wb testid="failure-chart" />
                    </div>
                    <details class="alt">
                        <summary>"The bars as a table"</summary>
                        <TableView table=tv_evidence::failure_table(&r) wb=wb />
                    </details>
                }
                .into_any()
            }
            View::Effort => view! {
                <div class="figures">
                    {tv_evidence::effort_charts(&r)
                        .into_iter()
                        .map(|(p, svg)| {
                            view! {
                                <Figure
                                    svg=svg
                                    name=format!("effort-{}", p.name())
                                    wb=wb
                                    testid="effort-chart"
                                />
                            }
                        })
                        .collect_view()}
                </div>
                <TableView table=tv_evidence::effort_table(&r) wb=wb />
            }
            .into_any(),
            View::Readiness => crate::parts::evidence_analyses::items(wb, "readiness"),
            View::Interventions => crate::parts::evidence_analyses::items(wb, "interventions"),
            View::Composition => crate::parts::evidence_analyses::items(wb, "composition"),
            View::Paired => crate::parts::evidence_analyses::items(wb, "paired"),
            View::Episodes => {
                let f = wb.ev.filter.get();
                let (ids, table) = tv_evidence::episode_list(&r, &f);
                let filtered = f != tv_evidence::EpisodeFilter::default();
                let options = tv_evidence::filter_options(&r)
                    .map(|vs| vs.into_iter().map(|v| (v.clone(), v)).collect::<Vec<_>>());
                view! {
                    <FilterSelects
                        labels=["configuration", "protocol", "outcome"]
                        options=options
                        value=move |k: usize| wb.ev.filter.with(|f| f.value(k))
                        on_change=move |(k, v): (usize, String)| {
                            wb.ev.filter.update(|f| *f = f.with(k, &v));
                        }
                        testid="evidence-filter"
                    />
                    {filtered
                        .then(|| {
                            view! {
                                <p>
                                    <button
                                        class="link"
                                        data-testid="clear-episode-filter"
                                        on:click=move |_| wb.ev.filter.set(Default::default())
                                    >
                                        "show every episode"
                                    </button>
                                </p>
                            }
                        })}
                    <ClickTable
                        table=table
                        ids=ids
                        testid="evidence-episodes"
                        on_open=Callback::new(move |id: String| wb.open_evidence_episode(id))
                    />
                }
                .into_any()
            }
            View::Episode => view! { <EvidenceReplay wb=wb report=r /> }.into_any(),
        }
    }
}

#[component]
pub(crate) fn EvidenceReplay(
    wb: Workbench,
    report: gapscope_evidence::EvidenceReport,
) -> impl IntoView {
    move || {
        let Some(id) = wb.ev.episode.get() else {
            return view! { <p class="explain">"Open an episode from the Episodes list (or a failure bar)."</p> }.into_any();
        };
        let messages = wb.ev.messages.answer.get();
        let msgs = match &messages {
            Some(Ok(m)) => Some(m.as_slice()),
            _ => None,
        };
        let Some(v) = tv_evidence::episode_view(&report, &id, msgs) else {
            return view! { <p class="invalid">{format!("no episode `{id}` in the report")}</p> }
                .into_any();
        };
        view! {
            <article
                class="viewer"
                data-testid="evidence-replay"
                data-id=v.trajectory_id.clone()
                data-outcome=v.outcome
            >
                <h3>
                    {format!(
                        "{} — case {} ({}, {}), {} repetition {}",
                        v.trajectory_id,
                        v.case_id,
                        v.domain,
                        v.protocol,
                        v.config,
                        v.repetition,
                    )}
                </h3>
                <p class="sentence" data-testid="evidence-verdict">
                    {v.verdict.clone()}
                </p>
                <p class="detail">{v.instruction.clone()}</p>
                <ul class="requirements" data-testid="requirements">
                    {v
                        .requirements
                        .iter()
                        .map(|q| {
                            view! {
                                <li class=format!("req {}", q.tone.class()) data-id=q.id.clone()>
                                    {q.summary()}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
                <ol class="messages" data-testid="replay-steps">
                    {v
                        .steps
                        .into_iter()
                        .map(|s| {
                            view! {
                                <li
                                    class=format!("msg role-{}", s.role)
                                    class:tool-error=s.failure_here
                                    data-message=s.message.to_string()
                                >
                                    <span class="role">
                                        {format!("{} · message {}", s.role, s.message)}
                                    </span>
                                    {s.text.map(|t| view! { <div class="text">{t}</div> })}
                                    {s
                                        .calls
                                        .into_iter()
                                        .map(|c| {
                                            view! {
                                                <details class="tool-call">
                                                    <summary>
                                                        <code>{format!("{}({})", c.tool, c.args)}</code>
                                                        {format!(" [{}]", c.class)}
                                                    </summary>
                                                    <pre>
                                                        {format!(
                                                            "call {} · status {}",
                                                            c.call_id,
                                                            c.status.unwrap_or_else(|| "—".into()),
                                                        )}
                                                    </pre>
                                                </details>
                                            }
                                        })
                                        .collect_view()}
                                    {s
                                        .results
                                        .into_iter()
                                        .map(|r| {
                                            view! {
                                                <details class="tool-result">
                                                    <summary>
                                                        {format!(
                                                            "result of {} ({})",
                                                            r.tool,
                                                            r.status.unwrap_or_else(|| "—".into()),
                                                        )}
                                                    </summary>
                                                    <pre>{r.content}</pre>
                                                </details>
                                            }
                                        })
                                        .collect_view()}
                                    {(!s.events.is_empty())
                                        .then(|| {
                                            view! {
                                                <ul class="ledger" data-testid="ledger-events">
                                                    {s
                                                        .events
                                                        .iter()
                                                        .map(|e| {
                                                            view! {
                                                                <li class=format!(
                                                                    "event {}",
                                                                    e.tone().class(),
                                                                )>{e.summary()}</li>
                                                            }
                                                        })
                                                        .collect_view()}
                                                </ul>
                                            }
                                        })}
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
            </article>
        }.into_any()
    }
}
