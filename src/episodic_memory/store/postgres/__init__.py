"""The PostgreSQL + pgvector implementation of the store (`episodic_memory.store.base.Store`), for many server
processes on many machines sharing one database. Needs the `postgres` extra (psycopg 3, psycopg_pool, pgvector; the
embedded server of `cluster.py` for tests and `episodic pg`).

`connection.py` holds the pool and the id-order locks (the `POSTGRES` dialect of `store/sql/`); `migrations.py` the
schema (the same migrations as SQLite's, recorded by name: `store/schema.py`). The SQL both backends share is in
`store/sql/`; each module here adds only PostgreSQL's own to its shared twin (`turns.py`: storing turns, BM25
search, vectors; `facts.py`; `threads.py`; `judgments.py`; `portable.py`); `store.py` combines them into
`PostgresStore`.

Durability: a write returns once its transaction is committed with `synchronous_commit = on`, so the database is
the durable log and `Memory` keeps no local journal for a PostgreSQL store (see docs/postgres.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import PostgresStore


def __getattr__(name: str) -> Any:
    """`PostgresStore` is imported on first use, so `cluster` (and this package) import without the driver."""
    if name == "PostgresStore":
        from .store import PostgresStore
        return PostgresStore
    raise AttributeError(name)


__all__ = ["PostgresStore"]
