"""CLI start-up benchmark: wall time of `episodic brief` and `episodic stats` as whole commands on a 25k-turn store
(issue 19's target: `episodic brief` < 2 s), for one or more source trees side by side.

    python bench/cli_start.py [--turns 25000] [--runs 5] [--tree NAME=SRC ...] [--workdir /tmp/episodic-cli]
                              [--rebuild] [--out bench/results/cli_start.json]

1. For each tree (default: this clone's `src`), a store of --turns synthetic turns is built *by that tree's code*
   (a store written by newer code cannot be opened by older code): bench/brief.py's threaded corpus, `add_turns`
   with the embedder off and no journal fsync, then `end_session` for every session, so facts, episodes,
   workstreams and loops exist as for a user. Cached in --workdir per tree name (--rebuild after a schema change).
2. Each command runs --runs times as a fresh process, `python -c "from episodic_memory.cli import main; main()"`
   (what the `episodic` script does) with PYTHONPATH=SRC and the default configuration (embedder on, as a user
   has it), trees interleaved so they share the machine's load. Also `import episodic_memory.cli` alone. Median,
   min and max wall seconds, and the median CPU seconds (user + system) of the child: on a shared machine the wall
   time follows the load average (recorded before and after), the CPU time much less.

A baseline tree: `git worktree add /tmp/cli-base <commit>` then `--tree base=/tmp/cli-base/src --tree
new=src` (remove the worktree afterwards).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: dict[str, list[str]] = {
    "import": [],                     # `import episodic_memory.cli` and nothing else
    "brief": ["brief", "--hours", "24"],
    "stats": ["stats"],
}
CACHE_VERSION = 1


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _env(src: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "PYTHONPATH"))}
    env["PYTHONPATH"] = f"{src}{os.pathsep}{ROOT}"  # the tree's package first; `bench` from this clone
    return env


def _commit(src: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(src), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def build_store(db: Path, turns: int, topics: int, seed: int) -> dict[str, Any]:
    """Runs inside the child (the tree's code on sys.path): the store, built the way bench/brief.py builds it."""
    from bench.brief import BUILD, threaded_sessions
    from bench.scale import Corpus, batched
    from episodic_memory import Memory

    sessions = list(threaded_sessions(Corpus(seed=seed), turns, topics, seed))
    t0 = time.perf_counter()
    with Memory(db, config=BUILD) as mem:
        for batch in batched(iter(sessions), 10_000):
            mem.add_turns(batch)
        for s in sessions:
            mem.end_session(s[0]["session_id"])
        counts = {k: v for k, v in mem.stats().items() if isinstance(v, int) and not isinstance(v, bool)}
    return {"turns": sum(len(s) for s in sessions), "sessions": len(sessions), "build_s": round(time.perf_counter() - t0, 1),
            "counts": counts}


def store_for(name: str, src: Path, args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    folder = args.workdir / f"{name}-{args.turns}-v{CACHE_VERSION}"  # --rebuild after a schema change
    db = folder / "memory.db"
    if (folder / "build.json").exists() and not args.rebuild:
        return db, json.loads((folder / "build.json").read_text())
    if folder.exists():
        for f in sorted(folder.rglob("*"), reverse=True):
            f.unlink() if f.is_file() else f.rmdir()
    folder.mkdir(parents=True, exist_ok=True)
    log(f"{name}: building a {args.turns:,}-turn store with {src}")
    code = ("import json, sys; from pathlib import Path; from bench.cli_start import build_store; "
            f"print(json.dumps(build_store(Path({str(db)!r}), {args.turns}, {args.topics}, {args.seed})))")
    out = subprocess.run([sys.executable, "-c", code], env=_env(src), capture_output=True, text=True, check=True)
    info = {**json.loads(out.stdout.strip().splitlines()[-1]), "built_by": _commit(src)}
    (folder / "build.json").write_text(json.dumps(info, indent=2))
    log(f"{name}: built in {info['build_s']} s")
    return db, info


def run_once(src: Path, db: Path, command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one run of `command` in a fresh process."""
    code = "import episodic_memory.cli" if not command else "from episodic_memory.cli import main; main()"
    argv = [sys.executable, "-c", code, *command, *(["--db", str(db)] if command else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=_env(src), capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _summary(runs: list[tuple[float, float]]) -> dict[str, Any]:
    wall = [w for w, _ in runs]
    cpu = [c for _, c in runs]
    return {"median_s": round(statistics.median(wall), 3), "min_s": round(min(wall), 3), "max_s": round(max(wall), 3),
            "cpu_median_s": round(statistics.median(cpu), 3), "runs": [round(w, 3) for w in wall],
            "cpu_runs": [round(c, 3) for c in cpu]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=25_000)
    parser.add_argument("--topics", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=SRC",
                        help="a source tree to measure (repeatable; default: this clone's src)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/episodic-cli"))
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--build-only", action="store_true", help="build (or find) the stores and stop")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "cli_start.json")
    args = parser.parse_args()
    trees = dict(t.split("=", 1) for t in args.tree) if args.tree else {"this": str(ROOT / "src")}
    srcs = {name: Path(src).resolve() for name, src in trees.items()}
    stores = {name: store_for(name, src, args) for name, src in srcs.items()}
    if args.build_only:
        return
    load_before = list(os.getloadavg())
    times: dict[str, dict[str, list[tuple[float, float]]]] = {name: {c: [] for c in COMMANDS} for name in srcs}
    for name, src in srcs.items():  # one warm-up each: the page cache holds the code and the store
        for command in COMMANDS.values():
            run_once(src, stores[name][0], command)
    for i in range(args.runs):
        for command_name, command in COMMANDS.items():
            for name, src in srcs.items():
                times[name][command_name].append(run_once(src, stores[name][0], command))
        log(f"run {i + 1}/{args.runs}: " + ", ".join(
            f"{n} {c} {times[n][c][-1][0]:.2f}s" for n in srcs for c in COMMANDS))
    results = {name: {c: _summary(runs) for c, runs in times[name].items()} for name in srcs}
    print(f"{'tree':<8} {'commit':<9} " + " ".join(f"{c + ' wall s: median (min–max), cpu s':>40}" for c in COMMANDS))
    for name, src in srcs.items():
        cells = [f"{r['median_s']:.2f} ({r['min_s']:.2f}–{r['max_s']:.2f}), cpu {r['cpu_median_s']:.2f}"
                 for r in results[name].values()]
        print(f"{name:<8} {_commit(src):<9} " + " ".join(f"{c:>40}" for c in cells))
    report = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "python": sys.version.split()[0],
        "cpus": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()], "runs": args.runs,
        "trees": {name: {"src": str(src), "commit": _commit(src), "store": stores[name][1], "wall": results[name]}
                  for name, src in srcs.items()},
        "target": "episodic brief < 2 s wall at 25k turns",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
