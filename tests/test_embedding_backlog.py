"""Embedding is bounded per item and scoped per user: one user's large writes never run inside another's recall
(issue 18, item 5). `bench/backlog.py` measures the same through the REST app with the real model."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from fastapi.testclient import TestClient

from episodic_memory import Config, Memory
from episodic_memory.server.pool import MemoryPool
from episodic_memory.server.rest import create_app
from episodic_memory.server.tokens import TokenStore

from .fakes import HashingEmbedder

BIG = 1_000_000


def big_turn(marker: str) -> str:
    return f"{marker} airflow migration notes " + "lorem ipsum dolor sit amet " * (BIG // 27)


class Recording(HashingEmbedder):
    """Remembers every text it was given, and on which thread."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str]] = []  # (thread name, text)
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            self.seen += [(threading.current_thread().name, t) for t in texts]
        return super().embed(texts)

    def texts(self) -> list[str]:
        with self._lock:
            return [t for _, t in self.seen]


def test_a_huge_turn_is_embedded_from_a_bounded_prefix(tmp_path: Path) -> None:
    embedder = Recording()
    config = Config(models={"embedder": "off", "embed_max_chars": 2_000}, capture={"max_turn_chars": 2 * BIG, "consolidate_every": 100})
    with Memory(tmp_path / "m.db", config=config, embedder=embedder) as mem:
        mem.add_turn("user", big_turn("zeppelin"), session_id="s1")
        hits = mem.recall("zeppelin airflow")
        assert hits and hits[0].text.startswith("zeppelin")  # still found, by the words it starts with
        assert mem.stats()["vectors"] == 1
    assert embedder.texts() and max(len(t) for t in embedder.texts()) <= 2_000


def test_one_users_backlog_is_never_embedded_in_another_users_recall(tmp_path: Path) -> None:
    embedder = Recording()
    config = Config(models={"embedder": "off"}, capture={"max_turn_chars": 2 * BIG, "consolidate_every": 100})  # the backlog stays pending: nothing consolidates
    pool = MemoryPool(tmp_path / "m.db", config, embedder)
    try:
        pool.get("bob").add_turn("user", "The deck needs 14 slides", session_id="b1")
        alice = pool.get("alice")
        alice.add_turns([{"role": "user", "content": big_turn(f"alice{i}"), "session_id": "a1"} for i in range(8)])
        embedder.seen.clear()
        hits = pool.get("bob").recall("how many slides")
        assert [h.text for h in hits][:1] == ["The deck needs 14 slides"]
        assert embedder.texts() and not any("alice" in t for t in embedder.texts())  # only bob's own
        assert alice.indexer.pending() == 8  # alice's backlog is still hers, untouched
        alice.index(user_id="alice")  # what her own recall or the server's worker does first
        assert alice.indexer.pending() == 0
        assert max(len(t) for t in embedder.texts()) <= config.models.embed_max_chars
    finally:
        pool.close()


def test_a_recall_embeds_a_bounded_share_of_its_own_backlog_and_the_next_ones_go_on(tmp_path: Path) -> None:
    embedder = Recording()
    config = Config(models={"embedder": "off"}, capture={"max_turn_chars": 2 * BIG, "consolidate_every": 100}, retrieval={"recall_embed_max_items": 5})
    with Memory(tmp_path / "m.db", config=config, embedder=embedder) as mem:
        mem.add_turns([{"role": "user", "content": f"kayak note {i}", "session_id": "s"} for i in range(12)])
        assert mem.recall("kayak note 3")  # found by BM25 whether embedded yet or not
        assert mem.indexer.pending() == 7 and len(embedder.texts()) - 1 == 5  # five turns, and the query
        mem.recall("kayak note 9")
        assert mem.indexer.pending() == 2
        mem.index()  # the unbounded pass (consolidation, the server's worker) takes the rest
        assert mem.indexer.pending() == 0 and mem.stats()["vectors"] == 12


def test_on_the_rest_server_another_users_backlog_runs_on_the_worker_never_in_a_request(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    tokens = TokenStore.open(db)
    secret_a, _ = tokens.create("alice")
    secret_b, _ = tokens.create("bob")
    tokens.close()
    embedder = Recording()
    config = Config(models={"embedder": "off"}, capture={"max_turn_chars": 2 * BIG, "consolidate_every": 100}, server={"max_body_bytes": BIG + 65_536})
    with TestClient(create_app(db, config=config, embedder=embedder)) as client:
        a, b = ({"Authorization": f"Bearer {s}"} for s in (secret_a, secret_b))
        assert client.post("/v1/turns", headers=b, json={"role": "user", "content": "The deck needs 14 slides",
                                                         "session_id": "b1"}).status_code == 201
        for i in range(8):
            assert client.post("/v1/turns", headers=a, json={"role": "user", "content": big_turn(f"alice{i}"),
                                                             "session_id": "a1"}).status_code == 201
        got = client.get("/v1/recall", headers=b, params={"q": "how many slides"})
        assert got.status_code == 200 and got.json()["hits"][0]["text"] == "The deck needs 14 slides"
    with embedder._lock:
        alices = [thread for thread, text in embedder.seen if "alice" in text]
    assert set(alices) <= {"episodic-consolidator"}  # the background worker, or nobody: never a request's thread
    assert max(len(t) for t in embedder.texts()) <= config.models.embed_max_chars
