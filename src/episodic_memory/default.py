"""The process-wide default `Memory` behind the seed's module-level names (`get_store`, `SessionBuffer`)."""

from __future__ import annotations

import threading

from .config import default_db_path
from .memory import Memory

_lock = threading.Lock()
_memories: dict[str, Memory] = {}


def default_memory() -> Memory:
    """The Memory at the default path (honouring ``EPISODIC_DB`` at call time), opened once per process."""
    path = str(default_db_path())
    with _lock:
        if path not in _memories:
            _memories[path] = Memory(path)
        return _memories[path]


def close_default_memories() -> None:
    with _lock:
        for mem in _memories.values():
            mem.close()
        _memories.clear()
