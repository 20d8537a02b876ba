//! The components of the realization-gap part: each view of the analysis,
//! the column roles and trajectory options, the drop zone and the summary.

use gapscope_data::profile::Role;
use gapscope_data::{ProfileTable, RoleOverrides};
use gapscope_view::format::fmt;
use gapscope_view::gaps::{self as views, GapOrder};
use gapscope_view::heatmap::{
    correlation_heatmap, gap_heatmap, mark_correlations, mark_gaps, CorrelationKind, Heatmap, MARK,
};
use gapscope_view::nav::GapsView as View;
use gapscope_view::trajectories::{TrajectoryFilter, TrajectoryOrder};
use gapscope_worker::{Analysis, Pair, Source, CORPUS_LABEL, EXAMPLE_LABEL};
use leptos::prelude::*;

use super::inference::InferencePanels;
use crate::parts::compare::CompareView;
use crate::parts::experiments::ExperimentsView;
use crate::parts::teaching::TeachingView;
use crate::parts::trajectories::{StabilityView, TrajectoriesView};
use crate::parts::widgets::{Figure, HeatmapView, TableView};
use crate::parts::Workbench;

#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree: the markup of the part, in page order"
)]
pub(crate) fn CurrentView(wb: Workbench, id: View) -> impl IntoView {
    match id {
        View::Trajectories => return view! { <TrajectoriesView wb=wb /> }.into_any(),
        View::Stability => return view! { <StabilityView wb=wb /> }.into_any(),
        View::Teaching => return view! { <TeachingView wb=wb /> }.into_any(),
        View::Data => return view! { <DataView wb=wb /> }.into_any(),
        View::Compare => return view! { <CompareView wb=wb /> }.into_any(),
        View::Experiments => return view! { <ExperimentsView wb=wb /> }.into_any(),
        _ => {}
    }
    (move || {
        let Some(a) = wb.gaps.analysis.get() else {
            return view! { <p class="explain">"Analysing…"</p> }.into_any();
        };
        let r = &a.report;
        match id {
            View::Association => {
                let table = a.report.input.clone();
                let report = a.report.clone();
                view! {
                    <CorrelationToggle wb=wb />
                    {move || {
                        let kind = wb.gaps.corr_kind.get();
                        let mut heatmap = correlation_heatmap(&report, kind);
                        let marked = wb
                            .gaps
                            .inference
                            .answer
                            .with(|a| match a {
                                Some(Ok(page)) => {
                                    let i = usize::from(kind == CorrelationKind::Spearman);
                                    page.correlation_p
                                        .get(i)
                                        .map(|p| {
                                            mark_correlations(
                                                &mut heatmap,
                                                p,
                                                gapscope_gaps::inference::SIGNIFICANT,
                                            );
                                        })
                                        .is_some()
                                }
                                _ => false,
                            });
                        // With the inference: BH-significant cells marked.
                        view! {
                            {marked
                                .then(|| {
                                    view! {
                                        <p class="detail" data-testid="correlation-marks">
                                            {format!(
                                                "{MARK} significant after the Benjamini–Hochberg adjustment over the F × O matrix (adjusted p < 0.05); hover a cell for its p-values.",
                                            )}
                                        </p>
                                    }
                                })}
                            <HeatmapView
                                heatmap=heatmap
                                testid="correlation-heatmap"
                                corner="F \\ O"
                                wb=wb
                                on_pick=Callback::new(move |(j, k): (usize, usize)| {
                                    wb.gaps.assoc_cell.set(Some((j, k)));
                                })
                            />
                        }
                    }}
                    {move || {
                        wb.gaps
                            .assoc_cell
                            .get()
                            .filter(|(j, k)| {
                                *j < table.foundational.names.len()
                                    && *k < table.operations.names.len()
                            })
                            .map(|(j, k)| {
                                view! {
                                    <Figure
                                        svg=views::association_scatter(&table, &a.report, j, k)
                                        name=format!(
                                            "association-{}-{}",
                                            table.foundational.names[j],
                                            table.operations.names[k],
                                        )
                                        wb=wb
                                        testid="association-scatter"
                                    />
                                }
                            })
                    }}
                    <InferencePanels wb=wb view="association" />
                }.into_any()
            }
            View::Predictability => {
                let (t, svg) = views::predictability(r);
                view! {
                    <Figure
                        svg=svg
                        name="predictability".into()
                        wb=wb
                        testid="predictability-chart"
                    />
                    <TableView table=t wb=wb />
                    <InferencePanels wb=wb view="predictability" />
                }.into_any()
            }
            View::Gaps => view! {
                <GapsView wb=wb analysis=a.clone() />
                <InferencePanels wb=wb view="gaps" />
            }.into_any(),
            View::Overall => {
                let (t, line, svg) = views::overall(r);
                view! {
                    <p class="detail" data-testid="overall-line">
                        {line}
                    </p>
                    <Figure svg=svg name="overall-gap".into() wb=wb testid="overall-chart" />
                    <TableView table=t wb=wb />
                }.into_any()
            }
            View::Reward => match views::reward(r) {
                Some((t, d, panels)) => view! {
                    <TableView table=t wb=wb />
                    <TableView table=d wb=wb />
                    <details class="alt">
                        <summary>"The panels as a table"</summary>
                        {views::reward_predictions(r)
                            .map(|t| view! { <TableView table=t wb=wb /> })}
                    </details>
                    <div class="figures">
                        {panels
                            .into_iter()
                            .zip(["F", "O", "F+O"])
                            .map(|(svg, n)| {
                                view! {
                                    <Figure
                                        svg=svg
                                        name=format!("reward-{n}")
                                        wb=wb
                                        testid="reward-chart"
                                    />
                                }
                            })
                            .collect_view()}
                    </div>
                }.into_any(),
                None => view! {
                    <p class="detail">
                        "No reward column in this data: reward prediction needs one (named reward, or assigned as outcome)."
                    </p>
                }.into_any(),
            },
            View::Penalty => view! {
                {match views::penalty(r) {
                    Some((charts, nested)) => {
                        view! {
                            <div class="figures">
                                {charts
                                    .into_iter()
                                    .zip(["mae", "rho", "q2"])
                                    .map(|(svg, n)| {
                                        view! {
                                            <Figure
                                                svg=svg
                                                name=format!("penalty-{n}")
                                                wb=wb
                                                testid="penalty-chart"
                                            />
                                        }
                                    })
                                    .collect_view()}
                            </div>
                            {nested.map(|t| view! { <TableView table=t wb=wb /> })}
                            <details class="alt">
                                <summary>"The curves as a table"</summary>
                                {views::penalty_table(r)
                                    .map(|t| view! { <TableView table=t wb=wb /> })}
                            </details>
                        }
                            .into_any()
                    }
                    None => {
                        view! {
                            <p class="detail">
                                "No reward column in this data: penalty sensitivity is computed for reward prediction."
                            </p>
                        }
                            .into_any()
                    }
                }}
                <InferencePanels wb=wb view="penalty" />
            }.into_any(),
            View::Sensitivity => view! { <SensitivityView wb=wb analysis=a.clone() /> }.into_any(),
            View::Rankings => {
                let (t, svg) = views::rankings(r);
                view! {
                    <p class="detail">
                        {format!(
                            "Spearman ρ between the two means: {}.",
                            fmt(r.rankings.spearman, 3),
                        )}
                    </p>
                    <Figure svg=svg name="rankings".into() wb=wb testid="rankings-chart" />
                    <TableView table=t wb=wb />
                }.into_any()
            }
            View::Paper => view! {
                <p class="detail">
                    "Shown as the paper prints them. With 5–6 of 15 rows these tables cannot determine the paper's predictions; nothing here is computed from them or presented as a reproduction."
                </p>
                {views::PAPER_TABLES
                    .iter()
                    .map(|(title, caption, csv)| {
                        view! {
                            <p class="caption">{*caption}</p>
                            <TableView table=views::paper_table(title, csv) wb=wb />
                        }
                    })
                    .collect_view()}
            }.into_any(),
            _ => view! { <p>"Unknown view."</p> }.into_any(),
        }
    })
    .into_any()
}

/// The data view: the dimensions, the trajectory options, the column roles
/// and the table. The trajectory options are built once, outside the part
/// that follows each new analysis: a result arriving while the user types a
/// rename (a digest, a rerun) must not rebuild the field under their cursor.
#[component]
fn DataView(wb: Workbench) -> impl IntoView {
    let trajectory_files = Memo::new(move |_| {
        wb.gaps.analysis.with(|a| {
            a.as_ref()
                .is_some_and(|a| a.report.input.pooled_macro.is_some())
        })
    });
    let models = Memo::new(move |_| {
        wb.gaps.analysis.with(|a| {
            a.as_ref()
                .map(|a| a.report.models.clone())
                .unwrap_or_default()
        })
    });
    view! {
        {move || {
            wb.gaps
                .analysis
                .get()
                .map_or_else(
                    || view! { <p class="explain">"Analysing…"</p> }.into_any(),
                    |a| {
                        view! {
                            <p class="detail">
                                {format!(
                                    "Dimensions: foundational {}; operations {}.",
                                    a.report.dimensions.foundational.join(", "),
                                    a.report.dimensions.operations.join(", "),
                                )}
                                {(!a.report.input.ignored.is_empty())
                                    .then(|| {
                                        format!(
                                            " Ignored columns: {}.",
                                            a.report.input.ignored.join(", "),
                                        )
                                    })}
                            </p>
                        }
                            .into_any()
                    },
                )
        }}
        <Show when=move || trajectory_files.get()>
            <TrajectoryOptionsView wb=wb models=models />
        </Show>
        {move || {
            wb.gaps
                .analysis
                .get()
                .map(|a| {
                    let differs = a
                        .reimport
                        .as_ref()
                        .filter(|c| !c.agrees())
                        .map(|c| {
                            // A re-imported report that disagrees with its
                            // recomputation: every number that differs.
                            view! { <TableView table=views::reimport_table(c) wb=wb /> }
                        });
                    view! {
                        {differs}
                        <RolePicker wb=wb table=a.report.input.clone() />
                        <TableView table=views::data_table(&a.report.input) wb=wb />
                    }
                })
        }}
    }
}

/// Options of the trajectory files among the inputs: rename or merge models
/// (file metadata is sometimes wrong) and the task subset.
#[component]
pub(crate) fn TrajectoryOptionsView(wb: Workbench, models: Memo<Vec<String>>) -> impl IntoView {
    let invalid = RwSignal::new(None::<String>);
    let current = wb
        .gaps
        .trajectories
        .get_untracked()
        .renames
        .iter()
        .map(|(a, b)| format!("{a}={b}"))
        .collect::<Vec<_>>()
        .join(", ");
    let set_renames = move |text: String| {
        let parsed: Result<Vec<(String, String)>, String> = text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(gapscope_data::trajectory::parse_rename)
            .collect();
        match parsed {
            Ok(renames) => {
                invalid.set(None);
                wb.gaps.trajectories.update(|t| t.renames = renames);
                wb.rerun();
            }
            Err(e) => invalid.set(Some(e)),
        }
    };
    view! {
        <fieldset class="trajectory-options" data-testid="trajectory-options">
            <legend>"Trajectories"</legend>
            <label>
                "rename or merge models (OLD=NEW, comma-separated) "
                <input
                    type="text"
                    data-testid="renames"
                    size="40"
                    placeholder="e.g. gpt-4.1-2025-04-14=GPT-4.1"
                    prop:value=current
                    on:change=move |ev| set_renames(event_target_value(&ev))
                />
            </label>
            <label>
                <input
                    type="checkbox"
                    data-testid="all-tasks"
                    prop:checked=move || wb.gaps.trajectories.get().all_tasks
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        wb.gaps.trajectories.update(|t| t.all_tasks = on);
                        wb.rerun();
                    }
                />
                " use every task (default: only the tasks every model attempted)"
            </label>
            <label>
                <input
                    type="checkbox"
                    data-testid="keep-repeats"
                    prop:checked=move || wb.gaps.trajectories.get().keep_repeats
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        wb.gaps.trajectories.update(|t| t.keep_repeats = on);
                        wb.rerun();
                    }
                />
                " keep repeated trajectories (default: a trajectory read twice, e.g. the same file under two names, counts once)"
            </label>
            <label>
                "domain of files that name none "
                <input
                    type="text"
                    data-testid="domain"
                    size="12"
                    placeholder="e.g. airline"
                    prop:value=move || wb.gaps.trajectories.get().domain.unwrap_or_default()
                    on:change=move |ev| {
                        let d = event_target_value(&ev).trim().to_string();
                        wb.gaps.trajectories.update(|t| t.domain = (!d.is_empty()).then_some(d));
                        wb.rerun();
                    }
                />
            </label>
            <p class="muted">{move || format!("Models now: {}.", models.get().join(", "))}</p>
            {move || {
                invalid
                    .get()
                    .map(|m| {
                        view! {
                            <span class="invalid" role="alert" data-testid="renames-error">
                                {m}
                            </span>
                        }
                    })
            }}
        </fieldset>
    }
}

/// Assign each column a role; the analysis reruns with the new roles.
#[component]
pub(crate) fn RolePicker(wb: Workbench, table: ProfileTable) -> impl IntoView {
    let mut cols: Vec<(String, Role)> = Vec::new();
    cols.extend(
        table
            .foundational
            .names
            .iter()
            .map(|n| (n.clone(), Role::Foundational)),
    );
    cols.extend(
        table
            .operations
            .names
            .iter()
            .map(|n| (n.clone(), Role::Operation)),
    );
    cols.extend(
        table
            .outcome_column
            .iter()
            .map(|n| (n.clone(), Role::Outcome)),
    );
    cols.extend(table.ignored.iter().map(|n| (n.clone(), Role::Ignore)));
    let assigned = StoredValue::new(cols.clone());
    let change = move |name: String, role: Role| {
        let mut cols = assigned.get_value();
        for c in &mut cols {
            if c.0 == name {
                c.1 = role;
            } else if role == Role::Outcome && c.1 == Role::Outcome {
                c.1 = Role::Ignore; // one outcome at a time
            }
        }
        let pick = |r: Role| {
            cols.iter()
                .filter(|c| c.1 == r)
                .map(|c| c.0.clone())
                .collect::<Vec<_>>()
        };
        let outcome = pick(Role::Outcome).into_iter().next();
        wb.gaps.roles.set(RoleOverrides {
            foundational: Some(pick(Role::Foundational)),
            operations: Some(pick(Role::Operation)),
            no_outcome: outcome.is_none(),
            outcome,
            reward_scale: wb.gaps.roles.get_untracked().reward_scale,
            long: wb.gaps.roles.get_untracked().long,
        });
        wb.rerun();
    };
    let label = |r: Role| match r {
        Role::Foundational => "foundational",
        Role::Operation => "operation",
        Role::Outcome => "outcome",
        Role::Ignore => "ignore",
    };
    view! {
        <details class="roles" open=!table.ignored.is_empty()>
            <summary>"Column roles (defaults by name; change any)"</summary>
            <div class="role-grid" data-testid="roles">
                {cols
                    .into_iter()
                    .map(|(name, role)| {
                        let n = name.clone();
                        view! {
                            <label>
                                {name.clone()}
                                <select
                                    data-column=name.clone()
                                    on:change=move |ev| {
                                        let r = match event_target_value(&ev).as_str() {
                                            "foundational" => Role::Foundational,
                                            "operation" => Role::Operation,
                                            "outcome" => Role::Outcome,
                                            _ => Role::Ignore,
                                        };
                                        change(n.clone(), r);
                                    }
                                >
                                    {[
                                        Role::Foundational,
                                        Role::Operation,
                                        Role::Outcome,
                                        Role::Ignore,
                                    ]
                                        .into_iter()
                                        .map(|r| {
                                            view! {
                                                <option value=label(r) selected=r == role>
                                                    {label(r)}
                                                </option>
                                            }
                                        })
                                        .collect_view()}
                                </select>
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
        </details>
    }
}

#[component]
pub(crate) fn CorrelationToggle(wb: Workbench) -> impl IntoView {
    view! {
        <div class="toggle" role="radiogroup" aria-label="correlation">
            {[CorrelationKind::Pearson, CorrelationKind::Spearman]
                .into_iter()
                .map(|k| {
                    view! {
                        <button
                            role="radio"
                            aria-checked=move || (wb.gaps.corr_kind.get() == k).to_string()
                            class:on=move || wb.gaps.corr_kind.get() == k
                            on:click=move |_| wb.gaps.corr_kind.set(k)
                        >
                            {k.label()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[component]
pub(crate) fn GapsView(wb: Workbench, analysis: Analysis) -> impl IntoView {
    let r = analysis.report.clone();
    let ops: Vec<String> = r.operations.keys().cloned().collect();
    let r2 = r.clone();
    view! {
        <label class="sort">
            "Order rows by "
            <select
                data-testid="gap-order"
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    wb.gaps
                        .gap_order
                        .set(
                            match v.as_str() {
                                "model" => GapOrder::Model,
                                "family" => GapOrder::Family,
                                "macro" => GapOrder::Macro,
                                "input" => GapOrder::Input,
                                op => GapOrder::Operation(op.trim_start_matches("op:").to_string()),
                            },
                        );
                }
            >
                <option value="input">"input order"</option>
                <option value="model">"model name"</option>
                <option value="family">"family"</option>
                <option value="macro">"macro gap (largest first)"</option>
                {ops
                    .into_iter()
                    .map(|op| {
                        view! {
                            <option value=format!(
                                "op:{op}",
                            )>{format!("{op} gap (largest first)")}</option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
        {move || {
            let order = views::gap_order(&r, &wb.gaps.gap_order.get());
            let mut full = gap_heatmap(&r);
            let marked = wb
                .gaps
                .inference
                .answer
                .with(|a| match a {
                    Some(Ok(page)) => {
                        mark_gaps(&mut full, &page.marks);
                        page.marks.iter().flatten().any(Option::is_some)
                    }
                    _ => false,
                });
            let heatmap = Heatmap {
                rows: order.iter().map(|&i| full.rows[i].clone()).collect(),
                cells: order.iter().map(|&i| full.cells[i].clone()).collect(),
                ..full
            };
            let r3 = r.clone();
            view! {
                <HeatmapView
                    heatmap=heatmap
                    testid="gap-heatmap"
                    corner="model"
                    wb=wb
                    on_pick=Callback::new(move |(row, col): (usize, usize)| {
                        let order = views::gap_order(&r3, &wb.gaps.gap_order.get_untracked());
                        let op = r3.operations.keys().nth(col).cloned().unwrap_or_default();
                        wb.gaps.gap_cell.set(Some((order[row], op)));
                    })
                />
                {marked
                    .then(|| {
                        view! {
                            <p class="detail" data-testid="gap-marks">
                                {format!(
                                    "{MARK} the gap's 95% interval, from the model's trajectories resampled within the model, excludes 0 (hover a cell for its interval).",
                                )}
                            </p>
                        }
                    })}
            }
        }}
        {move || {
            wb.gaps
                .gap_cell
                .get()
                .map(|(i, op)| {
                    let model = r2.models.get(i).cloned().unwrap_or_default();
                    let has = wb
                        .traj
                        .overview
                        .with(|o| {
                            matches!(
                                o,
                                Some(Ok(o))
                                if o.trajectories.iter().any(|t| t.model == model)
                            )
                        });
                    let (m2, op2) = (model.clone(), op.clone());
                    view! {
                        <Figure
                            svg=views::gap_scatter(&r2, &op, Some(i))
                            name=format!("gap-{op}")
                            wb=wb
                            testid="gap-scatter"
                        />
                        {has
                            .then(|| {
                                view! {
                                    <p>
                                        <button
                                            class="link"
                                            data-testid="to-trajectories"
                                            on:click=move |_| {
                                                wb.traj
                                                    .filter
                                                    .set(TrajectoryFilter {
                                                        model: Some(m2.clone()),
                                                        ..Default::default()
                                                    });
                                                wb.traj
                                                    .order
                                                    .set(TrajectoryOrder::OperationAscending(op2.clone()));
                                                wb.gaps.view.set(View::Trajectories);
                                            }
                                        >
                                            {format!(
                                                "{model}'s trajectories, lowest {op} score first →",
                                            )}
                                        </button>
                                    </p>
                                }
                            })}
                    }
                })
        }}
    }
}

#[component]
pub(crate) fn SensitivityView(wb: Workbench, analysis: Analysis) -> impl IntoView {
    let t = analysis.report.input.clone();
    let current = wb.gaps.pair.get_untracked();
    let f0 = current.as_ref().map_or_else(
        || t.foundational.names.last().cloned().unwrap_or_default(),
        |p| p.foundational.clone(),
    );
    let o0 = current.as_ref().map_or_else(
        || {
            t.operations
                .names
                .get(5)
                .or(t.operations.names.last())
                .cloned()
                .unwrap_or_default()
        },
        |p| p.operation.clone(),
    );
    let p0 = current
        .as_ref()
        .and_then(|p| p.provider.clone())
        .unwrap_or_default();
    let f = RwSignal::new(f0);
    let o = RwSignal::new(o0);
    let provider = RwSignal::new(p0);
    let families: Vec<String> = gapscope_stats::heldout::reference::distinct_in_order(&t.families)
        .into_iter()
        .cloned()
        .collect();
    let ask = move || {
        let p = provider.get_untracked();
        wb.gaps.pair.set(Some(Pair {
            foundational: f.get_untracked(),
            operation: o.get_untracked(),
            provider: (!p.is_empty()).then_some(p),
        }));
        wb.rerun();
    };
    if current.is_none() {
        ask();
    }
    let select = |label: &'static str,
                  options: Vec<String>,
                  sig: RwSignal<String>,
                  testid: &'static str,
                  none: bool| {
        view! {
            <label class="sort">
                {label}
                <select
                    data-testid=testid
                    on:change=move |ev| {
                        sig.set(event_target_value(&ev));
                        ask();
                    }
                >
                    {none.then(|| view! { <option value="">"(none)"</option> })}
                    {options
                        .into_iter()
                        .map(|v| {
                            let sel = v == sig.get_untracked();
                            view! {
                                <option value=v.clone() selected=sel>
                                    {v.clone()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="controls">
            {select("Foundational ", t.foundational.names.clone(), f, "pair-foundational", false)}
            {select("Operation ", t.operations.names.clone(), o, "pair-operation", false)}
            {select("Provider removed ", families, provider, "pair-provider", true)}
        </div>
        {move || {
            wb.gaps
                .analysis
                .get()
                .and_then(|a| views::sensitivity_table(&a.report))
                .map(|t| view! { <TableView table=t wb=wb /> })
        }}
    }
}

#[component]
pub(crate) fn DropZone(wb: Workbench) -> impl IntoView {
    let over = RwSignal::new(false);
    view! {
        <div
            class="dropzone"
            class:over=move || over.get()
            data-testid="dropzone"
            on:dragover=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                over.set(true);
            }
            on:dragleave=move |_| over.set(false)
            on:drop=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                over.set(false);
                let Some(dt) = ev.data_transfer() else { return };
                if let Some(entries) = crate::folders::drop_entries(&dt) {
                    leptos::task::spawn_local(async move {
                        match crate::folders::walk(entries).await {
                            Ok((files, folders)) => wb.open_picked(files, folders),
                            Err(e) => wb.gaps.error.set(Some(e)),
                        }
                    });
                } else if let Some(files) = dt.files() {
                    wb.open_files(files);
                }
            }
        >
            <p>
                "Drop files here: trajectories (τ²-bench and τ-bench results, Inspect AI "
                <code>".eval"</code>
                " logs, canonical JSONL, Harbor/ATIF, SWE-agent, OpenHands, Claude Code, Codex) and profile tables (CSV or JSON: "
                <code>"model,family,TU,…,GI,…,reward"</code>
                "; several files are joined on model). Evidence case specs and runtime episode logs go in their parts above. Or "
                <label class="pick">
                    "choose a file"
                    <input
                        type="file"
                        multiple
                        accept=".csv,.json,.jsonl,.ndjson,.eval,.traj,.trajectory,.txt,.zip,text/csv,application/json"
                        data-testid="file-input"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            if let Some(files) = input.files() {
                                wb.open_files(files);
                            }
                            input.set_value("");
                        }
                    />
                </label> ", "
                <label class="pick">
                    "choose a folder"
                    <input
                        type="file"
                        prop:webkitdirectory=true
                        data-testid="folder-input"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            if let Some(files) = input.files() {
                                wb.open_files(files);
                            }
                            input.set_value("");
                        }
                    />
                </label> " (τ³ results, Harbor jobs, any folder of runs), or "
                <button
                    class="link"
                    on:click=move |_| wb.open(Source::Example)
                    data-testid="load-example"
                >
                    "load the synthetic example"
                </button> "."
            </p>
        </div>
    }
}

#[component]
pub(crate) fn Summary(analysis: Analysis) -> impl IntoView {
    let r = &analysis.report;
    let folds = match r.folds.kind {
        gapscope_stats::heldout::reference::FoldKind::Family => "held out by family".to_string(),
        gapscope_stats::heldout::reference::FoldKind::Model => {
            "held out model by model (leave-one-model-out)".to_string()
        }
    };
    let sentence = format!("{}.", r.summary);
    let detail = format!(
        "Ridge, {folds}, α = {}; {} bootstrap draws, seed {}.",
        r.settings.alpha, r.settings.bootstrap, r.settings.seed
    );
    let warnings = r.warnings.clone();
    view! {
        <section class="summary" data-testid="summary" data-source=analysis.source.clone()>
            <div class="source">
                {if analysis.synthetic {
                    view! {
                        <span class="badge synthetic" data-testid="synthetic-badge">
                            {if analysis.source == CORPUS_LABEL {
                                CORPUS_LABEL
                            } else {
                                EXAMPLE_LABEL
                            }}
                        </span>
                        <span class="origin">
                            "made by gapscope's seeded generator (not real models; "
                            <code>
                                {if analysis.source == CORPUS_LABEL {
                                    "gapscope synth-trajectories"
                                } else {
                                    "gapscope synth"
                                }}
                            </code>" regenerates it)"
                        </span>
                    }
                        .into_any()
                } else {
                    view! { <span class="file">{analysis.source.clone()}</span> }.into_any()
                }}
            </div>
            <p class="sentence" data-testid="summary-sentence">
                {sentence}
            </p>
            <p class="detail" data-testid="summary-detail">
                {detail}
            </p>
            {(!warnings.is_empty())
                .then(|| {
                    view! {
                        <ul class="warnings" data-testid="warnings">
                            {warnings
                                .into_iter()
                                .map(|w| view! { <li>{gapscope_view::words::for_page(&w)}</li> })
                                .collect_view()}
                        </ul>
                    }
                })}
        </section>
    }
}
