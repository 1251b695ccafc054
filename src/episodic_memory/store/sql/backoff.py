"""SQL for the LLM back-off (table `llm_backoff`, migration m019): `llm.backoff.BackingOffClient` keeps it here so
that the next process does not call an LLM that just failed."""

from __future__ import annotations

import time

from .core import SQLCore


class BackoffCore(SQLCore):
    """The LLM back-off, one row per backend description (a mixin of both stores)."""

    def llm_backoff(self, backend: str) -> tuple[float, int, str, str] | None:
        rows = self._rows("SELECT retry_at, failures, kind, reason FROM llm_backoff WHERE backend = ?", (backend,))
        return (float(rows[0][0]), int(rows[0][1]), str(rows[0][2]), str(rows[0][3])) if rows else None

    def record_llm_backoff(self, backend: str, until: float, failures: int, kind: str, reason: str) -> None:
        with self._write() as tx:
            tx.execute("INSERT INTO llm_backoff (backend, retry_at, failures, kind, reason, updated_at) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (backend) DO UPDATE SET retry_at = excluded.retry_at, "
                       "failures = excluded.failures, kind = excluded.kind, reason = excluded.reason, "
                       "updated_at = excluded.updated_at", (backend, until, failures, kind, reason, time.time()))

    def clear_llm_backoff(self, backend: str) -> None:
        with self._write() as tx:
            tx.execute("DELETE FROM llm_backoff WHERE backend = ?", (backend,))
