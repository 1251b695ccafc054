"""SQL for judgment memory (tables from migration m005): judgments, their verdicts, and the forget step. Rows
only: ranking, utility and embeddings live in `episodic_memory.judgments`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..records import JUDGMENT_KIND, JudgmentRow, VerdictRow
from ..rows import JUDGMENT_COLUMNS as _COLUMNS
from ..rows import judgment_row as _row
from .core import Scope, SQLCore
from .dialect import Tx


class JudgmentCore(SQLCore):
    """Judgments and their verdicts (a mixin of both stores; their vectors go through the turns mixin's
    `add_vectors`). Every read and write is scoped to a `user_id`."""

    if TYPE_CHECKING:
        def add_vectors(self, model: str, rows: Sequence[tuple[str, int, str, str | None, float | None, bytes]]
                        ) -> int: ...

    # --- writing -------------------------------------------------------------------------------------
    def insert_judgment_or_merge(self, *, user_id: str, memory_id: str, trigger: str, judgment: str,
                                 reasoning: str, domain: str | None, metadata: dict[str, Any], dedup_key: str,
                                 merge_metadata: Callable[[str | None, dict[str, Any]], str]
                                 ) -> tuple[JudgmentRow, bool]:
        """A merge keeps the first wording and fills a missing domain; on PostgreSQL a second writer of the
        same judgment waits on the first's row lock, then merges."""
        now = time.time()
        with self._write("judgments") as tx:
            old = tx.one(f"SELECT {_COLUMNS} FROM judgments WHERE user_id = ? AND dedup_key = ?{tx.dialect.for_update}",
                         (user_id, dedup_key))
            if old is None:
                tx.execute(
                    "INSERT INTO judgments (memory_id, user_id, trigger, judgment, reasoning, domain, "
                    "metadata, dedup_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (memory_id, user_id, trigger, judgment, reasoning, domain, merge_metadata(None, metadata),
                     dedup_key, now, now))
                created, key = True, memory_id
            else:
                row = _row(old)
                tx.execute(
                    "UPDATE judgments SET stored = stored + 1, domain = coalesce(domain, ?), metadata = ?, "
                    "updated_at = ? WHERE id = ?", (domain, merge_metadata(row.metadata, metadata), now, row.id))
                created, key = False, row.memory_id
            new = tx.one(f"SELECT {_COLUMNS} FROM judgments WHERE memory_id = ?", (key,))
        return _row(new), created

    def add_verdict(self, user_id: str, memory_id: str, adopted: bool, correction: str | None,
                    ts: float) -> bool:
        with self._write() as tx:
            row = tx.one("SELECT id FROM judgments WHERE memory_id = ? AND user_id = ?", (memory_id, user_id))
            if row is None:
                return False
            tx.execute("INSERT INTO judgment_verdicts (judgment_id, adopted, correction, ts) VALUES (?, ?, ?, ?)",
                       (row[0], bool(adopted), correction, ts))
            tx.execute("UPDATE judgments SET updated_at = ? WHERE id = ?", (time.time(), row[0]))
            return True

    def delete_judgments(self, user_id: str, memory_ids: Sequence[str]) -> list[str]:
        deleted: list[str] = []
        with self._write() as tx:
            for memory_id in memory_ids:
                if tx.execute("DELETE FROM judgments WHERE memory_id = ? AND user_id = ?", (memory_id, user_id)).rowcount:
                    deleted.append(memory_id)
        return deleted

    # --- reading -------------------------------------------------------------------------------------
    def judgment(self, user_id: str, memory_id: str) -> JudgmentRow | None:
        rows = self._rows(f"SELECT {_COLUMNS} FROM judgments WHERE memory_id = ? AND user_id = ?",
                          (memory_id, user_id))
        return _row(rows[0]) if rows else None

    def judgments_by_id(self, user_id: str, ids: Sequence[int]) -> dict[int, JudgmentRow]:
        rows = self._rows_in(f"SELECT {_COLUMNS} FROM judgments WHERE id IN ({{marks}}) AND "
                             f"{self.dialect.noindex}user_id = ?", [int(i) for i in dict.fromkeys(ids)],
                             after=[user_id])
        return {r[0]: _row(r) for r in rows}

    def iter_judgments(self, user_id: str, *, domain: str | None = None,
                       chunk: int = 500) -> Iterator[list[JudgmentRow]]:
        after = 0
        while True:
            sql = f"SELECT {_COLUMNS} FROM judgments WHERE user_id = ? AND id > ?"
            params: list[Any] = [user_id, after]
            if domain is not None:
                sql += " AND domain = ?"
                params.append(domain)
            rows = self._rows(sql + " ORDER BY id LIMIT ?", [*params, chunk])
            if not rows:
                return
            yield [_row(r) for r in rows]
            after = rows[-1][0]

    def verdicts(self, ids: Sequence[int]) -> dict[int, list[VerdictRow]]:
        out: dict[int, list[VerdictRow]] = {i: [] for i in ids}
        for jid, adopted, correction, ts in self._rows_in(
                "SELECT judgment_id, adopted, correction, ts FROM judgment_verdicts "
                "WHERE judgment_id IN ({marks}) ORDER BY ts, id", [int(i) for i in dict.fromkeys(ids)]):
            out[jid].append(VerdictRow(jid, bool(adopted), correction, ts))
        return out

    def judgment_count(self, user_id: str) -> int:
        return int(self._rows("SELECT count(*) FROM judgments WHERE user_id = ?", (user_id,))[0][0])

    # --- vectors -------------------------------------------------------------------------------------
    def judgments_missing_vectors(self, model: str, after_id: int, limit: int) -> list[JudgmentRow]:
        rows = self._rows(
            f"SELECT {_COLUMNS} FROM judgments j WHERE j.id > ? AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.kind = 'judgment' AND v.item_id = j.id AND v.model = ?) ORDER BY j.id LIMIT ?",
            (after_id, model, limit))
        return [_row(r) for r in rows]

    def add_judgment_vectors(self, model: str, rows: Sequence[tuple[JudgmentRow, bytes]]) -> int:
        return self.add_vectors(model, [(JUDGMENT_KIND, r.id, r.user_id, None, r.created_at, vec)
                                        for r, vec in rows])

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_judgments(self, tx: Tx, scope: Scope) -> dict[str, int]:
        """A user's (or everyone's) judgments and verdicts; forgetting one session leaves them (they belong
        to none)."""
        if scope.per_session:
            return {}
        verdicts = tx.execute(
            f"DELETE FROM judgment_verdicts WHERE judgment_id IN (SELECT id FROM judgments WHERE {scope.where})",
            scope.params).rowcount
        judgments = tx.execute(f"DELETE FROM judgments WHERE {scope.where}", scope.params).rowcount
        return {"judgments": judgments, "judgment_verdicts": verdicts}
