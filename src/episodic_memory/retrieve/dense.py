"""The dense leg: vectors live in the SQLite file; each process keeps a numpy matrix in sync with it.

Sync is by watermark, not rebuild: vector ids only grow, so a reader loads just the rows newer than the last one it
saw. A deletion bumps a generation counter in the file, and only then does a reader reload that user's rows. So a
process sees what another wrote without reopening, and opening a store costs one read of the user's vectors — no
re-embedding, no index build. (Measured choice: see docs/retrieval.md.)

A big matrix is scanned coarse to fine: its rows projected on their top principal directions (128 of 384) score
every row at a third of the memory traffic, and only the best few times `limit` are scored exactly.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

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
    mean: np.ndarray | None = None        # mean row as of `mean_size` rows (for centring: `DenseIndex.search`)
    mean_size: int = 0
    centrality: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # row · mean, per row
    watermark: int = 0
    generation: int = -1
    basis: np.ndarray | None = None      # (dim, r) principal directions, once the matrix is big enough
    projected: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # rows @ basis
    _capacity: int = 0
    _size: int = 0

    def append(self, rows: list[tuple[int, str, int, str, float, bytes]]) -> None:
        if not rows:
            return
        new = np.frombuffer(b"".join(r[5] for r in rows), dtype=np.float32).reshape(len(rows), self.dim)
        need = self._size + len(rows)
        if need > self._capacity:  # grow geometrically so appends stay amortised O(1)
            self._capacity = max(need, int(self._capacity * 1.5) + 1024)
            self.vectors = _grow(self.vectors, self._capacity, self._size)
        self.vectors[self._size : need] = new
        if self.basis is not None:
            self.projected = _grow(self.projected, self._capacity, self._size)
            self.projected[self._size : need] = new @ self.basis
        self.item_ids = np.concatenate([self.item_ids, np.fromiter((r[2] for r in rows), np.int64, len(rows))])
        self.ts = np.concatenate([self.ts, np.fromiter((r[4] or 0.0 for r in rows), np.float64, len(rows))])
        self.kinds.extend(r[1] for r in rows)
        code = self.code
        self.kind_codes = np.concatenate([self.kind_codes, np.fromiter((code(r[1]) for r in rows), np.int32)])
        self.session_codes = np.concatenate(
            [self.session_codes, np.fromiter((code(r[3]) for r in rows), np.int64)])
        self._size = need
        self.watermark = rows[-1][0]

    def reduce(self, dims: int, sample: int = 20_000, seed: int = 0) -> None:
        """Fit the principal directions on a sample of the rows and project every row on them."""
        rows = self.matrix
        picked = rows[np.random.default_rng(seed).choice(len(rows), min(sample, len(rows)), replace=False)]
        centred = picked - picked.mean(axis=0)
        _, directions = np.linalg.eigh(centred.T @ centred)  # ascending eigenvalues
        self.basis = np.ascontiguousarray(directions[:, ::-1][:, :dims], dtype=np.float32)
        self.projected = np.empty((self._capacity, dims), np.float32)
        self.projected[: self._size] = rows @ self.basis

    def code(self, name: str | None) -> int:
        return self.codes.setdefault(name, len(self.codes))

    @property
    def matrix(self) -> np.ndarray:
        return self.vectors[: self._size]

    def centralities(self) -> np.ndarray:
        """Each row's dot product with the mean row. The mean is recomputed once the rows grew by a twentieth (a
        collection's mean barely moves as it grows), so this costs O(new rows) per call, amortised."""
        if self.mean is None or self._size > 1.05 * self.mean_size:
            self.mean = self.matrix.mean(axis=0, dtype=np.float64).astype(np.float32)
            self.mean_size = self._size
            self.centrality = self.matrix @ self.mean
        elif len(self.centrality) < self._size:
            fresh = self.vectors[len(self.centrality) : self._size] @ self.mean
            self.centrality = np.concatenate([self.centrality, fresh])
        return self.centrality


def _grow(array: np.ndarray, capacity: int, size: int) -> np.ndarray:
    """`array` with room for `capacity` rows, its first `size` rows kept."""
    if len(array) >= capacity:
        return array
    grown = np.empty((capacity, array.shape[1]), array.dtype)
    grown[:size] = array[:size]
    return grown


@dataclass
class DenseHit:
    kind: str
    item_id: int
    similarity: float


@dataclass
class DenseFound:
    """Dense hits as columns, best first (what recall fuses without making an object per hit)."""

    kinds: list[str]
    item_ids: np.ndarray
    similarities: np.ndarray


def _and(mask: np.ndarray | None, other: np.ndarray) -> np.ndarray:
    return other if mask is None else mask & other


class DenseIndex:
    """Per-user float32 matrices for one embedding model, synced from the store by watermark."""

    def __init__(self, store: SQLiteStore, model_id: str, dim: int, *, coarse_above: int = 50_000,
                 coarse_dims: int = 128, coarse_factor: int = 4) -> None:
        self.store = store
        self.model_id = model_id
        self.dim = dim
        self.coarse_above = coarse_above      # rows from which a user's matrix is scanned coarse to fine
        self.coarse_dims = coarse_dims
        self.coarse_factor = coarse_factor    # rows scored exactly: this many times the limit
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
            if m.basis is None and self.coarse_dims < self.dim and len(m.kinds) >= self.coarse_above:
                m.reduce(self.coarse_dims)
            return m

    def search(self, user_id: str, query: np.ndarray, limit: int, **options: Any) -> list[DenseHit]:
        """`search_arrays` as one `DenseHit` per item."""
        found = self.search_arrays(user_id, query, limit, **options)
        return [DenseHit(k, int(i), float(s)) for k, i, s in zip(found.kinds, found.item_ids, found.similarities,
                                                                  strict=True)]

    def search_arrays(
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
        center: float = 0.0,
        synced: bool = False,
    ) -> DenseFound:
        """Top `limit` items by cosine (vectors are normalised, so a dot product), at or above `floor`.

        With `center` > 0 they are ranked by q · d − center · (mean row · d), i.e. against q − center · mean (at 1,
        the dot product in the mean-centred space): hubs, items close to the whole collection (greetings, "Cool!
        What did it look like?"), stop matching every query. The floor and the returned similarity stay the raw
        cosine. Cost: one vector subtraction (row · mean is kept per row).

        `synced=True` skips reading the watermark: the caller synced this user just before (recall does, so that the
        search itself runs no SQL while the BM25 legs hold the connection)."""
        m = self._users.get(user_id) if synced else None  # synced: the caller has just synced it (no SQL here)
        if m is None:
            m = self.sync(user_id)
        if not m.kinds or limit <= 0:
            return DenseFound([], np.zeros(0, np.int64), np.zeros(0, np.float32))
        query = query.astype(np.float32, copy=False)
        allowed = None  # the filters, as a row mask
        if kind is not None:
            allowed = m.kind_codes == m.codes.get(kind, -1)
        if session_id is not None:
            allowed = _and(allowed, m.session_codes == m.codes.get(session_id, -1))
        if since is not None:
            allowed = _and(allowed, m.ts >= since)
        if until is not None:
            allowed = _and(allowed, m.ts <= until)
        centrality = None
        if center > 0:
            with self._lock:
                centrality = m.centralities()
        shortlist = limit * self.coarse_factor
        if m.basis is not None and len(m.kinds) > shortlist:
            ranking_query = query if centrality is None else query - center * m.mean  # see the docstring
            coarse = m.projected[: len(m.kinds)] @ (ranking_query @ m.basis)
            if allowed is not None:
                coarse[~allowed] = -np.inf
            rows = np.argpartition(-coarse, shortlist - 1)[:shortlist]
            if allowed is not None:
                rows = rows[allowed[rows]]
            row_sims = m.matrix[rows] @ query
        else:
            sims = m.matrix @ query
            rows = np.flatnonzero(sims >= floor if allowed is None else (sims >= floor) & allowed)
            row_sims = sims[rows]
        keep = row_sims >= floor
        rows, row_sims = rows[keep], row_sims[keep]
        rank_by = row_sims if centrality is None else row_sims - center * centrality[rows]
        if rows.size > limit:
            top = np.argpartition(-rank_by, limit - 1)[:limit]
            rows, row_sims, rank_by = rows[top], row_sims[top], rank_by[top]
        order = np.argsort(-rank_by, kind="stable")
        rows = rows[order]
        return DenseFound([m.kinds[i] for i in rows.tolist()], m.item_ids[rows], row_sims[order])

    def size(self, user_id: str) -> int:
        return len(self.sync(user_id).kinds)
