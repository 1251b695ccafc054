"""`episodic config`: every setting in effect, and where its value came from (its default or the environment
variable that set it); `--markdown` prints the table of docs/config.md."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from ..config import ENV_NESTED, ENV_PREFIX, GROUPS, Config, environment
from ._common import console


@dataclass(frozen=True)
class Setting:
    name: str            # group.field
    value: Any
    default: Any         # as declared (a server limit of 0 is worked out from the machine: its description says how)
    env: str             # the environment variable that sets it
    source: str          # "default" or the environment variable it was read from
    description: str


def settings() -> list[Setting]:
    """Every setting with its effective value (defaults, then the environment, as `Config.from_env` reads them)."""
    config = Config.from_env()
    _, origin = environment()
    out = []
    for group, cls in GROUPS.items():
        for name, field in cls.model_fields.items():
            dotted = f"{group}.{name}"
            out.append(Setting(dotted, config.get(dotted), field.get_default(call_default_factory=True),
                               f"{ENV_PREFIX}{group.upper()}{ENV_NESTED}{name.upper()}",
                               origin.get(dotted, "default"), field.description or ""))
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
    EPISODIC_CAPTURE__CONSOLIDATE_EVERY=4 episodic config --changed
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
        click.echo(json.dumps([{"name": s.name, "value": s.value, "default": s.default,
                                "source": s.source} for s in rows], indent=2, default=str))
        return
    table = Table("setting", "value", "source", show_edge=False, pad_edge=False)
    for s in rows:
        source = "[dim]default[/dim]" if s.source == "default" else escape(s.source)
        if s.source not in ("default", s.env):
            source += f" [yellow](deprecated: {escape(s.env)})[/yellow]"
        table.add_row(escape(s.name), escape(repr(s.value)), source)
    console.print(table)
    if changed and not rows:
        console.print("[dim]every setting is at its default[/dim]")
