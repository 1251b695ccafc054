"""`episodic vault export DIR`: the memories as an Obsidian-friendly markdown vault (`episodic_memory.vault`)."""

from __future__ import annotations

import click

from ._common import fail, open_memory, store_command


@click.group()
def vault() -> None:
    """The memories as a folder of markdown notes (Obsidian-friendly).

    Set EPISODIC_STORE__VAULT_DIR (Config.store.vault_dir) to keep <dir>/<user>/ in sync after every consolidation.
    """


@store_command(vault, "export")
@click.argument("folder", type=click.Path(file_okay=False))
def vault_export(ctx: click.Context, db: str | None, user_id: str | None, folder: str) -> None:
    """Write the user's memories to FOLDER: a note per workstream, per entity and per day, and Home.md.

    \b
    Run it again to bring the notes up to date: unchanged notes are not
    touched, notes with nothing left to say are removed, and files the
    vault did not write are never overwritten.
    """
    from ..vault import VaultError

    mem = open_memory(ctx, db, user_id)
    try:
        report = mem.write_vault(folder)
    except VaultError as exc:
        fail(ctx, str(exc))
    click.echo(f"vault {click.format_filename(folder)}: {len(report.written)} note(s) written, "
                  f"{len(report.unchanged)} unchanged, {len(report.removed)} removed")
