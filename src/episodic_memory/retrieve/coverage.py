"""Coverage for list questions: "which cities has she visited?", "what are his hobbies?", "what activities…".

Their answer is spread over several sessions (one city a trip), and the best-scoring hits tend to be one
session's near-duplicates: the top of the ranked list is re-picked greedily, each hit losing
`coverage_penalty` for every hit of its own session already picked; a tier is never crossed. Off by default
(docs/retrieval.md, "List questions").
"""

from __future__ import annotations

import re

import numpy as np

from ..config import Config

_AUX = r"(?:has|have|had|did|does|do|is|are|was|were|would|could|can|might|will)"
# a plural noun asked about, then a verb: "what activities does she…", "which cities has he…", "what books…"
_PLURAL_ASKED = re.compile(rf"\b(?:what|which)\s+(?:[a-z]+\s+)?([a-z]{{3,}}s)\s+{_AUX}\b", re.I)
_LIST_CUES = re.compile(
    r"\b(?:(?:what|which) (?:kinds?|types?|sorts?) of|what are (?:some|all|the|his|her|their|my|your|our|[a-z]+'s)\b"
    r"|in what ways|(?:list|name) (?:all|some|every|the)\b|what (?:else|other)\b)", re.I)
_NOT_PLURAL = {"this", "his", "its", "was", "does", "has", "is", "always", "perhaps", "less", "unless", "across",
               "focus", "status", "bus", "plus", "yes", "us", "thus", "process", "business", "class", "address",
               "success", "progress", "access", "series", "news", "analysis", "basis", "thesis", "crisis"}


def is_list_question(query: str) -> bool:
    """The question asks for several things of a kind (a regex, microseconds)."""
    if _LIST_CUES.search(query):
        return True
    match = _PLURAL_ASKED.search(query)
    if match is None:
        return False
    word = match.group(1).lower()
    return word not in _NOT_PLURAL and not word.endswith(("ss", "us", "is"))


def diversify(ranked: list[int], sessions: dict[int, str], score: np.ndarray, tier: np.ndarray,
              config: Config) -> list[int]:
    """`ranked` (rows, best first) with its first `coverage_pool` re-picked: at each step the best of what is left
    by (tier, score − coverage_penalty × hits of its session already picked); the rest as they were."""
    pool, rest = ranked[: config.experimental.coverage_pool], ranked[config.experimental.coverage_pool :]
    if config.experimental.coverage_penalty <= 0 or len(pool) < 2:
        return ranked
    picked: list[int] = []
    per_session: dict[str, int] = {}
    left = list(pool)
    while left:
        def value(row: int) -> tuple[int, float]:
            session = sessions.get(row)
            seen = per_session.get(session, 0) if session is not None else 0
            return int(tier[row]), float(score[row]) - config.experimental.coverage_penalty * seen

        best = max(left, key=value)  # the first of equals: the earlier in `ranked`
        left.remove(best)
        picked.append(best)
        if (session := sessions.get(best)) is not None:
            per_session[session] = per_session.get(session, 0) + 1
    return picked + rest
