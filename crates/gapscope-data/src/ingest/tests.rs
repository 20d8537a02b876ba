//! Unit tests of ingestion (moved out of mod.rs for its size).

use super::*;

const FOUNDATIONAL: &str = include_str!("../../../../tests/fixtures/foundational-small.csv");
const TRAJECTORIES: &str = include_str!("../../../../tests/fixtures/trajectories-small.jsonl");
const CORPUS: &str = include_str!("../../../../assets/synthetic-trajectories/trajectories.jsonl");

/// A reader that hands out `step` bytes at a time (chunk boundaries fall
/// inside lines, inside UTF-8 characters and inside `\r\n`).
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn streamed(files: &[(String, Vec<u8>)], step: usize) -> Vec<InputFile<'_>> {
    files
        .iter()
        .map(|(n, b)| {
            InputFile::Stream(
                n.clone(),
                Box::new(Trickle {
                    bytes: b.as_slice(),
                    step,
                }),
            )
        })
        .collect()
}

/// Everything but the stream digests.
fn same(a: &Inputs, b: &Inputs) -> bool {
    a.profiles == b.profiles
        && a.corpus == b.corpus
        && a.trajectory_files == b.trajectory_files
        && a.notes == b.notes
}

/// A stream is read exactly as the same bytes are (JSONL parsed as it
/// streams, every other kind read whole), in chunks of any size, and its
/// SHA-256 is the file's.
#[test]
fn a_stream_reads_like_its_bytes() {
    // Over two megabytes of JSONL (past the stream head): the corpus eight
    // times with distinct ids, a BOM, CRLF endings, blank, malformed,
    // repeated and non-ASCII lines.
    let mut big = String::from("\u{feff}\n");
    for k in 0..8 {
        for line in CORPUS.lines() {
            big.push_str(&line.replacen("{\"id\":\"", &format!("{{\"id\":\"{k}·"), 1));
            big.push_str(if k % 2 == 0 { "\r\n" } else { "\n" });
        }
        big.push_str("{\"id\": \"broken\n\n");
    }
    big.push_str(CORPUS.lines().next().unwrap());
    assert!(big.len() > 2 * STREAM_HEAD);
    let labels = "trajectory_id,operation,requirement,label\n0·Aurora Max/task-001/0,GI,1,1\n";
    let files: Vec<(String, Vec<u8>)> = vec![
        ("f.csv".into(), FOUNDATIONAL.as_bytes().to_vec()),
        ("big.jsonl".into(), big.into_bytes()),
        ("small.jsonl".into(), TRAJECTORIES.as_bytes().to_vec()),
        ("labels.csv".into(), labels.as_bytes().to_vec()),
    ];
    let whole = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap();
    assert!(whole.corpus.trajectories.len() > 8 * 900);
    assert!(!whole.corpus.skipped.is_empty());
    assert!(
        whole.notes.iter().any(|n| n.contains("labels applied")),
        "{:?}",
        whole.notes
    );
    for step in [1 << 16, 4093, 777] {
        let s = read_inputs_from(
            streamed(&files, step),
            &TrajectoryOptions::default(),
            &Messages::Counts,
            true,
        )
        .unwrap();
        assert!(same(&whole, &s), "step {step}");
        let digests: Vec<(String, usize, String)> = s
            .digests
            .iter()
            .map(|i| (i.name.clone(), i.bytes, i.sha256.clone()))
            .collect();
        let expected: Vec<(String, usize, String)> = files
            .iter()
            .map(|(n, b)| (n.clone(), b.len(), crate::digest::sha256_hex(b)))
            .collect();
        assert_eq!(digests, expected);
    }
    // The big file was parsed as it streamed, not read whole.
    let mut r = Trickle {
        bytes: &files[1].1,
        step: 5000,
    };
    let parsed = read_stream("big.jsonl", &mut r, &Default::default()).unwrap();
    assert!(matches!(parsed, Streamed::Jsonl(ref c) if c.trajectories.len() > 8 * 900));
    // Messages kept for one trajectory only, as with bytes.
    let only = Messages::Only("1·Aurora Max/task-001/0".into());
    let a = read_inputs(&files, &TrajectoryOptions::default(), &only).unwrap();
    let b = read_inputs_from(
        streamed(&files, 999),
        &TrajectoryOptions::default(),
        &only,
        false,
    )
    .unwrap();
    assert!(same(&a, &b));
}

/// A byte that is not UTF-8 in a streamed JSONL file is located as in
/// the bytes (file, line, offset); a τ²-bench-like file that is not
/// JSONL is read whole.
#[test]
fn a_stream_locates_a_bad_byte_like_its_bytes() {
    let mut bad = CORPUS.as_bytes()[..20_000].to_vec();
    let cut = bad.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    bad.truncate(cut);
    bad.extend_from_slice(b"{\"id\": \"x\xff\"}\n");
    let files = vec![("bad.jsonl".to_string(), bad)];
    let a = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap_err();
    let b = read_inputs_from(
        streamed(&files, 100),
        &TrajectoryOptions::default(),
        &Messages::Counts,
        false,
    )
    .unwrap_err();
    assert_eq!(a, b);
    assert!(
        matches!(a, ReadError::NotUtf8 { source: crate::text::NotUtf8 { line, .. }, .. } if line > 1),
        "{a:?}"
    );
}

#[test]
fn trajectory_files_form_one_corpus_whatever_their_split() {
    let whole = vec![
        ("f.csv".to_string(), FOUNDATIONAL.to_string()),
        ("t.jsonl".to_string(), TRAJECTORIES.to_string()),
    ];
    // One file per model, as τ²-bench results usually come.
    let mut split = vec![("f.csv".to_string(), FOUNDATIONAL.to_string())];
    for m in ["A1", "B1", "C1", "D1"] {
        let lines: String = TRAJECTORIES
            .lines()
            .filter(|l| l.contains(&format!("\"model\": \"{m}\"")))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(!lines.is_empty(), "fixture has {m}");
        split.push((format!("{m}.jsonl"), lines));
    }
    let opts = TrajectoryOptions::default();
    let (a, ra) = read_profiles_with(&whole, &Default::default(), &opts).unwrap();
    let (b, rb) = read_profiles_with(&split, &Default::default(), &opts).unwrap();
    // The common-task subset spans the four files: same table, same macro.
    assert_eq!(a.operations, b.operations);
    assert_eq!(a.reward, b.reward);
    assert_eq!(a.pooled_macro, b.pooled_macro);
    assert_eq!(
        rb.files,
        ["f.csv", "A1.jsonl + B1.jsonl + C1.jsonl + D1.jsonl"]
    );
    assert!(
        ra.notes[0].contains("on the 2 tasks every model attempted"),
        "{:?}",
        ra.notes
    );
    // The pooled macro is the trajectory reader's, attached by model.
    let p = crate::operations::operation_profile(
        &crate::formats::read_jsonl(TRAJECTORIES).trajectories,
        &Default::default(),
    );
    let by_model: Vec<Option<f64>> = a
        .models
        .iter()
        .map(|m| {
            p.models
                .iter()
                .position(|x| x == m)
                .and_then(|i| p.pooled_macro[i])
        })
        .collect();
    assert_eq!(a.pooled_macro, Some(by_model));
    // Renaming merges two models into one.
    let merged = TrajectoryOptions {
        renames: vec![("B1".into(), "A1".into())],
        all_tasks: true,
        ..Default::default()
    };
    let (c, rc) = read_profiles_with(&whole, &Default::default(), &merged).unwrap();
    assert!(
        rc.notes.iter().any(|n| n.contains("renamed (B1 → A1)")),
        "{:?}",
        rc.notes
    );
    // B1 stays in the foundational file, but its trajectories now count as A1's.
    let b1 = c.models.iter().position(|m| m == "B1").unwrap();
    assert!(c.operations.values[b1]
        .iter()
        .all(std::option::Option::is_none));
}

#[test]
fn a_label_file_is_recognised_and_needs_its_trajectories() {
    let labels = "trajectory_id,operation,requirement,label\nt-001,GI,r1,0\n";
    assert!(is_label_csv(labels));
    assert!(!is_label_csv(FOUNDATIONAL));
    let err = read_profiles_with(
        &[
            ("f.csv".to_string(), FOUNDATIONAL.to_string()),
            ("labels.csv".to_string(), labels.to_string()),
        ],
        &Default::default(),
        &TrajectoryOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "labels.csv: a label file needs the trajectories it labels: load them together"
    );
    let (t, r) = read_profiles_with(
        &[
            ("f.csv".to_string(), FOUNDATIONAL.to_string()),
            ("t.jsonl".to_string(), TRAJECTORIES.to_string()),
            ("labels.csv".to_string(), labels.to_string()),
        ],
        &Default::default(),
        &TrajectoryOptions::default(),
    )
    .unwrap();
    assert!(
        r.notes.iter().any(|n| n == "labels.csv: 1 labels applied"),
        "{:?}",
        r.notes
    );
    // t-001 (A1, t1) had GI [1]; the label file replaces it with [0].
    let a1 = t.models.iter().position(|m| m == "A1").unwrap();
    let gi = t.operations.names.iter().position(|n| n == "GI").unwrap();
    let ((), before) = read_profiles(
        &[
            ("f.csv".to_string(), FOUNDATIONAL.to_string()),
            ("t.jsonl".to_string(), TRAJECTORIES.to_string()),
        ],
        &Default::default(),
    )
    .map(|(t, _)| ((), t.operations.values[a1][gi]))
    .unwrap();
    assert_ne!(t.operations.values[a1][gi], before);
}

fn read(s: &str) -> ProfileTable {
    ProfileTable::read(s, &Default::default()).unwrap()
}

#[test]
fn joins_on_model_and_reports_who_is_missing() {
    let f = read("model,family,TU,RE\na,A,1,2\nb,B,3,4\nc,C,5,6\n");
    let o = read("model,family,GI,PL\nb,B,7,8\na,A,9,10\nd,D,11,12\n");
    let y = read("model,family,reward\na,A,0.5\nb,B,0.25\n");
    let (t, r) = join(&[
        ("f.csv".into(), f),
        ("o.csv".into(), o),
        ("y.csv".into(), y),
    ])
    .unwrap();
    assert_eq!(t.models, ["a", "b", "c", "d"]);
    assert_eq!(t.families, ["A", "B", "C", "D"]);
    assert_eq!(t.foundational.names, ["TU", "RE"]);
    assert_eq!(t.operations.values[0], vec![Some(9.0), Some(10.0)]);
    assert_eq!(
        t.operations.values[2],
        vec![None, None],
        "c has no operation file row"
    );
    assert_eq!(t.foundational.values[3], vec![None, None]);
    assert_eq!(t.reward, Some(vec![Some(50.0), Some(25.0), None, None]));
    assert_eq!(r.joined, 2);
    assert_eq!(
        r.sentences(),
        [
            "not in f.csv: d (kept, with its values from f.csv missing)",
            "not in o.csv: c (kept, with its values from o.csv missing)",
            "not in y.csv: c, d (kept, with its values from y.csv missing)"
        ]
    );
}

#[test]
fn conflicts_name_the_files() {
    let a = read("model,family,TU\nm,A,1\n");
    let b = read("model,family,GI\nm,B,2\n");
    let e = join(&[("a.csv".into(), a.clone()), ("b.csv".into(), b)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "model `m` is in family `A` in a.csv but `B` in b.csv"
    );
    let c = read("model,family,TU\nm,A,3\n");
    let e = join(&[("a.csv".into(), a), ("c.csv".into(), c)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "column `TU` is in both a.csv and c.csv: keep it in one file"
    );
}

/// Each trajectory's file is kept (for runs keyed or split by file), also
/// after repeats are dropped.
#[test]
fn each_trajectory_keeps_its_file() {
    let lines: Vec<&str> = TRAJECTORIES.lines().collect();
    let first = format!("{}\n{}\n", lines[0], lines[1]);
    let second = format!("{}\n", lines[2]);
    // The third file repeats the first file's first line: dropped.
    let third = format!("{}\n{}\n", lines[0], lines[3]);
    let files = vec![
        ("a.jsonl".to_string(), first),
        ("b.jsonl".to_string(), second),
        ("c.jsonl".to_string(), third),
    ];
    let inputs = read_inputs(&files, &TrajectoryOptions::default(), &Messages::Counts).unwrap();
    assert_eq!(inputs.trajectory_files, ["a.jsonl", "b.jsonl", "c.jsonl"]);
    assert_eq!(inputs.corpus.trajectories.len(), 4);
    assert_eq!(inputs.trajectory_file, [0, 0, 1, 2]);
    let kept = TrajectoryOptions {
        keep_repeats: true,
        ..Default::default()
    };
    let inputs = read_inputs(&files, &kept, &Messages::Counts).unwrap();
    assert_eq!(inputs.trajectory_file, [0, 0, 1, 2, 2]);
    assert!(inputs.excluded_file.is_empty());
}
