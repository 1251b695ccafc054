"""SQL for facts, their supersession chains, entities and the router's counts (tables from migration m003)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

from ..chains import mend
from ..records import Entity, Fact, NewFact
from ..rows import FACT_COLUMNS as _FACT_COLUMNS
from ..rows import fact_row as _fact
from .connection import Connection


class FactSQL(Connection):
    """Facts and entities (a mixin of `SQLiteStore`)."""

    # --- facts ---------------------------------------------------------------------------------------
    def has_fact_origin(self, user_id: str, origin: str) -> bool:
        return bool(self._query("SELECT 1 FROM facts WHERE user_id = ? AND origin = ?", (user_id, origin)))

    def fact_id_by_origin(self, user_id: str, origin: str) -> int | None:
        rows = self._query("SELECT id FROM facts WHERE user_id = ? AND origin = ?", (user_id, origin))
        return int(rows[0][0]) if rows else None

    def insert_fact(self, fact: NewFact, *, supersedes: int | None = None, superseded_by: int | None = None) -> int:
        """Store a fact (and close the validity of the one it supersedes, in the same transaction).

        `superseded_by`: the fact is older news than that (current) fact — a statement ingested late whose event
        time comes before it. It is stored already superseded and takes its place in the chain by time: above the
        newest fact of the chain older than it (if any), below the oldest one newer than it."""
        now = time.time()
        with self.transaction() as db:
            valid_to = None
            if superseded_by is not None:
                # walk down the chain to the first fact older than this one: the new fact goes right above it
                row = db.execute("SELECT created_at, supersedes FROM facts WHERE id = ? AND user_id = ?",
                                 (superseded_by, fact.user_id)).fetchone()
                if row is None:
                    superseded_by = None
                else:
                    valid_to, older = row
                    seen = {superseded_by}
                    while older is not None and older not in seen:
                        prev = db.execute("SELECT created_at, supersedes FROM facts WHERE id = ?", (older,)).fetchone()
                        if prev is None or prev[0] <= fact.created_at:
                            break
                        seen.add(older)
                        superseded_by, valid_to, older = older, prev[0], prev[1]
                    if supersedes is None:
                        supersedes = older
            fact_id = db.execute(
                "INSERT INTO facts (user_id, session_id, type, text, route, salience, confidence, event_ts, "
                "created_at, valid_from, valid_to, supersedes, superseded_by, source_ids, origin, extractor, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (fact.user_id, fact.session_id, fact.type, fact.text, fact.route, fact.salience, fact.confidence,
                 fact.event_ts, fact.created_at, fact.created_at, valid_to, supersedes, superseded_by,
                 json.dumps(fact.source_ids), fact.origin, fact.extractor, now),
            ).lastrowid
            if supersedes is not None:
                db.execute(
                    "UPDATE facts SET valid_to = ?, superseded_by = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                    (fact.created_at, fact_id, now, supersedes, fact.user_id),
                )
            if superseded_by is not None:
                db.execute("UPDATE facts SET supersedes = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                           (fact_id, now, superseded_by, fact.user_id))
        assert fact_id is not None
        return fact_id

    def bump_fact(self, user_id: str, fact_id: int, source_ids: Iterable[int], *, salience_add: float,
                  durable_floor: float) -> None:
        """A restatement: one more recurrence, a little more salience, its turns added to the sources."""
        with self.transaction() as db:
            row = db.execute("SELECT salience, source_ids FROM facts WHERE id = ? AND user_id = ?",
                             (fact_id, user_id)).fetchone()
            if row is None:
                return
            salience = row[0] + salience_add
            sources = list(dict.fromkeys([*json.loads(row[1]), *source_ids]))
            db.execute(
                "UPDATE facts SET recurrence = recurrence + 1, salience = ?, source_ids = ?, updated_at = ?, "
                "route = CASE WHEN ? >= ? THEN 'durable' ELSE route END WHERE id = ?",
                (salience, json.dumps(sources), time.time(), salience, durable_floor, fact_id),
            )

    def facts_by_id(self, user_id: str, ids: Iterable[int]) -> dict[int, Fact]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        rows = self._query(
            # +user_id: looked up by id (with an index on user_id the planner read every fact of the user: at 178k
            # facts 96 ms a call against 0.6)
            f"SELECT {_FACT_COLUMNS} FROM facts WHERE +user_id = ? AND id IN ({','.join('?' * len(ids))})",
            [user_id, *ids],
        )
        facts = {f.id: f for f in map(_fact, rows)}
        self._attach_entities(facts)
        return facts

    def facts(self, user_id: str, *, include_superseded: bool = False, session_id: str | None = None,
              types: Iterable[str] | None = None, since: float | None = None, limit: int | None = None
              ) -> list[Fact]:
        """Facts newest first: current ones only unless `include_superseded`."""
        where = ["user_id = ?"]
        params: list[Any] = [user_id]
        if not include_superseded:
            where.append("valid_to IS NULL")
        if session_id is not None:
            where.append("session_id = ?")
            params.append(session_id)
        if types is not None:
            types = list(types)
            where.append(f"type IN ({','.join('?' * len(types))})")
            params.extend(types)
        if since is not None:
            where.append("created_at >= ?")
            params.append(since)
        sql = f"SELECT {_FACT_COLUMNS} FROM facts WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        facts = {f.id: f for f in map(_fact, self._query(sql, params))}
        self._attach_entities(facts)
        return list(facts.values())

    def fact_history(self, user_id: str, fact_id: int) -> list[Fact]:
        """The supersession chain through `fact_id`, newest first. KeyError when there is no such fact."""
        start = self.facts_by_id(user_id, [fact_id]).get(fact_id)
        if start is None:
            raise KeyError(f"no fact {fact_id} for user {user_id!r}")
        seen = {start.id}
        newer = self._walk_facts(user_id, start, "superseded_by", seen)
        older = self._walk_facts(user_id, start, "supersedes", seen)
        return [*reversed(newer), start, *older]

    def _walk_facts(self, user_id: str, fact: Fact, link: str, seen: set[int]) -> list[Fact]:
        """Follow `link` (supersedes / superseded_by) from `fact` until it ends (or loops)."""
        chain = []
        while (next_id := getattr(fact, link)) is not None and next_id not in seen:
            found = self.facts_by_id(user_id, [next_id]).get(next_id)
            if found is None:
                break
            chain.append(found)
            seen.add(found.id)
            fact = found
        return chain

    def facts_missing_vectors(self, model: str, limit: int, after: int = 0, user_id: str | None = None) -> list[Fact]:
        """Facts (of `user_id`, else every user) with id > `after` that have no vector of `model`, oldest first."""
        rows = self._query(
            f"SELECT {_FACT_COLUMNS} FROM facts f WHERE id > ? AND (? IS NULL OR f.user_id = ?) AND NOT EXISTS "
            "(SELECT 1 FROM vectors v WHERE v.kind = 'fact' AND v.item_id = f.id AND v.model = ?) ORDER BY id LIMIT ?",
            (after, user_id, user_id, model, limit),
        )
        return [_fact(r) for r in rows]

    def max_fact_id(self) -> int:
        return self._query("SELECT coalesce(max(id), 0) FROM facts")[0][0]

    def facts_by_route(self, user_id: str) -> dict[str, int]:
        return dict(self._query("SELECT route, count(*) FROM facts WHERE user_id = ? GROUP BY 1", (user_id,)))

    def fact_counts(self, user_id: str) -> dict[str, int]:
        rows = self._query(
            "SELECT route, valid_to IS NULL, count(*) FROM facts WHERE user_id = ? GROUP BY 1, 2", (user_id,))
        out = {"facts": 0, "durable_facts": 0, "superseded_facts": 0}
        for route, current, n in rows:
            if current:
                out["facts"] += n
                out["durable_facts"] += n if route == "durable" else 0
            else:
                out["superseded_facts"] += n
        return out

    # --- the router's counts ---------------------------------------------------------------------------
    def count_routes(self, user_id: str, routes: dict[str, int]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO route_counts (user_id, route, n) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, route) DO UPDATE SET n = n + excluded.n",
                [(user_id, route, n) for route, n in routes.items() if n],
            )

    def route_counts(self, user_id: str) -> dict[str, int]:
        return dict(self._query("SELECT route, n FROM route_counts WHERE user_id = ? ORDER BY route",
                                (user_id,)))

    # --- entities ------------------------------------------------------------------------------------
    def link_entities(self, user_id: str, fact_id: int, names: Iterable[str]) -> list[int]:
        """Attach `names` to a fact: each resolved through aliases (case-insensitively) or created; names that
        appear together get an edge."""
        now = time.time()
        ids: list[int] = []
        with self.transaction() as db:
            for name in dict.fromkeys(n.strip() for n in names if n and n.strip()):
                row = db.execute("SELECT entity_id FROM entity_aliases WHERE user_id = ? AND alias = ?",
                                 (user_id, name)).fetchone()
                if row is None:
                    row = db.execute("SELECT id FROM entities WHERE user_id = ? AND name = ?",
                                     (user_id, name)).fetchone()
                if row is None:
                    entity_id = self._longer_name(db, user_id, name) or self._shorter_name(db, user_id, name)
                    if entity_id is None:
                        entity_id = int(db.execute(
                            "INSERT INTO entities (user_id, name, updated_at) VALUES (?, ?, ?)", (user_id, name, now)
                        ).lastrowid or 0)
                    db.execute("INSERT OR IGNORE INTO entity_aliases (user_id, alias, entity_id) VALUES (?, ?, ?)",
                               (user_id, name, entity_id))
                else:
                    entity_id = row[0]
                # the fact that taught (or used) this name: a forget keeps a name only while a fact still uses it
                db.execute("INSERT OR IGNORE INTO alias_sources (user_id, alias, fact_id) VALUES (?, ?, ?)",
                           (user_id, name, fact_id))
                if entity_id not in ids:
                    ids.append(entity_id)
            db.executemany("INSERT OR IGNORE INTO fact_entities (fact_id, entity_id) VALUES (?, ?)",
                           [(fact_id, e) for e in ids])
            db.executemany(
                "INSERT INTO entity_edges (a, b, weight) VALUES (?, ?, 1) "
                "ON CONFLICT (a, b) DO UPDATE SET weight = weight + 1",
                [(a, b) for i, a in enumerate(sorted(ids)) for b in sorted(ids)[i + 1:]],
            )
        return ids

    @staticmethod
    def _longer_name(db: sqlite3.Connection, user_id: str, name: str) -> int | None:
        """"Tomás" is an alias of a known "Tomás Ferreira" (a one-word name that starts exactly one known name)."""
        if " " in name:
            return None
        rows = db.execute("SELECT id FROM entities WHERE user_id = ? AND name LIKE ? ESCAPE '\\'",
                          (user_id, name.replace("%", "\\%").replace("_", "\\_") + " %")).fetchall()
        return rows[0][0] if len(rows) == 1 else None

    @staticmethod
    def _shorter_name(db: sqlite3.Connection, user_id: str, name: str) -> int | None:
        """"Maya Okafor" after a known "Maya": the same entity, now under its full name ("Maya" stays an alias)."""
        first = name.split()[0]
        if " " not in name or len(first) < 3:
            return None
        row = db.execute("SELECT id FROM entities WHERE user_id = ? AND name = ?", (user_id, first)).fetchone()
        if row is None:
            return None
        db.execute("UPDATE entities SET name = ?, updated_at = ? WHERE id = ?", (name, time.time(), row[0]))
        return row[0]

    def entities(self, user_id: str) -> list[Entity]:
        rows = self._query(
            "SELECT e.id, e.name, e.profile, (SELECT count(*) FROM fact_entities fe JOIN facts f ON f.id = fe.fact_id "
            "WHERE fe.entity_id = e.id AND f.valid_to IS NULL) FROM entities e WHERE e.user_id = ? "
            "ORDER BY 4 DESC, e.name", (user_id,))
        aliases: dict[int, list[str]] = {}
        for entity_id, alias in self._query(
                "SELECT entity_id, alias FROM entity_aliases WHERE user_id = ? ORDER BY alias", (user_id,)):
            aliases.setdefault(entity_id, []).append(alias)
        names = {r[0]: r[1] for r in rows}
        related: dict[int, list[tuple[str, int]]] = {}
        for a, b, w in self._query(
                "SELECT a, b, weight FROM entity_edges WHERE a IN (SELECT id FROM entities WHERE user_id = ?) "
                "ORDER BY weight DESC", (user_id,)):
            if a in names and b in names:
                related.setdefault(a, []).append((names[b], w))
                related.setdefault(b, []).append((names[a], w))
        return [Entity(r[0], r[1], [a for a in aliases.get(r[0], []) if a.lower() != r[1].lower()], r[3], r[2],
                       related.get(r[0], [])) for r in rows]

    def entity(self, user_id: str, name: str) -> Entity | None:
        """An entity by its name or any alias, case-insensitively."""
        row = self._query(
            "SELECT entity_id FROM entity_aliases WHERE user_id = ? AND alias = ? UNION "
            "SELECT id FROM entities WHERE user_id = ? AND name = ?", (user_id, name, user_id, name))
        if not row:
            return None
        return next((e for e in self.entities(user_id) if e.id == row[0][0]), None)

    def entity_facts(self, user_id: str, entity_id: int, *, include_superseded: bool = False) -> list[Fact]:
        ids = [r[0] for r in self._query(
            "SELECT fact_id FROM fact_entities WHERE entity_id = ?", (entity_id,))]
        facts = self.facts_by_id(user_id, ids).values()
        return sorted((f for f in facts if include_superseded or f.current), key=lambda f: -f.created_at)

    def entities_of_facts(self, fact_ids: Iterable[int]) -> list[int]:
        ids = list(fact_ids)
        if not ids:
            return []
        return [r[0] for r in self._query(
            f"SELECT DISTINCT entity_id FROM fact_entities WHERE fact_id IN ({','.join('?' * len(ids))})", ids)]

    def profile_state(self, entity_id: int) -> tuple[str, str | None, list[int]]:
        name, profile, facts = self._query(
            "SELECT name, profile, profile_facts FROM entities WHERE id = ?", (entity_id,))[0]
        return name, profile, json.loads(facts) if facts else []

    def set_profile(self, entity_id: int, profile: str, fact_ids: list[int]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE entities SET profile = ?, profile_facts = ?, updated_at = ? WHERE id = ?",
                       (profile, json.dumps(fact_ids), time.time(), entity_id))

    def _attach_entities(self, facts: dict[int, Fact]) -> None:
        if not facts:
            return
        ids = list(facts)
        for fact_id, name in self._query(
                "SELECT fe.fact_id, e.name FROM fact_entities fe JOIN entities e ON e.id = fe.entity_id "
                f"WHERE fe.fact_id IN ({','.join('?' * len(ids))}) ORDER BY e.name", ids):
            facts[fact_id].entities.append(name)

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_facts(self, db: sqlite3.Connection, where: str, params: list[Any]) -> dict[str, int]:
        """Facts of the forgotten scope go; then entities no fact names any more, and names (aliases) no remaining
        fact used (an entity whose name goes takes the longest name it keeps); edges are recounted, profiles reset
        (they are written again from the facts that remain), and the forgotten turns leave the sources of the facts
        that restated them. Chains through the deleted facts are mended first (`store/chains.py`): a fact a
        forgotten session had superseded is current again."""
        if "session_id" in where:
            self._mend_chains(db, where, params)
        facts = db.execute(f"DELETE FROM facts WHERE {where}", params).rowcount
        user_where = "1 = 1" if not params else "user_id = ?"
        user_params = params[:1]
        if "session_id" in where:
            self._drop_forgotten_sources(db, where, params)
        entities = db.execute(
            f"DELETE FROM entities WHERE {user_where} AND id NOT IN (SELECT entity_id FROM fact_entities)",
            user_params).rowcount
        db.execute(f"DELETE FROM entity_aliases WHERE {user_where} AND (entity_id NOT IN (SELECT id FROM entities) "
                   "OR NOT EXISTS (SELECT 1 FROM alias_sources s WHERE s.user_id = entity_aliases.user_id "
                   "AND s.alias = entity_aliases.alias))", user_params)
        db.execute(  # an entity whose name no remaining fact used: the longest name it keeps
            f"UPDATE OR IGNORE entities SET name = (SELECT a.alias FROM entity_aliases a WHERE a.entity_id = entities.id "
            "ORDER BY length(a.alias) DESC, a.alias LIMIT 1), updated_at = ? "
            f"WHERE {user_where} AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id "
            "AND a.alias = entities.name) AND EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id)",
            [time.time(), *user_params])
        db.execute(f"UPDATE entities SET profile = NULL, profile_facts = NULL WHERE {user_where}", user_params)
        db.execute(f"DELETE FROM entity_edges WHERE a IN (SELECT id FROM entities WHERE {user_where})", user_params)
        db.execute(
            "INSERT INTO entity_edges (a, b, weight) SELECT x.entity_id, y.entity_id, count(*) FROM fact_entities x "
            "JOIN fact_entities y ON x.fact_id = y.fact_id AND x.entity_id < y.entity_id "
            f"WHERE x.entity_id IN (SELECT id FROM entities WHERE {user_where}) GROUP BY 1, 2", user_params)
        if "session_id" not in where:
            db.execute(f"DELETE FROM route_counts WHERE {user_where}", user_params)
        return {"facts": facts, "entities": entities}

    @staticmethod
    def _mend_chains(db: sqlite3.Connection, where: str, params: list[Any]) -> None:
        gone = {r[0]: (r[1], r[2]) for r in db.execute(f"SELECT id, supersedes, superseded_by FROM facts WHERE {where}",
                                                        params)}
        if not gone:
            return
        linked = [i for links in gone.values() for i in links if i is not None and i not in gone]
        neighbours = {r[0]: (r[1], r[2]) for r in db.execute(
            f"SELECT id, supersedes, superseded_by FROM facts WHERE id IN ({','.join('?' * len(linked))})",
            linked)} if linked else {}
        now = time.time()
        for m in mend(gone, neighbours):
            db.execute("UPDATE facts SET supersedes = ?, superseded_by = ?, updated_at = ?"
                       + (", valid_to = NULL" if m.current_again else "") + " WHERE id = ?",
                       (m.supersedes, m.superseded_by, now, m.fact_id))

    @staticmethod
    def _drop_forgotten_sources(db: sqlite3.Connection, where: str, params: list[Any]) -> None:
        """Facts of other sessions that a forgotten session's turns restated lose those turns from their sources."""
        gone = {r[0] for r in db.execute(f"SELECT id FROM turns WHERE {where}", params)}
        if not gone:
            return
        for fact_id, sources in db.execute("SELECT id, source_ids FROM facts WHERE user_id = ?", params[:1]).fetchall():
            ids = json.loads(sources)
            kept = [i for i in ids if i not in gone]
            if len(kept) != len(ids):
                db.execute("UPDATE facts SET source_ids = ? WHERE id = ?", (json.dumps(kept), fact_id))
