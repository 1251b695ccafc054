"""Recall: BM25 and dense legs fused by reciprocal rank, conversation-aware boosts, recency added, optional rerank.

Scoring of one candidate (all weights in `Config`):

    fused    = Σ_leg w_leg / (rrf_k + rank_leg)  ÷  Σ_leg w_leg / (rrf_k + 1)     (1.0 = first in every leg)
    context  = neighbour_weight · max(fused of the turns next to it in its session)
    boosts   = speaker_bonus (a name in the query spoke it) + time_bonus (its time matches a time phrase)
    score    = fused + context + boosts + recency_weight · 2^(−age / half-life)

Recency is its own additive term, never multiplied into the fused score.
"""

from __future__ import annotations

import logging
import math
import os
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from ..config import Config
from ..models.embedder import Embedder
from ..models.reranker import Reranker
from ..store.records import StoredTurn, TurnHead, to_datetime
from ..store.sqlite import SQLiteStore
from .dense import DenseIndex
from .fts import any_of, fts_query
from .hit import Hit
from .kinds import CODES, KINDS
from .query import QueryInfo, analyze, strip_names

log = logging.getLogger(__name__)

# Where recall's BM25 legs run while the calling thread embeds the query (two workers: concurrent recalls of a
# server do not queue behind one another). A forked child gets a pool of its own: the parent's threads are not
# there, and a submit to their pool would wait forever.
def _new_legs_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(2, thread_name_prefix="episodic-bm25")


_LEGS = _new_legs_pool()


def _after_fork() -> None:
    global _LEGS
    _LEGS = _new_legs_pool()


os.register_at_fork(after_in_child=_after_fork)


@dataclass
class RecallFilters:
    user_id: str
    session_id: str | None = None
    kind: str | None = None
    since: float | None = None
    until: float | None = None
    as_of: float | None = None    # recall what was believed then: facts valid at that time, turns said by then


@dataclass
class _Candidate:
    key: tuple[str, int]                      # (kind, item id)
    ranks: dict[str, int] = field(default_factory=dict)
    fused: float = 0.0
    score: float = 0.0
    similarity: float | None = None


def recency_bonus(ts: float, now: float, config: Config) -> float:
    """weight · 2^(−age / half-life): added to the fused score, never multiplied into it."""
    age_days = max(now - ts, 0.0) / 86_400
    return config.recency_weight * math.pow(0.5, age_days / config.recency_half_life_days)


def turn_text(turn: StoredTurn) -> str:
    return f"{turn.speaker}: {turn.content}" if turn.speaker else turn.content


def embedding_text(turn: StoredTurn, previous: StoredTurn | None = None, context_chars: int = 200,
                   short_turn_chars: int = 300) -> str:
    """What a turn is embedded as: with its speaker (so "what did Caroline say" finds Caroline's turns) and, in a
    quick exchange of short turns, the start of the turn before it (so an answer carries its question). A long turn
    stands on its own: a long neighbour's opening would drown it (measured: docs/retrieval.md)."""
    text = turn_text(turn)
    if previous is None or len(turn.content) >= short_turn_chars or len(previous.content) >= short_turn_chars:
        return text
    return f"{turn_text(previous)[:context_chars]}\n{text}"


_NORMALISE = re.compile(r"\W+")


def _dedup_key(text: str) -> str:
    return _NORMALISE.sub(" ", text.lower()).strip()


class Retriever:
    """Hybrid recall over every kind of memory the store holds (turns today)."""

    def __init__(
        self,
        store: SQLiteStore,
        config: Config,
        *,
        embedder: Callable[[], Embedder | None] = lambda: None,
        reranker: Callable[[], Reranker | None] = lambda: None,
    ) -> None:
        self.store = store
        self.config = config
        self._embedder = embedder
        self._reranker = reranker
        self._dense: DenseIndex | None = None

    # --- the dense index follows the embedder ---------------------------------------------------------
    def dense_index(self) -> DenseIndex | None:
        embedder = self._embedder()
        if embedder is None:
            return None
        if self._dense is None or self._dense.model_id != embedder.model_id:
            cfg = self.config
            self._dense = DenseIndex(self.store, embedder.model_id, embedder.dim, coarse_above=cfg.dense_coarse_above,
                                     coarse_dims=cfg.dense_coarse_dims, coarse_factor=cfg.dense_coarse_factor)
        return self._dense

    # --- recall --------------------------------------------------------------------------------------
    def recall(self, query: str, k: int, filters: RecallFilters, *, now: float | None = None) -> list[Hit]:
        if filters.kind is not None and filters.kind != "turn" and filters.kind not in CODES:
            known = ", ".join(["turn", *CODES])
            raise ValueError(f"unknown kind {filters.kind!r}: use one of {known}")
        if k <= 0:
            return []
        cfg = self.config
        now = time.time() if now is None else now
        until = filters.until if filters.as_of is None else min(filters.as_of, filters.until or filters.as_of)
        names = [n for n, _ in self.store.speakers(filters.user_id)]
        info = analyze(query, names)
        w_bm25, w_dense = cfg.leg_weights.get(info.kind, (1.0, 1.0))
        pool = max(k, cfg.candidate_pool)
        want_turns = filters.kind in (None, "turn")
        other_kinds = [name for name in KINDS if filters.kind in (None, name)]
        candidates: dict[tuple[str, int], _Candidate] = {}

        def add(leg: str, keys: list[tuple[str, int]], sims: list[float] | None = None) -> None:
            for rank, key in enumerate(keys, start=1):
                c = candidates.setdefault(key, _Candidate(key))
                c.ranks[leg] = rank
                if sims is not None:
                    c.similarity = sims[rank - 1]

        legs: dict[str, float] = {}
        embedder = self._embedder()
        dense = self.dense_index() if embedder is not None else None
        if dense is not None:
            dense.sync(filters.user_id)  # the dense leg's one SQL read, before the BM25 legs take the connection
        match = fts_query(query)
        # the BM25 legs (SQLite, which lets go of the GIL) run in a worker while this thread embeds the query and
        # scans the vectors (onnxruntime and numpy, which do too): the two halves overlap on two cores
        bm25 = _LEGS.submit(self._bm25_legs, match, info, filters, until, pool, want_turns, other_kinds,
                            dense is not None) if match is not None else None
        dense_hits = None
        try:
            if dense is not None and embedder is not None:
                # a speaker's name in the query says whose turns (speaker_bonus), not what about: embedded, it pulls
                # in every short turn of that speaker's, whose vector is mostly the "Name:" it is embedded with
                qvec = embedder.embed_query(query if cfg.dense_query_names else strip_names(query, info.names))
                dense_hits = dense.search(filters.user_id, qvec, pool, floor=cfg.dense_floor, kind=filters.kind,
                                          session_id=filters.session_id, since=filters.since, until=until,
                                          center=cfg.dense_center, synced=True)
        finally:  # whatever happened here, the worker is done with the connection before this thread reads on
            turn_keys, memory_keys = bm25.result() if bm25 is not None else ([], [])
        if bm25 is not None:
            add("bm25", turn_keys)
            add("bm25_memory", memory_keys)
            legs["bm25"] = legs["bm25_memory"] = w_bm25
        if dense_hits is not None:
            add("dense", [(h.kind, h.item_id) for h in dense_hits], [h.similarity for h in dense_hits])
            legs["dense"] = w_dense
        if not candidates:
            return []

        best = (w_bm25 / (cfg.rrf_k + 1) if match is not None else 0.0) + (
            w_dense / (cfg.rrf_k + 1) if "dense" in legs else 0.0)
        for c in candidates.values():
            c.fused = sum(legs[leg] / (cfg.rrf_k + rank) for leg, rank in c.ranks.items()) / best

        derived = sorted((key for key in candidates if key[0] != "turn"), key=lambda key: -candidates[key].fused)
        for key in derived[max(cfg.derived_pool, k):]:  # only the best derived memories are worth loading
            del candidates[key]
        heads = self.store.turn_heads(filters.user_id, [i for kind, i in candidates if kind == "turn"])
        others = self._load_others(candidates, filters)
        self._score(candidates, heads, info, now)
        self._score_others(candidates, others, info, now, heads)
        ranked = sorted((c for c in candidates.values() if (c.key[0] == "turn" and c.key[1] in heads) or c.key in others),
                        key=lambda c: c.score, reverse=True)
        turns: dict[int, StoredTurn] = {}  # full turns (with their text), read only for what reaches the top
        ranked = self._rerank(query, ranked, turns, others, filters.user_id)
        return self._hits(ranked, turns, others, k, filters.user_id)

    def bm25_match(self, match: str, terms: list[str]) -> str | None:
        """`match` without the terms found in a large share of a big store (they cost most of the BM25 time and rank
        little), while rarer terms remain; None when every term is that common (the dense leg alone speaks)."""
        cfg = self.config
        common = self.store.common_terms(terms, floor=cfg.bm25_common_floor, share=cfg.bm25_common_share)
        return any_of([t for t in terms if t not in common]) if common else match

    def _bm25_legs(self, match: str, info: QueryInfo, filters: RecallFilters, until: float | None, pool: int,
                   want_turns: bool, other_kinds: list[str], has_dense: bool
                   ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        """Keys found by BM25 over turns and over derived memories, best first."""
        turn_match = self.bm25_match(match, info.terms) if has_dense else match
        turns: list[tuple[str, int]] = []
        memories: list[tuple[str, int]] = []
        if turn_match is None:
            return turns, memories
        if want_turns:
            turns = [("turn", i) for i, _ in self.store.search_turns(
                turn_match, filters.user_id, limit=pool, session_id=filters.session_id, since=filters.since,
                until=until)]
        if other_kinds:  # derived memories rank in their own FTS table: a leg of their own, same weight; a term too
            # common among the turns is as common among what they became
            memories = [(kind, i) for kind, i, _ in self.store.search_memories(
                turn_match, filters.user_id, limit=pool, kinds=other_kinds)]
        return turns, memories

    def _read_turns(self, ranked: list[_Candidate], turns: dict[int, StoredTurn], user_id: str, start: int,
                    count: int) -> None:
        """Read the full turns of ranked[start : start + count] that are not in `turns` yet."""
        missing = [c.key[1] for c in ranked[start : start + count] if c.key[0] == "turn" and c.key[1] not in turns]
        if missing:
            turns.update(self.store.turns_by_id(user_id, missing))

    def _load_others(self, candidates: dict[tuple[str, int], _Candidate], filters: RecallFilters
                     ) -> dict[tuple[str, int], Hit]:
        """Hits for the candidates that are not turns, through each kind's loader, with the filters applied."""
        by_kind: dict[str, list[int]] = {}
        for kind, item_id in candidates:
            if kind != "turn" and kind in KINDS:
                by_kind.setdefault(kind, []).append(item_id)
        out: dict[tuple[str, int], Hit] = {}
        for kind, ids in by_kind.items():
            for item_id, hit in KINDS[kind].loader(self.store, filters.user_id, ids, filters.as_of).items():
                ts = hit.timestamp.timestamp() if hit.timestamp else None
                if filters.session_id is not None and hit.session_id != filters.session_id:
                    continue
                if ts is not None and ((filters.since is not None and ts < filters.since) or (
                        filters.until is not None and ts > filters.until) or (
                        filters.as_of is not None and ts > filters.as_of)):
                    continue
                out[(kind, item_id)] = hit
        return out

    def _score_others(self, candidates: dict[tuple[str, int], _Candidate], others: dict[tuple[str, int], Hit],
                      info: QueryInfo, now: float, turns: dict[int, TurnHead]) -> None:
        """Derived memories: fused + the kind's bonus + name and time matches + recency; a memory distilled from
        turns that matched scores at least as well as the best of them (it is their summary)."""
        cfg = self.config
        names = {n.lower() for n in info.names}
        kind_bonus = {"fact": cfg.fact_recall_bonus}
        for key, hit in others.items():
            c = candidates[key]
            bonus = kind_bonus.get(key[0], 0.0)
            score = c.fused + bonus
            if hit.details.get("type") == "preference" and (c.similarity or 0.0) >= cfg.standing_similarity:
                score += cfg.standing_bonus  # a standing preference or instruction applies wherever its topic comes up
            entities = {str(e).lower() for e in hit.details.get("entities", [])}
            if names and (names & entities or (hit.speaker and hit.speaker.lower() in names)):
                score += cfg.speaker_bonus
            when = hit.details.get("event_time")
            event_ts = datetime.fromisoformat(when).timestamp() if when else (
                hit.timestamp.timestamp() if hit.timestamp else None)
            if info.time_range and event_ts is not None and info.time_range[0] <= event_ts < info.time_range[1]:
                score += cfg.time_bonus
            ts = hit.timestamp.timestamp() if hit.timestamp else now
            c.score = score + recency_bonus(ts, now, cfg)
            # a memory distilled from a turn that matched inherits that turn's standing, in proportion to how
            # well it matches itself (one sentence of a long turn may be beside the point)
            sources = [candidates[("turn", i)] for i in hit.details.get("source_turns", ())
                       if i in turns and ("turn", i) in candidates]
            for source in sources:
                share = min(1.0, c.fused / source.fused) if source.fused > 0 else 0.0
                c.score = max(c.score, share * source.score + bonus)

    def _score(self, candidates: dict[tuple[str, int], _Candidate], turns: dict[int, TurnHead], info: QueryInfo,
               now: float) -> None:
        cfg = self.config
        scored = [(t, candidates[("turn", t.id)]) for t in turns.values()]
        by_position = {(t.session_id, t.seq): c.fused for t, c in scored}
        names = {n.lower() for n in info.names}
        # how much of the query a whole session is about: the sum of its three best turns, relative to the best
        per_session: dict[str, list[float]] = {}
        for t, c in scored:
            per_session.setdefault(t.session_id, []).append(c.fused)
        session_strength = {s: sum(sorted(v, reverse=True)[:3]) for s, v in per_session.items()}
        session_weight = cfg.session_weight / (max(session_strength.values(), default=0.0) or 1.0)
        start, end = info.time_range or (math.inf, -math.inf)
        decay = math.log(2) / (cfg.recency_half_life_days * 86_400)  # recency_bonus, inlined: this loop is hot
        for t, c in scored:
            # a turn right after a strong one often answers it; a turn right before one often sets it up
            context = max(cfg.follow_weight * by_position.get((t.session_id, t.seq - 1), 0.0),
                          cfg.neighbour_weight * by_position.get((t.session_id, t.seq + 1), 0.0))
            score = c.fused + context + session_weight * session_strength[t.session_id]
            if names and t.speaker and t.speaker.lower() in names:
                score += cfg.speaker_bonus
            if start <= t.ts < end:
                score += cfg.time_bonus
            c.score = score + cfg.recency_weight * math.exp(-max(now - t.ts, 0.0) * decay)

    def _rerank(self, query: str, ranked: list[_Candidate], turns: dict[int, StoredTurn],
                others: dict[tuple[str, int], Hit], user_id: str) -> list[_Candidate]:
        reranker = self._reranker()
        if reranker is None or not ranked:
            return ranked
        pool = ranked[: self.config.rerank_pool]
        self._read_turns(ranked, turns, user_id, 0, len(pool))
        pool = [c for c in pool if c.key[0] != "turn" or c.key[1] in turns]  # not forgotten meanwhile
        texts = [turn_text(turns[c.key[1]]) if c.key[0] == "turn" else others[c.key].text for c in pool]
        try:
            logits = np.asarray(reranker.score(query, texts), dtype=np.float64)
        except Exception:
            log.exception("reranker failed; keeping the fused order")
            return ranked
        relevance = 1.0 / (1.0 + np.exp(-logits))
        for c, r in zip(pool, relevance, strict=True):
            c.score = float(r) + self.config.rerank_keep * c.score
        return sorted(pool, key=lambda c: c.score, reverse=True) + ranked[self.config.rerank_pool :]

    def _hits(self, ranked: list[_Candidate], turns: dict[int, StoredTurn], others: dict[tuple[str, int], Hit],
              k: int, user_id: str) -> list[Hit]:
        hits: list[Hit] = []
        seen: dict[str, Hit] = {}
        covered: set[str] = set()   # source turns already behind a hit above
        for position, c in enumerate(ranked):
            if c.key[0] == "turn":
                if c.key[1] not in turns:  # read ahead in pages: duplicates below may need a few more
                    self._read_turns(ranked, turns, user_id, position, 2 * k + 8)
                turn = turns.get(c.key[1])
                if turn is None:  # forgotten since it was ranked
                    continue
                hit = turn_hit(turn, c.score)
                hit.details = {"legs": dict(c.ranks), "fused": round(c.fused, 6)}
            else:
                hit = others[c.key]
                hit.score = c.score
                hit.details.update(legs=dict(c.ranks), fused=round(c.fused, 6))
            key = _dedup_key(hit.text)
            if key and key in seen:  # a near-duplicate: one hit, every source turn behind it
                kept = seen[key]
                kept.source_ids.extend(s for s in hit.source_ids if s not in kept.source_ids)
                if kept.kind == "turn" and hit.kind != "turn":  # the distilled memory stands for the turn
                    hit.score, hit.source_ids = kept.score, kept.source_ids
                    hits[hits.index(kept)] = seen[key] = hit
                continue
            pointwise = hit.kind in ("turn", "fact")  # evidence of a turn or two, not a summary of many
            if pointwise and hit.source_ids and covered.issuperset(hit.source_ids):
                # the same evidence again: one hit is enough, and a fact stands for the turn it was distilled from
                above = next((h for h in hits if h.kind == "turn" and set(hit.source_ids) <= set(h.source_ids)), None)
                if hit.kind == "fact" and above is not None:
                    hit.score, hit.source_ids = above.score, list(dict.fromkeys([*hit.source_ids, *above.source_ids]))
                    hits[hits.index(above)] = seen[_dedup_key(above.text)] = hit
                continue
            if c.similarity is not None:
                hit.details["similarity"] = round(c.similarity, 4)
            seen[key] = hit
            if pointwise:
                covered.update(hit.source_ids)
            hits.append(hit)
            if len(hits) == k:
                break
        return hits


def turn_hit(turn: StoredTurn, score: float) -> Hit:
    return Hit(
        id=f"turn:{turn.id}", kind="turn", text=turn.content, score=score, timestamp=to_datetime(turn.ts),
        session_id=turn.session_id, source_ids=[turn.source_id], speaker=turn.speaker, role=turn.role,
        user_id=turn.user_id,
    )
