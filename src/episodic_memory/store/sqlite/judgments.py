"""SQL for judgment memory: judgments, their verdicts, BM25 over them, and the forget step.

Rows only: ranking, utility and embeddings live in `episodic_memory.judgments`. The tables, and the triggers
that keep `memory_fts` and `vectors` in step, are in migration m005.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ...util import chunks
from ..records import JUDGMENT_KIND, JudgmentRow, VerdictRow
from ..rows import JUDGMENT_COLUMNS as _COLUMNS
from ..rows import judgment_row as _row
from .turns import MEMORY_BM25, TurnSQL, memory_words

FTS_CODE = 4  # memory_fts rowid = id * 8 + FTS_CODE


class JudgmentSQL(TurnSQL):
    """Judgments and their verdicts (a mixin of `SQLiteStore`; their vectors go through `TurnSQL.add_vectors`).
    Every read and write is scoped to a `user_id`."""

    # --- writing -------------------------------------------------------------------------------------
    def insert_judgment_or_merge(self, *, user_id: str, memory_id: str, trigger: str, judgment: str,
                                 reasoning: str, domain: str | None, metadata: dict[str, Any], dedup_key: str,
                                 merge_metadata: Callable[[str | None, dict[str, Any]], str]
                                 ) -> tuple[JudgmentRow, bool]:
        """Store a judgment, or merge into the user's row with the same `dedup_key`. Returns (row, created).

        A merge keeps the first wording, fills a missing domain and passes (old metadata, new metadata) to
        `merge_metadata`, which returns the JSON to keep.
        """
        now = time.time()
        with self.transaction() as db:
            old = db.execute(f"SELECT {_COLUMNS} FROM judgments WHERE user_id = ? AND dedup_key = ?",
                             (user_id, dedup_key)).fetchone()
            if old is None:
                db.execute(
                    "INSERT INTO judgments (memory_id, user_id, trigger, judgment, reasoning, domain, "
                    "metadata, dedup_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (memory_id, user_id, trigger, judgment, reasoning, domain, merge_metadata(None, metadata),
                     dedup_key, now, now),
                )
                created = True
                key = memory_id
            else:
                row = _row(old)
                db.execute(
                    "UPDATE judgments SET stored = stored + 1, domain = coalesce(domain, ?), metadata = ?, "
                    "updated_at = ? WHERE id = ?",
                    (domain, merge_metadata(row.metadata, metadata), now, row.id),
                )
                created = False
                key = row.memory_id
            new = db.execute(f"SELECT {_COLUMNS} FROM judgments WHERE memory_id = ?", (key,)).fetchone()
        return _row(new), created

    def add_verdict(self, user_id: str, memory_id: str, adopted: bool, correction: str | None,
                    ts: float) -> bool:
        """Record a verdict on one of the user's judgments. False when the user has no such judgment."""
        with self.transaction() as db:
            row = db.execute("SELECT id FROM judgments WHERE memory_id = ? AND user_id = ?",
                             (memory_id, user_id)).fetchone()
            if row is None:
                return False
            db.execute(
                "INSERT INTO judgment_verdicts (judgment_id, adopted, correction, ts) VALUES (?, ?, ?, ?)",
                (row[0], int(adopted), correction, ts))
            db.execute("UPDATE judgments SET updated_at = ? WHERE id = ?", (time.time(), row[0]))
            return True

    def delete_judgments(self, user_id: str, memory_ids: Sequence[str]) -> list[str]:
        """Delete judgments (their verdicts, FTS rows and vectors go with them). Returns the ids deleted."""
        deleted: list[str] = []
        with self.transaction() as db:
            for memory_id in memory_ids:
                cur = db.execute("DELETE FROM judgments WHERE memory_id = ? AND user_id = ?",
                                 (memory_id, user_id))
                if cur.rowcount:
                    deleted.append(memory_id)
        return deleted

    # --- reading -------------------------------------------------------------------------------------
    def judgment(self, user_id: str, memory_id: str) -> JudgmentRow | None:
        rows = self._query(f"SELECT {_COLUMNS} FROM judgments WHERE memory_id = ? AND user_id = ?",
                           (memory_id, user_id))
        return _row(rows[0]) if rows else None

    def judgments_by_id(self, user_id: str, ids: Sequence[int]) -> dict[int, JudgmentRow]:
        out: dict[int, JudgmentRow] = {}
        for chunk in chunks(ids):
            marks = ",".join("?" * len(chunk))
            rows = self._query(f"SELECT {_COLUMNS} FROM judgments WHERE id IN ({marks}) AND +user_id = ?",
                               [*chunk, user_id])
            out.update({r[0]: _row(r) for r in rows})
        return out

    def iter_judgments(self, user_id: str, *, domain: str | None = None,
                       chunk: int = 500) -> Iterator[list[JudgmentRow]]:
        """A user's judgments in id order, `chunk` at a time (streams: never the whole table in memory)."""
        after = 0
        while True:
            sql = f"SELECT {_COLUMNS} FROM judgments WHERE user_id = ? AND id > ?"
            params: list[Any] = [user_id, after]
            if domain is not None:
                sql += " AND domain = ?"
                params.append(domain)
            rows = self._query(sql + " ORDER BY id LIMIT ?", [*params, chunk])
            if not rows:
                return
            yield [_row(r) for r in rows]
            after = rows[-1][0]

    def verdicts(self, ids: Sequence[int]) -> dict[int, list[VerdictRow]]:
        """Every verdict of these judgments, oldest first."""
        out: dict[int, list[VerdictRow]] = {i: [] for i in ids}
        for chunk in chunks(ids):
            marks = ",".join("?" * len(chunk))
            for jid, adopted, correction, ts in self._query(
                "SELECT judgment_id, adopted, correction, ts FROM judgment_verdicts "
                f"WHERE judgment_id IN ({marks}) ORDER BY ts, id", chunk,
            ):
                out[jid].append(VerdictRow(jid, bool(adopted), correction, ts))
        return out

    def judgment_count(self, user_id: str) -> int:
        return self._query("SELECT count(*) FROM judgments WHERE user_id = ?", (user_id,))[0][0]

    def search_judgments(self, match: str, user_id: str, *, limit: int,
                         domain: str | None = None) -> list[tuple[int, float]]:
        """BM25 over the user's judgments (trigger, judgment and reasoning) in `memory_fts`: (id, score), best
        first, score made positive. `match` must be a safe MATCH expression (see retrieve.fts_query)."""
        sql = (f"SELECT j.id, -{MEMORY_BM25} AS score FROM memory_fts "
               "JOIN judgments j ON j.id = memory_fts.item_id WHERE memory_fts MATCH ? "
               "AND memory_fts.kind = 'judgment' AND memory_fts.user_id = ? AND j.user_id = ?")
        params: list[Any] = [memory_words(match, user_id, not self._only_user(user_id)), user_id, user_id]
        if domain is not None:
            sql += " AND j.domain = ?"
            params.append(domain)
        return [(r[0], r[1]) for r in self._query(sql + " ORDER BY score DESC LIMIT ?", [*params, limit])]

    # --- vectors -------------------------------------------------------------------------------------
    def max_judgment_id(self) -> int:
        return self._query("SELECT coalesce(max(id), 0) FROM judgments")[0][0]

    def judgments_missing_vectors(self, model: str, after_id: int, limit: int) -> list[JudgmentRow]:
        """Judgments (any user) with id > `after_id` and no vector of `model`, in id order."""
        rows = self._query(
            f"SELECT {_COLUMNS} FROM judgments j WHERE j.id > ? AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.kind = 'judgment' AND v.item_id = j.id AND v.model = ?) ORDER BY j.id LIMIT ?",
            (after_id, model, limit),
        )
        return [_row(r) for r in rows]

    def add_judgment_vectors(self, model: str, rows: Sequence[tuple[JudgmentRow, bytes]]) -> int:
        return self.add_vectors(model, [(JUDGMENT_KIND, r.id, r.user_id, None, r.created_at, vec)
                                        for r, vec in rows])

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_judgments(self, db: sqlite3.Connection, where: str, params: list[Any]) -> dict[str, int]:
        """The forget step: a user's (or everyone's) judgments and verdicts; triggers take FTS rows and vectors.

        Judgments belong to no session, so forgetting one session leaves them.
        """
        if "session_id" in where:
            return {}
        verdicts = db.execute(
            f"DELETE FROM judgment_verdicts WHERE judgment_id IN (SELECT id FROM judgments WHERE {where})", params
        ).rowcount
        judgments = db.execute(f"DELETE FROM judgments WHERE {where}", params).rowcount
        return {"judgments": judgments, "judgment_verdicts": verdicts}
