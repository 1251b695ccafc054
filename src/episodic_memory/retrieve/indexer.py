"""Embedding what is stored: turns without a vector of the current model get one, in batches.

Capture never waits for this: it runs at consolidation and before a recall (only the new turns since the last
check are looked at, by turn-id watermark).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..models.embedder import Embedder
from ..store.base import Store
from .retriever import embedding_text

log = logging.getLogger(__name__)


class Indexer:
    def __init__(self, store: Store, embedder: Callable[[], Embedder | None], batch: int = 256,
                 context_chars: int = 200, short_turn_chars: int = 300) -> None:
        self.store = store
        self.context_chars = context_chars
        self.short_turn_chars = short_turn_chars
        self._embedder = embedder
        self.batch = batch
        self._checked_upto: dict[str, int] = {}   # model -> every turn id up to here has a vector
        self._facts_checked_upto: dict[str, int] = {}  # model -> every fact id up to here has a vector
        self._lock = threading.Lock()
        self._warned: set[str] = set()  # models whose backlog was announced

    def embed_pending(self, progress: Callable[[int], None] | None = None) -> int:
        """Embed every stored turn that lacks a vector of the current model. Returns how many were embedded."""
        embedder = self._embedder()
        if embedder is None:
            return 0
        model = embedder.model_id
        done = 0
        with self._lock:
            newest = self.store.max_turn_id()
            after = self._checked_upto.get(model, 0)
            while after < newest:
                turns = self.store.turns_missing_vectors(model, after, self.batch)
                turns = [t for t in turns if t.id <= newest]
                if not turns:
                    break
                if not done and len(turns) == self.batch and model not in self._warned:
                    self._warned.add(model)
                    self._announce_backlog(model, turns[0].user_id)
                previous = self.store.previous_turns([t.id for t in turns])
                texts = [embedding_text(t, previous.get(t.id), self.context_chars, self.short_turn_chars) for t in turns]
                vectors = embedder.embed(texts)
                self.store.add_vectors(model, [
                    ("turn", t.id, t.user_id, t.session_id, t.ts, v.tobytes()) for t, v in zip(turns, vectors, strict=True)
                ])
                after = turns[-1].id
                done += len(turns)
                if progress:
                    progress(len(turns))
            self._checked_upto[model] = newest
            done += self._embed_facts(embedder, progress)
        return done

    def _announce_backlog(self, model: str, user_id: str) -> None:
        """Many turns to embed at once: after an embedder change that is the whole store, so say why recall waits."""
        others = {m: n for m, n in self.store.vector_counts(user_id).items() if m != model}
        if others:
            log.warning("%d turns have no %s vector (the store was embedded with %s): embedding them now; "
                        "`episodic reindex` does this ahead of time and drops the old vectors",
                        self.store.count_missing_vectors(model), model, ", ".join(sorted(others)))

    def _embed_facts(self, embedder: Embedder, progress: Callable[[int], None] | None) -> int:
        """Facts stored while no embedder was available (or under another model) get their vectors now."""
        model = embedder.model_id
        newest = self.store.max_fact_id()
        after = self._facts_checked_upto.get(model, 0)
        done = 0
        while after < newest:
            batch = self.store.facts_missing_vectors(model, self.batch, after=after)
            if not batch:
                break
            vectors = embedder.embed([f.text for f in batch])
            self.store.add_vectors(model, [("fact", f.id, f.user_id, f.session_id, f.created_at, v.tobytes())
                                           for f, v in zip(batch, vectors, strict=True)])
            after = batch[-1].id
            done += len(batch)
            if progress:
                progress(len(batch))
        self._facts_checked_upto[model] = newest
        return done

    def pending(self) -> int:
        """How many turns still lack a vector of the current model (a full count: for stats, not the hot path)."""
        embedder = self._embedder()
        if embedder is None:
            return 0
        return self.store.count_missing_vectors(embedder.model_id)

    def forget_watermarks(self) -> None:
        with self._lock:
            self._checked_upto.clear()
            self._facts_checked_upto.clear()
