"""Episodes, workstreams and open loops on PostgreSQL: the shared SQL of `store/sql/threads.py`, with an
episode's upsert (one statement, safe against a concurrent one)."""

from __future__ import annotations

import json
import time

from ..records import NewEpisode
from ..sql.threads import ThreadCore, set_terms
from .turns import TurnPg


class ThreadPg(ThreadCore, TurnPg):
    """Episodes, workstreams and open loops (a mixin of `PostgresStore`)."""

    def upsert_episode(self, new: NewEpisode) -> tuple[int, bool]:
        now = time.time()
        with self._write() as tx:
            values = {"summary": new.summary, "summarizer": new.summarizer, "keyphrases": json.dumps(new.keyphrases),
                      "source_ids": json.dumps(new.source_ids), "turns": new.turns, "started_at": new.started_at,
                      "ended_at": new.ended_at, "vec": new.vec, "vec_model": new.vec_model, "now": now,
                      "user": new.user_id, "session": new.session_id}
            old = tx.one("SELECT id, summary FROM episodes WHERE user_id = ? AND session_id = ? FOR UPDATE",
                         (new.user_id, new.session_id))
            row = tx.db.execute(
                "INSERT INTO episodes (user_id, session_id, summary, summarizer, keyphrases, source_ids, turns, "
                "started_at, ended_at, vec, vec_model, created_at, updated_at) VALUES (%(user)s, %(session)s, "
                "%(summary)s, %(summarizer)s, %(keyphrases)s, %(source_ids)s, %(turns)s, %(started_at)s, "
                "%(ended_at)s, %(vec)s, %(vec_model)s, %(now)s, %(now)s) ON CONFLICT (user_id, session_id) DO UPDATE "
                "SET summary = excluded.summary, summarizer = excluded.summarizer, keyphrases = excluded.keyphrases, "
                "source_ids = excluded.source_ids, turns = excluded.turns, started_at = excluded.started_at, "
                "ended_at = excluded.ended_at, vec = excluded.vec, vec_model = excluded.vec_model, "
                "updated_at = excluded.updated_at RETURNING id", values).fetchone()
            assert row is not None
            episode_id = int(row[0])
            set_terms(tx, new, episode_id)
            return episode_id, old is None or old[1] != new.summary
