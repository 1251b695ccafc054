"""Which FTS5 tokenizer and query for the BM25 leg? BM25 alone, one FTS5 table per variant, on LoCoMo turns (prose)
and on bench/exact.py's identifiers among near-duplicate turns.

    python bench/fts_tokenizers.py [--data PATH] [--turns 10000] [--per-style 1000] [--out bench/results/fts_tokenizers.json]

Queries go through the project's own safe query builders (`episodic_memory.retrieve.fts`), so this measures the
tokenizer and the query forms, not the query syntax. Variants:

- `unicode61`, `porter` (used), `trigram`: the word query (`fts_query`: the query's words, quoted, OR-ed);
- `porter + whole forms` (used since issue 23): the word query OR each identifier's and quoted phrase's own
  expression (`whole_forms`: `"zq 6614" OR "zq6614"`, `"v2 3 1"` for `2.3.1`, a hash's prefix);
- `porter tokenchars`: `-_./@#:+` are token characters, so `ZQ-6614` or `src/app/main.py` is one token; queried by
  whitespace chunk (each chunk, stripped of sentence punctuation, one quoted token);
- `trigram chunks`: the trigram tokenizer queried by whitespace chunk (a chunk is a substring match).

Exact: the first hit is the identifier's turn, queried whole, by its distinctive part, inside a question.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: import `bench.*` from the repo root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.datasets import LOCOMO_DEFAULT, load_locomo  # noqa: E402
from bench.exact import QUESTIONS, build_corpus  # noqa: E402
from bench.harness import import_episodic  # noqa: E402
from bench.metrics import recall_at_k  # noqa: E402

_EDGES = "()[]{}<>\"'“”‘’.,;:!?…"


def _chunks(text: str) -> str | None:
    """Each whitespace chunk as one quoted string (for tokenizers that keep identifiers whole)."""
    chunks = [c.strip(_EDGES).replace('"', '""') for c in text.split()]
    return " OR ".join(f'"{c}"' for c in dict.fromkeys(chunks) if re.search(r"\w", c)) or None


def variants() -> dict[str, tuple[str, Callable[[str], str | None]]]:
    import_episodic()
    from episodic_memory.retrieve.fts import fts_query, lookups, whole_forms

    def with_forms(text: str) -> str | None:
        words, whole = fts_query(text), whole_forms(lookups(text))
        return " OR ".join(x for x in (words, whole) if x) or None

    return {
        "unicode61": ("unicode61 remove_diacritics 2", fts_query),
        "porter": ("porter unicode61 remove_diacritics 2", fts_query),
        "porter + whole forms": ("porter unicode61 remove_diacritics 2", with_forms),
        "porter tokenchars": ("porter unicode61 remove_diacritics 2 tokenchars ''-_./@#:+''", _chunks),
        "trigram": ("trigram", fts_query),
        "trigram chunks": ("trigram", _chunks),
    }


def _table(spec: str, rows: list[tuple[str, str]]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, turn_id UNINDEXED, tokenize = '{spec}')")
    db.executemany("INSERT INTO t (body, turn_id) VALUES (?, ?)", rows)
    return db


def _search(db: sqlite3.Connection, match: str | None, limit: int) -> tuple[list[str], float]:
    started = time.perf_counter()
    try:
        rows = db.execute("SELECT turn_id FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?",
                          (match, limit)).fetchall() if match else []
    except sqlite3.OperationalError:  # a chunk the tokenizer cannot take (trigram: under 3 characters)
        rows = []
    return [r[0] for r in rows], time.perf_counter() - started


def locomo(data: Path) -> dict[str, dict[str, float]]:
    conversations = load_locomo(data, verbose=False)
    results: dict[str, dict[str, float]] = {}
    for name, (spec, build) in variants().items():
        scores: dict[int, list[float]] = {5: [], 10: [], 25: []}
        latencies: list[float] = []
        for conv in conversations:
            db = _table(spec, [(f"{turn.speaker}: {turn.text}", turn.turn_id) for turn in conv.turns()])
            for q in conv.questions:
                found, took = _search(db, build(q.question), 25)
                latencies.append(took)
                for k in scores:
                    scores[k].append(recall_at_k([[f] for f in found], q.evidence, k))
        results[name] = {f"R@{k}": round(statistics.mean(v), 3) for k, v in scores.items()}
        results[name]["median ms"] = round(statistics.median(latencies) * 1000, 2)
    return results


def exact(turns: int, per_style: int) -> dict[str, dict[str, Any]]:
    corpus = build_corpus(turns, per_style, 0, seed=23)
    rows = [(text, f"t{i}") for i, text in enumerate(corpus.texts)]
    results: dict[str, dict[str, Any]] = {}
    for name, (spec, build) in variants().items():
        db = _table(spec, rows)
        first: dict[str, list[bool]] = {"whole": [], "part": [], "question": []}
        for ident in corpus.idents:
            queries = {"whole": ident.whole, "question": QUESTIONS[ident.style].format(x=ident.whole)}
            if ident.part:
                queries["part"] = ident.part
            for form, query in queries.items():
                found, _ = _search(db, build(query), 1)
                first[form].append(found == [f"t{ident.turn}"])
        results[name] = {form: round(statistics.mean(v), 3) for form, v in first.items()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=LOCOMO_DEFAULT)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--per-style", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "fts_tokenizers.json")
    args = parser.parse_args()
    prose, ids = locomo(args.data), exact(args.turns, args.per_style)
    print("| tokenizer, query | LoCoMo R@5 | R@10 | R@25 | median ms | exact: whole first | part first | "
          "question first |\n|---|---|---|---|---|---|---|---|")
    for name, r in prose.items():
        e = ids[name]
        print(f"| {name} | {r['R@5']} | {r['R@10']} | {r['R@25']} | {r['median ms']} | {e['whole']} | {e['part']} | "
              f"{e['question']} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"data": str(args.data), "exact_corpus": {"turns": args.turns,
                                    "per_style": args.per_style, "seed": 23},
                                    "results": prose, "exact": ids}, indent=2) + "\n")


if __name__ == "__main__":
    main()
