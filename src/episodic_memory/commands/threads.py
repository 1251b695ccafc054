"""`episodic loops | workstreams | loop close | brief`: where were we?"""

from __future__ import annotations

import click
from rich.markup import escape

from ..brief import ago, group_loops
from ..memory import Memory
from ..store.records import LOOP_STATUSES, Loop, Workstream
from ._common import ROW_ID, console, dump, fail, listed, open_memory, store_command


def _header(name: str, ws: Workstream | None) -> str:
    if ws is None:
        return f"[bold]▸ {escape(name)}[/bold]  [dim](not yet part of a confirmed workstream)[/dim]"
    return f"[bold]▸ {escape(name)}[/bold]  ({ws.status}, {ws.facts} fact{'' if ws.facts == 1 else 's'})"


def _loop_line(lp: Loop) -> str:
    state = ""
    if lp.status == "closed":
        state = f" [green]✓ closed {ago(lp.closed_at)}[/green]" + (f" — {escape(lp.evidence)}" if lp.evidence else "")
    return f"  · {escape(lp.text)}  [dim]#{lp.id} · {ago(lp.created_at)}[/dim]{state}"


@store_command()
@click.option("--status", type=click.Choice(LOOP_STATUSES), default="open", show_default=True,
              help="Which loops.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def loops(ctx: click.Context, db: str | None, user_id: str | None, status: str, as_json: bool) -> None:
    """Open loops — what was left to do — by workstream.

    \b
    ▸ Series B deck  (confirmed, 9 facts)
      · sensitivity table still pending sign-off  #3 · 2d ago
    Close one by hand with `episodic loop close ID`.
    """
    mem = open_memory(ctx, db, user_id, reads=True)
    if as_json:
        dump([lp.to_dict() for lp in mem.loops(status=status)])
        return
    print_loops(mem, status)


def print_loops(mem: Memory, status: str = "open") -> None:
    """Loops grouped under their workstreams, in the `episodic loops` shape."""
    found = mem.loops(status=status)
    if not found:
        console.print(f"[dim]no {'' if status == 'all' else status + ' '}loops[/dim]")
        return
    by_id = {w.id: w for w in mem.workstreams()}
    for i, (ws_id, name, group) in enumerate(group_loops(found)):
        if i:
            console.print()
        console.print(_header(name, by_id.get(ws_id) if ws_id is not None else None), highlight=False)
        for lp in group:
            console.print(_loop_line(lp), highlight=False)


@store_command()
@click.option("--all", "include_hypotheses", is_flag=True,
              help="Include hypotheses (workstreams only one session has touched so far).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def workstreams(ctx: click.Context, db: str | None, user_id: str | None, include_hypotheses: bool,
                as_json: bool) -> None:
    """Threads of work across sessions, most recently active first."""
    found = open_memory(ctx, db, user_id, reads=True).workstreams(include_hypotheses=include_hypotheses)
    if listed(found, as_json, "no confirmed workstreams yet (a workstream is confirmed when a second session joins "
                              "it; --all shows hypotheses)"):
        return
    for w in found:
        console.print(f"[bold cyan]#{w.id}[/bold cyan] [bold]{escape(w.name)}[/bold]  [dim]({w.status}, "
                      f"{w.sessions} sessions, {w.facts} facts, {w.open_loops} open loops, "
                      f"last active {ago(w.last_activity)})[/dim]", highlight=False)
        if w.keyphrases:
            console.print(f"    [dim]{escape(', '.join(w.keyphrases))}[/dim]", highlight=False)


@click.group()
def loop() -> None:
    """Act on one open loop."""


@store_command(loop, "close")
@click.argument("loop_id", metavar="ID", type=ROW_ID)
@click.option("--note", default=None, help="Why it is closed (kept with the loop).")
def close(ctx: click.Context, db: str | None, user_id: str | None, loop_id: int, note: str | None) -> None:
    """Close loop ID by hand (see `episodic loops` for the ids)."""
    mem = open_memory(ctx, db, user_id)
    before = mem.store.loops(mem.user_id, "all", ids=[loop_id])
    if before and before[0].status == "closed":
        lp = before[0]
        how = "by hand" if lp.closed_by == "user" else f"({lp.closed_by})"
        console.print(f"#{lp.id} was already closed {how}, {ago(lp.closed_at)}: {escape(lp.text)}", highlight=False)
        return
    try:
        lp = mem.close_loop(loop_id, note=note)
    except KeyError:
        fail(ctx, f"no loop #{loop_id} for user {mem.user_id!r} (see `episodic loops --status all`)")
    how = "by hand" if lp.closed_by == "user" else f"earlier ({lp.closed_by})"
    console.print(f"closed #{lp.id} {how}: {escape(lp.text)}", highlight=False)


@store_command()
@click.option("--hours", default=24.0, show_default=True, type=click.FloatRange(min=0, min_open=True),
              help="How far back the briefing looks.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def brief(ctx: click.Context, db: str | None, user_id: str | None, hours: float, as_json: bool) -> None:
    """The startup briefing: recent sessions, decisions, corrections, open loops, active workstreams."""
    result = open_memory(ctx, db, user_id, reads=True).brief(hours=hours)
    if as_json:
        dump(result.to_dict())
    else:
        console.print(result.render(markup=True), highlight=False)
