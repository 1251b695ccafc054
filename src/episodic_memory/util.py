"""Small helpers used across the package. Low level on purpose: it imports nothing from the package."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Literal, TypeVar, get_args

T = TypeVar("T")

SQL_CHUNK = 500  # values per `IN (...)` list: well under SQLite's variable limit
MAX_INT = 2**63 - 1  # SQLite's largest integer: the doors bound ids and counts by it (never an OverflowError)


def to_epoch(value: datetime | str | float | int | None, field_name: str = "timestamp") -> float:
    """A turn's event time as UTC epoch seconds. Naive datetimes and ISO strings are taken as UTC."""
    if value is None:
        return time.time()
    if isinstance(value, bool):
        raise TypeError(f"{field_name}: expected a datetime or ISO-8601 string, got a boolean")
    if isinstance(value, int | float):
        if not in_range(value):  # the range every later step can turn back into a date, never NaN
            raise ValueError(f"{field_name}: {value!r} is not a time in seconds since 1970 (years 1–9999)")
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{field_name}: {value!r} is not an ISO-8601 date-time") from None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        epoch = value.timestamp()
        if not in_range(epoch):  # "9999-12-31T23:59:59-14:00" is a valid date-time but in the year 10000 in UTC
            raise ValueError(f"{field_name}: {value.isoformat()} is outside the years 1–9999 in UTC")
        return epoch
    raise TypeError(f"{field_name}: expected a datetime or ISO-8601 string, got {type(value).__name__}")


def in_range(epoch: float) -> bool:
    """Whether `epoch` (seconds since 1970) is a UTC date-time Python can hold: years 1 to 9999, not NaN."""
    try:
        datetime.fromtimestamp(epoch, tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return False
    return True


def to_datetime(epoch: float | None) -> datetime | None:
    """UTC epoch seconds as an aware datetime; None stays None.

    Never raises: a stored time outside the years 1–9999 (written before the doors checked, or by hand) reads as
    the nearest end of that range, so one bad row cannot break a listing or a recall."""
    if epoch is None:
        return None
    if in_range(epoch):
        return datetime.fromtimestamp(epoch, tz=timezone.utc)
    return (datetime.min if epoch < 0 else datetime.max).replace(tzinfo=timezone.utc)


def to_iso(epoch: float | None) -> str | None:
    """UTC epoch seconds as an ISO-8601 string with its offset (+00:00); None stays None (never raises)."""
    moment = to_datetime(epoch)
    return None if moment is None else moment.isoformat()


MAX_ID_CHARS = 256


def check_id(value: object, name: str) -> str:
    """An id (user, session, memory) as every door accepts it: a non-blank string of at most `MAX_ID_CHARS`
    characters with no control character (a NUL, a newline) and no lone surrogate. An id reaches SQL, FTS5 queries,
    folder names and URLs: one grammar, checked where it comes in, keeps each of them from choking on it later."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"{name} is {len(value)} characters long: at most {MAX_ID_CHARS}")
    for i, ch in enumerate(value):
        if ch < " " or "\x7f" <= ch <= "\x9f":
            raise ValueError(f"{name} holds a control character {ch!r} at character {i}")
    check_unicode(value, name)
    return value


Role = Literal["user", "assistant", "system", "tool"]
ROLES: tuple[str, ...] = get_args(Role)  # who may speak a turn (any case; stored in lower case)


def check_source(value: object, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string or None, got {value!r}")
    return value.strip()


def check_tags(value: object, name: str) -> tuple[str, ...]:
    """Tags as given, stripped, each once, in order; a bare string is refused (it would be a list of letters)."""
    if value is None:
        return ()
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a list of strings, got {type(value).__name__}")
    tags = []
    for tag in value:
        if not isinstance(tag, str) or not tag.strip():
            raise ValueError(f"{name}: each tag must be a non-empty string, got {tag!r}")
        tags.append(tag.strip())
    return tuple(dict.fromkeys(tags))


def check_unicode(value: str | None, name: str) -> None:
    """A lone surrogate ("\\ud800", which JSON lets through) cannot be written as UTF-8: refuse it at the door."""
    if value is None:
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{name} is not valid Unicode text: a lone surrogate {value[exc.start]!r} at character "
                         f"{exc.start}") from None


def json_depth(value: object, cap: int) -> int:
    """How deeply a JSON-like value nests lists and dicts (a scalar: 0), counted without recursion and only up to
    `cap` + 1: a hostile value 100,000 levels deep (or one that holds itself) is measured, not a RecursionError."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list | tuple) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > cap:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def check_metadata(value: object, name: str, *, max_chars: int, max_depth: int) -> str | None:
    """A turn's metadata as it is stored and journaled: the JSON text of a JSON object (None stays None). Refused
    with an error naming `name`: what is not a mapping, not JSON (NaN, an object that is not a JSON value), a lone
    surrogate, nesting deeper than `max_depth`, or text over `max_chars` characters."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a mapping (a JSON object), got {type(value).__name__}")
    value = dict(value)
    if json_depth(value, max_depth) > max_depth:
        raise ValueError(f"{name} is nested deeper than {max_depth} levels (Config.capture.max_json_depth)")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a JSON object: {exc}") from None
    check_unicode(text, name)
    if len(text) > max_chars:
        raise ValueError(f"{name} is {len(text):,} characters of JSON, over the limit of {max_chars:,} "
                         "(Config.capture.max_turn_metadata_chars)")
    return text


def has_words(text: str) -> bool:
    """Whether `text` has anything to search for: a letter or a digit (not only spaces, punctuation or symbols)."""
    return any(c.isalnum() for c in text)


def chunks(values: Sequence[T], size: int = SQL_CHUNK) -> Iterator[list[T]]:
    """`values` in consecutive lists of at most `size` (for SQL `IN (...)` lists; SQLite limits the variables)."""
    for i in range(0, len(values), size):
        yield list(values[i : i + size])


R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

# the `cache_clear` of every memo that can hold stored text (see `forget_remembered_texts`)
_FORGETTABLE: list[Callable[[], None]] = []


def forgettable(fn: F) -> F:
    """Register an `lru_cache`d function whose cache can hold stored text (a name, a phrase, a word), so a forget
    clears it."""
    _FORGETTABLE.append(fn.cache_clear)  # type: ignore[attr-defined]  # an lru_cache wrapper
    return fn


def clear_on_forget(clear: Callable[[], None]) -> Callable[[], None]:
    """Register a function that drops a module's own cache of stored text (not an `lru_cache`) at a forget."""
    _FORGETTABLE.append(clear)
    return clear


def forget_remembered_texts() -> None:
    """Clear every per-text memo of this process (`memo_text`, `forgettable`): after a forget nothing of a deleted
    turn or fact stays in memory. They refill from what is still stored."""
    for clear in _FORGETTABLE:
        clear()


class TextMemos:
    """Every per-text memo of the process (`memo_text`) under one budget of bytes (an estimate: the result's
    objects two levels deep, not the text, which the store's rows share); the oldest entry of any memo goes first.
    First in, first out: a hit is one dict lookup with no bookkeeping (word-level memos are called thousands of
    times a recall).

    Sizing an entry (`footprint`, ~30 µs) cost more than some analyses, so each memo sizes its first `EXACT_FIRST`
    entries and one in `SAMPLE_EVERY` after (drawn at random), and counts the others at a moving mean of those."""

    ENTRY_BYTES = 160  # a dict slot, the order's tuple and the key's share
    EXACT_FIRST = 32
    SAMPLE_EVERY = 8

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._order: deque[tuple[dict[Any, Any], Any, int]] = deque()
        self._memos: list[dict[Any, Any]] = []
        self._sizes: dict[int, list[float]] = {}  # id(memo) -> [entries sized, their moving mean in bytes]
        self._draw = random.Random(0x5EED).random
        self._lock = threading.Lock()

    def new_memo(self) -> dict[Any, Any]:
        memo: dict[Any, Any] = {}
        self._memos.append(memo)
        self._sizes[id(memo)] = [0, 0.0]
        return memo

    def keep(self, memo: dict[Any, Any], key: Any, value: Any) -> None:
        sizes = self._sizes[id(memo)]
        sized, mean = sizes
        if sized < self.EXACT_FIRST or self._draw() * self.SAMPLE_EVERY < 1.0:  # drawn: no period to alias
            size = self.ENTRY_BYTES + footprint(value)
            weight = 1.0 / (sized + 1) if sized < self.EXACT_FIRST else 1.0 / self.SAMPLE_EVERY
            sizes[:] = sized + 1, mean + (size - mean) * weight
        else:
            size = int(mean)
        with self._lock:
            if key in memo or size > self.budget:
                return
            memo[key] = value
            self._order.append((memo, key, size))
            self.used += size
            self._evict()

    def set_budget(self, budget: int) -> None:
        with self._lock:
            self.budget = max(0, budget)
            self._evict()

    def clear(self) -> None:
        with self._lock:
            for memo in self._memos:
                memo.clear()
            self._order.clear()
            self.used = 0

    def entries(self) -> int:
        return len(self._order)

    def _evict(self) -> None:
        while self.used > self.budget and self._order:
            memo, key, size = self._order.popleft()
            del memo[key]
            self.used -= size


def footprint(value: Any, depth: int = 2) -> int:
    """Bytes `value` holds, roughly: its own size plus its items' (tuples, lists, sets, dicts, slotted or plain
    objects) down to `depth` levels. Shared small objects are counted again: an overestimate, on purpose."""
    size = sys.getsizeof(value)
    if depth <= 0 or isinstance(value, str | bytes | int | float | bool) or value is None:
        return size
    if isinstance(value, tuple | list | set | frozenset):
        return size + sum(footprint(item, depth - 1) for item in value)
    if isinstance(value, dict):
        return size + sum(footprint(k, depth - 1) + footprint(v, depth - 1) for k, v in value.items())
    slots = getattr(type(value), "__slots__", None)
    if slots:
        return size + sum(footprint(getattr(value, name, None), depth - 1) for name in slots)
    held = getattr(value, "__dict__", None)
    if held is not None:
        return size + footprint(held, depth)
    return size


#: the process's text memos; `Memory` sets the budget from `Config.retrieval.text_memo_mb`
TEXT_MEMOS = TextMemos(32 << 20)
_FORGETTABLE.append(TEXT_MEMOS.clear)
_MISSING = object()


def memo_text(longest: int = 2_000) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Memoise a function of a text (its first argument) in `TEXT_MEMOS`, for texts up to `longest` characters
    (a few huge turns would otherwise take the budget). What it returns is shared, so it must be immutable."""
    def wrap(fn: Callable[..., R]) -> Callable[..., R]:
        memo = TEXT_MEMOS.new_memo()
        get, keep = memo.get, TEXT_MEMOS.keep

        @functools.wraps(fn)
        def call(text: str, *args: Any) -> R:
            if len(text) > longest:
                return fn(text, *args)
            key = (text, *args) if args else text
            found = get(key, _MISSING)
            if found is _MISSING:
                found = fn(text, *args)
                keep(memo, key, found)
            return found
        return call
    return wrap


_trimmed_at = float("-inf")   # never: the first call runs, however young the monotonic clock
_trim_lock = threading.Lock()


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None


def give_back_freed_memory(at_most_every_s: float = 0.0) -> bool:
    """Hand the C heap's free pages back to the system (glibc's `malloc_trim`; nothing elsewhere), at most
    once every `at_most_every_s` seconds a process (docs/write-path.md, "Freed memory goes back"). Takes a few
    ms; returns whether it ran."""
    global _trimmed_at
    trim = _malloc_trim()
    if trim is None:
        return False
    with _trim_lock:
        now = time.monotonic()
        if at_most_every_s and now - _trimmed_at < at_most_every_s:
            return False
        _trimmed_at = now
    trim(0)
    return True


class OneBlasThread:
    """numpy's BLAS kept to one thread while any search runs (threadpoolctl; the first search in sets it, the
    last out restores what the host process had): a second BLAS thread spins on the core the BM25 legs need
    (docs/retrieval.md)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._controller: Any = None
        self._restore: Any = None

    def __enter__(self) -> None:
        with self._lock:
            self._inside += 1
            if self._inside == 1:
                if self._controller is None:
                    from threadpoolctl import ThreadpoolController

                    self._controller = ThreadpoolController()
                self._restore = self._controller.limit(limits=1, user_api="blas")

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._inside -= 1
            if self._inside == 0 and self._restore is not None:
                self._restore.restore_original_limits()
                self._restore = None


one_blas_thread = OneBlasThread()  # the dense scan (retrieve/dense.py) and re-clustering share it


# --- thread priority: a nice value per thread on Linux (docs/write-path.md, "Background work runs below the
# callers"); elsewhere the OS sets priority per process, and these are no-ops
PER_THREAD_NICE = sys.platform == "linux"


def thread_niceness() -> int:
    """This thread's nice value (0 where the OS keeps none per thread)."""
    if not PER_THREAD_NICE:
        return 0
    try:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    except OSError:
        return 0


def set_thread_niceness(value: int) -> int:
    """Set this thread's nice value (clamped to 19), and return what it is now: lowering priority needs no
    privilege, raising it back may be refused (then it stays as it was)."""
    if not PER_THREAD_NICE:
        return 0
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(19, value))
    return thread_niceness()


def lower_thread_priority(by: int) -> int:
    """Run this thread `by` nice steps below where it runs now (0: leave it). Returns its nice value."""
    now = thread_niceness()
    return set_thread_niceness(now + by) if by > 0 else now
