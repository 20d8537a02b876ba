//! The teaching simulator's `addendum` preset: **scripted policies, not
//! language models**, writing one episode log that exercises every view of
//! the runtime-contracts addendum without user data.
//!
//! What it contains (defaults in braces):
//! - **Opaque Knapsack, open condition set (§1).** Per seed {0, 1}, horizon
//!   {T_max 24 / 2000 s, 48 / 4000 s}, cap {5, 60} and instance {4}: batch 1
//!   runs the 2×2 plus `P->S+carry` and `P->S+carry_announced`; batch 2 runs
//!   the 2×2 plus `P->S+carry` again (Table 18's "Carry (re-run)"). Under
//!   `carry` the P-trained policy's bindings survive a cap cut under S into
//!   the next executed block (`carried_in: true`, no NameError there); under
//!   `carry_announced` it is also told, so after a cut it continues and
//!   decides in the carried block and never rebuilds (re-lists) after a cut.
//! - **Horizon and failures (§2).** Every episode carries `turn_limit`,
//!   `wall_clock_limit_s`, `context_window` {4096} and `output_reservation`
//!   {820} (the paper's 40960/8192 ratio, scaled to the simulator's token
//!   counts). A model call whose input + reservation exceeds the window fails
//!   as `context_overflow` (late turns of the stuck P->S episodes); the
//!   failed-call draws are `call_error`, `rejected` or left unclassified.
//! - **Seeds (§3).** The same caps, instance ids and instances under every
//!   seed (instances are drawn from the first seed's streams, as a
//!   replication re-runs the same tasks); a seed changes the policies'
//!   draws.
//! - **Control families (§8).** `navigation` (tools `neighbors`, `move`,
//!   `finish`; no inspect tool, no verifier): a phased shortest-path progress
//!   score with `score_components` {progress, phase}, the graph as
//!   `instance`, and `generator_warning` where the waypoint/goal draw fell
//!   back. `rule_diagnosis` (tools `check`, `submit`; neither listing nor
//!   inspect): a composite rule score {modulus, residue}.
//! - **Teacher traces (§7).** `P->P` and `S->S` traces of one scripted
//!   teacher (base_model [`TEACHER_LABEL`]) with `completion` (prose + code)
//!   on the same instance ids under both runtimes; some traces fail R1 (a
//!   hurried one-item decision), R2 (no `finish`), R3 (a repeated message) or
//!   R4 (TypeError/NameError steps).

use indexmap::IndexMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use gapscope_runtime::knapsack;
use gapscope_runtime::log::{Call, Condition, Episode, Failure, Runtime, Termination, Turn};

mod teacher;

use crate::runtime_sim::{
    cap_turn_error, generate_instance, run_episode, tokens, Carry, EpisodeOpts, SimError,
    SimParams, Stop, CAP_CALL_ERROR, PROMPT_TOKENS,
};

/// `base_model` of the preset's policy episodes.
pub const ADDENDUM_LABEL: &str = "scripted policies, not language models (addendum preset)";
/// `base_model` of the teacher traces (§7).
pub const TEACHER_LABEL: &str = "scripted teacher, not a language model (addendum preset)";
/// The control families.
pub const NAVIGATION: &str = "navigation";
pub const RULE_DIAGNOSIS: &str = "rule_diagnosis";

/// The addendum preset's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AddendumParams {
    pub seeds: Vec<u64>,
    /// Knapsack instances (ids `k000`…; the same instances under every seed).
    pub instances: usize,
    pub caps: Vec<u32>,
    /// (turn_limit, wall_clock_limit_s) per horizon; the first is the
    /// control families' and the teacher's.
    pub horizons: Vec<(u32, f64)>,
    pub context_window: u64,
    pub output_reservation: u64,
    pub failed_call_rate: f64,
    /// Shares of the failed-call draws logged `rejected` and unclassified.
    pub rejected_share: f64,
    pub unclassified_share: f64,
    /// Navigation and rule-diagnosis instances (the same under every seed).
    pub control_instances: usize,
    /// Teacher trace ids (each under P->P and S->S).
    pub teacher_instances: usize,
}

impl Default for AddendumParams {
    fn default() -> Self {
        AddendumParams {
            seeds: vec![0, 1],
            instances: 4,
            caps: vec![5, 60],
            horizons: vec![(24, 2000.0), (48, 4000.0)],
            context_window: 4096,
            output_reservation: 820,
            failed_call_rate: 0.08,
            rejected_share: 0.25,
            unclassified_share: 0.2,
            control_instances: 4,
            teacher_instances: 10,
        }
    }
}

fn param(name: &'static str, message: impl Into<String>) -> SimError {
    SimError::Param {
        name,
        message: message.into(),
    }
}

impl AddendumParams {
    pub fn validate(&self) -> Result<(), SimError> {
        if self.seeds.is_empty() {
            return Err(param("seeds", "expected at least one seed"));
        }
        if self.instances == 0 || self.instances > 1000 {
            return Err(param(
                "instances",
                format!("expected 1 to 1000, got {}", self.instances),
            ));
        }
        if self.caps.is_empty() || self.caps.iter().any(|&c| c == 0 || c > 1_000_000) {
            return Err(param(
                "caps",
                format!("expected caps of 1 to 1,000,000, got {:?}", self.caps),
            ));
        }
        if self.horizons.is_empty()
            || self
                .horizons
                .iter()
                .any(|&(t, w)| t == 0 || t > 1000 || !(w.is_finite() && w > 0.0))
        {
            return Err(param(
                "horizons",
                format!(
                    "expected turn limits of 1 to 1000 and positive wall clocks, got {:?}",
                    self.horizons
                ),
            ));
        }
        if self.output_reservation == 0 || self.context_window <= self.output_reservation {
            return Err(param(
                "context-window",
                format!(
                    "expected a window above the output reservation (at least 1), got {} and {}",
                    self.context_window, self.output_reservation
                ),
            ));
        }
        if !(0.0..1.0).contains(&self.failed_call_rate) {
            return Err(param(
                "failed-call-rate",
                format!(
                    "expected a probability in [0, 1), got {}",
                    self.failed_call_rate
                ),
            ));
        }
        let shares_ok = (0.0..=1.0).contains(&self.rejected_share)
            && (0.0..=1.0).contains(&self.unclassified_share)
            && self.rejected_share + self.unclassified_share <= 1.0;
        if !shares_ok {
            return Err(param(
                "rejected-share",
                "expected shares in [0, 1] summing to at most 1",
            ));
        }
        if self.control_instances > 1000 || self.teacher_instances > 1000 {
            return Err(param(
                "control-instances",
                "at most 1000 control instances and 1000 teacher ids",
            ));
        }
        Ok(())
    }

    fn opts(&self, carry: Carry) -> EpisodeOpts {
        EpisodeOpts {
            carry,
            window: Some((self.context_window, self.output_reservation)),
            classify: Some((self.rejected_share, self.unclassified_share)),
        }
    }

    fn stamp(&self, e: &mut Episode, horizon: (u32, f64)) {
        e.turn_limit = Some(horizon.0);
        e.wall_clock_limit_s = Some(horizon.1);
        e.context_window = Some(self.context_window);
        e.output_reservation = Some(self.output_reservation);
    }
}

/// One arm of §1: the base condition, its intervention and the batch.
struct ArmSpec {
    condition: Condition,
    carry: Carry,
    batch: u32,
}

fn arms() -> Vec<ArmSpec> {
    let mut v = Vec::new();
    for batch in [1, 2] {
        for c in Condition::ALL {
            v.push(ArmSpec {
                condition: c,
                carry: Carry::Off,
                batch,
            });
        }
        v.push(ArmSpec {
            condition: Condition::PS,
            carry: Carry::Silent,
            batch,
        });
        if batch == 1 {
            v.push(ArmSpec {
                condition: Condition::PS,
                carry: Carry::Announced,
                batch,
            });
        }
    }
    v
}

fn intervention(carry: Carry) -> Option<&'static str> {
    match carry {
        Carry::Off => None,
        Carry::Silent => Some("carry"),
        Carry::Announced => Some("carry_announced"),
    }
}

/// A stream seed for the preset (distinct from the default preset's).
fn stream_rng(seed: u64, salt: u64, stream: u64) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.set_stream(stream);
    r
}

/// Run the preset (see the module doc). Deterministic in its parameters.
pub fn simulate_addendum(a: &AddendumParams) -> Result<Vec<Episode>, SimError> {
    a.validate()?;
    let mut out = Vec::new();
    for &seed in &a.seeds {
        knapsack_arms(a, seed, &mut out)?;
        for k in 0..a.control_instances {
            navigation(a, seed, k, &mut out);
        }
        for k in 0..a.control_instances {
            rule_diagnosis(a, seed, k, &mut out);
        }
    }
    teacher::traces(a, &mut out)?;
    Ok(out)
}

fn knapsack_arms(a: &AddendumParams, seed: u64, out: &mut Vec<Episode>) -> Result<(), SimError> {
    let p = SimParams {
        seed,
        caps: a.caps.clone(),
        instances: a.instances,
        failed_call_rate: a.failed_call_rate,
        ..SimParams::default()
    };
    // Instances from the first seed under every seed (the same tasks).
    let mut rng = ChaCha8Rng::seed_from_u64(a.seeds[0]);
    let arms = arms();
    for k in 0..a.instances {
        let inst = generate_instance(&p, &mut rng, k)?;
        let opt = knapsack::optimum(&inst).map_err(|e| param("capacity", e.to_string()))?;
        let instance_id = format!("k{k:03}");
        for (hi, &horizon) in a.horizons.iter().enumerate() {
            let hp = SimParams {
                turn_limit: horizon.0,
                ..p.clone()
            };
            for &cap in &a.caps {
                for (ai, arm) in arms.iter().enumerate() {
                    let stream = ((k as u64) << 40)
                        | ((hi as u64) << 32)
                        | ((ai as u64) << 24)
                        | u64::from(cap);
                    let mut erng = stream_rng(seed, 0xADD, stream);
                    let mut e = run_episode(
                        &hp,
                        &inst,
                        &instance_id,
                        arm.condition,
                        cap,
                        &mut erng,
                        opt.value,
                        a.opts(arm.carry),
                    );
                    let iv = intervention(arm.carry);
                    e.episode_id = format!(
                        "add-s{seed}-{instance_id}-{}{}-b{}-t{}-c{cap}",
                        arm.condition.label().replace("->", ""),
                        iv.map_or(String::new(), |n| format!("+{n}")),
                        arm.batch,
                        horizon.0
                    );
                    e.base_model = ADDENDUM_LABEL.into();
                    e.intervention = iv.map(str::to_string);
                    e.batch = Some(arm.batch.to_string());
                    a.stamp(&mut e, horizon);
                    out.push(e);
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Shared pieces of the control families and the teacher.

/// Records the calls of one block against the per-turn cap.
struct Calls {
    cap: u32,
    calls: Vec<Call>,
}

impl Calls {
    fn new(cap: u32) -> Self {
        Calls {
            cap,
            calls: Vec::new(),
        }
    }

    /// Count a call; the (cap+1)-th is recorded as failed and stops the block.
    fn call(&mut self, tool: &str, args: Value) -> Result<(), Stop> {
        if self.calls.len() >= self.cap as usize {
            self.calls.push(Call {
                tool: tool.into(),
                args,
                ok: false,
                cached: false,
                error: Some(format!(
                    "{CAP_CALL_ERROR}: at most {} tool calls per turn",
                    self.cap
                )),
            });
            return Err(Stop::Cap);
        }
        self.calls.push(Call {
            tool: tool.into(),
            args,
            ok: true,
            cached: false,
            error: None,
        });
        Ok(())
    }
}

fn stop_error(r: &Result<(), Stop>, cap: u32) -> Option<String> {
    match r {
        Ok(()) => None,
        Err(Stop::Cap) => Some(cap_turn_error(cap)),
        Err(Stop::Tool(m)) => Some(m.clone()),
        Err(Stop::Name(n)) => Some(format!("NameError: name '{n}' is not defined")),
    }
}

/// The transcript so far: the running input size and the turns.
struct Transcript {
    context: u64,
    turns: Vec<Turn>,
}

impl Transcript {
    fn new() -> Self {
        Transcript {
            context: PROMPT_TOKENS,
            turns: Vec::new(),
        }
    }

    fn failed(&mut self, index: u32, failure: Option<Failure>) {
        self.turns.push(Turn {
            index,
            logged: false,
            code: None,
            calls: Vec::new(),
            error: None,
            tokens_in: None,
            tokens_out: None,
            stdout: None,
            record: None,
            failure,
            carried_in: false,
            completion: None,
        });
    }

    fn logged(
        &mut self,
        code: String,
        calls: Vec<Call>,
        error: Option<String>,
        stdout: String,
        completion: Option<String>,
    ) {
        let out = tokens(completion.as_deref().unwrap_or(&code));
        let observation = tokens(&stdout) + error.as_deref().map_or(0, tokens);
        self.turns.push(Turn {
            index: self.turns.len() as u32,
            logged: true,
            code: Some(code),
            calls,
            error,
            tokens_in: Some(self.context),
            tokens_out: Some(out),
            stdout: (!stdout.is_empty()).then_some(stdout),
            record: None,
            failure: None,
            carried_in: false,
            completion,
        });
        self.context += out + observation;
    }
}

/// The failed-call draw of one turn (the preset's classification).
/// A model call that failed, with its class (`None`: unclassified).
struct FailedCall(Option<Failure>);

fn failed_call(a: &AddendumParams, rng: &mut ChaCha8Rng) -> Option<FailedCall> {
    let threshold = (a.failed_call_rate * 4_294_967_296.0) as u64;
    if u64::from(rng.random::<u32>()) >= threshold {
        return None;
    }
    let u = f64::from(rng.random::<u32>()) / 4_294_967_296.0;
    Some(FailedCall(if u < a.rejected_share {
        Some(Failure::Rejected)
    } else if u < a.rejected_share + a.unclassified_share {
        None
    } else {
        Some(Failure::CallError)
    }))
}

#[allow(clippy::too_many_arguments)]
fn control_episode(
    a: &AddendumParams,
    family: &str,
    id: String,
    instance_id: &str,
    c: Condition,
    cap: u32,
    seed: u64,
    score: f64,
    finished: bool,
    instance: Value,
    turns: Vec<Turn>,
    components: IndexMap<String, f64>,
) -> Episode {
    let mut e = Episode {
        episode_id: id,
        task_family: family.into(),
        instance_id: instance_id.into(),
        train_runtime: c.train(),
        deploy_runtime: c.deploy(),
        cap,
        seed,
        rollout: 0,
        base_model: ADDENDUM_LABEL.into(),
        score,
        termination: if finished {
            Termination::Finish
        } else {
            Termination::TurnLimit
        },
        instance: Some(std::sync::Arc::new(instance)),
        turns,
        intervention: None,
        batch: Some("1".into()),
        turn_limit: None,
        wall_clock_limit_s: None,
        context_window: None,
        output_reservation: None,
        generator_warning: None,
        score_components: Some(components),
    };
    a.stamp(&mut e, a.horizons[0]);
    e
}

// ---------------------------------------------------------------------------
// Navigation (§8): a graph, a waypoint and a goal.

struct Graph {
    adj: Vec<Vec<usize>>,
}

impl Graph {
    fn dist(&self, from: usize) -> Vec<usize> {
        let mut d = vec![usize::MAX; self.adj.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        d[from] = 0;
        while let Some(v) = queue.pop_front() {
            for &w in &self.adj[v] {
                if d[w] == usize::MAX {
                    d[w] = d[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        d
    }

    /// The first hop of a shortest path from `v` to `target`.
    fn next_hop(&self, v: usize, target: usize) -> usize {
        let d = self.dist(target);
        self.adj[v]
            .iter()
            .copied()
            .min_by_key(|&w| (d[w], w))
            .unwrap_or(v)
    }
}

const NAV_NODES: usize = 24;
const NAV_ATTEMPTS: usize = 20;

struct NavInstance {
    graph: Graph,
    waypoint: usize,
    goal: usize,
    warning: Option<String>,
    json: Value,
}

/// A random tree plus extra edges (many on every fourth instance, so its
/// anti-collapse draw tends to fall back). Anti-collapse: the waypoint 3+
/// hops from the start and the goal 3+ hops from the waypoint.
fn nav_instance(rng: &mut ChaCha8Rng, k: usize) -> NavInstance {
    let n = NAV_NODES;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for v in 1..n {
        let u = rng.random_range(0..v as u32) as usize;
        edges.push((u, v));
    }
    let extra = if k % 4 == 3 { 120 } else { 2 };
    for _ in 0..extra {
        let u = rng.random_range(0..n as u32) as usize;
        let v = rng.random_range(0..n as u32) as usize;
        let e = (u.min(v), u.max(v));
        if u != v && !edges.contains(&e) {
            edges.push(e);
        }
    }
    let mut adj = vec![Vec::new(); n];
    for &(u, v) in &edges {
        adj[u].push(v);
        adj[v].push(u);
    }
    for l in &mut adj {
        l.sort_unstable();
    }
    let graph = Graph { adj };
    let from_start = graph.dist(0);
    let mut pick = None;
    for _ in 0..NAV_ATTEMPTS {
        let w = rng.random_range(1..n as u32) as usize;
        let g = rng.random_range(1..n as u32) as usize;
        if w != g && from_start[w] >= 3 && graph.dist(w)[g] >= 3 {
            pick = Some((w, g));
            break;
        }
    }
    let (waypoint, goal, warning) = if let Some((w, g)) = pick {
        (w, g, None)
    } else {
        let g = (1..n).max_by_key(|&v| (from_start[v], v)).unwrap_or(1);
        let w = (1..n)
            .filter(|&v| v != g)
            .max_by_key(|&v| (from_start[v].min(graph.dist(v)[g]), v))
            .unwrap_or(1);
        (
            w,
            g,
            Some(format!(
                "anti-collapse fell back to the farthest goal after {NAV_ATTEMPTS} draws \
                 (no waypoint 3 hops from the start and the goal)"
            )),
        )
    };
    let json = json!({
        "nodes": n,
        "edges": edges.iter().map(|&(u, v)| [u, v]).collect::<Vec<_>>(),
        "start": 0,
        "waypoint": waypoint,
        "goal": goal,
    });
    NavInstance {
        graph,
        waypoint,
        goal,
        warning,
        json,
    }
}

fn navigation(a: &AddendumParams, seed: u64, k: usize, out: &mut Vec<Episode>) {
    let mut grng = stream_rng(a.seeds[0], 0x4E41, k as u64);
    let inst = nav_instance(&mut grng, k);
    let instance_id = format!("n{k:03}");
    for &cap in &a.caps {
        for (ci, c) in Condition::ALL.into_iter().enumerate() {
            let mut rng = stream_rng(
                seed,
                0x4E42,
                ((k as u64) << 32) | ((ci as u64) << 24) | u64::from(cap),
            );
            let mut e = nav_episode(a, &inst, &instance_id, c, cap, seed, &mut rng);
            e.generator_warning = inst.warning.clone();
            out.push(e);
        }
    }
}

fn nav_episode(
    a: &AddendumParams,
    inst: &NavInstance,
    instance_id: &str,
    c: Condition,
    cap: u32,
    seed: u64,
    rng: &mut ChaCha8Rng,
) -> Episode {
    let targets = [inst.waypoint, inst.goal];
    let (mut here, mut phase, mut phase_start) = (0usize, 0usize, 0usize);
    let mut finished = false;
    // The P-trained policy's `visited`/`route` (lost at each turn under S).
    let mut bound = false;
    let mut needs_rebuild = false;
    // Detours: the P-trained policy without its visited set wanders more.
    let detour = match c {
        Condition::PS => 0.6,
        Condition::PP => 0.1,
        Condition::SP | Condition::SS => 0.15,
    };
    let mut tr = Transcript::new();
    for index in 0..a.horizons[0].0 {
        let started = tr.turns.iter().any(|t| t.logged);
        if tr.context + a.output_reservation > a.context_window {
            tr.failed(index, Some(Failure::ContextOverflow));
            continue;
        }
        if let Some(FailedCall(f)) = failed_call(a, rng) {
            tr.failed(index, f);
            continue;
        }
        if c.deploy() == Runtime::S {
            bound = false;
        }
        let loop_code = "while here != target:\n    nbrs = neighbors(here)\n    here = move(next_hop(nbrs, visited, target))\n    visited.add(here)\n    print(\"at\", here)\nfinish()\n";
        let mut code = String::new();
        let mut calls = Calls::new(cap);
        let mut stdout = String::new();
        let result = (|| {
            match c.train() {
                Runtime::P if started && !bound && !needs_rebuild => {
                    code.push_str("# continue the walk\n");
                    return Err(Stop::Name("visited"));
                }
                Runtime::P if !bound => {
                    code.push_str("visited = {here}\nroute = []\n");
                }
                Runtime::P => code.push_str("# continue the walk\n"),
                Runtime::S => code.push_str(&format!(
                    "# re-entered from the printed transcript\nhere = {here}\nvisited = {{{here}}}\n"
                )),
            }
            code.push_str(loop_code);
            loop {
                let target = targets[phase];
                calls.call("neighbors", json!(here))?;
                let nbrs = &inst.graph.adj[here];
                let next = if rng.random::<f64>() < detour && !nbrs.is_empty() {
                    nbrs[rng.random_range(0..nbrs.len() as u32) as usize]
                } else {
                    inst.graph.next_hop(here, target)
                };
                calls.call("move", json!(next))?;
                here = next;
                stdout.push_str(&format!("at {here}\n"));
                if here == target {
                    phase += 1;
                    phase_start = here;
                    if phase == targets.len() {
                        calls.call("finish", Value::Null)?;
                        finished = true;
                        return Ok(());
                    }
                }
            }
        })();
        needs_rebuild = matches!(result, Err(Stop::Name(_)));
        bound = !needs_rebuild;
        let error = stop_error(&result, cap);
        tr.logged(code, calls.calls, error, stdout, None);
        if finished {
            break;
        }
    }
    let (progress, completed) = if phase >= targets.len() {
        (1.0, targets.len())
    } else {
        let d = inst.graph.dist(targets[phase]);
        let total = d[phase_start].max(1) as f64;
        ((1.0 - d[here] as f64 / total).clamp(0.0, 1.0), phase)
    };
    let score = if completed == targets.len() {
        1.0
    } else {
        (completed as f64 + progress) / targets.len() as f64
    };
    let components: IndexMap<String, f64> = [
        ("progress".to_string(), progress),
        ("phase".to_string(), completed as f64),
    ]
    .into_iter()
    .collect();
    control_episode(
        a,
        NAVIGATION,
        format!(
            "add-s{seed}-{instance_id}-{}-c{cap}",
            c.label().replace("->", "")
        ),
        instance_id,
        c,
        cap,
        seed,
        score,
        finished,
        inst.json.clone(),
        tr.turns,
        components,
    )
}

// ---------------------------------------------------------------------------
// Rule diagnosis (§8): find `x % m == r` from `check(x)` calls, then submit.

const RULE_DOMAIN: u64 = 10;

fn best_rule(obs: &[bool]) -> (u64, u64) {
    for m in 2..=5u64 {
        for r in 0..m {
            if obs
                .iter()
                .enumerate()
                .all(|(x, &b)| (x as u64 % m == r) == b)
            {
                return (m, r);
            }
        }
    }
    (2, 0)
}

fn rule_diagnosis(a: &AddendumParams, seed: u64, k: usize, out: &mut Vec<Episode>) {
    let mut grng = stream_rng(a.seeds[0], 0x5255, k as u64);
    let m = u64::from(grng.random_range(2..=5u32));
    let r = u64::from(grng.random_range(0..m as u32));
    let instance_id = format!("r{k:03}");
    for &cap in &a.caps {
        for (ci, c) in Condition::ALL.into_iter().enumerate() {
            let mut rng = stream_rng(
                seed,
                0x5256,
                ((k as u64) << 32) | ((ci as u64) << 24) | u64::from(cap),
            );
            let mut obs: Vec<bool> = Vec::new();
            let mut printed: Vec<bool> = Vec::new();
            let mut bound = false;
            let mut seen_reset = false;
            let mut submitted: Option<(u64, u64)> = None;
            let mut tr = Transcript::new();
            for index in 0..a.horizons[0].0 {
                let started = tr.turns.iter().any(|t| t.logged);
                if tr.context + a.output_reservation > a.context_window {
                    tr.failed(index, Some(Failure::ContextOverflow));
                    continue;
                }
                if let Some(FailedCall(f)) = failed_call(a, &mut rng) {
                    tr.failed(index, f);
                    continue;
                }
                if c.deploy() == Runtime::S {
                    bound = false;
                }
                let mut calls = Calls::new(cap);
                let mut stdout = String::new();
                let mut code = String::new();
                let result = (|| {
                    match c.train() {
                        Runtime::P if started && !bound && !seen_reset => {
                            code.push_str("for x in range(len(obs), 10):\n    obs.append(check(x))\nsubmit(*best_rule(obs))\n");
                            return Err(Stop::Name("obs"));
                        }
                        Runtime::P if seen_reset => {
                            // It expects to lose `obs`: check what one block allows, then guess.
                            let n = u64::from(cap.saturating_sub(1)).min(RULE_DOMAIN);
                            code.push_str(&format!(
                                "obs = [check(x) for x in range({n})]\nsubmit(*best_rule(obs))\n"
                            ));
                            obs.clear();
                            for x in 0..n {
                                calls.call("check", json!(x))?;
                                obs.push(x % m == r);
                            }
                        }
                        Runtime::P => {
                            if !bound {
                                obs.clear();
                                code.push_str("obs = []\n");
                            }
                            code.push_str("for x in range(len(obs), 10):\n    obs.append(check(x))\nsubmit(*best_rule(obs))\n");
                            for x in obs.len() as u64..RULE_DOMAIN {
                                calls.call("check", json!(x))?;
                                obs.push(x % m == r);
                            }
                        }
                        Runtime::S => {
                            obs = printed.clone();
                            code.push_str(&format!(
                                "obs = {}   # re-entered from the printed transcript\nfor x in range(len(obs), 10):\n    obs.append(check(x))\n    print(x, obs[-1])\nsubmit(*best_rule(obs))\n",
                                py_bools(&obs)
                            ));
                            for x in obs.len() as u64..RULE_DOMAIN {
                                calls.call("check", json!(x))?;
                                obs.push(x % m == r);
                                printed.push(x % m == r);
                                stdout.push_str(&format!("{x} {}\n", py_bool(x % m == r)));
                            }
                        }
                    }
                    let guess = best_rule(&obs);
                    calls.call("submit", json!([guess.0, guess.1]))?;
                    submitted = Some(guess);
                    Ok(())
                })();
                if matches!(result, Err(Stop::Name(_))) {
                    seen_reset = true;
                }
                bound = !matches!(result, Err(Stop::Name(_)));
                let error = stop_error(&result, cap);
                tr.logged(code, calls.calls, error, stdout, None);
                if submitted.is_some() {
                    break;
                }
            }
            let (mod_ok, res_ok) = submitted.map_or((0.0, 0.0), |(gm, gr)| {
                (
                    if gm == m { 1.0 } else { 0.0 },
                    if gm == m && gr == r { 1.0 } else { 0.0 },
                )
            });
            let components: IndexMap<String, f64> = [
                ("modulus".to_string(), mod_ok),
                ("residue".to_string(), res_ok),
            ]
            .into_iter()
            .collect();
            out.push(control_episode(
                a,
                RULE_DIAGNOSIS,
                format!(
                    "add-s{seed}-{instance_id}-{}-c{cap}",
                    c.label().replace("->", "")
                ),
                &instance_id,
                c,
                cap,
                seed,
                f64::midpoint(mod_ok, res_ok),
                submitted.is_some(),
                json!({"modulus": m, "residue": r, "domain": RULE_DOMAIN}),
                tr.turns,
                components,
            ));
        }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn py_bools(v: &[bool]) -> String {
    let s: Vec<&str> = v.iter().map(|&b| py_bool(b)).collect();
    format!("[{}]", s.join(", "))
}
