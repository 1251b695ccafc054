"""What every part of the seam shares: the backend protocol, the errors, and the backend that declines."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


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
    that must not treat an outage as "nothing to say" (consolidation) retry later instead.

    `kind`: "unreachable" (network, timeout, 5xx, 429), "refused" (turned away: a bad key, a wrong URL, a bad
    request) or "raised" (a backend's own exception).
    """

    def __init__(self, message: str = "", *, kind: str = "unreachable") -> None:
        super().__init__(message)
        self.kind = kind


class LLMRefused(RuntimeError):
    """A backend call failed in a way not worth retrying (bad key, bad request). `status`: the HTTP status, when
    there was one."""

    def __init__(self, message: str = "", *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMConfigError(ValueError):
    """The configured backend cannot work (unknown name, missing key or model); the message says what to set."""


NONE_DESCRIPTION = "none (no LLM: consolidation uses rules; set EPISODIC_LLM__BACKEND=anthropic or openai to use one)"


class NoneBackend:
    """No model: every call is declined, and the library takes its rule-based paths."""

    name = "none"

    def describe(self) -> str:
        return NONE_DESCRIPTION

    async def ask(self, system_prompt: str, user_prompt: str, *, model: str | None = None) -> str:
        raise LLMRefused("no LLM backend is configured")
