"""Export, import and backup on SQLite: the shared SQL of `store/sql/portable.py`, read in one snapshot of the file,
and a consistent copy of the whole file (the SQLite online backup API)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from ..sql.dialect import Tx
from ..sql.portable import PortableCore, written_beside
from .connection import Connection


class PortableSQL(PortableCore, Connection):
    """Export, import and backup."""

    # what is local to one file and never travels
    LOCAL_COLUMNS = {"sessions": {"journal_file", "journal_offset", "consolidation_failures", "retry_at"},
                     "turns": {"segmented"}}  # made again from the text on import (store/scripts.py)
    EXPORT_ORDER = {"sessions": "rowid", "route_counts": "rowid", "fact_entities": "rowid"}

    def _columns(self, table: str) -> list[str]:
        return [r[1] for r in self._query(f"PRAGMA table_info({table})")]

    @contextmanager
    def _snapshot(self) -> Iterator[Tx]:
        """One read transaction on this connection: what an export reads is the file as of one moment."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                yield Tx(self.db, self.dialect)
            finally:
                self.db.execute("COMMIT")

    def _recount_sessions(self, tx: Tx, touched: set[tuple[str, str]], new: set[tuple[str, str]]) -> None:
        for user_id, session_id in touched:  # a new session's record carries its own counts
            tx.execute(
                "UPDATE sessions SET (turn_count, started_at, last_turn_at) = (SELECT count(*), min(ts), max(ts) "
                "FROM turns WHERE user_id = ?1 AND session_id = ?2) WHERE user_id = ?1 AND session_id = ?2",
                (user_id, session_id))

    def backup(self, dest: str) -> None:
        """The SQLite online backup API, in one step: writers in other processes carry on, and the copy is
        the database as of one moment."""
        with written_beside(dest) as tmp:
            copy = sqlite3.connect(tmp)
            try:
                if self.in_memory:
                    with self._lock:
                        self.db.backup(copy)
                else:  # a connection of its own: the copy never waits on this process's lock
                    source = sqlite3.connect(self.path, timeout=self.config.store.busy_timeout_ms / 1000)
                    try:
                        source.backup(copy)
                    finally:
                        source.close()
                copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            finally:
                copy.close()
