"""Issue 42, item 4: the MCP server as Claude Desktop uses it, driven over stdio by the SDK's own client.

A conversation ends (`end_session`, an idle time, the server's exit or a signal) and is then consolidated; results
are structured content with an output schema; a bad argument is one plain sentence naming it."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

import jsonschema  # noqa: E402  (a dependency of mcp)
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from episodic_memory import Memory  # noqa: E402
from episodic_memory.config import Config  # noqa: E402

pytestmark = pytest.mark.sqlite_only("the MCP server runs in a child process on a SQLite file")

BOB = "Remind me to call Bob the contractor by Friday."


def server_params(db: Path, **env: str) -> StdioServerParameters:
    """`episodic mcp` as a user's config starts it; only the embedder is off (fast). Consolidation keeps its
    defaults: every 8 turns, in the background."""
    return StdioServerParameters(
        command=sys.executable, args=["-m", "episodic_memory", "mcp", "--db", str(db)],
        env={**os.environ, "EPISODIC_MODELS__EMBEDDER": "off", **env})


def serve(db: Path, scenario: Callable[[ClientSession], Awaitable[None]], **env: str) -> None:
    async def run() -> None:
        async with stdio_client(server_params(db, **env)) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await scenario(session)

    anyio.run(run)


async def call(session: ClientSession, tool: str, **arguments: Any) -> Any:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


def store(db: Path) -> Memory:
    return Memory(db, config=Config(models={"embedder": "off"}))


def test_end_session_makes_the_loop(tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        stored = await call(session, "remember", content=BOB, session_id="k2")
        assert stored["session_id"] == "k2"
        assert await call(session, "loops") == {"loops": []}  # one turn, still open: not consolidated yet
        ended = await call(session, "end_session", session_id="k2")
        assert ended == {"session_id": "k2", "status": "ended", "next_session_id": None}
        (loop,) = (await call(session, "loops"))["loops"]
        assert "call Bob the contractor" in loop["text"] and loop["session_id"] == "k2"

        unknown = await session.call_tool("end_session", {"session_id": "nope"})
        assert unknown.is_error and "no session 'nope'" in unknown.content[0].text

    serve(tmp_path / "m.db", scenario)


def test_end_session_without_an_id_ends_the_runs_session_and_starts_another(tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        nothing = await session.call_tool("end_session", {})
        assert nothing.is_error and "nothing to end" in nothing.content[0].text
        first = (await call(session, "remember", content=BOB))["session_id"]
        ended = await call(session, "end_session")
        assert ended["session_id"] == first and ended["next_session_id"] not in (None, first)
        second = (await call(session, "remember", content="The offsite is in Lisbon."))["session_id"]
        assert second == ended["next_session_id"]

    db = tmp_path / "m.db"
    serve(db, scenario)
    with store(db) as mem:
        assert {s.status for s in mem.sessions()} == {"ended"} and len(mem.sessions()) == 2


def test_the_servers_exit_ends_the_sessions_it_opened(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with store(db) as mem:  # a session of another client, open: not this server's to end
        mem.add_turn("user", "I will send Sarah the deck by Monday.", session_id="other")

    async def scenario(session: ClientSession) -> None:
        await call(session, "remember", content=BOB, session_id="k2")
        await call(session, "remember", content="We decided to use Postgres for the billing service.")
        assert await call(session, "loops") == {"loops": []}

    serve(db, scenario)  # the client closes stdin: the server exits
    with store(db) as mem:
        sessions = {s.session_id: s for s in mem.sessions()}
        assert sessions["k2"].status == "ended" and sessions["other"].status == "open"
        (default,) = [s for s in sessions.values() if s.session_id.startswith("mcp-")]
        assert default.status == "ended"
        facts = mem.session_facts(["k2", default.session_id])
        assert facts["k2"] and facts[default.session_id]
        assert [lp.session_id for lp in mem.loops()] == ["k2"]


def test_an_idle_session_is_ended(tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        first = (await call(session, "remember", content=BOB))["session_id"]
        deadline = time.monotonic() + 30
        while not (await call(session, "loops"))["loops"]:
            assert time.monotonic() < deadline, "the idle session was not ended"
            await anyio.sleep(0.2)
        # the run's session ended: the next turn without a session id starts a new one
        assert (await call(session, "remember", content="Hello again"))["session_id"] != first

    serve(tmp_path / "m.db", scenario, EPISODIC_SERVER__MCP_SESSION_IDLE_S="0.5")


def test_results_are_structured_content_with_an_output_schema(tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert "end_session" in tools
        for tool in tools.values():
            assert tool.output_schema is not None and tool.output_schema["type"] == "object", tool.name
        await call(session, "remember", content=BOB, session_id="k2")
        await call(session, "end_session", session_id="k2")
        judgment = await call(session, "judgment_store", trigger="a flaky test", judgment="quarantine it",
                              reasoning="ship")
        calls = {
            "recall": {"query": "Bob contractor"}, "context": {"message": "When do I call Bob?"},
            "loops": {}, "workstreams": {"include_hypotheses": True}, "brief": {"hours": 48},
            "judgment_search": {"query": "flaky test"},
            "judgment_verify": {"judgment_id": judgment["id"], "adopted": True},
            "forget": {"session_id": "k2"},
        }
        for name, arguments in calls.items():
            result = await session.call_tool(name, arguments)
            assert not result.is_error, (name, result.content)
            data = result.structured_content
            assert isinstance(data, dict), name
            jsonschema.validate(data, tools[name].output_schema)
            text = result.content[0].text
            if name == "context":  # the block itself, for the model to read
                assert text == data["context"] and "Bob" in text
            else:
                assert json.loads(text) == data  # the same JSON as text, for clients that read only text
            assert '"result": "' not in text
        hits = (await call(session, "recall", query="Bob contractor"))["hits"]
        assert hits == []  # forgotten

    serve(tmp_path / "m.db", scenario)


@pytest.mark.parametrize(("tool", "arguments", "sentence"), [
    ("recall", {"query": "Bob", "k": 0}, "k must be at least 1, got 0."),
    ("recall", {"query": "Bob", "k": "ten"}, 'k must be a whole number, got "ten".'),
    ("recall", {}, "query is required."),
    ("forget", {"everything": "yes"}, 'everything must be true or false, got "yes".'),
    ("remember", {"content": "x", "sesion_id": "k2"},
     "sesion_id is not an argument of this tool (it takes content, role, session_id, agent)."),
    ("brief", {"hours": -1}, "hours must be greater than 0, got -1."),
])
def test_a_bad_argument_is_one_plain_sentence_naming_it(tmp_path: Path, tool: str, arguments: dict[str, Any],
                                                       sentence: str) -> None:
    async def scenario(session: ClientSession) -> None:
        result = await session.call_tool(tool, arguments)
        assert result.is_error
        (block,) = result.content
        assert block.text == f"Error executing tool {tool}: {sentence}"
        for internal in ("validation error", "pydantic", "https://", "Strict", "\n"):
            assert internal not in block.text

    serve(tmp_path / "m.db", scenario)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_sessions_and_stops_the_server(tmp_path: Path, signum: int) -> None:
    """A host that stops the server with a signal while stdin is still open (the SDK's client does after 2 s)."""
    db = tmp_path / "m.db"
    params = server_params(db)
    proc = subprocess.Popen([params.command, *params.args], env=params.env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None

    def request(request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method,
                                     "params": params}).encode() + b"\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], 1)[0]:
                message = json.loads(proc.stdout.readline())
                if message.get("id") == request_id:
                    return message
        raise AssertionError(f"no answer to {method}")

    try:
        assert "result" in request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                     "clientInfo": {"name": "host", "version": "1"}})
        proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        proc.stdin.flush()
        reply = request(2, "tools/call", {"name": "remember", "arguments": {"content": BOB, "session_id": "k2"}})
        assert reply["result"]["isError"] is False
        proc.send_signal(signum)
        assert proc.wait(30) == 128 + signum
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with store(db) as mem:
        session = mem.session("k2")
        assert session is not None and session.status == "ended"
        assert [lp.session_id for lp in mem.loops()] == ["k2"]
