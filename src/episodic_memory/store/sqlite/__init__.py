"""The SQLite implementation of the store (`episodic_memory.store.base.Store`): one file. With `store/postgres/`,
the only place in the library that writes SQL.

`connection.py` holds the connection, its lock and transactions; `migrations.py` the schema (migrations recorded by
name: `store/schema.py`); one mixin per concern carries that concern's SQL (`turns.py`: sessions, turns, search,
vectors; `facts.py`; `threads.py`: episodes, workstreams, loops; `judgments.py`; `tokens.py`); `store.py` combines
them into `SQLiteStore` and forgets across all of them.
"""

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
