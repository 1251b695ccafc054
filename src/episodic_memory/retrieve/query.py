"""A cheap query analyser (regex and lexicon, microseconds): query type, names the store knows, time phrases."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from .fts import STOPWORDS, query_terms

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS.pop("may", None)
MONTHS["may"] = 5

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
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_MONTH_YEAR = re.compile(r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?,?(?:\s+(19\d\d|20\d\d))?\b",
                         re.I)
_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORDS})\.?,?\s+(19\d\d|20\d\d)\b", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH_WORDS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(19\d\d|20\d\d)\b", re.I)
_ISO_DAY = re.compile(r"\b(19\d\d|20\d\d)-(\d\d)-(\d\d)\b")
_AGO = re.compile(r"\b(\d+|a|an|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b", re.I)
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass
class QueryInfo:
    """What the analyser found in a query."""

    text: str
    kind: str                                   # temporal | reasoning | exact | general
    terms: list[str]
    names: list[str] = field(default_factory=list)        # known names mentioned (as stored)
    time_range: tuple[float, float] | None = None         # epoch seconds [start, end)


def classify(text: str) -> str:
    if _TEMPORAL.search(text):
        return "temporal"
    if _EXACT.search(text):
        return "exact"
    if _REASONING.search(text):
        return "reasoning"
    return "general"


def find_names(text: str, known: Iterable[str]) -> list[str]:
    """Known names mentioned in `text`, matched as whole words, case-insensitively (not by capital letters)."""
    words = set(query_terms(text, keep_stopwords=True))
    lowered = text.lower()
    found = []
    for name in known:
        parts = query_terms(name, keep_stopwords=True)
        if not parts:
            continue
        if (len(parts) == 1 and parts[0] in words) or (len(parts) > 1 and " ".join(parts) in lowered) or (
            len(parts) > 1 and parts[0] in words and len(parts[0]) > 2
        ):
            found.append(name)
    return found


def strip_names(text: str, names: Iterable[str]) -> str:
    """`text` without the given names (whole words, any case, with a possessive 's); `text` itself when nothing but
    stopwords would be left ("Who is Caroline?")."""
    out = text
    for name in names:
        out = re.sub(rf"\b{re.escape(name)}(?:['’]s|s['’])?(?!\w)", " ", out, flags=re.I)
    out = re.sub(r"\s+", " ", out).strip()
    return out if any(w not in STOPWORDS for w in query_terms(out, keep_stopwords=True)) else text


def _month_range(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=timezone.utc)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=timezone.utc)
    return start, end


def time_range(text: str, now: datetime | None = None) -> tuple[float, float] | None:
    """The period a query's time phrase points at ("in 2022", "last May", "May 2023", "3 weeks ago", "yesterday")."""
    now = now or datetime.now(timezone.utc)
    lowered = text.lower()
    span: tuple[datetime, datetime] | None = None
    if day := _specific_day(text):
        span = (day - timedelta(days=1), day + timedelta(days=2))
    elif m := _AGO.search(lowered):
        n = int(m.group(1)) if m.group(1).isdigit() else _WORD_NUMBERS[m.group(1)]
        days = {"day": 1, "week": 7, "month": 30, "year": 365}[m.group(2)] * n
        centre = now - timedelta(days=days)
        slack = timedelta(days=max(1.0, days * 0.25))
        span = (centre - slack, centre + slack)
    elif "yesterday" in lowered:
        day = (now - timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        span = (day, day + timedelta(days=1))
    elif "last week" in lowered:
        span = (now - timedelta(days=14), now - timedelta(days=5))
    elif "last month" in lowered:
        first = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        span = _month_range(first.year - (first.month == 1), (first.month - 2) % 12 + 1)
    elif "last year" in lowered:
        span = (datetime(now.year - 1, 1, 1, tzinfo=timezone.utc), datetime(now.year, 1, 1, tzinfo=timezone.utc))
    else:
        for m in _MONTH_YEAR.finditer(text):
            word, year = m.group(1).lower(), m.group(2)
            if word == "may" and not year and not re.search(r"\b(last|in|of|this|early|late|mid)\s+may\b", lowered):
                continue  # the modal verb
            month = MONTHS[word]
            if year:
                span = _month_range(int(year), month)
            else:  # "last May": the most recent May before now
                y = now.year if month < now.month else now.year - 1
                span = _month_range(y, month)
            break
        if span is None and (year_match := _YEAR.search(text)):
            year = int(year_match.group(1))
            span = (datetime(year, 1, 1, tzinfo=timezone.utc), datetime(year + 1, 1, 1, tzinfo=timezone.utc))
    return None if span is None else (span[0].timestamp(), span[1].timestamp())


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
    return QueryInfo(text=text, kind=classify(text), terms=query_terms(text), names=find_names(text, known_names),
                     time_range=time_range(text, now))
