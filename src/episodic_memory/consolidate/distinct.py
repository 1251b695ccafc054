"""What is distinctive about a session: the words of what people stated, weighed against the user's own vocabulary.

Only statements count, each word weighed by its idf against the user's episodes (`episode_terms`); see
docs/consolidation.md, "Workstreams from what is distinctive".
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..store.records import StoredTurn
from .keyphrases import content_stems, sentences, stem, words

#: a turn that asks the assistant for something (its words are the request's, not the thread's)
_REQUEST = re.compile(
    r"^\W*(?:(?:hey|ok|okay|so|also|and|quick one|quick question)\W+)?(?:(?:can|could|would|will) you\s+|please\s+|"
    r"i need you to\s+|help me\s+)?(?:give|translate|explain|write|draft|summari[sz]e|brainstorm|suggest|recommend|"
    r"list|tell|make|rewrite|reword|proofread|find|name|describe|compare|convert|fix|show|generate|outline|"
    r"come up|polish|edit|shorten|check|calculate|convert|define|teach)\b", re.IGNORECASE)

#: below this many sessions the vocabulary is too young to call any word common
MIN_SESSIONS_FOR_COMMON = 5


def is_statement(turn: StoredTurn) -> bool:
    """A turn that tells something about the person's world: said by a person, not a question, not a request."""
    text = turn.content.strip()
    return turn.role == "user" and bool(text) and not text.endswith("?") and not _REQUEST.match(text)


@dataclass
class SessionWords:
    stems: list[set[str]]        # per turn (empty for turns that are not statements)
    tf: dict[str, float]         # stem → statement turns that use it (names count more)


def session_words(turns: Sequence[StoredTurn], name_boost: float = 1.0) -> SessionWords:
    """The stems of each statement turn; a stem written capitalised inside a sentence (a name: "Skylark", "Vantage
    Foods") counts `name_boost` times in the profile."""
    stems = [set(content_stems(t.content)) if is_statement(t) else set() for t in turns]
    tf: dict[str, float] = {}
    for turn, s in zip(turns, stems, strict=True):
        for key in s:
            tf[key] = tf.get(key, 0.0) + 1.0
        if name_boost != 1.0 and s:
            for sentence in sentences(turn.content):
                for token in words(sentence)[1:]:
                    if token[:1].isupper() and (key := stem(token.lower())) in s:
                        tf[key] += name_boost - 1.0
    return SessionWords(stems, tf)


def idf(term: str, df: Mapping[str, int], n: int, common_share: float) -> float:
    """log((n + 1) / df), or 0 for a common word (in more than `common_share` of `n` ≥ 5 sessions)."""
    d = max(1, df.get(term, 1))
    if n >= MIN_SESSIONS_FOR_COMMON and d / n > common_share:
        return 0.0
    return math.log((n + 1) / d)


def turn_weights(words: SessionWords, df: Mapping[str, int], n: int, common_share: float) -> list[float]:
    """Each turn's distinctiveness: the summed idf of its words (0 for a turn that is not a statement)."""
    return [sum(idf(t, df, n, common_share) for t in s) for s in words.stems]


def sentence_weights(sentences: Sequence[str], df: Mapping[str, int], n: int, common_share: float) -> np.ndarray:
    """Each sentence's distinctiveness: the summed idf of its words that `df` knows (a session's own, there); 0 for
    a question, which asks and states nothing (as `is_statement` has it of a turn)."""
    return np.asarray([0.0 if s.rstrip().endswith("?") else
                       sum(idf(t, df, n, common_share) for t in set(content_stems(s)) if t in df) for s in sentences],
                      np.float32)


def profile_cosine(a: Mapping[str, float], b: Mapping[str, float], df: Mapping[str, int], n: int,
                   common_share: float) -> float:
    """tf-idf cosine of two word profiles (sublinear tf), with the current document frequencies."""
    return weighted_cosine(profile_weights(a, df, n, common_share), profile_weights(b, df, n, common_share))


def profile_weights(p: Mapping[str, float], df: Mapping[str, int], n: int, common_share: float) -> dict[str, float]:
    """A word profile's tf-idf weights (sublinear tf): one side of `profile_cosine`, to weigh once when one profile
    is matched against many."""
    out: dict[str, float] = {}
    common = n >= MIN_SESSIONS_FOR_COMMON   # `idf` inlined (a workstream's profile holds thousands of words)
    for t, x in p.items():
        if x < 1:
            continue
        d = max(1, df.get(t, 1))
        if common and d / n > common_share:
            continue
        if (w := math.log((n + 1) / d)) > 0:
            out[t] = (1 + math.log(x)) * w
    return out


def weighted_cosine(wa: Mapping[str, float], wb: Mapping[str, float]) -> float:
    """`profile_cosine` of two profiles weighed by `profile_weights`."""
    num = sum(x * wb.get(t, 0.0) for t, x in wa.items())
    na = math.sqrt(sum(x * x for x in wa.values()))
    nb = math.sqrt(sum(x * x for x in wb.values()))
    return num / (na * nb) if na and nb else 0.0

