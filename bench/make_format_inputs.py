"""Write the ≥ 50 MB synthetic inputs of the per-format read rows.

benches/read.rs (issue 16, "Performance") runs this once into the target
dir (nothing here is committed): each input is made by replicating a
committed fixture under crates/gapscope-data/tests/fixtures/<format>/ until
it passes --mb megabytes, every copy with new ids (each id-like field gets
a per-copy suffix, or an integer offset that keeps step numbers
sequential), so nothing is a repeat of another record:

  tau3_simulation.json     one τ³ simulation, its `messages` replicated
  tau3_results/            a τ³ results directory (results.json with a
                           simulation_index and its tasks, and one
                           simulations/<id>.json per simulation)
  taubench_v1.json         a τ-bench v1 results list
  atif.trajectory.json     one ATIF trajectory, its `steps` replicated
  swe_agent.traj           one SWE-agent trajectory, its `history` replicated
  mini_swe_agent.json      one mini-swe-agent trajectory, its `messages`
  gemini_cli.json          one Gemini CLI session, its `messages`
  openhands_events.json    one OpenHands event list
  openhands_output.jsonl   OpenHands output.jsonl, one instance a line
  claude_code.jsonl        one Claude Code session (the uuid chain goes on)
  codex.jsonl              one Codex rollout (its items after the header)

  python3 bench/make_format_inputs.py OUT_DIR [--mb 55] [--only NAME ...]

An input already present is kept. Prints `made <name> <bytes>` per input.
"""

import argparse
import copy
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "crates", "gapscope-data", "tests", "fixtures")

# Fields that identify a record or refer to one: strings get "~<copy>",
# integers an offset of <copy> × (their span in the template).
ID_KEYS = {
    "id", "step_id", "tool_call_id", "call_id", "source_call_id", "uuid",
    "parentUuid", "tool_use_id", "cause", "action_id", "instance_id",
    "task_id", "sessionId",
}


def int_spans(v, spans):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ID_KEYS and isinstance(x, int) and not isinstance(x, bool):
                lo, hi = spans.get(k, (x, x))
                spans[k] = (min(lo, x), max(hi, x))
            int_spans(x, spans)
    elif isinstance(v, list):
        for x in v:
            int_spans(x, spans)
    return spans


def perturb(v, c, spans, keep=()):
    """A copy of `v` whose id fields are made unique to copy `c`."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in ID_KEYS and k not in keep:
                if isinstance(x, str) and x:
                    x = f"{x}~{c}"
                elif isinstance(x, int) and not isinstance(x, bool):
                    lo, hi = spans[k]
                    x = x + c * (hi - lo + 1)
                else:
                    x = perturb(x, c, spans, keep)
            else:
                x = perturb(x, c, spans, keep)
            out[k] = x
        return out
    if isinstance(v, list):
        return [perturb(x, c, spans, keep) for x in v]
    return v


def load(*parts):
    with open(os.path.join(FIX, *parts), encoding="utf-8") as f:
        return json.load(f)


def lines(*parts):
    with open(os.path.join(FIX, *parts), encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def size(v):
    return len(json.dumps(v).encode())


def replicated(items, target, keep=()):
    """Copies of `items` (a list), each perturbed, to about `target` bytes."""
    spans = int_spans(items, {})
    per = max(1, size(items))
    out = []
    for c in range((target + per - 1) // per):
        out.extend(perturb(items, c, spans, keep))
    return out


def write_json(path, v):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(v, f)


def write_lines(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r))
            f.write("\n")


def whole(doc, key, target, keep=()):
    doc = copy.deepcopy(doc)
    doc[key] = replicated(doc[key], target, keep)
    return doc


def tau3_simulation(path, target):
    sim = load("tau3", "whissle_dir", "simulations", "f909dda0-c36b-4dd2-ae42-e2fc044f1445.json")
    write_json(path, whole(sim, "messages", target))


def tau3_results(path, target):
    base = os.path.join(FIX, "tau3", "whissle_dir")
    with open(os.path.join(base, "results.json"), encoding="utf-8") as f:
        results = json.load(f)
    sims = {}
    for entry in results["simulation_index"]:
        with open(os.path.join(base, "simulations", entry["id"] + ".json"), encoding="utf-8") as f:
            sims[entry["id"]] = json.load(f)
    per = sum(size(s) for s in sims.values())
    tmp = path + ".partial"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "simulations"))
    tasks, index = [], []
    for c in range((target + per - 1) // per):
        for t in results["tasks"]:
            t = dict(t)
            t["id"] = f"{t['id']}~{c}"
            tasks.append(t)
        for entry in results["simulation_index"]:
            # A new uuid-shaped id per copy.
            new_id = f"{c:08x}" + entry["id"][8:]
            e = dict(entry, id=new_id, task_id=f"{entry['task_id']}~{c}")
            index.append(e)
            s = dict(sims[entry["id"]], id=new_id, task_id=e["task_id"])
            write_json(os.path.join(tmp, "simulations", new_id + ".json"), s)
    write_json(os.path.join(tmp, "results.json"), dict(results, tasks=tasks, simulation_index=index))
    os.rename(tmp, path)


def taubench_v1(path, target):
    write_json(path, replicated([load("taubench_v1", "docent_tb_airline_single.json")], target))


def atif(path, target):
    doc = load("atif", "openhands__hello-world.trajectory.json")
    write_json(path, whole(doc, "steps", target))


def swe_agent(path, target):
    write_json(path, whole(load("swe_agent", "function_calling_simple.traj"), "history", target))


def mini_swe_agent(path, target):
    write_json(path, whole(load("swe_agent", "mini-swe-agent-trajectory.json"), "messages", target))


def gemini_cli(path, target):
    write_json(path, whole(load("gemini_cli", "gemini-cli-trajectory.json"), "messages", target))


def openhands_events(path, target):
    write_json(path, replicated(load("openhands", "openhands_trajectory.json"), target))


def openhands_output(path, target):
    rows = lines("openhands", "output_trimmed.jsonl")
    per = size(rows)
    out = []
    for c in range((target + per - 1) // per):
        for r in rows:
            out.append(dict(r, instance_id=f"{r['instance_id']}~{c}"))
    write_lines(path, out)


def claude_code(path, target):
    rows = lines("claude_code", "tool_call_conversation.jsonl")
    rows = [r for r in rows if r.get("sessionId")]
    out = replicated(rows, target, keep=("sessionId",))
    # One long session: each copy's first line follows the last one before it.
    last = None
    for k, r in enumerate(out):
        if r.get("parentUuid") is None and last is not None:
            r["parentUuid"] = last
        last = r.get("uuid", last)
    write_lines(path, out)


def codex(path, target):
    rows = lines("codex", "rollout-2026-08-02T11-00-00-0199bbbb-0000-7000-8000-000000000042.jsonl")
    head = [r for r in rows if r["type"] in ("session_meta", "turn_context")][:2]
    body = [r for r in rows if r not in head]
    write_lines(path, head + replicated(body, target))


MAKERS = {
    "tau3_simulation.json": tau3_simulation,
    "tau3_results": tau3_results,
    "taubench_v1.json": taubench_v1,
    "atif.trajectory.json": atif,
    "swe_agent.traj": swe_agent,
    "mini_swe_agent.json": mini_swe_agent,
    "gemini_cli.json": gemini_cli,
    "openhands_events.json": openhands_events,
    "openhands_output.jsonl": openhands_output,
    "claude_code.jsonl": claude_code,
    "codex.jsonl": codex,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=55)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    target = int(a.mb * 1e6)
    for name, make in MAKERS.items():
        if a.only and name not in a.only:
            continue
        path = os.path.join(a.out, name)
        if not os.path.exists(path):
            make(path, target)
        if os.path.isdir(path):
            n = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
        else:
            n = os.path.getsize(path)
        print(f"made {name} {n}")


if __name__ == "__main__":
    main()
