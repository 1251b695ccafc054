"""SQL for the LLM back-off (table `llm_backoff`, migration m019), as SQLite's (`store/sqlite/backoff.py`)."""

from __future__ import annotations

import time

from .connection import PgConnection


class BackoffPg(PgConnection):
    """The LLM back-off, one row per backend description (a mixin of `PostgresStore`)."""

    def llm_backoff(self, backend: str) -> tuple[float, int, str, str] | None:
        rows = self._query("SELECT retry_at, failures, kind, reason FROM llm_backoff WHERE backend = %s", (backend,))
        return (float(rows[0][0]), int(rows[0][1]), str(rows[0][2]), str(rows[0][3])) if rows else None

    def record_llm_backoff(self, backend: str, until: float, failures: int, kind: str, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO llm_backoff (backend, retry_at, failures, kind, reason, updated_at) "
                       "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (backend) DO UPDATE SET "
                       "retry_at = excluded.retry_at, failures = excluded.failures, kind = excluded.kind, "
                       "reason = excluded.reason, updated_at = excluded.updated_at",
                       (backend, until, failures, kind, reason, time.time()))

    def clear_llm_backoff(self, backend: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM llm_backoff WHERE backend = %s", (backend,))
