"""Does one user's embedding backlog stall another user's recall? (issue 18, item 5)

Through the REST app (in process, FastAPI's TestClient, the real embedder): user B stores a turn and recalls once
(the model is loaded); user A posts eight turns of ~1 MB each; then B recalls, and the time of that recall is what
this measures. Consolidation is kept out of it (`consolidate_every` above eight), so what is measured is the
embedding of A's turns: on B's request, or not.

    PYTHONPATH=src python bench/backlog.py [--turns 8] [--chars 1000000]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from episodic_memory.config import Config
from episodic_memory.server.rest import create_app
from episodic_memory.server.tokens import TokenStore

WORDS = ("deck slides pipeline airflow budget review launch customer migration report meeting contract "
         "invoice design schedule hiring roadmap metrics outage deploy").split()


def big_text(chars: int, seed: int) -> str:
    rng = random.Random(seed)
    words: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:chars]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--chars", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        tokens = TokenStore.open(db)
        secret_a, _ = tokens.create("alice")
        secret_b, _ = tokens.create("bob")
        tokens.close()
        config = Config.from_env({"capture.consolidate_every": args.turns + 1,
                                  "server.max_body_bytes": args.chars + 4096, "capture.max_turn_chars": args.chars + 1})
        with TestClient(create_app(db, config=config)) as client:
            a = {"Authorization": f"Bearer {secret_a}"}
            b = {"Authorization": f"Bearer {secret_b}"}
            client.post("/v1/turns", headers=b, json={"role": "user", "content": "The deck needs 14 slides",
                                                      "session_id": "b1"}).raise_for_status()
            started = time.perf_counter()
            client.get("/v1/recall", headers=b, params={"q": "how many slides"}).raise_for_status()
            print(f"B's first recall (loads the model): {time.perf_counter() - started:.2f}s")
            started = time.perf_counter()
            for i in range(args.turns):
                client.post("/v1/turns", headers=a, json={"role": "user", "content": big_text(args.chars, i),
                                                          "session_id": "a1"}).raise_for_status()
            print(f"A posted {args.turns} turns of {args.chars:,} chars: {time.perf_counter() - started:.2f}s")
            for n in range(3):
                started = time.perf_counter()
                hits = client.get("/v1/recall", headers=b, params={"q": "how many slides"}).json()["hits"]
                print(f"B's recall #{n + 1} after A's posts: {time.perf_counter() - started:.3f}s "
                      f"({len(hits)} hit(s), all B's: {all('alice' not in str(h) for h in hits)})")
            started = time.perf_counter()
            client.get("/v1/recall", headers=a, params={"q": "airflow migration"}).raise_for_status()
            print(f"A's own recall afterwards: {time.perf_counter() - started:.2f}s")


if __name__ == "__main__":
    main()
