"""`episodic export | import | backup`: a store you can take with you (`episodic_memory.portable`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..util import check_id
from ._common import EXIT_BAD_INPUT, given_user, open_memory, store_command

_PLURAL = {"entity": "entities", "entity_edge": "entity links", "route_count": "router counts"}


def _summary(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {_PLURAL.get(kind, kind + 's') if n != 1 else kind.replace('_', ' ')}"
                     for kind, n in counts.items() if n) or "nothing"


@store_command(name="export")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
def export_command(ctx: click.Context, db: str | None, user_id: str | None, file: str) -> None:
    """Write the store to FILE (JSON Lines; gzip when it ends in .gz).

    \b
    Every user's memories, or one user's with --user ID: turns with all
    their fields, facts with their supersession chains, entities,
    episodes, workstreams, loops, judgments with their verdicts.
    The format is versioned (the header line); `episodic import` reads it.
    """
    user = given_user(ctx, user_id)
    mem = open_memory(ctx, db, user, existing=True)  # a mistyped --db is an error, not an empty export
    counts = mem.export(file, user_id=user, all_users=user is None)
    click.echo(f"exported {_summary(counts)} to {click.format_filename(file)}")


@store_command(name="import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def import_command(ctx: click.Context, db: str | None, user_id: str | None, file: str) -> None:
    """Add the memories of an export FILE to the store.

    \b
    The whole file is checked first, every field by the rules
    `episodic add` applies: a bad line is reported as FILE:LINE: problem
    and nothing is written (exit 1). Importing a file twice adds nothing
    the second time; what the store already holds is kept. Users and ids
    travel as they are in the file; with --user ID a file of one user is
    imported as ID (a copy beside the original, if the store has it).
    """
    from ..portable import PortableFormatError

    user = given_user(ctx, user_id)
    if user is not None:
        try:
            check_id(user, "--user")
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--user") from None
    mem = open_memory(ctx, db, user)
    try:
        added = mem.import_(file, user_id=user)
    except PortableFormatError as exc:
        click.secho(f"error: {exc}", fg="red", err=True)
        click.secho("nothing was imported", fg="red", err=True)
        ctx.exit(EXIT_BAD_INPUT)
    click.echo(f"imported {_summary(added)} from {click.format_filename(file)}")


@store_command(name="backup")
@click.argument("dest", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace DEST if it exists.")
def backup_command(ctx: click.Context, db: str | None, user_id: str | None, dest: str, force: bool) -> None:
    """Copy the whole store to DEST, consistently, while other writers carry on.

    Uses SQLite's online backup API; DEST appears whole or not at all, and opens like any store.
    """
    if Path(dest).exists() and not force:
        raise click.BadParameter(f"{dest} exists (use --force to replace it)", param_hint="DEST")
    mem = open_memory(ctx, db, user_id, existing=True)  # a mistyped --db is an error, not an empty backup
    try:
        mem.backup(dest)  # refuses the store itself and each of its files (-wal, -shm, journals, …)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="DEST") from None
    click.echo(f"backed up {click.format_filename(mem.path)} to {click.format_filename(dest)}")


@click.command("migrate")
@click.option("--from", "source", required=True, metavar="STORE", help="The store to copy: a file or postgresql://…")
@click.option("--to", "dest", required=True, metavar="STORE", help="Where to copy it: a file or postgresql://…")
@click.option("--check", "sample", type=click.IntRange(0, 10_000), default=20, show_default=True,
              help="Turns recalled in both stores to check the copy.")
@click.pass_context
def migrate_command(ctx: click.Context, source: str, dest: str, sample: int) -> None:
    """Copy a whole store to another: SQLite to PostgreSQL, or back.

    \b
    Every user's turns, facts with their histories, entities, episodes,
    workstreams, loops and judgments travel (through the export format);
    the destination embeds them with its own model. Then every user's
    counts are compared and a sample of turns is recalled in both stores.
    Exit 1 when the check finds a difference. The source is left as it is.
    """
    from ..migrate import migrate

    if source == dest:
        raise click.BadParameter("--from and --to are the same store", param_hint="--to")
    if "://" not in source and not Path(source).expanduser().is_file():
        raise click.BadParameter(f"{source}: no such file", param_hint="--from")
    report = migrate(source, dest, sample=sample, say=lambda line: click.echo(line, err=True))
    click.echo(f"migrated {report.users} user(s): {_summary(report.added)} added")
    for line in report.mismatches:
        click.secho(f"count differs: {line}", fg="red", err=True)
    click.echo(f"recall check: {report.recall_agreed}/{report.recall_checked} turns come back first in both")
    for line in report.recall_misses:
        click.secho(f"recall differs: {line}", fg="red", err=True)
    if not report.ok:
        ctx.exit(EXIT_BAD_INPUT)
