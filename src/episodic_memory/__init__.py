"""episodic-memory: long-term memory for AI agents in one SQLite file."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .config import Config
from .default import get_store, retrieve
from .episodic_judgment import EpisodicMemory
from .inject import EpisodicInjector
from .memory import Memory
from .retrieve.hit import Hit

try:
    __version__ = version("episodic-memory")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+unknown"

__all__ = ["Config", "EpisodicInjector", "EpisodicMemory", "Hit", "Memory", "__version__", "get_store", "retrieve"]
