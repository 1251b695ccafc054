"""A cheap query analyser (regex and lexicon, microseconds): query type, names the store knows, time phrases."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from functools import cached_property
from typing import Any, Generic, TypeVar, overload

from ..lang.english import MONTHS, WEEKDAYS
from ..store.scripts import has_script, script_of
from ..util import memo_text
from . import fts
from .coverage import is_list_question
from .currency import Question
from .fts import STOPWORDS, Lookup, any_of, query_terms, words_and_terms
from .timing import query_phase

_TEMPORAL = re.compile(
    r"\b(when|what (?:date|day|year|month|time)|how long|how many (?:days|weeks|months|years)|since when|"
    r"before|after|during|ago|yesterday|today|last (?:week|month|year|night|time)|first time|recently)\b",
    re.I,
)
_REASONING = re.compile(
    r"\b(why|would|could|might|likely|probably|feel|feels|felt|think|thinks|opinion|consider|reason|"
    r"what kind|what type|what sort|describe|personality|attitude)\b",
    re.I,
)
_EXACT = re.compile(r"\"[^\"]+\"|'[^']+'|\b\d[\d.,:/-]*\b")
_KINDS = (("temporal", _TEMPORAL), ("exact", _EXACT), ("reasoning", _REASONING))  # in the order tried
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH_YEAR = re.compile(rf"\b({_MONTH_WORDS})\.?,?(?:\s+(19\d\d|20\d\d))?\b", re.I)
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORDS})\.?,?\s+(19\d\d|20\d\d)\b", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH_WORDS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(19\d\d|20\d\d)\b", re.I)
_ISO_DAY = re.compile(r"\b(19\d\d|20\d\d)-(\d\d)-(\d\d)\b")
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "couple of": 2, "a few": 3, "few": 3, "several": 4}
_COUNT = r"(\d+|" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")"
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_AGO = re.compile(rf"\b{_COUNT}\s+(day|week|month|year)s?\s+ago\b", re.I)
# "in the past two weeks", "over the last few days", "the past month": a window that ends now
_PAST_N = re.compile(rf"\bthe\s+(?:last|past)\s+(?:{_COUNT}\s+)?(day|week|month|year)s?\b(?!\s+of\b)", re.I)
_WEEKDAY = re.compile(r"\b(last|past|this|next|on)\s+(" + "|".join(WEEKDAYS) + r")\b(?!s)", re.I)
_CALENDAR = re.compile(r"\b(?:(earlier|later)\s+)?(last|this|next)\s+(week|weekend|month|year)\b", re.I)
_WEEK_BEFORE_LAST = re.compile(r"\b(?:the\s+)?(week|month|year)\s+before\s+last\b", re.I)
_DAY_WORDS: list[tuple[re.Pattern[str], int]] = [  # a day named relative to today: offset in days
    (re.compile(r"\bthe\s+day\s+before\s+yesterday\b", re.I), -2),
    (re.compile(r"\bthe\s+day\s+after\s+tomorrow\b", re.I), 2),
    (re.compile(r"\b(?:yesterday|last\s+night)\b", re.I), -1),
    (re.compile(r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b", re.I), 0),
    (re.compile(r"\btomorrow\b", re.I), 1),
]
_DAY = timedelta(days=1)
_STEP = {"last": -1, "this": 0, "next": 1}
_T = TypeVar("_T")


class _once(Generic[_T]):
    """A property read from the query's text alone, worked out at its first use and kept where the analysis's copies
    for other names (`QueryInfo.for_names`) find it too: a recall over several scopes works it out once."""

    def __init__(self, read: Callable[[QueryInfo], _T]) -> None:
        self.read, self.name, self.__doc__ = read, read.__name__, read.__doc__

    @overload
    def __get__(self, info: None, owner: type | None = None) -> _once[_T]: ...
    @overload
    def __get__(self, info: QueryInfo, owner: type | None = None) -> _T: ...
    def __get__(self, info: QueryInfo | None, owner: type | None = None) -> _T | _once[_T]:
        if info is None:  # read from the class (help, docs): the property itself
            return self
        if self.name not in info._kept:
            info._kept[self.name] = self.read(info)
        value: _T = info._kept[self.name]
        return value


@dataclass(frozen=True)
class QueryInfo:
    """What the analyser found in a query, once per recall: the fields by `analyze`, the properties (what only
    some passes need) at their first use, kept across the scopes the recall reads (`for_names`)."""

    text: str
    kind: str                                   # temporal | reasoning | exact | general
    terms: tuple[str, ...]                      # what the BM25 legs search for (`fts.query_terms`)
    names: tuple[str, ...] = ()                 # known names mentioned (as stored)
    time_range: tuple[float, float] | None = None         # epoch seconds [start, end)
    phase: str | None = None                              # asks about an end, a start or both (retrieve/timing.py)
    script: str = "spaced"                                # spaced | unsegmented | mixed (store/scripts.py script_of)
    # every word, stop words kept, a run of Chinese, … as its pairs (query_terms(keep_stopwords=True,
    # singles=False)): what names are matched against; None: read from the text when needed
    words: tuple[str, ...] | None = None
    _kept: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # the `_once` properties' values

    def for_names(self, known: Iterable[str]) -> QueryInfo:
        """This analysis with the names found among `known` (another scope's speakers) in place of its own, all
        else as it is: the words already read are matched against them (`find_names`), nothing is read again."""
        names = tuple(find_names(self.text, known, self.words))
        return self if names == self.names else replace(self, names=names)

    @_once
    def match(self) -> str | None:
        """The BM25 legs' FTS5 expression: the terms OR-ed (`fts.fts_query` of the text)."""
        return any_of(self.terms)

    @_once
    def lookups(self) -> list[Lookup]:
        """What the query may be looking up exactly (`fts.lookups`; retrieve/exact.py)."""
        return fts.lookups(self.text)

    @_once
    def whole_forms(self) -> str | None:
        """Its identifiers and quoted phrases whole, OR-ed into the BM25 leg (`fts.whole_forms`)."""
        return fts.whole_forms(self.lookups)

    @cached_property
    def dense_text(self) -> str:
        """The text the dense leg embeds when names stay out of it (`strip_names`)."""
        return strip_names(self.text, self.names, self.words)

    @_once
    def list_question(self) -> bool:
        """It asks for several things of a kind (retrieve/coverage.py `is_list_question`)."""
        return is_list_question(self.text)

    @_once
    def question(self) -> Question:
        """What the currency pass reads of it: the kind of value asked, a time between, several answers, the past."""
        return Question.of(self.text)


def classify(text: str) -> str:
    return next((kind for kind, pattern in _KINDS if pattern.search(text)), "general")


def find_names(text: str, known: Iterable[str], words: Iterable[str] | None = None) -> list[str]:
    """Known names mentioned in `text`, as whole words, case-insensitively (not by capital letters); `words`:
    the text's (`QueryInfo.words`), if read already. A name in a script without spaces (`王小明`) is matched as a
    substring of two characters or more: there is no word boundary to match at."""
    words = set(query_terms(text, keep_stopwords=True, singles=False) if words is None else words)
    lowered = text.lower()
    folded: str | None = None
    found = []
    for name in known:
        parts = _name_words(name)
        if not parts:
            continue
        if (parts[0] in words if len(parts) == 1
                else " ".join(parts) in lowered or (parts[0] in words and len(parts[0]) > 2)):
            found.append(name)
        elif has_script(name) and len(name.strip()) >= 2:
            folded = _folded(text) if folded is None else folded
            if _folded(name.strip()) in folded:
                found.append(name)
    return found


@memo_text()
def _name_words(name: str) -> tuple[str, ...]:
    """A known name's words as `find_names` matches them: read once while the name is in use, not every recall."""
    return tuple(query_terms(name, keep_stopwords=True, singles=False))


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def strip_names(text: str, names: Sequence[str], words: Iterable[str] | None = None) -> str:
    """`text` without the given names (whole words, any case, with a possessive 's, as `find_names` finds
    them); `text` itself if only stopwords would be left ("Who is Caroline?"). `words`: `QueryInfo.words`."""
    out = text
    for name in names:
        if has_script(name):
            out = re.sub(re.escape(name.strip()), " ", out, flags=re.I)
            continue
        out = re.sub(rf"\b{re.escape(name)}(?:['’]s|s['’])?(?!\w)", " ", out, flags=re.I)
    out = re.sub(r"\s+", " ", out).strip()
    left = query_terms(out, keep_stopwords=True) if names or words is None else words
    return out if any(w not in STOPWORDS for w in left) else text


def _month_range(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=timezone.utc)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=timezone.utc)
    return start, end


def time_range(text: str, now: datetime | None = None) -> tuple[float, float] | None:
    """The period a query's time phrase points at, resolved against `now` (default: the wall clock), in UTC.

    Absolute: "9 November 2022", "May 2023", "in 2022". Relative to now: "yesterday", "today", "the day before
    yesterday", "last/this/next week|weekend|month|year", "earlier this month", "the week before last", "3 days
    ago", "a few weeks ago", "in the past two weeks", "last Friday", "on Monday", "in May" / "last May" (the most
    recent May not after now; "last May" said in May is a year back). Calendar weeks start on Monday.
    """
    now = now or datetime.now(timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    try:
        span = _span(text, now.astimezone(timezone.utc))
    except (OverflowError, ValueError):  # a phrase that points outside the years 1–9999
        return None
    return None if span is None else (span[0].timestamp(), span[1].timestamp())


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _WORD_NUMBERS[word]


def _span(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    lowered = text.lower()
    day0 = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week0 = day0 - timedelta(days=day0.weekday())  # this week's Monday
    month0 = day0.replace(day=1)
    year0 = month0.replace(month=1)
    if day := _specific_day(text):
        return day - _DAY, day + 2 * _DAY
    if m := _AGO.search(lowered):
        days = _UNIT_DAYS[m.group(2)] * _count(m.group(1))
        centre = now - timedelta(days=days)
        slack = timedelta(days=max(1.0, days * 0.25))
        return centre - slack, centre + slack
    if m := _PAST_N.search(lowered):  # a window ending now: "in the past two weeks"
        days = _UNIT_DAYS[m.group(2)] * (_count(m.group(1)) if m.group(1) else 1)
        return now - timedelta(days=days) - _DAY, now + _DAY
    for pattern, offset in _DAY_WORDS:
        if pattern.search(lowered):
            start = day0 + timedelta(days=offset)
            return start, start + _DAY
    if m := _WEEKDAY.search(lowered):
        return _weekday(m.group(1), WEEKDAYS[m.group(2)], day0, week0)
    if m := _WEEK_BEFORE_LAST.search(lowered):
        return _calendar(None, -2, m.group(1), now, week0, month0, year0)
    named = _named_month(text, lowered)
    if m := _CALENDAR.search(lowered):
        if m.group(3) == "year" and named and named[1] is None:  # "in May last year"
            return _month_range(year0.year + _STEP[m.group(2)], named[0])
        return _calendar(m.group(1), _STEP[m.group(2)], m.group(3), now, week0, month0, year0)
    if named:
        month, year, last = named
        if year is None:  # "in May": the most recent May not after now; "last May", said in May, is a year back
            year = now.year - (month > now.month or (month == now.month and last))
        return _month_range(year, month)
    if year_match := _YEAR.search(text):
        year = int(year_match.group(1))
        return datetime(year, 1, 1, tzinfo=timezone.utc), datetime(year + 1, 1, 1, tzinfo=timezone.utc)
    return None


def _named_month(text: str, lowered: str) -> tuple[int, int | None, bool] | None:
    """The first month named (not the modal "may"): (month, its year if given, said as "last <month>")."""
    for m in _MONTH_YEAR.finditer(text):
        word, year = m.group(1).lower(), m.group(2)
        if word == "may" and not year and not re.search(r"\b(last|in|of|this|early|late|mid|since)\s+may\b", lowered):
            continue  # the modal verb
        last = re.search(r"\blast\s+$", lowered[max(0, m.start() - 6) : m.start()]) is not None
        return MONTHS[word], None if year is None else int(year), last
    return None


def _add_months(first: datetime, months: int) -> datetime:
    """The first of the month `months` after (or before) `first`, itself the first of a month."""
    index = first.year * 12 + first.month - 1 + months
    return first.replace(year=index // 12, month=index % 12 + 1)


def _weekday(which: str, weekday: int, day0: datetime, week0: datetime) -> tuple[datetime, datetime]:
    """"last Friday" (the latest Friday before today), "on Friday" / "past Friday" (idem: recall looks back),
    "this Friday" (the one of this week), "next Friday" (the one of next week); a day of slack each side."""
    this_week = week0 + timedelta(days=weekday)
    if which == "this":
        day = this_week
    elif which == "next":
        day = this_week + timedelta(days=7)
    else:
        day = this_week if this_week < day0 else this_week - timedelta(days=7)
    return day - _DAY, day + 2 * _DAY


def _calendar(modifier: str | None, step: int, unit: str, now: datetime, week0: datetime, month0: datetime,
              year0: datetime) -> tuple[datetime, datetime]:
    """The week, weekend, month or year `step` from this one; "earlier this month" ends now, "later this week"
    starts now. Weeks get a day of slack each side (a week is fuzzy in speech), months and years none."""
    if unit == "week":
        start, end = week0 + timedelta(days=7 * step) - _DAY, week0 + timedelta(days=7 * step + 7) + _DAY
    elif unit == "weekend":  # Saturday and Sunday; "last weekend" is the one before this week's Monday
        saturday = week0 + timedelta(days=5 + 7 * step)
        start, end = saturday - _DAY / 2, saturday + 2 * _DAY + _DAY / 2
    elif unit == "month":
        start = _add_months(month0, step)
        end = _add_months(start, 1)
    else:
        start = year0.replace(year=year0.year + step)
        end = start.replace(year=start.year + 1)
    if step == 0 and modifier == "earlier":
        end = now + _DAY / 2
    elif step == 0 and modifier == "later":
        start = now - _DAY / 2
    return start, end


def _specific_day(text: str) -> datetime | None:
    """A calendar day named in full: "9 November, 2022", "November 9th 2022", "2022-11-09"."""
    try:
        if m := _DAY_MONTH_YEAR.search(text):
            return datetime(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)), tzinfo=timezone.utc)
        if m := _MONTH_DAY_YEAR.search(text):
            return datetime(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)), tzinfo=timezone.utc)
        if m := _ISO_DAY.search(text):
            return datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=timezone.utc)
    except ValueError:  # "31 February"
        return None
    return None


def analyze(text: str, known_names: Iterable[str] = (), now: datetime | None = None) -> QueryInfo:
    """`now`: what time phrases count from (default: the wall clock). A phase (an end or a start asked about)
    only for a question about time: in "why did X start" the start is the topic (docs/retrieval.md)."""
    kind, script = classify(text), script_of(text)
    words, terms = words_and_terms(text)  # the text read once: its words, and the terms searched for
    info = QueryInfo(text, kind, tuple(terms), (), time_range(text, now),
                     query_phase(text) if kind == "temporal" else None, script, tuple(words))
    return info.for_names(known_names) if known_names else info
