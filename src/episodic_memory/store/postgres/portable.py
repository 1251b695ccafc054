"""SQL for taking a store with you (PostgreSQL): every row of a user as plain records (export), those records written
back with fresh row ids (import), and a consistent copy of the whole store (backup, as a SQLite file).

The records are the SQLite store's (`store/sqlite/portable.py`): the tables' own columns, JSON columns decoded,
booleans as 0/1, plus what hangs off a row (an entity's aliases, a fact's entities, an episode's terms, a
judgment's verdicts). So an export of either backend imports into the other. What only a PostgreSQL database has
(a turn's `tsv`, a session's `lexemes`) never travels and is computed again here.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg

from ..scripts import segmented
from ..sqlite.portable import _JSON_COLUMNS, EXTRA_FIELDS, PORTABLE_TABLES, appended
from .connection import PgConnection

# what is local to one database and never travels
_LOCAL_COLUMNS = {"sessions": {"journal_file", "journal_offset", "lexemes", "consolidation_failures", "retry_at"},
                  "turns": {"tsv", "segmented"}}  # segmented: made again from the text on import (store/scripts.py)
# boolean columns: 0/1 in records, as SQLite stores them
_BOOL_COLUMNS = {"sessions": {"needs_consolidation"}}
# the order rows are exported in (SQLite's rowid order, where a table has no id)
_ORDER = {"sessions": "user_id, session_id", "route_counts": "user_id, route"}


class PortablePg(PgConnection):
    """Export, import and backup."""

    def users(self) -> list[str]:
        """Every user with a session (a maintenance read across users), sorted."""
        return [r[0] for r in self._query("SELECT DISTINCT user_id FROM sessions ORDER BY user_id")]

    def _columns(self, table: str) -> list[str]:
        return [r[0] for r in self._query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = %s ORDER BY ordinal_position", (table,))]

    def portable_columns(self) -> dict[str, set[str]]:
        """Record kind → the fields its records may carry here (the table's columns and its extras)."""
        return {kind: (set(self._columns(table)) - _LOCAL_COLUMNS.get(table, set())) | EXTRA_FIELDS.get(kind, set())
                for kind, table in PORTABLE_TABLES.items()}

    def id_owners(self, kind: str, ids: Sequence[str]) -> dict[str, str]:
        """As SQLite's: the user holding each of `ids` (turn uids or judgment memory ids) here."""
        table, column = {"turn": ("turns", "uid"), "judgment": ("judgments", "memory_id")}[kind]
        rows = self._query(f"SELECT {column}, user_id FROM {table} WHERE {column} = ANY(%s)",
                           (list(dict.fromkeys(ids)),))
        return {key: user for key, user in rows}

    def export_records(self, user_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """Every row of one user (or of every user), as (kind, record), read in one snapshot (a repeatable-read
        transaction)."""
        where = "user_id = %(user)s" if user_id is not None else "true"
        params = {"user": user_id}
        out: list[tuple[str, dict[str, Any]]] = []
        with self._pool.connection() as db:
            db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                for kind, table in PORTABLE_TABLES.items():
                    if table == "entity_edges":
                        sql = ("SELECT e.* FROM entity_edges e JOIN entities x ON x.id = e.a WHERE "
                               f"{'x.user_id = %(user)s' if user_id is not None else 'true'} ORDER BY e.a, e.b")
                    else:
                        sql = f"SELECT * FROM {table} WHERE {where} ORDER BY {_ORDER.get(table, 'id')}"
                    for record in _records(db, table, sql, params):
                        out.append((kind, _with_extras(db, kind, record)))
            finally:
                db.execute("COMMIT")
        return out

    def import_records(self, records: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, int]:
        """Write exported records in one transaction, as the SQLite store does: rows already here (the same turn
        uid, fact or loop origin, session, episode of a session, entity name, judgment id) are kept and only
        mapped; every other row gets a fresh id and every reference is mapped to it. Returns the rows added per
        kind. A constraint the database still refuses rolls everything back."""
        ids: dict[str, dict[int, int]] = {k: {} for k in ("turn", "entity", "fact", "workstream", "episode")}
        added = dict.fromkeys(PORTABLE_TABLES, 0)
        by_kind: dict[str, list[dict[str, Any]]] = {k: [] for k in PORTABLE_TABLES}
        for kind, record in records:
            by_kind[kind].append(record)
        columns = {t: self._columns(t) for t in PORTABLE_TABLES.values()}

        def insert(db: psycopg.Connection, table: str, record: dict[str, Any], **over: Any) -> int:
            values = {c: over.get(c, record.get(c)) for c in columns[table]
                      if c != "id" and (c in over or (c in record and c not in _LOCAL_COLUMNS.get(table, set())))}
            as_json, as_bool = _JSON_COLUMNS.get(table, set()), _BOOL_COLUMNS.get(table, set())
            values = {c: (json.dumps(v) if c in as_json and v is not None else
                          bool(v) if c in as_bool and v is not None else v) for c, v in values.items()}
            sql = f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join(['%s'] * len(values))})"
            if "id" not in columns[table]:
                db.execute(sql, list(values.values()))
                return 0
            row = db.execute(sql + " RETURNING id", list(values.values())).fetchone()
            return int(row[0]) if row else 0

        def one(db: psycopg.Connection, sql: str, *params: Any) -> Any:
            row = db.execute(sql, params).fetchone()
            return None if row is None else row[0]

        def workstream(old: int | None) -> int | None:
            return None if old is None else ids["workstream"].get(old)

        def turn_ids(values: list[int] | None) -> list[int] | None:
            return None if values is None else [ids["turn"][v] for v in values]

        with self.transaction("turns", "facts", "judgments") as db:
            touched: set[tuple[str, str]] = set()
            next_seq: dict[tuple[str, str], int] = {}  # a session already here -> the seq after its turns
            for r in by_kind["session"]:
                key = (r["user_id"], r["session_id"])
                if one(db, "SELECT 1 FROM sessions WHERE user_id = %s AND session_id = %s FOR UPDATE", *key) is None:
                    insert(db, "sessions", r)
                    added["session"] += 1
                    touched.add(key)
                else:
                    next_seq[key] = int(one(db, "SELECT coalesce(max(seq) + 1, 0) FROM turns WHERE user_id = %s "
                                                "AND session_id = %s", *key))
            for r in by_kind["turn"]:  # the same turn of the same user: its journal uid, or its caller id there
                here = one(db, "SELECT id FROM turns WHERE user_id = %s AND (uid = %s OR (session_id = %s AND "
                               "turn_id = %s))", r["user_id"], r["uid"], r["session_id"], r.get("turn_id"))
                if here is not None:
                    ids["turn"][r["id"]] = int(here)
            seqs = appended(by_kind["turn"], ids["turn"], next_seq)
            for r in by_kind["turn"]:
                if r["id"] not in ids["turn"]:
                    ids["turn"][r["id"]] = insert(db, "turns", r, segmented=segmented(r["content"]),
                                                  seq=seqs.get(r["id"], r["seq"]))
                    added["turn"] += 1
                    touched.add((r["user_id"], r["session_id"]))
            for user_id, session_id in sorted(touched):  # a session merged with turns of the file
                db.execute(
                    "UPDATE sessions s SET turn_count = a.n, started_at = a.first, last_turn_at = a.last, "
                    "lexemes = a.lexemes FROM (SELECT count(*) AS n, min(ts) AS first, max(ts) AS last, "
                    "coalesce(sum(length(tsv)), 0) AS lexemes FROM turns WHERE user_id = %(user)s "
                    "AND session_id = %(session)s) a WHERE s.user_id = %(user)s AND s.session_id = %(session)s",
                    {"user": user_id, "session": session_id})
            for r in by_kind["entity"]:
                existing = one(db, "SELECT id FROM entities WHERE user_id = %s AND lower(name) = lower(%s)",
                               r["user_id"], r["name"])
                if existing is None:
                    existing = insert(db, "entities", r, profile_facts=None)
                    added["entity"] += 1
                    r["_new"] = True
                ids["entity"][r["id"]] = int(existing)
                for alias in r.get("aliases", []):
                    db.execute("INSERT INTO entity_aliases (user_id, alias, entity_id) VALUES (%s, %s, %s) "
                               "ON CONFLICT DO NOTHING", (r["user_id"], alias, existing))
            for r in by_kind["fact"]:
                existing = one(db, "SELECT id FROM facts WHERE user_id = %s AND origin = %s", r["user_id"],
                               r["origin"])
                if existing is None:
                    existing = insert(db, "facts", r, supersedes=None, superseded_by=None,
                                      source_ids=turn_ids(r["source_ids"]))
                    added["fact"] += 1
                    r["_new"] = True
                ids["fact"][r["id"]] = int(existing)
                for e in r.get("entities", []):
                    db.execute("INSERT INTO fact_entities (fact_id, entity_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                               (existing, ids["entity"][e]))
            for r in by_kind["fact"]:  # the supersession chain, once every fact has its id here
                if r.get("_new") and (r.get("supersedes") is not None or r.get("superseded_by") is not None):
                    db.execute("UPDATE facts SET supersedes = %s, superseded_by = %s WHERE id = %s",
                               (ids["fact"].get(r["supersedes"]), ids["fact"].get(r["superseded_by"]),
                                ids["fact"][r["id"]]))
            for r in by_kind["entity"]:
                if r.get("_new") and r.get("profile_facts") is not None:
                    db.execute("UPDATE entities SET profile_facts = %s WHERE id = %s",
                               (json.dumps([ids["fact"][f] for f in r["profile_facts"]]), ids["entity"][r["id"]]))
            for r in by_kind["entity_edge"]:
                a, b = sorted((ids["entity"][r["a"]], ids["entity"][r["b"]]))
                added["entity_edge"] += db.execute(
                    "INSERT INTO entity_edges (a, b, weight) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    (a, b, r["weight"])).rowcount
            for r in by_kind["episode"]:  # a workstream already here is known by an episode of it already here
                here = db.execute("SELECT id, workstream_id FROM episodes WHERE user_id = %s AND session_id = %s",
                                  (r["user_id"], r["session_id"])).fetchone()
                if here is not None:
                    ids["episode"][r["id"]] = int(here[0])
                    if r.get("workstream_id") is not None and here[1] is not None:
                        ids["workstream"].setdefault(r["workstream_id"], int(here[1]))
            for r in by_kind["workstream"]:
                if r["id"] not in ids["workstream"]:
                    ids["workstream"][r["id"]] = insert(db, "workstreams", r)
                    added["workstream"] += 1
            for r in by_kind["episode"]:
                if r["id"] in ids["episode"]:
                    continue
                episode_id = insert(db, "episodes", r, source_ids=turn_ids(r["source_ids"]),
                                    workstream_id=workstream(r.get("workstream_id")))
                ids["episode"][r["id"]] = episode_id
                added["episode"] += 1
                for t, tf in r.get("terms", {}).items():
                    db.execute("INSERT INTO episode_terms (episode_id, user_id, term, tf) VALUES (%s, %s, %s, %s) "
                               "ON CONFLICT DO NOTHING", (episode_id, r["user_id"], t, tf))
            for r in by_kind["loop"]:
                if one(db, "SELECT 1 FROM loops WHERE user_id = %s AND origin = %s", r["user_id"],
                       r["origin"]) is None:
                    insert(db, "loops", r, source_ids=turn_ids(r["source_ids"]),
                           evidence_ids=turn_ids(r.get("evidence_ids")),
                           workstream_id=workstream(r.get("workstream_id")))
                    added["loop"] += 1
            for r in by_kind["judgment"]:
                if one(db, "SELECT 1 FROM judgments WHERE user_id = %s AND (memory_id = %s OR dedup_key = %s)",
                       r["user_id"], r["memory_id"], r["dedup_key"]) is None:
                    judgment_id = insert(db, "judgments", r)
                    for v in r.get("verdicts", []):
                        db.execute("INSERT INTO judgment_verdicts (judgment_id, adopted, correction, ts) "
                                   "VALUES (%s, %s, %s, %s)", (judgment_id, bool(v["adopted"]), v.get("correction"),
                                                              v["ts"]))
                    added["judgment"] += 1
            for r in by_kind["route_count"]:
                added["route_count"] += db.execute(
                    "INSERT INTO route_counts (user_id, route, n) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    (r["user_id"], r["route"], r["n"])).rowcount
        return added

    def backup(self, dest: str) -> None:
        """A consistent copy of the whole store at `dest`, as a SQLite store file (it opens like any store): every
        user's records from one snapshot (`export_records`) and the REST tokens, written beside `dest` and renamed
        into place, so `dest` is never half a store. Writers carry on meanwhile. Vectors are not copied: a Memory
        with an embedder computes them again when it opens the copy. (A copy of the database itself is
        `pg_dump`'s job.)"""
        from ..sqlite.store import SQLiteStore

        target = Path(dest).expanduser().resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        Path(tmp).unlink()
        try:
            records = self.export_records()
            tokens = self._query("SELECT user_id, token_hash, label, created_at, last_used, revoked_at, "
                                 "read_agents, write_agents FROM api_tokens ORDER BY id")
            copy = SQLiteStore(tmp, self.config.model_copy(update={"read_only": False}))
            try:
                copy.import_records(records)
                with copy.transaction() as db:
                    db.executemany("INSERT INTO api_tokens (user_id, token_hash, label, created_at, last_used, "
                                   "revoked_at, read_agents, write_agents) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                   [tuple(t) for t in tokens])
                copy.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                copy.db.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            finally:
                copy.close()
            os.replace(tmp, target)
        except BaseException:
            for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
                Path(leftover).unlink(missing_ok=True)
            raise


def _records(db: psycopg.Connection, table: str, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur = db.execute(sql, params)
    names = [d.name for d in cur.description or ()]
    local, as_json = _LOCAL_COLUMNS.get(table, set()), _JSON_COLUMNS.get(table, set())
    as_bool = _BOOL_COLUMNS.get(table, set())
    return [{n: (json.loads(v) if n in as_json and v is not None else
                 int(v) if n in as_bool and v is not None else
                 bytes(v) if isinstance(v, memoryview) else v)
             for n, v in zip(names, row, strict=True) if n not in local} for row in cur.fetchall()]


def _with_extras(db: psycopg.Connection, kind: str, record: dict[str, Any]) -> dict[str, Any]:
    rid = record.get("id")
    if kind == "entity":
        record["aliases"] = [r[0] for r in db.execute(
            "SELECT alias FROM entity_aliases WHERE entity_id = %s ORDER BY alias", (rid,))]
    elif kind == "fact":
        record["entities"] = [int(r[0]) for r in db.execute(
            "SELECT entity_id FROM fact_entities WHERE fact_id = %s ORDER BY entity_id", (rid,))]
    elif kind == "episode":
        record["terms"] = {t: tf for t, tf in db.execute(
            "SELECT term, tf FROM episode_terms WHERE episode_id = %s ORDER BY term", (rid,))}
    elif kind == "judgment":
        record["verdicts"] = [{"adopted": bool(a), "correction": c, "ts": ts} for a, c, ts in db.execute(
            "SELECT adopted, correction, ts FROM judgment_verdicts WHERE judgment_id = %s ORDER BY id", (rid,))]
    return record
