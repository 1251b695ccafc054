"""`Config.experimental.blend_turn_vector`: a turn embedded with the turn before it also carries its own words alone."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from episodic_memory import Config, Memory
from episodic_memory.retrieve.texts import embedding_text
from episodic_memory.store.records import StoredTurn
from tests.fakes import HashingEmbedder


def _turn_vectors(db: Path, model: str) -> dict[int, np.ndarray]:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT item_id, vec FROM vectors WHERE kind = 'turn' AND model = ?", (model,)).fetchall()
    con.close()
    return {i: np.frombuffer(v, np.float32) for i, v in rows}


def _turn(i: int, content: str) -> StoredTurn:
    """The i-th turn of an exchange: user and assistant in turn (a turn is embedded with the one before only when
    another party said it)."""
    return StoredTurn(i, "default", "s", i, ROLES[(i - 1) % 2], content, float(i), float(i), None, None)


ROLES = ("user", "assistant")


def test_a_turn_in_context_is_stored_as_the_normalised_sum_of_both_views(tmp_path: Path):
    long = "the long one " + "word " * 80  # over embed_short_turn_chars: embedded alone either way
    texts = ["which city did you move to", "Lisbon, last spring", long, "and the rent there"]
    emb = HashingEmbedder()
    for blend in (False, True):
        db = tmp_path / f"m{blend}.db"
        with Memory(db, config=Config(experimental={"blend_turn_vector": blend}, capture={"consolidate_every": 100}), embedder=emb) as mem:
            for i, text in enumerate(texts):
                mem.add_turn(ROLES[i % 2], text, session_id="s")
            mem.index()
        got = _turn_vectors(db, emb.model_id)
        assert len(got) == 4
        turns = [_turn(i + 1, t) for i, t in enumerate(texts)]
        for i, turn in enumerate(turns):
            previous = turns[i - 1] if i else None
            in_context = embedding_text(turn, previous)
            expected = emb.embed([in_context])[0]
            if blend and in_context != embedding_text(turn):
                both = expected + emb.embed([embedding_text(turn)])[0]
                expected = both / np.linalg.norm(both)
            assert np.allclose(got[turn.id], expected, atol=1e-6), (blend, turn.content)
    # the second turn's vector moved towards its own words; the first and the long one did not
    off, on = _turn_vectors(tmp_path / "mFalse.db", emb.model_id), _turn_vectors(tmp_path / "mTrue.db", emb.model_id)
    assert np.allclose(off[1], on[1]) and np.allclose(off[3], on[3])
    alone = emb.embed(["Lisbon, last spring"])[0]
    assert float(on[2] @ alone) > float(off[2] @ alone)
