"""Currency at recall time: a later statement about the same subject with a different value outranks the earlier one.

Pure functions over texts, event times and scores, fed the best candidates by `retrieve/currency_pass.py`;
`currency_scores` is the entry point. What counts as a value, each way a later statement supersedes, and what
was measured: docs/consolidation.md, "Currency at recall time".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from itertools import repeat

from ..config import CurrencySettings
from ..lang.english import FUNCTION_WORDS, MONTHS, stem
from ..lang.latin import fold_latin
from ..util import clear_on_forget, forgettable, memo_text
from .fts import STOPWORDS

# Words that carry neither subject nor value in a statement: conversational filler and the words people use to
# announce a change (they say a value moved, not what about).
FILLER = frozenset(
    """ok okay yes yeah yep sure right well oh ah hey hi hello thanks thank please got noted understood great cool
    good fine alright sorry just actually now anymore instead still then also really quick update updated updating
    change changed changing plan plans fyi record note remember said say says saying think new old earlier before
    after going gonna let lets make made one thing things bit lot way wait scratch misspoke mean meant rather
    correction correct wrong instead sum short summary recap stand stands where were here there what which who
    mr mrs ms mx dr prof""".split()
)

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_DATES = (
    re.compile(rf"(?<![\w$.,])(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}\b", re.IGNORECASE),  # 14 March, 14th of March
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b(?![.,]?\d)", re.IGNORECASE),          # March 14, Mar 14th
)
# a month named as a whole word: what every date above needs (`_dates`, `may_hold`)
_MONTH_WORD = re.compile(r"\b(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_NUMBER = re.compile(
    r"(?<![\w.])\$?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?"
    r"(?:(?P<k>[kK])\b|\s*(?P<scale>thousand|million|m)\b|(?:st|nd|rd|th)\b)?",
)
_TIME = re.compile(r"(?<![\w.:$])(?P<h>[012]?\d)(?::(?P<m>[0-5]\d)(?:\s*(?P<ap>[ap]\.?m)\b\.?)?|\s*(?P<ap2>[ap]\.?m)\b\.?)(?![\d:])",
                   re.IGNORECASE)  # 8:20, 10:15pm, 7 am (a clock time is no number)
_NUMBER_WORDS = {
    w: i for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split())
}
_NUMBER_WORDS.update({w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)})
_SCALE = {"thousand": 1_000, "million": 1_000_000, "m": 1_000_000}
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d[\d,.]*")
_SENTENCE_START = re.compile(r"(?:^|[.!?;\n]\s*|[\"“(]\s*|(?:^|\s)[A-Z][a-z]+:\s*)$")  # "User: Moving day …"
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’]*|[^\sA-Za-z]+")
_CAPITALISED_WORD = re.compile(r"\b[A-Z][A-Za-z]+\b")
_LOWER_RUN = re.compile(r"[a-z]+")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")


_ASCII_WORD = re.compile(r"\w+")
_MONTH_NAMES = frozenset(MONTHS)


def names_month(text: str) -> bool:
    """`_MONTH_WORD.search(text)`: a month named as a whole word. For an ASCII text, as a set lookup of its
    lower-cased words (a regex of alternatives with IGNORECASE tries each at every position: ~2.5x slower)."""
    if not text.isascii():  # case folding beyond ASCII: the regex's own rules
        return _MONTH_WORD.search(text) is not None
    return not _MONTH_NAMES.isdisjoint(_ASCII_WORD.findall(text.lower()))


def _opens_sentence(text: str, end: int) -> bool:
    """`_SENTENCE_START.search(text[:end])`, reading only the tail a match can start in (the punctuation,
    quote or "Name:" before the trailing whitespace); `^` still matches only at the real start."""
    k = end
    while k > 0 and text[k - 1].isspace():
        k -= 1
    i = k - 2  # "Name:" — back over the lower-case letters before the colon, to the capital and the space before it
    while i >= 0 and "a" <= text[i] <= "z":
        i -= 1
    return _SENTENCE_START.search(text, max(0, i - 1), end) is not None
# Abbreviations whose full stop ends no sentence ("Dr. Okafor", "St. Mary's", "e.g. the follow-up").
_ABBREVIATION = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St|Rd|Ave|Mt|Ft|vs|etc|approx|No|Nos|Co|Inc|Ltd|Jan|Feb|Mar|Apr|"
                           r"Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.|(?:e\.g|i\.e)\.?)(?=\s|$|,)")


@memo_text()
def plain(text: str) -> str:
    """`text` with the full stops of abbreviations turned into spaces and accented Latin letters read as their
    base letters (`lang.latin`; same length): "Dr. Okafor retired." keeps one sentence and one name, "Marília"
    stays one name."""
    text = fold_latin(text)
    if "." not in text:
        return text
    return _ABBREVIATION.sub(lambda m: m.group().replace(".", " "), text)
# Capitalised words that are no names: greetings, time words, weekdays (a weekday is no value: it moves each week).
NOT_NAMES = frozenset(
    """hey hi hello yeah yes yep wow oh btw thanks thank sure last next this that these those every each
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun today
    tomorrow yesterday tonight morning evening afternoon night dear dr mr mrs ms mx prof""".split()
)


def _dates(text: str) -> tuple[set[str], list[tuple[int, int]]]:
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    if not names_month(text):  # no month named: no date (one scan instead of both patterns')
        return found, spans
    for pattern in _DATES:
        for m in pattern.finditer(text):
            day = int(m.group("day"))
            if not 1 <= day <= 31 or any(m.start() < e and s < m.end() for s, e in spans):
                continue
            spans.append(m.span())
            found.add(f"date:{MONTHS[m.group('month').lower()]}-{day}")
    return found, spans


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the characters of `spans` turned into spaces (same length)."""
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _number_value(m: re.Match[str]) -> str:
    number = float(m.group("int").replace(",", "") + (m.group("frac") or ""))
    if m.group("k"):
        number *= 1_000
    elif m.group("scale"):
        number *= _SCALE[m.group("scale").lower()]
    return f"num:{int(number) if number.is_integer() else number}"


# What a number counts, read from the characters around it: money, a share, a ratio, a measure.
_MONEY_BEFORE = re.compile(r"[$£€¥]\s*$")
_UNIT_AFTER = (
    (re.compile(r"\s*(?:[kK]|thousand|million|m)?\s*(?:dollars?|bucks|euros?|pounds? sterling|usd|eur|gbp|yen)\b", re.I),
     "money"),
    (re.compile(r"\s*(?:%|percent\b|per cent\b)", re.I), "percent"),
    (re.compile(r"\s*[/:]\s*\d"), "ratio"),
    (re.compile(r"\s*(?:km|kilomet\w*|miles?|mi|metres?|meters?|m|cm|mm|ft|feet|foot|inch\w*|yards?)\b", re.I),
     "distance"),
    (re.compile(r"\s*(?:kg|kilos?|kilograms?|g|grams?|lbs?|pounds?|stone|oz|ounces?)\b", re.I), "weight"),
    (re.compile(r"\s*(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|nights?|weeks?|wks?|months?|years?|yrs?)\b",
                re.I), "duration"),
    (re.compile(r"\s*(?:°|degrees?\b)", re.I), "degree"),
)


@memo_text()
def number_units(text: str) -> frozenset[tuple[str, str]]:
    """(number value, what it counts) for the numbers of `text` said with a unit: "money" ($, £, €, dollars),
    "percent", "ratio" (8/10, 2:3), "distance", "weight", "duration", "degree". A bare number has none."""
    text = plain(text)
    _, spans = _dates(text)
    spans += [m.span() for m in _TIME.finditer(text)]
    masked = _blank(text, spans)
    out: set[tuple[str, str]] = set()
    for m in _NUMBER.finditer(masked):
        start = m.start()
        if _MONEY_BEFORE.search(masked, max(0, start - 3), start) or "$" in m.group():
            unit: str | None = "money"
        elif start > 1 and masked[start - 1] in "/:" and masked[start - 2].isdigit():
            unit = "ratio"
        else:
            unit = next((u for pattern, u in _UNIT_AFTER if pattern.match(masked, m.end())), None)
            if unit is None and re.fullmatch(r"(?:19|20)\d\d", m.group()):
                unit = "year"  # "in 2024", "March 30, 2024"
        if unit is not None:
            out.add((_number_value(m), unit))
    return frozenset(out)


# A sentence that asks: it ends with a question mark, or asks the listener to do something ("can you …").
_SENTENCE = re.compile(r"(?:[^.!?\n]|\.(?=\d))+[.!?]*")
_REQUEST = re.compile(r"\b(?:can|could|would|will) (?:you|u)\b", re.I)


@memo_text()
def asked_values(text: str) -> frozenset[str]:
    """The values `text` says only in a question or a request ("…, can you help?"): what it asks about, not
    what it states (a value also said in a statement of the same text is stated)."""
    asked: set[str] = set()
    stated: set[str] = set()
    for sentence in _SENTENCE.findall(plain(text)):
        if not sentence.strip():
            continue
        (asked if sentence.rstrip().endswith("?") or _REQUEST.search(sentence) else stated).update(values_in(sentence))
    return frozenset(asked - stated)


def _units(value: str, text: str) -> set[str]:
    """What number `value` counts where `text` says it (`number_units`)."""
    return {u for v, u in number_units(text) if v == value}


def same_unit(a: str, a_text: str, b: str, b_text: str, strict: bool = False) -> bool:
    """Whether value `a` (said in `a_text`) and `b` (in `b_text`) can be values of one thing: not money and a
    share, a ratio and a distance … (a bare number, a date, a name: any; `strict`: bare only with bare)."""
    if not (a.startswith("num:") and b.startswith("num:")):
        return True
    units_a, units_b = _units(a, a_text), _units(b, b_text)
    if strict:
        return units_a == units_b == set() or bool(units_a & units_b)
    return not units_a or not units_b or bool(units_a & units_b)


@memo_text()
def values_in(text: str) -> frozenset[str]:
    """Value-like tokens of `text`: numbers ("num:48000", with k / thousand / million, number words), dates
    ("date:3-14"), clock times ("time:8-20") and capitalised names ("name:jamal": see `names_in`)."""
    text = plain(text)
    values, spans = _dates(text)
    for m in _TIME.finditer(text):
        hour, minute = int(m.group("h")), int(m.group("m") or 0)
        if (m.group("ap") or m.group("ap2") or "").lower().startswith("p") and hour < 12:
            hour += 12
        if hour < 24 and minute < 60 and not any(m.start() < e and s < m.end() for s, e in spans):
            spans.append(m.span())
            values.add(f"time:{hour}-{minute:02d}")
    masked = _blank(text, spans)
    for m in _NUMBER.finditer(masked):
        values.add(_number_value(m))
    for word in _LOWER_RUN.findall(masked.lower()):
        if word in _NUMBER_WORDS and word not in ("one", "zero"):  # "one" is mostly a pronoun
            values.add(f"num:{_NUMBER_WORDS[word]}")
    values.update(f"name:{n}" for n in names_in(masked))
    return frozenset(values)


_NEXT_WORD = re.compile(r"\s+([a-z]+)\b")
_DOER_VERBS = frozenset("is was has had will would can and agreed said".split())


def _names_a_doer(text: str, end: int) -> bool:
    """A sentence's first word followed by a verb of the third person ("Kenji runs …", "Carlos is …") is a name."""
    m = _NEXT_WORD.match(text, end)
    if m is None:
        return False
    word = m.group(1)
    if re.match(r"[.!?]", text[m.end():m.end() + 1]):
        return False  # "Lovely canals.", "Coffee helps?": no doer, a remark
    return word in _DOER_VERBS or (len(word) >= 4 and word.endswith("s") and not word.endswith("ss")
                                   and word not in STOPWORDS and word not in FILLER)


def _unpossessive(word: str) -> str:
    """`word` without a final 's or ’s (what re.sub(r"['’]s$", "", word) does to a token without a newline)."""
    return word[:-2] if word.endswith(("'s", "’s")) else word


def _not_name(word: str) -> bool:
    w = _unpossessive(word.lower())
    return ("'" in w or "’" in w or w in STOPWORDS or w in FILLER or w in NOT_NAMES or w in MONTHS
            or w in _NUMBER_WORDS)


# A run of capitalised words (tokens of `_TOKEN` starting with A-Z, "I" alone excepted) with only spaces between
# them: no other token (a lower-case word, a digit, punctuation, a letter outside A-Z) in between.
_NOT_I = r"(?!I(?![A-Za-z'’]))"
_CAPITALISED_RUN = re.compile(rf"(?<![A-Za-z]){_NOT_I}[A-Z][A-Za-z'’]*(?:\s+{_NOT_I}[A-Z][A-Za-z'’]*)*")
_APOSTROPHES = "'’"


@memo_text()
def names_in(text: str) -> frozenset[str]:
    """Capitalised names, lower-cased: a capitalised word not opening a sentence (and no stop word), or a run
    of two or more anywhere ("Pier Nine Hall"), found by one regex (any other `_TOKEN` token breaks a run)."""
    text = plain(text)
    out: set[str] = set()
    pos = 0
    while (m := _CAPITALISED_RUN.search(text, pos)) is not None:
        start = m.start()
        if start and text[start - 1] in _APOSTROPHES:  # "o'Brien": inside a word that began with a letter before
            k = start - 1
            while k >= 0 and text[k] in _APOSTROPHES:
                k -= 1
            if k >= 0 and ("a" <= text[k] <= "z" or "A" <= text[k] <= "Z"):
                pos = start + len(m.group().split(maxsplit=1)[0])  # the run starts at its next word, if any
                continue
        _add_name(text, m.group().split(), _opens_sentence(text, start) or start == 0, m.end(), out)
        pos = m.end()
    return frozenset(out)


def _add_name(text: str, run: list[str], initial: bool, end: int, out: set[str]) -> None:
    """The name a run of capitalised words (ending at `end`; `initial`: it opens a sentence) gives, into `out`."""
    first = True
    while run and (_not_name(run[0]) or (first and initial and len(run) == 1 and not _names_a_doer(text, end))):
        run = run[1:]  # "Hey Mel" -> "Mel"; "Last Friday" -> nothing; a sentence's lone first word is no name
        first = False
    if run:
        out.add(" ".join(_unpossessive(w.lower()) for w in run if not _not_name(w)))


@dataclass
class Signature:
    """What `supersedes` compares: content-word stems (no stop words, filler or values) and values."""

    words: frozenset[str]
    values: frozenset[str]
    name_words: frozenset[str] = field(default_factory=frozenset)   # stems of the words inside names
    replaced: frozenset[str] = field(default_factory=frozenset)     # values it says no longer hold ("not 12")
    focus: frozenset[str] | None = None   # values said in a clause about the query's subject (None: not computed)
    replaced_words: frozenset[str] = field(default_factory=frozenset)  # words said to no longer hold ("from zellige")
    focus_words: frozenset[str] = field(default_factory=frozenset)     # the words of those clauses
    # (values, words) of each local context (a short sentence, or a phrase of a long one) about the query's subject
    slots: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()

    @property
    def asserted(self) -> frozenset[str]:
        """The values it says hold."""
        return self.values - self.replaced


@memo_text()
def _parts(text: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...], tuple[str, ...]]:
    """What `signature` needs of a text whatever the names known: values, content-word stems, the segments said
    to no longer hold, the capitalised words (lower-cased)."""
    text = plain(text)
    words = frozenset(_content_stems(_WORD.findall(text)))
    segments = tuple(m.group(1) for m in _REPLACED.finditer(text))
    segments += tuple(m.group(1) for m in _DROPPED.finditer(text))
    if may_say_gone(text):
        segments += tuple(m.group(1) for m in _GONE.finditer(text))
    capitalised = tuple(dict.fromkeys(w.lower() for w in _CAPITALISED_WORD.findall(text)))
    return values_in(text), words, segments, capitalised


_NOT_CONTENT = STOPWORDS | FILLER | frozenset(MONTHS) | frozenset(_NUMBER_WORDS)
_TOKEN_STEMS: dict[str, str] = {}  # a `_WORD` token -> its content stem ("": none); see _content_stems
_TOKEN_STEMS_MAX = 200_000


@clear_on_forget
def _forget_token_stems() -> None:
    _TOKEN_STEMS.clear()


def _content_stems(tokens: list[str]) -> set[str]:
    """The content-word stems of `_WORD` tokens (lower-cased, a final 's and edge apostrophes off, alphabetic,
    over two letters, no stop word, filler, month or number word), each distinct token worked out once."""
    stems = _TOKEN_STEMS
    if len(stems) > _TOKEN_STEMS_MAX:
        stems.clear()
    out: set[str] = set()
    for token in set(tokens):
        found = stems.get(token)
        if found is None:
            w = _unpossessive(token.lower()).strip("'’")
            found = stems[token] = stem(w) if w.isalpha() and len(w) > 2 and w not in _NOT_CONTENT else ""
        if found:
            out.add(found)
    return out


def signature(text: str, known_names: frozenset[str] = frozenset()) -> Signature:
    """`known_names`: lower-cased words known to be names (a sentence's first word is one only if known)."""
    capitalised = _parts(text)[3]
    return _signature(text, known_names.intersection(capitalised) if known_names else frozenset())


@memo_text()
def _signature(text: str, known_names: frozenset[str]) -> Signature:
    """`signature`, cached per text and the known names it carries (Signature is never changed in place)."""
    base_values, base_words, segments, capitalised = _parts(text)
    values = set(base_values)
    for word in capitalised:  # a sentence's first word: "Carlos is coaching me."
        if word in known_names and not any(word in v.split() for v in values):
            values.add(f"name:{word}")
    name_words = frozenset(stem(w) for v in values if v.startswith("name:") for w in v[5:].split())
    replaced: set[str] = set()
    replaced_words: set[str] = set()
    for segment in segments:
        replaced_words.update(stem(w.lower()) for w in _WORD.findall(segment) if w.isalpha())
        said = values_in(segment)
        replaced.update(v for v in values if v in said or (
            v.startswith("name:") and re.search(rf"\b{re.escape(v[5:])}\b", segment.lower())))
    return Signature(base_words - name_words, frozenset(values), name_words, frozenset(replaced),
                     replaced_words=frozenset(replaced_words) & base_words)


# What a statement says no longer holds: "not X", "rather than X", "instead of X", "no longer X", "previously: X",
# "(was X)", "X replaces Y", "X in place of Y" (Y a name or a number), "from X to Y" (up to the end of the clause,
# or to the "to").
_REPLACED = re.compile(
    r"(?:\b(?:not|rather than|instead of|no longer|previously:?|from)|\(\s*(?:was|formerly)|"
    r"\b(?:replaces|in place of)(?=\s+(?-i:[A-Z\d$€£])))\s+([^.;!?()\n]*?)"
    r"(?=\s+to\b|[.;!?()\n]|$)", re.IGNORECASE)


# A value dropped by name ("Disregard the $408 a van I gave you, …", "scratch 97 samples, …"): up to the clause's comma.
_DROPPED = re.compile(r"\b(?:disregard|ignore|forget|scratch|scrap)(?:\s+(?:the|that|my))?\s+((?-i:[A-Z\d$€£])[^.;!?()\n,]*)",
                      re.IGNORECASE)


# What a statement says is gone: the words of a clause before "retired", "closed down", "couldn't", "moved to" …
# ("Paws Clinic closed down", "Mateo moved to Spain", "The Copper Pot couldn't seat twelve").
_GONE = re.compile(
    r"(?:^|[.;!?\n:,]\s*|\b(?:but|so|and)\s+)([^.;!?\n:,]{2,60}?)\s+(?:(?:has|had|have|was|were|is|got|just)\s+)?"
    r"(?:retired|closed(?: down)?|shut(?: down)?|moved (?:away|to|abroad)|left|quit|sold|cancell?ed|couldn['’]t|"
    r"could not|can['’]t|double-booked|fell through|ran out|kept running out|stopped|went bust|went under|"
    r"is out|are out|dropped out|pulled out|is off|are off|was full|were full|is full|is booked up|was booked up)\b",
    re.IGNORECASE)
# The words without which `_GONE` cannot match (its verbs, or both words of a two-word one): a cheap pre-test.
_GONE_WORDS = frozenset("retired closed shut moved left quit sold cancelled canceled couldn stopped fell bust full "
                        "booked double".split())
_GONE_PAIRS = (("could", "not"), ("can", "t"), ("went", "under"))
_OUT_WITH = frozenset("is are ran running dropped pulled".split())
_OFF_WITH = frozenset("is are".split())


def may_say_gone(text: str) -> bool:
    """False only when `_GONE` finds nothing in `text` (an ASCII text without its verbs; any other text: True)."""
    if not text.isascii():
        return True
    words = set(_LOWER_RUN.findall(text.lower()))
    return (not _GONE_WORDS.isdisjoint(words) or any(a in words and b in words for a, b in _GONE_PAIRS)
            or ("out" in words and not _OUT_WITH.isdisjoint(words))
            or ("off" in words and not _OFF_WITH.isdisjoint(words)))


_CLAUSE = re.compile(r"(?:[;!?\n]|\.(?!\d))+\s*|\s+[-–—]\s+")  # not the point of "$12.99"


def focused(sig: Signature, text: str, query: Signature, known: frozenset[str] = frozenset(),
            phrase_words: int = 0) -> Signature:
    """`sig` with `focus`, the values said in a local context of `text` (`local_contexts`) naming something
    the query asks about, and `slots`: each such context's values and words."""
    asked = query.words | query.values
    # a value that is no name may be anywhere; a name only where its words are
    any_value = any(not v.startswith("name:") for v in query.values)
    names = [v[5:].split() for v in query.values if v.startswith("name:")]
    focus: set[str] = set()
    words: set[str] = set()
    slots: list[tuple[frozenset[str], frozenset[str]]] = []
    for clause in local_contexts(text, phrase_words):
        if not any_value:  # a clause none of whose words can be asked about is not read (its signature is costly)
            pieces, stems = _pieces(clause)
            if not stems & query.words and not any(all(w in pieces for w in name) for name in names):
                continue
        part = signature(clause, known)
        if (part.words | part.name_words | part.values) & asked:  # "Piano lessons with …" for "… piano?"
            focus.update(part.values)
            words.update(part.words)
            slots.append((part.values & sig.values, part.words))
    return replace(sig, focus=frozenset(focus & sig.values), focus_words=frozenset(words), slots=tuple(slots))


# Where a long sentence's phrases part: a comma (not one inside a number or a date: "$1,950", "March 30, 2024")
# and the conjunctions that start another thing said ("…, but I recently completed 15 problems").
_PHRASE = re.compile(r",\s+(?!\d)|\s+(?:but|so|because|while|whereas|although|though|and then|which)\s+", re.I)


@memo_text()
def local_contexts(text: str, phrase_words: int = 0) -> tuple[str, ...]:
    """The pieces of `text` a value is read with: its sentences (clauses), one of more than `phrase_words`
    content words (0: never) split into its phrases (a long run-on sentence says several things)."""
    out: list[str] = []
    for clause in _CLAUSE.split(plain(text)):
        if phrase_words and _content_count(clause) > phrase_words:
            out += [p for p in _PHRASE.split(clause) if p and p.strip()]
        elif clause.strip():
            out.append(clause)
    return tuple(out)


def _content_count(text: str) -> int:
    return sum(1 for w in _WORD.findall(fold_latin(text)) if w[0].isalpha() and len(w) > 2 and w.lower() not in STOPWORDS)


@memo_text()
def _pieces(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Every lower-case word a signature of `text` can hold a stem of or name a value with, and their stems: a
    superset for `focused` (tokens less a final 's, with and without edge apostrophes; letter runs)."""
    text = fold_latin(text)
    tokens = {_unpossessive(t.lower()) for t in _WORD.findall(text) if t[0].isalpha()}  # each distinct one once
    pieces = frozenset([*tokens, *(t.strip("'’") for t in tokens), *_LOWER_RUN.findall(text.lower())])
    return pieces, frozenset(map(stem, pieces))


def known_names(texts: Sequence[str]) -> frozenset[str]:
    """Words that are names across `texts`: seen capitalised where no sentence starts (so a sentence-opening
    "Carlos" is a name when another text says "your coach: Carlos"), and never in lower case."""
    inner: set[str] = set()
    for text in texts:
        for name in names_in(text):
            inner.update(name.split())
    return frozenset(inner - lower_case_words(texts))


def lower_case_words(texts: Sequence[str]) -> frozenset[str]:
    """Every word written in lower case somewhere in `texts` (a word that is, is no name)."""
    return frozenset().union(*(_lower_words(text) for text in texts))


@memo_text()
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(_LOWER_WORD.findall(fold_latin(text)))


def subject_overlap(a: Signature, b: Signature, weight: Mapping[str, float] | None = None) -> tuple[int, float]:
    """(shared subject items, their weighted share of the smaller side's subject): content words and the names
    both carry (one side's alone is a value). `weight`: per word (default 1), e.g. rarity among candidates."""
    w = weight or {}
    names = _names(a.values) & _names(b.values)
    shared = (a.words & b.words) | names

    def mass(items: Iterable[str]) -> float:
        return sum(map(w.get, items, repeat(1.0)))  # w.get(i, 1.0) for each, in C

    whole = w.total if isinstance(w, Rarity) else mass  # a statement's own words: summed once per recall
    smaller = min(whole(a.words), whole(b.words)) + mass(names)
    return len(shared), (mass(shared) / smaller if smaller else 0.0)


@forgettable
@lru_cache(maxsize=16_384)  # asked of the same value sets for every pair of a recall (a frozenset keeps its hash)
def _names(values: frozenset[str]) -> frozenset[str]:
    return frozenset(v for v in values if v.startswith("name:"))


def supersedes(old: Signature, new: Signature, *, min_shared: int = 1, min_overlap: float = 0.5,
               weight: Mapping[str, float] | None = None, query: Signature | None = None,
               restated: bool = True, anchor: bool = True) -> bool:
    """`new` states a value `old` does not have (a number, date or name) and is about `old`'s subject: at least
    `min_shared` shared subject items making `min_overlap` of the smaller side (weighted by `weight`), or
    (`restated`) it repeats one of `old`'s values that the query does not name ("Ljubljana now rather than
    Tallinn"). With a `query`, what the two share must include something the query asks about (a word or name)."""
    if not new.asserted - old.values:
        return False
    if anchor and query is not None and not (old.words & new.words & query.words or old.values & new.values & query.values):
        return False
    if restated and (old.asserted & new.replaced) - (query.values if query is not None else frozenset()):
        return True
    shared, overlap = subject_overlap(old, new, weight)
    return shared >= min_shared and overlap >= min_overlap


def drop_names(sig: Signature, speakers: set[str], words: frozenset[str] = frozenset()) -> Signature:
    """`sig` without the name values made only of `speakers`' names (or their short forms: "Mel" for Melanie; a
    speaker addressed is no value) or only of `words` (written in lower case elsewhere: "Check", "Art")."""
    if not speakers and not words:
        return sig

    def named(word: str) -> bool:
        return word in words or word in speakers or (len(word) >= 3 and any(n.startswith(word) for n in speakers))

    keep = frozenset(v for v in sig.values if not (v.startswith("name:") and all(named(w) for w in v[5:].split())))
    return replace(sig, values=keep, replaced=sig.replaced & keep)


def common_values(signatures: Sequence[Signature], share: float) -> frozenset[str]:
    """Values that `share` or more of the statements carry (at least three): the topic they share, not a value
    that tells one of them from another."""
    df = Counter(v for sig in signatures for v in sig.values)
    floor = max(3.0, share * len(signatures))
    return frozenset(v for v, c in df.items() if c >= floor)


def as_subject(sig: Signature, topic: frozenset[str]) -> Signature:
    """`sig` with the `topic` values moved from its values to its subject words."""
    if not topic or not sig.values & topic:
        return sig
    return replace(sig, words=sig.words | (sig.values & topic), values=sig.values - topic,
                   replaced=sig.replaced - topic)


_ASKS = (
    (re.compile(r"\b(?:how (?:much|many|long|high|big|far|old|often|low)|what (?:price|budget|number|amount))\b",
                re.I), "num"),
    (re.compile(r"\bwhat(?:'s|’s| is| are| was)? (?:the |my |our |your |his |her |their )?(?:\w+ ){0,2}"
                r"(?:price|budget|cost|rate|salary|rent|dose|dosage|amount|total|fee|weight|count|score)s?\b", re.I), "num"),
    (re.compile(r"\bwhat time\b|\b(?:what|which)\b.*\btime\b", re.I), "time"),
    (re.compile(r"\b(?:when|what (?:day|date)|which (?:day|date))\b", re.I), "date"),
    (re.compile(r"\b(?:who|whom|whose|where)\b", re.I), "name"),
)


_PAST = re.compile(r"\b(?:did|was|were|had|used to|ago|ever)\b", re.I)


_BETWEEN = re.compile(r"\bhow (?:many|much|long)\b.*\bbetween\b|\b(?:days|weeks|months|years|hours)\s+(?:passed\s+)?"
                      r"(?:between|elapsed|had passed|have passed|passed)\b", re.I)


def asks_between(query: str) -> bool:
    """The question asks the time between two events ("How many days are there between when I logged 3,600 words
    and my deadline?"): both events are asked about, the earlier no less than the later."""
    return _BETWEEN.search(query) is not None


def asked_kind(query: str) -> str | None:
    """The kind of value a question asks for: "num" (how much / many / long …), "date" (when, what day), "name"
    (who, where); None for any (what, which, …)."""
    return next((kind for pattern, kind in _ASKS if pattern.search(query)), None)


@dataclass(frozen=True)
class Question:
    """What currency reads of a question, once per recall (`QueryInfo.question`)."""

    text: str
    kind: str | None           # asked_kind
    between: bool              # asks_between
    several: bool              # asks_several
    past: bool                 # asks about the past ("what did she paint"): events, each true at its time
    lower_words: frozenset[str]  # its words in lower case (a word written so is no name)

    @classmethod
    def of(cls, text: str) -> Question:
        return cls(text, asked_kind(text), asks_between(text), asks_several(text), _PAST.search(text) is not None,
                   _lower_words(text))


class Rarity(dict[str, float]):
    """Each subject item's weight; remembers the total weight of each whole word set asked about."""

    def __init__(self, weights: Mapping[str, float]) -> None:
        super().__init__(weights)
        self._totals: dict[int, tuple[frozenset[str], float]] = {}

    def total(self, items: frozenset[str]) -> float:
        known = self._totals.get(id(items))
        if known is None or known[0] is not items:
            known = self._totals[id(items)] = (items, sum(map(self.get, items, repeat(1.0))))
        return known[1]


def rarity(signatures: Sequence[Signature]) -> Rarity:
    """Each subject item's inverse document frequency among `signatures` (log((n + 1) / (df + 0.5)))."""
    df: Counter[str] = Counter()
    for sig in signatures:
        df.update(sig.words | _names(sig.values))  # counted in C
    n = len(signatures)
    return Rarity({item: math.log((n + 1) / (count + 0.5)) for item, count in df.items()})


@dataclass
class Statement:
    """One recall candidate: its text, when it was said (epoch seconds), its score."""

    text: str
    ts: float | None
    score: float
    summary: bool = False   # sums up many turns (an episode): may be superseded, never supersedes
    speaker: str | None = None  # who said it, when it speaks for one person (not for an assistant's turn or a fact)
    session: str | None = None  # a turn's session and position in it (a correction right after: see `adjacent`)
    seq: int | None = None
    assistant: bool = False     # an assistant's turn: it may echo a value, it corrects nothing right after


Params = CurrencySettings
"""The knobs of `currency_scores`: the `currency` group of Config (`Config.currency`; see the fields' descriptions)."""

MARGIN = 1e-4  # a superseded statement scores at least this far below the newest statement that superseded it


def currency_scores(statements: Sequence[Statement], query: str | Question = "", params: Params | None = None, *,
                    ignore_names: Iterable[str] = ()) -> tuple[list[float], dict[int, int]]:
    """New scores for `statements` and, for each one superseded, the index of the newest statement that did it.

    When a later statement (event time; equal and unknown times are left alone) supersedes an earlier one, the
    later one takes at least the earlier one's score (`promote`) and the earlier one goes `MARGIN` below all
    that supersede it; the result does not depend on the order of `statements`. `query`: what was asked (its
    names are the subject, not values); `ignore_names`: names that are never values (the people talking)."""
    p = params or Params()
    asked_q = query if isinstance(query, Question) else Question.of(query)
    query = asked_q.text
    if p.skip_between and query and asked_q.between:
        return [s.score for s in statements], {}
    things = p.things
    texts = [s.text for s in statements]
    names = known_names(texts)
    ignore = {w for n in ignore_names for w in fold_latin(n).lower().split()}
    # "User: Moving day …" names nothing when the query says "moving"
    lower = lower_case_words(texts) | asked_q.lower_words
    names = names - lower
    several = bool(query) and asked_q.several  # "when are my trips?": two answers are no competition
    sigs = [drop_names(signature(s.text, names), ignore, lower) for s in statements]
    topic = common_values(sigs, p.topic_share) if p.topic_share < 1.0 else frozenset()
    sigs = [as_subject(sig, topic) for sig in sigs]
    weight = rarity(sigs)
    query_sig = as_subject(drop_names(signature(query, names), ignore, lower), topic) if query else None
    kind = asked_q.kind if p.typed and query else None
    # a question asking a kind of value reads answers next to their subject (`focused`, costly: only for the
    # statements a pair asks it of); `sigs` stays unfocused (focusing changes no words or values)
    focus_kind = query_sig is not None and bool(kind)

    @cache
    def focus_of(i: int) -> Signature:  # also for a question asking no kind: "which laptop …" answered by a name
        return focused(sigs[i], texts[i], query_sig, names, p.phrase_words) if query_sig is not None else sigs[i]

    def sig_of(i: int) -> Signature:  # sigs[i], focused for a question asking a kind of value
        return focus_of(i) if focus_kind else sigs[i]

    # a number or date many candidates carry ties no two of them ("->-> 1,12" markers, the year everything is in)
    untied = common_values(sigs, p.tie_share) if p.tie_share < 1.0 else frozenset()
    if things and query and asked_q.past:
        things = 0  # "what did she paint": events, each true at its time; no two answers to one question
    n = len(statements)
    by_time = sorted((i for i in range(n) if statements[i].ts is not None),
                     key=lambda i: (-statements[i].ts, i))  # type: ignore[operator]
    superseded_by: dict[int, list[int]] = {}
    answered: set[tuple[int, int]] = set()
    # what the pairs below ask of each text: read when first needed, then looked up here (not in text caches)
    @cache
    def past(i: int) -> bool:
        return tells_history(texts[i])

    @cache
    def changes(i: int) -> bool:
        return announces_change(texts[i])

    @cache
    def short(i: int) -> bool:  # a long request's "not" ("I'm not sure if … November 25") names no value replaced
        return len(texts[i].split()) <= p.named_old_max_words

    @cache
    def asked(i: int) -> frozenset[str]:
        return asked_values(texts[i]) if p.stated else frozenset()

    speakers = [s.speaker for s in statements] if p.by_speaker else [None] * n
    near = p.phrase_words if p.cue_near else None  # `follows_up`: the change word said where the new value is
    # a question asking no kind of value and a statement asserting none: of the rules below only d (`competing_things`)
    # can make it supersede anything; those pairs are tested by `ThingTest`, with the same answers, in a loop of their own
    things_only = ThingTest(sigs, query_sig, things, weight, p.min_overlap) if (
        things and not kind and query_sig is not None and not several) else None
    asserted = [sig.asserted for sig in sigs]
    for pos, new in enumerate(by_time):
        # what it brings is among its values: without one of the kind, nothing (and no need to focus it)
        brings = frozenset(v for v in _answers(sig_of(new)) if v.startswith(kind)) if kind and any(
            v.startswith(kind) for v in sigs[new].values) else frozenset()
        if statements[new].summary or (kind and not brings) or (not kind and not things and not asserted[new]):
            continue  # it cannot supersede anything: a summary, or no value (of the kind asked for) to bring
        new_ts, new_speaker = statements[new].ts, speakers[new]
        if things_only is not None and not asserted[new]:
            if past(new):
                continue
            for old in by_time[pos + 1:]:
                if (statements[old].ts != new_ts and (new_speaker is None or speakers[old] is None
                                                      or speakers[old] == new_speaker)
                        and not past(old) and things_only(old, new)):
                    superseded_by.setdefault(old, []).append(new)
                    answered.add((old, new))
            continue
        for old in by_time[pos + 1:]:
            if statements[old].ts == new_ts:
                continue
            if new_speaker is not None and speakers[old] is not None and speakers[old] != new_speaker:
                continue  # one person's news does not replace another's
            if kind and brings <= sigs[old].values:
                continue  # no new value of the kind asked for
            if past(old) or past(new):
                continue  # "I was 91 kg two years ago", "where I worked back in 2019": history, no correction
            if kind in _NOT_NAMES_ASKED and query_sig is not None and not changes(new) and two_named_things(
                    sigs[old], sigs[new], query_sig):
                continue  # "the Rome trip starts May 4" … "the Oslo trip starts June 20": both true
            if (kind and p.adjacent and corrects(statements[old], statements[new], sigs[old], sigs[new], kind,
                                                 p.adjacent)) or ((not several or changes(new) or (
                    p.named_old and sigs[old].asserted & sigs[new].replaced and short(new))) and supersedes(
                    sigs[old], sigs[new], min_shared=p.min_shared, min_overlap=p.min_overlap, weight=weight,
                    query=query_sig, restated=p.restated, anchor=p.anchor)):
                superseded_by.setdefault(old, []).append(new)
            elif query_sig is not None and not several and ((
                    p.answers and kind and competing_answers(
                        sig_of(old), sig_of(new), query_sig, kind, untied=untied, slot_pairs=p.slot_pairs,
                        best_slot=p.best_slot, texts=(texts[old], texts[new]) if p.units else None,
                        asked=asked(new))) or (
                    kind and p.followups_cued and follows_up(
                        sig_of(old), sig_of(new), texts[new], query_sig, kind, near=near,
                        old_text=texts[old] if p.units else None, asked=asked(new))) or (
                    not kind and p.followups_cued and _names(sigs[new].asserted) and changes(new)
                    and follows_up(focus_of(old), sigs[new], texts[new], query_sig, "name", near=near,
                                   asked=asked(new))) or (
                    things and not kind and competing_things(sigs[old], sigs[new], query_sig, things)
                    and subject_overlap(sigs[old], sigs[new], weight)[1] >= p.min_overlap)):
                superseded_by.setdefault(old, []).append(new)
                answered.add((old, new))  # two answers to the question: no subject of their own to spread along
    if p.propagate:
        # it reads the answers (focused) of the statements that superseded something, the values of the others
        news = {j for js in superseded_by.values() for j in js}
        spread_supersession([sig_of(i) if i in news else sig for i, sig in enumerate(sigs)],
                            [s.ts for s in statements], superseded_by, query_sig, kind, skip=answered, untied=untied)
    scores = [s.score for s in statements]
    if not superseded_by:
        return scores, {}
    claims = list(scores)
    if p.promote:  # oldest first: a statement claims the best score of everything it superseded, through chains
        for old in reversed(by_time):
            for new in superseded_by.get(old, ()):
                claims[new] = max(claims[new], claims[old])
    final = list(claims)
    for i in by_time:  # newest first: every statement superseding i is final already
        if i in superseded_by:
            final[i] = min(claims[i], min(final[j] for j in superseded_by[i]) - MARGIN)
    newest = {old: max(news, key=lambda j: (statements[j].ts, -j)) for old, news in superseded_by.items()}
    return final, newest


def competing_answers(old: Signature, new: Signature, query: Signature, kind: str, *,
                      untied: frozenset[str] = frozenset(), slot_pairs: bool = False, best_slot: bool = False,
                      texts: tuple[str, str] | None = None, asked: frozenset[str] = frozenset()) -> bool:
    """Rule c, two answers to one question: each gives an answer of the `kind` asked for that the other does
    not, both carry a word or name of the query or agree on another value (no name, none in `untied`), and
    the answers are of one thing (their contexts share a word beyond the question's, or the new one's covers
    the question words the old one's had: not "the deck needs 14 slides" … "the two new slides"). See
    docs/consolidation.md, "Narrower slots", for `slot_pairs` (context against context, `Signature.slots`),
    `best_slot` (`answer_slots`), `texts` (numbers count the same: `same_unit`), `asked` (`asked_values`)."""
    subject = query.words | query.values
    agree = {v for v in (old.asserted & new.asserted) - query.values - untied if not v.startswith("name:")}
    if texts is not None:  # a bare number both say ("3", "12") ties nothing: a date, an amount, a measure does
        agree = {v for v in agree if not v.startswith("num:") or _units(v, texts[0]) & _units(v, texts[1])}
    touch = bool((old.words | old.values) & subject and (new.words | new.values) & subject)
    if not (touch or agree):
        return False
    if not agree and slot_pairs and old.slots and new.slots:
        olds: set[str] = set()
        news: set[str] = set()
        for old_values, old_words in answer_slots(old, query, kind) if best_slot else old.slots:
            mine = {v for v in old_values - old.replaced - query.values if v.startswith(kind)}
            if not mine:
                continue
            for new_values, new_words in answer_slots(new, query, kind) if best_slot else new.slots:
                theirs = {v for v in new_values - new.replaced - query.values - asked if v.startswith(kind)}
                if texts is not None:
                    theirs = {b for b in theirs if any(same_unit(a, texts[0], b, texts[1]) for a in mine)}
                if theirs and ((old_words & new_words) - query.words or (old_words & query.words) <= new_words):
                    olds |= mine
                    news |= theirs
        old_answers, new_answers = frozenset(olds), frozenset(news)
    else:
        if not agree and old.focus and new.focus and not (old.focus_words & new.focus_words) - query.words and not (
                (old.focus_words & query.words) <= new.focus_words):
            return False  # their answers are of different things ("the deck needs 14 slides" … "the two new slides")
        old_answers = (old.asserted if old.focus is None or agree else old.focus - old.replaced) - query.values
        new_answers = (new.asserted if new.focus is None or agree else new.focus - new.replaced) - query.values - asked
    if any(v.startswith(kind) for v in old_answers & new.asserted):
        return False  # they agree on an answer ("14 slides" … "13 of the 14 slides are final")
    return (any(v.startswith(kind) for v in old_answers - new.asserted)
            and any(v.startswith(kind) for v in new_answers - old.values))


def answer_slots(sig: Signature, query: Signature, kind: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The local contexts of `sig` with a value of the `kind` asked that name the most of the question's words
    and names ("my reading challenge goal to 12 books", not "my weekly reading pace")."""
    def named(slot: tuple[frozenset[str], frozenset[str]]) -> int:
        return len(slot[1] & query.words) + len(slot[0] & query.values)

    with_kind = [slot for slot in sig.slots if any(v.startswith(kind) for v in slot[0] - query.values)]
    most = max((named(slot) for slot in with_kind), default=0)
    return tuple(slot for slot in with_kind if named(slot) == most)


# A statement about the past: it tells history, it corrects nothing and is corrected by nothing.
_HISTORY = re.compile(r"\b(?:ago|back in|back when|used to|when I was|years back|formerly|my old|our old|"
                      r"(?:in|since|until) (?:19|20)\d\d)\b", re.I)
# Words that announce a change (a value moved), said without the subject's words: "the landlord bumped it up".
_CHANGE_CUE = re.compile(
    r"\b(?:now|anymore|any more|from now on|instead|switch\w*|chang\w*|moved|moving|push\w*|slip\w*|bump\w*|"
    r"rais\w*|went up|gone up|go up|goes up|up to|down to|lower\w*|reduc\w*|increas\w*|doubl\w*|halv\w*|cut|"
    r"resched\w*|cancel\w*|clos\w*|retir\w*|took over|taken over|replac\w*|stopped|no longer|forget|actually|"
    r"updat\w*|revis\w*|ended up|went with|going with|settled on|booked|signed up|registered|report to|again|"
    r"turns out|turned out|promot\w*|put (?:me|us|it|him|her|them) (?:on|at|up|down)|"
    r"mis-?spoke|correct(?:ing)? myself|correction|typo'?d|came out wrong|(?:got|had) (?:it|that|this) wrong|"
    r"too (?:much|many|expensive|far|early|late|high|low|long|short))\b", re.I)
# Words that point back at something said before: pronouns, and "the" with a word for a value ("the target").
_REFERS_BACK = re.compile(r"\b(?:it|its|it's|that|that one|this one|they|them|he|she|him|her|the same|"
                          r"the (?:target|goal|figure|number|amount|total|limit|plan|date|deadline|price|budget))\b",
                          re.I)
_NOT_NAMES_ASKED = ("num", "date", "time")


_SEVERAL = re.compile(r"\b(?:the|my|our|your|his|her|their|both|all|each|which|what)\s+(?:[\w'’]+\s+){0,2}?([a-z]+[^s\W'’]s)\b"
                      r"(?![\s\w]*\bhow many\b)", re.I)


def asks_several(query: str) -> bool:
    """The question asks about several things (a plural after a determiner, not what "how many" counts): "when are
    my trips?", "how much do my subscriptions cost?" — two answers may both hold."""
    counted = {m.group(1).lower() for m in re.finditer(r"\bhow many\s+(\w+)", query, re.I)}
    return any(plural_noun(m.group(1).lower()) and m.group(1).lower() not in counted for m in _SEVERAL.finditer(query))


def plural_noun(word: str) -> bool:
    """A word in -s that may be a plural noun: not a function word ("this", "his", "does"), not a verb a question puts
    there ("starts"), not a singular in -us or -is ("campus", "thesis")."""
    return word not in FUNCTION_WORDS and word not in _VERBS_IN_S and not word.endswith(("us", "is"))


# Verbs of the third person a question puts after "what" or "the …" ("what time does …", "the school starts …").
_VERBS_IN_S = frozenset("""does goes has was is gets needs costs starts ends takes makes comes lives works runs plays
    means opens closes leaves arrives fills happens stays pays uses wants likes""".split())


@memo_text()
def tells_history(text: str) -> bool:
    """It tells the past: "I was 91 kg two years ago", "where I worked back in 2019"."""
    return _HISTORY.search(text) is not None


@memo_text()
def announces_change(text: str) -> bool:
    """It has a word that says a value moved ("bumped it up", "switched", "now", "instead")."""
    return _CHANGE_CUE.search(plain(text)) is not None


def two_named_things(old: Signature, new: Signature, query: Signature) -> bool:
    """Each names something of its own (not a name the question carries) and neither says the other's no
    longer holds: "Maya goes to bed at 7:30" … "Leo goes to bed at 8:30"."""
    old_own = _names(old.asserted) - new.values - query.values
    new_own = _names(new.asserted) - old.values - query.values
    return bool(old_own and new_own) and not (old_own & new.replaced)


def follows_up(old: Signature, new: Signature, new_text: str, query: Signature, kind: str,
               near: int | None = None, old_text: str | None = None, asked: frozenset[str] = frozenset()) -> bool:
    """Rule f, a change in other words ("The landlord bumped it up, we're paying $1,950" after "Rent on the
    flat is $1,800"): a new answer of the `kind` asked for, a change word, and a word referring back or shared
    with the earlier answer or the question (docs/consolidation.md, "Currency at recall time"); the caller
    keeps it to one speaker. `near`: the change word and the tie must be said in the new value's local context
    (`local_contexts`); `old_text`: the new value must count what an old one does (`same_unit`, strictly);
    `asked`: values the new statement only asks about (`asked_values`) are no new answers."""
    if not old.focus or not announces_change(new_text):
        return False
    old_answers = {v for v in old.focus - old.replaced - query.values if v.startswith(kind)}
    new_answers = {v for v in new.asserted - query.values - asked if v.startswith(kind)}
    if near is not None and new_answers:
        new_answers &= changed_values(new_text, near)
    if old_text is not None:
        new_answers = {b for b in new_answers if any(same_unit(a, old_text, b, new_text, strict=True)
                                                     for a in old_answers)}
    if not old_answers - new.asserted or not new_answers - old.values:
        return False
    if near is not None:  # what ties the change to the old answer is said where the change is
        contexts = [part for part in changed_contexts(new_text, near) if values_in(part) & new_answers]
        words = frozenset().union(*(_parts(part)[1] for part in contexts))
        names = frozenset().union(*(_names(values_in(part)) for part in contexts))
        shared = (old.words & words) | (_names(old.values) & names) | (words & query.words)
        return bool(shared) or any(_REFERS_BACK.search(part) for part in contexts)
    shared = (old.words & new.words) | (_names(old.values) & _names(new.values)) | (new.words & query.words)
    return bool(shared) or bool(_REFERS_BACK.search(new_text))


@memo_text()
def changed_contexts(text: str, phrase_words: int) -> tuple[str, ...]:
    """The local contexts of `text` (`local_contexts`) with a word announcing a change; the whole of a short text
    (at most `phrase_words` content words: "The landlord bumped it up. We pay $1,950.")."""
    if phrase_words and _content_count(text) <= phrase_words:
        return (text,)
    return tuple(part for part in local_contexts(text, phrase_words) if announces_change(part))


@memo_text()
def changed_values(text: str, phrase_words: int) -> frozenset[str]:
    """The values said where `text` announces a change (`changed_contexts`)."""
    return frozenset().union(*(values_in(part) for part in changed_contexts(text, phrase_words)))


def competing_things(old: Signature, new: Signature, query: Signature, min_shared: int = 2) -> bool:
    """Rule d, for a question asking no kind of value ("which tile …"): both share at least `min_shared` of
    its words or names, and each has words of its own besides (the thing named: "penny tile" … "slate")."""
    if len((old.words & new.words & query.words) | (old.values & new.values & query.values)) < min_shared:
        return False
    old_own = (old.words - new.words - query.words) | (old.words & new.replaced_words - query.words)
    return bool(new.words - old.words - query.words) and bool(old_own)


class ThingTest:
    """Rule d for any pair of a recall's statements: `competing_things(sigs[old], sigs[new], query, min_shared)` and
    `subject_overlap(sigs[old], sigs[new], weight)[1] >= min_overlap`, with what each statement brings worked out
    once: its words, values and words said to no longer hold as the bits of an int (one bit a distinct string: a
    pair's `competing_things` is a few integer operations instead of seven set operations), its names and the total
    weight of its words. The same answer, pair for pair, and the same overlap to the last bit (tests/test_currency.py
    holds it to the two functions).

    Every pair's answer is worked out at once (`_table`): the bits as 0/1 matrices, the shared counts and the
    weighted overlaps as matrix products; a pair whose overlap comes within `OVERLAP_TOLERANCE` of `min_overlap`
    (summed in another order, it may differ in the last bits) is decided by `overlap`, as `subject_overlap` would."""

    OVERLAP_TOLERANCE = 1e-9  # the weights are positive: two orders of one sum differ by ~1e-15 of it

    def __init__(self, sigs: Sequence[Signature], query: Signature, min_shared: int, weight: Rarity,
                 min_overlap: float) -> None:
        index: dict[str, int] = {}

        def bits(items: Iterable[str]) -> int:
            out = 0
            for item in items:
                out |= 1 << index.setdefault(item, len(index))
            return out

        self.min_shared, self.min_overlap, self.weight = min_shared, min_overlap, weight
        self.query_words, self.query_values = bits(query.words), bits(query.values)
        self.sigs = sigs
        self.words = [bits(s.words) for s in sigs]
        self.values = [bits(s.values) for s in sigs]
        self.replaced_words = [bits(s.replaced_words) for s in sigs]
        self.names = [_names(s.values) for s in sigs]
        self.totals = [weight.total(s.words) for s in sigs]
        self.strings = list(index)  # bit i is strings[i]
        self._passes = self._table()

    def __call__(self, old: int, new: int) -> bool:
        if self._passes is not None:
            return self._passes[old][new]
        return self.competing(old, new) and self.overlap(old, new) >= self.min_overlap

    def _table(self) -> list[list[bool]] | None:
        """`self(old, new)` for every pair, by matrices; None when a string is both a word and a value somewhere
        (then the union of shared words and shared values is not the sum of their counts: `competing` decides)."""
        import numpy as np

        words_all = self.query_words
        for bits in self.words:
            words_all |= bits
        values_all = self.query_values
        for bits in self.values:
            values_all |= bits
        if words_all & values_all:
            return None
        n, width = len(self.sigs), len(self.strings)
        size = max(1, (width + 7) // 8)

        def matrix(rows: Sequence[int]) -> np.ndarray:
            raw = np.frombuffer(b"".join(r.to_bytes(size, "little") for r in rows), np.uint8).reshape(len(rows), size)
            return np.unpackbits(raw, axis=1, bitorder="little")[:, :width].astype(np.float64)

        words, values, replaced = matrix(self.words), matrix(self.values), matrix(self.replaced_words)
        query_words, query_values = matrix([self.query_words])[0], matrix([self.query_values])[0]
        asked_words, asked_values = words * query_words, values * query_values
        shared = asked_words @ asked_words.T + asked_values @ asked_values.T
        own = words * (1.0 - query_words)  # words the query does not say
        # own_left[o, x]: words of o's own that x does not have (`competing`'s `old.words - new.words - query.words`)
        own_left = own.sum(axis=1)[:, None] - own @ words.T > 0
        competing = (shared >= self.min_shared) & own_left.T & (own_left | (own @ replaced.T > 0))
        weights = np.array([self.weight.get(item, 1.0) for item in self.strings], np.float64)
        names = values * np.array([item.startswith("name:") for item in self.strings], np.float64)
        shared_names = (names * weights) @ names.T
        totals = np.asarray(self.totals, np.float64)
        smaller = np.minimum(totals[:, None], totals[None, :]) + shared_names
        mass = (words * weights) @ words.T + shared_names
        overlap = np.divide(mass, smaller, out=np.zeros((n, n)), where=smaller > 0)
        tolerance = self.OVERLAP_TOLERANCE
        passes = competing & (overlap >= self.min_overlap + tolerance) & (smaller > tolerance)
        unsure = competing & ~passes & ((overlap >= self.min_overlap - tolerance) | (smaller <= tolerance))
        for old, new in zip(*np.nonzero(unsure), strict=True):
            passes[old, new] = self.overlap(int(old), int(new)) >= self.min_overlap
        table: list[list[bool]] = passes.tolist()
        return table

    def competing(self, old: int, new: int) -> bool:
        """`competing_things(sigs[old], sigs[new], query, min_shared)`."""
        words, q = self.words, self.query_words
        shared = (words[old] & words[new] & q) | (self.values[old] & self.values[new] & self.query_values)
        if shared.bit_count() < self.min_shared:
            return False
        old_own = (words[old] & ~words[new] & ~q) | (words[old] & self.replaced_words[new] & ~q)
        return bool(words[new] & ~words[old] & ~q) and bool(old_own)

    def overlap(self, old: int, new: int) -> float:
        """`subject_overlap(sigs[old], sigs[new], weight)[1]`: the same sets summed in the same order."""
        get = self.weight.get
        names = self.names[old] & self.names[new]
        shared = (self.sigs[old].words & self.sigs[new].words) | names
        smaller = min(self.totals[old], self.totals[new]) + sum(map(get, names, repeat(1.0)))
        return sum(map(get, shared, repeat(1.0))) / smaller if smaller else 0.0


def _answers(sig: Signature) -> frozenset[str]:
    """The values it gives as answers: those said next to the query's subject, else all it asserts."""
    return sig.focus - sig.replaced if sig.focus else sig.asserted


_CORRECTION_WORDS = 3


def corrects(old: Statement, new: Statement, old_sig: Signature, new_sig: Signature, kind: str, reach: int) -> bool:
    """A correction right after (rule e): `new` comes at most `reach` turns after `old` in the same session
    and swaps an answer of the `kind` asked for, saying little else ("Actually no, Larkfield Manor")."""
    if old.session is None or old.session != new.session or old.seq is None or new.seq is None or new.assistant:
        return False  # an assistant's reply ("Lovely canals.") corrects nothing
    if not 0 < new.seq - old.seq <= reach or len(new_sig.words - old_sig.words) > _CORRECTION_WORDS:
        return False  # a correction says little besides the new value: "Actually no, Larkfield Manor."
    return (any(v.startswith(kind) for v in old_sig.asserted - new_sig.asserted)
            and any(v.startswith(kind) for v in new_sig.asserted - old_sig.values))


# What a value of each kind needs in any piece of a text (pieces part at punctuation or spaces, never inside a
# word): a month named as a whole word, a digit, a number word but "one" and "zero".
_DIGIT = re.compile(r"\d")
_COUNTING_WORDS = frozenset(w for w in _NUMBER_WORDS if w not in ("one", "zero"))


def may_hold(kind: str, text: str) -> bool:
    """Whether `text` (or any clause or phrase of it) can hold a value of `kind` ("date", "time", "num"; any other
    kind: True): False only when `values_in` of it and of every piece of it has none. A cheap test, no reading."""
    if kind == "date":
        return names_month(text)
    if kind == "time":
        return _DIGIT.search(text) is not None
    if kind == "num":
        return _DIGIT.search(text) is not None or not _COUNTING_WORDS.isdisjoint(_LOWER_RUN.findall(text.lower()))
    return True


def gives_answer(kind: str | None, text: str) -> bool:
    """Whether `text` says a value of `kind` (any kind when None): an answer a correction may follow."""
    return any(kind is None or v.startswith(f"{kind}:") for v in values_in(text))


def subject_terms(text: str, kind: str) -> list[str]:
    """The words next to a value of `kind` in `text`, in lower case: what it is the value of ("the talk date:
    November 24" → talk, date). Names, filler and stop words left out."""
    out: list[str] = []
    for clause in _CLAUSE.split(plain(text)):
        if not any(v.startswith(kind) for v in values_in(clause)):
            continue
        for word in _WORD.findall(clause):
            w = word.lower()
            if (word[0].isalpha() and word[0].islower() and len(w) > 2 and w not in STOPWORDS and w not in FILLER
                    and w not in MONTHS and w not in _NUMBER_WORDS and w not in NOT_NAMES):
                out.append(w)
        if kind == "name":  # a later mention of the name itself: "Dr. Okafor retired", "Paws Clinic closed down"
            out += [w for v in values_in(clause) if v.startswith("name:") for w in v[5:].split() if len(w) > 2]
    return list(dict.fromkeys(out))


def followup_seeds(statements: Sequence[Statement], query: Question, limit: int
                   ) -> list[tuple[float, list[str]]]:
    """For the `limit` best statements giving an answer of the kind the query asks for: (when said, the words
    of what it is the value of), to look for later statements about the same thing that no leg found."""
    kind = query.kind
    if not kind or limit <= 0:
        return []
    out: list[tuple[float, list[str]]] = []
    for st in sorted(statements, key=lambda s: -s.score):
        if st.ts is None or st.summary:
            continue
        terms = subject_terms(st.text, kind)
        if terms:
            out.append((st.ts, terms))
            if len(out) == limit:
                break
    return out


def spread_supersession(sigs: Sequence[Signature], times: Sequence[float | None], superseded_by: dict[int, list[int]],
                        query: Signature | None = None, kind: str | None = None,
                        skip: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
                        untied: frozenset[str] = frozenset()) -> None:
    """A value once replaced is stale wherever it was said before: when `new` supersedes `old`, each earlier
    statement carrying one of `old`'s values of a kind `new` brings a new one of (the `kind` asked, if any;
    not one the query names), and none of `new`'s, is superseded by `new` too (an acknowledgement, a recap),
    and so on from those; not from the pairs in `skip`, nor along a value in `untied` ("2024"). In place."""
    asked = (query.values if query is not None else frozenset()) | untied
    queue = [(old, new) for old, news in superseded_by.items() for new in news if (old, new) not in skip]
    while queue:
        old, new = queue.pop()
        brought = _answers(sigs[new]) - sigs[old].values
        kinds = {v.split(":", 1)[0] for v in brought} & ({kind} if kind else {"num", "date", "time", "name"})
        stale = {v for v in sigs[old].asserted - asked - sigs[new].asserted if v.split(":", 1)[0] in kinds}
        when = times[new]
        if not stale or when is None:
            continue
        for other, sig in enumerate(sigs):
            t = times[other]
            if other in (old, new) or t is None or t >= when or not sig.values & stale or sig.values & brought:
                continue
            if new not in superseded_by.setdefault(other, []):
                superseded_by[other].append(new)
                queue.append((other, new))
