"""`EpisodicMemory`: the episodic-judgment library's class (a compatibility API), onto the same store as
`Memory`. What it promises: docs/compat.md, "episodic-judgment compatibility"."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import DEFAULT_USER, MEMORY_PATH, Config
from .judgments.embedding import as_embedder
from .judgments.memory import Judgment, JudgmentMemory, LibrarySearchResult
from .memory import Memory
from .models.embedder import Embedder
from .retrieve.utility import plain_utility
from .store.records import VerdictRow


@dataclass
class MemoryRecord:
    """A stored judgment, as the library's `get` returns it."""

    id: str
    trigger: str
    judgment: str
    reasoning: str
    domain: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0              # Unix time
    utility_score: float = 0.0           # adopted / verdicts, 0.0 when never verified
    adoption_count: int = 0
    correction_count: int = 0            # verdicts with adopted=False, with or without a correction


@dataclass
class SearchResult(LibrarySearchResult):
    """One judgment found by `EpisodicMemory.search`: `distance` = 1 − cosine (smaller is closer)."""


@dataclass
class Triple:
    """(context, judgment, outcome) for fine-tuning; `outcome` holds utility_score, adoption_count and
    correction_count."""

    context: str
    judgment: str
    outcome: dict[str, Any]


class EpisodicMemory(AbstractContextManager["EpisodicMemory"]):
    """Judgment memory with a store of its own (in memory, or the file `db_path`): `memory` is the `Memory` it
    opened, `judgments` the project's richer API over the same judgments."""

    def __init__(self, embedder: Any = None, db_path: str | Path = MEMORY_PATH, *,
                 user_id: str = DEFAULT_USER, config: Config | None = None) -> None:
        if (embedder is not None and not isinstance(embedder, Embedder) and not callable(embedder)
                and callable(getattr(embedder, "embed", None))):
            embedder = embedder.embed  # the library's Embedder: embed(text) -> vector
        self.memory = Memory(db_path, user_id=user_id, config=config,
                             embedder=None if embedder is None else as_embedder(embedder))
        self.judgments: JudgmentMemory = self.memory.judgments

    # --- the library's API -----------------------------------------------------------------------------
    def store(self, trigger: str, judgment: str, reasoning: str, domain: str | None = None,
              metadata: dict[str, Any] | None = None) -> str:
        """Store a judgment; returns its id ("mem_…"). Storing the same text again stores another one (each
        earns its own verdicts). ValueError when trigger, judgment or reasoning is empty."""
        return self.judgments.store(trigger, judgment, reasoning, domain, metadata, merge=False)

    def search(self, query: str, top_k: int = 5, domain: str | None = None, min_score: float = 0.0,
               use_utility: bool = False, utility_weight: float = 0.5) -> list[SearchResult]:
        """The `top_k` judgments whose cosine with `query` is at least `min_score`, best first, ranked as the
        library ranks them (docs/compat.md). ValueError for an empty query, top_k < 1 or a negative
        utility_weight."""
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be a positive integer, got {top_k!r}")
        if utility_weight < 0:
            raise ValueError(f"utility_weight must be >= 0, got {utility_weight!r}")
        found = self.judgments.closeness(query, domain, floor=min_score)
        verdicts = self.judgments.rows.verdicts([row.id for row, _ in found])
        scored = []
        for row, cosine in found:
            utility = plain_utility(verdicts[row.id])
            score = cosine * (1.0 + utility_weight * utility) if use_utility else cosine
            scored.append((score, SearchResult.of(row, cosine, utility)))
        scored.sort(key=lambda pair: -pair[0])  # stable: ties stay in the order stored
        return [result for _, result in scored[:top_k]]

    def verify(self, memory_id: str, adopted: bool, user_correction: str | None = None) -> None:
        """Record whether the judgment was adopted (and the user's correction when it was not). KeyError for an
        unknown id."""
        self.judgments.verify(memory_id, adopted, user_correction)

    def get(self, memory_id: str) -> MemoryRecord | None:
        """The stored judgment, or None when there is none with this id."""
        try:
            j = self.judgments.get(memory_id)
        except (KeyError, ValueError):  # ValueError: not an id at all (blank, a control character)
            return None
        return _record(j)

    def count(self) -> int:
        """How many judgments are stored."""
        return self.judgments.count()

    def export_triples(self, min_utility: float = 0.0) -> list[Triple]:
        """Triples of the judgments whose utility_score is strictly above `min_utility` (so by default not those
        never verified or only rejected), in the order stored."""
        triples = []
        for chunk in self.judgments.rows.iter_judgments(self.judgments.user_id):
            verdicts = self.judgments.rows.verdicts([row.id for row in chunk])
            for row in chunk:
                utility = plain_utility(verdicts[row.id])
                if utility > min_utility:
                    triples.append(Triple(context=row.trigger, judgment=row.judgment,
                                          outcome=_outcome(verdicts[row.id], utility)))
        return triples

    def close(self) -> None:
        self.memory.close()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EpisodicMemory({self.memory.clients.path!r}, user_id={self.judgments.user_id!r})"


def _record(j: Judgment) -> MemoryRecord:
    verdicts = j.adopted + j.rejected
    return MemoryRecord(id=j.id, trigger=j.trigger, judgment=j.judgment, reasoning=j.reasoning, domain=j.domain,
                        metadata=j.metadata, created_at=j.created_at.timestamp() if j.created_at else 0.0,
                        utility_score=j.adopted / verdicts if verdicts else 0.0, adoption_count=j.adopted,
                        correction_count=j.rejected)


def _outcome(verdicts: list[VerdictRow], utility: float) -> dict[str, Any]:
    adopted = sum(v.adopted for v in verdicts)
    return {"utility_score": utility, "adoption_count": adopted, "correction_count": len(verdicts) - adopted}
