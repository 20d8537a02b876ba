//! Where the page is: its parts ([`Area`]) and each part's views, as enums.
//! Strings appear only at the URL boundary ([`ViewId::parse`], [`ViewId::id`]);
//! the menu label and the one-line explanation of each view stay in the
//! part's table (`gaps::VIEWS`, `trajectories::TRAJECTORY_VIEWS`,
//! `evidence::EVIDENCE_VIEWS`, `runtime::RUNTIME_VIEWS`), in menu order.

use crate::evidence::EVIDENCE_VIEWS;
use crate::gaps::VIEWS;
use crate::runtime::RUNTIME_VIEWS;
use crate::trajectories::TRAJECTORY_VIEWS;

/// A setting chosen among a few values (a `<select>` of the page): an id in
/// the URL and the option's label.
pub trait Choice: Copy + Eq + Send + Sync + 'static {
    /// Every value, in option order.
    const ALL: &'static [Self];

    /// The id in the URL and the option's `value`.
    fn id(self) -> &'static str;

    /// The option's text.
    fn label(self) -> &'static str;

    /// The value of an id; `None` for an unknown one.
    fn parse(id: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.id() == id)
    }
}

/// A view (or part) of the page: an id in the URL, a menu label and a
/// one-line explanation.
pub trait ViewId: Copy + Eq + Send + Sync + 'static {
    /// Every value, in menu order.
    const ALL: &'static [Self];

    /// (id in the URL, menu label, one-line explanation).
    fn meta(self) -> (&'static str, &'static str, &'static str);

    /// The id in the URL and in `data-view`/`data-area` attributes.
    fn id(self) -> &'static str {
        self.meta().0
    }

    fn label(self) -> &'static str {
        self.meta().1
    }

    fn explain(self) -> &'static str {
        self.meta().2
    }

    /// The value of a URL id; `None` for an unknown one (the caller keeps
    /// its default, as for any other bad query value).
    fn parse(id: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.id() == id)
    }
}

/// The workbench's parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    Gaps,
    Evidence,
    Runtime,
}

impl ViewId for Area {
    const ALL: &'static [Self] = &[Area::Gaps, Area::Evidence, Area::Runtime];

    fn meta(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Area::Gaps => ("gaps", "Realization gaps", ""),
            Area::Evidence => ("evidence", "Evidence to action", ""),
            Area::Runtime => ("runtime", "Runtime contracts", ""),
        }
    }
}

/// The views of the realization-gap part: [`VIEWS`], then the trajectory
/// pages of [`TRAJECTORY_VIEWS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GapsView {
    Data,
    Association,
    Predictability,
    Gaps,
    Overall,
    Reward,
    Penalty,
    Sensitivity,
    Rankings,
    Paper,
    Trajectories,
    Stability,
    Teaching,
    Compare,
}

impl GapsView {
    /// Whether this is one of the trajectory pages (they show the files last
    /// opened, which may not be the analysis on screen).
    pub fn is_trajectory_page(self) -> bool {
        matches!(
            self,
            GapsView::Trajectories | GapsView::Stability | GapsView::Teaching | GapsView::Compare
        )
    }
}

impl ViewId for GapsView {
    const ALL: &'static [Self] = &[
        GapsView::Data,
        GapsView::Association,
        GapsView::Predictability,
        GapsView::Gaps,
        GapsView::Overall,
        GapsView::Reward,
        GapsView::Penalty,
        GapsView::Sensitivity,
        GapsView::Rankings,
        GapsView::Paper,
        GapsView::Trajectories,
        GapsView::Stability,
        GapsView::Teaching,
        GapsView::Compare,
    ];

    fn meta(self) -> (&'static str, &'static str, &'static str) {
        let i = self as usize;
        VIEWS
            .get(i)
            .or_else(|| TRAJECTORY_VIEWS.get(i - VIEWS.len()))
            .copied()
            .unwrap_or(VIEWS[3])
    }
}

/// The views of the evidence-to-action part ([`EVIDENCE_VIEWS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvidenceView {
    Ecs,
    Coverage,
    Failures,
    Effort,
    Paired,
    Episodes,
    Episode,
}

impl ViewId for EvidenceView {
    const ALL: &'static [Self] = &[
        EvidenceView::Ecs,
        EvidenceView::Coverage,
        EvidenceView::Failures,
        EvidenceView::Effort,
        EvidenceView::Paired,
        EvidenceView::Episodes,
        EvidenceView::Episode,
    ];

    fn meta(self) -> (&'static str, &'static str, &'static str) {
        EVIDENCE_VIEWS[self as usize]
    }
}

/// The views of the runtime-contracts part ([`RUNTIME_VIEWS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeView {
    Quality,
    Sweep,
    Trace,
    Verification,
    Episodes,
    Stepper,
}

impl ViewId for RuntimeView {
    const ALL: &'static [Self] = &[
        RuntimeView::Quality,
        RuntimeView::Sweep,
        RuntimeView::Trace,
        RuntimeView::Verification,
        RuntimeView::Episodes,
        RuntimeView::Stepper,
    ];

    fn meta(self) -> (&'static str, &'static str, &'static str) {
        RUNTIME_VIEWS[self as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every enum lists its table's rows in menu order, each once, and every
    /// id reads back as its value.
    fn round_trip<V: ViewId + std::fmt::Debug>(table: &[(&str, &str, &str)]) {
        assert_eq!(V::ALL.len(), table.len());
        for (v, row) in V::ALL.iter().zip(table) {
            assert_eq!(v.meta(), *row);
            assert_eq!(V::parse(row.0), Some(*v));
        }
        assert_eq!(V::parse("no-such-view"), None);
        assert_eq!(V::parse(""), None);
    }

    #[test]
    fn view_ids_match_their_tables() {
        let gaps: Vec<_> = VIEWS.iter().chain(&TRAJECTORY_VIEWS).copied().collect();
        round_trip::<GapsView>(&gaps);
        round_trip::<EvidenceView>(&EVIDENCE_VIEWS);
        round_trip::<RuntimeView>(&RUNTIME_VIEWS);
        assert_eq!(GapsView::parse("gaps"), Some(GapsView::Gaps));
        assert_eq!(
            GapsView::ALL
                .iter()
                .filter(|v| v.is_trajectory_page())
                .map(|v| v.id())
                .collect::<Vec<_>>(),
            TRAJECTORY_VIEWS.map(|(id, _, _)| id)
        );
    }

    #[test]
    fn areas_are_the_three_parts() {
        assert_eq!(
            Area::ALL.iter().map(|a| a.id()).collect::<Vec<_>>(),
            ["gaps", "evidence", "runtime"]
        );
        assert_eq!(Area::parse("evidence"), Some(Area::Evidence));
        assert_eq!(Area::parse("Evidence"), None);
        assert_eq!(Area::Runtime.label(), "Runtime contracts");
    }
}
