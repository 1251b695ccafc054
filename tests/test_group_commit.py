"""Group commit: concurrent writers in one process share journal fsyncs, each call is acknowledged only once its
turns are durable, and a failing session fails only the calls that wrote to it (issue 16)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.capture import journal as journal_module
from episodic_memory.store.sqlite import SQLiteStore

CONFIG = Config(models={"embedder": "off"}, capture={"consolidate_every": 10_000})


@pytest.mark.sqlite_only("counts the journal's fsyncs: a PostgreSQL store keeps no journal")
def test_concurrent_writers_share_fsyncs_and_every_turn_is_stored_once(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    fsyncs = []
    real_fsync = os.fsync
    gate = threading.Event()

    def slow_fsync(fd: int) -> None:  # a slow disk: writers pile up behind the one syncing
        fsyncs.append(fd)
        gate.wait(0.02)
        real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "fsync", slow_fsync)
    with Memory(tmp_path / "m.db", config=CONFIG) as mem:
        ids: dict[int, list[str]] = {}

        def writer(n: int) -> None:
            ids[n] = [mem.add_turn("user", f"writer {n} line {i}", session_id=f"s{n % 2}", turn_id=f"{n}-{i}")
                      for i in range(10)]

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(ids) == list(range(8)) and all(len(v) == 10 for v in ids.values())
        for sid in ("s0", "s1"):
            turns = mem.session_turns(sid)
            assert sorted(t.content for t in turns) == sorted(
                f"writer {n} line {i}" for n in range(8) if n % 2 == int(sid[1]) for i in range(10))
            assert [t.seq for t in turns] == list(range(40))  # one order per session, no gaps or repeats
        assert len(fsyncs) < 80  # 80 calls; grouped, they needed fewer fsyncs
    # and every acknowledged turn is in the journal, once
    lines = [ln for f in (tmp_path / "m.db.journal").rglob("*.jsonl") for ln in f.read_text().splitlines()]
    assert len(lines) == 80


def test_the_same_turn_twice_in_one_group_is_stored_once(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", config=CONFIG) as mem:
        turn = {"role": "user", "content": "hello there", "session_id": "s", "turn_id": "t1"}
        first, second = mem.add_turns([turn, dict(turn)])
        assert first == second == "t1"
        assert len(mem.session_turns("s")) == 1


@pytest.mark.sqlite_only("fails the SQLite store's insert")
def test_a_failing_session_fails_only_its_own_callers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(tmp_path / "m.db", config=CONFIG) as mem:
        real = SQLiteStore.insert_turns
        in_bad, release = threading.Event(), threading.Event()

        def insert(self: SQLiteStore, records, journal_file, journal_offset):  # type: ignore[no-untyped-def]
            if records[0].session_id == "bad":
                raise OSError("disk trouble in session bad")
            if records[0].session_id == "hold":
                in_bad.set()
                release.wait(10)
            return real(self, records, journal_file, journal_offset)

        monkeypatch.setattr(SQLiteStore, "insert_turns", insert)
        outcome: dict[str, object] = {}

        def add(sid: str) -> None:
            try:
                outcome[sid] = mem.add_turn("user", f"a line for {sid}", session_id=sid)
            except OSError as exc:
                outcome[sid] = exc

        holder = threading.Thread(target=add, args=("hold",))
        holder.start()
        assert in_bad.wait(10)  # the leader is busy: the next two queue up and go as one group
        others = [threading.Thread(target=add, args=(sid,)) for sid in ("bad", "good")]
        for t in others:
            t.start()
        release.set()
        for t in [holder, *others]:
            t.join(30)
        assert isinstance(outcome["bad"], OSError)
        assert isinstance(outcome["good"], str) and isinstance(outcome["hold"], str)
        monkeypatch.undo()
        assert [t.content for t in mem.session_turns("good")] == ["a line for good"]
        assert mem.session_turns("bad") == []


@pytest.mark.sqlite_only("counts the journal's fsyncs: a PostgreSQL store keeps no journal")
def test_memories_of_one_file_share_the_lock_and_the_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server opens one Memory per user on one file: their writers queue on one thread lock and one group (not
    on the file lock, which polls), and every call is acknowledged with its own turns."""
    fsyncs = []
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        fsyncs.append(fd)
        threading.Event().wait(0.02)
        real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "fsync", slow_fsync)
    memories = [Memory(tmp_path / "m.db", config=CONFIG, user_id=f"u{n}") for n in range(4)]
    try:
        def writer(n: int) -> None:
            for i in range(10):
                memories[n].add_turn("user", f"user {n} line {i}", session_id="shared")

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for n, mem in enumerate(memories):
            assert [t.content for t in mem.session_turns("shared")] == [f"user {n} line {i}" for i in range(10)]
        assert memories[0].recorder._writers is memories[3].recorder._writers
        assert len(fsyncs) == 40  # four sessions' journals: one fsync per session and call, none skipped
    finally:
        for mem in memories:
            mem.close()
