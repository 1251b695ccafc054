"""Storage. `base.py` is the interface the rest of the library holds (the `Store` protocol), `records.py` the records
it speaks in, and two packages implement it: `sqlite/` in one SQLite file (`SQLiteStore`) and `postgres/` in a
PostgreSQL + pgvector database (`PostgresStore`, the `postgres` extra). The SQL both share is written once in
`sql/`, against a small dialect each backend's connection names; `sql/`, `sqlite/` and `postgres/` are the only
places in the library that write SQL for a store (`rows.py`: the column lists and row mappers all read with;
`schema.py`: the migrations both record by name). `heads.py` (the per-process turn-head cache) and `naming.py`
(workstream names from keyphrases) touch no database.
"""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from .base import Store
from .errors import StoreOpenError, explain
from .location import is_postgres_url
from .sqlite import SQLiteStore


def open_store(path: str | Path, config: Config | None = None) -> Store:
    """The store at `path`: a SQLite file (or ``:memory:``), or a PostgreSQL database for a ``postgresql://`` URL
    (`store.postgres`, the `postgres` extra). The one place that chooses a backend."""
    if is_postgres_url(path):
        from .postgres.store import PostgresStore
        return PostgresStore(str(path), config)
    return SQLiteStore(path, config)


def failed_store_errors() -> tuple[type[Exception], ...]:
    """What opening or reading a damaged or unusable store raises (the backend's own errors included): for a door
    that turns them into one line (`errors.explain`)."""
    import sqlite3

    errors: tuple[type[Exception], ...] = (StoreOpenError, sqlite3.DatabaseError)
    try:  # the postgres extra is optional: without psycopg there is no PostgreSQL store to fail
        import psycopg
    except ImportError:
        return errors
    return (*errors, psycopg.Error)


__all__ = ["SQLiteStore", "Store", "StoreOpenError", "explain", "failed_store_errors", "is_postgres_url", "open_store"]
