//! What the page showed before an import: kept while the import runs, put
//! back when it is cancelled (a cancelled import returns every view to its
//! previous state), dropped when it answers.

use std::sync::Arc;

use gapscope_compare::CompareReport;
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_data::RoleOverrides;
use gapscope_gaps::manifest::Input;
use gapscope_gaps::overview::Overview;
use gapscope_view::conversation::ConversationPage;
use gapscope_view::nav::GapsView as View;
use gapscope_worker::{Pair, Source};
use leptos::prelude::*;

use crate::parts::Workbench;

/// The state an import changes, as it was before the import.
pub(crate) struct Before {
    attached: Vec<web_sys::File>,
    derived: Vec<String>,
    digests: Option<(String, Vec<Input>)>,
    source: Source,
    pair: Option<Pair>,
    roles: RoleOverrides,
    trajectories: TrajectoryOptions,
    scorers: Vec<String>,
    assoc_cell: Option<(usize, usize)>,
    gap_cell: Option<(usize, String)>,
    needs: Option<String>,
    view: View,
    overview: Option<Result<Arc<Overview>, String>>,
    overview_key: String,
    side_source: Source,
    open: Option<Result<ConversationPage, String>>,
    compare: Option<Result<Arc<CompareReport>, String>>,
    compare_pair: (usize, usize),
}

impl Workbench {
    /// Keep what the page shows now, to be put back if the import about to
    /// start is cancelled (an import already kept is not kept again: the
    /// page before the first one is the one to return to).
    pub(crate) fn keep_before(self) {
        if self.gaps.before.with_value(Option::is_some) {
            return;
        }
        let before = Before {
            attached: self.gaps.attached.get_value(),
            derived: self.gaps.derived.get_value(),
            digests: self.gaps.digests.get_value(),
            source: self.gaps.source.get_value(),
            pair: self.gaps.pair.get_untracked(),
            roles: self.gaps.roles.get_untracked(),
            trajectories: self.gaps.trajectories.get_untracked(),
            scorers: self.traj.scorers.get_untracked(),
            assoc_cell: self.gaps.assoc_cell.get_untracked(),
            gap_cell: self.gaps.gap_cell.get_untracked(),
            needs: self.gaps.needs.get_untracked(),
            view: self.gaps.view.get_untracked(),
            overview: self.traj.overview.get_untracked(),
            overview_key: self.traj.overview_key.get_value(),
            side_source: self.traj.side_source.get_value(),
            open: self.traj.open.answer.get_untracked(),
            compare: self.cmp.report.answer.get_untracked(),
            compare_pair: self.cmp.pair.get_untracked(),
        };
        self.gaps.before.set_value(Some(before));
    }

    /// The import answered: what it replaced is not needed any more.
    pub(crate) fn drop_before(self) {
        self.gaps.before.set_value(None);
    }

    /// Put back what the page showed before the cancelled import.
    pub(crate) fn restore_before(self) {
        let Some(b) = self.gaps.before.try_update_value(Option::take).flatten() else {
            return;
        };
        self.gaps.attached.set_value(b.attached);
        self.gaps.derived.set_value(b.derived);
        self.gaps.digests.set_value(b.digests);
        self.gaps.source.set_value(b.source);
        self.gaps.pair.set(b.pair);
        self.gaps.roles.set(b.roles);
        self.gaps.trajectories.set(b.trajectories);
        self.traj.scorers.set(b.scorers);
        self.gaps.assoc_cell.set(b.assoc_cell);
        self.gaps.gap_cell.set(b.gap_cell);
        self.gaps.needs.set(b.needs);
        self.traj.overview_job.set_value(None);
        self.traj.overview_key.set_value(b.overview_key);
        self.traj.side_source.set_value(b.side_source);
        self.traj.overview.set(b.overview);
        self.traj.open.answer.set(b.open);
        self.cmp.pair.set(b.compare_pair);
        self.cmp.report.answer.set(b.compare);
        // The side by side is read again when a task is opened.
        self.cmp.task.set(None);
        if self.gaps.view.get_untracked() != b.view {
            self.gaps.view.set(b.view);
        }
    }
}
