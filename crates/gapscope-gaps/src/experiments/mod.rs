//! Experiments beside the corpus (spec: realization-gaps.md, "Experiments
//! beside the corpus"): runs that continue from a restored `checkpoint`,
//! which the operation profile, the reward, the common-task subset and
//! stability leave out, read here instead.
//!
//! - [`mod@interventions`]: local content interventions (original, edited and
//!   control branches; cases, contrasts, reward changes).
//! - [`mod@continuations`]: shared-initial-state continuations (coverage,
//!   violations, later reversals).

pub mod continuations;
pub mod interventions;

pub use continuations::{continuations, Continuations};

/// A result as `gapscope interventions` / `continuations --json` write it
/// (indented, with a final newline): the page's downloads are this text too.
///
/// # Errors
/// The serializer's (none for these types).
pub fn json_text<T: serde::Serialize>(result: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(result).map(|s| s + "\n")
}
pub use interventions::{interventions, InterventionError, Interventions};
