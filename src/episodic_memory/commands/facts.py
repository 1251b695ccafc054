"""`episodic facts | history | entities | profile`: what consolidation made of the turns."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click
from rich.markup import escape
from rich.table import Table

from ..consolidate.fact_types import FACT_TYPES
from ..store.records import Fact
from ..util import to_datetime
from ._common import ROW_ID, age, console, dump, listed, open_memory, store_command

_T = TypeVar("_T")


def _line(fact: Fact) -> str:
    state = "" if fact.current else f"  [dim](until {to_datetime(fact.valid_to):%Y-%m-%d})[/dim]"
    repeats = f" ×{fact.recurrence}" if fact.recurrence > 1 else ""
    return (f"[bold cyan]#{fact.id}[/bold cyan] [magenta]{fact.type}[/magenta]{repeats} {escape(fact.text)}  "
            f"[dim]({age(to_datetime(fact.created_at))}, {fact.route})[/dim]{state}")


def _looked_up(look_up: Callable[[], _T], param_hint: str) -> _T:
    """What `look_up()` finds; its KeyError (nothing by that id or name) is a usage error naming `param_hint`."""
    try:
        return look_up()
    except KeyError as exc:
        raise click.BadParameter(exc.args[0], param_hint=param_hint) from None


@store_command()
@click.option("--all", "include_superseded", is_flag=True, help="Include superseded facts.")
@click.option("--type", "types", multiple=True, type=click.Choice(sorted(FACT_TYPES)), help="Only these types.")
@click.option("--session", "session_id", default=None, help="Only facts from this session.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def facts(ctx: click.Context, db: str | None, user_id: str | None, include_superseded: bool,
          types: tuple[str, ...], session_id: str | None, as_json: bool) -> None:
    """List the facts consolidation extracted, newest first."""
    found = open_memory(ctx, db, user_id, reads=True).facts(
        include_superseded=include_superseded, session_id=session_id, types=types or None)
    if listed(found, as_json, "no facts yet"):
        return
    for fact in found:
        console.print(_line(fact), highlight=False)


@store_command()
@click.argument("fact_id", type=ROW_ID)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def history(ctx: click.Context, db: str | None, user_id: str | None, fact_id: int, as_json: bool) -> None:
    """Walk a fact's supersession chain, newest first."""
    chain = _looked_up(lambda: open_memory(ctx, db, user_id, reads=True).fact_history(fact_id), "FACT_ID")
    if as_json:
        dump([f.to_dict() for f in chain])
        return
    for i, fact in enumerate(chain):
        lead = "  " if i == 0 else "  ↳ previously "
        console.print(lead + _line(fact), highlight=False)


@store_command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def entities(ctx: click.Context, db: str | None, user_id: str | None, as_json: bool) -> None:
    """People, organisations and projects the facts name, with aliases and who they appear with."""
    found = open_memory(ctx, db, user_id, reads=True).entities()
    if listed(found, as_json, "no entities yet"):
        return
    table = Table("name", "facts", "also known as", "appears with", box=None)
    for e in found:
        table.add_row(escape(e.name), str(e.facts), escape(", ".join(e.aliases)),
                      escape(", ".join(f"{n} ({w})" for n, w in e.related[:4])))
    console.print(table)


@store_command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def profile(ctx: click.Context, db: str | None, user_id: str | None, name: str, as_json: bool) -> None:
    """What is known about NAME (an entity's name or alias, any case)."""
    data = _looked_up(lambda: open_memory(ctx, db, user_id, reads=True).profile(name), "NAME")
    if as_json:
        dump(data)
        return
    aka = f"  [dim](also {escape(', '.join(data['aliases']))})[/dim]" if data["aliases"] else ""
    console.print(f"[bold]{escape(data['name'])}[/bold]{aka}")
    console.print(escape(data["profile"] or "(no facts yet)"))
    for fact in data["facts_list"]:
        console.print(f"  · [magenta]{fact['type']}[/magenta] {escape(fact['text'])}", highlight=False)
    if data["related"]:
        console.print("[dim]appears with: " + escape(", ".join(r["name"] for r in data["related"][:6])) + "[/dim]")
