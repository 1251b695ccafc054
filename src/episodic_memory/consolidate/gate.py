"""The cheap gates before a candidate becomes a fact: salience routing and gzip novelty (no LLM involved)."""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from ..config import Config
from ..util import memo_text
from .extract import Candidate, is_filler
from .fact_types import FACT_TYPES

DURABLE, EPISODIC, DROPPED = "durable", "episodic", "dropped"


def salience(fact_type: str, confidence: float, repeats: int, config: Config) -> float:
    """The type's prior, scaled a little by confidence, plus the recurrence bonus (capped)."""
    bonus = min(config.consolidation.recurrence_bonus * repeats, config.consolidation.recurrence_cap)
    return FACT_TYPES[fact_type].prior * (0.75 + 0.25 * confidence) + bonus


def route(candidate: Candidate, config: Config, *, filler_ok: bool = False) -> tuple[str, float]:
    """durable (kept as a fact), episodic (kept, demoted into its episode's detail) or dropped (pure filler;
    `filler_ok`: a text that reads as filler is routed by its type too, e.g. a bare correction whose fact is known)."""
    if not filler_ok and is_filler(candidate.text):
        return DROPPED, 0.0
    score = salience(candidate.type, candidate.confidence, 0, config)
    return (DURABLE if score >= config.consolidation.durable_floor else EPISODIC), score


def _size(data: bytes) -> int:
    # raw deflate with fixed Huffman codes: no header, checksum or code table to blur the size of short texts
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_FIXED)
    return len(deflate.compress(data) + deflate.flush())


@memo_text()   # the same stored facts make the sample at every run
def _normalise(text: str) -> bytes:
    return " ".join(re.findall(r"[\w€$£%]+", text.lower())).encode()


def novelty(text: str, sample: Sequence[str]) -> float:
    """How much of `text` is new given `sample`: (C(sample + text) − C(sample)) / C(text), the share of its
    compressed size the sample cannot explain (about 0 for a restatement, about 1 for something unseen)."""
    if not sample:
        return 1.0
    body = b"\n".join(_normalise(s) for s in sample)
    new = _normalise(text)
    alone = _size(new)
    extra = _size(body + b"\n" + new) - _size(body)
    return max(0.0, min(1.0, extra / max(alone, 1)))


class NoveltySample:
    """`novelty` against a sample that grows by appending, with the sample compressed once: its deflate stream is
    kept and copied for each text, so a text costs the compression of its own bytes. Deflate without a flush
    emits the same bytes however its input is cut, so the sizes (and scores) are those of `novelty`; for the same
    reason the size of the sample with the text last scored is the new body's size once that text is appended."""

    def __init__(self, sample: Sequence[str] = ()) -> None:
        self._deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_FIXED)
        self._emitted = 0              # bytes the stream has given out so far
        self._count = 0
        self._compressed = 0
        self._pending: list[str] = []
        self._body_size: int | None = None
        self._last: tuple[str, int] | None = None   # the text last scored, and the sample's size with it
        for text in sample:
            self.append(text)

    def __len__(self) -> int:
        return self._count

    def append(self, text: str) -> None:
        self._pending.append(text)     # compressed when a novelty is asked for (a run may ask none)
        self._count += 1
        last, self._last = self._last, None
        self._body_size = last[1] if last is not None and last[0] == text and len(self._pending) == 1 else None

    def _size_with(self, tail: bytes) -> int:
        for text in self._pending:
            data = _normalise(text)
            self._emitted += len(self._deflate.compress(b"\n" + data if self._compressed else data))
            self._compressed += 1
        self._pending.clear()
        stream = self._deflate.copy()
        return self._emitted + len(stream.compress(tail) + stream.flush())

    def novelty(self, text: str) -> float:
        if not self._count:
            return 1.0
        if self._body_size is None:
            self._body_size = self._size_with(b"")
        new = _normalise(text)
        with_text = self._size_with(b"\n" + new)
        self._last = (text, with_text)
        return max(0.0, min(1.0, (with_text - self._body_size) / max(_size(new), 1)))


def passes_novelty(candidate: Candidate, sample: Sequence[str] | NoveltySample,
                   config: Config) -> tuple[bool, float]:
    """Below the floor a candidate is a restatement (it bumps recurrence instead). Decisions and corrections get a
    bonus: a changed number is a small edit in bytes but a big one in meaning."""
    score = sample.novelty(candidate.text) if isinstance(sample, NoveltySample) else novelty(candidate.text, sample)
    if FACT_TYPES[candidate.type].supersedes:
        score += config.consolidation.supersede_novelty_bonus
    return score >= config.consolidation.novelty_floor, score


# --- contradiction and history, without an LLM ---------------------------------------------------------
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_NEGATION = re.compile(r"\b(?:not|no|never|n't|no longer|without)\b", re.I)


def contradicts(new: str, old: str, replaces: str | None = None) -> bool:
    """A cheap signal that `new` changes what `old` said: different numbers, a flipped negation, or the value a
    correction says was wrong appearing in the old fact."""
    if replaces and re.search(rf"(?<![\w]){re.escape(replaces.lower())}(?![\w])", old.lower()):
        return True
    a, b = set(_NUMBER.findall(new)), set(_NUMBER.findall(old))
    return bool(a and b and a != b) or bool(_NEGATION.search(new)) != bool(_NEGATION.search(old))


def lexical_similarity(a: str, b: str) -> float:
    """Cosine of content-word sets: the similarity used when no embedder is available."""
    x, y = _term_set(a), _term_set(b)
    if not x or not y:
        return 0.0
    return len(x & y) / (len(x) * len(y)) ** 0.5


@memo_text()   # a stored fact is compared with every new candidate near it
def _term_set(text: str) -> frozenset[str]:
    from ..retrieve.fts import query_terms

    return frozenset(query_terms(text, singles=False))  # a shared 的 or 我 is no likeness
