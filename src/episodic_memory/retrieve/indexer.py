"""Embedding what is stored: items of every kind without a vector of the current model get one, in batches.

One loop for every kind (`retrieve.kinds.REGISTRY` says how each lists its pending items and what text it
embeds), run at consolidation and before a recall for the kinds every pass embeds (turns, facts; by id
watermark), and for every kind at `reindex`. A pass may be one user's (a recall embeds only its own user's
backlog) and bounded (`limit` items: the watermark stays where it stopped); an item is embedded from at most
`Config.models.embed_max_chars` of its text (docs/architecture.md, docs/write-path.md).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..config import Config
from ..store.base import Store
from .kinds import REGISTRY, Kind, Pending

if TYPE_CHECKING:
    import numpy as np

    from ..models.embedder import Embedder

log = logging.getLogger(__name__)


class Indexer:
    def __init__(self, store: Store, embedder: Callable[[], Embedder | None], config: Config,
                 batch: int = 256) -> None:
        self.store = store
        self.config = config
        self._embedder = embedder
        self.batch = batch
        # (kind, model, user or None for all) -> every id up to here (of that user) has a vector
        self._checked_upto: dict[tuple[str, str, str | None], int] = {}
        self._lock = threading.Lock()
        self._warned: set[str] = set()  # models whose backlog was announced

    def embed_pending(self, progress: Callable[[int], None] | None = None, kinds: Iterable[str] | None = None,
                      embedder: Embedder | None = None, user_id: str | None = None, limit: int | None = None) -> int:
        """Embed the stored items that lack a vector of the current model: of `kinds` (default: the kinds every
        pass embeds, turns and facts), of `user_id` (default: every user's), at most `limit` of them (default: all),
        with `embedder` (default: the memory's). Returns how many."""
        embedder = embedder or self._embedder()
        if embedder is None:
            return 0
        chosen = [REGISTRY[k] for k in kinds] if kinds is not None else [
            k for k in REGISTRY.values() if k.embedded_by_index]
        done = 0
        with self._lock:
            for kind in chosen:
                room = None if limit is None else limit - done
                if kind.pending is not None and (room is None or room > 0):
                    done += self._embed_kind(kind, embedder, progress, user_id, room)
        return done

    def _embed_kind(self, kind: Kind, embedder: Embedder, progress: Callable[[int], None] | None,
                    user_id: str | None, limit: int | None) -> int:
        assert kind.pending is not None
        model = embedder.model_id
        newest = kind.max_id(self.store) if kind.max_id is not None else None
        mark = (kind.name, model, user_id)
        after = max(self._checked_upto.get(mark, 0), self._checked_upto.get((kind.name, model, None), 0))
        upto = getattr(self.store, "turns_embedded_upto", None)  # the SQLite store's shortcut for a first pass
        if kind.name == "turn" and not after and upto is not None:
            after = self._checked_upto[(kind.name, model, None)] = upto(model)
        cap = self.config.models.embed_max_chars
        done = 0
        stopped = False  # at `limit`, before `newest`
        while newest is None or after < newest:
            if limit is not None and done >= limit:
                stopped = True
                break
            size = self.batch if limit is None else min(self.batch, limit - done)
            items = kind.pending(self.store, self.config, model, after, size, user_id)
            items = [p for p in items if newest is None or p.item_id <= newest]
            if not items:
                break
            if kind.name == "turn" and not done and len(items) == size == self.batch and model not in self._warned:
                self._warned.add(model)
                self._announce_backlog(model, items[0].user_id)
            vectors = embed_views(embedder, items, cap)
            self.store.add_vectors(model, [(kind.name, p.item_id, p.user_id, p.session_id, p.ts,
                                            v.astype("float32").tobytes()) for p, v in zip(items, vectors, strict=True)])
            after = items[-1].item_id
            done += len(items)
            if progress:
                progress(len(items))
        if newest is not None:
            self._checked_upto[mark] = after if stopped else newest
        return done

    def _announce_backlog(self, model: str, user_id: str) -> None:
        """Many turns to embed at once: after an embedder change that is the whole store, so say why recall waits."""
        others = {m: n for m, n in self.store.vector_counts(user_id).items() if m != model}
        if others:
            log.warning("%d turns have no %s vector (the store was embedded with %s): embedding them as the store "
                        "is used (recalls a share at a time, BM25 finding the rest meanwhile); `episodic reindex` does "
                        "it all ahead of time and drops the old vectors",
                        self.store.count_missing_vectors(model), model, ", ".join(sorted(others)))

    def pending(self) -> int:
        """How many turns still lack a vector of the current model (a full count: for stats, not the hot path)."""
        embedder = self._embedder()
        return 0 if embedder is None else self.store.count_missing_vectors(embedder.model_id)

    def forget_watermarks(self) -> None:
        with self._lock:
            self._checked_upto.clear()


def embed_views(embedder: Embedder, items: list[Pending], cap: int) -> np.ndarray:
    """Each item's vector: of its text, or, when it has a second view (`Pending.also`), the normalised sum of
    the two — a turn in context and the turn alone (`Config.experimental.blend_turn_vector`)."""
    import numpy as np

    extra = [i for i, p in enumerate(items) if p.also is not None]
    seconds = [p.also[:cap] for p in items if p.also is not None]
    embed = getattr(embedder, "embed_once", embedder.embed)  # an embedder with a text cache: leave it out of it
    vectors = np.asarray(embed([p.text[:cap] for p in items] + seconds), dtype=np.float32)
    out = vectors[: len(items)]  # a view: the sums below write rows of it, read only the rows after it
    if extra:
        out[extra] += vectors[len(items) :]
        out[extra] /= np.linalg.norm(out[extra], axis=1, keepdims=True)
    return out
