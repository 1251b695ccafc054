"""Cold start of the read path (issue 22): the first recall of a fresh process, its memory, and warm latency.

    PYTHONPATH=src python bench/cold_start.py --sizes 10000 100000 1000000 [--runs 3] [--queries 200]
        [--src OTHER_CHECKOUT/src --label before] [--out bench/results/cold_start.json]

Runs on the stores `bench/scale.py` built and cached in --workdir (10k: consolidated; 100k and 1M: `--no-consolidate`,
turns only). Per size, --runs fresh processes, one after another (each opens the store, loads the embedder apart,
then times): the first recall (wall; what it spent syncing the dense index and reading turn heads), RSS after it
and after 50 recalls (VmRSS, and its private part RssAnon beside the mapped files' RssFile), then --queries distinct
warm recalls (p50 / p95). The first process of a size with the sidecar code may build the sidecar (once per store);
it is reported apart ("build run") from the runs after it. The load average is recorded with every run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def status() -> dict[str, float]:
    out: dict[str, float] = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key = line.split(":")[0]
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            out[key] = round(int(line.split()[1]) / 1024, 1)
    return out


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def child(db: Path, queries: int, seed: int) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    from episodic_memory import Config, Memory
    from episodic_memory.models.embedder import load_embedder
    from scale import Corpus

    qs = Corpus(seed).queries(1 + 50 + queries, seed=1)
    out: dict[str, Any] = {"loadavg_start": loadavg()}
    cfg = Config.from_env()  # EPISODIC_* overrides, e.g. EPISODIC_RETRIEVAL__VECTOR_SIDECAR_INT8_ABOVE to compare
    t0 = time.perf_counter()
    load_embedder(cfg.models.embedder, cfg.models.threads)
    out["model_load_s"] = round(time.perf_counter() - t0, 3)
    t0 = time.perf_counter()
    mem = Memory(db, config=cfg)
    out["open_s"] = round(time.perf_counter() - t0, 4)
    dense = mem.retriever.dense_index()
    parts: dict[str, float] = {}

    def timed(obj: Any, name: str) -> None:
        fn = getattr(obj, name)

        def wrapper(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                parts[name] = parts.get(name, 0.0) + (time.perf_counter() - t) * 1000

        setattr(obj, name, wrapper)

    timed(dense, "sync")
    timed(mem.store, "turn_heads")
    t0 = time.perf_counter()
    mem.recall(qs[0], k=10)
    out["first_recall_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    out["first_recall_parts_ms"] = {k: round(v, 1) for k, v in parts.items()}
    for name in ("sync",):
        delattr(dense, name)
    delattr(mem.store, "turn_heads")
    out["rss_after_first"] = status()
    for q in qs[1:51]:
        mem.recall(q, k=10)
    out["rss_after_50"] = status()
    lat, cpu = [], []
    for q in qs[51:]:
        c0, t0 = time.process_time(), time.perf_counter()
        mem.recall(q, k=10)
        lat.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    out["warm_ms"] = {"p50": round(float(np.percentile(lat, 50)), 2), "p95": round(float(np.percentile(lat, 95)), 2),
                      "n": len(lat)}
    out["warm_cpu_ms"] = {"p50": round(float(np.percentile(cpu, 50)), 2),
                          "p95": round(float(np.percentile(cpu, 95)), 2)}
    out["rss_end"] = status()
    m = dense.sync("default") if dense is not None else None
    out["dense"] = {"rows": len(m) if m is not None else 0, "sidecar": bool(getattr(m, "sidecar", False))}
    out["loadavg_end"] = loadavg()
    mem.close()
    return out


def store_path(workdir: Path, size: int) -> Path:
    found = sorted(workdir.glob(f"store-*-{size}/memory.db"))
    turns = [p for p in found if "-turns-" in p.parent.name]
    if not found:
        raise SystemExit(f"no store of {size:,} turns in {workdir}: build it with bench/scale.py first")
    return (turns or found)[0]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workdir", type=Path, default=Path("/tmp/episodic-scale"))
    p.add_argument("--src", type=Path, default=ROOT / "src", help="the code measured (another checkout's src/)")
    p.add_argument("--label", default="this")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "cold_start.json")
    p.add_argument("--_child", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args._child:
        print(json.dumps(child(args._child, args.queries, args.seed)))
        return 0
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve())}
    results = []
    for size in args.sizes:
        db = store_path(args.workdir, size)
        sidecar = Path(str(db) + ".vectors")
        existed = sidecar.exists()
        runs = []
        for i in range(args.runs + (0 if existed else 1)):
            proc = subprocess.run([sys.executable, __file__, "--_child", str(db), "--queries", str(args.queries),
                                   "--seed", str(args.seed)], stdout=subprocess.PIPE, text=True, env=env, check=True)
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            r["build_run"] = i == 0 and not existed and sidecar.exists()
            runs.append(r)
            print(f"[{args.label}] {size:,} run {i + 1}{' (builds the sidecar)' if r['build_run'] else ''}: "
                  f"first recall {r['first_recall_ms']:,.0f} ms {r['first_recall_parts_ms']}, RSS after 50 "
                  f"{r['rss_after_50']}, warm p50 {r['warm_ms']['p50']} p95 {r['warm_ms']['p95']} ms, load "
                  f"{r['loadavg_start']} -> {r['loadavg_end']}", file=sys.stderr, flush=True)
        cold = [r for r in runs if not r["build_run"]]
        results.append({"size": size, "store": str(db), "runs": runs, "summary": {
            "first_recall_ms_median": float(np.median([r["first_recall_ms"] for r in cold])),
            "rss_after_50_mb_median": float(np.median([r["rss_after_50"]["VmRSS"] for r in cold])),
            "rss_anon_after_50_mb_median": float(np.median([r["rss_after_50"].get("RssAnon", 0) for r in cold])),
            "warm_p50_ms_median": float(np.median([r["warm_ms"]["p50"] for r in cold])),
            "warm_p95_ms_median": float(np.median([r["warm_ms"]["p95"] for r in cold])),
            "build_run_first_recall_ms": next((r["first_recall_ms"] for r in runs if r["build_run"]), None)}})
    head = "| size | code | first recall (median) | RSS after 50 recalls | of which private (RssAnon) | warm p50 | warm p95 | load |"
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for r in results:
        s, cold = r["summary"], [x for x in r["runs"] if not x["build_run"]]
        lines.append(f"| {r['size']:,} | {args.label} | {s['first_recall_ms_median']:,.0f} ms | "
                     f"{s['rss_after_50_mb_median']:,.0f} MB | {s['rss_anon_after_50_mb_median']:,.0f} MB | "
                     f"{s['warm_p50_ms_median']:.1f} ms | {s['warm_p95_ms_median']:.1f} ms | "
                     f"{cold[0]['loadavg_start'][0]}–{cold[-1]['loadavg_end'][0]} |")
    print("\n".join(lines))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"label": args.label, "src": str(args.src), "loadavg": loadavg(),
                                    "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                    "results": results, "table": lines}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
