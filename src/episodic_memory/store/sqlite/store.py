"""`SQLiteStore`: the SQL mixins over one connection (shared ones from `store/sql/`), and scrubbing."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..base import Store
from ..sql.backoff import BackoffCore
from ..sql.edits import EditCore
from ..sql.store import StoreCore
from ..sql.tokens import TokenCore
from .facts import FactSQL
from .judgments import JudgmentSQL
from .portable import PortableSQL
from .threads import ThreadSQL


class SQLiteStore(StoreCore, FactSQL, ThreadSQL, JudgmentSQL, TokenCore, PortableSQL, EditCore, BackoffCore):
    """The store in one SQLite file: the shared mixins and SQLite's own over one `Connection`. It implements
    `episodic_memory.store.base.Store`."""

    def scrub(self) -> bool:
        """The turn heads' snapshot beside the file dropped when stale, FTS segments merged, the WAL
        checkpointed, the file vacuumed. A reader holding an old snapshot keeps the WAL from being
        checkpointed: it is retried for `Config.store.forget_scrub_wait_s`."""
        root = self.sidecar_dir()
        if root is not None and root.is_dir():  # turn heads kept beside the file: nothing forgotten stays
            self.sweep_head_snapshot()
        with self._lock:
            self.db.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")
            self.db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
            if self.in_memory:
                self.db.execute("VACUUM")
                return True
            deadline = time.monotonic() + self.config.store.forget_scrub_wait_s
            self._checkpoint(deadline)
            self.db.execute("VACUUM")
            return self._checkpoint(deadline)

    def _checkpoint(self, deadline: float) -> bool:
        """Checkpoint and truncate the WAL, retrying while readers block it, until `deadline` (monotonic)."""
        step_ms = 100
        try:  # each attempt waits on the readers for at most `step_ms` (not the whole busy timeout)
            self.db.execute(f"PRAGMA busy_timeout = {step_ms}")
            while True:
                busy, _, _ = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if not busy:
                    return True
                if time.monotonic() >= deadline:
                    return False
                time.sleep(step_ms / 1000)
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {int(self.config.store.busy_timeout_ms)}")

if TYPE_CHECKING:  # checked by mypy: SQLiteStore implements every operation of the Store protocol
    def _implements_store(store: SQLiteStore) -> Store:
        return store
