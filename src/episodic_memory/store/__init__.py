"""Storage: the `Store` protocol (`base.py`) and its two backends, `sqlite/` (`SQLiteStore`) and `postgres/`
(`PostgresStore`), with the SQL both share in `sql/` (docs/architecture.md, "The store interface").
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
