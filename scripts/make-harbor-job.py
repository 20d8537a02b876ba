#!/usr/bin/env python3
"""Write Harbor job folders: the small test fixture, or a synthetic job.

The layout and the fields follow Harbor's own models (laude-institute/harbor,
Apache-2.0; read in the `harbor` wheel 0.26.0): `harbor/models/trial/paths.py`
(`TrialPaths`: config.json, result.json, trial.log, exception.txt, agent/,
verifier/reward.txt), `harbor/models/trial/result.py` (`TrialResult`,
`ExceptionInfo`, `AgentInfo`, `ModelInfo`), `harbor/models/verifier/result.py`
(`VerifierResult.rewards`), `harbor/job.py` (a job folder: config.json,
result.json, job.log and one folder per trial) and
`harbor/models/trajectories/*.py` (ATIF).

  scripts/make-harbor-job.py fixture [OUT]
      The fixture of crates/gapscope-data/tests/fixtures/harbor/ (OUT, by
      default that folder), built from the shared golden ATIF trajectories
      in ../shared/data/external/harbor_atif/atif_golden/ (copied unchanged
      as the trials' agent/trajectory.json).

  scripts/make-harbor-job.py synthetic OUT --trials N [--trial-bytes B] [--seed S]
      A synthetic job of N trials, each trajectory about B bytes (default
      1 MB); every 10th trial an infrastructure error, every 7th an agent
      timeout with a reward; rewards 0/1 from the seed. For benchmarks of
      the folder reader (peak memory, progress).
"""

import argparse
import json
import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "..", "shared", "data", "external", "harbor_atif", "atif_golden")
FIXTURE = os.path.join(ROOT, "crates", "gapscope-data", "tests", "fixtures", "harbor")

T0 = "2025-11-02T10:00:00.000000Z"
T1 = "2025-11-02T10:04:00.000000Z"


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        if isinstance(data, str):
            f.write(data)
        else:
            json.dump(data, f, indent=4)
            f.write("\n")


def trial_config(trial_name, task, agent, model, job_dir):
    return {
        "task": {"path": f"tasks/{task}", "source": "terminal-bench"},
        "trial_name": trial_name,
        "trials_dir": job_dir,
        "timeout_multiplier": 1.0,
        "agent": {"name": agent, "model_name": model, "kwargs": {}},
        "environment": {"type": "docker", "delete": True},
        "verifier": {"disable": False},
    }


def trial_result(trial_name, task, agent, version, provider, model, *, uuid,
                 rewards=None, exception=None, tokens=None, source="terminal-bench",
                 job_dir="jobs/job-small"):
    model_info = {"name": model, "provider": provider} if model else None
    r = {
        "id": uuid,
        "task_name": task,
        "trial_name": trial_name,
        "trial_uri": f"file:///{job_dir}/{trial_name}",
        "task_id": {"path": f"tasks/{task}"},
        "source": source,
        "task_checksum": "0" * 64,
        "config": trial_config(trial_name, task, agent, f"{provider}/{model}" if model else None, job_dir),
        "agent_info": {"name": agent, "version": version, "model_info": model_info},
        "agent_result": tokens,
        "verifier_result": None if rewards is None else {"rewards": rewards},
        "exception_info": exception,
        "started_at": T0,
        "finished_at": T1,
        "environment_setup": {"started_at": T0, "finished_at": T0},
        "agent_setup": None if exception and exception["exception_type"].startswith("Environment") else {"started_at": T0, "finished_at": T0},
        "agent_execution": None,
        "verifier": None,
    }
    if source is None:
        del r["source"]
        r["config"]["task"].pop("source")
    return r


def exception(kind, message):
    return {
        "exception_type": kind,
        "exception_message": message,
        "exception_traceback": f"Traceback (most recent call last):\n  ...\n{kind}: {message}\n",
        "occurred_at": T1,
    }


def job_files(job_dir, n_trials):
    write(os.path.join(job_dir, "config.json"), {
        "job_name": os.path.basename(job_dir),
        "jobs_dir": "jobs",
        "n_attempts": 1,
        "datasets": [{"name": "terminal-bench", "path": "tasks"}],
    })
    write(os.path.join(job_dir, "result.json"), {
        "id": "00000000-0000-4000-8000-000000000000",
        "started_at": T0,
        "finished_at": T1,
        "n_total_trials": n_trials,
        "stats": {"n_completed_trials": n_trials},
    })
    write(os.path.join(job_dir, "job.log"), "synthetic job log\n")


def fixture(out):
    golden = {name: open(os.path.join(GOLDEN, name), encoding="utf-8").read()
              for name in ("openhands__hello-world.trajectory.json",
                           "terminus_2__hello-world-timeout.trajectory.json")}
    openhands = golden["openhands__hello-world.trajectory.json"]
    terminus = golden["terminus_2__hello-world-timeout.trajectory.json"]
    if os.path.isdir(out):
        for sub in ("job-small", "trial-lone"):
            shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    job = os.path.join(out, "job-small")
    job_files(job, 4)

    # 1. Rewarded 1: OpenHands, gpt-4o.
    t = os.path.join(job, "hello-world__Ok1aaaa")
    write(os.path.join(t, "config.json"), trial_config("hello-world__Ok1aaaa", "hello-world", "openhands", "openai/gpt-4o", "jobs/job-small"))
    write(os.path.join(t, "result.json"), trial_result(
        "hello-world__Ok1aaaa", "hello-world", "openhands", "1.0.0", "openai", "gpt-4o",
        uuid="11111111-1111-4111-8111-111111111111", rewards={"reward": 1.0},
        tokens={"n_input_tokens": 220, "n_cache_tokens": 0, "n_output_tokens": 80, "cost_usd": 0.00135}))
    write(os.path.join(t, "agent", "trajectory.json"), openhands)
    write(os.path.join(t, "verifier", "reward.txt"), "1\n")
    write(os.path.join(t, "trial.log"), "trial log\n")

    # 2. Rewarded 0: OpenHands, claude-sonnet-4-5.
    t = os.path.join(job, "hello-world__Zero2bb")
    write(os.path.join(t, "config.json"), trial_config("hello-world__Zero2bb", "hello-world", "openhands", "anthropic/claude-sonnet-4-5", "jobs/job-small"))
    write(os.path.join(t, "result.json"), trial_result(
        "hello-world__Zero2bb", "hello-world", "openhands", "1.0.0", "anthropic", "claude-sonnet-4-5",
        uuid="22222222-2222-4222-8222-222222222222", rewards={"reward": 0.0}))
    write(os.path.join(t, "agent", "trajectory.json"), openhands)
    write(os.path.join(t, "verifier", "reward.txt"), "0\n")
    write(os.path.join(t, "trial.log"), "trial log\n")

    # 3. Agent timeout with a verifier reward (scored): Terminus 2, gpt-4o.
    t = os.path.join(job, "hello-world-timeout__Time3cc")
    write(os.path.join(t, "config.json"), trial_config("hello-world-timeout__Time3cc", "hello-world-timeout", "terminus-2", "openai/gpt-4o", "jobs/job-small"))
    write(os.path.join(t, "result.json"), trial_result(
        "hello-world-timeout__Time3cc", "hello-world-timeout", "terminus-2", "2.0.0", "openai", "gpt-4o",
        uuid="33333333-3333-4333-8333-333333333333", rewards={"reward": 1.0},
        exception=exception("AgentTimeoutError", "Agent execution timed out after 15.0 seconds")))
    write(os.path.join(t, "agent", "trajectory.json"), terminus)
    write(os.path.join(t, "verifier", "reward.txt"), "1\n")
    write(os.path.join(t, "exception.txt"), "AgentTimeoutError: Agent execution timed out after 15.0 seconds\n")
    write(os.path.join(t, "trial.log"), "trial log\n")

    # 4. Infrastructure error: the environment never started (no agent or
    # verifier files; no verifier result).
    t = os.path.join(job, "hello-world__Env4ddd")
    write(os.path.join(t, "config.json"), trial_config("hello-world__Env4ddd", "hello-world", "terminus-2", "openai/gpt-4o", "jobs/job-small"))
    write(os.path.join(t, "result.json"), trial_result(
        "hello-world__Env4ddd", "hello-world", "terminus-2", "2.0.0", "openai", "gpt-4o",
        uuid="44444444-4444-4444-8444-444444444444",
        exception=exception("EnvironmentStartTimeoutError", "Environment start timed out after 600.0 seconds")))
    write(os.path.join(t, "exception.txt"), "EnvironmentStartTimeoutError: Environment start timed out after 600.0 seconds\n")
    write(os.path.join(t, "trial.log"), "trial log\n")

    # A lone trial whose result.json has no verifier result and no source:
    # the reward comes from verifier/reward.txt, the task set is unknown.
    t = os.path.join(out, "trial-lone", "hello-world__Lone5ee")
    write(os.path.join(t, "config.json"), trial_config("hello-world__Lone5ee", "hello-world", "openhands", "openai/gpt-4o", "trials"))
    write(os.path.join(t, "result.json"), trial_result(
        "hello-world__Lone5ee", "hello-world", "openhands", "1.0.0", "openai", "gpt-4o",
        uuid="55555555-5555-4555-8555-555555555555", source=None, job_dir="trials"))
    write(os.path.join(t, "agent", "trajectory.json"), openhands)
    write(os.path.join(t, "verifier", "reward.txt"), "1\n")


def synthetic_trajectory(rng, n_steps, model):
    steps = [{"step_id": 1, "source": "user", "message": "Solve the task in /app."}]
    for k in range(n_steps):
        cid = f"call_{k}"
        steps.append({
            "step_id": k + 2,
            "source": "agent",
            "model_name": model,
            "message": "Analysis: " + "x" * rng.randint(100, 300),
            "reasoning_content": "Thinking " + "y" * rng.randint(50, 200),
            "tool_calls": [{"tool_call_id": cid, "function_name": "bash_command",
                            "arguments": {"keystrokes": f"ls -la /app/{k}\n", "duration": 0.1}}],
            "observation": {"results": [{"source_call_id": cid,
                                         "content": "total 0\n" + "z" * rng.randint(100, 400)}]},
            "metrics": {"prompt_tokens": 500 + k, "completion_tokens": 40, "cost_usd": 0.001},
        })
    return {
        "schema_version": "ATIF-v1.6",
        "session_id": f"session-{rng.getrandbits(64):016x}",
        "agent": {"name": "terminus-2", "version": "2.0.0", "model_name": model},
        "steps": steps,
        "final_metrics": {"total_prompt_tokens": sum(s.get("metrics", {}).get("prompt_tokens", 0) for s in steps),
                          "total_completion_tokens": 40 * n_steps, "total_steps": len(steps)},
    }


def synthetic(out, n_trials, trial_bytes, seed):
    rng = random.Random(seed)
    job_files(out, n_trials)
    models = ["gpt-4o", "claude-sonnet-4-5", "gemini-2.5-pro"]
    n_steps = max(1, trial_bytes // 900)
    for i in range(n_trials):
        name = f"task-{i // len(models):05d}__S{i:06d}"
        task = f"task-{i // len(models):05d}"
        model = models[i % len(models)]
        t = os.path.join(out, name)
        exc = None
        rewards = {"reward": float(rng.random() < 0.5)}
        if i % 10 == 9:
            exc = exception("EnvironmentStartTimeoutError", "Environment start timed out")
            rewards = None
        elif i % 7 == 6:
            exc = exception("AgentTimeoutError", "Agent execution timed out")
        write(os.path.join(t, "result.json"), trial_result(
            name, task, "terminus-2", "2.0.0", "openai", model, uuid=f"{i:08d}-0000-4000-8000-{seed:012d}",
            rewards=rewards, exception=exc, job_dir=out))
        write(os.path.join(t, "trial.log"), "log\n")
        if rewards is not None:
            os.makedirs(os.path.join(t, "agent"), exist_ok=True)
            with open(os.path.join(t, "agent", "trajectory.json"), "w", encoding="utf-8") as f:
                json.dump(synthetic_trajectory(rng, n_steps, model), f)
            write(os.path.join(t, "verifier", "reward.txt"), f"{rewards['reward']:g}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fixture")
    f.add_argument("out", nargs="?", default=FIXTURE)
    s = sub.add_parser("synthetic")
    s.add_argument("out")
    s.add_argument("--trials", type=int, required=True)
    s.add_argument("--trial-bytes", type=int, default=1_000_000)
    s.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.cmd == "fixture":
        fixture(a.out)
    else:
        synthetic(a.out, a.trials, a.trial_bytes, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
