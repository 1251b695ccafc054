"""Currency probe: hand-written changes in other words, and controls where two similar values are both true.

`python bench/currency_probe.py [--out bench/results/currency_probe.json] [--only ID ...]`

Each case of `bench/data/currency_probe.jsonl` is a few short sessions (timestamps, filler turns, an initial
statement, a later change — with and without cue words, naming the subject or referring back to it, in the same
session or weeks later, assistant echoes, sometimes ingested out of order) and a question. Each goes through the
public API (`Memory(":memory:")`, `add_turn` with timestamps, `end_session`, `recall(question, k=10)`), with
currency on (the default Config) and off (`Config(currency_pool=0)`).

- change cases: among the top-10 hits that carry the current or a stale value, the first carries the current one
  (current-first) / only stale ones (stale-first);
- controls (two similar values both true): both values are in the top 10 and no hit carrying either is marked
  superseded (`hit.details["superseded"]`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run from a clone without `pip install -e .`
    sys.path.insert(0, str(ROOT / "src"))

from episodic_memory import Config, Memory  # noqa: E402

DATA = ROOT / "bench" / "data" / "currency_probe.jsonl"
OUT = ROOT / "bench" / "results" / "currency_probe.json"
TOP_K = 10
TURN_GAP = timedelta(seconds=45)


def _norm(text: str) -> str:
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text.lower())
    return text.replace("$", "").replace("’", "'")


def carries(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w.:]){re.escape(_norm(value))}(?![\w:])", _norm(text)) is not None


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_case(case: dict[str, Any], config: Config, embedder: Any) -> dict[str, Any]:
    mem = Memory(":memory:", config=config, embedder=embedder)
    try:
        sessions = {s["session_id"]: s for s in case["sessions"]}
        for sid in case.get("ingest_order") or list(sessions):
            start = datetime.fromisoformat(sessions[sid]["start"].replace("Z", "+00:00"))
            for i, turn in enumerate(sessions[sid]["turns"]):
                mem.add_turn(turn["role"], turn["content"], session_id=sid, timestamp=start + i * TURN_GAP)
            mem.end_session(sid)
        t0 = time.perf_counter()
        hits = mem.recall(case["question"], k=TOP_K)
        ms = (time.perf_counter() - t0) * 1000
    finally:
        mem.close()
    shown = [{"text": h.text, "kind": h.kind, "superseded": h.details.get("superseded")} for h in hits]
    out: dict[str, Any] = {"id": case["id"], "ms": round(ms, 2), "hits": shown}
    if case.get("control"):
        a, b = case["values"]
        present = all(any(carries(h.text, v) for h in hits) for v in (a, b))
        marked = any(h.details.get("superseded") and (carries(h.text, a) or carries(h.text, b)) for h in hits)
        out.update(control=True, both_present=present, marked=marked, correct=present and not marked)
    else:
        current, stale = case["current"], case["stale"]
        first = next((h for h in hits if carries(h.text, current) or any(carries(h.text, s) for s in stale)), None)
        out.update(control=False,
                   current_first=first is not None and carries(first.text, current),
                   stale_first=first is not None and not carries(first.text, current),
                   value_at_10=first is not None)
    return out


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    changes = [r for r in results if not r["control"]]
    controls = [r for r in results if r["control"]]

    def share(rows: list[dict[str, Any]], key: str) -> float:
        return round(sum(bool(r[key]) for r in rows) / len(rows), 3) if rows else 0.0

    ms = sorted(r["ms"] for r in results)
    return {"changes": len(changes), "controls": len(controls),
            "current_first": share(changes, "current_first"), "stale_first": share(changes, "stale_first"),
            "value_at_10": share(changes, "value_at_10"), "controls_correct": share(controls, "correct"),
            "recall_ms_p50": ms[len(ms) // 2] if ms else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--only", nargs="*", help="case ids")
    parser.add_argument("--show", action="store_true", help="print the top hits of cases that fail with currency on")
    args = parser.parse_args(argv)
    cases = load(args.data)
    if args.only:
        cases = [c for c in cases if c["id"] in args.only]
    embedder = Memory(":memory:").clients.embedder()
    settings = {"on": Config(), "off": Config(currency={"pool": 0})}
    results = {name: [run_case(c, cfg, embedder) for c in cases] for name, cfg in settings.items()}
    summary = {name: summarise(rows) for name, rows in results.items()}
    print(f"{'case':<24}{'tags':<44}{'on':>6}{'off':>6}")
    for on, off, case in zip(results["on"], results["off"], cases, strict=True):
        def mark(r: dict[str, Any]) -> str:
            if r["control"]:
                return "ok" if r["correct"] else ("MARK" if r["marked"] else "miss")
            return "cur" if r["current_first"] else ("STALE" if r["stale_first"] else "none")
        print(f"{case['id']:<24}{','.join(case['tags'])[:42]:<44}{mark(on):>6}{mark(off):>6}")
        if args.show and (on.get("correct") is False or on.get("current_first") is False):
            for h in on["hits"][:6]:
                print(f"      {'S ' if h['superseded'] else '  '}{h['kind']:<8}{h['text'][:100]}")
    print()
    keys = ("current_first", "stale_first", "value_at_10", "controls_correct", "recall_ms_p50")
    print(f"{'metric':<20}{'on':>10}{'off':>10}")
    for key in keys:
        print(f"{key:<20}{summary['on'][key]:>10}{summary['off'][key]:>10}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "results": results}, indent=1) + "\n")
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
