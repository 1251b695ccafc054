"""Judgment memory: trigger → judgment → reasoning, ranked by proven utility (memory.py, utility.py)."""

from __future__ import annotations

from ..retrieve.utility import plain_utility, rank_score, smoothed_utility, utility
from .embedding import CallableEmbedder
from .inject import past_judgments_block
from .memory import Judgment, JudgmentMemory, SearchResult, Triple

__all__ = [
    "CallableEmbedder", "Judgment", "JudgmentMemory", "SearchResult", "Triple",
    "past_judgments_block", "plain_utility", "rank_score", "smoothed_utility", "utility",
]
