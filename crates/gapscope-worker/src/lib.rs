//! gapscope-worker: the worker layer between the page and the analysis core.
//!
//! The protocol is plain serde data exchanged as JSON text: the page sends a
//! [`Request`], the worker answers with a [`Response`]. [`handle`] is the whole
//! behaviour and is tested natively; in the browser, [`web::AnalysisWorker`]
//! (a gloo-worker oneshot, registered by the `worker` bin of the web package)
//! only decodes, calls [`handle`] and encodes. JSON text keeps the message
//! codec infallible: decoding failures become an error [`Response`] instead of a
//! panic inside the worker.

use gapscope_core::assoc::association_sensitivity;
use gapscope_core::join::{read_profiles, JoinReport};
use gapscope_core::manifest::{Input, Manifest};
use gapscope_core::{analyze, Alpha, Report, RoleOverrides, Settings};
use serde::{Deserialize, Serialize};

/// The embedded default dataset: made by `gapscope synth` (seeded generator).
pub const EXAMPLE_CSV: &str = include_str!("../../../assets/synthetic-example.csv");
/// How the embedded dataset is labelled wherever it appears.
pub const EXAMPLE_LABEL: &str = "synthetic example";

/// What to analyse.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Source {
    /// The embedded synthetic example.
    Example,
    /// A file the user dropped or picked: its name and its text.
    File { name: String, text: String },
    /// Several profile files to join on `model` (name, text each).
    Files { files: Vec<(String, String)> },
}

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub source: Source,
    /// Ridge penalty, validated by the worker.
    pub alpha: f64,
    /// Bootstrap draws (0: no intervals).
    #[serde(default = "default_bootstrap")]
    pub bootstrap: usize,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub roles: RoleOverrides,
    /// Association sensitivity for this pair, when asked for.
    #[serde(default)]
    pub pair: Option<Pair>,
}

/// A (foundational, operation) pair for association sensitivity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub foundational: String,
    pub operation: String,
    /// A family to report removed on its own line.
    pub provider: Option<String>,
}

fn default_bootstrap() -> usize {
    Settings::default().bootstrap
}

/// A finished analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The file name, or [`EXAMPLE_LABEL`].
    pub source: String,
    /// Whether this is the synthetic example (the page labels it so).
    pub synthetic: bool,
    pub report: Report,
    /// Whether the source was a gapscope JSON report, recomputed from its input.
    pub imported: bool,
    /// When several files were joined: what the join did.
    #[serde(default)]
    pub join: Option<JoinReport>,
    /// Inputs (SHA-256), settings, seed and version: enough to reproduce it.
    pub manifest: Manifest,
}

/// The worker's answer: an analysis, or a message that says where and why.
pub type Response = Result<Analysis, String>;

/// Run one request. Errors are prefixed with the file name.
///
/// A gapscope JSON report (as exported by the page or written by
/// `gapscope report --json`) is re-imported: its `input` table is analysed again
/// with its own settings, and any difference from the stored numbers is said.
pub fn handle(request: &Request) -> Response {
    let single;
    let (files, synthetic): (&[(String, String)], bool) = match &request.source {
        Source::Example => {
            single = [(EXAMPLE_LABEL.to_string(), EXAMPLE_CSV.to_string())];
            (&single, true)
        }
        Source::File { name, text } => {
            single = [(name.clone(), text.clone())];
            (&single, false)
        }
        Source::Files { files } => (files, false),
    };
    let name = files
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let imported = match files {
        [(_, text)] => as_report(text),
        _ => None,
    };
    let (table, settings, pair, join) = match &imported {
        Some(old) => {
            let settings = old
                .settings
                .to_settings()
                .map_err(|e| format!("{name}: settings of the report: {e}"))?;
            let pair = old.association_sensitivity.as_ref().map(|a| Pair {
                foundational: a.foundational.clone(),
                operation: a.operation.clone(),
                provider: a
                    .provider_removed
                    .as_ref()
                    .map(|p| p.label.trim_start_matches("without ").to_string()),
            });
            (old.input.clone(), settings, pair, None)
        }
        None => {
            let settings = request_settings(request)?;
            // Profile tables, or trajectories (their operation profile), joined on model.
            let (table, join) = read_profiles(files, &request.roles).map_err(|e| e.to_string())?;
            (table, settings, request.pair.clone(), Some(join))
        }
    };
    let mut report = analyze(&table, &settings).map_err(|e| format!("{name}: {e}"))?;
    if files.len() > 1 {
        report.summary = format!(
            "{} (joined on model from {} files)",
            report.summary,
            files.len()
        );
    }
    if let Some(j) = &join {
        for s in j.sentences().into_iter().rev() {
            report.warnings.insert(0, s);
        }
    }
    // A pair chosen for another dataset must not stop this one's analysis.
    if let Some(p) = &pair {
        match association_sensitivity(&table, &p.foundational, &p.operation, p.provider.as_deref())
        {
            Ok(a) => report.association_sensitivity = Some(a),
            Err(e) => report
                .warnings
                .push(format!("association sensitivity: {e}")),
        }
    }
    if let Some(old) = &imported {
        let same = serde_json::to_value(old).ok() == serde_json::to_value(&report).ok();
        report.warnings.push(if same {
            format!("{name}: a gapscope {} report, recomputed from its input with its settings: every number agrees", old.version)
        } else {
            format!(
                "{name}: a gapscope {} report, recomputed from its input with its settings by gapscope {}: some numbers differ from the file; the recomputed ones are shown",
                old.version, report.version
            )
        });
    }
    let inputs = files
        .iter()
        .map(|(n, t)| Input::new(n, t.as_bytes()))
        .collect();
    let manifest = Manifest::new(inputs, report.settings.clone());
    Ok(Analysis {
        source: name,
        synthetic,
        report,
        imported: imported.is_some(),
        // The join report is shown only when several files were joined.
        join: join.filter(|_| files.len() > 1),
        manifest,
    })
}

/// The request's settings, validated.
fn request_settings(request: &Request) -> Result<Settings, String> {
    let settings = Settings {
        alpha: Alpha::new(request.alpha).map_err(|e| e.to_string())?,
        bootstrap: request.bootstrap,
        seed: request.seed,
        ..Settings::default()
    };
    settings.validate().map_err(|e| e.to_string())?;
    Ok(settings)
}

/// The text as a gapscope report, when it is one.
fn as_report(text: &str) -> Option<Report> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if !t.starts_with('{') || !t.contains("\"tool\"") {
        return None;
    }
    serde_json::from_str::<Report>(t)
        .ok()
        .filter(|r| r.tool == "gapscope")
}

/// Encode a request as the JSON text the worker receives.
pub fn encode_request(request: &Request) -> String {
    serde_json::to_string(request).unwrap_or_else(|e| {
        // Unreachable for these plain types; reported rather than panicking.
        format!("{{\"encode_error\": \"{e}\"}}")
    })
}

/// The worker's whole job on JSON text: decode, handle, encode.
pub fn handle_json(request: &str) -> String {
    let response: Response = serde_json::from_str::<Request>(request)
        .map_err(|e| format!("internal error: the worker could not read its request: {e}"))
        .and_then(|r| handle(&r));
    encode_response(&response)
}

fn encode_response(response: &Response) -> String {
    serde_json::to_string(response).unwrap_or_else(|e| {
        let fallback: Response = Err(format!(
            "internal error: the result could not be encoded: {e}"
        ));
        serde_json::to_string(&fallback).unwrap_or_default()
    })
}

/// Decode the worker's JSON answer on the page side.
pub fn decode_response(text: &str) -> Response {
    serde_json::from_str::<Response>(text).unwrap_or_else(|e| {
        Err(format!(
            "internal error: the worker's answer could not be read: {e}"
        ))
    })
}

#[cfg(target_arch = "wasm32")]
pub mod web {
    //! The gloo-worker wrapper, compiled for the browser only.
    use gloo_worker::oneshot::oneshot;

    /// Runs [`crate::handle_json`] in a web worker.
    #[oneshot]
    pub async fn AnalysisWorker(request: String) -> String {
        crate::handle_json(&request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_round_trips_through_json() {
        let req = Request {
            source: Source::Example,
            alpha: 10.0,
            bootstrap: 200,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
        };
        let direct = handle(&req).unwrap();
        assert!(direct.synthetic);
        assert_eq!(direct.source, "synthetic example");
        assert_eq!(
            direct.report.summary,
            "15 models in 8 families, 7 foundational dimensions, 7 operations, reward"
        );
        let via_json = decode_response(&handle_json(&encode_request(&req))).unwrap();
        // f64 survives JSON text exactly (shortest round-trip formatting).
        assert_eq!(via_json, direct);
    }

    #[test]
    fn errors_name_the_file() {
        let req = Request {
            source: Source::File {
                name: "bad.csv".into(),
                text: "model,family,TU\nm,A,x\n".into(),
            },
            alpha: 10.0,
            bootstrap: 200,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
        };
        let err = decode_response(&handle_json(&encode_request(&req))).unwrap_err();
        assert_eq!(
            err,
            "bad.csv: line 2, column `TU`: expected a number (or an empty cell for a missing value), found `x`"
        );
        let bad_alpha = Request { alpha: -1.0, ..req };
        assert!(handle(&bad_alpha).unwrap_err().contains("alpha must be"));
        assert!(decode_response(&handle_json("not json"))
            .unwrap_err()
            .starts_with("internal error"));
    }

    #[test]
    fn a_pair_from_another_dataset_is_a_warning_not_a_failure() {
        let mut req = Request {
            source: Source::Example,
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: Some(Pair {
                foundational: "CE".into(),
                operation: "RC".into(),
                provider: Some("Aurora".into()),
            }),
        };
        let a = handle(&req).unwrap();
        let s = a.report.association_sensitivity.unwrap();
        assert_eq!(s.provider_removed.unwrap().label, "without Aurora");
        assert_eq!(
            a.manifest.inputs[0].sha256,
            gapscope_core::manifest::sha256_hex(EXAMPLE_CSV.as_bytes())
        );
        req.pair = Some(Pair {
            foundational: "CE".into(),
            operation: "RC".into(),
            provider: Some("Nowhere".into()),
        });
        let a = handle(&req).unwrap();
        assert!(a.report.association_sensitivity.is_none());
        assert!(a
            .report
            .warnings
            .iter()
            .any(|w| w.starts_with("association sensitivity: no family `Nowhere`")));
    }

    #[test]
    fn several_files_are_joined_and_the_join_is_reported() {
        let req = Request {
            source: Source::Files {
                files: vec![
                    (
                        "f.csv".into(),
                        "model,family,TU,RE\na,A,1,2\nb,B,3,5\nc,C,5,6\nd,D,2,2\n".into(),
                    ),
                    (
                        "o.csv".into(),
                        "model,family,GI,PL\na,A,9,10\nb,B,7,8\nc,C,4,4\ne,E,1,1\n".into(),
                    ),
                ],
            },
            alpha: 10.0,
            bootstrap: 0,
            seed: 0,
            roles: RoleOverrides::default(),
            pair: None,
        };
        let a = handle(&req).unwrap();
        assert_eq!(a.source, "f.csv + o.csv");
        assert!(
            a.report.summary.ends_with("(joined on model from 2 files)"),
            "{}",
            a.report.summary
        );
        assert_eq!(a.report.models, ["a", "b", "c", "d", "e"]);
        assert!(a.report.warnings[0].starts_with("not in f.csv: e"));
        assert_eq!(a.manifest.inputs.len(), 2);
        assert_eq!(a.join.unwrap().joined, 3);
        let bad = Request {
            source: Source::Files {
                files: vec![
                    ("f.csv".into(), "model,family,TU\na,A,x\n".into()),
                    ("o.csv".into(), "model,family,GI\na,A,1\n".into()),
                ],
            },
            ..req
        };
        assert!(handle(&bad)
            .unwrap_err()
            .starts_with("f.csv: line 2, column `TU`"));
    }
}
