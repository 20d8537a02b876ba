//! Every abbreviation the page shows, expanded: the page's glossary and the
//! hover text of a table header or heatmap label that is (or contains) one.
//! The definitions follow `../shared/spec` (the paper's names, in words a
//! class can follow).

/// One abbreviation: what it stands for and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub abbr: &'static str,
    pub name: &'static str,
    pub meaning: &'static str,
    /// The part of the workbench it belongs to.
    pub part: &'static str,
}

const GAPS: &str = "Realization gaps";
const EVIDENCE: &str = "Evidence to action";
const RUNTIME: &str = "Runtime contracts";
const RUNS: &str = "Runs";

const fn t(
    abbr: &'static str,
    name: &'static str,
    meaning: &'static str,
    part: &'static str,
) -> Term {
    Term {
        abbr,
        name,
        meaning,
        part,
    }
}

/// The glossary, in the order the page lists it (by part).
pub const GLOSSARY: &[Term] = &[
    t("F", "foundational profile", "A model's benchmark scores (0–100) on the foundational dimensions below.", GAPS),
    t("O", "operation profile", "How a model operates in real trajectories (0–100 per operation), from labelled trajectories.", GAPS),
    t("TU", "task understanding", "Foundational dimension: grasping what a task asks.", GAPS),
    t("IS", "information selection", "Foundational dimension: picking the information that matters.", GAPS),
    t("KU", "knowledge use", "Foundational dimension: applying what the model knows.", GAPS),
    t("CI", "context integration", "Foundational dimension: combining information across a long context.", GAPS),
    t("RE", "reasoning", "Foundational dimension: drawing correct conclusions in steps.", GAPS),
    t("SM", "self-monitoring", "Foundational dimension: noticing one's own mistakes.", GAPS),
    t("CE", "constrained expression", "Foundational dimension: answering within given formats and rules.", GAPS),
    t("GI", "goal interpretation", "Operation: reading the user's goal correctly in the trajectory.", GAPS),
    t("ST", "state tracking", "Operation: keeping track of what has been done and what holds now.", GAPS),
    t("PL", "planning", "Operation: ordering the steps toward the goal.", GAPS),
    t("AS", "action selection", "Operation: choosing the right tool call with the right arguments.", GAPS),
    t("PM", "progress monitoring", "Operation: checking whether the steps taken move toward the goal.", GAPS),
    t("RC", "recovery", "Operation: responding well after an error (scored only where one occurred).", GAPS),
    t("TM", "termination", "Operation: stopping at the right time, neither early nor late.", GAPS),
    t("macro", "overall operation score", "The unweighted mean of a model's operation scores (or, pooled, the mean of all its labels).", GAPS),
    t("gap", "realization gap", "Observed operation score minus the one predicted from the foundational profile by ridge regression held out by model family: positive means the model executes above what its foundations predict.", GAPS),
    t("Q²", "held-out coefficient of determination", "1 − Σ(y − ŷ)² / Σ(y − ȳ_train)² over held-out predictions: 0 is no better than the training mean, 1 is perfect.", GAPS),
    t("MAE", "mean absolute error", "The mean of |y − ŷ| over held-out predictions.", GAPS),
    t("RMSE", "root mean squared error", "The square root of the mean of (y − ŷ)² over held-out predictions.", GAPS),
    t("ρ", "Spearman's rank correlation", "The correlation of the ranks of two quantities.", GAPS),
    t("r", "Pearson's correlation", "The linear correlation of two quantities.", GAPS),
    t("α", "ridge penalty", "How strongly ridge regression shrinks its coefficients toward zero.", GAPS),
    t("LOFO", "leave one family out", "Each model family is held out in turn: its models are predicted by a fit on the other families.", GAPS),
    t("ECS", "evidence-consistent success", "An episode succeeds when every consequential action was supported by evidence about that entity observed before it; ECS is the share of scored episodes that do.", EVIDENCE),
    t("P-M", "protocol macro", "ECS averaged over protocols with equal weight (within each repetition, then over repetitions).", EVIDENCE),
    t("D-M", "domain macro", "ECS averaged over domains with equal weight (within each repetition, then over repetitions).", EVIDENCE),
    t("McNemar", "McNemar's test", "A test of paired successes and failures: do two configurations disagree more one way than the other? Clustered by case.", EVIDENCE),
    t("Q", "mean score", "The mean score of a train → deploy condition at a per-turn tool-call cap.", RUNTIME),
    t("P", "persistent runtime", "A Python runtime whose variables survive between turns.", RUNTIME),
    t("S", "stateless runtime", "A Python runtime reset at every turn.", RUNTIME),
    t("G_P", "persistent-trained runtime gap", "Q(P→P) − Q(P→S): what a persistent-trained agent loses on a stateless runtime.", RUNTIME),
    t("G_S", "stateless-trained runtime gap", "Q(S→S) − Q(S→P): what a stateless-trained agent loses on a persistent runtime.", RUNTIME),
    t("D", "interaction", "(Q(P→P) − Q(P→S)) − (Q(S→P) − Q(S→S)) = G_P + G_S: how much the runtime contract matters beyond each runtime alone.", RUNTIME),
    t("T", "cap moderation", "D at the tightest cap minus D at the slackest: how much a tighter cap widens the interaction.", RUNTIME),
    t("pass^k", "pass to the k", "The chance that all of k trials of a task succeed.", RUNS),
    t("pass@k", "pass at k", "The chance that at least one of k trials of a task succeeds.", RUNS),
    t("MDE", "minimum detectable effect", "The smallest difference the comparison would detect with 80% power at the 5% level.", RUNS),
    t("Holm", "Holm adjustment", "p-values adjusted so that the chance of any false positive over all pairs stays under the level.", RUNS),
    t("BH", "Benjamini–Hochberg adjustment", "p-values adjusted so that the expected share of false positives among the pairs called different stays under the level.", RUNS),
    t("ICC", "intraclass correlation", "The share of a run's reward variance that lies between tasks rather than between trials of a task.", RUNS),
];

/// The term an abbreviation stands for (exact, as shown).
pub fn term(abbr: &str) -> Option<&'static Term> {
    GLOSSARY.iter().find(|t| t.abbr == abbr)
}

/// The hover text of a header or label: the expansion of every glossary
/// abbreviation it contains as a word (`G_P (cap 2)` → "G_P: …"), one per
/// line; `None` when it has none. One-letter abbreviations count only when
/// they are the whole label (a lone "D" column, not the D of "D-M").
pub fn hover_text(label: &str) -> Option<String> {
    let words: Vec<&str> = label
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '(' | ')' | ',' | ';' | '/' | '[' | ']' | '=')
        })
        .filter(|w| !w.is_empty())
        .collect();
    let mut lines: Vec<String> = Vec::new();
    for t in GLOSSARY {
        let whole = label.trim() == t.abbr;
        let short = t.abbr.chars().count() == 1;
        let found = whole || (!short && words.contains(&t.abbr));
        if found {
            let line = format!("{}: {} — {}", t.abbr, t.name, t.meaning);
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_abbreviation_once_and_expanded() {
        let mut seen = std::collections::HashSet::new();
        for t in GLOSSARY {
            assert!(seen.insert(t.abbr), "{} twice", t.abbr);
            assert!(!t.name.is_empty() && t.meaning.ends_with('.'), "{t:?}");
        }
        // The issue's list (issue 18, item 6).
        for a in [
            "TU", "IS", "KU", "CI", "RE", "SM", "CE", "GI", "ST", "PL", "AS", "PM", "RC", "TM",
            "Q²", "ECS", "G_P", "G_S", "D", "P-M", "D-M",
        ] {
            assert!(term(a).is_some(), "{a} is in the glossary");
        }
    }

    #[test]
    fn hover_text_names_the_abbreviations_of_a_label() {
        assert_eq!(
            hover_text("G_P (cap 2)").unwrap(),
            "G_P: persistent-trained runtime gap — Q(P→P) − Q(P→S): what a persistent-trained agent loses on a stateless runtime."
        );
        let both = hover_text("ECS P-M").unwrap();
        assert_eq!(both.lines().count(), 2, "{both}");
        // A one-letter abbreviation only as the whole label.
        assert!(hover_text("D").unwrap().starts_with("D: interaction"));
        assert_eq!(hover_text("D-M").unwrap().lines().count(), 1);
        assert_eq!(hover_text("Model"), None);
        assert_eq!(hover_text("Q² (held out)").unwrap().lines().count(), 1);
    }
}
