//! The parts of the page, one module each (its state struct, the jobs it
//! sends to the worker pool and its components), the [`widgets`] they share,
//! and the [`Workbench`] that composes every part's state with what they
//! share (settings, area, hover card, theme, the pool), built from the URL
//! (settings and view ids are parsed here and only here).

pub(crate) mod compare;
pub(crate) mod evidence;
pub(crate) mod evidence_analyses;
pub(crate) mod experiments;
pub(crate) mod gaps;
pub(crate) mod misplaced;
pub(crate) mod runtime;
pub(crate) mod runtime_addendum;
pub(crate) mod teaching;
pub(crate) mod trajectories;
pub(crate) mod widgets;

use gapscope_data::profile::RoleOverrides;
use gapscope_gaps::analysis::MacroDefinition;
use gapscope_view::heatmap::CorrelationKind;
use gapscope_view::nav::{Area, Choice, Place};
use gapscope_worker::{Source, CORPUS_LABEL, EXAMPLE_LABEL};
use leptos::prelude::*;

use crate::web;
use compare::CompareState;
use evidence::EvidenceState;
use gaps::GapsState;
use runtime::RuntimeState;
use trajectories::TrajectoriesState;
use widgets::job::Workers;
use widgets::Hover;

/// The browser-storage key of the theme.
/// Analysis settings as the user typed them (validated before use).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Knobs {
    pub(crate) alpha: f64,
    pub(crate) bootstrap: usize,
    pub(crate) seed: u64,
    pub(crate) macro_definition: MacroDefinition,
}

pub(crate) const THEME: &str = "gapscope.theme";

/// The files opened for a page's own source (`None`: its built-in data).
pub(crate) fn opened(
    source: Option<&Source>,
    files: StoredValue<Vec<web_sys::File>, LocalStorage>,
) -> Vec<web_sys::File> {
    if source.is_some() {
        files.get_value()
    } else {
        Vec::new()
    }
}

/// [`source_label`] in a sentence: more than two files are "N files" (the
/// summary's title and the trajectory overview name them).
pub(crate) fn short_source_label(source: &Source) -> String {
    match source {
        Source::Attached { names, folders } if folders.is_empty() && names.len() > 2 => {
            format!("{} files", names.len())
        }
        Source::Files { files } if files.len() > 2 => format!("{} files", files.len()),
        other => source_label(other),
    }
}

/// The name a source is shown by.
pub(crate) fn source_label(source: &Source) -> String {
    match source {
        Source::Example => EXAMPLE_LABEL.to_string(),
        Source::File { name, .. } => name.clone(),
        Source::Files { files } => files
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        Source::Attached { names, folders } => {
            let mut shown: Vec<&str> = folders.iter().map(String::as_str).collect();
            shown.extend(
                names
                    .iter()
                    .filter(|n| Source::folder_of(folders, n).is_none())
                    .map(String::as_str),
            );
            shown.join(" + ")
        }
        Source::Corpus => CORPUS_LABEL.to_string(),
    }
}

/// The whole page state: the pool, what every part shares (settings, area,
/// hover card, theme) and one state struct per part.
#[derive(Clone, Copy)]
pub(crate) struct Workbench {
    pub(crate) workers: Workers,
    pub(crate) knobs: RwSignal<Knobs>,
    pub(crate) hover: RwSignal<Option<Hover>>,
    pub(crate) theme: RwSignal<String>,
    /// Which part of the workbench: realization gaps, evidence, runtime.
    pub(crate) area: RwSignal<Area>,
    pub(crate) gaps: GapsState,
    pub(crate) traj: TrajectoriesState,
    /// The Compare view (a trajectory page).
    pub(crate) cmp: CompareState,
    /// The Experiments view (a trajectory page).
    pub(crate) exp: experiments::ExperimentsState,
    pub(crate) ev: EvidenceState,
    pub(crate) rt: RuntimeState,
}

impl Workbench {
    pub(crate) fn new() -> Self {
        let mut knobs = Knobs {
            alpha: 10.0,
            bootstrap: gapscope_gaps::Settings::default().bootstrap,
            seed: 0,
            macro_definition: MacroDefinition::Mean,
        };
        let pairs = web::query();
        let place = Place::from_query(&pairs);
        let cmp = CompareState::new();
        let mut roles = RoleOverrides::default();
        let mut score = gapscope_data::formats::inspect::ScoreChoice::default();
        for (k, v) in &pairs {
            match k.as_str() {
                "alpha" => {
                    knobs.alpha = v
                        .parse()
                        .ok()
                        .filter(|a: &f64| *a > 0.0 && a.is_finite())
                        .unwrap_or(knobs.alpha);
                }
                "B" => {
                    knobs.bootstrap = v
                        .parse()
                        .ok()
                        .filter(|b| *b <= gapscope_gaps::analysis::MAX_BOOTSTRAP)
                        .unwrap_or(knobs.bootstrap);
                }
                "seed" => knobs.seed = v.parse().unwrap_or(knobs.seed),
                "macro" => {
                    knobs.macro_definition =
                        MacroDefinition::parse(v).unwrap_or(knobs.macro_definition);
                }
                // Column roles for the files the page reopens (a bad value
                // keeps the defaults, like any other bad query value).
                "roles" => roles = serde_json::from_str(v).unwrap_or_default(),
                // The Inspect score rewards come from (as `--scorer`).
                "scorer" => {
                    score =
                        gapscope_data::formats::inspect::ScoreChoice::parse(v).unwrap_or_default();
                }
                // The Compare view's settings (a bad key is reported there).
                "by" => cmp.by.set(v.clone()),
                "merge" => cmp.merges.set(v.clone()),
                "fail" if v == "1" => cmp.failures.set(true),
                "p" => cmp
                    .p
                    .set(gapscope_view::compare::PKind::parse(v).unwrap_or_default()),
                _ => {}
            }
        }
        let corr = if place.spearman {
            CorrelationKind::Spearman
        } else {
            CorrelationKind::Pearson
        };
        let gaps = GapsState::new(place.gaps, corr);
        gaps.roles.set(roles);
        gaps.trajectories.update(|t| t.score = score);
        let traj = TrajectoriesState::new();
        traj.wanted.set(place.trajectory.clone());
        let ev = EvidenceState::new();
        ev.view.set(place.evidence);
        ev.wanted.set_value(place.evidence_episode.clone());
        let rt = RuntimeState::new();
        rt.view.set(place.runtime);
        rt.slice.set(place.slice);
        rt.wanted.set_value(place.runtime_episode.clone());
        Workbench {
            workers: Workers::new(),
            knobs: RwSignal::new(knobs),
            hover: RwSignal::new(None),
            theme: RwSignal::new(web::load(THEME).unwrap_or_else(|| "auto".into())),
            area: RwSignal::new(place.area),
            gaps,
            traj,
            cmp,
            exp: experiments::ExperimentsState::new(),
            ev,
            rt,
        }
    }
}
