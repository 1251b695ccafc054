"""Where a long-running process's memory goes (issue 16): the server's pool without HTTP, taken apart.

Opens a `MemoryPool` with its background worker, as `episodic serve` does, on a fresh temporary database and runs
``--operations`` operations for ``--users`` users in turn: a 30-word turn (sessions of 40) or a 3-word recall, half
and half, the words of `bench/load.py`. Every ``--every`` operations it reports the process's RssAnon, glibc's own
account of its heap (``mallinfo2``: in use, free but kept), the dense leg's columns (their capacity), the text memos
and the number of Python objects: what grows with the data and what would be a leak.

``--trim`` hands freed memory back (``malloc_trim``, after a GC) before each report, to tell what glibc keeps from
what is in use. Linux with glibc only.

    python bench/rss_account.py --operations 12000
    python bench/rss_account.py --operations 12000 --trim

Prints a markdown table; writes the rows to ``bench/results/rss_account.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a script: import `bench.*` from the repo root, as bench/beam.py does.
if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.load import WORDS, sentence  # noqa: E402
from episodic_memory import util  # noqa: E402
from episodic_memory.config import Config  # noqa: E402
from episodic_memory.server.pool import MemoryPool  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def _libc() -> Any:
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _MallInfo2
    return libc


def rss_anon_mb() -> float:
    for line in Path(f"/proc/{os.getpid()}/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def dense_mb(pool: MemoryPool) -> float:
    """The dense leg's in-process columns of every open user, by capacity (rows not yet written are not resident)."""
    total = 0
    for mem in list(pool._memories.values()):
        index = mem.retriever._dense
        for columns in list(getattr(index, "_users", {}).values()):
            for name in ("vectors", "item_ids", "kind_codes", "session_codes", "ts"):
                array = getattr(columns, name, None)
                total += array.nbytes if array is not None else 0
    return total / 2**20


def run(operations: int, every: int, users: int, trim: bool, seed: int) -> list[dict[str, Any]]:
    libc = _libc()
    rng = random.Random(seed)
    names = [f"u{i}" for i in range(users)]
    turns = dict.fromkeys(names, 0)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        pool = MemoryPool(os.path.join(folder, "m.db"), Config.from_env(), background=True)
        pool.scheduler.start()
        try:
            for i in range(operations + 1):
                user = names[i % users]
                with pool.lease(user) as mem:
                    if rng.random() < 0.5:
                        mem.add_turn("user", sentence(rng, 30)[:200], session_id=f"{user}-s{turns[user] // 40}")
                        turns[user] += 1
                    else:
                        mem.recall(" ".join(rng.sample(WORDS, 3)))
                if i % every:
                    continue
                before_trim = rss_anon_mb()
                if trim:
                    gc.collect()
                    libc.malloc_trim(0)
                heap = libc.mallinfo2()
                rows.append({"operations": i, "turns": sum(turns.values()), "seconds": round(time.perf_counter() - started, 1),
                             "rss_anon_mb": round(rss_anon_mb(), 1), "rss_anon_before_trim_mb": round(before_trim, 1),
                             "heap_in_use_mb": round(heap.uordblks / 2**20, 1),
                             "heap_free_kept_mb": round(heap.fordblks / 2**20, 1),
                             "mmapped_mb": round(heap.hblkhd / 2**20, 1), "dense_columns_mb": round(dense_mb(pool), 1),
                             "text_memos_mb": round(util.TEXT_MEMOS.used / 2**20, 1),
                             "python_objects": len(gc.get_objects())})
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        finally:
            pool.close(5)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    head = ["operations (turns)", "RssAnon MB", "C heap in use", "C heap free, kept", "dense columns (capacity)",
            "text memos", "Python objects"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append(f"| {r['operations']:,} ({r['turns']:,}) | {r['rss_anon_mb']:.0f} | {r['heap_in_use_mb']:.0f} | "
                     f"{r['heap_free_kept_mb']:.0f} | {r['dense_columns_mb']:.1f} | {r['text_memos_mb']:.0f} | "
                     f"{r['python_objects']:,} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--operations", type=int, default=12_000)
    p.add_argument("--every", type=int, default=1_500, help="report every this many operations")
    p.add_argument("--users", type=int, default=3)
    p.add_argument("--trim", action="store_true", help="malloc_trim (after a GC) before each report")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out", type=Path, default=RESULTS / "rss_account.json")
    args = p.parse_args()
    if not sys.platform.startswith("linux"):
        sys.exit("rss_account.py reads /proc and glibc's mallinfo2: Linux only")
    rows = run(args.operations, max(1, args.every), max(1, args.users), args.trim, args.seed)
    print(table(rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
