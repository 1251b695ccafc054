"""`AsyncMemory`: `Memory`'s verbs as coroutines, run on a small pool of threads of its own, never on the
event loop nor on its default executor (README, "Async code"; docs/architecture.md, "Threads and processes").

The verbs are named one by one (`_twin`), so type checkers, editors and `help()` see `Memory`'s signatures
(tests/test_aio.py holds them to `Memory`'s verbs, save `SYNC_ONLY`). A call whose task is cancelled before it
started does not run; one already running finishes on its thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_all
from typing import Any, Concatenate, ParamSpec, TypeVar

from .config import Config
from .memory import Memory

R = TypeVar("R")
P = ParamSpec("P")

#: `Memory`'s public names with no coroutine twin, and why: cheap accessors of objects used as they are
SYNC_ONLY = {
    "embedder": "returns the model object (its first call loads it: `await mem.run(mem.memory.embedder)`)",
    "reranker": "returns the model object (its first call loads it: `await mem.run(mem.memory.reranker)`)",
    "retriever": "a property: recall's ranking object",
    "consolidation_steps": "a property: the list of steps consolidation runs",
    "judgments": "a property: the judgment memory (its verbs: `await mem.run(mem.memory.judgments.search, …)`)",
}


def _takes_the_arguments_of(source: Callable[P, object]
                            ) -> Callable[[Callable[..., R]], Callable[Concatenate[Any, P], R]]:
    """A `(self, *args, **kwargs)` method typed, and signed for `help()`, as taking `source`'s parameters (which it
    hands on to `source`): `AsyncMemory`'s openers take `Memory`'s."""
    def sign(method: Callable[..., R]) -> Callable[Concatenate[Any, P], R]:
        own = inspect.signature(method)
        method.__signature__ = own.replace(  # type: ignore[attr-defined]
            parameters=[next(iter(own.parameters.values())), *inspect.signature(source).parameters.values()])
        return method

    return sign


def _twin(verb: Callable[Concatenate[Memory, P], R], note: str = ""
          ) -> Callable[Concatenate[AsyncMemory, P], Coroutine[Any, Any, R]]:
    """The coroutine twin of a `Memory` verb: `AsyncMemory.run` calls the verb of the AsyncMemory's Memory, with the
    same parameters (the signature is the verb's: `inspect.signature` follows `__wrapped__`), and its docstring."""
    name = verb.__name__

    async def twin(self: AsyncMemory, *args: P.args, **kwargs: P.kwargs) -> R:
        return await self.run(getattr(self.memory, name), *args, **kwargs)

    twin.__name__, twin.__qualname__, twin.__wrapped__ = name, f"AsyncMemory.{name}", verb  # type: ignore[attr-defined]
    said = f"`Memory.{name}` as a coroutine" + (f" ({note})." if note else ".")
    twin.__doc__ = f"{said}\n\n{inspect.getdoc(verb) or ''}".strip()
    return twin


class AsyncMemory:
    """A `Memory` whose verbs are coroutines, run on threads of its own: `AsyncMemory(path, …)` opens one with
    `Memory`'s arguments (`await AsyncMemory.open(…)`: off the loop), `AsyncMemory.from_memory(mem)` wraps one
    you opened and leaves it to you to close."""

    @_takes_the_arguments_of(Memory)
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Open (or create) the store at `path`, as `Memory(path, …)` does (`agent`: an agent's scope)."""
        self._setup(Memory(*args, **kwargs), owns_memory=True, executor=None)

    @classmethod
    @_takes_the_arguments_of(Memory)
    async def open(cls, *args: Any, **kwargs: Any) -> AsyncMemory:
        """`AsyncMemory(path, …)` with the opening (journal recovery, consolidation owed at open) off the loop."""
        pool = _pool((kwargs.get("config") or Config.from_env()).capture.async_threads)
        try:
            memory = await asyncio.wrap_future(pool.submit(Memory, *args, **kwargs))
        except BaseException:
            pool.shutdown(wait=False)
            raise
        self = cls.__new__(cls)
        self._setup(memory, owns_memory=True, executor=pool, owns_executor=True)
        return self

    @classmethod
    def from_memory(cls, memory: Memory, *, executor: ThreadPoolExecutor | None = None) -> AsyncMemory:
        """Wrap an open `Memory` (closing the AsyncMemory leaves it open). `executor`: run the verbs on this pool
        (shared by many AsyncMemories, as the REST server's requests do, and shut down by its owner) instead of a
        pool of `memory.config.capture.async_threads` threads of this AsyncMemory's own."""
        self = cls.__new__(cls)
        self._setup(memory, owns_memory=False, executor=executor)
        return self

    def _setup(self, memory: Memory, *, owns_memory: bool, executor: ThreadPoolExecutor | None,
               owns_executor: bool = False) -> None:
        self.memory = memory
        self._owns_memory = owns_memory
        self._owns_executor = executor is None or owns_executor
        self._executor = executor if executor is not None else _pool(memory.config.capture.async_threads)
        self._pending: set[Future[Any]] = set()  # calls submitted and not done: `close` waits for them
        self._lock = threading.Lock()
        self._closed = False

    # --- plumbing --------------------------------------------------------------------------------------
    @property
    def config(self) -> Config:
        return self.memory.config

    @property
    def user_id(self) -> str:
        return self.memory.user_id

    @property
    def path(self) -> str:
        return self.memory.path

    @property
    def executor(self) -> ThreadPoolExecutor:
        """The threads the verbs run on."""
        return self._executor

    async def run(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
        """Run any blocking callable on this AsyncMemory's threads (what has no twin: `mem.memory.judgments`'
        verbs, a store read), with the caller's context variables."""
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self!r} is closed")
            future = self._executor.submit(contextvars.copy_context().run, fn, *args, **kwargs)
            self._pending.add(future)
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._pending.discard(future)

    # --- lifecycle -------------------------------------------------------------------------------------
    async def close(self) -> None:
        """Wait for the calls under way, then close the Memory (when this AsyncMemory opened it: it finishes
        background consolidation) and this AsyncMemory's own threads. Calls after it raise RuntimeError."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending = list(self._pending)

        def finish() -> None:
            wait_all(pending)
            try:
                if self._owns_memory:
                    self.memory.close()
            finally:
                if self._owns_executor:
                    self._executor.shutdown(wait=False)

        # on a thread of its own: this AsyncMemory's threads may be the ones it waits for
        await asyncio.wrap_future(_in_thread(finish))

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncMemory({self.memory.path!r}, user_id={self.memory.user_id!r})"

    # --- the verbs: `Memory`'s, each run by `run` (signature and docstring are the `Memory` verb's) ----------
    # models and the index
    index = _twin(Memory.index, "`progress` is called on a worker thread")
    reindex = _twin(Memory.reindex)
    # capture
    add_turn = _twin(Memory.add_turn)
    add_turns = _twin(Memory.add_turns)
    unseen_turns = _twin(Memory.unseen_turns)
    pop_turn = _twin(Memory.pop_turn)
    end_session = _twin(Memory.end_session)
    # consolidation
    llm_outage = _twin(Memory.llm_outage)
    housekeeping = _twin(Memory.housekeeping)
    wait_for_consolidation = _twin(Memory.wait_for_consolidation)
    consolidate_in_windows = _twin(Memory.consolidate_in_windows)
    consolidate = _twin(Memory.consolidate)
    consolidate_pending = _twin(Memory.consolidate_pending)
    # recall and reading
    recall = _twin(Memory.recall)
    sessions = _twin(Memory.sessions)
    session = _twin(Memory.session)
    episode = _twin(Memory.episode)
    derived_counts = _twin(Memory.derived_counts)
    session_facts = _twin(Memory.session_facts)
    session_turns = _twin(Memory.session_turns)
    turns_before = _twin(Memory.turns_before)
    turns_since = _twin(Memory.turns_since)
    facts = _twin(Memory.facts)
    add_fact = _twin(Memory.add_fact)
    fact_history = _twin(Memory.fact_history)
    entities = _twin(Memory.entities)
    profile = _twin(Memory.profile)
    stats = _twin(Memory.stats)
    # where were we
    episodes = _twin(Memory.episodes)
    workstreams = _twin(Memory.workstreams)
    loops = _twin(Memory.loops)
    close_loop = _twin(Memory.close_loop)
    brief = _twin(Memory.brief)
    # forgetting, judgments and changes by hand
    forget = _twin(Memory.forget)
    search_judgments = _twin(Memory.search_judgments)
    list_judgments = _twin(Memory.list_judgments)
    find_turns = _twin(Memory.find_turns)
    edit_fact = _twin(Memory.edit_fact)
    forget_fact = _twin(Memory.forget_fact)
    pinned_facts = _twin(Memory.pinned_facts)
    pin_fact = _twin(Memory.pin_fact)
    reopen_loop = _twin(Memory.reopen_loop)
    add_loop = _twin(Memory.add_loop)
    # files
    write_vault = _twin(Memory.write_vault)
    export = _twin(Memory.export)
    import_ = _twin(Memory.import_)
    backup = _twin(Memory.backup)


def _pool(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="episodic-async")


def _in_thread(fn: Callable[[], None]) -> Future[None]:
    """Run `fn` on a thread of its own; its outcome as a future."""
    done: Future[None] = Future()

    def run() -> None:
        try:
            fn()
        except BaseException as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)

    threading.Thread(target=run, name="episodic-async-close").start()
    return done


__all__ = ["SYNC_ONLY", "AsyncMemory"]
