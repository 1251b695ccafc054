"""Judgment memory on SQLite: the shared SQL of `store/sql/judgments.py`, with BM25 over judgments in FTS5
(`memory_fts`) and the newest judgment id."""

from __future__ import annotations

from typing import Any

from ..sql.judgments import JudgmentCore
from .turns import MEMORY_BM25, TurnSQL, memory_words


class JudgmentSQL(JudgmentCore, TurnSQL):
    """Judgments and their verdicts (a mixin of `SQLiteStore`; their vectors go through `TurnSQL.add_vectors`)."""

    def search_judgments(self, match: str, user_id: str, *, limit: int,
                         domain: str | None = None) -> list[tuple[int, float]]:
        sql = (f"SELECT j.id, -{MEMORY_BM25} AS score FROM memory_fts "
               "JOIN judgments j ON j.id = memory_fts.item_id WHERE memory_fts MATCH ? "
               "AND memory_fts.kind = 'judgment' AND memory_fts.user_id = ? AND j.user_id = ?")
        params: list[Any] = [memory_words(match, user_id, not self._only_user(user_id)), user_id, user_id]
        if domain is not None:
            sql += " AND j.domain = ?"
            params.append(domain)
        return [(r[0], r[1]) for r in self._query(sql + " ORDER BY score DESC LIMIT ?", [*params, limit])]

    def max_judgment_id(self) -> int:
        return self._query("SELECT coalesce(max(id), 0) FROM judgments")[0][0]
