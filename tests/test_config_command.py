"""`episodic config`: every setting in effect and where it came from; docs/config.md is its table. And the nested
`Config`: groups, ``EPISODIC_<GROUP>__<FIELD>``, the flat names of earlier releases as deprecated aliases."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from episodic_memory import Config
from episodic_memory.cli import main
from episodic_memory.commands.settings import markdown, settings
from episodic_memory.config import GROUPS, LEGACY_NAMES
from episodic_memory.server.limits import server_limits

DOCS = Path(__file__).resolve().parents[1] / "docs" / "config.md"


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in [k for k in os.environ if k.startswith("EPISODIC_")]:
        monkeypatch.delenv(name)
    return monkeypatch


def test_the_environment_is_named_as_the_source_of_what_it_sets(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("EPISODIC_CAPTURE__CONSOLIDATE_EVERY", "4")
    clean_env.setenv("EPISODIC_SERVER__WORKERS", "3")
    result = CliRunner().invoke(main, ["config", "--changed", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert set(rows) == {"capture.consolidate_every", "server.workers"}
    assert rows["capture.consolidate_every"] == {"name": "capture.consolidate_every", "value": 4, "default": 8,
                                                 "source": "EPISODIC_CAPTURE__CONSOLIDATE_EVERY"}
    assert rows["server.workers"]["value"] == 3 and rows["server.workers"]["source"] == "EPISODIC_SERVER__WORKERS"


def test_every_setting_is_listed_once_with_its_effective_value(clean_env: pytest.MonkeyPatch) -> None:
    rows = settings()
    assert [s.name for s in rows] == [f"{g}.{n}" for g, cls in GROUPS.items() for n in cls.model_fields]
    assert all(s.source == "default" and s.value == s.default for s in rows)
    assert all(s.description for s in rows), [s.name for s in rows if not s.description]
    result = CliRunner().invoke(main, ["config", "--changed"])
    assert result.exit_code == 0 and "every setting is at its default" in result.output


def test_a_bad_value_in_the_environment_names_the_variable(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("EPISODIC_CAPTURE__CONSOLIDATE_EVERY", "often")
    result = CliRunner().invoke(main, ["config"])
    assert result.exit_code == 1
    assert "EPISODIC_CAPTURE__CONSOLIDATE_EVERY" in result.output and "often" in result.output


def test_docs_config_md_is_the_commands_table(clean_env: pytest.MonkeyPatch) -> None:
    """A setting added to the code and not to docs/config.md fails here: regenerate the table with
    `episodic config --markdown`."""
    table = markdown(settings())
    assert DOCS.read_text(encoding="utf-8").endswith(table)
    for group, cls in GROUPS.items():
        for name in cls.model_fields:
            assert f"| `{group}.{name}` |" in table


def test_groups_are_set_by_keyword_by_dotted_name_and_from_the_environment(clean_env: pytest.MonkeyPatch) -> None:
    config = Config(capture={"consolidate_every": 4}, retrieval={"rrf_k": 30})
    assert (config.capture.consolidate_every, config.retrieval.rrf_k) == (4, 30)
    assert config.capture.fsync_journal is True  # the rest of the group keeps its defaults
    changed = config.replace({"retrieval.rrf_k": 7}, inject={"max_memories": 2})
    assert (changed.retrieval.rrf_k, changed.inject.max_memories, changed.capture.consolidate_every) == (7, 2, 4)
    assert config.retrieval.rrf_k == 30  # a copy
    clean_env.setenv("EPISODIC_RETRIEVAL__RRF_K", "11")
    clean_env.setenv("EPISODIC_SERVER__ALLOWED_HOSTS", "a.example, b.example:8443")
    from_env = Config.from_env({"capture.consolidate_every": 5})
    assert from_env.retrieval.rrf_k == 11 and from_env.capture.consolidate_every == 5
    assert from_env.server.allowed_hosts == ["a.example", "b.example:8443"]
    assert Config().retrieval.rrf_k == 15  # Config() reads no environment
    with pytest.raises(ValueError, match="no_such_knob"):
        config.replace({"retrieval.no_such_knob": 1})
    with pytest.raises(ValueError, match="unknown setting 'nowhere.rrf_k'"):
        config.replace({"nowhere.rrf_k": 1})
    with pytest.raises(ValueError):
        Config(capture={"no_such_knob": 1})


def test_flat_names_of_earlier_releases_work_with_a_deprecation_warning(clean_env: pytest.MonkeyPatch) -> None:
    with pytest.deprecated_call(match="capture.consolidate_every"):
        config = Config(consolidate_every=4)
    with pytest.deprecated_call(match="llm.backend"):
        config = config.replace(llm="none")
    assert config.capture.consolidate_every == 4 and config.llm.backend == "none"
    with pytest.deprecated_call(match="currency.pool"):
        assert config.currency_pool == config.currency.pool
    clean_env.setenv("EPISODIC_CURRENCY_POOL", "3")
    clean_env.setenv("EPISODIC_SERVER_WORKERS", "5")         # the server's variables of earlier releases
    with pytest.warns(DeprecationWarning) as caught:
        from_env = Config.from_env()
    assert {"currency.pool", "server.workers"} <= {str(w.message).split(" it is ")[1].split()[0] for w in caught}
    assert from_env.currency.pool == 3 and from_env.server.workers == 5
    clean_env.setenv("EPISODIC_CURRENCY__POOL", "4")          # the new name wins over the old
    with pytest.deprecated_call():
        assert Config.from_env().currency.pool == 4
    # every flat name of the last release maps to a field that exists
    for flat, (group, name) in LEGACY_NAMES.items():
        assert name in GROUPS[group].model_fields, flat


def test_one_recall_embedding_cap_in_one_place() -> None:
    """recall_embed_max_items was 256 in Config and 4 in the server's limits: one setting now, whose unset
    default differs by where it runs."""
    assert Config().retrieval.embed_first() == 256 and Config().retrieval.embed_first(server=True) == 4
    set_once = Config(retrieval={"recall_embed_max_items": 9}).retrieval
    assert set_once.embed_first() == set_once.embed_first(server=True) == 9


def test_server_limits_are_the_server_group_worked_out_for_the_machine(clean_env: pytest.MonkeyPatch) -> None:
    limits = server_limits(Config(server={"workers": 2}).server)
    assert limits.workers == 2 and limits.max_inflight == 16 and limits.per_client_running == 1
    assert server_limits(Config().server, workers=5).workers == 5  # an explicit value beats the config
    clean_env.setenv("EPISODIC_SERVER__MAX_INFLIGHT", "7")
    assert server_limits().max_inflight == 7
    with pytest.raises(ValueError):
        Config(server={"background_share": 0})
