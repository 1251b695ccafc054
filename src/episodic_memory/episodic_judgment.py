"""`EpisodicMemory`: the episodic-judgment library's class (a compatibility API), onto the same store as `Memory`.

Its users write ``EpisodicMemory()`` / ``EpisodicMemory(db_path="memory.db", embedder=fn)`` and call `store`,
`verify`, `search`, `export_jsonl`; every one of those is `JudgmentMemory`'s (`judgments/memory.py`). This door owns
the `Memory` it opens, so it lives above `memory.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .config import DEFAULT_USER, MEMORY_PATH, Config
from .judgments.embedding import as_embedder
from .judgments.memory import JudgmentMemory
from .memory import Memory


class EpisodicMemory(JudgmentMemory):
    """Judgment memory with its own store: ``EpisodicMemory()`` in memory,
    ``EpisodicMemory(db_path="memory.db")`` in the one SQLite file the rest of the memory uses (same tables,
    same migrations).

    `embedder` is any ``callable(str) -> list[float]`` (or an `Embedder`); by default the bundled one
    (`Config.embedder`, all-MiniLM-L6-v2). `close()` closes the store; it is also a context manager.
    """

    def __init__(self, embedder: Any = None, db_path: str | Path = MEMORY_PATH, *,
                 user_id: str = DEFAULT_USER, config: Config | None = None) -> None:
        self.memory = Memory(db_path, user_id=user_id, config=config,
                             embedder=None if embedder is None else as_embedder(embedder))
        super().__init__(self.memory.clients, self.memory.user_id)

    def close(self) -> None:
        self.memory.close()

    def __enter__(self) -> EpisodicMemory:
        return self
