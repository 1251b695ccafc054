"""A learned ranker: one score per recall candidate from what the legs and the turn heads already give, in place of
the hand-set sum of terms (`Config.retrieval.ranker = "learned"`; "fused" keeps that sum, retriever.py's module docstring).

The model is small and numpy-only (standardised features, an optional tanh layer, a linear output), trained by
`bench/train_ranker.py` into `data/ranker.json` (docs/retrieval.md, "A learned ranker"); its output is mapped
onto the hand-set score's scale (`scale`, `offset`), which what reads scores after ranking was tuned for.

Every feature is a column over the candidates of one recall, 0 where it does not apply:
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_VERSION = 1

FEATURES: tuple[str, ...] = (
    "fused",          # reciprocal-rank fusion of the legs, 1.0 = first in every leg
    "fused_rel",      # fused ÷ the best fused score of the recall
    "rrf_bm25",       # (rrf_k + 1) / (rrf_k + rank) in BM25 over turns; 0: not found there
    "rrf_memory",     # the same in BM25 over derived memories
    "rrf_dense",      # the same in the dense leg
    "log_bm25",       # 1 − log(rank) / log(pool + 1) in BM25 (either table); 0: not found
    "log_dense",      # the same in the dense leg
    "bm25_rel",       # the candidate's BM25 score ÷ the best BM25 score of its table for this query
    "sim",            # the dense leg's cosine (0: not found by it)
    "sim_gap",        # best cosine of the recall − this one (1: not found by the dense leg)
    "legs",           # how many legs found it
    "prev_fused",     # fused score of the turn before it in its session (turns)
    "next_fused",     # of the turn after it
    "prev2_fused",    # the better of the turns two before and two after it
    "prev_sim",       # cosine of the turn before it (turns; 0: not found by the dense leg)
    "next_sim",       # of the turn after it
    "session",        # the session's three best fused scores, summed, ÷ the best session's (turns)
    "session_rank",   # 1 / its place among its session's candidates by fused score (turns)
    "session_hits",   # log(1 + candidates of its session) (turns)
    "speaker",        # a name in the query spoke it (turns) or is among its entities (derived)
    "time",           # a time phrase of the query covers its (event) time
    "recency",        # 2^(−age / half-life)
    "is_fact",
    "is_episode",
    "is_workstream",
    "is_other",       # another derived kind (judgments)
    "standing",       # a preference fact the dense leg finds close enough (standing_similarity)
    "inherit",        # derived: best (own fused ÷ source's fused, ≤ 1) × the source turn's fused, over its sources
    "inherit_session",  # derived: the session strength of that source turn
)
INDEX = {name: i for i, name in enumerate(FEATURES)}
# Features the training data cannot teach (the benchmarks' conversations are years old: every recency is ~0; few
# standing preferences): not learned, added with their hand-set weight (the Config field named) to the score.
FIXED = {"recency": "recency_weight", "standing": "standing_bonus"}  # fields of Config.retrieval


class RankerWeightsError(ValueError):
    """The learned ranker's weights file is missing, unreadable or does not fit this version's features."""


@dataclass(frozen=True)
class LearnedRanker:
    """Standardise, one (optional) tanh layer, a linear output, mapped to the hand-set scale."""

    mean: np.ndarray
    std: np.ndarray
    hidden: np.ndarray | None      # (features, units) or None: linear
    hidden_bias: np.ndarray | None
    weights: np.ndarray            # (units or features,)
    bias: float
    scale: float
    offset: float
    meta: dict[str, Any]

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The model's output for each row of `x` (rows: candidates, columns: FEATURES), FIXED ones left out."""
        z = (x - self.mean) / self.std
        z[:, [INDEX[name] for name in FIXED]] = 0.0
        if self.hidden is not None and self.hidden_bias is not None:
            z = np.tanh(z @ self.hidden + self.hidden_bias)
        return z @ self.weights + self.bias

    def score(self, x: np.ndarray, config: Any) -> np.ndarray:
        """Scores on the hand-set scale, the FIXED features added with `config`'s weights for them."""
        out = self.offset + self.scale * self.raw(x)
        for name, field in FIXED.items():
            out += float(getattr(config.retrieval, field)) * x[:, INDEX[name]]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str) -> LearnedRanker:
        """Validated: the features must be this version's, in order, and every array the right shape."""
        try:
            if data.get("format") != FORMAT_VERSION:
                raise RankerWeightsError(f"format {data.get('format')!r}, expected {FORMAT_VERSION}")
            if tuple(data["features"]) != FEATURES:
                raise RankerWeightsError("its features are not this version's (retrain: bench/train_ranker.py)")
            n = len(FEATURES)
            mean = np.asarray(data["mean"], np.float64)
            std = np.asarray(data["std"], np.float64)
            weights = np.asarray(data["weights"], np.float64)
            hidden = hidden_bias = None
            if data.get("hidden") is not None:
                hidden = np.asarray(data["hidden"], np.float64)
                hidden_bias = np.asarray(data["hidden_bias"], np.float64)
                if hidden.ndim != 2 or hidden.shape[0] != n or hidden_bias.shape != (hidden.shape[1],):
                    raise RankerWeightsError("hidden layer of the wrong shape")
            units = n if hidden is None else hidden.shape[1]
            if mean.shape != (n,) or std.shape != (n,) or weights.shape != (units,):
                raise RankerWeightsError("weights of the wrong shape")
            arrays = [mean, std, weights] + ([] if hidden is None or hidden_bias is None else [hidden, hidden_bias])
            if not all(np.isfinite(a).all() for a in arrays) or (std <= 0).any():
                raise RankerWeightsError("non-finite weights or a non-positive std")
            return cls(mean, std, hidden, hidden_bias, weights, float(data["bias"]), float(data.get("scale", 1.0)),
                       float(data.get("offset", 0.0)), {k: data[k] for k in ("version", "trained_on", "cv")
                                                        if k in data})
        except RankerWeightsError as exc:
            raise RankerWeightsError(f"learned ranker weights {source}: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise RankerWeightsError(f"learned ranker weights {source}: malformed ({type(exc).__name__}: {exc})"
                                     ) from None


SHIPPED = "data/ranker.json"  # inside the package
_loaded: dict[str, LearnedRanker] = {}
_lock = threading.Lock()


def load_ranker(path: str | Path | None = None) -> LearnedRanker:
    """The weights at `path` (the shipped ones by default), read and validated once per process."""
    key = str(path) if path is not None else SHIPPED
    with _lock:
        if key not in _loaded:
            try:
                if path is None:
                    text = resources.files("episodic_memory").joinpath(SHIPPED).read_text(encoding="utf-8")
                    source = f"episodic_memory/{SHIPPED}"
                else:
                    text, source = Path(path).read_text(encoding="utf-8"), str(path)
            except OSError as exc:
                raise RankerWeightsError(f"learned ranker weights {key}: cannot be read ({exc}); set "
                                         "Config.retrieval.ranker='fused' to rank without them") from None
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RankerWeightsError(f"learned ranker weights {source}: not JSON ({exc})") from None
            if not isinstance(data, dict):
                raise RankerWeightsError(f"learned ranker weights {source}: not a JSON object")
            _loaded[key] = LearnedRanker.from_dict(data, source)
        return _loaded[key]


def empty_features(n: int) -> np.ndarray:
    return np.zeros((n, len(FEATURES)))
