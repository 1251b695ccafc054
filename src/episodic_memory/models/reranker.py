"""Cross-encoder rerankers (ms-marco-MiniLM-L-6-v2 style) on onnxruntime.

No cross-encoder ships on PyPI, so there is no default (``load_reranker(None)`` is None: no reranking); a
reranker comes from a local directory or, with network access, ``hf:owner/name``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from episodic_memory.models.embedder import (
    _OFF_SPECS,
    OnnxTextModel,
    _Lane,
    encode_feeds,
    resolve_spec,
)


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs jointly."""

    model_id: str

    def score(self, query: str, passages: Sequence[str]) -> np.ndarray:
        """float32 ``(n,)`` relevance scores, higher = more relevant."""
        ...


class OnnxCrossEncoder(OnnxTextModel):
    """A BERT-style cross-encoder: pair-encoded (query, passage) -> one logit."""

    preferred_output = "logits"  # made as `OnnxTextModel` makes it: 2 threads, batches of 32, 256 tokens

    def __repr__(self) -> str:
        return f"OnnxCrossEncoder(model_id={self.model_id!r})"

    def score(self, query: str, passages: Sequence[str]) -> np.ndarray:
        """Score every passage against ``query``; order follows ``passages``."""
        passages = list(passages)
        return self._in_length_order([(query, p) for p in passages], passages, self._score_batch, ())

    def _score_batch(self, pairs: list[tuple[str, str]], lane: _Lane | None = None) -> np.ndarray:
        session, tokenizer = lane or (self._session, self._tokenizer)
        feeds, _ = encode_feeds(tokenizer, pairs, self._input_names)
        logits = np.asarray(session.run([self._output], feeds)[0], dtype=np.float32)
        logits = logits.reshape(len(pairs), -1)
        if logits.shape[1] == 1:
            return logits[:, 0]
        if logits.shape[1] == 2:  # two-class head: log-odds of "relevant"
            return logits[:, 1] - logits[:, 0]
        raise ValueError(f"cross-encoder output has {logits.shape[1]} columns; expected 1 or 2")


_RERANKERS: dict[tuple[str, int], Reranker] = {}
_RERANKERS_LOCK = threading.Lock()


def load_reranker(spec: str | None, threads: int = 2) -> Reranker | None:
    """A reranker for ``spec`` (local directory or ``hf:owner/name``), one instance per (spec, threads); None
    when off. ModelUnavailableError when a configured model cannot be had: the caller decides what then."""
    key = (spec or "").strip()
    if key.lower() in _OFF_SPECS:
        return None
    with _RERANKERS_LOCK:
        cached = _RERANKERS.get((key, threads))
        if cached is None:
            path, model_id = resolve_spec(key)
            cached = OnnxCrossEncoder.from_dir(path, model_id=model_id, threads=threads)
            _RERANKERS[(key, threads)] = cached
        return cached
