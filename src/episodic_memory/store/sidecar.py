"""The vector sidecar: a user's vectors of one model as flat column files next to the SQLite database.

A process opens them in O(1) (memory-mapped; nothing is parsed), where reading a million rows out of the `vectors`
table took ~9 s. The database stays the source of truth: the sidecar is a cache of it, kept in step by the dense
index's watermark (the newest vector id, and the `vector_deletions` counter a trigger bumps), rebuilt when absent,
stale, truncated, of another model or failing its spot checks, and never read past what the database confirms.

    <db>.vectors/                          (`Config.retrieval.vector_sidecar_dir`)
        lock                               a file lock: one writer at a time (readers take no lock)
        u-<sha256(user \\0 model)[:24]>/
            header.json                    format, model, user, dim, build id, rows, capacity, watermark, deletion
                                           generation, dead rows, mean; replaced whole (tmp + rename), written last
            d-<build id>/                  one build's columns, `capacity` rows each (rows past `rows`: unused)
                vectors.f32                float32 × dim, as in the `vectors` table
                vectors.i8 scales.f32      the same rows in int8, each with its scale (`quantize_rows`): what a
                                           recall maps of a big sidecar (`Config.retrieval.vector_sidecar_int8_above`)
                ids.i64 items.i64 kinds.i8 sessions.i32 ts.f64
                codes.u8 steps.f32         the 4-bit coarse codes (`retrieve.dense._CoarseScan`) and row steps
                centrality-<n>.f32         row · mean (the mean of the first n rows, in the header)
                basis.npy                  principal directions (dim × r) and, as a last row, their spreads
                sessions.jsonl             session names, one JSON value a line: a row's session code is its line

Rules (tested in tests/test_sidecar.py):

- Rows are appended past `rows`, then the header says so: a reader never maps a row the header does not count.
- A deletion in the database zeroes the row in place (vector, codes, columns; kind −1): the file never shrinks while
  another process may have it mapped, and the deleted vector's bytes leave the file at once. Past
  `Config.retrieval.vector_sidecar_compact` dead rows, or when anything does not check out, the sidecar is built again under a
  new build id and the old build's files are zeroed, then unlinked.
- `SQLiteStore.scrub` (forget, fact and judgment deletion) reconciles every sidecar of the store with the database
  first: nothing forgotten stays in them. Other deletions (superseded facts, a reindex) are zeroed at the next
  recall's sync, as the rows they were.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import threading
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
from filelock import FileLock

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


@runtime_checkable
class SidecarStore(Protocol):
    """What a store offers for a sidecar (the SQLite store; PostgreSQL keeps its vectors in the database)."""

    def sidecar_dir(self) -> Path | None: ...

    def vectors_by_id(self, user_id: str, model: str, ids: Sequence[int]) -> list[tuple[int, str, int, bytes]]: ...

    def vector_ids(self, user_id: str, model: str, upto_id: int) -> np.ndarray: ...


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
    """The files of one (user, model): header, lock and the current build's columns."""

    def __init__(self, root: Path, user_id: str, model: str, dim: int, width: int) -> None:
        self.root = root
        self.dir = root / folder_name(user_id, model)
        self.user_id, self.model, self.dim = user_id, model, dim
        self.width = width  # bytes of 4-bit codes per row

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

    def _sizes(self, capacity: int, h: dict[str, Any]) -> dict[str, int]:
        sizes = {file: capacity * dtype.itemsize for file, dtype in COLUMNS.values()}
        sizes["vectors.f32"] = capacity * self.dim * 4
        sizes["vectors.i8"] = capacity * self.dim
        sizes["codes.u8"] = capacity * self.width
        sizes[h["centrality"]] = capacity * 4
        return sizes

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
        """Write rows from `start` (names: vectors — also as int8 rows and their scales —, codes, centrality and
        COLUMNS')."""
        data = self.data(h)
        if "vectors" in columns:
            columns = dict(columns)
            columns["q8"], columns["scales"] = quantize_rows(columns["vectors"])
        for name, values in columns.items():
            if name == "vectors":
                file, size = "vectors.f32", self.dim * 4
            elif name == "q8":
                file, size = "vectors.i8", self.dim
            elif name == "codes":
                file, size = "codes.u8", self.width
            elif name == "centrality":
                file, size = h["centrality"], 4
            else:
                file, size = COLUMNS[name][0], COLUMNS[name][1].itemsize
                values = values.astype(COLUMNS[name][1], copy=False)
            with open(data / file, "r+b") as fh:
                fh.seek(start * size)
                fh.write(np.ascontiguousarray(values).tobytes())

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
        files: dict[str, tuple[Any, tuple[int, ...]]] = {
            "vectors.f32": (np.float32, (cap, self.dim)), "vectors.i8": (np.int8, (cap, self.dim)),
            "codes.u8": (np.uint8, (cap, self.width)),
            h["centrality"]: (np.float32, (cap,))}
        files.update({file: (dtype, (cap,)) for file, dtype in COLUMNS.values()})
        for file, (dtype, shape) in files.items():
            mapped = np.memmap(data / file, dtype=dtype, mode="r+", shape=shape)
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
            try:
                with open(path, "r+b") as fh:
                    size = os.fstat(fh.fileno()).st_size
                    for at in range(0, size, 1 << 24):
                        fh.write(b"\0" * min(1 << 24, size - at))
            except OSError:
                pass
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
        data, cap = self.data(h), h["capacity"]
        out: dict[str, np.ndarray] = {}
        if not cap:
            out["vectors"] = np.zeros((0, self.dim), np.float32)
            out["q8"] = np.zeros((0, self.dim), np.int8)
            out["codes"] = np.zeros((0, self.width), np.uint8)
            out["centrality"] = np.zeros(0, np.float32)
            out.update({name: np.zeros(0, dtype) for name, (_, dtype) in COLUMNS.items()})
            return out
        if vectors:
            out["vectors"] = np.memmap(data / "vectors.f32", dtype=np.float32, mode="r", shape=(cap, self.dim))
            out["q8"] = np.memmap(data / "vectors.i8", dtype=np.int8, mode="r", shape=(cap, self.dim))
            if populate == "vectors":
                _populate(out["vectors"], data / "vectors.f32", h["rows"] * self.dim * 4)
            elif populate == "q8":
                _populate(out["q8"], data / "vectors.i8", h["rows"] * self.dim)
        out["codes"] = np.memmap(data / "codes.u8", dtype=np.uint8, mode="r", shape=(cap, self.width))
        out["centrality"] = np.memmap(data / h["centrality"], dtype=np.float32, mode="r", shape=(cap,))
        for name, (file, dtype) in COLUMNS.items():
            out[name] = np.memmap(data / file, dtype=dtype, mode="r", shape=(cap,))
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
    """Map the pages of a file mapping in one call (MADV_POPULATE_READ) instead of a page fault per row touched
    (the exact scores of a coarse scan's shortlist touch ~2,000 random rows a recall), in a thread of its own: it
    first reads the file through (the GIL released; from the disk when the page cache lost it: ~18 s for 1.5 GB
    here, which the first recall must not wait for), then maps it (~0.1 s from the page cache)."""
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


def sweep(root: Path, store: SidecarStore) -> int:
    """Reconcile every sidecar under `root` with the database: rows whose vector is gone are zeroed, a (user,
    model) with no vector left loses its folder. Returns the rows zeroed. (`SQLiteStore.scrub` calls it.)"""
    if not root.is_dir():
        return 0
    zeroed = 0
    with Sidecar(root, "", "", 0, 0).lock():
        for folder in root.glob("u-*"):
            try:
                h = json.loads((folder / "header.json").read_text())
                side = Sidecar(root, h["user"], h["model"], int(h["dim"]), int(h["width"]))
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


def reconcile(side: Sidecar, h: dict[str, Any], store: SidecarStore) -> int:
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
