"""Episodes, workstreams and open loops on SQLite: the shared SQL of `store/sql/threads.py`, with an episode's
upsert."""

from __future__ import annotations

import json
import time

from ..records import NewEpisode
from ..sql.threads import ThreadCore, set_terms
from .turns import TurnSQL


class ThreadSQL(ThreadCore, TurnSQL):
    """Episodes, workstreams and open loops (a mixin of `SQLiteStore`; reads turns' ids through `TurnSQL`)."""

    def upsert_episode(self, new: NewEpisode) -> tuple[int, bool]:
        """Its workstream is not rolled up here: the workstream step that follows always does."""
        now = time.time()
        with self._write() as tx:
            row = tx.one("SELECT id, summary FROM episodes WHERE user_id = ? AND session_id = ?",
                         (new.user_id, new.session_id))
            values = (new.summary, new.summarizer, json.dumps(new.keyphrases), json.dumps(new.source_ids), new.turns,
                      new.started_at, new.ended_at, new.vec, new.vec_model, now)
            if row is None:
                episode_id = int(tx.insert(
                    "INSERT INTO episodes (summary, summarizer, keyphrases, source_ids, turns, started_at, ended_at, "
                    "vec, vec_model, updated_at, user_id, session_id, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*values, new.user_id, new.session_id, now)) or 0)
                set_terms(tx, new, episode_id)
                return episode_id, True
            tx.execute(
                "UPDATE episodes SET summary = ?, summarizer = ?, keyphrases = ?, source_ids = ?, turns = ?, "
                "started_at = ?, ended_at = ?, vec = ?, vec_model = ?, updated_at = ? WHERE id = ?",
                (*values, row[0]))
            set_terms(tx, new, row[0])
            return row[0], row[1] != new.summary
