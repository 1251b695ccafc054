"""The time a statement refers to, resolved against when it was said ("yesterday", "last Saturday", "30 November")."""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta, timezone

from ..retrieve.query import MONTHS, time_range
from ..util import to_datetime

WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_DAY_WORDS = "|".join(WEEKDAYS)
_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = re.compile(rf"\b(last|next|this|on|coming)?\s*({_DAY_WORDS})\b", re.I)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORDS})\b(?!\s+\d{{4}})", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH_WORDS})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!,?\s+\d{{4}})", re.I)
_IN_N = re.compile(r"\bin\s+(\d+|a|an|one|two|three|four)\s+(day|week|month)s?\b", re.I)
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_RELATIVE = {
    "yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0,
    "this evening": 0, "tomorrow": 1, "next week": 7, "last week": -7, "next month": 30, "last month": -30,
}


def resolve_when(text: str, said_at: datetime, *, future: bool | None = None) -> datetime | None:
    """The day `text` refers to, given it was said at `said_at` (UTC midnight of that day), or None (also
    outside the years 1–9999). A bare weekday ("on Friday") points forward when `future` and back otherwise.
    """
    try:
        return _resolve_when(text, said_at, future)
    except (OverflowError, ValueError):
        return None


def _resolve_when(text: str, said_at: datetime, future: bool | None) -> datetime | None:
    if said_at.tzinfo is None:
        said_at = said_at.replace(tzinfo=timezone.utc)
    day0 = said_at.astimezone(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    lowered = text.lower()
    for m in _DAY_MONTH.finditer(text):
        return _nearest_date(day0, MONTHS[m.group(2).lower()], int(m.group(1)), future)
    for m in _MONTH_DAY.finditer(text):
        if m.group(1).lower() == "may" and not re.search(r"\bmay\s+\d", lowered):
            continue
        return _nearest_date(day0, MONTHS[m.group(1).lower()], int(m.group(2)), future)
    if weekday_match := _WEEKDAY.search(text):
        which, weekday = (weekday_match.group(1) or "").lower(), WEEKDAYS[weekday_match.group(2).lower()]
        this_week = day0 + timedelta(days=weekday - day0.weekday())   # that weekday in the current Mon–Sun week
        if this_week == day0 and which == "this":
            return day0
        if which == "next":                                            # "next Friday": in the following week
            return this_week + timedelta(days=7)
        if which == "last":
            return this_week - timedelta(days=7) if this_week >= day0 else this_week
        if which == "coming" or (which in ("", "on", "this") and future is True):   # forward
            return this_week if this_week > day0 else this_week + timedelta(days=7)
        return this_week if this_week < day0 else this_week - timedelta(days=7)
    if in_n := _IN_N.search(text):
        n = int(in_n.group(1)) if in_n.group(1).isdigit() else _NUMBERS[in_n.group(1).lower()]
        return day0 + timedelta(days=n * {"day": 1, "week": 7, "month": 30}[in_n.group(2).lower()])
    for phrase, days in _RELATIVE.items():
        if re.search(rf"\b{phrase}\b", lowered):
            return day0 + timedelta(days=days)
    span = time_range(text, said_at)  # full dates, "3 weeks ago", "last May", "in 2022"
    return None if span is None else to_datetime(span[0])


def _nearest_date(day0: datetime, month: int, day: int, future: bool | None) -> datetime | None:
    """`day` `month` in the year that puts it nearest to `day0` (the future for plans, the past for events)."""
    candidates = []
    for year in (day0.year - 1, day0.year, day0.year + 1):
        try:
            candidates.append(datetime(year, month, day, tzinfo=timezone.utc))
        except ValueError:
            continue
    if future is True:
        candidates = [c for c in candidates if c >= day0] or candidates
    elif future is False:
        candidates = [c for c in candidates if c <= day0] or candidates
    return min(candidates, key=lambda c: abs(c - day0), default=None)
