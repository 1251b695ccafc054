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

`--replay` (issue 45) replaces the embedder's model by the vectors it computed for the same texts in an untimed run
of the tree before: the same bits, so the same rows, and what is left is what consolidation costs besides the model
(the floor is still measured with the model).

Each `--tree NAME=SRC` imports the package from SRC (e.g. a baseline checkout:
`git worktree add /tmp/base <commit>`); every (tree, corpus) run is a subprocess, trees alternating, repeated
`--repeats` times; the table shows medians. Without `--tree`, this checkout's src is measured.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):   # run as a script: `bench.*` from the repo root (bench/datasets.py shadows no one)
    sys.path[0] = str(ROOT)
OUT = ROOT / "bench" / "results" / "consolidation_cost.json"

from bench.compat import setting  # noqa: E402

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


def child(src: str, corpus: str, n: int, data: Path | None, dump: Path | None = None,
          vectors: Path | None = None, replay: bool = False) -> dict[str, Any]:
    """One run; with `vectors`, the vectors the model computed are written there (`replay` False) or read from
    there in place of the model (`replay`: the texts a recording run computed cost a lookup; any other is computed
    and counted as such)."""
    sys.path[:0] = [src, str(ROOT)]
    from bench.compat import make_config
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
        # a walk of the frames, not traceback.extract_stack: that reads each frame's source line (~90 µs a call
        # here, ~0.4 ms a LoCoMo turn) and would be charged to consolidation's CPU
        frame = sys._getframe(1)
        while frame is not None:
            f = frame.f_code.co_filename.replace(os.sep, "/")
            if "episodic_memory/" in f and "/models/" not in f and not f.endswith(("retrieve/indexer.py",
                                                                                    "retrieve/kinds.py")):
                return f"{Path(f).stem}.{frame.f_code.co_name}"
            frame = frame.f_back
        return "?"

    d = tempfile.mkdtemp(prefix="cc-")
    # inline: each step's CPU is read with process_time, which counts every thread; a background worker running
    # beside the caller would blur which is which (the work is the same either way)
    mem = Memory(os.path.join(d, "m.db"), config=make_config(Config, {"capture.consolidate_in_background": "off"}))
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
    seen = replay_model(embedder, vectors, replay) if vectors is not None and embedder is not None else None
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
    if seen is not None:   # the model itself again (for the floor); what a recording run computed, kept
        del embedder._embed_texts  # type: ignore[union-attr]
        if not replay:
            import pickle

            vectors.write_bytes(pickle.dumps(seen))  # type: ignore[union-attr]
    if dump is not None:
        dump.write_text(json.dumps(export_store(os.path.join(d, "m.db"))), encoding="utf-8")
    floor = consolidation_floor(os.path.join(d, "m.db"), mem.embedder() if embedder is not None else None,
                                mem.config)
    steps = [k for k in cpu if k not in ("consolidate", "turn_embed")]
    ms = {"capture": total - cpu["consolidate"], "turn_embed": cpu["turn_embed"], **{k: cpu[k] for k in steps},
          "overhead": cpu["consolidate"] - cpu["turn_embed"] - sum(cpu[k] for k in steps),
          "consolidate (all)": cpu["consolidate"], "total": total}
    n_turns = len(turns)
    floor_ms = {k: round(v * 1000 / n_turns, 3) for k, v in floor.items() if k.endswith("_s")}
    floor_ms = {k.removesuffix("_s"): v for k, v in floor_ms.items()}
    cons = cpu["consolidate"] * 1000 / n_turns
    return {"turns": n_turns, "steps": steps,
            "cpu_ms_per_turn": {k: round(v * 1000 / n_turns, 3) for k, v in ms.items()},
            "consolidation_ms_per_turn": round(sum(cpu[k] for k in steps) * 1000 / n_turns, 3),
            # issue 45: what any consolidation must pay for these turns here (consolidation_floor), and all of
            # Memory.consolidate (turn_embed + steps + overhead) against it
            "floor_cpu_ms_per_turn": floor_ms,
            "floor_rows": floor["rows"], "floor_transactions": floor["transactions"],
            "ratio_to_floor": round(cons / floor_ms["total"], 3) if floor_ms.get("total") else None,
            "embedded_per_turn": {k: round(v / n_turns, 3) for k, v in asked.most_common()},
            "computed_per_turn": {k: round(v / n_turns, 3) for k, v in computed.most_common()}}


def replay_model(embedder: Any, path: Path, replay: bool) -> dict[str, bytes] | None:
    """`--replay`: the embedder's model (`_embed_texts`, under its text cache) recorded into a dict of text ->
    float32 bytes (returned, for the caller to write to `path`), or replaced by the dict read from `path` (the same
    bits: every row consolidation writes is the model's run); None for an embedder of no such method."""
    import pickle

    import numpy as np

    compute = getattr(embedder, "_embed_texts", None)
    if compute is None:
        return None
    seen: dict[str, bytes] = pickle.loads(path.read_bytes()) if replay else {}

    def recorded(texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in seen]
        if missing:
            seen.update(zip(missing, (v.tobytes() for v in np.asarray(compute(missing), np.float32)), strict=True))
        return np.stack([np.frombuffer(seen[t], np.float32) for t in texts]) if texts else compute(texts)
    embedder._embed_texts = recorded
    return seen


def consolidation_floor(path: str, embedder: Any, config: Any) -> dict[str, Any]:
    """What any consolidation of this store's turns must pay on this machine (issue 45), in CPU seconds
    (`time.process_time`, every thread): the embedder on each session's turns, once each (the text the indexer
    embeds a turn as, `retrieve.texts.embedding_text`; one batch per session, the embedder's caches emptied first),
    and the store writes the run made: every row consolidation left in the derived tables (`DERIVED_TABLES`, turn
    vectors included: the embedding's own write) inserted into empty tables of the same schema (their indexes, no
    triggers), one transaction per session, with the store's journal settings (WAL, synchronous NORMAL)."""
    import sqlite3
    from types import SimpleNamespace

    from episodic_memory.retrieve.texts import embedding_text

    con = sqlite3.connect(path)
    by_session: dict[str, list[Any]] = {}
    for sid, role, speaker, content in con.execute(
            "SELECT session_id, role, speaker, content FROM turns ORDER BY session_id, seq"):
        by_session.setdefault(sid, []).append(SimpleNamespace(role=role, speaker=speaker, content=content))
    tables = [t for t in DERIVED_TABLES if t != "sessions"]
    schema = [sql for (sql,) in con.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') AND tbl_name IN "
        f"({', '.join('?' * len(tables))}) AND name NOT LIKE 'sqlite_%'", tables)]
    rows = {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in tables}
    con.close()
    out: dict[str, Any] = {"embed_s": 0.0}
    if embedder is not None:
        if hasattr(embedder, "cache_clear"):
            embedder.cache_clear()
        embed = getattr(embedder, "embed_once", embedder.embed)
        cap = setting(config, "models.embed_max_chars")
        t0 = time.process_time()
        for turns in by_session.values():
            embed([embedding_text(t, turns[i - 1] if i else None)[:cap] for i, t in enumerate(turns)])
        out["embed_s"] = time.process_time() - t0
    with tempfile.TemporaryDirectory(prefix="cc-floor-") as tmp:
        db = sqlite3.connect(os.path.join(tmp, "floor.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        for sql in schema:
            db.execute(sql)
        db.execute("PRAGMA foreign_keys = OFF")
        n = max(1, len(by_session))
        t0 = time.process_time()
        for part in range(n):   # the rows spread evenly over one transaction per session
            db.execute("BEGIN")
            for table, table_rows in rows.items():
                chunk = table_rows[part * len(table_rows) // n: (part + 1) * len(table_rows) // n]
                if chunk:
                    db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(chunk[0]))})", chunk)
            db.execute("COMMIT")
        out["writes_s"] = time.process_time() - t0
        db.close()
    out["total_s"] = out["embed_s"] + out["writes_s"]
    out["rows"] = sum(len(r) for r in rows.values())
    out["transactions"] = len(by_session)
    return out


# --- what consolidation made, row for row (--check-same) --------------------------------------------------------
# Every table consolidation writes; columns that hold the wall clock of the run (not anything remembered) are left
# out: `updated_at` everywhere, the rows' creation times where they are the run's time, not a turn's, and where a
# session's journal ends (its lines carry the time they were written).
DERIVED_TABLES = ("facts", "entities", "entity_aliases", "fact_entities", "entity_edges", "alias_sources",
                  "route_counts", "episodes", "episode_terms", "workstreams", "loops", "vectors", "sessions")
WALL_CLOCK = {"*": {"updated_at"}, "sessions": {"created_at", "ended_at", "journal_file", "journal_offset"}, "workstreams": {"created_at"},
              "episodes": {"created_at"}, "entities": set(), "vectors": {"id"}}


def export_store(path: str) -> dict[str, list[list[Any]]]:
    """The derived tables of a store as sorted rows (blobs as sha1 hex), wall-clock columns left out."""
    import hashlib
    import sqlite3

    con = sqlite3.connect(path)
    out: dict[str, list[list[Any]]] = {}
    try:
        for table in DERIVED_TABLES:
            cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            skip = WALL_CLOCK["*"] | WALL_CLOCK.get(table, set())
            keep = [c for c in cols if c not in skip]
            where = " WHERE kind != 'turn'" if table == "vectors" else ""   # turn vectors: retrieve's, not ours
            rows = con.execute(f"SELECT {', '.join(keep)} FROM {table}{where}").fetchall()
            out[table] = sorted(([hashlib.sha1(v).hexdigest() if isinstance(v, bytes) else v for v in row]
                                 for row in rows), key=repr)
            out[table].insert(0, keep)   # the header first
    finally:
        con.close()
    return out


def compare_exports(a: dict[str, list[list[Any]]], b: dict[str, list[list[Any]]]) -> dict[str, str]:
    """Per table: "same (n rows)" or what differs (row counts, and the first differing row of each side)."""
    verdict: dict[str, str] = {}
    for table in sorted(set(a) | set(b)):
        ra, rb = a.get(table, []), b.get(table, [])
        if ra == rb:
            verdict[table] = f"same ({max(0, len(ra) - 1)} rows)"
            continue
        only_a = [r for r in ra[1:] if r not in rb[1:]]
        only_b = [r for r in rb[1:] if r not in ra[1:]]
        verdict[table] = (f"DIFFERENT: {len(ra) - 1} vs {len(rb) - 1} rows; {len(only_a)} only in the first, "
                          f"{len(only_b)} only in the second; first: {only_a[:1]!r:.300} / {only_b[:1]!r:.300}")
    return verdict


def ingest(mem: Any, turns: list[dict[str, Any]]) -> None:
    for i, t in enumerate(turns):
        mem.add_turn(t["role"], t["content"], session_id=t["session_id"], speaker=t["speaker"],
                     timestamp=t["timestamp"])
        if i + 1 == len(turns) or turns[i + 1]["session_id"] != t["session_id"]:
            mem.end_session(t["session_id"])


# --- the parent: runs, medians, the table ----------------------------------------------------------------------
def run_child(src: str, corpus: str, n: int, data: Path | None, dump: Path | None = None,
              vectors: Path | None = None, replay: bool = False) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", src, "--corpus", corpus, "--turns", str(n)]
    if data is not None:
        cmd += ["--data", str(data)]
    if dump is not None:
        cmd += ["--dump", str(dump)]
    if vectors is not None:
        cmd += ["--vectors", str(vectors)] + (["--replay"] if replay else [])
    env = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{src} {corpus} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict[str, Any]], field: str) -> dict[str, float]:
    keys = list(dict.fromkeys(k for r in runs for k in r[field]))
    return {k: round(statistics.median(r[field].get(k, 0.0) for r in runs), 3) for k in keys}


def load_range(results: dict[str, dict[str, Any]], trees: list[str], corpus: str) -> str:
    loads = [x for t in trees for x in results[t][corpus].get("load", [])]
    return f" (load average {min(loads):.1f}–{max(loads):.1f})" if loads else ""


def table(results: dict[str, dict[str, Any]], trees: list[str], corpus: str) -> str:
    rows = list(dict.fromkeys(k for t in trees for k in results[t][corpus]["cpu_ms_per_turn"]))
    out = [f"### {corpus} ({results[trees[0]][corpus]['turns']} turns): CPU ms per turn, median of "
           f"{results[trees[0]][corpus]['repeats']}{load_range(results, trees, corpus)}", "",
           "| | " + " | ".join(trees) + (f" | {trees[0]} / {trees[1]} |" if len(trees) == 2 else " |"),
           "|---|" + "---:|" * (len(trees) + (len(trees) == 2))]
    for k in [*rows, "consolidation"]:
        cells = [results[t][corpus]["consolidation_ms_per_turn"] if k == "consolidation"
                 else results[t][corpus]["cpu_ms_per_turn"].get(k, 0.0) for t in trees]
        label = "**consolidation steps**" if k == "consolidation" else k
        ratio = (f" | {cells[0] / cells[1]:.2f}×" if cells[1] else " | –") if len(trees) == 2 else ""
        out.append(f"| {label} | " + " | ".join(f"{c:.2f}" for c in cells) + ratio + " |")
    if all(results[t][corpus].get("floor_cpu_ms_per_turn") for t in trees):   # issue 45: the floor beside it
        for k in ("embed", "writes", "total"):
            cells = [results[t][corpus]["floor_cpu_ms_per_turn"].get(k, 0.0) for t in trees]
            out.append(f"| floor: {k} | " + " | ".join(f"{c:.2f}" for c in cells) + (" | |" if len(trees) == 2
                                                                                       else " |"))
        cells = [results[t][corpus]["ratio_to_floor"] or 0.0 for t in trees]
        out.append("| **consolidate (all) ÷ floor** | " + " | ".join(f"{c:.2f}×" for c in cells)
                   + (" | |" if len(trees) == 2 else " |"))
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
    p.add_argument("--check-same", action="store_true",
                   help="no timing: one run per tree and corpus, then its derived tables (facts, episodes, "
                        "workstreams, loops, entities, vectors, …) compared row for row with the first tree's")
    p.add_argument("--replay", action="store_true",
                   help="the embedder's model replaced by the vectors it computed for the same texts in an untimed "
                        "run before (the same bits, the same rows): what consolidation costs besides the model "
                        "(issue 45); the floor is still the model's")
    p.add_argument("--child", metavar="SRC", help=argparse.SUPPRESS)
    p.add_argument("--dump", type=Path, default=None, help=argparse.SUPPRESS)
    p.add_argument("--vectors", type=Path, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.corpus[0], args.turns, args.data, args.dump, args.vectors,
                               args.replay)))
        return 0
    trees = dict(t.split("=", 1) for t in args.tree) if args.tree else {"this": str(ROOT / "src")}
    trees = {name: str(Path(src).resolve()) for name, src in trees.items()}
    if args.check_same:
        return check_same(trees, args.corpus, args.turns, args.data)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {t: {c: [] for c in args.corpus} for t in trees}
    recorded = Path(tempfile.mkdtemp(prefix="cc-vectors-")) if args.replay else Path()
    if args.replay:   # each tree's vectors, recorded by a run of its own (untimed)
        for corpus in args.corpus:
            for name in trees:
                run_child(trees[name], corpus, args.turns, args.data, vectors=recorded / f"{name}-{corpus}.pickle")
    for r in range(args.repeats):
        for corpus in args.corpus:
            order = list(trees) if r % 2 == 0 else list(reversed(trees))   # alternate who goes first
            for name in order:
                res = run_child(trees[name], corpus, args.turns, args.data,
                                vectors=recorded / f"{name}-{corpus}.pickle" if args.replay else None,
                                replay=args.replay)
                res["load"] = round(os.getloadavg()[0], 2)   # the 1-minute load average as the run ended
                runs[name][corpus].append(res)
                print(f"  run {r + 1}/{args.repeats} {corpus:9s} {name:10s} consolidation "
                      f"{res['consolidation_ms_per_turn']:.2f} ms/turn, total {res['cpu_ms_per_turn']['total']:.2f}"
                      f", consolidate (all) ÷ floor {res.get('ratio_to_floor')}, load {res['load']:.2f}",
                      file=sys.stderr)
    if args.replay:
        shutil.rmtree(recorded, ignore_errors=True)
    results: dict[str, dict[str, Any]] = {}
    for name in trees:
        results[name] = {}
        for corpus, rs in runs[name].items():
            results[name][corpus] = {
                "src": trees[name], "turns": rs[0]["turns"], "repeats": len(rs),
                "cpu_ms_per_turn": median_of(rs, "cpu_ms_per_turn"),
                "consolidation_ms_per_turn": round(statistics.median(x["consolidation_ms_per_turn"] for x in rs), 3),
                "floor_cpu_ms_per_turn": median_of(rs, "floor_cpu_ms_per_turn")
                if all("floor_cpu_ms_per_turn" in x for x in rs) else {},
                "ratio_to_floor": round(statistics.median(x["ratio_to_floor"] for x in rs), 3)
                if all(x.get("ratio_to_floor") for x in rs) else None,
                "embedded_per_turn": median_of(rs, "embedded_per_turn"),
                "computed_per_turn": median_of(rs, "computed_per_turn"),
                "load": [x["load"] for x in rs],
                "runs": rs}
    print("\n\n".join(table(results, list(trees), c) for c in args.corpus))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                    "turns": args.turns, "replay": args.replay, "results": results}, indent=1)
                        + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}")
    return 0


def check_same(trees: dict[str, str], corpora: list[str], n: int, data: Path | None) -> int:
    """Each tree consolidates the same turns; 0 when every derived table matches the first tree's row for row."""
    first, *others = list(trees)
    differ = 0
    with tempfile.TemporaryDirectory(prefix="cc-same-") as tmp:
        for corpus in corpora:
            exports = {}
            for name in trees:
                dump = Path(tmp) / f"{name}-{corpus}.json"
                run_child(trees[name], corpus, n, data, dump)
                exports[name] = json.loads(dump.read_text(encoding="utf-8"))
            for name in others:
                print(f"### {corpus} ({n} turns): {name} vs {first}")
                for table, verdict in compare_exports(exports[first], exports[name]).items():
                    print(f"  {table:15s} {verdict}")
                    differ += not verdict.startswith("same")
    print("all derived tables the same" if not differ else f"{differ} table(s) differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
