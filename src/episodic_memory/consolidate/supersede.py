"""Does a new statement change the value of something an earlier fact stated? (No LLM.)

A fact is read as a slot: its subject (content words, names included) and its values (numbers and amounts,
dates, names); see docs/consolidation.md, "Corrections without cue words: slots".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..heuristics import rule_on
from ..lang.english import MONTHS, stem
from ..util import memo_text
from .words import NOT_NAMES

_I = re.IGNORECASE
CHANGE_CUE = re.compile(
    r"^(?:actually|correction|sorry|wait|oops|my (?:bad|mistake)|i meant|to correct|update\s*[:—–-]|scratch|"
    r"change of plans?|quick correction|small correction|revision)\b|"
    r"\b(?:misspoke|mis-spoke|scratch (?:that|what i said)|change of plans?|plans? (?:have |has )?changed|correction|"
    r"(?:is|are|was|were) (?:now|no longer)|now (?:rather than|instead of)|instead|rather than|no longer|not anymore|"
    r"(?:moved|pushed|bumped|shifted|changed|switched|brought) (?:[\w'’-]+ ){0,4}?(?:to|from|up|back|out|forward)|"
    r"rescheduled|postponed|delayed|updated|revised|after all|turns out|"
    r"(?:has|have) (?:gone|grown|dropped|risen|fallen) to|wrong (?:one|number|date|name|figure|place|day)|"
    r"(?:got|had) (?:that|it|this) wrong|gave you the wrong|(?:that|i) was wrong|that'?s wrong|let me correct|"
    r"i meant to say|make that|on second thought|changed (?:our|my) minds?|(?:ignore|forget|disregard) what i said|"
    r"strike that|replaced (?:by|with)|swapped (?:for|to)|it'?s actually|my earlier)\b|^no,\s|"
    r"(?<!\bfor )(?<!\bright )(?<!\bjust )(?<!\bby )(?<!\buntil )(?<!\btill )\bnow(?=\s*(?:[,.;!—–]|$))", _I)
_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE_A = re.compile(rf"\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORDS})\b\.?", _I)
_DATE_B = re.compile(rf"\b({_MONTH_WORDS})\.?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\b(?![.,]?\d)", _I)
_AMOUNT = re.compile(r"(?<![\w.])[€$£]?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(k\b|m\b|thousand\b|million\b)?", _I)
_NAME = re.compile(r"(?<![\w'])[A-Z][\w'’&-]*(?:\s+(?:[A-Z][\w'’&-]*|&))*")
_WORD = re.compile(r"[^\W\d_][\w'’-]+")
# "Pablo is running comms", "Kenji runs the panel": a sentence-initial capital that acts is a name
_ACTS = re.compile(
    r"\s+(?:is|was|has|had|will|would|can|'s|’s|runs|owns|leads|writes|handles|manages|does|did|joined|left|wants|"
    r"needs|said|says|took|takes|sent|signed|approved|agreed|asked|offered|coordinates|covers|works|\w+ed)\b")
# "17, not 16", "Ljubljana rather than Tallinn", "instead of X", "no longer X", "Zdeněk (was Dohyun)", "Melisande
# replaces Pavlina", "Skatt & Co in place of Kamphuis" (a name or a number after it: "replaces the boiler" is no value)
_REPLACED = re.compile(
    r"(?:,?\s+not\s+|\brather than\s+|\binstead of\s+|\bno longer\s+(?:is\s+|at\s+|in\s+|on\s+)?|\bnot\s+the\s+|"
    r"\(\s*(?:was|formerly|previously:?)\s+|\b(?:replaces|in place of)\s+(?=(?-i:[A-Z\d$€£])))"
    r"((?:the\s+)?[\w€$£%.,'’&-]+(?:\s+[\w€$£%'’&-]+){0,3}?)(?=\s*(?:[—–;.!,)]|\s-\s|$|\s+(?:as|any|anymore|though|"
    r"now|after|like|but|and)\b))", _I)
STOP = frozenset((
    "a an the and or but so of to in on at for by with from into onto over about as is are was were be been being am "
    "it it's its this that these those there here i i'm i've i'll i'd me my mine we we're we've we'll our ours you "
    "your he she they them their his her its not no yes just also really very now then than rather instead "
    "actually correction sorry wait oops scratch misspoke said earlier update updated plan plans change changed "
    "moved pushed after all turns out still anyway though again quick small news ok okay well going will would can "
    "could should has have had do does did get got one two three four five six seven eight nine ten about roughly "
    "around approximately some what which who when where how mean meant say saying told tell before previously new "
    "old longer lately today yesterday tomorrow every each more less much many up down out off"
).split())


def _stem(word: str) -> str:
    """The word's Snowball stem cut to five letters: a typo late in a word ("trainnig") keeps its stem."""
    return stem(word)[:5]


def _number(m: re.Match[str]) -> float:
    value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
    scale = (m.group(3) or "").lower()
    return value * {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get(scale, 1.0)


# Head nouns that name a kind of value, not what it belongs to.
GENERIC = frozenset(_stem(w) for w in (
    "date day time number price cost amount name place thing value figure total stuff details info".split()))


@dataclass
class Slot:
    subject: set[str] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    dates: set[tuple[int, int]] = field(default_factory=set)
    names: set[str] = field(default_factory=set)

    def empty(self) -> bool:
        return not (self.numbers or self.dates or self.names)

    def values(self, *others: Slot) -> Slot:
        """A new Slot of this one's values and `others'` (no subject): a cached Slot is never changed."""
        return Slot(numbers=self.numbers.union(*(o.numbers for o in others)),
                    dates=self.dates.union(*(o.dates for o in others)),
                    names=self.names.union(*(o.names for o in others)))


@memo_text()
def read_slot(text: str) -> Slot:
    """The subject words and the values of a statement. Cached (an earlier fact is compared with every new
    candidate): the Slot returned is shared, never change it."""
    slot = Slot()
    rest = text
    for pattern, order in ((_DATE_A, (2, 1)), (_DATE_B, (1, 2))):
        for m in pattern.finditer(rest):
            day = int(m.group(order[1]))
            if 1 <= day <= 31:
                slot.dates.add((MONTHS[m.group(order[0]).lower()], day))
        rest = pattern.sub(" ", rest)
    for m in _AMOUNT.finditer(rest):
        slot.numbers.add(_number(m))
    for m in _NAME.finditer(rest):
        words = [w for w in m.group(0).split() if w.lower().strip("'’") not in STOP and w.lower() not in MONTHS
                 and w.lower().strip("'’") not in NOT_NAMES]
        before = rest[: m.start()].rstrip(" \"'(“‘")
        if not words:
            continue
        if (not before or before[-1] in ".!?:;—–-") and len(m.group(0).split()) == 1 and not (
                _ACTS.match(rest, m.end()) and words[0].lower() not in NOT_NAMES):
            continue  # a capital that only starts a sentence names nothing (unless a person or firm acts)
        slot.names.add(" ".join(words).lower().removesuffix("'s").removesuffix("’s"))
    slot.subject = {_stem(w) for w in _WORD.findall(rest.lower()) if w not in STOP and w not in MONTHS
                    and len(w) > 2}
    return slot


def same_name(name: str, others: set[str]) -> bool:
    """"tomás" and "tomás ferreira" are one name (one's words within the other's)."""
    words = set(name.split())
    return any(words <= set(o.split()) or set(o.split()) <= words for o in others)


# "we went from $300 to $450", "moved from April 28 to May 26": the value before "to" is the old one
_FROM_TO = re.compile(r"\bfrom\s+((?:the\s+)?[\w€$£%.,'’&-]+(?:\s+[\w€$£%'’&-]+){0,3}?)\s+to\s+\S", _I)


@memo_text()
def replaced_values(text: str) -> Slot:
    """The values a statement names as the old ones: "17, not 16" → 16; "X rather than Tallinn" → Tallinn; "from
    $300 to $450" → 300 (a number or date only: "from cron to Airflow" names a move, not a wrong value).
    Cached like `read_slot`: never change the Slot returned."""
    out = _named_wrong(text)
    for m in _FROM_TO.finditer(text):
        _add_values(out, m.group(1), names=False)
    return out


def bare_name_correction(said: str) -> bool:
    """A correction naming the name it replaces ("…, not Owain"): one that is too short or too plain to keep
    alone still changes the fact holding that name (`facts.bare_name_correction`)."""
    return rule_on("facts.bare_name_correction") and bool(replaced_values(said).names)


def _add_values(out: Slot, raw: str, *, names: bool = True, subject: bool = False) -> None:
    """Adds to `out` the numbers and dates of a value as said, with `names` its names (a capitalised value
    `read_slot` reads no name in, alone: "Bengaluru." is a sentence's first word to it), with `subject` its words."""
    part = read_slot(" " + raw)
    out.numbers |= part.numbers
    out.dates |= part.dates
    if names:
        bare = raw.strip(" .,;:!?'’\"")
        out.names |= part.names or ({bare.lower()} if bare[:1].isupper() else set())
    if subject:
        out.subject |= part.subject


# what a value named as wrong starts with: a determiner, or a digit, a currency sign or a capital ("not 16",
# "rather than Tallinn", "not a global value ETF"); "I'm not doing more for Dad" negates a doing, names no value
_VALUE_FIRST = re.compile(r"(?:the|a|an|my|our|their|his|her)\s|(?:any\s?more\s+)?[\d€$£A-Z]")


def _named_wrong(text: str) -> Slot:
    """The values a statement names as wrong ("17, not 16", "X rather than Tallinn"): a change cue of its own."""
    out = Slot()
    for m in _REPLACED.finditer(text):
        if not rule_on("facts.wrong_value_first") or _VALUE_FIRST.match(m.group(1)):
            _add_values(out, m.group(1), subject=True)
    return out


# "wants the chart moved to slide 3", "suggested we push it to May": a wish or a proposal, not a change
# within one clause: "…needs 16 slides, not 14 - Sarah changed it" reports a change made, not one wished for
WISH = re.compile(
    r"\b(?:wants?|wanted|asked|asks|would like|'d like|needs?|should|could|might|suggest(?:s|ed)?|propos(?:es|ed)|"
    r"hoping|hopes?|wish(?:es)?)\b(?:(?!\s[-—–]\s|[.;!?,—–]).)*?\b(?:moved|pushed|changed|switched|bumped|shifted|"
    r"rescheduled|postponed|instead|rather than)\b", _I)


def has_change_cue(text: str) -> bool:
    """A change cue, or a value named as the wrong one ("Pegasus, not Clifton"); a wish ("wants it moved to …")
    is none."""
    if rule_on("facts.wish") and WISH.search(text):
        return False
    return bool(CHANGE_CUE.search(text)) or not _named_wrong(text).empty()


def old_values_named(answer: str, said: str) -> Slot:
    """The values an answer to a change names as the old ones: numbers and dates it says that the statement does
    not ("Got it - 16, not 14."), and any value it marks as the replaced one (even one the statement says)."""
    a, s = read_slot(answer), read_slot(said)
    wrong = named_old_values(answer, True)
    return Slot(numbers=(a.numbers - s.numbers) | wrong.numbers, dates=(a.dates - s.dates) | wrong.dates,
                names={n for n in wrong.names if not same_name(n, s.names)})


# what a statement or an answer marks as the value replaced, besides `replaced_values`: "Shazia, never Harpreet",
# "Union Kitchen Share (was Hearthside Commissary)", "Abacuspad replaces Quillbooks", "swapped 25 April out for …"
_MARKED_OLD = re.compile(
    r"(?:,\s*never\s+|\(\s*was\s+|\breplaces\s+|\bswapped\s+)"
    r"((?:the\s+)?[\w€$£%.,'’&-]+(?:\s+[\w€$£%'’&-]+){0,3}?)(?=\s*(?:[—–;.!,)]|\s-\s|$|\s+(?:out|for|now|and|but)\b))", _I)


def named_old_values(text: str, changing: bool) -> Slot:
    """The values `text` marks as the replaced ones: `replaced_values`, the marks of `_MARKED_OLD`, and when
    `changing` (said or taken as a change) the names in "from X to Y" too."""
    out = replaced_values(text).values()
    parts = [m.group(1) for m in _MARKED_OLD.finditer(text)]
    if changing:
        parts += [m.group(1) for m in _FROM_TO.finditer(text)]
    for raw in parts:
        _add_values(out, raw)
    return out


def holds_any(values: Slot, text: str) -> bool:
    """`text` states one of `values`."""
    o = read_slot(text)
    return bool(values.numbers & o.numbers or values.dates & o.dates or any(same_name(n, o.names) for n in values.names))


def values_differ(new: str, old: str) -> bool:
    """Both name a value of one kind (a number, a date, a name) and `new`'s are not `old`'s: "the plot costs £112"
    is not "the plot costs £60" said again, however alike the words."""
    a, b = read_slot(new), read_slot(old)
    return bool((a.numbers and b.numbers and a.numbers != b.numbers) or (a.dates and b.dates and a.dates != b.dates)
                or (a.names and b.names and not any(same_name(n, b.names) for n in a.names)))


def is_bare_cue(text: str) -> bool:
    """A change cue with nothing else in it ("Wait, I gave you the wrong one."): it marks the next sentence."""
    slot = read_slot(text)
    return slot.empty() and len(slot.subject - {"gav", "wrong", "got", "had", "one"}) <= 1


@dataclass(frozen=True)
class SlotMatch:
    changes: bool        # a different value for the same subject
    score: float         # how surely it is the same slot (for choosing among earlier facts)


def compare(new: str, old: str, *, cued: bool, min_overlap: float, cued_overlap: float, near: bool = False,
            similar: bool = False) -> SlotMatch:
    """Whether `new` gives a different value for what `old` stated. `near` (said in the same session) and
    `similar` (close in meaning): a cued change of a number or date needs no shared words when near or similar,
    of a name only when similar (a person and an event are both names)."""
    a, b = read_slot(new), read_slot(old)
    gone = replaced_values(new)
    a_values = Slot(a.subject, a.numbers - gone.numbers, a.dates - gone.dates, a.names - gone.names)
    novel_names = {n for n in a_values.names - b.names if not same_name(n, b.names)}
    old_names = {n for n in b.names - a_values.names if not same_name(n, a_values.names)}
    name_words = {_stem(w) for n in novel_names | old_names for w in n.split()}
    subj_a, subj_b = a.subject - name_words - gone.subject, b.subject - name_words
    shared = subj_a & subj_b - GENERIC  # "the talk date" and "the offsite date" share no subject
    overlap = len(shared) / max(1, min(len(subj_a), len(subj_b)))
    named_wrong = bool((gone.numbers & b.numbers) or (gone.dates & b.dates) or (gone.names & b.names)
                       or (gone.subject and gone.subject <= b.subject and not gone.subject <= subj_a))
    measure_differs = bool(
        (a_values.numbers and b.numbers and not a_values.numbers <= b.numbers)
        or (a_values.dates and b.dates and not a_values.dates <= b.dates))
    name_differs = bool(novel_names and old_names)
    differs = measure_differs or name_differs
    if named_wrong and cued:
        return SlotMatch(True, 2.0 + overlap)
    if cued and differs and (overlap >= cued_overlap or len(subj_a) <= 1 or similar
                             or (near and measure_differs and len(subj_a) <= 2)):
        return SlotMatch(True, 1.0 + overlap)
    # a cued change of a thing ("the tiles are slate now" after "the tiles are marble"): same frame, other words
    if cued and (len(shared) >= 2 or (shared and (overlap >= 0.5 or similar))) and overlap >= cued_overlap and (
            subj_a - subj_b) and (subj_b - subj_a):
        return SlotMatch(True, 0.5 + overlap)
    if measure_differs and overlap >= min_overlap and len(shared) >= 2:
        return SlotMatch(True, 1.0 + overlap)
    dice = 2 * len(shared) / max(1, len(subj_a) + len(subj_b))  # a name change must share the frame on both sides
    if name_differs and dice >= min_overlap and len(shared) >= 2:
        return SlotMatch(True, 1.0 + overlap)
    return SlotMatch(False, overlap)


def rewrite_value(new: str, old: str) -> str | None:
    """A bare correction ("Actually it's 14 not 12.") restated in the old fact's words with the new value: the
    old fact with the named-wrong value replaced. None when that cannot be done plainly."""
    gone = _REPLACED.search(new)
    if gone is None:
        return None
    wrong = gone.group(1).strip(" ,.")
    head = new[: gone.start()]
    right = re.findall(r"[€$£]?\d[\d,.]*\s*(?:k|m)?\b|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*", head)
    right = [r for r in (_without_leading_stop_words(r) for r in right) if r]
    if not right or not re.search(rf"(?<![\w]){re.escape(wrong)}(?![\w])", old, _I):
        return None
    return re.sub(rf"(?<![\w]){re.escape(wrong)}(?![\w])", right[-1], old, count=1, flags=_I)


_ARTICLES = frozenset(("the", "a", "an"))


def _without_leading_stop_words(run: str) -> str:
    """A capitalised run without the stop words it opens with, an article aside ("It's Alasdair" → "Alasdair",
    "The Plaza" kept); "" for a run of stop words ("The", "It's")."""
    words = run.split()
    while len(words) > 1 and words[0].lower().replace("’", "'") in STOP and words[0].lower() not in _ARTICLES:
        words = words[1:]
    kept = " ".join(words)
    return "" if kept.lower().replace("’", "'") in STOP else kept



#: what the pair model (learned.py) reads about a new statement and an earlier fact (`supersedes_features`)
SUPERSEDES_FEATURES = ("cosine", "best_cosine", "cosine_margin", "subject_overlap", "shared_subject", "jaccard",
                       "both_numbers", "numbers_differ", "both_dates", "dates_differ", "both_names", "names_differ",
                       "named_wrong", "new_has_value", "old_has_value", "change", "same_session", "age_days",
                       "thread_cosine", "has_thread", "frame_cosine", "frame_margin")


def frame(text: str) -> str:
    """A statement with its values blanked ("The deck needs 14 slides" → "The deck needs a number slides"): what a
    value is *of*. Two statements of one slot share a frame whatever their values; two of one entity need not."""
    out = text
    for pattern in (_DATE_A, _DATE_B):
        out = pattern.sub(" a date ", out)
    out = _AMOUNT.sub(" a number ", out)
    for name in sorted(read_slot(text).names, key=len, reverse=True):
        out = re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", "someone", out, flags=_I)
    return " ".join(out.split())


def supersedes_features(new: str, old: str, *, cosine: float, best_other: float, change: float,
                        same_session: bool, age_days: float, thread_cosine: float | None = None,
                        frame_cosine: float = 0.0, frame_best_other: float = 0.0) -> np.ndarray:
    """How a new statement and an earlier fact meet as one slot with two values (`SUPERSEDES_FEATURES`).
    `best_other`: its highest cosine with any other candidate fact."""
    a, b = read_slot(new), read_slot(old)
    gone = replaced_values(new)
    numbers, dates, names = a.numbers - gone.numbers, a.dates - gone.dates, a.names - gone.names
    novel = {n for n in names - b.names if not same_name(n, b.names)}
    old_only = {n for n in b.names - names if not same_name(n, names)}
    name_words = {w for n in novel | old_only for w in n.split()}
    subj_a = {w for w in a.subject - gone.subject if w not in name_words}
    subj_b = {w for w in b.subject if w not in name_words}
    shared = subj_a & subj_b - GENERIC
    union = subj_a | subj_b
    named_wrong = bool((gone.numbers & b.numbers) or (gone.dates & b.dates) or (gone.names & b.names))
    return np.array([
        cosine, float(cosine >= best_other), cosine - best_other,
        len(shared) / max(1, min(len(subj_a), len(subj_b))), min(4, len(shared)) / 4,
        len(shared) / max(1, len(union)),
        float(bool(numbers and b.numbers)), float(bool(numbers and b.numbers and not numbers <= b.numbers)),
        float(bool(dates and b.dates)), float(bool(dates and b.dates and not dates <= b.dates)),
        float(bool(names and b.names)), float(bool(novel and old_only)),
        float(named_wrong), float(not a.empty()), float(not b.empty()), change, float(same_session),
        min(1.0, np.log1p(max(0.0, age_days)) / 5),
        0.0 if thread_cosine is None else thread_cosine, float(thread_cosine is not None),
        frame_cosine, frame_cosine - frame_best_other,
    ], np.float32)
