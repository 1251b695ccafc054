"""What `cli.py` and the command modules share: the console, `--db`/`--user`, opening the store, JSON output."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from ..brief import ago
from ..config import DEFAULT_USER, Config, default_db_path
from ..memory import Memory
from ..util import MAX_INT, check_id

F = TypeVar("F", bound=Callable[..., Any])

EXIT_BAD_INPUT = 1
COUNT = click.IntRange(1, MAX_INT)   # -k, --limit: a number SQLite can take (issue 18 door)
ROW_ID = click.IntRange(1, MAX_INT)  # a fact, loop or token id

console = Console()


def db_option(fn: F) -> F:
    """`--db` and `--user` on every command (they may also be given before the command)."""
    fn = click.option("--user", "user_id", default=None, metavar="ID",
                      help=f"Whose memories (default: {DEFAULT_USER!r}).")(fn)
    return click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
                        help="The memory file (default: $EPISODIC_DB or the user data directory).")(fn)


def store_path(ctx: click.Context, db: str | None) -> str:
    """The store a command acts on: its --db, else the one before the command, else the default. An empty --db is
    an error, not the default store. Noted in `ctx.meta` for the messages about it."""
    for value in (db, ctx.find_root().params.get("db")):
        if value is not None:
            if not value.strip():
                raise click.ClickException("--db is empty: give the memory file's path (or leave --db out for the "
                                           "default store)")
            path = value
            break
    else:
        path = str(default_db_path())
    ctx.meta["episodic.db"] = path
    return path


def writable(path: str) -> bool:
    """Whether this process may write the store at `path` and its folder (its -wal, journal and lock live there)."""
    file = Path(path).expanduser()
    return not file.exists() or (os.access(file, os.W_OK) and os.access(file.parent, os.W_OK))


def open_memory(ctx: click.Context, db: str | None, user_id: str | None, *, reads: bool = False) -> Memory:
    """The Memory a command uses, closed when it ends. A command that only `reads` never waits on the LLM: it
    leaves the sessions pending consolidation to the next writer (Config.consolidate_on_open_with_llm; without an
    LLM it consolidates them with the rules, as any open does), and it opens a store it cannot write read-only
    (Config.read_only): nothing is written, no -wal/-shm left behind."""
    path = store_path(ctx, db)
    user = user_id or ctx.find_root().params.get("user_id") or DEFAULT_USER
    try:
        check_id(user, "user id")
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--user") from None
    config = None
    if reads:
        config = Config.from_env(read_only=True if not writable(path) else None, consolidate_on_open_with_llm=False)
    mem = Memory(path, user_id=user, config=config)
    ctx.call_on_close(mem.close)
    return mem


def dump(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def age(ts: datetime | None, now: datetime | None = None) -> str:
    """'just now', '5m ago', '3h ago', '2d ago', '4mo ago', '2y ago'."""
    return ago(None if ts is None else ts.timestamp(), None if now is None else now.timestamp())
