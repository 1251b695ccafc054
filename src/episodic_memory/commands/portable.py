"""`episodic export | import | backup`: a store you can take with you (`episodic_memory.portable`)."""

from __future__ import annotations

from pathlib import Path

import click

from ._common import EXIT_BAD_INPUT, db_option, open_memory

_PLURAL = {"entity": "entities", "entity_edge": "entity links", "route_count": "router counts"}


def _summary(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {_PLURAL.get(kind, kind + 's') if n != 1 else kind.replace('_', ' ')}"
                     for kind, n in counts.items() if n) or "nothing"


@click.command("export")
@db_option
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@click.pass_context
def export_command(ctx: click.Context, db: str | None, user_id: str | None, file: str) -> None:
    """Write the store to FILE (JSON Lines; gzip when it ends in .gz).

    \b
    Every user's memories, or one user's with --user ID: turns with all
    their fields, facts with their supersession chains, entities,
    episodes, workstreams, loops, judgments with their verdicts.
    The format is versioned (the header line); `episodic import` reads it.
    """
    user = user_id or ctx.find_root().params.get("user_id")
    mem = open_memory(ctx, db, user)
    counts = mem.export(file, user_id=user, all_users=user is None)
    click.echo(f"exported {_summary(counts)} to {click.format_filename(file)}")


@click.command("import")
@db_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.pass_context
def import_command(ctx: click.Context, db: str | None, user_id: str | None, file: str) -> None:
    """Add the memories of an export FILE to the store.

    \b
    The whole file is checked first: a bad line is reported as
    FILE:LINE: problem and nothing is written (exit 1). Importing a
    file twice adds nothing the second time; what the store already
    holds is kept. Users and ids travel as they are in the file.
    """
    from ..portable import PortableFormatError

    mem = open_memory(ctx, db, user_id)
    try:
        added = mem.import_(file)
    except PortableFormatError as exc:
        click.secho(f"error: {exc}", fg="red", err=True)
        click.secho("nothing was imported", fg="red", err=True)
        ctx.exit(EXIT_BAD_INPUT)
    click.echo(f"imported {_summary(added)} from {click.format_filename(file)}")


@click.command("backup")
@db_option
@click.argument("dest", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace DEST if it exists.")
@click.pass_context
def backup_command(ctx: click.Context, db: str | None, user_id: str | None, dest: str, force: bool) -> None:
    """Copy the whole store to DEST, consistently, while other writers carry on.

    Uses SQLite's online backup API; DEST appears whole or not at all, and opens like any store.
    """
    if Path(dest).exists() and not force:
        raise click.BadParameter(f"{dest} exists (use --force to replace it)", param_hint="DEST")
    mem = open_memory(ctx, db, user_id)
    if Path(dest).expanduser().resolve() == Path(mem.store.path):
        raise click.BadParameter("DEST is the store itself", param_hint="DEST")
    mem.backup(dest)
    click.echo(f"backed up {click.format_filename(mem.path)} to {click.format_filename(dest)}")
