"""forget killed in each of its windows: what was being forgotten never comes back, everything else stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from episodic_memory.memory import journal_dir_for

from .harness import bytes_everywhere, crash_at, reopen

pytestmark = pytest.mark.crash

CANARY = "zqxcanaryvortex"
WINDOWS = ["forget.after_tombstone", "forget.after_delete", "forget.after_journals",
           "forget.before_tombstone_removed"]


def _fill(db: Path) -> None:
    with reopen(db) as mem:
        for i in range(6):
            mem.add_turn("user", f"Priya said the {CANARY} budget is {i} thousand", session_id="secret",
                         user_id="alice")
            mem.add_turn("user", f"the garden needs {i} tulips", session_id="keep", user_id="alice")
            mem.add_turn("user", f"bob keeps {i} apples", session_id="fruit", user_id="bob")
        mem.end_session("secret", user_id="alice")  # derived memories of the canary too


def _turns(db: Path, user: str) -> list[str]:
    with reopen(db) as mem:
        return [t.content for s in mem.sessions(user_id=user) for t in mem.session_turns(s.session_id, user)]


def _no_tombstone_left(db: Path) -> bool:
    return not list((journal_dir_for(db) / "forgetting").glob("*"))


@pytest.mark.parametrize("window", WINDOWS)
def test_a_forgotten_session_never_comes_back(tmp_path: Path, window: str) -> None:
    db = tmp_path / "m.db"
    _fill(db)
    crash_at(db, window, "forget", "alice", "secret")
    with reopen(db) as mem:  # the restart finishes the forget
        assert mem.recall(CANARY, user_id="alice") == []
        assert mem.session_turns("secret", "alice") == []
        mem.add_turn("user", "a new start", session_id="secret", user_id="alice")
    with reopen(db) as mem:  # and a later replay brings nothing back either
        assert [t.content for t in mem.session_turns("secret", "alice")] == ["a new start"]
    assert sorted(_turns(db, "alice")) == sorted([f"the garden needs {i} tulips" for i in range(6)] + ["a new start"])
    assert len(_turns(db, "bob")) == 6
    assert CANARY.encode() not in bytes_everywhere(db)
    assert _no_tombstone_left(db)


@pytest.mark.parametrize("window", ["forget.after_delete", "forget.after_journals"])
def test_a_forgotten_user_never_comes_back(tmp_path: Path, window: str) -> None:
    db = tmp_path / "m.db"
    _fill(db)
    crash_at(db, window, "forget", "alice", "-")
    assert _turns(db, "alice") == []
    assert len(_turns(db, "bob")) == 6
    assert CANARY.encode() not in bytes_everywhere(db) and b"tulips" not in bytes_everywhere(db)
    assert _no_tombstone_left(db)


def test_forgetting_everything_killed_after_the_delete(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db)
    crash_at(db, "forget.after_delete", "forget", "-", "-")
    assert _turns(db, "alice") == [] and _turns(db, "bob") == []
    assert b"apples" not in bytes_everywhere(db)
    assert _no_tombstone_left(db)


def test_a_live_writer_finishes_the_forget_before_it_writes(tmp_path: Path) -> None:
    """Another process already had the store open: its next write must not replay the forgotten journal."""
    db = tmp_path / "m.db"
    _fill(db)
    with reopen(db) as live:
        crash_at(db, "forget.after_delete", "forget", "alice", "secret")
        live.add_turn("user", "written by a process that saw no crash", session_id="secret", user_id="alice")
        assert [t.content for t in live.session_turns("secret", "alice")] == ["written by a process that saw no crash"]
    assert CANARY.encode() not in bytes_everywhere(db)
