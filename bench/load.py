"""The REST server under load (issue 16): throughput, latency per route, RSS, exactly-once capture.

Starts ``python -m episodic_memory serve`` (from this checkout's ``src``, or each ``--tree NAME=PATH``) on a free
loopback port with a fresh temporary database and one token per user, then runs ``--clients`` concurrent clients for
``--seconds`` (after ``--warmup`` seconds that are not counted): a ``--mix`` share of ``POST /v1/turns``, the rest
``GET /v1/recall``, each client acting as one of ``--users`` users. The client is raw asyncio HTTP/1.1 over keep-alive
connections (no httpx on the hot path) and reports its own CPU, so it can be told apart from the server's.

After the load it reads every session back through the API and checks that **every acknowledged turn (201) is stored
exactly once**, and that nothing unacknowledged was stored but for requests whose fate the client could not know
(a timeout or a dropped connection). A 429 is back-pressure: the client waits ``Retry-After`` and sends the same turn
again (a 429 promises the turn was not stored).

``--noisy-neighbour``: one user's recall latency alone (quiet), then while another user posts the largest turns the
server accepts (``Config.capture.max_turn_chars``), in bursts of ``--noisy-burst`` concurrent posts.

``--tree base=/tmp/base-rest/src --tree new=src --rounds 2`` runs the trees alternately (base, new, base, new), each
on its own fresh database, so a baseline checkout can be compared on the same noisy machine; ``--tree-arg
NAME=ARG`` gives one tree's server an argument of its own (``serve --processes 2`` against one process, say). A
server's CPU, RSS and threads are its process's and its children's together.

    python bench/load.py --clients 20 --seconds 30 --users 3 --mix 0.5
    python bench/load.py --tree base=/tmp/base-rest/src --tree new=src --rounds 2 --seconds 20
    python bench/load.py --tree one=src --tree two=src --tree-arg two=--processes --tree-arg two=2 --rounds 2
    python bench/load.py --noisy-neighbour --seconds 20
    python bench/load.py --seconds 600 --clients 20        # RSS over 10 minutes

Prints a markdown table; writes every number to ``bench/results/load.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

WORDS = ("deck slides budget launch invoice meeting garden bicycle python server latency queue sqlite journal "
         "holiday flight hotel recipe tomato marathon training coffee project deadline review design contract "
         "painting guitar lesson doctor appointment insurance mortgage kitchen renovation camera lens birthday "
         "present concert ticket library thesis chapter experiment results dataset model memory recall").split()


def sentence(rng: random.Random, n: int = 24) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


# --- a minimal HTTP/1.1 client: one keep-alive connection per simulated client -------------------------------------
class Conn:
    """One keep-alive connection; with several `ports` (server processes behind a load balancer), a failed request
    moves the connection to the next port (the caller decides whether to send it again)."""

    def __init__(self, host: str, port: int | list[int]) -> None:
        self.ports = port if isinstance(port, list) else [port]
        self.host, self.port = host, self.ports[0]
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=1 << 22)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, token: str | None, body: bytes | None = None,
                      timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            try:
                await self._open()
            except OSError:  # refused: nothing was sent
                self.close()
                self.port = self.ports[(self.ports.index(self.port) + 1) % len(self.ports)]
                raise
        assert self.reader is not None and self.writer is not None
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
        try:
            return await asyncio.wait_for(self._response(), timeout)
        except BaseException:
            self.close()
            self.port = self.ports[(self.ports.index(self.port) + 1) % len(self.ports)]
            raise

    async def _response(self) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("server closed the connection")
        code = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            payload = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            payload = b""
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                payload += chunk[:-2]
        else:
            payload = await self.reader.read()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return code, headers, payload


# --- the server under test -----------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clean_env(src: str, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EPISODIC_")}
    env["PYTHONPATH"] = src
    env.update(extra)
    return env


def tree_python(src: str, code: str, env: dict[str, str]) -> str:
    return subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


# Issue 45: what any server must pay on this machine for the same requests, in CPU ms, measured by the tree's own
# code in a child process right after the load: a turn = the embedder on its text (batches of --floor-batch, its
# caches emptied: no cache) + one durable append (a JSON line written and fsynced); a recall = the embedder on the
# question (no cache) + one numpy top-10 scan of as many float32 rows as the user's turns at the end of the run.
FLOOR_CODE = r"""
import json, os, random, sys, tempfile, time
import numpy as np
from threadpoolctl import threadpool_limits
from episodic_memory.config import Config
from episodic_memory.models.embedder import load_embedder
turns, queries, rows, batch = json.loads(sys.stdin.read())
cfg = Config()
emb = load_embedder(cfg.models.embedder, cfg.models.threads)
embed = getattr(emb, "embed_once", emb.embed)
emb.embed(["warm up"]); emb.embed_query("warm up")
fd, path = tempfile.mkstemp(prefix="floor-journal-")
t0 = time.process_time()
for i in range(0, len(turns), batch):
    part = turns[i:i + batch]
    if hasattr(emb, "cache_clear"):
        emb.cache_clear()
    embed(part)
    for text in part:
        os.write(fd, (json.dumps({"role": "user", "content": text}) + "\n").encode())
        os.fsync(fd)
turn_ms = (time.process_time() - t0) * 1000 / max(1, len(turns))
os.close(fd); os.unlink(path)
m = np.random.default_rng(0).standard_normal((max(rows, 10), emb.dim)).astype(np.float32)
m /= np.linalg.norm(m, axis=1, keepdims=True)
t0 = time.process_time()
with threadpool_limits(1, user_api="blas"):
    for q in queries:
        if hasattr(emb, "cache_clear"):
            emb.cache_clear()
        v = np.asarray(emb.embed_query(q), np.float32)
        s = m @ v
        top = np.argpartition(-s, 9)[:10]
        top[np.argsort(-s[top])]
recall_ms = (time.process_time() - t0) * 1000 / max(1, len(queries))
print(json.dumps({"turn_cpu_ms": round(turn_ms, 3), "recall_cpu_ms": round(recall_ms, 3), "rows": rows,
                  "batch": batch, "turns": len(turns), "queries": len(queries)}))
"""


def measure_floor(src: str, args: argparse.Namespace, rows: int) -> dict[str, Any]:
    """The turn and recall floors (FLOOR_CODE) for requests like the load's, with the tree at `src`."""
    rng = random.Random(4545)
    turns = [sentence(rng, max(4, args.turn_chars // 7))[: args.turn_chars] for _ in range(args.floor_samples)]
    queries = [" ".join(rng.sample(WORDS, 3)) for _ in range(args.floor_samples)]
    out = subprocess.run([sys.executable, "-c", FLOOR_CODE], env=clean_env(src, {}), check=True, text=True,
                         capture_output=True, input=json.dumps([turns, queries, rows, args.floor_batch]))
    floor: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    floor["request_cpu_ms"] = round(args.mix * floor["turn_cpu_ms"] + (1 - args.mix) * floor["recall_cpu_ms"], 3)
    return floor


def box_cpu() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine so far (/proc/stat; (0, 0) where there is none)."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0, 0
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)  # idle and iowait are not busy


class Server:
    """`processes` server processes on one database: a fresh SQLite file in a temp folder, or `db` (e.g. a
    PostgreSQL URL, whose tables should be empty). Clients spread over their ports as a load balancer would."""

    def __init__(self, name: str, src: str, users: int, server_args: list[str], env_extra: dict[str, str],
                 db: str | None = None, processes: int = 1) -> None:
        self.name, self.src = name, str(Path(src).resolve())
        self.tmp = Path(tempfile.mkdtemp(prefix=f"load-{name}-"))
        self.db = db or str(self.tmp / "mem.db")
        self.env = clean_env(self.src, env_extra)
        self.users = [f"user{i}" for i in range(users)]
        self.tokens: dict[str, str] = {}
        for user in self.users:
            out = subprocess.run([sys.executable, "-m", "episodic_memory", "token", "create", "--user", user,
                                  "--db", self.db], env=self.env, check=True, capture_output=True, text=True)
            self.tokens[user] = out.stdout.strip().splitlines()[-1]
        self.max_turn_chars = int(tree_python(
            self.src, "from episodic_memory.config import Config; print(Config.from_env().capture.max_turn_chars)", self.env))
        self.ports = [free_port() for _ in range(processes)]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.killed: list[int] = []
        for i, port in enumerate(self.ports):
            cmd = [sys.executable, "-m", "episodic_memory", "serve", "--db", self.db, "--port", str(port),
                   *server_args]
            with open(self.tmp / f"server{i}.log", "wb") as log:
                self.procs.append(subprocess.Popen(cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 90
        for i, (port, proc) in enumerate(zip(self.ports, self.procs, strict=True)):
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"server {name}/{i} did not start:\n"
                                           f"{(self.tmp / f'server{i}.log').read_text()}") from None
                    time.sleep(0.1)

    @property
    def port(self) -> int:
        """A port of a live server process (for the checks after the load)."""
        return next(p for i, p in enumerate(self.ports) if i not in self.killed)

    def client_ports(self, i: int) -> list[int]:
        """Client `i`'s ports, its own first: the processes take the clients in turn."""
        n = len(self.ports)
        return [self.ports[(i + j) % n] for j in range(n)]

    def kill(self, index: int = 0) -> None:
        """SIGKILL one server process (no shutdown of any kind)."""
        self.procs[index].kill()
        self.procs[index].wait()
        self.killed.append(index)

    def _live(self) -> list[int]:
        """The live server processes and every process they started (`serve --processes N`'s children)."""
        roots = [proc.pid for i, proc in enumerate(self.procs) if i not in self.killed]
        children: dict[int, list[int]] = defaultdict(list)
        try:
            for entry in os.listdir("/proc"):
                if entry.isdigit():
                    try:
                        with open(f"/proc/{entry}/stat") as f:
                            children[int(f.read().rsplit(")", 1)[1].split()[1])].append(int(entry))
                    except OSError:
                        continue
        except OSError:  # no /proc: the roots alone
            return roots
        found, todo = [], list(roots)
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found

    def cpu_s(self) -> float:
        """CPU seconds of the live server processes, together."""
        total = 0.0
        for pid in self._live():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except OSError:  # it ended since it was listed
                continue
        return total

    def rss_mb(self, field: str = "VmRSS") -> float:
        """Resident memory of the live server processes, together: all of it (VmRSS), or a part of it ("RssAnon":
        the process's own memory; "RssFile": pages of files it maps, the page cache's, which the kernel may drop)."""
        total = 0.0
        for pid in self._live():
            try:
                with open(f"/proc/{pid}/status") as f:
                    total += next(int(line.split()[1]) for line in f if line.startswith(f"{field}:")) / 1024
            except (OSError, StopIteration):  # it ended since it was listed
                continue
        return total

    def threads(self) -> int:
        try:
            return sum(len(os.listdir(f"/proc/{pid}/task")) for pid in self._live())
        except OSError:
            return -1

    def processes(self) -> int:
        """Server processes, with their children (the supervisor and its server processes, with --processes)."""
        return len(self._live())

    def stop(self) -> str:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        logs = "".join((self.tmp / f"server{i}.log").read_text(errors="replace") for i in range(len(self.procs)))
        shutil.rmtree(self.tmp, ignore_errors=True)
        return logs


# --- the load ------------------------------------------------------------------------------------------------------
@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    acked: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))  # user -> (sid, id)
    unknown: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # ids whose fate is unknown
    sent_ids: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    retry_after: list[float] = field(default_factory=list)
    counted: bool = False

    failovers: int = 0
    killed_at: float | None = None  # monotonic time a server process was killed
    ok_after_kill: int = 0

    def record(self, route: str, code: int, seconds: float) -> None:
        if self.killed_at is not None and code < 400:
            self.ok_after_kill += 1
        if self.counted:
            self.statuses[(route, code)] += 1
            if code < 400:
                self.latencies[route].append(seconds)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


async def post_turn(conn: Conn, server: Server, stats: Stats, user: str, sid: str, tid: str, content: str,
                    route: str = "turn") -> None:
    body = json.dumps({"role": "user", "content": content, "session_id": sid, "id": tid}).encode()
    stats.sent_ids[user].add(tid)
    failures = 0
    while True:
        t0 = time.perf_counter()
        try:
            code, headers, _ = await conn.request("POST", "/v1/turns", server.tokens[user], body)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            stats.record(route, 599, time.perf_counter() - t0)
            failures += 1
            if failures < 2 * len(conn.ports) and len(conn.ports) > 1:  # another server process: the same turn id
                stats.failovers += 1  # again (idempotent), so a turn whose fate is unknown ends up stored once
                await asyncio.sleep(0.05)
                continue
            stats.unknown[user].add(tid)
            return
        stats.record(route, code, time.perf_counter() - t0)
        if code == 429:  # back-pressure: not stored; wait as told, send the same turn again
            wait = float(headers.get("retry-after", "1"))
            stats.retry_after.append(wait)
            await asyncio.sleep(min(wait, 1.0) * random.uniform(0.5, 1.0))
            continue
        if code == 201:
            stats.acked[user].append((sid, tid))
        return


async def get_recall(conn: Conn, server: Server, stats: Stats, user: str, query: str, route: str = "recall") -> None:
    path = "/v1/recall?" + urlencode({"q": query, "k": 10})
    while True:
        t0 = time.perf_counter()
        try:
            code, headers, _ = await conn.request("GET", path, server.tokens[user])
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            stats.record(route, 599, time.perf_counter() - t0)
            return
        stats.record(route, code, time.perf_counter() - t0)
        if code == 429:
            wait = float(headers.get("retry-after", "1"))
            stats.retry_after.append(wait)
            await asyncio.sleep(min(wait, 1.0) * random.uniform(0.5, 1.0))
            continue
        return


async def mixed_client(i: int, server: Server, stats: Stats, mix: float, stop: float, turn_chars: int,
                       session_turns: int) -> None:
    rng = random.Random(i)
    user = server.users[i % len(server.users)]
    conn = Conn("127.0.0.1", server.client_ports(i))
    n = 0
    try:
        while time.monotonic() < stop:
            if rng.random() < mix:
                sid = f"c{i}-s{n // session_turns}"
                text = sentence(rng, max(4, turn_chars // 7))[:turn_chars]
                await post_turn(conn, server, stats, user, sid, f"c{i}-t{n}", text)
                n += 1
            else:
                await get_recall(conn, server, stats, user, " ".join(rng.sample(WORDS, 3)))
    finally:
        conn.close()


async def sample_rss(server: Server, out: list[tuple[float, float, float]], stop: float, every: float) -> None:
    """(seconds since the start, VmRSS MB, RssAnon MB) every `every` seconds."""
    t0 = time.monotonic()
    while time.monotonic() < stop:
        out.append((round(time.monotonic() - t0, 1), round(server.rss_mb(), 1), round(server.rss_mb("RssAnon"), 1)))
        await asyncio.sleep(every)


async def verify(server: Server, stats: Stats) -> dict[str, Any]:
    """Every acknowledged turn stored exactly once; nothing stored that was not sent."""
    conn = Conn("127.0.0.1", server.port)
    missing, duplicated, unexpected, stored_unacked = 0, 0, 0, 0
    checked = 0
    try:
        for user in server.users:
            sessions = {sid for sid, _ in stats.acked[user]}
            code, _, payload = await conn.request("GET", "/v1/sessions", server.tokens[user], timeout=120)
            assert code == 200, (code, payload[:200])
            sessions |= {s["session_id"] for s in json.loads(payload)["sessions"]}
            stored: Counter[str] = Counter()
            for sid in sorted(sessions):
                code, _, payload = await conn.request("GET", f"/v1/sessions/{quote(sid, safe='')}/turns",
                                                      server.tokens[user], timeout=120)
                assert code == 200, (code, payload[:200])
                stored.update(t["id"] for t in json.loads(payload)["turns"])
            acked = Counter(tid for _, tid in stats.acked[user])
            checked += len(acked)
            for tid, n in acked.items():
                if n > 1:
                    raise AssertionError(f"the client acknowledged {tid} twice")
                if stored[tid] == 0:
                    missing += 1
                elif stored[tid] > 1:
                    duplicated += 1
            for tid, n in stored.items():
                if tid not in acked:
                    if tid in stats.unknown[user]:
                        stored_unacked += 1
                    else:
                        unexpected += 1
                    if n > 1:
                        duplicated += 1
    finally:
        conn.close()
    return {"acked_checked": checked, "missing": missing, "duplicated": duplicated,
            "stored_not_acked_unknown_fate": stored_unacked, "stored_not_acked_unexpected": unexpected,
            "ok": missing == 0 and duplicated == 0 and unexpected == 0}


async def backlog(server: Server) -> int:
    """Turns waiting for consolidation that are due for it (a session with `consolidate_every` = 8 new turns or more)."""
    conn, due = Conn("127.0.0.1", server.port), 0
    try:
        for user in server.users:
            code, _, payload = await conn.request("GET", "/v1/sessions", server.tokens[user], timeout=120)
            if code == 200:
                for sess in json.loads(payload)["sessions"]:
                    new = sess["turns"] - sess["consolidated_turns"]
                    due += new if new >= 8 else 0
    finally:
        conn.close()
    return due


async def drain(server: Server, limit_s: float) -> dict[str, Any]:
    """The consolidation backlog when the load stops, and how long the server takes to work it off."""
    start = time.monotonic()
    first = left = await backlog(server)
    while left and time.monotonic() - start < limit_s:
        await asyncio.sleep(1.0)
        left = await backlog(server)
    return {"due_turns_at_stop": first, "due_turns_left": left,
            "drain_s": round(time.monotonic() - start, 1) if not left else None}


def route_summary(stats: Stats, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for route, lat in sorted(stats.latencies.items()):
        out[route] = {"ok": len(lat), "per_s": round(len(lat) / seconds, 1), "p50_ms": pct(lat, 0.50),
                      "p95_ms": pct(lat, 0.95), "p99_ms": pct(lat, 0.99), "max_ms": pct(lat, 1.0)}
    return out


async def run_mixed(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    rss: list[tuple[float, float]] = []
    start = time.monotonic()
    warm_end = start + args.warmup
    stop = warm_end + args.seconds
    tasks = [asyncio.create_task(mixed_client(i, server, stats, args.mix, stop, args.turn_chars, args.session_turns))
             for i in range(args.clients)]
    sampler = asyncio.create_task(sample_rss(server, rss, stop, args.rss_every))
    killer = None
    if args.kill_after is not None:
        async def kill_one() -> None:
            await asyncio.sleep(max(0.0, warm_end + args.kill_after - time.monotonic()))
            server.kill(0)
            stats.killed_at = time.monotonic()
        killer = asyncio.create_task(kill_one())
    await asyncio.sleep(max(0.0, warm_end - time.monotonic()))
    stats.counted = True
    cpu0, client0, wall0, box0 = server.cpu_s(), time.process_time(), time.monotonic(), box_cpu()
    load0 = os.getloadavg()
    await asyncio.gather(*tasks)
    wall = time.monotonic() - wall0
    stats.counted = False
    cpu, client_cpu, box1 = server.cpu_s() - cpu0, time.process_time() - client0, box_cpu()
    await sampler
    if killer is not None:
        await killer
    threads = server.threads()
    cpu_drain0 = server.cpu_s()
    behind = await drain(server, args.drain_seconds)
    behind["server_cpu_s"] = round(server.cpu_s() - cpu_drain0, 1)
    t_verify = time.monotonic()
    check = await verify(server, stats)
    done = sum(len(v) for v in stats.latencies.values())
    rss_from = args.warmup if args.rss_from is None else args.rss_from
    warm = [(r, a) for t, r, a in rss if t >= rss_from] or [(r, a) for _, r, a in rss]
    warm_rss, warm_anon = [r for r, _ in warm], [a for _, a in warm]
    return {
        "requests_ok": done, "req_per_s": round(done / wall, 1), "seconds": round(wall, 1),
        "routes": route_summary(stats, wall),
        "statuses": {f"{r} {c}": n for (r, c), n in sorted(stats.statuses.items())},
        "errors": {f"{r} {c}": n for (r, c), n in sorted(stats.statuses.items()) if c >= 400},
        "retry_after_s": sorted(set(stats.retry_after))[:5],
        "server_cpu_s": round(cpu, 1), "server_cpu_ms_per_req": round(1000 * cpu / max(done, 1), 2),
        # cores busy while measured: the server processes, and the whole machine (database, clients, anything else)
        "server_cores": round(cpu / wall, 2),
        "machine_cores_busy": round((box1[0] - box0[0]) / max(box1[1] - box0[1], 1) * (os.cpu_count() or 1), 2),
        # with the background work the load left behind (worked off after it; the old server did it during)
        "client_cpu_s": round(client_cpu, 1), "client_cpu_share": round(client_cpu / wall, 2),
        "loadavg_before": [round(x, 2) for x in load0], "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "server_threads": threads, "server_processes": server.processes(),
        "rss_mb": {"from_s": rss_from, "after_warmup": warm_rss[0], "max": max(warm_rss), "end": warm_rss[-1],
                   "growth_pct": round(100 * (warm_rss[-1] - warm_rss[0]) / warm_rss[0], 1),
                   "anon_after_warmup": warm_anon[0], "anon_end": warm_anon[-1],
                   "anon_growth_pct": round(100 * (warm_anon[-1] - warm_anon[0]) / warm_anon[0], 1),
                   "samples": rss if args.seconds >= 120 else rss[:: max(1, len(rss) // 20)]},
        "exactly_once": check, "verify_s": round(time.monotonic() - t_verify, 1),
        "consolidation_backlog": behind,
        "processes": len(server.ports), "killed": len(server.killed), "failovers": stats.failovers,
        "ok_after_kill": stats.ok_after_kill if stats.killed_at is not None else None,
        "seconds_after_kill": None if stats.killed_at is None else round(wall0 + wall - stats.killed_at, 1),
        "server_cpu_ms_per_req_incl_drain": round(1000 * (cpu + behind["server_cpu_s"]) / max(done, 1), 2),
    }


async def run_noisy(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    """The quiet user's recall latency alone, then while the noisy user posts the largest turns allowed."""
    quiet, noisy = server.users[0], server.users[-1]
    assert quiet != noisy, "--noisy-neighbour needs --users 2 or more"
    rng = random.Random(7)
    seed = Conn("127.0.0.1", server.port)
    stats = Stats(counted=True)
    for n in range(200):  # the quiet user has something to recall, embedded before the baseline
        await post_turn(seed, server, stats, quiet, f"quiet-s{n // 20}", f"q-t{n}", sentence(rng))
    for _ in range(5):
        await get_recall(seed, server, stats, quiet, "deck budget", route="warm")
    seed.close()
    settled = await drain(server, args.drain_seconds)  # the baseline starts with no consolidation under way
    await asyncio.sleep(2.0)
    phases: dict[str, Any] = {}

    async def recaller(i: int, stop: float, route: str) -> None:
        conn, r = Conn("127.0.0.1", server.port), random.Random(100 + i)
        try:
            while time.monotonic() < stop:
                await get_recall(conn, server, stats, quiet, " ".join(r.sample(WORDS, 3)), route=route)
                await asyncio.sleep(args.noisy_think)
        finally:
            conn.close()

    async def big_writer(i: int, stop: float) -> None:
        conn, r = Conn("127.0.0.1", server.port), random.Random(200 + i)
        n = 0
        try:
            while time.monotonic() < stop:
                text = (sentence(r, 40) + " ") * (server.max_turn_chars // 250 + 1)
                await post_turn(conn, server, stats, noisy, f"noisy-s{i}", f"n{i}-t{n}",
                                text[: server.max_turn_chars], route="big_turn")
                n += 1
        finally:
            conn.close()

    half = args.seconds / 2
    cpu0 = server.cpu_s()
    stop = time.monotonic() + half
    await asyncio.gather(*(recaller(i, stop, "recall_quiet") for i in range(args.noisy_readers)))
    stop = time.monotonic() + half
    await asyncio.gather(*(recaller(i, stop, "recall_noisy") for i in range(args.noisy_readers)),
                         *(big_writer(i, stop) for i in range(args.noisy_burst)))
    phases = route_summary(stats, half)
    q, nz = phases.get("recall_quiet", {}), phases.get("recall_noisy", {})
    check = await verify(server, stats)
    return {
        "routes": phases,
        "statuses": {f"{r} {c}": n for (r, c), n in sorted(stats.statuses.items())},
        "turn_chars": server.max_turn_chars, "burst": args.noisy_burst,
        "recall_p50_delta_ms": None if not nz else round(nz["p50_ms"] - q["p50_ms"], 1),
        "recall_p95_delta_ms": None if not nz else round(nz["p95_ms"] - q["p95_ms"], 1),
        "server_cpu_s": round(server.cpu_s() - cpu0, 1), "rss_mb_end": server.rss_mb(), "seed_drain": settled,
        "exactly_once": check,
    }


def table(runs: list[dict[str, Any]]) -> str:
    rows = ["| run | req/s | turn p50/p95/p99 ms | recall p50/p95/p99 ms | errors | server CPU ms/req (+ drain) "
            "| floor CPU ms/req (turn, recall) | ÷ floor (+ drain) | client CPU "
            "| RSS MB warm→end (max) | anon MB warm→end | loadavg | exactly once | backlog at stop → drained in |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        if "routes" not in r or "req_per_s" not in r:
            continue
        t, c = r["routes"].get("turn", {}), r["routes"].get("recall", {})
        m = r["rss_mb"]
        once = r["exactly_once"]
        rows.append(
            f"| {r['name']}#{r['round']} | {r['req_per_s']} | {t.get('p50_ms')}/{t.get('p95_ms')}/{t.get('p99_ms')} "
            f"| {c.get('p50_ms')}/{c.get('p95_ms')}/{c.get('p99_ms')} | {r['errors'] or 0} "
            f"| {r['server_cpu_ms_per_req']} ({r['server_cpu_ms_per_req_incl_drain']}) "
            + (f"| {r['floor']['request_cpu_ms']} ({r['floor']['turn_cpu_ms']}, {r['floor']['recall_cpu_ms']}) "
               f"| {r['ratio_to_floor']}x ({r.get('ratio_to_floor_incl_drain')}x) " if "floor" in r else "| | ")
            + f"| {r['client_cpu_share']:.0%} "
            f"| {m['after_warmup']:.0f}→{m['end']:.0f} ({m['max']:.0f}) "
            f"| {m.get('anon_after_warmup', float('nan')):.0f}→{m.get('anon_end', float('nan')):.0f} "
            f"| {r['loadavg_before'][0]} "
            f"| {'yes' if once['ok'] else 'NO'} ({once['acked_checked']} acked, {once['missing']} missing, "
            f"{once['duplicated']} dup) | {r['consolidation_backlog']['due_turns_at_stop']} turns → "
            f"{r['consolidation_backlog']['drain_s']} s |")
    noisy = [r for r in runs if "recall_p95_delta_ms" in r]
    if noisy:
        rows += ["", "| run | quiet recall p50/p95 ms | with neighbour p50/p95 ms | Δp95 ms | big turns ok | statuses |",
                 "|---|---|---|---|---|---|"]
        for r in noisy:
            q, nz, b = (r["routes"].get(k, {}) for k in ("recall_quiet", "recall_noisy", "big_turn"))
            rows.append(f"| {r['name']}#{r['round']} | {q.get('p50_ms')}/{q.get('p95_ms')} "
                        f"| {nz.get('p50_ms')}/{nz.get('p95_ms')} | {r['recall_p95_delta_ms']} | {b.get('ok', 0)} "
                        f"| {r['statuses']} |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--warmup", type=float, default=5, help="seconds of load before measuring")
    ap.add_argument("--users", type=int, default=3)
    ap.add_argument("--mix", type=float, default=0.5, help="share of POST /v1/turns (the rest: GET /v1/recall)")
    ap.add_argument("--turn-chars", type=int, default=200, help="characters of each turn in the mixed load")
    ap.add_argument("--session-turns", type=int, default=40, help="a client starts a new session after this many")
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                    help="run the server from this src directory (repeat to compare; default: this checkout)")
    ap.add_argument("--rounds", type=int, default=1, help="run each tree this many times, alternating")
    ap.add_argument("--server-arg", action="append", default=[], help="an extra argument to `serve`")
    ap.add_argument("--tree-arg", action="append", default=[], metavar="NAME=ARG",
                    help="an extra argument to `serve` for the tree NAME only (repeat, in order: --tree-arg "
                         "two=--processes --tree-arg two=2 compares one process with two on the same source)")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the server (EPISODIC_* from the caller are dropped)")
    ap.add_argument("--tree-env", action="append", default=[], metavar="NAME=VAR=VALUE",
                    help="an environment variable for the tree NAME's server only (after --env)")
    ap.add_argument("--drain-seconds", type=float, default=60,
                    help="after the load, wait at most this long for the consolidation backlog to be worked off")
    ap.add_argument("--rss-every", type=float, default=1.0)
    ap.add_argument("--rss-from", type=float, default=None,
                    help="RSS growth is measured from this many seconds into the run (default: --warmup), e.g. once "
                         "the caches have filled to their bounds")
    ap.add_argument("--db", help="serve this database (e.g. a postgresql:// URL with empty tables) instead of a "
                    "fresh SQLite file; with --tree/--rounds every run uses it, so give one run")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes on the one database; client i starts at process i mod N and moves on to "
                         "the next when its server fails (resending the same turn id)")
    ap.add_argument("--kill-after", type=float, default=None, metavar="S",
                    help="SIGKILL server process 0 this many seconds into the measured load")
    ap.add_argument("--noisy-neighbour", action="store_true")
    ap.add_argument("--noisy-burst", type=int, default=8, help="concurrent posts of the largest turn")
    ap.add_argument("--noisy-readers", type=int, default=2)
    ap.add_argument("--noisy-think", type=float, default=0.05, help="pause between a quiet reader's recalls")
    ap.add_argument("--profile", metavar="PATH", help="py-spy the server (collapsed stacks to PATH.<name>.<round>)")
    ap.add_argument("--keep-log", action="store_true", help="print the server log tail after each run")
    ap.add_argument("--floor-samples", type=int, default=200, help="turns and questions the floor is measured on "
                    "(issue 45; 0: no floor)")
    ap.add_argument("--floor-batch", type=int, default=16, help="turns per embedder call in the turn floor")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "load.json")
    args = ap.parse_args()

    trees = [t.split("=", 1) for t in args.tree] or [["current", str(ROOT / "src")]]
    tree_args: dict[str, list[str]] = defaultdict(list)
    for item in args.tree_arg:
        name, _, arg = item.partition("=")
        if name not in {n for n, _ in trees}:
            ap.error(f"--tree-arg {item}: no --tree {name}=PATH")
        tree_args[name].append(arg)
    tree_env: dict[str, dict[str, str]] = defaultdict(dict)
    for item in args.tree_env:
        name, _, assignment = item.partition("=")
        var, sep, value = assignment.partition("=")
        if name not in {n for n, _ in trees} or not sep:
            ap.error(f"--tree-env {item}: give NAME=VAR=VALUE for a --tree NAME=PATH")
        tree_env[name][var] = value
    env_extra = dict(e.split("=", 1) for e in args.env)
    runs: list[dict[str, Any]] = []
    for rnd in range(args.rounds):
        for name, src in trees:
            profile = f"{args.profile}.{name}.{rnd}" if args.profile else None
            server = Server(name, src, args.users, [*args.server_arg, *tree_args[name]],
                            {**env_extra, **tree_env[name]}, db=args.db,
                            processes=args.processes)
            t0 = time.monotonic()
            spy = None
            if profile:  # py-spy samples every thread of the server (cProfile would see only the event loop's),
                # and of its children (serve --processes N)
                py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))  # a venv not on PATH
                spy = subprocess.Popen([py_spy, "record", "--pid", str(server.procs[0].pid), "--subprocesses",
                                        "--format", "raw", "--nonblocking", "--rate", "200", "--output", profile,
                                        "--duration", str(int(args.warmup + args.seconds))],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                result = asyncio.run(run_noisy(server, args) if args.noisy_neighbour else run_mixed(server, args))
            finally:
                if spy is not None:
                    spy.wait(60)
                log = server.stop()
            result.update(name=name, src=src, round=rnd, wall_s=round(time.monotonic() - t0, 1),
                          server_args=[*args.server_arg, *tree_args[name]], server_env=tree_env[name])
            if args.floor_samples and not args.noisy_neighbour and "server_cpu_ms_per_req" in result:
                acked = result["exactly_once"].get("acked_checked", 0)
                floor = measure_floor(src, args, max(10, acked // max(1, args.users)))
                floor["loadavg"] = [round(x, 2) for x in os.getloadavg()]
                result["floor"] = floor
                result["ratio_to_floor"] = round(result["server_cpu_ms_per_req"] / floor["request_cpu_ms"], 3)
                result["ratio_to_floor_incl_drain"] = round(  # with the consolidation the load left behind
                    result["server_cpu_ms_per_req_incl_drain"] / floor["request_cpu_ms"], 3)
            runs.append(result)
            print(f"{name}#{rnd}: " + json.dumps({k: v for k, v in result.items() if k not in ("rss_mb",)}),
                  file=sys.stderr, flush=True)
            if args.keep_log:
                print(log[-3000:], file=sys.stderr)
    report = {
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpus": os.cpu_count(), "python": sys.version.split()[0],
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print(table(runs))
    print(f"\nwritten: {args.out}")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"client CPU in all: {usage.ru_utime + usage.ru_stime:.1f} s")
    return 0 if all(r["exactly_once"]["ok"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
