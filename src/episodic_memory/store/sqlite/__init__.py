"""The SQLite implementation of the store (`episodic_memory.store.base.Store`): one file.

`connection.py` holds the connection, its lock and transactions (the `SQLITE` dialect of `store/sql/`);
`migrations.py` the schema (migrations recorded by name: `store/schema.py`). The SQL both backends share is in
`store/sql/`; each module here adds only SQLite's own to its shared twin (`turns.py`: storing turns, FTS5 search,
turn heads, vectors and their sidecar; `facts.py`; `threads.py`; `judgments.py`; `portable.py`: the snapshot and
the backup API); `store.py` combines them into `SQLiteStore` and scrubs the file.
"""

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
