"""Reading JSON out of what real models return: prose around it, code fences, trailing commas, cut-off arrays,
``<think>`` blocks of reasoning models, Python-style quoting."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


class ParseError(ValueError):
    """The reply held no usable JSON; the message says why."""


def parse_json(reply: str | None, expect: type | None = None) -> Any:
    """The JSON value in `reply` (a list or object when `expect` says so). Raises `ParseError` with a reason."""
    if reply is None or not reply.strip():
        raise ParseError("empty reply")
    reply = _THINK.sub("", reply)
    if not reply.strip():
        raise ParseError("the reply held only <think> reasoning")
    candidates = [m.group(1) for m in _FENCE.finditer(reply)] + [reply]
    for text in candidates:
        for value in _values_in(text):
            if expect is None or isinstance(value, expect):
                return value
            if expect is list and isinstance(value, dict):  # {"facts": [...]} for a list
                inner = [v for v in value.values() if isinstance(v, list)]
                if len(inner) == 1:
                    return inner[0]
    what = "JSON array" if expect is list else "JSON object" if expect is dict else "JSON"
    head = " ".join(reply.split())[:80]
    raise ParseError(f"no {what} in the reply (starts: {head!r})")


def _values_in(text: str):
    """Each JSON value that starts at one of the first 8 '[' or '{' in `text`, repaired when cut off or
    comma-sloppy."""
    for start in [i for i, ch in enumerate(text) if ch in "[{"][:8]:
        chunk = text[start:]
        end = _matching_end(chunk)
        piece = chunk[:end] if end else _close_truncated(chunk)
        if piece is None:
            if end is None:  # cut off before its first element: what follows are fragments of that element
                return
            continue
        value = _loads(piece)
        if value is not None:
            yield value


def _loads(piece: str) -> Any:
    """`piece` as JSON, else without trailing commas, else as a Python literal (single quotes, True/None)."""
    fixed = _TRAILING_COMMA.sub(r"\1", piece)
    for attempt in (piece, fixed):
        try:
            return json.loads(attempt)
        except json.JSONDecodeError:
            continue
    try:
        value = ast.literal_eval(fixed)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, (list, dict)) else None


def _structure(chunk: str) -> Iterator[tuple[int, str]]:
    """(index, character) of the characters outside JSON strings (quotes included, escapes honoured)."""
    in_string, escaped = False, False
    for i, ch in enumerate(chunk):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        yield i, ch


def _matching_end(chunk: str) -> int | None:
    """Index just past the bracket that closes chunk[0], or None when the text is cut off."""
    depth = 0
    for i, ch in _structure(chunk):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _close_truncated(chunk: str) -> str | None:
    """A reply cut off mid-value, closed at the last safe point.

    The outermost array on the path to the cut loses its unfinished last element (a cut-off list of facts keeps
    the complete ones, even inside ``{"facts": [...``); with no array on that path the innermost object keeps its
    complete members. A safe point is just before a comma or just after a closing bracket, so no cut-off string
    or number survives.
    """
    stack: list[list] = []  # [closer, start index, last safe cut inside this container or None]
    for i, ch in _structure(chunk):
        if ch in "[{":
            stack.append(["]" if ch == "[" else "}", i, None])
        elif ch in "]}":
            if stack:
                stack.pop()
            if not stack:  # closed after all: not a cut-off value
                return None
            stack[-1][2] = i + 1
        elif ch == "," and stack:
            stack[-1][2] = i
    if not stack:
        return None
    arrays = [level for level, (closer, _, _) in enumerate(stack) if closer == "]"]
    level = arrays[0] if arrays else len(stack) - 1
    closer, start, cut = stack[level]
    if cut is None:
        if level == 0:
            return None  # nothing complete at all
        cut = start + 1  # keep the container, empty
    return chunk[:cut] + "".join(c for c, _, _ in reversed(stack[: level + 1]))
