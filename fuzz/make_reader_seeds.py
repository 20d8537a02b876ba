#!/usr/bin/env python3
"""Write the hostile seeds of the reader fuzz targets other than inspect_eval
(issue 14, "Unbounded inputs"; docs/fuzzing.md, round 3): small versions of the
bombs of crates/gapscope-{data,evidence,synth}/tests/hostile.rs and of the inputs behind items 1,
2, 7, 9, 10 and 12, each at most 64 KB (they are committed). Deterministic; run
from fuzz/:

    python3 make_reader_seeds.py   # writes corpus/<target>/h-*.{csv,json,jsonl,bin}

Two-part inputs are `first + "\\0" + second` (fuzz_targets/common.rs); the
evidence target takes an optional third part, a run plan.
"""
import json
import os
import string

LIMIT = 64 * 1024
ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits


def short_names(n, skip=()):
    """n distinct names of 1-3 characters from [A-Za-z0-9], shortest first."""
    out = []
    for length in (1, 2, 3):
        def rec(prefix, k):
            if len(out) >= n:
                return
            if k == 0:
                if prefix not in skip:
                    out.append(prefix)
                return
            for c in ALPHABET:
                rec(prefix + c, k - 1)
                if len(out) >= n:
                    return
        rec("", length)
        if len(out) >= n:
            break
    return out[:n]


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    assert len(data) <= LIMIT, (target, name, len(data))
    d = os.path.join("corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    print(f"{target}/{name}: {len(data)} bytes")


def jl(objs):
    return "".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objs)


ROLES = ["TU", "RE", "CE", "GI", "PL", "RC", "reward"]

# --- profiles ---------------------------------------------------------------
# A header above MAX_CSV_COLUMNS (10,000): 12,000 names fit in 64 KB (20,000
# short names would be 76 KB).
names = ROLES + short_names(12_000 - len(ROLES), skip=set(ROLES))
write("profiles", "h-header-12000-columns.csv",
      "model,family," + ",".join(names) + "\nm1,f1,50,60,70,40,30,20,0.5" + "," * (len(names) - 7) + "\n")
# Exactly at the limit (model, family + 9,998 = 10,000 columns), two models.
names = ROLES + short_names(9_998 - len(ROLES), skip=set(ROLES))
write("profiles", "h-header-10000-columns.csv",
      "model,family," + ",".join(names) + "\n"
      + "m1,f1,50,60,70,40,30,20,0.5" + "," * (len(names) - 7) + "\n"
      + "m2,f2,55,65,75,45,35,25,0.6" + "," * (len(names) - 7) + "9\n")
# A model name over MAX_NAME_BYTES (4,096) on line 3, and one exactly at it.
body = "model,family,TU,RE,GI,PL,reward\nm1,f1,1,2,3,4,0.1\n{},f1,2,3,4,5,0.2\nm3,f2,3,4,5,6,0.3\n"
write("profiles", "h-model-name-5000.csv", body.format("M" * 5000))
write("profiles", "h-model-name-4096.csv", body.format("é" * 2048))
# A JSON dimension name over 4 KiB.
write("profiles", "h-json-long-dimension.json", json.dumps({"models": [
    {"model": "m1", "family": "f", "foundational": {"TU": 1}, "operations": {"G" * 4100: 2}},
    {"model": "m2", "family": "f", "foundational": {"TU": 2}, "operations": {"G" * 4100: 3}},
    {"model": "m3", "family": "g", "foundational": {"TU": 3}, "operations": {"G" * 4100: 1}},
]}))
# CRLF with a bad cell on line 6 (item 9: reported as line 5 before).
write("profiles", "h-crlf-bad-cell.csv", "\r\n".join([
    "model,family,TU,RE,GI,PL,reward", "m1,f1,1,2,3,4,0.1", "m2,f1,2,3,4,5,0.2",
    "m3,f2,3,4,5,6,0.3", "m4,f2,4,5,6,7,0.4", "m5,f3,abc,6,7,8,0.5", "m6,f3,6,7,8,9,0.6", ""]))
# Values near the float range (item 12): 1e308 in a used column and a reward.
write("profiles", "h-value-1e308.csv", "\n".join([
    "model,family,TU,RE,GI,PL,reward", "m1,f1,1,2,3,4,0.1", "m2,f1,2,3,4,5,0.2",
    "m3,f2,3,4,5,6,0.3", "m4,f2,1e308,5,6,7,0.4", "m5,f3,5,-1.7976931348623157e308,7,8,1e300",
    "m6,f3,6,7,8,9,5e-324", ""]))
# The same file joined with one whose rewards are out of range.
write("profiles", "h-join-out-of-range.bin",
      "model,family,TU,RE\nm1,f1,1,2\nm2,f1,2,3\nm3,f2,3,4\nm4,f2,4,5\n\0"
      "model,family,GI,PL,reward\nm1,f1,3,4,-5\nm2,f1,4,5,150\nm3,f2,5,6,1e300\nm4,f2,6,7,50\n")

# --- trajectories (canonical JSONL, read_any) -------------------------------


def traj(i, model, task, reward=1.0, **extra):
    t = {"id": i, "model": model, "task_id": task, "trial": 0, "reward": reward,
         "messages": [{"role": "user", "content": "help"},
                      {"role": "assistant", "content": None,
                       "tool_calls": [{"id": "c1", "name": "get_x", "arguments": {"k": 1}}]},
                      {"role": "tool", "tool_call_id": "c1", "content": "{}", "error": False}],
         "labels": {"GI": [1], "PL": [1, 0]}}
    t.update(extra)
    return t


# Item 1: the same task id in two domains, an airline-only and a retail-only
# model; one line without a domain (`unknown`).
domains = jl([traj("a1", "air", "32", 1.0, domain="airline"),
              traj("a2", "air", "33", 0.0, domain="airline"),
              traj("r1", "ret", "32", 0.0, domain="retail"),
              traj("r2", "ret", "33", 1.0, domain="retail"),
              traj("u1", "ret", "32", 1.0),
              traj("x1", "air", "32", 1.0, domain="")])
# Item 2: one JSON object with a task_id (a τ-bench record), read as JSONL.
one_object = json.dumps({"task_id": 0, "reward": 0.0})
tau_bench = json.dumps({"task_id": 0, "reward": 0.0, "info": {"task": {"user_id": "u", "actions": []}},
                        "traj": [{"role": "system", "content": "x"}, {"role": "user", "content": "hi"}]},
                       indent=2)
# Names over 4 KiB: model, id, task, label operation.
long_names = jl([traj("t" * 5000, "m", "t1"), traj("t2", "M" * 5000, "t1"),
                 traj("t3", "m", "T" * 5000), traj("t4", "m", "t1", family="F" * 5000),
                 {**traj("t5", "m", "t2"), "labels": {"O" * 5000: [1]}},
                 traj("t6", "m", "t3")])
# Item 7: the same (id, model) twice, the same id under another model, and a
# trajectory with neither messages nor reward (unscored, but read).
dups = jl([traj("d1", "m1", "t1", 1.0), traj("d1", "m1", "t1", 0.0), traj("d1", "m2", "t1", 1.0),
           traj("d2", "m1", "t2", 0.5), traj("d2", "m1", "t2", 0.5),
           {"id": "d3", "model": "m1", "task_id": "t3"},
           traj("d4", " m1 ", "t3"), traj("d5", "", "t3")])
# Item 12: rewards out of range and near the float range.
rewards = jl([traj("o1", "m", "t1", -5), traj("o2", "m", "t2", 150), traj("o3", "m", "t3", 1e300),
              traj("o4", "m", "t4", 1e308), traj("o5", "n", "t1", 5e-324), traj("o6", "n", "t2", 0.5)])
for target in ("trajectories_jsonl", "read_any"):
    write(target, "h-domains.jsonl", domains)
    write(target, "h-one-object.json", one_object)
    write(target, "h-tau-bench-record.json", tau_bench)
    write(target, "h-long-names.jsonl", long_names)
    write(target, "h-duplicate-ids.jsonl", dups)
    write(target, "h-rewards-out-of-range.jsonl", rewards)

# --- labels -----------------------------------------------------------------
label_trajs = jl([traj("t-001", "A1", "t1"), traj("t-002", "A1", "t2"), traj("t-003", "B1", "t1")])
write("labels", "h-crlf-bad-label.bin", label_trajs + "\0" + "\r\n".join([
    "trajectory_id,operation,requirement,label,turn", "t-001,GI,r1,0,1", "t-002,PL,r2,0.5,",
    "t-003,GI,r1,2,3", "t-001,RC,r1,,3", ""]))
write("labels", "h-crlf-labels.bin", label_trajs + "\0" + "\r\n".join([
    "trajectory_id,operation,requirement,label,turn", "t-001,GI,r1,0,1", "t-002,PL,r2,0.5,",
    "t-003,GI,r1,1,3", "t-001,RC,r1,,3", "\"t-002\",\"=GI\",r1,1,", ""]))
write("labels", "h-label-header-12000-columns.bin", label_trajs + "\0"
      + "trajectory_id,operation,label," + ",".join(short_names(12_000)) + "\nt-001,GI,1\n")
write("labels", "h-label-long-operation.bin", label_trajs + "\0"
      + "trajectory_id,operation,requirement,label\nt-001,GI,r1,1\nt-001," + "O" * 5000 + ",r1,1\nt-002,n_GI,r1,1\n")

# --- tau2 -------------------------------------------------------------------


def sim(i, task, reward, n_messages=2):
    msgs = []
    for k in range(n_messages):
        msgs.append({"role": "user" if k % 2 == 0 else "assistant", "content": "m%d" % k,
                     "turn_idx": k})
    return {"id": i, "task_id": task, "trial": 0, "seed": 0, "termination_reason": "user_stop",
            "reward_info": {"reward": reward}, "messages": msgs}


tasks = json.dumps([{"id": "0", "user_scenario": {"instructions": "x"}},
                    {"id": "1", "user_scenario": {"instructions": "y"}}])
bare = json.dumps([sim("s1", "0", 1.0), sim("s2", "1", 0.0), sim("s1", "0", 1.0)])
with_domain = json.dumps({"info": {"num_trials": 1, "environment_info": {"domain_name": "retail"},
                                   "agent_info": {"llm": "m"}},
                          "tasks": [], "simulations": [sim("s1", "0", 1.0), sim("s2", "1", 0.0)]})
bad_domain = json.dumps({"info": {"environment_info": {"domain_name": "D" * 5000}},
                         "simulations": [sim("s1", "0", 1.0)]})
# Many messages in one simulation (the 10,000-message case was quadratic).
long_sim = json.dumps({"info": {"environment_info": {"domain_name": "airline"}},
                       "simulations": [sim("s1", "0", 1.0, 1200)]}, separators=(",", ":"))
write("tau2", "h-bare-list-no-domain.bin", bare + "\0" + tasks)
write("tau2", "h-results-domain-name.bin", with_domain + "\0" + tasks)
write("tau2", "h-domain-name-5000.bin", bad_domain + "\0" + tasks)
write("tau2", "h-1200-messages.bin", long_sim + "\0" + tasks)
write("read_any", "h-tau2-bare-no-domain.json", bare)
write("read_any", "h-tau2-domain-name.json", with_domain)
write("read_any", "h-tau2-1200-messages.json", long_sim)

# --- evidence ---------------------------------------------------------------


def case(actions, protocol="V3", case_id="big"):
    return json.dumps({"case_id": case_id, "protocol": protocol, "domain": "d",
                       "tools": {"consequential": [{"name": "d"}]}, "actions": actions,
                       "terminal": "ACT"}, separators=(",", ":"))


def ev_traj(case_id, calls, config="A", rep=0):
    msgs = [{"role": "user", "content": "go"}]
    for k, args in enumerate(calls):
        msgs.append({"role": "assistant", "content": None,
                     "tool_calls": [{"id": "c%d" % k, "name": "d", "arguments": args}]})
        msgs.append({"role": "tool", "tool_call_id": "c%d" % k,
                     "content": {"result": {"f": "v%d" % k}, "status": "applied"}})
    msgs.append({"role": "assistant", "content": "Done."})
    return {"id": "%s/%s/r%d" % (case_id, config, rep), "case_id": case_id, "config": config,
            "repetition": rep, "status": "scored", "model": config, "task_id": case_id,
            "trial": rep, "messages": msgs}


def fit(make, hi=2000):
    """The largest n <= hi whose seed make(n) fits in 64 KB."""
    n = hi
    while len(make(n).encode()) > LIMIT:
        n -= 50
    return make(n)


def a(i):
    return "a%d" % i


def chain(n):
    acts = [{"id": a(0), "tool": "d"}] + [{"id": a(i), "tool": "d", "after": [a(i - 1)]} for i in range(1, n)]
    return case(acts) + "\0" + jl([ev_traj("big", [{}] * 3)])


def cycle(n):
    acts = [{"id": a(i), "tool": "d", "after": [a((i + 1) % n)]} for i in range(n)]
    return case(acts) + "\0" + jl([ev_traj("big", [{}] * 3)])


def refs(n, protocol="V3"):
    acts = [{"id": a(0), "tool": "d"}] + [{"id": a(i), "tool": "d", "args": {"x": {"ref": a(i - 1) + ".f"}}}
                                          for i in range(1, n)]
    calls = [{}] + [{"x": "v%d" % k} for k in range(3)]
    return case(acts, protocol) + "\0" + jl([ev_traj("big", calls), ev_traj("big", calls, "B")])


write("evidence", "h-after-chain.bin", fit(chain))
write("evidence", "h-after-cycle.bin", fit(cycle))
write("evidence", "h-ref-chain-v3.bin", fit(refs))
write("evidence", "h-ref-chain-v2.bin", fit(lambda n: refs(n, "V2")))
small = case([{"id": "a0", "tool": "d"}, {"id": "a1", "tool": "d", "args": {"x": {"ref": "a0.f"}}}], "V2", "c")
small_trajs = jl([ev_traj("c", [{}, {"x": "v0"}]), ev_traj("c", [{}], "B", 1)])
# The optional third part is a run plan (RunPlan::parse): huge repetitions
# (4e9 allocated 16 GB, then 208 GB of rows), rows above the limit, at the limit.
write("evidence", "h-plan-huge-repetitions.bin",
      small + "\0" + small_trajs + "\0" + '{"cases": ["c"], "configs": ["A", "B"], "repetitions": 4000000000}')
write("evidence", "h-plan-rows.bin", small + "\0" + small_trajs + "\0"
      + json.dumps({"cases": ["c"], "configs": ["c%d" % i for i in range(20)], "repetitions": 10000}))
write("evidence", "h-plan-at-limit.bin",
      small + "\0" + small_trajs + "\0" + '{"cases": ["c"], "configs": ["A", "B"], "repetitions": 2000}')
write("evidence", "h-long-trajectory-id.bin",
      small + "\0" + jl([{**ev_traj("c", [{}, {"x": "v0"}]), "id": "I" * 5000}]))

# --- runtime ----------------------------------------------------------------
with open("corpus/runtime/factorial.jsonl") as f:
    episode = json.loads(f.readline())


def knapsack(items, capacity=5, **extra):
    e = json.loads(json.dumps(episode))
    e["instance"]["items"] = items
    e["instance"]["capacity"] = capacity
    e.update(extra)
    return json.dumps(e, separators=(",", ":"))


# Item 10: two weights of 2^63 summed to 0 (and the verifier scored 100).
big = 9223372036854775808
write("runtime", "h-knapsack-2p63.jsonl", knapsack([
    {"id": "x", "weight": big, "value": 10, "class": "A"},
    {"id": "y", "weight": big, "value": 6, "class": "A"},
    {"id": "q", "weight": 1, "value": 100, "class": "B"}]) + "\n")
write("runtime", "h-knapsack-2p53.jsonl", "\n".join([
    knapsack([{"id": "x", "weight": 2 ** 53 + 1, "value": 10, "class": "A"},
              {"id": "y", "weight": 2, "value": 1e300, "class": "A"}]),
    knapsack([{"id": "x", "weight": 3, "value": 10, "class": "A"},
              {"id": "y", "weight": 2, "value": 6, "class": "A"}], capacity=2 ** 53,
             episode_id="cap"),
    knapsack([{"id": "x", "weight": 3, "value": 10, "class": "A"}], capacity=-1, episode_id="neg"),
]) + "\n")
# A DP above MAX_DP_CELLS (items × capacity).
write("runtime", "h-knapsack-dp-cells.jsonl", knapsack(
    [{"id": "i%d" % k, "weight": k + 1, "value": k, "class": "A"} for k in range(100)],
    capacity=10 ** 9) + "\n")
