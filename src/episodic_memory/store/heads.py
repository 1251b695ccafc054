"""Turn heads as columns: the session, position, speaker and time of turns, kept per process for ranking.

Recall scores a few hundred candidate turns per query by where they sit and who said them. Held as numpy columns
addressed by turn id, that is a handful of array lookups instead of a Python object per candidate. A turn never
changes and its id is never reused, so an entry only goes wrong when a turn is deleted; the store then clears the
whole table (see `SQLiteStore.turn_heads`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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


def _codes(codes: dict[str | None, int], names: list[str] | None, values: Sequence[str | None]) -> list[int]:
    """The code of each value (−1 for None), new values given the next codes (and appended to `names`)."""
    for name in dict.fromkeys(values):  # each distinct value once, in order of appearance
        if name is not None and name not in codes:
            codes[name] = len(codes)
            if names is not None:
                names.append(name)
    get = codes.get
    return [get(v, -1) for v in values]
