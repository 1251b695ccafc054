"""`episodic config`: every setting in effect, and where its value came from.

Two families of settings exist: the library's (`Config`, ``EPISODIC_<FIELD>``) and the server's (`ServerLimits`,
``EPISODIC_SERVER_<FIELD>``). A value comes from its default or from the environment; `--changed` shows only the
ones that differ from the defaults, `--markdown` prints the table of docs/config.md (every setting, its default and
what it does).
"""

from __future__ import annotations

import inspect
import json
import os
import re
from dataclasses import MISSING, dataclass, fields
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from ..config import Config
from ._common import console


@dataclass(frozen=True)
class Setting:
    family: str          # library | server
    name: str
    value: Any
    default: Any         # as declared (a server limit of 0 is worked out from the machine: its value says how)
    env: str             # the environment variable that sets it
    source: str          # "default" or the environment variable it was read from
    description: str


def _server_descriptions() -> dict[str, str]:
    """ServerLimits documents each field in a comment on its line: read them from the source."""
    from ..server.limits import ServerLimits

    out: dict[str, str] = {}
    for line in inspect.getsource(ServerLimits).splitlines():
        if m := re.match(r"\s+(\w+): [^=]+=[^#]*#\s*(.+)$", line):
            out[m.group(1)] = m.group(2).strip()
    return out


def settings() -> list[Setting]:
    """Every setting with its effective value (defaults, then the environment, as `from_env` reads them)."""
    # the server's module pulls in asyncio: read only when asked (`episodic brief` starts without it)
    from ..server.limits import ENV_PREFIX as SERVER_ENV_PREFIX
    from ..server.limits import ServerLimits

    config, limits = Config.from_env(), ServerLimits.from_env()
    out = []
    for name, field in Config.model_fields.items():
        env = f"EPISODIC_{name.upper()}"
        default = field.get_default(call_default_factory=True)
        out.append(Setting("library", name, getattr(config, name), default, env,
                           env if env in os.environ else "default", field.description or ""))
    described = _server_descriptions()
    for f in fields(ServerLimits):
        env = SERVER_ENV_PREFIX + f.name.upper()
        default = None if f.default is MISSING else f.default   # as declared: 0 is "worked out from the cores"
        out.append(Setting("server", f.name, getattr(limits, f.name), default, env,
                           env if env in os.environ else "default", described.get(f.name, "")))
    return out


def markdown(rows: list[Setting]) -> str:
    """The settings table of docs/config.md: every setting, its environment variable, default and description."""
    lines = ["| setting | environment variable | default | what it does |", "|---|---|---|---|"]
    for s in rows:
        lines.append(f"| `{s.name}` | `{s.env}` | `{s.default!r}` | {s.description.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


@click.command("config")
@click.option("--changed", is_flag=True, help="Only the settings this environment sets.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--markdown", "as_markdown", is_flag=True, help="Print every setting's default and description as "
              "the Markdown table of docs/config.md.")
def config_command(changed: bool, as_json: bool, as_markdown: bool) -> None:
    """The settings in effect and where each came from (its default, or an EPISODIC_* environment variable).

    \b
    episodic config --changed          what this environment sets
    EPISODIC_CONSOLIDATE_EVERY=4 episodic config --changed
    """
    try:
        rows = settings()
    except ValueError as exc:   # pydantic's ValidationError too: it names the field and the value
        raise click.ClickException(f"a setting in the environment is not valid: {exc}") from None
    if as_markdown:
        click.echo(markdown(rows), nl=False)
        return
    if changed:
        rows = [s for s in rows if s.source != "default"]
    if as_json:
        click.echo(json.dumps([{"family": s.family, "name": s.name, "value": s.value, "default": s.default,
                                "source": s.source} for s in rows], indent=2, default=str))
        return
    table = Table(show_edge=False, pad_edge=False)
    for column in ("setting", "value", "source"):
        table.add_column(column)
    for s in rows:
        source = "[dim]default[/dim]" if s.source == "default" else escape(s.source)
        prefix = "server." if s.family == "server" else ""
        table.add_row(escape(prefix + s.name), escape(repr(s.value)), source)
    console.print(table)
    if changed and not rows:
        console.print("[dim]every setting is at its default[/dim]")
