"""Migrations are known by name (issue 44, `store/schema.py`): both backends list unique numbers and names in
ascending order, the same names in the same order; a store made at every earlier schema, recorded as the code of
its day recorded it (by place in the list), opens at the newest schema with its turn found; a store that recorded
a migration at another place gains the one it lacks; a read-only open refuses a store it would have to migrate.
BM25 alone (`embedder="off"`)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from types import ModuleType

import pytest

from episodic_memory import Config, Memory
from episodic_memory.store import StoreOpenError, open_store
from episodic_memory.store.schema import StoreVersionError, pending
from episodic_memory.store.scripts import segmented
from episodic_memory.store.sqlite import migrations as sqlite_migrations

OFF = Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off"})
READ_ONLY = Config(models={"embedder": "off"}, store={"read_only": True})
TURN = "The Series B deck needs 14 slides, Sarah confirmed."
NAMES = [m.__name__ for m in sqlite_migrations.MIGRATIONS]


def problems(names: list[str]) -> list[str]:
    """What is wrong with a list of migration names: one not named mNNN_words, a number or a name used twice,
    numbers out of ascending order. A gap (no m011) is fine."""
    found: list[str] = []
    numbers: list[int] = []
    for name in names:
        if (m := re.fullmatch(r"m(\d{3})_[a-z0-9_]+", name)) is None:
            found.append(f"{name} is not named mNNN_words")
        else:
            numbers.append(int(m.group(1)))
    found += [f"{name} twice" for name in sorted({n for n in names if names.count(n) > 1})]
    found += [f"m{n:03d} numbers two migrations" for n in sorted({n for n in numbers if numbers.count(n) > 1})]
    if numbers != sorted(numbers):
        found.append("numbers out of order")
    return found


def _names(module: ModuleType) -> list[str]:
    return [m.__name__ for m in module.MIGRATIONS]


# --- the lists ---------------------------------------------------------------------------------------------------

def test_the_check_of_the_lists_finds_a_shared_number_or_name() -> None:
    assert problems(["m001_a", "m002_b", "m004_d"]) == []
    assert problems(["m001_a", "m002_b", "m002_c"]) == ["m002 numbers two migrations"]
    assert problems(["m001_a", "m001_a"]) == ["m001_a twice", "m001 numbers two migrations"]
    assert problems(["m002_b", "m001_a"]) == ["numbers out of order"]
    assert problems(["m1_a"]) == ["m1_a is not named mNNN_words"]


def test_sqlite_migrations_have_unique_numbers_and_names() -> None:
    assert problems(NAMES) == []
    assert len(NAMES) == sqlite_migrations.SCHEMA_VERSION


def test_postgres_migrations_have_unique_numbers_and_names_the_same_as_sqlites() -> None:
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    from episodic_memory.store.postgres import migrations as pg_migrations

    assert problems(_names(pg_migrations)) == []
    assert _names(pg_migrations) == NAMES
    assert pg_migrations.SCHEMA_VERSION == sqlite_migrations.SCHEMA_VERSION


def test_pending_goes_by_name_and_refuses_one_it_does_not_know() -> None:
    known = ["m001_a", "m002_b", "m004_d"]
    assert pending([], known, "x") == [0, 1, 2]
    assert pending(["m001_a", "m004_d"], known, "x") == [1]  # recorded at another place: only what is missing
    assert pending(known, [*known[:2], "m003_c", known[2]], "x") == [2]  # slotted into its place later
    with pytest.raises(StoreVersionError, match="has migration m005_e, which this episodic-memory does not know"):
        pending([*known, "m005_e"], known, "x")


# --- SQLite: a store at every earlier schema ---------------------------------------------------------------------

def _sqlite_store_at(path: Path, applied: list[str], *, turn: bool = True) -> None:
    """A file with the migrations `applied` (in that order), recorded as the code before issue 44 did (version:
    the place), and, when the schema has turns, one session with one turn written as that code wrote it."""
    by_name = {m.__name__: m for m in sqlite_migrations.MIGRATIONS}
    db = sqlite3.connect(path)
    db.create_function("episodic_segmented", 1, segmented, deterministic=True)  # every store connection has it
    db.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    for version, name in enumerate(applied, 1):
        by_name[name](db)
        db.execute("INSERT INTO _migrations VALUES (?, ?, 0)", (version, name))
    if turn and applied:
        db.execute("INSERT INTO sessions (user_id, session_id, created_at, updated_at, turn_count) "
                   "VALUES ('default', 's', 0, 0, 1)")
        db.execute("INSERT INTO turns (uid, user_id, session_id, seq, role, content, ts, ingested_at, turn_id) "
                   "VALUES ('u0', 'default', 's', 0, 'user', ?, 1000, 0, 't0')", (TURN,))
    db.commit()
    db.close()


def _recorded(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT version, name FROM _migrations ORDER BY version").fetchall()
    db.close()
    return rows


@pytest.mark.sqlite_only("builds SQLite files at every earlier schema; the PostgreSQL twin is below")
@pytest.mark.parametrize("made_at", range(1, len(NAMES) + 1), ids=lambda n: NAMES[n - 1][:4])
def test_a_sqlite_store_made_at_every_earlier_schema_is_upgraded_on_open(tmp_path: Path, made_at: int) -> None:
    path = tmp_path / "older.db"
    _sqlite_store_at(path, NAMES[:made_at])
    if made_at < len(NAMES):  # read-only, nothing is migrated: refused, naming the first migration it lacks
        with pytest.raises(StoreOpenError, match=f"{NAMES[made_at]}.*read-only here"):
            open_store(path, READ_ONLY)
    with Memory(path, config=OFF) as mem:
        assert mem.stats()["schema_version"] == sqlite_migrations.SCHEMA_VERSION
        assert mem.stats()["turns"] == 1
        assert [h.text for h in mem.recall("how many slides in the deck", k=1)] == [TURN]
        mem.add_turn("user", "Ship the beta on Friday", session_id="s", source="chat", tags=["work"],
                     metadata={"kept": True})  # the newest columns
        assert [t.metadata for t in mem.session_turns("s")] == [None, {"kept": True}]
    assert _recorded(path) == list(enumerate(NAMES, 1))  # the versions go on in the order applied
    store = open_store(path, READ_ONLY)
    try:
        assert store.schema_version == sqlite_migrations.SCHEMA_VERSION
    finally:
        store.close()


@pytest.mark.sqlite_only("builds an SQLite file as a branch of the day did")
def test_a_store_that_recorded_a_later_migration_in_an_earlier_place_gains_the_one_it_lacks(tmp_path: Path) -> None:
    """Before names counted, a branch that took m013 before m012 had landed recorded m013 as version 11; read by
    number, the next open would have skipped m012 (version 11 is m012's place). By name, m012 is applied."""
    path = tmp_path / "branch.db"
    m012, m013 = "m012_consolidation_leases_and_name_sources", "m013_turn_source_and_tags"
    _sqlite_store_at(path, [*NAMES[:NAMES.index(m012)], m013])
    with Memory(path, config=OFF) as mem:
        assert mem.stats()["schema_version"] == sqlite_migrations.SCHEMA_VERSION
        assert mem.store.claim_consolidation("default", "s", "x", until=2e9, now=1e9) is None  # m012's columns
        assert [h.text for h in mem.recall("slides", k=1)] == [TURN]
    recorded = [name for _, name in _recorded(path)]
    assert sorted(recorded) == sorted(NAMES) and recorded[10:12] == [m013, m012]


@pytest.mark.sqlite_only("writes the SQLite file")
def test_a_read_only_open_refuses_an_unknown_migration_and_a_file_with_no_schema(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    _sqlite_store_at(path, [*NAMES])
    with sqlite3.connect(path) as db:  # a newer version's migration, at a number this version also has
        db.execute("UPDATE _migrations SET name = 'm999_from_the_future' WHERE version = 1")
    db.close()
    for config in (READ_ONLY, OFF):
        with pytest.raises(StoreVersionError, match="m999_from_the_future.*written by a newer version"):
            open_store(path, config)
    bare = tmp_path / "bare.db"
    sqlite3.connect(bare).close()
    with pytest.raises(StoreOpenError, match="not an episodic-memory store"):
        open_store(bare, READ_ONLY)


# --- PostgreSQL: a database at every earlier schema --------------------------------------------------------------

@pytest.mark.parametrize("made_at", range(1, len(NAMES) + 1), ids=lambda n: NAMES[n - 1][:4])
def test_a_postgres_database_made_at_every_earlier_schema_is_upgraded_on_open(request: pytest.FixtureRequest,
                                                                              made_at: int) -> None:
    from episodic_memory.store.postgres.cluster import available
    if not available():
        pytest.skip("the postgres extra is not installed")
    import psycopg

    from episodic_memory.store.postgres import migrations as pg_migrations

    cluster = request.getfixturevalue("pg_cluster")
    name = f"made_at_{made_at}"
    with psycopg.connect(cluster.url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {name}")
    url = cluster.url(name)
    try:
        with psycopg.connect(url, autocommit=True) as db, db.transaction():
            db.execute("CREATE TABLE _migrations (version integer PRIMARY KEY, name text NOT NULL, "
                       "applied_at double precision NOT NULL)")
            for version, migration in enumerate(pg_migrations.MIGRATIONS[:made_at], 1):  # recorded by place
                migration(db)
                db.execute("INSERT INTO _migrations VALUES (%s, %s, 0)", (version, migration.__name__))
            db.execute("INSERT INTO sessions (user_id, session_id, created_at, updated_at, turn_count) "
                       "VALUES ('default', 's', 0, 0, 1)")
            db.execute("INSERT INTO turns (uid, user_id, session_id, seq, role, content, ts, ingested_at, turn_id) "
                       "VALUES ('u0', 'default', 's', 0, 'user', %s, 1000, 0, 't0')", (TURN,))
            db.execute("UPDATE sessions SET lexemes = (SELECT sum(length(tsv)) FROM turns)")
        if made_at < len(NAMES):
            with pytest.raises(StoreOpenError, match=f"{NAMES[made_at]}.*read-only here"):
                open_store(url, READ_ONLY)
        with Memory(url, config=OFF) as mem:
            assert mem.stats()["schema_version"] == pg_migrations.SCHEMA_VERSION
            assert mem.stats()["turns"] == 1
            assert [h.text for h in mem.recall("how many slides in the deck", k=1)] == [TURN]
            mem.add_turn("user", "Ship the beta on Friday", session_id="s", source="chat", tags=["work"],
                         metadata={"kept": True})
            assert [t.metadata for t in mem.session_turns("s")] == [None, {"kept": True}]
        with psycopg.connect(url) as db:
            rows = db.execute("SELECT version, name FROM _migrations ORDER BY version").fetchall()
        assert rows == list(enumerate(NAMES, 1))
        store = open_store(url, READ_ONLY)
        try:
            assert store.schema_version == pg_migrations.SCHEMA_VERSION
        finally:
            store.close()
    finally:
        with psycopg.connect(cluster.url(), autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
