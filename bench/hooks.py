"""Claude Code hook latency (issue 46): the `UserPromptSubmit` round trip as the harness sees it — a process started,
the event's JSON on its standard input, the answer read back — cold (no server: `episodic hook`, which opens the
store) and through a running server (the fast client, `integrations/claude_code_io.py`, run by its path), with the
floors under them.

    python bench/hooks.py [--turns 5000] [--runs 20] [--workdir /tmp/episodic-hooks] [--rebuild]
                          [--out bench/results/hooks.json]

The store: the bundled sample conversation (Maya's Series B deck: what the prompts ask about) plus --turns synthetic
turns in threads of work (bench/brief.py's corpus), consolidated and embedded with the default model, cached in
--workdir. Each mode runs one session: its SessionStart first (as the harness does), then --runs prompts, each a
fresh process; every prompt is stored as a turn, as it would be. Wall milliseconds: median (p50), min, max; and
the median CPU milliseconds (user + system) of the child process, which a loaded machine changes much less (the
server's own CPU is not in it).

Modes:
  cold            `episodic hook UserPromptSubmit --db STORE` (imports the package, opens the store, loads the
                  embedder, recalls, prints)
  server          `python claude_code_io.py UserPromptSubmit --server URL` against a server with the hook route
                  (`episodic serve --no-auth`'s app, which has the route)
  server-episodic `episodic hook UserPromptSubmit` with EPISODIC_HOOKS__SERVER_URL (the package imported, the store
                  not opened)
Floors:
  python          `python -c pass`: starting the interpreter
  client-imports  `python -c "import …"` of what the fast client imports
  package-import  `python -c "import episodic_memory.cli"`: what any `episodic` command pays first
  http            the hook route answering this (warm) process over loopback: the server's share of `server`
  recall          `Memory.recall(prompt, k=20)` in a warm process, twice (the project's, then everything's)
The load average (`uptime`) before and after is recorded: on a shared machine the wall times follow it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

CACHE_VERSION = 1
PROMPTS = [
    "How many slides does the Series B deck need?",
    "When is the Airflow cutover?",
    "What does Maya prefer for formatting?",
    "Who signs off the sensitivity table?",
    "What did we decide about the billing syncs?",
    "Which churn numbers does the base case use?",
    "What is still open on the deck?",
    "When are the Airflow hosting quotes due?",
    "What is the end-2027 ARR in the base case?",
    "Where is the offsite this year?",
]
CLIENT_IMPORTS = "import hashlib, json, os, socket, sys, time, pathlib, typing"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def build(workdir: Path, turns: int, rebuild: bool) -> tuple[Path, dict[str, Any]]:
    from bench.brief import threaded_sessions
    from bench.scale import Corpus, batched
    from episodic_memory import Config, Memory
    from episodic_memory.ingest import parse_file, sample_path

    folder = workdir / f"store-{turns}-v{CACHE_VERSION}"
    if (folder / "build.json").exists() and not rebuild:
        log(f"cached store {folder}")
        return folder / "memory.db", json.loads((folder / "build.json").read_text())
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    db = folder / "memory.db"
    config = Config(capture={"consolidate_every": 10**9, "consolidate_on_open": False, "fsync_journal": False})
    t0 = time.perf_counter()
    sample = parse_file(str(sample_path())).turns
    sessions = list(threaded_sessions(Corpus(seed=7), turns, 40, 7)) if turns else []
    with Memory(db, config=config) as mem:
        mem.add_turns(sample)
        for batch in batched(iter(sessions), 10_000):
            mem.add_turns(batch)
        ids = list(dict.fromkeys(t["session_id"] for t in sample)) + [s[0]["session_id"] for s in sessions]
        for i, session_id in enumerate(ids, start=1):
            mem.end_session(session_id, wait=True)
            if i % 100 == 0:
                log(f"  consolidated {i}/{len(ids)} sessions")
        mem.index()
        stats = {k: v for k, v in mem.stats().items() if isinstance(v, int) and not isinstance(v, bool)}
    info = {"turns": stats.get("turns"), "sessions": stats.get("sessions"), "facts": stats.get("facts"),
            "build_s": round(time.perf_counter() - t0, 1)}
    (folder / "build.json").write_text(json.dumps(info, indent=2))
    log(f"built {info}")
    return db, info


CPU: list[float] = []   # the CPU seconds (user + system) of each child `timed` ran, in order


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], stdin: str = "", env: dict[str, str] | None = None) -> tuple[float, str]:
    """(wall seconds, standard output) of one child; its CPU seconds are appended to `CPU`."""
    t0, c0 = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, timeout=120, check=False)
    took = time.perf_counter() - t0
    CPU.append(_children_cpu() - c0)
    if done.returncode != 0:
        raise RuntimeError(f"{command} exited {done.returncode}: {done.stderr[-2000:]}")
    return took, done.stdout


def summary(samples: list[float], cpu: list[float] | None = None) -> dict[str, Any]:
    row = {"p50_ms": round(1000 * statistics.median(samples), 1), "min_ms": round(1000 * min(samples), 1),
           "max_ms": round(1000 * max(samples), 1), "runs": len(samples)}
    if cpu:
        row["cpu_p50_ms"] = round(1000 * statistics.median(cpu), 1)
    return row


def children(command: list[str], runs: int, env: dict[str, str] | None = None) -> dict[str, Any]:
    walls = [timed(command, env=env)[0] for _ in range(runs)]
    return summary(walls, CPU[-runs:])


def event(name: str, session: str, **fields: Any) -> str:
    return json.dumps({"session_id": session, "transcript_path": "/nonexistent/transcript.jsonl", "cwd": str(ROOT),
                       "permission_mode": "default", "hook_event_name": name, **fields})


def run_mode(command: Callable[[str], list[str]], session: str, runs: int,
             env: dict[str, str]) -> tuple[dict[str, Any], int]:
    """SessionStart once, then `runs` prompts; (their timing, how many answers carried [Recalled context])."""
    timed(command("SessionStart"), event("SessionStart", session, source="startup"), env)
    samples, answered = [], 0
    for i in range(runs):
        took, out = timed(command("UserPromptSubmit"),
                          event("UserPromptSubmit", session, prompt=PROMPTS[i % len(PROMPTS)]), env)
        samples.append(took)
        answered += "[Recalled context]" in out
    return summary(samples, CPU[-runs:]), answered


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


SERVER = """
import sys, uvicorn
from episodic_memory.server.rest import create_app
app = create_app(sys.argv[1], auth=False)  # episodic serve's app, hook route included
print("route: episodic serve's own", flush=True)  # the bench reads this line before it starts
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def start_server(db: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/v1/health", timeout=1):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server did not start: {proc.communicate()[0][-2000:]}")


def http_floor(url: str, runs: int) -> dict[str, Any]:
    from episodic_memory.integrations.claude_code_io import forward

    samples = []
    for i in range(runs):
        body = {"payload": json.loads(event("UserPromptSubmit", "bench-http", prompt=PROMPTS[i % len(PROMPTS)])),
                "project": ROOT.name, "state": {"session_id": "bench-http", "turn": 1}, "entries": []}
        t0 = time.perf_counter()
        forward(url, None, "UserPromptSubmit", body, 30)
        samples.append(time.perf_counter() - t0)
    return summary(samples)


def recall_floor(db: Path, runs: int) -> dict[str, Any]:
    from episodic_memory import Config, Memory
    from episodic_memory.integrations.claude_code import ProjectFirst

    with Memory(db, config=Config.from_env({"capture.consolidate_on_open": False})) as mem:
        recaller = ProjectFirst(mem, ROOT.name)
        recaller.recall(PROMPTS[0], k=20)  # the models loaded
        samples = []
        for i in range(runs):
            t0 = time.perf_counter()
            recaller.recall(PROMPTS[i % len(PROMPTS)], k=20)
            samples.append(time.perf_counter() - t0)
    return summary(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=5000, help="synthetic turns besides the sample conversation")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/episodic-hooks"))
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "hooks.json")
    args = parser.parse_args(argv)

    db, info = build(args.workdir, args.turns, args.rebuild)
    work = args.workdir / "run"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(db.parent, work)  # each run measures the same store (the prompts become turns)
    db = work / db.name
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "PYTHONPATH"))}
    env |= {"PYTHONPATH": str(ROOT / "src"), "EPISODIC_HOOKS__STATE_DIR": str(work / "hook-state")}
    episodic = [sys.executable, "-m", "episodic_memory"]
    client = [sys.executable, str(ROOT / "src" / "episodic_memory" / "integrations" / "claude_code_io.py")]
    load_before = uptime()
    log(load_before)
    result: dict[str, Any] = {"store": info, "runs": args.runs, "python": sys.version.split()[0],
                              "cpus": os.cpu_count(), "load_before": load_before,
                              "when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "modes": {},
                              "floors": {}}
    floors = result["floors"]
    floors["python"] = children([sys.executable, "-c", "pass"], args.runs)
    floors["client-imports"] = children([sys.executable, "-c", CLIENT_IMPORTS], args.runs, env)
    floors["package-import"] = children([sys.executable, "-c", "import episodic_memory.cli"], args.runs, env)
    log(f"floors {floors}")
    cold, answered = run_mode(lambda e: [*episodic, "hook", e, "--db", str(db)], "bench-cold", args.runs, env)
    result["modes"]["cold"] = {**cold, "answers_with_context": answered}
    log(f"cold {cold}")
    proc, url = start_server(db, env)
    try:
        result["route"] = (proc.stdout.readline() if proc.stdout else "").strip()
        def fast(e: str) -> list[str]:
            return [*client, e, "--server", url]

        run_mode(fast, "bench-warmup", 3, env)  # the server's models loaded, its caches warm
        server, answered = run_mode(fast, "bench-server", args.runs, env)
        result["modes"]["server"] = {**server, "answers_with_context": answered}
        log(f"server {server}")
        via, answered = run_mode(lambda e: [*episodic, "hook", e], "bench-server-episodic", args.runs,
                                 env | {"EPISODIC_HOOKS__SERVER_URL": url})
        result["modes"]["server-episodic"] = {**via, "answers_with_context": answered}
        log(f"server-episodic {via}")
        floors["http"] = http_floor(url, args.runs)
    finally:
        proc.terminate()
        proc.wait(30)
    floors["recall"] = recall_floor(db, args.runs)
    result["load_after"] = uptime()
    log(result["load_after"])
    print(f"UserPromptSubmit round trip, {args.runs} runs, store {info.get('turns')} turns "
          f"({result['load_before'].split('load average: ')[-1]} load before)")
    print(f"{'':18}{'p50 ms':>9}{'min':>9}{'max':>9}{'CPU p50':>9}")
    for name, row in [*result["modes"].items(), *floors.items()]:
        print(f"{name:18}{row['p50_ms']:>9}{row['min_ms']:>9}{row['max_ms']:>9}{row.get('cpu_p50_ms', ''):>9}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
