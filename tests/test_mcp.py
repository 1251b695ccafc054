"""The MCP server, spawned as `python -m episodic_memory mcp` and driven over stdio by the SDK's own client."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from episodic_memory import Memory  # noqa: E402
from episodic_memory.config import Config  # noqa: E402

TOOLS = {"remember", "recall", "context", "loops", "workstreams", "brief", "judgment_store", "judgment_search",
         "judgment_verify", "forget", "end_session"}


def server_params(db: Path, *args: str) -> StdioServerParameters:
    # no embedding model (fast); consolidate every 2 turns, inline, so that loops and workstreams are there when
    # the next tool call reads them (in the background they come a moment later: a session still open is not
    # waited for)
    env = {**os.environ, "EPISODIC_MODELS__EMBEDDER": "off", "EPISODIC_DB": str(db), "EPISODIC_CAPTURE__CONSOLIDATE_EVERY": "2",
           "EPISODIC_CAPTURE__CONSOLIDATE_IN_BACKGROUND": "off"}
    return StdioServerParameters(command=sys.executable, args=["-m", "episodic_memory", "mcp", "--db", str(db), *args],
                                 env=env)


def text_of(result: Any) -> str:
    assert not result.is_error, result.content
    return "".join(c.text for c in result.content if c.type == "text")


async def call(session: ClientSession, tool: str, **arguments: Any) -> Any:
    result = await session.call_tool(tool, arguments)
    data = json.loads(text_of(result))
    assert result.structured_content == data  # structured content, and the same JSON as text
    return data


@pytest.mark.sqlite_only("the MCP server runs in a child process on a SQLite file (--store-backend=postgres redirects this process only)")
def test_tools_over_stdio(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"

    async def scenario() -> None:
        async with stdio_client(server_params(db)) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == TOOLS
            for tool in tools.values():
                assert tool.description and tool.input_schema["type"] == "object"
            assert tools["forget"].annotations.destructive_hint is True
            assert "DESTRUCTIVE" in tools["forget"].description
            assert tools["recall"].annotations.read_only_hint is True
            assert set(tools["remember"].input_schema["required"]) == {"content"}

            first = await call(session, "remember", content="Actually the deck needs 14 slides, not 12")
            assert first["session_id"].startswith("mcp-")
            await call(session, "remember", content="I will send Sarah the revised deck by Friday")
            other = await call(session, "remember", content="Our offsite is in Lisbon", session_id="trip",
                               role="assistant")
            assert other["session_id"] == "trip"

            hits = (await call(session, "recall", query="how many slides in the deck", k=3))["hits"]
            assert hits and "14 slides" in hits[0]["text"] and len(hits) <= 3
            bad = await session.call_tool("recall", {"query": "deck", "k": 0})
            assert bad.is_error

            block = text_of(await session.call_tool("context", {"message": "How many slides does the deck need?"}))
            assert "14 slides" in block

            (loop,) = (await call(session, "loops"))["loops"]
            assert "send Sarah the revised deck" in loop["text"] and loop["session_id"] == first["session_id"]
            assert await call(session, "loops", status="closed") == {"loops": []}
            assert await call(session, "workstreams") == {"workstreams": []}  # seen in one session: a hypothesis
            (ws,) = (await call(session, "workstreams", include_hypotheses=True))["workstreams"]
            assert ws["open_loops"] == 1
            brief = await call(session, "brief", hours=48)
            assert [lp["id"] for lp in brief["open_loops"]] == [loop["id"]]
            assert first["session_id"] in {s["session_id"] for s in brief["sessions"]}

            stored = await call(session, "judgment_store", trigger="a flaky test blocks the release",
                                judgment="quarantine it and file an issue", reasoning="shipping beats waiting",
                                domain="release")
            found = (await call(session, "judgment_search", query="flaky test blocking a release"))["judgments"]
            assert found and json.dumps(found).count("quarantine it") >= 1
            verified = await call(session, "judgment_verify", judgment_id=stored["id"], adopted=True)
            assert verified["adopted"] is True
            unknown = await session.call_tool("judgment_verify", {"judgment_id": "nope", "adopted": False})
            assert unknown.is_error and "nope" in text_of_any(unknown)

            resources = (await session.list_resources()).resources
            assert "memory://ongoing-work" in {str(r.uri) for r in resources}
            work = json.loads((await session.read_resource("memory://ongoing-work")).contents[0].text)
            assert [lp["id"] for lp in work["open_loops"]] == [loop["id"]] and work["workstreams"] == []

            refused = await session.call_tool("forget", {})
            assert refused.is_error and "exactly one" in text_of_any(refused)
            gone = await call(session, "forget", session_id="trip")
            assert gone["forgot"]["turns"] == 1
            assert not [h for h in (await call(session, "recall", query="Lisbon offsite"))["hits"]
                        if "Lisbon" in h["text"]]

    anyio.run(scenario)
    # The run's default session was ended (so consolidated) when the server stopped.
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:
        (session,) = [s for s in mem.sessions() if s.session_id.startswith("mcp-")]
        assert session.status == "ended" and session.turn_count == 2
        assert mem.facts()


def text_of_any(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def test_acts_as_one_user(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Memory(db, user_id="bob", config=Config(models={"embedder": "off"})) as mem:
        mem.add_turn("user", "Bob's secret: the vault code is 1234", session_id="b1")

    async def scenario() -> None:
        async with stdio_client(server_params(db, "--user", "alice")) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "remember", content="Alice likes the vault tour", session_id="a1")
            hits = (await call(session, "recall", query="vault code"))["hits"]
            assert hits and {h["user_id"] for h in hits} == {"alice"}
            forgot = await call(session, "forget", everything=True)
            assert forgot["forgot"]["turns"] == 1

    anyio.run(scenario)
    with Memory(db, user_id="bob", config=Config(models={"embedder": "off"})) as mem:
        assert mem.stats()["turns"] == 1
        assert mem.stats(user_id="alice")["turns"] == 0


def test_streamable_http_on_loopback(tmp_path: Path) -> None:
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    params = server_params(tmp_path / "memory.db", "--http", str(port))
    proc = subprocess.Popen([params.command, *params.args], env=params.env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the MCP HTTP server did not start"
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)

        async def scenario() -> None:
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams, \
                    ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                assert {t.name for t in (await session.list_tools()).tools} == TOOLS
                await call(session, "remember", content="The offsite moved to Porto", session_id="s1")
                hits = (await call(session, "recall", query="where is the offsite"))["hits"]
                assert "Porto" in hits[0]["text"]

        anyio.run(scenario)
    finally:
        proc.terminate()
        proc.wait(20)
