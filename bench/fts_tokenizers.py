"""Which FTS5 tokenizer for the BM25 leg? BM25 alone over LoCoMo turns, one FTS5 table per tokenizer.

    python bench/fts_tokenizers.py [--data PATH] [--out bench/results/fts_tokenizers.json]

Queries go through the project's own safe query builder (`episodic_memory.retrieve.fts.fts_query`), so this measures
the tokenizer, not the query syntax.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: import `bench.*` from the repo root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import LOCOMO_DEFAULT, load_locomo  # noqa: E402
from bench.harness import import_episodic  # noqa: E402
from bench.metrics import recall_at_k  # noqa: E402

TOKENIZERS = {
    "unicode61": "unicode61 remove_diacritics 2",
    "porter": "porter unicode61 remove_diacritics 2",
    "trigram": "trigram",
}


def evaluate(data: Path) -> dict[str, dict[str, float]]:
    import_episodic()
    from episodic_memory.retrieve.fts import fts_query
    conversations = load_locomo(data, verbose=False)
    results: dict[str, dict[str, float]] = {}
    for name, spec in TOKENIZERS.items():
        scores: dict[int, list[float]] = {5: [], 10: [], 25: []}
        latencies: list[float] = []
        for conv in conversations:
            db = sqlite3.connect(":memory:")
            db.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, turn_id UNINDEXED, tokenize = '{spec}')")
            db.executemany("INSERT INTO t (body, turn_id) VALUES (?, ?)",
                           [(f"{turn.speaker}: {turn.text}", turn.turn_id) for turn in conv.turns()])
            for q in conv.questions:
                match = fts_query(q.question)
                started = time.perf_counter()
                rows = db.execute("SELECT turn_id FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 25",
                                  (match,)).fetchall() if match else []
                latencies.append(time.perf_counter() - started)
                ranked = [[r[0]] for r in rows]
                for k in scores:
                    scores[k].append(recall_at_k(ranked, q.evidence, k))
        results[name] = {f"R@{k}": round(statistics.mean(v), 3) for k, v in scores.items()}
        results[name]["median ms"] = round(statistics.median(latencies) * 1000, 2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=LOCOMO_DEFAULT)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "fts_tokenizers.json")
    args = parser.parse_args()
    results = evaluate(args.data)
    print("| tokenizer | R@5 | R@10 | R@25 | median ms |\n|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['R@5']} | {r['R@10']} | {r['R@25']} | {r['median ms']} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"data": str(args.data), "results": results}, indent=2))


if __name__ == "__main__":
    main()
