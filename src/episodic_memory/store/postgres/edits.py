"""SQL for what a person changes by hand (PostgreSQL): a turn found by its caller id, a fact pinned or deleted, a
loop reopened. The semantics are the SQLite store's (`store/sqlite/edits.py`)."""

from __future__ import annotations

import time
from typing import Any

from ..records import StoredTurn
from .threads import _lock_workstreams, _rollup
from .turns import _TURN_COLUMNS, TurnPg, _turn


class EditPg(TurnPg):
    """Hand edits (a mixin of `PostgresStore`)."""

    def turns_by_caller_id(self, user_id: str, turn_id: str) -> list[StoredTurn]:
        """The user's turns with this caller id (unique in a session, so one per session), oldest first."""
        rows = self._query(f"SELECT {_TURN_COLUMNS} FROM turns t WHERE t.user_id = %s AND t.turn_id = %s "
                           "ORDER BY t.ts, t.id", (user_id, turn_id))
        return [_turn(r) for r in rows]

    def pin_fact(self, user_id: str, fact_id: int, pinned: bool) -> bool:
        """Pin (or unpin) a fact; False when the user has no such fact."""
        with self.transaction() as db:
            cur = db.execute("UPDATE facts SET pinned = %s, updated_at = %s WHERE id = %s AND user_id = %s",
                             (int(pinned), time.time(), fact_id, user_id))
            return cur.rowcount > 0

    def pinned_facts(self, user_id: str, limit: int | None = None) -> list[dict[str, Any]]:
        """The user's pinned facts, current ones only, newest first: id, type, text, session_id, created_at."""
        rows = self._query(
            "SELECT id, type, text, session_id, created_at FROM facts WHERE user_id = %s AND pinned = 1 "
            "AND valid_to IS NULL ORDER BY created_at DESC, id DESC LIMIT %s", (user_id, limit))
        return [{"id": int(r[0]), "type": r[1], "text": r[2], "session_id": r[3], "created_at": r[4]} for r in rows]

    def delete_fact(self, user_id: str, fact_id: int) -> bool:
        """Delete one fact; False when the user has no such fact. Its supersession chain is mended (the facts on
        either side are linked; when it was current, the one it replaced is current again); entities no fact names
        any more go with it, and the edges between what it named are recounted."""
        with self.transaction() as db:
            row = db.execute("SELECT supersedes, superseded_by, session_id FROM facts WHERE id = %s AND user_id = %s FOR UPDATE",
                             (fact_id, user_id)).fetchone()
            if row is None:
                return False
            older, newer, session_id = row
            entities = [int(r[0]) for r in db.execute("SELECT entity_id FROM fact_entities WHERE fact_id = %s",
                                                      (fact_id,))]
            db.execute("DELETE FROM facts WHERE id = %s", (fact_id,))
            now = time.time()
            if older is not None:
                if newer is None:  # it was current: what it replaced is believed again
                    db.execute("UPDATE facts SET superseded_by = NULL, valid_to = NULL, updated_at = %s WHERE id = %s",
                               (now, older))
                else:
                    db.execute("UPDATE facts SET superseded_by = %s, updated_at = %s WHERE id = %s",
                               (newer, now, older))
            if newer is not None:
                db.execute("UPDATE facts SET supersedes = %s, updated_at = %s WHERE id = %s", (older, now, newer))
            if entities:
                db.execute("UPDATE entities SET profile = NULL, profile_facts = NULL WHERE id = ANY(%s)", (entities,))
                db.execute("DELETE FROM entities e WHERE e.id = ANY(%s) AND NOT EXISTS "  # aliases and edges cascade
                           "(SELECT 1 FROM fact_entities fe WHERE fe.entity_id = e.id)", (entities,))
            for a in entities:  # recount the edges between what the fact named
                for b in entities:
                    if a < b:
                        found = db.execute("SELECT count(*) FROM fact_entities x JOIN fact_entities y ON x.fact_id = "
                                           "y.fact_id WHERE x.entity_id = %s AND y.entity_id = %s", (a, b)).fetchone()
                        n = int(found[0]) if found else 0
                        if n:
                            db.execute("UPDATE entity_edges SET weight = %s WHERE a = %s AND b = %s", (n, a, b))
                        else:
                            db.execute("DELETE FROM entity_edges WHERE a = %s AND b = %s", (a, b))
            episode = db.execute("SELECT workstream_id FROM episodes WHERE user_id = %s AND session_id = %s",
                                 (user_id, session_id)).fetchone()
            if episode and episode[0] is not None:   # whether it is confirmed counts its sessions' memories
                _lock_workstreams(db, [episode[0]])
                _rollup(db, episode[0], self.config.workstream_confirm_share)
            return True

    def reopen_loop(self, user_id: str, loop_id: int, note: str | None = None) -> bool:
        """Open a closed loop again (its closing is forgotten; `note` says why); False when the user has no such
        loop."""
        with self.transaction() as db:
            cur = db.execute(
                "UPDATE loops SET status = 'open', closed_at = NULL, closed_session = NULL, closed_by = NULL, "
                "evidence = NULL, evidence_ids = NULL, note = %s, updated_at = %s WHERE id = %s AND user_id = %s",
                (note, time.time(), loop_id, user_id))
            return cur.rowcount > 0
