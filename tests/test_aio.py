"""AsyncMemory: every verb of Memory as a coroutine, on threads of its own, from one loop with many tasks."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import episodic_memory
from episodic_memory import AsyncMemory, Config, Memory
from episodic_memory.aio import SYNC_ONLY

from .fakes import HashingEmbedder


def _public(cls: type) -> dict[str, object]:
    return {name: member for name, member in inspect.getmembers(cls) if not name.startswith("_")}


def _shape(fn: object) -> list[tuple[str, object, object]]:
    """A signature's parameters without `self` and annotations: name, kind, default."""
    params = list(inspect.signature(fn).parameters.values())[1:]  # type: ignore[arg-type]
    return [(p.name, p.kind, p.default) for p in params]


def test_every_verb_of_memory_has_an_async_twin() -> None:
    verbs = _public(Memory)
    twins = _public(AsyncMemory)
    assert set(SYNC_ONLY) <= set(verbs), "SYNC_ONLY names something Memory no longer has"
    for name, member in verbs.items():
        if name in SYNC_ONLY:
            assert name not in twins or not inspect.iscoroutinefunction(twins[name])
            continue
        assert not isinstance(member, property), f"Memory.{name} is a property: list it in SYNC_ONLY"
        assert name in twins, f"Memory.{name} has no twin in AsyncMemory (or list it in aio.SYNC_ONLY)"
        assert inspect.iscoroutinefunction(twins[name]), f"AsyncMemory.{name} is not a coroutine function"
        assert _shape(twins[name]) == _shape(member), f"AsyncMemory.{name} takes other parameters than Memory's"
        assert inspect.getdoc(twins[name]), f"AsyncMemory.{name} has no docstring"
    assert episodic_memory.AsyncMemory is AsyncMemory and "AsyncMemory" in episodic_memory.__all__


def test_verbs_round_trip_and_async_with_closes(tmp_path: Path) -> None:
    async def main() -> tuple[AsyncMemory, list[str]]:
        async with AsyncMemory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
            tid = await mem.add_turn("user", "The Series B deck needs 14 slides", session_id="s1", turn_id="t1")
            await mem.add_turns([{"role": "assistant", "content": "Noted, 14 slides", "session_id": "s1"}])
            await mem.end_session("s1")
            hits = await mem.recall("how many slides in the deck", k=3)
            assert tid == "t1" and hits and hits[0].source_ids
            assert [t.content for t in await mem.session_turns("s1")][0].startswith("The Series B")
            assert (await mem.stats())["turns"] == 2
            assert [s.session_id for s in await mem.sessions()] == ["s1"]
            found = await mem.run(lambda: mem.memory.judgments.list_judgments())  # what has no twin
            assert found == []
            return mem, [h.text for h in hits]

    mem, texts = asyncio.run(main())
    assert any("14 slides" in t for t in texts)
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(mem.stats())
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as again:  # closed, and everything in the file
        assert again.stats()["turns"] == 2


def test_fifty_tasks_at_once(tmp_path: Path) -> None:
    async def main() -> None:
        mem = await AsyncMemory.open(tmp_path / "m.db", config=Config(capture={"async_threads": 4}),
                                     embedder=HashingEmbedder(dim=128))
        try:
            async def writer(i: int) -> str:
                return await mem.add_turn("user", f"note {i}: the parcel for order {i} ships on day {i % 7}",
                                          session_id=f"s{i % 5}")

            async def reader(i: int) -> int:
                return len(await mem.recall(f"when does order {i} ship", k=3))

            results = await asyncio.gather(*[writer(i) for i in range(50)], *[reader(i) for i in range(50)])
            assert len(set(results[:50])) == 50  # every turn stored once, under its own id
            assert (await mem.stats())["turns"] == 50
            for s in range(5):
                seqs = [t.seq for t in await mem.session_turns(f"s{s}")]
                assert seqs == list(range(10))
            hits = await mem.recall("order 17 parcel", k=5)
            assert any("order 17" in h.text for h in hits)
        finally:
            await mem.close()

    asyncio.run(main())


class SlowEmbedder(HashingEmbedder):
    """Embedding a query takes `delay` seconds (a big model on a busy machine)."""

    def __init__(self, delay: float) -> None:
        super().__init__(dim=64)
        self.delay = delay

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        time.sleep(self.delay)
        return super().embed(texts)


def test_a_slow_recall_does_not_block_the_loop(tmp_path: Path) -> None:
    async def main() -> tuple[int, float]:
        async with AsyncMemory(tmp_path / "m.db", embedder=SlowEmbedder(0.0)) as mem:
            await mem.add_turn("user", "The deck needs 14 slides", session_id="s1")
            await mem.index()
            mem.memory.embedder().delay = 0.6  # type: ignore[union-attr]
            ticks = 0
            stop = asyncio.Event()

            async def ticker() -> None:
                nonlocal ticks
                while not stop.is_set():
                    ticks += 1
                    await asyncio.sleep(0.01)

            task = asyncio.create_task(ticker())
            started = time.monotonic()
            hits = await mem.recall("how many slides")
            took = time.monotonic() - started
            stop.set()
            await task
            assert hits
            return ticks, took

    ticks, took = asyncio.run(main())
    assert took >= 0.6
    assert ticks >= 20, f"the loop ticked {ticks} times in {took:.2f} s: it was blocked"


def test_the_loops_default_executor_cannot_starve_it(tmp_path: Path) -> None:
    """Other code filling the loop's default executor with slow jobs does not hold the memory's calls up."""

    async def main() -> float:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        release = threading.Event()
        blocked = loop.run_in_executor(None, release.wait)  # the default executor's one thread is taken
        try:
            async with AsyncMemory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as mem:
                started = time.monotonic()
                await asyncio.wait_for(mem.add_turn("user", "still written", session_id="s1"), 10)
                assert [t.content for t in await mem.session_turns("s1")] == ["still written"]
                return time.monotonic() - started
        finally:
            release.set()
            await blocked

    assert asyncio.run(main()) < 10


def test_from_memory_shares_a_pool_and_leaves_the_memory_open(tmp_path: Path) -> None:
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="shared")
    names: set[str] = set()
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as memory:
        async def main() -> None:
            for user in ("ann", "bo"):
                mem = AsyncMemory.from_memory(memory, executor=pool)
                await mem.add_turn("user", f"hello from {user}", session_id="s1", user_id=user)
                names.add(await mem.run(lambda: threading.current_thread().name))
                await mem.close()

        asyncio.run(main())
        assert memory.session_turns("s1", user_id="ann")[0].content == "hello from ann"  # still open
        assert all(n.startswith("shared") for n in names)
        assert pool.submit(lambda: 1).result() == 1  # the shared pool is its owner's to shut down
    pool.shutdown()


def test_close_waits_for_calls_under_way(tmp_path: Path) -> None:
    async def main() -> list[str]:
        mem = AsyncMemory(tmp_path / "m.db", config=Config(models={"embedder": "off"}))
        writes = [asyncio.create_task(mem.add_turn("user", f"turn {i}", session_id="s1")) for i in range(20)]
        await asyncio.sleep(0)  # each task has handed its call to the pool
        await mem.close()
        return await asyncio.gather(*writes)

    ids = asyncio.run(main())
    with Memory(tmp_path / "m.db", config=Config(models={"embedder": "off"})) as again:
        assert len(again.session_turns("s1")) == len(ids) == 20


def test_the_rest_routes_run_memory_calls_on_the_request_threads(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The REST server's routes are coroutines; every Memory call (the pool lease too) runs on its request pool."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from episodic_memory.server.limits import ServerLimits
    from episodic_memory.server.rest import create_app

    where: list[str] = []
    for verb in ("add_turn", "recall", "stats"):
        real = getattr(Memory, verb)

        def spy(self: Memory, *args: object, _real: object = real, **kwargs: object) -> object:
            where.append(threading.current_thread().name)
            return _real(self, *args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(Memory, verb, spy)
    app = create_app(tmp_path / "m.db", auth=False, config=Config(models={"embedder": "off"}), limits=ServerLimits(workers=3))
    with TestClient(app) as http:
        assert http.post("/v1/turns", json={"role": "user", "content": "The deck needs 14 slides",
                                            "session_id": "s1"}).status_code == 201
        assert http.get("/v1/recall", params={"q": "deck slides"}).json()["hits"]
        assert http.get("/v1/stats").json()["turns"] == 1
        threads = app.state.request_threads
        assert threads._max_workers == 3
    assert len(where) == 3 and all(name.startswith("episodic-request") for name in where), where
    with pytest.raises(RuntimeError):  # the lifespan's end shut the request threads down
        threads.submit(lambda: None)
