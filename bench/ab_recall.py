"""Recall latency of Config variants, A/B in one process.

On a shared 2-core machine the speed drifts by up to 1.5x within an hour, so two separate runs of
bench/scale.py cannot tell a 0.5 ms change. Here each variant is its own `Memory` on the same store, and they take
turns in blocks of distinct queries (fresh query embeddings), so every variant sees the same machine.

    python bench/ab_recall.py --size 100000 base='{}' pool200='{"candidate_pool": 200}'
    python bench/ab_recall.py --store path/to/memory.db base='{}' exact='{"dense_coarse_above": 1000000000}'
    python bench/ab_recall.py --store <bench/scale.py --real store> --real ../shared/data/locomo-dev base='{}' …

`--size` opens the cached bench/scale.py store of that size (build it with bench/scale.py first).
Prints p50 / p95 per variant and writes JSON next to the other results (`--out`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run from a clone without `pip install -e .`
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from episodic_memory import Config, Memory  # noqa: E402
from scale import Corpus, _load_locomo, real_queries, store_dir  # noqa: E402


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    name, sep, settings = text.partition("=")
    if not sep or not name:
        raise SystemExit(f"variant {text!r}: write it as name='{{\"config_field\": value}}'")
    try:
        fields = json.loads(settings)
        Config().replace(fields)  # group.field names, checked
    except (json.JSONDecodeError, ValueError) as exc:
        raise SystemExit(f"variant {name!r}: {exc}") from exc
    return name, fields


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--store", type=Path, help="a memory.db to recall from (read only: nothing is added)")
    where.add_argument("--size", type=int, help="the cached bench/scale.py store of this many turns")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/episodic-scale"), help="bench/scale.py's --workdir")
    parser.add_argument("--real", type=Path, help="LoCoMo-format conversations: ask their questions (as bench/scale.py "
                        "--real does) instead of synthetic ones")
    parser.add_argument("--blocks", type=int, default=12, help="blocks per variant")
    parser.add_argument("--block-size", type=int, default=20, help="distinct queries per block")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ab_recall.json")
    parser.add_argument("variants", nargs="+", help="name='{\"config_field\": value}' (at least two)")
    args = parser.parse_args(argv)
    variants = dict(parse_variant(v) for v in args.variants)
    if len(variants) < 2:
        parser.error("give at least two variants")
    if args.store is not None:
        db = args.store
    else:
        scale_args = argparse.Namespace(seed=7, synthetic_vectors="fitted", real_vectors=10_000, ingest_sample=3000,
                                        consolidate=True)  # bench/scale.py's defaults: its store_dir reads them
        db = store_dir(args.workdir, args.size, scale_args) / "memory.db"
    if not db.is_file():
        raise SystemExit(f"{db}: no such store (build it with bench/scale.py --sizes {args.size or '...'})")

    memories = {name: Memory(db, config=Config().replace(fields)) for name, fields in variants.items()}
    wanted = 20 + args.blocks * args.block_size * len(variants)
    if args.real is not None:
        queries = real_queries(_load_locomo(args.real), 7)
        if len(queries) < wanted:
            raise SystemExit(f"{args.real}: {len(queries)} distinct questions, {wanted} wanted: fewer --blocks")
    else:
        queries = Corpus(7).queries(wanted, seed=1)
    for mem in memories.values():  # load vectors, heads and scans once, outside the timing
        for q in queries[:20]:
            mem.recall(q, k=10)
    timings: dict[str, list[float]] = {name: [] for name in memories}
    at = 20
    for _ in range(args.blocks):
        for name, mem in memories.items():
            for q in queries[at : at + args.block_size]:
                t0 = time.perf_counter()
                mem.recall(q, k=10)
                timings[name].append((time.perf_counter() - t0) * 1000)
            at += args.block_size
    summary = {name: {"p50_ms": round(statistics.median(ms), 2), "p95_ms": round(sorted(ms)[int(0.95 * len(ms))], 2),
                      "n": len(ms), "config": variants[name]} for name, ms in timings.items()}
    for name, row in summary.items():
        print(f"{name:>16}  p50 {row['p50_ms']:6.2f} ms  p95 {row['p95_ms']:6.2f} ms  n={row['n']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"store": str(db), "variants": summary}, indent=2))
    for mem in memories.values():
        mem.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
