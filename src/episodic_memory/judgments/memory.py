"""Judgment memory: how to act in a situation (trigger → judgment → reasoning), found by hybrid retrieval and
ranked by how often acting so was proven right (README, "Judgments: how to act, ranked by what worked").

    distance   = 1 − cosine                                  (the episodic-judgment library's; smaller is closer)
    similarity = Σ_leg w_leg / (rrf_k + rank_leg)  ÷  Σ_leg w_leg / (rrf_k + 1)   (1.0 = first in every leg)
    score      = similarity, or similarity × (1 + α · ranking utility) with use_utility: the order of the results
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, TypeVar

from ..clients import MemoryClients
from ..models.embedder import Embedder
from ..retrieve.fts import fts_query
from ..retrieve.fusion import reciprocal_rank_fusion
from ..retrieve.query import classify
from ..retrieve.utility import Outcome, outcome, plain_utility, rank_score
from ..scopes import scope_of
from ..store.records import JUDGMENT_KIND, JudgmentRow, VerdictRow
from ..util import check_id, json_depth, to_datetime, to_epoch

log = logging.getLogger(__name__)

_SPACES = re.compile(r"\s+")
_Result = TypeVar("_Result", bound="LibrarySearchResult")


@dataclass
class LibrarySearchResult:
    """One judgment found, with the fields the episodic-judgment library's result has (`EpisodicMemory.search`
    returns them as `episodic_judgment.SearchResult`): `distance` = 1 − cosine (smaller is closer)."""

    id: str
    judgment: str
    reasoning: str
    trigger: str
    domain: str | None
    distance: float
    metadata: dict[str, Any]
    utility_score: float

    @classmethod
    def of(cls: type[_Result], row: JudgmentRow, closeness: float, utility_score: float, **more: Any) -> _Result:
        """The result for `row`, `closeness` (the cosine, or what stands in for it) away from the query; `more`: a
        subclass's fields."""
        return cls(id=row.memory_id, judgment=row.judgment, reasoning=row.reasoning, trigger=row.trigger,
                   domain=row.domain, distance=1.0 - closeness,
                   metadata=json.loads(row.metadata) if row.metadata else {}, utility_score=utility_score, **more)


@dataclass
class SearchResult(LibrarySearchResult):
    """One judgment found by `search`. `distance` = 1 − cosine (smaller is closer); results are ordered by
    `score` (the hybrid similarity, or similarity × (1 + α · rank_utility) with ``use_utility``). `utility_score`
    is the reported utility (`Config.judgments.utility_reported`), `rank_utility` the one ranking uses."""

    score: float = 0.0
    similarity: float = 0.0
    cosine: float | None = None          # query · judgment embedding (None without an embedder)
    rank_utility: float = 0.0
    adopted: int = 0
    rejected: int = 0
    correction: str | None = None        # the latest correction, shown as "corrected: …"
    scope: str = "user"                  # whose judgment: "user" or "agent:<name>" (episodic_memory.scopes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Triple:
    """(context, judgment, outcome) for fine-tuning: the situation, the judgment, and how it went."""

    context: str
    judgment: str
    outcome: str
    id: str = ""
    reasoning: str = ""
    domain: str | None = None
    utility: float = 0.0                 # the reported utility (Config.judgments.utility_reported)
    adopted: int = 0
    rejected: int = 0
    correction: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Judgment:
    """A stored judgment with its verdict counts (what `get` returns)."""

    id: str                              # the public id, "mem_…" (not the row id)
    trigger: str
    judgment: str
    reasoning: str
    domain: str | None
    metadata: dict[str, Any]
    utility_score: float
    adopted: int
    rejected: int
    correction: str | None
    corrections: list[str] = field(default_factory=list)
    stored: int = 1                      # times it was stored: duplicates merge into one judgment
    created_at: datetime | None = None
    rank_utility: float = 0.0            # the utility ranking uses (utility_score is the reported one)
    scope: str = "user"                  # whose judgment: "user" or "agent:<name>" (episodic_memory.scopes)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["created_at"] = self.created_at.isoformat() if self.created_at else None
        return d


def dedup_key(trigger: str, judgment: str) -> str:
    """Same trigger and judgment up to case and spacing → the same key."""
    folded = "\x1f".join(_SPACES.sub(" ", text).strip().casefold() for text in (trigger, judgment))
    return hashlib.sha256(folded.encode()).hexdigest()


def _merge_metadata(old: str | None, new: dict[str, Any]) -> str:
    merged = json.loads(old) if old else {}
    merged.update(new)
    return json.dumps(merged, ensure_ascii=False, sort_keys=True)


def _text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value.strip()


class JudgmentMemory:
    """The judgments of one user in a `Memory`'s store (`Memory.judgments`), with its embedder and config: what
    it uses comes in the Memory's `MemoryClients` bundle."""

    def __init__(self, clients: MemoryClients, user_id: str) -> None:
        self.clients = clients
        self.config = clients.config
        self.user_id = check_id(user_id, "user_id")
        self.rows = clients.store

    # --- writing -------------------------------------------------------------------------------------
    def store(self, trigger: str, judgment: str, reasoning: str, domain: str | None = None,
              metadata: dict[str, Any] | None = None, *, merge: bool = True) -> str:
        """Store a judgment; returns its id ("mem_…").

        Storing the same trigger and judgment again (up to case and spacing) returns the first one's id: its
        verdicts keep counting, the first wording stays, the metadata is merged; ``merge=False``
        (`EpisodicMemory`) stores a new judgment every time. ValueError when trigger, judgment or reasoning is
        empty, the domain is blank, or the metadata is not a JSON-serialisable dict.
        """
        trigger, judgment, reasoning = (_text(trigger, "trigger"), _text(judgment, "judgment"),
                                        _text(reasoning, "reasoning"))
        if domain is not None:
            domain = _text(domain, "domain")
        if metadata is None:
            metadata = {}
        if not isinstance(metadata, dict):
            raise ValueError(f"metadata must be a dict, got {type(metadata).__name__}")
        if json_depth(metadata, self.config.capture.max_json_depth) > self.config.capture.max_json_depth:
            raise ValueError(f"metadata is nested more than {self.config.capture.max_json_depth} levels deep "
                             "(Config.capture.max_json_depth)")
        try:
            json.dumps(metadata)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"metadata must be JSON-serialisable: {exc}") from None
        memory_id = f"mem_{secrets.token_hex(8)}"
        key = dedup_key(trigger, judgment)
        if not merge:  # a key of its own: no later store merges into it (nor it into an earlier one)
            key = f"{key}:{memory_id}"
        row, created = self.rows.insert_judgment_or_merge(
            user_id=self.user_id, memory_id=memory_id, trigger=trigger, judgment=judgment,
            reasoning=reasoning, domain=domain, metadata=metadata, dedup_key=key,
            merge_metadata=_merge_metadata,
        )
        if created:
            try:
                self.embed_pending()
            except Exception:
                log.exception("embedding a judgment failed; BM25 finds it, and the next search embeds it")
        return row.memory_id

    def verify(self, memory_id: str, adopted: bool, user_correction: str | None = None, *,
               at: datetime | str | float | None = None) -> Judgment:
        """Record whether the user adopted the judgment, and what they said instead (`user_correction`);
        returns the judgment with its updated utility. `at` backdates the verdict (imports, tests).

        KeyError for an id this user does not have (ValueError for one that is no id), TypeError when
        `adopted` is not a bool, ValueError for a blank correction.
        """
        if not isinstance(adopted, bool):
            raise TypeError(f"adopted must be True or False, got {adopted!r}")
        if user_correction is not None:
            user_correction = _text(user_correction, "user_correction")
        ts = to_epoch(at, "at")
        if not self.rows.add_verdict(self.user_id, check_id(memory_id, "memory_id"), adopted, user_correction, ts):
            raise KeyError(f"no judgment {memory_id!r} for user {self.user_id!r}")
        return self.get(memory_id)

    def delete(self, *memory_ids: str, scrub: bool = True) -> int:
        """Delete judgments with their verdicts, search-index rows and vectors. Returns how many.

        All or nothing: raises KeyError (and deletes none) when one id is not this user's. `scrub` then
        makes the text unrecoverable from the file (FTS merge, WAL checkpoint, VACUUM); pass False when
        deleting in a loop and call `memory.clients.scrub()` once at the end.
        """
        if not memory_ids:
            raise ValueError("delete needs at least one judgment id")
        missing = [m for m in memory_ids if self.rows.judgment(self.user_id, check_id(m, "memory_id")) is None]
        if missing:
            raise KeyError(f"no judgment {missing[0]!r} for user {self.user_id!r}")
        deleted = self.rows.delete_judgments(self.user_id, list(dict.fromkeys(memory_ids)))
        if scrub and not self.clients.scrub():
            log.warning("judgments deleted, but a reader kept their bytes in %s's write-ahead log for %.0fs; a later "
                        "forget or delete scrubs them", self.clients.path, self.clients.config.store.forget_scrub_wait_s)
        return len(deleted)

    # --- reading -------------------------------------------------------------------------------------
    def get(self, memory_id: str) -> Judgment:
        """One judgment with its verdict counts and corrections. KeyError for an unknown id."""
        row = self.rows.judgment(self.user_id, check_id(memory_id, "memory_id"))
        if row is None:
            raise KeyError(f"no judgment {memory_id!r} for user {self.user_id!r}")
        return self._judgment(row, self.rows.verdicts([row.id])[row.id], time.time())

    def list_judgments(self, domain: str | None = None, limit: int | None = None) -> list[Judgment]:
        """The user's judgments in the order they were stored (of one `domain` when given; at most `limit`)."""
        now, out = time.time(), list[Judgment]()
        for chunk in self.rows.iter_judgments(self.user_id, domain=domain):
            verdicts = self.rows.verdicts([r.id for r in chunk])
            out.extend(self._judgment(row, verdicts[row.id], now) for row in chunk)
            if limit is not None and len(out) >= limit:
                return out[:limit]
        return out

    def _judgment(self, row: JudgmentRow, verdicts: list[VerdictRow], now: float) -> Judgment:
        o = outcome(verdicts, self.config, now)
        return Judgment(id=row.memory_id, trigger=row.trigger, judgment=row.judgment, reasoning=row.reasoning,
                        domain=row.domain, metadata=json.loads(row.metadata),
                        utility_score=self._reported(verdicts, o), adopted=o.adopted, rejected=o.rejected,
                        correction=o.correction, corrections=o.corrections, stored=row.stored,
                        created_at=to_datetime(row.created_at), rank_utility=o.utility,
                        scope=scope_of(self.user_id))

    def _reported(self, verdicts: Sequence[VerdictRow], o: Outcome) -> float:
        """The utility shown as `utility_score` and used by `export_triples` (`Config.judgments.utility_reported`)."""
        return plain_utility(verdicts) if self.config.judgments.utility_reported == "plain" else o.utility

    def count(self) -> int:
        return self.rows.judgment_count(self.user_id)

    def search(self, query: str, top_k: int = 5, domain: str | None = None, min_score: float = 0.0,
               use_utility: bool = False, utility_weight: float | None = None) -> list[SearchResult]:
        """The `top_k` judgments for `query`, best first: found and ordered by hybrid similarity (see the
        module docstring), those whose cosine with the query is below `min_score` dropped; with `use_utility`
        ranked by similarity × (1 + α · ranking utility), α = `utility_weight` (default
        `Config.judgments.utility_weight`). ValueError for an empty query, top_k < 1 or a negative
        utility_weight."""
        query = _text(query, "query")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be a positive integer, got {top_k!r}")
        alpha = self.config.judgments.utility_weight if utility_weight is None else float(utility_weight)
        if alpha < 0:
            raise ValueError(f"utility_weight must be >= 0, got {utility_weight!r}")
        cfg = self.config
        pool = max(top_k, cfg.retrieval.candidate_pool)
        w_bm25, w_dense = cfg.retrieval.leg_weights.get(classify(query), (1.0, 1.0))
        cosines: dict[int, float] = {}
        legs: list[tuple[list[int], float]] = []  # (judgment ids best first, weight) of each leg that ran

        match = fts_query(query)
        if match is not None:
            bm25 = self.rows.search_judgments(match, self.user_id, limit=pool, domain=domain)
            legs.append(([jid for jid, _ in bm25], w_bm25))
        dense = self._dense_hits(query, pool, domain)
        if dense is not None:
            hits, cosine_of = dense
            cosines = dict(hits)
            legs.append(([jid for jid, _ in hits], w_dense))
        if not any(ids for ids, _ in legs):
            return []

        fusion = reciprocal_rank_fusion(legs, cfg.retrieval.rrf_k)
        similarities = dict(zip(fusion.keys.tolist(), fusion.scores.tolist(), strict=True))
        rows = self.rows.judgments_by_id(self.user_id, list(similarities))
        if dense is not None and any(jid not in cosines for jid in rows):  # found by BM25 alone
            cosines.update(cosine_of([jid for jid in rows if jid not in cosines]))
        verdicts = self.rows.verdicts(list(rows))
        now = time.time()
        results = []
        for jid, row in rows.items():
            similarity, cosine = similarities[jid], cosines.get(jid)
            closeness = cosine if cosine is not None else similarity
            if closeness < min_score:
                continue
            o = outcome(verdicts[jid], cfg, now)
            score = rank_score(similarity, o.utility, alpha) if use_utility else similarity
            results.append(SearchResult.of(
                row, closeness, self._reported(verdicts[jid], o), score=score, similarity=similarity, cosine=cosine,
                rank_utility=o.utility, adopted=o.adopted, rejected=o.rejected, correction=o.correction,
                scope=scope_of(self.user_id)))
        # equal fused ranks (first in one leg, second in the other) are common: the closer text breaks the tie
        results.sort(key=lambda r: (-r.score, -r.similarity, -(r.cosine or 0.0), r.id))
        return results[:top_k]

    def closeness(self, query: str, domain: str | None = None, floor: float = -1.0
                  ) -> list[tuple[JudgmentRow, float]]:
        """Every judgment (of `domain`) with its closeness to `query`, at or above `floor`, in the order
        stored: the cosine of their embeddings, every judgment with a vector scored (the episodic-judgment
        library's search); without an embedder, or when embedding fails, the BM25 leg's rank-based similarity
        of the `candidate_pool` best."""
        query = _text(query, "query")
        embedder, index = self.clients.embedder(), self.clients.dense_index()
        scores: dict[int, float] | None = None
        if embedder is not None and index is not None:
            try:
                self.embed_pending(embedder)
                qvec = embedder.embed_query(query)
            except Exception:
                log.exception("embedding failed; judgment closeness falls back to BM25")
            else:
                hits = index.search(self.user_id, qvec, self.rows.judgment_count(self.user_id), floor=floor,
                                    kind="judgment")
                scores = {h.item_id: h.similarity for h in hits}
        if scores is None:
            match = fts_query(query)
            bm25 = [] if match is None else self.rows.search_judgments(
                match, self.user_id, limit=self.config.retrieval.candidate_pool, domain=domain)
            fused = reciprocal_rank_fusion([([jid for jid, _ in bm25], 1.0)], self.config.retrieval.rrf_k)
            scores = {k: s for k, s in zip(fused.keys.tolist(), fused.scores.tolist(), strict=True) if s >= floor}
        rows = self.rows.judgments_by_id(self.user_id, list(scores))
        return [(rows[jid], scores[jid]) for jid in sorted(rows)
                if domain is None or rows[jid].domain == domain]

    def _dense_hits(self, query: str, pool: int, domain: str | None
                    ) -> tuple[list[tuple[int, float]], Callable[[list[int]], dict[int, float]]] | None:
        """(judgment id, cosine) best first, and a function giving the cosine of any other judgment ids (those
        with a vector); None when there is no embedder (search is then BM25 alone)."""
        embedder = self.clients.embedder()
        index = self.clients.dense_index()
        if embedder is None or index is None:
            return None
        try:
            self.embed_pending(embedder)
            qvec = embedder.embed_query(query)
        except Exception:
            log.exception("embedding failed; judgment search uses BM25 only")
            return None
        limit = pool * 4 if domain is not None else pool
        hits = index.search(self.user_id, qvec, limit, floor=self.config.retrieval.dense_floor, kind="judgment")
        if domain is not None:
            rows = self.rows.judgments_by_id(self.user_id, [h.item_id for h in hits])
            hits = [h for h in hits if h.item_id in rows and rows[h.item_id].domain == domain][:pool]

        def cosine_of(ids: list[int]) -> dict[int, float]:
            every = index.search(self.user_id, qvec, self.rows.judgment_count(self.user_id), floor=-1.0,
                                 kind="judgment")
            wanted = set(ids)
            return {h.item_id: h.similarity for h in every if h.item_id in wanted}

        return [(h.item_id, h.similarity) for h in hits], cosine_of

    # --- vectors -------------------------------------------------------------------------------------
    def embed_pending(self, embedder: Embedder | None = None) -> int:
        """Embed every judgment without a vector of the current model (new ones, or after a model change)."""
        return self.clients.indexer.embed_pending(kinds=[JUDGMENT_KIND], embedder=embedder)

    # --- export --------------------------------------------------------------------------------------
    def iter_triples(self, min_utility: float = 0.0) -> Iterator[Triple]:
        """Triples of verified judgments (a triple needs an outcome) whose reported utility
        (`Config.judgments.utility_reported`) is strictly greater than `min_utility`, streamed."""
        now = time.time()
        for chunk in self.rows.iter_judgments(self.user_id):
            verdicts = self.rows.verdicts([r.id for r in chunk])
            for row in chunk:
                if not verdicts[row.id]:
                    continue
                o = outcome(verdicts[row.id], self.config, now)
                reported = self._reported(verdicts[row.id], o)
                if reported > min_utility:
                    yield Triple(context=row.trigger, judgment=row.judgment, outcome=o.describe(),
                                 id=row.memory_id, reasoning=row.reasoning, domain=row.domain,
                                 utility=reported, adopted=o.adopted, rejected=o.rejected,
                                 correction=o.correction)

    def export_triples(self, min_utility: float = 0.0) -> list[Triple]:
        """Every triple (context = trigger, judgment, outcome) with utility strictly above `min_utility`."""
        return list(self.iter_triples(min_utility))

    def export_jsonl(self, path_or_file: str | Path | IO[str], min_utility: float = 0.0) -> int:
        """Stream the triples to a JSON Lines file (a path or an open text file), one judgment a line, for
        fine-tuning. Returns how many lines were written."""
        if isinstance(path_or_file, str | Path):
            with open(path_or_file, "w", encoding="utf-8") as f:
                return self._write_jsonl(f, min_utility)
        if not hasattr(path_or_file, "write"):
            raise TypeError(
                f"export_jsonl needs a path or a writable text file, got {type(path_or_file).__name__}")
        return self._write_jsonl(path_or_file, min_utility)

    def _write_jsonl(self, f: IO[str], min_utility: float) -> int:
        n = 0
        for triple in self.iter_triples(min_utility):
            f.write(json.dumps(triple.to_dict(), ensure_ascii=False) + "\n")
            n += 1
        return n

    # --- lifecycle -----------------------------------------------------------------------------------
    def close(self) -> None:
        """Nothing to release: the store belongs to the `Memory` (closing it closes the judgments too)."""

    def __enter__(self) -> JudgmentMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.clients.path!r}, user_id={self.user_id!r})"
