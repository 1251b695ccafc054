"""How much the REST server takes on at once, and how its background work gives way to requests (issue 16).

Every threshold lives in `Config.server`; what each bound does, and why: docs/security.md, "Limits: no caller
stalls the others".
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from typing import Any

import anyio
from starlette.authentication import BaseUser

from ..config import Config, ServerSettings

log = logging.getLogger(__name__)

NEVER_REFUSED = frozenset({"/v1/health"})
TOO_MANY = (b'{"detail":"the server is busy: nothing was done; send the request again after Retry-After '
            b'seconds"}')


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


ServerLimits = ServerSettings
"""The server's limits: `Config.server` (``EPISODIC_SERVER__<NAME>``); `server_limits` works out each 0."""


def server_limits(limits: ServerSettings | None = None, **overrides: Any) -> ServerSettings:
    """`limits` (default: `Config.from_env().server`) with `overrides` (None: not overridden), each limit of 0
    ("work it out") replaced by its value on this machine."""
    base = limits if limits is not None else Config.from_env().server
    given = {name: value for name, value in overrides.items() if value is not None}
    return ServerSettings.model_validate({**base.model_dump(), **given}).resolved(_cores())


Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


class InFlight:
    """The requests under way, by client: counted by `Admission` on the event loop (no lock needed there); `busy`
    may be read from any thread."""

    def __init__(self) -> None:
        self.total = 0
        self.refused = 0
        self.per_client: Counter[bytes] = Counter()

    def busy(self) -> bool:
        return self.total > 0


class FairSlots:
    """`n` places to run requests in, handed out fairly among clients: a freed place goes to the waiting client with
    the fewest requests running (the longest waiting among equals), and no client runs more than `per_client` at
    once. Used on the event loop only."""

    def __init__(self, n: int, per_client: int) -> None:
        self.free = n
        self.per_client = per_client
        self.running: Counter[bytes] = Counter()
        self._waiting: dict[bytes, deque[asyncio.Future[None]]] = {}

    async def acquire(self, client: bytes) -> None:
        if self.free > 0 and not self._waiting and self.running[client] < self.per_client:
            self.free -= 1
            self.running[client] += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(future)
        self._hand_out()  # a free place this client may take (others are waiting, but at their cap)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # granted as it was cancelled: give the place back
                self.release(client)
            else:
                queue = self._waiting.get(client)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[client]
            raise

    def release(self, client: bytes) -> None:
        self.running[client] -= 1
        if self.running[client] <= 0:
            del self.running[client]
        self.free += 1
        self._hand_out()

    def _hand_out(self) -> None:
        while self.free > 0:
            ready = [c for c in self._waiting if self.running[c] < self.per_client]
            if not ready:
                return
            client = min(ready, key=lambda c: self.running[c])  # dicts keep order: the longest waiting among equals
            queue = self._waiting.pop(client)
            future = queue.popleft()
            if queue:
                self._waiting[client] = queue  # to the back: round robin among clients
            if future.cancelled():
                continue
            self.free -= 1
            self.running[client] += 1
            future.set_result(None)


class Admission:
    """ASGI middleware: refuse a request past `max_inflight` under way (or past its client's share) with 429 +
    ``Retry-After``, before its body is read or anything is done; read the others' bodies (with a deadline and a
    size cap), then run them in `workers` fair places."""

    def __init__(self, app: Callable[..., Awaitable[None]], limits: ServerLimits, inflight: InFlight,
                 backlog: Callable[[], int] = lambda: 0, max_body_bytes: int = 1 << 20,
                 body_timeout_s: float = 30.0) -> None:
        self.app = app
        self.limits = limits
        self.inflight = inflight
        self.backlog = backlog  # turns waiting for consolidation
        self.max_body_bytes = max_body_bytes
        self.body_timeout_s = body_timeout_s
        self.slots = FairSlots(limits.workers, limits.per_client_running)
        self.heavy = asyncio.Semaphore(limits.heavy_running)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in NEVER_REFUSED:
            await self.app(scope, receive, send)
            return
        counts, client = self.inflight, client_key(scope)
        if (counts.total >= self.limits.max_inflight or counts.per_client[client] >= self.limits.per_client_max
                or (self.limits.backlog_refuse_turns and scope.get("method") == "POST"
                    and scope.get("path") == "/v1/turns" and self.backlog() > self.limits.backlog_refuse_turns)):
            counts.refused += 1
            await send_json(send, 429, TOO_MANY, (b"retry-after", str(self.limits.retry_after_s).encode()))
            return
        counts.total += 1
        counts.per_client[client] += 1
        try:
            body = await read_body(scope, receive, send, self.max_body_bytes, self.body_timeout_s)
            if body is None:
                return  # answered (400, 408, 413), or the caller left
            async with self.heavy if len(body) >= self.limits.heavy_body_bytes else nullcontext():
                await self.slots.acquire(client)
                try:
                    await self.app(scope, _replay(body, receive), send)
                finally:
                    self.slots.release(client)
        finally:
            counts.total -= 1
            counts.per_client[client] -= 1
            if counts.per_client[client] <= 0:
                del counts.per_client[client]


async def read_body(scope: dict[str, Any], receive: Receive, send: Send, max_bytes: int,
                    timeout_s: float) -> bytes | None:
    """The request's whole body, or None once the caller is answered: 400 for a Content-Length that is not a number,
    413 past `max_bytes` (declared, or counted as a chunked body comes), 408 when it has not all come within
    `timeout_s`. None without an answer when the caller left."""
    declared = dict(scope.get("headers") or []).get(b"content-length")
    if declared is not None:
        try:
            too_big = int(declared) > max_bytes
        except ValueError:
            await send_json(send, 400, {"detail": "Content-Length is not a number"})
            return None
        if too_big:
            await send_json(send, 413, {"detail": f"request body is over {max_bytes} bytes"})
            return None
    chunks: list[bytes] = []
    size, more = 0, True
    try:
        with anyio.fail_after(timeout_s):
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return None
                chunk = message.get("body", b"")
                chunks.append(chunk)
                size += len(chunk)
                more = message.get("more_body", False)
                if size > max_bytes:
                    await send_json(send, 413, {"detail": f"request body is over {max_bytes} bytes"})
                    return None
    except TimeoutError:
        await send_json(send, 408, {"detail": f"the request body did not arrive within {timeout_s:g} s "
                                              "(Config.server.body_timeout_s): nothing was done"})
        return None
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` for the app: the body already read, then the caller's own messages (a disconnect)."""
    replayed = False

    async def replay() -> dict[str, Any]:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def send_json(send: Send, code: int, data: dict[str, Any] | bytes,
                    header: tuple[bytes, bytes] = (b"connection", b"close")) -> None:
    """A JSON answer, by default closing the connection (what a caller may still be sending is never read)."""
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    await send({"type": "http.response.start", "status": code,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            header]})
    await send({"type": "http.response.body", "body": payload})


def client_key(scope: dict[str, Any]) -> bytes:
    """Who a request's share is counted against: its authenticated user (`auth.TokenAuth`), else its address."""
    user = scope.get("user")
    if isinstance(user, BaseUser) and user.is_authenticated:
        return b"user:" + user.display_name.encode("utf-8", "surrogatepass")
    client = scope.get("client")
    return b"addr:" + repr(client[0] if client else None).encode()


class BackgroundGate:
    """What the consolidation worker calls before each job: wait for a moment when no request is in flight, at most
    `background_defer_s`. (The worker's lower priority is the scheduler's: `MemoryPool(background_nice=...)`; the
    embedding it asks for runs on lane threads of that priority, models/embedder.py.)"""

    def __init__(self, limits: ServerLimits, busy: Callable[[], bool], thread_name: str,
                 backlog: Callable[[], int] = lambda: 0) -> None:
        self.limits = limits
        self.busy = busy
        self.backlog = backlog  # turns waiting for consolidation
        self.thread_name = thread_name
        self._thread = threading.local()
        self.deferred_s = 0.0  # in all, for the curious (bench, tests)

    def __call__(self) -> None:
        if threading.current_thread().name != self.thread_name:  # a request running the job (a session end)
            return
        mine = self._thread
        start = time.monotonic()
        last = getattr(mine, "returned", None)  # the previous job ran from then until now
        job_s = 0.0 if last is None else start - last
        limits = self.limits
        share = self.share()
        if share >= 1:
            mine.returned = time.monotonic()
            return
        wait = min(limits.background_max_wait_s, max(limits.background_defer_s, job_s * (1 / share - 1)))
        deadline = start + wait
        while self.busy() and time.monotonic() < deadline:
            time.sleep(0.005)
        mine.returned = time.monotonic()
        self.deferred_s += mine.returned - start

    def share(self) -> float:
        """The worker's share of wall time under load: `background_share`, growing with the backlog past
        `background_backlog_turns`."""
        limits = self.limits
        over = self.backlog() / limits.background_backlog_turns if limits.background_backlog_turns else 0.0
        return min(1.0, limits.background_share * max(1.0, over))

