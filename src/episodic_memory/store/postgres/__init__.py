"""The PostgreSQL + pgvector implementation of the store (`episodic_memory.store.base.Store`), for many server
processes on many machines sharing one database. Needs the `postgres` extra (psycopg 3, psycopg_pool, pgvector; the
embedded server of `cluster.py` for tests and `episodic pg`).

`connection.py` holds the pool and the id-order locks; `migrations.py` the numbered schema (same numbers as
SQLite's); one mixin per concern carries its SQL (`turns.py`: sessions, turns, BM25 search, vectors; `facts.py`;
`threads.py`; `judgments.py`; `tokens.py`); `store.py` combines them into `PostgresStore`.

Durability: a write returns once its transaction is committed with `synchronous_commit = on`, so the database is
the durable log and `Memory` keeps no local journal for a PostgreSQL store (see docs/postgres.md).
"""

from .store import PostgresStore

__all__ = ["PostgresStore"]
