//! The teaching simulator: **scripted policies, not language models**.
//!
//! It runs the Opaque Knapsack environment with the paper's tool API (Table 6)
//! and budget rules under the two runtimes and the per-turn cap, with two
//! scripted policies, and writes episode logs in the analysis format, so every
//! quantity and chart can be shown on data whose mechanism is known.
//!
//! Environment: `list_items()` (free), `inspect(id)` (one unit of the budget on
//! the first inspection of an id; repeats are cached and free; errors when the
//! budget is exhausted or the id unknown), `take_item(id)` (errors if taken,
//! disallowed or over capacity; irreversible), `finish()`. Every call counts
//! against the per-turn cap c; the call that would be the (c+1)-th raises
//! `Tool call limit exceeded` and ends the block (it is recorded, `ok: false`,
//! and spends no budget). Task state (inspection cache, budget, taken items)
//! survives the turn boundary under both runtimes; the policy's variables
//! survive under P and are cleared at the start of every turn under S.
//!
//! Policies (both inspect a seeded random sample of `budget` ids and decide by
//! an exact DP over their record, written `best_subset` in the code shown):
//! - **P-trained** keeps its record in variables: turn 1 lists and inspects;
//!   after a cap cut it continues the loop over `order`/`table`; when the
//!   record is complete it decides, takes and finishes. After a `NameError` it
//!   rebuilds everything (list, re-inspect, decide, take, finish) in one block;
//!   once it has seen a `NameError`, it answers a cap cut the same way (it
//!   expects its variables to be gone, but its only remedy is to rebuild).
//! - **S-trained** prints its record as it goes and re-enters it at the top of
//!   every block from the printed transcript; each block continues inspecting,
//!   then decides, takes and finishes.
//!
//! Under S a cap cut followed by the reset erases the P-trained policy's
//! partial record; if the rebuild block itself exceeds the cap the episode
//! never gets past the rebuild and ends at the turn limit with score 0.
//!
//! Tokens: ~4 characters a token; input = a fixed prompt plus every earlier
//! logged turn's code and observation (stdout + error); output = the code.
//! Failed model calls (probability `failed_call_rate` per turn) spend a turn
//! without a block. No wall clock: no timeouts.

use indexmap::IndexMap;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use gapscope_runtime::knapsack::{self, Instance, Item};
use gapscope_runtime::log::{
    Call, Condition, Episode, Failure, RecordNote, Runtime, Termination, Turn,
};

/// The label every simulated log carries (`base_model`).
pub const LABEL: &str = "scripted policies, not language models";

/// Simulator parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimParams {
    pub items: usize,
    pub classes: usize,
    /// Allowed classes (of `classes`).
    pub allowed: usize,
    pub capacity: u64,
    /// Distinct inspections allowed.
    pub budget: u64,
    /// Weights are drawn from 1..=max_weight, values from 1..=max_value.
    pub max_weight: u64,
    pub max_value: u64,
    pub caps: Vec<u32>,
    pub instances: usize,
    pub seed: u64,
    pub turn_limit: u32,
    /// Probability that a model call fails (spends a turn, no block).
    pub failed_call_rate: f64,
    pub conditions: Vec<Condition>,
    pub rollout: u64,
}

impl Default for SimParams {
    fn default() -> Self {
        SimParams {
            items: 30,
            classes: 4,
            allowed: 3,
            capacity: 40,
            budget: 20,
            max_weight: 20,
            max_value: 60,
            caps: vec![5, 20, 30, 60],
            instances: 8,
            seed: 0,
            turn_limit: 24,
            failed_call_rate: 0.05,
            conditions: Condition::ALL.to_vec(),
            rollout: 0,
        }
    }
}

/// The largest number of episodes one simulation writes.
pub const MAX_EPISODES: usize = 100_000;
/// Generator attempts per instance before giving up on the anti-collapse rule.
pub const MAX_ATTEMPTS: usize = 10_000;

/// Why a simulation cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("{name}: {message}")]
    Param { name: &'static str, message: String },
    #[error("instance {instance}: no draw satisfied the anti-collapse rule in {MAX_ATTEMPTS} attempts (raise the capacity or the number of items)")]
    Generator { instance: usize },
}

fn param(name: &'static str, message: impl Into<String>) -> SimError {
    SimError::Param {
        name,
        message: message.into(),
    }
}

impl SimParams {
    pub fn validate(&self) -> Result<(), SimError> {
        if !(3..=5000).contains(&self.items) {
            return Err(param(
                "items",
                format!("expected 3 to 5000, got {}", self.items),
            ));
        }
        if !(1..=26).contains(&self.classes) {
            return Err(param(
                "classes",
                format!("expected 1 to 26, got {}", self.classes),
            ));
        }
        if self.allowed < 1 || self.allowed > self.classes {
            return Err(param(
                "allowed",
                format!(
                    "expected 1 to {} (the classes), got {}",
                    self.classes, self.allowed
                ),
            ));
        }
        for (name, v) in [
            ("capacity", self.capacity),
            ("budget", self.budget),
            ("max-weight", self.max_weight),
            ("max-value", self.max_value),
        ] {
            if v == 0 {
                return Err(param(name, "expected at least 1, got 0"));
            }
        }
        if self.capacity > 1_000_000 || self.max_weight > 1_000_000 || self.max_value > 1_000_000 {
            return Err(param(
                "capacity",
                "capacity, weights and values are limited to 1,000,000",
            ));
        }
        if self.caps.is_empty() || self.caps.contains(&0) {
            return Err(param(
                "caps",
                format!("expected caps of at least 1, got {:?}", self.caps),
            ));
        }
        if self.instances == 0 {
            return Err(param("instances", "expected at least 1, got 0"));
        }
        if self.turn_limit == 0 || self.turn_limit > 1000 {
            return Err(param(
                "turn-limit",
                format!("expected 1 to 1000, got {}", self.turn_limit),
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
        if self.conditions.is_empty() {
            return Err(param("conditions", "expected at least one condition"));
        }
        let n = self.instances * self.caps.len() * self.conditions.len();
        if n > MAX_EPISODES {
            return Err(param(
                "instances",
                format!("{n} episodes requested, at most {MAX_EPISODES}"),
            ));
        }
        Ok(())
    }
}

pub(crate) fn draw(rng: &mut ChaCha8Rng, lo: u64, hi: u64) -> u64 {
    // hi ≤ 1,000,000 after validation: u32 draws keep native == wasm.
    lo + u64::from(rng.random_range(0..(hi - lo + 1) as u32))
}

/// Draw instance `k` (the anti-collapse rule is honoured by rejection).
pub fn generate_instance(
    p: &SimParams,
    rng: &mut ChaCha8Rng,
    k: usize,
) -> Result<Instance, SimError> {
    let letters: Vec<String> = (0..p.classes)
        .map(|c| char::from(b'A' + c as u8).to_string())
        .collect();
    for _ in 0..MAX_ATTEMPTS {
        let mut ids: Vec<String> = Vec::new();
        while ids.len() < p.items {
            let id = format!("i{:04x}", rng.random_range(0..0x1_0000u32));
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let mut classes = letters.clone();
        shuffle(&mut classes, rng);
        let mut allowed: Vec<String> = classes[..p.allowed].to_vec();
        allowed.sort();
        let items: Vec<Item> = ids
            .into_iter()
            .map(|id| Item {
                id,
                weight: draw(rng, 1, p.max_weight),
                value: draw(rng, 1, p.max_value) as f64,
                class: letters[rng.random_range(0..p.classes as u32) as usize].clone(),
            })
            .collect();
        let inst = Instance {
            capacity: p.capacity,
            budget: p.budget,
            allowed_classes: allowed,
            items,
        };
        let opt = knapsack::optimum(&inst).map_err(|e| param("capacity", e.to_string()))?;
        if knapsack::anti_collapse(&inst, &opt).holds {
            return Ok(inst);
        }
    }
    Err(SimError::Generator { instance: k })
}

/// Fisher–Yates with u32 draws.
pub(crate) fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=(i as u32)) as usize;
        v.swap(i, j);
    }
}

/// The environment's task state (survives the turn boundary in both runtimes).
pub(crate) struct Env<'a> {
    pub(crate) inst: &'a Instance,
    pub(crate) cache: IndexMap<String, Item>,
    pub(crate) taken: Vec<String>,
    pub(crate) weight: u64,
    pub(crate) finished: bool,
}

/// Why a block stopped early.
pub(crate) enum Stop {
    Cap,
    Tool(String),
    Name(&'static str),
}

/// One executing action block.
pub(crate) struct Block<'e, 'a> {
    pub(crate) env: &'e mut Env<'a>,
    pub(crate) cap: u32,
    pub(crate) calls: Vec<Call>,
    pub(crate) stdout: String,
}

pub(crate) const CAP_CALL_ERROR: &str = "Tool call limit exceeded";

impl Block<'_, '_> {
    fn record(
        &mut self,
        tool: &str,
        id: Option<&str>,
        ok: bool,
        cached: bool,
        error: Option<String>,
    ) {
        self.calls.push(Call {
            tool: tool.into(),
            args: id.map_or(serde_json::Value::Null, |i| {
                serde_json::Value::String(i.into())
            }),
            ok,
            cached,
            error,
        });
    }

    fn count(&mut self, tool: &str, id: Option<&str>) -> Result<(), Stop> {
        if self.calls.len() >= self.cap as usize {
            let msg = format!("{CAP_CALL_ERROR}: at most {} tool calls per turn", self.cap);
            self.record(tool, id, false, false, Some(msg));
            return Err(Stop::Cap);
        }
        Ok(())
    }

    fn fail(&mut self, tool: &str, id: &str, msg: String) -> Stop {
        self.record(tool, Some(id), false, false, Some(msg.clone()));
        Stop::Tool(msg)
    }

    pub(crate) fn list_items(&mut self) -> Result<Vec<String>, Stop> {
        self.count("list_items", None)?;
        self.record("list_items", None, true, false, None);
        Ok(self.env.inst.items.iter().map(|i| i.id.clone()).collect())
    }

    pub(crate) fn inspect(&mut self, id: &str) -> Result<Item, Stop> {
        self.count("inspect", Some(id))?;
        if let Some(it) = self.env.cache.get(id).cloned() {
            self.record("inspect", Some(id), true, true, None);
            return Ok(it);
        }
        let Some(it) = self.env.inst.item(id).cloned() else {
            return Err(self.fail("inspect", id, format!("KeyError: unknown item id {id:?}")));
        };
        if self.env.cache.len() as u64 >= self.env.inst.budget {
            return Err(self.fail(
                "inspect",
                id,
                "BudgetExhausted: the inspection budget is spent".into(),
            ));
        }
        self.env.cache.insert(id.into(), it.clone());
        self.record("inspect", Some(id), true, false, None);
        Ok(it)
    }

    pub(crate) fn take_item(&mut self, id: &str) -> Result<(), Stop> {
        self.count("take_item", Some(id))?;
        let inst = self.env.inst;
        let Some(it) = inst.item(id) else {
            return Err(self.fail("take_item", id, format!("KeyError: unknown item id {id:?}")));
        };
        if self.env.taken.iter().any(|t| t == id) {
            return Err(self.fail("take_item", id, format!("ValueError: {id} already taken")));
        }
        if !inst.allowed_classes.contains(&it.class) {
            return Err(self.fail(
                "take_item",
                id,
                format!("ValueError: class {} is not allowed", it.class),
            ));
        }
        if self.env.weight + it.weight > inst.capacity {
            return Err(self.fail(
                "take_item",
                id,
                "ValueError: the item would exceed the capacity".into(),
            ));
        }
        self.env.weight += it.weight;
        self.env.taken.push(id.into());
        self.record("take_item", Some(id), true, false, None);
        self.stdout.push_str(&format!("took {id}\n"));
        Ok(())
    }

    pub(crate) fn finish(&mut self) -> Result<(), Stop> {
        self.count("finish", None)?;
        self.record("finish", None, true, false, None);
        self.env.finished = true;
        Ok(())
    }
}

/// The policy's variables (cleared each turn under S).
#[derive(Default)]
pub(crate) struct Namespace {
    pub(crate) ids: Option<Vec<String>>,
    pub(crate) order: Option<Vec<String>>,
    pub(crate) table: Option<IndexMap<String, Item>>,
}

/// The P-trained policy's next block.
#[derive(Clone, Copy, PartialEq)]
enum PBlock {
    Explore,
    Continue,
    Decide,
    Rebuild,
    /// Carry, announced: continue the loop and decide in the same block.
    ContinueDecide,
}

/// Exact DP over the record: the plan the policies execute.
pub(crate) fn best_subset(inst: &Instance, table: &IndexMap<String, Item>) -> Vec<String> {
    let items: Vec<&Item> = table
        .values()
        .filter(|it| inst.allowed_classes.contains(&it.class) && it.weight <= inst.capacity)
        .collect();
    knapsack::solve(&items, inst.capacity)
        .map(|o| o.items)
        .unwrap_or_default()
}

pub(crate) fn py_list(ids: &[String]) -> String {
    let v: Vec<String> = ids.iter().map(|i| format!("{i:?}")).collect();
    format!("[{}]", v.join(", "))
}

pub(crate) struct Ctx<'a> {
    pub(crate) inst: &'a Instance,
    /// The policy's sample of ids to inspect (fixed per episode: the code's
    /// `random.Random(seed).sample(ids, budget)` gives the same list each run).
    pub(crate) sample: Vec<String>,
    pub(crate) sample_seed: u32,
}

impl Ctx<'_> {
    pub(crate) fn allowed(&self) -> String {
        let v: Vec<String> = self
            .inst
            .allowed_classes
            .iter()
            .map(|c| format!("{c:?}"))
            .collect();
        format!("{{{}}}", v.join(", "))
    }

    pub(crate) fn sample_line(&self) -> String {
        format!(
            "order = random.Random({}).sample(ids, {})   # which items to inspect\n",
            self.sample_seed,
            self.sample.len()
        )
    }

    pub(crate) fn decide_code(&self, done: &[String]) -> String {
        let skip = if done.is_empty() {
            String::new()
        } else {
            format!(
                "    if i in {}: continue   # taken earlier\n",
                py_list(done)
            )
        };
        format!(
            "plan = best_subset(table, capacity={}, allowed={})\nfor i in plan:\n{skip}    take_item(i)\n    print(\"took\", i)\nfinish()\n",
            self.inst.capacity,
            self.allowed()
        )
    }
}

pub(crate) type BlockResult = Result<(), Stop>;

pub(crate) fn inspect_loop(b: &mut Block, ns: &mut Namespace, verbose: bool) -> BlockResult {
    let order = ns.order.clone().ok_or(Stop::Name("order"))?;
    if ns.table.is_none() {
        return Err(Stop::Name("table"));
    }
    for i in &order {
        if ns.table.as_ref().is_some_and(|t| t.contains_key(i)) {
            continue;
        }
        let it = b.inspect(i)?;
        if verbose {
            b.stdout.push_str(&format!(
                "table[{i:?}] = ({}, {}, {:?})\n",
                it.weight, it.value, it.class
            ));
        }
        if let Some(t) = ns.table.as_mut() {
            t.insert(i.clone(), it);
        }
    }
    Ok(())
}

pub(crate) fn decide(b: &mut Block, ns: &Namespace, inst: &Instance) -> BlockResult {
    let table = ns.table.as_ref().ok_or(Stop::Name("table"))?;
    for i in best_subset(inst, table) {
        if b.env.taken.contains(&i) {
            continue;
        }
        b.take_item(&i)?;
    }
    b.finish()
}

pub(crate) fn list_and_sample(
    b: &mut Block,
    ns: &mut Namespace,
    ctx: &Ctx,
    print: bool,
) -> BlockResult {
    let ids = b.list_items()?;
    ns.ids = Some(ids);
    ns.order = Some(ctx.sample.clone());
    if print {
        b.stdout
            .push_str(&format!("order = {}\n", py_list(&ctx.sample)));
    }
    Ok(())
}

/// P-trained: the block's code and its execution.
fn p_block(kind: PBlock, b: &mut Block, ns: &mut Namespace, ctx: &Ctx) -> (String, BlockResult) {
    let head = format!("ids = list_items()\n{}table = {{}}\n", ctx.sample_line());
    let inspect = "for i in order:\n    if i not in table:\n        table[i] = inspect(i)\n";
    let report = "print(f\"inspected {len(table)} of {len(ids)} items\")\n";
    let done = b.env.taken.clone();
    match kind {
        PBlock::Explore => {
            let code = format!("{head}{inspect}{report}");
            let r = (|| {
                list_and_sample(b, ns, ctx, false)?;
                ns.table = Some(IndexMap::new());
                inspect_loop(b, ns, false)?;
                p_report(b, ns)
            })();
            (code, r)
        }
        PBlock::Continue => {
            let code = format!("{inspect}{report}");
            let r = (|| {
                inspect_loop(b, ns, false)?;
                p_report(b, ns)
            })();
            (code, r)
        }
        PBlock::Decide => (ctx.decide_code(&done), decide(b, ns, ctx.inst)),
        PBlock::ContinueDecide => {
            let code = format!(
                "# the variables were carried over the cut: continue, then decide\n{inspect}{}",
                ctx.decide_code(&done)
            );
            let r = (|| {
                inspect_loop(b, ns, false)?;
                decide(b, ns, ctx.inst)
            })();
            (code, r)
        }
        PBlock::Rebuild => {
            let code = format!(
                "# the variables are gone: rebuild the record, then decide, in one block\n{head}{inspect}{}",
                ctx.decide_code(&done)
            );
            let r = (|| {
                list_and_sample(b, ns, ctx, false)?;
                ns.table = Some(IndexMap::new());
                inspect_loop(b, ns, false)?;
                decide(b, ns, ctx.inst)
            })();
            (code, r)
        }
    }
}

fn p_report(b: &mut Block, ns: &Namespace) -> BlockResult {
    let t = ns.table.as_ref().ok_or(Stop::Name("table"))?.len();
    let n = ns.ids.as_ref().ok_or(Stop::Name("ids"))?.len();
    b.stdout.push_str(&format!("inspected {t} of {n} items\n"));
    Ok(())
}

/// What the S-trained policy has printed so far (its record, re-entered at
/// the top of every block).
#[derive(Default)]
struct Printed {
    order: Option<Vec<String>>,
    table: IndexMap<String, Item>,
}

fn s_block(
    printed: &Printed,
    b: &mut Block,
    ns: &mut Namespace,
    ctx: &Ctx,
) -> (String, BlockResult) {
    let mut code = String::from("# record re-entered from the printed transcript\n");
    let done = b.env.taken.clone();
    if let Some(order) = &printed.order {
        code.push_str(&format!("order = {}\n", py_list(order)));
    }
    let entries: Vec<String> = printed
        .table
        .iter()
        .map(|(i, it)| format!("{i:?}: ({}, {}, {:?})", it.weight, it.value, it.class))
        .collect();
    code.push_str(&format!("table = {{{}}}\n", entries.join(", ")));
    if printed.order.is_none() {
        code.push_str(&format!(
            "ids = list_items()\n{}print(\"order =\", order)\n",
            ctx.sample_line()
        ));
    }
    code.push_str(
        "for i in order:\n    if i not in table:\n        table[i] = inspect(i)\n        print(f\"table[{i!r}] = {table[i]!r}\")\n",
    );
    code.push_str(&ctx.decide_code(&done));
    // Re-entering the record binds the names in both runtimes.
    ns.order = printed.order.clone();
    ns.table = Some(printed.table.clone());
    let r = (|| {
        if ns.order.is_none() {
            list_and_sample(b, ns, ctx, true)?;
        }
        inspect_loop(b, ns, true)?;
        decide(b, ns, ctx.inst)
    })();
    (code, r)
}

pub(crate) fn tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

/// Fixed prompt tokens (instructions, tool API, few-shot examples).
pub const PROMPT_TOKENS: u64 = 900;

pub(crate) fn cap_turn_error(cap: u32) -> String {
    format!("ToolCallLimitExceeded: Tool call limit exceeded ({cap} calls per turn); the rest of the block did not run")
}

/// Whether the bindings are carried over a cap cut under S (addendum §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carry {
    Off,
    /// Carried, the agent not told.
    Silent,
    /// Carried and announced: after a cut the P-trained policy continues and
    /// decides in the carried block, never rebuilding (re-listing) after a cut.
    Announced,
}

/// What the addendum preset adds to an episode run (the default: nothing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EpisodeOpts {
    pub(crate) carry: Carry,
    /// (context window, output reservation), tokens: a model call whose
    /// input + reservation exceeds the window fails as `context_overflow`.
    pub(crate) window: Option<(u64, u64)>,
    /// Classify failed calls: (share rejected, share unclassified) of the
    /// failed-call draws; the rest are `call_error`. One more u32 draw each.
    pub(crate) classify: Option<(f64, f64)>,
}

impl EpisodeOpts {
    pub(crate) const PLAIN: EpisodeOpts = EpisodeOpts {
        carry: Carry::Off,
        window: None,
        classify: None,
    };
}

fn unlogged(index: u32, failure: Option<Failure>) -> Turn {
    Turn {
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
    }
}

/// Run one episode.
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
pub(crate) fn run_episode(
    p: &SimParams,
    inst: &Instance,
    instance_id: &str,
    condition: Condition,
    cap: u32,
    rng: &mut ChaCha8Rng,
    opt_value: f64,
    opts: EpisodeOpts,
) -> Episode {
    let mut ids: Vec<String> = inst.items.iter().map(|i| i.id.clone()).collect();
    shuffle(&mut ids, rng);
    ids.truncate(p.budget.min(inst.items.len() as u64) as usize);
    let ctx = Ctx {
        inst,
        sample: ids,
        sample_seed: rng.random_range(0..1000u32),
    };
    let mut env = Env {
        inst,
        cache: IndexMap::new(),
        taken: Vec::new(),
        weight: 0,
        finished: false,
    };
    let mut ns = Namespace::default();
    let mut printed = Printed::default();
    let mut next = PBlock::Explore;
    let mut seen_reset = false;
    let mut last_cut = false;
    let mut turns = Vec::new();
    let mut context = PROMPT_TOKENS;
    let threshold = (p.failed_call_rate * 4_294_967_296.0) as u64;
    for index in 0..p.turn_limit {
        if let Some((window, reservation)) = opts.window {
            if context + reservation > window {
                turns.push(unlogged(index, Some(Failure::ContextOverflow)));
                continue;
            }
        }
        if u64::from(rng.random::<u32>()) < threshold {
            let failure = match opts.classify {
                None => None,
                Some((rejected, unclassified)) => {
                    let u = f64::from(rng.random::<u32>()) / 4_294_967_296.0;
                    if u < rejected {
                        Some(Failure::Rejected)
                    } else if u < rejected + unclassified {
                        None
                    } else {
                        Some(Failure::CallError)
                    }
                }
            };
            turns.push(unlogged(index, failure));
            continue;
        }
        let carried = opts.carry != Carry::Off && condition.deploy() == Runtime::S && last_cut;
        if condition.deploy() == Runtime::S && !carried {
            ns = Namespace::default();
        }
        let at_start = match condition.train() {
            Runtime::P => ns.table.as_ref().map_or(0, indexmap::IndexMap::len),
            Runtime::S => printed.table.len(),
        };
        let mut b = Block {
            env: &mut env,
            cap,
            calls: Vec::new(),
            stdout: String::new(),
        };
        let (code, result) = match condition.train() {
            Runtime::P => p_block(next, &mut b, &mut ns, &ctx),
            Runtime::S => s_block(&printed, &mut b, &mut ns, &ctx),
        };
        let (calls, stdout) = (b.calls, b.stdout);
        let error = match &result {
            Ok(()) => None,
            Err(Stop::Cap) => Some(cap_turn_error(cap)),
            Err(Stop::Tool(m)) => Some(m.clone()),
            Err(Stop::Name(n)) => Some(format!("NameError: name '{n}' is not defined")),
        };
        // What the S-trained policy printed survives in the transcript.
        if condition.train() == Runtime::S {
            if printed.order.is_none() {
                printed.order = ns.order.clone();
            }
            if let Some(t) = &ns.table {
                printed.table = t.clone();
            }
        }
        let at_end = ns.table.as_ref().map_or(0, indexmap::IndexMap::len);
        // The P-trained policy's next block, from what it observed.
        let in_decide_phase = calls
            .iter()
            .any(|c| c.tool == "take_item" || c.tool == "finish");
        if matches!(result, Err(Stop::Name(_))) {
            seen_reset = true;
        }
        last_cut = matches!(result, Err(Stop::Cap));
        let announced = opts.carry == Carry::Announced && condition.deploy() == Runtime::S;
        next = match &result {
            Err(Stop::Name(_)) => PBlock::Rebuild,
            // Told that a cut carries its variables: it goes on from them.
            Err(Stop::Cap) if announced && in_decide_phase => PBlock::Decide,
            Err(Stop::Cap) if announced => PBlock::ContinueDecide,
            // Once it has seen a reset, a cut means its variables are gone:
            // it rebuilds from scratch (re-issuing the listing call).
            Err(Stop::Cap) if seen_reset => PBlock::Rebuild,
            Err(Stop::Cap) if in_decide_phase => PBlock::Decide,
            Err(Stop::Cap) => PBlock::Continue,
            Err(Stop::Tool(_)) => PBlock::Decide,
            Ok(()) => PBlock::Decide,
        };
        let out = tokens(&code);
        let observation = tokens(&stdout) + error.as_deref().map_or(0, tokens);
        turns.push(Turn {
            index,
            logged: true,
            code: Some(code),
            calls,
            error,
            tokens_in: Some(context),
            tokens_out: Some(out),
            stdout: (!stdout.is_empty()).then_some(stdout),
            failure: None,
            carried_in: carried,
            completion: None,
            record: Some(RecordNote {
                at_start: at_start as u32,
                at_end: at_end as u32,
            }),
        });
        context += out + observation;
        if env.finished {
            break;
        }
    }
    let achieved: f64 = env
        .taken
        .iter()
        .filter_map(|id| inst.item(id))
        .fold(0.0, |a, it| a + it.value);
    Episode {
        episode_id: format!(
            "sim-s{}-r{}-{instance_id}-{}-c{cap}",
            p.seed,
            p.rollout,
            condition.label().replace("->", "")
        ),
        task_family: knapsack::FAMILY.into(),
        instance_id: instance_id.into(),
        train_runtime: condition.train(),
        deploy_runtime: condition.deploy(),
        cap,
        seed: p.seed,
        rollout: p.rollout,
        base_model: LABEL.into(),
        score: if env.weight > inst.capacity {
            0.0
        } else {
            achieved / opt_value
        },
        termination: if env.finished {
            Termination::Finish
        } else {
            Termination::TurnLimit
        },
        instance: serde_json::to_value(inst).ok().map(std::sync::Arc::new),
        turns,
        intervention: None,
        batch: None,
        turn_limit: None,
        wall_clock_limit_s: None,
        context_window: None,
        output_reservation: None,
        generator_warning: None,
        score_components: None,
    }
}

/// Run the factorial: every instance × cap × condition. Instances come from
/// one ChaCha8 stream seeded with `seed`; each episode has its own stream
/// (seeded from seed and rollout; stream = instance, condition, cap), so adding a cap or a
/// condition leaves the other episodes unchanged.
pub fn simulate(p: &SimParams) -> Result<Vec<Episode>, SimError> {
    p.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let mut out = Vec::new();
    for k in 0..p.instances {
        let inst = generate_instance(p, &mut rng, k)?;
        let opt = knapsack::optimum(&inst).map_err(|e| param("capacity", e.to_string()))?;
        let instance_id = format!("k{k:03}");
        for &cap in &p.caps {
            for &c in &p.conditions {
                let mut erng = ChaCha8Rng::seed_from_u64(
                    p.seed
                        ^ p.rollout
                            .wrapping_add(1)
                            .wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                let ci = Condition::ALL.iter().position(|x| *x == c).unwrap_or(0) as u64;
                erng.set_stream(((k as u64) << 34) | (ci << 32) | u64::from(cap));
                out.push(run_episode(
                    p,
                    &inst,
                    &instance_id,
                    c,
                    cap,
                    &mut erng,
                    opt.value,
                    EpisodeOpts::PLAIN,
                ));
            }
        }
    }
    Ok(out)
}
