"""Startup-briefing benchmark: `Memory.brief()` latency on a 100k-turn store (target ≤ 0.5 s).

    python bench/brief.py [--turns 100000] [--runs 30] [--workdir /tmp/episodic-brief] [--rebuild]
                          [--out bench/results/brief.json]

What it does (details in bench/README.md, section "Briefing"):

1. A store of --turns synthetic turns (bench/scale.py's corpus: ~20-turn sessions over two years), built through
   the public API only: `add_turns` in batches of whole sessions (embedder off, journal fsync off: build only),
   then `end_session` for every session, so consolidation runs as it does for a user — facts (rules), episodes,
   workstreams, open loops. Each session is given one of --topics threads of work (a few topic words in its first
   turn), and some turns say a decision, a correction, a to-do with a deadline, or that an earlier to-do was done,
   so the derived tables hold what a real store would: thousands of episodes and facts, a few hundred loops, a
   few dozen confirmed workstreams. The store is cached in --workdir.
2. A fresh `Memory` on it; the first `brief()` is timed (cold), then --runs timed calls (after 3 warm-up calls) for
   windows of 24 hours, 7 days and 30 days ending at the corpus' last turn: brief() + to_dict() (what
   `episodic brief --json` does). Median, p95, and the sizes of what came back.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "src"):   # run from a clone without `pip install -e .`
    if str(path) not in sys.path:
        sys.path.append(str(path))

from bench.scale import Corpus, batched, loadavg, metadata  # noqa: E402
from episodic_memory import Config, Memory  # noqa: E402

BUILD = Config(models={"embedder": "off"}, capture={"consolidate_every": 10**9, "consolidate_on_open": False, "fsync_journal": False})
MEASURE = Config(models={"embedder": "off"}, capture={"consolidate_on_open": False})
WINDOWS_H = (24, 24 * 7, 24 * 30)
CACHE_VERSION = 4   # bump when the store recipe changes


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def threaded_sessions(corpus: Corpus, n_turns: int, topics: int, seed: int):
    """The corpus' sessions, each given a thread of work and, now and then, a decision, a correction, a to-do
    with a deadline, or the news that an earlier to-do of its thread was done."""
    rng = np.random.default_rng([seed, 4242])
    content = corpus.words[800:4000]
    topic_words = [[content[int(i)] for i in rng.choice(len(content), 5, replace=False)] for _ in range(topics)]
    todos: dict[int, list[str]] = {}
    for s in corpus.sessions(n_turns):
        t = int(rng.integers(topics))
        words = topic_words[t]
        s[0]["content"] = f"Back on the {words[0]} {words[1]} work: {' '.join(words[2:])}. " + s[0]["content"]
        for j, turn in enumerate(s[1::2]):   # a thread is mentioned as it is worked on, not once
            turn["content"] = f"On the {words[j % 5]} {words[(j + 1) % 5]}: " + turn["content"]
        x = rng.random(4)
        pick = [content[int(i)] for i in rng.choice(len(content), 3)]
        extra = []
        if x[0] < 0.2:
            extra.append(f"We decided to {pick[0]} the {words[0]} {pick[1]}.")
        if x[1] < 0.1:
            extra.append(f"Actually, the {words[1]} {pick[0]} is {pick[1]}, not {pick[2]}.")
        if x[2] < 0.15:
            todo = f"{pick[2]} the {words[0]} {pick[1]} report"
            todos.setdefault(t, []).append(todo)
            extra.append(f"Remind me to {todo} by Friday.")
        elif x[3] < 0.12 and todos.get(t):
            done = todos[t].pop(0)
            extra.append(f"I sent the {done.split(' ', 1)[1]} to Priya yesterday, that one is done.")
        for line, turn in zip(extra, s[1::3], strict=False):
            turn["content"] = line + " " + turn["content"]
        yield s


def build(args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    folder = args.workdir / f"brief-{args.turns}-t{args.topics}-s{args.seed}-v{CACHE_VERSION}"
    if (folder / "build.json").exists() and not args.rebuild:
        log(f"cached store {folder}")
        return folder / "memory.db", {**json.loads((folder / "build.json").read_text()), "cached": True}
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    db = folder / "memory.db"
    corpus = Corpus(seed=args.seed)
    sessions = list(threaded_sessions(corpus, args.turns, args.topics, args.seed))
    info: dict[str, Any] = {"turns": sum(len(s) for s in sessions), "sessions": len(sessions),
                            "built": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    with Memory(db, config=BUILD) as mem:
        t0 = time.perf_counter()
        for batch in batched(iter(sessions), 10_000):
            mem.add_turns(batch)
        info["add_turns_s"] = round(time.perf_counter() - t0, 1)
        log(f"stored {info['turns']:,} turns in {info['add_turns_s']} s; consolidating {len(sessions):,} sessions")
        t0 = time.perf_counter()
        for i, s in enumerate(sessions, start=1):
            mem.end_session(s[0]["session_id"])
            if i % 500 == 0:
                log(f"  consolidated {i:,} sessions ({time.perf_counter() - t0:.0f} s)")
        info["consolidate_s"] = round(time.perf_counter() - t0, 1)
        info["consolidate_ms_per_session"] = round(1000 * info["consolidate_s"] / len(sessions), 1)
        info["last_turn_ts"] = max(t["timestamp"] for t in sessions[-1])
        info["contents"] = contents(mem)
    (folder / "build.json").write_text(json.dumps(info, indent=2))
    return db, info


def contents(mem: Memory) -> dict[str, int]:
    db = mem.store.db

    def count(sql: str) -> int:
        return db.execute(sql).fetchone()[0]

    return {
        "turns": count("SELECT count(*) FROM turns"), "sessions": count("SELECT count(*) FROM sessions"),
        "facts": count("SELECT count(*) FROM facts"),
        "decisions_and_corrections": count("SELECT count(*) FROM facts WHERE type IN ('decision', 'correction')"),
        "episodes": count("SELECT count(*) FROM episodes"),
        "workstreams": count("SELECT count(*) FROM workstreams"),
        "confirmed_workstreams": count("SELECT count(*) FROM workstreams WHERE status = 'confirmed'"),
        "open_loops": count("SELECT count(*) FROM loops WHERE status = 'open'"),
        "closed_loops": count("SELECT count(*) FROM loops WHERE status = 'closed'"),
    }


def measure(db: Path, now: float, runs: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    mem = Memory(db, config=MEASURE)
    out["open_s"] = round(time.perf_counter() - t0, 3)
    t0 = time.perf_counter()
    mem.brief(hours=24, now=now).to_dict()
    out["cold_ms"] = round(1000 * (time.perf_counter() - t0), 2)
    for hours in WINDOWS_H:
        for _ in range(3):
            mem.brief(hours=hours, now=now)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            data = mem.brief(hours=hours, now=now).to_dict()
            times.append(1000 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        mem.brief(hours=hours, now=now).render()
        render_ms = 1000 * (time.perf_counter() - t0)
        out[f"{hours}h"] = {
            "median_ms": round(statistics.median(times), 2), "p95_ms": round(float(np.percentile(times, 95)), 2),
            "min_ms": round(min(times), 2), "runs": runs, "brief_and_render_ms": round(render_ms, 2),
            "returned": {k: len(data[k]) for k in ("sessions", "decisions", "corrections", "open_loops",
                                                   "workstreams")},
        }
        log(f"{hours:>4} h window: median {out[f'{hours}h']['median_ms']} ms, returned {out[f'{hours}h']['returned']}")
    mem.close()
    out["loadavg"] = loadavg()
    return out


def markdown(result: dict[str, Any]) -> str:
    c = result["build"]["contents"]
    lines = [
        f"Store: {c['turns']:,} turns in {c['sessions']:,} sessions; {c['facts']:,} facts "
        f"({c['decisions_and_corrections']:,} decisions and corrections), {c['episodes']:,} episodes, "
        f"{c['workstreams']:,} workstreams ({c['confirmed_workstreams']} confirmed), {c['open_loops']} open and "
        f"{c['closed_loops']} closed loops. Embedder off. Cold (first call after open): "
        f"{result['measure']['cold_ms']} ms.",
        "",
        "| window | median ms | p95 ms | sessions | decisions | corrections | open loops | workstreams | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for hours in WINDOWS_H:
        m = result["measure"][f"{hours}h"]
        r = m["returned"]
        ok = "≤ 500 ✓" if m["median_ms"] <= 500 else "≤ 500 ✗"
        lines.append(f"| {hours} h | {m['median_ms']} | {m['p95_ms']} | {r['sessions']} | {r['decisions']} | "
                     f"{r['corrections']} | {r['open_loops']} | {r['workstreams']} | {ok} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--turns", type=int, default=100_000)
    p.add_argument("--topics", type=int, default=60, help="threads of work the sessions are spread over")
    p.add_argument("--runs", type=int, default=30, help="timed calls per window")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workdir", type=Path, default=Path("/tmp/episodic-brief"))
    p.add_argument("--rebuild", action="store_true", help="ignore a cached store")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "brief.json")
    args = p.parse_args(argv)
    db, info = build(args)
    result = {"meta": metadata(args), "build": info, "measure": measure(db, info["last_turn_ts"] + 3600, args.runs)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
    args.out.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
