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
    Experiments,
}

impl GapsView {
    /// Whether this is one of the trajectory pages (they show the files last
    /// opened, which may not be the analysis on screen).
    pub fn is_trajectory_page(self) -> bool {
        matches!(
            self,
            GapsView::Trajectories
                | GapsView::Stability
                | GapsView::Teaching
                | GapsView::Compare
                | GapsView::Experiments
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
        GapsView::Experiments,
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
    Readiness,
    Interventions,
    Composition,
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
        EvidenceView::Readiness,
        EvidenceView::Interventions,
        EvidenceView::Composition,
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
    Conditions,
    Horizon,
    Replications,
    Mechanism,
    Filter,
    Verification,
    Episodes,
    Stepper,
}

impl ViewId for RuntimeView {
    const ALL: &'static [Self] = &[
        RuntimeView::Quality,
        RuntimeView::Sweep,
        RuntimeView::Trace,
        RuntimeView::Conditions,
        RuntimeView::Horizon,
        RuntimeView::Replications,
        RuntimeView::Mechanism,
        RuntimeView::Filter,
        RuntimeView::Verification,
        RuntimeView::Episodes,
        RuntimeView::Stepper,
    ];

    fn meta(self) -> (&'static str, &'static str, &'static str) {
        RUNTIME_VIEWS[self as usize]
    }
}

/// Where the page is, as the URL says it: the part, each part's view and
/// the sub-views (the Association view's coefficient, the runtime part's
/// slice, the episode open in the evidence or runtime part, the trajectory
/// open in the viewer with the files it belongs to). A view change is a new
/// browser-history entry ([`Place::is_new_view`]); a sub-view change
/// replaces the current one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub area: Area,
    pub gaps: GapsView,
    pub evidence: EvidenceView,
    pub runtime: RuntimeView,
    /// The Association view shows Spearman's ρ (default Pearson's r).
    pub spearman: bool,
    /// The runtime part's slice (an index into its report's slices).
    pub slice: usize,
    /// The episode open in the evidence part.
    pub evidence_episode: Option<String>,
    /// The episode open in the runtime part.
    pub runtime_episode: Option<String>,
    /// The trajectory open in the viewer.
    pub trajectory: Option<TrajectoryLink>,
}

/// A trajectory of given files: its id and the files' fingerprint
/// ([`files_fingerprint`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrajectoryLink {
    pub id: String,
    pub files: String,
}

impl TrajectoryLink {
    /// What the page says when this link points to files not loaded.
    pub fn not_loaded_sentence(&self) -> String {
        if self.files.is_empty() {
            format!(
                "This page's link points to trajectory `{}` but names no files; open the trajectory from the list.",
                self.id
            )
        } else {
            format!(
                "This page's link points to trajectory `{}` of files not loaded here (SHA-256 {}…). Drop those files to open it.",
                self.id,
                self.files.replace('.', "…, ")
            )
        }
    }
}

/// The URL keys [`Place`] reads and writes.
pub const PLACE_KEYS: [&str; 10] = [
    "area", "view", "ev", "rt", "corr", "slice", "ep", "rep", "traj", "files",
];

impl Default for Place {
    fn default() -> Self {
        Place {
            area: Area::Gaps,
            gaps: GapsView::Gaps,
            evidence: EvidenceView::Ecs,
            runtime: RuntimeView::Quality,
            spearman: false,
            slice: 0,
            evidence_episode: None,
            runtime_episode: None,
            trajectory: None,
        }
    }
}

impl Place {
    /// The place a query names; an unknown or bad value keeps its default
    /// (like any other bad query value), other keys are ignored.
    pub fn from_query(pairs: &[(String, String)]) -> Place {
        let mut p = Place::default();
        let mut traj = None;
        let mut files = None;
        for (k, v) in pairs {
            match k.as_str() {
                "area" => p.area = Area::parse(v).unwrap_or(p.area),
                "view" => p.gaps = GapsView::parse(v).unwrap_or(p.gaps),
                "ev" => p.evidence = EvidenceView::parse(v).unwrap_or(p.evidence),
                "rt" => p.runtime = RuntimeView::parse(v).unwrap_or(p.runtime),
                "corr" => p.spearman = v == "spearman",
                "slice" => p.slice = v.parse().unwrap_or(p.slice),
                "ep" if !v.is_empty() => p.evidence_episode = Some(v.clone()),
                "rep" if !v.is_empty() => p.runtime_episode = Some(v.clone()),
                "traj" if !v.is_empty() => traj = Some(v.clone()),
                "files" if !v.is_empty() => files = Some(v.clone()),
                _ => {}
            }
        }
        p.trajectory = traj.map(|id| TrajectoryLink {
            id,
            files: files.unwrap_or_default(),
        });
        p
    }

    /// The query pairs of this place: the realization-gap view always
    /// (links name it), the rest only when not the default.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut q = vec![("view", self.gaps.id().to_string())];
        if self.area != Area::Gaps {
            q.push(("area", self.area.id().into()));
        }
        if self.evidence != EvidenceView::Ecs {
            q.push(("ev", self.evidence.id().into()));
        }
        if self.runtime != RuntimeView::Quality {
            q.push(("rt", self.runtime.id().into()));
        }
        if self.spearman {
            q.push(("corr", "spearman".into()));
        }
        if self.slice != 0 {
            q.push(("slice", self.slice.to_string()));
        }
        if let Some(e) = &self.evidence_episode {
            q.push(("ep", e.clone()));
        }
        if let Some(e) = &self.runtime_episode {
            q.push(("rep", e.clone()));
        }
        if let Some(t) = &self.trajectory {
            q.push(("traj", t.id.clone()));
            q.push(("files", t.files.clone()));
        }
        q
    }

    /// Whether going from `self` to `next` changes the part or a part's
    /// view (a new history entry, so that Back returns here).
    pub fn is_new_view(&self, next: &Place) -> bool {
        self.area != next.area
            || self.gaps != next.gaps
            || self.evidence != next.evidence
            || self.runtime != next.runtime
    }
}

/// The fingerprint of a set of files in a link: the first 16 hex digits
/// of each file's SHA-256, sorted, joined by `.` (the order the files were
/// dropped in does not matter; 64 bits per file). Built-in data has its
/// own name instead.
pub fn files_fingerprint<'a>(sha256: impl IntoIterator<Item = &'a str>) -> String {
    let mut parts: Vec<&str> = sha256
        .into_iter()
        .map(|h| h.get(..16).unwrap_or(h))
        .collect();
    parts.sort_unstable();
    parts.dedup();
    parts.join(".")
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

    #[test]
    fn a_place_reads_back_from_its_query() {
        let place = Place {
            area: Area::Runtime,
            gaps: GapsView::Compare,
            evidence: EvidenceView::Episode,
            runtime: RuntimeView::Stepper,
            spearman: true,
            slice: 2,
            evidence_episode: Some("case 1/v0/r0".into()),
            runtime_episode: Some("e-7".into()),
            trajectory: Some(TrajectoryLink {
                id: "t&1=2".into(),
                files: "00aa.11bb".into(),
            }),
        };
        let pairs: Vec<(String, String)> = place
            .to_query()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert!(pairs.iter().all(|(k, _)| PLACE_KEYS.contains(&k.as_str())));
        assert_eq!(Place::from_query(&pairs), place);
        // The default writes only the view.
        assert_eq!(
            Place::default().to_query(),
            vec![("view", "gaps".to_string())]
        );
    }

    #[test]
    fn bad_values_keep_defaults_and_only_views_are_history_entries() {
        let q = |pairs: &[(&str, &str)]| {
            Place::from_query(
                &pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<Vec<_>>(),
            )
        };
        let p = q(&[
            ("area", "nowhere"),
            ("view", "x"),
            ("slice", "-1"),
            ("ep", ""),
        ]);
        assert_eq!(p, Place::default());
        // A trajectory without files is a link to it in no known files.
        assert_eq!(
            q(&[("traj", "a")]).trajectory,
            Some(TrajectoryLink {
                id: "a".into(),
                files: String::new()
            })
        );
        let base = Place::default();
        let mut next = base.clone();
        next.slice = 3;
        next.evidence_episode = Some("e".into());
        assert!(!base.is_new_view(&next));
        next.evidence = EvidenceView::Paired;
        assert!(base.is_new_view(&next));
        let mut area = base.clone();
        area.area = Area::Evidence;
        assert!(base.is_new_view(&area));
    }

    #[test]
    fn a_fingerprint_ignores_file_order() {
        let a = "0123456789abcdef0123";
        let b = "fedcba9876543210ffff";
        assert_eq!(
            files_fingerprint([a, b]),
            "0123456789abcdef.fedcba9876543210"
        );
        assert_eq!(files_fingerprint([b, a, a]), files_fingerprint([a, b]));
        assert_eq!(files_fingerprint(["ab"]), "ab");
    }
}
