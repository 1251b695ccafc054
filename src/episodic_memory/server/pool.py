"""One `Memory` per user on one file, and the background worker that consolidates for the REST server.

Isolation: every request gets the `Memory` opened for its token's user, so no code path can hand it another user's
id. All of them share the file (SQLite WAL; writes serialised by the recorder's thread + file lock) and one loaded
embedder.

Consolidation: `Memory` normally consolidates inside `add_turn` every `Config.consolidate_every` turns, which would
make a write wait for extraction (and an LLM). The server's Memories are opened with consolidation deferred
(`consolidate_every` = 2**30, nothing consolidated at open) and a single worker thread per process does it instead:
a write submits its session; the worker consolidates once `consolidate_every` (the configured value) new turns
have gathered, and otherwise just embeds new turns so the next recall finds them ready. At start the worker
consolidates every session flagged by crash recovery or idleness. A per-session lock keeps the worker and an
explicit session end from consolidating the same session at once.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..config import DEFAULT_USER, Config
from ..memory import Memory
from ..models.embedder import Embedder

log = logging.getLogger(__name__)

DEFERRED = 2**30  # consolidate_every of the server's Memories: never inside a request


def server_config(config: Config | None = None) -> tuple[Config, int]:
    """(the config for server Memories, with consolidation deferred; the configured `consolidate_every`)."""
    base = config or Config.from_env()
    deferred = base.model_copy(update={"consolidate_every": DEFERRED, "consolidate_on_open": False})
    return deferred, base.consolidate_every


class MemoryPool:
    """`Memory` objects by user id, opened on first use; at most `max_open` are kept.

    Requests and the worker hold a `lease` while they use one; when more than `max_open` are open, the least
    recently used ones that nobody holds are closed (their users' next request opens them again: the file is the
    state, a `Memory` only caches it).
    """

    def __init__(self, path: str | Path, config: Config, embedder: Embedder | None = None,
                 max_open: int | None = None) -> None:
        self.path = str(path)
        self.config = config
        self.max_open = max(1, max_open if max_open is not None else config.server_max_open_users)
        self._embedder = embedder
        self._memories: OrderedDict[str, Memory] = OrderedDict()  # least recently used first
        self._leases: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._closed = False

    def get(self, user_id: str) -> Memory:
        """The user's `Memory`, opened if need be. Outside a `lease` it may be closed once the pool is full."""
        with self._lock:
            return self._open(user_id)

    @contextmanager
    def lease(self, user_id: str) -> Iterator[Memory]:
        """The user's `Memory`, kept open until the block ends."""
        with self._lock:
            mem = self._open(user_id)
            self._leases[user_id] += 1
        try:
            yield mem
        finally:
            with self._lock:
                self._leases[user_id] -= 1
                idle = self._take_idle_overflow()
            for old in idle:  # closing waits for the file: not under the pool's lock
                old.close()

    def open_users(self) -> list[str]:
        with self._lock:
            return list(self._memories)

    def _open(self, user_id: str) -> Memory:
        if self._closed:
            raise RuntimeError("the memory pool is closed")
        mem = self._memories.get(user_id)
        if mem is None:
            mem = Memory(self.path, user_id=user_id, config=self.config, embedder=self._embedder)
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

    def close(self) -> None:
        with self._lock:
            self._closed = True
            memories = list(self._memories.values())
            self._memories.clear()
        for mem in memories:
            mem.close()


class Consolidator:
    """A single background thread that consolidates (and embeds) what the requests wrote."""

    def __init__(self, pool: MemoryPool, every: int, maintenance_user: str = DEFAULT_USER) -> None:
        self.pool = pool
        self.every = every
        self.maintenance_user = maintenance_user
        self._queue: queue.Queue[tuple[str, str, bool] | None] = queue.Queue()
        self._queued: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        self._session_locks: dict[tuple[str, str], threading.Lock] = {}
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="episodic-consolidator", daemon=True)
        self._thread.start()

    def submit(self, user_id: str, session_id: str, force: bool = False) -> None:
        """Look at a session soon: consolidate it if enough new turns gathered (always when `force`)."""
        key = (user_id, session_id)
        with self._lock:
            if key in self._queued and not force:
                return
            self._queued.add(key)
        self._queue.put((user_id, session_id, force))

    @contextmanager
    def session_lock(self, user_id: str, session_id: str) -> Iterator[None]:
        with self._lock:
            lock = self._session_locks.setdefault((user_id, session_id), threading.Lock())
        with lock:
            yield

    def wait_idle(self) -> None:
        """Block until everything submitted so far has been handled."""
        self._queue.join()

    def stop(self, timeout: float = 30.0) -> None:
        """Finish the queued work (up to `timeout` seconds), then end the thread."""
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("consolidation worker still busy after %.0fs; unfinished sessions are retried at the next "
                        "start", timeout)
        self._thread = None

    def _run(self) -> None:
        try:
            with self.pool.lease(self.maintenance_user) as mem:
                waiting = mem.store.sessions_needing_consolidation()
            for user_id, session_id in waiting:
                self.submit(user_id, session_id, force=True)
        except Exception:
            log.exception("could not list the sessions awaiting consolidation")
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                user_id, session_id, force = item
                with self._lock:
                    self._queued.discard((user_id, session_id))
                self._handle(user_id, session_id, force)
            except Exception:
                log.exception("background consolidation of %s failed; the session is retried later", item)
            finally:
                self._queue.task_done()

    def _handle(self, user_id: str, session_id: str, force: bool) -> None:
        with self.pool.lease(user_id) as mem:
            info = mem.store.session(user_id, session_id)
            if info is None:
                return
            if force or info.needs_consolidation or info.turn_count - info.consolidated_turns >= self.every:
                with self.session_lock(user_id, session_id):
                    mem.consolidate(user_id, session_id)
            else:
                mem.index()
