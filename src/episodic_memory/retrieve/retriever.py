"""Recall: ranked legs fused by reciprocal rank, with recency as an independent additive term."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..config import Config
from ..store.records import StoredTurn, to_datetime
from ..store.sqlite import SQLiteStore
from .fts import fts_query
from .hit import Hit


@dataclass
class RecallFilters:
    user_id: str
    session_id: str | None = None
    kind: str | None = None
    since: float | None = None
    until: float | None = None


def recency_bonus(ts: float, now: float, config: Config) -> float:
    """weight · 2^(−age / half-life): added to the fused score, never multiplied into it."""
    age_days = max(now - ts, 0.0) / 86_400
    return config.recency_weight * math.pow(0.5, age_days / config.recency_half_life_days)


class Retriever:
    def __init__(self, store: SQLiteStore, config: Config) -> None:
        self.store = store
        self.config = config

    def recall(self, query: str, k: int, filters: RecallFilters) -> list[Hit]:
        if k <= 0 or (filters.kind not in (None, "turn")):
            return []
        match = fts_query(query)
        if match is None:
            return []
        ranked = self.store.search_turns(
            match, filters.user_id, limit=max(k, self.config.candidate_pool), session_id=filters.session_id,
            since=filters.since, until=filters.until,
        )
        now = time.time()
        scored = [
            (1.0 / (self.config.rrf_k + rank) + recency_bonus(turn.ts, now, self.config), turn)
            for rank, (turn, _bm25) in enumerate(ranked, start=1)
        ]
        scored.sort(key=lambda pair: pair[0], reverse=True)
        return [turn_hit(turn, score) for score, turn in scored[:k]]


def turn_hit(turn: StoredTurn, score: float) -> Hit:
    return Hit(
        id=f"turn:{turn.id}", kind="turn", text=turn.content, score=score, timestamp=to_datetime(turn.ts),
        session_id=turn.session_id, source_ids=[turn.source_id], speaker=turn.speaker, role=turn.role,
        user_id=turn.user_id,
    )
