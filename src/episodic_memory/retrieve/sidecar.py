"""The vector sidecar: the dense index's cache of a user's vectors of one model, column files beside the database,
memory-mapped in O(1) where reading a million rows out of the `vectors` table took ~9 s.

The database stays the source of truth (`Sidecar.sync`, `sweep`): docs/retrieval.md, "The 1M cold start: a
vector sidecar", has the rules and their tests.

    <store's sidecar_dir>/                 (`Config.retrieval.vector_sidecar_dir`; default `<db>.vectors/`)
        lock                               a file lock: one writer at a time (readers take no lock)
        u-<sha256(user \\0 model)[:24]>/
            header.json                    the build's header (`new_build`): replaced whole, written last
            d-<build id>/                  one build's columns, `capacity` rows each (rows past `rows`: unused)
                vectors.f32                float32 × dim, as in the `vectors` table
                vectors.i8 scales.f32      the same rows in int8, a scale each (`quantize_rows`), for big ones
                ids.i64 items.i64 kinds.i8 sessions.i32 ts.f64
                codes.u8 steps.f32         the 4-bit coarse codes (`retrieve.coarse`) and row steps
                centrality-<n>.f32         row · mean (the mean of the first n rows, in the header)
                basis.npy                  principal directions (dim × r) and, as a last row, their spreads
                sessions.jsonl             session names, one JSON value a line: a row's session code is its line
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
import threading
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock

from ..store.base import VectorStore
from ..util import give_back_freed_memory
from .coarse import code_rows, code_width, fit
from .kinds import KIND_CODES

FORMAT = 2  # 2: the int8 rows (vectors.i8, scales.f32)
COLUMNS: dict[str, tuple[str, np.dtype[Any]]] = {  # name -> (file, dtype); vectors and codes are rows of many
    "ids": ("ids.i64", np.dtype(np.int64)),
    "items": ("items.i64", np.dtype(np.int64)),
    "kinds": ("kinds.i8", np.dtype(np.int8)),
    "sessions": ("sessions.i32", np.dtype(np.int32)),
    "ts": ("ts.f64", np.dtype(np.float64)),
    "steps": ("steps.f32", np.dtype(np.float32)),
    "scales": ("scales.f32", np.dtype(np.float32)),
}
DEAD = -1  # the kind code of a deleted row
VectorRow = tuple[int, str, int, str, float, bytes]  # (vector id, kind, item_id, session_id, ts, float32 bytes)
LOAD_CHUNK = 32_768  # vectors read from the store per query


def vector_chunks(store: VectorStore, user_id: str, model: str, after: int, upto: int, size: int = LOAD_CHUNK
                  ) -> Iterator[list[VectorRow]]:
    """A user's vectors with after < id ≤ upto, read `size` at a time (a million at once held ~3 GB of Python
    objects and copies before the matrix had them)."""
    while after < upto:
        rows = store.load_vectors(user_id, model, after, upto, size)
        if not rows:
            return
        yield rows
        after = rows[-1][0]


def quantize_rows(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows as int8 and one scale each (a row ≈ int8 × scale: its largest coordinate maps to ±127), so a dot
    product with a float32 query is `(int8 @ query) * scale`, within ~1e-3 of the float32 one for unit rows."""
    vectors = np.asarray(vectors, np.float32)
    top = np.abs(vectors).max(axis=1) if vectors.size else np.zeros(len(vectors), np.float32)
    scales = np.where(top > 0, top / 127.0, 1.0).astype(np.float32)
    return np.rint(vectors / scales[:, None]).astype(np.int8), scales


def folder_name(user_id: str, model: str) -> str:
    return "u-" + hashlib.sha256(f"{user_id}\0{model}".encode()).hexdigest()[:24]


class Sidecar:
    """The files of one (user, model): header, lock and the current build's columns. `dims`: the coarse scan's
    directions (`retrieve.coarse`), `chunk`: rows read from the database at a time."""

    def __init__(self, root: Path, user_id: str, model: str, dim: int, dims: int, chunk: int = LOAD_CHUNK) -> None:
        self.root = root
        self.dir = root / folder_name(user_id, model)
        self.user_id, self.model, self.dim = user_id, model, dim
        self.dims, self.width, self.chunk = dims, code_width(dims), chunk  # width: bytes of 4-bit codes per row

    # --- in step with the database ---------------------------------------------------------------------
    def sync(self, store: VectorStore, newest: int, generation: int, build: str | None,
             known: tuple[int, dict[str | None, int]] | None, compact: float, checks: int
             ) -> tuple[dict[str, Any], bool]:
        """Bring the files in step with the database (the caller holds `lock`): its vectors up to id `newest`, its
        deletions up to `generation`. `build`: the build the caller has mapped (None: none), `known` its (sessions'
        bytes, session codes). Returns the header and whether it is still that build (else the caller maps it anew)."""
        h = self.read_header()
        held = h is not None and build == h["build"]
        if h is not None and h["generation"] == generation and newest < h["watermark"]:
            h = None  # rows the database never had, and no deletion since: not this database's sidecar
        if h is not None and not held and not self._checks_out(store, h, generation, checks):
            h = None  # a build the caller has not checked yet, and it does not check out
        if h is not None and h["generation"] != generation:
            reconcile(self, h, store)
            h["generation"] = generation
            if h["dead"] > compact * max(1, h["rows"]):
                h = None  # written again without the dead rows
            else:
                self.write_header(h)
        if h is None:
            h = self._build(store, newest, generation)
            give_back_freed_memory()  # the build's temporaries (~70 MB at 8k rows) the C heap would keep
            return h, False
        changed = newest > h["watermark"]
        if changed:
            self._append(store, h, newest, known if held else None)
        if h["rows"] - h["dead"] > 1.05 * h["mean_size"]:
            self._recentre(h)
            changed = True
        if changed:
            self.write_header(h)
        return h, held

    def _checks_out(self, store: VectorStore, h: dict[str, Any], generation: int, checks: int) -> bool:
        """Spot checks of a build: its newest live row and `checks` − 1 random others have the same id, kind,
        item and vector bytes in the database (a deleted one may be missing before `reconcile`)."""
        rows = int(h["rows"])
        if not rows:
            return True
        maps = self.map(h)
        live = np.flatnonzero(np.asarray(maps["kinds"][:rows]) != DEAD)
        if not live.size:
            return True
        rng = np.random.default_rng()
        picked = np.unique(np.append(rng.choice(live, min(live.size, checks - 1), replace=False), live[-1]))
        for row, vid in zip(picked.tolist(), np.asarray(maps["ids"])[picked].tolist(), strict=True):
            got = store.load_vectors(self.user_id, self.model, vid - 1, vid, 1)  # (vector id, kind, item, …, bytes)
            if not got:
                if h["generation"] == generation:
                    return False
                continue
            if (KIND_CODES.get(got[0][1], -2) != int(maps["kinds"][row]) or got[0][2] != int(maps["items"][row])
                    or got[0][5] != maps["vectors"][row].tobytes()):
                return False
        return True

    def _build(self, store: VectorStore, newest: int, generation: int) -> dict[str, Any]:
        """Write the user's vectors up to `newest` to a new build (its coarse codes and centralities too), make it
        the current one, and zero and remove the others."""
        count = store.count_vectors(self.user_id, self.model, 0, newest)
        self.dir.mkdir(parents=True, exist_ok=True)
        h = self.new_build(count + count // 4 + 1024)
        h["generation"], h["watermark"] = generation, newest
        codes: dict[str | None, int] = {}
        total = np.zeros(self.dim, np.float64)
        for chunk in vector_chunks(store, self.user_id, self.model, 0, newest, self.chunk):
            cols = self._append_rows(h, chunk, codes)
            total += cols["vectors"].sum(axis=0, dtype=np.float64)
        rows = h["rows"]
        matrix = self.map(h)["vectors"][:rows]
        if rows:
            # the principal directions as `_UserMatrix.reduce` fits them (same sample, same seed)
            picked = np.asarray(matrix[np.sort(np.random.default_rng(0).choice(rows, min(20_000, rows),
                                                                               replace=False))])
            basis, spread = fit(picked, self.dims)
            self.save_basis(h, basis, spread)
            mean = (total / rows).astype(np.float32)
            h["mean"], h["mean_size"] = mean.tolist(), rows
            for start in range(0, rows, self.chunk):
                block = np.asarray(matrix[start : start + self.chunk])
                packed, steps = code_rows(block, basis, spread)
                self.write_rows(h, start, {"codes": packed, "steps": steps, "centrality": block @ mean})
        del matrix
        self.write_header(h)
        for old in self.dir.glob("d-*"):  # older builds: zeroed, then gone
            if old.name != f"d-{h['build']}":
                self.remove_build({**h, "build": old.name[2:]})
        return h

    def _append(self, store: VectorStore, h: dict[str, Any], newest: int,
                known: tuple[int, dict[str | None, int]] | None) -> None:
        """Write the user's vectors past the build's watermark, up to `newest`."""
        codes = dict(known[1]) if known is not None and known[0] == h["sessions_bytes"] else {
            name: i for i, name in enumerate(self.read_sessions(h))}
        basis_spread = self.load_basis(h)
        mean = np.asarray(h["mean"], np.float32) if h["mean"] is not None else None
        for chunk in vector_chunks(store, self.user_id, self.model, h["watermark"], newest, self.chunk):
            if h["rows"] + len(chunk) > h["capacity"]:
                self.reserve(h, max(h["rows"] + len(chunk), h["capacity"] * 5 // 4 + 1024))
            self._append_rows(h, chunk, codes, basis_spread, mean)
        h["watermark"] = newest

    def _append_rows(self, h: dict[str, Any], chunk: Sequence[VectorRow], codes: dict[str | None, int],
                     basis_spread: tuple[np.ndarray, np.ndarray] | None = None, mean: np.ndarray | None = None
                     ) -> dict[str, np.ndarray]:
        """Write `load_vectors` rows past the build's rows (coded on `basis_spread`, centred on `mean` if given);
        sessions not in `codes` get the next codes. Returns the columns written."""
        k = len(chunk)
        names: list[str | None] = []
        for r in chunk:
            if r[3] not in codes:
                codes[r[3]] = len(codes)
                names.append(r[3])
        cols: dict[str, np.ndarray] = {
            "vectors": np.frombuffer(b"".join(r[5] for r in chunk), dtype=np.float32).reshape(k, self.dim),
            "ids": np.fromiter((r[0] for r in chunk), np.int64, k),
            "items": np.fromiter((r[2] for r in chunk), np.int64, k),
            "kinds": np.fromiter((KIND_CODES[r[1]] for r in chunk), np.int64, k),
            "sessions": np.fromiter((codes[r[3]] for r in chunk), np.int64, k),
            "ts": np.fromiter((r[4] or 0.0 for r in chunk), np.float64, k)}
        if basis_spread is not None:
            cols["codes"], cols["steps"] = code_rows(cols["vectors"], *basis_spread)
        if mean is not None:
            cols["centrality"] = cols["vectors"] @ mean
        self.reserve(h, h["rows"] + k)
        self.write_rows(h, h["rows"], cols)
        self.append_sessions(h, names)
        h["rows"] += k
        return cols

    def _recentre(self, h: dict[str, Any]) -> None:
        """The mean of the live rows again, and every row's centrality against it, in a file of its own (a reader
        keeps the one its header named until its next sync)."""
        rows, live = h["rows"], h["rows"] - h["dead"]
        matrix = self.map(h)["vectors"][:rows]
        total = np.zeros(self.dim, np.float64)
        for start in range(0, rows, self.chunk):
            total += np.asarray(matrix[start : start + self.chunk]).sum(axis=0, dtype=np.float64)
        mean = (total / max(1, live)).astype(np.float32)
        old = self.data(h) / h["centrality"]
        h["centrality"] = f"centrality-{live}.f32"
        with open(self.data(h) / h["centrality"], "wb") as fh:
            fh.truncate(h["capacity"] * 4)
        for start in range(0, rows, self.chunk):
            self.write_rows(h, start, {"centrality": np.asarray(matrix[start : start + self.chunk]) @ mean})
        h["mean"], h["mean_size"] = mean.tolist(), live
        if old.name != h["centrality"]:
            old.unlink(missing_ok=True)

    # --- header and lock -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """The writers' lock (all users of the store share it: builds are rare, appends short)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with FileLock(str(self.root / "lock")):  # a lock of its own per call: threads of a process exclude too
            yield

    def read_header(self) -> dict[str, Any] | None:
        """The header, or None when there is none or it is not this (user, model, dim, format)'s, or its files are
        shorter than it says."""
        try:
            h = json.loads((self.dir / "header.json").read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(h, dict) or (h.get("format"), h.get("model"), h.get("user"), h.get("dim"), h.get("width")
                                       ) != (FORMAT, self.model, self.user_id, self.dim, self.width):
            return None
        try:
            data = self.data(h)
            cap = int(h["capacity"])
            if int(h["rows"]) > cap or (data / "sessions.jsonl").stat().st_size < int(h["sessions_bytes"]):
                return None
            for name, size in self._sizes(cap, h).items():
                if (data / name).stat().st_size < size:
                    return None  # truncated
        except (OSError, KeyError, TypeError, ValueError):
            return None
        return h

    def write_header(self, h: dict[str, Any]) -> None:
        tmp = self.dir / f"header.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(h))
        tmp.replace(self.dir / "header.json")

    def data(self, h: dict[str, Any]) -> Path:
        return self.dir / f"d-{h['build']}"

    def _layout(self, h: dict[str, Any]) -> dict[str, tuple[str, np.dtype[Any], tuple[int, ...]]]:
        """Column name -> (file, dtype, row shape): vectors, int8 rows `q8`, codes, centrality, COLUMNS'."""
        layout: dict[str, tuple[str, np.dtype[Any], tuple[int, ...]]] = {
            "vectors": ("vectors.f32", np.dtype(np.float32), (self.dim,)),
            "q8": ("vectors.i8", np.dtype(np.int8), (self.dim,)),
            "codes": ("codes.u8", np.dtype(np.uint8), (self.width,)),
            "centrality": (h["centrality"], np.dtype(np.float32), ())}
        layout.update({name: (file, dtype, ()) for name, (file, dtype) in COLUMNS.items()})
        return layout

    def _sizes(self, capacity: int, h: dict[str, Any]) -> dict[str, int]:
        return {file: capacity * dtype.itemsize * math.prod(row)
                for file, dtype, row in self._layout(h).values()}

    # --- writing ---------------------------------------------------------------------------------------
    def new_build(self, capacity: int) -> dict[str, Any]:
        """An empty build (its files sized for `capacity` rows, sparse) and its header (not yet written)."""
        build = uuid.uuid4().hex[:12]
        h: dict[str, Any] = {"format": FORMAT, "model": self.model, "user": self.user_id, "dim": self.dim,
                             "width": self.width, "build": build, "rows": 0, "capacity": 0, "watermark": 0,
                             "generation": None, "dead": 0, "sessions_bytes": 0, "mean": None, "mean_size": 0,
                             "centrality": "centrality-0.f32"}
        data = self.data(h)
        data.mkdir(parents=True, exist_ok=True)
        (data / "sessions.jsonl").touch()
        self.reserve(h, capacity)
        return h

    def reserve(self, h: dict[str, Any], capacity: int) -> None:
        """Room for `capacity` rows in every column (files only grow: a process may have them mapped)."""
        if capacity <= h["capacity"]:
            return
        for name, size in self._sizes(capacity, h).items():
            with open(self.data(h) / name, "a+b") as fh:
                if os.fstat(fh.fileno()).st_size < size:
                    fh.truncate(size)
        h["capacity"] = capacity

    def write_rows(self, h: dict[str, Any], start: int, columns: dict[str, np.ndarray]) -> None:
        """Write rows from `start` (columns of `_layout`; vectors also as their int8 rows and scales)."""
        data, layout = self.data(h), self._layout(h)
        if "vectors" in columns:
            columns = dict(columns)
            columns["q8"], columns["scales"] = quantize_rows(columns["vectors"])
        for name, values in columns.items():
            file, dtype, row = layout[name]
            with open(data / file, "r+b") as fh:
                fh.seek(start * dtype.itemsize * math.prod(row))
                fh.write(np.ascontiguousarray(values, dtype).tobytes())

    def append_sessions(self, h: dict[str, Any], names: Sequence[str | None]) -> None:
        if not names:
            return
        blob = "".join(json.dumps(n) + "\n" for n in names).encode()
        with open(self.data(h) / "sessions.jsonl", "r+b") as fh:
            fh.seek(h["sessions_bytes"])
            fh.write(blob)
        h["sessions_bytes"] += len(blob)

    def read_sessions(self, h: dict[str, Any], start: int = 0) -> list[str | None]:
        with open(self.data(h) / "sessions.jsonl", "rb") as fh:
            fh.seek(start)
            blob = fh.read(h["sessions_bytes"] - start)
        lines = blob.decode().splitlines()
        return json.loads("[" + ",".join(lines) + "]") if lines else []

    def zero_rows(self, h: dict[str, Any], rows: np.ndarray) -> None:
        """Zero `rows` in every column (their kind becomes DEAD): a deleted vector's bytes leave the file."""
        if not rows.size:
            return
        data, cap = self.data(h), h["capacity"]
        sessions = np.memmap(data / COLUMNS["sessions"][0], dtype=np.int32, mode="r", shape=(cap,))
        kinds = np.memmap(data / COLUMNS["kinds"][0], dtype=np.int8, mode="r", shape=(cap,))
        touched = np.unique(np.asarray(sessions[rows]))
        for file, dtype, row in self._layout(h).values():
            mapped = np.memmap(data / file, dtype=dtype, mode="r+", shape=(cap, *row))
            mapped[rows] = DEAD if file == "kinds.i8" else 0
            mapped.flush()
            del mapped
        h["dead"] = int(h["dead"]) + int(rows.size)
        n = int(h["rows"])
        live = np.asarray(sessions[:n])[np.asarray(kinds[:n]) != DEAD]
        self._blank_sessions(h, touched[~np.isin(touched, live)])

    def _blank_sessions(self, h: dict[str, Any], codes: np.ndarray) -> None:
        """Overwrite the names of sessions `codes` (none of their rows left) with a placeholder of the same length,
        so that every other line keeps its place: no forgotten session's name stays in the file."""
        if not codes.size:
            return
        path = self.data(h) / "sessions.jsonl"
        with open(path, "r+b") as fh:
            blob = fh.read(h["sessions_bytes"])
            starts = [0]
            for line in blob.splitlines(keepends=True):
                starts.append(starts[-1] + len(line))
            for code in codes.tolist():
                if 0 <= code < len(starts) - 1:
                    length = starts[code + 1] - starts[code] - 1  # the newline stays
                    fh.seek(starts[code])
                    fh.write(b"0" + b" " * (length - 1))  # a number: never a session name (str or null)

    def remove_build(self, h: dict[str, Any]) -> None:
        """Zero every file of a build, then unlink them (a process that still maps them reads zeros)."""
        data = self.data(h)
        if not data.is_dir():
            return
        for path in data.iterdir():
            with contextlib.suppress(OSError), open(path, "r+b") as fh:
                size = os.fstat(fh.fileno()).st_size
                for at in range(0, size, 1 << 24):
                    fh.write(b"\0" * min(1 << 24, size - at))
        shutil.rmtree(data, ignore_errors=True)

    def remove(self) -> None:
        """This (user, model)'s sidecar, every build of it, zeroed and gone."""
        h = self.read_header()
        if self.dir.is_dir():
            for data in self.dir.glob("d-*"):
                self.remove_build({**(h or {}), "build": data.name[2:]})
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- reading ---------------------------------------------------------------------------------------
    def map(self, h: dict[str, Any], populate: str | None = None, vectors: bool = True) -> dict[str, np.ndarray]:
        """Every column (without `vectors`: but the vectors and their int8 rows `q8`) mapped read-only over the
        build's capacity (callers slice `rows`). `populate` ("vectors" or "q8"): that one mapped in at once."""
        data, cap, layout = self.data(h), h["capacity"], self._layout(h)
        if not cap:
            return {name: np.zeros((0, *row), dtype) for name, (_, dtype, row) in layout.items()}
        out: dict[str, np.ndarray] = {
            name: np.memmap(data / file, dtype=dtype, mode="r", shape=(cap, *row))
            for name, (file, dtype, row) in layout.items() if vectors or name not in ("vectors", "q8")}
        if vectors and populate in ("vectors", "q8"):
            file, dtype, _ = layout[populate]
            _populate(out[populate], data / file, h["rows"] * self.dim * dtype.itemsize)
        return out

    def save_basis(self, h: dict[str, Any], basis: np.ndarray, spread: np.ndarray) -> None:
        np.save(self.data(h) / "basis.npy", np.vstack([basis, spread[None]]).astype(np.float32))

    def load_basis(self, h: dict[str, Any]) -> tuple[np.ndarray, np.ndarray] | None:
        try:
            both = np.load(self.data(h) / "basis.npy")
        except (OSError, ValueError):
            return None
        if both.ndim != 2 or both.shape[0] != self.dim + 1:
            return None
        return np.ascontiguousarray(both[:-1]), np.ascontiguousarray(both[-1])


def _populate(mapped: np.ndarray, path: Path, size: int) -> None:
    """Map the pages of a file mapping in one call (MADV_POPULATE_READ), not a page fault per row touched, in
    a thread of its own that first reads the file through (from the disk: seconds a recall must not wait)."""
    mm = getattr(mapped, "_mmap", None)
    if mm is None or not size:
        return
    threading.Thread(target=_warm, args=(mm, path, size), name="episodic-sidecar-populate", daemon=True).start()


def _warm(mm: Any, path: Path, size: int) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        with open(path, "rb", buffering=0) as fh:
            buffer = bytearray(1 << 23)
            done = 0
            while done < size and (got := fh.readinto(buffer)):
                done += got
        mm.madvise(22, 0, size)  # MADV_POPULATE_READ (Linux 5.14; elsewhere the pages fault in as rows are read)


def sweep(store: VectorStore) -> int:
    """Reconcile every sidecar of `store` with its database (a Memory's scrub, before the store's): rows whose
    vector is gone zeroed, a (user, model) with no vector left removed. Returns the rows zeroed."""
    root = store.sidecar_dir()
    if root is None or not root.is_dir():
        return 0
    zeroed = 0
    with Sidecar(root, "", "", 0, 0).lock():
        for folder in root.glob("u-*"):
            try:
                h = json.loads((folder / "header.json").read_text())
                side = Sidecar(root, h["user"], h["model"], int(h["dim"]), 0)
                side.width = int(h["width"])
            except (OSError, ValueError, KeyError, TypeError):
                shutil.rmtree(folder, ignore_errors=True)  # nothing can be trusted or reconciled: gone
                continue
            if side.dir != folder or side.read_header() is None:
                side.dir = folder
                side.remove()
                continue
            zeroed += reconcile(side, h, store)
            if int(h["dead"]) >= int(h["rows"]):
                side.remove()
            else:
                side.write_header(h)
    return zeroed


def reconcile(side: Sidecar, h: dict[str, Any], store: VectorStore) -> int:
    """Zero the rows of `h`'s build whose vector id the database no longer has (the caller holds the lock and
    writes the header). Returns how many."""
    rows = int(h["rows"])
    if not rows:
        return 0
    ids = np.memmap(side.data(h) / COLUMNS["ids"][0], dtype=np.int64, mode="r", shape=(h["capacity"],))[:rows]
    kinds = np.memmap(side.data(h) / COLUMNS["kinds"][0], dtype=np.int8, mode="r", shape=(h["capacity"],))[:rows]
    alive = store.vector_ids(side.user_id, side.model, int(h["watermark"]))
    gone = np.flatnonzero((kinds != DEAD) & ~np.isin(ids, alive, assume_unique=True))
    side.zero_rows(h, gone)
    return int(gone.size)
