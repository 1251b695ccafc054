"""What consolidation costs per turn on the public write path, step by step (issue 16).

`python bench/consolidation_cost.py [--turns 400] [--repeats 3] [--tree base=/tmp/base/src --tree new=src]`

Turns go in one at a time through `Memory.add_turn`, `end_session` closing each session (default Config but
consolidation inline, so each step's CPU is its own; no LLM):
synthetic turns (`bench.scale.Corpus`, 50-turn sessions) and LoCoMo turns (`bench.datasets`, the conversations'
own sessions). Reported per turn, in CPU ms (`time.process_time`: the embedder's threads included):

    capture        add_turn / end_session outside `Memory.consolidate` (journal, store, scheduler)
    turn_embed     the new turns embedded at each run (`Memory._index_quietly`)
    <step>         each step of `Memory.consolidation_steps` (`consolidate.default_steps()`)
    overhead       the rest of `Memory.consolidate` (lease, session reads, bookkeeping)
    consolidate (all)  all of `Memory.consolidate`: turn_embed + the steps + overhead
    total          everything (capture + consolidate (all))

and the texts handed to the embedder per turn, by purpose (the function that asked), with how many of them the
model actually computed (the rest came from its cache). The embedder, the exemplar bank and the regexes are warmed
up on a separate store first, so one-off costs are not counted.

Each `--tree NAME=SRC` imports the package from SRC (e.g. a baseline checkout:
`git worktree add /tmp/base <commit>`); every (tree, corpus) run is a subprocess, trees alternating, repeated
`--repeats` times; the table shows medians. Without `--tree`, this checkout's src is measured.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):   # run as a script: `bench.*` from the repo root (bench/datasets.py shadows no one)
    sys.path[0] = str(ROOT)
OUT = ROOT / "bench" / "results" / "consolidation_cost.json"
CORPORA = ("synthetic", "locomo")


# --- the child: one corpus through one tree ------------------------------------------------------------------
def load_turns(corpus: str, n: int, data: Path | None, first: int = 0) -> list[dict[str, Any]]:
    """`n` turns as add_turn keyword arguments, with their session ids."""
    if corpus == "synthetic":
        from bench.scale import Corpus

        flat = [t for s in Corpus().sessions(n, first_session=900_000 + first) for t in s]
        return [{"role": t["role"], "content": t["content"], "speaker": t["speaker"], "timestamp": t["timestamp"],
                 "session_id": f"S{first}-{i // 50}"} for i, t in enumerate(flat)]
    from bench.datasets import LOCOMO_DEFAULT, load_locomo

    out: list[dict[str, Any]] = []
    for conv in load_locomo(data or LOCOMO_DEFAULT, verbose=False):
        for session in conv.sessions:
            for turn in session.turns:
                out.append({"role": turn.role, "content": turn.text, "speaker": turn.speaker,
                            "timestamp": turn.timestamp, "session_id": f"{conv.conv_id}/{session.session_id}"})
    return out[first: first + n]


def child(src: str, corpus: str, n: int, data: Path | None) -> dict[str, Any]:
    sys.path[:0] = [src, str(ROOT)]
    from episodic_memory import Config, Memory

    warm = tempfile.mkdtemp(prefix="cc-warm-")
    with Memory(os.path.join(warm, "w.db"), config=Config()) as mem:   # model, exemplar bank, regexes
        ingest(mem, load_turns("synthetic", 24, None, first=7))

    cpu: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    computed: Counter[str] = Counter()
    stack: list[str] = []

    def timed(name: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def run(*args: Any, **kw: Any) -> Any:
            stack.append(name)
            t0 = time.process_time()
            try:
                return fn(*args, **kw)
            finally:
                cpu[name] += time.process_time() - t0
                stack.pop()
        return run

    def purpose() -> str:
        for frame in reversed(traceback.extract_stack()):
            f = frame.filename.replace(os.sep, "/")
            if "episodic_memory/" in f and "/models/" not in f and not f.endswith(("retrieve/indexer.py",
                                                                                    "retrieve/kinds.py")):
                return f"{Path(f).stem}.{frame.name}"
        return "?"

    d = tempfile.mkdtemp(prefix="cc-")
    # inline: each step's CPU is read with process_time, which counts every thread; a background worker running
    # beside the caller would blur which is which (the work is the same either way)
    mem = Memory(os.path.join(d, "m.db"), config=Config(consolidate_in_background="off"))
    embedder = mem.embedder()
    mem.index()
    if embedder is not None:
        embed, in_order = embedder.embed, getattr(embedder, "_in_length_order", None)

        def counting_embed(texts: Any) -> Any:
            asked[purpose()] += len(texts)
            return embed(texts)
        embedder.embed = counting_embed  # type: ignore[method-assign]
        if in_order is not None:
            def counting_in_order(items: Any, *rest: Any) -> Any:
                computed[purpose()] += len(items)
                return in_order(items, *rest)
            embedder._in_length_order = counting_in_order  # type: ignore[attr-defined]
    mem.consolidation_steps = [timed(getattr(s, "__name__", str(s)).removeprefix("consolidate_"), s)
                               for s in mem.consolidation_steps]
    mem._index_quietly = timed("turn_embed", mem._index_quietly)  # type: ignore[method-assign]
    mem.consolidate = timed("consolidate", mem.consolidate)  # type: ignore[method-assign]
    turns = load_turns(corpus, n, data)
    t0 = time.process_time()
    ingest(mem, turns)
    mem.wait_for_consolidation()
    total = time.process_time() - t0
    mem.close()
    steps = [k for k in cpu if k not in ("consolidate", "turn_embed")]
    ms = {"capture": total - cpu["consolidate"], "turn_embed": cpu["turn_embed"], **{k: cpu[k] for k in steps},
          "overhead": cpu["consolidate"] - cpu["turn_embed"] - sum(cpu[k] for k in steps),
          "consolidate (all)": cpu["consolidate"], "total": total}
    n_turns = len(turns)
    return {"turns": n_turns, "steps": steps,
            "cpu_ms_per_turn": {k: round(v * 1000 / n_turns, 3) for k, v in ms.items()},
            "consolidation_ms_per_turn": round(sum(cpu[k] for k in steps) * 1000 / n_turns, 3),
            "embedded_per_turn": {k: round(v / n_turns, 3) for k, v in asked.most_common()},
            "computed_per_turn": {k: round(v / n_turns, 3) for k, v in computed.most_common()}}


def ingest(mem: Any, turns: list[dict[str, Any]]) -> None:
    for i, t in enumerate(turns):
        mem.add_turn(t["role"], t["content"], session_id=t["session_id"], speaker=t["speaker"],
                     timestamp=t["timestamp"])
        if i + 1 == len(turns) or turns[i + 1]["session_id"] != t["session_id"]:
            mem.end_session(t["session_id"])


# --- the parent: runs, medians, the table ----------------------------------------------------------------------
def run_child(src: str, corpus: str, n: int, data: Path | None) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", src, "--corpus", corpus, "--turns", str(n)]
    if data is not None:
        cmd += ["--data", str(data)]
    env = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{src} {corpus} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict[str, Any]], field: str) -> dict[str, float]:
    keys = list(dict.fromkeys(k for r in runs for k in r[field]))
    return {k: round(statistics.median(r[field].get(k, 0.0) for r in runs), 3) for k in keys}


def table(results: dict[str, dict[str, Any]], trees: list[str], corpus: str) -> str:
    rows = list(dict.fromkeys(k for t in trees for k in results[t][corpus]["cpu_ms_per_turn"]))
    out = [f"### {corpus} ({results[trees[0]][corpus]['turns']} turns): CPU ms per turn, median of "
           f"{results[trees[0]][corpus]['repeats']}", "",
           "| | " + " | ".join(trees) + (f" | {trees[0]} / {trees[1]} |" if len(trees) == 2 else " |"),
           "|---|" + "---:|" * (len(trees) + (len(trees) == 2))]
    for k in [*rows, "consolidation"]:
        cells = [results[t][corpus]["consolidation_ms_per_turn"] if k == "consolidation"
                 else results[t][corpus]["cpu_ms_per_turn"].get(k, 0.0) for t in trees]
        label = "**consolidation steps**" if k == "consolidation" else k
        ratio = (f" | {cells[0] / cells[1]:.2f}×" if cells[1] else " | –") if len(trees) == 2 else ""
        out.append(f"| {label} | " + " | ".join(f"{c:.2f}" for c in cells) + ratio + " |")
    purposes = list(dict.fromkeys(k for t in trees for k in results[t][corpus]["embedded_per_turn"]))
    out += ["", f"texts embedded per turn (asked / computed), {corpus}", "",
            "| purpose | " + " | ".join(trees) + " |", "|---|" + "---:|" * len(trees)]
    for p in purposes:
        cells = [f"{results[t][corpus]['embedded_per_turn'].get(p, 0.0):.2f} / "
                 f"{results[t][corpus]['computed_per_turn'].get(p, 0.0):.2f}" for t in trees]
        out.append(f"| {p} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=400, help="turns per corpus (default: %(default)s)")
    p.add_argument("--corpus", nargs="+", choices=CORPORA, default=list(CORPORA))
    p.add_argument("--repeats", type=int, default=3, help="runs per tree and corpus; medians shown (default: 3)")
    p.add_argument("--tree", action="append", default=[], metavar="NAME=SRC",
                   help="a package source dir to measure (repeatable); default: this checkout's src")
    p.add_argument("--data", type=Path, default=None, help="LoCoMo data (default: bench.datasets.LOCOMO_DEFAULT)")
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--child", metavar="SRC", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.corpus[0], args.turns, args.data)))
        return 0
    trees = dict(t.split("=", 1) for t in args.tree) if args.tree else {"this": str(ROOT / "src")}
    trees = {name: str(Path(src).resolve()) for name, src in trees.items()}
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {t: {c: [] for c in args.corpus} for t in trees}
    for r in range(args.repeats):
        for corpus in args.corpus:
            order = list(trees) if r % 2 == 0 else list(reversed(trees))   # alternate who goes first
            for name in order:
                res = run_child(trees[name], corpus, args.turns, args.data)
                runs[name][corpus].append(res)
                print(f"  run {r + 1}/{args.repeats} {corpus:9s} {name:10s} consolidation "
                      f"{res['consolidation_ms_per_turn']:.2f} ms/turn, total {res['cpu_ms_per_turn']['total']:.2f}",
                      file=sys.stderr)
    results: dict[str, dict[str, Any]] = {}
    for name in trees:
        results[name] = {}
        for corpus, rs in runs[name].items():
            results[name][corpus] = {
                "src": trees[name], "turns": rs[0]["turns"], "repeats": len(rs),
                "cpu_ms_per_turn": median_of(rs, "cpu_ms_per_turn"),
                "consolidation_ms_per_turn": round(statistics.median(x["consolidation_ms_per_turn"] for x in rs), 3),
                "embedded_per_turn": median_of(rs, "embedded_per_turn"),
                "computed_per_turn": median_of(rs, "computed_per_turn"),
                "runs": rs}
    print("\n\n".join(table(results, list(trees), c) for c in args.corpus))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                    "turns": args.turns, "results": results}, indent=1) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
