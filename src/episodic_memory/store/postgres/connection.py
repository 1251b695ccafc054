"""The connection pool every SQL mixin of `PostgresStore` shares: one database, migrated at open, every
commit durable (`synchronous_commit = on`), and the advisory locks that make ids become visible in the
order they were handed out (docs/postgres.md, "Many processes")."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from ...config import Config
from ..location import redact
from ..sql.core import SQLCore
from ..sql.dialect import POSTGRES
from .migrations import check_version, migrate

#: the counters of the current read scope (`PgConnection.read_snapshot`), None outside one
_SNAPSHOT: ContextVar[dict[str, int] | None] = ContextVar("episodic_pg_counters", default=None)
_COUNTERS_SQL = ("SELECT (SELECT coalesce(max(id), 0) FROM turns), (SELECT coalesce(max(id), 0) FROM facts), "
                 "(SELECT coalesce(max(id), 0) FROM judgments), (SELECT coalesce(json_object_agg(key, value), '{}') "
                 "FROM store_meta)")

# pg_advisory_xact_lock keys: writers of a table whose ids readers follow by watermark take its key
ID_ORDER_LOCKS = {"turns": 0x6570_7401, "facts": 0x6570_7402, "judgments": 0x6570_7403, "vectors": 0x6570_7404}

class PgConnection(SQLCore):
    """A pool of connections to one database (migrated at open) and the lock that guards per-process caches."""

    in_memory = False
    dialect = POSTGRES

    def __init__(self, url: str, config: Config | None = None) -> None:
        self.config = config or Config()
        self.url = url
        self.path = redact(url)
        self._lock = threading.RLock()
        self.writes = 0  # write transactions this process began (another process's writes: see their TTLs)
        self.read_only = self.config.store.read_only
        with psycopg.connect(url, autocommit=True) as db:
            # read-only: nothing migrated (the schema must be this version's), and every transaction read-only
            self.schema_version = check_version(db, self.path) if self.read_only else migrate(db, self.path)
        self._pool = ConnectionPool(url, min_size=1, max_size=self.config.store.pg_pool_size, kwargs={"autocommit": True},
                                    configure=_configure_read_only if self.read_only else _configure, open=True,
                                    timeout=self.config.store.busy_timeout_ms / 1000)

    # --- plumbing ------------------------------------------------------------------------------------
    def close(self) -> None:
        self._pool.close()

    def checkpoint(self) -> None:
        """Nothing to do: the server checkpoints its own write-ahead log."""

    @contextmanager
    def transaction(self, *locks: str) -> Iterator[psycopg.Connection]:
        """A write transaction: all or nothing. `locks` name tables whose id order readers rely on
        (`ID_ORDER_LOCKS`): held until commit."""
        self.writes += 1  # caches of what this process wrote check it (turns.py: BM25 statistics)
        with self._pool.connection() as db, db.transaction():
            for name in sorted(locks):
                db.execute("SELECT pg_advisory_xact_lock(%s)", (ID_ORDER_LOCKS[name],))
            yield db

    def _query(self, sql: str, params: Sequence[Any] | dict[str, Any] = (), *, binary: bool = False) -> list[Any]:
        """Rows of one statement. `binary`: results in PostgreSQL's binary format (for vectors: the
        pgvector adapter parses their text number by number)."""
        with self._pool.connection() as db, db.cursor(binary=binary) as cur:
            return cur.execute(sql, params).fetchall()

    def file_size(self) -> int:
        return int(self._query("SELECT pg_database_size(current_database())")[0][0])

    def _vector(self, vec: bytes) -> Any:
        """float32 bytes as a pgvector `vector`."""
        import numpy as np
        from pgvector import Vector

        return Vector(np.frombuffer(vec, np.float32))

    # --- counters ------------------------------------------------------------------------------------
    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """One recall's scope: the counters (`_counters`) are read in one round trip at their first use and
        reused until it ends, in threads started with a copy of this context too."""
        token = _SNAPSHOT.set({}) if _SNAPSHOT.get() is None else None
        try:
            yield
        finally:
            if token is not None:
                _SNAPSHOT.reset(token)

    def _counters(self) -> dict[str, int]:
        """The newest turn, fact and judgment ids ("turns", "facts", "judgments") and every `store_meta` counter,
        in one statement; inside a read scope, once per scope."""
        scope = _SNAPSHOT.get()
        if scope:
            return scope
        turns, facts, judgments, meta = self._query(_COUNTERS_SQL)[0]
        counters = {**{k: int(v) for k, v in meta.items()}, "turns": int(turns), "facts": int(facts),
                    "judgments": int(judgments)}
        if scope is not None:
            scope.update(counters)
        return counters


def _configure(db: psycopg.Connection) -> None:
    """Every pooled connection: commits durable before they return, pgvector's types known."""
    db.execute("SET synchronous_commit = on")
    register_vector(db)


def _configure_read_only(db: psycopg.Connection) -> None:
    """A pooled connection of a read-only store (`Config.store.read_only`): the server refuses every write."""
    _configure(db)
    db.execute("SET default_transaction_read_only = on")
