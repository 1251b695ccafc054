"""The REST API: a FastAPI app over `Memory`, one user per bearer token. `create_app(db_path)` builds it.

Every ``/v1/`` route but ``/v1/health`` acts only on its token's user (``auth=False``: one user, loopback
only). What runs before a route (Host 421, token 401, admission 429, body 408/413), and what the server
promises: docs/security.md. The routes run on the event loop and hand every Memory call to the user's
`AsyncMemory`, on the server's request threads (`ServerLimits.workers`: as many as requests may run at once).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request, status
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationInfo,
    field_validator,
    model_validator,
)
from starlette.middleware.authentication import AuthenticationMiddleware

from .. import __version__
from ..aio import AsyncMemory
from ..config import DEFAULT_USER, Config
from ..memory import Memory, Role
from ..models.embedder import Embedder
from ..scopes import agent_owner, check_agent, check_agents, scope_of
from ..util import MAX_INT, check_id, has_words, to_epoch, to_iso
from .auth import TokenAuth, may, refused
from .hooks import add_hook_routes
from .hosts import AllowedHosts, is_loopback
from .limits import Admission, BackgroundGate, InFlight, ServerLimits, server_limits
from .pool import WORKER_NAME, MemoryPool
from .render import brief_data, scoped, to_data
from .tokens import TokenStore
from .ui import add_inspector
from .ui.sessions import SharedInspector

if TYPE_CHECKING:
    from .processes import ServerSpec

log = logging.getLogger(__name__)

MAX_K = 100               # the most hits one recall returns
MAX_DEPTH = 32            # the deepest nesting a body's JSON (a judgment's metadata) may have
SERVER_STATS = ("db", "journal", "file_bytes")  # the shared file's figures: /v1/stats shows them only with auth off


def _searchable(text: str) -> str:
    if not has_words(text):
        raise ValueError("has nothing to search for: give at least one letter or digit")
    return text


def _id(value: str, info: ValidationInfo) -> str:
    return check_id(value, info.field_name or "id")  # one id grammar at every door (a NUL, a newline: 422)


Id = Annotated[str, Field(min_length=1, max_length=256, pattern=r"\S"), AfterValidator(_id)]
PathId = Annotated[str, PathParam(description="percent-encode it (a `/` as %2F, `.` as %2E)"), AfterValidator(_id)]
Text = Annotated[str, Field(min_length=1, pattern=r"\S")]
RowId = Annotated[int, PathParam(ge=1, le=MAX_INT)]
Limit = Annotated[int | None, Query(ge=1, le=MAX_INT, description="at most this many")]
Words = Annotated[str, AfterValidator(_searchable)]


def _check_json(value: object, where: str = "", depth: int = 0) -> None:
    """What cannot be stored and read back: a lone surrogate (which JSON lets through), NaN or Infinity (which are
    not JSON), nesting deeper than MAX_DEPTH (stored, it would break every later reading of the judgments)."""
    if depth > MAX_DEPTH:
        raise ValueError(f"{where}is nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{where}is not valid Unicode text (a lone surrogate)") from None
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where}{value} is not a JSON number")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_json(key, f"{where}a key ", depth + 1)
            _check_json(item, f"{where}{key!r}: ", depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_json(item, where, depth + 1)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")  # an unknown field (a `user_id`, say) is a 422, never ignored

    @field_validator("*")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        _check_json(value)
        return value


class TurnIn(_Body):
    role: Role = Field(description="who spoke")
    content: str = Field(description="the text (at most Config.capture.max_turn_chars characters)")
    session_id: Id
    speaker: Annotated[str, Field(max_length=256)] | None = None
    timestamp: datetime | None = Field(None, description="ISO-8601; naive times are UTC; default now")
    id: Id | None = Field(None, description="your own id for the turn (returned in recall's source_ids)")
    source: Id | None = Field(None, description="where the turn came from (telegram, cli, ...): recall filters on it")
    tags: Annotated[list[Id], Field(max_length=64)] | None = Field(None, description="labels recall filters on")

    @field_validator("timestamp")
    @classmethod
    def _in_range(cls, value: datetime | None) -> datetime | None:
        if value is not None:
            to_epoch(value)  # years 1 to 9999 in UTC, or a ValueError that names the time
        return value

    def as_turn(self) -> dict[str, Any]:
        """The turn as `Memory.add_turn`'s keyword arguments (one of `add_turns`' mappings)."""
        return {"role": self.role, "content": self.content, "session_id": self.session_id, "speaker": self.speaker,
                "timestamp": self.timestamp, "turn_id": self.id, "source": self.source, "tags": self.tags}


class TurnsIn(_Body):
    turns: list[TurnIn] = Field(min_length=1, description="the turns, in order (at most Config.server.max_batch_turns)")


class ForgetIn(_Body):
    session_id: Id | None = Field(None, description="forget this session")
    all: StrictBool = Field(False, description="forget every memory of this token's user (and the user's tokens); "
                                               "JSON true or false, nothing else")

    @model_validator(mode="after")
    def _one_target(self) -> ForgetIn:
        if (self.session_id is None) == (not self.all):
            raise ValueError("give exactly one of session_id or all=true")
        return self


class CloseLoopIn(_Body):
    note: str | None = None


class JudgmentIn(_Body):
    trigger: Text = Field(description="the situation that called for a judgment")
    judgment: Text = Field(description="what was decided")
    reasoning: Text = Field(description="why")
    domain: Id | None = None
    metadata: dict[str, Any] | None = None


class VerifyIn(_Body):
    adopted: StrictBool = Field(description="was the judgment adopted (true) or rejected (false)")
    user_correction: str | None = None


def check_host(host: str, auth: bool) -> None:
    """Refuse to serve beyond loopback without auth (ValueError)."""
    if not auth and not is_loopback(host):
        raise ValueError(f"refusing to serve {host} without auth: --no-auth is for loopback (127.0.0.1) only")


def _encodable(value: object) -> object:
    """A string as it can be sent in UTF-8 (a lone surrogate written as its escape); anything else as it is."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(value, str) else value


def _refuse_reused_ids(mem: Memory, turns: Sequence[TurnIn]) -> None:
    """409 for a turn whose `id` its session already has (or the batch gives) for another turn: ids name turns in
    recall's `source_ids`, one id one turn. A turn sent again (the same id, role and content) passes: stored once.
    Checked at the door: two different turns sent with one new id at the same instant may both get in."""
    by_session: dict[str, list[tuple[str, TurnIn]]] = defaultdict(list)
    for t in turns:
        if t.id is not None:
            by_session[t.session_id].append((t.id, t))
    for session_id, group in by_session.items():
        stored = mem.store.stored_turns(mem.user_id, session_id, [turn_id for turn_id, _ in group])
        seen = {turn_id: (role, content) for turn_id, role, content in stored}
        for turn_id, t in group:
            if seen.setdefault(turn_id, (t.role, t.content)) != (t.role, t.content):
                raise HTTPException(status.HTTP_409_CONFLICT,
                                    f"turn id {_encodable(turn_id)!r} is already used in session "
                                    f"{_encodable(session_id)!r} by another turn: give each turn its own id (a turn "
                                    "sent again with the same id, role and content is stored once)")


def _add_turn(mem: Memory, turn: TurnIn) -> str:
    """`_refuse_reused_ids`, then `Memory.add_turn`: what `POST /v1/turns` runs on its request thread."""
    _refuse_reused_ids(mem, [turn])
    return mem.add_turn(**turn.as_turn())


@contextmanager
def _found() -> Iterator[None]:
    """A KeyError (an id the user does not have) as a 404 that names it."""
    try:
        yield
    except KeyError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=exc.args[0] if exc.args else "not found") from None


BEARER = HTTPBearer(auto_error=False, description="a token from `episodic token create --user NAME`")


async def current_user(request: Request,
                       _: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]) -> str:
    """The user of the request's bearer token, settled by `auth.TokenAuth` before the request was admitted (a
    request without a live token got 401 there); the fixed user when auth is off. A coroutine, as every dependency
    here that does not block: FastAPI runs a plain function on a worker thread (a hop a request, issue 45)."""
    if not request.user.is_authenticated:  # not a /v1/ route: never reached through one
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "missing bearer token",
                            headers={"WWW-Authenticate": "Bearer"})
    return str(request.user.username)


AGENT = Query(description="act on this agent's scope instead of the user's: the token must allow reading it (a "
                          "GET) or writing it (any other method); 403 otherwise")
AGENTS = Query(description="also read this agent's scope (repeat for more); the token must allow reading each, 403 "
                           "otherwise. Each hit's `details.scope` (each fact's, judgment's `scope`) says whose it is")


def _allow(request: Request, agent: str, *, write: bool) -> None:
    """403 unless the request's token may read (or write) the agent's scope (`auth.may`)."""
    if not may(request.auth.scopes, check_agent(agent), write=write):
        raise HTTPException(status.HTTP_403_FORBIDDEN,
                            f"this token may not {'write' if write else 'read'} agent {_encodable(agent)!r}: "
                            f"create one with `episodic token create --{'write' if write else 'read'}-agent NAME`")


async def readable_agents(request: Request, agents: Annotated[list[str] | None, AGENTS] = None) -> tuple[str, ...]:
    """The agents whose scopes a read adds to its own (`agents=`), each allowed to the token."""
    for agent in agents or ():
        _allow(request, agent, write=False)
    return check_agents(agents)


async def user_memory(request: Request, user: Annotated[str, Depends(current_user)],
                      agent: Annotated[str | None, AGENT] = None) -> AsyncIterator[AsyncMemory]:
    """The `AsyncMemory` of the request's user, or of the agent scope it names (`agent=`, when its token allows:
    reading for a GET, writing for any other method): the only ones a request can reach, held open (leased from the
    pool: on the loop when it is open and the pool's lock free, else on a request thread, since opening one reads the
    file) until the response."""
    if agent is not None:
        _allow(request, agent, write=request.method != "GET")
    threads: ThreadPoolExecutor = request.app.state.request_threads
    pool: MemoryPool = request.app.state.pool
    owner = user if agent is None else agent_owner(agent)
    # an open Memory is leased here on the loop (no thread hop); one to open is leased on a request thread
    mem = pool.try_acquire(owner)
    if mem is None:
        entered = threads.submit(pool.acquire, owner)
        try:
            mem = await asyncio.wrap_future(entered)
        except asyncio.CancelledError:  # the request was given up while the lease was being taken: give it back
            entered.add_done_callback(lambda f: f.cancelled() or f.exception() is not None
                                      or threads.submit(_release, pool, owner))
            raise
    try:
        yield AsyncMemory.from_memory(mem, executor=threads)
    except asyncio.CancelledError:
        # given up (the server stopping past its grace): the lease goes back on a request thread, shielded, as it
        # always did, and the request ends with the stop without a traceback (tests/test_serve_stop.py)
        await asyncio.shield(asyncio.wrap_future(threads.submit(_release, pool, owner)))
        raise
    except BaseException:
        await _give_back(pool, owner, threads)
        raise
    await _give_back(pool, owner, threads)


async def _give_back(pool: MemoryPool, owner: str, threads: ThreadPoolExecutor) -> None:
    """End a request's lease: on the loop when the pool's lock is free at once and no Memory is left to close, else on
    a request thread (shielded: a request given up meanwhile still gives its lease back)."""
    idle = pool.release(owner, wait=False)
    if idle is None or idle:
        await asyncio.shield(asyncio.wrap_future(
            threads.submit(_release, pool, owner) if idle is None else threads.submit(_close, idle)))


def _release(pool: MemoryPool, owner: str) -> None:
    """`MemoryPool.release`, and the Memories it leaves idle closed."""
    _close(pool.release(owner) or [])


def _close(memories: list[Memory]) -> None:
    for old in memories:
        old.close()


Mem = Annotated[AsyncMemory, Depends(user_memory)]
Agents = Annotated[tuple[str, ...], Depends(readable_agents)]


def create_app(
    db_path: str | Path,
    *,
    auth: bool = True,
    user_id: str = DEFAULT_USER,
    config: Config | None = None,
    embedder: Embedder | None = None,
    max_body_bytes: int | None = None,
    limits: ServerLimits | None = None,
    allowed_hosts: Sequence[str] | None = None,
    inspector: SharedInspector | None = None,
) -> FastAPI:
    """The REST app over the memory file `db_path`.

    `auth=False` serves `user_id` to every caller without a token (loopback only: see `check_host`). `config`
    defaults to `Config.from_env()`; `limits` (the request threads, admission, background work: limits.py),
    `max_body_bytes` and `allowed_hosts` (a Host not answered gets 421: hosts.py) default to its `server`
    group; `embedder` overrides the configured model (tests pass a fake); `inspector`: the inspector's logins shared
    by the processes of one server (`serve_processes`).
    """
    mem_config = config or Config.from_env()
    limits = server_limits(limits or mem_config.server)
    inflight = InFlight()
    gate = BackgroundGate(limits, inflight.busy, WORKER_NAME)
    pool = MemoryPool(db_path, mem_config, embedder, background=True, maintenance_user=user_id, gate=gate)
    gate.backlog = pool.backlog
    tokens = TokenStore.open(db_path, mem_config) if auth else None
    # where the routes' Memory calls run (`user_memory`): as many threads as requests may run at once (limits.py)
    request_threads = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="episodic-request")

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        import anyio.to_thread

        # the inspector's sync endpoints' threads: a few per core, the rest wait on the loop (see limits.py)
        anyio.to_thread.current_default_thread_limiter().total_tokens = limits.workers
        pool.scheduler.start()
        pool.start_sweeper()  # sessions another server process left owed (killed before it consolidated them)
        try:
            yield
        finally:
            pool.close(mem_config.server.stop_grace_s)
            if tokens is not None:
                tokens.close()
            request_threads.shutdown(wait=False)  # idle threads end; one still running is a straggler (serve)

    app = FastAPI(
        title="episodic-memory",
        version=__version__,
        description="Long-term memory for AI agents. Every `/v1/` route but `/v1/health` takes "
                    "`Authorization: Bearer <token>` (`episodic token create --user NAME`) and acts only on that "
                    "token's user.",
        lifespan=lifespan,
    )
    limit = max_body_bytes if max_body_bytes is not None else mem_config.server.max_body_bytes
    # the last added runs first: Host (421), then the token (401), then admission (429), the body (408, 413), a place
    app.add_middleware(Admission, limits=limits, inflight=inflight, backlog=pool.backlog, max_body_bytes=limit,
                       body_timeout_s=mem_config.server.body_timeout_s)
    app.add_middleware(AuthenticationMiddleware, backend=TokenAuth(tokens, user_id, limits.auth_threads),
                       on_error=refused)
    app.add_middleware(AllowedHosts, allowed=list(allowed_hosts if allowed_hosts is not None
                                                  else mem_config.server.allowed_hosts))
    app.state.pool, app.state.tokens, app.state.request_threads = pool, tokens, request_threads
    app.state.limits, app.state.inflight = limits, inflight
    app.state.user_id = user_id
    @app.exception_handler(ValueError)
    async def _bad_value(_: Request, exc: ValueError) -> JSONResponse:
        # Memory's own checks (ids, times) name the field in their message.
        return JSONResponse({"detail": _encodable(str(exc))}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own 422 echoes the input, which may be the very thing that cannot be encoded (a lone surrogate)
        detail = [{"type": e["type"], "loc": [_encodable(x) for x in e["loc"]], "msg": _encodable(e["msg"])}
                  for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.get("/v1/health", tags=["service"])
    async def health() -> dict[str, Any]:
        """Liveness; needs no token. Answered on the event loop: never queued behind busy request threads."""
        return {"status": "ok", "version": __version__, "auth": auth}

    @app.post("/v1/turns", status_code=status.HTTP_201_CREATED, tags=["capture"])
    async def add_turn(turn: TurnIn, mem: Mem) -> dict[str, Any]:
        """Record one conversation turn (journaled and fsynced before the reply). Consolidation runs in the background.
        A turn sent again (the same `id`, role and content in its session) is stored once; an `id` its session
        already has for another turn is a 409."""
        turn_id = await mem.run(_add_turn, mem.memory, turn)  # one thread hop: the check, then the write
        return {"id": turn_id, "session_id": turn.session_id}

    @app.post("/v1/turns/batch", status_code=status.HTTP_201_CREATED, tags=["capture"])
    async def add_turns(batch: TurnsIn, mem: Mem) -> dict[str, Any]:
        """Record many turns at once (importing a history): every turn is checked first and either all are stored
        or none (a 422 names the turn and the field); one fsync and one transaction per session, then the reply with
        their ids in order. A turn sent again (the same `id`, role and content in its session) is stored once, as on
        `/v1/turns`; an `id` its session has for another turn is a 409."""
        if len(batch.turns) > mem_config.server.max_batch_turns:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY,
                                f"turns: {len(batch.turns):,} in one batch, over the limit of "
                                f"{mem_config.server.max_batch_turns:,} (Config.server.max_batch_turns)")
        await mem.run(_refuse_reused_ids, mem.memory, batch.turns)
        ids = await mem.add_turns([t.as_turn() for t in batch.turns])
        return {"ids": ids, "session_ids": list(dict.fromkeys(t.session_id for t in batch.turns))}

    @app.post("/v1/sessions/{session_id:path}/end", tags=["capture"])
    async def end_session(session_id: PathId, mem: Mem) -> dict[str, Any]:
        """Close a session and consolidate what it has not yet (returns when that is done)."""
        with _found():
            await mem.end_session(session_id, wait=True)
        return {"session_id": session_id, "status": "ended"}

    @app.get("/v1/sessions", tags=["read"])
    async def sessions(mem: Mem, limit: Limit = None) -> dict[str, Any]:
        """This user's sessions, newest first."""
        return {"sessions": [s.to_dict() for s in await mem.sessions(limit=limit)]}

    @app.get("/v1/sessions/{session_id:path}/turns", tags=["read"])
    async def session_turns(session_id: PathId, mem: Mem) -> dict[str, Any]:
        """The turns of one session, in order."""
        turns = await mem.session_turns(session_id)
        if not turns and not any(s.session_id == session_id for s in await mem.sessions()):
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"no session {session_id!r}")
        return {"session_id": session_id, "turns": [
            {"id": t.source_id, "seq": t.seq, "role": t.role, "speaker": t.speaker, "content": t.content,
             "timestamp": to_iso(t.ts), "source": t.source, "tags": t.tags} for t in turns]}

    @app.get("/v1/recall", tags=["recall"])
    async def recall(
        mem: Mem,
        q: Annotated[Words, Query(min_length=1, description="what to recall")],
        k: Annotated[int, Query(ge=1, le=MAX_K)] = 10,
        session_id: str | None = None,
        kind: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        source: Annotated[str | None, Query(description="only turns from this source")] = None,
        tag: Annotated[list[str] | None, Query(description="only turns with this tag (repeat: every one)")] = None,
        now: Annotated[str | None, Query(description="ISO-8601 time the question is asked: recency and time phrases "
                                         "(\"last week\") count from it; default: the server's clock")] = None,
        agents: Agents = (),
    ) -> dict[str, Any]:
        """The memories most relevant to `q`, best first: `{"hits": [...]}`."""
        if now is not None:
            try:
                to_epoch(now, "now")
            except ValueError as exc:
                raise HTTPException(status.HTTP_400_BAD_REQUEST, _encodable(str(exc))) from None
        hits = await mem.recall(q, k=k, session_id=session_id, kind=kind, since=since, until=until, source=source,
                                tags=tag, now=now, agents=agents)
        return {"hits": [h.to_dict() for h in hits]}

    @app.get("/v1/facts", tags=["read"])
    async def facts(mem: Mem, include_superseded: bool = False, agents: Agents = ()) -> dict[str, Any]:
        """The facts distilled from this user's conversations (current ones unless `include_superseded`), and from
        the `agents`' scopes; each fact's `scope` says whose."""
        return {"facts": [{**to_data(f), "scope": scope_of(f.user_id)}
                          for f in await mem.facts(include_superseded=include_superseded, agents=agents)]}

    @app.get("/v1/facts/{fact_id}/history", tags=["read"])
    async def fact_history(fact_id: RowId, mem: Mem) -> dict[str, Any]:
        """A fact and the chain of facts it superseded or was superseded by."""
        with _found():
            return {"fact_id": fact_id, "history": [to_data(f) for f in await mem.fact_history(fact_id)]}

    @app.get("/v1/loops", tags=["ongoing work"])
    async def loops(mem: Mem, loop_status: Annotated[Literal["open", "closed", "all"], Query(alias="status")] = "open",
                    agents: Agents = ()) -> dict[str, Any]:
        """Open loops: things promised or left unresolved (`status=open|closed|all`), and the `agents`'; each
        loop's `scope` says whose."""
        return {"loops": [scoped(x) for x in await mem.loops(status=loop_status, agents=agents)]}

    @app.post("/v1/loops/{loop_id}/close", tags=["ongoing work"])
    async def close_loop(loop_id: RowId, mem: Mem, body: CloseLoopIn | None = None) -> dict[str, Any]:
        """Mark an open loop done. A loop already closed is returned as it is, with `already_closed` true."""
        before = await mem.run(mem.memory.store.loops, mem.user_id, "all", ids=[loop_id])
        with _found():
            loop = await mem.close_loop(loop_id, note=body.note if body else None)
        return {"loop": to_data(loop), "already_closed": bool(before) and before[0].status == "closed"}

    @app.get("/v1/workstreams", tags=["ongoing work"])
    async def workstreams(mem: Mem, include_hypotheses: bool = False, agents: Agents = ()) -> dict[str, Any]:
        """The user's workstreams (ongoing projects), and the `agents'`, most recent first; each one's `scope` says
        whose."""
        found = await mem.workstreams(include_hypotheses=include_hypotheses, agents=agents)
        return {"workstreams": [scoped(w) for w in found]}

    @app.get("/v1/brief", tags=["ongoing work"])
    async def brief(mem: Mem, hours: Annotated[float, Query(gt=0, le=24 * 365)] = 24,
                    agents: Agents = ()) -> dict[str, Any]:
        """A startup briefing: what happened in the last `hours`, open loops, active workstreams; with `agents`,
        theirs too, merged newest first. Every item's `scope` says whose."""
        return brief_data(await mem.brief(hours=hours, agents=agents))

    @app.post("/v1/judgments", status_code=status.HTTP_201_CREATED, tags=["judgments"])
    async def judgment_store(body: JudgmentIn, mem: Mem) -> dict[str, Any]:
        """Store a judgment: a situation, what was decided, and why."""
        judgment_id = await mem.run(lambda: mem.memory.judgments.store(
            body.trigger, body.judgment, body.reasoning, domain=body.domain, metadata=body.metadata))
        return {"id": judgment_id}

    @app.get("/v1/judgments", tags=["judgments"])
    async def judgment_search(
        mem: Mem,
        q: Annotated[Words | None, Query(min_length=1, description="the situation at hand; none: list them")] = None,
        top_k: Annotated[int, Query(ge=1, le=MAX_K)] = 5,
        domain: str | None = None,
        min_score: Annotated[float, Query(allow_inf_nan=False)] = 0.0,
        use_utility: bool = False,
        limit: Limit = None,
        agents: Agents = (),
    ) -> dict[str, Any]:
        """Past judgments for situations like `q`, `{"results": [...]}`; `use_utility` ranks by how often they
        were adopted too. Without `q`: `{"judgments": [...]}`, every judgment (of `domain`) in the order stored.
        Both take `agents` (each result's `scope` says whose)."""
        if q is None:
            listed = await mem.run(lambda: mem.memory.list_judgments(agents=agents, domain=domain, limit=limit))
            return {"judgments": [to_data(j) for j in listed]}
        query = q
        results = await mem.run(lambda: mem.memory.search_judgments(
            query, agents=agents, top_k=top_k, domain=domain, min_score=min_score, use_utility=use_utility))
        return {"results": [to_data(r) for r in results]}

    @app.post("/v1/judgments/{judgment_id:path}/verify", tags=["judgments"])
    async def judgment_verify(judgment_id: PathId, body: VerifyIn, mem: Mem) -> dict[str, Any]:
        """Record whether a judgment was adopted (feeds its utility)."""
        with _found():
            result = await mem.run(lambda: mem.memory.judgments.verify(judgment_id, body.adopted,
                                                                       user_correction=body.user_correction))
        return {"id": judgment_id, "adopted": body.adopted, "result": to_data(result)}

    @app.get("/v1/judgments/{judgment_id:path}", tags=["judgments"])
    async def judgment_get(judgment_id: PathId, mem: Mem) -> dict[str, Any]:
        """One judgment with its verdict counts and utility."""
        with _found():
            return to_data(await mem.run(lambda: mem.memory.judgments.get(judgment_id)))

    @app.delete("/v1/judgments/{judgment_id:path}", tags=["judgments"])
    async def judgment_delete(judgment_id: PathId, mem: Mem) -> dict[str, Any]:
        """Delete a judgment for good, with its verdicts."""
        with _found():
            return {"deleted": await mem.run(lambda: mem.memory.judgments.delete(judgment_id))}

    @app.post("/v1/forget", tags=["forget"])
    async def forget(body: ForgetIn, mem: Mem) -> dict[str, Any]:
        """Delete for good one session (`session_id`) or every memory of this user (`all`, which also deletes
        the user's tokens). Rows, search index, vectors and journals go; the file is scrubbed. With `agent=NAME`
        (a token that may write it) the same of that agent's scope alone: no user's memories are touched."""
        if body.session_id is not None:
            forgot = await mem.forget(session_id=body.session_id)
        else:
            forgot = await mem.forget(user_id=mem.user_id)
        pool.forgotten(mem.user_id, body.session_id)
        return {"forgot": forgot}

    @app.get("/v1/stats", tags=["service"])
    async def stats(mem: Mem) -> dict[str, Any]:
        """What is in the store for this user. The file's paths and size (`db`, `journal`, `file_bytes`: shared by
        every user, so its growth shows another user's writes) only with auth off, to the file's one local user."""
        figures = await mem.stats()
        if tokens is not None:
            for key in SERVER_STATS:
                figures.pop(key, None)
        return figures

    add_hook_routes(app, current_user)  # coding-agent hooks (server/hooks.py, docs/hooks.md)
    add_inspector(app, mem_config, inspector)
    return app


def serve(db_path: str | Path, *, host: str = "127.0.0.1", port: int = 8765, auth: bool = True,
          user_id: str = DEFAULT_USER, log_level: str = "info", limits: ServerLimits | None = None,
          allowed_hosts: Sequence[str] = ()) -> None:
    """Run the app with uvicorn until interrupted. SIGINT / SIGTERM stop it within about twice
    `Config.server.stop_grace_s`: requests get that long to finish, then consolidation (`MemoryPool.close`).
    `limits` default to `Config.from_env().server`; the access log is off unless `limits.access_log` (a
    recall's line holds its query). `allowed_hosts` are answered besides the configured ones: see
    `hosts.py`. With `limits.processes` over 1, that many processes serve the one port (`processes.py`)."""
    import uvicorn

    check_host(host, auth)
    config = Config.from_env()
    limits = server_limits(limits or config.server)
    hosts = [*config.server.allowed_hosts, *allowed_hosts]
    if limits.processes > 1:
        from .processes import ServerSpec, serve_processes

        serve_processes(ServerSpec(str(db_path), auth, user_id, limits, tuple(hosts), log_level), host, port,
                        _child_app, _end_without_stragglers)
        return
    uvicorn.run(create_app(db_path, auth=auth, user_id=user_id, config=config, limits=limits, allowed_hosts=hosts),
                **uvicorn_options(config, limits, log_level), host=host, port=port)
    _end_without_stragglers()


def uvicorn_options(config: Config, limits: ServerLimits, log_level: str) -> dict[str, Any]:
    """What `serve` tells uvicorn besides the app and the address (one process or each of several)."""
    return {"log_level": log_level, "access_log": limits.access_log,
            "timeout_graceful_shutdown": math.ceil(config.server.stop_grace_s)}


def _child_app(spec: ServerSpec, inspector: SharedInspector) -> tuple[FastAPI, dict[str, Any]]:
    """In each process of `serve_processes`: the app, as `serve` makes it, and uvicorn's options."""
    config = Config.from_env()
    app = create_app(spec.db_path, auth=spec.auth, user_id=spec.user_id, config=config, limits=spec.limits,
                     allowed_hosts=spec.allowed_hosts, inspector=inspector)
    return app, uvicorn_options(config, spec.limits, spec.log_level)


def _end_without_stragglers(wait_s: float = 0.5) -> None:
    """After uvicorn stopped: a request that outlived the grace (a session end consolidating through a slow LLM)
    still runs in a worker thread the interpreter would wait for at exit. End the process without it: its turns are
    durable, and its session was flagged for the next start by `MemoryPool.close`."""
    deadline = time.monotonic() + wait_s

    def busy() -> list[threading.Thread]:
        return [t for t in threading.enumerate()
                if t.is_alive() and not t.daemon and t is not threading.current_thread()]

    for thread in busy():  # idle workers end as their loop closes: give them a moment
        thread.join(max(0.0, deadline - time.monotonic()))
    if busy():
        log.warning("stopped with %d request(s) unfinished; their sessions are consolidated at the next start",
                    len(busy()))
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
