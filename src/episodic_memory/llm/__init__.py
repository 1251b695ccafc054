"""The one LLM seam: every model call in the library goes through an `LLMClient`'s `ask` / `ask_json`.

A backend is any object with ``async ask(system_prompt, user_prompt, *, model=None) -> str``; built in:
Anthropic, OpenAI-compatible and none (consolidation then uses rules). Which client a Memory uses:
docs/architecture.md, "The LLM seam". The module functions here use the process default client (`set_backend`
replaces it).

`ask` never raises for a model failure: it returns None and logs why. A configuration that cannot work raises
`LLMConfigError` on first use, never at import; `describe()` reports it instead.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, TypeVar

from ..config import Config
from .base import NONE_DESCRIPTION, Backend, LLMConfigError, LLMError, LLMFailed, LLMRefused, NoneBackend
from .client import RULES_ONLY, LLMClient, client_for, default_client, set_default_client, warn_once
from .parse import ParseError, parse_json

T = TypeVar("T")


def set_backend(backend: Any, config: Config | None = None) -> None:
    """Use `backend` for every call through the process default (None: choose again from config and environment
    on next use). Calls in flight finish on the client they started with."""
    set_default_client(LLMClient(backend, config))


def get_backend() -> Any:
    """The backend in use: the one set, else the one config / ``EPISODIC_LLM__BACKEND`` names, else `NoneBackend`."""
    return default_client().backend()


def config() -> Config:
    return default_client().config


def enabled() -> bool:
    """True when a real backend is configured (not `NoneBackend`)."""
    return default_client().enabled()


def describe() -> str:
    """What the seam will use, e.g. "anthropic:claude-haiku-4-5", "openai:llama3@http://localhost:11434/v1",
    "none (no LLM: ...)"; a configuration that cannot work reads "error: <what to set>"."""
    return default_client().describe()


async def ask(system_prompt: str, user_prompt: str, *, purpose: str, model: str | None = None,
              fail: bool = False) -> str | None:
    """`LLMClient.ask` of the process default."""
    return await default_client().ask(system_prompt, user_prompt, purpose=purpose, model=model, fail=fail)


async def ask_json(system_prompt: str, user_prompt: str, *, purpose: str, expect: type | None = None, fail: bool = False,
                   model: str | None = None) -> Any:
    """`LLMClient.ask_json` of the process default."""
    return await default_client().ask_json(system_prompt, user_prompt, purpose=purpose, expect=expect, fail=fail,
                                           model=model)


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from sync code, even when the calling thread already has an event loop running."""
    return default_client().run(coro)


__all__ = ["NONE_DESCRIPTION", "RULES_ONLY", "Backend", "LLMClient", "LLMConfigError", "LLMError", "LLMFailed",
           "LLMRefused", "NoneBackend", "ParseError", "ask", "ask_json", "client_for", "config", "default_client",
           "describe", "enabled", "get_backend", "parse_json", "run", "set_backend", "warn_once"]
