"""The PostgreSQL store itself: the Store protocol, migrations under an advisory lock (two processes at once),
refusal of a newer schema, forgetting across every concern, per-user isolation, idempotent turn ids across
processes, durability of an acknowledged turn through kill -9, BM25 ranking, vectors through pgvector."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

psycopg = pytest.importorskip("psycopg", reason="the postgres extra is not installed")

from episodic_memory import Config, Memory  # noqa: E402
from episodic_memory.store import open_store  # noqa: E402
from episodic_memory.store.base import Store  # noqa: E402
from episodic_memory.store.postgres.cluster import LocalCluster  # noqa: E402
from episodic_memory.store.postgres.migrations import MIGRATIONS, SCHEMA_VERSION  # noqa: E402
from episodic_memory.store.postgres.store import PostgresStore  # noqa: E402
from episodic_memory.store.records import TurnRecord  # noqa: E402
from episodic_memory.store.schema import StoreVersionError  # noqa: E402
from episodic_memory.store.sqlite import SQLiteStore  # noqa: E402
from episodic_memory.store.sqlite.migrations import MIGRATIONS as SQLITE_MIGRATIONS  # noqa: E402

from ..test_store import _fill, _protocol_members, _shape, _takes_a_store  # noqa: E402

SRC = str(Path(__file__).resolve().parents[2] / "src")
OFF = Config(models={"embedder": "off"})


@pytest.fixture
def store(pg_url: str):
    s = PostgresStore(pg_url, OFF)
    yield s
    s.close()


def _child(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _rows(store: PostgresStore, user_id: str) -> dict[str, int]:
    tables = ("sessions", "turns", "facts", "episodes", "workstreams", "loops", "judgments", "api_tokens")
    return {t: int(store._query(f"SELECT count(*) FROM {t} WHERE user_id = %s", (user_id,))[0][0]) for t in tables}


def _turn(uid: str, content: str, user: str = "u", session: str = "s", turn_id: str | None = None) -> TurnRecord:
    return TurnRecord(uid=uid, user_id=user, session_id=session, seq=0, role="user", content=content, ts=time.time(),
                      ingested_at=time.time(), turn_id=turn_id)


# --- the interface and the schema ------------------------------------------------------------------------------

def test_postgres_store_implements_every_operation_of_the_store_protocol(store: PostgresStore) -> None:
    members = _protocol_members(Store)
    assert _takes_a_store(store) is store
    assert isinstance(store, Store)
    for name, member in members.items():
        assert hasattr(store, name), name
        if not isinstance(member, property):
            assert _shape(getattr(PostgresStore, name)) == _shape(member), name


def test_open_store_and_memory_reach_postgres_by_url(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    opened = open_store(pg_url, OFF)
    try:
        assert isinstance(opened, PostgresStore) and opened.schema_version == SCHEMA_VERSION
    finally:
        opened.close()
    monkeypatch.setenv("EPISODIC_DB", pg_url)
    with Memory(config=OFF) as mem:
        assert isinstance(mem.store, PostgresStore)
        mem.add_turn("user", "the deck needs 14 slides", session_id="s1")
        assert mem.stats()["journal"] is None and mem.stats()["db"] == pg_url
        assert [h.text for h in mem.recall("slides")] == ["the deck needs 14 slides"]


def test_migrations_are_numbered_like_sqlites_and_recorded(store: PostgresStore) -> None:
    assert [m.__name__ for m in MIGRATIONS] == [m.__name__ for m in SQLITE_MIGRATIONS]
    rows = store._query("SELECT version, name FROM _migrations ORDER BY version")
    assert rows == [(i + 1, m.__name__) for i, m in enumerate(MIGRATIONS)]
    assert store._query("SHOW synchronous_commit") == [("on",)]
    assert store._query("SELECT extname FROM pg_extension WHERE extname = 'vector'") == [("vector",)]


def _empty_database(cluster: LocalCluster, name: str) -> str:
    with psycopg.connect(cluster.url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {name}")
    return cluster.url(name)


def test_an_older_database_is_migrated_on_open(pg_cluster: LocalCluster) -> None:
    url = _empty_database(pg_cluster, "older")
    with psycopg.connect(url, autocommit=True) as db:  # a database at version 3, with something of its own
        db.execute("CREATE TABLE unrelated (x int)")
        with db.transaction():
            db.execute("CREATE TABLE _migrations (version integer PRIMARY KEY, name text NOT NULL, "
                       "applied_at double precision NOT NULL)")
            for version, migration in enumerate(MIGRATIONS[:3], 1):
                migration(db)
                db.execute("INSERT INTO _migrations VALUES (%s, %s, 0)", (version, migration.__name__))
    with Memory(url, config=OFF) as mem:
        mem.add_turn("user", "hello migrated world", session_id="s")
        assert mem.stats()["turns"] == 1 and mem.stats()["schema_version"] == SCHEMA_VERSION
        tables = {r[0] for r in mem.store._query(  # type: ignore[attr-defined]
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert {"turns", "episodes", "judgments", "unrelated"} <= tables


def test_a_newer_database_is_refused_with_a_clear_message(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("INSERT INTO _migrations VALUES (%s, 'm999_from_the_future', 0)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreVersionError, match="newer version"):
        PostgresStore(pg_url, OFF)


def test_two_processes_migrating_at_once_do_not_race(pg_cluster: LocalCluster) -> None:
    """Both start on an empty database at the same moment: the advisory lock lets one migrate while the other
    waits, so neither fails on a table the other just made and every migration is recorded once."""
    url = _empty_database(pg_cluster, "race")
    go = time.time() + 2.0
    code = f"""
        import time
        from episodic_memory.config import Config
        from episodic_memory.store.postgres.store import PostgresStore
        time.sleep(max(0.0, {go!r} - time.time()))
        PostgresStore({url!r}, Config(embedder="off")).close()
    """
    children = [subprocess.Popen(_child(code), env=_env(), stderr=subprocess.PIPE, text=True) for _ in range(3)]
    errors = [c.communicate(timeout=120)[1] for c in children]
    assert [c.returncode for c in children] == [0, 0, 0], errors
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT version FROM _migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))


# --- users, forgetting, ids ------------------------------------------------------------------------------------

def test_forget_reaches_every_concern_in_one_transaction(store: PostgresStore) -> None:
    for user_id, session_id in (("alice", "s1"), ("alice", "s2"), ("bob", "s1")):
        _fill(store, user_id, session_id)  # type: ignore[arg-type]
    every = {"sessions": 2, "turns": 2, "facts": 2, "episodes": 2, "workstreams": 2, "loops": 2, "judgments": 2,
             "api_tokens": 2}
    assert _rows(store, "alice") == every
    assert store._query("SELECT count(*) FROM memory_fts WHERE user_id = 'alice'") == [(8,)]

    result = store.forget(user_id="alice", session_id="s1")
    assert result["journal_files"] == ["alice/s1.jsonl"]
    assert {k: result[k] for k in ("facts", "episodes", "workstreams", "loops", "turns", "sessions")} == {
        "facts": 1, "episodes": 1, "workstreams": 1, "loops": 1, "turns": 1, "sessions": 1}
    assert _rows(store, "alice") == {**{k: 1 for k in every}, "judgments": 2, "api_tokens": 2}
    assert [f.session_id for f in store.facts("alice")] == ["s2"]
    assert store.search_memories('"deck"', "alice", limit=10) != []

    result = store.forget(user_id="alice")
    assert result["judgments"] == 2 and result["tokens"] == 2 and result["facts"] == 1
    assert _rows(store, "alice") == {k: 0 for k in every}
    assert store._query("SELECT count(*) FROM memory_fts WHERE user_id = 'alice'") == [(0,)]
    assert _rows(store, "bob") == {k: 1 for k in every}

    store.forget()
    assert _rows(store, "bob") == {k: 0 for k in every}
    store.scrub()  # VACUUM of the text tables runs (outside a transaction)


def test_every_search_and_read_is_scoped_to_its_user(store: PostgresStore) -> None:
    store.insert_turns([_turn("a1", "the blue kayak leaks", user="alice")], "alice/s.jsonl", 0)
    store.insert_turns([_turn("b1", "the red kayak floats", user="bob")], "bob/s.jsonl", 0)
    (a,) = store.session_turns("alice", "s")
    (b,) = store.session_turns("bob", "s")
    assert [i for i, _ in store.search_turns('"kayak"', "alice", limit=10)] == [a.id]
    assert [i for i, _ in store.search_turns('"kayak"', "bob", limit=10)] == [b.id]
    assert store.search_turns('"kayak"', "carol", limit=10) == []
    assert set(store.turns_by_id("alice", [a.id, b.id])) == {a.id}
    assert store.source_ids("bob", [a.id, b.id]) == {b.id: str(b.id)}
    assert list(store.turn_heads("alice", [a.id, b.id]).ids) == [a.id]


def test_the_same_turn_id_from_two_processes_is_stored_once(pg_url: str) -> None:
    """Idempotent `turn_id` across processes: a unique constraint decides, not a check-then-insert."""
    go = time.time() + 2.0
    code = f"""
        import time
        from episodic_memory import Config, Memory
        mem = Memory({pg_url!r}, config=Config(embedder="off", consolidate_on_open=False))
        time.sleep(max(0.0, {go!r} - time.time()))
        for i in range(40):
            mem.add_turn("user", f"turn {{i}}", session_id="s", turn_id=f"t{{i}}")
        mem.close()
    """
    children = [subprocess.Popen(_child(code), env=_env(), stderr=subprocess.PIPE, text=True) for _ in range(3)]
    errors = [c.communicate(timeout=120)[1] for c in children]
    assert [c.returncode for c in children] == [0, 0, 0], errors
    store = PostgresStore(pg_url, OFF)
    try:
        turns = store.session_turns("default", "s")
        assert sorted(t.turn_id or "" for t in turns) == sorted(f"t{i}" for i in range(40))
        assert [t.seq for t in turns] == list(range(40))  # no gap and no duplicate in the session's order
        assert store.session("default", "s").turn_count == 40  # type: ignore[union-attr]
    finally:
        store.close()


def test_an_acknowledged_turn_survives_kill_9_of_its_writer(pg_url: str) -> None:
    """The writer prints each turn id once `add_turn` has returned, then is killed mid-stream: every id it
    printed is in the database (the commit happened before the acknowledgement)."""
    code = f"""
        import sys
        from episodic_memory import Config, Memory
        mem = Memory({pg_url!r}, config=Config(embedder="off", consolidate_on_open=False, consolidate_every=10**6))
        i = 0
        while True:
            mem.add_turn("user", f"durable turn {{i}}", session_id="s", turn_id=f"k{{i}}")
            print(f"k{{i}}", flush=True)
            i += 1
    """
    child = subprocess.Popen(_child(code), env=_env(), stdout=subprocess.PIPE, text=True)
    acknowledged: list[str] = []
    assert child.stdout is not None
    while len(acknowledged) < 25:
        line = child.stdout.readline()
        assert line, "the writer died before it wrote anything"
        acknowledged.append(line.strip())
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    acknowledged += [line.strip() for line in child.stdout.read().splitlines() if line.strip()]
    store = PostgresStore(pg_url, OFF)
    try:
        stored = store.known_turn_ids("default", "s")
        assert set(acknowledged) <= stored
    finally:
        store.close()


# --- search and vectors ----------------------------------------------------------------------------------------

def test_bm25_ranks_rare_words_and_repetition_above_common_ones(store: PostgresStore) -> None:
    texts = ["the kayak trip", "the kayak kayak kayak trip", "a walrus on the kayak", "plain kayak",
             "nothing to see here"]
    store.insert_turns([_turn(f"u{i}", t) for i, t in enumerate(texts)], "u/s.jsonl", 0)
    ids = {t.content: t.id for t in store.session_turns("u", "s")}
    ranked = store.search_turns('"walrus" OR "kayak"', "u", limit=10)
    assert ranked[0][0] == ids["a walrus on the kayak"]  # the rare word outweighs any number of common ones
    assert ids["nothing to see here"] not in {i for i, _ in ranked}
    kayak = [i for i, _ in store.search_turns('"kayak"', "u", limit=10)]
    assert kayak.index(ids["the kayak kayak kayak trip"]) < kayak.index(ids["the kayak trip"])
    assert store.search_turns('"kayaks"', "u", limit=10) != []  # stemmed, like FTS5's porter tokenizer
    assert store.search_turns('"OR" OR "NEAR"', "u", limit=10) == []  # quoted operators are words
    scores = [s for _, s in ranked]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)



def _postings(store: PostgresStore, user_id: str | None = None) -> set[tuple[str, str, int, float, int, float]]:
    return {(u, lexeme, int(t), float(tf), int(dl), float(ts)) for u, lexeme, t, tf, dl, ts in store._query(
        "SELECT user_id, lexeme, turn_id, tf, dl, ts FROM turn_terms WHERE %(u)s::text IS NULL OR user_id = %(u)s",
        {"u": user_id})}


def _postings_of_the_turns(store: PostgresStore, user_id: str | None = None
                           ) -> set[tuple[str, str, int, float, int, float]]:
    """What the postings must be: every stem of every turn's `tsvector`, weighed as FTS5 weighs its columns."""
    out = set()
    for u, t, stem, weights, dl, ts in store._query(
            "SELECT t.user_id, t.id, x.lexeme, x.weights, length(t.tsv), t.ts FROM turns t, unnest(t.tsv) x "
            "WHERE %(u)s::text IS NULL OR t.user_id = %(u)s", {"u": user_id}):
        out.add((u, stem, int(t), sum(0.5 if w == "C" else 1.0 for w in weights), int(dl), float(ts)))
    return out


def test_bm25_from_the_postings_gives_the_scores_of_ranking_the_matching_turns(
        store: PostgresStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The postings table (m017) is how a plain search ranks; ranking the matching turns' own `tsvector`s (the path
    phrases and filters take) must give the same turns in the same order with the same scores."""
    from episodic_memory.store.postgres import turns as pg_turns

    rng = np.random.default_rng(7)
    words = "kayak walrus river deck slides budget tokyo garden piano fiddle lantern ember cobalt".split()
    for user in ("u", "w"):
        turns = []
        for i in range(240):
            text = " ".join(rng.choice(words, size=int(rng.integers(1, 9))))
            turns.append(TurnRecord(uid=f"{user}{i}", user_id=user, session_id=f"s{i % 7}", seq=i // 7, role="user",
                                    speaker=str(rng.choice(["Kayak Kim", "Ann", None])), content=text,  # type: ignore[arg-type]
                                    ts=1000.0 + i, ingested_at=1000.0 + i))
        for session in {t.session_id for t in turns}:
            store.insert_turns([t for t in turns if t.session_id == session], f"{user}/{session}.jsonl", 0)
    queries = ['"kayak"', '"walrus" OR "kayak"', '"tokyo" OR "piano" OR "ember" OR "nothing"', '"kim"',
               '"slides" OR "budget" OR "garden" OR "lantern" OR "cobalt" OR "river"', '"absent"']
    windows = [{}, {"since": 1100.0}, {"until": 1050.5}, {"since": 1010.0, "until": 1200.0}]
    by_postings = {(q, u, i): store.search_turns(q, u, limit=500, **w)
                   for q in queries for u in ("u", "w") for i, w in enumerate(windows)}
    monkeypatch.setattr(pg_turns, "_single_stems", lambda tsquery: False)
    for (q, u, i), found in by_postings.items():
        ranked = store.search_turns(q, u, limit=500, **windows[i])
        assert [i for i, _ in found] == [i for i, _ in ranked], q
        assert [s for _, s in found] == pytest.approx([s for _, s in ranked], rel=1e-12, abs=0), q
    assert len(by_postings[('"walrus" OR "kayak"', "u", 0)]) > 50
    assert 0 < len(by_postings[('"walrus" OR "kayak"', "u", 1)]) < len(by_postings[('"walrus" OR "kayak"', "u", 0)])


def test_the_postings_follow_every_insert_and_deletion(pg_cluster: LocalCluster) -> None:
    """The postings are kept by triggers on `turns`: a turn's stems arrive with it and leave with it, whether the
    turn's session or its user is forgotten; a database from before m017 gets the postings of the turns it holds."""
    url = _empty_database(pg_cluster, "postings")
    store = PostgresStore(url, OFF)
    try:
        store.insert_turns([_turn("a1", "the blue kayak leaks", user="alice", session="s1"),
                            _turn("a2", "Kim paddles the kayak", user="alice", session="s1")], "a/s1.jsonl", 0)
        store.insert_turns([_turn("a3", "a walrus naps", user="alice", session="s2")], "a/s2.jsonl", 0)
        store.insert_turns([_turn("b1", "the red kayak floats", user="bob", session="s1")], "b/s1.jsonl", 0)
        spoken = TurnRecord(uid="b2", user_id="bob", session_id="s2", seq=0, role="user", speaker="Kayak Kim",
                            content="kayak kayak", ts=time.time(), ingested_at=time.time())
        store.insert_turns([spoken], "b/s2.jsonl", 0)
        assert _postings(store) == _postings_of_the_turns(store) and len(_postings(store)) > 10
        (b2,) = store.session_turns("bob", "s2")
        assert {p[1:5] for p in _postings(store, "bob") if p[2] == b2.id} == {("kayak", b2.id, 2.5, 2),
                                                                             ("kim", b2.id, 0.5, 2)}
        kim = [t for t in store.session_turns("alice", "s1") if t.content.startswith("Kim")][0]
        assert ("alice", "kayak", kim.id, 1.0, 4, kim.ts) in _postings(store)
    finally:
        store.close()

    with psycopg.connect(url, autocommit=True) as db:  # as if written before m017: turns, no postings
        db.execute("DROP TABLE turn_terms; DROP FUNCTION episodic_turn_postings() CASCADE; "
                   "DROP FUNCTION episodic_term_weight(text[]); "
                   "ALTER TABLE sessions DROP COLUMN consolidation_failures, DROP COLUMN retry_at; "
                   "DROP TABLE llm_backoff; "  # m019
                   "ALTER TABLE turns DROP COLUMN metadata; "  # m020 (m021 only rewrites: it runs again as is)
                   "ALTER TABLE api_tokens DROP COLUMN read_agents, DROP COLUMN write_agents; "  # m022
                   "DROP INDEX facts_by_supersedes; DROP INDEX facts_by_superseded_by; "  # m023
                   "DELETE FROM _migrations WHERE version >= "
                   "(SELECT version FROM _migrations WHERE name = 'm017_turn_postings')")  # m017 and every later one
    store = PostgresStore(url, OFF)  # migrates: the postings of the turns already there
    try:
        assert _postings(store) == _postings_of_the_turns(store) and len(_postings(store)) > 10
        store.insert_turns([_turn("a4", "Kayak kayak kayak", user="alice", session="s2")], "a/s2.jsonl", 0)
        assert _postings(store) == _postings_of_the_turns(store)

        store.forget(user_id="alice", session_id="s1")
        assert {p[2] for p in _postings(store, "alice")} == {t.id for t in store.session_turns("alice", "s2")}
        assert _postings(store) == _postings_of_the_turns(store)
        store.forget(user_id="alice")
        assert _postings(store, "alice") == set() and _postings(store, "bob") == _postings_of_the_turns(store, "bob")
        assert store.search_turns('"walrus" OR "kayak"', "alice", limit=10) == []
        store.forget()
        assert _postings(store) == set()
    finally:
        store.close()

def test_search_filters_narrow_the_ranked_turns(store: PostgresStore) -> None:
    store.insert_turns([_turn("x1", "kayak in the morning", session="a")], "u/a.jsonl", 0)
    store.insert_turns([_turn("x2", "kayak at night", session="b")], "u/b.jsonl", 0)
    (b,) = store.session_turns("u", "b")
    assert [i for i, _ in store.search_turns('"kayak"', "u", limit=10, session_id="b")] == [b.id]
    assert store.search_turns('"kayak"', "u", limit=10, until=0.0) == []


def test_common_terms_are_counted_with_a_cap(store: PostgresStore) -> None:
    store.insert_turns([_turn(f"c{i}", f"the kayak number {i}" + (" walrus" if i == 0 else ""))
                        for i in range(20)], "u/s.jsonl", 0)
    assert store.common_terms(["kayak", "walrus"], floor=5, share=0.5) == {"kayak"}
    # counted in the asking user's turns: BM25 here reads only theirs
    store.insert_turns([_turn(f"v{i}", f"a kayak for v {i}", user="v") for i in range(3)], "v/s.jsonl", 0)
    assert store.common_terms(["kayak"], floor=5, share=0.0, user_id="u") == {"kayak"}
    assert store.common_terms(["kayak"], floor=2, share=0.0, user_id="v") == {"kayak"}
    assert store.common_terms(["kayak"], floor=5, share=0.0, user_id="v") == set()   # 3 turns: nothing is common
    # a user's term is counted from its stem's postings ("kayaks"); two stems ("number_kayak": both, in every turn)
    # or none ("-") from the turns
    assert store.common_terms(["kayaks", "walrus", "number_kayak", "-"], floor=5, share=0.0, user_id="u") == {
        "kayaks", "number_kayak"}


def test_a_read_snapshot_reads_the_counters_once(store: PostgresStore) -> None:
    import contextvars
    import threading

    store.insert_turns([_turn("r1", "first")], "u/s.jsonl", 0)
    before = store.max_turn_id()
    asked: list[str] = []
    query = store._query

    def counting(sql: str, *args: object, **kwargs: object) -> object:
        asked.append(sql)
        return query(sql, *args, **kwargs)

    store._query = counting  # type: ignore[method-assign]
    try:
        with store.read_snapshot():
            assert store.max_turn_id() == before
            generation = store.derived_generation()
            store.insert_turns([_turn("r2", "second")], "u/s.jsonl", 0)   # written inside: the scope's view stays
            assert store.max_turn_id() == before
            seen: list[int] = []
            ctx = contextvars.copy_context()
            worker = threading.Thread(target=ctx.run, args=(lambda: seen.append(store.max_turn_id()),))
            worker.start()
            worker.join()
            assert seen == [before]                                        # a thread given the context shares it
        counter_reads = [q for q in asked if "store_meta" in q]
        assert len(counter_reads) == 1
        assert store.max_turn_id() > before                                # after the scope: read afresh
        assert store.derived_generation() == generation
    finally:
        del store._query


def test_vectors_round_trip_through_pgvector(store: PostgresStore) -> None:
    store.insert_turns([_turn("v1", "a turn to embed")], "u/s.jsonl", 0)
    (t,) = store.session_turns("u", "s")
    vec = np.arange(8, dtype=np.float32) / 10
    assert store.add_vectors("m", [("turn", t.id, "u", "s", t.ts, vec.tobytes())]) == 1
    assert store.add_vectors("m", [("turn", t.id, "u", "s", t.ts, vec.tobytes())]) == 0  # kept, not replaced
    (row,) = store.load_vectors("u", "m")
    assert row[1:4] == ("turn", t.id, "s") and np.array_equal(np.frombuffer(row[5], np.float32), vec)
    assert store._query("SELECT pg_typeof(vec)::text FROM vectors") == [("vector",)]
    assert store.item_vectors("u", "m", "turn", [t.id]) == {t.id: vec.tobytes()}
    assert store.vector_watermark("u", "m")[0] == row[0] and store.count_missing_vectors("m") == 0
    before = store.vector_watermark("u", "m")[1]
    assert store.delete_vectors_not_of("m") == 0 and store.vector_watermark("u", "m")[1] == before  # none deleted
    store.forget(user_id="u", session_id="s")
    assert store.load_vectors("u", "m") == [] and store.vector_watermark("u", "m")[1] > before


def test_journal_offsets_idle_sessions_and_judgment_vectors(store: PostgresStore) -> None:
    """The verbs a PostgreSQL-backed Memory never calls itself (it keeps no journal), kept to the protocol."""
    store.insert_turns([_turn("j1", "an idle session")], "u/s.jsonl", 10)
    store.advance_journal_offset("u", "s", "u/s.jsonl", 25)
    store.advance_journal_offset("u", "s", "u/s.jsonl", 5)  # never moves back
    assert store.journal_offsets() == {"u/s.jsonl": 25} and store.journal_state("u", "s") == ("u/s.jsonl", 25, 1)
    assert store.mark_idle_sessions(time.time() - 3600) == 0  # active within the hour
    assert store.mark_idle_sessions(time.time() + 1) == 1 and store.sessions_needing_consolidation() == [("u", "s")]
    row, created = store.insert_judgment_or_merge(
        user_id="u", memory_id="mem-1", trigger="a deck", judgment="keep it short", reasoning="", domain=None,
        metadata={}, dedup_key="k", merge_metadata=lambda old, new: "{}")
    assert created and store.judgments_missing_vectors("m", 0, 10) == [row]
    vec = np.ones(4, np.float32)
    assert store.add_judgment_vectors("m", [(row, vec.tobytes())]) == 1
    assert store.judgments_missing_vectors("m", 0, 10) == []
    (loaded,) = store.load_vectors("u", "m")
    assert loaded[1:3] == ("judgment", row.id) and np.array_equal(np.frombuffer(loaded[5], np.float32), vec)


# --- main's verbs: leases, export / import / backup, read-only -----------------------------------------------------

def test_a_consolidation_lease_is_held_renewed_taken_over_when_lapsed_and_released(store: PostgresStore) -> None:
    store.insert_turns([_turn("a", "hello")], "j", 0)
    assert store.claim_consolidation("u", "s", "p1", until=100.0, now=10.0) is None
    assert store.claim_consolidation("u", "s", "p2", until=100.0, now=20.0) == "p1"  # held
    assert store.claim_consolidation("u", "s", "p1", until=200.0, now=30.0) is None  # renewed
    assert store.claim_consolidation("u", "s", "p2", until=300.0, now=250.0) is None  # lapsed: taken over
    assert store.claim_consolidation("u", "s", "p3", until=300.0, now=260.0, replacing="p2") is None
    store.release_consolidation("u", "s", "p2")  # not the owner: nothing happens
    assert store.claim_consolidation("u", "s", "p1", until=400.0, now=270.0) == "p3"
    store.release_consolidation("u", "s", "p3")
    assert store.claim_consolidation("u", "s", "p1", until=400.0, now=270.0) is None
    assert store.claim_consolidation("u", "nope", "p1", until=400.0, now=270.0) is None


def test_export_import_round_trip_between_postgres_databases(pg_cluster: LocalCluster, tmp_path: Path) -> None:
    from ..test_portable import QUERIES, _hits, _judgments, _portable_state, _sample

    source_url, copy_url = _empty_database(pg_cluster, "export_src"), _empty_database(pg_cluster, "export_dst")
    with Memory(source_url, config=OFF) as source, Memory(copy_url, config=OFF) as copy:
        _sample(source)
        _judgments(source)
        source.pin_fact(source.facts()[0].id)
        counts = source.export(tmp_path / "x.jsonl")
        added = copy.import_(tmp_path / "x.jsonl")
        assert added["turn"] == counts["turn"] and added["fact"] == counts["fact"]
        assert _portable_state(copy) == _portable_state(source)
        assert _hits(copy, QUERIES) == _hits(source, QUERIES)
        assert sum(copy.import_(tmp_path / "x.jsonl").values()) == 0  # what is here already is kept
        source.store.backup(str(tmp_path / "bk.db"))
    backup = SQLiteStore(tmp_path / "bk.db", OFF)  # not through Memory: --store-backend=postgres redirects that
    try:
        assert backup.counts("default")["turns"] == counts["turn"]
        assert len(backup.pinned_facts("default")) == 1
    finally:
        backup.close()


def test_a_read_only_store_refuses_writes(pg_url: str) -> None:
    with Memory(pg_url, config=OFF) as mem:
        mem.add_turn("user", "the deck needs 14 slides", session_id="s1")
    with Memory(pg_url, config=Config(models={"embedder": "off"}, store={"read_only": True})) as mem:
        assert [h.text for h in mem.recall("slides")] == ["the deck needs 14 slides"]
        with pytest.raises(PermissionError):
            mem.add_turn("user", "more", session_id="s1")
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            mem.store.end_session("default", "s1")


def test_scrub_says_when_another_connection_holds_a_snapshot(pg_url: str) -> None:
    store = PostgresStore(pg_url, Config(models={"embedder": "off"}, store={"forget_scrub_wait_s": 0.3}))
    try:
        store.insert_turns([_turn("a", "zqxcanary")], "j", 0)
        with psycopg.connect(pg_url) as reader:  # a transaction that has read: it holds a snapshot
            reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            reader.execute("SELECT count(*) FROM turns").fetchone()
            store.forget(user_id="u")
            assert store.scrub() is False
        assert store.scrub() is True
    finally:
        store.close()


def test_a_session_with_a_gap_in_its_seqs_never_hands_a_seq_out_twice(store: PostgresStore) -> None:
    store.insert_turns([_turn("a", "one"), _turn("b", "two"), _turn("c", "three")], "j", 0)
    # seqs 0 and 2 remain and the session counts 2 turns, as an import of such a session leaves it
    store._query("DELETE FROM turns WHERE uid = 'b' RETURNING id")
    store._query("UPDATE sessions SET turn_count = 2 RETURNING turn_count")
    assert store.journal_state("u", "s")[2] == 3
    assert store.insert_turns([_turn("d", "four")], "j", 0) == 1
    assert [(t.seq, t.content) for t in store.session_turns("u", "s")] == [(0, "one"), (2, "three"), (3, "four")]
