"""A small rule-based lemmatiser for open loops, so that a to-do and the news it was done meet (see
docs/consolidation.md, "Loops that close"). `key` is what gets compared: the lemma without a final "e", so
that a rule that cannot tell "approv(e)d" from "book(e)d" never has to.
"""

from __future__ import annotations

import re

from ..lang.english import IRREGULAR_VERBS
from .keyphrases import STOPWORDS, TIME_WORDS

#: past tense and past participle → base form (lang/english.py)
IRREGULAR: dict[str, str] = IRREGULAR_VERBS

#: past forms of the table (a verb in the past: one signal that something was done)
IRREGULAR_PAST = frozenset(f for f, b in IRREGULAR.items() if f != b) - {
    "lay", "found", "ground", "wound", "left", "lit", "read", "was", "were", "been", "had", "bit", "bound", "bore"}

#: nouns made of verbs, as the verb ("the approval" is "approve", "the booking" is "book")
NOMINAL: dict[str, str] = {
    "approval": "approve", "decision": "decide", "submission": "submit", "payment": "pay", "booking": "book",
    "renewal": "renew", "delivery": "deliver", "completion": "complete", "choice": "choose", "signature": "sign",
    "sign-off": "sign", "signoff": "sign", "purchase": "buy", "reservation": "book", "confirmation": "confirm",
    "registration": "register", "application": "apply", "review": "review", "reply": "reply", "response": "reply",
    "feedback": "feedback", "agreement": "agree", "selection": "choose", "installation": "install",
    "appointment": "book", "cancellation": "cancel", "transfer": "transfer", "investigation": "investigate",
}

#: verbs that name the same act, folded into one ("picked a colour" does what "choose a colour" asked)
SAME_ACT: dict[str, str] = {
    "pick": "choose", "select": "choose", "settle": "choose", "land": "choose", "opt": "choose", "decide": "choose",
    "finalise": "choose", "finalize": "choose",
    "purchase": "buy", "order": "buy",
    "phone": "call", "ring": "call",
    "email": "send", "mail": "send", "forward": "send", "submit": "send", "deliver": "send", "file": "send",
    "reserve": "book", "schedule": "book",
    "draft": "write", "finish": "complete", "wrap": "complete",
    "okay": "approve", "greenlight": "approve", "sign": "approve",
    "fix": "repair", "mend": "repair",
}

#: -ed words that are not verbs in the past
_NOT_PAST = frozenset("""
need seed feed speed bed red shed bleed breed weed indeed reed deed heed proceed exceed succeed greed shred sled
hundred kindred sacred naked wicked rugged ragged beloved learned aged tired bored excited interested worried
scared supposed used related based concerned pleased stressed married
""".split())

#: stopwords elsewhere, but what a to-do is made of ("call the bank", "ask Dev")
_KEEP = frozenset({"call", "ask", "update", "look", "book", "pay", "tell", "give", "take", "put", "sort"})

_WORD = re.compile(r"\b[A-Za-zÀ-ÖØ-öø-ÿ][\wÀ-ÖØ-öø-ÿ'’-]*")
_VOWELS = set("aeiouy")


#: acts that report a thing done whatever the thing ("submitted", "sent", "booked", "signed", "sorted")
COMPLETION_ACTS = frozenset({
    "send", "complete", "book", "buy", "pay", "approve", "sort", "handle", "repair", "receive", "renew", "register",
    "confirm", "hand", "ship", "publish", "post", "return", "arrive"})


def lemma(word: str) -> str:
    """The dictionary form of one English word, by table and suffix rules ("wrote" → write, "booked" → book,
    "tables" → table, "running" → run). Unknown words come back lower-cased."""
    w = word.lower().replace("’", "'").strip("'-")
    if w.endswith("'s"):
        w = w[:-2]
    if w in IRREGULAR:
        return IRREGULAR[w]
    if w in NOMINAL:
        return NOMINAL[w]
    if len(w) > 4 and w.endswith(("ies", "ied")):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "ous")):
        return w[:-1]
    for suffix in ("ing", "ed"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix) and w not in _NOT_PAST:
            base = w[: -len(suffix)]
            if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz" and base[-1] not in _VOWELS:
                base = base[:-1]           # shipped → ship, running → run
            elif len(base) >= 6 and base.endswith("ell"):
                base = base[:-1]           # cancelled → cancel, travelled → travel (not called, spelled)
            return base
    return w


def key(word: str) -> str:
    """What two words are compared by: the lemma (one act for verbs that name the same act), no final "e"."""
    base = lemma(word)
    base = SAME_ACT.get(base, SAME_ACT.get(base + "e", base))
    return base[:-1] if len(base) > 3 and base.endswith("e") else base


def is_past(word: str) -> bool:
    """True for a verb in the past tense or a past participle ("sent", "wrote", "booked", "signed")."""
    w = word.lower().replace("’", "'")
    return w in IRREGULAR_PAST or (
        len(w) > 4 and w.endswith("ed") and w not in _NOT_PAST and not w.endswith("eed"))


def content_keys(text: str, *, drop_time: bool = True) -> set[str]:
    """The keys of the words of `text` that carry content (stopwords, numbers and, by default, times left out);
    hyphenated words count per part and as a whole ("sign-off")."""
    out: set[str] = set()
    for token in _WORD.findall(text):
        low = token.lower().replace("’", "'")
        parts = [low] if low in NOMINAL else low.split("-")
        for part in parts:
            if (len(part) < 2 or (drop_time and part in TIME_WORDS)
                    or (part in STOPWORDS and lemma(part) not in _KEEP)
                    or (part.endswith("'s") and part[:-2] in STOPWORDS)):
                continue
            out.add(key(part))
    return out
