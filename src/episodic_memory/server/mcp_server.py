"""The MCP server: `Memory`'s verbs as MCP tools (official `mcp` SDK, v2 `MCPServer`), over stdio or HTTP.

The server acts as one user (``--user``, default ``default``) on one memory file. It holds no logic: each tool is a
call on `Memory` and a JSON rendering of the result. Turns sent with `remember` and no session id go to one session
per server run, ended (and so consolidated) when the server stops.
"""

from __future__ import annotations

import functools
import json
import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import ConfigDict, Field, StrictBool

from .. import __version__
from ..config import DEFAULT_USER, Config
from ..memory import Memory
from ..models.embedder import Embedder
from ..util import check_id
from .mcp_stdio import serve_stdio
from .render import to_data

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

ONGOING_WORK_URI = "memory://ongoing-work"
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True,
                              open_world_hint=False)

INSTRUCTIONS = """Long-term memory of past conversations with this user (episodic-memory).
Call `recall` (or `context`) before answering anything that may depend on earlier conversations; call `remember` for
each turn worth keeping. `loops`, `workstreams` and `brief` show ongoing work; `judgment_*` keep decisions and whether
they were adopted. `forget` deletes permanently."""


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)


def _explained(fn: F) -> F:
    """Bad input (ValueError, TypeError) and unknown ids (KeyError) reach the model as their message; so does text
    that is not valid Unicode (a lone surrogate), in any argument, by the argument's name."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            for name, value in kwargs.items():
                _check_text(value, name)
            return fn(*args, **kwargs)
        except KeyError as exc:
            raise ToolError(str(exc.args[0]) if exc.args else "not found") from exc
        except (ValueError, TypeError) as exc:
            raise ToolError(str(exc)) from exc

    return wrapper  # type: ignore[return-value]


def _check_text(value: object, name: str) -> None:
    if isinstance(value, str):
        for i, ch in enumerate(value):
            if "\ud800" <= ch <= "\udfff":
                raise ValueError(f"{name} is not valid Unicode text: a lone surrogate {ch!r} at character {i}")


class MemoryTools:
    """The tools of one server: one `Memory`, one user, one default session, one injector."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        self.default_session = f"mcp-{stamp}-{secrets.token_hex(3)}"
        self.default_session_used = False
        self._injector: Any = None

    def injector(self) -> Any:
        if self._injector is None:
            from .. import EpisodicInjector  # the injector keeps per-conversation state: one per server

            self._injector = EpisodicInjector(memory=self.memory, user_id=self.memory.user_id)
        return self._injector

    def close(self) -> None:
        """End the run's default session (so it is consolidated), then close the store."""
        try:
            if self.default_session_used:
                self.memory.end_session(self.default_session)
        except KeyError:  # forgotten meanwhile (by another process): nothing is left to end
            log.info("session %s was forgotten before the server stopped", self.default_session)
        except Exception:
            log.exception("could not end session %s", self.default_session)
        finally:
            self.memory.close()


def create_server(tools: MemoryTools) -> MCPServer:
    """An `MCPServer` whose tools act on `tools.memory`."""
    mem = tools.memory
    server = MCPServer("episodic-memory", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(annotations=WRITES)
    @_explained
    def remember(
        content: Annotated[str, Field(description="the text of the turn")],
        role: Annotated[str, Field(description="who said it: user or assistant")] = "user",
        session_id: Annotated[str | None, Field(description="the conversation it belongs to; default: one "
                                                            "session for this server run")] = None,
    ) -> str:
        """Store one conversation turn in long-term memory. Returns {"id", "session_id"} as JSON."""
        if not content.strip():
            raise ValueError(f"content must be non-empty text, got {content!r}")
        session = tools.default_session if session_id is None else check_id(session_id, "session_id")  # "" refused
        turn_id = mem.add_turn(role, content, session_id=session)
        if session_id is None:
            tools.default_session_used = True
        return _json({"id": turn_id, "session_id": session})

    @server.tool(annotations=READ_ONLY)
    @_explained
    def recall(
        query: Annotated[str, Field(description="what to remember, in words")],
        k: Annotated[int, Field(strict=True, ge=1, le=100, description="how many memories")] = 10,
        now: Annotated[str | None, Field(description="ISO-8601 time the question is asked, when it is not the "
                                                     "present (a replay): \"last week\" and recency count from it")] = None,
    ) -> str:
        """Search long-term memory. Returns a JSON list of hits, best first: kind, text, score, timestamp,
        session_id, source_ids (the turns behind each hit), speaker."""
        return _json([h.to_dict() for h in mem.recall(query, k=k, now=now)])

    @server.tool(annotations=READ_ONLY)
    @_explained
    def context(
        message: Annotated[str, Field(description="the user's new message")],
    ) -> str:
        """The block of remembered context to read before answering `message` ([Recalled context], and
        [Ongoing work] once per session). Empty when nothing relevant is remembered."""
        return tools.injector().get_context(message)

    @server.tool(annotations=READ_ONLY)
    @_explained
    def loops(
        status: Annotated[str, Field(description="open, closed or all")] = "open",
    ) -> str:
        """Open loops: things promised, asked or left unresolved in past conversations. JSON list."""
        return _json([to_data(x) for x in mem.loops(status=status)])

    @server.tool(annotations=READ_ONLY)
    @_explained
    def workstreams(
        include_hypotheses: Annotated[StrictBool, Field(description="also threads seen in one session so far")
                                      ] = False,
    ) -> str:
        """Ongoing workstreams (projects that span conversations), most recent first. JSON list."""
        return _json([to_data(w) for w in mem.workstreams(include_hypotheses=include_hypotheses)])

    @server.tool(annotations=READ_ONLY)
    @_explained
    def brief(
        hours: Annotated[float, Field(strict=True, gt=0, le=24 * 365, description="how far back to look")] = 24,
    ) -> str:
        """A briefing to start a session with: what happened in the last `hours`, open loops, active work. JSON."""
        return _json(to_data(mem.brief(hours=hours)))

    @server.tool(annotations=WRITES)
    @_explained
    def judgment_store(
        trigger: Annotated[str, Field(description="the situation that called for a decision")],
        judgment: Annotated[str, Field(description="what was decided or recommended")],
        reasoning: Annotated[str, Field(description="why")],
        domain: Annotated[str | None, Field(description="an optional area, e.g. 'code-review'")] = None,
    ) -> str:
        """Store a judgment so that similar situations later can reuse it. Returns {"id"} as JSON."""
        return _json({"id": mem.judgments.store(trigger, judgment, reasoning, domain=domain)})

    @server.tool(annotations=READ_ONLY)
    @_explained
    def judgment_search(
        query: Annotated[str, Field(description="the situation at hand")],
        top_k: Annotated[int, Field(strict=True, ge=1, le=100)] = 5,
        domain: Annotated[str | None, Field(description="only this area")] = None,
        use_utility: Annotated[StrictBool, Field(description="rank adopted judgments higher")] = True,
    ) -> str:
        """Past judgments for situations like `query`, with how often each was adopted. JSON list."""
        results = mem.judgments.search(query, top_k=top_k, domain=domain, use_utility=use_utility)
        return _json([to_data(r) for r in results])

    @server.tool(annotations=WRITES)
    @_explained
    def judgment_verify(
        judgment_id: Annotated[str, Field(description="the id from judgment_store or judgment_search")],
        adopted: Annotated[StrictBool, Field(description="true if the judgment was followed, false if rejected")],
        user_correction: Annotated[str | None, Field(description="what the user wanted instead")] = None,
    ) -> str:
        """Record whether a past judgment was adopted; it feeds the judgment's utility."""
        result = mem.judgments.verify(check_id(judgment_id, "judgment_id"), adopted, user_correction=user_correction)
        return _json({"id": judgment_id, "adopted": adopted, "result": to_data(result)})

    @server.tool(annotations=DESTRUCTIVE)
    @_explained
    def forget(
        session_id: Annotated[str | None, Field(description="delete this conversation")] = None,
        everything: Annotated[StrictBool, Field(description="delete ALL memories of this user")] = False,
    ) -> str:
        """DESTRUCTIVE, cannot be undone: permanently deletes memories — one conversation (`session_id`) or every
        memory of this user (`everything=true`, which also revokes the user's REST API tokens). Turns, facts,
        search index and journals are erased from disk. Only call it when the user explicitly asks to forget."""
        if (session_id is None) == (not everything):
            raise ValueError("give exactly one of session_id or everything=true")
        if session_id is not None:
            result = mem.forget(session_id=check_id(session_id, "session_id"))
        else:
            result = mem.forget(user_id=mem.user_id)
        if everything or session_id == tools.default_session:
            tools.default_session_used = False  # nothing left to end when the server stops
        return _json({"forgot": result})

    @server.resource(ONGOING_WORK_URI, name="ongoing-work", mime_type="application/json",
                     description="This user's active workstreams and open loops.")
    def ongoing_work() -> str:
        return _json({"workstreams": [to_data(w) for w in mem.workstreams()],
                      "open_loops": [to_data(x) for x in mem.loops(status="open")]})

    _refuse_unknown_arguments(server)
    return server


def _refuse_unknown_arguments(server: MCPServer) -> None:
    """The SDK drops an argument a tool does not take; here it is an error naming it (a misspelt `everything`
    must not pass unnoticed), and each tool's input schema says so (additionalProperties: false)."""
    for tool in server._tool_manager.list_tools():  # no public way to reach a tool's argument model (mcp 2)
        base = tool.fn_metadata.arg_model

        class Strict(base):  # type: ignore[valid-type, misc]
            model_config = ConfigDict(**{**base.model_config, "extra": "forbid"})

        Strict.__name__ = base.__name__
        tool.fn_metadata.arg_model = Strict
        tool.parameters["additionalProperties"] = False


def run(db_path: str | Path, *, user_id: str = DEFAULT_USER, http_port: int | None = None,
        config: Config | None = None, embedder: Embedder | None = None) -> None:
    """Serve until the client disconnects (stdio) or the process is interrupted (HTTP on 127.0.0.1:`http_port`)."""
    tools = MemoryTools(Memory(db_path, user_id=user_id, config=config, embedder=embedder))
    server = create_server(tools)
    try:
        if http_port is None:
            anyio.run(serve_stdio, server)  # server.run("stdio"), answering every request
        else:
            server.run("streamable-http", host="127.0.0.1", port=http_port)
    finally:
        tools.close()
