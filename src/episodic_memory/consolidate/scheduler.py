"""When consolidation runs: one scheduler that `Memory` and the REST server share, given the callables it
needs (`ConsolidationScheduler.__init__`). The policy, the worker thread, the locks and the per-user line:
docs/architecture.md, "Threads and processes". A background run that raises is logged and leaves the session
as it was, for the next trigger or start to retry; an inline run (`turns_added` inline, `run_now`) raises.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from time import monotonic
from typing import Protocol

from ..util import lower_thread_priority

log = logging.getLogger(__name__)

Key = tuple[str, str]  # (user_id, session_id)


class SessionState(Protocol):
    """What the scheduler reads of a session (`store.records.SessionInfo` has it)."""

    @property
    def turn_count(self) -> int: ...

    @property
    def consolidated_turns(self) -> int: ...

    @property
    def needs_consolidation(self) -> bool: ...


@dataclass
class _Job:
    force: bool  # consolidate even when fewer than `every` new turns gathered (else: only embed, if `index` is set)
    final: bool = False  # the session ended: its final run (`run(..., final=True)`)
    points: list[int] = field(default_factory=list)  # turn counts at which it became due (the windows' ends)


@dataclass
class _SessionLock:
    users: int = 0  # threads holding or waiting for it: the entry goes when none is left
    lock: threading.RLock = field(default_factory=threading.RLock)


class ConsolidationScheduler:
    """Decides when a session is consolidated, and where (inline or in one worker thread)."""

    def __init__(
        self,
        run: Callable[[str, str, bool], bool],
        session_info: Callable[[str, str], SessionState | None],
        *,
        every: int | Callable[[], int],
        background: bool | Callable[[], bool] = False,
        index: Callable[[str, str], object] | None = None,
        pending: Callable[[], Iterable[Key]] | None = None,
        shared: bool = False,
        daemon: bool = False,
        run_in_windows: Callable[[str, str, bool, tuple[int, ...]], bool] | None = None,
        name: str = "episodic-consolidate",
        nice: int | Callable[[], int] = 0,
        housekeeping: Callable[[], object] | None = None,
    ) -> None:
        """`run` consolidates a session (`final` at its end) and returns False when a step failed;
        `session_info` reads a session (None when there is none). `every`, `background` and `nice` (steps
        below the starter's priority) may be callables. `index`: embed a session's turns when no consolidation
        is due; `pending` lists the flagged sessions; `shared`: it outlives the Memories using it; `daemon`:
        the worker does not hold up exit; `run_in_windows` also gets the turn counts it became due at;
        `housekeeping` runs after each job (a WAL checkpoint)."""
        self._run = run
        self._run_in_windows = run_in_windows or (lambda u, s, final, points: run(u, s, final))
        self._info = session_info
        self._every = every if callable(every) else (lambda: every)
        self._background = background if callable(background) else (lambda: bool(background))
        self._index = index
        self._pending = pending
        self.shared = shared
        self._daemon = daemon
        self._name = name
        self._nice = nice if callable(nice) else (lambda: nice)
        self._housekeeping = housekeeping
        self._lock = threading.Lock()  # guards everything below; never held while calling out
        self._jobs: dict[Key, _Job] = {}  # queued, not started: one per session
        self._queue: deque[Key] = deque()
        self._running: Counter[Key] = Counter()
        self._taken: Key | None = None  # what the worker took off the queue and is about to run (see `wait`)
        self._finals: set[Key] = set()  # sessions with a final run queued or under way (what `wait_ended` waits for)
        self._last_point: dict[Key, int] = {}  # a session's turn count when it last became due (background)
        self._finished = threading.Condition(self._lock)  # a job ended (`wait_ended` waits on it)
        # one run of a user's sessions at a time, in the order their jobs were taken (see `_user_turn`)
        self._tickets = 0
        self._outstanding: dict[str, set[int]] = {}  # user -> tickets of runs taken and not finished
        self._turn = threading.Condition(self._lock)
        self._session_locks: dict[Key, _SessionLock] = {}
        self._worker: threading.Thread | None = None
        self._lister: threading.Thread | None = None
        self._listed = threading.Event()
        self._listed.set()
        self._stopped = False  # see `stop`

    # --- policy --------------------------------------------------------------------------------------
    @property
    def every(self) -> int:
        return self._every()

    def due(self, info: SessionState, since: int | None = None) -> bool:
        """`every` new turns have gathered (since turn count `since`; default: what was consolidated), or a session
        that has ended got a turn (no end will come for it)."""
        new = info.turn_count - (info.consolidated_turns if since is None else since)
        return new >= self.every or (new > 0 and getattr(info, "status", None) == "ended")

    def turns_added(self, user_id: str, session_id: str) -> None:
        """A session got new turns: consolidate it if `every` have gathered (inline, or queued for the worker)."""
        background = self._background()
        if background and self._index is not None:
            self.submit(user_id, session_id)  # the worker decides: consolidate if due by then, else embed
            return
        info = self._info(user_id, session_id)
        if info is None:
            return
        if background:  # due since the last due point (the worker may not have caught up with it yet)
            key = (user_id, session_id)
            with self._lock:
                since = max(info.consolidated_turns, self._last_point.get(key, 0))
            if self.due(info, since):
                self.submit(user_id, session_id, force=True, point=info.turn_count)
            return
        if self.due(info):
            with self.session_lock(user_id, session_id):
                self._run(user_id, session_id, False)

    def run_now(self, user_id: str, session_id: str, *, final: bool = False) -> bool:
        """Consolidate a session here and now (at its end: `final`), after any run of it queued or under way."""
        with self.session_lock(user_id, session_id):
            self._work((user_id, session_id))
            with self._lock:
                ticket = self._take_ticket(user_id)
            with self._user_turn(user_id, ticket):
                return self._run(user_id, session_id, final)

    def consolidate_flagged(self) -> int:
        """Consolidate every flagged session here and now. Returns how many succeeded."""
        if self._pending is None:
            return 0
        return sum(self.run_now(user_id, session_id, final=self._ended((user_id, session_id)))
                   for user_id, session_id in self._pending())

    def start(self) -> None:
        """Queue every flagged session for the worker (they are listed in a thread of their own, so this returns
        at once)."""
        if self._pending is None or (self._lister is not None and self._lister.is_alive()):
            return
        self._listed.clear()
        self._lister = threading.Thread(target=self._submit_flagged, name=f"{self._name}-start", daemon=self._daemon)
        self._lister.start()

    def _submit_flagged(self) -> None:
        try:
            assert self._pending is not None
            for user_id, session_id in self._pending():
                self.submit(user_id, session_id, force=True, final=self._ended((user_id, session_id)))
        except Exception:
            log.exception("could not list the sessions awaiting consolidation")
        finally:
            self._listed.set()

    # --- the worker ----------------------------------------------------------------------------------
    def submit(self, user_id: str, session_id: str, force: bool = False, *, final: bool = False,
               point: int | None = None) -> None:
        """Have the worker look at a session soon: consolidate it if due by then (always when `force`; as its
        final run when `final`), else embed its new turns (when `index` is set). Queued once at most."""
        key = (user_id, session_id)
        with self._lock:
            if self._stopped:
                return
            if final:
                self._finals.add(key)
            if point is not None:
                self._last_point[key] = point
            points = [point] if point is not None else []
            if (job := self._jobs.get(key)) is not None:
                job.force, job.final = job.force or force or final, job.final or final
                job.points += points
                return
            self._jobs[key] = _Job(force or final, final, points)
            self._queue.append(key)
            if self._worker is None:
                self._worker = threading.Thread(target=self._drain, name=self._name, daemon=self._daemon)
                self._worker.start()

    def _drain(self) -> None:
        lower_thread_priority(self._nice())  # a thread per burst of work: each starts at its starter's priority
        while True:
            with self._lock:
                if not self._queue:
                    self._worker = None
                    return
                key = self._taken = self._queue.popleft()
            try:
                self._work(key)
            except Exception:  # _work logs a failed run; this is the scheduler's own trouble (a lock, say)
                log.exception("consolidation worker: %s/%s", *key)
            finally:
                with self._lock:
                    self._taken = None
            self._tidy(key)

    def _tidy(self, key: Key) -> None:
        """The housekeeping after a run (`Memory.housekeeping`), whichever thread ran it."""
        if self._housekeeping is not None:
            try:
                self._housekeeping()
            except Exception:
                log.exception("consolidation worker: housekeeping after %s/%s", *key)

    def _work(self, key: Key) -> bool:
        """Run the session's queued job, if it is still queued, under the session's lock (True: one was run)."""
        with self.session_lock(*key):
            with self._lock:
                job = self._jobs.pop(key, None)
                if job is None:
                    return False
                if key in self._queue:  # a waiter runs it: no later job of the session is run at this place
                    self._queue.remove(key)
                self._running[key] += 1
                ticket = self._take_ticket(key[0])
            try:
                self._look(key, job, ticket)
            finally:
                self._done(key[0], ticket)
                with self._lock:
                    self._running[key] -= 1
                    if self._running[key] <= 0:
                        del self._running[key]
                    if job.final and not (key in self._jobs and self._jobs[key].final):
                        self._finals.discard(key)
                        self._last_point.pop(key, None)
                    self._finished.notify_all()
        return True

    def _look(self, key: Key, job: _Job, ticket: int) -> None:
        user_id, session_id = key
        try:
            info = self._info(user_id, session_id)
            if info is None:
                return
            if job.force or info.needs_consolidation or self.due(info):
                with self._user_turn(user_id, ticket):
                    if not self._run_in_windows(user_id, session_id, job.final, tuple(job.points)):
                        self._forget_point(key)
            elif self._index is not None:
                self._done(user_id, ticket)  # embedding only: the user's later runs need not wait for it
                self._index(user_id, session_id)
        except Exception:  # the session stays flagged (or unconsolidated): the next trigger or start retries it
            self._forget_point(key)
            log.exception("background consolidation of %s/%s failed; the session is retried later", user_id, session_id)

    def _forget_point(self, key: Key) -> None:
        """A run failed: the next turn makes the session due again, counted from what was consolidated."""
        with self._lock:
            self._last_point.pop(key, None)

    # --- locks, waiting, closing ---------------------------------------------------------------------
    def _take_ticket(self, user_id: str) -> int:
        """A place in the user's line of runs, taken (holding `_lock`) when a job is taken off the queue."""
        self._tickets += 1
        self._outstanding.setdefault(user_id, set()).add(self._tickets)
        return self._tickets

    def _done(self, user_id: str, ticket: int) -> None:
        """The run holding `ticket` is over (or needs no turn): the next in the user's line may start."""
        with self._lock:
            waiting = self._outstanding.get(user_id)
            if waiting is not None and ticket in waiting:
                waiting.discard(ticket)
                if not waiting:
                    del self._outstanding[user_id]
                self._turn.notify_all()

    @contextmanager
    def _user_turn(self, user_id: str, ticket: int) -> Iterator[None]:
        """Taken around every run, inside the session's lock: a user's sessions are consolidated one at a
        time, in the order their jobs were taken off the queue (a later session's corrections supersede an
        earlier one's). It cannot deadlock: a run waits only for runs taken before it."""
        with self._turn:
            while min(self._outstanding[user_id]) != ticket:
                self._turn.wait()
        try:
            yield
        finally:
            self._done(user_id, ticket)

    @contextmanager
    def session_lock(self, user_id: str, session_id: str) -> Iterator[None]:
        """Hold the session: no run of it starts (or is under way) until the block ends. Re-entrant."""
        key = (user_id, session_id)
        with self._lock:
            entry = self._session_locks.setdefault(key, _SessionLock())
            entry.users += 1
        try:
            with entry.lock:
                yield
        finally:
            with self._lock:
                entry.users -= 1
                if entry.users == 0:
                    del self._session_locks[key]

    def wait(self, user_id: str | None = None, session_id: str | None = None) -> None:
        """Block until the runs queued or under way are done: of one session, of one user's (`session_id` None), or
        all (both None; after a `start`, the flagged sessions too). A queued run is run here rather than waited
        for. Do not call it holding a session lock of a session other than the one waited for."""
        if user_id is None and session_id is None:
            self._listed.wait()
        with self._lock:  # the runs under way first (and `_taken`, taken but not started: else it would come
            # last and the sessions queued after it run first), then the queue in its order
            taken = [self._taken] if self._taken is not None else []
            keys = [k for k in [*self._running, *taken, *self._queue, *self._jobs]
                    if (user_id is None or k[0] == user_id) and (session_id is None or k[1] == session_id)]
        for key in dict.fromkeys(keys):
            if self._work(key) and threading.current_thread() is not self._worker:
                self._tidy(key)   # a run the worker did not do: its housekeeping too

    def wait_ended(self, user_id: str) -> None:
        """Block until the final runs of `user_id`'s ended sessions (queued or under way) are done: a read after a
        session end sees its consolidation, while runs of sessions still open go on in the background."""
        if threading.current_thread() is self._worker:  # a step reading its own user's memory: nothing to wait for
            return
        with self._finished:  # the worker runs them, in order; a waiter runs none out of turn
            while any(k[0] == user_id for k in self._finals) and not self._stopped:
                self._finished.wait(1.0)

    def stop(self) -> list[Key]:
        """Take no more work: the queued runs are dropped (the worker ends after the run under way) and nothing new
        is queued. Returns the sessions left unconsolidated, for the caller to flag for later: those being
        consolidated, and those queued to be (a queued look that would only have embedded is not one)."""
        with self._lock:
            self._stopped = True
            running = list(self._running)
            queued = dict(self._jobs)
            self._jobs.clear()
            self._queue.clear()
            self._finals.clear()
            self._last_point.clear()
        return running + [key for key, job in queued.items() if key not in running and (job.force or self._due(key))]

    def _ended(self, key: Key) -> bool:
        """A flagged session that has ended owes its final run (a crash may have come between its end and it)."""
        return getattr(self._info(*key), "status", None) == "ended"

    def _due(self, key: Key) -> bool:
        info = self._info(*key)
        return info is not None and (info.needs_consolidation or self.due(info))

    def close(self, timeout: float | None = None) -> None:
        """Finish the queued work (waiting at most `timeout` seconds when given), then let the worker end."""
        deadline = None if timeout is None else monotonic() + timeout
        for which in ("_lister", "_worker"):  # the lister first: what it queues is queued work
            with self._lock:
                thread: threading.Thread | None = getattr(self, which)
            if thread is not None and thread is not threading.current_thread():
                thread.join(None if deadline is None else max(0.0, deadline - monotonic()))
                if thread.is_alive():
                    log.warning("consolidation worker still busy after %.0fs; unfinished sessions are retried at the "
                                "next start", timeout)
                    return
