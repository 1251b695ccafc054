"""`episodic config`: every setting in effect and where it came from; docs/config.md is its table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config
from episodic_memory.cli import main
from episodic_memory.commands.settings import markdown, settings
from episodic_memory.server.limits import ServerLimits

DOCS = Path(__file__).resolve().parents[1] / "docs" / "config.md"


def test_the_environment_is_named_as_the_source_of_what_it_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_CONSOLIDATE_EVERY", "4")
    monkeypatch.setenv("EPISODIC_SERVER_WORKERS", "3")
    result = CliRunner().invoke(main, ["config", "--changed", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert set(rows) == {"consolidate_every", "workers"}
    assert rows["consolidate_every"] == {"family": "library", "name": "consolidate_every", "value": 4, "default": 8,
                                         "source": "EPISODIC_CONSOLIDATE_EVERY"}
    assert rows["workers"]["value"] == 3 and rows["workers"]["source"] == "EPISODIC_SERVER_WORKERS"


def test_every_setting_is_listed_once_with_its_effective_value(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [k for k in __import__("os").environ if k.startswith("EPISODIC_")]:
        monkeypatch.delenv(name)
    rows = settings()
    library = [s for s in rows if s.family == "library"]
    server = [s for s in rows if s.family == "server"]
    assert [s.name for s in library] == list(Config.model_fields)
    assert {s.name for s in server} == set(ServerLimits.__dataclass_fields__)
    assert all(s.source == "default" for s in rows)
    assert all(s.value == s.default for s in library)
    assert all(s.description for s in rows), [s.name for s in rows if not s.description]
    result = CliRunner().invoke(main, ["config", "--changed"])
    assert result.exit_code == 0 and "every setting is at its default" in result.output


def test_a_bad_value_in_the_environment_names_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_CONSOLIDATE_EVERY", "often")
    result = CliRunner().invoke(main, ["config"])
    assert result.exit_code == 1 and "consolidate_every" in result.output and "often" in result.output


def test_docs_config_md_is_the_commands_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting added to the code and not to docs/config.md fails here: regenerate the table with
    `episodic config --markdown`."""
    for name in [k for k in __import__("os").environ if k.startswith("EPISODIC_")]:
        monkeypatch.delenv(name)
    table = markdown(settings())
    assert DOCS.read_text(encoding="utf-8").endswith(table)
    for name in [*Config.model_fields, *ServerLimits.__dataclass_fields__]:
        assert f"| `{name}` |" in table
