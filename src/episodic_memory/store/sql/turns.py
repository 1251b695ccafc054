"""SQL for sessions, turns, the turn-head cache and the counts of their vectors, written once for both
backends. A backend adds how turns are stored and popped, search, and how vectors are stored and read."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..records import HeadColumns, SessionInfo, StoredTurn
from ..rows import SESSION_SELECT as _SESSION_SELECT
from ..rows import TURN_COLUMNS as _TURN_COLUMNS
from ..rows import session_row as _session
from ..rows import turn_row as _turn
from .core import SQLCore

if TYPE_CHECKING:  # numpy and the head table are loaded by the first recall, not by opening the store
    import threading

    import numpy as np

    from ..heads import HeadTable

log = logging.getLogger(__name__)


def tag_filter(where: list[str], params: list[Any] | dict[str, Any], source: str | None, tags: Sequence[str]
               ) -> None:
    """Conditions on turns `t`: from `source`, carrying every one of `tags`. `params`: a list for ``?`` marks,
    or a dict for named ones (``%(source)s``, ``%(tag0)s``, …: PostgreSQL's search)."""
    def mark(name: str, value: Any) -> str:
        if isinstance(params, dict):
            params[name] = value
            return f"%({name})s"
        params.append(value)
        return "?"

    if source is not None:
        where.append(f"t.source = {mark('source', source)}")
    for n, tag in enumerate(dict.fromkeys(tags)):
        where.append("EXISTS (SELECT 1 FROM turn_tags g WHERE g.user_id = t.user_id AND "
                     f"g.tag = {mark(f'tag{n}', tag)} AND g.turn_id = t.id)")


class TurnCore(SQLCore):
    """Sessions and turns (a mixin of both stores, under each backend's turns mixin)."""

    _heads: HeadTable | None = None  # the turn-head cache (`turn_heads`), made at its first use
    _heads_generation = -1
    _heads_saved = 0  # turns held when the heads' snapshot was last written or read

    if TYPE_CHECKING:  # each backend's
        _lock: threading.RLock

        def max_turn_id(self) -> int: ...

        def sidecar_dir(self) -> Path | None: ...

    def _meta(self, key: str) -> int:
        """A `store_meta` counter (turn_deletions, vector_deletions, derived_changes, …)."""
        return int(self._rows("SELECT value FROM store_meta WHERE key = ?", (key,))[0][0])

    # --- sessions ------------------------------------------------------------------------------------
    def journal_state(self, user_id: str, session_id: str) -> tuple[str | None, int, int]:
        """The next seq follows the highest stored one, not the count: a gap (a journal line lost to
        corruption) never hands a seq out twice."""
        rows = self._rows(
            f"SELECT journal_file, journal_offset, (SELECT coalesce(max(seq) + 1, 0) FROM turns"
            f"{self.dialect.indexed('turns_by_session')} WHERE user_id = ? AND session_id = ?) FROM sessions "
            "WHERE user_id = ? AND session_id = ?", (user_id, session_id, user_id, session_id))
        if not rows:
            return None, 0, 0
        file, offset, next_seq = rows[0]
        return file, int(offset), int(next_seq)

    def journal_offsets(self) -> dict[str, int]:
        rows = self._rows("SELECT journal_file, journal_offset FROM sessions WHERE journal_file IS NOT NULL")
        return {file: int(offset) for file, offset in rows}

    def session(self, user_id: str, session_id: str) -> SessionInfo | None:
        rows = self._rows(_SESSION_SELECT + " WHERE user_id = ? AND session_id = ?", (user_id, session_id))
        return _session(rows[0]) if rows else None

    def sessions(self, user_id: str, limit: int | None = None) -> list[SessionInfo]:
        sql = _SESSION_SELECT + " WHERE user_id = ? ORDER BY coalesce(last_turn_at, created_at) DESC"
        params: list[Any] = [user_id]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_session(r) for r in self._rows(sql, params)]

    def end_session(self, user_id: str, session_id: str, *, owed: bool = False) -> bool:
        now = time.time()
        with self._write() as tx:
            return bool(tx.execute(
                "UPDATE sessions SET status = 'ended', ended_at = ?, updated_at = ?, "
                "needs_consolidation = (? OR turn_count > consolidated_turns) WHERE user_id = ? AND session_id = ?",
                (now, now, owed, user_id, session_id)).rowcount > 0)

    def mark_for_consolidation(self, user_id: str, session_id: str, *, behind_only: bool = False) -> None:
        with self._write() as tx:
            tx.execute(f"UPDATE sessions SET needs_consolidation = {tx.dialect.true} WHERE user_id = ? "
                       "AND session_id = ?" + (" AND turn_count > consolidated_turns" if behind_only else ""),
                       (user_id, session_id))

    def mark_idle_sessions(self, idle_before: float) -> int:
        d = self.dialect
        with self._write() as tx:
            return int(tx.execute(
                f"UPDATE sessions SET needs_consolidation = {d.true} WHERE status = 'open' AND needs_consolidation = "
                f"{d.false} AND turn_count > consolidated_turns AND updated_at < ?", (idle_before,)).rowcount)

    def claim_consolidation(self, user_id: str, session_id: str, owner: str, *, until: float, now: float,
                            replacing: str | None = None) -> str | None:
        with self._write() as tx:
            tx.execute(
                "UPDATE sessions SET lease_owner = ?, lease_until = ? WHERE user_id = ? AND session_id = ? AND "
                "(lease_owner IS NULL OR lease_owner = ? OR lease_until < ? OR lease_owner = ?)",
                (owner, until, user_id, session_id, owner, now, replacing))
            row = tx.one("SELECT lease_owner FROM sessions WHERE user_id = ? AND session_id = ?", (user_id, session_id))
        return None if row is None or row[0] == owner else str(row[0])

    def release_consolidation(self, user_id: str, session_id: str, owner: str) -> None:
        with self._write() as tx:
            tx.execute("UPDATE sessions SET lease_owner = NULL, lease_until = NULL WHERE user_id = ? "
                       "AND session_id = ? AND lease_owner = ?", (user_id, session_id, owner))

    def sessions_needing_consolidation(self) -> list[tuple[str, str]]:
        """A session whose last run failed only once its back-off is over."""
        return [(u, s) for u, s in self._rows(
            f"SELECT user_id, session_id FROM sessions WHERE needs_consolidation = {self.dialect.true} "
            "AND (retry_at IS NULL OR retry_at <= ?) ORDER BY updated_at", (time.time(),))]

    def sessions_owed(self, every: int, idle_before: float, now: float, limit: int = 1000
                      ) -> list[tuple[str, str, bool]]:
        return [(u, s, bool(ended)) for u, s, ended in self._rows(
            f"SELECT user_id, session_id, status = 'ended' FROM sessions WHERE (needs_consolidation = {self.dialect.true} "
            "OR turn_count - consolidated_turns >= ? OR (status = 'ended' AND turn_count > consolidated_turns)) "
            "AND updated_at < ? AND (lease_owner IS NULL OR lease_until < ?) AND (retry_at IS NULL OR retry_at <= ?) "
            "ORDER BY updated_at LIMIT ?", (every, idle_before, now, now, limit))]

    def record_consolidated(self, user_id: str, session_id: str, upto_seq: int) -> None:
        with self._write() as tx:
            greatest = tx.dialect.greatest
            tx.execute(
                f"UPDATE sessions SET consolidated_turns = {greatest}(consolidated_turns, ?), "
                f"needs_consolidation = (turn_count > {greatest}(consolidated_turns, ?) AND status = 'ended'), "
                "consolidation_failures = 0, retry_at = NULL WHERE user_id = ? AND session_id = ?",
                (upto_seq, upto_seq, user_id, session_id))

    def record_consolidation_failure(self, user_id: str, session_id: str) -> float:
        with self._write() as tx:
            row = tx.one("SELECT consolidation_failures FROM sessions WHERE user_id = ? AND session_id = ?"
                         + tx.dialect.for_update, (user_id, session_id))
            failures = (row[0] if row else 0) + 1
            retry_at = time.time() + self.config.consolidation.retry_after(failures)
            tx.execute(f"UPDATE sessions SET needs_consolidation = {tx.dialect.true}, consolidation_failures = ?, "
                       "retry_at = ? WHERE user_id = ? AND session_id = ?", (failures, retry_at, user_id, session_id))
            return retry_at

    def advance_journal_offset(self, user_id: str, session_id: str, journal_file: str, offset: int) -> None:
        with self._write() as tx:
            tx.execute(f"UPDATE sessions SET journal_file = ?, journal_offset = {tx.dialect.greatest}(journal_offset, ?) "
                       "WHERE user_id = ? AND session_id = ?", (journal_file, offset, user_id, session_id))

    # --- turns ---------------------------------------------------------------------------------------
    def known_turn_ids(self, user_id: str, session_id: str) -> set[str]:
        return {r[0] for r in self._rows("SELECT turn_id FROM turns WHERE user_id = ? AND session_id = ? "
                                         "AND turn_id IS NOT NULL", (user_id, session_id))}

    def stored_turns(self, user_id: str, session_id: str, turn_ids: Sequence[str]
                     ) -> dict[tuple[str, str, str], tuple[str, int]]:
        rows = self._rows_in("SELECT turn_id, role, content, uid, seq FROM turns WHERE turn_id IN ({marks}) "
                             "AND user_id = ? AND session_id = ? ORDER BY seq DESC",
                             list(dict.fromkeys(turn_ids)), after=[user_id, session_id])
        return {(turn_id, role, content): (uid, int(seq)) for turn_id, role, content, uid, seq in rows}

    def ids_for_uids(self, uids: Sequence[str]) -> dict[str, int]:
        return {u: int(i) for u, i in self._rows_in("SELECT uid, id FROM turns WHERE uid IN ({marks})", list(uids))}

    def session_turns(self, user_id: str, session_id: str, from_seq: int = 0,
                      before_seq: int | None = None) -> list[StoredTurn]:
        sql = f"SELECT {_TURN_COLUMNS} FROM turns t WHERE t.user_id = ? AND t.session_id = ? AND t.seq >= ?"
        params: list[Any] = [user_id, session_id, from_seq]
        if before_seq is not None:
            sql += " AND t.seq < ?"
            params.append(before_seq)
        return [_turn(r) for r in self._rows(sql + " ORDER BY t.seq, t.id", params)]

    def turns_since(self, user_id: str, since: float, limit: int | None = None) -> list[StoredTurn]:
        sql = (f"SELECT {_TURN_COLUMNS} FROM turns t{self.dialect.indexed('turns_by_time')} WHERE t.user_id = ? "
               "AND t.ts >= ? ORDER BY t.ts DESC, t.id DESC")
        params: list[Any] = [user_id, since]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_turn(r) for r in self._rows(sql, params)]

    def turn_ids_with(self, user_id: str, *, source: str | None = None, tags: Sequence[str] = ()) -> list[int]:
        where, params = ["t.user_id = ?"], [user_id]
        tag_filter(where, params, source, tags)
        return [int(r[0]) for r in self._rows(f"SELECT t.id FROM turns t WHERE {' AND '.join(where)} ORDER BY t.id",
                                              params)]

    def turns_by_id(self, user_id: str, ids: Iterable[int]) -> dict[int, StoredTurn]:
        rows = self._rows_in(f"SELECT {_TURN_COLUMNS} FROM turns t WHERE t.id IN ({{marks}}) AND "
                             f"{self.dialect.noindex}t.user_id = ?", [int(i) for i in dict.fromkeys(ids)],
                             after=[user_id])
        return {r[0]: _turn(r) for r in rows}

    def source_ids(self, user_id: str, ids: Iterable[int]) -> dict[int, str]:
        return {int(i): s for i, s in self._rows_in(
            "SELECT id, coalesce(turn_id, CAST(id AS TEXT)) FROM turns WHERE id IN ({marks}) AND "
            f"{self.dialect.noindex}user_id = ?", [int(i) for i in dict.fromkeys(ids)], after=[user_id])}

    def turn_heads(self, user_id: str, ids: Iterable[int] | np.ndarray) -> HeadColumns:
        """Kept per process as columns (`store.heads`): every turn read at the first call while the turn ids
        stay under `Config.retrieval.turn_head_cache` (then only newer turns), by id past that. A turn never
        changes and its id is never reused, so only a deletion (`turn_deletions`) makes the whole table go."""
        import numpy as np

        from ..heads import HeadTable

        ids = np.fromiter(ids, np.int64) if not isinstance(ids, np.ndarray) else ids
        cap = self.config.retrieval.turn_head_cache
        generation = self._meta("turn_deletions")
        with self._lock:
            if self._heads is None:
                self._heads = HeadTable()
            if generation != self._heads_generation or len(self._heads) > cap or not cap:
                self._heads.clear()
                self._heads_generation = generation
            bulk = bool(cap) and (not ids.size or int(ids.max()) <= cap)
            snapshot = self._head_snapshot() if bulk else None
            if snapshot is not None and not len(self._heads) and ids.size:  # a first bulk read: the snapshot?
                self._heads = self._load_head_snapshot(snapshot, generation) or self._heads
                self._heads_saved = len(self._heads)
            newer = self._read_newer_heads if bulk else None
            found = self._heads.lookup(user_id, ids, self._read_heads, newer)
            held = len(self._heads)
            if (snapshot is not None and held >= self.config.retrieval.vector_sidecar_above
                    and held - self._heads_saved >= max(1, held // 10)):
                from ..heads import save_snapshot

                self._heads_saved = held
                try:
                    save_snapshot(self._heads, snapshot, generation)  # a tenth more turns than the last one
                except OSError as exc:  # a folder it cannot write: the heads are read from the database
                    log.warning("turn heads snapshot %s not written: %s", snapshot, exc)
            return found

    def _head_snapshot(self) -> Path | None:
        """Where the turn heads' snapshot lives (in the sidecar folder), or None."""
        root = self.sidecar_dir()
        return root / "heads.npz" if root is not None else None

    def _load_head_snapshot(self, path: Path, generation: int) -> HeadTable | None:
        from ..heads import load_snapshot

        if not path.exists():
            return None
        return load_snapshot(path, generation, self.max_turn_id(), self._read_heads,
                             self.config.retrieval.vector_sidecar_checks)

    def _read_newer_heads(self, after: int, limit: int) -> list[tuple[int, str, int, str | None, float, str]]:
        return self._rows("SELECT id, session_id, seq, speaker, ts, user_id FROM turns WHERE id > ? ORDER BY id "
                          "LIMIT ?", (after, limit))

    def _read_heads(self, ids: list[int]) -> list[tuple[int, str, int, str | None, float, str]]:
        return self._rows_in("SELECT id, session_id, seq, speaker, ts, user_id FROM turns WHERE id IN ({marks})",
                             [int(i) for i in dict.fromkeys(ids)])

    def previous_turns(self, ids: Sequence[int]) -> dict[int, StoredTurn]:
        rows = self._rows_in(
            f"SELECT cur.id, {_TURN_COLUMNS} FROM turns cur JOIN turns t ON t.user_id = cur.user_id "
            "AND t.session_id = cur.session_id AND t.seq = cur.seq - 1 WHERE cur.id IN ({marks})",
            [int(i) for i in dict.fromkeys(ids)])
        return {r[0]: _turn(r[1:]) for r in rows}

    def speakers(self, user_id: str) -> list[tuple[str, int]]:
        return [(n, int(c)) for n, c in self._rows("SELECT name, turns FROM speakers WHERE user_id = ?", (user_id,))]

    def counts(self, user_id: str) -> dict[str, int]:
        turns = self._rows("SELECT count(*) FROM turns WHERE user_id = ?", (user_id,))[0][0]
        sessions, open_, pending = self._rows(
            "SELECT count(*), count(CASE WHEN status = 'open' THEN 1 END), "
            f"count(CASE WHEN needs_consolidation = {self.dialect.true} THEN 1 END) FROM sessions WHERE user_id = ?",
            (user_id,))[0]
        return {"turns": int(turns), "sessions": int(sessions), "open_sessions": int(open_),
                "pending_consolidation": int(pending)}

    # --- vectors -------------------------------------------------------------------------------------
    def turns_missing_vectors(self, model: str, after_id: int, limit: int, user_id: str | None = None
                              ) -> list[StoredTurn]:
        mine, params = ("", [after_id]) if user_id is None else (" AND t.user_id = ?", [after_id, user_id])
        rows = self._rows(
            f"SELECT {_TURN_COLUMNS} FROM turns t WHERE t.id > ?{mine} AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.kind = 'turn' AND v.item_id = t.id AND v.model = ?) ORDER BY t.id LIMIT ?", [*params, model, limit])
        return [_turn(r) for r in rows]

    def count_missing_vectors(self, model: str) -> int:
        return int(self._rows(
            "SELECT count(*) FROM turns t WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.kind = 'turn' "
            "AND v.item_id = t.id AND v.model = ?)", (model,))[0][0])

    def vector_watermark(self, user_id: str, model: str) -> tuple[int, int]:
        newest = self._rows("SELECT coalesce(max(id), 0) FROM vectors WHERE user_id = ? AND model = ?",
                            (user_id, model))[0][0]
        return int(newest), self._meta("vector_deletions")

    def count_vectors(self, user_id: str, model: str, after_id: int, upto_id: int) -> int:
        return int(self._rows("SELECT count(*) FROM vectors WHERE user_id = ? AND model = ? AND id > ? AND id <= ?",
                              (user_id, model, after_id, upto_id))[0][0])

    def vector_counts(self, user_id: str) -> dict[str, int]:
        return {m: int(n) for m, n in self._rows(
            "SELECT model, count(*) FROM vectors WHERE user_id = ? GROUP BY model", (user_id,))}

    def delete_vectors_not_of(self, model: str) -> int:
        with self._write() as tx:
            return int(tx.execute("DELETE FROM vectors WHERE model <> ?", (model,)).rowcount)
