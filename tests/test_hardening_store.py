"""Issue 18, the storage half: each defect found by fault injection, reproduced (see also tests/faults/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from episodic_memory import Memory
from episodic_memory.faults import ENV, FaultInjected
from episodic_memory.memory import journal_dir_for


def test_a_failed_add_turn_retried_with_its_turn_id_is_stored_once(db_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal line was fsynced, the SQLite write failed; the retry (after recovery replayed it, or not)
    must not store a second row."""
    with Memory(db_path) as mem:
        mem.add_turn("user", "first", session_id="s", turn_id="t0")
        monkeypatch.setenv(ENV, "capture.after_journal:raise")
        with pytest.raises(FaultInjected):
            mem.add_turn("user", "the deck needs 14 slides", session_id="s", turn_id="t1")
        monkeypatch.delenv(ENV)
        assert mem.add_turn("user", "the deck needs 14 slides", session_id="s", turn_id="t1") == "t1"
        assert [t.turn_id for t in mem.session_turns("s")] == ["t0", "t1"]
    with Memory(db_path) as mem:  # recovery replays nothing twice, and a retry after it neither
        assert mem.add_turn("user", "the deck needs 14 slides", session_id="s", turn_id="t1") == "t1"
        assert [t.turn_id for t in mem.session_turns("s")] == ["t0", "t1"]
        assert [t.seq for t in mem.session_turns("s")] == [0, 1]


def test_a_corrupt_journal_line_does_not_make_two_turns_share_a_seq(db_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(db_path) as mem:
        mem.add_turn("user", "zero", session_id="s")
        monkeypatch.setenv(ENV, "capture.after_journal:raise")  # two lines journaled, never stored (a crash)
        with pytest.raises(FaultInjected):
            mem.add_turns([{"role": "user", "content": text, "session_id": "s"} for text in ("one", "two")])
        monkeypatch.delenv(ENV)
    journal = next(journal_dir_for(db_path).glob("*/*.jsonl"))
    lines = journal.read_bytes().splitlines(keepends=True)
    assert json.loads(lines[1])["content"] == "one"
    lines[1] = b"{\"uid\": garbage" + b" " * (len(lines[1]) - 16) + b"\n"  # a bit flip: the line no longer parses
    journal.write_bytes(b"".join(lines))
    with Memory(db_path) as mem:
        mem.add_turn("user", "three", session_id="s")
        turns = mem.session_turns("s")
        assert [t.content for t in turns] == ["zero", "two", "three"]
        seqs = [t.seq for t in turns]
        assert len(set(seqs)) == len(seqs) and seqs == sorted(seqs)
