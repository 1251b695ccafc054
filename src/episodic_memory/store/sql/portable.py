"""SQL for taking a store with you: every row of a user as plain records (export), written back with fresh
row ids (import), an export of either backend importing into the other. The records are the tables' own
columns (a column a later migration adds travels without a change here), JSON decoded, booleans as 0/1,
plus what hangs off a row (`EXTRA_FIELDS`)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..scripts import segmented
from .core import SQLCore
from .dialect import Tx

# record kind -> its table, in the order they are exported and imported (what a row refers to comes first)
PORTABLE_TABLES: dict[str, str] = {
    "session": "sessions", "turn": "turns", "entity": "entities", "fact": "facts", "entity_edge": "entity_edges",
    "workstream": "workstreams", "episode": "episodes", "loop": "loops", "judgment": "judgments",
    "route_count": "route_counts",
}
# columns holding JSON text: decoded in records, encoded again on import
_JSON_COLUMNS = {
    "facts": {"source_ids"}, "episodes": {"source_ids", "keyphrases"}, "workstreams": {"keyphrases"},
    "loops": {"source_ids", "evidence_ids"}, "entities": {"profile_facts"}, "judgments": {"metadata"},
}
# boolean columns: 0/1 in records, as SQLite stores them
_BOOL_COLUMNS = {"sessions": {"needs_consolidation"}}
# what hangs off a row, under these keys
EXTRA_FIELDS = {"entity": {"aliases"}, "fact": {"entities"}, "episode": {"terms"}, "judgment": {"verdicts"}}


@contextmanager
def written_beside(dest: str, *, fresh: bool = False) -> Iterator[str]:
    """A temporary file beside `dest` (its folder made) to write a backup into, renamed onto `dest` when the block
    ends and removed (with a SQLite file's `-wal` and `-shm`) when it raises: `dest` is never half a store.
    `fresh`: no file is left at the path, for a store that makes its file itself."""
    target = Path(dest).expanduser().resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    if fresh:
        Path(tmp).unlink()
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
            Path(leftover).unlink(missing_ok=True)
        raise


def appended(turns: Sequence[dict[str, Any]], here: dict[int, int], next_seq: dict[tuple[str, str], int]
             ) -> dict[int, int]:
    """New positions for the file's new turns (not in `here`) of sessions the store already holds (`next_seq`):
    after that session's own turns, in the file's order, so positions never repeat and each turn still follows
    the one it followed in the file. Row id in the file -> seq."""
    seqs, after = {}, dict(next_seq)
    for r in sorted(turns, key=lambda r: r["seq"]):
        key = (r["user_id"], r["session_id"])
        if key in after and r["id"] not in here:
            seqs[r["id"]] = after[key]
            after[key] += 1
    return seqs


class PortableCore(SQLCore):
    """Export and import (a mixin of both stores)."""

    #: per table, what is local to one store and never travels
    LOCAL_COLUMNS: ClassVar[dict[str, set[str]]]
    #: the order rows are exported in where not by id (and a fact's entities: "fact_entities")
    EXPORT_ORDER: ClassVar[dict[str, str]]

    if TYPE_CHECKING:  # each backend's
        def _columns(self, table: str) -> list[str]: ...

        def _snapshot(self) -> AbstractContextManager[Tx]: ...

    def users(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT DISTINCT user_id FROM sessions ORDER BY user_id")]

    def portable_columns(self) -> dict[str, set[str]]:
        return {kind: (set(self._columns(table)) - self.LOCAL_COLUMNS.get(table, set())) | EXTRA_FIELDS.get(kind, set())
                for kind, table in PORTABLE_TABLES.items()}

    def id_owners(self, kind: str, ids: Sequence[str]) -> dict[str, str]:
        table, column = {"turn": ("turns", "uid"), "judgment": ("judgments", "memory_id")}[kind]
        return {key: user for key, user in self._rows_in(
            f"SELECT {column}, user_id FROM {table} WHERE {column} IN ({{marks}})", list(dict.fromkeys(ids)))}

    def export_records(self, user_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        everything = self.dialect.everything
        where, params = ("user_id = ?", [user_id]) if user_id is not None else (everything, [])
        out: list[tuple[str, dict[str, Any]]] = []
        with self._snapshot() as tx:
            for kind, table in PORTABLE_TABLES.items():
                if table == "entity_edges":
                    sql = ("SELECT e.* FROM entity_edges e JOIN entities x ON x.id = e.a WHERE "
                           f"{'x.user_id = ?' if params else everything} ORDER BY e.a, e.b")
                else:
                    sql = f"SELECT * FROM {table} WHERE {where} ORDER BY {self.EXPORT_ORDER.get(table, 'id')}"
                for record in self._records(tx, table, sql, params):
                    out.append((kind, self._with_extras(tx, kind, record)))
        return out

    def _records(self, tx: Tx, table: str, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        cur = tx.execute(sql, params)
        names = [d[0] for d in cur.description or ()]
        local, as_json = self.LOCAL_COLUMNS.get(table, set()), _JSON_COLUMNS.get(table, set())
        as_bool = _BOOL_COLUMNS.get(table, set())
        return [{n: (json.loads(v) if n in as_json and v is not None else
                     int(v) if n in as_bool and v is not None else
                     bytes(v) if isinstance(v, memoryview) else v)
                 for n, v in zip(names, row, strict=True) if n not in local} for row in cur.fetchall()]

    def _with_extras(self, tx: Tx, kind: str, record: dict[str, Any]) -> dict[str, Any]:
        rid = record.get("id")
        if kind == "entity":
            record["aliases"] = [r[0] for r in tx.all(
                "SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY alias", (rid,))]
        elif kind == "fact":
            record["entities"] = [int(r[0]) for r in tx.all(
                f"SELECT entity_id FROM fact_entities WHERE fact_id = ? ORDER BY {self.EXPORT_ORDER['fact_entities']}",
                (rid,))]
        elif kind == "episode":
            record["terms"] = {t: tf for t, tf in tx.all(
                "SELECT term, tf FROM episode_terms WHERE episode_id = ? ORDER BY term", (rid,))}
        elif kind == "judgment":
            record["verdicts"] = [{"adopted": bool(a), "correction": c, "ts": ts} for a, c, ts in tx.all(
                "SELECT adopted, correction, ts FROM judgment_verdicts WHERE judgment_id = ? ORDER BY id", (rid,))]
        return record

    def _recount_sessions(self, tx: Tx, touched: set[tuple[str, str]], new: set[tuple[str, str]]) -> None:
        """The counts and times of the sessions an import added turns to (`touched`; `new`: those it added), from
        their turns (each backend's SQL)."""
        raise NotImplementedError

    def import_records(self, records: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, int]:
        """Rows of the same user already here (the same turn uid or caller turn id in its session, fact or
        loop origin, session, episode of a session, entity name, judgment id) are only mapped; new turns of
        a session already here go after its turns (`appended`). A constraint the database still refuses
        rolls everything back."""
        ids: dict[str, dict[int, int]] = {k: {} for k in ("turn", "entity", "fact", "workstream", "episode")}
        added = dict.fromkeys(PORTABLE_TABLES, 0)
        by_kind: dict[str, list[dict[str, Any]]] = {k: [] for k in PORTABLE_TABLES}
        for kind, record in records:
            by_kind[kind].append(record)
        columns = {t: self._columns(t) for t in PORTABLE_TABLES.values()}
        local_columns = self.LOCAL_COLUMNS

        def insert(tx: Tx, table: str, record: dict[str, Any], **over: Any) -> int:
            values = {c: over.get(c, record.get(c)) for c in columns[table]
                      if c != "id" and (c in over or (c in record and c not in local_columns.get(table, set())))}
            as_json, as_bool = _JSON_COLUMNS.get(table, set()), _BOOL_COLUMNS.get(table, set())
            values = {c: (json.dumps(v) if c in as_json and v is not None else
                          bool(v) if c in as_bool and v is not None else v) for c, v in values.items()}
            sql = f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})"
            if "id" not in columns[table]:
                tx.execute(sql, list(values.values()))
                return 0
            return int(tx.insert(sql, list(values.values())) or 0)

        def one(tx: Tx, sql: str, *params: Any) -> Any:
            row = tx.one(sql, params)
            return None if row is None else row[0]

        def workstream(old: int | None) -> int | None:
            return None if old is None else ids["workstream"].get(old)

        def turn_ids(values: list[int] | None) -> list[int] | None:
            return None if values is None else [ids["turn"][v] for v in values]

        with self._write("turns", "facts", "judgments") as tx:
            d = tx.dialect
            touched: set[tuple[str, str]] = set()
            new_sessions: set[tuple[str, str]] = set()
            next_seq: dict[tuple[str, str], int] = {}  # a session already here -> the seq after its turns
            for r in by_kind["session"]:
                key = (r["user_id"], r["session_id"])
                if one(tx, f"SELECT 1 FROM sessions WHERE user_id = ? AND session_id = ?{d.for_update}", *key) is None:
                    insert(tx, "sessions", r)
                    added["session"] += 1
                    new_sessions.add(key)
                else:
                    next_seq[key] = int(one(tx, "SELECT coalesce(max(seq) + 1, 0) FROM turns WHERE user_id = ? "
                                                "AND session_id = ?", *key))
            for r in by_kind["turn"]:  # the same turn of the same user: its journal uid, or its caller id there
                # two lookups, each by its index: one OR of the two walked all of the user's turns for each turn
                # imported (an import into a large store took minutes where it takes seconds)
                here = one(tx, "SELECT id FROM turns WHERE user_id = ? AND uid = ?", r["user_id"], r["uid"])
                if here is None and r.get("turn_id") is not None:
                    here = one(tx, "SELECT id FROM turns WHERE user_id = ? AND turn_id = ? AND session_id = ?",
                               r["user_id"], r["turn_id"], r["session_id"])
                if here is not None:
                    ids["turn"][r["id"]] = int(here)
            seqs = appended(by_kind["turn"], ids["turn"], next_seq)
            for r in by_kind["turn"]:
                if r["id"] not in ids["turn"]:
                    ids["turn"][r["id"]] = insert(tx, "turns", r, segmented=segmented(r["content"]),
                                                  seq=seqs.get(r["id"], r["seq"]))
                    added["turn"] += 1
                    touched.add((r["user_id"], r["session_id"]))
            self._recount_sessions(tx, touched, new_sessions)  # a session merged with turns of the file
            for r in by_kind["entity"]:
                existing = one(tx, f"SELECT id FROM entities WHERE user_id = ? AND {d.same_name('name')}",
                               r["user_id"], r["name"])
                if existing is None:
                    existing = insert(tx, "entities", r, profile_facts=None)
                    added["entity"] += 1
                    r["_new"] = True
                ids["entity"][r["id"]] = int(existing)
                tx.many(d.ignore("INSERT INTO entity_aliases (user_id, alias, entity_id) VALUES (?, ?, ?)"),
                        [(r["user_id"], alias, existing) for alias in r.get("aliases", [])])
            for r in by_kind["fact"]:
                existing = one(tx, "SELECT id FROM facts WHERE user_id = ? AND origin = ?", r["user_id"], r["origin"])
                if existing is None:
                    existing = insert(tx, "facts", r, supersedes=None, superseded_by=None,
                                      source_ids=turn_ids(r["source_ids"]))
                    added["fact"] += 1
                    r["_new"] = True
                ids["fact"][r["id"]] = int(existing)
                tx.many(d.ignore("INSERT INTO fact_entities (fact_id, entity_id) VALUES (?, ?)"),
                        [(existing, ids["entity"][e]) for e in r.get("entities", [])])
            for r in by_kind["fact"]:  # the supersession chain, once every fact has its id here
                if r.get("_new") and (r.get("supersedes") is not None or r.get("superseded_by") is not None):
                    tx.execute("UPDATE facts SET supersedes = ?, superseded_by = ? WHERE id = ?",
                               (ids["fact"].get(r["supersedes"]), ids["fact"].get(r["superseded_by"]),
                                ids["fact"][r["id"]]))
            for r in by_kind["entity"]:
                if r.get("_new") and r.get("profile_facts") is not None:
                    tx.execute("UPDATE entities SET profile_facts = ? WHERE id = ?",
                               (json.dumps([ids["fact"][f] for f in r["profile_facts"]]), ids["entity"][r["id"]]))
            for r in by_kind["entity_edge"]:
                a, b = sorted((ids["entity"][r["a"]], ids["entity"][r["b"]]))
                added["entity_edge"] += tx.execute(d.ignore("INSERT INTO entity_edges (a, b, weight) VALUES (?, ?, ?)"),
                                                   (a, b, r["weight"])).rowcount
            for r in by_kind["episode"]:  # a workstream already here is known by an episode of it already here
                here = tx.one("SELECT id, workstream_id FROM episodes WHERE user_id = ? AND session_id = ?",
                              (r["user_id"], r["session_id"]))
                if here is not None:
                    ids["episode"][r["id"]] = int(here[0])
                    if r.get("workstream_id") is not None and here[1] is not None:
                        ids["workstream"].setdefault(r["workstream_id"], int(here[1]))
            for r in by_kind["workstream"]:
                if r["id"] not in ids["workstream"]:
                    ids["workstream"][r["id"]] = insert(tx, "workstreams", r)
                    added["workstream"] += 1
            for r in by_kind["episode"]:
                if r["id"] in ids["episode"]:
                    continue
                episode_id = insert(tx, "episodes", r, source_ids=turn_ids(r["source_ids"]),
                                    workstream_id=workstream(r.get("workstream_id")))
                ids["episode"][r["id"]] = episode_id
                added["episode"] += 1
                tx.many(d.ignore("INSERT INTO episode_terms (episode_id, user_id, term, tf) VALUES (?, ?, ?, ?)"),
                        [(episode_id, r["user_id"], t, tf) for t, tf in r.get("terms", {}).items()])
            for r in by_kind["loop"]:
                if one(tx, "SELECT 1 FROM loops WHERE user_id = ? AND origin = ?", r["user_id"], r["origin"]) is None:
                    insert(tx, "loops", r, source_ids=turn_ids(r["source_ids"]),
                           evidence_ids=turn_ids(r.get("evidence_ids")),
                           workstream_id=workstream(r.get("workstream_id")))
                    added["loop"] += 1
            for r in by_kind["judgment"]:
                if one(tx, "SELECT 1 FROM judgments WHERE user_id = ? AND (memory_id = ? OR dedup_key = ?)",
                       r["user_id"], r["memory_id"], r["dedup_key"]) is None:
                    judgment_id = insert(tx, "judgments", r)
                    tx.many("INSERT INTO judgment_verdicts (judgment_id, adopted, correction, ts) VALUES (?, ?, ?, ?)",
                            [(judgment_id, bool(v["adopted"]), v.get("correction"), v["ts"])
                             for v in r.get("verdicts", [])])
                    added["judgment"] += 1
            for r in by_kind["route_count"]:
                added["route_count"] += tx.execute(
                    d.ignore("INSERT INTO route_counts (user_id, route, n) VALUES (?, ?, ?)"),
                    (r["user_id"], r["route"], r["n"])).rowcount
        return added
