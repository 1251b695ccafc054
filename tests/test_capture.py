"""Journal first: what is acknowledged survives, replays are idempotent, torn lines are skipped."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.capture.journal import Journal
from episodic_memory.memory import journal_dir_for
from episodic_memory.session_buffer import SessionBuffer
from episodic_memory.store.records import TurnRecord
from episodic_memory.store.sqlite import SQLiteStore

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL
NO_JOURNAL = "the journal: a PostgreSQL store keeps none (a committed transaction is the durable record)"


def _record(i: int, session: str = "s1", user: str = "default") -> TurnRecord:
    return TurnRecord(uid=f"uid-{session}-{i}", user_id=user, session_id=session, seq=i, role="user",
                      content=f"journaled turn number {i} about walruses", ts=1_700_000_000 + i,
                      ingested_at=1_700_000_000 + i, turn_id=f"{session}-{i}")


@pytest.mark.sqlite_only(NO_JOURNAL)
def test_turn_is_in_the_journal_before_sqlite(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(db_path) as mem:
        def boom(*args, **kwargs):
            raise RuntimeError("process died between journal and database")
        monkeypatch.setattr(SQLiteStore, "insert_turns", boom)
        with pytest.raises(RuntimeError):
            mem.add_turn("user", "the walrus count is 7", session_id="s1", turn_id="w1")
        monkeypatch.undo()
        lines = [json.loads(x) for f in journal_dir_for(db_path).rglob("*.jsonl") for x in f.read_text().splitlines()]
        assert [line["content"] for line in lines] == ["the walrus count is 7"]
        assert mem.stats()["turns"] == 0
    with Memory(db_path) as mem:  # the start-up sweep replays it
        assert mem.last_recovery.turns_recovered == 1
        assert [h.source_ids for h in mem.recall("walrus", kind="turn")] == [["w1"]]
    with Memory(db_path) as mem:  # and never twice
        assert mem.last_recovery.turns_recovered == 0
        assert mem.stats()["turns"] == 1


@pytest.mark.sqlite_only(NO_JOURNAL)
def test_a_live_writer_catches_up_before_appending(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(db_path) as mem:
        mem.add_turn("user", "first", session_id="s1")
        original = SQLiteStore.insert_turns
        monkeypatch.setattr(SQLiteStore, "insert_turns", lambda *a, **k: (_ for _ in ()).throw(OSError("x")))
        with pytest.raises(OSError):
            mem.add_turn("user", "second", session_id="s1")
        monkeypatch.setattr(SQLiteStore, "insert_turns", original)
        mem.add_turn("user", "third", session_id="s1")
        assert [(t.seq, t.content) for t in mem.session_turns("s1")] == [(0, "first"), (1, "second"), (2, "third")]


@pytest.mark.sqlite_only(NO_JOURNAL)
def test_torn_last_line_is_skipped_and_the_rest_recovered(db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(journal_dir_for(db_path))
    relative = journal.relative_path("default", "s1")
    journal.append(relative, [_record(0), _record(1), _record(2)])
    with open(journal.path(relative), "ab") as f:
        f.write(b'{"uid": "uid-s1-3", "user_id": "default", "content": "half a tur')
    with caplog.at_level(logging.WARNING), Memory(db_path) as mem:
        assert mem.last_recovery.turns_recovered == 3
        assert mem.last_recovery.torn_tails == 1
        assert "torn" in caplog.text
        assert mem.stats()["turns"] == 3
        assert journal.path(relative).read_bytes().endswith(b"\n")  # the torn tail is cut off
        mem.add_turn("user", "after the crash", session_id="s1")
        assert [t.seq for t in mem.session_turns("s1")] == [0, 1, 2, 3]
    with Memory(db_path) as mem:
        assert mem.stats()["turns"] == 4


@pytest.mark.sqlite_only(NO_JOURNAL)
def test_unreadable_line_in_the_middle_is_skipped_with_a_warning(db_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(journal_dir_for(db_path))
    relative = journal.relative_path("default", "s1")
    journal.append(relative, [_record(0)])
    with open(journal.path(relative), "ab") as f:
        f.write(b"this is not json\n")
    journal.append(relative, [_record(1)])
    with caplog.at_level(logging.WARNING), Memory(db_path) as mem:
        assert mem.stats()["turns"] == 2
        assert mem.last_recovery.bad_lines == 1
        assert "unreadable" in caplog.text


@pytest.mark.sqlite_only(NO_JOURNAL)
def test_recovered_sessions_are_marked_for_consolidation(db_path: Path) -> None:
    journal = Journal(journal_dir_for(db_path))
    journal.append(journal.relative_path("default", "s9"), [_record(0, "s9"), _record(1, "s9")])
    with Memory(db_path, config=Config(capture={"consolidate_on_open": False})) as mem:
        assert mem.sessions()[0].needs_consolidation
        seen: list[list[int]] = []
        mem.consolidation_steps.append(lambda m, info, turns: seen.append([t.seq for t in turns]))
        assert mem.consolidate_pending() == 1
        assert seen == [[0, 1]]
        assert not mem.sessions()[0].needs_consolidation


def test_consolidation_every_n_turns_and_at_session_end(mem: Memory) -> None:
    mem.config = mem.config.replace({"capture.consolidate_in_background": "off"})  # runs inside add_turn
    calls: list[list[int]] = []
    mem.consolidation_steps.append(lambda m, info, turns: calls.append([t.seq for t in turns]))
    buf = SessionBuffer("s1", memory=mem)
    for i in range(20):
        buf.append_turn("user" if i % 2 == 0 else "assistant", f"message {i}")
    assert calls == [list(range(0, 8)), list(range(8, 16))]
    buf.end()
    assert calls[-1] == list(range(16, 20))
    mem.consolidate("default", "s1")  # nothing new: the steps are not called again
    assert len(calls) == 3


def test_consolidation_every_is_configurable(db_path: Path) -> None:
    with Memory(db_path, config=Config(capture={"consolidate_every": 3, "consolidate_in_background": "off"})) as mem:
        calls: list[int] = []
        mem.consolidation_steps.append(lambda m, info, turns: calls.append(len(turns)))
        mem.add_turns([{"role": "user", "content": f"x{i}", "session_id": "s"} for i in range(7)])
        mem.add_turn("user", "more", session_id="s")
        assert calls == [7]  # a batch of 7 crossed the threshold once; one more turn is below it


def test_a_failing_consolidation_keeps_turns_and_is_retried_at_next_open(db_path: Path,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    with Memory(db_path) as mem:
        def failing(m, info, turns):
            raise RuntimeError("LLM unreachable")
        mem.consolidation_steps.append(failing)
        mem.add_turn("user", "keep me", session_id="s1")
        with caplog.at_level(logging.ERROR):
            mem.end_session("s1", wait=True)
        assert "retried" in caplog.text
        assert mem.stats()["turns"] == 1
    with Memory(db_path, config=Config(capture={"consolidate_on_open": False})) as mem:
        assert mem.store.sessions_needing_consolidation() == [("default", "s1")]
        mem.consolidation_steps.append(lambda m, info, turns: None)
        assert mem.consolidate_pending() == 1
        assert mem.store.sessions_needing_consolidation() == []


def test_session_buffer_uses_the_default_store(tmp_path: Path) -> None:
    buf = SessionBuffer("session-1")
    tid = buf.append_turn("user", "The Series B deck needs 14 slides, Sarah confirmed.", speaker="Maya")
    buf.append_turn("assistant", "Noted — updating the outline to 14.", id=42)
    assert len(buf) == 2 and buf.turns[1].turn_id == "42"
    assert buf.memory.recall("slides")[0].source_ids == [tid]
    assert Path(buf.memory.path) == tmp_path / "default" / "memory.db"
    with pytest.raises(TypeError, match="colour"):
        buf.append_turn("user", "x", colour="red")
    buf.end()
    assert buf.memory.sessions()[0].status == "ended"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 1e15, -1e15])
def test_an_epoch_no_date_can_hold_is_refused_before_anything_is_stored(mem: Memory, bad: float) -> None:
    with pytest.raises(ValueError, match="timestamp: .* is not a time in seconds since 1970"):
        mem.add_turn("user", "when?", session_id="s", timestamp=bad)  # type: ignore[arg-type]
    assert mem.stats()["turns"] == 0
