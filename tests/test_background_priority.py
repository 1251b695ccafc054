"""Background work runs below the callers (issue 16: a turn's acknowledgement never waits for a core behind
consolidation) and folds the WAL into the database off the writers' path."""

from __future__ import annotations

import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.consolidate.scheduler import ConsolidationScheduler
from episodic_memory.models.embedder import OnnxTextModel
from episodic_memory.util import lower_thread_priority, thread_niceness

linux = pytest.mark.skipif(sys.platform != "linux", reason="per-thread nice values are Linux's")


def in_thread(fn):
    """Run `fn` in a fresh thread (so lowering its priority leaves the test's thread alone); return its result."""
    out: list = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join(10)
    return out[0]


@linux
def test_lowering_a_thread_leaves_the_others():
    base = thread_niceness()
    lowered = in_thread(lambda: (lower_thread_priority(3), thread_niceness()))
    assert lowered == (min(19, base + 3), min(19, base + 3))
    assert thread_niceness() == base
    assert in_thread(lambda: lower_thread_priority(0)) == base  # 0: left as it is


class _Session:
    turn_count, consolidated_turns, needs_consolidation = 8, 0, True


@linux
@pytest.mark.parametrize("nice", [0, 5])
def test_the_worker_runs_below_its_starter_and_housekeeps_after_each_job(nice):
    seen: list[tuple[int, str]] = []
    housekept: list[str] = []
    done = threading.Event()

    def run(user_id: str, session_id: str, final: bool) -> bool:
        seen.append((thread_niceness(), session_id))
        return True

    def housekeeping() -> None:
        housekept.append(threading.current_thread().name)
        if len(housekept) == 2:
            done.set()

    sched = ConsolidationScheduler(run, lambda u, s: _Session(), every=8, background=True, nice=nice,
                                   housekeeping=housekeeping, name="prio-worker")
    base = thread_niceness()
    sched.submit("u", "s1", force=True)
    sched.submit("u", "s2", force=True)
    assert done.wait(10)
    sched.close()
    assert sorted(s for _, s in seen) == ["s1", "s2"]
    assert {n for n, _ in seen} == {min(19, base + nice)}
    assert set(housekept) == {"prio-worker"}
    assert thread_niceness() == base  # the caller's thread is untouched
    # a run the caller waits for runs on the caller's thread, at the caller's priority
    sched2 = ConsolidationScheduler(run, lambda u, s: _Session(), every=8, background=True, nice=nice)
    sched2.run_now("u", "s3", final=True)
    assert seen[-1] == (base, "s3")


def test_housekeeping_that_fails_is_logged_and_the_worker_goes_on(caplog):
    ran = threading.Event()
    calls: list[str] = []

    def run(user_id: str, session_id: str, final: bool) -> bool:
        calls.append(session_id)
        if len(calls) == 2:
            ran.set()
        return True

    def broken() -> None:
        raise OSError("disk on fire")

    sched = ConsolidationScheduler(run, lambda u, s: _Session(), every=8, background=True, housekeeping=broken)
    sched.submit("u", "a", force=True)
    sched.submit("u", "b", force=True)
    assert ran.wait(10)
    sched.close()
    assert calls == ["a", "b"]
    assert "housekeeping after u/a" in caplog.text


class _Lanes(OnnxTextModel):
    """The lane pool of the ONNX models without a model: enough to see where a batch runs."""

    def __init__(self) -> None:  # noqa: D107 - no session: only the pool is used
        self.workers = 2
        self.model_id = "fake"
        self._pools = {}
        self._pools_lock = threading.Lock()


@linux
def test_a_batch_runs_at_the_priority_of_the_thread_that_asked():
    model = _Lanes()
    base = thread_niceness()
    foreground = model._lane_pool().submit(thread_niceness).result()
    background = in_thread(lambda: (lower_thread_priority(4), model._lane_pool().submit(thread_niceness).result()))
    assert foreground == base
    assert background == (min(19, base + 4), min(19, base + 4))
    assert model._lane_pool().submit(thread_niceness).result() == base  # the foreground pool was not lowered
    for pool in model._pools.values():
        pool.shutdown()


def test_the_writer_connection_checkpoints_only_past_the_configured_size(tmp_path: Path):
    with Memory(tmp_path / "m.db", config=Config(store={"wal_checkpoint_pages": 12_345}, models={"embedder": "off"})) as mem:
        assert mem.store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 12_345


def test_checkpoint_folds_the_wal_in_on_a_connection_of_its_own(tmp_path: Path):
    db = tmp_path / "m.db"
    cfg = Config(store={"wal_checkpoint_pages": 0}, models={"embedder": "off"}, capture={"consolidate_in_background": "off"})
    with Memory(db, config=cfg) as mem:
        for i in range(40):
            mem.add_turn("user", f"turn number {i} about the quarterly budget review", session_id="s")
        wal = Path(str(db) + "-wal")
        assert wal.stat().st_size > 0
        mem.store.checkpoint()
        checkpointer = mem.store._checkpointer
        assert checkpointer is not None and checkpointer is not mem.store.db
        # everything in the WAL is in the database now: a TRUNCATE from outside has nothing to copy and succeeds
        outside = sqlite3.connect(db)
        busy, log, done = outside.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        outside.close()
        assert busy == 0 and log == done
        # the writer goes on, and the next write starts the WAL over instead of growing it
        mem.add_turn("user", "one more turn after the checkpoint", session_id="s")
        assert mem.stats()["turns"] == 41
    assert mem.store._checkpointer is None  # closed with the store


def test_the_background_worker_checkpoints_after_its_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    cfg = Config(models={"embedder": "off"}, capture={"consolidate_every": 4})
    with Memory(tmp_path / "m.db", config=cfg) as mem:
        calls: list[str] = []
        real = mem.store.checkpoint

        def spy() -> None:
            calls.append(threading.current_thread().name)
            real()

        monkeypatch.setattr(mem.store, "checkpoint", spy)
        for i in range(8):
            mem.add_turn("user", f"we moved the launch to week {i}", session_id="s")
        mem.end_session("s")
        mem.scheduler.close()  # the worker finishes the queue
    assert calls and all(name != threading.current_thread().name for name in calls)


def test_checkpoint_is_a_no_op_for_an_in_memory_or_read_only_store(tmp_path: Path):
    with Memory(":memory:", config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "hello", session_id="s")
        mem.store.checkpoint()
        assert mem.store._checkpointer is None
    db = tmp_path / "r.db"
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "hello", session_id="s")
    with Memory(db, config=Config(models={"embedder": "off"}, store={"read_only": True})) as ro:
        ro.store.checkpoint()
        assert ro.store._checkpointer is None


def test_the_workers_checkpoints_are_rate_limited(tmp_path: Path):
    cfg = Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off"}, store={"wal_checkpoint_every_s": 3600})
    with Memory(tmp_path / "m.db", config=cfg) as mem:
        mem.add_turn("user", "first", session_id="s")
        mem.store.checkpoint()
        first = mem.store._checkpointed_at
        mem.add_turn("user", "second", session_id="s")
        mem.store.checkpoint()  # within the hour: skipped
        assert mem.store._checkpointed_at == first
