"""SQL for what a person changes by hand: a turn found by its caller id, a fact pinned or forgotten, a loop
reopened (editing a fact's text is a new fact superseding it: `FactCore.insert_fact`)."""

from __future__ import annotations

import time
from typing import Any

from ..records import StoredTurn
from ..rows import TURN_COLUMNS as _TURN_COLUMNS
from ..rows import turn_row as _turn
from .core import SQLCore
from .threads import lock_workstreams, rollup


class EditCore(SQLCore):
    """Hand edits (a mixin of both stores)."""

    def turns_by_caller_id(self, user_id: str, turn_id: str) -> list[StoredTurn]:
        rows = self._rows(f"SELECT {_TURN_COLUMNS} FROM turns t WHERE t.user_id = ? AND t.turn_id = ? "
                          "ORDER BY t.ts, t.id", (user_id, turn_id))
        return [_turn(r) for r in rows]

    def pin_fact(self, user_id: str, fact_id: int, pinned: bool) -> bool:
        with self._write() as tx:
            return bool(tx.execute("UPDATE facts SET pinned = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                                   (int(pinned), time.time(), fact_id, user_id)).rowcount > 0)

    def pinned_facts(self, user_id: str, limit: int | None = None) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT id, type, text, session_id, created_at FROM facts WHERE user_id = ? AND pinned = 1 "
            "AND valid_to IS NULL ORDER BY created_at DESC, id DESC" + ("" if limit is None else " LIMIT ?"),
            (user_id,) if limit is None else (user_id, limit))
        return [{"id": int(r[0]), "type": r[1], "text": r[2], "session_id": r[3], "created_at": r[4]} for r in rows]

    def delete_fact(self, user_id: str, fact_id: int) -> bool:
        """The edges between what the fact named are recounted, and its session's workstream rolled up."""
        with self._write() as tx:
            row = tx.one("SELECT supersedes, superseded_by, session_id FROM facts WHERE id = ? AND user_id = ?"
                         + tx.dialect.for_update, (fact_id, user_id))
            if row is None:
                return False
            older, newer, session_id = row
            entities = [int(r[0]) for r in tx.all("SELECT entity_id FROM fact_entities WHERE fact_id = ?", (fact_id,))]
            tx.execute("DELETE FROM facts WHERE id = ?", (fact_id,))
            now = time.time()
            if older is not None:
                if newer is None:  # it was current: what it replaced is believed again
                    tx.execute("UPDATE facts SET superseded_by = NULL, valid_to = NULL, updated_at = ? WHERE id = ?",
                               (now, older))
                else:
                    tx.execute("UPDATE facts SET superseded_by = ?, updated_at = ? WHERE id = ?", (newer, now, older))
            if newer is not None:
                tx.execute("UPDATE facts SET supersedes = ?, updated_at = ? WHERE id = ?", (older, now, newer))
            if entities:
                named, values = tx.dialect.any("id", entities)
                tx.execute(f"UPDATE entities SET profile = NULL, profile_facts = NULL WHERE {named}", values)  # may quote it
                tx.execute(f"DELETE FROM entities WHERE {named} AND NOT EXISTS "  # aliases and edges cascade
                           "(SELECT 1 FROM fact_entities fe WHERE fe.entity_id = entities.id)", values)
            for a in entities:  # recount the edges between what the fact named
                for b in entities:
                    if a < b:
                        found = tx.one("SELECT count(*) FROM fact_entities x JOIN fact_entities y ON x.fact_id = "
                                       "y.fact_id WHERE x.entity_id = ? AND y.entity_id = ?", (a, b))
                        if found and found[0]:
                            tx.execute("UPDATE entity_edges SET weight = ? WHERE a = ? AND b = ?", (int(found[0]), a, b))
                        else:
                            tx.execute("DELETE FROM entity_edges WHERE a = ? AND b = ?", (a, b))
            episode = tx.one("SELECT workstream_id FROM episodes WHERE user_id = ? AND session_id = ?",
                             (user_id, session_id))
            if episode and episode[0] is not None:   # whether it is confirmed counts its sessions' memories
                lock_workstreams(tx, [episode[0]])
                rollup(tx, episode[0], self.config.workstreams.confirm_share)
            return True

    def reopen_loop(self, user_id: str, loop_id: int, note: str | None = None) -> bool:
        with self._write() as tx:
            return bool(tx.execute(
                "UPDATE loops SET status = 'open', closed_at = NULL, closed_session = NULL, closed_by = NULL, "
                "evidence = NULL, evidence_ids = NULL, note = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                (note, time.time(), loop_id, user_id)).rowcount > 0)
