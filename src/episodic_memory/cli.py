"""The `episodic` command line."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import click
from rich.markup import escape
from rich.table import Table

from . import __version__
from .commands._common import (
    COUNT,
    EXIT_BAD_INPUT,
    age,
    console,
    db_option,
    dump,
    fail,
    given_user,
    listed,
    open_memory,
    store_command,
)
from .commands.edits import fact, loop_add, loop_reopen, session_turns, show
from .commands.facts import entities, facts, history, profile
from .commands.hooks import hook, hooks
from .commands.judge import judge
from .commands.pg import pg
from .commands.portable import backup_command, export_command, import_command, migrate_command
from .commands.server import mcp_command, serve, token, ui
from .commands.settings import config_command
from .commands.threads import brief, loop, loops, print_loops, workstreams
from .commands.vault import vault
from .config import DEFAULT_USER
from .ingest import ParsedFile, parse_file, sample_path
from .memory import Memory
from .retrieve.hit import Hit
from .store import explain, failed_store_errors
from .util import has_words

if TYPE_CHECKING:
    from rich.progress import Progress


def print_hits(hits: list[Hit], replies: dict[str, str] | None = None) -> None:
    """Each hit on a line; under a short reply, the turn it answers (`inject.replies`)."""
    if not hits:
        console.print("[dim]no memories matched[/dim]")
        return
    for hit in hits:
        who = hit.said_by()
        label, text = hit.kind, hit.text
        if hit.kind == "turn" and hit.role:
            label = f"turn · {hit.role}"
        if hit.kind == "fact":  # its type, and when the value it replaced stopped being true
            label = f"fact · {hit.details.get('type')}"
            previous = hit.details.get("previous")
            if previous and previous.get("until") and text.endswith(f"(previously: {previous['value']})"):
                text = text[: -1] + f", until {previous['until'][:10]})"
        kind, _, number = hit.id.partition(":")  # "turn:6": `episodic show 6`; "fact:3": `episodic history 3`
        ref = f"[dim]#{escape(number)}[/dim] " if number and kind in ("turn", "fact") else ""
        console.print(f"[bold cyan]\\[{escape(label)}][/bold cyan] {ref}{escape(who + text)}  "
                      f"[dim]({age(hit.timestamp)})[/dim]", highlight=False)
        if replies and hit.id in replies:
            console.print(f"  [dim]↳ {escape(replies[hit.id])}[/dim]", highlight=False)


class Episodic(click.Group):
    """The command group; a store that cannot be opened or read is one line and exit 1, not a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except failed_store_errors() as exc:
            raise click.ClickException(explain(ctx.meta.get("episodic.db", "the store"), exc)) from None


@click.group(cls=Episodic, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="episodic")
@db_option
def main(db: str | None, user_id: str | None) -> None:
    """Long-term memory for AI agents, in one SQLite file.

    \b
    Start here:
      episodic demo                      ingest the bundled sample and recall from it
      episodic ingest chat.jsonl         store a transcript (JSON Lines: role, content, ...)
      episodic recall "deck slides"      what do I remember about it?
      episodic stats                     what is in the store

    The store is $EPISODIC_DB or a file in your user data directory; --db PATH picks another.
    """


@store_command(main)
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--skip-bad", is_flag=True, help="Store the good lines of a file and list the bad ones.")
@click.option("--keep-open", is_flag=True, help="Do not end (consolidate) the ingested sessions.")
def ingest(ctx: click.Context, db: str | None, user_id: str | None, files: tuple[str, ...], skip_bad: bool,
           keep_open: bool) -> None:
    """Store conversation transcripts from JSON Lines FILES (- reads standard input).

    \b
    One turn a line: {"role": "user", "content": "..."} (role: user,
    assistant, system or tool) with optional
    session_id, timestamp (ISO-8601), speaker (or name), id, user_id.
    A file that opens with [ is one JSON array of such objects instead.
    A file without session ids is one session named after the file.
    A bad line stops that file: nothing from it is stored (exit 1),
    unless --skip-bad, which stores the good lines and lists the bad ones.
    Turns whose id is already stored in their session are skipped, so re-ingesting is safe.
    """
    for path in files:
        if path != "-" and Path(path).is_dir():
            raise click.BadParameter(f"{path}: is a directory (give the .jsonl files in it)", param_hint="FILES")
        if path != "-" and not Path(path).is_file():
            raise click.BadParameter(f"{path}: no such file", param_hint="FILES")
    mem = open_memory(ctx, db, user_id)
    started = time.perf_counter()
    totals: _Totals = {"turns": 0, "skipped": 0, "sessions": set(), "bad": 0}
    failed = False
    stdin = sys.stdin.buffer.read() if "-" in files else None
    for path in files:
        try:
            parsed = parse_file(path, stdin=stdin, max_turn_chars=mem.config.capture.max_turn_chars)
        except OSError as exc:
            click.secho(f"error: {path}: {exc.strerror or exc}", fg="red", err=True)
            failed = True
            continue
        if not parsed.turns and not parsed.bad:
            click.secho(f"error: {parsed.source}: no turns (the file holds none)", fg="red", err=True)
            failed = True
            continue
        if parsed.bad:
            totals["bad"] += len(parsed.bad)
            for bad in parsed.bad:
                click.secho(f"error: {bad}", fg="red", err=True)
            if not skip_bad:
                click.secho(f"{parsed.source}: {len(parsed.bad)} bad line(s); nothing from this file was stored "
                            "(use --skip-bad to store the good lines)", fg="red", err=True)
                failed = True
                continue
        _store_file(mem, parsed, totals)
    if not keep_open:
        for user, session_id in sorted(totals["sessions"]):
            mem.end_session(session_id, user_id=user)
    seconds = time.perf_counter() - started
    if failed and not totals["turns"] and not totals["skipped"]:  # nothing stored: the errors say why, no more
        ctx.exit(EXIT_BAD_INPUT)
    console.print(f"ingested {totals['turns']} turn(s) in {len(totals['sessions'])} session(s) "
                  f"in {seconds:.2f}s" + (f", {totals['skipped']} already stored" if totals["skipped"] else "")
                  + (f", {totals['bad']} bad line(s) skipped" if totals["bad"] and skip_bad else ""))
    if totals["turns"]:  # the turns are durable; consolidation has been running beside the ingest
        mem.wait_for_consolidation()
        _report_consolidation(mem, totals["sessions"], time.perf_counter() - started)
    if failed:
        ctx.exit(EXIT_BAD_INPUT)


def _report_consolidation(mem: Memory, sessions: set[tuple[str, str]], seconds: float) -> None:
    """"consolidated in 0.45s", or which sessions wait for the LLM and when it is asked again."""
    waiting = [s for u, s in sorted(sessions) if (info := mem.store.session(u, s)) is not None
               and info.needs_consolidation and info.consolidated_turns < info.turn_count]
    if not waiting:
        console.print(f"consolidated in {seconds:.2f}s")
        return
    outage = mem.llm_outage()
    why = f": {outage.reason}; {outage.retry_note()}" if outage is not None else ""
    console.print(f"consolidation of {len(waiting)} session(s) is postponed{escape(why)} (the turns are stored and "
                  "searchable; the next `ingest` or `add` retries it)", highlight=False)


class _Totals(TypedDict):
    turns: int
    skipped: int
    sessions: set[tuple[str, str]]  # (user, session)
    bad: int


def _progress(disable: bool) -> Progress:
    """A progress bar (rich.progress is imported here: most commands never show one)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console, disable=disable, transient=True)


def _store_file(mem: Memory, parsed: ParsedFile, totals: _Totals, batch: int = 256) -> None:
    fresh = mem.unseen_turns(parsed.turns)
    totals["skipped"] += len(parsed.turns) - len(fresh)
    show = console.is_terminal and len(fresh) > batch
    with _progress(disable=not show) as progress:
        task = progress.add_task(f"ingesting {parsed.source}", total=len(fresh))
        for i in range(0, len(fresh), batch):
            chunk = fresh[i : i + batch]
            mem.add_turns(chunk)
            progress.advance(task, len(chunk))
    totals["turns"] += len(fresh)
    totals["sessions"].update((t.get("user_id") or mem.user_id, t["session_id"]) for t in fresh)


@store_command(main)
@click.argument("query")
@click.option("-k", "k", default=10, show_default=True, type=COUNT, help="How many memories.")
@click.option("--session", "session_id", default=None, help="Only this session.")
@click.option("--kind", default=None, help="Only this kind of memory (turn, fact, ...).")
@click.option("--since", default=None, metavar="ISO", help="Only memories from this time on.")
@click.option("--until", default=None, metavar="ISO", help="Only memories up to this time.")
@click.option("--as-of", "as_of", default=None, metavar="ISO", help="Answer with what was believed at this time.")
@click.option("--now", default=None, metavar="ISO",
              help="The time the question is asked: recency and \"last week\" count from it (default: now, or --as-of).")
@click.option("--source", default=None, help="Only turns from this source (and what was distilled from them).")
@click.option("--tag", "tags", multiple=True, metavar="TAG", help="Only turns with this tag (repeat: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of hits.")
def recall(ctx: click.Context, db: str | None, user_id: str | None, query: str, k: int, session_id: str | None,
           kind: str | None, since: str | None, until: str | None, as_of: str | None, now: str | None,
           source: str | None, tags: tuple[str, ...], as_json: bool) -> None:
    """Recall the memories most relevant to QUERY."""
    if not has_words(query):
        raise click.BadParameter("has nothing to search for: give at least one letter or digit", param_hint="QUERY")
    mem = open_memory(ctx, db, user_id, reads=True)
    try:
        hits = mem.recall(query, k=k, session_id=session_id, kind=kind, since=since, until=until, as_of=as_of,
                          source=source, tags=tags, now=now)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if as_json:
        dump([h.to_dict() for h in hits])
    else:
        from .inject import replies  # imported here: `brief` and `stats` load nothing heavy

        print_hits(hits, replies(mem, hits, mem.user_id))


@store_command(main)
@click.argument("content")
@click.option("--role", default="user", show_default=True, help="Who spoke: user, assistant, ...")
@click.option("--session", "session_id", default=None, metavar="ID", help="The session (default: cli-YYYY-MM-DD, UTC).")
@click.option("--speaker", default=None, help="The speaker's name.")
@click.option("--source", default=None, help="Where the turn came from (telegram, cli, ...).")
@click.option("--tag", "tags", multiple=True, metavar="TAG", help="A tag (repeat for more).")
@click.option("--end", "end_session", is_flag=True, help="End (consolidate) the session afterwards.")
def add(ctx: click.Context, db: str | None, user_id: str | None, content: str, role: str, session_id: str | None,
        speaker: str | None, source: str | None, tags: tuple[str, ...], end_session: bool) -> None:
    """Store one turn, CONTENT (journaled and fsynced before this returns); prints its id."""
    session = session_id or time.strftime("cli-%Y-%m-%d", time.gmtime())
    mem = open_memory(ctx, db, user_id)
    try:
        turn_id = mem.add_turn(role, content, session_id=session, speaker=speaker, source=source, tags=tags or None)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    if end_session:
        mem.end_session(session)
    click.echo(f"{turn_id} {session}")


@store_command(main)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def stats(ctx: click.Context, db: str | None, user_id: str | None, as_json: bool) -> None:
    """What is in the store."""
    data = open_memory(ctx, db, user_id, reads=True).stats()
    if as_json:
        dump(data)
        return
    table = Table(show_header=False, box=None)
    for key, value in data.items():
        table.add_row(f"[bold]{key}[/bold]", escape(str(value)))
    console.print(table)


@store_command(main)
@click.argument("session_id", required=False)
@click.option("-n", "--limit", default=None, type=COUNT, help="At most this many, newest first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def sessions(ctx: click.Context, db: str | None, user_id: str | None, session_id: str | None, limit: int | None,
             as_json: bool) -> None:
    """The sessions in the store, newest first; with SESSION_ID, that session's turns."""
    if session_id is not None:
        session_turns(ctx, db, user_id, session_id, as_json)
        return
    rows = open_memory(ctx, db, user_id, reads=True).sessions(limit=limit)
    if listed(rows, as_json, "no sessions"):
        return
    table = Table("session", "status", "turns")
    for name in ("first turn (UTC)", "last turn (UTC)"):  # "2026-11-02 10:00": whole on one line, even at 80 columns
        table.add_column(name, no_wrap=True, min_width=16)
    for s in rows:
        d = s.to_dict()
        table.add_row(escape(s.session_id), s.status, str(s.turn_count), _minute(d["started_at"]),
                      _minute(d["last_turn_at"]))
    console.print(table)


def _minute(iso: str | None) -> str:
    """'2026-11-02T10:00:00+00:00' -> '2026-11-02 10:00' (the sessions table's times, UTC)."""
    return (iso or "")[:16].replace("T", " ")


@store_command(main)
@click.option("--session", "session_id", default=None, help="Forget one session (of --user, default 'default').")
@click.option("--all", "everything", is_flag=True, help="Forget every memory of every user.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def forget(ctx: click.Context, db: str | None, user_id: str | None, session_id: str | None, everything: bool,
           yes: bool) -> None:
    """Delete memories for good: rows, search index, journals; then scrub the file.

    \b
    episodic forget --session ID      one session
    episodic forget --user ID         everything of one user
    episodic forget --all             everything
    """
    # all of a user only by `forget --user ID`: a `--user` given before the command picks whose session, no more
    whole_user = user_id if not session_id else None
    if sum((bool(session_id), everything, whole_user is not None)) != 1:
        hint = ""
        if not session_id and not everything and ctx.find_root().params.get("user_id"):
            hint = " (a --user before the command does not choose what to forget: `forget --user ID` does)"
        raise click.UsageError(f"say what to forget: exactly one of --session ID, --user ID or --all{hint}")
    user = given_user(ctx, user_id) or DEFAULT_USER
    what = ("everything, of every user" if everything else f"session {session_id!r} of user {user!r}" if session_id
            else f"all of user {user!r}")
    mem = open_memory(ctx, db, user_id)
    if session_id and mem.store.session(user, session_id) is None:  # nothing to forget: say so
        fail(ctx, f"no session {session_id!r} for user {user!r} (see `episodic sessions`)")
    if yes:
        click.echo(f"forgetting {what} in {mem.path}", err=True)  # --yes asks nothing: still say whose data goes
    elif not click.confirm(f"Forget {what} in {mem.path}? This cannot be undone", default=False):
        ctx.exit(EXIT_BAD_INPUT)
    if everything:
        result = mem.forget(all=True)
    elif session_id:
        result = mem.forget(session_id=session_id, user_id=user)
    else:
        result = mem.forget(user_id=user)
    console.print(f"forgot {what}: {result['turns']} turn(s), {result['sessions']} session(s)")
    if not result.get("scrubbed", 1):
        click.echo("warning: another process held a read transaction, so the deleted bytes may still be in "
                   f"{mem.path}'s write-ahead log; the scrub is retried at the next open", err=True)


@store_command(main)
def reindex(ctx: click.Context, db: str | None, user_id: str | None) -> None:
    """Embed every memory with the current embedding model, then drop other models' vectors.

    Run it after changing the embedder (Config.models.embedder / EPISODIC_MODELS__EMBEDDER); `episodic stats` shows
    stale vectors when it is needed. Recall keeps working meanwhile (BM25 plus whatever is embedded).
    """
    mem = open_memory(ctx, db, user_id)
    embedder = mem.embedder()
    if embedder is None:
        raise click.UsageError("no embedder is available (EPISODIC_MODELS__EMBEDDER is off or the model failed to load)")
    total = mem.indexer.pending()
    with _progress(disable=not console.is_terminal) as progress:
        task = progress.add_task(f"embedding with {embedder.model_id}", total=total)
        done = mem.reindex(progress=lambda n: progress.advance(task, n))
    console.print(f"embedded {done} memories with {escape(embedder.model_id)}")


@main.command()
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="Keep the demo store here (default: a temporary folder, removed afterwards).")
@click.option("-q", "--query", "queries", multiple=True, help="Ask this instead of the built-in questions.")
def demo(db: str | None, queries: tuple[str, ...]) -> None:
    """Ingest the bundled sample conversation and recall from it (no keys, no network)."""
    from .inject import replies

    with tempfile.TemporaryDirectory(prefix="episodic-demo-") as tmp:
        path = db or str(Path(tmp) / "memory.db")
        with Memory(path) as mem:
            parsed = parse_file(str(sample_path()))
            started = time.perf_counter()
            mem.add_turns(mem.unseen_turns(parsed.turns))
            for session_id in dict.fromkeys(t["session_id"] for t in parsed.turns):
                mem.end_session(session_id)
            took = time.perf_counter() - started
            s = mem.stats()
            console.print(f"[bold]Ingested the sample conversation:[/bold] {s['turns']} turns in {s['sessions']} "
                          f"sessions ({took:.2f}s) into {escape(path)}\n")
            for query in queries or ("How many slides does the Series B deck need?",
                                     "When is the Airflow cutover?",
                                     "What does Maya prefer for formatting?"):
                console.print(f"[bold]recall[/bold] {escape(query)}")
                hits = mem.recall(query, k=3)
                print_hits(hits, replies(mem, hits))
                console.print()
            console.print("[bold]Where were we?[/bold] (episodic loops)")
            print_loops(mem)


for command in (mcp_command, serve, ui, token, judge, pg, hooks, hook, config_command, export_command,
                import_command, backup_command, migrate_command, vault, facts, history, entities, profile,
                loops, workstreams, loop, brief, show, fact):
    main.add_command(command)
loop.add_command(loop_reopen)
loop.add_command(loop_add)


if __name__ == "__main__":  # pragma: no cover
    main()
