"""State changes in recall: "when did X finish" should find the turn that reports the end, not the one where X began.

A query about the end or the start of something has a *phase*: a candidate whose text reports it gets
`phase_bonus`, one that reports only the opposite phase loses `phase_penalty`; English only, a small closed
lexicon, read for the best `phase_pool` candidates (Config.retrieval; docs/retrieval.md, "Time: now, relative
dates and state changes").
"""

from __future__ import annotations

import re

import numpy as np

from ..config import Config
from ..store.base import Store
from .hit import Hit

END, START, BOTH = "end", "start", "both"


def _verb_forms(base: str, past: str, participle: str | None = None, ing: str | None = None) -> dict[str, str]:
    """Every form of a verb -> which form it is (base, past, ing)."""
    stem = base[:-1] if base.endswith("e") else base
    return {base: "base", base + "s" if not base.endswith(("sh", "ch", "s")) else base + "es": "base",
            past: "past", participle or past: "past", ing or stem + "ing": "ing"}


_END_VERBS = [
    _verb_forms("finish", "finished"), _verb_forms("complete", "completed"), _verb_forms("end", "ended"),
    _verb_forms("quit", "quit", ing="quitting"), _verb_forms("leave", "left"), _verb_forms("move", "moved"),
    _verb_forms("stop", "stopped", ing="stopping"), _verb_forms("conclude", "concluded"),
    _verb_forms("graduate", "graduated"), _verb_forms("retire", "retired"), _verb_forms("wrap", "wrapped",
                                                                                        ing="wrapping"),
]
_START_VERBS = [
    _verb_forms("start", "started"), _verb_forms("begin", "began", "begun", "beginning"),
    _verb_forms("join", "joined"), _verb_forms("launch", "launched"), _verb_forms("enrol", "enrolled", ing="enrolling"),
    _verb_forms("enroll", "enrolled", ing="enrolling"), _verb_forms("commence", "commenced"),
    _verb_forms("embark", "embarked"), _verb_forms("kick", "kicked"), _verb_forms("sign", "signed"),
    _verb_forms("take", "took", "taken", "taking"),
]
#: verbs that name a phase only with their particle ("kick off", "sign up", "take up", "wrap up")
_PARTICLE = {"kick": "off", "sign": "up", "take": "up", "wrap": "up"}
#: forms that are a phase verb only after a subject ("I left", "she just left"), else "what's left", "on the left"
_AFTER_SUBJECT = {"left"}
_SUBJECTS = {"i", "we", "he", "she", "they", "you", "finally", "just", "already", "i've", "we've", "they've", "you've",
             "she's", "he's", "have", "has", "had"}
#: nouns and adjectives that name a phase in a question ("the end of my sprint", "the start of the course")
_QUERY_NOUNS = {END: ("end", "completion", "finish"), START: ("start", "beginning", "launch", "outset")}
#: a verb of the lexicon that names no phase when this word follows it ("end up playing", "move on")
_NOT_A_PHASE = {"end": ("up",), "ended": ("up",), "ending": ("up",), "ends": ("up",)}


def _lexicon(verbs: list[dict[str, str]]) -> dict[str, tuple[str, str, str | None]]:
    """form -> (base, which form, the particle it needs)."""
    out: dict[str, tuple[str, str, str | None]] = {}
    for forms in verbs:
        base = next(f for f, w in forms.items() if w == "base")
        for form, which in forms.items():
            out.setdefault(form, (base, which, _PARTICLE.get(base)))
    return out


_LEXICON = {END: _lexicon(_END_VERBS), START: _lexicon(_START_VERBS)}
_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?")
# "it's done", "we're done", "all done", "done with": an end reported without a verb of the lexicon
_DONE = re.compile(r"\b(?:(?:is|are|was|were|am|'s|'re|'m)\s+(?:all\s+|finally\s+|now\s+|completely\s+|just\s+)?"
                   r"(?:done|finished|complete|completed)|done\s+with|all\s+done|finally\s+done)\b")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def _mentions(words: list[str], phase: str, *, reports: bool) -> bool:
    """Whether `words` hold a verb of `phase` (`reports`: only forms that report it happened or is under way)."""
    lexicon = _LEXICON[phase]
    for i, word in enumerate(words):
        entry = lexicon.get(word)
        if entry is None:
            continue
        _, which, particle = entry
        if i + 1 < len(words) and words[i + 1] in _NOT_A_PHASE.get(word, ()):
            continue
        if word in _AFTER_SUBJECT and not _SUBJECTS.intersection(words[max(0, i - 2) : i]):
            continue  # "how many are left", "on the left" (not "we left Paris", "she just left")
        if particle is not None and particle not in words[i + 1 : i + 4]:
            continue  # "kicked" alone is not a start, "kicked off" is
        if not reports or which == "past" or (which == "ing" and phase == START):
            return True
    return False


def query_phase(text: str) -> str | None:
    """END, START or BOTH when the query asks about the end or the start of something, else None."""
    words = _words(text)
    asked = set()
    for phase in (END, START):
        if _mentions(words, phase, reports=False) or any(
                f"the {noun} of" in " ".join(words) for noun in _QUERY_NOUNS[phase]):
            asked.add(phase)
    if not asked:
        return None
    return BOTH if len(asked) == 2 else asked.pop()


def reports(text: str) -> tuple[bool, bool]:
    """(reports an end, reports a start) for a memory's text."""
    lowered = text.lower().replace("’", "'")
    words = _words(lowered)  # "it's done", "we're done with it" are ends without a verb of the lexicon
    return (_mentions(words, END, reports=True) or _DONE.search(lowered) is not None,
            _mentions(words, START, reports=True))


def adjustment(text: str, phase: str, config: Config) -> float:
    """What a memory's text adds to its score for a query of `phase`."""
    end, start = reports(text)
    wanted, other = {END: (end, start), START: (start, end), BOTH: (end or start, False)}[phase]
    if wanted:
        return config.retrieval.phase_bonus
    return -config.retrieval.phase_penalty if other else 0.0


def phase_scores(store: Store, config: Config, phase: str | None, user_id: str, keys: np.ndarray,
                 score: np.ndarray, valid: np.ndarray, others: dict[int, Hit], kind_bits: int) -> np.ndarray:
    """The adjustment per candidate row (zeros when the query has no phase): the best `phase_pool` valid turns by
    score are read from the store, derived memories use their hit's text."""
    out = np.zeros(len(keys))
    if phase is None or not (config.retrieval.phase_bonus or config.retrieval.phase_penalty) or not len(keys):
        return out
    turn_rows = np.flatnonzero(valid & (keys % kind_bits == 0))
    turn_rows = turn_rows[np.argsort(-score[turn_rows], kind="stable")[: config.retrieval.phase_pool]]
    ids = (keys[turn_rows] // kind_bits).tolist()
    turns = store.turns_by_id(user_id, ids) if ids else {}
    for row, turn_id in zip(turn_rows.tolist(), ids, strict=True):
        turn = turns.get(turn_id)
        if turn is not None:
            out[row] = adjustment(turn.content, phase, config)
    for row, hit in others.items():
        if valid[row]:
            out[row] = adjustment(hit.text, phase, config)
    return out
