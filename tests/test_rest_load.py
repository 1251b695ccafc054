"""The REST server under load (issue 16): admission (429 + Retry-After, never a silent drop), each acknowledged turn
stored exactly once when clients retry refused ones, and background work that gives way to requests.

Correctness only: requests are held at a known point (an embedder that blocks) instead of timed."""

from __future__ import annotations

import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from episodic_memory.config import Config  # noqa: E402
from episodic_memory.server.limits import BackgroundGate, ServerLimits, server_limits  # noqa: E402
from episodic_memory.server.pool import WORKER_NAME, MemoryPool  # noqa: E402
from episodic_memory.server.rest import create_app  # noqa: E402
from tests.fakes import HashingEmbedder  # noqa: E402
from tests.test_rest import client, new_token, serving, turn  # noqa: E402


class HoldingEmbedder(HashingEmbedder):
    """Embeds as HashingEmbedder; a recall whose query says HOLD waits until `release` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.holding = threading.Semaphore(0)

    def embed_query(self, text: str) -> np.ndarray:
        if "HOLD" in text:
            self.holding.release()
            assert self.release.wait(30), "the test never released the held recall"
        return super().embed_query(text)


def app_with(db: Path, limits: ServerLimits, embedder: HashingEmbedder | None = None) -> Any:
    return create_app(db, config=Config(models={"embedder": "off"}, capture={"consolidate_every": 4}), embedder=embedder or HashingEmbedder(),
                      limits=limits)


def hold(url: str, token: str, pool: ThreadPoolExecutor, emb: HoldingEmbedder, n: int = 1) -> list[Any]:
    """`n` recalls that stay in the server (running or queued) until `emb.release` is set (each on a client of its
    own: one httpx client shared by threads serialises them)."""
    def recall(i: int) -> httpx.Response:
        with client(url, token) as c:
            return c.get("/v1/recall", params={"q": f"HOLD {i}"})

    return [pool.submit(recall, i) for i in range(n)]


def wait_inflight(app: Any, n: int, *, exactly: bool = False) -> None:
    """Until `n` requests (or, `exactly`, just `n`: a reply is sent a moment before its count drops) are in flight."""
    deadline = time.monotonic() + 20
    while app.state.inflight.total < n or (exactly and app.state.inflight.total != n):
        assert time.monotonic() < deadline, f"{app.state.inflight.total} requests in flight, expected {n}"
        time.sleep(0.01)


def test_full_server_answers_429_with_retry_after_and_stores_nothing(db_path: Path) -> None:
    emb = HoldingEmbedder()
    app = app_with(db_path, ServerLimits(workers=1, max_inflight=2, per_client_max=2, retry_after_s=3), emb)
    token = new_token(db_path, "alice")
    with serving(app) as url, client(url, token) as c, ThreadPoolExecutor(4) as pool:
        held = hold(url, token, pool, emb, 2)  # one runs (and blocks), one waits for the only thread
        assert emb.holding.acquire(timeout=20)
        wait_inflight(app, 2)
        refused = c.post("/v1/turns", json=turn("the deck needs 14 slides", id="t1"))
        assert refused.status_code == 429 and refused.headers["retry-after"] == "3"
        assert "nothing was done" in refused.json()["detail"]
        assert c.get("/v1/recall", params={"q": "deck"}).status_code == 429
        assert httpx.get(url + "/v1/health").status_code == 200  # never refused
        assert app.state.inflight.refused == 2
        emb.release.set()
        assert [f.result().status_code for f in held] == [200, 200]
        # nothing of the refused turn was stored; sent again, it is stored once
        assert c.get("/v1/sessions").json()["sessions"] == []
        assert c.post("/v1/turns", json=turn("the deck needs 14 slides", id="t1")).status_code == 201
        assert [t["id"] for t in c.get("/v1/sessions/s1/turns").json()["turns"]] == ["t1"]
        wait_inflight(app, 0, exactly=True)
        assert not app.state.inflight.per_client


def test_one_client_cannot_take_every_place(db_path: Path) -> None:
    emb = HoldingEmbedder()
    app = app_with(db_path, ServerLimits(workers=2, max_inflight=4, per_client_max=1), emb)
    alice, bob = new_token(db_path, "alice"), new_token(db_path, "bob")
    with serving(app) as url, client(url, alice) as a, client(url, bob) as b, ThreadPoolExecutor(2) as pool:
        held = hold(url, alice, pool, emb)
        assert emb.holding.acquire(timeout=20)
        assert a.post("/v1/turns", json=turn("alice again")).status_code == 429  # alice's one place is taken
        assert b.post("/v1/turns", json=turn("bob is served")).status_code == 201
        emb.release.set()
        assert held[0].result().status_code == 200
        wait_inflight(app, 0, exactly=True)  # the reply leaves a moment before its place is given back
        assert a.post("/v1/turns", json=turn("alice again")).status_code == 201


def test_every_acknowledged_turn_is_stored_exactly_once_under_back_pressure(db_path: Path) -> None:
    """Many clients against a tiny admission bound: some requests are refused (429) and sent again; in the end each
    turn is stored once, none is missing, and nothing unacknowledged was stored."""
    app = app_with(db_path, ServerLimits(workers=2, max_inflight=3, per_client_max=3, retry_after_s=1))
    tokens = {u: new_token(db_path, u) for u in ("alice", "bob")}
    refused = 0
    lock = threading.Lock()

    def writer(n: int, url: str) -> list[tuple[str, str, str]]:
        nonlocal refused
        user = "alice" if n % 2 else "bob"
        acked = []
        with client(url, tokens[user]) as c:
            for i in range(15):
                body = turn(f"turn {i} of writer {n} about the budget", session_id=f"w{n}", id=f"w{n}-{i}")
                while True:
                    r = c.post("/v1/turns", json=body)
                    if r.status_code != 429:
                        break
                    assert r.headers["retry-after"] == "1"
                    with lock:
                        refused += 1
                    time.sleep(0.01)  # (a real client waits Retry-After; here: the sooner, the more 429s)
                assert r.status_code == 201, r.text
                acked.append((user, f"w{n}", r.json()["id"]))
                if i % 5 == 0:
                    code = c.get("/v1/recall", params={"q": "budget"}).status_code
                    assert code in (200, 429)
                    with lock:
                        refused += code == 429
        return acked

    with serving(app) as url, ThreadPoolExecutor(8) as pool:
        acked = [a for done in pool.map(lambda n: writer(n, url), range(8)) for a in done]
        assert len(acked) == 8 * 15 and len(set(acked)) == len(acked)
        stored: dict[tuple[str, str], list[str]] = {}
        for user, token in tokens.items():
            with client(url, token) as c:
                for s in c.get("/v1/sessions").json()["sessions"]:
                    turns = c.get(f"/v1/sessions/{s['session_id']}/turns").json()["turns"]
                    stored[(user, s["session_id"])] = [t["id"] for t in turns]
    for user, sid, tid in acked:
        assert stored[(user, sid)].count(tid) == 1, (user, sid, tid)
    assert sum(len(v) for v in stored.values()) == len(acked)  # nothing stored that was not acknowledged
    assert refused == app.state.inflight.refused  # every refusal was a 429 the clients saw (and sent again)


def test_limits_from_env_and_their_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EPISODIC_SERVER__WORKERS", "3")
    monkeypatch.setenv("EPISODIC_SERVER__ACCESS_LOG", "yes")
    limits = server_limits(max_inflight=7)
    assert (limits.workers, limits.max_inflight, limits.per_client_max, limits.access_log) == (3, 7, 3, True)
    assert server_limits(workers=5).workers == 5  # an explicit value beats the environment
    assert server_limits(ServerLimits(workers=2)).max_inflight == 16
    monkeypatch.setenv("EPISODIC_SERVER__WORKERS", "many")
    with pytest.raises(ValueError, match="EPISODIC_SERVER__WORKERS"):
        server_limits()
    with pytest.raises(ValueError, match="background_share"):
        ServerLimits(background_share=0)


def test_the_pool_lowers_what_a_recall_embeds_inline(tmp_path: Path) -> None:
    config = Config(models={"embedder": "off"})
    pool = MemoryPool(tmp_path / "m.db", config, HashingEmbedder(), background=True)
    try:
        assert pool.get("alice").config.retrieval.recall_embed_max_items == 4  # the server's default
    finally:
        pool.close()
    pool = MemoryPool(tmp_path / "m.db", config.replace({"retrieval.recall_embed_max_items": 2}), HashingEmbedder(),
                      background=True)
    try:
        assert pool.get("alice").config.retrieval.recall_embed_max_items == 2  # set: the Config's
    finally:
        pool.close()


def test_background_gate_slows_only_the_worker_and_only_while_requests_run() -> None:
    busy = threading.Event()
    gate = BackgroundGate(ServerLimits(background_defer_s=0.5, background_max_wait_s=0.5), busy.is_set, WORKER_NAME)
    busy.set()
    gate()  # a request thread (a session end consolidating inline) never waits
    assert gate.deferred_s == 0.0
    seen: dict[str, Any] = {}

    def worker() -> None:
        gate()  # busy: waits its bounded turn, then runs anyway
        seen["waited"] = gate.deferred_s
        busy.clear()
        gate()  # idle: no wait
        seen["idle"] = gate.deferred_s - seen["waited"]

    t = threading.Thread(target=worker, name=WORKER_NAME)
    t.start()
    t.join(10)
    assert seen["waited"] >= 0.5 and seen["idle"] < 0.5


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread nice values are Linux's")
def test_the_servers_worker_runs_at_the_servers_background_nice(tmp_path: Path) -> None:
    from episodic_memory.util import thread_niceness

    seen: list[int] = []
    pool = MemoryPool(tmp_path / "m.db", Config(models={"embedder": "off"}, capture={"background_nice": 3}),
                      HashingEmbedder(), background=True, gate=lambda: seen.append(thread_niceness()))
    try:
        base = thread_niceness()
        with pool.lease("alice") as mem:
            mem.add_turn("user", "the worker picks this session up", session_id="s1")
        pool.scheduler.submit("alice", "s1", force=True)
        pool.scheduler.close()
    finally:
        pool.close()
    assert seen and set(seen) == {min(19, base + 3)}


def test_fair_slots_serve_the_client_with_fewest_running_first() -> None:
    import asyncio

    from episodic_memory.server.limits import FairSlots

    async def scenario() -> list[str]:
        slots = FairSlots(2, per_client=2)
        order: list[str] = []

        async def run(client: bytes, name: str, hold: asyncio.Event) -> None:
            await slots.acquire(client)
            order.append(name)
            await hold.wait()
            slots.release(client)

        gates = {n: asyncio.Event() for n in ("a1", "a2", "a3", "a4", "b1")}
        tasks = [asyncio.create_task(run(b"a", n, gates[n])) for n in ("a1", "a2", "a3", "a4")]
        await asyncio.sleep(0)
        assert order == ["a1", "a2"]  # both places taken by a; a3 and a4 wait
        tasks.append(asyncio.create_task(run(b"b", "b1", gates["b1"])))
        await asyncio.sleep(0)
        gates["a1"].set()  # a place frees: b (0 running) goes before a's older requests (1 running)
        for _ in range(3):
            await asyncio.sleep(0)
        assert order == ["a1", "a2", "b1"]
        waiting = asyncio.create_task(run(b"c", "c1", asyncio.Event()))
        await asyncio.sleep(0)
        waiting.cancel()  # a request that goes away while waiting gives up its turn, and takes no place
        for n in ("a2", "b1", "a3", "a4"):
            gates[n].set()
        await asyncio.gather(*tasks)
        assert order == ["a1", "a2", "b1", "a3", "a4"] and slots.free == 2 and not slots.running
        return order

    asyncio.run(scenario())


def test_a_client_runs_at_most_its_share_of_the_places() -> None:
    import asyncio

    from episodic_memory.server.limits import FairSlots

    async def scenario() -> None:
        slots = FairSlots(4, per_client=2)
        for _ in range(2):
            await slots.acquire(b"a")
        third = asyncio.create_task(slots.acquire(b"a"))
        await asyncio.sleep(0)
        assert not third.done() and slots.free == 2  # places are free, but a is at its cap
        await slots.acquire(b"b")  # another client takes one at once
        slots.release(b"a")
        await third
        assert slots.running == {b"a": 2, b"b": 1} and slots.free == 1

    asyncio.run(scenario())


def test_the_worker_gets_a_bigger_share_as_its_backlog_grows() -> None:
    gate = BackgroundGate(ServerLimits(background_share=0.25, background_backlog_turns=100), lambda: True,
                          WORKER_NAME)
    shares = []
    for backlog in (0, 100, 200, 400, 10_000):
        gate.backlog = lambda b=backlog: b
        shares.append(gate.share())
    assert shares == [0.25, 0.25, 0.5, 1.0, 1.0]


def test_the_pool_counts_the_turns_waiting_for_consolidation(db_path: Path) -> None:
    """Turns posted count until their session is consolidated; a session under `consolidate_every` new turns is
    not due and does not count; forgetting clears the count."""
    app = app_with(db_path, ServerLimits())
    pool = app.state.pool
    with serving(app) as url, client(url, new_token(db_path, "alice")) as c:
        for i in range(3):
            assert c.post("/v1/turns", json=turn(f"turn {i}", session_id="short")).status_code == 201
        assert pool.backlog(fresh=True) == 0  # 3 < consolidate_every (4): not due
        pool.turns_added("alice", "big", 10)  # as if ten turns were waiting
        assert pool.backlog(fresh=True) == 10
        for i in range(4):
            assert c.post("/v1/turns", json=turn(f"turn {i}", session_id="s2")).status_code == 201
        pool.scheduler.wait()
        assert pool.backlog(fresh=True) == 10  # s2 was consolidated by the worker: only the pretend session is left
        assert c.post("/v1/forget", json={"all": True}).status_code == 200
        assert pool.backlog(fresh=True) == 0


def test_a_turn_is_refused_while_consolidation_is_too_far_behind(db_path: Path) -> None:
    app = app_with(db_path, ServerLimits(backlog_refuse_turns=100, retry_after_s=2))
    pool = app.state.pool
    with serving(app) as url, client(url, new_token(db_path, "alice")) as c:
        pool.turns_added("alice", "elsewhere", 101)  # as if 101 turns waited for consolidation
        assert pool.backlog(fresh=True) == 101
        r = c.post("/v1/turns", json=turn("not now", id="late"))
        assert r.status_code == 429 and r.headers["retry-after"] == "2"
        assert c.get("/v1/recall", params={"q": "now"}).status_code == 200  # reads go on
        assert c.get("/v1/sessions").json()["sessions"] == []  # nothing was stored
        pool.forgotten("alice", "elsewhere")  # caught up
        assert c.post("/v1/turns", json=turn("not now", id="late")).status_code == 201
