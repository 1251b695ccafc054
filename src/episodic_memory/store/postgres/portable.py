"""Export, import and backup on PostgreSQL: the shared SQL of `store/sql/portable.py`, read in one
repeatable-read snapshot. What only PostgreSQL has (a turn's `tsv`, a session's `lexemes`) is made again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..sql.dialect import Tx
from ..sql.portable import PortableCore, written_beside
from .connection import PgConnection


class PortablePg(PortableCore, PgConnection):
    """Export, import and backup."""

    # what is local to one database and never travels
    LOCAL_COLUMNS = {"sessions": {"journal_file", "journal_offset", "lexemes", "consolidation_failures", "retry_at"},
                     "turns": {"tsv", "segmented"}}  # segmented: made again from the text on import (store/scripts.py)
    # the order rows are exported in (SQLite's rowid order, where a table has no id)
    EXPORT_ORDER = {"sessions": "user_id, session_id", "route_counts": "user_id, route", "fact_entities": "entity_id"}

    def _columns(self, table: str) -> list[str]:
        return [r[0] for r in self._query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = %s ORDER BY ordinal_position", (table,))]

    @contextmanager
    def _snapshot(self) -> Iterator[Tx]:
        """One repeatable-read, read-only transaction: what an export reads is the database as of one moment."""
        with self._pool.connection() as db:
            db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                yield Tx(db, self.dialect)
            finally:
                db.execute("COMMIT")

    def _recount_sessions(self, tx: Tx, touched: set[tuple[str, str]], new: set[tuple[str, str]]) -> None:
        for user_id, session_id in sorted(touched | new):  # new ones too: their lexemes never travel
            tx.execute(
                "UPDATE sessions s SET turn_count = a.n, started_at = a.first, last_turn_at = a.last, "
                "lexemes = a.lexemes FROM (SELECT count(*) AS n, min(ts) AS first, max(ts) AS last, "
                "coalesce(sum(length(tsv)), 0) AS lexemes FROM turns WHERE user_id = ? "
                "AND session_id = ?) a WHERE s.user_id = ? AND s.session_id = ?",
                (user_id, session_id, user_id, session_id))

    def backup(self, dest: str) -> None:
        """As a SQLite store file: every user's records from one snapshot and the REST tokens. Vectors are
        not copied: a Memory with an embedder computes them again (a copy of the database itself is
        `pg_dump`'s job)."""
        from ..sqlite.store import SQLiteStore

        with written_beside(dest, fresh=True) as tmp:
            records = self.export_records()
            tokens = self._query("SELECT user_id, token_hash, label, created_at, last_used, revoked_at, "
                                 "read_agents, write_agents FROM api_tokens ORDER BY id")
            copy = SQLiteStore(tmp, self.config.replace({"store.read_only": False}))
            try:
                copy.import_records(records)
                with copy.transaction() as db:
                    db.executemany("INSERT INTO api_tokens (user_id, token_hash, label, created_at, last_used, "
                                   "revoked_at, read_agents, write_agents) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                   [tuple(t) for t in tokens])
                copy.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                copy.db.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            finally:
                copy.close()
