"""Recall: BM25 and dense legs fused by reciprocal rank, conversation-aware boosts, recency added, optional rerank.

Scoring of one candidate (all weights in `Config`):

    fused    = Σ_leg w_leg / (rrf_k + rank_leg)  ÷  Σ_leg w_leg / (rrf_k + 1)     (1.0 = first in every leg)
    context  = neighbour_weight · max(fused of the turns next to it in its session)
    boosts   = speaker_bonus (a name in the query spoke it) + time_bonus (its time matches a time phrase)
    score    = fused + context + boosts + recency_weight · 2^(−age / half-life)
"""

from __future__ import annotations

import contextvars
import logging
import math
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from ..config import Config
from ..models.embedder import Embedder, covers
from ..models.reranker import Reranker
from ..store.base import Store
from ..store.records import HeadColumns, StoredTurn
from ..util import memo_text, to_datetime
from .coverage import diversify
from .currency_pass import Replacements, annotate_superseded, currency_pass, replaced_values
from .dense import DenseIndex
from .exact import exact_tiers
from .fts import any_of
from .fusion import reciprocal_rank_fusion
from .hit import Hit
from .kinds import CODES, KIND_CODES, KIND_NAMES, KINDS, Kind
from .kinds import KIND_BITS as _KIND_BITS  # a candidate's key: item_id * 8 + its kind's code
from .query import QueryInfo, analyze
from .ranker import INDEX as RANKER_INDEX
from .ranker import empty_features, load_ranker
from .standing import StandingFacts, place_standing
from .texts import turn_text
from .timing import phase_scores

log = logging.getLogger(__name__)

# Where recall's BM25 legs run while the calling thread embeds the query (two workers: concurrent recalls of a
# server do not queue behind one another). A forked child gets a pool of its own: the parent's threads are not
# there, and a submit to their pool would wait forever.
def _new_legs_pool() -> None:
    global _LEGS
    _LEGS = ThreadPoolExecutor(2, thread_name_prefix="episodic-bm25")


_LEGS: ThreadPoolExecutor
_new_legs_pool()
os.register_at_fork(after_in_child=_new_legs_pool)


@dataclass
class RecallFilters:
    user_id: str
    session_id: str | None = None
    kind: str | None = None
    since: float | None = None
    until: float | None = None
    as_of: float | None = None    # recall what was believed then: facts valid at that time, turns said by then
    source: str | None = None     # only turns from this source (and memories distilled from such turns)
    tags: tuple[str, ...] = ()    # only turns carrying every one of these tags (idem)

    @property
    def narrowed(self) -> bool:
        """Filtered by source or tags: a derived memory stays only when one of its source turns passes."""
        return self.source is not None or bool(self.tags)

    def admits(self, turn: StoredTurn) -> bool:
        """The turn passes the source and tag filters."""
        return (self.source is None or turn.source == self.source) and set(self.tags) <= set(turn.tags)

    def in_scope(self, session_id: str | None, ts: float | None) -> bool:
        """In the session and the time window filtered for (an unknown time passes)."""
        return (self.session_id is None or session_id == self.session_id) and (ts is None or not (
            (self.since is not None and ts < self.since) or (self.until is not None and ts > self.until)
            or (self.as_of is not None and ts > self.as_of)))


def _keys(kinds: list[str], item_ids: np.ndarray) -> np.ndarray:
    codes = np.fromiter((KIND_CODES[k] for k in kinds), np.int64, len(kinds))
    return np.asarray(item_ids, np.int64) * _KIND_BITS + codes


@dataclass
class _Candidates:
    """Everything the legs found, one row per distinct memory, in order of first appearance (ties keep that
    order); columns, not an object per candidate: a recall fuses and scores several hundred of them."""

    keys: np.ndarray                      # item_id * 8 + kind code
    fused: np.ndarray                     # reciprocal-rank fusion, 1.0 = first in every leg
    similarity: np.ndarray                # the dense leg's cosine, NaN where it did not find the row
    ranks: dict[str, np.ndarray]          # leg -> rank per row (0: not found by that leg)
    score: np.ndarray                     # filled by the scoring passes
    valid: np.ndarray                     # still recallable (loaded, not filtered)
    # BM25 score ÷ the best of its leg (0: not found by BM25; none given: all 0), for the learned ranker
    bm25: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        if len(self.bm25) != len(self.keys):
            self.bm25 = np.zeros(len(self.keys))

    @classmethod
    def fuse(cls, legs: list[tuple[str, float, np.ndarray, np.ndarray | None]], rrf_k: float, best: float,
             bm25: dict[str, np.ndarray] | None = None) -> _Candidates:
        """legs: (name, weight, keys best first, similarities or None); bm25: leg -> its BM25 scores, best first."""
        fusion = reciprocal_rank_fusion([(keys, weight) for _, weight, keys, _ in legs], rrf_k, best)
        n = len(fusion.keys)
        ranks: dict[str, np.ndarray] = {}
        similarity = np.full(n, np.nan)
        relative = np.zeros(n)
        for (name, _, keys, sims), leg_rows in zip(legs, fusion.rows, strict=True):
            ranks[name] = np.zeros(n, np.int64)
            ranks[name][leg_rows] = np.arange(1, len(keys) + 1)
            if sims is not None:
                similarity[leg_rows] = sims
            scores = (bm25 or {}).get(name)
            if scores is not None and len(scores) == len(keys) and len(keys) and scores[0] > 0:
                relative[leg_rows] = np.maximum(relative[leg_rows], scores / scores[0])
        return cls(fusion.keys, fusion.scores, similarity, ranks, np.zeros(n), np.zeros(n, bool), relative)

    def __len__(self) -> int:
        return len(self.keys)

    def kind(self, row: int) -> str:
        return KIND_NAMES[int(self.keys[row]) % _KIND_BITS]

    def item_id(self, row: int) -> int:
        return int(self.keys[row]) // _KIND_BITS

    def legs(self, row: int) -> dict[str, int]:
        return {name: int(r[row]) for name, r in self.ranks.items() if r[row]}

    def extend(self, keys: np.ndarray) -> _Candidates:
        """With rows for `keys` added (found by no leg: not valid until scored)."""
        n = len(keys)
        return _Candidates(np.concatenate([self.keys, keys]), np.concatenate([self.fused, np.zeros(n)]),
                           np.concatenate([self.similarity, np.full(n, np.nan)]),
                           {name: np.concatenate([r, np.zeros(n, np.int64)]) for name, r in self.ranks.items()},
                           np.concatenate([self.score, np.zeros(n)]), np.concatenate([self.valid, np.zeros(n, bool)]),
                           np.concatenate([self.bm25, np.zeros(n)]))

    def keep(self, rows: np.ndarray) -> _Candidates:
        return _Candidates(self.keys[rows], self.fused[rows], self.similarity[rows],
                           {name: r[rows] for name, r in self.ranks.items()}, self.score[rows], self.valid[rows],
                           self.bm25[rows])


def recency_bonus(ts: float, now: float, config: Config) -> float:
    """weight · 2^(−age / half-life): added to the fused score, never multiplied into it. Age is the distance from
    `now` either way: recalled as of a past moment, what was said after it is not the most recent."""
    age_days = abs(now - ts) / 86_400
    return config.retrieval.recency_weight * math.pow(0.5, age_days / config.retrieval.recency_half_life_days)


_NORMALISE = re.compile(r"\W+")


@memo_text()  # the same candidates' texts come back across the questions of a conversation
def _dedup_key(text: str) -> str:
    return _NORMALISE.sub(" ", text.lower()).strip()


@dataclass
class FeatureDump:
    """What one recall's ranking saw, for `bench/train_ranker.py`: the valid candidates' keys, features,
    hand-set scores and exact tiers, and the derived ones' source turns (by position in these arrays)."""

    query: str
    info: QueryInfo
    keys: np.ndarray
    features: np.ndarray
    fused_score: np.ndarray
    tiers: np.ndarray
    sources: dict[int, list[str]]
    sessions: list[str | None]


class Retriever:
    """Hybrid recall over every kind of memory the store holds (turns today)."""

    feature_sink: Callable[[FeatureDump], None] | None = None  # set by the ranker's trainer: every recall's features

    def __init__(
        self,
        store: Store,
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
        self._derived: dict[tuple[str, str, int], Hit | None] = {}  # (kind, user, id) -> hit; see _derived_hits
        self._derived_generation: tuple[int, ...] = ()
        self._chains: dict[str, tuple[tuple[int, ...], Replacements]] = {}
        self._derived_lock = threading.Lock()  # concurrent recalls (a server): one loads, none caches a stale hit
        self.standing = StandingFacts(store, config)  # the user's standing instructions, for every recall

    # --- the dense index follows the embedder ---------------------------------------------------------
    def dense_index(self) -> DenseIndex | None:
        embedder = self._embedder()
        if embedder is None:
            return None
        if self._dense is None or self._dense.model_id != embedder.model_id:
            self._dense = DenseIndex(self.store, embedder.model_id, embedder.dim, self.config)
        return self._dense

    def forget_cached(self) -> None:
        """Drop the derived memories' hits this process keeps (a deletion here: nothing forgotten stays in memory)."""
        with self._derived_lock:
            self._derived.clear()
            self._derived_generation = ()

    # --- recall --------------------------------------------------------------------------------------
    def recall(self, query: str, k: int, filters: RecallFilters, *, now: float | None = None,
               info: QueryInfo | None = None) -> list[Hit]:
        """`info`: `query` analysed already (`query.analyze`, its time phrases resolved against `now`), as a recall
        over several scopes does once for all of them (`Memory.recall`); this scope's names are found in it here."""
        if filters.kind is not None and filters.kind != "turn" and filters.kind not in CODES:
            known = ", ".join(["turn", *CODES])
            raise ValueError(f"unknown kind {filters.kind!r}: use one of {known}")
        if k <= 0:
            return []
        cfg = self.config
        now = time.time() if now is None else now
        until = filters.until if filters.as_of is None else min(filters.as_of, filters.until or filters.as_of)
        names = [n for n, _ in self.store.speakers(filters.user_id)]
        # time phrases resolve against `now`, as recency does
        info = analyze(query, names, now=to_datetime(now)) if info is None else info.for_names(names)
        w_bm25, w_dense = cfg.retrieval.leg_weights.get(info.kind, (1.0, 1.0))
        pool = max(k, cfg.retrieval.candidate_pool)
        want_turns = filters.kind in (None, "turn")
        other_kinds = [name for name in KINDS if filters.kind in (None, name)]
        embedder = self._embedder() if cfg.retrieval.recall_legs != "keyword" else None
        if embedder is not None and cfg.retrieval.recall_legs == "hybrid" and not (
                covers(embedder, info.script) if cfg.models.embedder_multilingual is None
                else cfg.models.embedder_multilingual or info.script == "spaced"):
            w_dense *= cfg.retrieval.dense_weight_uncovered  # a script the embedder was not trained on: its votes are noise
            if not w_dense:
                embedder = None  # the keyword leg alone (and no query to embed)
        dense = self.dense_index() if embedder is not None else None
        if dense is not None:
            dense.sync(filters.user_id)  # the dense leg's one SQL read, before the BM25 legs take the connection
        allowed = (np.asarray(self.store.turn_ids_with(filters.user_id, source=filters.source, tags=filters.tags),
                              np.int64) if filters.narrowed else None)  # the turns the source and tag filters pass
        match = info.match if cfg.retrieval.recall_legs != "dense" or dense is None else None
        # the BM25 legs (SQLite, which lets go of the GIL) run in a worker while this thread embeds the query and
        # scans the vectors (onnxruntime and numpy, which do too): the two halves overlap on two cores
        bm25 = _LEGS.submit(contextvars.copy_context().run,   # in the caller's read scope (Store.read_snapshot)
                            self._bm25_legs, match, info, filters, until, pool, want_turns, other_kinds,
                            dense is not None) if match is not None else None
        found = qvec = None
        try:
            if dense is not None and embedder is not None:
                # a speaker's name in the query says whose turns (speaker_bonus), not what about: embedded, it pulls
                # in every short turn of that speaker's, whose vector is mostly the "Name:" it is embedded with
                qvec = embedder.embed_query(query if cfg.experimental.dense_query_names else info.dense_text)
                found = dense.search_arrays(filters.user_id, qvec, pool, floor=cfg.retrieval.dense_floor, kind=filters.kind,
                                            session_id=filters.session_id, since=filters.since, until=until,
                                            center=0.0 if getattr(embedder, "centred", False) else cfg.retrieval.dense_center,
                                            synced=True, turn_ids=allowed)
        finally:  # whatever happened here, the worker is done with the connection before this thread reads on
            turn_keys, memory_keys, tiers, bm25_scores = bm25.result() if bm25 is not None else (
                None, None, Counter[int](), {})
        if allowed is not None and tiers:  # an exact lookup's turns obey the source and tag filters too
            passing = set(allowed.tolist())
            tiers = Counter({key: n for key, n in tiers.items() if key % _KIND_BITS != 0 or key // _KIND_BITS in passing})
        legs: list[tuple[str, float, np.ndarray, np.ndarray | None]] = []
        best = 0.0
        if turn_keys is not None and memory_keys is not None:
            legs += [("bm25", w_bm25, turn_keys, None), ("bm25_memory", w_bm25, memory_keys, None)]
            best += w_bm25 / (cfg.retrieval.rrf_k + 1)
        if found is not None:
            legs.append(("dense", w_dense, found.item_ids * _KIND_BITS + found.kind_codes, found.similarities))
            best += w_dense / (cfg.retrieval.rrf_k + 1)
        if not any(len(keys) for _, _, keys, _ in legs) and not tiers:
            return []
        candidates = _Candidates.fuse(legs, cfg.retrieval.rrf_k, best, bm25_scores)
        kept = np.zeros(0, np.int64)  # keys the derived pool below never drops
        if tiers:  # an exact lookup's holders are candidates whichever leg found them, if any did
            held = np.fromiter(tiers, np.int64, len(tiers))
            candidates = candidates.extend(held[~np.isin(held, candidates.keys)])
            kept = held
        # the user's standing instructions that apply to the request, whichever leg found them, if any did
        standing: dict[int, bool] = {}  # fact key -> matched by the scope it names (a place in the top k)
        if qvec is not None and embedder is not None and self._standing_applies(filters):
            candidates, standing = self._with_standing(candidates, filters.user_id, qvec, embedder)
            kept = np.concatenate([kept, np.fromiter(standing, np.int64, len(standing))])

        derived = np.flatnonzero(candidates.keys % _KIND_BITS != 0)
        if len(derived) > max(cfg.retrieval.derived_pool, k):  # only the best derived memories are worth loading
            dropped = derived[np.argsort(-candidates.fused[derived], kind="stable")[max(cfg.retrieval.derived_pool, k):]]
            if len(kept):
                dropped = dropped[~np.isin(candidates.keys[dropped], kept)]
            candidates = candidates.keep(np.setdiff1d(np.arange(len(candidates)), dropped))
        turn_rows = np.flatnonzero(candidates.keys % _KIND_BITS == 0)
        heads = self.store.turn_heads(filters.user_id, candidates.keys[turn_rows] // _KIND_BITS)
        admitted = None if allowed is None else set(allowed.tolist())
        others = self._load_others(candidates, filters, admitted)
        scoped = {key for key, by_scope in standing.items() if by_scope}
        self._rank(query, candidates, turn_rows, heads, others, info, now, tiers, set(standing))
        # time: a query about an end (a start) favours what reports one (retrieve/timing.py)
        candidates.score += phase_scores(self.store, cfg, info.phase, filters.user_id, candidates.keys,
                                         candidates.score, candidates.valid, others, _KIND_BITS)
        if scoped:  # an instruction for this kind of request travels with it: a place in the top k, at its end
            rows = [r for r in others if int(candidates.keys[r]) in scoped and candidates.valid[r]]
            place_standing(candidates.score, candidates.valid, rows, k)
        # exact lookups first (their tier), then the score: np.lexsort sorts by its last key first, stably
        order = np.lexsort((-np.where(candidates.valid, candidates.score, -np.inf), -self._tiers(candidates, tiers)))
        ranked = order[candidates.valid[order]].tolist()
        if cfg.experimental.list_coverage and info.list_question:  # retrieve/coverage.py
            ranked = diversify(ranked, self._sessions_of(turn_rows, heads, others), candidates.score,
                               self._tiers(candidates, tiers), cfg)
        turns: dict[int, StoredTurn] = {}  # full turns (with their text), read only for what reaches the top
        ranked = self._rerank(query, candidates, ranked, turns, others, filters.user_id, tiers)
        candidates, ranked, notes, replaced_by = currency_pass(
            self.store, cfg, info, names, candidates, ranked, turns, others, filters,
            self._read_turns)  # retrieve/currency_pass.py
        if cfg.experimental.stored_links and info.script == "spaced":  # read as currency reads values and subjects
            def load_others(grown: _Candidates) -> dict[int, Hit]:  # the hits of rows it adds join `others`
                others.update(self._load_others(grown, filters, admitted))
                return others

            candidates, ranked, replaced = replaced_values(
                cfg, query, candidates, ranked, turns, filters, self._replacements(filters.user_id), self._read_turns,
                load_others)
            notes = {**replaced, **notes}
        if tiers:  # currency reorders within a tier, never across: a later statement not holding it stays below
            tier = self._tiers(candidates, tiers)
            # ... but a question's rare words (no identifier, no quoted phrase) do not keep a value that a later
            # statement names as replaced above that statement
            words_only = len(info.lookups) > 1 and all(lookup.shape == "word" for lookup in info.lookups)
            if cfg.currency.stale_loses_tier and words_only:
                for old, new in replaced_by.items():
                    tier[old] = min(tier[old], tier[new])
            ranked.sort(key=lambda r: -tier[r])
        hits = annotate_superseded(self._hits(candidates, ranked, turns, others, k, filters.user_id, tiers), notes)
        if scoped:  # the instructions that govern this request, for the injector (inject.py) to carry
            applies = {f"fact:{key // _KIND_BITS}" for key in scoped}
            for hit in hits:
                if hit.id in applies:
                    hit.details["standing"] = True
        return hits

    @staticmethod
    def _standing_applies(filters: RecallFilters) -> bool:
        """Whether this recall looks at every standing instruction: facts are asked for, and nothing narrows it
        to a session, a time or a source (an instruction holds from when it was said, wherever that was)."""
        return (filters.kind in (None, "fact") and filters.session_id is None and filters.since is None
                and filters.until is None and filters.as_of is None and not filters.narrowed)

    def _with_standing(self, candidates: _Candidates, user_id: str, qvec: np.ndarray, embedder: Embedder
                       ) -> tuple[_Candidates, dict[int, bool]]:
        """The candidates with the user's standing instructions that apply to the request (retrieve/standing.py),
        their dense similarity set where no leg gave one; and those facts' keys -> matched by their scope."""
        if not self.config.retrieval.standing_limit:
            return candidates, {}
        matches = self.standing.match(user_id, qvec, embedder)
        if not matches:
            return candidates, {}
        code = CODES["fact"]
        keys = np.asarray([m.fact_id * _KIND_BITS + code for m in matches], np.int64)
        candidates = candidates.extend(keys[~np.isin(keys, candidates.keys)])
        row_of = {int(key): row for row, key in enumerate(candidates.keys.tolist()) if key % _KIND_BITS == code}
        for key, m in zip(keys.tolist(), matches, strict=True):
            row = row_of[key]
            if np.isnan(candidates.similarity[row]) and not np.isnan(m.similarity):
                candidates.similarity[row] = m.similarity
        return candidates, {int(key): m.scoped for key, m in zip(keys.tolist(), matches, strict=True)}

    @staticmethod
    def _tiers(candidates: _Candidates, tiers: Counter[int]) -> np.ndarray:
        """How many of the query's exact lookups each candidate holds (retrieve/exact.py)."""
        if not tiers:
            return np.zeros(len(candidates), np.int64)
        return np.fromiter((tiers.get(key, 0) for key in candidates.keys.tolist()), np.int64, len(candidates))

    def bm25_match(self, match: str, terms: Sequence[str], user_id: str | None = None) -> str | None:
        """`match` without the terms found in a large share of a big store (they cost most of the BM25 time and rank
        little), while rarer terms remain; None when every term is that common (the dense leg alone speaks)."""
        cfg = self.config
        common = self.store.common_terms(terms, floor=cfg.retrieval.bm25_common_floor, share=cfg.retrieval.bm25_common_share,
                                         user_id=user_id)
        return any_of([t for t in terms if t not in common]) if common else match

    def _bm25_legs(self, match: str, info: QueryInfo, filters: RecallFilters, until: float | None,
                   pool: int, want_turns: bool, other_kinds: list[str], has_dense: bool
                   ) -> tuple[np.ndarray, np.ndarray, Counter[int], dict[str, np.ndarray]]:
        """Keys found by BM25 over turns and over derived memories, best first; the exact lookups' tiers; each
        leg's BM25 scores (for the learned ranker)."""
        turn_match = self.bm25_match(match, info.terms, filters.user_id) if has_dense else match
        turns = memories = np.zeros(0, np.int64)
        tiers: Counter[int] = Counter()
        scores: dict[str, np.ndarray] = {}
        if self.config.retrieval.exact_lookup:
            tiers = exact_tiers(self.store, self.config, info.lookups, filters.user_id, want_turns=want_turns,
                                kinds=other_kinds, session_id=filters.session_id, since=filters.since, until=until)
            if (whole := info.whole_forms) is not None:  # identifiers whole, quoted text as phrases
                turn_match = f"{turn_match} OR {whole}" if turn_match else whole
        if turn_match is None:
            return turns, memories, tiers, scores
        if want_turns:
            ranked = self.store.search_turns(turn_match, filters.user_id, limit=pool, session_id=filters.session_id,
                                             since=filters.since, until=until, source=filters.source, tags=filters.tags)
            turns = np.fromiter((i for i, _ in ranked), np.int64, len(ranked)) * _KIND_BITS
            scores["bm25"] = np.fromiter((s for _, s in ranked), np.float64, len(ranked))
        if other_kinds:  # derived memories rank in their own FTS table: a leg of their own, same weight; a term too
            # common among the turns is as common among what they became
            found = self.store.search_memories(turn_match, filters.user_id, limit=pool, kinds=other_kinds)
            memories = _keys([kind for kind, _, _ in found], np.fromiter((i for _, i, _ in found), np.int64,
                                                                         len(found)))
            scores["bm25_memory"] = np.fromiter((s for _, _, s in found), np.float64, len(found))
        return turns, memories, tiers, scores

    def _read_turns(self, candidates: _Candidates, ranked: list[int], turns: dict[int, StoredTurn], user_id: str,
                    start: int, count: int) -> None:
        """Read the full turns of ranked[start : start + count] that are not in `turns` yet."""
        ids = [int(candidates.keys[r]) // _KIND_BITS for r in ranked[start : start + count]
               if candidates.keys[r] % _KIND_BITS == 0]
        missing = [i for i in ids if i not in turns]
        if missing:
            turns.update(self.store.turns_by_id(user_id, missing))

    def _load_others(self, candidates: _Candidates, filters: RecallFilters, allowed: set[int] | None
                     ) -> dict[int, Hit]:
        """Hits for the candidates that are not turns (by row), through each kind's loader, filters applied
        (`allowed`: the turns the source and tag filters pass; a memory stays when one of its source turns does)."""
        by_kind: dict[str, dict[int, int]] = {}  # kind -> item id -> row
        for row in np.flatnonzero(candidates.keys % _KIND_BITS != 0).tolist():
            kind = candidates.kind(row)
            if kind in KINDS:
                by_kind.setdefault(kind, {})[candidates.item_id(row)] = row
        out: dict[int, Hit] = {}
        generation = self.store.derived_generation() if by_kind else ()  # read before loading: see _derived_hits
        for kind, rows in by_kind.items():
            for item_id, hit in self._derived_hits(KINDS[kind], filters.user_id, list(rows), filters.as_of,
                                                   generation).items():
                ts = hit.timestamp.timestamp() if hit.timestamp else None
                if filters.in_scope(hit.session_id, ts) and (
                        allowed is None or not allowed.isdisjoint(hit.details.get("source_turns", ()))):
                    out[rows[item_id]] = hit
        return out

    def _replacements(self, user_id: str) -> Replacements:
        """The user's supersession chains, compiled once per change to the derived memories."""
        if not self.config.experimental.stored_links:
            return Replacements()
        generation = self.store.derived_generation()
        with self._derived_lock:
            cached = self._chains.get(user_id)
            if cached is not None and cached[0] == generation:
                return cached[1]
        found = Replacements.of(self.store.replacements(user_id))
        with self._derived_lock:
            self._chains[user_id] = (generation, found)
        return found

    def _derived_hits(self, kind: Kind, user_id: str, ids: list[int], as_of: float | None,
                      generation: tuple[int, ...]) -> dict[int, Hit]:
        """`kind.loader` through a per-process cache of its hits, emptied by any change of `generation` (read
        by the caller before anything loads: m007 and m009's counters); each caller gets copies to mutate."""
        if not kind.cacheable or as_of is not None or not self.config.retrieval.derived_hit_cache:
            return kind.load(self.store, user_id, ids, as_of)
        with self._derived_lock:
            if generation != self._derived_generation or len(self._derived) > self.config.retrieval.derived_hit_cache:
                self._derived.clear()
                self._derived_generation = generation
            missing = [i for i in ids if (kind.name, user_id, i) not in self._derived]
            if missing:
                loaded = kind.load(self.store, user_id, missing, None)
                for i in missing:  # an id the loader leaves out (superseded, another user's) stays out until a change
                    self._derived[(kind.name, user_id, i)] = loaded.get(i)
            cached = [self._derived[(kind.name, user_id, i)] for i in ids]
        return {i: hit.copy() for i, hit in zip(ids, cached, strict=True) if hit is not None}

    def _rank(self, query: str, candidates: _Candidates, turn_rows: np.ndarray, heads: HeadColumns,
              others: dict[int, Hit], info: QueryInfo, now: float, tiers: Counter[int],
              standing: frozenset[int] | set[int] = frozenset()) -> None:
        """Score every candidate: the hand-set terms, then (by default) the learned ranker's score in their
        place; `standing`: keys of the standing instructions that apply (whatever type or similarity)."""
        learned = self.config.retrieval.ranker == "learned"
        model = load_ranker(self.config.retrieval.ranker_path) if learned else None  # a bad weights file: an error at once
        terms: dict[str, np.ndarray] | None = {} if learned or self.feature_sink is not None else None
        self._score(candidates, turn_rows, heads, info, now, terms)
        self._score_others(candidates, others, info, now, terms, standing)
        if terms is None:
            return
        features = self._features(candidates, terms)
        rows = np.flatnonzero(candidates.valid)
        if self.feature_sink is not None:
            sessions = self._sessions_of(turn_rows, heads, others)
            self.feature_sink(FeatureDump(query, info, candidates.keys[rows], features[rows],
                                          candidates.score[rows].copy(), self._tiers(candidates, tiers)[rows],
                                          {int(np.searchsorted(rows, r)): others[r].source_ids for r in others
                                           if candidates.valid[r]}, [sessions.get(r) for r in rows.tolist()]))
        # the model was fitted on recalls where both the BM25 and the dense legs found turns: without one, the
        # hand-set scores stand (docs/retrieval.md, "A learned ranker")
        both_legs = all(leg in candidates.ranks and candidates.ranks[leg].any() for leg in ("bm25", "dense"))
        if model is not None and len(rows) and both_legs:
            # turns take the model's score, derived memories keep the hand-set one (docs/retrieval.md)
            turns_only = candidates.keys[rows] % _KIND_BITS == 0
            candidates.score[rows[turns_only]] = model.score(features[rows[turns_only]], self.config)
            # as with the hand-set terms, a fact scores at least its share of its best source turn plus its
            # bonus (the currency pass and the near-duplicate collapse rely on it)
            for row, source, share, bonus in terms["inherits"].tolist() if "inherits" in terms else ():
                r, src = int(row), int(source)
                if candidates.keys[r] % _KIND_BITS == CODES.get("fact", 0):
                    candidates.score[r] = max(candidates.score[r], share * candidates.score[src] + bonus)

    def _features(self, candidates: _Candidates, terms: dict[str, np.ndarray]) -> np.ndarray:
        """The learned ranker's features (retrieve/ranker.py FEATURES) for every candidate, as one matrix."""
        cfg = self.config
        x = empty_features(len(candidates))
        col = RANKER_INDEX
        x[:, col["fused"]] = candidates.fused
        x[:, col["fused_rel"]] = candidates.fused / (candidates.fused.max(initial=0.0) or 1.0)
        found = np.zeros(len(candidates), np.int64)
        for leg, name in (("bm25", "rrf_bm25"), ("bm25_memory", "rrf_memory"), ("dense", "rrf_dense")):
            rank = candidates.ranks.get(leg)
            if rank is not None:
                x[:, col[name]] = np.where(rank > 0, (cfg.retrieval.rrf_k + 1) / (cfg.retrieval.rrf_k + np.maximum(rank, 1)), 0.0)
                found += rank > 0
        depth = math.log(max(cfg.retrieval.candidate_pool, 2) + 1)
        zero = np.zeros(len(candidates), np.int64)
        for ranks, name in (((candidates.ranks.get("bm25", zero), candidates.ranks.get("bm25_memory", zero)),
                             "log_bm25"), ((candidates.ranks.get("dense", zero),), "log_dense")):
            rank = np.max(np.vstack(ranks), axis=0)
            x[:, col[name]] = np.where(rank > 0, 1.0 - np.log(np.maximum(rank, 1)) / depth, 0.0)
        x[:, col["bm25_rel"]] = candidates.bm25
        x[:, col["legs"]] = found
        sim = candidates.similarity
        seen = ~np.isnan(sim)
        x[:, col["sim"]] = np.where(seen, sim, 0.0)
        best = float(sim[seen].max()) if seen.any() else 0.0
        x[:, col["sim_gap"]] = np.where(seen, best - np.where(seen, sim, 0.0), 1.0)
        codes = candidates.keys % _KIND_BITS
        for kind, name in (("fact", "is_fact"), ("episode", "is_episode"), ("workstream", "is_workstream")):
            if kind in CODES:
                x[:, col[name]] = codes == CODES[kind]
        x[:, col["is_other"]] = (codes != 0) & ~np.isin(codes, [CODES.get(k, -1) for k in ("fact", "episode",
                                                                                          "workstream")])
        for name, values in terms.items():  # "rows" and "other_rows" say which rows the turns' and the others' are
            if name in col and name != "inherits":
                x[terms["rows"], col[name]] = values
            elif name.startswith("other:"):
                x[terms["other_rows"], col[name.removeprefix("other:")]] = values
        return x

    @staticmethod
    def _sessions_of(turn_rows: np.ndarray, heads: HeadColumns, others: dict[int, Hit]) -> dict[int, str]:
        """Row -> session id, for the candidates whose session is known (list-question coverage)."""
        out = {r: hit.session_id for r, hit in others.items() if hit.session_id is not None}
        if len(heads.ids):
            names = heads.session_ids()
            out.update(zip(turn_rows[heads.found].tolist(), names, strict=True))
        return out

    def _score_others(self, candidates: _Candidates, others: dict[int, Hit], info: QueryInfo, now: float,
                      terms: dict[str, np.ndarray] | None = None,
                      standing_keys: frozenset[int] | set[int] = frozenset()) -> None:
        """Derived memories: fused + the kind's bonus + name and time matches + recency, at least their share
        of a matching source turn's score; `terms`: their learned-ranker features are added to it."""
        cfg = self.config
        columns: dict[str, list[float]] = {name: [] for name in (
            "speaker", "time", "standing", "recency", "inherit", "inherit_session")}
        session: dict[int, float] = {}
        inherits: list[tuple[int, int, float, float]] = []  # (row, its source turn's row, share, kind bonus)
        if terms is not None and "rows" in terms:
            session = dict(zip(terms["rows"].tolist(), terms["session"].tolist(), strict=True))
        names = {n.lower() for n in info.names}
        kind_bonus = {"fact": cfg.consolidation.fact_recall_bonus}
        turn_rows: dict[int, int] = {}  # turn id -> row, for the turns scored
        if others:
            rows = np.flatnonzero((candidates.keys % _KIND_BITS == 0) & candidates.valid)
            turn_rows = dict(zip((candidates.keys[rows] // _KIND_BITS).tolist(), rows.tolist(), strict=True))
        for row, hit in others.items():
            fused = float(candidates.fused[row])
            similarity = candidates.similarity[row]
            bonus = kind_bonus.get(hit.kind, 0.0)
            score = fused + bonus
            standing = (hit.details.get("type") == "preference" and similarity >= cfg.retrieval.standing_similarity  # NaN: False
                        ) or int(candidates.keys[row]) in standing_keys
            if standing:
                score += cfg.retrieval.standing_bonus  # a standing preference or instruction applies wherever its topic comes up
            entities = {str(e).lower() for e in hit.details.get("entities", [])}
            # a fact is about whom it names (its entities: the speaker too, for "I …"), not whoever said it: "Mel's
            # kids love the beach", said by Caroline, is Melanie's
            named = bool(names and (names & entities or (
                hit.kind != "fact" and hit.speaker and hit.speaker.lower() in names)))
            if named:
                score += cfg.retrieval.speaker_bonus
            when = hit.details.get("event_time")
            event_ts = datetime.fromisoformat(when).timestamp() if when else (
                hit.timestamp.timestamp() if hit.timestamp else None)
            in_time = bool(info.time_range and event_ts is not None
                           and info.time_range[0] <= event_ts < info.time_range[1])
            if in_time:
                score += cfg.retrieval.time_bonus
            ts = hit.timestamp.timestamp() if hit.timestamp else now
            recent = recency_bonus(ts, now, cfg)
            score += recent
            # a memory distilled from a turn that matched inherits that turn's standing, in proportion to how
            # well it matches itself (one sentence of a long turn may be beside the point)
            inherit = inherit_session = 0.0
            for source in (turn_rows[i] for i in hit.details.get("source_turns", ()) if i in turn_rows):
                source_fused = candidates.fused[source]
                share = min(1.0, fused / source_fused) if source_fused > 0 else 0.0
                score = max(score, share * float(candidates.score[source]) + bonus)
                inherits.append((row, source, share, bonus))
                if share * source_fused > inherit:
                    inherit, inherit_session = share * float(source_fused), session.get(source, 0.0)
            candidates.score[row] = score
            candidates.valid[row] = True
            if terms is not None:
                for name, value in (("speaker", named), ("time", in_time), ("standing", standing),
                                    ("recency", recent / cfg.retrieval.recency_weight if cfg.retrieval.recency_weight else 0.0),
                                    ("inherit", inherit), ("inherit_session", inherit_session)):
                    columns[name].append(float(value))
        if terms is not None:
            terms["other_rows"] = np.fromiter(others, np.int64, len(others))
            terms["inherits"] = np.asarray(inherits, np.float64).reshape(-1, 4)
            terms.update({f"other:{name}": np.asarray(values, np.float64) for name, values in columns.items()})

    def _score(self, candidates: _Candidates, rows: np.ndarray, heads: HeadColumns, info: QueryInfo,
               now: float, terms: dict[str, np.ndarray] | None = None) -> None:
        """Turns (`rows` of the candidates; those whose heads were found), all at once as arrays. `terms`: the
        learned ranker's features of them are added to it (with "rows", the rows they are of)."""
        cfg = self.config
        if not len(heads.ids):
            return
        rows = rows[heads.found]
        fused = candidates.fused[rows]
        # a turn right after a strong one often answers it; a turn right before one often sets it up
        position = (heads.sessions.astype(np.int64) << 32) + heads.seqs
        by_position = np.argsort(position, kind="stable")
        sorted_positions = position[by_position]

        def fused_at(wanted: np.ndarray, values: np.ndarray = fused) -> np.ndarray:
            at = np.minimum(np.searchsorted(sorted_positions, wanted), len(wanted) - 1)
            return np.where(sorted_positions[at] == wanted, values[by_position[at]], 0.0)

        context = np.maximum(cfg.retrieval.follow_weight * fused_at(position - 1), cfg.retrieval.neighbour_weight * fused_at(position + 1))
        # how much of the query a whole session is about: the sum of its three best turns, relative to the best
        sessions, session_of = np.unique(heads.sessions, return_inverse=True)
        order = np.lexsort((-fused, session_of))
        grouped = session_of[order]
        starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
        place = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
        top3 = order[place < 3]
        strength = np.bincount(session_of[top3], weights=fused[top3], minlength=len(sessions))
        session_weight = cfg.retrieval.session_weight / (strength.max() or 1.0)
        score = fused + context + session_weight * strength[session_of]
        names = {n.lower() for n in info.names}
        named = np.zeros(len(rows), bool)
        if names:
            named_codes = [code for code, name in enumerate(heads.speaker_names) if name.lower() in names]
            named = np.isin(heads.speakers, named_codes)
            score += cfg.retrieval.speaker_bonus * named
        in_time = np.zeros(len(rows), bool)
        if info.time_range:
            start, end = info.time_range
            in_time = (heads.ts >= start) & (heads.ts < end)
            score += cfg.retrieval.time_bonus * in_time
        decay = math.log(2) / (cfg.retrieval.recency_half_life_days * 86_400)  # recency_bonus, for arrays
        recent = np.exp(-np.abs(now - heads.ts) * decay)  # time: |age|, as recency_bonus
        score += cfg.retrieval.recency_weight * recent
        candidates.score[rows] = score
        candidates.valid[rows] = True
        if terms is not None:
            sims = np.nan_to_num(candidates.similarity[rows], nan=0.0)
            in_session = np.empty(len(order), np.int64)
            in_session[order] = place
            terms.update(rows=rows, prev_fused=fused_at(position - 1), next_fused=fused_at(position + 1),
                         prev2_fused=np.maximum(fused_at(position - 2), fused_at(position + 2)),
                         prev_sim=fused_at(position - 1, sims), next_sim=fused_at(position + 1, sims),
                         session=strength[session_of] / (strength.max() or 1.0), speaker=named, time=in_time,
                         recency=recent, session_rank=1.0 / (in_session + 1),
                         session_hits=np.log1p(np.bincount(session_of)[session_of]))

    def _rerank(self, query: str, candidates: _Candidates, ranked: list[int], turns: dict[int, StoredTurn],
                others: dict[int, Hit], user_id: str, tiers: Counter[int]) -> list[int]:
        reranker = self._reranker()
        if reranker is None or not ranked:
            return ranked
        self._read_turns(candidates, ranked, turns, user_id, 0, self.config.retrieval.rerank_pool)
        pool = [r for r in ranked[: self.config.retrieval.rerank_pool]   # turns forgotten meanwhile are left out
                if r in others or candidates.item_id(r) in turns]
        texts = [others[r].text if r in others else turn_text(turns[candidates.item_id(r)]) for r in pool]
        try:
            logits = np.asarray(reranker.score(query, texts), dtype=np.float64)
        except Exception:
            log.exception("reranker failed; keeping the fused order")
            return ranked
        relevance = 1.0 / (1.0 + np.exp(-logits))
        for r, relevant in zip(pool, relevance, strict=True):
            candidates.score[r] = float(relevant) + self.config.retrieval.rerank_keep * candidates.score[r]
        tier = self._tiers(candidates, tiers)
        return sorted(pool, key=lambda r: (tier[r], candidates.score[r]), reverse=True) + ranked[
            self.config.retrieval.rerank_pool :]

    def _hits(self, candidates: _Candidates, ranked: list[int], turns: dict[int, StoredTurn], others: dict[int, Hit],
              k: int, user_id: str, tiers: Counter[int]) -> list[Hit]:
        hits: list[Hit] = []
        seen: dict[str, Hit] = {}
        behind = _SourceSets()      # the source ids of each hit in `seen`, as sets
        covered: set[str] = set()   # source turns already behind a hit above
        held: dict[str, int] = {}   # hit id -> how many exact lookups it holds (retrieve/exact.py)
        for position, row in enumerate(ranked):
            if row in others:
                hit = others[row]
                key = _dedup_key(hit.text)
            else:
                turn_id = candidates.item_id(row)
                if turn_id not in turns:  # read ahead in pages: duplicates below may need a few more
                    self._read_turns(candidates, ranked, turns, user_id, position, 2 * k + 8)
                turn = turns.get(turn_id)
                if turn is None:  # forgotten since it was ranked
                    continue
                key = _dedup_key(turn.content)
                if key and key in seen:  # the same text again: its turn joins the hit, no hit of its own is made
                    behind.add(seen[key], [turn.source_id])
                    continue
                hit = turn_hit(turn, 0.0)
            score, fused = float(candidates.score[row]), round(float(candidates.fused[row]), 6)
            tier = tiers.get(int(candidates.keys[row]), 0)
            hit.score = score
            if row in others:
                hit.details.update(legs=candidates.legs(row), fused=fused)
            else:
                hit.details = {"legs": candidates.legs(row), "fused": fused}
            if key and key in seen:  # a near-duplicate: one hit, every source turn behind it
                kept = seen[key]
                behind.add(kept, hit.source_ids)
                if kept.kind == "turn" and hit.kind != "turn":  # the distilled memory stands for the turn
                    hit.score, hit.source_ids = kept.score, kept.source_ids
                    hits[hits.index(kept)] = seen[key] = hit
                continue
            pointwise = hit.kind in ("turn", "fact")  # evidence of a turn or two, not a summary of many
            if pointwise and hit.source_ids and covered.issuperset(hit.source_ids):
                # the same evidence again: one hit is enough, and a fact stands for the turn it was distilled from
                above = next((h for h in hits if h.kind == "turn" and set(hit.source_ids) <= set(h.source_ids)), None)
                if hit.kind == "fact" and above is not None and tier >= held.get(above.id, 0):
                    hit.score, hit.source_ids = above.score, list(dict.fromkeys([*hit.source_ids, *above.source_ids]))
                    hits[hits.index(above)] = seen[_dedup_key(above.text)] = hit
                    if tier:
                        hit.details["exact"] = held[hit.id] = tier
                continue
            if not np.isnan(candidates.similarity[row]):
                hit.details["similarity"] = round(float(candidates.similarity[row]), 4)
            if tier:
                hit.details["exact"] = held[hit.id] = tier
            seen[key] = hit
            if pointwise:
                covered.update(hit.source_ids)
            hits.append(hit)
            if len(hits) == k:
                break
        return hits


class _SourceSets:
    """Each kept hit's source ids as a set beside its list, so that merging a duplicate is O(1); a list
    replaced or changed elsewhere (another object, another length) gets its set made again."""

    def __init__(self) -> None:
        self._sets: dict[int, tuple[list[str], set[str]]] = {}

    def add(self, hit: Hit, ids: list[str]) -> None:
        ids_now = hit.source_ids
        known = self._sets.get(id(hit))
        if known is None or known[0] is not ids_now or len(known[1]) != len(ids_now):
            known = self._sets[id(hit)] = (ids_now, set(ids_now))
        for source in ids:
            if source not in known[1]:
                known[1].add(source)
                ids_now.append(source)


def turn_hit(turn: StoredTurn, score: float) -> Hit:
    return Hit(
        id=f"turn:{turn.id}", kind="turn", text=turn.content, score=score, timestamp=to_datetime(turn.ts),
        session_id=turn.session_id, source_ids=[turn.source_id], speaker=turn.speaker, role=turn.role,
        user_id=turn.user_id, source=turn.source, tags=list(turn.tags),
    )

