"""A long-running process gives back what it freed: after a user's first coarse index, and now and then from the
background worker (glibc's `malloc_trim`; docs/write-path.md, "A long-running process's memory")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from episodic_memory import Config, Memory, util
from episodic_memory.retrieve import dense, sidecar
from tests.fakes import HashingEmbedder


@pytest.fixture
def trims(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every call of `give_back_freed_memory` from the dense index, its cache and the Memory's housekeeping: its
    interval."""
    calls: list[float] = []

    def record(at_most_every_s: float = 0.0) -> bool:
        calls.append(at_most_every_s)
        return True

    monkeypatch.setattr(dense, "give_back_freed_memory", record)
    monkeypatch.setattr(sidecar, "give_back_freed_memory", record)
    monkeypatch.setattr("episodic_memory.memory.give_back_freed_memory", record)
    return calls


def _add(mem: Memory, start: int, stop: int) -> None:
    for i in range(start, stop):
        mem.add_turn("user", f"note {i}: the office in town {i} has {i % 7} desks", session_id=f"s{i // 20}")


@pytest.mark.parametrize("sidecar_above", [40, 10**9], ids=["sidecar build", "in-memory index"])
def test_a_users_first_coarse_index_gives_its_temporaries_back(tmp_path: Path, trims: list[float],
                                                              sidecar_above: int) -> None:
    cfg = Config(retrieval={"dense_coarse_above": 40, "dense_coarse_dims": 16, "vector_sidecar_above": sidecar_above}, capture={"consolidate_in_background": "off", "consolidate_every": 10**6}, store={"memory_trim_every_s": 0})
    with Memory(tmp_path / "m.db", config=cfg, embedder=HashingEmbedder()) as mem:
        _add(mem, 0, 30)
        assert mem.recall("desks in town 3")
        assert trims == []  # below the coarse index's size: nothing was built
        _add(mem, 30, 60)
        assert mem.recall("desks in town 33")
        assert trims == [0.0]  # built once, given back at once
        _add(mem, 60, 70)
        assert mem.recall("desks in town 63")
        assert trims == [0.0]  # rows appended to it: no second build


def test_the_background_worker_gives_memory_back_at_most_every_interval(tmp_path: Path, trims: list[float]) -> None:
    cfg = Config(capture={"consolidate_in_background": "on", "consolidate_every": 4}, store={"memory_trim_every_s": 60})
    with Memory(tmp_path / "m.db", config=cfg, embedder=HashingEmbedder()) as mem:
        _add(mem, 0, 8)
        mem.wait_for_consolidation()
    assert trims and set(trims) == {60.0}  # after its runs (closing waits for the worker), rate-limited
    off = Config(capture={"consolidate_in_background": "on", "consolidate_every": 4}, store={"memory_trim_every_s": 0})
    trims.clear()
    with Memory(tmp_path / "n.db", config=off, embedder=HashingEmbedder()) as mem:
        _add(mem, 0, 8)
        mem.wait_for_consolidation()
    assert trims == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim: Linux only")
def test_give_back_freed_memory_runs_at_most_once_an_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    if util._malloc_trim() is None:
        pytest.skip("not glibc")
    monkeypatch.setattr(util, "_trimmed_at", float("-inf"))
    assert util.give_back_freed_memory(3600) is True
    assert util.give_back_freed_memory(3600) is False  # within the hour: not again
    assert util.give_back_freed_memory() is True  # no interval: every call


def test_a_run_the_waiter_does_itself_is_followed_by_the_housekeeping(tmp_path: Path, trims: list[float],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`wait_for_consolidation` runs a queued run itself rather than wait for the worker; the housekeeping after it
    (WAL folded in, memory given back) is done then too, not only after the worker's runs. Here the worker never
    gets to start, as on a busy machine where the waiter takes every run first."""
    import threading

    from episodic_memory.consolidate import scheduler

    class NeverStarts(threading.Thread):
        def start(self) -> None:
            pass

        def join(self, timeout: float | None = None) -> None:
            pass

    monkeypatch.setattr(scheduler.threading, "Thread", NeverStarts)
    cfg = Config(capture={"consolidate_in_background": "on", "consolidate_every": 4}, store={"memory_trim_every_s": 60})
    with Memory(tmp_path / "m.db", config=cfg, embedder=HashingEmbedder()) as mem:
        _add(mem, 0, 8)
        mem.wait_for_consolidation()
        assert mem.episodes(), "the waiter ran the consolidation itself"
        assert trims and set(trims) == {60.0}
