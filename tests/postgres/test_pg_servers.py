"""Two `episodic serve` processes on one PostgreSQL database (issue 20): clients spread over both, one process is
killed with SIGKILL under load, and every acknowledged turn is stored exactly once while the other keeps serving.

A client that loses its server resends the same turn id to the other one: the unique `(user, session, turn id)`
makes the retry idempotent, so a turn whose first try may or may not have committed is stored once either way."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EPISODIC_")}
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env["EPISODIC_MODELS__EMBEDDER"] = "off"  # the test is about capture across processes, not ranking
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _token(url: str, user: str) -> str:
    out = subprocess.run([sys.executable, "-m", "episodic_memory", "token", "create", "--user", user, "--db", url],
                         env=_env(), check=True, capture_output=True, text=True, timeout=120)
    return out.stdout.strip().splitlines()[-1]


@contextmanager
def _servers(url: str, n: int, folder: Path) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:
    """`n` server processes on the database at `url`: (process, base URL) each, stopped at the end."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for i in range(n):
            port = _free_port()
            log = open(folder / f"server{i}.log", "wb")  # noqa: SIM115 (closed with the process below)
            proc = subprocess.Popen([sys.executable, "-m", "episodic_memory", "serve", "--db", url, "--port", str(port)],
                                    env=_env(), stdout=log, stderr=subprocess.STDOUT)
            log.close()
            started.append((proc, f"http://127.0.0.1:{port}"))
        for i, (proc, base) in enumerate(started):
            deadline = time.monotonic() + 90
            while True:
                try:
                    if httpx.get(base + "/v1/health", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                log_text = (folder / f"server{i}.log").read_text(errors="replace")
                assert proc.poll() is None and time.monotonic() < deadline, f"server {i} did not start:\n{log_text}"
                time.sleep(0.1)
        yield started
    finally:
        for proc, _ in started:
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in started:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


class _Client(threading.Thread):
    """Posts turns to its home server; when that server is gone, resends the same turn to the next one."""

    def __init__(self, i: int, bases: list[str], token: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.i, self.bases, self.token, self.stop = i, bases, token, stop
        self.acked: list[str] = []
        self.sent: set[str] = set()
        self.served_by: Counter[str] = Counter()
        self.failovers = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        home = self.i % len(self.bases)
        headers = {"Authorization": f"Bearer {self.token}"}
        n = 0
        try:
            with httpx.Client(headers=headers, timeout=30) as http:
                while not self.stop.is_set():
                    tid = f"c{self.i}-t{n}"
                    body = {"role": "user", "content": f"client {self.i} says turn {n} about the kayak trip",
                            "session_id": f"c{self.i}-s{n // 25}", "id": tid}
                    self.sent.add(tid)
                    for attempt in range(2 * len(self.bases)):
                        base = self.bases[(home + attempt) % len(self.bases)]
                        try:
                            reply = http.post(base + "/v1/turns", json=body)
                        except httpx.TransportError:  # refused, reset or cut off mid-reply: try the next server
                            self.failovers += 1
                            time.sleep(0.05)
                            continue
                        if reply.status_code == 429:
                            time.sleep(0.2)
                            continue
                        assert reply.status_code == 201, (reply.status_code, reply.text[:300])
                        self.acked.append(tid)
                        self.served_by[base] += 1
                        break
                    n += 1
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.error = exc


@pytest.mark.crash
def test_kill_9_of_one_of_two_servers_under_load_loses_no_acknowledged_turn(pg_url: str, tmp_path: Path) -> None:
    token = _token(pg_url, "alice")
    with _servers(pg_url, 2, tmp_path) as servers:
        (victim, victim_base), (_, survivor_base) = servers
        bases = [base for _, base in servers]
        stop = threading.Event()
        clients = [_Client(i, bases, token, stop) for i in range(6)]
        for c in clients:
            c.start()
        deadline = time.monotonic() + 120
        while sum(c.served_by[victim_base] for c in clients) < 60:  # both servers are taking turns
            assert time.monotonic() < deadline and all(c.error is None for c in clients), [c.error for c in clients]
            time.sleep(0.05)
        victim.send_signal(signal.SIGKILL)  # mid-load: some requests are in flight on it
        victim.wait(30)
        after_kill = {c.i: c.served_by[survivor_base] for c in clients}
        while sum(c.served_by[survivor_base] - after_kill[c.i] for c in clients) < 120:  # the survivor carries on
            assert time.monotonic() < deadline and all(c.error is None for c in clients), [c.error for c in clients]
            time.sleep(0.05)
        stop.set()
        for c in clients:
            c.join(60)
        assert all(c.error is None for c in clients), [c.error for c in clients]
        assert sum(c.failovers for c in clients) >= 1  # the kill was felt: some client had to move

        # read everything back through the survivor
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=survivor_base, headers=headers, timeout=60) as http:
            sessions = {s["session_id"] for s in http.get("/v1/sessions", params={"limit": 10_000}).json()["sessions"]}
            stored: Counter[str] = Counter()
            for sid in sessions:
                stored.update(t["id"] for t in http.get(f"/v1/sessions/{sid}/turns").json()["turns"])
            assert http.get("/v1/recall", params={"q": "kayak trip"}).json()["hits"]
        acked = [tid for c in clients for tid in c.acked]
        sent = set().union(*(c.sent for c in clients))
        assert len(acked) == len(set(acked)) >= 180
        assert [tid for tid in acked if stored[tid] != 1] == []  # every acknowledged turn, exactly once
        assert set(stored) <= sent and max(stored.values()) == 1  # nothing invented, nothing twice
