"""Sessions nobody is consolidating (issue 20): a server process queues its own sessions as their turns arrive, so
a session whose turns went to another process that was then killed -9 (nothing flagged it) waits for a sweep. The
REST server's pool sweeps every `Config.server.sweep_s`: owed sessions, untouched for `server_sweep_idle_s`,
claimed by no live process."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.server.pool import MemoryPool

from .fakes import HashingEmbedder

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

# the process that died: it stored turns and never consolidated them
WRITER = Config(capture={"consolidate_in_background": "off", "consolidate_every": 10**6, "consolidate_on_open": False})
SWEEPER = Config(capture={"consolidate_every": 8}, server={"sweep_s": 0.0, "sweep_idle_s": 0.0})


def _write(db_path: Path | str, session: str, n: int, *, end: bool = False, user: str = "default") -> None:
    with Memory(db_path, user_id=user, config=WRITER, embedder=HashingEmbedder()) as mem:
        for i in range(n):
            mem.add_turn("user", f"Turn {i} of {session}: the budget for the Lisbon offsite is {100 + i} euros.",
                         session_id=session)
        if end:  # ended, and its final run owed: the process died before the run
            assert mem.store.end_session(user, session, owed=True)


def _consolidated(pool: MemoryPool, user: str, session: str) -> int:
    info = pool.get(user).store.session(user, session)
    assert info is not None
    return info.consolidated_turns


def test_a_sweep_lists_what_is_owed_and_claimed_by_nobody(db_path: Path | str) -> None:
    _write(db_path, "due", 12)                 # 12 unconsolidated turns: due (every 8)
    _write(db_path, "few", 3)                  # 3: not due while open
    _write(db_path, "ended", 3, end=True)      # ended with turns: owed its final run
    _write(db_path, "claimed", 12)             # due, but a live process holds its lease
    _write(db_path, "theirs", 12, user="bob")  # another user's: a maintenance read sees every user
    with Memory(db_path, config=WRITER) as mem:
        store, now = mem.store, time.time()
        assert store.claim_consolidation("default", "claimed", "someone-alive", until=now + 60, now=now) is None
        owed = {(u, s): ended for u, s, ended in store.sessions_owed(8, now + 1, now)}
        assert owed == {("default", "due"): False, ("default", "ended"): True, ("bob", "theirs"): False}
        assert store.sessions_owed(8, now - 3600, now) == []  # touched within the idle window: a live one's
        # a lapsed claim is nobody's
        assert ("default", "claimed", False) in store.sessions_owed(8, now + 1, now + 120)


def test_the_pool_consolidates_what_another_process_left_owed(db_path: Path | str) -> None:
    _write(db_path, "due", 12)
    _write(db_path, "ended", 3, end=True)
    pool = MemoryPool(db_path, SWEEPER, HashingEmbedder(), background=True)
    try:
        assert _consolidated(pool, "default", "due") == 0
        assert pool.sweep() == 2
        pool.scheduler.wait()
        assert _consolidated(pool, "default", "due") >= 8 and _consolidated(pool, "default", "ended") == 3
        assert pool.get("default").facts()  # something was remembered from them
        assert pool.sweep() == 0  # nothing owed any more (4 turns of "due" left: not due while it is open)
    finally:
        pool.close()


def test_the_server_sweeps_on_its_own(db_path: Path | str) -> None:
    pool = MemoryPool(db_path, SWEEPER.replace({"server.sweep_s": 0.1}), HashingEmbedder(),
                      background=True)
    try:
        pool.start_sweeper()
        _write(db_path, "late", 10)  # after the server started: only a sweep can find it
        deadline = time.monotonic() + 20
        while _consolidated(pool, "default", "late") < 8 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _consolidated(pool, "default", "late") >= 8
    finally:
        pool.close()
    assert pool._sweeper is not None and not pool._sweeper.is_alive()  # stopped with the pool


def test_no_sweeper_without_an_interval(db_path: Path | str) -> None:
    pool = MemoryPool(db_path, SWEEPER, HashingEmbedder(), background=True)  # server_sweep_s = 0
    try:
        pool.start_sweeper()
        assert pool._sweeper is None
    finally:
        pool.close()
