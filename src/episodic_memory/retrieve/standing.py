"""Standing instructions reach the recalls they apply to, however long the history.

An instruction is mostly about *what to do*, not the request's topic, so in a long history the dense leg's
pool never holds it: every recall with an embedder also looks at all of the user's standing instructions, one
with a scope (`scope_of`) matched by its scope's vector and given a place in the top k, one without by its own
vector. docs/retrieval.md, "Standing instructions reach the recalls they apply to", has the rules and the
measurements. Scopes are read in English.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..config import Config
from ..store.base import Store
from ..util import clear_on_forget, memo_text

if TYPE_CHECKING:
    from ..models.embedder import Embedder

# what someone does when a rule is meant to apply: "when I ask about …", "whenever we discuss …", "if I'm working on …"
_DOING = (r"(?:ask(?:ing)?|talk(?:ing)?|chat(?:ting)?|writ(?:e|ing)|work(?:ing)?|discuss(?:ing)?|need(?:ing)?|"
          r"want(?:ing)?|request(?:ing)?|inquir(?:e|ing)|bring(?:ing)? up|deal(?:ing)?|get(?:ting)?|com(?:e|ing)|"
          r"look(?:ing)?|go(?:ing)?|turn(?:ing)?|send(?:ing)?|share|sharing|plan(?:ning)?|prepar(?:e|ing)|mention(?:ing)?)")
_TOPIC = r"(?P<scope>[^.;!?,\n]{2,120})"  # up to the end of the clause: "when I ask about X, do Y"
_SCOPES = tuple(re.compile(p, re.IGNORECASE) for p in (
    # "when I ask about X", "whenever we discuss X", "if I'm working on X", "any time I need help with X"
    rf"\b(?:when(?:ever)?|if|any ?time|each time|every time)\s+(?:i|we)(?:'m|’m|'re|’re| am| are)?\s+{_DOING}"
    rf"(?:\s+(?:you|help|advice|questions?))*(?:\s+(?:about|on|with|for|regarding|into|over))?\s+{_TOPIC}",
    # "when it comes to X"
    rf"\bwhen(?:ever)?\s+it\s+comes\s+to\s+{_TOPIC}",
    # "whenever X comes up"
    r"\bwhen(?:ever)?\s+(?P<scope>[^.;!?,\n]{3,80}?)\s+(?:comes? up|(?:is|are) (?:mentioned|discussed|involved))\b",
    # "for X questions", "in JavaScript examples", "on any budget tasks"
    r"\b(?:for|in|on|with)\s+(?:all\s+|any\s+|every\s+|my\s+)?(?P<scope>[\w'’ /+#.-]{2,60}?)\s+"
    r"(?:questions|answers|examples|responses|explanations|problems|tasks|requests|topics|code|snippets|"
    r"exercises|reports|emails|messages)\b",
))
_TAIL = " ,:;-–—>\"'“”‘’()[]"
# an instruction to the assistant, scoped or not: "Always …", "Never …", "Please don't …", "From now on …"
# ("Always been curious …", "Never saw it coming": a past form after it tells, not asks)
_PAST = (r"(?:been|had|was|were|did|saw|seen|got|gotten|knew|known|thought|went|gone|made|felt|took|taken|came|"
         r"gave|given|found|told|heard|left|met|ran|sat|stood|wrote|written|done|said|\w+ed)\b")
_INSTRUCTION = re.compile(
    rf"^(?:(?:please|and|also|oh|ok(?:ay)?|so)[,\s]+)*(?:(?:always|never)\s+(?!{_PAST})|(?:don['’]?t|do not|make sure|"
    rf"be sure|remember to|from now on|going forward|in (?:the )?future)\b)|\bplease (?:always|never|don['’]?t|do not)\b",
    re.IGNORECASE)


def is_instruction(text: str) -> bool:
    """Whether a preference fact tells the assistant what to do (not what someone likes: "I love hiking")."""
    return _INSTRUCTION.search(text) is not None or scope_of(text) is not None


@memo_text()
def scope_of(text: str) -> str | None:
    """The topic a standing instruction says it applies to ("implementation details" of "Always format code
    snippets with syntax highlighting when I ask about implementation details."), or None when it names none."""
    for pattern in _SCOPES:
        m = pattern.search(text)
        if m is not None:
            scope = m.group("scope").strip(_TAIL)
            if any(c.isalpha() for c in scope):
                return scope
    return None


STANDING_TYPES = ("preference", "correction")  # the fact types a standing instruction is filed under


@dataclass(frozen=True)
class StandingMatch:
    fact_id: int
    similarity: float   # the request's cosine with the fact's own vector (NaN: it has none yet)
    scope: float        # with its scope's (NaN: it names none)
    scoped: bool        # matched by its scope: it gets a place in the top k


@dataclass
class _Held:
    """A user's standing instructions as last read: their ids, own vectors and scopes' vectors."""

    generation: tuple[int, ...]
    model: str
    ids: np.ndarray                                 # fact ids
    vectors: np.ndarray                             # (n, dim), a row of zeros for a fact not embedded yet
    embedded: np.ndarray                            # bool (n,): has its own vector
    scoped: np.ndarray                              # indices into ids of the instructions with a scope
    scopes: np.ndarray                              # (len(scoped), dim)
    by_id: dict[int, bytes] = field(default_factory=dict)           # fact id -> its vector (kept for the next read)
    by_scope: dict[str, np.ndarray] = field(default_factory=dict)   # scope -> its vector (the same)


class StandingFacts:
    """Per process: the standing instructions of the `USERS_HELD` users who recalled last, with their vectors,
    read again when the derived memories change (`Store.derived_generation`), what was read carried over."""

    USERS_HELD = 256

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self._held: OrderedDict[str, _Held] = OrderedDict()
        self._lock = threading.Lock()
        _OPEN.add(self)

    def clear(self) -> None:
        with self._lock:
            self._held.clear()

    def match(self, user_id: str, query: np.ndarray, embedder: Embedder) -> list[StandingMatch]:
        """The user's standing instructions the request `query` (a normalised vector) is close enough to: by the
        scope they name, or by their own vector."""
        cfg = self.config
        held = self._read(user_id, embedder)
        if not len(held.ids):
            return []
        q = query.astype(np.float32, copy=False)
        own = held.vectors @ q
        own[~held.embedded] = np.nan
        scope = np.full(len(held.ids), np.nan, np.float32)
        if len(held.scoped):
            scope[held.scoped] = held.scopes @ q
        with np.errstate(invalid="ignore"):
            by_scope = scope >= cfg.retrieval.standing_scope_similarity
            chosen = np.flatnonzero((own >= cfg.retrieval.standing_similarity) | by_scope)
        # the best scope matches take the places in the top k; the others are candidates with the bonus
        placed = set(sorted(np.flatnonzero(by_scope).tolist(), key=lambda i: -scope[i])[: cfg.retrieval.standing_max])
        return [StandingMatch(int(held.ids[i]), float(own[i]), float(scope[i]), i in placed) for i in chosen.tolist()]

    def _read(self, user_id: str, embedder: Embedder) -> _Held:
        generation = self.store.derived_generation()
        model = embedder.model_id
        with self._lock:
            held = self._held.get(user_id)
            if held is not None:
                self._held.move_to_end(user_id)
        if held is not None and held.generation == generation and held.model == model:
            return held
        # only instructions: a liking ("my favourite book is …") brought in from outside the legs outranked
        # the turns that answered (docs/retrieval.md); a corrected instruction is a correction fact
        facts = [f for f in self.store.facts(user_id, types=STANDING_TYPES, limit=self.config.retrieval.standing_limit)
                 if is_instruction(f.text)]
        ids = [f.id for f in facts]
        known = held.by_id if held is not None and held.model == model else {}
        by_id = {i: known[i] for i in ids if i in known}
        missing = [i for i in ids if i not in by_id]
        if missing:
            by_id.update(self.store.item_vectors(user_id, model, "fact", missing))
        dim = embedder.dim
        vectors = np.zeros((len(ids), dim), np.float32)
        embedded = np.zeros(len(ids), bool)
        for row, i in enumerate(ids):
            blob = by_id.get(i)
            if blob is not None and len(blob) == 4 * dim:
                vectors[row] = np.frombuffer(blob, np.float32)
                embedded[row] = True
        named = [(row, scope) for row, f in enumerate(facts) if (scope := scope_of(f.text)) is not None]
        old_scopes = held.by_scope if held is not None and held.model == model else {}
        by_scope = {scope: old_scopes[scope] for _, scope in named if scope in old_scopes}
        new = list(dict.fromkeys(scope for _, scope in named if scope not in by_scope))
        if new:  # embedded once per process, then carried from read to read
            by_scope.update(zip(new, np.asarray(embedder.embed(new), np.float32), strict=True))
        scopes = np.asarray([by_scope[scope] for _, scope in named], np.float32).reshape(len(named), dim)
        held = _Held(generation, model, np.asarray(ids, np.int64), vectors, embedded,
                     np.asarray([row for row, _ in named], np.int64), scopes, by_id, by_scope)
        with self._lock:
            self._held[user_id] = held
            self._held.move_to_end(user_id)
            while len(self._held) > self.USERS_HELD:
                self._held.popitem(last=False)
        return held


# every instance, so that a forget empties them all: they hold vectors of stored facts' texts
_OPEN: weakref.WeakSet[StandingFacts] = weakref.WeakSet()


@clear_on_forget
def _forget_standing() -> None:
    for facts in list(_OPEN):
        facts.clear()


def place_standing(scores: np.ndarray, valid: np.ndarray, rows: list[int], k: int, margin: float = 1e-3) -> None:
    """Lift the candidates `rows` (standing instructions matched by their scope) just above the k-th best
    score of the other valid candidates if below it: a place in the top k, below what the request found."""
    if not rows:
        return
    others = np.ones(len(scores), bool)
    others[rows] = False
    pool = scores[valid & others]
    if len(pool) < k:
        return
    kth = float(np.partition(pool, len(pool) - k)[len(pool) - k])
    for r in rows:
        scores[r] = max(scores[r], kth + margin)

