"""`episodic hooks install claude-code` and `episodic hook EVENT`: the memory of a coding agent, through its
harness's hooks (docs/hooks.md). The event handling (integrations/claude_code.py, which loads the injector) is
imported only when `hook` runs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.markup import escape

from ..config import DEFAULT_USER, Config, default_db_path
from ..integrations.claude_code_io import log_line, state_dir
from ..integrations.claude_code_settings import (
    SettingsError,
    hook_commands,
    install,
    settings_path,
    uninstall,
)
from ._common import console, db_option, fail, given_user


@click.group("hooks")
def hooks() -> None:
    """Give a coding agent this memory through its harness's hooks (Claude Code)."""


@hooks.command("install")
@click.argument("harness", type=click.Choice(["claude-code"]))
@click.option("--user", "scope", flag_value="user", default=True,
              help="For every project: ~/.claude/settings.json (the default).")
@click.option("--project", "scope", flag_value="project",
              help="For the project in this folder: .claude/settings.local.json (this machine's, not committed).")
@click.option("--uninstall", "remove", is_flag=True, help="Remove exactly the entries this installs; nothing else changes.")
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="The store the hooks use (default: $EPISODIC_DB as set now, else the default store).")
@click.option("--server", default=None, metavar="URL",
              help="Talk to a running `episodic serve` at URL (fast); the store is opened only when it does not "
                   "answer. A token, if it needs one: $EPISODIC_HOOKS__SERVER_TOKEN in the harness's environment.")
@click.pass_context
def install_command(ctx: click.Context, harness: str, scope: str, remove: bool, db: str | None,
                    server: str | None) -> None:
    """Write the hook entries into Claude Code's settings (merged with what is there; running it again changes
    nothing): SessionStart, UserPromptSubmit, Stop, SessionEnd and PreCompact each run `episodic hook EVENT`.

    \b
    episodic hooks install claude-code                 every project (~/.claude/settings.json)
    episodic hooks install claude-code --project       this project (.claude/settings.local.json)
    episodic hooks install claude-code --uninstall     take them out again
    """
    path = settings_path(scope)
    where = f"{path} ({'user' if scope == 'user' else 'project'} settings)"
    try:
        if remove:
            change = uninstall(path)
            console.print(f"removed {change.removed} hook entr{'y' if change.removed == 1 else 'ies'} of episodic "
                          f"from {escape(where)}" if change.removed else
                          f"no hook entries of episodic in {escape(where)}: nothing changed", highlight=False)
            return
        config = Config.from_env()
        store = _store(ctx, db)
        entries = hook_commands(hook_timeout_s=config.hooks.timeout_s, end_timeout_s=config.hooks.end_timeout_s,
                                db=store, user=ctx.find_root().params.get("user_id"), server=server)
        change = install(path, entries)
    except (SettingsError, OSError) as exc:
        fail(ctx, str(exc))
    if not change.changed:
        console.print(f"the hooks are already in {escape(where)}: nothing changed", highlight=False)
        return
    done = [f"added {', '.join(change.added)}"] if change.added else []
    done += [f"updated {', '.join(change.updated)}"] if change.updated else []
    console.print(f"{'; '.join(done)} in {escape(where)}", highlight=False)
    console.print(f"  each runs: {escape(entries['UserPromptSubmit']['command'])}", highlight=False)
    console.print(f"  store: {escape(store or str(default_db_path()))}"
                  + (f"; server: {escape(server)} (the store when it does not answer)" if server else ""),
                  highlight=False)
    console.print(f"  log: {escape(str(state_dir(config.hooks.state_dir) / 'hooks.log'))}", highlight=False)
    console.print("Start a new Claude Code session (or review them in /hooks) for them to take effect. "
                  f"Undo: episodic hooks install claude-code --{scope} --uninstall", highlight=False)


def _store(ctx: click.Context, db: str | None) -> str | None:
    """The store to name in the commands: --db (here or before the command) or $EPISODIC_DB as set now, made
    absolute (the harness runs hooks from the project's folder); None for the default store."""
    value = db or ctx.find_root().params.get("db") or os.environ.get("EPISODIC_DB")
    if not value:
        return None
    return value if "://" in value else str(Path(value).expanduser().resolve())


@click.command("hook")
@click.argument("event", metavar="EVENT")
@db_option
@click.pass_context
def hook(ctx: click.Context, db: str | None, user_id: str | None, event: str) -> None:
    """Handle one Claude Code hook EVENT, reading the event's JSON on standard input as the harness sends it:
    SessionStart, UserPromptSubmit, Stop, SessionEnd or PreCompact (`episodic hooks install claude-code` sets
    them up). Prints the answer for the harness, or nothing. It never fails: a busy, missing or broken store
    gives an empty answer within Config.hooks.timeout_s and a line in the hook log; the exit code is 0."""
    from ..integrations.claude_code import run

    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        config = Config.from_env()
    except ValueError as exc:  # a bad EPISODIC_* variable: say so in the log, answer nothing
        log_line(state_dir(), event, None, f"configuration: {exc}")
        return
    path = db or ctx.find_root().params.get("db") or str(default_db_path())
    result = run(event, raw, db=path, user_id=given_user(ctx, user_id) or DEFAULT_USER, config=config)
    if result.text:
        click.echo(result.text)
    if not result.finished:  # the work is still going in a thread: the harness gets its answer now
        sys.stdout.flush()
        os._exit(0)
