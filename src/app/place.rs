//! The page's place in the URL: part, views, sub-views and the open
//! trajectory ([`gapscope_view::nav::Place`]) with the analysis settings,
//! written whenever they change (a view change is a history entry, so Back
//! returns to the previous view) and read again on Back and Forward.

use gapscope_gaps::analysis::MacroDefinition;
use gapscope_view::heatmap::CorrelationKind;
use gapscope_view::nav::{files_fingerprint, Area, Choice, GapsView, Place, TrajectoryLink};
use gapscope_worker::{ask, Source};
use leptos::prelude::*;

use crate::parts::{source_label, Workbench};
use crate::web;

/// The name a built-in source has in a trajectory link (it has no file to hash).
fn builtin_fingerprint(source: &Source) -> Option<&'static str> {
    match source {
        Source::Example => Some("example"),
        Source::Corpus => Some("corpus"),
        _ => None,
    }
}

impl Workbench {
    /// Where the page is now (tracked: an effect that calls it reruns when
    /// the place changes).
    pub(crate) fn place(self) -> Place {
        let open = self.traj.open.answer.with(|a| match a {
            Some(Ok(t)) => Some(t.id.clone()),
            _ => None,
        });
        let fingerprint = self.traj.fingerprint.get();
        let label = source_label(&self.traj.side_source.get_value());
        let trajectory = match open {
            Some(id) => Some(TrajectoryLink {
                id,
                files: fingerprint
                    .filter(|(l, _)| *l == label)
                    .map(|(_, f)| f)
                    .unwrap_or_default(),
            }),
            // A link not applied yet stays in the URL.
            None => self.traj.wanted.get(),
        };
        Place {
            area: self.area.get(),
            gaps: self.gaps.view.get(),
            evidence: self.ev.view.get(),
            runtime: self.rt.view.get(),
            spearman: self.gaps.corr_kind.get() == CorrelationKind::Spearman,
            slice: self.rt.slice.get(),
            // An episode the URL named stays in it until its report is here.
            evidence_episode: self.ev.episode.get().or_else(|| self.ev.wanted.get_value()),
            runtime_episode: self.rt.episode.get().or_else(|| self.rt.wanted.get_value()),
            trajectory,
        }
    }

    /// Go to `place` (Back, Forward): the part, the views and the
    /// coefficient; an episode or trajectory of the entry is opened when it
    /// is not the one open.
    pub(crate) fn go(self, place: &Place) {
        fn set_if<T: PartialEq + Send + Sync + 'static>(s: RwSignal<T>, v: T) {
            if s.with_untracked(|c| *c != v) {
                s.set(v);
            }
        }
        set_if(self.area, place.area);
        set_if(self.gaps.view, place.gaps);
        set_if(self.ev.view, place.evidence);
        set_if(self.rt.view, place.runtime);
        set_if(
            self.gaps.corr_kind,
            if place.spearman {
                CorrelationKind::Spearman
            } else {
                CorrelationKind::Pearson
            },
        );
        set_if(self.rt.slice, place.slice);
        if place.evidence_episode != self.ev.episode.get_untracked() {
            match &place.evidence_episode {
                Some(id) => self.open_evidence_episode(id.clone()),
                None => self.ev.episode.set(None),
            }
        }
        set_if(self.rt.episode, place.runtime_episode.clone());
    }

    /// The fingerprint of the files the trajectory pages show
    /// ([`files_fingerprint`] of their SHA-256), into `traj.fingerprint`:
    /// at once for built-in data or files already hashed, else after a
    /// digest job (the files are read again).
    pub(crate) fn ensure_fingerprint(self) {
        let source = self.traj.side_source.get_value();
        let label = source_label(&source);
        let known = self
            .traj
            .fingerprint
            .with_untracked(|f| f.as_ref().is_some_and(|(l, _)| *l == label));
        if known {
            return;
        }
        if let Some(name) = builtin_fingerprint(&source) {
            self.traj.fingerprint.set(Some((label, name.to_string())));
            return;
        }
        if let Some((_, inputs)) = self.gaps.digests.get_value().filter(|(l, _)| *l == label) {
            let fp = files_fingerprint(inputs.iter().map(|i| i.sha256.as_str()));
            self.traj.fingerprint.set(Some((label, fp)));
            return;
        }
        if self.traj.digest.running() {
            return;
        }
        self.traj.digest.start(
            self.workers,
            ask::Digests {
                source: source.clone(),
            },
            self.files_of(&source),
            |_| {},
            move |_, answer| {
                // Files opened since are fingerprinted on their own turn.
                if source_label(&self.traj.side_source.get_value()) != label {
                    return;
                }
                match answer {
                    Ok(inputs) => {
                        let fp = files_fingerprint(inputs.iter().map(|i| i.sha256.as_str()));
                        self.gaps.digests.set_value(Some((label.clone(), inputs)));
                        self.traj.fingerprint.set(Some((label, fp)));
                    }
                    Err(e) => self.traj.link_note.set(Some(format!(
                        "The files could not be hashed for a link to this trajectory: {e}"
                    ))),
                }
            },
        );
    }

    /// Apply a trajectory link of the URL when the files on screen are its
    /// files: the trajectory opens in the viewer. Otherwise the link stays
    /// (and the Trajectories view says which files it needs).
    pub(crate) fn apply_link(self) {
        let Some(link) = self.traj.wanted.get_untracked() else {
            return;
        };
        let overview = self.traj.overview.get_untracked();
        let Some(Ok(overview)) = overview else {
            return;
        };
        let label = source_label(&self.traj.side_source.get_value());
        let Some(fp) = self
            .traj
            .fingerprint
            .get_untracked()
            .filter(|(l, _)| *l == label)
            .map(|(_, f)| f)
        else {
            self.ensure_fingerprint();
            return;
        };
        if fp != link.files {
            return;
        }
        self.traj.wanted.set(None);
        if overview.trajectories.iter().any(|t| t.id == link.id) {
            self.traj.link_note.set(None);
            self.area.set(Area::Gaps);
            if self.gaps.view.get_untracked() != GapsView::Trajectories {
                self.gaps.view.set(GapsView::Trajectories);
            }
            self.traj.reveal.set_value(true);
            self.open_trajectory(link.id);
        } else {
            self.traj.link_note.set(Some(format!(
                "The link's files are loaded, but they hold no trajectory `{}`.",
                link.id
            )));
        }
    }
}

/// Keep the place and the settings in the URL, and follow Back and Forward.
pub(crate) fn keep_in_url(wb: Workbench) {
    let shown = StoredValue::new(wb.place_untracked());
    Effect::new(move |_| {
        let place = wb.place();
        let k = wb.knobs.get();
        let mut q = place.to_query();
        q.extend([
            ("alpha", k.alpha.to_string()),
            ("B", k.bootstrap.to_string()),
            ("seed", k.seed.to_string()),
        ]);
        if k.macro_definition != MacroDefinition::Mean {
            q.push(("macro", k.macro_definition.name().into()));
        }
        let roles = wb.gaps.roles.get();
        if roles != Default::default() {
            q.push(("roles", serde_json::to_string(&roles).unwrap_or_default()));
        }
        if let Some(s) = wb
            .gaps
            .trajectories
            .with(|t| gapscope_view::trajectories::score_choice_name(&t.score))
        {
            q.push(("scorer", s));
        }
        // The Compare view's settings, when not the defaults.
        let by = wb.cmp.by.get();
        if by != "model" {
            q.push(("by", by));
        }
        let merges = wb.cmp.merges.get();
        if !merges.trim().is_empty() {
            q.push(("merge", merges));
        }
        if wb.cmp.failures.get() {
            q.push(("fail", "1".into()));
        }
        let p = wb.cmp.p.get();
        if p != gapscope_view::compare::PKind::default() {
            q.push(("p", p.id().into()));
        }
        let push = shown.with_value(|s| s.is_new_view(&place));
        shown.set_value(place);
        web::set_query(&q, push);
    });
    web::on_history(move || {
        let place = Place::from_query(&web::query());
        // Recorded first: the effect then sees no new view and pushes nothing.
        shown.set_value(place.clone());
        wb.go(&place);
    });
}

impl Workbench {
    fn place_untracked(self) -> Place {
        untrack(|| self.place())
    }
}
