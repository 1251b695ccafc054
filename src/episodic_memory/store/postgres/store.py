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
    """The store in one PostgreSQL database (with pgvector), shared by any number of processes and hosts:
    sessions, turns, vectors and search (`TurnPg`), facts and entities (`FactPg`), episodes, workstreams and loops
    (`ThreadPg`), judgments (`JudgmentPg`), REST tokens (`TokenCore`), export / import / backup (`PortablePg`),
    hand edits (`EditCore`) and the LLM back-off (`BackoffCore`); forgetting is `StoreCore`'s. It implements
    `episodic_memory.store.base.Store`; `store.open_store("postgresql://…")` opens it."""

    def scrub(self) -> bool:
        """VACUUM the tables that hold text, so deleted rows' space is reclaimed and reused.

        VACUUM cannot reclaim a row that a transaction of another connection may still see: while one holds an old
        snapshot (`backend_xmin` in `pg_stat_activity`), this waits for it, up to `Config.store.forget_scrub_wait_s`, and
        returns False when one still did (the deleted rows may still be in the tables).

        What a database server cannot promise: the bytes of a deleted row may stay in free space of a data file
        until overwritten, in WAL segments until they are recycled, and in replicas, base backups and WAL archives
        for as long as those are kept. `VACUUM FULL` (rewrites each table, but locks it against every process
        meanwhile) is left to an operator's maintenance window."""
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
