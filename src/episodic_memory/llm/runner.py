"""Where sync callers' coroutines run: one event loop in a daemon thread, for the whole process, so that
sequential calls share pooled HTTP connections (a new loop per call, as ``asyncio.run`` makes, would start
from a cold pool each time).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class Runner:
    """A private event loop serving in a daemon thread; started on first use (and again in a forked child)."""

    def __init__(self, name: str = "episodic-llm") -> None:
        self.name = name
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            thread = self._thread
            if self._loop is None or thread is None or not thread.is_alive() or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=_serve, args=(loop,), name=self.name, daemon=True)
                thread.start()
                self._loop, self._thread, self._pid = loop, thread, os.getpid()
            return self._loop

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run `coro` on the loop and wait for it, from any thread, whether or not that thread runs a loop of its
        own (which then waits, as it would for any blocking call)."""
        loop = self.loop()
        if threading.current_thread() is self._thread:
            # a coroutine on this very loop calling run(): waiting here would wait on itself forever
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                return pool.submit(asyncio.run, coro).result()
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # interrupted (KeyboardInterrupt, ...): the call does not run on without its caller
            raise


def _serve(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    loop.run_forever()


runner = Runner()
