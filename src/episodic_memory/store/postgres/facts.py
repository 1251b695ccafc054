"""SQL for facts, their supersession chains, entities and the router's counts (PostgreSQL; tables from m003)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

import psycopg

from ..chains import mend
from ..records import Entity, Fact, NewFact
from ..rows import FACT_COLUMNS as _FACT_COLUMNS
from ..rows import fact_row as _fact
from .connection import PgConnection
from .turns import _ints


class FactPg(PgConnection):
    """Facts and entities (a mixin of `PostgresStore`)."""

    # --- facts ---------------------------------------------------------------------------------------
    def has_fact_origin(self, user_id: str, origin: str) -> bool:
        return bool(self._query("SELECT 1 FROM facts WHERE user_id = %s AND origin = %s", (user_id, origin)))

    def fact_id_by_origin(self, user_id: str, origin: str) -> int | None:
        rows = self._query("SELECT id FROM facts WHERE user_id = %s AND origin = %s ORDER BY id LIMIT 1",
                           (user_id, origin))
        return int(rows[0][0]) if rows else None

    def insert_fact(self, fact: NewFact, *, supersedes: int | None = None, superseded_by: int | None = None) -> int:
        """Store a fact and close the validity of the one it supersedes, in one transaction (see the SQLite store
        for the chain rules of `superseded_by`)."""
        now = time.time()
        with self.transaction("facts") as db:
            valid_to = None
            if superseded_by is not None:
                row = db.execute("SELECT created_at, supersedes FROM facts WHERE id = %s AND user_id = %s",
                                 (superseded_by, fact.user_id)).fetchone()
                if row is None:
                    superseded_by = None
                else:
                    valid_to, older = row
                    seen = {superseded_by}
                    while older is not None and older not in seen:
                        prev = db.execute("SELECT created_at, supersedes FROM facts WHERE id = %s",
                                          (older,)).fetchone()
                        if prev is None or prev[0] <= fact.created_at:
                            break
                        seen.add(older)
                        superseded_by, valid_to, older = older, prev[0], prev[1]
                    if supersedes is None:
                        supersedes = older
            row = db.execute(
                "INSERT INTO facts (user_id, session_id, type, text, route, salience, confidence, event_ts, "
                "created_at, valid_from, valid_to, supersedes, superseded_by, source_ids, origin, extractor, "
                "updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (fact.user_id, fact.session_id, fact.type, fact.text, fact.route, fact.salience, fact.confidence,
                 fact.event_ts, fact.created_at, fact.created_at, valid_to, supersedes, superseded_by,
                 json.dumps(fact.source_ids), fact.origin, fact.extractor, now)).fetchone()
            assert row is not None
            fact_id = int(row[0])
            if supersedes is not None:
                db.execute("UPDATE facts SET valid_to = %s, superseded_by = %s, updated_at = %s "
                           "WHERE id = %s AND user_id = %s", (fact.created_at, fact_id, now, supersedes, fact.user_id))
            if superseded_by is not None:
                db.execute("UPDATE facts SET supersedes = %s, updated_at = %s WHERE id = %s AND user_id = %s",
                           (fact_id, now, superseded_by, fact.user_id))
        return fact_id

    def bump_fact(self, user_id: str, fact_id: int, source_ids: Iterable[int], *, salience_add: float,
                  durable_floor: float) -> None:
        with self.transaction() as db:
            row = db.execute("SELECT salience, source_ids FROM facts WHERE id = %s AND user_id = %s FOR UPDATE",
                             (fact_id, user_id)).fetchone()
            if row is None:
                return
            salience = row[0] + salience_add
            sources = list(dict.fromkeys([*json.loads(row[1]), *source_ids]))
            db.execute(
                "UPDATE facts SET recurrence = recurrence + 1, salience = %s, source_ids = %s, updated_at = %s, "
                "route = CASE WHEN %s >= %s THEN 'durable' ELSE route END WHERE id = %s",
                (salience, json.dumps(sources), time.time(), salience, durable_floor, fact_id))

    def facts_by_id(self, user_id: str, ids: Iterable[int]) -> dict[int, Fact]:
        ids = _ints(ids)
        if not ids:
            return {}
        rows = self._query(f"SELECT {_FACT_COLUMNS} FROM facts WHERE user_id = %s AND id = ANY(%s)", (user_id, ids))
        facts = {f.id: f for f in map(_fact, rows)}
        self._attach_entities(facts)
        return facts

    def facts(self, user_id: str, *, include_superseded: bool = False, session_id: str | None = None,
              types: Iterable[str] | None = None, since: float | None = None, limit: int | None = None
              ) -> list[Fact]:
        where = ["user_id = %s"]
        params: list[Any] = [user_id]
        if not include_superseded:
            where.append("valid_to IS NULL")
        if session_id is not None:
            where.append("session_id = %s")
            params.append(session_id)
        if types is not None:
            where.append("type = ANY(%s)")
            params.append(list(types))
        if since is not None:
            where.append("created_at >= %s")
            params.append(since)
        sql = f"SELECT {_FACT_COLUMNS} FROM facts WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(int(limit))
        facts = {f.id: f for f in map(_fact, self._query(sql, params))}
        self._attach_entities(facts)
        return list(facts.values())

    def fact_history(self, user_id: str, fact_id: int) -> list[Fact]:
        start = self.facts_by_id(user_id, [fact_id]).get(fact_id)
        if start is None:
            raise KeyError(f"no fact {fact_id} for user {user_id!r}")
        seen = {start.id}
        newer = self._walk_facts(user_id, start, "superseded_by", seen)
        older = self._walk_facts(user_id, start, "supersedes", seen)
        return [*reversed(newer), start, *older]

    def _walk_facts(self, user_id: str, fact: Fact, link: str, seen: set[int]) -> list[Fact]:
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
            f"SELECT {_FACT_COLUMNS} FROM facts f WHERE id > %(after)s "
            "AND (%(user)s::text IS NULL OR f.user_id = %(user)s) AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.kind = 'fact' AND v.item_id = f.id AND v.model = %(model)s) ORDER BY id LIMIT %(limit)s",
            {"after": after, "user": user_id, "model": model, "limit": limit})
        return [_fact(r) for r in rows]

    def max_fact_id(self) -> int:
        return self._counters()["facts"]

    def facts_by_route(self, user_id: str) -> dict[str, int]:
        return dict(self._query("SELECT route, count(*) FROM facts WHERE user_id = %s GROUP BY 1", (user_id,)))

    def fact_counts(self, user_id: str) -> dict[str, int]:
        rows = self._query("SELECT route, valid_to IS NULL, count(*) FROM facts WHERE user_id = %s GROUP BY 1, 2",
                           (user_id,))
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
        values = [(user_id, route, n) for route, n in sorted(routes.items()) if n]
        if not values:
            return
        with self.transaction() as db, db.cursor() as cur:
            cur.executemany("INSERT INTO route_counts (user_id, route, n) VALUES (%s, %s, %s) "
                            "ON CONFLICT (user_id, route) DO UPDATE SET n = route_counts.n + excluded.n", values)

    def route_counts(self, user_id: str) -> dict[str, int]:
        return {r: int(n) for r, n in self._query(
            "SELECT route, n FROM route_counts WHERE user_id = %s ORDER BY route", (user_id,))}

    # --- entities ------------------------------------------------------------------------------------
    def link_entities(self, user_id: str, fact_id: int, names: Iterable[str]) -> list[int]:
        """Attach `names` to a fact: each resolved through aliases (case-insensitively) or created; names that
        appear together get an edge. Concurrent writers of one user are serialised on a per-user advisory lock
        (entity resolution reads, then writes)."""
        now = time.time()
        ids: list[int] = []
        with self.transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(hashtextextended('entities:' || %s, 0))", (user_id,))
            for name in dict.fromkeys(n.strip() for n in names if n and n.strip()):
                row = db.execute("SELECT entity_id FROM entity_aliases WHERE user_id = %s AND lower(alias) = lower(%s)",
                                 (user_id, name)).fetchone()
                if row is None:
                    row = db.execute("SELECT id FROM entities WHERE user_id = %s AND lower(name) = lower(%s)",
                                     (user_id, name)).fetchone()
                if row is None:
                    entity_id = self._longer_name(db, user_id, name) or self._shorter_name(db, user_id, name)
                    if entity_id is None:
                        created = db.execute("INSERT INTO entities (user_id, name, updated_at) VALUES (%s, %s, %s) "
                                             "RETURNING id", (user_id, name, now)).fetchone()
                        assert created is not None
                        entity_id = int(created[0])
                    db.execute("INSERT INTO entity_aliases (user_id, alias, entity_id) VALUES (%s, %s, %s) "
                               "ON CONFLICT DO NOTHING", (user_id, name, entity_id))
                else:
                    entity_id = int(row[0])
                # the fact that taught (or used) this name: a forget keeps a name only while a fact still uses it
                db.execute("INSERT INTO alias_sources (user_id, alias, fact_id) VALUES (%s, %s, %s) "
                           "ON CONFLICT DO NOTHING", (user_id, name, fact_id))
                if entity_id not in ids:
                    ids.append(entity_id)
            with db.cursor() as cur:
                if ids:
                    cur.executemany("INSERT INTO fact_entities (fact_id, entity_id) VALUES (%s, %s) "
                                    "ON CONFLICT DO NOTHING", [(fact_id, e) for e in ids])
                pairs = [(a, b) for i, a in enumerate(sorted(ids)) for b in sorted(ids)[i + 1:]]
                if pairs:
                    cur.executemany("INSERT INTO entity_edges (a, b, weight) VALUES (%s, %s, 1) "
                                    "ON CONFLICT (a, b) DO UPDATE SET weight = entity_edges.weight + 1", pairs)
        return ids

    @staticmethod
    def _longer_name(db: psycopg.Connection, user_id: str, name: str) -> int | None:
        """"Tomás" is an alias of a known "Tomás Ferreira" (a one-word name that starts exactly one known name)."""
        if " " in name:
            return None
        pattern = name.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " %"
        rows = db.execute("SELECT id FROM entities WHERE user_id = %s AND lower(name) LIKE %s ESCAPE '\\'",
                          (user_id, pattern)).fetchall()
        return int(rows[0][0]) if len(rows) == 1 else None

    @staticmethod
    def _shorter_name(db: psycopg.Connection, user_id: str, name: str) -> int | None:
        """"Maya Okafor" after a known "Maya": the same entity, now under its full name ("Maya" stays an alias)."""
        first = name.split()[0]
        if " " not in name or len(first) < 3:
            return None
        row = db.execute("SELECT id FROM entities WHERE user_id = %s AND lower(name) = lower(%s)",
                         (user_id, first)).fetchone()
        if row is None:
            return None
        db.execute("UPDATE entities SET name = %s, updated_at = %s WHERE id = %s", (name, time.time(), row[0]))
        return int(row[0])

    def entities(self, user_id: str) -> list[Entity]:
        rows = self._query(
            "SELECT e.id, e.name, e.profile, (SELECT count(*) FROM fact_entities fe JOIN facts f ON f.id = fe.fact_id "
            "WHERE fe.entity_id = e.id AND f.valid_to IS NULL) AS n FROM entities e WHERE e.user_id = %s "
            "ORDER BY n DESC, lower(e.name), e.name", (user_id,))
        aliases: dict[int, list[str]] = {}
        for entity_id, alias in self._query(
                "SELECT entity_id, alias FROM entity_aliases WHERE user_id = %s ORDER BY lower(alias), alias",
                (user_id,)):
            aliases.setdefault(entity_id, []).append(alias)
        names = {r[0]: r[1] for r in rows}
        related: dict[int, list[tuple[str, int]]] = {}
        for a, b, w in self._query(
                "SELECT a, b, weight FROM entity_edges WHERE a IN (SELECT id FROM entities WHERE user_id = %s) "
                "ORDER BY weight DESC", (user_id,)):
            if a in names and b in names:
                related.setdefault(a, []).append((names[b], w))
                related.setdefault(b, []).append((names[a], w))
        return [Entity(r[0], r[1], [a for a in aliases.get(r[0], []) if a.lower() != r[1].lower()], int(r[3]), r[2],
                       related.get(r[0], [])) for r in rows]

    def entity(self, user_id: str, name: str) -> Entity | None:
        rows = self._query(
            "SELECT entity_id FROM entity_aliases WHERE user_id = %(user)s AND lower(alias) = lower(%(name)s) UNION "
            "SELECT id FROM entities WHERE user_id = %(user)s AND lower(name) = lower(%(name)s)",
            {"user": user_id, "name": name})
        if not rows:
            return None
        return next((e for e in self.entities(user_id) if e.id == rows[0][0]), None)

    def entity_facts(self, user_id: str, entity_id: int, *, include_superseded: bool = False) -> list[Fact]:
        ids = [r[0] for r in self._query("SELECT fact_id FROM fact_entities WHERE entity_id = %s", (entity_id,))]
        facts = self.facts_by_id(user_id, ids).values()
        return sorted((f for f in facts if include_superseded or f.current), key=lambda f: -f.created_at)

    def entities_of_facts(self, fact_ids: Iterable[int]) -> list[int]:
        ids = _ints(fact_ids)
        if not ids:
            return []
        return [int(r[0]) for r in self._query(
            "SELECT DISTINCT entity_id FROM fact_entities WHERE fact_id = ANY(%s)", (ids,))]

    def profile_state(self, entity_id: int) -> tuple[str, str | None, list[int]]:
        name, profile, facts = self._query(
            "SELECT name, profile, profile_facts FROM entities WHERE id = %s", (entity_id,))[0]
        return name, profile, json.loads(facts) if facts else []

    def set_profile(self, entity_id: int, profile: str, fact_ids: list[int]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE entities SET profile = %s, profile_facts = %s, updated_at = %s WHERE id = %s",
                       (profile, json.dumps(fact_ids), time.time(), entity_id))

    def _attach_entities(self, facts: dict[int, Fact]) -> None:
        if not facts:
            return
        for fact_id, name in self._query(
                "SELECT fe.fact_id, e.name FROM fact_entities fe JOIN entities e ON e.id = fe.entity_id "
                "WHERE fe.fact_id = ANY(%s) ORDER BY lower(e.name), e.name", (list(facts),)):
            facts[fact_id].entities.append(name)

    # --- forgetting ----------------------------------------------------------------------------------
    @staticmethod
    def _mend_chains(db: psycopg.Connection, where: str, params: dict[str, Any]) -> None:
        gone = {r[0]: (r[1], r[2]) for r in db.execute(
            f"SELECT id, supersedes, superseded_by FROM facts WHERE {where}", params).fetchall()}
        if not gone:
            return
        linked = [i for links in gone.values() for i in links if i is not None and i not in gone]
        neighbours = {r[0]: (r[1], r[2]) for r in db.execute(
            "SELECT id, supersedes, superseded_by FROM facts WHERE id = ANY(%s)", (linked,)).fetchall()} if linked else {}
        now = time.time()
        for m in mend(gone, neighbours):
            db.execute("UPDATE facts SET supersedes = %s, superseded_by = %s, updated_at = %s"
                       + (", valid_to = NULL" if m.current_again else "") + " WHERE id = %s",
                       (m.supersedes, m.superseded_by, now, m.fact_id))

    def _forget_facts(self, db: psycopg.Connection, where: str, params: dict[str, Any]) -> dict[str, int]:
        """Facts of the forgotten scope go; then entities no fact names any more, and names (aliases) no remaining
        fact used (an entity whose name goes takes the longest name it keeps); edges are recounted, profiles reset,
        and the forgotten turns leave the sources of the facts that restated them (as the SQLite store); chains
        through the deleted facts are mended first (`store/chains.py`)."""
        if "session" in params:
            self._mend_chains(db, where, params)
        facts = db.execute(f"DELETE FROM facts WHERE {where}", params).rowcount
        user_where = "user_id = %(user)s" if "user" in params else "true"
        if "session" in params:
            self._drop_forgotten_sources(db, where, params)
        entities = db.execute(
            f"DELETE FROM entities WHERE {user_where} AND NOT EXISTS "
            "(SELECT 1 FROM fact_entities fe WHERE fe.entity_id = entities.id)", params).rowcount
        db.execute(f"DELETE FROM entity_aliases WHERE {user_where} AND NOT EXISTS (SELECT 1 FROM alias_sources s "
                   "WHERE s.user_id = entity_aliases.user_id AND lower(s.alias) = lower(entity_aliases.alias))",
                   params)
        db.execute(  # an entity whose name no remaining fact used: the longest name it keeps (unless another has it)
            "UPDATE entities e SET name = n.alias, updated_at = %(now)s FROM (SELECT DISTINCT ON (a.entity_id) "
            "a.entity_id, a.alias FROM entity_aliases a ORDER BY a.entity_id, length(a.alias) DESC, a.alias) n "
            f"WHERE n.entity_id = e.id AND {user_where.replace('user_id', 'e.user_id')} AND NOT EXISTS "
            "(SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND a.alias = e.name) AND NOT EXISTS "
            "(SELECT 1 FROM entities o WHERE o.user_id = e.user_id AND o.id <> e.id AND lower(o.name) = lower(n.alias))",
            {**params, "now": time.time()})
        db.execute(f"UPDATE entities SET profile = NULL, profile_facts = NULL WHERE {user_where}", params)
        db.execute(f"DELETE FROM entity_edges WHERE a IN (SELECT id FROM entities WHERE {user_where})", params)
        db.execute(
            "INSERT INTO entity_edges (a, b, weight) SELECT x.entity_id, y.entity_id, count(*) FROM fact_entities x "
            "JOIN fact_entities y ON x.fact_id = y.fact_id AND x.entity_id < y.entity_id "
            f"WHERE x.entity_id IN (SELECT id FROM entities WHERE {user_where}) GROUP BY 1, 2", params)
        if "session" not in params:
            db.execute(f"DELETE FROM route_counts WHERE {user_where}", params)
        return {"facts": facts, "entities": entities}

    @staticmethod
    def _drop_forgotten_sources(db: psycopg.Connection, where: str, params: dict[str, Any]) -> None:
        """Facts of other sessions that a forgotten session's turns restated lose those turns from their sources."""
        gone = {int(r[0]) for r in db.execute(f"SELECT id FROM turns WHERE {where}", params)}
        if not gone:
            return
        for fact_id, sources in db.execute("SELECT id, source_ids FROM facts WHERE user_id = %(user)s",
                                           params).fetchall():
            ids = json.loads(sources)
            kept = [i for i in ids if i not in gone]
            if len(kept) != len(ids):
                db.execute("UPDATE facts SET source_ids = %s WHERE id = %s", (json.dumps(kept), fact_id))
