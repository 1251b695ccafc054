"""Backing off an LLM that cannot be used: after a call found it unreachable, or turned away as a whole (a
refused key, a URL with nothing behind it), no call is made to it until the back-off is over.

The back-off is kept in an `OutageBook` (the store), keyed by the backend's description, so that the next
process does not try again at once and another LLM is not held back. Lengths: `Config.llm.outage_backoff_s`,
doubled for each failure in a row (docs/config.md).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from ..config import Config
from .base import LLMFailed
from .client import LLMClient

log = logging.getLogger("episodic_memory.llm")

WHOLE_LLM_STATUSES = (401, 403, 404)  # refusals that no other request would escape: back off as from an outage


@dataclass(frozen=True)
class Outage:
    """A back-off: no call before `until` (epoch seconds); `failures` in a row so far; what the last one got."""

    until: float
    failures: int
    kind: str  # "unreachable" | "refused" (LLMFailed.kind)
    reason: str

    def active(self, now: float | None = None) -> bool:
        return self.until > (time.time() if now is None else now)

    def retry_note(self, now: float | None = None) -> str:
        """When the LLM is asked again, e.g. "not asked again before 14:03:12 (in 60 s)"."""
        wait = max(0.0, self.until - (time.time() if now is None else now))
        return f"not asked again before {time.strftime('%H:%M:%S', time.localtime(self.until))} (in {wait:.0f} s)"


class OutageBook(Protocol):
    """Where back-offs are kept (the store implements it: `llm_backoff`, migration m019)."""

    def llm_backoff(self, backend: str) -> tuple[float, int, str, str] | None:
        """(until, failures, kind, reason) of `backend`'s back-off, or None."""
        ...

    def record_llm_backoff(self, backend: str, until: float, failures: int, kind: str, reason: str) -> None: ...

    def clear_llm_backoff(self, backend: str) -> None: ...


def backoff_after(config: Config, failures: int) -> float:
    """Seconds of back-off after `failures` failed calls in a row."""
    return min(config.llm.outage_backoff_max_s, config.llm.outage_backoff_s * 2.0 ** min(failures - 1, 60))


class BackingOffClient(LLMClient):
    """`inner` (its backend, config, limit and retries), with the back-off of `book` in front of every call.

    A call made during a back-off is not made: it gives None, or with ``fail=True`` raises `LLMFailed` saying why
    and when the LLM is asked again. A call that fails as a whole starts (or lengthens) the back-off and says when.
    When `book` cannot be written (a read-only store) the back-off is kept in this object only. Closing it closes
    nothing (`LLMClient.close` closes only a backend the client built): `inner` is its owner's.
    """

    def __init__(self, inner: LLMClient, book: OutageBook | None) -> None:
        super().__init__(None, None)
        self.inner = inner
        self.book = book
        self._local: Outage | None = None
        self._local_lock = threading.Lock()

    @property
    def config(self) -> Config:
        return self.inner.config

    def backend(self) -> Any:
        return self.inner.backend()

    def _key(self) -> str:
        return self.inner.describe()

    def outage(self) -> Outage | None:
        """The back-off in force (None when there is none, or it is over)."""
        found = self._recorded()
        return found if found is not None and found.active() else None

    def _recorded(self) -> Outage | None:
        """The latest back-off known, over or not: the book's, or this object's own when later."""
        stored: Outage | None = None
        if self.book is not None:
            try:
                row = self.book.llm_backoff(self._key())
                stored = Outage(*row) if row else None
            except Exception as exc:  # the book is unreadable: the back-off is kept here only
                log.debug("could not read the LLM back-off: %r", exc)
        with self._local_lock:
            local = self._local
        if local is not None and (stored is None or local.until > stored.until):
            return local
        return stored

    def _fail(self, exc: LLMFailed, purpose: str) -> Outage | None:
        """Start or lengthen the back-off after `exc` (None: not a failure of the whole LLM, or back-off is off)."""
        cause = exc.__cause__
        whole = exc.kind == "unreachable" or (exc.kind == "refused"
                                              and getattr(cause, "status", None) in WHOLE_LLM_STATUSES)
        cfg = self.config
        if not whole or cfg.llm.outage_backoff_s <= 0:
            return None
        now = time.time()
        last = self._recorded()
        if last is not None and last.active(now):  # a call beside this one already started it
            return last
        failures = (last.failures if last is not None else 0) + 1
        reason = str(exc).removeprefix(f"{purpose}: ")  # what any call would get, whatever it was for
        outage = Outage(now + backoff_after(cfg, failures), failures, exc.kind, reason)
        with self._local_lock:
            self._local = outage
        if self.book is not None:
            try:
                self.book.record_llm_backoff(self._key(), outage.until, outage.failures, outage.kind, outage.reason)
            except Exception as error:  # read-only: this process still backs off
                log.debug("could not record the LLM back-off: %r", error)
        return outage

    def _succeeded(self) -> None:
        with self._local_lock:
            had, self._local = self._local, None
        if self.book is not None and (had is not None or self._recorded() is not None):
            try:
                self.book.clear_llm_backoff(self._key())
            except Exception as exc:
                log.debug("could not clear the LLM back-off: %r", exc)

    async def ask(self, system_prompt: str, user_prompt: str, *, purpose: str, model: str | None = None,
                  fail: bool = False) -> str | None:
        if not self.enabled():
            return await self.inner.ask(system_prompt, user_prompt, purpose=purpose, model=model, fail=fail)
        outage = self.outage()
        if outage is not None:
            message = f"{purpose}: {outage.reason}; backing off: {outage.retry_note()}"
            log.info("llm %s", message)
            if fail:
                raise LLMFailed(message, kind=outage.kind)
            return None
        try:
            reply = await self.inner.ask(system_prompt, user_prompt, purpose=purpose, model=model, fail=True)
        except LLMFailed as exc:
            started = self._fail(exc, purpose)
            message = f"{exc}; {started.retry_note()}" if started is not None else str(exc)
            if fail:
                raise LLMFailed(message, kind=exc.kind) from exc.__cause__
            log.warning("llm %s", message)
            return None
        self._succeeded()
        return reply

    def __repr__(self) -> str:
        return f"<BackingOffClient of {self.inner!r}>"
