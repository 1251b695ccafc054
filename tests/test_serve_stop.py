"""`episodic serve` stops within seconds on SIGTERM while consolidation runs, losing nothing (issue 18, item 15).

A real server process, its LLM a scripted one on loopback that takes a minute to answer: the consolidation worker
is inside an LLM call when the signal comes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from episodic_memory import Config, Memory

from .fake_llm_server import FakeLLMServer, Reply

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="SIGTERM"),
              pytest.mark.sqlite_only("runs child processes (or reads the SQLite file) that --store-backend=postgres does not redirect")]

SRC = str(Path(__file__).resolve().parents[1] / "src")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def wait_until(check, seconds: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _quietly(fn, *args):  # type: ignore[no-untyped-def]
    with contextlib.suppress(OSError):  # the server stopped before answering: expected
        fn(*args)


def test_sigterm_during_consolidation_stops_within_5s_and_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    port = free_port()
    with FakeLLMServer() as llm_server:
        llm_server.script(Reply(delay=60.0, body={"choices": []}))  # every LLM call hangs for a minute
        env = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "ANTHROPIC_", "OPENAI_"))}
        env.update(PYTHONPATH=SRC, EPISODIC_MODELS__EMBEDDER="off", EPISODIC_LLM__BACKEND="openai", EPISODIC_LLM__MODEL="m",
                   OPENAI_BASE_URL=f"{llm_server.url}/v1", EPISODIC_LLM__TIMEOUT_S="120", EPISODIC_CAPTURE__CONSOLIDATE_EVERY="4",
                   EPISODIC_LLM__CONCURRENCY="4")
        proc = subprocess.Popen([sys.executable, "-m", "episodic_memory.cli", "serve", "--no-auth", "--port", str(port),
                                 "--db", str(db)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            base = f"http://127.0.0.1:{port}"

            def up() -> bool:
                try:
                    return call(f"{base}/v1/health")["status"] == "ok"
                except OSError:
                    return False

            wait_until(up, 60, "the server to start")
            for i in range(6):  # acknowledged: each is durable when its 201 comes back
                call(f"{base}/v1/turns", {"role": "user", "content": f"We decided step {i} of the Airflow migration",
                                          "session_id": "s1", "id": f"t{i}"})
            call(f"{base}/v1/turns", {"role": "user", "content": "Remind me to send the deck", "session_id": "s2"})
            ending = threading.Thread(target=lambda: _quietly(call, f"{base}/v1/sessions/s2/end", {}), daemon=True)
            ending.start()  # a request in flight: ending s2 consolidates it in the request, after s1's hung run
            wait_until(lambda: len(llm_server.requests) >= 1, 30, "the worker (s1) to ask the LLM")

            def s2_ended() -> bool:
                with contextlib.closing(sqlite3.connect(db)) as con:
                    row = con.execute("SELECT status FROM sessions WHERE session_id = 's2'").fetchone()
                return row is not None and row[0] == "ended"

            wait_until(s2_ended, 30, "the request to end s2 (its run waits for the user's run under way)")
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pytest.fail("the server was still running 20 s after SIGTERM")
            took = time.monotonic() - started
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        output = proc.stdout.read() if proc.stdout else ""
    print(f"stopped {took:.2f}s after SIGTERM")
    assert took < 5.0, f"stopping took {took:.1f}s\n{output}"
    assert "Traceback" not in output, output
    # nothing lost: every acknowledged turn is there, and the interrupted consolidation is flagged for the next start
    with Memory(db, config=Config(models={"embedder": "off"}, capture={"consolidate_on_open": False})) as mem:
        assert [t.turn_id for t in mem.session_turns("s1")] == [f"t{i}" for i in range(6)]
        sessions = {s.session_id: s for s in mem.sessions()}
        assert sessions["s1"].needs_consolidation and sessions["s1"].consolidated_turns == 0
        assert sessions["s2"].needs_consolidation and sessions["s2"].status == "ended"
    with Memory(db, config=Config(models={"embedder": "off"}, llm={"backend": "none"})) as mem:  # the next start retries them (rules here)
        assert {(s.session_id, s.needs_consolidation, s.consolidated_turns) for s in mem.sessions()} == {
            ("s1", False, 6), ("s2", False, 1)}
