"""episodic-memory: long-term memory for AI agents in one SQLite file.

`AsyncMemory` (it needs asyncio), `EpisodicInjector`, `EpisodicMemory` and the episodic-judgment library's types that
`EpisodicMemory` returns (`MemoryRecord`, `SearchResult`, `Triple`) are imported on first use (PEP 562), and so is
whatever needs numpy or a model:
`import episodic_memory` (and with it every `episodic` command) loads only what opening a store takes. `retrieve` is
the compatibility API's function: bound after memory.py has imported the `retrieve` subpackage, so the subpackage never shadows it.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from .config import Config
from .default import get_store, retrieve
from .memory import Memory
from .retrieve.hit import Hit

if TYPE_CHECKING:
    from .aio import AsyncMemory
    from .episodic_judgment import EpisodicMemory, MemoryRecord, SearchResult, Triple
    from .inject import EpisodicInjector

try:
    __version__ = version("episodic-memory-layer")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+unknown"

_LAZY = {"AsyncMemory": ".aio", "EpisodicInjector": ".inject", "EpisodicMemory": ".episodic_judgment",
         "MemoryRecord": ".episodic_judgment", "SearchResult": ".episodic_judgment", "Triple": ".episodic_judgment"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = ["AsyncMemory", "Config", "EpisodicInjector", "EpisodicMemory", "Hit", "Memory", "MemoryRecord", "SearchResult", "Triple",
           "__version__", "get_store", "retrieve"]
