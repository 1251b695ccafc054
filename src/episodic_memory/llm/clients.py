"""The built-in backends — Anthropic and OpenAI-compatible HTTP clients — and the choice between them.

Both speak plain HTTP through httpx and map failures onto the seam's two errors: `LLMError` (worth retrying:
network, timeout, 408/409/429/5xx, a malformed body) and `LLMRefused` (not: any other 4xx, carrying the
server's own message). A backend keeps one pooled ``httpx.AsyncClient`` per event loop (connections belong to
the loop they were opened on), closed with that loop's async generators; `close()` / `aclose()` close every
pool.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import email.utils
import logging
import os
import threading
import time
import weakref
from collections.abc import AsyncGenerator, Coroutine
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

import httpx

from ..config import Config
from .base import LLMConfigError, LLMError, LLMRefused, NoneBackend

log = logging.getLogger(__name__)

DEFAULT_ANTHROPIC_MODEL = "claude-haiku-4-5"
DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
BACKEND_NAMES = ("anthropic", "openai", "none")
# idle connections are kept this long (httpx's default, 5 s, is shorter than the gap between consolidation calls)
POOL_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=30.0)


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``retry-after`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    with contextlib.suppress(ValueError):
        return max(0.0, float(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _usage(usage: Any, tokens_in: str, tokens_out: str) -> dict[str, int] | None:
    """A reply's token counts; an odd one counts as 0 (usage is for the log, not worth failing)."""
    if not isinstance(usage, dict):
        return None
    counts = {"input_tokens": usage.get(tokens_in), "output_tokens": usage.get(tokens_out)}
    return {k: v if isinstance(v, int) and v >= 0 else 0 for k, v in counts.items()}


def _server_message(response: httpx.Response) -> str:
    """The error text a server put in its body (Anthropic, OpenAI and Ollama shapes), else the body's start."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str) and error:
            return error
        if body.get("message"):
            return str(body["message"])
    text = " ".join(response.text.split())
    return text[:200] or response.reason_phrase or "no message"


@dataclass
class _Pool:
    """One event loop's HTTP client, and the generator whose closing closes it (see `_keep`)."""

    loop: asyncio.AbstractEventLoop
    client: httpx.AsyncClient
    keeper: AsyncGenerator[None, None]


async def _keep(client: httpx.AsyncClient, loop: asyncio.AbstractEventLoop) -> AsyncGenerator[None, None]:
    """Suspended for as long as `client` is pooled; closing it closes the client. A loop's shutdown (``asyncio.run``,
    ``loop.shutdown_asyncgens()``) closes every async generator still suspended on it, so a pooled client does not
    outlive its loop with connections open."""
    try:
        yield
    finally:
        if not loop.is_closed():
            await client.aclose()


_closing: set[asyncio.Task[None]] = set()  # closes under way, kept until done


def _close_pool(pool: _Pool, wait_s: float | None = 5.0) -> None:
    """Close `pool`'s client on its own loop, from any thread. Waits (up to `wait_s`) when that loop runs in
    another thread; otherwise the close is scheduled there."""
    loop = pool.loop
    if loop.is_closed() or pool.client.is_closed:
        return
    done: concurrent.futures.Future[None] = concurrent.futures.Future()
    try:
        loop.call_soon_threadsafe(_start_close, pool, done)
    except RuntimeError:  # closed meanwhile: its sockets went with it
        return
    try:
        on_loop = asyncio.get_running_loop() is loop
    except RuntimeError:
        on_loop = False
    if wait_s and loop.is_running() and not on_loop:
        with contextlib.suppress(Exception):
            done.result(wait_s)


def _start_close(pool: _Pool, done: concurrent.futures.Future[None]) -> None:
    task = asyncio.ensure_future(pool.keeper.aclose())
    _closing.add(task)

    def finished(task: asyncio.Task[None]) -> None:
        _closing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.debug("closing an HTTP client failed: %r", task.exception())
        if not done.done():
            done.set_result(None)

    task.add_done_callback(finished)


def _close_pools(pools: dict[asyncio.AbstractEventLoop, _Pool], wait_s: float | None) -> None:
    taken = list(pools.values())
    pools.clear()
    for pool in taken:
        _close_pool(pool, wait_s)


class _HTTPBackend:
    """What both clients share: one POST with a timeout, and the mapping of HTTP outcomes onto the seam's errors."""

    name = "http"
    default_base_url = ""
    key_variable = "the API key"  # where the key comes from, for a 401's message
    url_question = "is the base URL right?"  # what a 404 most likely means

    def __init__(self, model: str, base_url: str, max_tokens: int, timeout_s: float) -> None:
        if not model:
            raise LLMConfigError(f"{self.name}: no model given")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LLMConfigError(f"{self.name}: the base URL must look like http://host:port/...: got {base_url!r}")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        self.last_usage: dict[str, int] | None = None
        self.last_finish: str | None = None
        self._pools: dict[asyncio.AbstractEventLoop, _Pool] = {}
        self._pools_lock = threading.Lock()
        # A backend dropped unclosed (llm.set_backend replaced it) has its pools closed on their loops. The finalizer
        # holds the pools, so that they are not garbage with the backend (whose collection would drop connections
        # with "unclosed transport" warnings before the close could run).
        weakref.finalize(self, _close_pools, self._pools, None).atexit = False

    def describe(self) -> str:
        where = "" if self.base_url == self.default_base_url else f"@{self.base_url}"
        return f"{self.name}:{self.model}{where}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"

    def _http(self) -> httpx.AsyncClient:
        """The running loop's pooled client (opened on first use there); pools of closed loops are dropped."""
        loop = asyncio.get_running_loop()
        with self._pools_lock:
            for gone in [k for k, p in self._pools.items() if k.is_closed() or p.client.is_closed]:
                del self._pools[gone]
            pool = self._pools.get(loop)
            if pool is None:
                client = httpx.AsyncClient(timeout=self.timeout_s, limits=POOL_LIMITS)
                keeper = _keep(client, loop)
                # step it to its yield here, on `loop`: that registers it with the loop's async-generator hooks
                with contextlib.suppress(StopIteration):
                    cast(Coroutine[Any, Any, None], keeper.__anext__()).send(None)
                pool = self._pools[loop] = _Pool(loop, client, keeper)
            return pool.client

    def _take_pools(self) -> list[_Pool]:
        with self._pools_lock:
            pools = list(self._pools.values())
            self._pools.clear()
        return pools

    def close(self) -> None:
        """Close the pooled HTTP clients of every loop, from any thread (a later call opens a new one)."""
        for pool in self._take_pools():
            _close_pool(pool)

    async def aclose(self) -> None:
        """`close`, awaited: the running loop's client here, the others' on their own loops."""
        loop = asyncio.get_running_loop()
        others = []
        for pool in self._take_pools():
            if pool.loop is loop:
                await pool.keeper.aclose()
            else:
                others.append(pool)
        for pool in others:
            await asyncio.to_thread(_close_pool, pool)

    async def _post(self, url: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        try:
            response = await self._http().post(url, headers=headers, json=body)
        except httpx.TimeoutException as exc:
            raise LLMError(f"{self.name}: timed out after {self.timeout_s:g}s ({type(exc).__name__})") from exc
        except httpx.HTTPError as exc:
            raise LLMError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        status = response.status_code
        if status in (408, 409, 429) or status >= 500:
            raise LLMError(f"{self.name}: HTTP {status}: {_server_message(response)}",
                           retry_after=_retry_after(response.headers.get("retry-after")))
        if status >= 300:
            raise LLMRefused(f"{self.name}: HTTP {status}: {_server_message(response)}{self._hint(status, url)}",
                             status=status)
        try:
            data = response.json()
        except ValueError as exc:
            raise LLMError(f"{self.name}: malformed reply body (not JSON): {response.text[:80]!r}") from exc
        if not isinstance(data, dict):
            raise LLMError(f"{self.name}: malformed reply body (a JSON {type(data).__name__}, not an object)")
        return data

    def _hint(self, status: int, url: str) -> str:
        """What a 401/403/404 most likely means, said after the server's own words."""
        if status in (401, 403):
            return f" — {status}: the API key was refused (check {self.key_variable})"
        if status == 404:
            return f" — the LLM endpoint answered 404 at {url}: {self.url_question}"
        return ""

    def _malformed(self, what: str) -> LLMError:
        return LLMError(f"{self.name}: malformed reply body ({what})")


class AnthropicBackend(_HTTPBackend):
    """Anthropic's Messages API: ``POST {base}/v1/messages``."""

    name = "anthropic"
    default_base_url = DEFAULT_ANTHROPIC_BASE_URL
    key_variable = "ANTHROPIC_API_KEY"
    url_question = "the base URL is the server's root, without /v1 (https://api.anthropic.com)"

    def __init__(self, api_key: str | None, model: str = DEFAULT_ANTHROPIC_MODEL, *,
                 base_url: str = DEFAULT_ANTHROPIC_BASE_URL, max_tokens: int = 1024, timeout_s: float = 60.0) -> None:
        if not api_key:
            raise LLMConfigError("the anthropic backend needs an API key: set ANTHROPIC_API_KEY "
                                 "(or choose EPISODIC_LLM__BACKEND=openai / none)")
        super().__init__(model, base_url, max_tokens, timeout_s)
        self._api_key = api_key

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        self.last_usage = self.last_finish = None
        body: dict[str, Any] = {"model": model or self.model, "max_tokens": self.max_tokens,
                                "messages": [{"role": "user", "content": user_prompt}]}
        if system_prompt:
            body["system"] = system_prompt
        headers = {"x-api-key": self._api_key, "anthropic-version": ANTHROPIC_VERSION}
        data = await self._post(f"{self.base_url}/v1/messages", headers, body)
        content = data.get("content")
        if not isinstance(content, list):
            raise self._malformed("no content list")
        text = "".join(block.get("text") or "" for block in content
                       if isinstance(block, dict) and block.get("type") == "text")
        self.last_usage = _usage(data.get("usage"), "input_tokens", "output_tokens")
        self.last_finish = data.get("stop_reason")
        return "" if self.last_finish == "refusal" else text


class OpenAICompatibleBackend(_HTTPBackend):
    """The Chat Completions API: ``POST {base}/chat/completions`` — OpenAI, Ollama, vLLM, LM Studio, llama.cpp."""

    name = "openai"
    default_base_url = DEFAULT_OPENAI_BASE_URL
    key_variable = "OPENAI_API_KEY"

    def __init__(self, model: str | None = None, *, base_url: str = DEFAULT_OPENAI_BASE_URL,
                 api_key: str | None = None, max_tokens: int = 1024, timeout_s: float = 60.0) -> None:
        hosted = (urlsplit(base_url).hostname or "").lower() == "api.openai.com"
        if hosted and not api_key:
            raise LLMConfigError(f"the openai backend at {base_url} needs an API key: set OPENAI_API_KEY, or point "
                                 "OPENAI_BASE_URL / EPISODIC_LLM__BASE_URL at a local server (Ollama, vLLM, ...)")
        if not model and not hosted:
            raise LLMConfigError(f"the openai backend at {base_url} needs a model name: set EPISODIC_LLM__MODEL "
                                 "(e.g. llama3.2 for Ollama)")
        super().__init__(model or DEFAULT_OPENAI_MODEL, base_url, max_tokens, timeout_s)
        self._api_key = api_key
        self._hosted = hosted
        if not self.base_url.endswith("/v1"):
            self.url_question = "does the base URL end in /v1?"
        else:
            self.url_question = f"does the server serve /chat/completions there, with the model {self.model!r}?"

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        self.last_usage = self.last_finish = None
        messages = [{"role": "user", "content": user_prompt}]
        if system_prompt:
            messages.insert(0, {"role": "system", "content": system_prompt})
        body: dict[str, Any] = {"model": model or self.model, "messages": messages}
        # OpenAI's newer models take only max_completion_tokens; local servers know max_tokens.
        body["max_completion_tokens" if self._hosted else "max_tokens"] = self.max_tokens
        headers = {"authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        data = await self._post(f"{self.base_url}/chat/completions", headers, body)
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self._malformed("no choices")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise self._malformed("no message in choices[0]")
        self.last_usage = _usage(data.get("usage"), "prompt_tokens", "completion_tokens")
        self.last_finish = choices[0].get("finish_reason")
        if message.get("refusal"):
            self.last_finish = "refusal"
            return ""
        content = message.get("content")
        if isinstance(content, list):  # some servers send content parts
            content = "".join(p.get("text") or "" for p in content if isinstance(p, dict))
        return content if isinstance(content, str) else ""


def _setting(value: str | None, env: str) -> str | None:
    """A config value, else its environment variable (``EPISODIC_LLM__MODEL``, else the flat ``EPISODIC_LLM_MODEL``
    of earlier releases); blank counts as unset."""
    legacy = env.replace("__BACKEND", "").replace("__", "_")
    value = value if value is not None else os.environ.get(env, os.environ.get(legacy))
    return value.strip() if value and value.strip() else None


_announced_key = False  # the backend chosen from ANTHROPIC_API_KEY alone was logged (once a process)


def backend_from_config(config: Config) -> Any:
    """The backend `config` (else ``EPISODIC_LLM__BACKEND``) names; `NoneBackend` when nothing is, or
    ``none`` is. Nothing named but ``ANTHROPIC_API_KEY`` set: Anthropic, as the episodic-judgment library
    does (logged once).

    Raises `LLMConfigError` naming what is missing when the choice cannot work: an unknown name, anthropic
    without ANTHROPIC_API_KEY, OpenAI's own API without OPENAI_API_KEY, a local server without a model
    name."""
    global _announced_key
    raw = _setting(config.llm.backend, "EPISODIC_LLM__BACKEND")
    if raw is None and _setting(None, "ANTHROPIC_API_KEY"):
        raw = "anthropic"
        if not _announced_key:
            _announced_key = True
            log.info("ANTHROPIC_API_KEY is set and EPISODIC_LLM__BACKEND is not: using the Anthropic backend "
                     "(EPISODIC_LLM__BACKEND=none to run without an LLM)")
    name = (raw or "none").lower()
    model = _setting(config.llm.model, "EPISODIC_LLM__MODEL")
    base_url = _setting(config.llm.base_url, "EPISODIC_LLM__BASE_URL")
    if name in ("none", "off"):
        return NoneBackend()
    if name == "anthropic":
        return AnthropicBackend(_setting(None, "ANTHROPIC_API_KEY"), model or DEFAULT_ANTHROPIC_MODEL,
                                base_url=base_url or _setting(None, "ANTHROPIC_BASE_URL") or DEFAULT_ANTHROPIC_BASE_URL,
                                max_tokens=config.llm.max_tokens, timeout_s=config.llm.timeout_s)
    if name == "openai":
        return OpenAICompatibleBackend(model, api_key=_setting(None, "OPENAI_API_KEY"),
                                       base_url=base_url or _setting(None, "OPENAI_BASE_URL") or DEFAULT_OPENAI_BASE_URL,
                                       max_tokens=config.llm.max_tokens, timeout_s=config.llm.timeout_s)
    source = next((name for name in ("EPISODIC_LLM__BACKEND", "EPISODIC_LLM") if (os.environ.get(name) or "").strip() == raw),
                  "Config.llm.backend")
    raise LLMConfigError(f"unknown LLM backend {raw!r} (from {source}): use {', '.join(BACKEND_NAMES)}")
