"""The one LLM seam: every model call in the library goes through `ask` / `ask_json` here.

A backend is any object with ``async ask(system_prompt, user_prompt, *, model=None) -> str``. Built in:
Anthropic, OpenAI-compatible (OpenAI, Ollama, vLLM, LM Studio, llama.cpp) and none. Choose one with
`set_backend(obj)`, or by config / ``EPISODIC_LLM`` (``anthropic | openai | none``). With no backend the library
still captures, stores and recalls; consolidation falls back to rules.

`ask` adds what every caller needs: a timeout, retries with backoff (honouring a server's ``retry-after``), a
concurrency limit that holds across threads and event loops, and a log line per call naming its purpose and token
counts. It never raises for a model failure: it returns None and logs why.

A configuration that cannot work (an unknown ``EPISODIC_LLM``, anthropic without ``ANTHROPIC_API_KEY``, ...) is
not a model failure: the backend is chosen on first use (`get_backend`, `enabled`, `ask`), and that raises
`LLMConfigError` naming the missing variable. Importing the library never does; `describe()` reports the problem
instead of raising.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections import deque
from collections.abc import Coroutine
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..config import Config
from .parse import ParseError, parse_json

log = logging.getLogger(__name__)
T = TypeVar("T")


@runtime_checkable
class Backend(Protocol):
    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str: ...


class LLMError(RuntimeError):
    """A backend call failed in a way worth retrying (network, 5xx, 429, timeout, malformed body).

    `retry_after`: seconds the server asked us to wait, when it said.
    """

    def __init__(self, message: str = "", *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LLMFailed(RuntimeError):
    """Raised by `ask(..., fail=True)` when the backend could not be reached after retries (or raised): callers
    that must not treat an outage as "nothing to say" (consolidation) retry later instead."""


class LLMRefused(RuntimeError):
    """A backend call failed in a way not worth retrying (bad key, bad request)."""


class LLMConfigError(ValueError):
    """The configured backend cannot work (unknown name, missing key or model); the message says what to set."""


class NoneBackend:
    """No model: every call is declined, and the library takes its rule-based paths."""

    name = "none"

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        raise LLMRefused("no LLM backend is configured")


_backend: Any = None
_config: Config | None = None
_lock = threading.Lock()


class _Limiter:
    """At most `limit` holders at once across every thread and event loop (an asyncio.Semaphore is per loop)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._lock = threading.Lock()
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    async def acquire(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.count < self.limit and not self._waiters:
                self.count += 1
                return
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append((loop, waiter))
        try:
            await waiter
        except asyncio.CancelledError:
            with self._lock:
                queued = (loop, waiter) in self._waiters
                if queued:
                    self._waiters.remove((loop, waiter))
            if not queued and waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just as we were cancelled: pass it on
            raise  # (handed over but not yet woken: _wake sees the cancelled future and passes the slot on)

    def release(self) -> None:
        """Hand the slot to the oldest waiter (on its own loop), or free it."""
        with self._lock:
            while self._waiters:
                loop, waiter = self._waiters.popleft()
                try:
                    loop.call_soon_threadsafe(self._wake, waiter)
                    return
                except RuntimeError:  # that loop is closed
                    continue
            self.count -= 1

    def _wake(self, waiter: asyncio.Future[None]) -> None:
        if waiter.done():
            self.release()
        else:
            waiter.set_result(None)

    async def __aenter__(self) -> _Limiter:
        await self.acquire()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()


_limiter: _Limiter | None = None


def set_backend(backend: Any, config: Config | None = None) -> None:
    """Use `backend` for every LLM call (None: choose again from config and environment on next use)."""
    global _backend, _config, _limiter
    if backend is not None and not callable(getattr(backend, "ask", None)):
        raise TypeError("a backend needs an `async ask(system_prompt, user_prompt, *, model=None) -> str` method")
    with _lock:
        _backend = backend
        _config = config
        _limiter = None  # calls in flight finish on the old limiter


def get_backend() -> Any:
    """The backend in use: the one set, else the one config / ``EPISODIC_LLM`` names, else `NoneBackend`."""
    global _backend
    with _lock:
        if _backend is None:
            from .clients import backend_from_config

            _backend = backend_from_config(config())
        return _backend


def config() -> Config:
    return _config or Config.from_env()


def enabled() -> bool:
    """True when a real backend is configured (not `NoneBackend`)."""
    return not isinstance(get_backend(), NoneBackend)


def describe() -> str:
    """What the seam will use, e.g. "anthropic:claude-haiku-4-5", "openai:llama3@http://localhost:11434/v1",
    "none"; a configuration that cannot work reads "error: <what to set>"."""
    try:
        backend = get_backend()
    except LLMConfigError as exc:
        return f"error: {exc}"
    own = getattr(backend, "describe", None)
    return str(own()) if callable(own) else _who(backend)


def _who(backend: Any) -> str:
    name = getattr(backend, "name", None) or type(backend).__name__
    model = getattr(backend, "model", None)
    return f"{name}:{model}" if model else str(name)


def _limit(limit: int) -> _Limiter:
    global _limiter
    with _lock:
        if _limiter is None or _limiter.limit != limit:
            _limiter = _Limiter(limit)
        return _limiter


async def _call(backend: Any, system_prompt: str, user_prompt: str, model: str | None) -> tuple[Any, Any, Any]:
    """The reply with the usage and finish reason the backend noted for it (read before any other call can run)."""
    reply = await backend.ask(system_prompt, user_prompt, model=model)
    return reply, getattr(backend, "last_usage", None), getattr(backend, "last_finish", None)


def _tokens(usage: Any) -> str:
    if isinstance(usage, dict) and "input_tokens" in usage:
        return f", tokens in={usage.get('input_tokens')} out={usage.get('output_tokens')}"
    return f", tokens={usage}" if usage else ""


async def ask(system_prompt: str, user_prompt: str, *, purpose: str, model: str | None = None,
              fail: bool = False) -> str | None:
    """The backend's reply, or None (logged with the reason) when it failed, refused or said nothing.

    `fail=True`: a backend that could not be reached after the retries, that turned the request away (a bad key, a
    bad request: HTTP 4xx) or that raised, raises `LLMFailed` instead — so that consolidation retries later rather
    than taking an outage for "nothing to remember". A model's own refusal or an empty reply is an answer and still
    gives None.
    """
    backend = get_backend()
    if isinstance(backend, NoneBackend):
        return None
    cfg = config()
    limiter = _limit(cfg.llm_concurrency)
    delay = cfg.llm_backoff_s
    attempts = cfg.llm_retries + 1
    for attempt in range(1, attempts + 1):
        try:
            async with limiter:
                started = time.perf_counter()
                reply, usage, finish = await asyncio.wait_for(
                    _call(backend, system_prompt, user_prompt, model), timeout=cfg.llm_timeout_s)
        except LLMRefused as exc:
            log.warning("llm %s: refused (%s); not retried", purpose, exc)
            if fail:
                raise LLMFailed(f"{purpose}: {exc}") from exc
            return None
        except (LLMError, asyncio.TimeoutError, OSError) as exc:
            if isinstance(exc, asyncio.TimeoutError):
                reason = f"timed out after {cfg.llm_timeout_s:g}s"
            else:
                reason = str(exc) or type(exc).__name__
            if attempt < attempts:
                wait = delay
                server_wait = getattr(exc, "retry_after", None)
                if server_wait is not None:  # the server said when; never longer than one call may take
                    wait = max(wait, min(float(server_wait), cfg.llm_timeout_s))
                log.info("llm %s: %s; retry %d of %d in %.2fs", purpose, reason, attempt, cfg.llm_retries, wait)
                await asyncio.sleep(wait)
                delay *= 2
                continue
            log.warning("llm %s: %s; giving up after %d attempts", purpose, reason, attempt)
            if fail:
                raise LLMFailed(f"{purpose}: {reason}") from exc
            return None
        except Exception:
            log.exception("llm %s: backend raised; giving up", purpose)
            if fail:
                raise LLMFailed(f"{purpose}: the backend raised") from None
            return None
        elapsed = time.perf_counter() - started
        size = len(reply) if isinstance(reply, str) else 0
        stop = f", stop={finish}" if finish else ""
        log.info("llm %s: %s replied %d chars in %.2fs%s%s", purpose, _who(backend), size, elapsed, _tokens(usage),
                 stop)
        if not isinstance(reply, str):
            log.warning("llm %s: reply rejected: a %s, not text", purpose, type(reply).__name__)
            return None
        if not reply.strip():
            why = "refused" if finish in ("refusal", "content_filter") else "empty reply"
            log.warning("llm %s: reply rejected: %s%s", purpose, why, stop)
            return None
        return reply
    return None


async def ask_json(system_prompt: str, user_prompt: str, *, purpose: str, expect: type | None = None, fail: bool = False,
                   model: str | None = None) -> Any:
    """The JSON value in the reply (a list / dict when `expect` says so), or None with the reason logged."""
    reply = await ask(system_prompt, user_prompt, purpose=purpose, model=model, fail=fail)
    if reply is None:
        return None
    try:
        return parse_json(reply, expect)
    except ParseError as exc:
        log.warning("llm %s: reply rejected: %s", purpose, exc)
        return None


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from sync code, even when the calling thread already has an event loop running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


__all__ = ["Backend", "LLMConfigError", "LLMError", "LLMFailed", "LLMRefused", "NoneBackend", "ParseError", "ask", "ask_json",
           "config", "describe", "enabled", "get_backend", "parse_json", "run", "set_backend"]
