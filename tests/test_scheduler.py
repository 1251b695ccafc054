"""The consolidation scheduler on its own, with fake sessions and runs."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

import pytest

from episodic_memory.consolidate.scheduler import ConsolidationScheduler

S1 = ("u", "s1")


@dataclass
class Info:
    turn_count: int = 0
    consolidated_turns: int = 0
    needs_consolidation: bool = False


class Fake:
    """Sessions as counters; `run` consolidates every turn (or raises while `fail` is set)."""

    def __init__(self) -> None:
        self.sessions: dict[tuple[str, str], Info] = {}
        self.runs: list[tuple[str, str, bool]] = []
        self.indexed: list[tuple[str, str]] = []
        self.threads: set[str] = set()
        self.fail = False
        self.hold: threading.Event | None = None   # a run waits for it
        self.started = threading.Event()           # set when a run starts
        self.active = 0
        self.most_active = 0
        self._lock = threading.Lock()

    def add(self, key: tuple[str, str] = S1, n: int = 1) -> None:
        self.sessions.setdefault(key, Info()).turn_count += n

    def info(self, user_id: str, session_id: str) -> Info | None:
        return self.sessions.get((user_id, session_id))

    def run(self, user_id: str, session_id: str, final: bool) -> bool:
        with self._lock:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        try:
            self.started.set()
            self.threads.add(threading.current_thread().name)
            if self.hold is not None:
                assert self.hold.wait(5)
            if self.fail:
                raise RuntimeError("the model is unreachable")
            self.runs.append((user_id, session_id, final))
            info = self.sessions[(user_id, session_id)]
            info.consolidated_turns, info.needs_consolidation = info.turn_count, False
            return True
        finally:
            with self._lock:
                self.active -= 1

    def index(self, user_id: str, session_id: str) -> None:
        self.indexed.append((user_id, session_id))

    def pending(self) -> list[tuple[str, str]]:
        return [k for k, i in self.sessions.items() if i.needs_consolidation]

    def scheduler(self, **kw: object) -> ConsolidationScheduler:
        kw.setdefault("every", 3)
        return ConsolidationScheduler(self.run, self.info, pending=self.pending, **kw)  # type: ignore[arg-type]


def test_inline_runs_once_every_n_new_turns() -> None:
    fake = Fake()
    sched = fake.scheduler()
    for _ in range(7):
        fake.add()
        sched.turns_added(*S1)
    assert fake.runs == [("u", "s1", False), ("u", "s1", False)]  # at 3 and at 6
    assert fake.threads == {threading.current_thread().name}
    assert sched.run_now(*S1, final=True) and fake.runs[-1] == ("u", "s1", True)
    sched.close()


def test_background_runs_in_one_worker_and_wait_waits() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True, name="test-worker")
    fake.hold = threading.Event()
    fake.add(n=3)
    sched.turns_added(*S1)
    assert fake.started.wait(5) and fake.runs == []  # under way, and the caller did not wait for it
    waiter = threading.Thread(target=sched.wait)
    waiter.start()
    time.sleep(0.05)
    assert waiter.is_alive()
    fake.hold.set()
    waiter.join(5)
    assert not waiter.is_alive() and fake.runs == [("u", "s1", False)] and fake.threads == {"test-worker"}
    sched.close()


def test_queued_runs_of_a_session_are_not_duplicated() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True, every=1)
    fake.hold = threading.Event()
    fake.add(("u", "other"))
    sched.turns_added("u", "other")  # keeps the worker busy
    assert fake.started.wait(5)
    for _ in range(5):
        fake.add()
        sched.turns_added(*S1)  # due every time; queued once
    fake.hold.set()
    sched.wait()
    assert sorted(fake.runs) == [("u", "other", False), ("u", "s1", False)]  # s1 once (the waiter may run it)
    assert fake.sessions[S1].consolidated_turns == 5
    sched.close()


def test_a_session_lock_keeps_a_second_run_of_the_session_from_starting() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True)
    fake.hold = threading.Event()
    fake.add(n=3)
    sched.turns_added(*S1)
    assert fake.started.wait(5)  # the worker is consolidating s1 ...
    fake.started.clear()
    ender = threading.Thread(target=sched.run_now, args=S1, kwargs={"final": True})
    ender.start()  # ... so the session's end waits for it
    time.sleep(0.1)
    assert not fake.started.is_set() and fake.active == 1
    fake.hold.set()
    ender.join(5)
    assert fake.most_active == 1
    assert fake.runs == [("u", "s1", False), ("u", "s1", True)]
    sched.close()


def test_a_held_session_is_not_run_by_the_worker() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True)
    with sched.session_lock(*S1):
        fake.add(n=3)
        sched.turns_added(*S1)
        time.sleep(0.1)
        assert fake.runs == []
    sched.wait()
    assert fake.runs == [("u", "s1", False)]
    sched.close()


def test_the_end_of_a_session_runs_its_queued_run_first() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True)
    with sched.session_lock(*S1):  # the worker cannot start it
        fake.add(n=3)
        sched.turns_added(*S1)
        assert sched.run_now(*S1, final=True)  # takes the queued run, then the final one
    assert fake.runs == [("u", "s1", False), ("u", "s1", True)]
    sched.wait()
    assert len(fake.runs) == 2  # the worker found nothing left
    sched.close()


def test_wait_for_one_session_or_one_user() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True)
    with sched.session_lock("v", "s9"):
        for key in (S1, ("u", "s2"), ("v", "s9")):
            fake.add(key, n=3)
            sched.turns_added(*key)
        sched.wait("u", "s1")
        assert ("u", "s1", False) in fake.runs
        sched.wait("u")
        assert {r[:2] for r in fake.runs} == {S1, ("u", "s2")}  # v's session is still held
    sched.close()
    assert {r[:2] for r in fake.runs} == {S1, ("u", "s2"), ("v", "s9")}


def test_with_an_index_the_worker_embeds_what_is_not_due() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True, index=fake.index)
    fake.add(n=2)
    sched.turns_added(*S1)
    sched.wait()
    assert fake.runs == [] and fake.indexed == [S1]
    fake.add()
    sched.turns_added(*S1)
    sched.wait()
    assert fake.runs == [("u", "s1", False)] and fake.indexed == [S1]
    sched.close()


def test_close_finishes_queued_work() -> None:
    fake = Fake()
    sched = fake.scheduler(background=True)
    fake.hold = threading.Event()
    keys = [("u", f"s{i}") for i in range(4)]
    for key in keys:
        fake.add(key, n=3)
        sched.turns_added(*key)
    threading.Timer(0.1, fake.hold.set).start()
    sched.close()
    assert sorted(r[:2] for r in fake.runs) == keys


def test_close_with_a_timeout_logs_what_is_left(caplog: pytest.LogCaptureFixture) -> None:
    fake = Fake()
    sched = fake.scheduler(background=True, daemon=True)
    fake.hold = threading.Event()
    fake.add(n=3)
    sched.turns_added(*S1)
    with caplog.at_level(logging.WARNING):
        sched.close(timeout=0.1)
    assert "still busy" in caplog.text
    fake.hold.set()
    sched.close()


def test_a_failing_run_is_logged_and_retried_later(caplog: pytest.LogCaptureFixture) -> None:
    fake = Fake()
    sched = fake.scheduler(background=True)
    fake.fail = True
    fake.add(n=3)
    with caplog.at_level(logging.ERROR):
        sched.turns_added(*S1)
        sched.wait()
    assert "background consolidation of u/s1 failed" in caplog.text
    assert fake.runs == [] and fake.sessions[S1].consolidated_turns == 0  # left as it was
    fake.fail = False
    fake.add()
    sched.turns_added(*S1)  # the next trigger retries
    sched.wait()
    assert fake.runs == [("u", "s1", False)] and fake.sessions[S1].consolidated_turns == 4
    sched.close()


def test_an_inline_run_that_fails_raises() -> None:
    fake = Fake()
    sched = fake.scheduler()
    fake.fail = True
    fake.add(n=3)
    with pytest.raises(RuntimeError):
        sched.turns_added(*S1)


def test_flagged_sessions_inline_or_at_start() -> None:
    fake = Fake()
    fake.sessions = {("u", "a"): Info(2, 0, True), ("u", "b"): Info(1, 1, False), ("v", "c"): Info(1, 0, True)}
    assert fake.scheduler().consolidate_flagged() == 2
    assert sorted(r[:2] for r in fake.runs) == [("u", "a"), ("v", "c")]

    fake = Fake()
    fake.sessions = {("u", "a"): Info(2, 0, True), ("u", "b"): Info(1, 1, False)}
    sched = fake.scheduler(background=True)
    sched.start()
    sched.wait()
    assert fake.runs == [("u", "a", False)]
    sched.close()


def test_background_can_be_decided_at_each_trigger() -> None:
    fake = Fake()
    mode = {"background": False}
    sched = fake.scheduler(background=lambda: mode["background"], name="bg")
    fake.add(n=3)
    sched.turns_added(*S1)
    mode["background"] = True
    fake.add(n=3)
    sched.turns_added(*S1)
    sched.close()
    assert len(fake.runs) == 2 and fake.threads == {threading.current_thread().name, "bg"}


def test_stop_drops_the_queue_and_returns_what_is_left_to_consolidate() -> None:
    fake = Fake()
    fake.hold = threading.Event()
    sched = fake.scheduler(background=True, index=fake.index)
    busy, due, few = ("u", "busy"), ("u", "due"), ("u", "few")
    fake.add(busy, 3)
    sched.submit(*busy)  # the worker takes it, and waits inside the run
    assert fake.started.wait(5)
    fake.add(due, 3)
    sched.submit(*due)  # queued behind it, due by now
    fake.add(few, 1)
    sched.submit(*few)  # queued: it would only have been embedded
    assert sorted(sched.stop()) == [busy, due]
    sched.submit("u", "late", force=True)  # stopped: nothing new is queued
    fake.hold.set()
    sched.close(5)
    assert fake.runs == [("u", "busy", False)] and fake.indexed == []


class _StallingScheduler(ConsolidationScheduler):
    """The worker stops between taking a session off the queue and running it (a preempted thread), until `go`."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.took = threading.Event()
        self.go = threading.Event()

    def _work(self, key: tuple[str, str]) -> None:
        if threading.current_thread() is self._worker and not self.took.is_set():
            self.took.set()
            assert self.go.wait(5)
        super()._work(key)


def test_a_waiter_keeps_a_users_order_when_the_worker_has_taken_a_session_but_not_started_it() -> None:
    """`wait` runs queued work itself: the session the worker took off the queue comes first, not last (a loop
    raised in s1 and closed in s2 stayed open when s2 was consolidated before s1)."""
    fake = Fake()
    sched = _StallingScheduler(fake.run, fake.info, pending=fake.pending, every=3, background=True)
    for key in (("u", "s1"), ("u", "s2"), ("u", "s3")):
        fake.add(key, n=3)
        sched.turns_added(*key)
    assert sched.took.wait(5)
    sched.wait()  # run here: the worker is stalled
    assert [r[1] for r in fake.runs] == ["s1", "s2", "s3"]
    sched.go.set()
    sched.close()
    assert [r[1] for r in fake.runs] == ["s1", "s2", "s3"]


def test_a_session_run_by_a_waiter_leaves_no_place_in_the_queue() -> None:
    """A job run by a waiter takes its queue entry with it: the session's next job queues behind the others."""
    fake = Fake()
    sched = fake.scheduler(background=True)
    fake.hold = threading.Event()
    fake.add(("u", "busy"), n=3)
    sched.turns_added("u", "busy")   # the worker is held in this run
    assert fake.started.wait(5)
    for key in (("u", "s1"), ("u", "s2")):
        fake.add(key, n=3)
        sched.turns_added(*key)
    waiter = threading.Thread(target=sched.wait, args=("u", "s1"))
    waiter.start()                    # runs s1 once the worker lets the user's lock go
    fake.hold.set()
    waiter.join(5)
    fake.add(("u", "s1"), n=3)
    sched.turns_added("u", "s1")    # a new job of s1, queued after s2's
    sched.wait()
    sched.close()
    assert [r[1] for r in fake.runs] == ["busy", "s1", "s2", "s1"]
