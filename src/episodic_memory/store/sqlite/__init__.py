"""The SQLite implementation of the store (`episodic_memory.store.base.Store`): one file. Each module adds
only SQLite's own to its shared twin in `store/sql/` (docs/architecture.md, "The store interface").
"""

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
