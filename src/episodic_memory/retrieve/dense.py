"""The dense leg: vectors live in the SQLite file; each process keeps a numpy matrix in sync with it.

Sync is by watermark, not rebuild: vector ids only grow, so a reader loads just the rows newer than the last one it
saw. A deletion bumps a generation counter in the file, and only then does a reader reload that user's rows. So a
process sees what another wrote without reopening, and opening a store costs one read of the user's vectors — no
re-embedding, no index build. (Measured choice: see docs/retrieval.md.)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from ..store.sqlite import SQLiteStore


@dataclass
class _UserMatrix:
    dim: int
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    kinds: list[str] = field(default_factory=list)
    kind_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    item_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    session_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    codes: dict[str | None, int] = field(default_factory=dict)  # kind and session names -> small ints
    ts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float64))
    watermark: int = 0
    generation: int = -1
    _capacity: int = 0
    _size: int = 0

    def append(self, rows: list[tuple[int, str, int, str, float, bytes]]) -> None:
        if not rows:
            return
        new = np.frombuffer(b"".join(r[5] for r in rows), dtype=np.float32).reshape(len(rows), self.dim)
        need = self._size + len(rows)
        if need > self._capacity:  # grow geometrically so appends stay amortised O(1)
            capacity = max(need, int(self._capacity * 1.5) + 1024)
            grown = np.empty((capacity, self.dim), np.float32)
            grown[: self._size] = self.vectors[: self._size]
            self.vectors = grown
            self._capacity = capacity
        self.vectors[self._size : need] = new
        self.item_ids = np.concatenate([self.item_ids, np.fromiter((r[2] for r in rows), np.int64, len(rows))])
        self.ts = np.concatenate([self.ts, np.fromiter((r[4] or 0.0 for r in rows), np.float64, len(rows))])
        self.kinds.extend(r[1] for r in rows)
        code = self.code
        self.kind_codes = np.concatenate([self.kind_codes, np.fromiter((code(r[1]) for r in rows), np.int32)])
        self.session_codes = np.concatenate(
            [self.session_codes, np.fromiter((code(r[3]) for r in rows), np.int64)])
        self._size = need
        self.watermark = rows[-1][0]

    def code(self, name: str | None) -> int:
        return self.codes.setdefault(name, len(self.codes))

    @property
    def matrix(self) -> np.ndarray:
        return self.vectors[: self._size]


@dataclass
class DenseHit:
    kind: str
    item_id: int
    similarity: float


class DenseIndex:
    """Per-user float32 matrices for one embedding model, synced from the store by watermark."""

    def __init__(self, store: SQLiteStore, model_id: str, dim: int) -> None:
        self.store = store
        self.model_id = model_id
        self.dim = dim
        self._users: dict[str, _UserMatrix] = {}
        self._lock = threading.Lock()

    def sync(self, user_id: str) -> _UserMatrix:
        newest, generation = self.store.vector_watermark(user_id, self.model_id)
        with self._lock:
            m = self._users.get(user_id)
            if m is None or m.generation != generation:
                m = _UserMatrix(self.dim, vectors=np.zeros((0, self.dim), np.float32), generation=generation)
                self._users[user_id] = m
            if newest > m.watermark:
                m.append(self.store.load_vectors(user_id, self.model_id, m.watermark))
            return m

    def search(
        self,
        user_id: str,
        query: np.ndarray,
        limit: int,
        *,
        floor: float = 0.0,
        kind: str | None = None,
        session_id: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> list[DenseHit]:
        """Top `limit` items by cosine (vectors are normalised, so a dot product), at or above `floor`."""
        m = self.sync(user_id)
        if not m.kinds:
            return []
        sims = m.matrix @ query.astype(np.float32, copy=False)
        mask = sims >= floor
        if kind is not None:
            mask &= m.kind_codes == m.codes.get(kind, -1)
        if session_id is not None:
            mask &= m.session_codes == m.codes.get(session_id, -1)
        if since is not None:
            mask &= m.ts >= since
        if until is not None:
            mask &= m.ts <= until
        candidates = np.flatnonzero(mask)
        if candidates.size == 0:
            return []
        if candidates.size > limit:
            top = np.argpartition(-sims[candidates], limit - 1)[:limit]
            candidates = candidates[top]
        order = candidates[np.argsort(-sims[candidates], kind="stable")]
        return [DenseHit(m.kinds[i], int(m.item_ids[i]), float(sims[i])) for i in order]

    def size(self, user_id: str) -> int:
        return len(self.sync(user_id).kinds)
