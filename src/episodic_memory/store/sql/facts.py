"""SQL for facts, their supersession chains, entities and the router's counts (tables from migration m003),
written once for both backends."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from typing import Any

from ..chains import mend
from ..records import Entity, Fact, NewFact
from ..rows import FACT_COLUMNS as _FACT_COLUMNS
from ..rows import fact_row as _fact
from .core import Scope, SQLCore
from .dialect import Tx

_NUMBER = re.compile(r"\d+")   # the row ids in a JSON list of them


class FactCore(SQLCore):
    """Facts and entities (a mixin of both stores)."""

    # --- facts ---------------------------------------------------------------------------------------
    def has_fact_origin(self, user_id: str, origin: str) -> bool:
        return bool(self._rows("SELECT 1 FROM facts WHERE user_id = ? AND origin = ?", (user_id, origin)))

    def fact_id_by_origin(self, user_id: str, origin: str) -> int | None:
        rows = self._rows("SELECT id FROM facts WHERE user_id = ? AND origin = ? ORDER BY id LIMIT 1",
                          (user_id, origin))
        return int(rows[0][0]) if rows else None

    def insert_fact(self, fact: NewFact, *, supersedes: int | None = None, superseded_by: int | None = None) -> int:
        """`superseded_by`: a late-ingested statement older than that fact, stored already superseded and
        placed in the chain by time: above the newest fact older than it, below the oldest one newer."""
        now = time.time()
        with self._write("facts") as tx:
            valid_to = None
            if superseded_by is not None:
                # walk down the chain to the first fact older than this one: the new fact goes right above it
                row = tx.one("SELECT created_at, supersedes FROM facts WHERE id = ? AND user_id = ?",
                             (superseded_by, fact.user_id))
                if row is None:
                    superseded_by = None
                else:
                    valid_to, older = row
                    seen = {superseded_by}
                    while older is not None and older not in seen:
                        prev = tx.one("SELECT created_at, supersedes FROM facts WHERE id = ?", (older,))
                        if prev is None or prev[0] <= fact.created_at:
                            break
                        seen.add(older)
                        superseded_by, valid_to, older = older, prev[0], prev[1]
                    if supersedes is None:
                        supersedes = older
            fact_id = int(tx.insert(
                "INSERT INTO facts (user_id, session_id, type, text, route, salience, confidence, event_ts, "
                "created_at, valid_from, valid_to, supersedes, superseded_by, source_ids, origin, extractor, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (fact.user_id, fact.session_id, fact.type, fact.text, fact.route, fact.salience, fact.confidence,
                 fact.event_ts, fact.created_at, fact.created_at, valid_to, supersedes, superseded_by,
                 json.dumps(fact.source_ids), fact.origin, fact.extractor, now)) or 0)
            if supersedes is not None:
                tx.execute("UPDATE facts SET valid_to = ?, superseded_by = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                           (fact.created_at, fact_id, now, supersedes, fact.user_id))
            if superseded_by is not None:
                tx.execute("UPDATE facts SET supersedes = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                           (fact_id, now, superseded_by, fact.user_id))
        return fact_id

    def bump_fact(self, user_id: str, fact_id: int, source_ids: Iterable[int], *, salience_add: float,
                  durable_floor: float) -> None:
        with self._write() as tx:
            row = tx.one(f"SELECT salience, source_ids FROM facts WHERE id = ? AND user_id = ?{tx.dialect.for_update}",
                         (fact_id, user_id))
            if row is None:
                return
            salience = row[0] + salience_add
            sources = list(dict.fromkeys([*json.loads(row[1]), *source_ids]))
            tx.execute(
                "UPDATE facts SET recurrence = recurrence + 1, salience = ?, source_ids = ?, updated_at = ?, "
                "route = CASE WHEN ? >= ? THEN 'durable' ELSE route END WHERE id = ?",
                (salience, json.dumps(sources), time.time(), salience, durable_floor, fact_id))

    def facts_by_id(self, user_id: str, ids: Iterable[int], *, entities: bool = True) -> dict[int, Fact]:
        ids = [int(i) for i in dict.fromkeys(ids)]
        if not ids:
            return {}
        where, values = self.dialect.any("id", ids)
        # +user_id (SQLite): looked up by id, not every fact of the user by the user_id index
        rows = self._rows(f"SELECT {_FACT_COLUMNS} FROM facts WHERE {self.dialect.noindex}user_id = ? AND {where}",
                          [user_id, *values])
        facts = {f.id: f for f in map(_fact, rows)}
        if entities:
            self._attach_entities(facts)
        return facts

    def facts(self, user_id: str, *, include_superseded: bool = False, session_id: str | None = None,
              types: Iterable[str] | None = None, since: float | None = None, limit: int | None = None,
              entities: bool = True) -> list[Fact]:
        where = ["user_id = ?"]
        params: list[Any] = [user_id]
        if not include_superseded:
            where.append("valid_to IS NULL")
        if session_id is not None:
            where.append("session_id = ?")
            params.append(session_id)
        if types is not None:
            clause, values = self.dialect.any("type", types)
            where.append(clause)
            params.extend(values)
        if since is not None:
            where.append("created_at >= ?")
            params.append(since)
        sql = f"SELECT {_FACT_COLUMNS} FROM facts WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        facts = {f.id: f for f in map(_fact, self._rows(sql, params))}
        if entities:
            self._attach_entities(facts)
        return list(facts.values())

    def current_fact_texts(self, user_id: str, limit: int) -> list[str]:
        """`facts(user_id, limit=limit)`'s texts without the rows and their entities (the novelty gate's sample)."""
        return [text for (text,) in self._rows(
            "SELECT text FROM facts WHERE user_id = ? AND valid_to IS NULL ORDER BY created_at DESC, id DESC LIMIT ?",
            (user_id, int(limit)))]

    def fact_history(self, user_id: str, fact_id: int) -> list[Fact]:
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

    def replacements(self, user_id: str) -> list[tuple[Fact, list[Fact]]]:
        """Each current fact that superseded others, with every fact its chain replaced (newest first)."""
        rows = self._rows(f"SELECT {_FACT_COLUMNS} FROM facts WHERE user_id = ? AND superseded_by IS NOT NULL",
                          (user_id,))
        old = {f.id: f for f in map(_fact, rows)}
        if not old:
            return []

        def end(fact_id: int) -> int:
            seen = {fact_id}
            while fact_id in old and (nxt := old[fact_id].superseded_by) is not None and nxt not in seen:
                seen.add(fact_id := nxt)
            return fact_id

        ends: dict[int, list[Fact]] = {}
        for f in sorted(old.values(), key=lambda f: -f.created_at):
            ends.setdefault(end(f.id), []).append(f)
        current = {i: f for i, f in self.facts_by_id(user_id, ends).items() if f.current}
        return [(current[i], olds) for i, olds in ends.items() if i in current]

    def facts_missing_vectors(self, model: str, limit: int, after: int = 0, user_id: str | None = None) -> list[Fact]:
        mine, params = ("", [after]) if user_id is None else (" AND f.user_id = ?", [after, user_id])
        rows = self._rows(
            f"SELECT {_FACT_COLUMNS} FROM facts f WHERE id > ?{mine} AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.kind = 'fact' AND v.item_id = f.id AND v.model = ?) ORDER BY id LIMIT ?", [*params, model, limit])
        return [_fact(r) for r in rows]

    def facts_by_route(self, user_id: str) -> dict[str, int]:
        return {r: int(n) for r, n in self._rows("SELECT route, count(*) FROM facts WHERE user_id = ? GROUP BY 1",
                                                 (user_id,))}

    def fact_counts(self, user_id: str) -> dict[str, int]:
        rows = self._rows("SELECT route, valid_to IS NULL, count(*) FROM facts WHERE user_id = ? GROUP BY 1, 2",
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
        with self._write() as tx:
            tx.many("INSERT INTO route_counts (user_id, route, n) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id, route) DO UPDATE SET n = route_counts.n + excluded.n", values)

    def route_counts(self, user_id: str) -> dict[str, int]:
        return {r: int(n) for r, n in self._rows(
            "SELECT route, n FROM route_counts WHERE user_id = ? ORDER BY route", (user_id,))}

    # --- entities ------------------------------------------------------------------------------------
    def link_entities(self, user_id: str, fact_id: int, names: Iterable[str]) -> list[int]:
        """On PostgreSQL the writers of one user's entities are serialised (`_lock_entities`): resolution
        reads, then writes."""
        now = time.time()
        ids: list[int] = []
        d = self.dialect
        names = list(dict.fromkeys(n.strip() for n in names if n and n.strip()))
        if not names:   # nothing to write: no transaction (a third of consolidation's facts name no one)
            return ids
        with self._write() as tx:
            self._lock_entities(tx, user_id)
            for name in names:
                row = tx.one(f"SELECT entity_id FROM entity_aliases WHERE user_id = ? AND {d.same_name('alias')}",
                             (user_id, name))
                if row is None:
                    row = tx.one(f"SELECT id FROM entities WHERE user_id = ? AND {d.same_name('name')}", (user_id, name))
                if row is None:
                    entity_id = _longer_name(tx, user_id, name) or _shorter_name(tx, user_id, name)
                    if entity_id is None:
                        entity_id = int(tx.insert("INSERT INTO entities (user_id, name, updated_at) VALUES (?, ?, ?)",
                                                  (user_id, name, now)) or 0)
                    tx.execute(d.ignore("INSERT INTO entity_aliases (user_id, alias, entity_id) VALUES (?, ?, ?)"),
                               (user_id, name, entity_id))
                else:
                    entity_id = int(row[0])
                # the fact that taught (or used) this name: a forget keeps a name only while a fact still uses it
                tx.execute(d.ignore("INSERT INTO alias_sources (user_id, alias, fact_id) VALUES (?, ?, ?)"),
                           (user_id, name, fact_id))
                if entity_id not in ids:
                    ids.append(entity_id)
            tx.many(d.ignore("INSERT INTO fact_entities (fact_id, entity_id) VALUES (?, ?)"), [(fact_id, e) for e in ids])
            tx.many("INSERT INTO entity_edges (a, b, weight) VALUES (?, ?, 1) "
                    "ON CONFLICT (a, b) DO UPDATE SET weight = entity_edges.weight + 1",
                    [(a, b) for i, a in enumerate(sorted(ids)) for b in sorted(ids)[i + 1:]])
        return ids

    def _lock_entities(self, tx: Tx, user_id: str) -> None:
        """Serialise the writers of one user's entities (SQLite: one writer at a time already)."""

    def entities(self, user_id: str) -> list[Entity]:
        d = self.dialect
        rows = self._rows(
            "SELECT e.id, e.name, e.profile, (SELECT count(*) FROM fact_entities fe JOIN facts f ON f.id = fe.fact_id "
            "WHERE fe.entity_id = e.id AND f.valid_to IS NULL) AS n FROM entities e WHERE e.user_id = ? "
            f"ORDER BY n DESC, {d.by_name('e.name')}", (user_id,))
        aliases: dict[int, list[str]] = {}
        for entity_id, alias in self._rows(
                f"SELECT entity_id, alias FROM entity_aliases WHERE user_id = ? ORDER BY {d.by_name('alias')}",
                (user_id,)):
            aliases.setdefault(entity_id, []).append(alias)
        names = {r[0]: r[1] for r in rows}
        related: dict[int, list[tuple[str, int]]] = {}
        for a, b, w in self._rows(
                "SELECT a, b, weight FROM entity_edges WHERE a IN (SELECT id FROM entities WHERE user_id = ?) "
                "ORDER BY weight DESC", (user_id,)):
            if a in names and b in names:
                related.setdefault(a, []).append((names[b], w))
                related.setdefault(b, []).append((names[a], w))
        return [Entity(r[0], r[1], [a for a in aliases.get(r[0], []) if a.lower() != r[1].lower()], int(r[3]), r[2],
                       related.get(r[0], [])) for r in rows]

    def entity(self, user_id: str, name: str) -> Entity | None:
        d = self.dialect
        rows = self._rows(
            f"SELECT entity_id FROM entity_aliases WHERE user_id = ? AND {d.same_name('alias')} UNION "
            f"SELECT id FROM entities WHERE user_id = ? AND {d.same_name('name')}", (user_id, name, user_id, name))
        if not rows:
            return None
        return next((e for e in self.entities(user_id) if e.id == rows[0][0]), None)

    def entity_facts(self, user_id: str, entity_id: int, *, include_superseded: bool = False) -> list[Fact]:
        ids = [r[0] for r in self._rows("SELECT fact_id FROM fact_entities WHERE entity_id = ?", (entity_id,))]
        facts = self.facts_by_id(user_id, ids).values()
        return sorted((f for f in facts if include_superseded or f.current), key=lambda f: -f.created_at)

    def entities_of_facts(self, fact_ids: Iterable[int]) -> list[int]:
        ids = [int(i) for i in dict.fromkeys(fact_ids)]
        if not ids:
            return []
        where, values = self.dialect.any("fact_id", ids)
        return [int(r[0]) for r in self._rows(f"SELECT DISTINCT entity_id FROM fact_entities WHERE {where}", values)]

    def profile_state(self, entity_id: int) -> tuple[str, str | None, list[int]]:
        name, profile, facts = self._rows(
            "SELECT name, profile, profile_facts FROM entities WHERE id = ?", (entity_id,))[0]
        return name, profile, json.loads(facts) if facts else []

    def set_profile(self, entity_id: int, profile: str, fact_ids: list[int]) -> None:
        with self._write() as tx:
            tx.execute("UPDATE entities SET profile = ?, profile_facts = ?, updated_at = ? WHERE id = ?",
                       (profile, json.dumps(fact_ids), time.time(), entity_id))

    def _attach_entities(self, facts: dict[int, Fact]) -> None:
        if not facts:
            return
        where, values = self.dialect.any("fe.fact_id", list(facts))
        for fact_id, name in self._rows(
                "SELECT fe.fact_id, e.name FROM fact_entities fe JOIN entities e ON e.id = fe.entity_id "
                f"WHERE {where} ORDER BY {self.dialect.by_name('e.name')}", values):
            facts[fact_id].entities.append(name)

    # --- forgetting ----------------------------------------------------------------------------------
    def _forget_facts(self, tx: Tx, scope: Scope) -> dict[str, int]:
        """Facts of the forgotten scope go, their chains mended first (`store/chains.py`); then entities
        and names no remaining fact uses (`_forget_names`); edges are recounted, profiles reset, and
        forgotten turns leave the sources of the facts that restated them."""
        where, params = scope.where, scope.params
        if scope.per_session:
            _mend_chains(tx, where, params)
        facts = tx.execute(f"DELETE FROM facts WHERE {where}", params).rowcount
        user_where, user_params = scope.user_where, scope.user_params
        if scope.per_session:
            _drop_forgotten_sources(tx, where, params)
        entities = self._forget_names(tx, scope)
        tx.execute(f"UPDATE entities SET profile = NULL, profile_facts = NULL WHERE {user_where}", user_params)
        tx.execute(f"DELETE FROM entity_edges WHERE a IN (SELECT id FROM entities WHERE {user_where})", user_params)
        tx.execute(
            "INSERT INTO entity_edges (a, b, weight) SELECT x.entity_id, y.entity_id, count(*) FROM fact_entities x "
            "JOIN fact_entities y ON x.fact_id = y.fact_id AND x.entity_id < y.entity_id "
            f"WHERE x.entity_id IN (SELECT id FROM entities WHERE {user_where}) GROUP BY 1, 2", user_params)
        if not scope.per_session:
            tx.execute(f"DELETE FROM route_counts WHERE {user_where}", user_params)
        return {"facts": facts, "entities": entities}

    def _forget_names(self, tx: Tx, scope: Scope) -> int:
        """After a forget's facts went: the scope's user's entities no fact names (returns how many), the aliases no
        remaining fact used, and a new name for an entity whose name went. Each backend's own SQL."""
        raise NotImplementedError


def _longer_name(tx: Tx, user_id: str, name: str) -> int | None:
    """"Tomás" is an alias of a known "Tomás Ferreira" (a one-word name that starts exactly one known name)."""
    if " " in name:
        return None
    if tx.dialect.folds_case:  # SQLite's LIKE folds (ASCII) case itself
        column, start = "name", name
    else:
        column, start = "lower(name)", name.lower().replace("\\", "\\\\")
    rows = tx.all(f"SELECT id FROM entities WHERE user_id = ? AND {column} LIKE ? ESCAPE '\\'",
                  (user_id, start.replace("%", "\\%").replace("_", "\\_") + " %"))
    return int(rows[0][0]) if len(rows) == 1 else None


def _shorter_name(tx: Tx, user_id: str, name: str) -> int | None:
    """"Maya Okafor" after a known "Maya": the same entity, now under its full name ("Maya" stays an alias)."""
    first = name.split()[0]
    if " " not in name or len(first) < 3:
        return None
    row = tx.one(f"SELECT id FROM entities WHERE user_id = ? AND {tx.dialect.same_name('name')}", (user_id, first))
    if row is None:
        return None
    tx.execute("UPDATE entities SET name = ?, updated_at = ? WHERE id = ?", (name, time.time(), row[0]))
    return int(row[0])


def _mend_chains(tx: Tx, where: str, params: list[Any]) -> None:
    gone = {r[0]: (r[1], r[2]) for r in tx.all(f"SELECT id, supersedes, superseded_by FROM facts WHERE {where}",
                                               params)}
    if not gone:
        return
    linked = [i for links in gone.values() for i in links if i is not None and i not in gone]
    neighbours = {r[0]: (r[1], r[2]) for r in tx.all_in(
        "SELECT id, supersedes, superseded_by FROM facts WHERE id IN ({marks})", linked)}
    now = time.time()
    for m in mend(gone, neighbours):
        tx.execute("UPDATE facts SET supersedes = ?, superseded_by = ?, updated_at = ?"
                   + (", valid_to = NULL" if m.current_again else "") + " WHERE id = ?",
                   (m.supersedes, m.superseded_by, now, m.fact_id))


def _drop_forgotten_sources(tx: Tx, where: str, params: list[Any]) -> None:
    """Facts of other sessions that a forgotten session's turns restated lose those turns from their sources."""
    gone = {int(r[0]) for r in tx.execute(f"SELECT id FROM turns WHERE {where}", params)}
    if not gone:
        return
    named = {str(i) for i in gone}
    for fact_id, sources in tx.all("SELECT id, source_ids FROM facts WHERE user_id = ?", params[:1]):
        if named.isdisjoint(_NUMBER.findall(sources)):   # most name none of them: not decoded (every fact is read)
            continue
        ids = json.loads(sources)
        kept = [i for i in ids if i not in gone]
        if len(kept) != len(ids):
            tx.execute("UPDATE facts SET source_ids = ? WHERE id = ?", (json.dumps(kept), fact_id))
