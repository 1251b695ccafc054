"""SQLite's own SQL for turns: storing and popping them, FTS5 search over turns and derived memories, and
vectors."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...config import Config
from ..records import StoredTurn, TurnRecord
from ..rows import TURN_COLUMNS as _TURN_COLUMNS
from ..rows import turn_row as _turn
from ..scripts import segmented
from ..sql.turns import TurnCore, tag_filter
from .connection import Connection

if TYPE_CHECKING:  # numpy is loaded by the first recall, not by opening the store
    import numpy as np


#: BM25 weights of turns_fts's columns: content, speaker, segmented, user_id (a filter, never a score)
_BM25 = "bm25(turns_fts, 1.0, 0.5, 1.0, 0.0)"
#: and of memory_fts's: text, kind, item_id, user_id, segmented (kind and item_id are not indexed)
MEMORY_BM25 = "bm25(memory_fts, 1.0, 0.0, 0.0, 0.0, 1.0)"
_TURN_TEXT = "content speaker segmented"
MEMORY_TEXT = "text segmented"


# the kinds in memory_fts, each by its table and by the code of its rowid (item_id * 8 + code)
_MEMORY_KINDS = {"fact": "facts", "episode": "episodes", "workstream": "workstreams", "judgment": "judgments"}
_MEMORY_CODES = {1: "fact", 2: "episode", 3: "workstream", 4: "judgment"}


def _words_of(match: str, columns: str = _TURN_TEXT) -> str:
    """`match` over the text columns only: a query word never matches the `user_id` column."""
    return f"{{{columns}}} : ({match})"


def _users_words(match: str, user_id: str, columns: str = _TURN_TEXT) -> str:
    """`match` over the text of `user_id`'s rows: FTS5 intersects the matches with the user's own (its id a
    phrase of the `user_id` column). A phrase can also match a longer id ("ann" in "ann smith"), and an id
    without a letter or digit has no token: the caller keeps exactly the user's rows."""
    if not any(ch.isalnum() for ch in user_id):
        return _words_of(match, columns)
    return f'{_words_of(match, columns)} AND user_id : "{user_id.replace(chr(34), chr(34) * 2)}"'


def _filters(user_id: str, session_id: str | None, since: float | None, until: float | None,
             source: str | None = None, tags: Sequence[str] = ()) -> tuple[list[str], list[Any]]:
    """Conditions on turns `t` (and their parameters): `user_id`'s, in a session, said in [since, until], from
    `source` and carrying `tags`."""
    where = ["t.user_id = ?"]
    params: list[Any] = [user_id]
    for clause, value in (("t.session_id = ?", session_id), ("t.ts >= ?", since), ("t.ts <= ?", until)):
        if value is not None:
            where.append(clause)
            params.append(value)
    tag_filter(where, params, source, tags)
    return where, params


def memory_words(match: str, user_id: str, shared: bool) -> str:
    """`match` over derived memories' text, of `user_id`'s only when the file is `shared` by several users."""
    return _users_words(match, user_id, MEMORY_TEXT) if shared else _words_of(match, MEMORY_TEXT)


class TurnSQL(TurnCore, Connection):
    """Sessions and turns, their search and their vectors: the SQL of capture and recall."""

    def __init__(self, path: str | Path, config: Config | None = None) -> None:
        super().__init__(path, config)
        self._common: dict[tuple[str | None, int, str], bool] = {}  # (user or None, cap, term) -> too common
        self._common_generation, self._common_size = -1, 0

    # --- turns (sessions and the simple reads: `store/sql/turns.py`) ------------------------------------
    def insert_turns(self, records: Sequence[TurnRecord], journal_file: str, journal_offset: int) -> int:
        if not records:
            return 0
        first = records[0]
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO sessions (user_id, session_id, created_at, updated_at, journal_file) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, session_id) DO NOTHING",
                (first.user_id, first.session_id, now, now, journal_file),
            )
            inserted = 0
            for r in records:
                cur = db.execute(
                    "INSERT OR IGNORE INTO turns (uid, user_id, session_id, seq, role, speaker, content, ts, "
                    "ingested_at, turn_id, source, tags, segmented, metadata) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (r.uid, r.user_id, r.session_id, r.seq, r.role, r.speaker, r.content, r.ts, r.ingested_at,
                     r.turn_id, r.source, json.dumps(list(r.tags), ensure_ascii=False) if r.tags else None,
                     segmented(r.content), r.metadata),
                )
                inserted += cur.rowcount
            # one aggregate over the session's rows (min(ts)/max(ts) lookups walk the (user_id, ts) index)
            count, first_ts, last_ts = db.execute(
                "SELECT count(*), min(ts), max(ts) FROM turns INDEXED BY turns_by_session "
                "WHERE user_id = ? AND session_id = ?",
                (first.user_id, first.session_id),
            ).fetchone()
            # a turn that arrives after the session ended gets no session end of its own: flag it here (durably,
            # with the turn), so it is consolidated now or, if the process dies first, at the next open
            db.execute(
                "UPDATE sessions SET journal_file = ?, journal_offset = max(journal_offset, ?), updated_at = ?, "
                "turn_count = ?, started_at = ?, last_turn_at = ?, "
                "needs_consolidation = needs_consolidation OR (status = 'ended' AND ? > 0) "
                "WHERE user_id = ? AND session_id = ?",
                (journal_file, journal_offset, now, count, first_ts, last_ts, inserted, first.user_id,
                 first.session_id),
            )
            return inserted

    def pop_turn(self, user_id: str, session_id: str) -> StoredTurn | None:
        """What consolidation already drew from the turn stays; a turn stored in its place is consolidated."""
        with self.transaction() as db:
            row = db.execute(
                f"SELECT {_TURN_COLUMNS} FROM turns t INDEXED BY turns_by_session WHERE t.user_id = ? "
                "AND t.session_id = ? ORDER BY t.seq DESC, t.id DESC LIMIT 1", (user_id, session_id)).fetchone()
            if row is None:
                return None
            turn = _turn(row)
            db.execute("DELETE FROM turns WHERE id = ?", (turn.id,))
            count, first_ts, last_ts = db.execute(
                "SELECT count(*), min(ts), max(ts) FROM turns INDEXED BY turns_by_session "
                "WHERE user_id = ? AND session_id = ?", (user_id, session_id)).fetchone()
            db.execute(
                "UPDATE sessions SET turn_count = ?, started_at = ?, last_turn_at = ?, updated_at = ?, "
                "consolidated_turns = min(consolidated_turns, ?) WHERE user_id = ? AND session_id = ?",
                (count, first_ts, last_ts, time.time(), turn.seq, user_id, session_id))
            if self._heads is not None:
                self._heads.clear()
            return turn

    def sweep_head_snapshot(self) -> None:
        """Remove the turn heads' snapshot (zeroed first) when a turn was deleted since it was written."""
        from ..heads import load_meta, remove_snapshot

        path = self._head_snapshot()
        if path is None or not path.exists():
            return
        meta = load_meta(path)
        generation = self._meta("turn_deletions")
        if meta is None or meta.get("generation") != generation:
            remove_snapshot(path)

    def derived_generation(self) -> tuple[int, ...]:
        return tuple(v for _, v in self._query(
            "SELECT key, value FROM store_meta WHERE key IN ('derived_changes', 'turn_deletions') ORDER BY key"))

    def read_snapshot(self) -> AbstractContextManager[None]:
        """A no-op: a counter is a local read here."""
        return nullcontext()

    def search_turns(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                     since: float | None = None, until: float | None = None, source: str | None = None,
                     tags: Sequence[str] = ()) -> list[tuple[int, float]]:
        """FTS5's bm25, made positive."""
        where, params = _filters(user_id, session_id, since, until, source, tags)
        ranked = f"SELECT rowid, -{_BM25} AS score FROM turns_fts WHERE turns_fts MATCH ?"
        only_user = self._only_user(user_id)
        if len(where) == 1 and only_user:  # nothing to filter: the join would only cost time
            return [(int(i), float(score)) for i, score in self._query(
                f"{ranked} ORDER BY score DESC LIMIT ?", (_words_of(match), limit))]
        # rank inside FTS5 and join only the best rows (joining every match first costs a lookup per match);
        # the filters apply after, so take a generous slice, and rank every match when they ate too much of it
        match = _words_of(match) if only_user else _users_words(match, user_id)
        sql = (
            f"SELECT t.id, f.score FROM ({ranked} ORDER BY score DESC LIMIT ?) f "
            f"JOIN turns t ON t.id = f.rowid WHERE {' AND '.join(where)} ORDER BY f.score DESC LIMIT ?"
        )
        for slice_size in (limit, limit * 8):  # one user's store: the first slice is the answer
            rows = self._query(sql, [match, slice_size, *params, limit])
            if len(rows) >= limit or self._query(
                "SELECT count(*) FROM (SELECT rowid FROM turns_fts WHERE turns_fts MATCH ? LIMIT ?)",
                (match, slice_size + 1),
            )[0][0] <= slice_size:  # every match was ranked
                return [(int(i), float(score)) for i, score in rows]
        rows = self._query(sql, [match, -1, *params, limit])
        return [(int(i), float(score)) for i, score in rows]

    def exact_turns(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                    since: float | None = None, until: float | None = None) -> list[int]:
        """Asking costs at most `limit` matching rows however common the match is."""
        where, params = _filters(user_id, session_id, since, until)
        # CROSS JOIN: the matches first, then their rows (SQLite keeps that order); the planner may otherwise walk
        # every turn of the user and ask FTS5 about each
        return [int(i) for i, in self._query(
            "SELECT t.id FROM turns_fts CROSS JOIN turns t ON t.id = turns_fts.rowid WHERE turns_fts MATCH ? AND "
            f"{' AND '.join(where)} LIMIT ?", [_users_words(match, user_id), *params, limit])]

    def exact_memories(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None
                       ) -> list[tuple[str, int]]:
        where, params = ["user_id = ?"], [memory_words(match, user_id, not self._only_user(user_id)), user_id]
        if kinds:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            params.extend(kinds)
        return [(kind, int(i)) for kind, i in self._query(
            f"SELECT kind, item_id FROM memory_fts WHERE memory_fts MATCH ? AND {' AND '.join(where)} LIMIT ?",
            [*params, limit])]

    def _only_user_memories(self, user_id: str) -> bool:
        """Every derived memory (every `memory_fts` row) is `user_id`'s: two index seeks per table."""
        return all(low is None or low == high == user_id for low, high in [tuple(row) for row in self._query(
            " UNION ALL ".join(f"SELECT (SELECT min(user_id) FROM {table}), (SELECT max(user_id) FROM {table})"
                               for table in _MEMORY_KINDS.values()))])

    def _only_user(self, user_id: str) -> bool:
        """Every turn in the store is `user_id`'s (the usual one-user file): two index seeks."""
        low, high = self._query("SELECT (SELECT min(user_id) FROM turns), (SELECT max(user_id) FROM turns)")[0]
        return low == high == user_id

    def common_terms(self, terms: Sequence[str], *, floor: int, share: float, user_id: str | None = None
                     ) -> set[str]:
        """Of `user_id`'s turns in a store several users share (FTS5 reads only their matches), else of the
        store. Each count stops at the cap; verdicts are kept until the store grows by a tenth or loses a
        turn."""
        size, generation = self._query(
            "SELECT coalesce(max(id), 0), (SELECT value FROM store_meta WHERE key = 'turn_deletions') FROM turns")[0]
        scope = user_id if user_id is not None and not self._only_user(user_id) else None
        turns = size if scope is None else self._query(
            "SELECT coalesce(sum(turn_count), 0) FROM sessions WHERE user_id = ?", (scope,))[0][0]
        cap = max(floor, int(share * turns))
        if scope is not None and turns <= cap:
            return set()
        with self._lock:
            if generation != self._common_generation or size > self._common_size * 1.1 or len(self._common) > 100_000:
                self._common.clear()
                self._common_generation, self._common_size = generation, size
            for term in terms:
                if (scope, cap, term) not in self._common:
                    phrase = f'"{term}"'
                    self._common[scope, cap, term] = (self._query(
                        "SELECT count(*) FROM (SELECT rowid FROM turns_fts WHERE turns_fts MATCH ? LIMIT ?)",
                        (_words_of(phrase), cap + 1)) if scope is None else self._query(
                        "SELECT count(*) FROM (SELECT t.id FROM turns_fts CROSS JOIN turns t ON t.id = turns_fts.rowid "
                        "WHERE turns_fts MATCH ? AND t.user_id = ? LIMIT ?)",
                        (_users_words(phrase, scope), scope, cap + 1)))[0][0] > cap
            return {t for t in terms if self._common[scope, cap, t]}

    # --- vectors -------------------------------------------------------------------------------------
    def search_memories(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None
                        ) -> list[tuple[str, int, float]]:
        words = memory_words(match, user_id, not self._only_user(user_id))
        wanted = set(kinds or ())
        every = not wanted or _MEMORY_KINDS.keys() <= wanted
        if (every or wanted <= _MEMORY_KINDS.keys()) and self._only_user_memories(user_id):
            # no user to filter: the rowid says the kind and the id (the triggers write it so), so kinds are kept
            # by their codes, not by reading each row's kind column (a quarter of the query's time)
            codes = "" if every else (f" AND rowid % 8 IN "
                                      f"({', '.join(str(c) for c, k in _MEMORY_CODES.items() if k in wanted)})")
            rows = self._query(f"SELECT rowid, -{MEMORY_BM25} AS score FROM memory_fts WHERE memory_fts MATCH ?"
                               f"{codes} ORDER BY score DESC LIMIT ?", (words, limit))
            found = [(_MEMORY_CODES.get(rowid % 8), rowid // 8, score) for rowid, score in rows]
            if all(kind is not None for kind, _, _ in found):  # else a kind this code does not know: the long way
                return [(str(kind), int(item_id), score) for kind, item_id, score in found]
        where, params = ["user_id = ?"], [words, user_id]
        if kinds:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            params.extend(kinds)
        rows = self._query(
            f"SELECT kind, item_id, -{MEMORY_BM25} AS score FROM memory_fts WHERE memory_fts MATCH ? AND "
            f"{' AND '.join(where)} ORDER BY score DESC LIMIT ?", [*params, limit])
        return [(kind, int(item_id), score) for kind, item_id, score in rows]

    def max_turn_id(self) -> int:
        return self._query("SELECT coalesce(max(id), 0) FROM turns")[0][0]

    def add_vectors(self, model: str, rows: Sequence[tuple[str, int, str, str | None, float | None, bytes]]) -> int:
        with self.transaction() as db:
            cur = db.executemany(
                "INSERT OR IGNORE INTO vectors (kind, item_id, user_id, session_id, ts, model, vec) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(k, i, u, s, ts, model, v) for k, i, u, s, ts, v in rows],
            )
            return cur.rowcount

    def load_vectors(self, user_id: str, model: str, after_id: int = 0, upto_id: int | None = None,
                     limit: int = -1) -> list[tuple[int, str, int, str, float, bytes]]:
        return self._query(
            "SELECT id, kind, item_id, session_id, ts, vec FROM vectors WHERE user_id = ? AND model = ? AND id > ? "
            "AND id <= ? ORDER BY id LIMIT ?",
            (user_id, model, after_id, upto_id if upto_id is not None else 2**63 - 1, limit),
        )

    def item_vectors(self, user_id: str, model: str, kind: str, item_ids: Sequence[int]) -> dict[int, bytes]:
        return {int(i): v for i, v in self._rows_in(
            "SELECT item_id, vec FROM vectors WHERE item_id IN ({marks}) AND kind = ? AND model = ? AND user_id = ?",
            list(item_ids), after=[kind, model, user_id])}

    def vector_ids(self, user_id: str, model: str, upto_id: int) -> np.ndarray:
        import numpy as np

        with self._lock:
            cur = self.db.execute("SELECT id FROM vectors WHERE user_id = ? AND model = ? AND id <= ? ORDER BY id",
                                  (user_id, model, upto_id))
            parts = []
            while rows := cur.fetchmany(65_536):
                parts.append(np.fromiter((r[0] for r in rows), np.int64, len(rows)))
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    def turns_embedded_upto(self, model: str) -> int:
        """A turn id up to which every turn has a vector of `model`, from two index counts: the newest turn
        vector's item id when as many turns as turn vectors lie up to it, else 0."""
        top = self._query("SELECT coalesce(max(item_id), 0) FROM vectors WHERE kind = 'turn' AND model = ?",
                          (model,))[0][0]
        if not top:
            return 0
        if top >= self.max_turn_id():
            turns = self._query("SELECT count(*) FROM turns")[0][0]  # the smallest index, whole
        else:
            turns = self._query("SELECT count(*) FROM turns WHERE id <= ?", (top,))[0][0]
        vectors = self._query("SELECT count(*) FROM vectors WHERE kind = 'turn' AND model = ? AND item_id <= ?",
                              (model, top))[0][0]
        return int(top) if turns == vectors else 0

    def sidecar_dir(self) -> Path | None:
        """Also where the turn heads' snapshot lives; None when off, in memory or read-only."""
        if not self.config.retrieval.vector_sidecar or self.in_memory or self.read_only:
            return None
        if self.config.retrieval.vector_sidecar_dir:
            return Path(self.config.retrieval.vector_sidecar_dir).expanduser()
        return Path(self.path + ".vectors")

    def search_turns_filtered(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                              since: float | None = None, until: float | None = None, source: str | None = None,
                              tags: Sequence[str] = ()) -> list[tuple[int, float]]:
        """Every match joined to its turn in one statement: `search_turns`' slices would come back short and
        be ranked again (docs/retrieval.md, "Currency's follow-up searches")."""
        where, params = _filters(user_id, session_id, since, until, source, tags)
        return [(int(i), float(score)) for i, score in self._query(
            f"SELECT t.id, -{_BM25} AS score FROM turns_fts CROSS JOIN turns t "
            f"ON t.id = turns_fts.rowid WHERE turns_fts MATCH ? AND {' AND '.join(where)} ORDER BY score DESC LIMIT ?",
            [_users_words(match, user_id), *params, limit])]
