//! The tool-call alignment: small cases worked by hand (rows written out
//! in full), the canonical JSON of arguments, the memory limit, and
//! property tests with a deterministic runner (fixed ChaCha seed, as
//! elsewhere in the workspace) against independent brute forces: the LCS
//! length by enumerating subsequences of the shorter side, and the tie rule
//! by enumerating every longest common subsequence.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_compare::align::{
    align, canonical_json, tool_calls, AlignError, AlignedRow, Alignment, CallRef, MAX_CELLS,
};
use gapscope_data::trajectory::{Message, ToolCall, Trajectory};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// A call with these arguments (its place in a trajectory does not matter
/// to the alignment).
fn call(name: &str, arguments: &Value) -> CallRef {
    CallRef {
        message: 0,
        call: 0,
        name: name.into(),
        arguments: canonical_json(arguments),
    }
}

/// Calls named by single letters, no arguments.
fn calls(names: &str) -> Vec<CallRef> {
    names
        .chars()
        .map(|c| call(&c.to_string(), &json!({})))
        .collect()
}

/// The rows written as (a, b) with -1 for "no call on this side".
fn rows(spec: &[(i64, i64)]) -> Vec<AlignedRow> {
    let side = |x: i64| usize::try_from(x).ok();
    spec.iter()
        .map(|&(a, b)| AlignedRow {
            a: side(a),
            b: side(b),
        })
        .collect()
}

fn expect(al: &Alignment, spec: &[(i64, i64)], matched: usize, first_unmatched: Option<usize>) {
    assert_eq!(al.rows, rows(spec));
    assert_eq!(al.matched, matched);
    assert_eq!(al.first_unmatched, first_unmatched);
}

// ------------------------------------------------------------ by hand

#[test]
fn identical_sequences_match_row_by_row() {
    let a = vec![
        call("read", &json!({"path": "a.rs"})),
        call("edit", &json!({"path": "a.rs", "line": 3})),
        call("run", &json!({})),
    ];
    let al = align(&a, &a.clone()).unwrap();
    expect(&al, &[(0, 0), (1, 1), (2, 2)], 3, None);
}

#[test]
fn disjoint_sequences_put_a_before_b() {
    let al = align(&calls("xy"), &calls("zw")).unwrap();
    expect(&al, &[(0, -1), (1, -1), (-1, 0), (-1, 1)], 0, Some(0));
}

#[test]
fn one_insertion_in_b_is_a_b_only_row() {
    // A = x y z, B = x w y z: w is B's alone.
    let al = align(&calls("xyz"), &calls("xwyz")).unwrap();
    expect(&al, &[(0, 0), (-1, 1), (1, 2), (2, 3)], 3, Some(1));
    // The other way round it is A's alone.
    let al = align(&calls("xwyz"), &calls("xyz")).unwrap();
    expect(&al, &[(0, 0), (1, -1), (2, 1), (3, 2)], 3, Some(1));
}

#[test]
fn substitution_in_the_middle_is_the_first_unmatched_row() {
    // A = x y z, B = x w z: y then w between the matches, A's first.
    let al = align(&calls("xyz"), &calls("xwz")).unwrap();
    expect(&al, &[(0, 0), (1, -1), (-1, 1), (2, 2)], 2, Some(1));
}

#[test]
fn empty_sides() {
    expect(&align(&[], &[]).unwrap(), &[], 0, None);
    expect(
        &align(&calls("xy"), &[]).unwrap(),
        &[(0, -1), (1, -1)],
        0,
        Some(0),
    );
    expect(&align(&[], &calls("x")).unwrap(), &[(-1, 0)], 0, Some(0));
}

#[test]
fn a_common_prefix_then_one_side_ends() {
    let al = align(&calls("xyz"), &calls("xy")).unwrap();
    expect(&al, &[(0, 0), (1, 1), (2, -1)], 2, Some(2));
}

#[test]
fn argument_key_order_does_not_matter() {
    let a =
        serde_json::from_str::<Value>(r#"{"path":"a.rs","opts":{"z":1,"a":[2,{"y":0,"b":1}]}}"#)
            .unwrap();
    let b =
        serde_json::from_str::<Value>(r#"{"opts":{"a":[2,{"b":1,"y":0}],"z":1},"path":"a.rs"}"#)
            .unwrap();
    assert_eq!(
        canonical_json(&a),
        r#"{"opts":{"a":[2,{"b":1,"y":0}],"z":1},"path":"a.rs"}"#
    );
    assert_eq!(canonical_json(&a), canonical_json(&b));
    let al = align(&[call("edit", &a)], &[call("edit", &b)]).unwrap();
    expect(&al, &[(0, 0)], 1, None);
}

#[test]
fn integer_and_float_spellings_of_one_value_are_equal() {
    let int = serde_json::from_str::<Value>(r#"{"n":1,"m":[100,-3]}"#).unwrap();
    let float = serde_json::from_str::<Value>(r#"{"n":1.0,"m":[1e2,-3.0]}"#).unwrap();
    // serde_json itself keeps them apart (an integer and a float).
    assert_ne!(int, float);
    assert_eq!(canonical_json(&int), r#"{"m":[100,-3],"n":1}"#);
    assert_eq!(canonical_json(&float), r#"{"m":[100,-3],"n":1}"#);
    let al = align(&[call("f", &int)], &[call("f", &float)]).unwrap();
    expect(&al, &[(0, 0)], 1, None);
}

#[test]
fn different_argument_values_are_not_matched() {
    let a = vec![call("f", &json!({"n": 1}))];
    for other in [
        json!({"n": 2}),
        json!({"n": 1.5}),
        json!({"n": "1"}),
        json!({"n": [1]}),
        json!({"n": 1, "m": null}),
        json!({"N": 1}),
    ] {
        let al = align(&a, &[call("f", &other)]).unwrap();
        expect(&al, &[(0, -1), (-1, 0)], 0, Some(0));
    }
    // Same arguments, another tool.
    let al = align(&a, &[call("g", &json!({"n": 1}))]).unwrap();
    expect(&al, &[(0, -1), (-1, 0)], 0, Some(0));
}

#[test]
fn ties_take_the_match_earliest_in_a_then_in_b() {
    // A = x y, B = y x: x–x and y–y are both longest; A's x is earlier.
    let al = align(&calls("xy"), &calls("yx")).unwrap();
    expect(&al, &[(-1, 0), (0, 1), (1, -1)], 1, Some(0));
    // A = x y, B = y y: A's y goes with B's first y (a walk dropping B's
    // call on every tie would take the second).
    let al = align(&calls("xy"), &calls("yy")).unwrap();
    expect(&al, &[(0, -1), (1, 0), (-1, 1)], 1, Some(0));
    // A = x x, B = x: A's first x.
    let al = align(&calls("xx"), &calls("x")).unwrap();
    expect(&al, &[(0, 0), (1, -1)], 1, Some(1));
}

#[test]
fn tool_calls_lists_every_call_in_message_order() {
    let with_calls = |role: &str, calls: Vec<ToolCall>| Message {
        tool_calls: calls,
        ..Message::new(role, None)
    };
    let tc = |name: &str, arguments: Value| ToolCall {
        id: None,
        name: name.into(),
        arguments,
    };
    let t = Trajectory {
        messages: vec![
            Message::new("user", Some(json!("hi"))),
            with_calls(
                "assistant",
                vec![
                    tc("read", json!({"path": "a", "n": 2.0})),
                    tc("grep", json!({"q": "x"})),
                ],
            ),
            Message::new("tool", Some(json!("…"))),
            with_calls("assistant", vec![tc("run", Value::Null)]),
        ],
        ..Trajectory::default()
    };
    let got = tool_calls(&t);
    let want = [
        (1, 0, "read", r#"{"n":2,"path":"a"}"#),
        (1, 1, "grep", r#"{"q":"x"}"#),
        (3, 0, "run", "null"),
    ]
    .map(|(message, call, name, arguments)| CallRef {
        message,
        call,
        name: name.into(),
        arguments: arguments.into(),
    });
    assert_eq!(got, want);
    assert!(tool_calls(&Trajectory::default()).is_empty());
}

#[test]
fn canonical_json_by_hand() {
    assert_eq!(canonical_json(&json!(null)), "null");
    assert_eq!(canonical_json(&json!([true, false])), "[true,false]");
    assert_eq!(
        canonical_json(&json!({"b": [], "a": {}, "c": [[], {"y": 1, "x": 2}]})),
        r#"{"a":{},"b":[],"c":[[],{"x":2,"y":1}]}"#
    );
    // Keys sort by UTF-8 bytes: "B" (0x42) < "a" (0x61) < "é" (0xC3 0xA9).
    assert_eq!(
        canonical_json(&json!({"é": 1, "a": 2, "B": 3})),
        r#"{"B":3,"a":2,"é":1}"#
    );
    // Numbers by value: -0.0 is 0; 2^63 and 2^64 − 2048 as floats are
    // integers (exactly), 2^64 and 1e300 beyond u64 stay floats, written
    // as serde_json writes them (the exponent with its sign); non-integers
    // as serde_json writes them.
    let nums: Value = serde_json::from_str(
        "[-0.0, 2.5, -7.25, 9223372036854775808.0, 18446744073709549568.0, \
         18446744073709551616.0, 1e300, 0.1, -9223372036854775808, 18446744073709551615]",
    )
    .unwrap();
    assert_eq!(
        canonical_json(&nums),
        "[0,2.5,-7.25,9223372036854775808,18446744073709549568,\
         1.8446744073709552e+19,1e+300,0.1,-9223372036854775808,18446744073709551615]"
    );
}

#[test]
fn strings_are_escaped_as_serde_json_escapes_them() {
    // Every ASCII character (controls, quote, backslash, DEL) and a few
    // beyond, as a string and as a key.
    let mut s: String = (0u8..=0x7f).map(char::from).collect();
    s.push_str("é\u{2028}😀");
    let quoted = serde_json::to_string(&s).unwrap();
    assert_eq!(canonical_json(&Value::String(s.clone())), quoted);
    assert_eq!(
        canonical_json(&json!({ s.clone(): s.clone() })),
        format!("{{{quoted}:{quoted}}}")
    );
    assert_eq!(canonical_json(&json!("a\"b\\c\n")), r#""a\"b\\c\n""#);
}

#[test]
fn the_memory_limit_is_on_the_table_cells() {
    assert_eq!(MAX_CELLS, 4_000_000);
    // 1,999 × 1,999 calls: (1,999 + 1)² = 4,000,000 cells, at the limit.
    let a: Vec<CallRef> = (0..1999)
        .map(|k| call("f", &json!({ "k": k % 7 })))
        .collect();
    let al = align(&a, &a).unwrap();
    assert_eq!(al.matched, 1999);
    assert_eq!(al.first_unmatched, None);
    // One more call on one side: 2,001 · 2,000 cells, over it.
    let mut b = a.clone();
    b.push(call("g", &json!({})));
    let err = align(&a, &b).unwrap_err();
    assert_eq!(
        err,
        AlignError::TooLarge {
            a: 1999,
            b: 2000,
            limit: MAX_CELLS
        }
    );
    assert_eq!(
        err.to_string(),
        "cannot align 1999 tool calls with 2000: the table would need (1999 + 1)·(2000 + 1) \
         cells, over the limit of 4000000"
    );
    // An empty side needs no table.
    let long: Vec<CallRef> = (0..MAX_CELLS / 1000)
        .map(|_| call("f", &json!({})))
        .collect();
    let al = align(&long, &[]).unwrap();
    assert_eq!(
        (al.rows.len(), al.matched, al.first_unmatched),
        (4000, 0, Some(0))
    );
}

#[test]
fn an_alignment_serializes_and_reads_back() {
    let al = align(&calls("xyz"), &calls("xwz")).unwrap();
    let text = serde_json::to_string(&al).unwrap();
    assert_eq!(
        text,
        r#"{"rows":[{"a":0,"b":0},{"a":1,"b":null},{"a":null,"b":1},{"a":2,"b":2}],"matched":2,"first_unmatched":1}"#
    );
    assert_eq!(serde_json::from_str::<Alignment>(&text).unwrap(), al);
    let c = call("f", &json!({"n": 1}));
    let back: CallRef = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back, c);
}

// ------------------------------------------------------------ properties

/// Calls over a small alphabet: 3 names × 2 argument values.
fn sequence(max: usize) -> impl Strategy<Value = Vec<CallRef>> {
    prop::collection::vec((0..3usize, 0..2i64), 0..=max).prop_map(|keys| {
        keys.into_iter()
            .map(|(name, v)| call(["read", "edit", "run"][name], &json!({ "v": v })))
            .collect()
    })
}

fn key(c: &CallRef) -> (&str, &str) {
    (c.name.as_str(), c.arguments.as_str())
}

/// Whether `s` is a subsequence of `l` (greedy scan).
fn is_subsequence(s: &[&CallRef], l: &[CallRef]) -> bool {
    let mut it = l.iter();
    s.iter().all(|x| it.any(|y| key(y) == key(x)))
}

/// The LCS length by enumerating every subsequence of the shorter side.
fn brute_lcs(a: &[CallRef], b: &[CallRef]) -> usize {
    let (s, l) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    assert!(s.len() <= 10);
    (0u32..1 << s.len())
        .filter(|mask| {
            let sub: Vec<&CallRef> = (0..s.len())
                .filter(|k| mask >> k & 1 == 1)
                .map(|k| &s[k])
                .collect();
            is_subsequence(&sub, l)
        })
        .map(|mask| mask.count_ones() as usize)
        .max()
        .unwrap()
}

/// The index lists (in order) of the set bits of `mask`.
fn indices(mask: u32, len: usize) -> Vec<usize> {
    (0..len).filter(|k| mask >> k & 1 == 1).collect()
}

/// Among every longest common subsequence (as index lists of A and of B),
/// the one with the smallest A list, then the smallest B list.
fn brute_lex_first(a: &[CallRef], b: &[CallRef]) -> (Vec<usize>, Vec<usize>) {
    let len = brute_lcs(a, b) as u32;
    let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
    for ma in (0u32..1 << a.len()).filter(|m| m.count_ones() == len) {
        for mb in (0u32..1 << b.len()).filter(|m| m.count_ones() == len) {
            let (ia, ib) = (indices(ma, a.len()), indices(mb, b.len()));
            if ia.iter().zip(&ib).all(|(&i, &j)| key(&a[i]) == key(&b[j])) {
                let candidate = (ia, ib);
                if best.as_ref().is_none_or(|b| candidate < *b) {
                    best = Some(candidate);
                }
            }
        }
    }
    best.unwrap()
}

/// What every alignment must be: each side's indices once each, in
/// increasing order; matched rows equal on (name, arguments); A's unmatched
/// before B's between matches; the counts and `first_unmatched` consistent.
fn check_rows(a: &[CallRef], b: &[CallRef], al: &Alignment) {
    let side_a: Vec<usize> = al.rows.iter().filter_map(|r| r.a).collect();
    let side_b: Vec<usize> = al.rows.iter().filter_map(|r| r.b).collect();
    assert_eq!(side_a, (0..a.len()).collect::<Vec<_>>());
    assert_eq!(side_b, (0..b.len()).collect::<Vec<_>>());
    assert!(al.rows.iter().all(|r| r.a.is_some() || r.b.is_some()));
    let matches: Vec<&AlignedRow> = al.rows.iter().filter(|r| r.is_match()).collect();
    assert_eq!(matches.len(), al.matched);
    for r in &matches {
        assert_eq!(key(&a[r.a.unwrap()]), key(&b[r.b.unwrap()]));
    }
    for w in al.rows.windows(2) {
        let b_only_then_a_only = w[0].a.is_none() && w[1].b.is_none();
        assert!(!b_only_then_a_only, "B's row before A's: {w:?}");
    }
    assert_eq!(al.rows.len(), a.len() + b.len() - al.matched);
    assert_eq!(
        al.first_unmatched,
        al.rows.iter().position(|r| r.a.is_none() || r.b.is_none())
    );
}

#[test]
fn matched_count_is_the_brute_force_lcs_and_rows_are_well_formed() {
    runner(512)
        .run(&(sequence(10), sequence(14)), |(a, b)| {
            let expected = brute_lcs(&a, &b);
            for (x, y) in [(&a, &b), (&b, &a)] {
                let al = align(x, y).unwrap();
                prop_assert_eq!(al.matched, expected);
                check_rows(x, y, &al);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn ties_give_the_lexicographically_first_longest_subsequence() {
    runner(512)
        .run(&(sequence(7), sequence(7)), |(a, b)| {
            let al = align(&a, &b).unwrap();
            let got: (Vec<usize>, Vec<usize>) = al
                .rows
                .iter()
                .filter(|r| r.is_match())
                .map(|r| (r.a.unwrap(), r.b.unwrap()))
                .unzip();
            prop_assert_eq!(got, brute_lex_first(&a, &b));
            Ok(())
        })
        .unwrap();
}

/// JSON values with integers, integer-valued and other floats, strings of
/// characters that need escaping, arrays and objects.
fn json_value() -> impl Strategy<Value = Value> {
    let chars = prop::sample::select(vec!['a', 'b', 'Z', '"', '\\', '\n', '\u{1}', 'é', '😀']);
    let text = prop::collection::vec(chars, 0..4).prop_map(String::from_iter);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|i| json!(i)),
        any::<i32>().prop_map(|i| json!(f64::from(i))),
        any::<i32>().prop_map(|i| json!(f64::from(i) + 0.25)),
        (20i32..300).prop_map(|e| json!(10f64.powi(e))),
        text.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((text.clone(), inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// The value with integer-valued floats below 1e19 as integers and every
/// object rebuilt with its keys inserted in sorted order (so serde_json's
/// compact writer gives sorted keys with or without `preserve_order`).
fn normalized(v: &Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() && x.fract() == 0.0 && x.abs() < 1e19 => json!(x as i64),
            _ => v.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Object(map) => {
            let sorted: std::collections::BTreeMap<&String, &Value> = map.iter().collect();
            Value::Object(
                sorted
                    .into_iter()
                    .map(|(k, v)| (k.clone(), normalized(v)))
                    .collect(),
            )
        }
        _ => v.clone(),
    }
}

/// The object's entries inserted in reverse order.
fn reversed(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        Value::Object(map) => {
            let entries: Vec<(&String, &Value)> = map.iter().collect();
            Value::Object(
                entries
                    .into_iter()
                    .rev()
                    .map(|(k, v)| (k.clone(), reversed(v)))
                    .collect(),
            )
        }
        _ => v.clone(),
    }
}

#[test]
fn canonical_json_is_serde_json_compact_text_of_the_normalized_value() {
    runner(512)
        .run(&json_value(), |v| {
            let text = canonical_json(&v);
            prop_assert_eq!(&text, &serde_json::to_string(&normalized(&v)).unwrap());
            prop_assert_eq!(&text, &canonical_json(&reversed(&v)));
            // It reads back, and is a fixed point.
            let back: Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(&canonical_json(&back), &text);
            Ok(())
        })
        .unwrap();
}
