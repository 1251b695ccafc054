"""Is a sentence worth keeping? Rules for the sure cases (questions, requests to the assistant, filler,
hypotheticals), then a nearest-exemplar vote over the embedder for what the rules cannot tell: a sentence's
margin is the mean cosine of its `k` nearest durable exemplars (`data/fact_exemplars.jsonl`) minus that of its
`k` nearest noise exemplars (docs/consolidation.md, "Durable or noise").
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from ..lang.english import LEAD_IN_PATTERN
from ..util import one_blas_thread

if TYPE_CHECKING:
    from ..models.embedder import Embedder

log = logging.getLogger(__name__)

_I = re.IGNORECASE
_LEAD = rf"^(?:{LEAD_IN_PATTERN}\s*[,:!.—–-]*\s+)*"
_POLITE = r"(?:(?:please|pls|can you|could you|would you|will you|can u|i need you to|i want you to|help me)\s+)*"
# Requests to the assistant: whatever follows is material to work on, not a fact about the person's world.
REQUEST = re.compile(
    _LEAD + _POLITE + r"(?:proof-?read|translate|draft|write|re-?write|re-?word|summari[sz]e|sum (?:it |this |that )?up|"
    r"give me|tell me|recommend|suggest|brainstorm|explain|make (?:this|it|these|that(?!\s+[€$£]?\d))|"
    r"turn (?:this|it|that|these)|"
    r"convert|format|outline|compose|generate|polish|edit|shorten|tighten|expand|paraphrase|check (?:this|my|the "
    r"grammar)|fix (?:this|my|the (?:grammar|wording))|reply to|respond to|answer (?:this|a|an|the)|come up with|"
    r"think of|show me|find me|compare|describe|recap|walk me through|list (?:some|a few|the|\d+|five|three|ten)|"
    r"plan (?:a|an|my|me)|pick (?:a|an|me)|help (?:me )?(?:with|to|write|reply|answer|draft))\b|"
    # any instruction on quoted material: "soften this: '…'", "condense this for me: \"…\""
    + _LEAD + _POLITE + r"[a-z]+(?:\s+[a-z]+)?\s+(?:this|these|that|the following|it)(?:\s+(?:up|down|out))?(?:\s+for me)?\s*:\s*['\"‘“]",
    _I)
# What the person asks the assistant to remember is kept, without the request around it.
MEMO = re.compile(
    _LEAD + _POLITE + r"(?:remember|note(?: down)?|keep track|keep in mind|make a note|log|record|bear in mind)"
    r"(?: that| this)?\s*[,:—–-]?\s+", _I)
QUESTION_START = re.compile(
    _LEAD + r"(?:what|what's|whats|how|why|where|which|who|whom|whose|when's|is it|is that|is there|are there|are we|"
    r"am i|do you|do i|do we|does|did you|did i|did we|can i|can we|can you(?! believe)|could you|will you|should i|"
    r"should we|would it|would you(?! believe)|shall we|"
    r"any (?:tips|ideas|thoughts|advice|suggestions|recommendations)|anything|thoughts)\b", _I)
# musings: a world that is not ("In theory …", "Someday …", "In a perfect world …"), said first or anywhere
_MUSING_OPENERS = (r"in theory|someday|some day|one day|in an ideal world|in a perfect world|ideally|hypothetically|"
                   r"imagine|what if")
_MUSING_ANYWHERE = r"\bwho knows\b|\bthinking out loud\b|\bjust an idea\b"
# the hypotheticals: the musings and the hedges ("Maybe I'll try the 5am slot", "If it rains we move inside")
HYPOTHETICAL = re.compile(
    _LEAD + r"(?:if\b|maybe\b|perhaps\b|i wonder|wondering|i might|might\b|i guess|i suppose|" + _MUSING_OPENERS
    + r")|" + _MUSING_ANYWHERE + r"|\bnot sure (?:if|whether)\b|\bjust (?:brainstorming|thinking|musing)\b|"
    r"\bnothing (?:decided|settled|final)\b", _I)

# a statement that turns into asking the assistant halfway: "We bumped the budget to 48k, can you redo the plan?"
ASKS_MIDWAY = re.compile(r"(?:[,;:—–]|\s-)\s*(?:(?:so|and|but|then)\s+)?(?:can|could|would|will)\s+(?:you|u)\b", _I)

# of the hypotheticals, the musings alone: a hedge often carries a plan or a preference
MUSING = re.compile(_LEAD + r"(?:" + _MUSING_OPENERS + r")\b|" + _MUSING_ANYWHERE, _I)


STATEMENT, QUESTION, REQUEST_KIND, HYPOTHETICAL_KIND = "statement", "question", "request", "hypothetical"


def sentence_kind(sentence: str) -> str:
    """statement, question, request (to the assistant) or hypothetical."""
    s = sentence.strip()
    if REQUEST.match(s):
        return REQUEST_KIND
    if s.rstrip(" \"')").endswith("?") or QUESTION_START.match(s):
        return QUESTION
    if HYPOTHETICAL.search(s):
        return HYPOTHETICAL_KIND
    return STATEMENT


def stated_part(sentence: str) -> str:
    """What a sentence states before it turns to ask the assistant ("We bumped the budget to 48k, can you redo
    the plan?" → "We bumped the budget to 48k."); one that asks from (nearly) its start is left as it is."""
    m = ASKS_MIDWAY.search(sentence)
    if m is None:
        return sentence
    head = sentence[: m.start()].rstrip(" ,;:—–-")
    if len(head.split()) < 3 or QUESTION_START.match(head) or REQUEST.match(head):
        return sentence
    return head + "."


def strip_memo(sentence: str) -> str:
    """"Can you keep track that I need Mira's sign-off" → "I need Mira's sign-off"."""
    m = MEMO.match(sentence)
    return sentence[m.end():] if m and len(sentence) - m.end() > 8 else sentence


@dataclass(frozen=True)
class Exemplar:
    text: str
    label: str      # durable | noise
    kind: str


def load_exemplars() -> list[Exemplar]:
    raw = resources.files("episodic_memory").joinpath("data/fact_exemplars.jsonl").read_text(encoding="utf-8")
    items = [json.loads(line) for line in raw.splitlines() if line.strip()]
    return [Exemplar(item["text"], item["label"], item.get("kind", "")) for item in items]


_BANKS: dict[str, tuple[np.ndarray, np.ndarray]] = {}
_BANK_LOCK = threading.Lock()


class ExemplarVote:
    """Durable-minus-noise margins by nearest exemplars (one embedding of the bank per model, per process)."""

    def __init__(self, embedder: Embedder, k: int = 3) -> None:
        self.embedder = embedder
        self.k = k

    def _bank(self) -> tuple[np.ndarray, np.ndarray]:
        key = f"{getattr(self.embedder, 'model_id', id(self.embedder))}:{getattr(self.embedder, 'dim', '')}"
        with _BANK_LOCK:
            if key not in _BANKS:
                bank = load_exemplars()
                vectors = np.asarray(self.embedder.embed([e.text for e in bank]), dtype=np.float32)
                labels = np.array([e.label == "durable" for e in bank])
                _BANKS[key] = (vectors[labels], vectors[~labels])
            return _BANKS[key]

    def margins(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0, dtype=np.float32)
        durable, noise = self._bank()
        vectors = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        # one BLAS thread: from ~10 sentences a second one spins after the product, on the embedder's core
        with one_blas_thread:
            return _top_mean(vectors @ durable.T, self.k) - _top_mean(vectors @ noise.T, self.k)


def _top_mean(sims: np.ndarray, k: int) -> np.ndarray:
    k = min(k, sims.shape[1])
    return np.sort(sims, axis=1)[:, -k:].mean(axis=1)
