"""Any `callable(str) -> list[float]` as an `Embedder`, and what a judgment is embedded as."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..models.base import lru_put
from ..models.embedder import Embedder


class CallableEmbedder:
    """Wraps a plain function into the `Embedder` protocol: vectors L2-normalised, model id
    ``custom:<callable name>:<dim>`` so its vectors never mix with another model's."""

    def __init__(self, fn: Callable[[str], Any], cache_size: int = 256) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", None) or type(fn).__name__
        self._dim: int | None = None
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        if self._dim is None:  # asked before anything was embedded: one probe call learns it
            self._vector("dimension probe")
        assert self._dim is not None
        return self._dim

    @property
    def model_id(self) -> str:
        return f"custom:{self.name}:{self.dim}"

    def _vector(self, text: str) -> np.ndarray:
        raw = self.fn(text)
        try:
            vec = np.asarray(raw, dtype=np.float32)
        except (TypeError, ValueError):
            raise ValueError(
                f"embedder {self.name} must return a list of floats, got {type(raw).__name__}") from None
        if vec.ndim != 1 or vec.size == 0:
            raise ValueError(
                f"embedder {self.name} must return a non-empty flat list of floats, got shape {vec.shape}")
        if self._dim is None:
            self._dim = int(vec.size)
        elif vec.size != self._dim:
            raise ValueError(f"embedder {self.name} returned {vec.size} numbers, earlier {self._dim}")
        norm = float(np.linalg.norm(vec))
        if not np.isfinite(norm) or norm == 0.0:
            raise ValueError(f"embedder {self.name} returned a zero or non-finite vector for {text[:40]!r}")
        return vec / norm

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = [self._vector(t) for t in texts]
        return np.stack(rows) if rows else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            if text in self._cache:
                self._cache.move_to_end(text)
                return self._cache[text]
        vec = self._vector(text)
        with self._lock:
            lru_put(self._cache, text, vec, self._cache_size)
        return vec

    def __repr__(self) -> str:
        return f"CallableEmbedder({self.name})"


def as_embedder(embedder: Any) -> Embedder:
    """An `Embedder` as is; any other callable wrapped in `CallableEmbedder`."""
    if isinstance(embedder, Embedder):
        return embedder
    if callable(embedder):
        return CallableEmbedder(embedder)
    raise TypeError(
        f"embedder must be a callable(str) -> list[float] or an Embedder, got {type(embedder).__name__}")
