"""`episodic serve --processes N` (issue 45): several server processes behind one port, one database.

Real `serve` processes on a free port (`--port 0`). Each request's process is known exactly: a request goes over a
keep-alive connection, and the server process holding the other end of that connection is read from /proc (Linux);
so the turns of one session are sent to both processes in turn, not left to the kernel's choice.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from episodic_memory.server.ui.sessions import LoginForms, SharedBrowserSessions

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to tell the processes apart"),
              pytest.mark.sqlite_only("runs child processes that --store-backend=postgres does not redirect")]

SRC = str(Path(__file__).resolve().parents[1] / "src")
WORDS = ("anchor basil cedar dahlia ember falcon garnet harbor indigo juniper kestrel lagoon meadow nutmeg orchid "
         "pepper quartz raven saffron tundra umber violet willow yarrow").split()


class Served:
    """An `episodic serve --processes N` subprocess: its port, its children's pids, its output so far."""

    def __init__(self, db: Path, *args: str, processes: int = 2, env: dict[str, str] | None = None,
                 wait: bool = True) -> None:
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("EPISODIC_", "ANTHROPIC_", "OPENAI_"))}
        environ.update(PYTHONPATH=SRC, EPISODIC_MODELS__EMBEDDER="off", EPISODIC_LLM__BACKEND="none",
                       EPISODIC_CAPTURE__CONSOLIDATE_EVERY="4", **(env or {}))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "episodic_memory", "serve", "--db", str(db), "--port", "0",
             "--processes", str(processes), *args],
            env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        found = self.wait_for(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")
        self.port = int(found.group(1))
        if wait:
            self.wait_started(processes)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, count: int = 1, seconds: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while True:
            found = list(re.finditer(pattern, self.output))
            if len(found) >= count:
                return found[count - 1]
            if time.monotonic() > deadline or (self.proc.poll() is not None and not self._reader.is_alive()):
                raise AssertionError(f"no {pattern!r} (x{count}) in the server's output:\n{self.output}")
            time.sleep(0.05)

    def wait_started(self, n: int, after: int = 0) -> None:
        self.wait_for(r"Application startup complete", count=after + n)

    def children(self) -> list[int]:
        """The live children's pids (the latest started for each place)."""
        started = {int(m.group(1)): int(m.group(2)) for m in
                   re.finditer(r"server process (\d+) of \d+ started \[(\d+)\]", self.output)}
        return sorted(started.values())

    def stop(self, sig: int = signal.SIGTERM, seconds: float = 20) -> float:
        start = time.monotonic()
        self.proc.send_signal(sig)
        self.proc.wait(seconds)
        self._reader.join(5)
        return time.monotonic() - start

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pid in self.children():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def serving(db: Path, *args: str, **kw: Any) -> Iterator[Served]:
    served = Served(db, *args, **kw)
    try:
        yield served
    finally:
        served.kill()


def owner(server_port: int, conn: http.client.HTTPConnection | socket.socket, pids: list[int]) -> int:
    """The server process holding the other end of `conn` (open, after a response)."""
    sock = conn.sock if isinstance(conn, http.client.HTTPConnection) else conn
    assert sock is not None
    client_port = sock.getsockname()[1]
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError), open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if (int(fields[1].rsplit(":", 1)[1], 16) == server_port
                        and int(fields[2].rsplit(":", 1)[1], 16) == client_port):
                    inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    return pid
    raise AssertionError(f"no server process holds the connection from port {client_port}")


def request(conn: http.client.HTTPConnection, method: str, path: str, body: dict[str, Any] | None = None,
            headers: dict[str, str] | None = None, form: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    sent = dict(headers or {})
    data: bytes | None = None
    if body is not None:
        data, sent["content-type"] = json.dumps(body).encode(), "application/json"
    elif form is not None:
        data, sent["content-type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"
    conn.request(method, path, body=data, headers=sent)
    response = conn.getresponse()
    text = response.read().decode()
    got: dict[str, str] = {}
    for name, value in response.getheaders():  # several Set-Cookie: all of them, one after the other
        got[name.lower()] = f"{got[name.lower()]}\n{value}" if name.lower() in got else value
    return response.status, got, text


def one_connection_each(served: Served) -> dict[int, http.client.HTTPConnection]:
    """A keep-alive connection held by each server process (connections are opened until every one has one)."""
    pids = served.children()
    held: dict[int, http.client.HTTPConnection] = {}
    spare: list[http.client.HTTPConnection] = []
    for _ in range(200):
        if len(held) == len(pids):
            break
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        assert request(conn, "GET", "/v1/health")[0] == 200
        pid = owner(served.port, conn, pids)
        if pid in held:
            spare.append(conn)
        else:
            held[pid] = conn
    for conn in spare:
        conn.close()
    assert len(held) == len(pids), f"the kernel gave every connection to {list(held)} of {pids}"
    return held


def gone(pid: int) -> bool:
    """Ended (a zombie waiting for a parent that is not reaping it counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pids: list[int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not all(gone(p) for p in pids):
        assert time.monotonic() < deadline, f"still running: {[p for p in pids if not gone(p)]}"
        time.sleep(0.05)


def test_one_sessions_turns_over_two_processes_are_stored_and_consolidated_once_and_sigterm_stops_both(
        tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    n = len(WORDS)
    with serving(db, "--no-auth") as served:
        conns = one_connection_each(served)
        pids = list(conns)
        served_by: Counter[int] = Counter()
        for i, word in enumerate(WORDS):  # every other turn to the other process (consolidation every 4 turns)
            pid = pids[i % len(pids)]
            code, _, text = request(conns[pid], "POST", "/v1/turns", {
                "role": "user", "content": f"We decided the {word} crate goes in step {i}.", "session_id": "s1",
                "id": f"t{i}"})
            assert code == 201, text
            served_by[owner(served.port, conns[pid], pids)] += 1
        assert sorted(served_by.values()) == [n // 2, n // 2], served_by  # each process took half the turns
        code, _, text = request(conns[pids[1]], "POST", "/v1/sessions/s1/end", {})
        assert code == 200, text
        code, _, text = request(conns[pids[0]], "GET", "/v1/sessions/s1/turns")
        assert code == 200 and [t["id"] for t in json.loads(text)["turns"]] == [f"t{i}" for i in range(n)]
        for i in (0, 7, n - 1):  # recall on either process finds them
            for pid in pids:
                code, _, text = request(conns[pid], "GET", "/v1/recall?" + urlencode({"q": f"{WORDS[i]} crate"}))
                assert code == 200 and f"t{i}" in json.loads(text)["hits"][0]["source_ids"], text
        for conn in conns.values():
            conn.close()
        took = served.stop()  # SIGTERM to the supervisor: every child stops, within the single server's grace
        wait_gone(pids, 1)
    assert took < 5.0, served.output
    assert served.proc.returncode == 0, served.output
    assert served.output.count("Finished server process") == 2, served.output
    assert "Traceback" not in served.output, served.output
    with contextlib.closing(sqlite3.connect(db)) as con:
        stored = Counter(r[0] for r in con.execute("SELECT turn_id FROM turns WHERE session_id = 's1'"))
        assert stored == Counter({f"t{i}": 1 for i in range(n)})
        row = con.execute("SELECT status, turn_count, consolidated_turns, needs_consolidation, lease_owner "
                          "FROM sessions WHERE session_id = 's1'").fetchone()
        assert row == ("ended", n, n, 0, None)
        assert con.execute("SELECT turns FROM episodes WHERE session_id = 's1'").fetchall() == [(n,)]
        facts = con.execute("SELECT source_ids, recurrence FROM facts WHERE session_id = 's1'").fetchall()
        sources = Counter(s for ids, _ in facts for s in json.loads(ids))
        assert facts and all(r == 1 for _, r in facts), facts  # no turn's fact was drawn twice
        assert all(c == 1 for c in sources.values()), sources


def test_a_child_that_dies_is_started_again_and_children_of_a_killed_supervisor_stop(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"  # where the supervisor keeps the inspector's logins
    temp.mkdir()
    with serving(tmp_path / "m.db", "--no-auth", env={"TMPDIR": str(temp)}) as served:
        # SQLite's own temporary files (etilqs_*) come and go in TMPDIR too: count the supervisor's folder only
        assert [p.name.startswith("episodic-serve-") for p in temp.iterdir() if not p.name.startswith("etilqs_")] \
            == [True]
        first, second = served.children()
        os.kill(first, signal.SIGKILL)
        served.wait_for(rf"server process \d \[{first}\] died \(killed by signal 9\): starting another")
        served.wait_started(1, after=2)
        third = next(p for p in served.children() if p not in (first, second))
        conns = one_connection_each(served)
        assert sorted(conns) == sorted([second, third])
        for conn in conns.values():
            conn.close()
        served.proc.kill()  # the supervisor, with no chance to stop its children: they stop by themselves
        served.proc.wait()
        wait_gone([second, third], 10)
    assert "the supervisor" in served.output and "is gone: stopping" in served.output
    # the folder its supervisor could not remove: its children did
    assert [p for p in temp.iterdir() if not p.name.startswith("etilqs_")] == []


def _serve_with_fault(tmp_path: Path, fault: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """`serve --processes 2` run to its end with the fault point `fault` armed in every process."""
    return subprocess.run(
        [sys.executable, "-m", "episodic_memory", "serve", "--db", str(tmp_path / "m.db"), "--no-auth", "--port", "0",
         "--processes", "2"],
        env={**{k: v for k, v in os.environ.items() if not k.startswith("EPISODIC_")}, "PYTHONPATH": SRC,
             "EPISODIC_MODELS__EMBEDDER": "off", "EPISODIC_FAULT": fault},
        capture_output=True, text=True, timeout=timeout)


def test_a_child_that_cannot_start_stops_the_server_with_an_error(tmp_path: Path) -> None:
    served = _serve_with_fault(tmp_path, "serve.child_start", 60)
    assert served.returncode == 1, served.stderr
    assert "stopped before it served" in served.stderr, served.stderr


def test_children_that_keep_dying_stop_the_server_with_an_error(tmp_path: Path) -> None:
    served = _serve_with_fault(tmp_path, "serve.child_served", 120)
    assert served.returncode == 1, served.stderr
    assert served.stderr.count("starting another") == 5, served.stderr  # RESTARTS, then no more
    assert "server processes died 6 times within 60 s" in served.stderr, served.stderr


def test_an_inspector_login_on_one_process_holds_on_the_other(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    token = subprocess.run([sys.executable, "-m", "episodic_memory", "token", "create", "--user", "maya", "--db",
                            str(db)], env={**os.environ, "PYTHONPATH": SRC}, capture_output=True, text=True,
                           check=True).stdout.strip().splitlines()[-1]
    with serving(db) as served:
        (a, conn_a), (b, conn_b) = one_connection_each(served).items()
        code, headers, page = request(conn_a, "GET", "/login")
        assert code == 200
        nonce = re.search(r"episodic_login=([^;]+)", headers["set-cookie"])
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert nonce and csrf
        code, headers, _ = request(conn_b, "POST", "/login", form={"token": token, "csrf": csrf.group(1), "next": "/"},
                                   headers={"cookie": f"episodic_login={nonce.group(1)}"})
        assert code == 303 and headers["location"] == "/", headers  # the form made by a, accepted by b
        session = re.search(r"episodic_ui=([^;]+)", headers["set-cookie"])
        assert session
        cookie = {"cookie": f"episodic_ui={session.group(1)}"}
        code, _, page = request(conn_a, "GET", "/", headers=cookie)  # the login made on b, known to a
        assert code == 200 and "maya" in page
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf
        code, headers, _ = request(conn_b, "POST", "/logout", form={"csrf": csrf.group(1)}, headers=cookie)
        assert code == 303
        code, headers, _ = request(conn_a, "GET", "/" + quote(""), headers=cookie)  # logged out everywhere
        assert code == 303 and headers["location"].startswith("/login")
        for conn in (conn_a, conn_b):
            conn.close()
        assert a != b


def test_shared_browser_sessions_keep_the_bounds_and_are_seen_by_every_process(tmp_path: Path) -> None:
    path = tmp_path / "inspector.db"
    SharedBrowserSessions.create(path)
    one, other = (SharedBrowserSessions(path, max_sessions=10, per_user=2) for _ in range(2))
    bob = one.new("bob", "h")
    alice = [one.new("alice", "h") for _ in range(30)]
    seen = other.get(bob.sid)
    assert seen is not None and (seen.user_id, seen.token_hash, seen.csrf) == ("bob", "h", bob.csrf)
    assert [other.get(s.sid) is not None for s in alice[-3:]] == [False, True, True]
    for i in range(12):
        other.new(f"u{i}")
    assert one.get(bob.sid) is None  # past max_sessions, the least recently seen went first
    assert other.end_user("alice") == 0 and one.get(alice[-1].sid) is None
    carol = one.new("carol")
    other.end(carol.sid)
    assert one.get(carol.sid) is None
    quick = SharedBrowserSessions(path, idle_s=0.05)
    dave = quick.new("dave")
    time.sleep(0.1)
    assert quick.get(dave.sid) is None
    key = b"k" * 32
    nonce, form = LoginForms(60, key).issue()
    assert LoginForms(60, key).check(nonce, form) and not LoginForms(60).check(nonce, form)


def test_processes_come_from_the_option_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from episodic_memory.server.limits import _cores, server_limits

    assert server_limits().processes == 1  # one process unless asked: the server as it always was
    monkeypatch.setenv("EPISODIC_SERVER__PROCESSES", "3")
    assert server_limits().processes == 3 and server_limits(processes=2).processes == 2
    monkeypatch.setenv("EPISODIC_SERVER__PROCESSES", "0")
    assert server_limits().processes == _cores()


def test_a_run_refused_by_another_processs_lease_flags_the_session_only_while_turns_wait(tmp_path: Path) -> None:
    """Two server processes, one session: one holds the lease (it may have recorded its run already) when the other's
    worker tries. Flagging it then with nothing left to do had the sweep run the session's final steps twice."""
    from episodic_memory import Config, Memory

    config = Config(models={"embedder": "off"}, llm={"backend": "none"}, capture={"consolidate_every": 100},
                    consolidation={"lease_wait_s": 0.2})
    with Memory(tmp_path / "m.db", config=config) as holder, Memory(tmp_path / "m.db", config=config) as other:
        for i in range(3):
            holder.add_turn("user", f"We decided step {i}.", session_id="s1")
        holder.end_session("s1", wait=True)
        assert holder.lease.claim("default", "s1")  # everything consolidated, the lease not yet given back

        def flagged() -> bool:
            info = other.store.session("default", "s1")
            assert info is not None
            return info.needs_consolidation

        assert not other.consolidate("default", "s1") and not flagged()  # nothing waits: no second final run
        assert not other.consolidate("default", "s1", final=True) and flagged()  # a final run is owed: flagged
        holder.consolidate("default", "s1", final=True)
        assert not flagged()
        holder.add_turn("user", "A late turn.", session_id="s1")
        holder.store.record_consolidated("default", "s1", 3)  # (as a run that took the first 3 would leave it)
        assert holder.lease.claim("default", "s1")
        assert not other.consolidate("default", "s1") and flagged()  # a turn waits: flagged for it
        holder.lease.release("default", "s1")


def test_the_sweep_recounts_turns_another_process_consolidated(tmp_path: Path) -> None:
    """A server process's `backlog` counts the turns its own runs left unconsolidated; another process may
    consolidate them. Never recounted, the stale counts grew until every new turn got 429 (backlog_refuse_turns)."""
    from episodic_memory import Config, Memory
    from episodic_memory.server.pool import MemoryPool

    config = Config(models={"embedder": "off"}, llm={"backend": "none"}, capture={"consolidate_every": 4},
                    server={"sweep_idle_s": 3600})
    with Memory(tmp_path / "m.db", config=config.replace({"capture.consolidate_every": 100})) as other:
        for i in range(12):
            other.add_turn("user", f"We decided step {i}.", session_id="s1", user_id="u")
        pool = MemoryPool(tmp_path / "m.db", config, background=True)
        try:
            pool.turns_added("u", "s1", 5)   # left by a run of this process; the other one added more since
            pool.turns_added("u", "s2", 50)  # consolidated (here: gone) by the other process
            assert pool.backlog(fresh=True) == 55
            pool.sweep()
            assert pool.backlog(fresh=True) == 12  # as the store says
            other.end_session("s1", user_id="u", wait=True)
            pool.sweep()
            assert pool.backlog(fresh=True) == 0
        finally:
            pool.close()


async def _burst(port: int, n: int = 20) -> list[socket.socket]:
    """`n` keep-alive connections opened at once, each after one answered request (copies of their sockets)."""
    async def connect() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        await reader.readuntil(b"\r\n\r\n")
        return reader, writer

    opened = await asyncio.wait_for(asyncio.gather(*(connect() for _ in range(n))), 60)
    return [writer.get_extra_info("socket").dup() for _, writer in opened]


def test_connections_made_as_soon_as_the_server_answers_spread_over_every_process(tmp_path: Path) -> None:
    """A client that opens its keep-alive connections once the server first answers, while a process is still
    starting, gets some on each process: every socket listens from the start, so the kernel spreads them and the
    ones for the late process wait for it. When a socket listened only once its process served, the first
    process to start took all 20 and kept them (bench/load.py's clients: 2 processes served no more than 1)."""

    with serving(tmp_path / "m.db", "--no-auth", wait=False) as served:
        deadline = time.monotonic() + 60
        while True:   # the first answer: from whichever process serves first
            with contextlib.suppress(OSError, http.client.HTTPException):
                first = http.client.HTTPConnection("127.0.0.1", served.port, timeout=1)
                first.request("GET", "/v1/health")
                if first.getresponse().status == 200:
                    first.close()
                    break
            assert time.monotonic() < deadline, served.output
            time.sleep(0.01)
        socks = asyncio.run(_burst(served.port))
        held = Counter(owner(served.port, s, served.children()) for s in socks)
        for sock in socks:
            sock.close()
        assert len(held) == 2 and min(held.values()) >= 2, held


def test_a_burst_of_connections_spreads_over_the_processes_and_the_port_is_theirs(tmp_path: Path) -> None:
    """On Linux each process listens on a socket of its own (SO_REUSEPORT): with one shared socket, the first process
    to wake took most of a burst of keep-alive connections (20 of 20, 19 of 20 measured) and kept their requests."""

    with serving(tmp_path / "m.db", "--no-auth") as served:
        pids = served.children()
        for _ in range(5):
            socks = asyncio.run(_burst(served.port))
            held = Counter(owner(served.port, s, pids) for s in socks)
            for sock in socks:
                sock.close()
            assert len(held) == 2 and min(held.values()) >= 2, held
        other = subprocess.run(  # a second server on the port: refused, not let in to share it
            [sys.executable, "-m", "episodic_memory", "serve", "--db", str(tmp_path / "other.db"), "--no-auth",
             "--port", str(served.port), "--processes", "2"],
            env={**os.environ, "PYTHONPATH": SRC, "EPISODIC_MODELS__EMBEDDER": "off"}, capture_output=True, text=True,
            timeout=60)
        assert other.returncode == 1 and "Address already in use" in other.stderr, other.stderr
