"""The one-file store: pragmas, migrations, refusal of newer files, per-user scoping."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from episodic_memory import Memory
from episodic_memory.store.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION, StoreVersionError


def test_pragmas_and_migrations_recorded(db_path: Path) -> None:
    with Memory(db_path) as mem:
        db = mem.store.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
        rows = db.execute("SELECT version, name FROM _migrations ORDER BY version").fetchall()
        assert rows == [(i + 1, m.__name__) for i, m in enumerate(MIGRATIONS)]
        assert mem.stats()["schema_version"] == SCHEMA_VERSION


def test_older_file_is_migrated_on_open(db_path: Path) -> None:
    # an "older" file: a database that has only the migration table, at version 0
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    db.execute("CREATE TABLE unrelated (x)")
    db.commit()
    db.close()
    with Memory(db_path) as mem:
        mem.add_turn("user", "hello migrated world", session_id="s")
        assert mem.stats()["turns"] == 1
        tables = {r[0] for r in mem.store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"turns", "sessions", "unrelated"} <= tables


def test_newer_file_is_refused_with_a_clear_message(db_path: Path) -> None:
    Memory(db_path).close()
    db = sqlite3.connect(db_path)
    db.execute("INSERT INTO _migrations VALUES (?, 'm999_from_the_future', 0)", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(StoreVersionError, match="newer version"):
        Memory(db_path)


def test_every_read_is_scoped_to_its_user(mem: Memory) -> None:
    mem.add_turn("user", "alice likes the blue kayak", session_id="s1", user_id="alice")
    mem.add_turn("user", "bob likes the red kayak", session_id="s1", user_id="bob")
    assert [h.text for h in mem.recall("kayak", user_id="alice")] == ["alice likes the blue kayak"]
    assert [h.text for h in mem.recall("kayak", user_id="bob")] == ["bob likes the red kayak"]
    assert mem.recall("kayak") == []  # the default user has nothing
    assert mem.stats(user_id="alice")["turns"] == 1
    assert [s.user_id for s in mem.sessions(user_id="bob")] == ["bob"]
    row = mem.store.db.execute("SELECT count(*) FROM turns WHERE user_id IS NULL").fetchone()
    assert row[0] == 0


def test_memory_in_memory_works() -> None:
    with Memory(":memory:") as mem:
        tid = mem.add_turn("user", "in memory only", session_id="s")
        assert mem.recall("memory")[0].source_ids == [tid]
        assert mem.journal.root is None


def test_default_path_honours_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere" / "m.db"
    monkeypatch.setenv("EPISODIC_DB", str(target))
    with Memory() as mem:
        mem.add_turn("user", "x", session_id="s")
    assert target.exists()
    assert (tmp_path / "elsewhere" / "m.db.journal").is_dir()


def test_bm25_over_turns_skips_the_user_join_only_while_one_user_has_turns(mem: Memory) -> None:
    mem.add_turn("user", "the blue kayak leaks", session_id="s1", user_id="alice")
    mem.add_turn("user", "a kayak trip on Sunday", session_id="s1", user_id="alice")
    store = mem.store
    alone = store.search_turns('"kayak"', "alice", limit=10)
    assert store._only_user("alice") and not store._only_user("bob")
    assert [i for i, _ in alone] == [i for i, _ in store.search_turns('"kayak"', "alice", limit=10, since=0)]
    assert store.search_turns('"kayak"', "bob", limit=10) == []  # nobody else's turns, with or without a join
    mem.add_turn("user", "bob's kayak is red", session_id="s1", user_id="bob")
    assert not store._only_user("alice")
    assert [i for i, _ in store.search_turns('"kayak"', "alice", limit=10)] == [i for i, _ in alone]
    assert len(store.search_turns('"kayak"', "bob", limit=10)) == 1
