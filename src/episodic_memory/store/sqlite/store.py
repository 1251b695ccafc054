"""`SQLiteStore`: the SQL mixins over one connection, and what spans them all (forgetting)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base import Store
from .backoff import BackoffSQL
from .edits import EditSQL
from .facts import FactSQL
from .judgments import JudgmentSQL
from .portable import PortableSQL
from .threads import ThreadSQL
from .tokens import TokenSQL

# step(db, where, params) -> {table: rows deleted}, where `where` filters on user_id (and session_id) columns
ForgetStep = Callable[[sqlite3.Connection, str, list[Any]], dict[str, int]]


class SQLiteStore(FactSQL, ThreadSQL, JudgmentSQL, TokenSQL, PortableSQL, EditSQL, BackoffSQL):
    """The store in one SQLite file: sessions, turns, vectors and search (`TurnSQL`), facts and entities
    (`FactSQL`), episodes, workstreams and loops (`ThreadSQL`), judgments (`JudgmentSQL`), REST tokens
    (`TokenSQL`), export / import / backup (`PortableSQL`) and hand edits (`EditSQL`), all over one `Connection`. It implements `episodic_memory.store.base.Store`."""

    def _forget_steps(self) -> list[ForgetStep]:
        """What the derived memories' mixins delete when a scope is forgotten, in this order, before its turns and
        sessions go."""
        return [self._forget_facts, self._forget_judgments, self._forget_threads, self._forget_tokens]

    # --- forgetting ----------------------------------------------------------------------------------
    def forget(self, *, user_id: str | None = None, session_id: str | None = None) -> dict[str, Any]:
        """Delete a session (user_id + session_id), a user (user_id), or everything (neither).

        Returns the counts deleted and the journal files of the deleted sessions.
        """
        if session_id is not None and user_id is None:
            raise ValueError("forgetting a session needs its user_id")
        where = "1 = 1"
        params: list[Any] = []
        if user_id is not None:
            where, params = "user_id = ?", [user_id]
        if session_id is not None:
            where, params = "user_id = ? AND session_id = ?", [user_id, session_id]
        with self.transaction() as db:
            files = [r[0] for r in db.execute(f"SELECT journal_file FROM sessions WHERE {where}", params) if r[0]]
            counts: dict[str, Any] = {}
            for step in self._forget_steps():
                counts.update(step(db, where, params))
            counts["turns"] = db.execute(f"DELETE FROM turns WHERE {where}", params).rowcount
            counts["sessions"] = db.execute(f"DELETE FROM sessions WHERE {where}", params).rowcount
            db.execute(f"DELETE FROM vectors WHERE {where}", params)  # belt and braces: none of theirs may remain
            if self._heads is not None:
                self._heads.clear()  # nothing read from a forgotten turn stays in this process either
        return {**counts, "journal_files": files}

    def scrub(self) -> bool:
        """Make deleted text unrecoverable from the file: the sidecar beside it reconciled (`store.sidecar`), FTS
        segments merged, the WAL checkpointed, the file vacuumed.

        A reader holding an old snapshot (another process in a transaction) keeps the WAL from being checkpointed,
        and with it the deleted pages. The checkpoint is retried for `Config.forget_scrub_wait_s`; returns False
        when the bytes may still be in the file after that."""
        root = self.sidecar_dir()
        if root is not None and root.is_dir():  # vectors and turn heads kept beside the file: nothing forgotten stays
            from ..sidecar import sweep

            sweep(root, self)
            self.sweep_head_snapshot()
        with self._lock:
            self.db.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")
            self.db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
            if self.in_memory:
                self.db.execute("VACUUM")
                return True
            deadline = time.monotonic() + self.config.forget_scrub_wait_s
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
            self.db.execute(f"PRAGMA busy_timeout = {int(self.config.busy_timeout_ms)}")

if TYPE_CHECKING:  # checked by mypy: SQLiteStore implements every operation of the Store protocol
    def _implements_store(store: SQLiteStore) -> Store:
        return store
