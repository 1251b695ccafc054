"""The one-file store: pragmas, migrations, refusal of newer files, per-user scoping, the `Store` interface and
forgetting across every concern."""

from __future__ import annotations

import inspect
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from episodic_memory import Memory
from episodic_memory.config import MEMORY_PATH
from episodic_memory.store import base
from episodic_memory.store.base import Store
from episodic_memory.store.records import NewEpisode, NewFact, NewLoop, TurnRecord
from episodic_memory.store.schema import StoreVersionError
from episodic_memory.store.sqlite import SQLiteStore
from episodic_memory.store.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION

from .postgres.fixtures import sql_rows

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL


@pytest.mark.sqlite_only("SQLite pragmas; tests/postgres/test_pg_store.py checks PostgreSQL's migrations")
def test_pragmas_and_migrations_recorded(db_path: Path) -> None:
    with Memory(db_path) as mem:
        db = mem.store.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
        rows = db.execute("SELECT version, name FROM _migrations ORDER BY version").fetchall()
        assert rows == [(i + 1, m.__name__) for i, m in enumerate(MIGRATIONS)]
        assert mem.stats()["schema_version"] == SCHEMA_VERSION


@pytest.mark.sqlite_only("builds an old SQLite file; tests/postgres/test_pg_store.py migrates an old database")
def test_older_file_is_migrated_on_open(db_path: Path) -> None:
    # an "older" file: a database that has only the migration table, at version 0
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    db.execute("CREATE TABLE unrelated (x)")
    db.commit()
    db.close()
    with Memory(db_path) as mem:
        mem.add_turn("user", "hello migrated world", session_id="s")
        assert mem.stats()["turns"] == 1
        tables = {r[0] for r in mem.store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"turns", "sessions", "unrelated"} <= tables


@pytest.mark.sqlite_only("writes the SQLite file; tests/postgres/test_pg_store.py refuses a newer database")
def test_newer_file_is_refused_with_a_clear_message(db_path: Path) -> None:
    Memory(db_path).close()
    db = sqlite3.connect(db_path)
    db.execute("INSERT INTO _migrations VALUES (?, 'm999_from_the_future', 0)", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(StoreVersionError, match="newer version"):
        Memory(db_path)


def test_every_read_is_scoped_to_its_user(mem: Memory) -> None:
    mem.add_turn("user", "alice likes the blue kayak", session_id="s1", user_id="alice")
    mem.add_turn("user", "bob likes the red kayak", session_id="s1", user_id="bob")
    assert [h.text for h in mem.recall("kayak", user_id="alice")] == ["alice likes the blue kayak"]
    assert [h.text for h in mem.recall("kayak", user_id="bob")] == ["bob likes the red kayak"]
    assert mem.recall("kayak") == []  # the default user has nothing
    assert mem.stats(user_id="alice")["turns"] == 1
    assert [s.user_id for s in mem.sessions(user_id="bob")] == ["bob"]
    assert sql_rows(mem.store, "SELECT count(*) FROM turns WHERE user_id IS NULL") == [(0,)]


def test_memory_in_memory_works() -> None:
    with Memory(":memory:") as mem:
        tid = mem.add_turn("user", "in memory only", session_id="s")
        assert mem.recall("memory")[0].source_ids == [tid]
        assert mem.journal.root is None


@pytest.mark.sqlite_only("checks the SQLite file and its journal folder appear; test_open_store_and_memory_reach_postgres_by_url sets EPISODIC_DB to a URL")
def test_default_path_honours_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere" / "m.db"
    monkeypatch.setenv("EPISODIC_DB", str(target))
    with Memory() as mem:
        mem.add_turn("user", "x", session_id="s")
    assert target.exists()
    assert (tmp_path / "elsewhere" / "m.db.journal").is_dir()


@pytest.mark.sqlite_only("a shortcut of the SQLite store's FTS5 query plan (PostgreSQL ranks the user's rows only)")
def test_bm25_over_turns_skips_the_user_join_only_while_one_user_has_turns(mem: Memory) -> None:
    mem.add_turn("user", "the blue kayak leaks", session_id="s1", user_id="alice")
    mem.add_turn("user", "a kayak trip on Sunday", session_id="s1", user_id="alice")
    store = mem.store
    alone = store.search_turns('"kayak"', "alice", limit=10)
    assert store._only_user("alice") and not store._only_user("bob")
    assert [i for i, _ in alone] == [i for i, _ in store.search_turns('"kayak"', "alice", limit=10, since=0)]
    assert store.search_turns('"kayak"', "bob", limit=10) == []  # nobody else's turns, with or without a join
    mem.add_turn("user", "bob's kayak is red", session_id="s1", user_id="bob")
    assert not store._only_user("alice")
    assert [i for i, _ in store.search_turns('"kayak"', "alice", limit=10)] == [i for i, _ in alone]
    assert len(store.search_turns('"kayak"', "bob", limit=10)) == 1


def test_a_users_search_reads_only_their_matches_and_never_matches_on_the_user_id(mem: Memory) -> None:
    # ids that are words, one a phrase of another, one with a quote, one with no letter or digit
    users = {"maya": "maya", "maya smith": "maya smith", 'o"neil': 'o"neil', "---": "---"}
    for user in users:
        mem.add_turn("user", f"the kayak of {user.replace('-', 'x')} leaks", session_id="s", user_id=user)
        mem.add_turn("user", "nothing about boats here", session_id="s", user_id=user)
    store = mem.store
    for user in users:
        found = [i for i, _ in store.search_turns('"kayak"', user, limit=10)]
        assert len(found) == 1 and set(store.turns_by_id(user, found)) == set(found), user   # theirs, the one
        assert store.exact_turns('"kayak"', user, limit=10) == found
        assert [i for i, _ in store.search_turns_filtered('"kayak"', user, limit=10, since=0)] == found
    # a query word that is a user's id matches text, never the id column
    assert store.search_turns('"smith"', "maya smith", limit=10) != []                   # "the kayak of maya smith"
    maya = [i for i, _ in store.search_turns('"maya"', "maya", limit=10)]
    assert [t.content for t in store.turns_by_id("maya", maya).values()] == ["the kayak of maya leaks"]
    assert store.search_turns('"neil"', "maya", limit=10) == []
    assert store.common_terms(["maya"], floor=1, share=0.0) == {"maya"} and \
        store.common_terms(["boats"], floor=4, share=0.0) == set()                       # 4 turns: not above 4
    # derived memories: the same, searched through their own index
    for user in users:
        mem.add_fact(f"The canoe of {user.replace('-', 'x')} is green.", user_id=user)
    for user in users:
        kinds = store.search_memories('"canoe"', user, limit=10)
        assert len(kinds) == 1 and store.exact_memories('"canoe"', user, limit=10) == [k[:2] for k in kinds]
        [fact] = mem.facts(user_id=user)
        assert kinds[0][1] == fact.id
    assert store.search_memories('"neil"', "maya", limit=10) == []
    # for a user, common is counted in their own turns: 4 users say "kayak", each once
    assert store.common_terms(["kayak"], floor=1, share=0.0) == {"kayak"}
    assert store.common_terms(["kayak"], floor=1, share=0.0, user_id="maya") == set()
    assert store.common_terms(["kayak", "boats"], floor=0, share=0.0, user_id="maya") == {"kayak", "boats"}


@pytest.mark.sqlite_only("the SQLite store's FTS5 query (PostgreSQL filters turns.user_id through its index)")
def test_in_a_shared_store_fts5_is_asked_for_the_users_matches_only(mem: Memory, monkeypatch) -> None:
    for user in ("alice", "bob"):
        mem.add_turns([{"role": "user", "content": f"kayak trip {i} of {user}", "session_id": "s", "user_id": user}
                       for i in range(30)])
    store = mem.store
    asked: list[str] = []
    query = store._query

    def spy(sql: str, params: Any = ()) -> Any:
        asked.extend(p for p in params if isinstance(p, str) and "kayak" in p)
        return query(sql, params)

    monkeypatch.setattr(store, "_query", spy)
    found = store.search_turns('"kayak"', "alice", limit=5)
    assert len(found) == 5 and asked and all('user_id : "alice"' in m for m in asked)
    rows = query("SELECT count(*) FROM turns_fts WHERE turns_fts MATCH ?", (asked[0],))
    assert rows[0][0] == 30                                   # FTS5 itself returns alice's 30 of the 60 matches


# --- the Store interface -----------------------------------------------------------------------------------

def _protocol_members(protocol: type) -> dict[str, Any]:
    """Every member a protocol (and the protocols it combines) names."""
    members: dict[str, Any] = {}
    for cls in reversed(protocol.__mro__):
        if getattr(cls, "_is_protocol", False) and cls.__module__ == base.__name__:
            members.update({k: v for k, v in vars(cls).items() if not k.startswith("_")})
    return members


def _shape(function: Any) -> list[tuple[str, Any, bool]]:
    """(name, kind, has a default) of each parameter: what a caller relies on."""
    return [(p.name, p.kind, p.default is not inspect.Parameter.empty)
            for p in inspect.signature(function).parameters.values()]


def _takes_a_store(store: Store) -> Store:  # mypy checks that a SQLiteStore is a Store where this is called
    return store


def test_sqlite_store_implements_every_operation_of_the_store_protocol() -> None:
    members = _protocol_members(Store)
    assert {"session", "insert_turns", "search_turns", "add_vectors", "insert_fact", "episodes", "loops",
            "insert_judgment_or_merge", "insert_token", "forget", "scrub", "close", "path"} <= set(members)
    store = SQLiteStore(MEMORY_PATH)
    try:
        assert _takes_a_store(store) is store
        assert isinstance(store, Store)
        for name, member in members.items():
            assert hasattr(store, name), name
            if isinstance(member, property):
                continue
            assert _shape(getattr(SQLiteStore, name)) == _shape(member), name
    finally:
        store.close()


def test_a_sessions_turns_between_two_seqs(db_path: Path) -> None:
    with Memory(db_path) as mem:
        for i in range(5):
            mem.add_turn("user", f"turn {i}", session_id="s")
        store, user = mem.store, mem.user_id
        assert [t.seq for t in store.session_turns(user, "s", from_seq=1, before_seq=3)] == [1, 2]
        assert [t.seq for t in store.session_turns(user, "s", from_seq=3)] == [3, 4]
        assert store.session_turns(user, "s", before_seq=0) == []


def test_the_store_protocol_leaks_no_sqlite() -> None:
    members = _protocol_members(Store)
    assert "transaction" not in members and "db" not in members
    assert "sqlite" not in inspect.getsource(base).split('"""', 2)[2].lower()  # below the module docstring


# --- forgetting across every concern -----------------------------------------------------------------------

def _fill(store: SQLiteStore, user_id: str, session_id: str) -> None:
    """A session with a turn, a fact, an episode and a loop; the user's judgment and token."""
    store.insert_turns([TurnRecord(uid=f"{user_id}-{session_id}", user_id=user_id, session_id=session_id, seq=0,
                                   role="user", content="the deck needs 14 slides", ts=1.0, ingested_at=1.0)],
                       f"{user_id}/{session_id}.jsonl", 10)
    (turn,) = store.session_turns(user_id, session_id)
    store.insert_fact(NewFact(user_id=user_id, session_id=session_id, type="decision", text="The deck has 14 slides",
                              route="durable", salience=1.0, confidence=1.0, event_ts=None, created_at=1.0,
                              source_ids=[turn.id], origin=f"o-{session_id}", extractor="rules"))
    episode_id, _ = store.upsert_episode(NewEpisode(
        user_id=user_id, session_id=session_id, summary="Deck length.", summarizer="extractive", keyphrases=[],
        source_ids=[turn.id], turns=1, started_at=1.0, ended_at=1.0, vec=None, vec_model=None))
    store.create_workstream(user_id, episode_id)
    store.insert_loop(NewLoop(user_id=user_id, session_id=session_id, workstream_id=None, text="send the deck",
                              due=None, detector="rules", source_ids=[turn.id], origin=f"l-{session_id}",
                              created_at=1.0))
    store.insert_judgment_or_merge(user_id=user_id, memory_id=f"mem-{user_id}-{session_id}", trigger="a deck",
                                   judgment="keep it short", reasoning="", domain=None, metadata={},
                                   dedup_key=f"k-{session_id}", merge_metadata=lambda old, new: "{}")
    store.insert_token(user_id, f"hash-{user_id}-{session_id}", None)


def _rows(store: SQLiteStore, user_id: str) -> dict[str, int]:
    tables = ("sessions", "turns", "facts", "episodes", "workstreams", "loops", "judgments", "api_tokens")
    return {t: store.db.execute(f"SELECT count(*) FROM {t} WHERE user_id = ?", (user_id,)).fetchone()[0]
            for t in tables}


def test_forget_reaches_every_concern_in_one_transaction() -> None:
    store = SQLiteStore(MEMORY_PATH)
    try:
        for user_id, session_id in (("alice", "s1"), ("alice", "s2"), ("bob", "s1")):
            _fill(store, user_id, session_id)
        every = {"sessions": 2, "turns": 2, "facts": 2, "episodes": 2, "workstreams": 2, "loops": 2, "judgments": 2,
                 "api_tokens": 2}
        assert _rows(store, "alice") == every

        result = store.forget(user_id="alice", session_id="s1")
        assert result["journal_files"] == ["alice/s1.jsonl"]
        assert {k: result[k] for k in ("facts", "episodes", "workstreams", "loops", "turns", "sessions")} == {
            "facts": 1, "episodes": 1, "workstreams": 1, "loops": 1, "turns": 1, "sessions": 1}
        # judgments and tokens belong to the user, not to a session: a session's forget keeps them
        assert _rows(store, "alice") == {**{k: 1 for k in every}, "judgments": 2, "api_tokens": 2}
        assert [f.session_id for f in store.facts("alice")] == ["s2"]

        result = store.forget(user_id="alice")
        assert result["judgments"] == 2 and result["tokens"] == 2 and result["facts"] == 1
        assert _rows(store, "alice") == {k: 0 for k in every}
        assert _rows(store, "bob") == {k: 1 for k in every}  # another user is untouched

        store.forget()
        assert _rows(store, "bob") == {k: 0 for k in every}
    finally:
        store.close()


def test_the_novelty_samples_texts_are_those_of_the_newest_current_facts(mem: Memory) -> None:
    """`current_fact_texts` (the novelty gate's sample, issue 45) reads the texts `facts` would give, in its order:
    current facts only, newest first, ties of time by id."""
    store = mem.store

    def fact(text: str, created_at: float, user_id: str = "maya", supersedes: int | None = None) -> int:
        return store.insert_fact(NewFact(user_id=user_id, session_id="s1", type="decision", text=text,
                                         route="durable", salience=1.0, confidence=1.0, event_ts=None,
                                         created_at=created_at, source_ids=[], origin=f"o-{text}",
                                         extractor="rules"), supersedes=supersedes)

    old = fact("The deck has 12 slides", 1.0)
    for i in range(6):
        fact(f"Fact number {i}", 2.0 + i // 2)   # two at each time: the id orders them
    fact("The deck has 14 slides", 3.5, supersedes=old)
    fact("Bob's deck has 9 slides", 9.0, user_id="bob")
    for n in (0, 1, 3, 7, 50):
        assert store.current_fact_texts("maya", n) == [f.text for f in store.facts("maya", limit=n)]
    assert "The deck has 12 slides" not in store.current_fact_texts("maya", 50)
    assert store.current_fact_texts("bob", 50) == ["Bob's deck has 9 slides"]
    # consolidation reads facts without their entities: the same rows, `entities` left empty
    store.link_entities("maya", old, ["Deck"])
    full, bare = store.facts_by_id("maya", [old]), store.facts_by_id("maya", [old], entities=False)
    assert full[old].entities == ["Deck"] and bare[old].entities == []
    assert replace(bare[old], entities=["Deck"]) == full[old]
    assert [replace(f, entities=[]) for f in store.facts("maya", include_superseded=True)] == store.facts(
        "maya", include_superseded=True, entities=False)
