"""The dense leg: vectors live in the SQLite file; each process keeps a numpy matrix in sync with it.

Sync is by watermark, not rebuild: vector ids only grow, so a reader loads just the rows newer than the
last one it saw, and reloads a user's rows only when a deletion bumps a generation counter (docs/retrieval.md,
"Dense leg: where the vectors live"). A big matrix is scanned coarse to fine (`retrieve.coarse`); a big user's
vectors are read from the index's cache (`retrieve.sidecar`), which the index calls, never the reverse.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..config import Config
from ..store.base import Store
from ..util import give_back_freed_memory, one_blas_thread
from .coarse import CoarseScan, fit, grow
from .kinds import KIND_CODES, KIND_NAMES
from .sidecar import DEAD, LOAD_CHUNK, Sidecar, VectorRow, vector_chunks

log = logging.getLogger(__name__)


@dataclass
class _UserMatrix:
    dim: int
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    kind_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # kinds.KIND_CODES
    item_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    session_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    codes: dict[str | None, int] = field(default_factory=dict)  # session names -> small ints
    ts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float64))
    mean: np.ndarray | None = None        # mean row as of `mean_size` rows (for centring: `DenseIndex.search`)
    mean_size: int = 0
    centrality: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # row · mean, per row
    watermark: int = 0
    generation: int = -1
    basis: np.ndarray | None = None      # (dim, r) principal directions, once the matrix is big enough
    coarse: CoarseScan | None = None    # the rows' 4-bit codes on `basis`, scanned in blocks (`CoarseScan`)
    fitted_size: int = 0                 # rows the basis was fitted on
    sidecar: bool = False                # mapped from the sidecar's build `build` (`sidecar`)
    build: str = ""
    capacity: int = 0                    # rows the mapped columns span
    sessions_bytes: int = 0              # of the build's sessions.jsonl, read into `codes`
    alive: np.ndarray | None = None      # sidecar rows not deleted (None: all of them)
    q8: np.ndarray | None = None         # a big sidecar's int8 rows and their scales, which the coarse scan's
    scales: np.ndarray | None = None     # shortlist is scored on instead of `vectors` (None: float32)
    _capacity: int = 0
    _size: int = 0

    def extend(self, chunks: Iterable[Sequence[VectorRow]], total: int) -> None:
        """Append the rows of `chunks` (at most `total`, in id order). A first load reads a big store in chunks:
        each chunk's vectors are copied straight into their place, and every column grows once."""
        if total <= 0:
            return
        need = self._size + total
        if need > self._capacity:  # grow geometrically so appends stay amortised O(1)
            self._capacity = max(need, int(self._capacity * 1.5) + 1024)
            self.vectors = grow(self.vectors, self._capacity, self._size)
        item_ids, ts = np.empty(total, np.int64), np.empty(total, np.float64)
        kind_codes, session_codes = np.empty(total, np.int64), np.empty(total, np.int64)
        code, n, watermark = self.code, 0, self.watermark
        for rows in chunks:  # rows past `_size` stay invisible to searches until the columns below are in place
            rows = rows[: total - n]
            if not rows:
                break
            k = len(rows)
            block = np.frombuffer(b"".join(r[5] for r in rows), dtype=np.float32).reshape(k, self.dim)
            self.vectors[self._size + n : self._size + n + k] = block
            if self.coarse is not None:
                self.coarse.append(block)
            item_ids[n : n + k] = np.fromiter((r[2] for r in rows), np.int64, k)
            ts[n : n + k] = np.fromiter((r[4] or 0.0 for r in rows), np.float64, k)
            kind_codes[n : n + k] = np.fromiter((KIND_CODES[r[1]] for r in rows), np.int64, k)
            session_codes[n : n + k] = np.fromiter((code(r[3]) for r in rows), np.int64, k)
            n, watermark = n + k, rows[-1][0]
        self.item_ids = np.concatenate([self.item_ids, item_ids[:n]])
        self.ts = np.concatenate([self.ts, ts[:n]])
        self.kind_codes = np.concatenate([self.kind_codes, kind_codes[:n]])
        self.session_codes = np.concatenate([self.session_codes, session_codes[:n]])
        self._size += n
        self.watermark = watermark

    def reduce(self, dims: int, block: int, threads: int, sample: int = 20_000, seed: int = 0,
               basis: np.ndarray | None = None) -> None:
        """Fit the principal directions on a sample of the rows (or take `basis`, fitted before on much the same
        rows) and code every row on them (`CoarseScan`)."""
        rows = self.matrix
        picked = rows[np.random.default_rng(seed).choice(len(rows), min(sample, len(rows)), replace=False)]
        self.basis, spread = fit(picked, dims, basis if basis is not None and basis.shape == (self.dim, dims)
                                 else None)
        coarse = CoarseScan(self.basis, spread, block, threads)
        for start in range(0, len(rows), block):  # every row present now is frozen: nothing left for numpy
            coarse.append(rows[start : start + block], freeze=start + block >= len(rows))
        self.coarse = coarse

    def __len__(self) -> int:
        return self._size

    def code(self, name: str | None) -> int:
        return self.codes.setdefault(name, len(self.codes))

    @property
    def matrix(self) -> np.ndarray:
        return self.vectors[: self._size]

    def centralities(self) -> np.ndarray:
        """Each row's dot product with the mean row, the mean recomputed once the rows grew by a twentieth:
        O(new rows) per call, amortised (a sidecar keeps its own: `Sidecar.sync`)."""
        if self.sidecar:
            return self.centrality
        if self.mean is None or self._size > 1.05 * self.mean_size:
            self.mean = self.matrix.mean(axis=0, dtype=np.float64).astype(np.float32)
            self.mean_size = self._size
            self.centrality = self.matrix @ self.mean
        elif len(self.centrality) < self._size:
            fresh = self.vectors[len(self.centrality) : self._size] @ self.mean
            self.centrality = np.concatenate([self.centrality, fresh])
        return self.centrality


def _top_rows(scores: np.ndarray, k: int, sample: int = 20_000) -> np.ndarray:
    """The indices of the `k` highest scores, in no order. A cut read off a strided sample keeps ~3 × k rows, and
    only those are partitioned (an argpartition of a million scores costs ~3 ms, this under 1)."""
    n = len(scores)
    if n >= 32 * k:
        picked = scores[:: max(1, n // sample)]
        above = max(1, 3 * k * len(picked) // n)  # sampled scores above the cut: ~3 × k rows in all
        cut = np.partition(picked, len(picked) - above)[len(picked) - above]
        rows = np.flatnonzero(scores >= cut) if cut > -np.inf else scores[:0]  # -inf: mostly filtered out
        if len(rows) >= k:  # else (an unlucky sample, or few rows left by the filters) the full partition below
            return rows[np.argpartition(-scores[rows], k - 1)[:k]]
    return np.argpartition(-scores, k - 1)[:k]  # (kth near the low end: many tied -inf rows stay fast)


@dataclass
class DenseHit:
    kind: str
    item_id: int
    similarity: float


@dataclass
class DenseFound:
    """Dense hits as columns, best first (what recall fuses without making an object per hit)."""

    kind_codes: np.ndarray  # kinds.KIND_CODES
    item_ids: np.ndarray
    similarities: np.ndarray

    @property
    def kinds(self) -> list[str]:
        return [KIND_NAMES[c] for c in self.kind_codes.tolist()]


def _and(mask: np.ndarray | None, other: np.ndarray) -> np.ndarray:
    return other if mask is None else mask & other


class DenseIndex:
    """Per-user float32 matrices for one embedding model, synced from the store by watermark."""

    def __init__(self, store: Store, model_id: str, dim: int, config: Config | None = None) -> None:
        cfg = config or store.config
        self.store = store
        self.model_id = model_id
        self.dim = dim
        self.coarse_above = cfg.retrieval.dense_coarse_above      # rows from which a user's matrix is scanned coarse to fine
        self.coarse_dims = cfg.retrieval.dense_coarse_dims
        self.coarse_factor = cfg.retrieval.dense_coarse_factor    # rows scored exactly: this many times the limit
        self.coarse_block = cfg.retrieval.dense_coarse_block      # rows per frozen 4-bit block (see `CoarseScan`)
        self.coarse_threads = cfg.retrieval.dense_coarse_threads  # onnxruntime threads per block scan
        self.load_chunk = LOAD_CHUNK
        self._users: dict[str, _UserMatrix] = {}
        self._lock = threading.Lock()
        # its cache (retrieve/sidecar.py): big users' vectors in mapped files where the store says (None: nowhere)
        self.sidecar_root = store.sidecar_dir() if cfg.retrieval.dense_coarse_dims < dim else None
        self.sidecar_above = cfg.retrieval.vector_sidecar_above
        self.sidecar_compact = cfg.retrieval.vector_sidecar_compact
        self.sidecar_checks = cfg.retrieval.vector_sidecar_checks
        self.sidecar_populate = cfg.retrieval.vector_sidecar_populate
        self.sidecar_int8_above = cfg.retrieval.vector_sidecar_int8_above

    def sidecar(self, user_id: str) -> Sidecar | None:
        if self.sidecar_root is None:
            return None
        return Sidecar(self.sidecar_root, user_id, self.model_id, self.dim, self.coarse_dims, self.load_chunk)

    def sync(self, user_id: str) -> _UserMatrix:
        newest, generation = self.store.vector_watermark(user_id, self.model_id)
        with self._lock:
            m = self._users.get(user_id)
            if m is not None and m.sidecar and m.watermark >= newest and m.generation == generation:
                return m
            side = self.sidecar(user_id)
            if side is not None and self._use_sidecar(side, user_id, m, newest):
                try:
                    with side.lock():  # mapped under the lock too: no other writer removes the build meanwhile
                        h, held = side.sync(self.store, newest, generation, m.build if m is not None else None,
                                            (m.sessions_bytes, m.codes) if m is not None else None,
                                            self.sidecar_compact, self.sidecar_checks)
                        m = self._users[user_id] = self._mapped(side, h, m if held else None, generation)
                    return m
                except OSError as exc:  # a folder it cannot write, a full disk: the database path, as before
                    log.warning("vector sidecar %s unusable (%s): reading the vectors from the database", side.dir,
                                exc)
                    self.sidecar_root = None
                    m = None
            basis = None
            if m is None or m.generation != generation:
                # a deletion: the rows are read again, but the principal directions kept while the matrix is
                # within a fifth of the size they were fitted at (a refit at each deletion cost seconds)
                if m is not None and m.basis is not None:
                    basis, fitted = m.basis, m.fitted_size
                m = _UserMatrix(self.dim, vectors=np.zeros((0, self.dim), np.float32), generation=generation)
                self._users[user_id] = m
                if basis is not None:
                    m.fitted_size = fitted
            if newest > m.watermark:
                m.extend(vector_chunks(self.store, user_id, self.model_id, m.watermark, newest, self.load_chunk),
                         self.store.count_vectors(user_id, self.model_id, m.watermark, newest))
            if m.basis is None and self.coarse_dims < self.dim and len(m) >= self.coarse_above:
                keep = basis is not None and abs(len(m) - m.fitted_size) <= m.fitted_size // 5
                m.reduce(self.coarse_dims, self.coarse_block, self.coarse_threads, basis=basis if keep else None)
                if not keep:
                    m.fitted_size = len(m)
                give_back_freed_memory()  # the fit's temporaries: tens of MB the C heap would keep
            return m

    # --- the sidecar -----------------------------------------------------------------------------------
    def _use_sidecar(self, side: Sidecar, user_id: str, m: _UserMatrix | None, newest: int) -> bool:
        """Whether this user's vectors are read from the sidecar: they are already, it exists, or they are (about
        to be) `vector_sidecar_above` or more."""
        if m is not None and m.sidecar:
            return True
        held, after = (len(m), m.watermark) if m is not None else (0, 0)
        if held + newest - after < self.sidecar_above:  # ids are shared by users and models: an upper bound
            return False
        if (side.dir / "header.json").exists():
            return True
        return held + self.store.count_vectors(user_id, self.model_id, after, newest) >= self.sidecar_above

    def _mapped(self, side: Sidecar, h: dict[str, Any], m: _UserMatrix | None, generation: int) -> _UserMatrix:
        """The in-process view of build `h`: `m` (the same build, mapped before) grown to its rows, or a new one."""
        rows = h["rows"]
        int8 = rows >= self.sidecar_int8_above  # the shortlist scored on the int8 rows: only they are mapped in
        if m is None or m.capacity != h["capacity"]:
            maps = side.map(h, populate=("q8" if int8 else "vectors") if self.sidecar_populate else None)
        else:
            maps = {**side.map(h, vectors=False), "vectors": m.vectors}  # the vectors' mappings stay
            if int8:  # mapped once, when the rows first reach the threshold
                maps["q8"] = m.q8 if m.q8 is not None else side.map(h)["q8"]
        if m is None:
            m = _UserMatrix(self.dim, sidecar=True, build=h["build"])
            basis_spread = side.load_basis(h)
            if basis_spread is not None and rows:
                m.basis, spread = basis_spread
                m.coarse = CoarseScan.from_codes(m.basis, spread, maps["codes"][:rows], maps["steps"][:rows],
                                                  self.coarse_block, self.coarse_threads)
                m.fitted_size = rows
            old = rows
        else:
            old = len(m)
        if h["sessions_bytes"] > m.sessions_bytes:
            for name in side.read_sessions(h, m.sessions_bytes):
                m.codes[name] = len(m.codes)
            m.sessions_bytes = h["sessions_bytes"]
        if rows > old and m.coarse is not None:
            m.coarse.append(np.asarray(maps["vectors"][old:rows]))
        m.vectors, m.capacity = maps["vectors"], h["capacity"]
        m.q8 = maps["q8"] if int8 else None
        m.scales = maps["scales"][:rows] if int8 else None
        m.item_ids, m.kind_codes = maps["items"][:rows], maps["kinds"][:rows]
        m.session_codes, m.ts = maps["sessions"][:rows], maps["ts"][:rows]
        m.centrality = maps["centrality"][:rows]
        m.mean = np.asarray(h["mean"], np.float32) if h["mean"] is not None else None
        m.mean_size = h["mean_size"]
        m.alive = np.asarray(m.kind_codes != DEAD) if h["dead"] else None
        m._size = m._capacity = rows
        m.watermark, m.generation = h["watermark"], generation
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
        turn_ids: np.ndarray | None = None,
    ) -> DenseFound:
        """Top `limit` items by cosine (vectors are normalised, so a dot product), at or above `floor`.

        With `center` > 0 they are ranked against q − center · mean, so that hubs (greetings, "Cool! What did
        it look like?") stop matching every query (docs/retrieval.md, "The dense query: names out, hubs
        down"); the floor and the returned similarity stay the raw cosine. `turn_ids` (sorted): the only turns
        that may be found (derived items are not filtered by it). `synced=True`: the caller synced this user
        just before (no SQL here: the BM25 legs hold the connection)."""
        m = self._users.get(user_id) if synced else None  # synced: the caller has just synced it (no SQL here)
        if m is None:
            m = self.sync(user_id)
        if not len(m) or limit <= 0:
            return DenseFound(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32))
        with one_blas_thread:
            return self._search(m, query, limit, floor, kind, session_id, since, until, center, turn_ids)

    def _search(self, m: _UserMatrix, query: np.ndarray, limit: int, floor: float, kind: str | None,
                session_id: str | None, since: float | None, until: float | None, center: float,
                turn_ids: np.ndarray | None = None) -> DenseFound:
        query = query.astype(np.float32, copy=False)
        n = len(m)  # one size throughout: another thread's sync may grow the columns meanwhile
        kinds, items, sessions, times = m.kind_codes[:n], m.item_ids[:n], m.session_codes[:n], m.ts[:n]
        matrix, q8, scales = m.vectors[:n], m.q8, m.scales
        allowed = m.alive[:n] if m.alive is not None else None  # the filters, as a row mask (deleted rows: out)
        if kind is not None:
            allowed = kinds == KIND_CODES.get(kind, -1)
        if turn_ids is not None:
            allowed = _and(allowed, (kinds != KIND_CODES["turn"]) | np.isin(items, turn_ids))
        if session_id is not None:
            allowed = _and(allowed, sessions == m.codes.get(session_id, -1))
        if since is not None:
            allowed = _and(allowed, times >= since)
        if until is not None:
            allowed = _and(allowed, times <= until)
        centrality = mean = None
        if center > 0:
            with self._lock:
                centrality = m.centralities()
                mean = m.mean  # the mean those centralities were taken against
        shortlist = limit * self.coarse_factor
        if m.coarse is not None and n > shortlist:
            if allowed is not None and np.count_nonzero(allowed) <= shortlist:
                rows = np.flatnonzero(allowed)  # few rows pass the filters (a session, say): all scored exactly
            else:
                ranking_query = query if mean is None else query - center * mean  # see the docstring
                coarse = m.coarse.scores(ranking_query, n)
                if allowed is not None:
                    coarse[~allowed] = -np.inf
                rows = _top_rows(coarse, shortlist)
                if allowed is not None:
                    rows = rows[allowed[rows]]
            rows = np.sort(rows)  # gathered in address order: ~10 % faster than as the scan left them
            if q8 is not None and scales is not None and len(scales) >= n:
                row_sims = (np.take(q8, rows, axis=0).astype(np.float32) @ query) * scales[rows]
            else:
                row_sims = np.take(matrix, rows, axis=0) @ query
        else:
            sims = matrix @ query
            rows = np.flatnonzero(sims >= floor if allowed is None else (sims >= floor) & allowed)
            row_sims = sims[rows]
        keep = row_sims >= floor
        rows, row_sims = rows[keep], row_sims[keep]
        rank_by = row_sims if centrality is None else row_sims - center * centrality[rows]
        if rows.size > limit:
            top = np.argpartition(-rank_by, limit - 1)[:limit]
            rows, row_sims, rank_by = rows[top], row_sims[top], rank_by[top]
        order = np.argsort(-rank_by, kind="stable")
        rows, row_sims = rows[order], row_sims[order]
        kind_codes = np.asarray(kinds[rows], np.int64)
        if m.sidecar and (kind_codes == DEAD).any():  # zeroed by another process since this one's sync
            keep = kind_codes != DEAD
            rows, row_sims, kind_codes = rows[keep], row_sims[keep], kind_codes[keep]
        return DenseFound(kind_codes, np.asarray(items[rows]), row_sims)
