"""What `cli.py` and the command modules share: the console, `--db`/`--user`, opening the store, JSON output."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import click
from rich.console import Console

from ..brief import ago
from ..config import DEFAULT_USER, default_db_path
from ..memory import Memory
from ..util import MAX_INT

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


def open_memory(ctx: click.Context, db: str | None, user_id: str | None) -> Memory:
    root = ctx.find_root().params
    path = db or root.get("db") or str(default_db_path())
    user = user_id or root.get("user_id") or DEFAULT_USER
    mem = Memory(path, user_id=user)
    ctx.call_on_close(mem.close)
    return mem


def dump(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def age(ts: datetime | None, now: datetime | None = None) -> str:
    """'just now', '5m ago', '3h ago', '2d ago', '4mo ago', '2y ago'."""
    return ago(None if ts is None else ts.timestamp(), None if now is None else now.timestamp())
