//! The core's messages in the page's words: a reader's or an analysis's
//! hint names the command line's flag (`give the name with --model`); the
//! page names its own control instead (the Data view's "rename or merge
//! models" field). Every message the page shows from the core goes through
//! [`for_page`].

/// (what the core says, what the page says), longest first where one
/// contains another.
const HINTS: [(&str, &str); 11] = [
    (
        "give the name with --model",
        "rename it in the Data view (Trajectories: rename or merge models)",
    ),
    (
        "give the model with --model",
        "rename it in the Data view (Trajectories: rename or merge models)",
    ),
    (
        "give the task set with --domain",
        "set it in the Data view (Trajectories: domain of files that name none)",
    ),
    (
        "give the domain (--domain)",
        "set it in the Data view (Trajectories: domain of files that name none)",
    ),
    (
        "give the domain with --domain",
        "set it in the Data view (Trajectories: domain of files that name none)",
    ),
    (
        "rename them apart with --rename",
        "rename them apart in the Data view (Trajectories: rename or merge models)",
    ),
    (
        "(or assign them with --foundational)",
        "(or assign them in the Data view: column roles)",
    ),
    (
        "(or assign them with --operations)",
        "(or assign them in the Data view: column roles)",
    ),
    ("`--by ", "runs by `"),
    ("`--merge ", "merge `"),
    ("with --scorer", "with the scorer picker"),
];

/// `message` with the command line's hints replaced by the page's controls;
/// a misplaced file's marker ([`gapscope_data::kind`]) becomes "— open it
/// in PART".
pub fn for_page(message: &str) -> String {
    let mut out =
        gapscope_data::kind::part_named_in(message).map_or_else(|| message.to_string(), |(_, m)| m);
    for (cli, page) in HINTS {
        if out.contains(cli) {
            out = out.replace(cli, page);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_the_page_controls() {
        assert_eq!(
            for_page("a.json: names no model: the file name `a` stands for it; give the name with --model"),
            "a.json: names no model: the file name `a` stands for it; rename it in the Data view (Trajectories: rename or merge models)"
        );
        assert_eq!(
            for_page("no foundational dimensions: the file needs columns such as TU, RE, … (or assign them with --foundational); x"),
            "no foundational dimensions: the file needs columns such as TU, RE, … (or assign them in the Data view: column roles); x"
        );
        assert_eq!(
            for_page("`--by colour`: expected"),
            "runs by `colour`: expected"
        );
        assert_eq!(for_page("nothing to change"), "nothing to change");
        for (cli, page) in HINTS {
            assert!(
                !for_page(&format!("x {cli} y")).contains(" --"),
                "{cli} → {page}"
            );
        }
    }

    /// Every hint of the core's readers and analyses that names a flag is
    /// one of [`HINTS`]: the core's sources are scanned for `with --NAME`,
    /// `(--NAME)` and `` `--NAME `` in message text.
    #[test]
    fn every_flag_hint_of_the_core_has_page_words() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut unknown = Vec::new();
        let mut found = 0;
        let mut stack: Vec<std::path::PathBuf> = [
            "gapscope-data/src",
            "gapscope-gaps/src",
            "gapscope-compare/src",
            "gapscope-evidence/src",
            "gapscope-runtime/src",
        ]
        .iter()
        .map(|d| root.join(d))
        .collect();
        let hint = regex_lite::Regex::new(r"(give the [a-z ]+ (with --[a-z-]+|\(--[a-z-]+\))|with --[a-z-]+\)|apart with --[a-z-]+|`--[a-z-]+ )")
            .unwrap_or_else(|e| panic!("{e}"));
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                let p = e.unwrap_or_else(|e| panic!("{e}")).path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                if p.extension().is_none_or(|x| x != "rs") || p.ends_with("tests.rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for m in hint.find_iter(&text) {
                    let s = m.as_str();
                    found += 1;
                    if !HINTS
                        .iter()
                        .any(|(cli, _)| cli.contains(s.trim_end()) || s.contains(cli.trim_end()))
                    {
                        unknown.push(format!("{}: {s}", p.display()));
                    }
                }
            }
        }
        assert!(
            found > 15,
            "the scan found only {found} hints: is it looking in the right place?"
        );
        assert!(
            unknown.is_empty(),
            "flag hints the page cannot word: {unknown:#?}"
        );
    }
}
