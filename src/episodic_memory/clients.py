"""`MemoryClients`: what a Memory's parts (consolidation steps, the judgment memory, the briefing) may use,
handed to them instead of the `Memory` itself (docs/architecture.md, "The bundle")."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .config import Config
from .store.base import Store

if TYPE_CHECKING:  # the bundle is built by every Memory: it names these, it does not load them
    from .llm import LLMClient
    from .models.embedder import Embedder
    from .retrieve.dense import DenseIndex
    from .retrieve.indexer import Indexer


@dataclass(frozen=True)
class MemoryClients:
    store: Store
    config: Config
    embedder: Callable[[], Embedder | None]        # loaded on first use; None when off or failed (BM25 only)
    dense_index: Callable[[], DenseIndex | None]   # the retriever's in-process index of the store's vectors
    indexer: Indexer                               # embeds what has no vector of the current model yet
    llm: LLMClient                                 # this Memory's LLM client (its own, or the process default)
    path: str                                      # where the store lives (for messages)
    scrub: Callable[[], bool]                      # deleted bytes out of the files: the store's and the index cache's
    clock: Callable[[], float] = field(default=time.time)  # seconds since the epoch

