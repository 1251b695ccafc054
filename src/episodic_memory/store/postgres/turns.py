"""PostgreSQL's own SQL for turns: storing and popping them, search over turns and derived memories,
vectors. Search ranks by BM25 computed in SQL over the postings table `turn_terms` (`postings_bm25`) or the
matching turns' own tsvectors (`bm25_sql`), with the same scores to the last bit (docs/postgres.md,
"Full-text search: BM25 in SQL, not `ts_rank`")."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pgvector import Vector
from psycopg import sql

from ...config import Config
from ..records import StoredTurn, TurnRecord
from ..rows import TURN_COLUMNS as _TURN_COLUMNS
from ..rows import turn_row as _turn
from ..scripts import SCRIPT_CHARS, segmented
from ..sql.turns import TurnCore, tag_filter
from .connection import PgConnection

_QUOTED = re.compile(r'"((?:[^"]|"")*)"')
_WORD = re.compile(f"(?:\\w|[{SCRIPT_CHARS}])+", re.UNICODE)  # a Thai pair keeps its vowel marks (not \\w)
BM25_K1, BM25_B = 1.2, 0.75  # FTS5's bm25() constants


def tsquery_words(match: str) -> str:
    """The words of an FTS5 match expression from `retrieve.fts` (quoted tokens joined by OR), space-separated: the
    text whose stems the search looks for (any of them). A phrase's words are looked for one by one."""
    quoted = [q.replace('""', '"') for q in _QUOTED.findall(match)]
    return " ".join(w for q in (quoted or [match]) for w in _WORD.findall(q))


def exact_tsquery(match: str) -> tuple[str, dict[str, Any]]:
    """An exact lookup's FTS5 expression from `retrieve.exact` — phrases joined by OR, a phrase ending in `*` a
    prefix — as a tsquery SQL expression (each phrase's words adjacent, in order) and its parameters."""
    parts, params = [], {}
    for i, form in enumerate(f.strip() for f in match.split(" OR ")):
        prefix = form.endswith("*")
        words = _WORD.findall(form.rstrip("*"))
        if not words:
            continue
        params[f"x{i}"] = " ".join(words)
        if prefix:   # the last word as a prefix: its lexemes (stemmed like the index) with :*
            parts.append(f"to_tsquery('episodic', array_to_string(ARRAY(SELECT quote_literal(x) || ':*' FROM "
                         f"unnest(tsvector_to_array(to_tsvector('episodic', %(x{i})s))) x), ' <-> '))")
        else:
            parts.append(f"phraseto_tsquery('episodic', %(x{i})s)")
    return (" || ".join(parts) if parts else "''::tsquery"), params


def bm25_sql(candidates: str, *, given_df: bool = False) -> str:
    """BM25 over `candidates`, a query of (key, tsv) rows that match; it may use %(user)s, %(lexemes)s (the
    query's stems), %(n)s documents and %(avgdl)s. Yields (key, score), unsorted. Document frequencies are
    counted over the candidates, or with `given_df` taken from %(df)s (one per stem, counted over the rows
    the filters would have dropped too)."""
    df = ("df AS (SELECT * FROM unnest(%(lexemes)s::text[], %(df)s::float8[]) AS d(lexeme, n))," if given_df
          else "df AS (SELECT lexeme, count(DISTINCT key)::float8 AS n FROM tf GROUP BY lexeme),")
    return f"""
        cand AS ({candidates}),
        tf AS (SELECT c.key, u.lexeme,
                      (SELECT sum(CASE WHEN w = 'C' THEN 0.5 ELSE 1 END) FROM unnest(u.weights) w)::float8 AS tf,
                      length(c.tsv)::float8 AS dl
               FROM cand c, unnest(c.tsv) u WHERE u.lexeme = ANY(%(lexemes)s::text[])),
        {df}
        {_scored("tf")}
    """


def _scored(rows: str) -> str:
    """The `scored` CTE: (key, BM25 score) from `rows` (key, lexeme, tf, dl) and `df` (lexeme, n), each score's
    terms summed in one order so that it is the same to the last bit at every run."""
    return f"""scored AS (
            SELECT {rows}.key, sum(ln(1 + (greatest(%(n)s::float8, df.n) - df.n + 0.5) / (df.n + 0.5))
                                   * {rows}.tf * {BM25_K1 + 1}
                                   / ({rows}.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * {rows}.dl
                                                                / greatest(%(avgdl)s::float8, 1)))
                                   ORDER BY {rows}.lexeme) AS score
            FROM {rows} JOIN df USING (lexeme) GROUP BY {rows}.key)"""


def postings_bm25(*, time_filter: str = "") -> str:
    """BM25 over the user's turns from the postings table (m017), for single stems OR-ed: the same scores
    as `bm25_sql` over the turns that match, without reading a turn. `time_filter` (conditions on `ts`)
    narrows the ranked rows, not the document frequencies. Yields (key, score), unsorted."""
    return f"""
        every AS (SELECT turn_id AS key, lexeme, tf::float8 AS tf, dl::float8 AS dl, ts FROM turn_terms
                  WHERE user_id = %(user)s AND lexeme = ANY(%(lexemes)s::text[])),
        df AS (SELECT lexeme, count(*)::float8 AS n FROM every GROUP BY lexeme),
        p AS (SELECT key, lexeme, tf, dl FROM every WHERE true{time_filter}),
        {_scored("p")}
    """


def _single_stems(tsquery: str) -> bool:
    """Whether a tsquery constant from `_bm25_query` is single stems OR-ed: no phrase (`<->`), no prefix (`:*`)."""
    return "<" not in tsquery and ":*" not in tsquery


def vector_bytes(vec: Any) -> bytes:
    return np.asarray(vec.to_numpy() if isinstance(vec, Vector) else vec, np.float32).tobytes()


class TurnPg(TurnCore, PgConnection):
    """Sessions and turns, their search and their vectors: the SQL of capture and recall."""

    def __init__(self, url: str, config: Config | None = None) -> None:
        super().__init__(url, config)
        self._common: dict[tuple[str | None, int, str], bool] = {}   # (user or None, cap, term) → too common
        self._common_generation, self._common_size = -1, 0
        self._bm25_queries: dict[str, tuple[list[str], str]] = {}  # match -> (stems, tsquery constant)
        self._bm25_user_stats: dict[tuple[str, ...], tuple[float, int, tuple[float, ...]]] = {}  # _bm25_cached

    # --- turns (sessions and the simple reads: `store/sql/turns.py`) ------------------------------------
    def insert_turns(self, records: Sequence[TurnRecord], journal_file: str, journal_offset: int) -> int:
        """Also idempotent on the caller's `turn_id`. Each new turn's `seq` is given here, under the session's
        row lock, after the turns already stored: concurrent writers of one session never collide."""
        if not records:
            return 0
        first = records[0]
        now = time.time()
        with self.transaction("turns") as db:
            db.execute(
                "INSERT INTO sessions (user_id, session_id, created_at, updated_at, journal_file) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (user_id, session_id) DO NOTHING",
                (first.user_id, first.session_id, now, now, journal_file))
            db.execute("SELECT 1 FROM sessions WHERE user_id = %s AND session_id = %s FOR UPDATE",
                       (first.user_id, first.session_id))
            # after the highest stored seq, not the count: a session with a gap (imported) never reuses a seq
            row = db.execute("SELECT coalesce(max(seq) + 1, 0) FROM turns WHERE user_id = %s AND session_id = %s",
                             (first.user_id, first.session_id)).fetchone()
            seq = int(row[0]) if row else 0
            inserted = 0
            for r in records:
                cur = db.execute(
                    "INSERT INTO turns (uid, user_id, session_id, seq, role, speaker, content, ts, ingested_at, "
                    "turn_id, source, tags, segmented, metadata) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (r.uid, r.user_id, r.session_id, seq, r.role, r.speaker, r.content, r.ts, r.ingested_at,
                     r.turn_id, r.source, json.dumps(list(r.tags), ensure_ascii=False) if r.tags else None,
                     segmented(r.content), r.metadata))
                seq += cur.rowcount
                inserted += cur.rowcount
            # a turn that arrives after the session ended gets no session end of its own: flag it here, with it
            db.execute(
                "UPDATE sessions s SET journal_file = %(file)s, journal_offset = greatest(journal_offset, %(offset)s), "
                "updated_at = %(now)s, turn_count = a.n, started_at = a.first, last_turn_at = a.last, "
                "needs_consolidation = s.needs_consolidation OR (s.status = 'ended' AND %(inserted)s > 0), "
                "lexemes = a.lexemes FROM (SELECT count(*) AS n, min(ts) AS first, max(ts) AS last, "
                "coalesce(sum(length(tsv)), 0) AS lexemes FROM turns WHERE user_id = %(user)s "
                "AND session_id = %(session)s) a WHERE s.user_id = %(user)s AND s.session_id = %(session)s",
                {"file": journal_file, "offset": journal_offset, "now": now, "user": first.user_id,
                 "session": first.session_id, "inserted": inserted})
            return inserted

    def pop_turn(self, user_id: str, session_id: str) -> StoredTurn | None:
        """Under the session's row lock; index entries, postings and vectors go by trigger."""
        with self.transaction() as db:
            db.execute("SELECT 1 FROM sessions WHERE user_id = %s AND session_id = %s FOR UPDATE",
                       (user_id, session_id))
            row = db.execute(f"SELECT {_TURN_COLUMNS} FROM turns t WHERE t.user_id = %s AND t.session_id = %s "
                             "ORDER BY t.seq DESC, t.id DESC LIMIT 1", (user_id, session_id)).fetchone()
            if row is None:
                return None
            turn = _turn(row)
            db.execute("DELETE FROM turns WHERE id = %s", (turn.id,))
            db.execute(
                "UPDATE sessions s SET updated_at = %(now)s, turn_count = a.n, started_at = a.first, "
                "last_turn_at = a.last, lexemes = a.lexemes, "
                "consolidated_turns = least(s.consolidated_turns, %(seq)s) FROM (SELECT count(*) AS n, "
                "min(ts) AS first, max(ts) AS last, coalesce(sum(length(tsv)), 0) AS lexemes FROM turns "
                "WHERE user_id = %(user)s AND session_id = %(session)s) a "
                "WHERE s.user_id = %(user)s AND s.session_id = %(session)s",
                {"now": time.time(), "seq": turn.seq, "user": user_id, "session": session_id})
            return turn

    def derived_generation(self) -> tuple[int, ...]:
        counters = self._counters()
        return counters["derived_changes"], counters["turn_deletions"]

    def _meta(self, key: str) -> int:
        return self._counters()[key]

    # --- search --------------------------------------------------------------------------------------
    def search_turns(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                     since: float | None = None, until: float | None = None, source: str | None = None,
                     tags: Sequence[str] = ()) -> list[tuple[int, float]]:
        """Statistics are the user's own; filters narrow the ranked rows, not the statistics (`_bm25_df`)."""
        query = self._bm25_query(match)
        if query is None:
            return []
        lexemes, tsquery = query
        n, avgdl = self._bm25_stats("turns", user_id)
        params: dict[str, Any] = {"lexemes": lexemes, "n": n, "avgdl": avgdl, "user": user_id, "limit": limit,
                                  "session": session_id, "since": since, "until": until}
        where = [cond for cond, value in (("t.session_id = %(session)s", session_id), ("t.ts >= %(since)s", since),
                                          ("t.ts <= %(until)s", until)) if value is not None]
        tag_filter(where, params, source, tags)
        if session_id is None and source is None and not tags and _single_stems(tsquery):  # where: times only
            ranking = postings_bm25(time_filter="".join(f" AND {w.removeprefix('t.')}" for w in where))
        else:
            if where:
                params["df"] = self._bm25_df(user_id, lexemes, tsquery)
            ranking = bm25_sql(f"SELECT t.id AS key, t.tsv FROM turns t WHERE t.user_id = %(user)s AND t.tsv @@ {tsquery}"
                               + "".join(f" AND {w}" for w in where), given_df=bool(where))
        sql = f"WITH {ranking} SELECT s.key, s.score FROM scored s ORDER BY s.score DESC, s.key LIMIT %(limit)s"
        return [(int(i), float(score)) for i, score in self._query(sql, params)]

    def _bm25_df(self, user_id: str, lexemes: list[str], tsquery: str) -> list[float]:
        """For each stem, how many of the user's turns match `tsquery` and hold it (what `bm25_sql` counts over
        unfiltered candidates), kept as `_bm25_cached` keeps it."""
        def count() -> tuple[float, ...]:
            counts = {lexeme: 0.0 for lexeme in lexemes}
            if lexemes and _single_stems(tsquery):  # a turn matches when it holds any of the stems: its postings
                for lexeme, n in self._query("SELECT lexeme, count(*) FROM turn_terms WHERE user_id = %(user)s "
                                             "AND lexeme = ANY(%(lexemes)s::text[]) GROUP BY lexeme",
                                             {"user": user_id, "lexemes": lexemes}):
                    counts[lexeme] = float(n)
            elif lexemes:
                parts = [f"SELECT {i}, count(*) FROM turns WHERE user_id = %(user)s AND tsv @@ {tsquery} AND tsv @@ "
                         + sql.Literal("'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'").as_string(None)
                         + "::tsquery" for i, lexeme in enumerate(lexemes)]
                for i, n in self._query(" UNION ALL ".join(parts), {"user": user_id}):
                    counts[lexemes[int(i)]] = float(n)
            return tuple(counts[lexeme] for lexeme in lexemes)

        return list(self._bm25_cached(("df", user_id, tsquery), count))

    def _bm25_cached(self, key: tuple[str, ...], compute: Callable[[], tuple[float, ...]]) -> tuple[float, ...]:
        """`compute()`, kept until this process writes or for `Config.store.pg_bm25_stats_ttl_s` (another's writes)."""
        now, writes = time.monotonic(), self.writes
        with self._lock:
            known = self._bm25_user_stats.get(key)
        if known is not None and known[1] == writes and now - known[0] < self.config.store.pg_bm25_stats_ttl_s:
            return known[2]
        found = compute()
        with self._lock:
            if len(self._bm25_user_stats) >= 10_000:
                self._bm25_user_stats.clear()
            self._bm25_user_stats[key] = (now, writes, found)
        return found

    def exact_turns(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                    since: float | None = None, until: float | None = None) -> list[int]:
        query, params = exact_tsquery(match)
        params.update(user=user_id, limit=limit, session=session_id, since=since, until=until)
        where = [cond for cond, value in (("session_id = %(session)s", session_id), ("ts >= %(since)s", since),
                                          ("ts <= %(until)s", until)) if value is not None]
        return [int(i) for i, in self._query(
            f"SELECT id FROM turns WHERE user_id = %(user)s AND tsv @@ ({query})"
            + "".join(f" AND {w}" for w in where) + " LIMIT %(limit)s", params)]

    def exact_memories(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None
                       ) -> list[tuple[str, int]]:
        query, params = exact_tsquery(match)
        params.update(user=user_id, limit=limit, kinds=list(kinds or []))
        kind_filter = " AND kind = ANY(%(kinds)s)" if kinds else ""
        return [(kind, int(i)) for kind, i in self._query(
            f"SELECT kind, item_id FROM memory_fts WHERE user_id = %(user)s AND tsv @@ ({query}){kind_filter} "
            "LIMIT %(limit)s", params)]

    def search_memories(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None
                        ) -> list[tuple[str, int, float]]:
        return self._search_memory_fts(match, user_id, limit=limit, kinds=kinds)

    def _search_memory_fts(self, match: str, user_id: str, *, limit: int, kinds: Sequence[str] | None = None,
                           extra: str = "", extra_params: dict[str, Any] | None = None
                           ) -> list[tuple[str, int, float]]:
        query = self._bm25_query(match)
        if query is None:
            return []
        lexemes, tsquery = query
        n, avgdl = self._bm25_stats("memory_fts", user_id)
        kind_filter = " AND kind = ANY(%(kinds)s)" if kinds else ""
        sql = (
            "WITH "
            + bm25_sql(f"SELECT rowid AS key, tsv FROM memory_fts WHERE user_id = %(user)s AND tsv @@ {tsquery}")
            + " SELECT m.kind, m.item_id, s.score FROM scored s JOIN memory_fts m ON m.rowid = s.key "
            f"WHERE true{kind_filter}{extra} ORDER BY s.score DESC, s.key LIMIT %(limit)s")
        params: dict[str, Any] = {"lexemes": lexemes, "n": n, "avgdl": avgdl, "user": user_id, "limit": limit,
                                  "kinds": list(kinds or []), **(extra_params or {})}
        return [(kind, int(item_id), float(score)) for kind, item_id, score in self._query(sql, params)]

    def _bm25_query(self, match: str) -> tuple[list[str], str] | None:
        """The stems of `match` (any of them counts) and the tsquery a row must satisfy — each quoted phrase a
        phrase, a trailing `*` a prefix, as in FTS5 — as an SQL constant; None when it has no word. Memoised."""
        with self._lock:
            known = self._bm25_queries.get(match)
        if known is not None:
            return known
        words = tsquery_words(match)
        if not words:
            return None
        phrases, params = exact_tsquery(match)
        lexemes, text = self._query(f"SELECT tsvector_to_array(to_tsvector('episodic', %(words)s)), ({phrases})::text",
                                    {"words": words, **params})[0]
        found = (list(lexemes), sql.Literal(text).as_string(None) + "::tsquery")
        with self._lock:
            if len(self._bm25_queries) >= 4096:
                self._bm25_queries.clear()
            self._bm25_queries[match] = found
        return found

    def _bm25_stats(self, table: str, user_id: str) -> tuple[float, float]:
        """(documents, average length in stems) of a user's rows in `table`, kept `Config.store.pg_bm25_stats_ttl_s`."""
        def read() -> tuple[float, ...]:
            if table == "turns":
                row = self._query("SELECT coalesce(sum(turn_count), 0), coalesce(sum(lexemes)::float8 / "
                                  "nullif(sum(turn_count), 0), 1) FROM sessions WHERE user_id = %s", (user_id,))[0]
            else:
                row = self._query("SELECT count(*), coalesce(avg(length(tsv)), 1) FROM memory_fts "
                                  "WHERE user_id = %s", (user_id,))[0]
            return float(row[0]), float(row[1])

        n, avgdl = self._bm25_cached((table, user_id), read)
        return n, avgdl

    def common_terms(self, terms: Sequence[str], *, floor: int, share: float, user_id: str | None = None
                     ) -> set[str]:
        """Of `user_id`'s turns (BM25 here scores only theirs), else of the store; the terms not seen yet are
        counted in one statement, each stopping at the cap. Verdicts are kept until the store grows by a tenth
        or loses a turn."""
        counters = self._counters()
        size, generation = counters["turns"], counters["turn_deletions"]
        turns = self._bm25_stats("turns", user_id)[0] if user_id is not None else size
        cap = max(floor, int(share * turns))
        if turns <= cap:
            return set()
        with self._lock:
            if generation != self._common_generation or size > self._common_size * 1.1 or len(self._common) > 100_000:
                self._common.clear()
                self._common_generation, self._common_size = generation, size
            unknown = sorted({t for t in terms if (user_id, cap, t) not in self._common})
        if unknown:
            # a user's term of one stem: its postings, read from the index up to the cap; else the matching turns
            counted = self._query(
                "SELECT term, CASE WHEN %(user)s::text IS NOT NULL AND cardinality(stems) = 1 THEN "
                "(SELECT count(*) FROM (SELECT 1 FROM turn_terms WHERE user_id = %(user)s AND lexeme = stems[1] "
                "LIMIT %(cap)s) x) ELSE "
                "(SELECT count(*) FROM (SELECT 1 FROM turns WHERE (%(user)s::text IS NULL OR user_id = "
                "%(user)s) AND tsv @@ plainto_tsquery('episodic', term) LIMIT %(cap)s) x) END "
                "FROM (SELECT term, tsvector_to_array(to_tsvector('episodic', term)) AS stems "
                "FROM unnest(%(terms)s::text[]) AS term) q", {"user": user_id, "cap": cap + 1, "terms": unknown})
            with self._lock:
                self._common.update({(user_id, cap, term): int(n) > cap for term, n in counted})
        with self._lock:
            return {t for t in terms if self._common.get((user_id, cap, t))}

    # --- vectors -------------------------------------------------------------------------------------
    def max_turn_id(self) -> int:
        return self._counters()["turns"]

    def add_vectors(self, model: str, rows: Sequence[tuple[str, int, str, str | None, float | None, bytes]]) -> int:
        if not rows:
            return 0
        with self.transaction("vectors") as db, db.cursor() as cur:
            cur.executemany(
                "INSERT INTO vectors (kind, item_id, user_id, session_id, ts, model, vec) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                [(k, i, u, s, ts, model, self._vector(v)) for k, i, u, s, ts, v in rows], returning=False)
            return max(cur.rowcount, 0)

    def load_vectors(self, user_id: str, model: str, after_id: int = 0, upto_id: int | None = None,
                     limit: int = -1) -> list[tuple[int, str, int, str, float, bytes]]:
        rows = self._query(
            "SELECT id, kind, item_id, session_id, ts, vec FROM vectors WHERE user_id = %s AND model = %s "
            "AND id > %s AND id <= %s ORDER BY id LIMIT %s",
            (user_id, model, after_id, upto_id if upto_id is not None else 2**63 - 1, None if limit < 0 else limit),
            binary=True)
        return [(int(i), k, int(item), s, ts, vector_bytes(v)) for i, k, item, s, ts, v in rows]

    def item_vectors(self, user_id: str, model: str, kind: str, item_ids: Sequence[int]) -> dict[int, bytes]:
        if not item_ids:
            return {}
        rows = self._query("SELECT item_id, vec FROM vectors WHERE kind = %s AND item_id = ANY(%s) AND model = %s "
                           "AND user_id = %s", (kind, list(item_ids), model, user_id), binary=True)
        return {int(i): vector_bytes(v) for i, v in rows}

    def vector_ids(self, user_id: str, model: str, upto_id: int) -> np.ndarray:
        rows = self._query("SELECT id FROM vectors WHERE user_id = %s AND model = %s AND id <= %s ORDER BY id",
                           (user_id, model, upto_id))
        return np.fromiter((r[0] for r in rows), np.int64, len(rows))

    def sidecar_dir(self) -> Path | None:
        """None: the dense index keeps no cache of a server's vectors."""
        return None

    def search_turns_filtered(self, match: str, user_id: str, *, limit: int, session_id: str | None = None,
                              since: float | None = None, until: float | None = None, source: str | None = None,
                              tags: Sequence[str] = ()) -> list[tuple[int, float]]:
        """`search_turns` (which ranks and filters in one statement here already)."""
        return self.search_turns(match, user_id, limit=limit, session_id=session_id, since=since, until=until,
                                 source=source, tags=tags)

