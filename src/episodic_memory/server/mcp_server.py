"""The MCP server: `Memory`'s verbs as MCP tools (official `mcp` SDK, v2 `MCPServer`), over stdio or HTTP.

It acts as one user on one memory file and holds no logic: each tool is a call on `Memory`, its result
structured content (the same JSON as text). When it ends sessions: README.md, "MCP and REST servers".
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from pathlib import Path
from time import monotonic
from typing import Annotated, Any, TypeVar, cast

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict, Field, StrictBool, ValidationError, with_config
from typing_extensions import TypedDict

from .. import __version__
from ..config import DEFAULT_USER, Config
from ..memory import Memory
from ..models.embedder import Embedder
from ..scopes import check_agent, check_agents
from ..util import check_id, check_unicode
from .mcp_stdio import serve_stdio
from .render import brief_data, scoped, to_data

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

ONGOING_WORK_URI = "memory://ongoing-work"
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True,
                              open_world_hint=False)

INSTRUCTIONS = """Long-term memory of past conversations with this user (episodic-memory).
Call `recall` (or `context`) before answering anything that may depend on earlier conversations; call `remember` for
each turn worth keeping, and `end_session` when a conversation is over (its facts, open loops and workstreams are
made then). `loops`, `workstreams` and `brief` show ongoing work; `judgment_*` keep decisions and whether they were
adopted. `forget` deletes permanently."""


# --- what the tools return: structured content, described by each tool's output schema ---------------------------
Item = dict[str, Any]


class Remembered(TypedDict):
    id: Annotated[str, Field(description="the stored turn's id")]
    session_id: Annotated[str, Field(description="the session the turn went to")]


class SessionEnded(TypedDict):
    session_id: Annotated[str, Field(description="the session ended")]
    status: Annotated[str, Field(description="'ended'")]
    next_session_id: Annotated[str | None, Field(
        description="where `remember` without a session id goes from now on (when this was the run's session)")]


class Recalled(TypedDict):
    hits: Annotated[list[Item], Field(description="best first; each: id, kind (turn, fact, episode, …), text, score, "
                                                  "timestamp, session_id, source_ids (the turns behind it), speaker, "
                                                  "role, user_id, details")]


class Recollection(TypedDict):
    context: Annotated[str, Field(description="[Recalled context] (and [Ongoing work] once per session); empty "
                                              "when nothing relevant is remembered")]


class Loops(TypedDict):
    loops: Annotated[list[Item], Field(description="newest first; each: id, text, status, due, session_id, "
                                                   "workstream, opened_at, last_mentioned, mentions, …")]


class Workstreams(TypedDict):
    workstreams: Annotated[list[Item], Field(description="most recent first; each: id, name, status, sessions, "
                                                         "facts, open_loops, keyphrases, last_activity, …")]


@with_config(ConfigDict(extra="allow"))
class Brief(TypedDict, total=False):
    user_id: str
    hours: float
    since: Annotated[str, Field(description="ISO-8601 start of the window")]
    until: Annotated[str, Field(description="ISO-8601 end of the window")]
    sessions: Annotated[list[Item], Field(description="sessions in the window, with their summaries")]
    decisions: list[Item]
    corrections: list[Item]
    open_loops: list[Item]
    workstreams: list[Item]
    pinned: list[Item]


class JudgmentStored(TypedDict):
    id: Annotated[str, Field(description="the judgment's id (for judgment_verify)")]


class Judgments(TypedDict):
    judgments: Annotated[list[Item], Field(description="best first; each: id, trigger, judgment, reasoning, domain, "
                                                       "score, similarity, utility_score, adopted, rejected, …")]


class Verified(TypedDict):
    id: str
    adopted: bool
    result: Annotated[Item, Field(description="the judgment as it stands now")]


class Forgot(TypedDict):
    forgot: Annotated[dict[str, int], Field(description="how many of each kind of memory were deleted")]


# --- errors the model can read -----------------------------------------------------------------------------------
def _explained(fn: F) -> F:
    """Bad input (ValueError, TypeError) and unknown ids (KeyError) reach the model as their message; so does text
    that is not valid Unicode (a lone surrogate), in any argument, by the argument's name."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            for name, value in kwargs.items():
                if isinstance(value, str):
                    check_unicode(value, name)
            return fn(*args, **kwargs)
        except KeyError as exc:
            raise ToolError(str(exc.args[0]) if exc.args else "not found") from exc
        except (ValueError, TypeError) as exc:
            raise ToolError(str(exc)) from exc

    return wrapper  # type: ignore[return-value]


def _shown(value: Any) -> str:
    """A rejected value as JSON (true, null, "yes"), cut short."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(error: Any, arguments: list[str]) -> str:
    """One pydantic error as a sentence naming the argument."""
    name = ".".join(str(part) for part in error["loc"]) or "the arguments"
    kind, ctx, got = error["type"], error.get("ctx") or {}, _shown(error.get("input"))
    if kind == "missing":
        return f"{name} is required"
    if kind == "extra_forbidden":
        return f"{name} is not an argument of this tool (it takes {', '.join(arguments)})"
    wanted = {"bool": "true or false", "int": "a whole number", "float": "a number", "string": "text"}
    family, underscore, _ = kind.partition("_")
    if underscore and family in wanted:
        return f"{name} must be {wanted[family]}, got {got}"
    bounds = {"greater_than_equal": ("at least", "ge"), "greater_than": ("greater than", "gt"),
              "less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}
    if kind in bounds:
        words, key = bounds[kind]
        bound = ctx.get(key)
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)  # 24 * 365, not 8760.0
        return f"{name} must be {words} {bound}, got {got}"
    message = str(error.get("msg", "is not valid"))
    return f"{name} is not valid ({message[:1].lower() + message[1:]}), got {got}"


class _Server(MCPServer):
    """`MCPServer` whose argument errors read as one sentence naming the argument, not pydantic's report."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            tool = self._tool_manager.get_tool(name)
            takes = list(tool.parameters.get("properties", {})) if tool is not None else []
            sentence = "; ".join(dict.fromkeys(_plain(e, takes) for e in cause.errors()))
            raise ToolError(f"Error executing tool {name}: {sentence}.") from cause


# --- the server's state ------------------------------------------------------------------------------------------
def _new_session_id() -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"mcp-{stamp}-{secrets.token_hex(3)}"


Key = tuple[str | None, str]  # a session this server wrote to: (the agent, None for the user; the session id)


def _named(key: Key) -> str:
    """A tracked session as logs and `end_idle` name it: the id, or ``agent:<name>/<id>`` for an agent's."""
    return key[1] if key[0] is None else f"agent:{key[0]}/{key[1]}"


class MemoryTools:
    """The tools of one server: one `Memory`, one user, one injector, and the sessions this server wrote turns
    to and has not ended yet (ended when idle, and all at `close`), each by its scope and id (`Key`), with a
    default session per scope (`default_for`)."""

    def __init__(self, memory: Memory, *, read_agents: Iterable[str] = (), write_agents: Iterable[str] = ()) -> None:
        self.memory = memory
        self.write_agents = check_agents(write_agents, "write_agents")
        self.read_agents = tuple(dict.fromkeys([*check_agents(read_agents, "read_agents"), *self.write_agents]))
        self._agents: dict[str, Memory] = {}  # the agent scopes written to, opened on first use
        self._defaults: dict[str | None, str] = {None: _new_session_id()}  # scope -> its default session this run
        self._default_used: set[str | None] = set()  # the scopes whose default session has turns
        self._injector: Any = None
        self._open: dict[Key, float] = {}  # (scope, session id) -> monotonic time of its latest turn from here
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._closed = False

    def readable(self, agents: list[str] | None) -> tuple[str, ...]:
        """The agents a read adds (ValueError for one this server may not read: `--read-agent`)."""
        names = check_agents(agents)
        for name in names:
            if name not in self.read_agents:
                raise ValueError(f"this server may not read agent {name!r} (start it with --read-agent {name})")
        return names

    def scope(self, agent: str | None) -> Memory:
        """The Memory a write goes to: the user's, or an agent's this server may write (`--write-agent`)."""
        if agent is None:
            return self.memory
        name = check_agent(agent)
        if name not in self.write_agents:
            raise ValueError(f"this server may not write agent {name!r} (start it with --write-agent {name})")
        with self._lock:
            if name not in self._agents:
                self._agents[name] = Memory(self.memory.path, agent=name, config=self.memory.config,
                                            embedder=self.memory.embedder())
            return self._agents[name]

    def injector(self) -> Any:
        if self._injector is None:
            from .. import EpisodicInjector  # the injector keeps per-conversation state: one per server

            self._injector = EpisodicInjector(memory=self.memory, user_id=self.memory.user_id)
        return self._injector

    @property
    def default_session(self) -> str:
        """The user's default session this run (an agent's: `default_for`)."""
        return self.default_for(None)

    @property
    def default_session_used(self) -> bool:
        """Whether the user's default session has turns (an agent's: `default_used`)."""
        return self.default_used(None)

    def default_for(self, agent: str | None) -> str:
        """Where `remember` without a session id goes in `agent`'s scope (None: the user's)."""
        with self._lock:
            return self._defaults.setdefault(agent, _new_session_id())

    def default_used(self, agent: str | None) -> bool:
        """Whether `agent`'s scope (None: the user's) has turns in its default session."""
        with self._lock:
            return agent in self._default_used

    def wrote(self, session_id: str, agent: str | None = None) -> None:
        """A turn went to `session_id` of `agent`'s scope (None: the user's): it is this server's to end."""
        with self._lock:
            self._open[(agent, session_id)] = monotonic()
            if session_id == self._defaults.get(agent):
                self._default_used.add(agent)

    def dropped(self, session_id: str | None = None, agent: str | None = None) -> None:
        """`session_id` (None: every session) of `agent`'s scope (None: the user's) was forgotten: nothing is left
        to end there."""
        with self._lock:
            for key in [k for k in self._open if k[0] == agent and session_id in (None, k[1])]:
                del self._open[key]
            if session_id is None or session_id == self._defaults.get(agent):
                self._default_used.discard(agent)

    def end(self, session_id: str, agent: str | None = None) -> None:
        """End a session of `agent`'s scope (None: the user's; KeyError when it does not exist). Ending a scope's
        default session starts a new one there."""
        key = (agent, session_id)
        with self._lock:
            last = self._open.pop(key, None)
        try:
            self.scope(agent).end_session(session_id)
        except Exception as exc:
            if last is not None and not isinstance(exc, KeyError):  # still this server's to end when it stops
                with self._lock:
                    self._open.setdefault(key, last)
            raise
        with self._lock:
            if session_id == self._defaults.get(agent):
                self._defaults[agent] = _new_session_id()
                self._default_used.discard(agent)

    def end_idle(self, idle_s: float) -> list[str]:
        """End the sessions this server wrote to that have had no turn for `idle_s` seconds; returns their ids
        (an agent's as ``agent:<name>/<session>``)."""
        cutoff = monotonic() - idle_s
        with self._lock:
            idle = [key for key, last in self._open.items() if last <= cutoff]
        for key in idle:
            self._end_quietly(key)
        return [_named(key) for key in idle]

    def watch_idle(self, idle_s: float) -> None:
        """End idle sessions from a background thread until `close` (`idle_s` 0: never)."""
        if idle_s <= 0 or self._watcher is not None:
            return

        def watch() -> None:
            while not self._stop.wait(min(max(idle_s / 4, 0.05), 30.0)):
                self.end_idle(idle_s)

        self._watcher = threading.Thread(target=watch, name="mcp-idle-sessions", daemon=True)
        self._watcher.start()

    def _end_quietly(self, key: Key) -> None:
        try:
            self.end(key[1], key[0])
            log.info("ended session %s", _named(key))
        except KeyError:  # forgotten meanwhile (by another process): nothing is left to end
            log.info("session %s was forgotten before it was ended", _named(key))
        except Exception:
            log.exception("could not end session %s", _named(key))

    def close(self) -> None:
        """End every session this server wrote to and has not ended (so they are consolidated), then close the
        store. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join()
        try:
            with self._lock:
                sessions = list(self._open)
            for key in sessions:
                self._end_quietly(key)
        finally:
            for agent in self._agents.values():
                agent.close()
            self.memory.close()


def create_server(tools: MemoryTools) -> MCPServer:
    """An `MCPServer` whose tools act on `tools.memory`."""
    mem = tools.memory
    server = _Server("episodic-memory", version=__version__, instructions=INSTRUCTIONS)

    def tool(annotations: ToolAnnotations) -> Callable[[F], F]:
        """A tool whose bad input reaches the model as its message (`_explained`)."""
        return lambda fn: server.tool(annotations=annotations)(_explained(fn))

    @tool(WRITES)
    def remember(
        content: Annotated[str, Field(description="the text of the turn")],
        role: Annotated[str, Field(description="who said it: user or assistant")] = "user",
        session_id: Annotated[str | None, Field(description="the conversation it belongs to; default: one "
                                                            "session for this server run")] = None,
        agent: Annotated[str | None, Field(description="store it in this agent's shared memory instead of the "
                                                       "user's (end it with end_session and the same agent)")] = None,
    ) -> Remembered:
        """Store one conversation turn in long-term memory. Call `end_session` when the conversation is over: its
        facts, open loops and workstreams are made then (or after a while without turns)."""
        if not content.strip():
            raise ValueError(f"content must be non-empty text, got {content!r}")
        scoped = tools.scope(agent)  # refused before anything is written when the server may not write it
        session = tools.default_for(scoped.agent) if session_id is None else check_id(session_id, "session_id")
        turn_id = scoped.add_turn(role, content, session_id=session)
        tools.wrote(session, scoped.agent)
        return {"id": turn_id, "session_id": session}

    @tool(WRITES)
    def end_session(
        session_id: Annotated[str | None, Field(description="the conversation to end; default: this server "
                                                            "run's session")] = None,
        agent: Annotated[str | None, Field(description="end it in this agent's shared memory instead of the "
                                                       "user's")] = None,
    ) -> SessionEnded:
        """End a conversation: what it has not consolidated yet becomes facts, open loops and workstreams (what
        `recall`, `loops`, `workstreams` and `brief` then show). Call it when a conversation is over."""
        scope = tools.scope(agent).agent
        session = tools.default_for(scope) if session_id is None else check_id(session_id, "session_id")
        if session_id is None and not tools.default_used(scope):
            raise ValueError("nothing was remembered in this server run's session"
                             + (f" of agent {scope!r}" if scope is not None else "")
                             + ", so there is nothing to end (give session_id to end another)")
        was_default = session == tools.default_for(scope)
        tools.end(session, scope)
        return {"session_id": session, "status": "ended",
                "next_session_id": tools.default_for(scope) if was_default else None}

    @tool(READ_ONLY)
    def recall(
        query: Annotated[str, Field(description="what to remember, in words")],
        k: Annotated[int, Field(strict=True, ge=1, le=100, description="how many memories")] = 10,
        now: Annotated[str | None, Field(description="ISO-8601 time the question is asked, when it is not the "
                                                     "present (a replay): \"last week\" and recency count from it")] = None,
        agents: Annotated[list[str] | None, Field(description="also search these agents' shared memories (each "
                                                              "hit's details.scope says whose)")] = None,
    ) -> Recalled:
        """Search long-term memory. Returns the hits, best first."""
        return {"hits": [h.to_dict() for h in mem.recall(query, k=k, now=now, agents=tools.readable(agents))]}

    @tool(READ_ONLY)
    def context(
        message: Annotated[str, Field(description="the user's new message")],
    ) -> Annotated[CallToolResult, Recollection]:
        """The block of remembered context to read before answering `message` ([Recalled context], and
        [Ongoing work] once per session). Empty when nothing relevant is remembered."""
        block = tools.injector().get_context(message)
        return CallToolResult(content=[TextContent(type="text", text=block)], structured_content={"context": block})

    @tool(READ_ONLY)
    def loops(
        status: Annotated[str, Field(description="open, closed or all")] = "open",
        agents: Annotated[list[str] | None, Field(description="also these agents' loops (each one's scope says "
                                                              "whose)")] = None,
    ) -> Loops:
        """Open loops: things promised, asked or left unresolved in past conversations (a conversation's loops
        appear once it has ended or every few turns)."""
        return {"loops": [scoped(x) for x in mem.loops(status=status, agents=tools.readable(agents))]}

    @tool(READ_ONLY)
    def workstreams(
        include_hypotheses: Annotated[StrictBool, Field(description="also threads seen in one session so far")
                                      ] = False,
        agents: Annotated[list[str] | None, Field(description="also these agents' workstreams (each one's scope says "
                                                              "whose)")] = None,
    ) -> Workstreams:
        """Ongoing workstreams (projects that span conversations), most recent first."""
        found = mem.workstreams(include_hypotheses=include_hypotheses, agents=tools.readable(agents))
        return {"workstreams": [scoped(w) for w in found]}

    @tool(READ_ONLY)
    def brief(
        hours: Annotated[float, Field(strict=True, gt=0, le=24 * 365, description="how far back to look")] = 24,
        agents: Annotated[list[str] | None, Field(description="also these agents' sessions, decisions, loops and "
                                                              "workstreams, merged newest first (each item's scope "
                                                              "says whose)")] = None,
    ) -> Brief:
        """A briefing to start a session with: what happened in the last `hours`, open loops, active work."""
        return cast(Brief, brief_data(mem.brief(hours=hours, agents=tools.readable(agents))))

    @tool(WRITES)
    def judgment_store(
        trigger: Annotated[str, Field(description="the situation that called for a decision")],
        judgment: Annotated[str, Field(description="what was decided or recommended")],
        reasoning: Annotated[str, Field(description="why")],
        domain: Annotated[str | None, Field(description="an optional area, e.g. 'code-review'")] = None,
        agent: Annotated[str | None, Field(description="store it in this agent's shared memory instead of the "
                                                       "user's")] = None,
    ) -> JudgmentStored:
        """Store a judgment so that similar situations later can reuse it."""
        return {"id": tools.scope(agent).judgments.store(trigger, judgment, reasoning, domain=domain)}

    @tool(READ_ONLY)
    def judgment_search(
        query: Annotated[str, Field(description="the situation at hand")],
        top_k: Annotated[int, Field(strict=True, ge=1, le=100)] = 5,
        domain: Annotated[str | None, Field(description="only this area")] = None,
        use_utility: Annotated[StrictBool, Field(description="rank adopted judgments higher")] = True,
        agents: Annotated[list[str] | None, Field(description="also search these agents' judgments (each "
                                                              "result's scope says whose)")] = None,
    ) -> Judgments:
        """Past judgments for situations like `query`, with how often each was adopted."""
        results = mem.search_judgments(query, agents=tools.readable(agents), top_k=top_k, domain=domain,
                                       use_utility=use_utility)
        return {"judgments": [to_data(r) for r in results]}

    @tool(WRITES)
    def judgment_verify(
        judgment_id: Annotated[str, Field(description="the id from judgment_store or judgment_search")],
        adopted: Annotated[StrictBool, Field(description="true if the judgment was followed, false if rejected")],
        user_correction: Annotated[str | None, Field(description="what the user wanted instead")] = None,
        agent: Annotated[str | None, Field(description="the agent whose judgment it is (scope in search "
                                                       "results: agent:<name>)")] = None,
    ) -> Verified:
        """Record whether a past judgment was adopted; it feeds the judgment's utility."""
        result = tools.scope(agent).judgments.verify(check_id(judgment_id, "judgment_id"), adopted, user_correction=user_correction)
        return {"id": judgment_id, "adopted": adopted, "result": to_data(result)}

    @tool(DESTRUCTIVE)
    def forget(
        session_id: Annotated[str | None, Field(description="delete this conversation")] = None,
        everything: Annotated[StrictBool, Field(description="delete ALL memories of this user")] = False,
        agent: Annotated[str | None, Field(description="forget in this agent's shared memory instead (a session "
                                                       "of it, or everything of it); no user's memory is touched")
                         ] = None,
    ) -> Forgot:
        """DESTRUCTIVE, cannot be undone: permanently deletes memories — one conversation (`session_id`) or every
        memory of this user (`everything=true`, which also revokes the user's REST API tokens). Turns, facts,
        search index and journals are erased from disk. Only call it when the user explicitly asks to forget."""
        if (session_id is None) == (not everything):
            raise ValueError("give exactly one of session_id or everything=true")
        scoped = tools.scope(agent)  # the user's Memory without an agent (its `agent` None)
        session = None if session_id is None else check_id(session_id, "session_id")
        if session is not None:
            result = scoped.forget(session_id=session)
        elif agent is not None:
            result = scoped.forget(agent=scoped.agent)
        else:
            result = mem.forget(user_id=mem.user_id)
        tools.dropped(session, scoped.agent)
        return {"forgot": result}

    @server.resource(ONGOING_WORK_URI, name="ongoing-work", mime_type="application/json",
                     description="This user's active workstreams and open loops.")
    def ongoing_work() -> str:
        return json.dumps({"workstreams": [to_data(w) for w in mem.workstreams()],
                           "open_loops": [to_data(x) for x in mem.loops(status="open")]},
                          ensure_ascii=False, default=str)

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


# --- running -----------------------------------------------------------------------------------------------------
async def _serve_stdio(server: MCPServer, tools: MemoryTools) -> None:
    """`serve_stdio` until stdin closes or a signal comes."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(_stop_on_signal, tools)
        await serve_stdio(server)
        tg.cancel_scope.cancel()


async def _stop_on_signal(tools: MemoryTools) -> None:
    """On SIGTERM, SIGINT or SIGHUP: end the sessions this server opened, close the store and exit. The exit is
    immediate because the transport's stdin reader blocks in a thread until a line or EOF, which may never come."""
    if sys.platform == "win32":  # no signal receiver there: the default handlers apply
        return
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async for signum in signals:
            log.info("stopping on signal %d: ending the sessions this server opened", signum)
            try:
                await anyio.to_thread.run_sync(tools.close)
            finally:
                logging.shutdown()
                os._exit(128 + signum)


def run(db_path: str | Path, *, user_id: str = DEFAULT_USER, http_port: int | None = None,
        config: Config | None = None, embedder: Embedder | None = None, read_agents: Iterable[str] = (),
        write_agents: Iterable[str] = ()) -> None:
    """Serve until the client disconnects (stdio) or the process is interrupted (HTTP on 127.0.0.1:`http_port`).
    The sessions this server wrote to are ended when it stops, and meanwhile after `Config.server.mcp_session_idle_s`."""
    memory = Memory(db_path, user_id=user_id, config=config, embedder=embedder)
    tools = MemoryTools(memory, read_agents=read_agents, write_agents=write_agents)
    server = create_server(tools)
    tools.watch_idle(memory.config.server.mcp_session_idle_s)
    try:
        if http_port is None:
            anyio.run(_serve_stdio, server, tools)  # server.run("stdio"), answering every request
        else:
            server.run("streamable-http", host="127.0.0.1", port=http_port)
    finally:
        tools.close()
