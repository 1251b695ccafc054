"""`episodic mcp`, `episodic serve` and `episodic token ...`: the agent-facing servers and their API tokens.
The servers (the `server` extra) are imported only when their command runs: the core CLI works without them.
"""

from __future__ import annotations

import importlib
import json
import shlex
from collections.abc import Callable
from contextlib import closing
from types import ModuleType
from typing import TYPE_CHECKING

import click
from click.decorators import FC

from ..config import DEFAULT_USER
from ..util import MAX_INT
from ._common import db_path_option, given_user, store_path

if TYPE_CHECKING:
    from ..server.tokens import TokenStore

EXTRA_HINT = 'pip install ".[server]" (in a checkout of episodic-memory-layer)'


def _server_module(name: str) -> ModuleType:
    """Import `episodic_memory.server.<name>`, or explain that the `server` extra is missing."""
    try:
        return importlib.import_module(f"episodic_memory.server.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("episodic_memory"):
            raise click.ClickException(
                f"this command needs the server extra ({exc.name} is not installed): {EXTRA_HINT}") from None
        raise


def _tokens(path: str) -> closing[TokenStore]:
    """The API tokens of the store at `path`, closed at the end of a `with`."""
    from ..server.tokens import TokenStore

    return closing(TokenStore.open(path))


def _agent_options(who: str) -> Callable[[FC], FC]:
    """`--read-agent` and `--write-agent`: the agent scopes `who` may read, and write, besides the user's."""
    def add(fn: FC) -> FC:
        fn = click.option("--write-agent", "write_agents", multiple=True, metavar="NAME",
                          help=f"An agent scope {who} may write, forget and read (repeat for more).")(fn)
        return click.option("--read-agent", "read_agents", multiple=True, metavar="NAME",
                            help=f"An agent scope {who} may read besides the user's (repeat for more).")(fn)

    return add


@click.command("mcp")
@db_path_option
@click.option("--user", "user_id", default=None, metavar="ID", help=f"Act as this user (default: {DEFAULT_USER!r}).")
@click.option("--http", "http_port", type=click.IntRange(1, 65535), default=None, metavar="PORT",
              help="Serve streamable HTTP on 127.0.0.1:PORT instead of stdio.")
@_agent_options("the tools")
@click.pass_context
def mcp_command(ctx: click.Context, db: str | None, user_id: str | None, http_port: int | None,
                read_agents: tuple[str, ...], write_agents: tuple[str, ...]) -> None:
    """Run the MCP server (stdio, for Claude Desktop / Claude Code and other MCP hosts).

    \b
    Tools: remember, end_session, recall, context, loops, workstreams,
    brief, judgment_store, judgment_search, judgment_verify, forget.
    Resource: memory://ongoing-work. It acts as one user (--user).
    """
    mcp_server = _server_module("mcp_server")
    if http_port is not None:
        click.echo(f"MCP server (streamable HTTP) on http://127.0.0.1:{http_port}/mcp", err=True)
    mcp_server.run(store_path(ctx, db), user_id=given_user(ctx, user_id) or DEFAULT_USER, http_port=http_port,
                   read_agents=read_agents, write_agents=write_agents)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@db_path_option
@click.option("--no-auth", is_flag=True,
              help="No tokens: every caller acts as --user (loopback only; for local single-user use).")
@click.option("--user", "user_id", default=None, metavar="ID",
              help=f"With --no-auth: the user every request acts as (default: {DEFAULT_USER!r}).")
@click.option("--threads", type=click.IntRange(1, 1024), default=None, metavar="N",
              help="Threads running requests (default: 4 per core, at least 8; $EPISODIC_SERVER__WORKERS).")
@click.option("--processes", type=click.IntRange(0, 256), default=None, metavar="N",
              help="Server processes sharing the port: a process uses about one core (Python's GIL); each loads its "
                   "own embedder (its RAM, N times) and has its own --threads and --max-inflight (default: 1; 0: one "
                   "per core; $EPISODIC_SERVER__PROCESSES). See docs/server.md.")
@click.option("--max-inflight", type=click.IntRange(1, 1 << 20), default=None, metavar="N",
              help="Requests under way (running or waiting) past which a request gets 429 + Retry-After "
                   "(default: 8 per thread; $EPISODIC_SERVER__MAX_INFLIGHT).")
@click.option("--access-log/--no-access-log", default=None,
              help="A log line per request (off by default: it costs time, and a recall's line holds its query).")
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME[:PORT]",
              help="Answer requests for this Host too (repeat; '*': any). By default only the address a request "
                   "came in on and, on loopback, localhost / 127.0.0.1 / ::1 are answered; any other Host gets 421 "
                   "(DNS rebinding). Also $EPISODIC_SERVER__ALLOWED_HOSTS (comma-separated).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, db: str | None, no_auth: bool, user_id: str | None,
          threads: int | None, processes: int | None, max_inflight: int | None, access_log: bool | None,
          allowed_hosts: tuple[str, ...]) -> None:
    """Run the REST API (FastAPI; OpenAPI at /docs). Requests need a bearer token: episodic token create."""
    rest = _server_module("rest")
    limits_module = _server_module("limits")
    auth = not no_auth
    try:
        limits = limits_module.server_limits(workers=threads, processes=processes, max_inflight=max_inflight,
                                             access_log=access_log)
        rest.check_host(host, auth)
    except (ValueError, TypeError) as exc:
        raise click.UsageError(str(exc)) from None
    path, user = store_path(ctx, db), given_user(ctx, user_id) or DEFAULT_USER
    if no_auth:
        click.secho(f"WARNING: --no-auth: NO AUTHENTICATION. Anything that can reach {host}:{port} reads, writes and "
                    f"deletes the memories of user {user!r} in {path}. Use only for local single-user work.",
                    fg="red", bold=True, err=True)
    else:
        with _tokens(path) as store:
            live = [t for t in store.list() if not t.revoked]
            users = store.store.users()  # whose memories the store holds: whom a token should act as
        db_flag = f" --db {shlex.quote(path)}" if ctx.meta.get("episodic.db_given") == "--db" else ""
        if not live:
            click.secho("no API tokens yet: every request will get 401. " + _token_hint(users, db_flag), fg="yellow",
                        err=True)
        elif users and not {t.user_id for t in live} & set(users):
            click.secho(f"no API token acts as a user with memories here ({_names(users)}): the inspector and the "
                        "API will show nothing. " + _token_hint(users, db_flag), fg="yellow", err=True)
        if not rest.is_loopback(host):
            click.secho(f"serving on {host} beyond loopback: tokens travel in plain HTTP; put TLS in front.",
                        fg="yellow", err=True)
    if host in ("0.0.0.0", "::") and not allowed_hosts:
        click.secho("serving on every interface: requests naming this machine by a name (not by its address) get "
                    "421 unless the name is given with --allowed-host NAME.", fg="yellow", err=True)
    if port:
        click.echo(f"memory inspector: http://{host}:{port}/  (API docs: /docs)", err=True)
    try:
        rest.serve(path, host=host, port=port, auth=auth, user_id=user, limits=limits, allowed_hosts=allowed_hosts)
    except _server_module("processes").ServerFailed as exc:  # --processes: a child failed to start, or kept dying
        raise click.ClickException(str(exc)) from None


def _names(users: list[str], most: int = 5) -> str:
    """"'default'", "'alice', 'bob'", "'a', 'b', 'c', 'd', 'e' and 3 more"."""
    shown = ", ".join(repr(u) for u in users[:most])
    return shown + (f" and {len(users) - most} more" if len(users) > most else "")


def _token_hint(users: list[str], db: str = "") -> str:
    """How to make the token that shows this store's memories: for its user, named when it has one, on this
    store (`db`: " --db PATH" when the store was not the default one)."""
    if not users:
        return f"Create one with `episodic token create --user NAME{db}`."
    name = users[0] if len(users) == 1 else "NAME"
    whose = f"user {users[0]!r}" if len(users) == 1 else f"users {_names(users)}"
    return f"The memories here belong to {whose}: create a token with `episodic token create --user {name}{db}`."


def _reachable(host: str) -> str:
    """The name to reach a server bound to `host` at: a wildcard (0.0.0.0, ::) is reached on loopback, which the
    server answers (a request with Host 0.0.0.0 would be a foreign Host to it, 421); an IPv6 literal in brackets."""
    if host in ("", "0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


@click.command("ui")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface of the server.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port of the server.")
@db_path_option
@click.option("--no-auth", is_flag=True, help="Start the server without tokens (loopback only), as `serve --no-auth`.")
@click.option("--user", "user_id", default=None, metavar="ID", help="With --no-auth: the user to act as.")
@click.option("--no-browser", is_flag=True, help="Print the address instead of opening a browser.")
@click.pass_context
def ui(ctx: click.Context, host: str, port: int, db: str | None, no_auth: bool, user_id: str | None,
       no_browser: bool) -> None:
    """Open the memory inspector in a browser: the running server's at --host:--port, or start one (as `serve`)."""
    import threading
    import time
    import webbrowser

    import httpx

    url = f"http://{_reachable(host)}:{port}/"

    def running() -> bool:
        try:
            return httpx.get(url + "v1/health", timeout=0.5).status_code == 200
        except httpx.HTTPError:
            return False

    def show() -> None:
        if no_browser or not webbrowser.open(url):
            click.echo(f"memory inspector: {url}", err=True)

    if running():
        show()
        return

    def when_up() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if running():
                show()
                return
            time.sleep(0.2)

    threading.Thread(target=when_up, daemon=True).start()
    ctx.invoke(serve, host=host, port=port, db=db, no_auth=no_auth, user_id=user_id)


@click.group("token")
def token() -> None:
    """Bearer tokens for the REST API (stored hashed; a token is shown once)."""


@token.command("create")
@db_path_option
@click.option("--user", "user_id", default=None, metavar="NAME", help="The user the token acts as (required).")
@click.option("--label", default=None, help="A note to tell tokens apart (e.g. the app using it).")
@_agent_options("its requests")
@click.pass_context
def token_create(ctx: click.Context, db: str | None, user_id: str | None, label: str | None,
                 read_agents: tuple[str, ...], write_agents: tuple[str, ...]) -> None:
    """Make a token for --user NAME; it is printed on the last line, and never again."""
    user = given_user(ctx, user_id)
    if not user:
        raise click.UsageError("say whose token it is: --user NAME")
    with _tokens(store_path(ctx, db)) as store:
        try:
            secret, record = store.create(user, label, read_agents=read_agents, write_agents=write_agents)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--user / --read-agent / --write-agent") from None
    agents = "".join(f"; {what} agents {', '.join(names)}" for what, names in
                     (("reads", record.read_agents), ("writes", record.write_agents)) if names)
    click.echo(f"token {record.id} for user {user!r}{agents} (store it now: it is not shown again):", err=False)
    click.echo(secret)


@token.command("list")
@db_path_option
@click.option("--user", "user_id", default=None, metavar="NAME", help="Only this user's tokens.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def token_list(ctx: click.Context, db: str | None, user_id: str | None, as_json: bool) -> None:
    """The tokens in the store (ids, users, labels, last use; never the tokens themselves)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    with _tokens(store_path(ctx, db)) as store:
        records = store.list(given_user(ctx, user_id))
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in records], indent=2))
        return
    if not records:
        click.echo("no tokens")
        return
    table = Table("id", "user", "label", "agents", "created", "last used", "status")
    for r in records:
        d = r.to_dict()
        agents = " ".join([*(f"r:{a}" for a in r.read_agents), *(f"w:{a}" for a in r.write_agents)])
        table.add_row(str(r.id), escape(r.user_id), escape(r.label or ""), escape(agents), d["created_at"][:19],
                      (d["last_used"] or "never")[:19], "revoked" if r.revoked else "active")
    Console().print(table)


@token.command("revoke")
@db_path_option
@click.argument("token_id", type=click.IntRange(1, MAX_INT))
@click.pass_context
def token_revoke(ctx: click.Context, db: str | None, token_id: int) -> None:
    """Revoke token TOKEN_ID (see `episodic token list`); it stops working at once."""
    with _tokens(store_path(ctx, db)) as store:
        try:
            record = store.revoke(token_id)
        except KeyError:
            raise click.BadParameter(f"no token with id {token_id}", param_hint="TOKEN_ID") from None
    click.echo(f"revoked token {record.id} of user {record.user_id!r}")
