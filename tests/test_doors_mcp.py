"""Issue 18 at the MCP door (items 4 and 14), in process through the server's own tool dispatch: strict booleans,
unknown arguments refused by name, an empty session id refused, no traceback at shutdown after forgetting."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402

from episodic_memory import Config, Memory  # noqa: E402
from episodic_memory.server.mcp_server import MemoryTools, create_server  # noqa: E402


@pytest.fixture
def tools(tmp_path: Path) -> Iterator[MemoryTools]:
    tools = MemoryTools(Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})))
    yield tools
    tools.memory.close()


def call(tools: MemoryTools, tool: str, **arguments: Any) -> Any:
    server = create_server(tools)
    result = anyio.run(server.call_tool, tool, arguments)
    assert not result.is_error, result.content
    return json.loads("".join(c.text for c in result.content if c.type == "text"))


def refused(tools: MemoryTools, tool: str, **arguments: Any) -> str:
    with pytest.raises(ToolError) as caught:
        call(tools, tool, **arguments)
    return str(caught.value)


def turns(tools: MemoryTools) -> int:
    return int(tools.memory.stats()["turns"])


@pytest.mark.parametrize("loose", ["yes", 1, 0, "1", None, [True]])
def test_destructive_and_recorded_flags_take_true_or_false_only(tools: MemoryTools, loose: object) -> None:
    call(tools, "remember", content="Our offsite is in Lisbon", session_id="trip")
    stored = call(tools, "judgment_store", trigger="a flaky test", judgment="quarantine it", reasoning="ship")
    assert "everything" in refused(tools, "forget", everything=loose)
    assert "adopted" in refused(tools, "judgment_verify", judgment_id=stored["id"], adopted=loose)
    assert "include_hypotheses" in refused(tools, "workstreams", include_hypotheses=loose)
    assert "use_utility" in refused(tools, "judgment_search", query="flaky test", use_utility=loose)
    assert turns(tools) == 1
    assert tools.memory.judgments.get(stored["id"]).adopted == 0
    assert call(tools, "judgment_verify", judgment_id=stored["id"], adopted=True)["adopted"] is True


@pytest.mark.parametrize(("tool", "arguments"), [
    ("forget", {"everythin": True}),
    ("forget", {"session_id": "trip", "user_id": "bob"}),
    ("remember", {"content": "x", "sesion_id": "trip"}),
    ("recall", {"query": "Lisbon", "limit": 3}),
])
def test_unknown_arguments_are_refused_by_name(tools: MemoryTools, tool: str, arguments: dict[str, Any]) -> None:
    call(tools, "remember", content="Our offsite is in Lisbon", session_id="trip")
    unknown = next(name for name in arguments if name not in ("content", "session_id", "query", "everything"))
    message = refused(tools, tool, **arguments)
    assert f"{unknown} is not an argument of this tool" in message and "pydantic" not in message
    assert turns(tools) == 1


def test_the_input_schemas_say_no_other_arguments(tools: MemoryTools) -> None:
    listed = anyio.run(create_server(tools).list_tools)
    assert listed and all(t.input_schema.get("additionalProperties") is False for t in listed)


@pytest.mark.parametrize("blank", ["", "  "])
def test_an_empty_session_id_is_refused_not_the_default_session(tools: MemoryTools, blank: str) -> None:
    assert "session_id must be a non-empty string" in refused(tools, "remember", content="x", session_id=blank)
    assert "session_id must be a non-empty string" in refused(tools, "forget", session_id=blank)
    assert turns(tools) == 0 and not tools.default_session_used


def test_no_traceback_at_shutdown_after_forgetting_everything(
        tools: MemoryTools, caplog: pytest.LogCaptureFixture) -> None:
    call(tools, "remember", content="remember me")  # the run's default session
    assert call(tools, "forget", everything=True)["forgot"]["turns"] == 1
    with caplog.at_level(logging.WARNING):
        tools.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_default_session_forgotten_elsewhere_is_no_traceback_at_shutdown(
        tools: MemoryTools, caplog: pytest.LogCaptureFixture) -> None:
    call(tools, "remember", content="remember me")
    tools.memory.forget(user_id=tools.memory.user_id)  # as another process would
    with caplog.at_level(logging.WARNING):
        tools.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
