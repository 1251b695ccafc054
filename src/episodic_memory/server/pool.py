"""One `Memory` per user on one file, and the background consolidation they share, for the REST server
(docs/architecture.md, "Threads and processes"): a request gets the `Memory` of its token's user only, and
never waits for a consolidation.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..config import DEFAULT_USER, Config
from ..consolidate.scheduler import ConsolidationScheduler
from ..memory import Memory
from ..models.embedder import Embedder
from ..scopes import agent_of
from ..store.records import SessionInfo

log = logging.getLogger(__name__)

WORKER_NAME = "episodic-consolidator"  # the scheduler's worker thread
BACKLOG_EVERY_S = 0.5  # how stale `MemoryPool.backlog` may be (it is read on every POST /v1/turns)


class MemoryPool:
    """`Memory` objects by user id, opened on first use; at most `max_open` are kept: past it, the least
    recently used that nobody holds (a `lease`) are closed (the file is the state, a `Memory` only caches it).

    With `background` (the REST server) they all use `scheduler`, which consolidates on its worker thread,
    `Config.capture.background_nice` steps below the request threads (`maintenance_user`'s Memory lists the
    flagged sessions at `scheduler.start()`); without it, each consolidates as a plain `Memory` does."""

    def __init__(self, path: str | Path, config: Config, embedder: Embedder | None = None,
                 max_open: int | None = None, *, background: bool = False,
                 maintenance_user: str = DEFAULT_USER, gate: Callable[[], None] | None = None) -> None:
        self.path = str(path)
        self.config = config
        self.background = background
        self.maintenance_user = maintenance_user
        # flagged sessions wait for `scheduler.start()`: opening a Memory in a request never consolidates
        self._memory_config = config.replace({"capture.consolidate_on_open": False}) if background else config
        if background:  # a recall embeds a few of its user's new turns first, not hundreds: the worker embeds the rest
            first = config.retrieval.embed_first(server=True)
            self._memory_config = self._memory_config.replace({"retrieval.recall_embed_max_items": first})
        self._gate = gate or (lambda: None)  # before each worker job: it gives way to requests (limits.py)
        self._unconsolidated: Counter[tuple[str, str]] = Counter()  # turns added here, not yet consolidated
        self._counts_lock = threading.Lock()  # never held while opening a Memory: `backlog` runs on the event loop
        self._backlog = (0.0, 0)  # (when, value): recounted at most every BACKLOG_EVERY_S
        self.max_open = max(1, max_open if max_open is not None else config.server.max_open_users)
        self._embedder = embedder
        self._memories: OrderedDict[str, Memory] = OrderedDict()  # least recently used first
        self._leases: Counter[str] = Counter()
        self._running: Counter[tuple[str, str]] = Counter()  # sessions being consolidated (worker or session end)
        self._lock = threading.Lock()
        self._closed = False
        self.scheduler = ConsolidationScheduler(
            self._consolidate, self._session, every=config.capture.consolidate_every, background=True, index=self._index,
            pending=self._flagged, shared=True, daemon=True, name=WORKER_NAME,
            run_in_windows=lambda u, s, final, points: self._consolidate(u, s, final, windows=True),
            nice=config.capture.background_nice, housekeeping=self._housekeeping)
        self._sweep_stop = threading.Event()
        self._sweeper: threading.Thread | None = None

    def get(self, user_id: str) -> Memory:
        """The user's `Memory`, opened if need be. Outside a `lease` it may be closed once the pool is full."""
        with self._lock:
            return self._open(user_id)

    @contextmanager
    def lease(self, user_id: str) -> Iterator[Memory]:
        """The user's `Memory`, kept open until the block ends."""
        mem = self.acquire(user_id)
        try:
            yield mem
        finally:
            for old in self.release(user_id) or ():  # closing waits for the file: not under the pool's lock
                old.close()

    def acquire(self, user_id: str) -> Memory:
        """The user's `Memory`, opened if need be, kept open until as many `release`s (what `lease` does)."""
        with self._lock:
            mem = self._open(user_id)
            self._leases[user_id] += 1
        return mem

    def try_acquire(self, user_id: str) -> Memory | None:
        """`acquire` when it cannot wait: the user's Memory is open and the pool's lock free at once (another
        thread may hold it while it opens a Memory, which reads the file); None otherwise. For the event loop."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            mem = None if self._closed else self._memories.get(user_id)
            if mem is not None:
                self._memories.move_to_end(user_id)
                self._leases[user_id] += 1
            return mem
        finally:
            self._lock.release()

    def release(self, user_id: str, *, wait: bool = True) -> list[Memory] | None:
        """End one `acquire`: the Memories now beyond `max_open` that nobody holds, to be closed by the caller
        (not under the pool's lock). With `wait=False` (the event loop) nothing is done, and None returned, when
        the lock is not free at once."""
        if not self._lock.acquire(blocking=wait):
            return None
        try:
            self._leases[user_id] -= 1
            return self._take_idle_overflow()
        finally:
            self._lock.release()

    def turns_added(self, user_id: str, session_id: str, n: int = 1) -> None:
        """Count turns a request stored (for `backlog`)."""
        with self._counts_lock:
            self._unconsolidated[(user_id, session_id)] += n

    def forgotten(self, user_id: str, session_id: str | None = None) -> None:
        """A session (None: every one of the user's) was forgotten: its turns wait for nothing any more."""
        with self._counts_lock:
            for key in [k for k in self._unconsolidated if k[0] == user_id and session_id in (None, k[1])]:
                del self._unconsolidated[key]
            self._backlog = (0.0, 0)

    def backlog(self, fresh: bool = False) -> int:
        """About how many turns stored through this pool wait for a consolidation that is due (a session with
        `Config.capture.consolidate_every` new turns or more; the background worker's share of the CPU grows with it: see
        server/limits.py). Counted again at most every BACKLOG_EVERY_S unless `fresh`."""
        now = time.monotonic()
        when, value = self._backlog
        if now - when < BACKLOG_EVERY_S and not fresh:
            return value
        every = self.config.capture.consolidate_every
        with self._counts_lock:
            value = sum(n for n in self._unconsolidated.values() if n >= every)
        self._backlog = (now, value)
        return value

    def open_users(self) -> list[str]:
        with self._lock:
            return list(self._memories)

    def _open(self, user_id: str) -> Memory:
        if self._closed:
            raise RuntimeError("the memory pool is closed")
        mem = self._memories.get(user_id)
        if mem is None:
            agent = agent_of(user_id)  # an agent's scope is pooled by its owner id, like a user
            mem = Memory(self.path, user_id=DEFAULT_USER if agent else user_id, agent=agent,
                         config=self._memory_config, embedder=self._embedder)
            if self.background:
                mem.scheduler = self.scheduler
            if self._embedder is None:
                self._embedder = mem.embedder()  # load the model once, share it with the next users
            self._memories[user_id] = mem
        self._memories.move_to_end(user_id)
        return mem

    def _take_idle_overflow(self) -> list[Memory]:
        """Remove (not close) the least recently used unleased Memories beyond `max_open`."""
        out = []
        while len(self._memories) > self.max_open:
            victim = next((u for u in self._memories if self._leases[u] <= 0), None)
            if victim is None:
                break
            out.append(self._memories.pop(victim))
            self._leases.pop(victim, None)
        return out

    # --- what the scheduler runs (each under a lease, so the Memory stays open meanwhile) ------------
    def _consolidate(self, user_id: str, session_id: str, final: bool, windows: bool = False) -> bool:
        self._gate()
        key = (user_id, session_id)
        with self._lock:
            self._running[key] += 1
        try:
            with self.lease(user_id) as mem:
                done = (mem.consolidate_in_windows if windows else mem.consolidate)(user_id, session_id, final=final)
                info = mem.store.session(user_id, session_id)
            self._count_left(key, info)
            return done
        finally:
            with self._lock:
                self._running[key] -= 1
                if self._running[key] <= 0:
                    del self._running[key]

    def _count_left(self, key: tuple[str, str], info: SessionInfo | None) -> None:
        """Count the session's turns not consolidated, as the store says (for `backlog`)."""
        with self._counts_lock:
            left = 0 if info is None else max(0, info.turn_count - info.consolidated_turns)
            if left:
                self._unconsolidated[key] = left
            else:
                self._unconsolidated.pop(key, None)

    def _session(self, user_id: str, session_id: str) -> SessionInfo | None:
        with self.lease(user_id) as mem:
            return mem.store.session(user_id, session_id)

    def _index(self, user_id: str, session_id: str) -> None:
        self._gate()
        with self.lease(user_id) as mem:
            mem.index(user_id=user_id)  # this user's new turns only: each user's backlog is their own

    def _housekeeping(self) -> None:
        """`Memory.housekeeping`: a step on the file and the process, so any user's open Memory does it (none
        open: nothing to do). It opens none and leaves the least-recently-used order as it was."""
        with self._lock:
            user = next(iter(self._memories), None)
            if user is None:
                return
            mem = self._memories[user]
            self._leases[user] += 1  # not closed under it
        try:
            mem.housekeeping()
        finally:
            with self._lock:
                self._leases[user] -= 1

    def _flagged(self) -> list[tuple[str, str]]:
        with self.lease(self.maintenance_user) as mem:
            return mem.store.sessions_needing_consolidation()

    # --- sessions nobody is consolidating -------------------------------------------------------------
    def sweep(self) -> int:
        """Queue for the worker every session owed a consolidation that no process is running and no turn has
        touched for `Config.server.sweep_idle_s` (another process's, that died or stopped with its queue
        flagged); the consolidation lease still decides who runs each. Returns how many were queued. The turns
        `backlog` counts are recounted from the store meanwhile."""
        now = time.time()
        with self.lease(self.maintenance_user) as mem:
            owed = mem.store.sessions_owed(self.config.capture.consolidate_every, now - self.config.server.sweep_idle_s, now)
            # the turns counted as waiting, recounted: another server process may have consolidated them since
            # (`serve --processes N`), and a count never recounted would hold `backlog` up, refusing turns past
            # `backlog_refuse_turns`
            with self._counts_lock:
                counted = list(self._unconsolidated)
            for key in counted:
                self._count_left(key, mem.store.session(*key))
        for user_id, session_id, ended in owed:
            self.scheduler.submit(user_id, session_id, final=ended)
        return len(owed)

    def start_sweeper(self) -> None:
        """`sweep` every `Config.server.sweep_s` seconds on a thread of its own, until `close` (0: never)."""
        if not self.background or self.config.server.sweep_s <= 0 or self._sweeper is not None:
            return

        def run() -> None:
            while not self._sweep_stop.wait(self.config.server.sweep_s):
                try:
                    self.sweep()
                except Exception:  # a busy or briefly unreachable database: the next pass tries again
                    log.exception("could not list the sessions owed a consolidation")

        self._sweeper = threading.Thread(target=run, name=f"{WORKER_NAME}-sweep", daemon=True)
        self._sweeper.start()

    def close(self, timeout: float = 30.0) -> None:
        """Stop: flag every session queued or being consolidated (retried at the next start, however the process
        ends), give the runs under way up to `timeout` seconds, then close every Memory nobody is using. A Memory
        still in use (a run that outlived the grace) is left to the end of the process."""
        self._sweep_stop.set()
        if self._sweeper is not None:
            self._sweeper.join(timeout)
        left = self.scheduler.stop()
        with self._lock:
            left += [key for key in self._running if key not in left]
        if left:
            with self.lease(self.maintenance_user) as mem:
                for user_id, session_id in left:
                    mem.store.mark_for_consolidation(user_id, session_id)
        self.scheduler.close(timeout)
        with self._lock:
            self._closed = True
            idle = {u: m for u, m in self._memories.items() if self._leases[u] <= 0}
            self._memories.clear()
        for mem in idle.values():
            mem.close()
