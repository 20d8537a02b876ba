//! Python's `difflib.SequenceMatcher(None, a, b).ratio()` on text (addendum
//! §7, rule R3 of the SFT trace filter).
//!
//! Hand-written because R3 is defined by CPython's exact numbers: its
//! heuristics (the *autojunk* purge of popular characters from `b` when
//! `len(b) ≥ 200`, the leftmost-longest tie-breaking of `find_longest_match`,
//! the extension of a match over purged characters, the recursion order of
//! `get_matching_blocks`) change the ratio, and no Rust crate reproduces
//! them (diff crates compute a true LCS or Myers' diff, which gives 0.8387
//! where Python gives 0.0524 on the addendum's vector). The elements are
//! `char`s, as a Python `str` is a sequence of code points.
//!
//! `tests/difflib_python.rs` compares this port with `python3` on thousands
//! of random pairs.

use std::collections::{HashMap, HashSet};

/// A matching block: `a[a..a + size] == b[b..b + size]` (Python's `Match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    /// Start in `a`.
    pub a: usize,
    /// Start in `b`.
    pub b: usize,
    /// Length of the block.
    pub size: usize,
}

/// `SequenceMatcher(None, a, b, autojunk)` over the characters of two texts.
#[derive(Clone, Debug)]
pub struct SequenceMatcher {
    a: Vec<char>,
    b: Vec<char>,
    /// Positions of each character in `b`, ascending, without the junk and
    /// popular characters (Python's `b2j`).
    b2j: HashMap<char, Vec<usize>>,
    /// Python's `bjunk`: the characters `isjunk` marks. `isjunk` is `None`
    /// here, so it stays empty; it is kept so that `find_longest_match`
    /// reads as CPython's (whose popular characters are *not* junk).
    junk: HashSet<char>,
}

impl SequenceMatcher {
    /// Python's `SequenceMatcher(None, a, b, autojunk=autojunk)`.
    pub fn new(a: &str, b: &str, autojunk: bool) -> Self {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let mut b2j: HashMap<char, Vec<usize>> = HashMap::new();
        for (i, &c) in b.iter().enumerate() {
            b2j.entry(c).or_default().push(i);
        }
        // isjunk is None: no junk. Autojunk: purge the popular characters.
        let n = b.len();
        if autojunk && n >= 200 {
            let ntest = n / 100 + 1;
            b2j.retain(|_, idxs| idxs.len() <= ntest);
        }
        SequenceMatcher {
            a,
            b,
            b2j,
            junk: HashSet::new(),
        }
    }

    /// Python's `find_longest_match(alo, ahi, blo, bhi)`: the longest block
    /// of `a[alo..ahi]` and `b[blo..bhi]` free of junk and popular
    /// characters, the earliest in `a` then in `b` among the longest, then
    /// extended on both ends by equal characters (non-junk first, then junk).
    pub fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let (a, b) = (&self.a, &self.b);
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);
        // Python's dict j2len as a vector: j2len[j + 1] is the length of the
        // longest match ending with a[i - 1] and b[j] (0 when absent); the
        // touched entries are reset instead of reallocating.
        let mut j2len = vec![0usize; b.len() + 1];
        let mut newj2len = vec![0usize; b.len() + 1];
        let (mut touched, mut newtouched) = (Vec::new(), Vec::new());
        for (i, c) in a.iter().enumerate().take(ahi).skip(alo) {
            if let Some(js) = self.b2j.get(c) {
                for &j in js {
                    if j < blo {
                        continue;
                    }
                    if j >= bhi {
                        break;
                    }
                    let k = j2len[j] + 1;
                    newj2len[j + 1] = k;
                    newtouched.push(j + 1);
                    if k > bestsize {
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            for t in touched.drain(..) {
                j2len[t] = 0;
            }
            std::mem::swap(&mut j2len, &mut newj2len);
            std::mem::swap(&mut touched, &mut newtouched);
        }
        let junk = |c: char| self.junk.contains(&c);
        // Extend over non-junk equal characters (this takes in the popular
        // characters the purge hid), backwards then forwards …
        while besti > alo && bestj > blo && !junk(b[bestj - 1]) && a[besti - 1] == b[bestj - 1] {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && !junk(b[bestj + bestsize])
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        // … then over junk equal characters (none with isjunk None).
        while besti > alo && bestj > blo && junk(b[bestj - 1]) && a[besti - 1] == b[bestj - 1] {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && junk(b[bestj + bestsize])
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        Match {
            a: besti,
            b: bestj,
            size: bestsize,
        }
    }

    /// Python's `get_matching_blocks()`: the blocks found by recursing on
    /// both sides of each longest match, sorted, adjacent ones merged, ending
    /// with the sentinel `(len(a), len(b), 0)`.
    pub fn get_matching_blocks(&self) -> Vec<Match> {
        let (la, lb) = (self.a.len(), self.b.len());
        let mut queue = vec![(0, la, 0, lb)];
        let mut blocks = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let m = self.find_longest_match(alo, ahi, blo, bhi);
            if m.size > 0 {
                blocks.push(m);
                if alo < m.a && blo < m.b {
                    queue.push((alo, m.a, blo, m.b));
                }
                if m.a + m.size < ahi && m.b + m.size < bhi {
                    queue.push((m.a + m.size, ahi, m.b + m.size, bhi));
                }
            }
        }
        blocks.sort_unstable();
        let mut merged: Vec<Match> = Vec::with_capacity(blocks.len() + 1);
        let mut cur = Match {
            a: 0,
            b: 0,
            size: 0,
        };
        for m in blocks {
            if cur.a + cur.size == m.a && cur.b + cur.size == m.b {
                cur.size += m.size;
            } else {
                if cur.size > 0 {
                    merged.push(cur);
                }
                cur = m;
            }
        }
        if cur.size > 0 {
            merged.push(cur);
        }
        merged.push(Match {
            a: la,
            b: lb,
            size: 0,
        });
        merged
    }

    /// M and T of the ratio: the matched characters and `len(a) + len(b)`.
    pub fn matched_total(&self) -> (usize, usize) {
        let m = self.get_matching_blocks().iter().map(|m| m.size).sum();
        (m, self.a.len() + self.b.len())
    }

    /// Python's `ratio()`: 2M/T, 1.0 when both texts are empty.
    pub fn ratio(&self) -> f64 {
        let (m, t) = self.matched_total();
        ratio_of(m, t)
    }
}

/// 2M/T as Python computes it (`2.0 * matches / length`), 1.0 when T = 0.
pub fn ratio_of(matched: usize, total: usize) -> f64 {
    if total == 0 {
        1.0
    } else {
        2.0 * matched as f64 / total as f64
    }
}

/// `difflib.SequenceMatcher(None, a, b).ratio()` at Python's defaults
/// (autojunk on).
pub fn ratio(a: &str, b: &str) -> f64 {
    ratio_with(a, b, true)
}

/// [`ratio`] with the autojunk heuristic chosen.
pub fn ratio_with(a: &str, b: &str, autojunk: bool) -> f64 {
    SequenceMatcher::new(a, b, autojunk).ratio()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: f64 = 1e-12;

    #[test]
    fn addendum_vectors() {
        assert!((ratio("inspect(3)", "inspect(4)") - 0.9).abs() < TOL);
        assert!((ratio("print(table)", "print(tables)") - 24.0 / 25.0).abs() < TOL);
        assert!((ratio("aba", "babba") - 0.75).abs() < TOL);
        assert!((ratio("babba", "aba") - 0.5).abs() < TOL);
    }

    #[test]
    fn autojunk_vector() {
        let a = "x = 1\n".repeat(40) + "finish()";
        let b = "x = 2\n".repeat(40) + "finish()";
        assert_eq!(a.chars().count(), 248);
        // With autojunk every character of "x = 2\n" is popular in b (41 or
        // more > 248/100 + 1 = 3). The longest match of the rest is
        // "finish()" (8), extended back over the popular "\n" (9); left of
        // it nothing is found, and the empty match at (0, 0) extends over
        // "x = " (4): M = 13 of T = 496, as Python's blocks (0, 0, 4),
        // (239, 239, 9).
        let sm = SequenceMatcher::new(&a, &b, true);
        assert_eq!(sm.matched_total(), (13, 496));
        assert!((ratio(&a, &b) - 13.0 / 248.0).abs() < TOL);
        assert!((ratio(&a, &b) - 0.0524).abs() < 1e-4);
        // Without: 40 × "x = " + "\n" (5 each) + "finish()" = 208 of 248.
        let sm = SequenceMatcher::new(&a, &b, false);
        assert_eq!(sm.matched_total(), (208, 496));
        assert!((ratio_with(&a, &b, false) - 0.8387).abs() < 1e-4);
    }

    #[test]
    fn empty_and_sentinel() {
        assert_eq!(ratio("", ""), 1.0);
        assert_eq!(ratio("", "abc"), 0.0);
        let blocks = SequenceMatcher::new("abxcd", "abcd", true).get_matching_blocks();
        assert_eq!(
            blocks,
            vec![
                Match {
                    a: 0,
                    b: 0,
                    size: 2
                },
                Match {
                    a: 3,
                    b: 2,
                    size: 2
                },
                Match {
                    a: 5,
                    b: 4,
                    size: 0
                },
            ]
        );
    }

    #[test]
    fn code_points_not_bytes() {
        // "é" and "中" are one element each, as in Python.
        assert!((ratio("é中", "é") - 2.0 / 3.0).abs() < TOL);
    }
}
