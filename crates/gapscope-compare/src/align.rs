//! The tool calls of two trajectories aligned for a side-by-side view: the
//! longest common subsequence of their calls, compared on (name, arguments),
//! with the calls only one side made between the matches.
//!
//! - [`tool_calls`]: every tool call of a trajectory, in message order, with
//!   its arguments as [`canonical_json`].
//! - [`align`]: the alignment ([`Alignment`]) of two such lists, by the
//!   textbook O(n·m) dynamic programme over a table of at most
//!   [`MAX_CELLS`] cells (else [`AlignError::TooLarge`]).
//!
//! **Ties.** Two sequences often have several longest common subsequences
//! (A = `[x, y]`, B = `[y, x]`: match the `x`s or the `y`s). [`align`] takes
//! the one whose A indices, read in order, are lexicographically smallest,
//! and among those the one whose B indices are lexicographically smallest:
//! each match is as early in A as it can be without shortening the
//! alignment, then as early in B. For A = `[x, y]`, B = `[y, x]` that is
//! A's `x` with B's `x`; for A = `[x, y]`, B = `[y, y]`, A's `y` with B's
//! *first* `y`. (The plain walk over the table that, on a tie, drops B's
//! call would pair A's `y` with B's second `y` here; the rule is therefore
//! implemented as the search below, not as that walk.) A common prefix is
//! always matched call by call.

use std::collections::HashMap;

use gapscope_data::trajectory::Trajectory;
use serde::{Deserialize, Serialize};

/// The largest dynamic-programming table [`align`] builds: (n + 1)·(m + 1)
/// cells for n and m calls, 4 bytes each, so at most 16 MB. Two sequences
/// of 1,999 calls each fit (4,000,000 cells); beyond, [`align`] returns
/// [`AlignError::TooLarge`] rather than a slower or approximate answer.
/// An empty side needs no table and is never refused.
pub const MAX_CELLS: usize = 4_000_000;

/// One tool call of a trajectory, located in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRef {
    /// Index into the trajectory's `messages`.
    pub message: usize,
    /// Index into that message's `tool_calls`.
    pub call: usize,
    /// The tool's name.
    pub name: String,
    /// The call's arguments as [`canonical_json`].
    pub arguments: String,
}

/// One row of an [`Alignment`]: a call of A, of B, or of both (a match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlignedRow {
    /// Index into A's calls, when A has a call on this row.
    pub a: Option<usize>,
    /// Index into B's calls, when B has a call on this row.
    pub b: Option<usize>,
}

impl AlignedRow {
    /// Whether both sides have a call on this row (the two calls are equal
    /// on name and arguments).
    pub fn is_match(&self) -> bool {
        self.a.is_some() && self.b.is_some()
    }
}

/// Two call sequences aligned: every call of each side exactly once, in
/// its order. Between two matches (and before the first, after the last)
/// A's unmatched calls come first, then B's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alignment {
    /// The rows, top to bottom.
    pub rows: Vec<AlignedRow>,
    /// How many rows are matches: the length of the longest common
    /// subsequence.
    pub matched: usize,
    /// Index into `rows` of the first row that is not a match (where the
    /// two trajectories part), `None` when every row is a match.
    pub first_unmatched: Option<usize>,
}

/// Why two call sequences were not aligned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlignError {
    /// The table would exceed [`MAX_CELLS`].
    #[error(
        "cannot align {a} tool calls with {b}: the table would need ({a} + 1)·({b} + 1) cells, \
         over the limit of {limit}"
    )]
    TooLarge {
        /// A's number of calls.
        a: usize,
        /// B's number of calls.
        b: usize,
        /// The limit, [`MAX_CELLS`].
        limit: usize,
    },
}

/// Every tool call of `t`, in message order (then call order within a
/// message), whatever the message's role, with its arguments as
/// [`canonical_json`].
pub fn tool_calls(t: &Trajectory) -> Vec<CallRef> {
    t.messages
        .iter()
        .enumerate()
        .flat_map(|(message, m)| {
            m.tool_calls
                .iter()
                .enumerate()
                .map(move |(call, c)| CallRef {
                    message,
                    call,
                    name: c.name.clone(),
                    arguments: canonical_json(&c.arguments),
                })
        })
        .collect()
}

/// `v` as JSON text in one canonical form, so that equal values give equal
/// text: object keys sorted (by their UTF-8 bytes, at every depth, whatever
/// order serde_json's map keeps), no whitespace, strings escaped as
/// serde_json escapes them, and numbers by value (see below).
pub fn canonical_json(v: &serde_json::Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&canonical_number(n)),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // Sorted here, not left to the map: with serde_json's
            // `preserve_order` feature (off in this workspace today, but any
            // crate of a build can turn it on) the map keeps the file's order.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|x, y| x.0.cmp(y.0));
            out.push('{');
            for (k, (key, value)) in entries.into_iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
    }
}

/// A JSON string literal exactly as serde_json writes it (its own escaper,
/// through `Display`, which cannot fail on a string).
fn write_string(s: &str, out: &mut String) {
    out.push_str(&serde_json::Value::String(s.to_owned()).to_string());
}

/// A number by its value. Tool arguments from different harnesses write the
/// same value as `1` or `1.0` (a Python float, a JavaScript number), so an
/// integer-valued float within the range of `i64`/`u64` (−2^63 ≤ x < 2^64,
/// where such a float is exactly an integer of those types) is written as
/// that integer: `1.0`, `1e2` and `-0.0` become `1`, `100` and `0`. Any
/// other float is written as serde_json writes it (the shortest text that
/// reads back as the same `f64`, always with a `.` or an exponent, so never
/// equal to an integer's text). Distinct values thus give distinct text, and
/// equal values equal text.
fn canonical_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    match n.as_f64() {
        // The casts are exact: x is an integer inside the target's range.
        Some(x) if x.fract() == 0.0 && (-TWO_63..TWO_63).contains(&x) => (x as i64).to_string(),
        Some(x) if x.fract() == 0.0 && (TWO_63..TWO_64).contains(&x) => (x as u64).to_string(),
        _ => n.to_string(),
    }
}

/// The alignment of `a` and `b` (module docs): a longest common subsequence
/// of the two on (name, arguments), ties broken by the module's rule (each
/// match as early in A as it can be, then as early in B), with the calls
/// only one side made in between, A's first.
///
/// Time O(n·m) and a table of (n + 1)·(m + 1) `u32`s; refused with
/// [`AlignError::TooLarge`] when that exceeds [`MAX_CELLS`] (unless a side
/// is empty).
pub fn align(a: &[CallRef], b: &[CallRef]) -> Result<Alignment, AlignError> {
    let pairs = if a.is_empty() || b.is_empty() {
        Vec::new()
    } else {
        let too_large = AlignError::TooLarge {
            a: a.len(),
            b: b.len(),
            limit: MAX_CELLS,
        };
        let cells = (a.len() + 1)
            .checked_mul(b.len() + 1)
            .ok_or(too_large.clone())?;
        if cells > MAX_CELLS {
            return Err(too_large);
        }
        let (ka, kb) = interned_keys(a, b);
        lcs_pairs(&ka, &kb)
    };
    Ok(rows_of(a.len(), b.len(), &pairs))
}

/// Each call's key (name, arguments) as a small integer, equal exactly when
/// the keys are equal, so the table compares integers.
fn interned_keys<'c>(a: &'c [CallRef], b: &'c [CallRef]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<(&'c str, &'c str), u32> = HashMap::new();
    let mut key = |c: &'c CallRef| -> u32 {
        let next = ids.len() as u32;
        *ids.entry((c.name.as_str(), c.arguments.as_str()))
            .or_insert(next)
    };
    let ka = a.iter().map(&mut key).collect();
    let kb = b.iter().map(&mut key).collect();
    (ka, kb)
}

/// The matched pairs (i, j), increasing in both, of the longest common
/// subsequence chosen by the tie rule.
///
/// `suffix[i·(m+1) + j]` is the LCS length of `a[i..]` and `b[j..]`. From
/// (i, j) with r matches still to make, the next match is at the smallest
/// i' ≥ i for which some j' ≥ j has `a[i'] = b[j']` and `1 + suffix(i'+1,
/// j'+1) = r`; for that i' the first such j' is the first occurrence of
/// `a[i']` in `b[j..]` (the suffix length only falls as j' grows). Each i'
/// tried costs one scan of B, and the i' only move forward: O(n·m) in all.
fn lcs_pairs(a: &[u32], b: &[u32]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let w = m + 1;
    let mut suffix = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            suffix[i * w + j] = if a[i] == b[j] {
                suffix[(i + 1) * w + j + 1] + 1
            } else {
                suffix[(i + 1) * w + j].max(suffix[i * w + j + 1])
            };
        }
    }
    let total = suffix[0] as usize;
    let mut pairs = Vec::with_capacity(total);
    let (mut i, mut j) = (0, 0);
    while pairs.len() < total {
        let r = total - pairs.len();
        let next = (i..n).find_map(|ip| {
            let jp = (j..m).find(|&jp| b[jp] == a[ip])?;
            (suffix[(ip + 1) * w + jp + 1] as usize + 1 == r).then_some((ip, jp))
        });
        // Always found (the table says r more matches exist from (i, j)).
        let Some((ip, jp)) = next else { break };
        pairs.push((ip, jp));
        (i, j) = (ip + 1, jp + 1);
    }
    pairs
}

/// The rows of an alignment of n and m calls with these matched pairs.
fn rows_of(n: usize, m: usize, pairs: &[(usize, usize)]) -> Alignment {
    let mut rows = Vec::with_capacity(n + m - pairs.len());
    let (mut i, mut j) = (0, 0);
    let gap = |rows: &mut Vec<AlignedRow>, a: std::ops::Range<usize>, b: std::ops::Range<usize>| {
        rows.extend(a.map(|x| AlignedRow {
            a: Some(x),
            b: None,
        }));
        rows.extend(b.map(|y| AlignedRow {
            a: None,
            b: Some(y),
        }));
    };
    for &(pi, pj) in pairs {
        gap(&mut rows, i..pi, j..pj);
        rows.push(AlignedRow {
            a: Some(pi),
            b: Some(pj),
        });
        (i, j) = (pi + 1, pj + 1);
    }
    gap(&mut rows, i..n, j..m);
    let first_unmatched = rows.iter().position(|r| !r.is_match());
    Alignment {
        rows,
        matched: pairs.len(),
        first_unmatched,
    }
}
