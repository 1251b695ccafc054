"""Words without a model: sentences, content-word stems, keyphrases and a hashed bag-of-words vector.

Used by episodes (extractive summaries, keyphrases), workstreams (names without an LLM, similarity without an
embedder) and open loops (rules, duplicate and evidence matching). Deterministic and dependency-free.
"""

from __future__ import annotations

import math
import re
import threading
import zlib
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..util import clear_on_forget, forgettable, memo_text
from .words import SENTENCE_ADVERBS

STOPWORDS = frozenset("""
a about above after again against all almost also am an and another any anyone anything are around as at away
back be because been before being below between both but by can cannot could did do does doing done down during
each either else enough even ever every few for from further get gets getting go goes going gone got had has have
having he her here hers herself him himself his how however i if in into is it its itself just let lets like
made make makes many may me might mine more most much must my myself need needs no nor not now of off oh ok okay
on once one only onto or other others our ours ourselves out over own per perhaps please quite rather really
same say says said see she should since so some something still such sure than thank thanks that the their
theirs them themselves then there these they thing things think this those though through thus to today too
under until up upon us very via want wants was way we well were what whatever when where whether which while
who whom whose why will with within without would yes yeah yet you your yours yourself yourselves hi hey hello
great good nice cool fine sounds sound right alright anyway maybe bit lot lots pretty actually basically
i'm i'll i've i'd you're you'll you've we're we'll we've they're it's that's there's let's don't doesn't didn't
can't won't isn't aren't wasn't weren't haven't hasn't hadn't wouldn't shouldn't couldn't what's here's
we'd you'd they'd he'd she'd it'd that'd there'd who'd gotta gonna wanna lol haha hmm yep nope bye
first second last next new old big small little quick quickly soon later already always never often usually
thing stuff kind sort able via etc ask asks asked tell told know knew known mean means meant put keep kept
come comes came take takes took give gives gave look looks looked seem seems seemed feel feels felt try tried
use used using work works worked talk talked call called day days week weeks month months year years time times
morning afternoon evening tonight tomorrow yesterday noted logged remind reminder reminders update updates
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april june july august september october november december jan feb mar apr jun jul aug
sep sept oct nov dec
""".split())

#: words that carry a time, not a topic (dropped when comparing what two sentences are about)
TIME_WORDS = frozenset("""
today tonight tomorrow yesterday morning afternoon evening night noon eod eow week weekend month year next last
this end monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december jan feb mar apr jun jul
aug sep sept oct nov dec
""".split())

_IRREGULAR = {
    "sent": "send", "did": "do", "done": "do", "made": "make", "came": "come", "went": "go", "gone": "go",
    "took": "take", "taken": "take", "got": "get", "gotten": "get", "gave": "give", "given": "give",
    "bought": "buy", "brought": "bring", "thought": "think", "told": "tell", "said": "say", "paid": "pay",
    "wrote": "write", "written": "write", "spoke": "speak", "spoken": "speak", "met": "meet", "left": "leave",
    "kept": "keep", "built": "build", "ran": "run", "began": "begin", "begun": "begin", "chose": "choose",
    "chosen": "choose", "found": "find", "held": "hold", "knew": "know", "known": "know", "saw": "see",
    "seen": "see", "shipped": "ship", "decision": "decid", "decisions": "decid", "approval": "approv",
    "series": "series", "species": "species", "news": "news", "analytics": "analytics", "this": "this",
}

#: verbs and fillers that end a phrase run but are too common in conversation to be content on their own
_PHRASE_STOP = frozenset("""
decided decide proposed propose confirmed confirm agreed agree suggested suggest mentioned discussed updated update
running unless due plus uses use two three four five six seven eight nine ten eleven twelve
fifteen twenty hundred thousand half including include includes included based needed wanted sorry happy glad
""".split()) | SENTENCE_ADVERBS

_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][\wÀ-ÖØ-öø-ÿ'’-]*|\d[\d.,:%]*[A-Za-z€$%]*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“(]?[A-Z0-9À-Ö])")
_BULLET = re.compile(r"^\s*(?:[-*•·▸]|\d{1,2}[.)])\s+")
_PHRASE_BREAK = re.compile(r"[,;:()\[\]\"“”!?…/]|\s[-–—→]\s|\.(?=\s|$)")
#: a capitalised word followed by one of these is probably a person ("Sarah wants", "Dev proposed")
_PERSON_VERBS = frozenset("""
says said wants wanted thinks thought asked confirmed proposed spoke owns owned suggested agreed mentioned
told replied likes prefers
""".split())


def sentences(text: str) -> list[str]:
    """Sentences and bullet lines of `text`, bullets stripped, empty ones dropped; a bracketed note stays."""
    return list(_sentences(text))


@memo_text()
def _sentences(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for line in text.splitlines():
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        out.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return tuple(out)


def words(text: str) -> list[str]:
    """Word tokens as written (case kept)."""
    return list(_words(text))


@memo_text()
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text))


@memo_text(longest=64)
def stem(word: str) -> str:
    """A light stemmer: enough that "sent"/"send", "booked"/"book", "tables"/"table" meet."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.strip("'-")
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 3 and w.endswith("sses"):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def content_stems(text: str, *, drop_time: bool = False) -> list[str]:
    """Stems of the words that carry content (no stopwords, no bare numbers); hyphenated words count per part."""
    return list(_content_stems(text, drop_time))


@memo_text()
def _content_stems(text: str, drop_time: bool) -> tuple[str, ...]:
    out = []
    for token in _words(text):
        for part in token.split("-"):
            low = part.lower().replace("’", "'")
            if len(low) < 2 or low in STOPWORDS or low[0].isdigit() or (drop_time and low in TIME_WORDS):
                continue
            out.append(stem(low))
    return tuple(out)


def overlap(a: Iterable[str], b: Iterable[str]) -> tuple[int, float]:
    """(shared stems, shared / size of the smaller set): how much two short texts are about the same thing."""
    sa, sb = set(a), set(b)
    if not sa or not sb:
        return 0, 0.0
    shared = len(sa & sb)
    return shared, shared / min(len(sa), len(sb))


def lexical_vector(texts: Iterable[str], dim: int = 1024) -> np.ndarray | None:
    """A hashed, sublinear bag of content-word stems, L2-normalised (None when there are no content words):
    the thread vector without an embedder, whose cosines run lower (`Config.workstreams.attach_lexical`)."""
    counts = Counter(s for text in texts for s in content_stems(text))
    if not counts:
        return None
    vec = np.zeros(dim, np.float32)
    for s, n in counts.items():
        vec[zlib.crc32(s.encode()) % dim] += 1.0 + math.log(n)
    return vec / np.linalg.norm(vec)


@memo_text()
def _runs(sentence: str) -> tuple[tuple[str, ...], ...]:
    """Maximal runs of content words, broken at punctuation and stopwords."""
    runs: list[list[str]] = []
    for chunk in _PHRASE_BREAK.split(sentence):
        run: list[str] = []
        for token in _words(chunk):
            low = token.lower().replace("’", "'")
            if (low in STOPWORDS or low in _PHRASE_STOP or low[0].isdigit()
                    or len(low) < 2 and not token.isupper()):
                if run:
                    runs.append(run)
                run = []
            else:
                run.append(token)
        if run:
            runs.append(run)
    return tuple(tuple(run) for run in runs)


def phrase_key(phrase: str) -> str:
    return " ".join(stem(w) for w in phrase.lower().split())


def keyphrases(texts: Sequence[str], names: Iterable[str] = (), limit: int = 8) -> list[tuple[str, str, float]]:
    """The phrases `texts` keep coming back to: [(as written, normalised key, score)], best first. Multi-word
    phrases are favoured, people (`names`, `_people_in`) pushed down. When `texts` go on from a recent call's
    (same names, no new person), only the new sentences are read, into that call's tallies (see `_Tally`)."""
    texts = list(texts)
    named = frozenset(n.lower() for n in names)
    tally = _take_tally(texts, named)
    if tally is not None:
        fresh = [s for text in texts[len(tally.texts):] for s in sentences(text)]
        if not tally.people.issuperset(p for sentence in fresh for p in _people_in(sentence)):
            tally = None   # someone new: the earlier sentences may split otherwise, so all are read again
    if tally is None:
        fresh = [s for text in texts for s in sentences(text)]
        everyone = named.union(p for sentence in fresh for p in _people_in(sentence))
        tally = _Tally((), named, everyone, Counter(), {}, Counter())
    people = tally.people
    counts, forms, word_freq = tally.counts, tally.forms, tally.word_freq
    for sentence in fresh:
        # only the people named in the sentence split it: its phrases are read once, however many people come
        for stems, phrase, key in _sentence_phrases(sentence, _run_words(sentence) & people):
            word_freq.update(stems)
            if not key:
                continue
            counts[key] += 1
            forms.setdefault(key, Counter())[phrase] += 1
    tally.texts = tuple(texts)
    _keep_tally(tally)
    base: dict[str, float] = {}
    for key, n in counts.items():
        parts = key.split()
        score = n * (1.0 + 0.6 * (len(parts) - 1)) + 0.1 * sum(word_freq[p] for p in parts) / len(parts)
        if len(parts) == 1 and (key in people or forms[key].most_common(1)[0][0].lower() in people):
            score *= 0.3
        base[key] = score
    # a phrase also gets half the credit of the shorter phrases inside it ("deck" → "Series B deck")
    scored = [(key, round(score + 0.5 * sum(base.get(k, 0.0) for k in _inner(key)), 3))
              for key, score in base.items()]
    scored.sort(key=lambda x: (-x[1], x[0]))
    return [(_display(forms[key]), key, score) for key, score in _distinct(scored, limit)]   # only the kept shown


@dataclass
class _Tally:
    """What `keyphrases` counted over `texts` (the same counters, filled in the same order, as one pass over
    them all): kept for the next call, which usually brings the same texts and a few more."""
    texts: tuple[str, ...]
    names: frozenset[str]
    people: frozenset[str]
    counts: Counter[str]
    forms: dict[str, Counter[str]]
    word_freq: Counter[str]


_TALLIES: OrderedDict[tuple[str, frozenset[str]], _Tally] = OrderedDict()
_TALLIES_LOCK = threading.Lock()
TALLIES_KEPT = 64              # sessions whose tallies are kept (the latest)
TALLY_MAX_CHARS = 200_000      # a session longer than this is read whole each time (at most ~13 MB kept in all)


@clear_on_forget
def _forget_tallies() -> None:
    with _TALLIES_LOCK:
        _TALLIES.clear()


def _take_tally(texts: list[str], names: frozenset[str]) -> _Tally | None:
    """The kept tally of a call whose texts `texts` go on from, taken out (so one caller owns it), or None."""
    if not texts:
        return None
    with _TALLIES_LOCK:
        tally = _TALLIES.pop((texts[0], names), None)
    if tally is None or len(tally.texts) > len(texts) or tuple(texts[: len(tally.texts)]) != tally.texts:
        return None
    return tally


def _keep_tally(tally: _Tally) -> None:
    if not tally.texts or TALLIES_KEPT <= 0 or sum(len(t) for t in tally.texts) > TALLY_MAX_CHARS:
        return
    with _TALLIES_LOCK:
        _TALLIES[(tally.texts[0], tally.names)] = tally
        _TALLIES.move_to_end((tally.texts[0], tally.names))
        while len(_TALLIES) > TALLIES_KEPT:
            _TALLIES.popitem(last=False)


@memo_text()
def _people_in(sentence: str) -> tuple[str, ...]:
    """Capitalised words a sentence shows to be people: followed by a verb like "wants", or with a possessive."""
    tokens = _words(sentence)
    out = []
    for i, token in enumerate(tokens):
        nxt = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if token[:1].isupper() and (nxt in _PERSON_VERBS or token.endswith(("'s", "’s"))):
            out.append(_bare(token).lower())
    return tuple(out)


@memo_text()
def _run_words(sentence: str) -> frozenset[str]:
    """The words of a sentence's phrase runs as `_split_at_people` compares them with people."""
    return frozenset(_bare(t).lower() for run in _runs(sentence) for t in run)


@memo_text()
def _sentence_phrases(sentence: str, people: frozenset[str]) -> tuple[tuple[tuple[str, ...], str, str], ...]:
    """A sentence's phrase runs, split at `people`: (the stems of the run's words, the phrase, its key) each."""
    out = []
    for run in _split_at_people(_runs(sentence), set(people)):
        while len(run) > 1 and run[-1].lower().endswith(("ed", "ing")) and len(run[-1]) > 4:
            run = run[:-1]   # "export failed", "table signed": a verb, not part of the thing
        if len(run) > 3:
            run = run[-3:]   # English noun phrases end in their head: keep the tail
        phrase = " ".join(run)
        out.append((tuple(stem(token) for token in run), phrase, phrase_key(phrase)))
    return tuple(out)


@forgettable
@lru_cache(maxsize=16_384)
def _inner(key: str) -> tuple[str, ...]:
    """The shorter phrases inside a phrase key ("series b deck" → "series", "b", "deck", "series b", "b deck")."""
    parts = key.split()
    return tuple({" ".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)} - {key})


def _split_at_people(runs: Iterable[Sequence[str]], people: set[str]) -> list[list[str]]:
    """A person inside a run splits it ("uses Sarah's split churn" → "uses", "Sarah", "split churn")."""
    out: list[list[str]] = []
    for run in runs:
        current: list[str] = []
        for token in (_bare(t) for t in run):
            if token.lower() in people:
                if current:
                    out.append(current)
                out.append([token])
                current = []
            else:
                current.append(token)
        if current:
            out.append(current)
    return out


def _bare(token: str) -> str:
    return token.removesuffix("'s").removesuffix("’s")


def _display(forms: Counter[str]) -> str:
    """The most frequent way a phrase was written; lower-case unless it is a name or an acronym everywhere."""
    form = forms.most_common(1)[0][0]
    tokens = form.split()
    if all(t[:1].isupper() for t in tokens) and not any(f.split()[0].islower() for f in forms):
        return form
    return " ".join(t if (t[:1].isupper() and any(c.isupper() for c in t[1:])) or _proper(t, forms) else t.lower()
                    for t in tokens)


def _proper(token: str, forms: Counter[str]) -> bool:
    """A word capitalised in every form it appears in (a name: "Airflow", "Series B")."""
    return all(token in f.split() for f in forms) and token[:1].isupper()


def _distinct(scored: list[tuple[str, float]], limit: int) -> list[tuple[str, float]]:
    """Drop a phrase whose words are all inside a better-scored one ("deck" under "Series B deck")."""
    kept: list[tuple[str, float]] = []
    kept_words: list[set[str]] = []
    for item in scored:
        words_ = set(item[0].split())
        if any(words_ <= k for k in kept_words):
            continue
        kept.append(item)
        kept_words.append(words_)
        if len(kept) == limit:
            break
    return kept
