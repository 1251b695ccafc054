"""`PostgresStore`: the SQL mixins over one connection pool (shared ones from `store/sql/`), and scrubbing."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..base import Store
from ..sql.backoff import BackoffCore
from ..sql.edits import EditCore
from ..sql.store import StoreCore
from ..sql.tokens import TokenCore
from .facts import FactPg
from .judgments import JudgmentPg
from .portable import PortablePg
from .threads import ThreadPg

# the tables whose rows hold a user's words: what `scrub` vacuums
_TEXT_TABLES = ("turns", "turn_terms", "sessions", "memory_fts", "facts", "entities", "entity_aliases", "episodes",
                "episode_terms", "workstreams", "loops", "judgments", "judgment_verdicts", "vectors", "speakers", "api_tokens",
                "alias_sources", "turn_tags")


class PostgresStore(StoreCore, FactPg, ThreadPg, JudgmentPg, TokenCore, PortablePg, EditCore, BackoffCore):
    """The store in one PostgreSQL database (with pgvector), shared by any number of processes and hosts: the
    shared mixins and PostgreSQL's own over one pool. It implements `episodic_memory.store.base.Store`."""

    def scrub(self) -> bool:
        """VACUUM the tables that hold text, once no other connection holds an old snapshot (waited for up
        to `Config.store.forget_scrub_wait_s`). What it cannot promise: docs/postgres.md, "Forgetting"."""
        deadline = time.monotonic() + self.config.store.forget_scrub_wait_s
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
