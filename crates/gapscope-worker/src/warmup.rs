//! Warming an idle worker: the import path run once on embedded and
//! synthetic files, so that the browser has compiled and optimized it
//! before the user's first files arrive.

use crate::assets::{corpus_trajectories, CORPUS_FOUNDATIONAL};
use crate::attached::read_ahead;
use crate::codec::{encode_message, ReadPlan};
use crate::jobs::gaps;
use crate::protocol::{FromWorker, Job, Request, Source};
use gapscope_data::ingest::Messages;

/// A synthetic τ²-bench results text (`simulations` of the shape τ²-bench
/// writes: tool calls, tool results, action checks) for [`warm_up`].
#[must_use]
pub fn warm_up_tau2(simulations: usize) -> String {
    // Message contents as long as real ones (a real file is mostly long
    // strings, skipped by the light read: that loop must be warm too).
    let long = "I would like to check \"my\" order,\nplease — the one from last week. ".repeat(20);
    let sims: Vec<serde_json::Value> = (0..simulations)
        .map(|i| {
            serde_json::json!({
                "id": format!("warm-{i}"),
                "task_id": format!("{}", i % 17),
                "trial": 0,
                "termination_reason": "user_stop",
                "reward_info": {
                    "reward": if i % 2 == 1 { 1.0 } else { 0.0 },
                    "action_checks": [{
                        "action": {"action_id": "a", "name": "get_order", "arguments": {"order_id": format!("#W{i}")}},
                        "action_match": i % 3 != 0,
                        "action_reward": 1.0,
                        "tool_type": "read"
                    }]
                },
                "messages": [
                    {"role": "user", "content": long, "turn_idx": 0},
                    {"role": "assistant", "content": null, "tool_calls": [
                        {"id": format!("call_{i}"), "name": "get_order", "arguments": {"order_id": format!("#W{i}")}, "requestor": "assistant"}
                    ], "turn_idx": 1},
                    {"role": "tool", "id": format!("call_{i}"), "content": "{\"order_id\": \"#W1\", \"items\": [1, 2.5, -3e2], \"ok\": true}", "requestor": "assistant", "error": false, "turn_idx": 2},
                    {"role": "assistant", "content": format!("Your order is on its way — anything else? {long}"), "turn_idx": 3}
                ]
            })
        })
        .collect();
    serde_json::json!({
        "info": {"agent_info": {"implementation": "warm-up", "llm": "warm-up"}},
        "tasks": [],
        "simulations": sims,
    })
    .to_string()
}

/// Simulations in the warm-up's τ²-bench file (2.9 MB; ~40 ms natively).
const WARM_UP_SIMULATIONS: usize = 800;

/// Run the import path once on embedded and synthetic files (the corpus's
/// JSONL and profile, a synthetic τ²-bench file), answers discarded. A
/// browser compiles wasm lazily and optimizes a function only once it has
/// run a while: an idle worker that has done this imports the user's first
/// files about a third faster (`scripts/bench-browser.mjs`).
pub fn warm_up() {
    let files = [
        ("foundational.csv", CORPUS_FOUNDATIONAL.as_bytes().to_vec()),
        (
            "trajectories.jsonl",
            corpus_trajectories().as_bytes().to_vec(),
        ),
        (
            "results.json",
            warm_up_tau2(WARM_UP_SIMULATIONS).into_bytes(),
        ),
    ];
    let request = Request {
        bootstrap: 20,
        ..Request::new(Source::attached(
            files.iter().map(|(n, _)| n.to_string()).collect(),
        ))
    };
    // Read ahead, as the browser reads fetched files (nothing hashed).
    let plan = ReadPlan {
        options: request.trajectories.clone(),
        messages: Messages::Counts,
        folders: Vec::new(),
    };
    let files = files
        .into_iter()
        .map(|(n, b)| read_ahead(n.to_string(), b, &plan))
        .collect();
    // The gaps part's own `run` (not `run_job`): the gaps worker links no
    // other part's jobs.
    let answer = gaps::run(&Job::Import(request), files, &mut |_| {});
    // Encoded as an answer would be, then dropped.
    drop(encode_message(&FromWorker::Done { id: 0, answer }));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The warm-up's synthetic τ²-bench file goes the τ²-bench path (light,
    /// contents skipped) and gives trajectories with gold actions; the
    /// warm-up itself runs.
    #[test]
    fn the_warm_up_exercises_the_tau2_and_jsonl_readers() {
        use gapscope_data::formats::{detect, read_any_bytes, ReadOptions, TrajectoryFormat};
        let text = warm_up_tau2(30);
        assert_eq!(detect(&text), Some(TrajectoryFormat::Tau2));
        let light = ReadOptions {
            light: true,
            ..ReadOptions::default()
        };
        let c = read_any_bytes("results.json", text.as_bytes(), &light).unwrap();
        assert_eq!(c.trajectories.len(), 30);
        assert!(c.trajectories.iter().all(|t| t.gold_actions.len() == 1
            && t.message_stats().messages == 4
            && t.message_stats().tool_calls == 1));
        assert_eq!(
            c.trajectories
                .iter()
                .filter(|t| t.gold_actions[0].matched)
                .count(),
            30,
            "every recorded call matches its gold action"
        );
        warm_up();
    }
}
