"""The process-wide default `Memory` behind the compatibility APIs' module-level names (`get_store`, `SessionBuffer`)."""

from __future__ import annotations

import threading
from typing import Any

from .config import default_db_path
from .memory import Memory
from .retrieve.hit import Hit

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


def get_store() -> Memory:
    """The compatibility name for the default store (``EPISODIC_DB`` or the platform data directory)."""
    return default_memory()


def retrieve(query: str, store: Memory | None = None, k: int = 5, **filters: Any) -> list[Hit]:
    """The compatibility API's recall: the `k` best memories for `query` from `store` (default: the default store).

    `filters` are `Memory.recall`'s keywords (user_id, session_id, kind, since, until, as_of)."""
    return (store or default_memory()).recall(query, k, **filters)
