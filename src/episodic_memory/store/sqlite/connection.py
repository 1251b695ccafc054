"""The connection every SQL mixin of `SQLiteStore` shares: one SQLite file, one lock, migrations at open."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.request import pathname2url

from ...config import MEMORY_PATH, Config
from ..errors import StoreOpenError, explain
from ..scripts import segmented
from ..sql.core import SQLCore
from ..sql.dialect import SQLITE
from .migrations import check_version, migrate


class Connection(SQLCore):
    """One SQLite file (WAL, busy timeout, foreign keys, migrated at open) and the lock that guards it.
    Read-only (`Config.store.read_only`): ``mode=ro``, and ``immutable`` when no ``-wal`` file exists (no
    writer has the file open), so that reading creates no ``-wal``/``-shm`` files either."""

    dialect = SQLITE

    def __init__(self, path: str | Path, config: Config | None = None) -> None:
        self.config = config or Config()
        self.in_memory = str(path) == MEMORY_PATH
        self.read_only = self.config.store.read_only and not self.in_memory
        self.path = str(path) if self.in_memory else str(Path(path).expanduser().resolve())
        self._lock = threading.RLock()
        self._checkpoint_lock = threading.Lock()
        self._checkpointer: sqlite3.Connection | None = None  # see `checkpoint`
        self._checkpointed_at = -float("inf")
        try:
            self.db = self._connect()
        except (sqlite3.Error, OSError) as exc:
            raise StoreOpenError(explain(self.path, exc)) from None
        try:
            self.schema_version = self._prepare()
        except BaseException as exc:
            self.db.close()
            if isinstance(exc, (sqlite3.Error, OSError)):
                raise StoreOpenError(explain(self.path, exc)) from None
            raise

    def _connect(self) -> sqlite3.Connection:
        target, uri = self.path, False
        if self.read_only:
            if not Path(self.path).is_file():
                raise StoreOpenError(f"{self.path}: no such store")
            quiet = "" if Path(self.path + "-wal").exists() else "&immutable=1"
            target, uri = f"file:{pathname2url(self.path)}?mode=ro{quiet}", True
        elif not self.in_memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(target, uri=uri, isolation_level=None, check_same_thread=False,
                             timeout=self.config.store.busy_timeout_ms / 1000)
        # what memory_fts's triggers index a derived memory's Chinese/Japanese/… text as (migration 15)
        db.create_function("episodic_segmented", 1, segmented, deterministic=True)
        return db

    def _prepare(self) -> int:
        """Pragmas, then the schema: migrated (or, read-only, checked). Returns its version."""
        self.db.execute(f"PRAGMA busy_timeout = {int(self.config.store.busy_timeout_ms)}")
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA secure_delete = ON")
        if self.read_only:
            return check_version(self.db, self.path)
        if not self.in_memory:
            self.db.execute("PRAGMA journal_mode = WAL")
            # The JSONL journal is the durable record; NORMAL is crash-safe for the process, and fast.
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute(f"PRAGMA wal_autocheckpoint = {int(self.config.store.wal_checkpoint_pages)}")
        return migrate(self.db, self.path)

    # --- plumbing ------------------------------------------------------------------------------------
    def close(self) -> None:
        with self._checkpoint_lock:
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None
        with self._lock:
            self.db.close()

    def checkpoint(self) -> None:
        """PASSIVE, on a connection of its own: it waits for no reader or writer, and writers on this one
        do not queue behind it. At most every `Config.store.wal_checkpoint_every_s`."""
        if self.in_memory or self.read_only:
            return
        with self._checkpoint_lock:
            now = time.monotonic()
            if now - self._checkpointed_at < self.config.store.wal_checkpoint_every_s:
                return
            self._checkpointed_at = now
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                                     timeout=self.config.store.busy_timeout_ms / 1000)
                self._checkpointer.execute("PRAGMA busy_timeout = 0")  # busy: skip, the next run tries again
            with suppress(sqlite3.OperationalError):  # another process checkpointing or resetting the WAL
                self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

    @contextmanager
    def transaction(self, *locks: str) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE): all or nothing (`locks` are PostgreSQL's)."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self.db.execute(sql, params).fetchall()

    def file_size(self) -> int:
        if self.in_memory:
            page_size = self._query("PRAGMA page_size")[0][0]
            return page_size * self._query("PRAGMA page_count")[0][0]
        return sum(Path(self.path + suffix).stat().st_size for suffix in ("", "-wal")
                   if Path(self.path + suffix).exists())
