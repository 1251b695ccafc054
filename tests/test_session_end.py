"""Session end off the caller's path: `end_session` returns once the end is durable, the session's final run goes
to the worker, and a read of that user's memory waits for it (issue 16)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from episodic_memory import Config, Memory
from episodic_memory.session_buffer import SessionBuffer

from .fakes import HashingEmbedder

LINES = ["We decided to ship the beta on Friday.", "Maya Okafor will own the release notes.",
         "The deck has 12 slides."]


def _blocked(mem: Memory) -> tuple[threading.Event, threading.Event, list[bool]]:
    """A first step that signals it started and waits to be let go; the list records each final run."""
    started, go_on, finals = threading.Event(), threading.Event(), []

    def hold(clients: object, info: object, turns: object) -> None:
        started.set()
        assert go_on.wait(10)

    def record(clients: object, info: object, turns: object) -> None:
        finals.append(True)

    mem.consolidation_steps = [hold, *mem.consolidation_steps, record]
    return started, go_on, finals


def test_end_session_returns_before_the_consolidation_and_a_read_waits_for_it(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=HashingEmbedder()) as mem:
        for line in LINES:
            mem.add_turn("user", line, session_id="s")
        started, go_on, finals = _blocked(mem)
        t0 = time.monotonic()
        mem.end_session("s")
        assert time.monotonic() - t0 < 5 and started.wait(10)
        info = mem.store.session("default", "s")
        assert info is not None and info.status == "ended" and info.needs_consolidation  # owed, durably
        assert finals == []
        facts: list[list[str]] = []
        reader = threading.Thread(target=lambda: facts.append([f.text for f in mem.facts()]))
        reader.start()
        time.sleep(0.2)
        assert facts == []  # the read waits for the session's final run
        go_on.set()
        reader.join(10)
        assert finals == [True] and any("12 slides" in t for t in facts[0])
        info = mem.store.session("default", "s")
        assert info is not None and not info.needs_consolidation


def test_a_read_does_not_wait_for_a_session_still_open(tmp_path: Path) -> None:
    config = Config(capture={"consolidate_every": 2})
    with Memory(tmp_path / "m.db", config=config, embedder=HashingEmbedder()) as mem:
        started, go_on, _ = _blocked(mem)
        mem.add_turn("user", LINES[0], session_id="open")
        mem.add_turn("user", LINES[1], session_id="open")  # due: the run starts in the background and blocks
        assert started.wait(10)
        t0 = time.monotonic()
        assert mem.recall("beta Friday")  # the turns are searchable; the mid-session run is not waited for
        mem.facts()
        assert time.monotonic() - t0 < 5
        go_on.set()


@pytest.mark.parametrize("how", ["argument", "config", "inline"])
def test_end_session_can_wait_for_the_consolidation(tmp_path: Path, how: str) -> None:
    config = Config(capture={"end_session_waits": how == "config", "consolidate_in_background": "off" if how == "inline" else "on"})
    with Memory(tmp_path / "m.db", config=config, embedder=HashingEmbedder()) as mem:
        for line in LINES:
            mem.add_turn("user", line, session_id="s")
        _, go_on, finals = _blocked(mem)
        go_on.set()
        mem.end_session("s", wait=True if how == "argument" else None)
        assert finals == [True]  # done before end_session returned: no read needed


def test_the_session_buffer_keeps_waiting_at_its_end(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=HashingEmbedder()) as mem:
        buf = SessionBuffer("s", memory=mem)
        for line in LINES:
            buf.append_turn("user", line)
        _, go_on, finals = _blocked(mem)
        go_on.set()
        buf.end()
        assert finals == [True]


@pytest.mark.sqlite_only("the child process opens the file itself")
def test_a_process_that_dies_right_after_end_session_is_consolidated_at_the_next_open(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    src = str(Path(__file__).resolve().parents[1] / "src")
    script = f"""
import os, sys
sys.path.insert(0, {src!r})
from episodic_memory import Config, Memory
mem = Memory({str(db)!r}, config=Config(embedder="off"))
mem.consolidation_steps = [lambda *a: os._exit(0)]  # the worker's run never gets anywhere
for line in {LINES!r}:
    mem.add_turn("user", line, session_id="s")
mem.end_session("s")
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    with Memory(db, config=Config(models={"embedder": "off"}, capture={"consolidate_on_open": False})) as mem:
        assert mem.store.sessions_needing_consolidation() == [("default", "s")]
    with Memory(db, config=Config(models={"embedder": "off"})) as mem:  # the start-up sweep runs it
        assert mem.store.sessions_needing_consolidation() == []
        assert any("12 slides" in f.text for f in mem.facts())
        assert mem.episode("s") is not None


def _windows_of(mem: Memory) -> tuple[list[tuple[str, int]], threading.Event, threading.Event]:
    """The only step records (session, new turns) per run; session "busy"'s run holds the worker until `go_on`."""
    windows: list[tuple[str, int]] = []
    started, go_on = threading.Event(), threading.Event()

    def record(clients: object, info: object, turns: list) -> None:  # type: ignore[type-arg]
        if getattr(info, "session_id", "") == "busy" and not go_on.is_set():
            started.set()
            assert go_on.wait(10)
        windows.append((getattr(info, "session_id", ""), len(turns)))

    mem.consolidation_steps = [record]
    return windows, started, go_on


def test_a_worker_that_gets_to_a_session_late_consolidates_it_in_the_windows_of_on_time_runs(tmp_path: Path) -> None:
    """While the worker is busy, 20 turns gather in a session: it then takes them 8 at a time (as runs after every
    8th turn would have), and the session's end takes the last 4; so what is remembered does not depend on load."""
    with Memory(tmp_path / "m.db", embedder=HashingEmbedder()) as mem:
        windows, started, go_on = _windows_of(mem)
        for i in range(8):
            mem.add_turn("user", f"busy line {i}", session_id="busy")  # its run holds the worker
        assert started.wait(10)
        for i in range(20):
            mem.add_turn("user", f"line {i} of the session", session_id="s")
        go_on.set()
        mem.end_session("s")
        mem.wait_for_consolidation()
        assert [n for sid, n in windows if sid == "s"] == [8, 8, 4]


def test_a_batch_the_worker_gets_to_late_is_consolidated_as_one_window_as_inline(tmp_path: Path) -> None:
    """`add_turns` of 20 (bulk ingest) makes the session due once, at 20 turns: the late worker consolidates the 20
    together, as an inline run after the batch would have (not 8 at a time)."""
    with Memory(tmp_path / "m.db", embedder=HashingEmbedder()) as mem:
        windows, started, go_on = _windows_of(mem)
        mem.add_turns([{"role": "user", "content": f"busy line {i}", "session_id": "busy"} for i in range(8)])
        assert started.wait(10)
        mem.add_turns([{"role": "user", "content": f"line {i}", "session_id": "s"} for i in range(20)])
        mem.add_turns([{"role": "user", "content": f"more {i}", "session_id": "s"} for i in range(3)])
        go_on.set()
        mem.end_session("s")
        mem.wait_for_consolidation()
        assert [n for sid, n in windows if sid == "s"] == [20, 3]
