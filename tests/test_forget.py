"""Forgetting reaches every table, the search index, the journals and the file's bytes (a canary test)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Memory
from episodic_memory.cli import main
from episodic_memory.memory import journal_dir_for
from episodic_memory.store import is_postgres_url

from .postgres.fixtures import all_rows_text, sql_rows

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

CANARY = "zqxcanaryvortex"


def _bytes_everywhere(db_path: Path) -> bytes:
    if is_postgres_url(str(db_path)):
        return all_rows_text(str(db_path))
    blobs = [p.read_bytes() for p in db_path.parent.glob(db_path.name + "*") if p.is_file()]
    blobs += [p.read_bytes() for p in journal_dir_for(db_path).rglob("*") if p.is_file()]
    return b"".join(blobs)


def _fill(mem: Memory) -> None:
    for i in range(30):
        mem.add_turn("user", f"secret {CANARY} number {i}" if i % 3 == 0 else f"ordinary chatter {i}",
                     session_id="secret", user_id="alice")
        mem.add_turn("user", f"bob keeps {i} apples", session_id="fruit", user_id="bob")
    mem.add_turn("user", f"alice again {CANARY}", session_id="other", user_id="alice")


def test_forget_session_scrubs_the_canary_from_every_byte(db_path: Path) -> None:
    with Memory(db_path) as mem:
        _fill(mem)
        mem.forget(session_id="other", user_id="alice")
        assert CANARY.encode() in _bytes_everywhere(db_path)
        result = mem.forget(session_id="secret", user_id="alice")
        assert result["turns"] == 30
        assert mem.recall(CANARY, user_id="alice") == []
        assert mem.stats(user_id="bob")["turns"] == 30  # other users untouched
        assert mem.recall("apples", user_id="bob")
        assert CANARY.encode() not in _bytes_everywhere(db_path)
    with Memory(db_path) as mem:  # and nothing comes back through recovery
        assert mem.stats(user_id="alice")["turns"] == 0


@pytest.mark.sqlite_only("journals never stored: a PostgreSQL store keeps no local journal")
def test_forget_user_removes_journals_never_stored(db_path: Path) -> None:
    with Memory(db_path) as mem:
        _fill(mem)
    # a journal line that never reached the database (a crash) must be forgotten too
    from episodic_memory.capture.journal import Journal
    from episodic_memory.store.records import TurnRecord
    journal = Journal(journal_dir_for(db_path))
    journal.append(journal.relative_path("alice", "crashed"), [TurnRecord(
        uid="u1", user_id="alice", session_id="crashed", seq=0, role="user", content=f"orphan {CANARY}", ts=0,
        ingested_at=0)])
    with Memory(db_path, user_id="alice") as mem:
        assert mem.recall("orphan")
        mem.forget(user_id="alice")
        assert mem.stats()["turns"] == 0 and mem.stats(user_id="bob")["turns"] == 30
    assert CANARY.encode() not in _bytes_everywhere(db_path)
    with Memory(db_path, user_id="alice") as mem:
        assert mem.stats()["turns"] == 0


def test_forget_all_through_the_cli(db_path: Path) -> None:
    with Memory(db_path) as mem:
        _fill(mem)
    result = CliRunner().invoke(main, ["forget", "--all", "--yes", "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    assert CANARY.encode() not in _bytes_everywhere(db_path)
    assert b"apples" not in _bytes_everywhere(db_path)
    with Memory(db_path) as mem:
        assert mem.stats(user_id="bob")["turns"] == 0


def test_forget_needs_a_target(mem: Memory) -> None:
    with pytest.raises(ValueError):
        mem.forget()
    with pytest.raises(ValueError):
        mem.forget(all=True, user_id="x")


def test_forget_session_takes_the_words_its_episode_added_to_the_vocabulary(db_path: Path) -> None:
    with Memory(db_path) as mem:
        for i in range(3):
            mem.add_turn("user", f"The {CANARY} rollout needs a staging cluster by Friday, step {i}.",
                         session_id="secret", user_id="alice")
        mem.end_session("secret", user_id="alice", wait=True)

        def terms() -> int:
            return int(sql_rows(mem.store, "SELECT count(*) FROM episode_terms WHERE user_id = 'alice'")[0][0])

        assert terms() > 0
        mem.forget(session_id="secret", user_id="alice")
        assert terms() == 0


def _held_in_process(marker: str) -> list[str]:
    """The types of the live containers (dicts, tuples, sets, lists) holding a string with `marker` in it: the
    per-text memos key on a turn's text and keep what they read out of it."""
    import gc

    gc.collect()
    found = []
    for obj in gc.get_objects():
        if isinstance(obj, dict):
            items: object = list(obj.keys()) + list(obj.values())
        elif isinstance(obj, (tuple, list, set, frozenset)):
            items = obj
        else:
            continue
        try:
            if any(isinstance(x, str) and marker in x for x in items):  # type: ignore[attr-defined]
                found.append(type(obj).__name__)
        except RuntimeError:  # a container another thread changed while it was read
            continue
    return found


@pytest.mark.sqlite_only("what one process keeps in memory; the backend does not change it")
def test_forget_leaves_no_text_of_the_session_in_the_processes_memos(db_path: Path) -> None:
    """Recall and consolidation memoise what they read out of texts (keyed by the text); a forget clears them, and
    the embedder's vectors by text: nothing of a forgotten turn stays in the process."""
    marker = "qx" + "".join(reversed("rememberednever"))   # built here: no constant of this module holds it
    with Memory(db_path) as mem:
        for i in range(12):
            mem.add_turn("user", f"My locker code is {i}{i}7 and the keyword is {marker.title()}{i}, Dana said.",
                         session_id="secret", user_id="alice")
            mem.add_turn("user", f"bob keeps {i} apples", session_id="fruit", user_id="alice")
        mem.end_session("secret", user_id="alice")
        mem.end_session("fruit", user_id="alice")
        for q in (f"what is the keyword {marker}?", "what is my locker code now?", "who said the keyword?"):
            mem.recall(q, user_id="alice")
        assert _held_in_process(marker.lower()) or _held_in_process(marker.title())  # the memos did hold it
        mem.forget(session_id="secret", user_id="alice")
        left = _held_in_process(marker.lower()) + _held_in_process(marker.title())
        assert left == [], f"containers still holding the forgotten text: {left}"
        assert mem.recall("apples", user_id="alice")


def test_a_deleted_fact_finds_the_facts_pointing_at_it_by_index(tmp_path: Path) -> None:
    """Deleting a fact sets NULL in the facts whose `supersedes` or `superseded_by` named it (foreign keys): SQLite
    finds them by the m023 indexes, not by reading every fact of the file twice for each fact deleted."""
    from episodic_memory import Config

    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
        assert mem.store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        rows = mem.store.db.execute("EXPLAIN QUERY PLAN DELETE FROM facts WHERE id = 1")
        plan = " | ".join(str(row[3]) for row in rows)
        assert "SCAN facts" not in plan, plan
        assert "facts_by_supersedes" in plan and "facts_by_superseded_by" in plan, plan
