"""SQL for episodes, workstreams and open loops (PostgreSQL; tables from m004). The rules — an episode per session,
workstreams recomputed from their episodes by `_rollup`, loops owned by their session's workstream — are the SQLite
store's (`store/sqlite/threads.py`); only the dialect differs. A workstream's rows are changed under a row lock on
the workstream, so two processes consolidating sessions of one thread roll it up one after the other.
"""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import psycopg

from ...util import to_iso
from ..naming import keyphrase_name, rollup_keyphrases
from ..records import LOOP_STATUSES, Episode, Loop, NewEpisode, NewLoop, SessionInfo, Workstream
from ..rows import EPISODE_COLUMNS as _EPISODE_COLUMNS
from ..rows import LOOP_COLUMNS as _LOOP_COLUMNS
from ..rows import MEMORABLE_SESSIONS, workstream_status
from ..rows import WORKSTREAM_COLUMNS as _WORKSTREAM_COLUMNS
from ..rows import episode_row as _episode
from ..rows import loop_row as _loop
from .turns import TurnPg, _ints, _session, to_vector

ROLLUP_EPISODES = 200


class ThreadPg(TurnPg):
    """Episodes, workstreams and open loops (a mixin of `PostgresStore`)."""

    # --- episodes ------------------------------------------------------------------------------------
    def upsert_episode(self, new: NewEpisode) -> tuple[int, bool]:
        now = time.time()
        with self.transaction() as db:
            values = {"summary": new.summary, "summarizer": new.summarizer, "keyphrases": json.dumps(new.keyphrases),
                      "source_ids": json.dumps(new.source_ids), "turns": new.turns, "started_at": new.started_at,
                      "ended_at": new.ended_at, "vec": new.vec, "vec_model": new.vec_model, "now": now,
                      "user": new.user_id, "session": new.session_id}
            old = db.execute("SELECT id, summary FROM episodes WHERE user_id = %s AND session_id = %s FOR UPDATE",
                             (new.user_id, new.session_id)).fetchone()
            row = db.execute(
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
            _set_terms(db, new, episode_id)
            return episode_id, old is None or old[1] != new.summary

    def session_episode(self, user_id: str, session_id: str) -> Episode | None:
        rows = self._query(f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE user_id = %s AND session_id = %s",
                           (user_id, session_id))
        return _episode(rows[0]) if rows else None

    def episode_vector(self, episode_id: int) -> tuple[np.ndarray, str] | None:
        rows = self._query("SELECT vec, vec_model FROM episodes WHERE id = %s AND vec IS NOT NULL", (episode_id,))
        return (np.frombuffer(rows[0][0], np.float32), rows[0][1]) if rows else None

    def derived_counts(self, user_id: str) -> dict[str, int]:
        """How many facts (current and superseded), episodes, workstreams (hypotheses too), loops, entities and
        judgments the user has."""
        kinds = ("facts", "episodes", "workstreams", "loops", "entities", "judgments")
        row = self._query("SELECT " + ", ".join(f"(SELECT count(*) FROM {kind} WHERE user_id = %(user)s)"
                                                for kind in kinds), {"user": user_id})[0]
        return {kind: int(n) for kind, n in zip(kinds, row, strict=True)}

    def episodes(self, user_id: str, *, limit: int | None = None, ids: Iterable[int] | None = None,
                 workstream_id: int | None = None, with_facts: bool = True) -> list[Episode]:
        sql = f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE user_id = %s"
        narrowed = _narrow(sql, [user_id], "", ids, workstream_id)
        if narrowed is None:
            return []
        sql, params = narrowed
        sql += " ORDER BY coalesce(ended_at, created_at) DESC, id DESC"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(limit)
        found = [_episode(r) for r in self._query(sql, params)]
        if with_facts and found:
            by_session = self.session_facts(user_id, [e.session_id for e in found])
            for e in found:
                e.facts = by_session.get(e.session_id, [])
        sources = self.source_ids(user_id, {i for e in found for i in e.source_ids})
        for e in found:
            e.source_turns = [sources[i] for i in e.source_ids if i in sources]
        return found

    def session_facts(self, user_id: str, session_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        rows = self._query(
            "SELECT session_id, id, type, text, route, valid_to IS NULL, source_ids FROM facts "
            "WHERE user_id = %s AND session_id = ANY(%s) ORDER BY id", (user_id, list(dict.fromkeys(session_ids))))
        for session_id, fact_id, type_, text, route, current, sources in rows:
            out[session_id].append({"id": fact_id, "type": type_, "text": text, "route": route,
                                    "current": bool(current), "source_turns": json.loads(sources)})
        return dict(out)

    def session_fact_counts(self, user_id: str, session_ids: Sequence[str]) -> dict[str, int]:
        return {s: int(n) for s, n in self._query(
            "SELECT session_id, count(*) FROM facts WHERE user_id = %s AND session_id = ANY(%s) GROUP BY session_id",
            (user_id, list(dict.fromkeys(session_ids))))}

    def turn_vectors(self, user_id: str, session_id: str, model: str) -> dict[int, bytes]:
        from .turns import vector_bytes
        return {int(i): vector_bytes(v) for i, v in self._query(
            "SELECT t.id, v.vec FROM turns t JOIN vectors v ON v.kind = 'turn' AND v.item_id = t.id "
            "AND v.model = %s WHERE t.user_id = %s AND t.session_id = %s", (model, user_id, session_id), binary=True)}

    def session_terms(self, episode_id: int) -> dict[str, float]:
        return dict(self._query("SELECT term, tf FROM episode_terms WHERE episode_id = %s", (episode_id,)))

    def term_frequencies(self, user_id: str, terms: Iterable[str], exclude_episode: int | None = None
                         ) -> tuple[int, dict[str, int]]:
        total = self._query("SELECT count(DISTINCT episode_id) FROM episode_terms WHERE user_id = %s "
                            "AND episode_id IS DISTINCT FROM %s", (user_id, exclude_episode))[0][0]
        df = {t: int(n) for t, n in self._query(
            "SELECT term, count(*) FROM episode_terms WHERE user_id = %s AND term = ANY(%s) "
            "AND episode_id IS DISTINCT FROM %s GROUP BY term", (user_id, sorted(set(terms)), exclude_episode))}
        return int(total), df

    def workstream_terms(self, user_id: str, terms: Iterable[str], exclude: int | None = None,
                         limit: int = 20) -> dict[int, dict[str, float]]:
        shared = {int(ws): int(n) for ws, n in self._query(
            "SELECT e.workstream_id, count(DISTINCT t.term) FROM episode_terms t JOIN episodes e ON e.id = "
            "t.episode_id WHERE t.user_id = %s AND t.term = ANY(%s) AND e.workstream_id IS NOT NULL "
            "AND e.workstream_id IS DISTINCT FROM %s GROUP BY e.workstream_id", (user_id, sorted(set(terms)), exclude))}
        out: dict[int, dict[str, float]] = {}
        for ws in sorted(shared, key=lambda w: (-shared[w], w))[:limit]:
            out[ws] = {t: float(w) for t, w in self._query(
                "SELECT t.term, sum(t.tf) FROM episode_terms t WHERE t.episode_id IN (SELECT id FROM episodes "
                "WHERE workstream_id = %s ORDER BY coalesce(ended_at, created_at) DESC LIMIT %s) GROUP BY t.term",
                (ws, ROLLUP_EPISODES))}
        return out

    def has_recall_vector(self, episode_id: int, model: str) -> bool:
        return bool(self._query("SELECT 1 FROM vectors WHERE kind = 'episode' AND item_id = %s AND model = %s",
                                (episode_id, model)))

    def episodes_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str, str, float, str]]:
        return [(int(i), u, s, t, summary) for i, u, s, t, summary in self._query(
            "SELECT e.id, e.user_id, e.session_id, e.ended_at, e.summary FROM episodes e WHERE NOT EXISTS "
            "(SELECT 1 FROM vectors v WHERE v.kind = 'episode' AND v.item_id = e.id AND v.model = %s) "
            "ORDER BY e.id LIMIT %s", (model, limit))]

    def set_recall_vector(self, episode: Episode, model: str, vec: bytes) -> None:
        with self.transaction("vectors") as db:
            db.execute("DELETE FROM vectors WHERE kind = 'episode' AND item_id = %s", (episode.id,))
            db.execute("INSERT INTO vectors (kind, item_id, user_id, session_id, ts, model, vec) "
                       "VALUES ('episode', %s, %s, %s, %s, %s, %s)",
                       (episode.id, episode.user_id, episode.session_id, episode.ended_at, model, to_vector(vec)))

    # --- workstreams ---------------------------------------------------------------------------------
    def workstreams(self, user_id: str, *, include_hypotheses: bool = False,
                    ids: Iterable[int] | None = None, active_since: float | None = None,
                    limit: int | None = None) -> list[Workstream]:
        sql = (f"SELECT {_WORKSTREAM_COLUMNS}, "
               "(SELECT count(*) FROM facts f JOIN episodes e ON f.user_id = e.user_id AND f.session_id = e.session_id "
               " WHERE e.workstream_id = w.id AND f.valid_to IS NULL), "
               "(SELECT count(*) FROM loops l WHERE l.workstream_id = w.id AND l.status = 'open') "
               "FROM workstreams w WHERE w.user_id = %s")
        params: list[Any] = [user_id]
        if not include_hypotheses:
            sql += " AND w.status = 'confirmed'"
        if ids is not None:
            ids = _ints(ids)
            if not ids:
                return []
            sql += " AND w.id = ANY(%s)"
            params.append(ids)
        if active_since is not None:
            sql += " AND w.last_activity >= %s"
            params.append(active_since)
        sql += " ORDER BY w.last_activity DESC NULLS LAST, w.id DESC"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(limit)
        out = []
        for row in self._query(sql, params):
            values = list(row)
            values[5] = json.loads(values[5])
            values[10], values[11] = int(values[10]), int(values[11])
            out.append(Workstream(*values))
        return out

    def workstream_names(self, user_id: str, ids: Iterable[int], *, include_hypotheses: bool = False
                         ) -> dict[int, str]:
        ids = _ints(ids)
        if not ids:
            return {}
        sql = "SELECT id, name FROM workstreams WHERE user_id = %s AND id = ANY(%s)"
        if not include_hypotheses:
            sql += " AND status = 'confirmed'"
        return {int(i): n for i, n in self._query(sql, (user_id, ids))}

    def centroids(self, user_id: str, model: str, exclude: int | None = None
                  ) -> tuple[list[int], np.ndarray]:
        rows = self._query(
            "SELECT id, centroid FROM workstreams WHERE user_id = %s AND centroid_model = %s "
            "AND id IS DISTINCT FROM %s ORDER BY id", (user_id, model, exclude))
        if not rows:
            return [], np.zeros((0, 0), np.float32)
        return [int(r[0]) for r in rows], np.stack([np.frombuffer(r[1], np.float32) for r in rows])

    def workstream_size(self, workstream_id: int) -> int:
        return int(self._query("SELECT count(*) FROM episodes WHERE workstream_id = %s", (workstream_id,))[0][0])

    def create_workstream(self, user_id: str, episode_id: int) -> int:
        now = time.time()
        with self.transaction() as db:
            row = db.execute("INSERT INTO workstreams (user_id, name, created_at, updated_at) VALUES (%s, '', %s, %s) "
                             "RETURNING id", (user_id, now, now)).fetchone()
            assert row is not None
            _move(db, episode_id, int(row[0]), self.config.workstream_confirm_share)
        return int(row[0])

    def attach_episode(self, episode_id: int, workstream_id: int) -> None:
        with self.transaction() as db:
            _move(db, episode_id, workstream_id, self.config.workstream_confirm_share)

    def detach_episode(self, episode_id: int) -> None:
        with self.transaction() as db:
            row = db.execute("SELECT user_id, session_id, workstream_id FROM episodes WHERE id = %s FOR UPDATE",
                             (episode_id,)).fetchone()
            if row is None or row[2] is None:
                return
            _lock_workstreams(db, [row[2]])
            db.execute("UPDATE episodes SET workstream_id = NULL WHERE id = %s", (episode_id,))
            db.execute("UPDATE loops SET workstream_id = NULL WHERE user_id = %s AND session_id = %s",
                       (row[0], row[1]))
            _rollup(db, row[2], self.config.workstream_confirm_share)

    def refresh_workstream(self, workstream_id: int) -> None:
        with self.transaction() as db:
            _lock_workstreams(db, [workstream_id])
            _rollup(db, workstream_id, self.config.workstream_confirm_share)

    def needs_name(self, workstream_id: int) -> bool:
        rows = self._query("SELECT name_source <> 'llm' OR named_sessions <> sessions FROM workstreams WHERE id = %s",
                           (workstream_id,))
        return bool(rows and rows[0][0])

    def rename_workstream(self, workstream_id: int, name: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE workstreams SET name = %s, name_source = 'llm', named_sessions = sessions, "
                       "updated_at = %s WHERE id = %s", (name, time.time(), workstream_id))

    # --- batch re-clustering (consolidate/recluster.py) ----------------------------------------------
    def thread_window(self, user_id: str, limit: int) -> list[tuple[int, int | None, bytes | None, str | None]]:
        rows = self._query("SELECT id, workstream_id, vec, vec_model FROM episodes WHERE user_id = %s "
                           "ORDER BY ended_at DESC, id DESC LIMIT %s", (user_id, limit))   # episodes_by_time
        return [(int(r[0]), None if r[1] is None else int(r[1]), None if r[2] is None else bytes(r[2]), r[3])
                for r in reversed(rows)]

    def episodes_terms(self, episode_ids: Sequence[int]) -> dict[int, dict[str, float]]:
        out: dict[int, dict[str, float]] = defaultdict(dict)
        for episode_id, term, tf in self._query(
                "SELECT episode_id, term, tf FROM episode_terms WHERE episode_id = ANY(%s)", (list(episode_ids),)):
            out[int(episode_id)][term] = float(tf)
        return dict(out)

    def regroup_episodes(self, user_id: str, groups: Sequence[tuple[int | None, Sequence[int]]],
                         detach: Sequence[int] = ()) -> list[int]:
        now = time.time()
        out: list[int] = []
        moves = [(target, e) for target, members in groups for e in members] + [(None, e) for e in detach]
        with self.transaction() as db:
            current = {int(r[0]): (r[1], r[2]) for r in db.execute(
                "SELECT id, session_id, workstream_id FROM episodes WHERE id = ANY(%s) AND user_id = %s "
                "ORDER BY id FOR UPDATE", (sorted({e for _, e in moves}), user_id)).fetchall()}
            wanted = {t for t, _ in groups if t is not None} | {w for _, w in current.values() if w is not None}
            _lock_workstreams(db, wanted)
            alive = {int(r[0]) for r in db.execute("SELECT id FROM workstreams WHERE id = ANY(%s) AND user_id = %s",
                                                   (sorted(wanted), user_id)).fetchall()}
            touched: set[int] = set()

            def place(episode_id: int, target: int | None) -> None:
                row = current.get(episode_id)
                if row is None or row[1] == target:
                    return
                if row[1] is not None:
                    touched.add(int(row[1]))
                db.execute("UPDATE episodes SET workstream_id = %s WHERE id = %s", (target, episode_id))
                db.execute("UPDATE loops SET workstream_id = %s WHERE user_id = %s AND session_id = %s",
                           (target, user_id, row[0]))
                current[episode_id] = (row[0], target)

            for target, members in groups:
                if target is None or target not in alive:
                    row = db.execute("INSERT INTO workstreams (user_id, name, created_at, updated_at) "
                                     "VALUES (%s, '', %s, %s) RETURNING id", (user_id, now, now)).fetchone()
                    assert row is not None
                    target = int(row[0])
                touched.add(target)
                out.append(target)
                for episode_id in members:
                    place(episode_id, target)
            for episode_id in detach:
                place(episode_id, None)
            for ws in sorted(touched):
                _rollup(db, ws, self.config.workstream_confirm_share)
        return out

    # --- loops ---------------------------------------------------------------------------------------
    def loops(self, user_id: str, status: str = "open", *, ids: Iterable[int] | None = None,
              workstream_id: int | None = None, limit: int | None = None) -> list[Loop]:
        if status not in LOOP_STATUSES:
            raise ValueError(f"status must be one of {', '.join(LOOP_STATUSES)}, got {status!r}")
        sql = (f"SELECT {_LOOP_COLUMNS} FROM loops l LEFT JOIN workstreams w ON w.id = l.workstream_id "
               "WHERE l.user_id = %s")
        params: list[Any] = [user_id]
        if status != "all":
            sql += " AND l.status = %s"
            params.append(status)
        narrowed = _narrow(sql, params, "l.", ids, workstream_id)
        if narrowed is None:
            return []
        sql, params = narrowed
        sql += " ORDER BY l.created_at DESC, l.id DESC"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(limit)
        found = [_loop(r) for r in self._query(sql, params)]
        sources = self.source_ids(user_id, {i for lp in found for i in lp.source_ids})
        for lp in found:
            lp.source_turns = [sources[i] for i in lp.source_ids if i in sources]
        return found

    def recent_closed_loops(self, user_id: str, closed_since: float) -> list[Loop]:
        sql = (f"SELECT {_LOOP_COLUMNS} FROM loops l LEFT JOIN workstreams w ON w.id = l.workstream_id "
               "WHERE l.user_id = %s AND l.status = 'closed' AND l.closed_at >= %s ORDER BY l.closed_at DESC")
        return [_loop(r) for r in self._query(sql, (user_id, closed_since))]

    def insert_loop(self, new: NewLoop) -> int | None:
        with self.transaction() as db:
            row = db.execute(
                "INSERT INTO loops (user_id, session_id, workstream_id, text, due, detector, source_ids, origin, "
                "created_at, last_mentioned, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (new.user_id, new.session_id, new.workstream_id, new.text, new.due, new.detector,
                 json.dumps(new.source_ids), new.origin, new.created_at, new.created_at, time.time())).fetchone()
            return int(row[0]) if row else None

    def mention_loop(self, loop_id: int, when: float) -> None:
        with self.transaction() as db:
            db.execute("UPDATE loops SET mentions = mentions + 1, last_mentioned = greatest(last_mentioned, %s), "
                       "updated_at = %s WHERE id = %s", (when, time.time(), loop_id))

    def close_loop(self, user_id: str, loop_id: int, *, closed_by: str, closed_at: float | None = None,
                   session_id: str | None = None, evidence: str | None = None, evidence_ids: Sequence[int] = (),
                   note: str | None = None) -> Loop:
        with self.transaction() as db:
            row = db.execute("SELECT status FROM loops WHERE id = %s AND user_id = %s FOR UPDATE",
                             (loop_id, user_id)).fetchone()
            if row is None:
                raise KeyError(f"no loop {loop_id} for user {user_id!r}")
            if row[0] == "open":
                now = time.time()
                db.execute(
                    "UPDATE loops SET status = 'closed', closed_at = %s, closed_session = %s, closed_by = %s, "
                    "evidence = %s, evidence_ids = %s, note = %s, updated_at = %s WHERE id = %s",
                    (closed_at if closed_at is not None else now, session_id, closed_by, evidence,
                     json.dumps(list(evidence_ids)), note, now, loop_id))
        return self.loops(user_id, "all", ids=[loop_id])[0]

    # --- the startup briefing ------------------------------------------------------------------------
    def sessions_between(self, user_id: str, since: float, until: float, limit: int
                         ) -> list[tuple[SessionInfo, str | None]]:
        rows = self._query(
            "SELECT s.user_id, s.session_id, s.status, s.started_at, s.last_turn_at, s.turn_count, "
            "s.consolidated_turns, s.needs_consolidation, s.ended_at, e.summary FROM sessions s "
            "LEFT JOIN episodes e ON e.user_id = s.user_id AND e.session_id = s.session_id "
            "WHERE s.user_id = %s AND s.last_turn_at >= %s AND s.started_at <= %s "
            "ORDER BY s.last_turn_at DESC LIMIT %s", (user_id, since, until, limit))
        return [(_session(r), r[9]) for r in rows]

    def facts_between(self, user_id: str, types: Sequence[str], since: float, until: float,
                      limit: int) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT id, type, text, session_id, created_at FROM facts WHERE user_id = %s AND valid_to IS NULL "
            "AND type = ANY(%s) AND created_at BETWEEN %s AND %s ORDER BY created_at DESC, id DESC LIMIT %s",
            (user_id, list(types), since, until, limit))
        return [{"id": r[0], "type": r[1], "text": r[2], "session_id": r[3], "at": to_iso(r[4])} for r in rows]

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_threads(self, db: psycopg.Connection, where: str, params: dict[str, Any]) -> dict[str, int]:
        """Episodes, loops and workstreams of the forgotten scope (see the SQLite store for the rules)."""
        per_session = "session" in params
        touched: set[int] = set()
        if per_session:
            touched = {r[0] for r in db.execute(
                f"SELECT workstream_id FROM episodes WHERE {where} AND workstream_id IS NOT NULL", params)}
            touched |= {r[0] for r in db.execute(
                f"SELECT workstream_id FROM loops WHERE {where} AND workstream_id IS NOT NULL", params)}
            _lock_workstreams(db, touched)
            db.execute(
                "UPDATE loops SET status = 'open', closed_at = NULL, closed_session = NULL, closed_by = NULL, "
                "evidence = NULL, evidence_ids = NULL, note = NULL, updated_at = %(now)s "
                "WHERE user_id = %(user)s AND closed_session = %(session)s", {**params, "now": time.time()})
        counts = {
            "loops": db.execute(f"DELETE FROM loops WHERE {where}", params).rowcount,
            "episodes": db.execute(f"DELETE FROM episodes WHERE {where}", params).rowcount,
        }
        gone = 0
        if per_session:
            for ws in sorted(touched):
                db.execute("UPDATE workstreams SET name_source = 'keyphrases' WHERE id = %s", (ws,))
                gone += not _rollup(db, ws, self.config.workstream_confirm_share)
        else:
            gone = db.execute(f"DELETE FROM workstreams WHERE {where}", params).rowcount
        counts["workstreams"] = gone
        return counts


def _narrow(sql: str, params: list[Any], prefix: str, ids: Iterable[int] | None, workstream_id: int | None
            ) -> tuple[str, list[Any]] | None:
    if ids is not None:
        ids = _ints(ids)
        if not ids:
            return None
        sql += f" AND {prefix}id = ANY(%s)"
        params = [*params, ids]
    if workstream_id is not None:
        sql += f" AND {prefix}workstream_id = %s"
        params = [*params, workstream_id]
    return sql, params


def _set_terms(db: psycopg.Connection, new: NewEpisode, episode_id: int) -> None:
    if new.terms is None:
        return
    db.execute("DELETE FROM episode_terms WHERE episode_id = %s", (episode_id,))
    if new.terms:
        with db.cursor() as cur:
            cur.executemany("INSERT INTO episode_terms (episode_id, user_id, term, tf) VALUES (%s, %s, %s, %s)",
                            [(episode_id, new.user_id, t, float(w)) for t, w in new.terms.items()])


def _lock_workstreams(db: psycopg.Connection, ids: Iterable[int]) -> None:
    """Row locks on workstreams about to be rolled up, in id order (no deadlock between two such writers)."""
    ids = sorted(set(ids))
    if ids:
        db.execute("SELECT id FROM workstreams WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (ids,))


def _move(db: psycopg.Connection, episode_id: int, workstream_id: int, share: float) -> None:
    row = db.execute("SELECT user_id, session_id, workstream_id FROM episodes WHERE id = %s FOR UPDATE",
                     (episode_id,)).fetchone()
    assert row is not None, f"no episode {episode_id}"
    user_id, session_id, old = row
    _lock_workstreams(db, [w for w in (old, workstream_id) if w is not None])
    db.execute("UPDATE episodes SET workstream_id = %s WHERE id = %s", (workstream_id, episode_id))
    db.execute("UPDATE loops SET workstream_id = %s WHERE user_id = %s AND session_id = %s",
               (workstream_id, user_id, session_id))
    if old is not None and old != workstream_id:
        _rollup(db, old, share)
    _rollup(db, workstream_id, share)


def _distinctiveness(db: psycopg.Connection, user_id: str, per_episode: list[Any]) -> Callable[[str], float] | None:
    n = db.execute("SELECT count(DISTINCT episode_id) FROM episode_terms WHERE user_id = %s",
                   (user_id,)).fetchone()
    count = int(n[0]) if n else 0
    if count < 5:
        return None
    stems = sorted({w for phrases in per_episode for _, key, _ in phrases for w in key.split()})
    df = {t: int(c) for t, c in db.execute(
        "SELECT term, count(*) FROM episode_terms WHERE user_id = %s AND term = ANY(%s) GROUP BY term",
        (user_id, stems))}
    top = math.log(count + 1)

    def distinct(key: str) -> float:
        parts = key.split()
        return sum(math.log((count + 1) / max(1, df.get(w, 1))) / top for w in parts) / len(parts) if parts else 0.0
    return distinct


def _rollup(db: psycopg.Connection, workstream_id: int, share: float) -> bool:
    """Recompute a workstream from its episodes; delete it when none is left. Returns whether it still exists."""
    head = db.execute("SELECT user_id, name_source FROM workstreams WHERE id = %s", (workstream_id,)).fetchone()
    if head is None:
        return False
    user_id, name_source = head
    agg = db.execute("SELECT count(*), min(started_at), max(ended_at) FROM episodes WHERE workstream_id = %s",
                     (workstream_id,)).fetchone()
    assert agg is not None
    count, first, last = agg
    if not count:
        db.execute("DELETE FROM workstreams WHERE id = %s", (workstream_id,))
        return False
    members = db.execute(
        "SELECT vec, vec_model, keyphrases, summary FROM episodes WHERE workstream_id = %s "
        "ORDER BY ended_at DESC NULLS LAST, id DESC LIMIT %s", (workstream_id, ROLLUP_EPISODES)).fetchall()
    members.reverse()
    model = next((m[1] for m in reversed(members) if m[0] is not None), None)
    centroid = None
    if model is not None:
        mean = np.mean([np.frombuffer(m[0], np.float32) for m in members if m[1] == model], axis=0)
        norm = float(np.linalg.norm(mean))
        centroid = (mean / norm).astype(np.float32).tobytes() if norm > 0 else None
    per_episode = [json.loads(m[2]) for m in members]
    phrases = rollup_keyphrases(per_episode, distinct=_distinctiveness(db, user_id, per_episode))
    found = db.execute(MEMORABLE_SESSIONS.format(mark="%s"), (workstream_id,)).fetchone()
    memorable = int(found[0]) if found else 0
    status = workstream_status(count, memorable, share)
    db.execute(
        "UPDATE workstreams SET centroid = %s, centroid_model = %s, keyphrases = %s, sessions = %s, status = %s, "
        "first_activity = %s, last_activity = %s, updated_at = %s WHERE id = %s",
        (centroid, model if centroid else None, json.dumps(phrases), count, status, first, last, time.time(),
         workstream_id))
    if name_source == "keyphrases":
        db.execute("UPDATE workstreams SET name = %s WHERE id = %s",
                   (keyphrase_name(phrases, members[-1][3]), workstream_id))
    return True
