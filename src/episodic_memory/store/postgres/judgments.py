"""Judgment memory on PostgreSQL: the shared SQL of `store/sql/judgments.py`, with BM25 over judgments among the
user's derived memories (`memory_fts`) and the newest judgment id (from the counters)."""

from __future__ import annotations

from ..records import JUDGMENT_KIND
from ..sql.judgments import JudgmentCore
from .turns import TurnPg


class JudgmentPg(JudgmentCore, TurnPg):
    """Judgments and their verdicts (a mixin of `PostgresStore`)."""

    def search_judgments(self, match: str, user_id: str, *, limit: int,
                         domain: str | None = None) -> list[tuple[int, float]]:
        """Scored among the user's derived memories, like `search_memories`."""
        extra, params = "", {}
        if domain is not None:
            extra = " AND EXISTS (SELECT 1 FROM judgments j WHERE j.id = m.item_id AND j.domain = %(domain)s)"
            params = {"domain": domain}
        rows = self._search_memory_fts(match, user_id, limit=limit, kinds=[JUDGMENT_KIND], extra=extra,
                                       extra_params=params)
        return [(item_id, score) for _, item_id, score in rows]

    def max_judgment_id(self) -> int:
        return self._counters()["judgments"]
