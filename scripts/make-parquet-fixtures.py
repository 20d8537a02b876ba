#!/usr/bin/env python3
"""Write the Parquet trajectory fixtures of gapscope-data, deterministically.

    python3 scripts/make-parquet-fixtures.py              # the committed fixtures
    python3 scripts/make-parquet-fixtures.py --bench PATH [--mb 60]
                                                           # a synthetic file for
                                                           # benches/read.rs (not committed)

Needs pyarrow (e.g. `python3 -m venv /tmp/pa && /tmp/pa/bin/pip install pyarrow`).
The schemas follow public Hugging Face trajectory sets (their dataset cards,
`dataset_info.features`), with made-up contents:

- `canonical_snappy.parquet` / `canonical_plain.parquet`: the schema gapscope
  documents (`instance_id`, `model_name`, `messages` list<struct{role,
  content, tool_calls, tool_call_id}>, `resolved`, `reward`), snappy and
  uncompressed, two rows per row group;
- `nebius_swe_agent.parquet`: nebius/SWE-agent-trajectories (`instance_id`,
  `model_name`, `target`, `trajectory` list<struct{cutoff_date, mask, role,
  system_prompt, text}>, `exit_status`, `generated_patch`, `eval_logs`);
- `openhands_rebench.parquet`: nebius/SWE-rebench-openhands-trajectories and
  nvidia/SWE-Zero-openhands-trajectories (`trajectory_id`, `instance_id`,
  `repo`, `trajectory` list<struct{content, name, role, tool_call_id,
  tool_calls list<struct{function struct{arguments, name}, id, type}>}>,
  `resolved` int64, `dataset`), no model column;
- `swe_smith.parquet`: SWE-bench/SWE-smith-trajectories style (`messages` a
  JSON string, `model`, `traj_id`, `resolved` bool);
- `hostile/`: a zstd file, wrong column types, a null messages list, no
  `instance_id`, no rows (the hostile suite truncates files itself).

After a change, the tests' numbers are recounted from the files with pyarrow
(`--count` prints rows, messages and tool calls per file).
"""
import argparse
import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "crates", "gapscope-data", "tests", "fixtures", "parquet")

CALL = pa.struct([
    ("id", pa.string()),
    ("type", pa.string()),
    ("function", pa.struct([("name", pa.string()), ("arguments", pa.string())])),
])
MESSAGE = pa.struct([
    ("role", pa.string()),
    ("content", pa.string()),
    ("tool_calls", pa.list_(CALL)),
    ("tool_call_id", pa.string()),
])


def call(i, name, args):
    return {"id": f"call_{i}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, sort_keys=True)}}


def conversation(task, k, fixed):
    """A short coding-agent trajectory: system, user, `k` tool rounds, a closing answer."""
    msgs = [
        {"role": "system", "content": "You are a coding agent.", "tool_calls": None, "tool_call_id": None},
        {"role": "user", "content": f"Fix the issue of {task}.", "tool_calls": None, "tool_call_id": None},
    ]
    for i in range(k):
        name = ["bash", "str_replace_editor"][i % 2]
        args = {"command": f"grep -rn bug src/{i}.py"} if name == "bash" else {"path": f"src/{i}.py", "old": "a", "new": "b"}
        msgs.append({"role": "assistant", "content": f"Step {i}: look at src/{i}.py.",
                     "tool_calls": [call(f"{task}-{i}", name, args)], "tool_call_id": None})
        msgs.append({"role": "tool", "content": f"src/{i}.py:{i + 1}: bug", "tool_calls": None,
                     "tool_call_id": f"call_{task}-{i}"})
    msgs.append({"role": "assistant", "content": "Fixed." if fixed else "I could not fix it.",
                 "tool_calls": None, "tool_call_id": None})
    return msgs


def canonical():
    rows = [
        # instance_id, model, tool rounds, resolved, reward
        ("astropy__astropy-12907", "gpt-4o-2024-08-06", 2, True, None),
        ("django__django-11099", "gpt-4o-2024-08-06", 1, False, None),
        ("sympy__sympy-20590", "gpt-4o-2024-08-06", 3, None, 0.25),
        ("astropy__astropy-12907", "claude-3-5-sonnet-20241022", 1, True, 1.0),
        ("django__django-11099", "claude-3-5-sonnet-20241022", 0, None, None),
    ]
    schema = pa.schema([
        ("instance_id", pa.string()),
        ("model_name", pa.string()),
        ("messages", pa.list_(MESSAGE)),
        ("resolved", pa.bool_()),
        ("reward", pa.float64()),
    ])
    return pa.table({
        "instance_id": [r[0] for r in rows],
        "model_name": [r[1] for r in rows],
        "messages": [conversation(r[0], r[2], bool(r[3])) for r in rows],
        "resolved": [r[3] for r in rows],
        "reward": [r[4] for r in rows],
    }, schema=schema)


def nebius():
    step = pa.struct([("cutoff_date", pa.string()), ("mask", pa.bool_()), ("role", pa.string()),
                      ("system_prompt", pa.string()), ("text", pa.string())])
    def traj(task, n):
        out = [{"cutoff_date": "01.01.2023", "mask": False, "role": "system",
                "system_prompt": "SETTING: you are an autonomous programmer.", "text": None},
               {"cutoff_date": None, "mask": False, "role": "user", "system_prompt": None,
                "text": f"We're currently solving the following issue: {task}"}]
        for i in range(n):
            out.append({"cutoff_date": None, "mask": True, "role": "ai", "system_prompt": None,
                        "text": f"DISCUSSION\nLook at file {i}.\n```\nopen src/{i}.py\n```"})
            out.append({"cutoff_date": None, "mask": False, "role": "user", "system_prompt": None,
                        "text": f"[File: src/{i}.py (10 lines total)]"})
        return out
    rows = [("pydicom__pydicom-1694", "swe-agent-llama-70b", True, 2, "submitted"),
            ("pvlib__pvlib-python-1854", "swe-agent-llama-70b", False, 1, "submitted (exit_cost)"),
            ("pydicom__pydicom-1694", "swe-agent-qwen-72b", False, 3, "early_exit")]
    schema = pa.schema([("instance_id", pa.string()), ("model_name", pa.string()), ("target", pa.bool_()),
                        ("trajectory", pa.list_(step)), ("exit_status", pa.string()),
                        ("generated_patch", pa.string()), ("eval_logs", pa.string())])
    return pa.table({
        "instance_id": [r[0] for r in rows], "model_name": [r[1] for r in rows],
        "target": [r[2] for r in rows], "trajectory": [traj(r[0], r[3]) for r in rows],
        "exit_status": [r[4] for r in rows],
        "generated_patch": ["diff --git a/x b/x\n"] * len(rows), "eval_logs": ["Will execute tests"] * len(rows),
    }, schema=schema)


def openhands():
    tcall = pa.struct([("function", pa.struct([("arguments", pa.string()), ("name", pa.string())])),
                       ("id", pa.string()), ("type", pa.string())])
    msg = pa.struct([("content", pa.string()), ("name", pa.string()), ("role", pa.string()),
                     ("tool_call_id", pa.string()), ("tool_calls", pa.list_(tcall))])
    def traj(task, n):
        out = [{"content": "You are OpenHands agent.", "name": None, "role": "system", "tool_call_id": None, "tool_calls": None},
               {"content": f"<uploaded_files>{task}</uploaded_files>", "name": None, "role": "user", "tool_call_id": None, "tool_calls": None}]
        for i in range(n):
            cid = f"toolu_{task[:4]}{i}"
            out.append({"content": "Let me run the tests.", "name": None, "role": "assistant", "tool_call_id": None,
                        "tool_calls": [{"function": {"arguments": json.dumps({"command": f"pytest -k t{i}"}), "name": "execute_bash"},
                                        "id": cid, "type": "function"}]})
            out.append({"content": f"{i} passed", "name": "execute_bash", "role": "tool", "tool_call_id": cid, "tool_calls": None})
        out.append({"content": None, "name": None, "role": "assistant", "tool_call_id": None,
                    "tool_calls": [{"function": {"arguments": "{}", "name": "finish"}, "id": f"toolu_{task[:4]}end", "type": "function"}]})
        return out
    rows = [("chatcmpl-0001", "PyPSA__linopy-79", "PyPSA/linopy", 2, 1, "SWE-rebench"),
            ("chatcmpl-0002", "tianocore__edk2-pytool-library-372", "tianocore/edk2-pytool-library", 1, 0, "SWE-rebench"),
            ("chatcmpl-0003", "PyPSA__linopy-79", "PyPSA/linopy", 0, 0, "SWE-Gym"),
            ("chatcmpl-0004", "JeffLIrion__python-androidtv-351", "JeffLIrion/python-androidtv", 1, None, "SWE-rebench")]
    schema = pa.schema([("trajectory_id", pa.string()), ("instance_id", pa.string()), ("repo", pa.string()),
                        ("trajectory", pa.list_(msg)), ("model_patch", pa.string()), ("resolved", pa.int64()),
                        ("dataset", pa.string())])
    return pa.table({
        "trajectory_id": [r[0] for r in rows], "instance_id": [r[1] for r in rows], "repo": [r[2] for r in rows],
        "trajectory": [traj(r[1], r[3]) for r in rows], "model_patch": ["diff"] * len(rows),
        "resolved": [r[4] for r in rows], "dataset": [r[5] for r in rows],
    }, schema=schema)


def swe_smith():
    def msgs(task, n):
        out = [{"role": "system", "content": "You are a helpful assistant."},
               {"role": "user", "content": [{"type": "text", "text": f"Solve {task}"}]}]
        for i in range(n):
            out.append({"role": "assistant", "content": "",
                        "tool_calls": [{"id": f"c{i}", "type": "function",
                                        "function": {"name": "bash", "arguments": json.dumps({"command": "ls"})}}]})
            out.append({"role": "tool", "tool_call_id": f"c{i}", "content": [{"type": "text", "text": "a.py b.py"}]})
        return json.dumps(out, sort_keys=True)
    rows = [("oauthlib__oauthlib.1fd52536.combine_file__09vlzwgc", "claude-3-7-sonnet-20250219", "t-1", 2, True),
            ("pydantic__pydantic.acb0f10f.pr_5322", "claude-3-7-sonnet-20250219", "t-2", 1, False)]
    schema = pa.schema([("messages", pa.string()), ("instance_id", pa.string()), ("resolved", pa.bool_()),
                        ("model", pa.string()), ("traj_id", pa.string()), ("patch", pa.string())])
    return pa.table({"messages": [msgs(r[0], r[3]) for r in rows], "instance_id": [r[0] for r in rows],
                     "resolved": [r[4] for r in rows], "model": [r[1] for r in rows],
                     "traj_id": [r[2] for r in rows], "patch": ["diff"] * len(rows)}, schema=schema)


def hostile(out):
    os.makedirs(out, exist_ok=True)
    t = canonical()
    pq.write_table(t, os.path.join(out, "zstd.parquet"), compression="zstd")
    # `messages` an integer, `instance_id` a list of strings.
    pq.write_table(pa.table({"instance_id": ["a", "b"], "model_name": ["m", "m"], "messages": [1, 2]}),
                   os.path.join(out, "messages_int.parquet"))
    pq.write_table(pa.table({"instance_id": [["a"], ["b"]], "model_name": ["m", "m"],
                             "messages": t.column("messages").slice(0, 2)}),
                   os.path.join(out, "instance_id_list.parquet"))
    # Row 1 of 3 has a null messages list; row 2 a message without a role.
    m = t.column("messages").to_pylist()[:3]
    m[1] = None
    m[2] = [{"role": None, "content": "no role", "tool_calls": None, "tool_call_id": None}]
    pq.write_table(pa.table({"instance_id": ["a", "b", "c"], "model_name": ["m", "m", "m"],
                             "messages": pa.array(m, type=pa.list_(MESSAGE))}),
                   os.path.join(out, "null_messages.parquet"), row_group_size=2)
    pq.write_table(pa.table({"task": ["a"], "model_name": ["m"], "messages": t.column("messages").slice(0, 1)}),
                   os.path.join(out, "no_instance_id.parquet"))
    pq.write_table(t.slice(0, 0), os.path.join(out, "no_rows.parquet"))


def write_all():
    os.makedirs(OUT, exist_ok=True)
    t = canonical()
    pq.write_table(t, os.path.join(OUT, "canonical_snappy.parquet"), compression="snappy", row_group_size=2)
    pq.write_table(t, os.path.join(OUT, "canonical_plain.parquet"), compression="none", row_group_size=2)
    pq.write_table(nebius(), os.path.join(OUT, "nebius_swe_agent.parquet"), compression="snappy")
    pq.write_table(openhands(), os.path.join(OUT, "openhands_rebench.parquet"), compression="snappy")
    pq.write_table(swe_smith(), os.path.join(OUT, "swe_smith.parquet"), compression="snappy")
    hostile(os.path.join(OUT, "hostile"))


def count():
    """Rows, messages and tool calls per fixture, read by pyarrow (the tests' numbers)."""
    for name in sorted(os.listdir(OUT)):
        if not name.endswith(".parquet"):
            continue
        t = pq.read_table(os.path.join(OUT, name))
        col = "messages" if "messages" in t.column_names else "trajectory"
        msgs = t.column(col).to_pylist()
        if msgs and isinstance(msgs[0], str):
            msgs = [json.loads(m) for m in msgs]
        n = [len(m) for m in msgs]
        calls = [sum(len(x.get("tool_calls") or []) for x in m) for m in msgs]
        f = pq.ParquetFile(os.path.join(OUT, name))
        print(f"{name}: rows {t.num_rows}, row groups {f.num_row_groups}, messages {n}, tool calls {calls}")


def bench(path, mb):
    """About `mb` MB of snappy Parquet in the canonical schema, 1,000 rows a row group."""
    rows, size, k = [], 0, 0
    parts = []
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    writer = None
    while True:
        task = f"repo{k % 500}__proj-{k}"
        m = conversation(task, 8 + k % 17, k % 3 == 0)
        for x in m:
            if x["role"] == "tool":
                x["content"] = (x["content"] + " ") * (20 + k % 40)
        rows.append((task, f"model-{k % 7}", m, k % 3 == 0, None if k % 5 else (k % 11) / 10))
        k += 1
        if len(rows) == 1000:
            t = pa.table({"instance_id": [r[0] for r in rows], "model_name": [r[1] for r in rows],
                          "messages": pa.array([r[2] for r in rows], type=pa.list_(MESSAGE)),
                          "resolved": [r[3] for r in rows], "reward": pa.array([r[4] for r in rows], type=pa.float64())})
            if writer is None:
                writer = pq.ParquetWriter(path, t.schema, compression="snappy")
            writer.write_table(t, row_group_size=1000)
            rows = []
            writer_size = os.path.getsize(path) if os.path.exists(path) else 0
            parts.append(writer_size)
            if writer_size >= mb * 1e6:
                break
    writer.close()
    print(f"wrote {path}: {k} rows, {os.path.getsize(path) / 1e6:.1f} MB")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", metavar="PATH")
    ap.add_argument("--mb", type=float, default=60)
    ap.add_argument("--count", action="store_true")
    a = ap.parse_args()
    if a.bench:
        bench(a.bench, a.mb)
    elif a.count:
        count()
    else:
        write_all()
        count()
    return 0


if __name__ == "__main__":
    sys.exit(main())
