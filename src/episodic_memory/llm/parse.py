"""Reading JSON out of what real models return: prose around it, code fences, trailing commas, cut-off arrays."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([\]}])")


class ParseError(ValueError):
    """The reply held no usable JSON; the message says why."""


def parse_json(reply: str | None, expect: type | None = None) -> Any:
    """The JSON value in `reply` (a list or object when `expect` says so). Raises `ParseError` with a reason."""
    if reply is None or not reply.strip():
        raise ParseError("empty reply")
    candidates = [m.group(1) for m in _FENCE.finditer(reply)] + [reply]
    for text in candidates:
        for value in _values_in(text):
            if expect is None or isinstance(value, expect):
                return value
            if expect is list and isinstance(value, dict):  # {"facts": [...]} for a list
                inner = [v for v in value.values() if isinstance(v, list)]
                if len(inner) == 1:
                    return inner[0]
    what = {list: "a JSON array", dict: "a JSON object"}.get(expect, "JSON")  # type: ignore[arg-type]
    head = " ".join(reply.split())[:80]
    raise ParseError(f"no {what} in the reply (starts: {head!r})")


def _values_in(text: str):
    """Each JSON value that starts at a '[' or '{' in `text`, repaired when cut off or comma-sloppy."""
    starts = [i for i, ch in enumerate(text) if ch in "[{"]
    tried = 0
    for start in starts:
        if tried >= 8:
            break
        tried += 1
        chunk = text[start:]
        end = _matching_end(chunk)
        piece = chunk[:end] if end else _close_truncated(chunk)
        if piece is None:
            continue
        for attempt in (piece, _TRAILING_COMMA.sub(r"\1", piece)):
            try:
                yield json.loads(attempt)
                break
            except json.JSONDecodeError:
                continue


def _matching_end(chunk: str) -> int | None:
    """Index just past the bracket that closes chunk[0], or None when the text is cut off."""
    depth, in_string, escaped = 0, False, False
    for i, ch in enumerate(chunk):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _close_truncated(chunk: str) -> str | None:
    """A reply cut off mid-array: keep the complete elements and close the brackets."""
    stack: list[str] = []
    in_string, escaped, last_complete = False, False, None
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
        elif ch in "[{":
            stack.append("]" if ch == "[" else "}")
        elif ch in "]}":
            if stack:
                stack.pop()
            if len(stack) == 1:  # an element of the outer container just closed
                last_complete = (i + 1, list(stack))
    if last_complete is None:
        return None
    end, open_brackets = last_complete
    return _TRAILING_COMMA.sub(r"\1", chunk[:end] + "".join(reversed(open_brackets)))
