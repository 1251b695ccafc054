"""Embedding and reranking models (the ``models/`` edge).

Names are re-exported lazily, so ``import episodic_memory.models`` loads neither numpy nor
onnxruntime until a name is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from episodic_memory.models.embedder import (
        DEFAULT_MODEL_ID,
        Embedder,
        ModelUnavailableError,
        OnnxEmbedder,
        default_embedder,
        load_embedder,
    )
    from episodic_memory.models.reranker import OnnxCrossEncoder, Reranker, load_reranker

_EXPORTS = {
    **dict.fromkeys(("DEFAULT_MODEL_ID", "Embedder", "ModelUnavailableError", "OnnxEmbedder",
                     "default_embedder", "load_embedder"), "embedder"),
    **dict.fromkeys(("OnnxCrossEncoder", "Reranker", "load_reranker"), "reranker"),
}

__all__ = [
    "DEFAULT_MODEL_ID",
    "Embedder",
    "ModelUnavailableError",
    "OnnxCrossEncoder",
    "OnnxEmbedder",
    "Reranker",
    "default_embedder",
    "load_embedder",
    "load_reranker",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
