"""A turn's metadata (a JSON object kept with it, never searched) and `pop_turn` (remove a session's latest turn):
what the OpenAI Agents SDK session is built on, on both backends."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from episodic_memory import Config, Memory

from .fakes import HashingEmbedder

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

ITEM = {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
        "content": [{"type": "output_text", "text": "Noted: 14 slides.", "annotations": []}],
        "extra": {"n": [1, 2.5, None, True], "ü": "ñ"}}


def _open(db_path: Path | str, **config: object) -> Memory:
    return Memory(db_path, config=Config(**config), embedder=HashingEmbedder(dim=128))


def test_metadata_comes_back_exactly_and_is_not_searched(db_path: Path | str) -> None:
    with _open(db_path) as mem:
        mem.add_turn("assistant", "Noted: 14 slides.", session_id="s1", metadata={"item": ITEM})
        mem.add_turn("user", "no metadata here", session_id="s1")
        turns = mem.session_turns("s1")
        assert turns[0].metadata == {"item": ITEM} and turns[1].metadata is None
        assert list(turns[0].metadata["item"]) == list(ITEM)  # key order kept
        assert mem.recall("annotations output_text msg_1") == []  # the metadata is not searched
    with _open(db_path) as again:
        assert again.session_turns("s1")[0].metadata == {"item": ITEM}


@pytest.mark.sqlite_only("replays the SQLite store's journal")
def test_metadata_is_journaled(db_path: Path | str) -> None:
    with _open(db_path) as mem:
        mem.add_turn("user", "hello", session_id="s1", metadata={"item": ITEM})
    db = sqlite3.connect(db_path)
    db.execute("DELETE FROM turns")
    db.execute("UPDATE sessions SET journal_offset = 0")
    db.commit()
    db.close()
    with _open(db_path) as again:  # recovery replays the journal: the metadata was in its line
        assert [t.metadata for t in again.session_turns("s1")] == [{"item": ITEM}]


def test_bad_metadata_is_refused(db_path: Path | str) -> None:
    with _open(db_path, capture={"max_turn_metadata_chars": 200, "max_json_depth": 4}) as mem:
        with pytest.raises(TypeError, match="metadata must be a mapping"):
            mem.add_turn("user", "x", session_id="s1", metadata=["not", "an", "object"])  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="metadata must be a JSON object"):
            mem.add_turn("user", "x", session_id="s1", metadata={"n": math.nan})
        with pytest.raises(ValueError, match="metadata must be a JSON object"):
            mem.add_turn("user", "x", session_id="s1", metadata={"o": object()})
        with pytest.raises(ValueError, match="max_turn_metadata_chars"):
            mem.add_turn("user", "x", session_id="s1", metadata={"big": "x" * 300})
        with pytest.raises(ValueError, match="nested deeper"):
            mem.add_turn("user", "x", session_id="s1", metadata={"a": {"b": {"c": {"d": {}}}}})
        with pytest.raises(ValueError, match="lone surrogate"):
            mem.add_turn("user", "x", session_id="s1", metadata={"s": "\ud800"})
        with pytest.raises(ValueError, match="turn 1: metadata"):  # a batch is checked whole before anything
            mem.add_turns([{"role": "user", "content": "ok", "session_id": "s1"},
                           {"role": "user", "content": "bad", "session_id": "s1", "metadata": {"n": math.inf}}])
        assert mem.session_turns("s1") == []


def test_pop_turn_removes_the_latest_turn(db_path: Path | str) -> None:
    with _open(db_path) as mem:
        assert mem.pop_turn("nothing") is None
        mem.add_turn("user", "The Series B deck needs 14 slides", session_id="s1", metadata={"i": 0})
        mem.add_turn("assistant", "The parade in Lisbon was loud", session_id="s1", metadata={"i": 1})
        assert any("parade" in h.text for h in mem.recall("Lisbon parade"))
        popped = mem.pop_turn("s1")
        assert popped is not None and popped.content.startswith("The parade") and popped.metadata == {"i": 1}
        info = mem.session("s1")
        assert info is not None and info.turn_count == 1
        assert not any("parade" in h.text for h in mem.recall("Lisbon parade"))  # its index entries went
        mem.add_turn("assistant", "Fourteen it is", session_id="s1")
        assert [(t.seq, t.content) for t in mem.session_turns("s1")] == [
            (0, "The Series B deck needs 14 slides"), (1, "Fourteen it is")]
        assert mem.pop_turn("s1", user_id="someone-else") is None
    with _open(db_path) as again:  # nothing popped comes back at the next open (the journal is not replayed)
        assert [t.content for t in again.session_turns("s1")] == ["The Series B deck needs 14 slides",
                                                                   "Fourteen it is"]


def test_a_turn_in_a_popped_turns_place_is_consolidated(db_path: Path | str) -> None:
    with _open(db_path, capture={"consolidate_every": 2, "consolidate_in_background": "off"}) as mem:
        mem.add_turn("user", "We moved the launch to Friday", session_id="s1")
        mem.add_turn("user", "The budget is 40k", session_id="s1")
        info = mem.session("s1")
        assert info is not None and info.consolidated_turns == 2
        mem.pop_turn("s1")
        info = mem.session("s1")
        assert info is not None and info.consolidated_turns == 1  # stepped back before the popped turn
        mem.add_turn("user", "The budget is 50k", session_id="s1")
        mem.add_turn("user", "Maya owns the rollout", session_id="s1")
        info = mem.session("s1")
        assert info is not None and info.consolidated_turns == info.turn_count == 3


def test_metadata_travels_in_an_export_and_goes_with_forget(db_path: Path | str, tmp_path: Path) -> None:
    with _open(db_path) as mem:
        mem.add_turn("user", "hello", session_id="s1", metadata={"item": ITEM})
        mem.export(tmp_path / "out.jsonl")
        mem.forget(session_id="s1")
        assert mem.session_turns("s1") == []
        mem.import_(tmp_path / "out.jsonl")
        assert [t.metadata for t in mem.session_turns("s1")] == [{"item": ITEM}]
