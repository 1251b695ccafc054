"""`AsyncMemory`: `Memory`'s verbs as coroutines, for code that runs on an event loop.

    from episodic_memory import AsyncMemory

    async with AsyncMemory("memory.db") as mem:
        await mem.add_turn("user", "The deck needs 14 slides", session_id="s1")
        hits = await mem.recall("how many slides")

Every verb that touches the store, the journal or a model runs the `Memory` verb of the same name on a small pool of
threads of the AsyncMemory's own (`Config.capture.async_threads`), never on the loop and never on the loop's default executor,
which other code can fill with slow work: a loop with many tasks keeps running while SQLite fsyncs or the embedder
encodes. A `Memory` is safe to share between threads (the store serialises on its lock; concurrent `add_turn`s are
committed as one group), so the calls of many tasks run side by side without a lock of their own here.

The verbs are written out one by one (not forwarded by `__getattr__`) so type checkers and editors see them;
tests/test_aio.py checks that every public verb of `Memory` has its twin here, with the same parameters, or is named in
`SYNC_ONLY`. A call whose awaiting task is cancelled before it started does not run; one already running finishes
on its thread (a turn being written is written).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_all
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .config import DEFAULT_USER, Config
from .memory import Memory

if TYPE_CHECKING:
    from .brief import Brief
    from .judgments.memory import Judgment, SearchResult
    from .llm import Backend, LLMClient
    from .llm.backoff import Outage
    from .models.embedder import Embedder
    from .models.reranker import Reranker
    from .retrieve.hit import Hit
    from .store.records import Entity, Episode, Fact, Loop, SessionInfo, StoredTurn, Workstream
    from .vault import VaultReport

R = TypeVar("R")

#: `Memory`'s public names with no coroutine twin, and why: cheap accessors of objects used as they are
SYNC_ONLY = {
    "embedder": "returns the model object (its first call loads it: `await mem.run(mem.memory.embedder)`)",
    "reranker": "returns the model object (its first call loads it: `await mem.run(mem.memory.reranker)`)",
    "retriever": "a property: recall's ranking object",
    "consolidation_steps": "a property: the list of steps consolidation runs",
    "judgments": "a property: the judgment memory (its verbs: `await mem.run(mem.memory.judgments.search, …)`)",
}


class AsyncMemory:
    """A `Memory` whose verbs are coroutines, run on threads of its own (see the module docstring).

    `AsyncMemory(path, …)` opens a Memory with `Memory`'s arguments (a quick, blocking open: `await
    AsyncMemory.open(…)` opens it off the loop) and closes it with itself; `AsyncMemory.from_memory(mem)` wraps one
    you opened, and leaves it to you to close. `async with` closes it.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        user_id: str = DEFAULT_USER,
        config: Config | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        llm: LLMClient | Backend | None = None,
        agent: str | None = None,
    ) -> None:
        """Open (or create) the store at `path`, as `Memory(path, …)` does (`agent`: an agent's scope)."""
        memory = Memory(path, user_id=user_id, config=config, embedder=embedder, reranker=reranker, llm=llm,
                        agent=agent)
        self._setup(memory, owns_memory=True, executor=None)

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        user_id: str = DEFAULT_USER,
        config: Config | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        llm: LLMClient | Backend | None = None,
        agent: str | None = None,
    ) -> AsyncMemory:
        """`AsyncMemory(path, …)` with the opening (journal recovery, consolidation owed at open) off the loop."""
        pool = _pool((config or Config.from_env()).capture.async_threads)
        try:
            memory = await asyncio.wrap_future(pool.submit(
                Memory, path, user_id=user_id, config=config, embedder=embedder, reranker=reranker, llm=llm,
                agent=agent))
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

    # --- models and the index --------------------------------------------------------------------------
    async def index(self, progress: Callable[[int], None] | None = None, user_id: str | None = None) -> int:
        """`Memory.index`: embed the turns without a vector of the current model (`progress` is called on a
        worker thread)."""
        return await self.run(self.memory.index, progress, user_id)

    async def reindex(self, progress: Callable[[int], None] | None = None) -> int:
        """`Memory.reindex`: embed everything with the current model, then drop other models' vectors."""
        return await self.run(self.memory.reindex, progress)

    # --- capture ---------------------------------------------------------------------------------------
    async def add_turn(
        self,
        role: str,
        content: str,
        *,
        session_id: str,
        speaker: str | None = None,
        timestamp: datetime | str | None = None,
        turn_id: str | None = None,
        user_id: str | None = None,
        source: str | None = None,
        tags: Iterable[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """`Memory.add_turn`: journaled and fsynced, then stored, when it returns. Returns the turn's id."""
        return await self.run(self.memory.add_turn, role, content, session_id=session_id, speaker=speaker,
                              timestamp=timestamp, turn_id=turn_id, user_id=user_id, source=source, tags=tags,
                              metadata=metadata)

    async def add_turns(self, turns: Iterable[Mapping[str, Any]]) -> list[str]:
        """`Memory.add_turns`: many turns, one fsync and one transaction per session; all or none."""
        return await self.run(self.memory.add_turns, turns)

    async def unseen_turns(self, turns: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """`Memory.unseen_turns`: the turns whose `turn_id` their session does not hold yet."""
        return await self.run(self.memory.unseen_turns, turns)

    async def pop_turn(self, session_id: str, user_id: str | None = None) -> StoredTurn | None:
        """`Memory.pop_turn`: remove the session's latest turn and return it."""
        return await self.run(self.memory.pop_turn, session_id, user_id)

    async def end_session(self, session_id: str, user_id: str | None = None, *, wait: bool | None = None) -> None:
        """`Memory.end_session`: close a session and have it consolidated."""
        return await self.run(self.memory.end_session, session_id, user_id, wait=wait)

    # --- consolidation ---------------------------------------------------------------------------------
    async def llm_outage(self) -> Outage | None:
        """`Memory.llm_outage`: the back-off in force from the store's LLM, if any."""
        return await self.run(self.memory.llm_outage)

    async def housekeeping(self) -> None:
        """`Memory.housekeeping`: fold the WAL in, give freed memory back."""
        return await self.run(self.memory.housekeeping)

    async def wait_for_consolidation(self, session_id: str | None = None, user_id: str | None = None) -> None:
        """`Memory.wait_for_consolidation`: until background consolidation is done."""
        return await self.run(self.memory.wait_for_consolidation, session_id, user_id)

    async def consolidate_in_windows(self, user_id: str, session_id: str, *, final: bool = False,
                                     points: Sequence[int] = ()) -> bool:
        """`Memory.consolidate_in_windows`."""
        return await self.run(self.memory.consolidate_in_windows, user_id, session_id, final=final, points=points)

    async def consolidate(self, user_id: str, session_id: str, *, final: bool = False,
                          max_turns: int | None = None) -> bool:
        """`Memory.consolidate`: the consolidation steps over a session's new turns."""
        return await self.run(self.memory.consolidate, user_id, session_id, final=final, max_turns=max_turns)

    async def consolidate_pending(self) -> int:
        """`Memory.consolidate_pending`: every flagged session. Returns how many."""
        return await self.run(self.memory.consolidate_pending)

    # --- recall ----------------------------------------------------------------------------------------
    async def recall(
        self,
        query: str,
        k: int = 10,
        user_id: str | None = None,
        *,
        session_id: str | None = None,
        kind: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        as_of: datetime | str | None = None,
        source: str | None = None,
        tags: Iterable[str] | None = None,
        now: datetime | str | float | None = None,
        agents: Iterable[str] | None = None,
    ) -> list[Hit]:
        """`Memory.recall`: the `k` memories most relevant to `query` (of the user and `agents`), best first."""
        return await self.run(self.memory.recall, query, k, user_id, session_id=session_id, kind=kind, since=since,
                              until=until, as_of=as_of, source=source, tags=tags, now=now, agents=agents)

    # --- reading ---------------------------------------------------------------------------------------
    async def sessions(self, user_id: str | None = None, limit: int | None = None) -> list[SessionInfo]:
        """`Memory.sessions`: newest first."""
        return await self.run(self.memory.sessions, user_id, limit)

    async def session(self, session_id: str, user_id: str | None = None) -> SessionInfo | None:
        """`Memory.session`: one session, or None."""
        return await self.run(self.memory.session, session_id, user_id)

    async def episode(self, session_id: str, user_id: str | None = None) -> Episode | None:
        """`Memory.episode`: a session's episode, or None."""
        return await self.run(self.memory.episode, session_id, user_id)

    async def derived_counts(self, user_id: str | None = None) -> dict[str, int]:
        """`Memory.derived_counts`."""
        return await self.run(self.memory.derived_counts, user_id)

    async def session_facts(self, session_ids: Iterable[str], user_id: str | None = None
                            ) -> dict[str, list[dict[str, Any]]]:
        """`Memory.session_facts`: the facts each session yielded."""
        return await self.run(self.memory.session_facts, session_ids, user_id)

    async def session_turns(self, session_id: str, user_id: str | None = None) -> list[StoredTurn]:
        """`Memory.session_turns`: a session's turns, in order."""
        return await self.run(self.memory.session_turns, session_id, user_id)

    async def turns_before(self, hits: Iterable[Hit], user_id: str | None = None) -> dict[str, StoredTurn]:
        """`Memory.turns_before`: the turn each short hit answers."""
        return await self.run(self.memory.turns_before, hits, user_id)

    async def turns_since(self, since: datetime | str | float, user_id: str | None = None, *,
                          limit: int | None = None) -> list[StoredTurn]:
        """`Memory.turns_since`: newest first."""
        return await self.run(self.memory.turns_since, since, user_id, limit=limit)

    async def facts(self, user_id: str | None = None, include_superseded: bool = False, *,
                    session_id: str | None = None, types: Iterable[str] | None = None,
                    agents: Iterable[str] | None = None) -> list[Fact]:
        """`Memory.facts`: newest first (the user's, and `agents`')."""
        return await self.run(self.memory.facts, user_id, include_superseded, session_id=session_id, types=types,
                              agents=agents)

    async def add_fact(self, text: str, *, type: str = "knowledge", importance: int | None = None,  # noqa: A002
                       session_id: str = "curated", user_id: str | None = None) -> int:
        """`Memory.add_fact`: store a fact by hand. Returns its id."""
        return await self.run(self.memory.add_fact, text, type=type, importance=importance, session_id=session_id,
                              user_id=user_id)

    async def fact_history(self, fact_id: int, user_id: str | None = None) -> list[Fact]:
        """`Memory.fact_history`: the supersession chain, newest first."""
        return await self.run(self.memory.fact_history, fact_id, user_id)

    async def entities(self, user_id: str | None = None) -> list[Entity]:
        """`Memory.entities`."""
        return await self.run(self.memory.entities, user_id)

    async def profile(self, name: str, user_id: str | None = None) -> dict[str, Any]:
        """`Memory.profile`: an entity's profile and current facts."""
        return await self.run(self.memory.profile, name, user_id)

    async def stats(self, user_id: str | None = None) -> dict[str, Any]:
        """`Memory.stats`: what is in the store."""
        return await self.run(self.memory.stats, user_id)

    # --- where were we ---------------------------------------------------------------------------------
    async def episodes(self, user_id: str | None = None, limit: int | None = None, *,
                       workstream_id: int | None = None, with_facts: bool = True) -> list[Episode]:
        """`Memory.episodes`: newest first."""
        return await self.run(self.memory.episodes, user_id, limit, workstream_id=workstream_id,
                              with_facts=with_facts)

    async def workstreams(self, user_id: str | None = None, include_hypotheses: bool = False, *,
                          limit: int | None = None, agents: Iterable[str] | None = None) -> list[Workstream]:
        """`Memory.workstreams`: most recently active first (the user's, and `agents`')."""
        return await self.run(self.memory.workstreams, user_id, include_hypotheses, limit=limit, agents=agents)

    async def loops(self, user_id: str | None = None, status: str = "open", *, workstream_id: int | None = None,
                    limit: int | None = None, agents: Iterable[str] | None = None) -> list[Loop]:
        """`Memory.loops`: newest first (the user's, and `agents`')."""
        return await self.run(self.memory.loops, user_id, status, workstream_id=workstream_id, limit=limit,
                              agents=agents)

    async def close_loop(self, loop_id: int, user_id: str | None = None, note: str | None = None) -> Loop:
        """`Memory.close_loop`."""
        return await self.run(self.memory.close_loop, loop_id, user_id, note)

    async def brief(self, hours: float = 24, user_id: str | None = None, *,
                    now: datetime | str | None = None, agents: Iterable[str] | None = None) -> Brief:
        """`Memory.brief`: the startup briefing (the user's, and `agents`')."""
        return await self.run(self.memory.brief, hours, user_id, now=now, agents=agents)

    # --- forgetting and changes by hand ----------------------------------------------------------------
    async def forget(
        self,
        *,
        session_id: str | None = None,
        user_id: str | None = None,
        all: bool = False,  # noqa: A002 - mirrors Memory.forget
        agent: str | None = None,
    ) -> dict[str, int]:
        """`Memory.forget`: a session, a user, an agent's scope or everything, rows, index entries and journals;
        the file scrubbed."""
        return await self.run(self.memory.forget, session_id=session_id, user_id=user_id, all=all, agent=agent)

    async def search_judgments(self, query: str, *, agents: Iterable[str] | None = None, top_k: int = 5,
                               domain: str | None = None, min_score: float = 0.0, use_utility: bool = False
                               ) -> list[SearchResult]:
        """`Memory.search_judgments`: this scope's judgments and the `agents'`, best first."""
        return await self.run(self.memory.search_judgments, query, agents=agents, top_k=top_k, domain=domain,
                              min_score=min_score, use_utility=use_utility)

    async def list_judgments(self, *, agents: Iterable[str] | None = None, domain: str | None = None,
                             limit: int | None = None) -> list[Judgment]:
        """`Memory.list_judgments`: this scope's judgments and the `agents'`, in the order stored."""
        return await self.run(self.memory.list_judgments, agents=agents, domain=domain, limit=limit)

    async def find_turns(self, turn_id: str, user_id: str | None = None) -> list[StoredTurn]:
        """`Memory.find_turns`."""
        return await self.run(self.memory.find_turns, turn_id, user_id)

    async def edit_fact(self, fact_id: int, text: str, user_id: str | None = None) -> Fact:
        """`Memory.edit_fact`: a new fact supersedes it."""
        return await self.run(self.memory.edit_fact, fact_id, text, user_id)

    async def forget_fact(self, fact_id: int, user_id: str | None = None) -> None:
        """`Memory.forget_fact`."""
        return await self.run(self.memory.forget_fact, fact_id, user_id)

    async def pinned_facts(self, user_id: str | None = None) -> list[dict[str, Any]]:
        """`Memory.pinned_facts`."""
        return await self.run(self.memory.pinned_facts, user_id)

    async def pin_fact(self, fact_id: int, pinned: bool = True, user_id: str | None = None) -> Fact:
        """`Memory.pin_fact`."""
        return await self.run(self.memory.pin_fact, fact_id, pinned, user_id)

    async def reopen_loop(self, loop_id: int, user_id: str | None = None, note: str | None = None) -> Loop:
        """`Memory.reopen_loop`."""
        return await self.run(self.memory.reopen_loop, loop_id, user_id, note)

    async def add_loop(self, text: str, *, due: str | None = None, session_id: str = "manual",
                       workstream_id: int | None = None, user_id: str | None = None) -> Loop:
        """`Memory.add_loop`."""
        return await self.run(self.memory.add_loop, text, due=due, session_id=session_id,
                              workstream_id=workstream_id, user_id=user_id)

    # --- files -----------------------------------------------------------------------------------------
    async def write_vault(self, folder: str | Path, user_id: str | None = None) -> VaultReport:
        """`Memory.write_vault`: the markdown vault."""
        return await self.run(self.memory.write_vault, folder, user_id)

    async def export(self, path: str | Path, *, user_id: str | None = None,
                     all_users: bool = False) -> dict[str, int]:
        """`Memory.export`: a versioned JSON Lines file."""
        return await self.run(self.memory.export, path, user_id=user_id, all_users=all_users)

    async def import_(self, path: str | Path, *, user_id: str | None = None) -> dict[str, int]:
        """`Memory.import_`: an export file's memories."""
        return await self.run(self.memory.import_, path, user_id=user_id)

    async def backup(self, dest: str | Path) -> None:
        """`Memory.backup`: a consistent copy of the whole store."""
        return await self.run(self.memory.backup, dest)


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
