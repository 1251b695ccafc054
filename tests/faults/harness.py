"""Run the child at a crash window and check it died there; read a store back the way a restart would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from episodic_memory import Config, Memory
from episodic_memory.faults import ENV, FAULT_EXIT
from episodic_memory.memory import journal_dir_for

CHILD = Path(__file__).with_name("child.py")
SRC = Path(__file__).resolve().parents[2] / "src"
CONFIG = Config(models={"embedder": "off"})


def child_env(fault: str | None = None) -> dict[str, str]:
    """The child's environment: this source tree, no embedder, and the crash window (if any)."""
    env = {**os.environ, "EPISODIC_MODELS__EMBEDDER": "off",
           "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    env.pop(ENV, None)
    if fault:
        env[ENV] = fault
    return env


def run_child(db: Path, action: str, *args: str, fault: str | None = None, timeout: float = 60
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(CHILD), str(db), action, *args], env=child_env(fault),
                          capture_output=True, text=True, timeout=timeout)


def crash_at(db: Path, fault: str, action: str, *args: str) -> None:
    """Run `action` in a child killed at `fault`; fail unless it really died there."""
    done = run_child(db, action, *args, fault=fault)
    assert done.returncode == FAULT_EXIT, (
        f"the child was not killed at {fault} (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")


def bytes_everywhere(db: Path) -> bytes:
    """Every byte of the store: the file, its WAL and shared memory, the journals and tombstones."""
    blobs = [p.read_bytes() for p in db.parent.glob(db.name + "*") if p.is_file()]
    blobs += [p.read_bytes() for p in journal_dir_for(db).rglob("*") if p.is_file()]
    return b"".join(blobs)


def reopen(db: Path) -> Memory:
    """A restart: open the store (recovery runs), in this process."""
    return Memory(db, config=CONFIG)
