"""SQL for judgment memory on PostgreSQL: judgments, their verdicts, BM25 over them, and the forget step (tables from
m005; `memory_fts` and `vectors` kept in step by the trigger of m003)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import psycopg

from ..records import JUDGMENT_KIND, JudgmentRow, VerdictRow
from ..rows import JUDGMENT_COLUMNS as _COLUMNS
from ..rows import judgment_row as _row
from .turns import TurnPg, _ints


class JudgmentPg(TurnPg):
    """Judgments and their verdicts (a mixin of `PostgresStore`). Every read and write is scoped to a `user_id`."""

    # --- writing -------------------------------------------------------------------------------------
    def insert_judgment_or_merge(self, *, user_id: str, memory_id: str, trigger: str, judgment: str,
                                 reasoning: str, domain: str | None, metadata: dict[str, Any], dedup_key: str,
                                 merge_metadata: Callable[[str | None, dict[str, Any]], str]
                                 ) -> tuple[JudgmentRow, bool]:
        """Store a judgment, or merge into the user's row with the same `dedup_key` (two processes storing the
        same judgment at once: the second waits on the first's row and merges)."""
        now = time.time()
        with self.transaction("judgments") as db:
            old = db.execute(f"SELECT {_COLUMNS} FROM judgments WHERE user_id = %s AND dedup_key = %s FOR UPDATE",
                             (user_id, dedup_key)).fetchone()
            if old is None:
                new = db.execute(
                    "INSERT INTO judgments (memory_id, user_id, trigger, judgment, reasoning, domain, metadata, "
                    f"dedup_key, created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                    f"RETURNING {_COLUMNS}",
                    (memory_id, user_id, trigger, judgment, reasoning, domain, merge_metadata(None, metadata),
                     dedup_key, now, now)).fetchone()
                created = True
            else:
                row = _row(old)
                new = db.execute(
                    "UPDATE judgments SET stored = stored + 1, domain = coalesce(domain, %s), metadata = %s, "
                    f"updated_at = %s WHERE id = %s RETURNING {_COLUMNS}",
                    (domain, merge_metadata(row.metadata, metadata), now, row.id)).fetchone()
                created = False
        assert new is not None
        return _row(new), created

    def add_verdict(self, user_id: str, memory_id: str, adopted: bool, correction: str | None,
                    ts: float) -> bool:
        with self.transaction() as db:
            row = db.execute("SELECT id FROM judgments WHERE memory_id = %s AND user_id = %s",
                             (memory_id, user_id)).fetchone()
            if row is None:
                return False
            db.execute("INSERT INTO judgment_verdicts (judgment_id, adopted, correction, ts) VALUES (%s, %s, %s, %s)",
                       (row[0], bool(adopted), correction, ts))
            db.execute("UPDATE judgments SET updated_at = %s WHERE id = %s", (time.time(), row[0]))
            return True

    def delete_judgments(self, user_id: str, memory_ids: Sequence[str]) -> list[str]:
        with self.transaction() as db:
            gone = {r[0] for r in db.execute(
                "DELETE FROM judgments WHERE memory_id = ANY(%s) AND user_id = %s RETURNING memory_id",
                (list(memory_ids), user_id))}
        return [m for m in dict.fromkeys(memory_ids) if m in gone]

    # --- reading -------------------------------------------------------------------------------------
    def judgment(self, user_id: str, memory_id: str) -> JudgmentRow | None:
        rows = self._query(f"SELECT {_COLUMNS} FROM judgments WHERE memory_id = %s AND user_id = %s",
                           (memory_id, user_id))
        return _row(rows[0]) if rows else None

    def judgments_by_id(self, user_id: str, ids: Sequence[int]) -> dict[int, JudgmentRow]:
        rows = self._query(f"SELECT {_COLUMNS} FROM judgments WHERE id = ANY(%s) AND user_id = %s",
                           (_ints(ids), user_id))
        return {r[0]: _row(r) for r in rows}

    def iter_judgments(self, user_id: str, *, domain: str | None = None,
                       chunk: int = 500) -> Iterator[list[JudgmentRow]]:
        after = 0
        while True:
            sql = f"SELECT {_COLUMNS} FROM judgments WHERE user_id = %s AND id > %s"
            params: list[Any] = [user_id, after]
            if domain is not None:
                sql += " AND domain = %s"
                params.append(domain)
            rows = self._query(sql + " ORDER BY id LIMIT %s", [*params, chunk])
            if not rows:
                return
            yield [_row(r) for r in rows]
            after = rows[-1][0]

    def verdicts(self, ids: Sequence[int]) -> dict[int, list[VerdictRow]]:
        out: dict[int, list[VerdictRow]] = {i: [] for i in ids}
        for jid, adopted, correction, ts in self._query(
                "SELECT judgment_id, adopted, correction, ts FROM judgment_verdicts WHERE judgment_id = ANY(%s) "
                "ORDER BY ts, id", (_ints(ids),)):
            out[jid].append(VerdictRow(jid, bool(adopted), correction, ts))
        return out

    def judgment_count(self, user_id: str) -> int:
        return int(self._query("SELECT count(*) FROM judgments WHERE user_id = %s", (user_id,))[0][0])

    def search_judgments(self, match: str, user_id: str, *, limit: int,
                         domain: str | None = None) -> list[tuple[int, float]]:
        """BM25 over the user's judgments (trigger, judgment and reasoning), scored among the user's derived
        memories like `search_memories`: (id, score), best first."""
        extra, params = "", {}
        if domain is not None:
            extra = " AND EXISTS (SELECT 1 FROM judgments j WHERE j.id = m.item_id AND j.domain = %(domain)s)"
            params = {"domain": domain}
        rows = self._search_memory_fts(match, user_id, limit=limit, kinds=[JUDGMENT_KIND], extra=extra,
                                       extra_params=params)
        return [(item_id, score) for _, item_id, score in rows]

    # --- vectors -------------------------------------------------------------------------------------
    def max_judgment_id(self) -> int:
        return self._counters()["judgments"]

    def judgments_missing_vectors(self, model: str, after_id: int, limit: int) -> list[JudgmentRow]:
        rows = self._query(
            f"SELECT {_COLUMNS} FROM judgments j WHERE j.id > %s AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.kind = 'judgment' AND v.item_id = j.id AND v.model = %s) ORDER BY j.id LIMIT %s",
            (after_id, model, limit))
        return [_row(r) for r in rows]

    def add_judgment_vectors(self, model: str, rows: Sequence[tuple[JudgmentRow, bytes]]) -> int:
        return self.add_vectors(model, [(JUDGMENT_KIND, r.id, r.user_id, None, r.created_at, vec)
                                        for r, vec in rows])

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_judgments(self, db: psycopg.Connection, where: str, params: dict[str, Any]) -> dict[str, int]:
        """A user's (or everyone's) judgments and verdicts; judgments belong to no session."""
        if "session" in params:
            return {}
        verdicts = db.execute(
            f"DELETE FROM judgment_verdicts WHERE judgment_id IN (SELECT id FROM judgments WHERE {where})", params
        ).rowcount
        judgments = db.execute(f"DELETE FROM judgments WHERE {where}", params).rowcount
        return {"judgments": judgments, "judgment_verdicts": verdicts}
