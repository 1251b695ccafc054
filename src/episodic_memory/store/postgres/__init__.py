"""The PostgreSQL + pgvector implementation of the store (`episodic_memory.store.base.Store`), for many
processes sharing one database; needs the `postgres` extra. Each module adds only PostgreSQL's own to its
shared twin in `store/sql/` (docs/architecture.md, "The store interface"; docs/postgres.md).
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
