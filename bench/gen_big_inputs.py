#!/usr/bin/env python3
"""Large inputs for the reader measurements of docs/limits.md (issue 14).

    python3 bench/gen_big_inputs.py sims N OUT.json     # N simulations (tau2 check)
    python3 bench/gen_big_inputs.py messages N OUT.json # one simulation, N messages
    python3 bench/gen_big_inputs.py jsonl MB OUT.jsonl  # canonical JSONL of about MB megabytes

All three start from a real τ²-bench results file of the shared data
(../shared/data/tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json):
`sims` replicates its simulations and tasks under new ids (simulation k of
copy c runs task `<id>-c`, whose gold actions are the original task's), so
every recorded check is reproduced as in the original; `messages` repeats one
simulation's tool-calling turns (assistant call + tool result, with fresh
call ids) until it has N messages, and records one action check per call;
`jsonl` writes canonical trajectories (9 messages, 7 operations x 2 labels)
until the file reaches the size. Deterministic (no randomness). Not committed
output: the files are large.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(
    HERE,
    "../../shared/data/tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json",
)


def load():
    with open(SOURCE, encoding="utf-8") as f:
        return json.load(f)


def sims(n, out):
    d = load()
    # Without `raw_data` (the provider's copy of each message, skipped by the
    # readers): a third of the size.
    for s in d["simulations"]:
        for m in s["messages"]:
            m.pop("raw_data", None)
    base = d["simulations"]
    tasks = {t["id"]: t for t in d["tasks"]}
    new_sims, new_tasks = [], []
    copies = (n + len(base) - 1) // len(base)
    for c in range(copies):
        for t in d["tasks"]:
            t2 = dict(t)
            t2["id"] = f"{t['id']}-{c}"
            new_tasks.append(t2)
        for s in base:
            if len(new_sims) == n:
                break
            s2 = dict(s)
            s2["id"] = f"{s['id']}-{c}"
            s2["task_id"] = f"{s['task_id']}-{c}"
            assert s["task_id"] in tasks
            new_sims.append(s2)
    d["simulations"] = new_sims
    d["tasks"] = new_tasks
    with open(out, "w", encoding="utf-8") as f:
        json.dump(d, f)


def messages(n, out):
    d = load()
    # The simulation with the most tool calls.
    s = max(d["simulations"], key=lambda s: sum(len(m.get("tool_calls") or []) for m in s["messages"]))
    turns = []  # (assistant message with calls, its tool results)
    msgs = s["messages"]
    for i, m in enumerate(msgs):
        if m["role"] == "assistant" and m.get("tool_calls"):
            results = [r for r in msgs[i + 1 : i + 1 + len(m["tool_calls"])] if r["role"] == "tool"]
            turns.append((m, results))
    assert turns
    out_msgs = list(msgs[:2])
    checks = []
    k = 0
    while len(out_msgs) < n:
        m, results = turns[k % len(turns)]
        m2 = dict(m)
        m2["tool_calls"] = []
        ids = []
        for j, c in enumerate(m["tool_calls"]):
            c2 = dict(c)
            c2["id"] = f"call-{k}-{j}"
            args = dict(c2.get("arguments") or {})
            args["nonce"] = k  # every call distinct
            c2["arguments"] = args
            m2["tool_calls"].append(c2)
            ids.append(c2["id"])
            checks.append({"action": {"action_id": c2["id"], "name": c2["name"], "arguments": args},
                           "action_match": True, "tool_type": "read"})
        out_msgs.append(m2)
        for j, r in enumerate(results[: len(ids)]):
            r2 = dict(r)
            r2["id"] = ids[j]
            out_msgs.append(r2)
        k += 1
    s = dict(s)
    s["messages"] = out_msgs[:n]
    s["reward_info"] = dict(s["reward_info"])
    # Only checks whose call survived the cut are true.
    kept = {c["id"] for m in s["messages"] if m["role"] == "assistant" for c in (m.get("tool_calls") or [])}
    for c in checks:
        c["action_match"] = c["action"]["action_id"] in kept
    s["reward_info"]["action_checks"] = checks
    d["simulations"] = [s]
    with open(out, "w", encoding="utf-8") as f:
        json.dump(d, f)


def jsonl(mb, out):
    target = mb * 1_000_000
    ops = ["GI", "PL", "TU", "ST", "AS", "RC", "TM"]
    written = 0
    i = 0
    with open(out, "w", encoding="utf-8") as f:
        while written < target:
            model = f"model-{i % 50}"
            task = f"task-{(i // 50) % 1536}"
            t = {
                "id": f"t-{i}",
                "model": model,
                "family": f"fam-{i % 50 // 5}",
                "task_id": task,
                "trial": i // (50 * 1536),
                "reward": (i % 3) / 2,
                "messages": [
                    {"role": "user", "content": "Please change my flight to the earliest one on Friday, thank you."},
                    {"role": "assistant", "content": "Let me look up your reservation first.",
                     "tool_calls": [{"id": f"c{i}a", "name": "get_reservation_details", "arguments": {"reservation_id": f"R{i:06d}"}}]},
                    {"role": "tool", "tool_call_id": f"c{i}a", "content": "{\"reservation_id\": \"R\", \"flights\": [{\"origin\": \"JFK\", \"destination\": \"LAX\", \"date\": \"2024-05-17\"}]}"},
                    {"role": "assistant", "content": "I found your reservation. Which cabin would you like?"},
                    {"role": "user", "content": "Economy, please."},
                    {"role": "assistant", "content": "Searching flights.",
                     "tool_calls": [{"id": f"c{i}b", "name": "search_direct_flight", "arguments": {"origin": "JFK", "destination": "LAX", "date": "2024-05-17"}}]},
                    {"role": "tool", "tool_call_id": f"c{i}b", "content": "[{\"flight_number\": \"HAT001\", \"status\": \"available\"}]"},
                    {"role": "assistant", "content": "Flight HAT001 is available. Shall I book it?"},
                    {"role": "user", "content": "Yes."},
                ],
                "labels": {op: [((i + k) % 3) / 2, ((i * 7 + k) % 3) / 2] for k, op in enumerate(ops)},
            }
            line = json.dumps(t) + "\n"
            f.write(line)
            written += len(line.encode("utf-8"))
            i += 1


if __name__ == "__main__":
    kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    {"sims": sims, "messages": messages, "jsonl": jsonl}[kind](size, out)
