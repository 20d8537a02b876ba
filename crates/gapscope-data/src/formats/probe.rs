//! The shape of a JSON or JSONL text, for the format detector
//! ([`super::detect`]): the top-level keys of its first record and a few
//! short string values, found without building the values (a results file
//! can be hundreds of megabytes; ignoring its values is a fraction of the
//! cost of reading them).
//!
//! A text is one of: a JSON object (its keys), a JSON array (the keys of its
//! first element and the number of elements), JSON lines (the keys of each of
//! the first [`MAX_LINES`] non-blank lines), or none of these.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// How many lines of a JSONL text are probed.
pub const MAX_LINES: usize = 8;
/// String values longer than this are not kept (a `type` or a version is short).
const MAX_VALUE: usize = 64;

/// One record's top-level keys, in order, and its short string values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub keys: Vec<String>,
    /// (key, value) of the top-level values that are strings of at most 64 bytes.
    pub strings: Vec<(String, String)>,
    /// Keys whose value is a JSON integer (τ-bench v1's `task_id` is one).
    pub integers: Vec<String>,
    /// Keys whose value is `null`.
    pub nulls: Vec<String>,
}

impl Record {
    pub fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|k| k == key)
    }
    pub fn has_all(&self, keys: &[&str]) -> bool {
        keys.iter().all(|k| self.has(k))
    }
    pub fn has_any(&self, keys: &[&str]) -> bool {
        keys.iter().any(|k| self.has(k))
    }
    /// The short string value of `key`, if it has one.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.strings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    pub fn is_integer(&self, key: &str) -> bool {
        self.integers.iter().any(|k| k == key)
    }
    pub fn is_null(&self, key: &str) -> bool {
        self.nulls.iter().any(|k| k == key)
    }
}

/// What a text is, as far as the detector needs to know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One JSON object.
    Object(Record),
    /// One JSON array: its length and its first element, when that is an object.
    Array { len: usize, first: Option<Record> },
    /// JSON lines (the whole text is not one JSON value, its first non-blank
    /// line is an object): the records of the first lines that are objects.
    Lines(Vec<Record>),
    /// Empty, not JSON, or a JSON scalar.
    Other,
}

impl Shape {
    /// The first record: the object, the array's first element, the first line.
    pub fn first(&self) -> Option<&Record> {
        match self {
            Shape::Object(r) => Some(r),
            Shape::Array { first, .. } => first.as_ref(),
            Shape::Lines(lines) => lines.first(),
            Shape::Other => None,
        }
    }
    /// The records of a line-oriented reading: the lines, or the object
    /// alone (a JSONL file of one line is one JSON object).
    pub fn lines(&self) -> &[Record] {
        match self {
            Shape::Object(r) => std::slice::from_ref(r),
            Shape::Lines(lines) => lines,
            Shape::Array { .. } | Shape::Other => &[],
        }
    }
}

/// The shape of `text` (a UTF-8 byte-order mark and leading blanks allowed).
pub fn probe(text: &str) -> Shape {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') || t.starts_with('[') {
        if let Ok(Top(shape)) = serde_json::from_str::<Top>(t) {
            return shape;
        }
    }
    let mut lines = Vec::new();
    for line in t.lines().filter(|l| !l.trim().is_empty()).take(MAX_LINES) {
        match serde_json::from_str::<Top>(line) {
            Ok(Top(Shape::Object(r))) => lines.push(r),
            // A line that is not an object ends the probe (a first line that
            // is not one makes the text none of ours).
            _ => break,
        }
    }
    if lines.is_empty() {
        Shape::Other
    } else {
        Shape::Lines(lines)
    }
}

/// A top-level value, seen as a [`Shape`].
struct Top(Shape);

impl<'de> de::Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TopVisitor)
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object or array")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Top, A::Error> {
        Ok(Top(Shape::Object(record(map)?)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
        let first = seq.next_element::<Element>()?;
        let mut len = usize::from(first.is_some());
        while seq.next_element::<IgnoredAny>()?.is_some() {
            len += 1;
        }
        Ok(Top(Shape::Array {
            len,
            first: first.and_then(|Element(r)| r),
        }))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Top, E> {
        Ok(Top(Shape::Other))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Top, E> {
        Ok(Top(Shape::Other))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Top, E> {
        Ok(Top(Shape::Other))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Top, E> {
        Ok(Top(Shape::Other))
    }
    fn visit_str<E>(self, _: &str) -> Result<Top, E> {
        Ok(Top(Shape::Other))
    }
    fn visit_unit<E>(self) -> Result<Top, E> {
        Ok(Top(Shape::Other))
    }
}

fn record<'de, A: MapAccess<'de>>(mut map: A) -> Result<Record, A::Error> {
    let mut r = Record::default();
    while let Some(key) = map.next_key::<Cow<'de, str>>()? {
        let key = key.into_owned();
        match map.next_value::<Scalar>()? {
            Scalar::Str(Some(s)) => r.strings.push((key.clone(), s)),
            Scalar::Int => r.integers.push(key.clone()),
            Scalar::Null => r.nulls.push(key.clone()),
            Scalar::Str(None) | Scalar::Else => {}
        }
        r.keys.push(key);
    }
    Ok(r)
}

/// An array element: its record when it is an object.
struct Element(Option<Record>);

impl<'de> de::Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Element;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Element, A::Error> {
                Ok(Element(Some(record(map)?)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Element, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Element(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_unit<E>(self) -> Result<Element, E> {
                Ok(Element(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A top-level value as the probe keeps it.
enum Scalar {
    /// A string (kept when short).
    Str(Option<String>),
    Int,
    Null,
    Else,
}

impl<'de> de::Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_str<E>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Str((s.len() <= MAX_VALUE).then(|| s.to_string())))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Scalar, E> {
                Ok(Scalar::Int)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Scalar, E> {
                Ok(Scalar::Int)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Scalar, E> {
                Ok(Scalar::Else)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Scalar, E> {
                Ok(Scalar::Else)
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Null)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Else)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Else)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(r: &Record) -> Vec<&str> {
        r.keys.iter().map(String::as_str).collect()
    }

    #[test]
    fn an_object_gives_its_keys_and_short_strings() {
        let s = probe("\u{feff} {\"task_id\": 3, \"reward\": 1.0, \"info\": {\"a\": [1]}, \"v\": \"1.6\", \"n\": null}");
        let Shape::Object(r) = &s else {
            panic!("{s:?}")
        };
        assert_eq!(keys(r), ["task_id", "reward", "info", "v", "n"]);
        assert!(r.is_integer("task_id") && !r.is_integer("reward"));
        assert_eq!(r.string("v"), Some("1.6"));
        assert!(r.is_null("n") && !r.is_null("v"));
    }

    #[test]
    fn an_array_gives_its_length_and_first_record() {
        let s = probe("[{\"id\": \"a\", \"task_id\": \"1\"}, {\"x\": 1}, 3]");
        assert_eq!(
            s,
            Shape::Array {
                len: 3,
                first: Some(Record {
                    keys: vec!["id".into(), "task_id".into()],
                    strings: vec![("id".into(), "a".into()), ("task_id".into(), "1".into())],
                    ..Record::default()
                })
            }
        );
        assert_eq!(
            probe("[]"),
            Shape::Array {
                len: 0,
                first: None
            }
        );
    }

    #[test]
    fn lines_give_each_lines_keys_until_one_is_not_an_object() {
        let s = probe("{\"a\": 1}\n\n{\"b\": \"x\"}\n[1]\n{\"c\": 2}\n");
        let Shape::Lines(lines) = &s else {
            panic!("{s:?}")
        };
        assert_eq!(lines.len(), 2);
        assert_eq!(keys(&lines[1]), ["b"]);
        // One line is one object.
        assert!(matches!(probe("{\"a\": 1}\n"), Shape::Object(_)));
    }

    #[test]
    fn other_texts_are_other() {
        for t in ["", "model,score\na,1\n", "3", "\"s\"", "[1, 2", "{\"a\": "] {
            assert_eq!(probe(t), Shape::Other, "{t:?}");
        }
    }

    #[test]
    fn long_strings_are_not_kept() {
        let long = "x".repeat(MAX_VALUE + 1);
        let Shape::Object(r) = probe(&format!("{{\"k\": \"{long}\"}}")) else {
            panic!()
        };
        assert_eq!(r.string("k"), None);
        assert!(r.has("k"));
    }
}
