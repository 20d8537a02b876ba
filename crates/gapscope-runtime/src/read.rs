//! Reading the episode log (spec: runtime-contracts.md, "Episode log"): JSONL,
//! one episode a line, read line by line with located errors. A malformed
//! line is reported (line, field path, what was expected) and skipped; the
//! rest is still read, so the reader sees how many were skipped. Opaque
//! Knapsack instances are checked for exact numbers at their line.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_data::trajectory::LineError;

use crate::log::Episode;

/// What a JSONL log gave: the episodes read (with their line numbers) and the
/// lines skipped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EpisodeLog {
    pub episodes: Vec<Episode>,
    /// `lines[i]` is the line of `episodes[i]`.
    pub lines: Vec<u64>,
    pub skipped: Vec<LineError>,
}

/// Semantic checks serde cannot express, with the field named.
fn check(e: &Episode) -> Result<(), String> {
    if e.cap == 0 {
        return Err("field `cap`: expected a per-turn cap of at least 1, got 0".into());
    }
    if !e.score.is_finite() {
        return Err(format!(
            "field `score`: expected a finite number, got {}",
            e.score
        ));
    }
    if e.task_family == crate::knapsack::FAMILY {
        if let Some(inst) = &e.instance {
            check_exact_numbers(inst)?;
        }
    }
    check_addendum_fields(e)?;
    for (k, w) in e.turns.windows(2).enumerate() {
        if w[1].index <= w[0].index {
            return Err(format!(
                "field `turns[{}].index`: expected turn indices in increasing order, got {} after {}",
                k + 1,
                w[1].index,
                w[0].index
            ));
        }
    }
    Ok(())
}

/// The optional fields of the addendum (§0): a bad value is a located error.
fn check_addendum_fields(e: &Episode) -> Result<(), String> {
    if let Some(k) = &e.intervention {
        let mut chars = k.chars();
        let ok = chars.next().is_some_and(|c| c.is_ascii_lowercase())
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !ok || k == "none" {
            return Err(format!(
                "field `intervention`: expected a name matching [a-z][a-z0-9_]* other than `none` (leave the field out for no intervention), got `{k}`"
            ));
        }
    }
    if e.turn_limit == Some(0) {
        return Err(
            "field `turn_limit`: expected the model calls allowed, at least 1, got 0".into(),
        );
    }
    if let Some(w) = e.wall_clock_limit_s {
        if !(w.is_finite() && w > 0.0) {
            return Err(format!(
                "field `wall_clock_limit_s`: expected a number of seconds > 0, got {w}"
            ));
        }
    }
    for (key, v) in [
        ("context_window", e.context_window),
        ("output_reservation", e.output_reservation),
    ] {
        if v == Some(0) {
            return Err(format!(
                "field `{key}`: expected a number of tokens, at least 1, got 0"
            ));
        }
    }
    if let Some(parts) = &e.score_components {
        if let Some((k, v)) = parts.iter().find(|(_, v)| !v.is_finite()) {
            return Err(format!(
                "field `score_components.{k}`: expected a finite number, got {v}"
            ));
        }
    }
    for (k, t) in e.turns.iter().enumerate() {
        if t.logged {
            if let Some(f) = t.failure {
                return Err(format!(
                    "field `turns[{k}].failure`: `{}` is only for a turn without a usable completion (`logged: false`), but this turn is logged",
                    serde_json::to_value(f)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                ));
            }
        }
    }
    Ok(())
}

/// An Opaque Knapsack instance's numbers within exact range: `capacity`,
/// `budget` and item weights ≤ 2^53, item values ≤ 2^53 in magnitude (beyond
/// that sums lose units, and weights past u64 wrapped to a small sum that
/// hid a capacity breach). Other shapes are left to the verifier's messages.
fn check_exact_numbers(inst: &serde_json::Value) -> Result<(), String> {
    use crate::knapsack::MAX_EXACT;
    let limit = MAX_EXACT as f64;
    let over = |v: &serde_json::Value| {
        v.as_u64().map_or_else(
            || v.as_f64().is_some_and(|x| x.abs() > limit),
            |u| u > MAX_EXACT,
        )
    };
    for key in ["capacity", "budget"] {
        if let Some(v) = inst.get(key).filter(|v| over(v)) {
            return Err(format!(
                "field `instance.{key}`: {v} exceeds {MAX_EXACT} (2^53, the largest integer a JSON number holds exactly)"
            ));
        }
    }
    let items = inst.get("items").and_then(serde_json::Value::as_array);
    for (i, it) in items.into_iter().flatten().enumerate() {
        if let Some(v) = it.get("weight").filter(|v| over(v)) {
            return Err(format!(
                "field `instance.items[{i}].weight`: {v} exceeds {MAX_EXACT} (2^53, the largest integer a JSON number holds exactly)"
            ));
        }
        if let Some(v) = it.get("value").filter(|v| over(v)) {
            return Err(format!(
                "field `instance.items[{i}].value`: {v} exceeds {MAX_EXACT} (2^53) in magnitude; values must be sums of exact numbers"
            ));
        }
    }
    Ok(())
}

/// Parse one line into an episode; the error names the field path.
pub fn parse_line(raw: &str) -> Result<Episode, String> {
    // The plain parser first (path tracking costs about as much as the
    // parse itself); a line it refuses is parsed again with the path
    // tracked, for the located message.
    if let Ok(e) = serde_json::from_str::<Episode>(raw) {
        check(&e)?;
        return Ok(e);
    }
    let mut de = serde_json::Deserializer::from_str(raw);
    let e: Episode = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = gapscope_data::profile::json_message(&inner);
        if path == "." || path == "?" || path.is_empty() {
            format!("column {}: {message}", inner.column())
        } else {
            format!("field `{path}`: {message}")
        }
    })?;
    de.end().map_err(|err| {
        format!(
            "column {}: {}",
            err.column(),
            gapscope_data::profile::json_message(&err)
        )
    })?;
    check(&e)?;
    Ok(e)
}

/// At most this many distinct `instance`s are shared under one id (more is
/// a log in conflict with itself, flagged by the verifier; sharing them
/// would cost a comparison with each).
const SHARED_PER_ID: usize = 4;

/// Equal `instance`s under one id given one copy. A log repeats each
/// instance once per condition, cap and seed, and parsed JSON is several
/// times its text: a 100,000-episode log of 6,250 instances held 100,000
/// parsed copies (about half of its 5.5 GB). A parse's copy is compared with
/// those kept and dropped when equal, so only distinct ones stay.
#[derive(Default)]
struct SharedInstances {
    kept: HashMap<String, Vec<Arc<serde_json::Value>>>,
}

impl SharedInstances {
    /// [`parse_line`], the episode's instance shared.
    fn parse(&mut self, raw: &str) -> Result<Episode, String> {
        let mut e = parse_line(raw)?;
        if let Some(inst) = e.instance.as_mut() {
            match self.kept.get_mut(&e.instance_id) {
                Some(list) => {
                    if let Some(same) = list.iter().find(|k| **k == *inst) {
                        *inst = Arc::clone(same);
                    } else if list.len() < SHARED_PER_ID {
                        list.push(Arc::clone(inst));
                    }
                }
                None => {
                    self.kept
                        .insert(e.instance_id.clone(), vec![Arc::clone(inst)]);
                }
            }
        }
        Ok(e)
    }
}

/// Logs of fewer lines are parsed in this thread.
const PARALLEL_FROM: usize = 2_000;

/// [`parse_line`] of every line, in order. Natively a long log is parsed
/// on the machine's threads (contiguous ranges of lines, at most 8); each
/// line's result depends on that line alone, so the log reads the same
/// either way. On wasm32 (a worker: one thread) always in this thread.
fn parse_all(lines: &[(u64, &str)]) -> Vec<Result<Episode, String>> {
    let threads = if cfg!(target_arch = "wasm32") || lines.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    };
    if threads <= 1 {
        let mut shared = SharedInstances::default();
        return lines.iter().map(|(_, raw)| shared.parse(raw)).collect();
    }
    let per = lines.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let parts: Vec<_> = lines
            .chunks(per)
            .map(|part| {
                scope.spawn(move || {
                    let mut shared = SharedInstances::default();
                    part.iter()
                        .map(|(_, raw)| shared.parse(raw))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|h| {
                // A parse never panics (serde reports errors); a panic in a
                // thread is a bug and is re-raised here.
                h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
            })
            .collect()
    })
}

/// Read an episode log (blank lines are skipped silently; malformed lines
/// and repeated `episode_id`s are reported and skipped).
pub fn read_jsonl(text: &str) -> EpisodeLog {
    let mut log = EpisodeLog::default();
    let mut seen: IndexMap<String, u64> = IndexMap::new();
    let lines: Vec<(u64, &str)> = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .filter(|(_, raw)| !raw.trim().is_empty())
        .map(|(i, raw)| (i as u64 + 1, raw))
        .collect();
    for ((line, _), parsed) in lines.iter().zip(parse_all(&lines)) {
        let line = *line;
        match parsed {
            Ok(e) => {
                if let Some(first) = seen.get(&e.episode_id) {
                    log.skipped.push(LineError {
                        line,
                        message: format!(
                            "episode_id `{}` already used on line {first}",
                            e.episode_id
                        ),
                    });
                    continue;
                }
                seen.insert(e.episode_id.clone(), line);
                log.episodes.push(e);
                log.lines.push(line);
            }
            Err(message) => log.skipped.push(LineError { line, message }),
        }
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::*;

    const GOOD: &str = r#"{"episode_id":"e1","task_family":"opaque_knapsack","instance_id":7,"train_runtime":"P","deploy_runtime":"S","cap":25,"seed":0,"rollout":0,"base_model":"m","score":0.5,"termination":"finish","turns":[{"index":0,"logged":true,"code":"x","calls":[{"tool":"list_items","ok":true}],"tokens_in":10,"tokens_out":2}]}"#;

    #[test]
    fn reads_a_good_line_and_locates_errors() {
        let bad_runtime = GOOD.replace(r#""deploy_runtime":"S""#, r#""deploy_runtime":"Q""#);
        let bad_ok = GOOD.replace(r#""ok":true"#, r#""ok":"yes""#);
        let no_cap = GOOD.replace(r#""cap":25,"#, "");
        let zero_cap = GOOD.replace(r#""cap":25"#, r#""cap":0"#);
        let text = [
            GOOD,
            "",
            &bad_runtime,
            &bad_ok,
            &no_cap,
            &zero_cap,
            GOOD,
            "{not json",
        ]
        .join("\n");
        let log = read_jsonl(&text);
        assert_eq!(log.episodes.len(), 1);
        assert_eq!(log.lines, [1]);
        assert_eq!(
            log.episodes[0].instance_id, "7",
            "an integer id is read as text"
        );
        assert_eq!(log.episodes[0].condition(), Condition::PS);
        let msgs: Vec<String> = log
            .skipped
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        assert_eq!(
            msgs[0],
            "line 3: field `deploy_runtime`: unknown variant `Q`, expected `P` or `S`"
        );
        assert_eq!(
            msgs[1],
            "line 4: field `turns[0].calls[0].ok`: invalid type: string \"yes\", expected a boolean"
        );
        assert!(
            msgs[2].starts_with("line 5: ") && msgs[2].contains("missing field `cap`"),
            "{}",
            msgs[2]
        );
        assert_eq!(
            msgs[3],
            "line 6: field `cap`: expected a per-turn cap of at least 1, got 0"
        );
        assert_eq!(msgs[4], "line 7: episode_id `e1` already used on line 1");
        assert!(msgs[5].starts_with("line 8: column 2: "), "{}", msgs[5]);
        assert_eq!(log.skipped.len(), 6);
    }

    #[test]
    fn written_episodes_read_back() {
        let log = read_jsonl(GOOD);
        let text = write_jsonl(&log.episodes).unwrap();
        assert_eq!(read_jsonl(&text).episodes, log.episodes);
    }

    #[test]
    fn item_ids_from_arguments() {
        use serde_json::json;
        assert_eq!(call_item_id(&json!("a")), Some("a".into()));
        assert_eq!(call_item_id(&json!([3])), Some("3".into()));
        assert_eq!(call_item_id(&json!({"id": "b", "x": 1})), Some("b".into()));
        assert_eq!(call_item_id(&json!({"item": "c"})), Some("c".into()));
        assert_eq!(call_item_id(&json!({"a": 1, "b": 2})), None);
        assert_eq!(call_item_id(&json!(null)), None);
    }

    #[test]
    fn a_long_log_reads_the_same_on_threads_as_in_one() {
        // 3 × PARALLEL_FROM lines with blank lines, a bad line and repeated
        // ids spread over the ranges the threads take.
        let mut text = String::new();
        for k in 0..3 * PARALLEL_FROM {
            match k % 997 {
                0 => text.push('\n'),
                1 => text.push_str("{\"episode_id\": 3}\n"),
                _ => {
                    let id = if k % 1999 == 5 { 0 } else { k };
                    text.push_str(&GOOD.replacen("\"e1\"", &format!("\"e{id}\""), 1));
                    text.push('\n');
                }
            }
        }
        let log = read_jsonl(&text);
        let mut want = EpisodeLog::default();
        let mut seen = std::collections::HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i as u64 + 1;
            if raw.trim().is_empty() {
                continue;
            }
            match parse_line(raw) {
                Ok(e) if seen.contains_key(&e.episode_id) => want.skipped.push(LineError {
                    line,
                    message: format!(
                        "episode_id `{}` already used on line {}",
                        e.episode_id, seen[&e.episode_id]
                    ),
                }),
                Ok(e) => {
                    seen.insert(e.episode_id.clone(), line);
                    want.episodes.push(e);
                    want.lines.push(line);
                }
                Err(message) => want.skipped.push(LineError { line, message }),
            }
        }
        assert!(want.skipped.len() >= 8, "{}", want.skipped.len());
        assert_eq!(log.lines, want.lines);
        assert_eq!(log.skipped, want.skipped);
        assert_eq!(log.episodes, want.episodes);
    }
    #[test]
    fn equal_instances_under_one_id_share_one_copy() {
        let line = |ep: &str, id: &str, cap: u32| {
            GOOD.replacen("\"e1\"", &format!("\"{ep}\""), 1)
                .replacen("\"instance_id\":7", &format!("\"instance_id\":\"{id}\""), 1)
                .replacen(
                    "\"termination\":\"finish\"",
                    &format!(
                        "\"termination\":\"finish\",\"instance\":{{\"capacity\":{cap},\"budget\":3,\"items\":[{{\"id\":\"a\",\"class\":\"A\",\"value\":1,\"weight\":2}}]}}"
                    ),
                    1,
                )
        };
        // k0 twice with capacity 5, then a conflicting k0 (capacity 6), k1
        // with k0's first instance, then past the per-id limit.
        let mut lines = vec![
            line("a", "k0", 5),
            line("b", "k0", 5),
            line("c", "k0", 6),
            line("d", "k1", 5),
        ];
        for cap in 7..7 + SHARED_PER_ID as u32 {
            lines.push(line(&format!("x{cap}"), "k0", cap));
        }
        let last = 6 + SHARED_PER_ID as u32;
        lines.push(line("z", "k0", 6));
        lines.push(line("y", "k0", last));
        let log = read_jsonl(&lines.join("\n"));
        assert!(log.skipped.is_empty(), "{:?}", log.skipped);
        let inst: Vec<&Arc<serde_json::Value>> = log
            .episodes
            .iter()
            .map(|e| e.instance.as_ref().expect("each line has an instance"))
            .collect();
        // Each episode keeps its own line's instance, shared or not.
        for (e, raw) in log.episodes.iter().zip(&lines) {
            assert_eq!(e, &parse_line(raw).expect("a good line"));
        }
        assert!(Arc::ptr_eq(inst[0], inst[1]), "equal under one id");
        assert!(!Arc::ptr_eq(inst[0], inst[2]), "different under one id");
        assert!(!Arc::ptr_eq(inst[0], inst[3]), "equal under another id");
        // k0 keeps SHARED_PER_ID copies (capacities 5, 6, 7, 8): a later
        // line with capacity 6 shares the second; past the limit (the last
        // x line and y, capacity 6 + SHARED_PER_ID) none is kept.
        let n = inst.len();
        assert!(Arc::ptr_eq(inst[2], inst[n - 2]), "a kept second instance");
        assert_eq!(inst[n - 1], inst[n - 3]);
        assert!(!Arc::ptr_eq(inst[n - 1], inst[n - 3]), "past the limit");
    }
}
