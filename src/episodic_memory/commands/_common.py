"""What `cli.py` and the command modules share: the console, `--db`/`--user`, opening the store, JSON output."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console

from ..brief import ago
from ..config import DEFAULT_USER, Config, default_db_path
from ..memory import Memory
from ..util import MAX_INT, check_id

F = TypeVar("F", bound=Callable[..., Any])

EXIT_BAD_INPUT = 1


class Positive(click.IntRange):
    """A whole number from 1 to what SQLite can take; its help says `INTEGER ... [x>=1]`, not
    `INTEGER RANGE [1<=x<=9223372036854775807]` (a number past the top is still refused, naming the top)."""

    name = "integer"

    def __init__(self) -> None:
        super().__init__(1, MAX_INT)

    def _describe_range(self) -> str:
        return "x>=1"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.INT.convert(value, param, ctx)
        if number > MAX_INT:
            self.fail(f"{number} is not in the range 1<=x<={MAX_INT}.", param, ctx)
        return super().convert(number, param, ctx)


COUNT = Positive()   # -k, --limit: a number SQLite can take (issue 18 door)
ROW_ID = Positive()  # a fact, loop or token id

console = Console()


def db_path_option(fn: F) -> F:
    """`--db`: the store a command acts on (see `store_path`)."""
    return click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
                        help="The memory file (default: $EPISODIC_DB or the user data directory).")(fn)


def db_option(fn: F) -> F:
    """`--db` and `--user` on every command (they may also be given before the command)."""
    return db_path_option(click.option("--user", "user_id", default=None, metavar="ID",
                                       help=f"Whose memories (default: {DEFAULT_USER!r}).")(fn))


def store_command(group: click.Group | None = None, name: str | None = None
                  ) -> Callable[[Callable[..., Any]], click.Command]:
    """`@store_command(group)`: a command of `group` (or, without one, a command to add to a group) that acts on
    the store: `db_option` gives it `--db` and `--user`, and the function takes the click context first, as
    `(ctx, db, user_id, …)` (`click.pass_context`)."""
    def make(fn: Callable[..., Any]) -> click.Command:
        command = click.command(name) if group is None else group.command(name)
        return command(db_option(click.pass_context(fn)))

    return make


def given_user(ctx: click.Context, user_id: str | None) -> str | None:
    """The command's --user, else the --user given before the command, else None."""
    return user_id or ctx.find_root().params.get("user_id")


def store_path(ctx: click.Context, db: str | None) -> str:
    """The store a command acts on: its --db, else the one before the command, else the default. An empty --db is
    an error, not the default store. Noted in `ctx.meta` for the messages about it, with where it came from
    ("--db", "$EPISODIC_DB", or None for the default store)."""
    value = db if db is not None else ctx.find_root().params.get("db")
    if value is not None and not value.strip():
        raise click.ClickException("--db is empty: give the memory file's path (or leave --db out for the "
                                   "default store)")
    path = value if value is not None else str(default_db_path())
    given = "--db" if value is not None else "$EPISODIC_DB" if os.environ.get("EPISODIC_DB") else None
    ctx.meta["episodic.db"], ctx.meta["episodic.db_given"] = path, given
    return path


def writable(path: str) -> bool:
    """Whether this process may write the store at `path` and its folder (its -wal, journal and lock live there)."""
    file = Path(path).expanduser()
    return not file.exists() or (os.access(file, os.W_OK) and os.access(file.parent, os.W_OK))


def open_memory(ctx: click.Context, db: str | None, user_id: str | None, *, reads: bool = False,
                existing: bool = False) -> Memory:
    """The Memory a command uses, closed when it ends. A command that only `reads` never waits on the LLM
    (README, "Using an LLM") and opens a store it cannot write read-only; one that `reads` or needs an
    `existing` store (export, backup) refuses a store file that is not there (`_check_exists`)."""
    path = store_path(ctx, db)
    user = given_user(ctx, user_id) or DEFAULT_USER
    try:
        check_id(user, "user id")
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--user") from None
    if reads or existing:
        _check_exists(ctx, path)
    config = None
    if reads:
        config = Config.from_env({"store.read_only": True if not writable(path) else None,
                                  "capture.consolidate_on_open_with_llm": False})
    mem = Memory(path, user_id=user, config=config)
    ctx.call_on_close(mem.close)
    return mem


def _check_exists(ctx: click.Context, path: str) -> None:
    """A read command on a store file that is not there is an error naming it (a mistyped --db would otherwise
    create an empty store and find nothing): exit 2, as for any bad --db. Only for a path the user gave (--db or
    $EPISODIC_DB): the default store in the user data directory reads as empty before anything was stored."""
    hint = ctx.meta.get("episodic.db_given")
    if hint is None or "://" in path or path == ":memory:" or Path(path).expanduser().exists():
        return
    raise click.BadParameter(f"no memory store at {path} (check the path; `episodic ingest` or `episodic add` "
                             "creates one)", param_hint=hint)


def fail(ctx: click.Context, message: str) -> NoReturn:
    """`error: message`, in red on standard error, and exit 1 (EXIT_BAD_INPUT)."""
    click.secho(f"error: {message}", fg="red", err=True)
    ctx.exit(EXIT_BAD_INPUT)


def dump(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def listed(items: Sequence[Any], as_json: bool, nothing: str, out: Console = console) -> bool:
    """What a listing command says first: with --json, the items (their `to_dict()`) as a JSON list; without,
    `nothing` (dimmed) when there are none. True when that said it all."""
    if as_json:
        dump([item.to_dict() for item in items])
    elif not items:
        out.print(f"[dim]{nothing}[/dim]")
    return as_json or not items


def age(ts: datetime | None, now: datetime | None = None) -> str:
    """'just now', '5m ago', '3h ago', '2d ago', '4mo ago', '2y ago'."""
    return ago(None if ts is None else ts.timestamp(), None if now is None else now.timestamp())
