//! The reproducibility manifest: what went in (file names, sizes, SHA-256),
//! with which settings, seed and PRNG, by which gapscope version.

use serde::{Deserialize, Serialize};

use crate::analysis::SettingsReport;
pub use gapscope_data::digest::{sha256_hex, Input, InputKind, RecipeFile};

/// Everything needed to reproduce a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub inputs: Vec<Input>,
    pub settings: SettingsReport,
    /// How the inputs were read: what the command is made of.
    #[serde(default)]
    pub recipe: Recipe,
    /// The shell command that recomputes the report (`--json`) from files
    /// under their manifest names in the current folder; built-in and derived
    /// files are first written by the commands that make them.
    pub command: String,
}

/// Every setting that changes a number, beside [`SettingsReport`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    /// In input order within each kind (the command lists profiles, then
    /// trajectories, then labels, as the CLI reads them; only the order
    /// within a kind changes a number).
    pub files: Vec<RecipeFile>,
    #[serde(default)]
    pub roles: gapscope_data::profile::RoleOverrides,
    #[serde(default)]
    pub trajectories: gapscope_data::ingest::TrajectoryOptions,
    /// Association sensitivity: (foundational, operation, provider).
    #[serde(default)]
    pub pair: Option<(String, String, Option<String>)>,
}

impl Manifest {
    /// A manifest without a recipe: the inputs are profile tables given as
    /// they are named.
    pub fn new(inputs: Vec<Input>, settings: SettingsReport) -> Self {
        let recipe = Recipe {
            files: inputs
                .iter()
                .map(|i| RecipeFile {
                    name: i.name.clone(),
                    ..RecipeFile::default()
                })
                .collect(),
            ..Recipe::default()
        };
        Manifest::with_recipe(inputs, settings, recipe)
    }

    pub fn with_recipe(inputs: Vec<Input>, settings: SettingsReport, recipe: Recipe) -> Self {
        let command = command(&recipe, &settings);
        Manifest {
            tool: "gapscope".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            inputs,
            settings,
            recipe,
            command,
        }
    }

    /// The same manifest with the inputs' digests filled in (the page hashes
    /// its files after the answer).
    #[must_use]
    pub fn with_inputs(&self, inputs: Vec<Input>) -> Self {
        if self.recipe.files.is_empty() {
            // A manifest without a recipe names its inputs as they come.
            return Manifest::new(inputs, self.settings.clone());
        }
        Manifest {
            inputs,
            ..self.clone()
        }
    }
}

/// A word for a POSIX shell: as it is when it needs no quoting, else in
/// single quotes (a single quote inside written `'\''`).
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The `gapscope report … --json` command of a recipe, after the commands
/// that write its built-in or derived files (joined with `&&`).
fn command(recipe: &Recipe, settings: &SettingsReport) -> String {
    let q = |w: &str| shell_quote(w);
    let mut words: Vec<String> = vec!["gapscope".into(), "report".into()];
    for (kind, flag) in [
        (InputKind::Profiles, "--profiles"),
        (InputKind::Trajectories, "--trajectories"),
        (InputKind::Labels, "--labels"),
        (InputKind::Outcomes, "--outcomes"),
    ] {
        for f in recipe.files.iter().filter(|f| f.kind == kind) {
            words.push(flag.into());
            words.push(q(&f.name));
        }
    }
    if recipe.files.is_empty() {
        words.extend(["--profiles".into(), "FILE".into()]);
    }
    words.extend([
        "--alpha".into(),
        settings.alpha.to_string(),
        "--bootstrap".into(),
        settings.bootstrap.to_string(),
        "--seed".into(),
        settings.seed.to_string(),
        "--grid".into(),
        settings.grid.lo.to_string(),
        settings.grid.hi.to_string(),
        settings.grid.points.to_string(),
    ]);
    if !settings.nested {
        words.push("--no-nested".into());
    }
    if settings.macro_definition != crate::analysis::MacroDefinition::Mean {
        words.extend(["--macro".into(), settings.macro_definition.name().into()]);
    }
    let r = &recipe.roles;
    for (flag, names) in [
        ("--foundational", &r.foundational),
        ("--operations", &r.operations),
    ] {
        if let Some(names) = names {
            words.extend([flag.into(), q(&names.join(","))]);
        }
    }
    if let Some(o) = &r.outcome {
        words.extend(["--outcome".into(), q(o)]);
    }
    if r.no_outcome {
        words.push("--no-outcome".into());
    }
    if let Some(long) = &r.long {
        words.extend(["--long".into(), q(&long.to_string())]);
    }
    match r.reward_scale {
        gapscope_data::profile::RewardScale::Auto => {}
        gapscope_data::profile::RewardScale::Fraction => {
            words.extend(["--reward-scale".into(), "fraction".into()]);
        }
        gapscope_data::profile::RewardScale::Percent => {
            words.extend(["--reward-scale".into(), "percent".into()]);
        }
    }
    let t = &recipe.trajectories;
    for (old, new) in &t.renames {
        words.extend(["--rename".into(), q(&format!("{old}={new}"))]);
    }
    if t.all_tasks {
        words.push("--all-tasks".into());
    }
    if let Some(s) = &t.score.scorer {
        let choice = match &t.score.key {
            Some(k) => format!("{s}:{k}"),
            None => s.clone(),
        };
        words.extend(["--scorer".into(), q(&choice)]);
    }
    if let Some(d) = &t.domain {
        words.extend(["--domain".into(), q(d)]);
    }
    if t.keep_repeats {
        words.push("--keep-repeats".into());
    }
    if let Some((f, o, provider)) = &recipe.pair {
        words.extend(["--pair".into(), q(&format!("{f}:{o}"))]);
        if let Some(p) = provider {
            words.extend(["--provider".into(), q(p)]);
        }
    }
    words.push("--json".into());
    let mut steps: Vec<String> = Vec::new();
    for f in &recipe.files {
        if let Some(w) = &f.written_by {
            if !steps.contains(w) {
                steps.push(w.clone());
            }
        }
    }
    steps.push(words.join(" "));
    steps.join(" && ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_names_every_setting_that_changes_a_number() {
        let settings = crate::analysis::SettingsReport {
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            prng: String::new(),
            macro_definition: crate::analysis::MacroDefinition::Pooled,
            grid: crate::analysis::AlphaGrid::new(0.01, 10000.0, 25).unwrap(),
            nested: false,
        };
        let recipe = Recipe {
            files: vec![
                RecipeFile {
                    name: "run.jsonl".into(),
                    kind: InputKind::Trajectories,
                    written_by: None,
                },
                RecipeFile {
                    name: "my profile's.csv".into(),
                    kind: InputKind::Profiles,
                    written_by: None,
                },
                RecipeFile {
                    name: "l.csv".into(),
                    kind: InputKind::Labels,
                    written_by: Some("gapscope evidence tau2-labels run.jsonl > l.csv".into()),
                },
            ],
            roles: gapscope_data::profile::RoleOverrides {
                foundational: Some(vec!["TU".into(), "RE".into()]),
                outcome: Some("success".into()),
                reward_scale: gapscope_data::profile::RewardScale::Fraction,
                ..Default::default()
            },
            trajectories: gapscope_data::ingest::TrajectoryOptions {
                renames: vec![("a b".into(), "c".into())],
                all_tasks: true,
                domain: Some("airline".into()),
                keep_repeats: true,
                score: gapscope_data::formats::inspect::ScoreChoice::parse("match:acc").unwrap(),
                ..Default::default()
            },
            pair: Some(("CE".into(), "RC".into(), Some("Anthropic".into()))),
        };
        let m = Manifest::with_recipe(Vec::new(), settings, recipe);
        assert_eq!(
            m.command,
            "gapscope evidence tau2-labels run.jsonl > l.csv && gapscope report --profiles 'my profile'\\''s.csv' \
             --trajectories run.jsonl --labels l.csv --alpha 10 --bootstrap 0 --seed 0 --grid 0.01 10000 25 \
             --no-nested --macro pooled --foundational TU,RE --outcome success --reward-scale fraction \
             --rename 'a b=c' --all-tasks --scorer match:acc --domain airline --keep-repeats --pair CE:RC \
             --provider Anthropic --json"
        );
        assert_eq!(shell_quote("a'b"), "'a'\\''b'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
    }

    #[test]
    fn sha256_known_vectors() {
        // FIPS 180-2 test vectors.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
