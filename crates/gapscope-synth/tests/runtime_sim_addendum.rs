//! The simulator's `addendum` preset: deterministic, readable back without a
//! skipped line, and containing every view of the addendum (interventions,
//! batches, horizons, seeds, control families, failed-call classes, teacher
//! traces failing each SFT rule), checked on the log itself, independently of
//! any analysis code. The default preset stays byte-identical (the committed
//! log, `tests/runtime_sim.rs`, and its SHA-256 below).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use gapscope_runtime::{read_jsonl, write_jsonl, Condition, Episode, Failure, Runtime};
use gapscope_synth::runtime_sim::{simulate, SimParams};
use gapscope_synth::runtime_sim_addendum::{
    simulate_addendum, AddendumParams, ADDENDUM_LABEL, NAVIGATION, RULE_DIAGNOSIS, TEACHER_LABEL,
};

fn log() -> (String, Vec<Episode>) {
    let episodes = simulate_addendum(&AddendumParams::default()).unwrap();
    (write_jsonl(&episodes).unwrap(), episodes)
}

#[test]
fn the_preset_is_deterministic_and_reads_back_whole() {
    let (a, episodes) = log();
    let (b, _) = log();
    assert_eq!(a, b, "same parameters, same bytes");
    let other = simulate_addendum(&AddendumParams {
        seeds: vec![7, 8],
        ..AddendumParams::default()
    })
    .unwrap();
    assert_ne!(write_jsonl(&other).unwrap(), a, "the seeds must matter");
    let read = read_jsonl(&a);
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    assert_eq!(read.episodes.len(), episodes.len());
    assert_eq!(read.episodes, episodes);
    for e in &episodes {
        assert!(
            e.base_model.contains("not a language model")
                || e.base_model.contains("not language models"),
            "{}",
            e.base_model
        );
        assert!(e.turn_limit.is_some() && e.wall_clock_limit_s.is_some());
        assert!(e.context_window.is_some() && e.output_reservation.is_some());
        for t in &e.turns {
            if let (Some(i), Some(w), Some(r)) =
                (t.tokens_in, e.context_window, e.output_reservation)
            {
                assert!(
                    i + r <= w,
                    "{}: a logged turn over the window",
                    e.episode_id
                );
            }
            assert!(t.logged || (t.code.is_none() && t.calls.is_empty()));
            assert!(!t.logged || t.failure.is_none());
        }
    }
    let ids: BTreeSet<&str> = episodes.iter().map(|e| e.episode_id.as_str()).collect();
    assert_eq!(ids.len(), episodes.len(), "episode ids are unique");
}

fn knapsack_policy(episodes: &[Episode]) -> Vec<&Episode> {
    episodes
        .iter()
        .filter(|e| e.task_family == "opaque_knapsack" && e.base_model == ADDENDUM_LABEL)
        .collect()
}

#[test]
fn conditions_batches_horizons_and_seeds() {
    let (_, episodes) = log();
    let ks = knapsack_policy(&episodes);
    let arms: BTreeSet<(String, String)> = ks
        .iter()
        .map(|e| (e.arm().label(), e.batch.clone().unwrap()))
        .collect();
    for batch in ["1", "2"] {
        for c in Condition::ALL {
            assert!(arms.contains(&(c.label().to_string(), batch.to_string())));
        }
        assert!(arms.contains(&("P->S+carry".to_string(), batch.to_string())));
    }
    assert!(arms.contains(&("P->S+carry_announced".to_string(), "1".to_string())));
    let horizons: BTreeSet<(u32, u64)> = ks
        .iter()
        .map(|e| (e.turn_limit.unwrap(), e.wall_clock_limit_s.unwrap() as u64))
        .collect();
    assert_eq!(horizons, BTreeSet::from([(24, 2000), (48, 4000)]));
    let seeds: BTreeSet<u64> = ks.iter().map(|e| e.seed).collect();
    assert_eq!(seeds, BTreeSet::from([0, 1]));
    // The same caps and ids under every seed.
    for s in [0, 1] {
        let caps: BTreeSet<u32> = ks.iter().filter(|e| e.seed == s).map(|e| e.cap).collect();
        assert_eq!(caps, BTreeSet::from([5, 60]));
        let ids: BTreeSet<&str> = ks
            .iter()
            .filter(|e| e.seed == s)
            .map(|e| e.instance_id.as_str())
            .collect();
        assert_eq!(ids.len(), 4);
    }
    // The same instances too (a replication re-runs the same tasks): one
    // instance per family and id over seeds, horizons, caps and arms.
    let (_, all) = log();
    let mut kept: std::collections::BTreeMap<(&str, &str), &serde_json::Value> =
        std::collections::BTreeMap::new();
    let mut with_instance = 0;
    for e in &all {
        if let Some(inst) = &e.instance {
            with_instance += 1;
            let first = kept.entry((&e.task_family, &e.instance_id)).or_insert(inst);
            assert_eq!(*first, &**inst, "{}: instance differs", e.episode_id);
        }
    }
    assert!(
        with_instance > 300 && kept.len() < 30,
        "{with_instance} {}",
        kept.len()
    );
    // Carried turns: only under carry, none with a NameError.
    let carried: Vec<_> = ks
        .iter()
        .flat_map(|e| e.turns.iter().map(move |t| (e, t)))
        .filter(|(_, t)| t.carried_in)
        .collect();
    assert!(carried.len() > 10);
    for (e, t) in &carried {
        assert!(e.intervention.is_some() && e.deploy_runtime == Runtime::S);
        assert!(!t.error.as_deref().unwrap_or("").contains("NameError"));
    }
    // Announced carry repairs P->S at the tight cap; plain P->S does not.
    let mean = |arm: &str, cap: u32| {
        let v: Vec<f64> = ks
            .iter()
            .filter(|e| e.arm().label() == arm && e.cap == cap)
            .map(|e| e.score)
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    assert!(mean("P->S+carry_announced", 5) > mean("P->S", 5) + 0.3);
}

#[test]
fn failed_calls_of_every_class() {
    let (_, episodes) = log();
    let mut classes = [0usize; 4];
    for t in episodes.iter().flat_map(|e| &e.turns).filter(|t| !t.logged) {
        classes[match t.failure {
            Some(Failure::CallError) => 0,
            Some(Failure::ContextOverflow) => 1,
            Some(Failure::Rejected) => 2,
            None => 3,
        }] += 1;
    }
    assert!(classes.iter().all(|&n| n > 0), "{classes:?}");
    // Overflow comes late, under stateless deployment, at both horizons.
    for tl in [24, 48] {
        assert!(knapsack_policy(&episodes)
            .iter()
            .any(|e| e.turn_limit == Some(tl)
                && e.deploy_runtime == Runtime::S
                && e.turns
                    .iter()
                    .any(|t| t.failure == Some(Failure::ContextOverflow))));
    }
}

#[test]
fn control_families() {
    let (_, episodes) = log();
    let nav: Vec<&Episode> = episodes
        .iter()
        .filter(|e| e.task_family == NAVIGATION)
        .collect();
    assert!(!nav.is_empty());
    assert!(nav.iter().any(|e| e.generator_warning.is_some()));
    assert!(nav.iter().any(|e| e.generator_warning.is_none()));
    for e in &nav {
        assert!((0.0..=1.0).contains(&e.score));
        assert!(e.instance.is_some());
        let sc = e.score_components.as_ref().unwrap();
        assert!(sc.contains_key("progress") && sc.contains_key("phase"));
        for c in e.turns.iter().flat_map(|t| &t.calls) {
            assert!(["neighbors", "move", "finish"].contains(&c.tool.as_str()));
        }
    }
    assert!(nav.iter().any(|e| e
        .turns
        .iter()
        .flat_map(|t| &t.calls)
        .any(|c| c.tool == "neighbors")));
    let rule: Vec<&Episode> = episodes
        .iter()
        .filter(|e| e.task_family == RULE_DIAGNOSIS)
        .collect();
    assert!(!rule.is_empty());
    for e in &rule {
        assert!(e.instance.is_some() && e.score_components.is_some());
        for c in e.turns.iter().flat_map(|t| &t.calls) {
            assert!(["check", "submit"].contains(&c.tool.as_str()));
        }
    }
    // Both control families under both seeds.
    for f in [NAVIGATION, RULE_DIAGNOSIS] {
        let seeds: BTreeSet<u64> = episodes
            .iter()
            .filter(|e| e.task_family == f)
            .map(|e| e.seed)
            .collect();
        assert_eq!(seeds, BTreeSet::from([0, 1]));
    }
}

/// The SFT rules, written here from the addendum's words (R3 by exact
/// repeats only, a sufficient case of its similarity test).
fn fails(e: &Episode) -> [bool; 4] {
    let steps: Vec<_> = e.turns.iter().filter(|t| t.logged).collect();
    let n = steps.len();
    let r1 = e.score < 0.5;
    let r2 = !steps[n.saturating_sub(3)..]
        .iter()
        .any(|t| t.calls.iter().any(|c| c.tool == "finish" && c.ok));
    let text = |t: &gapscope_runtime::Turn| t.completion.clone().or(t.code.clone()).unwrap();
    let r3 = (0..n).any(|j| (j.saturating_sub(4)..j).any(|k| text(steps[k]) == text(steps[j])));
    let bad = steps
        .iter()
        .filter(|t| {
            let Some(err) = t.error.as_deref().filter(|s| !s.is_empty()) else {
                return false;
            };
            let excused = err.contains("Tool call limit exceeded")
                || t.calls
                    .iter()
                    .filter(|c| !c.ok)
                    .filter_map(|c| c.error.as_deref())
                    .any(|ce| err.contains(ce));
            !excused
        })
        .count();
    let r4 = n == 0 || bad as f64 / n as f64 > 0.1;
    [r1, r2, r3, r4]
}

#[test]
fn teacher_traces_fail_each_rule_under_both_runtimes() {
    let (_, episodes) = log();
    let teacher: Vec<&Episode> = episodes
        .iter()
        .filter(|e| e.base_model == TEACHER_LABEL)
        .collect();
    assert!(!teacher.is_empty());
    for runtime in [Runtime::P, Runtime::S] {
        let traces: Vec<&&Episode> = teacher
            .iter()
            .filter(|e| e.train_runtime == runtime)
            .collect();
        assert!(traces.iter().all(|e| e.deploy_runtime == runtime));
        assert!(traces.iter().all(|e| e
            .turns
            .iter()
            .filter(|t| t.logged)
            .all(|t| t.completion.is_some())));
        let f: Vec<[bool; 4]> = traces.iter().map(|e| fails(e)).collect();
        for rule in 0..4 {
            assert!(
                f.iter().any(|x| x[rule]),
                "{runtime:?}: no trace fails R{}",
                rule + 1
            );
            assert!(
                f.iter()
                    .any(|x| x[rule] && x.iter().filter(|&&b| b).count() == 1),
                "{runtime:?}: no trace fails R{} alone",
                rule + 1
            );
        }
        assert!(
            f.iter().any(|x| x.iter().all(|&b| !b)),
            "{runtime:?}: no valid trace"
        );
    }
    // Dual-valid pairs: ids valid under both runtimes.
    let valid = |id: &str, r: Runtime| {
        teacher
            .iter()
            .any(|e| e.instance_id == id && e.train_runtime == r && fails(e).iter().all(|&b| !b))
    };
    let ids: BTreeSet<&str> = teacher.iter().map(|e| e.instance_id.as_str()).collect();
    assert!(ids
        .iter()
        .any(|id| valid(id, Runtime::P) && valid(id, Runtime::S)));
    for id in &ids {
        assert_eq!(teacher.iter().filter(|e| e.instance_id == *id).count(), 2);
    }
}

#[test]
fn parameters_are_validated() {
    for bad in [
        AddendumParams {
            seeds: vec![],
            ..AddendumParams::default()
        },
        AddendumParams {
            caps: vec![0],
            ..AddendumParams::default()
        },
        AddendumParams {
            horizons: vec![(0, 10.0)],
            ..AddendumParams::default()
        },
        AddendumParams {
            output_reservation: 5000,
            ..AddendumParams::default()
        },
        AddendumParams {
            rejected_share: 0.7,
            unclassified_share: 0.7,
            ..AddendumParams::default()
        },
    ] {
        assert!(simulate_addendum(&bad).is_err());
    }
}

/// The default preset's bytes, pinned (besides the committed log in
/// `tests/runtime_sim.rs`): the addendum preset must not move them.
#[test]
fn the_default_preset_is_unchanged() {
    let text = write_jsonl(&simulate(&SimParams::default()).unwrap()).unwrap();
    assert_eq!(text.len(), 1_198_864);
    assert_eq!(
        sha256_hex(text.as_bytes()),
        "13c39de291e406d2f801b61b785c8e7a9cd7bb34abf7151d8ee0fba3eced47ae"
    );
}

/// SHA-256 (FIPS 180-4), enough for a pin without a dependency.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes(chunk[4 * i..4 * i + 4].try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for (a, b) in h.iter_mut().zip(v) {
            *a = a.wrapping_add(b);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_matches_the_standard_vector() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}
