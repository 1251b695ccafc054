"""The one LLM seam: every model call in the library goes through `ask` / `ask_json` here.

A backend is any object with ``async ask(system_prompt, user_prompt, *, model=None) -> str``. Built in:
Anthropic, OpenAI-compatible (OpenAI, Ollama, vLLM, LM Studio, llama.cpp) and none. Choose one with
`set_backend(obj)`, or by config / ``EPISODIC_LLM`` (``anthropic | openai | none``). With no backend the library
still captures, stores and recalls; consolidation falls back to rules.

`ask` adds what every caller needs: a timeout, retries with backoff, a concurrency limit and a log line per call
naming its purpose. It never raises for a model failure: it returns None and logs why.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
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
    """A backend call failed in a way worth retrying (network, 5xx, 429, timeout)."""


class LLMRefused(RuntimeError):
    """A backend call failed in a way not worth retrying (bad key, bad request)."""


class NoneBackend:
    """No model: every call is declined, and the library takes its rule-based paths."""

    name = "none"

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        raise LLMRefused("no LLM backend is configured")


_backend: Any = None
_config: Config | None = None
_lock = threading.Lock()
_semaphores: dict[int, asyncio.Semaphore] = {}


def set_backend(backend: Any, config: Config | None = None) -> None:
    """Use `backend` for every LLM call (None: choose again from config and environment on next use)."""
    global _backend, _config
    if backend is not None and not callable(getattr(backend, "ask", None)):
        raise TypeError("a backend needs an `async ask(system_prompt, user_prompt, *, model=None) -> str` method")
    with _lock:
        _backend = backend
        _config = config
        _semaphores.clear()


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


def _semaphore(limit: int) -> asyncio.Semaphore:
    loop_id = id(asyncio.get_running_loop())
    with _lock:
        sem = _semaphores.get(loop_id)
        if sem is None:
            sem = _semaphores[loop_id] = asyncio.Semaphore(limit)
        return sem


async def ask(system_prompt: str, user_prompt: str, *, purpose: str, model: str | None = None) -> str | None:
    """The backend's reply, or None (logged with the reason) when it failed, refused or said nothing."""
    backend = get_backend()
    if isinstance(backend, NoneBackend):
        return None
    cfg = config()
    delay = cfg.llm_backoff_s
    for attempt in range(cfg.llm_retries + 1):
        started = time.perf_counter()
        try:
            async with _semaphore(cfg.llm_concurrency):
                reply = await asyncio.wait_for(
                    backend.ask(system_prompt, user_prompt, model=model), timeout=cfg.llm_timeout_s)
        except LLMRefused as exc:
            log.warning("llm %s: refused (%s); not retried", purpose, exc)
            return None
        except (LLMError, asyncio.TimeoutError, OSError) as exc:
            reason = "timed out" if isinstance(exc, asyncio.TimeoutError) else str(exc) or type(exc).__name__
            if attempt < cfg.llm_retries:
                log.info("llm %s: %s; retry %d in %.1fs", purpose, reason, attempt + 1, delay)
                await asyncio.sleep(delay)
                delay *= 2
                continue
            log.warning("llm %s: %s after %d attempts; giving up", purpose, reason, attempt + 1)
            return None
        except Exception:
            log.exception("llm %s: backend raised; giving up", purpose)
            return None
        elapsed = time.perf_counter() - started
        usage = getattr(backend, "last_usage", None)
        log.info("llm %s: %d chars in %.2fs%s", purpose, len(reply or ""), elapsed, f" tokens={usage}" if usage else "")
        if not isinstance(reply, str) or not reply.strip():
            log.warning("llm %s: empty reply", purpose)
            return None
        return reply
    return None


async def ask_json(system_prompt: str, user_prompt: str, *, purpose: str, expect: type | None = None,
                   model: str | None = None) -> Any:
    """The JSON value in the reply (a list / dict when `expect` says so), or None with the reason logged."""
    reply = await ask(system_prompt, user_prompt, purpose=purpose, model=model)
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


__all__ = ["Backend", "LLMError", "LLMRefused", "NoneBackend", "ParseError", "ask", "ask_json", "config",
           "enabled", "get_backend", "parse_json", "run", "set_backend"]
