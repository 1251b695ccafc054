"""`PostgresStore`: the SQL mixins over one connection pool, and what spans them all (forgetting)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psycopg

from ..base import Store
from .backoff import BackoffPg
from .edits import EditPg
from .facts import FactPg
from .judgments import JudgmentPg
from .portable import PortablePg
from .threads import ThreadPg
from .tokens import TokenPg

# step(db, where, params) -> {table: rows deleted}; `where` filters on user_id (and session_id) through the named
# parameters %(user)s and %(session)s
ForgetStep = Callable[[psycopg.Connection, str, dict[str, Any]], dict[str, int]]

# the tables whose rows hold a user's words: what `scrub` vacuums
_TEXT_TABLES = ("turns", "turn_terms", "sessions", "memory_fts", "facts", "entities", "entity_aliases", "episodes",
                "episode_terms", "workstreams", "loops", "judgments", "judgment_verdicts", "vectors", "speakers", "api_tokens",
                "alias_sources", "turn_tags")


class PostgresStore(FactPg, ThreadPg, JudgmentPg, TokenPg, PortablePg, EditPg, BackoffPg):
    """The store in one PostgreSQL database (with pgvector), shared by any number of processes and hosts:
    sessions, turns, vectors and search (`TurnPg`), facts and entities (`FactPg`), episodes, workstreams and loops
    (`ThreadPg`), judgments (`JudgmentPg`), REST tokens (`TokenPg`), export / import / backup (`PortablePg`) and
    hand edits (`EditPg`). It implements
    `episodic_memory.store.base.Store`; `store.open_store("postgresql://…")` opens it."""

    def _forget_steps(self) -> list[ForgetStep]:
        return [self._forget_facts, self._forget_judgments, self._forget_threads, self._forget_tokens]

    def forget(self, *, user_id: str | None = None, session_id: str | None = None) -> dict[str, Any]:
        """Delete a session (user_id + session_id), a user (user_id), or everything (neither), in one transaction."""
        if session_id is not None and user_id is None:
            raise ValueError("forgetting a session needs its user_id")
        where = "true"
        params: dict[str, Any] = {}
        if user_id is not None:
            where, params = "user_id = %(user)s", {"user": user_id}
        if session_id is not None:
            where, params = "user_id = %(user)s AND session_id = %(session)s", {"user": user_id, "session": session_id}
        with self.transaction() as db:
            files = [r[0] for r in db.execute(f"SELECT journal_file FROM sessions WHERE {where} FOR UPDATE", params)
                     if r[0]]
            counts: dict[str, Any] = {}
            for step in self._forget_steps():
                counts.update(step(db, where, params))
            counts["turns"] = db.execute(f"DELETE FROM turns WHERE {where}", params).rowcount
            counts["sessions"] = db.execute(f"DELETE FROM sessions WHERE {where}", params).rowcount
            db.execute(f"DELETE FROM vectors WHERE {where}", params)
            self._heads.clear()
        return {**counts, "journal_files": files}

    def scrub(self) -> bool:
        """VACUUM the tables that hold text, so deleted rows' space is reclaimed and reused.

        VACUUM cannot reclaim a row that a transaction of another connection may still see: while one holds an old
        snapshot (`backend_xmin` in `pg_stat_activity`), this waits for it, up to `Config.forget_scrub_wait_s`, and
        returns False when one still did (the deleted rows may still be in the tables).

        What a database server cannot promise: the bytes of a deleted row may stay in free space of a data file
        until overwritten, in WAL segments until they are recycled, and in replicas, base backups and WAL archives
        for as long as those are kept. `VACUUM FULL` (rewrites each table, but locks it against every process
        meanwhile) is left to an operator's maintenance window."""
        deadline = time.monotonic() + self.config.forget_scrub_wait_s
        with self._pool.connection() as db:
            while True:
                row = db.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                 "AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL").fetchone()
                clear = not (row and row[0])
                if clear or time.monotonic() >= deadline:
                    break
                time.sleep(0.1)
            for table in _TEXT_TABLES:
                db.execute(f"VACUUM {table}")
        return clear


if TYPE_CHECKING:  # checked by mypy: PostgresStore implements every operation of the Store protocol
    def _implements_store(store: PostgresStore) -> Store:
        return store
