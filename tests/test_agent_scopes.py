"""Agent scopes (issue 46 item 3): memory an agent shares across the users it serves, on both backends and at every
door (Memory, REST, MCP, the token CLI)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from click.testing import CliRunner

from episodic_memory import Memory
from episodic_memory.cli import main
from episodic_memory.config import Config
from episodic_memory.server.tokens import TokenStore
from episodic_memory.store.records import NewLoop

pytestmark = pytest.mark.both_backends

CFG = Config(models={"embedder": "off", "reranker": ""})


def memory(db: Path | str, **kw: Any) -> Memory:
    return Memory(db, config=CFG, **kw)


def seed(db: Path | str) -> None:
    """An agent's lesson, judgment and turn; each of two users' own memories."""
    with memory(db, agent="support") as bot:
        bot.add_fact("Refund requests over 500 dollars go to a human reviewer", type="decision")
        bot.add_turn("assistant", "Lesson: confirm the refund order number first", session_id="ops")
        bot.judgments.store("refund request over 500 dollars", "escalate to a human", "the refund policy")
    for user in ("alice", "bob"):
        with memory(db, user_id=user) as mem:
            mem.add_turn("user", f"{user} asks about a refund for a blender", session_id="s1")


def add_loops(db: Path | str) -> None:
    """An open loop in the agent's scope and in each user's (stored as consolidation stores them)."""
    for owner, kw in (("agent:support", {"agent": "support"}), ("alice", {"user_id": "alice"}),
                      ("bob", {"user_id": "bob"})):
        with memory(db, **kw) as mem:
            session = "ops" if owner.startswith("agent:") else "s1"
            mem.store.insert_loop(NewLoop(user_id=owner, session_id=session, workstream_id=None,
                                          text=f"follow up on the refund ({owner})", due=None, detector="rules",
                                          source_ids=[], origin=f"test:{owner}", created_at=time.time()))


def scopes(hits: list[Any]) -> set[str]:
    return {h.details["scope"] for h in hits}


def test_an_agent_scope_is_shared_by_the_users_allowed_to_read_it(db_path: Path) -> None:
    seed(db_path)
    for user in ("alice", "bob"):
        with memory(db_path, user_id=user) as mem:
            hits = mem.recall("refund", agents=["support"])
            assert scopes(hits) == {"user", "agent:support"}
            assert {h.kind for h in hits if h.details["scope"] == "agent:support"} >= {"fact", "turn", "judgment"}
            assert not any("bob" in h.text for h in hits) if user == "alice" else True  # never the other user
            assert scopes(mem.recall("refund")) == {"user"}  # not asked for: not read
            assert [f.user_id for f in mem.facts(agents=["support"])] == ["agent:support"]
            assert mem.facts() == []
            found = mem.search_judgments("refund over 500", agents=["support"])
            assert [(r.scope, r.judgment) for r in found] == [("agent:support", "escalate to a human")]
            assert mem.search_judgments("refund over 500") == []


def test_the_lists_merge_the_agents_scopes_too(db_path: Path) -> None:
    seed(db_path)
    add_loops(db_path)
    with memory(db_path, user_id="alice") as mem:
        assert [lp.user_id for lp in mem.loops()] == ["alice"]
        assert sorted(lp.user_id for lp in mem.loops(agents=["support"])) == ["agent:support", "alice"]
        assert len(mem.loops(agents=["support"], limit=1)) == 1
        assert mem.workstreams(agents=["support"], include_hypotheses=True) == []  # nothing consolidated yet
        assert mem.list_judgments() == []
        assert [(j.scope, j.judgment) for j in mem.list_judgments(agents=["support"])] == [
            ("agent:support", "escalate to a human")]
        merged = mem.brief(agents=["support"])
        assert merged.user_id == "alice"
        assert {(s["scope"], s["session_id"]) for s in merged.sessions} == {("user", "s1"), ("agent:support", "ops")}
        assert [d["scope"] for d in merged.decisions] == ["agent:support"]
        assert {lp.user_id for lp in merged.open_loops} == {"alice", "agent:support"}
        assert [s["session_id"] for s in mem.brief().sessions] == ["s1"] and mem.brief().decisions == []


def test_an_agent_scope_cannot_be_reached_as_a_user(db_path: Path) -> None:
    seed(db_path)
    with pytest.raises(ValueError, match="reserved for agent scopes"):
        memory(db_path, user_id="agent:support")
    with memory(db_path, user_id="alice") as mem:
        for call in (lambda: mem.recall("refund", user_id="agent:support"),
                     lambda: mem.facts(user_id="agent:support"),
                     lambda: mem.add_turn("user", "x", session_id="s", user_id="agent:support"),
                     lambda: mem.forget(user_id="agent:support")):
            with pytest.raises(ValueError, match="reserved"):
                call()
        with pytest.raises(TypeError):
            mem.recall("refund", agents="support")  # a bare string would be a list of letters
    with pytest.raises(ValueError, match="reserved"):
        TokenStore(memory(db_path).store).create("agent:support")


def test_forget_reaches_each_scope_on_its_own(db_path: Path) -> None:
    seed(db_path)
    with memory(db_path, user_id="alice") as alice:
        alice.forget(agent="support")
        assert scopes(alice.recall("refund", agents=["support"])) == {"user"}
        assert alice.search_judgments("refund over 500", agents=["support"]) == []
    with memory(db_path, user_id="bob") as bob:
        assert scopes(bob.recall("refund", agents=["support"])) == {"user"}
    seed(db_path)
    with memory(db_path, user_id="alice") as alice:
        alice.forget(user_id="alice")
        assert scopes(alice.recall("refund", agents=["support"])) == {"agent:support"}
    with memory(db_path, agent="support") as bot:
        bot.forget(agent="support", session_id="ops")  # one session of the scope
        assert {h.kind for h in bot.recall("refund order number")} <= {"fact", "judgment"}
        assert bot.facts()


# --- REST ---------------------------------------------------------------------------------------------------------
def token(db: Path | str, user: str, *flags: str) -> str:
    result = CliRunner().invoke(main, ["token", "create", "--user", user, "--db", str(db), *flags],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout.strip().splitlines()[-1]


@pytest.fixture
def rest(db_path: Path) -> Iterator[tuple[str, Path]]:
    pytest.importorskip("fastapi")
    from episodic_memory.server.rest import create_app
    from tests.fakes import HashingEmbedder
    from tests.test_rest import serving

    seed(db_path)
    add_loops(db_path)
    with serving(create_app(db_path, config=Config(models={"embedder": "off"}, capture={"consolidate_every": 4}),
                            embedder=HashingEmbedder())) as url:
        yield url, db_path


def client(url: str, secret: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secret}"}, timeout=30)


def test_rest_tokens_carry_the_agent_scopes_they_may_read_and_write(rest: tuple[str, Path]) -> None:
    url, db = rest
    plain = client(url, token(db, "alice"))
    reader = client(url, token(db, "bob", "--read-agent", "support"))
    writer = client(url, token(db, "carol", "--write-agent", "support"))
    agent = {"agent": "support"}
    agents = {"agents": "support"}
    reads = [("GET", "/v1/recall", {"q": "refund"}), ("GET", "/v1/facts", {}), ("GET", "/v1/sessions", {}),
             ("GET", "/v1/sessions/ops/turns", {}), ("GET", "/v1/judgments", {"q": "refund over 500"}),
             ("GET", "/v1/judgments", {}), ("GET", "/v1/loops", {}), ("GET", "/v1/workstreams", {}),
             ("GET", "/v1/brief", {}), ("GET", "/v1/stats", {})]
    # a token without the agent: 403 at every route that names it, and nothing of it where none is named
    for method, path, params in reads:
        assert plain.request(method, path, params={**params, **agent}).status_code == 403, path
    for path, params in (("/v1/recall", {"q": "refund"}), ("/v1/facts", {}), ("/v1/judgments", {"q": "refund"})):
        assert plain.get(path, params={**params, **agents}).status_code == 403, path
    body = plain.get("/v1/recall", params={"q": "refund"}).json()
    assert {h["details"]["scope"] for h in body["hits"]} == {"user"}
    assert plain.get("/v1/facts").json()["facts"] == []
    assert plain.get("/v1/judgments", params={"q": "refund over 500"}).json()["results"] == []
    assert plain.get("/v1/stats").json()["user_id"] == "alice"
    writes = [("POST", "/v1/turns", {"role": "user", "content": "x", "session_id": "ops"}),
              ("POST", "/v1/turns/batch", {"turns": [{"role": "user", "content": "x", "session_id": "ops"}]}),
              ("POST", "/v1/judgments", {"trigger": "t", "judgment": "j", "reasoning": "r"}),
              ("POST", "/v1/forget", {"all": True}), ("POST", "/v1/sessions/ops/end", None)]
    for method, path, json_body in writes:
        assert plain.request(method, path, params=agent, json=json_body).status_code == 403, path
        assert reader.request(method, path, params=agent, json=json_body).status_code == 403, path
    # a reader sees it, merged with its own and said to be the agent's
    hits = reader.get("/v1/recall", params={"q": "refund", **agents}).json()["hits"]
    assert {h["details"]["scope"] for h in hits} == {"user", "agent:support"}
    assert not any("alice" in h["text"] for h in hits)
    facts = reader.get("/v1/facts", params=agents).json()["facts"]
    assert [f["scope"] for f in facts] == ["agent:support"]
    results = reader.get("/v1/judgments", params={"q": "refund over 500", **agents}).json()["results"]
    assert [r["scope"] for r in results] == ["agent:support"]
    assert [t["content"] for t in reader.get("/v1/sessions/ops/turns", params=agent).json()["turns"]] == [
        "Lesson: confirm the refund order number first"]
    assert reader.get("/v1/stats", params=agent).json()["user_id"] == "agent:support"
    # the list routes merge the same way: judgments, loops, workstreams, the brief; each item says whose
    for path in ("/v1/judgments", "/v1/loops", "/v1/workstreams", "/v1/brief"):
        assert plain.get(path, params=agents).status_code == 403, path
    assert [j["scope"] for j in reader.get("/v1/judgments").json()["judgments"]] == []
    listed = reader.get("/v1/judgments", params=agents).json()["judgments"]
    assert [(j["scope"], j["judgment"]) for j in listed] == [("agent:support", "escalate to a human")]
    loops = reader.get("/v1/loops", params=agents).json()["loops"]
    assert sorted((lp["scope"], lp["text"]) for lp in loops) == [
        ("agent:support", "follow up on the refund (agent:support)"), ("user", "follow up on the refund (bob)")]
    assert [lp["scope"] for lp in plain.get("/v1/loops").json()["loops"]] == ["user"]
    assert reader.get("/v1/workstreams", params={**agents, "include_hypotheses": "true"}).status_code == 200
    brief = reader.get("/v1/brief", params=agents).json()
    assert {(s["scope"], s["session_id"]) for s in brief["sessions"]} == {("user", "s1"), ("agent:support", "ops")}
    assert [(d["scope"], d["text"]) for d in brief["decisions"]] == [
        ("agent:support", "Refund requests over 500 dollars go to a human reviewer")]
    assert {lp["scope"] for lp in brief["open_loops"]} == {"user", "agent:support"}
    assert not any("alice" in lp["text"] for lp in brief["open_loops"])
    own = plain.get("/v1/brief").json()
    assert {s["scope"] for s in own["sessions"]} == {"user"} and own["decisions"] == []
    # a writer writes to the agent's scope, not its user's; then forgets the scope alone
    made = writer.post("/v1/judgments", params=agent, json={"trigger": "a damaged parcel", "judgment": "refund it",
                                                             "reasoning": "cheaper than a dispute"})
    assert made.status_code == 201
    assert writer.get("/v1/judgments", params={"q": "damaged parcel"}).json()["results"] == []
    assert reader.get(f"/v1/judgments/{made.json()['id']}", params=agent).status_code == 200
    assert plain.get(f"/v1/judgments/{made.json()['id']}").status_code == 404
    assert writer.post("/v1/turns", params=agent,
                       json={"role": "assistant", "content": "note", "session_id": "ops"}).status_code == 201
    forgot = writer.post("/v1/forget", params=agent, json={"all": True})
    assert forgot.status_code == 200 and forgot.json()["forgot"]["judgments"] == 2
    assert reader.get("/v1/facts", params=agents).json()["facts"] == []
    assert {h["details"]["scope"] for h in reader.get("/v1/recall", params={"q": "refund", **agents}).json()["hits"]
            } == {"user"}
    assert writer.get("/v1/stats").json()["user_id"] == "carol"  # its tokens and its user untouched
    for c in (plain, reader, writer):
        c.close()


def test_token_list_shows_the_agent_scopes(db_path: Path) -> None:
    token(db_path, "bob", "--read-agent", "support", "--write-agent", "ops")
    listed = CliRunner().invoke(main, ["token", "list", "--json", "--db", str(db_path)], catch_exceptions=False)
    [record] = json.loads(listed.stdout)
    assert (record["read_agents"], record["write_agents"]) == (["support"], ["ops"])
    refused = CliRunner().invoke(main, ["token", "create", "--user", "agent:x", "--db", str(db_path)])
    assert refused.exit_code != 0 and "reserved" in refused.output


# --- MCP ----------------------------------------------------------------------------------------------------------
def call(tools: Any, tool: str, **arguments: Any) -> Any:
    from episodic_memory.server.mcp_server import create_server

    result = anyio.run(create_server(tools).call_tool, tool, arguments)
    assert not result.is_error, result.content
    return json.loads("".join(c.text for c in result.content if c.type == "text"))


def test_mcp_tools_take_the_agent_scopes_the_server_carries(db_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from episodic_memory.server.mcp_server import MemoryTools

    seed(db_path)
    plain = MemoryTools(memory(db_path, user_id="alice"))
    scoped = MemoryTools(memory(db_path, user_id="bob"), read_agents=["support"], write_agents=["ops"])
    try:
        with pytest.raises(ToolError, match="--read-agent support"):
            call(plain, "recall", query="refund", agents=["support"])
        with pytest.raises(ToolError, match="--write-agent support"):
            call(scoped, "judgment_store", trigger="t", judgment="j", reasoning="r", agent="support")
        assert {h["details"]["scope"] for h in call(plain, "recall", query="refund")["hits"]} == {"user"}
        hits = call(scoped, "recall", query="refund", agents=["support"])["hits"]
        assert {h["details"]["scope"] for h in hits} == {"user", "agent:support"}
        stored = call(scoped, "judgment_store", trigger="deploy on friday", judgment="wait for monday",
                      reasoning="nobody on call", agent="ops")
        assert call(scoped, "judgment_search", query="deploy on friday")["judgments"] == []
        found = call(scoped, "judgment_search", query="deploy on friday", agents=["ops"])["judgments"]
        assert [(j["id"], j["scope"]) for j in found] == [(stored["id"], "agent:ops")]
        assert call(scoped, "forget", everything=True, agent="ops")["forgot"]["judgments"] == 1
        assert call(scoped, "judgment_search", query="deploy on friday", agents=["ops"])["judgments"] == []
        assert scopes(scoped.memory.recall("refund", agents=["support"])) == {"user", "agent:support"}
    finally:
        plain.close()
        scoped.close()


def test_mcp_remember_and_end_session_take_an_agent_tracked_apart_from_the_user(db_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from episodic_memory.server.mcp_server import MemoryTools

    tools = MemoryTools(memory(db_path, user_id="bob"), read_agents=["support"], write_agents=["ops"])
    try:
        with pytest.raises(ToolError, match="--write-agent support"):
            call(tools, "remember", content="not mine to write", agent="support")
        with pytest.raises(ToolError, match="nothing was remembered"):
            call(tools, "end_session", agent="ops")
        # the same session id in the user's scope and the agent's: two sessions, tracked and ended apart
        call(tools, "remember", content="bob's own note", session_id="s1")
        call(tools, "remember", content="a lesson for every user of ops", session_id="s1", agent="ops")
        into_default = call(tools, "remember", content="the agent's default session", agent="ops")
        assert into_default["session_id"] == tools.default_for("ops") != tools.default_session
        assert set(tools._open) == {(None, "s1"), ("ops", "s1"), ("ops", into_default["session_id"])}
        assert tools.default_used("ops") and not tools.default_session_used
        assert [t.content for t in tools.memory.session_turns("s1")] == ["bob's own note"]
        with memory(db_path, agent="ops") as ops:
            assert [t.content for t in ops.session_turns("s1")] == ["a lesson for every user of ops"]
        assert call(tools, "end_session", session_id="s1", agent="ops")["next_session_id"] is None
        assert set(tools._open) == {(None, "s1"), ("ops", into_default["session_id"])}
        ended = call(tools, "end_session", agent="ops")
        assert ended["session_id"] == into_default["session_id"]
        assert ended["next_session_id"] == tools.default_for("ops") != into_default["session_id"]
        assert set(tools._open) == {(None, "s1")} and not tools.default_used("ops")
        with memory(db_path, agent="ops") as ops:
            assert {s.session_id: s.status for s in ops.sessions()} == {"s1": "ended",
                                                                        into_default["session_id"]: "ended"}
        assert {s.session_id: s.status for s in tools.memory.sessions()} == {"s1": "open"}
        # idle sessions end in their own scope; forgetting a scope drops only its sessions
        call(tools, "remember", content="another lesson", session_id="s2", agent="ops")
        call(tools, "forget", everything=True, agent="ops")
        assert set(tools._open) == {(None, "s1")}
        call(tools, "remember", content="a third lesson", session_id="s3", agent="ops")
        assert sorted(tools.end_idle(0)) == ["agent:ops/s3", "s1"]
        assert tools._open == {}
        assert {s.session_id: s.status for s in tools.memory.sessions()} == {"s1": "ended"}
    finally:
        tools.close()
