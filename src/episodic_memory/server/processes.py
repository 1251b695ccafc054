"""`episodic serve --processes N`: N server processes behind one port (issue 45; docs/server.md).

One Python process runs one thread's Python at a time (the GIL): the REST server keeps about one core busy however
many it has. The store already takes several processes on one database (one consolidation of a session at a time:
its lease; caches follow the other processes' writes: docs/architecture.md, "Threads and processes"), so more
cores take more processes. This supervisor binds the port and starts N children (multiprocessing's `spawn`: a
fresh interpreter each, as on macOS; never a fork of a process with threads) that each run the whole app
(`rest.create_app`) on a socket it hands them: on Linux a socket per child on the one port (SO_REUSEPORT: the
kernel spreads the connections evenly), elsewhere one socket they share (`_listening_sockets`).

- A child that dies after it started serving is logged and started again; more than `RESTARTS` deaths within
  `RESTART_WINDOW_S` end the server with an error, as does a child that dies before it served (a broken database
  or setting fails the same way at every start).
- SIGINT / SIGTERM to the supervisor: SIGTERM to every child, each stops as the single-process server does (within
  about twice `Config.server.stop_grace_s`); one still there `STOP_MARGIN_S` later is killed. A second signal
  stops them at once (uvicorn's second Ctrl-C). The children are in a process group of their own, so a Ctrl-C in
  the terminal reaches the supervisor only, which passes it on once.
- A child whose supervisor is gone (killed with SIGKILL, say) stops by itself: no orphan keeps the port.
- The inspector's logins live in a SQLite file in the supervisor's own temporary folder, shared by the children
  (`ui.sessions.SharedBrowserSessions`): a browser's requests may land on any of them.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

from ..config import Config, ServerSettings
from ..faults import fault_point
from .ui.sessions import SharedBrowserSessions, SharedInspector

log = logging.getLogger("uvicorn.error")  # the children's uvicorn logs there too: one format on the terminal

RESTARTS = 5             # a child dying more often than this ...
RESTART_WINDOW_S = 60.0  # ... within this many seconds ends the server
STOP_MARGIN_S = 5.0      # past the children's own grace, before a child that has not stopped is killed
STARTUP_FAILURE = 3      # uvicorn's exit code for a server that could not start


class ServerFailed(RuntimeError):
    """The server of several processes could not run (a child failed to start, or kept dying)."""


@dataclass(frozen=True)
class ServerSpec:
    """What each child needs to build the app (`rest.create_app`); sent to it pickled."""

    db_path: str
    auth: bool
    user_id: str
    limits: ServerSettings
    allowed_hosts: tuple[str, ...]
    log_level: str = "info"


@dataclass
class _Child:
    index: int
    process: SpawnProcess
    ready: Event


AppFactory = Callable[[ServerSpec, SharedInspector], tuple[Any, dict[str, Any]]]
"""In a child: the app of `spec` and uvicorn's options for it (`rest._child_app`; passed by name, not imported
here: rest.py imports this module)."""


def serve_processes(spec: ServerSpec, host: str, port: int, app: AppFactory, after: Callable[[], None]) -> None:
    """Serve `spec` on `host`:`port` from `spec.limits.processes` children until SIGINT / SIGTERM (port 0: a free
    port, logged, that every child serves), each running `app`, then `after` once its server stopped. Raises
    `ServerFailed` when a child cannot start or keeps dying."""
    if os.name == "nt":  # a child cannot be asked to stop gracefully there (SIGTERM ends it at once)
        raise ServerFailed("--processes over 1 needs Linux or macOS: serve one process on Windows")
    n = spec.limits.processes
    options = uvicorn.Config("episodic_memory.server.rest:create_app", log_level=spec.log_level)  # its logging
    sockets = _listening_sockets(host, port, n, options.backlog)
    folder = Path(tempfile.mkdtemp(prefix="episodic-serve-"))  # private (0700): the inspector's logins
    try:
        SharedBrowserSessions.create(folder / "inspector.db")
        supervisor = _Supervisor(spec, sockets, SharedInspector(str(folder / "inspector.db"), secrets.token_bytes(32)),
                                 app, after)
        supervisor.run(n)
    finally:
        for sock in sockets:
            sock.close()
        shutil.rmtree(folder, ignore_errors=True)


def _listening_sockets(host: str, port: int, n: int, backlog: int) -> list[socket.socket]:
    """The sockets the children serve, bound and listening here (port 0: the port the first one got, logged). On
    Linux one per child, on one port (SO_REUSEPORT): the kernel spreads new connections over them evenly. Elsewhere
    one, shared: each connection goes to the child that accepts it first, which may take a whole burst of them
    (SO_REUSEPORT does not spread connections on macOS). A socket outlives its child: what queued on it waits for
    the next one. They listen from the start, before any child serves: a connection made while its child is still
    starting waits for it. (Listening once its child served, the first child to start took every keep-alive
    connection a client opened as soon as the server answered, and kept them: the second served nothing.)"""
    reuse_port = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockets: list[socket.socket] = []
    try:
        if reuse_port:  # the port is free: SO_REUSEPORT alone would let a second server of this user share it
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((host, port))
                port = probe.getsockname()[1]
        for _ in range(n if reuse_port else 1):
            sock = socket.socket(family, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            port = sock.getsockname()[1]
        for sock in sockets:
            sock.listen(backlog)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        raise ServerFailed(f"cannot serve on {host}:{port}: {exc}") from None
    shown = f"[{host}]" if ":" in host else host
    log.info("Uvicorn running on http://%s:%d (Press CTRL+C to quit)", shown, port)  # as one process says it
    return sockets


class _Supervisor:
    def __init__(self, spec: ServerSpec, sockets: list[socket.socket], inspector: SharedInspector, app: AppFactory,
                 after: Callable[[], None]) -> None:
        self.spec = spec
        self.app, self.after = app, after
        self.sockets = sockets
        self.inspector = inspector
        self.context = multiprocessing.get_context("spawn")
        self.children: list[_Child] = []
        self.deaths: deque[float] = deque()
        self.signals: list[int] = []
        self.grace_s = math.ceil(Config.from_env().server.stop_grace_s)

    def _start(self, index: int) -> _Child:
        ready = self.context.Event()
        process = self.context.Process(target=_child_main, name=f"episodic-serve-{index}", daemon=False,
                                       args=(self.spec, self.sockets[index % len(self.sockets)], self.inspector,
                                             ready, self.app, self.after))
        process.start()
        log.info("server process %d of %d started [%d]", index + 1, self.spec.limits.processes, process.pid)
        return _Child(index, process, ready)

    def _on_signal(self, sig: int, _: FrameType | None) -> None:
        self.signals.append(sig)

    def run(self, n: int) -> None:
        handled = (signal.SIGINT, signal.SIGTERM)
        before = {sig: signal.signal(sig, self._on_signal) for sig in handled}
        try:
            self.children = [self._start(i) for i in range(n)]
            failure = self._watch()
        finally:
            try:
                self._stop()
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)
        if failure:
            raise ServerFailed(failure)

    def _watch(self) -> str | None:
        """Until a signal: start a child again when one dies. The reason to stop the server, when it must."""
        while not self.signals:
            multiprocessing.connection.wait([c.process.sentinel for c in self.children], timeout=0.25)
            for i, child in enumerate(self.children):
                if child.process.is_alive() or self.signals:
                    continue
                child.process.join()
                code = child.process.exitcode
                how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                if not child.ready.is_set() or code == STARTUP_FAILURE:
                    return (f"server process {child.index + 1} [{child.process.pid}] stopped before it served "
                            f"({how}); see its log above")
                now = time.monotonic()
                self.deaths.append(now)
                while self.deaths and now - self.deaths[0] > RESTART_WINDOW_S:
                    self.deaths.popleft()
                if len(self.deaths) > RESTARTS:
                    return (f"server processes died {len(self.deaths)} times within {RESTART_WINDOW_S:.0f} s "
                            f"(the last, {child.index + 1} [{child.process.pid}]: {how}); see the log above")
                log.warning("server process %d [%d] died (%s): starting another", child.index + 1, child.process.pid,
                            how)
                self.children[i] = self._start(child.index)
        return None

    def _stop(self) -> None:
        """SIGTERM to every child; wait for them (a second signal: SIGINT, which ends them at once); kill the rest."""
        live = [c for c in self.children if c.process.is_alive()]
        for child in live:
            _signal(child, signal.SIGTERM)
        seen = len(self.signals)
        deadline = time.monotonic() + 2 * self.grace_s + STOP_MARGIN_S
        while live and time.monotonic() < deadline:
            multiprocessing.connection.wait([c.process.sentinel for c in live], timeout=0.25)
            live = [c for c in live if c.process.is_alive()]
            if len(self.signals) > max(seen, 1):  # asked again: do not wait
                seen = len(self.signals)
                for child in live:
                    _signal(child, signal.SIGINT)
        for child in live:
            log.warning("server process %d [%d] still running %.0f s after SIGTERM: killed", child.index + 1,
                        child.process.pid, 2 * self.grace_s + STOP_MARGIN_S)
            child.process.kill()
        for child in self.children:
            child.process.join()


def _signal(child: _Child, sig: int) -> None:
    try:
        if child.process.pid is not None:
            os.kill(child.process.pid, sig)
    except ProcessLookupError:
        pass


def _child_main(spec: ServerSpec, sock: socket.socket, inspector: SharedInspector, ready: Event, app: AppFactory,
                after: Callable[[], None]) -> None:
    """A child: the app on its socket until SIGTERM, then `after` (what the single-process server does
    once uvicorn stopped)."""
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)  # a Ctrl-C in the terminal goes to the supervisor alone, which sends one SIGTERM
    _stop_with_parent(Path(inspector.sessions_db).parent)
    fault_point("serve.child_start")  # tests: a child that cannot start
    asgi, options = app(spec, inspector)
    server = _ChildServer(uvicorn.Config(asgi, **options), ready)
    with contextlib.suppress(KeyboardInterrupt):  # asked twice (uvicorn re-raises SIGINT once stopped): no traceback
        server.run(sockets=[sock])
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)
    after()


class _ChildServer(uvicorn.Server):
    """uvicorn's `Server`, telling the supervisor once it serves (its `ready` event)."""

    def __init__(self, config: uvicorn.Config, ready: Event) -> None:
        super().__init__(config)
        self.ready = ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self.ready.set()
            fault_point("serve.child_served")  # tests: a child that dies once it serves


def _stop_with_parent(folder: Path) -> None:
    """Stop this child (SIGTERM to itself: the server's own graceful stop) when the supervisor is gone, and remove
    the supervisor's `folder`, which it did not live to remove (the inspector's logins: of no use any more)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        log.warning("the supervisor [%s] is gone: stopping", parent.pid)
        shutil.rmtree(folder, ignore_errors=True)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="episodic-serve-parent", daemon=True).start()
