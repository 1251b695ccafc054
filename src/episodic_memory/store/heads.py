"""Turn heads as columns: the session, position, speaker and time of turns, kept per process for ranking
(numpy columns addressed by turn id: a handful of array lookups instead of a Python object per candidate).
The store clears the table when a turn is deleted (`TurnCore.turn_heads`)."""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .records import HeadColumns

# (turn ids) -> rows of (id, session_id, seq, speaker, ts, user_id) for those of them that exist
HeadReader = Callable[[list[int]], Sequence[tuple[int, str, int, str | None, float, str]]]
# (turn id, limit) -> the same rows for the first `limit` turns with a larger id, in id order
NewerHeadReader = Callable[[int, int], Sequence[tuple[int, str, int, str | None, float, str]]]
READ_CHUNK = 32_768  # turns per read_newer call


class HeadTable:
    """Columns addressed directly by turn id, filled on demand: in bulk (every turn newer than those held, like the
    dense index's watermark) or by id. Ids are dense rowids, so the columns cost a few bytes per turn id up to the
    largest one held (about 25 MB per million)."""

    def __init__(self) -> None:
        self.session_names: list[str] = []
        self.speaker_names: list[str] = []
        self._session_codes: dict[str | None, int] = {}
        self._speaker_codes: dict[str | None, int] = {}
        self._user_codes: dict[str | None, int] = {}
        self._user = np.full(0, -1, np.int32)       # −1: not loaded (or no such turn)
        self._session = np.zeros(0, np.int32)
        self._seq = np.zeros(0, np.int64)
        self._speaker = np.zeros(0, np.int32)
        self._ts = np.zeros(0, np.float64)
        self.loaded = 0
        self.watermark = 0  # read in bulk: every turn up to this id is held, so one missing does not exist

    def clear(self) -> None:
        self.__init__()  # type: ignore[misc]

    def __len__(self) -> int:
        return self.loaded

    def __contains__(self, turn_id: int) -> bool:
        return 0 <= turn_id < len(self._user) and self._user[turn_id] >= 0

    def lookup(self, user_id: str, ids: np.ndarray, read: HeadReader, read_newer: NewerHeadReader | None = None
               ) -> HeadColumns:
        """The heads of `ids` that exist and belong to `user_id`. With `read_newer`, every turn past the newest
        held is read, a chunk at a time (so a turn not held is one that no longer exists); without, the ones not
        held yet are read by id through `read`."""
        ids = np.asarray(ids, np.int64)
        while read_newer is not None and ids.size and ids.max() > self.watermark:
            rows = read_newer(self.watermark, READ_CHUNK)  # in chunks: a first read at 1M turns held ~1 GB at once
            self._fill(rows)
            if rows:
                self.watermark = max(self.watermark, rows[-1][0])
            if len(rows) < READ_CHUNK:
                break
        if ids.size and ids.max() >= len(self._user):
            self._grow(int(ids.max()) + 1)
        missing = ids[(self._user[ids] < 0) & (ids > self.watermark)] if ids.size else ids
        if missing.size:
            self._fill(read(np.unique(missing).tolist()))
        user = self._user_codes.get(user_id, -2)
        mask = self._user[ids] == user if ids.size else np.zeros(0, bool)
        found = ids[mask]
        return HeadColumns(mask, found, self._session[found], self._seq[found], self._speaker[found], self._ts[found],
                           self.session_names, self.speaker_names)

    def _grow(self, size: int) -> None:
        size = max(size, int(len(self._user) * 1.5) + 1024)
        for name, fill in (("_user", -1), ("_session", 0), ("_seq", 0), ("_speaker", -1), ("_ts", 0.0)):
            old = getattr(self, name)
            new = np.full(size, fill, old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def _fill(self, rows: Sequence[tuple[int, str, int, str | None, float, str]]) -> None:
        if not rows:
            return
        turn_ids, sessions, seqs, speakers, ts, users = zip(*rows, strict=True)
        at = np.fromiter(turn_ids, np.int64, len(rows))
        if at.max() >= len(self._user):
            self._grow(int(at.max()) + 1)
        self.loaded += int(np.count_nonzero(self._user[at] < 0))
        self._user[at] = _codes(self._user_codes, None, users)
        self._session[at] = _codes(self._session_codes, self.session_names, sessions)
        self._seq[at] = seqs
        self._speaker[at] = _codes(self._speaker_codes, self.speaker_names, speakers)
        self._ts[at] = ts


SNAPSHOT_FORMAT = 1


def save_snapshot(table: HeadTable, path: Path, generation: int) -> None:
    """Write the bulk-read part of `table` (every turn up to its watermark) to `path`, replacing any snapshot there
    (zeroed first when it is of another deletion generation: it may name forgotten turns)."""
    old = load_meta(path)
    if old is not None and old.get("generation") != generation:
        remove_snapshot(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    top = table.watermark + 1
    meta = {"format": SNAPSHOT_FORMAT, "generation": generation, "watermark": table.watermark,
            "session_names": table.session_names, "speaker_names": table.speaker_names,
            "users": [u for u, _ in sorted(table._user_codes.items(), key=lambda kv: kv[1])]}
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        np.savez(fh, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), user=table._user[:top],
                 session=table._session[:top], seq=table._seq[:top], speaker=table._speaker[:top], ts=table._ts[:top])
    tmp.replace(path)


def load_meta(path: Path) -> dict[str, Any] | None:
    try:
        with np.load(path) as data:
            meta = json.loads(data["meta"].tobytes())
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    return meta if isinstance(meta, dict) else None


def load_snapshot(path: Path, generation: int, newest: int, check: HeadReader, checks: int) -> HeadTable | None:
    """The table a snapshot holds, when it is of this deletion `generation`, holds no turn past the store's
    `newest`, and `checks` random turns of it read the same from the store (`check`); else None."""
    try:
        with np.load(path) as data:
            meta = json.loads(data["meta"].tobytes())
            if meta.get("format") != SNAPSHOT_FORMAT or meta.get("generation") != generation:
                return None
            if meta["watermark"] > newest:
                return None
            t = HeadTable()
            t._user, t._session, t._seq = data["user"], data["session"], data["seq"]  # read: arrays of their own
            t._speaker, t._ts = data["speaker"], data["ts"]
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        return None
    if not (len(t._user) == len(t._session) == len(t._seq) == len(t._speaker) == len(t._ts) == meta["watermark"] + 1):
        return None
    t.session_names, t.speaker_names = list(meta["session_names"]), list(meta["speaker_names"])
    t._session_codes = {n: i for i, n in enumerate(t.session_names)}
    t._speaker_codes = {n: i for i, n in enumerate(t.speaker_names)}
    t._user_codes = {n: i for i, n in enumerate(meta["users"])}
    t.watermark = int(meta["watermark"])
    held = np.flatnonzero(t._user >= 0)
    t.loaded = int(held.size)
    if held.size:
        picked = np.unique(np.append(np.random.default_rng().choice(held, min(held.size, checks), replace=False),
                                     held[-1]))
        rows = {r[0]: r for r in check(picked.tolist())}
        users = meta["users"]
        for i in picked.tolist():
            r = rows.get(i)
            speaker = int(t._speaker[i])
            if r is None or (r[1], r[2], r[3], r[4], r[5]) != (
                    t.session_names[t._session[i]], int(t._seq[i]), t.speaker_names[speaker] if speaker >= 0 else None,
                    float(t._ts[i]), users[t._user[i]]):
                return None
    return t


def remove_snapshot(path: Path) -> None:
    """Zero a snapshot's bytes, then unlink it."""
    try:
        with open(path, "r+b") as fh:
            fh.write(b"\0" * os.fstat(fh.fileno()).st_size)
    except OSError:
        return
    path.unlink(missing_ok=True)


def _codes(codes: dict[str | None, int], names: list[str] | None, values: Sequence[str | None]) -> list[int]:
    """The code of each value (−1 for None), new values given the next codes (and appended to `names`)."""
    for name in dict.fromkeys(values):  # each distinct value once, in order of appearance
        if name is not None and name not in codes:
            codes[name] = len(codes)
            if names is not None:
                names.append(name)
    get = codes.get
    return [get(v, -1) for v in values]
