"""The write path: how fast turns go in through the public API, and what a caller waits for (issue 16).

Three figures, each a median of `--repeats` runs, for every `--tree` (a source folder to import the package from,
so a baseline checkout runs side by side) and every `--mode`:

- **live**: `Memory.add_turn` one turn at a time, `end_session` every `--session-turns` turns, no LLM, default
  Config otherwise (consolidation on). `caller turns/s` is what the loop saw; `drained turns/s` counts until every
  session is consolidated too (`close` waits for the background work); `ack p50/p99` is one `add_turn` call.
- **bulk**: `episodic ingest FILE` of the same turns as one JSON Lines file, run as a process: `durable s` is when it
  printed that the turns are stored, `total s` when the process ended (its consolidation done).
- CPU seconds of each run (the process's own), per turn.

Modes: `background` (the default Config: consolidation in a worker, session end returns once durable) and `inline`
(`consolidate_in_background="off"`: every run inside `add_turn` / `end_session`, the behaviour before issue 16).

    python bench/write.py                                   # 10,000 synthetic turns, this tree, both modes
    python bench/write.py --turns 2000 --text locomo        # LoCoMo conversations as the text
    python bench/write.py --tree base=/tmp/base/src --tree new=src --modes background
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def make_turns(n: int, text: str, session_turns: int) -> list[dict[str, Any]]:
    """`n` turns in sessions of `session_turns`: synthetic (bench.scale's corpus) or LoCoMo's real conversations
    (repeated under new session ids when `n` asks for more)."""
    if text == "synthetic":
        from bench.scale import Corpus

        raw = [t for s in Corpus().sessions(n, first_session=900_000) for t in s]
    else:
        from bench.datasets import load_locomo

        convs = load_locomo(verbose=False)
        raw = []
        while len(raw) < n:
            raw += [{"role": t.role, "content": t.text, "speaker": t.speaker, "timestamp": t.timestamp.timestamp()}
                    for conv in convs for t in conv.turns()]
    out = []
    for i, t in enumerate(raw[:n]):
        out.append({"role": t["role"], "content": t["content"], "speaker": t.get("speaker"),
                    "timestamp": t["timestamp"] if isinstance(t["timestamp"], float | int) else None,
                    "session_id": f"w{i // session_turns:06d}"})
    return out


# --- one run, in a child process (so each tree imports its own package) ----------------------------------
def run_live(turns_file: str, mode: str, session_turns: int) -> dict[str, Any]:
    from compat import make_config
    from episodic_memory import Config, Memory

    turns = json.loads(Path(turns_file).read_text())
    config = make_config(Config, {"capture.consolidate_in_background": "off" if mode == "inline" else "on"})
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(Path(tmp) / "live.db", config=config)
        mem.index()  # the model loads before the clock starts
        acks = []
        cpu0, t0 = time.process_time(), time.perf_counter()
        for i, t in enumerate(turns):
            a = time.perf_counter()
            mem.add_turn(t["role"], t["content"], session_id=t["session_id"], speaker=t["speaker"],
                         timestamp=t["timestamp"])
            acks.append(time.perf_counter() - a)
            if (i + 1) % session_turns == 0 or i + 1 == len(turns):
                mem.end_session(t["session_id"])
        caller = time.perf_counter() - t0
        mem.close()  # waits for the background consolidation
        drained = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        check = Memory(Path(tmp) / "live.db", config=make_config(Config, {"capture.consolidate_on_open": False,
                                                                             "models.embedder": "off"}))
        pending = len(check.store.sessions_needing_consolidation())
        stored = check.stats()["turns"]
        check.close()
    acks.sort()
    n = len(turns)
    return {"turns": n, "stored": stored, "pending_after": pending, "caller_s": caller, "drained_s": drained,
            "caller_turns_per_s": n / caller, "drained_turns_per_s": n / drained, "cpu_ms_per_turn": cpu / n * 1000,
            "ack_p50_ms": acks[n // 2] * 1000, "ack_p99_ms": acks[min(n - 1, int(n * 0.99))] * 1000}


def run_bulk(turns_file: str, mode: str, src: str) -> dict[str, Any]:
    turns = json.loads(Path(turns_file).read_text())
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "turns.jsonl"
        jsonl.write_text("".join(json.dumps({k: v for k, v in t.items() if v is not None}) + "\n" for t in turns))
        env = {**os.environ, "PYTHONPATH": src, "EPISODIC_CAPTURE__CONSOLIDATE_IN_BACKGROUND":
               "off" if mode == "inline" else "on"}
        cmd = [sys.executable, "-c", "import sys; from episodic_memory.cli import main; sys.exit(main())",
               "ingest", "--db", str(Path(tmp) / "bulk.db"), str(jsonl)]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert proc.stdout is not None
        durable = None
        for line in proc.stdout:
            if line.startswith("ingested") and durable is None:
                durable = time.perf_counter() - t0
        proc.wait()
        total = time.perf_counter() - t0
        if proc.returncode:
            raise RuntimeError(f"episodic ingest failed: {proc.stderr.read() if proc.stderr else ''}")
    cpu = os.times()  # the ingest process's CPU (this run's only child)
    n = len(turns)
    return {"turns": n, "durable_s": durable, "total_s": total, "durable_turns_per_s": n / durable if durable else None,
            "total_turns_per_s": n / total, "children_cpu_s": cpu.children_user + cpu.children_system}


def child(args: argparse.Namespace) -> None:
    fn = run_live if args.child == "live" else run_bulk
    extra = (args.session_turns,) if args.child == "live" else (args.src,)
    print(json.dumps(fn(args.turns_file, args.mode, *extra)))  # type: ignore[operator]


# --- the driver ---------------------------------------------------------------------------------------------
def spawn(kind: str, src: str, turns_file: str, mode: str, session_turns: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
    cmd = [sys.executable, __file__, "--child", kind, "--turns-file", turns_file, "--mode", mode,
           "--session-turns", str(session_turns), "--src", src]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise RuntimeError(f"{kind} run failed ({src}, {mode}):\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["loadavg"] = loadavg()
    return result


def median(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(values) if values else None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--turns", type=int, default=10_000)
    p.add_argument("--text", choices=["synthetic", "locomo"], default="synthetic")
    p.add_argument("--session-turns", type=int, default=50, help="end_session after this many turns")
    p.add_argument("--tree", action="append", default=[], help="NAME=SRC_DIR (default: this checkout's src)")
    p.add_argument("--modes", nargs="+", default=["background", "inline"], choices=["background", "inline"])
    p.add_argument("--figures", nargs="+", default=["live", "bulk"], choices=["live", "bulk"])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", default=str(ROOT / "bench/results/write.json"))
    # the child's arguments
    p.add_argument("--child", choices=["live", "bulk"], help=argparse.SUPPRESS)
    p.add_argument("--turns-file", help=argparse.SUPPRESS)
    p.add_argument("--mode", help=argparse.SUPPRESS)
    p.add_argument("--src", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args)
        return
    trees = dict(t.split("=", 1) for t in args.tree) or {"this": str(ROOT / "src")}
    trees = {name: str(Path(src).resolve()) for name, src in trees.items()}
    with tempfile.TemporaryDirectory() as tmp:
        turns_file = str(Path(tmp) / "turns.json")
        Path(turns_file).write_text(json.dumps(make_turns(args.turns, args.text, args.session_turns)))
        results: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for rep in range(args.repeats):  # trees and modes alternate within a repeat: load drifts hit all alike
            for figure in args.figures:
                for name, src in trees.items():
                    for mode in args.modes:
                        key = f"{figure} · {name} · {mode}"
                        print(f"[{rep + 1}/{args.repeats}] {key} (load {loadavg()[0]})", file=sys.stderr, flush=True)
                        results.setdefault(key, {"runs": []})["runs"].append(
                            spawn(figure, src, turns_file, mode, args.session_turns))
    rows = []
    for key, r in results.items():
        runs = r["runs"]
        if key.startswith("live"):
            rows.append(f"| {key} | {median(runs, 'caller_turns_per_s'):.0f} | {median(runs, 'drained_turns_per_s'):.0f}"
                        f" | {median(runs, 'ack_p50_ms'):.2f} / {median(runs, 'ack_p99_ms'):.2f}"
                        f" | {median(runs, 'cpu_ms_per_turn'):.1f} | {runs[-1]['stored']} stored, "
                        f"{runs[-1]['pending_after']} pending |")
        else:
            durable = median(runs, "durable_turns_per_s")
            rows.append(f"| {key} | {durable:.0f} | {median(runs, 'total_turns_per_s'):.0f} | – | "
                        f"{median(runs, 'children_cpu_s') / args.turns * 1000:.1f} | |")
    table = "\n".join([
        f"{args.turns} {args.text} turns, sessions of {args.session_turns}, medians of {args.repeats}; "
        f"load average at the end {loadavg()}",
        "",
        "| figure · tree · mode | caller (durable) turns/s | drained turns/s | ack p50 / p99 ms | CPU ms/turn | check |",
        "|---|---|---|---|---|---|",
        *rows,
    ])
    print(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cpus": os.cpu_count(), "args": vars(args),
            "trees": trees}
    out.write_text(json.dumps({"meta": meta, "results": results}, indent=1))
    out.with_suffix(".md").write_text(table + "\n")


if __name__ == "__main__":
    main()
