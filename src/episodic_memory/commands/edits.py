"""`episodic show | fact edit|forget|pin | loop reopen|add`, and a session's turns: reading one thing, changing it
by hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import click
from rich.markup import escape

from ..memory import Memory
from ..store.records import StoredTurn
from ..util import MAX_INT, to_iso
from ._common import EXIT_BAD_INPUT, console, dump, fail, open_memory, store_command

T = TypeVar("T")


def _turn_dict(t: StoredTurn) -> dict[str, object]:
    return {"id": t.source_id, "row_id": t.id, "session_id": t.session_id, "seq": t.seq, "role": t.role,
            "speaker": t.speaker, "content": t.content, "timestamp": to_iso(t.ts)}


def print_turns(turns: list[StoredTurn]) -> None:
    """Turns one after the other: who, when, their caller id, and what was said."""
    for t in turns:
        who = t.speaker or t.role
        console.print(f"[bold cyan]{escape(who)}[/bold cyan] [dim]· {(to_iso(t.ts) or '')[:16].replace('T', ' ')} UTC · "
                      f"{escape(t.session_id)} · #{escape(t.source_id)}[/dim]", highlight=False)
        console.print(escape(t.content), highlight=False)
        console.print()


def find_turns(mem: Memory, ref: str) -> list[StoredTurn]:
    """The turns `ref` names. "turn:6" or "#6" (a hit's id, what `recall` prints): the turn numbered 6. "6": the
    turns whose caller id is 6 and the turn numbered 6 (recall prints the number, a caller may also use numbers).
    Anything else: the turns with that caller id."""
    ref = ref.strip()
    number = re.fullmatch(r"(turn:|#)?\s*(\d+)", ref, re.ASCII)
    found = [] if number is not None and number.group(1) else mem.store.turns_by_caller_id(mem.user_id, ref)
    if number is not None and int(digits := number.group(2)) <= MAX_INT:
        found += [t for t in mem.store.turns_by_id(mem.user_id, [int(digits)]).values()
                  if t.id not in {f.id for f in found}]
    return found


@store_command()
@click.argument("turn_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def show(ctx: click.Context, db: str | None, user_id: str | None, turn_id: str, as_json: bool) -> None:
    """Show the turn TURN_ID (your id for it, or the number `recall` shows: 6, #6 or turn:6), and the facts drawn
    from it."""
    mem = open_memory(ctx, db, user_id, reads=True)
    turns = find_turns(mem, turn_id)
    if not turns:
        fail(ctx, f"no turn {turn_id!r} for user {mem.user_id!r}")
    facts = {t.id: [f for f in mem.facts(include_superseded=True, session_id=t.session_id) if t.id in f.source_ids]
             for t in turns}
    if as_json:
        dump([{**_turn_dict(t), "facts": [f.to_dict() for f in facts[t.id]]} for t in turns])
        return
    for t in turns:
        print_turns([t])
        for f in facts[t.id]:
            state = "" if f.current else f" [dim](superseded by #{f.superseded_by})[/dim]"
            console.print(f"  [magenta]fact #{f.id} {f.type}[/magenta] {escape(f.text)}{state}", highlight=False)


def session_turns(ctx: click.Context, db: str | None, user_id: str | None, session_id: str, as_json: bool) -> None:
    """`episodic sessions SESSION_ID`: the session's turns in order."""
    mem = open_memory(ctx, db, user_id, reads=True)
    info = mem.store.session(mem.user_id, session_id)
    if info is None:
        fail(ctx, f"no session {session_id!r} for user {mem.user_id!r}")
    turns = mem.session_turns(session_id)
    if as_json:
        dump({**info.to_dict(), "turns_list": [_turn_dict(t) for t in turns]})
        return
    console.print(f"[bold]{escape(session_id)}[/bold]  [dim]{info.status}, {info.turn_count} turn(s)[/dim]\n",
                  highlight=False)
    print_turns(turns)


@click.group()
def fact() -> None:
    """Change one fact by hand (see `episodic facts` for the ids)."""


def _or_exit(ctx: click.Context, action: Callable[[], T]) -> T:
    """`action()`, or its KeyError / ValueError as an error message and exit 1."""
    try:
        return action()
    except (KeyError, ValueError) as exc:
        fail(ctx, str(exc.args[0]))


@store_command(fact, "edit")
@click.argument("fact_id", metavar="ID", type=int)
@click.argument("text")
def fact_edit(ctx: click.Context, db: str | None, user_id: str | None, fact_id: int, text: str) -> None:
    """Replace fact ID's wording with TEXT (the old wording stays in its history: `episodic history`)."""
    mem = open_memory(ctx, db, user_id)
    new = _or_exit(ctx, lambda: mem.edit_fact(fact_id, text))
    console.print(f"fact #{new.id} supersedes #{fact_id}: {escape(text.strip())}", highlight=False)


@store_command(fact, "forget")
@click.argument("fact_id", metavar="ID", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def fact_forget(ctx: click.Context, db: str | None, user_id: str | None, fact_id: int, yes: bool) -> None:
    """Delete fact ID for good (the fact it replaced, if any, is current again; its turns stay)."""
    mem = open_memory(ctx, db, user_id)
    if not yes and not click.confirm(f"Forget fact #{fact_id}? This cannot be undone", default=False):
        ctx.exit(EXIT_BAD_INPUT)
    _or_exit(ctx, lambda: mem.forget_fact(fact_id))
    console.print(f"forgot fact #{fact_id}")


@store_command(fact, "pin")
@click.argument("fact_id", metavar="ID", type=int)
@click.option("--off", is_flag=True, help="Unpin it.")
def fact_pin(ctx: click.Context, db: str | None, user_id: str | None, fact_id: int, off: bool) -> None:
    """Pin fact ID: pinned facts open `episodic brief`, whatever their age."""
    mem = open_memory(ctx, db, user_id)
    found = _or_exit(ctx, lambda: mem.pin_fact(fact_id, not off))
    console.print(f"{'unpinned' if off else 'pinned'} #{fact_id}: {escape(found.text)}",
                  highlight=False)


@store_command(name="reopen")
@click.argument("loop_id", metavar="ID", type=int)
def loop_reopen(ctx: click.Context, db: str | None, user_id: str | None, loop_id: int) -> None:
    """Open closed loop ID again (see `episodic loops --status closed`)."""
    mem = open_memory(ctx, db, user_id)
    lp = _or_exit(ctx, lambda: mem.reopen_loop(loop_id))
    console.print(f"reopened #{loop_id}: {escape(lp.text)}", highlight=False)


@store_command(name="add")
@click.argument("text")
@click.option("--due", default=None, help='The deadline as you would say it ("by Friday").')
@click.option("--session", "session_id", default="manual", show_default=True, help="The session it belongs to.")
@click.option("--workstream", "workstream_id", type=int, default=None, help="The workstream it belongs to (id).")
def loop_add(ctx: click.Context, db: str | None, user_id: str | None, text: str, due: str | None, session_id: str,
             workstream_id: int | None) -> None:
    """Add an open loop by hand: something left to do."""
    mem = open_memory(ctx, db, user_id)
    lp = _or_exit(ctx, lambda: mem.add_loop(text, due=due, session_id=session_id, workstream_id=workstream_id))
    due_text = f" [dim](due {escape(lp.due)})[/dim]" if lp.due else ""
    console.print(f"added loop #{lp.id}: {escape(lp.text)}{due_text}", highlight=False)
