"""SQL for episodes, workstreams and open loops (tables from migration m004), written once for both
backends. A workstream's derived columns (centroid, status, keyphrase name, activity) are always recomputed
from its episodes by `rollup`, so consolidation and forgetting agree on them. An episode's thread vector
(`episodes.vec`) only matches workstreams; its recall vector (in `vectors`) is replaced only after the
session ended: every replacement is a deletion, which makes every reader reload its vector matrix."""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ...util import to_iso
from ..naming import keyphrase_name, rollup_keyphrases
from ..records import LOOP_STATUSES, Episode, Loop, NewEpisode, NewLoop, SessionInfo, Workstream
from ..rows import EPISODE_COLUMNS as _EPISODE_COLUMNS
from ..rows import LOOP_COLUMNS as _LOOP_COLUMNS
from ..rows import MEMORABLE_SESSIONS, workstream_status
from ..rows import WORKSTREAM_COLUMNS as _WORKSTREAM_COLUMNS
from ..rows import episode_row as _episode
from ..rows import loop_row as _loop
from ..rows import session_row as _session
from .core import Scope, SQLCore
from .dialect import Dialect, Tx

if TYPE_CHECKING:  # numpy is imported where vectors are read: opening a store does not need it
    import numpy as np

ROLLUP_EPISODES = 200  # a workstream's centroid and keyphrases follow its latest episodes


class ThreadCore(SQLCore):
    """Episodes, workstreams and open loops (a mixin of both stores; a backend adds `upsert_episode`, and
    reads turns' ids through its turns mixin)."""

    if TYPE_CHECKING:
        def source_ids(self, user_id: str, ids: Iterable[int]) -> dict[int, str]: ...

    # --- episodes ------------------------------------------------------------------------------------
    def session_episode(self, user_id: str, session_id: str) -> Episode | None:
        rows = self._rows(f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE user_id = ? AND session_id = ?",
                          (user_id, session_id))
        return _episode(rows[0]) if rows else None

    def episode_vector(self, episode_id: int) -> tuple[np.ndarray, str] | None:
        rows = self._rows("SELECT vec, vec_model FROM episodes WHERE id = ? AND vec IS NOT NULL", (episode_id,))
        import numpy as np

        return (np.frombuffer(rows[0][0], np.float32), rows[0][1]) if rows else None

    def episodes(self, user_id: str, *, limit: int | None = None, ids: Iterable[int] | None = None,
                 workstream_id: int | None = None, with_facts: bool = True) -> list[Episode]:
        # asked by id, look them up by id (on user_id SQLite's planner walks every episode of the user)
        hint = self.dialect.noindex if ids is not None else ""
        narrowed = _narrow(self.dialect, f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE {hint}user_id = ?",
                           [user_id], "", ids, workstream_id, "coalesce(ended_at, created_at) DESC, id DESC", limit)
        if narrowed is None:
            return []
        found = [_episode(r) for r in self._rows(*narrowed)]
        if with_facts and found:
            by_session = self.session_facts(user_id, [e.session_id for e in found])
            for e in found:
                e.facts = by_session.get(e.session_id, [])
        return self._with_sources(user_id, found)

    def _with_sources(self, user_id: str, found: list[Any]) -> list[Any]:
        """Episodes or loops with the caller's ids of their source turns (`source_turns`)."""
        sources = self.source_ids(user_id, {i for x in found for i in x.source_ids})
        for x in found:
            x.source_turns = [sources[i] for i in x.source_ids if i in sources]
        return found

    def derived_counts(self, user_id: str) -> dict[str, int]:
        kinds = ("facts", "episodes", "workstreams", "loops", "entities", "judgments")
        row = self._rows("SELECT " + ", ".join(f"(SELECT count(*) FROM {kind} WHERE user_id = ?)" for kind in kinds),
                         [user_id] * len(kinds))[0]
        return {kind: int(n) for kind, n in zip(kinds, row, strict=True)}

    def session_facts(self, user_id: str, session_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for session_id, fact_id, type_, text, route, current, sources in self._rows_in(
                "SELECT session_id, id, type, text, route, valid_to IS NULL, source_ids FROM facts "
                "WHERE user_id = ? AND session_id IN ({marks}) ORDER BY id", list(dict.fromkeys(session_ids)),
                before=[user_id]):
            out[session_id].append({"id": fact_id, "type": type_, "text": text, "route": route,
                                    "current": bool(current), "source_turns": json.loads(sources)})
        return dict(out)

    def session_fact_counts(self, user_id: str, session_ids: Sequence[str]) -> dict[str, int]:
        return {s: int(n) for s, n in self._rows_in(
            "SELECT session_id, count(*) FROM facts WHERE user_id = ? AND session_id IN ({marks}) GROUP BY session_id",
            list(dict.fromkeys(session_ids)), before=[user_id])}

    def session_terms(self, episode_id: int) -> dict[str, float]:
        return dict(self._rows("SELECT term, tf FROM episode_terms WHERE episode_id = ?", (episode_id,)))

    def term_frequencies(self, user_id: str, terms: Iterable[str], exclude_episode: int | None = None
                         ) -> tuple[int, dict[str, int]]:
        is_not = self.dialect.is_not
        total = self._rows("SELECT count(DISTINCT episode_id) FROM episode_terms WHERE user_id = ? "
                           f"AND episode_id {is_not} ?", (user_id, exclude_episode))[0][0]
        df = {t: int(n) for t, n in self._rows_in(
            "SELECT term, count(*) FROM episode_terms WHERE user_id = ? AND term IN ({marks}) "
            f"AND episode_id {is_not} ? GROUP BY term", sorted(set(terms)), [user_id], [exclude_episode])}
        return int(total), df

    def workstream_terms(self, user_id: str, terms: Iterable[str], exclude: int | None = None,
                         limit: int = 20) -> dict[int, dict[str, float]]:
        """A profile: stem → summed weight over the workstream's latest episodes; at most `limit` of them."""
        shared: dict[int, int] = defaultdict(int)
        for ws, n in self._rows_in(
                "SELECT e.workstream_id, count(DISTINCT t.term) FROM episode_terms t JOIN episodes e ON e.id = "
                "t.episode_id WHERE t.user_id = ? AND t.term IN ({marks}) AND e.workstream_id IS NOT NULL "
                f"AND e.workstream_id {self.dialect.is_not} ? GROUP BY e.workstream_id", sorted(set(terms)),
                [user_id], [exclude]):
            shared[int(ws)] += int(n)
        out: dict[int, dict[str, float]] = {}
        for ws in sorted(shared, key=lambda w: (-shared[w], w))[:limit]:
            out[ws] = {t: float(w) for t, w in self._rows(
                "SELECT t.term, sum(t.tf) FROM episode_terms t WHERE t.episode_id IN (SELECT id FROM episodes "
                "WHERE workstream_id = ? ORDER BY coalesce(ended_at, created_at) DESC LIMIT ?) GROUP BY t.term",
                (ws, ROLLUP_EPISODES))}
        return out

    def has_recall_vector(self, episode_id: int, model: str) -> bool:
        return bool(self._rows("SELECT 1 FROM vectors WHERE kind = 'episode' AND item_id = ? AND model = ?",
                               (episode_id, model)))

    def episodes_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str, str, float, str]]:
        return [(int(i), u, s, t, summary) for i, u, s, t, summary in self._rows(
            "SELECT e.id, e.user_id, e.session_id, e.ended_at, e.summary FROM episodes e WHERE NOT EXISTS "
            "(SELECT 1 FROM vectors v WHERE v.kind = 'episode' AND v.item_id = e.id AND v.model = ?) "
            "ORDER BY e.id LIMIT ?", (model, limit))]

    def set_recall_vector(self, episode: Episode, model: str, vec: bytes) -> None:
        with self._write("vectors") as tx:
            tx.execute("DELETE FROM vectors WHERE kind = 'episode' AND item_id = ?", (episode.id,))
            tx.execute("INSERT INTO vectors (kind, item_id, user_id, session_id, ts, model, vec) "
                       "VALUES ('episode', ?, ?, ?, ?, ?, ?)",
                       (episode.id, episode.user_id, episode.session_id, episode.ended_at, model, self._vector(vec)))

    # --- workstreams ---------------------------------------------------------------------------------
    def workstreams(self, user_id: str, *, include_hypotheses: bool = False,
                    ids: Iterable[int] | None = None, active_since: float | None = None,
                    limit: int | None = None) -> list[Workstream]:
        d = self.dialect
        sql = (f"SELECT {_WORKSTREAM_COLUMNS}, "
               "(SELECT count(*) FROM facts f JOIN episodes e ON f.user_id = e.user_id AND f.session_id = e.session_id "
               f" WHERE e.workstream_id = w.id AND {d.noindex}f.valid_to IS NULL), "  # +: facts by session
               "(SELECT count(*) FROM loops l WHERE l.workstream_id = w.id AND l.status = 'open') "
               f"FROM workstreams w WHERE {d.noindex if ids is not None else ''}w.user_id = ?")  # see episodes()
        params: list[Any] = [user_id]
        if not include_hypotheses:
            sql += " AND w.status = 'confirmed'"
        if ids is not None:
            ids = list(dict.fromkeys(int(i) for i in ids))
            if not ids:
                return []
            where, values = d.any("w.id", ids)
            sql += f" AND {where}"
            params += values
        if active_since is not None:
            sql += " AND w.last_activity >= ?"
            params.append(active_since)
        sql += f" ORDER BY w.last_activity DESC{d.nulls_last}, w.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        out = []
        for row in self._rows(sql, params):
            values = list(row)
            values[5] = json.loads(values[5])
            values[10], values[11] = int(values[10]), int(values[11])
            out.append(Workstream(*values))
        return out

    def workstream_names(self, user_id: str, ids: Iterable[int], *, include_hypotheses: bool = False
                         ) -> dict[int, str]:
        ids = list(dict.fromkeys(int(i) for i in ids))
        if not ids:
            return {}
        where, values = self.dialect.any("id", ids)
        sql = f"SELECT id, name FROM workstreams WHERE {self.dialect.noindex}user_id = ? AND {where}"  # by id
        if not include_hypotheses:
            sql += " AND status = 'confirmed'"
        return {int(i): n for i, n in self._rows(sql, [user_id, *values])}

    def centroids(self, user_id: str, model: str, exclude: int | None = None
                  ) -> tuple[list[int], np.ndarray]:
        rows = self._rows(
            "SELECT id, centroid FROM workstreams WHERE user_id = ? AND centroid_model = ? "
            f"AND id {self.dialect.is_not} ? ORDER BY id", (user_id, model, exclude))
        import numpy as np

        if not rows:
            return [], np.zeros((0, 0), np.float32)
        return [int(r[0]) for r in rows], np.stack([np.frombuffer(r[1], np.float32) for r in rows])

    def workstream_size(self, workstream_id: int) -> int:
        return int(self._rows("SELECT count(*) FROM episodes WHERE workstream_id = ?", (workstream_id,))[0][0])

    def create_workstream(self, user_id: str, episode_id: int) -> int:
        now = time.time()
        with self._write() as tx:
            ws = int(tx.insert("INSERT INTO workstreams (user_id, name, created_at, updated_at) VALUES (?, '', ?, ?)",
                               (user_id, now, now)) or 0)
            _move(tx, episode_id, ws, self.config.workstreams.confirm_share)
        return ws

    def attach_episode(self, episode_id: int, workstream_id: int) -> None:
        with self._write() as tx:
            _move(tx, episode_id, workstream_id, self.config.workstreams.confirm_share)

    def detach_episode(self, episode_id: int) -> None:
        with self._write() as tx:
            row = tx.one(f"SELECT user_id, session_id, workstream_id FROM episodes WHERE id = ?{tx.dialect.for_update}",
                         (episode_id,))
            if row is None or row[2] is None:
                return
            lock_workstreams(tx, [row[2]])
            tx.execute("UPDATE episodes SET workstream_id = NULL WHERE id = ?", (episode_id,))
            tx.execute("UPDATE loops SET workstream_id = NULL WHERE user_id = ? AND session_id = ?", (row[0], row[1]))
            rollup(tx, row[2], self.config.workstreams.confirm_share)

    def refresh_workstream(self, workstream_id: int) -> None:
        with self._write() as tx:
            lock_workstreams(tx, [workstream_id])
            rollup(tx, workstream_id, self.config.workstreams.confirm_share)

    def needs_name(self, workstream_id: int) -> bool:
        rows = self._rows("SELECT name_source <> 'llm' OR named_sessions <> sessions FROM workstreams WHERE id = ?",
                          (workstream_id,))
        return bool(rows and rows[0][0])

    def rename_workstream(self, workstream_id: int, name: str) -> None:
        with self._write() as tx:
            tx.execute("UPDATE workstreams SET name = ?, name_source = 'llm', named_sessions = sessions, updated_at = ? "
                       "WHERE id = ?", (name, time.time(), workstream_id))

    # --- batch re-clustering (consolidate/recluster.py) ----------------------------------------------
    def thread_window(self, user_id: str, limit: int) -> list[tuple[int, int | None, bytes | None, str | None]]:
        rows = self._rows("SELECT id, workstream_id, vec, vec_model FROM episodes WHERE user_id = ? "
                          "ORDER BY ended_at DESC, id DESC LIMIT ?", (user_id, limit))   # episodes_by_time
        return [(int(r[0]), None if r[1] is None else int(r[1]), None if r[2] is None else bytes(r[2]), r[3])
                for r in reversed(rows)]

    def episodes_terms(self, episode_ids: Sequence[int]) -> dict[int, dict[str, float]]:
        out: dict[int, dict[str, float]] = defaultdict(dict)
        for episode_id, term, tf in self._rows_in(
                "SELECT episode_id, term, tf FROM episode_terms WHERE episode_id IN ({marks})", list(episode_ids)):
            out[int(episode_id)][term] = float(tf)
        return dict(out)

    def regroup_episodes(self, user_id: str, groups: Sequence[tuple[int | None, Sequence[int]]],
                         detach: Sequence[int] = ()) -> list[int]:
        now = time.time()
        out: list[int] = []
        moves = [(target, e) for target, members in groups for e in members] + [(None, e) for e in detach]
        with self._write() as tx:
            current = {int(r[0]): (r[1], r[2]) for r in tx.all_in(
                "SELECT id, session_id, workstream_id FROM episodes WHERE id IN ({marks}) AND user_id = ? "
                f"ORDER BY id{tx.dialect.for_update}", sorted({e for _, e in moves}), after=[user_id])}
            wanted = {t for t, _ in groups if t is not None} | {w for _, w in current.values() if w is not None}
            lock_workstreams(tx, wanted)
            alive = {int(r[0]) for r in tx.all_in("SELECT id FROM workstreams WHERE id IN ({marks}) AND user_id = ?",
                                                  sorted(wanted), after=[user_id])}
            touched: set[int] = set()

            def place(episode_id: int, target: int | None) -> None:
                row = current.get(episode_id)
                if row is None or row[1] == target:
                    return
                if row[1] is not None:
                    touched.add(int(row[1]))
                tx.execute("UPDATE episodes SET workstream_id = ? WHERE id = ?", (target, episode_id))
                tx.execute("UPDATE loops SET workstream_id = ? WHERE user_id = ? AND session_id = ?",
                           (target, user_id, row[0]))
                current[episode_id] = (row[0], target)

            for target, members in groups:
                if target is None or target not in alive:
                    target = int(tx.insert("INSERT INTO workstreams (user_id, name, created_at, updated_at) "
                                           "VALUES (?, '', ?, ?)", (user_id, now, now)) or 0)
                touched.add(target)
                out.append(target)
                for episode_id in members:
                    place(episode_id, target)
            for episode_id in detach:
                place(episode_id, None)
            for ws in sorted(touched):
                rollup(tx, ws, self.config.workstreams.confirm_share)
        return out

    # --- loops ---------------------------------------------------------------------------------------
    def loops(self, user_id: str, status: str = "open", *, ids: Iterable[int] | None = None,
              workstream_id: int | None = None, limit: int | None = None) -> list[Loop]:
        if status not in LOOP_STATUSES:
            raise ValueError(f"status must be one of {', '.join(LOOP_STATUSES)}, got {status!r}")
        sql = (f"SELECT {_LOOP_COLUMNS} FROM loops l LEFT JOIN workstreams w ON w.id = l.workstream_id "
               "WHERE l.user_id = ?")
        params: list[Any] = [user_id]
        if status != "all":
            sql += " AND l.status = ?"
            params.append(status)
        narrowed = _narrow(self.dialect, sql, params, "l.", ids, workstream_id, "l.created_at DESC, l.id DESC", limit)
        if narrowed is None:
            return []
        return self._with_sources(user_id, [_loop(r) for r in self._rows(*narrowed)])

    def recent_closed_loops(self, user_id: str, closed_since: float) -> list[Loop]:
        sql = (f"SELECT {_LOOP_COLUMNS} FROM loops l LEFT JOIN workstreams w ON w.id = l.workstream_id "
               "WHERE l.user_id = ? AND l.status = 'closed' AND l.closed_at >= ? ORDER BY l.closed_at DESC")
        return [_loop(r) for r in self._rows(sql, (user_id, closed_since))]

    def insert_loop(self, new: NewLoop) -> int | None:
        with self._write() as tx:
            return tx.insert(
                "INSERT INTO loops (user_id, session_id, workstream_id, text, due, detector, source_ids, "
                "origin, created_at, last_mentioned, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (new.user_id, new.session_id, new.workstream_id, new.text, new.due, new.detector,
                 json.dumps(new.source_ids), new.origin, new.created_at, new.created_at, time.time()), ignore=True)

    def mention_loop(self, loop_id: int, when: float) -> None:
        with self._write() as tx:
            tx.execute(f"UPDATE loops SET mentions = mentions + 1, last_mentioned = {tx.dialect.greatest}"
                       "(last_mentioned, ?), updated_at = ? WHERE id = ?", (when, time.time(), loop_id))

    def close_loop(self, user_id: str, loop_id: int, *, closed_by: str, closed_at: float | None = None,
                   session_id: str | None = None, evidence: str | None = None, evidence_ids: Sequence[int] = (),
                   note: str | None = None) -> Loop:
        with self._write() as tx:
            row = tx.one(f"SELECT status FROM loops WHERE id = ? AND user_id = ?{tx.dialect.for_update}",
                         (loop_id, user_id))
            if row is None:
                raise KeyError(f"no loop {loop_id} for user {user_id!r}")
            if row[0] == "open":
                now = time.time()
                tx.execute(
                    "UPDATE loops SET status = 'closed', closed_at = ?, closed_session = ?, closed_by = ?, evidence = ?, "
                    "evidence_ids = ?, note = ?, updated_at = ? WHERE id = ?",
                    (closed_at if closed_at is not None else now, session_id, closed_by, evidence,
                     json.dumps(list(evidence_ids)), note, now, loop_id))
        return self.loops(user_id, "all", ids=[loop_id])[0]

    # --- the startup briefing ------------------------------------------------------------------------
    def sessions_between(self, user_id: str, since: float, until: float, limit: int
                         ) -> list[tuple[SessionInfo, str | None]]:
        rows = self._rows(
            "SELECT s.user_id, s.session_id, s.status, s.started_at, s.last_turn_at, s.turn_count, "
            "s.consolidated_turns, s.needs_consolidation, s.ended_at, e.summary FROM sessions s "
            "LEFT JOIN episodes e ON e.user_id = s.user_id AND e.session_id = s.session_id "
            "WHERE s.user_id = ? AND s.last_turn_at >= ? AND s.started_at <= ? ORDER BY s.last_turn_at DESC LIMIT ?",
            (user_id, since, until, limit))
        return [(_session(r), r[9]) for r in rows]

    def facts_between(self, user_id: str, types: Sequence[str], since: float, until: float,
                      limit: int) -> list[dict[str, Any]]:
        where, values = self.dialect.any("type", types)
        rows = self._rows(
            f"SELECT id, type, text, session_id, created_at FROM facts WHERE user_id = ? AND valid_to IS NULL AND {where} "
            "AND created_at BETWEEN ? AND ? ORDER BY created_at DESC, id DESC LIMIT ?",
            (user_id, *values, since, until, limit))
        return [{"id": r[0], "type": r[1], "text": r[2], "session_id": r[3], "at": to_iso(r[4])} for r in rows]

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_threads(self, tx: Tx, scope: Scope) -> dict[str, int]:
        """Episodes, loops and workstreams of the forgotten scope. Forgetting one session also reopens the
        loops it closed (their evidence quoted it) and rolls up its workstreams (an LLM name may have used
        its words: reset)."""
        where, params = scope.where, scope.params
        touched: set[int] = set()
        if scope.per_session:
            touched = {r[0] for r in tx.execute(
                f"SELECT workstream_id FROM episodes WHERE {where} AND workstream_id IS NOT NULL", params)}
            touched |= {r[0] for r in tx.execute(
                f"SELECT workstream_id FROM loops WHERE {where} AND workstream_id IS NOT NULL", params)}
            lock_workstreams(tx, touched)
            tx.execute(
                "UPDATE loops SET status = 'open', closed_at = NULL, closed_session = NULL, closed_by = NULL, "
                "evidence = NULL, evidence_ids = NULL, note = NULL, updated_at = ? "
                "WHERE user_id = ? AND closed_session = ?", (time.time(), *params))
        counts = {
            "loops": tx.execute(f"DELETE FROM loops WHERE {where}", params).rowcount,
            "episodes": tx.execute(f"DELETE FROM episodes WHERE {where}", params).rowcount,
        }
        gone = 0
        if scope.per_session:
            for ws in sorted(touched):
                tx.execute("UPDATE workstreams SET name_source = 'keyphrases' WHERE id = ?", (ws,))
                gone += not rollup(tx, ws, self.config.workstreams.confirm_share)
        else:
            gone = tx.execute(f"DELETE FROM workstreams WHERE {where}", params).rowcount
        counts["workstreams"] = gone
        return counts


def _narrow(d: Dialect, sql: str, params: list[Any], prefix: str, ids: Iterable[int] | None,
            workstream_id: int | None, order: str, limit: int | None) -> tuple[str, list[Any]] | None:
    """`sql` narrowed to `ids` and/or one workstream (columns prefixed by `prefix`), in `order`, at most `limit`
    rows; None for an empty id list."""
    if ids is not None:
        ids = list(dict.fromkeys(int(i) for i in ids))
        if not ids:
            return None
        where, values = d.any(f"{prefix}id", ids)
        sql += f" AND {where}"
        params = [*params, *values]
    if workstream_id is not None:
        sql += f" AND {prefix}workstream_id = ?"
        params = [*params, workstream_id]
    sql += f" ORDER BY {order}"
    if limit is not None:
        sql += " LIMIT ?"
        params = [*params, limit]
    return sql, params


def set_terms(tx: Tx, new: NewEpisode, episode_id: int) -> None:
    """An episode's distinctive words (`NewEpisode.terms`), replacing those it had (None: left as they are)."""
    if new.terms is None:
        return
    tx.execute("DELETE FROM episode_terms WHERE episode_id = ?", (episode_id,))
    tx.many("INSERT INTO episode_terms (episode_id, user_id, term, tf) VALUES (?, ?, ?, ?)",
            [(episode_id, new.user_id, t, float(w)) for t, w in new.terms.items()])


def lock_workstreams(tx: Tx, ids: Iterable[int]) -> None:
    """Row locks on workstreams about to be rolled up, in id order (no deadlock between two such writers);
    nothing on SQLite (one writer at a time)."""
    ids = sorted(set(ids))
    if ids and tx.dialect.for_update:
        tx.all_in(f"SELECT id FROM workstreams WHERE id IN ({{marks}}) ORDER BY id{tx.dialect.for_update}", ids)


def _move(tx: Tx, episode_id: int, workstream_id: int, share: float) -> None:
    row = tx.one(f"SELECT user_id, session_id, workstream_id FROM episodes WHERE id = ?{tx.dialect.for_update}",
                 (episode_id,))
    assert row is not None, f"no episode {episode_id}"
    user_id, session_id, old = row
    lock_workstreams(tx, [w for w in (old, workstream_id) if w is not None])
    tx.execute("UPDATE episodes SET workstream_id = ? WHERE id = ?", (workstream_id, episode_id))
    tx.execute("UPDATE loops SET workstream_id = ? WHERE user_id = ? AND session_id = ?",
               (workstream_id, user_id, session_id))
    if old is not None and old != workstream_id:
        rollup(tx, old, share)
    rollup(tx, workstream_id, share)


def _distinctiveness(tx: Tx, user_id: str, per_episode: list[Any]) -> Callable[[str], float] | None:
    """key → the mean over its words of idf / log(n + 1) against the user's episodes (episode_terms): near 1 for
    words few sessions use, 0 for words all of them use. None before the user has 5 episodes with words."""
    found = tx.one("SELECT count(DISTINCT episode_id) FROM episode_terms WHERE user_id = ?", (user_id,))
    n = int(found[0]) if found else 0
    if n < 5:
        return None
    stems = sorted({w for phrases in per_episode for _, key, _ in phrases for w in key.split()})
    df = {t: int(c) for t, c in tx.all_in(
        "SELECT term, count(*) FROM episode_terms WHERE user_id = ? AND term IN ({marks}) GROUP BY term", stems,
        [user_id])}
    top = math.log(n + 1)

    def distinct(key: str) -> float:
        parts = key.split()
        return sum(math.log((n + 1) / max(1, df.get(w, 1))) / top for w in parts) / len(parts) if parts else 0.0
    return distinct


def rollup(tx: Tx, workstream_id: int, share: float) -> bool:
    """Recompute a workstream from its episodes (centroid and keyphrases from its latest
    `ROLLUP_EPISODES`); one left without episodes is deleted. Returns whether it still exists."""
    head = tx.one("SELECT user_id, name_source FROM workstreams WHERE id = ?", (workstream_id,))
    if head is None:
        return False
    user_id, name_source = head
    count, first, last = tx.one(
        "SELECT count(*), min(started_at), max(ended_at) FROM episodes WHERE workstream_id = ?", (workstream_id,))
    if not count:
        tx.execute("DELETE FROM workstreams WHERE id = ?", (workstream_id,))
        return False
    members = tx.all(   # the latest ones: what the thread is about now (and a bounded cost per rollup)
        "SELECT vec, vec_model, keyphrases, summary FROM episodes WHERE workstream_id = ? "
        f"ORDER BY ended_at DESC{tx.dialect.nulls_last}, id DESC LIMIT ?", (workstream_id, ROLLUP_EPISODES))
    members.reverse()
    model = next((m[1] for m in reversed(members) if m[0] is not None), None)
    centroid = None
    if model is not None:
        import numpy as np

        mean = np.mean([np.frombuffer(m[0], np.float32) for m in members if m[1] == model], axis=0)
        norm = float(np.linalg.norm(mean))
        centroid = (mean / norm).astype(np.float32).tobytes() if norm > 0 else None
    per_episode = [json.loads(m[2]) for m in members]
    phrases = rollup_keyphrases(per_episode, distinct=_distinctiveness(tx, user_id, per_episode))
    found = tx.one(MEMORABLE_SESSIONS.format(mark="?"), (workstream_id,))
    status = workstream_status(count, int(found[0]) if found else 0, share)
    tx.execute(
        "UPDATE workstreams SET centroid = ?, centroid_model = ?, keyphrases = ?, sessions = ?, status = ?, "
        "first_activity = ?, last_activity = ?, updated_at = ? WHERE id = ?",
        (centroid, model if centroid else None, json.dumps(phrases), count, status, first, last, time.time(),
         workstream_id))
    if name_source == "keyphrases":
        tx.execute("UPDATE workstreams SET name = ? WHERE id = ?",
                   (keyphrase_name(phrases, members[-1][3]), workstream_id))
    return True
