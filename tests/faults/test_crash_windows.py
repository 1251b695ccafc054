"""add_turn, end_session, consolidation, token revoke and migrations killed in each of their windows; reopened,
nothing acknowledged is lost, nothing is stored twice, and what was half done is finished or undone."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from episodic_memory import Memory
from episodic_memory.server.tokens import TokenStore
from episodic_memory.store import open_store
from episodic_memory.store.sqlite import migrations

from .harness import CHILD, CONFIG, child_env, crash_at, reopen

pytestmark = pytest.mark.crash

LINES = ["We decided to migrate the analytics pipeline to Airflow before the audit.",
         "Dev owns the Airflow migration and wants parallel runs until the cutover.",
         "The cutover to Airflow is Monday 30 November.",
         "Maya Okafor will review the DAGs on Friday."]


def _acknowledged(db: Path, n: int = 3) -> list[str]:
    with reopen(db) as mem:
        return [mem.add_turn("user", LINES[i], session_id="s", turn_id=f"t{i}") for i in range(n)]


def _session_ids(db: Path) -> list[str | None]:
    with reopen(db) as mem:
        return [t.turn_id for t in mem.session_turns("s")]


@pytest.mark.parametrize("window", ["capture.after_journal", "capture.after_store"])
def test_add_turn_killed_then_retried(tmp_path: Path, window: str) -> None:
    db = tmp_path / "m.db"
    acked = _acknowledged(db)
    crash_at(db, window, "add_turn", "default", "s", "t3", LINES[3])
    assert _session_ids(db) == [*acked, "t3"]  # fsynced before the kill: recovered, once
    with reopen(db) as mem:  # the caller never heard back, so it retries: still once
        assert mem.add_turn("user", LINES[3], session_id="s", turn_id="t3") == "t3"
        turns = mem.session_turns("s")
        assert [t.turn_id for t in turns] == [*acked, "t3"] and [t.seq for t in turns] == [0, 1, 2, 3]


def _consolidated_once(db: Path) -> None:
    with reopen(db) as mem:
        info = mem.store.session("default", "s")
        assert info is not None and info.status == "ended"
        assert info.consolidated_turns == info.turn_count and not info.needs_consolidation
        assert len(mem.episodes()) == 1
        facts = Counter(f.text for f in mem.facts(include_superseded=True))
        assert facts and max(facts.values()) == 1
        assert mem.lease.claim("default", "s")  # no claim left behind, or only a dead process's


@pytest.mark.parametrize("window", ["session.after_end", "consolidate.after_step"])
def test_end_session_killed_is_consolidated_at_the_next_open(tmp_path: Path, window: str) -> None:
    db = tmp_path / "m.db"
    _acknowledged(db, 4)
    crash_at(db, window, "end_session", "default", "s")  # after_step: dies holding the session's lease
    _consolidated_once(db)


def test_consolidation_killed_before_it_records_is_redone_once(tmp_path: Path) -> None:
    """Killed after the facts step wrote, before the run was recorded, holding the session's lease: the session
    end that follows takes the dead process's lease over at once and redoes the run without duplicating a fact."""
    db = tmp_path / "m.db"
    _acknowledged(db, 4)
    crash_at(db, "consolidate.after_step", "consolidate", "default", "s")
    with reopen(db) as mem:
        mem.end_session("s")
    _consolidated_once(db)


def test_two_processes_consolidating_one_session_do_not_collide(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with reopen(db) as mem:
        for i in range(40):
            mem.add_turn("user", f"{LINES[i % 4]} (note {i})", session_id="s")
    children = [subprocess.Popen([sys.executable, str(CHILD), str(db), "end_session" if i else "consolidate",
                                  "default", "s"], env=child_env(), text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(2)]
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0 and out.strip() == "done", err
        assert "Traceback" not in err and "IntegrityError" not in err, err
    _consolidated_once(db)


@pytest.mark.parametrize("window,revoked", [("tokens.revoke_uncommitted", False), ("tokens.after_revoke", True)])
def test_token_revoke_killed(tmp_path: Path, window: str, revoked: bool) -> None:
    db = tmp_path / "m.db"
    tokens = TokenStore.open(db, CONFIG)
    token, record = tokens.create("alice")
    other, _ = tokens.create("bob")
    tokens.close()
    crash_at(db, window, "revoke", str(record.id))
    tokens = TokenStore.open(db, CONFIG)
    try:  # all or nothing: revoked once acknowledged (committed), else still good, and revocable again
        assert (tokens.user_for(token) is None) is revoked
        assert tokens.user_for(other) == "bob"
        tokens.revoke(record.id)
        assert tokens.user_for(token) is None
    finally:
        tokens.close()


def test_migration_killed_half_way_leaves_the_old_schema_and_its_data(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "m.db"
    older = len(migrations.MIGRATIONS) - 1
    with monkeypatch.context() as patch:  # a store at the schema of the release before the newest migration
        patch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:older])
        patch.setattr(migrations, "SCHEMA_VERSION", older)
        open_store(str(db), CONFIG).close()  # the schema only: today's Memory may read the newest columns at open
    # its turns, written as that release wrote them (today's writer may fill columns the newest migration adds)
    acked = [f"t{i}" for i in range(3)]
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO sessions (user_id, session_id, created_at, updated_at) VALUES ('default', 's', 0, 0)")
        con.executemany("INSERT INTO turns (uid, user_id, session_id, seq, role, content, ts, ingested_at, turn_id) "
                        "VALUES (?, 'default', 's', ?, 'user', ?, ?, 0, ?)",
                        [(f"u{i}", i, LINES[i], 1000.0 + i, tid) for i, tid in enumerate(acked)])
    con.close()
    crash_at(db, "migrate.after_step", "open")
    with reopen(db) as mem:
        assert mem.store.schema_version == migrations.SCHEMA_VERSION
        assert [t.turn_id for t in mem.session_turns("s")] == acked
        assert mem.store.claim_consolidation("default", "s", "x", until=2e9, now=1e9) is None  # m012's columns


def test_a_new_store_killed_while_its_schema_is_created(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    crash_at(db, "migrate.after_step", "open")
    with Memory(db, config=CONFIG) as mem:
        assert mem.store.schema_version == migrations.SCHEMA_VERSION
        mem.add_turn("user", LINES[0], session_id="s")
        assert len(mem.session_turns("s")) == 1
