"""bench/train_consolidation.py: `--verify` names the arrays a retrain does not reproduce."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from bench.train_consolidation import Fitted, differing_heads, write_models


def _head(seed: int, width: int = 5) -> Fitted:
    rng = np.random.default_rng(seed)
    return Fitted(rng.normal(size=width).astype(np.float32), float(rng.normal()),
                  rng.normal(size=width).astype(np.float32), np.ones(width, np.float32))


def test_the_same_heads_are_reproduced(tmp_path: Path) -> None:
    heads = {"commitment": (_head(1), 0.67), "completion": (_head(2), 0.77)}
    shipped = tmp_path / "shipped.npz"
    write_models(shipped, {**heads, "closes": (_head(3), 0.9)}, "some-embedder", {"seeds": 12})
    assert differing_heads(shipped, heads) == []


def test_a_changed_weight_a_changed_line_and_a_missing_head_are_named(tmp_path: Path) -> None:
    shipped = tmp_path / "shipped.npz"
    write_models(shipped, {"commitment": (_head(1), 0.67), "completion": (_head(2), 0.77)}, "e")
    moved = _head(1)
    moved.weights[2] += np.float32(1e-6)
    assert differing_heads(shipped, {"commitment": (moved, 0.67)}) == ["commitment.weights"]
    assert differing_heads(shipped, {"completion": (_head(2), 0.78)}) == ["completion.threshold"]
    assert "durable.weights" in differing_heads(shipped, {"durable": (_head(4), 0.43)})

