"""Recall latency with currency at recall time on and off, A/B in one process, on a LoCoMo conversation's store.

`python bench/currency_cost.py [--conv 0] [--rounds 3] [--out bench/results/currency_cost.json]`

The conversation is ingested once (cached under `--workdir`); two `Memory`s open the same file, one with the
default Config, one with `currency_pool=0`, and every question is recalled by both in turn (which one goes first
alternates), after a warm-up round, so both see the same machine. Prints p50 / p95 per variant.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import load_locomo  # noqa: E402
from bench.harness import import_episodic  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "currency_cost.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conv", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "episodic-currency-cost")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    episodic = import_episodic()
    conv = load_locomo(verbose=False)[args.conv]
    db = args.workdir / f"{conv.conv_id}.db"
    if not db.exists():
        args.workdir.mkdir(parents=True, exist_ok=True)
        with episodic.Memory(db) as mem:
            for session in conv.sessions:
                for turn in session.turns:
                    mem.add_turn(turn.role, turn.text, session_id=session.session_id, speaker=turn.speaker,
                                 timestamp=turn.timestamp, turn_id=turn.turn_id)
                mem.end_session(session.session_id)
    questions = [q.question for q in conv.questions]
    variants = {"on": episodic.Memory(db, config=episodic.Config()),
                "off": episodic.Memory(db, config=episodic.Config(currency={"pool": 0}))}
    times: dict[str, list[float]] = {name: [] for name in variants}
    for rnd in range(args.rounds + 1):
        for i, q in enumerate(questions):
            order = list(variants) if (i + rnd) % 2 == 0 else list(reversed(variants))
            for name in order:
                t0 = time.perf_counter()
                variants[name].recall(q, k=args.k)
                if rnd:  # round 0 warms up (model, caches)
                    times[name].append((time.perf_counter() - t0) * 1000)
    for mem in variants.values():
        mem.close()

    def pct(xs: list[float], p: float) -> float:
        return round(statistics.quantiles(xs, n=100)[int(p) - 1], 2)

    summary = {name: {"p50_ms": pct(xs, 50), "p95_ms": pct(xs, 95), "n": len(xs)} for name, xs in times.items()}
    for name, row in summary.items():
        print(f"{name:<5} p50 {row['p50_ms']:>7} ms   p95 {row['p95_ms']:>7} ms   ({row['n']} recalls)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"conversation": conv.conv_id, "questions": len(questions), "rounds": args.rounds,
                                    "variants": summary}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
