//! The difflib port against CPython itself: the addendum's vectors and
//! thousands of seeded random pairs (small alphabets to force repeats,
//! lengths 0–400 so that autojunk triggers at ≥ 200, some non-ASCII code
//! points) go to one `python3` process as JSON; its `get_matching_blocks()`
//! total M, T = len(a) + len(b) and `ratio()` must equal ours exactly, with
//! autojunk on (Python's default) and off. Without `python3` the test fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use gapscope_runtime::difflib::SequenceMatcher;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const PYTHON: &str = r"
import difflib, json, sys
out = []
for a, b, aj in json.load(sys.stdin):
    s = difflib.SequenceMatcher(None, a, b, autojunk=aj)
    m = sum(x.size for x in s.get_matching_blocks())
    out.append([m, len(a) + len(b), s.ratio()])
json.dump(out, sys.stdout)
";

const ALPHABETS: [&str; 7] = [
    "ab",
    "abc",
    "abcd",
    "x =1\n",
    "aé中😀",
    "ab é",
    "abcdefghijklmnopqrstuvwxyz0123456789()[]=+-*/ \n\"'_.,:",
];

fn random_text(rng: &mut ChaCha8Rng, alphabet: &[char], len: usize) -> String {
    (0..len)
        .map(|_| alphabet[rng.random_range(0..alphabet.len())])
        .collect()
}

/// A copy of `a` with a few substitutions, insertions and deletions.
fn mutate(rng: &mut ChaCha8Rng, a: &str, alphabet: &[char]) -> String {
    let mut v: Vec<char> = a.chars().collect();
    let edits = rng.random_range(0..=(v.len() / 10 + 3));
    for _ in 0..edits {
        let op = rng.random_range(0..3);
        let c = alphabet[rng.random_range(0..alphabet.len())];
        if v.is_empty() || op == 0 {
            let at = rng.random_range(0..=v.len());
            v.insert(at, c);
        } else if op == 1 {
            let at = rng.random_range(0..v.len());
            v[at] = c;
        } else {
            let at = rng.random_range(0..v.len());
            v.remove(at);
        }
    }
    v.into_iter().collect()
}

fn random_len(rng: &mut ChaCha8Rng) -> usize {
    match rng.random_range(0..3) {
        0 => rng.random_range(0..20),
        1 => rng.random_range(20..200),
        _ => rng.random_range(195..=400),
    }
}

fn pairs() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![
        ("inspect(3)".into(), "inspect(4)".into()),
        ("print(table)".into(), "print(tables)".into()),
        ("aba".into(), "babba".into()),
        ("babba".into(), "aba".into()),
        (
            "x = 1\n".repeat(40) + "finish()",
            "x = 2\n".repeat(40) + "finish()",
        ),
        (String::new(), String::new()),
        (String::new(), "abc".into()),
        ("é中😀".into(), "😀中é".into()),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(20_260_704);
    for i in 0..2_400 {
        let alphabet: Vec<char> = ALPHABETS[i % ALPHABETS.len()].chars().collect();
        let len = random_len(&mut rng);
        let a = random_text(&mut rng, &alphabet, len);
        let b = if rng.random_bool(0.5) {
            mutate(&mut rng, &a, &alphabet)
        } else {
            let len = random_len(&mut rng);
            random_text(&mut rng, &alphabet, len)
        };
        out.push((a, b));
    }
    out
}

fn python(cases: &Value) -> Vec<(usize, usize, f64)> {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(PYTHON)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("this test needs `python3` on PATH to compare with CPython's difflib");
    let input = serde_json::to_vec(cases).unwrap();
    child
        .stdin
        .take()
        .expect("python3 stdin")
        .write_all(&input)
        .expect("writing the pairs to python3");
    let out = child.wait_with_output().expect("waiting for python3");
    assert!(
        out.status.success(),
        "python3 failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<(usize, usize, f64)> =
        serde_json::from_slice(&out.stdout).expect("python3's output is JSON [[m, t, ratio]]");
    rows
}

#[test]
fn ratio_matches_cpython() {
    let pairs = pairs();
    let mut cases = Vec::new();
    for (a, b) in &pairs {
        for aj in [true, false] {
            cases.push(json!([a, b, aj]));
        }
    }
    let cases = Value::Array(cases);
    let expected = python(&cases);
    assert_eq!(expected.len(), pairs.len() * 2, "one answer per case");
    let mut autojunk_long = 0;
    let mut differ = 0;
    for (i, (a, b)) in pairs.iter().enumerate() {
        for (h, aj) in [true, false].into_iter().enumerate() {
            let sm = SequenceMatcher::new(a, b, aj);
            let (m, t) = sm.matched_total();
            let (pm, pt, pr) = expected[2 * i + h];
            assert_eq!(
                (m, t),
                (pm, pt),
                "pair {i} (autojunk {aj}): M, T differ from Python\na = {a:?}\nb = {b:?}"
            );
            assert_eq!(sm.ratio(), pr, "pair {i} (autojunk {aj}): ratio");
        }
        if b.chars().count() >= 200 {
            autojunk_long += 1;
            let on = SequenceMatcher::new(a, b, true).matched_total();
            let off = SequenceMatcher::new(a, b, false).matched_total();
            differ += usize::from(on != off);
        }
    }
    // The sample exercises the autojunk purge, not only short texts.
    assert!(pairs.len() >= 2_000);
    assert!(
        autojunk_long >= 500,
        "only {autojunk_long} pairs with len(b) ≥ 200"
    );
    assert!(differ >= 100, "autojunk changed M in only {differ} pairs");
}
