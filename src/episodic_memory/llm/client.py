"""`LLMClient`: one way to reach a model — a backend, the `Config` its calls follow, and their concurrency
limit. Which client a `Memory` uses (`client_for`): docs/architecture.md, "The LLM seam".
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from ..config import Config
from .base import LLMConfigError, LLMError, LLMFailed, LLMRefused, NoneBackend
from .parse import ParseError, parse_json

if TYPE_CHECKING:  # asyncio is imported by the first call: every Memory has a client, most never call it
    import asyncio

log = logging.getLogger("episodic_memory.llm")
T = TypeVar("T")


class _Limiter:
    """At most `limit` holders at once across every thread and event loop (an asyncio.Semaphore is per loop)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._lock = threading.Lock()
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    async def acquire(self) -> None:
        import asyncio

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


def _check(backend: Any) -> None:
    if backend is not None and not callable(getattr(backend, "ask", None)):
        raise TypeError("a backend needs an `async ask(system_prompt, user_prompt, *, model=None) -> str` method")


class LLMClient:
    """A backend with the timeout, retries, backoff and concurrency limit of a `Config`.

    ``LLMClient()``: the backend ``Config.from_env()`` / ``EPISODIC_LLM__BACKEND`` names, chosen on first use.
    ``LLMClient(config=cfg)``: the backend ``cfg.llm.backend`` names (else ``EPISODIC_LLM__BACKEND``); its model, base URL and key
    fall back to their environment variables. ``LLMClient(backend, cfg)``: that object, with `cfg` (else the
    environment's config) for timeouts and retries.

    A backend the client built is its own, and `close()` / `aclose()` close it (its pooled HTTP connections; it
    opens new ones if used again). A backend handed in stays its owner's to close.
    """

    def __init__(self, backend: Any = None, config: Config | None = None) -> None:
        _check(backend)
        self._backend = backend
        self._built = False  # the backend was made here from the config (and is closed with the client)
        self._config = config
        self._lock = threading.Lock()
        self._limiter: _Limiter | None = None

    @property
    def config(self) -> Config:
        """The config the calls follow: the one given, else the environment's (read at each use)."""
        return self._config or Config.from_env()

    def backend(self) -> Any:
        """The backend in use: the one given, else the one the config / ``EPISODIC_LLM__BACKEND`` names (built on first use,
        raising `LLMConfigError` when that cannot work), else `NoneBackend`."""
        with self._lock:
            if self._backend is None:
                from .clients import backend_from_config

                self._backend = backend_from_config(self.config)
                self._built = True
            return self._backend

    def enabled(self) -> bool:
        """True when a real backend is configured (not `NoneBackend`)."""
        return not isinstance(self.backend(), NoneBackend)

    def usable(self) -> bool:
        """`enabled()`, except that a configuration that cannot work (a missing key, ...) reads False after one
        warning line per process: the caller takes its rule-based path instead of failing, and asks again next
        time (so fixing the environment takes effect)."""
        try:
            return self.enabled()
        except LLMConfigError as exc:
            warn_once(log, f"LLM configuration problem: {exc}; consolidating with rules until it is fixed")
            return False

    def describe(self) -> str:
        """What the client will use, e.g. "anthropic:claude-haiku-4-5", "openai:llama3@http://localhost:11434/v1",
        "none"; a configuration that cannot work reads "error: <what to set>"."""
        try:
            backend = self.backend()
        except LLMConfigError as exc:
            return f"error: {exc}"
        own = getattr(backend, "describe", None)
        text = own() if callable(own) else None
        return str(text) if text else _who(backend)  # a describe() that says nothing does not print "None"

    def _limit(self, limit: int) -> _Limiter:
        with self._lock:
            if self._limiter is None or self._limiter.limit != limit:
                self._limiter = _Limiter(limit)  # calls in flight finish on the old one
            return self._limiter

    async def ask(self, system_prompt: str, user_prompt: str, *, purpose: str, model: str | None = None,
                  fail: bool = False) -> str | None:
        """The backend's reply, or None (logged with the reason) when it failed, refused or said nothing.

        `fail=True`: a backend that could not be reached after the retries, that turned the request away (a bad
        key, a bad request: HTTP 4xx) or that raised, raises `LLMFailed` instead — so that consolidation retries
        later rather than taking an outage for "nothing to remember". A model's own refusal or an empty reply is an
        answer and still gives None.
        """
        import asyncio

        backend = self.backend()
        if isinstance(backend, NoneBackend):
            return None
        cfg = self.config
        limiter = self._limit(cfg.llm.concurrency)
        delay = cfg.llm.backoff_s
        attempts = cfg.llm.retries + 1
        for attempt in range(1, attempts + 1):
            try:
                async with limiter:
                    started = time.perf_counter()
                    reply, usage, finish = await asyncio.wait_for(
                        _call(backend, system_prompt, user_prompt, model), timeout=cfg.llm.timeout_s)
            except LLMRefused as exc:  # with `fail`, the caller reports it: said here at INFO only
                log.log(logging.INFO if fail else logging.WARNING, "llm %s: refused (%s); not retried", purpose, exc)
                if fail:
                    raise LLMFailed(f"{purpose}: {exc}", kind="refused") from exc
                return None
            except (LLMError, asyncio.TimeoutError, OSError) as exc:
                reason = (f"timed out after {cfg.llm.timeout_s:g}s" if isinstance(exc, asyncio.TimeoutError)
                          else str(exc) or type(exc).__name__)
                if attempt < attempts:
                    wait = delay
                    server_wait = getattr(exc, "retry_after", None)
                    if server_wait is not None:  # the server said when; never longer than one call may take
                        wait = max(wait, min(float(server_wait), cfg.llm.timeout_s))
                    log.info("llm %s: %s; retry %d of %d in %.2fs", purpose, reason, attempt, cfg.llm.retries, wait)
                    await asyncio.sleep(wait)
                    delay *= 2
                    continue
                log.log(logging.INFO if fail else logging.WARNING, "llm %s: %s; giving up after %d attempts", purpose,
                        reason, attempt)
                if fail:
                    raise LLMFailed(f"{purpose}: {reason}") from exc
                return None
            except Exception as exc:
                if fail:
                    log.info("llm %s: backend raised; giving up", purpose, exc_info=True)
                    raise LLMFailed(f"{purpose}: the backend raised {type(exc).__name__}: {exc}",
                                    kind="raised") from exc
                log.exception("llm %s: backend raised; giving up", purpose)
                return None
            elapsed = time.perf_counter() - started
            size = len(reply) if isinstance(reply, str) else 0
            stop = f", stop={finish}" if finish else ""
            log.info("llm %s: %s replied %d chars in %.2fs%s%s", purpose, _who(backend), size, elapsed,
                     _tokens(usage), stop)
            if not isinstance(reply, str):
                log.warning("llm %s: reply rejected: a %s, not text", purpose, type(reply).__name__)
                return None
            if not reply.strip():
                why = "refused" if finish in ("refusal", "content_filter") else "empty reply"
                log.warning("llm %s: reply rejected: %s%s", purpose, why, stop)
                return None
            return reply
        return None

    async def ask_json(self, system_prompt: str, user_prompt: str, *, purpose: str, expect: type | None = None,
                       fail: bool = False, model: str | None = None) -> Any:
        """The JSON value in the reply (a list / dict when `expect` says so), or None with the reason logged."""
        reply = await self.ask(system_prompt, user_prompt, purpose=purpose, model=model, fail=fail)
        if reply is None:
            return None
        try:
            return parse_json(reply, expect)
        except ParseError as exc:
            log.warning("llm %s: reply rejected: %s", purpose, exc)
            return None

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine from sync code, even when the calling thread already has an event loop running: on
        the one long-lived loop of `runner`, so pooled HTTP connections are reused."""
        from .runner import runner

        return runner.run(coro)

    def _owned_backend(self) -> Any:
        with self._lock:
            return self._backend if self._built else None

    def close(self) -> None:
        """Close the backend this client built (its pooled HTTP connections), from any thread."""
        closer = getattr(self._owned_backend(), "close", None)
        if callable(closer):
            closer()

    async def aclose(self) -> None:
        """`close`, awaited from an event loop."""
        backend = self._owned_backend()
        closer = getattr(backend, "aclose", None)
        if callable(closer):
            await closer()
        else:
            self.close()

    def __repr__(self) -> str:
        with self._lock:
            backend = self._backend
        what = "chosen on first use" if backend is None else _who(backend)
        return f"<LLMClient {what}>"


class _ProcessDefault(LLMClient):
    """The process default client as a `Memory` without an LLM of its own sees it: looked up at each call, so
    `llm.set_backend(...)` made after the Memory still takes effect. Closing it closes nothing: it builds no backend
    of its own."""

    @property
    def config(self) -> Config:
        return default_client().config

    def backend(self) -> Any:
        return default_client().backend()

    async def ask(self, system_prompt: str, user_prompt: str, *, purpose: str, model: str | None = None,
                  fail: bool = False) -> str | None:
        return await default_client().ask(system_prompt, user_prompt, purpose=purpose, model=model, fail=fail)

    def __repr__(self) -> str:
        return f"<LLMClient: the process default, now {default_client()!r}>"


_default = LLMClient()
RULES_ONLY = LLMClient(NoneBackend())  # what a consolidation run uses when the configured LLM cannot work
_warned: set[str] = set()
_warned_lock = threading.Lock()


def warn_once(logger: logging.Logger, message: str, key: str | None = None) -> None:
    """`message` as a warning the first time this process says it (or anything under the same `key`); at INFO
    after that."""
    with _warned_lock:
        first = (key or message) not in _warned
        _warned.add(key or message)
    logger.log(logging.WARNING if first else logging.INFO, message)
PROCESS_DEFAULT: LLMClient = _ProcessDefault()


def default_client() -> LLMClient:
    """The process default client: what `llm.ask` and the other module functions use."""
    return _default


def set_default_client(client: LLMClient) -> None:
    global _default
    _default = client


def client_for(config: Config | None, llm: Any = None) -> tuple[LLMClient, bool]:
    """A `Memory`'s client, and whether the Memory owns it (closes it when it closes). See the `llm` module."""
    if isinstance(llm, LLMClient):
        return llm, False
    if llm is not None:
        return LLMClient(llm, config), False  # the backend stays the caller's to close
    if config is not None and config.llm.backend is not None:
        return LLMClient(None, config), True
    return PROCESS_DEFAULT, False


def _who(backend: Any) -> str:
    name = getattr(backend, "name", None) or type(backend).__name__
    model = getattr(backend, "model", None)
    return f"{name}:{model}" if model else str(name)


async def _call(backend: Any, system_prompt: str, user_prompt: str, model: str | None) -> tuple[Any, Any, Any]:
    """The reply with the usage and finish reason the backend noted for it (read before any other call can run)."""
    reply = await backend.ask(system_prompt, user_prompt, model=model)
    return reply, getattr(backend, "last_usage", None), getattr(backend, "last_finish", None)


def _tokens(usage: Any) -> str:
    if isinstance(usage, dict) and "input_tokens" in usage:
        return f", tokens in={usage.get('input_tokens')} out={usage.get('output_tokens')}"
    return f", tokens={usage}" if usage else ""
