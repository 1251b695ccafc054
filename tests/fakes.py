"""Small stand-ins for tests: a deterministic bag-of-words embedder."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np


class HashingEmbedder:
    """Each word hashes to a dimension; texts sharing words are close. Deterministic, instant."""

    def __init__(self, model_id: str = "hashing-64", dim: int = 64) -> None:
        self.model_id = model_id
        self.dim = dim
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-9)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]
