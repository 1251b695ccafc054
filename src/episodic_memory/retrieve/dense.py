"""The dense leg: vectors live in the SQLite file; each process keeps a numpy matrix in sync with it.

Sync is by watermark, not rebuild: vector ids only grow, so a reader loads just the rows newer than the last one it
saw. A deletion bumps a generation counter in the file, and only then does a reader reload that user's rows. So a
process sees what another wrote without reopening, and opening a store costs one read of the user's vectors — no
re-embedding, no index build. (Measured choice: see docs/retrieval.md.)

A big matrix is scanned coarse to fine: its rows projected on their top principal directions (128 of 384) and
rounded to 4 bits score every row (68 bytes a row read, against 1,536 for the exact scan), and only the best few
times `limit` are scored exactly. The 4-bit scan runs in onnxruntime (loaded anyway for the embedder), whose
int4 × int8 kernels numpy lacks; see `_CoarseScan`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..config import Config
from ..store.base import Store
from ..store.sidecar import DEAD, Sidecar, SidecarStore, reconcile
from ..util import give_back_freed_memory, one_blas_thread
from .kinds import KIND_CODES, KIND_NAMES

log = logging.getLogger(__name__)
VectorRow = tuple[int, str, int, str, float, bytes]  # (vector id, kind, item_id, session_id, ts, float32 bytes)
LOAD_CHUNK = 32_768  # vectors read from the store per query when a matrix syncs


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
    coarse: _CoarseScan | None = None    # the rows' 4-bit codes on `basis`, scanned in blocks (`_CoarseScan`)
    fitted_size: int = 0                 # rows the basis was fitted on
    sidecar: bool = False                # mapped from the sidecar's build `build` (store/sidecar.py)
    build: str = ""
    capacity: int = 0                    # rows the mapped columns span
    sessions_bytes: int = 0              # of the build's sessions.jsonl, read into `codes`
    alive: np.ndarray | None = None      # sidecar rows not deleted (None: all of them)
    q8: np.ndarray | None = None         # a big sidecar's int8 rows and their scales, which the coarse scan's
    scales: np.ndarray | None = None     # shortlist is scored on instead of `vectors` (None: float32)
    _capacity: int = 0
    _size: int = 0

    def append(self, rows: Sequence[VectorRow]) -> None:
        self.extend([rows], len(rows))

    def extend(self, chunks: Iterable[Sequence[VectorRow]], total: int) -> None:
        """Append the rows of `chunks` (at most `total`, in id order). A first load reads a big store in chunks:
        each chunk's vectors are copied straight into their place, and every column grows once."""
        if total <= 0:
            return
        need = self._size + total
        if need > self._capacity:  # grow geometrically so appends stay amortised O(1)
            self._capacity = max(need, int(self._capacity * 1.5) + 1024)
            self.vectors = _grow(self.vectors, self._capacity, self._size)
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
        rows) and code every row on them (`_CoarseScan`)."""
        rows = self.matrix
        picked = rows[np.random.default_rng(seed).choice(len(rows), min(sample, len(rows)), replace=False)]
        if basis is not None and basis.shape == (self.dim, dims):
            self.basis = basis
        else:
            centred = picked - picked.mean(axis=0)
            _, directions = np.linalg.eigh(centred.T @ centred)  # ascending eigenvalues
            self.basis = np.ascontiguousarray(directions[:, ::-1][:, :dims], dtype=np.float32)
        coarse = _CoarseScan(self.basis, picked @ self.basis, block, threads)
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
        """Each row's dot product with the mean row. The mean is recomputed once the rows grew by a twentieth (a
        collection's mean barely moves as it grows), so this costs O(new rows) per call, amortised. (A sidecar's
        are kept in it, the mean in its header: `DenseIndex._sync_sidecar`.)"""
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


class _CoarseScan:
    """Approximate ranking scores of every row, from 4-bit codes of its coordinates on the principal directions.

    Each coordinate is divided by its spread over the fitting sample (every direction gets the same share of the
    16 levels; the query's weights take the spreads back), then a row's coordinates are rounded on one step per row
    (its largest / 7). Rounding costs ranking a little, which a shortlist of 7 × the pool instead of 4 × wins back
    (measured at 1M: same top 10 as float32 coordinates, top-300 overlap with the exact scan 0.986 vs 0.977).

    Rows are frozen in blocks of up to `block`, each an onnxruntime session of one `MatMulNBits` (4-bit weights,
    int8 dot products: the kernel LLMs decode with; numpy has no fast int8 or int4 product) holding the block's
    codes as a constant, packed once at load: 64 bytes a row (128 directions) and its step, where the float32
    coordinates scanned before took 512 (the scan is memory-bound: 1M rows, 25 ms → 8 on one thread, ~5 on two).
    Every row present when the scan is built is frozen then; rows added later are scored in numpy (float32,
    decoded) until `block` of them are frozen together."""

    def __init__(self, basis: np.ndarray, sample: np.ndarray, block: int, threads: int) -> None:
        self.basis = basis
        self.spread = sample.std(axis=0).astype(np.float32)
        self.spread[self.spread == 0] = 1.0
        self.block = block
        self.threads = threads
        # (sessions of the frozen blocks in row order, the later rows decoded, their steps): replaced whole and
        # never changed in place, so that a search reads one consistent state while another thread appends
        self.state: tuple[tuple[Any, ...], np.ndarray, np.ndarray] = (
            (), np.zeros((0, basis.shape[1]), np.float32), np.zeros(0, np.float32))
        self._decoded, self._steps = self.state[1], self.state[2]  # buffers behind the views in `state`

    @classmethod
    def from_codes(cls, basis: np.ndarray, spread: np.ndarray, packed: np.ndarray, steps: np.ndarray, block: int,
                   threads: int) -> _CoarseScan:
        """The scan of rows coded before (`code_rows`, kept in a sidecar): every row frozen, as `_UserMatrix.reduce`
        leaves them."""
        scan = cls.__new__(cls)
        scan.basis, scan.spread, scan.block, scan.threads = basis, spread, block, threads
        r = basis.shape[1]
        blocks = tuple(_int4_session_packed(np.asarray(packed[start : start + block]),
                                            np.asarray(steps[start : start + block]), r, threads)
                       for start in range(0, len(packed), block))
        scan.state = (blocks, np.zeros((0, r), np.float32), np.zeros(0, np.float32))
        scan._decoded, scan._steps = scan.state[1], scan.state[2]
        return scan

    def append(self, rows: np.ndarray, *, freeze: bool = False) -> None:
        """Code `rows`; whenever `block` rows are waiting they are frozen, and with `freeze` the rest too."""
        blocks, decoded, steps = self.state
        done, need = len(decoded), len(decoded) + len(rows)
        if need > len(self._decoded):  # grow geometrically: appends stay amortised O(1)
            self._decoded = _grow(self._decoded, max(need, 2 * len(self._decoded)), done)
            self._steps = np.concatenate([self._steps[:done], np.empty(len(self._decoded) - done, np.float32)])
        if len(rows):  # written past what any reader sees
            coords = (rows @ self.basis) / self.spread
            step = np.abs(coords).max(axis=1) / 7
            step[step == 0] = 1.0
            self._decoded[done:need] = np.rint(coords / step[:, None]) * step[:, None]
            self._steps[done:need] = step
        decoded, steps = self._decoded[:need], self._steps[:need]
        if need >= self.block or (freeze and need):
            while len(decoded) >= self.block or (freeze and len(decoded)):
                codes = np.rint(decoded[: self.block] / steps[: self.block, None]).astype(np.int8)
                blocks = (*blocks, _int4_session(codes, steps[: self.block], self.threads))
                decoded, steps = decoded[self.block :], steps[self.block :]
            # the rest moves to new buffers: readers may still hold views of the old ones
            self._decoded, self._steps = decoded, steps = decoded.copy(), steps.copy()
        self.state = (blocks, decoded, steps)

    def scores(self, query: np.ndarray, n: int) -> np.ndarray:
        """float32 scores of the first `n` rows against `query` (a vector in the rows' space)."""
        blocks, decoded, _ = self.state
        weights = ((query @ self.basis) * self.spread).astype(np.float32)
        feed = {"weights": weights[None]}
        parts = [session.run(None, feed)[0][0] for session in blocks]
        parts.append(decoded @ weights)
        return np.concatenate(parts)[:n]


def code_width(r: int) -> int:
    """Bytes of packed 4-bit codes per row for `r` directions (r rounded up to a power of two, at least 16)."""
    return max(16, 1 << (r - 1).bit_length()) // 2


def pack_codes(codes: np.ndarray) -> np.ndarray:
    """4-bit `codes` (n, r) in -8..7 as `MatMulNBits` holds them: (n, code_width(r)) bytes, low nibble first."""
    n, r = codes.shape
    width = 2 * code_width(r)
    nibbles = np.full((n, width), 8, np.uint8)  # stored as code + 8; the padding decodes to 0
    nibbles[:, :r] = codes + 8
    return nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)


def code_rows(rows: np.ndarray, basis: np.ndarray, spread: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(packed 4-bit codes, steps) of `rows`, exactly as `_CoarseScan.append` then a freeze code them."""
    coords = (rows @ basis) / spread
    step = np.abs(coords).max(axis=1) / 7
    step[step == 0] = 1.0
    return pack_codes(np.rint(coords / step[:, None]).astype(np.int8)), step.astype(np.float32)


def _int4_session(codes: np.ndarray, steps: np.ndarray, threads: int) -> Any:
    """An onnxruntime session scoring rows held as 4-bit `codes` (n, r) in -8..7 times `steps` (n,) against float
    weights (1, r): one `MatMulNBits` block per row (block_size: r rounded up to a power of two, at least 16)."""
    return _int4_session_packed(pack_codes(codes), steps, codes.shape[1], threads)


def _int4_session_packed(packed: np.ndarray, steps: np.ndarray, r: int, threads: int) -> Any:
    """`_int4_session` of codes packed by `pack_codes`."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # idle between searches
    options.enable_cpu_mem_arena = False  # an arena per block would keep twice the codes' size (measured)
    return ort.InferenceSession(_matmul_nbits_model(packed, steps, r), options, providers=["CPUExecutionProvider"])


def _matmul_nbits_model(packed: np.ndarray, steps: np.ndarray, r: int) -> bytes:
    """The serialized ONNX model of one `MatMulNBits` node: scores (1, n) = weights (1, r) × the rows' 4-bit codes
    (block_size: the packed width) times their steps; the codes and steps are constants.

    Written as protobuf directly: importing the `onnx` package to build it cost 0.5–2 s of a process's first
    recall, more than the sidecar saves. Messages are lists of byte strings joined once at the end, so the codes are
    copied once. (tests/test_sidecar.py checks it against the `onnx` helpers' model.)"""
    n, half = packed.shape
    width = 2 * half
    Parts = list[bytes | memoryview]

    def message(field: int, parts: Parts) -> Parts:
        return [_varint(field << 3 | 2) + _varint(sum(len(p) for p in parts)), *parts]

    def string(field: int, value: bytes | memoryview) -> Parts:
        return message(field, [value])

    def integer(field: int, value: int) -> Parts:
        return [_varint(field << 3) + _varint(value)]

    def attribute(name: str, value: int) -> Parts:  # AttributeProto: name, i, type INT
        return message(5, [*string(1, name.encode()), *integer(3, value), *integer(20, 2)])

    def tensor(name: str, data_type: int, dims: tuple[int, ...], raw: memoryview) -> Parts:  # TensorProto
        return message(5, [*[p for d in dims for p in integer(1, d)], *integer(2, data_type),
                           *string(8, name.encode()), *string(9, raw)])

    def value_info(field: int, name: str, dims: tuple[int, ...]) -> Parts:  # ValueInfoProto of a float tensor
        shape = [p for d in dims for p in message(1, integer(1, d))]
        return message(field, [*string(1, name.encode()),
                               *message(2, message(1, [*integer(1, 1), *message(2, shape)]))])

    node = message(1, [*string(1, b"weights"), *string(1, b"codes"), *string(1, b"steps"), *string(2, b"scores"),
                       *string(4, b"MatMulNBits"), *attribute("K", r), *attribute("N", n),
                       *attribute("accuracy_level", 4), *attribute("bits", 4),  # 4: int8 arithmetic
                       *attribute("block_size", width), *string(7, b"com.microsoft")])
    codes = np.ascontiguousarray(packed, np.uint8).data.cast("B")  # the arrays' own bytes, not copies
    scales = np.ascontiguousarray(steps, np.float32).data.cast("B")
    graph = message(7, [*node, *string(2, b"coarse"), *tensor("codes", 2, (n, 1, half), codes),  # 2: UINT8
                        *tensor("steps", 1, (n,), scales),  # 1: FLOAT
                        *value_info(11, "weights", (1, r)), *value_info(12, "scores", (1, n))])
    opsets = [*message(8, [*string(1, b""), *integer(2, 13)]), *message(8, [*string(1, b"com.microsoft"),
                                                                            *integer(2, 1)])]
    return b"".join([*integer(1, 8), *graph, *opsets])  # ir_version 8


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


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
        self.coarse_block = cfg.retrieval.dense_coarse_block      # rows per frozen 4-bit block (see `_CoarseScan`)
        self.coarse_threads = cfg.retrieval.dense_coarse_threads  # onnxruntime threads per block scan
        self.load_chunk = LOAD_CHUNK
        self._users: dict[str, _UserMatrix] = {}
        self._lock = threading.Lock()
        # the sidecar (store/sidecar.py): a SQLite store's big users' vectors in mapped files beside the database
        root = store.sidecar_dir() if isinstance(store, SidecarStore) and cfg.retrieval.dense_coarse_dims < dim else None
        self.sidecar_root = root
        self.sidecar_above = cfg.retrieval.vector_sidecar_above
        self.sidecar_compact = cfg.retrieval.vector_sidecar_compact
        self.sidecar_checks = cfg.retrieval.vector_sidecar_checks
        self.sidecar_populate = cfg.retrieval.vector_sidecar_populate
        self.sidecar_int8_above = cfg.retrieval.vector_sidecar_int8_above

    def sidecar(self, user_id: str) -> Sidecar | None:
        if self.sidecar_root is None:
            return None
        return Sidecar(self.sidecar_root, user_id, self.model_id, self.dim, code_width(self.coarse_dims))

    def sync(self, user_id: str) -> _UserMatrix:
        newest, generation = self.store.vector_watermark(user_id, self.model_id)
        with self._lock:
            m = self._users.get(user_id)
            if m is not None and m.sidecar and m.watermark >= newest and m.generation == generation:
                return m
            side = self.sidecar(user_id)
            if side is not None and self._use_sidecar(side, user_id, m, newest):
                try:
                    m = self._sync_sidecar(side, user_id, m, newest, generation)
                    self._users[user_id] = m
                    return m
                except OSError as exc:  # a folder it cannot write, a full disk: the database path, as before
                    log.warning("vector sidecar %s unusable (%s): reading the vectors from the database", side.dir,
                                exc)
                    self.sidecar_root = None
                    m = None
            basis = None
            if m is None or m.generation != generation:
                # a deletion (a superseded fact's vector, say): the rows are read again, but the principal
                # directions fitted on them are kept while the matrix is within a fifth of its size then (refitting
                # them at every deletion cost a consolidation run ~1 s at 10k vectors)
                if m is not None and m.basis is not None:
                    basis, fitted = m.basis, m.fitted_size
                m = _UserMatrix(self.dim, vectors=np.zeros((0, self.dim), np.float32), generation=generation)
                self._users[user_id] = m
                if basis is not None:
                    m.fitted_size = fitted
            if newest > m.watermark:
                m.extend(self._chunks(user_id, m.watermark, newest),
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

    def _sync_sidecar(self, side: Sidecar, user_id: str, m: _UserMatrix | None, newest: int, generation: int
                      ) -> _UserMatrix:
        """Bring the sidecar in step with the database (under its lock), then map what it holds."""
        with side.lock():
            h = side.read_header()
            if m is not None and (not m.sidecar or h is None or m.build != h["build"]):
                m = None  # a build this process has not checked yet
            if h is not None and h["generation"] == generation and newest < h["watermark"]:
                h = None  # rows the database never had, and no deletion since: not this database's sidecar
            if h is not None and m is None and not self._checks_out(side, h, user_id, generation):
                h = None
            if h is not None and h["generation"] != generation:
                reconcile(side, h, self.store)  # type: ignore[arg-type]  # (a SidecarStore: see __init__)
                h["generation"] = generation
                if h["dead"] > self.sidecar_compact * max(1, h["rows"]):
                    h = None  # written again without the dead rows
                else:
                    side.write_header(h)
            if h is None:
                h, m = self._build(side, user_id, newest, generation), None
                give_back_freed_memory()  # the build's temporaries (~70 MB at 8k rows) the C heap would keep
            else:
                changed = newest > h["watermark"]
                if changed:
                    self._append(side, h, user_id, newest, m)
                if h["rows"] - h["dead"] > 1.05 * h["mean_size"]:
                    self._recentre(side, h)
                    changed = True
                if changed:
                    side.write_header(h)
            return self._mapped(side, h, m, generation)

    def _checks_out(self, side: Sidecar, h: dict[str, Any], user_id: str, generation: int) -> bool:
        """Spot checks of a build against the database: its newest live row and random others have the same id,
        kind, item and vector bytes there (a deleted one may be missing only if a deletion is not reconciled yet)."""
        rows = int(h["rows"])
        if not rows:
            return True
        maps = side.map(h)
        live = np.flatnonzero(np.asarray(maps["kinds"][:rows]) != DEAD)
        if not live.size:
            return True
        rng = np.random.default_rng()
        picked = np.unique(np.append(rng.choice(live, min(live.size, self.sidecar_checks - 1), replace=False),
                                     live[-1]))
        ids = np.asarray(maps["ids"])[picked]
        found = {r[0]: r for r in self.store.vectors_by_id(  # type: ignore[attr-defined]  # a SidecarStore
            user_id, self.model_id, ids.tolist())}
        for row, vid in zip(picked.tolist(), ids.tolist(), strict=True):
            got = found.get(vid)
            if got is None:
                if h["generation"] == generation:
                    return False
                continue
            if (KIND_CODES.get(got[1], -2) != int(maps["kinds"][row]) or got[2] != int(maps["items"][row])
                    or got[3] != maps["vectors"][row].tobytes()):
                return False
        return True

    def _rows(self, chunk: Sequence[VectorRow], codes: dict[str | None, int], names: list[str | None]
              ) -> dict[str, np.ndarray]:
        """A chunk of `load_vectors` rows as sidecar columns; sessions not in `codes` get the next codes (and go to
        `names`)."""
        k = len(chunk)
        for r in chunk:
            if r[3] not in codes:
                codes[r[3]] = len(codes)
                names.append(r[3])
        return {"vectors": np.frombuffer(b"".join(r[5] for r in chunk), dtype=np.float32).reshape(k, self.dim),
                "ids": np.fromiter((r[0] for r in chunk), np.int64, k),
                "items": np.fromiter((r[2] for r in chunk), np.int64, k),
                "kinds": np.fromiter((KIND_CODES[r[1]] for r in chunk), np.int64, k),
                "sessions": np.fromiter((codes[r[3]] for r in chunk), np.int64, k),
                "ts": np.fromiter((r[4] or 0.0 for r in chunk), np.float64, k)}

    def _build(self, side: Sidecar, user_id: str, newest: int, generation: int) -> dict[str, Any]:
        """Write the user's vectors up to `newest` to a new build (its coarse codes and centralities too), make it
        the current one, and zero and remove the others."""
        count = self.store.count_vectors(user_id, self.model_id, 0, newest)
        side.dir.mkdir(parents=True, exist_ok=True)
        h = side.new_build(count + count // 4 + 1024)
        h["generation"], h["watermark"] = generation, newest
        codes: dict[str | None, int] = {}
        total = np.zeros(self.dim, np.float64)
        for chunk in self._chunks(user_id, 0, newest):
            names: list[str | None] = []
            cols = self._rows(chunk, codes, names)
            side.reserve(h, h["rows"] + len(chunk))
            side.write_rows(h, h["rows"], cols)
            side.append_sessions(h, names)
            total += cols["vectors"].sum(axis=0, dtype=np.float64)
            h["rows"] += len(chunk)
        rows = h["rows"]
        matrix = side.map(h)["vectors"][:rows]
        if rows:
            # the principal directions as `_UserMatrix.reduce` fits them (same sample, same seed)
            picked = np.asarray(matrix[np.sort(np.random.default_rng(0).choice(rows, min(20_000, rows),
                                                                               replace=False))])
            centred = picked - picked.mean(axis=0)
            _, directions = np.linalg.eigh(centred.T @ centred)
            basis = np.ascontiguousarray(directions[:, ::-1][:, : self.coarse_dims], dtype=np.float32)
            spread = (picked @ basis).std(axis=0).astype(np.float32)
            spread[spread == 0] = 1.0
            side.save_basis(h, basis, spread)
            mean = (total / rows).astype(np.float32)
            h["mean"], h["mean_size"] = mean.tolist(), rows
            for start in range(0, rows, self.load_chunk):
                block = np.asarray(matrix[start : start + self.load_chunk])
                packed, steps = code_rows(block, basis, spread)
                side.write_rows(h, start, {"codes": packed, "steps": steps, "centrality": block @ mean})
        del matrix
        side.write_header(h)
        for old in side.dir.glob("d-*"):  # older builds: zeroed, then gone
            if old.name != f"d-{h['build']}":
                side.remove_build({**h, "build": old.name[2:]})
        return h

    def _append(self, side: Sidecar, h: dict[str, Any], user_id: str, newest: int, m: _UserMatrix | None) -> None:
        """Write the user's vectors past the build's watermark, up to `newest`."""
        if m is not None and m.sessions_bytes == h["sessions_bytes"]:
            codes = dict(m.codes)
        else:
            codes = {name: i for i, name in enumerate(side.read_sessions(h))}
        basis_spread = side.load_basis(h)
        mean = np.asarray(h["mean"], np.float32) if h["mean"] is not None else None
        for chunk in self._chunks(user_id, h["watermark"], newest):
            names: list[str | None] = []
            cols = self._rows(chunk, codes, names)
            if basis_spread is not None:
                cols["codes"], cols["steps"] = code_rows(cols["vectors"], *basis_spread)
            if mean is not None:
                cols["centrality"] = cols["vectors"] @ mean
            if h["rows"] + len(chunk) > h["capacity"]:
                side.reserve(h, max(h["rows"] + len(chunk), h["capacity"] * 5 // 4 + 1024))
            side.write_rows(h, h["rows"], cols)
            side.append_sessions(h, names)
            h["rows"] += len(chunk)
        h["watermark"] = newest

    def _recentre(self, side: Sidecar, h: dict[str, Any]) -> None:
        """The mean of the live rows again, and every row's centrality against it, in a file of its own (a reader
        keeps the one its header named until its next sync)."""
        rows, live = h["rows"], h["rows"] - h["dead"]
        matrix = side.map(h)["vectors"][:rows]
        total = np.zeros(self.dim, np.float64)
        for start in range(0, rows, self.load_chunk):
            total += np.asarray(matrix[start : start + self.load_chunk]).sum(axis=0, dtype=np.float64)
        mean = (total / max(1, live)).astype(np.float32)
        old = side.data(h) / h["centrality"]
        h["centrality"] = f"centrality-{live}.f32"
        with open(side.data(h) / h["centrality"], "wb") as fh:
            fh.truncate(h["capacity"] * 4)
        for start in range(0, rows, self.load_chunk):
            side.write_rows(h, start, {"centrality": np.asarray(matrix[start : start + self.load_chunk]) @ mean})
        h["mean"], h["mean_size"] = mean.tolist(), live
        if old.name != h["centrality"]:
            old.unlink(missing_ok=True)

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
            m.codes = {}
            basis_spread = side.load_basis(h)
            if basis_spread is not None and rows:
                m.basis, spread = basis_spread
                m.coarse = _CoarseScan.from_codes(m.basis, spread, maps["codes"][:rows], maps["steps"][:rows],
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

    def _chunks(self, user_id: str, after: int, upto: int) -> Iterator[list[VectorRow]]:
        """A user's vectors with after < id ≤ upto, read `load_chunk` at a time (a million at once held ~3 GB of
        Python objects and copies before the matrix had them)."""
        while after < upto:
            rows = self.store.load_vectors(user_id, self.model_id, after, upto, self.load_chunk)
            if not rows:
                return
            yield rows
            after = rows[-1][0]

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

        With `center` > 0 they are ranked by q · d − center · (mean row · d), i.e. against q − center · mean (at 1,
        the dot product in the mean-centred space): hubs, items close to the whole collection (greetings, "Cool!
        What did it look like?"), stop matching every query. The floor and the returned similarity stay the raw
        cosine. Cost: one vector subtraction (row · mean is kept per row).

        `turn_ids` (sorted): the only turns that may be found (derived items are not filtered by it).

        `synced=True` skips reading the watermark: the caller synced this user just before (recall does, so that the
        search itself runs no SQL while the BM25 legs hold the connection)."""
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

    def size(self, user_id: str) -> int:
        return len(self.sync(user_id))
